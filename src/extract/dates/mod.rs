//! Date and time expressions in Russian and English, resolved against a reference time.
//!
//! Values are wall-clock times in the reference time's zone. The text is tokenized once
//! (`lex`), and a small grammar (`parse`) builds expressions from atoms: dates in digits and
//! words, weekdays in every case form, clock times, parts of day, periods, offsets, ranges and
//! open intervals.
//!
//! Readings this module commits to:
//! - a bare weekday is its next occurrence; today's weekday means next week's unless a time
//!   later today is given; "следующий вторник"/"next Tuesday" is Tuesday of the next
//!   calendar week (weeks start on Monday); "прошлый вторник" of the previous one;
//! - a day and month without a year is this year's, unless it is past by more than three
//!   weeks (then next year's); a bare day of month ("к 20-му") is the next such day;
//! - a clock time without a day is its next occurrence, the current hour counting
//!   ("в 3" at 04:30 is 15:00); with a day, an ambiguous 1–6 means the afternoon
//!   ("завтра в 3" is 15:00);
//! - sub-day offsets ("через 2 часа") are computed in absolute time and converted back to
//!   wall clock; day and longer offsets move the calendar and keep the wall-clock time;
//! - DST: a wall-clock time that does not exist (spring-forward gap) moves forward by the gap
//!   (01:30 on the London spring day is 02:30); an ambiguous one (autumn overlap) takes the
//!   earlier offset, i.e. the first occurrence;
//! - times with a zone in the text ("16:00 CET") are converted to the reference zone;
//! - in running text (`find`, `deadline`): a bare "EOD"/"COB" is a deadline today, "EOW"
//!   Friday of this working week (the coming one on a weekend), "EOM" the month's last day;
//!   a month, quarter or year not introduced by a preposition of time ("за ноябрь",
//!   "for October", "the october statements") is a topic, the nearest such month, never a
//!   deadline; an ordinal word ("the first") needs a month, "of the month"/"числа" or a
//!   deadline word before it to be a date; a period edge said without "this"/"next" that is
//!   already behind us ("в начале месяца" on the 27th) is the coming one; week edges read
//!   as Monday / Wednesday / Friday, "после выходных" as the Monday after;
//! - acronyms are nouns unless used as dates: "BOM"/"BOY" only right after by/until/before
//!   ("by BOM" = before the coming 1st), "EOD"/"EOW"/"EOM" not after a determiner
//!   ("the BOM", "our EOM close"); "by end of day Friday"/"до конца дня пятницы" is that
//!   day; "до начала месяца" and "до НГ"/"by New Year" are the last day before;
//! - vague spans: "в ближайшие дни"/"in the coming days" is the next two days; "день-два",
//!   "2-3 дня", "a day or two" take the longer; "после праздников" is no date;
//!   "после обеда"/"after lunch" is 13:00–17:00 of that day, a deadline that day.

use std::ops::Range;

use chrono::{DateTime, LocalResult, NaiveDateTime, Offset, TimeZone};
use chrono_tz::Tz;

use super::Lang;

mod lex;
mod parse;
#[cfg(test)]
mod tests;

/// How precise a resolved value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Grain {
    Second,
    Minute,
    Hour,
    Day,
    Week,
    Month,
    Quarter,
    Year,
}

impl Grain {
    pub fn as_str(self) -> &'static str {
        match self {
            Grain::Second => "second",
            Grain::Minute => "minute",
            Grain::Hour => "hour",
            Grain::Day => "day",
            Grain::Week => "week",
            Grain::Month => "month",
            Grain::Quarter => "quarter",
            Grain::Year => "year",
        }
    }
}

/// The shape of a value: one moment, a closed interval, or an open one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Point,
    /// `[start, end)`.
    Interval,
    /// Open interval ending at `end` (exclusive): "до 2 часов дня", "by EOD".
    Before,
    /// Open interval from `start`: "after 2pm".
    After,
}

/// A resolved expression, in wall-clock time of the reference timezone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeValue {
    pub kind: Kind,
    pub start: Option<NaiveDateTime>,
    pub end: Option<NaiveDateTime>,
    pub grain: Grain,
}

/// An expression found inside a longer text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Byte span in the text given to [`find`].
    pub span: Range<usize>,
    pub value: TimeValue,
}

pub use crate::domain::Due;

