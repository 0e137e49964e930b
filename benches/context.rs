//! The context read (`context::read`) for one person in an org of 50 people with 100,000
//! memories and 20,000 commitments, from a file database in WAL mode.
//!
//! `cargo bench --bench context -- --warm-up-time 1 --measurement-time 3`
//!
//! Criterion reports the mean and median; after it, a plain loop of 2,000 reads per viewer
//! prints p50 and p99. Each viewer is measured warm (the context kept from the read before:
//! nothing it shows changed since) and cold (`…/cold`: the cache emptied before each read).
//!
//! `cargo bench --bench context -- --peer` compares kept with the seed it replaces instead: at
//! 100,000 memories / 50 people and at 1,000,000 / 200 it runs the seed's own context read in
//! Python (`../shared/tools/lira_baseline.py`, or `$LIRA_BASELINE`) and kept's, in the same run,
//! each person read in random order, warm, cold (the context cache emptied; open promises from
//! the read model) and from disk (the read model emptied too), and prints the p50s and their
//! ratios.

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
    seed_sized(PEOPLE, MEMORIES, COMMITMENTS).await
}

async fn seed_sized(people: i64, memories: i64, commitments: i64) -> Seeded {
    let dir = tempfile::tempdir().unwrap();
    let now = common::start();
    // KEPT_BENCH_DB keeps the seeded database between runs (seeded when the file is absent);
    // the file name should say its size: nothing checks that it matches.
    if let Ok(path) = std::env::var("KEPT_BENCH_DB") {
        let path = std::path::PathBuf::from(format!("{path}.{people}-{memories}"));
        if path.exists() {
            let store = Store::open(&path).await.unwrap();
            let org = store.orgs().await.unwrap()[0];
            return Seeded {
                store,
                org,
                now,
                _dir: dir,
            };
        }
        let store = Store::open(&path).await.unwrap();
        return seed_into(store, people, memories, commitments, now, dir).await;
    }
    let store = Store::open(&dir.path().join("kept.db")).await.unwrap();
    seed_into(store, people, memories, commitments, now, dir).await
}

