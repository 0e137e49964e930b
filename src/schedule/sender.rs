//! Delivers queued messages: marks each sent, honours 429 `retry_after`, falls back from a
//! closed DM (403) to the group, and paces bulk sends within Telegram's limits when live.

use std::future::Future;

use chrono::Duration;

use super::ScheduleError;
use crate::app::App;
use crate::domain::ChatId;
use crate::render;
use crate::store::Delivery;

/// Why a send did not go through.
#[derive(Debug, thiserror::Error)]
pub enum SendError {
    #[error("rate limited for {0} s")]
    RetryAfter(u32),
    /// The user blocked the bot or never started it.
    #[error("forbidden: {0}")]
    Forbidden(String),
    /// Network trouble or a 5xx: try again later.
    #[error("temporary failure: {0}")]
    Temporary(String),
    /// Telegram refused the request itself; retrying will not help.
    #[error("refused: {0}")]
    Refused(String),
}

/// One message of a delivery: a long text goes out as several, the photo with the first and the
/// buttons with the last.
#[derive(Debug, Clone, Copy)]
pub struct Part<'a> {
    pub chat: ChatId,
    pub photo: Option<&'a [u8]>,
    pub text: &'a str,
    pub buttons: &'a [Vec<(String, String)>],
}

/// Something that can send one message (the bot; a fake in unit tests). Returns the message id.
pub trait Outbox: Send + Sync {
    fn send(&self, part: &Part<'_>) -> impl Future<Output = Result<i64, SendError>> + Send;
}

/// The messages a delivery is sent as, cut the same way every time so a resumed delivery
/// continues where it stopped.
pub fn parts(d: &Delivery) -> Vec<String> {
    if d.photo.is_some() {
        render::split_with(&d.text, render::CAPTION_LIMIT, render::MESSAGE_LIMIT)
    } else {
        render::split(&d.text)
    }
}

const MAX_ATTEMPTS: i64 = 8;

/// Sends everything queued and due. `pace`: wait between sends (live only; replay never waits).
pub async fn deliver_queued(
    app: &App,
    outbox: &impl Outbox,
    pace: bool,
) -> Result<usize, ScheduleError> {
    let mut sent = 0;
    let mut last_chat: Option<(i64, std::time::Instant)> = None;
    for _round in 0..50 {
        let batch = app.store.queued_deliveries(app.clock.now(), 100).await?;
        if batch.is_empty() {
            break;
        }
        let mut progressed = false;
        for mut d in batch {
            loop {
                if pace {
                    // About 25 messages a second overall, and at most one a second into the same chat.
                    let mut wait = std::time::Duration::from_millis(40);
                    if let Some((c, t)) = last_chat
                        && c == d.chat_id.0
                    {
                        wait =
                            wait.max(std::time::Duration::from_secs(1).saturating_sub(t.elapsed()));
                    }
                    tokio::time::sleep(wait).await;
                }
                let now = app.clock.now();
                let texts = parts(&d);
                let k = (d.parts_sent.max(0) as usize).min(texts.len() - 1);
                let last = k + 1 == texts.len();
                let part = Part {
                    chat: d.chat_id,
                    photo: d.photo.as_deref().filter(|_| k == 0),
                    text: &texts[k],
                    buttons: if last { &d.buttons } else { &[] },
                };
                match outbox.send(&part).await {
                    Ok(_) if !last => {
                        app.store.mark_parts_sent(d.id, k as i64 + 1).await?;
                        d.parts_sent = k as i64 + 1;
                        last_chat = Some((d.chat_id.0, std::time::Instant::now()));
                        continue;
                    }
                    Ok(id) => {
                        let kind = if d.photo.is_some() {
                            "photo"
                        } else {
                            "message"
                        };
                        metrics::counter!("kept_sends_total", "kind" => kind, "outcome" => "sent")
                            .increment(1);
                        app.store.mark_sent(d.id, id, now).await?;
                        sent += 1;
                        progressed = true;
                        last_chat = Some((d.chat_id.0, std::time::Instant::now()));
                    }
                    Err(SendError::RetryAfter(s)) => {
                        metrics::counter!("kept_sends_total", "outcome" => "rate_limited")
                            .increment(1);
                        tracing::warn!(delivery = d.id, retry_after = s, "rate limited");
                        app.store
                            .retry_later(d.id, now + Duration::seconds(s.max(1) as i64), "429")
                            .await?;
                    }
                    Err(SendError::Forbidden(e)) => {
                        metrics::counter!("kept_sends_total", "outcome" => "forbidden")
                            .increment(1);
                        if let Some(u) = d.to_user {
                            app.store.set_dm_open(u, false).await?;
                        }
                        match (d.fallback_chat_id, d.fallback_text.clone()) {
                            (Some(chat), Some(text)) => {
                                tracing::info!(
                                    delivery = d.id,
                                    "private chat closed: falling back to the group"
                                );
                                app.store.redirect_delivery(d.id, chat, &text, &e).await?;
                                d.chat_id = chat;
                                d.text = text;
                                d.to_user = None;
                                d.fallback_chat_id = None;
                                d.fallback_text = None;
                                d.parts_sent = 0;
                                continue;
                            }
                            _ => {
                                tracing::warn!(
                                    delivery = d.id,
                                    "forbidden and no fallback: dropped"
                                );
                                app.store.mark_failed(d.id, &e).await?;
                            }
                        }
                    }
                    Err(SendError::Temporary(e)) if d.attempts + 1 < MAX_ATTEMPTS => {
                        metrics::counter!("kept_sends_total", "outcome" => "retry").increment(1);
                        let backoff = Duration::seconds(5 * (1 << d.attempts.min(6)));
                        tracing::warn!(delivery = d.id, error = %e, "send failed, will retry");
                        app.store.retry_later(d.id, now + backoff, &e).await?;
                    }
                    Err(e) => {
                        metrics::counter!("kept_sends_total", "outcome" => "failed").increment(1);
                        tracing::error!(delivery = d.id, error = %e, "send failed for good");
                        app.store.mark_failed(d.id, &e.to_string()).await?;
                    }
                }
                break;
            }
        }
        if !progressed {
            break;
        }
    }
    Ok(sent)
}
