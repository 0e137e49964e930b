//! Typed memory: commitments (versioned, never deleted) and the other kinds (deduplicated on write).

use chrono::{DateTime, NaiveDate, Utc};
use sqlx::{AssertSqlSafe, Row};

use std::sync::LazyLock;

use super::{Result, Store, StoreError, from_ts, parse, read, ts};
use crate::domain::{
    Author, ChatId, CommitmentState, Confidence, Due, MemoryId, MemoryKind, MessageId, OrgId,
    UserId, Visibility, normalize_content,
};

/// Which rows of another person's memory a read may return. Applied inside the SQL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// Own memory, a director's, or a lead's about a report: every visibility.
    Full,
    /// Everyone else, and every answer in a group chat: `team` rows only.
    TeamOnly,
}

impl Scope {
    pub(super) fn full(self) -> i64 {
        (self == Scope::Full) as i64
    }
}

/// The current (or an archived) version of a commitment.
#[derive(Debug, Clone, PartialEq)]
pub struct Commitment {
    pub id: MemoryId,
    pub origin_id: MemoryId,
    pub org_id: OrgId,
    pub owner: UserId,
    pub content: String,
    pub due: Option<Due>,
    pub state: CommitmentState,
    pub confidence: Confidence,
    pub author: Author,
    pub visibility: Visibility,
    pub source_chat: Option<ChatId>,
    pub source_message: Option<MessageId>,
    pub version_chat: Option<ChatId>,
    pub version_message: Option<MessageId>,
    pub requester: Option<UserId>,
    /// When the promise was first made (same for every version).
    pub created_at: DateTime<Utc>,
    /// When this version was written.
    pub valid_from: DateTime<Utc>,
    pub archived: bool,
}

#[derive(Debug, Clone)]
pub struct NewCommitment<'a> {
    pub org_id: OrgId,
    pub owner: UserId,
    pub content: &'a str,
    pub due: Option<Due>,
    pub confidence: Confidence,
    pub author: Author,
    pub visibility: Visibility,
    pub source_chat: Option<ChatId>,
    pub source_message: Option<MessageId>,
    pub requester: Option<UserId>,
    pub request: Option<(ChatId, MessageId)>,
    pub evidence: &'a str,
    pub at: DateTime<Utc>,
}

/// What a new version changes; `None` keeps the current value.
#[derive(Debug, Clone, Default)]
pub struct CommitmentChange {
    pub due: Option<Option<Due>>,
    pub state: Option<CommitmentState>,
    pub content: Option<String>,
    pub confidence: Option<Confidence>,
    pub author: Option<Author>,
    pub update: Option<(ChatId, MessageId)>,
    /// A new owner ("это не моё" → who).
    pub owner: Option<UserId>,
}

/// A memory of another kind than commitment.
#[derive(Debug, Clone, PartialEq)]
pub struct Memory {
    pub id: MemoryId,
    pub org_id: OrgId,
    pub subject: UserId,
    pub kind: MemoryKind,
    pub content: String,
    pub confidence: Confidence,
    pub author: Author,
    pub visibility: Visibility,
    pub evidence: String,
    pub source_chat: Option<ChatId>,
    pub source_message: Option<MessageId>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub archived: bool,
}

#[derive(Debug, Clone)]
pub struct NewMemory<'a> {
    pub org_id: OrgId,
    pub subject: UserId,
    pub kind: MemoryKind,
    pub content: &'a str,
    pub confidence: Confidence,
    pub author: Author,
    pub visibility: Visibility,
    pub evidence: &'a str,
    pub source_chat: Option<ChatId>,
    pub source_message: Option<MessageId>,
    pub at: DateTime<Utc>,
}

pub(super) const COMMITMENT_COLS: &str = "id, origin_id, org_id, subject_id, content, due_at, state, confidence, author,
    visibility, source_chat_id, source_message_id, version_chat_id, version_message_id, requester_id,
    created_at, valid_from, is_archived";

