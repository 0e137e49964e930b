//! Completion told with the promise's own verb: "счёт Вектору выставила ✅" after "выставлю
//! счёт Вектору", "договор вычитан" after "вычитаю договор", "kennels deep cleaned" after
//! "deep clean the kennels". The lexicon of done words cannot list every trade's verbs; the
//! promise itself says which verb to look for.

use super::words::{normalize, tokens};

/// Past and participle endings a Russian verb stem takes in a completion report.
const RU_PAST: &[&str] = &[
    "л", "ла", "ли", "ло", "лся", "лась", "лись", "н", "на", "но", "ны", "ен", "ена", "ено", "ены",
    "ён", "ил", "ила", "или", "ан", "ана", "ано", "аны", "лен", "лена", "лено", "лены", "т", "та",
    "то", "ты",
];

/// Endings of Russian pasts and short participles, for the quick test in [`may_report`].
const RU_REPORT_ENDINGS: &[&str] = &[
    "ал", "ил", "ел", "ыл", "ул", "ял", "ёл", "ла", "ли", "ло", "лся", "лась", "лись", "ан", "ана",
    "ано", "аны", "ен", "ена", "ено", "ены", "ён", "ян", "ыт", "ыта", "ыто", "ыты", "ит", "ита",
    "ито", "иты",
];

/// Irregular English pasts and participles of verbs promises use, by verb
/// (`lexicon/en/irregular.txt`).
fn en_irregular() -> &'static [(&'static str, Vec<&'static str>)] {
    static LIST: std::sync::OnceLock<Vec<(&'static str, Vec<&'static str>)>> =
        std::sync::OnceLock::new();
    LIST.get_or_init(|| {
        include_str!("../../lexicon/en/irregular.txt")
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| {
                let mut w = l.split_whitespace();
                Some((w.next()?, w.collect()))
            })
            .collect()
    })
}

/// Is `w` an irregular English past or participle written unlike its verb ("rang", "spoke";
/// not "put", "set")?
pub(crate) fn en_irregular_past_unlike_base(w: &str) -> bool {
    static SET: std::sync::OnceLock<std::collections::HashSet<&'static str>> =
        std::sync::OnceLock::new();
    SET.get_or_init(|| {
        en_irregular()
            .iter()
            .flat_map(|(base, forms)| forms.iter().filter(move |f| *f != base).copied())
            .collect()
    })
    .contains(w)
}

/// Is `w` an irregular English past or participle?
fn en_irregular_past(w: &str) -> bool {
    static SET: std::sync::OnceLock<std::collections::HashSet<&'static str>> =
        std::sync::OnceLock::new();
    SET.get_or_init(|| {
        en_irregular()
            .iter()
            .flat_map(|(_, forms)| forms.iter().copied())
            .collect()
    })
    .contains(w)
}

/// Words that turn a report into something else: not done, not yet, a question.
fn hedged(words: &[impl AsRef<str>], text: &str) -> bool {
    text.contains('?')
        || words.iter().map(AsRef::as_ref).any(|w| {
            matches!(
                w,
                "не" | "ещё"
                    // "я бы заодно и помпу поменял": what the speaker would do, not did.
                    | "бы"
                    | "would"
                    | "еще"
                    | "почти"
                    | "половину"
                    | "начал"
                    | "начала"
                    | "not"
                    | "n't"
                    | "yet"
                    | "almost"
                    | "halfway"
                    | "half"
                    | "still"
                    | "partly"
                    | "started"
            ) || w.ends_with("n't")
        })
}

/// "почти готово", "половину перевёл", "halfway through": work under way, not finished.
/// "…по Сафонову сдала, остался Вектор": a named part is still to do, so the whole is not
/// done ("осталось 2 странных, их Паше переслал" hands the rest on: that one is).
fn named_part_left(text: &str) -> bool {
    let ws: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .filter(|w| !w.is_empty())
        .collect();
    ws.windows(2).any(|p| {
        p[0].to_lowercase().starts_with("остал")
            && p[1].chars().next().is_some_and(char::is_uppercase)
    })
}

/// `text` without its sentences that give the rest of some work a day: "договоры 12 родителям
/// разослала, остальным завтра" tells that work under way, not done, while another sentence of
/// the same message ("Бари в договор постоя внесла") may still tell its own done.
fn without_rest_given_a_day(text: &str) -> std::borrow::Cow<'_, str> {
    static REST: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    let rest = REST.get_or_init(|| {
        super::commitments::lexicon_words(include_str!("../../lexicon/ru/rest.txt")).collect()
    });
    let names_rest = |sentence: &str| {
        sentence
            .to_lowercase()
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| rest.contains(&w))
    };
    if !names_rest(text) {
        return std::borrow::Cow::Borrowed(text);
    }
    // Only the spans of date expressions matter here, not what they resolve to.
    let now = chrono::DateTime::<chrono::Utc>::UNIX_EPOCH.with_timezone(&chrono_tz::UTC);
    let kept: Vec<&str> = text
        .split_inclusive(['.', '!', '?', ';', '\n'])
        .filter(|sentence| {
            !sentence.split(',').any(|clause| {
                names_rest(clause)
                    && !crate::extract::dates::find(clause, now, crate::domain::Lang::Ru).is_empty()
            })
        })
        .collect();
    std::borrow::Cow::Owned(kept.concat())
}

pub fn in_progress(text: &str) -> bool {
    let lower = text.to_lowercase();
    if part_percent(&lower) {
        return true;
    }
    if !["почти", "половин", "almost", "half", "partly", "partially"]
        .iter()
        .any(|w| lower.contains(w))
    {
        return false;
    }
    tokens(text).iter().any(|t| {
        matches!(
            t.norm.as_str(),
            "почти" | "половину" | "наполовину" | "almost" | "halfway" | "partly" | "partially"
        )
    })
}

/// "about 80% done", "готово на 70 %", "60 percent there": a share of the work under a
/// hundred per cent.
fn part_percent(lower: &str) -> bool {
    let b = lower.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() || (i > 0 && (b[i - 1].is_ascii_digit() || b[i - 1] == b'.')) {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let n: u32 = lower[start..i].parse().unwrap_or(100);
        let rest = lower[i..].trim_start();
        let percent =
            rest.starts_with('%') || rest.starts_with("процент") || rest.starts_with("percent");
        if !(percent && (1..100).contains(&n)) {
            continue;
        }
        // Of the work: a word of done right after it or before it with "на" ("готово на
        // 70%"), not a discount or a rate ("скидка 15%", "meeting done, 5% off").
        let next = rest
            .trim_start_matches(|c: char| c == '%' || c.is_alphabetic())
            .split(|c: char| !c.is_alphanumeric())
            .find(|w| !w.is_empty())
            .unwrap_or("");
        let before: Vec<&str> = lower[..start]
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        static SHARE_DONE: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
        let share_done = SHARE_DONE.get_or_init(|| {
            super::commitments::lexicon_words(include_str!("../../lexicon/share_done.txt"))
                .collect()
        });
        let done_word = |w: &str| share_done.contains(&w);
        let on = matches!(before.as_slice(), [.., w, "на" | "at"] if done_word(w));
        if done_word(next) || on {
            return true;
        }
    }
    false
}

