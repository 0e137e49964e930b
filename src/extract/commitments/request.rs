//! Request: the speaker asks or assigns someone to do something ("Дима, сделаешь?",
//! "подготовь КП"), and questions that offer ("мне взять?").

use super::*;

/// Request cues: the token index where the asked action starts.
pub(super) fn request_cue(m: &Msg) -> Option<usize> {
    request_cue_as(m, false)
}

/// [`request_cue`], reading an English imperative without a date or a "please" too when the
/// message was `answered` with a yes.
fn request_cue_as(m: &Msg, answered: bool) -> Option<usize> {
    for i in 0..m.n() {
        let w = m.w(i);
        if en_imperative(m, i, answered) {
            return Some(i);
        }
        if let Some(v) = m.verb(i) {
            let asks = match v.form {
                Form::Imp => !m.negated(i),
                Form::Fut2 => m.is_q(i) || (i > 0 && m.w(i - 1) == "ты"),
                _ => false,
            };
            if asks {
                return Some(i);
            }
        }
        match w {
            "забудь" | "забудьте" if i > 0 && m.w(i - 1) == "не" => {
                if let Some(k) = (i + 1..(i + 3).min(m.n())).find(|&k| is_infinitive(m.w(k))) {
                    return Some(k);
                }
                // "не забудь про отчёт": the reminder names the thing.
                if matches!(m.w(i + 1), "про" | "о" | "об") {
                    return Some(i + 2);
                }
            }
            "make" if m.w(i + 1) == "sure" && m.clause_start(i) => return Some(i + 2),
            // "Paddy you're driving Troy then, 6am Thursday": work handed out with its date.
            "you're" | "youre" | "you’re"
                if ing_of_any_verb(m.w(i + 1))
                    && m.w(i + 1) != "going"
                    // An object follows ("driving Troy"), not how it goes ("running late").
                    && (m.has_f(i + 2, DETERMINER)
                        || m.capital(i + 2)
                        || !m.w(i + 2).is_empty()
                            && !m.has_f(i + 2, STOP | DATE | PREP | FILL | NONWORK)
                            && !word_list!("en/how_it_goes.txt").contains(&m.w(i + 2)))
                    && !m.is_q(i)
                    && m.bounds(i, true).any(|k| m.has_f(k, DATE)) =>
            {
                return Some(i + 1);
            }
            _ if (word_list!("ru/await.txt").contains(&w) || en_await(m, i))
                && !m.negated(i)
                && (m.bounds(i, false).any(|k| m.has_f(k, DATE)) || called_awaits(m, i)) =>
            {
                return Some(i);
            }
            _ if can_you(w) || matches!(w, "мог" | "могла" | "могли") => {
                // "когда сможешь в Уралтрансе ИБП поменять?": the work may come late in the clause.
                // So may it in a question ("сможешь 100 кг лопатки обвалить до обеда?").
                let end = if i > 0 && m.w(i - 1) == "когда" || m.is_q(i) {
                    m.bounds(i, false).end
                } else {
                    (i + 4).min(m.n())
                };
                if let Some(k) = (i + 1..end).find(|&k| is_infinitive(m.w(k))) {
                    return Some(k);
                }
            }
            "could" | "can" | "would" | "will" if matches!(m.w(i + 1), "you" | "u" | "y'all") => {
                let k = if matches!(m.w(i + 2), "mind" | "please" | "pls") {
                    i + 3
                } else {
                    i + 2
                };
                return Some(k);
            }
            // "Luis can your crew take 6 tmrw?": asked of the one called, for their people.
            "could" | "can" | "will"
                if m.w(i + 1) == "your"
                    && m.is_q(i)
                    && (m.has_f(i + 3, EN_VERB)
                        // "Tran, can your crew stay til 8?"
                        || word_list!("en/crews.txt").contains(&m.w(i + 2))
                            && lexicon::wordnet_verb(m.w(i + 3))
                            && !m.has_f(i + 3, NEED | STOP | DATE)
                            && !word_list!("en/modal.txt").contains(&m.w(i + 3))) =>
            {
                return Some(i + 3);
            }
            // "Neha, can we send the December invoice by Friday?": a "we" asked of the one
            // called by name is asked of them.
            "can" | "could"
                if m.w(i + 1) == "we"
                    && m.is_q(i)
                    && i == 1
                    // "Wade can we get…": the name without its comma.
                    && (m.clause_start(i)
                        || !m.has_f(0, EN_VERB | PRON | SUBJ | STOP | FILL | GREET | AGREE))
                    && m.capital(0)
                    && (m.has_f(i + 2, EN_VERB)
                        // "Brooke could we also get a quote…?"
                        || word_list!("en/also.txt").contains(&m.w(i + 2))
                            && m.has_f(i + 3, EN_VERB)) =>
            {
                return Some(if m.has_f(i + 2, EN_VERB) {
                    i + 2
                } else {
                    i + 3
                });
            }
            // "can gary take my yorkton load?": asked of someone named, whoever it is put to.
            "can" | "could"
                if m.is_q(i)
                    && m.w(i + 1).chars().count() >= 3
                    && m.w(i + 1).chars().all(char::is_alphabetic)
                    && !m.has_f(
                        i + 1,
                        PRON | STOP | DATE | FILL | GREET | AGREE | EN_VERB | SUBJ | NUMW,
                    )
                    && m.has_f(i + 2, EN_VERB) =>
            {
                return Some(i + 2);
            }
            "need" if m.w(i + 1) == "you" && m.w(i + 2) == "to" => return Some(i + 3),
            // "Is it possible to release a new version?", "would it be possible to add CSV?":
            // asked of whoever can.
            "possible"
                if m.is_q(i)
                    && m.w(i + 1) == "to"
                    && m.has_f(i + 2, EN_VERB)
                    && !word_list!("en/asker_verbs.txt").contains(&m.w(i + 2))
                    && (i.saturating_sub(3)..i).any(|k| m.w(k) == "it" || m.w(k) == "it's") =>
            {
                return Some(i + 2);
            }
            // "Any chance you could add CSV export?"
            "chance"
                if m.is_q(i)
                    && matches!(m.w(i + 1), "you" | "u")
                    && matches!(m.w(i + 2), "could" | "can")
                    && m.has_f(i + 3, EN_VERB)
                    && !word_list!("en/asker_verbs.txt").contains(&m.w(i + 3)) =>
            {
                return Some(i + 3);
            }
            // "Kwabena, when can the pellet mill be back up?": asked when a thing of the one
            // called will be in order.
            "when"
                if matches!(m.w(i + 1), "can" | "will" | "could")
                    && m.is_q(i)
                    && m.has_f(i + 2, DETERMINER)
                    && (i + 3..(i + 7).min(m.n())).any(|k| m.w(k) == "be" && k + 1 < m.n()) =>
            {
                return Some(i + 2);
            }
            // "Gaz when the Snap-on van comes Thursday ask him about leasing the tablet", "when
            // you're at Richardson tomorrow ask them about the spring rates": after a clause of
            // when, with no comma, the verb that works on someone or something opens the ask.
            "when" | "once" if !m.is_q(i) && when_then_ask(m, i).is_some() => {
                return when_then_ask(m, i);
            }
            // "Dusty when you can do the Hawaii Kai annual?", "Kezia when you could have the
            // numbers?": asked when, the words in the order of a statement.
            "you" | "u"
                if i > 0
                    && m.w(i - 1) == "when"
                    && m.is_q(i)
                    && matches!(m.w(i + 1), "can" | "could")
                    && m.has_f(i + 2, EN_VERB) =>
            {
                return Some(i + 2);
            }
            // "you right to take the isuzu in for its WOF on wednesday?", "are you ok to cover
            // Sat?": asked whether the one called is fit to, asked to.
            "you" | "u"
                if m.is_q(i)
                    && word_list!("en/you_ok.txt").contains(&m.w(i + 1))
                    && m.w(i + 2) == "to"
                    && m.has_f(i + 3, EN_VERB) =>
            {
                return Some(i + 3);
            }
            // "Chef, Permata Bank asking if we can add 30 vegetarian boxes for tomorrow lunch,
            // can?": the ask passed on, put with a bare "can?".
            "can"
                if i > 0
                    && m.is_q(i)
                    && m.clause_start(i)
                    && m.bounds(i, false).end == i + 1
                    && let Some(work) = relayed_work(m, 0..i) =>
            {
                return Some(work.start);
            }
            // "Faizal the lorry aircond rosak again, can send it for service before Saturday?":
            // Malaysian and Singapore English ask without the "you".
            "can" | "could"
                if m.clause_start(i)
                    && m.is_q(i)
                    && m.has_f(i + 1, EN_VERB)
                    && !m.has_f(i + 1, PRON | SUBJ) =>
            {
                return Some(i + 1);
            }
            _ => {}
        }
    }
    None
}

