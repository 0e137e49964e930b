//! Tests for the date resolver: rule families, negatives, spotting, deadlines, DST.

use super::*;
use chrono::{NaiveDate, TimeZone};

fn at(tz: &str, y: i32, m: u32, d: u32, h: u32, mi: u32) -> DateTime<Tz> {
    let tz: Tz = tz.parse().expect("tz");
    tz.with_ymd_and_hms(y, m, d, h, mi, 0)
        .single()
        .expect("time")
}

/// Duckling's reference: Tuesday 2013-02-12 04:30 at UTC-2.
fn ref_now() -> DateTime<Tz> {
    at("Etc/GMT+2", 2013, 2, 12, 4, 30)
}

/// A Monday: 2026-11-23 10:05 Moscow.
fn monday() -> DateTime<Tz> {
    at("Europe/Moscow", 2026, 11, 23, 10, 5)
}

fn start(text: &str, lang: Lang) -> String {
    resolve(text, ref_now(), lang)
        .and_then(|v| v.start)
        .map(|t| t.format("%Y-%m-%d %H:%M").to_string())
        .unwrap_or_else(|| "none".into())
}

fn span(text: &str, lang: Lang) -> String {
    match resolve(text, ref_now(), lang) {
        Some(v) => format!(
            "{} .. {}",
            v.start
                .map(|t| t.format("%Y-%m-%d %H:%M").to_string())
                .unwrap_or_default(),
            v.end
                .map(|t| t.format("%Y-%m-%d %H:%M").to_string())
                .unwrap_or_default()
        ),
        None => "none".into(),
    }
}

fn due(text: &str) -> Option<String> {
    let lang = Lang::detect(text);
    deadline(text, monday(), lang).map(|(_, d)| match d.time {
        Some(t) => format!("{} {}", d.date, t.format("%H:%M")),
        None => d.date.to_string(),
    })
}

fn d(s: &str) -> Option<String> {
    Some(s.to_string())
}

#[test]
fn relative_days_resolve_in_both_languages() {
    assert_eq!(start("сегодня", Lang::Ru), "2013-02-12 00:00");
    assert_eq!(start("завтра", Lang::Ru), "2013-02-13 00:00");
    assert_eq!(start("послезавтра", Lang::Ru), "2013-02-14 00:00");
    assert_eq!(start("вчера", Lang::Ru), "2013-02-11 00:00");
    assert_eq!(start("позавчера", Lang::Ru), "2013-02-10 00:00");
    assert_eq!(
        start("the day after tomorrow", Lang::En),
        "2013-02-14 00:00"
    );
    assert_eq!(start("yesterday", Lang::En), "2013-02-11 00:00");
}

#[test]
fn weekdays_in_every_case_and_with_prepositions() {
    for t in [
        "пятница",
        "в пятницу",
        "до пятницы",
        "к пятнице",
        "в пт",
        "on Friday",
        "by fri",
    ] {
        assert_eq!(start(t, Lang::detect(t)), "2013-02-15 00:00", "{t}");
    }
    assert_eq!(start("следующий вторник", Lang::Ru), "2013-02-19 00:00");
    assert_eq!(start("в прошлый вторник", Lang::Ru), "2013-02-05 00:00");
    assert_eq!(start("next Tuesday", Lang::En), "2013-02-19 00:00");
    assert_eq!(start("last Monday", Lang::En), "2013-02-04 00:00");
    assert_eq!(start("во вторник", Lang::Ru), "2013-02-19 00:00");
    assert_eq!(start("воскресенье", Lang::Ru), "2013-02-17 00:00");
}

#[test]
fn absolute_dates_in_digits_and_words() {
    for t in [
        "18 февраля",
        "18-го февраля",
        "восемнадцатое февраля",
        "Feb 18th",
        "2/18",
    ] {
        assert_eq!(start(t, Lang::detect(t)), "2013-02-18 00:00", "{t}");
    }
    assert_eq!(start("15.02", Lang::Ru), "2013-02-15 00:00");
    assert_eq!(start("15.2", Lang::Ru), "2013-02-15 00:00");
    assert_eq!(start("31.10.74", Lang::Ru), "1974-10-31 00:00");
    assert_eq!(start("10.12.", Lang::Ru), "2013-12-10 00:00");
    assert_eq!(start("18 Feb 2014", Lang::En), "2014-02-18 00:00");
    assert_eq!(start("10/31/1974", Lang::En), "1974-10-31 00:00");
    assert_eq!(start("March 3rd 2015", Lang::En), "2015-03-03 00:00");
    assert_eq!(
        start("двадцать четвёртое февраля", Lang::Ru),
        "2013-02-24 00:00"
    );
}

#[test]
fn numerals_in_words_drive_offsets() {
    assert_eq!(start("через два часа", Lang::Ru), "2013-02-12 06:30");
    assert_eq!(start("через полтора часа", Lang::Ru), "2013-02-12 06:00");
    assert_eq!(start("in twenty minutes", Lang::En), "2013-02-12 04:50");
    assert_eq!(start("three weeks ago", Lang::En), "2013-01-22 04:30");
    assert_eq!(start("через 15 минут", Lang::Ru), "2013-02-12 04:45");
    assert_eq!(start("через неделю", Lang::Ru), "2013-02-19 04:30");
    assert_eq!(start("in 2 weeks", Lang::En), "2013-02-26 04:30");
    assert_eq!(start("7 дней назад", Lang::Ru), "2013-02-05 04:30");
    assert_eq!(start("two days ago", Lang::En), "2013-02-10 04:30");
}

