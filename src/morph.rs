//! The Russian morphological dictionary (OpenCorpora through `rumorph`), loaded once per process,
//! and what replies need of it: a topic said in any case, named back in the nominative.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::OnceLock;

use rumorph::{Analysis, Dictionary, Source};

/// The process's dictionary; `None` (and one log line) if it cannot be loaded, in which case
/// replies fall back to rules and the words as written.
pub fn dictionary() -> Option<&'static Dictionary> {
    static DICT: OnceLock<Option<Dictionary>> = OnceLock::new();
    DICT.get_or_init(|| match Dictionary::bundled() {
        Ok(d) => Some(d),
        Err(e) => {
            tracing::warn!(error = %e, "morphological dictionary not loaded");
            None
        }
    })
    .as_ref()
}

/// Every reading of `w` (as written: the case of its letters weighs), the dictionary's and its
/// guesses, most likely not first. The rules ask about the same words many times over one
/// message and over a chat (a third of their time went to reading words again), so each thread
/// reads a word once and keeps it; empty without a dictionary.
pub fn analyses(w: &str) -> Rc<[Analysis]> {
    thread_local! {
        static READ: WordMemo<Rc<[Analysis]>> = RefCell::new(HashMap::new());
    }
    let Some(d) = dictionary() else {
        return Rc::from(Vec::new());
    };
    remembered(&READ, w, || Rc::from(d.analyze(w)))
}

/// A thread's memo of what was read from words.
pub type WordMemo<V> = RefCell<HashMap<Box<str>, V>>;

/// `read()` of `word`, kept in `memo` for the next time the thread meets the word. Chat text is
/// open-ended: the memo keeps at most 10,000 words, and none longer than 48 bytes (a link or a
/// code pasted into chat is read, not kept).
pub fn remembered<V: Clone>(
    memo: &'static std::thread::LocalKey<WordMemo<V>>,
    word: &str,
    read: impl FnOnce() -> V,
) -> V {
    remembered_within(
        memo,
        word,
        MemoBounds {
            longest: 48,
            most: 10_000,
        },
        read,
    )
}

/// How much a [`WordMemo`] keeps: keys of at most `longest` bytes, at most `most` of them (past
/// it the memo starts over).
#[derive(Debug, Clone, Copy)]
pub struct MemoBounds {
    pub longest: usize,
    pub most: usize,
}

/// [`remembered`] with bounds of the caller's: a promise's wording is longer than a word.
pub fn remembered_within<V: Clone>(
    memo: &'static std::thread::LocalKey<WordMemo<V>>,
    key: &str,
    bounds: MemoBounds,
    read: impl FnOnce() -> V,
) -> V {
    if let Some(found) = memo.with(|m| m.borrow().get(key).cloned()) {
        return found;
    }
    let found = read();
    if key.len() <= bounds.longest {
        memo.with(|m| {
            let mut m = m.borrow_mut();
            if m.len() >= bounds.most {
                m.clear();
            }
            m.insert(key.into(), found.clone());
        });
    }
    found
}

/// Whether the dictionary itself holds `w` (not a guess from its ending): "завтрак" and "приду"
/// are words of their own, not slips for "завтра" and "приму".
pub fn known_word(w: &str) -> bool {
    analyses(w).iter().any(|a| a.source == Source::Dictionary)
}

/// The readings of `w` the dictionary itself holds (not guesses from its ending).
fn known(w: &str) -> Known {
    Known(analyses(w))
}

/// The dictionary's own readings of a word, of those [`analyses`] keeps.
struct Known(Rc<[Analysis]>);

impl Known {
    fn iter(&self) -> impl Iterator<Item = &Analysis> {
        self.0.iter().filter(|a| a.source == Source::Dictionary)
    }

    fn is_empty(&self) -> bool {
        self.iter().next().is_none()
    }
}

/// Whether the dictionary holds `w` as a proper name ("Пашу" of "Паша", "Верну" of "Верн"),
/// whatever else it may be ("пашу" of "пахать").
pub fn proper_name_form(w: &str) -> bool {
    dictionary().is_some_and(|d| {
        known(w)
            .iter()
            .any(|a| d.ud_tag(a.ud).is_some_and(|t| t.pos() == "PROPN"))
    })
}

/// Whether a reading is a verb's (an auxiliary's too).
fn is_verb(d: &Dictionary, a: &Analysis) -> bool {
    d.ud_tag(a.ud)
        .is_some_and(|t| matches!(t.pos(), "VERB" | "AUX"))
}

