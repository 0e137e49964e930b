//! Thin handlers: update → domain call → reply.

use std::sync::Arc;

use teloxide::prelude::*;
use teloxide::types::{
    ChatMemberUpdated, MessageEntityKind, MessageId, ParseMode, ReplyParameters, User,
};
use teloxide::utils::command::BotCommands;
use tracing::Instrument;

use super::outbox::keyboard;
use super::{BotError, Command};
use crate::answer::{Answerer, Reply};
use crate::app::App;
use crate::domain::callback::ButtonAction;
use crate::domain::callback::{CallbackData, Question};
use crate::domain::{self, Lang, MessageId as MsgId, Role, UserId as Uid};
use crate::extract::intent::Intent;
use crate::ingest::{self, ButtonOutcome, Incoming, Ingest};
use crate::store::{Org, Stored};

/// Who the bot is (from getMe): needed to see when a group message is addressed to it.
#[derive(Debug, Clone)]
pub struct BotIdentity {
    pub id: UserId,
    pub username: String,
    /// getMe's `can_read_all_group_messages`: false while @BotFather's privacy mode is on, and
    /// then only commands and replies to the bot reach it from groups.
    pub reads_group_messages: bool,
}

type HandlerResult = Result<(), BotError>;

fn uid(u: &User) -> Uid {
    Uid(u.id.0 as i64)
}

async fn remember_user(app: &App, u: &User) -> Result<(), BotError> {
    app.store
        .upsert_user(
            uid(u),
            &u.first_name,
            u.last_name.as_deref(),
            u.username.as_deref(),
            u.language_code.as_deref(),
            app.clock.now(),
        )
        .await?;
    Ok(())
}

/// Sends a reply, split at Telegram's limit: the first part answers the message, the buttons go
/// on the last.
async fn send(
    bot: &Bot,
    chat: ChatId,
    reply_to: Option<MessageId>,
    reply: &Reply,
) -> HandlerResult {
    let parts = crate::render::split(&reply.text);
    let n = parts.len();
    for (k, text) in parts.into_iter().enumerate() {
        let mut req = bot.send_message(chat, text).parse_mode(ParseMode::Html);
        if let Some(id) = reply_to.filter(|_| k == 0) {
            req = req.reply_parameters(ReplyParameters::new(id).allow_sending_without_reply());
        }
        if k + 1 == n && !reply.buttons.is_empty() {
            req = req.reply_markup(keyboard(&reply.buttons));
        }
        req.await?;
    }
    Ok(())
}

fn text_of(msg: &Message) -> Option<&str> {
    msg.text().or_else(|| msg.caption())
}

fn mentions(msg: &Message) -> Vec<Uid> {
    msg.entities()
        .unwrap_or_default()
        .iter()
        .filter_map(|e| match &e.kind {
            MessageEntityKind::TextMention { user } => Some(uid(user)),
            _ => None,
        })
        .collect()
}

pub async fn on_message(
    bot: Bot,
    app: Arc<App>,
    me: Arc<BotIdentity>,
    msg: Message,
) -> HandlerResult {
    let Some(from) = msg.from.clone() else {
        return Ok(());
    };
    let from = &from;
    let span = tracing::info_span!(
        "message",
        chat_id = msg.chat.id.0,
        user_id = from.id.0,
        message_id = msg.id.0
    );
    async move {
        if from.is_bot {
            return Ok(());
        }
        if let Some(to) = msg.migrate_to_chat_id() {
            app.store
                .migrate_chat(domain::ChatId(msg.chat.id.0), domain::ChatId(to.0))
                .await?;
            tracing::info!(to = to.0, "group migrated to a supergroup");
            return Ok(());
        }
        remember_user(&app, from).await?;
        if msg.chat.is_private() {
            private(&bot, &app, &me, &msg, from).await
        } else if msg.chat.is_group() || msg.chat.is_supergroup() {
            group(&bot, &app, &me, &msg, from).await
        } else {
            Ok(())
        }
    }
    .instrument(span)
    .await
}

fn parse_command(text: &str, me: &BotIdentity) -> Option<Command> {
    if !text.starts_with('/') {
        return None;
    }
    Command::parse(text, &me.username).ok()
}

