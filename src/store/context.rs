//! One person's context in one statement: commitments, memories, owned nodes, tasks and
//! reflections come back as one row of five JSON arrays.
//!
//! Each statement crosses from the async side to sqlx's SQLite worker thread and back, and on a
//! small machine that hand-off costs more than the query itself (`benches/context.rs` measured
//! 30–50 µs for a query that returns nothing): five reads side by side cost five hand-offs and
//! five pool checkouts, one statement costs one. Rows are positional JSON arrays (no key per
//! value), read by column position.

use std::sync::LazyLock;

use chrono::{DateTime, Utc};
use serde_json::Value;

use super::graph::{node_from_row, task_from_row};
use super::memories::{
    COMMITMENT_COLS, Get, JsonCol, MEMORY_COLS, commitment_from_row, memory_from_row,
};
use super::schedule::reflection_from_row;
use super::{Commitment, Memory, Node, Reflection, Result, Scope, Store, StoreError, Task, ts};
use crate::domain::{OrgId, UserId};

/// Everything [`Store::context_rows`] reads for one person.
#[derive(Debug, Clone, Default)]
pub struct ContextRows {
    /// Open commitments and those closed since the given time, by due date (undated last).
    pub commitments: Vec<Commitment>,
    /// The newest memories of the other kinds and the most confident facts, each once.
    pub memories: Vec<Memory>,
    pub nodes: Vec<Node>,
    /// Open tasks (full scope only: tasks are given in private).
    pub tasks: Vec<Task>,
    /// The latest reflections (full scope only: they are private).
    pub reflections: Vec<Reflection>,
}

/// How many of a person's newest memories a context read ranks (an answer or a prompt has room
/// for a few dozen; older ones have decayed below them anyway)...
pub const RECENT_MEMORIES: usize = 40;
/// ...plus the most confident facts, which never decay.
pub const TOP_FACTS: usize = 10;
/// The latest daily reflections a context shows.
pub const REFLECTIONS: usize = 3;

const NODE_COLS: &str = "id, node_type, title, slug, description, owner_user_id";
const TASK_COLS: &str = "id, assignee_id, title, status, priority, due_at, given";
const REFLECTION_COLS: &str = "user_id, day, summary, highlights, commitments, risks, observations";

/// The statement's one row: commitments, memories, nodes, tasks, reflections.
type FiveArrays = (
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
    Option<String>,
);

/// `json_group_array(json_array(a, b, ...))`: rows as positional arrays.
fn arrays(cols: &str) -> String {
    format!("json_group_array(json_array({cols}))")
}

/// A positional JSON row read by column name through the column list it was built from.
struct Positional<'a> {
    cols: &'a [&'a str],
    vals: &'a [Value],
}

impl<'a> Positional<'a> {
    fn col(&self, c: &'a str) -> JsonCol<'a> {
        let v = self
            .cols
            .iter()
            .position(|n| *n == c)
            .and_then(|i| self.vals.get(i));
        JsonCol(c, v)
    }
}

impl Get for Positional<'_> {
    fn i(&self, c: &str) -> Result<i64> {
        self.col(c).i()
    }
    fn oi(&self, c: &str) -> Result<Option<i64>> {
        self.col(c).oi()
    }
    fn s(&self, c: &str) -> Result<String> {
        self.col(c).s()
    }
    fn os(&self, c: &str) -> Result<Option<String>> {
        self.col(c).os()
    }
    fn f(&self, c: &str) -> Result<f64> {
        self.col(c).f()
    }
}

fn names(cols: &str) -> Vec<&str> {
    cols.split(',')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect()
}

/// Every row of one array column through `read`.
fn rows<T>(
    text: Option<&str>,
    cols: &str,
    read: impl Fn(&Positional<'_>) -> Result<T>,
) -> Result<Vec<T>> {
    let Some(text) = text else {
        return Ok(Vec::new());
    };
    let arrays: Vec<Vec<Value>> =
        serde_json::from_str(text).map_err(|e| StoreError::Corrupt(format!("json rows: {e}")))?;
    let cols = names(cols);
    arrays
        .iter()
        .map(|vals| read(&Positional { cols: &cols, vals }))
        .collect()
}

/// A person's open tasks (org `?1`, assignee `?2`), most urgent first, then by due date: the
/// context read's and [`Store::open_tasks`]'s.
pub(super) const OPEN_TASKS: &str = "SELECT id, assignee_id, title, status, priority, due_at,
        (assigned_by IS NOT NULL OR goal_step_id IS NOT NULL) AS given
    FROM tasks
    WHERE org_id = ?1 AND assignee_id = ?2 AND status IN ('open', 'in_progress')
      AND (assigned_by IS NULL OR accepted_at IS NOT NULL)
    ORDER BY CASE priority WHEN 'urgent' THEN 0 WHEN 'high' THEN 1 WHEN 'normal' THEN 2 ELSE 3 END,
             due_at IS NULL, due_at, id";

/// A person's open commitments and those closed since `?3` (org `?1`, owner `?2`) as `scope`
/// allows, by due date, undated last: the context read's and [`Store::commitments_for`]'s.
pub(super) fn commitments(scope: Scope) -> String {
    let team = match scope {
        Scope::Full => "",
        Scope::TeamOnly => "AND visibility = 'team'",
    };
    format!(
        "SELECT * FROM (
            SELECT {COMMITMENT_COLS} FROM memories INDEXED BY memories_open_subject
            WHERE org_id = ?1 AND subject_id = ?2 AND kind = 'commitment' AND is_archived = 0
              AND state = 'open' {team}
            UNION ALL
            SELECT {COMMITMENT_COLS} FROM memories
            WHERE org_id = ?1 AND subject_id = ?2 AND kind = 'commitment' AND is_archived = 0
              AND valid_from >= ?3 AND state <> 'open' {team})
         ORDER BY due_at IS NULL, due_at, created_at"
    )
}

