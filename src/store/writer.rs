//! The connection that writes what messages say (store/batch.rs), on the calling thread.
//!
//! Through sqlx every statement of a write is a hand-off to the connection's worker thread and
//! back, and on a two-core machine that hand-off costs more than SQLite's own work: the live
//! path wrote each message in four of them (`BEGIN IMMEDIATE`, a read, the inserts, `COMMIT`).
//! This is a plain `rusqlite` connection with its statements prepared once. One task at a time
//! holds it (an async lock), so a batch may stay open across the awaits of the code that fills
//! it; SQLite allows one writer anyway.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use rusqlite::{Connection, ErrorCode, OpenFlags};
use tokio::sync::{Mutex, OwnedMutexGuard};

use super::Result;
use super::checkpointer::{self, Commits};

/// How long a statement inside a write transaction may wait for readers (a commit in a
/// rollback journal, a checkpoint), as the sqlx connections wait.
const BUSY: Duration = Duration::from_secs(5);

/// How many times `BEGIN IMMEDIATE` is tried while another connection writes, with waits that
/// double from 1 ms up to 50 ms between tries: about ten seconds in all.
const BEGIN_TRIES: u32 = 200;

/// Pages of write-ahead log past which a commit checkpoints by itself (64 MiB of 4 KiB pages).
pub(super) const BACKSTOP: i64 = 16_384;

#[derive(Debug)]
pub(super) struct Writer {
    conn: Arc<Mutex<Connection>>,
    /// Counted for the checkpointing thread (store/checkpointer.rs), which lives as long.
    commits: Arc<Commits>,
}

impl Writer {
    /// Opens the writing connection on a database that the sqlx pool has created and migrated.
    /// `durable: false` is for throwaway databases (replay, demo, tests): no sync to disk.
    pub(super) fn open(path: &Path, durable: bool) -> Result<Writer> {
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(BUSY)?;
        conn.pragma_update(None, "foreign_keys", true)?;
        conn.pragma_update(None, "synchronous", if durable { "NORMAL" } else { "OFF" })?;
        // A small cache (every commit walks it) and checkpoints less often than by default:
        // what `benches/ingest.rs` measured best for batched writes.
        conn.pragma_update(None, "cache_size", -4096)?;
        // The checkpointing thread keeps the log short; this is the mark past which a commit
        // checkpoints by itself, should that thread fall behind a long burst of writes.
        conn.pragma_update(None, "wal_autocheckpoint", BACKSTOP)?;
        conn.pragma_update(None, "mmap_size", 268_435_456)?;
        // A statement that may fail halfway keeps a journal of its own to undo just itself: in
        // memory, not a temporary file written page by page.
        conn.pragma_update(None, "temp_store", "MEMORY")?;
        // Its own statements and, while it is idle, those of the reads (store/read.rs).
        conn.set_prepared_statement_cache_capacity(192);
        let commits = Arc::new(Commits::default());
        if let Err(e) = checkpointer::start(path, durable, &commits) {
            // The commits' own checkpoints past the backstop still bound the log.
            tracing::warn!(error = %e, "cannot start the checkpointing thread");
        }
        Ok(Writer {
            conn: Arc::new(Mutex::new(conn)),
            commits,
        })
    }

    /// Takes the connection and SQLite's write lock (`BEGIN IMMEDIATE`). Another connection's
    /// write is waited out here by sleeping between tries, not by blocking the thread: that
    /// writer may be a task that needs this very thread to finish.
    pub(super) async fn begin(&self) -> Result<WriteTx> {
        let conn = self.conn.clone().lock_owned().await;
        if !conn.is_autocommit() {
            // A batch dropped while its rollback failed left its transaction open.
            conn.execute_batch("ROLLBACK")?;
        }
        let mut wait = Duration::from_millis(1);
        for _ in 1..BEGIN_TRIES {
            conn.busy_timeout(Duration::ZERO)?;
            let begun = conn.execute_batch("BEGIN IMMEDIATE");
            conn.busy_timeout(BUSY)?;
            match begun {
                Ok(()) => return Ok(self.tx(conn)),
                Err(e) if e.sqlite_error_code() == Some(ErrorCode::DatabaseBusy) => {
                    tokio::time::sleep(wait).await;
                    wait = (wait * 2).min(Duration::from_millis(50));
                }
                Err(e) => return Err(e.into()),
            }
        }
        conn.execute_batch("BEGIN IMMEDIATE")?;
        Ok(self.tx(conn))
    }

    fn tx(&self, conn: OwnedMutexGuard<Connection>) -> WriteTx {
        WriteTx {
            conn,
            open: true,
            commits: self.commits.clone(),
        }
    }

    /// The connection, when no task holds it and no transaction is open on it: a read here sees
    /// what is committed, as on a reader, and finds the pages of the last writes still in this
    /// connection's cache. A reader's cache is emptied by every commit of another connection,
    /// so after each message written it read its pages again (store/read.rs).
    pub(super) fn idle(&self) -> Option<tokio::sync::MutexGuard<'_, Connection>> {
        self.conn.try_lock().ok().filter(|c| c.is_autocommit())
    }

    /// Runs `f` on the connection outside any transaction (a repair at start).
    pub(super) async fn with<T>(&self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        let conn = self.conn.lock().await;
        f(&conn)
    }

    /// Runs the checkpoint `f` on the connection, after the checkpointing thread's own.
    pub(super) async fn checkpoint<T>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T>,
    ) -> Result<T> {
        let conn = self.conn.lock().await;
        self.commits.exclusive(|| f(&conn))
    }
}

/// An open write transaction on the writer. Dropped without [`WriteTx::commit`], it rolls back.
pub(super) struct WriteTx {
    conn: OwnedMutexGuard<Connection>,
    open: bool,
    commits: Arc<Commits>,
}

impl WriteTx {
    pub(super) fn conn(&self) -> &Connection {
        &self.conn
    }

    pub(super) fn commit(mut self) -> Result<()> {
        self.conn.execute_batch("COMMIT")?;
        self.open = false;
        self.commits.count();
        Ok(())
    }
}

impl Drop for WriteTx {
    fn drop(&mut self) {
        if self.open {
            // Nothing to report to: the caller is gone (an error, a cancelled task). Should this
            // fail, the next `begin` rolls back before it starts.
            if let Err(e) = self.conn.execute_batch("ROLLBACK") {
                tracing::warn!(error = %e, "rolling back a write batch failed");
            }
        }
    }
}
