//! Commitments in chat messages: made, requested, accepted, moved, done, cancelled.
//!
//! Pure rules, no model: the text is tokenised once, every token is looked up once in a word
//! table (its classes) and in a small Russian verb lexicon (which form of which verb it is:
//! "доделаю" is a 1st-person future of "доделать", "подготовь" its imperative, "отправила" its
//! past). The rule families then run in a fixed order — cancelled, moved, accept, request,
//! offer, made, done — each with the vetoes that keep wishes, conditionals, questions, retold
//! promises, absence notes and progress notes out. Deadlines come from `super::dates`.

use std::cell::{Cell, OnceCell};
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::{Mutex, OnceLock, PoisonError};

use chrono::{DateTime, Duration};
use chrono_tz::Tz;

use super::Lang;
use super::dates::Due;
use super::names::{NameIndex, Person};
use super::names::{WordHash, fast_tokens};
use super::words::stem;
/// The words of one file of `lexicon/` (a path under it), read once per process:
/// `word_list!("en/food.txt")` is a `&'static [&'static str]`.
macro_rules! word_list {
    ($path:literal) => {{
        static LIST: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
        LIST.get_or_init(|| words(include_str!(concat!("../../../lexicon/", $path))).collect())
            .as_slice()
    }};
}

/// The same as a set, for a list looked up per token: `word_set!("offer_condition.txt")` is a
/// `&'static HashSet<&'static str, WordHash>` (`.contains(w)`).
macro_rules! word_set {
    ($path:literal) => {{
        static SET: std::sync::OnceLock<HashSet<&'static str, WordHash>> =
            std::sync::OnceLock::new();
        SET.get_or_init(|| words(include_str!(concat!("../../../lexicon/", $path))).collect())
    }};
}

/// The phrases of one file of `lexicon/` (one a line, words split by spaces) as a set:
/// `phrase_set!("en/cancel_phrases.txt").contains(&[w, next][..])`.
macro_rules! phrase_set {
    ($path:literal) => {{
        static SET: std::sync::OnceLock<HashSet<Vec<&'static str>, WordHash>> =
            std::sync::OnceLock::new();
        SET.get_or_init(|| {
            crate::extract::words::lexicon_phrases(include_str!(concat!(
                "../../../lexicon/",
                $path
            )))
            .collect()
        })
    }};
}

mod accept;
mod analysis;
mod assign;
mod cancelled;
mod clauses;
mod content;
mod done;
mod doubt;
mod lexicon;
mod made;
mod moved;
mod offer;
mod plan;
mod request;
#[cfg(test)]
mod tests;
mod vetoes;

pub use accept::{agrees_asking_when, asks_when, asks_when_in, ends_asking_when, proposed_date};
pub use assign::assigned;
pub use doubt::{Doubt, doubt};
/// The words of a lexicon file (for readers outside the rules, as `report`).
pub(crate) use lexicon::words as lexicon_words;

use accept::*;
use analysis::*;
use cancelled::*;
pub use cancelled::{calls_off_own, declined_clause, declines};
use clauses::*;
use content::*;
use done::*;
use lexicon::*;
use made::*;
use moved::*;
pub use offer::takes_condition;
use offer::*;
use plan::*;
use request::*;
use vetoes::*;

/// One message as the extractor sees it.
#[derive(Debug, Clone)]
pub struct MessageInput<'a> {
    pub text: &'a str,
    /// The message's own date in the org's timezone: dates resolve against it.
    pub now: DateTime<Tz>,
    pub speaker: i64,
    /// People of the org (for addressees).
    pub people: &'a [Person],
    /// Users mentioned through Telegram entities (text mentions), in order.
    pub mentions: &'a [i64],
    /// `None`: detect from the text.
    pub lang: Option<Lang>,
}

/// What a message says about commitments.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Finding {
    /// The speaker promises to do something.
    Made { content: String, due: Option<Due> },
    /// The speaker asks or assigns someone (or, with `None`, whoever answers) to do something.
    Request {
        addressee: Option<i64>,
        content: String,
        due: Option<Due>,
    },
    /// The speaker offers to do something under a condition; it becomes a commitment if accepted.
    Offer { content: String, due: Option<Due> },
    /// The speaker agrees ("да", "ок, сделаю", "👍"), possibly naming a date ("тогда к 20-му").
    Accept {
        due: Option<Due>,
        /// The speaker's own words of doing, too vague to stand alone ("I'll arrange it",
        /// "ок, сделаю"): what they promise when nothing asked is there to accept (ingest reads
        /// them with the message they answer).
        own: Option<String>,
    },
    /// A commitment shifts; `due` is the new deadline when the message names one.
    Moved {
        due: Option<Due>,
        words: Vec<String>,
        /// The speaker's own promise the message makes when no open one is there to move
        /// ("развёртки завтра доделаю, сегодня уже не успеваю" said of new work).
        otherwise: Option<String>,
    },
    /// A commitment is finished.
    Done { words: Vec<String> },
    /// A commitment is called off.
    Cancelled { words: Vec<String> },
}

impl Finding {
    /// The finding's family as a short lower-case label ("made", "request", "accept"...).
    pub fn label(&self) -> &'static str {
        match self {
            Finding::Made { .. } => "made",
            Finding::Request { .. } => "request",
            Finding::Offer { .. } => "offer",
            Finding::Accept { .. } => "accept",
            Finding::Moved { .. } => "moved",
            Finding::Done { .. } => "done",
            Finding::Cancelled { .. } => "cancelled",
        }
    }

    /// The deadline the finding carries, if any.
    pub fn due(&self) -> Option<Due> {
        match self {
            Finding::Made { due, .. }
            | Finding::Request { due, .. }
            | Finding::Offer { due, .. }
            | Finding::Accept { due, .. }
            | Finding::Moved { due, .. } => *due,
            Finding::Done { .. } | Finding::Cancelled { .. } => None,
        }
    }
}

/// How much of a message is read at once: Telegram's own limit on a message. Longer text (from
/// a replay or an import) is read in pieces of about this size, so the work per message is
/// linear in its length whatever the rules do within a piece.
pub const PIECE_CHARS: usize = 4096;

/// The findings of one message (usually none or one), in the order its pieces say them, each
/// once.
pub fn analyze(input: &MessageInput<'_>) -> Vec<Finding> {
    let found = analyze_all(input);
    // The passes below read the whole message once more, so only one within a piece; they
    // look at one or two findings only.
    let found = if input.text.len() <= PIECE_CHARS
        && matches!(
            found.as_slice(),
            [Finding::Done { .. }]
                | [Finding::Done { .. }, Finding::Made { .. }]
                | [Finding::Request { due: None, .. }]
        ) {
        let m = Msg::new(input.text);
        eased_date(input, &m, partly_done(&m, found))
    } else {
        found
    };
    match content::topic(input.text) {
        Some(topic) => content::with_topic(found, topic),
        None => found,
    }
}

/// "Could you put together a shortlist? no rush, next week is fine": the ask read apart from
/// its ease has no date; the ease's date is the ask's.
fn eased_date(input: &MessageInput<'_>, m: &Msg, found: Vec<Finding>) -> Vec<Finding> {
    let [
        Finding::Request {
            addressee,
            content,
            due: None,
        },
    ] = found.as_slice()
    else {
        return found;
    };
    let Some(u) = (1..m.n()).find(|&k| m.has_f(k, URGE)) else {
        return found;
    };
    if !moved::relaxed(m, u) && !moved::relaxed(m, u - 1) {
        return found;
    }
    let lang = input.lang.unwrap_or_else(|| Lang::detect(input.text));
    let after = m.toks[u].span.start;
    let due = input
        .text
        .get(after..)
        .and_then(|rest| crate::extract::dates::deadline(rest, input.now, lang))
        .map(|(_, d)| d);
    match due {
        Some(d) => vec![Finding::Request {
            addressee: *addressee,
            content: content.clone(),
            due: Some(d),
        }],
        None => found,
    }
}

/// "всех обзвонил, кроме Пака — телефон вне сети. завтра ещё наберу", "called everyone except
/// the Lees, will try them tomorrow": a report with an exception and the speaker's dated
/// future after it is progress with the remainder dated — a move, not a done and new work.
fn partly_done(m: &Msg, found: Vec<Finding>) -> Vec<Finding> {
    // "пятерых обзвонил, двое трубку не берут", "rang 2 of them, the other one's not picking
    // up": some of the work is left, so nothing is done.
    if let [Finding::Done { .. }] = found.as_slice()
        && some_left(m)
    {
        return Vec::new();
    }
    let [
        Finding::Done { words },
        Finding::Made {
            content,
            due: Some(due),
        },
    ] = found.as_slice()
    else {
        return found;
    };
    let except = (1..m.n()).any(|k| word_list!("except.txt").contains(&m.w(k)))
        || (1..m.n()).any(|k| m.w(k) == "apart" && m.w(k + 1) == "from");
    if !except {
        return found;
    }
    vec![Finding::Moved {
        due: Some(*due),
        words: words.clone(),
        otherwise: Some(content.clone()),
    }]
}

