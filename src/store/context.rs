//! One person's context: commitments, memories, owned nodes, tasks and reflections, read on
//! the calling thread through the read connections of `store/read.rs`, and kept for the next
//! read of the same person while nothing it shows has changed; their open promises are kept
//! apart, while none of them changed, so that a read after another change decodes only the rest.
//!
//! The read used to be one sqlx statement returning five JSON arrays, to pay sqlx's worker
//! hand-off once instead of five times; on a connection of its own each list is a cached
//! statement whose rows are read as they are, which is faster than building and parsing JSON
//! (`benches/context.rs`).

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use chrono::{DateTime, Utc};

use super::graph::{node_from_row, task_from_row};
use super::memories::{COMMITMENT_COLS, MEMORY_COLS, commitment_from_row, memory_from_row};
use super::read;
use super::schedule::reflection_from_row;
use super::{Commitment, Memory, Node, Reflection, Result, Scope, Store, Task, ts};
use crate::domain::{CommitmentState, OrgId, UserId, Visibility};

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

/// A person's open tasks (org `?1`, assignee `?2`), most urgent first, then by due date: the
/// context read's and [`Store::open_tasks`]'s.
pub(super) const OPEN_TASKS: &str = "SELECT id, assignee_id, title, status, priority, due_at,
        (assigned_by IS NOT NULL OR goal_step_id IS NOT NULL) AS given
    FROM tasks
    WHERE org_id = ?1 AND assignee_id = ?2 AND status IN ('open', 'in_progress')
      AND (assigned_by IS NULL OR accepted_at IS NOT NULL)
    ORDER BY CASE priority WHEN 'urgent' THEN 0 WHEN 'high' THEN 1 WHEN 'normal' THEN 2 ELSE 3 END,
             due_at IS NULL, due_at, id";

fn team(scope: Scope) -> &'static str {
    match scope {
        Scope::Full => "",
        Scope::TeamOnly => "AND visibility = 'team'",
    }
}

// Bounds and scope are written into the statements' text, not bound: SQLite re-plans a
// statement whose plan depended on a parameter's value (a bare parameter as `LIMIT`, one next to a
// partial index's condition) every time the parameter is bound again, which cost more than
// running it.

/// A person's open commitments (org `?1`, owner `?2`), every visibility: the read model below
/// keeps them all and leaves out what a scope may not see.
fn open_commitments() -> String {
    format!(
        "SELECT {COMMITMENT_COLS} FROM memories INDEXED BY memories_open_subject
         WHERE org_id = ?1 AND subject_id = ?2 AND kind = 'commitment' AND is_archived = 0
           AND state = 'open'"
    )
}

/// A person's commitments closed since `?3` (org `?1`, owner `?2`) as `scope` allows.
fn closed_commitments(scope: Scope) -> String {
    let team = team(scope);
    format!(
        "SELECT {COMMITMENT_COLS} FROM memories
         WHERE org_id = ?1 AND subject_id = ?2 AND kind = 'commitment' AND is_archived = 0
           AND valid_from >= ?3 AND state <> 'open' {team}"
    )
}

/// The newest memories of the kinds other than commitments (org `?1`, subject `?2`).
fn recent_memories(scope: Scope) -> String {
    let team = team(scope);
    format!(
        "SELECT {MEMORY_COLS} FROM memories
         WHERE org_id = ?1 AND subject_id = ?2 AND kind <> 'commitment' AND is_archived = 0 {team}
         ORDER BY id DESC LIMIT {RECENT_MEMORIES}"
    )
}

/// The most confident facts (org `?1`, subject `?2`): they never decay.
fn top_facts(scope: Scope) -> String {
    let team = team(scope);
    format!(
        "SELECT {MEMORY_COLS} FROM memories
         WHERE org_id = ?1 AND subject_id = ?2 AND kind = 'fact' AND is_archived = 0 {team}
         ORDER BY confidence DESC, id DESC LIMIT {TOP_FACTS}"
    )
}

/// The nodes a person owns, by the node's owner or an `owns` / `responsible_for` edge.
const NODES: &str = "SELECT id, node_type, title, slug, description, owner_user_id FROM nodes
    WHERE org_id = ?1 AND is_archived = 0 AND (owner_user_id = ?2 OR id IN (
        SELECT from_node FROM edges WHERE org_id = ?1 AND to_user = ?2
          AND relation IN ('owns', 'responsible_for')))
    ORDER BY id";

