//! Goals end to end, one replayed week in each language: a director sets a goal, the model
//! plans it, the director keeps and assigns its steps, people accept and finish them (by
//! button and by saying so in the group), one person is away two days, a promise is corrected
//! twice; the weekly digest shows the goal's progress and who moved it. And who may do what.

use crate::common;

use kept::config::{LlmProvider, LlmSettings, Secret};
use kept::domain::Lang;
use kept::replay::{Options, run_text};
use kept::sandbox::llm::{FakeLlm, FakeReply};
use serde_json::{Value, json};

const GROUP: i64 = -1_001_777;

fn group() -> Value {
    json!({"id": GROUP, "type": "supergroup", "title": "Команда"})
}

fn say(id: i64, from: i64, date: &str, text: &str) -> Value {
    common::group_line(&group(), id, from, date, text)
}

fn dm(id: i64, from: i64, date: &str, text: &str) -> Value {
    common::dm_line(id, from, date, text)
}

fn press(from: i64, date: &str, button: &str) -> Value {
    json!({"type": "press", "from": from, "date": date, "chat": "dm", "button": button})
}

fn clock(at: &str) -> Value {
    json!({"type": "clock", "at": at})
}

async fn with_model(lines: &[Value], lang: Lang, steps: &[&str]) -> (Value, FakeLlm) {
    let fake = FakeLlm::start().await.unwrap();
    fake.push_for("goal_plan", FakeReply::Json(json!({"steps": steps})));
    let llm = LlmSettings {
        provider: LlmProvider::Openai,
        base_url: Some(fake.openai_url()),
        model: Some("fake".into()),
        api_key: Some(Secret::new("sk-test")),
        timeout_s: 2,
        retries: 0,
        max_retry_wait_s: 1,
        ..LlmSettings::default()
    };
    let text: String = lines.iter().map(|l| l.to_string() + "\n").collect();
    let out = run_text(
        &text,
        Options {
            tz: chrono_tz::Europe::Moscow,
            lang,
            db: None,
            llm,
        },
    )
    .await
    .unwrap()
    .json;
    (out, fake)
}

fn texts_to(out: &Value, user: i64) -> Vec<(String, String)> {
    common::dms_to(out, user)
}