/// The verb stems a promise's content can be reported done with.
/// Is `word` a past or a participle of the verb `infinitive`, by the dictionary?
fn past_of(word: &str, infinitive: &str) -> bool {
    let inf = infinitive.replace('ё', "е");
    dictionary_past(word, |lemma| lemma.replace('ё', "е") == inf)
}

/// Does the dictionary (not a guess) read `word`, a lowercase Russian word of three letters or
/// more, as a past or a participle of a verb whose lemma `of` accepts?
fn dictionary_past(word: &str, of: impl Fn(&str) -> bool) -> bool {
    if word.chars().count() < 3 || !word.chars().all(|c| matches!(c, 'а'..='я' | 'ё')) {
        return false;
    }
    let Some(d) = crate::morph::dictionary() else {
        return false;
    };
    crate::morph::analyses(word).iter().any(|a| {
        a.source == rumorph::Source::Dictionary
            && of(&a.lemma)
            && d.ud_tag(a.ud).is_some_and(|t| {
                t.feat("Tense") == Some("Past") || t.feat("VerbForm") == Some("Part")
            })
    })
}

fn ru_stem(infinitive: &str) -> Option<String> {
    let chars: Vec<char> = infinitive.chars().collect();
    let cut = if infinitive.ends_with("ться") || infinitive.ends_with("тись") {
        5
    } else if infinitive.ends_with("ть") || infinitive.ends_with("ти") || infinitive.ends_with("чь")
    {
        3
    } else {
        return None;
    };
    let stem: String = chars[..chars.len().saturating_sub(cut)].iter().collect();
    (stem.chars().count() >= 4).then_some(stem)
}

/// Could `text` report anything done at all: a past or participle form in it? A cheap test
/// that spares the per-promise comparison for most chatter.
pub fn may_report(text: &str) -> bool {
    let lower = text.to_lowercase();
    lower.split(|c: char| !c.is_alphanumeric()).any(|w| {
        let n = w.chars().count();
        n >= 4
            && (w.ends_with("ed")
                || en_irregular_past(w)
                || RU_REPORT_ENDINGS.iter().any(|e| w.ends_with(e)))
    })
}

/// Does `text` plainly tell of something done: a past or participle form, no hedge ("ещё не
/// проверил", "not yet sent"), no part named as left, no question? ("форсунку прочистил",
/// "yeast order's placed".) Which promise it closes is the caller's to find by the thing named.
///
/// Russian by a perfective past or passive participle, which tells of work finished
/// ("прочистил", "отправлен"; not "переделывала", which tells of the effort). English by a past
/// or a participle with no plan, retelling or third person before it (see
/// [`en_plainly_reported`]).
pub fn plainly_reported(text: &str) -> bool {
    let text = &*without_rest_given_a_day(text);
    if !may_report(text) || named_part_left(text) {
        return false;
    }
    if !text
        .chars()
        .any(|c| matches!(c, 'а'..='я' | 'А'..='Я' | 'ё' | 'Ё'))
    {
        return en_plainly_reported(text);
    }
    let toks = tokens(text);
    let words: Vec<&str> = toks.iter().map(|t| t.norm.as_str()).collect();
    // "Лысенко сказал, оплатит в понедельник": someone's words retold, not work done.
    static RETOLD: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    let retold = RETOLD.get_or_init(|| {
        super::commitments::lexicon_words(include_str!("../../lexicon/ru/retold.txt")).collect()
    });
    if words.is_empty() || hedged(&words, &normalize(text)) {
        return false;
    }
    // A retelling or the speaker's own plan speaks for its clause and those after it, as in
    // English: "акты отдал завхозу, обещала подписать до пт" and "регистратор поставил, пишет"
    // report; "сказал, что отправил" does not.
    let clauses = clause_indices(text, &toks);
    let vetoed_from = (0..words.len())
        .find(|&k| retold.contains(&words[k]) || first_person_now(words[k]))
        .map(|k| clauses[k]);
    (0..words.len()).any(|k| vetoed_from.is_none_or(|c| clauses[k] < c) && finished(words[k]))
}

