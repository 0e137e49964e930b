//! The business graph from Telegram: `/node` (director, lead) and `/nodes`, then "кто отвечает
//! за X" answered from what was added.

use crate::common;

use serde_json::{Value, json};

fn dm(id: i64, from: i64, text: &str) -> Value {
    json!({"type": "message", "chat": "dm", "id": id, "from": from,
           "date": format!("2026-11-24T10:{:02}:00+03:00", id - 500), "text": text})
}

#[tokio::test]
async fn a_director_adds_nodes_a_member_cannot_and_owners_answer() {
    let lines = common::Team::ru("Завод")
        .director(1, "Анна")
        .member(2, "Павел Орлов @pavel")
        .then([
            dm(500, 1, "/node продукт Топливные баки K1 @pavel"),
            dm(501, 1, "/node клиент Ромашка"),
            dm(502, 2, "/node продукт Крышки"),
            dm(503, 2, "/nodes"),
            dm(504, 2, "/nodes клиенты"),
            dm(505, 2, "кто отвечает за топливные баки?"),
            dm(506, 1, "/node банан Что-то"),
            dm(507, 1, "/node продукт Шланги @nobody"),
        ]);
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

#[tokio::test]
async fn links_between_nodes_answer_what_depends_on_what() {
    let lines = common::Team::ru("Завод")
        .director(1, "Анна")
        .member(2, "Павел Орлов @pavel")
        .then([
        dm(500, 1, "/node продукт Внутренний CRM @pavel"),
        dm(501, 1, "/node процесс Биллинг"),
        dm(502, 1, "/link CRM depends_on Биллинг"),
        dm(503, 2, "/link Биллинг depends_on CRM"),
        json!({"type": "message", "chat": "dm", "id": 510, "from": 1,
               "date": "2026-11-24T10:03:30+03:00", "text": "/link внутренний crm зависит от биллинга"}),
        dm(504, 1, "/link CRM зависит от Склад"),
        dm(505, 1, "/link CRM дружит Биллинг"),
        dm(506, 2, "что зависит от биллинга?"),
        dm(507, 2, "от чего зависит CRM?"),
        dm(508, 2, "что зависит от CRM?"),
        dm(509, 1, "/link"),
    ]);
    let out = common::replay_ru(&lines).await;
    let reply = |id: i64| common::answer_to(&out, id);
    assert!(
        reply(502).contains("«Внутренний CRM» зависит от «Биллинг»"),
        "{}",
        reply(502)
    );
    assert!(
        reply(503).contains("директор"),
        "a member is refused: {}",
        reply(503)
    );
    assert!(
        reply(504).contains("Не нашёл узел «Склад»"),
        "{}",
        reply(504)
    );
    assert!(reply(505).contains("Формат"), "{}", reply(505));
    assert!(
        reply(506).contains("От «Биллинг» зависят")
            && reply(506).contains("Внутренний CRM — Павел"),
        "{}",
        reply(506)
    );
    assert!(
        reply(507).contains("«Внутренний CRM» зависит от") && reply(507).contains("Биллинг"),
        "{}",
        reply(507)
    );
    assert!(reply(508).contains("ничего не зависит"), "{}", reply(508));
    assert!(reply(509).contains("групповом чате"), "{}", reply(509));
}

#[tokio::test]
async fn an_owner_heard_in_a_group_is_confirmed_by_the_director() {
    let group = json!({"id": -1_001_333, "type": "supergroup", "title": "Команда"});
    let say = |id: i64, from: i64, min: u32, text: &str| {
        common::group_line(
            &group,
            id,
            from,
            &format!("2026-11-24T11:{min:02}:00+03:00"),
            text,
        )
    };
    let press = |from: i64, min: u32, button: &str| {
        json!({"type": "press", "from": from, "date": format!("2026-11-24T12:{min:02}:00+03:00"),
               "chat": "dm", "button": button})
    };
    let lines = [
        json!({"type": "org", "name": "Завод", "timezone": "Europe/Moscow", "locale": "ru"}),
        json!({"type": "member", "user": {"id": 1, "first_name": "Анна", "language_code": "ru"}, "role": "director", "dm_open": true}),
        json!({"type": "member", "user": {"id": 2, "first_name": "Дмитрий", "last_name": "Кузнецов", "username": "dima", "language_code": "ru"}, "role": "member", "manager": 1, "dm_open": true}),
        json!({"type": "member", "user": {"id": 3, "first_name": "Ben", "last_name": "Carter", "username": "ben", "language_code": "en"}, "role": "member", "manager": 1, "dm_open": true}),
        dm(500, 1, "/node продукт Внутренний CRM"),
        say(10, 3, 0, "за CRM теперь отвечает Дима"),
        // The same said twice is asked once.
        say(11, 2, 1, "за CRM отвечает Дима"),
        json!({"type": "press", "from": 1, "date": "2026-11-24T11:01:30+03:00", "chat": "dm",
               "button": "Записать"}),
        say(12, 2, 2, "Ben owns billing now"),
        press(1, 1, "Не надо"),
        json!({"type": "message", "chat": "dm", "id": 530, "from": 2,
               "date": "2026-11-24T12:30:00+03:00", "text": "кто отвечает за CRM?"}),
    ];
    let out = common::replay_ru(&lines).await;
    let anna = common::dms_to(&out, 1);
    let asks: Vec<&String> = anna
        .iter()
        .map(|(_, t)| t)
        .filter(|t| t.contains("пишет в чате"))
        .collect();
    assert_eq!(asks.len(), 2, "{anna:?}");
    assert!(
        asks[0]
            .contains("Ben Carter пишет в чате, что за «Внутренний CRM» отвечает Дмитрий Кузнецов"),
        "{asks:?}"
    );
    assert!(
        asks[1].contains("«billing»") && asks[1].contains("Такого узла ещё нет"),
        "{asks:?}"
    );
    // Confirmed: the node has its owner; the ignored one changed nothing.
    let nodes = out["nodes"].as_array().unwrap();
    let crm = nodes
        .iter()
        .find(|n| n["title"] == "Внутренний CRM")
        .unwrap();
    assert_eq!(crm["owner"], json!(2), "{nodes:?}");
    assert!(!nodes.iter().any(|n| n["title"] == "billing"), "{nodes:?}");
    let answer = common::answer_to(&out, 530);
    assert!(answer.contains("Дмитрий"), "{answer}");
    // Nothing was said in the group by the bot, and no commitment was made of it.
    assert!(
        !out["transcript"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["chat"] == json!(-1_001_333)),
    );
}