/// The sum of a person's and their org graph's revisions (migration 014): it grows with every
/// change to what their context shows.
const REVISION: &str = "SELECT coalesce(sum(rev), 0) FROM read_revisions
    WHERE org_id = ?1 AND subject_id IN (?2, 0)";

/// The revision of a person's commitments alone (migration 019): it grows with every change to
/// one of their promises, and with nothing else.
const COMMITMENT_REVISION: &str = "SELECT coalesce(max(rev), 0) FROM commitment_revisions
    WHERE org_id = ?1 AND subject_id = ?2";

/// The statements of both scopes, built once.
struct Statements {
    open: String,
    closed: [String; 2],
    recent: [String; 2],
    facts: [String; 2],
    reflections: String,
}

fn statements() -> &'static Statements {
    static S: LazyLock<Statements> = LazyLock::new(|| {
        let both = [Scope::Full, Scope::TeamOnly];
        Statements {
            open: open_commitments(),
            closed: both.map(closed_commitments),
            recent: both.map(recent_memories),
            facts: both.map(top_facts),
            reflections: format!(
                "SELECT user_id, day, summary, highlights, commitments, risks, observations
                 FROM reflections WHERE org_id = ?1 AND user_id = ?2
                 ORDER BY day DESC LIMIT {REFLECTIONS}"
            ),
        }
    });
    &S
}

fn slot(scope: Scope) -> usize {
    match scope {
        Scope::Full => 0,
        Scope::TeamOnly => 1,
    }
}

/// Open commitments and those closed since `since`, by due date, undated last, then by when
/// they were made: the context read's and [`Store::commitments_for`]'s. Two statements and a
/// sort here cost less than SQLite's `UNION ALL … ORDER BY` over whole rows.
fn commitments_on(
    conn: &rusqlite::Connection,
    open: &OpenModel,
    org: OrgId,
    owner: UserId,
    scope: Scope,
    since: DateTime<Utc>,
) -> Result<Vec<Commitment>> {
    let st = statements();
    let i = slot(scope);
    let mut all: Vec<Commitment> = open
        .open(conn, org, owner)?
        .iter()
        .filter(|c| scope == Scope::Full || c.visibility == Visibility::Team)
        .cloned()
        .collect();
    all.extend(read::all(
        conn,
        &st.closed[i],
        rusqlite::params![org.0, owner.0, ts(since)],
        |r| commitment_from_row(r),
    )?);
    all.sort_by_key(|c| (c.due.is_none(), c.due, c.created_at, c.id));
    Ok(all)
}

/// A person's open promises under the revision they were read at.
type Modelled = (i64, Arc<[Commitment]>);

/// How many people's open promises the read model holds; past it the model starts over.
const MODELLED: usize = 4096;

/// The read model of open promises: each person's open commitments as last read, under the
/// revision of their commitments (migration 019) at the time. A context read after another
/// change to the person (a new memory, a task, a reflection) takes their open promises from
/// here instead of decoding every row again; a change to one of their promises, by any
/// connection or process, moves the revision and the next read takes them from the database.
#[derive(Debug, Default)]
pub(super) struct OpenModel {
    entries: Mutex<HashMap<(OrgId, UserId), Modelled>>,
    /// Every open promise of an org, by owner, under each owner's revision: a report by a
    /// colleague is held against all of them, and an org has hundreds open, while a message
    /// changes one person's at most.
    orgs: Mutex<HashMap<OrgId, OrgModel>>,
}

/// An org's open promises as last read: each owner's under the revision it was read at (none
/// for an owner whose promises were all written before migration 019 and never changed since).
#[derive(Debug, Default, Clone)]
struct OrgModel {
    by_owner: HashMap<UserId, (Option<i64>, Arc<[Commitment]>)>,
}

impl OpenModel {
    /// `owner`'s open commitments as of `conn`'s snapshot (call it inside one, so that the
    /// revision and the rows agree).
    pub(super) fn open(
        &self,
        conn: &rusqlite::Connection,
        org: OrgId,
        owner: UserId,
    ) -> Result<Arc<[Commitment]>> {
        let key = (org, owner);
        let revision: i64 = conn
            .prepare_cached(COMMITMENT_REVISION)?
            .query_row(rusqlite::params![org.0, owner.0], |r| r.get(0))?;
        if let Ok(entries) = self.entries.lock()
            && let Some((rev, rows)) = entries.get(&key)
            && *rev == revision
        {
            return Ok(rows.clone());
        }
        let rows = open_of(conn, org, owner)?;
        if let Ok(mut entries) = self.entries.lock() {
            if entries.len() >= MODELLED && !entries.contains_key(&key) {
                entries.clear();
            }
            entries.insert(key, (revision, rows.clone()));
        }
        Ok(rows)
    }