/// An English past form: regular ("cleaned") or irregular and unlike its verb ("sent";
/// `lexicon/en/irregular.txt`, `lexicon/en/told_pasts.txt`).
fn past_form(w: &str) -> bool {
    super::made::participle(w)
        || crate::extract::report::en_irregular_past_unlike_base(w)
        || word_list!("en/told_pasts.txt").contains(&w)
}

/// A verb of the full English word list right before what it works on ("service the Mikano"):
/// not a need, a modal, an auxiliary or a word that names no work ("can the…", "need the…").
pub(super) fn wide_en_verb(m: &Msg, k: usize) -> bool {
    wide_en_verb_as(m, k, false)
}

/// [`wide_en_verb`]; when the message was `answered` with a yes, before an amount ("buy 400L")
/// or a pronoun of the thing ("pay it") too. A bare noun is not enough: "Site recce at Kukas"
/// names a visit with a noun that is also a verb.
fn wide_en_verb_as(m: &Msg, k: usize, answered: bool) -> bool {
    let w = m.w(k);
    // "swing by the Ballito site", "head over to the depot": a particle may stand between.
    let det = |j: usize| word_list!("en/determiner.txt").contains(&m.w(j));
    // Opening the message ("Buy 400L, …", "Yes pay it today"): "…, launch chaos 😵 tomorrow?"
    // and "…, bank reco is pending" are no orders.
    let opening = (0..k).all(|j| m.has_f(j, AGREE | APPROVE | PLEASE));
    let thing = |j: usize| {
        let x = m.w(j);
        answered
            && opening
            && !word_list!("en/statement_aux.txt").contains(&m.w(j + 1))
            // "Buy 400L", "order 20kg": an amount with its unit ("Truck 2", "Room 12" are labels).
            && (x.starts_with(|c: char| c.is_ascii_digit())
                && x.chars().any(|c| c.is_ascii_alphabetic())
                || word_list!("en/object_pron.txt").contains(&x)
                    // "Saw them at the depot", "Found it": a past told.
                    && (m.has_f(k, EN_VERB) || !past_form(w)))
    };
    let particle = word_list!("en/particles.txt").contains(&m.w(k + 1));
    !m.has_f(k, NEED)
        && (det(k + 1)
            || thing(k + 1)
            || particle && (det(k + 2) || m.w(k + 2) == "to" && det(k + 3)))
        && !word_list!("en/not_work.txt").contains(&w)
        && !word_list!("en/modal.txt").contains(&w)
        && !word_list!("en/statement_aux.txt").contains(&w)
        && lexicon::wordnet_verb(w)
}

/// An English verb of work opening its clause, or after a "please" that opens it, in a sentence
/// that says please or by when: "Please send me the invoice by Friday", "send the deck over by
/// fri pls". Not "Do you have…" (a question's helper before its subject) nor the wishes of
/// `lexicon/en/wish_verbs.txt` ("have a good weekend", "take care").
fn en_imperative(m: &Msg, i: usize, answered: bool) -> bool {
    // Asked of every word: the flag first, the lists only for a verb of work — or for a verb of
    // the full word list before what it works on ("service the Mikano on Saturday").
    // "Yes pay it today pls", "ok send them": a yes to a question, then what to do.
    let after_yes = i > 0 && (0..i).all(|k| m.has_f(k, AGREE | APPROVE));
    // "also get a copy of their fire NOC": a word adding to what was said before, then the ask.
    let after_also =
        i > 0 && m.clause_start(i - 1) && word_list!("en/also_lead.txt").contains(&m.w(i - 1));
    let starts = m.clause_start(i) || after_yes || after_also;
    let pleased = i > 0 && m.has_f(i - 1, PLEASE);
    if !(m.has_f(i, EN_VERB) || (starts || pleased) && wide_en_verb_as(m, i, answered)) {
        return false;
    }
    let (w, next) = (m.w(i), m.w(i + 1));
    let wish = word_list!("en/wish_verbs.txt")
        .iter()
        .any(|e| match e.split_once('_') {
            Some((a, b)) => a == w && b == next,
            None => *e == w,
        });
    if wish {
        return false;
    }
    // "Ty pls fix the bracket by thurs": a name called first, then please, still opens it.
    let called = |k: usize| {
        m.clause_start(k) && m.capital(k) && !m.has_f(k, EN_VERB | PRON | SUBJ | PLEASE | DATE)
    };
    let opens = starts
        || i > 0 && m.has_f(i - 1, PLEASE) && (m.clause_start(i - 1) || i > 1 && called(i - 2));
    // "push to monday?": a bare verb asked is a proposal, not an order.
    if !opens || m.is_q(i) || word_list!("en/persons.txt").contains(&next) {
        return false;
    }
    // "load bank report I'll put up tmrw": the speaker's own "I'll" in the clause makes the
    // word a thing's name, fronted before the promise.
    if (i + 1..m.bounds(i, false).end).any(|k| clauses::says_i_will(m, k..k + 1)) {
        return false;
    }
    answered || m.bounds(i, true).any(|k| m.has_f(k, PLEASE | DATE))
}

