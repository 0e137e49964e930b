//! What an operator asks of the database itself: a consistent copy while the bot runs, and the
//! numbers `kept status` shows.

use std::path::Path;

use chrono::{DateTime, Utc};
use sqlx::Row;

use super::{Result, Store, StoreError, from_ts};
use crate::domain::{JobKind, OrgId};

/// One org's numbers for `kept status`.
#[derive(Debug, Clone, PartialEq)]
pub struct OrgStatus {
    pub id: OrgId,
    pub name: String,
    pub people: i64,
    pub open_promises: i64,
    pub overdue_promises: i64,
    /// The last run of each job that ran at least once: (job, scheduled time).
    pub last_runs: Vec<(JobKind, DateTime<Utc>)>,
}

/// The delivery queue: (queued, failed for good, sent).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueueStatus {
    pub queued: i64,
    pub failed: i64,
    pub sent: i64,
}

impl Store {
    /// Writes a consistent copy of the database to `out` (which must not exist) while other
    /// connections go on reading and writing: `VACUUM INTO` reads one snapshot and writes a
    /// compact file with no WAL beside it.
    pub async fn backup_into(&self, out: &Path) -> Result<()> {
        if out.exists() {
            return Err(StoreError::BackupTarget(format!(
                "{}: it already exists, and a backup never overwrites a file",
                out.display()
            )));
        }
        let target = out.to_str().ok_or_else(|| {
            StoreError::BackupTarget(format!("{}: not a UTF-8 path", out.display()))
        })?;
        sqlx::query("VACUUM INTO ?")
            .bind(target)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Every org with its people, promises and the last run of each job, as of `today` (the
    /// org's local date decides what is overdue, so it is passed per org by the caller).
    pub async fn org_status(&self, org: OrgId, today: &str) -> Result<OrgStatus> {
        let r = sqlx::query(
            "SELECT o.id, o.name,
                 (SELECT count(*) FROM members WHERE org_id = o.id AND active = 1) AS people,
                 (SELECT count(*) FROM memories INDEXED BY memories_open_due
                   WHERE org_id = o.id AND kind = 'commitment' AND is_archived = 0 AND state = 'open') AS open,
                 (SELECT count(*) FROM memories INDEXED BY memories_open_due
                   WHERE org_id = o.id AND kind = 'commitment' AND is_archived = 0 AND state = 'open'
                     AND due_at IS NOT NULL AND due_at < ?2) AS overdue
             FROM orgs o WHERE o.id = ?1",
        )
        .bind(org.0)
        .bind(today)
        .fetch_optional(&self.pool)
        .await?
        .ok_or_else(|| StoreError::NotFound(format!("org {org}")))?;
        let runs = sqlx::query(
            "SELECT job, max(scheduled_at) AS at FROM job_runs WHERE org_id = ? GROUP BY job ORDER BY job",
        )
        .bind(org.0)
        .fetch_all(&self.pool)
        .await?;
        let mut last_runs = Vec::new();
        for run in runs {
            let job: String = run.try_get("job")?;
            last_runs.push((super::parse(&job)?, from_ts(run.try_get("at")?)?));
        }
        Ok(OrgStatus {
            id: OrgId(r.try_get("id")?),
            name: r.try_get("name")?,
            people: r.try_get("people")?,
            open_promises: r.try_get("open")?,
            overdue_promises: r.try_get("overdue")?,
            last_runs,
        })
    }

    /// How many active group chats an org listens to.
    pub async fn linked_chat_count(&self, org: OrgId) -> Result<i64> {
        Ok(
            sqlx::query_scalar("SELECT count(*) FROM chats WHERE org_id = ? AND active = 1")
                .bind(org.0)
                .fetch_one(&self.pool)
                .await?,
        )
    }

    /// Whether the database answers at all (health checks).
    pub async fn ping(&self) -> Result<()> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// The delivery queue across orgs.
    pub async fn queue_status(&self) -> Result<QueueStatus> {
        let (sent, queued, failed) = self.delivery_counts().await?;
        Ok(QueueStatus {
            queued,
            failed,
            sent,
        })
    }

    /// Messages and memories kept, across orgs: (messages, memories).
    pub async fn row_counts(&self) -> Result<(i64, i64)> {
        let r = sqlx::query(
            "SELECT (SELECT count(*) FROM messages) AS messages, (SELECT count(*) FROM memories) AS memories",
        )
        .fetch_one(&self.pool)
        .await?;
        Ok((r.try_get("messages")?, r.try_get("memories")?))
    }
}
