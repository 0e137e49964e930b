//! The binary's admin commands, run as a user runs them: replay into a file, then `ask`,
//! `digest` and `check-config` against it, plus refusals with clear messages.

use std::path::PathBuf;
use std::process::Command;

fn kept() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kept"))
}

fn scenario() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/scenarios/team-week-ru.jsonl")
}

#[test]
fn a_replayed_database_answers_questions_and_previews_digests() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("week.db");
    let out = kept()
        .args([
            "replay",
            scenario().to_str().unwrap(),
            "--db",
            db.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let ask = kept()
        .args([
            "ask",
            "--db",
            db.to_str().unwrap(),
            "--as",
            "4",
            "--explain",
            "что я обещал?",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&ask.stdout);
    assert!(
        ask.status.success(),
        "{}",
        String::from_utf8_lossy(&ask.stderr)
    );
    assert!(text.contains("документац"), "{text}");
    assert!(
        text.contains("--- context ---") && text.contains("[m:"),
        "{text}"
    );

    let weekly = kept()
        .args([
            "digest",
            "weekly",
            "--db",
            db.to_str().unwrap(),
            "--org",
            "1",
            "--at",
            "2026-11-27T18:00:00+03:00",
            "--png",
            dir.path().join("w.png").to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&weekly.stdout);
    assert!(
        weekly.status.success(),
        "{}",
        String::from_utf8_lossy(&weekly.stderr)
    );
    assert!(text.contains("документац"), "{text}");
    let png = std::fs::read(dir.path().join("w.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");

    let daily = kept()
        .args([
            "digest",
            "daily",
            "--db",
            db.to_str().unwrap(),
            "--org",
            "1",
            "--at",
            "2026-11-26T19:30:00+03:00",
        ])
        .output()
        .unwrap();
    assert!(daily.status.success());
    assert!(String::from_utf8_lossy(&daily.stdout).contains("auth"));
}

#[test]
fn check_config_masks_the_token_and_names_a_bad_key() {
    let dir = tempfile::tempdir().unwrap();
    let ok = kept()
        .current_dir(dir.path())
        .env("TELOXIDE_TOKEN", "123:very-secret")
        .env("KEPT__DATA_DIR", dir.path().join("data"))
        .arg("check-config")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&ok.stdout);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    assert!(
        text.contains("telegram.token = ***") && !text.contains("very-secret"),
        "{text}"
    );

    let bad = kept()
        .current_dir(dir.path())
        .env("KEPT__ORG__TIMEZONE", "Europe/Atlantis")
        .arg("check-config")
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("org.timezone"));
}

#[test]
fn run_without_a_token_fails_at_once_naming_the_setting() {
    let dir = tempfile::tempdir().unwrap();
    let out = kept()
        .current_dir(dir.path())
        .env_remove("TELOXIDE_TOKEN")
        .env("KEPT__DATA_DIR", dir.path().join("data"))
        .arg("run")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("TELOXIDE_TOKEN") && err.contains("kept demo"),
        "{err}"
    );
}

#[test]
fn when_reads_stdin_in_order_and_refuses_bad_flags() {
    use std::io::Write;
    let mut child = kept()
        .args([
            "when",
            "--now",
            "2013-02-12T04:30:00-02:00",
            "--tz",
            "Etc/GMT+2",
            "--lang",
            "ru",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all("завтра\n1 отель\nдо пятницы\n".as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["start"], "2013-02-13T00:00:00");
    assert_eq!(lines[1]["start"], serde_json::Value::Null);
    assert_eq!(lines[2]["start"], "2013-02-15T00:00:00");
    for args in [
        ["--now", "yesterday", "--tz", "UTC"],
        ["--now", "2013-02-12T04:30:00Z", "--tz", "Mars/Base"],
    ] {
        let out = kept()
            .arg("when")
            .args(args)
            .arg("завтра")
            .output()
            .unwrap();
        assert!(!out.status.success());
        assert!(!out.stderr.is_empty());
    }
}

#[test]
fn the_demo_runs_without_token_or_network_and_writes_its_chart() {
    let dir = tempfile::tempdir().unwrap();
    for lang in ["ru", "en"] {
        let png = dir.path().join(format!("{lang}.png"));
        let out = kept()
            .args(["demo", "--lang", lang, "--png", png.to_str().unwrap()])
            .env_remove("TELOXIDE_TOKEN")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("kept →"), "{text}");
        assert!(png.exists());
    }
}
