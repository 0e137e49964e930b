//! Domain types that parse instead of validate: ids, roles, memory kinds, confidence, slugs, due dates.

pub mod callback;
mod lang;
mod slug;
pub mod text;

use std::fmt;
use std::str::FromStr;

use chrono::{NaiveDate, NaiveTime};

pub use lang::{Lang, UnknownLang};
pub use slug::Slug;

/// A daily summary someone chose before this hour sums up the previous working day.
pub const MORNING_BEFORE: u32 = 12;

/// An org's working calendar: its timezone and the days off besides weekends. What digests and
/// the "+1 day" buttons need of the schedule, without its cron timetable.
#[derive(Debug, Clone)]
pub struct OrgCalendar {
    pub org: OrgId,
    pub tz: chrono_tz::Tz,
    pub holidays: Vec<NaiveDate>,
}

impl OrgCalendar {
    pub fn is_working_day(&self, d: NaiveDate) -> bool {
        use chrono::{Datelike, Weekday};
        !matches!(d.weekday(), Weekday::Sat | Weekday::Sun) && !self.holidays.contains(&d)
    }

    /// The last working day before `d`.
    pub fn previous_working_day(&self, d: NaiveDate) -> NaiveDate {
        self.step_working_day(d, NaiveDate::pred_opt)
    }

    /// The first working day after `d`.
    pub fn next_working_day(&self, d: NaiveDate) -> NaiveDate {
        self.step_working_day(d, NaiveDate::succ_opt)
    }

    fn step_working_day(
        &self,
        d: NaiveDate,
        step: fn(&NaiveDate) -> Option<NaiveDate>,
    ) -> NaiveDate {
        let mut n = step(&d).unwrap_or(d);
        // A month of holidays in a row is a misconfiguration, not a reason to loop forever.
        for _ in 0..30 {
            if self.is_working_day(n) {
                return n;
            }
            n = step(&n).unwrap_or(n);
        }
        n
    }
}

/// A cron expression (5 fields) that does not parse.
#[derive(Debug, thiserror::Error)]
#[error("invalid cron expression {expr:?}")]
pub struct BadCron {
    pub expr: String,
    #[source]
    pub source: croner::errors::CronError,
}

/// A job's schedule as config and org overrides write it: "30 9 * * 1-5".
pub fn parse_cron(expr: &str) -> Result<croner::Cron, BadCron> {
    croner::Cron::from_str(expr).map_err(|source| BadCron {
        expr: expr.to_string(),
        source,
    })
}

/// A cron expression (5 fields, in the org's timezone) that parsed, with the text it came from:
/// settings and org overrides hold these, so a bad one is refused where it is read.
#[derive(Debug, Clone, serde::Deserialize, serde::Serialize)]
#[serde(try_from = "String", into = "String")]
pub struct CronSpec {
    text: String,
    cron: croner::Cron,
}

impl CronSpec {
    pub fn cron(&self) -> &croner::Cron {
        &self.cron
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl FromStr for CronSpec {
    type Err = BadCron;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(CronSpec {
            text: s.to_string(),
            cron: parse_cron(s)?,
        })
    }
}

impl TryFrom<String> for CronSpec {
    type Error = BadCron;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<CronSpec> for String {
    fn from(c: CronSpec) -> String {
        c.text
    }
}

impl PartialEq for CronSpec {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for CronSpec {}

impl fmt::Display for CronSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A value that did not parse as the domain type it claims to be.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("invalid {what}: {value:?}")]
pub struct ParseError {
    pub what: &'static str,
    pub value: String,
}

impl ParseError {
    fn new(what: &'static str, value: &str) -> Self {
        ParseError {
            what,
            value: value.to_string(),
        }
    }
}

/// A person's grammatical gender, for names in the case a sentence needs: what the name says,
/// or what someone set for a name that does not say it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Gender {
    Male,
    Female,
}

impl Gender {
    pub fn code(self) -> &'static str {
        match self {
            Gender::Male => "m",
            Gender::Female => "f",
        }
    }
}

impl FromStr for Gender {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_lowercase().as_str() {
            "m" | "male" | "man" | "м" | "муж" | "мужской" | "мужчина" => {
                Ok(Gender::Male)
            }
            "f" | "female" | "woman" | "ж" | "жен" | "женский" | "женщина" => {
                Ok(Gender::Female)
            }
            _ => Err(ParseError::new("gender", s)),
        }
    }
}

