//! The two languages kept reads and writes, and detection from the text itself.

use std::fmt;
use std::str::FromStr;

/// In settings and stored values as its code, `ru` or `en`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Deserialize, serde::Serialize)]
#[serde(try_from = "String", into = "String")]
pub enum Lang {
    Ru,
    En,
}

impl Lang {
    /// Cyrillic anywhere in the text means Russian; anything else reads as English.
    pub fn detect(text: &str) -> Lang {
        if text.chars().any(|c| matches!(c, '\u{0400}'..='\u{04FF}')) {
            Lang::Ru
        } else {
            Lang::En
        }
    }

    pub fn code(self) -> &'static str {
        match self {
            Lang::Ru => "ru",
            Lang::En => "en",
        }
    }

    /// Telegram's `language_code` ("ru", "ru-RU", "en-GB", "uk"...) to one of ours, if it is one.
    pub fn from_code(code: &str) -> Option<Lang> {
        let primary = code.split(['-', '_']).next()?.to_ascii_lowercase();
        match primary.as_str() {
            "ru" => Some(Lang::Ru),
            "en" => Some(Lang::En),
            _ => None,
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

#[derive(Debug, thiserror::Error)]
#[error("unknown language {0:?}: expected ru or en")]
pub struct UnknownLang(pub String);

impl FromStr for Lang {
    type Err = UnknownLang;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "ru" => Ok(Lang::Ru),
            "en" => Ok(Lang::En),
            _ => Err(UnknownLang(s.to_string())),
        }
    }
}

impl TryFrom<String> for Lang {
    type Error = UnknownLang;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<Lang> for String {
    fn from(l: Lang) -> String {
        l.code().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cyrillic_text_is_russian_and_latin_is_english() {
        assert_eq!(Lang::detect("доделаю auth"), Lang::Ru);
        assert_eq!(Lang::detect("I'll send it"), Lang::En);
        assert_eq!(Lang::from_code("ru-RU"), Some(Lang::Ru));
        assert_eq!(Lang::from_code("de"), None);
    }
}