/// Whether the dictionary itself holds `w` and only as other words than verbs ("спальню",
/// "продажу"): an ending that looks like a verb's is no guess then.
pub fn known_non_verb(w: &str) -> bool {
    let Some(d) = dictionary() else { return false };
    let known = known(w);
    !known.is_empty() && !known.iter().any(|a| is_verb(d, a))
}

/// The infinitive of `w` when some dictionary reading of it is a verb of the speaker's present
/// or future ("вешаем", "добиваю", "сделаю"), not a past, an imperative or a participle.
pub fn first_person_verb_lemma(w: &str) -> Option<String> {
    first_person_lemma(w, |t| {
        t.feat("Tense") != Some("Past") && t.feat("Mood") != Some("Imp")
    })
}

/// The infinitive of `w` when some dictionary reading of it is the present of a verb in the
/// first person singular ("везу", "ставлю"), the speaker's own doing now or on a day named.
pub fn speaker_present_lemma(w: &str) -> Option<String> {
    first_person_lemma(w, |t| {
        t.feat("Number") == Some("Sing") && t.feat("Tense") == Some("Pres")
    })
}

/// The infinitive of the first dictionary reading of `w` that is a finite verb in the first
/// person and passes `test`.
fn first_person_lemma(w: &str, test: impl Fn(&rumorph::UdTag) -> bool) -> Option<String> {
    let d = dictionary()?;
    if !cyrillic(w) {
        return None;
    }
    known(w)
        .iter()
        .find(|a| {
            d.ud_tag(a.ud).is_some_and(|t| {
                t.pos() == "VERB"
                    && t.feat("VerbForm") == Some("Fin")
                    && t.feat("Person") == Some("1")
                    && test(&t)
            })
        })
        .map(|a| a.lemma.replace('ё', "е"))
}

/// Whether every dictionary reading of `w` is a verb of the speaker's own future ("подрежу":
/// "подрезать" or "подредить", either way the speaker will): which verb is then a matter of
/// likeness, not of the dictionary. "заходим" (also a present) is not.
pub fn only_own_future(w: &str) -> bool {
    let Some(d) = dictionary() else { return false };
    let known = known(w);
    !known.is_empty()
        && known.iter().all(|a| {
            d.ud_tag(a.ud).is_some_and(|t| {
                t.pos() == "VERB" && t.feat("Tense") == Some("Fut") && t.feat("Person") == Some("1")
            })
        })
}

/// The infinitive of `w`, whether it says "we" and whether it is a present, when every
/// dictionary reading of it is one verb in the first person, present or future ("жму",
/// "проверю", "сделаем"): a prefix put on such a form makes the speaker's future ("пере" +
/// "об" + "жму").
pub fn own_verb_reading(w: &str) -> Option<(String, bool, bool)> {
    let d = dictionary()?;
    if !cyrillic(w) {
        return None;
    }
    let known = known(w);
    let mut read: Option<(&str, bool, bool)> = None;
    for a in known.iter() {
        let t = d.ud_tag(a.ud)?;
        let own = t.pos() == "VERB"
            && t.feat("VerbForm") == Some("Fin")
            && t.feat("Person") == Some("1")
            && matches!(t.feat("Tense"), Some("Pres" | "Fut"));
        if !own {
            return None;
        }
        let plural = t.feat("Number") == Some("Plur");
        let present = t.feat("Tense") == Some("Pres");
        match read {
            Some((lemma, p, now)) if lemma != a.lemma || p != plural || now != present => {
                return None;
            }
            _ => read = Some((&a.lemma, plural, present)),
        }
    }
    read.map(|(lemma, plural, present)| (lemma.replace('ё', "е"), plural, present))
}

/// Whether some dictionary reading of `w` (lower case) is a verb in the future tense.
pub fn may_be_future(w: &str) -> bool {
    may_be_tense(w, "Fut")
}

/// Whether the dictionary reads `w` (lower case) as a verb's present ("перевожу").
pub fn may_be_present(w: &str) -> bool {
    may_be_tense(w, "Pres")
}

/// Whether the dictionary reads `w` as a verb in `tense` (UD's "Fut", "Pres").
fn may_be_tense(w: &str, tense: &str) -> bool {
    let Some(d) = dictionary() else { return false };
    known(w).iter().any(|a| {
        d.ud_tag(a.ud)
            .is_some_and(|t| t.pos() == "VERB" && t.feat("Tense") == Some(tense))
    })
}