/// "кто возьмёт?", "can someone…", "нужен акт к пятнице": a request to whoever answers.
pub(super) fn open_request_cue(cx: &Ctx) -> Option<usize> {
    let m = cx.m;
    for i in 0..m.n() {
        let (w, a) = (m.w(i), m.w(i + 1));
        match w {
            "кто" | "кто-нибудь" | "кто-то" => {
                let mut k = if a == "нибудь" || a == "то" {
                    i + 2
                } else {
                    i + 1
                };
                // "кто завтра примет машину?": the day may come before the verb ("кто завтра
                // едет мимо Авиастара? надо забрать…" asks for what is needed, said after).
                let needed = (0..m.n()).any(|j| m.has_f(j, NEED));
                // "кто в субботу выйдет?": with its preposition.
                while !needed
                    && k < (i + 4).min(m.n())
                    && (m.has_f(k, DATE) || m.has_f(k, PREP) && m.has_f(k + 1, DATE))
                {
                    k += 1;
                }
                let n = m.w(k);
                if matches!(n, "может" | "сможет" | "возьмет" | "возьмется" | "займется")
                    || (n.ends_with("ет") || n.ends_with("ит")) && m.is_q(k) && n != "знает"
                {
                    return Some(k + 1);
                }
            }
            // "разгрузить будет кому?", "пушку забрать кому?": who is there to do it.
            "кому"
                if m.is_q(i)
                    && (matches!(a, "будет" | "есть")
                        || i > 0 && matches!(m.w(i - 1), "будет" | "есть")) =>
            {
                let sentence = m.bounds(i, true);
                if let Some(v) = sentence.clone().find(|&k| {
                    m.verb(k)
                        .is_some_and(|v| v.form == Form::Inf && !v.aux && !m.negated(k))
                }) {
                    return Some(v);
                }
            }
            "can" | "could" | "would"
                if matches!(a, "someone" | "anyone" | "somebody" | "anybody") =>
            {
                return Some(i + 2);
            }
            "who"
                if matches!(a, "can" | "could" | "will" | "wants")
                    && !(i > 0 && word_list!("en/find_out.txt").contains(&m.w(i - 1))) =>
            {
                return Some(i + 2);
            }
            _ => {}
        }
        if m.has_f(i, NEED)
            && !(i > 0 && matches!(m.w(i - 1), "мне" | "не" | "i" | "бы" | "если" | "if"))
            // "I'll fix it by tuesday, need a new slider": a need with no one named after the
            // speaker's own promise is the speaker's, for that work.
            && !(m.bounds(i, false).start == i
                && (0..i).any(|k| {
                    m.sent_of(k) == m.sent_of(i)
                        && (m.verb(k).is_some_and(|v| matches!(v.form, Form::Fut1 | Form::Fut1Pl))
                            || clauses::says_i_will(m, k..k + 1))
                }))
            && m.w(i + 1) != "бы"
            // "…, там пересчитать надо.": the need closes a remark; what is needed follows it,
            // or its clause says by when ("…, рулон. до среды надо").
            && (i + 1 < m.bounds(i, false).end || m.bounds(i, false).any(|k| m.has_f(k, DATE)))
            && cx.has_date()
        {
            return Some(i + 1);
        }
    }
    None
}

pub(super) fn addressee(cx: &Ctx, cue: usize) -> Option<(i64, Vec<usize>)> {
    let m = cx.m;
    let input = cx.input;
    let limit = m.toks.get(cue).map_or(m.text.len(), |t| t.span.start);
    let found = cx.names.people_in(m.text.get(..limit).unwrap_or(""));
    // Who is named, where, and is it a vocative (opening the message, before a comma, or an
    // @mention)?
    let mut candidates: Vec<(Range<usize>, i64)> = Vec::new();
    for (span, id) in found {
        if id == input.speaker {
            continue;
        }
        let first_tok = m.toks.iter().position(|t| t.span.start >= span.start);
        // Opening the message after a greeting, or a sentence of its own ("thx. Tyler pls…";
        // in "thx Daniel. Meg can you…" the thanks go to Daniel and the request to Meg).
        let opening = first_tok.is_some_and(|k| {
            (0..k).all(|j| m.has_f(j, GREET | AGREE) || m.w(j).is_empty())
                || k > 0 && m.sent_of(k) != m.sent_of(k - 1)
        });
        let at = span.start < m.text.len() && m.text.as_bytes().get(span.start) == Some(&b'@');
        // "…receipts for Priya, can you bring them in?": after a preposition a name is who the
        // thing is for, whatever follows it.
        let after_prep = first_tok.is_some_and(|k| k > 0 && m.has_f(k - 1, PREP));
        let comma_after = !after_prep
            && m.text
                .get(span.end..)
                .is_some_and(|r| r.trim_start().starts_with(','));
        // "can gary take my yorkton load?": the one asked whether they can.
        let asked_can = first_tok.is_some_and(|k| {
            k > 0
                && matches!(m.w(k - 1), "can" | "could")
                && m.toks.get(cue).is_some_and(|c| {
                    m.text
                        .get(span.end..c.span.start)
                        .is_some_and(|g| g.trim().is_empty())
                })
        });
        if opening || at || comma_after || asked_can {
            candidates.push((span, id));
        }
    }
    // The one called nearest before the request, in its sentence or the one before ("Лен,
    // отлично. Серёг, нужен замер… Когда сможешь?" asks Серёга); else the first one called.
    let cue_sent = m.sent_of(cue.min(m.n().saturating_sub(1)));
    let near = candidates.iter().rev().find(|(span, _)| {
        let k = m.toks.iter().position(|t| t.span.start >= span.start);
        match (k.and_then(|k| m.sent_of(k)), cue_sent) {
            (Some(a), Some(b)) => a <= b && b - a <= 1,
            _ => false,
        }
    });
    // Of the people one word may name ("Катя": Катя and Катерина), the first found.
    let near = near.and_then(|(span, _)| candidates.iter().find(|(s, _)| s == span));
    if let Some((span, id)) = near.or(candidates.first()) {
        let skip: Vec<usize> = (0..m.n())
            .filter(|&k| m.toks[k].span.start >= span.start && m.toks[k].span.end <= span.end)
            .collect();
        return Some((*id, skip));
    }
    input
        .mentions
        .iter()
        .copied()
        .find(|&id| id != input.speaker)
        .map(|id| (id, Vec::new()))
}

/// A word outside the lexicon shaped like a Russian imperative ("нарисуй", "подпишите"),
/// and not a word the dictionary knows as something else ("ключи", "книги" are nouns).
pub(super) fn ru_imperative_like(w: &str) -> bool {
    Lang::detect(w) == Lang::Ru
        && w.chars().count() > 4
        && ["ай", "яй", "ей", "уй", "юй", "йте", "ьте", "ите", "ь", "и"]
            .iter()
            .any(|e| w.ends_with(e))
        && !word_classes().contains_key(w)
        && !crate::morph::known_non_verb(w)
}

/// Tokens of a clause calling someone at the start of the sentence from `start` ("Дэн,",
/// "кстати, Ксюш,", "Василий Петрович,"): one to three capitalised words before a comma.
pub(super) fn opening_vocative(m: &Msg, start: usize) -> Vec<usize> {
    let mut k = start;
    while k < m.n() {
        let clause = m.bounds(k, false);
        if clause.clone().all(|j| m.has_f(j, FILL | GREET | AGREE)) {
            k = clause.end;
            continue;
        }
        let capital = |j: usize| m.capital(j);
        let comma_after = m
            .toks
            .get(clause.end.saturating_sub(1))
            .and_then(|t| m.text.get(t.span.end..))
            .is_some_and(|r| r.trim_start().starts_with(','));
        if clause.len() <= 3 && clause.end < m.n() && comma_after && clause.clone().all(capital) {
            return clause.collect();
        }
        break;
    }
    Vec::new()
}

