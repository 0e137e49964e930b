//! One write transaction for a batch of messages and what they say about commitments.
//!
//! Capture reads and writes a little per message; through sqlx each statement is a hand-off to
//! the connection's worker thread, which costs far more than SQLite's own work. A `Batch` holds
//! the write lock (`BEGIN IMMEDIATE`) for the whole batch, so it can number new rows itself and
//! send every queued row of a kind in one statement (the rows travel as one JSON array) when it
//! commits. Reads here go to the database as it stood before the batch; what the batch itself
//! wrote is the caller's to overlay (see `ingest::Ledger`).

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use serde_json::{Value, json};
use sqlx::{QueryBuilder, Sqlite, Transaction};

use super::memories::{
    commitments_made_in_on, commitments_of_message_on, open_commitments_in_org_on, upsert_memory_on,
};
use super::messages::message_from_row;
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
    tx: Transaction<'static, Sqlite>,
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

/// Splits `n` rows into runs of at most `max` rows whose lengths are powers of two: a multi-row
/// statement per run, and only a handful of statement shapes, each prepared once and cached.
fn runs(n: usize, max: usize) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < n {
        let left = n - at;
        let len = if left >= max {
            max
        } else {
            1 << (usize::BITS - 1 - left.leading_zeros())
        };
        out.push(at..at + len);
        at += len;
    }
    out
}

