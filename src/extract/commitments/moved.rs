//! Moved: a commitment shifts to a new date, or its owner asks for more time.

use super::*;

/// "ещё пару дней", "two more days", "ещё неделю": the new deadline is that far from now.
pub(super) fn more_time(m: &Msg, now: DateTime<Tz>) -> Option<Due> {
    for i in 0..m.n() {
        let w = m.w(i);
        let days_unit = |u: &str| -> Option<i64> {
            match u {
                "день" | "дня" | "дней" | "денек" | "денька" | "day" | "days" => {
                    Some(1)
                }
                "неделю" | "недели" | "недель" | "недельку" | "week" | "weeks" => {
                    Some(7)
                }
                _ => None,
            }
        };
        let count = |c: &str| -> Option<i64> {
            match c {
                "пару" | "пара" | "couple" | "два" | "две" | "two" | "2" => Some(2),
                "три" | "three" | "3" | "few" | "несколько" => Some(3),
                "четыре" | "four" | "4" => Some(4),
                "пять" | "five" | "5" => Some(5),
                "один" | "одну" | "one" | "a" | "another" | "1" | "еще" | "ещё" => {
                    Some(1)
                }
                _ => None,
            }
        };
        if let Some(unit) = days_unit(w) {
            // Look back up to three words for the count, and demand "ещё"/"more" near by.
            let back = i.saturating_sub(3)..i;
            let more = back
                .clone()
                .any(|k| matches!(m.w(k), "еще" | "ещё" | "more" | "another"))
                || matches!(m.w(i + 1), "more" | "еще" | "ещё");
            if !more {
                continue;
            }
            let n = back
                .rev()
                .find_map(|k| {
                    let c = m.w(k);
                    if matches!(c, "еще" | "ещё" | "more") {
                        None
                    } else {
                        count(c)
                    }
                })
                // "ещё дня три": the count may follow the unit.
                .or_else(|| {
                    count(m.w(i + 1)).filter(|_| m.w(i + 1) != "еще" && m.w(i + 1) != "ещё")
                })
                .unwrap_or(1);
            let date = now.date_naive() + Duration::days(n * unit);
            return Some(Due { date, time: None });
        }
    }
    None
}

/// "не горит", "не к спеху", "no rush", "not urgent", "can wait" at `i`: the deadline is eased.
pub(super) fn relaxed(m: &Msg, i: usize) -> bool {
    let next = m.w(i + 1);
    match m.w(i) {
        "не" => m.has_f(i + 1, URGE) || next == "к" && m.w(i + 2) == "спеху",
        "no" | "not" | "isn't" | "nothing" => m.has_f(i + 1, URGE),
        "can" => next == "wait",
        _ => false,
    }
}

/// "в пятницу не могу, в четверг норм?", "Can't do Friday, I'm at the dentist. Thurs ok?": a date
/// said not to suit, and another after it. Where the new date's search starts: past the refused
/// date and the words that refuse it.
/// "jess forgot the receipts at home again, tomorrow for sure", "чеки дома забыл, завтра
/// точно": something went wrong (`lexicon/failed.txt`), then a last clause of a date alone, or
/// with a word of assurance (`lexicon/assure.txt`), gives the work a new day. Where that clause
/// starts.
fn failed_then_date(m: &Msg) -> Option<usize> {
    let last = m.n().checked_sub(1)?;
    let clause = m.bounds(last, false);
    if clause.start == 0 || m.is_q(last) {
        return None;
    }
    let assure = word_list!("assure.txt");
    let dated = clause.clone().any(|k| m.has_f(k, DATE));
    let only_date = clause
        .clone()
        .all(|k| m.has_f(k, DATE | PREP) || assure.contains(&m.w(k)));
    let failed = (0..clause.start).any(|k| word_list!("failed.txt").contains(&m.w(k)));
    (dated && only_date && failed).then_some(clause.start)
}

