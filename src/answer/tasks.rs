//! Tasks assigned from Telegram: `/task @user текст [срок] [!срочно]` or a plain "Павел,
//! переделай смету до завтра" in a DM from a director or lead. The assignee gets a DM with
//! accept / decline / a day later; the assigner hears the answer. Accepted tasks count in the
//! assignee's priorities and morning reminders; the ✅ button closes them.

use chrono::{DateTime, NaiveDate, Utc};

use super::{AnswerError, Answerer, Reply};
use crate::app::App;
use crate::domain::{ChatId, Due, Lang, OrgId, UserId};
use crate::extract::task::{self, TaskSpec};
use crate::ingest::extract_people;
use crate::render::format::{self, esc};
use crate::store::{Person, StoreError};

/// What an assignment sends: the answer to the assigner, and the DM to the assignee.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assigned {
    pub reply: Reply,
    /// The offer and where it goes: the assignee's DM, or a group with a mention of them.
    pub to_assignee: Option<(ChatId, Reply)>,
}

use crate::domain::callback::TaskButton;

pub(crate) fn task_line(app: &App, lang: Lang, title: &str, due: Option<Due>) -> String {
    match due {
        Some(d) => format!("{} — {}", esc(title), format::due(&app.i18n, lang, d)),
        None => esc(title),
    }
}

/// The DM that offers task `id` to its assignee: who set it, what, by when, how urgent, and
/// the accept / decline / a-day-later buttons.
pub(crate) fn offer(
    app: &App,
    their: Lang,
    by: &str,
    title: &str,
    due: Option<Due>,
    priority: &str,
    id: i64,
) -> Reply {
    let line = task_line(app, their, title, due);
    let urgent = match priority {
        "urgent" => format!(" {}", app.i18n.s(their, "task-urgent")),
        "high" => format!(" {}", app.i18n.s(their, "task-high")),
        _ => String::new(),
    };
    let b = |k: &str, action: TaskButton| (app.i18n.s(their, k), action.data(id));
    Reply {
        text: app.i18n.t(
            their,
            "task-assigned-to-you",
            &[
                ("by", esc(by).into()),
                ("what", format!("{line}{urgent}").into()),
            ],
        ),
        buttons: vec![
            vec![
                b("button-task-accept", TaskButton::Accept),
                b("button-task-decline", TaskButton::Decline),
            ],
            vec![b("button-task-later", TaskButton::Later)],
        ],
    }
}

/// Where a task offer reaches its assignee: their DM when they started the bot, else the
/// linked group they last wrote in, with a mention (the buttons work there too: only the
/// assignee's press counts). `None` when neither exists.
pub(crate) async fn reach(
    app: &App,
    org: OrgId,
    p: &Person,
    offer: Reply,
) -> Result<Option<(ChatId, Reply)>, StoreError> {
    if p.profile.dm_open {
        return Ok(Some((ChatId(p.profile.id.0), offer)));
    }
    Ok(app
        .store
        .last_group_of(org, p.profile.id)
        .await?
        .map(|group| {
            (
                group,
                Reply {
                    text: format!("{}, {}", format::mention(p), offer.text),
                    buttons: offer.buttons,
                },
            )
        }))
}

impl Answerer<'_> {
    /// `/task ARG`.
    pub async fn task_command(&self, arg: &str) -> Result<Assigned, AnswerError> {
        let people = extract_people(&self.people);
        let local = self.now.with_timezone(&self.org.timezone);
        match task::command(arg, &people, local) {
            Some(spec) => self.assign(spec).await,
            None => Ok(Assigned {
                reply: Reply::text(self.s("task-usage")),
                to_assignee: None,
            }),
        }
    }

    /// A DM that assigns work to a named person, from someone who may: `None` when the text
    /// is not an assignment (it is then answered as a question).
    pub async fn plain_assignment(&self, text: &str) -> Result<Option<Assigned>, AnswerError> {
        if self.viewer.role == crate::domain::Role::Member || self.viewer.in_group {
            return Ok(None);
        }
        let people = extract_people(&self.people);
        let local = self.now.with_timezone(&self.org.timezone);
        match task::assignment(text, self.viewer.asker.0, &people, local) {
            Some(spec) => Ok(Some(self.assign(spec).await?)),
            None => Ok(None),
        }
    }

    async fn assign(&self, spec: TaskSpec) -> Result<Assigned, AnswerError> {
        let assignee = UserId(spec.assignee);
        // A director assigns anyone, a lead their reports, a member nobody.
        if !self.viewer.oversees(assignee) {
            return Ok(Assigned {
                reply: Reply::text(self.s("task-refused")),
                to_assignee: None,
            });
        }
        let id = self
            .app
            .store
            .assign_task(
                self.org.id,
                assignee,
                self.viewer.asker,
                &spec.title,
                spec.priority,
                spec.due,
                self.now,
            )
            .await?;
        let Some(p) = self.person(assignee) else {
            return Ok(Assigned {
                reply: Reply::text(self.s("not-a-member")),
                to_assignee: None,
            });
        };
        let their = self.app.lang_for(Some(&p.profile), Some(self.org));
        let to_assignee = reach(
            self.app,
            self.org.id,
            p,
            offer(
                self.app,
                their,
                &self.name(self.viewer.asker),
                &spec.title,
                spec.due,
                spec.priority,
                id,
            ),
        )
        .await?;
        let key = match &to_assignee {
            Some((chat, _)) if chat.0 == assignee.0 => "task-assigned",
            Some(_) => "task-assigned-group",
            None => "task-assigned-no-dm",
        };
        Ok(Assigned {
            reply: Reply::text(self.t(
                key,
                &[
                    ("name", esc(&p.profile.first_name).into()),
                    (
                        "name_dat",
                        format::name_in(&p.profile, crate::render::names::Case::Dative).into(),
                    ),
                    (
                        "name_gen",
                        format::name_in(&p.profile, crate::render::names::Case::Genitive).into(),
                    ),
                    (
                        "what",
                        task_line(self.app, self.lang, &spec.title, spec.due).into(),
                    ),
                ],
            )),
            to_assignee,
        })
    }
}