#[test]
fn clock_times_and_parts_of_day() {
    assert_eq!(start("в 3", Lang::Ru), "2013-02-12 15:00");
    assert_eq!(start("в 15ч", Lang::Ru), "2013-02-12 15:00");
    assert_eq!(start("17ч10", Lang::Ru), "2013-02-12 17:10");
    assert_eq!(start("в полдень", Lang::Ru), "2013-02-12 12:00");
    assert_eq!(start("в полночь", Lang::Ru), "2013-02-13 00:00");
    assert_eq!(
        span("сегодня вечером", Lang::Ru),
        "2013-02-12 18:00 .. 2013-02-13 00:00"
    );
    assert_eq!(
        span("завтра в обед", Lang::Ru),
        "2013-02-13 12:00 .. 2013-02-13 14:00"
    );
    assert_eq!(start("at 5pm", Lang::En), "2013-02-12 17:00");
    assert_eq!(start("noon", Lang::En), "2013-02-12 12:00");
    assert_eq!(
        span("tonight", Lang::En),
        "2013-02-12 18:00 .. 2013-02-13 00:00"
    );
    assert_eq!(
        span("this morning", Lang::En),
        "2013-02-12 00:00 .. 2013-02-12 12:00"
    );
    assert_eq!(start("сегодня в 8 вечера", Lang::Ru), "2013-02-12 20:00");
}

#[test]
fn periods_resolve_to_calendar_units() {
    assert_eq!(
        span("эта неделя", Lang::Ru),
        "2013-02-11 00:00 .. 2013-02-18 00:00"
    );
    assert_eq!(start("на следующей неделе", Lang::Ru), "2013-02-18 00:00");
    assert_eq!(start("в следующем месяце", Lang::Ru), "2013-03-01 00:00");
    assert_eq!(start("этот квартал", Lang::Ru), "2013-01-01 00:00");
    assert_eq!(start("next year", Lang::En), "2014-01-01 00:00");
}

#[test]
fn ranges_and_next_n_units() {
    assert_eq!(
        span("с 13 по 15 июля", Lang::Ru),
        "2013-07-13 00:00 .. 2013-07-16 00:00"
    );
    assert_eq!(
        span("9:30 - 11:00", Lang::Ru),
        "2013-02-12 09:30 .. 2013-02-12 11:01"
    );
    assert_eq!(
        span("14./15.10.", Lang::Ru),
        "2013-10-14 00:00 .. 2013-10-16 00:00"
    );
    // A year said once at the end belongs to both sides.
    assert_eq!(
        span("From March to June 2021", Lang::En),
        "2021-03-01 00:00 .. 2021-07-01 00:00"
    );
    assert_eq!(
        span("с 28 декабря по 3 января 2021", Lang::Ru),
        "2020-12-28 00:00 .. 2021-01-04 00:00"
    );
    assert_eq!(
        span("next 3 days", Lang::En),
        "2013-02-13 00:00 .. 2013-02-16 00:00"
    );
    assert_eq!(
        span("последние 2 недели", Lang::Ru),
        "2013-01-28 00:00 .. 2013-02-11 00:00"
    );
}

#[test]
fn open_intervals_have_an_end_or_a_start() {
    assert_eq!(
        span("до 2 часов дня", Lang::Ru),
        "2013-02-12 04:30 .. 2013-02-12 14:00"
    );
    assert_eq!(
        span("до конца дня", Lang::Ru),
        "2013-02-12 04:30 .. 2013-02-13 00:00"
    );
    assert_eq!(
        span("до конца месяца", Lang::Ru),
        "2013-02-12 04:30 .. 2013-03-01 00:00"
    );
    assert_eq!(
        span("by EOD", Lang::En),
        "2013-02-12 04:30 .. 2013-02-13 00:00"
    );
    assert_eq!(
        span("by EOM", Lang::En),
        "2013-02-12 04:30 .. 2013-03-01 00:00"
    );
    assert_eq!(
        span("before 11am", Lang::En),
        "2013-02-12 04:30 .. 2013-02-12 11:00"
    );
    assert_eq!(
        span("until 2:00pm", Lang::En),
        "2013-02-12 04:30 .. 2013-02-12 14:00"
    );
    let after = resolve("after 2pm", ref_now(), Lang::En).expect("after");
    assert_eq!(after.kind, Kind::After);
    assert_eq!(
        after.start.map(|t| t.to_string()),
        Some("2013-02-12 14:00:00".into())
    );
}

#[test]
fn zones_in_text_convert_to_the_reference_zone() {
    assert_eq!(start("16:00 CET", Lang::En), "2013-02-12 13:00");
    assert_eq!(start("четверг 8:00 GMT", Lang::Ru), "2013-02-14 06:00");
}

#[test]
fn negatives_never_become_dates() {
    for t in [
        "1 отель",
        "25",
        "3 30",
        "2.4",
        "v3.1",
        "JIRA-1024",
        "PR #57",
        "$2000",
        "5000₽",
        "at dozens",
        "650-650-6500",
        "at 650.650.6500",
        "2 бага",
        "следующие 5",
        "",
        "🙂🙂",
        "version 1.2.3",
    ] {
        assert_eq!(resolve(t, ref_now(), Lang::detect(t)), None, "{t}");
        assert!(find(t, ref_now(), Lang::detect(t)).is_empty(), "{t}");
    }
}

