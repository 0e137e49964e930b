//! Done: a commitment is finished ("готово", "отправил", "shipped").

use super::*;

pub(super) fn done(m: &Msg) -> Option<usize> {
    if m.has_seq(&["all", "set"]) {
        return m.seq(&["all", "set"]);
    }
    for i in 0..m.n() {
        let t = &m.toks[i];
        // "got the green samples from the port": the errand is run.
        let got = t.norm == "got"
            && (m.clause_start(i) || matches!(m.w(i.wrapping_sub(1)), "i" | "we" | "finally"))
            && matches!(
                m.w(i + 1),
                "the" | "all" | "both" | "our" | "those" | "these"
            );
        // "заказ ФлораЛайн ушёл", "рассылка ушла по всей базе": a thing gone off is sent (a
        // person gone is not).
        let sent_off = word_list!("ru/sent_off.txt").contains(&t.norm.as_str())
            && (0..i)
                .rev()
                .take_while(|&k| m.clause_of(k) == m.clause_of(i))
                .any(|k| crate::morph::inanimate_noun(m.w(k)))
            && !(0..i).any(|k| m.clause_of(k) == m.clause_of(i) && m.has_f(k, PRON));
        // "ДВ-Строй всё.", "Светлая всё, без боя": a thing's name, then "всё" ending the
        // clause, is that job finished ("на сегодня всё", "пока всё" close the talk, not work).
        let all_of = matches!(t.norm.as_str(), "всё" | "все")
            && i > 0
            && m.clause_of(i - 1) == m.clause_of(i)
            && (i + 1 >= m.n() || m.clause_start(i + 1))
            && !m.has_f(
                i - 1,
                STOP | PRON | DATE | FILL | AGREE | GREET | NUMW | PREP,
            )
            && !is_number(m.w(i - 1))
            && (m.capital(i - 1) || crate::morph::inanimate_noun(m.w(i - 1)))
            && !(0..i).any(|k| m.clause_of(k) == m.clause_of(i) && m.toks[k].verb.is_some());
        let past = all_of
            || t.verb
                .is_some_and(|v| v.form == Form::Past && !v.take && !v.aux)
            || got
            || sent_off
            || en_work_past(m, i);
        // "Принял.", "принял, по 307-й": a yes standing as a clause of its own, not work done
        // ("фермы 214 приняла" is).
        let a_yes =
            t.f & AGREE != 0 && m.clause_start(i) && (i + 1 >= m.n() || m.clause_start(i + 1));
        if !(past || t.f & DONE != 0) || a_yes || m.negated(i) || m.is_q(i) {
            continue;
        }
        let (prev, next) = (if i > 0 { m.w(i - 1) } else { "" }, m.w(i + 1));
        // "Well done team", "nicely done": praise for others' work, no report.
        if t.norm == "done" && word_list!("en/praise_done.txt").contains(&prev) {
            continue;
        }
        // "готов помочь", "готов к запуску": ready to, not finished.
        if t.norm.starts_with("готов") && (is_infinitive(next) || matches!(next, "к" | "ко"))
        {
            continue;
        }
        // "will be done", "to be sent", "get it done by": a future, not a report.
        if matches!(
            prev,
            "будет"
                | "будут"
                | "буду"
                | "будем"
                | "be"
                | "will"
                | "to"
                | "gonna"
                | "should"
                | "must"
                | "can"
                | "get"
                | "i'll"
        ) {
            continue;
        }
        // "I should have booked it", "could've sent it": what was not done.
        if matches!(prev, "have" | "'ve" | "of")
            && matches!(
                m.w(i.wrapping_sub(2)),
                "should" | "could" | "would" | "must" | "might"
            )
            || matches!(prev, "should've" | "could've" | "would've" | "must've")
        {
            continue;
        }
        // "I can't get the Mercury sheet done by Thurs", "will have it all done": the work
        // to have done, said with a modal or a negation before it.
        if let Some(k) = (i.saturating_sub(6)..i)
            .rev()
            .take_while(|&k| k + 1 == i || !m.clause_start(k + 1))
            .find(|&k| matches!(m.w(k), "get" | "have" | "getting"))
            && (m.negated(k) || k > 0 && word_list!("en/modal.txt").contains(&m.w(k - 1)))
        {
            continue;
        }
        if t.norm == "pushed" && matches!(next, "to" | "back") {
            continue;
        }

        if matches!(t.norm.as_str(), "live" | "ready")
            && !matches!(prev, "is" | "are" | "went" | "now")
        {
            continue;
        }
        return Some(i);
    }
    None
}

