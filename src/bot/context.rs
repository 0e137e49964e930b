//! What the handlers of one update share: who sent it, the org and language it is answered in,
//! and how a reply goes out. The `schema()` tree builds these values once per update, so each
//! endpoint starts with everything it needs.

use std::sync::Arc;

use teloxide::prelude::*;
use teloxide::types::{MessageEntityKind, MessageId, ParseMode, ReplyParameters, User};
use teloxide::utils::command::BotCommands;

use super::outbox::keyboard;
use super::{BotError, Command};
use crate::answer::{Answerer, Reply};
use crate::app::App;
use crate::domain::callback::CallbackData;
use crate::domain::{self, Lang, MessageId as MsgId, Role, UserId as Uid};
use crate::store::Org;

/// Who the bot is (from getMe): needed to see when a group message is addressed to it.
#[derive(Debug, Clone)]
pub struct BotIdentity {
    pub id: UserId,
    pub username: String,
    /// getMe's `can_read_all_group_messages`: false while @BotFather's privacy mode is on, and
    /// then only commands and replies to the bot reach it from groups.
    pub reads_group_messages: bool,
}

pub(super) type HandlerResult = Result<(), BotError>;

pub(super) fn uid(u: &User) -> Uid {
    Uid(u.id.0 as i64)
}