#[test]
fn find_spots_expressions_inside_messages() {
    let now = monday();
    let text = "доделаю auth до пятницы, если успею";
    let f = find(text, now, Lang::Ru);
    assert_eq!(f.len(), 1);
    assert_eq!(&text[f[0].span.clone()], "до пятницы");
    let text = "I'll send the deck by Thursday noon";
    let f = find(text, now, Lang::En);
    assert_eq!(f.len(), 1);
    assert_eq!(&text[f[0].span.clone()], "by Thursday noon");
    let text = "залью хотфикс до EOD";
    let f = find(text, now, Lang::Ru);
    assert_eq!(f.len(), 1);
    assert_eq!(&text[f[0].span.clone()], "до EOD");
    let text = "созвон завтра в 15:00, а релиз в пятницу";
    let f = find(text, now, Lang::Ru);
    let spans: Vec<&str> = f.iter().map(|x| &text[x.span.clone()]).collect();
    assert_eq!(spans, ["завтра в 15:00", "в пятницу"]);
    let text = "нашёл 2 бага в v3.1, PR #57 и JIRA-1024, бюджет $2000";
    assert!(
        find(text, now, Lang::Ru).is_empty(),
        "{:?}",
        find(text, now, Lang::Ru)
    );
    assert!(find("просто текст без дат", now, Lang::Ru).is_empty());
    for t in [
        "потратил 3 часа на ревью",
        "стало в 2 раза быстрее",
        "сервер 192.168.1.1 лежит",
        "звоните +7 999 123-45-67",
        "обновил до 2.4.1",
        "worked 3 hours on it",
    ] {
        assert!(
            find(t, now, Lang::detect(t)).is_empty(),
            "{t}: {:?}",
            find(t, now, Lang::detect(t))
        );
    }
    let t = "в 3 часа созвон";
    assert_eq!(find(t, now, Lang::Ru).len(), 1);
}

#[test]
fn deadline_readings_against_a_monday() {
    assert_eq!(due("доделаю до пятницы"), d("2026-11-27"));
    assert_eq!(due("к пятнице сделаю"), d("2026-11-27"));
    assert_eq!(due("I'll do it by Friday"), d("2026-11-27"));
    assert_eq!(due("сделаю в пятницу"), d("2026-11-27"));
    assert_eq!(due("в понедельник"), d("2026-11-30"));
    assert_eq!(due("в понедельник в 15:00"), d("2026-11-23 15:00"));
    assert_eq!(due("завтра"), d("2026-11-24"));
    assert_eq!(due("послезавтра"), d("2026-11-25"));
    assert_eq!(due("через 3 дня"), d("2026-11-26"));
    assert_eq!(due("на этой неделе"), d("2026-11-27"));
    assert_eq!(due("на следующей неделе"), d("2026-12-04"));
    assert_eq!(due("next week"), d("2026-12-04"));
    assert_eq!(due("в следующий вторник"), d("2026-12-01"));
    assert_eq!(due("next Tuesday"), d("2026-12-01"));
    assert_eq!(due("до конца месяца"), d("2026-11-30"));
    assert_eq!(due("by EOM"), d("2026-11-30"));
    assert_eq!(due("до конца недели"), d("2026-11-27"));
    assert_eq!(due("by end of week"), d("2026-11-27"));
    assert_eq!(due("сегодня"), d("2026-11-23"));
    assert_eq!(due("до вечера"), d("2026-11-23"));
    assert_eq!(due("by EOD"), d("2026-11-23"));
    assert_eq!(due("tonight"), d("2026-11-23"));
    assert_eq!(due("18 февраля"), d("2027-02-18"));
    assert_eq!(due("15.02"), d("2027-02-15"));
    assert_eq!(due("к 3 марта"), d("2027-03-03"));
    assert_eq!(due("к 20-му"), d("2026-12-20"));
    assert_eq!(due("к 25-му"), d("2026-11-25"));
    assert_eq!(due("18 ноября"), None);
    assert_eq!(due("завтра до обеда"), d("2026-11-24"));
    assert_eq!(due("к 15:00"), d("2026-11-23 15:00"));
    assert_eq!(due("by Tuesday noon"), d("2026-11-24 12:00"));
    assert_eq!(due("до 2 часов дня"), d("2026-11-23 14:00"));
    assert_eq!(due("вчера"), None);
    assert_eq!(due("ничего тут нет"), None);
}

#[test]
fn a_date_in_a_clause_of_why_is_not_the_deadline() {
    assert_eq!(
        due(
            "I'll have the VAT return done end of next week so you can look it over before it's due on the 7th"
        ),
        d("2026-12-04")
    );
    assert_eq!(
        due("смету сделаю к среде, чтобы до пятницы успели согласовать"),
        d("2026-11-25")
    );
    // "so" going on to the speaker's own plan is no clause of why
    assert_eq!(
        due("they asked about the Hiaces next month so I'll get GG to quote on those by monday"),
        d("2026-11-30")
    );
    // the clause of why ends: a date after it counts again
    assert_eq!(
        due(
            "хотят 55 и чтобы половина красный бархат и ещё спрашивают про надпись короче счёт им до завтра пришлю"
        ),
        d("2026-11-24")
    );
}

#[test]
fn deadline_prefers_the_expression_after_a_deadline_word() {
    let text = "вчера обсудили, сделаю до пятницы";
    let (span, due) = deadline(text, monday(), Lang::Ru).expect("deadline");
    assert_eq!(&text[span], "до пятницы");
    assert_eq!(
        due.date,
        NaiveDate::from_ymd_opt(2026, 11, 27).expect("date")
    );
    let text = "в среду созвон, а отчёт пришлю к пятнице";
    let (span, _) = deadline(text, monday(), Lang::Ru).expect("deadline");
    assert_eq!(&text[span], "к пятнице");
}

