//! Shared harness for the black-box tests: the real app over an in-memory store, a driven clock,
//! the loopback sandbox Bot API, a teloxide `Bot` pointed at it, and builders for Telegram update
//! JSON with the Bot API's real field shapes.
//!
//! Each test module uses a different part of it.
#![allow(dead_code)]

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use chrono::{DateTime, TimeZone, Utc};
use chrono_tz::Tz;
use serde_json::{Value, json};
use teloxide::Bot;
use teloxide::types::UserId as TgUserId;

use kept::app::App;
use kept::bot::{self, BotError, BotIdentity, BotOutbox};
use kept::clock::{DrivenClock, SharedClock};
use kept::config::Settings;
use kept::domain::{ChatId, MessageId, OrgId, UserId};
use kept::sandbox::{self, Sandbox, Sent};
use kept::schedule::{ScheduleError, Scheduler, sender};
use kept::store::{Commitment, Store};

/// The admin of every test app (config `admins = [1]`).
pub const ADMIN: i64 = 1;

/// Monday 2026-11-23 10:00 in Moscow: where every harness clock starts.
pub fn monday_10_msk() -> DateTime<Utc> {
    msk(2026, 11, 23, 10, 0)
}

/// A Moscow wall-clock time as UTC.
pub fn msk(y: i32, mo: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
    local("Europe/Moscow", y, mo, d, h, mi)
}

/// A wall-clock time in `tz` as UTC.
pub fn local(tz: &str, y: i32, mo: u32, d: u32, h: u32, mi: u32) -> DateTime<Utc> {
    let tz: Tz = tz.parse().expect("timezone");
    tz.with_ymd_and_hms(y, mo, d, h, mi, 0)
        .single()
        .expect("unambiguous local time")
        .with_timezone(&Utc)
}

/// The running app with everything a black-box test touches.
pub struct TestApp {
    pub app: Arc<App>,
    pub store: Store,
    pub clock: DrivenClock,
    pub sandbox: Sandbox,
    pub bot: Bot,
    pub me: Arc<BotIdentity>,
    pub org: OrgId,
    next_update: AtomicI64,
}

/// The app with default settings (`Europe/Moscow`, `ru`) and `admins = [1]`.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(Settings::default()).await
}

/// The app with the given settings; `admins` is always `[1]`.
pub async fn spawn_app_with(mut settings: Settings) -> TestApp {
    settings.admins = vec![ADMIN];
    let clock = DrivenClock::new(monday_10_msk());
    let shared: SharedClock = Arc::new(clock.clone());
    let store = Store::temporary().await.expect("in-memory store");
    let app = App::new(store.clone(), shared.clone(), settings)
        .await
        .expect("app");
    let sandbox = Sandbox::start(shared).await.expect("sandbox");
    let bot = Bot::new(sandbox::TOKEN).set_api_url(sandbox.url().parse().expect("sandbox url"));
    let me = Arc::new(BotIdentity {
        id: TgUserId(sandbox::BOT_ID as u64),
        username: "kept_bot".to_string(),
        reads_group_messages: true,
    });
    let org = app.default_org;
    TestApp {
        app,
        store,
        clock,
        sandbox,
        bot,
        me,
        org,
        next_update: AtomicI64::new(1),
    }
}

impl TestApp {
    /// A fresh update id, as Telegram numbers them.
    pub fn update_id(&self) -> i64 {
        self.next_update.fetch_add(1, Ordering::SeqCst)
    }

    pub fn now(&self) -> DateTime<Utc> {
        kept::clock::Clock::now(&self.clock)
    }

    /// Feeds one update (JSON text) through the real handler tree.
    pub async fn dispatch(&self, json: &str) -> Result<(), BotError> {
        bot::dispatch_json(&self.bot, &self.app, &self.me, json).await
    }

    /// Feeds an update that must be accepted.
    pub async fn deliver(&self, json: &str) {
        self.dispatch(json).await.expect("update accepted");
    }

    pub fn sent(&self) -> Vec<Sent> {
        self.sandbox.sent()
    }

    /// What was sent into one chat.
    pub fn sent_to(&self, chat: i64) -> Vec<Sent> {
        self.sent().into_iter().filter(|s| s.chat == chat).collect()
    }

    pub fn outbox(&self) -> BotOutbox {
        BotOutbox(self.bot.clone())
    }

