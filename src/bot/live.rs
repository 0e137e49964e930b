//! `kept run`: long polling over the handler tree, the scheduler and the delivery sender, with a
//! clean stop on SIGTERM/SIGINT (in-flight updates finish, the pool closes).

use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

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
    #[error("cannot listen for SIGTERM/SIGINT")]
    Signal(#[source] std::io::Error),
    #[error("http endpoint")]
    Http(#[from] crate::http::HttpError),
    #[error("cannot listen for webhook updates on {0} (telegram.listen)")]
    Listen(String),
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
    // Listening starts now, not when the stop future is first polled: a SIGTERM during startup
    // then stops the bot the same clean way instead of killing it mid-write.
    run_until(app, token, shutdown_signal()?).await
}

/// How long a stop waits for in-flight updates and the scheduler's current step; what is still
/// running after that is dropped (queued deliveries resume at the next start). Service managers
/// escalate to SIGKILL a few seconds after SIGTERM.
const STOP_GRACE: Duration = Duration::from_secs(4);

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
        reads_group_messages: me.can_read_all_group_messages,
    });
    tracing::info!(username = %identity.username, "connected to Telegram");
    if !identity.reads_group_messages {
        tracing::warn!(
            username = %identity.username,
            "privacy mode is on: the bot sees only commands and replies to it in groups, so no promise is captured; turn it off in @BotFather (/setprivacy, choose the bot, Disable) or make the bot an admin of each group"
        );
    }
    if let Err(e) = set_menus(&bot, &app).await {
        tracing::warn!(error = %e, "could not register command menus");
    }

    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let heartbeat = Arc::new(crate::http::Heartbeat::default());
    heartbeat.beat(app.clock.now());
    if let Some(addr) = &app.settings.http.listen {
        let mut http_stop = stop_rx.clone();
        crate::http::serve(
            &addr.to_string(),
            app.clone(),
            heartbeat.clone(),
            async move {
                let _ = http_stop.changed().await;
            },
        )
        .await?;
    }
    let beat = heartbeat.clone();
    let mut scheduler = Scheduler::new(app.clone()).await?;
    let outbox = BotOutbox(bot.clone());
    let sched_app = app.clone();
    let mut sched_stop = stop_rx.clone();
    // Runs missed while the bot was down are looked at again: done late within 6 hours.
    let mut last = scheduler.resume_from(app.clock.now()).await?;
    let jobs = tokio::spawn(async move {
        loop {
            let now = sched_app.clock.now();
            beat.beat(now);
            // A failed step keeps its window: the same runs are tried again next time.
            // An org added with `kept org add` while the bot runs is scheduled from its next round.
            if let Err(e) = scheduler.reload().await {
                tracing::error!(error = %e, "could not re-read the orgs");
            }
            match scheduler.advance(last, now, &|_| {}, &outbox).await {
                Ok(_) => {
                    last = now;
                    if let Err(e) = scheduler.record_tick(now).await {
                        tracing::error!(error = %e, "could not record the scheduler's progress");
                    }
                }
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

    // The model's second look at unsure messages: its own task, so a slow model delays
    // neither updates nor the scheduler.
    let refine_app = app.clone();
    let mut refine_stop = stop_rx.clone();
    let refiner = tokio::spawn(async move {
        if refine_app.llm.is_none() {
            return;
        }
        loop {
            match refine_app.store.orgs().await {
                Ok(orgs) => {
                    for org in orgs {
                        if let Err(e) = crate::refine::run_all(&refine_app, org).await {
                            tracing::error!(org = org.0, error = %e, "refinement step failed");
                        }
                    }
                }
                Err(e) => tracing::error!(error = %e, "could not read the orgs"),
            }
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_secs(30)) => {}
                _ = refine_stop.changed() => break,
            }
        }
    });

    let webhook_bot = bot.clone();
    let mut dispatcher = Dispatcher::builder(bot, schema())
        .dependencies(dptree::deps![app.clone(), identity])
        .default_handler(|_| async {})
        .error_handler(LoggingErrorHandler::with_custom_text(
            "update handling failed",
        ))
        .build();
    let token = dispatcher.shutdown_token();
    let (stopping_tx, stopping) = tokio::sync::watch::channel(None::<Instant>);
    tokio::spawn(async move {
        stop.await;
        // Stop first, log after: nothing the log does may keep the bot running.
        let asked = Instant::now();
        let _ = stopping_tx.send(Some(asked));
        // A dispatcher that has not started yet refuses the shutdown: ask again until it takes.
        while asked.elapsed() < STOP_GRACE {
            if let Ok(f) = token.shutdown() {
                tracing::info!("stopping: finishing in-flight updates");
                f.await;
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    });
    let mut clean = true;
    // Long polling by default; with `telegram.webhook_url`, Telegram posts updates to a server
    // of ours (setWebhook with a secret at start, deleteWebhook at stop), same handler tree.
    let updates: std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send + '_>> =
        match &app.settings.telegram.webhook_url {
            None => Box::pin(dispatcher.dispatch()),
            Some(url) => {
                let listener = webhook(&webhook_bot, url, app.settings.telegram.listen).await?;
                Box::pin(dispatcher.dispatch_with_listener(
                    listener,
                    LoggingErrorHandler::with_custom_text("webhook update failed"),
                ))
            }
        };
    tokio::select! {
        // Returns once a shutdown is asked and the in-flight updates are done.
        _ = updates => {}
        _ = grace_over(stopping.clone()) => clean = false,
    }
    let _ = stop_tx.send(true);
    let stopped = (*stopping.borrow()).unwrap_or_else(Instant::now);
    // A model call may take its whole timeout: the refiner is not waited for. What it had not
    // finished stays queued (an item is closed only after its verdict is written).
    refiner.abort();
    let mut jobs = jobs;
    if tokio::time::timeout_at(stopped + STOP_GRACE, &mut jobs)
        .await
        .is_err()
    {
        jobs.abort();
        clean = false;
    }
    // A handler still running past the grace holds its connection, and closing waits for it.
    if tokio::time::timeout(Duration::from_secs(1), app.store.close())
        .await
        .is_err()
    {
        clean = false;
    }
    if clean {
        tracing::info!("stopped cleanly");
    } else {
        tracing::warn!(grace = ?STOP_GRACE, "stopped without waiting for work still running after the grace period");
    }
    Ok(())
}

/// Completes [`STOP_GRACE`] after the stop was asked (never, if it is not).
async fn grace_over(mut stopping: tokio::sync::watch::Receiver<Option<Instant>>) {
    loop {
        let asked = *stopping.borrow_and_update();
        if let Some(at) = asked {
            tokio::time::sleep_until(at + STOP_GRACE).await;
            return;
        }
        if stopping.changed().await.is_err() && stopping.borrow().is_none() {
            std::future::pending::<()>().await;
        }
    }
}

/// Resolves on SIGTERM or SIGINT; the handlers are installed before it returns.
/// Registers the webhook with Telegram and serves it on `listen`; updates come through the
/// returned listener until the dispatcher stops it, and then the webhook is deleted.
async fn webhook(
    bot: &Bot,
    url: &url::Url,
    listen: Option<std::net::SocketAddr>,
) -> Result<impl teloxide::update_listeners::UpdateListener<Err = std::convert::Infallible>, RunError>
{
    use teloxide::update_listeners::webhooks;
    let address = listen.unwrap_or(crate::config::DEFAULT_WEBHOOK_LISTEN);
    let (listener, stop_flag, router) =
        webhooks::axum_to_router(bot.clone(), webhooks::Options::new(address, url.clone()))
            .await
            .map_err(RunError::Telegram)?;
    let tcp = tokio::net::TcpListener::bind(address)
        .await
        .map_err(|_| RunError::Listen(address.to_string()))?;
    tracing::info!(%address, "receiving updates by webhook");
    tokio::spawn(async move {
        if let Err(e) = axum::serve(tcp, router)
            .with_graceful_shutdown(stop_flag)
            .await
        {
            tracing::error!(error = %e, "webhook server stopped");
        }
    });
    Ok(listener)
}

fn shutdown_signal() -> Result<impl std::future::Future<Output = ()> + Send + 'static, RunError> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut term = signal(SignalKind::terminate()).map_err(RunError::Signal)?;
        let mut int = signal(SignalKind::interrupt()).map_err(RunError::Signal)?;
        Ok(async move {
            tokio::select! {
                _ = term.recv() => {}
                _ = int.recv() => {}
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            let _ = tokio::signal::ctrl_c().await;
        })
    }
}