#[test]
fn dst_gap_moves_forward_and_overlap_takes_earlier_offset() {
    // London springs forward at 01:00 on 2026-03-29: 01:30 does not exist
    let now = at("Europe/London", 2026, 3, 28, 12, 0);
    let v = resolve("завтра в 01:30", now, Lang::Ru).expect("value");
    assert_eq!(
        v.start.map(|t| t.to_string()),
        Some("2026-03-29 02:30:00".into())
    );
    // "через 2 часа" across the gap: 00:30 GMT + 2h = 03:30 BST
    let now = at("Europe/London", 2026, 3, 29, 0, 30);
    let v = resolve("через 2 часа", now, Lang::Ru).expect("value");
    assert_eq!(
        v.start.map(|t| t.to_string()),
        Some("2026-03-29 03:30:00".into())
    );
    // Los Angeles falls back at 02:00 on 2026-11-01: 01:30 happens twice
    let tz: Tz = "America/Los_Angeles".parse().expect("tz");
    let t = NaiveDate::from_ymd_opt(2026, 11, 1)
        .and_then(|d| d.and_hms_opt(1, 30, 0))
        .expect("time");
    let inst = to_instant(tz, t).expect("instant");
    assert_eq!(inst.offset().fix().local_minus_utc(), -7 * 3600);
    // an hour after 00:30 PDT is the first 01:30; two hours after is 01:30 PST
    let now = tz
        .with_ymd_and_hms(2026, 11, 1, 0, 30, 0)
        .single()
        .expect("now");
    let v = resolve("in 2 hours", now, Lang::En).expect("value");
    assert_eq!(
        v.start.map(|t| t.to_string()),
        Some("2026-11-01 01:30:00".into())
    );
}

#[test]
fn arbitrary_input_never_panics() {
    let now = ref_now();
    for t in [
        "",
        " ",
        "ё",
        "🙂 в 🙂",
        "99:99",
        "31.02.2013",
        "в 25",
        "до",
        "through",
        "1/0h",
        "in 1/0 h",
        "99999999999999999999 дней назад",
        "через 999999999 лет",
        "с по",
        "- - -",
        "\u{200b}",
        "12:",
        ":30",
        "2015-13-45",
        "0/0/0",
        "the",
        "next",
        "at",
        "последние",
    ] {
        let _ = resolve(t, now, Lang::Ru);
        let _ = resolve(t, now, Lang::En);
        let _ = find(t, now, Lang::Ru);
        let _ = deadline(t, now, Lang::En);
    }
}

/// Friday 2026-11-27 15:00 Moscow.
fn friday() -> DateTime<Tz> {
    at("Europe/Moscow", 2026, 11, 27, 15, 0)
}

/// Sunday 2026-11-29 12:00 Moscow.
fn sunday() -> DateTime<Tz> {
    at("Europe/Moscow", 2026, 11, 29, 12, 0)
}

fn due_at(text: &str, now: DateTime<Tz>) -> Option<String> {
    deadline(text, now, Lang::detect(text)).map(|(_, d)| match d.time {
        Some(t) => format!("{} {}", d.date, t.format("%H:%M")),
        None => d.date.to_string(),
    })
}

fn spans(text: &str, now: DateTime<Tz>) -> Vec<&str> {
    find(text, now, Lang::detect(text))
        .into_iter()
        .map(|f| &text[f.span])
        .collect()
}

#[test]
fn bare_eod_eow_eom_cob_in_a_sentence_are_deadlines() {
    let now = friday();
    for t in [
        "will ship the fix EOD",
        "need it eod",
        "залью хотфикс EOD",
        "COB",
    ] {
        assert_eq!(spans(t, now).len(), 1, "{t}");
        assert_eq!(due_at(t, now), d("2026-11-27"), "{t}");
    }
    assert_eq!(spans("will ship the fix EOD", now), ["EOD"]);
    assert_eq!(due_at("will do it EOW", monday()), d("2026-11-27"));
    assert_eq!(due_at("by EOW", monday()), d("2026-11-27"));
    assert_eq!(due_at("send it EOM", monday()), d("2026-11-30"));
    // on the weekend the working week is over: the coming Friday
    assert_eq!(due_at("by EOW", sunday()), d("2026-12-04"));
    assert_eq!(
        due_at("I'll finish it by tomorrow EOD", now),
        d("2026-11-28")
    );
    assert_eq!(
        spans("I'll finish it by tomorrow EOD", now),
        ["by tomorrow EOD"]
    );
    assert_eq!(due_at("tomorrow EOD", now), d("2026-11-28"));
    assert_eq!(due_at("EOD Friday", monday()), d("2026-11-27"));
}

#[test]
fn ordinal_word_without_a_month_is_not_a_date_in_running_text() {
    let now = friday();
    assert!(spans("the cyan's off on the first batch", now).is_empty());
    assert!(spans("blocked by the first issue", now).is_empty());
    assert!(spans("к первому клиенту", now).is_empty());
    assert_eq!(due_at("on the 1st", now), d("2026-12-01"));
    assert_eq!(due_at("by the 15th", now), d("2026-12-15"));
    assert_eq!(due_at("к 20-му", now), d("2026-12-20"));
    // A masculine "-й" names a floor or an item, not a day, unless a month or "к" says so.
    assert_eq!(due_at("4-й добью в понедельник", now), d("2026-11-30"));
    assert!(spans("4-й этаж проверила", now).is_empty());
    assert_eq!(due_at("к 4-му", now), d("2026-12-04"));
    assert_eq!(due_at("by the first of march", now), d("2027-03-01"));
    assert_eq!(due_at("by the first of the month", now), d("2026-12-01"));
    assert_eq!(due_at("к 5 числу", now), d("2026-12-05"));
    assert_eq!(due_at("до первого числа", now), d("2026-12-01"));
    // An English ordinal in digits before a noun counts coats and batches.
    assert_eq!(
        due_at("2nd coat came up mint. I'll load them tmrw morning", now),
        d("2026-11-28")
    );
    assert_eq!(
        due_at("the 3rd batch is out, next one by the 15th", now),
        d("2026-12-15")
    );
    assert_eq!(due_at("by the 2nd", now), d("2026-12-02"));
    assert_eq!(
        due_at(
            "I'll send the report on the 15th once the comments are in",
            now
        ),
        d("2026-12-15")
    );
}

#[test]
fn new_year_as_the_first_half_of_a_compound_is_a_thing() {
    let now = friday();
    assert_eq!(
        due_at("в пн рассылку про НГ-пакет сделаю", now),
        d("2026-11-30")
    );
    assert!(spans("пост про НГ-пакет", now).is_empty());
    assert_eq!(due_at("до НГ", now), d("2026-12-31"));
}

