//! Who takes what, read across messages: a yes that asks by when takes the date the asker then
//! gives; a plan that names who does each item asks it of them; a report of two things closes
//! both promises.

use serde_json::json;

use crate::common::{self, group_line};

/// A team of three in `lang` ("ru"/"en"): 1 directs, 2 and 3 work for them.
async fn run(
    lang: &str,
    names: [&str; 3],
    msgs: &[(i64, i64, &str, &str, Option<i64>)],
) -> Vec<(i64, String, Option<String>, String, i64)> {
    let mut lines = vec![
        json!({"type": "org", "name": "Team", "timezone": "Europe/Moscow", "locale": lang}),
        json!({"type": "member", "user": {"id": 1, "first_name": names[0]}, "role": "director", "dm_open": true}),
        json!({"type": "member", "user": {"id": 2, "first_name": names[1]}, "role": "member", "manager": 1}),
        json!({"type": "member", "user": {"id": 3, "first_name": names[2]}, "role": "member", "manager": 1}),
    ];
    let chat = json!({"id": -100700, "type": "supergroup", "title": "Team"});
    for &(id, from, date, text, reply) in msgs {
        let mut l = group_line(&chat, id, from, date, text);
        if let Some(r) = reply {
            l["reply_to"] = json!(r);
        }
        lines.push(l);
    }
    common::held(&common::replay_ru(&lines).await)
}

#[tokio::test]
async fn a_yes_asking_by_when_takes_the_date_the_asker_gives() {
    let got = run(
        "en",
        ["Dana", "Ravi", "Lani"],
        &[
            (
                10,
                1,
                "2026-11-23T10:00:00+03:00",
                "Ravi can you swap the hydraulic hose on unit 4?",
                None,
            ),
            (
                11,
                2,
                "2026-11-23T10:02:00+03:00",
                "sure, by when?",
                Some(10),
            ),
            (12, 1, "2026-11-23T10:03:00+03:00", "thurs", Some(11)),
        ],
    )
    .await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, 2, "Ravi's: {got:?}");
    assert!(got[0].1.contains("hose"), "{got:?}");
    assert_eq!(got[0].2.as_deref(), Some("2026-11-26"), "{got:?}");

    // Without a reply, the asker's next message; and a date from a third person sets nothing.
    let got = run(
        "ru",
        ["Олег", "Степан", "Вера"],
        &[
            (
                10,
                1,
                "2026-11-23T10:00:00+03:00",
                "Степан, поменяй шланг на четвёртом",
                None,
            ),
            (
                11,
                2,
                "2026-11-23T10:02:00+03:00",
                "ок, к какому числу?",
                Some(10),
            ),
            (12, 3, "2026-11-23T10:03:00+03:00", "в среду", None),
            (13, 1, "2026-11-23T10:04:00+03:00", "к пятнице", None),
        ],
    )
    .await;
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, 2, "{got:?}");
    assert_eq!(got[0].2.as_deref(), Some("2026-11-27"), "{got:?}");
}

#[tokio::test]
async fn a_plan_naming_who_does_each_item_asks_it_of_them() {
    let got = run(
        "ru",
        ["Олег", "Степан", "Вера"],
        &[
            (
                10,
                1,
                "2026-11-23T09:00:00+03:00",
                "план на сегодня:\n1) Степан — вскрытие замка на Ленина\n2) Вера — счета, как придёт оплата\n3) я — закупка",
                None,
            ),
            (11, 2, "2026-11-23T09:05:00+03:00", "принял", Some(10)),
        ],
    )
    .await;
    let mut got = got;
    got.sort();
    assert_eq!(
        got.len(),
        2,
        "the director's own item and Степан's: {got:?}"
    );
    assert_eq!(got[0].0, 1, "{got:?}");
    assert!(got[0].1.contains("закупк"), "{got:?}");
    assert_eq!(got[1].0, 2, "{got:?}");
    assert!(got[1].1.contains("замк"), "{got:?}");
    assert_eq!(got[1].2.as_deref(), Some("2026-11-23"), "{got:?}");
}

#[tokio::test]
async fn a_report_of_two_things_closes_both_promises() {
    let got = run(
        "en",
        ["Dana", "Ravi", "Lani"],
        &[
            (
                10,
                2,
                "2026-11-23T09:00:00+03:00",
                "today: 1) set up the big smoker 2) inventory the dry goods 3) call the wood guy",
                None,
            ),
            (
                11,
                2,
                "2026-11-23T16:00:00+03:00",
                "smoker's set, inventory done. I'll grab foil pans tmrw",
                None,
            ),
        ],
    )
    .await;
    let state = |w: &str| {
        got.iter()
            .find(|c| c.1.contains(w))
            .map(|c| c.3.clone())
            .unwrap_or_default()
    };
    assert_eq!(state("smoker"), "done", "{got:?}");
    assert_eq!(state("inventory"), "done", "{got:?}");
    assert_eq!(state("wood"), "open", "{got:?}");
    assert_eq!(state("foil"), "open", "{got:?}");
}
