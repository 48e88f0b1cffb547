//! Game clocks: what to tell an engine before each move (`INFO time_left`), the deadlines
//! for its reply, and bookkeeping of how far it overran its limits.
//!
//! Semantics follow c-gomoku-cli: the match clock starts at `timeout_match` and gets the
//! increment before every move; the limit for one move is the smaller of the per-move
//! limit and the time left; a move that arrives after the limit but within the tolerance
//! is accepted and the match clock is clipped to 0; at limit + tolerance/2 the runner sends
//! `YXSTOP` once; no move by limit + tolerance is a loss on time.

use super::spec::{TimeControl, UNLIMITED_TIME_LEFT};
use std::time::{Duration, Instant};

/// One engine's clock during one game.
#[derive(Clone, Debug)]
pub struct Clock {
    tc: TimeControl,
    tolerance: Duration,
    /// Milliseconds left on the match clock; None when the match is unlimited.
    left_ms: Option<i64>,
    /// Largest `elapsed - timeout_turn` seen, in ms (None before any move with a turn limit).
    pub max_turn_overrun_ms: Option<i64>,
    /// Largest `elapsed - time_left` seen, in ms (None before any move with a match limit).
    pub max_match_overrun_ms: Option<i64>,
    /// Longest move, in ms.
    pub max_move_ms: u64,
    /// Total thinking time, in ms.
    pub total_ms: u64,
    /// Moves played.
    pub moves: u32,
    clip: bool,
}

/// The limits for one move, computed when it is requested.
#[derive(Clone, Copy, Debug)]
pub struct MoveBudget {
    /// The value for `INFO time_left`.
    pub time_left: i64,
    /// The limit for this move (None: no limit at all).
    pub limit: Option<Duration>,
    /// When to send `YXSTOP` (limit + tolerance/2), relative to the request.
    pub soft: Option<Duration>,
    /// When the move is forfeited (limit + tolerance), relative to the request.
    pub hard: Option<Duration>,
}

impl MoveBudget {
    /// Absolute soft deadline for a request sent at `start`.
    pub fn soft_at(&self, start: Instant) -> Option<Instant> {
        self.soft.map(|d| start + d)
    }

    /// Absolute hard deadline for a request sent at `start`.
    pub fn hard_at(&self, start: Instant) -> Option<Instant> {
        self.hard.map(|d| start + d)
    }
}

impl Clock {
    /// A fresh clock for one game.
    pub fn new(tc: TimeControl, tolerance: Duration) -> Clock {
        Clock {
            tc,
            tolerance,
            left_ms: (tc.match_ms > 0).then_some(tc.match_ms as i64),
            max_turn_overrun_ms: None,
            max_match_overrun_ms: None,
            max_move_ms: 0,
            total_ms: 0,
            moves: 0,
            clip: true,
        }
    }

    /// Let the match clock go negative after a late move, as GomocupJudge does
    /// (`time_left` may then be negative; the next limit is just the tolerance).
    pub fn without_clipping(mut self) -> Clock {
        self.clip = false;
        self
    }

    /// The time control.
    pub fn time_control(&self) -> TimeControl {
        self.tc
    }

    /// Milliseconds left on the match clock (None = unlimited).
    pub fn left_ms(&self) -> Option<i64> {
        self.left_ms
    }

    /// Start a move: add the increment and compute its limits.
    pub fn begin_move(&mut self) -> MoveBudget {
        if let Some(left) = self.left_ms.as_mut() {
            *left += self.tc.inc_ms as i64;
        }
        let time_left = self.left_ms.unwrap_or(UNLIMITED_TIME_LEFT);
        let match_limit = self.left_ms.map(|l| l.max(0) as u64);
        let turn_limit = (self.tc.turn_ms > 0).then_some(self.tc.turn_ms);
        let limit_ms = match (match_limit, turn_limit) {
            (Some(m), Some(t)) => Some(m.min(t)),
            (m, t) => m.or(t),
        };
        let limit = limit_ms.map(Duration::from_millis);
        MoveBudget {
            time_left,
            limit,
            soft: limit.map(|l| l + self.tolerance / 2),
            hard: limit.map(|l| l + self.tolerance),
        }
    }