async fn org_and_lang(app: &App, user: Uid) -> Result<(Option<Org>, Lang), BotError> {
    let profile = app.store.user(user).await?;
    let org = match app.store.org_of_user(user).await? {
        Some(id) => Some(app.store.org(id).await?),
        None => None,
    };
    let lang = app.lang_for(profile.as_ref(), org.as_ref());
    Ok((org, lang))
}

async fn private(
    bot: &Bot,
    app: &Arc<App>,
    me: &BotIdentity,
    msg: &Message,
    from: &User,
) -> HandlerResult {
    let user = uid(from);
    let now = app.clock.now();
    let text = text_of(msg).unwrap_or("").trim();
    let cmd = parse_command(text, me);
    // Writing to the bot in private means the person has started it: their DM is open.
    app.store.set_dm_open(user, true).await?;
    if cmd == Some(Command::Start) && app.is_admin(user) {
        app.store
            .set_member(app.default_org, user, Role::Director, None, None, now)
            .await?;
    }
    let (org, lang) = org_and_lang(app, user).await?;
    let reply_to = Some(msg.id);
    let Some(org) = org else {
        let key = if cmd == Some(Command::Start) {
            "start-unknown"
        } else {
            "dm-unknown"
        };
        return send(
            bot,
            msg.chat.id,
            reply_to,
            &Reply::text(app.i18n.s(lang, key)),
        )
        .await;
    };
    if text.is_empty() {
        return send(
            bot,
            msg.chat.id,
            reply_to,
            &Reply::text(app.i18n.s(lang, "empty-message")),
        )
        .await;
    }
    let mut a = Answerer::new(app, &org, user, false, lang).await?;
    a.source = Some((domain::ChatId(msg.chat.id.0), MsgId(msg.id.0 as i64)));
    let reply = match cmd {
        Some(Command::Start) => {
            let mut text = app.i18n.t(
                lang,
                "start-welcome",
                &[("name", crate::render::format::esc(&from.first_name).into())],
            );
            // The director is who can fix it, and nothing in a group would show it is broken.
            let director = is_director(app, org.id, user).await?;
            if director && !me.reads_group_messages {
                text.push_str("\n\n");
                text.push_str(&app.i18n.t(
                    lang,
                    "start-privacy-mode",
                    &[("bot", crate::render::format::esc(&me.username).into())],
                ));
            }
            Reply {
                text,
                buttons: a.help().buttons,
            }
        }
        Some(Command::Help) => Reply::text(app.i18n.t(
            lang,
            "help",
            &[("examples", a.examples().into())],
        )),
        Some(Command::Lang(arg)) => match arg.parse::<Lang>() {
            Ok(l) => {
                app.store.set_lang_override(user, l).await?;
                Reply::text(app.i18n.s(l, "lang-set"))
            }
            Err(_) => Reply::text(app.i18n.s(lang, "lang-usage")),
        },
        Some(Command::Me) => a.about_me().await?,
        Some(Command::Priorities) => a.intent(Intent::MyPriorities).await?,
        Some(Command::Promises) => a.intent(Intent::MyPromises).await?,
        Some(Command::Team) => a.team().await?,
        Some(Command::Forget(arg)) => a.forget(&arg).await?,
        Some(Command::Remember(arg)) => a.intent(Intent::Remember { content: arg }).await?,
        Some(Command::Role(arg)) => role(app, &org, user, &arg, lang).await?,
        Some(Command::Gender(arg)) => gender(app, &org, user, &arg, lang).await?,
        Some(Command::Away(arg)) => a.away(&arg).await?,
        Some(Command::Node(arg)) => a.add_node(&arg).await?,
        Some(Command::Nodes(arg)) => a.list_nodes(&arg).await?,
        Some(Command::Fix(arg)) => a.fix(&arg).await?,
        Some(Command::Task(arg)) => {
            let assigned = a.task_command(&arg).await?;
            deliver_assignment(bot, &assigned).await;
            assigned.reply
        }
        Some(Command::Export) => {
            let md = crate::export::markdown(app, user).await?;
            bot.send_document(
                msg.chat.id,
                teloxide::types::InputFile::memory(md.into_bytes())
                    .file_name(format!("kept-{}.md", user.0)),
            )
            .caption(app.i18n.s(lang, "export-caption"))
            .reply_parameters(ReplyParameters::new(msg.id).allow_sending_without_reply())
            .await?;
            return Ok(());
        }
        Some(Command::Link(arg)) if !arg.trim().is_empty() => a.link_nodes(&arg).await?,
        Some(Command::Link(_)) => Reply::text(app.i18n.s(lang, "link-in-group")),
        Some(Command::Goal(arg)) => a.goal_command(&arg).await?,
        Some(Command::Goals) => a.list_goals().await?,
        Some(Command::Digest(arg)) => a.digest_command(&arg).await?,
        None if text.starts_with('/') => Reply::text(app.i18n.s(lang, "unknown-command")),
        None => match a.announced_absence(text).await? {
            Some(reply) => reply,
            None => match a.plain_assignment(text).await? {
                Some(assigned) => {
                    deliver_assignment(bot, &assigned).await;
                    assigned.reply
                }
                None => a.question(text).await?,
            },
        },
    };
    send(bot, msg.chat.id, reply_to, &reply).await
}

