//! A group's messages: `/link` from a director links the group to their org; in a linked group
//! every message is captured (promises, moves, done, owners heard), and one addressed to the
//! bot (a mention, a reply to it, a command) is answered in the group with team items only.

use std::sync::Arc;

use teloxide::prelude::*;
use teloxide::types::User;

use super::context::{
    BotIdentity, HandlerResult, Sender, command, logged, mentions, send, text_of, uid,
};
use super::{BotError, Command};
use crate::answer::{Answerer, Reply};
use crate::app::App;
use crate::domain::{self, MessageId as MsgId, Role};
use crate::ingest::{self, Incoming, Ingest};
use crate::store::{Org, Stored};

/// The group became a supergroup: its messages move to the new chat id.
pub(super) async fn migrated(app: Arc<App>, msg: Message, to: ChatId) -> HandlerResult {
    app.store
        .migrate_chat(domain::ChatId(msg.chat.id.0), domain::ChatId(to.0))
        .await?;
    tracing::info!(to = to.0, "group migrated to a supergroup");
    Ok(())
}

/// `/link` in a group: a director links it to their org; anyone else is told they cannot.
pub(super) async fn link(bot: Bot, app: Arc<App>, msg: Message, from: Sender) -> HandlerResult {
    let user = uid(&from.0);
    let org = app
        .store
        .org_of_user(user)
        .await?
        .unwrap_or(app.default_org);
    let directs = app
        .store
        .member(org, user)
        .await?
        .is_some_and(|m| m.role == Role::Director);
    let (_, lang) = super::context::org_and_lang(&app, user).await?;
    let key = if directs {
        app.store
            .link_chat(
                org,
                domain::ChatId(msg.chat.id.0),
                msg.chat.is_supergroup(),
                msg.chat.title(),
                app.clock.now(),
            )
            .await?;
        "link-done"
    } else {
        "link-refused"
    };
    send(
        &bot,
        msg.chat.id,
        Some(msg.id),
        &Reply::text(app.i18n.s(lang, key)),
    )
    .await
}

/// A message with text in a group linked to an org, from a member (made one by writing).
#[derive(Clone)]
pub(super) struct Group {
    pub bot: Bot,
    pub app: Arc<App>,
    pub me: Arc<BotIdentity>,
    pub msg: Message,
    pub from: User,
    pub org: Org,
}

impl Group {
    /// Groups nobody linked are not listened to, and a message without text has nothing to
    /// capture.
    pub async fn read(
        bot: Bot,
        app: Arc<App>,
        me: Arc<BotIdentity>,
        msg: Message,
        from: Sender,
    ) -> Option<Group> {
        let org = logged("group", Group::linked_org(&app, &msg, &from.0).await).flatten()?;
        let has_text = !text_of(&msg).unwrap_or("").trim().is_empty();
        has_text.then_some(Group {
            bot,
            app,
            me,
            msg,
            from: from.0,
            org,
        })
    }

    /// The org the group is linked to (active), with the sender made a member of it.
    async fn linked_org(app: &App, msg: &Message, from: &User) -> Result<Option<Org>, BotError> {
        let chat = domain::ChatId(msg.chat.id.0);
        let Some(linked) = app.store.chat(chat).await?.filter(|c| c.active) else {
            return Ok(None);
        };
        let org = app.store.org(linked.org_id).await?;
        app.store
            .ensure_member(org.id, uid(from), app.clock.now())
            .await?;
        Ok(Some(org))
    }

    fn text(&self) -> &str {
        text_of(&self.msg).unwrap_or("")
    }

    /// Captures the message; a redelivered one goes no further.
    pub async fn capture(self) -> Option<Heard> {
        let stored = logged("capture", self.try_capture().await)?;
        (stored != Stored::Duplicate).then_some(Heard(self))
    }

    async fn try_capture(&self) -> Result<Stored, BotError> {
        let (bot, app, msg) = (&self.bot, &self.app, &self.msg);
        let user = uid(&self.from);
        let chat = domain::ChatId(msg.chat.id.0);
        let text = self.text();
        let people = app.store.people(self.org.id).await?;
        let names = ingest::extract_people(&people);
        let ments = mentions(msg);
        let ing = Ingest {
            store: &app.store,
            org: &self.org,
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
                reply_to: msg.reply_to_message().map(|r| MsgId(r.id.0 as i64)),
                mentions: &ments,
            })
            .await?;
        if outcome.stored == Stored::Duplicate {
            return Ok(outcome.stored);
        }
        for t in &outcome.tasks_done {
            tell_task_done(bot, app, &people, t).await;
        }
        // "за CRM отвечает Дима": the directors confirm an owner heard in the group.
        let key = (chat, MsgId(msg.id.0 as i64));
        let now = app.clock.now();
        for (to, reply) in
            crate::answer::graph::heard_owner(app, &ing, text, user, key, now).await?
        {
            if let Err(e) = send(bot, ChatId(to.0), None, &reply).await {
                tracing::warn!(user_id = to.0, error = %e, "could not ask a director about an owner");
            }
        }
        let effects = &outcome.effects;
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
        Ok(outcome.stored)
    }
}

/// A group message that was captured (and is not a redelivery).
#[derive(Clone)]
pub(super) struct Heard(pub Group);

impl Heard {
    pub fn command(self) -> Option<Command> {
        command(&self.0.msg, &self.0.me)
    }

    /// A mention of the bot, or a reply to one of its messages.
    pub fn addressed(self) -> bool {
        let g = &self.0;
        let mention = format!("@{}", g.me.username.to_lowercase());
        g.text().to_lowercase().contains(&mention)
            || g.msg
                .reply_to_message()
                .and_then(|r| r.from.as_ref())
                .is_some_and(|u| u.id == g.me.id)
    }

    async fn answerer(&self) -> Result<Answerer<'_>, BotError> {
        let g = &self.0;
        let (_, lang) = super::context::org_and_lang(&g.app, uid(&g.from)).await?;
        let mut a = Answerer::new(&g.app, &g.org, uid(&g.from), true, lang).await?;
        a.source = Some((domain::ChatId(g.msg.chat.id.0), MsgId(g.msg.id.0 as i64)));
        Ok(a)
    }

    async fn reply(&self, reply: Reply) -> HandlerResult {
        let g = &self.0;
        send(&g.bot, g.msg.chat.id, Some(g.msg.id), &reply).await
    }
}

/// `/help` or `/start` in a group.
pub(super) async fn help(heard: Heard) -> HandlerResult {
    let a = heard.answerer().await?;
    heard.reply(a.help_text()).await
}

/// `/digest on|off` in a group (directors): the weekly digest for the group.
pub(super) async fn digest(heard: Heard, arg: String) -> HandlerResult {
    let a = heard.answerer().await?;
    let chat = domain::ChatId(heard.0.msg.chat.id.0);
    heard.reply(a.group_digest(chat, &arg).await?).await
}

/// Any other command in a group: commands are for the DM.
pub(super) async fn command_in_dm(heard: Heard) -> HandlerResult {
    let a = heard.answerer().await?;
    heard
        .reply(Reply::text(a.app.i18n.s(a.lang, "command-in-dm")))
        .await
}

/// A question to the bot in the group, answered with what the whole team may see.
pub(super) async fn question(heard: Heard) -> HandlerResult {
    let a = heard.answerer().await?;
    let question = strip_mention(heard.0.text(), &heard.0.me.username);
    heard.reply(a.question(&question).await?).await
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
