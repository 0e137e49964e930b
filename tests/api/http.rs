//! The operator's endpoint over real HTTP: `/healthz` follows the database and the scheduler,
//! `/metrics` is the Prometheus text format and counts what the bot did.

use std::sync::Arc;

use chrono::{Duration, TimeZone, Utc};
use kept::app::App;
use kept::clock::{DrivenClock, SharedClock};
use kept::config::Settings;
use kept::domain::{ChatId, MessageId, UserId};
use kept::http::{Heartbeat, serve};
use kept::ingest::{self, Incoming, Ingest};
use kept::store::Store;

#[tokio::test]
async fn healthz_follows_the_database_and_the_scheduler_and_metrics_parse() {
    let t0 = Utc.with_ymd_and_hms(2026, 11, 23, 7, 0, 0).unwrap();
    let clock = DrivenClock::new(t0);
    let shared: SharedClock = Arc::new(clock.clone());
    let app = App::new(
        Store::temporary().await.unwrap(),
        shared,
        Settings::default(),
    )
    .await
    .unwrap();
    let heartbeat = Arc::new(Heartbeat::default());
    heartbeat.beat(t0);
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let addr = serve("127.0.0.1:0", app.clone(), heartbeat.clone(), async move {
        let _ = stop_rx.await;
    })
    .await
    .unwrap();
    let client = reqwest::Client::new();
    let get = |path: &'static str| {
        let client = client.clone();
        async move {
            let r = client
                .get(format!("http://{addr}{path}"))
                .send()
                .await
                .unwrap();
            (r.status().as_u16(), r.text().await.unwrap())
        }
    };
    assert_eq!(get("/healthz").await, (200, "ok\n".to_string()));

    // Something to count: a promise in a linked group.
    let org = app.store.org(app.default_org).await.unwrap();
    let chat = ChatId(-1_001_234);
    app.store
        .link_chat(org.id, chat, true, Some("T"), t0)
        .await
        .unwrap();
    app.store
        .upsert_user(UserId(2), "Дмитрий", None, None, Some("ru"), t0)
        .await
        .unwrap();
    app.store
        .ensure_member(org.id, UserId(2), t0)
        .await
        .unwrap();
    let people = app.store.people(org.id).await.unwrap();
    let names = ingest::extract_people(&people);
    Ingest {
        store: &app.store,
        org: &org,
        people: &people,
        names: &names,
        refine: false,
    }
    .message(&Incoming {
        chat,
        message: MessageId(1),
        from: UserId(2),
        date: t0,
        text: "доделаю отчёт до пятницы",
        reply_to: None,
        mentions: &[],
    })
    .await
    .unwrap();

    let (status, body) = get("/metrics").await;
    assert_eq!(status, 200);
    let scrape = prometheus_parse::Scrape::parse(body.lines().map(|l| Ok(l.to_string()))).unwrap();
    let value = |name: &str, label: Option<(&str, &str)>| -> f64 {
        scrape
            .samples
            .iter()
            .filter(|s| s.metric == name)
            .filter(|s| label.is_none_or(|(k, v)| s.labels.get(k) == Some(v)))
            .map(|s| match s.value {
                prometheus_parse::Value::Counter(v) | prometheus_parse::Value::Gauge(v) => v,
                prometheus_parse::Value::Untyped(v) => v,
                _ => 0.0,
            })
            .sum()
    };
    assert!(value("kept_messages_ingested_total", None) >= 1.0, "{body}");
    assert!(
        value("kept_commitment_changes_total", Some(("change", "created"))) >= 1.0,
        "{body}"
    );
    assert!(
        scrape
            .samples
            .iter()
            .any(|s| s.metric == "kept_delivery_queue"),
        "{body}"
    );

    // A scheduler that stopped going round makes the bot unhealthy.
    clock.set(t0 + Duration::minutes(5));
    let (status, body) = get("/healthz").await;
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("scheduler"));
    heartbeat.beat(t0 + Duration::minutes(5));
    assert_eq!(get("/healthz").await.0, 200);

    // So does a database that no longer answers.
    app.store.close().await;
    let (status, body) = get("/healthz").await;
    assert_eq!(status, 503);
    assert!(body.contains("database"), "{body}");
    let _ = stop_tx.send(());
}
