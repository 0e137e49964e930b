//! Reminder buttons: a press by the owner changes the commitment and the bot edits the reminder;
//! a stale press or someone else's press changes nothing.

use crate::common;

use chrono::NaiveDate;
use common::*;
use kept::domain::{ChatId, CommitmentState, Confidence, Lang, MemoryId};
use kept::sandbox::Sent;
use serde_json::Value;

const GROUP: i64 = -1_001_500;

/// Dima (2, DM open) and Lena (3, never started the bot) each promised something due on
/// Wednesday; the clock is run to Wednesday 09:31, past the morning reminders.
struct Reminded {
    t: TestApp,
    dima: Value,
    lena: Value,
    dima_origin: MemoryId,
    lena_origin: MemoryId,
    /// Dima's reminder in his DM.
    dima_reminder: Sent,
    /// Lena's reminder in the group.
    lena_reminder: Sent,
}

async fn reminded() -> Reminded {
    let t = spawn_app().await;
    let group = supergroup_chat(GROUP, "Команда");
    t.admin_links(&group).await;
    let (dima, lena) = (user(2, "Дмитрий"), user(3, "Елена"));
    t.group(&group, &dima, 10, "доделаю отчёт до среды").await;
    t.group(&group, &lena, 11, "подготовлю презентацию до среды")
        .await;
    t.private(&dima, 1, "/start").await;
    let dima_origin = t.commitments_in(GROUP, 10).await[0].origin_id;
    let lena_origin = t.commitments_in(GROUP, 11).await[0].origin_id;
    t.clock.set(msk(2026, 11, 25, 9, 0));
    t.advance_to(msk(2026, 11, 25, 9, 31)).await.unwrap();
    let dima_reminder = t
        .sent_to(2)
        .into_iter()
        .rfind(|s| !s.buttons.is_empty())
        .expect("Dima's reminder");
    let lena_reminder = t
        .sent_to(GROUP)
        .into_iter()
        .rfind(|s| s.text.contains("tg://user?id=3"))
        .expect("Lena's reminder in the group");
    Reminded {
        t,
        dima,
        lena,
        dima_origin,
        lena_origin,
        dima_reminder,
        lena_reminder,
    }
}

/// The keyboard of a one-item reminder, as the bot sent it.
fn keyboard(origin: MemoryId, labels: &[String]) -> Vec<(String, String)> {
    labels
        .iter()
        .zip(["done", "snooze", "nap"])
        .map(|(l, code)| (l.clone(), format!("c:{code}:{}", origin.0)))
        .collect()
}

impl Reminded {
    async fn press(
        &self,
        who: &Value,
        reminder: &Sent,
        chat: &Value,
        origin: MemoryId,
        code: &str,
    ) {
        let message = bot_message(reminder, chat, &keyboard(origin, &reminder.buttons));
        let id = self.t.update_id();
        self.t
            .deliver(&callback_update(
                id,
                &format!("q{id}"),
                who,
                &message,
                &format!("c:{code}:{}", origin.0),
            ))
            .await;
    }

    fn answers(&self) -> usize {
        self.t
            .sandbox
            .calls()
            .iter()
            .filter(|c| *c == "answercallbackquery")
            .count()
    }

    /// The current version of Dima's reminded promise.
    async fn dimas_promise(&self) -> kept::store::Commitment {
        self.t
            .store
            .current_commitment(self.dima_origin)
            .await
            .unwrap()
            .expect("the promise is stored")
    }

    fn edits(&self) -> Vec<Sent> {
        self.t
            .sent()
            .into_iter()
            .filter(|s| s.kind == "edit")
            .collect()
    }
}

