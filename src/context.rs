//! Role-aware context assembly: what kept knows about a person, limited to what the asker may see.
//!
//! Access (DESIGN.md section 4) is decided once per (asker, subject) as a [`Scope`] and applied
//! inside the SQL of every read; nothing is filtered after the fact, and no message text takes
//! part in the decision, so a prompt in a chat can never widen it.

use chrono::{DateTime, Duration, NaiveDate, Utc};
use chrono_tz::Tz;

use crate::domain::{CommitmentState, MemoryKind, OrgId, Role, UserId};
use crate::store::{Commitment, Memory, Node, Person, Reflection, Scope, Store, StoreError, Task};

/// Who is asking, and where.
#[derive(Debug, Clone)]
pub struct Viewer {
    pub org: OrgId,
    pub asker: UserId,
    pub role: Role,
    /// Everyone below the asker by `manager_id`, transitively.
    pub reports: Vec<UserId>,
    /// In a group chat every answer uses `team` items only, whoever asks.
    pub in_group: bool,
}

impl Viewer {
    pub async fn load(
        store: &Store,
        org: OrgId,
        asker: UserId,
        in_group: bool,
    ) -> Result<Viewer, StoreError> {
        let role = store
            .member(org, asker)
            .await?
            .map(|m| m.role)
            .unwrap_or(Role::Member);
        let reports = if role == Role::Lead {
            store.reports_of(org, asker).await?
        } else {
            Vec::new()
        };
        Ok(Viewer {
            org,
            asker,
            role,
            reports,
            in_group,
        })
    }

    /// What of `subject`'s memory this viewer may read.
    pub fn scope_for(&self, subject: UserId) -> Scope {
        if self.in_group {
            return Scope::TeamOnly;
        }
        let full = subject == self.asker
            || self.role == Role::Director
            || (self.role == Role::Lead && self.reports.contains(&subject));
        if full { Scope::Full } else { Scope::TeamOnly }
    }

    /// May this viewer see team overviews (idle, overdue) — and of whom.
    pub fn oversees(&self, subject: UserId) -> bool {
        match self.role {
            Role::Director => true,
            Role::Lead => self.reports.contains(&subject),
            Role::Member => false,
        }
    }
}

/// Everything an answer about one person may use.
#[derive(Debug, Clone)]
pub struct PersonContext {
    pub person: Person,
    pub scope: Scope,
    /// Open commitments: overdue first, then by due date, undated last.
    pub open: Vec<Commitment>,
    pub recently_done: Vec<Commitment>,
    /// Open commitments whose date moved at least once.
    pub moved: Vec<Commitment>,
    /// Memories of the other kinds, best first by confidence × decay.
    pub memories: Vec<(Memory, f64)>,
    pub nodes: Vec<Node>,
    pub tasks: Vec<Task>,
    pub reflections: Vec<Reflection>,
    pub today: NaiveDate,
}

impl PersonContext {
    pub fn overdue(&self) -> impl Iterator<Item = &Commitment> {
        self.open
            .iter()
            .filter(|c| c.due.is_some_and(|d| d.date < self.today))
    }
}

/// Relevance of a memory now: confidence × half-life decay by kind (ranks, never hides).
pub fn rank(m: &Memory, now: DateTime<Utc>) -> f64 {
    let age_days = (now - m.updated_at).num_seconds().max(0) as f64 / 86_400.0;
    let decay = match m.kind.half_life_days() {
        Some(h) => 0.5_f64.powf(age_days / h),
        None => 1.0,
    };
    m.confidence.value() * decay
}

const RECENT_DAYS: i64 = 7;

