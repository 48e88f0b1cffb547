//! Time management: how long one move may take, from the manager's limits.
//!
//! Managers give a per-move limit (`timeout_turn`), a per-game limit (`timeout_match`) and,
//! before each move, the game time left (`time_left`, 2147483647 = unlimited). The engine
//! must answer within `min(timeout_turn, time_left)` measured from the moment the command
//! was read, keeping a margin for I/O, and should spread the game clock over the moves that
//! are likely to come rather than spend it on one.
//!
//! - this module: the manager's settings and the [`Budget`] for one move;
//! - [`deadline`]: a search's start, optimum and hard limit, which may move while it runs;
//! - [`stop_rules`]: how a search spends its budget (when to stop deepening, the threat
//!   solvers' share of the move).

pub mod deadline;
pub mod stop_rules;

pub use deadline::Deadline;

use std::time::Duration;

/// `time_left` value that managers use for "no match limit".
pub const UNLIMITED_MS: i64 = 2_147_483_647;
/// Per-move limit used when the manager sends no time information at all.
pub const DEFAULT_TURN_MS: i64 = 5_000;
/// Fixed part of the safety margin kept back for I/O and scheduling.
pub const BASE_MARGIN_MS: i64 = 30;
/// At or below this many milliseconds the engine plays its instant move without searching:
/// a search this short gains little, and on a loaded machine the thread hand-offs alone can
/// take tens of milliseconds.
pub const INSTANT_CEILING_MS: i64 = 120;
/// Largest safety margin.
pub const MAX_MARGIN_MS: i64 = 300;
/// Game time kept back for each of our later moves. A long game's last moves are instant
/// replies: a fraction of a millisecond of work each, but a few milliseconds of I/O and
/// scheduling on a loaded machine (4 ms a reply was seen in a match whose engines shared
/// two busy cores). Without this reserve those replies ran a nearly spent clock below 0.
pub const REPLY_RESERVE_MS: i64 = 3;

/// The most own moves a game clock is planned for. Self-play at `tc=60/5` (bench/elo-log.md,
/// the pondering match) used 10 to 55 s of each side's 60 s, about 25 s for a typical 27
/// own moves, when this was 30; Rapfi plans for 22 moves to go (`../shared/strength-notes.md`
/// §5). With the 6/10 below a move's optimum is now about a 27th of the clock left (was a
/// 50th).
pub const OWN_MOVES_PLANNED: i64 = 16;

/// The manager's time settings as last received.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeSettings {
    /// `timeout_turn` in ms (0 = play at once), if sent.
    pub turn_ms: Option<i64>,
    /// `timeout_match` in ms (0 = unlimited), if sent.
    pub match_ms: Option<i64>,
    /// `time_left` in ms (may be negative), if sent (or kept by the engine, see `charge`).
    pub time_left_ms: Option<i64>,
    /// True while `time_left_ms` is the engine's own count, started from `timeout_match`
    /// because the manager never sent `time_left`.
    pub own_clock: bool,
}

/// The time a search may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Target: do not start new work after this.
    pub optimum: Duration,
    /// Hard limit: the move must be out by then.
    pub maximum: Duration,
    /// True when only a per-move limit applies: time the move leaves unused is lost (with
    /// a game clock it is there for later moves), so work that can still pay off may go
    /// on to the hard limit.
    pub unused_is_lost: bool,
}

impl TimeSettings {
    /// The per-move time ceiling before margins: `min(turn limit, left)` where `left` is
    /// the usable game clock, with the README's default when the manager sent nothing; None
    /// when nothing limits the move.
    fn ceiling_ms(&self, left: Option<i64>) -> Option<i64> {
        match (self.turn_ms, left) {
            (Some(t), Some(l)) => Some(t.min(l)),
            (Some(t), None) => Some(t),
            (None, Some(l)) => Some(l),
            (None, None) => {
                if self.match_ms.is_some() {
                    None // an explicit unlimited match and no turn limit
                } else {
                    Some(DEFAULT_TURN_MS)
                }
            }
        }
    }

    /// Game time left when the game clock is limited.
    fn match_left_ms(&self) -> Option<i64> {
        match self.time_left_ms {
            Some(l) if l < UNLIMITED_MS => Some(l),
            _ => match self.match_ms {
                Some(m) if m > 0 && m < UNLIMITED_MS && self.time_left_ms.is_none() => Some(m),
                _ => None,
            },
        }
    }

