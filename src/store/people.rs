//! Orgs, users and their membership (roles, managers).

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use sqlx::Row;

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use super::memories::Get;
use super::{Result, Store, StoreError, parse, read, ts};
use crate::domain::{Lang, OrgId, Role, UserId};

#[derive(Debug, Clone)]
pub struct Org {
    pub id: OrgId,
    pub name: String,
    pub timezone: Tz,
    pub locale: Lang,
    pub schedule: Option<String>,
}

/// A Telegram user as kept knows them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserProfile {
    pub id: UserId,
    pub first_name: String,
    pub last_name: Option<String>,
    pub username: Option<String>,
    pub language_code: Option<String>,
    pub lang_override: Option<Lang>,
    pub dm_open: bool,
    /// Set with /gender when the name does not say it.
    pub gender: Option<crate::domain::Gender>,
}

impl UserProfile {
    pub fn full_name(&self) -> String {
        match &self.last_name {
            Some(l) if !l.is_empty() => format!("{} {}", self.first_name, l),
            _ => self.first_name.clone(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    pub org_id: OrgId,
    pub user_id: UserId,
    pub role: Role,
    pub position: Option<String>,
    pub manager_id: Option<UserId>,
    pub active: bool,
}

/// A member with their profile.
#[derive(Debug, Clone)]
pub struct Person {
    pub profile: UserProfile,
    pub member: Member,
}

fn user_from_row(r: &impl Get) -> Result<UserProfile> {
    let lang = r.os("lang_override")?;
    Ok(UserProfile {
        id: UserId(r.i("id")?),
        first_name: r.s("first_name")?,
        last_name: r.os("last_name")?,
        username: r.os("username")?,
        language_code: r.os("language_code")?,
        lang_override: lang.as_deref().map(parse).transpose()?,
        dm_open: r.i("dm_open")? != 0,
        gender: r.os("gender")?.as_deref().map(parse).transpose()?,
    })
}

fn member_from_row(r: &impl Get) -> Result<Member> {
    let role = r.s("role")?;
    Ok(Member {
        org_id: OrgId(r.i("org_id")?),
        user_id: UserId(r.i("user_id")?),
        role: parse(&role)?,
        position: r.os("position")?,
        manager_id: r.oi("manager_id")?.map(UserId),
        active: r.i("active")? != 0,
    })
}

/// A person's user and membership row, joined (`people` and `person` read it).
const PERSON: &str = "SELECT u.id, u.first_name, u.last_name, u.username, u.language_code,
        u.lang_override, u.dm_open, u.gender,
        m.org_id, m.user_id, m.role, m.position, m.manager_id, m.active
    FROM members m JOIN users u ON u.id = m.user_id";

/// The counter every change to a profile or a membership bumps (migration 018).
const REVISION: &str = "SELECT rev FROM people_revision WHERE id = 1";

/// An org's active people, shared between the readers of one revision.
pub type People = Arc<Vec<Person>>;

/// Orgs' people as last read, each under the [`REVISION`] it was read at.
#[derive(Debug, Default)]
pub(super) struct Cache {
    orgs: Mutex<HashMap<OrgId, (i64, People)>>,
}

impl Cache {
    fn get(&self, org: OrgId, revision: i64) -> Option<People> {
        let orgs = self.orgs.lock().ok()?;
        orgs.get(&org)
            .filter(|(rev, _)| *rev == revision)
            .map(|(_, people)| people.clone())
    }

    fn put(&self, org: OrgId, revision: i64, people: People) {
        if let Ok(mut orgs) = self.orgs.lock() {
            orgs.insert(org, (revision, people));
        }
    }
}

fn person_from_row(r: &impl Get) -> Result<Person> {
    Ok(Person {
        profile: user_from_row(r)?,
        member: member_from_row(r)?,
    })
}

impl Store {
    pub async fn create_org(
        &self,
        name: &str,
        timezone: Tz,
        locale: Lang,
        now: DateTime<Utc>,
    ) -> Result<OrgId> {
        let id = sqlx::query(
            "INSERT INTO orgs (name, timezone, locale, created_at) VALUES (?, ?, ?, ?) RETURNING id",
        )
        .bind(name)
        .bind(timezone.name())
        .bind(locale.code())
        .bind(ts(now))
        .fetch_one(&self.pool)
        .await?
        .try_get::<i64, _>(0)?;
        Ok(OrgId(id))
    }

    /// The first org, created from the defaults when there is none yet.
    pub async fn default_org(
        &self,
        name: &str,
        timezone: Tz,
        locale: Lang,
        now: DateTime<Utc>,
    ) -> Result<OrgId> {
        let existing: Option<i64> = sqlx::query_scalar("SELECT id FROM orgs ORDER BY id LIMIT 1")
            .fetch_optional(&self.pool)
            .await?;
        match existing {
            Some(id) => Ok(OrgId(id)),
            None => self.create_org(name, timezone, locale, now).await,
        }
    }

    // The reads below run on the calling thread through the read connections (store/read.rs):
    // every update asks some of them, and each sqlx statement would cost a hand-off to its
    // worker thread and back.

    pub async fn org(&self, id: OrgId) -> Result<Org> {
        self.readers
            .with(|conn| {
                read::one(
                    conn,
                    "SELECT id, name, timezone, locale, schedule FROM orgs WHERE id = ?1",
                    [id.0],
                    |r| {
                        Ok(Org {
                            id,
                            name: r.s("name")?,
                            timezone: parse(&r.s("timezone")?)?,
                            locale: parse(&r.s("locale")?)?,
                            schedule: r.os("schedule")?,
                        })
                    },
                )
            })?
            .ok_or_else(|| StoreError::NotFound(format!("org {id}")))
    }

    pub async fn orgs(&self) -> Result<Vec<OrgId>> {
        let ids: Vec<i64> = self
            .readers
            .with(|conn| read::column(conn, "SELECT id FROM orgs ORDER BY id", []))?;
        Ok(ids.into_iter().map(OrgId).collect())
    }

    pub async fn set_org_schedule(&self, id: OrgId, schedule_json: &str) -> Result<()> {
        sqlx::query("UPDATE orgs SET schedule = ? WHERE id = ?")
            .bind(schedule_json)
            .bind(id.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Inserts or refreshes a user's names from Telegram; keeps `dm_open` and the language override.
    /// Every update asks it, and nearly always nothing changed: that is read on the calling
    /// thread (store/read.rs) and then nothing is written (`updated_at` is the last change).
    pub async fn upsert_user(
        &self,
        id: UserId,
        first_name: &str,
        last_name: Option<&str>,
        username: Option<&str>,
        language_code: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<()> {
        if let Some(u) = self.user(id).await?
            && u.first_name == first_name
            && u.last_name.as_deref() == last_name
            && u.username.as_deref() == username
            && (language_code.is_none() || u.language_code.as_deref() == language_code)
        {
            return Ok(());
        }
        sqlx::query(
            "INSERT INTO users (id, first_name, last_name, username, language_code, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?)
             ON CONFLICT (id) DO UPDATE SET first_name = excluded.first_name,
                 last_name = excluded.last_name, username = excluded.username,
                 language_code = coalesce(excluded.language_code, users.language_code),
                 updated_at = excluded.updated_at",
        )
        .bind(id.0)
        .bind(first_name)
        .bind(last_name)
        .bind(username)
        .bind(language_code)
        .bind(ts(now))
        .bind(ts(now))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn user(&self, id: UserId) -> Result<Option<UserProfile>> {
        self.readers.with(|conn| {
            read::one(conn, "SELECT * FROM users WHERE id = ?1", [id.0], |r| {
                user_from_row(r)
            })
        })
    }

    pub async fn set_dm_open(&self, id: UserId, open: bool) -> Result<()> {
        // Every private message says the DM is open, nearly always again: read before writing.
        let now: Option<bool> = self.readers.with(|conn| {
            Ok(read::column(conn, "SELECT dm_open FROM users WHERE id = ?1", [id.0])?.pop())
        })?;
        if now == Some(open) {
            return Ok(());
        }
        self.write(|conn| {
            conn.prepare_cached("UPDATE users SET dm_open = ?1 WHERE id = ?2")?
                .execute(rusqlite::params![open, id.0])?;
            Ok(())
        })
        .await
    }

    /// Sets (or with `None` clears) the gender names of this person inflect by.
    pub async fn set_gender(
        &self,
        id: UserId,
        gender: Option<crate::domain::Gender>,
    ) -> Result<()> {
        sqlx::query("UPDATE users SET gender = ? WHERE id = ?")
            .bind(gender.map(|g| g.code()))
            .bind(id.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub async fn set_lang_override(&self, id: UserId, lang: Lang) -> Result<()> {
        sqlx::query("UPDATE users SET lang_override = ? WHERE id = ?")
            .bind(lang.code())
            .bind(id.0)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Adds the user to the org as a member unless already there (active again if they had left).
    pub async fn ensure_member(
        &self,
        org: OrgId,
        user: UserId,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        // Every group message asks; a member already there (active or not) is left as they are,
        // which the read connections tell without a write.
        if self.member(org, user).await?.is_some() {
            return Ok(false);
        }
        let done = sqlx::query(
            "INSERT INTO members (org_id, user_id, role, joined_at) VALUES (?, ?, 'member', ?)
             ON CONFLICT (org_id, user_id) DO NOTHING",
        )
        .bind(org.0)
        .bind(user.0)
        .bind(ts(now))
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Sets a member's role (and position or manager when given), adding them if needed.
    pub async fn set_member(
        &self,
        org: OrgId,
        user: UserId,
        role: Role,
        position: Option<&str>,
        manager: Option<UserId>,
        now: DateTime<Utc>,
    ) -> Result<()> {
        sqlx::query(
            "INSERT INTO members (org_id, user_id, role, position, manager_id, joined_at)
             VALUES (?, ?, ?, ?, ?, ?)
             ON CONFLICT (org_id, user_id) DO UPDATE SET role = excluded.role,
                 position = coalesce(excluded.position, members.position),
                 manager_id = coalesce(excluded.manager_id, members.manager_id), active = 1",
        )
        .bind(org.0)
        .bind(user.0)
        .bind(role.as_str())
        .bind(position)
        .bind(manager.map(|m| m.0))
        .bind(ts(now))
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    pub async fn member(&self, org: OrgId, user: UserId) -> Result<Option<Member>> {
        self.readers.with(|conn| {
            read::one(
                conn,
                "SELECT * FROM members WHERE org_id = ?1 AND user_id = ?2",
                [org.0, user.0],
                |r| member_from_row(r),
            )
        })
    }

    /// The org a user belongs to (their first, when several).
    pub async fn org_of_user(&self, user: UserId) -> Result<Option<OrgId>> {
        self.readers.with(|conn| {
            read::one(
                conn,
                "SELECT org_id FROM members WHERE user_id = ?1 AND active = 1
                 ORDER BY joined_at, org_id LIMIT 1",
                [user.0],
                |r| Ok(OrgId(r.i("org_id")?)),
            )
        })
    }

    /// Everyone active in the org, directors first, then by name.
    pub async fn people(&self, org: OrgId) -> Result<People> {
        static SQL: LazyLock<String> = LazyLock::new(|| {
            format!(
                "{PERSON} WHERE m.org_id = ?1 AND m.active = 1
                 ORDER BY CASE m.role WHEN 'director' THEN 0 WHEN 'lead' THEN 1 ELSE 2 END,
                          u.first_name, u.id"
            )
        });
        // Every message heard asks for the list: unchanged, it costs one statement.
        let revision: i64 = self
            .readers
            .with(|conn| Ok(conn.prepare_cached(REVISION)?.query_row([], |r| r.get(0))?))?;
        if let Some(people) = self.people_cache.get(org, revision) {
            return Ok(people);
        }
        self.readers.snapshot(|conn| {
            // The revision again, from the rows' snapshot: they are filed under it.
            let revision: i64 = conn.prepare_cached(REVISION)?.query_row([], |r| r.get(0))?;
            let people = Arc::new(read::all(conn, &SQL, [org.0], |r| person_from_row(r))?);
            self.people_cache.put(org, revision, people.clone());
            Ok(people)
        })
    }

    /// One member of the org with their profile (active or not), on the calling thread through
    /// the read connections (store/read.rs): the context read's first step.
    pub fn person(&self, org: OrgId, user: UserId) -> Result<Option<Person>> {
        static SQL: LazyLock<String> =
            LazyLock::new(|| format!("{PERSON} WHERE m.org_id = ?1 AND m.user_id = ?2"));
        self.readers.with(|conn| {
            let mut rows = read::all(conn, &SQL, rusqlite::params![org.0, user.0], |r| {
                person_from_row(r)
            })?;
            Ok(rows.pop())
        })
    }

    pub async fn user_by_username(&self, org: OrgId, username: &str) -> Result<Option<UserId>> {
        let id: Option<i64> = sqlx::query_scalar(
            "SELECT u.id FROM users u JOIN members m ON m.user_id = u.id
             WHERE m.org_id = ? AND lower(u.username) = lower(?) LIMIT 1",
        )
        .bind(org.0)
        .bind(username.trim_start_matches('@'))
        .fetch_optional(&self.pool)
        .await?;
        Ok(id.map(UserId))
    }

    /// Everyone below `lead` by `manager_id`, transitively (not the lead).
    pub async fn reports_of(&self, org: OrgId, lead: UserId) -> Result<Vec<UserId>> {
        let ids: Vec<i64> = self.readers.with(|conn| {
            read::column(
                conn,
                "WITH RECURSIVE r(id) AS (
                     SELECT user_id FROM members WHERE org_id = ?1 AND manager_id = ?2 AND user_id <> ?2
                     UNION
                     SELECT m.user_id FROM members m JOIN r ON m.manager_id = r.id WHERE m.org_id = ?1
                 ) SELECT id FROM r WHERE id <> ?2",
                [org.0, lead.0],
            )
        })?;
        Ok(ids.into_iter().map(UserId).collect())
    }
}
