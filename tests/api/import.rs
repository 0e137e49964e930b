//! `kept import` as a user runs it, on the bundled Telegram Desktop export
//! (`tests/data/import/result.json`, made by `scripts/telegram_export.py`, whose
//! `result.expect.json` says what is in it): the summary's numbers, the promises `kept ask`
//! names afterwards, a second import that adds nothing, a malformed file that writes nothing,
//! the whole-account format and `--since`. Then the reminder cut-off on history made relative
//! to now, through the library.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use chrono::{Duration, Utc};
use serde_json::{Value, json};

fn kept(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_kept"));
    // No kept.toml of the developer's and no KEPT__ settings of theirs.
    c.current_dir(dir).env_remove("KEPT__DATA_DIR");
    c
}

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/import")
        .join(name)
}

fn expect() -> Value {
    serde_json::from_str(&std::fs::read_to_string(data("result.expect.json")).unwrap()).unwrap()
}

fn import(dir: &Path, file: &Path, db: &Path, more: &[&str]) -> Output {
    kept(dir)
        .arg("import")
        .arg(file)
        .arg("--db")
        .arg(db)
        .args(more)
        .output()
        .unwrap()
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "exit {:?}\nstdout: {}\nstderr: {}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// The numbers of the summary line that starts with `key:`, in order.
fn numbers(summary: &str, key: &str) -> Vec<i64> {
    let line = summary
        .lines()
        .find(|l| l.starts_with(&format!("{key}:")))
        .unwrap_or_else(|| panic!("no {key:?} line in:\n{summary}"));
    line.split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect()
}

/// Rows per table: what "nothing changed" is checked against.
async fn counts(db: &Path) -> Vec<i64> {
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", db.display()))
        .await
        .unwrap();
    let mut out = Vec::new();
    for q in [
        "SELECT count(*) FROM messages",
        "SELECT count(*) FROM memories",
        "SELECT count(*) FROM users",
        "SELECT count(*) FROM members",
        "SELECT count(*) FROM chats",
        "SELECT count(*) FROM orgs",
        "SELECT count(*) FROM reminder_mutes",
    ] {
        out.push(sqlx::query_scalar(q).fetch_one(&pool).await.unwrap());
    }
    pool.close().await;
    out
}

fn promises_in<'a>(e: &'a Value, owner: i64, state: &str) -> Vec<&'a str> {
    e["promises"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["owner"] == owner && p["state"] == state)
        .map(|p| p["number"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn the_bundled_export_imports_once_and_answers_for_its_people() {
    let e = expect();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("kept.db");
    let s = ok(&import(dir.path(), &data("result.json"), &db, &[]));

    let skipped = &e["skipped"];
    let (service, no_text, forwarded) = (
        skipped["service"].as_i64().unwrap(),
        skipped["no_text"].as_i64().unwrap(),
        skipped["forwarded"].as_i64().unwrap(),
    );
    let imported = e["imported"].as_i64().unwrap();
    assert_eq!(
        numbers(&s, "messages"),
        vec![
            imported,
            0,
            service + no_text + forwarded,
            service,
            no_text,
            forwarded,
            0,
            0
        ],
        "{s}"
    );
    assert_eq!(
        imported + service + no_text + forwarded,
        e["messages"].as_i64().unwrap()
    );
    assert_eq!(numbers(&s, "chats"), vec![1], "{s}");
    assert_eq!(numbers(&s, "people"), vec![6, 6], "{s}");
    let all = e["promises"].as_array().unwrap();
    let state = |st: &str| all.iter().filter(|p| p["state"] == st).count() as i64;
    let moves: i64 = all.iter().map(|p| p["moved"].as_i64().unwrap()).sum();
    let captured = numbers(&s, "promises captured");
    assert_eq!(captured[0], all.len() as i64, "{s}");
    // A move to the date a promise already has changes nothing: not every move is a version.
    assert!(captured[1] <= moves && captured[1] * 10 >= moves * 9, "{s}");
    assert_eq!(captured[2..], [state("done"), state("cancelled")], "{s}");
    // All of it is months old: every open promise is kept open and none is reminded.
    assert_eq!(
        numbers(&s, "open now")[..2],
        [state("open"), state("open")],
        "{s}"
    );

    // John writes in English; his open promises are named, the closed ones are not.
    let ask = kept(dir.path())
        .args([
            "ask",
            "--db",
            db.to_str().unwrap(),
            "--as",
            "105",
            "что я обещал?",
        ])
        .output()
        .unwrap();
    let answer = ok(&ask);
    let open = promises_in(&e, 105, "open");
    assert!(!open.is_empty());
    for n in &open {
        assert!(answer.contains(n), "open promise {n} missing:\n{answer}");
    }
    for n in promises_in(&e, 105, "done")
        .into_iter()
        .chain(promises_in(&e, 105, "cancelled"))
    {
        assert!(!answer.contains(n), "closed promise {n} named:\n{answer}");
    }
    assert!(
        answer.contains(&format!("({} ", open.len())),
        "the count: {answer}"
    );

    let before = counts(&db).await;
    let again = ok(&import(dir.path(), &data("result.json"), &db, &[]));
    assert_eq!(numbers(&again, "messages")[..2], [0, imported], "{again}");
    assert_eq!(numbers(&again, "people"), vec![6, 0], "{again}");
    assert_eq!(numbers(&again, "promises captured"), vec![0, 0, 0, 0]);
    assert_eq!(numbers(&again, "open now"), numbers(&s, "open now"));
    assert_eq!(counts(&db).await, before, "a second import changed rows");
}

#[tokio::test]
async fn a_malformed_file_names_the_json_path_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut doc: Value =
        serde_json::from_str(&std::fs::read_to_string(data("result.json")).unwrap()).unwrap();
    // Late in the file: everything before it is fine and must not be written either.
    let late = doc["messages"].as_array().unwrap().len() - 5;
    let i = (0..late)
        .rev()
        .find(|&i| doc["messages"][i]["type"] == "message")
        .unwrap();
    doc["messages"][i]["from_id"] = json!("bob");
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, serde_json::to_string(&doc).unwrap()).unwrap();

    // Into a database that does not exist: it is not even created.
    let fresh = dir.path().join("fresh.db");
    let out = import(dir.path(), &bad, &fresh, &[]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("messages[{i}].from_id: expected \"user<digits>\"")),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    assert!(!fresh.exists(), "a malformed import created the database");

    // Into one that has data: it stays as it was.
    let db = dir.path().join("kept.db");
    let tiny = dir.path().join("tiny.json");
    doc["messages"] = json!(doc["messages"].as_array().unwrap()[..50]);
    std::fs::write(&tiny, serde_json::to_string(&doc).unwrap()).unwrap();
    ok(&import(dir.path(), &tiny, &db, &[]));
    let before = counts(&db).await;
    let out = import(dir.path(), &bad, &db, &[]);
    assert!(!out.status.success());
    assert_eq!(counts(&db).await, before);

    let out = import(dir.path(), &dir.path().join("missing.json"), &db, &[]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
}

#[tokio::test]
async fn an_account_export_imports_its_group_chats_and_skips_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let chat: Value =
        serde_json::from_str(&std::fs::read_to_string(data("result.json")).unwrap()).unwrap();
    let account = json!({
        "about": "Here is the data you requested from Telegram.",
        "chats": {"about": "…", "list": [
            {"name": "Дмитрий Орлов", "type": "personal_chat", "id": 102, "messages": [
                {"id": 1, "type": "message", "date": "2026-06-01T08:00:00",
                 "date_unixtime": "1780290000", "from": "Дмитрий Орлов", "from_id": "user102",
                 "text": "Доделаю личное 9999 до пятницы"}]},
            chat,
            {"name": "Новости", "type": "public_channel", "id": 1555000111, "messages": []},
        ]},
    });
    let file = dir.path().join("result.json");
    std::fs::write(&file, serde_json::to_string(&account).unwrap()).unwrap();
    let db = dir.path().join("kept.db");
    let s = ok(&import(dir.path(), &file, &db, &[]));
    assert_eq!(numbers(&s, "chats"), vec![1, 2], "{s}");
    assert_eq!(
        numbers(&s, "messages")[0],
        expect()["imported"].as_i64().unwrap()
    );
    let store = kept::store::Store::open(&db).await.unwrap();
    assert!(
        store
            .chat(kept::domain::ChatId(-1_001_876_543_210))
            .await
            .unwrap()
            .is_some(),
        "the supergroup is linked under its Bot API id"
    );
    assert!(
        store
            .chat(kept::domain::ChatId(102))
            .await
            .unwrap()
            .is_none()
    );
    let own = store
        .open_commitments(kept::domain::OrgId(1), kept::domain::UserId(102))
        .await
        .unwrap();
    assert!(!own.iter().any(|c| c.content.contains("9999")));
    store.close().await;
}