/// English: "dupes refunded (all 7)", "chaff collector emptied + cyclone vacuumed", "IC40 for
/// whitfield ordered from SCP", "Called Rashid, they are ok with 22nd vessel": a past or a
/// participle (or a word of finished work: "sorted", "live") in a message with no plan of the
/// speaker's ("I'll", "gonna", "tmrw I…"), no question or hedge, nothing retold. A past right
/// after a third person ("they called asking…", "so Andrés sent…") is someone else's doing or
/// news, not the speaker's work. A name that opens the sentence is not told from a thing there
/// ("Invoices sent" / "Andrés sent"): both read as a report.
fn en_plainly_reported(text: &str) -> bool {
    static LISTS: std::sync::OnceLock<[Vec<&'static str>; 7]> = std::sync::OnceLock::new();
    let [not_past, others, done, participles, retold, agent, calls] = LISTS.get_or_init(|| {
        let l = |t: &'static str| super::commitments::lexicon_words(t).collect();
        [
            l(include_str!("../../lexicon/en/report_not_past.txt")),
            l(include_str!("../../lexicon/en/report_others.txt")),
            l(include_str!("../../lexicon/en/done.txt")),
            l(include_str!("../../lexicon/en/participles.txt")),
            l(include_str!("../../lexicon/en/retold.txt")),
            // "the tour sold out", "parts arrived": someone else's doing after any word.
            l(include_str!("../../lexicon/en/agent_pasts.txt")),
            // "Sunway called": someone's call after their name.
            l(include_str!("../../lexicon/en/call_pasts.txt")),
        ]
    });
    let toks = tokens(text);
    let words: Vec<&str> = toks.iter().map(|t| t.norm.as_str()).collect();
    if words.is_empty() || hedged(&words, &normalize(text)) {
        return false;
    }
    // A plan or a retelling speaks for its own clause and what follows it: "Christmas display
    // is up, not bad if I say so myself" and "All deliveries dropped, Mrs Hegarty says thanks"
    // report; "I'll check, sent the form" and "Tom said he sent it" do not.
    let clauses = clause_indices(text, &toks);
    let clause_of = |k: usize| clauses[k];
    // "Told St Luke's about the new days": a telling that opens its clause is the speaker's.
    let opens = |k: usize| k == 0 || clause_of(k - 1) < clause_of(k);
    let vetoed_from = (0..words.len())
        .find(|&k| en_plans(words[k]) || retold.contains(&words[k]) && !opens(k))
        .map(clause_of);
    let past = |w: &str| {
        done.contains(&w)
            || participles.contains(&w)
            || en_irregular_past(w)
            || w.len() >= 5 && w.ends_with("ed") && !not_past.contains(&w)
    };
    // "Andrés sent…", "Travis got…": a name mid-sentence before the past.
    let capitalised = |k: usize| {
        text[toks[k].span.clone()]
            .chars()
            .next()
            .is_some_and(char::is_uppercase)
    };
    let named = |k: usize| {
        let at = toks[k].span.start;
        at > 0
            && capitalised(k)
            && !text[..at]
                .trim_end_matches(' ')
                .ends_with(['.', '!', '?', '\n'])
    };
    (0..words.len()).any(|k| {
        past(words[k])
            && vetoed_from.is_none_or(|c| clause_of(k) < c)
            && (k == 0 || !others.contains(&words[k - 1]) && !named(k - 1))
            && (opens(k) || !agent.contains(&words[k]))
            && !(k > 0 && capitalised(k - 1) && calls.contains(&words[k]))
    })
}

/// Which clause of `text` each token stands in, counted by the punctuation and emoji before it
/// ("is up 🎁 come see"); marks inside words ("it's", "CD-R") do not count. One pass.
fn clause_indices(text: &str, toks: &[super::words::Token]) -> Vec<usize> {
    let (mut at, mut n) = (0, 0);
    toks.iter()
        .map(|t| {
            n += text
                .get(at..t.span.start)
                .unwrap_or("")
                .chars()
                .filter(|&c| {
                    !c.is_alphanumeric()
                        && !c.is_whitespace()
                        && !matches!(c, '\'' | '’' | '-' | '/' | '&' | '%' | '"')
                })
                .count();
            at = t.span.end.max(at);
            n
        })
        .collect()
}

/// Words of a plan or a wish in English: a message with one tells what is still to do.
fn en_plans(w: &str) -> bool {
    matches!(
        w,
        "i'll"
            | "ill"
            | "will"
            | "gonna"
            | "going"
            | "can"
            | "i'm"
            | "im"
            | "we'll"
            | "let"
            | "should"
            | "need"
            | "needs"
            | "pls"
            | "please"
            | "if"
            | "when"
    )
}

/// A Russian verb in the first person, present or future ("сделаю вид, что понял"): the speaker
/// tells what they do or will do, not what is finished.
fn first_person_now(word: &str) -> bool {
    let Some(d) = crate::morph::dictionary() else {
        return false;
    };
    word.chars().all(|c| matches!(c, 'а'..='я' | 'ё'))
        && crate::morph::analyses(word)
            .iter()
            .filter(|a| a.source == rumorph::Source::Dictionary)
            .max_by(|a, b| a.prob.total_cmp(&b.prob))
            .and_then(|a| d.ud_tag(a.ud))
            .is_some_and(|t| t.pos() == "VERB" && t.feat("Person") == Some("1"))
}

/// "спецификация для новосиба в папке Опт/Декабрь", "письмо в администрацию ушло", "документы
/// по Тагирову у Галины": finished work told by where it now is or that it went, with no verb
/// of work. The byte offset where that starts; the words before it name the thing, which the
/// caller matches to a promise. Russian; not a question, not hedged, no promise or plan of the
/// speaker's in it (a first-person verb or an infinitive), nothing retold.
pub fn result_told(text: &str) -> Option<usize> {
    let toks = tokens(text);
    let words: Vec<String> = toks.iter().map(|t| t.norm.clone()).collect();
    if words.len() < 2 || words.len() > 24 || hedged(&words, &normalize(text)) {
        return None;
    }
    if !words
        .iter()
        .any(|w| w.chars().any(|c| matches!(c, 'а'..='я')))
    {
        return en_result_told(text, &toks, &words);
    }
    let d = crate::morph::dictionary()?;
    let best = |w: &str| {
        crate::morph::analyses(w)
            .iter()
            .filter(|a| a.source == rumorph::Source::Dictionary)
            .max_by(|a, b| a.prob.total_cmp(&b.prob))
            .and_then(|a| d.ud_tag(a.ud))
    };
    let retold: Vec<&str> =
        super::commitments::lexicon_words(include_str!("../../lexicon/ru/retold.txt")).collect();
    // "КП Сибстали ушло, ждём": waiting for the answer is no more work of the speaker's.
    static WAITING: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    let waiting = WAITING.get_or_init(|| {
        super::commitments::lexicon_words(include_str!("../../lexicon/ru/wait_verbs.txt")).collect()
    });
    let own_plan = words.iter().any(|w| {
        retold.contains(&w.as_str())
            || best(w).is_some_and(|t| {
                t.pos() == "VERB"
                    && (t.feat("Person") == Some("1") || t.feat("VerbForm") == Some("Inf"))
            }) && !crate::morph::verb_lemma(w).is_some_and(|l| waiting.contains(&l.as_str()))
    });
    if own_plan
        || !words
            .iter()
            .any(|w| w.chars().any(|c| matches!(c, 'а'..='я')))
    {
        return None;
    }
    let results: Vec<&str> =
        super::commitments::lexicon_words(include_str!("../../lexicon/ru/result.txt")).collect();
    // The place: a noun (or an adjective and its noun) in the locative after "в"/"на", in the
    // genitive after "у" ("у Галины", "у вас"; not "у меня": the speaker still has it).
    let place = |k: usize| {
        let case = match words[k].as_str() {
            "в" | "во" | "на" => "Loc",
            "у" => "Gen",
            _ => return false,
        };
        match words.get(k + 1).map(String::as_str) {
            Some("меня" | "нас") => return false,
            Some("вас" | "тебя" | "него" | "нее" | "них") if case == "Gen" => {
                return true;
            }
            _ => {}
        }
        (k + 1..(k + 3).min(words.len())).any(|j| {
            words[j].chars().all(|c| matches!(c, 'а'..='я'))
                && best(&words[j]).is_some_and(|t| {
                    matches!(t.pos(), "NOUN" | "PROPN" | "PRON") && t.feat("Case") == Some(case)
                })
        })
    };
    (1..words.len())
        .find(|&k| results.contains(&words[k].as_str()) || place(k))
        .map(|k| toks[k].span.start)
}

/// English: "quote's in tofino lodge's inbox", "sim logs are in your folder", "turbo's on Moana
/// Rose", "gift wrap station is up": the thing, then where it now is ("in"/"on" and whose place,
/// or a name) or that it is up. Nothing the speaker still means to do ("I'll drop them in your
/// folder"), nothing asked of anyone ("is it up to you?" is a question anyway).
fn en_result_told(text: &str, toks: &[super::words::Token], words: &[String]) -> Option<usize> {
    // A plan speaks for its clause and what follows: "rota is up on the board, shout if there's
    // any clashes" reports; "I'll put them in your folder" does not.
    let clauses = clause_indices(text, toks);
    let planned_from = (0..words.len())
        // "pump's going again" tells how it runs, not a plan.
        .find(|&k| {
            en_plans(&words[k])
                && !(words[k] == "going" && words.get(k + 1).is_some_and(|w| w == "again"))
        })
        .map(|k| clauses[k]);
    let whose = |j: usize| {
        let w = words[j].as_str();
        matches!(w, "your" | "the" | "his" | "her" | "their" | "our" | "ur")
            || w.ends_with("'s")
            // A named place: "on Moana Rose", "on Kōtuku" (not a day: "on Monday").
            || text[toks[j].span.clone()].chars().next().is_some_and(char::is_uppercase)
                && !names_a_date(&text[toks[j].span.clone()])
    };
    let is =
        |k: usize| words[k - 1].ends_with("'s") || matches!(words[k - 1].as_str(), "is" | "are");
    static STATES: std::sync::OnceLock<[Vec<&'static str>; 4]> = std::sync::OnceLock::new();
    let [states, pronouns, went, after] = STATES.get_or_init(|| {
        let l = |t: &'static str| super::commitments::lexicon_words(t);
        [
            l(include_str!("../../lexicon/en/result_state.txt")).collect(),
            l(include_str!("../../lexicon/en/persons.txt"))
                .chain(l(include_str!("../../lexicon/en/persons_first.txt")))
                .chain(l(include_str!("../../lexicon/en/pron.txt")))
                .collect(),
            l(include_str!("../../lexicon/en/result_went.txt")).collect(),
            l(include_str!("../../lexicon/en/result_state_after.txt")).collect(),
        ]
    });
    // Without "is" only someone's place tells a result: "RAMS in your inbox", not "first
    // Braeburns in the bins".
    let someones = |j: usize| {
        let w = words[j].as_str();
        matches!(w, "your" | "ur" | "his" | "her" | "their") || w.ends_with("'s")
    };
    (1..words.len())
        .find(|&k| {
            let placed = k + 1 < words.len()
                && matches!(words[k].as_str(), "in" | "on" | "into")
                && (k + 1..(k + 4).min(words.len())).any(whose);
            let placed_with = k + 1 < words.len()
                && matches!(words[k].as_str(), "in" | "on" | "into")
                && someones(k + 1);
            // "is up" closing its clause, or before where ("up on the staff board").
            let up = words[k] == "up"
                && (k + 1 == words.len()
                    || clauses[k + 1] > clauses[k]
                    || matches!(
                        words[k + 1].as_str(),
                        "on" | "in" | "online" | "and" | "now"
                    ));
            // "bins are down at block 4", "toe boards on at Hunslet lift 3": the thing is where
            // the work puts it (lexicon/en/result_state.txt).
            let opens_at = (0..k)
                .rev()
                .take_while(|&j| clauses[j] == clauses[k])
                .last();
            // "…so the proofs went to the printer": a thing, not a person, went; named right
            // before, after "the" or whose it is, or opening the clause.
            let lower = |j: usize| {
                !text[toks[j].span.clone()]
                    .chars()
                    .next()
                    .is_some_and(char::is_uppercase)
            };
            // "all 14 boxes gone to Toronto": how many before the thing opening the clause.
            let counted = opens_at.is_some_and(|a| {
                a + 1 < k
                    && words[a..k - 1].iter().all(|w| {
                        matches!(w.as_str(), "all" | "both" | "the")
                            || w.chars().all(|c| c.is_ascii_digit())
                    })
            });
            let thing_went = went.contains(&words[k].as_str())
                && k >= 1
                && lower(k - 1)
                && !pronouns.contains(&words[k - 1].as_str())
                && (opens_at == Some(k - 1) || k >= 2 && whose(k - 2) || counted);
            // "Silverton pump's going again": working once more, so fixed.
            let again = words.get(k + 1).is_some_and(|w| w == "again")
                && super::commitments::lexicon_words(include_str!(
                    "../../lexicon/en/result_again.txt"
                ))
                .any(|w| w == words[k]);
            let state = (states.contains(&words[k].as_str()) || thing_went || again)
                && (k + 1 == words.len()
                    || clauses[k + 1] > clauses[k]
                    || after.contains(&words[k + 1].as_str())
                    || again
                    // "the invoices went out": where it went said by a particle.
                    || thing_went && states.contains(&words[k + 1].as_str())
                    // "…gone to Toronto": where to.
                    || thing_went && words[k + 1] == "to" && k + 2 < words.len() && whose(k + 2));
            let bare_thing = opens_at.is_some_and(|a| {
                (1..=3).contains(&(k - a))
                    && words[a..k].iter().all(|w| {
                        !pronouns.contains(&w.as_str())
                            && !w.chars().all(|c| c.is_ascii_digit())
                            && !matches!(w.as_str(), "is" | "are" | "was" | "were")
                    })
            });
            let thing_named = opens_at.is_some_and(|a| {
                words[a..k].iter().any(|w| {
                    let w = w.trim_end_matches("'s");
                    !pronouns.contains(&w) && !matches!(w, "is" | "are" | "was" | "were")
                })
            });
            // "RAMS for Headingley in your inbox Pete 📩": a bare thing needs no "is".
            ((placed || up) && is(k)
                || placed_with && bare_thing
                || state && thing_named && (is(k) || bare_thing || thing_went))
                && planned_from.is_none_or(|c| clauses[k] < c)
        })
        .map(|k| toks[k].span.start)
}

/// "Яшма оплатила ламбрекены, деньги на счёте", "Wiebe's money is in!!", "Boolka paid": money
/// that was owed has come (`lexicon/money_in.txt`). Which promise to collect it that closes is
/// the caller's to find by who paid. Not a question, not hedged ("ещё не оплатили").
pub fn money_in(text: &str) -> bool {
    static PHRASES: std::sync::OnceLock<Vec<Vec<&'static str>>> = std::sync::OnceLock::new();
    let phrases = PHRASES.get_or_init(|| {
        include_str!("../../lexicon/money_in.txt")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| l.split_whitespace().collect())
            .collect()
    });
    if text.contains('?') {
        return false;
    }
    let words: Vec<String> = tokens(text).into_iter().map(|t| t.norm).collect();
    if hedged(&words, &normalize(text)) {
        return false;
    }
    (0..words.len()).any(|k| {
        phrases.iter().any(|p| {
            p.iter()
                .enumerate()
                .all(|(j, w)| words.get(k + j).is_some_and(|x| x == w))
        })
    })
}

/// Is `content` a promise to find something out or tell it ("отписаться по остаткам труб",
/// "узнать цену у Газкомплекта", "let Darlene know about the rates"): its first word, the
/// verb, is one of `lexicon/inform_verbs.txt`. Such work is done by telling it.
pub fn informs(content: &str) -> bool {
    static VERBS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    let verbs = VERBS.get_or_init(|| {
        super::commitments::lexicon_words(include_str!("../../lexicon/inform_verbs.txt")).collect()
    });
    let first = content
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_lowercase();
    verbs.contains(&first.as_str())
}

/// Does `text` tell what someone said (`lexicon/ru/retold.txt`, `lexicon/en/retold.txt`:
/// "говорит", "says", "told him")?
pub fn retells(text: &str) -> bool {
    static WORDS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    let words = WORDS.get_or_init(|| {
        super::commitments::lexicon_words(include_str!("../../lexicon/ru/retold.txt"))
            .chain(super::commitments::lexicon_words(include_str!(
                "../../lexicon/en/retold.txt"
            )))
            .collect()
    });
    tokens(text)
        .iter()
        .any(|t| words.contains(&t.norm.as_str()))
}

/// Is `content` a promise to get money owed (`lexicon/money_work.txt`: "выбить долг с Яшмы",
/// "chase Wiebe on the Feb invoice")?
pub fn collects_money(content: &str) -> bool {
    static STEMS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    let stems = STEMS.get_or_init(|| {
        super::commitments::lexicon_words(include_str!("../../lexicon/money_work.txt")).collect()
    });
    let words: Vec<String> = tokens(content).into_iter().map(|t| t.norm).collect();
    stems.iter().any(|s| words.iter().any(|w| w.starts_with(s)))
}

/// Is `word` a date word ("Monday", "Dec")? Only whether it is one matters, so any instant
/// serves as the reference.
fn names_a_date(word: &str) -> bool {
    use chrono::TimeZone;
    let Some(any) = chrono_tz::UTC
        .with_ymd_and_hms(2026, 1, 1, 12, 0, 0)
        .single()
    else {
        return false;
    };
    !crate::extract::dates::find(word, any, crate::domain::Lang::En).is_empty()
}

/// "audit done", "всё готово": a word of work finished that names no verb of its own
/// (`lexicon/done_generic.txt`), so it may tell of anyone's work, whatever its verb.
pub fn finished_without_verb(text: &str) -> bool {
    static GENERIC: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    let generic = GENERIC.get_or_init(|| {
        super::commitments::lexicon_words(include_str!("../../lexicon/done_generic.txt")).collect()
    });
    tokens(text)
        .iter()
        .any(|t| generic.contains(&t.norm.as_str()))
}

/// A Russian perfective past or passive participle, by the dictionary.
fn finished(word: &str) -> bool {
    if word.chars().count() < 4 || !word.chars().all(|c| matches!(c, 'а'..='я' | 'ё')) {
        return false;
    }
    let Some(d) = crate::morph::dictionary() else {
        return false;
    };
    // A finite past must be transitive: work done to something ("прочистил форсунку"), not a
    // state ("устала"). A passive participle is so by its voice.
    static ERRANDS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    let errands = ERRANDS.get_or_init(|| {
        super::commitments::lexicon_words(include_str!("../../lexicon/ru/done_intransitive.txt"))
            .collect()
    });
    crate::morph::analyses(word).iter().any(|a| {
        let transitive = a
            .tag
            .and_then(|n| d.tag(n))
            .is_some_and(|t| t.contains("tran"))
            || errands.contains(&&*a.lemma);
        a.source == rumorph::Source::Dictionary
            && d.ud_tag(a.ud).is_some_and(|t| {
                let past = t.feat("Tense") == Some("Past") && t.feat("VerbForm") == Some("Fin");
                let passive = t.feat("VerbForm") == Some("Part") && t.feat("Voice") == Some("Pass");
                t.feat("Aspect") == Some("Perf") && (past && transitive || passive)
            })
    })
}

/// "Лёха компрессор забрал", "Кристина Андреевна формы уже разложила по кабинетам", "Aisha
/// sent the Roundhay quote": the one person of `named` (spans of `text` naming people, as
/// [`super::names::people_in`] gives them) who stands as the subject of a report, so that it
/// is about their promise, not the speaker's. The name opens its clause and is not called to
/// (no comma, colon or "!" after it: "Лёха, компрессор забрал" tells Лёха what the speaker
/// did); a Russian name must be able to be nominative ("Лёхе компрессор отдал" names whom it
/// was given to). `None` when no one or more than one person stands so.
pub fn doer_named(text: &str, named: &[(std::ops::Range<usize>, i64)]) -> Option<i64> {
    let mut doers = named.iter().filter(|(span, _)| {
        let Some(before) = text.get(..span.start) else {
            return false;
        };
        let Some(after) = text.get(span.end..) else {
            return false;
        };
        let opens = before
            .chars()
            .rev()
            .find(|c| c.is_alphanumeric() || matches!(c, ',' | '.' | ';' | '!' | '?' | ':' | '\n'))
            .is_none_or(|c| !c.is_alphanumeric());
        let called = after
            .chars()
            .find(|c| !c.is_whitespace())
            .is_none_or(|c| !c.is_alphanumeric());
        // "Got CI/PL drafts from Hira", "получила от Наташи договор": whom the thing came
        // from did it.
        let from = before
            .trim_end()
            .rsplit(|c: char| !c.is_alphanumeric())
            .next()
            .is_some_and(|w| from_words().contains(&w.to_lowercase().as_str()));
        from || opens && !called && text.get(span.clone()).is_some_and(can_be_nominative)
    });
    let (_, first) = doers.next()?;
    doers.all(|(_, id)| id == first).then_some(*first)
}

/// Words before the one a thing came from (`lexicon/from.txt`).
fn from_words() -> &'static [&'static str] {
    static LIST: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    LIST.get_or_init(|| {
        super::commitments::lexicon_words(include_str!("../../lexicon/from.txt")).collect()
    })
}

