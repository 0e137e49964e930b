//! Goals and their steps: a goal set from Telegram, the steps proposed for it, which were kept
//! (each kept step is a task), and which are done.

use chrono::{DateTime, Utc};
use rusqlite::OptionalExtension;
use sqlx::Row;

use super::{Result, Store, from_ts, ts};
use crate::domain::{Due, OrgId, UserId};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Goal {
    pub id: i64,
    pub org: OrgId,
    pub title: String,
    pub description: Option<String>,
    pub owner: Option<UserId>,
    pub created_by: Option<UserId>,
    /// `active`, `done` or `dropped`.
    pub status: String,
    pub due: Option<Due>,
}

/// A step with the task it became (when kept).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoalStep {
    pub id: i64,
    pub goal_id: i64,
    pub position: i64,
    pub title: String,
    /// `proposed`, `kept` or `dropped`.
    pub status: String,
    pub done_at: Option<DateTime<Utc>>,
    pub task_id: Option<i64>,
    pub assignee: Option<UserId>,
    /// The step's task status (`open`, `done`, `cancelled`...), when it has one.
    pub task_status: Option<String>,
    /// Whether the task's assignee accepted it (a task one sets oneself needs no acceptance).
    pub accepted: bool,
    /// When the step became a task.
    pub task_created: Option<DateTime<Utc>>,
}

/// A new goal and its proposed steps.
#[derive(Debug, Clone)]
pub struct NewGoal<'a> {
    pub org: OrgId,
    pub title: &'a str,
    pub description: Option<&'a str>,
    pub owner: UserId,
    pub created_by: UserId,
    pub due: Option<Due>,
    pub steps: &'a [String],
    pub at: DateTime<Utc>,
}

fn goal_from_row(r: &sqlx::sqlite::SqliteRow) -> Result<Goal> {
    let due: Option<String> = r.try_get("due_at")?;
    Ok(Goal {
        id: r.try_get("id")?,
        org: OrgId(r.try_get("org_id")?),
        title: r.try_get("title")?,
        description: r.try_get("description")?,
        owner: r.try_get::<Option<i64>, _>("owner_id")?.map(UserId),
        created_by: r.try_get::<Option<i64>, _>("created_by")?.map(UserId),
        status: r.try_get("status")?,
        due: due
            .as_deref()
            .map(Due::from_db)
            .transpose()
            .map_err(|e| super::StoreError::Corrupt(e.to_string()))?,
    })
}

/// A step with its live task (a declined one is cancelled and no longer the step's).
macro_rules! step_select {
    ($where:literal) => {
        concat!(
            "SELECT s.id, s.goal_id, s.position, s.title, s.status, s.done_at,
                    t.id AS task_id, t.assignee_id, t.status AS task_status,
                    (t.assigned_by IS NULL OR t.accepted_at IS NOT NULL) AS accepted,
                    t.created_at AS task_created
             FROM goal_steps s
             LEFT JOIN tasks t ON t.goal_step_id = s.id AND t.status != 'cancelled' ",
            $where
        )
    };
}

fn step_from_row(r: &sqlx::sqlite::SqliteRow) -> Result<GoalStep> {
    Ok(GoalStep {
        id: r.try_get("id")?,
        goal_id: r.try_get("goal_id")?,
        position: r.try_get("position")?,
        title: r.try_get("title")?,
        status: r.try_get("status")?,
        done_at: r
            .try_get::<Option<i64>, _>("done_at")?
            .map(from_ts)
            .transpose()?,
        task_id: r.try_get("task_id")?,
        assignee: r.try_get::<Option<i64>, _>("assignee_id")?.map(UserId),
        task_status: r.try_get("task_status")?,
        accepted: r.try_get::<Option<bool>, _>("accepted")?.unwrap_or(false),
        task_created: r
            .try_get::<Option<i64>, _>("task_created")?
            .map(from_ts)
            .transpose()?,
    })
}

