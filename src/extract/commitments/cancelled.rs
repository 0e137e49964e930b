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
                    (m.clause_start(i)
                        || i > 0
                            && m.clause_start(i - 1)
                            && m.capital(i - 1)
                            && !m.has_f(i - 1, STOP | PRON | DATE | EN_VERB))
                        && word_list!("en/skip_objects.txt").contains(&next)
                        && !m.has_f(i + 2, NONWORK)
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
