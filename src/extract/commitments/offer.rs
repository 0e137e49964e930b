//! Offer: the speaker offers to do something under a condition; a commitment once accepted.

use super::*;

pub(super) fn offer(cx: &Ctx) -> Option<Finding> {
    let m = cx.m;
    for i in 0..m.n() {
        let (w, a) = (m.w(i), m.w(i + 1));
        let verb_at = match w {
            w if word_list!("ru/can_first.txt").contains(&w) && !m.negated(i) && !m.is_q(i) => {
                (i + 1..(i + 4).min(m.n()))
                    .find(|&k| is_infinitive(m.w(k)))
                    // "если никто не возьмёт, могу я": the offer names no verb.
                    .or_else(|| (m.w(i + 1) == "я" || i + 1 >= m.n()).then_some(i))
            }
            w if word_list!("en/can.txt").contains(&w)
                && i > 0
                && m.w(i - 1) == "i"
                && !m.is_q(i)
                && a != "you" =>
            {
                Some(i + 1)
            }
            // "happy to take the Friday shift".
            _ if phrase_set!("en/offer_phrases.txt").contains(&[w, a][..]) => Some(i + 2),
            _ => None,
        };
        let Some(v) = verb_at else { continue };
        if word_list!("en/can.txt").contains(&w)
            && i >= 2
            && word_list!("en/purpose.txt").contains(&m.w(i - 2))
        {
            continue;
        }
        let conditional = (0..m.n()).any(|k| word_set!("offer_condition.txt").contains(m.w(k)))
            || word_list!("en/offer_tentative.txt").contains(&w);
        let verb = m.toks.get(v).and_then(|t| t.verb).map(|x| (v, x.inf));
        let verb = verb.or_else(|| is_infinitive(m.w(v)).then_some((v, "")));
        let verb = verb.map(|(k, inf)| (k, if inf.is_empty() { m.w(k) } else { inf }));
        let mut skip = vec![i];
        if i > 0 && m.has_f(i - 1, SUBJ) {
            skip.push(i - 1);
        }
        let clause = m.bounds(v.min(m.n().saturating_sub(1)), false);
        let (text, _) = content(
            m,
            clause.start.max(i)..clause.end,
            verb,
            &skip,
            cx.due_span(),
        );
        let due = cx.due();
        // "anyone up for five-a-side Thursday night? I can drive": the date is the other
        // sentence's, and the "can" is able, not promised for then.
        let sentence = m.bounds(i, true);
        // "I can drive the 7.5 tonne, passed my C licence in July": nor is a date of another
        // clause of the same sentence.
        let dated_here = w != "can"
            || cx
                .due_span()
                .is_none_or(|s| m.holds(sentence.clone(), s) && m.holds(clause.clone(), s));
        // "I can send it now", "I can do dovetails now": able, not promised for today.
        if !conditional && cx.has_date() && dated_here && (w != "can" || cx.deadline_said()) {
            return Some(Finding::Made { content: text, due });
        }
        return Some(Finding::Offer { content: text, due });
    }
    None
}

/// "I can weld the bent leg if someone drops it round to the workshop" answered by "ill drop
/// it over": the answer takes on the condition's part (its verb is the condition's), not the
/// offer. The part as the answer's verb and the condition's words after its own ("drop it
/// round to the workshop").
pub fn takes_condition(offer: &str, own: &str) -> Option<String> {
    let verb = own.split_whitespace().next()?.to_lowercase();
    // "drops" ↔ "drop", "завезёт" ↔ "завезу": one verb when the first four letters agree.
    let same = |w: &str| {
        w == verb
            || w.chars().count() >= 4
                && verb.chars().count() >= 4
                && w.chars().take(4).eq(verb.chars().take(4))
    };
    let clause = offer
        .split(['.', ',', ';', '!', '?', '\n', '—'])
        .find_map(|c| {
            let words: Vec<&str> = c.split_whitespace().collect();
            let low = |k: usize| {
                words[k]
                    .trim_matches(|ch: char| !ch.is_alphanumeric() && ch != '-')
                    .to_lowercase()
            };
            (0..words.len().saturating_sub(2)).find_map(|k| {
                let cond = low(k);
                ((word_list!("en/cond.txt").contains(&cond.as_str())
                    || word_list!("ru/cond.txt").contains(&cond.as_str()))
                    && word_list!("anyone.txt").contains(&low(k + 1).as_str())
                    && same(&low(k + 2)))
                .then(|| words[k + 3..].join(" "))
            })
        })?;
    let verb = own.split_whitespace().next()?;
    Some(format!("{verb} {clause}").trim().to_string())
}
