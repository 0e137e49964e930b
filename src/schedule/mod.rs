//! The scheduler: per-org cron timetables on the org's timezone, working days, exactly-once runs.
//!
//! A job run is claimed in `job_runs` together with its queued `deliveries` (one transaction);
//! the [`sender`] then delivers queued items and marks them sent. A crash between the two leaves
//! the items queued, so a restart sends them once; a claimed run is never composed again.

pub mod jobs;
pub mod sender;

use std::sync::Arc;

use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};
use croner::Cron;

use crate::app::App;
use crate::config::ScheduleSettings;
use crate::domain::{JobKind, OrgCalendar, OrgId, parse_cron};
use crate::store::{Org, StoreError};

#[derive(Debug, thiserror::Error)]
pub enum ScheduleError {
    #[error("storage")]
    Store(#[from] StoreError),
    #[error("composing a message")]
    Compose(#[from] crate::digest::DigestError),
}

/// A run later than this after its time is skipped (with a log line) instead of done late.
pub const LATE_LIMIT_HOURS: i64 = 6;

/// How far back a restarted scheduler looks for runs it missed.
pub const CATCH_UP_HOURS: i64 = 24;

/// Days after an org's last activity when, with nothing open, no job has anything to say: the
/// daily summary of that day and the weekly digest of that week are behind.
pub const QUIET_AFTER_DAYS: i64 = 8;

/// Per-org overrides stored in `orgs.schedule` (JSON): cron expressions and holidays.
#[derive(Debug, Clone, Default, serde::Deserialize, serde::Serialize)]
#[serde(default)]
pub struct OrgOverrides {
    pub cron: Option<ScheduleSettings>,
    pub holidays: Vec<NaiveDate>,
}

/// A job's first run after some time, remembered: most clock steps (one per message in a
/// replay, one per tick live) end before a job's next run, and walking the cron to find that
/// out costs more than the step.
#[derive(Debug, Default)]
struct NextRun(std::sync::Mutex<Option<(DateTime<Utc>, DateTime<Utc>)>>);

impl NextRun {
    /// No run in `(from, to]`: known when a run was looked for from before `from` and the first
    /// one found is past `to`.
    fn none_in(&self, from: DateTime<Utc>, to: DateTime<Utc>) -> bool {
        let seen = *self.0.lock().unwrap_or_else(|e| e.into_inner());
        seen.is_some_and(|(after, next)| after <= from && from < next && to < next)
    }

    fn set(&self, after: DateTime<Utc>, next: DateTime<Utc>) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some((after, next));
    }
}

impl Clone for NextRun {
    fn clone(&self) -> Self {
        NextRun(std::sync::Mutex::new(
            *self.0.lock().unwrap_or_else(|e| e.into_inner()),
        ))
    }
}

/// One org's timetable.
#[derive(Debug, Clone)]
pub struct Timetable {
    /// The org, its timezone and days off: what digests and buttons need of the timetable.
    pub cal: OrgCalendar,
    jobs: Vec<(JobKind, Cron, NextRun)>,
    /// Local hours people chose for their daily summary (`/digest 18`): extra summary runs.
    summary_hours: Vec<u32>,
}

impl Timetable {
    /// The org's own times and days off when it has them, the settings' otherwise. Overrides
    /// that do not parse (cron expressions included) are left out with a warning: one org's
    /// bad row must not stop every org's reminders.
    pub fn new(org: &Org, defaults: &ScheduleSettings, holidays: &[NaiveDate]) -> Timetable {
        let over: OrgOverrides = match org.schedule.as_deref().map(serde_json::from_str) {
            None => OrgOverrides::default(),
            Some(Ok(o)) => o,
            Some(Err(e)) => {
                tracing::warn!(org = org.id.0, error = %e, "org schedule overrides ignored");
                OrgOverrides::default()
            }
        };
        let s = over.cron.as_ref().unwrap_or(defaults);
        let mut all_holidays = holidays.to_vec();
        all_holidays.extend(over.holidays);
        Timetable {
            cal: OrgCalendar {
                org: org.id,
                tz: org.timezone,
                holidays: all_holidays,
            },
            jobs: [
                (JobKind::RemindersMorning, &s.reminders_morning),
                (JobKind::RemindersDayBefore, &s.reminders_day_before),
                (JobKind::Reflection, &s.reflection),
                (JobKind::DailySummary, &s.daily_summary),
                (JobKind::WeeklyDigest, &s.weekly_digest),
            ]
            .map(|(job, spec)| (job, spec.cron().clone(), NextRun::default()))
            .to_vec(),
            summary_hours: Vec::new(),
        }
    }

