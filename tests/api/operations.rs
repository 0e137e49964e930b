//! Running the bot for real, in process: where the live scheduler starts on a fresh and on a
//! restarted database, the scheduler-tick and checkpoint queries, and what a director is told on
//! `/start` when Telegram's privacy mode hides group messages from the bot.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, TimeZone, Utc};
use kept::app::App;
use kept::bot::live::run_until;
use kept::clock::{DrivenClock, SharedClock};
use kept::config::{Secret, Settings};
use kept::domain::{JobKind, OrgId, Role, UserId};
use kept::sandbox::{self, Sandbox};
use kept::store::Store;
use serde_json::json;

fn msk(d: u32, h: u32, mi: u32) -> DateTime<Utc> {
    chrono_tz::Europe::Moscow
        .with_ymd_and_hms(2026, 11, d, h, mi, 0)
        .unwrap()
        .with_timezone(&Utc)
}

async fn app_for(sandbox: &Sandbox, clock: SharedClock, store: Store) -> Arc<App> {
    let mut settings = Settings {
        admins: vec![1],
        ..Default::default()
    };
    settings.telegram.api_url = Some(sandbox.url());
    settings.telegram.token = Some(Secret::new(sandbox::TOKEN));
    App::new(store, clock, settings).await.unwrap()
}

/// Log lines written while it is the thread's subscriber (current-thread runtime: every task
/// of the bot runs on the test's thread).
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    fn install(&self) -> tracing::subscriber::DefaultGuard {
        let me = self.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::INFO)
            .with_ansi(false)
            .with_writer(move || me.clone())
            .finish();
        tracing::subscriber::set_default(subscriber)
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

/// Monday's 16:00, 19:00 and 19:30 runs and Tuesday's 09:30 run, as `job_runs` names them.
const MISSED: [(JobKind, &str); 4] = [
    (JobKind::RemindersDayBefore, "2026-11-23"),
    (JobKind::Reflection, "2026-11-23"),
    (JobKind::DailySummary, "2026-11-23"),
    (JobKind::RemindersMorning, "2026-11-24"),
];

