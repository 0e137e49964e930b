//! Tasks from Telegram: `/task` and a plain assignment in a DM, the assignee's buttons, the
//! assigner told, priorities and the morning reminder, and who may assign whom.

use crate::common;

use common::dm_line as dm;
use serde_json::{Value, json};

fn press(from: i64, date: &str, button: &str) -> Value {
    json!({"type": "press", "from": from, "date": date, "chat": "dm", "button": button})
}

async fn replay(extra: &[Value]) -> Value {
    let mut lines = common::Team::ru("Завод")
        .director(1, "Анна Смирнова")
        .member(2, "Павел Орлов @pavel")
        .member(3, "Наталья @nata")
        .dm_closed()
        .then([]);
    lines.extend(extra.iter().cloned());
    common::replay_ru(&lines).await
}

fn sent_to(out: &Value, user: i64) -> Vec<String> {
    common::dms_to(out, user)
        .into_iter()
        .map(|(_, t)| t)
        .collect()
}

#[tokio::test]
async fn a_task_is_assigned_accepted_reminded_and_finished() {
    let out = replay(&[
        dm(
            500,
            1,
            "2026-11-23T10:00:00+03:00",
            "/task @pavel переделать смету до завтра !срочно",
        ),
        press(2, "2026-11-23T10:05:00+03:00", "Принять"),
        dm(
            501,
            2,
            "2026-11-23T10:10:00+03:00",
            "какие у меня приоритеты?",
        ),
        json!({"type": "clock", "at": "2026-11-24T09:40:00+03:00"}),
        press(2, "2026-11-24T11:00:00+03:00", "Готово"),
    ])
    .await;
    let anna = sent_to(&out, 1);
    let pavel = sent_to(&out, 2);
    assert!(
        anna[0].contains("Поручил Павлу Орлову: переделать смету"),
        "{anna:?}"
    );
    assert!(
        pavel[0].contains("Анна Смирнова поручает вам: переделать смету")
            && pavel[0].contains("(срочно)"),
        "{pavel:?}"
    );
    assert!(pavel.iter().any(|t| t.contains("Принято")), "{pavel:?}");
    assert!(
        anna.iter().any(|t| t.contains("Павел принял(а) задачу")),
        "{anna:?}"
    );
    let priorities = common::answer_to(&out, 501);
    assert!(
        priorities.contains("переделать смету"),
        "an accepted task is a priority: {priorities}"
    );
    assert!(
        pavel.iter().any(|t| t.starts_with("Задачи на сегодня")),
        "the morning reminder: {pavel:?}"
    );
    assert!(
        anna.iter().any(|t| t.contains("Павел выполнил(а) задачу")),
        "{anna:?}"
    );
}

#[tokio::test]
async fn a_plain_assignment_in_a_dm_and_who_may_assign() {
    let out = replay(&[
        dm(
            500,
            1,
            "2026-11-23T10:00:00+03:00",
            "Павел, подготовь отчёт до пятницы",
        ),
        dm(
            501,
            2,
            "2026-11-23T10:01:00+03:00",
            "/task @nata сверить остатки",
        ),
        dm(
            502,
            1,
            "2026-11-23T10:02:00+03:00",
            "/task @nata сверить остатки",
        ),
        press(2, "2026-11-23T10:05:00+03:00", "Отказаться"),
        dm(
            503,
            1,
            "2026-11-23T10:06:00+03:00",
            "/task сделать что-нибудь",
        ),
    ])
    .await;
    let reply = |id: i64| common::answer_to(&out, id);
    assert!(reply(500).contains("Поручил Павлу"), "{}", reply(500));
    assert!(
        reply(501).contains("директор и руководители"),
        "a member assigns nobody: {}",
        reply(501)
    );
    // Наталья has not opened a DM: the director is told to pass it on.
    assert!(reply(502).contains("передайте сами"), "{}", reply(502));
    assert!(
        sent_to(&out, 1).iter().any(|t| t.contains("отказался")),
        "{:?}",
        sent_to(&out, 1)
    );
    assert!(reply(503).contains("Формат"), "{}", reply(503));
}

