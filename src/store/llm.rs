//! The model's bookkeeping: daily token use per org, full-text search over what an asker may
//! see, and the queue of messages the rules were unsure of.

use chrono::{DateTime, NaiveDate, Utc};
use sqlx::Row;

use super::memories::Get;
use super::{NewDelivery, Result, Store, StoreError, from_ts, parse, ts};
use crate::domain::{
    ChatId, CommitmentState, Confidence, MemoryId, MemoryKind, MessageId, OrgId, UserId, Visibility,
};

/// One org's use of the model on one local day.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LlmUsage {
    pub calls: i64,
    pub failures: i64,
    pub tokens_in: i64,
    pub tokens_out: i64,
}

impl LlmUsage {
    pub fn tokens(&self) -> i64 {
        self.tokens_in + self.tokens_out
    }
}

/// Whose private rows a search may return. Decided from roles alone, before any text is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchAccess {
    /// In a group chat: `team` rows only, whoever asks.
    pub in_group: bool,
    /// A director: every private row of the org.
    pub all_private: bool,
    /// Else the people whose private rows the asker may read (themself, a lead's reports).
    pub private_of: Vec<UserId>,
}

/// A memory the search found.
#[derive(Debug, Clone, PartialEq)]
pub struct MemoryHit {
    pub id: MemoryId,
    pub subject: UserId,
    pub kind: MemoryKind,
    pub content: String,
    pub confidence: Confidence,
    pub visibility: Visibility,
    pub state: Option<CommitmentState>,
    pub due: Option<String>,
    pub source_chat: Option<ChatId>,
    pub source_message: Option<MessageId>,
}

/// A group message the search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MessageHit {
    pub chat: ChatId,
    pub message: MessageId,
    pub author: Option<UserId>,
    pub date: DateTime<Utc>,
    pub text: String,
}

/// A message waiting for the model's second look.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefineItem {
    pub id: i64,
    pub chat: ChatId,
    pub message: MessageId,
    pub reason: String,
}

impl Store {
    pub async fn llm_usage(&self, org: OrgId, day: NaiveDate) -> Result<LlmUsage> {
        let row = sqlx::query(
            "SELECT calls, failures, tokens_in, tokens_out FROM llm_usage WHERE org_id = ? AND day = ?",
        )
        .bind(org.0)
        .bind(day.to_string())
        .fetch_optional(&self.pool)
        .await?;
        Ok(match row {
            Some(r) => LlmUsage {
                calls: r.try_get(0)?,
                failures: r.try_get(1)?,
                tokens_in: r.try_get(2)?,
                tokens_out: r.try_get(3)?,
            },
            None => LlmUsage::default(),
        })
    }

