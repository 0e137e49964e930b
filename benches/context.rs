//! The context read (`context::read`) for one person in an org of 50 people with 100,000
//! memories and 20,000 commitments, from a file database in WAL mode.
//!
//! `cargo bench --bench context -- --warm-up-time 1 --measurement-time 3`
//!
//! Criterion reports the mean and median; after it, a plain loop of 2,000 reads per viewer
//! prints p50 and p99.

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use chrono::{DateTime, NaiveTime, Utc};
use criterion::Criterion;
use kept::context::{self, Viewer};
use kept::domain::{
    Author, CommitmentState, Confidence, Due, MemoryKind, MessageId, OrgId, Role, UserId,
    Visibility,
};
use kept::store::{CommitmentChange, NewCommitment, NewMemory, Person, Scope, Store};

const PEOPLE: i64 = 50;
const MEMORIES: i64 = 100_000;
const COMMITMENTS: i64 = 20_000;
/// The person whose context is read: a member reporting to lead 2.
const SUBJECT: UserId = UserId(10);
const SAMPLES: usize = 2_000;

const KINDS: [MemoryKind; 4] = [
    MemoryKind::Fact,
    MemoryKind::Context,
    MemoryKind::Trait,
    MemoryKind::Preference,
];

struct Seeded {
    store: Store,
    org: OrgId,
    now: DateTime<Utc>,
    _dir: tempfile::TempDir,
}

/// Two years of history: memories and commitments spread evenly over people and time. Of the
/// commitments made in the last 90 days 45 % were done, 5 % cancelled, 10 % moved once and the
/// rest are open; older ones were closed (90 % done, 8 % cancelled) except 2 % left open.
async fn seed() -> Seeded {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("kept.db")).await.unwrap();
    let now = common::start();
    let span = 730 * 86_400;
    let t0 = now - chrono::Duration::seconds(span);
    let org = common::org(&store, PEOPLE, t0).await;
    let at = |i: i64, n: i64| t0 + chrono::Duration::seconds(span * i / n);

    let started = Instant::now();
    for i in 0..MEMORIES {
        let kind = KINDS[((i / PEOPLE) % 4) as usize];
        let content = format!(
            "{} #{i}: работает с поставщиком {} по договору {}",
            kind.as_str(),
            i % 97,
            i / 7
        );
        let evidence = format!("message -1001234567/{i}");
        store
            .upsert_memory(&NewMemory {
                org_id: org,
                subject: UserId(i % PEOPLE + 1),
                kind,
                content: &content,
                confidence: Confidence::new(0.5 + (i % 5) as f64 / 10.0).unwrap(),
                author: Author::Reflection,
                visibility: kind.default_visibility((i / PEOPLE) % 3 != 0),
                evidence: &evidence,
                source_chat: Some(common::CHAT),
                source_message: Some(MessageId(i)),
                at: at(i, MEMORIES),
            })
            .await
            .unwrap();
    }
    let memories_took = started.elapsed();

    let started = Instant::now();
    let mut versions = 0;
    for i in 0..COMMITMENTS {
        let made = at(i, COMMITMENTS);
        let due_day = (made + chrono::Duration::days(1 + i % 14)).date_naive();
        let due = Due {
            date: due_day,
            time: (i % 5 == 0).then(|| NaiveTime::from_hms_opt(15, 0, 0).unwrap()),
        };
        let content = format!("подготовить отчёт №{i} для клиента {}", i % 31);
        let evidence = format!("message -1001234567/{}", 1_000_000 + i);
        let c = store
            .insert_commitment(&NewCommitment {
                org_id: org,
                owner: UserId(i % PEOPLE + 1),
                content: &content,
                due: ((i / PEOPLE) % 4 != 3).then_some(due),
                confidence: Confidence::RULES,
                author: Author::Rules,
                visibility: if (i / PEOPLE) % 10 == 0 {
                    Visibility::Private
                } else {
                    Visibility::Team
                },
                source_chat: Some(common::CHAT),
                source_message: Some(MessageId(1_000_000 + i)),
                requester: None,
                request: None,
                evidence: &evidence,
                at: made,
            })
            .await
            .unwrap();
        // per person, the k-th commitment (not i: i % PEOPLE is the owner)
        let k = i / PEOPLE;
        let recent = now - made < chrono::Duration::days(90);
        let done = CommitmentChange {
            state: Some(CommitmentState::Done),
            ..Default::default()
        };
        let cancelled = CommitmentChange {
            state: Some(CommitmentState::Cancelled),
            ..Default::default()
        };
        let moved = CommitmentChange {
            due: Some(Some(Due::day(due_day + chrono::Duration::days(3)))),
            ..Default::default()
        };
        let change = match (recent, k % 50) {
            (true, 0..=21) => Some(done),
            (true, 22..=24) => Some(cancelled),
            (true, 25..=29) => Some(moved),
            (true, _) => None,
            (false, 0..=44) => Some(done),
            (false, 45..=48) => Some(cancelled),
            (false, _) => None,
        };
        if let Some(mut ch) = change {
            ch.update = Some((common::CHAT, MessageId(2_000_000 + i)));
            ch.author = Some(Author::Rules);
            let when = (made + chrono::Duration::days(2)).min(now);
            store.change_commitment(&c, &ch, when).await.unwrap();
            versions += 1;
        }
    }
    println!(
        "context: seeded {MEMORIES} memories in {:.1?}, {COMMITMENTS} commitments (+{versions} versions) in {:.1?}",
        memories_took,
        started.elapsed()
    );
    Seeded {
        store,
        org,
        now,
        _dir: dir,
    }
}

