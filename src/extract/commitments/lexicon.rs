//! The word tables the rules read: the Russian verb list (with forms made from it, and verbs
//! read by prefix and root or guessed from a future ending), and the word classes, both loaded
//! from `lexicon/` at compile time.

use super::*;

/// Which form of a lexicon verb a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Form {
    Inf,
    /// 1st person singular future ("сделаю") — a promise.
    Fut1,
    /// 1st person plural future ("сделаем").
    Fut1Pl,
    /// Imperative ("сделай", "сделайте") — a request.
    Imp,
    /// Past ("сделал", "сделала", "сделали") — a report.
    Past,
    /// 2nd person future ("сделаешь?") — a request when asked.
    Fut2,
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Verb {
    pub(super) inf: &'static str,
    pub(super) form: Form,
    /// Verbs of taking something on ("возьму", "займусь"): the object alone names the promise,
    /// and their past means "started", not "finished".
    pub(super) take: bool,
    /// Auxiliaries ("постараюсь", "попробую"): the following infinitive carries the meaning.
    pub(super) aux: bool,
    /// Read by the morphological dictionary, not from the lists: a past form of any verb
    /// reports finished work only when the message names the work.
    pub(super) dict: bool,
}

/// The verb list (`lexicon/ru/verbs.txt`; its header says the format).
pub(super) const RU_VERBS: &str = include_str!("../../../lexicon/ru/verbs.txt");

pub(super) fn ru_verbs() -> &'static HashMap<String, Verb, WordHash> {
    static LEX: OnceLock<HashMap<String, Verb, WordHash>> = OnceLock::new();
    LEX.get_or_init(|| {
        let mut map: HashMap<String, Verb, WordHash> = HashMap::default();
        for line in RU_VERBS.lines().filter(|l| !l.starts_with('#')) {
            let f: Vec<&'static str> = line.split_whitespace().collect();
            let [inf, fut1, imp, past, fut2, rest @ ..] = f.as_slice() else {
                continue;
            };
            let take = rest.contains(&"t");
            let aux = rest.contains(&"a");
            let mut put = |w: String, form: Form| {
                map.entry(w).or_insert(Verb {
                    inf,
                    form,
                    take,
                    aux,
                    dict: false,
                });
            };
            put(inf.to_string(), Form::Inf);
            for w in fut1.split('|') {
                put(w.to_string(), Form::Fut1);
            }
            for w in imp.split('|') {
                put(w.to_string(), Form::Imp);
                put(format!("{w}те"), Form::Imp);
                // Under a stressed "вы-" the spoken imperative often ends in "-и": "выстави",
                // "выправи" beside "выставь", "выправь".
                if inf.starts_with("вы")
                    && fut2.ends_with("ишь")
                    && let Some(base) = w.strip_suffix('ь')
                {
                    put(format!("{base}и"), Form::Imp);
                    put(format!("{base}ите"), Form::Imp);
                }
            }
            for w in past.split('|') {
                put(w.to_string(), Form::Past);
                if let Some(base) = w.strip_suffix("ся") {
                    put(format!("{base}ась"), Form::Past);
                    put(format!("{base}ись"), Form::Past);
                } else if w.ends_with('л') {
                    put(format!("{w}а"), Form::Past);
                    put(format!("{w}и"), Form::Past);
                } else {
                    put(format!("{w}ла"), Form::Past);
                    put(format!("{w}ли"), Form::Past);
                }
            }
            for w in fut2.split('|') {
                put(w.to_string(), Form::Fut2);
                for (s2, s1pl, s2pl) in [
                    ("ешься", "емся", "етесь"),
                    ("ишься", "имся", "итесь"),
                    ("ешь", "ем", "ете"),
                    ("ишь", "им", "ите"),
                ] {
                    if let Some(base) = w.strip_suffix(s2) {
                        put(format!("{base}{s1pl}"), Form::Fut1Pl);
                        put(format!("{base}{s2pl}"), Form::Fut2);
                        break;
                    }
                }
            }
        }
        map
    })
}

/// Verb prefixes: a prefixed form the lexicon lacks ("обзвоню", "переберу") is read through a
/// lexicon form with the same root and another prefix ("позвоню", "заберу").
pub(super) fn ru_prefixes() -> &'static [&'static str] {
    word_list!("ru/prefixes.txt")
}

