//! Vetoes: what keeps wishes, conditionals, announcements, retold promises, absence notes,
//! progress notes, idioms and non-work plans from being read as promises.

use super::*;

/// "can we move it to Friday?", "можно перенести на пятницу?": a question proposing a change.
pub(super) fn proposal(m: &Msg) -> bool {
    proposal_phrases().iter().any(|p| m.has_seq(p))
}

/// The speaker's own work status ("почти готово", "almost done", "осталось ревью"). "Почти" about
/// anything else ("клей почти кончился") is no status.
pub(super) fn is_progress(m: &Msg) -> bool {
    let status = |k: usize| {
        let w = m.w(k);
        m.has_f(k, DONE)
            || m.toks
                .get(k)
                .and_then(|t| t.verb)
                .is_some_and(|v| v.form == Form::Past)
            || w.starts_with("готов")
            || w.starts_with("законч")
            || w.starts_with("доделал")
            || w.starts_with("finish")
            || w.starts_with("complet")
            || w == "there"
    };
    let partial = |i: usize| match m.w(i) {
        "почти" | "almost" | "nearly" => status(i + 1) || status(i + 2),
        _ => true,
    };
    (0..m.n()).any(|i| m.has_f(i, PROGRESS) && partial(i))
        || m.has_seq(&["в", "процессе"])
        || m.has_seq(&["in", "review"])
        || m.has_seq(&["in", "progress"])
        || m.has_seq(&["на", "ревью"])
        || m.has_seq(&["пока", "не"])
        || m.has_seq(&["еще", "не"])
        || m.has_seq(&["ещё", "не"])
        || m.has_seq(&["not", "yet"])
        || m.has_seq(&["still", "working"])
}

/// Conditionals and wishes ("если успею", "я бы", "надо бы", "I'd love to", "might").
pub(super) fn is_conditional(m: &Msg) -> bool {
    (0..m.n()).any(|i| {
        if !m.has_f(i, COND) {
            return false;
        }
        let next = m.w(i + 1);
        match m.w(i) {
            // "если что" and "если честно" are only manners of speaking.
            "если" => !matches!(next, "что" | "честно" | "чо" | "чего"),
            // "mind if I push…", "ok if it comes friday?": asking leave, not a condition.
            // "I'll check if Hawley has any": whether, after a verb of finding out.
            "if" => {
                !(matches!(next, "anything" | "any")
                    || i > 0 && matches!(m.w(i - 1), "mind" | "ok" | "okay" | "alright")
                    || i > 0 && word_list!("en/find_out.txt").contains(&m.w(i - 1)))
            }
            // "id" is "I'd" typed fast, but "the station ID" is a noun.
            "id" => m.written(i) != "ID" && !(i > 0 && m.has_f(i - 1, DETERMINER)),
            // "would you…", "could you…": polite requests, not conditionals; "would be great"
            // is praise.
            "would" | "might" => {
                !(matches!(next, "you" | "u") || next == "be" && m.has_f(i + 2, APPROVE))
            }
            // "было бы отлично": praise.
            "бы" | "б" if m.has_f(i + 1, APPROVE) || m.has_f(i + 2, APPROVE) && next == "очень" => {
                false
            }
            // "мог бы ты…", "не могли бы вы…": polite requests.
            "бы" | "б" => {
                !(i > 0 && m.w(i - 1).starts_with("мог") || matches!(next, "ты" | "вы"))
            }
            _ => true,
        }
    }) || m.has_seq(&["want", "to"]) && m.has_seq(&["we", "might"])
        || m.has_seq(&["love", "to"])
        || m.has_seq(&["not", "sure"])
        || m.has_seq(&["не", "уверен"])
        || m.has_seq(&["не", "уверена"])
        || m.has_seq(&["хочу", "*"]) && !m.any_f(PLEASE)
}

/// "если хочешь, сделаю" / "if you want I can": a conditional that is really an offer.
/// With `at`, the promise's verb, only a condition of its own sentence counts: "…у меня дома
/// лежат, завтра привезу. и могу в сб на разминке помогать, если надо" promises the first.
pub(super) fn is_offer_condition(m: &Msg, at: Option<usize>) -> bool {
    (0..m.n()).any(|i| {
        let (w, n) = (m.w(i), m.w(i + 1));
        ((w == "если" && matches!(n, "хочешь" | "хотите" | "надо" | "нужно" | "интересно"))
            || (w == "if" && matches!(n, "you" | "needed" | "necessary" | "that's" | "thats")))
            && at.is_none_or(|v| m.sent_of(v) == m.sent_of(i))
    })
}

