//! The daily reflection by the model: a person's day (their messages, promises made, done,
//! moved, overdue) in, a typed reflection out. Promises the model finds that the rules did not
//! already hold become memories at the reflection's confidence.

use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{DayStats, DigestError};
use crate::answer::free::budget_notice;
use crate::app::App;
use crate::domain::OrgCalendar;
use crate::domain::{Author, Confidence, Visibility};
use crate::llm::{Caller, Llm, Structured, prompts};
use crate::store::{NewCommitment, Person, Reflection};

/// The most of a person's messages one reflection reads.
const DAY_MESSAGES: i64 = 60;
const MESSAGE_CHARS: usize = 300;

#[derive(Debug, Deserialize)]
pub struct ModelReflection {
    pub summary: String,
    pub highlights: Vec<String>,
    pub commitments: Vec<String>,
    pub risks: Vec<String>,
    pub observations: Vec<String>,
}

fn list() -> Value {
    json!({"type": "array", "maxItems": 5, "items": {"type": "string", "minLength": 1, "maxLength": 200}})
}

impl Structured for ModelReflection {
    const NAME: &'static str = "reflection";
    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "summary": {"type": "string", "minLength": 1, "maxLength": 400},
                "highlights": list(), "commitments": list(), "risks": list(), "observations": list(),
            },
            "required": ["summary", "highlights", "commitments", "risks", "observations"],
            "additionalProperties": false,
        })
    }
    fn check(&self) -> Result<(), String> {
        if self.summary.trim().is_empty() {
            return Err("empty summary".into());
        }
        Ok(())
    }
}

fn clean(items: &[String]) -> Vec<String> {
    items
        .iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .take(5)
        .collect()
}

/// The model's reflection on `person`'s day; `None` when it failed (the rules' one is kept).
pub async fn by_model(
    app: &App,
    llm: &Llm,
    cal: &OrgCalendar,
    people: &[Person],
    person: &Person,
    s: &DayStats,
    at: DateTime<Utc>,
) -> Result<Option<Reflection>, DigestError> {
    let org = app.store.org(cal.org).await?;
    let tz = cal.tz;
    let day_start = super::local_midnight(tz, at.with_timezone(&tz).date_naive());
    let mut events = Vec::new();
    for m in app
        .store
        .messages_by(cal.org, person.profile.id, day_start, at, DAY_MESSAGES)
        .await?
    {
        let text: String = m.text.chars().take(MESSAGE_CHARS).collect();
        events.push(format!(
            "- {} wrote: {}",
            m.date.with_timezone(&tz).format("%H:%M"),
            text.replace('\n', " ")
        ));
    }
    for (what, list) in [
        ("promised", &s.made),
        ("finished", &s.done),
        ("moved", &s.moved),
        ("overdue", &s.overdue),
    ] {
        for c in list {
            let due = c
                .due
                .map(|d| format!(" (due {})", d.date))
                .unwrap_or_default();
            events.push(format!("- {what}: {}{due}", c.content));
        }
    }
    let lang = prompts::language(org.locale);
    let day = at.with_timezone(&tz).date_naive();
    let answer = llm
        .ask::<ModelReflection>(
            Caller {
                store: &app.store,
                org: cal.org,
                tz,
                now: at,
            },
            prompts::REFLECTION_SYSTEM.fill(&[("language", lang)]),
            prompts::REFLECTION_USER.fill(&[
                ("person", &person.profile.full_name()),
                ("day", &day.to_string()),
                ("events", &events.join("\n")),
            ]),
            || budget_notice(app, people),
        )
        .await;
    Ok(match answer {
        Ok(r) => Some(Reflection {
            user_id: person.profile.id,
            day: day.to_string(),
            summary: r.summary.trim().to_string(),
            highlights: clean(&r.highlights),
            commitments: clean(&r.commitments),
            risks: clean(&r.risks),
            observations: clean(&r.observations),
        }),
        Err(e) => {
            tracing::info!(org = cal.org.0, user = person.profile.id.0, error = %e, "reflection by rules");
            None
        }
    })
}

fn stems(text: &str) -> Vec<String> {
    crate::extract::commitments::significant_stems(text)
}

/// Whether a promise the model found is one the person already has (half its words shared).
fn already_held(found: &str, held: &[String]) -> bool {
    let f = stems(found);
    if f.is_empty() {
        return true;
    }
    held.iter().any(|h| {
        let h = stems(h);
        let shared = f.iter().filter(|w| h.contains(w)).count();
        shared * 2 >= f.len().min(h.len().max(1))
    })
}

/// The reflection's promises that no open or recent promise of the person already holds, as
/// memories: confidence 0.6, author `agent:reflection`, evidence the day, private (a
/// reflection is).
pub async fn keep_commitments(
    app: &App,
    cal: &OrgCalendar,
    r: &Reflection,
    s: &DayStats,
    at: DateTime<Utc>,
) -> Result<usize, DigestError> {
    let mut held: Vec<String> = s
        .open
        .iter()
        .chain(&s.made)
        .chain(&s.done)
        .map(|c| c.content.clone())
        .collect();
    let evidence = format!("reflection {}", r.day);
    let mut n = 0;
    for found in &r.commitments {
        if already_held(found, &held) {
            continue;
        }
        app.store
            .insert_commitment(&NewCommitment {
                org_id: cal.org,
                owner: r.user_id,
                content: found,
                due: None,
                confidence: Confidence::REFLECTION,
                author: Author::Reflection,
                visibility: Visibility::Private,
                source_chat: None,
                source_message: None,
                requester: None,
                request: None,
                evidence: &evidence,
                at,
            })
            .await?;
        held.push(found.clone());
        n += 1;
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_promise_already_held_is_not_kept_twice() {
        let held = vec!["подготовить КП для Альфы".to_string()];
        assert!(already_held("подготовит КП для Альфы к пятнице", &held));
        assert!(!already_held("позвонить поставщику стекла", &held));
        assert!(already_held("", &held));
    }
}