#[tokio::test]
async fn a_task_for_someone_without_a_dm_goes_to_their_group_with_a_mention() {
    let group = json!({"id": -1_001_212, "type": "supergroup", "title": "Склад"});
    let out = replay(&[
        json!({"type": "message", "chat": group, "id": 10, "from": 3,
               "date": "2026-11-23T09:00:00+03:00", "text": "всем привет"}),
        dm(
            500,
            1,
            "2026-11-23T10:00:00+03:00",
            "/task @nata сверить остатки до среды",
        ),
        json!({"type": "press", "from": 3, "date": "2026-11-23T10:05:00+03:00",
               "chat": -1_001_212, "button": "Принять"}),
        // Done by saying so in the group.
        json!({"type": "message", "chat": group, "id": 11, "from": 3,
               "date": "2026-11-24T15:00:00+03:00", "text": "остатки сверила"}),
    ])
    .await;
    let reply = common::answer_to(&out, 500);
    assert!(reply.contains("написал в рабочий чат"), "{reply}");
    let in_group: Vec<&Value> = out["transcript"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["chat"] == json!(-1_001_212))
        .collect();
    let offer = in_group
        .iter()
        .find(|m| m["text"].as_str().unwrap_or("").contains("поручает вам"))
        .unwrap_or_else(|| panic!("{in_group:?}"));
    assert!(
        offer["text"].as_str().unwrap().contains("Наталья"),
        "a mention: {offer}"
    );
    let anna = sent_to(&out, 1);
    assert!(anna.iter().any(|t| t.contains("Наталья приняла задачу") || t.contains("Наталья принял(а) задачу")), "{anna:?}");
    assert!(
        anna.iter()
            .any(|t| t.contains("Наталья выполнил(а) задачу: сверить остатки")),
        "{anna:?}"
    );
}

#[tokio::test]
async fn a_hedged_or_other_report_does_not_close_a_task() {
    let group = json!({"id": -1_001_213, "type": "supergroup", "title": "Склад"});
    let say = |id: i64, day: u32, text: &str| {
        common::group_line(
            &group,
            id,
            2,
            &format!("2026-11-{day:02}T15:00:00+03:00"),
            text,
        )
    };
    let out = replay(&[
        dm(
            500,
            1,
            "2026-11-23T10:00:00+03:00",
            "/task @pavel проверить смету Ромашки до пятницы",
        ),
        press(2, "2026-11-23T10:05:00+03:00", "Принять"),
        say(10, 23, "смету ещё не проверил"),
        say(11, 23, "по смете были вопросы"),
        say(12, 24, "проверил смету Лютика"),
        dm(
            501,
            2,
            "2026-11-24T16:00:00+03:00",
            "какие у меня приоритеты?",
        ),
        say(13, 25, "смету Ромашки проверил"),
        dm(
            502,
            2,
            "2026-11-25T16:00:00+03:00",
            "какие у меня приоритеты?",
        ),
    ])
    .await;
    assert!(
        common::answer_to(&out, 501).contains("проверить смету Ромашки"),
        "still open: {}",
        common::answer_to(&out, 501)
    );
    assert!(
        !common::answer_to(&out, 502).contains("проверить смету Ромашки"),
        "closed by the real report: {}",
        common::answer_to(&out, 502)
    );
}

#[tokio::test]
async fn another_team_s_tasks_are_not_a_member_s_to_see() {
    let out = replay(&[
        dm(
            500,
            1,
            "2026-11-23T10:00:00+03:00",
            "/task @pavel переделать смету для Ромашки до пятницы",
        ),
        press(2, "2026-11-23T10:05:00+03:00", "Принять"),
        dm(501, 3, "2026-11-23T10:10:00+03:00", "что у Павла в работе?"),
        dm(502, 1, "2026-11-23T10:11:00+03:00", "что у Павла в работе?"),
    ])
    .await;
    assert!(
        !common::answer_to(&out, 501).contains("Ромашки"),
        "a member does not see another's tasks: {}",
        common::answer_to(&out, 501)
    );
    assert!(
        common::answer_to(&out, 502).contains("Ромашки"),
        "the director does: {}",
        common::answer_to(&out, 502)
    );
}