/// The statement for one scope. Bounds and scope are written into the text, not bound:
/// SQLite re-plans a statement whose plan depended on a parameter's value (a `LIMIT ?`, a
/// parameter next to a partial index's condition) every time the parameter is bound again,
/// which cost more than running it (`benches/context.rs`).
fn statement(scope: Scope) -> String {
    let team = match scope {
        Scope::Full => "",
        Scope::TeamOnly => "AND visibility = 'team'",
    };
    // Tasks and reflections come only with full scope: reflections are private, and tasks are
    // given in private (a DM, a goal's plan).
    let (tasks, reflections) = match scope {
        Scope::TeamOnly => ("NULL".to_string(), "NULL".to_string()),
        Scope::Full => (
            format!("(SELECT {t} FROM ({OPEN_TASKS}))", t = arrays(TASK_COLS)),
            format!(
                "(SELECT {r} FROM (
                  SELECT {REFLECTION_COLS} FROM reflections
                  WHERE user_id = ?2 AND org_id = ?1 ORDER BY day DESC LIMIT {REFLECTIONS}))",
                r = arrays(REFLECTION_COLS)
            ),
        ),
    };
    format!(
        "SELECT
           (SELECT {c} FROM ({commitments})),
           (SELECT {m} FROM (
              SELECT * FROM (
                  SELECT {MEMORY_COLS} FROM memories
                  WHERE org_id = ?1 AND subject_id = ?2 AND kind <> 'commitment'
                    AND is_archived = 0 {team}
                  ORDER BY id DESC LIMIT {RECENT_MEMORIES})
              UNION
              SELECT * FROM (
                  SELECT {MEMORY_COLS} FROM memories
                  WHERE org_id = ?1 AND subject_id = ?2 AND kind = 'fact' AND is_archived = 0
                    {team}
                  ORDER BY confidence DESC, id DESC LIMIT {TOP_FACTS}))),
           (SELECT {n} FROM (
              SELECT {NODE_COLS} FROM nodes
              WHERE org_id = ?1 AND is_archived = 0 AND (owner_user_id = ?2 OR id IN (
                  SELECT from_node FROM edges WHERE org_id = ?1 AND to_user = ?2
                    AND relation IN ('owns', 'responsible_for')))
              ORDER BY id)),
           {tasks},
           {reflections}",
        c = arrays(COMMITMENT_COLS),
        commitments = commitments(scope),
        m = arrays(MEMORY_COLS),
        n = arrays(NODE_COLS),
    )
}

impl Store {
    /// One person's context rows as `scope` allows, in one statement: open commitments and
    /// those closed since `since`, the [`RECENT_MEMORIES`] newest other memories and the
    /// [`TOP_FACTS`] best facts, owned nodes, and with full scope open tasks and the latest
    /// [`REFLECTIONS`].
    pub async fn context_rows(
        &self,
        org: OrgId,
        subject: UserId,
        scope: Scope,
        since: DateTime<Utc>,
    ) -> Result<ContextRows> {
        static FULL: LazyLock<String> = LazyLock::new(|| statement(Scope::Full));
        static TEAM: LazyLock<String> = LazyLock::new(|| statement(Scope::TeamOnly));
        let sql = match scope {
            Scope::Full => FULL.as_str(),
            Scope::TeamOnly => TEAM.as_str(),
        };
        let row: FiveArrays = sqlx::query_as(sqlx::AssertSqlSafe(sql))
            .bind(org.0)
            .bind(subject.0)
            .bind(ts(since))
            .fetch_one(&self.pool)
            .await?;
        Ok(ContextRows {
            commitments: rows(row.0.as_deref(), COMMITMENT_COLS, |r| {
                commitment_from_row(r)
            })?,
            memories: rows(row.1.as_deref(), MEMORY_COLS, |r| memory_from_row(r))?,
            nodes: rows(row.2.as_deref(), NODE_COLS, |r| node_from_row(r))?,
            tasks: rows(row.3.as_deref(), TASK_COLS, |r| task_from_row(r))?,
            reflections: rows(row.4.as_deref(), REFLECTION_COLS, |r| {
                reflection_from_row(r)
            })?,
        })
    }
}
