//! The reads an answer waits on, through SQLite connections of their own that run on the
//! calling thread.
//!
//! An sqlx statement runs on the connection's worker thread: the hand-off there and back costs
//! 30–130 µs on a two-core machine, more than a person's whole context takes to read
//! (`benches/context.rs`). These connections are plain `rusqlite` ones with their prepared
//! statements cached, taken from a small idle list and put back after the read. They only
//! read: every write still goes through sqlx.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use rusqlite::{Connection, OpenFlags};

use super::Result;
use super::memories::Get;

/// Connections kept open between reads (more may be open at once; the rest are closed after).
const IDLE: usize = 4;

/// Where the read connections open.
#[derive(Debug, Clone)]
enum Target {
    File(PathBuf),
    /// A shared-cache in-memory database's URI (`file:…?mode=memory&cache=shared`).
    Memory(String),
}

#[derive(Debug)]
pub(super) struct Readers {
    target: Target,
    idle: Mutex<Vec<Connection>>,
}

static MEMORY_SEQ: AtomicU64 = AtomicU64::new(0);

/// A name for a new in-memory database that the sqlx pool and the readers both open.
pub(super) fn memory_name() -> String {
    format!(
        "kept-memory-{}-{}",
        std::process::id(),
        MEMORY_SEQ.fetch_add(1, Ordering::Relaxed)
    )
}

impl Readers {
    pub(super) fn file(path: PathBuf) -> Readers {
        Readers {
            target: Target::File(path),
            idle: Mutex::new(Vec::new()),
        }
    }

    pub(super) fn memory(name: &str) -> Readers {
        Readers {
            target: Target::Memory(format!("file:{name}?mode=memory&cache=shared")),
            idle: Mutex::new(Vec::new()),
        }
    }

    /// May what these connections read be kept for later reads? Not from an in-memory database:
    /// its reads may see a write that is later rolled back (see [`Readers::open`]), and a
    /// revision read that way could come round again for different rows.
    pub(super) fn may_cache(&self) -> bool {
        matches!(self.target, Target::File(_))
    }

    fn open(&self) -> rusqlite::Result<Connection> {
        match &self.target {
            Target::File(path) => {
                let conn = Connection::open_with_flags(
                    path,
                    OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
                )?;
                conn.busy_timeout(std::time::Duration::from_secs(5))?;
                // As the sqlx readers (store/mod.rs): pages through the OS cache, 16 MiB hot.
                conn.pragma_update(None, "mmap_size", 268_435_456)?;
                conn.pragma_update(None, "cache_size", -16_384)?;
                Ok(conn)
            }
            Target::Memory(uri) => {
                let conn = Connection::open_with_flags(
                    uri,
                    OpenFlags::SQLITE_OPEN_READ_WRITE
                        | OpenFlags::SQLITE_OPEN_URI
                        | OpenFlags::SQLITE_OPEN_SHARED_CACHE
                        | OpenFlags::SQLITE_OPEN_NO_MUTEX,
                )?;
                // In a shared cache a reader would otherwise fail at once (SQLITE_LOCKED, which
                // no busy timeout waits out) while any write transaction is open, and waiting
                // for it on this thread could stall the very task that holds it. In-memory
                // databases are the replay's, the demo's and the tests'; a read there may see a
                // write that is not committed yet.
                conn.pragma_update(None, "read_uncommitted", true)?;
                conn.pragma_update(None, "query_only", true)?;
                Ok(conn)
            }
        }
    }

    /// Runs `read` on an idle connection (or a new one), then keeps the connection for the next
    /// read.
    pub(super) fn with<T>(&self, read: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        let taken = self.idle.lock().map(|mut idle| idle.pop()).unwrap_or(None);
        let conn = match taken {
            Some(c) => c,
            None => self.open()?,
        };
        let out = read(&conn);
        if let Ok(mut idle) = self.idle.lock()
            && idle.len() < IDLE
        {
            idle.push(conn);
        }
        out
    }
}

/// A row read by column name. rusqlite's own lookup by name asks SQLite for every column's name
/// on every call, which cost more than the rest of the read (`benches/context.rs`); the names
/// are taken once per statement here, and since a row is mostly read in the order of its
/// columns the search starts after the column found last.
pub(super) struct Named<'a> {
    row: &'a rusqlite::Row<'a>,
    names: &'a [String],
    next: std::cell::Cell<usize>,
}

impl Named<'_> {
    fn index(&self, c: &str) -> rusqlite::Result<usize> {
        let n = self.names.len();
        let start = self.next.get();
        (0..n)
            .map(|k| (start + k) % n)
            .find(|&i| self.names[i] == c)
            .inspect(|i| self.next.set(i + 1))
            .ok_or_else(|| rusqlite::Error::InvalidColumnName(c.to_string()))
    }

    /// Any column type SQLite can give (a blob, say), by name.
    pub(super) fn get<T: rusqlite::types::FromSql>(&self, c: &str) -> Result<T> {
        Ok(self.row.get(self.index(c)?)?)
    }
}

impl Get for Named<'_> {
    fn i(&self, c: &str) -> Result<i64> {
        self.get(c)
    }
    fn oi(&self, c: &str) -> Result<Option<i64>> {
        self.get(c)
    }
    fn s(&self, c: &str) -> Result<String> {
        self.get(c)
    }
    fn os(&self, c: &str) -> Result<Option<String>> {
        self.get(c)
    }
    fn f(&self, c: &str) -> Result<f64> {
        self.get(c)
    }
}

/// The first row of a cached statement through `read`, if there is one.
pub(super) fn one<T>(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
    read: impl Fn(&Named<'_>) -> Result<T>,
) -> Result<Option<T>> {
    Ok(all(conn, sql, params, read)?.into_iter().next())
}

/// Every row of a cached statement through `read`.
pub(super) fn all<T>(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
    read: impl Fn(&Named<'_>) -> Result<T>,
) -> Result<Vec<T>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let names: Vec<String> = stmt.column_names().into_iter().map(String::from).collect();
    let mut rows = stmt.query(params)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        out.push(read(&Named {
            row,
            names: &names,
            next: std::cell::Cell::new(0),
        })?);
    }
    Ok(out)
}
