//! A small Telegram Bot API server on loopback, for `kept demo`, `kept replay` and tests.
//!
//! It answers with the Bot API's real JSON shapes (teloxide parses them strictly), records every
//! request the bot makes as a transcript entry stamped by the driven clock, and can be told to
//! fail (429 with `retry_after`, 403 for a blocked user, 500) to test error paths.

pub mod llm;
mod multipart;

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use chrono::{DateTime, Utc};
use serde_json::{Value, json};
use tokio::sync::oneshot;

use crate::clock::SharedClock;

/// The sandbox bot's identity.
pub const BOT_ID: i64 = 999_000;
pub const BOT_USERNAME: &str = "kept_bot";
/// The token the sandbox accepts.
pub const TOKEN: &str = "999000:sandbox-token";

#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("cannot bind the sandbox Bot API on loopback")]
    Bind(#[source] std::io::Error),
}

/// One thing the bot did, as the transcript shows it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Sent {
    pub at: DateTime<Utc>,
    pub chat: i64,
    pub kind: &'static str,
    pub text: String,
    pub reply_to: Option<i64>,
    pub buttons: Vec<String>,
    pub message_id: Option<i64>,
}

/// A failure the sandbox answers instead of success, for the next matching request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// 429 with `retry_after` seconds.
    TooManyRequests { retry_after: u32 },
    /// 403 "bot was blocked by the user".
    Blocked,
    /// 500.
    Internal,
}

/// Inline buttons as (label, callback data).
type Buttons = Vec<(String, String)>;

#[derive(Debug, Default)]
struct Inner {
    next_message_id: i64,
    sent: Vec<Sent>,
    chats: HashMap<i64, Value>,
    /// Failures to answer, per chat id, in order.
    failures: HashMap<i64, VecDeque<Failure>>,
    /// Chats whose user blocked the bot: every send gets 403.
    blocked: Vec<i64>,
    updates: VecDeque<Value>,
    next_update_id: i64,
    /// Set by setWebhook: where updates are posted, with the secret Telegram sends back.
    webhook: Option<(String, Option<String>)>,
    calls: Vec<String>,
    /// getMe says the bot cannot read all group messages (@BotFather's privacy mode on).
    privacy_mode: bool,
    /// Each bot message as it stands now: (chat, message id) → (text, buttons as (label, data)),
    /// replaced by edits, so a button pressed away is gone.
    shown: HashMap<(i64, i64), (String, Buttons)>,
}

/// A running sandbox. Dropping it stops the server.
pub struct Sandbox {
    addr: SocketAddr,
    inner: Arc<Mutex<Inner>>,
    _stop: oneshot::Sender<()>,
}

#[derive(Clone)]
struct Shared {
    inner: Arc<Mutex<Inner>>,
    clock: SharedClock,
}

