//! `kept import`: a Telegram Desktop export (JSON) of the team's group chats, read and checked whole first, then written through the one ingest path.
//!
//! Reading ([`parse`]) is pure: every problem is reported with the JSON path where it is
//! ("messages[17].from_id: ..."), and nothing has been written when it is. Writing ([`import`])
//! sends the messages, oldest first across all chats, through [`Ingest::messages`] in batches,
//! exactly as live updates go, so a second import of the same file adds nothing (ingest skips a
//! stored (chat, message) pair).
//!
//! History brings promises whose deadlines passed long ago. They are imported as they are (open,
//! visible in answers and summaries), but a version due more than [`STALE_DAYS`] days before the
//! day of the import is muted for reminders (`reminder_mutes`): nobody wants a morning
//! reminder of last spring's deadline. A later move, snooze or edit makes a new version, which is
//! reminded again.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Duration, NaiveDate, NaiveDateTime, TimeZone, Utc};
use serde_json::{Map, Value};

use crate::config::{ConfigError, Settings};
use crate::domain::{ChatId, MessageId, OrgId, UserId};
use crate::ingest::{Effect, Incoming, Ingest, IngestError};
use crate::store::{Org, Store, StoreError, Stored};

/// A promise due more than this many days before the import day is not reminded.
pub const STALE_DAYS: i64 = 14;

/// Messages per write transaction: the size the ingest benchmark is measured at.
const BATCH: usize = 1000;