/// The shortest root a prefix may be swapped on (shorter roots collide with nouns).
pub(super) fn min_root(prefix: &str) -> usize {
    if prefix.chars().count() == 1 { 5 } else { 4 }
}

/// Lexicon forms keyed by what follows their prefix: "звоню" → ("по", позвонить 1sg).
pub(super) fn ru_roots() -> &'static HashMap<&'static str, (&'static str, Verb), WordHash> {
    static ROOTS: OnceLock<HashMap<&'static str, (&'static str, Verb), WordHash>> = OnceLock::new();
    ROOTS.get_or_init(|| {
        let mut forms: Vec<(&String, &Verb)> = ru_verbs().iter().collect();
        // Sorted, so the same root always maps to the same verb.
        forms.sort_by(|a, b| a.0.cmp(b.0));
        let mut map = HashMap::default();
        for (w, v) in forms {
            if v.aux || v.take {
                continue;
            }
            for p in ru_prefixes() {
                if let Some(root) = w.strip_prefix(p)
                    && v.inf.starts_with(p)
                    && root.chars().count() >= min_root(p)
                {
                    map.entry(root).or_insert((*p, *v));
                }
            }
        }
        map
    })
}

/// Infinitives made up by prefix swapping, kept once for the life of the process (at most one
/// per prefix and lexicon verb, so the set stays small).
pub(super) fn intern(s: String) -> &'static str {
    static SET: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut set = SET
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    if let Some(&known) = set.get(s.as_str()) {
        return known;
    }
    let leaked: &'static str = Box::leak(s.into_boxed_str());
    set.insert(leaked);
    leaked
}

/// A verb form outside the lexicon read by its prefix and root ("обзвонишь" like "позвонишь").
pub(super) fn derived_verb(w: &str) -> Option<Verb> {
    // Nouns shaped like a derived form ("раскрой плит"), and the modal "сможешь".
    const HOMOGRAPHS: &[&str] = &["раскрой", "покрой", "настрой", "простой", "отстой"];
    if word_classes().contains_key(w) || HOMOGRAPHS.contains(&w) || w.starts_with("смо") {
        return None;
    }
    let roots = ru_roots();
    // A word the dictionary knows is read by the dictionary, not by likeness: "заходим" (a
    // present of "заходить") is no future because "сходим" is one. One the dictionary knows
    // only as the speaker's future is read by likeness to the lexicon's verb of work:
    // "подрежу" is "подрезать" (like "нарежу"), not "подредить". Asked once, when needed.
    let mut dictionary_reads: Option<bool> = None;
    for p in ru_prefixes() {
        let Some(root) = w.strip_prefix(p) else {
            continue;
        };
        if root.chars().count() >= min_root(p)
            && *dictionary_reads.get_or_insert_with(|| {
                crate::morph::known_word(w) && !crate::morph::only_own_future(w)
            })
        {
            return None;
        }
        if root.chars().count() < min_root(p) {
            continue;
        }
        // A prefix stacked on a whole lexicon form: "допроверю", "пересобрал".
        if let Some(&v) = ru_verbs().get(root)
            && !v.aux
            && !v.take
        {
            return Some(Verb {
                inf: intern(format!("{p}{}", v.inf)),
                form: v.form,
                take: false,
                aux: false,
                dict: false,
            });
        }
        if let Some(&(other, v)) = roots.get(root)
            && other != *p
        {
            let base = v.inf.strip_prefix(other).unwrap_or(v.inf);
            return Some(Verb {
                inf: intern(format!("{p}{base}")),
                form: v.form,
                take: false,
                aux: false,
                dict: false,
            });
        }
    }
    stacked_verb(w)
}