/// A later clause of the message says some of them are not done: it opens with how many or
/// which ("двое", "остальные", "the other one") and is negated.
fn some_left(m: &Msg) -> bool {
    (1..m.n()).any(|k| {
        if !m.clause_start(k) {
            return false;
        }
        let clause = m.bounds(k, false);
        let opens = |j: usize| {
            word_list!("some_left.txt").contains(&m.w(j)) || m.has_f(j, REST) || is_number(m.w(j))
        };
        let quantity = opens(k) || m.w(k) == "the" && opens(k + 1);
        // "остальное не горит": the rest can wait, which says nothing of what was done.
        quantity
            && !clause.clone().any(|j| m.has_f(j, URGE))
            && clause
                .clone()
                .any(|j| m.has_f(j, NEG) || m.w(j).ends_with("n't") || m.negated(j))
    })
}

/// Does the message try reaching someone again ("I'll try her again Monday", "ещё раз наберу")?
pub fn retries(text: &str) -> bool {
    let m = Msg::new(text);
    (0..m.n()).any(|i| {
        let w = m.w(i);
        (w == "try" && (i + 1..(i + 4).min(m.n())).any(|k| m.w(k) == "again"))
            || (matches!(w, "ещё" | "еще")
                && (i.saturating_sub(2)..(i + 3).min(m.n())).any(|k| {
                    m.verb(k)
                        .is_some_and(|v| word_list!("contact_verbs.txt").contains(&v.inf))
                }))
    })
}

/// Is `content` (a promise's text) about reaching someone: its first word a verb of calling,
/// writing or chasing?
pub fn reaches_someone(content: &str) -> bool {
    let first = content
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_lowercase();
    word_list!("contact_verbs.txt").contains(&first.as_str())
}

fn analyze_all(input: &MessageInput<'_>) -> Vec<Finding> {
    let parts = pieces(input.text, PIECE_CHARS);
    // "Quick one: 1) Musa confirm the diesel 2) Femi pls check the link 3) Blessing, invoices
    // before month end": each numbered item of a list of asks says its own thing to its own
    // person. A list of the speaker's own plans ("today: 1) … 2) …") is read whole.
    if parts.len() == 1
        && let Some(items) = numbered_items(input.text)
    {
        let whole = analyze_piece(input);
        if whole
            .iter()
            .any(|f| !matches!(f, Finding::Request { .. } | Finding::Done { .. }))
        {
            return whole;
        }
        let out = analyze_each(input, items);
        // Read apart only when that finds more asks put to someone by name ("1) Денис —
        // стулья до чт 2) Лёха — каркас к среде" is read as assignments from the whole).
        let addressed = |fs: &[Finding]| {
            fs.iter()
                .filter(|f| {
                    matches!(
                        f,
                        Finding::Request {
                            addressee: Some(_),
                            ..
                        }
                    )
                })
                .count()
        };
        return if addressed(&out) > addressed(&whole) {
            out
        } else {
            whole
        };
    }
    if parts.len() < 2 {
        return analyze_piece(input);
    }
    analyze_each(input, parts)
}

/// Each of `texts` (parts of `input`'s text) read on its own, the findings in order, each once.
fn analyze_each(input: &MessageInput<'_>, texts: Vec<&str>) -> Vec<Finding> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for text in texts {
        let piece = MessageInput {
            text,
            ..input.clone()
        };
        for f in analyze_piece(&piece) {
            if seen.insert(f.clone()) {
                out.push(f);
            }
        }
    }
    out
}

/// A text written as an inline numbered list ("…: 1) … 2) … 3) …", numbered from 1 in
/// order): the part before the first item, then each item. `None` for fewer than two items.
fn numbered_items(text: &str) -> Option<Vec<&str>> {
    let b = text.as_bytes();
    let mut starts = Vec::new();
    let mut next = 1u32;
    let mut i = 0;
    while i < b.len() {
        let at_word = i == 0 || b[i - 1].is_ascii_whitespace() || b[i - 1] == b'(';
        if at_word && b[i].is_ascii_digit() {
            let mut j = i;
            while j < b.len() && b[j].is_ascii_digit() && j - i < 2 {
                j += 1;
            }
            let closed = j < b.len() && b[j] == b')' && (j + 1 == b.len() || b[j + 1] == b' ');
            if closed && text[i..j].parse::<u32>().ok() == Some(next) {
                starts.push(i);
                next += 1;
                i = j + 1;
                continue;
            }
        }
        i += 1;
    }
    if starts.len() < 2 {
        return None;
    }
    let mut out = Vec::new();
    if starts[0] > 0 && !text[..starts[0]].trim().is_empty() {
        out.push(&text[..starts[0]]);
    }
    for (k, &s) in starts.iter().enumerate() {
        let e = starts.get(k + 1).copied().unwrap_or(text.len());
        // The item without its number: "Femi the link dropped…" opens with the name.
        let body = text[s..e].find(')').map_or(s, |p| s + p + 1);
        out.push(&text[body..e]);
    }
    Some(out)
}

/// `text` cut into consecutive pieces of at most `max` characters that together are the whole
/// text: each ends at the last line break of its second half, else the last sentence end,
/// else the last space, so a promise is rarely cut in two; a run without any is cut at `max`.
pub fn pieces(text: &str, max: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    loop {
        let (piece, next) = rest.split_at(piece_end(rest, max));
        out.push(piece);
        if next.is_empty() {
            return out;
        }
        rest = next;
    }
}

/// Where the first piece of `text` ends (see [`pieces`]): a char boundary, past 0 unless the
/// text is empty.
fn piece_end(text: &str, max: usize) -> usize {
    let max = max.max(2);
    let Some((limit, _)) = text.char_indices().nth(max) else {
        return text.len();
    };
    let window = text.get(..limit).unwrap_or(text);
    let half = window.char_indices().nth(max / 2).map_or(0, |(i, _)| i);
    let tail = window.get(half..).unwrap_or("");
    let after = |i: usize, c: char| half + i + c.len_utf8();
    let line = tail.rfind('\n').map(|i| after(i, '\n'));
    let sentence = || {
        let mut next: Option<char> = None;
        for (i, c) in tail.char_indices().rev() {
            if matches!(c, '.' | '!' | '?' | '…' | ';') && next.is_some_and(char::is_whitespace) {
                return Some(after(i, c));
            }
            next = Some(c);
        }
        None
    };
    let space = || {
        tail.char_indices()
            .rev()
            .find(|&(_, c)| c.is_whitespace())
            .map(|(i, c)| after(i, c))
    };
    line.or_else(sentence)
        .or_else(space)
        .filter(|&c| c > 0 && c <= limit)
        .unwrap_or(limit)
}

/// The findings of one piece of a message.
///
/// The whole piece is read first; then each independent clause on its own, because a hedge,
/// a report or a date in one clause says nothing about the promise in another ("I'll send the
/// rate con tmrw. also the strike might be a problem", "оплачу на этой неделе, сегодня лимит").
/// `text` with a request opener of `lexicon/en/openers.txt` ("do one thing,") read as "please",
/// if it has one: padded to the same length, so spans still point where they did.
fn without_openers(text: &str) -> Option<String> {
    let openers = || lexicon::lines(include_str!("../../../lexicon/en/openers.txt"));
    // Every message is asked: no copy of it unless an opener is there at all.
    let has = |p: &str| {
        text.as_bytes()
            .windows(p.len())
            .any(|w| w.eq_ignore_ascii_case(p.as_bytes()))
    };
    if !openers().any(has) {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    for phrase in openers() {
        for (at, _) in lower.match_indices(phrase) {
            let end = at + phrase.len();
            let before_ok = lower[..at]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric());
            // "do one thing Amit, share the file": a name may stand before the comma.
            let rest = &text[end..];
            let named = rest
                .trim_start_matches(' ')
                .split_once(',')
                .is_some_and(|(name, _)| {
                    !name.is_empty()
                        && !name.contains(' ')
                        && name.chars().next().is_some_and(char::is_uppercase)
                });
            let after = lower[end..].trim_start_matches(' ');
            if before_ok && (after.starts_with(',') || after.starts_with(':') || named) {
                // It asks as "please" does, and is read as one; the comma stays, ending the
                // address before it ("Priya, please, prepare…").
                let mut out = text.to_string();
                let please = format!("{:<width$}", "please", width = end - at);
                out.replace_range(at..end, &please);
                return Some(out);
            }
        }
    }
    None
}

