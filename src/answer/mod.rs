//! Answers to questions: intent routing and structural answers from SQL with templates.
//!
//! Every answer is built from a [`context`](crate::context) read limited to what the asker may
//! see; templates come from the locale files, dates in the asker's language and timezone.

mod away;
pub mod fix;
pub use crate::render::format;
pub mod free;
pub mod goals;
pub mod graph;
mod people;
mod prefs;
pub mod tasks;

use chrono::{DateTime, Duration, Utc};
use fluent_bundle::FluentValue;

use crate::app::App;
use crate::context::{self, PersonContext, Viewer};
use crate::domain::callback::Question;
use crate::domain::{
    Author, ChatId, CommitmentState, Confidence, Lang, MemoryId, MemoryKind, MessageId, Role,
    UserId, Visibility,
};
use crate::extract::intent::{self, Intent};
use crate::extract::names;
use crate::ingest::extract_people;
use crate::render::names::Case;
use crate::store::{Commitment, NewMemory, Org, Person, Scope, StoreError};
use format::esc;

#[derive(Debug, thiserror::Error)]
pub enum AnswerError {
    #[error("storage")]
    Store(#[from] StoreError),
}

/// A reply: HTML text and inline buttons as rows of (label, callback data).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Reply {
    pub text: String,
    pub buttons: Vec<Vec<(String, String)>>,
}

impl Reply {
    /// A reply with no buttons.
    pub fn text(text: String) -> Reply {
        Reply {
            text,
            buttons: Vec::new(),
        }
    }
}

/// Answers one question of `viewer` (in DM, or in a group when addressed).
pub struct Answerer<'a> {
    pub app: &'a App,
    pub org: &'a Org,
    pub viewer: Viewer,
    pub lang: Lang,
    pub people: crate::store::People,
    pub now: DateTime<Utc>,
    /// The message being answered (evidence for what `/remember` stores).
    pub source: Option<(ChatId, MessageId)>,
}

