//! Corrections with `/fix`: by the owner and by the director, refused to another member, each a
//! human version that a later edit of the source message does not override.

mod common;

use serde_json::json;

const GROUP: i64 = -1_004_444;

#[tokio::test]
async fn a_promise_corrected_twice_keeps_the_human_version() {
    let group = json!({"id": GROUP, "type": "supergroup", "title": "Цех"});
    let dm = |id: i64, from: i64, min: u32, text: &str| {
        json!({"type": "message", "chat": "dm", "id": id, "from": from,
               "date": format!("2026-11-23T11:{min:02}:00+03:00"), "text": text})
    };
    let lines = [
        json!({"type": "org", "name": "Завод", "timezone": "Europe/Moscow", "locale": "ru"}),
        json!({"type": "member", "user": {"id": 1, "first_name": "Анна", "language_code": "ru"}, "role": "director", "dm_open": true}),
        json!({"type": "member", "user": {"id": 2, "first_name": "Павел", "language_code": "ru"}, "role": "member", "manager": 1, "dm_open": true}),
        json!({"type": "member", "user": {"id": 3, "first_name": "Наталья", "language_code": "ru"}, "role": "member", "manager": 1, "dm_open": true}),
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
    ];
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
