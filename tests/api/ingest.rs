//! The batched write path (`Ingest::messages`): a batch of messages writes exactly what the
//! same messages write one at a time, skips what is already stored, and is all or nothing.

use chrono::{DateTime, Duration, TimeZone, Utc};
use kept::domain::{ChatId, CommitmentState, Lang, MessageId, OrgId, Role, UserId};
use kept::ingest::{self, Effect, Incoming, Ingest};
use kept::store::{Commitment, Org, Person, Store, Stored};

const CHAT: ChatId = ChatId(-1_001_000_777);

fn t0() -> DateTime<Utc> {
    chrono_tz::Europe::Moscow
        .with_ymd_and_hms(2026, 11, 23, 10, 0, 0)
        .unwrap()
        .with_timezone(&Utc)
}

/// Анна directs, Дмитрий leads Игорь; all three in one linked group.
async fn org(store: &Store) -> OrgId {
    let org = store
        .create_org("Org", chrono_tz::Europe::Moscow, Lang::Ru, t0())
        .await
        .unwrap();
    for (id, first, role, manager) in [
        (1, "Анна", Role::Director, None),
        (2, "Дмитрий", Role::Lead, Some(UserId(1))),
        (3, "Игорь", Role::Member, Some(UserId(2))),
    ] {
        store
            .upsert_user(UserId(id), first, None, None, Some("ru"), t0())
            .await
            .unwrap();
        store
            .set_member(org, UserId(id), role, None, manager, t0())
            .await
            .unwrap();
    }
    store
        .link_chat(org, CHAT, true, Some("Команда"), t0())
        .await
        .unwrap();
    org
}

/// (from, text, reply_to) in order, a minute apart.
const CHAT_LOG: &[(i64, &str, Option<i64>)] = &[
    (2, "доделаю рефакторинг auth до пятницы", None),
    (3, "кто знает, где доступы к стейджингу?", None),
    (1, "Игорь, подготовь смету для Альфы до четверга", None),
    (3, "ок", None),
    (2, "auth не успеваю, переношу на понедельник", None),
    (1, "решили перейти на Postgres", None),
    (3, "готово, смету отправил", Some(3)),
    (2, "I'll send the deck by Thursday", None),
    (1, "отбой, дек не нужен", Some(8)),
    (2, "спасибо!", None),
];

fn incoming(k: usize) -> Incoming<'static> {
    let (from, text, reply_to) = CHAT_LOG[k];
    Incoming {
        chat: CHAT,
        message: MessageId(k as i64 + 1),
        from: UserId(from),
        date: t0() + Duration::minutes(k as i64),
        text,
        reply_to: reply_to.map(MessageId),
        mentions: &[],
    }
}

struct Fixture {
    store: Store,
    org: Org,
    people: Vec<Person>,
    names: Vec<kept::extract::names::Person>,
}

impl Fixture {
    async fn new() -> Fixture {
        let store = Store::temporary().await.unwrap();
        let org_id = org(&store).await;
        let org = store.org(org_id).await.unwrap();
        let people = store.people(org_id).await.unwrap().to_vec();
        let names = ingest::extract_people(&people);
        Fixture {
            store,
            org,
            people,
            names,
        }
    }

    fn ingest(&self) -> Ingest<'_> {
        Ingest {
            store: &self.store,
            org: &self.org,
            people: &self.people,
            names: &self.names,
            refine: false,
        }
    }

    /// Every version, without the ids a run happens to assign.
    async fn history(&self) -> Vec<(UserId, String, Option<String>, CommitmentState, bool)> {
        self.store
            .commitment_versions(self.org.id)
            .await
            .unwrap()
            .into_iter()
            .map(|c: Commitment| {
                (
                    c.owner,
                    c.content,
                    c.due.map(|d| d.to_db()),
                    c.state,
                    c.archived,
                )
            })
            .collect()
    }
}

#[tokio::test]
async fn a_batch_writes_what_the_same_messages_write_one_at_a_time() {
    let one = Fixture::new().await;
    let mut effects_one = Vec::new();
    for k in 0..CHAT_LOG.len() {
        let out = one.ingest().message(&incoming(k)).await.unwrap();
        assert_eq!(out.stored, Stored::New);
        effects_one.push(out.effects.len());
    }
    let all = Fixture::new().await;
    let batch: Vec<Incoming> = (0..CHAT_LOG.len()).map(incoming).collect();
    let out = all.ingest().messages(&batch).await.unwrap();
    let effects_all: Vec<usize> = out.iter().map(|o| o.effects.len()).collect();
    assert_eq!(effects_all, effects_one);

    let history = all.history().await;
    assert_eq!(history, one.history().await);
    // What the log says, version by version: made, moved, accepted, done, made, cancelled.
    let current: Vec<_> = history.iter().filter(|v| !v.4).collect();
    assert_eq!(current.len(), 3, "{history:#?}");
    assert!(current.iter().any(|v| v.0 == UserId(2)
        && v.1.contains("auth")
        && v.2.as_deref() == Some("2026-11-30")
        && v.3 == CommitmentState::Open));
    assert!(current.iter().any(|v| v.0 == UserId(3)
        && v.1.contains("смет")
        && v.2.as_deref() == Some("2026-11-26")
        && v.3 == CommitmentState::Done));
    assert!(
        current
            .iter()
            .any(|v| v.0 == UserId(2) && v.1.contains("deck") && v.3 == CommitmentState::Cancelled)
    );
    // The decision is a team memory in both runs.
    for f in [&one, &all] {
        let mems = f.store.all_memories(f.org.id).await.unwrap();
        assert_eq!(mems.len(), 1);
        assert!(mems[0].content.contains("Postgres"));
    }
}

