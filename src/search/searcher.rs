//! The alpha-beta searcher: what happens between "search this position" and the answer.
//!
//! 1. The root's node analysis gives the legal root moves ([`RootMoves`]).
//! 2. Root shortcuts answer at once: a five, a single legal move, a block of two fives (a
//!    loss), an open four.
//! 3. The root threat solvers: our VCF, then (unless the threat thread will run it) our
//!    VCT, within [`threat_time`] (a share of the optimum), or node budgets under a depth or node
//!    limit so that bench and fixed-node play stay deterministic.
//! 4. The search proper: the threads of [`super::pool`] beside the main thread's iterative
//!    deepening ([`super::driver`]).
//!
//! Every path reports through the root move list, and the answer is read off it.

use super::alphabeta::{Worker, MAX_DEPTH};
use super::board::SearchBoard;
use super::defence::ReplyCheck;
use super::driver::{iterate, iterate_multi_pv};
use super::node::{analyse, NodeAnalysis};
use super::pool::{Pool, Shared, ROOT_VCT_MOVES};
use super::root::RootMoves;
use super::score::WIN;
use super::threat::{ThreatLimits, ThreatSolver};
use super::tt::TranspositionTable;
use super::{Limits, SearchInfo, SearchOutcome, Searcher};
use crate::board::Pos;
use crate::pattern::PatternTables;
use crate::position::Position;
use crate::timeman::stop_rules::threat_time;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The alpha-beta searcher, holding the shared transposition table.
pub struct AlphaBetaSearcher {
    tt: Arc<TranspositionTable>,
    threads: usize,
    /// Try VCF/VCT at the root before the main search.
    pub use_threat_solvers: bool,
}

/// What the root threat solvers found.
struct RootThreats {
    /// A winning line for the side to move.
    win: Option<Vec<Pos>>,
    /// Nodes the solvers searched.
    nodes: u64,
}

impl AlphaBetaSearcher {
    /// A searcher over a table, with `threads` threads (Lazy SMP).
    pub fn new(tt: Arc<TranspositionTable>, threads: usize) -> Self {
        AlphaBetaSearcher {
            tt,
            threads: threads.max(1),
            use_threat_solvers: true,
        }
    }

    /// Root threat solving: a VCF of our own, then a VCT, together within a share of the
    /// optimum time (see [`threat_time`]); or fixed node budgets when the search is
    /// bounded by depth or nodes, so that bench and fixed-node play stay deterministic.
    fn root_threats(
        &self,
        position: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        with_vct: bool,
    ) -> RootThreats {
        let me = position.to_move();
        let mut result = RootThreats {
            win: None,
            nodes: 0,
        };
        // With a depth or node limit the solvers get node budgets (deterministic for bench
        // and fixed-node play); otherwise a share of the optimum time. The hard time limit
        // applies in every case.
        let (optimum, maximum) = limits.planned_times();
        let share = threat_time(optimum, maximum);
        let deadline = limits.start() + limits.elapsed() + share;
        let (vcf_nodes, vct_nodes) = if let Some(n) = limits.max_nodes {
            ((n / 4).max(1_000), (n / 4).max(1_000))
        } else if let Some(d) = limits.max_depth {
            let d = u64::from(d.min(12));
            (20_000 * d, 5_000 * d)
        } else {
            if share < Duration::from_millis(2) {
                return result;
            }
            (u64::MAX, u64::MAX)
        };
        let mut solver = ThreatSolver::new(
            position.board(),
            position.rule(),
            me,
            ThreatLimits {
                // VCF lines can be very long (the quintet set has one of 73 fours).
                max_attacker_moves: 255,
                max_nodes: vcf_nodes,
            },
        )
        .with_stop(stop)
        .with_deadline(deadline);
        result.win = solver.vcf();
        result.nodes += solver.nodes();
        log::debug!(
            "root VCF {} at {:?} (threat share {share:?})",
            if result.win.is_some() {
                "won"
            } else {
                "failed"
            },
            limits.elapsed()
        );
        if result.win.is_some() || !with_vct {
            return result;
        }
        let mut solver = ThreatSolver::new(
            position.board(),
            position.rule(),
            me,
            ThreatLimits {
                max_attacker_moves: ROOT_VCT_MOVES,
                max_nodes: vct_nodes,
            },
        )
        .with_stop(stop)
        .with_deadline(deadline);
        result.win = solver.vct();
        result.nodes += solver.nodes();
        let ran_out = result.win.is_none() && solver.aborted();
        log::debug!(
            "root VCT {} at {:?}",
            match (result.win.is_some(), ran_out) {
                (true, _) => "won",
                (false, true) => "ran out",
                (false, false) => "found no win",
            },
            limits.elapsed()
        );
        result
    }
}

/// Answer at once from the root's analysis, if the position allows: record the move in
/// `root` and return true. With `check_list` a shortcut move must be in the list (it
/// may have been blocked).
fn root_shortcut(root: &mut RootMoves, a: &NodeAnalysis, check_list: bool) -> bool {
    let listed = |root: &RootMoves, p: Pos| !check_list || root.get(p).is_some();
    if let Some(five) = a.my_five.filter(|&p| listed(root, p)) {
        root.set_won(WIN - 1, 1, &[five]);
        return true;
    }
    if root.len() == 1 {
        let only = root.moves()[0].pos;
        root.set_best(a.eval, 1, &[only]);
        return true;
    }
    if let Some(&block) = a.their_fives.first() {
        // One five to block among several legal moves: forced, but searched anyway for a
        // score. Two fives: the block loses.
        if root.get(block).is_some() && !(a.their_fives.len() == 1 && root.len() > 1) {
            root.set_best(-(WIN - 2), 1, &[block]);
            return true;
        }
    }
    if a.their_fives.is_empty() {
        if let Some(four) = a.my_open_four.filter(|&p| listed(root, p)) {
            root.set_won(WIN - 3, 1, &[four]);
            return true;
        }
    }
    false
}

