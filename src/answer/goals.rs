//! Goals from Telegram: `/goal Запустить продажи в Казани до 1 марта — два дилера @pavel` sets
//! a goal; the model (when there is one) breaks it into 3–10 steps from the owner's context,
//! else the goal is one step. The steps come back with buttons to keep, drop or assign each: a
//! kept step is a task. `/goals` lists the goals with their progress.

use std::collections::BTreeSet;

use chrono::{DateTime, Duration, Utc};
use serde::Deserialize;
use serde_json::{Value, json};

use super::format::{self, esc};
use super::{AnswerError, Answerer, Reply};
use crate::app::App;
use crate::context::{self, Viewer};
use crate::domain::{Lang, OrgId, Role, UserId};
use crate::extract::goal;
use crate::ingest::extract_people;
use crate::llm::{Caller, Structured, prompts};
use crate::render::names::Case;
use crate::store::{Goal, GoalStep, NewGoal, Person, StoreError};

/// The model's plan for a goal.
#[derive(Debug, Deserialize)]
pub struct ModelPlan {
    pub steps: Vec<String>,
}

impl Structured for ModelPlan {
    const NAME: &'static str = "goal_plan";
    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "steps": {
                    "type": "array", "minItems": 3, "maxItems": 10,
                    "items": {"type": "string", "minLength": 3, "maxLength": 200},
                },
            },
            "required": ["steps"],
            "additionalProperties": false,
        })
    }
    fn check(&self) -> Result<(), String> {
        let n = clean_steps(&self.steps).len();
        if (3..=10).contains(&n) {
            Ok(())
        } else {
            Err(format!("{n} steps, not 3 to 10"))
        }
    }
}

/// The steps as they will be stored: trimmed, no list marks, no repeats, at most 10.
fn clean_steps(steps: &[String]) -> Vec<String> {
    let mut seen = BTreeSet::new();
    steps
        .iter()
        .map(|s| {
            s.trim()
                .trim_start_matches(|c: char| {
                    c.is_ascii_digit() || c.is_whitespace() || ".)-•*".contains(c)
                })
                .chars()
                .take(200)
                .collect::<String>()
        })
        .filter(|s| !s.is_empty() && seen.insert(s.to_lowercase()))
        .take(10)
        .collect()
}

use crate::domain::callback::GoalButton;

fn person(people: &[Person], id: UserId) -> Option<&Person> {
    people.iter().find(|p| p.profile.id == id)
}

fn name(people: &[Person], id: UserId) -> String {
    format::name_of(people, id)
}

/// How one step stands, in words.
fn step_state(app: &App, lang: Lang, people: &[Person], s: &GoalStep) -> String {
    let who = |u: Option<UserId>| u.map(|u| name(people, u)).unwrap_or_default();
    let key = match (s.status.as_str(), s.done_at.is_some(), s.accepted) {
        (_, true, _) => "goal-step-done",
        ("dropped", ..) => "goal-step-dropped",
        ("kept", _, false) => "goal-step-waiting",
        ("kept", _, true) => "goal-step-kept",
        _ => "goal-step-proposed",
    };
    app.i18n
        .t(lang, key, &[("name", esc(&who(s.assignee)).into())])
}

/// The goal's heading line: title, date, owner.
pub fn heading(app: &App, lang: Lang, people: &[Person], g: &Goal) -> String {
    let mut s = format!("🎯 <b>{}</b>", esc(&crate::render::truncate(&g.title, 200)));
    if let Some(d) = g.due {
        s.push_str(" — ");
        s.push_str(&app.i18n.t(
            lang,
            "goal-due",
            &[("date", format::date(&app.i18n, lang, d.date).into())],
        ));
    }
    if let Some(o) = g.owner {
        s.push_str(" · ");
        s.push_str(&esc(&name(people, o)));
    }
    s
}

