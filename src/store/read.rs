//! The reads an answer waits on, through SQLite connections of their own that run on the
//! calling thread.
//!
//! An sqlx statement runs on the connection's worker thread: the hand-off there and back costs
//! 30–130 µs on a two-core machine, more than a person's whole context takes to read
//! (`benches/context.rs`). These connections are plain `rusqlite` ones with their prepared
//! statements cached, taken from a small idle list and put back after the read. They only
//! read; kept's own writer is store/writer.rs.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use rusqlite::{Connection, OpenFlags};

use super::Result;
use super::memories::Get;
use super::writer::Writer;

/// Connections kept open between reads (more may be open at once; the rest are closed after).
const IDLE: usize = 4;

#[derive(Debug)]
pub(super) struct Readers {
    path: PathBuf,
    idle: Mutex<Vec<Connection>>,
    /// kept's writer, read on when it is free (see [`Writer::idle`]).
    writer: Arc<Writer>,
}

impl Readers {
    pub(super) fn file(path: PathBuf, writer: Arc<Writer>) -> Readers {
        Readers {
            path,
            idle: Mutex::new(Vec::new()),
            writer,
        }
    }

    fn open(&self) -> rusqlite::Result<Connection> {
        let conn = Connection::open_with_flags(
            &self.path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        // As the sqlx readers (store/mod.rs): pages through the OS cache, 16 MiB hot.
        conn.pragma_update(None, "mmap_size", 268_435_456)?;
        conn.pragma_update(None, "cache_size", -16_384)?;
        // Every read of kept goes through these connections: more statements than rusqlite's
        // default of 16, and one pushed out is prepared again on its next use.
        conn.set_prepared_statement_cache_capacity(128);
        Ok(conn)
    }

    /// Runs `read` on the writer if it is free, else on an idle connection (or a new one),
    /// then keeps the connection for the next read.
    pub(super) fn with<T>(&self, read: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        if let Some(conn) = self.writer.idle() {
            return read(&conn);
        }
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

    /// As [`Readers::with`], with every statement of `read` in one read transaction: they see
    /// one snapshot of the database, and the transaction's locks (two `fcntl` calls each way
    /// in WAL mode) are taken once instead of once per statement.
    pub(super) fn snapshot<T>(&self, read: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        self.with(|conn| {
            conn.prepare_cached("BEGIN")?.execute([])?;
            let out = read(conn);
            // A read-only transaction: ending it cannot lose anything, and it must end before
            // the connection goes back to the idle list whatever `read` returned.
            let end = conn
                .prepare_cached("COMMIT")
                .and_then(|mut s| s.execute([]));
            let out = out?;
            end?;
            Ok(out)
        })
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
    fn parsed<T: std::str::FromStr>(&self, c: &str) -> Result<T> {
        let v = self.row.get_ref(self.index(c)?)?;
        super::parse(v.as_str().map_err(rusqlite::Error::from)?)
    }
    fn with_os<T>(&self, c: &str, read: impl FnOnce(Option<&str>) -> Result<T>) -> Result<T> {
        let v = self.row.get_ref(self.index(c)?)?;
        read(v.as_str_or_null().map_err(rusqlite::Error::from)?)
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

/// The first column of every row of a cached statement.
pub(super) fn column<T: rusqlite::types::FromSql>(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
) -> Result<Vec<T>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map(params, |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<Vec<T>>>()?)
}

thread_local! {
    /// Column names by statement text: a statement's columns do not change while kept runs
    /// (migrations run before the first read), and asking SQLite for them and copying them
    /// was a few percent of a context read.
    static NAMES: std::cell::RefCell<std::collections::HashMap<String, std::rc::Rc<[String]>>> =
        Default::default();
}

fn column_names(sql: &str, stmt: &rusqlite::Statement<'_>) -> std::rc::Rc<[String]> {
    NAMES.with_borrow_mut(|names| {
        if let Some(n) = names.get(sql) {
            return n.clone();
        }
        let n: std::rc::Rc<[String]> = stmt.column_names().into_iter().map(String::from).collect();
        names.insert(sql.to_string(), n.clone());
        n
    })
}

/// Every row of a cached statement through `read`.
pub(super) fn all<T>(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
    read: impl Fn(&Named<'_>) -> Result<T>,
) -> Result<Vec<T>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let names = column_names(sql, &stmt);
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
