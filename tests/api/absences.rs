//! Absences: said in a group or a DM, or set with `/away`; no reminders meanwhile, not silent
//! or idle, and the director's summary names who is away and what falls due meanwhile.

use crate::common;

use common::{dm_line as dm, dms_to as to, replay_ru as replay};
use serde_json::{Value, json};

const GROUP: i64 = -1_003_333;

fn team() -> Vec<Value> {
    vec![
        json!({"type": "org", "name": "Завод", "timezone": "Europe/Moscow", "locale": "ru"}),
        json!({"type": "member", "user": {"id": 1, "first_name": "Анна", "language_code": "ru"}, "role": "director", "dm_open": true}),
        json!({"type": "member", "user": {"id": 2, "first_name": "Павел", "language_code": "ru"}, "role": "member", "manager": 1, "dm_open": true}),
        json!({"type": "member", "user": {"id": 3, "first_name": "Наталья", "language_code": "ru"}, "role": "member", "manager": 1, "dm_open": true}),
    ]
}

fn msg(id: i64, from: i64, date: &str, text: &str) -> Value {
    let group = json!({"id": GROUP, "type": "supergroup", "title": "Цех"});
    common::group_line(&group, id, from, date, text)
}

#[tokio::test]
async fn an_absence_said_in_the_group_stops_reminders_and_silence_for_its_days() {
    let mut lines = team();
    lines.extend([
        msg(
            10,
            2,
            "2026-11-23T10:00:00+03:00",
            "подготовлю смету до среды",
        ),
        msg(
            11,
            3,
            "2026-11-23T10:05:00+03:00",
            "сделаю сверку остатков до среды",
        ),
        msg(
            12,
            2,
            "2026-11-23T17:00:00+03:00",
            "коллеги, я в отпуске с 25 по 26 ноября",
        ),
        json!({"type": "clock", "at": "2026-11-25T20:00:00+03:00"}),
    ]);
    let out = replay(&lines).await;
    // Not a promise.
    assert_eq!(out["commitments"].as_array().unwrap().len(), 2);
    let pavel = to(&out, 2);
    let natalia = to(&out, 3);
    assert!(
        !pavel.iter().any(|(at, _)| at.starts_with("2026-11-25")),
        "no reminder on a day away: {pavel:?}"
    );
    assert!(
        natalia
            .iter()
            .any(|(at, t)| at.starts_with("2026-11-25") && t.contains("сверк")),
        "the one who is in is reminded: {natalia:?}"
    );
    let summary = to(&out, 1)
        .into_iter()
        .find(|(at, t)| at.starts_with("2026-11-25") && t.contains("Итоги"))
        .map(|(_, t)| t)
        .expect("a summary on Wednesday");
    assert!(summary.contains("Павел отсутствует по"), "{summary}");
    assert!(
        summary.contains("подготовить смету"),
        "what falls due meanwhile: {summary}"
    );
    let silent = summary
        .lines()
        .find(|l| l.contains("молчали"))
        .unwrap_or("");
    assert!(!silent.contains("Павел"), "{summary}");
}

#[tokio::test]
async fn away_from_a_dm_and_away_off() {
    let mut lines = team();
    lines.extend([
        msg(
            10,
            2,
            "2026-11-23T10:00:00+03:00",
            "подготовлю смету до среды",
        ),
        dm(500, 2, "2026-11-23T18:00:00+03:00", "/away 24.11–25.11"),
        dm(501, 1, "2026-11-24T12:00:00+03:00", "кто простаивает?"),
        dm(502, 2, "2026-11-24T18:00:00+03:00", "/away off"),
        json!({"type": "clock", "at": "2026-11-25T10:00:00+03:00"}),
        dm(503, 3, "2026-11-25T11:00:00+03:00", "я на больничном"),
        dm(
            504,
            3,
            "2026-11-25T11:01:00+03:00",
            "/away когда-нибудь потом",
        ),
    ]);
    let out = replay(&lines).await;
    let reply = |id: i64| common::answer_to(&out, id);
    assert!(reply(500).contains("Отметил"), "{}", reply(500));
    // Павел is away, so not idle; Наталья has nothing open and is.
    assert!(
        !reply(501).contains("Павел") && reply(501).contains("Наталья"),
        "{}",
        reply(501)
    );
    assert!(reply(502).contains("Снял"), "{}", reply(502));
    // Back: Wednesday's reminder reaches him.
    let pavel = to(&out, 2);
    assert!(
        pavel
            .iter()
            .any(|(at, t)| at.starts_with("2026-11-25") && t.contains("подготовить смету")),
        "{pavel:?}"
    );
    assert!(reply(503).contains("Отметил"), "{}", reply(503));
    assert!(reply(504).contains("/away"), "usage: {}", reply(504));
}