/// The plan message: the goal, each step with where it stands, and the buttons of the steps
/// still to decide. Built from the store every time, so an edit after a press shows the truth.
pub fn plan(
    app: &App,
    lang: Lang,
    people: &[Person],
    g: &Goal,
    steps: &[GoalStep],
    note: Option<&str>,
) -> Reply {
    let mut text = heading(app, lang, people, g);
    if let Some(d) = &g.description {
        text.push('\n');
        text.push_str(&esc(&crate::render::truncate(d, 500)));
    }
    text.push_str(&format!("\n\n<b>{}</b>", app.i18n.s(lang, "goal-steps")));
    let mut buttons = Vec::new();
    for s in steps {
        text.push_str(&format!(
            "\n{}. {} — {}",
            s.position,
            esc(&s.title),
            step_state(app, lang, people, s)
        ));
        if s.status == "proposed" {
            let n = [("n", s.position.into())];
            buttons.push(vec![
                (
                    app.i18n.t(lang, "button-goal-keep", &n),
                    GoalButton::Keep(s.id).data(),
                ),
                (
                    app.i18n.t(lang, "button-goal-assign", &n),
                    GoalButton::Who(s.id).data(),
                ),
                (
                    app.i18n.t(lang, "button-goal-drop", &n),
                    GoalButton::Drop(s.id).data(),
                ),
            ]);
        }
    }
    if !buttons.is_empty() {
        text.push_str("\n\n");
        text.push_str(&app.i18n.s(lang, "goal-plan-hint"));
    }
    if let Some(n) = note {
        text.push_str("\n\n");
        text.push_str(n);
    }
    Reply { text, buttons }
}

/// A step offered this many days ago and still not accepted stalls.
const UNANSWERED_DAYS: i64 = 2;

/// Done steps and steps still open, and who moved (finished a step in the last week) and who
/// stalls (an open step overdue or still not accepted after two days).
pub struct Progress {
    pub done: usize,
    pub total: usize,
    pub done_since: usize,
    pub moves: Vec<UserId>,
    pub stalls: Vec<UserId>,
}

pub fn progress(
    g: &Goal,
    steps: &[GoalStep],
    since: DateTime<Utc>,
    now: DateTime<Utc>,
    tz: chrono_tz::Tz,
) -> Progress {
    let live: Vec<&GoalStep> = steps.iter().filter(|s| s.status != "dropped").collect();
    let today = now.with_timezone(&tz).date_naive();
    let mut moves = Vec::new();
    let mut stalls = Vec::new();
    let mut done_since = 0;
    for s in &live {
        match (s.done_at, s.assignee) {
            (Some(t), who) if t >= since => {
                done_since += 1;
                if let Some(w) = who
                    && !moves.contains(&w)
                {
                    moves.push(w);
                }
            }
            (None, Some(w)) if s.status == "kept" => {
                let late = g.due.is_some_and(|d| d.date < today);
                let unanswered = !s.accepted
                    && s.task_created
                        .is_some_and(|t| now - t > Duration::days(UNANSWERED_DAYS));
                if (late || unanswered) && !stalls.contains(&w) {
                    stalls.push(w);
                }
            }
            _ => {}
        }
    }
    Progress {
        done: live.iter().filter(|s| s.done_at.is_some()).count(),
        total: live.len(),
        done_since,
        moves,
        stalls,
    }
}

/// Whether `viewer` sees goal `g`: a director every goal, a lead the goals they or their
/// reports own or work on, a member their own and those they have a step in.
pub fn visible(viewer: &Viewer, g: &Goal, steps: &[GoalStep]) -> bool {
    let involved = |u: UserId| u == viewer.asker || viewer.oversees(u);
    viewer.role == Role::Director
        || g.owner.is_some_and(involved)
        || g.created_by == Some(viewer.asker)
        || steps.iter().filter_map(|s| s.assignee).any(involved)
}

