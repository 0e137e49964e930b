//! Made: the speaker states their own intention with a future action ("доделаю", "I'll send").

use super::*;

/// A word of `lexicon/en/food.txt`.
fn is_food(w: &str) -> bool {
    word_list!("en/food.txt").contains(&w)
}

/// The lists of `lexicon/en/movement.txt`, by key.
fn movement(key: &str) -> &'static [String] {
    static LISTS: std::sync::OnceLock<Vec<(&'static str, Vec<String>)>> =
        std::sync::OnceLock::new();
    LISTS
        .get_or_init(|| {
            crate::extract::words::keyed_lists(include_str!("../../../lexicon/en/movement.txt"))
        })
        .iter()
        .find(|(k, _)| *k == key)
        .map_or(&[], |(_, l)| l.as_slice())
}

/// Does the promise that starts at token `v` go somewhere rather than do something?
fn goes_somewhere(m: &Msg, v: usize) -> bool {
    let has = |key: &str, k: usize| movement(key).iter().any(|w| w == m.w(k));
    let capital = m.capital(v);
    // "going to work" goes there; "going to work on the docs" works on them.
    let works_on = m.w(v) == "work" && m.w(v + 1) == "on" && !m.has_f(v + 2, DATE);
    (m.w(v.wrapping_sub(1)) == "to"
        && (has("to-places", v) && !works_on || capital && m.w(v) != "i"))
        // "I'll come up with a latte": a verb of its own.
        || (has("verbs", v) && has("then", v + 1) && m.w(v + 2) != "with")
}

