//! Free-form answers by the model: the asker's context block (`context::render`, their rights
//! only) and what a full-text search finds among the rows they may see go into the prompt; the
//! answer's citations become links to the source messages, and citations of rows the asker was
//! not given are dropped. Any failure of the model leaves the rule answer in place.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::{Value, json};

use super::format::{self, esc};
use super::{AnswerError, Answerer, Reply};
use crate::context;
use crate::domain::{ChatId, MessageId, Role, UserId};
use crate::extract::{names, words};
use crate::ingest::extract_people;
use crate::llm::{BudgetNotice, Caller, Llm, Structured, prompts};
use crate::store::{NewDelivery, SearchAccess};

/// The model's answer.
#[derive(Debug, Deserialize)]
pub struct ModelAnswer {
    pub answer: String,
}

impl Structured for ModelAnswer {
    const NAME: &'static str = "answer";
    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {"answer": {"type": "string", "minLength": 1, "maxLength": 1000}},
            "required": ["answer"],
            "additionalProperties": false,
        })
    }
    fn check(&self) -> Result<(), String> {
        if self.answer.trim().is_empty() {
            Err("the answer is empty".into())
        } else {
            Ok(())
        }
    }
}

/// What an answer may cite, and where each row came from.
#[derive(Debug, Default, Clone)]
pub struct Citable {
    /// Memory id → the message it was said in.
    pub memories: HashMap<i64, Option<(ChatId, MessageId)>>,
    /// `[msg:N]` → the N-th message found (from 1).
    pub messages: Vec<(ChatId, MessageId)>,
}

const FOUND_MESSAGES: i64 = 8;
const FOUND_MEMORIES: i64 = 8;
const MESSAGE_CHARS: usize = 300;

fn stop_words() -> &'static Vec<String> {
    static STOP: OnceLock<Vec<String>> = OnceLock::new();
    STOP.get_or_init(|| {
        include_str!("../../lexicon/search_stop.txt")
            .lines()
            .filter(|l| !l.starts_with('#'))
            .flat_map(str::split_whitespace)
            .map(words::normalize)
            .collect()
    })
}

/// An FTS5 query for a question: the stems of its significant words as prefixes, any of them.
/// Quoted, so nothing a person typed is read as query syntax.
pub fn search_query(text: &str) -> String {
    let stop = stop_words();
    let mut stems: Vec<String> = Vec::new();
    for t in words::tokens(text) {
        if t.norm.chars().count() < 3 || stop.contains(&t.norm) {
            continue;
        }
        let s: String = words::stem(&t.norm)
            .chars()
            .filter(|c| c.is_alphanumeric())
            .collect();
        if s.chars().count() >= 2 && !stems.contains(&s) {
            stems.push(s);
        }
        if stems.len() == 8 {
            break;
        }
    }
    stems
        .iter()
        .map(|s| format!("\"{s}\"*"))
        .collect::<Vec<_>>()
        .join(" OR ")
}

/// The answer as HTML: text escaped, each citation of a row the asker was given replaced by a
/// numbered link to its source message (plain `[N]` where the chat has no links), every other
/// citation dropped.
pub fn render_citations(answer: &str, citable: &Citable) -> String {
    let mut out = String::new();
    let mut numbers: Vec<(ChatId, MessageId, Option<i64>)> = Vec::new();
    let mut rest = answer;
    while let Some(open) = rest.find('[') {
        let (before, after) = rest.split_at(open);
        let Some(close) = after.find(']') else { break };
        let inner = &after[1..close];
        let target = parse_citation(inner).map(|c| match c {
            Cite::Memory(id) => citable
                .memories
                .get(&id)
                .map(|src| (src.to_owned(), Some(id))),
            Cite::Message(n) => n
                .checked_sub(1)
                .and_then(|i| citable.messages.get(i as usize))
                .map(|m| (Some(*m), None)),
        });
        match target {
            // A citation: kept and linked when the row was given, dropped when not.
            Some(found) => {
                out.push_str(&esc(before.trim_end()));
                // A row with no source message (said in DM, a profile fact) has no link.
                if let Some((Some((chat, msg)), memory)) = found {
                    let pos = numbers
                        .iter()
                        .position(|(c, m, _)| *c == chat && *m == msg)
                        .unwrap_or_else(|| {
                            numbers.push((chat, msg, memory));
                            numbers.len() - 1
                        });
                    let n = pos + 1;
                    match format::message_link(chat, msg) {
                        Some(link) => out.push_str(&format!(" <a href=\"{link}\">[{n}]</a>")),
                        None => out.push_str(&format!(" [{n}]")),
                    }
                }
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&esc(before));
                out.push('[');
                rest = &after[1..];
            }
        }
    }
    out.push_str(&esc(rest));
    out.trim().to_string()
}

