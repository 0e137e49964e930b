//! The callback protocol of inline buttons: one typed value for every button kept shows,
//! written into Telegram's `callback_data` (at most 64 bytes) and read back from it.
//!
//! | data | button |
//! |---|---|
//! | `c:done:7`, `c:snooze:7`, `c:nap:7` | on a reminder: promise 7 done, a working day later, not a promise |
//! | `t:accept:4`, `t:decline:4`, `t:later:4`, `t:done:4` | on a task offer or reminder |
//! | `f:m:7`, `f:d:7`, `f:s:7`, `f:x:7`, `f:o:7`, `f:t:7:12` | correcting promise 7 (menu, done, later, not a promise, not mine, give it to user 12) |
//! | `g:k:3`, `g:d:3`, `g:w:3`, `g:a:3:12`, `g:b:1`, `g:p:1` | a goal's plan: keep, drop, whom, give step 3 to user 12, back to / show goal 1 |
//! | `o:yes:5`, `o:no:5` | an owner proposal heard in a group |
//! | `q:priorities`, `q:promises`, `q:overdue`, `q:idle` | the questions offered by `/start` and `/help` |
//! | `p:12` | a person picked from a list: what user 12 is working on |

use std::fmt;
use std::str::FromStr;

use super::{MemoryId, UserId};

/// A reminder's button on one promise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ButtonAction {
    Done,
    Snooze,
    NotAPromise,
}

/// A button on a task message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskButton {
    Accept,
    Decline,
    Later,
    Done,
}

/// A correction button on a promise (its id).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FixButton {
    /// Opens the menu of corrections.
    Menu(i64),
    Done(i64),
    /// A working day later.
    Later(i64),
    NotAPromise(i64),
    /// "Not mine": who then?
    NotMine(i64),
    /// Give the promise to this person.
    To(i64, UserId),
}

/// A press on a goal's buttons.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoalButton {
    /// Keep the step as a task of the goal's owner.
    Keep(i64),
    Drop(i64),
    /// Show whom the step may be given to.
    Who(i64),
    /// Give the step to this person.
    To(i64, UserId),
    /// Back from the choice of people to the plan.
    Back(i64),
    /// Show goal's plan again, as a new message (from `/goals`).
    Plan(i64),
}

/// A question a button asks on the presser's behalf.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Question {
    Priorities,
    Promises,
    Overdue,
    Idle,
}

impl Question {
    const ALL: [Question; 4] = [
        Question::Priorities,
        Question::Promises,
        Question::Overdue,
        Question::Idle,
    ];

    fn code(self) -> &'static str {
        match self {
            Question::Priorities => "priorities",
            Question::Promises => "promises",
            Question::Overdue => "overdue",
            Question::Idle => "idle",
        }
    }

    pub fn data(self) -> String {
        CallbackData::Ask(self).to_string()
    }
}

/// Every button's callback data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallbackData {
    Promise(ButtonAction, MemoryId),
    Task(TaskButton, i64),
    Fix(FixButton),
    Goal(GoalButton),
    /// The director's answer to owner proposal `id`.
    Owner {
        proposal: i64,
        yes: bool,
    },
    Ask(Question),
    /// What this person is working on.
    Person(UserId),
}

impl ButtonAction {
    const ALL: [ButtonAction; 3] = [
        ButtonAction::Done,
        ButtonAction::Snooze,
        ButtonAction::NotAPromise,
    ];

    pub fn code(self) -> &'static str {
        match self {
            ButtonAction::Done => "done",
            ButtonAction::Snooze => "snooze",
            ButtonAction::NotAPromise => "nap",
        }
    }

    pub fn from_code(s: &str) -> Option<ButtonAction> {
        Self::ALL.into_iter().find(|a| a.code() == s)
    }

    /// The callback data of this button for promise `id` (`c:done:7`).
    pub fn data(self, id: MemoryId) -> String {
        CallbackData::Promise(self, id).to_string()
    }
}

