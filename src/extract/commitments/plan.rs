//! Plan: a heading and a list of what the speaker will do ("сегодня: добить смету, выставить
//! счёт", "план на сегодня:\n- доделать график", "today: finish the invites + call Brennan's").
//! Each item led by a verb is a promise of the speaker's, due on the item's own date, else on
//! the heading's ("сегодня", "завтра", "this week"), else with none. An item without a verb
//! is work in Russian under a day's heading ("сегодня: созвон с Ромашкой, КП для Колоса"); in
//! English only next to "then" ("brennan quote" alone names no work to track).

use super::*;

/// The findings of a message holding a plan, or `None` when it holds none (or no item in it
/// is work the speaker will do): then the other rules read it.
pub(super) fn plan(input: &MessageInput<'_>, m: &Msg, names: &NameIndex) -> Option<Vec<Finding>> {
    // "1. смета для Ромашки до обеда\n2. звонок в налоговую", "- drafting plan for thurs\n-
    // ringing the Rossiters today": a list with no heading is the speaker's plan all the same.
    let headless = heading(m).is_none() && listed(m.text);
    let (head, list_start) = if headless { (0..0, 0) } else { heading(m)? };
    let lang = input.lang.unwrap_or_else(|| Lang::detect(input.text));
    let head_text = m.text.get(head.clone()).unwrap_or("");
    // "план на день:", "plan for the day:": the day the plan is written.
    let the_day = || {
        let h = m.slice(head.clone());
        // Only the plan of the day itself: "план на следующий день" is another's.
        let words: Vec<&str> = (0..h.n()).map(|k| h.w(k)).collect();
        (1..=words.len())
            .any(|n| phrase_set!("plan_of_the_day.txt").contains(&words[words.len() - n..]))
            .then(|| Due {
                date: input.now.date_naive(),
                time: None,
            })
    };
    let head_due = crate::extract::dates::deadline(head_text, input.now, lang)
        .map(|(_, d)| {
            // "Thursday:" written on a Thursday heads that day's plan, not next week's (as a
            // weekday alone would be read in a sentence).
            let today = input.now.date_naive();
            let h = m.slice(head.clone());
            // The weekday alone, or with a word of plans ("Fri board:").
            let weekday_only = (0..h.n()).filter(|&k| h.has_f(k, DATE)).count() == 1
                && (0..h.n()).all(|k| {
                    h.has_f(k, DATE)
                        || word_list!("en/plan.txt").contains(&h.w(k))
                        || word_list!("ru/plan.txt").contains(&h.w(k))
                });
            if d.date == today + chrono::Duration::days(7) && weekday_only {
                Due { date: today, ..d }
            } else {
                d
            }
        })
        .or_else(the_day);
    let mut found = Vec::new();
    // The items named by their noun alone (Russian), by their place in `found`, and the noun.
    let mut named: Vec<(usize, String)> = Vec::new();
    let numbered = clauses::numbered(m.text);
    // A list with no heading is a day's plan when it says when or has the speaker's own future
    // in it: "- молоко\n- хлеб" is shopping, "1. протечка в ванной\n2. замок" a list of faults.
    let day_heading = names_a_day(m, &head)
        || headless
            && (!crate::extract::dates::find(m.text, input.now, lang).is_empty()
                || (0..m.n()).any(|k| {
                    m.verb(k)
                        .is_some_and(|v| matches!(v.form, Form::Fut1 | Form::Fut1Pl))
                        || m.w(k).starts_with("i'")
                }));
    let mut all: Vec<Range<usize>> = items(m.text, list_start);
    let owners = item_owners(m, &mut all, names, input.speaker);
    for (n, whole) in all.iter().cloned().enumerate() {
        let owner = match owners[n] {
            Owner::Label => continue,
            Owner::Of(id) => Some(id),
            Owner::Speaker => None,
        };
        // "Если кондёры придут — добью ещё Филипс": what a condition leads to is no promise.
        if after_condition(m, &all, n) {
            continue;
        }
        // "today: flu clinic list for Douglas, then the MDS trays": the item the next one
        // follows with "then" is work too, even named by its noun alone.
        // "finish the vivo + realme units, then …": what "+" adds is the item before's object.
        let added = n > 0
            && m.text
                .get(all[n - 1].end..whole.start)
                .is_some_and(|g| g.contains(['+', '&']));
        // "Keoni – Kapolei annual + load bank": what "+" adds to an item handed to someone is
        // theirs too, part of that item.
        if added && owner.is_none() && matches!(owners[n - 1], Owner::Of(_)) {
            continue;
        }
        let before_then = !added
            && all.get(n + 1).is_some_and(|next| {
                let part = m.slice(next.clone());
                // "…, then Hollis reception if time": a hope, and so is what leads to it.
                (0..part.n().min(2)).any(|k| word_list!("en/plan_then.txt").contains(&part.w(k)))
                    && !(0..part.n()).any(|k| part.has_f(k, COND))
            });
        let pieces = split_at_and(m, whole.clone());
        // "today I'm doing X and chasing Y": the date said once holds for both.
        let whole_due = (pieces.len() > 1)
            .then(|| {
                let t = m.text.get(whole.clone()).unwrap_or("");
                crate::extract::dates::deadline(t, input.now, lang).map(|(_, d)| d)
            })
            .flatten();
        let single = pieces.len() == 1;
        // "2) chase the kwinana PO, still nothing": in a numbered list what follows a comma
        // inside an item is read as an item only if a verb plainly leads it.
        let after_comma = numbered
            && n > 0
            && m.text
                .get(all[n - 1].end..whole.start)
                .is_some_and(|g| g.trim() == ",");
        for item in pieces {
            let part = m.slice(item.clone());
            let cx = ItemCx {
                day_heading,
                label: dashed(m, &all, n),
                head_due: head_due.or(whole_due),
                numbered: numbered && !after_comma,
                // "finish the vivo + realme units, then …": one item's second object is no
                // item of its own.
                before_then: before_then && single,
            };
            if let Some(id) = owner {
                // "3) Наташа — чехлы, как придёт ткань": asked only once something happens, so
                // not yet asked.
                let hoped = all.get(n + 1).is_some_and(|next| {
                    let next = m.slice(next.clone());
                    next.n() > 0
                        && (next.has_f(0, COND) || word_list!("plan_wait.txt").contains(&next.w(0)))
                });
                if hoped {
                    continue;
                }
                // "2) Bob - hoses": asked of Bob, whatever form the item takes.
                let made = plan_item(&part, input, lang, &cx)
                    .map(|(f, _)| f)
                    .or_else(|| named_item(&part, 0, input, lang, cx.head_due));
                if let Some(Finding::Made { content, due }) = made {
                    found.push(Finding::Request {
                        addressee: Some(id),
                        content,
                        due,
                    });
                }
                continue;
            }
            if let Some((f, head)) = plan_item(&part, input, lang, &cx) {
                if let Some(head) = head {
                    named.push((found.len(), head));
                }
                found.push(f);
                continue;
            }
            // An item the plan reader does not read ("сушилку №2 гляну": the object first) is
            // read by the other rules; a promise there is due by the heading's day.
            let sub = MessageInput {
                text: part.text,
                lang: Some(lang),
                ..input.clone()
            };
            for mut f in analyze_whole(&sub, &part, names) {
                // "2) March staff mtg agenda, will have it out by monday": the item's date.
                if after_comma
                    && let Finding::Accept { due: Some(d), .. } = f
                    && let Some(last) = found.last_mut()
                {
                    clauses::set_due(last, Some(d));
                    continue;
                }
                if matches!(f, Finding::Made { .. }) {
                    if f.due().is_none() {
                        clauses::set_due(&mut f, head_due.or(whole_due));
                    }
                    found.push(f);
                }
            }
        }
    }
    // "сегодня: сверка абонементов, обзвон клиентов. Сверку закончу до 14": an item named by
    // its noun that the message takes up again with a verb is that one promise.
    let taken_up: Vec<usize> = named
        .iter()
        .filter(|(i, head)| {
            let head = significant_stems(head);
            found.iter().enumerate().any(|(j, f)| {
                j != *i
                    && matches!(f, Finding::Made { content, .. }
                        if significant_stems(content).iter().any(|s| head.contains(s)))
            })
        })
        .map(|(i, _)| *i)
        .collect();
    let mut k = 0;
    found.retain(|_| {
        k += 1;
        !taken_up.contains(&(k - 1))
    });
    if found.is_empty() {
        return None;
    }
    // What is said before the heading ("всем доброе утро! ...", "ok crunch week") keeps its
    // own promises and reports, never an agreement to someone.
    let before = m.text.get(..head.start).unwrap_or("").trim();
    if !before.is_empty() {
        let sub = MessageInput {
            text: before,
            ..input.clone()
        };
        let pre = analyze_whole(&sub, &Msg::new(before), names);
        let mut pre: Vec<Finding> = pre
            .into_iter()
            .filter(|f| matches!(f, Finding::Made { .. } | Finding::Done { .. }))
            .collect();
        pre.append(&mut found);
        found = pre;
    }
    Some(found)
}

