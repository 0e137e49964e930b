//! A move the promise's owner asks for as a question takes effect when someone who may decide
//! agrees: "инвентаризацию перенесём на пятницу?" → "давай".

use serde_json::{Value, json};

use crate::common::{self, group_line};

fn team(lang: &str) -> Vec<Value> {
    vec![
        json!({"type": "org", "name": "Склад", "timezone": "Europe/Moscow", "locale": lang}),
        json!({"type": "member", "user": {"id": 1, "first_name": "Рустам"}, "role": "director", "dm_open": true}),
        json!({"type": "member", "user": {"id": 2, "first_name": "Павел"}, "role": "member", "manager": 1}),
        json!({"type": "member", "user": {"id": 3, "first_name": "Вадим"}, "role": "member", "manager": 1}),
    ]
}

fn chat() -> Value {
    json!({"id": -100500, "type": "supergroup", "title": "Склад"})
}

/// Each commitment's text and due date.
fn dues(out: &Value) -> Vec<(String, Option<String>)> {
    out["commitments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["text"].as_str().unwrap().to_string(),
                c["due"].as_str().map(str::to_string),
            )
        })
        .collect()
}

/// Павел promises the stocktake for Wednesday, asks on Wednesday to move it to Friday, and
/// `agreer` answers "давай" to the question; the promise's due date afterwards.
async fn asked_then_agreed_by(agreer: i64) -> Vec<(String, Option<String>)> {
    let mut lines = team("ru");
    lines.extend([
        group_line(
            &chat(),
            10,
            2,
            "2026-12-07T15:00:00+03:00",
            "инвентаризацию склада сделаю в среду",
        ),
        group_line(
            &chat(),
            11,
            2,
            "2026-12-09T10:30:00+03:00",
            "рустам, инвентаризацию перенесём на пятницу? весь день по поставщикам",
        ),
    ]);
    let mut agree = group_line(&chat(), 12, agreer, "2026-12-09T10:32:00+03:00", "давай");
    agree["reply_to"] = json!(11);
    lines.push(agree);
    dues(&common::replay_ru(&lines).await)
}

#[tokio::test]
async fn a_move_asked_by_the_owner_moves_when_the_manager_agrees() {
    let d = asked_then_agreed_by(1).await;
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].1.as_deref(), Some("2026-12-11"), "{d:?}");
}

#[tokio::test]
async fn a_teammates_yes_to_the_question_moves_nothing() {
    let d = asked_then_agreed_by(3).await;
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(
        d[0].1.as_deref(),
        Some("2026-12-09"),
        "a teammate's yes is not the manager's: {d:?}"
    );
}

#[tokio::test]
async fn an_english_push_asked_and_agreed_moves_the_promise() {
    let mut lines = common::Team::new("Studio", "Europe/London", "en")
        .director(1, "Maya")
        .member(2, "Raj")
        .dm_closed()
        .then([]);
    let c = json!({"id": -100600, "type": "supergroup", "title": "Studio"});
    lines.extend([
        group_line(
            &c,
            10,
            2,
            "2026-12-07T10:00:00+00:00",
            "I'll finish the onboarding screens by wednesday",
        ),
        group_line(
            &c,
            11,
            2,
            "2026-12-09T09:00:00+00:00",
            "can we push the onboarding screens to friday?",
        ),
        group_line(&c, 12, 1, "2026-12-09T09:05:00+00:00", "sure"),
    ]);
    let out = common::replay_ru(&lines).await;
    let d = dues(&out);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].1.as_deref(), Some("2026-12-11"), "{d:?}");
}

