//! The threads of one search: Lazy SMP helpers that search the same root over the shared
//! transposition table, and the threat thread, which runs our own VCT, then checks the main
//! thread's candidate moves for an opponent VCT in reply and helps the search in between.
//! The main thread itself runs the iterative deepening driver ([`super::driver`]).

use super::alphabeta::Worker;
use super::defence::opponent_vct;
use super::score::INFINITY;
use super::threat::{ThreatLimits, ThreatSolver};
use super::tt::TranspositionTable;
use super::{BestSoFar, Limits};
use crate::board::Pos;
use crate::position::Position;
use crate::timeman::stop_rules::{reply_check_time, threat_time};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::thread::Scope;
use std::time::{Duration, Instant};

/// Most attacker moves in our own VCT at the root (the main thread's slice or the threat
/// thread). Game VCTs run long: the quintet set's longest needs 17.
pub(super) const ROOT_VCT_MOVES: u32 = 24;

/// State shared by all threads of one search.
pub(super) struct Shared {
    /// Set to stop every thread of this search.
    pub(super) stop: AtomicBool,
    /// Nodes searched by all threads (workers add theirs in batches).
    pub(super) nodes: AtomicU64,
    /// The main thread's current best root move, for the threat thread to check (published
    /// before the one-thread reply check, so it may still be refuted).
    pub(super) candidate: BestSoFar,
    /// Root moves after which the threat thread found a VCT for the opponent.
    refuted: Mutex<Vec<Pos>>,
    /// Set when `refuted` grows: the main thread restarts its iteration without them.
    pub(super) refuted_changed: AtomicBool,
    /// Our own winning line, when the threat thread's VCT found one.
    vct_line: Mutex<Option<Vec<Pos>>>,
}

impl Shared {
    /// Fresh state, with `nodes` already counted (the root solvers').
    pub(super) fn new(nodes: u64) -> Shared {
        Shared {
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(nodes),
            candidate: BestSoFar::default(),
            refuted: Mutex::new(Vec::new()),
            refuted_changed: AtomicBool::new(false),
            vct_line: Mutex::new(None),
        }
    }

    /// The refuted root moves so far.
    pub(super) fn refuted(&self) -> Vec<Pos> {
        self.refuted.lock().map(|r| r.clone()).unwrap_or_default()
    }

    /// Record a root move that loses to an opponent VCT: the main thread searches its
    /// iteration again without it.
    pub(super) fn refute(&self, pos: Pos) {
        if let Ok(mut refuted) = self.refuted.lock() {
            refuted.push(pos);
        }
        self.refuted_changed.store(true, Ordering::Relaxed);
    }

    /// The threat thread's winning line, if it found one.
    pub(super) fn take_vct_line(&self) -> Option<Vec<Pos>> {
        self.vct_line.lock().ok().and_then(|mut l| l.take())
    }
}

/// The threads a search runs beside its main thread.
pub(super) struct Pool<'a> {
    /// The position searched.
    pub(super) position: &'a Position,
    /// The shared transposition table.
    pub(super) tt: &'a TranspositionTable,
    /// This search's shared state.
    pub(super) shared: &'a Shared,
    /// The caller's stop flag.
    pub(super) stop: &'a AtomicBool,
    /// The main search's limits.
    pub(super) limits: &'a Limits,
    /// Deepest iteration.
    pub(super) max_depth: i32,
}

