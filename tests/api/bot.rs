//! The bot through its real handler tree and the sandbox Bot API: onboarding, linking, ingest of
//! group messages, edits, migrations, removal, commands and robustness against bad input.

use crate::common;

use chrono::NaiveDate;
use common::*;
use kept::bot::BotError;
use kept::domain::{ChatId, CommitmentState, Lang, MemoryId, MessageId, Role, UserId};
use kept::store::Commitment;
use serde_json::Value;

const GROUP: i64 = -1_001_500;

fn date(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

#[tokio::test]
async fn start_by_admin_in_dm_makes_them_director_and_welcomes_them() {
    let t = spawn_app().await;
    let anna = user(ADMIN, "Анна");
    t.private(&anna, 42, "/start").await;

    let member = t
        .store
        .member(t.org, UserId(ADMIN))
        .await
        .unwrap()
        .expect("the admin is a member of the default org");
    assert_eq!(member.role, Role::Director);
    assert!(t.dm_open(ADMIN).await);

    let sent = t.sent_to(ADMIN);
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0].kind, "message");
    assert_eq!(sent[0].reply_to, Some(42));
    let welcome = t
        .app
        .i18n
        .t(Lang::Ru, "start-welcome", &[("name", "Анна".into())]);
    assert_eq!(sent[0].text, welcome);
}

#[tokio::test]
async fn start_by_a_stranger_explains_they_are_not_in_the_team() {
    let t = spawn_app().await;
    let stranger = user(77, "Пётр");
    t.private(&stranger, 5, "/start").await;

    assert!(t.store.member(t.org, UserId(77)).await.unwrap().is_none());
    assert!(t.store.org_of_user(UserId(77)).await.unwrap().is_none());
    let sent = t.sent_to(77);
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert_eq!(sent[0].reply_to, Some(5));
    assert_eq!(sent[0].text, t.app.i18n.s(Lang::Ru, "start-unknown"));
}

#[tokio::test]
async fn link_by_the_director_links_the_group_and_writers_join_as_members() {
    let t = spawn_app().await;
    let group = supergroup_chat(GROUP, "Команда");
    let anna = user(ADMIN, "Анна");
    t.private(&anna, 1, "/start").await;
    t.group(&group, &anna, 7, "/link").await;

    let chat = t.store.chat(ChatId(GROUP)).await.unwrap().expect("linked");
    assert!(chat.active);
    assert_eq!(chat.org_id, t.org);
    let replies = t.sent_to(GROUP);
    assert_eq!(replies.len(), 1);
    assert_eq!(replies[0].reply_to, Some(7));
    assert_eq!(replies[0].text, t.app.i18n.s(Lang::Ru, "link-done"));

    let dima = user(2, "Дмитрий");
    t.group(&group, &dima, 8, "всем привет").await;
    let member = t
        .store
        .member(t.org, UserId(2))
        .await
        .unwrap()
        .expect("a writer joins the org");
    assert_eq!(member.role, Role::Member);
    let stored = t
        .store
        .message(ChatId(GROUP), MessageId(8))
        .await
        .unwrap()
        .expect("stored");
    assert_eq!(stored.text, "всем привет");
    assert_eq!(stored.user_id, Some(UserId(2)));
    // The bot stays silent in groups.
    assert_eq!(t.sent_to(GROUP).len(), 1);
}

#[tokio::test]
async fn link_by_someone_who_is_not_director_is_refused() {
    let t = spawn_app().await;
    let group = supergroup_chat(GROUP, "Команда");
    t.group(&group, &user(5, "Игорь"), 3, "/link").await;

    assert!(t.store.chat(ChatId(GROUP)).await.unwrap().is_none());
    let replies = t.sent_to(GROUP);
    assert_eq!(replies.len(), 1);
    assert_eq!(replies[0].text, t.app.i18n.s(Lang::Ru, "link-refused"));
}

#[tokio::test]
async fn a_message_in_an_unlinked_group_is_ignored() {
    let t = spawn_app().await;
    let group = supergroup_chat(-1_009_999, "Чужой чат");
    let dima = user(2, "Дмитрий");
    t.group(&group, &dima, 10, "доделаю отчёт до пятницы").await;

    assert!(
        t.store
            .message(ChatId(-1_009_999), MessageId(10))
            .await
            .unwrap()
            .is_none()
    );
    assert!(t.store.member(t.org, UserId(2)).await.unwrap().is_none());
    assert!(t.versions().await.is_empty());
    assert!(t.sent().is_empty());
}

