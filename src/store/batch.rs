//! One write transaction for a batch of messages and what they say about commitments.
//!
//! Capture reads and writes a little per message. A `Batch` holds the write lock (`BEGIN
//! IMMEDIATE`) of kept's own writing connection (store/writer.rs, on the calling thread) for the
//! whole batch, so it can number new rows itself and write every queued row when it commits.
//! Reads here go to the database as it stood before the batch; what the batch itself wrote is
//! the caller's to overlay (see `ingest::Ledger`).

use std::collections::HashSet;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use rusqlite::params;
use serde_json::{Value, json};

use super::context::OpenModel;
use super::memories::{
    COMMITMENTS_MADE_IN, COMMITMENTS_OF_MESSAGE, MEMORY_SEARCH_BACKLOG, commitments_by,
    index_memories, upsert_memory_on,
};
use super::messages::{SEARCH_BACKLOG, index_messages, message_from_row};
use super::read;
use super::writer::WriteTx;
use super::{
    Commitment, CommitmentChange, NewCommitment, NewMemory, NewMessage, Result, Store,
    StoredMessage, ts,
};
use crate::domain::{
    ChatId, CommitmentState, Due, MemoryId, MemoryKind, MessageId, OrgId, UserId, normalize_content,
};

/// A memory of another kind, queued (owned copy of [`NewMemory`]).
#[derive(Debug, Clone)]
struct QueuedMemory {
    org_id: OrgId,
    subject: UserId,
    kind: MemoryKind,
    content: String,
    confidence: crate::domain::Confidence,
    author: crate::domain::Author,
    visibility: crate::domain::Visibility,
    evidence: String,
    source_chat: Option<ChatId>,
    source_message: Option<MessageId>,
    at: DateTime<Utc>,
}

/// A message row, queued.
#[derive(Debug, Clone)]
struct MessageRow {
    chat: i64,
    message: i64,
    org: i64,
    user: Option<i64>,
    date: i64,
    text: String,
    reply_to: Option<i64>,
}

/// A first version of a commitment, queued with the id it will have.
#[derive(Debug, Clone)]
struct CreatedRow {
    c: Commitment,
    norm: String,
    evidence: String,
    request: Option<(ChatId, MessageId)>,
}

/// An accepted open task, as a message in a group may close it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenTask {
    pub id: i64,
    pub title: String,
    pub assigned_by: Option<crate::domain::UserId>,
}

/// An open write transaction with its queued rows. Dropping it without [`Batch::commit`]
/// rolls everything back.
pub struct Batch {
    tx: WriteTx,
    /// The store's read model of open promises: a person's open promises read again only when
    /// one of them changed since.
    open_model: Arc<OpenModel>,
    next_id: Option<i64>,
    messages: Vec<MessageRow>,
    created: Vec<CreatedRow>,
    /// Later versions, in the order they were made.
    versions: Vec<Commitment>,
    memories: Vec<QueuedMemory>,
    /// Messages for the model's second look: (org, chat, message, reason, at).
    refines: Vec<(OrgId, ChatId, MessageId, &'static str, DateTime<Utc>)>,
    /// Absences announced in the batch's messages.
    absences: Vec<QueuedAbsence>,
}

#[derive(Debug, Clone)]
struct QueuedAbsence {
    org: OrgId,
    user: crate::domain::UserId,
    from: chrono::NaiveDate,
    to: chrono::NaiveDate,
    source: (ChatId, MessageId),
    at: DateTime<Utc>,
}

impl std::fmt::Debug for Batch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Batch")
            .field("messages", &self.messages.len())
            .field("created", &self.created.len())
            .field("versions", &self.versions.len())
            .field("memories", &self.memories.len())
            .finish()
    }
}

impl Store {
    /// Starts a batch: takes the database's write lock until commit or drop.
    pub async fn begin_batch(&self) -> Result<Batch> {
        let tx = self.batches.begin().await?;
        Ok(Batch {
            tx,
            open_model: self.open_model.clone(),
            next_id: None,
            messages: Vec::new(),
            created: Vec::new(),
            versions: Vec::new(),
            memories: Vec::new(),
            refines: Vec::new(),
            absences: Vec::new(),
        })
    }
}

impl Batch {
    fn conn(&self) -> &rusqlite::Connection {
        self.tx.conn()
    }

    /// Which of `keys` are already stored (so a redelivered update is not read twice).
    pub async fn known_messages(
        &mut self,
        keys: &[(ChatId, MessageId)],
    ) -> Result<HashSet<(ChatId, MessageId)>> {
        let mut stmt = self
            .conn()
            .prepare_cached("SELECT 1 FROM messages WHERE chat_id = ? AND message_id = ?")?;
        let mut out = HashSet::new();
        for &(c, m) in keys {
            if stmt.exists(params![c.0, m.0])? {
                out.insert((c, m));
            }
        }
        Ok(out)
    }