/// A Russian word the dictionary reads in the nominative, or one it does not know; any word
/// in another script.
fn can_be_nominative(name: &str) -> bool {
    let word = name.split_whitespace().next().unwrap_or("").to_lowercase();
    if !word.chars().all(|c| matches!(c, 'а'..='я' | 'ё')) {
        return true;
    }
    let Some(d) = crate::morph::dictionary() else {
        return true;
    };
    // Read as a name: "дима" is also the genitive of a noun.
    let names: Vec<(String, f64, bool)> = crate::morph::analyses(&word)
        .iter()
        .filter(|a| a.source == rumorph::Source::Dictionary)
        .filter_map(|a| {
            let t = d.ud_tag(a.ud).filter(|t| t.pos() == "PROPN")?;
            Some((
                a.lemma.replace('ё', "е"),
                a.prob,
                t.feat("Case") == Some("Nom"),
            ))
        })
        .collect();
    let nominative = names
        .iter()
        .filter(|(_, _, nom)| *nom)
        .map(|(_, p, _)| *p)
        .reduce(f64::max);
    // "Кристине" is also an indeclinable surname of its own, as likely as the dative of
    // "Кристина": a form of another name at least as likely is read as that form.
    let word = word.replace('ё', "е");
    names.is_empty()
        || nominative.is_some_and(|n| !names.iter().any(|(lemma, p, _)| *lemma != word && *p >= n))
}