impl TaskButton {
    const ALL: [TaskButton; 4] = [
        TaskButton::Accept,
        TaskButton::Decline,
        TaskButton::Later,
        TaskButton::Done,
    ];

    pub fn code(self) -> &'static str {
        match self {
            TaskButton::Accept => "accept",
            TaskButton::Decline => "decline",
            TaskButton::Later => "later",
            TaskButton::Done => "done",
        }
    }

    pub fn from_code(s: &str) -> Option<TaskButton> {
        Self::ALL.into_iter().find(|b| b.code() == s)
    }

    /// The callback data of this button for task `id` (`t:accept:42`).
    pub fn data(self, id: i64) -> String {
        CallbackData::Task(self, id).to_string()
    }
}

impl FixButton {
    pub fn data(self) -> String {
        CallbackData::Fix(self).to_string()
    }
}

impl GoalButton {
    pub fn data(self) -> String {
        CallbackData::Goal(self).to_string()
    }
}

impl fmt::Display for CallbackData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            CallbackData::Promise(a, id) => write!(f, "c:{}:{}", a.code(), id.0),
            CallbackData::Task(b, id) => write!(f, "t:{}:{id}", b.code()),
            CallbackData::Fix(b) => match b {
                FixButton::Menu(id) => write!(f, "f:m:{id}"),
                FixButton::Done(id) => write!(f, "f:d:{id}"),
                FixButton::Later(id) => write!(f, "f:s:{id}"),
                FixButton::NotAPromise(id) => write!(f, "f:x:{id}"),
                FixButton::NotMine(id) => write!(f, "f:o:{id}"),
                FixButton::To(id, u) => write!(f, "f:t:{id}:{}", u.0),
            },
            CallbackData::Goal(b) => match b {
                GoalButton::Keep(s) => write!(f, "g:k:{s}"),
                GoalButton::Drop(s) => write!(f, "g:d:{s}"),
                GoalButton::Who(s) => write!(f, "g:w:{s}"),
                GoalButton::To(s, u) => write!(f, "g:a:{s}:{}", u.0),
                GoalButton::Back(g) => write!(f, "g:b:{g}"),
                GoalButton::Plan(g) => write!(f, "g:p:{g}"),
            },
            CallbackData::Owner { proposal, yes } => {
                write!(f, "o:{}:{proposal}", if yes { "yes" } else { "no" })
            }
            CallbackData::Ask(q) => write!(f, "q:{}", q.code()),
            CallbackData::Person(u) => write!(f, "p:{}", u.0),
        }
    }
}

/// Callback data that is none of kept's buttons (an old build's, or forged).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown button data {0:?}")]
pub struct UnknownButton(pub String);

impl FromStr for CallbackData {
    type Err = UnknownButton;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || UnknownButton(s.to_string());
        let parts: Vec<&str> = s.split(':').collect();
        let num = |i: usize| -> Result<i64, UnknownButton> {
            parts.get(i).and_then(|p| p.parse().ok()).ok_or_else(bad)
        };
        match parts.as_slice() {
            ["q", code] => {
                return Question::ALL
                    .into_iter()
                    .find(|q| q.code() == *code)
                    .map(CallbackData::Ask)
                    .ok_or_else(bad);
            }
            ["p", _] => return Ok(CallbackData::Person(UserId(num(1)?))),
            _ => {}
        }
        let (kind, code) = match parts.as_slice() {
            [k, c, ..] => (*k, *c),
            _ => return Err(bad()),
        };
        // Every other kind takes an id after its code; the two "to" buttons a user after that.
        let arity = match (kind, code) {
            ("f", "t") | ("g", "a") => 4,
            _ => 3,
        };
        if parts.len() != arity {
            return Err(bad());
        }
        let id = num(2)?;
        let data = match kind {
            "c" => {
                CallbackData::Promise(ButtonAction::from_code(code).ok_or_else(bad)?, MemoryId(id))
            }
            "t" => CallbackData::Task(TaskButton::from_code(code).ok_or_else(bad)?, id),
            "f" => CallbackData::Fix(match code {
                "m" => FixButton::Menu(id),
                "d" => FixButton::Done(id),
                "s" => FixButton::Later(id),
                "x" => FixButton::NotAPromise(id),
                "o" => FixButton::NotMine(id),
                "t" => FixButton::To(id, UserId(num(3)?)),
                _ => return Err(bad()),
            }),
            "g" => CallbackData::Goal(match code {
                "k" => GoalButton::Keep(id),
                "d" => GoalButton::Drop(id),
                "w" => GoalButton::Who(id),
                "a" => GoalButton::To(id, UserId(num(3)?)),
                "b" => GoalButton::Back(id),
                "p" => GoalButton::Plan(id),
                _ => return Err(bad()),
            }),
            "o" => CallbackData::Owner {
                proposal: id,
                yes: match code {
                    "yes" => true,
                    "no" => false,
                    _ => return Err(bad()),
                },
            },
            _ => return Err(bad()),
        };
        Ok(data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn any_data_reads_as_a_button_or_an_error_without_panic(s in "\\PC{0,80}") {
            if let Ok(d) = s.parse::<CallbackData>() {
                prop_assert_eq!(d.to_string().parse::<CallbackData>(), Ok(d));
            }
        }
    }