/// The heading names one day ("сегодня:", "на завтра:", "план на день:", "today:") and opens
/// its sentence: "Puttady today:" reports prices, "замеры сегодня:" gives others their work,
/// "план на неделю:" lists what happens to the team.
fn names_a_day(m: &Msg, head: &Range<usize>) -> bool {
    let first = m.toks.partition_point(|t| t.span.end <= head.start);
    let last = m.toks.partition_point(|t| t.span.end <= head.end);
    // "доброе) я сегодня:", "morning all, today:": a greeting and the speaker may come first.
    let mut from = first;
    while from > 0
        && m.sent_of(from - 1) == m.sent_of(first)
        && (m.has_f(from - 1, GREET) || word_list!("speaker.txt").contains(&m.w(from - 1)))
    {
        from -= 1;
    }
    let opens = from == 0 || m.sent_of(from - 1) != m.sent_of(from);
    opens
        && (first..last).any(|i| word_list!("plan_day.txt").contains(&m.w(i)))
        && !(first..last).any(|i| word_list!("plan_period.txt").contains(&m.w(i)))
}

/// Plan words written with a hyphen ("stand-up"): the tokens split them, so they are found in
/// the text before the colon.
fn hyphenated_heads() -> &'static [&'static str] {
    static LIST: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    LIST.get_or_init(|| {
        words(include_str!("../../../lexicon/en/plan.txt"))
            .chain(words(include_str!("../../../lexicon/ru/plan.txt")))
            .filter(|w| w.contains('-'))
            .collect()
    })
}

