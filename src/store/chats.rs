//! Group chats linked to an org, including the group → supergroup migration.

use chrono::{DateTime, Utc};

use super::memories::Get;
use super::{Result, Store, read, ts};
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

    /// Read on the calling thread (store/read.rs): every group message asks it first.
    pub async fn chat(&self, chat: ChatId) -> Result<Option<Chat>> {
        self.readers.with(|conn| {
            read::one(
                conn,
                "SELECT id, org_id, title, active FROM chats WHERE id = ?1",
                [chat.0],
                |r| {
                    Ok(Chat {
                        id: ChatId(r.i("id")?),
                        org_id: OrgId(r.i("org_id")?),
                        title: r.os("title")?,
                        active: r.i("active")? != 0,
                    })
                },
            )
        })
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
