//! The schedule on a driven clock: reminder times in the org's timezone (DST included), working
//! days, the 12-hour rule, one reminder per due promise, the group fallback, exactly-once delivery
//! across a restart, late starts, 429 and 403 handling.

use crate::common;

use chrono::{DateTime, Datelike, Duration, Weekday};
use chrono_tz::Tz;
use common::*;
use kept::domain::{JobKind, Lang};
use kept::i18n::I18n;
use kept::replay::{Options, run_text};
use kept::sandbox::Failure;
use kept::schedule::{jobs, sender};
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------
// Scenario helpers (through `kept::replay::run_text`).

const TEAM: i64 = -1001;

fn org(tz: &str, locale: &str) -> Value {
    json!({"type": "org", "name": "Test", "timezone": tz, "locale": locale})
}

fn member(id: i64, name: &str, role: &str, dm_open: bool) -> Value {
    json!({"type": "member", "user": {"id": id, "first_name": name}, "role": role, "dm_open": dm_open})
}

fn said(id: i64, from: i64, date: &str, text: &str) -> Value {
    json!({"type": "message", "chat": {"id": TEAM, "type": "supergroup", "title": "Команда"},
           "id": id, "from": from, "date": date, "text": text})
}

fn clock(at: &str) -> Value {
    json!({"type": "clock", "at": at})
}

async fn replay(lines: &[Value]) -> Value {
    let text: Vec<String> = lines.iter().map(Value::to_string).collect();
    let outcome = run_text(
        &text.join("\n"),
        Options {
            tz: chrono_tz::Europe::Moscow,
            lang: Lang::Ru,
            db: None,
            llm: Default::default(),
        },
    )
    .await
    .expect("the scenario replays");
    outcome.json
}

fn transcript(result: &Value) -> &Vec<Value> {
    result["transcript"].as_array().expect("transcript list")
}

/// Reminders (messages with buttons) that went to a person's private chat.
fn reminders_to(result: &Value, user: i64) -> Vec<&Value> {
    transcript(result)
        .iter()
        .filter(|m| m["to_user"] == json!(user) && !buttons(m).is_empty())
        .collect()
}