/// Whether the likeliest dictionary reading of `w` (lower case) is a finite verb ("привезу",
/// "будет"): after "к 18" such a word makes the number a clock, not a count ("к 18 машинам").
pub fn finite_verb(w: &str) -> bool {
    likeliest_verb(w, |t| t.feat("VerbForm") == Some("Fin"))
}

/// Whether the likeliest dictionary reading of `w` is a verb whose tag passes `test`.
fn likeliest_verb(w: &str, test: impl Fn(&rumorph::UdTag) -> bool) -> bool {
    likeliest_tag(w, |t| matches!(t.pos(), "VERB" | "AUX") && test(t))
}

/// Whether the tag of the likeliest dictionary reading of `w` passes `test`.
fn likeliest_tag(w: &str, test: impl Fn(&rumorph::UdTag) -> bool) -> bool {
    let Some(d) = dictionary() else { return false };
    known(w)
        .iter()
        .max_by(|a, b| a.prob.total_cmp(&b.prob))
        .and_then(|a| d.ud_tag(a.ud))
        .is_some_and(|t| test(&t))
}

/// The infinitive of `w` (lower case) when its likeliest dictionary reading is a verb
/// ("добьют" → "добить"): the same verb in another person or tense.
pub fn verb_lemma(w: &str) -> Option<String> {
    if !cyrillic(w) {
        return None;
    }
    let d = dictionary()?;
    let known = known(w);
    let a = known.iter().max_by(|a, b| a.prob.total_cmp(&b.prob))?;
    is_verb(d, a).then(|| a.lemma.replace('ё', "е"))
}

/// Whether the likeliest dictionary reading of `w` (lower case) is a verb that tells or asks
/// ("просит", "привезёт", "везёшь", "успеваю"), not an imperative or an infinitive.
pub fn indicative_verb(w: &str) -> bool {
    cyrillic(w)
        && likeliest_verb(w, |t| {
            t.feat("VerbForm") == Some("Fin") && t.feat("Mood") != Some("Imp")
        })
}

/// Whether the likeliest dictionary reading of `w` (lower case) is a verb in the past tense
/// ("делали", "звонила"): something told, not promised.
pub fn past_verb(w: &str) -> bool {
    // Not a full participle: "обновлённый прайс" describes, "обновил" tells.
    cyrillic(w)
        && likeliest_verb(w, |t| {
            t.feat("Tense") == Some("Past")
                && !(t.feat("VerbForm") == Some("Part") && t.feat("Case").is_some())
        })
}

/// Whether the likeliest dictionary reading of `w` (lower case) speaks to someone: a verb in
/// the second person or an imperative ("сможешь", "глянешь", "глянь"). After a truncated name
/// it makes the name a call ("Наташ сможешь?"), where "Даш знать" is "дашь знать".
pub fn addressing_verb(w: &str) -> bool {
    cyrillic(w)
        && likeliest_verb(w, |t| {
            t.feat("Person") == Some("2") || t.feat("Mood") == Some("Imp")
        })
}

/// Whether the likeliest dictionary reading of `w` (lower case) is a verb in the first person
/// ("переносим", "перенесу"), any tense: the speaker's own doing.
pub fn first_person_verb(w: &str) -> bool {
    likeliest_verb(w, |t| t.feat("Person") == Some("1"))
}

/// Whether the likeliest reading of `w` (lower case, a guess from its ending allowed) is a
/// common noun or an adjective and `w` may be in the nominative ("чистка", "созвон",
/// "тестовые"): a thing named as a heading names it, not a verb, a name, a word of grammar or
/// the object of a verb left unsaid ("старую обивку в мусор").
pub fn nominative_noun_or_adjective(w: &str) -> bool {
    let Some(d) = dictionary() else { return false };
    if !cyrillic(w) {
        return false;
    }
    let all = analyses(w);
    let likeliest = all
        .iter()
        .max_by(|a, b| a.prob.total_cmp(&b.prob))
        .and_then(|a| d.ud_tag(a.ud));
    likeliest.is_some_and(|t| matches!(t.pos(), "NOUN" | "ADJ"))
        && all.iter().any(|a| {
            d.ud_tag(a.ud).is_some_and(|t| {
                matches!(t.pos(), "NOUN" | "ADJ") && t.feat("Case").is_none_or(|c| c == "Nom")
            })
        })
}