    /// Counts one call (its tokens from the provider's usage fields; a failed call may have none).
    pub async fn record_llm_call(
        &self,
        org: OrgId,
        day: NaiveDate,
        tokens_in: i64,
        tokens_out: i64,
        failed: bool,
    ) -> Result<()> {
        sqlx::query(
            "INSERT INTO llm_usage (org_id, day, calls, failures, tokens_in, tokens_out)
             VALUES (?1, ?2, 1, ?3, ?4, ?5)
             ON CONFLICT (org_id, day) DO UPDATE SET calls = calls + 1, failures = failures + ?3,
                 tokens_in = tokens_in + ?4, tokens_out = tokens_out + ?5",
        )
        .bind(org.0)
        .bind(day.to_string())
        .bind(failed as i64)
        .bind(tokens_in.max(0))
        .bind(tokens_out.max(0))
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// The first time a day's budget is found spent, marks it told and queues `notices` (to the
    /// directors) in the same transaction; later calls that day do nothing. True when queued.
    pub async fn tell_budget_spent(
        &self,
        org: OrgId,
        day: NaiveDate,
        notices: &[NewDelivery],
        now: DateTime<Utc>,
    ) -> Result<bool> {
        self.write(|conn| {
            conn.prepare_cached(
                "INSERT INTO llm_usage (org_id, day) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
            )?
            .execute(rusqlite::params![org.0, day.to_string()])?;
            let changed = conn
                .prepare_cached(
                    "UPDATE llm_usage SET told_spent = 1
                     WHERE org_id = ?1 AND day = ?2 AND told_spent = 0",
                )?
                .execute(rusqlite::params![org.0, day.to_string()])?;
            if changed == 0 {
                return Ok(false);
            }
            for d in notices {
                super::schedule::queue_delivery(conn, org, None, d, now)?;
            }
            Ok(true)
        })
        .await
    }

    /// Memories matching an FTS5 query, best first, limited to what `access` may read.
    pub async fn search_memories(
        &self,
        org: OrgId,
        access: &SearchAccess,
        query: &str,
        limit: i64,
    ) -> Result<Vec<MemoryHit>> {
        if query.trim().is_empty() {
            return Ok(Vec::new());
        }
        self.index_memories().await?;
        let private_of =
            serde_json::to_string(&access.private_of.iter().map(|u| u.0).collect::<Vec<_>>())
                .unwrap_or_else(|_| "[]".into());
        let rows = sqlx::query(
            "SELECT m.id, m.subject_id, m.kind, m.content, m.confidence, m.visibility, m.state,
                    m.due_at, m.source_chat_id, m.source_message_id
             FROM memories_fts f JOIN memories m ON m.id = f.rowid
             WHERE memories_fts MATCH ?1 AND m.org_id = ?2 AND m.is_archived = 0
               AND (m.visibility = 'team'
                    OR (?3 = 0 AND (?4 = 1 OR m.subject_id IN (SELECT value FROM json_each(?5)))))
             ORDER BY bm25(memories_fts), m.id DESC LIMIT +?6",
        )
        .bind(query)
        .bind(org.0)
        .bind(access.in_group as i64)
        .bind(access.all_private as i64)
        .bind(private_of)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let kind: String = r.s("kind")?;
                let vis: String = r.s("visibility")?;
                let state: Option<String> = r.os("state")?;
                Ok(MemoryHit {
                    id: MemoryId(r.i("id")?),
                    subject: UserId(r.i("subject_id")?),
                    kind: parse(&kind)?,
                    content: r.s("content")?,
                    confidence: Confidence::new(r.f("confidence")?)
                        .map_err(|e| StoreError::Corrupt(e.to_string()))?,
                    visibility: parse(&vis)?,
                    state: state.as_deref().map(parse).transpose()?,
                    due: r.os("due_at")?,
                    source_chat: r.oi("source_chat_id")?.map(ChatId),
                    source_message: r.oi("source_message_id")?.map(MessageId),
                })
            })
            .collect()
    }

    /// Group messages of the org matching an FTS5 query, best first. Every message kept is a
    /// group message, a `team` item.
    pub async fn search_messages(
        &self,
        org: OrgId,
        query: &str,
        limit: i64,
    ) -> Result<Vec<MessageHit>> {
        if query.trim().is_empty() {
            return Ok(Vec::new());
        }
        self.index_messages().await?;
        let rows = sqlx::query(
            "SELECT msg.chat_id, msg.message_id, msg.user_id, msg.date, msg.text
             FROM messages_fts f
             JOIN message_search s ON s.id = f.rowid
             JOIN messages msg ON msg.chat_id = s.chat_id AND msg.message_id = s.message_id
             WHERE messages_fts MATCH ?1 AND msg.org_id = ?2
             ORDER BY bm25(messages_fts), msg.date DESC LIMIT +?3",
        )
        .bind(query)
        .bind(org.0)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(MessageHit {
                    chat: ChatId(r.i("chat_id")?),
                    message: MessageId(r.i("message_id")?),
                    author: r.oi("user_id")?.map(UserId),
                    date: from_ts(r.i("date")?)?,
                    text: r.s("text")?,
                })
            })
            .collect()
    }

    /// The oldest waiting items of an org.
    pub async fn pending_refines(&self, org: OrgId, limit: i64) -> Result<Vec<RefineItem>> {
        let rows = sqlx::query(
            "SELECT id, chat_id, message_id, reason FROM refine_queue
             WHERE org_id = ? AND done_at IS NULL ORDER BY id LIMIT +?",
        )
        .bind(org.0)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(RefineItem {
                    id: r.i("id")?,
                    chat: ChatId(r.i("chat_id")?),
                    message: MessageId(r.i("message_id")?),
                    reason: r.s("reason")?,
                })
            })
            .collect()
    }

    pub async fn finish_refine(&self, id: i64, outcome: &str, now: DateTime<Utc>) -> Result<()> {
        sqlx::query("UPDATE refine_queue SET done_at = ?, outcome = ? WHERE id = ?")
            .bind(ts(now))
            .bind(outcome)
            .bind(id)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// How many items wait, per org (`kept status`).
    pub async fn refine_backlog(&self, org: OrgId) -> Result<i64> {
        Ok(sqlx::query_scalar(
            "SELECT COUNT(*) FROM refine_queue WHERE org_id = ? AND done_at IS NULL",
        )
        .bind(org.0)
        .fetch_one(&self.pool)
        .await?)
    }
}