/// The text before a closing "…, ok?" (`lexicon/confirm_tags.txt`), when there is more than the
/// tag and the tag is its only question.
fn without_confirm_tag(text: &str, now: DateTime<Tz>) -> Option<&str> {
    let tags = word_list!("confirm_tags.txt");
    let t = text.trim_end();
    let body = t.strip_suffix('?')?.trim_end();
    let last_start = body
        .char_indices()
        .rev()
        .find(|(_, c)| !c.is_alphanumeric())
        .map_or(0, |(i, c)| i + c.len_utf8());
    let last = crate::extract::words::normalize(&body[last_start..]);
    let before = body[..last_start].trim_end_matches(|c: char| c.is_whitespace() || c == ',');
    // One word before the tag only when it is a date ("Thurs ok?" answering a request): "fine
    // ok?" or "you ok?" ask nothing of a date.
    let enough = || {
        before.split_whitespace().count() >= 2
            || crate::extract::dates::deadline(before, now, Lang::detect(before))
                .is_some_and(|(span, _)| span.len() == before.len())
    };
    (tags.contains(&last.as_str()) && !before.contains('?') && enough()).then_some(before)
}

fn analyze_piece(input: &MessageInput<'_>) -> Vec<Finding> {
    // "do one thing, raise a request with admin": the opener names no work; it asks.
    if let Some(bare) = without_openers(input.text) {
        return analyze_piece(&MessageInput {
            text: &bare,
            ..input.clone()
        });
    }
    // "sure, by thurs ok?": asking whether the date suits is saying it.
    if let Some(bare) = without_confirm_tag(input.text, input.now) {
        return analyze_piece(&MessageInput {
            text: bare,
            ..input.clone()
        });
    }
    let m = Msg::new(input.text);
    if let Some(yes) = yes_on(input.text, &m) {
        return vec![yes];
    }
    let names = NameIndex::new(input.people);
    if let Some(found) = plan(input, &m, &names) {
        return found;
    }
    let whole = analyze_whole(input, &m, &names);
    if whole.is_empty()
        && let Some(bare) = without_address(&m, &names)
    {
        // "Игорь Валентинович, принято", "выйду, Игорь Валентинович": the address aside.
        let sub = MessageInput {
            text: &bare,
            ..input.clone()
        };
        let found = analyze_whole(&sub, &Msg::new(&bare), &names);
        if matches!(found.first(), Some(Finding::Accept { .. })) {
            return found;
        }
    }
    let segs = segments(&m, &names);
    if segs.len() < 2 {
        return named_objects(&m, need_then_mine(&m, whole));
    }
    let lang = input.lang.or_else(|| Some(Lang::detect(input.text)));
    let parts: Vec<Msg> = segs.iter().map(|r| m.slice(r.clone())).collect();
    let consequences = m.present(consequence_phrases());
    let per: Vec<Vec<Finding>> = parts
        .iter()
        .enumerate()
        .map(|(k, part)| {
            if let Some(text) = k
                .checked_sub(1)
                .and_then(|j| carried_promise(&parts[j], part, joined_by_and(input.text, &segs[k])))
            {
                let sub = MessageInput {
                    text: &text,
                    lang,
                    ..input.clone()
                };
                return analyze_whole(&sub, &Msg::new(&text), &names);
            }
            // "…, а то без реагента встанем": what follows if it is not done (the cut may fall
            // inside the phrase, between "а" and "то").
            let at = m.toks.partition_point(|t| t.span.start < segs[k].start);
            if (at.saturating_sub(2)..=at).any(|j| consequences.iter().any(|p| m.seq_at(j, p))) {
                return Vec::new();
            }
            let sub = MessageInput {
                text: part.text,
                lang,
                ..input.clone()
            };
            analyze_whole(&sub, part, &names)
        })
        .collect();
    let found = combine(input, &m, whole, &segs, &parts, per);
    named_objects(&m, need_then_mine(&m, found))
}

/// "к 15-му надо сдать отчёт по часам теории, я сделаю": work that needs doing, with the
/// speaker's bare "I'll do it" after it, is the speaker's promise of that work.
fn need_then_mine(m: &Msg, found: Vec<Finding>) -> Vec<Finding> {
    let [
        Finding::Request {
            addressee: None,
            content,
            due,
        },
    ] = found.as_slice()
    else {
        return found;
    };
    let Some(last) = m.n().checked_sub(1) else {
        return found;
    };
    let clause = m.bounds(last, false);
    let mut verb = None;
    for k in clause.clone() {
        match m.verb(k) {
            Some(v)
                if verb.is_none()
                    && matches!(v.form, Form::Fut1)
                    && word_list!("doing_verbs.txt").contains(&v.inf) =>
            {
                verb = Some(v.inf)
            }
            _ if m.has_f(k, SUBJ | FILL | AGREE)
                || m.w(k) == "я"
                || m.w(k) == "сама"
                || m.w(k) == "сам" => {}
            _ => return found,
        }
    }
    let (Some(inf), true) = (verb, clause.start > 0) else {
        return found;
    };
    if !(0..clause.start).any(|k| m.has_f(k, NEED)) {
        return found;
    }
    let mut words: Vec<&str> = content.split_whitespace().collect();
    if words.last() == Some(&inf) {
        words.pop();
    }
    while words
        .last()
        .is_some_and(|w| matches!(*w, "я" | "сама" | "сам" | "и" | "а"))
    {
        words.pop();
    }
    if words.is_empty() {
        return found;
    }
    vec![Finding::Made {
        content: words.join(" "),
        due: *due,
    }]
}

/// Promises of "it" read with the thing the message named before (see [`with_antecedent`]).
fn named_objects(m: &Msg, mut found: Vec<Finding>) -> Vec<Finding> {
    for f in &mut found {
        if let Finding::Made { content, .. }
        | Finding::Offer { content, .. }
        | Finding::Request { content, .. } = f
            && let Some(named) =
                with_antecedent(m, content).or_else(|| content::ru_antecedent(m, content))
        {
            *content = named;
        }
        // "the zip on the entrance door is munted, I'll fix it by tuesday": a yes of a verb
        // alone names its thing when the message named it before.
        if let Finding::Accept { own: Some(own), .. } = f
            && let Some(named) = with_antecedent(m, own).or_else(|| content::ru_antecedent(m, own))
        {
            *own = named;
        }
    }
    found
}