/// Column access shared by SQL rows and the JSON objects of [`json_rows`] reads.
pub(super) trait Get {
    fn i(&self, c: &str) -> Result<i64>;
    fn oi(&self, c: &str) -> Result<Option<i64>>;
    fn s(&self, c: &str) -> Result<String>;
    fn os(&self, c: &str) -> Result<Option<String>>;
    fn f(&self, c: &str) -> Result<f64>;
    /// A text column parsed as `T` (a state, a kind). Readers that can lend the text override
    /// it, so that the words of every row are not copied into strings only to be parsed.
    fn parsed<T: std::str::FromStr>(&self, c: &str) -> Result<T> {
        parse(&self.s(c)?)
    }
    /// A nullable text column, lent to `read`.
    fn with_os<T>(&self, c: &str, read: impl FnOnce(Option<&str>) -> Result<T>) -> Result<T> {
        read(self.os(c)?.as_deref())
    }
}

impl Get for sqlx::sqlite::SqliteRow {
    fn i(&self, c: &str) -> Result<i64> {
        Ok(self.try_get(c)?)
    }
    fn oi(&self, c: &str) -> Result<Option<i64>> {
        Ok(self.try_get(c)?)
    }
    fn s(&self, c: &str) -> Result<String> {
        Ok(self.try_get(c)?)
    }
    fn os(&self, c: &str) -> Result<Option<String>> {
        Ok(self.try_get(c)?)
    }
    fn f(&self, c: &str) -> Result<f64> {
        Ok(self.try_get(c)?)
    }
}

/// A column of a JSON row (`None`: the column is not there), read as [`Get`] reads it.
pub(super) struct JsonCol<'a>(pub &'a str, pub Option<&'a serde_json::Value>);

impl JsonCol<'_> {
    pub(super) fn oi(&self) -> Result<Option<i64>> {
        match self.1 {
            None | Some(serde_json::Value::Null) => Ok(None),
            Some(v) => v
                .as_i64()
                .map(Some)
                .ok_or_else(|| StoreError::Corrupt(format!("column {}: {v}", self.0))),
        }
    }
    pub(super) fn i(&self) -> Result<i64> {
        self.oi()?
            .ok_or_else(|| StoreError::Corrupt(format!("column {} is null", self.0)))
    }
    pub(super) fn os(&self) -> Result<Option<String>> {
        match self.1 {
            None | Some(serde_json::Value::Null) => Ok(None),
            Some(serde_json::Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(StoreError::Corrupt(format!("column {}: {v}", self.0))),
        }
    }
    pub(super) fn s(&self) -> Result<String> {
        self.os()?
            .ok_or_else(|| StoreError::Corrupt(format!("column {} is null", self.0)))
    }
    pub(super) fn f(&self) -> Result<f64> {
        self.1
            .and_then(serde_json::Value::as_f64)
            .ok_or_else(|| StoreError::Corrupt(format!("column {}", self.0)))
    }
}

impl Get for serde_json::Map<String, serde_json::Value> {
    fn i(&self, c: &str) -> Result<i64> {
        JsonCol(c, self.get(c)).i()
    }
    fn oi(&self, c: &str) -> Result<Option<i64>> {
        JsonCol(c, self.get(c)).oi()
    }
    fn s(&self, c: &str) -> Result<String> {
        JsonCol(c, self.get(c)).s()
    }
    fn os(&self, c: &str) -> Result<Option<String>> {
        JsonCol(c, self.get(c)).os()
    }
    fn f(&self, c: &str) -> Result<f64> {
        JsonCol(c, self.get(c)).f()
    }
}

