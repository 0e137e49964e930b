//! Goals: `/goal Запустить продажи в Казани до 1 марта — два дилера и склад @pavel`. Pure text
//! → a [`GoalSpec`]: the title, whose goal it is, by when, and what it means.

use chrono::DateTime;
use chrono_tz::Tz;

use super::dates::Due;
use super::{Lang, names};

/// What `/goal` says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoalSpec {
    pub title: String,
    /// `@user` named in the command; `None`: the sender's own goal.
    pub owner: Option<i64>,
    pub due: Option<Due>,
    pub description: Option<String>,
}

/// Where the description starts: a dash between spaces (the title may hold a hyphen).
const DESCRIPTION_MARKS: &[&str] = &[" — ", " – ", " -- ", " - "];

/// `/goal ARG`. `Err(who)` when an `@name` names nobody in the team.
pub fn command(
    arg: &str,
    people: &[names::Person],
    now: DateTime<Tz>,
) -> Result<Option<GoalSpec>, String> {
    // The owner's @name may stand anywhere; it is no part of the title or the description.
    let mut owner = None;
    let mut kept = Vec::new();
    for w in arg.split_whitespace() {
        if w.starts_with('@') && w.len() > 1 {
            match names::resolve(w, people)[..] {
                [one] => owner = Some(one),
                _ => return Err(w.to_string()),
            }
        } else {
            kept.push(w);
        }
    }
    let arg = kept.join(" ");
    let cut = DESCRIPTION_MARKS
        .iter()
        .filter_map(|m| arg.find(m).map(|i| (i, m.len())))
        .min();
    let (head, description) = match cut {
        Some((i, n)) => (&arg[..i], Some(arg[i + n..].trim())),
        None => (arg.as_str(), None),
    };
    let (title, due, _) = super::task::work(head, now, Lang::detect(head));
    if title.is_empty() {
        return Ok(None);
    }
    Ok(Some(GoalSpec {
        title,
        owner,
        due,
        description: description.filter(|d| !d.is_empty()).map(str::to_string),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use proptest::prelude::*;

    fn people() -> Vec<names::Person> {
        vec![names::Person {
            id: 7,
            first_name: "Павел".into(),
            last_name: Some("Орлов".into()),
            username: Some("pavel".into()),
        }]
    }

    fn now() -> DateTime<Tz> {
        chrono_tz::Europe::Moscow
            .with_ymd_and_hms(2026, 11, 30, 10, 0, 0)
            .unwrap()
    }

    #[test]
    fn title_date_owner_and_description() {
        let g = command(
            "Запустить продажи в Казани до 15 января — два дилера и склад @pavel",
            &people(),
            now(),
        )
        .unwrap()
        .unwrap();
        assert_eq!(g.title, "Запустить продажи в Казани");
        assert_eq!(g.owner, Some(7));
        assert_eq!(g.due.unwrap().date.to_string(), "2027-01-15");
        assert_eq!(g.description.as_deref(), Some("два дилера и склад"));
    }

    #[test]
    fn english_goal_without_owner() {
        let g = command("Ship the B2B-portal by Friday", &people(), now())
            .unwrap()
            .unwrap();
        assert_eq!(g.title, "Ship the B2B-portal");
        assert_eq!(g.owner, None);
        assert_eq!(g.due.unwrap().date.to_string(), "2026-12-04");
        assert_eq!(g.description, None);
    }

    #[test]
    fn unknown_owner_and_empty_title() {
        assert_eq!(
            command("@nobody запустить", &people(), now()),
            Err("@nobody".into())
        );
        assert_eq!(command("  ", &people(), now()), Ok(None));
    }

    proptest! {
        #[test]
        fn never_panics(s in "\\PC{0,200}") {
            let _ = command(&s, &people(), now());
        }
    }
}
