//! Replies a native speaker would write: a person after a preposition in the case it needs, a
//! topic named back in the nominative, no count over an empty list, a closed promise never
//! shown as overdue.

use kept::domain::Lang;
use kept::replay::{Options, run_text};
use serde_json::json;

use crate::common;

const GROUP: i64 = -1_001_777;

fn scenario(dm: &[(i64, &str)]) -> String {
    let mut lines = common::Team::ru("Завод")
        .director(1, "Анна Смирнова")
        .member(2, "Павел Орлов")
        .member(3, "Наталья Лис")
        .lead(4, "Игорь Ким")
        .then([]);
    let group = json!({"id": GROUP, "type": "supergroup", "title": "Завод"});
    for (id, from, date, text) in [
        (
            10,
            2,
            "2026-11-23T10:00:00+03:00",
            "подготовлю КП для Ромашки до вторника",
        ),
        (
            11,
            2,
            "2026-11-26T11:00:00+03:00",
            "КП для Ромашки готово, отправил",
        ),
        (
            12,
            3,
            "2026-11-26T12:00:00+03:00",
            "всем привет, я на связи",
        ),
    ] {
        lines.push(json!({"type": "message", "chat": group, "id": id, "from": from, "date": date, "text": text}));
    }
    for (k, (from, text)) in dm.iter().enumerate() {
        lines.push(json!({
            "type": "message", "chat": "dm", "id": 500 + k, "from": from,
            "date": format!("2026-11-27T10:{:02}:00+03:00", k), "text": text,
        }));
    }
    lines.iter().map(|l| l.to_string() + "\n").collect()
}

/// A scenario through the real bot, in Moscow, in Russian.
async fn replay(text: &str) -> kept::replay::Outcome {
    run_text(
        text,
        Options {
            tz: chrono_tz::Europe::Moscow,
            lang: Lang::Ru,
            db: None,
            llm: Default::default(),
        },
    )
    .await
    .unwrap()
}

