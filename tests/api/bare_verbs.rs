//! A promise that names only its verb and its date ("посмотрю завтра с утра", "остальные добью
//! в понедельник"): the acceptance of a request to the speaker just before it, else the open
//! promise the rest of the message names, else a promise of its own about what the message says.
//! And the other way round: an update named only by the promise's verb ("ремень заказал" for
//! "новый закажу") finds it.

use serde_json::{Value, json};

use crate::common::{self, group_line};

fn team() -> Vec<Value> {
    vec![
        json!({"type": "org", "name": "Клуб", "timezone": "Europe/Moscow", "locale": "ru"}),
        json!({"type": "member", "user": {"id": 1, "first_name": "Олег"}, "role": "director", "dm_open": true}),
        json!({"type": "member", "user": {"id": 2, "first_name": "Степан"}, "role": "member", "manager": 1}),
    ]
}

fn chat() -> Value {
    json!({"id": -100600, "type": "supergroup", "title": "Клуб"})
}

/// An English shop: Dana directs, Ravi (and with `lani`, Lani) work for her.
fn shop(lani: bool) -> Vec<Value> {
    let mut lines = vec![
        json!({"type": "org", "name": "Shop", "timezone": "Europe/London", "locale": "en"}),
        json!({"type": "member", "user": {"id": 1, "first_name": "Dana"}, "role": "director", "dm_open": true}),
        json!({"type": "member", "user": {"id": 2, "first_name": "Ravi"}, "role": "member", "manager": 1}),
    ];
    if lani {
        lines.push(json!({"type": "member", "user": {"id": 3, "first_name": "Lani"}, "role": "member", "manager": 1}));
    }
    lines
}

async fn run(
    msgs: &[(i64, i64, &str, &str, Option<i64>)],
) -> Vec<(i64, String, Option<String>, String, i64)> {
    let mut lines = team();
    for &(id, from, date, text, reply) in msgs {
        let mut l = group_line(&chat(), id, from, date, text);
        if let Some(r) = reply {
            l["reply_to"] = json!(r);
        }
        lines.push(l);
    }
    common::held(&common::replay_ru(&lines).await)
}

#[tokio::test]
async fn a_dated_bare_verb_after_a_request_accepts_it() {
    let got = run(&[
        (
            10,
            1,
            "2026-11-23T10:00:00+03:00",
            "Степан, посмотришь кран в душевой?",
            None,
        ),
        (
            11,
            2,
            "2026-11-23T10:05:00+03:00",
            "посмотрю завтра",
            Some(10),
        ),
    ])
    .await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, 2);
    assert!(got[0].1.contains("кран"), "{got:?}");
    assert_eq!(got[0].2.as_deref(), Some("2026-11-24"), "{got:?}");
}

#[tokio::test]
async fn a_dated_bare_verb_alone_is_a_promise_about_what_the_message_says() {
    let got = run(&[(
        10,
        2,
        "2026-11-25T14:00:00+03:00",
        "в мужской раздевалке опять душ течет. посмотрю завтра с утра",
        None,
    )])
    .await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(got[0].1.contains("душ"), "{got:?}");
    assert_eq!(got[0].2.as_deref(), Some("2026-11-26"), "{got:?}");
}

#[tokio::test]
async fn a_dated_bare_verb_naming_an_open_promise_moves_it() {
    let got = run(&[
        (
            10,
            2,
            "2026-11-23T10:00:00+03:00",
            "проверю минибары на всех этажах до среды",
            None,
        ),
        (
            11,
            2,
            "2026-11-25T17:00:00+03:00",
            "минибары: второй и третий этаж проверил, остальные добью в понедельник",
            None,
        ),
    ])
    .await;
    assert_eq!(got.len(), 1, "one promise, moved: {got:?}");
    assert_eq!(got[0].2.as_deref(), Some("2026-11-30"), "{got:?}");
}

#[tokio::test]
async fn right_now_and_verbs_of_no_work_promise_nothing_of_their_own() {
    let got = run(&[
        (10, 2, "2026-11-23T10:00:00+03:00", "щас гляну", None),
        (
            11,
            2,
            "2026-11-23T10:05:00+03:00",
            "подожду до завтра",
            None,
        ),
        (12, 2, "2026-11-23T10:06:00+03:00", "приду в пятницу", None),
    ])
    .await;
    assert!(got.is_empty(), "{got:?}");
}