    /// Every open commitment of `org`, most recently made first, as of `conn`'s snapshot.
    /// Only the owners whose revision moved since the last read are read again.
    pub(super) fn open_in_org(
        &self,
        conn: &rusqlite::Connection,
        org: OrgId,
    ) -> Result<Vec<Commitment>> {
        let revisions: Vec<(UserId, i64)> = conn
            .prepare_cached(ORG_COMMITMENT_REVISIONS)?
            .query_map(rusqlite::params![org.0], |r| {
                Ok((UserId(r.get(0)?), r.get(1)?))
            })?
            .collect::<rusqlite::Result<_>>()?;
        let known = self
            .orgs
            .lock()
            .ok()
            .and_then(|orgs| orgs.get(&org).cloned());
        let model = match known {
            Some(mut model) => {
                for (owner, rev) in revisions {
                    let fresh = model
                        .by_owner
                        .get(&owner)
                        .is_some_and(|(had, _)| *had == Some(rev));
                    if !fresh {
                        model
                            .by_owner
                            .insert(owner, (Some(rev), open_of(conn, org, owner)?));
                    }
                }
                model
            }
            None => {
                let all = read::all(
                    conn,
                    &super::memories::OPEN_COMMITMENTS_IN_ORG,
                    rusqlite::params![org.0],
                    |r| commitment_from_row(r),
                )?;
                let mut grouped: HashMap<UserId, Vec<Commitment>> = HashMap::new();
                for c in all {
                    grouped.entry(c.owner).or_default().push(c);
                }
                let rev_of: HashMap<UserId, i64> = revisions.into_iter().collect();
                let mut model = OrgModel::default();
                // An owner with nothing open is known too, at the revision read.
                for owner in rev_of.keys() {
                    grouped.entry(*owner).or_default();
                }
                for (owner, rows) in grouped {
                    model
                        .by_owner
                        .insert(owner, (rev_of.get(&owner).copied(), rows.into()));
                }
                model
            }
        };
        let mut open: Vec<Commitment> = model
            .by_owner
            .values()
            .flat_map(|(_, rows)| rows.iter().cloned())
            .collect();
        open.sort_by_key(|c| std::cmp::Reverse((c.created_at, c.id)));
        if let Ok(mut orgs) = self.orgs.lock() {
            if orgs.len() >= ORGS_MODELLED && !orgs.contains_key(&org) {
                orgs.clear();
            }
            orgs.insert(org, model);
        }
        Ok(open)
    }

    fn clear(&self) {
        if let Ok(mut entries) = self.entries.lock() {
            entries.clear();
        }
        if let Ok(mut orgs) = self.orgs.lock() {
            orgs.clear();
        }
    }
}

/// `owner`'s open commitments as `conn` reads them.
fn open_of(conn: &rusqlite::Connection, org: OrgId, owner: UserId) -> Result<Arc<[Commitment]>> {
    Ok(read::all(
        conn,
        &statements().open,
        rusqlite::params![org.0, owner.0],
        |r| commitment_from_row(r),
    )?
    .into())
}

/// How many orgs' open promises the model holds whole (a kept serves one or a few).
const ORGS_MODELLED: usize = 16;

const ORG_COMMITMENT_REVISIONS: &str =
    "SELECT subject_id, rev FROM commitment_revisions WHERE org_id = ?1";

/// How many contexts the cache holds (each a few dozen rows, up to ~100 KB at a million
/// memories); past it the cache starts over.
const CACHED: usize = 512;

type Key = (OrgId, UserId, Scope);

/// Context rows read before, by (org, subject, scope): an entry is good while its revision is
/// the person's current one and it was read for a window that started no later than the one
/// asked for.
#[derive(Debug, Default)]
pub(super) struct Cache {
    entries: Mutex<HashMap<Key, Cached>>,
}

#[derive(Debug)]
struct Cached {
    revision: i64,
    since: DateTime<Utc>,
    rows: ContextRows,
}