/// Where an English promise starts: the trigger index and the index of the first word after it.
pub(super) fn en_promise(m: &Msg) -> Option<(usize, usize)> {
    for i in 0..m.n() {
        let w = m.w(i);
        let (a, b, c) = (m.w(i + 1), m.w(i + 2), m.w(i + 3));
        let start = m.clause_start(i);
        let after = match w {
            // "ye ill take ana's shift": after a yes, "ill" is "I'll".
            // "also ill lodge the payroll tax": after a lead-in word too, before a verb.
            "i'll" | "i’ll" | "ill"
                if w != "ill"
                    || start
                    || i > 0 && m.has_f(i - 1, AGREE)
                    || i > 0
                        && m.clause_start(i - 1)
                        && word_list!("en/lead_in.txt").contains(&m.w(i - 1))
                        && (m.has_f(i + 1, EN_VERB)
                            || word_list!("en/determiner.txt").contains(&m.w(i + 2)))
                    // "left it on the fridge ill bring it tues": the sickness is said with a
                    // copula or a feeling before it, never with a verb after it.
                    || m.has_f(i + 1, EN_VERB)
                        && !m.has_f(i + 1, STOP)
                        && i > 0
                        && !sick_before(m, i) =>
            {
                Some(i + 1)
            }
            "i" if matches!(a, "will" | "shall") => Some(i + 2),
            // "Dawa and me will do the pruning walk", "me and Dawa will…": the speaker with
            // someone, said as many say it.
            "will"
                if i >= 2
                    && (m.w(i - 1) == "me" && m.w(i - 2) == "and"
                        || i >= 3
                            && m.w(i - 2) == "and"
                            && m.w(i - 3) == "me"
                            && m.clause_start(i - 3)) =>
            {
                Some(i + 1)
            }
            // "Yes, I look at it today": after a yes, a plain present with a date is a
            // promise (said so by many whose English is a second language).
            "i" if i > 0
                && (0..i).any(|k| m.has_f(k, AGREE))
                && (0..i).all(|k| m.has_f(k, AGREE | FILL | GREET))
                && m.has_f(i + 1, EN_VERB)
                && (i + 2..m.bounds(i, false).end).any(|k| now_or_date(m, k)) =>
            {
                Some(i + 1)
            }
            // "I plan to work on the presentation today", "we intend to ship it Friday",
            // "I'm planning to review it": the speaker's plan is their promise.
            "i" | "we" if word_list!("en/plan_to.txt").contains(&a) && b == "to" => Some(i + 3),
            "i'm" | "im" | "i’m" | "we're" | "we’re"
                if word_list!("en/plan_to.txt").contains(&a) && b == "to" =>
            {
                Some(i + 3)
            }
            "i" if a == "am" && b == "going" && c == "to" => Some(i + 4),
            "i" if a == "am" && b == "gonna" => Some(i + 3),
            "i'm" | "im" | "i’m" if a == "gonna" => Some(i + 2),
            "i'm" | "im" | "i’m" if a == "going" && b == "to" => Some(i + 3),
            // "I'm coming to check the controller after lunch" (East African English: I will
            // come and check it); "I'm coming to the office" goes somewhere.
            "i'm" | "im" | "i’m" if a == "coming" && b == "to" && m.has_f(i + 3, EN_VERB) => {
                Some(i + 3)
            }
            // The first person plural promises for the speaker's side: "we'll get it fixed".
            "we'll" | "we’ll" => Some(i + 1),
            "we" if matches!(a, "will" | "shall") => Some(i + 2),
            "we're" | "we’re" if a == "going" && b == "to" => Some(i + 3),
            "we're" | "we’re" if a == "gonna" => Some(i + 2),
            // "I go swap um Thurs", "ah go post the reveal video Wednesday" (Caribbean, Hawaiian
            // and West African English: I will): a verb and a time said in its clause, so that
            // "I go check on him most days" stays a habit.
            _ if word_list!("en/pidgin_i.txt").contains(&w)
                && a == "go"
                && (start || (0..i).all(|k| m.has_f(k, FILL | AGREE | DATE | PREP)))
                && (m.has_f(i + 2, EN_VERB) || lexicon::wordnet_verb(m.w(i + 2)))
                && !m.has_f(i + 2, STOP | PREP | DATE)
                && m.bounds(i, false).any(|k| m.has_f(k, DATE)) =>
            {
                Some(i + 2)
            }
            // "Hmm gonna ask in #eng-chat": after a filler as at the start.
            "gonna" if start || (0..i).all(|k| m.has_f(k, FILL | AGREE)) => Some(i + 1),
            // "will there be karaoke." asks, with or without its question mark.
            // "ok sir will do the needful": after a yes and an address, as at the start.
            "will"
                if (start || yes_before(m, i))
                    && !m.is_q(i)
                    // "…, will reach Wednesday": a thing on its way, said without "it".
                    && !word_list!("en/arrive.txt").contains(&a)
                    && !word_list!("en/persons.txt").contains(&a)
                    && !word_list!("en/there.txt").contains(&a) =>
            {
                Some(i + 1)
            }
            // "let me see what next week looks like first", "let me check if we have stock": a
            // look before saying yes, not the work.
            "let"
                if a == "me"
                    && b != "know"
                    && !(matches!(b, "see" | "check" | "think")
                        && matches!(c, "what" | "if" | "whether" | "how" | "when" | "about"))
                    && (start
                        || m.w(i.wrapping_sub(1)) == "ok"
                        // "Rafa Let me get some input from Tony": after the one addressed, a
                        // new sentence begun without its comma ("Tom let me borrow it" tells).
                        || i == 1
                            && m.capital(0)
                            && m.capital(1)
                            && !m.has_f(0, STOP | PRON | EN_VERB)) =>
            {
                Some(i + 2)
            }
            // "lemme send em tonight": as "let me", the look before a yes aside.
            "lemme"
                if b != "know"
                    && a != "know"
                    && !(matches!(a, "see" | "check" | "think")
                        && matches!(b, "what" | "if" | "whether" | "how" | "when" | "about"))
                    && (start || m.w(i.wrapping_sub(1)) == "ok") =>
            {
                Some(i + 1)
            }
            // "I'm putting the order in today by 2", "yep sending them today", "ordering now":
            // work under way for a time said, by the speaker.
            // "I'm calling to confirm Monday" says why the speaker calls, not what is under way.
            "i'm" | "im" | "i’m" | "we're" | "we’re"
                if en_ing_verb(a)
                    && !(b == "to" && word_list!("en/purpose_ing.txt").contains(&a))
                    && (i + 2..m.bounds(i, false).end).any(|k| now_or_date(m, k)) =>
            {
                Some(i + 1)
            }
            // Without a subject only after a yes or right now: "taking the afternoon, back
            // monday" is time off, "doing it wed" a move.
            _ if en_ing_verb(w)
                && (i > 0
                    && m.has_f(i - 1, AGREE)
                    && (i + 1..m.bounds(i, false).end).any(|k| now_or_date(m, k))
                    || start && word_list!("en/immediate.txt").contains(&a)) =>
            {
                Some(i)
            }
            "on" if a == "it" && (start || i > 0 && matches!(m.w(i - 1), "i'm" | "im" | "i’m")) => {
                Some(i + 2)
            }
            // "I'm on a diet", "I'm on my way": a state, not work taken on.
            "i'm" | "im" | "i’m"
                if a == "on"
                    && !matches!(b, "it" | "a" | "an" | "my")
                    && !word_list!("en/shifts.txt").contains(&b)
                    && !word_list!("en/apology.txt").contains(&m.w(0)) =>
            {
                Some(i + 2)
            }
            // "I should have it done by Friday" promises; "I should have booked it" regrets.
            "should" if a == "have" && (start || i > 0 && m.w(i - 1) == "i") && !participle(b) => {
                Some(i + 1)
            }
            // "you'll have it Monday" promises; "you'll have to pay 20" tells what must be.
            "you'll" if (a == "have" || a == "get") && b != "to" => Some(i + 1),
            "leave" if a == "it" && b == "with" && c == "me" => Some(i + 4),
            "expect" if start && !m.is_q(i) => Some(i + 1),
            // "the deck will be ready by Friday": the thing is the subject.
            "will" | "should"
                if a == "be"
                    && matches!(
                        b,
                        "ready" | "done" | "finished" | "sent" | "delivered" | "shipped"
                    )
                    && !(i > 0 && matches!(m.w(i - 1), "he" | "she" | "they" | "who")) =>
            {
                Some(i + 3)
            }
            _ => None,
        };
        if let Some(mut v) = after {
            // "no clue what I'm going to make", "how long I will stay depends on…": the future
            // is what is asked or talked about ("what I'll do is call them" still promises).
            let subject = matches!(w, "i" | "i'll" | "i’ll" | "ill" | "i'm" | "im" | "i’m")
                || matches!(w, "we" | "we'll" | "we’ll" | "we're" | "we’re");
            let wh = word_list!("en/wh.txt");
            let embedded = i > 0 && wh.contains(&m.w(i - 1)) || i > 1 && m.w(i - 2) == "how";
            if subject && embedded && !(m.w(v) == "do" && m.w(v + 1) == "is") {
                continue;
            }
            // "I'm going to the store", "going to Leeds", "we'll go by bus": going somewhere,
            // not doing something (word lists in lexicon/en/movement.txt).
            if goes_somewhere(m, v) {
                continue;
            }
            // "I will not be able to give the report today": a refusal, not a promise.
            if m.has_f(v, NEG) {
                continue;
            }
            // "I'll need your sign-off": what the speaker needs, not what they will do.
            if word_list!("en/not_work.txt").contains(&m.w(v)) {
                continue;
            }
            // "I'll be in the office", "I'll be there": where the speaker will be, not a task.
            // "I will be completing this code by Sunday": the work under way then.
            if m.w(v) == "be"
                && !matches!(m.w(v + 1), "done" | "ready")
                && busy_after_be(m, v + 1).is_none()
            {
                continue;
            }
            // "I'll try to", "will try", "I'll do my best": a weak promise, no commitment.
            let weak_from = if matches!(m.w(v), "also" | "just" | "def" | "definitely") {
                v + 1
            } else {
                v
            };
            if matches!(m.w(weak_from), "try" | "attempt")
                || m.w(weak_from) == "do" && m.w(weak_from + 2) == "best"
            {
                continue;
            }
            // "I'll also just try to send": the words before the verb carry nothing.
            while matches!(
                m.w(v),
                "also"
                    | "just"
                    | "probably"
                    | "definitely"
                    | "try"
                    | "to"
                    | "quickly"
                    | "then"
                    | "first"
                    | "def"
                    | "totally"
                    | "personally"
                    | "still"
                    | "go"
                    | "and"
                    | "gonna"
                    | "be"
                    | "sure"
            ) && v < m.n()
            {
                if m.w(v) == "be" && matches!(m.w(v + 1), "done" | "ready") {
                    v += 1;
                    continue;
                }
                match (m.w(v) == "be").then(|| busy_after_be(m, v + 1)) {
                    Some(None) => break,
                    Some(Some(ly)) => v += 1 + ly,
                    None => v += 1,
                }
            }
            // "gonna pour tomorrow, bring umbrellas": the weather, not anyone's work.
            // "I'll pour the slab" is work: "pour" is weather only without an object.
            let bare = v + 1 >= m.n() || m.has_f(v + 1, DATE) || m.clause_start(v + 1);
            if matches!(m.w(v), "rain" | "snow" | "drizzle" | "hail" | "sleet")
                || matches!(m.w(v), "pour" | "storm" | "freeze")
                    && bare
                    && !matches!(w, "i'll" | "i’ll" | "ill" | "i")
            {
                continue;
            }
            // "I'll have the vanilla ice cream", "I'll have a coffee": ordering, unless the
            // thing is to be ready or delivered ("I'll have the numbers ready", "the memo to Dan").
            let sentence = m.bounds(v, true);
            // "I'll have waakye with extra shito": a dish by its bare name too.
            let bare_thing = |k: usize| {
                v + 2 < sentence.end
                    && m.written(k).starts_with(|c: char| c.is_ascii_lowercase())
                    && m.w(k).chars().all(|c| c.is_ascii_alphabetic())
                    && !m.has_f(k, PRON | PREP | STOP | NEG | DATE | DETERMINER)
                    && m.verb(k).is_none()
                    && !participle(m.w(k))
                    && !word_list!("en/have_a.txt").contains(&m.w(k))
                    // Not "and": "I'll have legal and finance review the contract".
                    && (m.w(k + 1) == "with" || m.has_f(k + 1, PLEASE))
            };
            if m.w(v) == "have"
                && (m.has_f(v + 1, DETERMINER)
                    || is_number(m.w(v + 1))
                    || m.w(v + 1) == "one"
                    || bare_thing(v + 1))
                && !word_list!("en/have_a.txt").contains(&m.w(v + 2))
                && !(v + 1..sentence.end).any(|k| {
                    m.has_f(k, DATE | DONE)
                        || matches!(
                            m.w(k),
                            "ready" | "back" | "over" | "up" | "out" | "to" | "by"
                        )
                        // "the numbers for you", "for Dan", "for Friday"; not "for takeaway".
                        || m.w(k) == "for"
                            && (m.has_f(k + 1, PRON | DATE) || m.capital(k + 1))
                })
            {
                continue;
            }
            // "I'll take beef stew, then", "I'll have the lamb chops, well-done", "I'll take a
            // carne asada burrito": a meal.
            // So does bringing one along: "I'll bring my famous potato salad".
            if matches!(m.w(v), "have" | "take" | "bring")
                && (v + 1..(v + 5).min(sentence.end)).any(|k| is_food(m.w(k)))
                && !(v + 1..sentence.end).any(|k| m.has_f(k, DATE))
            {
                continue;
            }
            // "I believe I will.", "I think I'll.": a guess about oneself, with nothing to do.
            if (v >= sentence.end || m.sent_of(v) != m.sent_of(i))
                && (i.saturating_sub(3)..i).any(|k| m.has_f(k, GUESS))
            {
                continue;
            }
            if consequence(m, i) {
                continue;
            }
            return Some((i, v));
        }
    }
    None
}

