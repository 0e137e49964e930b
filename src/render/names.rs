//! Person names in the case a Russian sentence needs ("у Павла Орлова", "о Наталье Лис").
//!
//! Names the OpenCorpora dictionary knows (through `rumorph`) take its own paradigm, which also
//! knows indeclinable and common-gender names; names it does not know take petrovich's rules.
//! Gender comes from the patronymic, then the first name, then the surname. Latin-script names
//! and anything that is not a plain word are left as written.

use std::sync::OnceLock;

use petrovich::{Case as PCase, Gender as PGender};
use rumorph::{Analysis, Dictionary, Source};

/// The case a sentence puts a name in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Case {
    Nominative,
    Genitive,
    Dative,
    Accusative,
    Instrumental,
    Prepositional,
}

impl Case {
    pub const ALL: [Case; 6] = [
        Case::Nominative,
        Case::Genitive,
        Case::Dative,
        Case::Accusative,
        Case::Instrumental,
        Case::Prepositional,
    ];

    /// The suffix of the Fluent variable that carries a name in this case: `$name_gen`...
    pub fn suffix(self) -> &'static str {
        match self {
            Case::Nominative => "nom",
            Case::Genitive => "gen",
            Case::Dative => "dat",
            Case::Accusative => "acc",
            Case::Instrumental => "ins",
            Case::Prepositional => "loc",
        }
    }

    fn ud(self) -> &'static str {
        match self {
            Case::Nominative => "Nom",
            Case::Genitive => "Gen",
            Case::Dative => "Dat",
            Case::Accusative => "Acc",
            Case::Instrumental => "Ins",
            Case::Prepositional => "Loc",
        }
    }

    fn petrovich(self) -> Option<PCase> {
        Some(match self {
            Case::Nominative => return None,
            Case::Genitive => PCase::Genitive,
            Case::Dative => PCase::Dative,
            Case::Accusative => PCase::Accusative,
            Case::Instrumental => PCase::Instrumental,
            Case::Prepositional => PCase::Prepositional,
        })
    }
}

pub use crate::domain::Gender;

trait ToPetrovich {
    fn petrovich(g: Option<Gender>) -> PGender;
}

impl ToPetrovich for Gender {
    fn petrovich(g: Option<Gender>) -> PGender {
        match g {
            Some(Gender::Male) => PGender::Male,
            Some(Gender::Female) => PGender::Female,
            None => PGender::Androgynous,
        }
    }
}

/// Which part of a full name a word is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    First,
    Middle,
    Last,
}

impl Part {
    fn name_type(self) -> &'static str {
        match self {
            Part::First => "Giv",
            Part::Middle => "Pat",
            Part::Last => "Sur",
        }
    }
}

/// The inflector over the process's dictionary (names inflect by rules alone without one).
pub struct Names {
    dict: Option<&'static Dictionary>,
}

/// The process's inflector.
pub fn names() -> &'static Names {
    static NAMES: OnceLock<Names> = OnceLock::new();
    NAMES.get_or_init(|| Names {
        dict: crate::morph::dictionary(),
    })
}

fn cyrillic_word(w: &str) -> bool {
    !w.is_empty()
        && w.chars()
            .all(|c| matches!(c, 'а'..='я' | 'А'..='Я' | 'ё' | 'Ё' | '-'))
        && w.chars().any(char::is_alphabetic)
        && !w.starts_with('-')
        && !w.ends_with('-')
}

/// A patronymic by its ending: the dictionary may not know rare ones.
fn looks_patronymic(w: &str) -> bool {
    let l = w.to_lowercase();
    ["вич", "вна", "чна", "ична", "ич"]
        .iter()
        .any(|e| l.ends_with(e) && l.chars().count() > e.chars().count() + 3)
}