fn analyze_whole(input: &MessageInput<'_>, m: &Msg, names: &NameIndex) -> Vec<Finding> {
    let text = input.text;
    debug_assert_eq!(m.text, text);
    if m.toks.is_empty() {
        return emoji_only(text).into_iter().collect();
    }
    let cx = Ctx::new(m, input, names, false);
    let conditional = is_conditional(m) && !is_offer_condition(m, None);
    let question_everywhere = m.question.iter().all(|&q| q);

    // "не, спасибо, сами справимся": an offer declined, nothing agreed or promised.
    if refusal_phrases().iter().any(|p| m.seq_at(0, p)) {
        return Vec::new();
    }
    // "reminder: toolbox talk moved to 7:30", "FYI standup moved to 10": news for everyone, no
    // one's promise moves, ends or starts. A request inside still asks.
    if is_announcement(m) {
        return request(&cx).into_iter().collect();
    }
    if let Some(i) = is_cancelled(m)
        && !m.is_q(i)
        && !conditional
        && is_moved(m).is_none()
    {
        return vec![Finding::Cancelled { words: cx.words() }];
    }
    // The speaker's own new work, read once for the move below.
    let own_work = OnceCell::new();
    let own_work = || {
        own_work
            .get_or_init(|| match made(&cx) {
                Some(Finding::Made { content, .. }) => Some(content),
                _ => None,
            })
            .clone()
    };
    if let Some(i) = is_moved(m)
        // "…, Monday ok?", "…не успею. сдвинем на пт?": a refused date and another asked
        // about is the speaker's own move proposed.
        && (!m.is_q(i) || proposal(m) || moved::other_date(m).is_some())
        && !conditional
        && !is_retold(m)
        // "I'll sort the GST return next week, not urgent": new work of its own, said at ease.
        // A "no rush" before the promise eases a deadline already set ("не горит, сделаю к
        // среде"); after it, it qualifies the new one.
        && !(relaxed(m, i)
            && ru_promise(m)
                .map(|p| p.0)
                .or_else(|| en_promise(m).map(|p| p.0))
                .is_some_and(|t| t < i)
            && own_work().is_some())
        // "Aoife could you put together a shortlist? no rush, next week is fine": said after
        // an ask in the same message, the ease dates the ask.
        && !(relaxed(m, i)
            && m.sent_of(i).is_some_and(|s| s > 0)
            && matches!(request(&cx), Some(Finding::Request { .. })))
    {
        let due = moved_due(&cx, i);
        return vec![Finding::Moved {
            due,
            words: cx.words(),
            otherwise: refused_work(m).or_else(own_work),
        }];
    }
    if let Some(o) = question_offer(&cx) {
        return vec![o];
    }
    // "график почти готов, скину в понедельник": a progress note that names a new date for
    // the rest is a promise again (ingest reads it as the open one, moved).
    let progress_then_promise = || {
        let at = ru_promise(m)
            .map(|p| p.0)
            .or_else(|| en_promise(m).map(|p| p.0));
        // "board paper not yet done, …. I'll finish it today": the status said before, in
        // any of its forms.
        at.is_some_and(|p| {
            !m.is_q(p)
                && ((0..p).any(|k| m.has_f(k, PROGRESS))
                    || is_progress(&m.slice(0..m.toks[p].span.start)))
                && cx.has_date()
        })
    };
    if is_retold(m) || is_progress(m) && !progress_then_promise() {
        return Vec::new();
    }
    let absence = is_absence(m);
    let idiom = is_idiom(m);
    if conditional {
        // "могу съездить, если машина будет": a conditional offer is still an offer.
        return match offer(&cx) {
            Some(Finding::Made { content, due } | Finding::Offer { content, due })
                if !absence && !idiom =>
            {
                vec![Finding::Offer { content, due }]
            }
            _ => Vec::new(),
        };
    }

    // "могу к пятнице" right after a request: yes, by then.
    if m.w(0) == "могу"
        && m.n() > 1
        && !question_everywhere
        && only_date_left(&cx, 1)
        && let Some(due) = cx.due()
    {
        return vec![Finding::Accept {
            due: Some(due),
            own: None,
        }];
    }
    // "могу, за мной", "могу, без проблем": able and agreeing is a yes.
    if m.w(0) == "могу"
        && m.n() > 1
        && !question_everywhere
        && (m.has_f(1, AGREE) || multi_agreement(m, 1).is_some())
        && leading_agreement_after(m, multi_agreement(m, 1).unwrap_or(2)) >= m.n()
    {
        return vec![Finding::Accept {
            due: cx.due(),
            own: None,
        }];
    }
    // "в четверг", "15.02", "Wednesday": a date and nothing else answers "когда сможешь?" —
    // an acceptance by then, if a request to the speaker is there to accept (ingest checks).
    if m.n() > 0
        && !question_everywhere
        && !m.is_q(0)
        && only_date_left(&cx, 0)
        // Only the date: "завтра меня не будет" says something else about tomorrow.
        && (0..m.n()).all(|i| {
            !m.has_f(i, PRON | STOP)
                || m.has_f(i, DATE | PREP)
                || word_list!("deadline_words.txt").contains(&m.w(i))
                || m.w(i) == "can" && i + 1 == m.n()
                // "к пятнице будет": when it will be there.
                || matches!(m.w(i), "будет" | "будут")
        })
        && let Some(due) = cx.due()
    {
        return vec![Finding::Accept {
            due: Some(due),
            own: None,
        }];
    }
    // "monday's tight but ok", "впритык, но ок": a yes after a hedge, by the date it names.
    if let Some(b) = (1..m.n())
        .rev()
        .find(|&k| word_list!("but.txt").contains(&m.w(k)))
        && m.has_f(b + 1, AGREE)
        && leading_agreement_after(m, b + 1) >= m.n()
        && !m.question.iter().any(|&q| q)
    {
        return vec![Finding::Accept {
            due: cx.due(),
            own: None,
        }];
    }
    // "sure, by when?", "ок, к какому числу?": yes, the date to come from whoever asked.
    if yes_asking_when(m) {
        return vec![Finding::Accept {
            due: None,
            own: None,
        }];
    }
    // Agreement first: "да, сделаю", "ок, к среде сделаю", "хорошо, тогда к 20-му", "sure, will do".
    let lead = leading_agreement(m);
    if lead > 0 && !question_everywhere {
        let lead_sent = m.sent_of(lead - 1);
        // "ок, после 3 урока": yes, at a time the resolver need not know.
        let at_a_time = m.has_f(lead, TIME_PREP)
            && m.n() - lead <= 5
            && (lead..m.n()).all(|k| m.verb(k).is_none() && !m.has_f(k, NEG) && !m.is_q(k));
        // "да, первым" to "завтра первым на Заводскую заедешь?": a yes echoing one word.
        let echo = m.n() - lead == 1
            && m.verb(lead).is_none()
            && !m.is_q(lead)
            && !m.has_f(
                lead,
                NEG | DONE | CANCEL | MOVE | NONWORK | COND | NEED | PROGRESS,
            );
        // "yeah we can take them", "sure, I can do that": able, after a yes, is the yes.
        let able = matches!(m.w(lead), "i" | "we")
            && matches!(m.w(lead + 1), "can" | "could")
            && m.has_f(lead + 2, EN_VERB)
            && (lead + 3..m.n()).all(|k| m.has_f(k, PRON | DATE | PREP | FILL) && !m.is_q(k));
        // "yeah no worries, slides by tues 👍", "ок, прайс к пятнице": a yes naming the thing
        // asked for and when.
        let thing_by_date = || {
            if cx.due().is_none() {
                return false;
            }
            let span = cx.due_span();
            let rest: Vec<usize> = (lead..m.n())
                .filter(|&k| {
                    let t = &m.toks[k].span;
                    !span.is_some_and(|d| t.start < d.end && d.start < t.end)
                        && !m.has_f(k, AGREE | FILL | PLEASE | APPROVE)
                })
                .collect();
            !rest.is_empty()
                && rest.len() <= 3
                && rest.iter().all(|&k| {
                    m.verb(k).is_none()
                        && !m.is_q(k)
                        && !request::ing_of_any_verb(m.w(k))
                        && !m.has_f(k, PRON)
                        && !m.has_f(
                            k,
                            NEG | DONE | CANCEL | MOVE | NONWORK | COND | NEED | PROGRESS | EN_VERB,
                        )
                })
        };
        if lead >= m.n()
            || only_date_left(&cx, lead)
            || echo
            || thing_by_date()
            || able
            || on_my_way(m, lead)
            || signs_me_up(m, lead)
            || be_there(m, lead) && !absence
            || at_a_time
        {
            return vec![Finding::Accept {
                due: cx.due(),
                own: None,
            }];
        }
        let promise_at = ru_promise(m)
            .map(|p| p.0)
            .or_else(|| en_promise(m).map(|p| p.0));
        // "Ok I'll let y'all go": an idiom after the yes promises nothing.
        if let Some(p) = promise_at
            && p >= lead
            && !absence
            && !idiom
            && !m.is_q(p)
        {
            // A new sentence with its own promise ("Ок. Завтра пришлю отчёт") is a promise, and
            // so is a promise naming its own work ("ok team, I'll send the Q2 deck to Harmon").
            if m.sent_of(p) == lead_sent {
                cx.lead.set(lead);
                return match made(&cx) {
                    Some(f @ (Finding::Made { .. } | Finding::Accept { .. })) => vec![f],
                    _ => vec![Finding::Accept {
                        due: cx.due(),
                        own: None,
                    }],
                };
            }
            // "yep I got it. and we'll have their quarterly test report to them by Friday":
            // a yes of several words, a sentence of its own, takes the ask on by its own date;
            // the next sentence, joined on with "and" or "also", promises more work besides.
            // ("Ок. Завтра пришлю отчёт" is the yes, said again with its date.)
            let yes_alone = m.sent_of(lead) != lead_sent
                && (0..lead).any(|k| multi_agreement(m, k).is_some_and(|e| e > k + 1));
            let joined = (m.bounds(p, true).start..p)
                .any(|k| word_list!("en/also.txt").contains(&m.w(k)) || m.w(k) == "and");
            if yes_alone
                && joined
                && let Some(f @ Finding::Made { .. }) = made(&cx)
                && let Finding::Made { content, .. } = &f
                && !significant_stems(content).is_empty()
            {
                return vec![
                    Finding::Accept {
                        due: None,
                        own: None,
                    },
                    f,
                ];
            }
        }
    }
    // A bare "уже иду", "бегу" answers a call.
    if lead == 0 && !question_everywhere && on_my_way(m, 0) {
        return vec![Finding::Accept {
            due: cx.due(),
            own: None,
        }];
    }
    if !absence && let Some(r) = request(&cx) {
        // "скинул меню Марине, глянь рыбу": a report of the speaker's own, then a request.
        if let Some(words) = done_before_request(m) {
            return vec![Finding::Done { words }, r];
        }
        return vec![r];
    }
    if absence || idiom {
        return Vec::new();
    }
    if let Some(o) = offer(&cx) {
        return vec![o];
    }
    if let Some(f) = made(&cx) {
        let at = ru_promise(m)
            .map(|p| p.0)
            .or_else(|| en_promise(m).map(|p| p.0));
        if is_offer_condition(m, at)
            && let Finding::Made { content, due } = f
        {
            return vec![Finding::Offer { content, due }];
        }
        // "Отчёт отправил. Завтра займусь сметой": a report and a new promise.
        if matches!(f, Finding::Made { .. })
            && let Some(words) = done_elsewhere(m)
        {
            return vec![Finding::Done { words }, f];
        }
        return vec![f];
    }
    // "the German group booked for Friday are asking if they can do a tasting": a past in an
    // ask passed on tells what others did.
    let relayed = |i: usize| request::relayed_work(m, m.bounds(i, false)).is_some();
    if let Some(i) = done(m).filter(|&i| !relayed(i)) {
        // A past read by the dictionary alone ("заболела", "прошла") names work only with
        // words of its own to match.
        let mut words = cx.words();
        // "FAQ still isn't up, sorry… I've emailed the web guy": beside work said not done,
        // the report names only what its own sentence does.
        let sentence = m.bounds(i, true);
        let not_done_elsewhere = (0..m.n()).any(|k| {
            !sentence.contains(&k) && (m.negated(k) || m.has_f(k, NEG) || m.w(k).ends_with("n't"))
        });
        if not_done_elsewhere && let Some(own) = m.byte_span(sentence) {
            words = stems_of(&m.slice(own));
        }
        if !(m.verb(i).is_some_and(|v| v.dict) && words.is_empty()) {
            // "headcount: frontline 18 confirmed": the heading names what is done too.
            if let Some(head) = delivered_under_heading(&cx) {
                words.extend(
                    head.into_iter()
                        .filter(|h| !words.contains(h))
                        .collect::<Vec<_>>(),
                );
            }
            return vec![Finding::Done { words }];
        }
    }
    if text.contains(['✅', '✔']) {
        return vec![Finding::Done { words: cx.words() }];
    }
    // "отчёт по загрузке https://…", "quote for Acme: https://…": the work handed over as a
    // link. Only the words around the link can name which promise (never the link's own).
    if let Some(words) = delivered_by_link(m) {
        return vec![Finding::Done { words }];
    }
    // "Stock position:\nWhite PU – 4,200 m…", "Numbers by section: …": the thing promised,
    // posted under its own name.
    if let Some(words) = delivered_under_heading(&cx) {
        return vec![Finding::Done { words }];
    }
    // "yesss! i'll come in at 9": a yes that is a sentence of its own stays a yes by the time
    // the rest names, whatever it says of the speaker ("Yes. I'm going to Leeds." names none).
    if lead > 0
        && lead < m.n()
        && cx.due().is_some()
        && m.sent_of(lead - 1) != m.sent_of(lead)
        && !m.is_q(lead - 1)
        && !question_everywhere
    {
        return vec![Finding::Accept {
            due: cx.due(),
            own: None,
        }];
    }
    Vec::new()
}

