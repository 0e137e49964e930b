//! Shared setup of the benchmarks: an org with people, roles and a linked group.

#![allow(dead_code)]

use chrono::{DateTime, TimeZone, Utc};
use chrono_tz::Tz;
use kept::domain::{ChatId, OrgId, Role, UserId};
use kept::extract::Lang;
use kept::store::Store;

pub const CHAT: ChatId = ChatId(-1_001_234_567);

const FIRST: &[&str] = &[
    "Анна",
    "Дмитрий",
    "Ольга",
    "Сергей",
    "Мария",
    "Алексей",
    "Елена",
    "Иван",
    "Наталья",
    "Павел",
    "Татьяна",
    "Михаил",
    "Ирина",
    "Андрей",
    "Светлана",
    "Николай",
    "Юлия",
    "Артём",
    "Ксения",
    "Роман",
    "Kate",
    "John",
    "Mike",
    "Laura",
    "Peter",
];
const LAST: &[&str] = &[
    "Иванова",
    "Петров",
    "Смирнова",
    "Кузнецов",
    "Попова",
    "Соколов",
    "Лебедева",
    "Козлов",
    "Новикова",
    "Морозов",
];

pub fn tz() -> Tz {
    "Europe/Moscow".parse().unwrap()
}

/// Monday 2026-11-23 10:00 Moscow.
pub fn start() -> DateTime<Utc> {
    tz().with_ymd_and_hms(2026, 11, 23, 10, 0, 0)
        .unwrap()
        .with_timezone(&Utc)
}

/// An org of `n` people (ids 1..=n): 1 is the director, 2 and 3 are leads, the others report
/// to a lead. The group `CHAT` is linked.
pub async fn org(store: &Store, n: i64, now: DateTime<Utc>) -> OrgId {
    let org = store
        .create_org("Bench", tz(), Lang::Ru, now)
        .await
        .unwrap();
    for i in 1..=n {
        let k = (i - 1) as usize;
        let first = FIRST[k % FIRST.len()];
        let last = LAST[(k / FIRST.len() + k) % LAST.len()];
        let username = format!("user{i}");
        store
            .upsert_user(
                UserId(i),
                first,
                Some(last),
                Some(&username),
                Some("ru"),
                now,
            )
            .await
            .unwrap();
        let (role, manager) = match i {
            1 => (Role::Director, None),
            2 | 3 => (Role::Lead, Some(UserId(1))),
            _ => (Role::Member, Some(UserId(2 + i % 2))),
        };
        store
            .set_member(org, UserId(i), role, None, manager, now)
            .await
            .unwrap();
    }
    store
        .link_chat(org, CHAT, true, Some("Команда"), now)
        .await
        .unwrap();
    org
}

pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}