impl<'a> Pool<'a> {
    /// Start `helpers` Lazy SMP helpers and, if `threat_thread`, the threat thread, in
    /// `scope`.
    pub(super) fn spawn<'scope>(
        &self,
        scope: &'scope Scope<'scope, 'a>,
        helpers: usize,
        threat_thread: bool,
    ) where
        'a: 'scope,
    {
        let Pool {
            position,
            tt,
            shared,
            stop,
            limits,
            max_depth,
        } = *self;
        if threat_thread {
            scope.spawn_named(99, move || {
                // Our own VCT first, for the time one thread gives its root solvers
                // ([`threat_time`]): a root VCT that runs long rarely wins in games, and the
                // checks of the main thread's moves wait for it. (The clock's own optimum:
                // beside a threat thread the main search may be stretched to the hard limit.)
                let (optimum, maximum) = limits.planned(limits.clock.optimum(), limits.maximum());
                let own_share = threat_time(optimum, maximum);
                let mut solver = ThreatSolver::new(
                    position.board(),
                    position.rule(),
                    position.to_move(),
                    ThreatLimits {
                        max_attacker_moves: ROOT_VCT_MOVES,
                        max_nodes: u64::MAX,
                    },
                )
                .with_stop(&shared.stop)
                .with_deadline(limits.start() + own_share);
                let found = solver.vct();
                shared.nodes.fetch_add(solver.nodes(), Ordering::Relaxed);
                if let Some(line) = found {
                    if let Ok(mut slot) = shared.vct_line.lock() {
                        *slot = Some(line);
                    }
                    // A proven win: the other threads can stop.
                    shared.stop.store(true, Ordering::Relaxed);
                    return;
                }
                check_and_help(position, tt, shared, stop, limits, max_depth);
            });
        }
        for t in 0..helpers {
            scope.spawn_named(t, move || {
                let me = position.to_move();
                let mut w = Worker::new(position, tt, shared, stop, limits, false);
                let mut pv = Vec::new();
                let mut depth = 1 + (t as i32 % 2);
                while depth <= max_depth && !w.stopped {
                    w.search(me, depth, -INFINITY, INFINITY, 0, &mut pv);
                    w.flush_nodes();
                    depth += 1;
                }
                w.flush_nodes();
            });
        }
    }
}

/// The threat thread's work once its own VCT has failed: if the opponent has a VCT after a
/// pass (a bounded look, as the one-thread check makes), check each new best root move of
/// the main thread for an opponent VCT in reply (a bounded look each; the moves that lose
/// to one are reported); otherwise, and between checks, help the main search as a Lazy
/// SMP helper, one iteration at a time.
fn check_and_help(
    position: &Position,
    tt: &TranspositionTable,
    shared: &Shared,
    stop: &AtomicBool,
    limits: &Limits,
    max_depth: i32,
) {
    let me = position.to_move();
    let mut checked: Vec<Pos> = Vec::new();
    // Checking every candidate without a proven threat after a pass costs more than it
    // finds (one thread: -14 Elo over 197 games, `search::defence`).
    let threatened = opponent_wins_after(position, limits, shared, None);
    let mut helper = Worker::new(position, tt, shared, stop, limits, false);
    let mut pv = Vec::new();
    let mut depth = 1;
    while !shared.stop.load(Ordering::Relaxed)
        && !stop.load(Ordering::Relaxed)
        && !limits.clock.past_maximum()
    {
        let candidate = shared.candidate.get().filter(|p| !checked.contains(p));
        if let (true, Some(pos)) = (threatened, candidate) {
            checked.push(pos);
            if opponent_wins_after(position, limits, shared, Some(pos)) {
                shared.refute(pos);
            }
        } else if depth <= max_depth && !helper.stopped {
            helper.search(me, depth, -INFINITY, INFINITY, 0, &mut pv);
            helper.flush_nodes();
            depth += 1;
        } else {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    helper.flush_nodes();
}

/// Whether the opponent wins by VCT after our root move `ours` (after a pass when None).
fn opponent_wins_after(
    position: &Position,
    limits: &Limits,
    shared: &Shared,
    ours: Option<Pos>,
) -> bool {
    // A bounded look: a proof-number VCT that finds nothing would otherwise run to the hard
    // limit on the first candidate and never see the main thread's later choices.
    let (optimum, maximum) = limits.planned_times();
    let look = reply_check_time(optimum, maximum);
    let deadline = (Instant::now() + look).min(limits.clock.hard_limit());
    opponent_vct(position, ours, deadline, &shared.stop, shared).found
}

/// Spawning helper threads with a large stack inside a scope.
trait SpawnNamed<'scope> {
    fn spawn_named<F: FnOnce() + Send + 'scope>(&'scope self, index: usize, f: F);
}

impl<'scope, 'env> SpawnNamed<'scope> for Scope<'scope, 'env> {
    fn spawn_named<F: FnOnce() + Send + 'scope>(&'scope self, index: usize, f: F) {
        let spawned = std::thread::Builder::new()
            .name(format!("helper-{index}"))
            .stack_size(super::SEARCH_STACK_BYTES)
            .spawn_scoped(self, f);
        if let Err(e) = spawned {
            log::warn!("could not start helper thread {index}: {e}");
        }
    }
}