/// The message is a list and nothing else: its first line and at least one more open with a
/// bullet ("- ", "• ", "* ") or an item's number ("1. ", "2) ").
fn listed(text: &str) -> bool {
    let marked = |l: &str| {
        let t = l.trim_start();
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        ["- ", "• ", "* ", "– ", "— "]
            .iter()
            .any(|b| t.starts_with(b))
            || (1..=2).contains(&digits) && t.get(digits..).is_some_and(|r| r.starts_with(") "))
            || clauses::dotted_marker(l).is_some()
    };
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    lines.next().is_some_and(marked) && lines.filter(|l| marked(l)).count() >= 1
}

/// The byte range of the heading (its words up to the colon) and where its list starts.
fn heading(m: &Msg) -> Option<(Range<usize>, usize)> {
    // "план на день — 1) …": a dash before a numbered list or a new line heads it as a colon.
    let dashes = m.text.match_indices(['—', '–', '-']).filter(|&(at, d)| {
        let after = m.text.get(at + d.len()..).unwrap_or("");
        let spaced = m.text.get(..at).is_some_and(|b| b.ends_with(' '));
        let rest = after.trim_start_matches(' ');
        spaced
            && (rest.starts_with('\n')
                || rest.starts_with("1)")
                || rest.starts_with("1.") && rest.get(2..).is_some_and(|r| r.starts_with(' ')))
    });
    let mut marks: Vec<(usize, usize)> = m
        .text
        .match_indices(':')
        .map(|(at, c)| (at, c.len()))
        .chain(dashes.map(|(at, d)| (at, d.len())))
        .collect();
    marks.sort_unstable();
    for (colon, width) in marks {
        let raw = m.text.get(..colon).unwrap_or("").trim_end();
        let ends_with = |h: &&&str| {
            raw.len() >= h.len()
                && raw.is_char_boundary(raw.len() - h.len())
                && raw[raw.len() - h.len()..].eq_ignore_ascii_case(h)
        };
        if let Some(h) = hyphenated_heads().iter().find(ends_with) {
            return Some((raw.len() - h.len()..colon, colon + width));
        }
        // The words right before the colon, back to the first that cannot head a plan.
        let end = m.toks.partition_point(|t| t.span.end <= colon);
        if end == 0
            || !m
                .text
                .get(m.toks[end - 1].span.end..colon)?
                .trim()
                .is_empty()
        {
            continue;
        }
        let mut start = end;
        while start > 0
            && end - start < 5
            && m.has_f(start - 1, PLAN | PLAN_HEAD | DATE | PREP)
            && !m.has_f(start - 1, MONTH)
        {
            start -= 1;
            if start > 0 && m.sent_of(start - 1) != m.sent_of(start) {
                break;
            }
        }
        // "в 10:30", "re: invoice": a heading names a plan or a day.
        let keyed =
            (start..end).any(|i| m.has_f(i, PLAN) || (m.has_f(i, DATE) && !is_number(m.w(i))));
        if start == end || !keyed {
            continue;
        }
        // "за сегодня:", "за день:": what a day's work came to, a report, not a plan.
        if (start..end).any(|i| {
            word_list!("ru/report_of.txt").contains(&m.w(i)) && m.has_f(i + 1, DATE | PLAN)
        }) {
            continue;
        }
        // "Big week: Valley Plumbing starts drop-off Wed, …": a bare period described by the
        // word before it heads no plan ("this week:", "for this week:" do).
        if end - start == 1
            && word_list!("bare_period.txt").contains(&m.w(start))
            && start > 0
            && m.sent_of(start - 1) == m.sent_of(start)
            && m.clause_of(start - 1) == m.clause_of(start)
        {
            continue;
        }
        let from = m.toks[start].span.start;
        return Some((from..colon, colon + width));
    }
    None
}