impl<'a> Answerer<'a> {
    pub async fn new(
        app: &'a App,
        org: &'a Org,
        asker: UserId,
        in_group: bool,
        lang: Lang,
    ) -> Result<Answerer<'a>, AnswerError> {
        let viewer = Viewer::load(&app.store, org.id, asker, in_group).await?;
        let people = app.store.people(org.id).await?;
        Ok(Answerer {
            app,
            org,
            viewer,
            lang,
            people,
            now: app.clock.now(),
            source: None,
        })
    }

    fn t(&self, key: &str, args: &[(&str, FluentValue<'_>)]) -> String {
        self.app.i18n.t(self.lang, key, args)
    }

    fn s(&self, key: &str) -> String {
        self.app.i18n.s(self.lang, key)
    }

    fn person(&self, id: UserId) -> Option<&Person> {
        self.people.iter().find(|p| p.profile.id == id)
    }

    fn name(&self, id: UserId) -> String {
        format::name_of(&self.people, id)
    }

    /// "о Льве Толстых" / "об Анне Смирновой": a person after the preposition о.
    fn about(&self, id: UserId) -> String {
        match self.person(id) {
            Some(p) => format::about(&self.app.i18n, self.lang, &p.profile),
            None => format::about_name(&self.app.i18n, self.lang, &id.to_string()),
        }
    }

    /// Routes free text by intent.
    #[tracing::instrument(name = "answer", skip_all, fields(org_id = self.org.id.0, user_id = self.viewer.asker.0))]
    pub async fn question(&self, text: &str) -> Result<Reply, AnswerError> {
        if let Some(reply) = self.graph_answer(text).await? {
            return Ok(reply);
        }
        let intent = intent::classify(text, Lang::detect(text));
        let people = extract_people(&self.people);
        match &intent {
            // "что с Ольгой?", "расскажи про Елену Павлову": the topic is someone in the team.
            Intent::WhatDoWeKnow { topic } => {
                if let [one] = names::resolve(topic, &people)[..] {
                    return self.status_of(UserId(one)).await;
                }
            }
            // "что поручено Елене?", "как дела с Еленой?": a question that names one person
            // and asks nothing else is about what they are doing.
            Intent::Unknown if is_question(text) => {
                let mut named: Vec<i64> = names::people_in(text, &people)
                    .into_iter()
                    .map(|(_, id)| id)
                    .collect();
                named.dedup();
                if let [one] = named[..] {
                    return self.status_of(UserId(one)).await;
                }
            }
            _ => {}
        }
        // No structural intent: the model, when there is one, answers from the asker's rows.
        if intent == Intent::Unknown
            && let Some(llm) = &self.app.llm
        {
            // Whatever goes wrong on the way to the model, the rule answer is still given.
            match self.free_form(llm, text).await {
                Ok(Some(reply)) => return Ok(reply),
                Ok(None) => {}
                Err(e) => tracing::warn!(error = %e, "free-form answer failed; rules answer"),
            }
        }
        self.intent(intent).await
    }

    #[tracing::instrument(name = "intent", skip_all, fields(org_id = self.org.id.0, user_id = self.viewer.asker.0, intent = ?intent))]
    pub async fn intent(&self, intent: Intent) -> Result<Reply, AnswerError> {
        match intent {
            Intent::MyPriorities => self.priorities().await,
            Intent::MyPromises => self.promises().await,
            Intent::PersonStatus { who } => self.person_status(&who).await,
            Intent::WhoIsIdle => self.idle().await,
            Intent::WhoIsOverdue => self.overdue().await,
            Intent::WhoOwns { topic } => self.who_owns(&topic).await,
            Intent::WhatDoWeKnow { topic } => self.what_we_know(&topic).await,
            Intent::Remember { content } => self.remember(&content).await,
            Intent::Unknown => Ok(self.help()),
        }
    }

    async fn ctx(&self, id: UserId) -> Result<Option<PersonContext>, AnswerError> {
        let Some(p) = self.person(id) else {
            return Ok(None);
        };
        Ok(Some(context::read(
            &self.app.store,
            &self.viewer,
            p,
            self.now,
            self.org.timezone,
        )?))
    }

    /// One commitment as a list line: hedged when unsure, overdue marked, linked to its source.
    fn line(&self, c: &Commitment, today: chrono::NaiveDate) -> String {
        let mut s = String::from("• ");
        if c.confidence.is_hedged() {
            s.push_str(&self.s("hedge"));
            s.push(' ');
        }
        s.push_str(&esc(&c.content));
        match c.due {
            // A closed promise is not late, whatever its date was.
            _ if c.state != CommitmentState::Open => {
                s.push_str(" — ");
                s.push_str(&self.s(state_key(c.state)));
            }
            Some(d) => {
                let when = format::due(&self.app.i18n, self.lang, d);
                let key = if d.date < today {
                    "due-overdue"
                } else {
                    "due-on"
                };
                s.push_str(" — ");
                s.push_str(&self.t(key, &[("date", when.into())]));
            }
            None => {
                s.push_str(" — ");
                s.push_str(&self.s("due-none"));
            }
        }
        if let (Some(chat), Some(msg)) = (c.source_chat, c.source_message)
            && let Some(link) = format::message_link(chat, msg)
        {
            s.push_str(&format!(" <a href=\"{link}\">↗</a>"));
        }
        // The number `/fix` takes, for open promises.
        if c.state == CommitmentState::Open {
            s.push_str(&format!(" #{}", c.origin_id));
        }
        s
    }

    async fn priorities(&self) -> Result<Reply, AnswerError> {
        let Some(ctx) = self.ctx(self.viewer.asker).await? else {
            return Ok(Reply::text(self.s("not-a-member")));
        };
        let mut lines = Vec::new();
        for c in &ctx.open {
            lines.push(self.line(c, ctx.today));
        }
        // Urgent and important tasks, and accepted ones someone gave (goal steps among them),
        // most urgent first, each with its date.
        for t in ctx
            .tasks
            .iter()
            .filter(|t| t.given || t.priority == "urgent" || t.priority == "high")
        {
            let mut line = format!("• {}", esc(&t.title));
            if t.priority == "urgent" || t.priority == "high" {
                line.push_str(&format!(
                    " ({})",
                    self.s(&format!("priority-{}", t.priority))
                ));
            }
            if let Some(d) = t.due {
                let key = if d.date < ctx.today {
                    "due-overdue"
                } else {
                    "due-on"
                };
                let when = format::due(&self.app.i18n, self.lang, d);
                line.push_str(" — ");
                line.push_str(&self.t(key, &[("date", when.into())]));
            }
            lines.push(line);
        }
        if lines.is_empty() {
            return Ok(Reply::text(self.s("priorities-empty")));
        }
        let overdue = ctx.overdue().count() as i64;
        let mut text = self.t(
            "priorities-header",
            &[("n", (ctx.open.len() as i64).into())],
        );
        if overdue > 0 {
            text.push(' ');
            text.push_str(&self.t("overdue-count", &[("n", overdue.into())]));
        }
        text.push('\n');
        text.push_str(&lines.join("\n"));
        Ok(Reply {
            text,
            buttons: self.correction_buttons(&ctx.open),
        })
    }

    /// ✏️ buttons for the promises of a list the asker may correct (never in a group).
    fn correction_buttons(&self, cs: &[Commitment]) -> Vec<Vec<(String, String)>> {
        if self.viewer.in_group {
            return Vec::new();
        }
        let me = self.viewer.asker;
        let mine: Vec<Commitment> = cs
            .iter()
            .filter(|c| c.owner == me || c.requester == Some(me) || self.viewer.oversees(c.owner))
            .cloned()
            .collect();
        fix::list_buttons(&mine)
    }

    async fn promises(&self) -> Result<Reply, AnswerError> {
        let Some(ctx) = self.ctx(self.viewer.asker).await? else {
            return Ok(Reply::text(self.s("not-a-member")));
        };
        if ctx.open.is_empty() {
            return Ok(Reply::text(self.s("promises-empty")));
        }
        let mut text = self.t("promises-header", &[("n", (ctx.open.len() as i64).into())]);
        for c in &ctx.open {
            text.push('\n');
            text.push_str(&self.line(c, ctx.today));
        }
        Ok(Reply {
            text,
            buttons: self.correction_buttons(&ctx.open),
        })
    }

    /// Who a name means; several → ask which with buttons; none → say so.
    fn resolve(&self, who: &str) -> Result<UserId, Reply> {
        let ids = names::resolve(who, &extract_people(&self.people));
        match ids.as_slice() {
            [one] => Ok(UserId(*one)),
            [] => Err(Reply::text(
                self.t("person-unknown", &[("name", esc(who).into())]),
            )),
            many => Err(Reply {
                text: self.t("person-which", &[("name", esc(who).into())]),
                buttons: many
                    .iter()
                    .map(|id| {
                        vec![(
                            self.name(UserId(*id)),
                            crate::domain::callback::CallbackData::Person(UserId(*id)).to_string(),
                        )]
                    })
                    .collect(),
            }),
        }
    }

    async fn person_status(&self, who: &str) -> Result<Reply, AnswerError> {
        let id = match self.resolve(who) {
            Ok(id) => id,
            Err(reply) => return Ok(reply),
        };
        self.status_of(id).await
    }

    /// What a person is working on, within the asker's rights.
    pub async fn status_of(&self, id: UserId) -> Result<Reply, AnswerError> {
        if id == self.viewer.asker {
            return self.priorities().await;
        }
        let Some(ctx) = self.ctx(id).await? else {
            return Ok(Reply::text(self.s("not-a-member")));
        };
        let name = esc(&ctx.person.profile.full_name());
        let name_gen = format::name_in(&ctx.person.profile, Case::Genitive);
        // No count over an empty list: "0 promises:" reads as a broken answer.
        let header = if ctx.open.is_empty() {
            "status-no-promises"
        } else {
            "status-header"
        };
        let mut text = self.t(
            header,
            &[
                ("name", name.clone().into()),
                ("name_gen", name_gen.clone().into()),
                ("n", (ctx.open.len() as i64).into()),
            ],
        );
        for c in &ctx.open {
            text.push('\n');
            text.push_str(&self.line(c, ctx.today));
        }
        if !ctx.tasks.is_empty() {
            text.push_str("\n\n");
            text.push_str(&self.s("status-tasks"));
            for t in &ctx.tasks {
                text.push_str(&format!(
                    "\n• {} ({})",
                    esc(&t.title),
                    self.s(&format!("priority-{}", t.priority))
                ));
            }
        }
        if !ctx.recently_done.is_empty() {
            text.push_str("\n\n");
            text.push_str(&self.s("status-done"));
            for c in &ctx.recently_done {
                text.push_str(&format!("\n✓ {}", esc(&c.content)));
            }
        }
        if !ctx.nodes.is_empty() {
            text.push_str("\n\n");
            text.push_str(&self.s("status-owns"));
            let titles: Vec<_> = ctx.nodes.iter().map(|n| esc(&n.title)).collect();
            text.push(' ');
            text.push_str(&titles.join(", "));
        }
        if ctx.open.is_empty() && ctx.tasks.is_empty() && ctx.recently_done.is_empty() {
            text = self.t(
                "status-empty",
                &[("name", name.into()), ("name_gen", name_gen.into())],
            );
        }
        Ok(Reply {
            text,
            buttons: self.correction_buttons(&ctx.open),
        })
    }

    fn overseen(&self) -> Vec<&Person> {
        self.people
            .iter()
            .filter(|p| p.profile.id != self.viewer.asker && self.viewer.oversees(p.profile.id))
            .collect()
    }

    async fn idle(&self) -> Result<Reply, AnswerError> {
        if self.viewer.role == Role::Member || self.viewer.in_group {
            return Ok(Reply::text(self.s("overview-refused")));
        }
        let since = self.now - Duration::days(7);
        let today = self.now.with_timezone(&self.org.timezone).date_naive();
        let away = self
            .app
            .store
            .absences_between(self.org.id, today, today)
            .await?;
        let mut idle = Vec::new();
        for p in self.overseen() {
            let id = p.profile.id;
            // Away is not idle.
            if crate::store::away_on(&away, id, today).is_some() {
                continue;
            }
            let open = self.app.store.open_commitments(self.org.id, id).await?;
            let tasks = self.app.store.open_tasks(self.org.id, id).await?;
            if !open.is_empty() || !tasks.is_empty() {
                continue;
            }
            // Nothing open: idle. Say so gently when they finished something this week.
            let done = self
                .app
                .store
                .commitments_for(self.org.id, id, Scope::Full, since)?
                .iter()
                .filter(|c| c.state == CommitmentState::Done)
                .count();
            let mut line = esc(&p.profile.full_name());
            if done > 0 {
                line.push_str(&format!(
                    " ({})",
                    self.t("idle-recently-done", &[("n", (done as i64).into())])
                ));
            }
            idle.push(line);
        }
        if idle.is_empty() {
            return Ok(Reply::text(self.s("idle-none")));
        }
        Ok(Reply::text(format!(
            "{}\n• {}",
            self.t("idle-header", &[("n", (idle.len() as i64).into())]),
            idle.join("\n• ")
        )))
    }

    async fn overdue(&self) -> Result<Reply, AnswerError> {
        if self.viewer.role == Role::Member || self.viewer.in_group {
            return Ok(Reply::text(self.s("overview-refused")));
        }
        let today = self.now.with_timezone(&self.org.timezone).date_naive();
        let mut text = String::new();
        let mut people = 0;
        let by_owner = self.open_by_owner().await?;
        for p in self.overseen() {
            let open = by_owner
                .get(&p.profile.id)
                .map(Vec::as_slice)
                .unwrap_or_default();
            let late: Vec<_> = open
                .iter()
                .filter(|c| c.due.is_some_and(|d| d.date < today))
                .collect();
            if late.is_empty() {
                continue;
            }
            people += 1;
            text.push_str(&format!("\n<b>{}</b>", esc(&p.profile.full_name())));
            for c in late {
                text.push('\n');
                text.push_str(&self.line(c, today));
            }
        }
        if people == 0 {
            return Ok(Reply::text(self.s("overdue-none")));
        }
        Ok(Reply::text(format!(
            "{}{}",
            self.t("overdue-header", &[("n", (people as i64).into())]),
            text
        )))
    }

    async fn matching_nodes(&self, topic: &str) -> Result<Vec<crate::store::Node>, AnswerError> {
        let want = intent::topic_stems(topic);
        if want.is_empty() {
            return Ok(Vec::new());
        }
        let nodes = self.app.store.nodes(self.org.id).await?;
        Ok(nodes
            .into_iter()
            .filter(|n| {
                let have = intent::topic_stems(&n.title);
                want.iter().any(|w| graph::names_word(&have, w))
            })
            .collect())
    }

    /// How to name a topic back: the graph node's own title when the question found one, else
    /// the asker's words in the nominative ("про Ромашку" → «Ромашка»).
    fn topic_name(topic: &str, nodes: &[crate::store::Node]) -> String {
        match nodes {
            [one] => one.title.clone(),
            _ => crate::morph::nominative(topic.trim()),
        }
    }

    async fn who_owns(&self, topic: &str) -> Result<Reply, AnswerError> {
        let nodes = self.matching_nodes(topic).await?;
        let named = esc(&Self::topic_name(topic, &nodes));
        let lines: Vec<String> = nodes
            .iter()
            .filter_map(|n| {
                n.owner
                    .map(|o| format!("• {} — {}", esc(&n.title), esc(&self.name(o))))
            })
            .collect();
        if lines.is_empty() {
            return Ok(Reply::text(
                self.t("owner-unknown", &[("topic", named.into())]),
            ));
        }
        Ok(Reply::text(lines.join("\n")))
    }

    async fn what_we_know(&self, topic: &str) -> Result<Reply, AnswerError> {
        let nodes = self.matching_nodes(topic).await?;
        let named = esc(&Self::topic_name(topic, &nodes));
        let stems = intent::topic_stems(topic);
        let full: Vec<UserId> = self
            .people
            .iter()
            .map(|p| p.profile.id)
            .filter(|id| self.viewer.scope_for(*id) == Scope::Full)
            .collect();
        let memories = self
            .app
            .store
            .memories_mentioning(self.org.id, &stems, &full)
            .await?;
        let today = self.now.with_timezone(&self.org.timezone).date_naive();
        let mut lines = Vec::new();
        for n in &nodes {
            let mut l = format!(
                "• <b>{}</b> ({})",
                esc(&n.title),
                self.s(&format!("node-{}", n.node_type))
            );
            if let Some(d) = &n.description {
                l.push_str(&format!(": {}", esc(d)));
            }
            if let Some(o) = n.owner {
                l.push_str(&format!(" — {}", esc(&self.name(o))));
            }
            lines.push(l);
        }
        for m in &memories {
            let hedge = if m.confidence.is_hedged() {
                format!("{} ", self.s("hedge"))
            } else {
                String::new()
            };
            lines.push(format!(
                "• {hedge}{} ({})",
                esc(&m.content),
                esc(&self.name(m.subject))
            ));
        }
        for p in self.people.iter() {
            let scope = self.viewer.scope_for(p.profile.id);
            for c in self.app.store.commitments_for(
                self.org.id,
                p.profile.id,
                scope,
                self.now - Duration::days(30),
            )? {
                let have = intent::topic_stems(&c.content);
                if stems.iter().any(|s| have.contains(s)) {
                    lines.push(format!(
                        "{} ({})",
                        self.line(&c, today),
                        esc(&p.profile.first_name)
                    ));
                }
            }
        }
        if lines.is_empty() {
            return Ok(Reply::text(
                self.t("know-nothing", &[("topic", named.into())]),
            ));
        }
        Ok(Reply::text(format!(
            "{}\n{}",
            self.t("know-header", &[("topic", named.into())]),
            lines.join("\n")
        )))
    }

    async fn remember(&self, content: &str) -> Result<Reply, AnswerError> {
        let content = content.trim();
        if content.is_empty() || self.viewer.in_group {
            return Ok(self.help());
        }
        // About a person named in it, else about the sender. Directors may write about anyone,
        // leads about their reports, members about themselves only.
        let named: Vec<UserId> = names::people_in(content, &extract_people(&self.people))
            .into_iter()
            .map(|(_, id)| UserId(id))
            .filter(|id| *id != self.viewer.asker)
            .collect();
        let subject = match named.first() {
            None => self.viewer.asker,
            Some(id) if self.viewer.oversees(*id) => *id,
            Some(id) => {
                return Ok(Reply::text(self.t(
                    "remember-refused",
                    &[
                        ("name", esc(&self.name(*id)).into()),
                        ("about", self.about(*id).into()),
                    ],
                )));
            }
        };
        let confidence = if self.viewer.role == Role::Director {
            Confidence::CONFIRMED
        } else {
            Confidence::RULES
        };
        let evidence = match self.source {
            Some((chat, msg)) => crate::ingest::evidence(chat, msg),
            None => self.s("evidence-dm"),
        };
        self.app
            .store
            .upsert_memory(&NewMemory {
                org_id: self.org.id,
                subject,
                kind: memory_kind_of(content),
                content,
                confidence,
                author: Author::User(self.viewer.asker),
                visibility: Visibility::Private,
                evidence: &evidence,
                source_chat: self.source.map(|s| s.0),
                source_message: self.source.map(|s| s.1),
                at: self.now,
            })
            .await?;
        Ok(Reply::text(self.t(
            "remembered",
            &[
                ("name", esc(&self.name(subject)).into()),
                ("about", self.about(subject).into()),
                ("self", (subject == self.viewer.asker).to_string().into()),
            ],
        )))
    }

    /// What can be asked, with buttons for the common questions.
    pub fn help(&self) -> Reply {
        let mut buttons = vec![
            vec![(self.s("button-priorities"), Question::Priorities.data())],
            vec![(self.s("button-promises"), Question::Promises.data())],
        ];
        if self.viewer.role != Role::Member {
            buttons.push(vec![
                (self.s("button-overdue"), Question::Overdue.data()),
                (self.s("button-idle"), Question::Idle.data()),
            ]);
        }
        Reply {
            text: self.t("help-questions", &[("examples", self.examples().into())]),
            buttons,
        }
    }

    /// `/help` (in a DM or a group): what kept does, with examples.
    pub fn help_text(&self) -> Reply {
        Reply::text(self.t("help", &[("examples", self.examples().into())]))
    }

    /// Example questions about this team: a teammate's name rather than one nobody here has,
    /// and the org's own graph when it has one.
    pub fn examples(&self) -> String {
        let mut out = vec![self.s("example-priorities"), self.s("example-promises")];
        if let Some(p) = self
            .people
            .iter()
            .find(|p| p.profile.id != self.viewer.asker)
        {
            let first = &p.profile.first_name;
            out.push(
                self.t(
                    "example-person",
                    &[
                        ("name", esc(first).into()),
                        (
                            "name_gen",
                            esc(&crate::render::names::names().full(
                                first,
                                None,
                                None,
                                Case::Genitive,
                            ))
                            .into(),
                        ),
                    ],
                ),
            );
        }
        if self.viewer.role != Role::Member {
            out.push(self.s("example-idle"));
        }
        out.iter()
            .map(|q| self.t("example-quoted", &[("q", q.clone().into())]))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// `/me`: everything kept knows about the asker, grouped by kind, with confidence and source.
    pub async fn about_me(&self) -> Result<Reply, AnswerError> {
        let Some(ctx) = self.ctx(self.viewer.asker).await? else {
            return Ok(Reply::text(self.s("not-a-member")));
        };
        let p = &ctx.person;
        // The position says more than the role ("Главный технолог" rather than "сотрудник");
        // both only when the position does not already say the role.
        let role = self.s(&format!("role-{}", p.member.role));
        let title = match p.member.position.as_deref().map(str::trim) {
            Some(pos) if !pos.is_empty() => esc(pos),
            _ => role,
        };
        let mut text = self.t(
            "me-header",
            &[
                ("name", esc(&p.profile.full_name()).into()),
                ("role", title.into()),
                ("org", esc(&self.org.name).into()),
            ],
        );
        let mut example = None;
        if !ctx.open.is_empty() {
            text.push_str(&format!(
                "\n\n<b>{}</b>",
                self.t("me-promises", &[("n", (ctx.open.len() as i64).into())])
            ));
            // Promises are closed by saying so or with a button, not forgotten: no numbers.
            for c in &ctx.open {
                text.push('\n');
                text.push_str(&self.line(c, ctx.today));
            }
        }
        for kind in [
            MemoryKind::Fact,
            MemoryKind::Preference,
            MemoryKind::Trait,
            MemoryKind::Context,
        ] {
            let rows: Vec<_> = ctx
                .memories
                .iter()
                .filter(|(m, _)| m.kind == kind)
                .collect();
            if rows.is_empty() {
                continue;
            }
            text.push_str(&format!("\n\n<b>{}</b>", self.s(&format!("kind-{kind}"))));
            for (m, _) in rows {
                example.get_or_insert(m.id.0);
                text.push_str(&format!(
                    "\n[{}] {} — {} {:.0}%{}",
                    m.id,
                    esc(&m.content),
                    self.s("confidence"),
                    m.confidence.value() * 100.0,
                    self.source(m)
                ));
            }
        }
        match example {
            Some(id) => text.push_str(&format!(
                "\n\n{}",
                self.t("me-forget-hint", &[("id", id.into())])
            )),
            None if ctx.open.is_empty() => text.push_str(&format!("\n\n{}", self.s("me-nothing"))),
            None => {}
        }
        Ok(Reply::text(text))
    }

    /// Where a memory came from, for the reader: a link to the group message, or the place in
    /// words ("из личной переписки", "из итогов дня").
    fn source(&self, m: &crate::store::Memory) -> String {
        if let (Some(chat), Some(msg)) = (m.source_chat, m.source_message) {
            if let Some(link) = format::message_link(chat, msg) {
                return format!(", <a href=\"{link}\">{}</a>", self.s("source-message"));
            }
            if chat.0 > 0 {
                return format!(", {}", self.s("source-private"));
            }
            return format!(", {}", self.s("source-group"));
        }
        match m.author {
            Author::Reflection => format!(", {}", self.s("source-reflection")),
            _ => String::new(),
        }
    }

    /// `/forget ID`: archives one of the asker's own memories.
    pub async fn forget(&self, arg: &str) -> Result<Reply, AnswerError> {
        let Ok(id) = arg.trim().trim_start_matches('#').parse::<i64>() else {
            return Ok(Reply::text(self.s("forget-usage")));
        };
        let done = self
            .app
            .store
            .archive_memory(MemoryId(id), self.viewer.asker, self.now)
            .await?;
        Ok(Reply::text(self.s(if done {
            "forget-done"
        } else {
            "forget-unknown"
        })))
    }

    /// Everyone's open commitments in one read, by owner.
    async fn open_by_owner(
        &self,
    ) -> Result<std::collections::HashMap<UserId, Vec<Commitment>>, AnswerError> {
        let mut by: std::collections::HashMap<UserId, Vec<Commitment>> = Default::default();
        for c in self.app.store.open_commitments_in_org(self.org.id).await? {
            by.entry(c.owner).or_default().push(c);
        }
        Ok(by)
    }

    /// `/team`: per person open and overdue counts (directors and leads).
    pub async fn team(&self) -> Result<Reply, AnswerError> {
        if self.viewer.role == Role::Member {
            return Ok(Reply::text(self.s("overview-refused")));
        }
        let today = self.now.with_timezone(&self.org.timezone).date_naive();
        let mut text = self.s("team-header");
        let by_owner = self.open_by_owner().await?;
        let overseen = self.overseen();
        if overseen.is_empty() {
            return Ok(Reply::text(self.s("team-empty")));
        }
        for p in overseen {
            let open = by_owner
                .get(&p.profile.id)
                .map(Vec::as_slice)
                .unwrap_or_default();
            let late = open
                .iter()
                .filter(|c| c.due.is_some_and(|d| d.date < today))
                .count();
            text.push_str(&format!(
                "\n• {} — {}",
                esc(&p.profile.full_name()),
                self.t(
                    "team-line",
                    &[
                        ("open", (open.len() as i64).into()),
                        ("overdue", (late as i64).into())
                    ]
                )
            ));
        }
        Ok(Reply::text(text))
    }
}

/// Asks something: a question mark, or a question word first ("как дела у Лены").
fn is_question(text: &str) -> bool {
    const OPENERS: &[&str] = &[
        "что",
        "как",
        "чем",
        "кто",
        "где",
        "когда",
        "какие",
        "какой",
        "расскажи",
        "покажи",
        "what",
        "how",
        "who",
        "where",
        "when",
        "which",
        "tell",
        "show",
        "any",
    ];
    let first = text
        .split(|c: char| !c.is_alphanumeric())
        .find(|w| !w.is_empty())
        .map(str::to_lowercase);
    text.trim_end().ends_with('?') || first.is_some_and(|w| OPENERS.contains(&w.as_str()))
}

/// Commitment states as words (digests and button results).
pub fn state_key(s: CommitmentState) -> &'static str {
    match s {
        CommitmentState::Open => "state-open",
        CommitmentState::Done => "state-done",
        CommitmentState::Cancelled => "state-cancelled",
    }
}

/// The kind of a remembered note, by rules: likes and dislikes are preferences, character and
/// work style are traits, anything else is a fact.
pub fn memory_kind_of(content: &str) -> MemoryKind {
    const PREFERENCE: &[&str] = &[
        "люб",
        "нрав",
        "предпочит",
        "терпеть не мож",
        "не выносит",
        "удобн",
        "prefer",
        "like",
        "dislike",
        "hate",
        "enjoy",
        "loves",
        "rather",
    ];
    const TRAIT: &[&str] = &[
        "внимательн",
        "аккуратн",
        "пунктуальн",
        "ответственн",
        "надёжн",
        "надежн",
        "опаздыва",
        "забыва",
        "медленн",
        "быстро",
        "дотошн",
        "педантичн",
        "организован",
        "рассеян",
        "спокойн",
        "вспыльчив",
        "careful",
        "detail",
        "punctual",
        "reliable",
        "thorough",
        "organized",
        "organised",
        "forgetful",
        "late",
        "calm",
        "meticulous",
        "sloppy",
    ];
    let words = crate::extract::words::tokens(content);
    let has = |list: &[&str]| {
        words
            .iter()
            .any(|w| list.iter().any(|p| w.norm.starts_with(p)))
            || list
                .iter()
                .filter(|p| p.contains(' '))
                .any(|p| crate::extract::words::normalize(content).contains(p))
    };
    if has(PREFERENCE) {
        MemoryKind::Preference
    } else if has(TRAIT) {
        MemoryKind::Trait
    } else {
        MemoryKind::Fact
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembered_notes_get_their_kind_by_rules() {
        assert_eq!(
            memory_kind_of("Коля не любит созвоны после 16:00"),
            MemoryKind::Preference
        );
        assert_eq!(
            memory_kind_of("Ben prefers email to calls"),
            MemoryKind::Preference
        );
        assert_eq!(
            memory_kind_of("Лена очень внимательна к деталям"),
            MemoryKind::Trait
        );
        assert_eq!(memory_kind_of("Sam is always punctual"), MemoryKind::Trait);
        assert_eq!(
            memory_kind_of("работает у нас с 2024 года"),
            MemoryKind::Fact
        );
    }
}