#[tokio::test]
async fn a_message_already_stored_or_repeated_in_the_batch_is_skipped() {
    let f = Fixture::new().await;
    let ing = f.ingest();
    ing.message(&incoming(0)).await.unwrap();
    let out = ing
        .messages(&[incoming(0), incoming(1), incoming(1)])
        .await
        .unwrap();
    let stored: Vec<Stored> = out.iter().map(|o| o.stored).collect();
    assert_eq!(stored, [Stored::Duplicate, Stored::New, Stored::Duplicate]);
    assert!(out.iter().all(|o| o.effects.is_empty()));
    assert_eq!(
        f.history().await.len(),
        1,
        "the promise is not captured twice"
    );
}

#[tokio::test]
async fn a_promise_and_its_completion_in_one_batch_are_both_written() {
    let f = Fixture::new().await;
    let out = f
        .ingest()
        .messages(&[incoming(0), incoming(4)])
        .await
        .unwrap();
    let made = match &out[0].effects[..] {
        [Effect::Created(c)] => c.clone(),
        other => panic!("expected a new promise, got {other:?}"),
    };
    let moved = match &out[1].effects[..] {
        [Effect::Moved(c)] => c.clone(),
        other => panic!("expected a move, got {other:?}"),
    };
    assert_eq!(moved.origin_id, made.id);
    // What the effects said is what the database holds.
    let stored = f.store.current_commitment(made.id).await.unwrap().unwrap();
    assert_eq!(stored, moved);
    let versions = f.store.commitment_versions(f.org.id).await.unwrap();
    assert_eq!(versions.len(), 2);
    assert!(versions[0].archived && !versions[1].archived);
}

#[tokio::test]
async fn a_failed_batch_keeps_nothing_of_it() {
    let f = Fixture::new().await;
    let ing = f.ingest();
    // A chat that was never linked violates the messages → chats foreign key at commit.
    let mut stray = incoming(2);
    stray.chat = ChatId(-1_009_999_999);
    stray.message = MessageId(99);
    let err = ing.messages(&[incoming(0), stray]).await;
    assert!(err.is_err(), "the batch must fail");
    assert!(f.history().await.is_empty());
    assert!(f.store.message(CHAT, MessageId(1)).await.unwrap().is_none());
    // The same messages go through once the bad one is left out.
    let out = ing.messages(&[incoming(0)]).await.unwrap();
    assert_eq!(out[0].stored, Stored::New);
    assert_eq!(f.history().await.len(), 1);
}

#[tokio::test]
async fn promises_that_differ_in_a_name_or_a_number_stay_two() {
    let f = Fixture::new().await;
    let ing = f.ingest();
    let texts = [
        "подготовлю КП для Ромашки по складу до пятницы",
        "подготовлю КП для Лютика по складу до пятницы",
        "I'll send invoice 1041 by Thursday",
        "I'll send invoice 1042 by Thursday",
    ];
    for (k, text) in texts.iter().enumerate() {
        let out = ing
            .message(&Incoming {
                chat: CHAT,
                message: MessageId(100 + k as i64),
                from: UserId(2),
                date: t0() + Duration::minutes(k as i64),
                text,
                reply_to: None,
                mentions: &[],
            })
            .await
            .unwrap();
        assert!(
            matches!(&out.effects[..], [Effect::Created(_)]),
            "{text:?} must be a new promise, got {:?}",
            out.effects
        );
    }
    let history = f.history().await;
    let current: Vec<_> = history.iter().filter(|v| !v.4).collect();
    assert_eq!(current.len(), 4, "{history:#?}");
    for needle in ["Ромашк", "Лютик", "1041", "1042"] {
        assert!(
            current.iter().any(|v| v.1.contains(needle)),
            "{needle} lost: {history:#?}"
        );
    }
    // Saying one of them again with a new date moves it, and only it.
    let out = ing
        .message(&Incoming {
            chat: CHAT,
            message: MessageId(110),
            from: UserId(2),
            date: t0() + Duration::minutes(10),
            text: "КП для Лютика по складу переношу на понедельник",
            reply_to: None,
            mentions: &[],
        })
        .await
        .unwrap();
    match &out.effects[..] {
        [Effect::Moved(c)] => assert!(c.content.contains("Лютик"), "{c:?}"),
        other => panic!("expected the Лютик quote to move, got {other:?}"),
    }
}

/// Done told by where the thing now is closes the one open promise that names it, and a bare
/// "отбой" in reply to a message about something else cancels nothing of the speaker's.
#[tokio::test]
async fn a_result_told_by_its_place_closes_its_promise_and_a_stray_cancel_does_not() {
    let f = Fixture::new().await;
    let ing = f.ingest();
    let say = |k: i64, from: i64, text: &'static str, reply_to: Option<i64>| Incoming {
        chat: CHAT,
        message: MessageId(200 + k),
        from: UserId(from),
        date: t0() + Duration::minutes(k),
        text,
        reply_to: reply_to.map(|r| MessageId(200 + r)),
        mentions: &[],
    };
    let made = |out: &ingest::Outcome| match &out.effects[..] {
        [Effect::Created(c)] => c.clone(),
        other => panic!("expected a new promise, got {other:?}"),
    };
    let spec = made(
        &ing.message(&say(0, 3, "спецификацию для Новосиба завтра сделаю", None))
            .await
            .unwrap(),
    );
    let letter = made(
        &ing.message(&say(1, 3, "письмо в администрацию отправлю в среду", None))
            .await
            .unwrap(),
    );
    // The director calls off something nobody promised; "ок, отбой" agrees to that.
    ing.message(&say(2, 1, "Игорь, розыгрыш отменяем, бюджета нет", None))
        .await
        .unwrap();
    let out = ing.message(&say(3, 3, "ок, отбой", Some(2))).await.unwrap();
    assert!(out.effects.is_empty(), "{:?}", out.effects);
    // Where the thing is now: in the folder; and the letter went.
    let out = ing
        .message(&say(
            4,
            3,
            "спецификация для Новосиба в папке Опт/Декабрь",
            None,
        ))
        .await
        .unwrap();
    match &out.effects[..] {
        [Effect::Done(c)] => assert_eq!(c.origin_id, spec.origin_id),
        other => panic!("expected the spec done, got {other:?}"),
    }
    let out = ing
        .message(&say(5, 3, "письмо в администрацию ушло", None))
        .await
        .unwrap();
    match &out.effects[..] {
        [Effect::Done(c)] => assert_eq!(c.origin_id, letter.origin_id),
        other => panic!("expected the letter done, got {other:?}"),
    }
    // Where something unpromised is closes nothing.
    let last = made(
        &ing.message(&say(6, 3, "акт сверки подпишу в пятницу", None))
            .await
            .unwrap(),
    );
    let out = ing
        .message(&say(7, 3, "коробки на складе у Анны", None))
        .await
        .unwrap();
    assert!(out.effects.is_empty(), "{:?}", out.effects);
    let open = f.store.open_commitments(f.org.id, UserId(3)).await.unwrap();
    assert_eq!(
        open.iter().map(|c| c.origin_id).collect::<Vec<_>>(),
        vec![last.origin_id],
        "{open:#?}"
    );
}

