//! The tracing subscriber: human-readable or JSON lines on stderr, filtered by `RUST_LOG`.
//!
//! Logging must never be able to stop the bot: a closed stderr (`kept run 2>&1 | head -1`) makes
//! log lines vanish, not panic the task that logged them (that task may be the shutdown path).
#![deny(clippy::print_stdout, clippy::print_stderr)]

use std::io::{self, IsTerminal, Write};

use tracing_subscriber::EnvFilter;

/// Installs the global subscriber once; later calls (tests) are ignored.
pub fn init(json: bool, default_filter: &str) {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default_filter));
    // Colour only for a person at a terminal: escape codes in a file, a pipe or a log collector
    // are noise, and inside JSON they make every line a different string.
    let ansi = !json && io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(|| Stderr)
        .with_ansi(ansi)
        // Its report of a failed write goes through `eprintln!`, which panics on a closed stderr.
        .log_internal_errors(false);
    let _ = if json {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
}

/// stderr that drops what it cannot write: nobody is left to read a log line into a closed pipe.
struct Stderr;

impl Write for Stderr {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // Claiming the whole buffer keeps `write_all` from looping or reporting a failure.
        let _ = io::stderr().write_all(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        let _ = io::stderr().flush();
        Ok(())
    }
}