/// A clause before the last that reports work done and asks, promises and questions nothing:
/// its significant words (never none, which would close whatever the speaker promised last).
fn done_before_request(m: &Msg) -> Option<Vec<String>> {
    let last = m.toks.last()?.clause;
    for c in 0..last {
        let idx: Vec<usize> = (0..m.n()).filter(|&k| m.clause_of(k) == Some(c)).collect();
        let (Some(&a), Some(&b)) = (idx.first(), idx.last()) else {
            continue;
        };
        if m.is_q(a) {
            continue;
        }
        let sub = m.slice(m.toks[a].span.start..m.toks[b].span.end);
        // "the German group booked for Friday are asking if…": an ask passed on tells no work
        // of the speaker's.
        if done(&sub).is_some()
            && request_cue(&sub).is_none()
            && request::relayed_work(&sub, 0..sub.n()).is_none()
            && ru_promise(&sub).is_none()
            && en_promise(&sub).is_none()
        {
            let words = stems_of(&sub);
            if !words.is_empty() {
                return Some(words);
            }
            // "Signed. Daniela pls take them to BOV": a past standing alone names the work by
            // its verb.
            if sub.n() == 1 && sub.w(0).is_ascii() {
                return Some(vec![crate::extract::words::stem(sub.w(0))]);
            }
        }
    }
    None
}

/// The words of a statement that hands over a link, without the link; `None` for no link, a
/// question, or nothing but the link.
fn delivered_by_link(m: &Msg) -> Option<Vec<String>> {
    // A photo's words say what it shows, not which promise it hands in ("📷 вот, снизу листа"
    // answers "фото скинь"): only the reply it is says that (`link_alone`).
    if !has_link(m.text) || photo(m.text) || m.question.iter().any(|&q| q) {
        return None;
    }
    let bare: String = m
        .text
        .split_whitespace()
        .filter(|w| !w.contains("http://") && !w.contains("https://") && !bare_url(w))
        .collect::<Vec<_>>()
        .join(" ");
    let words = stems_of(&Msg::new(&bare));
    (!words.is_empty()).then_some(words)
}

/// The words of a heading the message opens with ("Stock position:", "Остатки на складе:")
/// when what follows it is the thing itself: a heading of one to five words that is no plan,
/// no date, no question and no sentence (no verb), with something after its colon.
fn delivered_under_heading(cx: &Ctx) -> Option<Vec<String>> {
    let m = cx.m;
    // The cheap tests first: most messages have no heading. The colon of a heading ends a word
    // ("https://", "12:30" have none).
    let colon = m.text.find(": ").or_else(|| m.text.find(":\n"))?;
    let (head, rest) = (&m.text[..colon], &m.text[colon + 1..]);
    if head.contains('\n') || rest.trim().is_empty() || m.question.iter().any(|&q| q) {
        return None;
    }
    // The heading's tokens are the message's first ones.
    let n_head = m.toks.partition_point(|t| t.span.end <= head.len());
    if n_head == 0 || n_head > 5 {
        return None;
    }
    let plan_word = |w: &str| {
        word_list!("en/plan.txt").contains(&w)
            || word_list!("ru/plan.txt").contains(&w)
            || word_list!("plan_day.txt").contains(&w)
    };
    let sentence = (0..n_head).any(|k| {
        m.verb(k).is_some()
            || m.has_f(k, DATE | MONTH | EN_VERB | PRON | GREET | AGREE | NEED)
            || plan_word(m.w(k))
            || is_infinitive(m.w(k))
    });
    // "по капусте: …", "Шинторг: отгрузка в чт": a topic or a name heads news, not the thing;
    // a heading names its thing with a common word ("Stock position", "Остатки на складе").
    let common = (0..n_head).any(|k| {
        let w = m.written(k);
        !m.has_f(k, PREP | STOP) && w.chars().all(|c| c.is_alphabetic() && c.is_lowercase())
    });
    // "Эльвира Рашидовна, по ДИТ новости: …": one called first heads news.
    if sentence || m.has_f(0, PREP) || !common || head.contains(',') {
        return None;
    }
    // What follows is the thing itself, told with no verb of its own ("Пропуска: жду ещё данные
    // от Дениса" is news), and all of it ("security quotes: 2 in so far" is part of it).
    let after = n_head..m.n();
    let told = after.clone().any(|k| {
        m.verb(k).is_some()
            || m.has_f(k, PRON | SUBJ | PROGRESS | REST)
            || crate::morph::first_person_verb(m.w(k))
    });
    let part = m.slice(colon + 1..m.text.len());
    let so_far = word_list!("part_so_far.txt")
        .iter()
        .any(|p| part.seq(&p.split('_').collect::<Vec<_>>()).is_some());
    // The dearer readings last: a promise beside it ("…, I'll send the rest Friday"), and a
    // heading over work handed to people ("lab mtg notes:\n1) Marcus - BSC recert…").
    if told
        || so_far
        || ru_promise(m).is_some()
        || en_promise(m).is_some()
        || !cx.names.people_in(m.text).is_empty()
    {
        return None;
    }
    let words = stems_of(&Msg::new(head));
    (!words.is_empty()).then_some(words)
}

/// A link, or a photo: a chat's photo comes as its caption, and "📸 …" is how people write one
/// in text. Either hands work over ("📸 Ипподромская 6/6, откосы тоже").
fn has_link(text: &str) -> bool {
    text.contains("http://")
        || text.contains("https://")
        || photo(text)
        || text.split_whitespace().any(bare_url)
}

fn photo(text: &str) -> bool {
    text.trim_start().starts_with(['📸', '📷'])
}

/// "disk.yandex.ru/i/akciya", "docs.google.com/…": a link written without its scheme — a host
/// of two or more labels ending in letters, then a path ("1.6т/ч" and "3.5/4" are not).
fn bare_url(w: &str) -> bool {
    let Some((host, path)) = w.split_once('/') else {
        return false;
    };
    let labels: Vec<&str> = host.split('.').collect();
    !path.is_empty()
        && labels.len() >= 2
        && labels
            .iter()
            .all(|l| !l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        && labels
            .last()
            .is_some_and(|tld| tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic()))
}

/// Nothing but a link handed over ("https://docs…/edit", "вот: https://…"), where
/// [`delivered_by_link`] finds no words to name a promise by: which promise it delivers is the
/// reply's to say (`ingest`).
pub fn link_alone(text: &str) -> bool {
    let m = Msg::new(text);
    has_link(text) && !m.question.iter().any(|&q| q) && delivered_by_link(&m).is_none()
}

/// "Here you go 👇 prep for Sat/Sun: …", "Держите, вот список": the message opens by handing
/// the work over (`lexicon/*/handover.txt`), and asks nothing.
pub fn handed_over(text: &str) -> bool {
    let m = Msg::new(text);
    !m.question.iter().any(|&q| q)
        && lexicon::handover_phrases()
            .iter()
            .any(|p| p.len() <= m.n() && p.iter().enumerate().all(|(k, w)| m.w(k) == *w))
}