#[tokio::test]
async fn a_report_by_the_promises_verb_completes_it_and_not_another() {
    // The mirror is the newer promise: a report naming nothing would be read as about it.
    let got = run(&[
        (
            10,
            2,
            "2026-11-23T10:00:00+03:00",
            "ремень растянулся. новый закажу до среды",
            None,
        ),
        (
            11,
            2,
            "2026-11-23T11:00:00+03:00",
            "повешу второе зеркало в зале до пятницы",
            None,
        ),
        (
            12,
            2,
            "2026-11-24T10:00:00+03:00",
            "заказал, привезут в пятницу",
            None,
        ),
    ])
    .await;
    let state = |verb: &str| {
        got.iter()
            .find(|c| c.1.starts_with(verb))
            .map(|c| c.3.clone())
            .unwrap_or_else(|| panic!("no promise to {verb}: {got:?}"))
    };
    assert_eq!(state("заказать"), "done", "{got:?}");
    assert_eq!(state("повесить"), "open", "{got:?}");
}

#[tokio::test]
async fn a_date_answering_when_can_you_accepts_the_work_asked() {
    let got = run(&[
        (
            10,
            1,
            "2026-11-23T11:00:00+03:00",
            "Степан, сверку с поставщиком когда сможешь?",
            None,
        ),
        (11, 2, "2026-11-23T11:25:00+03:00", "10.12", Some(10)),
        (
            12,
            1,
            "2026-11-23T12:00:00+03:00",
            "Степан, нужен план по сменам на декабрь. Когда сможешь?",
            None,
        ),
        (13, 2, "2026-11-23T12:10:00+03:00", "в четверг", Some(12)),
    ])
    .await;
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(
        got[0].1.contains("сверк") && got[0].2.as_deref() == Some("2026-12-10"),
        "{got:?}"
    );
    assert!(
        got[1].1.contains("план") && got[1].2.as_deref() == Some("2026-11-26"),
        "{got:?}"
    );
}

#[tokio::test]
async fn an_english_report_by_the_promises_verb_completes_it_and_not_the_newest() {
    let mut lines = vec![
        json!({"type": "org", "name": "Practice", "timezone": "Australia/Sydney", "locale": "en"}),
        json!({"type": "member", "user": {"id": 1, "first_name": "Rachel"}, "role": "director", "dm_open": true}),
        json!({"type": "member", "user": {"id": 2, "first_name": "Aisha"}, "role": "member", "manager": 1}),
    ];
    for (id, date, text) in [
        (
            10,
            "2026-12-07T09:00:00+11:00",
            "I'll book the venue for the christmas do by friday",
        ),
        (
            11,
            "2026-12-07T10:00:00+11:00",
            "I'll send the deck to the clinic by friday",
        ),
        (
            12,
            "2026-12-08T09:00:00+11:00",
            "all booked 🎉 deposit paid",
        ),
    ] {
        lines.push(group_line(&chat(), id, 2, date, text));
    }
    let got = common::held(&common::replay_ru(&lines).await);
    let state = |word: &str| got.iter().find(|c| c.1.contains(word)).map(|c| c.3.clone());
    assert_eq!(state("venue").as_deref(), Some("done"), "{got:?}");
    assert_eq!(state("deck").as_deref(), Some("open"), "{got:?}");
}

#[tokio::test]
async fn a_move_with_nothing_open_to_move_is_the_speakers_new_promise() {
    // "…завтра доделаю, сегодня уже не успеваю" of work nobody promised before: a promise for
    // tomorrow, not a move that is lost.
    let got = run(&[(
        10,
        2,
        "2026-11-23T16:10:00+03:00",
        "развёртки на косынки завтра доделаю, сегодня уже не успеваю",
        None,
    )])
    .await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(got[0].1.contains("развёртки"), "{got:?}");
    assert_eq!(got[0].2.as_deref(), Some("2026-11-24"), "{got:?}");
    assert_eq!(got[0].3, "open");
}

#[tokio::test]
async fn a_move_of_an_open_promise_still_moves_it() {
    let got = run(&[
        (
            10,
            2,
            "2026-11-23T10:00:00+03:00",
            "развёртки на косынки доделаю сегодня",
            None,
        ),
        (
            11,
            2,
            "2026-11-23T16:10:00+03:00",
            "развёртки завтра доделаю, сегодня уже не успеваю",
            None,
        ),
    ])
    .await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].4, 10, "{got:?}");
    assert_eq!(got[0].2.as_deref(), Some("2026-11-24"), "{got:?}");
}

