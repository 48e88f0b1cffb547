//! Search: choosing a move for the side to move within limits.
//!
//! The protocol layer talks to a [`Searcher`] only; the concrete search can be replaced
//! without touching it. Layer 3 of the crate (see `tests/layers.rs`): it builds on the
//! board, the rules and the pattern tables and imports nothing above it.
//!
//! - [`board`]: the search's board, a plain board plus every empty square's line patterns
//!   kept up to date on each move (foul probes and the threat solvers use plain boards).
//! - [`alphabeta`]: iterative deepening, PVS, the root shortcuts, Lazy SMP and the threat
//!   thread; [`node`]: one pass over a node's candidates (patterns, threats, evaluation,
//!   ordering scores); [`eval`]: the evaluation's weights; [`tt`]: the transposition table.
//! - [`threat`]: the VCF and VCT solvers; [`heuristic`]: the one-ply fallback move.

pub mod alphabeta;
pub mod board;
pub mod eval;
pub mod heuristic;
pub mod node;
pub mod threat;
pub mod tt;

use crate::board::Pos;
use crate::position::Position;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Stack size of search threads: deep threat lines recurse far, and the Windows main
/// thread's 1 MiB would not do.
pub const SEARCH_STACK_BYTES: usize = 64 << 20;

/// How long and how far a search may go.
#[derive(Clone, Debug)]
pub struct Limits {
    /// When the command that started the search was read.
    pub start: Instant,
    /// Time after which no new iteration should begin.
    pub optimum: Duration,
    /// Time by which the search must have returned.
    pub maximum: Duration,
    /// Stop after this many nodes (None: unlimited).
    pub max_nodes: Option<u64>,
    /// Stop after this depth (None: unlimited).
    pub max_depth: Option<u32>,
    /// Time left unused before `maximum` is lost (only a per-move limit applies): the
    /// root VCT may then take most of the move, and the main search the rest, to the hard
    /// limit.
    pub unused_is_lost: bool,
}

impl Limits {
    /// Limits that allow an effectively unbounded search (for tests and bench).
    pub fn unbounded() -> Limits {
        Limits {
            start: Instant::now(),
            optimum: Duration::from_secs(86_400),
            maximum: Duration::from_secs(86_400),
            max_nodes: None,
            max_depth: None,
            unused_is_lost: false,
        }
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

/// Progress of a search, reported after each completed iteration.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// Completed depth.
    pub depth: u32,
    /// Score for the side to move, in centi-stones; mate scores are large.
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the start.
    pub elapsed: Duration,
    /// Principal variation.
    pub pv: Vec<Pos>,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct SearchOutcome {
    /// The move to play.
    pub best: Pos,
    /// Score for the side to move.
    pub score: i32,
    /// Depth reached.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Principal variation, starting with `best`.
    pub pv: Vec<Pos>,
}

/// A move-choosing algorithm.
pub trait Searcher: Send {
    /// Choose a move for the side to move of `position`, which has at least one empty square.
    /// Must return promptly once `stop` is set or `limits.maximum` has passed.
    fn search(
        &mut self,
        position: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchOutcome;

    /// Forget everything learnt (transposition table and the like).
    fn clear(&mut self) {}
}
