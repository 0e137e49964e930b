//! What a replay used to drop without a word now ends in a `line N:` error: ids Telegram could
//! never send, one message id used for two different messages, time going backwards. A clock
//! jump of any length finishes, costing what there is to do rather than the length of the gap.

use kept::domain::Lang;
use kept::replay::{Options, ReplayError, run_text};

const ORG: &str = r#"{"type": "org", "name": "T", "timezone": "Europe/Moscow", "locale": "ru"}"#;
const DIRECTOR: &str = r#"{"type": "member", "user": {"id": 1, "first_name": "Анна"}, "role": "director", "dm_open": true}"#;
const MEMBER: &str = r#"{"type": "member", "user": {"id": 2, "first_name": "Дима"}, "role": "member", "manager": 1, "dm_open": true}"#;

fn options() -> Options {
    Options {
        tz: chrono_tz::Europe::Moscow,
        lang: Lang::Ru,
        db: None,
        llm: Default::default(),
    }
}

fn message(id: i64, from: i64, date: &str, text: &str) -> String {
    format!(
        r#"{{"type": "message", "chat": {{"id": -1001, "type": "supergroup", "title": "T"}}, "id": {id}, "from": {from}, "date": "{date}", "text": "{text}"}}"#
    )
}

async fn line_error(lines: &[String]) -> (usize, String) {
    match run_text(&lines.join("\n"), options()).await {
        Err(ReplayError::Line { line, message }) => (line, message),
        Err(other) => panic!("not a line error: {other:?}"),
        Ok(_) => panic!("the scenario replayed without a word"),
    }
}

fn head() -> Vec<String> {
    vec![ORG.to_string(), DIRECTOR.to_string(), MEMBER.to_string()]
}

#[tokio::test]
async fn a_message_id_beyond_telegrams_range_is_a_line_error() {
    let mut lines = head();
    lines.push(message(
        2_147_483_648,
        2,
        "2026-11-23T10:00:00+03:00",
        "доделаю отчёт до пятницы",
    ));
    let (line, msg) = line_error(&lines).await;
    assert_eq!(line, 4);
    assert!(msg.contains("2147483648"), "{msg}");
    let mut lines = head();
    lines.push(message(0, 2, "2026-11-23T10:00:00+03:00", "привет"));
    assert_eq!(line_error(&lines).await.0, 4);
}

#[tokio::test]
async fn a_negative_user_id_is_a_line_error() {
    let mut lines = head();
    lines.push(message(
        10,
        -5,
        "2026-11-23T10:00:00+03:00",
        "доделаю отчёт до пятницы",
    ));
    let (line, msg) = line_error(&lines).await;
    assert_eq!(line, 4);
    assert!(msg.contains("-5"), "{msg}");
    let mut lines = head();
    lines.push(r#"{"type": "member", "user": {"id": -7, "first_name": "X"}}"#.to_string());
    assert_eq!(line_error(&lines).await.0, 4);
}

#[tokio::test]
async fn one_message_id_for_two_different_messages_names_both_lines() {
    let mut lines = head();
    lines.push(message(
        10,
        2,
        "2026-11-23T10:00:00+03:00",
        "доделаю отчёт до пятницы",
    ));
    lines.push(message(
        10,
        2,
        "2026-11-23T10:05:00+03:00",
        "и смету к среде",
    ));
    let (line, msg) = line_error(&lines).await;
    assert_eq!(line, 5);
    assert!(msg.contains("line 4"), "{msg}");
}

#[tokio::test]
async fn the_same_message_delivered_twice_is_stored_once() {
    let mut lines = head();
    let m = message(
        10,
        2,
        "2026-11-23T10:00:00+03:00",
        "доделаю отчёт до пятницы",
    );
    lines.push(m.clone());
    lines.push(m);
    let out = run_text(&lines.join("\n"), options()).await.unwrap();
    assert_eq!(out.json["commitments"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn dates_going_backwards_are_a_line_error() {
    let mut lines = head();
    lines.push(message(
        10,
        2,
        "2026-11-23T10:00:00+03:00",
        "доделаю отчёт до пятницы",
    ));
    lines.push(message(11, 2, "2026-11-22T10:00:00+03:00", "и смету"));
    let (line, msg) = line_error(&lines).await;
    assert_eq!(line, 5);
    assert!(msg.contains("line 4"), "{msg}");
}

#[tokio::test]
async fn a_hundred_year_jump_over_a_quiet_org_finishes() {
    let mut lines = head();
    lines.push(message(10, 2, "2026-11-23T10:00:00+03:00", "всем привет"));
    lines.push(r#"{"type": "clock", "at": "2126-11-23T10:00:00+03:00"}"#.to_string());
    lines.push(message(
        11,
        2,
        "2126-11-23T10:05:00+03:00",
        "доделаю отчёт до пятницы",
    ));
    lines.push(r#"{"type": "clock", "at": "2126-11-27T20:00:00+03:00"}"#.to_string());
    let out = run_text(&lines.join("\n"), options()).await.unwrap();
    let transcript = out.json["transcript"].as_array().unwrap();
    // The week after the jump works as any other: the director's summaries of that week arrive.
    assert!(
        transcript.iter().any(|m| m["chat"] == 1
            && m["at"].as_str().unwrap().starts_with("2126-11-2")
            && m["text"].as_str().unwrap().contains("Итоги дня")),
        "{transcript:#?}"
    );
    // Nothing was sent for the quiet century in between.
    let years: Vec<&str> = transcript
        .iter()
        .map(|m| &m["at"].as_str().unwrap()[..4])
        .filter(|y| *y != "2026" && *y != "2126")
        .collect();
    assert!(years.is_empty(), "sent during the gap: {years:?}");
    let c = &out.json["commitments"].as_array().unwrap()[0];
    // 2126-11-23 is a Saturday: "до пятницы" is the next Friday.
    assert_eq!(c["due"], "2126-11-29");
}

#[tokio::test]
async fn an_open_promise_keeps_being_reminded_through_a_long_gap() {
    // Work found in the gap is done: a promise overdue for three months gets its morning
    // reminders on every working day.
    let mut lines = head();
    lines.push(message(
        10,
        2,
        "2026-11-23T10:00:00+03:00",
        "доделаю отчёт до пятницы",
    ));
    lines.push(r#"{"type": "clock", "at": "2027-02-26T20:00:00+03:00"}"#.to_string());
    let out = run_text(&lines.join("\n"), options()).await.unwrap();
    let reminders = out.json["transcript"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["chat"] == 2 && !m["buttons"].as_array().unwrap().is_empty())
        .count();
    assert!(reminders > 50, "{reminders} reminders");
}
