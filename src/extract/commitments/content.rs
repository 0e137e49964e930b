//! The short text of what is promised or asked, cut from the message around its verb.

use super::*;

/// Builds the short text of what is promised or asked from tokens `range` of the message,
/// replacing token `verb.0` by `verb.1` (the infinitive) placed first, and dropping `skip`,
/// the deadline phrase, greetings, fillers and stray date words. Returns the text and whether it
/// names anything beyond the verb.
pub(super) fn content(
    m: &Msg,
    range: Range<usize>,
    verb: Option<(usize, &str)>,
    skip: &[usize],
    due_span: Option<&Range<usize>>,
) -> (String, bool) {
    let in_due = |t: &Tk| due_span.is_some_and(|d| t.span.start < d.end && d.start < t.span.end);
    let mut end = range.end.min(m.n());
    // The condition of a promise is not its content: "сделаю, как только клиент ответит".
    if let Some(k) = (range.start..end).find(|&k| {
        k > range.start
            && (matches!(m.w(k), "когда" | "once" | "when" | "если" | "if" | "чтобы")
                // "…by 13th itself since 15th is a Sunday": why, not what.
                || matches!(m.w(k), "since" | "because" | "coz" | "cos")
                    && !m.has_f(k + 1, DATE)
                // "…, пока вы чай пьёте": while someone else does something.
                || (m.w(k) == "пока"
                    && (m.clause_start(k)
                        || word_list!("ru/persons.txt").contains(&m.w(k + 1))
                        // "пока совсем не замело": before something happens.
                        || (k + 1..(k + 4).min(m.n())).any(|j| m.w(j) == "не")))
                || (m.w(k) == "как" && m.w(k + 1) == "только")
                // "результаты скину как раздавлю": "как" before the speaker's own future is
                // "when", the moment, not the work.
                || (m.w(k) == "как"
                    && m.verb(k + 1).is_some_and(|v| matches!(v.form, Form::Fut1 | Form::Fut1Pl)))
                // "…by Thursday and honestly their marketing guy is a nightmare": an aside.
                || word_list!("en/aside.txt").contains(&m.w(k))
                    && (m.w(k - 1) == "and" || m.w(k - 1) == "but" || m.clause_start(k))
                // "…by 5/6 so it's not hanging over us": what it is for, not what is done.
                || (m.w(k) == "so"
                    && (m.w(k + 1) == "that"
                        || matches!(m.w(k + 1), "it's" | "its" | "it’s" | "there's")
                        || word_list!("en/persons.txt").contains(&m.w(k + 1)))))
    }) {
        end = k;
    }
    let mut keep: Vec<usize> = Vec::new();
    for i in range.start..end {
        let t = &m.toks[i];
        // "мы с Игорем сделаем": the partner is not the task.
        let partner = (m.w(i) == "с" && i > 0 && m.w(i - 1) == "мы")
            || (i > 1 && m.w(i - 1) == "с" && m.w(i - 2) == "мы");
        // "возврат я сама согласую": the speaker named again right before the verb is not the
        // task.
        let emphatic = |k: usize| matches!(m.w(k), "сам" | "сама" | "сами");
        let speaker = verb.is_some_and(|(v, _)| {
            (m.w(i) == "я" || m.w(i) == "мы") && (v == i + 1 || v == i + 2 && emphatic(i + 1))
                || emphatic(i) && v == i + 1 && i > 0 && matches!(m.w(i - 1), "я" | "мы")
        });
        // "@kept_bot доделаю отчёт", "@lena скину макеты": a username is not the task.
        let username = m
            .text
            .as_bytes()
            .get(..t.span.start)
            .unwrap_or(&[])
            .iter()
            .rev()
            .find(|b| !(b.is_ascii_alphanumeric() || **b == b'_'))
            == Some(&b'@');
        if skip.contains(&i)
            || partner
            || speaker
            || username
            || verb.is_some_and(|(v, _)| v == i)
            || in_due(t)
            || t.f & (FILL | GREET | AGREE) != 0
                // "make sure the printer has rolls": "sure" is no agreement there.
                && !(t.norm == "sure" && i > 0 && m.w(i - 1) == "make")
            || (t.f & DATE != 0 && !(t.f & PREP != 0 && m.has_f(i + 1, STOP)))
            || t.f & PLEASE != 0
        {
            continue;
        }
        // A number right before a date word or in the deadline ("к 3 марта") is part of the date.
        // "18:00": a clock time is a date too.
        let clock = |a: usize, b: usize| {
            is_number(m.w(a))
                && is_number(m.w(b))
                && m.toks
                    .get(a)
                    .zip(m.toks.get(b))
                    .and_then(|(x, y)| m.text.get(x.span.end..y.span.start))
                    == Some(":")
        };
        // "наберу ещё раз", "ring them again": a repeat says when, not what.
        if t.norm == "again" || t.norm == "раз" && i > 0 && matches!(m.w(i - 1), "ещё" | "еще")
        {
            continue;
        }
        // "today itself": the emphasis belongs to the date.
        if t.norm == "itself"
            && i > 0
            && (m.has_f(i - 1, DATE) || m.w(i - 1).starts_with(|c: char| c.is_ascii_digit()))
        {
            continue;
        }
        if is_number(&t.norm) && (clock(i, i + 1) || (i > 0 && clock(i - 1, i))) {
            continue;
        }
        // "к 3 марта", "до 5-го": but not "счёт 1010 завтра", where the day word stands alone.
        let standalone_day = matches!(
            m.w(i + 1),
            "завтра" | "сегодня" | "послезавтра" | "tomorrow" | "today" | "tonight"
        );
        if is_number(&t.norm) && m.has_f(i + 1, DATE | MONTH) && !standalone_day {
            continue;
        }
        if t.f & MONTH != 0 && i > 0 && is_number(m.w(i - 1)) {
            continue;
        }
        keep.push(i);
    }
    // Prepositions left hanging in front of a dropped date, and edges that carry nothing.
    let mut k = 0;
    while k < keep.len() {
        let i = keep[k];
        let next_kept = keep.get(k + 1).copied();
        let next_dropped = next_kept != Some(i + 1) && i + 1 < end;
        if m.has_f(i, PREP) && (next_dropped || next_kept.is_none()) {
            keep.remove(k);
            k = k.saturating_sub(1);
            continue;
        }
        k += 1;
    }
    let edge = |i: usize| {
        m.has_f(i, PREP | SUBJ)
            || matches!(
                m.w(i),
                "и" | "а" | "но" | "and" | "but" | "что" | "ли" | "also" | "then" | "so"
            )
            // "ТО газели": the abbreviation lost its stop flag.
            || m.w(i) == "то" && m.has_f(i, STOP)
    };
    // A preposition right after the verb belongs to it: "позвонить в банк", "разобраться с X";
    // so does one with its noun before the verb ("на складе посчитаю остатки").
    let verb_next = verb.map(|(v, _)| v + 1);
    let with_noun = |keep: &[usize]| match keep {
        [i, j, ..] => *j == i + 1 && m.toks[*j].f & (PREP | STOP | PRON | SUBJ) == 0,
        _ => false,
    };
    while keep.first().is_some_and(|&i| {
        edge(i) && !(m.has_f(i, PREP) && (Some(i) == verb_next || with_noun(&keep)))
    }) {
        keep.remove(0);
    }
    while keep.last().is_some_and(|&i| edge(i) || m.has_f(i, PRON)) {
        keep.pop();
    }
    keep.truncate(16);
    let has_object = keep.iter().any(|&i| {
        m.toks[i].f & (PRON | STOP | PUREV | PREP) == 0
            || word_list!("ru/person_objects.txt").contains(&m.w(i))
    });
    let mut parts: Vec<String> = Vec::new();
    if let Some((_, inf)) = verb
        && inf != NO_VERB
    {
        parts.push(inf.to_string());
    }
    let mut g = 0;
    while g < keep.len() {
        let start = keep[g];
        let mut last = start;
        while g + 1 < keep.len()
            && keep[g + 1] == last + 1
            && m.clause_of(last + 1) == m.clause_of(start)
        {
            g += 1;
            last = keep[g];
        }
        let (a, mut b) = (m.toks[start].span.start, m.toks[last].span.end);
        // "памятки (дождик, шоколад, кости)": a bracket opened in the run closes in it.
        let opened = m.text.get(a..b).map_or(0, |r| r.matches('(').count());
        let closed = m.text.get(a..b).map_or(0, |r| r.matches(')').count());
        if opened > closed && m.text.get(b..).is_some_and(|r| r.starts_with(')')) {
            b += 1;
        }
        // "сделаю и скину": the "и" dropped at the edge joins two actions of one promise.
        let joined = !parts.is_empty()
            && start > 0
            && matches!(m.w(start - 1), "и" | "and")
            && m.verb(start).is_some();
        if joined {
            parts.push(m.w(start - 1).to_string());
        }
        if let Some(s) = m.text.get(a..b).map(infinitives) {
            let s = s.as_str();
            // "Смету пришлю завтра" → "прислать смету": the capital belonged to the sentence,
            // not to the word, once the word is no longer first.
            let opened_sentence = start == 0 || m.sent_of(start - 1) != m.sent_of(start);
            if opened_sentence && !parts.is_empty() {
                parts.push(lower_common_opening(s));
            } else {
                parts.push(s.to_string());
            }
        }
        g += 1;
    }
    (parts.join(" "), has_object)
}

