//! Search: choosing a move for the side to move within limits.
//!
//! The protocol layer talks to a [`Searcher`] only; the concrete search can be replaced
//! without touching it. Layer 3 of the crate (see `tests/layers.rs`): it builds on the
//! board, the rules and the pattern tables and imports nothing above it.
//!
//! - [`board`]: the search's board, a plain board plus every empty square's line patterns
//!   kept up to date on each move (foul probes and the threat solvers use plain boards).
//! - [`searcher`]: [`AlphaBetaSearcher`], from the position to the answer: root moves,
//!   root shortcuts, the root threat solvers, then the threads and iterative deepening.
//! - [`root`]: the root move list, every root move's score, depth, line and proof state.
//! - [`driver`]: iterative deepening with aspiration windows on the main thread.
//! - [`pool`]: the Lazy SMP helpers and the threat thread.
//! - [`alphabeta`]: one thread's PVS over the shared table; [`node`]: one pass over a
//!   node's candidates (patterns, threats, evaluation, ordering scores); [`eval`]: the
//!   classic evaluation's weights; [`learned`]: the learned evaluation (pattern-combination
//!   tables fitted to self-play); [`net`]: the small network added to the tables;
//!   [`score`]: win and loss scores; [`tt`]: the transposition table.
//! - [`threat`]: the VCF and VCT solvers; [`movescore`]: the one-ply move scorer (the
//!   fallback move, Swap2's judgements), the search's own node analysis.
//!
//! Time rules (when to stop deepening, the solvers' share of the move) are in
//! [`crate::timeman`]; the clock a search reads may move while it runs.

pub mod alphabeta;
pub mod board;
mod defence;
pub mod driver;
pub mod eval;
pub mod learned;
pub mod movescore;
pub mod net;
pub mod node;
pub mod pool;
pub mod root;
pub mod score;
pub mod searcher;
pub mod threat;
pub mod tt;
pub mod vcf;

pub use searcher::AlphaBetaSearcher;

use crate::board::Pos;
use crate::position::Position;
use crate::timeman::Deadline;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Stack size of search threads: deep threat lines recurse far, and the Windows main
/// thread's 1 MiB would not do.
pub const SEARCH_STACK_BYTES: usize = 64 << 20;

/// How long and how far a search may go.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Start, optimum and hard limit; shared with whoever started the search, who may move
    /// them while it runs (a ponder hit).
    pub clock: Arc<Deadline>,
    /// Stop after this many nodes (None: unlimited).
    pub max_nodes: Option<u64>,
    /// Stop after this depth (None: unlimited).
    pub max_depth: Option<u32>,
    /// Time left unused before `maximum` is lost (only a per-move limit applies): the
    /// main search deepens to the hard limit, and so may a threat thread's own VCT.
    pub unused_is_lost: bool,
    /// The search may deepen up to the hard limit: [`Limits::optimum`] reads as the
    /// maximum. Set inside the search when no later move can use what this one leaves.
    pub stretch_optimum: bool,
    /// How many best root moves to search, each with its own score and line (multi-PV);
    /// 1 for play.
    pub multi_pv: usize,
    /// Root moves not to play or search (Yixin-Board's `YXBLOCK`), unless they are all
    /// the root moves there are (the outcome then says the block was ignored).
    pub blocked: Vec<Pos>,
    /// A ponder search, whose clock is unbounded until a ponder hit moves it: the optimum
    /// and hard limit the move is expected to get (what the time settings give the
    /// predicted position), which the root threat solvers plan by ([`Limits::planned`]).
    /// None for every other search.
    pub ponder_budget: Option<(Duration, Duration)>,
    /// Where the main thread reports its root moves as it goes (Yixin-Board's realtime
    /// display), once an iteration is deep and the search old enough to be worth it.
    pub realtime: Option<RealtimeSink>,
    /// The static evaluation the search uses.
    pub evaluator: Evaluator,
    /// How the node analysis orders moves.
    pub ordering: MoveOrdering,
    /// The main thread's best root move so far, published as the search goes: what the
    /// front end plays when the search does not stop in time.
    pub best_so_far: Arc<BestSoFar>,
}

