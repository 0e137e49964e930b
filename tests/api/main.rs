//! The black-box tests in one binary: each module drives the app through the sandbox Bot API,
//! the command line or the store, with a temporary database and a driven clock. One binary links
//! once (29 did, each linking the whole crate); `common` is the harness they share.
//!
//! `tests/llm_local.rs` stays a binary of its own: `.ci/run` runs it alone, against a real local
//! model, when one comes up.

mod common;

mod absences;
mod access;
mod answers;
mod bare_verbs;
mod bot;
mod buttons;
mod cli;
mod dates_corpus;
mod digest_prefs;
mod fix;
mod goals;
mod graph_commands;
mod http;
mod import;
mod ingest;
mod layers;
mod live;
mod llm;
mod long_messages;
mod moves;
mod names_corpus;
mod operations;
mod press;
mod replay_checks;
mod replies;
mod robust;
mod scenarios;
mod schedule;
mod store;
mod tasks;
mod transcript_grammar;
