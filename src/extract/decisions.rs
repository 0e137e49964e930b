//! Explicit team decisions in group chats ("решили перейти на Postgres", "we decided to drop
//! the old CRM"): kept sparingly as `context` memories.

use super::words::{normalize, tokens};

/// Markers that open a decision; what follows them is the decision itself.
const MARKERS: &[&str] = &[
    "решили",
    "решено",
    "договорились",
    "принято решение",
    "утвердили",
    "we decided",
    "we've decided",
    "decided to",
    "we agreed",
    "it's decided",
    "decision:",
    "решение:",
];

/// The decision a message states, if it plainly states one (not a question, not a maybe).
pub fn decision(text: &str) -> Option<String> {
    // Most messages name no decision: a plain search first, before any tokenising.
    let lower = text.to_lowercase();
    if !MARKERS.iter().any(|m| lower.contains(m)) {
        return None;
    }
    let norm = normalize(text);
    if norm.contains('?') || norm.len() > 400 {
        return None;
    }
    // Conditionals and open questions are not decisions.
    let toks = tokens(text);
    if toks.iter().any(|t| {
        matches!(
            t.norm.as_str(),
            "если" | "может" | "возможно" | "давайте" | "if" | "maybe" | "should" | "не"
        )
    }) {
        return None;
    }
    let (at, marker) = MARKERS
        .iter()
        .filter_map(|m| norm.find(m).map(|i| (i, *m)))
        .min_by_key(|(i, _)| *i)?;
    // The normalised text keeps byte offsets only where lower-casing kept lengths; else use it.
    let source = if norm.len() == text.len() {
        text
    } else {
        norm.as_str()
    };
    let rest = source.get(at + marker.len()..)?.trim_matches(|c: char| {
        c.is_whitespace() || c == ',' || c == ':' || c == '—' || c == '-' || c == '.'
    });
    // "решили" also means "solved" ("решили проблему с деплоем" reports work done): it opens
    // a decision only before an infinitive or a clause ("решили перейти", "решили, что ...").
    if marker == "решили" {
        let first = tokens(rest)
            .first()
            .map(|t| t.norm.clone())
            .unwrap_or_default();
        let infinitive = ["ть", "ти", "чь", "ться", "тись"]
            .iter()
            .any(|e| first.ends_with(e));
        if !(infinitive || first == "что") {
            return None;
        }
    }
    let rest = rest.trim_start_matches("что ").trim_start_matches("that ");
    if tokens(rest).len() < 2 {
        return None;
    }
    let decided = source.get(at..)?.trim_end_matches(['.', '!', ' ']);
    Some(decided.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_decisions_are_found_in_both_languages() {
        assert_eq!(
            decision("Итак, решили перейти на Postgres в декабре").as_deref(),
            Some("решили перейти на Postgres в декабре")
        );
        assert!(decision("We decided to drop the old CRM.").is_some());
        assert!(decision("договорились, что отгрузка по пятницам").is_some());
    }

    #[test]
    fn questions_maybes_and_bare_markers_are_not_decisions() {
        assert!(decision("решили уже, что делаем с Postgres?").is_none());
        assert!(decision("если решили, то пишите").is_none());
        assert!(decision("решили!").is_none());
        assert!(decision("решили проблему с деплоем").is_none());
        assert!(decision("решили, что отгружаем по пятницам").is_some());
        assert!(decision("доделаю auth до пятницы").is_none());
        assert!(decision("").is_none());
    }
}