/// A basic group's id in the export lacks the sign; a supergroup's also lacks the `-100`.
const SUPERGROUP_BASE: i64 = 1_000_000_000_000;

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("cannot read {}", path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("not JSON: {0}")]
    Json(#[source] serde_json::Error),
    /// The file is JSON but not a Telegram export kept can read.
    #[error("{path}: {what}")]
    Malformed { path: String, what: String },
    #[error("there is no org {0} in the database")]
    NoOrg(OrgId),
    #[error("chat {chat} is linked to org {other}, not to org {org}: import it with --org {other}")]
    ChatElsewhere {
        chat: ChatId,
        org: OrgId,
        other: OrgId,
    },
    #[error("configuration")]
    Config(#[from] ConfigError),
    #[error("storage")]
    Store(#[from] StoreError),
    #[error("ingest")]
    Ingest(#[from] IngestError),
}

fn bad(path: impl Into<String>, what: impl Into<String>) -> ImportError {
    ImportError::Malformed {
        path: path.into(),
        what: what.into(),
    }
}

/// Everything importable in one export file.
#[derive(Debug, Clone, PartialEq)]
pub struct Export {
    pub chats: Vec<ChatExport>,
    /// Chats of an account export that are not groups (personal chats, channels, bots).
    pub chats_skipped: usize,
}

/// One group chat of the export.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatExport {
    /// As the Bot API numbers it (`-100…` for a supergroup).
    pub id: ChatId,
    pub title: Option<String>,
    pub supergroup: bool,
    /// The messages to import, in the export's order.
    pub messages: Vec<ExportMessage>,
    pub skipped: Skipped,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ExportMessage {
    pub id: MessageId,
    pub from: UserId,
    /// The author's name as the export shows it (`from`; null for a deleted account).
    pub from_name: Option<String>,
    pub at: When,
    /// Plain text: entity arrays concatenated, a media message's caption.
    pub text: String,
    pub reply_to: Option<MessageId>,
    /// Users named through mention entities (`mention_name` carries the id).
    pub mentions: Vec<UserId>,
}

/// When a message was sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// `date_unixtime`: the exact instant.
    Unix(DateTime<Utc>),
    /// Only `date`, the exporting computer's wall clock: read in the org's timezone.
    Local(NaiveDateTime),
}

impl When {
    fn resolve(self, tz: chrono_tz::Tz) -> DateTime<Utc> {
        match self {
            When::Unix(t) => t,
            When::Local(n) => tz
                .from_local_datetime(&n)
                .earliest()
                // A wall-clock time in a spring-forward gap: an hour later exists.
                .or_else(|| tz.from_local_datetime(&(n + Duration::hours(1))).earliest())
                .map(|t| t.with_timezone(&Utc))
                .unwrap_or_else(|| Utc.from_utc_datetime(&n)),
        }
    }
}

/// Messages of the export that are not imported, by reason.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Skipped {
    /// Joins, pins, calls, title changes… (and any type other than "message").
    pub service: usize,
    /// Stickers, polls, media without a caption, empty texts.
    pub no_text: usize,
    /// Someone else's words: a promise in them is not the forwarder's.
    pub forwarded: usize,
    /// Posted as a channel or anonymous admin (`from_id` "channel…"): no person to hold to it.
    pub not_a_person: usize,
}

impl Skipped {
    fn total(&self) -> usize {
        self.service + self.no_text + self.forwarded + self.not_a_person
    }

    fn add(&mut self, o: &Skipped) {
        self.service += o.service;
        self.no_text += o.no_text;
        self.forwarded += o.forwarded;
        self.not_a_person += o.not_a_person;
    }
}

/// Reads an export: one chat's `result.json` or the whole account's (`chats.list`).
pub fn parse(text: &str) -> Result<Export, ImportError> {
    let root: Value = serde_json::from_str(text).map_err(ImportError::Json)?;
    let Value::Object(obj) = &root else {
        return Err(bad(
            "(top level)",
            format!("expected an object, found {}", kind(&root)),
        ));
    };
    if obj.contains_key("messages") {
        let chat = chat(obj, "", true)?.ok_or_else(|| bad("type", "not a group chat"))?;
        return Ok(Export {
            chats: vec![chat],
            chats_skipped: 0,
        });
    }
    let Some(chats) = obj.get("chats") else {
        return Err(bad(
            "(top level)",
            "neither `messages` (one chat's export) nor `chats.list` (the whole account's): \
             not a Telegram Desktop JSON export",
        ));
    };
    let list = chats
        .as_object()
        .ok_or_else(|| {
            bad(
                "chats",
                format!("expected an object, found {}", kind(chats)),
            )
        })?
        .get("list")
        .ok_or_else(|| bad("chats.list", "missing"))?;
    let list = list.as_array().ok_or_else(|| {
        bad(
            "chats.list",
            format!("expected an array, found {}", kind(list)),
        )
    })?;
    let mut out = Export {
        chats: Vec::new(),
        chats_skipped: 0,
    };
    let mut seen: HashMap<ChatId, usize> = HashMap::new();
    for (i, c) in list.iter().enumerate() {
        let at = format!("chats.list[{i}]");
        let c = c
            .as_object()
            .ok_or_else(|| bad(&at, format!("expected an object, found {}", kind(c))))?;
        match chat(c, &format!("{at}."), false)? {
            Some(chat) => {
                if let Some(first) = seen.insert(chat.id, i) {
                    return Err(bad(
                        format!("{at}.id"),
                        format!("chat {} already exported as chats.list[{first}]", chat.id),
                    ));
                }
                out.chats.push(chat);
            }
            None => out.chats_skipped += 1,
        }
    }
    Ok(out)
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `prefix` is "" for a one-chat export, "chats.list[3]." in an account export. `None`: a chat
/// that is not a group, skipped in an account export (a one-chat export of one is an error).
fn chat(
    obj: &Map<String, Value>,
    prefix: &str,
    single: bool,
) -> Result<Option<ChatExport>, ImportError> {
    let p = |f: &str| format!("{prefix}{f}");
    let ty = match obj.get("type") {
        Some(Value::String(s)) => s.as_str(),
        Some(v) => {
            return Err(bad(
                p("type"),
                format!("expected a string, found {}", kind(v)),
            ));
        }
        None => return Err(bad(p("type"), "missing")),
    };
    let supergroup = match ty {
        "private_supergroup" | "public_supergroup" => true,
        "private_group" => false,
        other if single => {
            return Err(bad(
                p("type"),
                format!("{other:?} is not a group chat: kept imports groups and supergroups"),
            ));
        }
        _ => return Ok(None),
    };
    let raw_id = match obj.get("id") {
        Some(v) => v.as_i64().ok_or_else(|| {
            bad(
                p("id"),
                format!("expected an integer chat id, found {}", show(v)),
            )
        })?,
        None => return Err(bad(p("id"), "missing")),
    };
    if raw_id <= 0 || raw_id >= SUPERGROUP_BASE {
        return Err(bad(
            p("id"),
            format!(
                "{raw_id} is not a Telegram group id (1…{})",
                SUPERGROUP_BASE - 1
            ),
        ));
    }
    let id = if supergroup {
        ChatId(-(SUPERGROUP_BASE + raw_id))
    } else {
        ChatId(-raw_id)
    };
    let title = match obj.get("name") {
        Some(Value::String(s)) => Some(s.clone()),
        None | Some(Value::Null) => None,
        Some(v) => {
            return Err(bad(
                p("name"),
                format!("expected a string, found {}", kind(v)),
            ));
        }
    };
    let messages = match obj.get("messages") {
        Some(Value::Array(a)) => a,
        Some(v) => {
            return Err(bad(
                p("messages"),
                format!("expected an array, found {}", kind(v)),
            ));
        }
        None => return Err(bad(p("messages"), "missing")),
    };
    let mut out = ChatExport {
        id,
        title,
        supergroup,
        messages: Vec::with_capacity(messages.len()),
        skipped: Skipped::default(),
    };
    let mut ids: HashMap<i64, usize> = HashMap::with_capacity(messages.len());
    for (i, m) in messages.iter().enumerate() {
        let at = format!("{prefix}messages[{i}]");
        if let Some(m) = message(m, &at, &mut out.skipped)? {
            if let Some(first) = ids.insert(m.id.0, i) {
                return Err(bad(
                    format!("{at}.id"),
                    format!(
                        "message {} is already {prefix}messages[{first}]: one id for two messages",
                        m.id
                    ),
                ));
            }
            out.messages.push(m);
        }
    }
    Ok(Some(out))
}

/// A value for an error message: short, never a whole message text.
fn show(v: &Value) -> String {
    match v {
        Value::String(s) if s.chars().count() <= 40 => format!("{s:?}"),
        Value::String(_) => "a long string".into(),
        Value::Number(n) => n.to_string(),
        other => kind(other).into(),
    }
}

/// A Telegram message id: positive and within a signed 32-bit integer (as the Bot API has it).
fn message_id(v: &Value, path: &str) -> Result<MessageId, ImportError> {
    match v.as_i64() {
        Some(n) if n > 0 && n <= i64::from(i32::MAX) => Ok(MessageId(n)),
        Some(n) => Err(bad(
            path,
            format!("message id {n} is outside 1…{}", i32::MAX),
        )),
        None => Err(bad(
            path,
            format!("expected an integer message id, found {}", show(v)),
        )),
    }
}

fn message(
    v: &Value,
    at: &str,
    skipped: &mut Skipped,
) -> Result<Option<ExportMessage>, ImportError> {
    let p = |f: &str| format!("{at}.{f}");
    let obj = v
        .as_object()
        .ok_or_else(|| bad(at, format!("expected an object, found {}", kind(v))))?;
    let id = message_id(
        obj.get("id").ok_or_else(|| bad(p("id"), "missing"))?,
        &p("id"),
    )?;
    match obj.get("type") {
        Some(Value::String(t)) if t == "message" => {}
        Some(Value::String(_)) => {
            skipped.service += 1;
            return Ok(None);
        }
        Some(v) => {
            return Err(bad(
                p("type"),
                format!("expected a string, found {}", kind(v)),
            ));
        }
        None => return Err(bad(p("type"), "missing")),
    }
    let from = match obj.get("from_id") {
        Some(Value::String(s)) => s.as_str(),
        Some(v) => {
            return Err(bad(
                p("from_id"),
                format!("expected \"user<digits>\", found {}", show(v)),
            ));
        }
        None => return Err(bad(p("from_id"), "missing")),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let from = if let Some(d) = from.strip_prefix("user").filter(|d| digits(d)) {
        match d.parse::<i64>() {
            Ok(n) if n > 0 => UserId(n),
            _ => {
                return Err(bad(
                    p("from_id"),
                    format!("{from:?} is not a Telegram user id (positive)"),
                ));
            }
        }
    } else if from.strip_prefix("channel").is_some_and(digits) {
        skipped.not_a_person += 1;
        return Ok(None);
    } else {
        return Err(bad(
            p("from_id"),
            format!(
                "expected \"user<digits>\" (or \"channel<digits>\"), found {}",
                show(&Value::String(from.to_string()))
            ),
        ));
    };
    let from_name = match obj.get("from") {
        Some(Value::String(s)) => Some(s.trim().to_string()).filter(|s| !s.is_empty()),
        None | Some(Value::Null) => None,
        Some(v) => {
            return Err(bad(
                p("from"),
                format!("expected a string, found {}", kind(v)),
            ));
        }
    };
    let when = match (obj.get("date_unixtime"), obj.get("date")) {
        (Some(v), _) => {
            let secs = match v {
                Value::String(s) if digits(s) => s.parse::<i64>().ok(),
                Value::Number(n) => n.as_i64().filter(|n| *n >= 0),
                _ => None,
            };
            let t = secs
                .and_then(|s| DateTime::from_timestamp(s, 0))
                .ok_or_else(|| {
                    bad(
                        p("date_unixtime"),
                        format!("expected seconds since 1970 as a string, found {}", show(v)),
                    )
                })?;
            When::Unix(t)
        }
        (None, Some(v)) => {
            let t = v
                .as_str()
                .and_then(|s| NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S").ok())
                .ok_or_else(|| {
                    bad(
                        p("date"),
                        format!("expected \"YYYY-MM-DDTHH:MM:SS\", found {}", show(v)),
                    )
                })?;
            When::Local(t)
        }
        (None, None) => return Err(bad(p("date_unixtime"), "missing (and no `date` either)")),
    };
    let mut mentions = Vec::new();
    let text = match obj.get("text") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => {
            let mut text = String::new();
            for (j, part) in parts.iter().enumerate() {
                match part {
                    Value::String(s) => text.push_str(s),
                    Value::Object(e) => {
                        let ep = format!("{at}.text[{j}]");
                        match e.get("text") {
                            Some(Value::String(s)) => text.push_str(s),
                            Some(v) => {
                                return Err(bad(
                                    format!("{ep}.text"),
                                    format!("expected a string, found {}", kind(v)),
                                ));
                            }
                            None => return Err(bad(format!("{ep}.text"), "missing")),
                        }
                        if e.get("type").and_then(Value::as_str) == Some("mention_name")
                            && let Some(u) = e.get("user_id").and_then(Value::as_i64)
                            && u > 0
                        {
                            mentions.push(UserId(u));
                        }
                    }
                    other => {
                        return Err(bad(
                            format!("{at}.text[{j}]"),
                            format!(
                                "expected a string or an entity object, found {}",
                                kind(other)
                            ),
                        ));
                    }
                }
            }
            text
        }
        Some(v) => {
            return Err(bad(
                p("text"),
                format!("expected a string or an array, found {}", kind(v)),
            ));
        }
    };
    let reply_to = match obj.get("reply_to_message_id") {
        None | Some(Value::Null) => None,
        Some(v) => Some(message_id(v, &p("reply_to_message_id"))?),
    }
    // A reply to a message of another chat: that id means nothing here.
    .filter(|_| !obj.contains_key("reply_to_peer_id"));
    if obj.contains_key("forwarded_from") {
        skipped.forwarded += 1;
        return Ok(None);
    }
    if text.trim().is_empty() {
        skipped.no_text += 1;
        return Ok(None);
    }
    Ok(Some(ExportMessage {
        id,
        from,
        from_name,
        at: when,
        text,
        reply_to,
        mentions,
    }))
}

/// `--since`: a calendar day.
pub fn parse_day(s: &str) -> Result<NaiveDate, String> {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").map_err(|_| format!("expected YYYY-MM-DD, got {s:?}"))
}

/// What an import is asked to do besides the file.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The org to import into; the default org when `None`.
    pub org: Option<OrgId>,
    /// Messages sent before this day (in the org's timezone) are skipped.
    pub since: Option<NaiveDate>,
    /// Draw a progress bar on stderr (only ever drawn when stderr is a terminal).
    pub progress: bool,
}

/// What an import did, printed at its end.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Summary {
    pub org: OrgId,
    pub chats: usize,
    pub chats_skipped: usize,
    /// Messages written now.
    pub imported: usize,
    /// Messages that were in the database already (a second import).
    pub already: usize,
    pub skipped: Skipped,
    pub before_since: usize,
    /// Distinct authors of imported messages; how many of them joined the org now.
    pub people: usize,
    pub people_new: usize,
    pub created: usize,
    pub moved: usize,
    pub done: usize,
    pub cancelled: usize,
    /// Open promises of the org after the import, and of them the ones muted for reminders.
    pub open: i64,
    pub not_reminded: i64,
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "org: {}", self.org)?;
        write!(f, "chats: {}", self.chats)?;
        if self.chats_skipped > 0 {
            write!(f, " ({} skipped: not group chats)", self.chats_skipped)?;
        }
        writeln!(f)?;
        let s = &self.skipped;
        writeln!(
            f,
            "messages: {} imported, {} already there, {} skipped ({} service, {} without text, \
             {} forwarded, {} from channels, {} before --since)",
            self.imported,
            self.already,
            s.total() + self.before_since,
            s.service,
            s.no_text,
            s.forwarded,
            s.not_a_person,
            self.before_since
        )?;
        writeln!(
            f,
            "people: {} ({} new in the org)",
            self.people, self.people_new
        )?;
        writeln!(
            f,
            "promises captured: {} (moved {}, done {}, cancelled {})",
            self.created, self.moved, self.done, self.cancelled
        )?;
        writeln!(
            f,
            "open now: {} ({} not reminded: due more than {STALE_DAYS} days before an import)",
            self.open, self.not_reminded
        )
    }
}