async fn seed_into(
    store: Store,
    people: i64,
    memories: i64,
    commitments: i64,
    now: DateTime<Utc>,
    dir: tempfile::TempDir,
) -> Seeded {
    let span = 730 * 86_400;
    let t0 = now - chrono::Duration::seconds(span);
    let org = common::org(&store, people, t0).await;
    let at = |i: i64, n: i64| t0 + chrono::Duration::seconds(span * i / n);

    let started = Instant::now();
    // Seeded in batches (one transaction of 10,000 rows each), as `kept import` writes.
    const CHUNK: i64 = 10_000;
    let mut batch = store.begin_batch().await.unwrap();
    for i in 0..memories {
        if i > 0 && i % CHUNK == 0 {
            batch.commit().await.unwrap();
            batch = store.begin_batch().await.unwrap();
        }
        let kind = KINDS[((i / people) % 4) as usize];
        let content = format!(
            "{} #{i}: работает с поставщиком {} по договору {}",
            kind.as_str(),
            i % 97,
            i / 7
        );
        let evidence = format!("message -1001234567/{i}");
        batch.upsert_memory(&NewMemory {
            org_id: org,
            subject: UserId(i % people + 1),
            kind,
            content: &content,
            confidence: Confidence::new(0.5 + (i % 5) as f64 / 10.0).unwrap(),
            author: Author::Reflection,
            visibility: kind.default_visibility((i / people) % 3 != 0),
            evidence: &evidence,
            source_chat: Some(common::CHAT),
            source_message: Some(MessageId(i)),
            at: at(i, memories),
        });
    }
    batch.commit().await.unwrap();
    let memories_took = started.elapsed();

    let started = Instant::now();
    let mut versions = 0;
    let mut batch = store.begin_batch().await.unwrap();
    for i in 0..commitments {
        if i > 0 && i % CHUNK == 0 {
            batch.commit().await.unwrap();
            batch = store.begin_batch().await.unwrap();
        }
        let made = at(i, commitments);
        let due_day = (made + chrono::Duration::days(1 + i % 14)).date_naive();
        let due = Due {
            date: due_day,
            time: (i % 5 == 0).then(|| NaiveTime::from_hms_opt(15, 0, 0).unwrap()),
        };
        let content = format!("подготовить отчёт №{i} для клиента {}", i % 31);
        let evidence = format!("message -1001234567/{}", 1_000_000 + i);
        let c = batch
            .insert_commitment(&NewCommitment {
                org_id: org,
                owner: UserId(i % people + 1),
                content: &content,
                due: ((i / people) % 4 != 3).then_some(due),
                confidence: Confidence::RULES,
                author: Author::Rules,
                visibility: if (i / people) % 10 == 0 {
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
        // per person, the k-th commitment (not i: i % people is the owner)
        let k = i / people;
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
            batch.change_commitment(&c, &ch, when).await.unwrap();
            versions += 1;
        }
    }
    batch.commit().await.unwrap();
    println!(
        "context: seeded {memories} memories in {:.1?}, {commitments} commitments (+{versions} versions) in {:.1?}",
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

/// The seed's context read in Python and kept's, at the same sizes in the same run.
/// How much of a context read comes from memory.
#[derive(Clone, Copy)]
enum Read {
    /// The person's context kept from their last read (nothing of it changed since).
    Warm,
    /// The context cache emptied: every row from the database but for open promises that have
    /// not changed, which the read model keeps (as after any other change to the person).
    Cold,
    /// The read model emptied too: every row from the database, as after a restart.
    Disk,
}

fn peer(rt: &tokio::runtime::Runtime) {
    let script = std::env::var("LIRA_BASELINE")
        .unwrap_or_else(|_| "../shared/tools/lira_baseline.py".to_string());
    let have_script = std::path::Path::new(&script).exists();
    if !have_script {
        println!("peer: {script} not found (set LIRA_BASELINE): kept's figures only");
    }
    let tz = common::tz();
    for (people, memories) in [(50_i64, 100_000_i64), (200, 1_000_000)] {
        // As many commitments per person as the main benchmark has (a fifth of the memories).
        let s = rt.block_on(seed_sized(people, memories, memories / 5));
        let everyone = rt.block_on(s.store.people(s.org)).unwrap();
        let viewers: Vec<(Viewer, Person)> = everyone
            .iter()
            .map(|p| {
                let v = rt
                    .block_on(Viewer::load(&s.store, s.org, p.profile.id, false))
                    .unwrap();
                (v, p.clone())
            })
            .collect();
        // A fixed sequence of people, as the baseline draws its own: warm up, then measure.
        let mut x: u64 = 1;
        let mut next = || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) as usize % viewers.len()
        };
        for (v, p) in &viewers {
            black_box(context::read(&s.store, v, p, s.now, tz).unwrap());
        }
        for _ in 0..200 {
            let (v, p) = &viewers[next()];
            black_box(context::read(&s.store, v, p, s.now, tz).unwrap());
        }
        // Timed as the seed's read is: the person's profile first, then their context. Warm:
        // as the reads of a day go, each person's context kept from their last read (nothing
        // of it changed since). Cold: the cache emptied before each read (not timed), every row
        // read from the database.
        let mut timed = |read: Read| {
            let mut times = Vec::with_capacity(SAMPLES);
            for _ in 0..SAMPLES {
                let (v, p) = &viewers[next()];
                match read {
                    Read::Warm => {}
                    Read::Cold => s.store.forget_contexts(),
                    Read::Disk => s.store.forget_open_promises(),
                }
                let t = Instant::now();
                let person = s.store.person(s.org, p.profile.id).unwrap().unwrap();
                black_box(context::read(&s.store, v, &person, s.now, tz).unwrap());
                times.push(t.elapsed());
            }
            percentiles(times)
        };
        let warm = timed(Read::Warm);
        let cold = timed(Read::Cold);
        let disk = timed(Read::Disk);
        drop(s);
        let baseline = have_script.then(|| {
            let dir = tempfile::tempdir().unwrap();
            // KEPT_BENCH_DB keeps the seed's database too (it builds one when the file is absent).
            let db = match std::env::var("KEPT_BENCH_DB") {
                Ok(path) => std::path::PathBuf::from(format!("{path}.lira-{people}-{memories}")),
                Err(_) => dir.path().join("lira.db"),
            };
            let out = std::process::Command::new("python3")
                .arg(&script)
                .arg(&db)
                .args(["--users", &people.to_string()])
                .args(["--memories", &memories.to_string()])
                .args(["--n", &SAMPLES.to_string()])
                .output()
                .expect("python3 runs");
            let text = String::from_utf8_lossy(&out.stdout).to_string();
            // "... p50=362us p99=510us"
            let p50 = text.split_whitespace().find_map(|w| {
                w.strip_prefix("p50=")?
                    .strip_suffix("us")?
                    .parse::<f64>()
                    .ok()
            });
            (text.trim().to_string(), p50)
        });
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        println!("peer {people} people / {memories} memories:");
        for (label, (p50, p99, _)) in [("warm", warm), ("cold", cold), ("disk", disk)] {
            println!(
                "  kept context::read {label}: p50 {:.0} µs, p99 {:.0} µs",
                us(p50),
                us(p99)
            );
        }
        if let Some((line, base)) = baseline {
            println!("  {line}");
            if let Some(b) = base {
                for (label, (p50, _, _)) in [("warm", warm), ("cold", cold), ("disk", disk)] {
                    println!(
                        "  kept {label} is {:.1}× the seed baseline's speed (p50 {b:.0} µs / {:.0} µs)",
                        b / us(p50),
                        us(p50)
                    );
                }
            }
        }
    }
}

fn main() {
    let rt = common::runtime();
    if std::env::args().any(|a| a == "--peer") {
        peer(&rt);
        return;
    }
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
        let ctx = context::read(&s.store, v, &person, s.now, tz).unwrap();
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
                b.iter(|| context::read(&s.store, v, &person, s.now, tz).unwrap())
            });
            g.bench_function(format!("{label}/cold"), |b| {
                b.iter(|| {
                    s.store.forget_contexts();
                    context::read(&s.store, v, &person, s.now, tz).unwrap()
                })
            });
        }
        g.finish();
    }
    c.final_summary();

    for ((label, v), cold) in viewers.iter().flat_map(|v| [(v, false), (v, true)]) {
        let mut times = Vec::with_capacity(SAMPLES);
        for _ in 0..SAMPLES {
            if cold {
                s.store.forget_contexts();
            }
            let t = Instant::now();
            black_box(context::read(&s.store, v, &person, s.now, tz).unwrap());
            times.push(t.elapsed());
        }
        let label = if cold {
            format!("{label}/cold")
        } else {
            label.to_string()
        };
        let (p50, p99, max) = percentiles(times);
        println!("context/{label}: {SAMPLES} reads, p50 {p50:.2?}, p99 {p99:.2?}, max {max:.2?}");
    }

    // Where the time goes: the one statement, and each of the reads it replaced.
    {
        let st = &s.store;
        let since = s.now - chrono::Duration::days(7);
        let mut times = Vec::with_capacity(500);
        for _ in 0..500 {
            let t = Instant::now();
            black_box(st.context_rows(s.org, SUBJECT, Scope::Full, since).unwrap());
            times.push(t.elapsed());
        }
        let (p50, p99, _) = percentiles(times);
        println!("  context_rows Full: p50 {p50:.2?}, p99 {p99:.2?}");
        let mut times = Vec::with_capacity(500);
        for _ in 0..500 {
            let t = Instant::now();
            rt.block_on(st.ping()).unwrap();
            times.push(t.elapsed());
        }
        let (p50, p99, _) = percentiles(times);
        println!("  one statement that reads nothing (SELECT 1): p50 {p50:.2?}, p99 {p99:.2?}");
    }
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
            time(&|| st
                .commitments_for(s.org, SUBJECT, scope, since)
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