/// A request answered with another date ("Can't do Friday… Thurs ok?", "к пятнице не успею,
/// давай в понедельник?") is taken by that date, and the asker's "aye fine" / "ок" that follows
/// neither makes a second promise nor moves it back to the date first asked.
#[tokio::test]
async fn a_request_answered_with_another_date_is_taken_by_that_date() {
    let cases = [
        (
            "en",
            "Aisha, can you send the May invoices by Friday?",
            "Can't do Friday, I'm at the dentist. Thurs ok?",
            "aye fine",
            "2026-12-10",
        ),
        (
            "ru",
            "Павел, пришлёшь счета до пятницы?",
            "к пятнице не успею, давай в понедельник?",
            "ок",
            "2026-12-14",
        ),
        (
            "ru",
            "Павел, пришлёшь счета до пятницы?",
            "в пятницу не могу, в четверг норм?",
            "ок",
            "2026-12-10",
        ),
    ];
    for (lang, ask, answer, yes, want) in cases {
        let mut lines = team(lang);
        let a = group_line(&chat(), 10, 1, "2026-12-07T15:00:00+03:00", ask);
        let mut b = group_line(&chat(), 11, 2, "2026-12-07T15:05:00+03:00", answer);
        b["reply_to"] = json!(10);
        let mut c = group_line(&chat(), 12, 1, "2026-12-07T15:07:00+03:00", yes);
        c["reply_to"] = json!(11);
        lines.extend([a, b, c]);
        let d = dues(&common::replay_ru(&lines).await);
        assert_eq!(d.len(), 1, "{answer}: {d:?}");
        assert_eq!(d[0].1.as_deref(), Some(want), "{answer}: {d:?}");
    }
}

/// `texts` in the group in order, each by (author, reply_to), a few minutes apart from Monday
/// 2026-12-07 10:00; every commitment afterwards as (text, due, state).
async fn said(texts: &[(i64, Option<i64>, &str)]) -> Vec<(String, Option<String>, String)> {
    let mut lines = team("en");
    for (k, (from, reply, text)) in texts.iter().enumerate() {
        let mut line = group_line(
            &chat(),
            10 + k as i64,
            *from,
            &format!("2026-12-07T10:{:02}:00+03:00", 5 * k),
            text,
        );
        if let Some(r) = reply {
            line["reply_to"] = json!(r);
        }
        lines.push(line);
    }
    let out = common::replay_ru(&lines).await;
    out["commitments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["text"].as_str().unwrap().to_string(),
                c["due"].as_str().map(str::to_string),
                c["state"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[tokio::test]
async fn a_date_answering_when_dates_the_promise_asked_about() {
    let got = said(&[
        (2, None, "I'll update the members directory on the website"),
        (1, Some(10), "when?"),
        (2, Some(11), "friday"),
    ])
    .await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].1.as_deref(), Some("2026-12-11"), "{got:?}");
    // The same in Russian, without a question mark on a lone "когда".
    let got = said(&[
        (2, None, "обновлю справочник на сайте"),
        (1, Some(10), "когда"),
        (2, Some(11), "в пятницу"),
    ])
    .await;
    assert_eq!(got[0].1.as_deref(), Some("2026-12-11"), "{got:?}");
}

#[tokio::test]
async fn the_owners_yes_to_a_date_proposed_back_moves_the_promise() {
    let got = said(&[
        (
            2,
            None,
            "I'll set up the cupping on Friday, Rustam pls join",
        ),
        (
            1,
            Some(10),
            "Friday I'm at the meeting in Coonoor. Can you do Saturday?",
        ),
        (2, Some(11), "ok Saturday"),
    ])
    .await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].1.as_deref(), Some("2026-12-12"), "{got:?}");
}

#[tokio::test]
async fn leave_asked_for_work_spoken_of_moves_it() {
    let got = said(&[
        (1, None, "Pavel can you get me the P&L by Friday?"),
        (2, Some(10), "Yes"),
        (
            2,
            None,
            "the P&L won't be ready, the bank statement never came. Can I bring it Monday?",
        ),
    ])
    .await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].1.as_deref(), Some("2026-12-14"), "{got:?}");
}

#[tokio::test]
async fn a_report_beside_a_new_promise_closes_the_one_it_reports() {
    let got = said(&[
        (2, None, "I'll confirm the vendor and the DJ today"),
        (
            2,
            None,
            "Vendor + DJ confirmed 🎶 DJ wants 50% upfront. Rustam I'll send you his account details",
        ),
    ])
    .await;
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[0].2, "done", "{got:?}");
    assert_eq!(got[1].2, "open", "{got:?}");
    // Another verb after the report is new work, not the rest of the reported one.
    let got = said(&[
        (1, None, "Павел, костюм отвезёшь завтра в химчистку?"),
        (2, Some(10), "отвезу"),
        (2, None, "сдал в химчистку, костюм заберу в пятницу"),
    ])
    .await;
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[0].2, "done", "{got:?}");
    assert_eq!(got[1].1.as_deref(), Some("2026-12-11"), "{got:?}");
}