/// Does `text` report the promise `content` done with the promise's own verb?
pub fn reports_done(text: &str, content: &str) -> bool {
    DoneReport::new(text).reports(content)
}

/// A message read once as a possible report of work done, to be held against each of the
/// speaker's open promises in turn (the message is tokenised once, not once per promise).
/// The default reports nothing.
#[derive(Default)]
pub struct DoneReport {
    /// The message's words; empty when it cannot report anything (hedged, a part left).
    words: Vec<String>,
}

impl DoneReport {
    pub fn new(text: &str) -> Self {
        let words: Vec<String> = tokens(&without_rest_given_a_day(text))
            .into_iter()
            .map(|t| t.norm)
            .collect();
        if !words.iter().any(|w| past_like(w))
            || hedged(&words, &normalize(text))
            || named_part_left(text)
        {
            return DoneReport { words: Vec::new() };
        }
        DoneReport { words }
    }

    /// Could the message report any promise done by its verb? Without a word that may be a
    /// past or a participle it reports none, and a caller need not read the promises.
    pub fn may_report(&self) -> bool {
        !self.words.is_empty()
    }

    /// Does the message report the promise `content` done with the promise's own verb?
    pub fn reports(&self, content: &str) -> bool {
        if self.words.is_empty() {
            return false;
        }
        reports_with(&self.words, content)
    }
}

