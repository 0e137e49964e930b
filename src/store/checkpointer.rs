//! Copies the write-ahead log back into the database on a thread of its own, so that a message's
//! commit does not wait for it.
//!
//! SQLite checkpoints from inside the commit that finds the log long enough, and with
//! `synchronous = NORMAL` a checkpoint syncs the log and the database to disk: on the live path
//! (`benches/ingest.rs`, `file_wal_one_by_one`) those syncs were a quarter of the wall time of
//! storing a message, with the calling thread blocked on the disk. Here a thread wakes every
//! [`PERIOD`], and when anything was committed since it last looked it runs a `PASSIVE`
//! checkpoint: one that never waits for a reader or the writer and copies what it can. The
//! writer still checkpoints by itself past a high mark (store/writer.rs), should this thread fall
//! behind a long burst of writes — by then this thread has copied and synced nearly everything,
//! so that checkpoint is short.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

/// How often the thread looks at the commit count.
const PERIOD: Duration = Duration::from_millis(100);

/// Commits counted by the writer; the checkpointing thread lives while the count does.
#[derive(Debug, Default)]
pub(super) struct Commits {
    count: AtomicU64,
    /// Held by whoever checkpoints: a checkpoint asked for by hand (`Store::checkpoint`, before
    /// a backup) waits for this thread's instead of failing as busy.
    running: Mutex<()>,
}

impl Commits {
    pub(super) fn count(&self) {
        self.count.fetch_add(1, Ordering::Relaxed);
    }

    /// Runs `f` while no other checkpoint of this store runs.
    pub(super) fn exclusive<T>(&self, f: impl FnOnce() -> T) -> T {
        let _held = self.running.lock().unwrap_or_else(|e| e.into_inner());
        f()
    }
}

/// Starts the thread that checkpoints `path` while `commits` is alive (the store that owns it).
pub(super) fn start(path: &Path, durable: bool, commits: &Arc<Commits>) -> std::io::Result<()> {
    let path = path.to_path_buf();
    let commits = Arc::downgrade(commits);
    std::thread::Builder::new()
        .name("kept-checkpoint".into())
        .spawn(move || run(&path, durable, &commits))
        .map(|_| ())
}

fn run(path: &Path, durable: bool, commits: &Weak<Commits>) {
    let conn = match open(path, durable) {
        Ok(c) => c,
        Err(e) => {
            // The writer's own checkpoints still keep the log from growing without end.
            tracing::warn!(error = %e, "cannot open the checkpointing connection");
            return;
        }
    };
    let mut seen = 0;
    loop {
        std::thread::sleep(PERIOD);
        let Some(commits) = commits.upgrade() else {
            return;
        };
        let count = commits.count.load(Ordering::Relaxed);
        if count == seen {
            continue;
        }
        seen = count;
        // A busy result (a reader holds an old snapshot) leaves the rest for the next round.
        let done =
            commits.exclusive(|| conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())));
        match done {
            Ok(()) => {}
            // Another process checkpoints (`kept backup`, a second kept): its turn, not an error.
            Err(e) if e.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy) => {}
            Err(e) => tracing::warn!(error = %e, "checkpointing the write-ahead log failed"),
        }
    }
}

fn open(path: &Path, durable: bool) -> rusqlite::Result<Connection> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    // Closing the last connection checkpoints too: the store's own connections do that.
    conn.busy_timeout(Duration::ZERO)?;
    conn.pragma_update(None, "wal_autocheckpoint", 0)?;
    // A throwaway database (replay, demo, tests) is never synced, as its writer does not sync.
    conn.pragma_update(None, "synchronous", if durable { "NORMAL" } else { "OFF" })?;
    Ok(conn)
}