pub(super) async fn remember_user(app: &App, u: &User) -> Result<(), BotError> {
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
pub(super) async fn send(
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

pub(super) fn text_of(msg: &Message) -> Option<&str> {
    msg.text().or_else(|| msg.caption())
}

pub(super) fn mentions(msg: &Message) -> Vec<Uid> {
    msg.entities()
        .unwrap_or_default()
        .iter()
        .filter_map(|e| match &e.kind {
            MessageEntityKind::TextMention { user } => Some(uid(user)),
            _ => None,
        })
        .collect()
}

/// The command a message starts with, read as teloxide's `filter_command` reads it, with the
/// bot's name from [`BotIdentity`] (replays and tests run without a getMe call).
pub(super) fn command(msg: &Message, me: &BotIdentity) -> Option<Command> {
    let text = text_of(msg)?.trim();
    if !text.starts_with('/') {
        return None;
    }
    Command::parse(text, &me.username).ok()
}

pub(super) async fn org_and_lang(app: &App, user: Uid) -> Result<(Option<Org>, Lang), BotError> {
    let profile = app.store.user(user).await?;
    let org = match app.store.org_of_user(user).await? {
        Some(id) => Some(app.store.org(id).await?),
        None => None,
    };
    let lang = app.lang_for(profile.as_ref(), org.as_ref());
    Ok((org, lang))
}

/// A step of the tree that reads or writes before the endpoints: its error is logged as the
/// dispatcher logs an endpoint's, and the update goes no further.
pub(super) fn logged<T>(what: &str, r: Result<T, BotError>) -> Option<T> {
    match r {
        Ok(v) => Some(v),
        Err(e) => {
            tracing::error!(step = what, error = %e, cause = ?std::error::Error::source(&e), "update handling failed");
            None
        }
    }
}

/// The human who sent a message (bots' and channels' messages are not listened to).
#[derive(Debug, Clone)]
pub(super) struct Sender(pub User);

impl Sender {
    pub fn of(msg: Message) -> Option<Sender> {
        msg.from.filter(|u| !u.is_bot).map(Sender)
    }

    /// Stores (or updates) who they are: names, username, language.
    pub async fn remembered(app: Arc<App>, from: Sender) -> bool {
        logged("user", remember_user(&app, &from.0).await).is_some()
    }
}

/// A private message, after its sender is remembered and their DM marked open.
#[derive(Clone)]
pub(super) enum Private {
    /// Someone in an org: what every DM command and question starts from.
    Known(Dm),
    /// Someone kept has not met in any org (nobody linked them in yet).
    Stranger(Stranger),
}

/// A private message from someone in no org, and the reply that tells them so.
#[derive(Clone)]
pub(super) struct Stranger {
    pub bot: Bot,
    pub msg: Message,
    pub reply: String,
}

impl Private {
    pub async fn read(
        bot: Bot,
        app: Arc<App>,
        me: Arc<BotIdentity>,
        msg: Message,
        from: Sender,
    ) -> Option<Private> {
        logged(
            "private",
            Private::try_read(bot, app, me, msg, from.0).await,
        )
    }

    async fn try_read(
        bot: Bot,
        app: Arc<App>,
        me: Arc<BotIdentity>,
        msg: Message,
        from: User,
    ) -> Result<Private, BotError> {
        let user = uid(&from);
        // Writing to the bot in private means the person has started it: their DM is open.
        app.store.set_dm_open(user, true).await?;
        let start = command(&msg, &me) == Some(Command::Start);
        if start && app.is_admin(user) {
            app.store
                .set_member(
                    app.default_org,
                    user,
                    Role::Director,
                    None,
                    None,
                    app.clock.now(),
                )
                .await?;
        }
        let (org, lang) = org_and_lang(&app, user).await?;
        Ok(match org {
            Some(org) => Private::Known(Dm {
                bot,
                app,
                me,
                msg,
                from,
                org,
                lang,
            }),
            None => {
                let key = if start { "start-unknown" } else { "dm-unknown" };
                Private::Stranger(Stranger {
                    reply: app.i18n.s(lang, key),
                    bot,
                    msg,
                })
            }
        })
    }

    pub fn known(self) -> Option<Dm> {
        match self {
            Private::Known(dm) => Some(dm),
            Private::Stranger(_) => None,
        }
    }

    pub fn stranger(self) -> Option<Stranger> {
        match self {
            Private::Stranger(s) => Some(s),
            Private::Known(_) => None,
        }
    }
}

/// A private message from a member of an org.
#[derive(Clone)]
pub(super) struct Dm {
    pub bot: Bot,
    pub app: Arc<App>,
    pub me: Arc<BotIdentity>,
    pub msg: Message,
    pub from: User,
    pub org: Org,
    pub lang: Lang,
}

impl Dm {
    pub fn user(&self) -> Uid {
        uid(&self.from)
    }

    pub fn text(&self) -> &str {
        text_of(&self.msg).unwrap_or("").trim()
    }

    pub fn command(self) -> Option<Command> {
        command(&self.msg, &self.me)
    }

    /// The domain side of a DM: answers, commands and their access rules.
    pub async fn answerer(&self) -> Result<Answerer<'_>, BotError> {
        let mut a = Answerer::new(&self.app, &self.org, self.user(), false, self.lang).await?;
        a.source = Some((
            domain::ChatId(self.msg.chat.id.0),
            MsgId(self.msg.id.0 as i64),
        ));
        Ok(a)
    }

    /// A reply to the message.
    pub async fn reply(&self, reply: Reply) -> HandlerResult {
        send(&self.bot, self.msg.chat.id, Some(self.msg.id), &reply).await
    }

    /// A reply of one localized string.
    pub async fn say(&self, key: &str) -> HandlerResult {
        self.reply(Reply::text(self.app.i18n.s(self.lang, key)))
            .await
    }
}

/// A button press, from someone kept knows in an org, with the button's data read.
#[derive(Clone)]
pub(super) struct Press {
    pub bot: Bot,
    pub app: Arc<App>,
    pub q: CallbackQuery,
    pub org: Org,
    pub lang: Lang,
    pub data: CallbackData,
}

impl Press {
    /// Reads the press; a stranger's press and a button kept does not know are answered here
    /// and go no further.
    pub async fn read(bot: Bot, app: Arc<App>, q: CallbackQuery) -> Option<Press> {
        logged("button", Press::try_read(bot, app, q).await).flatten()
    }

    async fn try_read(
        bot: Bot,
        app: Arc<App>,
        q: CallbackQuery,
    ) -> Result<Option<Press>, BotError> {
        remember_user(&app, &q.from).await?;
        let (org, lang) = org_and_lang(&app, uid(&q.from)).await?;
        let answer = bot.answer_callback_query(q.id.clone());
        let Some(org) = org else {
            answer
                .text(crate::render::truncate(
                    &app.i18n.s(lang, "dm-unknown"),
                    crate::render::NOTICE_LIMIT,
                ))
                .await?;
            return Ok(None);
        };
        match q
            .data
            .as_deref()
            .unwrap_or_default()
            .parse::<CallbackData>()
        {
            Ok(data) => Ok(Some(Press {
                bot,
                app,
                q,
                org,
                lang,
                data,
            })),
            Err(e) => {
                tracing::debug!(error = %e, "a button kept does not know");
                answer.await?;
                Ok(None)
            }
        }
    }

    pub fn user(&self) -> Uid {
        uid(&self.q.from)
    }

    pub async fn answerer(&self) -> Result<Answerer<'_>, BotError> {
        Ok(Answerer::new(&self.app, &self.org, self.user(), false, self.lang).await?)
    }

    /// The working day after `d` in the org's calendar (holidays and weekends skipped): what
    /// "+1 day" buttons move a date to.
    pub fn next_working_day(&self, d: chrono::NaiveDate) -> chrono::NaiveDate {
        let app = &self.app;
        crate::schedule::Timetable::new(
            &self.org,
            &app.settings.schedule,
            &app.settings.org.holidays,
        )
        .cal
        .next_working_day(d)
    }
}
