//! Digest preferences: `/digest on|off|weekly|daily|HH` for oneself in a DM, and `/digest on|off`
//! by a director in a linked group for that group's weekly digest (team items only).

use super::{AnswerError, Answerer, Reply};
use crate::domain::{ChatId, Role};
use crate::extract::words;
use crate::store::DigestPrefs;

/// What `/digest ARG` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wish {
    Show,
    On,
    Off,
    WeeklyOnly,
    Daily,
    Hour(u32),
}

fn wish(arg: &str) -> Option<Wish> {
    let arg = arg.trim();
    if arg.is_empty() {
        return Some(Wish::Show);
    }
    // "18", "18:00", "в 18", "at 18:30" (the minutes are not kept: the summary goes at HH:00).
    let digits = arg.trim_start_matches(|c: char| c.is_alphabetic() || c.is_whitespace());
    let hour = digits.split(':').next().unwrap_or("");
    if !hour.is_empty()
        && hour.chars().all(|c| c.is_ascii_digit())
        && let Ok(h) = hour.parse::<u32>()
    {
        return (h < 24).then_some(Wish::Hour(h));
    }
    match words::command_word_in("digest-", arg)? {
        "digest-on" => Some(Wish::On),
        "digest-off" => Some(Wish::Off),
        "digest-weekly" => Some(Wish::WeeklyOnly),
        "digest-daily" => Some(Wish::Daily),
        _ => None,
    }
}

impl Answerer<'_> {
    /// `/digest …` in a DM: what the asker receives. Only directors and leads get digests; a
    /// member is told so.
    pub async fn digest_command(&self, arg: &str) -> Result<Reply, AnswerError> {
        let Some(w) = wish(arg) else {
            return Ok(Reply::text(self.s("digest-usage")));
        };
        if self.viewer.role == Role::Member {
            return Ok(Reply::text(self.s("digest-members")));
        }
        let store = &self.app.store;
        let mut p = store.digest_prefs(self.org.id, self.viewer.asker).await?;
        match w {
            Wish::Show => {}
            Wish::On => {
                p.daily = true;
                p.weekly = true;
                p.hour = None;
            }
            Wish::Off => {
                p.daily = false;
                p.weekly = false;
            }
            Wish::WeeklyOnly => {
                p.daily = false;
                p.weekly = true;
            }
            Wish::Daily => p.daily = true,
            Wish::Hour(h) => {
                p.daily = true;
                p.hour = Some(h);
            }
        }
        if w != Wish::Show {
            store
                .set_digest_prefs(self.org.id, self.viewer.asker, p)
                .await?;
        }
        let mut text = self.describe(p);
        if self.viewer.role == Role::Lead && self.viewer.reports.is_empty() {
            text.push_str("\n\n");
            text.push_str(&self.s("digest-no-reports"));
        }
        if w == Wish::Show {
            text.push_str("\n\n");
            text.push_str(&self.s("digest-usage"));
        }
        Ok(Reply::text(text))
    }

    fn describe(&self, p: DigestPrefs) -> String {
        let daily = match (p.daily, p.hour) {
            (false, _) => self.s("digest-daily-off"),
            (true, Some(h)) if h < crate::domain::MORNING_BEFORE => self.t(
                "digest-daily-at-morning",
                &[("hour", format!("{h:02}:00").into())],
            ),
            (true, Some(h)) => self.t("digest-daily-at", &[("hour", format!("{h:02}:00").into())]),
            (true, None) => self.s("digest-daily-default"),
        };
        let weekly = if p.weekly {
            self.s("digest-weekly-on")
        } else {
            self.s("digest-weekly-off")
        };
        format!("{daily}\n{weekly}")
    }

    /// `/digest on|off` in a linked group, by a director: the group's weekly digest.
    pub async fn group_digest(&self, chat: ChatId, arg: &str) -> Result<Reply, AnswerError> {
        if self.viewer.role != Role::Director {
            return Ok(Reply::text(self.s("digest-group-refused")));
        }
        let on = match wish(arg) {
            Some(Wish::On | Wish::WeeklyOnly) => true,
            Some(Wish::Off) => false,
            _ => return Ok(Reply::text(self.s("digest-group-usage"))),
        };
        self.app
            .store
            .set_group_digest(self.org.id, chat, on, self.viewer.asker, self.now)
            .await?;
        Ok(Reply::text(self.s(if on {
            "digest-group-on"
        } else {
            "digest-group-off"
        })))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn wishes() {
        assert_eq!(wish(""), Some(Wish::Show));
        assert_eq!(wish("off"), Some(Wish::Off));
        assert_eq!(wish("Выкл"), Some(Wish::Off));
        assert_eq!(wish("только неделя"), Some(Wish::WeeklyOnly));
        assert_eq!(wish("weekly"), Some(Wish::WeeklyOnly));
        assert_eq!(wish("18"), Some(Wish::Hour(18)));
        assert_eq!(wish("в 9:30"), Some(Wish::Hour(9)));
        assert_eq!(wish("at 7"), Some(Wish::Hour(7)));
        assert_eq!(wish("25"), None);
        assert_eq!(wish("банан"), None);
    }

    proptest! {
        #[test]
        fn any_argument_parses_or_not_without_panic(s in "\\PC{0,60}") {
            let _ = wish(&s);
        }
    }
}
