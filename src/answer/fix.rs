//! Corrections: `/fix ID срок пятница | текст новый текст | готово | отмена | не обещание`
//! (and the English words) by the promise's owner, its requester, their manager or the
//! director. Each is a new version by `user:<id>` at confidence 1.0; the old one is archived,
//! and an edit of the source message no longer re-derives a promise a person corrected.

use super::{AnswerError, Answerer, Reply};
use crate::answer::format::{self, esc};
use crate::domain::{Author, CommitmentState, Confidence, Lang, MemoryId};
use crate::extract::dates;
use crate::store::CommitmentChange;

/// What a `/fix` asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fix {
    Due(String),
    Text(String),
    State(CommitmentState),
}

/// `ID WHAT …` → the promise's id and the change; `None`: not in that shape.
pub fn parse(arg: &str) -> Option<(i64, Fix)> {
    let arg = arg.trim();
    let (id, rest) = arg.split_once(char::is_whitespace)?;
    let id = id.trim_start_matches('#').parse::<i64>().ok()?;
    let rest = rest.trim();
    let state = match crate::extract::words::command_word(rest) {
        Some("fix-done") => Some(CommitmentState::Done),
        Some("fix-cancel") => Some(CommitmentState::Cancelled),
        _ => None,
    };
    if let Some(s) = state {
        return Some((id, Fix::State(s)));
    }
    let (word, value) = rest.split_once(char::is_whitespace)?;
    let value = value.trim().to_string();
    if value.is_empty() {
        return None;
    }
    match crate::extract::words::command_word(word)? {
        "fix-due" => Some((id, Fix::Due(value))),
        "fix-text" => Some((id, Fix::Text(value))),
        _ => None,
    }
}

impl Answerer<'_> {
    /// `/fix ARG`.
    pub async fn fix(&self, arg: &str) -> Result<Reply, AnswerError> {
        let Some((id, fix)) = parse(arg) else {
            return Ok(Reply::text(self.s("fix-usage")));
        };
        let store = &self.app.store;
        let Some(c) = store.current_commitment(MemoryId(id)).await? else {
            return Ok(Reply::text(self.s("fix-unknown")));
        };
        if c.org_id != self.org.id {
            return Ok(Reply::text(self.s("fix-unknown")));
        }
        let me = self.viewer.asker;
        let may = c.owner == me || c.requester == Some(me) || self.viewer.oversees(c.owner);
        if !may || self.viewer.in_group {
            return Ok(Reply::text(self.s("fix-refused")));
        }
        let mut change = CommitmentChange {
            author: Some(Author::User(me)),
            confidence: Some(Confidence::CONFIRMED),
            ..CommitmentChange::default()
        };
        match &fix {
            Fix::State(s) => change.state = Some(*s),
            Fix::Text(t) => change.content = Some(t.clone()),
            Fix::Due(words) => {
                let local = self.now.with_timezone(&self.org.timezone);
                // "пятница" alone is a date too: read it as a deadline ("до пятницы").
                let lang = Lang::detect(words);
                let read = dates::deadline(words, local, lang).or_else(|| {
                    let lead = if lang == Lang::Ru { "до " } else { "by " };
                    dates::deadline(&format!("{lead}{words}"), local, lang)
                });
                match read {
                    Some((_, due)) => change.due = Some(Some(due)),
                    None => return Ok(Reply::text(self.s("fix-bad-date"))),
                }
            }
        }
        if c.state != CommitmentState::Open && !matches!(fix, Fix::Text(_)) {
            return Ok(Reply::text(
                self.t("button-stale", &[("what", esc(&c.content).into())]),
            ));
        }
        let Some(n) = store.change_commitment(&c, &change, self.now).await? else {
            return Ok(Reply::text(self.s("fix-unknown")));
        };
        let due = n
            .due
            .map(|d| format::due(&self.app.i18n, self.lang, d))
            .unwrap_or_else(|| self.s("due-none"));
        Ok(Reply::text(self.t(
            "fix-done",
            &[
                ("what", esc(&n.content).into()),
                ("due", due.into()),
                ("state", self.s(super::state_key(n.state)).into()),
            ],
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_shapes_of_a_fix() {
        assert_eq!(
            parse("12 срок пятница"),
            Some((12, Fix::Due("пятница".into())))
        );
        assert_eq!(
            parse("#7 text send the final deck"),
            Some((7, Fix::Text("send the final deck".into())))
        );
        assert_eq!(
            parse("3 готово"),
            Some((3, Fix::State(CommitmentState::Done)))
        );
        assert_eq!(
            parse("3 не обещание"),
            Some((3, Fix::State(CommitmentState::Cancelled)))
        );
        assert_eq!(
            parse("3 Not a promise"),
            Some((3, Fix::State(CommitmentState::Cancelled)))
        );
        for bad in ["", "12", "abc срок пятница", "12 срок", "12 цвет синий"]
        {
            assert_eq!(parse(bad), None, "{bad}");
        }
    }

    proptest! {
        #[test]
        fn any_text_parses_without_panicking(text in "\\PC{0,80}") {
            let _ = parse(&text);
        }
    }
}
