//! Who receives what: each person's digest preferences, and the linked groups that get the
//! weekly digest.

use chrono::{DateTime, Utc};

use rusqlite::OptionalExtension;

use super::{Result, Store, ts};
use crate::domain::{ChatId, OrgId, UserId};

/// A person's digest preferences; the default is both on, at the org's time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DigestPrefs {
    pub daily: bool,
    pub weekly: bool,
    /// The local hour of the daily summary; `None`: the org's schedule.
    pub hour: Option<u32>,
}

impl Default for DigestPrefs {
    fn default() -> Self {
        DigestPrefs {
            daily: true,
            weekly: true,
            hour: None,
        }
    }
}

impl Store {
    pub async fn digest_prefs(&self, org: OrgId, user: UserId) -> Result<DigestPrefs> {
        let row: Option<(bool, bool, Option<i64>)> = self.readers.with(|conn| {
            Ok(conn
                .prepare_cached(
                    "SELECT daily, weekly, hour FROM digest_prefs WHERE org_id = ?1 AND user_id = ?2",
                )?
                .query_row([org.0, user.0], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .optional()?)
        })?;
        Ok(
            row.map_or_else(DigestPrefs::default, |(daily, weekly, hour)| DigestPrefs {
                daily,
                weekly,
                hour: hour.map(|h| h as u32),
            }),
        )
    }

    pub async fn set_digest_prefs(&self, org: OrgId, user: UserId, p: DigestPrefs) -> Result<()> {
        sqlx::query(
            "INSERT INTO digest_prefs (org_id, user_id, daily, weekly, hour) VALUES (?, ?, ?, ?, ?)
             ON CONFLICT (org_id, user_id) DO UPDATE
             SET daily = excluded.daily, weekly = excluded.weekly, hour = excluded.hour",
        )
        .bind(org.0)
        .bind(user.0)
        .bind(p.daily)
        .bind(p.weekly)
        .bind(p.hour.map(i64::from))
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// The distinct hours people of the org chose for their daily summary.
    pub async fn digest_hours(&self, org: OrgId) -> Result<Vec<u32>> {
        let hours: Vec<i64> = self.readers.with(|conn| {
            super::read::column(
                conn,
                "SELECT DISTINCT hour FROM digest_prefs
                 WHERE org_id = ?1 AND daily = 1 AND hour IS NOT NULL ORDER BY hour",
                [org.0],
            )
        })?;
        Ok(hours.into_iter().map(|h| h as u32).collect())
    }

    /// Turns a linked group's weekly digest on or off; false when nothing changed (off when it
    /// was off).
    pub async fn set_group_digest(
        &self,
        org: OrgId,
        chat: ChatId,
        on: bool,
        by: UserId,
        at: DateTime<Utc>,
    ) -> Result<bool> {
        let n = if on {
            // A chat relinked to another org takes the digest of the org that turns it on.
            sqlx::query(
                "INSERT INTO group_digests (chat_id, org_id, enabled_by, created_at)
                 VALUES (?, ?, ?, ?)
                 ON CONFLICT (chat_id) DO UPDATE
                 SET org_id = excluded.org_id, enabled_by = excluded.enabled_by,
                     created_at = excluded.created_at",
            )
            .bind(chat.0)
            .bind(org.0)
            .bind(by.0)
            .bind(ts(at))
            .execute(&self.writer)
            .await?
        } else {
            sqlx::query("DELETE FROM group_digests WHERE chat_id = ?")
                .bind(chat.0)
                .execute(&self.writer)
                .await?
        };
        Ok(n.rows_affected() > 0)
    }

    /// The org's active linked groups that get the weekly digest.
    pub async fn digest_groups(&self, org: OrgId) -> Result<Vec<ChatId>> {
        let ids: Vec<i64> = self.readers.with(|conn| {
            super::read::column(
                conn,
                "SELECT g.chat_id FROM group_digests g JOIN chats c ON c.id = g.chat_id
                 WHERE g.org_id = ?1 AND c.org_id = g.org_id AND c.active = 1 ORDER BY g.chat_id",
                [org.0],
            )
        })?;
        Ok(ids.into_iter().map(ChatId).collect())
    }
}