/// Question words asking when, what, how or why rather than for the work itself.
/// "…с тебя", "…с вас": the thing before is put on the one called.
fn on_you(m: &Msg, i: usize) -> bool {
    m.w(i) == "с" && matches!(m.w(i + 1), "тебя" | "вас")
}

/// "I need the budget today", "I want your files by Tuesday": the speaker awaiting a thing
/// (`lexicon/en/await.txt`), not wanting to do something ("I want to finish by 5").
fn en_await(m: &Msg, i: usize) -> bool {
    i > 0
        && m.w(i - 1) == "i"
        && word_list!("en/await.txt").contains(&m.w(i))
        && m.w(i + 1) != "to"
        && !m.is_q(i)
}

/// The verb opening the ask after a clause of when that starts at `i` ([`request_cue`]): a
/// verb of work, two words or more on, right before an object ("ask him", "get the"), and
/// not after a subject or a modal (that verb is the clause of when's own: "when you get the
/// parts").
fn when_then_ask(m: &Msg, i: usize) -> Option<usize> {
    // Opening the message, or after a name or a yes.
    let lead = |k: usize| {
        m.has_f(k, AGREE | FILL)
            || matches!(m.w(k), "and" | "also")
            || m.capital(k) && !m.has_f(k, PRON | STOP | EN_VERB)
    };
    if !(0..i).all(lead) {
        return None;
    }
    let sent = m.sent_of(i);
    (i + 3..m.n())
        .take_while(|&k| m.sent_of(k) == sent)
        .find(|&k| {
            m.has_f(k, EN_VERB)
                && !m.has_f(k - 1, PRON | SUBJ | STOP)
                && !word_list!("en/modal.txt").contains(&m.w(k - 1))
                && m.w(k - 1) != "to"
                && (m.has_f(k + 1, DETERMINER)
                    || matches!(m.w(k + 1), "him" | "her" | "them" | "it" | "us"))
        })
}

/// "Priya I need a PO for the Brandt invoice": a name opening the sentence, then the speaker's
/// need, asks the one called for the thing, with no date said.
fn called_awaits(m: &Msg, i: usize) -> bool {
    en_await(m, i)
        && i >= 2
        && m.clause_start(i - 2)
        && m.capital(i - 2)
        && !m.has_f(
            i - 2,
            PRON | STOP | DATE | FILL | GREET | AGREE | EN_VERB | SUBJ | PREP,
        )
        && m.w(i + 1) != "it"
}

pub(super) fn wh_word(w: &str) -> bool {
    matches!(
        w,
        "как"
            | "где"
            | "когда"
            | "что"
            | "чего"
            | "чем"
            | "куда"
            | "зачем"
            | "почему"
            | "кто"
    )
}

/// "Галина Ивановна, сверку с Агрохим-Югом когда сможете?", "Макс, нужен план на декабрь.
/// Когда сможешь?": asking someone named when they can do a piece of work asks them to do it;
/// the work is what the sentence names before "когда", else what the message says is needed.
fn when_can_you(cx: &Ctx) -> Option<Finding> {
    let m = cx.m;
    // "когда сможешь?", and for the thing's being ready the thing may stand between: "когда
    // ботинки Сидоровой будут?".
    let (when, i) = (1..m.n()).find_map(|i| {
        // "Денис, смета когда?", "Hira salary sheet by when?": the question's last word asks
        // when the thing named before it will be.
        if m.is_q(i)
            && word_list!("when_last.txt").contains(&m.w(i))
            && m.bounds(i, true).end == i + 1
        {
            // From "by", "к какому": the words that ask when.
            let mut from = i;
            while from > 1
                && i - from < 3
                && (m.has_f(from - 1, PREP)
                    || word_list!("when_asked.txt").contains(&m.w(from - 1)))
            {
                from -= 1;
            }
            return Some((from, i));
        }
        if !m.is_q(i) || !word_list!("ru/when_can_you.txt").contains(&m.w(i)) {
            return None;
        }
        if m.w(i - 1) == "когда" {
            return Some((i - 1, i));
        }
        // "Тать Иванна, сверку с Ветбиохимом сможете сегодня?": asked whether by a date, the
        // work before is asked of them all the same.
        if can_you(m.w(i)) && (i + 1..m.bounds(i, true).end).any(|k| m.has_f(k, DATE)) {
            return Some((i, i));
        }
        let clause = m.bounds(i, false);
        word_list!("ru/being.txt")
            .contains(&m.w(i))
            .then(|| {
                (i.saturating_sub(5).max(clause.start)..i - 1)
                    .rev()
                    .find(|&k| m.w(k) == "когда")
            })
            .flatten()
            .map(|k| (k, i))
    })?;
    if (i + 1..m.bounds(i, false).end).any(|k| is_infinitive(m.w(k))) {
        return None;
    }
    // "Михалыч, когда ботинки будут?", "Тать Иванна, сверку сможете сегодня?": one called by a
    // name the team's list does not hold is asked all the same; whoever answers takes it on.
    let called = (1..=2.min(m.n().saturating_sub(1))).find(|&n| {
        (0..n).all(|k| m.capital(k) && !m.has_f(k, STOP | GREET | AGREE | PRON | DATE))
            && m.sent_of(n - 1) == m.sent_of(when)
            && m.text
                .get(m.toks[n - 1].span.end..)
                .is_some_and(|r| r.starts_with(','))
    });
    let (addr, mut skip) = match addressee(cx, when) {
        Some((id, skip)) => (Some(id), skip),
        None => match called {
            Some(n) => (None, (0..n).collect()),
            None => return None,
        },
    };
    let sentence = m.bounds(i, true);
    let names_work = |r: &Range<usize>, skip: &[usize]| {
        r.clone()
            .any(|k| !skip.contains(&k) && !m.has_f(k, STOP | FILL | GREET | AGREE | PRON | DATE))
    };
    let before = sentence.start..when;
    let between = (when + 1).min(i)..i;
    // "когда будет прайс на весну для хозяйств?": the thing after the verb of being.
    let after = i + 1..m.bounds(i, false).end;
    let being = word_list!("ru/being.txt").contains(&m.w(i));
    // "когда будет созвон?": asked when a thing happens, not for work.
    let event = |r: &Range<usize>| {
        r.clone()
            .find(|&k| !skip.contains(&k) && !m.has_f(k, STOP | FILL | GREET | AGREE | PRON))
            .is_some_and(|k| word_list!("ru/events.txt").contains(&m.w(k)))
    };
    if being && (event(&between) || between.is_empty() && event(&after)) {
        return None;
    }
    // "Дим, созвон когда?": when a thing happens, asked last, is no work either.
    let asked_last = word_list!("when_last.txt").contains(&m.w(i)) && sentence.end == i + 1;
    if asked_last && event(&(sentence.start..when)) {
        return None;
    }
    let range = if names_work(&before, &skip) {
        before
    } else if names_work(&between, &skip) {
        between
    } else if being && names_work(&after, &skip) {
        after
    } else if let Some(need) = (0..sentence.start).find(|&k| m.has_f(k, NEED)) {
        skip.push(need);
        let clause = m.bounds(need, false);
        if !names_work(&clause, &skip) {
            return None;
        }
        clause
    } else {
        // "Света, напомню: двор ждёт прайс на рассаду. Когда сможешь?": the sentence before
        // names the work — unless a question before already asked for it ("к Сафиным на замер
        // съездишь? это в Авиастроительном. когда сможешь?"), which the other rules read.
        if (0..sentence.start).any(|k| m.is_q(k)) {
            return None;
        }
        let prev = m.bounds(sentence.start.checked_sub(1)?, true);
        if !names_work(&prev, &skip) {
            return None;
        }
        prev
    };
    let (text, obj) = content(m, range, None, &skip, cx.due_span());
    (obj && !text.trim().is_empty()).then(|| Finding::Request {
        addressee: addr,
        content: text,
        due: cx.due(),
    })
}

