//! A search's clock: when it started, when it should stop deepening (the optimum) and when
//! its move must be out (the hard limit). All three may move while the search runs: a
//! ponder hit turns a search without a limit into one with the move's budget, counted from
//! the command that made the hit. Every thread of the search reads the same clock.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A movable deadline, read lock-free by every search thread.
///
/// Times are kept as nanoseconds after a fixed origin (the first start), so they fit in
/// atomics; a start moved before that origin counts as the origin.
#[derive(Debug)]
pub struct Deadline {
    origin: Instant,
    /// Start, in nanoseconds after `origin`.
    start_ns: AtomicU64,
    /// Optimum, in nanoseconds after the start.
    optimum_ns: AtomicU64,
    /// Hard limit, in nanoseconds after the start.
    maximum_ns: AtomicU64,
}

fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

impl Deadline {
    /// A clock started at `start` with the given optimum and hard limit (both after `start`).
    pub fn new(start: Instant, optimum: Duration, maximum: Duration) -> Deadline {
        Deadline {
            origin: start,
            start_ns: AtomicU64::new(0),
            optimum_ns: AtomicU64::new(nanos(optimum)),
            maximum_ns: AtomicU64::new(nanos(maximum)),
        }
    }

    /// Move the clock: a new start, optimum and hard limit, seen by every thread at its
    /// next check.
    pub fn reset(&self, start: Instant, optimum: Duration, maximum: Duration) {
        // The limits are written before the start: a thread that reads the new start with
        // the old limits stops later than it should, never earlier.
        self.optimum_ns.store(nanos(optimum), Ordering::Relaxed);
        self.maximum_ns.store(nanos(maximum), Ordering::Relaxed);
        let start_ns = nanos(start.saturating_duration_since(self.origin));
        self.start_ns.store(start_ns, Ordering::Release);
    }

    /// When the search (or its last reset) started.
    pub fn start(&self) -> Instant {
        self.origin + Duration::from_nanos(self.start_ns.load(Ordering::Acquire))
    }

    /// Time after which no new iteration should begin.
    pub fn optimum(&self) -> Duration {
        Duration::from_nanos(self.optimum_ns.load(Ordering::Relaxed))
    }

    /// Time by which the search must have returned.
    pub fn maximum(&self) -> Duration {
        Duration::from_nanos(self.maximum_ns.load(Ordering::Relaxed))
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start().elapsed()
    }

    /// True once the hard limit has passed.
    pub fn past_maximum(&self) -> bool {
        self.elapsed() >= self.maximum()
    }

    /// The instant of the hard limit.
    pub fn hard_limit(&self) -> Instant {
        self.start() + self.maximum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moved_deadline_counts_from_its_new_start() {
        let t0 = Instant::now();
        let d = Deadline::new(t0, Duration::from_millis(10), Duration::from_millis(20));
        assert_eq!(d.start(), t0);
        assert_eq!(d.hard_limit(), t0 + Duration::from_millis(20));
        let t1 = t0 + Duration::from_secs(5);
        d.reset(t1, Duration::from_millis(300), Duration::from_millis(400));
        assert_eq!(d.start(), t1);
        assert_eq!(d.optimum(), Duration::from_millis(300));
        assert_eq!(d.hard_limit(), t1 + Duration::from_millis(400));
        // The new start lies in the future: nothing has elapsed, the limit is far off.
        assert_eq!(d.elapsed(), Duration::ZERO);
        assert!(!d.past_maximum());
        // A start before the origin counts as the origin.
        let before = t0.checked_sub(Duration::from_secs(1)).unwrap_or(t0);
        d.reset(before, Duration::ZERO, Duration::ZERO);
        assert_eq!(d.start(), t0);
        assert!(d.past_maximum());
    }
}
