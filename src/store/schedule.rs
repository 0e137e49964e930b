//! Scheduled work: job runs (the exactly-once guard), queued deliveries, daily reflections.

use chrono::{DateTime, Utc};
use sqlx::Row;

use super::{Result, Store, ts};
use crate::domain::{ChatId, JobKind, OrgId, UserId};

/// A message the bot decided to send, waiting or done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivery {
    pub id: i64,
    pub org_id: OrgId,
    pub chat_id: ChatId,
    pub to_user: Option<UserId>,
    pub photo: Option<Vec<u8>>,
    pub text: String,
    /// Rows of (label, callback data).
    pub buttons: Vec<Vec<(String, String)>>,
    pub fallback_chat_id: Option<ChatId>,
    pub fallback_text: Option<String>,
    pub attempts: i64,
}

#[derive(Debug, Clone, Default)]
pub struct NewDelivery {
    pub chat_id: ChatId,
    pub to_user: Option<UserId>,
    pub photo: Option<Vec<u8>>,
    pub text: String,
    pub buttons: Vec<Vec<(String, String)>>,
    pub fallback_chat_id: Option<ChatId>,
    pub fallback_text: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reflection {
    pub user_id: UserId,
    pub day: String,
    pub summary: String,
    pub highlights: Vec<String>,
    pub commitments: Vec<String>,
    pub risks: Vec<String>,
    pub observations: Vec<String>,
}

fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "[]".into())
}

impl Store {
    /// Claims a run and queues its deliveries in one transaction. `None`: already claimed before
    /// (the run happened, or is being resumed by the sender from `deliveries`).
    pub async fn claim_run(
        &self,
        job: JobKind,
        org: OrgId,
        period_key: &str,
        scheduled_at: DateTime<Utc>,
        now: DateTime<Utc>,
        deliveries: &[NewDelivery],
    ) -> Result<Option<i64>> {
        let mut tx = self.pool.begin().await?;
        let id: Option<i64> = sqlx::query_scalar(
            "INSERT INTO job_runs (job, org_id, period_key, scheduled_at, claimed_at, finished_at)
             VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (job, org_id, period_key) DO NOTHING RETURNING id",
        )
        .bind(job.as_str())
        .bind(org.0)
        .bind(period_key)
        .bind(ts(scheduled_at))
        .bind(ts(now))
        .bind(ts(now))
        .fetch_optional(&mut *tx)
        .await?;
        let Some(run) = id else { return Ok(None) };
        for d in deliveries {
            sqlx::query(
                "INSERT INTO deliveries (org_id, job_run_id, chat_id, to_user, kind, text, photo, buttons,
                     fallback_chat_id, fallback_text, not_before, created_at)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            )
            .bind(org.0)
            .bind(run)
            .bind(d.chat_id.0)
            .bind(d.to_user.map(|u| u.0))
            .bind(if d.photo.is_some() { "photo" } else { "message" })
            .bind(&d.text)
            .bind(d.photo.as_deref())
            .bind(json(&d.buttons))
            .bind(d.fallback_chat_id.map(|c| c.0))
            .bind(d.fallback_text.as_deref())
            .bind(ts(now))
            .bind(ts(now))
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(Some(run))
    }