#[test]
fn a_month_the_work_is_about_is_not_a_deadline() {
    let now = friday();
    let t = "закрою банковские выписки за ноябрь завтра";
    assert_eq!(due_at(t, now), d("2026-11-28"));
    assert_eq!(spans(t, now), ["ноябрь", "завтра"]);
    assert_eq!(
        due_at("I'll send the october statements tomorrow", now),
        d("2026-11-28")
    );
    assert_eq!(
        due_at("reports for October by Friday", now),
        d("2026-12-04")
    );
    assert_eq!(due_at("выписки за ноябрь закрыла, готово", now), None);
    // the topic month is the nearest one: October said in November is the past October
    let f = find("the october statements", now, Lang::En);
    assert_eq!(
        f[0].value.start.map(|t| t.date().to_string()),
        Some("2026-10-01".into())
    );
    // with a preposition of time a month still is a deadline
    assert_eq!(due_at("сделаю в декабре", now), d("2026-12-31"));
    assert_eq!(due_at("in December", now), d("2026-12-31"));
}

#[test]
fn a_day_with_a_deadline_time_keeps_the_time() {
    let now = monday();
    assert_eq!(due_at("Сегодня до 18:00", now), d("2026-11-23 18:00"));
    assert_eq!(
        due_at("Сегодня до 18:00 скину отчёт", now),
        d("2026-11-23 18:00")
    );
    assert_eq!(due_at("в 15:00 созвон", now), d("2026-11-23 15:00"));
    assert_eq!(due_at("завтра к 10 утра", now), d("2026-11-24 10:00"));
    assert_eq!(spans("завтра к 10 утра пришлю", now), ["завтра к 10 утра"]);
    assert_eq!(due_at("tomorrow by 3pm", now), d("2026-11-24 15:00"));
    assert_eq!(due_at("by Tuesday noon", now), d("2026-11-24 12:00"));
    assert_eq!(due_at("Friday before noon", now), d("2026-11-27 12:00"));
    assert!(spans("стало в 2 раза быстрее", now).is_empty());
}

#[test]
fn start_middle_and_end_of_a_period_have_deadline_readings() {
    let now = monday();
    assert_eq!(due_at("в конце недели", now), d("2026-11-27"));
    assert_eq!(due_at("в середине недели", now), d("2026-11-25"));
    assert_eq!(due_at("в конце месяца", now), d("2026-11-30"));
    assert_eq!(due_at("at the end of the month", now), d("2026-11-30"));
    assert_eq!(due_at("в начале следующей недели", now), d("2026-11-30"));
    assert_eq!(due_at("early next week", now), d("2026-11-30"));
    assert_eq!(due_at("end of next week", now), d("2026-12-04"));
    assert_eq!(due_at("в середине месяца", now), d("2026-12-20"));
    // an edge already behind us, said without "this", is the coming one
    let now = friday();
    assert_eq!(due_at("в начале месяца", now), d("2026-12-10"));
    assert_eq!(due_at("в середине недели", now), d("2026-12-02"));
    assert_eq!(due_at("в конце недели", now), d("2026-11-27"));
}

#[test]
fn deadlines_said_on_a_friday_afternoon() {
    let now = friday();
    assert_eq!(due_at("до понедельника", now), d("2026-11-30"));
    assert_eq!(due_at("к пятнице", now), d("2026-12-04"));
    assert_eq!(due_at("на следующей неделе", now), d("2026-12-04"));
    assert_eq!(due_at("next week", now), d("2026-12-04"));
    assert_eq!(due_at("завтра", now), d("2026-11-28"));
    assert_eq!(due_at("after the weekend", now), d("2026-11-30"));
    assert_eq!(due_at("после выходных", now), d("2026-11-30"));
    assert_eq!(due_at("до выходных", now), d("2026-11-27"));
}

#[test]
fn deadlines_said_on_a_sunday_belong_to_the_week_that_started_monday() {
    let now = sunday();
    assert_eq!(due_at("до понедельника", now), d("2026-11-30"));
    assert_eq!(due_at("к пятнице", now), d("2026-12-04"));
    assert_eq!(due_at("на следующей неделе", now), d("2026-12-04"));
    assert_eq!(due_at("next week", now), d("2026-12-04"));
    assert_eq!(due_at("завтра", now), d("2026-11-30"));
    assert_eq!(due_at("after the weekend", now), d("2026-11-30"));
    assert_eq!(due_at("после выходных", now), d("2026-11-30"));
    assert_eq!(due_at("до конца недели", now), d("2026-12-04"));
    assert_eq!(due_at("на выходных", now), d("2026-11-29"));
}

#[test]
fn acronyms_used_as_nouns_are_not_dates() {
    let now = monday();
    assert_eq!(due("I'll lock the BOM by wed"), d("2026-11-25"));
    assert_eq!(spans("I'll lock the BOM by wed", now), vec!["by wed"]);
    assert_eq!(spans("BOM is pushed to friday", now), vec!["friday"]);
    assert_eq!(due("the BOM is ready"), None);
    assert_eq!(due("lock the BOM"), None);
    assert_eq!(due("the EOD report is late"), None);
    assert_eq!(due("our EOM close is done"), None);
    assert_eq!(due("the boy is here"), None);
}

#[test]
fn acronyms_used_as_dates_stay_deadlines() {
    assert_eq!(due("I'll send it by BOM"), d("2026-11-30"));
    assert_eq!(due("сделаю до BOM"), d("2026-11-30"));
    assert_eq!(due("will finish by EOM"), d("2026-11-30"));
    assert_eq!(due("by the EOD"), d("2026-11-23"));
    assert_eq!(due("ship it EOD"), d("2026-11-23"));
    assert_eq!(due("send it by EOW"), d("2026-11-27"));
    assert_eq!(due("done by COB"), d("2026-11-23"));
    // a whole text is always an expression (what `kept when` resolves)
    assert_eq!(
        span("the BOM", Lang::En),
        "2013-02-01 00:00 .. 2013-02-11 00:00"
    );
}

