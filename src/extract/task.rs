//! Assignments: `/task @pavel переделать смету до завтра !срочно`, and in a DM from a director
//! or lead, "Павел, переделай смету до завтра", "ask Ben to send the deck by Friday". Pure
//! text → a [`TaskSpec`]: who, what, by when, how urgent.

use std::sync::OnceLock;

use chrono::DateTime;
use chrono_tz::Tz;

use super::commitments::{self, Finding, MessageInput};
use super::dates::{self, Due};
use super::{Lang, names, words};

/// What an assignment says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskSpec {
    pub assignee: i64,
    pub title: String,
    pub due: Option<Due>,
    /// `urgent`, `high`, `normal` or `low` (the tasks table's values).
    pub priority: &'static str,
}

fn openers() -> &'static Vec<String> {
    static LIST: OnceLock<Vec<String>> = OnceLock::new();
    LIST.get_or_init(|| {
        include_str!("../../lexicon/task_openers.txt")
            .lines()
            .filter(|l| !l.starts_with('#'))
            .flat_map(str::split_whitespace)
            .map(words::normalize)
            .collect()
    })
}

/// `!срочно`, `!urgent`, `!high`, `!важно`, `!low`.
fn priority_of(word: &str) -> Option<&'static str> {
    match words::command_word_in("priority-", word.trim_start_matches('!'))? {
        "priority-urgent" => Some("urgent"),
        "priority-high" => Some("high"),
        "priority-low" => Some("low"),
        _ => None,
    }
}

/// The work and its date from the words after the assignee: the date span and the priority
/// marks taken out, a leading "to"/"чтобы" dropped.
pub(super) fn work(
    rest: &str,
    now: DateTime<Tz>,
    lang: Lang,
) -> (String, Option<Due>, &'static str) {
    let mut priority = "normal";
    let kept: Vec<&str> = rest
        .split_whitespace()
        .filter(
            |w| match w.starts_with('!').then(|| priority_of(w)).flatten() {
                Some(p) => {
                    priority = p;
                    false
                }
                None => true,
            },
        )
        .collect();
    let text = kept.join(" ");
    let (title, due) = match dates::deadline(&text, now, lang) {
        Some((span, due)) => (
            format!("{} {}", &text[..span.start], &text[span.end..]),
            Some(due),
        ),
        None => (text.clone(), None),
    };
    let mut title = title.split_whitespace().collect::<Vec<_>>().join(" ");
    for lead in ["to ", "чтобы ", "что "] {
        if title.to_lowercase().starts_with(lead) {
            title = title[lead.len()..].to_string();
        }
    }
    let title = title
        .trim_matches(|c: char| c.is_whitespace() || ",.;:!—-".contains(c))
        .to_string();
    (title, due, priority)
}