/// "…, а то без реагента встанем", "…, otherwise we'll miss the slot": the future at `t` is what
/// follows if something is not done (`lexicon/consequence.txt`, in the same sentence before it).
fn consequence(m: &Msg, t: usize) -> bool {
    let from = m.bounds(t, true).start;
    let phrases = m.present(consequence_phrases());
    (from..t).any(|k| phrases.iter().any(|p| m.seq_at(k, p)))
}

/// Where a Russian promise is: the trigger index, the verb carrying the meaning (index and
/// infinitive), and whether the verb is one of taking something on.
/// A Russian promise: trigger index, the verb carrying the meaning, "taking on" verb or not.
pub(super) type RuPromise = (usize, Option<(usize, &'static str)>, bool);

/// The verb token is dropped and no infinitive stands for it ("будет готов").
pub(super) const NO_VERB: &str = "—";

/// A promise verb typed with one slip ("сдлаю отчет"), only where a verb opens the clause.
pub(super) fn ru_promise_typo(m: &Msg) -> Option<RuPromise> {
    for i in 0..m.n() {
        let t = &m.toks[i];
        let w = t.norm.as_str();
        let opens = m.clause_start(i) || (i > 0 && m.has_f(i - 1, SUBJ | DATE | FILL));
        if !opens
            || t.verb.is_some()
            || t.f != 0
            || !(w.ends_with('ю') || w.ends_with('у'))
            || w.chars().count() < 5
            || Lang::detect(w) != Lang::Ru
            // "приду" is a word of its own, not a slip for "приму".
            || crate::morph::known_word(w)
        {
            continue;
        }
        let chars: Vec<char> = w.chars().collect();
        let candidates = chars.first().and_then(|c| fut1_forms().get(c));
        if let Some((_, v)) = candidates
            .into_iter()
            .flatten()
            .find(|(f, _)| crate::extract::words::one_typo(f, &chars))
        {
            return Some((i, Some((i, v.inf)), v.take));
        }
    }
    None
}

/// "Света, напомню: двор ждёт прайс": a verb of speech said there and then, opening what
/// follows a colon (`lexicon/ru/said_now.txt`), is no promise.
fn said_now(m: &Msg, i: usize) -> bool {
    word_list!("ru/said_now.txt").contains(&m.w(i))
        && m.toks.get(i).is_some_and(|t| {
            m.text
                .get(t.span.end..)
                .is_some_and(|rest| rest.trim_start().starts_with(':'))
        })
}

pub(super) fn ru_promise(m: &Msg) -> Option<RuPromise> {
    for i in 0..m.n() {
        // "спрашивает, починим ли Рубин": whether, not a promise.
        if m.negated(i) || m.w(i + 1) == "ли" {
            continue;
        }
        let w = m.w(i);
        if let Some(v) = m.verb(i) {
            let promise = match v.form {
                Form::Fut1 => true,
                // "сделаем к пятнице" promises for the team; "давай сделаем", "давай на этой
                // неделе повесим новую ткань" only propose.
                Form::Fut1Pl => !(m.bounds(i, false).start..i).any(|k| m.w(k).starts_with("давай")),
                _ => false,
            };
            if !promise || nonwork_before_work(m, i) || said_now(m, i) || consequence(m, i) {
                continue;
            }
            // "постараюсь выбить скидку", "попробую": a weak promise, no commitment.
            if matches!(v.inf, "постараться" | "попробовать") {
                continue;
            }
            if v.aux {
                // "постараюсь успеть доделать": the last infinitive in a row carries the meaning.
                let mut k = i + 1;
                let mut found = None;
                while let Some(t) = m.toks.get(k) {
                    match t.verb {
                        Some(x) if x.form == Form::Inf => {
                            found = Some((k, x.inf));
                            if !x.aux {
                                break;
                            }
                        }
                        _ => {
                            if is_infinitive(&t.norm) {
                                found = Some((k, ""));
                                break;
                            }
                            if found.is_some() {
                                break;
                            }
                        }
                    }
                    k += 1;
                }
                return Some((i, found, false));
            }
            return Some((i, Some((i, v.inf)), v.take));
        }
        if let Some(inf) = present_for_a_day(m, i) {
            return Some((i, Some((i, inf)), false));
        }
        match w {
            // "беру на себя X", "беру"
            "беру" | "берусь" => return Some((i, None, true)),
            // "взял на себя X" is taking it on now, not a report.
            "взял" | "взяла" if m.w(i + 1) == "на" && m.w(i + 2) == "себя" => {
                return Some((i, None, true));
            }
            // "отчёт будет готов к пятнице": the thing is the subject.
            "будет" | "будут"
                if !(i > 0 && matches!(m.w(i - 1), "как" | "когда" | "если" | "только")) =>
            {
                if let Some(k) = (i + 1..(i + 3).min(m.n())).find(|&k| m.has_f(k, DONE)) {
                    return Some((i, Some((k, NO_VERB)), false));
                }
            }
            _ => {}
        }
        match w {
            // "я буду делать X", "обещаю прислать", "планирую закончить"
            "буду" | "обещаю" | "планирую" | "собираюсь" | "начну" | "начнем" =>
            {
                // "планирую ещё какое-то время дополнять перевод": a few words of when or
                // how may come first.
                let clause_end = m.bounds(i, false).end;
                let mut k = i + 1;
                while k < clause_end
                    && k <= i + 4
                    && !is_infinitive(m.w(k))
                    && (m.has_f(k, DATE | FILL)
                        || word_list!("ru/before_infinitive.txt").contains(&m.w(k)))
                {
                    k += 1;
                }
                if k < clause_end && is_infinitive(m.w(k)) {
                    let inf = m.verb(k).map(|v| v.inf).unwrap_or("");
                    return Some((i, Some((k, inf)), false));
                }
                // "обработку копыт начну в четверг": the work is a noun, "начну" the promise.
                // "начну с бэкапа" only orders the work that follows.
                if matches!(w, "начну" | "начнем")
                    && !(i > 0 && m.w(i - 1).starts_with("давай"))
                    && !matches!(m.w(i + 1), "с" | "со")
                {
                    return Some((i, Some((i, "начать")), false));
                }
            }
            _ => {}
        }
    }
    None
}

/// "завтра везу документы в налоговую", "в четверг ставлю ограду": the speaker's present after
/// a day to come (`lexicon/ru/day_ahead.txt`) said in its clause is the plan for that day;
/// after "сегодня" it tells work under way. Only in the singular: "в пятницу запускаем зимнее
/// меню" tells the team's schedule more often than anyone's promise. Not a habit ("каждый
/// вторник вожу"), not a day gone ("вчера ставлю"), not a going, a sitting or a waiting
/// (`lexicon/ru/plan_not_work.txt`), not a move, not asked. The verb's infinitive.
fn present_for_a_day(m: &Msg, i: usize) -> Option<&'static str> {
    let w = m.w(i);
    // The first person singular present ends in "-у"/"-ю" (a reflexive in "-сь" is no work
    // here: "открываюсь в 9"): every other word is passed over before anything is looked up.
    if !(w.ends_with('у') || w.ends_with('ю'))
        || m.verb(i).is_some()
        || m.has_f(i, STOP | NONWORK | MOVE | CANCEL)
        || m.is_q(i)
    {
        return None;
    }
    let clause = m.bounds(i, false);
    (clause.start..i)
        .rev()
        .find(|&k| word_list!("ru/day_ahead.txt").contains(&m.w(k)))?;
    if (clause.start..i).any(|k| word_list!("ru/past_or_habit.txt").contains(&m.w(k))) {
        return None;
    }
    let inf = crate::morph::speaker_present_lemma(w)?;
    if word_list!("ru/plan_not_work.txt").contains(&inf.as_str())
        || word_list!("ru/not_work_verbs.txt").contains(&inf.as_str())
    {
        return None;
    }
    Some(lexicon::intern(inf))
}

/// "…и посмотрю", "…и потом пришлю": the index of the conjunction joining the verb at `v` to
/// an action before it, when one stands right in front of the verb.
pub(super) fn conjunction_before(m: &Msg, v: usize) -> Option<usize> {
    let and = |w: &str| matches!(w, "и" | "а" | "and");
    let then = |w: &str| matches!(w, "потом" | "затем" | "then" | "после" | "сразу");
    match v {
        0 => None,
        _ if and(m.w(v - 1)) => Some(v - 1),
        _ if then(m.w(v - 1)) && v > 1 && and(m.w(v - 2)) => Some(v - 2),
        _ => None,
    }
}

/// "иду", "уже бегу", "выезжаю", "иду смотреть": the speaker is on their way, i.e. agrees.
/// Tokens `from..` must say nothing else (fillers, "уже", "ща", at most one work infinitive).
pub(super) fn on_my_way(m: &Msg, from: usize) -> bool {
    let mut motion = false;
    let mut inf = false;
    for i in from..m.n() {
        let w = m.w(i);
        if matches!(
            w,
            "иду"
                | "идем"
                | "бегу"
                | "бежу"
                | "лечу"
                | "еду"
                | "выезжаю"
                | "выдвигаюсь"
                | "подхожу"
                | "спускаюсь"
                | "поднимаюсь"
                // "coming now now" (South African: very soon), "omw".
                | "coming"
                | "omw"
        ) && !motion
        {
            motion = true;
        } else if matches!(
            w,
            "уже"
                | "ща"
                | "щас"
                | "сейчас"
                | "счас"
                | "уж"
                | "все"
                | "всё"
                | "тогда"
                | "же"
                | "now"
        ) || m.has_f(i, FILL | AGREE | PLEASE)
        {
        } else if motion
            && !inf
            && !m.has_f(i, NONWORK)
            && (m.verb(i).is_some_and(|v| v.form == Form::Inf) || is_infinitive(w))
        {
            inf = true;
        } else {
            return false;
        }
    }
    motion
}

/// "ок, в 9 буду в цеху", "ok, I'll be there at 9": after a yes, where and when the speaker
/// will be is the yes, at that time. Any other verb, a "не" or a question says something else.
pub(super) fn be_there(m: &Msg, from: usize) -> bool {
    let be = word_list!("be_there.txt");
    let mut seen = false;
    for i in from..m.n() {
        if be.contains(&m.w(i)) {
            seen = true;
        } else if m.has_f(i, NEG | EN_VERB) || m.is_q(i) || m.verb(i).is_some() {
            return false;
        }
    }
    seen
}

/// "да, запиши меня", "ок, ставь и меня тоже": after an agreement, an imperative about the
/// speaker themself signs them up — an acceptance, not a request.
pub(super) fn signs_me_up(m: &Msg, from: usize) -> bool {
    let mut verb = false;
    let mut me = false;
    for i in from..m.n() {
        let w = m.w(i);
        if matches!(w, "меня" | "мне" | "нас" | "нам") {
            me = true;
        } else if !verb && (m.verb(i).is_some_and(|v| v.form == Form::Imp) || ru_imperative_like(w))
        {
            verb = true;
        } else if !(matches!(w, "и" | "тоже" | "тогда" | "уже" | "на" | "в" | "к")
            || m.has_f(i, FILL | AGREE | PLEASE | DATE))
        {
            return false;
        }
    }
    verb && me
}

pub(super) fn made(cx: &Ctx) -> Option<Finding> {
    let m = cx.m;
    let (trigger, verb, take) = if let Some(p) = ru_promise(m) {
        p
    } else if let Some(p) = en_promise(m)
        .is_none()
        .then(|| ru_promise_typo(m))
        .flatten()
    {
        p
    } else if let Some((t, v)) = en_promise(m) {
        // English keeps its own verb in place: skip the trigger words only.
        let mut skip: Vec<usize> = (t..v).chain(0..cx.lead.get()).collect();
        if t > 0 && m.has_f(t - 1, SUBJ) {
            skip.push(t - 1);
        }
        if m.is_q(t) {
            return None;
        }
        let clause = m.bounds(v.min(m.n().saturating_sub(1)), false);
        // A fronted object stays ("the deck I'll send tomorrow"); a clause joined before the
        // promise does not ("I told her … but I'll send the letter").
        let joins = word_list!("en/joins.txt");
        let from = (clause.start.min(t)..t)
            .rev()
            .find(|&k| joins.contains(&m.w(k)))
            .map_or(clause.start.min(t), |k| k + 1);
        // "she wants the lounge furniture there so I'll put together a new layout": the reason
        // is no part of a promise that names its own thing.
        let names_own = v + 1 < clause.end
            && !m.has_f(v + 1, PRON | DATE)
            && !word_list!("en/object_pron.txt").contains(&m.w(v + 1));
        let from = match (from..t)
            .rev()
            .find(|&k| word_list!("en/joins_named.txt").contains(&m.w(k)))
        {
            Some(k) if names_own => k + 1,
            _ => from,
        };
        // "left it on the fridge ill bring it tues": an "ill" read as "I'll" inside a clause
        // opens the promise itself.
        let from = if m.w(t) == "ill"
            && !m.clause_start(t)
            && !(from..t).all(|k| {
                m.has_f(k, AGREE | FILL | GREET) || word_list!("en/lead_in.txt").contains(&m.w(k))
            }) {
            t
        } else {
            from
        };
        // "oh and Bec I'll send you the draft", "also Kyle I will call the landlord": what
        // stands before the promise, when it is only a lead-in and a name, is no part of it.
        // So are the speaker and a partner ("Dawa and me will…").
        let with_me = (from..t).any(|k| m.w(k) == "me");
        // "EVA I'll order from Faisalabad": a word in capitals is a thing, not a name.
        let acronym = |k: usize| {
            let w = m.written(k);
            w.chars().count() >= 2 && w.chars().all(|c| c.is_uppercase() || c.is_ascii_digit())
        };
        let lead_only = (from..t).all(|k| {
            m.has_f(k, FILL | AGREE | GREET | SUBJ)
                || m.capital(k) && !acronym(k)
                || word_list!("en/lead_in.txt").contains(&m.w(k))
                || with_me && matches!(m.w(k), "me" | "and")
        });
        if lead_only {
            skip.extend(from..t);
        }
        // "the deck I'll send tomorrow", "load bank report I'll put up tmrw": the thing named
        // first goes after its verb (and the verb's particle), as the promise is read.
        // ("ya i'll have it to you wed": a yes of two letters is no thing.)
        let fronted = !lead_only
            && from < t
            && (from..t).any(|k| !m.has_f(k, STOP | FILL) && m.w(k).chars().count() > 2)
            && v < clause.end
            && m.has_f(v, EN_VERB)
            && (from..t).all(|k| !m.has_f(k, DATE | PRON | NEG) && m.verb(k).is_none());
        let (text, obj) = if fronted {
            let (thing, _) = content(m, from..t, None, &skip, cx.due_span());
            let (rest, obj) = content(m, v..clause.end, None, &skip, cx.due_span());
            let mut words: Vec<&str> = rest.split_whitespace().collect();
            let at = if words.len() > 1
                && word_list!("en/particles.txt").contains(&words[1].to_lowercase().as_str())
            {
                2
            } else {
                1
            }
            .min(words.len());
            let thing = thing.trim().to_string();
            if !thing.is_empty() {
                words.insert(at, &thing);
            }
            (words.join(" "), obj || !thing.is_empty())
        } else {
            content(m, from..clause.end, None, &skip, cx.due_span())
        };
        let generic = text.split_whitespace().all(|w| {
            matches!(
                w.to_lowercase().as_str(),
                "do" | "it"
                    | "that"
                    | "this"
                    | "handle"
                    | "take"
                    | "send"
                    | "have"
                    | "get"
                    | "check"
                    | "look"
                    | "fix"
                    | "on"
                    | "done"
                    | "ready"
                    | "be"
                    | "finish"
                    | "one"
                    | "care"
                    | "of"
                    | "sort"
                    | "out"
                    // "will do first thing": when, not what.
                    | "first"
                    | "thing"
            )
        });
        // Only words of doing ("I'll handle it", "will do"): a yes to whatever was asked. A verb
        // of its own with no object is a promise of that when it says when ("I'll deliver
        // Wed", "I'll reply tomorrow"): ingest takes it as the acceptance of a request to the
        // speaker just before it, or as the speaker's own promise. Without a date, or with a
        // verb that names no work alone ("I'll wait", "I'll come tomorrow"), it is only a yes.
        let alone = word_list!("en/not_work_alone.txt");
        let words: Vec<&str> = text.split_whitespace().collect();
        let first = words.first().map(|w| w.to_lowercase());
        let idle = words.len() <= 3 && first.as_deref().is_some_and(|w| alone.contains(&w))
            || words.len() == 1
                && first
                    .as_deref()
                    .is_some_and(|w| word_list!("en/not_work_bare.txt").contains(&w));
        let bare = idle || !obj && cx.due().is_none();
        if generic || bare || text.trim().is_empty() {
            return Some(Finding::Accept {
                due: cx.due(),
                own: (!idle).then(|| own_words(&text)).flatten(),
            });
        }
        return Some(Finding::Made {
            content: text,
            due: cx.due(),
        });
    } else {
        return None;
    };
    if m.is_q(trigger) {
        return None;
    }
    let mut skip: Vec<usize> = (0..cx.lead.get()).collect();
    if trigger > 0 && m.has_f(trigger - 1, SUBJ) {
        skip.push(trigger - 1);
    }
    let (text, obj) = promise_content(cx, trigger, verb, take, &skip);
    // A verb of its own with no object is a promise of that when it says when ("посмотрю
    // завтра с утра", "отвечу в понедельник"): ingest takes it as the acceptance of a request
    // to the speaker just before it, or as the speaker's own promise about what the message
    // says. Without a date, or with a verb that names no work alone ("подожду", "приду в
    // пятницу", "сделаю завтра"), it is only a yes.
    let alone = word_list!("ru/not_work_alone.txt");
    let works_alone = !take
        && verb.is_some_and(|(_, inf)| !inf.is_empty() && inf != NO_VERB && !alone.contains(&inf));
    // "щас гляну", "сейчас посмотрю": right now is a yes, not a date to hold anyone to.
    if !(obj || works_alone && cx.deadline_said()) {
        // "ок, сделаю" promises what it answers; "в понедельник выйду" promises nothing.
        let idle = verb.is_some_and(|(_, inf)| {
            alone.contains(&inf) && !word_list!("doing_verbs.txt").contains(&inf)
        });
        return Some(Finding::Accept {
            due: cx.due(),
            own: (!idle).then(|| own_words(&text)).flatten(),
        });
    }
    // "…сами приедут в апреле посмотреть. КП подготовлю в понедельник": the day of the
    // promise's own sentence, not one said of something else before it.
    Some(Finding::Made {
        content: text,
        due: cx.due_of_sentence(m.bounds(trigger, true)),
    })
}

/// A past participle after "should have": a regret, not a promise (`lexicon/en/participles.txt`).
pub(super) fn participle(w: &str) -> bool {
    w.len() > 3 && w.ends_with("ed") || word_list!("en/participles.txt").contains(&w)
}

/// The words of doing a bare yes carries ("arrange it", "сделать"), when there are any.
fn own_words(text: &str) -> Option<String> {
    let t = text.trim();
    (!t.is_empty() && t.chars().any(char::is_alphabetic)).then(|| t.to_string())
}

/// An English "-ing" form of a verb of work ("sending", "putting", "making").
/// "I will be tagging the new release", "I'll be individually reviewing each PR": the
/// speaker's work under way then, at `k` past "be" (an adverb in "-ly" may come first): a verb
/// of the work list, or any verb with a thing after it ("the", "each"; not "my birthday"), and
/// not how the speaker goes or is ("running late", `lexicon/en/not_busy_ing.txt`). The number
/// of words to pass over to the verb.
fn busy_after_be(m: &Msg, k: usize) -> Option<usize> {
    let ly = usize::from(m.w(k).ends_with("ly") && !m.has_f(k, EN_VERB));
    let (w, next) = (m.w(k + ly), m.w(k + ly + 1));
    let work = en_ing_verb(w) && next != "late";
    let any_verb = word_list!("en/determiner.txt").contains(&next)
        && lexicon::ing_bases(w)
            .iter()
            .any(|b| lexicon::wordnet_verb(b));
    ((work || any_verb) && !word_list!("en/not_busy_ing.txt").contains(&w)).then_some(ly)
}

fn en_ing_verb(w: &str) -> bool {
    lexicon::ing_bases(w).iter().any(|v| {
        word_classes()
            .get(v.as_str())
            .is_some_and(|f| f & EN_VERB != 0)
    })
}

/// A date, or "now" (`lexicon/en/immediate.txt`), at token `k`.
fn now_or_date(m: &Msg, k: usize) -> bool {
    m.has_f(k, DATE) || word_list!("en/immediate.txt").contains(&m.w(k))
}

/// Only a yes, fillers and greetings stand between the clause's start and `i` ("ok sir will
/// do…").
fn yes_before(m: &Msg, i: usize) -> bool {
    let from = m.bounds(i, false).start;
    from < i
        && (from..i).any(|k| m.has_f(k, AGREE))
        && (from..i).all(|k| m.has_f(k, AGREE | FILL | GREET))
}

/// "I'm ill", "feeling really ill": the words before "ill" at `i` say sickness, not "I'll"
/// written without its apostrophe.
fn sick_before(m: &Msg, i: usize) -> bool {
    let before = word_list!("en/ill_before.txt");
    let degree = word_list!("en/ill_degree.txt");
    let mut k = i;
    while k > 0 && degree.contains(&m.w(k - 1)) {
        k -= 1;
    }
    k > 0 && before.contains(&m.w(k - 1))
}

#[cfg(test)]
mod ing_tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn ing_forms_of_verbs_of_work() {
        for w in ["sending", "putting", "ordering", "making"] {
            assert!(en_ing_verb(w), "{w}");
        }
        for w in ["ing", "morning", "evening", "thing", "ႂႂing"] {
            assert!(!en_ing_verb(w), "{w}");
        }
    }

    proptest! {
        #[test]
        fn any_word_ending_in_ing_is_read_without_panic(w in "\\PC{0,12}ing") {
            let _ = en_ing_verb(&w);
        }
    }
}
