//! Time, read only through a `Clock`: the system clock live, a driven clock in tests and replay.

use std::sync::{Arc, Mutex};

use chrono::{DateTime, Utc};

pub trait Clock: Send + Sync + std::fmt::Debug {
    fn now(&self) -> DateTime<Utc>;
}

#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// A clock that stands still until it is moved; it never sleeps.
#[derive(Debug, Clone)]
pub struct DrivenClock(Arc<Mutex<DateTime<Utc>>>);

impl DrivenClock {
    pub fn new(at: DateTime<Utc>) -> Self {
        DrivenClock(Arc::new(Mutex::new(at)))
    }

    /// Moves the clock; moving it backwards is ignored, because time in a replay only goes on.
    pub fn set(&self, at: DateTime<Utc>) {
        let mut now = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if at > *now {
            *now = at;
        }
    }
}

impl Clock for DrivenClock {
    fn now(&self) -> DateTime<Utc> {
        *self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

pub type SharedClock = Arc<dyn Clock>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn driven_clock_moves_forward_only() {
        let t0 = DateTime::from_timestamp(1_000, 0).unwrap();
        let c = DrivenClock::new(t0);
        c.set(DateTime::from_timestamp(2_000, 0).unwrap());
        c.set(t0);
        assert_eq!(c.now().timestamp(), 2_000);
    }
}