/// Every message (and edit) the bot sent to `user`, joined: edits of a plan carry its state.
fn all_to(out: &Value, user: i64) -> String {
    out["transcript"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["to_user"] == json!(user))
        .filter_map(|m| m["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n----\n")
}

fn commitment_from(out: &Value, message: i64) -> Value {
    out["commitments"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["origin"]["message"] == json!(message))
        .cloned()
        .unwrap_or_else(|| {
            panic!(
                "no commitment from message {message}: {}",
                out["commitments"]
            )
        })
}

#[tokio::test]
async fn a_week_with_a_goal_in_russian() {
    let lines = common::Team::ru("Завод")
        .director(1, "Анна Смирнова")
        .member(2, "Павел Орлов @pavel")
        .member(3, "Наталья Лис @nata")
        .member(4, "Олег Петров @oleg")
        .then([
        // Monday: a promise, an absence announced, a goal and its steps.
        say(
            10,
            2,
            "2026-11-23T09:50:00+03:00",
            "подготовлю смету на ремонт офиса до среды",
        ),
        say(
            11,
            4,
            "2026-11-23T09:55:00+03:00",
            "сверю остатки в магазине в среду",
        ),
        say(
            12,
            4,
            "2026-11-23T09:56:00+03:00",
            "я в отпуске с 25 по 26 ноября",
        ),
        dm(
            500,
            1,
            "2026-11-23T10:00:00+03:00",
            "/goal Открыть склад в Казани до 4 декабря — аренда, охрана, первые поставки @pavel",
        ),
        press(1, "2026-11-23T10:01:00+03:00", "Оставить 1"),
        press(1, "2026-11-23T10:02:00+03:00", "Поручить 2"),
        press(1, "2026-11-23T10:02:30+03:00", "Наталья Лис"),
        press(1, "2026-11-23T10:03:00+03:00", "Поручить 3"),
        press(1, "2026-11-23T10:03:30+03:00", "Олег Петров"),
        press(2, "2026-11-23T10:10:00+03:00", "Принять"),
        press(3, "2026-11-23T10:11:00+03:00", "Принять"),
        press(4, "2026-11-23T10:12:00+03:00", "Принять"),
        // Tuesday: the owner moves his promise by command.
        dm(501, 2, "2026-11-24T09:00:00+03:00", "/fix 1 срок пятница"),
        dm(
            504,
            2,
            "2026-11-24T09:05:00+03:00",
            "какие у меня приоритеты?",
        ),
        // Wednesday: a step is reported done in the group; the director rewords the promise;
        // an edit of the promise's message later must not undo the people's corrections.
        say(
            13,
            2,
            "2026-11-25T11:00:00+03:00",
            "помещение под склад нашёл, готово",
        ),
        dm(
            502,
            1,
            "2026-11-25T12:00:00+03:00",
            "/fix 1 текст подготовить смету на ремонт офиса и склада",
        ),
        json!({"type": "edit", "chat": GROUP, "id": 10, "date": "2026-11-25T15:00:00+03:00",
               "text": "подготовлю смету на ремонт офиса до понедельника"}),
        // Thursday: another step done by saying so.
        say(
            14,
            3,
            "2026-11-26T10:00:00+03:00",
            "договор с охраной заключила",
        ),
        dm(503, 1, "2026-11-26T12:00:00+03:00", "/goals"),
        clock("2026-11-27T18:30:00+03:00"),
    ]);
    let (out, fake) = with_model(
        &lines,
        Lang::Ru,
        &[
            "Найти помещение под склад",
            "Заключить договор с охраной",
            "Принять первую поставку",
        ],
    )
    .await;
    // The model was asked to plan the goal with the owner's context.
    let plan_req = fake
        .requests()
        .into_iter()
        .find(|r| kept::sandbox::llm::schema_name(r) == "goal_plan")
        .expect("the goal was sent to the model");
    assert!(plan_req.prompt().contains("Открыть склад в Казани"));
    assert!(
        plan_req.prompt().contains("Павел Орлов"),
        "the owner's context"
    );

    let anna = all_to(&out, 1);
    assert!(anna.contains("Цель поставлена"), "{anna}");
    assert!(anna.contains("1. Найти помещение под склад"), "{anna}");
    assert!(anna.contains("Кому поручить шаг 2"), "{anna}");
    // Each assignee was offered their step and accepted it; the director heard it.
    for (who, step) in [
        (2, "Найти помещение под склад"),
        (3, "Заключить договор с охраной"),
        (4, "Принять первую поставку"),
    ] {
        let theirs = all_to(&out, who);
        assert!(
            theirs.contains(&format!("Анна Смирнова поручает вам: {step}")),
            "{who}: {theirs}"
        );
    }
    assert!(anna.contains("Павел принял(а) задачу"), "{anna}");
    // Steps reported done in the group close their tasks, and the one who set them hears it.
    assert!(
        anna.contains("Павел выполнил(а) задачу: Найти помещение под склад"),
        "{anna}"
    );
    assert!(
        anna.contains("Наталья выполнил(а) задачу: Заключить договор с охраной"),
        "{anna}"
    );
    let goals = common::answer_to(&out, 503);
    assert!(
        goals.contains("Открыть склад в Казани") && goals.contains("2 из 3 шагов сделано"),
        "{goals}"
    );
    // An accepted step is among its assignee's priorities, with the goal's date.
    let priorities = common::answer_to(&out, 504);
    assert!(
        priorities.contains("Найти помещение под склад — до пт, 4 декабря"),
        "{priorities}"
    );
    // The promise corrected twice keeps the people's versions through a later edit.
    let c = commitment_from(&out, 10);
    assert_eq!(
        c["text"], "подготовить смету на ремонт офиса и склада",
        "{c}"
    );
    assert_eq!(c["due"], "2026-11-27", "{c}");
    assert_eq!(c["author"], "user:1", "{c}");
    assert_eq!(c["state"], "open", "{c}");
    // Олег is away Wednesday and Thursday: no reminder then, and not silent in the summary.
    let oleg = texts_to(&out, 4);
    assert!(
        !oleg
            .iter()
            .any(|(at, _)| at.starts_with("2026-11-25") || at.starts_with("2026-11-26")),
        "no reminders while away: {oleg:?}"
    );
    let summary = texts_to(&out, 1)
        .into_iter()
        .find(|(at, t)| at.starts_with("2026-11-25T19") && t.contains("Итоги дня"))
        .expect("a Wednesday summary")
        .1;
    assert!(
        summary.contains("Олег отсутствует по чт, 26 ноября"),
        "{summary}"
    );
    if let Some(silent) = summary.lines().find(|l| l.contains("молчали")) {
        assert!(!silent.contains("Олег"), "away is not silent: {summary}");
    }
    // Thursday's summary names the step done that day.
    let thursday = texts_to(&out, 1)
        .into_iter()
        .find(|(at, t)| at.starts_with("2026-11-26T19") && t.contains("Итоги дня"))
        .expect("a Thursday summary")
        .1;
    assert!(
        thursday.contains("Сделанные шаги целей")
            && thursday.contains("Заключить договор с охраной"),
        "{thursday}"
    );
    // Friday's digest: the goal's progress and who moved it.
    let digest = texts_to(&out, 1)
        .into_iter()
        .find(|(at, t)| at.starts_with("2026-11-27T18") && t.contains("Цели"))
        .expect("a weekly digest with goals")
        .1;
    assert!(digest.contains("Открыть склад в Казани"), "{digest}");
    assert!(
        digest.contains("2 из 3 шагов сделано, за неделю +2"),
        "{digest}"
    );
    assert!(
        digest.contains("двигают: Павел Орлов, Наталья Лис"),
        "{digest}"
    );
}

#[tokio::test]
async fn a_week_with_a_goal_in_english() {
    let lines = common::Team::new("Northwind", "Europe/Moscow", "en")
        .director(1, "Claire Hughes")
        .member(2, "Ben Carter @ben")
        .member(3, "Kate Moss @kate")
        .member(4, "Tom Reed @tom")
        .then([
            say(
                10,
                2,
                "2026-11-23T09:50:00+03:00",
                "I'll send the office refit quote by Wednesday",
            ),
            say(
                11,
                4,
                "2026-11-23T09:55:00+03:00",
                "I'll count the shop stock on Wednesday",
            ),
            say(
                12,
                4,
                "2026-11-23T09:56:00+03:00",
                "I'm on vacation from November 25 to November 26",
            ),
            dm(
                500,
                1,
                "2026-11-23T10:00:00+03:00",
                "/goal Open the Leeds showroom by December 4 — lease, staff, stands @ben",
            ),
            press(1, "2026-11-23T10:01:00+03:00", "Keep 1"),
            press(1, "2026-11-23T10:02:00+03:00", "Assign 2"),
            press(1, "2026-11-23T10:02:30+03:00", "Kate Moss"),
            press(1, "2026-11-23T10:03:00+03:00", "Assign 3"),
            press(1, "2026-11-23T10:03:30+03:00", "Tom Reed"),
            press(2, "2026-11-23T10:10:00+03:00", "Accept"),
            press(3, "2026-11-23T10:11:00+03:00", "Accept"),
            press(4, "2026-11-23T10:12:00+03:00", "Accept"),
            dm(501, 2, "2026-11-24T09:00:00+03:00", "/fix 1 due Friday"),
            say(
                13,
                2,
                "2026-11-25T11:00:00+03:00",
                "signed the showroom lease, done",
            ),
            dm(
                502,
                1,
                "2026-11-25T12:00:00+03:00",
                "/fix 1 text send the office and showroom refit quote",
            ),
            json!({"type": "edit", "chat": GROUP, "id": 10, "date": "2026-11-25T15:00:00+03:00",
               "text": "I'll send the office refit quote by Monday"}),
            say(
                14,
                3,
                "2026-11-26T10:00:00+03:00",
                "hired the two sales staff for the showroom",
            ),
            dm(503, 1, "2026-11-26T12:00:00+03:00", "/goals"),
            clock("2026-11-27T18:30:00+03:00"),
        ]);
    let (out, _fake) = with_model(
        &lines,
        Lang::En,
        &[
            "Sign the showroom lease",
            "Hire two sales staff",
            "Order the display stands",
        ],
    )
    .await;
    let claire = all_to(&out, 1);
    assert!(claire.contains("Goal set"), "{claire}");
    assert!(claire.contains("Who should do step 2"), "{claire}");
    for (who, step) in [
        (2, "Sign the showroom lease"),
        (3, "Hire two sales staff"),
        (4, "Order the display stands"),
    ] {
        let theirs = all_to(&out, who);
        assert!(theirs.contains(step), "{who}: {theirs}");
    }
    assert!(
        claire.contains("Ben finished the task: Sign the showroom lease"),
        "{claire}"
    );
    assert!(
        claire.contains("Kate finished the task: Hire two sales staff"),
        "{claire}"
    );
    let goals = common::answer_to(&out, 503);
    assert!(goals.contains("2 of 3 steps done"), "{goals}");
    let c = commitment_from(&out, 10);
    assert_eq!(c["text"], "send the office and showroom refit quote", "{c}");
    assert_eq!(c["due"], "2026-11-27", "{c}");
    assert_eq!(c["author"], "user:1", "{c}");
    let tom = texts_to(&out, 4);
    assert!(
        !tom.iter()
            .any(|(at, _)| at.starts_with("2026-11-25") || at.starts_with("2026-11-26")),
        "no reminders while away: {tom:?}"
    );
    let digest = texts_to(&out, 1)
        .into_iter()
        .find(|(at, t)| at.starts_with("2026-11-27T18") && t.contains("Goals"))
        .expect("a weekly digest with goals")
        .1;
    assert!(digest.contains("Open the Leeds showroom"), "{digest}");
    assert!(
        digest.contains("2 of 3 steps done, +2 this week"),
        "{digest}"
    );
    assert!(
        digest.contains("moving it: Ben Carter, Kate Moss"),
        "{digest}"
    );
}

fn team() -> Vec<Value> {
    common::Team::ru("Завод")
        .director(1, "Анна Смирнова")
        .lead(5, "Ирина Белова @irina")
        .member(2, "Павел Орлов @pavel")
        .reports_to(5)
        .member(3, "Наталья Лис @nata")
        .then([])
}

#[tokio::test]
async fn who_may_set_goals_and_who_sees_them() {
    let mut lines = team();
    lines.extend([
        // A member sets their own goal, and may not set one for someone else.
        dm(
            500,
            3,
            "2026-11-23T10:00:00+03:00",
            "/goal Пройти курс по охране труда",
        ),
        dm(
            501,
            3,
            "2026-11-23T10:01:00+03:00",
            "/goal Сдать отчёт @pavel",
        ),
        // A lead sets one for their report, not for someone outside their team.
        dm(
            502,
            5,
            "2026-11-23T10:02:00+03:00",
            "/goal Перевести цех на новый ERP до 1 марта @pavel",
        ),
        dm(
            503,
            5,
            "2026-11-23T10:03:00+03:00",
            "/goal Обновить прайс @nata",
        ),
        dm(504, 5, "2026-11-23T10:04:00+03:00", "/goal Что-то @nobody"),
        dm(505, 5, "2026-11-23T10:05:00+03:00", "/goal"),
        dm(506, 3, "2026-11-23T10:07:00+03:00", "/goals"),
        dm(507, 2, "2026-11-23T10:08:00+03:00", "/goals"),
        dm(508, 5, "2026-11-23T10:09:00+03:00", "/goals"),
        dm(509, 1, "2026-11-23T10:10:00+03:00", "/goals"),
    ]);
    let out = common::replay_ru(&lines).await;
    let reply = |id: i64| common::answer_to(&out, id);
    assert!(
        reply(500).contains("Цель поставлена") && reply(500).contains("Пройти курс"),
        "{}",
        reply(500)
    );
    assert!(
        reply(500).contains("один шаг"),
        "without a model the goal is one step: {}",
        reply(500)
    );
    assert!(reply(501).contains("Ставить цели другим"), "{}", reply(501));
    assert!(reply(502).contains("Цель поставлена"), "{}", reply(502));
    assert!(reply(503).contains("Ставить цели другим"), "{}", reply(503));
    assert!(reply(504).contains("Не нашёл"), "{}", reply(504));
    assert!(reply(505).contains("Формат"), "{}", reply(505));
    // Наталья sees her own goal only; Павел the one he owns; the lead hers and her report's;
    // the director every goal.
    assert!(
        reply(506).contains("Пройти курс") && !reply(506).contains("ERP"),
        "{}",
        reply(506)
    );
    assert!(
        reply(507).contains("ERP") && !reply(507).contains("Пройти курс"),
        "{}",
        reply(507)
    );
    assert!(
        reply(508).contains("ERP") && !reply(508).contains("Пройти курс"),
        "{}",
        reply(508)
    );
    assert!(
        reply(509).contains("ERP") && reply(509).contains("Пройти курс"),
        "{}",
        reply(509)
    );
}

#[tokio::test]
async fn a_failed_plan_keeps_the_goal_whole_and_a_dropped_step_is_gone() {
    let mut lines = team();
    lines.extend([
        dm(
            500,
            1,
            "2026-11-23T10:00:00+03:00",
            "/goal Открыть склад @pavel",
        ),
        press(1, "2026-11-23T10:02:00+03:00", "Убрать 1"),
    ]);
    // The model answers with something that is not a plan (one step): the goal is kept whole.
    let (out, _fake) = with_model(&lines, Lang::Ru, &["одно"]).await;
    let anna = all_to(&out, 1);
    assert!(anna.contains("1. Открыть склад — предложен"), "{anna}");
    assert!(anna.contains("один шаг"), "{anna}");
    assert!(anna.contains("1. Открыть склад — убран"), "{anna}");
    assert!(anna.contains("Шаг 1 убран"), "{anna}");
    // Its buttons are gone: pressing again is a replay error, not a second decision.
    lines.push(press(1, "2026-11-23T10:03:00+03:00", "Оставить 1"));
    let again = common::try_replay_ru(&lines).await;
    assert!(again.is_err(), "no button left to press");
}

#[tokio::test]
async fn only_the_goal_s_people_decide_its_steps() {
    use kept::answer::goals::press as press_goal;
    use kept::domain::callback::GoalButton;
    use kept::domain::{Role, UserId};
    let t = common::spawn_app().await;
    let anna = json!({"id": 1, "is_bot": false, "first_name": "Анна", "language_code": "ru"});
    let nata = json!({"id": 3, "is_bot": false, "first_name": "Наталья", "language_code": "ru"});
    t.private(&anna, 1, "/start").await;
    t.private(&nata, 1, "привет").await;
    t.store
        .set_member(
            t.org,
            UserId(3),
            Role::Member,
            None,
            Some(UserId(1)),
            t.now(),
        )
        .await
        .unwrap();
    t.private(&anna, 2, "/goal Открыть склад до пятницы").await;
    let goal = t.store.goals(t.org).await.unwrap().remove(0);
    let step = t.store.goal_steps(goal.id).await.unwrap().remove(0);
    let by = |u: i64, b: GoalButton| press_goal(&t.app, t.org, UserId(u), b, Lang::Ru, t.now());
    let refused = by(3, GoalButton::Keep(step.id)).await.unwrap();
    assert!(refused.note.contains("Решать по шагам"), "{}", refused.note);
    assert!(refused.edit.is_none());
    let refused = by(3, GoalButton::To(step.id, UserId(3))).await.unwrap();
    assert!(refused.note.contains("Решать по шагам"), "{}", refused.note);
    // The director keeps it for herself (the goal is hers): a task at once, no offer.
    let kept = by(1, GoalButton::Keep(step.id)).await.unwrap();
    assert!(kept.offer.is_none());
    let tasks = t.store.open_tasks(t.org, UserId(1)).await.unwrap();
    assert_eq!(tasks.len(), 1, "{tasks:?}");
    assert_eq!(tasks[0].title, "Открыть склад");
    assert_eq!(tasks[0].due.unwrap().date.to_string(), "2026-11-27");
    let again = by(1, GoalButton::Drop(step.id)).await.unwrap();
    assert!(again.note.contains("уже есть решение"), "{}", again.note);
    // Finishing the task finishes the step and the goal.
    assert!(t.store.finish_task(tasks[0].id, t.now()).await.unwrap());
    let goal = t.store.goal(goal.id).await.unwrap().unwrap();
    assert_eq!(goal.status, "done");
    let unknown = by(1, GoalButton::Keep(9_999)).await.unwrap();
    assert!(unknown.edit.is_none());
}

#[tokio::test]
async fn a_declined_step_is_decided_again_from_goals_and_a_goal_of_dropped_steps_is_dropped() {
    let mut lines = team();
    lines.extend([
        dm(
            500,
            1,
            "2026-11-23T10:00:00+03:00",
            "/goal Открыть склад @pavel",
        ),
        press(1, "2026-11-23T10:01:00+03:00", "Поручить 1"),
        press(1, "2026-11-23T10:02:00+03:00", "Павел Орлов"),
        press(2, "2026-11-23T10:03:00+03:00", "Отказаться"),
        dm(501, 1, "2026-11-23T10:04:00+03:00", "/goals"),
        press(1, "2026-11-23T10:05:00+03:00", "Открыть склад"),
        press(1, "2026-11-23T10:06:00+03:00", "Убрать 1"),
        dm(502, 1, "2026-11-23T10:07:00+03:00", "/goals"),
    ]);
    let out = common::replay_ru(&lines).await;
    let anna = all_to(&out, 1);
    assert!(anna.contains("Павел отказался"), "{anna}");
    assert!(
        common::answer_to(&out, 501).contains("0 из 1 шага сделано"),
        "{}",
        common::answer_to(&out, 501)
    );
    assert!(anna.contains("1. Открыть склад — убран"), "{anna}");
    assert!(
        common::answer_to(&out, 502).contains("Целей пока нет"),
        "every step dropped: the goal is dropped: {}",
        common::answer_to(&out, 502)
    );
}
