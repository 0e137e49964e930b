//! A fake model API on loopback, for tests and demos of the LLM path: it answers both
//! OpenAI-compatible Chat Completions (`POST /v1/chat/completions`) and Anthropic's Messages API
//! (`POST /v1/messages`) with their real JSON shapes and error bodies, records every request,
//! and can be told to fail the next calls (429 with `retry-after`, 500, a slow answer, invalid
//! JSON, a refusal).
//!
//! With nothing scripted it plays a tiny, deterministic model: an answer quotes the context row
//! that shares most words with the question and cites it; a reflection counts the events; a
//! refinement finds no promise.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};
use tokio::sync::oneshot;

use super::SandboxError;

/// What the fake answers to the next request instead of its own answer.
#[derive(Debug, Clone, PartialEq)]
pub enum FakeReply {
    /// This JSON value as the structured answer.
    Json(Value),
    /// Raw text as the model's output (not JSON, for the parser's sake).
    Text(String),
    /// 429 with `retry-after` seconds.
    TooManyRequests { retry_after: u32 },
    /// 500 (Anthropic's shape for its API error).
    Internal,
    /// Anthropic's 529 "overloaded".
    Overloaded,
    /// 400 with the vendor's invalid-request body: never retried.
    BadRequest,
    /// Waits this long, then answers as usual (past the client's timeout, it never arrives).
    Slow(Duration),
    /// The model declines.
    Refusal,
}

/// One request the fake received.
#[derive(Debug, Clone)]
pub struct FakeRequest {
    /// `openai` or `anthropic`.
    pub api: &'static str,
    /// Whether a key was sent (the key itself is not kept).
    pub had_key: bool,
    pub body: Value,
}

impl FakeRequest {
    /// The schema the request asked for (`answer`, `reflection`, `refine`).
    pub fn schema(&self) -> String {
        schema_name(self)
    }

    /// All prompt text of the request (system and user turns).
    pub fn prompt(&self) -> String {
        let mut out = String::new();
        if let Some(s) = self.body["system"].as_str() {
            out.push_str(s);
            out.push('\n');
        }
        for m in self.body["messages"].as_array().into_iter().flatten() {
            if let Some(c) = m["content"].as_str() {
                out.push_str(c);
                out.push('\n');
            }
        }
        out
    }
}

#[derive(Debug, Default)]
struct Inner {
    /// (schema the reply is for, or any; the reply), in the order pushed.
    script: VecDeque<(Option<String>, FakeReply)>,
    requests: Vec<FakeRequest>,
}

/// A running fake model API. Dropping it stops the server.
pub struct FakeLlm {
    addr: SocketAddr,
    inner: Arc<Mutex<Inner>>,
    _stop: oneshot::Sender<()>,
}

fn lock(m: &Mutex<Inner>) -> std::sync::MutexGuard<'_, Inner> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl FakeLlm {
    pub async fn start() -> Result<FakeLlm, SandboxError> {
        let inner = Arc::new(Mutex::new(Inner::default()));
        let app = Router::new()
            .route("/v1/chat/completions", post(handle))
            .route("/v1/messages", post(handle))
            .with_state(inner.clone());
        let (addr, tx) = super::serve(app).await?;
        Ok(FakeLlm {
            addr,
            inner,
            _stop: tx,
        })
    }

    /// `base_url` for `provider = "openai"`.
    pub fn openai_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// `base_url` for `provider = "anthropic"`.
    pub fn anthropic_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Answers the next request with `reply` (in the order pushed).
    pub fn push(&self, reply: FakeReply) {
        lock(&self.inner).script.push_back((None, reply));
    }

    /// Answers the next request for this schema (`answer`, `reflection`, `refine`) with `reply`.
    pub fn push_for(&self, schema: &str, reply: FakeReply) {
        lock(&self.inner)
            .script
            .push_back((Some(schema.to_string()), reply));
    }

    pub fn requests(&self) -> Vec<FakeRequest> {
        lock(&self.inner).requests.clone()
    }
}

async fn handle(
    State(inner): State<Arc<Mutex<Inner>>>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let api = if uri.path().ends_with("/messages") {
        "anthropic"
    } else {
        "openai"
    };
    let had_key = headers.contains_key("x-api-key") || headers.contains_key("authorization");
    let Ok(body) = serde_json::from_slice::<Value>(&body) else {
        return error(
            api,
            StatusCode::BAD_REQUEST,
            "invalid_request_error",
            "body is not JSON",
        );
    };
    let req = FakeRequest { api, had_key, body };
    let schema = schema_name(&req);
    let next = {
        let mut g = lock(&inner);
        g.requests.push(req.clone());
        let at = g
            .script
            .iter()
            .position(|(s, _)| s.as_deref().is_none_or(|s| s == schema));
        at.and_then(|i| g.script.remove(i)).map(|(_, r)| r)
    };
    let reply = match next {
        Some(FakeReply::Slow(d)) => {
            tokio::time::sleep(d).await;
            None
        }
        other => other,
    };
    let usage_in = (req.prompt().chars().count() / 4) as i64 + 1;
    match reply {
        None => success(api, &Output::Json(default_answer(&req)), usage_in),
        Some(FakeReply::Json(v)) => success(api, &Output::Json(v), usage_in),
        Some(FakeReply::Text(t)) => success(api, &Output::Text(t), usage_in),
        Some(FakeReply::Refusal) => refusal(api, usage_in),
        Some(FakeReply::TooManyRequests { retry_after }) => {
            let mut r = error(
                api,
                StatusCode::TOO_MANY_REQUESTS,
                "rate_limit_error",
                "Rate limit reached",
            );
            if let Ok(v) = retry_after.to_string().parse() {
                r.headers_mut().insert("retry-after", v);
            }
            r
        }
        Some(FakeReply::Internal) => error(
            api,
            StatusCode::INTERNAL_SERVER_ERROR,
            "api_error",
            "Internal server error",
        ),
        Some(FakeReply::Overloaded) => error(
            api,
            StatusCode::from_u16(529).unwrap_or(StatusCode::SERVICE_UNAVAILABLE),
            "overloaded_error",
            "Overloaded",
        ),
        Some(FakeReply::BadRequest) => error(
            api,
            StatusCode::BAD_REQUEST,
            "invalid_request_error",
            "max_tokens: must be positive",
        ),
        Some(FakeReply::Slow(_)) => success(api, &Output::Json(default_answer(&req)), usage_in),
    }
}

