//! `kept run`: long polling over the handler tree, the scheduler and the delivery sender, with a
//! clean stop on SIGTERM/SIGINT (in-flight updates finish, the pool closes).

use std::sync::Arc;
use std::time::Duration;

use teloxide::prelude::*;
use teloxide::{ApiError, RequestError};

use super::{BotIdentity, BotOutbox, schema, set_menus};
use crate::app::App;
use crate::schedule::{Scheduler, sender};

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(
        "no bot token: set telegram.token in kept.toml, or KEPT__TELEGRAM__TOKEN or TELOXIDE_TOKEN in the environment (`kept demo` runs without one)"
    )]
    NoToken,
    #[error(
        "Telegram rejected the bot token (401): check telegram.token / TELOXIDE_TOKEN (`kept demo` runs without one)"
    )]
    BadToken,
    #[error("cannot reach the Bot API")]
    Telegram(#[source] RequestError),
    #[error("invalid telegram.api_url")]
    ApiUrl(#[source] url::ParseError),
    #[error("scheduler")]
    Schedule(#[from] crate::schedule::ScheduleError),
}

/// Checks the token before anything else starts.
pub fn token(app: &App) -> Result<String, RunError> {
    match &app.settings.telegram.token {
        Some(t) if !t.expose().trim().is_empty() => Ok(t.expose().trim().to_string()),
        _ => Err(RunError::NoToken),
    }
}

/// The live bot until SIGTERM or SIGINT.
pub async fn run(app: Arc<App>, token: String) -> Result<(), RunError> {
    run_until(app, token, shutdown_signal()).await
}

/// The live bot until `stop` completes (tests stop it themselves).
pub async fn run_until(
    app: Arc<App>,
    token: String,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), RunError> {
    let mut bot = Bot::new(token);
    if let Some(url) = &app.settings.telegram.api_url {
        bot = bot.set_api_url(url.parse().map_err(RunError::ApiUrl)?);
    }
    let me = match bot.get_me().await {
        Ok(me) => me,
        Err(RequestError::Api(ApiError::InvalidToken)) => return Err(RunError::BadToken),
        Err(RequestError::Api(ApiError::Unknown(s))) if s.contains("Unauthorized") => {
            return Err(RunError::BadToken);
        }
        Err(e) => return Err(RunError::Telegram(e)),
    };
    let identity = Arc::new(BotIdentity {
        id: me.id,
        username: me.username().to_string(),
    });
    tracing::info!(username = %identity.username, "connected to Telegram");
    if let Err(e) = set_menus(&bot, &app).await {
        tracing::warn!(error = %e, "could not register command menus");
    }

    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let scheduler = Scheduler::new(app.clone()).await?;
    let outbox = BotOutbox(bot.clone());
    let sched_app = app.clone();
    let mut sched_stop = stop_rx.clone();
    let jobs = tokio::spawn(async move {
        // Runs missed while the bot was down are looked at again: done late within 6 hours.
        let mut last = sched_app.clock.now() - chrono::Duration::hours(24);
        loop {
            let now = sched_app.clock.now();
            // A failed step keeps its window: the same runs are tried again next time.
            match scheduler.advance(last, now, &|_| {}, &outbox).await {
                Ok(_) => last = now,
                Err(e) => tracing::error!(error = %e, "scheduler step failed"),
            }
            if let Err(e) = sender::deliver_queued(&sched_app, &outbox, true).await {
                tracing::error!(error = %e, "delivery step failed");
            }
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_secs(20)) => {}
                _ = sched_stop.changed() => break,
            }
        }
    });

    let mut dispatcher = Dispatcher::builder(bot, schema())
        .dependencies(dptree::deps![app.clone(), identity])
        .default_handler(|_| async {})
        .error_handler(LoggingErrorHandler::with_custom_text(
            "update handling failed",
        ))
        .build();
    let token = dispatcher.shutdown_token();
    tokio::spawn(async move {
        stop.await;
        tracing::info!("stopping: finishing in-flight updates");
        if let Ok(f) = token.shutdown() {
            f.await;
        }
    });
    dispatcher.dispatch().await;
    let _ = stop_tx.send(true);
    let _ = jobs.await;
    app.store.close().await;
    tracing::info!("stopped cleanly");
    Ok(())
}

async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = tokio::signal::ctrl_c() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