/// `json_group_array(json_object('a', a, ...))` over a column list: a read of many rows that
/// crosses from SQLite to Rust once instead of once per row (sqlx hands rows over one by one
/// from its worker thread, which costs more than the row itself on small machines).
pub(super) fn json_rows(cols: &str) -> String {
    let pairs: Vec<String> = cols
        .split(',')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(|c| format!("'{c}', {c}"))
        .collect();
    format!("json_group_array(json_object({}))", pairs.join(", "))
}

pub(super) fn parse_json_rows(
    text: &str,
) -> Result<Vec<serde_json::Map<String, serde_json::Value>>> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(format!("json rows: {e}")))
}

/// Commitments from the one-row JSON list the reads build (`json_rows`).
pub(super) fn commitment_from_row(r: &impl Get) -> Result<Commitment> {
    let id = MemoryId(r.i("id")?);
    Ok(Commitment {
        id,
        origin_id: r.oi("origin_id")?.map(MemoryId).unwrap_or(id),
        org_id: OrgId(r.i("org_id")?),
        owner: UserId(r.i("subject_id")?),
        content: r.s("content")?,
        due: r.with_os("due_at", |due| {
            due.map(Due::from_db)
                .transpose()
                .map_err(|e| StoreError::Corrupt(e.to_string()))
        })?,
        state: r.parsed("state")?,
        confidence: Confidence::new(r.f("confidence")?)
            .map_err(|e| StoreError::Corrupt(e.to_string()))?,
        author: r.parsed("author")?,
        visibility: r.parsed("visibility")?,
        source_chat: r.oi("source_chat_id")?.map(ChatId),
        source_message: r.oi("source_message_id")?.map(MessageId),
        version_chat: r.oi("version_chat_id")?.map(ChatId),
        version_message: r.oi("version_message_id")?.map(MessageId),
        requester: r.oi("requester_id")?.map(UserId),
        created_at: from_ts(r.i("created_at")?)?,
        valid_from: from_ts(r.i("valid_from")?)?,
        archived: r.i("is_archived")? != 0,
    })
}

pub(super) const MEMORY_COLS: &str =
    "id, org_id, subject_id, kind, content, confidence, author, visibility, evidence,
    source_chat_id, source_message_id, created_at, updated_at, is_archived";

pub(super) fn memory_from_row(r: &impl Get) -> Result<Memory> {
    Ok(Memory {
        id: MemoryId(r.i("id")?),
        org_id: OrgId(r.i("org_id")?),
        subject: UserId(r.i("subject_id")?),
        kind: r.parsed("kind")?,
        content: r.s("content")?,
        confidence: Confidence::new(r.f("confidence")?)
            .map_err(|e| StoreError::Corrupt(e.to_string()))?,
        author: r.parsed("author")?,
        visibility: r.parsed("visibility")?,
        evidence: r.s("evidence")?,
        source_chat: r.oi("source_chat_id")?.map(ChatId),
        source_message: r.oi("source_message_id")?.map(MessageId),
        created_at: from_ts(r.i("created_at")?)?,
        updated_at: from_ts(r.i("updated_at")?)?,
        archived: r.i("is_archived")? != 0,
    })
}

