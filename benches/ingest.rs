//! Messages per second through `Ingest::messages` (rules + SQLite writes: each message stored
//! and read, its commitments written) in a 10-person org; and the rules alone.
//!
//! `cargo bench --bench ingest -- --warm-up-time 1 --measurement-time 3`
//!
//! Batches of 1,000 messages to a transaction (what `Ingest::messages` does with a burst or an
//! import), and one message to a transaction (what the live bot does with each update). The stream is rounds of ten messages: two promises (ru, en), one move,
//! two "done", five chatter lines; every round a different person promises.

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kept::domain::{MessageId, UserId};
use kept::extract::commitments::{self, MessageInput};
use kept::extract::names;
use kept::ingest::{self, Effect, Incoming, Ingest};
use kept::store::{Org, Person, Store, Stored};

const PEOPLE: i64 = 10;
/// Messages per measured batch.
const BATCH: u64 = 1000;

const TOPICS_RU: &[&str] = &[
    "макеты упаковки",
    "отчёт по марже",
    "смету для Вектора",
    "акты сверки",
    "КП для Ромашки",
    "договор с поставщиком",
    "прайс на сайте",
    "презентацию для клиента",
    "расчёт доставки",
    "план закупок",
];
const TOPICS_EN: &[&str] = &[
    "the deck",
    "the invoice",
    "the release notes",
    "the test plan",
    "the budget draft",
];
const CHATTER: &[&str] = &[
    "кто-нибудь знает, где лежат доступы к стейджингу?",
    "в 1password, папка Infra",
    "Напоминаю: в четверг в 15:00 созвон с заводом в Твери",
    "спасибо!",
    "auth почти готов, осталось ревью",
    "can someone review my PR?",
    "sounds good to me",
    "обед в 13:00, кто с нами?",
    "надо бы обновить прайс на сайте",
    "ok, thanks",
];

/// One round of ten messages: (speaker, text).
fn round(r: usize) -> Vec<(UserId, String)> {
    let p = |k: usize| UserId(((r + k) % PEOPLE as usize) as i64 + 1);
    let (a, b, c, d) = (p(0), p(3), p(5), p(7));
    let t = TOPICS_RU[r % TOPICS_RU.len()];
    let e = TOPICS_EN[r % TOPICS_EN.len()];
    let ch = |k: usize| CHATTER[(r * 5 + k) % CHATTER.len()].to_string();
    vec![
        (a, format!("завтра скину {t}")),
        (b, ch(0)),
        (c, format!("I'll send {e} by Friday")),
        (d, ch(1)),
        (a, format!("{t} не успеваю, переношу на пятницу")),
        (b, ch(2)),
        (c, format!("done, sent {e}")),
        (d, ch(3)),
        (a, format!("готово, {t} отправил")),
        (b, ch(4)),
    ]
}

fn stream() -> Vec<(UserId, String)> {
    (0..BATCH as usize / 10).flat_map(round).collect()
}

struct Fixture {
    store: Store,
    org: Org,
    people: Vec<Person>,
    names: Vec<names::Person>,
    msgs: Vec<(UserId, String)>,
    next: i64,
    _dir: Option<tempfile::TempDir>,
}

impl Fixture {
    async fn new(file: bool) -> Fixture {
        let (store, dir) = if file {
            let dir = tempfile::tempdir().unwrap();
            let s = Store::open(&dir.path().join("kept.db")).await.unwrap();
            (s, Some(dir))
        } else {
            (Store::temporary().await.unwrap(), None)
        };
        let org_id = common::org(&store, PEOPLE, common::start()).await;
        let org = store.org(org_id).await.unwrap();
        let people = store.people(org_id).await.unwrap().to_vec();
        let names = ingest::extract_people(&people);
        Fixture {
            store,
            org,
            people,
            names,
            msgs: stream(),
            next: 0,
            _dir: dir,
        }
    }

    /// Stores and ingests the next `n` messages, `per` to a transaction; returns the effects
    /// by kind.
    async fn run(&mut self, n: u64, per: u64) -> [usize; 4] {
        let ing = Ingest {
            store: &self.store,
            org: &self.org,
            people: &self.people,
            names: &self.names,
            refine: false,
        };
        let mut counts = [0; 4];
        let mut left = n;
        while left > 0 {
            let take = per.min(left);
            left -= take;
            let first = self.next;
            self.next += take as i64;
            let batch: Vec<Incoming> = (first..self.next)
                .map(|k| {
                    let (from, text) = &self.msgs[k as usize % self.msgs.len()];
                    Incoming {
                        chat: common::CHAT,
                        message: MessageId(k + 1),
                        from: *from,
                        date: common::start() + chrono::Duration::seconds(20 * k),
                        text,
                        reply_to: None,
                        mentions: &[],
                    }
                })
                .collect();
            for outcome in ing.messages(&batch).await.unwrap() {
                assert_eq!(outcome.stored, Stored::New);
                for e in outcome.effects {
                    counts[match e {
                        Effect::Created(_) => 0,
                        Effect::Moved(_) => 1,
                        Effect::Done(_) => 2,
                        Effect::Cancelled(_) => 3,
                    }] += 1;
                }
            }
        }
        counts
    }
}

fn bench(c: &mut Criterion) {
    let rt = common::runtime();

    // What the stream does, once.
    let mut check = rt.block_on(Fixture::new(false));
    let counts = rt.block_on(check.run(BATCH, BATCH));
    println!(
        "ingest: {BATCH} messages -> created {}, moved {}, done {}, cancelled {}",
        counts[0], counts[1], counts[2], counts[3]
    );

    let mut g = c.benchmark_group("ingest");
    g.throughput(Throughput::Elements(BATCH));

    // The rules alone: what `Ingest::message` computes before touching the store.
    let msgs = stream();
    let names = check.names.clone();
    let tz = common::tz();
    g.bench_function("rules_only", |b| {
        b.iter(|| {
            let mut n = 0;
            for (k, (from, text)) in msgs.iter().enumerate() {
                let now =
                    (common::start() + chrono::Duration::seconds(20 * k as i64)).with_timezone(&tz);
                n += commitments::analyze(&MessageInput {
                    text: black_box(text),
                    now,
                    speaker: from.0,
                    people: &names,
                    mentions: &[],
                    lang: None,
                })
                .len();
            }
            n
        })
    });

    // One transaction per `per` messages: a batch (import, a burst of updates) and the live
    // bot's one message at a time.
    for (name, file, per) in [
        ("file_wal_batch_1000", true, BATCH),
        ("in_memory_batch_1000", false, BATCH),
        ("file_wal_one_by_one", true, 1),
    ] {
        let mut fx = rt.block_on(Fixture::new(file));
        g.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let t = Instant::now();
                    black_box(rt.block_on(fx.run(BATCH, per)));
                    total += t.elapsed();
                }
                total
            })
        });
        println!(
            "ingest/{name}: {} messages in the store at the end",
            fx.next
        );
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