/// Runs `log` ((from, text, reply_to), a minute apart) one message at a time and returns the
/// current commitments as (owner, content, due, state).
async fn after(
    log: &[(i64, &str, Option<i64>)],
) -> Vec<(i64, String, Option<String>, CommitmentState)> {
    let f = Fixture::new().await;
    for (k, (from, text, reply_to)) in log.iter().enumerate() {
        f.ingest()
            .message(&Incoming {
                chat: CHAT,
                message: MessageId(k as i64 + 1),
                from: UserId(*from),
                date: t0() + Duration::minutes(k as i64),
                text,
                reply_to: reply_to.map(MessageId),
                mentions: &[],
            })
            .await
            .unwrap();
    }
    f.history()
        .await
        .into_iter()
        .filter(|v| !v.4)
        .map(|v| (v.0.0, v.1, v.2, v.3))
        .collect()
}

/// A report of one promise and a promise of other work in one message: the first is done and
/// the second is new. A report of part of a promise with the rest promised again leaves it
/// open, moved.
#[tokio::test]
async fn a_report_beside_a_new_promise_closes_its_own_promise_only() {
    let now = after(&[
        (3, "завтра заберу с базы РИП-12 4 шт и акб к ним", None),
        (3, "забрал РИПы и акб, в обед завезу на школу", None),
    ])
    .await;
    assert!(
        now.iter()
            .any(|c| c.1.contains("РИП") && c.3 == CommitmentState::Done),
        "{now:?}"
    );
    assert!(
        now.iter()
            .any(|c| c.1.contains("школ") && c.3 == CommitmentState::Open),
        "{now:?}"
    );

    let now = after(&[
        (3, "клиентов по усн обзвоню всех троих до вечера", None),
        (3, "двоих обзвонила, третий не берёт, наберу завтра", None),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].3, CommitmentState::Open);
    assert_eq!(now[0].2.as_deref(), Some("2026-11-24"), "{now:?}");

    // Told by where the thing now is, with an ask to everyone after it.
    let now = after(&[
        (3, "график дежурств на февраль скину в среду", None),
        (
            3,
            "график дежурств на февраль в закрепе. кто не может - пишите до понедельника",
            None,
        ),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].3, CommitmentState::Done, "{now:?}");
}