impl Store {
    /// A new commitment: one statement (the `commitment_origin` trigger makes it its own origin).
    pub async fn insert_commitment(&self, c: &NewCommitment<'_>) -> Result<Commitment> {
        let row = sqlx::query(AssertSqlSafe(format!(
            "INSERT INTO memories (org_id, subject_id, kind, content, norm_content, confidence, evidence,
                 author, visibility, source_chat_id, source_message_id, valid_from, created_at, updated_at,
                 due_at, due_grain, state, requester_id, request_chat_id, request_message_id,
                 version_chat_id, version_message_id)
             VALUES (?, ?, 'commitment', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, ?, ?, ?)
             RETURNING {COMMITMENT_COLS}"
        )))
        .bind(c.org_id.0)
        .bind(c.owner.0)
        .bind(c.content)
        .bind(normalize_content(c.content))
        .bind(c.confidence.value())
        .bind(c.evidence)
        .bind(c.author.to_string())
        .bind(c.visibility.as_str())
        .bind(c.source_chat.map(|x| x.0))
        .bind(c.source_message.map(|x| x.0))
        .bind(ts(c.at))
        .bind(ts(c.at))
        .bind(ts(c.at))
        .bind(c.due.map(Due::to_db))
        .bind(c.due.map(Due::grain_str))
        .bind(c.requester.map(|x| x.0))
        .bind(c.request.map(|x| x.0.0))
        .bind(c.request.map(|x| x.1.0))
        .bind(c.source_chat.map(|x| x.0))
        .bind(c.source_message.map(|x| x.0))
        .fetch_one(&self.pool)
        .await?;
        // RETURNING shows the row before the trigger set origin_id; `commitment_from_row`
        // reads a missing origin as the row itself, which is what the trigger wrote.
        commitment_from_row(&row)
    }

    /// The current version of the commitment that started at `origin`.
    pub async fn current_commitment(&self, origin: MemoryId) -> Result<Option<Commitment>> {
        let r = sqlx::query(AssertSqlSafe(format!(
            "SELECT {COMMITMENT_COLS} FROM memories
             WHERE origin_id = ? AND kind = 'commitment' AND is_archived = 0"
        )))
        .bind(origin.0)
        .fetch_optional(&self.pool)
        .await?;
        r.as_ref().map(commitment_from_row).transpose()
    }

    /// Writes a new version with `change` and archives `current` (the `commitment_supersede`
    /// trigger, in the same statement); the origin stays the same. Returns `None` when
    /// `current` is no longer the current version (a concurrent change won).
    pub async fn change_commitment(
        &self,
        current: &Commitment,
        change: &CommitmentChange,
        at: DateTime<Utc>,
    ) -> Result<Option<Commitment>> {
        let due = change.due.unwrap_or(current.due);
        let content = change.content.as_deref().unwrap_or(&current.content);
        let state = change.state.unwrap_or(current.state);
        let confidence = change.confidence.unwrap_or(current.confidence);
        let author = change.author.unwrap_or(current.author);
        let (vchat, vmsg) = match change.update {
            Some((c, m)) => (Some(c.0), Some(m.0)),
            None => (None, None),
        };
        let row = sqlx::query(AssertSqlSafe(format!(
            "INSERT INTO memories (org_id, subject_id, kind, content, norm_content, confidence, tags, evidence,
                 author, visibility, source_chat_id, source_message_id, valid_from, created_at, updated_at,
                 due_at, due_grain, state, origin_id, requester_id, request_chat_id, request_message_id,
                 version_chat_id, version_message_id)
             SELECT org_id, coalesce(?, subject_id), kind, ?, ?, ?, tags, evidence, ?, visibility, source_chat_id,
                 source_message_id, ?, created_at, ?, ?, ?, ?, origin_id, requester_id, request_chat_id,
                 request_message_id, ?, ?
             FROM memories WHERE id = ? AND is_archived = 0
             RETURNING {COMMITMENT_COLS}"
        )))
        .bind(change.owner.map(|u| u.0))
        .bind(content)
        .bind(normalize_content(content))
        .bind(confidence.value())
        .bind(author.to_string())
        .bind(ts(at))
        .bind(ts(at))
        .bind(due.map(Due::to_db))
        .bind(due.map(Due::grain_str))
        .bind(state.as_str())
        .bind(vchat)
        .bind(vmsg)
        .bind(current.id.0)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(commitment_from_row).transpose()
    }

    /// Current commitments whose origin is this message.
    pub async fn commitments_made_in(
        &self,
        chat: ChatId,
        msg: MessageId,
    ) -> Result<Vec<Commitment>> {
        self.readers
            .with(|conn| commitments_by(conn, &COMMITMENTS_MADE_IN, [chat.0, msg.0]))
    }

    /// A person's open commitments, most recently made first.
    pub async fn open_commitments(&self, org: OrgId, owner: UserId) -> Result<Vec<Commitment>> {
        static SQL: LazyLock<String> = LazyLock::new(|| {
            format!(
                "SELECT {COMMITMENT_COLS} FROM memories
                 WHERE org_id = ?1 AND subject_id = ?2 AND kind = 'commitment' AND is_archived = 0
                   AND state = 'open'
                 ORDER BY created_at DESC, id DESC"
            )
        });
        self.readers
            .with(|conn| commitments_by(conn, &SQL, [org.0, owner.0]))
    }

    /// Every open commitment of the org, most recently made first: one read instead of one per
    /// person (updates by managers, team overviews).
    pub async fn open_commitments_in_org(&self, org: OrgId) -> Result<Vec<Commitment>> {
        self.readers
            .with(|conn| commitments_by(conn, &OPEN_COMMITMENTS_IN_ORG, [org.0]))
    }

    /// Every open commitment of the org due on or before `due_by` (a `YYYY-MM-DD` bound,
    /// inclusive) that reminders are for: versions in `reminder_mutes` are left out.
    pub async fn open_commitments_due_by(
        &self,
        org: OrgId,
        due_by: &str,
    ) -> Result<Vec<Commitment>> {
        static SQL: LazyLock<String> = LazyLock::new(|| {
            format!(
                "SELECT {COMMITMENT_COLS} FROM memories INDEXED BY memories_open_due
                 WHERE org_id = ?1 AND kind = 'commitment' AND is_archived = 0 AND state = 'open'
                   AND due_at IS NOT NULL AND substr(due_at, 1, 10) <= ?2
                   AND NOT EXISTS (SELECT 1 FROM reminder_mutes r WHERE r.memory_id = memories.id)
                 ORDER BY subject_id, due_at, id"
            )
        });
        self.readers
            .with(|conn| commitments_by(conn, &SQL, rusqlite::params![org.0, due_by]))
    }

    /// Mutes the reminders of the current, open versions that the messages `made_by` wrote
    /// (made, moved or accepted there) and that were due before `due_before`; returns how many
    /// were newly muted. Keyed by version: a later change is reminded again.
    pub async fn mute_reminders(
        &self,
        org: OrgId,
        made_by: &[(ChatId, MessageId)],
        due_before: NaiveDate,
        now: DateTime<Utc>,
    ) -> Result<u64> {
        if made_by.is_empty() {
            return Ok(0);
        }
        // One parameter for the whole batch of keys: a JSON array of [chat, message] pairs.
        let keys = serde_json::to_string(
            &made_by
                .iter()
                .map(|(c, m)| [c.0, m.0])
                .collect::<Vec<[i64; 2]>>(),
        )
        .map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let done = sqlx::query(
            "INSERT INTO reminder_mutes (memory_id, org_id, reason, muted_at)
             SELECT m.id, m.org_id, 'import', ?1
               FROM (SELECT json_extract(value, '$[0]') AS chat, json_extract(value, '$[1]') AS msg
                       FROM json_each(?2)) k
               JOIN memories m
                 ON m.version_chat_id = k.chat AND m.version_message_id = k.msg
              WHERE m.org_id = ?3 AND m.kind = 'commitment' AND m.is_archived = 0
                AND m.state = 'open' AND m.due_at IS NOT NULL AND substr(m.due_at, 1, 10) < ?4
             ON CONFLICT (memory_id) DO NOTHING",
        )
        .bind(ts(now))
        .bind(keys)
        .bind(org.0)
        .bind(due_before.format("%Y-%m-%d").to_string())
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }

    /// How many commitments of the org are open, and how many of those are muted (reminded of
    /// never, see [`Store::mute_reminders`]).
    pub async fn open_commitment_counts(&self, org: OrgId) -> Result<(i64, i64)> {
        let r = sqlx::query(
            "SELECT count(*) AS open, count(r.memory_id) AS muted
               FROM memories m INDEXED BY memories_open_due
               LEFT JOIN reminder_mutes r ON r.memory_id = m.id
              WHERE m.org_id = ? AND m.kind = 'commitment' AND m.is_archived = 0 AND m.state = 'open'",
        )
        .bind(org.0)
        .fetch_one(&self.pool)
        .await?;
        Ok((r.try_get("open")?, r.try_get("muted")?))
    }

    /// Every version of every commitment of the org, oldest first (history, digests, export).
    pub async fn commitment_versions(&self, org: OrgId) -> Result<Vec<Commitment>> {
        static SQL: LazyLock<String> = LazyLock::new(|| {
            format!(
                "SELECT {COMMITMENT_COLS} FROM memories WHERE org_id = ?1 AND kind = 'commitment'
                 ORDER BY origin_id, id"
            )
        });
        self.readers
            .snapshot(|conn| super::read::all(conn, &SQL, [org.0], |r| commitment_from_row(r)))
    }

    /// Every version of the org's commitments that were open or changed since `since`: those
    /// with a version from then on, and those whose newest version is open (a day's or a
    /// week's digest reads nothing else, and an org's history grows every day).
    pub async fn commitment_versions_since(
        &self,
        org: OrgId,
        since: DateTime<Utc>,
    ) -> Result<Vec<Commitment>> {
        static SQL: LazyLock<String> = LazyLock::new(|| {
            format!(
                "SELECT {COMMITMENT_COLS} FROM memories
                   WHERE org_id = ?1 AND kind = 'commitment' AND origin_id IN (
                     SELECT origin_id FROM memories WHERE org_id = ?1 AND kind = 'commitment'
                       AND (valid_from >= ?2 OR (is_archived = 0 AND state = 'open')))
                 ORDER BY origin_id, id"
            )
        });
        self.readers.snapshot(|conn| {
            super::read::all(conn, &SQL, [org.0, ts(since)], |r| commitment_from_row(r))
        })
    }

    /// Inserts a memory, or refreshes the current one with the same subject, kind and normalised
    /// content (evidence appended, confidence raised to the higher of the two).
    pub async fn upsert_memory(&self, m: &NewMemory<'_>) -> Result<MemoryId> {
        self.write(|conn| upsert_memory_on(conn, m)).await
    }

    /// A person's current memories of the non-commitment kinds that `scope` allows: the
    /// `recent` newest (decay favours them) and the `facts` most confident facts (facts never
    /// decay, so an old one can still rank first). Ranking itself is the caller's.
    pub async fn memories_for(
        &self,
        org: OrgId,
        subject: UserId,
        scope: Scope,
        recent: i64,
        facts: i64,
    ) -> Result<Vec<Memory>> {
        let text: String = sqlx::query_scalar(AssertSqlSafe(format!(
            "SELECT {json} FROM (
                 SELECT * FROM (
                     SELECT {MEMORY_COLS} FROM memories
                     WHERE org_id = ?1 AND subject_id = ?2 AND kind <> 'commitment'
                       AND is_archived = 0 AND (?3 = 1 OR visibility = 'team')
                     ORDER BY id DESC LIMIT +?4)
                 UNION ALL
                 SELECT * FROM (
                     SELECT {MEMORY_COLS} FROM memories
                     WHERE org_id = ?1 AND subject_id = ?2 AND kind = 'fact' AND is_archived = 0
                       AND (?3 = 1 OR visibility = 'team')
                     ORDER BY confidence DESC, id DESC LIMIT +?5))",
            json = json_rows(MEMORY_COLS)
        )))
        .bind(org.0)
        .bind(subject.0)
        .bind(scope.full())
        .bind(recent)
        .bind(facts)
        .fetch_one(&self.pool)
        .await?;
        // A fact can be both recent and among the best: keep it once.
        let mut out: Vec<Memory> = Vec::new();
        for m in parse_json_rows(&text)?.iter().map(memory_from_row) {
            let m = m?;
            if !out.iter().any(|x| x.id == m.id) {
                out.push(m);
            }
        }
        Ok(out)
    }

    pub async fn memory(&self, id: MemoryId) -> Result<Option<Memory>> {
        let r = sqlx::query(AssertSqlSafe(format!(
            "SELECT {MEMORY_COLS} FROM memories WHERE id = ? AND kind <> 'commitment'"
        )))
        .bind(id.0)
        .fetch_optional(&self.pool)
        .await?;
        r.as_ref().map(memory_from_row).transpose()
    }

    /// Archives one of `subject`'s own memories; false when there is no such current memory.
    pub async fn archive_memory(
        &self,
        id: MemoryId,
        subject: UserId,
        at: DateTime<Utc>,
    ) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE memories SET is_archived = 1, valid_to = ?, updated_at = ?
             WHERE id = ? AND subject_id = ? AND kind <> 'commitment' AND is_archived = 0",
        )
        .bind(ts(at))
        .bind(ts(at))
        .bind(id.0)
        .bind(subject.0)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Every memory of the other kinds, archived included (export).
    pub async fn all_memories(&self, org: OrgId) -> Result<Vec<Memory>> {
        let rows = sqlx::query(AssertSqlSafe(format!(
            "SELECT {MEMORY_COLS} FROM memories WHERE org_id = ? AND kind <> 'commitment' ORDER BY id"
        )))
        .bind(org.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(memory_from_row).collect()
    }

    /// Current memories of the org whose content mentions one of `needles` (lower-cased), within
    /// what the asker may see: team rows, plus every row of the subjects in `full_subjects`.
    pub async fn memories_mentioning(
        &self,
        org: OrgId,
        needles: &[String],
        full_subjects: &[UserId],
    ) -> Result<Vec<Memory>> {
        let mut out = Vec::new();
        let subjects =
            serde_json::to_string(&full_subjects.iter().map(|u| u.0).collect::<Vec<_>>())
                .map_err(|e| StoreError::Corrupt(e.to_string()))?;
        for needle in needles.iter().filter(|n| !n.is_empty()).take(5) {
            let rows = sqlx::query(AssertSqlSafe(format!(
                "SELECT {MEMORY_COLS} FROM memories
                 WHERE org_id = ?1 AND kind <> 'commitment' AND is_archived = 0
                   AND instr(norm_content, ?2) > 0
                   AND (visibility = 'team' OR subject_id IN (SELECT value FROM json_each(?3)))
                 ORDER BY id DESC LIMIT 20"
            )))
            .bind(org.0)
            .bind(needle)
            .bind(&subjects)
            .fetch_all(&self.pool)
            .await?;
            for r in &rows {
                let m = memory_from_row(r)?;
                if !out.iter().any(|x: &Memory| x.id == m.id) {
                    out.push(m);
                }
            }
        }
        Ok(out)
    }
}

