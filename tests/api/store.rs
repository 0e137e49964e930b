//! Storage guarantees: commitment versions are archived, never deleted, and a stale change
//! loses; memories deduplicate on write without merging different dates or numbers.

use chrono::{DateTime, Duration, NaiveDate, Utc};
use kept::domain::{
    Author, ChatId, CommitmentState, Confidence, Due, Lang, MemoryKind, MessageId, UserId,
    Visibility,
};
use kept::store::{CommitmentChange, NewCommitment, NewMemory, Store};

fn t0() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-11-23T10:00:00+03:00")
        .unwrap()
        .with_timezone(&Utc)
}

/// A fact about `subject` the whole team may see, found by the rules at `t0`.
/// A team promise of `owner`'s made by the rules at `at`, tied to no message.
fn team_promise(
    org: kept::domain::OrgId,
    owner: UserId,
    content: &str,
    at: DateTime<Utc>,
) -> NewCommitment<'_> {
    NewCommitment {
        org_id: org,
        owner,
        content,
        due: None,
        confidence: Confidence::RULES,
        author: Author::Rules,
        visibility: Visibility::Team,
        source_chat: None,
        source_message: None,
        requester: None,
        request: None,
        evidence: "test",
        at,
    }
}

fn team_fact(org: kept::domain::OrgId, subject: UserId, content: &str) -> NewMemory<'_> {
    NewMemory {
        org_id: org,
        subject,
        kind: MemoryKind::Fact,
        content,
        confidence: Confidence::RULES,
        author: Author::Rules,
        visibility: Visibility::Team,
        evidence: "test",
        source_chat: None,
        source_message: None,
        at: t0(),
    }
}

async fn store() -> (Store, kept::domain::OrgId) {
    let s = Store::temporary().await.unwrap();
    let org = s
        .create_org("Org", chrono_tz::Europe::Moscow, Lang::Ru, t0())
        .await
        .unwrap();
    s.upsert_user(UserId(2), "Дмитрий", None, None, None, t0())
        .await
        .unwrap();
    (s, org)
}

#[tokio::test]
async fn a_commitment_keeps_every_version_and_only_the_newest_is_current() {
    let (s, org) = store().await;
    let first = s
        .insert_commitment(&NewCommitment {
            org_id: org,
            owner: UserId(2),
            content: "доделать auth",
            due: Some(Due::day(NaiveDate::from_ymd_opt(2026, 11, 27).unwrap())),
            confidence: Confidence::RULES,
            author: Author::Rules,
            visibility: Visibility::Team,
            source_chat: Some(ChatId(-100)),
            source_message: Some(MessageId(10)),
            requester: None,
            request: None,
            evidence: "test",
            at: t0(),
        })
        .await
        .unwrap();
    assert_eq!(
        first.origin_id, first.id,
        "a first version is its own origin"
    );
    let moved = s
        .change_commitment(
            &first,
            &CommitmentChange {
                due: Some(Some(Due::day(
                    NaiveDate::from_ymd_opt(2026, 11, 30).unwrap(),
                ))),
                update: Some((ChatId(-100), MessageId(14))),
                ..Default::default()
            },
            t0() + Duration::hours(1),
        )
        .await
        .unwrap()
        .expect("the current version changes");
    let done = s
        .change_commitment(
            &moved,
            &CommitmentChange {
                state: Some(CommitmentState::Done),
                ..Default::default()
            },
            t0() + Duration::hours(2),
        )
        .await
        .unwrap()
        .unwrap();
    // A change based on an old version loses instead of forking the history.
    let stale = s
        .change_commitment(
            &first,
            &CommitmentChange::default(),
            t0() + Duration::hours(3),
        )
        .await
        .unwrap();
    assert!(stale.is_none());

    let versions = s.commitment_versions(org).await.unwrap();
    assert_eq!(versions.len(), 3);
    assert!(versions.iter().all(|v| v.origin_id == first.id));
    assert_eq!(versions.iter().filter(|v| !v.archived).count(), 1);
    assert!(versions[0].archived && versions[1].archived && !versions[2].archived);
    assert_eq!(versions[2].state, CommitmentState::Done);
    assert_eq!(versions[2].due, moved.due);
    let current = s.current_commitment(first.id).await.unwrap().unwrap();
    assert_eq!(current.id, done.id);
    assert_eq!(
        current.created_at, first.created_at,
        "made once, whatever happened later"
    );
}

