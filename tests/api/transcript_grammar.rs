//! Every bot message of every bundled scenario and the demo, scanned for what a native speaker
//! would never write: a team member's name in the nominative after у/для/про/о/с/к, a list that
//! is empty after its colon, a message that is only its bold header.

use std::path::{Path, PathBuf};

use kept::domain::Lang;
use kept::render::names::{Case, names};
use kept::render::visible;
use kept::replay::{Options, run_text};
use serde_json::Value;

fn scenario_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![
        root.join("demo/demo-ru.jsonl"),
        root.join("demo/demo-en.jsonl"),
    ];
    for dir in std::fs::read_dir(root.join("tests/data")).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir()
            || !dir
                .file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("scenarios")
        {
            continue;
        }
        for f in std::fs::read_dir(&dir).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_some_and(|e| e == "jsonl") {
                files.push(f);
            }
        }
    }
    files.sort();
    files
}

/// (first name, last name) of every member line.
fn members(text: &str) -> Vec<(String, Option<String>)> {
    text.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "member")
        .map(|v| {
            (
                v["user"]["first_name"].as_str().unwrap_or("").to_string(),
                v["user"]["last_name"].as_str().map(str::to_string),
            )
        })
        .collect()
}

const PREPOSITIONS: &[(&str, Case)] = &[
    ("у", Case::Genitive),
    ("для", Case::Genitive),
    ("про", Case::Accusative),
    ("о", Case::Prepositional),
    ("об", Case::Prepositional),
    ("с", Case::Instrumental),
    ("со", Case::Instrumental),
    ("к", Case::Dative),
    ("ко", Case::Dative),
];