#[tokio::test]
async fn work_handed_over_in_reply_to_its_request_closes_it() {
    let got = said(&[
        (1, None, "Pavel, can you do the prep list by Wednesday?"),
        (2, Some(10), "👍"),
        (
            2,
            Some(10),
            "Here you go 👇 prep for Sat/Sun: pea soup x3 pots, beans x2",
        ),
    ])
    .await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].2, "done", "{got:?}");
    // "seen 👍" takes a request as "ok" does.
    let got = said(&[
        (
            1,
            None,
            "Pavel, can you sort out the router for the card machine today?",
        ),
        (2, Some(10), "seen 👍"),
    ])
    .await;
    assert_eq!(got.len(), 1, "{got:?}");
}

#[tokio::test]
async fn a_date_answering_when_can_you_in_a_requests_thread_takes_the_request() {
    let got = said(&[
        (
            1,
            None,
            "Pavel, can you put together a quote for the Watergate Bay hotel? they want taster sessions",
        ),
        (2, Some(10), "how soon d'you need it?"),
        (1, Some(11), "soon as really, they're keen. when can you?"),
        (2, Some(12), "Thursday"),
    ])
    .await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(got[0].0.contains("quote"), "{got:?}");
    // Monday 7 December: Thursday is the 10th.
    assert_eq!(got[0].1.as_deref(), Some("2026-12-10"), "{got:?}");
}

#[tokio::test]
async fn an_answer_or_a_wish_closes_no_promise() {
    // Where a bill lies, told answering a question about another thing.
    let got = said(&[
        (2, None, "Счета-фактуры за март сделаю послезавтра"),
        (
            1,
            None,
            "Павел, сколько мы в марте за электричество отдали?",
        ),
        (2, Some(11), "48 300, счёт в папке у Ани"),
    ])
    .await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].2, "open", "{got:?}");
    // What the speaker would do.
    let got = said(&[
        (2, None, "По Сузуки Мамедова помпу поменяю в пятницу"),
        (
            2,
            None,
            "Если Мамедов согласится, я бы заодно и помпу ему поменял",
        ),
    ])
    .await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].2, "open", "{got:?}");
}

#[tokio::test]
async fn trying_someone_again_or_all_but_one_reached_moves_the_promise_to_reach_them() {
    // Monday 7 December: the promise to chase, then a report naming other people.
    let got = said(&[
        (
            2,
            None,
            "Three deposits still outstanding - Hynes, Fahy, McDonagh. I'll chase them all by the end of the month",
        ),
        (
            2,
            None,
            "rang Hynes and Fahy, both paid 🙌 McDonagh isn't answering, I'll try her again Monday",
        ),
    ])
    .await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].1.as_deref(), Some("2026-12-14"), "{got:?}");
    assert_eq!(got[0].2, "open", "{got:?}");
    // All reached but one: not done, the rest tomorrow.
    let got = said(&[
        (1, None, "Павел, по просроченным обзвони клиентов до среды"),
        (2, Some(10), "за мной"),
        (
            2,
            None,
            "по просроченным: всех обзвонил, кроме Пака — телефон вне сети. завтра ещё наберу",
        ),
    ])
    .await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].1.as_deref(), Some("2026-12-08"), "{got:?}");
    assert_eq!(got[0].2, "open", "{got:?}");
}