/// A digest reads only the promises open or changed in its window: all versions of those, none
/// of one closed before it began.
#[tokio::test]
async fn the_versions_since_a_time_are_those_of_promises_open_or_changed_since() {
    let (s, org) = store().await;
    let make = |content: &'static str, at: DateTime<Utc>| NewCommitment {
        org_id: org,
        owner: UserId(2),
        content,
        due: None,
        confidence: Confidence::RULES,
        author: Author::Rules,
        visibility: Visibility::Team,
        source_chat: Some(ChatId(-100)),
        source_message: None,
        requester: None,
        request: None,
        evidence: "test",
        at,
    };
    let done_early = s.insert_commitment(&make("отчёт", t0())).await.unwrap();
    let close = |state| CommitmentChange {
        state: Some(state),
        ..Default::default()
    };
    s.change_commitment(
        &done_early,
        &close(CommitmentState::Done),
        t0() + Duration::hours(1),
    )
    .await
    .unwrap();
    let still_open = s.insert_commitment(&make("смета", t0())).await.unwrap();
    let done_late = s.insert_commitment(&make("акт", t0())).await.unwrap();
    let since = t0() + Duration::days(1);
    s.change_commitment(
        &done_late,
        &close(CommitmentState::Done),
        since + Duration::hours(1),
    )
    .await
    .unwrap();
    let versions = s.commitment_versions_since(org, since).await.unwrap();
    let origins: Vec<_> = versions.iter().map(|v| v.origin_id).collect();
    assert!(!origins.contains(&done_early.id), "{versions:?}");
    assert_eq!(origins.iter().filter(|o| **o == still_open.id).count(), 1);
    assert_eq!(
        origins.iter().filter(|o| **o == done_late.id).count(),
        2,
        "both versions"
    );
}

#[tokio::test]
async fn memories_deduplicate_but_never_merge_different_numbers() {
    let (s, org) = store().await;
    let mem = |content: &'static str, evidence: &'static str| NewMemory {
        org_id: org,
        subject: UserId(2),
        kind: MemoryKind::Preference,
        content,
        confidence: Confidence::RULES,
        author: Author::User(UserId(2)),
        visibility: Visibility::Private,
        evidence,
        source_chat: None,
        source_message: None,
        at: t0(),
    };
    let a = s
        .upsert_memory(&mem("Не любит созвоны после 16:00", "msg 1"))
        .await
        .unwrap();
    let b = s
        .upsert_memory(&mem("не любит  созвоны после 16:00", "msg 2"))
        .await
        .unwrap();
    let c = s
        .upsert_memory(&mem("не любит созвоны после 17:00", "msg 3"))
        .await
        .unwrap();
    assert_eq!(a, b, "same subject, kind and normalised content: one row");
    assert_ne!(a, c, "a different number is a different memory");
    let row = s.memory(a).await.unwrap().unwrap();
    assert!(
        row.evidence.contains("msg 1") && row.evidence.contains("msg 2"),
        "{}",
        row.evidence
    );
}

#[tokio::test]
async fn urgent_tasks_show_among_priorities_and_normal_ones_do_not() {
    use std::sync::Arc;
    let store = Store::temporary().await.unwrap();
    let clock: kept::clock::SharedClock = Arc::new(kept::clock::DrivenClock::new(t0()));
    let app = kept::app::App::new(store, clock, kept::config::Settings::default())
        .await
        .unwrap();
    let org = app.default_org;
    app.store
        .upsert_user(UserId(2), "Дмитрий", None, None, None, t0())
        .await
        .unwrap();
    app.store
        .set_member(org, UserId(2), kept::domain::Role::Member, None, None, t0())
        .await
        .unwrap();
    app.store
        .insert_task(org, UserId(2), "починить пресс", "urgent", None, t0())
        .await
        .unwrap();
    app.store
        .insert_task(org, UserId(2), "разобрать почту", "normal", None, t0())
        .await
        .unwrap();
    let tasks = app.store.open_tasks(org, UserId(2)).await.unwrap();
    assert_eq!(tasks.len(), 2);
    assert_eq!(tasks[0].priority, "urgent", "most urgent first");
    let o = app.store.org(org).await.unwrap();
    let a = kept::answer::Answerer::new(&app, &o, UserId(2), false, Lang::Ru)
        .await
        .unwrap();
    let reply = a.question("какие у меня приоритеты?").await.unwrap();
    assert!(reply.text.contains("починить пресс"), "{}", reply.text);
    assert!(!reply.text.contains("разобрать почту"), "{}", reply.text);
}

#[tokio::test]
async fn an_org_schedule_override_replaces_the_default_times() {
    let (s, org) = store().await;
    let overrides = serde_json::json!({"cron": {
        "reminders_morning": "0 8 * * 1-5", "reminders_day_before": "0 16 * * 1-5",
        "reflection": "0 19 * * 1-5", "daily_summary": "30 19 * * 1-5",
        "weekly_digest": "0 18 * * 5"}, "holidays": ["2026-11-24"]});
    s.set_org_schedule(org, &overrides.to_string())
        .await
        .unwrap();
    let mornings = |o: &kept::store::Org| {
        let table =
            kept::schedule::Timetable::new(o, &kept::config::ScheduleSettings::default(), &[]);
        let from = DateTime::parse_from_rfc3339("2026-11-23T00:00:00+03:00")
            .unwrap()
            .with_timezone(&Utc);
        table
            .runs_between(from, from + Duration::hours(48))
            .iter()
            .filter(|(_, j)| *j == kept::domain::JobKind::RemindersMorning)
            .map(|(t, _)| {
                t.with_timezone(&chrono_tz::Europe::Moscow)
                    .format("%d %H:%M")
                    .to_string()
            })
            .collect::<Vec<_>>()
    };
    // Monday 2026-11-23 from midnight to Tuesday night (Moscow): morning runs at 08:00, and the
    // holiday Tuesday has none.
    assert_eq!(mornings(&s.org(org).await.unwrap()), ["23 08:00"]);

    // An override that does not parse is left out whole: the settings' times and no holiday.
    let mut bad = overrides.clone();
    bad["cron"]["reminders_morning"] = "every morning".into();
    s.set_org_schedule(org, &bad.to_string()).await.unwrap();
    assert_eq!(
        mornings(&s.org(org).await.unwrap()),
        ["23 09:30", "24 09:30"]
    );
}

