//! Cancelled: a commitment is called off.

use super::*;

pub(super) fn is_cancelled(m: &Msg) -> Option<usize> {
    // An order opening its clause, or after the one told ("Jojo skip the cycle count Fri").
    let ordered = |i: usize| {
        m.clause_start(i)
            || i > 0
                && m.clause_start(i - 1)
                && m.capital(i - 1)
                && !m.has_f(i - 1, STOP | PRON | DATE | EN_VERB)
    };
    for i in 0..m.n() {
        let w = m.w(i);
        // "release Scrap Kings payment": a cancel word written with a capital inside a
        // sentence is a name.
        let named = m.capital(i) && i > 0 && m.sent_of(i - 1) == m.sent_of(i);
        if m.has_f(i, CANCEL) && !m.negated(i) && !named {
            return Some(i);
        }
        let next = m.w(i + 1);
        // "не нужно", "never mind", "scratch that", "call off": phrases that call work off
        // (lexicon/*/cancel_phrases.txt); "не нужно было" regrets instead.
        let phrase = phrase_set!("ru/cancel_phrases.txt").contains(&[w, next][..])
            || phrase_set!("en/cancel_phrases.txt").contains(&[w, next][..]);
        let hit = phrase
            && !phrase_set!("ru/cancel_phrases_not.txt").contains(&[w, next, m.w(i + 2)][..])
            || match w {
                // "рилс делать не буду", "не буду заводить карточки": the speaker drops it.
                "не" => {
                    word_list!("ru/will_be.txt").contains(&next)
                        && (is_infinitive(m.w(i + 2)) || i > 0 && is_infinitive(m.w(i - 1)))
                        && !m.is_q(i)
                        // "не буду спорить, сделаю": giving way, then promising.
                        && ru_promise(m).is_none()
                }
                "можно" => next == "не" && m.w(i + 2).starts_with("дела"),
                // "drop the trailer back at the yard", "drop it off", "I'll fix the hitch and
                // drop the empty bins up to the top block": delivering, not dropping.
                w if word_list!("en/drop_verbs.txt").contains(&w) => {
                    let promised = says_i_will(m, 0..i);
                    word_list!("en/drop_objects.txt").contains(&next)
                        && !(w != "forget"
                            && (i + 1..m.bounds(i, false).end.min(i + 9))
                                .any(|k| word_list!("en/delivery.txt").contains(&m.w(k))))
                        && !(i > 0 && word_list!("en/will_before_verb.txt").contains(&m.w(i - 1)))
                        && !(i > 0 && m.w(i - 1) == "and" && promised)
                        // "after we drop the Sewickley load": someone delivering, told as a time.
                        && !(i > 0 && m.has_f(i - 1, PRON | SUBJ))
                }
                // "Ryan, skip the taffy video": an order to leave it, opening its clause ("the
                // skip permit", "skip booked for fri" name a bin).
                // "Jojo skip the cycle count Fri": after the one told, too.
                "skip" => {
                    ordered(i)
                        && word_list!("en/skip_objects.txt").contains(&next)
                        && !m.has_f(i + 2, NONWORK)
                }
                // "leave the drums butt, the waste oil fella's coming Weds": an order to let it
                // be, with nowhere to leave it ("leave the keys in the van" asks; "leave it with
                // me" takes it on).
                "leave" => {
                    ordered(i)
                        && word_list!("en/leave_objects.txt").contains(&next)
                        && !m
                            .bounds(i, false)
                            .any(|k| k > i + 1 && m.has_f(k, PREP | DATE))
                        && !m.is_q(i)
                }
                // "…he'll pick the schedules himself so I'm not doing them": the speaker drops it.
                "not" => {
                    next == "doing"
                        && i > 0
                        && word_list!("en/am_doing.txt").contains(&m.w(i - 1))
                        && word_list!("en/doing_objects.txt").contains(&m.w(i + 2))
                }
                _ => false,
            };
        if hit {
            return Some(i);
        }
    }
    None
}

/// "диски не повезу, клиент их себе забрал", "калибровку в пт не делаем": a first-person verb
/// of the present or future under "не", told without a date after it, calls the work off. Only
/// a reply says which promise (`ingest`); a move or a doubt ("не успею", "не смогу") is not
/// this (`lexicon/ru/not_decline.txt`).
pub fn declines(text: &str) -> bool {
    // Most replies have no "не": spare them a second analysis.
    if !text.to_lowercase().contains("не") {
        return false;
    }
    let m = Msg::new(text);
    declined_at(&m).is_some()
}

/// "к Зайцевым не поеду, хозяин сам карнизы заберёт": told to the group, not in reply, a
/// decline says which promise by the words of its own clause, and only where someone else
/// is said to do the thing themselves (`lexicon/ru/themselves.txt`); "без них акты не
/// закрою", "до НГ не потяну" are no call-off. The words of that clause.
pub fn declined_clause(text: &str) -> Option<String> {
    let lower = text.to_lowercase();
    if !lower.contains("не") {
        return None;
    }
    let m = Msg::new(text);
    let i = declined_at(&m)?;
    let themselves = (0..m.n()).any(|k| {
        m.clause_of(k) != m.clause_of(i) && word_list!("ru/themselves.txt").contains(&m.w(k))
    });
    if !themselves {
        return None;
    }
    let b = m.byte_span(m.bounds(i, false))?;
    m.text.get(b).map(str::to_string)
}

/// Where "не" stands before a first-person verb of the present or future that calls the work
/// off ([`declines`]).
fn declined_at(m: &Msg) -> Option<usize> {
    (0..m.n()).find(|&i| {
        let w = m.w(i + 1);
        m.w(i) == "не"
            && !m.is_q(i)
            && crate::morph::first_person_verb(w)
            && !crate::morph::past_verb(w)
            && crate::morph::verb_lemma(w)
                .is_some_and(|l| !word_list!("ru/not_decline.txt").contains(&l.as_str()))
            // A date after it moves the work ("до пт не сделаю, сделаю в пн"); one in a later
            // clause where someone else acts does not ("за покрышками не поеду,
            // шиномонтажники сами вечером завезут").
            && !(i + 2..m.n()).any(|k| {
                m.sent_of(k) == m.sent_of(i)
                    && m.has_f(k, DATE)
                    && (m.clause_of(k) == m.clause_of(i)
                        || m.bounds(k, false).any(|j| crate::morph::first_person_verb(m.w(j))))
            })
    })
}

/// "not coming in Sat after all", "not taking the Hilux in Wednesday after all": the speaker
/// calls off a plan of their own (`lexicon/en/after_all.txt`); which promise, the words say
/// (`ingest`).
pub fn calls_off_own(text: &str) -> bool {
    let lower = text.to_lowercase();
    if !lower.contains("after all") {
        return false;
    }
    let m = Msg::new(text);
    (0..m.n()).any(|i| {
        m.w(i) == "after"
            && m.w(i + 1) == "all"
            && !m.is_q(i)
            && m.bounds(i, true)
                .any(|k| m.has_f(k, NEG) || word_list!("en/after_all.txt").contains(&m.w(k)))
    })
}
