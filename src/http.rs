//! The operator's HTTP endpoint: `/healthz` (the database answers, the scheduler ticks) and
//! `/metrics` (Prometheus text format), on `http.listen`, off by default.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicI64, Ordering};

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};

use crate::app::App;

#[derive(Debug, thiserror::Error)]
pub enum HttpError {
    #[error("cannot listen on {addr}")]
    Bind {
        addr: String,
        #[source]
        source: std::io::Error,
    },
}

/// The process's metrics recorder, installed on first use; `None` when another recorder was
/// installed first (then `/metrics` says so instead of lying with an empty page).
pub fn metrics() -> Option<&'static PrometheusHandle> {
    static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let recorder = PrometheusBuilder::new().build_recorder();
            let handle = recorder.handle();
            metrics::set_global_recorder(recorder).ok().map(|_| {
                describe();
                handle
            })
        })
        .as_ref()
}

fn describe() {
    use metrics::{describe_counter, describe_gauge};
    describe_counter!("kept_updates_total", "Telegram updates handled, by kind");
    describe_counter!(
        "kept_handler_panics_total",
        "updates whose handler panicked"
    );
    describe_counter!(
        "kept_messages_ingested_total",
        "group messages stored and read"
    );
    describe_counter!(
        "kept_commitment_changes_total",
        "promises created, moved, done or cancelled"
    );
    describe_counter!("kept_sends_total", "messages the bot sent, by outcome");
    describe_gauge!("kept_delivery_queue", "deliveries waiting to be sent");
    describe_counter!("kept_job_runs_total", "scheduled job runs, by job");
    describe_gauge!(
        "kept_job_lateness_seconds",
        "how late the last run of each job started"
    );
    describe_counter!(
        "kept_telegram_errors_total",
        "Bot API errors, by error code"
    );
}

/// When the scheduler last went round its loop (unix seconds): `/healthz` fails when it stops.
#[derive(Debug, Default)]
pub struct Heartbeat(AtomicI64);

impl Heartbeat {
    pub fn beat(&self, at: chrono::DateTime<chrono::Utc>) {
        self.0.store(at.timestamp(), Ordering::Relaxed);
    }

    fn last(&self) -> i64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// The scheduler loop wakes every 20 seconds: three missed rounds mean it is stuck or gone.
const STALE_SECONDS: i64 = 90;

#[derive(Clone)]
struct Shared {
    app: Arc<App>,
    heartbeat: Arc<Heartbeat>,
}

async fn healthz(State(s): State<Shared>) -> Response {
    if let Err(e) = s.app.store.ping().await {
        tracing::warn!(error = %e, "health check: database unreachable");
        return (StatusCode::SERVICE_UNAVAILABLE, "database unreachable\n").into_response();
    }
    let age = s.app.clock.now().timestamp() - s.heartbeat.last();
    if age > STALE_SECONDS {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            format!("scheduler silent for {age} s\n"),
        )
            .into_response();
    }
    (StatusCode::OK, "ok\n").into_response()
}

async fn metrics_page(State(s): State<Shared>) -> Response {
    let Some(handle) = metrics() else {
        return (StatusCode::SERVICE_UNAVAILABLE, "no metrics recorder\n").into_response();
    };
    if let Ok((_, queued, _)) = s.app.store.delivery_counts().await {
        metrics::gauge!("kept_delivery_queue").set(queued as f64);
    }
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        handle.render(),
    )
        .into_response()
}

/// Binds `addr` and serves until `stop` completes. Returns the bound address (port 0 picks one).
pub async fn serve(
    addr: &str,
    app: Arc<App>,
    heartbeat: Arc<Heartbeat>,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<SocketAddr, HttpError> {
    let _ = metrics();
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|source| HttpError::Bind {
            addr: addr.to_string(),
            source,
        })?;
    let bound = listener.local_addr().map_err(|source| HttpError::Bind {
        addr: addr.to_string(),
        source,
    })?;
    let router = Router::new()
        .route("/healthz", get(healthz))
        .route("/metrics", get(metrics_page))
        .with_state(Shared { app, heartbeat });
    tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, router)
            .with_graceful_shutdown(stop)
            .await
        {
            tracing::error!(error = %e, "http endpoint stopped");
        }
    });
    tracing::info!(%bound, "serving /healthz and /metrics");
    Ok(bound)
}