async fn is_director(app: &App, org: domain::OrgId, user: Uid) -> Result<bool, BotError> {
    Ok(app
        .store
        .member(org, user)
        .await?
        .is_some_and(|m| m.role == Role::Director))
}

/// The person a command names (`@username` or a user id). Only someone kept has seen (wrote in
/// a linked chat or started the bot) counts; anyone else gets the "not in the team" reply.
async fn known_person(
    app: &App,
    org: &Org,
    who: &str,
    lang: Lang,
) -> Result<Result<Uid, Reply>, BotError> {
    let target = match who.trim_start_matches('@').parse::<i64>() {
        Ok(id) => Some(Uid(id)),
        Err(_) => app.store.user_by_username(org.id, who).await?,
    };
    if let Some(t) = target
        && app.store.user(t).await?.is_some()
    {
        return Ok(Ok(t));
    }
    Ok(Err(Reply::text(app.i18n.t(
        lang,
        "person-unknown",
        &[("name", crate::render::format::esc(who).into())],
    ))))
}

/// `/gender m|f|auto` for oneself, `/gender @user m|f|auto` for anyone (directors): the gender
/// names inflect by when the name itself does not say it.
async fn gender(app: &App, org: &Org, user: Uid, arg: &str, lang: Lang) -> Result<Reply, BotError> {
    let plain = |k: &str| Reply::text(app.i18n.s(lang, k));
    let words: Vec<&str> = arg.split_whitespace().collect();
    let (who, value) = match words[..] {
        [value] => (None, value),
        [who, value] => (Some(who), value),
        _ => return Ok(plain("gender-usage")),
    };
    let value = match value.to_lowercase().as_str() {
        "auto" | "авто" | "-" => None,
        v => match v.parse::<domain::Gender>() {
            Ok(g) => Some(g),
            Err(_) => return Ok(plain("gender-usage")),
        },
    };
    let target = match who {
        None => user,
        Some(who) => {
            if !is_director(app, org.id, user).await? {
                return Ok(plain("gender-refused"));
            }
            match known_person(app, org, who, lang).await? {
                Ok(t) => t,
                Err(reply) => return Ok(reply),
            }
        }
    };
    app.store.set_gender(target, value).await?;
    let name = match app.store.user(target).await? {
        Some(p) => crate::render::format::name_in(&p, crate::render::names::Case::Nominative),
        None => target.to_string(),
    };
    Ok(Reply::text(app.i18n.t(
        lang,
        "gender-set",
        &[
            ("name", name.into()),
            ("gender", value.map_or("auto", |g| g.code()).into()),
        ],
    )))
}

/// `/role @user director|lead|member [position]` (directors only).
async fn role(app: &App, org: &Org, user: Uid, arg: &str, lang: Lang) -> Result<Reply, BotError> {
    let plain = |k: &str| Reply::text(app.i18n.s(lang, k));
    if !is_director(app, org.id, user).await? {
        return Ok(plain("role-refused"));
    }
    let mut parts = arg.split_whitespace();
    let (Some(who), Some(role)) = (parts.next(), parts.next()) else {
        return Ok(plain("role-usage"));
    };
    let Ok(role) = role.parse::<Role>() else {
        return Ok(plain("role-usage"));
    };
    let position: Vec<&str> = parts.collect();
    let position = (!position.is_empty()).then(|| position.join(" "));
    let target = match known_person(app, org, who, lang).await? {
        Ok(t) => t,
        Err(reply) => return Ok(reply),
    };
    app.store
        .set_member(
            org.id,
            target,
            role,
            position.as_deref(),
            None,
            app.clock.now(),
        )
        .await?;
    Ok(Reply::text(app.i18n.t(
        lang,
        "role-set",
        &[
            ("name", crate::render::format::esc(who).into()),
            ("role", app.i18n.s(lang, &format!("role-{role}")).into()),
        ],
    )))
}

