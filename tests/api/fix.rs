//! Corrections with `/fix`: by the owner and by the director, refused to another member, each a
//! human version that a later edit of the source message does not override.

use crate::common;

use serde_json::json;

const GROUP: i64 = -1_004_444;

#[tokio::test]
async fn a_promise_corrected_twice_keeps_the_human_version() {
    let group = json!({"id": GROUP, "type": "supergroup", "title": "Цех"});
    let dm = |id: i64, from: i64, min: u32, text: &str| {
        json!({"type": "message", "chat": "dm", "id": id, "from": from,
               "date": format!("2026-11-23T11:{min:02}:00+03:00"), "text": text})
    };
    let lines = common::Team::ru("Завод")
        .director(1, "Анна")
        .member(2, "Павел")
        .member(3, "Наталья")
        .then([
        json!({"type": "message", "chat": group, "id": 10, "from": 2, "date": "2026-11-23T10:00:00+03:00",
               "text": "подготовлю смету до среды"}),
        dm(500, 2, 0, "/promises"),
        dm(501, 2, 1, "/fix 1 срок пятница"),
        dm(502, 3, 2, "/fix 1 готово"),
        dm(503, 1, 3, "/fix 1 текст подготовить смету на ремонт цеха"),
        dm(504, 1, 4, "/fix 1 срок когда-нибудь"),
        dm(505, 1, 5, "/fix 99 готово"),
        json!({"type": "edit", "chat": GROUP, "id": 10, "date": "2026-11-23T12:00:00+03:00",
               "text": "подготовлю смету до понедельника"}),
    ]);
    let out = common::replay_ru(&lines).await;
    let reply = |id: i64| common::answer_to(&out, id);
    assert!(
        reply(500).contains("#1"),
        "the list shows the number: {}",
        reply(500)
    );
    assert!(
        reply(501).contains("Исправил") && reply(501).contains("27 ноября"),
        "{}",
        reply(501)
    );
    assert!(
        reply(502).contains("владелец"),
        "another member is refused: {}",
        reply(502)
    );
    assert!(reply(503).contains("ремонт цеха"), "{}", reply(503));
    assert!(reply(504).contains("Не понял дату"), "{}", reply(504));
    assert!(reply(505).contains("Не нашёл"), "{}", reply(505));
    let c = &out["commitments"][0];
    assert_eq!(c["text"], "подготовить смету на ремонт цеха", "{c:#}");
    assert_eq!(
        c["due"], "2026-11-27",
        "the edit did not override the correction: {c:#}"
    );
    assert_eq!(c["state"], "open");
    assert_eq!(c["author"], "user:1");
    assert_eq!(c["confidence"], json!(1.0));
    assert_eq!(out["commitments"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn owners_change_by_command_and_by_the_list_buttons() {
    let group = json!({"id": GROUP, "type": "supergroup", "title": "Цех"});
    let dm = |id: i64, from: i64, min: u32, text: &str| {
        json!({"type": "message", "chat": "dm", "id": id, "from": from,
               "date": format!("2026-11-23T11:{min:02}:00+03:00"), "text": text})
    };
    let press = |from: i64, min: u32, button: &str| {
        json!({"type": "press", "from": from, "date": format!("2026-11-23T12:{min:02}:00+03:00"),
               "chat": "dm", "button": button})
    };
    let lines = common::Team::ru("Завод")
        .director(1, "Анна")
        .member(2, "Павел @pavel")
        .member(3, "Наталья @nata")
        .then([
        json!({"type": "message", "chat": group, "id": 10, "from": 2, "date": "2026-11-23T10:00:00+03:00",
               "text": "подготовлю смету до среды"}),
        json!({"type": "message", "chat": group, "id": 11, "from": 2, "date": "2026-11-23T10:01:00+03:00",
               "text": "закажу фанеру до пятницы"}),
        dm(500, 3, 0, "/fix 1 владелец @nata"),
        dm(501, 1, 1, "/fix 1 владелец @nata"),
        dm(502, 1, 2, "/fix 1 владелец @nobody"),
        // Павел's list has a ✏️ button per promise; he may not hand one to someone else.
        dm(503, 2, 3, "/promises"),
        dm(505, 2, 5, "/fix 2 владелец @nata"),
        // The director, from Павел's status: "not mine" → Анна herself, then a day later.
        dm(504, 1, 6, "что у Павла в работе?"),
        press(1, 0, "#2"),
        press(1, 1, "Не моё"),
        press(1, 2, "Анна"),
        json!({"type": "message", "chat": "dm", "id": 506, "from": 1,
               "date": "2026-11-23T12:03:00+03:00", "text": "/promises"}),
        press(1, 4, "#2"),
        press(1, 5, "+1 день"),
    ]);
    let out = common::replay_ru(&lines).await;
    let reply = |id: i64| common::answer_to(&out, id);
    assert!(
        reply(500).contains("владелец"),
        "a member is refused: {}",
        reply(500)
    );
    assert!(
        reply(501).contains("владелец теперь — Наталья"),
        "{}",
        reply(501)
    );
    assert!(
        reply(505).contains("руководитель или директор"),
        "{}",
        reply(505)
    );
    assert!(reply(502).contains("nobody"), "{}", reply(502));
    let c = |origin: i64| {
        out["commitments"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["origin"]["message"] == json!(origin))
            .cloned()
            .unwrap()
    };
    assert_eq!(c(10)["owner"], json!(3), "{}", c(10));
    assert_eq!(c(10)["author"], "user:1");
    assert!(reply(503).contains("#2"), "{}", reply(503));
    // The fanera promise went to Анна by button, then she moved it a working day on.
    assert_eq!(c(11)["owner"], json!(1), "{}", c(11));
    assert_eq!(
        c(11)["due"],
        "2026-11-30",
        "Friday + 1 working day: {}",
        c(11)
    );
    assert_eq!(c(11)["author"], "user:1");
    let anna: Vec<String> = out["transcript"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["to_user"] == json!(1))
        .filter_map(|m| m["text"].as_str().map(str::to_string))
        .collect();
    assert!(
        anna.iter().any(|t| t.contains("Что исправить?")),
        "{anna:?}"
    );
    assert!(
        anna.iter().any(|t| t.contains("Чьё это обещание?")),
        "{anna:?}"
    );
    assert!(
        anna.iter().any(|t| t.contains("владелец теперь — Анна")),
        "{anna:?}"
    );
}