/// A bare promise in reply to someone's question is about what they asked; a bare yes to a
/// dated message that asks nothing takes its date; a refusal with a new date and nothing open
/// to move is a promise of its own.
#[tokio::test]
async fn a_bare_promise_takes_its_thing_and_date_from_what_it_answers() {
    let now = after(&[
        (1, "кто знает где ключ от венткамеры на хасана?", None),
        (3, "у меня, завтра привезу", Some(1)),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert!(now[0].1.contains("ключ"), "{now:?}");

    let now = after(&[
        (
            1,
            "пацаны в пт к 16 все акты скрытых по школе мне на подпись",
            None,
        ),
        (3, "сдам", Some(1)),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].0, 3);
    assert_eq!(now[0].2.as_deref(), Some("2026-11-27T16:00"), "{now:?}");

    let now = after(&[(
        3,
        "камри салон сегодня не успею, там собака жила. завтра к обеду сделаю",
        None,
    )])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert!(now[0].1.contains("камри"), "{now:?}");
    assert_eq!(
        now[0].2.as_deref().map(|d| &d[..10]),
        Some("2026-11-24"),
        "{now:?}"
    );
}

/// A list that hands out work by name without verbs, answered "принял" by one named: that
/// person's part is their promise, by its date; a part naming an open promise of theirs moves
/// it instead. A short yes to a message naming them that hands out nothing makes nothing.
#[tokio::test]
async fn a_yes_to_a_list_of_assignments_takes_the_part_handed_to_the_one_who_says_it() {
    let now = after(&[
        (
            1,
            "бригадам на неделю. Игорь кирова 21, 3 комнаты + коридор. Дмитрий малоярославец коттедж, к среде закончить",
            None,
        ),
        (3, "принял", Some(1)),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].0, 3);
    assert!(
        now[0].1.contains("кирова") && !now[0].1.contains("малоярослав"),
        "{now:?}"
    );

    let now = after(&[
        (
            1,
            "замеры сегодня: Дмитрий правгород 3 квартиры, Игорь тульская 88 и хрустальная 42",
            None,
        ),
        (3, "норм", Some(1)),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert!(now[0].1.contains("тульская"), "{now:?}");
    assert_eq!(
        now[0].2.as_deref().map(|d| &d[..10]),
        Some("2026-11-23"),
        "{now:?}"
    );

    let now = after(&[
        (3, "тестовое для нового фрилансера проверю в четверг", None),
        (
            1,
            "Игорь, тестовое давай в пятницу уже, в четверг у тебя созвон",
            None,
        ),
        (3, "ок", Some(2)),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(
        now[0].2.as_deref().map(|d| &d[..10]),
        Some("2026-11-27"),
        "{now:?}"
    );

    let now = after(&[
        (1, "Игорь, молодец, вчера всё сдали", None),
        (3, "ок", Some(1)),
    ])
    .await;
    assert!(now.is_empty(), "{now:?}");
}

/// A report that names nothing, in reply to a request no promise was made of, is about that
/// request: it closes no other promise of the speaker's. In reply to a nudge that names
/// nothing either, it is about their promise.
#[tokio::test]
async fn a_bare_report_answering_another_request_closes_no_other_promise() {
    let now = after(&[
        (1, "Игорь до пятницы сверь оплаты по всем объектам", None),
        (3, "сделаю", Some(1)),
        (1, "Игорь на пн газель под материалы закажи", None),
        (3, "заказала уже", Some(3)),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].3, CommitmentState::Open, "{now:?}");

    let now = after(&[
        (1, "Игорь до пятницы сверь оплаты по всем объектам", None),
        (3, "сделаю", Some(1)),
        (1, "Игорь ну что там?", None),
        (3, "сделал", Some(3)),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].3, CommitmentState::Done, "{now:?}");
}

/// Round 24 (blind): a report that tells where the work left the thing ("bins are down at block
/// 4"), or the thing with a participle the quick test missed ("залиты"), closes the promise.
#[tokio::test]
async fn a_result_told_by_where_the_work_left_it_closes_the_promise() {
    for (promise, report) in [
        (
            "I'll have the half-tonne bins down at Block 4 by 7:30",
            "bins are down at block 4, 24 of em",
        ),
        (
            "поставлю новые шаблоны заключений в PACS до среды",
            "шаблоны в PACS залиты, пользуйтесь",
        ),
    ] {
        let now = after(&[(3, promise, None), (3, report, None)]).await;
        assert_eq!(now.len(), 1, "{promise}: {now:?}");
        assert_eq!(now[0].3, CommitmentState::Done, "{report}: {now:?}");
    }
}

/// Work done told by a witness who names the doer closes the doer's promise; a name that is
/// called to or stands in another case ("Диме формы отдал") names no doer.
#[tokio::test]
async fn a_witness_naming_the_doer_closes_their_promise() {
    let promise = "распечатаю сегодня новые формы согласия на каждый кабинет";
    let now = after(&[
        (2, promise, None),
        (3, "Дима формы уже разложил по кабинетам, я видел", None),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].3, CommitmentState::Done, "{now:?}");
    for report in ["Диме формы отдал", "Дима, формы разложил"] {
        let now = after(&[(2, promise, None), (3, report, None)]).await;
        assert_eq!(now.len(), 1, "{report}: {now:?}");
        assert_eq!(now[0].3, CommitmentState::Open, "{report}: {now:?}");
    }
}

/// English results told by where the thing went: "gone", or in someone's inbox without "is";
/// the verb's own noun names the work. A thing in a common place ("in the bins") is progress.
#[tokio::test]
async fn an_english_result_sent_off_or_in_someones_inbox_closes_the_promise() {
    for (promise, report) in [
        (
            "I'll get the Roundhay church tower quote over to them by Thursday",
            "Roundhay church quote's gone, £14.2k inc the chimney lift",
        ),
        (
            "I'll price it up tonight",
            "Headingley price is in your inbox Shell, came out at £3,850 + VAT",
        ),
        (
            "I'll get the RAMS drafted for Pete to check by Thursday",
            "RAMS for Headingley in your inbox Pete 📩",
        ),
    ] {
        let now = after(&[(3, promise, None), (3, report, None)]).await;
        assert_eq!(now.len(), 1, "{promise}: {now:?}");
        assert_eq!(now[0].3, CommitmentState::Done, "{report}: {now:?}");
    }
    let now = after(&[
        (3, "we'll have the Braeburn block picked by wednesday", None),
        (3, "first Braeburns in the bins 🍎 pressure 8.2", None),
    ])
    .await;
    assert_eq!(now[0].3, CommitmentState::Open, "{now:?}");
}

/// "Send them the quote" asks no one on its own (no date, no "please"); a plain yes in reply
/// takes it on, and the report closes it. Russian bare imperatives stay as they were: "возьми
/// мне одну с сыром" → "ок" is an errand among friends.
#[tokio::test]
async fn a_plain_yes_to_a_bare_english_imperative_takes_it_on() {
    let now = after(&[
        (
            1,
            "Should be, she's not booked that Saturday. Send them the quote",
            None,
        ),
        (3, "will do", Some(1)),
        (
            3,
            "Pier 21 quote sent, $1,450 + HST. They said they'll confirm by Friday",
            None,
        ),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert!(now[0].1.contains("quote"), "{now:?}");
    assert_eq!(
        now[0].2, None,
        "the Saturday is another sentence's: {now:?}"
    );
    assert_eq!(now[0].3, CommitmentState::Done, "{now:?}");
    let now = after(&[(2, "возьми мне одну с сыром", None), (3, "ок", Some(1))]).await;
    assert!(now.is_empty(), "{now:?}");
}

/// The director calling work off, with someone else's wish to move something else beside it,
/// cancels; a report beside work said not done closes only what its own sentence names.
#[tokio::test]
async fn a_cancel_beside_news_of_a_move_and_a_report_beside_work_not_done() {
    let now = after(&[
        (
            3,
            "I'll send them the waiver forms and the deposit invoice tomorrow",
            None,
        ),
        (
            1,
            "Igor hold off on the waivers, Pier 21 just called, they want to move the charter to \
             July and haven't picked a date. Cancel that for now",
            None,
        ),
    ])
    .await;
    assert_eq!(now[0].3, CommitmentState::Cancelled, "{now:?}");
    let now = after(&[
        (
            3,
            "I'll get the dog policy up on the website FAQ by Wednesday",
            None,
        ),
        (
            3,
            "FAQ still isn't up, sorry, the website thing won't let me add a new section. I've \
             emailed the web guy",
            None,
        ),
    ])
    .await;
    assert_eq!(now[0].3, CommitmentState::Open, "{now:?}");
}

/// Yeses of other Englishes ("Grand, no bother", "Dead on", "Yes, I look at it today") accept;
/// work handed out as "you're driving Troy then, 6am Thursday" is a request; a yes that names
/// only its verb ("I will ring them tomorrow") keeps what was asked; and work named by "it"
/// is the sentence before's, so a witness's report of it closes it.
#[tokio::test]
async fn yeses_of_other_englishes_accept_what_was_asked() {
    for (request, yes) in [
        (
            "Igor, can you prep the lighting package for Troy for Wednesday evening?",
            "Grand, no bother",
        ),
        ("Igor you're driving Troy then, 6am Thursday", "Dead on"),
    ] {
        let now = after(&[(1, request, None), (3, yes, Some(1))]).await;
        assert_eq!(now.len(), 1, "{yes}: {now:?}");
        assert!(now[0].1.contains("Troy"), "{now:?}");
    }
    let now = after(&[
        (
            1,
            "The auditor flagged the extinguisher service dates. Igor can you book the \
             extinguisher service?",
            None,
        ),
        (3, "Yes. I will ring them tomorrow", Some(1)),
    ])
    .await;
    assert!(now[0].1.contains("extinguisher"), "{now:?}");
    let now = after(&[
        (
            1,
            "Alexa Mini #2 is still throwing the fan error. Igor can you look at it before \
             Wednesday?",
            None,
        ),
        (3, "Yes, I look at it today", Some(1)),
        (
            2,
            "Igor sorted the Mini #2 fan, ran it for 2 hours, no error 🙌",
            None,
        ),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert!(now[0].1.contains("fan"), "{now:?}");
    assert_eq!(now[0].3, CommitmentState::Done, "{now:?}");
}

/// One report of two pieces of work closes the promise of each.
#[tokio::test]
async fn one_report_of_two_works_closes_both_promises() {
    let now = after(&[
        (
            3,
            "I'll pump over tanks 3 and 5 after lunch and I'll hose out the picking bins before knock off today",
            None,
        ),
        (3, "3 and 5 pumped over, bins hosed and stacked", None),
    ])
    .await;
    assert_eq!(now.len(), 2, "{now:?}");
    assert!(now.iter().all(|c| c.3 == CommitmentState::Done), "{now:?}");
}

/// The same verb about the same things, said again with a new date, moves the promise; the
/// same verb about another errand, or a second promise of the same message, is new.
#[tokio::test]
async fn the_same_work_said_again_with_a_new_date_moves_the_promise() {
    let now = after(&[
        (3, "по радио до ср соберу 3 предложения", None),
        (
            3,
            "по радио: 2 предложения есть, третье завтра дособеру",
            None,
        ),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].2.as_deref(), Some("2026-11-24"), "{now:?}");

    let now = after(&[
        (3, "позвоню клиенту по договору завтра", None),
        (3, "позвоню клиенту по оплате в пт", None),
    ])
    .await;
    assert_eq!(now.len(), 2, "{now:?}");

    let now = after(&[(
        3,
        "гагаринским смету отправлю сегодня, по ленина 12 завтра отправлю",
        None,
    )])
    .await;
    assert_eq!(now.len(), 2, "{now:?}");
}

/// "не повезу" to one's own promise, "не делаем" from the director to it: called off. "не
/// успею, давай в пн" is a move, not this.
#[tokio::test]
async fn a_decline_in_reply_calls_the_promise_off() {
    let now = after(&[
        (
            3,
            "завтра заеду на базу, заберу старые диски на металлолом",
            None,
        ),
        (3, "диски не повезу, клиент их себе забрал", Some(1)),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].3, CommitmentState::Cancelled, "{now:?}");

    let now = after(&[
        (3, "калибровку сделаю в пт", None),
        (
            1,
            "Игорь, калибровку в пт не делаем, инженер приедет и сам откалибрует",
            Some(1),
        ),
    ])
    .await;
    assert_eq!(now[0].3, CommitmentState::Cancelled, "{now:?}");

    let now = after(&[
        (3, "калибровку сделаю в пт", None),
        (3, "не успею, давай в пн", Some(1)),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].3, CommitmentState::Open, "{now:?}");
    assert_eq!(now[0].2.as_deref(), Some("2026-11-30"), "{now:?}");
}

/// A reply that accepts one part of a request and promises another apart ("…, а скан завтра
/// отправлю") makes two promises with their own dates.
#[tokio::test]
async fn two_promises_in_an_accepting_reply_are_two() {
    let now = after(&[
        (
            1,
            "Проверка прошла. Игорь, исправь и пришли скан инспектору до вторника",
            None,
        ),
        (3, "исправлю сегодня, а скан завтра отправлю", Some(1)),
    ])
    .await;
    assert_eq!(now.len(), 2, "{now:?}");
    let mut dues: Vec<Option<String>> = now.iter().map(|c| c.2.clone()).collect();
    dues.sort();
    assert_eq!(
        dues,
        [
            Some("2026-11-23".to_string()),
            Some("2026-11-24".to_string())
        ],
        "{now:?}"
    );
}

/// The owner asking leave for a later date ("сводку можно в пт отдам?") moves the promise
/// the question answers; what they report done beside it does not close it.
#[tokio::test]
async fn leave_asked_for_a_later_date_moves_the_promise() {
    let now = after(&[
        (
            1,
            "Игорь, к четвергу нужна сводка по выручке, в экселе",
            None,
        ),
        (3, "сделаю", Some(1)),
        (
            3,
            "Анна, сводку можно в пт отдам? бухгалтерия ещё не закрыла",
            Some(1),
        ),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].2.as_deref(), Some("2026-11-27"), "{now:?}");

    let now = after(&[
        (1, "Игорь, вторые мнения до пт закрой, пожалуйста", None),
        (3, "закрою", Some(1)),
        (
            3,
            "вторые мнения: 6 из 8 закрыл. Два сложных, можно в чт доделаю?",
            None,
        ),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].3, CommitmentState::Open, "{now:?}");
    assert_eq!(now[0].2.as_deref(), Some("2026-11-26"), "{now:?}");

    // The work named without its verb, with the reason after the question.
    let now = after(&[
        (
            1,
            "Игорь, к четвергу нужен отчёт по продажам и план на октябрь",
            None,
        ),
        (3, "ок", Some(1)),
        (
            3,
            "Анна, отчёт по продажам можно в пн? жду новые цены, без них план не посчитать",
            Some(1),
        ),
    ])
    .await;
    assert_eq!(now[0].2.as_deref(), Some("2026-11-30"), "{now:?}");

    // Leave asked about something else moves nothing.
    let now = after(&[
        (1, "Игорь, сделай отчёт к пт", None),
        (3, "ок", Some(1)),
        (3, "можно я завтра уйду пораньше?", Some(1)),
    ])
    .await;
    assert_eq!(now[0].2.as_deref(), Some("2026-11-27"), "{now:?}");
}

/// A photo ("📸 …") in reply to the request hands the work in; one in reply to "фото скинь"
/// about something else does not close the promise its words name.
#[tokio::test]
async fn a_photo_in_reply_hands_the_work_in() {
    let now = after(&[
        (
            2,
            "Игорь, скинь фотки новой мастерской, хочу пост сделать",
            None,
        ),
        (3, "ок, вечером скину", Some(1)),
        (
            3,
            "📸 новая мастерская, Дмитрий, забирай для поста",
            Some(1),
        ),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].3, CommitmentState::Done, "{now:?}");

    let now = after(&[
        (3, "завтра нарежу листья и отвезу в лабу", None),
        (1, "фото скинь", Some(1)),
        (3, "📷 вот, снизу листа смотрите", Some(2)),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].3, CommitmentState::Open, "{now:?}");
}

/// "Игорь, отбой по выставке" from a director who has promised something of their own: the
/// named person's promise that the words name more fully is called off.
#[tokio::test]
async fn a_cancel_naming_someone_calls_off_their_promise() {
    let now = after(&[
        (
            1,
            "Игорь, зарегистрируй нас на выставку «Агро» к пятнице",
            None,
        ),
        (3, "ок", Some(1)),
        (1, "в пн позвоню в инспекцию насчёт проверки", None),
        (
            1,
            "Игорь, отбой по выставке «Агро», это в те же выходные, что и проверка",
            None,
        ),
    ])
    .await;
    let state = |owner: i64| now.iter().find(|c| c.0 == owner).map(|c| c.3);
    assert_eq!(state(3), Some(CommitmentState::Cancelled), "{now:?}");
    assert_eq!(state(1), Some(CommitmentState::Open), "{now:?}");
}

/// A day's plan named by nouns ("сегодня: 1) созвон с … 2) КП для …") is the speaker's work
/// that day, each item on its own: one moved by "КП … доделаю завтра", one closed by "с …
/// созвонился"; and a move said beside a report of other work moves one and closes the other.
#[tokio::test]
async fn a_plan_named_by_nouns_is_work_item_by_item() {
    let now = after(&[
        (
            3,
            "сегодня: 1) созвон с Ветбиохимом по вакцинам 2) КП для Колоса",
            None,
        ),
        (
            3,
            "КП для Колоса доделаю завтра, цены от дистрибьютора не пришли",
            None,
        ),
        (3, "с Ветбиохимом созвонился, вакцина будет 6-го", None),
    ])
    .await;
    assert_eq!(now.len(), 2, "{now:?}");
    let item = |w: &str| now.iter().find(|c| c.1.contains(w)).unwrap();
    assert_eq!(item("Ветбиохим").3, CommitmentState::Done, "{now:?}");
    assert_eq!(item("КП").3, CommitmentState::Open, "{now:?}");
    assert_ne!(item("КП").2, item("Ветбиохим").2, "moved a day on: {now:?}");

    let now = after(&[
        (
            3,
            "сегодня: рефакторинг модуля уведомлений, потом доку по апи допишу",
            None,
        ),
        (
            3,
            "рефакторинг уведомлений не успел, переношу на понедельник. доку по апи дописал",
            None,
        ),
    ])
    .await;
    assert_eq!(now.len(), 2, "{now:?}");
    let item = |w: &str| now.iter().find(|c| c.1.contains(w)).unwrap();
    assert_eq!(item("рефакторинг").3, CommitmentState::Open, "{now:?}");
    assert_eq!(item("доку").3, CommitmentState::Done, "{now:?}");
    assert_ne!(item("рефакторинг").2, item("доку").2, "{now:?}");
}

/// "когда ботинки будут?" asked of someone, even by a nickname the team's list does not hold,
/// and answered by a date alone: the one who answers promises the thing by that date. "когда
/// будет созвон?" asks when, and a date answered hands nobody work.
#[tokio::test]
async fn a_date_answering_when_the_thing_will_be_is_a_promise() {
    let now = after(&[
        (
            1,
            "Михалыч, когда ботинки Сидоровой будут? она уже третий раз звонит",
            None,
        ),
        (3, "в среду", Some(1)),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].0, 3, "{now:?}");
    assert!(now[0].1.contains("ботинки"), "{now:?}");
    assert_eq!(now[0].2.as_deref(), Some("2026-11-25"), "{now:?}");

    let now = after(&[
        (1, "Игорь, когда будет созвон?", None),
        (3, "в среду", Some(1)),
    ])
    .await;
    assert!(now.is_empty(), "{now:?}");
}

/// A request the addressee already answered in a reply ("отправила ей в вотсап") is not taken
/// on again by a later plain "ок, поняла", which answers what was said last. A call-off in its
/// own sentence beside a report of other work calls off only what it names: the report closes
/// the speaker's promise, the call-off nothing of it.
#[tokio::test]
async fn a_yes_after_a_request_answered_takes_nothing_and_a_call_off_beside_a_report_keeps_apart() {
    let now = after(&[
        (1, "Игорь, отправь клиентке эскиз", None),
        (3, "отправила ей в вотсап", Some(1)),
        (1, "Договор подписал. Игорь, КП отбой", None),
        (3, "ок, поняла", None),
    ])
    .await;
    assert!(now.is_empty(), "{now:?}");

    let now = after(&[
        (1, "Договор с «Памятью» подпишу до среды", None),
        (
            1,
            "Договор с Памятью подписал 🤝 отсрочка 30 дней. Игорь, КП для них отбой, не нужно уже",
            None,
        ),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].3, CommitmentState::Done, "{now:?}");
}

/// "clocks done when I opened up" in reply to a colleague's promise: the one who did it tells
/// it done, naming the work. A reply naming other work closes nothing.
#[tokio::test]
async fn a_colleague_telling_in_reply_that_the_work_is_done_closes_it() {
    let now = after(&[
        (2, "I'll change the clocks when we're back on tues", None),
        (3, "clocks done when I opened up 😄", Some(1)),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].3, CommitmentState::Done, "{now:?}");

    let now = after(&[
        (2, "I'll change the clocks when we're back on tues", None),
        (3, "invoices done this morning", Some(1)),
    ])
    .await;
    assert_eq!(now[0].3, CommitmentState::Open, "{now:?}");
}

/// The speaker's present after a day to come is the plan for that day; after "сегодня" it is
/// work under way, and "жду" is no work at all.
#[tokio::test]
async fn a_present_after_a_day_to_come_is_a_plan_for_that_day() {
    let now = after(&[(3, "завтра везу документы в налоговую", None)]).await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].2.as_deref(), Some("2026-11-24"), "{now:?}");
    let now = after(&[
        (3, "сегодня молнии вшиваю", None),
        (3, "завтра жду поставку от Биомара", None),
    ])
    .await;
    assert!(now.is_empty(), "{now:?}");
}

/// Real threads (round 39): a bare verb answering a report is about what was reported, even
/// after a remark of the replier's own ("Thanks for the report, …"), unless its sentence
/// promises other work of its own; a "done" told only by a commit or a link closes the
/// speaker's promise of that verb.
#[tokio::test]
async fn a_bare_verb_answering_a_report_takes_its_words_and_a_commit_closes_the_promise() {
    let now = after(&[
        (
            1,
            "Экспорт падает, если в файле нет строки заголовков",
            None,
        ),
        (2, "Спасибо за репорт, посмотрю на выходных", Some(1)),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert!(now[0].1.contains("заголовк"), "{now:?}");
    assert!(!now[0].1.contains("репорт"), "{now:?}");

    // With no date: a remark and a bare verb answer the report too.
    for reply in ["Хорошая идея, добавим", "Баг, поправлю"] {
        let now = after(&[
            (1, "Надо добавить выгрузку отчёта в CSV", None),
            (2, reply, Some(1)),
        ])
        .await;
        assert_eq!(now.len(), 1, "{reply}: {now:?}");
        assert!(now[0].1.contains("CSV"), "{reply}: {now:?}");
    }

    let now = after(&[
        (
            1,
            "Хлебозавод жалуется, клапана кривые в партии от 25го",
            None,
        ),
        (
            2,
            "видел. поправим, в среду после ППР фальцовку перенастроим",
            Some(1),
        ),
    ])
    .await;
    assert!(now.iter().any(|c| c.1.contains("фальцовк")), "{now:?}");

    for done in [
        "Fixed in 3f2a9c1.",
        "Поправил: https://github.com/acme/app/pull/12",
    ] {
        let verb = if done.starts_with("Fixed") {
            "I will fix the header bug by Friday"
        } else {
            "поправлю заголовки до пятницы"
        };
        let now = after(&[(2, verb, None), (2, done, None)]).await;
        assert_eq!(now.len(), 1, "{now:?}");
        assert_eq!(now[0].3, CommitmentState::Done, "{done}: {now:?}");
    }
}

/// An offer with its own date answering "when can you…?" takes the ask on; one answering a
/// question of when that asks no work ("когда удобно созвониться?") takes nothing on. A promise whose verb is also a word of moving ("bump the MSRV") is work when the
/// message has no date to move anything to.
#[tokio::test]
async fn an_offer_with_a_date_answers_when_and_a_move_word_without_a_date_is_work() {
    let now = after(&[
        (1, "Игорь, когда сможешь сдать отчёт по кассе?", None),
        (3, "Могу к пятнице", Some(1)),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].0, 3);
    assert!(now[0].1.contains("отчёт"), "{now:?}");
    assert_eq!(now[0].2.as_deref(), Some("2026-11-27"), "{now:?}");

    let now = after(&[
        (1, "Игорь, когда удобно созвониться?", None),
        (3, "Могу завтра", Some(1)),
    ])
    .await;
    assert!(now.is_empty(), "{now:?}");

    let now = after(&[(
        2,
        "I'll put out a new minor version release and bump the MSRV.",
        None,
    )])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert!(now[0].1.contains("release"), "{now:?}");
}

/// A thing received from someone closes their promise of it; the thing posted under its own
/// heading by the one who promised it closes it too.
#[tokio::test]
async fn a_thing_received_from_its_owner_or_posted_under_its_name_is_done() {
    let now = after(&[
        (1, "Игорь, подготовь договор с Альфой до пятницы", None),
        (3, "хорошо", Some(1)),
        (1, "получила от Игоря договор, спасибо", None),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].3, CommitmentState::Done, "{now:?}");

    let now = after(&[
        (3, "остатки на складе скину сегодня", None),
        (
            3,
            "Остатки на складе:\nпеллеты 6мм — 40 т\nмешки — 2000 шт",
            None,
        ),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].3, CommitmentState::Done, "{now:?}");
}

/// A report closes the promise whose making named its thing, when the promise's own words name
/// none ("гляну чё там" after "на ризографе опять полосит"); an errand with no object reports
/// done too ("Малышеву дозвонился"), and a place whose name ends like a verb names the thing
/// ("Тольятти отгрузил"). A promise that names a thing of its own is not closed by what the
/// rest of its message named.
#[tokio::test]
async fn a_report_names_what_the_promise_was_made_about() {
    let now = after(&[
        (
            3,
            "на ризографе опять полосит, после обеда гляну чё там",
            None,
        ),
        (3, "ризограф победил, вал почистил и норм печатает", None),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].3, CommitmentState::Done, "{now:?}");

    let now = after(&[
        (3, "С Малышевым сам созвонюсь завтра по оплате", None),
        (3, "Малышеву дозвонился, говорит оплатит в пятницу", None),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].3, CommitmentState::Done, "{now:?}");

    let now = after(&[
        (
            1,
            "Игорь, на завтра рейс в Тольятти, 12 паллет. возьмёшь?",
            None,
        ),
        (3, "да, возьму", Some(1)),
        (3, "Тольятти отгрузил, документы подписаны", None),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].3, CommitmentState::Done, "{now:?}");

    let now = after(&[
        (
            3,
            "лампы в коридоре поменяю завтра, щас некогда — бассейн",
            None,
        ),
        (3, "бассейн запустили, вода 24", None),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].3, CommitmentState::Open, "{now:?}");
}

/// A report of part with a new date moves the open promise of the same thing, whatever case
/// the month is named in ("за март" / "по марту"); a bare "also" before an ask still asks.
#[tokio::test]
async fn progress_with_a_new_date_moves_and_also_asks() {
    let now = after(&[
        (3, "отчёт по заявкам за март сделаю к пятнице", None),
        (
            3,
            "отчёт по марту на 80%, досдам в понедельник с утра",
            None,
        ),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].2.as_deref(), Some("2026-11-30"), "{now:?}");

    let now = after(&[
        (3, "Sir they are asking for revised rates", None),
        (
            1,
            "also get a copy of their fire NOC, parents keep asking",
            Some(1),
        ),
        (3, "Yes sir", Some(2)),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].0, 3, "{now:?}");
    assert!(now[0].1.contains("NOC"), "{now:?}");
}

/// A colleague's report naming one promise of someone else's by two words or more, with that
/// promise's own verb or a word of work finished, closes it; their own errand named by the same
/// words does not. "Светлая всё" after a plan item of Светлая closes it.
#[tokio::test]
async fn a_colleague_reports_anothers_promise_done_by_its_words() {
    let now = after(&[
        (
            1,
            "Игорь, invoice for Shoprite Ring Road, pls send it to them by Tuesday",
            None,
        ),
        (3, "Noted", Some(1)),
        (2, "Shoprite invoice sent to their AP email", None),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].3, CommitmentState::Done, "{now:?}");

    let now = after(&[
        (
            1,
            "Игорь, can you slash the mid-rows on Block 2 before we bring the harvester in?",
            None,
        ),
        (3, "👍", Some(1)),
        (2, "harvester's booked for Block 2 Monday 6am", None),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].3, CommitmentState::Open, "{now:?}");

    let now = after(&[
        (
            3,
            "сегодня:\n1) Светлую 12 отработаем до обеда\n2) пианино на Ленина вынесем",
            None,
        ),
        (3, "Светлая всё, без боя", None),
    ])
    .await;
    assert_eq!(now.len(), 2, "{now:?}");
    assert_eq!(
        now.iter().filter(|c| c.3 == CommitmentState::Done).count(),
        1,
        "{now:?}"
    );
}

/// Told to the group, not in reply: "к Прониным не поеду, они сами заедут" calls off the
/// speaker's promise it names, while "без протоколов акты не закрою" (a condition) does not;
/// "деньги на счёте" closes the promise to get that money, whoever tells it; "по трубам: …"
/// after "отпишусь по остаткам труб" is the telling promised, where talk of the same things
/// ("heads up snow removal on st-denis") is not.
#[tokio::test]
async fn a_promise_ends_when_the_group_is_told_how_it_ended() {
    let now = after(&[
        (3, "договор Прониным завтра сама завезу после обеда", None),
        (
            3,
            "к Прониным не поеду, они сами вечером в офис заедут подписать",
            None,
        ),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].3, CommitmentState::Cancelled, "{now:?}");

    let now = after(&[
        (3, "акты по мегафону до среды закрою", None),
        (
            3,
            "Айсен, протоколы жду, без них акты мегафону не закрою",
            None,
        ),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].3, CommitmentState::Open, "{now:?}");

    let now = after(&[
        (3, "долг с Яшмы до пятницы выбью сама", None),
        (2, "Яшма оплатила ламбрекены, деньги на счёте 🙌", None),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].3, CommitmentState::Done, "{now:?}");

    let now = after(&[
        (3, "вечером отпишусь по остаткам труб", None),
        (
            3,
            "по трубам: 20-ки метров 15 осталось, 32-й нет вообще",
            None,
        ),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].3, CommitmentState::Done, "{now:?}");

    let now = after(&[
        (
            3,
            "I'll ask the city about towing on St-Denis during the snow removal",
            None,
        ),
        (
            3,
            "heads up snow removal on st-denis tonight, move your cars",
            None,
        ),
    ])
    .await;
    assert_eq!(now.len(), 1, "{now:?}");
    assert_eq!(now[0].3, CommitmentState::Open, "{now:?}");
}