    /// A private message from `from` to the bot, dated now.
    pub async fn private(&self, from: &Value, id: i64, text: &str) {
        let m = message(&private_chat(from), from, id, self.now().timestamp(), text);
        self.sandbox.register_chat(private_chat(from));
        self.deliver(&message_update(self.update_id(), &m)).await;
    }

    /// A group message, dated now.
    pub async fn group(&self, chat: &Value, from: &Value, id: i64, text: &str) {
        let m = message(chat, from, id, self.now().timestamp(), text);
        self.sandbox.register_chat(chat.clone());
        self.deliver(&message_update(self.update_id(), &m)).await;
    }

    /// The admin starts the bot in private and links `chat` with /link.
    pub async fn admin_links(&self, chat: &Value) {
        let admin = user(ADMIN, "Анна");
        self.private(&admin, 1, "/start").await;
        self.group(chat, &admin, 1, "/link").await;
        let linked = self
            .store
            .chat(chat_id(chat))
            .await
            .expect("store")
            .expect("linked chat");
        assert!(linked.active);
    }

    /// The current versions of the commitments made in a message.
    pub async fn commitments_in(&self, chat: i64, message: i64) -> Vec<Commitment> {
        self.store
            .commitments_made_in(ChatId(chat), MessageId(message))
            .await
            .expect("store")
    }

    /// Every version of every commitment of the org.
    pub async fn versions(&self) -> Vec<Commitment> {
        self.store
            .commitment_versions(self.org)
            .await
            .expect("store")
    }

    pub async fn dm_open(&self, user: i64) -> bool {
        self.store
            .user(UserId(user))
            .await
            .expect("store")
            .expect("known user")
            .dm_open
    }

    /// A scheduler over the same app (as a restarted process would build it).
    pub async fn scheduler(&self) -> Scheduler {
        Scheduler::new(self.app.clone()).await.expect("scheduler")
    }

    /// Runs the scheduler from the current time to `to`, moving the driven clock to each run's
    /// time, as `kept replay` does; then delivers anything still due.
    pub async fn advance_to(&self, to: DateTime<Utc>) -> Result<usize, ScheduleError> {
        let s = self.scheduler().await;
        let from = self.now();
        let clock = self.clock.clone();
        let outbox = self.outbox();
        let n = s.advance(from, to, &move |t| clock.set(t), &outbox).await?;
        self.clock.set(to);
        sender::deliver_queued(&self.app, &outbox, false).await?;
        Ok(n)
    }

    /// (sent, queued, failed) deliveries.
    pub async fn delivery_counts(&self) -> (i64, i64, i64) {
        self.store.delivery_counts().await.expect("store")
    }
}

// ---------------------------------------------------------------------------------------------
// Telegram objects, with the Bot API's field names and shapes.

/// A person's `User` object.
pub fn user(id: i64, first_name: &str) -> Value {
    json!({"id": id, "is_bot": false, "first_name": first_name, "language_code": "ru"})
}

/// Another bot's `User` object.
pub fn bot_user(id: i64, first_name: &str, username: &str) -> Value {
    json!({"id": id, "is_bot": true, "first_name": first_name, "username": username})
}

/// The private `Chat` between a person and the bot (its id equals the user's id).
pub fn private_chat(user: &Value) -> Value {
    json!({"id": user["id"], "type": "private", "first_name": user["first_name"]})
}

/// A basic group `Chat`.
pub fn group_chat(id: i64, title: &str) -> Value {
    json!({"id": id, "type": "group", "title": title})
}

/// A supergroup `Chat`.
pub fn supergroup_chat(id: i64, title: &str) -> Value {
    json!({"id": id, "type": "supergroup", "title": title})
}

pub fn chat_id(chat: &Value) -> ChatId {
    ChatId(chat["id"].as_i64().expect("chat id"))
}

fn utf16_len(s: &str) -> usize {
    s.encode_utf16().count()
}

/// A text `Message`. A leading `/command` gets its `bot_command` entity, as Telegram sends it.
pub fn message(chat: &Value, from: &Value, id: i64, date: i64, text: &str) -> Value {
    let mut m = json!({
        "message_id": id,
        "from": from,
        "chat": chat,
        "date": date,
        "text": text,
    });
    if text.starts_with('/') {
        let cmd = text.split_whitespace().next().unwrap_or(text);
        m["entities"] = json!([{"type": "bot_command", "offset": 0, "length": utf16_len(cmd)}]);
    }
    m
}