/// Whether `viewer` decides goal `g`'s steps: its owner, who set it, whoever oversees the owner.
pub fn decides(viewer: &Viewer, g: &Goal) -> bool {
    g.owner == Some(viewer.asker)
        || g.created_by == Some(viewer.asker)
        || g.owner.is_some_and(|o| viewer.oversees(o))
}

impl Answerer<'_> {
    /// `/goal TITLE [до DATE] [— DESCRIPTION] [@owner]`.
    pub async fn goal_command(&self, arg: &str) -> Result<Reply, AnswerError> {
        let people = extract_people(&self.people);
        let local = self.now.with_timezone(&self.org.timezone);
        let spec = match goal::command(arg, &people, local) {
            Ok(Some(spec)) => spec,
            Ok(None) => return Ok(Reply::text(self.s("goal-usage"))),
            Err(who) => {
                return Ok(Reply::text(
                    self.t("goal-unknown-owner", &[("who", esc(&who).into())]),
                ));
            }
        };
        let owner = spec.owner.map(UserId).unwrap_or(self.viewer.asker);
        // Anyone sets their own goal; a goal for someone else is for who oversees them.
        if owner != self.viewer.asker && !self.viewer.oversees(owner) {
            return Ok(Reply::text(self.s("goal-refused")));
        }
        let Some(owner_person) = self.person(owner) else {
            return Ok(Reply::text(self.s("not-a-member")));
        };
        let planned = match &self.app.llm {
            Some(llm) => {
                let ctx = context::read(
                    &self.app.store,
                    &self.viewer,
                    owner_person,
                    self.now,
                    self.org.timezone,
                )?;
                let due = spec
                    .due
                    .map(|d| d.date.to_string())
                    .unwrap_or_else(|| "-".into());
                let answer = llm
                    .ask::<ModelPlan>(
                        Caller {
                            store: &self.app.store,
                            org: self.org.id,
                            tz: self.org.timezone,
                            now: self.now,
                        },
                        prompts::GOAL_SYSTEM.fill(&[("language", prompts::language(self.lang))]),
                        prompts::GOAL_USER.fill(&[
                            ("goal", &spec.title),
                            ("due", &due),
                            ("description", spec.description.as_deref().unwrap_or("-")),
                            ("context", &context::render(&ctx)),
                        ]),
                        || self.budget_notice(),
                    )
                    .await;
                match answer {
                    Ok(plan) => Some(clean_steps(&plan.steps)),
                    Err(e) => {
                        tracing::info!(org = self.org.id.0, error = %e, "goal kept whole: the model did not plan it");
                        None
                    }
                }
            }
            None => None,
        };
        let by_model = planned.is_some();
        let steps = planned.unwrap_or_else(|| vec![spec.title.clone()]);
        let id = self
            .app
            .store
            .insert_goal(&NewGoal {
                org: self.org.id,
                title: &spec.title,
                description: spec.description.as_deref(),
                owner,
                created_by: self.viewer.asker,
                due: spec.due,
                steps: &steps,
                at: self.now,
            })
            .await?;
        let g = self
            .app
            .store
            .goal(id)
            .await?
            .ok_or_else(|| StoreError::NotFound(format!("goal {id}")))?;
        let stored = self.app.store.goal_steps(id).await?;
        let note = (!by_model).then(|| self.s("goal-one-step"));
        let mut reply = plan(
            self.app,
            self.lang,
            &self.people,
            &g,
            &stored,
            note.as_deref(),
        );
        reply.text = format!("{}\n\n{}", self.s("goal-created"), reply.text);
        Ok(reply)
    }

    /// `/goals`: the goals the asker may see, with progress.
    pub async fn list_goals(&self) -> Result<Reply, AnswerError> {
        let week_ago = self.now - Duration::days(7);
        let mut text = String::new();
        let mut n = 0;
        let mut buttons = Vec::new();
        for g in self.app.store.goals(self.org.id).await? {
            let steps = self.app.store.goal_steps(g.id).await?;
            if !visible(&self.viewer, &g, &steps) {
                continue;
            }
            n += 1;
            if n > 15 {
                break;
            }
            // Steps still to decide (a declined one is proposed again): the plan, by button.
            if decides(&self.viewer, &g) && steps.iter().any(|s| s.status == "proposed") {
                buttons.push(vec![(
                    format!("🎯 {}", crate::render::truncate(&g.title, 40)),
                    GoalButton::Plan(g.id).data(),
                )]);
            }
            let p = progress(&g, &steps, week_ago, self.now, self.org.timezone);
            text.push_str(&format!(
                "\n\n{}\n{}",
                heading(self.app, self.lang, &self.people, &g),
                goal_progress_line(self.app, self.lang, &self.people, &g, &p)
            ));
        }
        if n == 0 {
            return Ok(Reply::text(self.s("goals-none")));
        }
        Ok(Reply {
            text: format!("{}{text}", self.s("goals-header")),
            buttons,
        })
    }
}