/// A search's best root move so far, written by the main search thread after each
/// completed iteration and read by whoever waits for the move (a plain square index, so
/// that a reader never blocks the search).
#[derive(Debug, Default)]
pub struct BestSoFar(AtomicU32);

impl BestSoFar {
    /// Publish `pos` as the best move so far.
    pub fn set(&self, pos: Pos) {
        self.0.store(pos.index() as u32 + 1, Ordering::Release);
    }

    /// The best move so far; None before the first iteration completed.
    pub fn get(&self) -> Option<Pos> {
        match self.0.load(Ordering::Acquire) {
            0 => None,
            i => Some(Pos::from_index(i as usize - 1)),
        }
    }
}

/// How the search orders the moves of a node (after the table's move, wins, blocks and
/// killers, which come first either way).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MoveOrdering {
    /// Hand-set pattern values and threat bonuses.
    Classic,
    /// The learned weights' move scores; only with the learned evaluation (whose weights
    /// and square codes it reads), classic otherwise. The default (with the learned
    /// evaluation it won the SPRTs in `bench/elo-log.md`).
    #[default]
    Learned,
}

impl MoveOrdering {
    /// The ordering named `name` (`classic` or `learned`).
    pub fn named(name: &str) -> Option<MoveOrdering> {
        match name.to_ascii_lowercase().as_str() {
            "classic" => Some(MoveOrdering::Classic),
            "learned" => Some(MoveOrdering::Learned),
            _ => None,
        }
    }
}

/// The static evaluations a search can use; both are in one build so that they can be
/// measured against each other (`INFO evaluator`, `pbrain-rensa --evaluator`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluator {
    /// Linear in pattern counts, hand-shaped and fitted by `tune` ([`eval`]).
    Classic,
    /// Pattern-combination tables fitted to self-play ([`learned`]), one set per rule
    /// family.
    Learned(&'static learned::WeightSet),
    /// The default: learned where its weights won (or did not lose) their self-play test
    /// against the classic evaluation, classic elsewhere ([`Evaluator::learned_rules`]:
    /// today every rule).
    Auto(&'static learned::WeightSet),
}

impl Default for Evaluator {
    fn default() -> Evaluator {
        Evaluator::Auto(learned::embedded())
    }
}

impl Evaluator {
    /// Does [`Evaluator::Auto`] use the learned weights under `rule`? Measured in
    /// `bench/elo-log.md` (learned evaluation and ordering against classic in one build,
    /// `tc=8/0.5+0.05`, pentanomial SPRT [0, 20]): freestyle accepted after 445 games,
    /// +41.6 +- 32.5; renju accepted after 766 games, +27.3 +- 24.7 (once the learned
    /// state's codes came from a kept tuple index, 0.9x the classic speed); standard
    /// accepted after 842 games, +27.7 +- 23.5 (same build). So every rule plays the
    /// learned weights; caro shares freestyle's, exact caro standard's. The hook stays so
    /// that a family whose weights lose their test can fall back to the classic evaluation.
    pub fn learned_rules(_rule: crate::rules::Rule) -> bool {
        true
    }

    /// The learned weights for `rule`, None for the classic evaluation.
    pub fn weights_for(self, rule: crate::rules::Rule) -> Option<&'static learned::LearnedWeights> {
        match self {
            Evaluator::Classic => None,
            Evaluator::Learned(set) => Some(set.for_rule(rule)),
            Evaluator::Auto(set) => Evaluator::learned_rules(rule).then(|| set.for_rule(rule)),
        }
    }

    /// The learned evaluation with the weights built into the binary.
    pub fn learned() -> Evaluator {
        Evaluator::Learned(learned::embedded())
    }

    /// The evaluation named `name` (`auto`, `classic`, `learned`, or `tables`: learned
    /// without the networks; all but classic with `weights`).
    pub fn named(name: &str, weights: &'static learned::WeightSet) -> Option<Evaluator> {
        match name.to_ascii_lowercase().as_str() {
            "auto" => Some(Evaluator::Auto(weights)),
            "classic" => Some(Evaluator::Classic),
            "learned" => Some(Evaluator::Learned(weights)),
            // The learned tables without their networks: the comparison issue 28 asks
            // for, in one build.
            "tables" => Some(Evaluator::Learned(weights.without_nets())),
            _ => None,
        }
    }

    /// Its name in options and messages: `auto`, `classic` or `learned`.
    pub fn name(self) -> &'static str {
        match self {
            Evaluator::Classic => "classic",
            Evaluator::Learned(_) => "learned",
            Evaluator::Auto(_) => "auto",
        }
    }
}

