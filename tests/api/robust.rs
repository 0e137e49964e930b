//! Extraction never panics: property tests on arbitrary Unicode, and every message text of the
//! project's own corpora, through each public entry point of `extract/`.
//!
//! Time is not asserted here (a loaded CI machine would make such a test flaky); the work is
//! bounded by construction in `commitments::analyze` and measured in `benches/long_message.rs`.

use std::path::Path;

use chrono::{DateTime, TimeZone};
use chrono_tz::Tz;
use kept::extract::commitments::{self, MessageInput};
use kept::extract::{Lang, dates, decisions, intent, names, report, words};
use proptest::prelude::*;

fn people() -> Vec<names::Person> {
    let p = |id: i64, f: &str, l: Option<&str>, u: Option<&str>| names::Person {
        id,
        first_name: f.to_string(),
        last_name: l.map(str::to_string),
        username: u.map(str::to_string),
    };
    vec![
        p(1, "Анна", Some("Смирнова"), Some("anna")),
        p(2, "Дмитрий", Some("Кузнецов"), Some("dima")),
        p(3, "Игорь", Some("Валентинович"), None),
        p(4, "Ben", Some("Carter"), Some("ben")),
        p(5, "Kate", None, Some("kate_h")),
        p(6, "Ё", Some("Ъ"), Some("x")),
        p(7, "", None, None),
        p(8, "Mary-Jane", Some("O'Neil"), Some("mj")),
    ]
}

fn monday() -> DateTime<Tz> {
    chrono_tz::Europe::Moscow
        .with_ymd_and_hms(2026, 11, 23, 10, 0, 0)
        .single()
        .expect("valid time")
}

/// Every entry point of `extract/` a message or a question goes through, on one text.
fn everything(text: &str, people: &[names::Person]) {
    let now = monday();
    for speaker in [1, 4, 99] {
        for lang in [None, Some(Lang::Ru), Some(Lang::En)] {
            let found = commitments::analyze(&MessageInput {
                text,
                now,
                speaker,
                people,
                mentions: if speaker == 1 { &[2, 4] } else { &[] },
                lang,
            });
            for f in &found {
                let _ = f.due();
            }
        }
    }
    let _ = commitments::significant_stems(text);
    let _ = commitments::with_context(text, text);
    let _ = commitments::with_context("x", text);
    let _ = commitments::reply_context("x", text);
    let _ = commitments::verb_clause("сделать", text);
    for person in [1, 2, 4] {
        let _ = commitments::assigned(text, now, people, person);
    }
    for lang in [Lang::Ru, Lang::En] {
        let _ = dates::find(text, now, lang);
        let _ = dates::deadline(text, now, lang);
        let _ = dates::resolve(text, now, lang);
        let _ = intent::classify(text, lang);
    }
    let _ = intent::topic_stems(text);
    let _ = names::people_in(text, people);
    let _ = names::NameIndex::new(people).people_in(text);
    let _ = names::resolve(text, people);
    let _ = names::translit(text);
    let _ = names::fast_tokens(text);
    let _ = names::is_patronymic_word(text);
    let _ = decisions::decision(text);
    let _ = report::in_progress(text);
    let _ = report::may_report(text);
    let _ = report::reports_done(text, text);
    let _ = report::reports_done(text, "send the deck");
    let _ = words::tokens(text);
    let _ = words::normalize(text);
    let _ = words::stem(text);
    let _ = Lang::detect(text);
}

#[test]
fn the_reported_sentence_does_not_panic() {
    everything(
        "Change the second call to 7 thirty will you, please?",
        &people(),
    );
}

