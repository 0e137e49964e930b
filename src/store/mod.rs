//! Every SQL statement of kept: SQLite in WAL mode, foreign keys on, migrations at start.
//!
//! One file per table group. Timestamps are stored as UTC unix seconds, due dates as local text.

mod absences;
mod batch;
mod chats;
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
pub use people::{Member, Org, Person, UserProfile};
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
    #[error("cannot back up to {0}")]
    BackupTarget(String),
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// The database, shared by every part of kept.
#[derive(Debug, Clone)]
pub struct Store {
    pool: SqlitePool,
    /// One connection for batched writes: SQLite has one writer at a time anyway, and a
    /// connection that did the last write keeps its page cache warm, where any other pooled
    /// connection would start its transaction by re-reading every page it touches. Its cache is
    /// smaller than the readers' (every commit walks it) and its WAL checkpoints less often
    /// (`benches/ingest.rs` measured both).
    writer: SqlitePool,
    /// Connections of their own for the reads an answer waits on (store/read.rs).
    readers: Arc<read::Readers>,
    /// Contexts read before, good while nothing they show has changed (store/context.rs).
    context_cache: Arc<context::Cache>,
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
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options().filename(path))
            .await?;
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(
                options()
                    .filename(path)
                    .pragma("wal_autocheckpoint", "16384")
                    .pragma("cache_size", "-4096"),
            )
            .await?;
        let store = Store {
            pool,
            writer,
            readers: Arc::new(read::Readers::file(path.to_path_buf())),
            context_cache: Arc::default(),
        };
        store.migrate().await?;
        Ok(store)
    }

    /// A private in-memory database (replay, tests): one connection, so every query sees it.
    pub async fn in_memory() -> Result<Store> {
        // Named and in a shared cache, so that the read connections open the same database.
        let name = read::memory_name();
        let opts = SqliteConnectOptions::new()
            .filename(format!("file:{name}"))
            .in_memory(true)
            .shared_cache(true)
            .foreign_keys(true)
            .journal_mode(SqliteJournalMode::Memory);
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .min_connections(1)
            .idle_timeout(None)
            .max_lifetime(None)
            .connect_with(opts)
            .await?;
        let store = Store {
            writer: pool.clone(),
            pool,
            readers: Arc::new(read::Readers::memory(&name)),
            context_cache: Arc::default(),
        };
        store.migrate().await?;
        Ok(store)
    }

    pub async fn migrate(&self) -> Result<()> {
        sqlx::migrate!("./migrations").run(&self.pool).await?;
        Ok(())
    }

    /// Moves everything in the write-ahead log into the database file and empties the log, so
    /// the file alone is a complete copy (`kept replay --db`). A no-op in memory.
    pub async fn checkpoint(&self) -> Result<()> {
        // On the writer: it is the connection that wrote, and a checkpoint is a write.
        let busy: i64 = sqlx::query_scalar("PRAGMA wal_checkpoint(TRUNCATE)")
            .fetch_one(&self.writer)
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
