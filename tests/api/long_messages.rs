//! Nothing the bot decides to say is lost to Telegram's 4,096-character limit: a 20-person team's
//! week gets every daily summary and the weekly digest to the director, in parts where needed,
//! and "что я обещал?" with 60 open promises is answered in full.

use kept::domain::Lang;
use kept::render::{MESSAGE_LIMIT, visible};
use kept::replay::{Options, run_text};
use serde_json::{Value, json};

const GROUP: i64 = -1_001_234_567;
const DAYS: [&str; 5] = [
    "2026-11-23",
    "2026-11-24",
    "2026-11-25",
    "2026-11-26",
    "2026-11-27",
];
const FIRST: [&str; 20] = [
    "Анна",
    "Дмитрий",
    "Елена",
    "Павел",
    "Ольга",
    "Игорь",
    "Мария",
    "Сергей",
    "Наталья",
    "Алексей",
    "Татьяна",
    "Андрей",
    "Юлия",
    "Михаил",
    "Ирина",
    "Николай",
    "Светлана",
    "Виктор",
    "Екатерина",
    "Роман",
];
const LAST: [&str; 20] = [
    "Смирнова",
    "Кузнецов",
    "Попова",
    "Орлов",
    "Соколова",
    "Лебедев",
    "Козлова",
    "Новиков",
    "Морозова",
    "Волков",
    "Зайцева",
    "Павлов",
    "Семёнова",
    "Голубев",
    "Виноградова",
    "Богданов",
    "Воробьёва",
    "Фёдоров",
    "Михайлова",
    "Беляев",
];
const WORK: [&str; 6] = [
    "подготовлю коммерческое предложение для клиента по заказу",
    "доделаю расчёт себестоимости партии по заказу",
    "проверю чертежи и спецификацию по заказу",
    "отправлю поставщику уточнённую заявку по заказу",
    "соберу отчёт об отгрузках по заказу",
    "согласую с технологами график выпуска по заказу",
];

fn line(v: Value) -> String {
    v.to_string() + "\n"
}

/// Twenty people, each making several promises a day in the group, some done the next day; the
/// second person piles up 60 open promises and asks what they promised.
fn team_week() -> String {
    let mut s =
        line(json!({"type": "org", "name": "Завод", "timezone": "Europe/Moscow", "locale": "ru"}));
    for k in 0..20 {
        let id = k as i64 + 1;
        let mut m = json!({
            "type": "member",
            "user": {"id": id, "first_name": FIRST[k], "last_name": LAST[k], "language_code": "ru"},
            "role": if k == 0 { "director" } else { "member" },
            "position": if k == 0 { "Генеральный директор" } else { "Инженер" },
            "dm_open": true,
        });
        if k > 0 {
            m["manager"] = json!(1);
        }
        s += &line(m);
    }
    let group = json!({"id": GROUP, "type": "supergroup", "title": "Производство"});
    // (day, minute of the day, from, text), then put in time order.
    let mut said: Vec<(usize, usize, i64, String)> = Vec::new();
    let mut order = 1000;
    for d in 0..DAYS.len() {
        for person in 2..=20i64 {
            // The second person promises twelve things a day: 60 by Friday.
            let n = if person == 2 { 12 } else { 3 };
            for j in 0..n {
                order += 1;
                let minute = (10 + j % 6) * 60 + (person as usize * 2 + j) % 50;
                let work = WORK[(person as usize + j) % WORK.len()];
                said.push((d, minute, person, format!("{work} {order} до 18 декабря")));
            }
            if d > 0 && person != 2 {
                said.push((
                    d,
                    17 * 60 + person as usize,
                    person,
                    "готово, вчерашнее сделал".into(),
                ));
            }
        }
    }
    said.sort_by_key(|(d, minute, person, _)| (*d, *minute, *person));
    for (id, (d, minute, person, text)) in said.into_iter().enumerate() {
        s += &line(json!({
            "type": "message", "chat": group, "id": id + 1, "from": person,
            "date": format!("{}T{:02}:{:02}:00+03:00", DAYS[d], minute / 60, minute % 60),
            "text": text,
        }));
    }
    s += &line(json!({
        "type": "message", "chat": "dm", "id": 90_001, "from": 2,
        "date": "2026-11-27T18:30:00+03:00", "text": "что я обещал?",
    }));
    s += &line(json!({"type": "clock", "at": "2026-11-28T10:00:00+03:00"}));
    s
}