#[tokio::test]
async fn a_timetable_walked_in_small_steps_finds_the_runs_one_window_finds() {
    // The timetable remembers each job's next run between calls (a replay asks once per
    // message); walked in uneven steps, forwards and with a step back, it must find exactly the
    // runs of one call over the whole window.
    let (s, org) = store().await;
    let o = s.org(org).await.unwrap();
    let settings = kept::config::ScheduleSettings::default();
    let from = DateTime::parse_from_rfc3339("2026-11-20T10:00:00+03:00")
        .unwrap()
        .with_timezone(&Utc);
    let to = from + Duration::days(9);
    let whole = kept::schedule::Timetable::new(&o, &settings, &[]).runs_between(from, to);
    assert!(whole.len() > 20, "{whole:?}");
    let table = kept::schedule::Timetable::new(&o, &settings, &[]);
    let mut walked = Vec::new();
    let mut t = from;
    let mut k = 0i64;
    while t < to {
        let next = (t + Duration::minutes(7 + 53 * (k % 5))).min(to);
        walked.extend(table.runs_between(t, next));
        // A look back over the last step (what `kept schedule` does from an earlier time) finds
        // the same runs again and changes nothing after it.
        if k % 7 == 3 {
            let again = table.runs_between(t, next);
            assert_eq!(again, table.clone().runs_between(t, next));
        }
        t = next;
        k += 1;
    }
    assert_eq!(walked, whole);
}

#[tokio::test]
async fn a_context_read_returns_each_kind_of_row_within_its_scope() {
    use kept::domain::NodeType;
    use kept::store::{NewNode, Reflection, Scope};
    let (s, org) = store().await;
    let subject = UserId(2);
    let memory = |content: &'static str, kind, visibility| NewMemory {
        org_id: org,
        subject,
        kind,
        content,
        confidence: Confidence::RULES,
        author: Author::User(subject),
        visibility,
        evidence: "test",
        source_chat: None,
        source_message: None,
        at: t0(),
    };
    s.upsert_memory(&memory(
        "работает с 2024 года",
        MemoryKind::Fact,
        Visibility::Team,
    ))
    .await
    .unwrap();
    s.upsert_memory(&memory(
        "не любит созвоны после 16:00",
        MemoryKind::Preference,
        Visibility::Private,
    ))
    .await
    .unwrap();
    let promise = |content: &'static str, message: i64, visibility| NewCommitment {
        org_id: org,
        owner: subject,
        content,
        due: Some(Due::day(NaiveDate::from_ymd_opt(2026, 11, 27).unwrap())),
        confidence: Confidence::RULES,
        author: Author::Rules,
        visibility,
        source_chat: Some(ChatId(-100)),
        source_message: Some(MessageId(message)),
        requester: None,
        request: None,
        evidence: "test",
        at: t0(),
    };
    s.insert_commitment(&promise("доделать auth", 10, Visibility::Team))
        .await
        .unwrap();
    s.insert_commitment(&promise("поговорить с Олегом", 11, Visibility::Private))
        .await
        .unwrap();
    let old = s
        .insert_commitment(&promise("закрыть счёт", 12, Visibility::Team))
        .await
        .unwrap();
    let done = CommitmentChange {
        state: Some(CommitmentState::Done),
        author: Some(Author::Rules),
        ..Default::default()
    };
    s.change_commitment(&old, &done, t0() - Duration::days(30))
        .await
        .unwrap();
    s.insert_node(&NewNode {
        org_id: org,
        node_type: NodeType::Product,
        title: "Внутренний CRM",
        description: None,
        owner: Some(subject),
        at: t0(),
    })
    .await
    .unwrap();
    s.insert_task(org, subject, "обновить прайс", "high", None, t0())
        .await
        .unwrap();
    s.insert_reflection(
        org,
        &Reflection {
            user_id: subject,
            day: "2026-11-22".into(),
            summary: "день итогов".into(),
            highlights: vec!["сдал отчёт".into()],
            commitments: vec![],
            risks: vec![],
            observations: vec![],
        },
        t0(),
    )
    .await
    .unwrap();
    let since = t0() - Duration::days(7);

    let full = s.context_rows(org, subject, Scope::Full, since).unwrap();
    let texts: Vec<&str> = full
        .commitments
        .iter()
        .map(|c| c.content.as_str())
        .collect();
    assert_eq!(
        texts,
        ["доделать auth", "поговорить с Олегом"],
        "open ones; one closed a month ago is not recent"
    );
    assert_eq!(full.memories.len(), 2, "{:?}", full.memories);
    assert_eq!(full.nodes.len(), 1);
    assert_eq!(full.nodes[0].title, "Внутренний CRM");
    assert_eq!(full.tasks.len(), 1);
    assert_eq!(full.tasks[0].priority, "high");
    assert_eq!(full.reflections.len(), 1);
    assert_eq!(full.reflections[0].highlights, ["сдал отчёт"]);

    let team = s
        .context_rows(org, subject, Scope::TeamOnly, since)
        .unwrap();
    let texts: Vec<&str> = team
        .commitments
        .iter()
        .map(|c| c.content.as_str())
        .collect();
    assert_eq!(texts, ["доделать auth"], "private promises stay out");
    assert_eq!(team.memories.len(), 1);
    assert_eq!(team.memories[0].content, "работает с 2024 года");
    assert_eq!(team.nodes.len(), 1, "who owns what is team knowledge");
    assert!(team.tasks.is_empty() && team.reflections.is_empty());

    // Closed within the window: shown with full scope.
    let recent = s
        .context_rows(org, subject, Scope::Full, t0() - Duration::days(60))
        .unwrap();
    assert_eq!(recent.commitments.len(), 3);
    assert!(
        recent
            .commitments
            .iter()
            .any(|c| c.state == CommitmentState::Done)
    );
}

