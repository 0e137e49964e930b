//! Who is who, set from a DM: `/role` (directors) and `/gender` (oneself, or anyone for a
//! director), with their access rules.

use super::{AnswerError, Answerer, Reply};
use crate::domain::{Gender, Role, UserId};
use crate::render::{format, names::Case};

impl Answerer<'_> {
    fn plain(&self, key: &str) -> Reply {
        Reply::text(self.app.i18n.s(self.lang, key))
    }

    fn directs(&self) -> bool {
        self.viewer.role == Role::Director
    }

    /// The person a command names (`@username` or a user id). Only someone kept has seen (wrote
    /// in a linked chat or started the bot) counts; anyone else gets the "not in the team" reply.
    async fn known_person(&self, who: &str) -> Result<Result<UserId, Reply>, AnswerError> {
        let store = &self.app.store;
        let target = match who.trim_start_matches('@').parse::<i64>() {
            Ok(id) => Some(UserId(id)),
            Err(_) => store.user_by_username(self.org.id, who).await?,
        };
        if let Some(t) = target
            && store.user(t).await?.is_some()
        {
            return Ok(Ok(t));
        }
        Ok(Err(Reply::text(self.app.i18n.t(
            self.lang,
            "person-unknown",
            &[("name", format::esc(who).into())],
        ))))
    }

    /// `/role @user director|lead|member [position]` (directors only).
    pub async fn set_role(&self, arg: &str) -> Result<Reply, AnswerError> {
        if !self.directs() {
            return Ok(self.plain("role-refused"));
        }
        let mut parts = arg.split_whitespace();
        let (Some(who), Some(role)) = (parts.next(), parts.next()) else {
            return Ok(self.plain("role-usage"));
        };
        let Ok(role) = role.parse::<Role>() else {
            return Ok(self.plain("role-usage"));
        };
        let position: Vec<&str> = parts.collect();
        let position = (!position.is_empty()).then(|| position.join(" "));
        let target = match self.known_person(who).await? {
            Ok(t) => t,
            Err(reply) => return Ok(reply),
        };
        self.app
            .store
            .set_member(
                self.org.id,
                target,
                role,
                position.as_deref(),
                None,
                self.now,
            )
            .await?;
        Ok(Reply::text(self.app.i18n.t(
            self.lang,
            "role-set",
            &[
                ("name", format::esc(who).into()),
                (
                    "role",
                    self.app.i18n.s(self.lang, &format!("role-{role}")).into(),
                ),
            ],
        )))
    }

    /// `/gender m|f|auto` for oneself, `/gender @user m|f|auto` for anyone (directors): the
    /// gender names inflect by when the name itself does not say it.
    pub async fn set_gender(&self, arg: &str) -> Result<Reply, AnswerError> {
        let words: Vec<&str> = arg.split_whitespace().collect();
        let (who, value) = match words[..] {
            [value] => (None, value),
            [who, value] => (Some(who), value),
            _ => return Ok(self.plain("gender-usage")),
        };
        let value = match value.to_lowercase().as_str() {
            "auto" | "авто" | "-" => None,
            v => match v.parse::<Gender>() {
                Ok(g) => Some(g),
                Err(_) => return Ok(self.plain("gender-usage")),
            },
        };
        let target = match who {
            None => self.viewer.asker,
            Some(_) if !self.directs() => return Ok(self.plain("gender-refused")),
            Some(who) => match self.known_person(who).await? {
                Ok(t) => t,
                Err(reply) => return Ok(reply),
            },
        };
        self.app.store.set_gender(target, value).await?;
        let name = match self.app.store.user(target).await? {
            Some(p) => format::name_in(&p, Case::Nominative),
            None => target.to_string(),
        };
        Ok(Reply::text(self.app.i18n.t(
            self.lang,
            "gender-set",
            &[
                ("name", name.into()),
                ("gender", value.map_or("auto", |g| g.code()).into()),
            ],
        )))
    }
}