#[tokio::test]
async fn the_same_update_delivered_twice_is_stored_once() {
    let t = spawn_app().await;
    let group = supergroup_chat(GROUP, "Команда");
    t.admin_links(&group).await;
    let dima = user(2, "Дмитрий");
    let m = message(
        &group,
        &dima,
        10,
        t.now().timestamp(),
        "доделаю отчёт до пятницы",
    );
    let update = message_update(t.update_id(), &m);
    let before = t.sent().len();
    t.deliver(&update).await;
    t.deliver(&update).await;

    let stored = t
        .store
        .message(ChatId(GROUP), MessageId(10))
        .await
        .unwrap()
        .expect("stored");
    assert_eq!(stored.text, "доделаю отчёт до пятницы");
    let made = t.commitments_in(GROUP, 10).await;
    assert_eq!(made.len(), 1, "{made:?}");
    assert_eq!(t.versions().await.len(), 1, "no second version either");
    assert_eq!(made[0].owner, UserId(2));
    assert_eq!(made[0].due.map(|d| d.date), Some(date(2026, 11, 27)));
    assert_eq!(t.sent().len(), before);
}

/// Edits `m` to `text` at 10:05 on the test's Monday; the edit's date.
async fn edit_at_10_05(t: &TestApp, m: &Value, text: &str) -> i64 {
    t.clock.set(msk(2026, 11, 23, 10, 5));
    let edit_date = t.now().timestamp();
    t.deliver(&edited_update(t.update_id(), m, text, edit_date))
        .await;
    edit_date
}

/// The current version of the promise first made as `origin`, which must still be there.
async fn still_tracked(t: &TestApp, origin: MemoryId) -> Commitment {
    t.store
        .current_commitment(origin)
        .await
        .unwrap()
        .expect("still tracked")
}

#[tokio::test]
async fn an_edit_replaces_the_text_and_moves_the_due_date() {
    let (t, m) = dima_said("доделаю отчёт до пятницы").await;
    let made = t.commitments_in(GROUP, 10).await;
    assert_eq!(made.len(), 1);
    let origin = made[0].origin_id;
    assert_eq!(made[0].due.map(|d| d.date), Some(date(2026, 11, 27)));

    let edit_date = edit_at_10_05(&t, &m, "доделаю отчёт до понедельника").await;

    let stored = t
        .store
        .message(ChatId(GROUP), MessageId(10))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stored.text, "доделаю отчёт до понедельника");
    assert_eq!(stored.edit_date.map(|d| d.timestamp()), Some(edit_date));
    let current = still_tracked(&t, origin).await;
    assert_eq!(current.due.map(|d| d.date), Some(date(2026, 11, 30)));
    assert_eq!(current.state, CommitmentState::Open);
    assert_eq!(current.origin_id, origin);
    let histories: std::collections::BTreeSet<_> =
        t.versions().await.iter().map(|c| c.origin_id).collect();
    assert_eq!(histories.len(), 1, "the edit moved it, it did not add one");
}

#[tokio::test]
async fn an_edit_that_fixes_typos_in_an_acceptance_keeps_the_promise() {
    let t = spawn_app().await;
    let group = supergroup_chat(GROUP, "Команда");
    t.admin_links(&group).await;
    let anna = user(ADMIN, "Анна");
    let roma = user(2, "Роман");
    let ask = message(
        &group,
        &anna,
        10,
        t.now().timestamp(),
        "Роман, перемерь угол на кухне на тарутинской",
    );
    t.deliver(&message_update(t.update_id(), &ask)).await;
    let yes = reply(
        message(
            &group,
            &roma,
            11,
            t.now().timestamp(),
            "гляну завтро, седня не успею точно",
        ),
        &ask,
    );
    t.deliver(&message_update(t.update_id(), &yes)).await;
    let made = t.commitments_in(GROUP, 11).await;
    assert_eq!(made.len(), 1, "{made:?}");
    let origin = made[0].origin_id;

    edit_at_10_05(&t, &yes, "гляну завтра, сегодня не успею точно").await;
    let current = still_tracked(&t, origin).await;
    assert_eq!(current.state, CommitmentState::Open, "{current:?}");
    assert_eq!(current.due.map(|d| d.date), Some(date(2026, 11, 24)));
}

/// An app with Дмитрий's `text` said as message 10 in the team's group; the group and the message.
async fn dima_said(text: &str) -> (TestApp, Value) {
    let t = spawn_app().await;
    let group = supergroup_chat(GROUP, "Команда");
    t.admin_links(&group).await;
    let dima = user(2, "Дмитрий");
    let m = message(&group, &dima, 10, t.now().timestamp(), text);
    t.deliver(&message_update(t.update_id(), &m)).await;
    (t, m)
}

