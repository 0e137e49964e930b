//! Owners heard in a group: "за CRM отвечает Дима", "Ben owns billing now". Pure text → who and
//! what, by the templates in `lexicon/owner_phrases.txt` (P the person, X the thing).

use std::sync::OnceLock;

use super::{names, words};

#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Word(String),
    Person,
    Thing,
}

struct Phrases {
    filler: Vec<Vec<String>>,
    templates: Vec<Vec<Part>>,
}

fn phrases() -> &'static Phrases {
    static P: OnceLock<Phrases> = OnceLock::new();
    P.get_or_init(|| {
        let mut filler = Vec::new();
        let mut templates = Vec::new();
        for line in include_str!("../../lexicon/owner_phrases.txt").lines() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            if let Some(list) = line.strip_prefix("filler:") {
                filler = list
                    .split(',')
                    .map(|f| f.split_whitespace().map(words::normalize).collect())
                    .filter(|f: &Vec<String>| !f.is_empty())
                    .collect();
                continue;
            }
            templates.push(
                line.split_whitespace()
                    .map(|w| match w {
                        "P" => Part::Person,
                        "X" => Part::Thing,
                        w => Part::Word(words::normalize(w)),
                    })
                    .collect(),
            );
        }
        // Longer fillers first, so "from now on" goes before "now".
        filler.sort_by_key(|f| std::cmp::Reverse(f.len()));
        Phrases { filler, templates }
    })
}

/// The most words a slot takes: a thing's name or a person's full name.
const SLOT_MAX: usize = 6;

/// Matches `parts` against `ws[at..]`, filling the slots (is-person, start, end); the whole
/// text must be used.
fn fit(parts: &[Part], ws: &[String], at: usize, slots: &mut Vec<(bool, usize, usize)>) -> bool {
    match parts.split_first() {
        None => at == ws.len(),
        Some((Part::Word(w), rest)) => {
            ws.get(at).is_some_and(|x| x == w || same_word(x, w)) && fit(rest, ws, at + 1, slots)
        }
        Some((slot, rest)) => {
            let person = *slot == Part::Person;
            for n in 1..=SLOT_MAX.min(ws.len().saturating_sub(at)) {
                slots.push((person, at, at + n));
                if fit(rest, ws, at + n, slots) {
                    return true;
                }
                slots.pop();
            }
            false
        }
    }
}

/// "отвечает" ~ "отвечают", "ведет" ~ "ведут": one stem.
fn same_word(a: &str, b: &str) -> bool {
    a.chars().count() > 3 && words::stem(a) == words::stem(b)
}

/// Who owns what, when the whole message says it: `(person id, the thing as written)`.
pub fn statement(text: &str, people: &[names::Person]) -> Option<(i64, String)> {
    if text.len() > 300 || text.contains('?') {
        return None;
    }
    let raw: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || ",.!;:—–«»\"()".contains(c))
        .filter(|w| !w.is_empty() && *w != "-")
        .collect();
    let norm: Vec<String> = raw.iter().map(|w| words::normalize(w)).collect();
    // Drop the filler words (and keep the written words in step).
    let p = phrases();
    let mut keep = vec![true; norm.len()];
    let mut i = 0;
    while i < norm.len() {
        match p
            .filler
            .iter()
            .find(|f| norm[i..].starts_with(f.as_slice()))
        {
            Some(f) => {
                keep[i..i + f.len()].iter_mut().for_each(|k| *k = false);
                i += f.len();
            }
            None => i += 1,
        }
    }
    let ws: Vec<String> = norm
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(w, _)| w.clone())
        .collect();
    let written: Vec<&str> = raw
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(w, _)| *w)
        .collect();
    for t in &p.templates {
        let mut slots = Vec::new();
        if !fit(t, &ws, 0, &mut slots) {
            continue;
        }
        let (mut who, mut what) = (None, None);
        for &(person, from, to) in &slots {
            let text = written[from..to].join(" ");
            if person {
                who = Some(text);
            } else {
                what = Some(text);
            }
        }
        let (Some(who), Some(what)) = (who, what) else {
            continue;
        };
        // The person must be one of the team; the thing must not be a person.
        if let [one] = names::resolve(&who, people)[..]
            && names::resolve(&what, people).is_empty()
        {
            let what = what
                .trim_start_matches(|c: char| !c.is_alphanumeric())
                .to_string();
            let what = strip_article(&what);
            if !what.is_empty() {
                return Some((one, what));
            }
        }
    }
    None
}

fn strip_article(s: &str) -> String {
    for a in ["the ", "The "] {
        if let Some(rest) = s.strip_prefix(a) {
            return rest.to_string();
        }
    }
    s.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn people() -> Vec<names::Person> {
        vec![
            names::Person {
                id: 2,
                first_name: "Дмитрий".into(),
                last_name: Some("Кузнецов".into()),
                username: Some("dima".into()),
            },
            names::Person {
                id: 3,
                first_name: "Ben".into(),
                last_name: Some("Carter".into()),
                username: Some("ben".into()),
            },
        ]
    }

    #[test]
    fn owners_in_both_languages() {
        let p = people();
        for (text, who, what) in [
            ("за CRM отвечает Дима", 2, "CRM"),
            ("за CRM теперь отвечает Дмитрий", 2, "CRM"),
            ("Дима отвечает за внутренний CRM", 2, "внутренний CRM"),
            ("Ben owns billing now", 3, "billing"),
            ("Ben is responsible for the website", 3, "website"),
            ("billing is owned by Ben Carter", 3, "billing"),
        ] {
            assert_eq!(statement(text, &p), Some((who, what.to_string())), "{text}");
        }
    }

    #[test]
    fn not_owner_statements() {
        let p = people();
        for text in [
            "кто отвечает за CRM?",
            "за CRM отвечает кто-то из внешних",
            "Ben owns a dog and two cats and a very big house in town",
            "Дима, ответь за меня на письмо",
            "I'll take care of it",
            "обед сегодня на Диме",
            "планёрку ведёт Дима",
        ] {
            assert_eq!(statement(text, &p), None, "{text}");
        }
    }

    proptest! {
        #[test]
        fn never_panics(s in "\\PC{0,200}") {
            let _ = statement(&s, &people());
        }
    }
}
