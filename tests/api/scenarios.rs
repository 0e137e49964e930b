//! The public scenarios through `kept::replay::run_text`: the result has the contract's shape and
//! scores against its expectations the way `shared/tools/score_scenario.py` does; malformed
//! scenario lines are reported with their line number.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use chrono::{DateTime, FixedOffset};
use kept::domain::{Lang, UserId};
use kept::replay::{Options, ReplayError, run_text};
use serde_json::{Value, json};

fn scenarios_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/scenarios")
}

fn options() -> Options {
    Options {
        tz: chrono_tz::Europe::Moscow,
        lang: Lang::Ru,
        db: None,
        llm: Default::default(),
    }
}

// ---------------------------------------------------------------------------------------------
// The contract's result shape.

fn check_shape(name: &str, result: &Value) {
    for list in ["transcript", "commitments", "memories", "nodes"] {
        assert!(result[list].is_array(), "{name}: {list} is not a list");
    }
    for m in result["transcript"].as_array().unwrap() {
        for key in [
            "at", "chat", "to_user", "kind", "text", "reply_to", "buttons",
        ] {
            assert!(
                m.get(key).is_some(),
                "{name}: transcript entry without {key}: {m}"
            );
        }
        DateTime::parse_from_rfc3339(m["at"].as_str().unwrap()).expect("transcript at");
        assert!(m["chat"].is_i64());
        assert!(
            ["message", "photo", "reaction", "edit", "document"]
                .contains(&m["kind"].as_str().unwrap()),
            "{m}"
        );
        assert!(m["buttons"].is_array());
        let chat = m["chat"].as_i64().unwrap();
        if chat > 0 {
            assert_eq!(
                m["to_user"],
                json!(chat),
                "a private chat's id is the user's"
            );
        } else {
            assert!(m["to_user"].is_null());
        }
    }
    for c in result["commitments"].as_array().unwrap() {
        for key in [
            "id",
            "owner",
            "text",
            "origin",
            "updates",
            "due",
            "state",
            "confidence",
            "author",
        ] {
            assert!(
                c.get(key).is_some(),
                "{name}: commitment without {key}: {c}"
            );
        }
        assert!(c["id"].is_i64());
        assert!(c["owner"].is_i64());
        assert!(c["text"].as_str().is_some_and(|t| !t.is_empty()));
        assert!(c["origin"]["chat"].is_i64(), "{c}");
        assert!(c["origin"]["message"].is_i64(), "{c}");
        for u in c["updates"].as_array().expect("updates list") {
            assert!(u["chat"].is_i64() && u["message"].is_i64(), "{c}");
        }
        match &c["due"] {
            Value::Null => {}
            Value::String(d) => {
                chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").expect("due is YYYY-MM-DD");
            }
            other => panic!("{name}: due {other}"),
        }
        assert!(
            ["open", "done", "cancelled"].contains(&c["state"].as_str().unwrap()),
            "{c}"
        );
        let conf = c["confidence"].as_f64().expect("confidence");
        assert!((0.0..=1.0).contains(&conf));
        let author = c["author"].as_str().expect("author");
        assert!(
            author.starts_with("user:") || author.starts_with("agent:"),
            "{author}"
        );
    }
    for m in result["memories"].as_array().unwrap() {
        for key in [
            "id",
            "subject",
            "kind",
            "content",
            "confidence",
            "author",
            "visibility",
            "archived",
        ] {
            assert!(m.get(key).is_some(), "{name}: memory without {key}: {m}");
        }
    }
    for n in result["nodes"].as_array().unwrap() {
        for key in ["id", "node_type", "title", "slug", "owner"] {
            assert!(n.get(key).is_some(), "{name}: node without {key}: {n}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The scorer (the core of shared/tools/score_scenario.py).

fn norm(s: &str) -> String {
    s.to_lowercase().replace('ё', "е")
}

fn strings(v: &Value) -> Vec<String> {
    match v {
        Value::String(s) => vec![s.clone()],
        Value::Array(a) => a
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    }
}

/// `has_all`, `has_any` (a list of alternatives, or one string) and `has_none`.
fn text_ok(text: &str, spec: &Value) -> Result<(), String> {
    let t = norm(text);
    for w in strings(&spec["has_all"]) {
        if !t.contains(&norm(&w)) {
            return Err(format!("missing {w:?}"));
        }
    }
    for alts in spec["has_any"].as_array().into_iter().flatten() {
        let alts = strings(alts);
        if !alts.iter().any(|a| t.contains(&norm(a))) {
            return Err(format!("none of {alts:?}"));
        }
    }
    for w in strings(&spec["has_none"]) {
        if t.contains(&norm(&w)) {
            return Err(format!("must not contain {w:?}"));
        }
    }
    Ok(())
}

#[derive(Debug, Default)]
struct Score {
    tp: usize,
    fp: usize,
    fn_: usize,
    f1: f64,
    due: f64,
    state: f64,
    text: f64,
    /// Right and scored counts of due, state and text, for pooling several scenarios.
    counts: [usize; 6],
    misses: Vec<String>,
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 1.0 } else { a as f64 / b as f64 }
}

fn score_commitments(exp: &Value, res: &Value) -> Score {
    let empty = Vec::new();
    let got = res["commitments"].as_array().unwrap_or(&empty);
    let ignore: HashSet<i64> = exp["ignore"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_i64)
        .collect();
    let mut used = HashSet::new();
    let mut s = Score::default();
    let (mut due_n, mut due_ok, mut st_n, mut st_ok, mut tx_n, mut tx_ok) = (0, 0, 0, 0, 0, 0);
    for e in exp["commitments"].as_array().into_iter().flatten() {
        let origins: Vec<i64> = e["origin"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_i64)
            .collect();
        let cands: Vec<usize> = got
            .iter()
            .enumerate()
            .filter(|(i, p)| {
                !used.contains(i)
                    && p["owner"] == e["owner"]
                    && p["origin"]["message"]
                        .as_i64()
                        .is_some_and(|m| origins.contains(&m))
                    && (e.get("chat").is_none() || p["origin"]["chat"] == e["chat"])
            })
            .map(|(i, _)| i)
            .collect();
        let text_has = json!({"has_all": e.get("text_has").cloned().unwrap_or(json!([]))});
        let fits: Vec<usize> = cands
            .iter()
            .copied()
            .filter(|i| text_ok(got[*i]["text"].as_str().unwrap_or(""), &text_has).is_ok())
            .collect();
        let found = fits.first().or(cands.first()).copied();
        due_n += e.get("due").is_some() as usize;
        st_n += e.get("state").is_some() as usize;
        tx_n += e.get("text_has").is_some() as usize;
        let Some(i) = found else {
            s.fn_ += 1;
            s.misses.push(format!("MISSED {e}"));
            continue;
        };
        used.insert(i);
        s.tp += 1;
        let p = &got[i];
        if let Some(d) = e.get("due") {
            if &p["due"] == d {
                due_ok += 1;
            } else {
                s.misses
                    .push(format!("DUE {origins:?}: want {d} got {}", p["due"]));
            }
        }
        if let Some(st) = e.get("state") {
            if &p["state"] == st {
                st_ok += 1;
            } else {
                s.misses
                    .push(format!("STATE {origins:?}: want {st} got {}", p["state"]));
            }
        }
        if e.get("text_has").is_some() {
            match text_ok(p["text"].as_str().unwrap_or(""), &text_has) {
                Ok(()) => tx_ok += 1,
                Err(why) => s
                    .misses
                    .push(format!("TEXT {origins:?}: {why} in {}", p["text"])),
            }
        }
    }
    for (i, p) in got.iter().enumerate() {
        let origin = p["origin"]["message"].as_i64();
        if used.contains(&i) || origin.is_some_and(|m| ignore.contains(&m)) {
            continue;
        }
        s.fp += 1;
        s.misses.push(format!("EXTRA {p}"));
    }
    let prec = ratio(s.tp, s.tp + s.fp);
    let rec = ratio(s.tp, s.tp + s.fn_);
    s.f1 = if prec + rec > 0.0 {
        2.0 * prec * rec / (prec + rec)
    } else {
        0.0
    };
    s.due = ratio(due_ok, due_n);
    s.state = ratio(st_ok, st_n);
    s.text = ratio(tx_ok, tx_n);
    s.counts = [due_ok, due_n, st_ok, st_n, tx_ok, tx_n];
    s
}

/// Replies: the bot's messages with `reply_to` = `to` in that chat, joined, must pass the checks.
fn failed_replies(exp: &Value, res: &Value) -> Vec<String> {
    let empty = Vec::new();
    let tr = res["transcript"].as_array().unwrap_or(&empty);
    let mut failed = Vec::new();
    for r in exp["replies"].as_array().into_iter().flatten() {
        let chat = if r.get("chat").is_none_or(|c| c == "dm") {
            r.get("from").cloned().unwrap_or(Value::Null)
        } else {
            r["chat"].clone()
        };
        let texts: Vec<&str> = tr
            .iter()
            .filter(|m| m["reply_to"] == r["to"] && (chat.is_null() || m["chat"] == chat))
            .map(|m| m["text"].as_str().unwrap_or(""))
            .collect();
        if texts.is_empty() {
            failed.push(format!("no reply to {}", r["to"]));
            continue;
        }
        if let Err(why) = text_ok(&texts.join("\n"), r) {
            failed.push(format!("reply to {}: {why}: {texts:?}", r["to"]));
        }
    }
    failed
}

fn when(s: &str) -> DateTime<FixedOffset> {
    DateTime::parse_from_rfc3339(&s.replace('Z', "+00:00")).expect("a time")
}

/// Sends: some message to that user/chat within the window passes the checks (or exactly `count`).
fn failed_sends(exp: &Value, res: &Value) -> Vec<String> {
    let empty = Vec::new();
    let tr = res["transcript"].as_array().unwrap_or(&empty);
    let mut failed = Vec::new();
    for s in exp["sends"].as_array().into_iter().flatten() {
        let (lo, hi) = (
            when(s["after"].as_str().unwrap()),
            when(s["before"].as_str().unwrap()),
        );
        let window: Vec<&Value> = tr
            .iter()
            .filter(|m| {
                let at = when(m["at"].as_str().unwrap());
                lo <= at
                    && at <= hi
                    && s.get("to_user").is_none_or(|u| &m["to_user"] == u)
                    && s.get("chat").is_none_or(|c| &m["chat"] == c)
            })
            .collect();
        let matching = window
            .iter()
            .filter(|m| text_ok(m["text"].as_str().unwrap_or(""), s).is_ok())
            .count();
        let good = match s.get("count").and_then(Value::as_u64) {
            Some(n) => matching as u64 == n,
            None => matching > 0,
        };
        if !good {
            failed.push(format!(
                "{}: {matching} matching of {} in window",
                s.get("label").unwrap_or(s),
                window.len()
            ));
        }
    }
    failed
}

#[test]
fn the_scorer_follows_score_scenario_py_on_a_small_case() {
    let exp = json!({
        "commitments": [
            {"owner": 2, "origin": [10], "due": "2026-11-27", "state": "open", "text_has": ["auth"]},
            {"owner": 3, "origin": [11, 12], "state": "done"},
            {"owner": 4, "origin": [13], "due": "2026-11-30"}
        ],
        "ignore": [20],
        "replies": [{"to": 500, "chat": "dm", "from": 2, "has_all": ["auth"], "has_any": [["пятниц", "27.11"]], "has_none": ["наушник"]}],
        "sends": [{"to_user": 2, "after": "2026-11-24T09:00:00+03:00", "before": "2026-11-24T10:00:00+03:00", "has_all": ["auth"], "count": 1}]
    });
    let res = json!({
        "commitments": [
            {"owner": 2, "origin": {"chat": -1, "message": 10}, "text": "доделать Auth", "due": "2026-11-27", "state": "open"},
            {"owner": 3, "origin": {"chat": -1, "message": 12}, "text": "x", "due": null, "state": "open"},
            {"owner": 5, "origin": {"chat": -1, "message": 20}, "text": "ignored", "due": null, "state": "open"},
            {"owner": 5, "origin": {"chat": -1, "message": 21}, "text": "extra", "due": null, "state": "open"}
        ],
        "transcript": [
            {"at": "2026-11-24T09:30:00+03:00", "chat": 2, "to_user": 2, "text": "AUTH до пятницы", "reply_to": 500},
            {"at": "2026-11-24T09:31:00+03:00", "chat": 2, "to_user": 2, "text": "no", "reply_to": null}
        ]
    });
    let s = score_commitments(&exp, &res);
    assert_eq!((s.tp, s.fp, s.fn_), (2, 1, 1));
    assert!((s.f1 - 2.0 / 3.0).abs() < 1e-9);
    assert_eq!(s.due, 0.5, "the missed one counts as wrong");
    assert_eq!(s.state, 0.5);
    assert_eq!(s.text, 1.0);
    assert!(failed_replies(&exp, &res).is_empty());
    assert!(failed_sends(&exp, &res).is_empty());
    let strict = json!({"replies": [{"to": 500, "from": 2, "has_none": ["пятниц"]}],
                        "sends": [{"to_user": 2, "after": "2026-11-24T09:00:00+03:00", "before": "2026-11-24T10:00:00+03:00", "count": 1}]});
    assert_eq!(failed_replies(&strict, &res).len(), 1);
    assert_eq!(
        failed_sends(&strict, &res).len(),
        1,
        "two messages in the window"
    );
}

// ---------------------------------------------------------------------------------------------

/// Replays every scenario of a folder and holds it to its expectations.
async fn replay_folder(dir: &Path) {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    names.sort();
    assert!(names.len() >= 2, "{names:?}");
    for path in names {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let outcome = run_text(&text, options())
            .await
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!outcome.transcript.is_empty());
        let result = &outcome.json;
        check_shape(&name, result);

        let expect_path = path.with_extension("expect.json");
        let exp: Value =
            serde_json::from_str(&std::fs::read_to_string(&expect_path).unwrap()).unwrap();
        let s = score_commitments(&exp, result);
        let report = format!("{name}: {s:?}");
        assert!(s.f1 >= 0.95, "{report}");
        assert!(s.due >= 0.95, "{report}");
        assert!(s.state >= 0.95, "{report}");
        assert!(s.text >= 0.9, "{report}");
        let replies = failed_replies(&exp, result);
        assert!(replies.is_empty(), "{name}: {replies:#?}");
        let sends = failed_sends(&exp, result);
        assert!(sends.is_empty(), "{name}: {sends:#?}");
    }
}

#[tokio::test]
async fn public_scenarios_replay_with_the_contract_shape_and_meet_their_expectations() {
    replay_folder(&scenarios_dir()).await;
}

/// Scenarios written blind to the code by other testers (factory, logistics, accounting, IT,
/// print shop, agency, SaaS, electrical; eight timezones): kept as regression tests.
#[tokio::test]
async fn held_out_scenarios_by_other_testers_meet_their_expectations() {
    replay_folder(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/scenarios-extra")).await;
}

/// Every earlier blind round (written by testers who had not read the code, scored before the
/// fixes they prompted): pooled per round, none may fall below what it reaches now. A change to
/// capture that helps one round and costs another shows here.
#[tokio::test]
async fn earlier_blind_rounds_keep_their_pooled_scores() {
    // (folder, f1, due, state), each a little under the figure reached when the floor was set.
    const FLOORS: &[(&str, f64, f64, f64)] = &[
        ("scenarios-blind2", 0.96, 0.87, 0.88),
        ("scenarios-blind3", 0.97, 0.96, 0.93),
        ("scenarios-blind4", 0.93, 0.82, 0.81),
        ("scenarios-blind5", 0.97, 0.92, 0.85),
        ("scenarios-blind6", 0.94, 0.89, 0.88),
        ("scenarios-blind7", 0.89, 0.66, 0.78),
        ("scenarios-blind8", 0.93, 0.84, 0.82),
        ("scenarios-blind9", 0.90, 0.65, 0.80),
        ("scenarios-blind10", 0.89, 0.70, 0.72),
        ("scenarios-blind11", 0.90, 0.70, 0.70),
        ("scenarios-blind12", 0.85, 0.60, 0.54),
        ("scenarios-blind13", 0.92, 0.79, 0.78),
        ("scenarios-blind14", 0.92, 0.78, 0.78),
        ("scenarios-blind15", 0.84, 0.57, 0.57),
        ("scenarios-blind16", 0.88, 0.74, 0.67),
        ("scenarios-blind17", 0.90, 0.75, 0.68),
        ("scenarios-blind18", 0.88, 0.72, 0.72),
        ("scenarios-blind19", 0.85, 0.62, 0.52),
        ("scenarios-blind20", 0.89, 0.72, 0.61),
        ("scenarios-blind21", 0.91, 0.79, 0.75),
        ("scenarios-blind22", 0.90, 0.74, 0.73),
        ("scenarios-blind23", 0.89, 0.68, 0.66),
        ("scenarios-blind24", 0.94, 0.84, 0.83),
        ("scenarios-blind25", 0.91, 0.77, 0.76),
        ("scenarios-blind26", 0.96, 0.88, 0.88),
        ("scenarios-blind27", 0.93, 0.84, 0.83),
        ("scenarios-blind28", 0.90, 0.79, 0.76),
        ("scenarios-blind29", 0.93, 0.86, 0.83),
        ("scenarios-blind30", 0.93, 0.85, 0.83),
        ("scenarios-blind31", 0.93, 0.78, 0.76),
        ("scenarios-blind32", 0.95, 0.89, 0.84),
        ("scenarios-blind33", 0.97, 0.91, 0.92),
        ("scenarios-blind34", 0.95, 0.89, 0.82),
        ("scenarios-blind35", 0.91, 0.83, 0.81),
        ("scenarios-blind36", 0.91, 0.76, 0.78),
        ("scenarios-blind37", 0.88, 0.76, 0.69),
        ("scenarios-blind38", 0.89, 0.80, 0.65),
        ("scenarios-blind40", 0.92, 0.81, 0.70),
        ("scenarios-blind41", 0.90, 0.79, 0.75),
        ("scenarios-blind42", 0.88, 0.70, 0.67),
        ("scenarios-blind43", 0.94, 0.84, 0.71),
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut low = Vec::new();
    for (dir, f1_floor, due_floor, state_floor) in FLOORS {
        let mut names: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
            .collect();
        names.sort();
        assert!(names.len() >= 3, "{dir}: {names:?}");
        let (mut tp, mut fp, mut fn_) = (0, 0, 0);
        let mut counts = [0usize; 6];
        for path in names {
            let text = std::fs::read_to_string(&path).unwrap();
            let outcome = run_text(&text, options())
                .await
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let exp: Value = serde_json::from_str(
                &std::fs::read_to_string(path.with_extension("expect.json")).unwrap(),
            )
            .unwrap();
            let s = score_commitments(&exp, &outcome.json);
            (tp, fp, fn_) = (tp + s.tp, fp + s.fp, fn_ + s.fn_);
            for (c, n) in counts.iter_mut().zip(s.counts) {
                *c += n;
            }
        }
        let (p, r) = (ratio(tp, tp + fp), ratio(tp, tp + fn_));
        let f1 = 2.0 * p * r / (p + r).max(f64::EPSILON);
        let due = ratio(counts[0], counts[1]);
        let state = ratio(counts[2], counts[3]);
        if f1 < *f1_floor || due < *due_floor || state < *state_floor {
            low.push(format!(
                "{dir}: f1 {f1:.3} (floor {f1_floor}), due {due:.3} ({due_floor}), state {state:.3} ({state_floor})"
            ));
        }
    }
    assert!(low.is_empty(), "{}", low.join("\n"));
}

#[tokio::test]
async fn replaying_the_same_scenario_twice_gives_the_same_result() {
    let text = std::fs::read_to_string(scenarios_dir().join("team-week-ru.jsonl")).unwrap();
    let a = run_text(&text, options()).await.unwrap();
    let b = run_text(&text, options()).await.unwrap();
    assert_eq!(a.json, b.json);
    assert_eq!(a.transcript, b.transcript);
}

// ---------------------------------------------------------------------------------------------
// Malformed lines.

const ORG: &str = r#"{"type": "org", "name": "T", "timezone": "Europe/Moscow", "locale": "ru"}"#;
const MEMBER: &str = r#"{"type": "member", "user": {"id": 2, "first_name": "Дима"}, "role": "member", "dm_open": true}"#;
const MESSAGE: &str = r#"{"type": "message", "chat": {"id": -1001, "type": "supergroup", "title": "T"}, "id": 10, "from": 2, "date": "2026-11-23T10:00:00+03:00", "text": "доделаю отчёт до пятницы"}"#;

async fn line_error(lines: &[&str]) -> (usize, String) {
    match run_text(&lines.join("\n"), options()).await {
        Err(ReplayError::Line { line, message }) => (line, message),
        Err(other) => panic!("not a line error: {other:?}"),
        Ok(_) => panic!("a malformed scenario replayed"),
    }
}

#[tokio::test]
async fn a_line_that_is_not_json_is_reported_with_its_number() {
    let (line, message) = line_error(&[ORG, MEMBER, r#"{"type": "message", "id": 1"#]).await;
    assert_eq!(line, 3);
    assert!(message.contains("JSON"), "{message}");
}

#[tokio::test]
async fn an_unknown_event_type_is_reported_with_its_number() {
    let (line, message) = line_error(&[ORG, r#"{"type": "teleport", "at": 1}"#, MESSAGE]).await;
    assert_eq!(line, 2);
    assert!(message.contains("teleport"), "{message}");
}

#[tokio::test]
async fn a_bad_date_is_reported_with_its_number() {
    let bad = MESSAGE.replace("2026-11-23T10:00:00+03:00", "23.11.2026 10:00");
    let (line, message) = line_error(&[ORG, MEMBER, MESSAGE, &bad]).await;
    assert_eq!(line, 4);
    assert!(message.contains("date"), "{message}");
    let (line, _) = line_error(&[ORG, r#"{"type": "clock", "at": "tomorrow"}"#]).await;
    assert_eq!(line, 2);
}

#[tokio::test]
async fn a_user_object_without_an_id_is_reported_with_its_number() {
    let no_id = MESSAGE.replace(r#""from": 2"#, r#""from": {"first_name": "Дима"}"#);
    let (line, message) = line_error(&[ORG, MEMBER, &no_id]).await;
    assert_eq!(line, 3);
    assert!(message.contains("id"), "{message}");
    let member_no_id = r#"{"type": "member", "user": {"first_name": "Дима"}, "role": "member"}"#;
    let (line, _) = line_error(&[ORG, member_no_id]).await;
    assert_eq!(line, 2);
}

#[tokio::test]
async fn blank_lines_count_in_the_reported_line_number() {
    let (line, _) = line_error(&[ORG, "", MEMBER, "   ", "{oops"]).await;
    assert_eq!(line, 5);
}

#[tokio::test]
async fn a_scenario_without_events_is_an_error_not_a_panic() {
    assert!(matches!(
        run_text("", options()).await,
        Err(ReplayError::Empty)
    ));
    assert!(matches!(
        run_text(&format!("{ORG}\n{MEMBER}"), options()).await,
        Err(ReplayError::Empty)
    ));
}

#[tokio::test]
async fn a_manager_may_be_introduced_after_their_reports() {
    let report = r#"{"type": "member", "user": {"id": 2, "first_name": "Дима"}, "role": "member", "manager": 1, "dm_open": true}"#;
    let boss = r#"{"type": "member", "user": {"id": 1, "first_name": "Анна"}, "role": "director", "dm_open": true}"#;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("kept.db");
    let opts = Options {
        db: Some(db.clone()),
        ..options()
    };
    let out = run_text(&[ORG, report, boss, MESSAGE].join("\n"), opts)
        .await
        .unwrap();
    assert_eq!(out.json["commitments"].as_array().map(Vec::len), Some(1));
    // The report is linked to the manager once the manager's line is read.
    let store = kept::store::Store::open(&db).await.unwrap();
    let org = store.org_of_user(UserId(2)).await.unwrap().unwrap();
    let member = store.member(org, UserId(2)).await.unwrap().unwrap();
    assert_eq!(member.manager_id, Some(UserId(1)));
    // A manager who never appears is still an error, reported at the member's line.
    let (line, message) = line_error(&[ORG, report, MESSAGE]).await;
    assert_eq!(line, 2);
    assert!(message.contains("manager 1"), "{message}");
}