/// What the main thread is doing at the root, for a realtime display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootEvent {
    /// A new iteration starts: the display may clear its marks.
    Refresh,
    /// This root move is being searched.
    Searching(Pos),
    /// This root move's search is done.
    Done(Pos),
    /// This root move is the iteration's best so far.
    Best(Pos),
    /// This root move is proven lost.
    Lost(Pos),
}

/// A receiver of [`RootEvent`]s, shared by the search threads.
#[derive(Clone)]
pub struct RealtimeSink(pub Arc<dyn Fn(RootEvent) + Send + Sync>);

impl std::fmt::Debug for RealtimeSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RealtimeSink")
    }
}

/// Realtime root events start at this depth (Rapfi's choice: shallower iterations pass
/// too quickly to watch).
pub const REALTIME_FROM_DEPTH: i32 = 8;
/// … and once the search has run this long.
pub const REALTIME_AFTER: Duration = Duration::from_millis(200);

impl Limits {
    /// Limits with a clock started at `start` and no node or depth bound.
    pub fn new(start: Instant, optimum: Duration, maximum: Duration) -> Limits {
        Limits {
            clock: Arc::new(Deadline::new(start, optimum, maximum)),
            max_nodes: None,
            max_depth: None,
            unused_is_lost: false,
            stretch_optimum: false,
            multi_pv: 1,
            blocked: Vec::new(),
            ponder_budget: None,
            realtime: None,
            evaluator: Evaluator::default(),
            ordering: MoveOrdering::default(),
            best_so_far: Arc::new(BestSoFar::default()),
        }
    }

    /// Limits that allow an effectively unbounded search (for tests and bench).
    pub fn unbounded() -> Limits {
        let day = Duration::from_secs(86_400);
        Limits::new(Instant::now(), day, day)
    }

    /// When the search started (or its clock was last moved to).
    pub fn start(&self) -> Instant {
        self.clock.start()
    }

    /// Time after which no new iteration should begin.
    pub fn optimum(&self) -> Duration {
        if self.stretch_optimum {
            self.clock.maximum()
        } else {
            self.clock.optimum()
        }
    }

    /// Time by which the search must have returned.
    pub fn maximum(&self) -> Duration {
        self.clock.maximum()
    }

    /// An `optimum` and `maximum` read from this search's clock, as the root threat solvers
    /// plan by them: while pondering, when the clock is unbounded until a hit, no more than
    /// the budget the move is expected to get ([`Limits::ponder_budget`]); otherwise (and
    /// after the hit, whose budget is about the expected one) as they are.
    pub fn planned(&self, optimum: Duration, maximum: Duration) -> (Duration, Duration) {
        match self.ponder_budget {
            Some((expected_optimum, expected_maximum)) => {
                (optimum.min(expected_optimum), maximum.min(expected_maximum))
            }
            None => (optimum, maximum),
        }
    }

    /// [`Limits::planned`] of this search's own optimum and maximum: the times the root
    /// threat solvers and the reply check plan by.
    pub fn planned_times(&self) -> (Duration, Duration) {
        self.planned(self.optimum(), self.maximum())
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.clock.elapsed()
    }
}

/// Progress of a search, reported after each completed iteration.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// Completed depth.
    pub depth: u32,
    /// Deepest ply the main thread reached in that iteration (selective depth).
    pub seldepth: u32,
    /// Which of the best lines this is (0 = the best); always 0 without multi-PV.
    pub pv_index: usize,
    /// How many lines the iteration reports.
    pub pv_count: usize,
    /// Nodes searched for this line (all the iteration's nodes without multi-PV).
    pub line_nodes: u64,
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
    /// Every allowed root move was blocked, so the block was ignored.
    pub blocks_ignored: bool,
    /// The last completed iteration's lines as (first move, score), best first: the
    /// multi-PV lines, or just the best move.
    pub lines: Vec<(Pos, i32)>,
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