/// Whether the likeliest dictionary reading of `w` (lower case) is a noun naming a thing, not a
/// being ("заказ", "рассылка"; not "клиент", "Петя").
pub fn inanimate_noun(w: &str) -> bool {
    cyrillic(w)
        && likeliest_tag(w, |t| {
            t.pos() == "NOUN" && t.feat("Animacy") == Some("Inan")
        })
}

/// Whether the likeliest dictionary reading of `w` (lower case) is a common noun ("план",
/// "заказ"): what a "на январь" after it belongs to.
pub fn likely_noun(w: &str) -> bool {
    cyrillic(w) && likeliest_tag(w, |t| t.pos() == "NOUN")
}

/// The gender and number a word standing for a thing agrees with: an object pronoun ("его",
/// "её", "их") or an adjective whose noun is left unsaid ("вторую", "новый").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Agreement {
    /// "Masc", "Fem" or "Neut"; `None` for the plural, which has no gender.
    gender: Option<&'static str>,
    plural: bool,
    /// "его" stands for a masculine or a neuter thing.
    or_neuter: bool,
}

/// What an object pronoun agrees with ("его" → a masculine or neuter thing, "их" → things).
pub fn pronoun_agreement(w: &str) -> Option<Agreement> {
    match w {
        "его" => Some(Agreement {
            gender: Some("Masc"),
            plural: false,
            or_neuter: true,
        }),
        "её" | "ее" => Some(Agreement {
            gender: Some("Fem"),
            plural: false,
            or_neuter: false,
        }),
        "их" => Some(Agreement {
            gender: None,
            plural: true,
            or_neuter: false,
        }),
        _ => None,
    }
}

/// What an adjective standing alone as an object agrees with ("вторую" → a feminine thing,
/// "новый" → a masculine one), from its likeliest accusative reading; `None` when `w` is not an
/// adjective the dictionary knows.
pub fn adjective_agreement(w: &str) -> Option<Agreement> {
    let d = dictionary()?;
    if !cyrillic(w) {
        return None;
    }
    let all = known(w);
    let likeliest = all.iter().max_by(|a, b| a.prob.total_cmp(&b.prob))?;
    if d.ud_tag(likeliest.ud).is_none_or(|t| t.pos() != "ADJ") {
        return None;
    }
    all.iter()
        .filter_map(|a| d.ud_tag(a.ud))
        .filter(|t| t.pos() == "ADJ" && t.feat("Case") == Some("Acc"))
        .find_map(|t| {
            let plural = t.feat("Number") == Some("Plur");
            let gender = match t.feat("Gender") {
                Some("Masc") => Some("Masc"),
                Some("Fem") => Some("Fem"),
                Some("Neut") => Some("Neut"),
                _ if plural => None,
                _ => return None,
            };
            Some(Agreement {
                gender,
                plural,
                or_neuter: false,
            })
        })
}

/// `w` (lower case) as a thing's noun agreeing with `with`, in the accusative for the object
/// of a promise ("колонка" → "колонку", "сертификаты" → "сертификаты"); `None` when no reading
/// of it is an inanimate noun that agrees. Dictionary readings first; a guess from the ending
/// only for a word the dictionary does not hold ("тэн").
pub fn agreeing_thing(w: &str, with: Agreement) -> Option<String> {
    let d = dictionary()?;
    if !cyrillic(w) || w.chars().count() < 3 {
        return None;
    }
    let all = analyses(w);
    let dict = all.iter().any(|a| a.source == Source::Dictionary);
    let likeliest = all
        .iter()
        .filter(|a| !dict || a.source == Source::Dictionary)
        .max_by(|a, b| a.prob.total_cmp(&b.prob))?;
    if d.ud_tag(likeliest.ud).is_none_or(|t| t.pos() != "NOUN") {
        return None;
    }
    let a = all
        .iter()
        .filter(|a| !dict || a.source == Source::Dictionary)
        .find(|a| {
            d.ud_tag(a.ud).is_some_and(|t| {
                t.pos() == "NOUN"
                    && t.feat("Animacy") != Some("Anim")
                    && matches!(t.feat("Case"), Some("Nom" | "Acc"))
                    && (t.feat("Number") == Some("Plur")) == with.plural
                    && (with.plural
                        || t.feat("Gender") == with.gender
                        || with.or_neuter && t.feat("Gender") == Some("Neut"))
            })
        })?;
    let number = if with.plural { "Plur" } else { "Sing" };
    let form = d
        .inflect(a, &[("Case", "Acc"), ("Number", number)])
        .map(|f| f.word)
        .unwrap_or_else(|| w.to_string());
    Some(like(w, &form))
}