/// The context read for (viewer, subject). One function: the bot, `kept ask` and the benchmark use it.
///
/// Synchronous: the rows come through the store's read connections on this thread (a few
/// dozen rows by index, well under a millisecond), not through an await.
pub fn read(
    store: &Store,
    viewer: &Viewer,
    person: &Person,
    now: DateTime<Utc>,
    tz: Tz,
) -> Result<PersonContext, StoreError> {
    let subject = person.profile.id;
    let scope = viewer.scope_for(subject);
    let today = now.with_timezone(&tz).date_naive();
    let since = now - Duration::days(RECENT_DAYS);
    // Tasks and reflections come only with full scope: reflections are private, and tasks are
    // given in private (a DM, a goal's plan).
    let rows = store.context_rows(viewer.org, subject, scope, since)?;
    let (all, raw_memories, nodes, tasks, reflections) = (
        rows.commitments,
        rows.memories,
        rows.nodes,
        rows.tasks,
        rows.reflections,
    );
    let (mut open, closed): (Vec<_>, Vec<_>) = all
        .into_iter()
        .partition(|c| c.state == CommitmentState::Open);
    open.sort_by_key(|c| {
        let overdue = c.due.is_some_and(|d| d.date < today);
        (!overdue, c.due.is_none(), c.due, c.created_at)
    });
    let recently_done: Vec<_> = closed
        .into_iter()
        .filter(|c| c.state == CommitmentState::Done)
        .collect();
    let moved = open
        .iter()
        .filter(|c| c.id != c.origin_id && c.version_message.is_some())
        .cloned()
        .collect();
    let mut memories: Vec<(Memory, f64)> = raw_memories
        .into_iter()
        .map(|m| {
            let r = rank(&m, now);
            (m, r)
        })
        .collect();
    // Newest first among equals, whatever order the rows came in.
    memories.sort_by(|a, b| b.1.total_cmp(&a.1).then(b.0.id.cmp(&a.0.id)));
    Ok(PersonContext {
        person: person.clone(),
        scope,
        open,
        recently_done,
        moved,
        memories,
        nodes,
        tasks,
        reflections,
        today,
    })
}

/// Rows an answer must hedge are marked so in the block a model reads.
fn unsure(c: crate::domain::Confidence) -> &'static str {
    if c.is_hedged() { " unsure" } else { "" }
}

/// The context as a plain text block (`kept ask --explain`, and the future LLM prompt).
/// Every row is cited as `[m:ID]` so an answer can be traced back to it.
pub fn render(ctx: &PersonContext) -> String {
    let p = &ctx.person;
    let mut out = format!(
        "# {} (@{}) role={} position={}\nscope={:?} today={}\n",
        p.profile.full_name(),
        p.profile.username.as_deref().unwrap_or("-"),
        p.member.role,
        p.member.position.as_deref().unwrap_or("-"),
        ctx.scope,
        ctx.today
    );
    out.push_str("## open commitments\n");
    for c in &ctx.open {
        let due = c.due.map(|d| d.to_db()).unwrap_or_else(|| "-".into());
        let overdue = if c.due.is_some_and(|d| d.date < ctx.today) {
            " OVERDUE"
        } else {
            ""
        };
        out.push_str(&format!(
            "- [m:{}] {} due={}{} confidence={:.1}{}\n",
            c.id,
            c.content,
            due,
            overdue,
            c.confidence.value(),
            unsure(c.confidence)
        ));
    }
    out.push_str("## recently done\n");
    for c in &ctx.recently_done {
        out.push_str(&format!("- [m:{}] {}\n", c.id, c.content));
    }
    for kind in MemoryKind::ALL
        .iter()
        .filter(|k| **k != MemoryKind::Commitment)
    {
        let rows: Vec<_> = ctx
            .memories
            .iter()
            .filter(|(m, _)| m.kind == *kind)
            .collect();
        if rows.is_empty() {
            continue;
        }
        out.push_str(&format!("## {kind}\n"));
        for (m, score) in rows {
            out.push_str(&format!(
                "- [m:{}] {} (confidence={:.1} rank={:.2} {}){}\n",
                m.id,
                m.content,
                m.confidence.value(),
                score,
                m.visibility,
                unsure(m.confidence)
            ));
        }
    }
    out.push_str("## owns\n");
    for n in &ctx.nodes {
        out.push_str(&format!("- [n:{}] {} ({})\n", n.id, n.title, n.node_type));
    }
    out.push_str("## tasks\n");
    for t in &ctx.tasks {
        out.push_str(&format!(
            "- [t:{}] {} priority={} status={}\n",
            t.id, t.title, t.priority, t.status
        ));
    }
    if !ctx.reflections.is_empty() {
        out.push_str("## reflections\n");
        for r in &ctx.reflections {
            out.push_str(&format!("- {}: {}\n", r.day, r.summary));
        }
    }
    out
}
