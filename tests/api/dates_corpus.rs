//! The Duckling time corpora (tests/data/dates/, BSD: LICENSE.duckling) through
//! `dates::resolve`, scored exactly as /work/shared/tools/score_dates.py scores them: at the
//! case's grain, by kind (point, interval, before, after, none); holiday and contested cases are
//! not scored. Fails below 0.985 (ru) or 0.94 (en).
//!
//! `cargo test --test api dates_corpus -- --nocapture` prints the accuracy and the first misses.

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDateTime, TimeDelta, Timelike};
use chrono_tz::Tz;
use kept::extract::Lang;
use kept::extract::dates::resolve;
use serde_json::Value;

/// `wall` of the script: drop any offset, pad a date or a minute to seconds.
fn wall(s: Option<&str>) -> Option<NaiveDateTime> {
    let s = s?;
    if s.is_empty() {
        return None;
    }
    let s = s.replace('Z', "+00:00");
    let mut s = if s.len() > 19 && matches!(s.as_bytes()[19], b'+' | b'-') {
        s[..19].to_string()
    } else {
        s
    };
    if s.len() == 10 {
        s.push_str("T00:00:00");
    }
    if s.len() == 16 {
        s.push_str(":00");
    }
    let s = s.get(..19).unwrap_or(&s);
    Some(
        NaiveDateTime::parse_from_str(s, "%Y-%m-%dT%H:%M:%S")
            .unwrap_or_else(|e| panic!("bad time {s:?}: {e}")),
    )
}

/// `key` of the script: the value compared at a grain.
fn key(dt: Option<NaiveDateTime>, grain: Option<&str>) -> Option<String> {
    let dt = dt?;
    let fmt = match grain {
        Some("second" | "minute") => "%Y-%m-%dT%H:%M",
        Some("hour") => "%Y-%m-%dT%H",
        Some("day" | "week") => "%Y-%m-%d",
        Some("month" | "quarter") => "%Y-%m",
        Some("year") => "%Y",
        _ => "%Y-%m-%dT%H:%M:%S",
    };
    Some(dt.format(fmt).to_string())
}

/// `ok` of the script. `pred`: (start, end) as `kept when` prints them, `None` for no match.
fn ok(case: &Value, pred: Option<(Option<NaiveDateTime>, Option<NaiveDateTime>)>) -> bool {
    let kind = case["kind"].as_str().unwrap();
    let grain = case["grain"].as_str();
    let (ps, pe) = pred.unwrap_or((None, None));
    let cs = wall(case["start"].as_str());
    let ce = wall(case["end"].as_str());
    match kind {
        "none" => ps.is_none() && pe.is_none(),
        "point" | "after" => ps.is_some() && key(ps, grain) == key(cs, grain),
        "interval" => {
            ps.is_some()
                && pe.is_some()
                && key(ps, grain) == key(cs, grain)
                && key(pe, grain) == key(ce, grain)
        }
        "before" => {
            let e = ce.expect("a before case has an end");
            if pe.is_some() && key(pe, Some("minute")) == key(Some(e), Some("minute")) {
                return true;
            }
            // 'by end of day/month' may also be given as the last day itself
            ps.is_some()
                && pe.is_none()
                && e.hour() == 0
                && e.minute() == 0
                && key(ps, Some("day")) == key(Some(e - TimeDelta::seconds(1)), Some("day"))
                && matches!(grain, Some("hour" | "day" | "month"))
        }
        _ => false,
    }
}

/// Scores one file: (good, scored) per kind, and the misses.
fn score(file: &str) -> (BTreeMap<String, (usize, usize)>, Vec<String>) {
    let path = format!("{}/tests/data/dates/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut per: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut misses = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).unwrap();
        let truthy = |k: &str| {
            case.get(k)
                .is_some_and(|v| v.as_bool().unwrap_or(!v.is_null()))
        };
        if truthy("contested") || truthy("holiday") {
            continue;
        }
        let tz: Tz = case["tz"].as_str().unwrap().parse().unwrap();
        let now = DateTime::parse_from_rfc3339(case["now"].as_str().unwrap())
            .unwrap()
            .with_timezone(&tz);
        let lang = match case["lang"].as_str().unwrap() {
            "ru" => Lang::Ru,
            _ => Lang::En,
        };
        let text = case["text"].as_str().unwrap();
        // Printed and re-read at seconds, as `kept when` and the script do.
        let at_seconds = |t: Option<NaiveDateTime>| t.and_then(|t| t.with_nanosecond(0));
        let v = resolve(text, now, lang);
        let pred = v.as_ref().map(|v| (at_seconds(v.start), at_seconds(v.end)));
        let good = ok(&case, pred);
        let t = per
            .entry(case["kind"].as_str().unwrap().to_string())
            .or_default();
        t.1 += 1;
        t.0 += good as usize;
        if !good {
            misses.push(format!(
                "MISS {line} -> {:?}",
                v.map(|v| (v.start, v.end, v.grain.as_str()))
            ));
        }
    }
    (per, misses)
}

fn check(file: &str, min: f64) {
    let (per, misses) = score(file);
    for (k, (g, n)) in &per {
        println!("{file}: {k:9} {g}/{n} = {:.3}", *g as f64 / *n as f64);
    }
    for m in misses.iter().take(20) {
        println!("{m}");
    }
    let g: usize = per.values().map(|v| v.0).sum();
    let n: usize = per.values().map(|v| v.1).sum();
    let acc = g as f64 / n.max(1) as f64;
    println!("{file}: accuracy {acc:.3} ({g}/{n}), required {min:.2}");
    assert!(n > 0, "{file}: no scored cases");
    assert!(
        acc >= min,
        "{file}: accuracy {acc:.3} ({g}/{n}) below {min:.2}"
    );
}

#[test]
fn duckling_ru() {
    check("duckling-ru.jsonl", 0.985);
}

#[test]
fn duckling_en() {
    check("duckling-en.jsonl", 0.94);
}

// Other parsers' suites (tests/data/dates/README.md): chrono (MIT, LICENSE.chrono) for
// tuning, dateparser (BSD-3-Clause, LICENSE.dateparser) held out. Floors just under what
// the resolver reaches.

#[test]
fn tune_ru() {
    check("tune-ru.jsonl", TUNE_RU);
}

#[test]
fn tune_en() {
    check("tune-en.jsonl", TUNE_EN);
}

#[test]
fn heldout_ru() {
    check("heldout-ru.jsonl", HELDOUT_RU);
}

#[test]
fn heldout_en() {
    check("heldout-en.jsonl", HELDOUT_EN);
}

const TUNE_RU: f64 = 0.88;
const TUNE_EN: f64 = 0.63;
const HELDOUT_RU: f64 = 0.95;
const HELDOUT_EN: f64 = 0.73;
