//! `kept replay`: a scenario file through the real handler tree and scheduler, against the
//! sandbox Bot API, on a driven clock. Deterministic: each update runs to completion before the
//! next line, and nothing ever sleeps.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use chrono::{DateTime, FixedOffset, Utc};
use chrono_tz::Tz;
use serde::Deserialize;
use serde_json::{Value, json};
use teloxide::Bot;

use crate::app::App;
use crate::bot::{self, BotIdentity, BotOutbox};
use crate::clock::{DrivenClock, SharedClock};
use crate::config::Settings;
use crate::digest;
use crate::domain::{Lang, NodeType, OrgId, Role, UserId};
use crate::sandbox::{self, Sandbox};
use crate::schedule::{Scheduler, sender};
use crate::store::{NewNode, Store};

#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("cannot read {path}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("line {line}: {message}")]
    Line { line: usize, message: String },
    #[error("the scenario has no events")]
    Empty,
    #[error("{0} already exists: a replay writes a fresh database")]
    DbExists(String),
    #[error("storage")]
    Store(#[from] crate::store::StoreError),
    #[error("setting up")]
    App(#[from] crate::app::AppError),
    #[error("sandbox")]
    Sandbox(#[from] sandbox::SandboxError),
    #[error("scheduler")]
    Schedule(#[from] crate::schedule::ScheduleError),
    #[error("the model's second look")]
    Refine(#[from] crate::refine::RefineError),
    #[error("bot")]
    Bot(#[from] bot::BotError),
    #[error("messages the bot could not deliver: {0}")]
    Undelivered(String),
    #[error("writing the result")]
    Write(#[source] std::io::Error),
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct UserObj {
    id: i64,
    #[serde(default)]
    first_name: Option<String>,
    #[serde(default)]
    last_name: Option<String>,
    #[serde(default)]
    username: Option<String>,
    #[serde(default)]
    language_code: Option<String>,
    #[serde(default)]
    is_bot: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
enum From {
    Id(i64),
    User(UserObj),
}

#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
enum ChatRef {
    Dm(String),
    Id(i64),
    Group {
        id: i64,
        #[serde(rename = "type", default)]
        kind: Option<String>,
        #[serde(default)]
        title: Option<String>,
    },
}

impl ChatRef {
    /// The Telegram chat id: a group's own, or for `"dm"` the private chat with `user` (whose
    /// id it shares).
    fn id(&self, user: i64) -> i64 {
        match self {
            ChatRef::Dm(_) => user,
            ChatRef::Id(c) => *c,
            ChatRef::Group { id, .. } => *id,
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Event {
    Org {
        #[serde(default)]
        name: Option<String>,
        #[serde(default)]
        timezone: Option<String>,
        #[serde(default)]
        locale: Option<String>,
    },
    Member {
        user: UserObj,
        #[serde(default)]
        role: Option<String>,
        #[serde(default)]
        position: Option<String>,
        #[serde(default)]
        manager: Option<i64>,
        #[serde(default)]
        dm_open: bool,
    },
    Node {
        node_type: String,
        title: String,
        #[serde(default)]
        owner: Option<i64>,
        #[serde(default)]
        description: Option<String>,
    },
    Message {
        chat: ChatRef,
        id: i64,
        from: From,
        date: String,
        text: String,
        #[serde(default)]
        reply_to: Option<i64>,
    },
    Edit {
        chat: ChatRef,
        id: i64,
        #[serde(default)]
        from: Option<From>,
        #[serde(default)]
        date: Option<String>,
        text: String,
    },
    Clock {
        at: String,
    },
    /// A person presses an inline button the bot showed (CONTRACT: `press`).
    Press {
        from: From,
        #[serde(default)]
        date: Option<String>,
        chat: ChatRef,
        button: String,
        /// The bot message, by the id it had in the transcript; else the latest with the button.
        #[serde(default)]
        message: Option<i64>,
    },
}

/// A parsed scenario line.
#[derive(Debug, Clone)]
struct Line {
    n: usize,
    event: Event,
    at: Option<DateTime<FixedOffset>>,
}

fn bad(n: usize, message: impl Into<String>) -> ReplayError {
    ReplayError::Line {
        line: n,
        message: message.into(),
    }
}

fn parse_time(n: usize, s: &str) -> Result<DateTime<FixedOffset>, ReplayError> {
    DateTime::parse_from_rfc3339(s).map_err(|e| bad(n, format!("bad date {s:?}: {e}")))
}

/// Telegram's message ids fit a signed 32-bit integer and are positive; teloxide silently drops
/// an update that breaks that, so a replay says so instead.
fn check_message_id(n: usize, what: &str, id: i64) -> Result<(), ReplayError> {
    if id <= 0 || id > i64::from(i32::MAX) {
        return Err(bad(
            n,
            format!(
                "{what} {id} is not a Telegram message id (1 to {})",
                i32::MAX
            ),
        ));
    }
    Ok(())
}

fn check_user_id(n: usize, id: i64) -> Result<(), ReplayError> {
    if id <= 0 {
        return Err(bad(
            n,
            format!("user id {id} is not a Telegram user id (positive)"),
        ));
    }
    Ok(())
}

fn from_id(f: &From) -> i64 {
    match f {
        From::Id(id) => *id,
        From::User(u) => u.id,
    }
}

/// Checks what Telegram itself guarantees and a hand-written scenario may break: ids in range,
/// time that never goes back, one text per message id.
#[derive(Default)]
struct Checks {
    last: Option<(DateTime<FixedOffset>, usize)>,
    /// (chat, message id) → (line, author, text).
    seen: HashMap<(i64, i64), (usize, i64, String)>,
}

impl Checks {
    fn line(
        &mut self,
        n: usize,
        event: &Event,
        at: Option<DateTime<FixedOffset>>,
    ) -> Result<(), ReplayError> {
        if let Some(t) = at {
            if let Some((prev, pn)) = self.last
                && t < prev
            {
                return Err(bad(
                    n,
                    format!(
                        "date {} is earlier than line {pn}'s {}: events must be in time order",
                        t.to_rfc3339(),
                        prev.to_rfc3339()
                    ),
                ));
            }
            self.last = Some((t, n));
        }
        match event {
            Event::Member { user, manager, .. } => {
                check_user_id(n, user.id)?;
                if let Some(m) = manager {
                    check_user_id(n, *m)?;
                }
            }
            Event::Node { owner: Some(o), .. } => check_user_id(n, *o)?,
            Event::Message {
                chat,
                id,
                from,
                text,
                reply_to,
                ..
            } => {
                let author = from_id(from);
                check_user_id(n, author)?;
                check_message_id(n, "message id", *id)?;
                if let Some(r) = reply_to {
                    check_message_id(n, "reply_to", *r)?;
                }
                let chat_id = chat.id(author);
                match self.seen.get(&(chat_id, *id)) {
                    // The same update delivered twice is stored once, as the live bot would.
                    Some((_, a, t)) if *a == author && t == text => {}
                    Some((pn, _, _)) => {
                        return Err(bad(
                            n,
                            format!(
                                "message id {id} in chat {chat_id} is already used on line {pn} with other content (an edit is an \"edit\" line)"
                            ),
                        ));
                    }
                    None => {
                        self.seen.insert((chat_id, *id), (n, author, text.clone()));
                    }
                }
            }
            Event::Edit { id, from, .. } => {
                check_message_id(n, "message id", *id)?;
                if let Some(f) = from {
                    check_user_id(n, from_id(f))?;
                }
            }
            _ => {}
        }
        Ok(())
    }
}

fn parse(text: &str) -> Result<Vec<Line>, ReplayError> {
    let mut out = Vec::new();
    let mut checks = Checks::default();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let value: Value =
            serde_json::from_str(raw).map_err(|e| bad(n, format!("not JSON: {e}")))?;
        let kind = value.get("type").and_then(Value::as_str).unwrap_or("");
        if !matches!(
            kind,
            "org" | "member" | "node" | "message" | "edit" | "clock" | "press"
        ) {
            return Err(bad(n, format!("unknown event type {kind:?}")));
        }
        if let Some(from) = value.get("from").filter(|f| f.is_object())
            && from.get("id").and_then(Value::as_i64).is_none()
        {
            return Err(bad(n, "the user object in \"from\" has no id"));
        }
        let event: Event =
            serde_json::from_str(raw).map_err(|e| bad(n, format!("bad {kind} event: {e}")))?;
        let at = match &event {
            Event::Message { date, .. } => Some(parse_time(n, date)?),
            Event::Edit { date: Some(d), .. } => Some(parse_time(n, d)?),
            Event::Clock { at } => Some(parse_time(n, at)?),
            Event::Press { date: Some(d), .. } => Some(parse_time(n, d)?),
            _ => None,
        };
        if let Event::Org {
            timezone: Some(tz), ..
        } = &event
            && tz.parse::<Tz>().is_err()
        {
            return Err(bad(n, format!("unknown timezone {tz:?}")));
        }
        if let Event::Node { node_type, .. } = &event
            && node_type.parse::<NodeType>().is_err()
        {
            return Err(bad(n, format!("unknown node_type {node_type:?}")));
        }
        if let Event::Member { role: Some(r), .. } = &event
            && r.parse::<Role>().is_err()
        {
            return Err(bad(n, format!("unknown role {r:?}")));
        }
        checks.line(n, &event, at)?;
        out.push(Line { n, event, at });
    }
    Ok(out)
}

/// The outcome of a replay: the contract's JSON and a readable transcript.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub json: Value,
    pub transcript: String,
    /// The last chart image sent, if any (the demo writes it to a file).
    pub chart: Option<Vec<u8>>,
}

pub struct Options {
    pub tz: Tz,
    pub lang: Lang,
    /// Keep the replayed database in this file (for `kept ask` / `kept digest` afterwards);
    /// a temporary database removed at the end when `None`.
    pub db: Option<std::path::PathBuf>,
    /// The model (`kept replay --llm config`); no model by default.
    pub llm: crate::config::LlmSettings,
}

fn user_json(u: &UserObj) -> Value {
    let mut v = json!({"id": u.id, "is_bot": u.is_bot, "first_name": u.first_name.clone().unwrap_or_else(|| format!("User {}", u.id))});
    if let Some(l) = &u.last_name {
        v["last_name"] = json!(l);
    }
    if let Some(x) = &u.username {
        v["username"] = json!(x);
    }
    if let Some(x) = &u.language_code {
        v["language_code"] = json!(x);
    }
    v
}

struct Runner {
    app: Arc<App>,
    clock: DrivenClock,
    sandbox: Sandbox,
    bot: Bot,
    me: Arc<BotIdentity>,
    scheduler: Scheduler,
    tz: Tz,
    org: OrgId,
    users: HashMap<i64, Value>,
    /// (chat, message id) → the message JSON, for `reply_to_message`.
    messages: HashMap<(i64, i64), Value>,
    groups: HashMap<i64, Value>,
    last: DateTime<Utc>,
    update_id: i64,
    out: String,
    shown: usize,
    /// Members whose manager has not been introduced yet.
    pending: Vec<Pending>,
    /// The first director: the digest chart shown is theirs.
    director: Option<UserId>,
}

/// A member waiting for their manager's line: (line, member, role, position, manager).
type Pending = (usize, UserId, Role, Option<String>, Option<UserId>);

impl Runner {
    async fn advance(&mut self, n: usize, to: DateTime<Utc>) -> Result<(), ReplayError> {
        if to - self.last > chrono::Duration::days(366) {
            // Real histories have long quiet gaps, so this is not an error; a typo in a year is.
            tracing::warn!(
                line = n,
                days = (to - self.last).num_days(),
                "the clock jumps more than a year"
            );
        }
        if to > self.last {
            let clock = self.clock.clone();
            let outbox = BotOutbox(self.bot.clone());
            let from = self.last;
            self.scheduler
                .advance(from, to, &move |t| clock.set(t), &outbox)
                .await?;
            self.clock.set(to);
            sender::deliver_queued(&self.app, &outbox, false).await?;
            self.last = to;
        }
        self.show_sends().await;
        Ok(())
    }

    fn name(&self, id: i64) -> String {
        self.users
            .get(&id)
            .and_then(|u| u.get("first_name"))
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| id.to_string())
    }

    async fn show_sends(&mut self) {
        let sent = self.sandbox.sent_since(self.shown);
        for s in &sent {
            let at = s.at.with_timezone(&self.tz).format("%a %d.%m %H:%M");
            let to = if s.chat > 0 {
                format!("DM {}", self.name(s.chat))
            } else {
                self.groups
                    .get(&s.chat)
                    .and_then(|g| g.get("title"))
                    .and_then(Value::as_str)
                    .unwrap_or("group")
                    .to_string()
            };
            let buttons = if s.buttons.is_empty() {
                String::new()
            } else {
                format!("\n      [{}]", s.buttons.join("] ["))
            };
            self.out.push_str(&format!(
                "{at}  kept → {to} ({}): {}{buttons}\n",
                s.kind,
                s.text.replace('\n', "\n      ")
            ));
            // Bot messages can be replied to.
            if let Some(id) = s.message_id
                && s.kind != "reaction"
            {
                let chat = self.chat_json(s.chat);
                self.messages.insert(
                    (s.chat, id),
                    json!({"message_id": id, "date": s.at.timestamp(), "chat": chat, "from": sandbox::bot_user(), "text": s.text}),
                );
            }
        }
        self.shown += sent.len();
    }

    fn chat_json(&self, id: i64) -> Value {
        if id > 0 {
            let first = self.name(id);
            json!({"id": id, "type": "private", "first_name": first})
        } else {
            self.groups
                .get(&id)
                .cloned()
                .unwrap_or_else(|| json!({"id": id, "type": "supergroup", "title": "group"}))
        }
    }

    async fn dispatch(&mut self, mut update: Value) -> Result<(), ReplayError> {
        update["update_id"] = json!(self.update_id);
        self.update_id += 1;
        let text = update.to_string();
        bot::dispatch_json(&self.bot, &self.app, &self.me, &text).await?;
        // The live bot's refinement task, run to completion here so a replay is repeatable.
        if self.app.llm.is_some() {
            for org in self.app.store.orgs().await? {
                crate::refine::run_all(&self.app, org).await?;
            }
        }
        self.show_sends().await;
        Ok(())
    }

    async fn user_from(&mut self, n: usize, from: &From) -> Result<Value, ReplayError> {
        match from {
            From::User(u) => {
                let v = user_json(u);
                self.users.insert(u.id, v.clone());
                Ok(v)
            }
            From::Id(id) => match self.users.get(id) {
                Some(v) => Ok(v.clone()),
                None => {
                    let v = json!({"id": id, "is_bot": false, "first_name": format!("User {id}")});
                    let _ = n;
                    self.users.insert(*id, v.clone());
                    Ok(v)
                }
            },
        }
    }

    fn chat_for(&mut self, n: usize, chat: &ChatRef, from: i64) -> Result<Value, ReplayError> {
        match chat {
            ChatRef::Dm(s) if s == "dm" => Ok(self.chat_json(from)),
            ChatRef::Dm(s) => Err(bad(
                n,
                format!("chat must be an object or \"dm\", not {s:?}"),
            )),
            ChatRef::Id(id) if *id > 0 => Ok(self.chat_json(*id)),
            ChatRef::Id(id) => Ok(self.chat_json(*id)),
            ChatRef::Group { id, kind, title } => {
                if *id > 0 {
                    return Err(bad(n, "a group chat id is negative"));
                }
                let kind = kind.clone().unwrap_or_else(|| "supergroup".into());
                if kind != "group" && kind != "supergroup" {
                    return Err(bad(
                        n,
                        format!("chat type must be group or supergroup, not {kind:?}"),
                    ));
                }
                let v = json!({"id": id, "type": kind, "title": title.clone().unwrap_or_else(|| "group".into())});
                self.groups.insert(*id, v.clone());
                Ok(v)
            }
        }
    }
}

/// Replays a scenario file.
pub async fn run_file(path: &Path, opts: Options) -> Result<Outcome, ReplayError> {
    let text = std::fs::read_to_string(path).map_err(|source| ReplayError::Read {
        path: path.display().to_string(),
        source,
    })?;
    run_text(&text, opts).await
}

/// Replays scenario text.
pub async fn run_text(text: &str, opts: Options) -> Result<Outcome, ReplayError> {
    let lines = parse(text)?;
    let first = lines
        .iter()
        .find_map(|l| l.at)
        .ok_or(ReplayError::Empty)?
        .with_timezone(&Utc);
    let clock = DrivenClock::new(first - chrono::Duration::seconds(1));
    let shared: SharedClock = Arc::new(clock.clone());
    let store = match &opts.db {
        Some(path) => {
            if path.exists() {
                return Err(ReplayError::DbExists(path.display().to_string()));
            }
            Store::open(path).await?
        }
        None => Store::temporary().await?,
    };
    let mut settings = Settings::default();
    settings.org.timezone = opts.tz;
    settings.org.locale = opts.lang;
    settings.llm = opts.llm.clone();
    if let Some(Line {
        n,
        event: Event::Org {
            name,
            timezone,
            locale,
        },
        ..
    }) = lines.first()
    {
        if let Some(n) = name {
            settings.org.name = n.clone();
        }
        if let Some(t) = timezone {
            settings.org.timezone = t
                .parse()
                .map_err(|_| bad(*n, format!("unknown IANA timezone {t:?}")))?;
        }
        if let Some(l) = locale {
            settings.org.locale = l.parse().map_err(|e| bad(*n, format!("{e}")))?;
        }
    }
    let app = App::new(store, shared.clone(), settings).await?;
    let org = app.default_org;
    let sandbox = Sandbox::start(shared).await?;
    let url = sandbox
        .url()
        .parse()
        .map_err(|_| bad(0, "sandbox address"))?;
    let bot = Bot::new(sandbox::TOKEN).set_api_url(url);
    let me = Arc::new(BotIdentity {
        id: teloxide::types::UserId(sandbox::BOT_ID as u64),
        username: sandbox::BOT_USERNAME.to_string(),
        reads_group_messages: true,
    });
    let scheduler = Scheduler::new(app.clone()).await?;
    let mut r = Runner {
        app: app.clone(),
        clock: clock.clone(),
        sandbox,
        bot,
        me,
        scheduler,
        tz: app.settings.org.timezone,
        org,
        users: HashMap::new(),
        messages: HashMap::new(),
        groups: HashMap::new(),
        last: first - chrono::Duration::seconds(1),
        update_id: 1,
        out: String::new(),
        shown: 0,
        pending: Vec::new(),
        director: None,
    };
    for line in &lines {
        r.event(line, lines[0].n).await?;
    }
    let director = r.director;
    let failed = app.store.failed_deliveries().await?;
    if !failed.is_empty() {
        return Err(ReplayError::Undelivered(
            failed
                .iter()
                .map(|(id, chat, e)| format!("delivery {id} to chat {chat}: {e}"))
                .collect::<Vec<_>>()
                .join("; "),
        ));
    }
    let json = result_json(&r).await?;
    // The chart the demo writes is the director's, the digest the contract names first.
    let chart = match director {
        Some(d) => app.store.last_photo_to(d).await?,
        None => app.store.last_photo().await?,
    };
    if opts.db.is_some() {
        // The file is what the user keeps: nothing may stay behind in its `-wal`.
        app.store.checkpoint().await?;
    }
    Ok(Outcome {
        json,
        transcript: r.out.clone(),
        chart,
    })
}

impl Runner {
    fn now(&self) -> DateTime<Utc> {
        self.app.clock.now()
    }

    /// The time of a line: its own date, else the clock's.
    fn at(&self, line: &Line) -> DateTime<Utc> {
        line.at
            .map(|t| t.with_timezone(&Utc))
            .unwrap_or_else(|| self.now())
    }

    /// A line from a person: the clock moves to its time first, then the sender is read (the
    /// user object and their id).
    async fn begin(&mut self, line: &Line, from: &From) -> Result<(Value, i64), ReplayError> {
        let at = self.at(line);
        self.advance(line.n, at).await?;
        let user = self.user_from(line.n, from).await?;
        let uid = user.get("id").and_then(Value::as_i64).unwrap_or(0);
        Ok((user, uid))
    }

    fn stamp(&self, at: DateTime<Utc>) -> String {
        at.with_timezone(&self.tz)
            .format("%a %d.%m %H:%M")
            .to_string()
    }

    /// One scenario line through the bot (`first` is the number of the file's first line).
    async fn event(&mut self, line: &Line, first: usize) -> Result<(), ReplayError> {
        let n = line.n;
        if !matches!(line.event, Event::Member { .. })
            && let Some((pn, _, _, _, Some(m))) = self.pending.first()
        {
            return Err(bad(
                *pn,
                format!("manager {m} is never introduced as a member"),
            ));
        }
        match &line.event {
            Event::Org { .. } if n == first => {}
            Event::Org { .. } => return Err(bad(n, "the org line must come first")),
            Event::Member {
                user,
                role,
                position,
                manager,
                dm_open,
            } => {
                return self
                    .member(
                        n,
                        user,
                        role.as_deref(),
                        position.as_deref(),
                        *manager,
                        *dm_open,
                    )
                    .await;
            }
            Event::Node {
                node_type,
                title,
                owner,
                description,
            } => {
                self.node(n, node_type, title, *owner, description.as_deref())
                    .await?
            }
            Event::Message {
                chat,
                id,
                from,
                text,
                reply_to,
                ..
            } => self.message(line, chat, *id, from, text, *reply_to).await?,
            Event::Edit {
                chat,
                id,
                from,
                text,
                ..
            } => {
                if !self.edit(line, chat, *id, from.as_ref(), text).await? {
                    return Ok(());
                }
            }
            Event::Clock { .. } => {
                let at = self.at(line);
                self.advance(n, at).await?;
            }
            Event::Press {
                from,
                chat,
                button,
                message,
                ..
            } => self.press(line, from, chat, button, *message).await?,
        }
        // The scheduler needs the org as soon as it exists, and a DM may change its timetable
        // (`/digest 18`).
        if matches!(&line.event, Event::Message { chat: ChatRef::Dm(_), text, .. } if text.starts_with('/'))
        {
            self.scheduler.reload().await?;
        }
        Ok(())
    }

    async fn member(
        &mut self,
        n: usize,
        user: &UserObj,
        role: Option<&str>,
        position: Option<&str>,
        manager: Option<i64>,
        dm_open: bool,
    ) -> Result<(), ReplayError> {
        let role: Role = role
            .unwrap_or("member")
            .parse()
            .map_err(|_| bad(n, "bad role"))?;
        if role == Role::Director {
            self.director.get_or_insert(UserId(user.id));
        }
        let now = self.now();
        let store = &self.app.store;
        store
            .upsert_user(
                UserId(user.id),
                user.first_name.as_deref().unwrap_or("?"),
                user.last_name.as_deref(),
                user.username.as_deref(),
                user.language_code.as_deref(),
                now,
            )
            .await?;
        // A manager may be introduced after their reports: link once they are known.
        let known = match manager {
            Some(m) => store.user(UserId(m)).await?.is_some(),
            None => true,
        };
        if !known {
            self.pending.push((
                n,
                UserId(user.id),
                role,
                position.map(str::to_string),
                manager.map(UserId),
            ));
        }
        store
            .set_member(
                self.org,
                UserId(user.id),
                role,
                position,
                manager.map(UserId).filter(|_| known),
                now,
            )
            .await?;
        store.set_dm_open(UserId(user.id), dm_open).await?;
        self.users.insert(user.id, user_json(user));
        let mut still = Vec::new();
        for (pn, who, role, position, manager) in std::mem::take(&mut self.pending) {
            if manager == Some(UserId(user.id)) {
                store
                    .set_member(self.org, who, role, position.as_deref(), manager, now)
                    .await?;
            } else {
                still.push((pn, who, role, position, manager));
            }
        }
        self.pending = still;
        Ok(())
    }

    async fn node(
        &mut self,
        n: usize,
        node_type: &str,
        title: &str,
        owner: Option<i64>,
        description: Option<&str>,
    ) -> Result<(), ReplayError> {
        let node_type = node_type.parse().map_err(|_| bad(n, "bad node_type"))?;
        if let Some(o) = owner
            && self.app.store.user(UserId(o)).await?.is_none()
        {
            return Err(bad(n, format!("node owner {o} is not a member")));
        }
        self.app
            .store
            .insert_node(&NewNode {
                org_id: self.org,
                node_type,
                title,
                description,
                owner: owner.map(UserId),
                at: self.now(),
            })
            .await?;
        Ok(())
    }

    async fn message(
        &mut self,
        line: &Line,
        chat: &ChatRef,
        id: i64,
        from: &From,
        text: &str,
        reply_to: Option<i64>,
    ) -> Result<(), ReplayError> {
        let (n, at) = (line.n, self.at(line));
        let (user, uid) = self.begin(line, from).await?;
        let chat_v = self.chat_for(n, chat, uid)?;
        let chat_id = chat_v.get("id").and_then(Value::as_i64).unwrap_or(0);
        if chat_id < 0 {
            let supergroup = chat_v.get("type").and_then(Value::as_str) == Some("supergroup");
            let title = chat_v.get("title").and_then(Value::as_str);
            let linked = crate::domain::ChatId(chat_id);
            if self.app.store.chat(linked).await?.is_none() {
                self.app
                    .store
                    .link_chat(self.org, linked, supergroup, title, at)
                    .await?;
            }
        }
        self.sandbox.register_chat(chat_v.clone());
        let who = user
            .get("first_name")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string();
        let place = if chat_id > 0 {
            "DM".to_string()
        } else {
            chat_v
                .get("title")
                .and_then(Value::as_str)
                .unwrap_or("group")
                .to_string()
        };
        let when = line
            .at
            .map(|t| self.stamp(t.with_timezone(&Utc)))
            .unwrap_or_default();
        self.out
            .push_str(&format!("{when}  {who} @ {place}: {text}\n"));
        let mut m = json!({"message_id": id, "date": at.timestamp(), "chat": chat_v, "from": user, "text": text});
        if let Some(rt) = reply_to {
            let replied = self.messages.get(&(chat_id, rt)).cloned().unwrap_or_else(
                || json!({"message_id": rt, "date": at.timestamp(), "chat": chat_v}),
            );
            m["reply_to_message"] = replied;
        }
        let mut plain = m.clone();
        if let Some(o) = plain.as_object_mut() {
            o.remove("reply_to_message");
        }
        self.messages.insert((chat_id, id), plain);
        self.dispatch(json!({"message": m})).await
    }

    /// An edit of a message the bot saw; `false` when it never saw it (the line is ignored, as
    /// Telegram would never send the bot that edit).
    async fn edit(
        &mut self,
        line: &Line,
        chat: &ChatRef,
        id: i64,
        from: Option<&From>,
        text: &str,
    ) -> Result<bool, ReplayError> {
        let n = line.n;
        let at = self.at(line);
        self.advance(n, at).await?;
        let from_id = match from {
            Some(f) => self
                .user_from(n, f)
                .await?
                .get("id")
                .and_then(Value::as_i64)
                .unwrap_or(0),
            None => 0,
        };
        let chat_id = chat.id(from_id);
        let Some(orig) = self.messages.get(&(chat_id, id)).cloned() else {
            self.out.push_str(&format!("(line {n}: edit of a message never shown — ignored, as Telegram's bot would never see it)\n"));
            return Ok(false);
        };
        let mut m = orig;
        m["text"] = json!(text);
        m["edit_date"] = json!(at.timestamp());
        self.messages.insert((chat_id, id), m.clone());
        let line = format!(
            "{}  (edit) {}: {text}\n",
            self.stamp(at),
            self.name(m["from"]["id"].as_i64().unwrap_or(0))
        );
        self.out.push_str(&line);
        self.dispatch(json!({"edited_message": m})).await?;
        Ok(true)
    }

    async fn press(
        &mut self,
        line: &Line,
        from: &From,
        chat: &ChatRef,
        button: &str,
        message: Option<i64>,
    ) -> Result<(), ReplayError> {
        let (n, at) = (line.n, self.at(line));
        let (user, uid) = self.begin(line, from).await?;
        let chat_id = chat.id(uid);
        let Some((mid, shown, data)) = self.sandbox.find_button(chat_id, button, message) else {
            let which = message
                .map(|m| format!("message {m}"))
                .unwrap_or_else(|| "no message".into());
            return Err(bad(
                n,
                format!("{which} the bot sent in chat {chat_id} carries a button {button:?}"),
            ));
        };
        let line = format!(
            "{}  {} pressed [{button}]\n",
            self.stamp(at),
            self.name(uid)
        );
        self.out.push_str(&line);
        let chat_v = self.sandbox.chat_json(chat_id);
        let query = json!({
            "id": format!("replay-{n}"),
            "from": user,
            "chat_instance": format!("replay-{chat_id}"),
            "data": data,
            "message": {"message_id": mid, "date": at.timestamp(), "chat": chat_v,
                        "from": sandbox::bot_user(), "text": shown},
        });
        self.dispatch(json!({"callback_query": query})).await
    }
}

async fn result_json(r: &Runner) -> Result<Value, ReplayError> {
    let app = &r.app;
    let tz = r.tz;
    let transcript: Vec<Value> = r
        .sandbox
        .sent()
        .iter()
        .map(|s| {
            json!({
                "at": s.at.with_timezone(&tz).to_rfc3339(),
                "chat": s.chat,
                "to_user": if s.chat > 0 { json!(s.chat) } else { Value::Null },
                "kind": s.kind,
                "text": s.text,
                "reply_to": s.reply_to,
                "buttons": s.buttons,
            })
        })
        .collect();
    let mut commitments = Vec::new();
    for h in digest::histories(app, r.org).await? {
        let c = h.current();
        let o = h.origin();
        let updates: Vec<Value> = h.versions[1..]
            .iter()
            .filter_map(|v| {
                Some(json!({"chat": v.version_chat?.0, "message": v.version_message?.0}))
            })
            .collect();
        commitments.push(json!({
            "id": c.origin_id.0,
            "owner": c.owner.0,
            "text": c.content,
            "origin": {"chat": o.source_chat.map(|x| x.0), "message": o.source_message.map(|x| x.0)},
            "updates": updates,
            "due": c.due.map(|d| d.date.to_string()),
            "due_time": c.due.and_then(|d| d.time).map(|t| t.format("%H:%M").to_string()),
            "state": c.state.as_str(),
            "confidence": c.confidence.value(),
            "author": c.author.to_string(),
            "requester": c.requester.map(|u| u.0),
        }));
    }
    let memories: Vec<Value> = app
        .store
        .all_memories(r.org)
        .await?
        .into_iter()
        .map(|m| {
            json!({
                "id": m.id.0, "subject": m.subject.0, "kind": m.kind.as_str(), "content": m.content,
                "confidence": m.confidence.value(), "author": m.author.to_string(),
                "visibility": m.visibility.as_str(), "archived": m.archived,
            })
        })
        .collect();
    let nodes: Vec<Value> = app
        .store
        .nodes(r.org)
        .await?
        .into_iter()
        .map(|n| json!({"id": n.id, "node_type": n.node_type.as_str(), "title": n.title, "slug": n.slug, "owner": n.owner.map(|u| u.0)}))
        .collect();
    Ok(
        json!({"transcript": transcript, "commitments": commitments, "memories": memories, "nodes": nodes}),
    )
}