/// Puts the input's capitals back on the dictionary's lower-case form, hyphen part by part.
fn like(input: &str, out: &str) -> String {
    let keep_yo = input.contains(['ё', 'Ё']);
    let out = if keep_yo {
        out.to_string()
    } else {
        out.replace('ё', "е")
    };
    input
        .split('-')
        .zip(out.split('-'))
        .map(|(i, o)| {
            if i.chars().count() > 1 && i.chars().all(|c| !c.is_lowercase()) {
                return o.to_uppercase();
            }
            let mut cs = o.chars();
            match (i.chars().next(), cs.next()) {
                (Some(f), Some(first)) if f.is_uppercase() => {
                    first.to_uppercase().chain(cs).collect()
                }
                (_, Some(first)) => std::iter::once(first).chain(cs).collect(),
                _ => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join("-")
}

impl Names {
    /// The dictionary's nominative singular lexemes of this kind of name for a word.
    fn lexemes(&self, word: &str, part: Part) -> Vec<(Analysis, Option<Gender>)> {
        let Some(d) = self.dict else {
            return Vec::new();
        };
        crate::morph::analyses(word)
            .iter()
            .filter_map(|a| {
                let t = d.ud_tag(a.ud)?;
                let ok = a.source == Source::Dictionary
                    && t.feat("NameType") == Some(part.name_type())
                    && t.feat("Case") == Some("Nom")
                    && t.feat("Number") == Some("Sing");
                if !ok {
                    return None;
                }
                // OpenCorpora's common gender (Саша, Шевченко) reads as masculine in UD.
                let common = a
                    .tag
                    .and_then(|n| d.tag(n))
                    .is_some_and(|t| t.contains("ms-f"));
                let g = match (common, t.feat("Gender")) {
                    (true, _) => None,
                    (_, Some("Masc")) => Some(Gender::Male),
                    (_, Some("Fem")) => Some(Gender::Female),
                    _ => None,
                };
                Some((a.clone(), g))
            })
            .collect()
    }

    fn dictionary_form(
        &self,
        word: &str,
        part: Part,
        g: Option<Gender>,
        case: Case,
    ) -> Option<String> {
        let d = self.dict?;
        let lex = self.lexemes(word, part);
        let (a, _) = lex
            .iter()
            .find(|(_, lg)| g.is_none() || (lg.is_some() && *lg == g))
            .or_else(|| lex.iter().find(|(_, lg)| lg.is_none()))?;
        let mut feats = vec![("Case", case.ud()), ("Number", "Sing")];
        if let Some(gg) = d.ud_tag(a.ud).and_then(|t| t.feat("Gender")) {
            feats.push(("Gender", gg));
        }
        let out = d.inflect(a, &feats)?;
        // The form has as many hyphenated parts as the word, or it is not this word's form.
        (out.word.split('-').count() == word.split('-').count()).then(|| like(word, &out.word))
    }

    /// One word of a name in `case`.
    pub fn word(&self, word: &str, part: Part, g: Option<Gender>, case: Case) -> String {
        let Some(pcase) = case.petrovich() else {
            return word.to_string();
        };
        if !cyrillic_word(word) {
            return word.to_string();
        }
        if let Some(w) = self.dictionary_form(word, part, g, case) {
            return w;
        }
        let pg = Gender::petrovich(g);
        let rules = match part {
            Part::First => petrovich::firstname(pg, word, pcase),
            Part::Middle => petrovich::middlename(pg, word, pcase),
            Part::Last => petrovich::lastname(pg, word, pcase),
        };
        // An unknown double name: the rules decide the leading parts (Бонч-, Тер-), the
        // dictionary the last one when it knows it.
        match (word.rsplit_once('-'), rules.rsplit_once('-')) {
            (Some((_, last)), Some((head, _))) => self
                .dictionary_form(last, part, g, case)
                .map_or(rules.clone(), |r| format!("{head}-{r}")),
            _ => rules,
        }
    }

    /// The gender a name says: the patronymic first, then the first name, then the surname; the
    /// rules' guess when the dictionary cannot tell.
    pub fn gender(&self, first: &str, middle: Option<&str>, last: Option<&str>) -> Option<Gender> {
        let parts = [
            (middle, Part::Middle),
            (Some(first), Part::First),
            (last, Part::Last),
        ];
        for (w, part) in parts {
            let Some(w) = w.filter(|w| cyrillic_word(w)) else {
                continue;
            };
            let gs: Vec<Option<Gender>> =
                self.lexemes(w, part).into_iter().map(|(_, g)| g).collect();
            let male = gs.iter().any(|g| *g != Some(Gender::Female));
            let female = gs.iter().any(|g| *g != Some(Gender::Male));
            match (male, female) {
                (true, false) => return Some(Gender::Male),
                (false, true) => return Some(Gender::Female),
                _ => {}
            }
        }
        match petrovich::detect_gender(
            middle,
            Some(first).filter(|f| cyrillic_word(f)),
            last.filter(|l| cyrillic_word(l)),
        ) {
            PGender::Male => Some(Gender::Male),
            PGender::Female => Some(Gender::Female),
            PGender::Androgynous => None,
        }
    }

    /// A person's name as Telegram gives it (first name, which may hold a patronymic too, and
    /// last name) in `case`. `gender` overrides what the name itself says.
    pub fn full(
        &self,
        first: &str,
        last: Option<&str>,
        gender: Option<Gender>,
        case: Case,
    ) -> String {
        let words: Vec<&str> = first.split_whitespace().collect();
        let last = last.map(str::trim).filter(|l| !l.is_empty());
        if case == Case::Nominative || words.is_empty() {
            return match last {
                Some(l) => format!("{first} {l}"),
                None => first.to_string(),
            };
        }
        // "Ольга Витальевна" in the first-name field: the second word is a patronymic.
        let middle = words.get(1).copied().filter(|w| looks_patronymic(w));
        let rest: Vec<&str> = words
            .iter()
            .skip(1 + usize::from(middle.is_some()))
            .copied()
            .collect();
        let g = gender.or_else(|| self.gender(words[0], middle, last));
        let mut out = vec![self.word(words[0], Part::First, g, case)];
        if let Some(m) = middle {
            out.push(self.word(m, Part::Middle, g, case));
        }
        // Anything else in the first-name field is kept as written.
        out.extend(rest.iter().map(|w| w.to_string()));
        if let Some(l) = last {
            // A double surname written with a space ("Петров Водкин") is rare; each word
            // inflects as a surname.
            out.extend(
                l.split_whitespace()
                    .map(|w| self.word(w, Part::Last, g, case)),
            );
        }
        out.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn full(first: &str, last: Option<&str>, case: Case) -> String {
        names().full(first, last, None, case)
    }

    #[test]
    fn whole_names_take_the_case_of_the_sentence() {
        assert_eq!(full("Павел", Some("Орлов"), Case::Genitive), "Павла Орлова");
        assert_eq!(
            full("Никита", Some("Лебедь"), Case::Genitive),
            "Никиты Лебедя"
        );
        assert_eq!(
            full("Елена", Some("Павлова"), Case::Dative),
            "Елене Павловой"
        );
        assert_eq!(
            full("Лев", Some("Толстых"), Case::Accusative),
            "Льва Толстых"
        );
        assert_eq!(
            full("Любовь", Some("Орлова"), Case::Instrumental),
            "Любовью Орловой"
        );
        assert_eq!(
            full("Дмитрий", Some("Кузнецов"), Case::Prepositional),
            "Дмитрии Кузнецове"
        );
    }

    #[test]
    fn indeclinable_and_common_gender_names() {
        // Women's surnames that end in a consonant do not decline; men's do.
        assert_eq!(full("Наталья", Some("Лис"), Case::Genitive), "Натальи Лис");
        assert_eq!(full("Анна", Some("Ким"), Case::Dative), "Анне Ким");
        assert_eq!(
            full("Ольга", Some("Гусь"), Case::Instrumental),
            "Ольгой Гусь"
        );
        assert_eq!(full("Игорь", Some("Ким"), Case::Dative), "Игорю Киму");
        assert_eq!(
            full("Саша", Some("Шевченко"), Case::Genitive),
            "Саши Шевченко"
        );
        assert_eq!(full("Тарас", Some("Черных"), Case::Dative), "Тарасу Черных");
    }

    #[test]
    fn patronymics_double_surnames_and_diminutives() {
        assert_eq!(
            full("Ольга Витальевна", None, Case::Dative),
            "Ольге Витальевне"
        );
        assert_eq!(
            full("Виктор", Some("Бонч-Бруевич"), Case::Genitive),
            "Виктора Бонч-Бруевича"
        );
        assert_eq!(
            full("Анна", Some("Римская-Корсакова"), Case::Genitive),
            "Анны Римской-Корсаковой"
        );
        assert_eq!(full("Дима", None, Case::Dative), "Диме");
        assert_eq!(full("Лена", None, Case::Genitive), "Лены");
    }

    #[test]
    fn latin_names_and_the_nominative_are_left_as_written() {
        assert_eq!(full("Priya", Some("Shah"), Case::Genitive), "Priya Shah");
        assert_eq!(
            full("Павел", Some("Орлов"), Case::Nominative),
            "Павел Орлов"
        );
        assert_eq!(full("", None, Case::Genitive), "");
    }

    #[test]
    fn gender_comes_from_the_patronymic_then_the_first_name() {
        let n = names();
        assert_eq!(
            n.gender("Саша", Some("Игоревна"), None),
            Some(Gender::Female)
        );
        assert_eq!(n.gender("Никита", None, None), Some(Gender::Male));
        assert_eq!(n.gender("Елена", None, Some("Лис")), Some(Gender::Female));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn any_name_inflects_without_panic(first in "\\PC{0,20}", last in proptest::option::of("\\PC{0,20}")) {
            for c in Case::ALL {
                let _ = names().full(&first, last.as_deref(), None, c);
            }
        }

        #[test]
        fn cyrillic_names_inflect_without_panic(first in "[А-Яа-яЁё-]{1,15}( [А-Яа-яЁё]{1,15})?", last in "[А-Яа-яЁё-]{0,15}") {
            for c in Case::ALL {
                let _ = names().full(&first, Some(&last), None, c);
            }
        }
    }
}