/// The items of a list from `start` on: split at lines, bullets and dashes, commas, semicolons,
/// plus signs and sentence ends.
fn items(text: &str, start: usize) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut push = |a: usize, b: usize| {
        let s = text.get(a..b).unwrap_or("");
        let lead = s.len() - s.trim_start().len();
        let trail = s.len() - s.trim_end().len();
        if a + lead < b - trail {
            out.push(a + lead..b - trail);
        }
    };
    let rest = text.get(start..).unwrap_or("");
    let mut from = start;
    let mut chars = rest.char_indices().peekable();
    while let Some((k, c)) = chars.next() {
        let i = start + k;
        let next = chars.peek().map(|&(_, n)| n);
        // A line's "2. " numbers the item that follows and is no part of it.
        let line_start = i == 0 || text.get(..i).is_some_and(|b| b.ends_with('\n'));
        if line_start
            && text.get(from..i).unwrap_or("").trim().is_empty()
            && let Some(len) = clauses::dotted_marker(text.get(i..).unwrap_or(""))
        {
            from = i + len;
            while chars.peek().is_some_and(|&(j, _)| start + j < from) {
                chars.next();
            }
            continue;
        }
        let split = match c {
            '\n' | ',' | ';' | '+' | '!' | '?' | '•' | '—' | '–' => true,
            // A full stop that ends a sentence, not "6.5" or "т.е".
            '.' => next.is_none_or(char::is_whitespace),
            // A hyphen as a bullet ("- доделать") or between spaces (" - call"), not "6-НДФЛ".
            '-' => {
                text.get(from..i).unwrap_or("").trim().is_empty()
                    || next == Some(' ') && text.get(..i).is_some_and(|b| b.ends_with(' '))
            }
            // A number marking an item ("today: 1) finish the elevations 2) send the plan"):
            // the item ends before it, and the marker is no part of the next.
            ')' => {
                let before = text.get(from..i).unwrap_or("");
                let digits = before
                    .chars()
                    .rev()
                    .take_while(char::is_ascii_digit)
                    .count();
                let marker = (1..=2).contains(&digits)
                    && before[..before.len() - digits]
                        .chars()
                        .next_back()
                        .is_none_or(char::is_whitespace);
                if marker {
                    push(from, i - digits);
                    from = i + 1;
                }
                false
            }
            _ => false,
        };
        if split {
            push(from, i);
            from = i + c.len_utf8();
        }
    }
    push(from, text.len());
    out
}