/// The context read's own connections (store/read.rs) read a file database in WAL mode: they
/// see what the sqlx side committed before the read, the person with their role, and nothing of
/// another org.
#[tokio::test]
async fn the_read_connections_see_each_committed_write_of_a_file_database() {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(&dir.path().join("kept.db")).await.unwrap();
    let org = s
        .create_org("Org", chrono_tz::Europe::Moscow, Lang::Ru, t0())
        .await
        .unwrap();
    let other = s
        .create_org("Other", chrono_tz::Europe::Moscow, Lang::Ru, t0())
        .await
        .unwrap();
    let dima = UserId(2);
    assert!(s.person(org, dima).unwrap().is_none(), "nobody yet");
    s.upsert_user(dima, "Дмитрий", Some("Орлов"), Some("dima"), None, t0())
        .await
        .unwrap();
    s.set_member(org, dima, kept::domain::Role::Lead, Some("CTO"), None, t0())
        .await
        .unwrap();
    let p = s.person(org, dima).unwrap().expect("a member");
    assert_eq!(p.profile.full_name(), "Дмитрий Орлов");
    assert_eq!(p.profile.username.as_deref(), Some("dima"));
    assert_eq!(p.member.role, kept::domain::Role::Lead);
    assert_eq!(p.member.position.as_deref(), Some("CTO"));
    assert!(
        s.person(other, dima).unwrap().is_none(),
        "not a member there"
    );

    let since = t0() - Duration::days(7);
    let scope = kept::store::Scope::Full;
    assert!(
        s.context_rows(org, dima, scope, since)
            .unwrap()
            .commitments
            .is_empty()
    );
    for (i, text) in ["доделать auth", "выставить счёт"].into_iter().enumerate()
    {
        s.insert_commitment(&NewCommitment {
            org_id: org,
            owner: dima,
            content: text,
            due: None,
            confidence: Confidence::RULES,
            author: Author::Rules,
            visibility: Visibility::Team,
            source_chat: Some(ChatId(-100)),
            source_message: Some(MessageId(i as i64 + 1)),
            requester: None,
            request: None,
            evidence: "test",
            at: t0() + Duration::minutes(i as i64),
        })
        .await
        .unwrap();
        // Read after each write: a connection kept from the last read sees the new commit.
        let rows = s.context_rows(org, dima, scope, since).unwrap();
        assert_eq!(rows.commitments.len(), i + 1);
        assert_eq!(rows.commitments[i].content, text);
    }
    assert!(
        s.context_rows(other, dima, scope, since)
            .unwrap()
            .commitments
            .is_empty()
    );

    // Every kind of write a context shows makes the next read fresh (the rows read before are
    // kept only while nothing of them changed: migration 014's revisions).
    let open = s.context_rows(org, dima, scope, since).unwrap().commitments;
    let done = CommitmentChange {
        state: Some(CommitmentState::Done),
        author: Some(Author::Rules),
        ..Default::default()
    };
    s.change_commitment(&open[0], &done, t0() + Duration::hours(1))
        .await
        .unwrap();
    let rows = s.context_rows(org, dima, scope, since).unwrap();
    let states: Vec<_> = rows
        .commitments
        .iter()
        .map(|c| (c.content.as_str(), c.state))
        .collect();
    assert_eq!(
        states,
        [
            ("доделать auth", CommitmentState::Done),
            ("выставить счёт", CommitmentState::Open)
        ]
    );
    // A later window leaves the closed one out, whether or not the rows come from before.
    let later = t0() + Duration::hours(2);
    let rows = s.context_rows(org, dima, scope, later).unwrap();
    assert_eq!(rows.commitments.len(), 1, "{:?}", rows.commitments);
    assert_eq!(rows.commitments[0].content, "выставить счёт");
    let rows = s.context_rows(org, dima, scope, since).unwrap();
    assert_eq!(rows.commitments.len(), 2, "an earlier window is read again");

    assert!(rows.memories.is_empty());
    s.upsert_memory(&team_fact(org, dima, "работает с 2024 года"))
        .await
        .unwrap();
    let rows = s.context_rows(org, dima, scope, since).unwrap();
    assert_eq!(rows.memories.len(), 1);

    assert!(rows.tasks.is_empty());
    s.insert_task(org, dima, "обновить прайс", "high", None, t0())
        .await
        .unwrap();
    let rows = s.context_rows(org, dima, scope, since).unwrap();
    assert_eq!(rows.tasks.len(), 1);

    // A node owned by someone else, then handed to Dima: a change to the org's graph.
    s.upsert_user(UserId(3), "Павел", None, None, None, t0())
        .await
        .unwrap();
    let node = s
        .insert_node(&kept::store::NewNode {
            org_id: org,
            node_type: kept::domain::NodeType::Product,
            title: "Внутренний CRM",
            description: None,
            owner: Some(UserId(3)),
            at: t0(),
        })
        .await
        .unwrap();
    assert!(
        s.context_rows(org, dima, scope, since)
            .unwrap()
            .nodes
            .is_empty()
    );
    s.set_node_owner(org, node.id, dima, t0()).await.unwrap();
    let rows = s.context_rows(org, dima, scope, since).unwrap();
    assert_eq!(rows.nodes.len(), 1, "the new owner's context shows it");
    assert!(
        s.context_rows(org, UserId(3), scope, since)
            .unwrap()
            .nodes
            .is_empty(),
        "the old owner's does not"
    );

    assert!(rows.reflections.is_empty());
    s.insert_reflection(
        org,
        &kept::store::Reflection {
            user_id: dima,
            day: "2026-11-22".into(),
            summary: "день итогов".into(),
            highlights: vec![],
            commitments: vec![],
            risks: vec![],
            observations: vec![],
        },
        t0(),
    )
    .await
    .unwrap();
    let rows = s.context_rows(org, dima, scope, since).unwrap();
    assert_eq!(rows.reflections.len(), 1);
}

