//! The knowledge graph (nodes, edges) and explicit tasks.

use chrono::{DateTime, Utc};
use sqlx::Row;

use super::memories::Get;
use super::{Result, Store, parse, ts};
use crate::domain::{Due, NodeType, OrgId, Slug, UserId};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    pub id: i64,
    pub node_type: NodeType,
    pub title: String,
    pub slug: String,
    pub description: Option<String>,
    pub owner: Option<UserId>,
}

#[derive(Debug, Clone)]
pub struct NewNode<'a> {
    pub org_id: OrgId,
    pub node_type: NodeType,
    pub title: &'a str,
    pub description: Option<&'a str>,
    pub owner: Option<UserId>,
    pub at: DateTime<Utc>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Task {
    pub id: i64,
    pub assignee: Option<UserId>,
    pub title: String,
    pub status: String,
    pub priority: String,
    pub due: Option<Due>,
    /// Someone gave it (an assignment, or a goal's step): it counts among priorities whatever
    /// its priority, where a normal task of one's own does not.
    pub given: bool,
}

/// A task with who assigned it and whether it was accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssignedTask {
    pub task: Task,
    pub org: OrgId,
    pub assigned_by: Option<UserId>,
    pub accepted: bool,
}

pub(super) fn node_from_row(r: &impl Get) -> Result<Node> {
    let t: String = r.s("node_type")?;
    Ok(Node {
        id: r.i("id")?,
        node_type: parse(&t)?,
        title: r.s("title")?,
        slug: r.s("slug")?,
        description: r.os("description")?,
        owner: r.oi("owner_user_id")?.map(UserId),
    })
}