/// Resolve a whole text as one expression (what `kept when` prints). `None`: not a date.
pub fn resolve(text: &str, now: DateTime<Tz>, lang: Lang) -> Option<TimeValue> {
    let _ = lang;
    let l = lex::lex(text);
    let p = parser(&l, now, false);
    let n = p.n();
    // the expression that covers the most of the text wins
    let mut best: Option<(usize, TimeValue)> = None;
    for i in 0..n {
        if let Some((o, e)) = p.expr(i) {
            let cover = e.saturating_sub(i);
            if best.as_ref().is_none_or(|(c, _)| cover > *c) {
                best = Some((cover, o.val));
            }
            if e >= n {
                break;
            }
        }
    }
    best.map(|(_, v)| v)
}

/// Can the lower-cased word `w` be part of a date expression at all (a date word, a unit, a
/// number, a keyword such as "next" or "до")? A word it cannot is outside every date found.
pub fn date_word(w: &str) -> bool {
    // Anything but plain letters ("2moro", "15го", "пол-пятого", "o'clock") the lexer splits or
    // reads its own way: it may be.
    if !w.chars().all(char::is_alphabetic) {
        return true;
    }
    if w.contains('ё') {
        return lex::classify(&w.replace('ё', "е")) != lex::Lex::Word;
    }
    lex::classify(w) != lex::Lex::Word
}

/// Every expression inside a longer message, left to right, non-overlapping.
pub fn find(text: &str, now: DateTime<Tz>, lang: Lang) -> Vec<Found> {
    let _ = lang;
    let l = lex::lex(text);
    find_in(&l, now)
        .into_iter()
        .map(|(span, o)| Found { span, value: o.val })
        .collect()
}

/// The deadline a message names, by the deadline readings of DESIGN.md "Dates"
/// ("до пятницы" → next Friday, "на следующей неделе" → Friday of next week...).
///
/// Past expressions are not deadlines, nor ones ruled out ("а не к 10-му", "not by
/// Friday", "instead of Wednesday"). With several expressions, one introduced by a
/// deadline word (до, к, by, until, на, через, in) wins over the others.
/// Does the date at `span` open with "на" right after a noun ("план на январь", "заказ на
/// пятницу")?
pub(crate) fn period_of_a_noun(text: &str, span: &Range<usize>) -> bool {
    let Some(rest) = text.get(span.clone()) else {
        return false;
    };
    let lead = rest.split_whitespace().next().unwrap_or("").to_lowercase();
    if lead != "на" {
        return false;
    }
    // "план, на январь" has the comma in the word before: no noun. "скидку 10% на 12-е": a
    // number said of the noun stands between.
    let amount = |w: &str| {
        w.chars().any(|c| c.is_ascii_digit())
            && w.chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '%' | '.'))
            || w == "%"
    };
    text.get(..span.start)
        .unwrap_or("")
        .split_whitespace()
        .rev()
        .find(|w| !amount(w))
        .is_some_and(|w| crate::morph::likely_noun(&w.to_lowercase()))
}

