//! Pure text → findings: dates (ru, en), commitments and their updates, people named, question intents.
//!
//! Nothing here does I/O or reads the clock: every function takes the reference time it needs,
//! so the same message always gives the same findings (replay, tests and the live bot agree).
//! Modules refer to each other through `super::` only, so the folder also builds on its own.

pub mod absence;
pub mod commitments;
pub mod dates;
pub mod decisions;
pub mod goal;
pub mod intent;
pub mod names;
pub mod owner;
pub mod report;
pub mod task;
pub mod words;

pub use crate::domain::Lang;
