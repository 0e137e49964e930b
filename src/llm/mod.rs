//! The optional model (DESIGN section 6): one provider trait, the Anthropic Messages API and
//! OpenAI-compatible Chat Completions behind it, structured output parsed into typed values,
//! retries, and the daily token budget. With no model configured nothing here runs.
//!
//! Every caller has a rule path to fall back to: any [`LlmError`] means "answer by rules".

mod anthropic;
mod openai;
pub mod prompts;

use std::future::Future;
use std::io::Write as _;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Mutex;
use std::time::Duration;

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use serde::de::DeserializeOwned;

use crate::config::{LlmProvider, LlmSettings};
use crate::domain::OrgId;
use crate::store::{NewDelivery, Store, StoreError};

#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    #[error("the day's token budget for the model is spent")]
    BudgetSpent,
    #[error("the model API answered {status}: {message}")]
    Status { status: u16, message: String },
    #[error("the model API did not answer within {0} s")]
    Timeout(u64),
    #[error("cannot reach the model API")]
    Transport(#[source] reqwest::Error),
    #[error("the model declined to answer: {0}")]
    Refused(String),
    #[error("the model's answer is not the JSON asked for: {0}")]
    Invalid(String),
    #[error("storage")]
    Store(#[from] StoreError),
    #[error("cannot build the HTTP client")]
    Client(#[source] reqwest::Error),
}

/// What one call asks: instructions, the material, and the JSON Schema of the answer.
#[derive(Debug, Clone)]
pub struct Request {
    pub system: String,
    pub user: String,
    /// The schema's name (a tool name for Anthropic): letters, digits and `_`.
    pub schema_name: &'static str,
    pub schema: serde_json::Value,
    pub max_tokens: u32,
}

/// Token counts from the provider's usage fields.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    pub input: i64,
    pub output: i64,
}

/// The model's answer: the JSON text it produced.
#[derive(Debug, Clone)]
pub struct Completion {
    pub json: String,
    pub usage: Usage,
}

/// Why one HTTP exchange failed, with what a retry needs to know.
#[derive(Debug)]
pub struct CallError {
    pub error: LlmError,
    /// `retry-after`, when the server sent one.
    pub retry_after: Option<Duration>,
    /// Tokens the server says it spent anyway.
    pub usage: Usage,
}

impl CallError {
    fn new(error: LlmError) -> CallError {
        CallError {
            error,
            retry_after: None,
            usage: Usage::default(),
        }
    }

    /// 429, 5xx (Anthropic's 529 "overloaded" too), a timeout or a dropped connection.
    fn retryable(&self) -> bool {
        match &self.error {
            LlmError::Status { status, .. } => *status == 429 || *status >= 500,
            LlmError::Timeout(_) | LlmError::Transport(_) => true,
            _ => false,
        }
    }
}

pub type CallFuture<'a> = Pin<Box<dyn Future<Output = Result<Completion, CallError>> + Send + 'a>>;

/// One model API. Implementations speak one wire format and nothing else.
pub trait Provider: Send + Sync + std::fmt::Debug {
    fn complete<'a>(&'a self, req: &'a Request) -> CallFuture<'a>;
}

/// Where and as whom a provider calls.
#[derive(Debug)]
pub struct Endpoint {
    client: reqwest::Client,
    /// The API root (`https://api.openai.com/v1`, `https://api.anthropic.com`, a local server's).
    base: String,
    model: String,
    key: Option<crate::config::Secret>,
    timeout_s: u64,
}

/// A typed answer: its schema, and the checks serde cannot make.
pub trait Structured: DeserializeOwned {
    const NAME: &'static str;
    fn schema() -> serde_json::Value;
    fn check(&self) -> Result<(), String> {
        Ok(())
    }
}

/// The configured model with its retries, budget and prompt log.
#[derive(Debug)]
pub struct Llm {
    provider: Box<dyn Provider>,
    settings: LlmSettings,
    prompt_log: Option<Mutex<std::fs::File>>,
}

/// Whose budget a call spends, and when (the org's local day counts).
#[derive(Debug, Clone, Copy)]
pub struct Caller<'a> {
    pub store: &'a Store,
    pub org: OrgId,
    pub tz: Tz,
    pub now: DateTime<Utc>,
}

