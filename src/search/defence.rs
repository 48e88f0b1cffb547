//! Root moves checked for an opponent VCT in reply. With two or more threads the threat
//! thread does it beside the main search ([`super::pool`]); with one thread the main
//! thread does it between iterations ([`ReplyCheck`]): a static score and a depth-10
//! search miss many slow threats (threes and quiet VCF preparations), which the threat
//! solver sees directly.

use super::pool::Shared;
use super::threat::{ThreatLimits, ThreatSolver};
use super::Limits;
use crate::board::{Cell, Pos};
use crate::position::Position;
use crate::timeman::stop_rules::single_thread_check_time;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Most attacker moves in the opponent's VCT after a candidate root move.
pub(super) const REPLY_VCT_MOVES: u32 = 12;

/// What one look for the opponent's VCT found.
pub(super) struct Look {
    /// A winning line was found.
    pub(super) found: bool,
    /// The look ran out of time or was stopped before it finished.
    pub(super) aborted: bool,
}

/// Look for an opponent VCT after our move `ours` (or after a pass when None), until
/// `deadline` or `stop`; its nodes are added to `shared`.
pub(super) fn opponent_vct(
    position: &Position,
    ours: Option<Pos>,
    deadline: Instant,
    stop: &AtomicBool,
    shared: &Shared,
) -> Look {
    let me = position.to_move();
    let mut board = position.board().clone();
    if let Some(pos) = ours {
        board.place(pos, Cell::Stone(me));
    }
    let mut solver = ThreatSolver::new(
        &board,
        position.rule(),
        me.opponent(),
        ThreatLimits {
            max_attacker_moves: REPLY_VCT_MOVES,
            max_nodes: u64::MAX,
        },
    )
    .with_stop(stop)
    .with_deadline(deadline);
    let found = solver.vct().is_some();
    shared.nodes.fetch_add(solver.nodes(), Ordering::Relaxed);
    Look {
        found,
        aborted: solver.aborted(),
    }
}

/// The one-thread check: each new best root move of the iterative deepening is looked at
/// once (a bounded look, [`single_thread_check_time`]); a move the opponent wins against
/// by VCT is refuted and the iteration searched again without it. A first look after a
/// pass decides whether checking is worth its time: when the opponent has no VCT even
/// with two moves in a row, no move of ours is checked.
pub(super) struct ReplyCheck<'a> {
    position: &'a Position,
    limits: &'a Limits,
    stop: &'a AtomicBool,
    checked: Vec<Pos>,
    /// None before the look after a pass; then whether the opponent was found to
    /// threaten a VCT.
    threatened: Option<bool>,
}

impl<'a> ReplyCheck<'a> {
    /// A check for the search of `position`, stopped by `stop` and the hard limit.
    pub(super) fn new(position: &'a Position, limits: &'a Limits, stop: &'a AtomicBool) -> Self {
        ReplyCheck {
            position,
            limits,
            stop,
            checked: Vec::new(),
            threatened: None,
        }
    }

    fn deadline(&self) -> Instant {
        let (optimum, maximum) = self.limits.planned_times();
        let look = single_thread_check_time(optimum, maximum);
        (Instant::now() + look).min(self.limits.clock.hard_limit())
    }

    /// True when the opponent wins by VCT after our root move `pos` (looked at once).
    pub(super) fn refutes(&mut self, pos: Pos, shared: &Shared) -> bool {
        if self.checked.contains(&pos) || self.stop.load(Ordering::Relaxed) {
            return false;
        }
        if self.threatened.is_none() {
            let look = opponent_vct(self.position, None, self.deadline(), self.stop, shared);
            // Only a threat the look proves is worth checking for: a look that ran out
            // of time says nothing, and checking every move after it cost more than it
            // found (SPRT at tc=8/0.5+0.05: -14 Elo over 197 games with it).
            self.threatened = Some(look.found);
        }
        if self.threatened == Some(false) || self.limits.clock.past_maximum() {
            return false;
        }
        self.checked.push(pos);
        let look = opponent_vct(self.position, Some(pos), self.deadline(), self.stop, shared);
        log::debug!(
            "reply check {pos:?}: {}",
            if look.found {
                "the opponent wins"
            } else if look.aborted {
                "no answer in time"
            } else {
                "holds"
            }
        );
        look.found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;
    use std::time::Duration;

    /// Black's open three on row 7; White (two stones) to move.
    ///
    /// ```text
    ///    5 6 7 8 9 10
    /// 7  . . X X X .
    /// 8  . . O O . .
    /// ```
    fn open_three() -> Position {
        let mut p = Position::new(15, 15, Rule::Freestyle).unwrap();
        for (x, y) in [(7, 7), (7, 8), (8, 7), (8, 8), (9, 7)] {
            p.play(Pos::new(x, y));
        }
        p
    }

    /// Generous time: each look may take an eighth of 8 s.
    fn generous_limits() -> Limits {
        Limits::new(
            Instant::now(),
            Duration::from_secs(8),
            Duration::from_secs(10),
        )
    }

    #[test]
    fn a_move_that_ignores_the_open_three_is_refuted_and_a_block_holds() {
        let position = open_three();
        let limits = generous_limits();
        let stop = AtomicBool::new(false);
        let shared = Shared::new(0);
        let mut check = ReplyCheck::new(&position, &limits, &stop);
        // Far away: Black makes an open four.
        assert!(check.refutes(Pos::new(0, 0), &shared));
        assert_eq!(check.threatened, Some(true));
        // Each move is looked at once.
        assert!(!check.refutes(Pos::new(0, 0), &shared));
        // Blocking an end leaves Black a four that White blocks.
        assert!(!check.refutes(Pos::new(10, 7), &shared));
        assert!(shared.nodes.load(Ordering::Relaxed) > 0);
    }

    #[test]
    fn nothing_is_checked_when_the_opponent_has_no_threat() {
        let mut position = Position::new(15, 15, Rule::Freestyle).unwrap();
        position.play(Pos::new(7, 7));
        let limits = generous_limits();
        let stop = AtomicBool::new(false);
        let shared = Shared::new(0);
        let mut check = ReplyCheck::new(&position, &limits, &stop);
        assert!(!check.refutes(Pos::new(0, 0), &shared));
        assert_eq!(check.threatened, Some(false));
        assert!(check.checked.is_empty());
    }
}