/// A notice opened by "напоминаю:", "reminder:", "FYI", "heads up" and not about the speaker's
/// own work.
pub(super) fn is_announcement(m: &Msg) -> bool {
    let mut k = 0;
    while m.has_f(k, GREET) {
        k += 1;
    }
    let opener = match m.w(k) {
        "напоминаю"
        | "напоминание"
        | "напомню"
        | "объявление"
        | "внимание"
        | "инфо"
        | "reminder"
        | "fyi"
        | "psa"
        | "announcement"
        | "notice"
        | "info" => true,
        "heads" => m.w(k + 1) == "up",
        "к" | "для" => m.w(k + 1) == "сведению" || m.w(k + 1) == "информации",
        "just" => m.w(k + 1) == "a" && m.w(k + 2) == "reminder",
        "friendly" => m.w(k + 1) == "reminder",
        _ => false,
    };
    let own = (0..m.n()).any(|i| {
        m.has_f(i, SUBJ)
            || matches!(
                m.w(i),
                "i'll" | "i've" | "i'm" | "im" | "ill" | "i’ll" | "we'll"
            )
            || m.verb(i)
                .is_some_and(|v| matches!(v.form, Form::Fut1 | Form::Fut1Pl))
    });
    opener && !own
}

/// Someone else's promise told by the speaker ("Артём сказал что скинет", "the Obs guy says
/// he'll pay"). The speaker telling someone ("I told her…", "я сказал Олегу…") retells nothing:
/// a promise after it is the speaker's own.
pub(super) fn is_retold(m: &Msg) -> bool {
    // "…говорит после того как соседи протекли, короче сделаю в сб": the story ends where the
    // speaker concludes.
    let conclusions = m.present(conclude_phrases());
    let concluded = |i: usize| (i + 1..m.n()).any(|k| conclusions.iter().any(|p| m.seq_at(k, p)));
    // "заеду посмотрю подъезд к Лебедевым там говорят всё перекопали": what others say after
    // the speaker's own promise is news beside it, not the promise retold.
    let promise = ru_promise(m)
        .map(|p| p.0)
        .or_else(|| en_promise(m).map(|p| p.0));
    let promised_before = |i: usize| promise.is_some_and(|p| p < i);
    // "Tamsin says 9 open quotes just on 22s. I'll talk to Island Federal on Thurs": the
    // speaker's own promise in a sentence after the news, which ended there (not at a colon
    // that opens the words retold).
    let promised_after = |i: usize| {
        promise.is_some_and(|p| {
            let told = m.bounds(i, true);
            m.sent_of(p) > m.sent_of(i)
                && m.toks.get(told.end - 1).is_some_and(|t| {
                    m.text
                        .get(t.span.end..)
                        .and_then(|r| r.trim_start().chars().next())
                        .is_none_or(|c| c != ':')
                })
        })
    };
    // The speaker's own "я сказал" / "I said" tells what they said, not someone else's.
    let own_words = |i: usize| i > 0 && m.has_f(i - 1, SUBJ);
    // "Bruce is asking if we can get the tally to him by Friday. Shaz can you do that?": the ask
    // passed on, then put to someone in a sentence of its own.
    let asked_after =
        |i: usize| request::request_cue(m).is_some_and(|c| m.sent_of(c) > m.sent_of(i));
    (0..m.n()).any(|i| {
        m.has_f(i, RETOLD)
            && !(own_words(i)
                || concluded(i)
                || promised_before(i)
                || promised_after(i)
                || asked_after(i))
    }) || m.has_seq(&["по", "словам"])
        || m.has_seq(&["according", "to"])
}

pub(super) fn is_absence(m: &Msg) -> bool {
    m.has_seq(&["меня", "не", "будет"])
        || m.has_seq(&["не", "будет", "меня"])
        || m.has_seq(&["в", "отпуске"])
        || m.has_seq(&["в", "отпуск"])
        || m.has_seq(&["на", "больничном"])
        || m.has_seq(&["на", "больничный"])
        || m.has_seq(&["буду", "позже"])
        || ["отгул", "опоздаю", "задержусь", "отпрошусь", "ooo", "pto"]
            .iter()
            .any(|w| m.has_seq(&[w]))
        || m.has_seq(&["i'm", "off"])
        || m.has_seq(&["im", "off"])
        || m.has_seq(&["be", "off"])
        || m.has_seq(&["be", "out"])
        || m.has_seq(&["be", "away"])
        || m.has_seq(&["be", "late"])
        || m.has_seq(&["be", "offline"])
        || m.has_seq(&["day", "off"])
        || m.has_seq(&["out", "of", "office"])
        || m.has_seq(&["on", "vacation"])
        || m.has_seq(&["on", "leave"])
        || m.has_seq(&["on", "holiday"])
        || m.has_seq(&["won't", "be", "in"])
        || m.has_seq(&["off", "sick"])
        // "в понедельник выйду на полдня позже": when the speaker turns up, not a task.
        // "буду делать главу, но позже" is work.
        || (0..m.n()).any(|k| {
            matches!(m.w(k), "выйду" | "приду" | "подойду")
                || m.w(k) == "буду"
                    && !m.verb(k + 1).is_some_and(|v| v.form == Form::Inf)
                    && !is_infinitive(m.w(k + 1))
        })
            && ["позже", "попозже", "пораньше", "полдня"]
                .iter()
                .any(|w| m.has_seq(&[w]))
}