macro_rules! id_type {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub i64);

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

id_type!(
    /// A Telegram user id.
    UserId
);
id_type!(
    /// A Telegram chat id (a private chat's id equals its user's id).
    ChatId
);
id_type!(
    /// An organisation kept serves.
    OrgId
);
id_type!(
    /// A row of `memories`.
    MemoryId
);
id_type!(
    /// A Telegram message id, unique within its chat.
    MessageId
);

/// Generates a string-backed enum with `as_str` and `FromStr`.
macro_rules! str_enum {
    ($(#[$m:meta])* $name:ident, $what:literal { $($variant:ident => $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name { $($variant),+ }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $s),+ }
            }
        }

        impl FromStr for $name {
            type Err = ParseError;
            fn from_str(s: &str) -> Result<Self, ParseError> {
                match s.trim().to_ascii_lowercase().as_str() {
                    $($s => Ok($name::$variant),)+
                    _ => Err(ParseError::new($what, s)),
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

str_enum!(
    /// A member's role in an org (DESIGN.md section 4).
    Role, "role" { Director => "director", Lead => "lead", Member => "member" }
);
str_enum!(
    /// What a memory is about.
    MemoryKind, "memory kind" {
        Fact => "fact", Trait => "trait", Commitment => "commitment",
        Context => "context", Preference => "preference",
    }
);
str_enum!(
    /// Who may read a memory: `team` (said in a group) or `private`.
    Visibility, "visibility" { Team => "team", Private => "private" }
);
str_enum!(
    /// Where a commitment stands.
    CommitmentState, "commitment state" { Open => "open", Done => "done", Cancelled => "cancelled" }
);
str_enum!(
    /// A knowledge-graph node type.
    NodeType, "node type" {
        Product => "product", Process => "process", Regulation => "regulation", Role => "role",
        Location => "location", Customer => "customer", Supplier => "supplier",
        Equipment => "equipment", Department => "department", Concept => "concept",
    }
);
str_enum!(
    /// How two graph nodes relate (DESIGN.md section 1).
    Relation, "relation" {
        ResponsibleFor => "responsible_for", DependsOn => "depends_on", PartOf => "part_of",
        RelatedTo => "related_to", Supplies => "supplies", Regulates => "regulates",
        LocatedAt => "located_at", Owns => "owns",
    }
);
str_enum!(
    /// A scheduled job (DESIGN.md section 5).
    JobKind, "job" {
        RemindersMorning => "reminders_morning", RemindersDayBefore => "reminders_day_before",
        Reflection => "reflection", DailySummary => "daily_summary", WeeklyDigest => "weekly_digest",
    }
);

impl MemoryKind {
    /// Half-life of relevance in days; `None`: never decays. Decay ranks, it never hides.
    pub fn half_life_days(self) -> Option<f64> {
        match self {
            MemoryKind::Fact => None,
            MemoryKind::Context => Some(30.0),
            MemoryKind::Trait | MemoryKind::Preference => Some(180.0),
            MemoryKind::Commitment => Some(60.0),
        }
    }

    /// Traits and preferences are private whatever chat they came from.
    pub fn default_visibility(self, said_in_group: bool) -> Visibility {
        match self {
            MemoryKind::Trait | MemoryKind::Preference => Visibility::Private,
            _ if said_in_group => Visibility::Team,
            _ => Visibility::Private,
        }
    }
}

/// A confidence in 0..=1.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Confidence(f64);

impl Confidence {
    /// A person's own explicit words, read by rules.
    pub const RULES: Confidence = Confidence(0.8);
    /// Confirmed by the person or set by the director.
    pub const CONFIRMED: Confidence = Confidence(1.0);
    /// A person's own explicit words, read by the model.
    pub const LLM: Confidence = Confidence(0.7);
    /// Derived by the daily reflection.
    pub const REFLECTION: Confidence = Confidence(0.6);
    /// Below this, answers hedge ("похоже", "seems").
    pub const HEDGE_BELOW: f64 = 0.7;

    pub fn new(v: f64) -> Result<Self, ParseError> {
        if (0.0..=1.0).contains(&v) {
            Ok(Confidence(v))
        } else {
            Err(ParseError::new("confidence", &v.to_string()))
        }
    }

    pub fn value(self) -> f64 {
        self.0
    }

    pub fn is_hedged(self) -> bool {
        self.0 < Self::HEDGE_BELOW
    }
}

/// Who wrote a memory: a person or one of kept's agents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Author {
    User(UserId),
    Rules,
    Llm,
    Reflection,
    Import,
}

impl fmt::Display for Author {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Author::User(id) => write!(f, "user:{id}"),
            Author::Rules => f.write_str("agent:rules"),
            Author::Llm => f.write_str("agent:llm"),
            Author::Reflection => f.write_str("agent:reflection"),
            Author::Import => f.write_str("agent:import"),
        }
    }
}

impl FromStr for Author {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        match s {
            "agent:rules" => Ok(Author::Rules),
            "agent:llm" => Ok(Author::Llm),
            "agent:reflection" => Ok(Author::Reflection),
            "agent:import" => Ok(Author::Import),
            _ => s
                .strip_prefix("user:")
                .and_then(|id| id.parse().ok())
                .map(|id| Author::User(UserId(id)))
                .ok_or_else(|| ParseError::new("author", s)),
        }
    }
}

