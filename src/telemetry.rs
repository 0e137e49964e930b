//! The tracing subscriber: human-readable or JSON lines on stderr, filtered by `RUST_LOG`.

use tracing_subscriber::EnvFilter;

/// Installs the global subscriber once; later calls (tests) are ignored.
pub fn init(json: bool, default_filter: &str) {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default_filter));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = if json {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
}