impl Store {
    /// Adds a node with a slug unique in the org (`-2`, `-3`... when taken) and, with an owner,
    /// the `owns` edge to them.
    pub async fn insert_node(&self, n: &NewNode<'_>) -> Result<Node> {
        let base = Slug::from_title(n.title);
        let mut tx = self.pool.begin().await?;
        let mut slug = base.clone();
        let mut k = 2;
        loop {
            let taken: Option<i64> =
                sqlx::query_scalar("SELECT id FROM nodes WHERE org_id = ? AND slug = ?")
                    .bind(n.org_id.0)
                    .bind(slug.as_str())
                    .fetch_optional(&mut *tx)
                    .await?;
            if taken.is_none() {
                break;
            }
            slug = base.with_suffix(k);
            k += 1;
        }
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO nodes (org_id, node_type, title, slug, description, owner_user_id, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
        )
        .bind(n.org_id.0)
        .bind(n.node_type.as_str())
        .bind(n.title)
        .bind(slug.as_str())
        .bind(n.description)
        .bind(n.owner.map(|u| u.0))
        .bind(ts(n.at))
        .fetch_one(&mut *tx)
        .await?;
        if let Some(owner) = n.owner {
            sqlx::query(
                "INSERT OR IGNORE INTO edges (org_id, from_node, to_user, relation, created_at)
                 VALUES (?, ?, ?, 'owns', ?)",
            )
            .bind(n.org_id.0)
            .bind(id)
            .bind(owner.0)
            .bind(ts(n.at))
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(Node {
            id,
            node_type: n.node_type,
            title: n.title.to_string(),
            slug: slug.to_string(),
            description: n.description.map(str::to_string),
            owner: n.owner,
        })
    }

    /// Every current node of the org (graphs here are small: tens to hundreds of nodes).
    pub async fn nodes(&self, org: OrgId) -> Result<Vec<Node>> {
        let rows = sqlx::query(
            "SELECT id, node_type, title, slug, description, owner_user_id FROM nodes
             WHERE org_id = ? AND is_archived = 0 ORDER BY id",
        )
        .bind(org.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(node_from_row).collect()
    }

    /// Nodes a person owns or is responsible for.
    pub async fn nodes_owned_by(&self, org: OrgId, user: UserId) -> Result<Vec<Node>> {
        let rows = sqlx::query(
            "SELECT id, node_type, title, slug, description, owner_user_id FROM nodes
             WHERE org_id = ?1 AND is_archived = 0 AND (owner_user_id = ?2 OR id IN (
                 SELECT from_node FROM edges WHERE org_id = ?1 AND to_user = ?2
                   AND relation IN ('owns', 'responsible_for')))
             ORDER BY id",
        )
        .bind(org.0)
        .bind(user.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(node_from_row).collect()
    }

    pub async fn insert_task(
        &self,
        org: OrgId,
        assignee: UserId,
        title: &str,
        priority: &str,
        due: Option<Due>,
        at: DateTime<Utc>,
    ) -> Result<i64> {
        let id = sqlx::query_scalar(
            "INSERT INTO tasks (org_id, assignee_id, title, priority, due_at, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
        )
        .bind(org.0)
        .bind(assignee.0)
        .bind(title)
        .bind(priority)
        .bind(due.map(Due::to_db))
        .bind(ts(at))
        .bind(ts(at))
        .fetch_one(&self.pool)
        .await?;
        Ok(id)
    }

    /// A person's open and in-progress tasks, most urgent first.
    pub async fn open_tasks(&self, org: OrgId, user: UserId) -> Result<Vec<Task>> {
        let rows = sqlx::query(super::context::OPEN_TASKS)
            .bind(org.0)
            .bind(user.0)
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(task_from_row).collect()
    }
}

pub(super) fn task_from_row(r: &impl Get) -> Result<Task> {
    let due: Option<String> = r.os("due_at")?;
    Ok(Task {
        id: r.i("id")?,
        assignee: r.oi("assignee_id")?.map(UserId),
        title: r.s("title")?,
        status: r.s("status")?,
        priority: r.s("priority")?,
        due: due.as_deref().map(parse_due).transpose()?,
        given: r.i("given")? != 0,
    })
}

impl Store {
    /// A task one person assigns another; it waits for the assignee's answer.
    #[allow(clippy::too_many_arguments)]
    pub async fn assign_task(
        &self,
        org: OrgId,
        assignee: UserId,
        by: UserId,
        title: &str,
        priority: &str,
        due: Option<Due>,
        at: DateTime<Utc>,
    ) -> Result<i64> {
        Ok(sqlx::query_scalar(
            "INSERT INTO tasks (org_id, assignee_id, assigned_by, title, priority, due_at, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        )
        .bind(org.0)
        .bind(assignee.0)
        .bind(by.0)
        .bind(title)
        .bind(priority)
        .bind(due.map(Due::to_db))
        .bind(ts(at))
        .bind(ts(at))
        .fetch_one(&self.writer)
        .await?)
    }

    pub async fn task(&self, id: i64) -> Result<Option<AssignedTask>> {
        let r = sqlx::query(
            "SELECT id, org_id, assignee_id, assigned_by, title, status, priority, due_at, accepted_at,
                    (assigned_by IS NOT NULL OR goal_step_id IS NOT NULL) AS given
             FROM tasks WHERE id = ?",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        r.map(|r| {
            Ok(AssignedTask {
                task: task_from_row(&r)?,
                org: OrgId(r.try_get("org_id")?),
                assigned_by: r.try_get::<Option<i64>, _>("assigned_by")?.map(UserId),
                accepted: r.try_get::<Option<i64>, _>("accepted_at")?.is_some(),
            })
        })
        .transpose()
    }

    /// The assignee's answer: accepted (with a new due date when they moved it), or not.
    pub async fn answer_task(
        &self,
        id: i64,
        accept: bool,
        due: Option<Due>,
        at: DateTime<Utc>,
    ) -> Result<bool> {
        let n = if accept {
            sqlx::query(
                "UPDATE tasks SET accepted_at = ?1, updated_at = ?1, due_at = coalesce(?2, due_at)
                 WHERE id = ?3 AND status = 'open'",
            )
            .bind(ts(at))
            .bind(due.map(Due::to_db))
            .bind(id)
            .execute(&self.writer)
            .await?
        } else {
            sqlx::query(
                "UPDATE tasks SET status = 'cancelled', updated_at = ? WHERE id = ? AND status = 'open'",
            )
            .bind(ts(at))
            .bind(id)
            .execute(&self.writer)
            .await?
        };
        Ok(n.rows_affected() > 0)
    }

    /// Marks an open task done (and its goal step, see `goals::finish_task_on`).
    pub async fn finish_task(&self, id: i64, at: DateTime<Utc>) -> Result<bool> {
        self.write(|conn| super::goals::finish_task_on(conn, id, at))
            .await
    }

    /// Accepted open tasks of the org due on or before `day` (the morning reminder).
    pub async fn tasks_due_by(&self, org: OrgId, day: &str) -> Result<Vec<Task>> {
        let rows = sqlx::query(
            "SELECT id, assignee_id, title, status, priority, due_at,
                    (assigned_by IS NOT NULL OR goal_step_id IS NOT NULL) AS given FROM tasks
             WHERE org_id = ? AND status IN ('open', 'in_progress') AND due_at IS NOT NULL
               AND substr(due_at, 1, 10) <= ? AND (assigned_by IS NULL OR accepted_at IS NOT NULL)
             ORDER BY assignee_id, due_at, id",
        )
        .bind(org.0)
        .bind(day)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(task_from_row).collect()
    }
}

fn parse_due(s: &str) -> Result<Due> {
    Due::from_db(s).map_err(|e| super::StoreError::Corrupt(e.to_string()))
}

/// An owner heard in a group ("за CRM отвечает Дима"), waiting for the director.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnerProposal {
    pub id: i64,
    pub org: OrgId,
    pub node: Option<i64>,
    pub title: String,
    pub owner: UserId,
    pub proposed_by: UserId,
    pub status: String,
}

impl Store {
    /// An edge between two nodes; false when it was already there.
    pub async fn add_edge(
        &self,
        org: OrgId,
        from: i64,
        to: i64,
        relation: crate::domain::Relation,
        at: DateTime<Utc>,
    ) -> Result<bool> {
        Ok(sqlx::query(
            "INSERT OR IGNORE INTO edges (org_id, from_node, to_node, relation, created_at)
             VALUES (?, ?, ?, ?, ?)",
        )
        .bind(org.0)
        .bind(from)
        .bind(to)
        .bind(relation.as_str())
        .bind(ts(at))
        .execute(&self.writer)
        .await?
        .rows_affected()
            > 0)
    }

    /// The nodes linked to `node` by `relation`: those it points at (`outgoing`), or those
    /// pointing at it ("what depends on X").
    pub async fn linked_nodes(
        &self,
        org: OrgId,
        node: i64,
        relation: crate::domain::Relation,
        outgoing: bool,
    ) -> Result<Vec<Node>> {
        let sql = if outgoing {
            "SELECT DISTINCT n.id, n.node_type, n.title, n.slug, n.description, n.owner_user_id
             FROM edges e JOIN nodes n ON n.id = e.to_node
             WHERE e.org_id = ?1 AND e.from_node = ?2 AND e.relation = ?3 AND n.is_archived = 0
             ORDER BY n.id"
        } else {
            "SELECT DISTINCT n.id, n.node_type, n.title, n.slug, n.description, n.owner_user_id
             FROM edges e JOIN nodes n ON n.id = e.from_node
             WHERE e.org_id = ?1 AND e.to_node = ?2 AND e.relation = ?3 AND n.is_archived = 0
             ORDER BY n.id"
        };
        let rows = sqlx::query(sql)
            .bind(org.0)
            .bind(node)
            .bind(relation.as_str())
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(node_from_row).collect()
    }

    /// A node's new owner: the column and the `owns` edge (the old owner's edge goes).
    pub async fn set_node_owner(
        &self,
        org: OrgId,
        node: i64,
        owner: UserId,
        at: DateTime<Utc>,
    ) -> Result<()> {
        let mut tx = self.writer.begin().await?;
        sqlx::query("UPDATE nodes SET owner_user_id = ? WHERE id = ? AND org_id = ?")
            .bind(owner.0)
            .bind(node)
            .bind(org.0)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "DELETE FROM edges WHERE org_id = ? AND from_node = ? AND relation = 'owns'
               AND to_user IS NOT NULL AND to_user != ?",
        )
        .bind(org.0)
        .bind(node)
        .bind(owner.0)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT OR IGNORE INTO edges (org_id, from_node, to_user, relation, created_at)
             VALUES (?, ?, ?, 'owns', ?)",
        )
        .bind(org.0)
        .bind(node)
        .bind(owner.0)
        .bind(ts(at))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Records an owner heard in a group. An open proposal of the same owner for the same
    /// thing is not repeated: `None` then.
    #[allow(clippy::too_many_arguments)]
    pub async fn propose_owner(
        &self,
        org: OrgId,
        node: Option<i64>,
        title: &str,
        owner: UserId,
        by: UserId,
        source: (crate::domain::ChatId, crate::domain::MessageId),
        at: DateTime<Utc>,
    ) -> Result<Option<i64>> {
        let open: Option<i64> = sqlx::query_scalar(
            "SELECT id FROM owner_proposals WHERE org_id = ? AND status = 'open' AND owner_id = ?
               AND (node_id = ? OR (node_id IS NULL AND lower(title) = lower(?)))",
        )
        .bind(org.0)
        .bind(owner.0)
        .bind(node)
        .bind(title)
        .fetch_optional(&self.pool)
        .await?;
        if open.is_some() {
            return Ok(None);
        }
        Ok(Some(
            sqlx::query_scalar(
                "INSERT INTO owner_proposals (org_id, node_id, title, owner_id, proposed_by,
                     source_chat_id, source_message_id, created_at)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            )
            .bind(org.0)
            .bind(node)
            .bind(title)
            .bind(owner.0)
            .bind(by.0)
            .bind(source.0.0)
            .bind(source.1.0)
            .bind(ts(at))
            .fetch_one(&self.writer)
            .await?,
        ))
    }