    /// Book a move that took `elapsed`: record overruns and charge the match clock
    /// (clipped at 0, so a late move within the tolerance leaves `time_left 0`).
    pub fn end_move(&mut self, budget: &MoveBudget, elapsed: Duration) {
        let ms = elapsed.as_millis() as i64;
        self.moves += 1;
        self.total_ms += ms as u64;
        self.max_move_ms = self.max_move_ms.max(ms as u64);
        if self.tc.turn_ms > 0 {
            let over = ms - self.tc.turn_ms as i64;
            self.max_turn_overrun_ms = Some(self.max_turn_overrun_ms.map_or(over, |m| m.max(over)));
        }
        if let Some(left) = self.left_ms.as_mut() {
            let over = ms - budget.time_left;
            self.max_match_overrun_ms =
                Some(self.max_match_overrun_ms.map_or(over, |m| m.max(over)));
            *left -= ms;
            if self.clip {
                *left = (*left).max(0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(s: &str) -> TimeControl {
        TimeControl::parse(s).unwrap()
    }

    #[test]
    fn unlimited_match_sends_max_time_left_and_no_deadline() {
        let mut c = Clock::new(tc("0/0"), Duration::from_secs(3));
        let b = c.begin_move();
        assert_eq!(b.time_left, UNLIMITED_TIME_LEFT);
        assert!(b.limit.is_none() && b.hard.is_none());
        c.end_move(&b, Duration::from_millis(10_000));
        assert_eq!(c.max_turn_overrun_ms, None);
        assert_eq!(c.max_match_overrun_ms, None);
        assert_eq!(c.max_move_ms, 10_000);
    }

    #[test]
    fn turn_limit_and_tolerance_deadlines() {
        let mut c = Clock::new(tc("0/5"), Duration::from_secs(2));
        let b = c.begin_move();
        assert_eq!(b.time_left, UNLIMITED_TIME_LEFT);
        assert_eq!(b.limit, Some(Duration::from_secs(5)));
        assert_eq!(b.soft, Some(Duration::from_secs(6)));
        assert_eq!(b.hard, Some(Duration::from_secs(7)));
        c.end_move(&b, Duration::from_millis(5_300));
        assert_eq!(c.max_turn_overrun_ms, Some(300));
        let b = c.begin_move();
        c.end_move(&b, Duration::from_millis(100));
        assert_eq!(c.max_turn_overrun_ms, Some(300));
    }

    #[test]
    fn match_clock_increment_and_clipping() {
        let mut c = Clock::new(tc("10/4+1"), Duration::from_secs(1));
        let b = c.begin_move();
        assert_eq!(b.time_left, 11_000);
        assert_eq!(b.limit, Some(Duration::from_secs(4)));
        c.end_move(&b, Duration::from_millis(4_000));
        assert_eq!(c.left_ms(), Some(7_000));
        let b = c.begin_move();
        assert_eq!(b.time_left, 8_000);
        c.end_move(&b, Duration::from_millis(3_500));
        let b = c.begin_move();
        assert_eq!(b.time_left, 5_500);
        c.end_move(&b, Duration::from_millis(4_000));
        let b = c.begin_move();
        assert_eq!(b.time_left, 2_500);
        assert_eq!(b.limit, Some(Duration::from_millis(2_500)));
        // Late by 400 ms but within the 1 s tolerance: accepted, clock clipped to 0.
        c.end_move(&b, Duration::from_millis(2_900));
        assert_eq!(c.left_ms(), Some(0));
        assert_eq!(c.max_match_overrun_ms, Some(400));
        assert_eq!(c.max_turn_overrun_ms, Some(0));
        let b = c.begin_move();
        assert_eq!(b.time_left, 1_000);
        assert_eq!(b.hard, Some(Duration::from_secs(2)));
    }

    #[test]
    fn judge_clock_goes_negative() {
        let mut c = Clock::new(tc("2/0"), Duration::from_secs(1)).without_clipping();
        let b = c.begin_move();
        c.end_move(&b, Duration::from_millis(2_300));
        assert_eq!(c.left_ms(), Some(-300));
        let b = c.begin_move();
        assert_eq!(b.time_left, -300);
        assert_eq!(b.limit, Some(Duration::ZERO));
        assert_eq!(b.hard, Some(Duration::from_secs(1)));
    }

    #[test]
    fn zero_time_left_still_gets_the_tolerance() {
        let mut c = Clock::new(tc("1/0"), Duration::from_millis(500));
        let b = c.begin_move();
        assert_eq!(b.limit, Some(Duration::from_secs(1)));
        c.end_move(&b, Duration::from_millis(1_200));
        let b = c.begin_move();
        assert_eq!(b.time_left, 0);
        assert_eq!(b.limit, Some(Duration::ZERO));
        assert_eq!(b.soft, Some(Duration::from_millis(250)));
        assert_eq!(b.hard, Some(Duration::from_millis(500)));
    }
}
