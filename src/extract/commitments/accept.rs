//! Accept: an agreement to a request ("да", "ок, сделаю", "👍", a date as the whole answer).

use super::*;

pub(super) fn leading_agreement(m: &Msg) -> usize {
    let mut k = 0;
    // "давай, к четвергу" agrees; "давай сделаем" proposes.
    let lets = |k: usize| matches!(m.w(k), "давай" | "давайте") && m.clause_start(k + 1);
    // "могу, завтра с утра гляну": able, then a clause of its own, is a yes ("могу гляну" is not).
    let can =
        |k: usize| k == 0 && matches!(m.w(k), "могу" | "можем" | "смогу") && m.clause_start(k + 1);
    // "я", "я после обеда", "me, after lunch" to "кто может…?": the one who answers volunteers,
    // when nothing but a date follows ("я завтра занесу" promises by itself).
    let me = |k: usize| {
        k == 0
            && word_list!("volunteer.txt").contains(&m.w(k))
            && (k + 1..m.n()).all(|i| m.has_f(i, DATE | PREP | FILL | PLEASE))
    };
    while k < m.n()
        && (m.has_f(k, AGREE) || lets(k) || can(k) || me(k) || (k > 0 && m.has_f(k, FILL)))
        && !m.is_q(k)
    {
        // "sure thing": a multi-word agreement may open with a one-word one.
        if let Some(end) = multi_agreement(m, k) {
            return leading_agreement_after(m, end);
        }
        k += 1;
    }
    multi_agreement(m, k).map_or(k, |end| leading_agreement_after(m, end))
}

/// A multi-word agreement starting at token `k`: the index just past it.
pub(super) fn multi_agreement(m: &Msg, k: usize) -> Option<usize> {
    for seq in agree_phrases() {
        let fits = m.seq_at(k, seq);
        // "сделаем" alone agrees; "сделаем макет к пятнице" promises.
        // Irish "sound" (grand, fine) likewise only alone: "sound check done" reports.
        // "we can", "I will" only alone too, and after a yes ("yes we can"; "I can drive" is
        // what one is able to do).
        let subject = matches!(seq.as_slice(), ["we" | "i", "can" | "will"]);
        // "будет" to "анонс до среды выложи": it will be there, alone.
        let alone_only = matches!(seq.as_slice(), ["сделаем"] | ["sound"] | ["будет"]) || subject;
        if subject && (k == 0 || !(m.has_f(k - 1, AGREE) || is_vocative(m.w(k - 1)))) {
            continue;
        }
        // Alone: the message, or its sentence, ends there ("Yes Madam we can. Kofi will leave
        // 5am Friday").
        let end = k + seq.len();
        let alone = end >= m.n() || subject && m.sent_of(end) != m.sent_of(k);
        if fits && (!alone_only || alone) {
            return Some(k + seq.len());
        }
    }
    None
}

/// Past an agreement: more agreement, fillers and a familiar address ("will do boss").
pub(super) fn leading_agreement_after(m: &Msg, mut k: usize) -> usize {
    while k < m.n() && (m.has_f(k, AGREE | FILL) || is_vocative(m.w(k))) {
        k += 1;
    }
    k
}

/// Familiar forms of address that name no one in particular.
pub(super) fn is_vocative(w: &str) -> bool {
    matches!(
        w,
        "boss"
            | "chief"
            | "mate"
            | "buddy"
            | "bro"
            | "sir"
            | "madam"
            | "ma'am"
            | "maam"
            | "шеф"
            | "босс"
            | "бро"
            | "начальник"
    )
}