#[tokio::test]
async fn a_yes_that_says_where_the_speaker_will_be_accepts() {
    let got = run(&[
        (
            10,
            1,
            "2026-11-23T16:45:00+03:00",
            "Степан, завтра с утра стойки примешь?",
            None,
        ),
        (
            11,
            2,
            "2026-11-23T16:50:00+03:00",
            "ок, в 9 буду в цеху",
            Some(10),
        ),
    ])
    .await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, 2);
    assert!(got[0].1.contains("стойки"), "{got:?}");
    assert_eq!(got[0].2.as_deref(), Some("2026-11-24"), "{got:?}");
}

#[tokio::test]
async fn a_yes_with_work_of_its_own_answering_a_need_promises_that() {
    let got = run(&[
        (
            10,
            1,
            "2026-11-23T10:00:00+03:00",
            "принтер в бухгалтерии опять зажевал бумагу",
            None,
        ),
        (11, 2, "2026-11-23T10:05:00+03:00", "ок, починю", None),
        // A yes to someone's own promise takes on nothing.
        (
            12,
            2,
            "2026-11-23T12:00:00+03:00",
            "отчёт пришлю завтра",
            None,
        ),
        (13, 1, "2026-11-23T12:05:00+03:00", "ок, сделаю", None),
    ])
    .await;
    assert_eq!(got.len(), 2, "{got:?}");
    assert_eq!(got[0].0, 2);
    assert!(got[0].1.contains("принтер"), "{got:?}");
    assert_eq!(got[0].4, 11);
    assert_eq!(got[1].4, 12, "{got:?}");
}

#[tokio::test]
async fn a_request_to_no_one_is_taken_by_the_next_one_who_agrees() {
    let mut lines = shop(true);
    let chat = json!({"id": -100601, "type": "supergroup", "title": "Shop"});
    for (id, from, date, text) in [
        (
            10,
            1,
            "2026-11-23T09:00:00+00:00",
            "Please send me the new roster by Friday.",
        ),
        (11, 3, "2026-11-23T09:05:00+00:00", "sure"),
        // "Have a good weekend" wishes; a yes to it takes nothing on.
        (
            12,
            1,
            "2026-11-27T17:00:00+00:00",
            "Have a good weekend, see you monday",
        ),
        (13, 2, "2026-11-27T17:01:00+00:00", "ok"),
    ] {
        lines.push(group_line(&chat, id, from, date, text));
    }
    let got = common::held(&common::replay_ru(&lines).await);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, 3, "the one who answered owns it: {got:?}");
    assert!(got[0].1.contains("roster"), "{got:?}");
    assert_eq!(got[0].2.as_deref(), Some("2026-11-27"), "{got:?}");
}

/// "нет, …" declines what was offered: the promise after it is the speaker's own.
#[tokio::test]
async fn a_no_before_a_promise_declines_the_offer_and_keeps_the_promise() {
    let got = run(&[
        (
            10,
            2,
            "2026-11-23T11:02:00+03:00",
            "Заводская 14 — не открывают, звоню тишина. оставить соседям?",
            None,
        ),
        (
            11,
            1,
            "2026-11-23T11:04:00+03:00",
            "нет, не оставляй. я сам им позвоню седня",
            Some(10),
        ),
    ])
    .await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!((got[0].0, got[0].4), (1, 11), "{got:?}");
    assert!(got[0].1.contains("позвонить"), "{got:?}");
    assert_eq!(got[0].2.as_deref(), Some("2026-11-23"), "{got:?}");
}

/// "I'll take it" takes an open call on; after a price or a compliment it buys something and
/// promises nothing. Regrets, obligations, purposes and futures asked about promise nothing either.
#[tokio::test]
async fn take_it_accepts_a_call_and_buys_nothing_else() {
    let mut lines = shop(false);
    let chat = json!({"id": -100602, "type": "supergroup", "title": "Shop"});
    for (id, from, date, text) in [
        (
            10,
            1,
            "2026-11-23T09:00:00+00:00",
            "It's two-year and covers parts and service.",
        ),
        (
            11,
            2,
            "2026-11-23T09:01:00+00:00",
            "Very good. I'll take it.",
        ),
        (
            12,
            2,
            "2026-11-23T10:00:00+00:00",
            "I should have booked the van in advance.",
        ),
        (
            13,
            1,
            "2026-11-23T10:01:00+00:00",
            "You'll have to pay the deposit first.",
        ),
        (
            14,
            2,
            "2026-11-23T10:02:00+00:00",
            "I'm calling to confirm our appointment on Monday.",
        ),
        (
            15,
            1,
            "2026-11-23T10:03:00+00:00",
            "No clue what I'm going to cook tonight.",
        ),
        (
            16,
            1,
            "2026-11-23T13:00:00+00:00",
            "can someone cover the 4pm pickup at the depot?",
        ),
        (17, 2, "2026-11-23T13:02:00+00:00", "I'll take it"),
    ] {
        lines.push(group_line(&chat, id, from, date, text));
    }
    let got = common::held(&common::replay_ru(&lines).await);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!((got[0].0, got[0].4), (2, 17), "{got:?}");
    assert!(got[0].1.contains("pickup"), "{got:?}");
}