/// Two processes on one database (the bot and `kept import`, say): a batch that finds the
/// other's write lock taken waits for it, without holding up the task that has it, and both
/// batches land.
#[tokio::test(flavor = "current_thread")]
async fn a_batch_waits_for_another_writer_of_the_same_file_and_both_land() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kept.db");
    let a = Store::open(&path).await.unwrap();
    let b = Store::open(&path).await.unwrap();
    let org = a
        .create_org("Org", chrono_tz::Europe::Moscow, Lang::Ru, t0())
        .await
        .unwrap();
    a.link_chat(org, ChatId(-100), true, Some("Цех"), t0())
        .await
        .unwrap();
    let msg = |id: i64| kept::store::NewMessage {
        org_id: org,
        chat_id: ChatId(-100),
        message_id: MessageId(id),
        user_id: None,
        date: t0() + Duration::minutes(id),
        text: "сообщение",
        reply_to: None,
    };
    let mut first = a.begin_batch().await.unwrap();
    first.store_message(&msg(1));
    // On one thread: the second batch can begin only if its wait lets the first one finish.
    let second = async {
        let mut batch = b.begin_batch().await.unwrap();
        batch.store_message(&msg(2));
        batch.commit().await.unwrap();
    };
    let finish_first = async {
        tokio::time::sleep(std::time::Duration::from_millis(30)).await;
        first.commit().await.unwrap();
    };
    tokio::join!(second, finish_first);
    for id in [1, 2] {
        assert!(
            a.message(ChatId(-100), MessageId(id))
                .await
                .unwrap()
                .is_some(),
            "message {id} is stored"
        );
    }
    // A batch dropped without commit keeps nothing and leaves the writer usable.
    let mut dropped = a.begin_batch().await.unwrap();
    dropped.store_message(&msg(3));
    drop(dropped);
    let mut batch = a.begin_batch().await.unwrap();
    batch.store_message(&msg(4));
    batch.commit().await.unwrap();
    assert!(
        a.message(ChatId(-100), MessageId(3))
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        a.message(ChatId(-100), MessageId(4))
            .await
            .unwrap()
            .is_some()
    );
}

/// A store in a database file of its own (the returned directory), with an org and its group.
async fn file_store() -> (tempfile::TempDir, Store, kept::domain::OrgId, ChatId) {
    let dir = tempfile::tempdir().unwrap();
    let s = Store::open(&dir.path().join("kept.db")).await.unwrap();
    let org = s
        .create_org("Org", chrono_tz::Europe::Moscow, Lang::Ru, t0())
        .await
        .unwrap();
    let chat = ChatId(-100);
    s.link_chat(org, chat, true, Some("Цех"), t0())
        .await
        .unwrap();
    (dir, s, org, chat)
}

