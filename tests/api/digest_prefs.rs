//! Digest preferences: `/digest off`, weekly only, an hour of one's own; a lead with no reports
//! gets nothing; a director turns on the weekly digest for a linked group (team items only).

use crate::common;

use serde_json::{Value, json};

const GROUP: i64 = -1_001_555;

fn group() -> Value {
    json!({"id": GROUP, "type": "supergroup", "title": "Цех"})
}

fn lines(extra: &[Value]) -> Vec<Value> {
    let mut l = common::Team::ru("Завод")
        .director(1, "Анна")
        .lead(5, "Ирина")
        .lead(6, "Олег")
        .member(2, "Павел")
        .reports_to(5)
        .then([
        json!({"type": "message", "chat": group(), "id": 10, "from": 2, "date": "2026-11-23T09:00:00+03:00",
               "text": "подготовлю смету до среды"}),
    ]);
    l.extend(extra.iter().cloned());
    l
}

fn dm(id: i64, from: i64, time: &str, text: &str) -> Value {
    common::dm_line(id, from, &format!("2026-11-23T{time}:00+03:00"), text)
}

fn summaries(out: &Value, user: i64) -> Vec<String> {
    common::dms_to(out, user)
        .into_iter()
        .filter(|(_, t)| t.contains("Итоги дня"))
        .map(|(at, _)| at)
        .collect()
}

#[tokio::test]
async fn each_recipient_gets_what_they_chose() {
    let out = common::replay_ru(&lines(&[
        dm(500, 1, "10:00", "/digest 18"),
        dm(501, 5, "10:01", "/digest неделя"),
        dm(502, 6, "10:02", "/digest"),
        dm(503, 2, "10:03", "/digest off"),
        dm(504, 1, "10:04", "/digest банан"),
        json!({"type": "clock", "at": "2026-11-27T19:45:00+03:00"}),
    ]))
    .await;
    let reply = |id: i64| common::answer_to(&out, id);
    assert!(reply(500).contains("в 18:00"), "{}", reply(500));
    assert!(
        reply(501).contains("выключена") && reply(501).contains("Недельный дайджест: включён"),
        "{}",
        reply(501)
    );
    assert!(
        reply(502).contains("нет подчинённых") && reply(502).contains("/digest on"),
        "a lead with no reports hears why nothing comes: {}",
        reply(502)
    );
    assert!(
        reply(503).contains("директор и руководители"),
        "{}",
        reply(503)
    );
    assert!(reply(504).contains("/digest on"), "{}", reply(504));
    // The director's summaries come at 18:00, not at the org's 19:30.
    let anna = summaries(&out, 1);
    assert!(!anna.is_empty());
    assert!(anna.iter().all(|at| at.contains("T18:00")), "{anna:?}");
    // The lead chose the weekly digest only: no daily summary, the Friday digest.
    assert!(summaries(&out, 5).is_empty());
    assert!(
        common::dms_to(&out, 5)
            .iter()
            .any(|(_, t)| t.contains("Итоги недели")),
        "{:?}",
        common::dms_to(&out, 5)
    );
    // The lead with no reports gets nothing at all.
    assert!(
        !common::dms_to(&out, 6)
            .iter()
            .any(|(_, t)| t.contains("Итоги")),
        "{:?}",
        common::dms_to(&out, 6)
    );
    // Back on: the org's time again.
    let out = common::replay_ru(&lines(&[
        dm(500, 1, "10:00", "/digest off"),
        json!({"type": "clock", "at": "2026-11-24T20:00:00+03:00"}),
        common::dm_line(501, 1, "2026-11-24T20:01:00+03:00", "/digest on"),
        json!({"type": "clock", "at": "2026-11-25T20:00:00+03:00"}),
    ]))
    .await;
    assert_eq!(
        summaries(&out, 1),
        vec!["2026-11-25T19:30:00+03:00".to_string()]
    );
}

