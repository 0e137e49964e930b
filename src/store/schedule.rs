//! Scheduled work: job runs (the exactly-once guard), queued deliveries, daily reflections.

use chrono::{DateTime, Utc};
use rusqlite::OptionalExtension;
use sqlx::Row;

use super::memories::Get;
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
    /// Parts of a long text already sent (the splitter cuts it the same way every time).
    pub parts_sent: i64,
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

pub(super) fn reflection_from_row(r: &impl Get) -> Result<Reflection> {
    // A list that does not read as JSON is shown as empty rather than failing the whole read.
    let list =
        |k: &str| -> Result<Vec<String>> { Ok(serde_json::from_str(&r.s(k)?).unwrap_or_default()) };
    Ok(Reflection {
        user_id: UserId(r.i("user_id")?),
        day: r.s("day")?,
        summary: r.s("summary")?,
        highlights: list("highlights")?,
        commitments: list("commitments")?,
        risks: list("risks")?,
        observations: list("observations")?,
    })
}

/// Queues one delivery inside the caller's transaction (a job run's, or a notice's).
pub(super) fn queue_delivery(
    conn: &rusqlite::Connection,
    org: OrgId,
    run: Option<i64>,
    d: &NewDelivery,
    now: DateTime<Utc>,
) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO deliveries (org_id, job_run_id, chat_id, to_user, kind, text, photo, buttons,
             fallback_chat_id, fallback_text, not_before, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?11)",
    )?
    .execute(rusqlite::params![
        org.0,
        run,
        d.chat_id.0,
        d.to_user.map(|u| u.0),
        if d.photo.is_some() {
            "photo"
        } else {
            "message"
        },
        d.text,
        d.photo.as_deref(),
        json(&d.buttons),
        d.fallback_chat_id.map(|c| c.0),
        d.fallback_text.as_deref(),
        ts(now),
    ])?;
    Ok(())
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
        self.write(|conn| {
            let id: Option<i64> = conn
                .prepare_cached(
                    "INSERT INTO job_runs (job, org_id, period_key, scheduled_at, claimed_at, finished_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?5)
                     ON CONFLICT (job, org_id, period_key) DO NOTHING RETURNING id",
                )?
                .query_row(
                    rusqlite::params![job.as_str(), org.0, period_key, ts(scheduled_at), ts(now)],
                    |r| r.get(0),
                )
                .optional()?;
            let Some(run) = id else { return Ok(None) };
            for d in deliveries {
                queue_delivery(conn, org, Some(run), d, now)?;
            }
            Ok(Some(run))
        })
        .await
    }

    pub async fn job_run_exists(&self, job: JobKind, org: OrgId, period_key: &str) -> Result<bool> {
        let n: i64 = self.readers.with(|conn| {
            Ok(conn
                .prepare_cached(
                    "SELECT count(*) FROM job_runs WHERE job = ?1 AND org_id = ?2 AND period_key = ?3",
                )?
                .query_row(rusqlite::params![job.as_str(), org.0, period_key], |r| r.get(0))?)
        })?;
        Ok(n > 0)
    }

    /// Queued deliveries due by `now`, oldest first. The outbox asks this after every update
    /// and every few seconds, nearly always for nothing: it is read on the calling thread
    /// (store/read.rs).
    pub async fn queued_deliveries(&self, now: DateTime<Utc>, limit: i64) -> Result<Vec<Delivery>> {
        self.readers.with(|conn| {
            super::read::all(
                conn,
                "SELECT id, org_id, chat_id, to_user, photo, text, buttons, fallback_chat_id,
                     fallback_text, attempts, parts_sent
                 FROM deliveries WHERE state = 'queued' AND not_before <= ?1
                 ORDER BY not_before, id LIMIT +?2",
                [ts(now), limit],
                |r| {
                    Ok(Delivery {
                        id: r.i("id")?,
                        org_id: OrgId(r.i("org_id")?),
                        chat_id: ChatId(r.i("chat_id")?),
                        to_user: r.oi("to_user")?.map(UserId),
                        photo: r.get("photo")?,
                        text: r.s("text")?,
                        buttons: serde_json::from_str(&r.s("buttons")?).unwrap_or_default(),
                        fallback_chat_id: r.oi("fallback_chat_id")?.map(ChatId),
                        fallback_text: r.os("fallback_text")?,
                        attempts: r.i("attempts")?,
                        parts_sent: r.i("parts_sent")?,
                    })
                },
            )
        })
    }

    pub async fn mark_sent(
        &self,
        id: i64,
        telegram_message_id: i64,
        at: DateTime<Utc>,
    ) -> Result<()> {
        self.write(|conn| {
            conn.prepare_cached(
                "UPDATE deliveries SET state = 'sent', sent_at = ?1, telegram_message_id = ?2,
                     attempts = attempts + 1
                 WHERE id = ?3",
            )?
            .execute([ts(at), telegram_message_id, id])?;
            Ok(())
        })
        .await
    }

    /// Records that the first `parts` parts of a long delivery are out; the rest are still queued.
    pub async fn mark_parts_sent(&self, id: i64, parts: i64) -> Result<()> {
        self.write(|conn| {
            conn.prepare_cached("UPDATE deliveries SET parts_sent = ?1 WHERE id = ?2")?
                .execute([parts, id])?;
            Ok(())
        })
        .await
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
                 fallback_text = NULL, parts_sent = 0, attempts = attempts + 1, last_error = ? WHERE id = ?",
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

    /// What the scheduler needs to see that an org is quiet: how many promises and tasks are open,
    /// and when anything last happened in it (a message, a new memory or version).
    pub async fn org_activity(&self, org: OrgId) -> Result<(i64, Option<DateTime<Utc>>)> {
        let (open, last): (i64, i64) = self.readers.with(|conn| {
            Ok(conn
                .prepare_cached(
                    "SELECT
                 (SELECT count(*) FROM memories INDEXED BY memories_open_due
                   WHERE org_id = ?1 AND kind = 'commitment' AND is_archived = 0 AND state = 'open')
                 + (SELECT count(*) FROM tasks WHERE org_id = ?1 AND status IN ('open', 'in_progress')),
                 max(coalesce((SELECT max(date) FROM messages WHERE org_id = ?1), 0),
                     coalesce((SELECT max(created_at) FROM memories WHERE org_id = ?1), 0))",
                )?
                .query_row([org.0], |r| Ok((r.get(0)?, r.get(1)?)))?)
        })?;
        let last = if last > 0 {
            Some(super::from_ts(last)?)
        } else {
            None
        };
        Ok((open, last))
    }

    /// Deliveries that failed for good: (id, chat, last error), oldest first.
    pub async fn failed_deliveries(&self) -> Result<Vec<(i64, i64, String)>> {
        let rows = sqlx::query(
            "SELECT id, chat_id, coalesce(last_error, '') AS e FROM deliveries WHERE state = 'failed' ORDER BY id",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("chat_id")?, r.try_get("e")?)))
            .collect()
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
        let n = self
            .write(|conn| {
                Ok(conn
                    .prepare_cached(
                        "INSERT INTO reflections (org_id, user_id, day, summary, highlights,
                             commitments, risks, observations, created_at)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
                         ON CONFLICT (user_id, day) DO NOTHING",
                    )?
                    .execute(rusqlite::params![
                        org.0,
                        r.user_id.0,
                        r.day,
                        r.summary,
                        json(&r.highlights),
                        json(&r.commitments),
                        json(&r.risks),
                        json(&r.observations),
                        ts(at),
                    ])?)
            })
            .await?;
        Ok(n == 1)
    }

    /// Whether the person's reflection of `day` is already stored (a resumed run asks no model twice).
    pub async fn has_reflection(&self, user: UserId, day: &str) -> Result<bool> {
        let n: i64 = self.readers.with(|conn| {
            Ok(conn
                .prepare_cached("SELECT count(*) FROM reflections WHERE user_id = ?1 AND day = ?2")?
                .query_row(rusqlite::params![user.0, day], |r| r.get(0))?)
        })?;
        Ok(n > 0)
    }

    /// A person's latest reflections, newest first.
    pub async fn reflections_of(&self, user: UserId, limit: i64) -> Result<Vec<Reflection>> {
        let rows = sqlx::query(
            "SELECT user_id, day, summary, highlights, commitments, risks, observations FROM reflections
             WHERE user_id = ? ORDER BY day DESC LIMIT +?",
        )
        .bind(user.0)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(reflection_from_row).collect()
    }
}