pub fn deadline(text: &str, now: DateTime<Tz>, lang: Lang) -> Option<(Range<usize>, Due)> {
    let _ = lang;
    let l = lex::lex(text);
    let hits: Vec<_> = find_in(&l, now)
        .into_iter()
        .filter(|(span, _)| {
            !negated(&l, span.start) && !greeting(text, span) && !farewell(&l, span.start)
        })
        // "the spring sprinkler check", "летнее меню": a season named in passing is no date
        // to keep unless a deadline word leads it ("к лету", "by summer").
        .filter(|(span, o)| o.strong || !lone_season(text, span))
        .collect();
    // "раздам план на январь": a period after a noun says what the thing is for, not when it is
    // due, when the message gives another date ("в понедельник").
    let dated = hits.iter().filter(|(_, o)| o.due.is_some()).count();
    let hits: Vec<_> = hits
        .into_iter()
        .filter(|(span, _)| dated < 2 || !period_of_a_noun(text, span))
        .collect();
    let several = hits.len() > 1;
    let hits: Vec<_> = hits
        .into_iter()
        .filter(|(span, _)| !several || !attributive(text, span))
        .collect();
    // "can't take the jack til next week, I'll drop it over on 23/03 instead": the date said
    // in place of another is the one meant.
    let instead = |span: &Range<usize>| {
        let next = text.get(span.end..).unwrap_or("").trim_start();
        let Some(rest) = next
            .get(..7)
            .filter(|w| w.eq_ignore_ascii_case("instead"))
            .and_then(|_| next.get(7..))
        else {
            return false;
        };
        // "instead of Friday" names the date ruled out.
        !rest.starts_with(char::is_alphanumeric) && !rest.trim_start().starts_with("of")
    };
    // "I'll have the VAT return done end of next week so you can look it over before it's due on
    // the 7th": a date in a clause of why, after one that is dated, is another's deadline.
    // Only a second date can be one said of why: most messages have one or none.
    let why = if hits.len() > 1 {
        purpose_at(text)
    } else {
        None
    };
    let dated_before = |at: usize| {
        hits.iter()
            .any(|(span, o)| o.due.is_some() && span.end <= at)
    };
    let hits: Vec<_> = match why {
        Some(r) if dated_before(r.start) => hits
            .into_iter()
            .filter(|(span, _)| !(r.start <= span.start && span.start < r.end))
            .collect(),
        _ => hits,
    };
    let pick = hits
        .iter()
        .find(|(span, o)| o.due.is_some() && instead(span))
        .or_else(|| hits.iter().find(|(_, o)| o.strong && o.due.is_some()))
        .or_else(|| hits.iter().find(|(_, o)| o.due.is_some()))?;
    let due = pick.1.due?;
    // "завтра сможешь лопатку обвалить до обеда?", "tomorrow, can you have it done by noon?":
    // a deadline by a time of day names no day of its own (it read as today), and the day said
    // in the same sentence is its day.
    let today = now.date_naive();
    let time_of_day = matches!(
        pick.1.val.grain,
        Grain::Hour | Grain::Minute | Grain::Second
    );
    // So does a bare time or hours ("в четверг проведу консультацию, с 15 до 17").
    if due.date == today && time_of_day && !names_today(text, &pick.0) {
        let day = hits.iter().find(|(span, o)| {
            let between = if span.end <= pick.0.start {
                text.get(span.end..pick.0.start)
            } else if pick.0.end <= span.start {
                text.get(pick.0.end..span.start)
            } else {
                None
            };
            // A bare time keeps to its clause ("вечером гляну, раз мастер только завтра").
            between.is_some_and(|b| {
                !b.contains(['.', '!', '?', ';', '\n']) && (pick.1.strong || !b.contains(','))
            }) && o.val.grain == Grain::Day
                && o.due.is_some_and(|d| d.date > today && d.time.is_none())
        });
        if let Some((_, o)) = day
            && let Some(d) = o.due
        {
            return Some((
                pick.0.clone(),
                Due {
                    date: d.date,
                    time: due.time,
                },
            ));
        }
    }
    // "да, с утра начну", "I'll do the first coat in the morning" said in the afternoon: a time
    // of day already gone today is the next one, unless today is said ("this morning").
    // A point ("at 10") is gone an hour after it; "now" is not gone.
    let wall = now.naive_local();
    let gone = match (pick.1.val.end, pick.1.val.start) {
        (Some(end), _) => end <= wall,
        (None, Some(start)) => start + chrono::Duration::hours(1) <= wall,
        (None, None) => false,
    };
    if time_of_day && due.date == today && gone && !names_today(text, &pick.0) {
        return Some((
            pick.0.clone(),
            Due {
                date: today + chrono::Duration::days(1),
                time: due.time,
            },
        ));
    }
    Some((pick.0.clone(), due))
}

/// The byte range of the first clause of why in `text` (`lexicon/purpose_lead.txt`:
/// "чтобы", "because"; "so" only as "so that" or "so you can"): from that word to the end of
/// its clause (a stop, a comma, or "and"/"и"/"а"/"but").
fn purpose_at(text: &str) -> Option<Range<usize>> {
    static WHY: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    let why = WHY.get_or_init(|| {
        crate::extract::words::lexicon_words(include_str!("../../../lexicon/purpose_lead.txt"))
            .collect()
    });
    // Words with where they start, and where a clause ends between them.
    let mut words: Vec<(usize, String, bool)> = Vec::new();
    let mut start = None;
    let mut stop_before = false;
    for (k, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        if c.is_alphanumeric() || c == '\'' {
            if start.is_none() {
                start = Some(k);
            }
            continue;
        }
        if let Some(a) = start.take() {
            words.push((a, text.get(a..k).unwrap_or("").to_lowercase(), stop_before));
            stop_before = false;
        }
        if matches!(c, ',' | '.' | ';' | '!' | '?' | '\n') {
            stop_before = true;
        }
    }
    let w = |i: usize| words.get(i).map_or("", |(_, w, _)| w.as_str());
    let opens = (0..words.len()).find(|&i| {
        why.contains(&w(i))
            || w(i) == "so"
                && (w(i + 1) == "that"
                    || matches!(w(i + 2), "can" | "could" | "will" | "won't" | "don't"))
    })?;
    let end = (opens + 1..words.len())
        .find(|&i| words[i].2 || matches!(w(i), "and" | "but" | "и" | "а" | "но"))
        .map_or(text.len(), |i| words[i].0);
    Some(words[opens].0..end)
}

