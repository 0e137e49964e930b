//! A verbless assignment in a message that hands out work by name ("Серёга кирова 21,
//! 3 комнаты. Сашка малоярославец к среде"; "замеры сегодня: Рома правгород, Кирилл тульская
//! 88"): the part that names one person, read when that person answers the message with a yes.

use chrono::DateTime;
use chrono_tz::Tz;

use super::super::Lang;
use super::super::dates::{self, Due};
use super::super::names::{self, Person};
use super::analysis::Msg;
use super::lexicon::Form;
use super::{PIECE_CHARS, significant_stems};

/// What `person` is given to do in `text`, and by when: the words after their name up to the
/// next person named or the end of the sentence, with the heading of a list before it
/// ("замеры сегодня: …"). Nothing for a question, a sentence told in the past ("Серёга вчера
/// всё сдал"), a part that names no work, or, with one person named, no date: "Серёга, привет"
/// answered "ок" hands out nothing.
pub fn assigned(
    text: &str,
    now: DateTime<Tz>,
    people: &[Person],
    person: i64,
) -> Option<(String, Option<Due>)> {
    if text.len() > PIECE_CHARS {
        return None;
    }
    let named = names::people_in(text, people);
    let mine = named.iter().find(|(_, id)| *id == person)?.0.clone();
    let after = text.get(mine.end..)?;
    let next_other = named
        .iter()
        .filter(|(s, id)| s.start >= mine.end && *id != person)
        .map(|(s, _)| s.start - mine.end)
        .min();
    let sentence_end = after.find(['.', '!', '?', '\n', ';']);
    if sentence_end.is_some_and(|k| after[k..].starts_with('?'))
        && next_other.is_none_or(|o| o > sentence_end.unwrap_or(0))
    {
        return None;
    }
    let end = [next_other, sentence_end, Some(after.len())]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(after.len());
    let part = trim_joints(after.get(..end)?);
    let sentence_start = text[..mine.start]
        .rfind(['.', '!', '?', '\n', ';'])
        .map_or(0, |k| k + 1);
    let first_named = named
        .iter()
        .map(|(s, _)| s.start)
        .filter(|&s| s >= sentence_start)
        .min()
        .unwrap_or(mine.start);
    let heading = text.get(sentence_start..first_named).unwrap_or("").trim();
    // "замеры сегодня:" heads a list; "Серёга молодец, а Сашка …" has no heading.
    let heading = heading.strip_suffix(':').map(str::trim).unwrap_or("");
    // Handed out without a verb, or with an order ("к среде закончить", "съезди"): a part that
    // tells or asks something ("Нечаев просит перенести", "поставщик сам привезёт") hands out
    // nothing.
    let m = Msg::new(part);
    if (0..m.n()).any(|i| {
        m.verb(i)
            .is_some_and(|v| !matches!(v.form, Form::Inf | Form::Imp))
            || crate::morph::indicative_verb(m.w(i))
            || m.w(i).chars().all(|c| c.is_ascii_alphabetic()) && m.w(i).ends_with("ing")
    }) {
        return None;
    }
    let lang = Lang::detect(text);
    let (part, due) = without_date(part, now, lang);
    let (heading, heading_due) = without_date(heading, now, lang);
    let due = due.or(heading_due);
    if significant_stems(&part).is_empty() {
        return None;
    }
    let people_named = {
        let mut ids: Vec<i64> = named.iter().map(|(_, id)| *id).collect();
        ids.sort_unstable();
        ids.dedup();
        ids.len()
    };
    if due.is_none() && people_named < 2 {
        return None;
    }
    let content = if heading.is_empty() {
        part
    } else {
        format!("{heading}: {part}")
    };
    Some((content, due))
}

/// `text` without the date it names, and that date.
fn without_date(text: &str, now: DateTime<Tz>, lang: Lang) -> (String, Option<Due>) {
    match dates::deadline(text, now, lang) {
        Some((span, due))
            if text.is_char_boundary(span.start) && text.is_char_boundary(span.end) =>
        {
            let rest = format!("{} {}", &text[..span.start], &text[span.end..]);
            (
                trim_joints(&rest.split_whitespace().collect::<Vec<_>>().join(" ")).to_string(),
                Some(due),
            )
        }
        _ => (trim_joints(text).to_string(), None),
    }
}

fn trim_joints(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || matches!(c, ',' | ':' | '-' | '—' | '–'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn people() -> Vec<Person> {
        [
            (1, "Серёга"),
            (2, "Сашка"),
            (3, "Рома"),
            (4, "Кирилл"),
            (5, "Tom"),
            (6, "Priya"),
        ]
        .into_iter()
        .map(|(id, n)| Person {
            id,
            first_name: n.to_string(),
            last_name: None,
            username: None,
        })
        .collect()
    }

    fn now() -> DateTime<Tz> {
        chrono_tz::Europe::Moscow
            .with_ymd_and_hms(2026, 9, 14, 8, 30, 0)
            .unwrap()
    }

    fn read(text: &str, who: i64) -> Option<(String, Option<String>)> {
        assigned(text, now(), &people(), who).map(|(c, d)| (c, d.map(|d| d.date.to_string())))
    }

    #[test]
    fn each_named_person_gets_the_part_after_their_name() {
        let list = "бригадам на неделю. Серёга кирова 21, 3 комнаты + коридор. \
                    Сашка малоярославец коттедж, к среде закончить";
        let (c, _) = read(list, 1).unwrap();
        assert!(c.contains("кирова 21") && !c.contains("малоярослав"), "{c}");
        let (c, d) = read(list, 2).unwrap();
        assert!(c.contains("малоярославец"), "{c}");
        assert_eq!(d.as_deref(), Some("2026-09-16"));
    }

    #[test]
    fn a_heading_gives_its_words_and_its_date() {
        let list = "всем доброе утро. замеры сегодня: Рома правгород 3 квартиры, Кирилл тульская 88 и хрустальная 42. адреса в црм";
        let (c, d) = read(list, 4).unwrap();
        assert!(
            c.starts_with("замеры") && c.contains("тульская") && !c.contains("правгород"),
            "{c}"
        );
        assert!(!c.contains("адреса"), "{c}");
        assert_eq!(d.as_deref(), Some("2026-09-14"));
        let (c, _) = read("today: Tom the Smith edit, Priya album proofs", 6).unwrap();
        assert!(c.contains("album") && !c.contains("Smith"), "{c}");
    }

    #[test]
    fn greetings_questions_and_reports_hand_out_nothing() {
        assert_eq!(read("Серёга, привет", 1), None);
        assert_eq!(read("Серёга кирова 21 когда сможешь?", 1), None);
        assert_eq!(read("Серёга вчера кирова сдал, Сашка молодец", 1), None);
        assert_eq!(read("Серёга, Нечаев просит перенести на пт", 1), None);
        assert_eq!(read("Серёга, поставщик сам привезёт в пн", 1), None);
        assert_eq!(read("Tom keycard training, doing it wed", 5), None);
        assert_eq!(read("Кирилл тульская 88", 2), None, "not named");
        assert_eq!(read("Кирилл тульская 88", 4), None, "one person, no date");
    }
}