/// Splits the export's display name into first and last name at the first space.
fn names(shown: Option<&str>, id: UserId) -> (String, Option<String>) {
    match shown.map(str::trim).filter(|s| !s.is_empty()) {
        Some(s) => match s.split_once(' ') {
            Some((first, last)) if !last.trim().is_empty() => {
                (first.to_string(), Some(last.trim().to_string()))
            }
            _ => (s.to_string(), None),
        },
        // A deleted account: the export has no name for it.
        None => (format!("user {id}"), None),
    }
}

/// Writes a parsed export into `store`, through the same ingest as live messages.
pub async fn import(
    store: &Store,
    settings: &Settings,
    export: &Export,
    opts: &Options,
    now: DateTime<Utc>,
) -> Result<Summary, ImportError> {
    let org_id = match opts.org {
        Some(id) => {
            if !store.orgs().await?.contains(&id) {
                return Err(ImportError::NoOrg(id));
            }
            id
        }
        None => {
            store
                .default_org(
                    &settings.org.name,
                    settings.org.timezone,
                    settings.org.locale,
                    now,
                )
                .await?
        }
    };
    let org: Org = store.org(org_id).await?;
    // A chat already linked elsewhere stays there: refuse before anything is written.
    let mut linked = HashSet::new();
    for c in &export.chats {
        if let Some(existing) = store.chat(c.id).await? {
            if existing.org_id != org.id {
                return Err(ImportError::ChatElsewhere {
                    chat: c.id,
                    org: org.id,
                    other: existing.org_id,
                });
            }
            linked.insert(c.id);
        }
    }

    let mut summary = Summary {
        org: org.id,
        chats: export.chats.len(),
        chats_skipped: export.chats_skipped,
        ..Summary::default()
    };
    // Oldest first across chats: a promise made in one chat may be closed in another.
    let mut order: Vec<(DateTime<Utc>, usize, usize)> = Vec::new();
    for (ci, c) in export.chats.iter().enumerate() {
        summary.skipped.add(&c.skipped);
        for (mi, m) in c.messages.iter().enumerate() {
            let at = m.at.resolve(org.timezone);
            if opts
                .since
                .is_some_and(|d| at.with_timezone(&org.timezone).date_naive() < d)
            {
                summary.before_since += 1;
                continue;
            }
            order.push((at, ci, mi));
        }
    }
    order.sort_by_key(|&(at, ci, mi)| (at, ci, export.chats[ci].messages[mi].id));

    // People first (ingest reads names and roles from the org's members), by first message.
    let mut authors: Vec<UserId> = Vec::new();
    let mut first: HashMap<UserId, (&ExportMessage, DateTime<Utc>)> = HashMap::new();
    for &(at, ci, mi) in &order {
        let m = &export.chats[ci].messages[mi];
        first.entry(m.from).or_insert_with(|| {
            authors.push(m.from);
            (m, at)
        });
    }
    summary.people = authors.len();
    for u in &authors {
        let (m, at) = first[u];
        // A known user keeps the names Telegram gave the bot: the export's may be the exporter's
        // contact name for them, and it has no username.
        if store.user(*u).await?.is_none() {
            let (first_name, last_name) = names(m.from_name.as_deref(), *u);
            store
                .upsert_user(*u, &first_name, last_name.as_deref(), None, None, now)
                .await?;
        }
        if store.ensure_member(org.id, *u, at).await? {
            summary.people_new += 1;
        }
    }
    for c in &export.chats {
        if !linked.contains(&c.id) {
            store
                .link_chat(org.id, c.id, c.supergroup, c.title.as_deref(), now)
                .await?;
        }
    }

    let people = store.people(org.id).await?;
    let names = crate::ingest::extract_people(&people);
    let ingest = Ingest {
        store,
        org: &org,
        people: &people,
        names: &names,
        // History is read by rules alone: a year of chat would spend the model's budget on
        // promises long kept or broken.
        refine: false,
    };
    let stale_before = now.with_timezone(&org.timezone).date_naive() - Duration::days(STALE_DAYS);
    let bar = progress(opts.progress, order.len() as u64);
    for chunk in order.chunks(BATCH) {
        let batch: Vec<Incoming<'_>> = chunk
            .iter()
            .map(|&(at, ci, mi)| {
                let c = &export.chats[ci];
                let m = &c.messages[mi];
                Incoming {
                    chat: c.id,
                    message: m.id,
                    from: m.from,
                    date: at,
                    text: &m.text,
                    reply_to: m.reply_to,
                    mentions: &m.mentions,
                }
            })
            .collect();
        for outcome in ingest.messages(&batch).await? {
            match outcome.stored {
                Stored::Duplicate => summary.already += 1,
                _ => summary.imported += 1,
            }
            for e in &outcome.effects {
                match e {
                    Effect::Created(_) => summary.created += 1,
                    Effect::Moved(_) => summary.moved += 1,
                    Effect::Done(_) => summary.done += 1,
                    Effect::Cancelled(_) => summary.cancelled += 1,
                }
            }
        }
        // Also for messages stored by an earlier, interrupted run: the mute is decided by the
        // versions those messages wrote, not by what this run saw happen.
        let keys: Vec<(ChatId, MessageId)> = batch.iter().map(|m| (m.chat, m.message)).collect();
        store
            .mute_reminders(org.id, &keys, stale_before, now)
            .await?;
        bar.inc(chunk.len() as u64);
    }
    bar.finish_and_clear();
    (summary.open, summary.not_reminded) = store.open_commitment_counts(org.id).await?;
    tracing::info!(
        org = %org.id,
        imported = summary.imported,
        already = summary.already,
        promises = summary.created,
        "import done"
    );
    Ok(summary)
}