/// `needle` in `hay` as whole words.
fn has_phrase(hay: &str, needle: &str) -> bool {
    let lower = hay.to_lowercase();
    let needle = needle.to_lowercase();
    lower.match_indices(&needle).any(|(i, _)| {
        let before = lower[..i].chars().next_back();
        let after = lower[i + needle.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

fn problems(file: &Path, text: &str, transcript: &[Value]) -> Vec<String> {
    let people = members(text);
    let mut out = Vec::new();
    for m in transcript {
        let shown = visible(m["text"].as_str().unwrap_or(""));
        if m["kind"] == "reaction" || (m["kind"] == "edit" && shown.is_empty()) {
            continue;
        }
        let lines: Vec<&str> = shown.lines().collect();
        // A message that is only its bold header says nothing.
        let raw = m["text"].as_str().unwrap_or("").trim();
        if lines.iter().filter(|l| !l.trim().is_empty()).count() == 1
            && raw.starts_with("<b>")
            && raw.ends_with("</b>")
        {
            out.push(format!(
                "{}: a message that is only a header: {raw:?}",
                file.display()
            ));
        }
        // A colon with nothing after it: the last line, or one followed by a blank line.
        for (k, l) in lines.iter().enumerate() {
            let next_blank = lines.get(k + 1).is_none_or(|n| n.trim().is_empty());
            if l.trim_end().ends_with(':') && next_blank {
                out.push(format!("{}: empty list after {l:?}", file.display()));
            }
        }
        for (first, last) in &people {
            for (prep, case) in PREPOSITIONS {
                for (nom, needed) in [
                    (
                        match last {
                            Some(l) => format!("{first} {l}"),
                            None => first.clone(),
                        },
                        names().full(first, last.as_deref(), None, *case),
                    ),
                    (first.clone(), names().full(first, None, None, *case)),
                ] {
                    if nom != needed && has_phrase(&shown, &format!("{prep} {nom}")) {
                        out.push(format!(
                            "{}: «{prep} {nom}» (should be «{prep} {needed}») in {shown:?}",
                            file.display()
                        ));
                    }
                }
            }
        }
    }
    out
}

/// A replay in Moscow time, in Russian, in memory.
fn moscow() -> Options {
    Options {
        tz: chrono_tz::Europe::Moscow,
        lang: Lang::Ru,
        db: None,
        llm: Default::default(),
    }
}

#[tokio::test]
async fn no_bundled_transcript_has_a_nominative_after_a_preposition_or_an_empty_list() {
    let mut all = Vec::new();
    let files = scenario_files();
    assert!(files.len() > 20, "{files:?}");
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let out = run_text(&text, moscow())
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        all.extend(problems(
            f,
            &text,
            out.json["transcript"].as_array().unwrap(),
        ));
    }
    assert!(
        all.is_empty(),
        "{} problems:\n{}",
        all.len(),
        all.join("\n")
    );
}

/// Thirty people, men and women, with indeclinable, common-gender and double surnames.
const TEAM: &[(&str, &str)] = &[
    ("Павел", "Орлов"),
    ("Никита", "Лебедь"),
    ("Игорь", "Ким"),
    ("Тарас", "Черных"),
    ("Лев", "Толстых"),
    ("Виктор", "Бонч-Бруевич"),
    ("Сергей", "Шевченко"),
    ("Пётр", "Гусь"),
    ("Михаил", "Долгих"),
    ("Илья", "Муромцев"),
    ("Кузьма", "Минин"),
    ("Фома", "Киняев"),
    ("Дмитрий", "Кузнецов"),
    ("Алексей", "Дурново"),
    ("Николай", "Римский-Корсаков"),
    ("Наталья", "Лис"),
    ("Анна", "Ким"),
    ("Ольга", "Гусь"),
    ("Елена", "Павлова"),
    ("Любовь", "Орлова"),
    ("Мария", "Шевченко"),
    ("Ирина", "Черных"),
    ("Светлана", "Лебедь"),
    ("Юлия", "Седых"),
    ("Ксения", "Собчак"),
    ("Вера", "Брежнева"),
    ("Дарья", "Мороз"),
    ("Екатерина", "Мельник"),
    ("Алия", "Гарипова"),
    ("Софья", "Петрова-Водкина"),
];

#[tokio::test]
async fn thirty_russian_names_in_answers_take_the_case_the_sentence_needs() {
    use serde_json::json;
    let group = json!({"id": -1_001_030, "type": "supergroup", "title": "Цех"});
    let mut lines = vec![
        json!({"type": "org", "name": "Цех", "timezone": "Europe/Moscow", "locale": "ru"}),
        json!({"type": "member", "user": {"id": 1, "first_name": "Анна", "last_name": "Смирнова", "language_code": "ru"}, "role": "director", "dm_open": true}),
    ];
    for (k, (first, last)) in TEAM.iter().enumerate() {
        lines.push(
            json!({"type": "member", "user": {"id": 10 + k, "first_name": first, "last_name": last},
                          "role": "member", "manager": 1, "dm_open": true}),
        );
    }
    for (k, _) in TEAM.iter().enumerate() {
        lines.push(
            json!({"type": "message", "chat": group, "id": 100 + k, "from": 10 + k,
                          "date": format!("2026-11-23T10:{:02}:00+03:00", k),
                          "text": format!("подготовлю отчёт по участку {} до пятницы", k + 1)}),
        );
    }
    let mut asked = Vec::new();
    for (k, (first, last)) in TEAM.iter().enumerate() {
        let gen_full = names().full(first, Some(last), None, Case::Genitive);
        asked.push((200 + 2 * k, gen_full.clone()));
        lines.push(
            json!({"type": "message", "chat": "dm", "id": 200 + 2 * k, "from": 1,
                          "date": format!("2026-11-24T10:{:02}:00+03:00", 2 * k % 60),
                          "text": format!("что у {gen_full} в работе?")}),
        );
        lines.push(json!({"type": "message", "chat": "dm", "id": 201 + 2 * k, "from": 1,
                          "date": format!("2026-11-24T10:{:02}:30+03:00", 2 * k % 60),
                          "text": format!("запомни, что {first} {last} отвечает за участок {}", k + 1)}));
    }
    lines.push(json!({"type": "clock", "at": "2026-11-27T20:00:00+03:00"}));
    let text: String = lines.iter().map(|l| l.to_string() + "\n").collect();
    let out = run_text(&text, moscow()).await.unwrap();
    let transcript = out.json["transcript"].as_array().unwrap();
    let found = problems(Path::new("thirty names"), &text, transcript);
    assert!(found.is_empty(), "{}", found.join("\n"));
    // Each status answer names the person in the genitive, as the question did.
    let mut wrong = Vec::new();
    for (id, gen_full) in asked {
        let answer: String = transcript
            .iter()
            .filter(|m| m["reply_to"] == serde_json::json!(id))
            .map(|m| visible(m["text"].as_str().unwrap()))
            .collect();
        if !answer.starts_with(&format!("В работе у {gen_full} — 1 обещание")) {
            wrong.push(format!("{gen_full}: {answer:.80}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
