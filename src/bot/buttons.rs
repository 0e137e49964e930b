//! Button presses, one handler per kind of button (`CallbackData`): the branch of `schema()`
//! routes each to its function below; what a press may do is the domain's.

use teloxide::dispatching::UpdateHandler;
use teloxide::prelude::*;
use teloxide::types::{ParseMode, ReplyParameters};

use super::BotError;
use super::context::{HandlerResult, Press, send};
use super::outbox::keyboard;
use crate::answer::Reply;
use crate::domain::callback::{
    ButtonAction, CallbackData, FixButton, GoalButton, Question, TaskButton,
};
use crate::domain::{self, MemoryId, UserId as Uid};
use crate::extract::intent::Intent;
use crate::ingest::{self, ButtonOutcome};
use crate::render::format::esc;

/// A press to its handler (after [`Press`] is read).
pub(super) fn branch() -> UpdateHandler<BotError> {
    use dptree::case;
    dptree::map(|p: Press| p.data)
        .branch(case![CallbackData::Promise(action, memory)].endpoint(promise))
        .branch(case![CallbackData::Task(button, id)].endpoint(task))
        .branch(case![CallbackData::Fix(button)].endpoint(fix))
        .branch(case![CallbackData::Goal(button)].endpoint(goal))
        .branch(case![CallbackData::Owner { proposal, yes }].endpoint(owner))
        .branch(case![CallbackData::Ask(question)].endpoint(ask))
        .branch(case![CallbackData::Person(id)].endpoint(person))
}

/// Done / +1 day / not a promise on a promise kept showed.
async fn promise(p: Press, (action, memory): (ButtonAction, MemoryId)) -> HandlerResult {
    let (app, lang) = (&p.app, p.lang);
    let outcome = ingest::button(
        &app.store,
        p.user(),
        memory,
        action,
        |d| p.next_working_day(d),
        app.clock.now(),
    )
    .await?;
    let what = |c: &crate::store::Commitment| esc(&c.content);
    let note = match &outcome {
        ButtonOutcome::Changed(ButtonAction::Done, c) => {
            app.i18n
                .t(lang, "button-result-done", &[("what", what(c).into())])
        }
        ButtonOutcome::Changed(ButtonAction::NotAPromise, c) => {
            app.i18n
                .t(lang, "button-result-nap", &[("what", what(c).into())])
        }
        ButtonOutcome::Changed(ButtonAction::Snooze, c) => app.i18n.t(
            lang,
            "button-result-snooze",
            &[
                ("what", what(c).into()),
                (
                    "date",
                    c.due
                        .map(|d| crate::render::format::due(&app.i18n, lang, d))
                        .unwrap_or_default()
                        .into(),
                ),
            ],
        ),
        ButtonOutcome::AlreadyClosed(c) => {
            app.i18n
                .t(lang, "button-stale", &[("what", what(c).into())])
        }
        ButtonOutcome::NotYours => app.i18n.s(lang, "button-not-yours"),
        ButtonOutcome::Unknown => app.i18n.s(lang, "button-unknown"),
    };
    answer_press(&p, &note).await?;
    if let (ButtonOutcome::Changed(..) | ButtonOutcome::AlreadyClosed(_), Some(m)) =
        (&outcome, p.q.regular_message())
    {
        edit_reminder(&p, m, memory.0, &note).await?;
    }
    Ok(())
}

/// Accept / decline / another date on a task given to the presser.
async fn task(p: Press, (button, id): (TaskButton, i64)) -> HandlerResult {
    let app = &p.app;
    let pressed = crate::answer::tasks::press(
        app,
        p.user(),
        id,
        button,
        p.lang,
        |d| p.next_working_day(d),
        app.clock.now(),
    )
    .await?;
    answer_press(&p, &pressed.note).await?;
    if let Some(m) = p.q.regular_message() {
        // The task's buttons are spent: take them off, and say what was done.
        let keep: Vec<Vec<(String, String)>> = Vec::new();
        let _ = p
            .bot
            .edit_message_reply_markup(m.chat.id, m.id)
            .reply_markup(keyboard(&keep))
            .await;
        send(&p.bot, m.chat.id, None, &Reply::text(pressed.note.clone())).await?;
    }
    if let Some((to, text)) = &pressed.tell
        && let Err(e) = send(&p.bot, ChatId(to.0), None, &Reply::text(text.clone())).await
    {
        tracing::warn!(user_id = to.0, error = %e, "could not tell the assigner");
    }
    Ok(())
}

/// ✏️ on a promise: the correction menu and its choices.
async fn fix(p: Press, button: FixButton) -> HandlerResult {
    let a = p.answerer().await?;
    let pressed = a.fix_press(button, |d| p.next_working_day(d)).await?;
    show_press(
        &p,
        &pressed.note,
        pressed.edit.as_ref(),
        pressed.reply.as_ref(),
    )
    .await
}

/// Keep / assign / drop on a goal's planned step.
async fn goal(p: Press, button: GoalButton) -> HandlerResult {
    let app = &p.app;
    let pressed =
        crate::answer::goals::press(app, p.org.id, p.user(), button, p.lang, app.clock.now())
            .await?;
    show_press(
        &p,
        &pressed.note,
        pressed.edit.as_ref(),
        pressed.reply.as_ref(),
    )
    .await?;
    if let Some((to, reply)) = &pressed.offer
        && let Err(e) = send(&p.bot, ChatId(to.0), None, reply).await
    {
        tracing::warn!(user_id = to.0, error = %e, "could not send a goal step to its assignee");
    }
    Ok(())
}