/// `message` replying to `to` (the full replied-to message, as Telegram nests it).
pub fn reply(mut message: Value, to: &Value) -> Value {
    let mut inner = to.clone();
    if let Some(o) = inner.as_object_mut() {
        o.remove("reply_to_message");
    }
    message["reply_to_message"] = inner;
    message
}

/// The service message a basic group sends when it becomes a supergroup.
pub fn migrate_message(group: &Value, from: &Value, id: i64, date: i64, to: i64) -> Value {
    json!({
        "message_id": id,
        "from": from,
        "chat": group,
        "date": date,
        "migrate_to_chat_id": to,
    })
}

/// The bot's own message, as a callback query carries it.
pub fn bot_message(sent: &Sent, chat: &Value, buttons: &[(String, String)]) -> Value {
    let mut m = json!({
        "message_id": sent.message_id.expect("message id"),
        "from": sandbox::bot_user(),
        "chat": chat,
        "date": sent.at.timestamp(),
        "text": sent.text,
    });
    if !buttons.is_empty() {
        let row: Vec<Value> = buttons
            .iter()
            .map(|(text, data)| json!({"text": text, "callback_data": data}))
            .collect();
        m["reply_markup"] = json!({"inline_keyboard": [row]});
    }
    m
}

/// A `ChatMember` with a plain status (`member`, `left`, `kicked`).
pub fn chat_member(user: &Value, status: &str) -> Value {
    match status {
        "kicked" => json!({"user": user, "status": "kicked", "until_date": 0}),
        s => json!({"user": user, "status": s}),
    }
}

// ---------------------------------------------------------------------------------------------
// Updates (JSON text, as Telegram delivers them).

pub fn message_update(update_id: i64, message: &Value) -> String {
    json!({"update_id": update_id, "message": message}).to_string()
}

/// An `edited_message` update: `message` with new `text` and its `edit_date`.
pub fn edited_update(update_id: i64, message: &Value, text: &str, edit_date: i64) -> String {
    let mut m = message.clone();
    m["text"] = json!(text);
    m["edit_date"] = json!(edit_date);
    if text.starts_with('/') {
        let cmd = text.split_whitespace().next().unwrap_or(text);
        m["entities"] = json!([{"type": "bot_command", "offset": 0, "length": utf16_len(cmd)}]);
    } else if let Some(o) = m.as_object_mut() {
        o.remove("entities");
    }
    json!({"update_id": update_id, "edited_message": m}).to_string()
}

/// A `my_chat_member` update: the bot's own status in `chat` changed from `old` to `new`.
pub fn my_chat_member_update(
    update_id: i64,
    chat: &Value,
    from: &Value,
    date: i64,
    old: &str,
    new: &str,
) -> String {
    let me = sandbox::bot_user();
    json!({
        "update_id": update_id,
        "my_chat_member": {
            "chat": chat,
            "from": from,
            "date": date,
            "old_chat_member": chat_member(&me, old),
            "new_chat_member": chat_member(&me, new),
        }
    })
    .to_string()
}

/// A `callback_query` update: `from` pressed a button with `data` under the bot's `message`.
pub fn callback_update(
    update_id: i64,
    query_id: &str,
    from: &Value,
    message: &Value,
    data: &str,
) -> String {
    json!({
        "update_id": update_id,
        "callback_query": {
            "id": query_id,
            "from": from,
            "message": message,
            "chat_instance": "-5550001",
            "data": data,
        }
    })
    .to_string()
}

/// Scenario `lines` replayed through `kept replay`'s runner (Moscow, Russian, in memory, no
/// model); the `--json` result.
pub async fn replay_ru(lines: &[Value]) -> Value {
    try_replay_ru(lines).await.unwrap()
}

/// As [`replay_ru`], keeping a malformed scenario's error.
pub async fn try_replay_ru(lines: &[Value]) -> Result<Value, kept::replay::ReplayError> {
    let text: String = lines.iter().map(|l| l.to_string() + "\n").collect();
    kept::replay::run_text(
        &text,
        kept::replay::Options {
            tz: chrono_tz::Europe::Moscow,
            lang: kept::domain::Lang::Ru,
            db: None,
            llm: Default::default(),
        },
    )
    .await
    .map(|o| o.json)
}