/// Pieces that steer the rules down their deeper paths: cue words of both languages, dates,
/// names in several cases, numbers, and the characters that trip byte offsets.
const PIECES: &[&str] = &[
    "I'll",
    "will",
    "you",
    "please",
    "pls",
    "let's",
    "lets",
    "mind",
    "can",
    "could",
    "send",
    "change",
    "call",
    "second",
    "by",
    "Friday",
    "tomorrow",
    "tmrw",
    "EOD",
    "thirty",
    "7",
    "10:30",
    "done",
    "sent",
    "not",
    "won't",
    "cancel",
    "move",
    "to",
    "the",
    "deck",
    "Ben",
    "ben",
    "@ben",
    "@dima",
    "Kate",
    "Mary-Jane",
    "доделаю",
    "сделаю",
    "пришлю",
    "скину",
    "до",
    "к",
    "пятницы",
    "завтра",
    "послезавтра",
    "в",
    "четверг",
    "15:00",
    "не",
    "успеваю",
    "переношу",
    "на",
    "готово",
    "отправил",
    "можешь",
    "сможешь",
    "плз",
    "пожалуйста",
    "Дима",
    "Диме",
    "Дмитрия",
    "Анна",
    "Игорь",
    "Валентинович",
    "принято",
    "ок",
    "ли",
    "решили",
    "почти",
    "половину",
    "запомни",
    "что",
    "кто",
    "отвечает",
    "за",
    "remember",
    "that",
    "what",
    "is",
    "up",
    "who",
    "idle",
    "мои",
    "приоритеты",
    "через",
    "2",
    "дня",
    "часа",
    "минут",
    "1041",
    "31.12",
    "2026",
    "ё",
    "Ё",
    "ß",
    "İ",
    "ﬁ",
    "й",
    "и\u{306}",
    "e\u{301}",
    "\u{301}",
    "\u{200d}",
    "\u{fe0f}",
    "👍",
    "👨‍👩‍👧",
    "🇷🇺",
    "…",
    "—",
    "–",
    "-",
    "«",
    "»",
    "\"",
    "'",
    "’",
    "(",
    ")",
    ",",
    ".",
    "!",
    "?",
    ";",
    ":",
    "\n",
    "\t",
    " ",
    "  ",
    "/",
    "%",
    "#",
    "\u{0}",
    "\u{feff}",
    "１２",
    "٣",
    // Numbers and units where date arithmetic could overflow.
    "0",
    "00",
    "4294967295",
    "2147483648",
    "99999999999999999999",
    "9999",
    "1000",
    "0th",
    "31st",
    "29",
    "февраля",
    "Feb",
    "Q4",
    "2018Q0",
    "квартал",
    "quarter",
    "через",
    "минут",
    "часов",
    "лет",
    "years",
    "ago",
    "weeks",
    "in",
    "12:60",
    "25:00",
    "0:00",
    "pm",
    "am",
    "noon",
    "полночь",
    "half",
    "past",
    "quarter to",
    "1,5",
    "1.5",
    "-",
    "+",
    "13",
    "2",
    "2moro",
    "2nite",
    "EOW",
    "next",
    "last",
    "this",
    "прошлой",
    "следующей",
    "неделе",
    "месяца",
    "конца",
    "year",
    "день-два",
];

/// Cues the rules look past by a word or two: a message that ends right after one is where an
/// index runs off the end ("…will you, please?").
const CUES: &[&str] = &[
    "will you",
    "will you please",
    "can you",
    "could you mind",
    "would y'all",
    "need you to",
    "make sure",
    "let's",
    "Ben, let's",
    "Ben pls",
    "Ben, please",
    "@ben",
    "can someone",
    "could anyone",
    "who can",
    "who will",
    "кто может",
    "кто-нибудь сможет",
    "кто то возьмет",
    "не забудь",
    "не забудь про",
    "не забудьте",
    "можешь",
    "сможете",
    "Дима, можешь",
    "Дима,",
    "Игорь Валентинович,",
    "да, сделаю",
    "ок,",
    "sure, will do",
    "all set",
    "got",
    "i'll",
    "we'll",
    "gonna",
    "going to",
    "а не",
    "нужен",
    "need",
    "сделаю",
    "сделаешь?",
    "done",
    "I can",
    "on it",
    "should have",
    "пришли",
    "выстави",
    "и потом",
    "and then",
];

fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => proptest::sample::select(CUES).prop_map(str::to_string),
        6 => proptest::sample::select(PIECES).prop_map(str::to_string),
        1 => any::<char>().prop_map(String::from),
        1 => "[a-zA-Zа-яА-ЯёЁ0-9]{1,12}",
        1 => "\\PC{1,6}",
    ]
}

/// Words and marks glued with and without spaces, so pieces also fuse into odd tokens.
fn message() -> impl Strategy<Value = String> {
    proptest::collection::vec((piece(), prop_oneof![4 => Just(" "), 1 => Just(""), 1 => Just(", "), 1 => Just("? "), 1 => Just(". ")]), 0..24)
        .prop_map(|v| {
            v.into_iter()
                .map(|(p, sep)| format!("{p}{sep}"))
                .collect()
        })
}

/// `cases` unless `PROPTEST_CASES` asks for more (a longer hunt: `PROPTEST_CASES=100000`).
fn config(cases: u32) -> ProptestConfig {
    let mut c = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        c.cases = cases;
    }
    c
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn no_panic_on_mixed_words(text in message()) {
        everything(&text, &people());
    }

    #[test]
    fn no_panic_on_arbitrary_unicode(text in "\\PC{0,80}|.{0,80}") {
        everything(&text, &people());
    }

    #[test]
    fn no_panic_on_names_made_of_anything(
        first in "\\PC{0,8}",
        last in proptest::option::of("\\PC{0,8}"),
        user in proptest::option::of("\\PC{0,8}"),
        text in message(),
    ) {
        let mut ppl = people();
        ppl.push(names::Person { id: 42, first_name: first.clone(), last_name: last, username: user });
        everything(&text, &ppl);
        everything(&first, &ppl);
    }
}

proptest! {
    // Long texts are slow in a debug build: fewer of them.
    #![proptest_config(config(6))]

    #[test]
    fn no_panic_on_long_texts(parts in proptest::collection::vec(message(), 200..1500)) {
        let text = parts.join(" ");
        let ppl = people();
        let found = commitments::analyze(&MessageInput {
            text: &text, now: monday(), speaker: 1, people: &ppl, mentions: &[], lang: None,
        });
        let _ = found;
        let _ = dates::find(&text, monday(), Lang::En);
        let _ = names::people_in(&text, &ppl);
        let _ = intent::classify(&text, Lang::Ru);
    }
}