fn progress(draw: bool, len: u64) -> indicatif::ProgressBar {
    if !draw {
        return indicatif::ProgressBar::hidden();
    }
    // `stderr()` draws nothing when stderr is not a terminal (a pipe, a file, CI).
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(len),
        indicatif::ProgressDrawTarget::stderr(),
    );
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:40} {human_pos}/{human_len} messages ({eta} left)",
    ) {
        bar.set_style(style);
    }
    bar
}

/// `kept import`: reads and checks `file` whole, then opens the database (`db`, else the
/// configured one) and imports. A malformed file fails before the database is touched.
pub async fn run(
    file: &Path,
    db: Option<&Path>,
    settings: &Settings,
    opts: &Options,
) -> Result<Summary, ImportError> {
    let text = std::fs::read_to_string(file).map_err(|source| ImportError::Read {
        path: file.to_path_buf(),
        source,
    })?;
    let export = parse(&text)?;
    drop(text);
    let path = match db {
        Some(p) => p.to_path_buf(),
        None => {
            settings.ensure_data_dir()?;
            settings.database_path()
        }
    };
    let store = Store::open(&path).await?;
    let out = import(&store, settings, &export, opts, Utc::now()).await;
    store.close().await;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one_chat(messages: &str) -> String {
        format!(
            r#"{{"name": "Команда", "type": "private_supergroup", "id": 1987654321, "messages": [{messages}]}}"#
        )
    }

    const HELLO: &str = r#"{"id": 1, "type": "message", "date": "2026-08-03T10:00:00",
        "date_unixtime": "1785740400", "from": "Дмитрий Орлов", "from_id": "user101",
        "text": "Доделаю отчёт до пятницы"}"#;

    fn err(text: &str) -> String {
        parse(text).unwrap_err().to_string()
    }

    #[test]
    fn a_supergroup_gets_the_bot_api_id_and_its_messages() {
        let e = parse(&one_chat(HELLO)).unwrap();
        assert_eq!(e.chats.len(), 1);
        let c = &e.chats[0];
        assert_eq!(c.id, ChatId(-1_001_987_654_321));
        assert!(c.supergroup);
        assert_eq!(c.title.as_deref(), Some("Команда"));
        let m = &c.messages[0];
        assert_eq!((m.id, m.from), (MessageId(1), UserId(101)));
        assert_eq!(m.from_name.as_deref(), Some("Дмитрий Орлов"));
        assert_eq!(m.text, "Доделаю отчёт до пятницы");
        assert_eq!(
            m.at,
            When::Unix(DateTime::from_timestamp(1_785_740_400, 0).unwrap())
        );
    }

    #[test]
    fn a_basic_group_is_negated_only() {
        let text = one_chat(HELLO).replace("private_supergroup", "private_group");
        let e = parse(&text).unwrap();
        assert_eq!(e.chats[0].id, ChatId(-1_987_654_321));
        assert!(!e.chats[0].supergroup);
    }

    #[test]
    fn entity_arrays_are_concatenated_and_mention_names_kept() {
        let m = r#"{"id": 5, "type": "message", "date_unixtime": "1785740400", "from": "Лена",
            "from_id": "user102", "reply_to_message_id": 1,
            "text": [{"type": "mention_name", "text": "Дима", "user_id": 101}, ", ",
                     {"type": "bold", "text": "отчёт"}, " жду к среде"]}"#;
        let e = parse(&one_chat(m)).unwrap();
        let m = &e.chats[0].messages[0];
        assert_eq!(m.text, "Дима, отчёт жду к среде");
        assert_eq!(m.mentions, vec![UserId(101)]);
        assert_eq!(m.reply_to, Some(MessageId(1)));
    }

    #[test]
    fn the_local_date_is_used_only_without_date_unixtime() {
        let m = r#"{"id": 2, "type": "message", "date": "2026-08-03T10:00:00",
            "from": "Лена", "from_id": "user102", "text": "привет"}"#;
        let e = parse(&one_chat(m)).unwrap();
        let at = e.chats[0].messages[0].at;
        assert_eq!(
            at,
            When::Local(
                NaiveDateTime::parse_from_str("2026-08-03T10:00:00", "%Y-%m-%dT%H:%M:%S").unwrap()
            )
        );
        // Moscow is UTC+3 all year.
        assert_eq!(
            at.resolve(chrono_tz::Europe::Moscow).to_rfc3339(),
            "2026-08-03T07:00:00+00:00"
        );
    }

    #[test]
    fn service_empty_forwarded_and_channel_messages_are_counted_not_kept() {
        let ms = r#"{"id": 1, "type": "service", "date_unixtime": "1785740400", "actor": "Дима",
                "actor_id": "user101", "action": "invite_members", "text": ""},
            {"id": 2, "type": "message", "date_unixtime": "1785740401", "from": "Дима",
                "from_id": "user101", "photo": "photos/1.jpg", "text": ""},
            {"id": 3, "type": "message", "date_unixtime": "1785740402", "from": "Дима",
                "from_id": "user101", "file": "stickers/s.webp", "media_type": "sticker",
                "sticker_emoji": "👍", "text": ""},
            {"id": 4, "type": "message", "date_unixtime": "1785740403", "from": "Дима",
                "from_id": "user101", "forwarded_from": "Кто-то", "text": "сделаю завтра"},
            {"id": 5, "type": "message", "date_unixtime": "1785740404", "from": "Канал",
                "from_id": "channel77", "text": "новости"},
            {"id": 6, "type": "message", "date_unixtime": "1785740405", "from": "Дима",
                "from_id": "user101", "photo": "photos/2.jpg", "text": "Схема стенда, пришлю описание завтра"}"#;
        let e = parse(&one_chat(ms)).unwrap();
        let c = &e.chats[0];
        assert_eq!(
            c.skipped,
            Skipped {
                service: 1,
                no_text: 2,
                forwarded: 1,
                not_a_person: 1
            }
        );
        assert_eq!(c.messages.len(), 1);
        assert_eq!(c.messages[0].text, "Схема стенда, пришлю описание завтра");
    }

    #[test]
    fn an_account_export_keeps_groups_and_skips_personal_chats() {
        let text = format!(
            r#"{{"about": "...", "chats": {{"about": "...", "list": [
                {{"name": "Мама", "type": "personal_chat", "id": 555, "messages": []}},
                {one},
                {{"name": "Новости", "type": "public_channel", "id": 777, "messages": []}},
                {{"name": "Склад", "type": "private_group", "id": 4242, "messages": [{HELLO}]}}
            ]}}}}"#,
            one = one_chat(HELLO)
        );
        let e = parse(&text).unwrap();
        assert_eq!(e.chats_skipped, 2);
        let ids: Vec<ChatId> = e.chats.iter().map(|c| c.id).collect();
        assert_eq!(ids, vec![ChatId(-1_001_987_654_321), ChatId(-4242)]);
    }

    #[test]
    fn errors_name_the_json_path() {
        let m = HELLO.replace(r#""user101""#, r#""bob""#);
        let e = err(&one_chat(&m));
        assert!(
            e.starts_with(r#"messages[0].from_id: expected "user<digits>""#),
            "{e}"
        );
        let account = format!(
            r#"{{"chats": {{"list": [{{"type": "personal_chat", "id": 1, "messages": []}}, {}]}}}}"#,
            one_chat(&format!("{HELLO}, {m}"))
        );
        let e = err(&account);
        assert!(e.starts_with("chats.list[1].messages[1].from_id:"), "{e}");
        let e = err(&one_chat(&HELLO.replace("user101", "user0")));
        assert!(
            e.starts_with("messages[0].from_id:") && e.contains("positive"),
            "{e}"
        );
        let e = err(&one_chat(
            &HELLO.replace(r#""id": 1,"#, r#""id": 3000000000,"#),
        ));
        assert!(
            e.starts_with("messages[0].id:") && e.contains("outside"),
            "{e}"
        );
        let e = err(&one_chat(&format!("{HELLO}, {HELLO}")));
        assert!(
            e.starts_with("messages[1].id:") && e.contains("messages[0]"),
            "{e}"
        );
        let e = err(&one_chat(&HELLO.replace(r#""1785740400""#, r#""soon""#)));
        assert!(e.starts_with("messages[0].date_unixtime:"), "{e}");
        let e = err(&one_chat(
            &HELLO.replace(r#""Доделаю отчёт до пятницы""#, r#"[{"type": "bold"}]"#),
        ));
        assert!(e.starts_with("messages[0].text[0].text: missing"), "{e}");
        let e = err(&one_chat(HELLO).replace("private_supergroup", "personal_chat"));
        assert!(e.starts_with("type:") && e.contains("not a group"), "{e}");
        let e = err(r#"{"chats": {"list": 3}}"#);
        assert!(e.starts_with("chats.list: expected an array"), "{e}");
        assert!(err("[1, 2]").starts_with("(top level): expected an object"));
        assert!(err("{\"messages\": [").starts_with("not JSON"));
    }

    #[test]
    fn a_reply_into_another_chat_is_no_reply_here() {
        let m = HELLO.replace(
            r#""text":"#,
            r#""reply_to_message_id": 9, "reply_to_peer_id": "channel5", "text":"#,
        );
        let e = parse(&one_chat(&m)).unwrap();
        assert_eq!(e.chats[0].messages[0].reply_to, None);
    }

    #[test]
    fn names_split_at_the_first_space() {
        assert_eq!(
            names(Some("Анна Мария Беккер"), UserId(1)),
            ("Анна".to_string(), Some("Мария Беккер".to_string()))
        );
        assert_eq!(names(Some("John"), UserId(1)), ("John".to_string(), None));
        assert_eq!(names(None, UserId(7)), ("user 7".to_string(), None));
    }

    #[test]
    fn since_takes_a_calendar_day() {
        assert_eq!(
            parse_day("2026-08-03"),
            Ok(NaiveDate::from_ymd_opt(2026, 8, 3).unwrap())
        );
        assert!(parse_day("03.08.2026").is_err());
    }
}
