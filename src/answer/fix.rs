//! Corrections: `/fix ID срок пятница | текст новый текст | владелец @user | готово | отмена |
//! не обещание` (and the English words), and the ✏️ buttons under promise lists (done, +1 day,
//! not a promise, not mine → who), by the promise's owner, its requester, their manager or the
//! director. Each is a new version by `user:<id>` at confidence 1.0; the old one is archived,
//! and an edit of the source message no longer re-derives a promise a person corrected.

use chrono::NaiveDate;

use super::{AnswerError, Answerer, Reply};
use crate::domain::{Author, CommitmentState, Confidence, Due, Lang, MemoryId, UserId};
use crate::extract::{dates, names};
use crate::ingest::extract_people;
use crate::render::format::{self, esc};
use crate::store::{Commitment, CommitmentChange};

/// What a `/fix` asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fix {
    Due(String),
    Text(String),
    State(CommitmentState),
    /// Who it is, as written ("@pavel", "Павел").
    Owner(String),
}

/// `ID WHAT …` → the promise's id and the change; `None`: not in that shape.
pub fn parse(arg: &str) -> Option<(i64, Fix)> {
    let arg = arg.trim();
    let (id, rest) = arg.split_once(char::is_whitespace)?;
    let id = id.trim_start_matches('#').parse::<i64>().ok()?;
    let rest = rest.trim();
    let state = match crate::extract::words::command_word_in("fix-", rest) {
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
    match crate::extract::words::command_word_in("fix-", word)? {
        "fix-due" => Some((id, Fix::Due(value))),
        "fix-text" => Some((id, Fix::Text(value))),
        "fix-owner" => Some((id, Fix::Owner(value))),
        _ => None,
    }
}

use crate::domain::callback::FixButton;

/// What a correction button did: a note for the presser, the message it was pressed on as it
/// should now read, or a new message (the menu).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FixPressed {
    pub note: String,
    pub edit: Option<Reply>,
    pub reply: Option<Reply>,
}

/// The ✏️ buttons under a list: one per open promise (at most 12, four to a row).
pub fn list_buttons(cs: &[Commitment]) -> Vec<Vec<(String, String)>> {
    cs.iter()
        .filter(|c| c.state == CommitmentState::Open)
        .take(12)
        .map(|c| {
            (
                format!("✏️ #{}", c.origin_id),
                FixButton::Menu(c.origin_id.0).data(),
            )
        })
        .collect::<Vec<_>>()
        .chunks(4)
        .map(<[_]>::to_vec)
        .collect()
}

/// What the change to a promise is, once read.
enum Change {
    Due(Due),
    Text(String),
    State(CommitmentState),
    Owner(UserId),
}