/// "переобжму", "допроверим": prefixes (one or two) stacked on a form the dictionary reads
/// only as a verb of the speaker's own ("жму", "проверим"), in a word it does not hold itself,
/// make the speaker's perfective future of the prefixed verb.
fn stacked_verb(w: &str) -> Option<Verb> {
    if w.chars().count() < 7
        || !w.chars().all(|c| matches!(c, 'а'..='я' | 'ё'))
        || crate::morph::known_word(w)
    {
        return None;
    }
    let read = |prefix: &str, root: &str| {
        let (lemma, plural, present) = crate::morph::own_verb_reading(root)?;
        // A present made perfective by the prefix must be of a verb with none of its own:
        // "пере" + "жму" is a future, "пере" + "заливаю" still a present.
        if present
            && ru_prefixes().iter().any(|p| {
                lemma
                    .strip_prefix(p)
                    .is_some_and(|r| r.chars().count() >= 3)
            })
        {
            return None;
        }
        let form = if plural { Form::Fut1Pl } else { Form::Fut1 };
        dictionary_reading(&format!("{prefix}{lemma}"), form)
    };
    for p in ru_prefixes() {
        let Some(root) = w.strip_prefix(p) else {
            continue;
        };
        if root.chars().count() >= 4
            && let Some(v) = read(p, root)
        {
            return Some(v);
        }
        for q in ru_prefixes() {
            if let Some(inner) = root.strip_prefix(q)
                && inner.chars().count() >= 3
                && let Some(v) = read(&format!("{p}{q}"), inner)
            {
                return Some(v);
            }
        }
    }
    None
}

/// A prefixed word outside the lexicon with a 1st-person future ending ("заоптимизирую",
/// "зарелижу", "пофикшу"): slang verbs of work are made up faster than any list grows.
/// Endings shared with nouns ("-ку", "-ию", "-ую") are left out, and so are words the
/// dictionary knows only as others ("спальню", "продажу").
pub(super) fn guessed_fut1(w: &str) -> Option<Verb> {
    const NOUNS: &[&str] = &["продажу", "распродажу", "поклажу", "пропажу", "порою"];
    const ENDINGS: &[(&str, &str)] = &[
        ("ирую", "ировать"),
        ("изую", "изовать"),
        ("ою", "оить"),
        ("лю", "лить"),
        ("ню", "нить"),
        ("жу", "жить"),
        ("шу", "сить"),
        ("щу", "стить"),
        ("рю", "рить"),
    ];
    if w.chars().count() < 6
        || !w.chars().all(|c| matches!(c, 'а'..='я'))
        || word_classes().contains_key(w)
        || NOUNS.contains(&w)
    {
        return None;
    }
    let prefixed = ru_prefixes()
        .iter()
        .any(|p| w.strip_prefix(p).is_some_and(|r| r.chars().count() >= 4));
    if !prefixed {
        return None;
    }
    // "прокапим", "отгрузим": a 2nd-conjugation "we" future; after a hushing consonant or a
    // velar the ending is an adjective's ("подходящим", "таким").
    if let Some(base) = w.strip_suffix("им")
        && !base.ends_with(['щ', 'ш', 'ж', 'ч', 'к', 'г', 'х', 'н', 'й'])
        && !crate::morph::known_word(w)
    {
        return Some(guessed(format!("{base}ить"), Form::Fut1Pl));
    }
    // "пофоткаю", "сфоткаю", "почекаю": a slang "-ать" verb the dictionary does not know, made
    // perfective by "по-"/"с-", is a future; a known one ("понимаю") is read by the dictionary.
    if let Some(base) = w.strip_suffix("аю")
        && (w.starts_with("по") || w.starts_with('с') && !w.starts_with("со"))
        && !crate::morph::known_word(w)
    {
        return Some(guessed(format!("{base}ать"), Form::Fut1));
    }
    let (end, inf_end) = ENDINGS.iter().find(|(e, _)| w.ends_with(e))?;
    // A word the dictionary holds is a guess only when it may be a future ("перекрою": of
    // "перекрыть" or "перекроить"); "ставлю" is a present, not a future of "ставлить".
    // Nor is one the dictionary also reads as a present ("перевожу": a present of
    // "переводить", its rare perfective beside it).
    if crate::morph::known_word(w)
        && (!crate::morph::may_be_future(w) || crate::morph::may_be_present(w))
    {
        return None;
    }
    let base = w.strip_suffix(end)?;
    Some(guessed(format!("{base}{inf_end}"), Form::Fut1))
}

/// A verb guessed from its shape: no dictionary, no lexicon entry behind it.
fn guessed(inf: String, form: Form) -> Verb {
    Verb {
        inf: intern(inf),
        form,
        take: false,
        aux: false,
        dict: false,
    }
}

