//! Human-readable, unique-per-org node slugs: Russian transliterated, at most 80 characters.

use std::fmt;

/// A node slug: `[a-z0-9-]`, 1..=80 characters, `node` when nothing else is left.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Slug(String);

const MAX: usize = 80;

impl Slug {
    /// Builds the slug of a title ("Топливные баки серии K1" → `toplivnye-baki-serii-k1`).
    pub fn from_title(title: &str) -> Slug {
        let latin = super::text::translit(&title.to_lowercase());
        let mut out = String::new();
        let mut dash = false;
        for c in latin.chars() {
            if c.is_ascii_alphanumeric() {
                if dash && !out.is_empty() {
                    out.push('-');
                }
                dash = false;
                out.push(c);
            } else {
                dash = true;
            }
        }
        if out.len() > MAX {
            out.truncate(MAX);
            while out.ends_with('-') {
                out.pop();
            }
        }
        if out.is_empty() {
            out.push_str("node");
        }
        Slug(out)
    }

    /// The same slug with a numeric suffix, for a title whose slug is taken.
    pub fn with_suffix(&self, n: u32) -> Slug {
        let suffix = format!("-{n}");
        let mut base = self.0.clone();
        base.truncate(MAX - suffix.len());
        while base.ends_with('-') {
            base.pop();
        }
        Slug(base + &suffix)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Slug {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn russian_titles_are_transliterated() {
        assert_eq!(
            Slug::from_title("Топливные баки серии K1").as_str(),
            "toplivnye-baki-serii-k1"
        );
        assert_eq!(
            Slug::from_title("Внутренний CRM").as_str(),
            "vnutrenniy-crm"
        );
    }

    #[test]
    fn empty_or_symbol_titles_become_node() {
        assert_eq!(Slug::from_title("").as_str(), "node");
        assert_eq!(Slug::from_title("!!! 🎉").as_str(), "node");
    }

    #[test]
    fn slugs_never_exceed_eighty_characters() {
        let s = Slug::from_title(&"очень длинное название ".repeat(20));
        assert!(s.as_str().len() <= 80);
        assert!(!s.as_str().ends_with('-'));
        assert!(s.with_suffix(12).as_str().len() <= 80);
    }
}
