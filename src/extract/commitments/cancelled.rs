//! Cancelled: a commitment is called off.

use super::*;

pub(super) fn is_cancelled(m: &Msg) -> Option<usize> {
    for i in 0..m.n() {
        let w = m.w(i);
        // "release Scrap Kings payment": a cancel word written with a capital inside a
        // sentence is a name.
        let named = m.capital(i) && i > 0 && m.sent_of(i - 1) == m.sent_of(i);
        if m.has_f(i, CANCEL) && !m.negated(i) && !named {
            return Some(i);
        }
        let next = m.w(i + 1);
        let hit = match w {
            "не" => {
                matches!(
                    next,
                    "нужно"
                        | "надо"
                        | "нужен"
                        | "нужна"
                        | "нужны"
                        | "актуально"
                        | "актуальна"
                        | "актуален"
                        | "делай"
                        | "делайте"
                        | "требуется"
                ) && !(next == "нужно" && m.w(i + 2) == "было")
                    // "рилс делать не буду", "не буду заводить карточки": the speaker drops it.
                    || matches!(next, "буду" | "будем")
                        && (is_infinitive(m.w(i + 2))
                            || i > 0 && is_infinitive(m.w(i - 1)))
                        && !m.is_q(i)
                        // "не буду спорить, сделаю": giving way, then promising.
                        && ru_promise(m).is_none()
            }
            "можно" => next == "не" && m.w(i + 2).starts_with("дела"),
            // "drop the trailer back at the yard", "drop it off", "I'll fix the hitch and drop
            // the empty bins up to the top block": delivering, not dropping.
            "drop" | "dropping" | "forget" => {
                let promised = says_i_will(m, 0..i);
                matches!(
                    next,
                    "the" | "it" | "that" | "this" | "about" | "those" | "these" | "them"
                ) && !(w != "forget"
                    && (i + 1..m.bounds(i, false).end.min(i + 9))
                        .any(|k| word_list!("en/delivery.txt").contains(&m.w(k))))
                    && !(i > 0
                        && matches!(
                            m.w(i - 1),
                            "i'll" | "i’ll" | "ill" | "we'll" | "will" | "gonna" | "can"
                        ))
                    && !(i > 0 && m.w(i - 1) == "and" && promised)
                    // "after we drop the Sewickley load": someone delivering, told as a time.
                    && !(i > 0 && m.has_f(i - 1, PRON | SUBJ))
            }
            "never" => next == "mind",
            // "scratch that", "scratch the price list": called off by whoever asked.
            "scratch" => matches!(
                next,
                "that" | "the" | "it" | "this" | "those" | "these" | "my" | "our"
            ),
            // "Ryan, skip the taffy video": an order to leave it, opening its clause ("the skip
            // permit", "skip booked for fri" name a bin).
            // "Jojo skip the cycle count Fri": after the one told, too.
            "skip" => {
                (m.clause_start(i)
                    || i > 0
                        && m.clause_start(i - 1)
                        && m.capital(i - 1)
                        && !m.has_f(i - 1, STOP | PRON | DATE | EN_VERB))
                    && matches!(next, "that" | "the" | "it" | "this" | "those" | "these")
                    && !m.has_f(i + 2, NONWORK)
            }
            "no" => matches!(next, "longer" | "need"),
            // "…he'll pick the schedules himself so I'm not doing them": the speaker drops it.
            "not" => {
                next == "needed"
                    || next == "doing"
                        && i > 0
                        && matches!(m.w(i - 1), "i'm" | "im" | "i’m" | "am" | "we're" | "we’re")
                        && matches!(
                            m.w(i + 2),
                            "it" | "them" | "that" | "this" | "those" | "these"
                        )
            }
            "don't" | "dont" => next == "bother",
            "call" | "called" | "calling" => next == "off",
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
    (0..m.n()).any(|i| {
        let w = m.w(i + 1);
        m.w(i) == "не"
            && !m.is_q(i)
            && crate::morph::first_person_verb(w)
            && !crate::morph::past_verb(w)
            && crate::morph::verb_lemma(w)
                .is_some_and(|l| !word_list!("ru/not_decline.txt").contains(&l.as_str()))
            && !(i + 2..m.n()).any(|k| m.sent_of(k) == m.sent_of(i) && m.has_f(k, DATE))
    })
}
