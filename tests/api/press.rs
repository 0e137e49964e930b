//! The `press` scenario line (CONTRACT.md): a person presses an inline button the bot showed,
//! by its label, and the bot handles it as it would a real tap.

use crate::common;

use common::try_replay_ru as replay;
use serde_json::{Value, json};

const GROUP: i64 = -1_002_222;

fn lines(extra: &[Value]) -> Vec<Value> {
    let group = json!({"id": GROUP, "type": "supergroup", "title": "Цех"});
    let mut l = vec![
        json!({"type": "org", "name": "Завод", "timezone": "Europe/Moscow", "locale": "ru"}),
        json!({"type": "member", "user": {"id": 1, "first_name": "Анна"}, "role": "director", "dm_open": true}),
        json!({"type": "member", "user": {"id": 2, "first_name": "Павел", "language_code": "ru"}, "role": "member", "manager": 1, "dm_open": true}),
        json!({"type": "message", "chat": group, "id": 10, "from": 2, "date": "2026-11-23T10:00:00+03:00",
               "text": "подготовлю смету до завтра"}),
        // The morning reminder of Tuesday carries the buttons.
        json!({"type": "clock", "at": "2026-11-24T09:45:00+03:00"}),
    ];
    l.extend(extra.iter().cloned());
    l
}

#[tokio::test]
async fn pressing_a_reminders_button_by_its_label_closes_the_promise() {
    let out = replay(&lines(&[json!({
        "type": "press", "from": 2, "date": "2026-11-24T10:00:00+03:00", "chat": "dm",
        // Compared without the emoji, in any case, ё = е.
        "button": "  готово ",
    })]))
    .await
    .unwrap();
    let c = &out["commitments"][0];
    assert_eq!(c["state"], "done", "{out:#}");
    // The reminder is edited to say so, and its buttons are gone.
    let transcript = out["transcript"].as_array().unwrap();
    let edit = transcript
        .iter()
        .find(|m| m["kind"] == "edit")
        .expect("the reminder is edited");
    assert_eq!(edit["buttons"], json!([]));
}

#[tokio::test]
async fn with_two_promises_due_a_press_acts_on_the_latest_reminder_only() {
    let group = json!({"id": GROUP, "type": "supergroup", "title": "Цех"});
    let out = replay(&[
        json!({"type": "org", "name": "Завод", "timezone": "Europe/Moscow", "locale": "ru"}),
        json!({"type": "member", "user": {"id": 1, "first_name": "Анна"}, "role": "director", "dm_open": true}),
        json!({"type": "member", "user": {"id": 2, "first_name": "Павел"}, "role": "member", "manager": 1, "dm_open": true}),
        json!({"type": "message", "chat": group, "id": 10, "from": 2, "date": "2026-11-20T10:00:00+03:00",
               "text": "акт сверки пришлю в понедельник"}),
        json!({"type": "message", "chat": group, "id": 11, "from": 2, "date": "2026-11-23T10:00:00+03:00",
               "text": "подготовлю смету до завтра"}),
        json!({"type": "press", "from": 2, "date": "2026-11-24T10:00:00+03:00", "chat": "dm", "button": "Готово"}),
    ])
    .await
    .unwrap();
    let state = |origin: i64| {
        out["commitments"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["origin"]["message"] == origin)
            .map(|c| c["state"].clone())
    };
    // Tuesday's reminders: the overdue act first, the estimate due today last; a press on the
    // latest message closes the estimate and leaves the act open.
    assert_eq!(state(11), Some(json!("done")), "{out:#}");
    assert_eq!(state(10), Some(json!("open")), "{out:#}");
}

#[tokio::test]
async fn the_snooze_button_moves_the_promise_a_working_day() {
    let out = replay(&lines(&[json!({
        "type": "press", "from": 2, "date": "2026-11-24T10:00:00+03:00", "chat": "dm",
        "button": "+1 день",
    })]))
    .await
    .unwrap();
    assert_eq!(out["commitments"][0]["due"], "2026-11-25", "{out:#}");
    assert_eq!(out["commitments"][0]["state"], "open");
}

#[tokio::test]
async fn a_button_nobody_was_shown_is_a_line_error() {
    for press in [
        json!({"type": "press", "from": 2, "date": "2026-11-24T10:00:00+03:00", "chat": "dm", "button": "Отмена"}),
        // Pressed twice: the first press took the buttons away.
        json!({"type": "press", "from": 2, "date": "2026-11-24T10:00:00+03:00", "chat": "dm", "button": "Готово", "message": 1}),
        json!({"type": "press", "from": 2, "chat": GROUP, "button": "Готово"}),
    ] {
        let err = replay(&lines(std::slice::from_ref(&press)))
            .await
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("line 6:"), "{press}: {err}");
        assert!(err.contains("carries a button"), "{err}");
    }
    let twice = [
        json!({"type": "press", "from": 2, "date": "2026-11-24T10:00:00+03:00", "chat": "dm", "button": "Готово"}),
        json!({"type": "press", "from": 2, "date": "2026-11-24T10:01:00+03:00", "chat": "dm", "button": "Готово"}),
    ];
    let err = replay(&lines(&twice)).await.unwrap_err().to_string();
    assert!(err.starts_with("line 7:"), "{err}");
}