impl Store {
    /// The most recent chart image sent to one person.
    pub async fn last_photo_to(&self, user: UserId) -> Result<Option<Vec<u8>>> {
        Ok(sqlx::query_scalar(
            "SELECT photo FROM deliveries WHERE photo IS NOT NULL AND to_user = ? AND state = 'sent'
             ORDER BY id DESC LIMIT 1",
        )
        .bind(user.0)
        .fetch_optional(&self.pool)
        .await?)
    }

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

    /// When the scheduler last looked at this org: its tick, else (a database from before ticks
    /// were kept) its latest claimed job run. `None`: the scheduler has never run for it.
    pub async fn scheduler_tick(&self, org: OrgId) -> Result<Option<DateTime<Utc>>> {
        let t: Option<i64> = self.readers.with(|conn| {
            Ok(conn
                .prepare_cached(
                    "SELECT coalesce((SELECT ticked_at FROM scheduler_ticks WHERE org_id = ?1),
                                     (SELECT max(claimed_at) FROM job_runs WHERE org_id = ?1))",
                )?
                .query_row([org.0], |r| r.get(0))?)
        })?;
        t.map(super::from_ts).transpose()
    }

    /// Records that the scheduler has handled this org's timetable up to `at`.
    pub async fn set_scheduler_tick(&self, org: OrgId, at: DateTime<Utc>) -> Result<()> {
        self.write(|conn| {
            conn.prepare_cached(
                "INSERT INTO scheduler_ticks (org_id, ticked_at) VALUES (?1, ?2)
                 ON CONFLICT (org_id) DO UPDATE SET ticked_at = excluded.ticked_at",
            )?
            .execute([org.0, ts(at)])?;
            Ok(())
        })
        .await
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