// Word classes, as bit flags: one table lookup per token.
pub(super) const STOP: u32 = 1;
pub(super) const AGREE: u32 = 1 << 1;
pub(super) const FILL: u32 = 1 << 2;
pub(super) const DATE: u32 = 1 << 3;
pub(super) const PREP: u32 = 1 << 4;
pub(super) const DONE: u32 = 1 << 5;
pub(super) const PRON: u32 = 1 << 6;
pub(super) const COND: u32 = 1 << 7;
pub(super) const RETOLD: u32 = 1 << 8;
pub(super) const PROGRESS: u32 = 1 << 9;
pub(super) const NONWORK: u32 = 1 << 10;
pub(super) const EN_VERB: u32 = 1 << 11;
pub(super) const NEG: u32 = 1 << 12;
pub(super) const CANCEL: u32 = 1 << 13;
pub(super) const MOVE: u32 = 1 << 14;
pub(super) const NEED: u32 = 1 << 15;
pub(super) const PLEASE: u32 = 1 << 16;
pub(super) const SUBJ: u32 = 1 << 17;
pub(super) const NUMW: u32 = 1 << 18;
pub(super) const GREET: u32 = 1 << 19;
pub(super) const MONTH: u32 = 1 << 20;
/// English words that are verbs only (never the name of a thing), for significant stems.
pub(super) const PUREV: u32 = 1 << 21;
/// Praise that closes an agreement ("было бы отлично", "would be great").
pub(super) const APPROVE: u32 = 1 << 22;
/// Urgency words ("не горит", "no rush"): they name no work.
pub(super) const URGE: u32 = 1 << 23;
/// Words that head a plan ("план на сегодня:", "todo:").
pub(super) const PLAN: u32 = 1 << 24;
/// Words that may stand in a plan's heading beside a plan or date word ("у меня", "for").
pub(super) const PLAN_HEAD: u32 = 1 << 25;
/// English words that start an object ("fix the gate"): a plan item's first word before one is its verb.
pub(super) const DETERMINER: u32 = 1 << 26;
/// The remainder of some work ("остальное", "the rest"): with a date after it, the work moves.
pub(super) const REST: u32 = 1 << 27;
/// Verbs of guessing ("I think I will"): a bare future after them is a guess, not a promise.
pub(super) const GUESS: u32 = 1 << 28;
/// Words that open a time ("после 3 урока", "after the standup").
pub(super) const TIME_PREP: u32 = 1 << 29;

