//! "я в отпуске с 1 по 10 декабря", "I'm off until Monday", "на больничном": the speaker says
//! they will be away, and for which days. Pure text → an [`Absence`]; the dates come from the
//! date resolver, against the message's own time.
//!
//! - an interval ("с 1 по 10 декабря", "next week") → its days;
//! - "до пятницы", "until Monday" → from today to the day before (back on that day);
//! - one day ("завтра у меня отгул") → that day;
//! - no date ("на больничном") → today and the six days after, until `/away off`.

use std::sync::OnceLock;

use chrono::{DateTime, Duration, NaiveDate};
use chrono_tz::Tz;

use super::{Lang, dates, words};

/// Days away, both ends included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Absence {
    pub from: NaiveDate,
    pub to: NaiveDate,
}

/// How long an absence with no end said lasts (today included).
pub const OPEN_DAYS: i64 = 7;

fn phrases() -> &'static Vec<Vec<String>> {
    static LIST: OnceLock<Vec<Vec<String>>> = OnceLock::new();
    LIST.get_or_init(|| {
        include_str!("../../lexicon/absence.txt")
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| {
                l.split_whitespace()
                    .map(words::normalize)
                    .collect::<Vec<_>>()
            })
            .filter(|p| !p.is_empty())
            .collect()
    })
}

fn first_person() -> &'static Vec<String> {
    static LIST: OnceLock<Vec<String>> = OnceLock::new();
    LIST.get_or_init(|| {
        include_str!("../../lexicon/absence_first_person.txt")
            .lines()
            .filter(|l| !l.starts_with('#'))
            .flat_map(str::split_whitespace)
            .map(words::normalize)
            .collect()
    })
}

/// The speaker's absence a message announces, if any. Questions are not announcements.
pub fn absence(text: &str, now: DateTime<Tz>, lang: Lang) -> Option<Absence> {
    if text.trim_end().ends_with('?') {
        return None;
    }
    let toks: Vec<String> = words::tokens(text)
        .into_iter()
        .map(|t| t.norm.replace('’', "'"))
        .collect();
    let at = phrases().iter().find_map(|p| {
        toks.windows(p.len())
            .position(|w| w.iter().zip(p).all(|(a, b)| a == b))
    })?;
    // The speaker's own: a first-person word, or the phrase opens the message ("в отпуске до
    // пятницы", "out sick today").
    let own = at <= 1 || toks.iter().any(|t| first_person().contains(t));
    if !own {
        return None;
    }
    let today = now.date_naive();
    if dates::find(text, now, lang).is_empty() {
        return Some(Absence {
            from: today,
            to: today + Duration::days(OPEN_DAYS - 1),
        });
    }
    days(text, now, lang)
}

/// The days a text names for an absence (what `/away` takes: "1.12–10.12", "до понедельника").
/// `None`: no date in it, or the days are over.
pub fn days(text: &str, now: DateTime<Tz>, lang: Lang) -> Option<Absence> {
    let today = now.date_naive();
    let f = dates::find(text, now, lang)
        .into_iter()
        .max_by_key(|f| f.span.len())?;
    let start = f.value.start?.date();
    // The word before the expression, or its own first word ("до пятницы" may be one span).
    let until_word = |t: Option<&words::Token>| {
        t.is_some_and(|t| ["до", "until", "till", "til"].contains(&t.norm.as_str()))
    };
    let until = until_word(words::tokens(&text[..f.span.start]).last())
        || until_word(words::tokens(&text[f.span.clone()]).first());
    let (from, to) = match (until, f.value.end) {
        (true, _) => (today, start - Duration::days(1)),
        (false, Some(end)) => (start, (end - Duration::seconds(1)).date()),
        (false, None) => (start, start),
    };
    (to >= from && to >= today).then_some(Absence {
        from: from.max(today),
        to,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use proptest::prelude::*;

    fn wed() -> DateTime<Tz> {
        chrono_tz::Europe::Moscow
            .with_ymd_and_hms(2026, 11, 25, 10, 0, 0)
            .unwrap()
    }

    fn d(m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, m, day).unwrap()
    }

    #[test]
    fn the_examples_beside_the_rule_hold() {
        for (text, from, to) in [
            ("я в отпуске с 1 по 10 декабря", d(12, 1), d(12, 10)),
            ("в отпуске до пятницы", d(11, 25), d(11, 26)),
            ("I'm off until Monday", d(11, 25), d(11, 29)),
            ("on vacation from Dec 1 to Dec 10", d(12, 1), d(12, 10)),
            ("завтра у меня отгул", d(11, 26), d(11, 26)),
            ("next week I'm on leave", d(11, 30), d(12, 6)),
            ("я на больничном", d(11, 25), d(12, 1)),
            ("Out sick today, sorry", d(11, 25), d(11, 25)),
        ] {
            assert_eq!(
                absence(text, wed(), Lang::detect(text)),
                Some(Absence { from, to }),
                "{text}"
            );
        }
        for text in [
            "у Лены отпуск с 1 по 14 июля",
            "ты в отпуске до пятницы?",
            "завтра буду позже",
            "сделаю смету до пятницы",
        ] {
            assert_eq!(absence(text, wed(), Lang::detect(text)), None, "{text}");
        }
    }

    #[test]
    fn away_takes_a_range_or_an_end() {
        assert_eq!(
            days("1.12–10.12", wed(), Lang::Ru),
            Some(Absence {
                from: d(12, 1),
                to: d(12, 10)
            })
        );
        assert_eq!(
            days("до понедельника", wed(), Lang::Ru),
            Some(Absence {
                from: d(11, 25),
                to: d(11, 29)
            })
        );
        assert_eq!(days("когда-нибудь потом", wed(), Lang::Ru), None);
        assert_eq!(days("1.11–10.11", wed(), Lang::Ru), None, "over already");
    }

    proptest! {
        #[test]
        fn any_text_is_read_without_panicking(text in "\\PC{0,200}") {
            let _ = absence(&text, wed(), Lang::Ru);
            let _ = days(&text, wed(), Lang::En);
        }
    }
}