impl Answerer<'_> {
    /// `/fix ARG`.
    pub async fn fix(&self, arg: &str) -> Result<Reply, AnswerError> {
        let Some((id, fix)) = parse(arg) else {
            return Ok(Reply::text(self.s("fix-usage")));
        };
        let change = match fix {
            Fix::State(s) => Change::State(s),
            Fix::Text(t) => Change::Text(t),
            Fix::Owner(who) => match names::resolve(&who, &extract_people(&self.people))[..] {
                [one] => Change::Owner(UserId(one)),
                _ => {
                    return Ok(Reply::text(
                        self.t("person-unknown", &[("name", esc(&who).into())]),
                    ));
                }
            },
            Fix::Due(words) => {
                let local = self.now.with_timezone(&self.org.timezone);
                // "пятница" alone is a date too: read it as a deadline ("до пятницы").
                let lang = Lang::detect(&words);
                let read = dates::deadline(&words, local, lang).or_else(|| {
                    let lead = if lang == Lang::Ru { "до " } else { "by " };
                    dates::deadline(&format!("{lead}{words}"), local, lang)
                });
                match read {
                    Some((_, due)) => Change::Due(due),
                    None => return Ok(Reply::text(self.s("fix-bad-date"))),
                }
            }
        };
        Ok(Reply::text(self.correct(id, change).await?))
    }

    /// Applies one correction by the asker; the text says what came of it.
    async fn correct(&self, id: i64, change: Change) -> Result<String, AnswerError> {
        let store = &self.app.store;
        let Some(c) = store.current_commitment(MemoryId(id)).await? else {
            return Ok(self.s("fix-unknown"));
        };
        if c.org_id != self.org.id {
            return Ok(self.s("fix-unknown"));
        }
        if !self.may_correct(&c) {
            return Ok(self.s("fix-refused"));
        }
        let mut next = CommitmentChange {
            author: Some(Author::User(self.viewer.asker)),
            confidence: Some(Confidence::CONFIRMED),
            ..CommitmentChange::default()
        };
        let text_only = matches!(change, Change::Text(_));
        match change {
            Change::State(s) => next.state = Some(s),
            Change::Text(t) => next.content = Some(t),
            Change::Due(d) => next.due = Some(Some(d)),
            Change::Owner(o) => {
                if self.person(o).is_none() {
                    return Ok(self.s("not-a-member"));
                }
                // Handing a promise to someone is giving them work: only whoever oversees
                // them may (or one takes it on oneself). A private item stays its speaker's.
                if o != self.viewer.asker && !self.viewer.oversees(o) {
                    return Ok(self.s("fix-owner-refused"));
                }
                if c.visibility == crate::domain::Visibility::Private {
                    return Ok(self.s("fix-owner-private"));
                }
                next.owner = Some(o);
            }
        }
        if c.state != CommitmentState::Open && !text_only {
            return Ok(self.t("button-stale", &[("what", esc(&c.content).into())]));
        }
        let Some(n) = store.change_commitment(&c, &next, self.now).await? else {
            return Ok(self.s("fix-unknown"));
        };
        let due = n
            .due
            .map(|d| format::due(&self.app.i18n, self.lang, d))
            .unwrap_or_else(|| self.s("due-none"));
        if n.owner != c.owner {
            return Ok(self.t(
                "fix-owner-done",
                &[
                    ("what", esc(&n.content).into()),
                    ("owner", esc(&self.name(n.owner)).into()),
                ],
            ));
        }
        Ok(self.t(
            "fix-done",
            &[
                ("what", esc(&n.content).into()),
                ("due", due.into()),
                ("state", self.s(super::state_key(n.state)).into()),
            ],
        ))
    }

    /// The owner, whoever asked for it, and whoever oversees the owner; never from a group.
    fn may_correct(&self, c: &Commitment) -> bool {
        let me = self.viewer.asker;
        !self.viewer.in_group
            && (c.owner == me || c.requester == Some(me) || self.viewer.oversees(c.owner))
    }

    /// A press of a correction button.
    pub async fn fix_press(
        &self,
        button: FixButton,
        next_working_day: impl Fn(NaiveDate) -> NaiveDate,
    ) -> Result<FixPressed, AnswerError> {
        let id = match button {
            FixButton::Menu(id)
            | FixButton::Done(id)
            | FixButton::Later(id)
            | FixButton::NotAPromise(id)
            | FixButton::NotMine(id)
            | FixButton::To(id, _) => id,
        };
        let Some(c) = self
            .app
            .store
            .current_commitment(MemoryId(id))
            .await?
            .filter(|c| c.org_id == self.org.id)
        else {
            return Ok(FixPressed {
                note: self.s("fix-unknown"),
                ..FixPressed::default()
            });
        };
        if !self.may_correct(&c) {
            return Ok(FixPressed {
                note: self.s("fix-refused"),
                ..FixPressed::default()
            });
        }
        let today = self.now.with_timezone(&self.org.timezone).date_naive();
        let shown = self.line(&c, today);
        let change = match button {
            FixButton::Menu(_) => {
                let b = |k: &str, f: FixButton| (self.s(k), f.data());
                return Ok(FixPressed {
                    reply: Some(Reply {
                        text: format!("{shown}\n\n{}", self.t("fix-menu", &[("n", id.into())])),
                        buttons: vec![
                            vec![
                                b("button-done", FixButton::Done(id)),
                                b("button-snooze", FixButton::Later(id)),
                            ],
                            vec![
                                b("button-nap", FixButton::NotAPromise(id)),
                                b("button-not-mine", FixButton::NotMine(id)),
                            ],
                        ],
                    }),
                    ..FixPressed::default()
                });
            }
            FixButton::NotMine(_) => {
                let me = self.viewer.asker;
                let rows: Vec<Vec<(String, String)>> = self
                    .people
                    .iter()
                    .filter(|p| p.member.active && p.profile.id != c.owner)
                    .filter(|p| p.profile.id == me || self.viewer.oversees(p.profile.id))
                    .take(30)
                    .map(|p| {
                        (
                            p.profile.full_name(),
                            FixButton::To(id, p.profile.id).data(),
                        )
                    })
                    .collect::<Vec<_>>()
                    .chunks(2)
                    .map(<[_]>::to_vec)
                    .collect();
                if rows.is_empty() {
                    return Ok(FixPressed {
                        note: self.s("fix-owner-refused"),
                        ..FixPressed::default()
                    });
                }
                return Ok(FixPressed {
                    edit: Some(Reply {
                        text: format!("{shown}\n\n{}", self.s("fix-who")),
                        buttons: rows,
                    }),
                    ..FixPressed::default()
                });
            }
            FixButton::Done(_) => Change::State(CommitmentState::Done),
            FixButton::NotAPromise(_) => Change::State(CommitmentState::Cancelled),
            FixButton::Later(_) => {
                let base = c.due.map(|d| d.date).unwrap_or(today);
                Change::Due(Due {
                    date: next_working_day(base),
                    time: c.due.and_then(|d| d.time),
                })
            }
            FixButton::To(_, u) => Change::Owner(u),
        };
        let note = self.correct(id, change).await?;
        Ok(FixPressed {
            edit: Some(Reply::text(format!("{shown}\n\n{note}"))),
            note,
            reply: None,
        })
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
        assert_eq!(
            parse("5 владелец @pavel"),
            Some((5, Fix::Owner("@pavel".into())))
        );
        assert_eq!(parse("5 owner Ben"), Some((5, Fix::Owner("Ben".into()))));
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
