//! Absences: who is away on which days (no reminders, not silent or idle meanwhile).

use chrono::{DateTime, NaiveDate, Utc};
use sqlx::Row;

use super::{Result, Store, StoreError, ts};
use crate::domain::{ChatId, MessageId, OrgId, UserId};

/// Days a person is away, both ends included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Away {
    pub user: UserId,
    pub from: NaiveDate,
    pub to: NaiveDate,
}

fn day(s: &str) -> Result<NaiveDate> {
    s.parse()
        .map_err(|_| StoreError::Corrupt(format!("absence day {s:?}")))
}

impl Store {
    /// Records an absence (from a message, or `/away` when `source` is `None`).
    pub async fn add_absence(
        &self,
        org: OrgId,
        user: UserId,
        from: NaiveDate,
        to: NaiveDate,
        source: Option<(ChatId, MessageId)>,
        at: DateTime<Utc>,
    ) -> Result<()> {
        sqlx::query(
            "INSERT INTO absences (org_id, user_id, from_day, to_day, source_chat_id, source_message_id, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(org.0)
        .bind(user.0)
        .bind(from.to_string())
        .bind(to.to_string())
        .bind(source.map(|s| s.0.0))
        .bind(source.map(|s| s.1.0))
        .bind(ts(at))
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// `/away off`: ends every absence of the person that is not over by `today`. How many.
    pub async fn end_absences(
        &self,
        org: OrgId,
        user: UserId,
        today: NaiveDate,
        at: DateTime<Utc>,
    ) -> Result<u64> {
        Ok(sqlx::query(
            "UPDATE absences SET ended_at = ? WHERE org_id = ? AND user_id = ? AND ended_at IS NULL AND to_day >= ?",
        )
        .bind(ts(at))
        .bind(org.0)
        .bind(user.0)
        .bind(today.to_string())
        .execute(&self.writer)
        .await?
        .rows_affected())
    }

    /// Absences of the org that overlap `[from, to]`.
    pub async fn absences_between(
        &self,
        org: OrgId,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<Vec<Away>> {
        let rows = sqlx::query(
            "SELECT user_id, from_day, to_day FROM absences
             WHERE org_id = ? AND ended_at IS NULL AND to_day >= ? AND from_day <= ?
             ORDER BY from_day, id",
        )
        .bind(org.0)
        .bind(from.to_string())
        .bind(to.to_string())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(Away {
                    user: UserId(r.try_get("user_id")?),
                    from: day(&r.try_get::<String, _>("from_day")?)?,
                    to: day(&r.try_get::<String, _>("to_day")?)?,
                })
            })
            .collect()
    }
}

/// The absence covering `day` of `user`, if any, among `list`.
pub fn away_on(list: &[Away], user: UserId, day: NaiveDate) -> Option<Away> {
    list.iter()
        .copied()
        .filter(|a| a.user == user && a.from <= day && day <= a.to)
        .max_by_key(|a| a.to)
}