#[test]
fn end_of_day_of_a_named_day_is_that_day() {
    assert_eq!(due("by end of day friday"), d("2026-11-27"));
    assert_eq!(due("by end of day on friday"), d("2026-11-27"));
    assert_eq!(due("end of day tomorrow"), d("2026-11-24"));
    assert_eq!(due("by EOD friday"), d("2026-11-27"));
    assert_eq!(due("до конца дня пятницы"), d("2026-11-27"));
    assert_eq!(due("к концу дня в пятницу"), d("2026-11-27"));
    assert_eq!(due("до конца дня завтра"), d("2026-11-24"));
    assert_eq!(due("до конца дня"), d("2026-11-23"));
    assert_eq!(due("до конца дня 5 задач закрою"), d("2026-11-23"));
}

#[test]
fn chat_spellings_and_colloquial_times_resolve() {
    assert_eq!(due("by end of week"), d("2026-11-27"));
    assert_eq!(due("end of next week"), d("2026-12-04"));
    assert_eq!(due("first thing monday"), d("2026-11-30"));
    assert_eq!(due("first thing tmrw"), d("2026-11-24"));
    assert_eq!(due("tmrw"), d("2026-11-24"));
    assert_eq!(due("2moro"), d("2026-11-24"));
    assert_eq!(due("I'll do it 2moro"), d("2026-11-24"));
    assert_eq!(due("this arvo"), d("2026-11-23"));
    assert_eq!(due("до обеда"), d("2026-11-23"));
    assert_eq!(due("после обеда"), d("2026-11-23"));
    assert_eq!(due("к вечеру"), d("2026-11-23"));
    assert_eq!(due("до завтрашнего вечера"), d("2026-11-24"));
    assert_eq!(due("к сегодняшнему вечеру"), d("2026-11-23"));
    assert_eq!(due("на выходных"), d("2026-11-28"));
    assert_eq!(
        span("after lunch", Lang::En),
        "2013-02-12 13:00 .. 2013-02-12 17:00"
    );
}

#[test]
fn vague_spans_take_the_longer_reading() {
    assert_eq!(due("через пару дней"), d("2026-11-25"));
    assert_eq!(due("in a couple of days"), d("2026-11-25"));
    assert_eq!(due("in a day or two"), d("2026-11-25"));
    assert_eq!(due("через день-два"), d("2026-11-25"));
    assert_eq!(due("через 2-3 дня"), d("2026-11-26"));
    assert_eq!(due("in 2 or 3 days"), d("2026-11-26"));
    assert_eq!(due("через неделю-другую"), d("2026-12-07"));
    // "в ближайшие дни" is decided as the next two days
    assert_eq!(due("сделаю в ближайшие дни"), d("2026-11-25"));
    assert_eq!(due("in the coming days"), d("2026-11-25"));
    assert_eq!(due("сделаю по-быстрому"), None);
    assert_eq!(due("после праздников"), None);
    assert_eq!(due("сделаю после праздников"), None);
}

#[test]
fn new_year_and_month_start_deadlines_are_the_last_day_before() {
    assert_eq!(due("до НГ"), d("2026-12-31"));
    assert_eq!(due("до нового года"), d("2026-12-31"));
    assert_eq!(due("к новому году"), d("2026-12-31"));
    assert_eq!(due("by New Year"), d("2026-12-31"));
    assert_eq!(due("на новый год"), d("2027-01-01"));
    assert_eq!(due("до начала следующего месяца"), d("2026-11-30"));
    assert_eq!(start("new year's eve", Lang::En), "2013-12-31 00:00");
    assert_eq!(start("chinese new year", Lang::En), "none");
}

#[test]
fn a_negated_date_is_not_the_deadline() {
    assert_eq!(due("к 8-му, а не к 10-му"), d("2026-12-08"));
    assert_eq!(due("не к 10-му, а к 8-му"), d("2026-12-08"));
    assert_eq!(due("сделаю не в пятницу, а в понедельник"), d("2026-11-30"));
    assert_eq!(due("к понедельнику вместо пятницы"), d("2026-11-30"));
    assert_eq!(due("by monday instead of wednesday"), d("2026-11-30"));
    assert_eq!(due("not by friday but by monday"), d("2026-11-30"));
    assert_eq!(due("by the 8th, not the 10th"), d("2026-12-08"));
}

#[test]
fn a_greeting_is_not_a_deadline() {
    let now = chrono_tz::Europe::London
        .with_ymd_and_hms(2026, 12, 7, 8, 55, 0)
        .unwrap();
    let (_, due) = deadline("morning! I'll roast the batch tmrw morning", now, Lang::En).unwrap();
    assert_eq!(due.date.to_string(), "2026-12-08");
    let (_, due) = deadline("good morning, I'll send it tomorrow", now, Lang::En).unwrap();
    assert_eq!(due.date.to_string(), "2026-12-08");
    assert!(deadline("доброе утро, всем привет", now, Lang::Ru).is_none());
    // A real part of the day still counts.
    assert!(deadline("I'll send it this evening", now, Lang::En).is_some());
}