/// A day's plan of two promises, edited: `edited` is the new text; each commitment the message
/// made afterwards as (text, state), in order.
async fn plan_edited(edited: &str) -> Vec<(String, CommitmentState)> {
    let (t, m) = dima_said("сегодня: доделаю отчёт по складу, отправлю счёт Ромашке").await;
    assert_eq!(t.commitments_in(GROUP, 10).await.len(), 2);
    edit_at_10_05(&t, &m, edited).await;
    let mut made: Vec<(String, CommitmentState)> = t
        .commitments_in(GROUP, 10)
        .await
        .into_iter()
        .map(|c| (c.content, c.state))
        .collect();
    made.sort_by(|a, b| a.0.cmp(&b.0));
    made
}

#[tokio::test]
async fn an_edit_that_adds_an_item_to_a_plan_adds_a_promise_and_keeps_the_others() {
    let made =
        plan_edited("сегодня: доделаю отчёт по складу, отправлю счёт Ромашке, позвоню в налоговую")
            .await;
    assert_eq!(made.len(), 3, "{made:?}");
    assert!(
        made.iter().all(|(_, s)| *s == CommitmentState::Open),
        "{made:?}"
    );
    assert!(made.iter().any(|(c, _)| c.contains("отчёт")), "{made:?}");
    assert!(made.iter().any(|(c, _)| c.contains("счёт")), "{made:?}");
    assert!(made.iter().any(|(c, _)| c.contains("налогов")), "{made:?}");
}

#[tokio::test]
async fn an_edit_of_one_item_of_a_plan_leaves_the_other_its_own_words() {
    let made =
        plan_edited("сегодня: доделаю отчёт по складу, отправлю счёт Ромашке и Лютику").await;
    assert_eq!(made.len(), 2, "{made:?}");
    assert!(
        made.iter()
            .any(|(c, _)| c.contains("отчёт") && !c.contains("счёт")),
        "{made:?}"
    );
    assert!(
        made.iter()
            .any(|(c, _)| c.contains("Лютик") && !c.contains("отчёт")),
        "{made:?}"
    );
}

#[tokio::test]
async fn an_edit_that_adds_a_second_promise_makes_it() {
    let (t, m) = dima_said("доделаю отчёт по складу до пятницы").await;
    let origin = t.commitments_in(GROUP, 10).await[0].origin_id;
    edit_at_10_05(
        &t,
        &m,
        "доделаю отчёт по складу до пятницы, а счёт Ромашке отправлю завтра",
    )
    .await;
    let made = t.commitments_in(GROUP, 10).await;
    assert_eq!(made.len(), 2, "{made:?}");
    assert_eq!(still_tracked(&t, origin).await.state, CommitmentState::Open);
    assert!(made.iter().any(|c| c.content.contains("счёт")), "{made:?}");
}

#[tokio::test]
async fn an_edit_that_drops_an_item_of_a_plan_cancels_that_promise() {
    let made = plan_edited("сегодня: доделаю отчёт по складу").await;
    assert_eq!(made.len(), 2, "{made:?}");
    let cancelled: Vec<_> = made
        .iter()
        .filter(|(_, s)| *s == CommitmentState::Cancelled)
        .collect();
    assert_eq!(cancelled.len(), 1, "{made:?}");
    assert!(cancelled[0].0.contains("счёт"), "{made:?}");
}

#[tokio::test]
async fn group_to_supergroup_migration_moves_the_chat_and_its_messages() {
    let t = spawn_app().await;
    let old = group_chat(-500, "Команда");
    let new_id = -1_000_000_500;
    t.admin_links(&old).await;
    let dima = user(2, "Дмитрий");
    t.group(&old, &dima, 10, "доделаю отчёт до пятницы").await;
    assert_eq!(t.commitments_in(-500, 10).await.len(), 1);

    let anna = user(ADMIN, "Анна");
    t.deliver(&message_update(
        t.update_id(),
        &migrate_message(&old, &anna, 11, t.now().timestamp(), new_id),
    ))
    .await;

    assert!(
        t.store
            .chat(ChatId(-500))
            .await
            .unwrap()
            .is_none_or(|c| !c.active)
    );
    let chat = t.store.chat(ChatId(new_id)).await.unwrap().expect("moved");
    assert!(chat.active);
    assert_eq!(chat.org_id, t.org);
    let moved = t
        .store
        .message(ChatId(new_id), MessageId(10))
        .await
        .unwrap()
        .expect("the message moved with the chat");
    assert_eq!(moved.text, "доделаю отчёт до пятницы");
    assert!(
        t.store
            .message(ChatId(-500), MessageId(10))
            .await
            .unwrap()
            .is_none()
    );
    let made = t.commitments_in(new_id, 10).await;
    assert_eq!(made.len(), 1, "the commitment points at the new chat");

    // The supergroup is listened to without a new /link.
    let sg = supergroup_chat(new_id, "Команда");
    t.group(&sg, &dima, 1, "скину макеты завтра").await;
    assert!(
        t.store
            .message(ChatId(new_id), MessageId(1))
            .await
            .unwrap()
            .is_some()
    );
}