/// Who hears that the budget ran out, and in which words.
pub struct BudgetNotice {
    pub deliveries: Vec<NewDelivery>,
}

impl Llm {
    /// The model of `[llm]`; `None` when the provider is `none`.
    pub fn from_settings(settings: &LlmSettings) -> Result<Option<Llm>, LlmError> {
        let client = reqwest::Client::builder()
            .timeout(Duration::from_secs(settings.timeout_s))
            .connect_timeout(Duration::from_secs(settings.timeout_s.min(10)))
            .build()
            .map_err(LlmError::Client)?;
        let base = settings.base_url();
        let model = settings.model.clone().unwrap_or_default();
        let key = settings.api_key.clone();
        let endpoint = Endpoint {
            client,
            base,
            model,
            key,
            timeout_s: settings.timeout_s,
        };
        let provider: Box<dyn Provider> = match settings.provider {
            LlmProvider::None => return Ok(None),
            LlmProvider::Openai => Box::new(openai::OpenAi(endpoint)),
            LlmProvider::Anthropic => Box::new(anthropic::Anthropic(endpoint)),
        };
        let prompt_log = match &settings.prompt_log {
            Some(path) => Some(Mutex::new(open_log(path).map_err(|e| {
                LlmError::Invalid(format!(
                    "cannot open llm.prompt_log {}: {e}",
                    path.display()
                ))
            })?)),
            None => None,
        };
        Ok(Some(Llm {
            provider,
            settings: settings.clone(),
            prompt_log,
        }))
    }

    pub fn settings(&self) -> &LlmSettings {
        &self.settings
    }

    /// Asks for a `T`: checks the org's budget for today, calls with retries, counts the tokens,
    /// parses and checks the answer. Any error means: use the rule path.
    pub async fn ask<T: Structured>(
        &self,
        on: Caller<'_>,
        system: String,
        user: String,
        notice: impl FnOnce() -> BudgetNotice,
    ) -> Result<T, LlmError> {
        let Caller {
            store,
            org,
            tz,
            now,
        } = on;
        let day = now.with_timezone(&tz).date_naive();
        let budget = self.settings.daily_token_budget as i64;
        if budget > 0 && store.llm_usage(org, day).await?.tokens() >= budget {
            let notice = notice();
            store
                .tell_budget_spent(org, day, &notice.deliveries, now)
                .await?;
            return Err(LlmError::BudgetSpent);
        }
        let req = Request {
            system,
            user,
            schema_name: T::NAME,
            schema: T::schema(),
            max_tokens: self.settings.max_tokens,
        };
        self.log_prompt(org, &req);
        let mut attempt = 0;
        let result = loop {
            match self.provider.complete(&req).await {
                Ok(c) => break Ok(c),
                Err(e) => {
                    store
                        .record_llm_call(org, day, e.usage.input, e.usage.output, true)
                        .await?;
                    let wait = e
                        .retry_after
                        .unwrap_or_else(|| Duration::from_millis(250 << attempt.min(6)));
                    if !e.retryable()
                        || attempt >= self.settings.retries
                        || wait > Duration::from_secs(self.settings.max_retry_wait_s)
                    {
                        break Err(e.error);
                    }
                    tracing::warn!(error = %e.error, attempt, "model call failed; retrying");
                    tokio::time::sleep(wait).await;
                    attempt += 1;
                }
            }
        };
        let completion = result?;
        let parsed = parse_json::<T>(&completion.json).and_then(|v| {
            v.check().map_err(LlmError::Invalid)?;
            Ok(v)
        });
        store
            .record_llm_call(
                org,
                day,
                completion.usage.input,
                completion.usage.output,
                parsed.is_err(),
            )
            .await?;
        if let Err(e) = &parsed {
            tracing::warn!(error = %e, "model answer rejected; rules answer instead");
        }
        parsed
    }