/// Could `w` be the past or participle [`reports_with`] looks for: a Russian word with a past
/// ending or that the dictionary reads as a past or participle, an English one ending in "d"
/// ("cleaned", "tidied", "filed") or an irregular past.
fn past_like(w: &str) -> bool {
    if w.is_ascii() {
        return w.ends_with('d') || en_irregular_past(w);
    }
    RU_PAST.iter().any(|e| w.ends_with(e)) || dictionary_past(w, |_| true)
}

fn reports_with(words: &[String], content: &str) -> bool {
    let promised: Vec<String> = tokens(content).into_iter().map(|t| t.norm).collect();
    // Russian: the content starts with its infinitive ("выставить счёт Вектору"); a past or a
    // participle of that verb reports it, by the dictionary's lemma ("отвезти" ↔ "отвезла",
    // "выставить" ↔ "выставлен"), or by the regular endings for words it does not hold.
    if let Some(inf) = promised.first()
        && words.iter().any(|w| past_of(w, inf))
    {
        return true;
    }
    if let Some(stem) = promised.first().and_then(|v| ru_stem(v)) {
        let hit = words.iter().any(|w| {
            w.strip_prefix(stem.as_str())
                .is_some_and(|rest| RU_PAST.contains(&rest))
        });
        if hit {
            return true;
        }
    }
    // English: any word of the content whose past stands in the report ("deep clean the
    // kennels" → "kennels deep cleaned").
    let not_work = |p: &str| {
        matches!(
            p,
            "schedule" | "plan" | "need" | "use" | "delay" | "postpone" | "move" | "push"
        )
    };
    promised
        .iter()
        .filter(|p| p.is_ascii() && !not_work(p))
        .any(|p| {
            let p = p.as_str();
            // "cleaned", "filed", "tidied": the regular past, compared without building it.
            let long = p.chars().count() >= 4;
            let regular = |w: &str| {
                long && (w.strip_suffix("ed") == Some(p)
                    || p.ends_with('e') && w.strip_suffix('d') == Some(p)
                    || p.strip_suffix('y')
                        .is_some_and(|stem| w.strip_suffix("ied") == Some(stem)))
            };
            let irregular = en_irregular()
                .iter()
                .find(|(base, _)| *base == p)
                .map(|(_, forms)| forms.as_slice())
                .unwrap_or(&[]);
            // "I'll put the photos there": the same form after a plan is still to do.
            words.iter().enumerate().any(|(k, w)| {
                (regular(w) || irregular.contains(&w.as_str()))
                    && (k == 0 || !en_plans(&words[k - 1]) && words[k - 1] != "to")
            })
        })
}

#[cfg(test)]
mod tests {
    use super::{collects_money, money_in, plainly_reported, reports_done};

    #[test]
    fn money_come_in_is_told_and_asked_or_hedged_is_not() {
        assert!(money_in("Яшма оплатила ламбрекены, деньги на счёте 🙌"));
        assert!(money_in("Wiebe's money is in!! 🎉"));
        assert!(money_in("Boolka money's in 🙌"));
        assert!(!money_in("Яшма оплатила?"));
        assert!(!money_in("Яшма ещё не оплатила"));
        assert!(!money_in("I'll pay the courier tomorrow"));
        assert!(super::retells(
            "Snap-on fella says £89 a month for the tablet"
        ));
        assert!(!super::retells("heads up snow removal on st-denis tonight"));
        assert!(super::informs("отписаться по остаткам труб"));
        assert!(super::informs("let Darlene know about the rates"));
        assert!(!super::informs("отвезти трубы на объект"));
        assert!(collects_money("выбить долг с Яшмы"));
        assert!(collects_money("chase Wiebe on the Feb invoice"));
        assert!(!collects_money("повесить шторы в детсад"));
    }