/// Significant stems of a text (no stop words, no dates), for matching updates to commitments.
/// A promise whose content names only a verb ("взять", "have it") is about what the rest of
/// the message says ("на завтра рейс в Тольятти ... возьмёшь?", "let me draft the gift box
/// copy, I can have it by thursday"): the clause of `text` with the most significant words is
/// appended to it. Any other content is returned as it is.
pub fn with_context(content: &str, text: &str) -> String {
    context_in(content, text, false)
}

/// [`with_context`], taking first the sentence with the promise's own verb ([`verb_clause`]):
/// what "ок сегодня скину" takes on in "заказывай 300 м, счёт мне скинь". Not for a yes whose
/// own message says more ("…quote for Hamburg. I'll send by tmrw, waiting for rates"), where
/// that sentence is the yes itself.
pub fn reply_context(content: &str, text: &str) -> String {
    context_in(content, text, true)
}

fn context_in(content: &str, text: &str, by_verb: bool) -> String {
    if !significant_stems(content).is_empty() {
        return content.to_string();
    }
    // A long text is read in pieces; its opening piece is the context, so the cost per
    // promise stays bounded however long the message.
    let text = text.get(..piece_end(text, PIECE_CHARS)).unwrap_or("");
    let verb_clause = if by_verb {
        verb_clause(content, text)
    } else {
        None
    };
    let best = punctuated(text)
        .map(|c| c.trim().trim_matches(['—', '-', ' ']))
        .filter(|c| !c.is_empty() && !remark(c))
        .map(|c| (significant_stems(c).len(), c))
        .filter(|(n, _)| *n > 0)
        .max_by_key(|(n, c)| (*n, std::cmp::Reverse(c.len())));
    let best = verb_clause.map(|c| (0, c)).or(best);
    match best {
        Some((_, clause)) if content.trim().is_empty() => clause.to_string(),
        Some((_, clause)) => format!("{} — {clause}", content.trim()),
        None => content.to_string(),
    }
}

/// The pieces of `text` between punctuation; a point or a comma between digits ("релиз 1.4",
/// "2,5 т") is part of a number.
fn punctuated(text: &str) -> impl Iterator<Item = &str> {
    let b = text.as_bytes();
    let mut from = 0;
    let mut cuts = text.char_indices().filter(move |&(i, c)| {
        let digits = |j: Option<usize>| j.and_then(|j| b.get(j)).is_some_and(u8::is_ascii_digit);
        match c {
            '.' | ',' => !(digits(i.checked_sub(1)) && digits(Some(i + 1))),
            '!' | '?' | ';' | '\n' => true,
            _ => false,
        }
    });
    std::iter::from_fn(move || {
        if from > text.len() {
            return None;
        }
        match cuts.next() {
            Some((i, c)) => {
                let piece = &text[from..i];
                from = i + c.len_utf8();
                Some(piece)
            }
            None => {
                let piece = &text[from..];
                from = text.len() + 1;
                Some(piece)
            }
        }
    })
}

/// The sentence of `text` with the verb `content` opens with: what
/// "скину" answers in "заказывай 300 м, счёт мне скинь", what "добьём" in "остальное ночные
/// добьют" or "гляну" in "после датчика глянь, почему крышки плохо закручиваются". Nothing when
/// no clause has that verb or the clause names nothing but it.
pub fn verb_clause<'t>(content: &str, text: &'t str) -> Option<&'t str> {
    let verb = content.split_whitespace().next()?.to_lowercase();
    let prefix: String = verb.chars().take(4).collect();
    let text = text.get(..piece_end(text, PIECE_CHARS)).unwrap_or("");
    let m = Msg::new(text);
    (0..m.n())
        .filter(|&k| {
            prefix.chars().count() == 4 && m.w(k).starts_with(&prefix)
                || m.verb(k).is_some_and(|v| v.inf == verb)
                || crate::morph::verb_lemma(m.w(k)).is_some_and(|l| l == verb)
        })
        .find_map(|k| {
            let mut s = m.bounds(k, true);
            // "Thanks for the report, I'll look into it": a remark before the verb's clause
            // is none of its thing.
            while s.start < k {
                let c = m.bounds(s.start, false);
                if c.end > k || c.end <= s.start || !remark_in(&m, c.clone()) {
                    break;
                }
                s.start = c.end;
            }
            let from = m.toks.get(s.start)?.span.start;
            let to = m.toks.get(s.end.checked_sub(1)?)?.span.end;
            let clause = text.get(from..to)?.trim_matches(['—', '-', ' ', ',']);
            (!significant_stems(clause).is_empty()).then_some(clause)
        })
}

/// Does the sentence of `text` whose verb `content` opens with promise more work by another
/// verb of the speaker's ("поправим, в среду фальцовку перенастроим")?
pub fn more_work_beside(content: &str, text: &str) -> bool {
    let Some(verb) = content.split_whitespace().next().map(str::to_lowercase) else {
        return false;
    };
    let text = text.get(..piece_end(text, PIECE_CHARS)).unwrap_or("");
    let m = Msg::new(text);
    let own = |k: usize| m.verb(k).is_some_and(|v| v.inf == verb);
    (0..m.n()).filter(|&k| own(k)).any(|k| {
        m.bounds(k, true).any(|j| {
            !own(j)
                && m.verb(j)
                    .is_some_and(|v| matches!(v.form, Form::Fut1 | Form::Fut1Pl))
        })
    })
}

/// The pieces of `text` (between punctuation) other than the one that says `own`, the yes's
/// own words: a piece is the yes's when one of its words is one of them or, in another form,
/// starts as one does ("оплачу" for "оплатить").
pub fn beside_own(text: &str, own: &str) -> String {
    let own: Vec<String> = own.split_whitespace().map(str::to_lowercase).collect();
    let same = |w: &str| {
        let w = w.to_lowercase();
        own.iter().any(|o| {
            *o == w
                || o.chars().count() >= 4
                    && w.chars().count() >= 4
                    && o.chars().take(4).eq(w.chars().take(4))
        })
    };
    text.split(['.', ',', '!', '?', ';', '\n', '—'])
        .filter(|piece| {
            !piece
                .split(|c: char| !c.is_alphanumeric() && c != '\'')
                .any(same)
        })
        .collect::<Vec<_>>()
        .join(". ")
}

/// A move asked as a question by the one who promised ("рустам, инвентаризацию перенесём на
/// пятницу?", "can we push the demo to monday?"): the new date and the words naming the work.
/// Nothing moves until someone who may decide agrees (ingest reads the "давай" that answers it).
///
/// A date asked about with "…, норм?" is such a question too ("инспектор только во вторник
/// может. акт ТО тогда к вторнику, норм?"): the work and its new day, asked to be agreed.
pub fn proposed_move(input: &MessageInput<'_>) -> Option<(Due, Vec<String>)> {
    let m = Msg::new(input.text);
    // "афишу к чт не успею, … сдвинем на пт?": the missing is told, the move asked after it.
    let asked_move = (0..m.n()).find(|&k| m.has_f(k, MOVE) && m.is_q(k) && !m.negated(k));
    match moved::is_moved(&m) {
        Some(at) if m.is_q(at) && !m.negated(at) => {}
        Some(_) if let Some(k) = asked_move => {
            let lang = input.lang.unwrap_or_else(|| Lang::detect(input.text));
            let rest = m.toks.get(k).and_then(|t| input.text.get(t.span.end..))?;
            let (_, due) = crate::extract::dates::deadline(rest, input.now, lang)?;
            return Some((due, significant_stems(input.text)));
        }
        Some(_) => return None,
        None => {
            // Only the asking sentence, and one that promises nothing itself ("я ей завтра
            // пришлю коммерческое, ок?" is a promise checked with the boss, not a move).
            // The asking sentence is the first that ends in "?": "отчёт по продажам можно в
            // пн? жду новые цены от REHAU" explains itself after it.
            let end = input.text.find('?').map_or(input.text.len(), |i| i + 1);
            let head = &input.text[..end];
            let last = head.rfind(['.', '!', '\n']).map_or(0, |i| i + 1);
            let asked = without_confirm_tag(&head[last..], input.now)?;
            let lang = Lang::detect(asked);
            let a = Msg::new(asked);
            if crate::extract::dates::find(asked, input.now, lang).len() != 1
                || ru_promise(&a).is_some()
                || en_promise(&a).is_some()
            {
                return None;
            }
            let (_, due) = crate::extract::dates::deadline(asked, input.now, lang)?;
            return Some((due, significant_stems(input.text)));
        }
    }
    let names = NameIndex::new(input.people);
    let cx = Ctx::new(&m, input, &names, false);
    let at = moved::is_moved(&m)?;
    Some((moved_due(&cx, at)?, cx.words()))
}