enum Output {
    Json(Value),
    Text(String),
}

fn success(api: &str, out: &Output, usage_in: i64) -> Response {
    let text = match out {
        Output::Json(v) => v.to_string(),
        Output::Text(t) => t.clone(),
    };
    let usage_out = (text.chars().count() / 4) as i64 + 1;
    let body = if api == "anthropic" {
        let content = match out {
            Output::Json(v) => {
                json!([{"type": "tool_use", "id": "toolu_fake", "name": "answer", "input": v}])
            }
            Output::Text(t) => json!([{"type": "text", "text": t}]),
        };
        json!({"id": "msg_fake", "type": "message", "role": "assistant", "model": "fake",
               "content": content, "stop_reason": "tool_use", "stop_sequence": null,
               "usage": {"input_tokens": usage_in, "output_tokens": usage_out}})
    } else {
        json!({"id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": "fake",
               "choices": [{"index": 0, "finish_reason": "stop",
                            "message": {"role": "assistant", "content": text, "refusal": null}}],
               "usage": {"prompt_tokens": usage_in, "completion_tokens": usage_out,
                         "total_tokens": usage_in + usage_out}})
    };
    (StatusCode::OK, axum::Json(body)).into_response()
}

fn refusal(api: &str, usage_in: i64) -> Response {
    let body = if api == "anthropic" {
        json!({"id": "msg_fake", "type": "message", "role": "assistant", "model": "fake",
               "content": [], "stop_reason": "refusal", "stop_sequence": null,
               "usage": {"input_tokens": usage_in, "output_tokens": 0}})
    } else {
        json!({"id": "chatcmpl-fake", "object": "chat.completion", "created": 0, "model": "fake",
               "choices": [{"index": 0, "finish_reason": "stop",
                            "message": {"role": "assistant", "content": null,
                                        "refusal": "I can't help with that."}}],
               "usage": {"prompt_tokens": usage_in, "completion_tokens": 1, "total_tokens": usage_in + 1}})
    };
    (StatusCode::OK, axum::Json(body)).into_response()
}

fn error(api: &str, status: StatusCode, kind: &str, message: &str) -> Response {
    let body = if api == "anthropic" {
        json!({"type": "error", "error": {"type": kind, "message": message}})
    } else {
        json!({"error": {"message": message, "type": kind, "param": null, "code": null}})
    };
    (status, axum::Json(body)).into_response()
}

/// The schema the request asked for.
pub fn schema_name(req: &FakeRequest) -> String {
    let b = &req.body;
    b["response_format"]["json_schema"]["name"]
        .as_str()
        .or_else(|| b["tool_choice"]["name"].as_str())
        .unwrap_or("")
        .to_string()
}

fn user_text(req: &FakeRequest) -> String {
    req.body["messages"]
        .as_array()
        .and_then(|m| m.last())
        .and_then(|m| m["content"].as_str())
        .unwrap_or("")
        .to_string()
}

fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() > 3)
        .map(|w| w.to_lowercase())
        .collect()
}

/// The fake model's own answer, valid for the schema asked.
fn default_answer(req: &FakeRequest) -> Value {
    let user = user_text(req);
    match schema_name(req).as_str() {
        "reflection" => {
            let events = user.lines().filter(|l| l.starts_with("- ")).count();
            json!({"summary": format!("{events} events today."), "highlights": [],
                   "commitments": [], "risks": [], "observations": []})
        }
        "refine" => json!({"verdicts": []}),
        _ => {
            let question = user.rsplit("# Question").next().unwrap_or("").to_string();
            let q = words(&question);
            // The cited row sharing most words with the question (the first on a tie).
            let best = user
                .lines()
                .filter(|l| l.contains("[m:") || l.contains("[msg:"))
                .map(|l| {
                    let shared = words(l).iter().filter(|w| q.contains(w)).count();
                    (shared, l)
                })
                .fold(None::<(usize, &str)>, |acc, (n, l)| match acc {
                    Some((m, _)) if m >= n => acc,
                    _ => Some((n, l)),
                });
            match best {
                Some((_, line)) => {
                    let line = line.trim_start_matches(['-', ' ']);
                    let (marker, rest) = match line.find(']') {
                        Some(i) => (&line[..=i], line[i + 1..].trim()),
                        None => ("", line),
                    };
                    json!({"answer": format!("{rest} {marker}")})
                }
                None => json!({"answer": "Nothing in the rows answers this."}),
            }
        }
    }
}