#[tokio::test]
async fn a_linked_group_gets_the_weekly_digest_with_team_items_only() {
    let say = |id: i64, from: i64, time: &str, text: &str| {
        common::group_line(
            &group(),
            id,
            from,
            &format!("2026-11-23T{time}:00+03:00"),
            text,
        )
    };
    // The model's reflection finds a private promise of Павел's (visibility private).
    let fake = kept::sandbox::llm::FakeLlm::start().await.unwrap();
    fake.push_for(
        "reflection",
        kept::sandbox::llm::FakeReply::Json(json!({
            "summary": "Павел считал смету", "highlights": [], "risks": [], "observations": [],
            "commitments": ["подготовить личный отчёт для Анны"],
        })),
    );
    let text: String = lines(&[
        say(20, 2, "10:00", "/digest on"),
        say(21, 1, "10:01", "/digest on"),
        json!({"type": "clock", "at": "2026-11-27T18:30:00+03:00"}),
    ])
    .iter()
    .map(|l| l.to_string() + "\n")
    .collect();
    let out = kept::replay::run_text(
        &text,
        kept::replay::Options {
            tz: chrono_tz::Europe::Moscow,
            lang: kept::domain::Lang::Ru,
            db: None,
            llm: kept::config::LlmSettings {
                provider: kept::config::LlmProvider::Openai,
                base_url: Some(fake.openai_url()),
                model: Some("fake".into()),
                timeout_s: 2,
                retries: 0,
                ..Default::default()
            },
        },
    )
    .await
    .unwrap()
    .json;
    assert!(
        out["commitments"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["text"].as_str().unwrap_or("").contains("личный отчёт")),
        "the reflection's promise exists: {}",
        out["commitments"]
    );
    let director = common::dms_to(&out, 1)
        .into_iter()
        .find(|(_, t)| t.contains("Итоги недели"))
        .expect("the director's digest")
        .1;
    assert!(director.contains("личный отчёт"), "{director}");
    let reply = |id: i64| common::answer_to(&out, id);
    assert!(reply(20).contains("только директор"), "{}", reply(20));
    assert!(reply(21).contains("включён"), "{}", reply(21));
    let in_group: Vec<String> = out["transcript"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| {
            m["chat"] == json!(GROUP) && m["at"].as_str().unwrap().starts_with("2026-11-27T18")
        })
        .filter_map(|m| m["text"].as_str().map(str::to_string))
        .collect();
    let digest = in_group
        .iter()
        .find(|t| t.contains("Итоги недели"))
        .unwrap_or_else(|| panic!("{in_group:?}"));
    assert!(digest.contains("смету"), "{digest}");
    assert!(
        !digest.contains("личный отчёт"),
        "a private promise never reaches a group: {digest}"
    );
    // Turned off, the next week's digest does not come.
    let out = common::replay_ru(&lines(&[
        say(21, 1, "10:01", "/digest on"),
        say(22, 1, "10:02", "/digest off"),
        json!({"type": "clock", "at": "2026-11-27T18:30:00+03:00"}),
    ]))
    .await;
    assert!(
        !out["transcript"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["chat"] == json!(GROUP)
                && m["text"].as_str().unwrap_or("").contains("Итоги недели"))
    );
}

#[tokio::test]
async fn a_chosen_hour_sends_once_and_a_morning_one_tells_the_day_before() {
    let out = common::replay_ru(&lines(&[
        dm(500, 1, "10:00", "/digest 19"),
        json!({"type": "clock", "at": "2026-11-24T21:00:00+03:00"}),
    ]))
    .await;
    // 19:00 by choice, and not again at the org's 19:30.
    assert_eq!(
        summaries(&out, 1),
        vec![
            "2026-11-23T19:00:00+03:00".to_string(),
            "2026-11-24T19:00:00+03:00".to_string()
        ]
    );
    let out = common::replay_ru(&lines(&[
        dm(500, 1, "10:00", "/digest 9"),
        json!({"type": "clock", "at": "2026-11-24T10:00:00+03:00"}),
    ]))
    .await;
    assert!(
        common::answer_to(&out, 500).contains("предыдущего рабочего дня"),
        "{}",
        common::answer_to(&out, 500)
    );
    let morning = common::dms_to(&out, 1)
        .into_iter()
        .find(|(at, t)| at.starts_with("2026-11-24T09:00") && t.contains("Итоги дня"))
        .expect("a morning summary")
        .1;
    assert!(
        morning.contains("пн, 23 ноября") && morning.contains("смету"),
        "Tuesday 09:00 sums up Monday: {morning}"
    );
}
