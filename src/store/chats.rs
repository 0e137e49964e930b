//! Group chats linked to an org, including the group → supergroup migration.

use chrono::{DateTime, Utc};
use sqlx::Row;

use super::{Result, Store, ts};
use crate::domain::{ChatId, OrgId};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chat {
    pub id: ChatId,
    pub org_id: OrgId,
    pub title: Option<String>,
    pub active: bool,
}

impl Store {
    /// Links a group to an org (again active if it had been left); a chat belongs to one org.
    pub async fn link_chat(
        &self,
        org: OrgId,
        chat: ChatId,
        supergroup: bool,
        title: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<()> {
        sqlx::query(
            "INSERT INTO chats (id, org_id, kind, title, active, linked_at) VALUES (?, ?, ?, ?, 1, ?)
             ON CONFLICT (id) DO UPDATE SET org_id = excluded.org_id, title = coalesce(excluded.title, chats.title), active = 1",
        )
        .bind(chat.0)
        .bind(org.0)
        .bind(if supergroup { "supergroup" } else { "group" })
        .bind(title)
        .bind(ts(now))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn chat(&self, chat: ChatId) -> Result<Option<Chat>> {
        let r = sqlx::query("SELECT id, org_id, title, active FROM chats WHERE id = ?")
            .bind(chat.0)
            .fetch_optional(&self.pool)
            .await?;
        r.map(|r| {
            Ok(Chat {
                id: ChatId(r.try_get("id")?),
                org_id: OrgId(r.try_get("org_id")?),
                title: r.try_get("title")?,
                active: r.try_get::<i64, _>("active")? != 0,
            })
        })
        .transpose()
    }

    pub async fn set_chat_active(&self, chat: ChatId, active: bool) -> Result<()> {
        sqlx::query("UPDATE chats SET active = ? WHERE id = ?")
            .bind(active as i64)
            .bind(chat.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Moves a group and everything that points at it to its new supergroup id, in one transaction.
    pub async fn migrate_chat(&self, from: ChatId, to: ChatId) -> Result<()> {
        let mut tx = self.pool.begin().await?;
        let exists: Option<i64> = sqlx::query_scalar("SELECT id FROM chats WHERE id = ?")
            .bind(to.0)
            .fetch_optional(&mut *tx)
            .await?;
        if exists.is_none() {
            // messages follow through ON UPDATE CASCADE.
            sqlx::query("UPDATE chats SET id = ?, kind = 'supergroup' WHERE id = ?")
                .bind(to.0)
                .bind(from.0)
                .execute(&mut *tx)
                .await?;
        } else {
            sqlx::query("UPDATE OR IGNORE messages SET chat_id = ? WHERE chat_id = ?")
                .bind(to.0)
                .bind(from.0)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM messages WHERE chat_id = ?")
                .bind(from.0)
                .execute(&mut *tx)
                .await?;
            sqlx::query("UPDATE chats SET active = 0 WHERE id = ?")
                .bind(from.0)
                .execute(&mut *tx)
                .await?;
        }
        for sql in [
            "UPDATE memories SET source_chat_id = ?1 WHERE source_chat_id = ?2",
            "UPDATE memories SET version_chat_id = ?1 WHERE version_chat_id = ?2",
            "UPDATE deliveries SET chat_id = ?1 WHERE chat_id = ?2",
            "UPDATE deliveries SET fallback_chat_id = ?1 WHERE fallback_chat_id = ?2",
            "UPDATE OR IGNORE refine_queue SET chat_id = ?1 WHERE chat_id = ?2",
            "UPDATE OR IGNORE group_digests SET chat_id = ?1 WHERE chat_id = ?2",
        ] {
            sqlx::query(sql)
                .bind(to.0)
                .bind(from.0)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }
}