async fn group(
    bot: &Bot,
    app: &Arc<App>,
    me: &BotIdentity,
    msg: &Message,
    from: &User,
) -> HandlerResult {
    let user = uid(from);
    let now = app.clock.now();
    let chat = domain::ChatId(msg.chat.id.0);
    let text = text_of(msg).unwrap_or("");
    let cmd = parse_command(text.trim(), me);
    let linked = app.store.chat(chat).await?.filter(|c| c.active);
    if matches!(cmd, Some(Command::Link(_))) {
        let org = app
            .store
            .org_of_user(user)
            .await?
            .unwrap_or(app.default_org);
        let linker_directs = is_director(app, org, user).await?;
        let (_, lang) = org_and_lang(app, user).await?;
        let key = if linker_directs {
            app.store
                .link_chat(org, chat, msg.chat.is_supergroup(), msg.chat.title(), now)
                .await?;
            "link-done"
        } else {
            "link-refused"
        };
        return send(
            bot,
            msg.chat.id,
            Some(msg.id),
            &Reply::text(app.i18n.s(lang, key)),
        )
        .await;
    }
    // Groups nobody linked are not listened to.
    let Some(linked) = linked else { return Ok(()) };
    let org = app.store.org(linked.org_id).await?;
    app.store.ensure_member(org.id, user, now).await?;
    if text.trim().is_empty() {
        return Ok(());
    }
    let reply_to = msg.reply_to_message().map(|r| MsgId(r.id.0 as i64));
    let people = app.store.people(org.id).await?;
    let names = ingest::extract_people(&people);
    let ments = mentions(msg);
    let ing = Ingest {
        store: &app.store,
        org: &org,
        people: &people,
        names: &names,
        refine: app.llm.is_some(),
    };
    let outcome = ing
        .message(&Incoming {
            chat,
            message: MsgId(msg.id.0 as i64),
            from: user,
            date: msg.date,
            text,
            reply_to,
            mentions: &ments,
        })
        .await?;
    if outcome.stored == Stored::Duplicate {
        return Ok(());
    }
    for t in &outcome.tasks_done {
        tell_task_done(bot, app, &people, t).await;
    }
    // "за CRM отвечает Дима": the directors confirm an owner heard in the group.
    let key = (chat, MsgId(msg.id.0 as i64));
    for (to, reply) in crate::answer::graph::heard_owner(app, &ing, text, user, key, now).await? {
        if let Err(e) = send(bot, ChatId(to.0), None, &reply).await {
            tracing::warn!(user_id = to.0, error = %e, "could not ask a director about an owner");
        }
    }
    let effects = outcome.effects;
    if !effects.is_empty() {
        tracing::debug!(n = effects.len(), "commitment changes");
        if app.settings.telegram.acknowledge_with_reaction
            && effects
                .iter()
                .any(|e| matches!(e, ingest::Effect::Created(_)))
        {
            let _ = bot
                .set_message_reaction(msg.chat.id, msg.id)
                .reaction(vec![teloxide::types::ReactionType::Emoji {
                    emoji: "👀".into(),
                }])
                .await;
        }
    }
    // Addressed to the bot: a mention, or a reply to one of its messages.
    let mention = format!("@{}", me.username.to_lowercase());
    let to_bot = text.to_lowercase().contains(&mention)
        || msg
            .reply_to_message()
            .and_then(|r| r.from.as_ref())
            .is_some_and(|u| u.id == me.id);
    if to_bot || cmd.is_some() {
        let (_, lang) = org_and_lang(app, user).await?;
        let question = strip_mention(text, &me.username);
        let mut a = Answerer::new(app, &org, user, true, lang).await?;
        a.source = Some((domain::ChatId(msg.chat.id.0), MsgId(msg.id.0 as i64)));
        let reply = match cmd {
            Some(Command::Help) | Some(Command::Start) => Reply::text(app.i18n.t(
                lang,
                "help",
                &[("examples", a.examples().into())],
            )),
            Some(Command::Digest(arg)) => a.group_digest(chat, &arg).await?,
            Some(_) => Reply::text(app.i18n.s(lang, "command-in-dm")),
            None => a.question(&question).await?,
        };
        send(bot, msg.chat.id, Some(msg.id), &reply).await?;
    }
    Ok(())
}