/// [`Store::upsert_memory`] on the writer (a batch runs it inside its transaction).
pub(super) fn upsert_memory_on(conn: &rusqlite::Connection, m: &NewMemory<'_>) -> Result<MemoryId> {
    let id: i64 = conn
        .prepare_cached(
            "INSERT INTO memories (org_id, subject_id, kind, content, norm_content, confidence, evidence,
                 author, visibility, source_chat_id, source_message_id, valid_from, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?12, ?12)
             ON CONFLICT (org_id, subject_id, kind, norm_content) WHERE is_archived = 0 AND kind <> 'commitment'
             DO UPDATE SET
                 evidence = CASE WHEN memories.evidence = '' THEN excluded.evidence
                                 WHEN instr(memories.evidence, excluded.evidence) > 0 THEN memories.evidence
                                 ELSE memories.evidence || '; ' || excluded.evidence END,
                 confidence = max(memories.confidence, excluded.confidence),
                 updated_at = excluded.updated_at
             RETURNING id",
        )?
        .query_row(
            rusqlite::params![
                m.org_id.0,
                m.subject.0,
                m.kind.as_str(),
                m.content,
                normalize_content(m.content),
                m.confidence.value(),
                m.evidence,
                m.author.to_string(),
                m.visibility.as_str(),
                m.source_chat.map(|x| x.0),
                m.source_message.map(|x| x.0),
                ts(m.at),
            ],
            |r| r.get(0),
        )?;
    Ok(MemoryId(id))
}