    /// Adds a daily summary run at HH:00 on working days for each hour someone chose.
    pub fn with_summary_hours(mut self, hours: &[u32]) -> Timetable {
        for &h in hours.iter().filter(|h| **h < 24) {
            if let Ok(c) = parse_cron(&format!("0 {h} * * *")) {
                self.jobs
                    .push((JobKind::DailySummary, c, NextRun::default()));
                self.summary_hours.push(h);
            }
        }
        self
    }

    /// The chosen hour a daily summary run at `at` is for; `None` for the org's own run (which
    /// also serves anyone whose chosen hour it falls on).
    pub fn summary_slot(&self, at: DateTime<Utc>) -> Option<u32> {
        use chrono::Timelike;
        let local = at.with_timezone(&self.cal.tz);
        // The org's own summary cron is the first DailySummary entry; the chosen hours follow.
        let own = self
            .jobs
            .iter()
            .find(|(j, _, _)| *j == JobKind::DailySummary)
            .is_some_and(|(_, c, _)| c.is_time_matching(&local).unwrap_or(false));
        (!own && local.minute() == 0 && self.summary_hours.contains(&local.hour()))
            .then_some(local.hour())
    }

    /// Every job time in `(from, to]`, in time order. Holidays have no runs except the weekly digest.
    pub fn runs_between(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> Vec<(DateTime<Utc>, JobKind)> {
        let mut out = Vec::new();
        let start = from.with_timezone(&self.cal.tz);
        for (job, cron, memo) in &self.jobs {
            if memo.none_in(from, to) {
                continue;
            }
            let mut t = start;
            let mut first = true;
            // Bounded by `to`: the caller decides how long a window is worth walking.
            while let Ok(next) = cron.find_next_occurrence(&t, false) {
                let utc = next.with_timezone(&Utc);
                if next <= t {
                    break;
                }
                if first {
                    memo.set(from, utc);
                    first = false;
                }
                if utc > to {
                    break;
                }
                let day = next.date_naive();
                if *job == JobKind::WeeklyDigest || self.cal.is_working_day(day) {
                    out.push((utc, *job));
                }
                t = next;
            }
        }
        out.sort_by_key(|(t, j)| (*t, j.as_str()));
        out
    }

    /// The period a run at `at` is for: its local date (the week's Monday for the digest).
    pub fn period_key(&self, job: JobKind, at: DateTime<Utc>) -> String {
        let d = at.with_timezone(&self.cal.tz).date_naive();
        match job {
            JobKind::WeeklyDigest => {
                let monday = d - Duration::days(d.weekday().num_days_from_monday() as i64);
                format!("week-{monday}")
            }
            JobKind::DailySummary => match self.summary_slot(at) {
                Some(h) => format!("{d}@{h:02}"),
                None => d.to_string(),
            },
            _ => d.to_string(),
        }
    }
}

/// Drives jobs: the live loop and `kept replay` both call [`Scheduler::advance`].
pub struct Scheduler {
    pub app: Arc<App>,
    tables: Vec<Timetable>,
}

impl Scheduler {
    pub async fn new(app: Arc<App>) -> Result<Scheduler, ScheduleError> {
        let mut s = Scheduler {
            app,
            tables: Vec::new(),
        };
        s.reload().await?;
        Ok(s)
    }

    /// Re-reads the orgs (a replay adds its org after start).
    pub async fn reload(&mut self) -> Result<(), ScheduleError> {
        let mut tables = Vec::new();
        for id in self.app.store.orgs().await? {
            let org = self.app.store.org(id).await?;
            let hours = self.app.store.digest_hours(id).await?;
            tables.push(
                Timetable::new(
                    &org,
                    &self.app.settings.schedule,
                    &self.app.settings.org.holidays,
                )
                .with_summary_hours(&hours),
            );
        }
        self.tables = tables;
        Ok(())
    }

    pub fn timetable(&self, org: OrgId) -> Option<&Timetable> {
        self.tables.iter().find(|t| t.cal.org == org)
    }