/// Does the expression at `span` say it is today's ("this morning", "сегодня утром", "today
/// at 10")?
fn names_today(text: &str, span: &Range<usize>) -> bool {
    static TODAY: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    let today = TODAY.get_or_init(|| {
        crate::extract::words::lexicon_words(include_str!("../../../lexicon/today_words.txt"))
            .collect()
    });
    let said = text.get(span.clone()).unwrap_or("").to_lowercase();
    said.split(|c: char| !c.is_alphanumeric())
        .any(|w| today.contains(&w))
}

/// The expression is one English season word used before a noun ("spring sprinkler check");
/// Russian says that with an adjective ("весенняя проверка"), which is no season word.
fn lone_season(text: &str, span: &Range<usize>) -> bool {
    let word = text.get(span.clone()).unwrap_or("").trim();
    let lower = word.to_ascii_lowercase();
    let word = ["the ", "its ", "our ", "their ", "a "]
        .iter()
        .find_map(|d| lower.strip_prefix(d))
        .unwrap_or(&lower);
    let next = text.get(span.end..).unwrap_or("");
    let before_noun = next.starts_with(' ')
        && next
            .trim_start()
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_lowercase());
    word.is_ascii()
        && !word.contains(char::is_whitespace)
        && before_noun
        && matches!(lex::lex(word).toks.as_slice(), [t] if matches!(t.lex, lex::Lex::Season(_)))
}

/// "morning!", "good morning all", "доброе утро": a greeting that happens to name a part of
/// the day.
fn greeting(text: &str, span: &Range<usize>) -> bool {
    let Some(word) = text.get(span.clone()) else {
        return false;
    };
    let word = word.trim().to_lowercase();
    let part_of_day = matches!(
        word.as_str(),
        "morning" | "afternoon" | "evening" | "утро" | "утра" | "вечер" | "день"
    );
    if !part_of_day {
        return false;
    }
    // Only the last words before the expression matter: lower-casing everything before it,
    // for each expression of a long text, made a message's analysis quadratic in its length.
    let head = text.get(..span.start).unwrap_or("").trim_end();
    let cut = head.char_indices().rev().nth(15).map_or(0, |(i, _)| i);
    let before = head.get(cut..).unwrap_or("").to_lowercase();
    let after = text.get(span.end..).unwrap_or("").trim_start();
    // "Morning all!", "Morning y'all.": the greeting names whom it greets.
    let next = after
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .next()
        .unwrap_or("")
        .to_lowercase();
    let greeted = matches!(
        next.as_str(),
        "all"
            | "everyone"
            | "everybody"
            | "team"
            | "guys"
            | "y'all"
            | "lads"
            | "folks"
            | "gang"
            | "crew"
            | "всем"
            | "все"
            | "коллеги"
    );
    before.ends_with("good")
        || before.ends_with("доброе")
        || before.ends_with("добрый")
        || before.ends_with("всем доброе")
        // "Morning. FYI I'll put the tender together next week": a sentence of its own
        // opening the message greets (alone, "Morning." may answer "when?").
        || (before.is_empty()
            && (after.starts_with('!')
                || after.starts_with(',')
                || greeted
                || after.starts_with('.') && after.len() > 1))
}