/// In a replay result: everything the bot sent in reply to message `id`, joined.
pub fn answer_to(out: &Value, id: i64) -> String {
    out["transcript"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["reply_to"] == json!(id))
        .filter_map(|m| m["text"].as_str())
        .collect()
}

/// In a replay result: the bot's private messages to `user`, as (time, text).
pub fn dms_to(out: &Value, user: i64) -> Vec<(String, String)> {
    out["transcript"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["to_user"] == json!(user) && m["kind"] == "message")
        .map(|m| {
            (
                m["at"].as_str().unwrap_or("").to_string(),
                m["text"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// A scenario line: a private message from `from` to the bot.
pub fn dm_line(id: i64, from: i64, date: &str, text: &str) -> Value {
    json!({"type": "message", "chat": "dm", "id": id, "from": from, "date": date, "text": text})
}

/// A scenario line: a message from `from` in the group `chat` (a chat object).
pub fn group_line(chat: &Value, id: i64, from: i64, date: &str, text: &str) -> Value {
    json!({"type": "message", "chat": chat, "id": id, "from": from, "date": date, "text": text})
}

/// A team as replay lines: the `org` line, then one `member` line per person, written once
/// here instead of in every test. Everyone speaks the org's language, has their DM open and
/// reports to the first director, unless a modifier says otherwise.
pub struct Team {
    locale: String,
    lines: Vec<Value>,
}

impl Team {
    pub fn new(name: &str, timezone: &str, locale: &str) -> Team {
        Team {
            locale: locale.to_string(),
            lines: vec![
                json!({"type": "org", "name": name, "timezone": timezone, "locale": locale}),
            ],
        }
    }

    /// A Russian team in Moscow.
    pub fn ru(name: &str) -> Team {
        Team::new(name, "Europe/Moscow", "ru")
    }

    /// A person: `who` is "Имя [Фамилия] [@username]", `role` director, lead or member.
    pub fn person(mut self, id: i64, who: &str, role: &str) -> Team {
        let mut user = json!({"id": id, "language_code": self.locale});
        let mut names = Vec::new();
        for w in who.split_whitespace() {
            match w.strip_prefix('@') {
                Some(u) => user["username"] = json!(u),
                None => names.push(w),
            }
        }
        user["first_name"] = json!(names.first().copied().unwrap_or("User"));
        if names.len() > 1 {
            user["last_name"] = json!(names[1..].join(" "));
        }
        let mut line = json!({"type": "member", "user": user, "role": role, "dm_open": true});
        let director = self.lines.iter().find_map(|l| {
            (l["type"] == "member" && l["role"] == "director").then(|| l["user"]["id"].clone())
        });
        if role != "director"
            && let Some(d) = director
        {
            line["manager"] = d;
        }
        self.lines.push(line);
        self
    }

    pub fn director(self, id: i64, who: &str) -> Team {
        self.person(id, who, "director")
    }

    pub fn lead(self, id: i64, who: &str) -> Team {
        self.person(id, who, "lead")
    }

    pub fn member(self, id: i64, who: &str) -> Team {
        self.person(id, who, "member")
    }

    /// The last person added reports to `manager` instead.
    pub fn reports_to(mut self, manager: i64) -> Team {
        if let Some(l) = self.lines.last_mut() {
            l["manager"] = json!(manager);
        }
        self
    }

    /// The last person added never started the bot: their DM is closed.
    pub fn dm_closed(mut self) -> Team {
        if let Some(l) = self.lines.last_mut()
            && let Some(o) = l.as_object_mut()
        {
            o.remove("dm_open");
        }
        self
    }

    /// The team's lines, then `rest`.
    pub fn then(self, rest: impl IntoIterator<Item = Value>) -> Vec<Value> {
        let mut lines = self.lines;
        lines.extend(rest);
        lines
    }
}

/// (owner, text, due, state, origin message) of every commitment of a replay's JSON result.
pub fn held(out: &Value) -> Vec<(i64, String, Option<String>, String, i64)> {
    out["commitments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["owner"].as_i64().unwrap(),
                c["text"].as_str().unwrap().to_string(),
                c["due"].as_str().map(str::to_string),
                c["state"].as_str().unwrap().to_string(),
                c["origin"]["message"].as_i64().unwrap(),
            )
        })
        .collect()
}
