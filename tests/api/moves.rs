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