    fn log_prompt(&self, org: OrgId, req: &Request) {
        // Message text: debug level only, never info.
        tracing::debug!(org = org.0, schema = req.schema_name, prompt = %req.user, "model prompt");
        if let Some(file) = &self.prompt_log {
            let line = serde_json::json!({
                "org": org.0, "schema": req.schema_name, "system": req.system, "user": req.user,
            });
            if let Ok(mut f) = file.lock() {
                let _ = writeln!(f, "{line}");
            }
        }
    }
}

fn open_log(path: &PathBuf) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
}

/// The JSON value in a model's text: as is, or inside a code fence or surrounding words.
pub fn parse_json<T: DeserializeOwned>(text: &str) -> Result<T, LlmError> {
    let t = text.trim();
    if let Ok(v) = serde_json::from_str::<T>(t) {
        return Ok(v);
    }
    let (Some(start), Some(end)) = (t.find('{'), t.rfind('}')) else {
        return Err(LlmError::Invalid("no JSON object in the answer".into()));
    };
    if end < start {
        return Err(LlmError::Invalid("no JSON object in the answer".into()));
    }
    serde_json::from_str::<T>(&t[start..=end]).map_err(|e| LlmError::Invalid(e.to_string()))
}

/// A provider error body's message, whatever the vendor's shape.
fn error_message(body: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(body).unwrap_or_default();
    v["error"]["message"]
        .as_str()
        .or_else(|| v["error"].as_str())
        .or_else(|| v["message"].as_str())
        .map(str::to_string)
        .unwrap_or_else(|| body.chars().take(200).collect())
}

/// `retry-after` in seconds (the only form the model APIs send).
fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    headers
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(|s| Duration::from_secs_f64(s.min(3600.0)))
}

/// The shared tail of both providers: status, body, timeout → a completion or a [`CallError`].
async fn send(
    request: reqwest::RequestBuilder,
    timeout_s: u64,
) -> Result<(serde_json::Value, reqwest::header::HeaderMap), CallError> {
    let response = request.send().await.map_err(|e| {
        CallError::new(if e.is_timeout() {
            LlmError::Timeout(timeout_s)
        } else {
            LlmError::Transport(e)
        })
    })?;
    let status = response.status();
    let headers = response.headers().clone();
    let body = response.text().await.map_err(|e| {
        CallError::new(if e.is_timeout() {
            LlmError::Timeout(timeout_s)
        } else {
            LlmError::Transport(e)
        })
    })?;
    if !status.is_success() {
        return Err(CallError {
            error: LlmError::Status {
                status: status.as_u16(),
                message: error_message(&body),
            },
            retry_after: retry_after(&headers),
            usage: Usage::default(),
        });
    }
    let value: serde_json::Value = serde_json::from_str(&body).map_err(|e| {
        CallError::new(LlmError::Invalid(format!(
            "the API's response is not JSON: {e}"
        )))
    })?;
    Ok((value, headers))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[derive(Debug, serde::Deserialize, PartialEq)]
    struct A {
        answer: String,
    }

    #[test]
    fn json_is_found_in_fences_and_words() {
        for text in [
            r#"{"answer": "да"}"#,
            "```json\n{\"answer\": \"да\"}\n```",
            "Here you go: {\"answer\": \"да\"} hope it helps",
        ] {
            assert_eq!(parse_json::<A>(text).unwrap().answer, "да", "{text}");
        }
        assert!(parse_json::<A>("no json").is_err());
        assert!(parse_json::<A>("} {").is_err());
        assert!(parse_json::<A>(r#"{"answer": 3}"#).is_err());
    }

    #[test]
    fn error_bodies_of_both_vendors_give_their_message() {
        assert_eq!(
            error_message(r#"{"error": {"message": "Rate limit reached", "type": "requests"}}"#),
            "Rate limit reached"
        );
        assert_eq!(
            error_message(
                r#"{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}"#
            ),
            "Overloaded"
        );
        assert_eq!(
            error_message("<html>bad gateway</html>"),
            "<html>bad gateway</html>"
        );
    }

    proptest! {
        #[test]
        fn parsing_any_text_never_panics(text in "\\PC{0,300}") {
            let _ = parse_json::<A>(&text);
            let _ = error_message(&text);
        }
    }
}