fn strip_mention(text: &str, username: &str) -> String {
    let needle = format!("@{}", username.to_lowercase());
    let lower = text.to_lowercase();
    match lower.find(&needle) {
        // Lower-casing can change byte lengths in rare scripts; only cut when offsets agree.
        Some(i)
            if text.is_char_boundary(i)
                && text.is_char_boundary(i + needle.len())
                && lower.len() == text.len() =>
        {
            format!("{} {}", &text[..i], &text[i + needle.len()..])
                .trim()
                .to_string()
        }
        _ => text.to_string(),
    }
}

pub async fn on_edit(app: Arc<App>, msg: Message) -> HandlerResult {
    let Some(from) = msg.from.clone() else {
        return Ok(());
    };
    let from = &from;
    if from.is_bot || msg.chat.is_private() {
        return Ok(());
    }
    let span = tracing::info_span!(
        "edit",
        chat_id = msg.chat.id.0,
        user_id = from.id.0,
        message_id = msg.id.0
    );
    async move {
        let chat = domain::ChatId(msg.chat.id.0);
        let Some(linked) = app.store.chat(chat).await?.filter(|c| c.active) else {
            return Ok(());
        };
        let text = text_of(&msg).unwrap_or("");
        let at = msg.edit_date().copied().unwrap_or_else(|| app.clock.now());
        let id = MsgId(msg.id.0 as i64);
        if app.store.edit_message(chat, id, text, at).await?.is_none() {
            return Ok(());
        }
        let org = app.store.org(linked.org_id).await?;
        let people = app.store.people(org.id).await?;
        let names = ingest::extract_people(&people);
        let ments = mentions(&msg);
        let ing = Ingest {
            store: &app.store,
            org: &org,
            people: &people,
            names: &names,
            refine: app.llm.is_some(),
        };
        let stored = app.store.message(chat, id).await?;
        let reply_to = stored.as_ref().and_then(|m| m.reply_to);
        // Dates in an edit resolve against the original message's time.
        let date = stored.map(|m| m.date).unwrap_or(msg.date);
        ing.edit(&Incoming {
            chat,
            message: id,
            from: uid(from),
            date,
            text,
            reply_to,
            mentions: &ments,
        })
        .await?;
        Ok(())
    }
    .instrument(span)
    .await
}

pub async fn on_my_chat_member(app: Arc<App>, upd: ChatMemberUpdated) -> HandlerResult {
    let chat = domain::ChatId(upd.chat.id.0);
    let gone = upd.new_chat_member.is_left() || upd.new_chat_member.is_banned();
    if upd.chat.is_private() {
        // A person blocked or unblocked the bot.
        app.store.set_dm_open(Uid(upd.chat.id.0), !gone).await?;
    } else if gone {
        tracing::info!(
            chat_id = chat.0,
            "bot removed from the chat: marked inactive"
        );
        app.store.set_chat_active(chat, false).await?;
    }
    Ok(())
}

