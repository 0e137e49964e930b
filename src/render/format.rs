//! Telegram HTML formatting of answers: escaping, dates in the reader's language, source links.

use chrono::{Datelike, NaiveDate};

use crate::domain::{ChatId, Due, Lang, MessageId};
use crate::i18n::I18n;

/// Escapes text for Telegram's HTML parse mode.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// A person's full name, escaped, in `case` ("у Павла Орлова"); Latin names stay as written.
pub fn name_in(p: &crate::store::UserProfile, case: crate::render::names::Case) -> String {
    esc(&crate::render::names::names().full(&p.first_name, p.last_name.as_deref(), p.gender, case))
}

/// "о" with a name in the prepositional, "об" before a vowel sound ("о Льве", "об Анне"): the
/// words come from the locale (`about-person`), the sound from the inflected name.
pub fn about(i18n: &I18n, lang: Lang, p: &crate::store::UserProfile) -> String {
    about_name(
        i18n,
        lang,
        &name_in(p, crate::render::names::Case::Prepositional),
    )
}

/// As [`about`], for a name already in the prepositional.
pub fn about_name(i18n: &I18n, lang: Lang, name: &str) -> String {
    let vowel = name
        .chars()
        .next()
        .is_some_and(|c| "АОУЭИЫаоуэиы".contains(c));
    i18n.t(
        lang,
        "about-person",
        &[
            ("name", name.to_string().into()),
            ("vowel", if vowel { "yes" } else { "no" }.into()),
        ],
    )
}

/// "пт, 27 ноября" / "Fri, Nov 27", with the time when one was said.
pub fn date(i18n: &I18n, lang: Lang, d: NaiveDate) -> String {
    let wd = i18n.s(
        lang,
        &format!("weekday-short-{}", d.weekday().number_from_monday()),
    );
    let month = i18n.s(lang, &format!("month-of-{}", d.month()));
    match lang {
        Lang::Ru => format!("{wd}, {} {month}", d.day()),
        Lang::En => format!("{wd}, {month} {}", d.day()),
    }
}

pub fn due(i18n: &I18n, lang: Lang, d: Due) -> String {
    let mut s = date(i18n, lang, d.date);
    if let Some(t) = d.time {
        s.push_str(&t.format(" %H:%M").to_string());
    }
    s
}

/// A link to a message in a supergroup (`https://t.me/c/…`); `None` for basic groups and DMs,
/// which have no public message links.
pub fn message_link(chat: ChatId, msg: MessageId) -> Option<String> {
    let s = chat.0.to_string();
    let internal = s.strip_prefix("-100")?;
    Some(format!("https://t.me/c/{internal}/{msg}"))
}

/// A person's full name among `people`, or their id when they are not there.
pub fn name_of(people: &[crate::store::Person], id: crate::domain::UserId) -> String {
    people
        .iter()
        .find(|p| p.profile.id == id)
        .map(|p| p.profile.full_name())
        .unwrap_or_else(|| id.to_string())
}

/// A mention that notifies a person in a group (HTML text mention).
pub fn mention(p: &crate::store::Person) -> String {
    format!(
        "<a href=\"tg://user?id={}\">{}</a>",
        p.profile.id,
        esc(&p.profile.first_name)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn about_takes_ob_before_a_vowel() {
        let p = |first: &str, last: Option<&str>| crate::store::UserProfile {
            first_name: first.into(),
            last_name: last.map(str::to_string),
            id: crate::domain::UserId(1),
            username: None,
            language_code: None,
            lang_override: None,
            dm_open: false,
            gender: None,
        };
        let i = I18n::new().unwrap();
        let about = |p| about(&i, Lang::Ru, &p);
        assert_eq!(about(p("Анна", Some("Смирнова"))), "об Анне Смирновой");
        assert_eq!(about(p("Лев", Some("Толстых"))), "о Льве Толстых");
        assert_eq!(about(p("Елена", None)), "о Елене");
        assert_eq!(about(p("Игорь", None)), "об Игоре");
    }

    #[test]
    fn html_is_escaped() {
        assert_eq!(esc("<b>a & b</b>"), "&lt;b&gt;a &amp; b&lt;/b&gt;");
    }

    #[test]
    fn dates_read_naturally_in_both_languages() {
        let i = I18n::new().unwrap();
        let d = NaiveDate::from_ymd_opt(2026, 11, 27).unwrap();
        assert_eq!(date(&i, Lang::Ru, d), "пт, 27 ноября");
        assert_eq!(date(&i, Lang::En, d), "Fri, Nov 27");
    }

    #[test]
    fn supergroup_messages_link_and_basic_groups_do_not() {
        assert_eq!(
            message_link(ChatId(-1001234), MessageId(5)).as_deref(),
            Some("https://t.me/c/1234/5")
        );
        assert_eq!(message_link(ChatId(-4321), MessageId(5)), None);
    }
}
