//! Raw messages of linked chats, stored idempotently by (chat_id, message_id).

use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension};

use super::memories::Get;
use super::{Result, Store, from_ts, ts};
use crate::domain::{ChatId, MessageId, OrgId, UserId};

#[derive(Debug, Clone)]
pub struct NewMessage<'a> {
    pub org_id: OrgId,
    pub chat_id: ChatId,
    pub message_id: MessageId,
    pub user_id: Option<UserId>,
    pub date: DateTime<Utc>,
    pub text: &'a str,
    pub reply_to: Option<MessageId>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredMessage {
    pub chat_id: ChatId,
    pub message_id: MessageId,
    pub user_id: Option<UserId>,
    pub date: DateTime<Utc>,
    pub text: String,
    pub reply_to: Option<MessageId>,
    pub edit_date: Option<DateTime<Utc>>,
}

/// Whether a write was new.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stored {
    New,
    /// The same message was already there: nothing changed.
    Duplicate,
}

pub(super) fn message_from_row(r: &impl Get) -> Result<StoredMessage> {
    Ok(StoredMessage {
        chat_id: ChatId(r.i("chat_id")?),
        message_id: MessageId(r.i("message_id")?),
        user_id: r.oi("user_id")?.map(UserId),
        date: from_ts(r.i("date")?)?,
        text: r.s("text")?,
        reply_to: r.oi("reply_to")?.map(MessageId),
        edit_date: r.oi("edit_date")?.map(from_ts).transpose()?,
    })
}

/// How many stored messages may wait for the search index before a batch's commit indexes
/// them: the index then grows by one FTS5 segment per this many messages, not one per message.
pub(super) const SEARCH_BACKLOG: i64 = 256;

/// Indexes for search the messages stored since the last time, when at least `backlog` of
/// them wait; in the caller's write transaction. Returns how many it indexed.
pub(super) fn index_messages(conn: &Connection, backlog: i64) -> Result<i64> {
    let (mark, top): (i64, i64) = conn
        .prepare_cached(
            "SELECT message_rowid, (SELECT coalesce(max(rowid), 0) FROM messages)
             FROM search_mark WHERE id = 1",
        )?
        .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    if top < mark {
        // Renumbered since the mark was set: find what is missing the slow way.
        return index_missing(conn);
    }
    if top - mark < backlog.max(1) {
        return Ok(0);
    }
    let before: i64 = conn
        .prepare_cached("SELECT coalesce(max(id), 0) FROM message_search")?
        .query_row([], |r| r.get(0))?;
    let added = conn
        .prepare_cached(
            "INSERT INTO message_search (chat_id, message_id)
             SELECT chat_id, message_id FROM messages WHERE rowid > ?1 AND rowid <= ?2
             ORDER BY rowid
             ON CONFLICT (chat_id, message_id) DO NOTHING",
        )?
        .execute([mark, top])?;
    conn.prepare_cached(
        "INSERT INTO messages_fts (rowid, text)
         SELECT s.id, m.text FROM message_search s
         JOIN messages m ON m.chat_id = s.chat_id AND m.message_id = s.message_id
         WHERE s.id > ?",
    )?
    .execute([before])?;
    conn.prepare_cached("UPDATE search_mark SET message_rowid = ? WHERE id = 1")?
        .execute([top])?;
    Ok(added as i64)
}

/// Puts every message that is not in the search index into it, when the mark cannot tell which
/// those are: a database whose messages were renumbered (a copy restored from a backup that
/// `VACUUM` rewrote). Cheap when nothing is missing: three counts. Returns how many it added.
pub(super) fn repair_search(conn: &Connection) -> Result<i64> {
    let consistent: Option<bool> = conn
        .query_row(
            "SELECT (SELECT count(*) FROM messages) = (SELECT count(*) FROM message_search)
                 + (SELECT count(*) FROM messages WHERE rowid > s.message_rowid)
             FROM search_mark s WHERE s.id = 1",
            [],
            |r| r.get(0),
        )
        .optional()?;
    if consistent == Some(true) {
        return Ok(0);
    }
    let tx = conn.unchecked_transaction()?;
    let added = index_missing(&tx)?;
    tx.commit()?;
    Ok(added)
}