    /// Plan one move. `empty_squares` estimates how long the game can still last.
    pub fn budget(&self, empty_squares: usize) -> Budget {
        // Our moves after this one, at most: each may need an instant reply.
        let later_moves = empty_squares.saturating_sub(1).div_ceil(2) as i64;
        let left = self
            .match_left_ms()
            .map(|l| l - REPLY_RESERVE_MS * later_moves);
        let Some(ceiling) = self.ceiling_ms(left) else {
            let day = Duration::from_secs(86_400);
            return Budget {
                optimum: day,
                maximum: day,
                unused_is_lost: false,
            };
        };
        if ceiling <= INSTANT_CEILING_MS {
            // Too little time to search: the instant move.
            return Budget {
                optimum: Duration::ZERO,
                maximum: Duration::ZERO,
                unused_is_lost: false,
            };
        }
        let margin = (BASE_MARGIN_MS + ceiling / 20).min(MAX_MARGIN_MS);
        let mut maximum = (ceiling - margin).max(0);
        let mut optimum = maximum;
        // Iterative deepening stops early, leaving room for the last iteration: 6/10 of the
        // allowance with a game clock (what is not used now is there for later moves), 8/10
        // with only a per-move limit (time not used is lost).
        let mut tenths = 8;
        if let Some(left) = left {
            tenths = 6;
            // Our own moves still to come: about half the empty squares, but never more
            // than OWN_MOVES_PLANNED (most games end well before the board fills) and never
            // fewer than a few moves.
            let own_moves_left = (empty_squares as i64 / 2).clamp(8, OWN_MOVES_PLANNED);
            let share = left / own_moves_left;
            // Never sink more than a fifth of the remaining clock into one move.
            let cap = left / 5;
            optimum = optimum.min(share);
            maximum = maximum.min(cap.max(share)).max(0);
        }
        let optimum = optimum.min(maximum) * tenths / 10;
        Budget {
            optimum: Duration::from_millis(optimum.max(0) as u64),
            maximum: Duration::from_millis(maximum.max(0) as u64),
            unused_is_lost: left.is_none(),
        }
    }

    /// Charge `used_ms` to the game clock, for managers that do not resend `time_left`
    /// (a limited `timeout_match` without any `time_left` starts the clock).
    pub fn charge(&mut self, used_ms: i64) {
        let left = match (self.time_left_ms, self.match_ms) {
            (Some(l), _) => Some(l),
            (None, Some(m)) if m > 0 && m < UNLIMITED_MS => {
                self.own_clock = true;
                Some(m)
            }
            _ => None,
        };
        if let Some(l) = left {
            if l < UNLIMITED_MS {
                self.time_left_ms = Some(l - used_ms);
            }
        }
    }

    /// A new game: an engine-kept game clock starts again from `timeout_match`. A
    /// `time_left` the manager sent stays (managers send it before each move anyway).
    pub fn new_game(&mut self) {
        if self.own_clock {
            self.time_left_ms = None;
            self.own_clock = false;
        }
    }