/// A deadline as kept stores it: a calendar date, plus a time when one was said.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Due {
    pub date: NaiveDate,
    pub time: Option<NaiveTime>,
}

impl Due {
    /// The stored form: `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM` (sorts as text).
    pub fn to_db(self) -> String {
        match self.time {
            None => self.date.format("%Y-%m-%d").to_string(),
            Some(t) => format!("{}T{}", self.date.format("%Y-%m-%d"), t.format("%H:%M")),
        }
    }

    pub fn grain_str(self) -> &'static str {
        if self.time.is_some() { "minute" } else { "day" }
    }

    pub fn from_db(s: &str) -> Result<Due, ParseError> {
        let (d, t) = match s.split_once('T') {
            Some((d, t)) => (d, Some(t)),
            None => (s, None),
        };
        // `FromStr` reads ISO 8601 with a fixed list of items; `parse_from_str` would parse
        // its format string again for every row a read returns.
        let date = d
            .parse::<NaiveDate>()
            .map_err(|_| ParseError::new("due", s))?;
        let time = match t {
            Some(t) => Some(
                t.parse::<NaiveTime>()
                    .map_err(|_| ParseError::new("due", s))?,
            ),
            None => None,
        };
        Ok(Due { date, time })
    }

    pub fn day(date: NaiveDate) -> Due {
        Due { date, time: None }
    }
}

/// Lower-case, `ё` → `е`, whitespace collapsed: the dedup key of a memory's content.
pub fn normalize_content(s: &str) -> String {
    text::normalize(s)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_and_kinds_parse_from_their_names_only() {
        assert_eq!("Director".parse::<Role>(), Ok(Role::Director));
        assert!("boss".parse::<Role>().is_err());
        assert_eq!("trait".parse::<MemoryKind>(), Ok(MemoryKind::Trait));
        assert!("note".parse::<MemoryKind>().is_err());
    }

    #[test]
    fn confidence_refuses_values_outside_zero_to_one() {
        assert!(Confidence::new(1.2).is_err());
        assert!(Confidence::new(-0.1).is_err());
        assert!(Confidence::new(0.6).unwrap().is_hedged());
        assert!(!Confidence::RULES.is_hedged());
    }

    #[test]
    fn author_round_trips_through_text() {
        for a in ["user:42", "agent:rules", "agent:reflection"] {
            assert_eq!(a.parse::<Author>().unwrap().to_string(), a);
        }
        assert!("user:x".parse::<Author>().is_err());
    }

    #[test]
    fn due_round_trips_with_and_without_time() {
        let d = Due::from_db("2026-11-27").unwrap();
        assert_eq!(d.to_db(), "2026-11-27");
        let t = Due::from_db("2026-11-27T15:00").unwrap();
        assert_eq!(t.to_db(), "2026-11-27T15:00");
        assert!(Due::from_db("27.11.2026").is_err());
    }

    #[test]
    fn content_normalisation_folds_case_yo_and_spaces() {
        assert_eq!(normalize_content("  Всё  Готово "), "все готово");
    }
}