pub(super) fn is_idiom(m: &Msg) -> bool {
    idiom_phrases().iter().any(|p| match p.as_slice() {
        // "посмотрим", "подумаю" say "we'll see" ("ну посмотрим утром", "завтра посмотрим
        // как ночь простоит"); joined to more work they promise it ("ща посмотрим и смержим").
        [one] if Lang::detect(one) == Lang::Ru => (0..m.n()).any(|k| {
            m.w(k) == *one
                && !(m.w(k + 1) == "и"
                    && m.verb(k + 2)
                        .is_some_and(|v| matches!(v.form, Form::Fut1 | Form::Fut1Pl))
                    && !word_list!("ru/wait_and_see.txt").contains(&m.w(k + 2)))
        }),
        _ => m.has_seq(p),
    })
        // "допью кофе и посмотрю" does the work after the coffee.
        || (0..m.n()).any(|i| nonwork_at(m, i) && !work_after(m, i))
}

/// "пойду на обед" is not work; "после обеда", "at home", "by Friday dinner" only say when or
/// where.
pub(super) fn nonwork_at(m: &Msg, i: usize) -> bool {
    if !m.has_f(i, NONWORK) || english_modifier(m, i) || arranged(m, i) {
        return false;
    }
    if i == 0 {
        return true;
    }
    // "by Friday dinner": a day's dinner is a time.
    !(matches!(
        m.w(i - 1),
        "после"
            | "до"
            | "перед"
            | "в"
            | "after"
            | "before"
            | "at"
            | "from"
            | "с"
            | "из"
            | "over"
            | "by"
            | "until"
            | "till"
            | "к"
    ) || m.has_f(i - 1, DATE))
}

/// "book the team xmas lunch", "организую ужин": the lunch is an event the speaker sets up.
fn arranged(m: &Msg, i: usize) -> bool {
    (i.saturating_sub(4)..i)
        .any(|k| m.clause_of(k) == m.clause_of(i) && word_list!("arrange.txt").contains(&m.w(k)))
}

/// "fix the coffee machine", "update the home exercise sheets": an English word of leisure
/// before another noun of its clause names a thing, not the leisure.
fn english_modifier(m: &Msg, i: usize) -> bool {
    m.w(i).is_ascii()
        && i + 1 < m.n()
        && m.clause_of(i + 1) == m.clause_of(i)
        && m.w(i + 1).chars().all(|c| c.is_ascii_alphabetic())
        && !m.has_f(i + 1, PREP | DATE | TIME_PREP | FILL | STOP | NONWORK)
        && !word_list!("en/adverbs.txt").contains(&m.w(i + 1))
}

/// Is the verb at `i` about something other than work ("схожу на обед", "допью кофе"), with
/// work of its own joined after it ("…и потом доделаю отчёт")?
pub(super) fn nonwork_before_work(m: &Msg, i: usize) -> bool {
    let clause = m.toks.get(i).map(|t| t.clause);
    let end = (i + 1..m.n())
        .find(|&k| m.clause_of(k) != clause || conjunction_before(m, k + 1) == Some(k))
        .unwrap_or(m.n());
    (i + 1..end).any(|k| nonwork_at(m, k)) && work_after(m, i)
}

/// Does an action of work follow token `i` in its sentence, joined by "и" / "and" ("допью кофе и
/// посмотрю", "схожу на обед и потом доделаю отчёт")?
pub(super) fn work_after(m: &Msg, i: usize) -> bool {
    let sent = m.toks.get(i).map(|t| t.sent);
    (i + 1..m.n())
        .take_while(|&k| m.sent_of(k) == sent)
        .any(|k| {
            conjunction_before(m, k).is_some_and(|c| c > i)
                && !m.has_f(k, NONWORK)
                && m.verb(k)
                    .is_some_and(|v| matches!(v.form, Form::Fut1 | Form::Fut1Pl | Form::Imp))
        })
}