/// What the one who set a task hears of its assignee's answer (`key`: accepted, declined,
/// finished…), in their language; `None` when they are not in `people`.
pub fn tell_assigner(
    app: &App,
    people: &[Person],
    assigner: UserId,
    assignee_name: &str,
    key: &str,
    title: &str,
    due: Option<Due>,
) -> Option<(UserId, String)> {
    let p = people.iter().find(|p| p.profile.id == assigner)?;
    let their = app.lang_for(Some(&p.profile), None);
    let what = task_line(app, their, title, due);
    Some((
        assigner,
        app.i18n.t(
            their,
            key,
            &[("name", esc(assignee_name).into()), ("what", what.into())],
        ),
    ))
}

/// What a task button did: a note for the presser, and a DM for the assigner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pressed {
    pub note: String,
    pub tell: Option<(UserId, String)>,
}

/// A press of a task button by `user`. Only the assignee may answer or close a task.
pub async fn press(
    app: &App,
    user: UserId,
    id: i64,
    button: TaskButton,
    lang: Lang,
    next_working_day: impl Fn(NaiveDate) -> NaiveDate,
    at: DateTime<Utc>,
) -> Result<Pressed, StoreError> {
    let plain = |k: &str| Pressed {
        note: app.i18n.s(lang, k),
        tell: None,
    };
    let Some(t) = app.store.task(id).await? else {
        return Ok(plain("button-unknown"));
    };
    if t.task.assignee != Some(user) {
        return Ok(plain("button-not-yours"));
    }
    if t.task.status != "open" && t.task.status != "in_progress" {
        return Ok(plain("task-closed"));
    }
    let (changed, key, tell_key, due) = match button {
        TaskButton::Accept => (
            app.store.answer_task(id, true, None, at).await?,
            "task-accepted",
            "task-they-accepted",
            t.task.due,
        ),
        TaskButton::Decline => (
            {
                let declined = app.store.answer_task(id, false, None, at).await?;
                // A goal's step someone declined is open again, to be given to someone else.
                app.store.reopen_step_of_task(id).await?;
                declined
            },
            "task-declined",
            "task-they-declined",
            t.task.due,
        ),
        TaskButton::Later => {
            let base = t
                .task
                .due
                .map(|d| d.date)
                .unwrap_or_else(|| at.date_naive());
            let due = Some(Due {
                date: next_working_day(base),
                time: t.task.due.and_then(|d| d.time),
            });
            (
                app.store.answer_task(id, true, due, at).await?,
                "task-accepted-later",
                "task-they-accepted-later",
                due,
            )
        }
        TaskButton::Done => (
            app.store.finish_task(id, at).await?,
            "task-done",
            "task-they-finished",
            t.task.due,
        ),
    };
    if !changed {
        return Ok(plain("task-closed"));
    }
    let people = app.store.people(t.org).await?;
    let presser = people
        .iter()
        .find(|p| p.profile.id == user)
        .map(|p| p.profile.first_name.clone())
        .unwrap_or_default();
    let what = task_line(app, lang, &t.task.title, due);
    let tell = t
        .assigned_by
        .filter(|b| *b != user)
        .and_then(|b| tell_assigner(app, &people, b, &presser, tell_key, &t.task.title, due));
    Ok(Pressed {
        note: app.i18n.t(lang, key, &[("what", what.into())]),
        tell,
    })
}