pub(super) fn request(cx: &Ctx) -> Option<Finding> {
    let m = cx.m;
    if let Some(r) = when_can_you(cx) {
        return Some(r);
    }
    let mut cue = request_cue_as(m, cx.answered);
    let please = m.any_f(PLEASE);
    let mut vocative = m.text.trim_start().starts_with('@') || !cx.input.mentions.is_empty();
    if cue.is_none() {
        // "Ben, send me…", "Ben pls check…", "Alex, let's have…": a name, then an imperative.
        // Names are only looked up when such a word follows the first few.
        // "Ben, service the generator Saturday": a verb of the full word list, before what it
        // works on, is one too.
        let wide_verb = |k: usize| wide_en_verb(m, k);
        let imperative_at = |k: usize| {
            wide_verb(k)
                || m.has_f(k, EN_VERB | PLEASE)
                || ru_imperative_like(m.w(k))
                || matches!(m.w(k), "let's" | "lets" | "mind")
        };
        if (1..m.n().min(5)).any(imperative_at)
            && let Some((_, name)) = addressee(cx, m.n().min(5))
            && let Some(&last) = name.last()
        {
            vocative = true;
            let mut k = last + 1;
            let mut asked = false;
            // "Tyler also pls break down…": fillers may stand between the name and the verb.
            while k < m.n() && m.has_f(k, PLEASE | GREET | FILL) {
                asked |= m.has_f(k, PLEASE);
                k += 1;
            }
            let w = m.w(k);
            // "alex pls resize the banners": after a name and "please" comes the verb.
            let en_word = !w.is_empty()
                && w.chars().all(|c| c.is_ascii_alphabetic())
                && !m.has_f(k, STOP | PRON | DATE | PREP);
            if m.has_f(k, EN_VERB) || ru_imperative_like(w) || (asked && en_word) || wide_verb(k) {
                cue = Some(k);
            } else if matches!(w, "let's" | "lets" | "mind") {
                cue = Some(k + 1);
            }
        }
    }
    if cue.is_none() {
        // "Андрей Петрович, поправим до конца месяца?": a "we" asked of someone named is their
        // job.
        let ours = (0..m.n()).find(|&i| {
            m.is_q(i) && m.verb(i).is_some_and(|v| v.form == Form::Fut1Pl) && !m.negated(i)
        });
        if let Some(i) = ours
            && addressee(cx, i).is_some()
        {
            cue = Some(i);
        }
    }
    if cue.is_none() && cx.has_date() {
        // "Blessing, September invoices must go out before month end", "Wade I need the
        // November schedule by end of week": what must be done, or what the speaker needs, put
        // to someone called by name with a date asks them.
        // "Полина, афиша и анонс с тебя, к след пт сможешь?": a thing put on the one called.
        let owed = (0..m.n()).find(|&i| {
            !m.negated(i)
                && (word_list!("must.txt").contains(&m.w(i))
                    || m.has_f(i, NEED) && i > 0 && matches!(m.w(i - 1), "i" | "мне")
                    || on_you(m, i))
        });
        if let Some(i) = owed
            && let Some((_, name)) = addressee(cx, i)
            && let Some(&last) = name.last()
            && last < i
            // In the clause right after the name: "Виктор Андреевич, отчёт соберу, но мне нужны
            // от всех фотоотчёты" needs from everyone, not from the one called.
            && m.clause_of(i) == m.clause_of(last + 1)
            // The thing comes first: "…, ну с тебя взятки гладки" puts nothing on anyone.
            && (!on_you(m, i)
                || (last + 1..i).any(|k| !m.has_f(k, FILL | STOP | GREET | AGREE | PRON)))
        {
            cue = Some(if m.has_f(i, NEED) { i + 1 } else { last + 1 });
        }
    }
    let open = if cue.is_none() {
        open_request_cue(cx)
    } else {
        None
    };
    if cue.is_none() && open.is_none() && !(please && vocative) {
        return None;
    }
    let at = cue.or(open).unwrap_or(1);
    let who = addressee(cx, at.min(m.n()));
    let (addr, mut skip) = match &who {
        Some((id, skip)) => (Some(*id), skip.clone()),
        None => (None, Vec::new()),
    };
    if let Some(i) = (0..m.n()).find(|&i| on_you(m, i)) {
        skip.extend([i, i + 1]);
        // "…с тебя, к пт сможешь?": the "can you" only asks.
        skip.extend((i + 2..m.n()).filter(|&k| can_you(m.w(k))));
    }
    // "жду" asks only the one it calls ("Артём, техкарты жду до среды"); the thing awaited is
    // the request, not the waiting.
    if let Some(c) = cue
        && (word_list!("ru/await.txt").contains(&m.w(c)) || en_await(m, c))
    {
        addr?;
        skip.push(c);
        if en_await(m, c) {
            skip.push(c - 1);
        }
    }
    // A bare imperative to nobody in particular needs a date or a "please" to be a request.
    if addr.is_none() && open.is_none() {
        // "мы вышли сегодня", "они пришли": a subject before the verb makes it a past plural.
        let subject = |c: usize| {
            (m.bounds(c, false).start..c).any(|k| {
                m.has_f(k, SUBJ) || matches!(m.w(k), "он" | "она" | "оно" | "они" | "вы" | "ты")
            })
        };
        let imperative_opening = cue.is_some_and(|c| {
            (m.bounds(c, false).start == c || c <= 1) && !(m.w(c).ends_with("ли") && subject(c))
        });
        // "счёт Вектору выстави сегодня плз": the object may come first. Without a "please",
        // the past plurals shaped like imperatives ("пришли", "вышли") stay out.
        let fronted = cue.is_some_and(|c| {
            let before = m.bounds(c, false).start..c;
            m.verb(c).is_some_and(|v| v.form == Form::Imp && !v.aux)
                && before.clone().all(|k| !m.has_f(k, SUBJ | PRON | NEG | COND))
                // An object, not a name: "Насть поправь" calls, "счёт выстави" fronts.
                && before.clone().any(|k| {
                    !m.has_f(k, STOP | FILL | GREET | AGREE | DATE)
                        && m.text
                            .get(m.toks[k].span.clone())
                            .and_then(|s| s.chars().next())
                            .is_some_and(char::is_lowercase)
                })
                && (please || (cx.has_date() || asks_when(m)) && !m.w(c).ends_with("ли"))
        });
        // "Дэн, первичку в 1с занесёшь послезавтра?": a second person asked, whoever it is.
        // Not "когда сделаешь?", "что скажешь?" (asking when or what), nor "пойдёшь обедать?".
        let asked = cue.is_some_and(|c| {
            let sentence = m.bounds(c, true);
            m.is_q(c)
                && match m.verb(c) {
                    None => true,
                    // "сможешь обвалить лопатку?": the second person in the "can you".
                    // "когда сможешь запустить линию?": when they can do a named job asks for it.
                    Some(v) if v.form == Form::Inf => {
                        (sentence.start..c).any(|k| can_you(m.w(k)))
                            && !(sentence.start..c).any(|k| {
                                wh_word(m.w(k)) && !(m.w(k) == "когда" && can_you(m.w(k + 1)))
                            })
                            && !sentence.clone().any(|k| nonwork_at(m, k))
                            && !is_idiom(m)
                    }
                    Some(v) => {
                        v.form == Form::Fut2
                            && !v.aux
                            && !(sentence.start..c).any(|k| wh_word(m.w(k)))
                            && !sentence.clone().any(|k| nonwork_at(m, k))
                    }
                }
        });
        if !((imperative_opening || fronted)
            && (please || cx.has_date() || asks_when(m) || cx.answered && cx.lang == Lang::En))
            && !asked
        {
            return None;
        }
    }
    let start = match (cue, open) {
        (Some(c), _) => c,
        (None, Some(o)) => o,
        // Vocative + please: everything after the name.
        (None, None) => skip.last().map_or(1, |&k| k + 1),
    };
    let start = start.min(m.n());
    // Helpers of the request itself ("когда сможешь в Уралтрансе ИБП поменять?" reaches back
    // to its clause's start).
    let when_asked = (m.bounds(start, false).start..start)
        .any(|k| m.w(k) == "когда" && word_list!("ru/when_can_you.txt").contains(&m.w(k + 1)));
    let can_asked = (m.bounds(start, false).start..start).any(|k| can_you(m.w(k)));
    let helpers_from = if when_asked || can_asked {
        m.bounds(start, false).start
    } else {
        start.saturating_sub(3)
    };
    for k in helpers_from..start {
        if when_asked && m.w(k) == "когда" {
            skip.push(k);
        }
        if matches!(
            m.w(k),
            "можешь"
                | "сможешь"
                | "можете"
                | "сможете"
                | "could"
                | "can"
                | "would"
                | "will"
                | "you"
                | "u"
                | "mind"
                | "sure"
                | "make"
                | "ли"
                | "ты"
                // "кто может забрать пескосоль?": the open call's words are no part of the job.
                | "кто"
                | "кто-нибудь"
                | "кто-то"
                | "нибудь"
                | "может"
                | "сможет"
                | "кому"
                | "будет"
        ) {
            skip.push(k);
        }
    }
    let verb = m
        .toks
        .get(start)
        .and_then(|t| t.verb)
        .map(|v| (start, v.inf));
    let sentence = m.bounds(start, true);
    let from = if cue.is_some() || open.is_some() {
        start
    } else {
        sentence.start
    };
    // A remark after the request ("need it EOD", "на складе почти кончился") is not its content.
    let mut end = sentence.end;
    // "…, can?": the tag asks; it is no part of the work.
    if end > from + 1 && m.w(end - 1) == "can" && m.clause_start(end - 1) {
        end -= 1;
    }
    if let Some(k) = (from + 1..sentence.end)
        .find(|&k| m.clause_start(k) && m.clause_of(k) > m.clause_of(from) && remark(m, k))
    {
        end = k;
    }
    let (mut text, obj) = content(m, from..end, verb, &skip, cx.due_span());
    // The object before the verb: "Дима, отчёт по простоям нужен к пятнице, сделаешь?"; and,
    // in the verb's own clause, whatever follows it: "колодки на 215-м в чт поменяй, пока…",
    // "документы на технику подготовь к их приезду".
    let own_clause = (sentence.start..from)
        .filter(|&k| m.clause_of(k) == m.clause_of(from))
        .min();
    let object_before = own_clause.is_some_and(|c| {
        (c..from).any(|k| {
            !skip.contains(&k)
                && m.verb(k).is_none()
                && !m.has_f(
                    k,
                    STOP | PRON | PREP | DATE | FILL | GREET | AGREE | PLEASE | NEED,
                )
                && m.w(k).chars().count() >= 3
                && m.w(k).chars().all(|c| matches!(c, 'а'..='я'))
        })
    });
    if (!obj || object_before) && from > sentence.start {
        let before = sentence.start..from;
        let mut skip2 = skip.clone();
        skip2.extend(before.clone().filter(|&k| m.has_f(k, NEED | URGE)));
        let other_verb = before
            .clone()
            .any(|k| !skip2.contains(&k) && m.verb(k).is_some());
        if !other_verb {
            // "Дэн, первичку занесёшь?": a name the team list does not know still only calls.
            if addr.is_none() {
                skip2.extend(opening_vocative(m, sentence.start));
            }
            // "когда сможешь … поменять?": the work follows the question words, which would
            // read as a condition.
            let from_here = if when_asked {
                (sentence.start..from)
                    .find(|&k| m.w(k) == "когда")
                    .map_or(sentence.start, |k| k + 1)
            } else {
                sentence.start
            };
            let (t2, o2) = content(m, from_here..end, verb, &skip2, cx.due_span());
            if o2 {
                text = t2;
            }
        } else if verb.is_some_and(|(_, inf)| word_list!("ru/light_verbs.txt").contains(&inf))
            && let Some(k) = before
                .clone()
                .find(|&k| m.verb(k).is_some_and(|v| v.form == Form::Inf && !v.aux))
            && before
                .clone()
                .filter(|j| !skip2.contains(j))
                .filter_map(|j| m.verb(j))
                .all(|v| v.form == Form::Inf)
        {
            // "Михалыч, Графа и Бари к сб помыть и гривы заплести, сделаешь в пт?": the verb
            // of doing in general asks for the work the infinitives before it name.
            if addr.is_none() {
                skip2.extend(opening_vocative(m, sentence.start));
            }
            let inf = m.verb(k).map_or(m.w(k), |v| v.inf);
            let (t2, o2) = content(m, before, Some((k, inf)), &skip2, cx.due_span());
            if o2 {
                text = t2;
            }
        }
    } else if !obj && from == sentence.start && sentence.start > 0 && m.is_q(start) {
        // "Серёж, на пн 30го первая поставка в Зерно: 6 бут и помпа. поставишь?": the verb
        // asked alone, the work told in the sentence before (when that asks nothing itself).
        let prev = m.bounds(sentence.start - 1, true);
        // "СМЦ просят в субботу довезти 2 шкафа. Сделаете?": the work is the infinitive there,
        // when every other verb of that sentence asks or describes ("обновлённый прайс").
        let verbs: Vec<(usize, Verb)> = prev
            .clone()
            .filter_map(|k| m.verb(k).map(|v| (k, v)))
            .collect();
        let describes = |v: &Verb| v.form == Form::Past && v.dict;
        // Only for a verb of doing in general: "…просит образцы показать. завезёшь в сб?" asks
        // for its own work.
        let light = verb.is_some_and(|(_, inf)| word_list!("ru/light_verbs.txt").contains(&inf));
        let infinitive = verbs
            .iter()
            .find(|(_, v)| v.form == Form::Inf && !v.aux)
            .filter(|_| {
                light
                    && verbs
                        .iter()
                        .all(|(_, v)| v.form == Form::Inf || describes(v))
            });
        // "нужен прайс на зиму. Сделаешь?": the need is not the work, nor the name called.
        let mut skip2 = skip.clone();
        skip2.extend(prev.clone().filter(|&k| m.has_f(k, NEED | URGE)));
        // Whoever it is: "Галина Петровна, Ерохины звонили… Наташ сможешь?" asks Наташа.
        skip2.extend(opening_vocative(m, prev.start));
        if !m.is_q(prev.start) && verbs.iter().all(|(_, v)| describes(v)) {
            let (t2, o2) = content(m, prev, None, &skip2, cx.due_span());
            if o2 {
                text = format!("{} {}", text.trim(), t2.trim());
            }
        } else if !m.is_q(prev.start)
            && let Some(&(k, v)) = infinitive
        {
            let clause_end = (k + 1..prev.end)
                .find(|&j| m.clause_start(j) && remark(m, j))
                .unwrap_or(prev.end);
            // The object may come first ("бэкап базы надо проверить восстановлением"), but
            // not who asks for it ("СМЦ просят довезти шкафы").
            let from = (prev.start..k)
                .filter(|&j| m.clause_of(j) == m.clause_of(k))
                .min()
                .map_or(k, |c| {
                    (c..k)
                        .rev()
                        .find(|&j| crate::morph::indicative_verb(m.w(j)))
                        .map_or(c, |j| j + 1)
                });
            let (t2, o2) = content(m, from..clause_end, Some((k, v.inf)), &skip2, cx.due_span());
            if o2 {
                text = t2;
            }
        }
    }
    // "Alexa Mini #2 is still throwing the fan error. Tomasz can you look at it before
    // Wednesday?": work named by a pronoun is the sentence before's.
    let clause = m.bounds(start.min(m.n().saturating_sub(1)), false);
    let pronoun = clause
        .clone()
        .any(|k| word_list!("en/pron.txt").contains(&m.w(k)));
    let light = text
        .split_whitespace()
        .map(str::to_lowercase)
        .filter(|w| !word_list!("en/determiner.txt").contains(&w.as_str()))
        .all(|w| word_list!("en/light_verbs.txt").contains(&w.as_str()));
    let mut due = cx.due_of_sentence(sentence.clone());
    // The request's own sentence, also when its verb is past the last word ("when can you?").
    let asked = m.bounds(start.min(m.n().saturating_sub(1)), true);
    // "Bruce is asking if we can get the tally to him by Friday. Shaz can you do that?",
    // "someone needs to take the trailer in. Josh when can you?": the work asked for, and its
    // date, are the sentence before's.
    let refers_back = pronoun && significant_stems(&text).len() <= 1 || light;
    let before = asked.start.checked_sub(1).map(|k| m.bounds(k, true));
    if refers_back
        && text.is_ascii()
        && let Some(prev) = before.clone()
        && let Some(work) = relayed_work(m, prev.clone())
    {
        let said = m.byte_span(prev.clone()).and_then(|b| m.text.get(b));
        let prev_due = said.and_then(|t| crate::extract::dates::deadline(t, cx.input.now, cx.lang));
        let own = m
            .byte_span(asked)
            .and_then(|b| m.text.get(b))
            .and_then(|t| crate::extract::dates::deadline(t, cx.input.now, cx.lang));
        let span = prev_due.as_ref().and_then(|(s, _)| {
            m.byte_span(prev)
                .map(|b| b.start + s.start..b.start + s.end)
        });
        let (t, obj) = content(
            m,
            work.clone(),
            Some((work.start, m.w(work.start))),
            &[],
            span.as_ref(),
        );
        if obj && !t.trim().is_empty() {
            text = t;
            due = own.or(prev_due).map(|(_, d)| d);
        }
    } else if text.trim().is_empty()
        && !m.text.is_ascii()
        && let Some(prev) = before
    {
        // "сетку на воротах надо поменять. кто сделает?": the work is the sentence before's.
        let mut skip: Vec<usize> = prev.clone().filter(|&k| m.has_f(k, NEED | URGE)).collect();
        skip.extend(opening_vocative(m, prev.start));
        if !m.is_q(prev.start) {
            let (t, obj) = content(m, prev, None, &skip, cx.due_span());
            if obj && !t.trim().is_empty() {
                text = t;
            }
        }
    } else if (pronoun && significant_stems(&text).len() <= 1 || light && !text.trim().is_empty())
        && text.is_ascii()
        && sentence.start > 0
    {
        let prev = m.bounds(sentence.start - 1, true);
        // "Signed. Daniela pls take them to BOV": a word alone before names nothing.
        if !m.is_q(prev.start)
            && prev.len() >= 2
            && let Some(told) = m.byte_span(prev).and_then(|b| m.text.get(b))
        {
            text = format!("{} — {}", text.trim(), told.trim());
        }
    }
    Some(Finding::Request {
        addressee: addr,
        content: text,
        due,
    })
}