enum Cite {
    Memory(i64),
    Message(i64),
}

fn parse_citation(inner: &str) -> Option<Cite> {
    let inner = inner.trim();
    if let Some(n) = inner.strip_prefix("msg:") {
        return n.trim().parse().ok().map(Cite::Message);
    }
    if let Some(n) = inner.strip_prefix("m:") {
        return n.trim().parse().ok().map(Cite::Memory);
    }
    None
}

impl Answerer<'_> {
    /// Who may read whose private rows in a search: from roles alone.
    fn search_access(&self) -> SearchAccess {
        let v = &self.viewer;
        let mut private_of = vec![v.asker];
        private_of.extend(v.reports.iter().copied());
        SearchAccess {
            in_group: v.in_group,
            all_private: v.role == Role::Director && !v.in_group,
            private_of,
        }
    }

    /// The model's answer to a question no structural intent took; `None` when there is no
    /// model or it failed (the caller answers by rules then).
    pub(super) async fn free_form(
        &self,
        llm: &Llm,
        question: &str,
    ) -> Result<Option<Reply>, AnswerError> {
        let mut citable = Citable::default();
        let mut blocks = Vec::new();
        // The asker first, then anyone the question names, each within the asker's rights.
        let mut subjects = vec![self.viewer.asker];
        let people = extract_people(&self.people);
        for (_, id) in names::people_in(question, &people) {
            if !subjects.contains(&UserId(id)) {
                subjects.push(UserId(id));
            }
        }
        let mut today = None;
        for id in subjects.iter().take(4) {
            let Some(ctx) = self.ctx(*id).await? else {
                continue;
            };
            today.get_or_insert(ctx.today);
            for c in ctx.open.iter().chain(&ctx.recently_done) {
                citable
                    .memories
                    .insert(c.id.0, c.source_chat.zip(c.source_message));
            }
            for (m, _) in &ctx.memories {
                citable
                    .memories
                    .insert(m.id.0, m.source_chat.zip(m.source_message));
            }
            blocks.push(context::render(&ctx));
        }
        let query = search_query(question);
        let access = self.search_access();
        let store = &self.app.store;
        let memories = store
            .search_memories(self.org.id, &access, &query, FOUND_MEMORIES)
            .await?;
        // The question itself (asked in a group, it is a group message too) is not a source.
        let messages: Vec<_> = store
            .search_messages(self.org.id, &query, FOUND_MESSAGES + 1)
            .await?
            .into_iter()
            .filter(|m| self.source != Some((m.chat, m.message)))
            .take(FOUND_MESSAGES as usize)
            .collect();
        let mut found = String::new();
        for m in &memories {
            citable
                .memories
                .insert(m.id.0, m.source_chat.zip(m.source_message));
            found.push_str(&format!(
                "- [m:{}] {} about {}: {}{}{}\n",
                m.id.0,
                m.kind,
                self.name(m.subject),
                m.content,
                m.due
                    .as_deref()
                    .map(|d| format!(" due={d}"))
                    .unwrap_or_default(),
                if m.confidence.is_hedged() {
                    " (unsure)"
                } else {
                    ""
                },
            ));
        }
        for (i, m) in messages.iter().enumerate() {
            citable.messages.push((m.chat, m.message));
            let date = m
                .date
                .with_timezone(&self.org.timezone)
                .format("%Y-%m-%d %H:%M");
            let who = m.author.map(|a| self.name(a)).unwrap_or_default();
            let text: String = m.text.chars().take(MESSAGE_CHARS).collect();
            found.push_str(&format!("- [msg:{}] {date} {who}: {text}\n", i + 1));
        }
        if found.is_empty() {
            found.push_str("(nothing)\n");
        }
        let today =
            today.unwrap_or_else(|| self.now.with_timezone(&self.org.timezone).date_naive());
        let system = prompts::ANSWER_SYSTEM.fill(&[("language", prompts::language(self.lang))]);
        let user = prompts::ANSWER_USER.fill(&[
            ("today", &today.to_string()),
            ("context", &blocks.join("\n")),
            ("found", &found),
            ("question", question),
        ]);
        let answer = llm
            .ask::<ModelAnswer>(
                Caller {
                    store,
                    org: self.org.id,
                    tz: self.org.timezone,
                    now: self.now,
                },
                system,
                user,
                || self.budget_notice(),
            )
            .await;
        match answer {
            Ok(a) => {
                let text = render_citations(&a.answer, &citable);
                if text.is_empty() {
                    return Ok(None);
                }
                Ok(Some(Reply::text(text)))
            }
            Err(e) => {
                tracing::info!(org = self.org.id.0, error = %e, "free-form answer by rules");
                Ok(None)
            }
        }
    }

    /// The directors' notice that the model's budget for today is spent.
    pub(super) fn budget_notice(&self) -> BudgetNotice {
        budget_notice(self.app, &self.people)
    }
}