/// Whose an item of a plan is.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Owner {
    /// The speaker's, as items are unless the plan names someone.
    Speaker,
    /// A teammate's: "1) дэн — вскрытие", "Vera: invoices".
    Of(i64),
    /// The name before a dash that says whose the next item is ("дэн" of "дэн — вскрытие").
    Label,
}

/// Whose each item of `all` is: an item that is only a teammate's name (or "я", "me") before a
/// dash gives the next item to them; an item opening with a name and a colon ("Bob: hoses") is
/// theirs, and its range is moved past the colon.
fn item_owners(m: &Msg, all: &mut [Range<usize>], names: &NameIndex, speaker: i64) -> Vec<Owner> {
    let mut owners = vec![Owner::Speaker; all.len()];
    let who = |t: &str| -> Option<(usize, i64)> {
        let t = t.trim_end();
        if word_list!("volunteer.txt").contains(&t.to_lowercase().as_str()) {
            return Some((t.len(), speaker));
        }
        match names.people_in(t).as_slice() {
            [(r, id), ..] if r.start == 0 => Some((r.end, *id)),
            _ => None,
        }
    };
    for n in 0..all.len() {
        let t = m.text.get(all[n].clone()).unwrap_or("");
        let Some((end, id)) = who(t) else { continue };
        let owner = if id == speaker {
            Owner::Speaker
        } else {
            Owner::Of(id)
        };
        let rest = &t[end..];
        if rest.trim().is_empty() {
            let dash = all.get(n + 1).is_some_and(|next| {
                m.text
                    .get(all[n].end..next.start)
                    .is_some_and(|g| g.contains(['—', '–']) || g.trim() == "-")
            });
            if dash {
                owners[n] = Owner::Label;
                owners[n + 1] = owner;
            }
        } else if let Some(after) = rest.trim_start().strip_prefix(':')
            && !after.trim().is_empty()
        {
            all[n].start = all[n].end - after.trim_start().len();
            owners[n] = owner;
        }
    }
    owners
}

/// One item as a promise: led (after its date words) by an infinitive or a 1st-person future
/// in Russian, by a verb in English.
/// What an item of a plan takes from the plan around it.
struct ItemCx {
    /// The heading names one day and opens its sentence ([`names_a_day`]).
    day_heading: bool,
    /// The item is followed by a dash or a colon, or follows a condition and a dash: a label
    /// of what comes next ("солнечный кв 45 — вешаем"), or what a hope leads to ("если успеем
    /// — ещё вакуум").
    label: bool,
    /// The date the heading (or the whole item) gives.
    head_due: Option<Due>,
    /// The list is numbered ("1) … 2) …").
    numbered: bool,
    /// The next item opens with "then".
    before_then: bool,
}