/// The bot's answer to each DM question, in order.
async fn answers(dm: &[(i64, &str)]) -> Vec<String> {
    let out = replay(&scenario(dm)).await;
    let transcript = out.json["transcript"].as_array().unwrap().clone();
    (0..dm.len())
        .map(|k| {
            transcript
                .iter()
                .filter(|m| m["reply_to"] == json!(500 + k))
                .map(|m| m["text"].as_str().unwrap().to_string())
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect()
}

#[tokio::test]
async fn people_after_prepositions_take_their_case() {
    let a = answers(&[
        (1, "что у Натальи в работе?"),
        (1, "что у Игоря в работе?"),
        (1, "запомни, что Павел не любит созвоны после 16:00"),
        (4, "запомни, что Наталья любит чай"),
    ])
    .await;
    assert_eq!(
        a[0], "У Натальи Лис сейчас нет открытых обещаний и задач.",
        "indeclinable women's surname"
    );
    assert_eq!(a[1], "У Игоря Кима сейчас нет открытых обещаний и задач.");
    assert_eq!(a[2], "Запомнил — это о Павле Орлове.");
    assert!(
        a[3].contains("заметки о Наталье Лис могут"),
        "a lead who is not her manager: {}",
        a[3]
    );
}

#[tokio::test]
async fn a_done_promise_is_not_shown_as_overdue_and_the_topic_comes_back_in_the_nominative() {
    let a = answers(&[(1, "что мы знаем о Ромашке?"), (1, "что у Павла в работе?")]).await;
    assert!(a[0].starts_with("Что известно про «Ромашка»"), "{}", a[0]);
    assert!(a[0].contains("выполнено"), "{}", a[0]);
    assert!(!a[0].contains("просрочено"), "{}", a[0]);
    // Nothing open, one done this week: no "0 обещаний:" over an empty list.
    assert!(
        a[1].starts_with("У Павла Орлова нет открытых обещаний."),
        "{}",
        a[1]
    );
    assert!(!a[1].contains(" 0 "), "{}", a[1]);
}

#[tokio::test]
async fn the_demo_chart_is_the_directors() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("demo.db");
    let out = run_text(
        include_str!("../../demo/demo-ru.jsonl"),
        Options {
            tz: chrono_tz::Europe::Moscow,
            lang: Lang::Ru,
            db: Some(db.clone()),
            llm: Default::default(),
        },
    )
    .await
    .unwrap();
    let chart = out.chart.expect("the demo week ends with a weekly digest");
    let store = kept::store::Store::open(&db).await.unwrap();
    let text = include_str!("../../demo/demo-ru.jsonl");
    let role_of = |role: &str| -> i64 {
        text.lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .find(|v| v["type"] == "member" && v["role"] == role)
            .and_then(|v| v["user"]["id"].as_i64())
            .unwrap()
    };
    let director = kept::domain::UserId(role_of("director"));
    let lead = kept::domain::UserId(role_of("lead"));
    assert_eq!(
        store.last_photo_to(director).await.unwrap(),
        Some(chart.clone())
    );
    let leads = store.last_photo_to(lead).await.unwrap();
    assert!(leads.is_some(), "the lead gets a chart of their own");
    assert_ne!(leads, Some(chart), "the demo's chart is not the lead's");
}

#[tokio::test]
async fn a_known_person_is_found_however_the_question_names_them() {
    let questions = [
        "что с Натальей?",
        "расскажи про Наталью Лис",
        "что поручено Наталье?",
        "как дела с Натальей?",
        "как дела у Натальи?",
    ];
    let dm: Vec<(i64, &str)> = questions.iter().map(|q| (1, *q)).collect();
    for (q, a) in questions.iter().zip(answers(&dm).await) {
        assert_eq!(
            a, "У Натальи Лис сейчас нет открытых обещаний и задач.",
            "{q}"
        );
    }
}

#[tokio::test]
async fn a_promise_keeps_the_words_case_but_not_the_sentences_capital() {
    let text = common::Team::ru("Завод")
        .member(2, "Павел")
        .then([
        json!({"type": "message", "chat": {"id": GROUP, "type": "supergroup", "title": "Завод"}, "id": 1, "from": 2,
               "date": "2026-11-23T10:00:00+03:00", "text": "Смету для гостиницы Уют пришлю завтра"}),
    ])
    .iter()
    .map(|l| l.to_string() + "\n")
    .collect::<String>();
    let out = replay(&text).await;
    let c = &out.json["commitments"][0];
    assert_eq!(c["text"], "прислать смету для гостиницы Уют", "{c}");
}

#[tokio::test]
async fn gender_set_with_a_command_decides_how_a_name_that_does_not_say_it_inflects() {
    let text = common::Team::ru("Завод")
        .director(1, "Анна Смирнова")
        .member(5, "Саша Ким @sasha")
        .then([
        json!({"type": "message", "chat": "dm", "id": 1, "from": 1, "date": "2026-11-23T10:00:00+03:00", "text": "что у Саши Ким в работе?"}),
        json!({"type": "message", "chat": "dm", "id": 2, "from": 5, "date": "2026-11-23T10:01:00+03:00", "text": "/gender ж"}),
        json!({"type": "message", "chat": "dm", "id": 3, "from": 1, "date": "2026-11-23T10:02:00+03:00", "text": "что у Саши Ким в работе?"}),
        json!({"type": "message", "chat": "dm", "id": 4, "from": 5, "date": "2026-11-23T10:03:00+03:00", "text": "/gender @sasha м"}),
        json!({"type": "message", "chat": "dm", "id": 5, "from": 1, "date": "2026-11-23T10:04:00+03:00", "text": "/gender @sasha м"}),
        json!({"type": "message", "chat": "dm", "id": 6, "from": 1, "date": "2026-11-23T10:05:00+03:00", "text": "что у Саши Кима в работе?"}),
    ])
    .iter()
    .map(|l| l.to_string() + "\n")
    .collect::<String>();
    let out = replay(&text).await;
    let reply = |id: i64| -> String {
        out.json["transcript"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["reply_to"] == json!(id))
            .map(|m| m["text"].as_str().unwrap().to_string())
            .collect()
    };
    assert!(reply(2).contains("женское"), "{}", reply(2));
    assert_eq!(reply(3), "У Саши Ким сейчас нет открытых обещаний и задач.");
    assert!(reply(4).contains("только директор"), "{}", reply(4));
    assert!(reply(5).contains("мужское"), "{}", reply(5));
    assert_eq!(
        reply(6),
        "У Саши Кима сейчас нет открытых обещаний и задач."
    );
}

#[tokio::test]
async fn export_in_a_private_chat_sends_everything_about_the_asker_as_a_file() {
    let out = replay(&scenario(&[(2, "/export")])).await;
    let doc = out.json["transcript"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["reply_to"] == json!(500))
        .expect("an answer to /export")
        .clone();
    assert_eq!(doc["kind"], "document");
    let text = doc["text"].as_str().unwrap();
    assert!(text.contains("# Что kept знает о Павле Орлове"), "{text}");
    assert!(text.contains("- [x] подготовить КП для Ромашки"), "{text}");
    assert!(
        text.contains("/forget"),
        "the caption says how to remove items: {text}"
    );
}