/// What a message asked, read as one that a plain yes ("will do", "ок, сделаю") answered: a
/// bare imperative to no one in particular ("Should be, she's not booked. Send them the quote")
/// asks only when it has a date or a "please" (`request`), but a yes to it takes it on. The
/// work and its date; `None` for anything else (a question of fact, a statement, a request to
/// someone named, which `analyze` reads already).
pub fn answered_request(input: &MessageInput<'_>) -> Option<(String, Option<Due>)> {
    if input.text.len() > PIECE_CHARS {
        return None;
    }
    let m = Msg::new(input.text);
    let names = NameIndex::new(input.people);
    let cx = Ctx::new(&m, input, &names, true);
    match request::request(&cx)? {
        Finding::Request {
            addressee: None,
            content,
            due,
        } if !content.trim().is_empty() => {
            // A date of another sentence ("she's not booked that Saturday. Send them the
            // quote") is not the work's.
            let asked = request::request_cue(&m)
                .or_else(|| (0..m.n()).find(|&k| m.has_f(k, EN_VERB) && m.clause_start(k)))
                .map(|k| m.bounds(k, true));
            let dated_there = match (cx.due_span(), asked) {
                (Some(span), Some(s)) => m.holds(s, span),
                _ => true,
            };
            Some((lower_common_opening(&content), due.filter(|_| dated_there)))
        }
        _ => None,
    }
}

/// Does the text set a second promise apart from the first ("…, а скан завтра отправлю")?
/// (`lexicon/apart.txt`.)
pub fn sets_apart(text: &str) -> bool {
    let m = Msg::new(text);
    (1..m.n()).any(|k| word_list!("apart.txt").contains(&m.w(k)))
}

/// The owner asking leave for a later date of their own ("сводку можно в пт отдам?", "можно в
/// чт доделаю?", "can I push the hoist bay to Monday?"): the asking sentence holds a promise
/// of the speaker's or an English move word after "I", one date, and a word asking leave
/// (`lexicon/ask_leave.txt`). The new date and the words naming the work; `ingest` moves the
/// promise it answers or names.
pub fn asked_own_date(input: &MessageInput<'_>) -> Option<AskedLeave> {
    // Asked on most messages that say nothing else: without a "?" there is no question to read.
    if !input.text.contains('?') {
        return None;
    }
    let m = Msg::new(input.text);
    let lang = input.lang.unwrap_or_else(|| Lang::detect(input.text));
    let (idx, span) = m.asking_sentence()?;
    let q = idx[0];
    let asked = input.text.get(span.clone())?;
    let sub = m.slice(span);
    // "can I push …", "could I move …": the asking and the move in one.
    let i_move = idx.windows(2).any(|w| {
        m.w(w[0]) == "i"
            && (m.has_f(w[1], MOVE) || word_list!("en/ask_move.txt").contains(&m.w(w[1])))
    });
    // "can I bring it Monday?", "could we do the audit Thursday?": leave asked in English.
    let may_i = |w: &[usize]| {
        matches!(m.w(w[0]), "can" | "could" | "may") && matches!(m.w(w[1]), "i" | "we")
    };
    // … of work already spoken of: "it", "them" after the verb.
    let i_do_it = idx.windows(4).any(|w| {
        may_i(w) && !m.has_f(w[2], DATE) && word_list!("en/object_pron.txt").contains(&m.w(w[3]))
    });
    let leave = idx.windows(2).any(may_i)
        || idx
            .iter()
            .any(|&k| word_list!("ask_leave.txt").contains(&m.w(k)));
    let verb = i_move || i_do_it || ru_promise(&sub).is_some();
    // "отчёт по продажам можно в пн?": the work named, no verb; which promise it is the
    // caller checks by those words.
    let named = !stems_of(&sub).is_empty();
    if !(i_move || leave && (verb || named)) || m.negated(q) {
        return None;
    }
    if crate::extract::dates::find(asked, input.now, lang).len() != 1 {
        return None;
    }
    let (_, due) = crate::extract::dates::deadline(asked, input.now, lang)?;
    Some(AskedLeave {
        due,
        words: significant_stems(input.text),
        asked: stems_of(&sub),
        verb,
    })
}

/// What [`asked_own_date`] read: the date asked for, the message's words, the asking
/// sentence's own words, and whether it said the verb of the work.
#[derive(Debug, Clone, PartialEq)]
pub struct AskedLeave {
    pub due: Due,
    pub words: Vec<String>,
    pub asked: Vec<String>,
    pub verb: bool,
}

/// The new date of a move whose word is at `i`: "к среде не успеваю, переношу на четверг" —
/// the date after the word that moves; the one before it is the date being missed.
fn moved_due(cx: &Ctx, i: usize) -> Option<Due> {
    let (m, input) = (cx.m, cx.input);
    let text = input.text;
    let after_move = m
        .toks
        .get(i)
        .and_then(|t| text.get(t.span.end..))
        .and_then(|rest| super::dates::deadline(rest, input.now, cx.lang).map(|(_, due)| due));
    // "сегодня не успеваю": a date before "не успеваю" is the one being missed; a date in
    // a clause before that one is the new one ("завтра доделаю, сегодня уже не успеваю").
    let missed = m.w(i) == "не" && m.w(i + 1).starts_with("успе");
    // In its own sentence first: "…сами приедут в апреле. КП подготовлю в понедельник,
    // сегодня уже не успею" is Monday.
    let earlier = || {
        let start = m.bounds(i, false).start;
        let end = m.toks.get(start)?.span.start;
        let sentence = m.toks.get(m.bounds(i, true).start)?.span.start.min(end);
        let find = |from: usize| {
            let head = text.get(from..end)?;
            super::dates::deadline(head, input.now, cx.lang).map(|(_, due)| due)
        };
        find(sentence).or_else(|| find(0))
    };
    // "не успеваю до среды, может перенесём на пятницу?": after the date being missed, the one
    // said last is the new one.
    // Only when the missed date follows "не успеваю" right away ("…не успел, сделаю в
    // понедельник с утра" misses none).
    let offered_after_missed = || {
        let rest = m.toks.get(i + 1).and_then(|t| text.get(t.span.end..))?;
        let found = super::dates::find(rest, input.now, cx.lang);
        let (missed_at, next) = (found.first()?, found.get(1)?);
        let gap = rest.get(..missed_at.span.start)?;
        if gap.contains([',', '.', '!', '?', '\n']) || gap.split_whitespace().count() > 1 {
            return None;
        }
        super::dates::deadline(rest.get(next.span.start..)?, input.now, cx.lang).map(|(_, d)| d)
    };
    more_time(m, input.now)
        .or_else(|| if missed { offered_after_missed() } else { None })
        .or(after_move)
        .or_else(|| if missed { earlier() } else { cx.due() })
}

/// Does the message open with a no (`lexicon/no.txt`)? A promise after it is the speaker's own,
/// not the yes to what was asked or offered.
pub fn opens_with_no(text: &str) -> bool {
    let (first, more) = first_word(text);
    more && first.is_some_and(|w| word_list!("no.txt").contains(&w.as_str()))
}

/// Does the message open with a yes ("yes please, I'll send the address", "ок, …")?
pub fn opens_with_yes(text: &str) -> bool {
    first_word(text).0.is_some_and(|w| {
        word_classes()
            .get(w.as_str())
            .is_some_and(|f| f & (AGREE | APPROVE) != 0)
    })
}

/// A message's first word, normalised, and whether more words follow it. Only the first word
/// is read: no analysis of the whole message on the write path.
fn first_word(text: &str) -> (Option<String>, bool) {
    let mut words = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty());
    let first = words.next().map(crate::extract::words::normalize);
    (first, words.next().is_some())
}

/// Is `clause` only a remark on what was said ("хорошая идея", "thanks for the report", "это
/// баг"), beside yes-words, fillers and greetings? It names no work (`lexicon/remarks.txt`).
pub fn remark(clause: &str) -> bool {
    remark_in(&Msg::new(clause), 0..usize::MAX)
}

/// Is every piece of `text` between punctuation a remark ("Хорошая идея." beside "добавим")?
pub fn only_remarks(text: &str) -> bool {
    let mut pieces = punctuated(text)
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .peekable();
    pieces.peek().is_some() && pieces.all(remark)
}