proptest! {
    #![proptest_config(config(500))]

    /// Pieces are the whole text, in order, each within the limit, and never empty.
    #[test]
    fn pieces_cover_the_text_within_the_limit(text in "(\\PC|[ \n.!?])*", max in 2usize..64) {
        let parts = commitments::pieces(&text, max);
        prop_assert_eq!(parts.concat(), text.clone());
        for p in &parts {
            prop_assert!(p.chars().count() <= max, "{:?} over {}", p, max);
            prop_assert!(!p.is_empty() || text.is_empty());
        }
    }
}

#[test]
fn a_long_text_is_cut_at_line_and_sentence_ends() {
    let line = "кто-нибудь знает, где лежат доступы к стейджингу? в 1password, папка Infra.\n";
    let text = line.repeat(200);
    let parts = commitments::pieces(&text, commitments::PIECE_CHARS);
    assert!(parts.len() > 3, "{} pieces", parts.len());
    for p in &parts {
        assert!(
            p.ends_with('\n'),
            "cut inside a line: {:?}",
            &p[p.len() - 20..]
        );
        assert!(p.chars().count() > commitments::PIECE_CHARS / 2);
    }
    let one_line = line.trim_end().repeat(200);
    for p in commitments::pieces(&one_line, commitments::PIECE_CHARS)
        .iter()
        .rev()
        .skip(1)
    {
        assert!(
            p.ends_with('.') || p.ends_with('?'),
            "cut inside a sentence: {p:?}"
        );
    }
}

/// Nothing lost past Telegram's limit: a promise far into a long imported text is found, and
/// one said in several pieces is found once.
#[test]
fn a_promise_deep_in_a_long_text_is_found_once() {
    let chatter = "обед в 13:00, кто с нами? sounds good to me.\n".repeat(300);
    assert!(chatter.chars().count() > 3 * commitments::PIECE_CHARS);
    let promise = "завтра скину макеты упаковки\n";
    let ppl = people();
    let run = |text: &str| {
        commitments::analyze(&MessageInput {
            text,
            now: monday(),
            speaker: 1,
            people: &ppl,
            mentions: &[],
            lang: None,
        })
    };
    let alone = run(promise);
    assert_eq!(alone.len(), 1, "{alone:?}");
    assert_eq!(run(&format!("{chatter}{promise}")), alone);
    assert_eq!(run(&format!("{promise}{chatter}{promise}")), alone);
}

#[test]
fn a_panic_in_analysis_gives_no_findings_and_goes_on() {
    use kept::domain::{ChatId, MessageId};
    use kept::ingest::analyze_guarded;
    let key = (ChatId(-100), MessageId(7));
    let none: Vec<commitments::Finding> = analyze_guarded(key, || {
        let v: Vec<usize> = Vec::new();
        let at = v.len() + 1;
        vec![commitments::Finding::Done {
            words: vec![v[at].to_string()],
        }]
    });
    assert!(none.is_empty());
    let formatted: Option<String> = analyze_guarded(key, || panic!("{}", "a formatted panic"));
    assert_eq!(formatted, None);
    // Without a panic the reading comes through as it is.
    assert_eq!(analyze_guarded(key, || Some(3)), Some(3));
}

/// Every `"text"` string of a JSON value, at any depth.
fn texts(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(o) => {
            for (k, x) in o {
                match x {
                    serde_json::Value::String(s) if k == "text" => out.push(s.clone()),
                    _ => texts(x, out),
                }
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| texts(x, out)),
        _ => {}
    }
}

fn corpus_texts(dir: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("readable corpus folder")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            corpus_texts(&p, out);
        } else if p.extension().is_some_and(|e| e == "jsonl") {
            let body = std::fs::read_to_string(&p).expect("readable corpus file");
            for line in body.lines().filter(|l| !l.trim().is_empty()) {
                let v: serde_json::Value =
                    serde_json::from_str(line).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
                texts(&v, out);
            }
        }
    }
}

#[test]
fn no_panic_on_any_text_of_the_corpora() {
    let mut all = Vec::new();
    corpus_texts(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data"),
        &mut all,
    );
    // The scenarios, the labelled commitments and both date corpora are all there.
    assert!(all.len() > 2000, "only {} texts found", all.len());
    let ppl = people();
    for t in &all {
        everything(t, &ppl);
    }
}

/// A long text of issue numbers and links is read in one pass: the words after "#" and inside
/// a link name nothing (the search for them was quadratic on a text without spaces).
#[test]
fn issue_numbers_and_links_in_a_long_text_name_nothing() {
    let numbers = "#1,".repeat(300_000);
    assert!(commitments::significant_stems(&numbers).is_empty());
    let links = "fixed in https://github.com/acme/app/pull/12 and #345 ".repeat(20_000);
    assert!(commitments::significant_stems(&links).is_empty());
    let bare = "ж#1,ё.5,9.ё https://ж.рф/#ё www.пример.рф/x#y ".repeat(10_000);
    let _ = commitments::significant_stems(&bare);
    let _ = commitments::reply_context("поправить", &bare);
}
