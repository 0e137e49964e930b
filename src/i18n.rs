//! Fluent bundles for ru and en, compiled into the binary from `locales/`; plural rules by Fluent.

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};

use crate::domain::Lang;

const RU: &str = include_str!("../locales/ru/main.ftl");
const EN: &str = include_str!("../locales/en/main.ftl");

#[derive(Debug, thiserror::Error)]
pub enum I18nError {
    #[error("locale {lang} does not parse: {detail}")]
    Parse { lang: &'static str, detail: String },
}

/// Every user-visible string, in both languages.
pub struct I18n {
    ru: FluentBundle<FluentResource>,
    en: FluentBundle<FluentResource>,
}

impl std::fmt::Debug for I18n {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("I18n")
    }
}

/// Named arguments for a message: `&[("n", 5.into()), ("name", "Лена".into())]`.
pub type Args<'a> = [(&'a str, FluentValue<'a>)];

fn bundle(lang: &'static str, src: &str) -> Result<FluentBundle<FluentResource>, I18nError> {
    let res = FluentResource::try_new(src.to_string()).map_err(|(_, errs)| I18nError::Parse {
        lang,
        detail: format!("{errs:?}"),
    })?;
    let id: unic_langid::LanguageIdentifier = lang.parse().map_err(|e| I18nError::Parse {
        lang,
        detail: format!("{e}"),
    })?;
    let mut b = FluentBundle::new_concurrent(vec![id]);
    // Unicode isolation marks would end up inside Telegram messages and break text matching.
    b.set_use_isolating(false);
    b.add_resource(res).map_err(|errs| I18nError::Parse {
        lang,
        detail: format!("{errs:?}"),
    })?;
    Ok(b)
}

impl I18n {
    pub fn new() -> Result<I18n, I18nError> {
        Ok(I18n {
            ru: bundle("ru", RU)?,
            en: bundle("en", EN)?,
        })
    }

    fn bundle(&self, lang: Lang) -> &FluentBundle<FluentResource> {
        match lang {
            Lang::Ru => &self.ru,
            Lang::En => &self.en,
        }
    }

    /// The message `key` in `lang`. A missing key gives the key itself (and a log line), never a panic.
    pub fn t(&self, lang: Lang, key: &str, args: &Args<'_>) -> String {
        let b = self.bundle(lang);
        let Some(pattern) = b.get_message(key).and_then(|m| m.value()) else {
            tracing::warn!(key, %lang, "missing locale message");
            return key.to_string();
        };
        let mut fa = FluentArgs::new();
        for (k, v) in args {
            fa.set(*k, v.clone());
        }
        let mut errors = Vec::new();
        let out = b.format_pattern(pattern, Some(&fa), &mut errors);
        if !errors.is_empty() {
            tracing::warn!(key, %lang, ?errors, "locale message formatting");
        }
        out.into_owned()
    }

    /// A message without arguments.
    pub fn s(&self, lang: Lang, key: &str) -> String {
        self.t(lang, key, &[])
    }
}

/// The message ids of a locale file (for the parity test and tooling).
pub fn message_ids(src: &str) -> Vec<String> {
    let mut ids: Vec<String> = src
        .lines()
        .filter(|l| !l.starts_with([' ', '#', '\t', '.', '*', '[', '}']) && l.contains('='))
        .filter_map(|l| l.split('=').next())
        .map(|k| k.trim().to_string())
        .filter(|k| !k.is_empty())
        .collect();
    ids.sort();
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_locales_have_the_same_keys() {
        let ru = message_ids(RU);
        let en = message_ids(EN);
        let only_ru: Vec<_> = ru.iter().filter(|k| !en.contains(k)).collect();
        let only_en: Vec<_> = en.iter().filter(|k| !ru.contains(k)).collect();
        assert!(
            only_ru.is_empty() && only_en.is_empty(),
            "ru only: {only_ru:?}, en only: {only_en:?}"
        );
        assert!(ru.len() > 20);
    }

    #[test]
    fn russian_plurals_follow_fluent_categories() {
        let i = I18n::new().unwrap();
        let p = |n: i64| i.t(Lang::Ru, "promises-count", &[("n", n.into())]);
        assert_eq!(p(1), "1 обещание");
        assert_eq!(p(2), "2 обещания");
        assert_eq!(p(5), "5 обещаний");
        assert_eq!(p(21), "21 обещание");
        assert_eq!(p(11), "11 обещаний");
        assert_eq!(
            i.t(Lang::En, "promises-count", &[("n", 1.into())]),
            "1 promise"
        );
        assert_eq!(
            i.t(Lang::En, "promises-count", &[("n", 3.into())]),
            "3 promises"
        );
    }

    #[test]
    fn a_missing_key_gives_the_key_not_a_panic() {
        let i = I18n::new().unwrap();
        assert_eq!(i.s(Lang::Ru, "no-such-key"), "no-such-key");
    }
}
