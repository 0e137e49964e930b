//! The model's second look at messages the rules were unsure of (see
//! [`doubt`](crate::extract::commitments::doubt)): ingest queues them in the rules' own
//! transaction; this job sends the oldest, in batches, with the message each replies to, and
//! applies the model's typed verdict. It never blocks ingest: the live bot runs it in a task of
//! its own, a replay after each event.
//!
//! A verdict may add a promise the rules missed (author `agent:llm`, confidence 0.7), give a
//! vague one the work it names, or withdraw one the rules took that the model says is none
//! (cancelled, author `agent:llm`). A person's own correction is never overridden: only rows
//! still written by the rules are changed.

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::answer::free::budget_notice;
use crate::app::App;
use crate::domain::{Author, CommitmentState, Confidence, Lang, OrgId, Visibility};
use crate::extract::dates;
use crate::ingest::evidence;
use crate::llm::{Caller, LlmError, Structured, prompts};
use crate::store::{CommitmentChange, NewCommitment, RefineItem, StoreError};

#[derive(Debug, thiserror::Error)]
pub enum RefineError {
    #[error("storage")]
    Store(#[from] StoreError),
}

/// How many messages one call judges.
pub const BATCH: i64 = 8;
const MESSAGE_CHARS: usize = 500;

#[derive(Debug, Deserialize)]
pub struct Verdicts {
    pub verdicts: Vec<Verdict>,
}

#[derive(Debug, Deserialize)]
pub struct Verdict {
    /// The message's number in the prompt (from 1).
    pub n: i64,
    pub promise: bool,
    /// The work, as a short phrase ("send the deck").
    pub work: String,
    /// The deadline words as written, or "".
    pub deadline: String,
}

impl Structured for Verdicts {
    const NAME: &'static str = "refine";
    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {"verdicts": {"type": "array", "maxItems": BATCH, "items": {
                "type": "object",
                "properties": {
                    "n": {"type": "integer", "minimum": 1, "maximum": BATCH},
                    "promise": {"type": "boolean"},
                    "work": {"type": "string", "maxLength": 120},
                    "deadline": {"type": "string", "maxLength": 60},
                },
                "required": ["n", "promise", "work", "deadline"],
                "additionalProperties": false,
            }}},
            "required": ["verdicts"],
            "additionalProperties": false,
        })
    }
}

/// What the job did with one batch.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Applied {
    pub judged: usize,
    pub added: usize,
    pub corrected: usize,
    pub withdrawn: usize,
}

/// Judges the org's oldest waiting messages (one batch). `Ok(None)`: nothing waits, there is
/// no model, or its budget is spent (the items wait for tomorrow).
pub async fn run_once(app: &App, org: OrgId) -> Result<Option<Applied>, RefineError> {
    let Some(llm) = &app.llm else {
        return Ok(None);
    };
    let items = app.store.pending_refines(org, BATCH).await?;
    if items.is_empty() {
        return Ok(None);
    }
    let o = app.store.org(org).await?;
    let people = app.store.people(org).await?;
    let name = |id: Option<crate::domain::UserId>| {
        id.and_then(|u| people.iter().find(|p| p.profile.id == u))
            .map(|p| p.profile.full_name())
            .unwrap_or_else(|| "someone".into())
    };
    let mut lines = Vec::new();
    let mut messages = Vec::new();
    for (k, item) in items.iter().enumerate() {
        let Some(m) = app.store.message(item.chat, item.message).await? else {
            continue;
        };
        let text: String = m.text.chars().take(MESSAGE_CHARS).collect();
        let mut line = format!("{}. {}: {}", k + 1, name(m.user_id), text);
        // The words a verdict's work may come from: the message and what it answers.
        let mut context = m.text.clone();
        if let Some(parent) = match m.reply_to {
            Some(r) => app.store.message(item.chat, r).await?,
            None => None,
        } {
            let p: String = parent.text.chars().take(MESSAGE_CHARS).collect();
            line.push_str(&format!("\n   (in reply to {}: {p})", name(parent.user_id)));
            context.push('\n');
            context.push_str(&parent.text);
        }
        lines.push(line);
        messages.push((k as i64 + 1, item, m, context));
    }
    let now = app.clock.now();
    let verdicts = llm
        .ask::<Verdicts>(
            Caller {
                store: &app.store,
                org,
                tz: o.timezone,
                now,
            },
            prompts::REFINE_SYSTEM.text().to_string(),
            prompts::REFINE_USER.fill(&[("messages", &lines.join("\n"))]),
            || budget_notice(app, &people),
        )
        .await;
    let verdicts = match verdicts {
        Ok(v) => v.verdicts,
        // The model is away (spent budget, timeout, no connection, 429, 5xx, a storage
        // hiccup): the items wait for the next round.
        Err(e) if !is_bad_answer(&e) => {
            tracing::info!(org = org.0, error = %e, "refinement postponed");
            return Ok(None);
        }
        Err(e) => {
            // The model answered, badly (not the JSON asked for, a refusal, a 4xx): judged by
            // rules alone, and the items are closed so the same batch is not asked again.
            tracing::info!(org = org.0, error = %e, "refinement failed; the rules' findings stand");
            for item in &items {
                app.store
                    .finish_refine(item.id, "model failed", now)
                    .await?;
            }
            return Ok(Some(Applied {
                judged: items.len(),
                ..Applied::default()
            }));
        }
    };
    let mut applied = Applied::default();
    for (n, item, m, context) in &messages {
        let verdict = verdicts.iter().find(|v| v.n == *n);
        let outcome = match (verdict, m.user_id) {
            // A promise's work must be said in the conversation, not made up.
            (Some(v), _) if v.promise && !grounded(&v.work, context) => "work not in the message",
            (Some(v), Some(owner)) => apply(app, &o, item, m, owner, v, &mut applied).await?,
            _ => "no verdict",
        };
        app.store.finish_refine(item.id, outcome, now).await?;
        applied.judged += 1;
    }
    for item in items
        .iter()
        .filter(|i| !messages.iter().any(|(_, m, _, _)| m.id == i.id))
    {
        app.store
            .finish_refine(item.id, "message gone", now)
            .await?;
    }
    Ok(Some(applied))
}