impl Cache {
    fn get(&self, key: Key, revision: i64, since: DateTime<Utc>) -> Option<ContextRows> {
        let entries = self.entries.lock().ok()?;
        let hit = entries
            .get(&key)
            .filter(|c| c.revision == revision && c.since <= since)?;
        let rows = &hit.rows;
        Some(ContextRows {
            // Closed ones that have left the window since the entry was read stay out.
            commitments: rows
                .commitments
                .iter()
                .filter(|c| c.state == CommitmentState::Open || c.valid_from >= since)
                .cloned()
                .collect(),
            memories: rows.memories.clone(),
            nodes: rows.nodes.clone(),
            tasks: rows.tasks.clone(),
            reflections: rows.reflections.clone(),
        })
    }

    fn put(&self, key: Key, revision: i64, since: DateTime<Utc>, rows: &ContextRows) {
        if let Ok(mut entries) = self.entries.lock() {
            if entries.len() >= CACHED && !entries.contains_key(&key) {
                entries.clear();
            }
            entries.insert(
                key,
                Cached {
                    revision,
                    since,
                    rows: rows.clone(),
                },
            );
        }
    }
}

impl Store {
    /// One person's context rows as `scope` allows: open commitments and those closed since
    /// `since`, the [`RECENT_MEMORIES`] newest other memories and the [`TOP_FACTS`] best facts,
    /// owned nodes, and with full scope open tasks and the latest [`REFLECTIONS`].
    ///
    /// Runs on the calling thread (store/read.rs says why): a few dozen rows by index, well
    /// under a millisecond, shorter than handing the statements to a worker thread would take.
    pub fn context_rows(
        &self,
        org: OrgId,
        subject: UserId,
        scope: Scope,
        since: DateTime<Utc>,
    ) -> Result<ContextRows> {
        let st = statements();
        let i = slot(scope);
        let who = rusqlite::params![org.0, subject.0];
        let key = (org, subject, scope);
        // A context that has not changed costs one statement, outside any transaction.
        let revision: i64 = self.readers.with(|conn| {
            Ok(conn
                .prepare_cached(REVISION)?
                .query_row(who, |r| r.get(0))?)
        })?;
        if let Some(rows) = self.context_cache.get(key, revision, since) {
            return Ok(rows);
        }
        self.readers.snapshot(|conn| {
            // The revision again, and the rows, from one snapshot: an entry is filed under the
            // revision its rows were read at.
            let revision: i64 = conn
                .prepare_cached(REVISION)?
                .query_row(who, |r| r.get(0))?;
            let commitments = commitments_on(conn, &self.open_model, org, subject, scope, since)?;
            // The newest and the best facts; a fact in both comes once.
            let mut memories = read::all(conn, &st.recent[i], who, |r| memory_from_row(r))?;
            for fact in read::all(conn, &st.facts[i], who, |r| memory_from_row(r))? {
                if !memories.iter().any(|m| m.id == fact.id) {
                    memories.push(fact);
                }
            }
            let nodes = read::all(conn, NODES, who, |r| node_from_row(r))?;
            // Tasks and reflections come only with full scope: reflections are private, and
            // tasks are given in private (a DM, a goal's plan).
            let (tasks, reflections) = match scope {
                Scope::TeamOnly => (Vec::new(), Vec::new()),
                Scope::Full => (
                    read::all(conn, OPEN_TASKS, who, |r| task_from_row(r))?,
                    read::all(conn, &st.reflections, who, |r| reflection_from_row(r))?,
                ),
            };
            let rows = ContextRows {
                commitments,
                memories,
                nodes,
                tasks,
                reflections,
            };
            self.context_cache.put(key, revision, since, &rows);
            Ok(rows)
        })
    }

    /// Empties the cache of context reads, so that the next read of everyone comes from the
    /// database but for open promises that have not changed (`benches/context.rs` measures
    /// both).
    pub fn forget_contexts(&self) {
        if let Ok(mut entries) = self.context_cache.entries.lock() {
            entries.clear();
        }
    }

    /// Empties the read model of open promises too: the next read of everyone takes every row
    /// from the database, as after a restart.
    pub fn forget_open_promises(&self) {
        self.forget_contexts();
        self.open_model.clear();
    }

    /// A person's commitments as `scope` allows: open ones, and those closed since `since`, by
    /// due date, undated last. On the calling thread, as [`Store::context_rows`].
    pub fn commitments_for(
        &self,
        org: OrgId,
        owner: UserId,
        scope: Scope,
        since: DateTime<Utc>,
    ) -> Result<Vec<Commitment>> {
        self.readers
            .snapshot(|conn| commitments_on(conn, &self.open_model, org, owner, scope, since))
    }
}