/// A promise says what is to be done, in the infinitive: a first-person verb inside it ("и
/// отпишусь", "и скину") becomes one ("и отписаться"). Words the dictionary cannot place stay.
pub(super) fn infinitives(s: &str) -> String {
    let Some(d) = crate::morph::dictionary() else {
        return s.to_string();
    };
    let mut out = String::with_capacity(s.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if word.is_empty() {
            return;
        }
        let lower = word.to_lowercase();
        let cyrillic = lower.chars().all(|c| matches!(c, 'а'..='я' | 'ё'));
        let found = if cyrillic {
            crate::morph::analyses(&lower)
        } else {
            std::rc::Rc::from(Vec::new())
        };
        // The word's likeliest reading must be a first-person verb ("стали" or "мой" are
        // other things first).
        // Of readings as likely ("замерим": a future and a "let's"), the future.
        let first_person_of = |a: &rumorph::Analysis| {
            d.ud_tag(a.ud).is_some_and(|t| {
                t.pos() == "VERB" && t.feat("Person") == Some("1") && t.feat("Mood") == Some("Ind")
            })
        };
        let known = || {
            found
                .iter()
                .filter(|a| a.source == rumorph::Source::Dictionary)
        };
        let top = known().map(|a| a.prob).fold(0.0_f64, f64::max);
        let best = known()
            .filter(|a| a.prob >= top - 1e-9)
            .max_by_key(|a| first_person_of(a));
        // "Пашу" written with a capital is Pasha, not "пахать", when the dictionary has the name.
        let name = word.chars().next().is_some_and(char::is_uppercase)
            && word.chars().skip(1).all(char::is_lowercase)
            && crate::morph::proper_name_form(&lower);
        let first_person = best.is_some_and(first_person_of) && !name;
        match best.filter(|_| first_person) {
            Some(a) if !a.lemma.is_empty() => out.push_str(&a.lemma.replace('ё', "е")),
            _ => out.push_str(word),
        }
        word.clear();
    };
    for c in s.chars() {
        if c.is_alphabetic() || c == '-' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The text with its first word in lower case when that word is an ordinary word with a capital
/// only for opening a sentence: the dictionary knows it in lower case and not as a name, and
/// it is not an abbreviation ("КП", "ЧПУ" stay).
pub(super) fn lower_common_opening(s: &str) -> String {
    let word_end = s
        .char_indices()
        .find(|(_, c)| !c.is_alphabetic())
        .map_or(s.len(), |(i, _)| i);
    let word = &s[..word_end];
    let mut chars = word.chars();
    let Some(first) = chars.next() else {
        return s.to_string();
    };
    let rest: String = chars.collect();
    if !first.is_uppercase() || rest.is_empty() || rest.chars().any(char::is_uppercase) {
        return s.to_string();
    }
    let lower = word.to_lowercase();
    let common = crate::morph::dictionary().is_some_and(|d| {
        let found = crate::morph::analyses(&lower);
        !found.is_empty()
            && found.iter().all(|a| {
                a.source == rumorph::Source::Dictionary
                    && d.ud_tag(a.ud)
                        .is_some_and(|t| t.pos() != "PROPN" && t.feat("NameType").is_none())
            })
    });
    if common {
        format!("{lower}{}", &s[word_end..])
    } else {
        s.to_string()
    }
}

/// A promise whose object is a pronoun ("check it", "скинуть его") reads with the thing the
/// clause before it names in the same message: "100t outrigger pad sensor is showing fault
/// again, I will check it today" → "check 100t outrigger pad sensor"; "I've got the lift
/// study, ill send it through" → "send the lift study through".
pub(super) fn with_antecedent(m: &Msg, said: &str) -> Option<String> {
    let words: Vec<&str> = said.split_whitespace().collect();
    let verb = *words.first()?;
    let last = *words.last()?;
    let en_pron = word_list!("en/object_pron.txt");
    let ru_pron = word_list!("ru/object_pron.txt");
    // Where the pronoun stands: right after the verb ("check it"; English keeps the verb as
    // written, Russian gives its infinitive, so any verb form will do there), or after a
    // preposition that ends what is said ("get someone to look at it").
    let after_verb = (1..m.n()).find(|&p| {
        en_pron.contains(&m.w(p)) && m.w(p - 1).eq_ignore_ascii_case(verb)
            || words.get(1) == Some(&m.w(p)) && ru_pron.contains(&m.w(p)) && m.verb(p - 1).is_some()
    });
    let after_prep = || {
        (2..m.n()).find(|&p| {
            en_pron.contains(&m.w(p))
                && m.has_f(p - 1, PREP)
                && m.w(p - 2).eq_ignore_ascii_case(last)
                && words.len() > 1
        })
    };
    let (p, en) = match after_verb {
        Some(p) => (p, en_pron.contains(&m.w(p))),
        None => (after_prep()?, true),
    };
    // "I'll send them the proposal": a pronoun before a thing is who gets it.
    if en
        && after_verb.is_some()
        && matches!(
            m.w(p + 1),
            "the" | "a" | "an" | "our" | "my" | "their" | "your" | "his" | "her" | "this" | "that"
        )
    {
        return None;
    }
    let replaced =
        |thing: &str| replace_pronoun(&words, verb, m.w(p), thing, said, after_verb, m, p);
    let own = m.bounds(p, false);
    // The thing is named in what comes before in the sentence ("RUC licences are due on vans
    // 3, 7 and 11 — I'll buy them"), or, when the promise opens its sentence, in the sentence
    // before ("Sensor is showing fault again. I will check it").
    let before = m.bounds(own.start.checked_sub(1)?, true).start..own.start;
    if before.is_empty() || !en && m.sent_of(before.start) != m.sent_of(own.start) {
        return None;
    }
    let states = word_list!("en/state_verbs.txt");
    let verbish = |k: usize| {
        if en {
            states.contains(&m.w(k))
                || matches!(m.w(k), "want" | "wants" | "need" | "needs" | "wanted" | "needed")
                || m.w(k).ends_with("'ve")
                || m.w(k).ends_with("’ve")
                || m.has_f(k, EN_VERB) && !m.clause_start(k)
                // "tyres land tmrw", "brake pads gone down to the metal": a verb after a
                // plural ("pads dem gone": a plural told by "dem" after it).
                || k > 0
                    && !m.clause_start(k)
                    && (m.w(k - 1).len() > 3 && m.w(k - 1).ends_with('s')
                        && (lexicon::wordnet_verb(m.w(k))
                            || super::made::participle(m.w(k))
                            || m.w(k) == "dem")
                        || m.w(k - 1) == "dem" && super::made::participle(m.w(k)))
        } else {
            m.verb(k).is_some() || m.w(k).starts_with("готов")
        }
    };
    // "phytos for containers 1+2 - I'll submit them", "the cracked guard on conveyor 3 - can
    // you fix it": with no verb before a dash or a colon, what comes before is the thing.
    let Some(k0) = (before.start..before.end).find(|&k| verbish(k)) else {
        if !en {
            return None;
        }
        let gap = m
            .toks
            .get(before.end.checked_sub(1)?)
            .zip(m.toks.get(own.start))
            .and_then(|(a, b)| m.text.get(a.span.end..b.span.start))?;
        if !(gap.contains(['—', '–', ':']) || gap.contains(" - ")) {
            return None;
        }
        // After a greeting ("Morning!") and an address ("Kobus,").
        let mut from = before.start;
        while from < before.end
            && (m.has_f(from, GREET | FILL)
                || m.sent_of(from) != m.sent_of(before.end - 1)
                || m.text
                    .get(m.toks[from].span.end..)
                    .is_some_and(|r| r.starts_with(','))
                    && m.written(from).starts_with(char::is_uppercase))
        {
            from += 1;
        }
        let (thing, _) = content(m, from..before.end, None, &[], None);
        let n = thing.split_whitespace().count();
        if n == 0 || n > 8 || (from..before.end).any(|k| m.has_f(k, PRON | NEG)) {
            return None;
        }
        return Some(replaced(&thing));
    };
    // "Fiona, the GST return is due": the thing starts after the address.
    let subject_from = m.bounds(k0, false).start.max(before.start);
    // "I've got the lift study": the verb runs on.
    let k1 = (k0..before.end)
        .find(|&k| !verbish(k))
        .unwrap_or(before.end);
    // "…from Doric for a 60t on the 9th of June": the thing ends where its date or its clause
    // ends.
    let object_end = m
        .bounds(k1.min(before.end.saturating_sub(1)), false)
        .end
        .min(before.end);
    let end = (k1..object_end)
        .find(|&k| {
            m.has_f(k, DATE | MONTH | TIME_PREP)
                // "our table number by 5": by a time.
                || m.w(k) == "by" && is_number(m.w(k + 1))
                || matches!(m.w(k), "on" | "by" | "for" | "to")
                    && (m.has_f(k + 1, DATE | MONTH)
                        || m.w(k + 1) == "the"
                            && is_number(m.w(k + 2).trim_end_matches(|c: char| c.is_alphabetic())))
        })
        .unwrap_or(object_end);
    let names = |r: Range<usize>| {
        r.clone().any(|k| {
            m.toks[k].f & (PRON | SUBJ | STOP | FILL | GREET | AGREE | DATE | PREP | DONE) == 0
                && !word_list!("en/persons.txt").contains(&m.w(k))
                && !word_list!("ru/persons.txt").contains(&m.w(k))
        })
    };
    // "we'll need the IEMs", "Menlo Park want our table number": wanting or needing, the
    // thing is what follows; so after a pronoun subject.
    let pronoun_subject = (subject_from..k0).any(|k| {
        m.has_f(k, PRON | SUBJ)
            || m.w(k).split(['\'', '’']).next().is_some_and(|w| {
                word_list!("en/subj.txt").contains(&w) || matches!(w, "you" | "they" | "he" | "she")
            })
    });
    // Who wants it is a party ("Menlo Park", "we"); "forms need everyone's signature" is the
    // forms themselves.
    let party = pronoun_subject
        || (subject_from..k0)
            .find(|&k| m.w(k) != "the")
            .is_some_and(|k| m.written(k).starts_with(char::is_uppercase));
    // "the Kinvara couple want a call, I'll ring them": who is rung is the party.
    let wants = en
        && after_verb.is_some()
        && party
        && !(super::reaches_someone(verb) && matches!(m.w(p), "them" | "him" | "her" | "em"))
        && matches!(
            m.w(k0),
            "want" | "wants" | "need" | "needs" | "wanted" | "needed"
        );
    let np = if k0 > subject_from && names(subject_from..k0) && !wants && !pronoun_subject {
        subject_from..k0
    } else if en && k1 < end && names(k1..end) {
        k1..end
    } else {
        return None;
    };
    // "can't find them right now, I'll dig them out": a pronoun again is no thing named.
    if np.clone().any(|k| {
        en_pron.contains(&m.w(k))
            || ru_pron.contains(&m.w(k))
            || m.has_f(k, PRON | NEG)
            || word_list!("en/modal.txt").contains(&m.w(k))
    }) {
        return None;
    }
    let (thing, _) = content(m, np, None, &[], None);
    let n = thing.split_whitespace().count();
    if n == 0 || n > 10 {
        return None;
    }
    Some(replaced(&thing))
}

/// The promise's words with the pronoun at token `p` (right after the verb, or after the
/// preposition that ends them) replaced by `thing`.
#[allow(clippy::too_many_arguments)]
fn replace_pronoun(
    words: &[&str],
    verb: &str,
    pron: &str,
    thing: &str,
    said: &str,
    after_verb: Option<usize>,
    m: &Msg,
    p: usize,
) -> String {
    if after_verb.is_some() {
        let rest = if words.get(1) == Some(&pron) {
            &words[2..]
        } else {
            &words[1..]
        };
        let mut out = format!("{verb} {thing}");
        for w in rest {
            out.push(' ');
            out.push_str(w);
        }
        out
    } else {
        format!("{said} {} {thing}", m.written(p - 1))
    }
}

/// A Russian promise whose object is a pronoun or an adjective alone reads with the nearest
/// thing named before it in the message (that sentence or the one before) that agrees in
/// gender and number: "подшипник заказал, Холодмаш привезёт в четверг. в пятницу с утра его
/// поставлю" → "поставить подшипник"; "колонка одна живая, вторую завтра проверю" →
/// "проверить вторую колонку"; "тэн сгорел. новый закажу во Владимире" → "заказать новый тэн
/// во Владимире". Only things, not people ("Петю заберу": no pronoun; "его заберу" after
/// "Петя в саду" names no thing).
pub(super) fn ru_antecedent(m: &Msg, said: &str) -> Option<String> {
    let words: Vec<&str> = said.split_whitespace().collect();
    let verb = *words.first()?;
    if !verb.chars().all(|c| matches!(c, 'а'..='я' | 'ё' | '-')) {
        return None;
    }
    let v = (0..m.n()).find(|&k| m.verb(k).is_some_and(|x| x.inf == verb))?;
    let pronoun = [v.checked_sub(1), Some(v + 1)]
        .into_iter()
        .flatten()
        .filter(|&p| p < m.n() && m.clause_of(p) == m.clause_of(v))
        .find_map(|p| crate::morph::pronoun_agreement(m.w(p)).map(|a| (p, a)));
    let (with, at, adjective) = match pronoun {
        Some((p, a)) => {
            // "их документы заберу": a possessive, and the thing is named.
            if crate::morph::likely_noun(m.w(p + 1)) {
                return None;
            }
            (a, p, None)
        }
        None => {
            let adj = *words.get(1)?;
            let a = crate::morph::adjective_agreement(adj)?;
            if words
                .get(2)
                .is_some_and(|w| crate::morph::likely_noun(&w.to_lowercase()))
            {
                return None;
            }
            let p = m.bounds(v, false).find(|&k| m.w(k) == adj.to_lowercase())?;
            (a, p, Some(adj))
        }
    };
    let start = m.bounds(at.min(v), false).start;
    let first = m.sent_of(start)?.saturating_sub(1);
    let (mut k, thing) = (0..start)
        .rev()
        .take_while(|&k| m.sent_of(k).is_some_and(|s| s >= first))
        .filter(|&k| {
            !m.has_f(
                k,
                PRON | SUBJ | STOP | FILL | GREET | AGREE | DATE | PREP | DONE | MONTH | NUMW,
            ) && m.verb(k).is_none()
                // A name or a company ("Холодмаш привезёт") is not the thing.
                && (!m.capital(k) || m.bounds(k, true).start == k)
        })
        .find_map(|k| crate::morph::agreeing_thing(m.w(k), with).map(|t| (k, t)))?;
    // The noun's own genitive after it is part of its name: "план эвакуации".
    let mut thing = thing.to_lowercase();
    while k + 1 < start
        && m.clause_of(k + 1) == m.clause_of(k)
        && !m.has_f(k + 1, DATE | STOP | PREP | PRON)
        && crate::morph::genitive_noun_or_adjective(m.w(k + 1))
    {
        k += 1;
        thing.push(' ');
        thing.push_str(m.w(k));
    }
    let rest: Vec<&str> = words[1..]
        .iter()
        .copied()
        .filter(|w| crate::morph::pronoun_agreement(&w.to_lowercase()).is_none())
        .collect();
    // "тэн сгорел, завтра его поменяю" read as "поменять — тэн сгорел" names it already.
    if thing
        .split_whitespace()
        .any(|t| rest.iter().any(|w| w.to_lowercase() == t))
    {
        return None;
    }
    let mut out = verb.to_string();
    match adjective {
        Some(adj) => {
            out.push(' ');
            out.push_str(adj);
            out.push(' ');
            out.push_str(&thing);
            for w in rest.iter().skip(1) {
                out.push(' ');
                out.push_str(w);
            }
        }
        None => {
            out.push(' ');
            out.push_str(&thing);
            for w in &rest {
                out.push(' ');
                out.push_str(w);
            }
        }
    }
    Some(out)
}

/// The clause range to take the content from, widened to the sentence when the clause names
/// nothing but the verb.
pub(super) fn promise_content(
    cx: &Ctx,
    trigger: usize,
    verb: Option<(usize, &str)>,
    take: bool,
    skip: &[usize],
) -> (String, bool) {
    let m = cx.m;
    let span = cx.due_span();
    let mut skip: Vec<usize> = skip.to_vec();
    skip.push(trigger);
    // "возьму на себя": "на себя" is part of the verb.
    if m.w(trigger + 1) == "на" && m.w(trigger + 2) == "себя" {
        skip.extend([trigger + 1, trigger + 2]);
    }
    let verb = verb.map(|(k, inf)| {
        let inf = if inf.is_empty() { m.w(k) } else { inf };
        (k, inf)
    });
    let mut clause = m.bounds(trigger, false);
    // "съездим на Пошехонское, замерим Соколовым участок": a trip's purpose told by the next
    // clause's promise is the work.
    if verb.is_some_and(|(_, inf)| word_list!("ru/errand_verbs.txt").contains(&inf))
        && clause.end < m.n()
        && m.sent_of(clause.end) == m.sent_of(trigger)
        && (m.verb(clause.end)
            .is_some_and(|v| matches!(v.form, Form::Fut1 | Form::Fut1Pl))
            // "после Филармонии заеду, струны доделаю": the object may come before the verb,
            // when the trip has no time of its own ("завтра к 8 подъеду, памятник загружу" says
            // when one comes, then what one does).
            || !(clause.start..clause.end).any(|k| m.has_f(k, DATE))
                && m.bounds(clause.end, false).any(|k| {
                    m.verb(k)
                        .is_some_and(|v| matches!(v.form, Form::Fut1 | Form::Fut1Pl))
                }))
    {
        clause.end = m.bounds(clause.end, false).end;
    }
    // "ща допью кофе и посмотрю": what comes before "и" is a break before the work, not the
    // object of the promise; neither is the clause before it.
    let conjunct = conjunction_before(m, trigger)
        .filter(|&k| k > clause.start && (clause.start..k).any(|j| nonwork_at(m, j)));
    skip.extend(conjunct.map_or(0..0, |k| k..trigger));
    let (text, obj) = content(
        m,
        conjunct.unwrap_or(clause.start)..clause.end,
        verb,
        &skip,
        span,
    );
    let (text, obj) = if obj || conjunct.is_some() {
        (text, obj)
    } else {
        // Object in a neighbouring clause of the same sentence ("отчёт по продажам — сделаю").
        let sentence = m.bounds(trigger, true);
        // "отчёт по продажам готов, скину его": the thing, without what is said of it.
        let said_of = (sentence.start..clause.start)
            .find(|&k| {
                k > sentence.start
                    && k < clause.start
                    && matches!(m.w(k), "готов" | "готова" | "готово" | "готовы")
            })
            .unwrap_or(clause.start);
        let before = sentence.start..said_of;
        // "Хорошая идея, добавим": a remark on what was said names no thing.
        let remark = super::remark_in(m, before.clone());
        let (t2, o2) = content(m, before, verb, &skip, span);
        // "не помню, ща гляну": a clause with a verb of its own says something else.
        if o2
            && !remark
            && !(sentence.start..clause.start).any(|k| {
                m.verb(k).is_some()
                    || k > 0 && m.w(k - 1) == "не" && crate::morph::finite_verb(m.w(k))
            })
        {
            (t2, o2)
        } else {
            (text, obj)
        }
    };
    if take && obj && verb.is_none_or(|(_, inf)| inf.starts_with("взя")) {
        // "беру на себя закупку стульев" → "взять на себя закупку стульев": the promise reads
        // as what is to be done, an infinitive, like every other.
        let object = verb
            .and_then(|(_, inf)| text.strip_prefix(inf))
            .map(|s| s.trim().to_string())
            .unwrap_or(text);
        let first = object.split_whitespace().next().unwrap_or("");
        let is_infinitive = ["ть", "ться", "ти", "чь"]
            .iter()
            .any(|e| first.ends_with(e));
        let cyrillic = first
            .chars()
            .next()
            .is_some_and(|c| matches!(c, 'а'..='я' | 'А'..='Я' | 'ё' | 'Ё'));
        if cyrillic && !is_infinitive {
            return (format!("взять на себя {object}"), obj);
        }
        return (object, obj);
    }
    (text, obj)
}

/// The topic a Russian message opens with before a dash or a colon: "По Сузуки 140 Мамедова —
/// ТО сделаю в пятницу" → "по Сузуки 140 Мамедова"; "насчёт Ромашки: счёт выставлю завтра".
/// It names what the promise after it is about.
pub(super) fn topic(text: &str) -> Option<&str> {
    let lower_start: String = text.chars().take(8).collect::<String>().to_lowercase();
    let opens = ["по ", "насчёт ", "насчет "]
        .iter()
        .any(|p| lower_start.starts_with(p));
    if !opens {
        return None;
    }
    let head = text.get(..text.char_indices().nth(80).map_or(text.len(), |(i, _)| i))?;
    let cut = [" — ", " – ", " - ", ":"]
        .iter()
        .filter_map(|sep| head.find(sep))
        .min()?;
    let topic = text[..cut].trim();
    let words = topic.split_whitespace().count();
    let second = topic.split_whitespace().nth(1).unwrap_or("").to_lowercase();
    if word_list!("ru/not_topic.txt").contains(&second.as_str()) {
        return None;
    }
    // "по поводу", "по срокам": a topic of two words at least, short, with no sentence in it.
    if !(2..=6).contains(&words) || topic.contains([',', '.', '?', '!']) {
        return None;
    }
    let rest = Msg::new(topic);
    if (0..rest.n()).any(|k| rest.verb(k).is_some() || rest.has_f(k, DATE)) {
        return None;
    }
    Some(topic)
}

/// Findings of a message with a topic: a promise or an ask whose words do not name the topic
/// gets it ("сделать ТО по Сузуки 140 Мамедова").
pub(super) fn with_topic(found: Vec<Finding>, topic: &str) -> Vec<Finding> {
    let stems = significant_stems(topic);
    if stems.is_empty() {
        return found;
    }
    // The topic opens with "по"/"насчёт" (see [`topic`]): a preposition, always lower case
    // inside the promise ([`lower_common_opening`] keeps capitals the dictionary cannot place).
    let lowered = match topic.char_indices().nth(1) {
        Some((i, _)) => format!("{}{}", topic[..i].to_lowercase(), &topic[i..]),
        None => topic.to_string(),
    };
    let add = |content: String| {
        let own = significant_stems(&content);
        // A bare verb ("дозвониться") takes its thing from the whole sentence later on.
        if own.is_empty() || stems.iter().any(|s| own.contains(s)) {
            content
        } else {
            format!("{} {}", content.trim_end(), lowered)
        }
    };
    found
        .into_iter()
        .map(|f| match f {
            Finding::Made { content, due } => Finding::Made {
                content: add(content),
                due,
            },
            Finding::Request {
                addressee,
                content,
                due,
            } => Finding::Request {
                addressee,
                content: add(content),
                due,
            },
            other => other,
        })
        .collect()
}