/// An answer that asking again will not mend, as against a model that is away for now.
fn is_bad_answer(e: &LlmError) -> bool {
    match e {
        LlmError::Invalid(_) | LlmError::Refused(_) => true,
        LlmError::Status { status, .. } => *status != 429 && *status < 500,
        _ => false,
    }
}

/// Whether a verdict's work shares a significant word with the message (or what it answers).
pub fn grounded(work: &str, context: &str) -> bool {
    let said = crate::extract::commitments::significant_stems(context);
    crate::extract::commitments::significant_stems(work)
        .iter()
        .any(|w| said.contains(w))
}

/// Judges everything waiting for `org`, batch after batch (a replay's step).
pub async fn run_all(app: &App, org: OrgId) -> Result<Applied, RefineError> {
    let mut total = Applied::default();
    while let Some(a) = run_once(app, org).await? {
        total.judged += a.judged;
        total.added += a.added;
        total.corrected += a.corrected;
        total.withdrawn += a.withdrawn;
    }
    Ok(total)
}

async fn apply(
    app: &App,
    org: &crate::store::Org,
    item: &RefineItem,
    m: &crate::store::StoredMessage,
    owner: crate::domain::UserId,
    v: &Verdict,
    applied: &mut Applied,
) -> Result<&'static str, RefineError> {
    let store = &app.store;
    let made = store.commitments_made_in(item.chat, item.message).await?;
    // Only the speaker's own promises: an accepting reply also carries the offerer's promise,
    // and the verdict is about what the speaker said of themself.
    let by_rules: Vec<_> = made
        .iter()
        .filter(|c| c.author == Author::Rules && c.state == CommitmentState::Open)
        .filter(|c| c.owner == owner)
        .collect();
    let work = v.work.trim();
    let at: DateTime<Utc> = app.clock.now().max(m.date);
    if v.promise && !work.is_empty() {
        // The deadline resolves against the message's own time, as the rules' would.
        let msg_lang = Lang::detect(&m.text);
        let due = (!v.deadline.trim().is_empty())
            .then(|| {
                dates::deadline(
                    v.deadline.trim(),
                    m.date.with_timezone(&org.timezone),
                    msg_lang,
                )
            })
            .flatten()
            .map(|(_, d)| d);
        if !made.iter().any(|c| c.owner == owner) {
            store
                .insert_commitment(&NewCommitment {
                    org_id: org.id,
                    owner,
                    content: work,
                    due,
                    confidence: Confidence::LLM,
                    author: Author::Llm,
                    visibility: Visibility::Team,
                    source_chat: Some(item.chat),
                    source_message: Some(item.message),
                    requester: None,
                    request: None,
                    evidence: &evidence(item.chat, item.message),
                    at,
                })
                .await?;
            applied.added += 1;
            return Ok("added");
        }
        if item.reason == "vague-object"
            && let Some(c) = by_rules.first()
        {
            store
                .change_commitment(
                    c,
                    &CommitmentChange {
                        content: Some(work.to_string()),
                        // A deadline the rules did not find is the model's; one they found stands.
                        due: (c.due.is_none() && due.is_some()).then_some(due),
                        author: Some(Author::Llm),
                        confidence: Some(Confidence::LLM),
                        ..CommitmentChange::default()
                    },
                    at,
                )
                .await?;
            applied.corrected += 1;
            return Ok("corrected");
        }
        return Ok("confirmed");
    }
    if !v.promise && !by_rules.is_empty() {
        for c in by_rules {
            store
                .change_commitment(
                    c,
                    &CommitmentChange {
                        state: Some(CommitmentState::Cancelled),
                        author: Some(Author::Llm),
                        confidence: Some(Confidence::LLM),
                        ..CommitmentChange::default()
                    },
                    at,
                )
                .await?;
            applied.withdrawn += 1;
        }
        return Ok("withdrawn");
    }
    Ok("no change")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_verdicts_work_must_come_from_the_conversation() {
        let said = "All right. I'm going to sort that out\nthe printer on floor two is jammed";
        assert!(grounded("fix the printer on floor two", said));
        assert!(!grounded("Ben Stone", said));
        assert!(!grounded("", said));
        assert!(grounded("доделать отчёт", "доделаю отчёт к пятнице"));
    }

    proptest! {
        #[test]
        fn grounding_any_text_never_panics(a in "\\PC{0,80}", b in "\\PC{0,80}") {
            let _ = grounded(&a, &b);
        }
    }
}