/// "reviewed the contract", "chased Tesco", "I filed it": a regular past of a verb of work
/// opening its clause (not "the attached file", "is delayed").
pub(super) fn en_work_past(m: &Msg, i: usize) -> bool {
    let w = m.w(i);
    // "Rang all 6, they're happy", "Spoke to Uniphar": an irregular past opening its clause
    // (`lexicon/en/irregular.txt`).
    // "did you tell her yes" asks: not an auxiliary, not before a subject.
    if m.clause_start(i)
        && crate::extract::report::en_irregular_past_unlike_base(w)
        && !matches!(w, "did" | "had")
        && !word_list!("en/persons.txt").contains(&m.w(i + 1))
    {
        return true;
    }
    let Some(stemless) = w.strip_suffix("ed") else {
        return false;
    };
    let opens = m.clause_start(i)
        || matches!(
            m.w(i.wrapping_sub(1)),
            "i" | "we"
                | "just"
                | "already"
                | "have"
                | "has"
                | "i've"
                | "we've"
                | "finally"
                | "also"
        );
    let thing_done = !opens && object_then_participle(m, i);
    if !(opens || thing_done) || w.len() < 5 {
        return false;
    }
    let mut bases = vec![stemless.to_string(), format!("{stemless}e")];
    if let Some(y) = stemless.strip_suffix('i') {
        bases.push(format!("{y}y"));
    }
    let chars: Vec<char> = stemless.chars().collect();
    if chars.len() > 2 && chars[chars.len() - 1] == chars[chars.len() - 2] {
        bases.push(chars[..chars.len() - 1].iter().collect());
    }
    let classes = word_classes();
    let work = |b: &str| classes.get(b).is_some_and(|f| f & EN_VERB != 0);
    let craft = |b: &str| {
        work(b)
            || matches!(
                b,
                "return"
                    | "calibrate"
                    | "service"
                    | "restock"
                    | "refund"
                    | "swap"
                    | "measure"
                    | "mount"
                    | "tune"
                    | "polish"
                    | "sand"
                    | "glaze"
                    | "laminate"
                    | "bind"
                    | "trim"
                    | "weld"
                    | "seal"
                    | "wire"
                    | "tile"
                    | "scan"
                    | "clean"
                    | "fit"
                    | "bake"
                    | "stitch"
                    | "tidy"
            )
    };
    // After the thing it was done to ("drawings updated", "samples dropped at the client") a
    // participle reports work whatever the verb, unless it says the work did not happen.
    let not_work = matches!(
        w,
        "delayed"
            | "postponed"
            | "pushed"
            | "moved"
            | "rescheduled"
            | "scheduled"
            | "planned"
            | "needed"
            | "supposed"
            | "used"
            | "tired"
            | "interested"
            | "excited"
            | "confused"
            | "related"
            | "based"
            | "blocked"
            | "cancelled"
            | "canceled"
    ) || (w == "dropped" && !thing_done);
    !not_work
        && bases.iter().any(|b| {
            work(b)
                || thing_done
                    && (craft(b) || b.strip_prefix("re").is_some_and(craft) || b.len() >= 4)
        })
}

/// "furnace recalibrated, temps look good", "lenses returned": a thing (one or two words, not
/// a person) and the participle of the work done on it, closing its clause.
pub(super) fn object_then_participle(m: &Msg, i: usize) -> bool {
    // "... updated and on the server", "... dropped at hatch & co": a preposition or "and" may
    // follow; "is roasted", "was sent" may sit between the thing and the participle.
    let closes = i + 1 >= m.n()
        || m.clause_start(i + 1)
        || matches!(
            m.w(i + 1),
            "and" | "at" | "to" | "on" | "in" | "with" | "off" | "for" | "from" | "into" | "onto"
        );
    let be = |k: usize| {
        matches!(
            m.w(k),
            "is" | "are" | "was" | "were" | "been" | "has" | "have"
        )
    };
    let mut end = i;
    while end > 0 && be(end - 1) {
        end -= 1;
    }
    if !(1..=4).contains(&end) || m.clause_start(i) || !closes {
        return false;
    }
    (0..end).all(|k| {
        let w = m.w(k);
        (k == 0 || !m.clause_start(k))
            && (w == "the" || !m.has_f(k, STOP | PRON | SUBJ | DATE | AGREE | GREET | NEG))
            && !matches!(
                w,
                "client"
                    | "customer"
                    | "supplier"
                    | "vendor"
                    | "boss"
                    | "manager"
                    | "guy"
                    | "courier"
                    | "driver"
                    | "landlord"
                    | "someone"
                    | "somebody"
                    | "everyone"
                    | "team"
                    | "he"
                    | "she"
                    | "they"
                    | "mum"
                    | "mom"
                    | "dad"
            )
    })
}

/// A completion report in a sentence of its own, beside a promise in another sentence: the
/// report's significant stems.
pub(super) fn done_elsewhere(m: &Msg) -> Option<Vec<String>> {
    let promise = ru_promise(m)
        .map(|p| p.0)
        .or_else(|| en_promise(m).map(|p| p.0))?;
    let psent = m.toks.get(promise)?.sent;
    let sentences = m.question.len();
    for s in (0..sentences).filter(|&s| s != psent && !m.question.get(s).copied().unwrap_or(true)) {
        let idx: Vec<usize> = (0..m.n()).filter(|&k| m.sent_of(k) == Some(s)).collect();
        let (&a, &b) = (idx.first()?, idx.last()?);
        let text = m.text.get(m.toks[a].span.start..m.toks[b].span.end)?;
        let sub = m.slice(m.toks[a].span.start..m.toks[b].span.end);
        debug_assert_eq!(sub.text, text);
        if ru_promise(&sub).is_none() && en_promise(&sub).is_none() && done(&sub).is_some() {
            return Some(stems_of(&sub));
        }
    }
    None
}
