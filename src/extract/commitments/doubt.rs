//! Where the rules are unsure: a message that says the speaker means to act but yields no
//! finding, or a promise whose content names no work. Such messages are worth a model's second
//! look (when one is configured); the rules' own findings stand until it answers.
//!
//! - "All right. I'll take care of it tonight." → no finding the rules trust → `unread-intent`
//! - "ок, займусь этим" → a promise of "заняться этим" → `vague-object`

use super::*;

/// Why the rules would like a second opinion on a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Doubt {
    /// The text has a first-person future or an intent phrase, yet nothing was found.
    UnreadIntent,
    /// A promise or request was found, but its content names no work.
    VagueObject,
}

impl Doubt {
    pub fn as_str(self) -> &'static str {
        match self {
            Doubt::UnreadIntent => "unread-intent",
            Doubt::VagueObject => "vague-object",
        }
    }
}

fn intent_words() -> &'static HashSet<&'static str> {
    static SET: OnceLock<HashSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| lexicon::words(include_str!("../../../lexicon/en/doubt.txt")).collect())
}

fn intent_phrases() -> &'static [Vec<&'static str>] {
    static LIST: OnceLock<Vec<Vec<&'static str>>> = OnceLock::new();
    LIST.get_or_init(|| {
        include_str!("../../../lexicon/en/doubt_phrases.txt")
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .filter(|p| !p.is_empty())
            .collect()
    })
}

fn vague_words() -> &'static HashSet<&'static str> {
    static SET: OnceLock<HashSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| lexicon::words(include_str!("../../../lexicon/vague.txt")).collect())
}

/// Whether the content of a promise names any work: a word of three letters or more that is
/// not a pronoun or a bare verb of doing.
fn names_work(content: &str) -> bool {
    let vague = vague_words();
    crate::extract::words::tokens(content)
        .iter()
        .any(|t| t.norm.chars().count() >= 3 && !vague.contains(t.norm.as_str()))
}

/// The rules' doubt about a message, given what they found in it. Questions are left alone:
/// an intent inside one is a request or a wonder, which the rules read already.
pub fn doubt(text: &str, findings: &[Finding]) -> Option<Doubt> {
    for f in findings {
        // A yes whose own words name no work ("All right. I'm going to sort that out") was
        // read with what it answers: the model may say better what was promised.
        if let Finding::Made { content, .. }
        | Finding::Request { content, .. }
        | Finding::Accept {
            own: Some(content), ..
        } = f
            && !names_work(content)
        {
            return Some(Doubt::VagueObject);
        }
    }
    if !findings.is_empty() || text.trim_end().ends_with('?') {
        return None;
    }
    let msg = Msg::new(text);
    let ru_future = (0..msg.toks.len()).any(|i| {
        msg.verb(i).is_some_and(|v| {
            matches!(v.form, lexicon::Form::Fut1 | lexicon::Form::Fut1Pl) && !v.aux
        })
    });
    let words: Vec<&str> = msg.toks.iter().map(|t| t.norm.as_str()).collect();
    let en_word = words.iter().any(|w| intent_words().contains(w));
    let en_phrase = intent_phrases()
        .iter()
        .any(|p| words.windows(p.len()).any(|w| w == p.as_slice()));
    (ru_future || en_word || en_phrase).then_some(Doubt::UnreadIntent)
}

#[cfg(test)]
mod doubt_tests {
    use super::*;
    use proptest::prelude::*;

    fn made(content: &str) -> Finding {
        Finding::Made {
            content: content.into(),
            due: None,
        }
    }

    #[test]
    fn the_examples_beside_the_rule_hold() {
        assert_eq!(
            doubt("All right. I'll take care of it tonight.", &[]),
            Some(Doubt::UnreadIntent)
        );
        assert_eq!(
            doubt("ладно, завтра переговорю с ними", &[]),
            Some(Doubt::UnreadIntent)
        );
        assert_eq!(
            doubt("ок, займусь этим", &[made("заняться этим")]),
            Some(Doubt::VagueObject)
        );
        assert_eq!(
            doubt("I'll do it", &[made("do it")]),
            Some(Doubt::VagueObject)
        );
        // A clear promise, a plain report, a question: nothing to doubt.
        assert_eq!(
            doubt("I'll send the deck by Thursday", &[made("send the deck")]),
            None
        );
        assert_eq!(doubt("отчёт отправил вчера", &[]), None);
        assert_eq!(doubt("will you send it?", &[]), None);
    }

    proptest! {
        #[test]
        fn any_text_is_read_without_panicking(text in "\\PC{0,200}") {
            let _ = doubt(&text, &[]);
            let _ = doubt(&text, &[made(&text)]);
        }
    }
}