/// The commitments a statement of the ones below selects, on a connection of kept's own.
pub(super) fn commitments_by(
    conn: &rusqlite::Connection,
    sql: &str,
    params: impl rusqlite::Params,
) -> Result<Vec<Commitment>> {
    read::all(conn, sql, params, |r| commitment_from_row(r))
}

/// Every open commitment of an org, most recently made first.
pub(super) static OPEN_COMMITMENTS_IN_ORG: LazyLock<String> = LazyLock::new(|| {
    // Without the hint SQLite may walk every current commitment of the org (done ones
    // included) through `memories_commitments_recent`.
    format!(
        "SELECT {COMMITMENT_COLS} FROM memories INDEXED BY memories_open_subject
         WHERE org_id = ? AND kind = 'commitment' AND is_archived = 0 AND state = 'open'
         ORDER BY created_at DESC, id DESC"
    )
});

/// Current commitments whose origin is a message (chat, message).
pub(super) static COMMITMENTS_MADE_IN: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT {COMMITMENT_COLS} FROM memories WHERE kind = 'commitment' AND is_archived = 0
           AND source_chat_id = ? AND source_message_id = ? ORDER BY id"
    )
});

/// Current commitments a message (chat, message) made, moved, completed or was asked in (any
/// version).
pub(super) static COMMITMENTS_OF_MESSAGE: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT {COMMITMENT_COLS} FROM memories WHERE kind = 'commitment' AND is_archived = 0
           AND origin_id IN (
             SELECT origin_id FROM memories WHERE kind = 'commitment' AND (
                 (source_chat_id = ?1 AND source_message_id = ?2)
              OR (version_chat_id = ?1 AND version_message_id = ?2)
              OR (request_chat_id = ?1 AND request_message_id = ?2)))
         ORDER BY id"
    )
});