pub async fn on_callback(bot: Bot, app: Arc<App>, q: CallbackQuery) -> HandlerResult {
    let span = tracing::info_span!("callback", user_id = q.from.id.0);
    async move {
        remember_user(&app, &q.from).await?;
        let user = uid(&q.from);
        let (org, lang) = org_and_lang(&app, user).await?;
        let data = q.data.as_deref().unwrap_or_default().parse::<CallbackData>();
        let answer = bot.answer_callback_query(q.id.clone());
        let Some(org) = org else {
            answer
                .text(crate::render::truncate(
                    &app.i18n.s(lang, "dm-unknown"),
                    crate::render::NOTICE_LIMIT,
                ))
                .await?;
            return Ok(());
        };
        let data = match data {
            Ok(d) => d,
            Err(e) => {
                tracing::debug!(error = %e, "a button kept does not know");
                answer.await?;
                return Ok(());
            }
        };
        match data {
            CallbackData::Fix(button) => {
                let a = Answerer::new(&app, &org, user, false, lang).await?;
                let pressed = a
                    .fix_press(button, |d| next_working_day(&app, &org, d))
                    .await?;
                show_press(&bot, &q, &pressed.note, pressed.edit.as_ref(), pressed.reply.as_ref())
                    .await?;
            }
            CallbackData::Goal(button) => {
                let pressed =
                    crate::answer::goals::press(&app, org.id, user, button, lang, app.clock.now())
                        .await?;
                show_press(&bot, &q, &pressed.note, pressed.edit.as_ref(), pressed.reply.as_ref())
                    .await?;
                if let Some((to, reply)) = &pressed.offer
                    && let Err(e) = send(&bot, ChatId(to.0), None, reply).await
                {
                    tracing::warn!(user_id = to.0, error = %e, "could not send a goal step to its assignee");
                }
            }
            CallbackData::Promise(action, memory) => {
                let id = memory.0;
                let outcome = ingest::button(
                    &app.store,
                    user,
                    memory,
                    action,
                    |d| next_working_day(&app, &org, d),
                    app.clock.now(),
                )
                .await?;
                let note = match &outcome {
                    ButtonOutcome::Changed(ButtonAction::Done, c) => app.i18n.t(
                        lang,
                        "button-result-done",
                        &[("what", crate::render::format::esc(&c.content).into())],
                    ),
                    ButtonOutcome::Changed(ButtonAction::NotAPromise, c) => app.i18n.t(
                        lang,
                        "button-result-nap",
                        &[("what", crate::render::format::esc(&c.content).into())],
                    ),
                    ButtonOutcome::Changed(ButtonAction::Snooze, c) => app.i18n.t(
                        lang,
                        "button-result-snooze",
                        &[
                            ("what", crate::render::format::esc(&c.content).into()),
                            (
                                "date",
                                c.due
                                    .map(|d| crate::render::format::due(&app.i18n, lang, d))
                                    .unwrap_or_default()
                                    .into(),
                            ),
                        ],
                    ),
                    ButtonOutcome::AlreadyClosed(c) => app.i18n.t(
                        lang,
                        "button-stale",
                        &[("what", crate::render::format::esc(&c.content).into())],
                    ),
                    ButtonOutcome::NotYours => app.i18n.s(lang, "button-not-yours"),
                    ButtonOutcome::Unknown => app.i18n.s(lang, "button-unknown"),
                };
                answer
                    .text(crate::render::truncate(
                        &strip_tags(&note),
                        crate::render::NOTICE_LIMIT,
                    ))
                    .await?;
                if let (ButtonOutcome::Changed(..) | ButtonOutcome::AlreadyClosed(_), Some(m)) =
                    (&outcome, q.regular_message())
                {
                    edit_reminder(&bot, &app, m, id, &note).await?;
                }
            }
            CallbackData::Task(button, id) => {
                let pressed = crate::answer::tasks::press(
                    &app,
                    user,
                    id,
                    button,
                    lang,
                    |d| next_working_day(&app, &org, d),
                    app.clock.now(),
                )
                .await?;
                answer
                    .text(crate::render::truncate(
                        &strip_tags(&pressed.note),
                        crate::render::NOTICE_LIMIT,
                    ))
                    .await?;
                if let Some(m) = q.regular_message() {
                    // The task's buttons are spent: take them off, and say what was done.
                    let keep: Vec<Vec<(String, String)>> = Vec::new();
                    let _ = bot
                        .edit_message_reply_markup(m.chat.id, m.id)
                        .reply_markup(crate::bot::outbox::keyboard(&keep))
                        .await;
                    send(
                        &bot,
                        m.chat.id,
                        None,
                        &Reply::text(pressed.note.clone()),
                    )
                    .await?;
                }
                if let Some((to, text)) = &pressed.tell
                    && let Err(e) = send(
                        &bot,
                        ChatId(to.0),
                        None,
                        &Reply::text(text.clone()),
                    )
                    .await
                {
                    tracing::warn!(user_id = to.0, error = %e, "could not tell the assigner");
                }
            }
            CallbackData::Owner { proposal, yes } => {
                let note = crate::answer::graph::settle_proposal(
                    &app,
                    org.id,
                    user,
                    proposal,
                    yes,
                    lang,
                    app.clock.now(),
                )
                .await?;
                answer
                    .text(crate::render::truncate(
                        &strip_tags(&note),
                        crate::render::NOTICE_LIMIT,
                    ))
                    .await?;
                if let Some(m) = q.regular_message() {
                    let shown = crate::render::format::esc(m.text().unwrap_or(""));
                    let none: Vec<Vec<(String, String)>> = Vec::new();
                    let _ = bot
                        .edit_message_text(m.chat.id, m.id, format!("{shown}\n\n{note}"))
                        .parse_mode(ParseMode::Html)
                        .reply_markup(keyboard(&none))
                        .await;
                }
            }
            CallbackData::Ask(question) => {
                answer.await?;
                let intent = match question {
                    Question::Priorities => Intent::MyPriorities,
                    Question::Promises => Intent::MyPromises,
                    Question::Overdue => Intent::WhoIsOverdue,
                    Question::Idle => Intent::WhoIsIdle,
                };
                let a = Answerer::new(&app, &org, user, false, lang).await?;
                let reply = a.intent(intent).await?;
                send(&bot, ChatId(user.0), None, &reply).await?;
            }
            CallbackData::Person(id) => {
                answer.await?;
                let a = Answerer::new(&app, &org, user, false, lang).await?;
                let reply = a.status_of(id).await?;
                send(&bot, ChatId(user.0), None, &reply).await?;
            }
        }
        Ok(())
    }
    .instrument(span)
    .await
}