/// Each class's words, one file per class and language under `lexicon/`.
pub(super) const WORD_CLASSES: &[(u32, &str)] = &[
    (STOP, include_str!("../../../lexicon/ru/stop.txt")),
    (STOP, include_str!("../../../lexicon/en/stop.txt")),
    (AGREE, include_str!("../../../lexicon/ru/agree.txt")),
    (AGREE, include_str!("../../../lexicon/en/agree.txt")),
    (FILL, include_str!("../../../lexicon/ru/fill.txt")),
    (FILL, include_str!("../../../lexicon/en/fill.txt")),
    (GREET, include_str!("../../../lexicon/ru/greet.txt")),
    (GREET, include_str!("../../../lexicon/en/greet.txt")),
    (DATE, include_str!("../../../lexicon/ru/date.txt")),
    (DATE, include_str!("../../../lexicon/en/date.txt")),
    (PREP, include_str!("../../../lexicon/ru/prep.txt")),
    (PREP, include_str!("../../../lexicon/en/prep.txt")),
    (DONE, include_str!("../../../lexicon/ru/done.txt")),
    (DONE, include_str!("../../../lexicon/en/done.txt")),
    (PRON, include_str!("../../../lexicon/ru/pron.txt")),
    (PRON, include_str!("../../../lexicon/en/pron.txt")),
    (COND, include_str!("../../../lexicon/ru/cond.txt")),
    (COND, include_str!("../../../lexicon/en/cond.txt")),
    (RETOLD, include_str!("../../../lexicon/ru/retold.txt")),
    (RETOLD, include_str!("../../../lexicon/en/retold.txt")),
    (PROGRESS, include_str!("../../../lexicon/ru/progress.txt")),
    (PROGRESS, include_str!("../../../lexicon/en/progress.txt")),
    (NONWORK, include_str!("../../../lexicon/ru/nonwork.txt")),
    (NONWORK, include_str!("../../../lexicon/en/nonwork.txt")),
    (EN_VERB, include_str!("../../../lexicon/en/verbs.txt")),
    (NEG, include_str!("../../../lexicon/ru/neg.txt")),
    (NEG, include_str!("../../../lexicon/en/neg.txt")),
    (CANCEL, include_str!("../../../lexicon/ru/cancel.txt")),
    (CANCEL, include_str!("../../../lexicon/en/cancel.txt")),
    (MOVE, include_str!("../../../lexicon/ru/move.txt")),
    (MOVE, include_str!("../../../lexicon/en/move.txt")),
    (NEED, include_str!("../../../lexicon/ru/need.txt")),
    (NEED, include_str!("../../../lexicon/en/need.txt")),
    (PLEASE, include_str!("../../../lexicon/ru/please.txt")),
    (PLEASE, include_str!("../../../lexicon/en/please.txt")),
    (PUREV, include_str!("../../../lexicon/en/verb_only.txt")),
    (MONTH, include_str!("../../../lexicon/ru/month.txt")),
    (MONTH, include_str!("../../../lexicon/en/month.txt")),
    (SUBJ, include_str!("../../../lexicon/ru/subj.txt")),
    (SUBJ, include_str!("../../../lexicon/en/subj.txt")),
    (APPROVE, include_str!("../../../lexicon/ru/approve.txt")),
    (APPROVE, include_str!("../../../lexicon/en/approve.txt")),
    (URGE, include_str!("../../../lexicon/ru/urge.txt")),
    (URGE, include_str!("../../../lexicon/en/urge.txt")),
    (NUMW, include_str!("../../../lexicon/ru/numw.txt")),
    (NUMW, include_str!("../../../lexicon/en/numw.txt")),
    (PLAN, include_str!("../../../lexicon/ru/plan.txt")),
    (PLAN, include_str!("../../../lexicon/en/plan.txt")),
    (PLAN_HEAD, include_str!("../../../lexicon/ru/plan_head.txt")),
    (PLAN_HEAD, include_str!("../../../lexicon/en/plan_head.txt")),
    (
        DETERMINER,
        include_str!("../../../lexicon/en/determiner.txt"),
    ),
    (REST, include_str!("../../../lexicon/ru/rest.txt")),
    (REST, include_str!("../../../lexicon/en/rest.txt")),
    (GUESS, include_str!("../../../lexicon/en/guess.txt")),
    (TIME_PREP, include_str!("../../../lexicon/ru/time_prep.txt")),
    (TIME_PREP, include_str!("../../../lexicon/en/time_prep.txt")),
];

pub(super) fn word_classes() -> &'static HashMap<&'static str, u32, WordHash> {
    static MAP: OnceLock<HashMap<&'static str, u32, WordHash>> = OnceLock::new();
    MAP.get_or_init(|| {
        let mut map: HashMap<&'static str, u32, WordHash> = HashMap::default();
        for (flag, words) in WORD_CLASSES {
            for w in self::words(words) {
                *map.entry(w).or_insert(0) |= flag;
            }
        }
        map
    })
}

/// Is `w` an English verb lemma (WordNet's, lexicon/en/wordnet_verbs.txt)? British "-ise"
/// spellings count as their "-ize" ("sanitise").
pub(super) fn wordnet_verb(w: &str) -> bool {
    static SET: OnceLock<std::collections::HashSet<&'static str, WordHash>> = OnceLock::new();
    let set =
        SET.get_or_init(|| words(include_str!("../../../lexicon/en/wordnet_verbs.txt")).collect());
    set.contains(w)
        || w.strip_suffix("ise")
            .is_some_and(|stem| set.contains(format!("{stem}ize").as_str()))
}

/// 1st-person future forms of the lexicon, for typo matching.
/// 1st-person future forms by first letter, spelled out as chars.
pub(super) type Fut1Forms = HashMap<char, Vec<(Vec<char>, Verb)>>;

