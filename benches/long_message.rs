//! One message far over Telegram's limit (what a replay or an import may carry): the rules on
//! 64,000 and 1,000,000 characters of varied group chat, and the whole of `Ingest::message`
//! (stored, read, its commitments written) on the million in a linked group of ten. Analysis reads bounded pieces,
//! so time grows with length, not with its square.
//!
//! `cargo bench --bench long_message -- --warm-up-time 1 --measurement-time 5`

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kept::domain::{MessageId, UserId};
use kept::extract::commitments::{self, MessageInput};
use kept::extract::names;
use kept::ingest::{self, Incoming, Ingest};
use kept::store::Store;

const SENTENCES: &[&str] = &[
    "завтра скину {w} по складу {n}",
    "кто-нибудь знает, где лежат доступы к {w}?",
    "I'll send the {w} deck by Friday",
    "Ben can you review the {w} PR please?",
    "готово, {w} отправил",
    "{w} не успеваю, переношу на пятницу",
    "обед в 13:00, кто с нами?",
    "done, sent invoice {n}",
    "надо бы обновить прайс на {w}",
    "Дмитрий, сделаешь {w} к четвергу?",
    "sounds good to me",
    "почти половину {w} перевёл",
];

const SYLLABLES: &[&str] = &[
    "ка", "ро", "ми", "ту", "зе", "ла", "но", "ви", "ba", "ke", "lo", "ri", "sta", "pen", "mo",
];

/// At least `chars` characters of chat lines with made-up nouns, so the words (and the findings) vary as in
/// real text rather than repeating one line.
fn chat(chars: usize) -> String {
    let mut out = String::with_capacity(chars * 2);
    let mut count = 0;
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    while count < chars {
        let before = out.len();
        let s = SENTENCES[next() as usize % SENTENCES.len()];
        let w: String = (0..2 + next() % 3)
            .map(|_| SYLLABLES[next() as usize % SYLLABLES.len()])
            .collect();
        out.push_str(
            &s.replace("{w}", &w)
                .replace("{n}", &(next() % 5000).to_string()),
        );
        out.push_str(if next() % 4 == 0 { "\n" } else { ". " });
        count += out[before..].chars().count();
    }
    out
}

/// `Ingest::message` with `text` in the linked group of a fresh org of ten: the time it took
/// (setting up the org is not counted) and the effects it had.
async fn ingest_once(text: &str) -> (Duration, usize) {
    let store = Store::temporary().await.unwrap();
    let org_id = common::org(&store, 10, common::start()).await;
    let org = store.org(org_id).await.unwrap();
    let people = store.people(org_id).await.unwrap();
    let names = ingest::extract_people(&people);
    let ing = Ingest {
        store: &store,
        org: &org,
        people: &people,
        names: &names,
        refine: false,
    };
    let m = Incoming {
        chat: common::CHAT,
        message: MessageId(1),
        from: UserId(2),
        date: common::start(),
        text,
        reply_to: None,
        mentions: &[],
    };
    let t = Instant::now();
    let effects = ing.message(&m).await.unwrap().effects.len();
    (t.elapsed(), effects)
}

fn bench(c: &mut Criterion) {
    let rt = common::runtime();
    let names: Vec<names::Person> = (1..=10)
        .map(|i| names::Person {
            id: i,
            first_name: ["Анна", "Дмитрий", "Ben", "Kate", "Ольга"][i as usize % 5].to_string(),
            last_name: Some("Петров".to_string()),
            username: Some(format!("user{i}")),
        })
        .collect();
    let now = common::start().with_timezone(&common::tz());

    let mut g = c.benchmark_group("long_message");
    g.sample_size(10);
    for (name, bytes) in [("analyze_64k", 64_000), ("analyze_1m", 1_000_000)] {
        let text = chat(bytes);
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function(name, |b| {
            b.iter(|| {
                commitments::analyze(&MessageInput {
                    text: black_box(&text),
                    now,
                    speaker: 2,
                    people: &names,
                    mentions: &[],
                    lang: None,
                })
                .len()
            })
        });
    }

    // The whole write path in a group, each time into a fresh org: the message is its first.
    let text = chat(1_000_000);
    let found = commitments::analyze(&MessageInput {
        text: &text,
        now,
        speaker: 2,
        people: &names,
        mentions: &[],
        lang: None,
    });
    let effects = rt.block_on(ingest_once(&text)).1;
    println!(
        "long_message: {} bytes, {} chars -> {} findings, {effects} effects through ingest",
        text.len(),
        text.chars().count(),
        found.len()
    );
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_function("ingest_1m_group", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                total += rt.block_on(ingest_once(&text)).0;
            }
            total
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