#[tokio::test]
async fn done_button_by_the_owner_marks_the_commitment_done_and_edits_the_reminder() {
    let r = reminded().await;
    let chat = private_chat(&r.dima);
    r.press(&r.dima, &r.dima_reminder, &chat, r.dima_origin, "done")
        .await;

    let c = r.dimas_promise().await;
    assert_eq!(c.state, CommitmentState::Done);
    assert_eq!(c.confidence, Confidence::CONFIRMED);
    assert_eq!(c.author.to_string(), "user:2");
    assert_eq!(r.answers(), 1);

    let edits = r.edits();
    assert_eq!(edits.len(), 1, "{edits:?}");
    let edit = &edits[0];
    assert_eq!(edit.chat, 2);
    assert_eq!(edit.message_id, r.dima_reminder.message_id);
    let note = r.t.app.i18n.t(
        Lang::Ru,
        "button-result-done",
        &[("what", c.content.clone().into())],
    );
    assert!(edit.text.contains(&note), "{}", edit.text);
    assert!(
        edit.text.starts_with(&r.dima_reminder.text),
        "the reminder keeps its text: {}",
        edit.text
    );
    assert!(
        edit.buttons.is_empty(),
        "the buttons of the closed item are gone: {:?}",
        edit.buttons
    );

    // Done is done: the next morning has nothing for him.
    r.t.advance_to(msk(2026, 11, 26, 9, 31)).await.unwrap();
    assert!(
        r.t.sent_to(2)
            .iter()
            .all(|s| s.at != msk(2026, 11, 26, 9, 30))
    );
}

#[tokio::test]
async fn done_button_by_the_owner_in_the_group_marks_it_done() {
    let r = reminded().await;
    let group = supergroup_chat(GROUP, "Команда");
    r.press(&r.lena, &r.lena_reminder, &group, r.lena_origin, "done")
        .await;
    let c =
        r.t.store
            .current_commitment(r.lena_origin)
            .await
            .unwrap()
            .unwrap();
    assert_eq!(c.state, CommitmentState::Done);
    let edits = r.edits();
    assert_eq!(edits.len(), 1);
    assert_eq!(edits[0].chat, GROUP);
    assert_eq!(edits[0].message_id, r.lena_reminder.message_id);
}

#[tokio::test]
async fn a_stale_button_on_a_done_commitment_answers_and_changes_nothing() {
    let r = reminded().await;
    let chat = private_chat(&r.dima);
    r.press(&r.dima, &r.dima_reminder, &chat, r.dima_origin, "done")
        .await;
    let versions = r.t.versions().await;
    let current = r.dimas_promise().await;

    for code in ["done", "snooze", "nap"] {
        r.press(&r.dima, &r.dima_reminder, &chat, r.dima_origin, code)
            .await;
    }

    assert_eq!(r.answers(), 4, "every press is answered");
    assert_eq!(r.t.versions().await, versions, "no new version");
    let after = r.dimas_promise().await;
    assert_eq!(after, current);
    assert_eq!(after.state, CommitmentState::Done);
    let stale = r.t.app.i18n.t(
        Lang::Ru,
        "button-stale",
        &[("what", current.content.clone().into())],
    );
    let last = r.edits().pop().unwrap();
    assert!(last.text.contains(&stale), "{}", last.text);
}

#[tokio::test]
async fn someone_elses_press_does_nothing() {
    let r = reminded().await;
    let group = supergroup_chat(GROUP, "Команда");
    let versions = r.t.versions().await;
    let sent = r.t.sent();

    // Dima presses the buttons of Lena's reminder in the group...
    for code in ["done", "snooze", "nap"] {
        r.press(&r.dima, &r.lena_reminder, &group, r.lena_origin, code)
            .await;
    }
    // ...and a stranger who is not in the team presses them too.
    let stranger = user(99, "Посторонний");
    r.press(&stranger, &r.lena_reminder, &group, r.lena_origin, "done")
        .await;

    assert_eq!(r.answers(), 4, "each press gets an answer");
    assert_eq!(r.t.sent(), sent, "no edit, no message");
    assert_eq!(r.t.versions().await, versions);
    let c =
        r.t.store
            .current_commitment(r.lena_origin)
            .await
            .unwrap()
            .unwrap();
    assert_eq!(c.state, CommitmentState::Open);
    assert_eq!(c.due.map(|d| d.date), NaiveDate::from_ymd_opt(2026, 11, 25));
}