pub(super) fn fut1_forms() -> &'static Fut1Forms {
    static FORMS: OnceLock<Fut1Forms> = OnceLock::new();
    FORMS.get_or_init(|| {
        let mut map: Fut1Forms = HashMap::new();
        for (w, v) in ru_verbs() {
            if v.form == Form::Fut1 && !v.aux {
                let chars: Vec<char> = w.chars().collect();
                if let Some(&c) = chars.first() {
                    map.entry(c).or_default().push((chars, *v));
                }
            }
        }
        // The lexicon map has no order of its own: the same slip should always read the same.
        for forms in map.values_mut() {
            forms.sort_by(|a, b| a.0.cmp(&b.0));
        }
        map
    })
}

pub(crate) use crate::extract::words::lexicon_words as words;

/// A Russian verb form the lists do not hold, read by the morphological dictionary: "обойду"
/// is a 1st-person future of "обойти", "прочисти" an imperative (futures, infinitives, and
/// perfective imperatives and pasts). Only a word every dictionary reading of which is a verb
/// counts ("печь", "стекло", "мой" are other things too); guessed
/// readings of unknown words are left to `guessed_fut1`. Each word is read once per thread.
pub(super) fn dictionary_verb(w: &str) -> Option<Verb> {
    thread_local! {
        static READ: std::cell::RefCell<HashMap<String, Option<Verb>, WordHash>> =
            std::cell::RefCell::new(HashMap::default());
    }
    if w.chars().count() < 4
        || !w.chars().all(|c| matches!(c, 'а'..='я' | 'ё'))
        || word_classes().contains_key(w)
    {
        return None;
    }
    if let Some(known) = READ.with(|r| r.borrow().get(w).copied()) {
        return known;
    }
    let verb = read_verb(w);
    READ.with(|r| {
        let mut r = r.borrow_mut();
        // Chat text is open-ended: the memo stays bounded.
        if r.len() > 50_000 {
            r.clear();
        }
        r.insert(w.to_string(), verb);
    });
    verb
}

fn read_verb(w: &str) -> Option<Verb> {
    let d = crate::morph::dictionary()?;
    let all = crate::morph::analyses(w);
    let found: Vec<&rumorph::Analysis> = all
        .iter()
        .filter(|a| a.source == rumorph::Source::Dictionary)
        .collect();
    // "вызову": a 1st-person future beside a noun's oblique case ("к вызову") is read as the
    // verb, at least a third as likely; after a preposition `Msg::new` reads it as the noun.
    if let Some(v) = fut1_beside_noun(d, &found) {
        return Some(v);
    }
    if let Some(v) = fut1pl_beside_short_adjective(d, &found) {
        return Some(v);
    }
    // Every reading must give the same form of the same verb: "заходим" is a present, a
    // future and an imperative of two verbs "заходить", and none of them is sure.
    let mut read: Option<(&str, Form)> = None;
    for a in &found {
        let form = verb_form(d, a)?;
        match read {
            Some((lemma, f)) if lemma != a.lemma || f != form => return None,
            _ => read = Some((&a.lemma, form)),
        }
    }
    let (lemma, form) = read?;
    dictionary_reading(lemma, form)
}

/// A verb read by the dictionary as `lemma` in `form`, unless the verb is no work.
fn dictionary_reading(lemma: &str, form: Form) -> Option<Verb> {
    let lemma = lemma.replace('ё', "е");
    // "пообедаю" is as little work as "пообедать".
    let nonwork = word_classes()
        .get(lemma.as_str())
        .is_some_and(|f| f & NONWORK != 0);
    if lemma.is_empty() || nonwork || not_work_verbs().contains(lemma.as_str()) {
        return None;
    }
    Some(Verb {
        inf: intern(lemma),
        form,
        take: false,
        aux: false,
        dict: true,
    })
}

/// A 1st-person singular future whose other readings are all a noun in an oblique case, with
/// the future at least a third of the word's likelihood.
fn fut1_beside_noun(d: &rumorph::Dictionary, found: &[&rumorph::Analysis]) -> Option<Verb> {
    let total: f64 = found.iter().map(|a| a.prob).sum();
    let mut verb: Option<(&rumorph::Analysis, f64)> = None;
    for &a in found {
        let t = d.ud_tag(a.ud)?;
        match verb_form(d, a) {
            Some(Form::Fut1) => match verb {
                Some((v, p)) if v.lemma == a.lemma => verb = Some((v, p + a.prob)),
                Some(_) => return None,
                None => verb = Some((a, a.prob)),
            },
            _ if t.pos() == "NOUN"
                && matches!(t.feat("Case"), Some("Dat" | "Gen" | "Loc" | "Ins")) => {}
            _ => return None,
        }
    }
    let (a, p) = verb?;
    if found.len() < 2 || p < total / 3.0 {
        return None;
    }
    dictionary_reading(&a.lemma, Form::Fut1)
}