/// With the item's noun when the item is named by it alone in Russian (its verb unsaid).
fn plan_item(
    part: &Msg,
    input: &MessageInput<'_>,
    lang: Lang,
    cx: &ItemCx,
) -> Option<(Finding, Option<String>)> {
    let (head_due, numbered) = (cx.head_due, cx.numbered);
    // Date words are skipped only where a date is ("tmrw the stock count"), not where a word
    // of one means something else ("PM on the walk-in": preventive maintenance).
    let dates = crate::extract::dates::find(part.text, input.now, lang);
    let in_date = |k: usize| {
        let t = &part.toks[k].span;
        dates
            .iter()
            .any(|f| t.start >= f.span.start && t.end <= f.span.end)
    };
    let mut v = 0;
    while v < part.n()
        && (part.has_f(v, PREP | FILL)
            // "в 12 собеседую": a number read as a time is a date's word too.
            || in_date(v)
            || is_number(part.w(v)) && v > 0 && part.has_f(v - 1, PREP)
            || word_list!("en/plan_then.txt").contains(&part.w(v))
            || word_list!("en/plan_and.txt").contains(&part.w(v))
            // "в 12 и в 15 собеседую двух барберов": two times joined.
            || word_list!("date_and.txt").contains(&part.w(v)) && part.has_f(v + 1, DATE | PREP))
        && part.verb(v).is_none()
    {
        v += 1;
    }
    // "today I'm doing the stock count": the speaker and the auxiliary before the -ing verb.
    if word_list!("en/we_are.txt").contains(&part.w(v)) {
        v += 1;
    } else if word_list!("en/subj.txt").contains(&part.w(v))
        && word_list!("en/am_are.txt").contains(&part.w(v + 1))
    {
        v += 2;
    }
    if v >= part.n() || part.question.iter().any(|&q| q) {
        return None;
    }
    let word = part.w(v);
    let verb = match part.verb(v) {
        Some(Verb {
            form: Form::Inf, ..
        }) => Some((v, word)),
        Some(Verb {
            form: Form::Fut1 | Form::Fut1Pl,
            inf,
            aux: false,
            ..
        }) => Some((v, inf)),
        Some(_) => None,
        None if is_infinitive(word) && !part.has_f(v, STOP) => Some((v, word)),
        // "drop the clippers at Blade Sharp", "swing by Gulf Coast Parts for the compressor":
        // verbs of errands that say little elsewhere ("drop it") lead an item of a plan.
        None if lang == Lang::En
            && word_list!("en/plan_verbs.txt").contains(&word)
            && (part.has_f(v + 1, DETERMINER | PREP) || part.capital(v + 1)) =>
        {
            Some((v, word))
        }
        // "сегодня: добиваю глоссарий", "вешаем 9ку в спальню": in a day's plan the speaker's
        // present is that day's work.
        // Not a name the dictionary holds: "Пашу на фальцовке поучить" teaches Pasha.
        None if lang == Lang::Ru
            && cx.day_heading
            && !part.has_f(v, STOP | NONWORK)
            && !(part.capital(v) && crate::morph::proper_name_form(word)) =>
        {
            crate::morph::first_person_verb_lemma(word)
                .filter(|inf| !word_list!("ru/plan_not_work.txt").contains(&inf.as_str()))
                .map(|inf| (v, lexicon::intern(inf)))
        }
        None if part.has_f(v, EN_VERB) && !part.has_f(v, STOP | NONWORK) => Some((v, word)),
        // "get the yard truck inspected", "have the deck finished": work to have done.
        None if numbered
            && word_list!("en/have_done.txt").contains(&word)
            && part.has_f(v + 1, DETERMINER) =>
        {
            Some((v, word))
        }
        // "today fixing the printer": the -ing form of a verb the list holds.
        None if !part.has_f(v, STOP | NONWORK) && ing_of_verb(word) => Some((v, word)),
        // "drench the heifers", "retrain Ravi": an English word before an object is its verb;
        // in a numbered list, before any word of content ("1) sanitise tanks 3 and 4").
        // Read so by its place only, it must not be followed by a statement's auxiliary
        // ("2) Spices Board audit has moved"), and in a numbered list it must be a verb
        // ("4) Xmas bonus…", "1) VdB container…").
        None if word.chars().all(|c| c.is_ascii_lowercase())
            && !part.has_f(v, STOP | DATE | NONWORK)
            && !(v + 1..part.n())
                .any(|k| word_list!("en/statement_aux.txt").contains(&part.w(k)))
            // "Wed Permata Bank lunch 300 pax": a name of two capitalised words is no verb.
            && (!part.capital(v) || !part.capital(v + 1) || lexicon::wordnet_verb(word))
            && (part.has_f(v + 1, DETERMINER)
                || numbered
                    && lang == Lang::En
                    && lexicon::wordnet_verb(word)
                    && !word.ends_with("ed")
                    && !part.w(v + 1).ends_with("ed")
                    && part.w(v + 1).chars().all(|c| c.is_ascii_lowercase())
                    && part.w(v + 1).len() >= 3
                    && !part.has_f(v + 1, STOP | PREP | DATE | PRON | NUMW)
                || part.capital(v + 1)) =>
        {
            Some((v, word))
        }
        None => None,
    };
    // "План на сегодня: 1) договор Лебедевым отправить 2) Кузнецовых пригласить на приёмку":
    // a Russian item may name its object first and its infinitive after; nothing said before
    // the infinitive tells or promises on its own.
    let verb = verb.or_else(|| {
        if lang != Lang::Ru || !cx.day_heading {
            return None;
        }
        let k = (v + 1..part.n()).find(|&k| {
            part.verb(k).is_some() || is_infinitive(part.w(k)) && !part.has_f(k, STOP)
        })?;
        let infinitive = match part.verb(k) {
            Some(Verb {
                form: Form::Inf, ..
            }) => true,
            Some(_) => false,
            None => !crate::morph::finite_verb(part.w(k)),
        };
        (infinitive
            && !word_list!("ru/plan_not_work.txt").contains(&part.w(k))
            && !(v..k).any(|j| {
                crate::morph::finite_verb(part.w(j))
                    && !(part.capital(j) && crate::morph::proper_name_form(part.w(j)))
                    || part.has_f(j, COND | NONWORK | PRON)
            }))
        .then(|| (k, part.w(k)))
    });
    // "today: prep the SEC rig, then the cable audit": after "then" a job may be named by its
    // noun alone.
    let after_then = (0..v).any(|k| word_list!("en/plan_then.txt").contains(&part.w(k)))
        && v > 0
        && (part.has_f(v - 1, DETERMINER)
            || word_list!("en/plan_then.txt").contains(&part.w(v - 1)));
    // "today: 1) Ingram order for the reading … 3) roster for next wk": a numbered item of a
    // day's plan named by its noun is work too, unless the guards below find a statement in it.
    let numbered_noun = cx.numbered && cx.day_heading;
    let nominal = verb.is_none()
        && lang == Lang::En
        && (after_then || cx.before_then && part.n() - v >= 2 || numbered_noun)
        && !word_list!("en/plan_events.txt").contains(&part.w(v))
        && !part.has_f(v, STOP | NONWORK | PRON)
        && !(part.has_f(v, DATE) && in_date(v))
        // "then Hollis reception if time": a hope, not a plan.
        && !(0..part.n()).any(|k| part.has_f(k, COND))
        // "then the aircon guy comes at 2pm": a thing that happens, not work of the speaker's.
        && !(v + 1..part.n()).any(|k| {
            let w = part.w(k);
            word_list!("en/statement_aux.txt").contains(&w)
                || w.len() > 3
                    && w.strip_suffix('s').is_some_and(|stem| {
                        word_classes().get(stem).is_some_and(|f| f & EN_VERB != 0)
                            || lexicon::wordnet_verb(stem)
                    })
        });
    // "сегодня: чистка головы на DTF + тестовые отпечатки", "сегодня: 1) созвон с Ветбиохимом
    // 2) КП для Колоса": under a day's heading a Russian item named by its noun alone is the
    // speaker's work that day, unless it has a verb of its own ("Саня нарежет уголок"), a
    // name ("Тёма ВИЗ"), a clock time ("в 15:00 дегустация"), someone it is with ("меню в
    // работе у Кости"), is a label of what follows ("кв 45 — вешаем 9ку"), or names no work
    // ("выходной").
    let noun_alone = !nominal
        && verb.is_none()
        && lang == Lang::Ru
        && cx.day_heading
        && !part.has_f(v, STOP | DATE | NONWORK | PRON | PREP)
        && (crate::morph::nominative_noun_or_adjective(word)
            // "1) Смета для Ромашки": an item's first word has its capital as a sentence's
            // does; a name ("Тёма ВИЗ") is no work.
            && (!part.capital(v) || v == 0 && !crate::morph::proper_name_form(word))
            || super::analysis::abbreviation(part.written(v)))
        && !cx.label
        && !(v..part.n()).any(|k| part.w(k) == "у")
        && !word_list!("ru/plan_not_work.txt").contains(&word)
        && !(0..v).any(|k| part.w(k).contains(|c: char| c.is_ascii_digit()))
        && !(v..part.n()).any(|k| {
            part.verb(k).is_some() || crate::morph::finite_verb(part.w(k)) || part.has_f(k, COND)
        });
    if nominal || noun_alone {
        let head = noun_alone.then(|| word.to_string());
        return named_item(part, v, input, lang, head_due).map(|f| (f, head));
    }
    let verb = verb?;
    let own = crate::extract::dates::deadline(part.text, input.now, lang);
    let span = own.as_ref().map(|(s, _)| s.clone());
    let (content, obj) = content(part, v..part.n(), Some(verb), &[], span.as_ref());
    if !obj || content.is_empty() {
        return None;
    }
    let due = item_due(part, own, head_due);
    Some((Finding::Made { content, due }, None))
}