fn to_chat(transcript: &[Value], chat: i64) -> Vec<&Value> {
    transcript
        .iter()
        .filter(|m| m["chat"].as_i64() == Some(chat))
        .collect()
}

#[tokio::test]
async fn a_team_week_delivers_every_summary_and_long_answers_in_full() {
    let out = run_text(
        &team_week(),
        Options {
            tz: chrono_tz::Europe::Moscow,
            lang: Lang::Ru,
            db: None,
            llm: Default::default(),
        },
    )
    .await
    .expect("the replay delivers everything it decided to send");
    let transcript = out.json["transcript"].as_array().unwrap();
    for m in transcript {
        let text = visible(m["text"].as_str().unwrap());
        let limit = if m["kind"] == "photo" {
            1024
        } else {
            MESSAGE_LIMIT
        };
        assert!(
            text.encode_utf16().count() <= limit,
            "a part over Telegram's limit: {} characters",
            text.chars().count()
        );
    }

    // Every working day's summary reached the director; they were long enough to need parts.
    let director = to_chat(transcript, 1);
    let summaries: Vec<&&Value> = director
        .iter()
        .filter(|m| m["text"].as_str().unwrap().contains("Итоги дня"))
        .collect();
    assert_eq!(summaries.len(), DAYS.len(), "one summary per working day");
    let director_text: usize = director
        .iter()
        .map(|m| m["text"].as_str().unwrap().chars().count())
        .sum();
    assert!(
        director.len() > summaries.len() + 2,
        "summaries of {director_text} characters must come in several parts"
    );
    // The weekly digest: the chart and its text, whose header opens the first part.
    assert!(director.iter().any(|m| m["kind"] == "photo"));
    assert!(
        director
            .iter()
            .any(|m| m["text"].as_str().unwrap().contains("Итоги недели")),
        "the weekly digest reached the director"
    );
    // The last summary names people whose promises are at the end of the text.
    let last_day: String = director
        .iter()
        .skip_while(|m| {
            !m["text"]
                .as_str()
                .unwrap()
                .contains(&"Итоги дня, пт".to_string())
        })
        .take_while(|m| m["kind"] != "photo")
        .map(|m| visible(m["text"].as_str().unwrap()))
        .collect();
    assert!(
        last_day.contains("Беляев"),
        "the last person's part of the summary arrived"
    );

    // "что я обещал?": every one of the 60 open promises, over several messages, the first one
    // answering the question.
    let answer: Vec<&Value> = to_chat(transcript, 2)
        .into_iter()
        .filter(|m| m["at"].as_str().unwrap().starts_with("2026-11-27T18:30"))
        .collect();
    assert!(answer.len() >= 2, "60 promises do not fit one message");
    assert_eq!(answer[0]["reply_to"], json!(90_001));
    let all: String = answer
        .iter()
        .map(|m| visible(m["text"].as_str().unwrap()))
        .collect();
    let open: Vec<&Value> = out.json["commitments"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["owner"] == json!(2) && c["state"] == "open")
        .collect();
    assert_eq!(open.len(), 60, "sixty distinct promises were captured");
    for c in open {
        let text = c["text"].as_str().unwrap();
        let number: String = text.chars().filter(char::is_ascii_digit).collect();
        assert!(
            all.contains(&number),
            "the promise {text:?} is missing from the answer"
        );
    }
}