#[tokio::test]
async fn an_ask_with_its_ease_and_a_dialect_yes_is_taken() {
    // "no rush, next week is fine" dates the ask, it moves nothing; "grand, will do" takes it.
    let got = said(&[
        (
            1,
            None,
            "Павел could you put together a shortlist of 3 bands for the Kinvara enquiry? no rush, next week is fine",
        ),
        (2, Some(10), "grand, will do"),
    ])
    .await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(got[0].0.contains("shortlist"), "{got:?}");
    // "next week" is Friday of next week.
    assert_eq!(got[0].1.as_deref(), Some("2026-12-18"), "{got:?}");
    // South African "ja", Irish "sound" alone.
    for yes in ["ja will do", "sound", "yebo"] {
        let got = said(&[
            (1, None, "Павел please book the inspector by tomorrow"),
            (2, Some(10), yes),
        ])
        .await;
        assert_eq!(got.len(), 1, "{yes}: {got:?}");
        assert_eq!(got[0].1.as_deref(), Some("2026-12-08"), "{yes}: {got:?}");
    }
    // "к пятнице будет" answers an ask by Friday.
    let got = said(&[
        (1, None, "Павел, подготовь отчёт по заявкам за январь"),
        (2, Some(10), "к пятнице будет"),
    ])
    .await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].1.as_deref(), Some("2026-12-11"), "{got:?}");
}

#[tokio::test]
async fn a_verb_and_an_address_take_the_words_of_the_ask() {
    // "Рустам, мой завтра занесу": the address and "мой" name no work; the ask's words do.
    let got = said(&[
        (
            1,
            None,
            "Коллеги, авансовые отчёты за март сдайте мне до 31-го, иначе не закрою месяц",
        ),
        (2, Some(10), "Рустам, мой завтра занесу, чеки в бардачке"),
    ])
    .await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(got[0].0.contains("авансовые отчёты"), "{got:?}");
    assert!(!got[0].0.contains("Рустам"), "{got:?}");
    assert_eq!(got[0].1.as_deref(), Some("2026-12-08"), "{got:?}");
}

/// The same words said undated in two chats are two errands; said again with a date in
/// another chat, they move the one promise.
#[tokio::test]
async fn the_same_words_in_another_chat_are_another_promise_unless_they_move_it() {
    let run = |second: &'static str| async move {
        let other = json!({"id": -100501, "type": "supergroup", "title": "Офис"});
        let mut lines = team("en");
        lines.push(group_line(
            &chat(),
            10,
            2,
            "2026-12-07T10:00:00+03:00",
            "I'll send the price list to the client",
        ));
        lines.push(group_line(
            &other,
            20,
            2,
            "2026-12-07T11:00:00+03:00",
            second,
        ));
        let out = common::replay_ru(&lines).await;
        dues(&out)
    };
    let undated = run("ok, I'll send the price list").await;
    assert_eq!(undated.len(), 2, "{undated:?}");
    let dated = run("I'll send the price list on Thursday").await;
    assert_eq!(dated.len(), 1, "{dated:?}");
    assert_eq!(dated[0].1.as_deref(), Some("2026-12-10"), "{dated:?}");
}

/// A director hands out parts by name beside a promise of the team's own; the one named takes
/// their part with a short yes.
#[tokio::test]
async fn a_short_yes_takes_the_part_named_beside_the_authors_own_promise() {
    let got = said(&[
        (
            1,
            None,
            "в пятницу отгрузка с 8 утра. Павел — газель и прицеп к 7:30, Вадим — поддоны. Сделаем к четвергу всё что можно заранее",
        ),
        (2, Some(10), "принято"),
    ])
    .await;
    assert!(
        got.iter().any(|(text, _, _)| text.contains("газель")),
        "{got:?}"
    );
    // Said to the one who answers, a promise of the author's own is not handed over.
    let got = said(&[
        (
            1,
            None,
            "Павел I'll sort the dispatch rota for january by end of week",
        ),
        (2, Some(10), "👍"),
    ])
    .await;
    assert_eq!(got.len(), 1, "{got:?}");
}

/// "about 80% done, … left. we'll finish it monday": progress and a move, not done.
#[tokio::test]
async fn a_share_done_with_the_rest_put_off_moves_the_promise() {
    let got = said(&[
        (2, None, "I'll finish the Hillcrest install on wednesday"),
        (
            2,
            None,
            "Hillcrest about 80% done, panel programming left. we'll finish it monday morning",
        ),
    ])
    .await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].2, "open", "{got:?}");
    assert_eq!(got[0].1.as_deref(), Some("2026-12-14"), "{got:?}");
}