#[test]
fn a_farewell_names_no_deadline() {
    let now = chrono_tz::Europe::London
        .with_ymd_and_hms(2026, 12, 7, 8, 55, 0)
        .unwrap();
    assert!(deadline("I'll do that. See you tomorrow!", now, Lang::En).is_none());
    assert!(deadline("will do, have a great weekend", now, Lang::En).is_none());
    assert!(
        deadline(
            "Скину смету клиенту. Увидимся в понедельник!",
            now,
            Lang::Ru
        )
        .is_none()
    );
    assert!(deadline("ок, сделаю. хороших выходных", now, Lang::Ru).is_none());
    // The date said for the work still counts beside one.
    let (_, due) = deadline("see you tmrw, I'll bring the keys on Friday", now, Lang::En).unwrap();
    assert_eq!(due.date.to_string(), "2026-12-11");
    let (_, due) = deadline("I'll see the client on Monday", now, Lang::En).unwrap();
    assert_eq!(due.date.to_string(), "2026-12-14");
    // "до встречи" is also "before the meeting".
    let (_, due) = deadline("Подготовлю презентацию до встречи в среду", now, Lang::Ru).unwrap();
    assert_eq!(due.date.to_string(), "2026-12-09");
}

// Classes learnt from other parsers' suites (tests/data/dates/tune-*.jsonl). Reference:
// Tuesday 2013-02-12 04:30.

#[test]
fn terse_and_compound_offsets() {
    // signed, glued to the amount
    assert_eq!(start("+20 minutes", Lang::En), "2013-02-12 04:50");
    assert_eq!(start("+15мин", Lang::Ru), "2013-02-12 04:45");
    assert_eq!(start("+2 дня 3 часа", Lang::Ru), "2013-02-14 07:30");
    assert_eq!(start("-3 года", Lang::Ru), "2010-02-12 04:30");
    // a dash between two clock times is still a range, not "minus 18 hours"
    assert_eq!(
        span("15h00 GMT - 18h00 GMT", Lang::En),
        "2013-02-12 13:00 .. 2013-02-12 16:01"
    );
    // "later", "спустя", "earlier"
    assert_eq!(start("3 days later", Lang::En), "2013-02-15 04:30");
    assert_eq!(start("2 дня спустя", Lang::Ru), "2013-02-14 04:30");
    assert_eq!(start("спустя 2 часа", Lang::Ru), "2013-02-12 06:30");
    assert_eq!(start("15 minutes earlier", Lang::En), "2013-02-12 04:15");
    // abbreviations of months
    assert_eq!(start("in 2 mos", Lang::En), "2013-04-12 04:30");
    // several falling units
    assert_eq!(start("2 часа 5 минут назад", Lang::Ru), "2013-02-12 02:25");
    assert_eq!(
        start("in 1 day, 2 hours and 5 minutes", Lang::En),
        "2013-02-13 06:35"
    );
    assert_eq!(start("через 1 день 2 часа", Lang::Ru), "2013-02-13 06:30");
    // collective numerals
    assert_eq!(start("трое суток назад", Lang::Ru), "2013-02-09 04:30");
    assert_eq!(start("через двое суток", Lang::Ru), "2013-02-14 04:30");
}

#[test]
fn day_then_after_a_clock_time() {
    assert_eq!(start("tomorrow after 5pm", Lang::En), "2013-02-13 17:00");
    assert_eq!(start("завтра после 17:00", Lang::Ru), "2013-02-13 17:00");
}

#[test]
fn two_digit_years_by_a_sliding_century() {
    assert_eq!(start("Mar 3, 97", Lang::En), "1997-03-03 00:00");
    assert_eq!(start("Aug 9 96", Lang::En), "1996-08-09 00:00");
    assert_eq!(start("3 Aug 96", Lang::En), "1996-08-03 00:00");
    assert_eq!(start("авг 96", Lang::Ru), "1996-08-01 00:00");
    assert_eq!(start("3 марта 15", Lang::Ru), "2015-03-03 00:00");
}

#[test]
fn month_words_between_slashes_or_dashes() {
    assert_eq!(start("12/March/2013", Lang::En), "2013-03-12 00:00");
    assert_eq!(start("8/Oct/2012", Lang::En), "2012-10-08 00:00");
    assert_eq!(start("12-марта-2013", Lang::Ru), "2013-03-12 00:00");
    assert_eq!(start("2012/Aug/10", Lang::En), "2012-08-10 00:00");
}

#[test]
fn o_clock_in_two_words() {
    assert_eq!(
        start("tomorrow at 10 o clock", Lang::En),
        "2013-02-13 10:00"
    );
    assert_eq!(start("March 3 10 o clock", Lang::En), "2013-03-03 10:00");
}

#[test]
fn now_plus_or_minus_a_duration() {
    assert_eq!(start("now + 40minutes", Lang::En), "2013-02-12 05:10");
    assert_eq!(start("now - 2 hours", Lang::En), "2013-02-12 02:30");
    assert_eq!(start("сейчас + 1 день", Lang::Ru), "2013-02-13 04:30");
}

#[test]
fn a_season_before_a_noun_is_no_deadline() {
    // The week named later is the deadline; "spring" only says which check.
    let week = due("the spring sprinkler check, can you get to it this week?");
    assert!(week.is_some());
    assert_ne!(week, due("by spring"));
    assert_eq!(due("the summer menu is ready"), None);
    // Led by a deadline word, or alone, a season still is one.
    assert!(due("by summer").is_some());
    assert!(due("сделаем летом").is_some());
}

#[test]
fn a_case_ending_glued_to_a_number_is_part_of_it() {
    assert_eq!(due("к 15ти"), d("2026-11-23 15:00"));
    assert_eq!(due("к 15-ти"), d("2026-11-23 15:00"));
    assert_eq!(due("в 12ть"), d("2026-11-23 12:00"));
    assert_eq!(due("к 5ти"), d("2026-11-23 17:00"));
    assert_eq!(due("до 25го ноября"), due("до 25 ноября"));
    assert!(due("до 25 ноября").is_some());
    assert_eq!(due("by the 15th"), d("2026-12-15"));
}

