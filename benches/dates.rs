//! `dates::find` over a mix of short chat messages (ru/en, with and without dates).
//!
//! `cargo bench --bench dates -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use chrono::TimeZone;
use chrono_tz::Tz;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kept::extract::Lang;
use kept::extract::dates;

/// Thirty messages as a team writes them: about two thirds name a date or time.
const MESSAGES: &[&str] = &[
    "доделаю рефакторинг auth до пятницы",
    "завтра скину макеты упаковки",
    "созвон с заводом в четверг в 15:00",
    "перенесу созвон с клиентом на завтра",
    "кто-нибудь знает, где лежат доступы к стейджингу?",
    "в 1password, папка Infra",
    "отчёт по марже сдам к 20-му",
    "релиз сдвигается на 10 декабря",
    "мне нужно ещё пару дней на отчёт",
    "ок, сделаю",
    "на следующей неделе доделаю интеграцию с 1С",
    "через 2 часа буду в офисе",
    "отгрузку для Вектора переносим на понедельник, нет упаковки",
    "спасибо!",
    "смета нужна раньше, к среде",
    "I'll send the deck by Friday",
    "let's meet tomorrow at 3pm",
    "moving the release to next Tuesday",
    "done, pushed the fix",
    "can someone review my PR?",
    "I need two more days for the report",
    "the invoice is due on December 5th",
    "ok",
    "back after lunch, around 2:30",
    "will finish the migration by end of day",
    "sounds good to me",
    "call with the supplier on Monday morning",
    "in 3 weeks we ship v2",
    "готово, акты отправил",
    "с 10 до 12 буду на складе",
];

fn bench(c: &mut Criterion) {
    let tz: Tz = "Europe/Moscow".parse().unwrap();
    let now = tz.with_ymd_and_hms(2026, 11, 23, 10, 0, 0).unwrap();
    let langs: Vec<Lang> = MESSAGES.iter().map(|m| Lang::detect(m)).collect();
    let found: usize = MESSAGES
        .iter()
        .zip(&langs)
        .map(|(m, l)| dates::find(m, now, *l).len())
        .sum();
    println!(
        "dates: {} messages, {found} expressions found in the mix",
        MESSAGES.len()
    );

    let mut g = c.benchmark_group("dates");
    g.throughput(Throughput::Elements(MESSAGES.len() as u64));
    g.bench_function("find_30_messages", |b| {
        b.iter(|| {
            let mut n = 0;
            for (m, l) in MESSAGES.iter().zip(&langs) {
                n += dates::find(black_box(m), now, *l).len();
            }
            n
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