/// Messages are indexed for search in bulk, not one by one: a search still finds every message
/// stored before it, by the text of its last edit; a batch indexes once enough wait; and a
/// database whose messages were renumbered behind the index's mark is indexed again when it is
/// opened.
#[tokio::test]
async fn a_search_finds_every_message_stored_before_it_by_its_last_text() {
    let (dir, s, org, chat) = file_store().await;
    let path = dir.path().join("kept.db");
    let msg = |id: i64, text: &'static str| kept::store::NewMessage {
        org_id: org,
        chat_id: chat,
        message_id: MessageId(id),
        user_id: None,
        date: t0() + Duration::minutes(id),
        text,
        reply_to: None,
    };
    let store = |s: &Store, id: i64, text: &'static str| {
        let s = s.clone();
        async move {
            let mut batch = s.begin_batch().await.unwrap();
            batch.store_message(&msg(id, text));
            batch.commit().await.unwrap();
        }
    };
    let found = |s: &Store, q: &'static str| {
        let s = s.clone();
        async move {
            let mut ids: Vec<i64> = s
                .search_messages(org, q, 10)
                .await
                .unwrap()
                .iter()
                .map(|h| h.message.0)
                .collect();
            ids.sort();
            ids
        }
    };
    store(&s, 1, "пришлю смету по кровле").await;
    store(&s, 2, "отчёт по складу готов").await;
    store(&s, 3, "созвон перенесли").await;
    // Edited before it was indexed: found by the new text only.
    s.edit_message(chat, MessageId(2), "отчёт по цеху готов", t0())
        .await
        .unwrap();
    assert_eq!(found(&s, "цеху").await, vec![2]);
    assert!(found(&s, "складу").await.is_empty());
    assert_eq!(found(&s, "смету").await, vec![1]);
    // Edited after it was indexed: the index follows at once.
    s.edit_message(chat, MessageId(3), "созвон в пятницу", t0())
        .await
        .unwrap();
    assert_eq!(found(&s, "пятницу").await, vec![3]);
    assert!(found(&s, "перенесли").await.is_empty());

    // A batch of many messages is indexed when it commits, with no search to ask for it.
    let mut batch = s.begin_batch().await.unwrap();
    for id in 100..400 {
        batch.store_message(&msg(id, "накладные по поставке"));
    }
    batch.commit().await.unwrap();
    let db = rusqlite::Connection::open(&path).unwrap();
    let (mark, last): (i64, i64) = db
        .query_row(
            "SELECT message_rowid, (SELECT max(rowid) FROM messages) FROM search_mark",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(mark, last, "the batch indexed what it stored");

    // Renumbered so that a message not indexed yet is behind the mark (as a rewritten copy may
    // be): reopening indexes what is missing.
    store(&s, 4, "привезли поддоны").await;
    db.execute(
        "UPDATE search_mark SET message_rowid = (SELECT max(rowid) FROM messages)",
        [],
    )
    .unwrap();
    drop(db);
    s.close().await;
    drop(s);
    let s = Store::open(&path).await.unwrap();
    assert_eq!(found(&s, "поддоны").await, vec![4]);
    assert_eq!(found(&s, "цеху").await, vec![2]);
    assert_eq!(found(&s, "поставке").await.len(), 10);
}

/// Memories are indexed for search in bulk: a search finds every memory written before it,
/// however it was written; a batch indexes once enough wait; a memory changed or deleted after
/// it was indexed leaves the index with it, and a row that takes a deleted row's id is found by
/// its own text.
#[tokio::test]
async fn a_search_finds_every_memory_written_before_it() {
    let (dir, s, org, _) = file_store().await;
    let path = dir.path().join("kept.db");
    s.upsert_user(UserId(2), "Дмитрий", None, None, None, t0())
        .await
        .unwrap();
    let all = kept::store::SearchAccess {
        in_group: false,
        all_private: true,
        private_of: Vec::new(),
    };
    let found = |s: &Store, q: &'static str| {
        let (s, all) = (s.clone(), all.clone());
        async move {
            let mut hits: Vec<String> = s
                .search_memories(org, &all, q, 100)
                .await
                .unwrap()
                .into_iter()
                .map(|h| h.content)
                .collect();
            hits.sort();
            hits
        }
    };
    let fact = |content: String| NewMemory {
        org_id: org,
        subject: UserId(2),
        kind: MemoryKind::Fact,
        content: Box::leak(content.into_boxed_str()),
        confidence: Confidence::RULES,
        author: Author::User(UserId(2)),
        visibility: Visibility::Private,
        evidence: "test",
        source_chat: None,
        source_message: None,
        at: t0(),
    };
    s.upsert_memory(&fact("ведёт закупки плёнки".into()))
        .await
        .unwrap();
    s.insert_commitment(&NewCommitment {
        org_id: org,
        owner: UserId(2),
        content: "пришлю смету по теплице",
        due: None,
        requester: None,
        request: None,
        source_chat: None,
        source_message: None,
        author: Author::Rules,
        confidence: Confidence::RULES,
        visibility: Visibility::Team,
        evidence: "test",
        at: t0(),
    })
    .await
    .unwrap();
    assert_eq!(found(&s, "плёнки").await, vec!["ведёт закупки плёнки"]);
    assert_eq!(found(&s, "теплице").await, vec!["пришлю смету по теплице"]);

    // A batch with many waiting indexes them when it commits, with no search to ask for it.
    for k in 0..100 {
        s.upsert_memory(&fact(format!("поставщик номер {k}")))
            .await
            .unwrap();
    }
    let mut batch = s.begin_batch().await.unwrap();
    batch.upsert_memory(&fact("любит ранние созвоны".into()));
    batch.commit().await.unwrap();
    let db = rusqlite::Connection::open(&path).unwrap();
    let (mark, last): (i64, i64) = db
        .query_row(
            "SELECT memory_id, (SELECT max(id) FROM memories) FROM memory_search_mark",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(mark, last, "the batch indexed what waited");

    // Changed and deleted after they were indexed (by hand: kept itself writes new versions).
    db.execute(
        "UPDATE memories SET content = 'ведёт закупки стекла' WHERE content = 'ведёт закупки плёнки'",
        [],
    )
    .unwrap();
    db.execute("DELETE FROM memories WHERE id = ?", [last])
        .unwrap();
    drop(db);
    assert!(found(&s, "плёнки").await.is_empty());
    assert_eq!(found(&s, "стекла").await, vec!["ведёт закупки стекла"]);
    assert!(found(&s, "ранние").await.is_empty());
    // The next row takes the deleted one's id, behind the mark: indexed at once.
    let reused = s
        .upsert_memory(&fact("отвечает за полив".into()))
        .await
        .unwrap();
    assert_eq!(reused.0, last, "SQLite reuses the highest id");
    assert_eq!(found(&s, "полив").await, vec!["отвечает за полив"]);
    assert_eq!(found(&s, "поставщик").await.len(), 100);
}