/// "the Saturday callout", "the Friday delivery": a day naming which thing it is, between
/// "the" and a noun, not when anything is due.
pub fn attributive(text: &str, span: &Range<usize>) -> bool {
    let before = text.get(..span.start).unwrap_or("").trim_end();
    let own = text.get(span.clone()).unwrap_or("");
    let the = own.get(..4).is_some_and(|h| h.eq_ignore_ascii_case("the "))
        && own[4..].chars().all(char::is_alphabetic)
        || before
            .rsplit(|c: char| !c.is_alphanumeric())
            .next()
            .is_some_and(|w| w.eq_ignore_ascii_case("the"))
            && own.chars().all(char::is_alphabetic);
    let next = text
        .get(span.end..)
        .unwrap_or("")
        .trim_start()
        .split(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or("")
        .to_lowercase();
    the && text.get(span.end..).is_some_and(|r| r.starts_with(' '))
        && next.len() > 2
        && next.chars().all(|c| c.is_ascii_lowercase())
        && !date_word(&next)
}

/// The expression starting at byte `start` is one the writer rules out: "к 8-му, а не к
/// 10-му", "not by Friday", "by Monday instead of Wednesday", "вместо пятницы".
fn negated(l: &lex::Lexed, start: usize) -> bool {
    let Ok(i) = l.toks.binary_search_by_key(&start, |t| t.s) else {
        return false;
    };
    let before = |k: usize| if i >= k { l.norm(i - k) } else { "" };
    match before(1) {
        "не" | "not" | "вместо" | "instead" => true,
        "of" => before(2) == "instead",
        "than" => before(2) == "rather",
        _ => false,
    }
}

/// "see you Monday", "увидимся в пятницу", "have a good weekend": a date right after a
/// farewell (`lexicon/farewell.txt`) is when people meet again, not when anything is due.
fn farewell(l: &lex::Lexed, start: usize) -> bool {
    static PHRASES: std::sync::OnceLock<Vec<Vec<&'static str>>> = std::sync::OnceLock::new();
    let phrases = PHRASES.get_or_init(|| {
        crate::extract::words::lexicon_phrases(include_str!("../../../lexicon/farewell.txt"))
            .collect()
    });
    let Ok(mut i) = l.toks.binary_search_by_key(&start, |t| t.s) else {
        return false;
    };
    if i > 0 && matches!(l.norm(i - 1), "в" | "во" | "on" | "at") {
        i -= 1;
    }
    phrases.iter().any(|p| {
        p.len() <= i
            && p.iter()
                .enumerate()
                .all(|(k, w)| l.norm(i - p.len() + k) == *w)
    })
}

fn parser<'a>(l: &'a lex::Lexed, now: DateTime<Tz>, strict: bool) -> parse::P<'a> {
    let nl = now.naive_local();
    parse::P {
        l,
        now,
        nl,
        today: nl.date(),
        strict,
    }
}

/// Could token `t` open an expression? Cheap filter so running text costs little.
fn may_start(t: &lex::Tok) -> bool {
    !matches!(t.lex, lex::Lex::Word | lex::Lex::Sym(_) | lex::Lex::End)
}

fn find_in(l: &lex::Lexed, now: DateTime<Tz>) -> Vec<(Range<usize>, parse::Out)> {
    let p = parser(l, now, true);
    let n = p.n();
    let mut out = Vec::new();
    let mut i = 0;
    while i < n {
        if may_start(&l.toks[i])
            && let Some((o, e)) = p.expr(i)
            && let Some(last) = e.checked_sub(1).and_then(|k| l.toks.get(k))
            && e > i
            && !attributive_season(l, e - 1)
        {
            out.push((l.toks[i].s..last.e, o));
            i = e;
        } else {
            i += 1;
        }
    }
    out
}

/// "winter pruning", "the summer menu": a season said before a noun, with no word of time
/// before it (`lexicon/en/season_time.txt`), names a kind, not a date.
fn attributive_season(l: &lex::Lexed, i: usize) -> bool {
    if !matches!(l.toks[i].lex, lex::Lex::Season(_)) || !l.norm(i).is_ascii() {
        return false;
    }
    let next = l.norm(i + 1);
    let noun = l.toks.get(i + 1).is_some_and(|t| t.sp)
        && next.len() > 2
        && next.chars().all(|c| c.is_ascii_lowercase())
        && !date_word(next);
    let timed = i > 0
        && crate::extract::words::lexicon_words(include_str!(
            "../../../lexicon/en/season_time.txt"
        ))
        .any(|w| w == l.norm(i - 1));
    noun && !timed
}

/// A wall-clock time made real in `tz`: a time in the spring-forward gap moves forward by
/// the gap; an ambiguous time takes the earlier offset.
pub fn to_instant(tz: Tz, t: NaiveDateTime) -> Option<DateTime<Tz>> {
    match tz.from_local_datetime(&t) {
        LocalResult::Single(d) => Some(d),
        LocalResult::Ambiguous(a, b) => Some(if a <= b { a } else { b }),
        LocalResult::None => {
            // the offset in force just before the gap, applied to the missing wall time
            let before = t.checked_sub_signed(chrono::Duration::hours(26))?;
            let off = tz.offset_from_local_datetime(&before).earliest()?.fix();
            let utc =
                t.checked_sub_signed(chrono::Duration::seconds(i64::from(off.local_minus_utc())))?;
            Some(tz.from_utc_datetime(&utc))
        }
    }
}

/// Normalise a computed wall-clock time so it exists in `tz` (see [`to_instant`]).
pub fn fix_wall(tz: Tz, t: NaiveDateTime) -> NaiveDateTime {
    to_instant(tz, t).map_or(t, |d| d.naive_local())
}