#[test]
fn a_time_of_day_deadline_takes_the_day_said_in_its_sentence() {
    assert_eq!(
        due("Зуль, завтра сможешь 100 кг лопатки обвалить под фарш до обеда?"),
        d("2026-11-24")
    );
    assert_eq!(
        due("tomorrow can you have it done by noon?"),
        d("2026-11-24 12:00")
    );
    // Not a week ("share by 1pm" is today's), nor a day in another sentence.
    assert_eq!(
        due("Today I will finish the schedule for this week and share by 1pm"),
        d("2026-11-23 13:00")
    );
    assert_eq!(due("завтра выходной. до обеда пришлю"), d("2026-11-23"));
}

#[test]
fn a_time_of_day_already_gone_today_is_tomorrows() {
    let afternoon = |text: &str| {
        let now = chrono_tz::Europe::Moscow
            .with_ymd_and_hms(2026, 11, 23, 16, 5, 0)
            .unwrap();
        deadline(text, now, Lang::detect(text)).map(|(_, d)| d.date.to_string())
    };
    assert_eq!(afternoon("да, с утра начну"), d("2026-11-24"));
    assert_eq!(
        afternoon("I'll do the first coat in the morning"),
        d("2026-11-24")
    );
    assert_eq!(afternoon("до обеда пришлю"), d("2026-11-24"));
    // Still ahead today, or today said with it.
    assert_eq!(afternoon("к вечеру пришлю"), d("2026-11-23"));
    assert_eq!(afternoon("by EOD"), d("2026-11-23"));
    assert_eq!(afternoon("сегодня утром отправил"), d("2026-11-23"));
    // Said in the morning, the morning is today's.
    assert_eq!(due("с утра начну"), d("2026-11-23"));
}

#[test]
fn a_build_number_is_no_date_and_tonights_is_tonight() {
    assert_eq!(due("full regression run on staging build 14.2"), None);
    assert_eq!(due("обновим до версии 3.10"), None);
    assert_eq!(due("к 14.2 сделаю"), d("2027-02-14"));
    assert_eq!(
        due("I will discuss it in tonight's triage"),
        d("2026-11-23")
    );
}

/// "in the am" is the morning, "in the pm" and "this aft" the afternoon; "at 9 am" keeps its
/// meridiem, and "the aft hatch" is a boat's.
#[test]
fn the_am_and_the_pm_are_parts_of_the_day() {
    assert_eq!(
        span("in the am", Lang::En),
        span("in the morning", Lang::En)
    );
    assert_eq!(
        span("in the pm", Lang::En),
        span("in the afternoon", Lang::En)
    );
    assert_eq!(
        start("at 9 am", Lang::En),
        start("at 9 in the morning", Lang::En)
    );
    assert_eq!(span("this aft", Lang::En), span("this afternoon", Lang::En));
    assert_eq!(span("check the aft hatch", Lang::En), "none");
    // Said in the afternoon, the morning is the next one.
    let late = at("America/Phoenix", 2026, 7, 13, 16, 35);
    let next = deadline("k I'll look at the bender in the am", late, Lang::En).map(|(_, d)| d.date);
    assert_eq!(next, chrono::NaiveDate::from_ymd_opt(2026, 7, 14));
}

#[test]
fn numeric_dates_follow_the_place_and_a_day_keeps_its_afternoon() {
    let day = |text: &str, now: DateTime<Tz>| {
        deadline(text, now, Lang::En)
            .map(|(_, d)| d.date.to_string())
            .unwrap_or_else(|| "none".into())
    };
    // Perth writes the day first, New York the month; "5/6" is a date, not a version.
    let perth = at("Australia/Perth", 2026, 5, 25, 7, 45);
    let new_york = at("America/New_York", 2026, 3, 9, 8, 0);
    assert_eq!(day("I'll lodge it by 5/6", perth), "2026-06-05");
    assert_eq!(day("I'll lodge it by 5/6", new_york), "2026-05-06");
    assert_eq!(day("by 13/6", new_york), "2026-06-13");
    // "thurs after lunch" is Thursday's afternoon, not today's.
    let tuesday = at("America/New_York", 2026, 3, 10, 16, 40);
    assert_eq!(day("thurs after lunch", tuesday), "2026-03-12");
    assert_eq!(day("after lunch", tuesday), "2026-03-10");
}

#[test]
fn a_weekday_beside_a_date_it_does_not_fall_on_leaves_the_date() {
    // 2013-02-12 is a Tuesday: "Friday, 15 February" is this year's.
    assert_eq!(start("Friday, 15 February", Lang::En), "2013-02-15 00:00");
    // 1 September is a Saturday in no year before 2018: the weekday is another day said
    // beside the date, not a search for a year.
    assert_eq!(
        start("the OT pay for Saturday on 1 September", Lang::En),
        "2013-09-01 00:00"
    );
}

#[test]
fn a_day_naming_which_thing_it_is_is_no_deadline_beside_one() {
    assert_eq!(
        due("I'll sort out the overtime for the Saturday callout next week"),
        d("2026-12-04")
    );
    assert_eq!(due("I'll do the Saturday callout"), d("2026-11-28"));
}

#[test]
fn the_date_said_instead_is_the_one_meant() {
    assert_eq!(
        due("they can't take it til next week, I'll drop it over on 3/12 instead"),
        d("2026-12-03")
    );
    assert_eq!(
        due("I'll do it Thursday instead of Friday"),
        d("2026-11-26")
    );
}

#[test]
fn a_period_after_a_noun_and_its_amount_is_what_the_thing_is_for() {
    assert_eq!(
        due("завтра сделай рассылку по базе про скидку 10% на 30-е"),
        d("2026-11-24")
    );
}

#[test]
fn by_the_period_under_way_is_by_its_end() {
    // Monday 2026-11-23: "by this week" is that week's Friday, "by this month" its last day.
    assert_eq!(due("Will close the MoU by this week only"), d("2026-11-27"));
    assert_eq!(due("I'll have it done by this month"), d("2026-11-30"));
    // A period to come is still "before it starts".
    assert_eq!(due("by next week"), d("2026-11-29"));
}