/// Committed messages reach the database file itself (out of the write-ahead log) without any
/// commit waiting for it: a thread of the store checkpoints in the background, long before the
/// log reaches the mark at which a commit would do it.
#[tokio::test]
async fn commits_are_checkpointed_in_the_background() {
    let (dir, s, org, chat) = file_store().await;
    let path = dir.path().join("kept.db");
    for id in 1..=20 {
        let mut batch = s.begin_batch().await.unwrap();
        batch.store_message(&kept::store::NewMessage {
            org_id: org,
            chat_id: chat,
            message_id: MessageId(id),
            user_id: None,
            date: t0() + Duration::minutes(id),
            text: "привезли поддоны",
            reply_to: None,
        });
        batch.commit().await.unwrap();
    }
    // `immutable` reads the database file alone, as if there were no log.
    let file_only = format!("file:{}?immutable=1", path.display());
    let in_file = || {
        rusqlite::Connection::open_with_flags(
            &file_only,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_URI,
        )
        .and_then(|db| db.query_row("SELECT count(*) FROM messages", [], |r| r.get::<_, i64>(0)))
        .unwrap_or(0)
    };
    let mut seen = in_file();
    for _ in 0..200 {
        if seen == 20 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        seen = in_file();
    }
    assert_eq!(seen, 20, "every commit is in the database file");
}

/// The list of an org's people is kept between reads, and every change to a profile or a
/// membership shows in the next read: the bot's own writes and another process's.
#[tokio::test]
async fn the_people_of_an_org_show_every_change_to_a_profile_or_membership() {
    let (dir, s, org, _chat) = file_store().await;
    let names = |people: &[kept::store::Person]| {
        people
            .iter()
            .map(|p| (p.profile.first_name.clone(), p.member.role.as_str()))
            .collect::<Vec<_>>()
    };
    s.upsert_user(UserId(2), "Дмитрий", None, None, None, t0())
        .await
        .unwrap();
    s.ensure_member(org, UserId(2), t0()).await.unwrap();
    let first = s.people(org).await.unwrap();
    assert_eq!(names(&first), vec![("Дмитрий".to_string(), "member")]);
    let again = s.people(org).await.unwrap();
    assert!(
        std::sync::Arc::ptr_eq(&first, &again),
        "nothing changed: the same list, not read again"
    );

    s.upsert_user(UserId(2), "Дима", None, None, None, t0())
        .await
        .unwrap();
    assert_eq!(
        names(&s.people(org).await.unwrap()),
        vec![("Дима".to_string(), "member")]
    );
    s.set_member(org, UserId(2), kept::domain::Role::Lead, None, None, t0())
        .await
        .unwrap();
    assert_eq!(
        names(&s.people(org).await.unwrap()),
        vec![("Дима".to_string(), "lead")]
    );
    s.upsert_user(UserId(3), "Анна", None, None, None, t0())
        .await
        .unwrap();
    s.ensure_member(org, UserId(3), t0()).await.unwrap();
    assert_eq!(s.people(org).await.unwrap().len(), 2);

    // Another process (`kept role`, a script) writes to the same file.
    let db = rusqlite::Connection::open(dir.path().join("kept.db")).unwrap();
    db.execute("UPDATE members SET active = 0 WHERE user_id = 3", [])
        .unwrap();
    db.execute("UPDATE users SET first_name = 'Дмитрий' WHERE id = 2", [])
        .unwrap();
    assert_eq!(
        names(&s.people(org).await.unwrap()),
        vec![("Дмитрий".to_string(), "lead")]
    );
}