#[test]
fn since_skips_older_messages() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("kept.db");
    let s = ok(&import(
        dir.path(),
        &data("result.json"),
        &db,
        &["--since", "2026-08-01"],
    ));
    let m = numbers(&s, "messages");
    let (imported, before) = (m[0], m[7]);
    assert!(imported > 0 && before > 0, "{s}");
    assert_eq!(imported + before, expect()["imported"].as_i64().unwrap());

    let out = import(
        dir.path(),
        &data("result.json"),
        &db,
        &["--since", "01.08.2026"],
    );
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("YYYY-MM-DD"));
}

/// History relative to now: a promise due 40 days ago is muted, one due yesterday is not, and
/// a move of the muted one is reminded again.
#[tokio::test]
async fn only_long_overdue_imported_promises_are_left_out_of_reminders() {
    use kept::domain::{ChatId, Due, MessageId, OrgId, UserId};
    use kept::store::{CommitmentChange, Store};

    let now = Utc::now();
    let at = |days: i64| (now - Duration::days(days)).timestamp().to_string();
    let msg = |id: i64, days: i64, text: &str| {
        json!({"id": id, "type": "message", "date_unixtime": at(days), "from": "Дмитрий Орлов",
               "from_id": "user102", "text": text})
    };
    let export = json!({"name": "Команда", "type": "private_group", "id": 42, "messages": [
        msg(1, 41, "Доделаю отчёт 501 до пятницы"),
        msg(2, 2, "Подготовлю смету 777 к понедельнику"),
        msg(3, 3, "Доделаю договор 12 до конца месяца"),
    ]})
    .to_string();
    let export = kept::import::parse(&export).unwrap();
    let store = Store::temporary().await.unwrap();
    let settings = kept::config::Settings::default();
    let opts = kept::import::Options::default();
    let s = kept::import::import(&store, &settings, &export, &opts, now)
        .await
        .unwrap();
    assert_eq!(s.created, 3, "{s}");
    assert_eq!((s.open, s.not_reminded), (3, 1), "{s}");

    let org = OrgId(1);
    let far = (now + Duration::days(400)).date_naive().to_string();
    let reminded = store.open_commitments_due_by(org, &far).await.unwrap();
    assert_eq!(reminded.len(), 2);
    assert!(reminded.iter().all(|c| !c.content.contains("501")));

    // Moved by the owner later: a new version, reminded as any other.
    let stale = store
        .open_commitments(org, UserId(102))
        .await
        .unwrap()
        .into_iter()
        .find(|c| c.content.contains("501"))
        .unwrap();
    store
        .change_commitment(
            &stale,
            &CommitmentChange {
                due: Some(Some(Due::day(now.date_naive()))),
                update: Some((ChatId(-42), MessageId(10))),
                ..Default::default()
            },
            now,
        )
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        store
            .open_commitments_due_by(org, &far)
            .await
            .unwrap()
            .len(),
        3
    );
    assert_eq!(store.open_commitment_counts(org).await.unwrap(), (3, 0));

    // mute_reminders alone: only open current versions written by the given messages, due
    // before the bound.
    let key = [(ChatId(-42), MessageId(2))];
    let day_after = (now + Duration::days(30)).date_naive();
    assert_eq!(
        store
            .mute_reminders(org, &key, day_after, now)
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        store
            .mute_reminders(org, &key, day_after, now)
            .await
            .unwrap(),
        0,
        "muting twice adds nothing"
    );
    let unknown = [(ChatId(-42), MessageId(99))];
    assert_eq!(
        store
            .mute_reminders(org, &unknown, day_after, now)
            .await
            .unwrap(),
        0
    );
    assert_eq!(store.open_commitment_counts(org).await.unwrap(), (3, 1));
}
