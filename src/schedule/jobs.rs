//! What each scheduled job says: reminders, reflections, the daily summary and the weekly digest.

use std::collections::BTreeMap;

use chrono::{DateTime, Duration, Utc};

use super::{ScheduleError, Timetable};
use crate::app::App;
use crate::digest;
use crate::domain::callback::{ButtonAction, TaskButton};
use crate::domain::{ChatId, JobKind, UserId};
use crate::render::format::{self, esc};
use crate::store::{Commitment, NewDelivery, Person};

/// The deliveries of one run (reflection writes its rows and sends nothing).
#[tracing::instrument(name = "job", skip_all, fields(org_id = table.cal.org.0, job = job.as_str(), at = %at))]
pub async fn compose(
    app: &App,
    table: &Timetable,
    job: JobKind,
    at: DateTime<Utc>,
) -> Result<Vec<NewDelivery>, ScheduleError> {
    match job {
        JobKind::RemindersMorning | JobKind::RemindersDayBefore => {
            reminders(app, table, job, at).await
        }
        JobKind::Reflection => {
            digest::reflect(app, &table.cal, at).await?;
            Ok(Vec::new())
        }
        JobKind::DailySummary | JobKind::WeeklyDigest if quiet(app, table, job, at).await? => {
            Ok(Vec::new())
        }
        JobKind::DailySummary => {
            Ok(digest::daily_deliveries(app, &table.cal, table.summary_slot(at), at).await?)
        }
        JobKind::WeeklyDigest => Ok(digest::weekly_deliveries(app, &table.cal, at).await?),
    }
}

/// Nothing open and nothing happened in the period: a summary would be a header over empty
/// lists, so none is sent (and a long quiet gap costs the scheduler nothing, see `advance`).
async fn quiet(
    app: &App,
    table: &Timetable,
    job: JobKind,
    at: DateTime<Utc>,
) -> Result<bool, ScheduleError> {
    let (open, last) = app.store.org_activity(table.cal.org).await?;
    if open > 0 {
        return Ok(false);
    }
    let today = at.with_timezone(&table.cal.tz).date_naive();
    let first_day = match job {
        JobKind::WeeklyDigest => {
            today - Duration::days(chrono::Datelike::weekday(&today).num_days_from_monday() as i64)
        }
        _ => today,
    };
    let start = digest::local_midnight(table.cal.tz, first_day);
    Ok(last.is_none_or(|l| l < start))
}

async fn reminders(
    app: &App,
    table: &Timetable,
    job: JobKind,
    at: DateTime<Utc>,
) -> Result<Vec<NewDelivery>, ScheduleError> {
    let org = app.store.org(table.cal.org).await?;
    let today = at.with_timezone(&table.cal.tz).date_naive();
    let morning = job == JobKind::RemindersMorning;
    let bound = if morning {
        today
    } else {
        table.cal.next_working_day(today)
    };
    let items = app
        .store
        .open_commitments_due_by(table.cal.org, &bound.to_string())
        .await?;
    let mut by_owner: BTreeMap<UserId, Vec<Commitment>> = BTreeMap::new();
    for c in items {
        let Some(due) = c.due else { continue };
        let wanted = if morning {
            due.date <= today
        } else {
            // Due after today up to the next working day, and not a promise made in the last 12 hours.
            due.date > today && at - c.created_at >= Duration::hours(12)
        };
        if wanted {
            by_owner.entry(c.owner).or_default().push(c);
        }
    }
    let people = app.store.people(table.cal.org).await?;
    // Nobody is reminded on a day they are away (the day-before reminder: away on that day).
    let away = app
        .store
        .absences_between(table.cal.org, today, bound)
        .await?;
    let mut out = Vec::new();
    for (owner, items) in by_owner {
        let Some(p) = people.iter().find(|p| p.profile.id == owner) else {
            continue;
        };
        let on = if morning { today } else { bound };
        if crate::store::away_on(&away, owner, on).is_some() {
            continue;
        }
        let lang = app.lang_for(Some(&p.profile), Some(&org));
        // Someone without a DM is reminded in each group where they promised, of what they
        // promised there; in one group the rest of the team would not know what is meant.
        let batches: Vec<Vec<Commitment>> = if p.profile.dm_open {
            vec![items]
        } else {
            let mut by_group: BTreeMap<i64, Vec<Commitment>> = BTreeMap::new();
            for c in items {
                match c.source_chat.filter(|g| g.0 < 0) {
                    Some(g) => by_group.entry(g.0).or_default().push(c),
                    None => {
                        tracing::info!(user = %owner, "reminder has nowhere to go: no DM and no group");
                    }
                }
            }
            by_group.into_values().collect()
        };
        for items in batches {
            // Each promise its own message while there are few: its buttons sit under the
            // promise they act on, and a tap needs no number to say which one is meant. Many
            // at once come as one numbered list rather than a burst of messages.
            if items.len() == 1 || items.len() > SPLIT_MAX {
                out.push(reminder(app, p, lang, &items, morning, today, bound, None));
            } else {
                let n = items.len();
                for (i, c) in items.iter().enumerate() {
                    let one = std::slice::from_ref(c);
                    out.push(reminder(
                        app,
                        p,
                        lang,
                        one,
                        morning,
                        today,
                        bound,
                        Some((i + 1, n)),
                    ));
                }
            }
        }
    }
    if morning {
        out.extend(task_reminders(app, table, &org, &people, &away, today).await?);
    }
    Ok(out)
}