    pub async fn job_run_exists(&self, job: JobKind, org: OrgId, period_key: &str) -> Result<bool> {
        let n: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM job_runs WHERE job = ? AND org_id = ? AND period_key = ?",
        )
        .bind(job.as_str())
        .bind(org.0)
        .bind(period_key)
        .fetch_one(&self.pool)
        .await?;
        Ok(n > 0)
    }

    /// Queued deliveries due by `now`, oldest first.
    pub async fn queued_deliveries(&self, now: DateTime<Utc>, limit: i64) -> Result<Vec<Delivery>> {
        let rows = sqlx::query(
            "SELECT id, org_id, chat_id, to_user, photo, text, buttons, fallback_chat_id, fallback_text, attempts
             FROM deliveries WHERE state = 'queued' AND not_before <= ? ORDER BY not_before, id LIMIT ?",
        )
        .bind(ts(now))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let buttons: String = r.try_get("buttons")?;
                Ok(Delivery {
                    id: r.try_get("id")?,
                    org_id: OrgId(r.try_get("org_id")?),
                    chat_id: ChatId(r.try_get("chat_id")?),
                    to_user: r.try_get::<Option<i64>, _>("to_user")?.map(UserId),
                    photo: r.try_get("photo")?,
                    text: r.try_get("text")?,
                    buttons: serde_json::from_str(&buttons).unwrap_or_default(),
                    fallback_chat_id: r.try_get::<Option<i64>, _>("fallback_chat_id")?.map(ChatId),
                    fallback_text: r.try_get("fallback_text")?,
                    attempts: r.try_get("attempts")?,
                })
            })
            .collect()
    }

    pub async fn mark_sent(
        &self,
        id: i64,
        telegram_message_id: i64,
        at: DateTime<Utc>,
    ) -> Result<()> {
        sqlx::query(
            "UPDATE deliveries SET state = 'sent', sent_at = ?, telegram_message_id = ?, attempts = attempts + 1
             WHERE id = ?",
        )
        .bind(ts(at))
        .bind(telegram_message_id)
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Puts a delivery back in the queue until `not_before` (429, timeouts).
    pub async fn retry_later(&self, id: i64, not_before: DateTime<Utc>, error: &str) -> Result<()> {
        sqlx::query(
            "UPDATE deliveries SET attempts = attempts + 1, not_before = ?, last_error = ? WHERE id = ?",
        )
        .bind(ts(not_before))
        .bind(error)
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Sends the rest of a delivery to another chat (a closed DM falls back to the group).
    pub async fn redirect_delivery(
        &self,
        id: i64,
        chat: ChatId,
        text: &str,
        error: &str,
    ) -> Result<()> {
        sqlx::query(
            "UPDATE deliveries SET chat_id = ?, text = ?, to_user = NULL, fallback_chat_id = NULL,
                 fallback_text = NULL, attempts = attempts + 1, last_error = ? WHERE id = ?",
        )
        .bind(chat.0)
        .bind(text)
        .bind(error)
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn mark_failed(&self, id: i64, error: &str) -> Result<()> {
        sqlx::query("UPDATE deliveries SET state = 'failed', attempts = attempts + 1, last_error = ? WHERE id = ?")
            .bind(error)
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// (sent, queued, failed) counts: what a restart test looks at.
    pub async fn delivery_counts(&self) -> Result<(i64, i64, i64)> {
        let r = sqlx::query(
            "SELECT sum(state = 'sent'), sum(state = 'queued'), sum(state = 'failed') FROM deliveries",
        )
        .fetch_one(&self.pool)
        .await?;
        Ok((
            r.try_get::<Option<i64>, _>(0)?.unwrap_or(0),
            r.try_get::<Option<i64>, _>(1)?.unwrap_or(0),
            r.try_get::<Option<i64>, _>(2)?.unwrap_or(0),
        ))
    }

    /// Stores the day's reflection of a person once; a second write for the same day is ignored.
    pub async fn insert_reflection(
        &self,
        org: OrgId,
        r: &Reflection,
        at: DateTime<Utc>,
    ) -> Result<bool> {
        let done = sqlx::query(
            "INSERT INTO reflections (org_id, user_id, day, summary, highlights, commitments, risks, observations, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, day) DO NOTHING",
        )
        .bind(org.0)
        .bind(r.user_id.0)
        .bind(&r.day)
        .bind(&r.summary)
        .bind(json(&r.highlights))
        .bind(json(&r.commitments))
        .bind(json(&r.risks))
        .bind(json(&r.observations))
        .bind(ts(at))
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// A person's latest reflections, newest first.
    pub async fn reflections_of(&self, user: UserId, limit: i64) -> Result<Vec<Reflection>> {
        let rows = sqlx::query(
            "SELECT user_id, day, summary, highlights, commitments, risks, observations FROM reflections
             WHERE user_id = ? ORDER BY day DESC LIMIT ?",
        )
        .bind(user.0)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let list = |k: &str| -> Result<Vec<String>> {
                    let s: String = r.try_get(k)?;
                    Ok(serde_json::from_str(&s).unwrap_or_default())
                };
                Ok(Reflection {
                    user_id: UserId(r.try_get("user_id")?),
                    day: r.try_get("day")?,
                    summary: r.try_get("summary")?,
                    highlights: list("highlights")?,
                    commitments: list("commitments")?,
                    risks: list("risks")?,
                    observations: list("observations")?,
                })
            })
            .collect()
    }
}

impl Store {
    /// The most recent chart image queued for sending (the demo writes it to a file).
    pub async fn last_photo(&self) -> Result<Option<Vec<u8>>> {
        Ok(sqlx::query_scalar(
            "SELECT photo FROM deliveries WHERE photo IS NOT NULL ORDER BY id DESC LIMIT 1",
        )
        .fetch_optional(&self.pool)
        .await?)
    }
}

impl Store {
    /// The delivery that became Telegram message `message_id` in `chat` (a reminder whose button
    /// was pressed): its id, current text and buttons.
    pub async fn delivery_by_message(
        &self,
        chat: ChatId,
        message_id: i64,
    ) -> Result<Option<(i64, String, Vec<Vec<(String, String)>>)>> {
        let r = sqlx::query(
            "SELECT id, text, buttons FROM deliveries WHERE chat_id = ? AND telegram_message_id = ? AND state = 'sent'
             ORDER BY id DESC LIMIT 1",
        )
        .bind(chat.0)
        .bind(message_id)
        .fetch_optional(&self.pool)
        .await?;
        r.map(|r| {
            let buttons: String = r.try_get("buttons")?;
            Ok((
                r.try_get("id")?,
                r.try_get("text")?,
                serde_json::from_str(&buttons).unwrap_or_default(),
            ))
        })
        .transpose()
    }

    /// Keeps a sent reminder's text and buttons in step with its edits.
    pub async fn update_sent_delivery(
        &self,
        id: i64,
        text: &str,
        buttons: &[Vec<(String, String)>],
    ) -> Result<()> {
        sqlx::query("UPDATE deliveries SET text = ?, buttons = ? WHERE id = ?")
            .bind(text)
            .bind(json(&buttons))
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