/// What a press shows: the notice, the pressed message rewritten, and a new message to the
/// presser (in their DM).
async fn show_press(
    bot: &Bot,
    q: &CallbackQuery,
    note: &str,
    edit: Option<&Reply>,
    reply: Option<&Reply>,
) -> HandlerResult {
    answer_press(bot, q, note).await?;
    if let (Some(edit), Some(m)) = (edit, q.regular_message()) {
        edit_in_place(bot, m, edit).await;
    }
    if let Some(reply) = reply {
        send(bot, ChatId(q.from.id.0 as i64), None, reply).await?;
    }
    Ok(())
}

/// Answers a button press, with `note` as the notice unless it is empty.
async fn answer_press(bot: &Bot, q: &CallbackQuery, note: &str) -> HandlerResult {
    let mut answer = bot.answer_callback_query(q.id.clone());
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

/// The working day after `d` in the org's calendar (holidays and weekends skipped): what
/// "+1 day" buttons move a date to.
fn next_working_day(app: &App, org: &Org, d: chrono::NaiveDate) -> chrono::NaiveDate {
    crate::schedule::Timetable::new(org, &app.settings.schedule, &app.settings.org.holidays)
        .cal
        .next_working_day(d)
}

/// "Павел выполнил(а) задачу: …" to whoever set a task that was reported done in a group. A
/// failure to send is logged: the task is done either way.
async fn tell_task_done(
    bot: &Bot,
    app: &App,
    people: &[crate::store::Person],
    t: &ingest::TaskDone,
) {
    let Some(by) = t.assigned_by.filter(|b| *b != t.assignee) else {
        return;
    };
    let open = people
        .iter()
        .any(|p| p.profile.id == by && p.profile.dm_open);
    let first = people
        .iter()
        .find(|p| p.profile.id == t.assignee)
        .map(|p| p.profile.first_name.as_str())
        .unwrap_or_default();
    let Some((to, text)) = crate::answer::tasks::tell_assigner(
        app,
        people,
        by,
        first,
        "task-they-finished",
        &t.title,
        None,
    )
    .filter(|_| open) else {
        return;
    };
    if let Err(e) = send(bot, ChatId(to.0), None, &Reply::text(text)).await {
        tracing::warn!(user_id = to.0, error = %e, "could not tell the assigner a task is done");
    }
}

/// The assignee's DM of a new task. A failure (they blocked the bot since) is logged: the
/// assigner's own reply still goes out, and the task waits in the assignee's list.
async fn deliver_assignment(bot: &Bot, assigned: &crate::answer::tasks::Assigned) {
    if let Some((to, reply)) = &assigned.to_assignee
        && let Err(e) = send(bot, ChatId(to.0), None, reply).await
    {
        tracing::warn!(user_id = to.0, error = %e, "could not send a task to its assignee");
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
async fn edit_reminder(
    bot: &Bot,
    app: &App,
    m: &Message,
    origin: i64,
    note: &str,
) -> HandlerResult {
    let chat = domain::ChatId(m.chat.id.0);
    let suffix = format!(":{origin}");
    let (text, rows, stored) = match app.store.delivery_by_message(chat, m.id.0 as i64).await? {
        Some((id, text, rows)) => (text, rows, Some(id)),
        None => (
            crate::render::format::esc(m.text().unwrap_or("")),
            Vec::new(),
            None,
        ),
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