    #[test]
    fn a_plain_report_is_told_and_a_hedged_one_is_not() {
        assert!(plainly_reported("форсунку прочистил, горит ровно"));
        assert!(plainly_reported("заказ поставщику отправлен"));
        assert!(!plainly_reported("обложку переделывала три раза"));
        assert!(!plainly_reported(
            "устала как собака, обложку переделывала три раза"
        ));
        assert!(!plainly_reported("Лысенко сказал оплатит в понедельник"));
        // English: a past of the speaker's work; not someone else's, not a plan, not hedged.
        assert!(plainly_reported("yeast order's placed, lands wed"));
        assert!(plainly_reported("dupes refunded (all 7)"));
        // an irregular past from `lexicon/en/irregular.txt`
        assert!(plainly_reported("fatbike brakes bled, rear is firm now"));
        assert!(plainly_reported(
            "chaff collector emptied + cyclone vacuumed"
        ));
        assert!(plainly_reported(
            "Called Rashid, they are ok with 22nd vessel"
        ));
        assert!(!plainly_reported("they called asking about the quote"));
        // Someone else's doing, told by a past of `lexicon/en/agent_pasts.txt`.
        assert!(!plainly_reported(
            "Sunway called, they want a copy of our halal cert also"
        ));
        assert!(!plainly_reported("first tour of the season sold out 🎉"));
        assert!(!plainly_reported(
            "good news, Andrés sent the fumigation cert overnight"
        ));
        assert!(!plainly_reported("I'll have the heater fired up by 3"));
        assert!(!plainly_reported("quote not sent yet"));
        assert!(!plainly_reported("we need a hundred bags"));
        assert!(!plainly_reported("форсунку ещё не прочистил"));
        assert!(!plainly_reported(
            "щас сделаю вид, что я понял этот юридический китайский"
        ));
    }

    #[test]
    fn a_retelling_or_a_plan_vetoes_only_its_own_clause_and_after() {
        assert!(plainly_reported("регистратор поставил, пишет, проверил"));
        assert!(plainly_reported(
            "акты СМЦ отдал завхозу, обещала подписать до пт"
        ));
        assert!(!plainly_reported("сказал, что отправил"));
        assert!(!plainly_reported("Лысенко сказал, оплатит в понедельник"));
        assert!(!plainly_reported("отправлю завтра, договор подписан"));
    }

    #[test]
    fn the_rest_given_a_day_is_not_done() {
        assert!(!plainly_reported(
            "договоры 12 родителям разослала, остальным завтра"
        ));
        assert!(!reports_done(
            "за сегодня: договоры 12 родителям разослала, остальным завтра",
            "разослать договоры родителям"
        ));
        // A rest given no day leaves the report a report.
        assert!(reports_done(
            "договоры родителям разослала, остальные у Лены",
            "разослать договоры родителям"
        ));
        // Another sentence may tell its own work done.
        assert!(reports_done(
            "договоры 12 родителям разослала, остальным завтра. Бари в договор постоя внесла",
            "внести в договор постоя"
        ));
    }

    #[test]
    fn a_word_of_work_finished_names_no_verb() {
        assert!(super::finished_without_verb(
            "audit done ✅ 3 vaults w/ no paperwork"
        ));
        assert!(super::finished_without_verb("всё готово"));
        assert!(!super::finished_without_verb("Shoprite invoice sent"));
    }

    #[test]
    fn an_errand_with_no_object_reports_and_a_state_does_not() {
        // `lexicon/ru/done_intransitive.txt`
        assert!(plainly_reported(
            "Малышеву дозвонился, говорит оплатит в пятницу"
        ));
        assert!(plainly_reported("с Вектором договорилась, ждут счёт"));
        assert!(!plainly_reported("устала, опоздала на автобус"));
    }

    #[test]
    fn the_doer_is_the_name_that_opens_its_clause_in_the_nominative() {
        use super::doer_named;
        let people: Vec<crate::extract::names::Person> =
            [(1, "Кристина"), (2, "Алексей"), (3, "Aisha")]
                .into_iter()
                .map(|(id, n)| crate::extract::names::Person {
                    id,
                    first_name: n.to_string(),
                    last_name: None,
                    username: None,
                })
                .collect();
        let doer = |t: &str| doer_named(t, &crate::extract::names::people_in(t, &people));
        assert_eq!(
            doer("Кристина Андреевна формы уже разложила по кабинетам"),
            Some(1)
        );
        assert_eq!(doer("станок норм, Лёха компрессор забрал"), Some(2));
        assert_eq!(doer("Лёша компрессор забрал"), Some(2));
        assert_eq!(doer("Aisha sent the Roundhay quote"), Some(3));
        // Called to, or named in another case, or not opening the clause.
        assert_eq!(doer("Кристина, формы разложила"), None);
        assert_eq!(doer("Кристине формы отдала"), None);
        assert_eq!(doer("Лёхе компрессор отдал"), None);
        assert_eq!(doer("отдал компрессор Лёха"), None);
        assert_eq!(doer("Aisha: sent the quote"), None);
    }

    #[test]
    fn a_result_is_told_by_where_the_thing_now_is() {
        use super::result_told;
        fn at(t: &str) -> Option<&str> {
            result_told(t).map(|i| &t[..i])
        }
        assert_eq!(
            at("спецификация для новосиба в папке Опт/Декабрь"),
            Some("спецификация для новосиба ")
        );
        assert_eq!(
            at("письмо в администрацию Артёма ушло"),
            Some("письмо в администрацию Артёма ")
        );
        assert_eq!(
            at("документы по Тагирову у Галины"),
            Some("документы по Тагирову ")
        );
        assert_eq!(at("чеки у вас на столе под степлером"), Some("чеки "));
        // Up where it is seen.
        assert_eq!(
            at("пост про конкурс висит: https://vk.com/wall-201_1488"),
            Some("пост про конкурс ")
        );
        // Not a result: a plan, a question, the speaker still holding it, not yet.
        assert_eq!(at("документы завтра отвезу в офис"), None);
        assert_eq!(at("документы в папке?"), None);
        assert_eq!(at("чеки у меня в бардачке, завтра занесу"), None);
        assert_eq!(at("чеки у меня"), None);
        // Where the work left the thing: a particle after it.
        assert_eq!(at("bins are down at block 4, 24 of em"), Some("bins are "));
        assert_eq!(at("toe boards on at Hunslet lift 3"), Some("toe boards "));
        assert_eq!(at("Armley kit's back in the yard"), Some("Armley kit's "));
        assert_eq!(
            at("OASIS corrections are back with QA"),
            Some("OASIS corrections are ")
        );
        // The state the work leaves it in, and "on order".
        assert_eq!(at("flat top's clean 🧽"), Some("flat top's "));
        assert_eq!(at("smoker's set, inventory done"), Some("smoker's "));
        assert_eq!(at("gasket's on order, here tues"), Some("gasket's "));
        assert_eq!(at("I'm all set"), None);
        assert_eq!(at("I'm down at the yard"), None);
        assert_eq!(at("it's on at 5"), None);
        assert_eq!(at("he's off today"), None);
        assert_eq!(at("I'll have the bins down at block 4"), None);
        assert_eq!(at("договор ещё не в папке"), None);
        assert_eq!(at("Лысенко сказал, что счёт в бухгалтерии"), None);
        assert_eq!(
            at("quote's in tofino lodge's inbox, 4,850 all in"),
            Some("quote's ")
        );
        assert_eq!(
            at("sim logs are in your folder noor"),
            Some("sim logs are ")
        );
        assert_eq!(at("I'll drop the sim logs in your folder"), None);
        assert_eq!(at("is the quote in your inbox?"), None);
        // A thing that went where the work sends it; a person going tells nothing.
        assert_eq!(
            at("sponsor logo came in early so the proofs went to the printer"),
            Some("sponsor logo came in early so the proofs ")
        );
        assert_eq!(at("the invoices went out yesterday"), Some("the invoices "));
        assert_eq!(at("Tom went to the bank this morning"), None);
        assert_eq!(at("I went to the store"), None);
        assert!(!plainly_reported("half the bins dropped"));
        assert!(!plainly_reported("форсунку прочистил?"));
        assert!(!plainly_reported("форсунка в порядке"));
        // Up, or on a named thing; a plan after it speaks for its own clause only.
        assert_eq!(
            at("Gift wrap station is up 🎁 come see"),
            Some("Gift wrap station is ")
        );
        assert_eq!(
            at("Turbo's on Moana Rose and she runs sweet"),
            Some("Turbo's ")
        );
        assert_eq!(
            at("Christmas rota is up on the staff board, shout if there's any clashes"),
            Some("Christmas rota is ")
        );
        assert_eq!(at("prices are up again, ugh"), None);
        assert_eq!(at("the call is on Monday"), None);
        assert_eq!(at("if the stand is up I'll shoot it"), None);
    }