/// The director's yes or no to an owner heard in a group.
async fn owner(p: Press, (proposal, yes): (i64, bool)) -> HandlerResult {
    let app = &p.app;
    let note = crate::answer::graph::settle_proposal(
        app,
        p.org.id,
        p.user(),
        proposal,
        yes,
        p.lang,
        app.clock.now(),
    )
    .await?;
    answer_press(&p, &note).await?;
    if let Some(m) = p.q.regular_message() {
        let shown = esc(m.text().unwrap_or(""));
        let none: Vec<Vec<(String, String)>> = Vec::new();
        let _ = p
            .bot
            .edit_message_text(m.chat.id, m.id, format!("{shown}\n\n{note}"))
            .parse_mode(ParseMode::Html)
            .reply_markup(keyboard(&none))
            .await;
    }
    Ok(())
}

/// The help's question buttons: the answer comes to the presser's DM.
async fn ask(p: Press, question: Question) -> HandlerResult {
    answer_press(&p, "").await?;
    let intent = match question {
        Question::Priorities => Intent::MyPriorities,
        Question::Promises => Intent::MyPromises,
        Question::Overdue => Intent::WhoIsOverdue,
        Question::Idle => Intent::WhoIsIdle,
    };
    let reply = p.answerer().await?.intent(intent).await?;
    send(&p.bot, ChatId(p.user().0), None, &reply).await
}

/// A person's name in a team overview: what they are working on, to the presser's DM.
async fn person(p: Press, id: Uid) -> HandlerResult {
    answer_press(&p, "").await?;
    let reply = p.answerer().await?.status_of(id).await?;
    send(&p.bot, ChatId(p.user().0), None, &reply).await
}

/// What a press shows: the notice, the pressed message rewritten, and a new message to the
/// presser (in their DM).
async fn show_press(
    p: &Press,
    note: &str,
    edit: Option<&Reply>,
    reply: Option<&Reply>,
) -> HandlerResult {
    answer_press(p, note).await?;
    if let (Some(edit), Some(m)) = (edit, p.q.regular_message()) {
        edit_in_place(&p.bot, m, edit).await;
    }
    if let Some(reply) = reply {
        send(&p.bot, ChatId(p.q.from.id.0 as i64), None, reply).await?;
    }
    Ok(())
}

/// Answers a button press, with `note` as the notice unless it is empty.
async fn answer_press(p: &Press, note: &str) -> HandlerResult {
    let mut answer = p.bot.answer_callback_query(p.q.id.clone());
    if !note.is_empty() {
        answer = answer.text(crate::render::truncate(
            &strip_tags(note),
            crate::render::NOTICE_LIMIT,
        ));
    }
    answer.await?;
    Ok(())
}

/// The message a button was pressed on, rewritten to `edit` (its text within one message, its
/// buttons). A failure is logged: Telegram refuses an edit that changes nothing, which a second
/// press of the same button asks for.
async fn edit_in_place(bot: &Bot, m: &Message, edit: &Reply) {
    let text = crate::render::split(&edit.text)
        .into_iter()
        .next()
        .unwrap_or_default();
    let req = bot
        .edit_message_text(m.chat.id, m.id, text)
        .parse_mode(ParseMode::Html)
        .reply_markup(keyboard(&edit.buttons));
    if let Err(e) = req.await {
        tracing::debug!(error = %e, "message not edited");
    }
}

fn strip_tags(s: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in s.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

/// Shows what a button did on the reminder itself: the note under the original text, and the
/// acted-on item's buttons gone. The text comes from the stored delivery so formatting and
/// mentions survive; a reminder kept no longer knows about is edited from its plain text.
async fn edit_reminder(p: &Press, m: &Message, origin: i64, note: &str) -> HandlerResult {
    let (bot, app) = (&p.bot, &p.app);
    let chat = domain::ChatId(m.chat.id.0);
    let suffix = format!(":{origin}");
    let (text, rows, stored) = match app.store.delivery_by_message(chat, m.id.0 as i64).await? {
        Some((id, text, rows)) => (text, rows, Some(id)),
        None => (esc(m.text().unwrap_or("")), Vec::new(), None),
    };
    if text.contains(note) {
        // A second press of a stale button must not repeat the note (Telegram refuses an edit
        // that changes nothing).
        return Ok(());
    }
    let rows: Vec<Vec<(String, String)>> = rows
        .into_iter()
        .filter(|row| !row.iter().any(|(_, data)| data.ends_with(&suffix)))
        .collect();
    let full = format!("{text}\n\n{note}");
    if let Some(id) = stored {
        app.store.update_sent_delivery(id, &full, &rows).await?;
    }
    // A long reminder went out in parts and its buttons sit on the last one: that part is the
    // message to edit. When the note would push it past Telegram's limit, the buttons change
    // in place and the note comes as a reply instead.
    let last = crate::render::split(&text).pop().unwrap_or_default();
    let edited = format!("{last}\n\n{note}");
    if crate::render::telegram_len(&edited) <= crate::render::MESSAGE_LIMIT {
        let mut req = bot
            .edit_message_text(m.chat.id, m.id, edited)
            .parse_mode(ParseMode::Html);
        if !rows.is_empty() {
            req = req.reply_markup(keyboard(&rows));
        }
        req.await?;
    } else {
        bot.edit_message_reply_markup(m.chat.id, m.id)
            .reply_markup(keyboard(&rows))
            .await?;
        bot.send_message(m.chat.id, note.to_string())
            .parse_mode(ParseMode::Html)
            .reply_parameters(ReplyParameters::new(m.id).allow_sending_without_reply())
            .await?;
    }
    Ok(())
}
