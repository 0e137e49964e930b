//! Every SQL statement of kept: SQLite in WAL mode, foreign keys on, migrations at start.
//!
//! One file per table group. Timestamps are stored as UTC unix seconds, due dates as local text.

mod absences;
mod batch;
mod chats;
mod checkpointer;
mod context;
mod goals;
mod graph;
mod llm;
mod memories;
mod messages;
mod ops;
mod people;
mod prefs;
mod read;
mod schedule;
mod writer;

use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use sqlx::SqlitePool;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};

pub use absences::{Away, away_on};
pub use batch::{Batch, OpenTask};
pub use chats::Chat;
pub use context::ContextRows;
pub use goals::{Goal, GoalStep, NewGoal};
pub use graph::{AssignedTask, NewNode, Node, OwnerProposal, Task};
pub use llm::{LlmUsage, MemoryHit, MessageHit, RefineItem, SearchAccess};
pub use memories::{Commitment, CommitmentChange, Memory, NewCommitment, NewMemory, Scope};
pub use messages::{NewMessage, Stored, StoredMessage};
pub use ops::{OrgStatus, QueueStatus};
pub use people::{Member, Org, People, Person, UserProfile};
pub use prefs::DigestPrefs;
pub use schedule::{Delivery, NewDelivery, Reflection};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error")]
    Db(#[from] sqlx::Error),
    #[error("database read failed")]
    Read(#[from] rusqlite::Error),
    #[error("migration failed")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("stored value is corrupt: {0}")]
    Corrupt(String),
    #[error("not found: {0}")]
    NotFound(String),
    #[error("the write-ahead log could not be checkpointed: another connection is using it")]
    CheckpointBusy,
    #[error("cannot make a temporary database: {0}")]
    Temporary(String),
    #[error("cannot back up to {0}")]
    BackupTarget(String),
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// The database, shared by every part of kept.
#[derive(Debug, Clone)]
pub struct Store {
    pool: SqlitePool,
    /// One sqlx connection for the writes of answers, buttons and jobs: SQLite has one writer at
    /// a time anyway, and a connection that did the last write keeps its page cache warm.
    writer: SqlitePool,
    /// kept's own writing connection, on the calling thread, for what messages say (batches)
    /// and the writes that share their statements (store/writer.rs).
    batches: Arc<writer::Writer>,
    /// Connections of their own for the reads an answer waits on (store/read.rs).
    readers: Arc<read::Readers>,
    /// Contexts read before, good while nothing they show has changed (store/context.rs).
    context_cache: Arc<context::Cache>,
    open_model: Arc<context::OpenModel>,
    /// Each org's people as last read, good while no profile or membership has changed
    /// (store/people.rs).
    people_cache: Arc<people::Cache>,
    /// The directory of a [`Store::temporary`] database, removed with the last copy.
    _dir: Option<Arc<tempfile::TempDir>>,
}

fn options() -> SqliteConnectOptions {
    SqliteConnectOptions::new()
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .foreign_keys(true)
        .busy_timeout(Duration::from_secs(5))
        // Reads go through the OS page cache without a copy per page, and each connection keeps
        // 16 MiB of hot pages (the default 2 MiB made a context read ~2,000 preads; benches/context.rs).
        .pragma("mmap_size", "268435456")
        .pragma("cache_size", "-16384")
}

impl Store {
    /// Opens (creating if missing) the database file and runs migrations.
    pub async fn open(path: &Path) -> Result<Store> {
        Store::open_with(path, true, None).await
    }

    /// A private database that lives as long as the store (replay, the demo, tests): a file in
    /// a directory of its own under the system's temporary directory, removed when the last
    /// copy of the store is dropped, written without syncing to disk. It is a file, not
    /// SQLite's in-memory database, so that it behaves as the bot's own database does: WAL,
    /// readers that see only what is committed, a writer of kept's own beside sqlx's.
    pub async fn temporary() -> Result<Store> {
        let dir = tempfile::Builder::new()
            .prefix("kept-")
            .tempdir()
            .map_err(|e| StoreError::Temporary(e.to_string()))?;
        let path = dir.path().join("kept.db");
        Store::open_with(&path, false, Some(Arc::new(dir))).await
    }

    async fn open_with(
        path: &Path,
        durable: bool,
        dir: Option<Arc<tempfile::TempDir>>,
    ) -> Result<Store> {
        let sync = match durable {
            true => SqliteSynchronous::Normal,
            false => SqliteSynchronous::Off,
        };
        // Every connection leaves checkpoints to the thread that does them (store/checkpointer.rs)
        // up to the same mark: SQLite's default of 1,000 pages would have whichever connection
        // commits past it checkpoint in its caller's time.
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(
                options()
                    .filename(path)
                    .synchronous(sync)
                    .pragma("wal_autocheckpoint", writer::BACKSTOP.to_string()),
            )
            .await?;
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(
                options()
                    .filename(path)
                    .synchronous(sync)
                    .pragma("wal_autocheckpoint", writer::BACKSTOP.to_string())
                    .pragma("cache_size", "-4096"),
            )
            .await?;
        let batches = Arc::new(writer::Writer::open(path, durable)?);
        let store = Store {
            pool,
            writer,
            readers: Arc::new(read::Readers::file(path.to_path_buf(), batches.clone())),
            batches,
            context_cache: Arc::default(),
            open_model: Arc::default(),
            people_cache: Arc::default(),
            _dir: dir,
        };
        store.migrate().await?;
        let repaired = store.batches.with(messages::repair_search).await?;
        if repaired > 0 {
            tracing::info!(
                messages = repaired,
                "indexed for search what the index lacked"
            );
        }
        Ok(store)
    }

    /// Runs `write` in one transaction on kept's writer (store/writer.rs) and commits it: a
    /// statement through sqlx is a hand-off to its worker thread and back, which on two cores
    /// costs more than the write.
    pub(super) async fn write<T>(
        &self,
        write: impl FnOnce(&rusqlite::Connection) -> Result<T>,
    ) -> Result<T> {
        let tx = self.batches.begin().await?;
        let out = write(tx.conn())?;
        tx.commit()?;
        Ok(out)
    }

    pub async fn migrate(&self) -> Result<()> {
        sqlx::migrate!("./migrations").run(&self.pool).await?;
        Ok(())
    }

    /// Moves everything in the write-ahead log into the database file and empties the log, so
    /// the file alone is a complete copy (`kept replay --db`).
    pub async fn checkpoint(&self) -> Result<()> {
        // On kept's writer: it wrote the messages, and a checkpoint is a write.
        let busy: i64 = self
            .batches
            .checkpoint(|c| Ok(c.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get(0))?))
            .await?;
        // SQLite reports a reader in the way as busy = 1 instead of failing.
        if busy != 0 {
            return Err(StoreError::CheckpointBusy);
        }
        Ok(())
    }

    pub async fn close(&self) {
        self.writer.close().await;
        self.pool.close().await;
    }
}

pub(crate) fn ts(t: DateTime<Utc>) -> i64 {
    t.timestamp()
}

pub(crate) fn from_ts(s: i64) -> Result<DateTime<Utc>> {
    DateTime::from_timestamp(s, 0).ok_or_else(|| StoreError::Corrupt(format!("timestamp {s}")))
}

pub(crate) fn parse<T: FromStr>(s: &str) -> Result<T> {
    s.parse::<T>()
        .map_err(|_| StoreError::Corrupt(format!("value {s:?}")))
}

#[cfg(test)]
mod tests {
    /// The bundled SQLite is built with STAT4, and then a statement whose `LIMIT` is a bare
    /// parameter is planned again every time it is bound, which costs more than running it
    /// (a read of the outbox took ~100 µs instead of ~5). Limits are written `LIMIT +?`.
    #[test]
    fn no_statement_limits_by_a_bare_parameter() {
        let bare = ["LIMIT", " ?"].concat();
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/store");
        let mut read = 0;
        for entry in std::fs::read_dir(dir).expect("src/store") {
            let path = entry.expect("a file of src/store").path();
            let text = std::fs::read_to_string(&path).expect("readable source");
            assert!(
                !text.contains(&bare),
                "{} binds a bare LIMIT parameter",
                path.display()
            );
            read += 1;
        }
        assert!(read >= 16, "only {read} files in {dir}");
    }
}