pub(super) fn other_date(m: &Msg) -> Option<usize> {
    let phrases = m.present(date_refusal_phrases());
    if phrases.is_empty() {
        return None;
    }
    for i in 0..m.n() {
        let Some(p) = phrases.iter().find(|p| m.seq_at(i, p)) else {
            continue;
        };
        let end = i + p.len();
        let clause = m.bounds(i, false);
        let near = |k: usize| clause.contains(&k) && m.has_f(k, DATE);
        // The refused date: just before the phrase or after it in its clause ("can't get the
        // Mercury sheet done by Thurs").
        let refused = (i.saturating_sub(3)..i)
            .chain(end..end + 8)
            .filter(|&k| near(k))
            .max()?;
        let from = refused.max(end - 1);
        // "…, their portal's down till the weekend. Monday ok?": the date offered is the last
        // one said; the search starts where its words do.
        let last = (from + 1..m.n())
            .rev()
            .find(|&k| m.has_f(k, DATE) && !m.has_f(k, PREP))?;
        let mut start = last;
        while start > from + 1 && !m.clause_start(start) && m.has_f(start - 1, DATE | PREP) {
            start -= 1;
        }
        return Some(start - 1);
    }
    None
}

pub(super) fn is_moved(m: &Msg) -> Option<usize> {
    if let Some(at) = other_date(m) {
        return Some(at);
    }
    if let Some(at) = failed_then_date(m) {
        return Some(at);
    }
    for i in 0..m.n() {
        let w = m.w(i);
        let next = m.w(i + 1);
        // "фатин, они нам отложили": put aside for someone, not put off.
        let kept_for = w.starts_with("отлож")
            && [i.checked_sub(1), Some(i + 1)]
                .into_iter()
                .flatten()
                .any(|k| {
                    matches!(
                        m.w(k),
                        "нам" | "мне" | "вам" | "тебе" | "ему" | "ей" | "им" | "для"
                    )
                })
            && !m.bounds(i, false).any(|k| m.has_f(k, DATE));
        if m.has_f(i, MOVE) && !(i > 0 && m.w(i - 1) == "не") && !kept_for {
            // "the delayed truck" describes a thing; "is delayed", "delayed to" moves it.
            let passive = i > 0
                && matches!(
                    m.w(i - 1),
                    "is" | "was" | "been" | "be" | "are" | "got" | "were"
                );
            let followed = matches!(
                next,
                "to" | "until" | "till" | "by" | "again" | "it" | "this" | "that" | "them" | ""
            );
            let adjective = w.ends_with("ed") && !passive && !followed && !m.clause_start(i);
            // "share the gate-in slips": after a determiner or a compound, a noun.
            let noun = i > 0
                && w.is_ascii()
                && (word_list!("en/noun_after.txt").contains(&m.w(i - 1))
                    || m.written(i - 1).contains('-')
                    || i > 1
                        && m.text.get(m.toks[i - 2].span.end..m.toks[i - 1].span.start)
                            == Some("-"));
            // "там перенести закладную под люстру, надо глянуть до пт": a thing to move, with
            // the date in a clause of another verb.
            let undated_job = is_infinitive(w) && {
                let own = m.bounds(i, false);
                !own.clone().any(|k| m.has_f(k, DATE | MONTH))
                    && (0..m.n()).any(|k| {
                        !own.contains(&k)
                            && m.has_f(k, DATE | MONTH)
                            && m.bounds(k, false)
                                .any(|j| j != i && (m.verb(j).is_some() || is_infinitive(m.w(j))))
                    })
            };
            // "I'll talk to Island Federal about bumping the line of credit": moving, as what
            // a talk is about, moves nothing.
            let topic = i > 0 && word_list!("en/about.txt").contains(&m.w(i - 1));
            if !adjective && !undated_job && !noun && !topic {
                return Some(i);
            }
        }
        let hit = match w {
            "не" if next.starts_with("успе") && next.len() > 6 => true,
            "нужно" | "нужен" | "нужна" | "нужны" | "надо" | "дайте" | "дай" =>
            {
                let more_words = |k: usize| {
                    m.has_f(k, NUMW) || matches!(m.w(k), "немного" | "времени" | "время" | "чуть")
                };
                matches!(next, "еще" | "ещё" | "раньше")
                    && (next == "раньше" || more_words(i + 2) || more_words(i + 3))
            }
            // "будет не в среду, а в пятницу"
            "не" if (i + 1..(i + 3).min(m.n())).any(|k| m.has_f(k, DATE)) => (i + 2..m.n())
                .any(|k| m.w(k) == "а" && (k + 1..(k + 4).min(m.n())).any(|j| m.has_f(j, DATE))),
            "раньше" | "пораньше" => i > 0 && m.has_f(i - 1, NEED),
            // "не горит, давай к среде", "no rush, let's do it by tuesday": a relaxed deadline.
            _ if relaxed(m, i) => m.any_f(DATE | MONTH),
            // "we need the quote sooner, by wednesday".
            "sooner" => (i.saturating_sub(5)..i).any(|k| m.has_f(k, NEED)) || m.any_f(DATE | MONTH),
            "больше" => next == "времени",
            // "будет в понедельник, а не в пятницу": a new date against the old one.
            // "нужны к 8-му, а не к 10-му": a day number counts as a date too.
            "а" => {
                next == "не"
                    && (i + 2..(i + 5).min(m.n()))
                        .any(|k| m.has_f(k, DATE) || is_number(m.w(k)) && m.w(k - 1) == "к")
            }
            // "rough cut is gonna be thursday sorry", "отчёт будет в четверг, извините": a new
            // date for the thing, with an apology marking it as a change.
            "be" | "будет" | "будут" => {
                let future = w != "be"
                    || i > 0 && matches!(m.w(i - 1), "gonna" | "will" | "ll" | "now")
                    || i > 1 && m.w(i - 2) == "going" && m.w(i - 1) == "to";
                let date_at = |k: usize| m.has_f(k, DATE | MONTH) && !m.has_f(k, PREP);
                let dated = date_at(i + 1)
                    || matches!(
                        next,
                        "в" | "во" | "on" | "к" | "ко" | "by" | "next" | "this"
                    ) && date_at(i + 2);
                let sorry = m.toks.iter().any(|t| {
                    matches!(
                        t.norm.as_str(),
                        "sorry" | "sry" | "apologies" | "извините" | "простите" | "сорри" | "сори"
                    )
                });
                // "contract is gonna be monday now": "now" marks the change as well.
                let changed =
                    sorry || (i + 1..m.n()).any(|k| matches!(m.w(k), "now" | "instead" | "теперь"));
                future && dated && changed && !(i > 0 && m.has_f(i - 1, NEG))
            }
            "push" | "pushed" | "move" | "moved" | "moves" | "moving" => {
                // "Island Federal moved me to Mon": the meeting with the speaker, moved.
                matches!(
                    next,
                    "it" | "this" | "that" | "them" | "back" | "to" | "the" | "me" | "us"
                ) && (next == "back"
                    // "pushed to the drive" is an upload; "pushed to monday" a move.
                    // "moved the Lees to 206" moves guests; "to the 24th" a date.
                    || m.has_seq(&["to"])
                        && (m.any_f(DATE | MONTH)
                            || m.toks.iter().any(|t| {
                                is_number(&t.norm) && t.norm.parse::<u32>().is_ok_and(|d| (1..=31).contains(&d))
                            })))
                    && !m.has_f(i + 1, NEG)
                    // "they want to move the charter to July": someone else's wish, news to
                    // the speaker's promise, not a move of it.
                    && !(m.bounds(i, false).start..i)
                        .any(|k| word_list!("en/report_others.txt").contains(&m.w(k)))
            }
            "need" | "needs" if matches!(next, "until" | "till") => true,
            // "quote not yet, pad guy ghosting me. shooting for Fri": the date aimed at now.
            _ if word_list!("en/aim.txt").contains(&w) => {
                next == "for" && (i + 2..(i + 5).min(m.n())).any(|k| m.has_f(k, DATE))
            }
            // "need another day on the artwork".
            "need" | "needs" if next == "another" && m.has_f(i + 2, NUMW) => true,
            // A progress report with the remainder dated: "called half, rest tomorrow",
            // "прозвонил, остальных добью завтра", "половину разнесла, остальное в понедельник".
            // "the rest will have to be next Wed": the date later in the remainder's clause, in
            // a future ("проверь остатки по свечам NGK к среде" and "the rest need a slot
            // tomorrow" ask for work).
            // "talked to Ray, he'll pay half this week and the rest end of month": the rest
            // of someone else's doing.
            _ if m.has_f(i, REST)
                && (m.bounds(i, false).start..i).any(|k| {
                    matches!(m.w(k), "he'll" | "she'll" | "they'll")
                        || matches!(m.w(k), "he" | "she" | "they") && m.w(k + 1) == "will"
                        || matches!(m.w(k), "он" | "она" | "они")
                            && crate::morph::may_be_future(m.w(k + 1))
                }) =>
            {
                false
            }
            _ if m.has_f(i, REST) => (i + 1..(i + 7).min(m.n())).any(|k| {
                m.has_f(k, DATE)
                    && (k < i + 4
                        || m.w(i).is_ascii()
                            && m.clause_of(k) == m.clause_of(i)
                            && (i + 1..k).any(|j| matches!(m.w(j), "will" | "be" | "gonna")))
            }),
            // "giving up. will try again tmrw at 7", "will try them again tmrw".
            "again" if (i.saturating_sub(2)..i).any(|k| m.w(k) == "try") => {
                (i + 1..(i + 4).min(m.n())).any(|k| m.has_f(k, DATE))
            }
            "need" | "needs" => {
                let look: Vec<&str> = (i + 1..(i + 5).min(m.n())).map(|k| m.w(k)).collect();
                look.contains(&"more")
                    && look
                        .iter()
                        .any(|w| matches!(*w, "days" | "day" | "time" | "week" | "hours"))
            }
            "more" => next == "time" && i > 0 && matches!(m.w(i - 1), "need" | "some" | "bit"),
            "won't" | "wont" => next == "make" && m.w(i + 2) == "it",
            "not" => next == "going" && m.w(i + 2) == "to" && m.w(i + 3) == "make",
            "taking" => next == "longer",
            "running" if next == "behind" => true,
            "running" => next == "late" && m.w(i + 2) == "on",
            // "meet in person instead, no deck needed" changes the plan, not its date.
            // "Thursday's Litchfield group goes to Florence Falls instead. I'll ring the 6
            // customers": a date in the sentence of "instead", not a day in the possessive
            // (which group) or a number elsewhere.
            // "a warehouse tasting at 2pm instead of the standard tour": one thing for another,
            // not a day for another ("instead of Wednesday").
            "instead"
                if next == "of"
                    && !(i + 2..(i + 4).min(m.n()))
                        .find(|&k| !m.has_f(k, DETERMINER))
                        .is_some_and(|k| m.has_f(k, DATE | MONTH)) =>
            {
                false
            }
            "instead" | "earlier" => {
                i > 1
                    && (0..m.n()).any(|k| {
                        m.sent_of(k) == m.sent_of(i)
                            && m.has_f(k, DATE | MONTH | NUMW)
                            && !m.written(k).ends_with("'s")
                            && !m.written(k).ends_with("’s")
                    })
            }
            _ => false,
        };
        if hit {
            return Some(i);
        }
    }
    None
}