#[tokio::test]
async fn snooze_button_moves_the_due_date_to_the_next_working_day() {
    let r = reminded().await;
    let chat = private_chat(&r.dima);
    r.press(&r.dima, &r.dima_reminder, &chat, r.dima_origin, "snooze")
        .await;
    let c = r.dimas_promise().await;
    assert_eq!(c.state, CommitmentState::Open);
    assert_eq!(c.due.map(|d| d.date), NaiveDate::from_ymd_opt(2026, 11, 26));
    assert_eq!(c.origin_id, r.dima_origin);
    assert_eq!(r.edits().len(), 1);
}

#[tokio::test]
async fn not_a_promise_button_cancels_the_commitment() {
    let r = reminded().await;
    let chat = private_chat(&r.dima);
    r.press(&r.dima, &r.dima_reminder, &chat, r.dima_origin, "nap")
        .await;
    let c = r.dimas_promise().await;
    assert_eq!(c.state, CommitmentState::Cancelled);
    // The stored source of the commitment is untouched.
    assert_eq!(c.source_chat, Some(ChatId(GROUP)));
}

#[tokio::test]
async fn a_press_on_a_reminder_sent_in_parts_edits_its_last_part_within_the_limit() {
    let t = spawn_app().await;
    let group = supergroup_chat(GROUP, "Команда");
    t.admin_links(&group).await;
    let dima = user(2, "Дмитрий");
    t.private(&dima, 1, "/start").await;
    let long =
        "с проверкой каждого узла, сверкой размеров по чертежам и фотографиями для заказчика";
    for k in 0..70 {
        t.group(
            &group,
            &dima,
            100 + k,
            &format!(
                "подготовлю акт приёмки по заказу {} {long} до среды",
                5000 + k
            ),
        )
        .await;
    }
    t.clock.set(msk(2026, 11, 25, 9, 0));
    t.advance_to(msk(2026, 11, 25, 9, 31)).await.unwrap();
    let parts: Vec<Sent> = t
        .sent_to(2)
        .into_iter()
        .filter(|s| s.at >= msk(2026, 11, 25, 9, 0))
        .collect();
    assert!(
        parts.len() >= 2,
        "a reminder of 70 long items comes in parts: {parts:#?}"
    );
    assert!(parts.iter().all(|s| s.text.chars().count() <= 4096));
    let (last, rest) = parts.split_last().unwrap();
    assert!(
        rest.iter().all(|s| s.buttons.is_empty()),
        "buttons only on the last part"
    );
    assert_eq!(last.buttons.len(), 70 * 3);
    let origin = t.commitments_in(GROUP, 169).await[0].origin_id;
    let chat = private_chat(&dima);
    let buttons: Vec<(String, String)> = last.buttons[last.buttons.len() - 3..]
        .iter()
        .zip(["done", "snooze", "nap"])
        .map(|(l, code)| (l.clone(), format!("c:{code}:{}", origin.0)))
        .collect();
    let message = bot_message(last, &chat, &buttons);
    let id = t.update_id();
    t.deliver(&callback_update(
        id,
        &format!("q{id}"),
        &dima,
        &message,
        &format!("c:done:{}", origin.0),
    ))
    .await;
    let c = t.store.current_commitment(origin).await.unwrap().unwrap();
    assert_eq!(c.state, CommitmentState::Done);
    let after: Vec<Sent> = t
        .sent()
        .into_iter()
        .skip_while(|s| s.message_id != last.message_id || s.kind != "message")
        .skip(1)
        .collect();
    let edit = after
        .iter()
        .find(|s| s.kind == "edit")
        .expect("the reminder is edited");
    assert_eq!(
        edit.message_id, last.message_id,
        "the part with the buttons"
    );
    assert_eq!(
        edit.buttons.len(),
        69 * 3,
        "the done item's buttons are gone"
    );
    // The note shows: in the edited part when it fits, else as a reply to the reminder.
    let note_shown = (edit.text.contains("акт приёмки") && edit.text.chars().count() <= 4096)
        || after
            .iter()
            .any(|s| s.kind == "message" && s.reply_to == last.message_id);
    assert!(note_shown, "{after:#?}");
    assert!(
        !edit.text.contains("5000 "),
        "the edit keeps to the last part, not the whole reminder"
    );
}