/// Starts the live bot on a new database at Tuesday 10:00 (after a scheduler tick at
/// `last_tick`, if any, as a database that was running has), waits for the scheduler's first
/// step (its tick is recorded), and returns the log and which of [`MISSED`] are in `job_runs`.
async fn first_scheduler_step(last_tick: Option<DateTime<Utc>>) -> (String, Vec<bool>) {
    let now = msk(24, 10, 0);
    let log = Captured::default();
    let _guard = log.install();
    let store = Store::temporary().await.unwrap();
    let clock: SharedClock = Arc::new(DrivenClock::new(now));
    let sandbox = Sandbox::start(clock.clone()).await.unwrap();
    let app = app_for(&sandbox, clock, store.clone()).await;
    let org = app.default_org;
    if let Some(t) = last_tick {
        store.set_scheduler_tick(org, t).await.unwrap();
    }
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let run = tokio::spawn(run_until(app.clone(), sandbox::TOKEN.into(), async {
        let _ = stop_rx.await;
    }));
    let mut stepped = false;
    for _ in 0..200 {
        if store.scheduler_tick(org).await.unwrap() == Some(now) {
            stepped = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut claimed = Vec::new();
    for (job, day) in MISSED {
        claimed.push(store.job_run_exists(job, org, day).await.unwrap());
    }
    let _ = stop_tx.send(());
    let stopped = tokio::time::timeout(Duration::from_secs(20), run).await;
    assert!(
        stepped,
        "the scheduler never recorded a step:\n{}",
        log.text()
    );
    assert!(matches!(stopped, Ok(Ok(Ok(())))), "{stopped:?}");
    (log.text(), claimed)
}

#[tokio::test(flavor = "current_thread")]
async fn a_brand_new_database_schedules_from_now_without_warnings() {
    // Tuesday 10:00: yesterday's 16:00, 19:00 and 19:30 runs and today's 09:30 came before the
    // database existed.
    let (log, claimed) = first_scheduler_step(None).await;
    assert!(!log.contains("missed run"), "{log}");
    assert!(!log.contains(" WARN "), "{log}");
    assert_eq!(claimed, [false; 4], "run or skipped on a fresh database");
}

#[tokio::test(flavor = "current_thread")]
async fn a_restarted_database_catches_up_on_missed_runs() {
    // The bot last ran on Monday at noon and comes back on Tuesday at 10:00.
    let (log, claimed) = first_scheduler_step(Some(msk(23, 12, 0))).await;
    assert_eq!(log.matches("missed run skipped").count(), 3, "{log}");
    assert_eq!(claimed, [true; 4]);
    // 30 minutes late: done, not skipped.
    assert!(
        log.lines()
            .any(|l| l.contains("job run") && l.contains("reminders_morning")),
        "{log}"
    );
}

#[tokio::test]
async fn the_scheduler_tick_falls_back_to_the_last_job_run_and_is_overwritten() {
    let store = Store::temporary().await.unwrap();
    let clock: SharedClock = Arc::new(DrivenClock::new(msk(23, 9, 0)));
    let app = App::new(store.clone(), clock, Settings::default())
        .await
        .unwrap();
    let org = app.default_org;
    assert_eq!(store.scheduler_tick(org).await.unwrap(), None);
    // A database from before ticks were kept: its latest claimed run stands in for the tick.
    store
        .claim_run(
            JobKind::RemindersMorning,
            org,
            "2026-11-23",
            msk(23, 9, 30),
            msk(23, 9, 31),
            &[],
        )
        .await
        .unwrap();
    assert_eq!(
        store.scheduler_tick(org).await.unwrap(),
        Some(msk(23, 9, 31))
    );
    store.set_scheduler_tick(org, msk(23, 9, 40)).await.unwrap();
    store.set_scheduler_tick(org, msk(23, 9, 45)).await.unwrap();
    assert_eq!(
        store.scheduler_tick(org).await.unwrap(),
        Some(msk(23, 9, 45))
    );
    // Another org has its own.
    assert_eq!(store.scheduler_tick(OrgId(org.0 + 1)).await.unwrap(), None);
    // In memory there is no WAL: the checkpoint has nothing to do and succeeds.
    store.checkpoint().await.unwrap();
}

#[tokio::test]
async fn a_checkpoint_empties_the_wal_of_a_file_database() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("k.db");
    let store = Store::open(&path).await.unwrap();
    store
        .upsert_user(UserId(5), "Анна", None, None, None, msk(23, 9, 0))
        .await
        .unwrap();
    let wal = dir.path().join("k.db-wal");
    assert!(std::fs::metadata(&wal).unwrap().len() > 0);
    store.checkpoint().await.unwrap();
    assert_eq!(std::fs::metadata(&wal).unwrap().len(), 0);
}

fn start_update(user: i64, name: &str, id: i64, at: DateTime<Utc>) -> serde_json::Value {
    json!({"message": {
        "message_id": id, "date": at.timestamp(),
        "chat": {"id": user, "type": "private", "first_name": name},
        "from": {"id": user, "is_bot": false, "first_name": name, "language_code": "ru"},
        "text": "/start", "entities": [{"type": "bot_command", "offset": 0, "length": 6}]
    }})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn start_tells_the_director_how_to_turn_privacy_mode_off() {
    let now = msk(23, 10, 0);
    let clock: SharedClock = Arc::new(DrivenClock::new(now));
    let sandbox = Sandbox::start(clock.clone()).await.unwrap();
    sandbox.set_privacy_mode(true);
    let store = Store::temporary().await.unwrap();
    let app = app_for(&sandbox, clock, store.clone()).await;
    // A member of the org, who cannot change the bot's settings.
    store
        .upsert_user(UserId(2), "Дмитрий", None, None, Some("ru"), now)
        .await
        .unwrap();
    store
        .set_member(app.default_org, UserId(2), Role::Member, None, None, now)
        .await
        .unwrap();
    sandbox.push_update(start_update(1, "Анна", 1, now));
    sandbox.push_update(start_update(2, "Дмитрий", 2, now));
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let run = tokio::spawn(run_until(app.clone(), sandbox::TOKEN.into(), async {
        let _ = stop_rx.await;
    }));
    let reply = |chat: i64| {
        sandbox
            .sent()
            .into_iter()
            .find(|s| s.chat == chat && s.reply_to.is_some())
    };
    for _ in 0..200 {
        if reply(1).is_some() && reply(2).is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let _ = stop_tx.send(());
    let _ = tokio::time::timeout(Duration::from_secs(20), run).await;
    let director = reply(1).expect("no reply to the director's /start").text;
    assert!(
        director.contains("режим приватности")
            && director.contains("@BotFather")
            && director.contains("/setprivacy")
            && director.contains("Disable")
            && director.contains("@kept_bot")
            && director.contains("администратор"),
        "{director}"
    );
    let member = reply(2).expect("no reply to the member's /start").text;
    assert!(member.contains("Здравствуйте"), "{member}");
    assert!(!member.contains("/setprivacy"), "{member}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn start_says_nothing_about_privacy_when_the_bot_reads_groups() {
    let now = msk(23, 10, 0);
    let clock: SharedClock = Arc::new(DrivenClock::new(now));
    let sandbox = Sandbox::start(clock.clone()).await.unwrap();
    let app = app_for(&sandbox, clock, Store::temporary().await.unwrap()).await;
    sandbox.push_update(start_update(1, "Анна", 1, now));
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let run = tokio::spawn(run_until(app.clone(), sandbox::TOKEN.into(), async {
        let _ = stop_rx.await;
    }));
    let reply = || {
        sandbox
            .sent()
            .into_iter()
            .find(|s| s.chat == 1 && s.reply_to.is_some())
    };
    for _ in 0..200 {
        if reply().is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let _ = stop_tx.send(());
    let _ = tokio::time::timeout(Duration::from_secs(20), run).await;
    let text = reply().expect("no reply to /start").text;
    assert!(text.contains("Здравствуйте, Анна"), "{text}");
    assert!(!text.contains("/setprivacy"), "{text}");
}