fn percentiles(mut d: Vec<Duration>) -> (Duration, Duration, Duration) {
    d.sort();
    let at = |q: f64| d[((d.len() as f64 * q).ceil() as usize).saturating_sub(1)];
    (at(0.50), at(0.99), *d.last().unwrap())
}

fn main() {
    let rt = common::runtime();
    let s = rt.block_on(seed());
    let tz = common::tz();
    let people = rt.block_on(s.store.people(s.org)).unwrap();
    let person: Person = people
        .iter()
        .find(|p| p.profile.id == SUBJECT)
        .unwrap()
        .clone();
    // (label, asker): the director (full scope), the person themselves, a peer (team rows only).
    let viewers: Vec<(&str, Viewer)> = [
        ("director", UserId(1), Role::Director),
        ("self", SUBJECT, Role::Member),
        ("peer", UserId(11), Role::Member),
    ]
    .into_iter()
    .map(|(label, asker, role)| {
        let v = rt
            .block_on(Viewer::load(&s.store, s.org, asker, false))
            .unwrap();
        assert_eq!(v.role, role);
        (label, v)
    })
    .collect();
    for (label, v) in &viewers {
        let ctx = rt
            .block_on(context::read(&s.store, v, &person, s.now, tz))
            .unwrap();
        println!(
            "context/{label}: scope {:?}, {} open, {} recently done, {} moved, {} memories",
            ctx.scope,
            ctx.open.len(),
            ctx.recently_done.len(),
            ctx.moved.len(),
            ctx.memories.len()
        );
    }

    let mut c = Criterion::default().configure_from_args();
    {
        let mut g = c.benchmark_group("context");
        for (label, v) in &viewers {
            g.bench_function(*label, |b| {
                b.iter(|| {
                    rt.block_on(context::read(&s.store, v, &person, s.now, tz))
                        .unwrap()
                })
            });
        }
        g.finish();
    }
    c.final_summary();

    for (label, v) in &viewers {
        let mut times = Vec::with_capacity(SAMPLES);
        for _ in 0..SAMPLES {
            let t = Instant::now();
            black_box(
                rt.block_on(context::read(&s.store, v, &person, s.now, tz))
                    .unwrap(),
            );
            times.push(t.elapsed());
        }
        let (p50, p99, max) = percentiles(times);
        println!("context/{label}: {SAMPLES} reads, p50 {p50:.2?}, p99 {p99:.2?}, max {max:.2?}");
    }

    // Where the time goes: each store read of `context::read`, full scope and team-only.
    let since = s.now - chrono::Duration::days(7);
    let time = |f: &dyn Fn() -> usize| {
        let mut times = Vec::with_capacity(500);
        let mut rows = 0;
        for _ in 0..500 {
            let t = Instant::now();
            rows = f();
            times.push(t.elapsed());
        }
        let (p50, p99, _) = percentiles(times);
        format!("{rows} rows, p50 {p50:.2?}, p99 {p99:.2?}")
    };
    for scope in [Scope::Full, Scope::TeamOnly] {
        let st = &s.store;
        println!(
            "  commitments_for {scope:?}: {}",
            time(&|| rt
                .block_on(st.commitments_for(s.org, SUBJECT, scope, since))
                .unwrap()
                .len())
        );
        println!(
            "  memories_for {scope:?}: {}",
            time(&|| rt
                .block_on(st.memories_for(s.org, SUBJECT, scope, 40, 10))
                .unwrap()
                .len())
        );
    }
    let st = &s.store;
    println!(
        "  nodes_owned_by: {}",
        time(&|| rt
            .block_on(st.nodes_owned_by(s.org, SUBJECT))
            .unwrap()
            .len())
    );
    println!(
        "  open_tasks: {}",
        time(&|| rt.block_on(st.open_tasks(s.org, SUBJECT)).unwrap().len())
    );
    println!(
        "  reflections_of: {}",
        time(&|| rt.block_on(st.reflections_of(SUBJECT, 3)).unwrap().len())
    );
}