fn remark_in(m: &Msg, r: Range<usize>) -> bool {
    static LIST: OnceLock<Vec<String>> = OnceLock::new();
    let list = LIST.get_or_init(|| {
        lexicon::lines(include_str!("../../../lexicon/remarks.txt"))
            .map(|l| {
                let m = Msg::new(l);
                m.toks
                    .iter()
                    .map(|t| t.norm.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    });
    let said: Vec<&str> = m
        .toks
        .iter()
        .skip(r.start)
        .take(r.end.saturating_sub(r.start))
        .filter(|t| t.f & (AGREE | FILL | GREET | PLEASE) == 0 || list.iter().any(|p| p == &t.norm))
        .map(|t| t.norm.as_str())
        .collect();
    !said.is_empty() && list.iter().any(|p| *p == said.join(" "))
}

/// Does a reply's promise have, after its verb, only words standing for what was asked ("ask
/// him", "check everything", "order 3", "order from Lola Ising's"), no thing of its own named
/// ("send them the revised quote", "order the LPG")?
pub fn names_no_thing(own: &str) -> bool {
    let m = Msg::new(own);
    if m.n() < 2 {
        return true;
    }
    let stands_for = m.has_f(1, PRON)
        || word_list!("en/object_pron.txt").contains(&m.w(1))
        || word_list!("en/no_thing.txt").contains(&m.w(1));
    // "send them the revised quote": the pronoun is who gets the thing named after it.
    let thing_after = m.has_f(2, DETERMINER);
    let place = m.has_f(1, PREP) && !m.has_f(1, DETERMINER | PRON);
    stands_for && !thing_after || place || is_number(m.w(1))
}

/// "камри салон сегодня не успею. завтра к обеду сделаю": the work a bare promise after a
/// refusal is about is what the refusal's clause names ("сделать камри салон"), for when there
/// is nothing open to move.
fn refused_work(m: &Msg) -> Option<String> {
    let (_, verb, _) = ru_promise(m)?;
    let (_, inf) = verb?;
    let phrases = m.present(lexicon::date_refusal_phrases());
    let (at, len) = (0..m.n()).find_map(|k| {
        phrases
            .iter()
            .find(|p| m.seq_at(k, p))
            .map(|p| (k, p.len()))
    })?;
    let clause = m.bounds(at, false);
    let named: Vec<&str> = clause
        .filter(|&k| {
            !(at..at + len).contains(&k) && m.toks[k].verb.is_none() && !m.has_f(k, DATE | PREP)
        })
        .map(|k| &m.text[m.toks[k].span.clone()])
        .collect();
    if named.is_empty() || inf == made::NO_VERB {
        return None;
    }
    let content = format!("{inf} {}", named.join(" "));
    (!significant_stems(&content).is_empty()).then_some(content)
}

pub fn significant_stems(text: &str) -> Vec<String> {
    stems_of(&Msg::new(text))
}

/// A commit's hash as written ("3f2a9c1", "fixed in a1b2c3d4e5"): where work went, not what it
/// was. Lower case, with two digits and two letters at least ("BE20451" is a part's code).
fn commit_hash(written: &str) -> bool {
    let digits = written.bytes().filter(u8::is_ascii_digit).count();
    (7..=40).contains(&written.len())
        && written
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        && digits >= 2
        && written.len() - digits >= 2
}

fn stems_of(m: &Msg) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // `out.contains` alone made a long text of varied words quadratic.
    let mut seen: HashSet<String> = HashSet::new();
    for t in &m.toks {
        let w = t.norm.as_str();
        let noise = STOP
            | AGREE
            | FILL
            | GREET
            | DATE
            | MONTH
            | PREP
            | PRON
            | COND
            | RETOLD
            | PROGRESS
            | PUREV
            | NEG
            | CANCEL
            | MOVE
            | NEED
            | PLEASE
            | SUBJ
            | NUMW
            | URGE
            | APPROVE;
        let done_word = t.f & DONE != 0 && Lang::detect(w) == Lang::Ru;
        if t.f & noise != 0
            || done_word
            || t.verb.is_some()
            // A number names a thing ("214", "invoice 1041") unless it is too short to tell
            // anything apart or is a year.
            || w.chars().any(|c| c.is_ascii_digit())
                && !w.chars().any(char::is_alphabetic)
                && (w.len() < 3
                    || !w.chars().all(|c| c.is_ascii_digit())
                    // A year ("for 2027") dates, it does not name.
                    || w.parse::<u32>().is_ok_and(|y| (1990..=2100).contains(&y)))
            || w.chars().count() < 2
            || commit_hash(m.text.get(t.span.clone()).unwrap_or(""))
            // "Тольятти", "плети": a noun or a name that ends like an infinitive names a thing.
            || is_infinitive(w)
                && Lang::detect(w) == Lang::Ru
                && !(crate::morph::known_non_verb(w)
                    && (crate::morph::likely_noun(w) || crate::morph::proper_name_form(w)))
            || w.starts_with("успе")
            || w.ends_with("ing") && is_en_verb_ing(w)
        {
            continue;
        }
        let s = stem(w);
        if !s.is_empty() && seen.insert(s.clone()) {
            out.push(s);
        }
    }
    out
}

/// The lemmas of the Russian verbs of `text` that say what was done ("ремень заказал" →
/// "заказать"; an English word of done by its stem: "booked" → "book"), for matching an update to the promise whose verb it is; the verbs of moving,
/// calling off, doing in general (`lexicon/ru/light_verbs.txt`) and negated ones are left out.
pub fn verb_lemmas(text: &str) -> Vec<String> {
    lemmas_of(&Msg::new(text), false)
}

/// The verbs of a report ([`verb_lemmas`] without the ones that promise or ask: "доделаю",
/// "сделай", "сделаешь").
pub fn done_verb_lemmas(text: &str) -> Vec<String> {
    lemmas_of(&Msg::new(text), true)
}

/// What a text may name a promise by, from one reading of it: its significant stems
/// ([`significant_stems`]) and its verbs ([`verb_lemmas`]).
pub fn naming_words(text: &str) -> Vec<String> {
    let m = Msg::new(text);
    let mut out = stems_of(&m);
    out.extend(lemmas_of(&m, false));
    out
}

fn lemmas_of(m: &Msg, past_only: bool) -> Vec<String> {
    let light = word_list!("ru/light_verbs.txt");
    let mut out: Vec<String> = Vec::new();
    for (i, t) in m.toks.iter().enumerate() {
        // "all booked", "shipped": an English word of done names its verb by its stem.
        if t.verb.is_none() && t.f & DONE != 0 && t.norm.chars().all(|c| c.is_ascii_lowercase()) {
            let s = stem(&t.norm);
            if s.len() >= 4 && !light_en_verb(&s) && !m.negated(i) && !out.contains(&s) {
                out.push(s);
            }
            continue;
        }
        let Some(v) = t.verb else { continue };
        if t.f & (MOVE | CANCEL | NEG | COND | NEED | PROGRESS) != 0
            || m.negated(i)
            || v.inf.is_empty()
            || v.inf == made::NO_VERB
            || light.contains(&v.inf)
            || past_only && matches!(v.form, Form::Fut1 | Form::Fut1Pl | Form::Imp | Form::Fut2)
            || out.iter().any(|o| o == v.inf)
        {
            continue;
        }
        out.push(v.inf.to_string());
    }
    out
}

/// Does the promise `next`, said after a report about `done`, name other work than `done`'s
/// rest? "сдал в химчистку, костюм заберу в пятницу" for "отвезти костюм в химчистку" (another
/// verb) does; "половину прозвонил, остальных завтра", "30 racked, rest Monday" (the rest, or
/// no verb of its own) and "доделаю завтра" (going on with it) do not.
pub fn names_other_work(next: &str, done: &str) -> bool {
    let first = |t: &str| t.split_whitespace().next().unwrap_or("").to_lowercase();
    let (a, b) = (first(next), first(done));
    let light = |w: &str| {
        word_list!("en/light_verbs.txt").contains(&w)
            || word_list!("ru/light_verbs.txt").contains(&w)
    };
    let rest = next.split(|c: char| !c.is_alphanumeric()).any(|w| {
        let w = w.to_lowercase();
        word_list!("ru/rest.txt").contains(&w.as_str())
            || word_list!("en/rest.txt").contains(&w.as_str())
    });
    let verb = |w: &str| crate::morph::verb_lemma(w).is_some() || w.is_ascii() && !w.is_empty();
    !a.is_empty() && a != b && verb(&a) && !light(&a) && !rest
}

/// An English verb of doing in general (`lexicon/en/light_verbs.txt`): it names no promise.
pub fn light_en_verb(w: &str) -> bool {
    word_list!("en/light_verbs.txt").contains(&w)
}

fn is_en_verb_ing(w: &str) -> bool {
    // "going" (the trigger of "I'm going to …") names nothing; a short base ("thing", "king")
    // is no verb to look up.
    if w == "going" {
        return true;
    }
    if w.len() <= 5 {
        return false;
    }
    let base = w.trim_end_matches("ing");
    let classes = word_classes();
    [base.to_string(), format!("{base}e")].iter().any(|b| {
        classes
            .get(b.as_str())
            .is_some_and(|f| f & (EN_VERB | MOVE) != 0)
    }) || matches!(
        w,
        "pushing" | "moving" | "taking" | "working" | "doing" | "going"
    )
}

/// Does `text` date itself only "right now" ("лады, ща позвоню", "on it now")? Such a yes tells
/// when the work starts, not when it is due (`lexicon/*/immediate.txt`).
pub fn right_now(text: &str) -> bool {
    let m = Msg::new(text);
    let now = |k: usize| {
        word_list!("ru/immediate.txt").contains(&m.w(k))
            || word_list!("en/immediate.txt").contains(&m.w(k))
    };
    (0..m.n()).any(now) && (0..m.n()).all(|k| now(k) || !m.has_f(k, DATE))
}