/// Up to this many promises due at once are reminded of one message each.
const SPLIT_MAX: usize = 6;

/// One reminder of `items` to `p`: to their DM (the group as a fallback), or to the group the
/// items were promised in. `part` is (this one, of how many) when the owner's due promises are
/// reminded of one message each.
#[allow(clippy::too_many_arguments)]
fn reminder(
    app: &App,
    p: &Person,
    lang: crate::domain::Lang,
    items: &[Commitment],
    morning: bool,
    today: chrono::NaiveDate,
    bound: chrono::NaiveDate,
    part: Option<(usize, usize)>,
) -> NewDelivery {
    let header = if let Some((i, n)) = part {
        let key = if morning {
            "reminder-morning-part"
        } else {
            "reminder-day-before-part"
        };
        app.i18n.t(
            lang,
            key,
            &[
                ("i", (i as i64).into()),
                ("n", (n as i64).into()),
                ("date", format::date(&app.i18n, lang, bound).into()),
            ],
        )
    } else if morning {
        app.i18n.t(
            lang,
            "reminder-morning",
            &[("n", (items.len() as i64).into())],
        )
    } else {
        app.i18n.t(
            lang,
            "reminder-day-before",
            &[
                ("n", (items.len() as i64).into()),
                ("date", format::date(&app.i18n, lang, bound).into()),
            ],
        )
    };
    let mut body = String::new();
    let numbered = items.len() > 1;
    for (i, c) in items.iter().enumerate() {
        let due = c
            .due
            .map(|d| format::due(&app.i18n, lang, d))
            .unwrap_or_default();
        let late = c.due.is_some_and(|d| d.date < today);
        let key = if late { "due-overdue" } else { "due-on" };
        let num = if numbered {
            format!("{}. ", i + 1)
        } else {
            "• ".into()
        };
        body.push_str(&format!(
            "\n{num}{} — {}",
            esc(&c.content),
            app.i18n.t(lang, key, &[("date", due.into())])
        ));
    }
    let buttons: Vec<Vec<(String, String)>> = items
        .iter()
        .enumerate()
        .map(|(i, c)| {
            [
                ButtonAction::Done,
                ButtonAction::Snooze,
                ButtonAction::NotAPromise,
            ]
            .iter()
            .map(|a| {
                let mut label = app.i18n.s(lang, &format!("button-{}", a.code()));
                if numbered {
                    label = format!("{} {}", label, i + 1);
                }
                (label, a.data(c.origin_id))
            })
            .collect()
        })
        .collect();
    let group = items.iter().find_map(|c| c.source_chat).filter(|c| c.0 < 0);
    let group_text = format!("{}, {}{}", format::mention(p), header, body);
    let dm_text = format!("{}{body}", crate::render::capitalized(&header));
    if p.profile.dm_open {
        NewDelivery {
            chat_id: ChatId(p.profile.id.0),
            to_user: Some(p.profile.id),
            text: dm_text,
            buttons,
            fallback_chat_id: group,
            fallback_text: group.map(|_| group_text),
            photo: None,
        }
    } else {
        NewDelivery {
            chat_id: group.unwrap_or(ChatId(p.profile.id.0)),
            to_user: None,
            text: group_text,
            buttons,
            ..Default::default()
        }
    }
}

/// The morning DM of accepted tasks due today or overdue, a ✅ button for each.
async fn task_reminders(
    app: &App,
    table: &Timetable,
    org: &crate::store::Org,
    people: &[Person],
    away: &[crate::store::Away],
    today: chrono::NaiveDate,
) -> Result<Vec<NewDelivery>, ScheduleError> {
    let mut by_owner: BTreeMap<UserId, Vec<crate::store::Task>> = BTreeMap::new();
    for t in app
        .store
        .tasks_due_by(table.cal.org, &today.to_string())
        .await?
    {
        if let Some(a) = t.assignee {
            by_owner.entry(a).or_default().push(t);
        }
    }
    let mut out = Vec::new();
    for (owner, tasks) in by_owner {
        let Some(p) = people.iter().find(|p| p.profile.id == owner) else {
            continue;
        };
        if !p.profile.dm_open || crate::store::away_on(away, owner, today).is_some() {
            continue;
        }
        let lang = app.lang_for(Some(&p.profile), Some(org));
        let numbered = tasks.len() > 1;
        let mut text = app.i18n.s(lang, "reminder-tasks");
        let mut buttons = Vec::new();
        for (i, t) in tasks.iter().enumerate() {
            let due = t
                .due
                .map(|d| format::due(&app.i18n, lang, d))
                .unwrap_or_default();
            let late = t.due.is_some_and(|d| d.date < today);
            let key = if late { "due-overdue" } else { "due-on" };
            text.push_str(&format!(
                "\n• {} — {}",
                esc(&t.title),
                app.i18n.t(lang, key, &[("date", due.into())])
            ));
            let mut label = app.i18n.s(lang, "button-task-done");
            if numbered {
                label = format!("{label} {}", i + 1);
            }
            buttons.push(vec![(label, TaskButton::Done.data(t.id))]);
        }
        out.push(NewDelivery {
            chat_id: ChatId(owner.0),
            to_user: Some(owner),
            text,
            buttons,
            ..Default::default()
        });
    }
    Ok(out)
}