/// The work another person's ask passes on, in tokens of the sentence `r`: "Bruce at Glenaray
/// is asking if we can get the tally and invoice to him by Friday" → "get the tally and invoice
/// to him by Friday"; "the client wants us to redo the hall"; "someone needs to take the trailer
/// in for its WOF". The work ends with its clause.
pub(super) fn relayed_work(m: &Msg, r: Range<usize>) -> Option<Range<usize>> {
    let relay = word_list!("en/relay.txt");
    let start = r.clone().find_map(|k| {
        if !relay.contains(&m.w(k)) {
            return None;
        }
        let mut j = k + 1;
        match m.w(j) {
            "if" | "whether" => {
                j += 1;
                if !word_list!("en/persons.txt").contains(&m.w(j)) {
                    return None;
                }
                j += 1;
                if !matches!(m.w(j), "can" | "could" | "will" | "would") {
                    return None;
                }
                j += 1;
            }
            "us" | "you" | "me" | "someone" | "somebody" if m.w(j + 1) == "to" => j += 2,
            "to" => j += 1,
            _ => return None,
        }
        m.has_f(j, EN_VERB).then_some(j)
    })?;
    let end = m.bounds(start, false).end.min(r.end);
    (start < end).then_some(start..end)
}

/// "…колонки проверь. когда сможешь?": asking when the work can be done asks for it, as a
/// date would.
fn asks_when(m: &Msg) -> bool {
    (1..m.n()).any(|i| {
        m.is_q(i)
            && (m.w(i - 1) == "когда" && word_list!("ru/when_can_you.txt").contains(&m.w(i))
                || m.w(i - 1) == "when"
                    && matches!(m.w(i), "can" | "could" | "will")
                    && matches!(m.w(i + 1), "you" | "u"))
    })
}