    /// Queues a message row (a duplicate key is skipped at commit).
    pub fn store_message(&mut self, m: &NewMessage<'_>) {
        self.messages.push(MessageRow {
            chat: m.chat_id.0,
            message: m.message_id.0,
            org: m.org_id.0,
            user: m.user_id.map(|u| u.0),
            date: ts(m.date),
            text: m.text.to_string(),
            reply_to: m.reply_to.map(|r| r.0),
        });
    }

    pub async fn message(&mut self, chat: ChatId, id: MessageId) -> Result<Option<StoredMessage>> {
        read::one(
            self.conn(),
            "SELECT * FROM messages WHERE chat_id = ? AND message_id = ?",
            params![chat.0, id.0],
            |r| message_from_row(r),
        )
    }

    /// The latest `limit` stored messages of a chat dated within `[since, before]`, newest first.
    pub async fn recent_messages(
        &mut self,
        chat: ChatId,
        before: DateTime<Utc>,
        since: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<StoredMessage>> {
        read::all(
            self.conn(),
            "SELECT * FROM messages WHERE chat_id = ? AND date <= ? AND date >= ?
             ORDER BY date DESC, message_id DESC LIMIT +?",
            params![chat.0, ts(before), ts(since), limit],
            |r| message_from_row(r),
        )
    }

    /// Every open commitment of the org, most recently made first.
    pub async fn open_commitments_in_org(&mut self, org: OrgId) -> Result<Vec<Commitment>> {
        self.open_model.open_in_org(self.conn(), org)
    }

    /// One person's open commitments as stored before this batch, most recently made first.
    pub async fn open_commitments_of(
        &mut self,
        org: OrgId,
        owner: UserId,
    ) -> Result<Vec<Commitment>> {
        let mut open = self.open_model.open(self.conn(), org, owner)?.to_vec();
        open.sort_by_key(|c| std::cmp::Reverse((c.created_at, c.id)));
        Ok(open)
    }

    /// Current commitments a message made, moved, completed or was asked in (any version), as
    /// stored before this batch.
    pub async fn commitments_of_message(
        &mut self,
        chat: ChatId,
        msg: MessageId,
    ) -> Result<Vec<Commitment>> {
        commitments_by(self.conn(), &COMMITMENTS_OF_MESSAGE, [chat.0, msg.0])
    }

    /// Current commitments whose origin is this message, as stored before this batch.
    pub async fn commitments_made_in(
        &mut self,
        chat: ChatId,
        msg: MessageId,
    ) -> Result<Vec<Commitment>> {
        commitments_by(self.conn(), &COMMITMENTS_MADE_IN, [chat.0, msg.0])
    }

    /// The next free memory id. Safe to hand out because the batch holds the write lock.
    async fn take_id(&mut self) -> Result<i64> {
        let id = match self.next_id {
            Some(id) => id,
            None => {
                let max: Option<i64> = self
                    .conn()
                    .prepare_cached("SELECT max(id) FROM memories")?
                    .query_row([], |r| r.get(0))?;
                max.unwrap_or(0) + 1
            }
        };
        self.next_id = Some(id + 1);
        Ok(id)
    }

    /// Queues a new commitment (its own origin) and returns it as it will be stored.
    pub async fn insert_commitment(&mut self, c: &NewCommitment<'_>) -> Result<Commitment> {
        let id = self.take_id().await?;
        let at = super::from_ts(ts(c.at))?;
        let made = Commitment {
            id: MemoryId(id),
            origin_id: MemoryId(id),
            org_id: c.org_id,
            owner: c.owner,
            content: c.content.to_string(),
            due: c.due,
            state: CommitmentState::Open,
            confidence: c.confidence,
            author: c.author,
            visibility: c.visibility,
            source_chat: c.source_chat,
            source_message: c.source_message,
            version_chat: c.source_chat,
            version_message: c.source_message,
            requester: c.requester,
            created_at: at,
            valid_from: at,
            archived: false,
        };
        self.created.push(CreatedRow {
            c: made.clone(),
            norm: normalize_content(c.content),
            evidence: c.evidence.to_string(),
            request: c.request,
        });
        Ok(made)
    }

    /// Queues a new version of `current` with `change`; the previous version is archived when
    /// the batch commits (the `commitment_supersede` trigger). The caller makes sure `current`
    /// is the current version.
    pub async fn change_commitment(
        &mut self,
        current: &Commitment,
        change: &CommitmentChange,
        at: DateTime<Utc>,
    ) -> Result<Commitment> {
        let id = self.take_id().await?;
        let mut next = current.clone();
        next.id = MemoryId(id);
        if let Some(due) = change.due {
            next.due = due;
        }
        if let Some(content) = &change.content {
            next.content = content.clone();
        }
        if let Some(state) = change.state {
            next.state = state;
        }
        if let Some(c) = change.confidence {
            next.confidence = c;
        }
        if let Some(a) = change.author {
            next.author = a;
        }
        if let Some(o) = change.owner {
            next.owner = o;
        }
        (next.version_chat, next.version_message) = match change.update {
            Some((c, m)) => (Some(c), Some(m)),
            None => (None, None),
        };
        next.valid_from = super::from_ts(ts(at))?;
        next.archived = false;
        self.versions.push(next.clone());
        Ok(next)
    }

    /// Queues a memory of another kind (deduplicated on write, as [`Store::upsert_memory`]).
    pub fn upsert_memory(&mut self, m: &NewMemory<'_>) {
        self.memories.push(QueuedMemory {
            org_id: m.org_id,
            subject: m.subject,
            kind: m.kind,
            content: m.content.to_string(),
            confidence: m.confidence,
            author: m.author,
            visibility: m.visibility,
            evidence: m.evidence.to_string(),
            source_chat: m.source_chat,
            source_message: m.source_message,
            at: m.at,
        });
    }

    /// Writes every queued row and commits.
    pub async fn commit(self) -> Result<()> {
        self.write_queued()?;
        self.tx.commit()
    }

    fn write_queued(&self) -> Result<()> {
        let conn = self.tx.conn();
        insert_rows(
            conn,
            "INSERT INTO messages (chat_id, message_id, org_id, user_id, date, text, reply_to)
                 SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4,
                     value ->> 5, value ->> 6
                 FROM json_each(?) WHERE true
                 ON CONFLICT (chat_id, message_id) DO NOTHING",
            self.messages
                .iter()
                .map(|m| json!([m.chat, m.message, m.org, m.user, m.date, m.text, m.reply_to])),
        )?;
        if !self.messages.is_empty() {
            index_messages(conn, SEARCH_BACKLOG)?;
        }
        insert_rows(
            conn,
            "INSERT INTO memories (id, origin_id, org_id, subject_id, kind, content, norm_content,
                 confidence, evidence, author, visibility, source_chat_id, source_message_id,
                 valid_from, created_at, updated_at, due_at, due_grain, state, requester_id,
                 request_chat_id, request_message_id, version_chat_id, version_message_id)
             SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, 'commitment',
                 value ->> 4, value ->> 5, value ->> 6, value ->> 7, value ->> 8, value ->> 9,
                 value ->> 10, value ->> 11, value ->> 12, value ->> 13, value ->> 12,
                 value ->> 14, value ->> 15, value ->> 16, value ->> 17, value ->> 18,
                 value ->> 19, value ->> 20, value ->> 21
             FROM json_each(?)",
            self.created.iter().map(|r| {
                let c = &r.c;
                json!([
                    c.id.0,
                    c.origin_id.0,
                    c.org_id.0,
                    c.owner.0,
                    c.content,
                    r.norm,
                    c.confidence.value(),
                    r.evidence,
                    c.author.to_string(),
                    c.visibility.as_str(),
                    c.source_chat.map(|x| x.0),
                    c.source_message.map(|x| x.0),
                    ts(c.valid_from),
                    ts(c.created_at),
                    c.due.map(Due::to_db),
                    c.due.map(Due::grain_str),
                    c.state.as_str(),
                    c.requester.map(|x| x.0),
                    r.request.map(|x| x.0.0),
                    r.request.map(|x| x.1.0),
                    c.version_chat.map(|x| x.0),
                    c.version_message.map(|x| x.0),
                ])
            }),
        )?;
        // What never changes across versions comes from the origin row (stored already, or just
        // above); versions go in the order they were made, so each one archives the version
        // before it (the `commitment_supersede` trigger).
        insert_rows(
            conn,
            "INSERT INTO memories (id, org_id, subject_id, kind, content, norm_content, confidence,
                 tags, evidence, author, visibility, source_chat_id, source_message_id,
                 valid_from, created_at, updated_at, due_at, due_grain, state, origin_id,
                 requester_id, request_chat_id, request_message_id, version_chat_id,
                 version_message_id)
             SELECT v.value ->> 0, o.org_id, o.subject_id, 'commitment', v.value ->> 2,
                 v.value ->> 3, v.value ->> 4, o.tags, o.evidence, v.value ->> 5, o.visibility,
                 o.source_chat_id, o.source_message_id, v.value ->> 6, o.created_at,
                 v.value ->> 6, v.value ->> 7, v.value ->> 8, v.value ->> 9, o.id,
                 o.requester_id, o.request_chat_id, o.request_message_id, v.value ->> 10,
                 v.value ->> 11
             FROM json_each(?) AS v JOIN memories AS o ON o.id = v.value ->> 1
             ORDER BY v.key",
            self.versions.iter().map(|c| {
                json!([
                    c.id.0,
                    c.origin_id.0,
                    c.content,
                    normalize_content(&c.content),
                    c.confidence.value(),
                    c.author.to_string(),
                    ts(c.valid_from),
                    c.due.map(Due::to_db),
                    c.due.map(Due::grain_str),
                    c.state.as_str(),
                    c.version_chat.map(|x| x.0),
                    c.version_message.map(|x| x.0),
                ])
            }),
        )?;
        for m in &self.memories {
            upsert_memory_on(
                conn,
                &NewMemory {
                    org_id: m.org_id,
                    subject: m.subject,
                    kind: m.kind,
                    content: &m.content,
                    confidence: m.confidence,
                    author: m.author,
                    visibility: m.visibility,
                    evidence: &m.evidence,
                    source_chat: m.source_chat,
                    source_message: m.source_message,
                    at: m.at,
                },
            )?;
        }
        if !(self.created.is_empty() && self.versions.is_empty() && self.memories.is_empty()) {
            index_memories(conn, MEMORY_SEARCH_BACKLOG)?;
        }
        let mut stmt = conn.prepare_cached(
            // An edited message is judged again.
            "INSERT INTO refine_queue (org_id, chat_id, message_id, reason, created_at)
             VALUES (?, ?, ?, ?, ?) ON CONFLICT (chat_id, message_id)
             DO UPDATE SET reason = excluded.reason, done_at = NULL, outcome = NULL",
        )?;
        for (org, chat, msg, reason, at) in &self.refines {
            stmt.execute(params![org.0, chat.0, msg.0, reason, ts(*at)])?;
        }
        let mut stmt = conn.prepare_cached(
            "INSERT INTO absences (org_id, user_id, from_day, to_day, source_chat_id, source_message_id, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?)",
        )?;
        for a in &self.absences {
            stmt.execute(params![
                a.org.0,
                a.user.0,
                a.from.to_string(),
                a.to.to_string(),
                a.source.0.0,
                a.source.1.0,
                ts(a.at),
            ])?;
        }
        Ok(())
    }

    /// Records an absence a message announced, in this transaction.
    pub fn add_absence(
        &mut self,
        org: OrgId,
        user: crate::domain::UserId,
        days: (chrono::NaiveDate, chrono::NaiveDate),
        source: (ChatId, MessageId),
        at: DateTime<Utc>,
    ) {
        self.absences.push(QueuedAbsence {
            org,
            user,
            from: days.0,
            to: days.1,
            source,
            at,
        });
    }

    /// Queues a message for the model's second look, in this transaction.
    pub fn queue_refine(
        &mut self,
        org: OrgId,
        chat: ChatId,
        message: MessageId,
        reason: &'static str,
        at: DateTime<Utc>,
    ) {
        self.refines.push((org, chat, message, reason, at));
    }

    /// A person's accepted open tasks set by `before` (what "готово" in a group may close),
    /// with who set them.
    pub async fn open_tasks_of(
        &mut self,
        org: OrgId,
        user: crate::domain::UserId,
        before: DateTime<Utc>,
    ) -> Result<Vec<OpenTask>> {
        read::all(
            self.conn(),
            "SELECT id, title, assigned_by FROM tasks
             WHERE org_id = ? AND assignee_id = ? AND status IN ('open', 'in_progress')
               AND (assigned_by IS NULL OR accepted_at IS NOT NULL) AND created_at <= ?
             ORDER BY id",
            params![org.0, user.0, ts(before)],
            |r| {
                Ok(OpenTask {
                    id: r.get("id")?,
                    title: r.get("title")?,
                    assigned_by: r
                        .get::<Option<i64>>("assigned_by")?
                        .map(crate::domain::UserId),
                })
            },
        )
    }

    /// Closes a task (and its goal step) in this transaction.
    pub async fn finish_task(&mut self, id: i64, at: DateTime<Utc>) -> Result<bool> {
        super::goals::finish_task_on(self.tx.conn(), id, at)
    }
}

/// Runs an `INSERT … SELECT … FROM json_each(?)` over `rows` as one JSON array, unless there are
/// none: one statement per kind of row, because every statement that writes an FTS-indexed
/// table makes FTS5 flush its pending terms at the statement's savepoint.
fn insert_rows(
    conn: &rusqlite::Connection,
    sql: &str,
    rows: impl Iterator<Item = Value>,
) -> Result<()> {
    let rows: Vec<Value> = rows.collect();
    if !rows.is_empty() {
        conn.prepare_cached(sql)?
            .execute([Value::Array(rows).to_string()])?;
    }
    Ok(())
}