impl Store {
    /// Starts a batch: takes the database's write lock until commit or drop.
    pub async fn begin_batch(&self) -> Result<Batch> {
        let tx = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        Ok(Batch {
            tx,
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

fn json_text(v: &[Value]) -> String {
    Value::Array(v.to_vec()).to_string()
}

impl Batch {
    /// Which of `keys` are already stored (so a redelivered update is not read twice).
    pub async fn known_messages(
        &mut self,
        keys: &[(ChatId, MessageId)],
    ) -> Result<HashSet<(ChatId, MessageId)>> {
        let arr: Vec<Value> = keys.iter().map(|(c, m)| json!([c.0, m.0])).collect();
        let text: String = sqlx::query_scalar(
            "SELECT json_group_array(json_array(m.chat_id, m.message_id))
             FROM json_each(?) AS k
             JOIN messages m ON m.chat_id = k.value ->> 0 AND m.message_id = k.value ->> 1",
        )
        .bind(json_text(&arr))
        .fetch_one(&mut *self.tx)
        .await?;
        let pairs: Vec<(i64, i64)> = serde_json::from_str(&text)
            .map_err(|e| super::StoreError::Corrupt(format!("json rows: {e}")))?;
        Ok(pairs
            .into_iter()
            .map(|(c, m)| (ChatId(c), MessageId(m)))
            .collect())
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
        let r = sqlx::query("SELECT * FROM messages WHERE chat_id = ? AND message_id = ?")
            .bind(chat.0)
            .bind(id.0)
            .fetch_optional(&mut *self.tx)
            .await?;
        r.as_ref().map(message_from_row).transpose()
    }

    /// The latest `limit` stored messages of a chat dated within `[since, before]`, newest first.
    pub async fn recent_messages(
        &mut self,
        chat: ChatId,
        before: DateTime<Utc>,
        since: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<StoredMessage>> {
        let rows = sqlx::query(
            "SELECT * FROM messages WHERE chat_id = ? AND date <= ? AND date >= ?
             ORDER BY date DESC, message_id DESC LIMIT ?",
        )
        .bind(chat.0)
        .bind(ts(before))
        .bind(ts(since))
        .bind(limit)
        .fetch_all(&mut *self.tx)
        .await?;
        rows.iter().map(message_from_row).collect()
    }

    /// Every open commitment of the org, most recently made first.
    pub async fn open_commitments_in_org(&mut self, org: OrgId) -> Result<Vec<Commitment>> {
        open_commitments_in_org_on(&mut *self.tx, org).await
    }

    /// Current commitments a message made, moved, completed or was asked in (any version), as
    /// stored before this batch.
    pub async fn commitments_of_message(
        &mut self,
        chat: ChatId,
        msg: MessageId,
    ) -> Result<Vec<Commitment>> {
        commitments_of_message_on(&mut *self.tx, chat, msg).await
    }

    /// Current commitments whose origin is this message, as stored before this batch.
    pub async fn commitments_made_in(
        &mut self,
        chat: ChatId,
        msg: MessageId,
    ) -> Result<Vec<Commitment>> {
        commitments_made_in_on(&mut *self.tx, chat, msg).await
    }

    /// The next free memory id. Safe to hand out because the batch holds the write lock.
    async fn take_id(&mut self) -> Result<i64> {
        let id = match self.next_id {
            Some(id) => id,
            None => {
                let max: Option<i64> = sqlx::query_scalar("SELECT max(id) FROM memories")
                    .fetch_one(&mut *self.tx)
                    .await?;
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

    /// Writes every queued row (a few multi-row statements per kind of row) and commits.
    pub async fn commit(mut self) -> Result<()> {
        let messages = std::mem::take(&mut self.messages);
        for run in runs(messages.len(), 128) {
            let mut q = QueryBuilder::<Sqlite>::new(
                "INSERT INTO messages (chat_id, message_id, org_id, user_id, date, text, reply_to) ",
            );
            q.push_values(&messages[run], |mut b, m| {
                b.push_bind(m.chat)
                    .push_bind(m.message)
                    .push_bind(m.org)
                    .push_bind(m.user)
                    .push_bind(m.date)
                    .push_bind(m.text.as_str())
                    .push_bind(m.reply_to);
            });
            q.push(" ON CONFLICT (chat_id, message_id) DO NOTHING");
            q.build().execute(&mut *self.tx).await?;
        }
        let created = std::mem::take(&mut self.created);
        for run in runs(created.len(), 64) {
            let mut q = QueryBuilder::<Sqlite>::new(
                "INSERT INTO memories (id, origin_id, org_id, subject_id, kind, content, norm_content,
                     confidence, evidence, author, visibility, source_chat_id, source_message_id,
                     valid_from, created_at, updated_at, due_at, due_grain, state, requester_id,
                     request_chat_id, request_message_id, version_chat_id, version_message_id) ",
            );
            q.push_values(&created[run], |mut b, r| {
                let c = &r.c;
                b.push_bind(c.id.0)
                    .push_bind(c.origin_id.0)
                    .push_bind(c.org_id.0)
                    .push_bind(c.owner.0)
                    .push_bind("commitment")
                    .push_bind(c.content.as_str())
                    .push_bind(r.norm.as_str())
                    .push_bind(c.confidence.value())
                    .push_bind(r.evidence.as_str())
                    .push_bind(c.author.to_string())
                    .push_bind(c.visibility.as_str())
                    .push_bind(c.source_chat.map(|x| x.0))
                    .push_bind(c.source_message.map(|x| x.0))
                    .push_bind(ts(c.valid_from))
                    .push_bind(ts(c.created_at))
                    .push_bind(ts(c.valid_from))
                    .push_bind(c.due.map(Due::to_db))
                    .push_bind(c.due.map(Due::grain_str))
                    .push_bind(c.state.as_str())
                    .push_bind(c.requester.map(|x| x.0))
                    .push_bind(r.request.map(|x| x.0.0))
                    .push_bind(r.request.map(|x| x.1.0))
                    .push_bind(c.version_chat.map(|x| x.0))
                    .push_bind(c.version_message.map(|x| x.0));
            });
            q.build().execute(&mut *self.tx).await?;
        }
        let versions = std::mem::take(&mut self.versions);
        for run in runs(versions.len(), 64) {
            // What never changes across versions comes from the origin row (stored already, or
            // just above); rows go in id order, the order they were made, so each one archives
            // the version before it (the `commitment_supersede` trigger).
            let mut q = QueryBuilder::<Sqlite>::new(
                "INSERT INTO memories (id, org_id, subject_id, kind, content, norm_content, confidence,
                     tags, evidence, author, visibility, source_chat_id, source_message_id,
                     valid_from, created_at, updated_at, due_at, due_grain, state, origin_id,
                     requester_id, request_chat_id, request_message_id, version_chat_id,
                     version_message_id)
                 SELECT v.column1, o.org_id, o.subject_id, 'commitment', v.column3, v.column4,
                     v.column5, o.tags, o.evidence, v.column6, o.visibility, o.source_chat_id,
                     o.source_message_id, v.column7, o.created_at, v.column7, v.column8,
                     v.column9, v.column10, o.id, o.requester_id, o.request_chat_id,
                     o.request_message_id, v.column11, v.column12
                 FROM (",
            );
            q.push_values(&versions[run], |mut b, c| {
                b.push_bind(c.id.0)
                    .push_bind(c.origin_id.0)
                    .push_bind(c.content.as_str())
                    .push_bind(normalize_content(&c.content))
                    .push_bind(c.confidence.value())
                    .push_bind(c.author.to_string())
                    .push_bind(ts(c.valid_from))
                    .push_bind(c.due.map(Due::to_db))
                    .push_bind(c.due.map(Due::grain_str))
                    .push_bind(c.state.as_str())
                    .push_bind(c.version_chat.map(|x| x.0))
                    .push_bind(c.version_message.map(|x| x.0));
            });
            q.push(") AS v JOIN memories AS o ON o.id = v.column2 ORDER BY v.column1");
            q.build().execute(&mut *self.tx).await?;
        }
        for m in std::mem::take(&mut self.memories) {
            upsert_memory_on(
                &mut *self.tx,
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
            )
            .await?;
        }
        for (org, chat, msg, reason, at) in std::mem::take(&mut self.refines) {
            sqlx::query(
                // An edited message is judged again.
                "INSERT INTO refine_queue (org_id, chat_id, message_id, reason, created_at)
                 VALUES (?, ?, ?, ?, ?) ON CONFLICT (chat_id, message_id)
                 DO UPDATE SET reason = excluded.reason, done_at = NULL, outcome = NULL",
            )
            .bind(org.0)
            .bind(chat.0)
            .bind(msg.0)
            .bind(reason)
            .bind(super::ts(at))
            .execute(&mut *self.tx)
            .await?;
        }
        for a in std::mem::take(&mut self.absences) {
            sqlx::query(
                "INSERT INTO absences (org_id, user_id, from_day, to_day, source_chat_id, source_message_id, created_at)
                 VALUES (?, ?, ?, ?, ?, ?, ?)",
            )
            .bind(a.org.0)
            .bind(a.user.0)
            .bind(a.from.to_string())
            .bind(a.to.to_string())
            .bind(a.source.0.0)
            .bind(a.source.1.0)
            .bind(super::ts(a.at))
            .execute(&mut *self.tx)
            .await?;
        }
        self.tx.commit().await?;
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
        let rows: Vec<(i64, String, Option<i64>)> = sqlx::query_as(
            "SELECT id, title, assigned_by FROM tasks
             WHERE org_id = ? AND assignee_id = ? AND status IN ('open', 'in_progress')
               AND (assigned_by IS NULL OR accepted_at IS NOT NULL) AND created_at <= ?
             ORDER BY id",
        )
        .bind(org.0)
        .bind(user.0)
        .bind(ts(before))
        .fetch_all(&mut *self.tx)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(id, title, by)| OpenTask {
                id,
                title,
                assigned_by: by.map(crate::domain::UserId),
            })
            .collect())
    }

    /// Closes a task (and its goal step) in this transaction.
    pub async fn finish_task(&mut self, id: i64, at: DateTime<Utc>) -> Result<bool> {
        super::goals::finish_task_on(&mut self.tx, id, at).await
    }
}