    fn every_kind() -> Vec<CallbackData> {
        let u = UserId(12);
        let mut all = Vec::new();
        for a in ButtonAction::ALL {
            all.push(CallbackData::Promise(a, MemoryId(7)));
        }
        for b in TaskButton::ALL {
            all.push(CallbackData::Task(b, 4));
        }
        for b in [
            FixButton::Menu(7),
            FixButton::Done(7),
            FixButton::Later(7),
            FixButton::NotAPromise(7),
            FixButton::NotMine(7),
            FixButton::To(7, u),
        ] {
            all.push(CallbackData::Fix(b));
        }
        for b in [
            GoalButton::Keep(3),
            GoalButton::Drop(3),
            GoalButton::Who(3),
            GoalButton::To(3, u),
            GoalButton::Back(1),
            GoalButton::Plan(1),
        ] {
            all.push(CallbackData::Goal(b));
        }
        all.push(CallbackData::Owner {
            proposal: 5,
            yes: true,
        });
        all.push(CallbackData::Owner {
            proposal: 5,
            yes: false,
        });
        for q in Question::ALL {
            all.push(CallbackData::Ask(q));
        }
        all.push(CallbackData::Person(u));
        all
    }

    #[test]
    fn every_button_reads_back_as_itself_within_telegrams_64_bytes() {
        for d in every_kind() {
            let text = d.to_string();
            assert!(text.len() <= 64, "{text}");
            assert_eq!(text.parse::<CallbackData>(), Ok(d), "{text}");
        }
        let big = CallbackData::Fix(FixButton::To(i64::MAX, UserId(i64::MAX)));
        assert!(big.to_string().len() <= 64);
    }

    #[test]
    fn the_wire_format_is_the_one_old_messages_carry() {
        assert_eq!(ButtonAction::Done.data(MemoryId(7)), "c:done:7");
        assert_eq!(TaskButton::Accept.data(42), "t:accept:42");
        assert_eq!(FixButton::To(7, UserId(12)).data(), "f:t:7:12");
        assert_eq!(GoalButton::To(3, UserId(12)).data(), "g:a:3:12");
        assert_eq!(
            CallbackData::Owner {
                proposal: 5,
                yes: false
            }
            .to_string(),
            "o:no:5"
        );
    }

    #[test]
    fn anything_else_is_an_unknown_button() {
        for s in [
            "",
            "c",
            "c:done",
            "c:done:x",
            "c:later:7",
            "f:t:6",
            "g:k:6:7",
            "g:a:6",
            "o:maybe:5",
            "x:done:1",
            "t:done:1:2",
            "c:done:7:",
            ":::",
            "q:",
            "q:weather",
            "p:",
            "p:x",
            "p:1:2",
        ] {
            assert!(s.parse::<CallbackData>().is_err(), "{s:?}");
        }
    }
}