/// Whether some dictionary reading of `w` (lower case) is a noun or an adjective in the
/// genitive: what may follow a noun as part of its name ("план эвакуации").
pub fn genitive_noun_or_adjective(w: &str) -> bool {
    let Some(d) = dictionary() else { return false };
    cyrillic(w)
        && known(w).iter().any(|a| {
            d.ud_tag(a.ud)
                .is_some_and(|t| matches!(t.pos(), "NOUN" | "ADJ") && t.feat("Case") == Some("Gen"))
        })
}

fn cyrillic(w: &str) -> bool {
    !w.is_empty()
        && w.chars()
            .all(|c| matches!(c, 'а'..='я' | 'А'..='Я' | 'ё' | 'Ё' | '-'))
}

/// Puts the written word's capitals on a dictionary form (lower case, maybe with ё).
fn like(written: &str, form: &str) -> String {
    let form = if written.contains(['ё', 'Ё']) {
        form.to_string()
    } else {
        form.replace('ё', "е")
    };
    if written.chars().count() > 1 && written.chars().all(|c| !c.is_lowercase()) {
        return form.to_uppercase();
    }
    let mut cs = form.chars();
    match (written.chars().next(), cs.next()) {
        (Some(w), Some(f)) if w.is_uppercase() => f.to_uppercase().chain(cs).collect(),
        (_, Some(f)) => std::iter::once(f).chain(cs).collect(),
        _ => String::new(),
    }
}

/// A word's noun or adjective readings in an oblique case, most likely first; empty when the
/// word may already be nominative, or is not a noun or adjective the dictionary knows.
fn oblique(d: &Dictionary, word: &str) -> Vec<Analysis> {
    if !cyrillic(word) {
        return Vec::new();
    }
    let mut found: Vec<Analysis> = analyses(word)
        .iter()
        .filter(|a| {
            d.ud_tag(a.ud)
                .is_some_and(|t| matches!(t.pos(), "NOUN" | "PROPN" | "ADJ"))
        })
        .cloned()
        .collect();
    let case = |a: &Analysis| d.ud_tag(a.ud).and_then(|t| t.feat("Case"));
    if found.iter().any(|a| case(a) == Some("Nom")) {
        return Vec::new();
    }
    found.sort_by(|a, b| {
        (b.source == Source::Dictionary)
            .cmp(&(a.source == Source::Dictionary))
            .then(b.prob.total_cmp(&a.prob))
    });
    found
}

fn is_noun(d: &Dictionary, a: &Analysis) -> bool {
    d.ud_tag(a.ud)
        .is_some_and(|t| matches!(t.pos(), "NOUN" | "PROPN"))
}

/// The nominative of a reading, in the gender and number given (an adjective agrees with its
/// noun) or its own.
fn to_nominative(
    d: &Dictionary,
    a: &Analysis,
    gender: Option<&str>,
    number: Option<&str>,
) -> Option<String> {
    let t = d.ud_tag(a.ud)?;
    let mut feats = vec![("Case", "Nom")];
    if let Some(n) = number.or_else(|| t.feat("Number")) {
        feats.push(("Number", n));
    }
    if let Some(g) = gender.or_else(|| t.feat("Gender")) {
        feats.push(("Gender", g));
    }
    Some(d.inflect(a, &feats)?.word)
}

