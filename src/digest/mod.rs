//! Composing what the bot tells managers: daily reflections, the daily summary, the weekly
//! digest and its chart. Pure reads of the store plus templates; sending is the scheduler's job.

pub mod chart;
mod reflection;

use std::collections::BTreeMap;

use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;

use crate::app::App;
use crate::domain::OrgCalendar;
use crate::domain::{ChatId, CommitmentState, Lang, MemoryId, OrgId, Role, UserId};
use crate::render::format::{self, esc};
use crate::store::{Commitment, NewDelivery, Person, Reflection, StoreError};

#[derive(Debug, thiserror::Error)]
pub enum DigestError {
    #[error("storage")]
    Store(#[from] StoreError),
    #[error("chart")]
    Chart(#[from] chart::ChartError),
}

/// The history of one commitment: every version, oldest first.
#[derive(Debug, Clone)]
pub struct History {
    pub versions: Vec<Commitment>,
}

impl History {
    pub fn current(&self) -> &Commitment {
        // Never empty: built from at least one row.
        self.versions.last().unwrap_or_else(|| &self.versions[0])
    }
    pub fn origin(&self) -> &Commitment {
        &self.versions[0]
    }
    /// Times the due date changed, with when. An edit of the promise itself corrects it; that
    /// is not a move.
    pub fn moves(&self) -> Vec<DateTime<Utc>> {
        let origin = (
            self.versions[0].source_chat,
            self.versions[0].source_message,
        );
        self.versions
            .windows(2)
            .filter(|w| w[0].due != w[1].due && w[1].state == CommitmentState::Open)
            .filter(|w| (w[1].version_chat, w[1].version_message) != origin)
            .map(|w| w[1].valid_from)
            .collect()
    }
    /// When it was closed as done, if it was.
    pub fn done_at(&self) -> Option<DateTime<Utc>> {
        let c = self.current();
        (c.state == CommitmentState::Done).then_some(c.valid_from)
    }
}

pub async fn histories(app: &App, org: OrgId) -> Result<Vec<History>, StoreError> {
    histories_at(app, org, None).await
}

/// Histories as they stood at `at` (versions written later are left out), so a preview of a
/// past day reads like the day itself.
pub async fn histories_at(
    app: &App,
    org: OrgId,
    at: Option<DateTime<Utc>>,
) -> Result<Vec<History>, StoreError> {
    histories_of(app.store.commitment_versions(org).await?, at)
}

/// As [`histories_at`], only the promises open at some time from `since` on or changed since
/// then: what a day's or a week's digest starting at `since` can show.
pub async fn histories_since(
    app: &App,
    org: OrgId,
    since: DateTime<Utc>,
    at: DateTime<Utc>,
) -> Result<Vec<History>, StoreError> {
    histories_of(
        app.store.commitment_versions_since(org, since).await?,
        Some(at),
    )
}

fn histories_of(
    versions: Vec<Commitment>,
    at: Option<DateTime<Utc>>,
) -> Result<Vec<History>, StoreError> {
    let mut by: BTreeMap<MemoryId, Vec<Commitment>> = BTreeMap::new();
    for c in versions {
        if at.is_some_and(|t| c.valid_from > t) {
            continue;
        }
        by.entry(c.origin_id).or_default().push(c);
    }
    Ok(by
        .into_values()
        .filter(|v| !v.is_empty())
        .map(|versions| History { versions })
        .collect())
}

/// Midnight of a local date, as an instant.
pub fn local_midnight(tz: Tz, d: NaiveDate) -> DateTime<Utc> {
    tz.from_local_datetime(&d.and_time(NaiveTime::MIN))
        .earliest()
        .map(|t| t.with_timezone(&Utc))
        .unwrap_or_else(|| Utc.from_utc_datetime(&d.and_time(NaiveTime::MIN)))
}

/// One person's day in numbers.
#[derive(Debug, Clone, Default)]
pub struct DayStats {
    pub messages: i64,
    pub made: Vec<Commitment>,
    pub done: Vec<Commitment>,
    pub moved: Vec<Commitment>,
    pub overdue: Vec<Commitment>,
    pub open: Vec<Commitment>,
    pub moved_twice: Vec<Commitment>,
    pub silent_days: i64,
}

/// The org's people and each one's figures for a day.
type Day = (crate::store::People, BTreeMap<UserId, DayStats>);

async fn day_stats(app: &App, cal: &OrgCalendar, at: DateTime<Utc>) -> Result<Day, StoreError> {
    let tz = cal.tz;
    let today = at.with_timezone(&tz).date_naive();
    let start = local_midnight(tz, today);
    let people = app.store.people(cal.org).await?;
    let mut stats: BTreeMap<UserId, DayStats> = people
        .iter()
        .map(|p| (p.profile.id, DayStats::default()))
        .collect();
    for (u, n) in app.store.message_counts(cal.org, start, at).await? {
        if let Some(s) = stats.get_mut(&u) {
            s.messages = n;
        }
    }
    for h in histories_since(app, cal.org, start, at).await? {
        let c = h.current().clone();
        let Some(s) = stats.get_mut(&c.owner) else {
            continue;
        };
        if h.origin().created_at >= start && h.origin().created_at <= at {
            s.made.push(c.clone());
        }
        if h.done_at().is_some_and(|t| t >= start && t <= at) {
            s.done.push(c.clone());
        }
        if h.moves().iter().any(|t| *t >= start && *t <= at) {
            s.moved.push(c.clone());
        }
        if c.state == CommitmentState::Open {
            if c.due.is_some_and(|d| d.date < today) {
                s.overdue.push(c.clone());
            }
            if h.moves().len() >= 2 {
                s.moved_twice.push(c.clone());
            }
            s.open.push(c);
        }
    }
    // Silent for how many working days before today (today included when nothing was written).
    for p in people.iter() {
        let last = app.store.last_message_at(cal.org, p.profile.id).await?;
        let last_day = last.map(|t| t.with_timezone(&tz).date_naive());
        let mut d = today;
        let mut n = 0;
        for _ in 0..14 {
            if last_day.is_some_and(|l| l >= d) {
                break;
            }
            if cal.is_working_day(d) {
                n += 1;
            }
            d = d.pred_opt().unwrap_or(d);
        }
        if let Some(s) = stats.get_mut(&p.profile.id) {
            s.silent_days = n;
        }
    }
    Ok((people, stats))
}

/// The reflection job (rules path): one row per person active today.
pub async fn reflect(
    app: &App,
    cal: &OrgCalendar,
    at: DateTime<Utc>,
) -> Result<usize, DigestError> {
    let org = app.store.org(cal.org).await?;
    let lang = org.locale;
    let day = at.with_timezone(&cal.tz).date_naive();
    let (people, stats) = day_stats(app, cal, at).await?;
    let mut n = 0;
    let mut model_ok = true;
    for (user, s) in stats {
        let active =
            s.messages > 0 || !s.made.is_empty() || !s.done.is_empty() || !s.moved.is_empty();
        if !active {
            continue;
        }
        let t = |k: &str, v: usize| app.i18n.t(lang, k, &[("n", (v as i64).into())]);
        let summary = [
            t("stat-messages", s.messages as usize),
            t("stat-made", s.made.len()),
            t("stat-done", s.done.len()),
            t("stat-moved", s.moved.len()),
            t("stat-overdue", s.overdue.len()),
        ]
        .join(", ");
        let mut risks: Vec<String> = s
            .overdue
            .iter()
            .map(|c| {
                app.i18n
                    .t(lang, "risk-overdue", &[("what", c.content.clone().into())])
            })
            .collect();
        risks.extend(s.moved_twice.iter().map(|c| {
            app.i18n
                .t(lang, "risk-moved", &[("what", c.content.clone().into())])
        }));
        let rules = Reflection {
            user_id: user,
            day: day.to_string(),
            summary,
            highlights: s.done.iter().map(|c| c.content.clone()).collect(),
            commitments: s.made.iter().map(|c| c.content.clone()).collect(),
            risks,
            observations: Vec::new(),
        };
        // With a model, its reflection; the rules' one when it fails or there is none.
        let person = people.iter().find(|p| p.profile.id == user);
        // One failure and the rest of the run goes by rules: a hanging model would otherwise
        // hold the scheduler for its whole timeout once per person.
        let by_model = match (&app.llm, person) {
            (Some(llm), Some(p))
                if model_ok && !app.store.has_reflection(user, &rules.day).await? =>
            {
                let r = reflection::by_model(app, llm, cal, &people, p, &s, at).await?;
                model_ok = r.is_some();
                r
            }
            _ => None,
        };
        let from_model = by_model.is_some();
        let r = by_model.unwrap_or(rules);
        if app.store.insert_reflection(cal.org, &r, at).await? {
            n += 1;
            if from_model {
                reflection::keep_commitments(app, cal, &r, &s, at).await?;
            }
        }
    }
    Ok(n)
}

fn link_name(p: &Person) -> String {
    format!(
        "<a href=\"tg://user?id={}\">{}</a>",
        p.profile.id,
        esc(&p.profile.full_name())
    )
}

fn item(app: &App, lang: Lang, c: &Commitment) -> String {
    match c.due {
        Some(d) => format!("{} ({})", esc(&c.content), format::due(&app.i18n, lang, d)),
        None => esc(&c.content),
    }
}

/// Who a summary recipient covers: a director everyone, a lead their reports.
async fn covered(
    app: &App,
    org: OrgId,
    recipient: &Person,
    people: &[Person],
) -> Result<Vec<UserId>, StoreError> {
    Ok(match recipient.member.role {
        Role::Director => people.iter().map(|p| p.profile.id).collect(),
        Role::Lead => app.store.reports_of(org, recipient.profile.id).await?,
        Role::Member => Vec::new(),
    })
}

/// The daily summary text for one recipient.
pub async fn daily_text(
    app: &App,
    cal: &OrgCalendar,
    at: DateTime<Utc>,
    recipient: &Person,
) -> Result<String, DigestError> {
    let day = day_stats(app, cal, at).await?;
    daily_text_of(app, cal, at, recipient, &day).await
}

/// The daily summary text for one recipient, from the day's figures (read once for all the
/// run's recipients).
async fn daily_text_of(
    app: &App,
    cal: &OrgCalendar,
    at: DateTime<Utc>,
    recipient: &Person,
    (people, stats): &Day,
) -> Result<String, DigestError> {
    let org = app.store.org(cal.org).await?;
    let lang = app.lang_for(Some(&recipient.profile), Some(&org));
    let cover = covered(app, cal.org, recipient, people).await?;
    let today = at.with_timezone(&cal.tz).date_naive();
    let mut text = app.i18n.t(
        lang,
        "summary-header",
        &[("date", format::date(&app.i18n, lang, today).into())],
    );
    let mut silent = Vec::new();
    let mut risks = Vec::new();
    let mut away_lines = Vec::new();
    let away = app
        .store
        .absences_between(cal.org, today, today + Duration::days(366))
        .await?;
    for p in people.iter().filter(|p| cover.contains(&p.profile.id)) {
        let Some(s) = stats.get(&p.profile.id) else {
            continue;
        };
        let away_now = crate::store::away_on(&away, p.profile.id, today);
        if let Some(a) = away_now {
            // Away: not silent; their promises due while away are named.
            let due_while: Vec<String> = s
                .open
                .iter()
                .filter(|c| c.due.is_some_and(|d| d.date <= a.to))
                .map(|c| item(app, lang, c))
                .collect();
            let mut line = app.i18n.t(
                lang,
                "summary-away",
                &[
                    ("name", esc(&p.profile.first_name).into()),
                    ("date", format::date(&app.i18n, lang, a.to).into()),
                ],
            );
            if !due_while.is_empty() {
                line.push_str(&format!(
                    " {} {}",
                    app.i18n.s(lang, "summary-away-due"),
                    due_while.join("; ")
                ));
            }
            away_lines.push(line);
        }
        let quiet = s.messages == 0 && s.made.is_empty() && s.done.is_empty() && s.moved.is_empty();
        if quiet && p.profile.id != recipient.profile.id && away_now.is_none() {
            silent.push(esc(&p.profile.first_name));
        }
        if s.made.is_empty() && s.done.is_empty() && s.moved.is_empty() && s.open.is_empty() {
            continue;
        }
        text.push_str(&format!("\n\n<b>{}</b>", link_name(p)));
        let mut section = |key: &str, list: &[Commitment]| {
            if !list.is_empty() {
                let items: Vec<String> = list.iter().map(|c| item(app, lang, c)).collect();
                text.push_str(&format!("\n{} {}", app.i18n.s(lang, key), items.join("; ")));
            }
        };
        section("summary-new", &s.made);
        section("summary-done", &s.done);
        section("summary-moved", &s.moved);
        section("summary-overdue", &s.overdue);
        let in_work: Vec<Commitment> = s
            .open
            .iter()
            .filter(|c| !s.made.contains(c) && !s.moved.contains(c) && !s.overdue.contains(c))
            .take(3)
            .cloned()
            .collect();
        section("summary-in-work", &in_work);
        for c in &s.moved_twice {
            risks.push(app.i18n.t(
                lang,
                "risk-moved",
                &[(
                    "what",
                    format!("{} — {}", esc(&c.content), esc(&p.profile.first_name)).into(),
                )],
            ));
        }
        if s.silent_days >= 2 && away_now.is_none() {
            risks.push(app.i18n.t(
                lang,
                "risk-silent",
                &[
                    ("name", esc(&p.profile.first_name).into()),
                    ("n", s.silent_days.into()),
                ],
            ));
        }
    }
    if !away_lines.is_empty() {
        text.push_str(&format!("\n\n{}", away_lines.join("\n")));
    }
    // Goal steps finished today by the people the recipient sees.
    let steps: Vec<String> = app
        .store
        .steps_done_between(
            cal.org,
            local_midnight(cal.tz, today),
            at + Duration::seconds(1),
        )
        .await?
        .into_iter()
        .filter(|(_, s)| s.assignee.is_some_and(|a| cover.contains(&a)))
        .map(|(g, s)| {
            let who = s
                .assignee
                .and_then(|a| people.iter().find(|p| p.profile.id == a))
                .map(|p| esc(&p.profile.first_name))
                .unwrap_or_default();
            format!("• {} ({}) — {who}", esc(&s.title), esc(&g.title))
        })
        .collect();
    if !steps.is_empty() {
        text.push_str(&format!(
            "\n\n<b>{}</b>\n{}",
            app.i18n.s(lang, "summary-steps"),
            steps.join("\n")
        ));
    }
    if !silent.is_empty() {
        text.push_str(&format!(
            "\n\n{} {}",
            app.i18n.s(lang, "summary-silent"),
            silent.join(", ")
        ));
    }
    if !risks.is_empty() {
        text.push_str(&format!(
            "\n\n<b>{}</b>\n• {}",
            app.i18n.s(lang, "summary-risks"),
            risks.join("\n• ")
        ));
    }
    Ok(text)
}

/// Recipients of summaries: the directors (everyone) and each lead (their reports).
pub fn summary_recipients(people: &[Person]) -> Vec<&Person> {
    people
        .iter()
        .filter(|p| {
            matches!(
                p.member.role,
                crate::domain::Role::Director | crate::domain::Role::Lead
            )
        })
        .collect()
}

pub async fn daily_deliveries(
    app: &App,
    cal: &OrgCalendar,
    slot: Option<u32>,
    at: DateTime<Utc>,
) -> Result<Vec<NewDelivery>, DigestError> {
    let people = app.store.people(cal.org).await?;
    let hour = chrono::Timelike::hour(&at.with_timezone(&cal.tz));
    let mut out = Vec::new();
    // The figures of the day each summary tells, read once per run.
    let mut days: Vec<(DateTime<Utc>, Day)> = Vec::new();
    for r in summary_recipients(&people) {
        if !r.profile.dm_open {
            continue;
        }
        // `/digest`: off, weekly only, or at an hour of one's own (this run or the org's).
        let prefs = app.store.digest_prefs(cal.org, r.profile.id).await?;
        // The org's own run also serves an hour that falls exactly on it (then no run of its
        // own was added for that hour); a chosen hour is otherwise served by its own run only.
        let on_the_hour = chrono::Timelike::minute(&at.with_timezone(&cal.tz)) == 0;
        let now_for_them = match slot {
            Some(h) => prefs.hour == Some(h),
            None => prefs.hour.is_none() || (on_the_hour && prefs.hour == Some(hour)),
        };
        if !prefs.daily || !now_for_them {
            continue;
        }
        // A morning summary tells the previous working day: this morning has barely begun.
        let of = match slot {
            Some(h) if h < crate::domain::MORNING_BEFORE => {
                let today = at.with_timezone(&cal.tz).date_naive();
                let day = cal.previous_working_day(today);
                local_midnight(cal.tz, day + Duration::days(1)) - Duration::seconds(1)
            }
            _ => at,
        };
        let day = match days.iter().position(|(t, _)| *t == of) {
            Some(k) => &days[k].1,
            None => {
                days.push((of, day_stats(app, cal, of).await?));
                &days[days.len() - 1].1
            }
        };
        let text = daily_text_of(app, cal, of, r, day).await?;
        // Nothing about anyone: a header over nothing is not sent (a lead with no reports,
        // a day nobody the recipient sees did or owed anything).
        if !text.contains("\n") {
            continue;
        }
        out.push(NewDelivery {
            chat_id: ChatId(r.profile.id.0),
            to_user: Some(r.profile.id),
            text,
            ..Default::default()
        });
    }
    Ok(out)
}

/// The week's numbers.
#[derive(Debug, Clone, Default)]
pub struct PersonWeek {
    pub made: usize,
    pub done: usize,
    pub on_time: usize,
    pub moved: usize,
    pub cancelled: usize,
    pub overdue: usize,
}

/// Who a weekly digest is for: a person (what they oversee, everything they may see) or a
/// linked group (everyone, team items only).
#[derive(Debug, Clone, Copy)]
pub enum Audience<'a> {
    Person(&'a Person),
    Group,
}

/// The weekly digest for one recipient: the text and the chart.
pub async fn weekly(
    app: &App,
    cal: &OrgCalendar,
    at: DateTime<Utc>,
    recipient: &Person,
) -> Result<(String, chart::WeekChart), DigestError> {
    weekly_for(app, cal, at, Audience::Person(recipient)).await
}

/// The weekly digest for an audience.
pub async fn weekly_for(
    app: &App,
    cal: &OrgCalendar,
    at: DateTime<Utc>,
    audience: Audience<'_>,
) -> Result<(String, chart::WeekChart), DigestError> {
    let org = app.store.org(cal.org).await?;
    let lang = match audience {
        Audience::Person(r) => app.lang_for(Some(&r.profile), Some(&org)),
        Audience::Group => org.locale,
    };
    let tz = cal.tz;
    let today = at.with_timezone(&tz).date_naive();
    let monday = today - Duration::days(today.weekday().num_days_from_monday() as i64);
    let start = local_midnight(tz, monday);
    let people = app.store.people(cal.org).await?;
    let (cover, team_only) = match audience {
        Audience::Person(r) => (covered(app, cal.org, r, &people).await?, false),
        Audience::Group => (people.iter().map(|p| p.profile.id).collect(), true),
    };
    let hist: Vec<History> = histories_since(app, cal.org, start, at)
        .await?
        .into_iter()
        .filter(|h| !team_only || h.current().visibility == crate::domain::Visibility::Team)
        .collect();
    let mut per: BTreeMap<UserId, PersonWeek> = BTreeMap::new();
    let mut opened_by_day = [0u32; 7];
    let mut done_by_day = [0u32; 7];
    let mut on_time_by_day = [0u32; 7];
    let mut overdue_list = Vec::new();
    let mut open_list = Vec::new();
    let mut most_moved: Vec<(usize, Commitment)> = Vec::new();
    let (mut done_total, mut on_time_total) = (0usize, 0usize);
    for h in hist.iter().filter(|h| cover.contains(&h.current().owner)) {
        let c = h.current();
        let w = per.entry(c.owner).or_default();
        let made_at = h.origin().created_at;
        if made_at >= start && made_at <= at {
            w.made += 1;
            let d = made_at.with_timezone(&tz).weekday().num_days_from_monday() as usize;
            opened_by_day[d] += 1;
        }
        if let Some(t) = h.done_at().filter(|t| *t >= start && *t <= at) {
            w.done += 1;
            done_total += 1;
            let local = t.with_timezone(&tz).date_naive();
            let d = local.weekday().num_days_from_monday() as usize;
            done_by_day[d] += 1;
            if c.due.is_none_or(|due| local <= due.date) {
                w.on_time += 1;
                on_time_total += 1;
                on_time_by_day[d] += 1;
            }
        }
        if c.state == CommitmentState::Cancelled && c.valid_from >= start && c.valid_from <= at {
            w.cancelled += 1;
        }
        let moves = h.moves();
        let moved_this_week = moves.iter().filter(|t| **t >= start && **t <= at).count();
        if moved_this_week > 0 {
            w.moved += 1;
        }
        if c.state == CommitmentState::Open {
            if c.due.is_some_and(|d| d.date < today) {
                w.overdue += 1;
                overdue_list.push(c.clone());
            } else {
                open_list.push(c.clone());
            }
            if !moves.is_empty() {
                most_moved.push((moves.len(), c.clone()));
            }
        }
    }
    let name = |u: UserId| format::name_of(&people, u);
    let mut text = app.i18n.t(
        lang,
        "weekly-header",
        &[
            ("from", format::date(&app.i18n, lang, monday).into()),
            ("to", format::date(&app.i18n, lang, today).into()),
        ],
    );
    // Overdue open promises count against the rate: they are late whether or not done.
    let judged = done_total + overdue_list.len();
    let rate = if judged > 0 {
        Some(on_time_total as f64 / judged as f64)
    } else {
        None
    };
    text.push('\n');
    text.push_str(&match rate {
        Some(r) => app.i18n.t(
            lang,
            "weekly-on-time",
            &[("pct", ((r * 100.0).round() as i64).into())],
        ),
        None => app.i18n.s(lang, "weekly-on-time-none"),
    });
    text.push_str(&format!("\n\n<b>{}</b>", app.i18n.s(lang, "weekly-people")));
    for (u, w) in &per {
        if w.made + w.done + w.moved + w.cancelled + w.overdue == 0 {
            continue;
        }
        text.push_str(&format!(
            "\n• {} — {}",
            esc(&name(*u)),
            app.i18n.t(
                lang,
                "weekly-person",
                &[
                    ("made", (w.made as i64).into()),
                    ("done", (w.done as i64).into()),
                    ("ontime", (w.on_time as i64).into()),
                    ("moved", (w.moved as i64).into()),
                    ("cancelled", (w.cancelled as i64).into()),
                    ("overdue", (w.overdue as i64).into()),
                ]
            )
        ));
    }
    // Per goal: its steps done of all, this week's, who moved it and who stalls.
    // Goals are not team items: a group's digest leaves them out.
    let mut goal_lines = Vec::new();
    let goals = if team_only {
        Vec::new()
    } else {
        app.store.goals(cal.org).await?
    };
    for g in goals {
        let steps = app.store.goal_steps(g.id).await?;
        let involved = g.owner.is_some_and(|o| cover.contains(&o))
            || steps
                .iter()
                .filter_map(|s| s.assignee)
                .any(|a| cover.contains(&a));
        let finished_before = g.status == "done"
            && steps
                .iter()
                .filter_map(|s| s.done_at)
                .max()
                .is_some_and(|t| t < start);
        if !involved || finished_before {
            continue;
        }
        let p = crate::answer::goals::progress(&g, &steps, start, at, tz);
        goal_lines.push(format!(
            "\n• {}\n  {}",
            crate::answer::goals::heading(app, lang, &people, &g),
            crate::answer::goals::goal_progress_line(app, lang, &people, &g, &p)
        ));
    }
    if !goal_lines.is_empty() {
        text.push_str(&format!("\n\n<b>{}</b>", app.i18n.s(lang, "weekly-goals")));
        for l in goal_lines.iter().take(10) {
            text.push_str(l);
        }
    }
    if !overdue_list.is_empty() {
        text.push_str(&format!(
            "\n\n<b>{}</b>",
            app.i18n.s(lang, "weekly-overdue")
        ));
        for c in &overdue_list {
            text.push_str(&format!(
                "\n• {} — {}",
                item(app, lang, c),
                esc(&name(c.owner))
            ));
        }
    }
    if !open_list.is_empty() {
        text.push_str(&format!("\n\n<b>{}</b>", app.i18n.s(lang, "weekly-open")));
        for c in open_list.iter().take(15) {
            text.push_str(&format!(
                "\n• {} — {}",
                item(app, lang, c),
                esc(&name(c.owner))
            ));
        }
    }
    most_moved.sort_by_key(|m| std::cmp::Reverse(m.0));
    if !most_moved.is_empty() {
        text.push_str(&format!(
            "\n\n<b>{}</b>",
            app.i18n.s(lang, "weekly-most-moved")
        ));
        for (n, c) in most_moved.iter().take(3) {
            text.push_str(&format!(
                "\n• {} — {} ({})",
                esc(&c.content),
                esc(&name(c.owner)),
                app.i18n.t(lang, "times", &[("n", (*n as i64).into())])
            ));
        }
    }
    let days = (0..5)
        .map(|i| chart::DayBar {
            label: app.i18n.s(lang, &format!("weekday-short-{}", i + 1)),
            opened: opened_by_day[i],
            done: done_by_day[i],
        })
        .collect();
    let on_time_rate = (0..5)
        .map(|i| (done_by_day[i] > 0).then(|| on_time_by_day[i] as f64 / done_by_day[i] as f64))
        .collect();
    let ch = chart::WeekChart {
        title: app.i18n.t(
            lang,
            "chart-title",
            &[
                ("from", format::date(&app.i18n, lang, monday).into()),
                ("to", format::date(&app.i18n, lang, today).into()),
            ],
        ),
        opened_label: app.i18n.s(lang, "chart-opened"),
        done_label: app.i18n.s(lang, "chart-done"),
        on_time_label: app.i18n.s(lang, "chart-on-time"),
        days,
        on_time_rate,
    };
    Ok((text, ch))
}

pub async fn weekly_deliveries(
    app: &App,
    cal: &OrgCalendar,
    at: DateTime<Utc>,
) -> Result<Vec<NewDelivery>, DigestError> {
    let people = app.store.people(cal.org).await?;
    let org = app.store.org(cal.org).await?;
    let mut out = Vec::new();
    for r in summary_recipients(&people) {
        if !r.profile.dm_open {
            continue;
        }
        if covered(app, cal.org, r, &people).await?.is_empty() {
            // A lead with no reports has no week to sum up.
            continue;
        }
        if !app.store.digest_prefs(cal.org, r.profile.id).await?.weekly {
            continue;
        }
        let lang = app.lang_for(Some(&r.profile), Some(&org));
        let (text, ch) = weekly(app, cal, at, r).await?;
        let chat = ChatId(r.profile.id.0);
        match chart::render_png(&ch) {
            Ok(png) => out.push(NewDelivery {
                chat_id: chat,
                to_user: Some(r.profile.id),
                photo: Some(png),
                text: ch.title.clone() + "\n" + &app.i18n.s(lang, "chart-caption"),
                ..Default::default()
            }),
            Err(e) => {
                tracing::warn!(error = %e, "weekly chart not rendered; sending the text alone")
            }
        }
        out.push(NewDelivery {
            chat_id: chat,
            to_user: Some(r.profile.id),
            text,
            ..Default::default()
        });
    }
    // Linked groups a director turned the weekly digest on for: team items only, no chart.
    let groups = app.store.digest_groups(cal.org).await?;
    if !groups.is_empty() {
        let (text, _) = weekly_for(app, cal, at, Audience::Group).await?;
        for chat in groups {
            out.push(NewDelivery {
                chat_id: chat,
                to_user: None,
                text: text.clone(),
                ..Default::default()
            });
        }
    }
    Ok(out)
}