    /// Runs every job due in `(from, to]` in time order. `set_clock` moves a driven clock to each
    /// run's time first (replay); live, it does nothing. Returns the runs that were claimed.
    pub async fn advance(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        set_clock: &(dyn Fn(DateTime<Utc>) + Send + Sync),
        outbox: &impl sender::Outbox,
    ) -> Result<usize, ScheduleError> {
        // Live, a run more than 6 hours late is skipped and recorded, but only over the week
        // before that: after a long downtime, or a clock set years ahead, older runs are
        // reported once instead of walked through one by one.
        let oldest = self.app.clock.now() - Duration::hours(LATE_LIMIT_HOURS) - Duration::days(7);
        let from = if from < oldest {
            tracing::warn!(%from, until = %oldest, "scheduled runs in this window skipped: more than a week late");
            oldest
        } else {
            from
        };
        let mut runs: Vec<(DateTime<Utc>, JobKind, &Timetable)> = Vec::new();
        for t in &self.tables {
            let mut end = to;
            if to - from > Duration::days(2) {
                // An org with nothing open and nothing said has nothing for any job once the
                // week of its last activity is over (see `jobs::compose`), however long the
                // clock jumps: the work is what there is to do, not the length of the gap.
                let (open, last) = self.app.store.org_activity(t.cal.org).await?;
                if open == 0 {
                    let quiet = last.map_or(from, |l| l + Duration::days(QUIET_AFTER_DAYS));
                    end = end.min(quiet.max(from));
                }
            }
            for (at, job) in t.runs_between(from, end) {
                runs.push((at, job, t));
            }
        }
        runs.sort_by_key(|(at, job, t)| (*at, t.cal.org, job.as_str()));
        let mut claimed = 0;
        for (at, job, table) in runs {
            set_clock(at);
            let now = self.app.clock.now();
            let key = table.period_key(job, at);
            if now - at > Duration::hours(LATE_LIMIT_HOURS) {
                if !self
                    .app
                    .store
                    .job_run_exists(job, table.cal.org, &key)
                    .await?
                {
                    tracing::warn!(org = %table.cal.org, job = job.as_str(), period = %key, "missed run skipped: more than 6 hours late");
                    self.app
                        .store
                        .claim_run(job, table.cal.org, &key, at, now, &[])
                        .await?;
                }
                continue;
            }
            if self
                .app
                .store
                .job_run_exists(job, table.cal.org, &key)
                .await?
            {
                continue;
            }
            let deliveries = jobs::compose(&self.app, table, job, at).await?;
            if self
                .app
                .store
                .claim_run(job, table.cal.org, &key, at, now, &deliveries)
                .await?
                .is_some()
            {
                claimed += 1;
                metrics::counter!("kept_job_runs_total", "job" => job.as_str()).increment(1);
                metrics::gauge!("kept_job_lateness_seconds", "job" => job.as_str())
                    .set((now - at).num_seconds().max(0) as f64);
                tracing::info!(org = %table.cal.org, job = job.as_str(), period = %key, n = deliveries.len(), "job run");
            }
            sender::deliver_queued(&self.app, outbox, false).await?;
        }
        Ok(claimed)
    }

    /// Where the live scheduler's first step starts (its window is `(resume_from, now]`).
    ///
    /// An org the scheduler has looked at before resumes from its last tick, so runs missed
    /// during downtime are done late or skipped and logged; but no further back than
    /// [`CATCH_UP_HOURS`], past which every run would be a skip anyway. An org it has never looked
    /// at (a brand-new database) starts from now: the runs before it existed were never missed.
    /// One window covers every org; with several orgs, a new one among old ones gets theirs.
    pub async fn resume_from(&self, now: DateTime<Utc>) -> Result<DateTime<Utc>, ScheduleError> {
        let floor = now - Duration::hours(CATCH_UP_HOURS);
        let mut from = now;
        for t in &self.tables {
            if let Some(tick) = self.app.store.scheduler_tick(t.cal.org).await? {
                if tick < floor {
                    tracing::warn!(org = %t.cal.org, last = %tick, "the scheduler was stopped for more than a day: runs before the last day are not looked at");
                }
                from = from.min(tick.max(floor));
            }
        }
        Ok(from)
    }

    /// Records that every org's timetable is handled up to `at` (after a successful step).
    pub async fn record_tick(&self, at: DateTime<Utc>) -> Result<(), ScheduleError> {
        for t in &self.tables {
            self.app.store.set_scheduler_tick(t.cal.org, at).await?;
        }
        Ok(())
    }
}