/// An item named by what it is (from token `from` on, no verb read): its words, due on its own
/// date or the heading's.
fn named_item(
    part: &Msg,
    from: usize,
    input: &MessageInput<'_>,
    lang: Lang,
    head_due: Option<Due>,
) -> Option<Finding> {
    let own = crate::extract::dates::deadline(part.text, input.now, lang);
    let span = own.as_ref().map(|(s, _)| s.clone());
    let (content, _) = content(part, from..part.n(), None, &[], span.as_ref());
    if content.is_empty() {
        return None;
    }
    let due = item_due(part, own, head_due);
    Some(Finding::Made { content, due })
}

/// An item's date: its own, else the heading's. A day named in the possessive ("today:
/// reconcile Saturday's takings") names whose thing it is, not when the work is done, when the
/// heading gives a day.
fn item_due(part: &Msg, own: Option<(Range<usize>, Due)>, head_due: Option<Due>) -> Option<Due> {
    match own {
        // "сегодня: 1) составлю график вождения на след неделю": the week is the schedule's,
        // the day is the heading's.
        Some((span, _))
            if head_due.is_some()
                && (part
                    .text
                    .get(span.clone())
                    .is_some_and(|t| t.ends_with("'s") || t.ends_with("’s"))
                    || crate::extract::dates::period_of_a_noun(part.text, &span)
                    // "today: call back all the weekend reservations": which ones, not when.
                    || crate::extract::dates::attributive(part.text, &span)) =>
        {
            head_due
        }
        Some((_, d)) => Some(d),
        None => head_due,
    }
}