    #[test]
    fn a_telling_or_a_plan_speaks_for_its_own_clause() {
        assert!(plainly_reported(
            "All deliveries dropped, Mrs Hegarty says thanks"
        ));
        assert!(plainly_reported(
            "Told St Luke's about the new delivery days"
        ));
        assert!(plainly_reported(
            "Spoke to Uniphar, credit note coming through"
        ));
        assert!(!plainly_reported("Tom said he sent it"));
        assert!(!plainly_reported("I'll check whether they sent it"));
        assert!(!reports_done(
            "I'll put the photos there later",
            "put the photos in the folder"
        ));
    }

    proptest::proptest! {
        #[test]
        fn any_text_reads_without_panic(text in "\\PC{0,200}", a in 0usize..220, b in 0usize..220) {
            let _ = plainly_reported(&text);
            let _ = super::doer_named(&text, &[(a..b, 1), (b..a, 2)]);
            let _ = money_in(&text);
            let _ = collects_money(&text);
        }
    }

    #[test]
    fn a_report_with_the_promised_verb_is_done() {
        assert!(reports_done(
            "счёт Вектору выставила ✅",
            "выставить счёт Вектору за январь"
        ));
        assert!(reports_done(
            "договор с Гермесом вычитан, замечания в файле",
            "вычитать договор с Гермесом"
        ));
        assert!(reports_done(
            "каталог сверстан, pdf в папке",
            "сверстать каталог"
        ));
        assert!(reports_done(
            "kennels deep cleaned, smells like lemons",
            "deep clean the kennels"
        ));
        assert!(reports_done(
            "Luna's x-ray report sent to the owner",
            "send the x-ray report"
        ));
        assert!(reports_done(
            "surgery cabinet restocked",
            "restock the surgery pack cabinet"
        ));
    }

    #[test]
    fn chatter_without_a_past_form_is_skipped_early() {
        assert!(super::may_report("счёт выставила"));
        assert!(super::may_report("kennels cleaned"));
        assert!(super::may_report("invoice sent"));
        assert!(super::may_report("шаблоны залиты"));
        assert!(super::plainly_reported(
            "шаблоны в PACS залиты, пользуйтесь"
        ));
        assert!(!super::may_report("кто знает пароль от вайфая"));
        assert!(!super::may_report("can someone review my PR"));
    }

    #[test]
    fn progress_is_not_completion() {
        assert!(super::in_progress("почти половину контракта перевёл"));
        assert!(super::in_progress("halfway through the taproom stocktake"));
        assert!(!super::in_progress("контракт перевёл, отправил клиенту"));
        // A share under a hundred per cent is progress; all of it is not.
        assert!(super::in_progress(
            "Hillcrest about 80% done, panel programming left"
        ));
        assert!(super::in_progress("стенд готов на 70 процентов"));
        assert!(!super::in_progress("100% done, all tested"));
        assert!(!super::in_progress("скидка 15%, договор подписали"));
        assert!(!super::in_progress(
            "Uniphar meeting done, 5% off the Christmas lines"
        ));
    }

    #[test]
    fn pasts_of_irregular_verbs_by_the_dictionary() {
        assert!(reports_done(
            "принтер отвезла в ремонт, обещали за три дня",
            "отвезти принтер в ремонт"
        ));
        assert!(reports_done("ключи принёс", "принести ключи"));
        assert!(!reports_done("принтер отвезу завтра", "отвезти принтер"));
        assert!(!reports_done(
            "отчёты по Альфе и Бете сдала, остался Гамма",
            "сдать отчёты по всем клиентам"
        ));
        assert!(reports_done(
            "на письма ответил, осталось 2 странных, их Паше переслал",
            "ответить на письма"
        ));
    }

    #[test]
    fn hedged_or_other_verbs_are_not() {
        assert!(!reports_done(
            "счёт Вектору не выставила, нет реквизитов",
            "выставить счёт"
        ));
        assert!(!reports_done(
            "почти половину контракта перевёл",
            "перевести контракт"
        ));
        assert!(!reports_done("счёт выставила?", "выставить счёт"));
        assert!(!reports_done("договор прочитал", "вычитать договор"));
        assert!(!reports_done(
            "haven't sent the report yet",
            "send the report"
        ));
        assert!(!reports_done(
            "kennels look dirty",
            "deep clean the kennels"
        ));
        assert!(!reports_done("сделаю завтра", "сделать отчёт"));
        // What the speaker would do is no report.
        assert!(!reports_done(
            "Если Мамедов согласится, я бы заодно и помпу ему поменял",
            "поменять помпу"
        ));
    }

    #[test]
    fn a_thing_gone_somewhere_is_a_result() {
        assert!(super::result_told("Canada Post came, all 14 boxes gone to Toronto 📦").is_some());
        assert!(super::result_told("the proofs went to the printer").is_some());
        assert!(super::result_told("Tom went to the bank").is_none());
        // waiting for an answer after it still tells it sent; a plan does not
        assert!(super::result_told("КП Сибстали ушло, ждём").is_some());
        assert!(super::result_told("КП Сибстали ушло, завтра позвоню").is_none());
        assert!(super::result_told("Silverton pump's going again, tank's filling 👌").is_some());
        assert!(super::result_told("the pump's going to need a new controller").is_none());
    }
}