/// An offer asked as a question: "могу завтра съездить на замеры, надо?", "хочешь, я подготовлю
/// сравнение?", "want me to write the case study?", "should I draft the reply?".
pub(super) fn question_offer(cx: &Ctx) -> Option<Finding> {
    let m = cx.m;
    let wh = |k: usize| {
        let s = m.bounds(k, true).start;
        (s..k).any(|j| {
            matches!(
                m.w(j),
                "как"
                    | "где"
                    | "когда"
                    | "что"
                    | "чем"
                    | "куда"
                    | "зачем"
                    | "почему"
                    | "how"
                    | "where"
                    | "what"
                    | "why"
                    | "when"
                    | "who"
                    | "кто"
            )
        })
    };
    // (index of the first word of the offered work, that word's infinitive for Russian).
    let mut found: Option<(usize, Option<&'static str>)> = None;
    for i in 0..m.n() {
        if !m.is_q(i) || m.negated(i) {
            continue;
        }
        let (w, a, b) = (m.w(i), m.w(i + 1), m.w(i + 2));
        let sent_end = m.bounds(i, true).end;
        let ru_inf = |from: usize, to: usize| {
            (from..to.min(sent_end)).find_map(|k| {
                let t = &m.toks[k];
                match t.verb {
                    Some(v) if v.form == Form::Inf && !v.aux => Some((k, Some(v.inf))),
                    _ => None,
                }
            })
        };
        let ru_fut1 = |from: usize, to: usize| {
            (from..to.min(sent_end)).find_map(|k| {
                let t = &m.toks[k];
                match t.verb {
                    Some(v) if v.form == Form::Fut1 && !v.aux => Some((k, Some(v.inf))),
                    _ => None,
                }
            })
        };
        found = match w {
            // "могу ли я…" asks for permission; "можем созвониться?" proposes.
            "могу" | "смогу" if a != "ли" && !wh(i) => ru_inf(i + 1, i + 5),
            "хочешь" | "хотите" if m.clause_start(i) || m.w(i.wrapping_sub(1)) == "если" => {
                ru_fut1(i + 1, i + 4)
            }
            "давай" | "давайте" | "может" | "мб" if matches!(a, "я" | "мы") => {
                ru_fut1(i + 2, i + 4)
            }
            "мне" if m.clause_start(i) => ru_inf(i + 1, i + 3),
            "want" | "need" | "like" if a == "me" && b == "to" => Some((i + 3, None)),
            // "Sir shall I do the Amazon listing revamp?": after a greeting or an address too.
            "should" | "shall"
                if a == "i"
                    && (m.clause_start(i)
                        || (m.bounds(i, true).start..i)
                            .all(|k| m.has_f(k, GREET | AGREE | FILL))) =>
            {
                Some((i + 2, None))
            }
            _ => None,
        };
        if found.is_some() {
            break;
        }
    }
    // "подготовить сравнение к пятнице?": an infinitive opening a question offers it.
    if found.is_none() {
        for i in 0..m.n() {
            // Names are looked up last: most words are no infinitive opening a question.
            let opens = || {
                (m.bounds(i, true).start..i)
                    .all(|k| m.has_f(k, GREET | AGREE | FILL) || addressed_word(cx, k))
            };
            if let Some(v) = m.verb(i)
                && v.form == Form::Inf
                && !v.aux
                && !m.has_f(i, MOVE | CANCEL)
                && m.is_q(i)
                && !m.negated(i)
                // "разгрузить будет кому?" asks who, and offers nothing.
                && !m.bounds(i, true).any(|k| matches!(m.w(k), "кому" | "кто" | "who"))
                && opens()
            {
                found = Some((i, Some(v.inf)));
                break;
            }
        }
    }
    let (v, inf) = found?;
    let clause = m.bounds(v.min(m.n().saturating_sub(1)), false);
    let verb = inf.map(|x| (v, x));
    let (text, _) = content(m, v..clause.end, verb, &[], cx.due_span());
    Some(Finding::Offer {
        content: text,
        due: cx.due(),
    })
}

/// Is token `k` part of a person's name (a vocative in front of the message)?
pub(super) fn addressed_word(cx: &Ctx, k: usize) -> bool {
    let Some(t) = cx.m.toks.get(k) else {
        return false;
    };
    let raw = cx.m.text.get(t.span.clone()).unwrap_or("");
    !cx.names.people_in(raw).is_empty()
        || crate::extract::names::is_patronymic_word(&t.norm)
        || cx
            .m
            .text
            .get(..t.span.start)
            .is_some_and(|b| b.ends_with('@'))
}

/// Does the clause starting at `k` comment on the request rather than extend it ("need it EOD",
/// "нужен к пятнице", "на складе почти кончился", "because the client asked")?
pub(super) fn remark(m: &Msg, k: usize) -> bool {
    let clause = m.bounds(k, false);
    let (w, next) = (m.w(k), m.w(k + 1));
    // "the client asked for it": a subject and its past verb.
    let en_past = matches!(
        w,
        "the" | "our" | "their" | "they" | "he" | "she" | "we" | "it" | "i" | "client" | "customer"
    ) && (k + 1..clause.end).any(|j| {
        let x = m.w(j);
        x.len() > 4
            && x.ends_with("ed")
            && !matches!(
                m.w(j - 1),
                "the" | "a" | "an" | "our" | "their" | "your" | "be" | "is"
            )
    });
    // "…, it expires mid june", "…, they're asking": a subject and its present, said of how
    // things stand.
    let en_now = matches!(w, "it" | "they" | "he" | "she" | "this" | "that")
        && (word_list!("en/statement_aux.txt").contains(&next)
            || next.len() > 3
                && next.strip_suffix('s').is_some_and(|stem| {
                    word_classes().get(stem).is_some_and(|f| f & EN_VERB != 0)
                        || lexicon::wordnet_verb(stem)
                }))
        || matches!(w, "it's" | "they're" | "it’s" | "they’re")
        // "…, there's 2 containers going Wednesday", "…, we have a truck coming": how things
        // stand, said as the reason.
        || matches!(w, "there's" | "there’s" | "theres")
        || w == "there" && matches!(next, "is" | "are" | "will")
        || w == "we" && matches!(next, "have" | "got" | "'ve" | "’ve");
    m.has_f(k, NEED)
        || en_past
        || en_now
        || matches!(
            w,
            "потому"
                | "так"
                | "т"
                | "тк"
                | "ибо"
                | "иначе"
                | "там"
                | "тут"
                | "because"
                | "since"
                | "cause"
                | "coz"
                | "otherwise"
        )
        || (w == "а" && next == "то")
        || clause.clone().any(|j| {
            let w = m.w(j);
            // "технадзор ждёт", "они тянут с реквизитами": what others do or want.
            matches!(
                w,
                "ждет"
                    | "ждут"
                    | "тянет"
                    | "тянут"
                    | "торопит"
                    | "торопят"
                    | "просит"
                    | "просят"
                    | "требует"
                    | "требуют"
                    | "жалуется"
                    | "жалуются"
            ) || m.has_f(j, PROGRESS)
                || m.verb(j).is_some_and(|v| v.form == Form::Past)
                || (Lang::detect(w) == Lang::Ru
                    && ["лся", "лась", "лось", "лись"]
                        .iter()
                        .any(|e| w.ends_with(e)))
        })
}

/// A word of `lexicon/ru/can_you.txt` ("сможешь", "можете").
fn can_you(w: &str) -> bool {
    word_list!("ru/can_you.txt").contains(&w)
}

/// An English -ing form of any verb of the dictionary list ("driving", "covering", "running").
pub(super) fn ing_of_any_verb(w: &str) -> bool {
    lexicon::ing_bases(w)
        .iter()
        .any(|b| lexicon::wordnet_verb(b))
}