async fn removed_bot_marks_the_chat_inactive(status: &str) {
    let t = spawn_app().await;
    let group = supergroup_chat(GROUP, "Команда");
    t.admin_links(&group).await;
    let anna = user(ADMIN, "Анна");
    t.deliver(&my_chat_member_update(
        t.update_id(),
        &group,
        &anna,
        t.now().timestamp(),
        "member",
        status,
    ))
    .await;

    let chat = t.store.chat(ChatId(GROUP)).await.unwrap().expect("known");
    assert!(!chat.active, "status {status}");
    // Nothing said there is stored any more.
    t.group(&group, &user(2, "Дмитрий"), 20, "доделаю отчёт до пятницы")
        .await;
    assert!(
        t.store
            .message(ChatId(GROUP), MessageId(20))
            .await
            .unwrap()
            .is_none()
    );
    assert!(t.versions().await.is_empty());
}

#[tokio::test]
async fn bot_left_the_group_marks_the_chat_inactive() {
    removed_bot_marks_the_chat_inactive("left").await;
}

#[tokio::test]
async fn bot_kicked_from_the_group_marks_the_chat_inactive() {
    removed_bot_marks_the_chat_inactive("kicked").await;
}

#[tokio::test]
async fn user_blocking_the_bot_in_private_closes_their_dm() {
    let t = spawn_app().await;
    let anna = user(ADMIN, "Анна");
    t.private(&anna, 1, "/start").await;
    assert!(t.dm_open(ADMIN).await);
    t.deliver(&my_chat_member_update(
        t.update_id(),
        &private_chat(&anna),
        &anna,
        t.now().timestamp(),
        "member",
        "kicked",
    ))
    .await;
    assert!(!t.dm_open(ADMIN).await);
}

#[tokio::test]
async fn an_unknown_command_gets_the_unknown_command_reply() {
    let t = spawn_app().await;
    let anna = user(ADMIN, "Анна");
    t.private(&anna, 1, "/start").await;
    t.private(&anna, 2, "/frobnicate now").await;

    let last = t.sent_to(ADMIN).pop().expect("a reply");
    assert_eq!(last.reply_to, Some(2));
    assert_eq!(last.text, t.app.i18n.s(Lang::Ru, "unknown-command"));
}

#[tokio::test]
async fn a_malformed_update_is_an_error_and_the_next_good_update_still_works() {
    let t = spawn_app().await;
    for bad in [
        "",
        "{",
        "not json at all",
        "[1, 2, 3]",
        r#"{"update_id": "seven", "message": {}}"#,
    ] {
        let r = t.dispatch(bad).await;
        assert!(
            matches!(r, Err(BotError::BadUpdate(_))),
            "{bad:?} gave {r:?}"
        );
    }
    // Well-formed JSON the bot cannot use: never a panic, whatever the result.
    for odd in [
        r#"{"update_id": 900}"#,
        r#"{"update_id": 901, "message": {"message_id": "x"}}"#,
        r#"{"update_id": 902, "message": {"message_id": 1, "date": 0, "chat": {"id": 1, "type": "private"}}}"#,
        r#"{"update_id": 903, "callback_query": {"id": "q", "from": {"id": 1, "is_bot": false, "first_name": "A"}, "chat_instance": "1", "data": "c:done:notanumber"}}"#,
        r#"{"update_id": 904, "callback_query": {"id": "q", "from": {"id": 1, "is_bot": false, "first_name": "A"}, "chat_instance": "1", "data": "c:done:123456"}}"#,
    ] {
        let _ = t.dispatch(odd).await;
    }
    assert!(t.sent().iter().all(|s| s.kind != "message" || s.chat == 1));

    let anna = user(ADMIN, "Анна");
    let before = t.sent_to(ADMIN).len();
    t.private(&anna, 50, "/start").await;
    let after = t.sent_to(ADMIN);
    assert_eq!(after.len(), before + 1);
    assert_eq!(after.last().unwrap().reply_to, Some(50));
}