fn lock(m: &Mutex<Inner>) -> std::sync::MutexGuard<'_, Inner> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Sandbox {
    /// Starts the server on 127.0.0.1 with a free port.
    pub async fn start(clock: SharedClock) -> Result<Sandbox, SandboxError> {
        let inner = Arc::new(Mutex::new(Inner {
            next_message_id: 1_000_000,
            next_update_id: 1,
            ..Inner::default()
        }));
        let shared = Shared {
            inner: inner.clone(),
            clock,
        };
        let app = Router::new()
            .route("/{bot}/{method}", any(handle))
            .with_state(shared);
        let (addr, tx) = serve(app).await?;
        Ok(Sandbox {
            addr,
            inner,
            _stop: tx,
        })
    }

    /// The base URL to give teloxide (`Bot::set_api_url`).
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Tells the sandbox what a chat looks like, so replies carry the right chat object.
    pub fn register_chat(&self, chat: Value) {
        if let Some(id) = chat.get("id").and_then(Value::as_i64) {
            lock(&self.inner).chats.insert(id, chat);
        }
    }

    pub fn fail_next(&self, chat: i64, failure: Failure) {
        lock(&self.inner)
            .failures
            .entry(chat)
            .or_default()
            .push_back(failure);
    }

    /// Every send to this chat answers 403 from now on.
    pub fn block(&self, chat: i64) {
        lock(&self.inner).blocked.push(chat);
    }

    /// Queues an update for `getUpdates`, or, once the bot set a webhook, posts it there as
    /// Telegram does (with the `X-Telegram-Bot-Api-Secret-Token` header); the sandbox assigns
    /// the update id.
    pub fn push_update(&self, mut update: Value) {
        let mut g = lock(&self.inner);
        if let Some(o) = update.as_object_mut() {
            o.insert("update_id".into(), json!(g.next_update_id));
        }
        g.next_update_id += 1;
        match g.webhook.clone() {
            Some((url, secret)) => {
                tokio::spawn(post_update(url, secret, update));
            }
            None => g.updates.push_back(update),
        }
    }

    /// The webhook the bot set, if any: (url, secret token).
    pub fn webhook(&self) -> Option<(String, Option<String>)> {
        lock(&self.inner).webhook.clone()
    }

    /// From now on getMe answers as for a bot whose privacy mode is on (or off again).
    pub fn set_privacy_mode(&self, on: bool) {
        lock(&self.inner).privacy_mode = on;
    }

    /// Everything the bot did so far, in order.
    pub fn sent(&self) -> Vec<Sent> {
        lock(&self.inner).sent.clone()
    }

    /// What the bot sent after the first `from` sends (a replay shows each send once, so it
    /// takes only the new ones instead of copying the whole list after every update).
    pub fn sent_since(&self, from: usize) -> Vec<Sent> {
        lock(&self.inner)
            .sent
            .get(from..)
            .map(<[Sent]>::to_vec)
            .unwrap_or_default()
    }

    /// The bot message in `chat` that carries a button labelled `label` (compared by
    /// [`button_key`]): the one with id `message` when given, else the latest. Returns the
    /// message id, its text and the button's callback data.
    pub fn find_button(
        &self,
        chat: i64,
        label: &str,
        message: Option<i64>,
    ) -> Option<(i64, String, String)> {
        let key = button_key(label);
        let g = lock(&self.inner);
        let mut ids: Vec<i64> = g
            .shown
            .keys()
            .filter(|(c, id)| *c == chat && message.is_none_or(|m| m == *id))
            .map(|(_, id)| *id)
            .collect();
        ids.sort_unstable_by(|a, b| b.cmp(a));
        ids.iter().find_map(|id| {
            let (text, buttons) = g.shown.get(&(chat, *id))?;
            let (_, data) = buttons.iter().find(|(l, _)| button_key(l) == key)?;
            Some((*id, text.clone(), data.clone()))
        })
    }

    /// The chat object the sandbox answers for `id` (as registered, else a plain one).
    pub fn chat_json(&self, id: i64) -> Value {
        chat_object(&lock(&self.inner), id)
    }

    /// Method names called so far (lower-cased), in order.
    pub fn calls(&self) -> Vec<String> {
        lock(&self.inner).calls.clone()
    }
}

/// Serves `app` on 127.0.0.1 with a free port until the returned sender is dropped.
async fn serve(app: Router) -> Result<(SocketAddr, oneshot::Sender<()>), SandboxError> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(SandboxError::Bind)?;
    let addr = listener.local_addr().map_err(SandboxError::Bind)?;
    let (tx, rx) = oneshot::channel::<()>();
    tokio::spawn(async move {
        let _ = axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = rx.await;
            })
            .await;
    });
    Ok((addr, tx))
}

