//! `kept run` end to end: long polling against the sandbox Bot API, a clean stop, and a
//! rejected token.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use kept::app::App;
use kept::bot::live::{RunError, run_until};
use kept::clock::{DrivenClock, SharedClock};
use kept::config::{Secret, Settings};
use kept::sandbox::{self, Sandbox};
use kept::store::Store;
use serde_json::json;

fn t0() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-11-23T10:00:00+03:00")
        .unwrap()
        .with_timezone(&Utc)
}

async fn app_for(sandbox: &Sandbox, clock: SharedClock, token: &str) -> Arc<App> {
    app_with(sandbox, clock, token, |_| {}).await
}

/// An app on the sandbox with admin 1, its settings changed by `tweak` first.
async fn app_with(
    sandbox: &Sandbox,
    clock: SharedClock,
    token: &str,
    tweak: impl FnOnce(&mut Settings),
) -> Arc<App> {
    let mut settings = Settings {
        admins: vec![1],
        ..Default::default()
    };
    settings.telegram.api_url = Some(sandbox.url());
    settings.telegram.token = Some(Secret::new(token));
    tweak(&mut settings);
    App::new(Store::temporary().await.unwrap(), clock, settings)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_live_bot_polls_answers_start_and_stops_cleanly() {
    let clock: SharedClock = Arc::new(DrivenClock::new(t0()));
    let sandbox = Sandbox::start(clock.clone()).await.unwrap();
    let app = app_for(&sandbox, clock, sandbox::TOKEN).await;
    sandbox.push_update(json!({"message": {
        "message_id": 1, "date": t0().timestamp(),
        "chat": {"id": 1, "type": "private", "first_name": "Анна"},
        "from": {"id": 1, "is_bot": false, "first_name": "Анна", "language_code": "ru"},
        "text": "/start", "entities": [{"type": "bot_command", "offset": 0, "length": 6}]
    }}));
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let token = kept::bot::live::token(&app).unwrap();
    let run = tokio::spawn(run_until(app.clone(), token, async {
        let _ = stop_rx.await;
    }));
    let mut answered = false;
    for _ in 0..100 {
        if sandbox
            .sent()
            .iter()
            .any(|s| s.chat == 1 && s.reply_to == Some(1))
        {
            answered = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let director = app
        .store
        .member(app.default_org, kept::domain::UserId(1))
        .await
        .unwrap();
    assert_eq!(director.map(|m| m.role), Some(kept::domain::Role::Director));
    let _ = stop_tx.send(());
    let result = tokio::time::timeout(Duration::from_secs(20), run).await;
    assert!(answered, "no reply to /start; calls: {:?}", sandbox.calls());
    assert!(
        matches!(result, Ok(Ok(Ok(())))),
        "the bot did not stop cleanly: {result:?}"
    );
    let calls = sandbox.calls();
    assert!(calls.contains(&"getme".to_string()));
    assert!(calls.contains(&"setmycommands".to_string()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webhook_mode_answers_start_and_removes_its_webhook_on_stop() {
    let clock: SharedClock = Arc::new(DrivenClock::new(t0()));
    let sandbox = Sandbox::start(clock.clone()).await.unwrap();
    // A free port for the webhook server.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let app = app_with(&sandbox, clock, sandbox::TOKEN, |s| {
        s.telegram.listen = Some(format!("127.0.0.1:{port}").parse().unwrap());
        s.telegram.webhook_url = Some(format!("http://127.0.0.1:{port}/telegram").parse().unwrap());
    })
    .await;
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let token = kept::bot::live::token(&app).unwrap();
    let run = tokio::spawn(run_until(app.clone(), token, async {
        let _ = stop_rx.await;
    }));
    for _ in 0..100 {
        if sandbox.webhook().is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (url, secret) = sandbox.webhook().expect("the bot set its webhook");
    assert_eq!(url, format!("http://127.0.0.1:{port}/telegram"));
    assert!(
        secret.as_deref().is_some_and(|s| s.len() >= 16),
        "a secret token is set"
    );
    // Without the secret, the webhook refuses the update.
    let forged = reqwest::Client::new()
        .post(&url)
        .json(
            &json!({"update_id": 99, "message": {"message_id": 9, "date": t0().timestamp(),
            "chat": {"id": 1, "type": "private", "first_name": "Анна"},
            "from": {"id": 1, "is_bot": false, "first_name": "Анна"}, "text": "/start"}}),
        )
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status().as_u16(), 401);
    sandbox.push_update(json!({"message": {
        "message_id": 1, "date": t0().timestamp(),
        "chat": {"id": 1, "type": "private", "first_name": "Анна"},
        "from": {"id": 1, "is_bot": false, "first_name": "Анна", "language_code": "ru"},
        "text": "/start", "entities": [{"type": "bot_command", "offset": 0, "length": 6}]
    }}));
    let mut answered = false;
    for _ in 0..100 {
        if sandbox
            .sent()
            .iter()
            .any(|s| s.chat == 1 && s.reply_to == Some(1))
        {
            answered = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let _ = stop_tx.send(());
    let result = tokio::time::timeout(Duration::from_secs(20), run).await;
    assert!(answered, "no reply to /start; calls: {:?}", sandbox.calls());
    assert!(
        !sandbox.sent().iter().any(|s| s.reply_to == Some(9)),
        "a forged update was answered"
    );
    assert!(
        matches!(result, Ok(Ok(Ok(())))),
        "the bot did not stop cleanly: {result:?}"
    );
    assert!(
        sandbox.webhook().is_none(),
        "the webhook is deleted at stop"
    );
    assert!(!sandbox.calls().contains(&"getupdates".to_string()));
}

#[tokio::test]
async fn a_rejected_token_stops_the_bot_with_a_clear_error() {
    let clock: SharedClock = Arc::new(DrivenClock::new(t0()));
    let sandbox = Sandbox::start(clock.clone()).await.unwrap();
    let app = app_for(&sandbox, clock, "123:wrong").await;
    let err = run_until(app, "123:wrong".into(), async {})
        .await
        .unwrap_err();
    assert!(matches!(err, RunError::BadToken), "{err:?}");
    assert!(err.to_string().contains("token"));
}

#[tokio::test]
async fn no_token_is_refused_before_anything_starts() {
    let clock: SharedClock = Arc::new(DrivenClock::new(t0()));
    let mut settings = Settings::default();
    settings.telegram.token = None;
    let app = App::new(Store::temporary().await.unwrap(), clock, settings)
        .await
        .unwrap();
    let err = kept::bot::live::token(&app).unwrap_err();
    assert!(err.to_string().contains("TELOXIDE_TOKEN"), "{err}");
}
