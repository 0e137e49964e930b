//! kept — the memory of a small team, as a Telegram bot.
//!
//! It listens to the team's group chats and captures who promised what and by when, notices when
//! a promise moves, is done or is cancelled, answers private questions within the asker's rights,
//! and sends reminders, a daily summary and a weekly digest on schedule.
//!
//! # Layout
//!
//! - [`cli`]: the commands (`run`, `demo`, `replay`, `when`, `ask`, `digest`, `migrate`, `check-config`).
//! - [`config`]: settings from a TOML file and `KEPT__SECTION__KEY` variables.
//! - [`clock`]: time, system or driven.
//! - [`domain`]: types that parse instead of validate (with the working calendar and the
//!   callback data of every button).
//! - [`export`]: everything kept holds about a person, as Markdown or JSON.
//! - [`extract`]: pure text → findings (dates, commitments, names, intents).
//! - [`store`]: every SQL statement; migrations at start.
//! - [`ingest`]: the single write path from a message to memory.
//! - [`import`]: Telegram Desktop exports (JSON) through that path.
//! - [`morph`]: the Russian morphological dictionary, loaded once.
//! - [`llm`]: the optional model: providers, structured output, retries, the daily budget.
//! - [`refine`]: the model's second look at messages the rules were unsure of.
//! - [`context`]: role-aware context reads.
//! - [`answer`]: intent routing and structural answers.
//! - [`schedule`]: the scheduler, its jobs and the delivery sender.
//! - [`digest`]: daily summary, weekly digest and its chart.
//! - [`render`]: message formatting shared by answers, jobs and digests (dates, names, links,
//!   mentions) and splitting long HTML at Telegram's limits.
//! - [`bot`]: teloxide handler tree, commands, keyboards.
//! - [`sandbox`]: a loopback Telegram Bot API for demo, replay and tests.
//! - [`replay`]: scenario files through the real bot on a driven clock.
//! - [`http`]: `/healthz` and `/metrics` for operators.
//! - [`i18n`]: Fluent messages (ru, en).

pub mod answer;
pub mod app;
pub mod bot;
pub mod cli;
pub mod clock;
pub mod config;
pub mod context;
pub mod digest;
pub mod domain;
pub mod export;
pub mod extract;
pub mod http;
pub mod i18n;
pub mod import;
pub mod ingest;
pub mod llm;
pub mod morph;
pub mod refine;
pub mod render;
pub mod replay;
pub mod sandbox;
pub mod schedule;
pub mod store;
pub mod telemetry;