/// A topic as a question put it ("про Ромашку", "о складском учёте"), in the nominative for
/// naming it back: the leading nouns and adjectives change case (adjectives agreeing with the
/// noun), the rest ("учёт на складе") stays as said. Unknown words are kept as written.
pub fn nominative(topic: &str) -> String {
    let Some(d) = dictionary() else {
        return topic.to_string();
    };
    let words: Vec<(&str, &str)> = topic.split(' ').map(split_punct).collect();
    // The head phrase: leading words with oblique noun or adjective readings.
    // The head phrase ends with its first noun: what follows it depends on it and keeps its
    // case ("закупку стульев" → "закупка стульев").
    let mut readings: Vec<Vec<Analysis>> = Vec::new();
    for (core, _) in &words {
        let r = oblique(d, core);
        if r.is_empty() {
            break;
        }
        let noun = r.iter().all(|a| is_noun(d, a));
        readings.push(r);
        if noun {
            break;
        }
    }
    let noun = readings
        .iter()
        .find_map(|r| r.iter().find(|a| is_noun(d, a)).cloned());
    let (gender, number) = match &noun {
        Some(n) => {
            let t = d.ud_tag(n.ud);
            (
                t.and_then(|t| t.feat("Gender")),
                t.and_then(|t| t.feat("Number")),
            )
        }
        None => (None, None),
    };
    let mut out = Vec::with_capacity(words.len());
    for (k, (core, tail)) in words.iter().enumerate() {
        let changed = readings.get(k).and_then(|r| {
            let a = if r.iter().any(|a| is_noun(d, a)) && noun.is_some() {
                r.iter().find(|a| is_noun(d, a))?
            } else {
                // An adjective: the reading that agrees with the noun.
                r.iter()
                    .find(|a| {
                        let t = d.ud_tag(a.ud);
                        gender.is_none()
                            || t.and_then(|t| t.feat("Gender")) == gender
                            || t.and_then(|t| t.feat("Number")) == Some("Plur")
                    })
                    .or_else(|| r.first())?
            };
            let agree = !is_noun(d, a);
            to_nominative(
                d,
                a,
                if agree { gender } else { None },
                if agree { number } else { None },
            )
        });
        match changed {
            Some(w) => out.push(format!("{}{tail}", like(core, &w))),
            None => out.push(format!("{core}{tail}")),
        }
    }
    out.join(" ")
}

/// "Ромашке?" → ("Ромашке", "?").
fn split_punct(word: &str) -> (&str, &str) {
    let end = word
        .char_indices()
        .rev()
        .take_while(|(_, c)| !c.is_alphanumeric())
        .last()
        .map_or(word.len(), |(i, _)| i);
    word.split_at(end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn topics_come_back_in_the_nominative() {
        assert_eq!(nominative("Ромашке"), "Ромашка");
        assert_eq!(nominative("Ромашку"), "Ромашка");
        assert_eq!(nominative("складском учёте"), "складской учёт");
        assert_eq!(nominative("складе на Лесной"), "склад на Лесной");
        assert_eq!(nominative("закупку стульев"), "закупка стульев");
        assert_eq!(nominative("новую версию сайта"), "новая версия сайта");
        // "миграции" may be a nominative plural: a word that may already be nominative stays.
        assert_eq!(nominative("миграции на Postgres"), "миграции на Postgres");
        // Already nominative, or not Russian: as said.
        assert_eq!(nominative("CRM"), "CRM");
        assert_eq!(nominative("Ромашка"), "Ромашка");
        assert_eq!(nominative(""), "");
    }

    #[test]
    fn a_first_person_verb_is_the_speakers_doing() {
        for w in ["переносим", "перенесу", "сделаем", "отправил"] {
            assert_eq!(first_person_verb(w), w != "отправил", "{w}");
        }
        assert!(!first_person_verb("перенес"));
        assert!(!first_person_verb("садик"));
        assert!(!first_person_verb(""));
    }

    #[test]
    fn an_indicative_verb_tells_or_asks() {
        for w in ["просит", "привезёт", "везёшь", "успеваю", "делали"]
        {
            assert!(indicative_verb(w), "{w}");
        }
        for w in ["сделай", "закончить", "кирова", "коттедж", ""] {
            assert!(!indicative_verb(w), "{w}");
        }
    }

    #[test]
    fn a_verb_is_named_by_its_infinitive() {
        assert_eq!(verb_lemma("добьют").as_deref(), Some("добить"));
        assert_eq!(verb_lemma("добьём").as_deref(), Some("добить"));
        assert_eq!(verb_lemma("филе"), None);
        assert_eq!(verb_lemma("send"), None);
    }

    #[test]
    fn a_past_verb_tells_what_happened() {
        for w in ["делали", "звонила", "протекли"] {
            assert!(past_verb(w), "{w}");
        }
        for w in ["сделаю", "делать", "июле", "done", ""] {
            assert!(!past_verb(w), "{w}");
        }
    }

    proptest! {
        #[test]
        fn any_word_is_read_without_panic(w in "\\PC{0,20}") {
            let _ = past_verb(&w);
            let _ = indicative_verb(&w);
            let _ = verb_lemma(&w);
            let _ = first_person_verb(&w);
        }

        #[test]
        fn any_topic_is_named_back_without_panic(topic in "\\PC{0,40}") {
            let _ = nominative(&topic);
        }
    }
}