fn buttons(m: &Value) -> Vec<&str> {
    m["buttons"]
        .as_array()
        .map(|b| b.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

fn at(m: &Value) -> &str {
    m["at"].as_str().expect("at")
}

fn local_at(m: &Value, tz: Tz) -> DateTime<Tz> {
    DateTime::parse_from_rfc3339(at(m))
        .expect("RFC 3339")
        .with_timezone(&tz)
}

fn text(m: &Value) -> &str {
    m["text"].as_str().unwrap_or("")
}

fn reminder_buttons(lang: Lang) -> Vec<String> {
    let i18n = I18n::new().unwrap();
    ["button-done", "button-snooze", "button-nap"]
        .iter()
        .map(|k| i18n.s(lang, k))
        .collect()
}

fn assert_no_weekend_sends(result: &Value, tz: Tz) {
    for m in transcript(result) {
        let day = local_at(m, tz).weekday();
        assert!(
            !matches!(day, Weekday::Sat | Weekday::Sun),
            "sent on a weekend: {m}"
        );
    }
}

// ---------------------------------------------------------------------------------------------

#[tokio::test]
async fn morning_reminder_comes_at_0930_on_a_weekday_with_buttons() {
    let r = replay(&[
        org("Europe/Moscow", "ru"),
        member(1, "Анна", "director", true),
        member(2, "Дмитрий", "member", true),
        said(10, 2, "2026-11-23T10:00:00+03:00", "доделаю отчёт до среды"),
        clock("2026-11-25T12:00:00+03:00"),
    ])
    .await;
    let reminders = reminders_to(&r, 2);
    let times: Vec<&str> = reminders.iter().map(|m| at(m)).collect();
    assert_eq!(
        times,
        ["2026-11-24T16:00:00+03:00", "2026-11-25T09:30:00+03:00"],
        "the day before at 16:00, the day itself at 09:30"
    );
    let morning = reminders[1];
    assert_eq!(morning["chat"], json!(2));
    assert_eq!(morning["kind"], json!("message"));
    assert!(text(morning).contains("отчёт"), "{morning}");
    assert_eq!(buttons(morning), reminder_buttons(Lang::Ru));
}

#[tokio::test]
async fn no_reminders_on_saturday_or_sunday() {
    let r = replay(&[
        org("Europe/Moscow", "ru"),
        member(1, "Анна", "director", true),
        member(2, "Дмитрий", "member", true),
        said(
            10,
            2,
            "2026-11-23T10:00:00+03:00",
            "доделаю отчёт до пятницы",
        ),
        clock("2026-12-01T12:00:00+03:00"),
    ])
    .await;
    assert_no_weekend_sends(&r, chrono_tz::Europe::Moscow);
    let times: Vec<&str> = reminders_to(&r, 2).iter().map(|m| at(m)).collect();
    assert_eq!(
        times,
        [
            "2026-11-26T16:00:00+03:00",
            "2026-11-27T09:30:00+03:00",
            // Overdue: again on Monday and Tuesday mornings, never on the weekend.
            "2026-11-30T09:30:00+03:00",
            "2026-12-01T09:30:00+03:00",
        ]
    );
}

#[tokio::test]
async fn reminders_follow_an_asia_vladivostok_org_timezone() {
    let r = replay(&[
        org("Asia/Vladivostok", "ru"),
        member(1, "Анна", "director", true),
        member(2, "Дмитрий", "member", true),
        said(
            10,
            2,
            "2026-11-23T10:00:00+10:00",
            "доделаю отчёт до пятницы",
        ),
        clock("2026-12-01T12:00:00+10:00"),
    ])
    .await;
    let tz = chrono_tz::Asia::Vladivostok;
    assert_no_weekend_sends(&r, tz);
    let times: Vec<&str> = reminders_to(&r, 2).iter().map(|m| at(m)).collect();
    assert_eq!(
        times,
        [
            "2026-11-26T16:00:00+10:00",
            "2026-11-27T09:30:00+10:00",
            "2026-11-30T09:30:00+10:00",
            "2026-12-01T09:30:00+10:00",
        ]
    );
    let commitments = r["commitments"].as_array().unwrap();
    assert_eq!(commitments[0]["due"], json!("2026-11-27"));
}

#[tokio::test]
async fn reminders_keep_local_time_across_the_us_dst_change_in_america_chicago() {
    let r = replay(&[
        org("America/Chicago", "en"),
        member(1, "Maya", "director", true),
        member(2, "Leo", "member", true),
        said(
            10,
            2,
            "2026-10-28T10:00:00-05:00",
            "I'll send the report by Monday",
        ),
        said(
            11,
            2,
            "2026-10-28T10:05:00-05:00",
            "I'll fix the login bug by Thursday",
        ),
        clock("2026-11-04T12:00:00-06:00"),
    ])
    .await;
    let tz = chrono_tz::America::Chicago;
    assert_no_weekend_sends(&r, tz);
    // Two promises due at once are two messages at the same minute.
    let mut times: Vec<&str> = reminders_to(&r, 2).iter().map(|m| at(m)).collect();
    times.dedup();
    assert_eq!(
        times,
        [
            // The Thursday item was promised at 10:05 on Wednesday: no 16:00 reminder that day.
            "2026-10-29T09:30:00-05:00",
            "2026-10-30T09:30:00-05:00",
            "2026-10-30T16:00:00-05:00",
            // After 2026-11-01 Chicago is on CST: still 09:30 local.
            "2026-11-02T09:30:00-06:00",
            "2026-11-03T09:30:00-06:00",
            "2026-11-04T09:30:00-06:00",
        ]
    );
    assert_eq!(buttons(reminders_to(&r, 2)[0]), reminder_buttons(Lang::En));
    // Every send of the week is at a scheduled local time.
    for m in transcript(&r) {
        let t = local_at(m, tz).format("%H:%M").to_string();
        assert!(
            ["09:30", "16:00", "18:00", "19:30"].contains(&t.as_str()),
            "{m}"
        );
    }
    // The weekly digest on Friday at 18:00 CDT, and a daily summary after the change at 19:30 CST.
    assert!(
        transcript(&r)
            .iter()
            .any(|m| at(m) == "2026-10-30T18:00:00-05:00" && m["to_user"] == json!(1))
    );
    assert!(
        transcript(&r)
            .iter()
            .any(|m| at(m) == "2026-11-02T19:30:00-06:00" && m["to_user"] == json!(1))
    );
}

#[tokio::test]
async fn day_before_reminder_is_skipped_for_a_promise_made_under_12_hours_before() {
    let r = replay(&[
        org("Europe/Moscow", "ru"),
        member(1, "Анна", "director", true),
        member(2, "Дмитрий", "member", true),
        member(3, "Елена", "member", true),
        member(4, "Игорь", "member", true),
        said(10, 2, "2026-11-23T10:00:00+03:00", "доделаю отчёт до среды"),
        // Exactly 12 hours before the 16:00 run: old enough.
        said(11, 4, "2026-11-24T04:00:00+03:00", "скину макеты до среды"),
        // Six hours before: too fresh for a "tomorrow" reminder.
        said(
            12,
            3,
            "2026-11-24T10:00:00+03:00",
            "подготовлю презентацию до среды",
        ),
        clock("2026-11-25T12:00:00+03:00"),
    ])
    .await;
    let times = |u: i64| -> Vec<String> {
        reminders_to(&r, u)
            .iter()
            .map(|m| at(m).to_string())
            .collect()
    };
    assert_eq!(
        times(2),
        ["2026-11-24T16:00:00+03:00", "2026-11-25T09:30:00+03:00"]
    );
    assert_eq!(
        times(4),
        ["2026-11-24T16:00:00+03:00", "2026-11-25T09:30:00+03:00"]
    );
    assert_eq!(
        times(3),
        ["2026-11-25T09:30:00+03:00"],
        "only the morning one"
    );
}

#[tokio::test]
async fn each_due_promise_is_reminded_of_in_a_message_of_its_own_with_its_buttons() {
    let r = replay(&[
        org("Europe/Moscow", "ru"),
        member(1, "Анна", "director", true),
        member(2, "Дмитрий", "member", true),
        member(3, "Елена", "member", true),
        said(10, 2, "2026-11-23T10:00:00+03:00", "доделаю отчёт до среды"),
        said(11, 2, "2026-11-23T10:01:00+03:00", "скину макеты до среды"),
        said(
            12,
            2,
            "2026-11-23T10:02:00+03:00",
            "подготовлю презентацию до среды",
        ),
        said(
            13,
            3,
            "2026-11-23T10:03:00+03:00",
            "пришлю акты сверки до среды",
        ),
        clock("2026-11-25T10:00:00+03:00"),
    ])
    .await;
    assert_eq!(r["commitments"].as_array().unwrap().len(), 4);
    let wednesday = |u: i64| -> Vec<&Value> {
        reminders_to(&r, u)
            .into_iter()
            .filter(|m| at(m) == "2026-11-25T09:30:00+03:00")
            .collect()
    };
    let dima = wednesday(2);
    assert_eq!(dima.len(), 3, "{dima:?}");
    for (i, word) in ["отчёт", "макеты", "презентаци"].iter().enumerate() {
        assert!(text(dima[i]).contains(word), "{word} missing: {}", dima[i]);
        assert!(
            text(dima[i]).contains(&format!("({} из 3)", i + 1)),
            "which of how many: {}",
            dima[i]
        );
        assert_eq!(buttons(dima[i]), reminder_buttons(Lang::Ru), "no numbers");
    }
    assert!(!text(dima[0]).contains("макеты"), "one promise a message");
    let lena = wednesday(3);
    assert_eq!(lena.len(), 1);
    assert!(text(lena[0]).contains("акты"));
    assert!(text(lena[0]).contains("(1 обещание)"), "{}", lena[0]);
    assert!(!text(lena[0]).contains("отчёт"), "only her own items");
    assert_eq!(buttons(lena[0]).len(), 3);
}

#[tokio::test]
async fn more_than_six_due_at_once_come_as_one_numbered_list() {
    let mut lines = vec![
        org("Europe/Moscow", "ru"),
        member(1, "Анна", "director", true),
        member(2, "Дмитрий", "member", true),
    ];
    let jobs = [
        "отчёт",
        "макеты",
        "презентацию",
        "смету",
        "договор",
        "акт",
        "счёт",
    ];
    for (i, job) in jobs.iter().enumerate() {
        lines.push(said(
            10 + i as i64,
            2,
            &format!("2026-11-23T10:0{i}:00+03:00"),
            &format!("пришлю {job} до среды"),
        ));
    }
    lines.push(clock("2026-11-25T10:00:00+03:00"));
    let r = replay(&lines).await;
    assert_eq!(r["commitments"].as_array().unwrap().len(), 7);
    let sent: Vec<&Value> = reminders_to(&r, 2)
        .into_iter()
        .filter(|m| at(m) == "2026-11-25T09:30:00+03:00")
        .collect();
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert!(text(sent[0]).contains("7 обещаний"), "{}", sent[0]);
    assert_eq!(buttons(sent[0]).len(), 21);
    assert!(
        buttons(sent[0]).contains(&"✅ Готово 7"),
        "{:?}",
        buttons(sent[0])
    );
}

#[tokio::test]
async fn reminder_to_someone_without_an_open_dm_goes_to_the_group_with_a_mention() {
    let r = replay(&[
        org("Europe/Moscow", "ru"),
        member(1, "Анна", "director", true),
        member(3, "Елена", "member", false),
        said(10, 3, "2026-11-23T10:00:00+03:00", "доделаю отчёт до среды"),
        clock("2026-11-25T12:00:00+03:00"),
    ])
    .await;
    assert!(
        transcript(&r).iter().all(|m| m["chat"] != json!(3)),
        "nothing to the closed DM"
    );
    let in_group: Vec<&Value> = transcript(&r)
        .iter()
        .filter(|m| m["chat"] == json!(TEAM))
        .collect();
    let times: Vec<&str> = in_group.iter().map(|m| at(m)).collect();
    assert_eq!(
        times,
        ["2026-11-24T16:00:00+03:00", "2026-11-25T09:30:00+03:00"]
    );
    for m in in_group {
        assert_eq!(m["to_user"], Value::Null);
        assert!(text(m).contains("tg://user?id=3"), "{m}");
        assert!(text(m).contains("отчёт"));
        assert_eq!(buttons(m), reminder_buttons(Lang::Ru));
    }
}

#[tokio::test]
async fn someone_without_a_dm_is_reminded_in_each_group_of_what_they_promised_there() {
    let other = json!({"id": -1002, "type": "supergroup", "title": "Концерт"});
    let mut in_other = said(11, 3, "2026-11-23T10:05:00+03:00", "афишу нарисую до среды");
    in_other["chat"] = other;
    let r = replay(&[
        org("Europe/Moscow", "ru"),
        member(1, "Анна", "director", true),
        member(3, "Елена", "member", false),
        said(10, 3, "2026-11-23T10:00:00+03:00", "доделаю отчёт до среды"),
        in_other,
        clock("2026-11-25T10:00:00+03:00"),
    ])
    .await;
    let morning = |chat: i64| -> Vec<&str> {
        transcript(&r)
            .iter()
            .filter(|m| m["chat"] == json!(chat) && at(m) == "2026-11-25T09:30:00+03:00")
            .map(text)
            .collect()
    };
    let (team, concert) = (morning(TEAM), morning(-1002));
    assert_eq!((team.len(), concert.len()), (1, 1), "{team:?} {concert:?}");
    assert!(
        team[0].contains("отчёт") && !team[0].contains("афиш"),
        "{team:?}"
    );
    assert!(
        concert[0].contains("афиш") && !concert[0].contains("отчёт"),
        "{concert:?}"
    );
    assert!(concert[0].contains("tg://user?id=3"), "{concert:?}");
}

// ---------------------------------------------------------------------------------------------
// Store + scheduler + sender directly.

const GROUP: i64 = -1_001_500;

/// Dima (2) and Lena (3) started the bot; Igor (4) did not. Each promised something due on
/// Wednesday 2026-11-25, on Monday morning.
async fn team_with_promises_due_wednesday() -> TestApp {
    let t = spawn_app().await;
    let group = supergroup_chat(GROUP, "Команда");
    t.admin_links(&group).await;
    let (dima, lena, igor) = (user(2, "Дмитрий"), user(3, "Елена"), user(4, "Игорь"));
    t.group(&group, &dima, 10, "доделаю отчёт до среды").await;
    t.group(&group, &lena, 11, "подготовлю презентацию до среды")
        .await;
    t.group(&group, &igor, 12, "скину макеты до среды").await;
    t.private(&dima, 1, "/start").await;
    t.private(&lena, 1, "/start").await;
    for m in [10, 11, 12] {
        assert_eq!(t.commitments_in(GROUP, m).await.len(), 1, "message {m}");
    }
    t
}

fn wednesday_0930() -> DateTime<chrono::Utc> {
    msk(2026, 11, 25, 9, 30)
}

#[tokio::test]
async fn restart_after_a_claimed_run_delivers_each_queued_item_exactly_once() {
    let t = team_with_promises_due_wednesday().await;
    let before = t.sent().len();
    let at = wednesday_0930();
    t.clock.set(at);

    // The run is claimed with its deliveries, then the process dies before sending any.
    {
        let s = t.scheduler().await;
        let table = s.timetable(t.org).expect("the org's timetable");
        let deliveries = jobs::compose(&t.app, table, JobKind::RemindersMorning, at)
            .await
            .unwrap();
        assert_eq!(deliveries.len(), 3, "{deliveries:?}");
        let key = table.period_key(JobKind::RemindersMorning, at);
        let run = t
            .store
            .claim_run(JobKind::RemindersMorning, t.org, &key, at, at, &deliveries)
            .await
            .unwrap();
        assert!(run.is_some());
    }
    assert_eq!(t.delivery_counts().await, (0, 3, 0));
    assert_eq!(t.sent().len(), before);

    // After the restart: a new scheduler over the same store resumes the queue.
    t.clock.set(at + Duration::minutes(2));
    let s = t.scheduler().await;
    let outbox = t.outbox();
    let n = sender::deliver_queued(&t.app, &outbox, false)
        .await
        .unwrap();
    assert_eq!(n, 3);
    assert_eq!(t.delivery_counts().await, (3, 0, 0));
    let new: Vec<_> = t.sent()[before..].to_vec();
    let mut chats: Vec<i64> = new.iter().map(|s| s.chat).collect();
    chats.sort();
    assert_eq!(
        chats,
        [GROUP, 2, 3],
        "one each: Dima, Lena, Igor via the group"
    );

    // The scheduler catching up over the same period composes nothing again.
    let claimed = s
        .advance(
            msk(2026, 11, 25, 9, 0),
            msk(2026, 11, 25, 10, 0),
            &|_| {},
            &outbox,
        )
        .await
        .unwrap();
    assert_eq!(claimed, 0);
    assert_eq!(
        sender::deliver_queued(&t.app, &outbox, false)
            .await
            .unwrap(),
        0
    );
    assert_eq!(t.delivery_counts().await, (3, 0, 0));
    assert_eq!(t.sent().len(), before + 3);
}

#[tokio::test]
async fn a_missed_run_less_than_6_hours_late_is_done_late() {
    let t = team_with_promises_due_wednesday().await;
    let before = t.sent().len();
    // The bot was down from 09:00 until 15:00 (5 h 30 min after the run).
    let now = msk(2026, 11, 25, 15, 0);
    t.clock.set(now);
    let s = t.scheduler().await;
    let claimed = s
        .advance(msk(2026, 11, 25, 9, 0), now, &|_| {}, &t.outbox())
        .await
        .unwrap();
    assert_eq!(claimed, 1);
    let new: Vec<_> = t.sent()[before..].to_vec();
    assert_eq!(new.len(), 3, "{new:?}");
    assert!(new.iter().all(|s| s.at == now && !s.buttons.is_empty()));
    assert_eq!(t.delivery_counts().await, (3, 0, 0));
}

#[tokio::test]
async fn a_missed_run_more_than_6_hours_late_is_skipped() {
    let t = team_with_promises_due_wednesday().await;
    let before = t.sent().len();
    let now = msk(2026, 11, 25, 15, 31);
    t.clock.set(now);
    let s = t.scheduler().await;
    let outbox = t.outbox();
    let claimed = s
        .advance(
            msk(2026, 11, 25, 9, 0),
            msk(2026, 11, 25, 10, 0),
            &|_| {},
            &outbox,
        )
        .await
        .unwrap();
    assert_eq!(claimed, 0);
    assert_eq!(t.sent().len(), before);
    assert_eq!(t.delivery_counts().await, (0, 0, 0));
    assert!(
        t.store
            .job_run_exists(JobKind::RemindersMorning, t.org, "2026-11-25")
            .await
            .unwrap(),
        "the skip is recorded, so it is never sent later"
    );
    s.advance(msk(2026, 11, 25, 9, 0), now, &|_| {}, &outbox)
        .await
        .unwrap();
    assert!(
        t.sent()[before..].iter().all(|s| s.buttons.is_empty()),
        "no morning reminder on a second pass"
    );
}

#[tokio::test]
async fn a_429_is_retried_after_retry_after_and_sent_once() {
    let t = team_with_promises_due_wednesday().await;
    t.clock.set(msk(2026, 11, 25, 9, 0));
    let before = t.sent_to(2).len();
    t.sandbox
        .fail_next(2, Failure::TooManyRequests { retry_after: 3 });
    t.advance_to(msk(2026, 11, 25, 9, 30)).await.unwrap();
    assert_eq!(t.sent_to(2).len(), before, "rate limited: not sent yet");
    assert_eq!(t.delivery_counts().await, (2, 1, 0));

    let outbox = t.outbox();
    t.clock.set(wednesday_0930() + Duration::seconds(2));
    assert_eq!(
        sender::deliver_queued(&t.app, &outbox, false)
            .await
            .unwrap(),
        0
    );
    assert_eq!(t.sent_to(2).len(), before, "still within retry_after");

    t.clock.set(wednesday_0930() + Duration::seconds(3));
    assert_eq!(
        sender::deliver_queued(&t.app, &outbox, false)
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        sender::deliver_queued(&t.app, &outbox, false)
            .await
            .unwrap(),
        0
    );
    let to_dima = t.sent_to(2);
    assert_eq!(to_dima.len(), before + 1, "sent exactly once");
    let last = to_dima.last().unwrap();
    assert_eq!(last.at, wednesday_0930() + Duration::seconds(3));
    assert!(last.text.contains("отчёт"));
    assert_eq!(t.delivery_counts().await, (3, 0, 0));
}

#[tokio::test]
async fn a_403_from_a_blocked_dm_falls_back_to_the_group_and_closes_the_dm() {
    let t = team_with_promises_due_wednesday().await;
    t.clock.set(msk(2026, 11, 25, 9, 0));
    assert!(t.dm_open(2).await);
    let before_dm = t.sent_to(2).len();
    t.sandbox.block(2);
    t.advance_to(msk(2026, 11, 25, 9, 31)).await.unwrap();

    assert!(!t.dm_open(2).await, "403 closes the DM");
    assert_eq!(t.sent_to(2).len(), before_dm);
    let in_group: Vec<_> = t
        .sent_to(GROUP)
        .into_iter()
        .filter(|s| !s.buttons.is_empty())
        .collect();
    assert_eq!(in_group.len(), 2, "Igor's and Dima's: {in_group:?}");
    let dima = in_group
        .iter()
        .find(|s| s.text.contains("tg://user?id=2"))
        .expect("Dima's reminder in the group, with a mention");
    assert!(dima.text.contains("отчёт"));
    assert_eq!(dima.buttons, reminder_buttons(Lang::Ru));
    assert_eq!(t.delivery_counts().await, (3, 0, 0));

    // The next morning (overdue now) goes straight to the group: no new 403 attempt.
    let calls_before = t.sandbox.calls().len();
    let sent_before = t.sent().len();
    t.advance_to(msk(2026, 11, 26, 9, 31)).await.unwrap();
    let attempts = t.sandbox.calls()[calls_before..]
        .iter()
        .filter(|c| *c == "sendmessage")
        .count();
    let new = t.sent()[sent_before..].to_vec();
    assert_eq!(attempts, new.len(), "every send attempt went through");
    assert!(new.iter().any(|s| s.at == msk(2026, 11, 26, 9, 30)
        && s.chat == GROUP
        && s.text.contains("tg://user?id=2")));
    assert!(new.iter().all(|s| s.chat != 2));
    assert_eq!(t.delivery_counts().await.2, 0, "nothing failed");
}

/// Delegates to the bot, but answers 429 to the `nth` send (counting from 1) once.
struct FailNth {
    inner: kept::bot::BotOutbox,
    nth: usize,
    calls: std::sync::atomic::AtomicUsize,
}

impl sender::Outbox for FailNth {
    async fn send(&self, part: &sender::Part<'_>) -> Result<i64, sender::SendError> {
        let k = self.calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
        if k == self.nth {
            return Err(sender::SendError::RetryAfter(5));
        }
        self.inner.send(part).await
    }
}

#[tokio::test]
async fn a_long_delivery_stopped_between_parts_resumes_with_the_next_part() {
    let t = team_with_promises_due_wednesday().await;
    let at = wednesday_0930();
    t.clock.set(at);
    let before = t.sent().len();
    let text: String = (1..=300)
        .map(|i| format!("{i}. строка длинной сводки для директора\n"))
        .collect();
    let buttons = vec![vec![("✅ Готово".to_string(), "c:done:1".to_string())]];
    t.store
        .claim_run(
            JobKind::DailySummary,
            t.org,
            "2026-11-25",
            at,
            at,
            &[kept::store::NewDelivery {
                chat_id: kept::domain::ChatId(2),
                to_user: Some(kept::domain::UserId(2)),
                text: text.clone(),
                buttons,
                ..Default::default()
            }],
        )
        .await
        .unwrap();
    let outbox = FailNth {
        inner: t.outbox(),
        nth: 2,
        calls: Default::default(),
    };
    sender::deliver_queued(&t.app, &outbox, false)
        .await
        .unwrap();
    assert_eq!(t.sent().len(), before + 1, "the first part went out");
    assert_eq!(t.delivery_counts().await, (0, 1, 0), "the rest waits");
    t.clock.set(at + Duration::seconds(10));
    sender::deliver_queued(&t.app, &outbox, false)
        .await
        .unwrap();
    assert_eq!(t.delivery_counts().await, (1, 0, 0));
    let parts: Vec<_> = t.sent()[before..].to_vec();
    assert!(parts.len() >= 3, "{} parts", parts.len());
    // Each line once, in order: no part repeated, none lost.
    let joined: String = parts.iter().map(|s| s.text.clone() + "\n").collect();
    let lines: Vec<&str> = joined.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), 300);
    assert!(lines[299].starts_with("300."));
    assert!(parts.iter().all(|s| s.text.chars().count() <= 4096));
    let (last, rest) = parts.split_last().unwrap();
    assert_eq!(last.buttons, ["✅ Готово"]);
    assert!(rest.iter().all(|s| s.buttons.is_empty()));
}