/// Delivers one update to a webhook, retrying briefly like Telegram while the server starts.
async fn post_update(url: String, secret: Option<String>, update: Value) {
    let client = reqwest::Client::new();
    for _ in 0..50 {
        let mut req = client.post(&url).json(&update);
        if let Some(s) = &secret {
            req = req.header("X-Telegram-Bot-Api-Secret-Token", s);
        }
        if req.send().await.is_ok_and(|r| r.status().is_success()) {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// The bot's `User` object, in full.
pub fn bot_user() -> Value {
    json!({"id": BOT_ID, "is_bot": true, "first_name": "kept", "username": BOT_USERNAME})
}

fn ok(result: Value) -> Response {
    (
        StatusCode::OK,
        axum::Json(json!({"ok": true, "result": result})),
    )
        .into_response()
}

fn err(code: u16, description: &str, retry_after: Option<u32>) -> Response {
    let mut body = json!({"ok": false, "error_code": code, "description": description});
    if let Some(r) = retry_after {
        body["parameters"] = json!({"retry_after": r});
    }
    let status = StatusCode::from_u16(code).unwrap_or(StatusCode::BAD_REQUEST);
    (status, axum::Json(body)).into_response()
}

fn params(headers: &HeaderMap, body: &Bytes) -> Value {
    let ctype = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if ctype.starts_with("multipart/form-data") {
        return multipart::fields(ctype, body);
    }
    if body.is_empty() {
        return json!({});
    }
    serde_json::from_slice(body).unwrap_or_else(|_| json!({}))
}

fn chat_id(p: &Value) -> Option<i64> {
    match p.get("chat_id")? {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

/// Every inline button of a markup as (label, callback data if any), row by row.
fn buttons(markup: Option<&Value>) -> Vec<(String, Option<String>)> {
    markup_value(markup)
        .and_then(|m| m.get("inline_keyboard").cloned())
        .and_then(|rows| rows.as_array().cloned())
        .unwrap_or_default()
        .iter()
        .filter_map(Value::as_array)
        .flatten()
        .filter_map(|b| {
            let label = b.get("text")?.as_str()?.to_string();
            let data = b
                .get("callback_data")
                .and_then(Value::as_str)
                .map(str::to_string);
            Some((label, data))
        })
        .collect()
}

fn button_labels(markup: Option<&Value>) -> Vec<String> {
    buttons(markup)
        .into_iter()
        .map(|(label, _)| label)
        .collect()
}

/// The (label, callback data) of every inline button that has callback data.
fn button_data(markup: Option<&Value>) -> Buttons {
    buttons(markup)
        .into_iter()
        .filter_map(|(label, data)| Some((label, data?)))
        .collect()
}

/// A button label as a person names it: no emoji or symbols, no surrounding spaces, any case,
/// ё as е ("✅ Готово" → "готово").
pub fn button_key(label: &str) -> String {
    let kept: String = label
        .chars()
        .filter(|c| (*c as u32) < 0x2190 && *c != '\u{200d}')
        .flat_map(char::to_lowercase)
        .map(|c| if c == 'ё' { 'е' } else { c })
        .collect();
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn markup_value(markup: Option<&Value>) -> Option<Value> {
    match markup? {
        Value::String(s) => serde_json::from_str(s).ok(),
        v => Some(v.clone()),
    }
}

fn reply_to_of(p: &Value) -> Option<i64> {
    if let Some(id) = p.get("reply_to_message_id").and_then(Value::as_i64) {
        return Some(id);
    }
    let rp = match p.get("reply_parameters")? {
        Value::String(s) => serde_json::from_str(s).ok()?,
        v => v.clone(),
    };
    rp.get("message_id").and_then(Value::as_i64)
}

/// Telegram counts a text's length after parsing its entities, in UTF-16 code units.
fn too_long(text: &str, parse_mode: Option<&Value>, limit: usize) -> bool {
    let html = parse_mode.and_then(Value::as_str) == Some("HTML");
    let shown = if html {
        crate::render::visible(text)
    } else {
        text.to_string()
    };
    shown.encode_utf16().count() > limit
}

fn chat_object(inner: &Inner, id: i64) -> Value {
    inner.chats.get(&id).cloned().unwrap_or_else(|| {
        if id > 0 {
            json!({"id": id, "type": "private", "first_name": "user"})
        } else {
            json!({"id": id, "type": "supergroup", "title": "group"})
        }
    })
}

async fn handle(
    State(s): State<Shared>,
    Path((bot, method)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if bot != format!("bot{TOKEN}") {
        return err(401, "Unauthorized", None);
    }
    let method = method.to_ascii_lowercase();
    let p = params(&headers, &body);
    let now = s.clock.now();
    if method == "getupdates" {
        let updates: Vec<Value> = {
            let mut g = lock(&s.inner);
            g.calls.push(method.clone());
            if g.webhook.is_some() {
                return err(
                    409,
                    "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
                    None,
                );
            }
            let offset = p.get("offset").and_then(Value::as_i64).unwrap_or(0);
            g.updates
                .retain(|u| u.get("update_id").and_then(Value::as_i64).unwrap_or(0) >= offset);
            g.updates.iter().cloned().collect()
        };
        if updates.is_empty() {
            // Long polling: hold an empty answer briefly instead of letting the client spin.
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        return ok(Value::Array(updates));
    }
    let mut g = lock(&s.inner);
    g.calls.push(method.clone());
    let chat = chat_id(&p);
    if let Some(c) = chat {
        let sends = matches!(
            method.as_str(),
            "sendmessage"
                | "sendphoto"
                | "senddocument"
                | "editmessagetext"
                | "editmessagereplymarkup"
                | "setmessagereaction"
        );
        if sends && g.blocked.contains(&c) {
            return err(403, "Forbidden: bot was blocked by the user", None);
        }
        if sends && let Some(f) = g.failures.get_mut(&c).and_then(VecDeque::pop_front) {
            return match f {
                Failure::TooManyRequests { retry_after } => err(
                    429,
                    &format!("Too Many Requests: retry after {retry_after}"),
                    Some(retry_after),
                ),
                Failure::Blocked => err(403, "Forbidden: bot was blocked by the user", None),
                Failure::Internal => err(500, "Internal Server Error", None),
            };
        }
    }
    match method.as_str() {
        "getme" => ok(json!({
            "id": BOT_ID, "is_bot": true, "first_name": "kept", "username": BOT_USERNAME,
            "can_join_groups": true, "can_read_all_group_messages": !g.privacy_mode,
            "supports_inline_queries": false, "can_connect_to_business": false,
            "has_main_web_app": false
        })),
        "senddocument" => {
            let Some(c) = chat else {
                return err(400, "Bad Request: chat_id is empty", None);
            };
            let caption = p
                .get("caption")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            if too_long(&caption, p.get("parse_mode"), 1024) {
                return err(400, "Bad Request: message caption is too long", None);
            }
            let id = g.next_message_id;
            g.next_message_id += 1;
            let reply_to = reply_to_of(&p);
            // The transcript shows the caption and then the file, as a reader opening it would.
            let file = p.get("_document").and_then(Value::as_str).unwrap_or("");
            g.sent.push(Sent {
                at: now,
                chat: c,
                kind: "document",
                text: format!("{caption}\n\n{file}"),
                reply_to,
                buttons: Vec::new(),
                message_id: Some(id),
            });
            ok(json!({
                "message_id": id, "from": bot_user(), "chat": chat_object(&g, c),
                "date": now.timestamp(), "caption": caption,
                "document": {"file_id": format!("doc-{id}"), "file_unique_id": format!("d{id}"),
                             "file_name": "export.md", "mime_type": "text/markdown", "file_size": 1},
            }))
        }
        "sendmessage" | "sendphoto" => {
            let Some(c) = chat else {
                return err(400, "Bad Request: chat_id is empty", None);
            };
            let photo = method == "sendphoto";
            let text = p
                .get(if photo { "caption" } else { "text" })
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            if !photo && text.trim().is_empty() {
                return err(400, "Bad Request: message text is empty", None);
            }
            if too_long(&text, p.get("parse_mode"), if photo { 1024 } else { 4096 }) {
                let what = if photo { "message caption" } else { "message" };
                return err(400, &format!("Bad Request: {what} is too long"), None);
            }
            let id = g.next_message_id;
            g.next_message_id += 1;
            let reply_to = reply_to_of(&p);
            g.shown
                .insert((c, id), (text.clone(), button_data(p.get("reply_markup"))));
            g.sent.push(Sent {
                at: now,
                chat: c,
                kind: if photo { "photo" } else { "message" },
                text: text.clone(),
                reply_to,
                buttons: button_labels(p.get("reply_markup")),
                message_id: Some(id),
            });
            let mut m = json!({
                "message_id": id, "from": bot_user(), "chat": chat_object(&g, c),
                "date": now.timestamp(),
            });
            if photo {
                m["photo"] = json!([{"file_id": format!("photo-{id}"), "file_unique_id": format!("u{id}"),
                                     "width": 800, "height": 450, "file_size": 1}]);
                m["caption"] = json!(text);
            } else {
                m["text"] = json!(text);
            }
            if let Some(mk) = markup_value(p.get("reply_markup")) {
                m["reply_markup"] = mk;
            }
            ok(m)
        }
        "editmessagetext" => {
            let Some(c) = chat else {
                return err(400, "Bad Request: chat_id is empty", None);
            };
            let text = p
                .get("text")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            if text.trim().is_empty() {
                return err(400, "Bad Request: message text is empty", None);
            }
            if too_long(&text, p.get("parse_mode"), 4096) {
                return err(400, "Bad Request: MESSAGE_TOO_LONG", None);
            }
            let id = p.get("message_id").and_then(Value::as_i64).unwrap_or(0);
            g.shown
                .insert((c, id), (text.clone(), button_data(p.get("reply_markup"))));
            g.sent.push(Sent {
                at: now,
                chat: c,
                kind: "edit",
                text: text.clone(),
                reply_to: None,
                buttons: button_labels(p.get("reply_markup")),
                message_id: Some(id),
            });
            let mut m = json!({
                "message_id": id, "from": bot_user(), "chat": chat_object(&g, c),
                "date": now.timestamp(), "edit_date": now.timestamp(), "text": text,
            });
            if let Some(mk) = markup_value(p.get("reply_markup")) {
                m["reply_markup"] = mk;
            }
            ok(m)
        }
        "editmessagereplymarkup" => {
            let Some(c) = chat else {
                return err(400, "Bad Request: chat_id is empty", None);
            };
            let id = p.get("message_id").and_then(Value::as_i64).unwrap_or(0);
            if let Some(shown) = g.shown.get_mut(&(c, id)) {
                shown.1 = button_data(p.get("reply_markup"));
            }
            g.sent.push(Sent {
                at: now,
                chat: c,
                kind: "edit",
                text: String::new(),
                reply_to: None,
                buttons: button_labels(p.get("reply_markup")),
                message_id: Some(id),
            });
            let mut m = json!({
                "message_id": id, "from": bot_user(), "chat": chat_object(&g, c),
                "date": now.timestamp(), "edit_date": now.timestamp(), "text": "",
            });
            if let Some(mk) = markup_value(p.get("reply_markup")) {
                m["reply_markup"] = mk;
            }
            ok(m)
        }
        "setmessagereaction" => {
            let c = chat.unwrap_or(0);
            let id = p.get("message_id").and_then(Value::as_i64);
            g.sent.push(Sent {
                at: now,
                chat: c,
                kind: "reaction",
                text: String::new(),
                reply_to: id,
                buttons: Vec::new(),
                message_id: id,
            });
            ok(json!(true))
        }
        "answercallbackquery"
            if p.get("text")
                .and_then(Value::as_str)
                .is_some_and(|t| t.chars().count() > 200) =>
        {
            err(400, "Bad Request: MESSAGE_TOO_LONG", None)
        }
        "setwebhook" => {
            let Some(url) = p.get("url").and_then(Value::as_str) else {
                return err(
                    400,
                    "Bad Request: bad webhook: an HTTPS URL must be provided for webhook",
                    None,
                );
            };
            let secret = p
                .get("secret_token")
                .and_then(Value::as_str)
                .map(str::to_string);
            g.webhook = Some((url.to_string(), secret.clone()));
            // Updates that waited for getUpdates now go to the webhook.
            let pending: Vec<Value> = g.updates.drain(..).collect();
            for u in pending {
                tokio::spawn(post_update(url.to_string(), secret.clone(), u));
            }
            ok(json!(true))
        }
        "deletewebhook" => {
            g.webhook = None;
            ok(json!(true))
        }
        "answercallbackquery" | "setmycommands" | "deletemycommands" => ok(json!(true)),
        "getwebhookinfo" => {
            let url = g
                .webhook
                .as_ref()
                .map(|(u, _)| u.clone())
                .unwrap_or_default();
            ok(json!({"url": url, "has_custom_certificate": false, "pending_update_count": 0}))
        }
        _ => err(404, "Not Found: method not found", None),
    }
}
