//! The business graph from Telegram: `/node` (director, lead) and `/nodes`, then "кто отвечает
//! за X" answered from what was added.

mod common;

use serde_json::{Value, json};

fn dm(id: i64, from: i64, text: &str) -> Value {
    json!({"type": "message", "chat": "dm", "id": id, "from": from,
           "date": format!("2026-11-24T10:{:02}:00+03:00", id - 500), "text": text})
}

#[tokio::test]
async fn a_director_adds_nodes_a_member_cannot_and_owners_answer() {
    let lines = [
        json!({"type": "org", "name": "Завод", "timezone": "Europe/Moscow", "locale": "ru"}),
        json!({"type": "member", "user": {"id": 1, "first_name": "Анна", "language_code": "ru"}, "role": "director", "dm_open": true}),
        json!({"type": "member", "user": {"id": 2, "first_name": "Павел", "last_name": "Орлов", "username": "pavel", "language_code": "ru"}, "role": "member", "manager": 1, "dm_open": true}),
        dm(500, 1, "/node продукт Топливные баки K1 @pavel"),
        dm(501, 1, "/node клиент Ромашка"),
        dm(502, 2, "/node продукт Крышки"),
        dm(503, 2, "/nodes"),
        dm(504, 2, "/nodes клиенты"),
        dm(505, 2, "кто отвечает за топливные баки?"),
        dm(506, 1, "/node банан Что-то"),
        dm(507, 1, "/node продукт Шланги @nobody"),
    ];
    let out = common::replay_ru(&lines).await;
    let reply = |id: i64| common::answer_to(&out, id);
    assert!(
        reply(500).contains("toplivnye-baki-k1") && reply(500).contains("Павел"),
        "{}",
        reply(500)
    );
    assert!(reply(501).contains("«Ромашка» (клиент)"), "{}", reply(501));
    assert!(
        reply(502).contains("директор"),
        "a member is refused: {}",
        reply(502)
    );
    assert!(
        reply(503).contains("2 узла") && reply(503).contains("Топливные баки K1"),
        "{}",
        reply(503)
    );
    assert!(
        reply(504).contains("Ромашка") && !reply(504).contains("баки"),
        "{}",
        reply(504)
    );
    assert!(reply(505).contains("Павел"), "{}", reply(505));
    assert!(reply(506).contains("Формат"), "{}", reply(506));
    assert!(reply(507).contains("@nobody"), "{}", reply(507));
    let nodes = out["nodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 2, "{nodes:?}");
    assert_eq!(nodes[0]["owner"], json!(2));
}