    /// The manager sent `time_left`.
    pub fn set_time_left(&mut self, ms: i64) {
        self.time_left_ms = Some(ms);
        self.own_clock = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(d: Duration) -> i64 {
        d.as_millis() as i64
    }

    #[test]
    fn default_is_a_few_seconds() {
        let b = TimeSettings::default().budget(225);
        assert!(ms(b.maximum) > 1_000 && ms(b.maximum) < DEFAULT_TURN_MS);
        assert!(b.optimum <= b.maximum);
    }

    #[test]
    fn turn_limit_keeps_a_margin() {
        let t = TimeSettings {
            turn_ms: Some(1_000),
            ..Default::default()
        };
        let b = t.budget(200);
        assert!(ms(b.maximum) <= 1_000 - BASE_MARGIN_MS);
        assert!(ms(b.maximum) >= 900);
    }

    #[test]
    fn zero_turn_means_instant() {
        let t = TimeSettings {
            turn_ms: Some(0),
            ..Default::default()
        };
        assert_eq!(t.budget(200).maximum, Duration::ZERO);
    }

    #[test]
    fn tiny_or_negative_time_left_means_instant() {
        for left in [-500, 0, 10, 30] {
            let t = TimeSettings {
                turn_ms: Some(5_000),
                match_ms: Some(100_000),
                time_left_ms: Some(left),
                own_clock: false,
            };
            assert_eq!(t.budget(100).maximum, Duration::ZERO, "{left}");
        }
    }

    #[test]
    fn later_replies_keep_a_reserve_of_the_game_clock() {
        let clock = |left| TimeSettings {
            turn_ms: Some(5_000),
            match_ms: Some(100_000),
            time_left_ms: Some(left),
            own_clock: false,
        };
        // 150 ms would allow a short search with the board nearly full, but not with 60
        // empty squares: 30 later replies keep 90 ms back.
        assert!(clock(150).budget(3).maximum > Duration::ZERO);
        assert_eq!(clock(150).budget(61).maximum, Duration::ZERO);
        // A long game to the last square, each reply costing the engine's whole maximum
        // plus REPLY_RESERVE_MS of I/O: the clock never runs out (from any start that
        // covers the reserve: 330 ms for 110 later moves).
        for start in [5_000, 1_000, 400, 340] {
            let mut t = clock(start);
            for empty in (1..=220).rev().step_by(2) {
                let b = t.budget(empty);
                t.charge(ms(b.maximum) + REPLY_RESERVE_MS);
                let left = t.time_left_ms.unwrap_or(0);
                assert!(left >= 0, "start {start}: {left} ms left at {empty} empty");
            }
        }
    }

    #[test]
    fn match_clock_is_spread() {
        let t = TimeSettings {
            turn_ms: Some(300_000),
            match_ms: Some(1_000_000),
            time_left_ms: Some(1_000_000),
            own_clock: false,
        };
        let b = t.budget(400);
        assert!(ms(b.maximum) <= 200_000);
        assert!(ms(b.optimum) <= 1_000_000 / 8);
    }

    #[test]
    fn per_move_limit_alone_is_used_more_fully_than_a_game_clock() {
        // 1 s per move and no game clock: nothing is saved for later moves.
        let turn_only = TimeSettings {
            turn_ms: Some(1_000),
            match_ms: Some(0),
            time_left_ms: Some(UNLIMITED_MS),
            own_clock: false,
        };
        let b = turn_only.budget(200);
        assert_eq!(ms(b.optimum), ms(b.maximum) * 8 / 10);
        // The same move limit with a large game clock: 6/10.
        let clocked = TimeSettings {
            turn_ms: Some(1_000),
            match_ms: Some(1_000_000),
            time_left_ms: Some(1_000_000),
            own_clock: false,
        };
        let c = clocked.budget(200);
        assert_eq!(ms(c.maximum), ms(b.maximum));
        assert_eq!(ms(c.optimum), ms(c.maximum) * 6 / 10);
        // Only without the game clock is the time a move leaves unused lost.
        assert!(b.unused_is_lost);
        assert!(!c.unused_is_lost);
        // Nor with no limit at all, nor for the instant move.
        let unlimited = TimeSettings {
            match_ms: Some(0),
            ..Default::default()
        };
        assert!(!unlimited.budget(200).unused_is_lost);
        let instant = TimeSettings {
            turn_ms: Some(0),
            ..Default::default()
        };
        assert!(!instant.budget(200).unused_is_lost);
    }

    #[test]
    fn unlimited_time_left_uses_turn_limit() {
        let t = TimeSettings {
            turn_ms: Some(2_000),
            match_ms: Some(0),
            time_left_ms: Some(UNLIMITED_MS),
            own_clock: false,
        };
        let b = t.budget(100);
        assert!(ms(b.maximum) > 1_800 && ms(b.maximum) < 2_000);
    }

    #[test]
    fn charge_reduces_time_left() {
        let mut t = TimeSettings {
            time_left_ms: Some(1_000),
            ..Default::default()
        };
        t.charge(300);
        assert_eq!(t.time_left_ms, Some(700));
        let mut u = TimeSettings {
            time_left_ms: Some(UNLIMITED_MS),
            ..Default::default()
        };
        u.charge(300);
        assert_eq!(u.time_left_ms, Some(UNLIMITED_MS));
    }
}