/// Do tokens `from..` say nothing but a date, fillers and pronouns?
pub(super) fn only_date_left(cx: &Ctx, from: usize) -> bool {
    let m = cx.m;
    let said_around_a_date = |t: &Tk| {
        t.f & (AGREE | FILL | DATE | PREP | PRON | PLEASE | STOP | APPROVE) != 0
            || word_list!("deadline_words.txt").contains(&t.norm.as_str())
            || is_number(&t.norm)
            // "10ish": about then.
            || t.norm.strip_suffix("ish").is_some_and(is_number)
            || matches!(
                t.norm.as_str(),
                // "Thursday can": Malaysian and Singapore English yes.
                "can"
                    | "го"
                    | "му"
                    | "е"
                    | "ого"
                    | "ому"
                    | "числа"
                    | "st"
                    | "nd"
                    | "rd"
                    | "th"
                    | "that'd"
                    | "it'd"
                    | "that's"
                    | "it's"
                    | "щас"
            )
    };
    let rest = &m.toks[from.min(m.n())..];
    // "к пятнице будет (готово)" in answer to an ask: the date is when it will be there.
    let will_be = rest
        .iter()
        .any(|t| matches!(t.norm.as_str(), "будет" | "будут"));
    let said_around_a_date = |t: &Tk| {
        said_around_a_date(t)
            || will_be
                && matches!(
                    t.norm.as_str(),
                    "будет"
                        | "будут"
                        | "готово"
                        | "готов"
                        | "готова"
                        | "готовы"
                        | "всё"
                        | "все"
                )
    };
    // A word no date is made of says more than a date, wherever the date is: the message's
    // dates need not be looked for.
    if rest
        .iter()
        .any(|t| !said_around_a_date(t) && !crate::extract::dates::date_word(&t.norm))
    {
        return false;
    }
    let span = cx.due_span();
    rest.iter().all(|t| {
        said_around_a_date(t) || span.is_some_and(|d| t.span.start < d.end && d.start < t.span.end)
    })
}

/// A yes to one part of what was asked ("👍 on the schedule", "ok re the invoices", "да, по
/// смете"): an acceptance, of the request that names it (ingest picks it among several).
pub(super) fn yes_on(text: &str, m: &Msg) -> Option<Finding> {
    let t = text.trim_start();
    let emoji = t
        .chars()
        .next()
        .is_some_and(|c| matches!(c, '👍' | '👌' | '🤝' | '🫡' | '✊'));
    let lead = if emoji {
        0
    } else {
        let mut k = 0;
        while k < m.n() && m.has_f(k, AGREE | FILL) {
            k += 1;
        }
        if k == 0 {
            return None;
        }
        k
    };
    let on = matches!(
        m.w(lead),
        "on" | "re" | "for" | "about" | "по" | "насчёт" | "насчет"
    );
    let rest = m.n().saturating_sub(lead + 1);
    // "ok on my way", "ок, по пути": where one is going.
    if (lead..m.n()).any(|k| matches!(m.w(k), "way" | "пути" | "путь")) {
        return None;
    }
    (on && (1..=5).contains(&rest)
        && !text.contains('?')
        && !(lead..m.n()).any(|k| m.has_f(k, NEG)))
    .then_some(Finding::Accept {
        due: None,
        own: None,
    })
}

pub(super) fn emoji_only(text: &str) -> Option<Finding> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    if t.contains(['✅', '✔']) {
        return Some(Finding::Done { words: Vec::new() });
    }
    let agree = ['👍', '👌', '🙏', '🤝', '💪', '🆗', '+', '✊', '🫡'];
    if t.chars().any(|c| agree.contains(&c)) {
        return Some(Finding::Accept {
            due: None,
            own: None,
        });
    }
    None
}

/// A yes that asks by when ("sure, by when?", "ок, к какому числу?"): agreed, the date to come
/// from the one who asked.
pub(super) fn yes_asking_when(m: &Msg) -> bool {
    let mut lead = 0;
    while lead < m.n() && m.has_f(lead, AGREE | FILL) {
        lead = multi_agreement(m, lead).unwrap_or(lead + 1);
    }
    let rest = lead..m.n();
    lead > 0
        && !rest.is_empty()
        && m.is_q(m.n() - 1)
        && rest
            .clone()
            .any(|k| word_list!("when_asked.txt").contains(&m.w(k)))
        && rest.into_iter().all(|k| {
            word_list!("when_asked.txt").contains(&m.w(k))
                || word_list!("when_asked_fill.txt").contains(&m.w(k))
                || m.has_f(k, FILL | PREP)
        })
}