/// "2 из 5 шагов · двигают: Павел · стоят: Олег" — shared by `/goals` and the weekly digest.
pub fn goal_progress_line(
    app: &App,
    lang: Lang,
    people: &[Person],
    g: &Goal,
    p: &Progress,
) -> String {
    let mut line = if g.status == "done" {
        app.i18n.s(lang, "goal-done")
    } else {
        app.i18n.t(
            lang,
            "goal-progress",
            &[
                ("done", (p.done as i64).into()),
                ("total", (p.total as i64).into()),
                ("week", (p.done_since as i64).into()),
            ],
        )
    };
    let names = |ids: &[UserId]| {
        ids.iter()
            .map(|u| esc(&name(people, *u)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !p.moves.is_empty() {
        line.push_str(" · ");
        line.push_str(
            &app.i18n
                .t(lang, "goal-moves", &[("names", names(&p.moves).into())]),
        );
    }
    if !p.stalls.is_empty() {
        line.push_str(" · ");
        line.push_str(
            &app.i18n
                .t(lang, "goal-stalls", &[("names", names(&p.stalls).into())]),
        );
    }
    line
}

/// What a goal button did: a short note for the presser, the plan message as it now reads (to
/// edit in place), and a task offer for a person a step was given to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoalPressed {
    pub note: String,
    pub edit: Option<Reply>,
    /// A new message for the presser (the plan asked for from `/goals`).
    pub reply: Option<Reply>,
    pub offer: Option<(crate::domain::ChatId, Reply)>,
}

/// A press of a goal button by `user`. The goal's owner, who set it, and whoever oversees the
/// owner decide its steps; a step goes only to someone the presser may give work to (or to
/// themselves).
pub async fn press(
    app: &App,
    org: OrgId,
    user: UserId,
    button: GoalButton,
    lang: Lang,
    at: DateTime<Utc>,
) -> Result<GoalPressed, StoreError> {
    let plain = |k: &str| GoalPressed {
        note: app.i18n.s(lang, k),
        edit: None,
        reply: None,
        offer: None,
    };
    let (goal_id, step) = match button {
        GoalButton::Back(g) | GoalButton::Plan(g) => (g, None),
        GoalButton::Keep(s) | GoalButton::Drop(s) | GoalButton::Who(s) | GoalButton::To(s, _) => {
            match app.store.goal_step(s).await? {
                Some(st) => (st.goal_id, Some(st)),
                None => return Ok(plain("button-unknown")),
            }
        }
    };
    let Some(g) = app.store.goal(goal_id).await?.filter(|g| g.org == org) else {
        return Ok(plain("button-unknown"));
    };
    let viewer = Viewer::load(&app.store, org, user, false).await?;
    if !decides(&viewer, &g) {
        return Ok(plain("goal-not-yours"));
    }
    let people = app.store.people(org).await?;
    if button == GoalButton::Plan(g.id) {
        let steps = app.store.goal_steps(g.id).await?;
        return Ok(GoalPressed {
            note: String::new(),
            edit: None,
            reply: Some(plan(app, lang, &people, &g, &steps, None)),
            offer: None,
        });
    }
    let mut offer = None;
    let note = match (button, &step) {
        (GoalButton::Back(_) | GoalButton::Plan(_), _) => String::new(),
        (_, Some(st)) if st.status != "proposed" => app.i18n.s(lang, "goal-step-decided"),
        (GoalButton::Drop(s), Some(st)) => {
            app.store.drop_step(s).await?;
            app.i18n
                .t(lang, "goal-note-dropped", &[("n", st.position.into())])
        }
        (GoalButton::Who(_), Some(st)) => {
            // The choice of people replaces the plan's buttons until one is pressed.
            let mut rows: Vec<Vec<(String, String)>> = people
                .iter()
                .filter(|p| p.member.active)
                .filter(|p| p.profile.id == user || viewer.oversees(p.profile.id))
                .take(30)
                .map(|p| {
                    (
                        p.profile.full_name(),
                        GoalButton::To(st.id, p.profile.id).data(),
                    )
                })
                .collect::<Vec<_>>()
                .chunks(2)
                .map(<[_]>::to_vec)
                .collect();
            rows.push(vec![(
                app.i18n.s(lang, "button-goal-back"),
                GoalButton::Back(g.id).data(),
            )]);
            let steps = app.store.goal_steps(g.id).await?;
            let mut edit = plan(app, lang, &people, &g, &steps, None);
            edit.text.push_str("\n\n");
            edit.text.push_str(&app.i18n.t(
                lang,
                "goal-who",
                &[("n", st.position.into()), ("step", esc(&st.title).into())],
            ));
            edit.buttons = rows;
            return Ok(GoalPressed {
                note: String::new(),
                edit: Some(edit),
                reply: None,
                offer: None,
            });
        }
        (GoalButton::Keep(_) | GoalButton::To(..), Some(st)) => {
            let assignee = match button {
                GoalButton::To(_, u) => u,
                _ => g.owner.unwrap_or(user),
            };
            if assignee != user && !viewer.oversees(assignee) {
                return Ok(plain("task-refused"));
            }
            let Some(p) = person(&people, assignee) else {
                return Ok(plain("not-a-member"));
            };
            if let Some(task) = app.store.keep_step(st.id, assignee, user, at).await?
                && assignee != user
            {
                let their = app.lang_for(Some(&p.profile), None);
                let o = super::tasks::offer(
                    app,
                    their,
                    &name(&people, user),
                    &st.title,
                    g.due,
                    "normal",
                    task,
                );
                offer = super::tasks::reach(app, org, p, o).await?;
            }
            let key = if assignee != user && offer.is_none() {
                "goal-note-kept-unreached"
            } else {
                "goal-note-kept"
            };
            app.i18n.t(
                lang,
                key,
                &[
                    ("n", st.position.into()),
                    ("name_dat", format::name_in(&p.profile, Case::Dative).into()),
                ],
            )
        }
        (_, None) => return Ok(plain("button-unknown")),
    };
    let steps = app.store.goal_steps(g.id).await?;
    let edit = plan(
        app,
        lang,
        &people,
        &g,
        &steps,
        (!note.is_empty()).then_some(note.as_str()),
    );
    Ok(GoalPressed {
        note,
        edit: Some(edit),
        reply: None,
        offer,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn steps_are_cleaned() {
        let s = clean_steps(&[
            "1. Найти склад".into(),
            " - найти склад".into(),
            "  ".into(),
            "2) Подписать договор".into(),
        ]);
        assert_eq!(s, vec!["Найти склад", "Подписать договор"]);
    }

    proptest! {
        #[test]
        fn any_steps_clean_without_panic(v in proptest::collection::vec("\\PC{0,300}", 0..15)) {
            let s = clean_steps(&v);
            prop_assert!(s.len() <= 10);
        }
    }
}