impl Searcher for AlphaBetaSearcher {
    fn search(
        &mut self,
        position: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchOutcome {
        let tt: &TranspositionTable = &self.tt;
        // The root moves and the immediate decisions.
        let tables = PatternTables::new(position.rule());
        let mut scratch = SearchBoard::new(position.board().clone(), tables);
        let mut analysis = NodeAnalysis::default();
        analyse(
            &mut scratch,
            position.to_move(),
            position.rule(),
            &mut analysis,
        );
        let legal = analysis.legal_squares();
        // Blocked root moves leave the list, unless they are all there is.
        let blocks_ignored =
            !limits.blocked.is_empty() && legal.iter().all(|p| limits.blocked.contains(p));
        let blocked: Vec<Pos> = if blocks_ignored {
            Vec::new()
        } else {
            limits.blocked.clone()
        };
        let allowed = |p: &Pos| !blocked.contains(p);
        let mut root = RootMoves::new(legal.iter().copied().filter(allowed));
        let multi_pv = limits.multi_pv.max(1);
        let allowed_count = root.len();
        let with_blocks = |mut outcome: SearchOutcome| {
            outcome.blocks_ignored = blocks_ignored;
            outcome
        };
        // Multi-PV wants every line searched: no shortcut but a single move.
        let shortcut = if multi_pv == 1 {
            root_shortcut(&mut root, &analysis, !blocked.is_empty())
        } else {
            root.len() == 1 && root_shortcut(&mut root, &analysis, true)
        };
        if shortcut {
            return with_blocks(root.outcome(1).expect("a shortcut sets the best move"));
        }
        // With two or more threads (and no depth or node bound, which must stay
        // deterministic) one thread runs the VCT instead of a slice of the main thread's
        // time before it, then checks the main thread's choices and helps its search.
        let solvers = self.use_threat_solvers && multi_pv == 1;
        let threat_thread = solvers
            && self.threads >= 2
            && analysis.their_fives.is_empty()
            && limits.max_nodes.is_none()
            && limits.max_depth.is_none();
        let mut threats = RootThreats {
            win: None,
            nodes: 0,
        };
        if analysis.their_fives.is_empty() && solvers {
            threats = self.root_threats(position, limits, stop, !threat_thread);
            if let Some(line) = threats.win.as_ref().filter(|l| allowed(&l[0])) {
                root.set_won(WIN - line.len() as i32, line.len() as u32, line);
                return with_blocks(
                    root.outcome(threats.nodes)
                        .expect("a win sets the best move"),
                );
            }
        }
        // Beside a threat thread with only a per-move limit, the main search runs to the
        // hard limit (no later move can use what it leaves).
        let long_threat_thread = threat_thread && limits.unused_is_lost;
        let limits = &Limits {
            stretch_optimum: limits.stretch_optimum || long_threat_thread,
            ..limits.clone()
        };
        // Threat-solver nodes count against a node limit too.
        let shared = Shared::new(threats.nodes);
        let max_depth = limits
            .max_depth
            .map_or(MAX_DEPTH, |d| (d as i32).clamp(1, MAX_DEPTH));
        let helpers = self.threads - 1 - usize::from(threat_thread);
        std::thread::scope(|scope| {
            let pool = Pool {
                position,
                tt,
                shared: &shared,
                stop,
                limits,
                max_depth,
            };
            pool.spawn(scope, helpers, threat_thread);
            let mut w = Worker::new(position, tt, &shared, stop, limits, true);
            w.root_moves = std::mem::take(&mut root);
            w.root_filter.clone_from(&blocked);
            if multi_pv == 1 {
                // One thread: the main thread checks its own choices for a losing reply.
                let mut check = (solvers
                    && !threat_thread
                    && limits.max_nodes.is_none()
                    && limits.max_depth.is_none())
                .then(|| ReplyCheck::new(position, limits, stop));
                iterate(&mut w, &shared, limits, max_depth, check.as_mut(), report);
            } else {
                let lines = multi_pv.min(allowed_count).max(1);
                iterate_multi_pv(&mut w, &shared, limits, max_depth, lines, report);
            }
            root = std::mem::take(&mut w.root_moves);
        });
        let nodes = shared.nodes.load(Ordering::Relaxed);
        if let Some(line) = shared.take_vct_line().filter(|l| allowed(&l[0])) {
            root.set_won(WIN - line.len() as i32, line.len() as u32, &line);
        }
        let outcome = root.outcome(nodes).unwrap_or_else(|| {
            let fallback = root
                .moves()
                .first()
                .map(|m| m.pos)
                .or_else(|| position.board().empty_positions().next())
                .expect("an empty square");
            SearchOutcome {
                best: fallback,
                score: 0,
                depth: 0,
                nodes,
                pv: vec![fallback],
                blocks_ignored: false,
                lines: vec![(fallback, 0)],
            }
        });
        with_blocks(outcome)
    }

    fn clear(&mut self) {}
}