/// Done told without the promise's words: a link in reply to the promise, or a plain report
/// that names the promise's thing with a verb of finished work. A link in reply to someone
/// else's promise, words retold ("сказал…") and a state ("устала…") close nothing.
#[tokio::test]
async fn a_link_in_reply_or_a_report_of_the_thing_closes_the_promise() {
    let got = run(&[
        (
            10,
            2,
            "2026-11-23T10:00:00+03:00",
            "договор аренды подготовлю и скину завтра",
            None,
        ),
        (
            11,
            2,
            "2026-11-23T10:05:00+03:00",
            "сегодня до обеда разберу форсунку в котле",
            None,
        ),
        (
            12,
            1,
            "2026-11-23T10:10:00+03:00",
            "обложки для каталога сделаю к четвергу",
            None,
        ),
        (
            13,
            2,
            "2026-11-23T11:00:00+03:00",
            "https://example.com/catalogue-draft",
            Some(12),
        ),
        (
            14,
            1,
            "2026-11-23T12:00:00+03:00",
            "устала как собака, обложки переделывала три раза",
            None,
        ),
        (
            15,
            2,
            "2026-11-23T12:30:00+03:00",
            "форсунку прочистил, горит ровно",
            None,
        ),
        (
            16,
            2,
            "2026-11-24T09:00:00+03:00",
            "https://docs.example.com/document/d/arenda/edit",
            Some(10),
        ),
    ])
    .await;
    let state = |origin: i64| {
        got.iter()
            .find(|c| c.4 == origin)
            .map(|c| c.3.clone())
            .unwrap_or_else(|| panic!("no promise from {origin}: {got:?}"))
    };
    assert_eq!(state(10), "done", "the link in reply hands it in: {got:?}");
    assert_eq!(state(11), "done", "the thing reported finished: {got:?}");
    assert_eq!(
        state(12),
        "open",
        "not Stepan's to hand in, and tiredness is no report: {got:?}"
    );
}

/// English done told in other words: the thing named and a past of finished work close the
/// speaker's one promise about it; a plan kept to ("as planned"), someone else's doing and a
/// report of another person's thing close nothing.
#[tokio::test]
async fn an_english_report_of_the_thing_closes_the_promise() {
    let got = run(&[
        (
            10,
            2,
            "2026-11-23T08:35:00+03:00",
            "I'll have the castillo heater hooked up by 3 tmrw",
            None,
        ),
        (
            11,
            1,
            "2026-11-23T08:40:00+03:00",
            "tmrw I'll do the claremont block",
            None,
        ),
        (
            15,
            2,
            "2026-11-23T08:45:00+03:00",
            "and I'll get the boxes packed by wed",
            None,
        ),
        (
            12,
            2,
            "2026-11-23T16:00:00+03:00",
            "castillo heater is fired up 🔥 84° and climbing",
            None,
        ),
        (
            13,
            1,
            "2026-11-24T07:50:00+03:00",
            "claremont today as planned",
            None,
        ),
        (
            14,
            2,
            "2026-11-24T09:00:00+03:00",
            "so the client emptied the boxes himself",
            None,
        ),
    ])
    .await;
    let state = |needle: &str| {
        got.iter()
            .find(|c| c.1.contains(needle))
            .map(|c| c.3.clone())
            .unwrap_or_else(|| panic!("no promise about {needle}: {got:?}"))
    };
    assert_eq!(state("castillo"), "done", "{got:?}");
    assert_eq!(state("boxes"), "open", "{got:?}");
    assert_eq!(state("claremont"), "open", "{got:?}");
}

/// "кто может…?" answered by "я после обеда": the one who answers takes the work, by that day.
#[tokio::test]
async fn naming_oneself_answers_an_open_call() {
    let got = run(&[
        (
            10,
            1,
            "2026-11-23T11:00:00+03:00",
            "кто может сфоткать новую плитку в зале? мне для ВК",
            None,
        ),
        (
            11,
            2,
            "2026-11-23T11:05:00+03:00",
            "я после обеда",
            Some(10),
        ),
    ])
    .await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, 2, "{got:?}");
    assert!(got[0].1.contains("сфоткать"), "{got:?}");
    assert_eq!(got[0].2.as_deref(), Some("2026-11-23"), "{got:?}");
}
