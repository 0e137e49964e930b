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

/// The public Russian week replayed into `week.db` in `dir`.
fn replayed_db(dir: &tempfile::TempDir) -> PathBuf {
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
    db
}

#[test]
fn a_replayed_database_answers_questions_and_previews_digests() {
    let dir = tempfile::tempdir().unwrap();
    let db = replayed_db(&dir);

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
        // Readable text by default: no tags, no entities.
        assert!(!text.contains("<b>") && !text.contains("&quot;") && !text.contains("</a>"));
        assert!(text.contains("Итоги недели") || text.contains("Week in review"));
    }
    let html = kept()
        .args(["demo", "--html", "--png"])
        .arg(dir.path().join("html.png"))
        .output()
        .unwrap();
    assert!(html.status.success());
    assert!(String::from_utf8_lossy(&html.stdout).contains("<b>Итоги недели"));
}

/// What a command printed on stderr, with its exit status, when its stdout reader is gone
/// before it writes anything (`kept demo | head -0`, or `head -1` after the first line).
fn with_stdout_closed(cmd: &mut Command) -> (std::process::ExitStatus, String) {
    let mut child = cmd
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    (
        out.status,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_closed_stdout_ends_every_printing_command_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("week.db");
    let made = kept()
        .args(["replay", scenario().to_str().unwrap(), "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(made.status.success());
    let db = db.to_str().unwrap();
    let png = dir.path().join("demo.png");
    let json = dir.path().join("replay.json");
    let scenario = scenario();
    let commands: Vec<Vec<&str>> = vec![
        vec!["demo", "--png", png.to_str().unwrap()],
        vec![
            "replay",
            scenario.to_str().unwrap(),
            "--json",
            json.to_str().unwrap(),
        ],
        vec![
            "digest",
            "weekly",
            "--db",
            db,
            "--org",
            "1",
            "--at",
            "2026-11-27T18:00:00+03:00",
        ],
        vec![
            "digest",
            "daily",
            "--db",
            db,
            "--org",
            "1",
            "--at",
            "2026-11-26T19:30:00+03:00",
        ],
        vec!["ask", "--db", db, "--as", "4", "--explain", "что я обещал?"],
        vec![
            "when",
            "--now",
            "2013-02-12T04:30:00Z",
            "--tz",
            "UTC",
            "завтра",
        ],
        vec!["check-config"],
        vec!["migrate"],
    ];
    for args in commands {
        let (status, err) = with_stdout_closed(
            kept()
                .current_dir(dir.path())
                .env("KEPT__DATA_DIR", dir.path().join("data"))
                .args(&args),
        );
        // 141 is 128 + SIGPIPE, what a shell reports for a writer killed by the closed pipe.
        assert!(
            status.success() || status.code() == Some(141),
            "{args:?}: {status:?}\n{err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // What a command writes to files does not depend on anyone reading its stdout.
    assert!(png.exists());
    let result: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert!(!result["transcript"].as_array().unwrap().is_empty());
}

#[test]
fn a_replayed_database_file_stands_alone_without_its_wal() {
    // Without a checkpoint the data stays in the WAL unless the exiting process happens to close
    // its connections first (about one run in three did): three runs leave that little room.
    for run in 0..3 {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("week.db");
        let out = kept()
            .args(["replay", scenario().to_str().unwrap(), "--db"])
            .arg(&db)
            .output()
            .unwrap();
        assert!(out.status.success());
        let wal = dir.path().join("week.db-wal");
        let left = std::fs::metadata(&wal).map_or(0, |m| m.len());
        assert_eq!(left, 0, "run {run}: {left} bytes left in the WAL");
        // The file copied alone, as a user would copy it somewhere else.
        let copy_dir = tempfile::tempdir().unwrap();
        let copy = copy_dir.path().join("copy.db");
        std::fs::copy(&db, &copy).unwrap();
        let ask = kept()
            .args(["ask", "--db"])
            .arg(&copy)
            .args(["--as", "4", "что я обещал?"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&ask.stdout);
        assert!(
            ask.status.success(),
            "run {run}: {}",
            String::from_utf8_lossy(&ask.stderr)
        );
        assert!(text.contains("документац"), "run {run}: {text}");
    }
}

/// `kept run` against a sandbox Bot API started here, with stderr piped back to the test.
struct LiveRun {
    child: std::process::Child,
    sandbox: kept::sandbox::Sandbox,
    _dir: tempfile::TempDir,
}

impl LiveRun {
    async fn start(privacy_mode: bool, json_log: bool) -> LiveRun {
        use std::sync::Arc;
        let clock: kept::clock::SharedClock = Arc::new(kept::clock::SystemClock);
        let sandbox = kept::sandbox::Sandbox::start(clock).await.unwrap();
        sandbox.set_privacy_mode(privacy_mode);
        let dir = tempfile::tempdir().unwrap();
        let child = kept()
            .arg("run")
            .current_dir(dir.path())
            .env_remove("RUST_LOG")
            .env_remove("NO_COLOR")
            .env("TELOXIDE_TOKEN", kept::sandbox::TOKEN)
            .env("KEPT__TELEGRAM__API_URL", sandbox.url())
            .env("KEPT__DATA_DIR", dir.path().join("data"))
            .env("KEPT__LOG__JSON", json_log.to_string())
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        LiveRun {
            child,
            sandbox,
            _dir: dir,
        }
    }

    /// Waits until the bot is long polling: its signal handlers are in place by then.
    async fn wait_polling(&mut self) {
        for _ in 0..300 {
            if self.sandbox.calls().iter().any(|c| c == "getupdates") {
                return;
            }
            if let Some(status) = self.child.try_wait().unwrap() {
                panic!("kept run exited early: {status:?}");
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        panic!("kept run never polled; calls: {:?}", self.sandbox.calls());
    }

    /// Sends SIGTERM and returns how long the process took to exit (None: not within `limit`).
    async fn terminate(&mut self, limit: std::time::Duration) -> Option<std::time::Duration> {
        let sent = std::process::Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let start = std::time::Instant::now();
        while start.elapsed() < limit {
            if self.child.try_wait().unwrap().is_some() {
                return Some(start.elapsed());
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        None
    }
}

impl Drop for LiveRun {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_stops_run_even_after_its_stderr_reader_went_away() {
    use std::io::BufRead;
    let mut run = LiveRun::start(false, false).await;
    // `kept run 2>&1 | head -1`: one line read, then the pipe is closed.
    let stderr = run.child.stderr.take().unwrap();
    let first = tokio::task::spawn_blocking(move || {
        let mut reader = std::io::BufReader::new(stderr);
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        line
    })
    .await
    .unwrap();
    run.wait_polling().await;
    // The limit is 5 s; the bound here only leaves room for a loaded machine.
    let took = run.terminate(std::time::Duration::from_secs(15)).await;
    assert!(took.is_some(), "kept run still running after SIGTERM");
    let status = run.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    // stderr is a pipe, not a terminal: no colour codes.
    assert!(!first.is_empty());
    assert!(!first.contains('\x1b'), "{first:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_logs_are_plain_json_lines_and_privacy_mode_is_warned() {
    use std::io::BufRead;
    let mut run = LiveRun::start(true, true).await;
    run.wait_polling().await;
    let took = run.terminate(std::time::Duration::from_secs(15)).await;
    assert!(took.is_some(), "kept run still running after SIGTERM");
    let stderr = run.child.stderr.take().unwrap();
    let lines: Vec<String> = std::io::BufReader::new(stderr)
        .lines()
        .map(Result::unwrap)
        .collect();
    assert!(lines.len() >= 2, "{lines:?}");
    let mut privacy = false;
    for line in &lines {
        assert!(!line.contains('\x1b'), "colour code in {line:?}");
        let v: serde_json::Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("not a JSON line ({e}): {line:?}"));
        let message = v["fields"]["message"].as_str().unwrap_or("");
        if v["level"] == "WARN" && message.contains("privacy mode") {
            privacy = message.contains("/setprivacy");
        }
    }
    assert!(privacy, "no privacy-mode warning in {lines:#?}");
    assert!(
        lines.iter().any(|l| l.contains("stopped cleanly")),
        "{lines:#?}"
    );
}

#[test]
fn backup_status_and_export_read_a_replayed_database() {
    let dir = tempfile::tempdir().unwrap();
    let db = replayed_db(&dir);

    // A backup is a database of its own: status reads the same numbers from it.
    let copy = dir.path().join("copy.db");
    let b = kept()
        .args([
            "backup",
            copy.to_str().unwrap(),
            "--db",
            db.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(b.status.success(), "{}", String::from_utf8_lossy(&b.stderr));
    assert!(copy.exists());
    let again = kept()
        .args([
            "backup",
            copy.to_str().unwrap(),
            "--db",
            db.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(!again.status.success(), "a backup never overwrites a file");

    let status = |path: &std::path::Path| -> serde_json::Value {
        let s = kept()
            .args(["status", "--json", "--db", path.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(s.status.success(), "{}", String::from_utf8_lossy(&s.stderr));
        serde_json::from_slice(&s.stdout).unwrap()
    };
    let (live, backup) = (status(&db), status(&copy));
    assert_eq!(live["messages"], backup["messages"]);
    assert_eq!(live["orgs"], backup["orgs"]);
    assert!(live["messages"].as_i64().unwrap() > 10);
    let org = &live["orgs"][0];
    assert!(org["people"].as_i64().unwrap() >= 3);
    let jobs = org["jobs"].as_array().unwrap();
    assert_eq!(jobs.len(), 5);
    assert!(
        jobs.iter().any(|j| j["last"].is_string()),
        "the week ran its jobs: {jobs:?}"
    );
    assert!(
        jobs.iter().all(|j| j["next"].is_string()),
        "each job has a next run: {jobs:?}"
    );
    let text = kept()
        .args(["status", "--db", db.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("open promises 1") && text.contains("daily_summary"),
        "{text}"
    );

    // Export: the person's promises in Markdown and JSON.
    let md = kept()
        .args(["export", "--as", "4", "--db", db.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        md.status.success(),
        "{}",
        String::from_utf8_lossy(&md.stderr)
    );
    let md = String::from_utf8_lossy(&md.stdout);
    assert!(md.starts_with("# "), "{md}");
    assert!(md.contains("- ["), "{md}");
    let js = kept()
        .args([
            "export",
            "--as",
            "4",
            "--format",
            "json",
            "--db",
            db.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let js: serde_json::Value = serde_json::from_slice(&js.stdout).unwrap();
    assert_eq!(js["user"], 4);
    assert!(!js["commitments"].as_array().unwrap().is_empty());
    let unknown = kept()
        .args(["export", "--as", "777", "--db", db.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("777"));
}

/// The image's entrypoint and command, as the Dockerfile writes them, parse as a kept command
/// line, and the configuration the image ships with is valid.
#[test]
fn the_container_command_line_and_example_config_are_valid() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dockerfile = std::fs::read_to_string(root.join("deploy/Dockerfile")).unwrap();
    let array = |key: &str| -> Vec<String> {
        let line = dockerfile
            .lines()
            .find(|l| l.starts_with(key))
            .unwrap_or_else(|| panic!("no {key} in the Dockerfile"));
        serde_json::from_str(line[key.len()..].trim()).expect("exec form")
    };
    let entry = array("ENTRYPOINT");
    let cmd = array("CMD");
    assert_eq!(entry, ["kept"]);
    // `run --help` proves the arguments parse without starting the bot.
    let out = kept().args(&cmd).arg("--help").output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("Usage"));
    let check = kept()
        .args([
            "--config",
            root.join("deploy/kept.example.toml").to_str().unwrap(),
            "check-config",
        ])
        .env_remove("TELOXIDE_TOKEN")
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    assert!(dockerfile.contains("HEALTHCHECK") && dockerfile.contains("/healthz"));
    assert!(dockerfile.contains("USER kept"));
}

#[test]
fn orgs_are_added_with_a_director_and_listed() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("data").join("kept.db");
    let add = kept()
        .args([
            "org",
            "add",
            "Пекарня",
            "--tz",
            "Asia/Vladivostok",
            "--locale",
            "ru",
            "--director",
            "4242",
        ])
        .args(["--db", db.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        add.status.success(),
        "{}",
        String::from_utf8_lossy(&add.stderr)
    );
    assert!(String::from_utf8_lossy(&add.stdout).contains("/link"));
    let bad = kept()
        .args([
            "org",
            "add",
            "X",
            "--tz",
            "Mars/Olympus",
            "--director",
            "1",
            "--db",
            db.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("timezone"));
    let list = kept()
        .args(["org", "list", "--db", db.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        list.status.success(),
        "{}",
        String::from_utf8_lossy(&list.stderr)
    );
    let list = String::from_utf8_lossy(&list.stdout);
    let line = list
        .lines()
        .find(|l| l.contains("Пекарня"))
        .unwrap_or_else(|| panic!("{list}"));
    assert!(
        line.contains("Asia/Vladivostok") && line.contains("(4242)"),
        "{line}"
    );
}

/// `kept ask --llm config` sends a question no template answers to the configured model (here
/// the sandbox's fake model API), and `--llm config` without an `[llm]` section is refused.
#[tokio::test]
async fn ask_and_replay_use_the_configured_model_only_when_asked() {
    let fake = kept::sandbox::llm::FakeLlm::start().await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let db = replayed_db(&dir);
    let config = dir.path().join("kept.toml");
    std::fs::write(
        &config,
        format!(
            "[llm]\nprovider = \"openai\"\nbase_url = \"{}\"\nmodel = \"fake\"\napi_key = \"sk-cli-secret\"\n",
            fake.openai_url()
        ),
    )
    .unwrap();
    let ask = |llm: &'static str| {
        let (db, config) = (db.clone(), config.clone());
        tokio::task::spawn_blocking(move || {
            kept()
                .args([
                    "--config",
                    config.to_str().unwrap(),
                    "ask",
                    "--db",
                    db.to_str().unwrap(),
                ])
                .args([
                    "--as",
                    "4",
                    "--llm",
                    llm,
                    "как у нас устроен деплой на стейджинг?",
                ])
                .output()
                .unwrap()
        })
    };
    let by_rules = ask("none").await.unwrap();
    assert!(by_rules.status.success());
    assert!(
        fake.requests().is_empty(),
        "--llm none never calls the model"
    );
    let by_model = ask("config").await.unwrap();
    let text = String::from_utf8_lossy(&by_model.stdout);
    assert!(
        by_model.status.success(),
        "{}",
        String::from_utf8_lossy(&by_model.stderr)
    );
    assert_eq!(fake.requests().len(), 1);
    assert!(fake.requests()[0].had_key);
    assert_ne!(text, String::from_utf8_lossy(&by_rules.stdout), "{text}");
    // check-config shows the section with the key masked.
    let check = kept()
        .args(["--config", config.to_str().unwrap(), "check-config"])
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&check.stdout);
    assert!(
        shown.contains("llm.provider = openai") && shown.contains("llm.api_key = ***"),
        "{shown}"
    );
    assert!(!shown.contains("sk-cli-secret"));
    // No [llm] section: a clear refusal, not a silent rules-only run.
    let empty = dir.path().join("empty.toml");
    std::fs::write(&empty, "").unwrap();
    let refused = kept()
        .args([
            "--config",
            empty.to_str().unwrap(),
            "replay",
            scenario().to_str().unwrap(),
        ])
        .args(["--llm", "config"])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("[llm]"));
}