/// How many memories may wait for the search index before a batch's commit indexes them: the
/// index then grows by one FTS5 segment per this many memories, not one per promise.
pub(super) const MEMORY_SEARCH_BACKLOG: i64 = 64;

/// Indexes for search the memories written since the last time, when at least `backlog` of
/// them wait; in the caller's write transaction. Returns how many it indexed.
pub(super) fn index_memories(conn: &rusqlite::Connection, backlog: i64) -> Result<i64> {
    let (mark, top): (i64, i64) = conn
        .prepare_cached(
            "SELECT memory_id, (SELECT coalesce(max(id), 0) FROM memories)
             FROM memory_search_mark WHERE id = 1",
        )?
        .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    // Below the mark (the newest rows deleted): rows that take their ids are indexed by the
    // insert trigger, so nothing waits.
    if top - mark < backlog.max(1) {
        return Ok(0);
    }
    let added = conn
        .prepare_cached(
            "INSERT INTO memories_fts (rowid, content)
             SELECT id, content FROM memories WHERE id > ?1 AND id <= ?2",
        )?
        .execute([mark, top])?;
    conn.prepare_cached("UPDATE memory_search_mark SET memory_id = ? WHERE id = 1")?
        .execute([top])?;
    Ok(added as i64)
}

impl Store {
    /// Indexes for search every memory not indexed yet (before a search reads the index).
    pub async fn index_memories(&self) -> Result<i64> {
        self.write(|conn| index_memories(conn, 1)).await
    }
}