/// The read model of open promises (migration 019) is good only while none of the person's
/// promises changed, whichever connection or process changed it; other changes leave it be.
#[tokio::test]
async fn open_promises_read_from_memory_follow_every_writer() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kept.db");
    let bot = Store::open(&path).await.unwrap();
    let org = bot
        .create_org("Acme", chrono_tz::Europe::Moscow, Lang::Ru, t0())
        .await
        .unwrap();
    let dima = UserId(2);
    bot.upsert_user(dima, "Дмитрий", None, None, None, t0())
        .await
        .unwrap();
    let promise = |content| team_promise(org, dima, content, t0());
    bot.insert_commitment(&promise("доделать auth"))
        .await
        .unwrap();
    let since = t0() - Duration::days(7);
    let open = |s: &Store| -> Vec<String> {
        s.context_rows(org, dima, kept::store::Scope::Full, since)
            .unwrap()
            .commitments
            .into_iter()
            .filter(|c| c.state == CommitmentState::Open)
            .map(|c| c.content)
            .collect()
    };
    assert_eq!(open(&bot), ["доделать auth"]);

    // Another process (`kept import`, a second bot) adds one and closes the first: the bot's
    // next read, its context cache emptied or not, shows both changes.
    let other = Store::open(&path).await.unwrap();
    other
        .insert_commitment(&promise("выставить счёт"))
        .await
        .unwrap();
    assert_eq!(open(&bot), ["доделать auth", "выставить счёт"]);
    let first = other
        .commitments_for(org, dima, kept::store::Scope::Full, since)
        .unwrap()
        .into_iter()
        .find(|c| c.content == "доделать auth")
        .unwrap();
    let done = CommitmentChange {
        state: Some(CommitmentState::Done),
        author: Some(Author::Rules),
        ..Default::default()
    };
    other
        .change_commitment(&first, &done, t0() + Duration::hours(1))
        .await
        .unwrap();
    bot.forget_contexts();
    assert_eq!(open(&bot), ["выставить счёт"]);

    // A memory of another kind changes the context but not the promises: both stay right.
    other
        .upsert_memory(&team_fact(org, dima, "работает с 2024 года"))
        .await
        .unwrap();
    let rows = bot
        .context_rows(org, dima, kept::store::Scope::Full, since)
        .unwrap();
    assert_eq!(rows.memories.len(), 1);
    assert_eq!(open(&bot), ["выставить счёт"]);
    // And a read after a restart of the model reads the same from the database.
    bot.forget_open_promises();
    assert_eq!(open(&bot), ["выставить счёт"]);
    // A team-only reader sees no private promise, from the model or not.
    let mut private = promise("личное");
    private.visibility = Visibility::Private;
    other.insert_commitment(&private).await.unwrap();
    let team = |s: &Store| -> usize {
        s.context_rows(org, dima, kept::store::Scope::TeamOnly, since)
            .unwrap()
            .commitments
            .len()
    };
    assert_eq!(team(&bot), 2, "the open one and the one done this week");
    assert_eq!(open(&bot).len(), 2);
}

/// The org's open promises as a batch reads them (a colleague's report is held against all of
/// them) come from the read model, each person's read again only when one of theirs changed,
/// whichever process changed it.
#[tokio::test]
async fn an_orgs_open_promises_follow_every_writer() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kept.db");
    let bot = Store::open(&path).await.unwrap();
    let org = bot
        .create_org("Acme", chrono_tz::Europe::Moscow, Lang::Ru, t0())
        .await
        .unwrap();
    let (dima, olga) = (UserId(2), UserId(3));
    for (u, name) in [(dima, "Дмитрий"), (olga, "Ольга")] {
        bot.upsert_user(u, name, None, None, None, t0())
            .await
            .unwrap();
    }
    let promise = |owner, content, minutes| {
        team_promise(org, owner, content, t0() + Duration::minutes(minutes))
    };
    let open = |s: Store| async move {
        let mut batch = s.begin_batch().await.unwrap();
        let open: Vec<String> = batch
            .open_commitments_in_org(org)
            .await
            .unwrap()
            .into_iter()
            .map(|c| c.content)
            .collect();
        drop(batch);
        open
    };
    assert!(open(bot.clone()).await.is_empty());
    bot.insert_commitment(&promise(dima, "доделать auth", 1))
        .await
        .unwrap();
    bot.insert_commitment(&promise(olga, "выставить счёт", 2))
        .await
        .unwrap();
    // Most recently made first, whoever made them.
    assert_eq!(open(bot.clone()).await, ["выставить счёт", "доделать auth"]);

    // Another process closes Дмитрий's and adds one of Ольга's: the next read shows both.
    let other = Store::open(&path).await.unwrap();
    let first = other
        .commitments_for(org, dima, kept::store::Scope::Full, t0())
        .unwrap()
        .into_iter()
        .find(|c| c.content == "доделать auth")
        .unwrap();
    let done = CommitmentChange {
        state: Some(CommitmentState::Done),
        author: Some(Author::Rules),
        ..Default::default()
    };
    other
        .change_commitment(&first, &done, t0() + Duration::hours(1))
        .await
        .unwrap();
    other
        .insert_commitment(&promise(olga, "сверить акты", 3))
        .await
        .unwrap();
    assert_eq!(open(bot.clone()).await, ["сверить акты", "выставить счёт"]);
    // After a restart of the model, the same from the database.
    bot.forget_open_promises();
    assert_eq!(open(bot.clone()).await, ["сверить акты", "выставить счёт"]);
}
