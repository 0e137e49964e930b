//! Tokens, normalisation and stemming shared by every extractor.
//!
//! Russian is matched through Snowball stems rather than lists of every case form.

use std::ops::Range;
use std::rc::Rc;

use rust_stemmers::{Algorithm, Stemmer};

use super::Lang;

/// A word of the text with its byte span in the original string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// Lower-cased, `ё` → `е`.
    pub norm: String,
    pub span: Range<usize>,
}

pub use crate::domain::text::normalize;

/// Words of the text: runs of letters and digits (an apostrophe inside a word stays: "I'll").
pub fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    for (i, &(pos, c)) in chars.iter().enumerate() {
        let inner_apostrophe = (c == '\'' || c == '’')
            && start.is_some()
            && chars.get(i + 1).is_some_and(|&(_, n)| n.is_alphabetic());
        if c.is_alphanumeric() || inner_apostrophe {
            start.get_or_insert(pos);
        } else if let Some(s) = start.take() {
            out.push(Token {
                norm: unstretched(normalize(&text[s..pos])),
                span: s..pos,
            });
        }
    }
    if let Some(s) = start {
        out.push(Token {
            norm: unstretched(normalize(&text[s..])),
            span: s..text.len(),
        });
    }
    out
}

/// A word stretched for feeling ("yesss", "okkk", "дааа", "плиииз") as it is written plainly: a
/// letter three or more times running counts once. Digits stay ("1000"), and so does a word of
/// one letter ("ООО").
pub fn unstretched(w: String) -> String {
    // Most words have no letter three times running: leave them as they are, uncopied.
    let mut it = w.chars();
    let (mut a, mut b) = (it.next(), it.next());
    let mut run = false;
    for c in it {
        if a == Some(c) && b == Some(c) && c.is_alphabetic() {
            run = true;
            break;
        }
        (a, b) = (b, Some(c));
    }
    // A word of one letter only ("ООО", "www", "ммм") is an abbreviation or a sound: as it is.
    let mut letters = w.chars().filter(|c| c.is_alphabetic());
    let first = letters.next();
    if !run || letters.all(|c| Some(c) == first) {
        return w;
    }
    let mut out = String::with_capacity(w.len());
    let mut run: Option<(char, usize)> = None;
    let chars: Vec<char> = w.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let n = match run {
            Some((p, n)) if p == c => n + 1,
            _ => 1,
        };
        run = Some((c, n));
        // Keep the first of a run; keep a second only if the run stops at two.
        let stretched = c.is_alphabetic() && {
            let total = n + chars[i + 1..].iter().take_while(|&&d| d == c).count();
            total >= 3
        };
        if n == 1 || !stretched {
            out.push(c);
        }
    }
    out
}

thread_local! {
    static RU: Stemmer = Stemmer::create(Algorithm::Russian);
    static EN: Stemmer = Stemmer::create(Algorithm::English);
}

/// Snowball stem of an already normalised word; the language is taken from the word's script.
/// Matching a message to promises stems the same words over and over: each thread stems a
/// word once and keeps it.
pub fn stem(word: &str) -> String {
    thread_local! {
        static STEMS: crate::morph::WordMemo<Rc<str>> = Default::default();
    }
    crate::morph::remembered(&STEMS, word, || {
        Rc::from(match Lang::detect(word) {
            Lang::Ru => RU.with(|s| s.stem(word).into_owned()),
            Lang::En => EN.with(|s| s.stem(word).into_owned()),
        })
    })
    .to_string()
}

/// The command words of `lexicon/command_words.txt`: which key a (normalised) word or phrase
/// stands for ("выкл" → `away-off`, "!срочно" is looked up as "срочно" → `priority-urgent`).
pub fn command_word(phrase: &str) -> Option<&'static str> {
    command_word_in("", phrase)
}

/// [`command_word`] among the keys of one command (`"digest-"`): the same word may mean
/// different things to different commands ("off" ends an absence and turns digests off).
pub fn command_word_in(family: &str, phrase: &str) -> Option<&'static str> {
    static LIST: std::sync::OnceLock<Vec<(&'static str, Vec<String>)>> = std::sync::OnceLock::new();
    let list = LIST.get_or_init(|| keyed_lists(include_str!("../../lexicon/command_words.txt")));
    let p = normalize(phrase.trim());
    let p = p.split_whitespace().collect::<Vec<_>>().join(" ");
    list.iter()
        .filter(|(key, _)| key.starts_with(family))
        .find(|(_, words)| words.contains(&p))
        .map(|(key, _)| *key)
}

/// A word list file of lines "KEY: phrase, phrase" (`#` lines are comments): each key with its
/// phrases, normalised.
pub fn keyed_lists(src: &'static str) -> Vec<(&'static str, Vec<String>)> {
    src.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (key, words) = l.split_once(':')?;
            Some((
                key.trim(),
                words.split(',').map(|w| normalize(w.trim())).collect(),
            ))
        })
        .collect()
}

/// Damerau distance at most one: one letter missing, extra, wrong or two swapped ("сдлаю").
pub fn one_typo(a: &[char], b: &[char]) -> bool {
    let (la, lb) = (a.len(), b.len());
    if la.abs_diff(lb) > 1 {
        return false;
    }
    let p = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    if p == la && p == lb {
        return true;
    }
    let (ra, rb) = (&a[p..], &b[p..]);
    if la == lb {
        ra.get(1..) == rb.get(1..)
            || (ra.len() >= 2 && ra[0] == rb[1] && ra[1] == rb[0] && ra.get(2..) == rb.get(2..))
    } else if la > lb {
        ra.get(1..) == Some(rb)
    } else {
        rb.get(1..) == Some(ra)
    }
}

/// The words of a lexicon file: whitespace-separated, `#` starts a comment to the end of the line.
pub(crate) fn lexicon_words(file: &'static str) -> impl Iterator<Item = &'static str> {
    file.lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .flat_map(str::split_whitespace)
}

/// The phrases of a lexicon file: one a line, its words split by spaces, `#` starting a
/// comment.
pub(crate) fn lexicon_phrases(file: &'static str) -> impl Iterator<Item = Vec<&'static str>> {
    file.lines()
        .map(|l| {
            l.split('#')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .collect::<Vec<_>>()
        })
        .filter(|p| !p.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stretched_words_read_plainly() {
        let t = tokens("yesss! Дааа, okkk 1000 all good ООО www");
        let norms: Vec<_> = t.iter().map(|t| t.norm.as_str()).collect();
        assert_eq!(
            norms,
            ["yes", "да", "ok", "1000", "all", "good", "ооо", "www"]
        );
        assert_eq!(t[0].span, 0..5);
    }

    #[test]
    fn tokens_keep_spans_and_fold_yo() {
        let t = tokens("Всё готово, I'll ship!");
        let norms: Vec<_> = t.iter().map(|t| t.norm.as_str()).collect();
        assert_eq!(norms, ["все", "готово", "i'll", "ship"]);
        assert_eq!(&"Всё готово, I'll ship!"[t[2].span.clone()], "I'll");
    }

    #[test]
    fn russian_case_forms_share_a_stem() {
        assert_eq!(stem("пятницы"), stem("пятница"));
        assert_eq!(stem("документации"), stem("документация"));
    }
}