/// Item `n` of `all` is followed by a dash or a colon, or follows a dash after an item with a
/// condition.
fn dashed(m: &Msg, all: &[Range<usize>], n: usize) -> bool {
    let dash = |g: &str| g.contains(['—', '–', ':']) || g.contains(" - ");
    let after = all
        .get(n + 1)
        .and_then(|next| m.text.get(all[n].end..next.start))
        .is_some_and(dash);
    after || after_condition(m, all, n)
}

/// Item `n` of `all` follows a dash after an item with a condition ("если успеем — ещё вакуум").
fn after_condition(m: &Msg, all: &[Range<usize>], n: usize) -> bool {
    let dash = |g: &str| g.contains(['—', '–', ':']) || g.contains(" - ");
    n > 0 && m.text.get(all[n - 1].end..all[n].start).is_some_and(dash) && {
        let prev = m.slice(all[n - 1].clone());
        (0..prev.n()).any(|k| prev.has_f(k, COND))
    }
}

/// An item "doing the stock count and chasing Royal Mail" cut before each "and" that opens
/// another -ing verb: two pieces of work. So is "корсет ушью и подол подрежу" at its "и".
fn split_at_and(m: &Msg, r: Range<usize>) -> Vec<Range<usize>> {
    let item = m.text.get(r.clone()).unwrap_or("");
    let mut out = Vec::new();
    let mut from = 0;
    for (k, _) in item.match_indices(" and ") {
        let next = item[k + 5..].split_whitespace().next().unwrap_or("");
        if ing_of_verb(&next.to_ascii_lowercase()) {
            out.push(r.start + from..r.start + k);
            from = k + 5;
        }
    }
    if from == 0 && item.contains(" и ") {
        let part = m.slice(r.clone());
        for k in 0..part.n() {
            if part.w(k) == "и" && clauses::parallel_ru(&part, k) {
                let at = part.toks[k].span.clone();
                out.push(r.start + from..r.start + at.start);
                from = at.end;
            }
        }
    }
    out.push(r.start + from..r.end);
    out
}

/// "fixing", "making", "chasing", "running": an -ing form whose verb is in the English list.
fn ing_of_verb(word: &str) -> bool {
    let Some(stem) = word.strip_suffix("ing").filter(|s| s.len() >= 2) else {
        return false;
    };
    let known = |w: &str| word_classes().get(w).is_some_and(|f| f & EN_VERB != 0);
    let doubled = {
        let b = stem.as_bytes();
        b.len() >= 3 && b[b.len() - 1] == b[b.len() - 2]
    };
    known(stem) || known(&format!("{stem}e")) || doubled && known(&stem[..stem.len() - 1])
}