/// One DM per director: the day's model budget is spent, rules answer until tomorrow.
pub fn budget_notice(app: &crate::app::App, people: &[crate::store::Person]) -> BudgetNotice {
    let deliveries = people
        .iter()
        .filter(|p| p.member.role == Role::Director && p.member.active)
        .map(|p| {
            let lang = app.lang_for(Some(&p.profile), None);
            NewDelivery {
                chat_id: ChatId(p.profile.id.0),
                to_user: Some(p.profile.id),
                text: app.i18n.s(lang, "llm-budget-spent"),
                ..NewDelivery::default()
            }
        })
        .collect();
    BudgetNotice { deliveries }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_question_becomes_quoted_prefix_stems() {
        assert_eq!(
            search_query("где лежат доступы к стейджингу?"),
            "\"лежат\"* OR \"доступ\"* OR \"стейджинг\"*"
        );
        assert_eq!(
            search_query("why is the Alpha proposal late?"),
            "\"alpha\"* OR \"propos\"* OR \"late\"*"
        );
        assert_eq!(search_query("что? где?"), "");
        assert_eq!(
            search_query("\"quote\" OR* NEAR("),
            "\"quot\"* OR \"near\"*"
        );
    }

    #[test]
    fn citations_become_links_and_unknown_ones_go() {
        let mut c = Citable::default();
        c.memories
            .insert(7, Some((ChatId(-1001234), MessageId(55))));
        c.memories.insert(8, None);
        c.messages.push((ChatId(-1001234), MessageId(60)));
        c.messages.push((ChatId(-42), MessageId(3)));
        let out = render_citations(
            "Отчёт <готов> [m:7], доступы в вики [msg:1]; ещё [m:99] и [msg:2] [m:8] [note]",
            &c,
        );
        assert_eq!(
            out,
            "Отчёт &lt;готов&gt; <a href=\"https://t.me/c/1234/55\">[1]</a>, доступы в вики \
             <a href=\"https://t.me/c/1234/60\">[2]</a>; ещё и [3] [note]"
        );
    }

    proptest! {
        #[test]
        fn any_text_gives_a_query_and_a_rendering(text in "\\PC{0,200}") {
            let q = search_query(&text);
            prop_assert_eq!(q.matches('"').count() % 2, 0);
            let _ = render_citations(&text, &Citable::default());
        }
    }
}