/// The person named by the first one or two words (`@pavel`, `Павел`, `Павла Орлова`), and
/// the rest of the text.
fn named_first<'t>(text: &'t str, people: &[names::Person]) -> Option<(i64, &'t str)> {
    let words: Vec<(usize, &str)> = text
        .split_whitespace()
        .map(|w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
        .collect();
    for n in [2, 1] {
        let Some(&(start, last)) = words.get(n - 1) else {
            continue;
        };
        let end = start + last.len();
        let who = text[..end].trim_end_matches([',', ':']);
        if let [one] = names::resolve(who, people)[..] {
            return Some((one, &text[end..]));
        }
    }
    None
}

/// `/task ARG`: the assignee first, then the work, an optional date and `!priority`.
pub fn command(arg: &str, people: &[names::Person], now: DateTime<Tz>) -> Option<TaskSpec> {
    let (assignee, rest) = named_first(arg.trim(), people)?;
    let (title, due, priority) = work(rest, now, Lang::detect(rest));
    (!title.is_empty()).then_some(TaskSpec {
        assignee,
        title,
        due,
        priority,
    })
}

/// A plain assignment in a DM: "ask Ben to send the deck by Friday", "попроси Павла
/// переделать смету", or "Павел, переделай смету до завтра" (a request to a named person).
pub fn assignment(
    text: &str,
    speaker: i64,
    people: &[names::Person],
    now: DateTime<Tz>,
) -> Option<TaskSpec> {
    if text.trim_end().ends_with('?') {
        return None;
    }
    let lang = Lang::detect(text);
    let trimmed = text.trim();
    let first = trimmed.split_whitespace().next().unwrap_or("");
    if openers().contains(&words::normalize(first)) {
        let rest = trimmed[first.len()..].trim_start();
        let (assignee, rest) = named_first(rest, people)?;
        let (title, due, priority) = work(rest, now, lang);
        return (!title.is_empty() && assignee != speaker).then_some(TaskSpec {
            assignee,
            title,
            due,
            priority,
        });
    }
    // "Павел, переделай смету до завтра": the rules read a request to a named addressee.
    let (named, _) = named_first(trimmed, people)?;
    let findings = commitments::analyze(&MessageInput {
        text: trimmed,
        now,
        speaker,
        people,
        mentions: &[],
        lang: Some(lang),
    });
    findings.into_iter().find_map(|f| match f {
        Finding::Request {
            addressee: Some(a),
            content,
            due,
        } if a == named && a != speaker && !content.is_empty() => Some(TaskSpec {
            assignee: a,
            title: content,
            due,
            priority: trimmed
                .split_whitespace()
                .filter(|w| w.starts_with('!'))
                .find_map(priority_of)
                .unwrap_or("normal"),
        }),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{NaiveDate, TimeZone};
    use proptest::prelude::*;

    fn people() -> Vec<names::Person> {
        vec![
            names::Person {
                id: 1,
                first_name: "Анна".into(),
                last_name: None,
                username: None,
            },
            names::Person {
                id: 2,
                first_name: "Павел".into(),
                last_name: Some("Орлов".into()),
                username: Some("pavel".into()),
            },
            names::Person {
                id: 3,
                first_name: "Ben".into(),
                last_name: None,
                username: Some("ben".into()),
            },
        ]
    }

    fn wed() -> DateTime<Tz> {
        chrono_tz::Europe::Moscow
            .with_ymd_and_hms(2026, 11, 25, 10, 0, 0)
            .unwrap()
    }

    fn day(m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, m, d).unwrap()
    }

    #[test]
    fn the_examples_beside_the_rule_hold() {
        let t = command(
            "@pavel переделать смету до завтра !срочно",
            &people(),
            wed(),
        )
        .unwrap();
        assert_eq!(
            (t.assignee, t.title.as_str(), t.priority),
            (2, "переделать смету", "urgent")
        );
        assert_eq!(t.due.map(|d| d.date), Some(day(11, 26)));
        let t = assignment("ask Ben to send the deck by Friday", 1, &people(), wed()).unwrap();
        assert_eq!((t.assignee, t.title.as_str()), (3, "send the deck"));
        assert_eq!(t.due.map(|d| d.date), Some(day(11, 27)));
        let t = assignment("попроси Павла переделать смету", 1, &people(), wed()).unwrap();
        assert_eq!(
            (t.assignee, t.title.as_str(), t.due),
            (2, "переделать смету", None)
        );
        let t = assignment("Павел, переделай смету до завтра", 1, &people(), wed()).unwrap();
        assert_eq!(t.assignee, 2);
        assert!(t.title.contains("смет"), "{t:?}");
        assert_eq!(t.due.map(|d| d.date), Some(day(11, 26)));
        for no in [
            "Павел, ты переделал смету?",
            "что у Павла в работе",
            "ask me later",
        ] {
            assert_eq!(assignment(no, 1, &people(), wed()), None, "{no}");
        }
        assert_eq!(command("@nobody сделать", &people(), wed()), None);
        assert_eq!(command("@pavel", &people(), wed()), None);
    }

    proptest! {
        #[test]
        fn any_text_is_read_without_panicking(text in "\\PC{0,120}") {
            let _ = command(&text, &people(), wed());
            let _ = assignment(&text, 1, &people(), wed());
        }
    }
}