/// "поправим", "восстановим", "исправим": a 1st-person plural future whose other readings are
/// the short adjective of the same verb ("поправимый": a chat says "поправим к пятнице", the
/// short adjective is said of a thing, "это поправимо").
fn fut1pl_beside_short_adjective(
    d: &rumorph::Dictionary,
    found: &[&rumorph::Analysis],
) -> Option<Verb> {
    let mut lemma: Option<&str> = None;
    let mut adjective = false;
    for &a in found {
        let t = d.ud_tag(a.ud)?;
        match verb_form(d, a) {
            Some(Form::Fut1Pl) if lemma.is_none_or(|l| l == a.lemma) => lemma = Some(&a.lemma),
            Some(_) => return None,
            None if t.pos() == "ADJ" && a.lemma.ends_with("мый") => adjective = true,
            None => return None,
        }
    }
    let lemma = lemma?;
    let stem = lemma.trim_end_matches("ть");
    let same_verb = found.iter().all(|a| {
        verb_form(d, a).is_some() || a.lemma.get(..stem.len().min(a.lemma.len())) == Some(stem)
    });
    (adjective && same_verb).then(|| dictionary_reading(lemma, Form::Fut1Pl))?
}

/// The form a dictionary reading gives, if it is one the rules read.
fn verb_form(d: &rumorph::Dictionary, a: &rumorph::Analysis) -> Option<Form> {
    let t = d.ud_tag(a.ud)?;
    if t.pos() != "VERB" {
        return None;
    }
    let feat = |k: &str| t.feat(k);
    // A full participle describes a thing ("нужен обновлённый прайс"); the short one reports
    // ("прайс обновлён").
    if feat("VerbForm") == Some("Part") && feat("Case").is_some() {
        return None;
    }
    // Only perfective pasts report something finished ("возилась", "сидел" do not), and a past
    // read here needs the message to name the work (see `dict`). Imperatives only perfective:
    // "вызови сервис" asks for a job, "пишите", "отдыхайте" do not.
    let perfective = feat("Aspect") == Some("Perf");
    let transitive = a
        .tag
        .and_then(|n| d.tag(n))
        .is_some_and(|t| t.contains("tran"));
    Some(
        match (
            feat("VerbForm"),
            feat("Mood"),
            feat("Tense"),
            feat("Person"),
            feat("Number"),
        ) {
            (Some("Inf"), ..) => Form::Inf,
            // "сдадим!" (let us hand it in) is written as the 1st person plural future, and
            // read as it: the speaker's side will do it.
            (_, Some("Imp"), _, Some("1"), _) if perfective => Form::Fut1Pl,
            (_, Some("Imp"), ..) if perfective => Form::Imp,
            // Transitive only: "закрыла", "повесили" report work done; "пришёл" is news.
            (_, _, Some("Past"), ..) if perfective && transitive => Form::Past,
            (_, _, Some("Fut"), Some("1"), Some("Sing")) => Form::Fut1,
            (_, _, Some("Fut"), Some("1"), Some("Plur")) => Form::Fut1Pl,
            (_, _, Some("Fut"), Some("2"), _) => Form::Fut2,
            _ => return None,
        },
    )
}

fn not_work_verbs() -> &'static HashSet<&'static str> {
    static SET: OnceLock<HashSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| words(include_str!("../../../lexicon/ru/not_work_verbs.txt")).collect())
}

/// Agreements of several words ("без проблем", "will do"), from `lexicon/*/agree_phrases.txt`.
pub(super) fn agree_phrases() -> &'static [Vec<&'static str>] {
    static LIST: OnceLock<Vec<Vec<&'static str>>> = OnceLock::new();
    LIST.get_or_init(|| {
        phrases(&[
            include_str!("../../../lexicon/ru/agree_phrases.txt"),
            include_str!("../../../lexicon/en/agree_phrases.txt"),
        ])
    })
}