/// Indexes every message that has no search row, whatever the mark says, and moves the mark
/// to the last message; in the caller's transaction.
fn index_missing(conn: &Connection) -> Result<i64> {
    let before: i64 =
        conn.query_row("SELECT coalesce(max(id), 0) FROM message_search", [], |r| {
            r.get(0)
        })?;
    let added = conn.execute(
        "INSERT INTO message_search (chat_id, message_id)
         SELECT m.chat_id, m.message_id FROM messages m
         WHERE NOT EXISTS (SELECT 1 FROM message_search s
                           WHERE s.chat_id = m.chat_id AND s.message_id = m.message_id)
         ORDER BY m.rowid",
        [],
    )?;
    conn.execute(
        "INSERT INTO messages_fts (rowid, text)
         SELECT s.id, m.text FROM message_search s
         JOIN messages m ON m.chat_id = s.chat_id AND m.message_id = s.message_id
         WHERE s.id > ?",
        [before],
    )?;
    conn.execute(
        "INSERT INTO search_mark (id, message_rowid)
         VALUES (1, (SELECT coalesce(max(rowid), 0) FROM messages))
         ON CONFLICT (id) DO UPDATE SET message_rowid = excluded.message_rowid",
        [],
    )?;
    Ok(added as i64)
}

impl Store {
    /// Indexes for search every message not indexed yet (before a search reads the index).
    pub async fn index_messages(&self) -> Result<i64> {
        let tx = self.batches.begin().await?;
        let n = index_messages(tx.conn(), 1)?;
        tx.commit()?;
        Ok(n)
    }

    /// Replaces a message's text; returns the old text, or `None` when unknown or unchanged.
    pub async fn edit_message(
        &self,
        chat: ChatId,
        id: MessageId,
        text: &str,
        edit_date: DateTime<Utc>,
    ) -> Result<Option<String>> {
        let mut tx = self.pool.begin().await?;
        let old: Option<String> =
            sqlx::query_scalar("SELECT text FROM messages WHERE chat_id = ? AND message_id = ?")
                .bind(chat.0)
                .bind(id.0)
                .fetch_optional(&mut *tx)
                .await?;
        let Some(old) = old else { return Ok(None) };
        if old == text {
            return Ok(None);
        }
        sqlx::query(
            "UPDATE messages SET text = ?, edit_date = ? WHERE chat_id = ? AND message_id = ?",
        )
        .bind(text)
        .bind(ts(edit_date))
        .bind(chat.0)
        .bind(id.0)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Some(old))
    }

    pub async fn message(&self, chat: ChatId, id: MessageId) -> Result<Option<StoredMessage>> {
        let r = sqlx::query("SELECT * FROM messages WHERE chat_id = ? AND message_id = ?")
            .bind(chat.0)
            .bind(id.0)
            .fetch_optional(&self.pool)
            .await?;
        r.as_ref().map(message_from_row).transpose()
    }

    /// How many messages each person wrote in `[from, to)`.
    pub async fn message_counts(
        &self,
        org: OrgId,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> Result<Vec<(UserId, i64)>> {
        self.readers.with(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT user_id, count(*) FROM messages
                 WHERE org_id = ?1 AND date >= ?2 AND date < ?3 AND user_id IS NOT NULL
                 GROUP BY user_id",
            )?;
            let rows = stmt.query_map([org.0, ts(from), ts(to)], |r| {
                Ok((UserId(r.get(0)?), r.get(1)?))
            })?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    /// What one person wrote in `[from, to)`: the latest `limit` messages, oldest first.
    pub async fn messages_by(
        &self,
        org: OrgId,
        user: UserId,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<StoredMessage>> {
        let rows = sqlx::query(
            "SELECT * FROM (SELECT * FROM messages
                 WHERE org_id = ? AND user_id = ? AND date >= ? AND date < ?
                 ORDER BY date DESC, message_id DESC LIMIT +?)
             ORDER BY date, message_id",
        )
        .bind(org.0)
        .bind(user.0)
        .bind(ts(from))
        .bind(ts(to))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(message_from_row).collect()
    }

    /// When the person last wrote in any linked chat of the org.
    pub async fn last_message_at(&self, org: OrgId, user: UserId) -> Result<Option<DateTime<Utc>>> {
        let t: Option<i64> = self.readers.with(|conn| {
            Ok(conn
                .prepare_cached(
                    "SELECT max(date) FROM messages WHERE org_id = ?1 AND user_id = ?2",
                )?
                .query_row([org.0, user.0], |r| r.get(0))?)
        })?;
        t.map(from_ts).transpose()
    }

    /// The active linked group a person last wrote in: where to reach them with a mention when
    /// their DM is closed.
    pub async fn last_group_of(&self, org: OrgId, user: UserId) -> Result<Option<ChatId>> {
        let id = self.readers.with(|conn| {
            Ok(super::read::column::<i64>(
                conn,
                "SELECT m.chat_id FROM messages m JOIN chats c ON c.id = m.chat_id
                 WHERE m.org_id = ?1 AND m.user_id = ?2 AND c.active = 1
                 ORDER BY m.date DESC LIMIT 1",
                [org.0, user.0],
            )?
            .pop())
        })?;
        Ok(id.map(ChatId))
    }
}