    pub async fn owner_proposal(&self, id: i64) -> Result<Option<OwnerProposal>> {
        let r = sqlx::query(
            "SELECT id, org_id, node_id, title, owner_id, proposed_by, status
             FROM owner_proposals WHERE id = ?",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        r.map(|r| {
            Ok(OwnerProposal {
                id: r.try_get("id")?,
                org: OrgId(r.try_get("org_id")?),
                node: r.try_get("node_id")?,
                title: r.try_get("title")?,
                owner: UserId(r.try_get("owner_id")?),
                proposed_by: UserId(r.try_get("proposed_by")?),
                status: r.try_get("status")?,
            })
        })
        .transpose()
    }

    /// Settles an open proposal (confirmed or ignored); false when it was settled before.
    pub async fn settle_owner_proposal(&self, id: i64, confirmed: bool) -> Result<bool> {
        Ok(
            sqlx::query("UPDATE owner_proposals SET status = ? WHERE id = ? AND status = 'open'")
                .bind(if confirmed { "confirmed" } else { "ignored" })
                .bind(id)
                .execute(&self.writer)
                .await?
                .rows_affected()
                > 0,
        )
    }

    /// The node a confirmed proposal made or named.
    pub async fn name_proposal_node(&self, id: i64, node: i64) -> Result<()> {
        sqlx::query("UPDATE owner_proposals SET node_id = ? WHERE id = ?")
            .bind(node)
            .bind(id)
            .execute(&self.writer)
            .await?;
        Ok(())
    }
}