/// Openings that hand the work over ("here you go", "держите"), from `lexicon/*/handover.txt`.
pub(super) fn handover_phrases() -> &'static [Vec<&'static str>] {
    static LIST: OnceLock<Vec<Vec<&'static str>>> = OnceLock::new();
    LIST.get_or_init(|| {
        phrases(&[
            include_str!("../../../lexicon/ru/handover.txt"),
            include_str!("../../../lexicon/en/handover.txt"),
        ])
    })
}

/// Openings that propose a change rather than ask about it ("можно перенести…?", "mind if I
/// push…?"), from `lexicon/*/proposal.txt`.
pub(super) fn proposal_phrases() -> &'static [Vec<&'static str>] {
    static LIST: OnceLock<Vec<Vec<&'static str>>> = OnceLock::new();
    LIST.get_or_init(|| {
        phrases(&[
            include_str!("../../../lexicon/ru/proposal.txt"),
            include_str!("../../../lexicon/en/proposal.txt"),
        ])
    })
}

/// One phrase a line as written, `#` starting a comment.
pub(super) fn lines(file: &'static str) -> impl Iterator<Item = &'static str> {
    file.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
}

/// One phrase a line (words split by spaces), `#` starting a comment.
fn phrases(files: &[&'static str]) -> Vec<Vec<&'static str>> {
    files
        .iter()
        .flat_map(|f| crate::extract::words::lexicon_phrases(f))
        .collect()
}

/// Idioms and social formulas ("сделаю вид", "I'll let you get back to it"), from
/// `lexicon/idioms.txt`.
pub(super) fn idiom_phrases() -> &'static [Vec<&'static str>] {
    static LIST: OnceLock<Vec<Vec<&'static str>>> = OnceLock::new();
    LIST.get_or_init(|| phrases(&[include_str!("../../../lexicon/idioms.txt")]))
}

/// A consequence to come (`lexicon/consequence.txt`).
pub(super) fn consequence_phrases() -> &'static [Vec<&'static str>] {
    static LIST: OnceLock<Vec<Vec<&'static str>>> = OnceLock::new();
    LIST.get_or_init(|| phrases(&[include_str!("../../../lexicon/consequence.txt")]))
}

/// A date that does not suit the speaker (`lexicon/date_refusal.txt`).
pub(super) fn date_refusal_phrases() -> &'static [Vec<&'static str>] {
    static LIST: OnceLock<Vec<Vec<&'static str>>> = OnceLock::new();
    LIST.get_or_init(|| phrases(&[include_str!("../../../lexicon/date_refusal.txt")]))
}

/// The speaker's own conclusion after a story (`lexicon/conclude.txt`).
pub(super) fn conclude_phrases() -> &'static [Vec<&'static str>] {
    static LIST: OnceLock<Vec<Vec<&'static str>>> = OnceLock::new();
    LIST.get_or_init(|| phrases(&[include_str!("../../../lexicon/conclude.txt")]))
}

/// Openings that decline an offer ("не, спасибо", "no thanks"), from `lexicon/*/refusal.txt`.
pub(super) fn refusal_phrases() -> &'static [Vec<&'static str>] {
    static LIST: OnceLock<Vec<Vec<&'static str>>> = OnceLock::new();
    LIST.get_or_init(|| {
        phrases(&[
            include_str!("../../../lexicon/ru/refusal.txt"),
            include_str!("../../../lexicon/en/refusal.txt"),
        ])
    })
}

/// The verbs an English "-ing" form may come from: "sending" → "send", "making" → "make",
/// "putting" → "put" (a doubled last letter counts once, by characters, never bytes). None for
/// a word without "-ing" or with less than two letters before it.
pub(super) fn ing_bases(w: &str) -> Vec<String> {
    let Some(base) = w.strip_suffix("ing").filter(|b| b.chars().count() >= 2) else {
        return Vec::new();
    };
    let mut back = base.chars().rev();
    let undoubled = match (back.next(), back.next()) {
        (Some(a), Some(b)) if a == b => base.get(..base.len() - a.len_utf8()),
        _ => None,
    };
    [Some(base), undoubled]
        .into_iter()
        .flatten()
        .map(str::to_string)
        .chain([format!("{base}e")])
        .collect()
}