#[tokio::test]
async fn messages_from_other_bots_are_ignored() {
    let t = spawn_app().await;
    let group = supergroup_chat(GROUP, "Команда");
    t.admin_links(&group).await;
    let before = t.sent().len();
    let other = bot_user(4242, "Helper", "helper_bot");
    t.group(&group, &other, 30, "доделаю отчёт до пятницы")
        .await;
    t.group(&group, &other, 31, "@kept_bot какие у меня приоритеты?")
        .await;

    assert!(
        t.store
            .message(ChatId(GROUP), MessageId(30))
            .await
            .unwrap()
            .is_none()
    );
    assert!(t.store.member(t.org, UserId(4242)).await.unwrap().is_none());
    assert!(t.versions().await.is_empty());
    assert_eq!(t.sent().len(), before);
}

#[tokio::test]
async fn empty_and_huge_messages_do_not_panic() {
    let t = spawn_app().await;
    let group = supergroup_chat(GROUP, "Команда");
    t.admin_links(&group).await;
    let anna = user(ADMIN, "Анна");
    let dima = user(2, "Дмитрий");

    // Empty text in a group and in private.
    t.group(&group, &dima, 40, "").await;
    t.group(&group, &dima, 41, "   \n ").await;
    t.private(&anna, 40, "").await;
    let last = t.sent_to(ADMIN).pop().unwrap();
    assert_eq!(last.reply_to, Some(40));
    assert_eq!(last.text, t.app.i18n.s(Lang::Ru, "empty-message"));

    // About 20 KB, in a group and in private (a reply that would be too long is Telegram's
    // 400 for the bot, never a panic).
    let mut huge = String::new();
    while huge.len() < 20 * 1024 {
        huge.push_str("доделаю отчёт до пятницы, а потом посмотрю баг с очередью. ");
    }
    t.group(&group, &dima, 42, &huge).await;
    let stored = t
        .store
        .message(ChatId(GROUP), MessageId(42))
        .await
        .unwrap()
        .expect("stored");
    assert_eq!(stored.text, huge);
    t.private(&anna, 41, &huge).await;
    let mention = format!("@kept_bot {huge}");
    t.group(&group, &dima, 43, &mention).await;

    // And the bot still works.
    t.private(&anna, 44, "/help").await;
    let last = t.sent_to(ADMIN).pop().unwrap();
    assert_eq!(last.reply_to, Some(44));
    assert!(
        last.text.starts_with("Я слушаю рабочие чаты"),
        "{}",
        last.text
    );
    // The examples name someone in this team (Dima), not a stranger.
    assert!(
        last.text.contains("«что у Дмитрия в работе?»"),
        "{}",
        last.text
    );
}

#[tokio::test]
async fn a_promise_with_an_at_mention_keeps_the_username_out_of_its_text() {
    let t = spawn_app().await;
    let group = supergroup_chat(GROUP, "Команда");
    t.admin_links(&group).await;
    let dima = user(2, "Дмитрий");
    t.group(&group, &dima, 60, "@kept_bot доделаю отчёт до пятницы")
        .await;
    t.group(&group, &dima, 61, "@lena_k скину макеты до пятницы")
        .await;
    for (msg, word) in [(60, "отчёт"), (61, "макеты")] {
        let made = t.commitments_in(GROUP, msg).await;
        assert_eq!(made.len(), 1, "message {msg}");
        let text = &made[0].content;
        assert!(text.contains(word), "{text}");
        for name in ["kept", "bot", "lena"] {
            assert!(!text.contains(name), "{text:?} keeps the username");
        }
    }
}

#[tokio::test]
async fn the_director_sets_roles_by_username_and_a_member_cannot() {
    let t = spawn_app().await;
    let group = supergroup_chat(-1009100, "Цех");
    t.admin_links(&group).await;
    let mut lena = user(3, "Елена");
    lena["username"] = serde_json::json!("lena");
    t.group(&group, &lena, 2, "всем привет").await;

    // A member may not hand out roles.
    t.private(&lena, 10, "/role @lena director").await;
    let member = t
        .store
        .member(t.app.default_org, UserId(3))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(member.role, Role::Member);

    // The director may, with a position; an unknown person is named back.
    let admin = user(ADMIN, "Анна");
    t.private(&admin, 11, "/role @lena lead Начальник отдела продаж")
        .await;
    let member = t
        .store
        .member(t.app.default_org, UserId(3))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(member.role, Role::Lead);
    assert_eq!(member.position.as_deref(), Some("Начальник отдела продаж"));
    t.private(&admin, 12, "/role @nobody member").await;
    let last = t.sent_to(ADMIN).last().cloned().unwrap();
    assert!(last.text.contains("nobody"), "{}", last.text);
    assert_eq!(last.reply_to, Some(12));
}