impl Store {
    /// A goal and its proposed steps, numbered from 1, in one transaction.
    pub async fn insert_goal(&self, g: &NewGoal<'_>) -> Result<i64> {
        let mut tx = self.writer.begin().await?;
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO goals (org_id, title, description, owner_id, created_by, due_at, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
        )
        .bind(g.org.0)
        .bind(g.title)
        .bind(g.description)
        .bind(g.owner.0)
        .bind(g.created_by.0)
        .bind(g.due.map(Due::to_db))
        .bind(ts(g.at))
        .fetch_one(&mut *tx)
        .await?;
        for (k, step) in g.steps.iter().enumerate() {
            sqlx::query("INSERT INTO goal_steps (goal_id, position, title) VALUES (?, ?, ?)")
                .bind(id)
                .bind(k as i64 + 1)
                .bind(step)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(id)
    }

    pub async fn goal(&self, id: i64) -> Result<Option<Goal>> {
        let r = sqlx::query(
            "SELECT id, org_id, title, description, owner_id, created_by, status, due_at
             FROM goals WHERE id = ?",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        r.as_ref().map(goal_from_row).transpose()
    }

    /// The org's goals, active first, then newest.
    pub async fn goals(&self, org: OrgId) -> Result<Vec<Goal>> {
        let rows = sqlx::query(
            "SELECT id, org_id, title, description, owner_id, created_by, status, due_at
             FROM goals WHERE org_id = ? AND status != 'dropped'
             ORDER BY status != 'active', id DESC",
        )
        .bind(org.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(goal_from_row).collect()
    }

    /// A goal's steps in order, each with the task it became.
    pub async fn goal_steps(&self, goal: i64) -> Result<Vec<GoalStep>> {
        let rows = sqlx::query(step_select!("WHERE s.goal_id = ? ORDER BY s.position"))
            .bind(goal)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(step_from_row).collect()
    }

    pub async fn goal_step(&self, id: i64) -> Result<Option<GoalStep>> {
        let r = sqlx::query(step_select!("WHERE s.id = ?"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        r.as_ref().map(step_from_row).transpose()
    }

    /// Drops a proposed step; false when it was already decided. A goal whose steps are all
    /// dropped is dropped; one whose other steps are all done is done.
    pub async fn drop_step(&self, step: i64) -> Result<bool> {
        let tx = self.batches.begin().await?;
        let conn = tx.conn();
        let n = conn
            .prepare_cached(
                "UPDATE goal_steps SET status = 'dropped' WHERE id = ? AND status = 'proposed'",
            )?
            .execute([step])?;
        if n > 0 {
            let goal: i64 = conn
                .prepare_cached("SELECT goal_id FROM goal_steps WHERE id = ?")?
                .query_row([step], |r| r.get(0))?;
            settle_goal_on(conn, goal)?;
        }
        tx.commit()?;
        Ok(n > 0)
    }

    /// Keeps a proposed step as a task for `assignee`: one they set themselves counts at once,
    /// one someone else (`by`) gives them waits for their answer like any assigned task. The
    /// task takes the goal's due date. `None` when the step was already decided.
    pub async fn keep_step(
        &self,
        step: i64,
        assignee: UserId,
        by: UserId,
        at: DateTime<Utc>,
    ) -> Result<Option<i64>> {
        let mut tx = self.writer.begin().await?;
        let n = sqlx::query(
            "UPDATE goal_steps SET status = 'kept' WHERE id = ? AND status = 'proposed'",
        )
        .bind(step)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if n == 0 {
            return Ok(None);
        }
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO tasks (org_id, assignee_id, assigned_by, title, due_at, goal_id, goal_step_id,
                                created_at, updated_at)
             SELECT g.org_id, ?1, ?2, s.title, g.due_at, g.id, s.id, ?3, ?3
             FROM goal_steps s JOIN goals g ON g.id = s.goal_id WHERE s.id = ?4
             RETURNING id",
        )
        .bind(assignee.0)
        .bind((assignee != by).then_some(by.0))
        .bind(ts(at))
        .bind(step)
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Some(id))
    }

    /// A step whose task was declined is proposed again, to be kept for someone else.
    pub async fn reopen_step_of_task(&self, task: i64) -> Result<()> {
        sqlx::query(
            "UPDATE goal_steps SET status = 'proposed'
             WHERE id = (SELECT goal_step_id FROM tasks WHERE id = ? AND status = 'cancelled')",
        )
        .bind(task)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// Steps done in `[from, to)` in the org, with who did them: the daily summary's lines.
    pub async fn steps_done_between(
        &self,
        org: OrgId,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> Result<Vec<(Goal, GoalStep)>> {
        // The steps in one read; each goal they belong to once.
        let rows = sqlx::query(step_select!(
            "JOIN goals g ON g.id = s.goal_id
             WHERE g.org_id = ? AND s.done_at >= ? AND s.done_at < ? ORDER BY s.done_at, s.id"
        ))
        .bind(org.0)
        .bind(ts(from))
        .bind(ts(to))
        .fetch_all(&self.pool)
        .await?;
        let mut goals: Vec<Goal> = Vec::new();
        let mut out = Vec::new();
        for r in &rows {
            let step = step_from_row(r)?;
            if !goals.iter().any(|g| g.id == step.goal_id)
                && let Some(g) = self.goal(step.goal_id).await?
            {
                goals.push(g);
            }
            if let Some(g) = goals.iter().find(|g| g.id == step.goal_id) {
                out.push((g.clone(), step));
            }
        }
        Ok(out)
    }
}

/// Marks an open task done, with its goal step, and the goal once every kept step is done.
/// Returns whether the task was open. Used by the store's own write and by ingest's batch.
pub(super) fn finish_task_on(
    conn: &rusqlite::Connection,
    task: i64,
    at: DateTime<Utc>,
) -> Result<bool> {
    let n = conn
        .prepare_cached(
            "UPDATE tasks SET status = 'done', updated_at = ? WHERE id = ? AND status IN ('open', 'in_progress')",
        )?
        .execute(rusqlite::params![ts(at), task])?;
    if n == 0 {
        return Ok(false);
    }
    let step: Option<(i64, i64)> = conn
        .prepare_cached(
            "SELECT goal_step_id, goal_id FROM tasks WHERE id = ? AND goal_step_id IS NOT NULL",
        )?
        .query_row([task], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    if let Some((step, goal)) = step {
        conn.prepare_cached(
            "UPDATE goal_steps SET done = 1, done_at = ? WHERE id = ? AND done = 0",
        )?
        .execute(rusqlite::params![ts(at), step])?;
        settle_goal_on(conn, goal)?;
    }
    Ok(true)
}

/// An active goal with no step left to do is done, or dropped when every step was dropped.
fn settle_goal_on(conn: &rusqlite::Connection, goal: i64) -> Result<()> {
    conn.prepare_cached(
        "UPDATE goals SET status = CASE WHEN EXISTS (SELECT 1 FROM goal_steps
                                                     WHERE goal_id = ?1 AND status != 'dropped')
                                        THEN 'done' ELSE 'dropped' END
         WHERE id = ?1 AND status = 'active'
           AND NOT EXISTS (SELECT 1 FROM goal_steps
                           WHERE goal_id = ?1 AND status != 'dropped' AND done = 0)",
    )?
    .execute([goal])?;
    Ok(())
}