/// A bare question of when ("when?", "by when?", "when can you?", "когда?", "а к какому
/// числу?"): the answer to it dates the promise it was asked about. A lone "when" asks without
/// its question mark.
pub fn asks_when(text: &str) -> bool {
    let m = Msg::new(text);
    let whens = (0..m.n())
        .filter(|&k| word_list!("when_asked.txt").contains(&m.w(k)))
        .count();
    let asked = text.trim_end().ends_with('?') || m.n() == 1;
    asked
        && whens > 0
        && (0..m.n()).all(|k| {
            word_list!("when_asked.txt").contains(&m.w(k))
                || word_list!("when_asked_fill.txt").contains(&m.w(k))
                || m.has_f(k, FILL | PREP)
        })
}

/// A question of when asked of someone ("Варя, когда будешь готова сдать?", "when can you
/// send it?"): a question with a word of `when_question.txt` and the one asked in the second
/// person (`you_forms.txt`, or a Russian verb in "-ешь"/"-ишь"); "How was your day?",
/// "когда удобно созвониться?" ask no one to do anything.
pub fn asks_when_in(text: &str) -> bool {
    let text = text.get(..piece_end(text, PIECE_CHARS)).unwrap_or("");
    let m = Msg::new(text);
    (0..m.n()).any(|k| {
        m.is_q(k)
            && word_list!("when_question.txt").contains(&m.w(k))
            && m.bounds(k, true).any(|j| {
                word_list!("you_forms.txt").contains(&m.w(j))
                    || m.w(j).ends_with("ешь")
                    || m.w(j).ends_with("ишь")
            })
    })
}

/// "soon as really, they're keen. when can you?": a message whose last sentence is a bare
/// question of when.
pub fn ends_asking_when(text: &str) -> bool {
    let t = text.trim_end();
    if !t.ends_with('?') {
        return false;
    }
    let body = &t[..t.len() - 1];
    let from = body.rfind(['.', '!', '?', '\n']).map_or(0, |i| i + 1);
    t.get(from..).is_some_and(asks_when)
}

/// The date a question proposes for work already spoken of ("Friday I'm at the meeting. Can you
/// do Saturday?", "how about Monday?", "а в субботу сможешь?"): its asking sentence says one
/// date and nothing else but the words of `lexicon/date_proposal.txt`.
pub fn proposed_date(text: &str, now: DateTime<Tz>) -> Option<Due> {
    // Asked of replies a yes answers: without a "?" there is no question to read.
    if !text.contains('?') {
        return None;
    }
    let m = Msg::new(text);
    let (idx, span) = m.asking_sentence()?;
    let (q, from) = (idx[0], span.start);
    let asked = text.get(span)?;
    let lang = Lang::detect(asked);
    let found = crate::extract::dates::find(asked, now, lang);
    let [date] = found.as_slice() else {
        return None;
    };
    let dated = |k: usize| {
        let t = &m.toks[k].span;
        let at = t.start - from..t.end - from;
        at.start < date.span.end && date.span.start < at.end
    };
    let others = idx.iter().filter(|&&k| !dated(k)).count();
    let fits = idx.iter().all(|&k| {
        dated(k) || m.has_f(k, PREP) || word_list!("date_proposal.txt").contains(&m.w(k))
    });
    if !fits || others == 0 || m.negated(q) {
        return None;
    }
    crate::extract::dates::deadline(asked, now, lang).map(|(_, due)| due)
}

/// [`yes_asking_when`] of a whole text, for ingest: does this reply agree and ask by when?
pub fn agrees_asking_when(text: &str) -> bool {
    text.trim_end().ends_with('?') && yes_asking_when(&Msg::new(text))
}
