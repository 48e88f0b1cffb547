//! Iterative-deepening principal-variation alpha-beta search with a shared transposition
//! table, threat-aware move generation, VCF/VCT at the root and Lazy SMP.
//!
//! Scores are for the side to move. A win in `n` plies scores `WIN - n`, a loss `-(WIN - n)`.

use super::board::SearchBoard;
use super::node::{analyse, Candidate, NodeAnalysis};
use super::threat::{ThreatLimits, ThreatSolver};
use super::tt::{Bound, TranspositionTable};
use super::{Limits, SearchInfo, SearchOutcome, Searcher};
use crate::board::{Board, Cell, Color, Pos};
use crate::pattern::{PatternTables, Threat};
use crate::position::Position;
use crate::rules::Rule;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Score of a win on the board.
pub const WIN: i32 = 20_000;
/// Scores beyond this are proven wins or losses.
pub const WIN_BOUND: i32 = WIN - 1_000;
const INFINITY: i32 = WIN + 1;
const MAX_PLY: usize = 128;
/// Most iterations of iterative deepening.
const MAX_DEPTH: i32 = 60;

/// Convert a score to table form (win distances from this node, not from the root).
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// True for a proven win or loss score.
pub fn is_decisive(score: i32) -> bool {
    score.abs() >= WIN_BOUND
}

/// Hash of board plus side to move.
fn node_key(board: &Board, to_move: Color) -> u64 {
    match to_move {
        Color::Black => board.hash(),
        Color::White => board.hash() ^ 0x9D39_247E_3377_6D41,
    }
}

/// State shared by all threads of one search.
struct Shared {
    stop: AtomicBool,
    nodes: AtomicU64,
    /// The main thread's current best root move (square index + 1; 0: none yet), for the
    /// threat thread to check.
    candidate: AtomicU32,
    /// Root moves after which the threat thread found a VCT for the opponent.
    refuted: Mutex<Vec<Pos>>,
    /// Set when `refuted` grows: the main thread restarts its iteration without them.
    refuted_changed: AtomicBool,
}

impl Shared {
    fn new() -> Shared {
        Shared {
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            candidate: AtomicU32::new(0),
            refuted: Mutex::new(Vec::new()),
            refuted_changed: AtomicBool::new(false),
        }
    }

    fn refuted(&self) -> Vec<Pos> {
        self.refuted.lock().map(|r| r.clone()).unwrap_or_default()
    }
}

/// Attacker moves tried by the VCF at the leaves.
const LEAF_VCF_DEPTH: u32 = 8;
/// Most four-moves tried by one leaf VCF (keeps quiescence cheap and bounded).
const LEAF_VCF_NODES: u32 = 200;
/// Win distance assumed for a leaf VCF (its exact length is not tracked).
const LEAF_VCF_PLIES: i32 = 2 * LEAF_VCF_DEPTH as i32 + 1;

/// Most attacker moves in our own VCT at the root (the main thread's slice or the threat
/// thread). Game VCTs run long: the quintet set's longest needs 17.
const ROOT_VCT_MOVES: u32 = 24;
/// Most attacker moves in the opponent's VCT after a candidate root move (threat thread).
const REPLY_VCT_MOVES: u32 = 12;

/// One thread's search state.
struct Worker<'a> {
    board: SearchBoard,
    rule: Rule,
    tt: &'a TranspositionTable,
    shared: &'a Shared,
    external_stop: &'a AtomicBool,
    limits: &'a Limits,
    main: bool,
    nodes: u64,
    stopped: bool,
    analyses: Vec<NodeAnalysis>,
    killers: [[Option<Pos>; 2]; MAX_PLY],
    history: Box<[[i32; crate::board::CELL_SLOTS]; 2]>,
    root_best: Option<Pos>,
    /// Four-moves the current leaf VCF may still try.
    vcf_budget: u32,
    /// Root moves not to search (they lose to an opponent VCT), unless nothing else is left.
    excluded: Vec<Pos>,
    /// The current iteration was abandoned because `excluded` must grow (not a real stop).
    interrupted: bool,
}

impl<'a> Worker<'a> {
    fn new(
        position: &Position,
        tt: &'a TranspositionTable,
        shared: &'a Shared,
        external_stop: &'a AtomicBool,
        limits: &'a Limits,
        main: bool,
    ) -> Self {
        let tables = PatternTables::new(position.rule());
        Worker {
            board: SearchBoard::new(position.board().clone(), tables),
            rule: position.rule(),
            tt,
            shared,
            external_stop,
            limits,
            main,
            nodes: 0,
            stopped: false,
            analyses: (0..MAX_PLY).map(|_| NodeAnalysis::default()).collect(),
            killers: [[None; 2]; MAX_PLY],
            history: Box::new([[0; crate::board::CELL_SLOTS]; 2]),
            root_best: None,
            vcf_budget: 0,
            excluded: Vec::new(),
            interrupted: false,
        }
    }

    fn check_stop(&mut self) {
        if self.shared.stop.load(Ordering::Relaxed) || self.external_stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if self.main {
            if self.shared.refuted_changed.load(Ordering::Relaxed) {
                // Not a stop: the iteration restarts without the refuted root move.
                self.stopped = true;
                self.interrupted = true;
                return;
            }
            if self.limits.elapsed() >= self.limits.maximum {
                self.stopped = true;
            }
            if let Some(max) = self.limits.max_nodes {
                if self.shared.nodes.load(Ordering::Relaxed) + self.nodes >= max {
                    self.stopped = true;
                }
            }
            if self.stopped {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        // Nodes cost a few microseconds each: this checks the clock every ~0.5 ms.
        if self.nodes & 127 == 0 {
            self.check_stop();
        }
    }

    fn flush_nodes(&mut self) {
        self.shared.nodes.fetch_add(self.nodes, Ordering::Relaxed);
        self.nodes = 0;
    }

    /// Order candidates: TT move, then by score (threats first), killers and history.
    fn order(&self, moves: &mut [Candidate], tt_move: Option<Pos>, ply: usize, me: Color) {
        let killers = self.killers[ply.min(MAX_PLY - 1)];
        let hist = &self.history[me.index()];
        for m in moves.iter_mut() {
            if m.score == i32::MIN {
                continue;
            }
            if Some(m.pos) == tt_move {
                m.score = i32::MAX - 1;
            } else if m.my_threat() < Threat::Three && m.their_threat() < Threat::Three {
                if killers[0] == Some(m.pos) {
                    m.score += 300;
                } else if killers[1] == Some(m.pos) {
                    m.score += 200;
                }
                m.score += hist[m.pos.index()].min(2_000) / 16;
            }
        }
        // Stable and total: score, then square.
        moves.sort_unstable_by(|a, b| b.score.cmp(&a.score).then(a.pos.cmp(&b.pos)));
    }

    /// Does `me` (to move, with no five of the opponent pending) win by continuous fours
    /// within `depth` attacker moves? Works on the worker's board in place.
    fn leaf_vcf(&mut self, me: Color, depth: u32) -> bool {
        let opp = me.opponent();
        let rows = crate::board::geometry::candidate_rows(&self.board);
        let mut fours: arrayvec::ArrayVec<Pos, 64> = arrayvec::ArrayVec::new();
        let mut their_five: Option<Pos> = None;
        let mut their_fives = 0;
        for (y, &row) in rows.iter().enumerate().take(self.board.height()) {
            let mut bits = row;
            while bits != 0 {
                let x = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let pos = Pos::new(x, y);
                let mine = crate::pattern::PatternCounts::of(&self.board.patterns(pos, me));
                if mine.f5 > 0 {
                    return true;
                }
                if self
                    .board
                    .patterns(pos, opp)
                    .contains(&crate::pattern::Pattern::F5)
                {
                    their_fives += 1;
                    their_five = Some(pos);
                }
                if mine.f4 + mine.b4 > 0 && !fours.is_full() {
                    fours.push(pos);
                }
            }
        }
        if their_fives >= 2 || depth == 0 {
            return false;
        }
        for pos in fours {
            if let Some(must) = their_five {
                if pos != must {
                    continue;
                }
            }
            if self.vcf_budget == 0 {
                return false;
            }
            self.vcf_budget -= 1;
            self.count_node();
            if self.stopped {
                return false;
            }
            if self.rule.has_fouls_for(me)
                // Exact check for every four: a lone F4 line can be a one-line double four.
                && crate::rules::renju_foul(self.board.probe(), pos).is_some()
            {
                continue;
            }
            self.board.place(pos, Cell::Stone(me));
            // Where does the four complete?
            let mut completion = None;
            let mut completions = 0;
            // The four completes on an empty square of a line through `pos`.
            for q in crate::board::geometry::line_neighbours(&self.board, pos) {
                if self
                    .board
                    .patterns(q, me)
                    .contains(&crate::pattern::Pattern::F5)
                {
                    completions += 1;
                    completion = Some(q);
                }
            }
            let win = match (completions, completion) {
                (0, _) | (_, None) => false,
                (1, Some(block)) => {
                    if self.rule.has_fouls_for(opp)
                        && crate::rules::renju_foul(self.board.probe(), block).is_some()
                    {
                        true
                    } else {
                        self.board.place(block, Cell::Stone(opp));
                        let w = self.leaf_vcf(me, depth - 1);
                        self.board.remove(block);
                        w
                    }
                }
                _ => true,
            };
            self.board.remove(pos);
            if win {
                return true;
            }
        }
        false
    }

    fn search(
        &mut self,
        to_move: Color,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv: &mut Vec<Pos>,
    ) -> i32 {
        pv.clear();
        self.count_node();
        if self.stopped {
            return 0;
        }
        let pv_node = beta - alpha > 1;
        // Mate distance pruning.
        alpha = alpha.max(-WIN + ply as i32);
        beta = beta.min(WIN - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        if self.board.stone_count() >= self.board.area() || ply >= MAX_PLY - 2 {
            return 0;
        }
        let me = to_move;
        // The table first: a cut-off here saves the node analysis, the costliest step.
        let key = node_key(&self.board, me);
        let mut tt_move = None;
        if let Some(hit) = self.tt.probe(key) {
            tt_move = hit.best.map(|i| Pos::from_index(i as usize));
            let score = from_tt(hit.score, ply);
            if !pv_node && hit.depth >= depth {
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    return score;
                }
            }
        }
        let mut analysis = std::mem::take(&mut self.analyses[ply]);
        analyse(&mut self.board, me, self.rule, &mut analysis);
        let result = self.search_node(
            me,
            depth,
            alpha,
            beta,
            ply,
            pv,
            pv_node,
            &mut analysis,
            key,
            tt_move,
        );
        self.analyses[ply] = analysis;
        result
    }

    #[allow(clippy::too_many_arguments)]
    fn search_node(
        &mut self,
        me: Color,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        pv: &mut Vec<Pos>,
        _pv_node: bool,
        a: &mut NodeAnalysis,
        key: u64,
        tt_move: Option<Pos>,
    ) -> i32 {
        if let Some(five) = a.my_five {
            pv.push(five);
            return WIN - ply as i32 - 1;
        }
        if a.their_fives.len() >= 2 {
            return -(WIN - ply as i32 - 2);
        }
        let forced = a.their_fives.first().copied();
        if let Some(block) = forced {
            // Only the block; a forbidden block loses.
            let Some(c) = a
                .moves
                .iter()
                .find(|m| m.pos == block && m.score != i32::MIN)
            else {
                return -(WIN - ply as i32 - 2);
            };
            let _ = c;
        } else if let Some(open_four) = a.my_open_four {
            pv.push(open_four);
            return WIN - ply as i32 - 3;
        }
        if depth <= 0 && forced.is_none() {
            // Quiescence: a quick VCF for the side to move decides tactical leaves.
            self.vcf_budget = LEAF_VCF_NODES;
            if a.my_four_moves && self.leaf_vcf(me, LEAF_VCF_DEPTH) {
                return WIN - ply as i32 - LEAF_VCF_PLIES;
            }
            return a.eval;
        }
        // Which moves to search.
        let mut moves: Vec<Candidate> = if let Some(block) = forced {
            a.moves.iter().copied().filter(|m| m.pos == block).collect()
        } else if a.their_open_four_moves {
            // Defend the open three (squares where they would make a four) or counter with
            // a four of our own.
            a.moves
                .iter()
                .copied()
                .filter(|m| {
                    m.score != i32::MIN
                        && (m.theirs.f4 + m.theirs.b4 > 0 || m.mine.f4 + m.mine.b4 > 0)
                })
                .collect()
        } else {
            a.moves
                .iter()
                .copied()
                .filter(|m| m.score != i32::MIN)
                .collect()
        };
        if moves.is_empty() {
            // Nothing legal near the stones (every candidate forbidden): no proof either way.
            return a.eval;
        }
        if ply == 0 && moves.iter().any(|m| !self.excluded.contains(&m.pos)) {
            moves.retain(|m| !self.excluded.contains(&m.pos));
        }
        self.order(&mut moves, tt_move, ply, me);
        // Keep the tree narrow: the heuristic ordering is good, late quiet moves rarely matter.
        // Measured: without this cut (renju, self-play tc 5/0.5, one game at a time) the
        // engine lost an SPRT [0, 10] to itself, Elo -159.9 +-61.0 over 158 games.
        let width = match depth {
            d if d >= 8 => 24,
            d if d >= 5 => 18,
            d if d >= 3 => 14,
            _ => 10,
        };
        if forced.is_none() && !a.their_open_four_moves && moves.len() > width {
            moves.truncate(width);
        }
        let orig_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut child_pv = Vec::with_capacity(32);
        let new_depth = if forced.is_some() { depth } else { depth - 1 };
        for (i, m) in moves.iter().enumerate() {
            let pos = m.pos;
            self.board.place(pos, Cell::Stone(me));
            let quiet = m.my_threat() < Threat::Three && m.their_threat() < Threat::Three;
            let mut score;
            if i == 0 {
                score = -self.search(
                    me.opponent(),
                    new_depth,
                    -beta,
                    -alpha,
                    ply + 1,
                    &mut child_pv,
                );
            } else {
                // Late-move reductions for quiet moves. Measured: without them (renju,
                // self-play tc 5/0.5) the engine lost an SPRT [0, 10] to itself, Elo
                // -46.8 +-26.3 over 680 games.
                let reduction = if quiet && depth >= 3 && i >= 3 {
                    1 + i32::from(i >= 8)
                } else {
                    0
                };
                score = -self.search(
                    me.opponent(),
                    new_depth - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    &mut child_pv,
                );
                if score > alpha && (reduction > 0 || score < beta) {
                    score = -self.search(
                        me.opponent(),
                        new_depth,
                        -beta,
                        -alpha,
                        ply + 1,
                        &mut child_pv,
                    );
                }
            }
            self.board.remove(pos);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(pos);
                if ply == 0 {
                    self.root_best = Some(pos);
                }
                if score > alpha {
                    alpha = score;
                    pv.clear();
                    pv.push(pos);
                    pv.extend_from_slice(&child_pv);
                    if score >= beta {
                        if quiet {
                            let k = &mut self.killers[ply.min(MAX_PLY - 1)];
                            if k[0] != Some(pos) {
                                k[1] = k[0];
                                k[0] = Some(pos);
                            }
                            let h = &mut self.history[me.index()][pos.index()];
                            *h += depth * depth;
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            key,
            best_move.map(|p| p.index() as u16),
            to_tt(best, ply),
            depth,
            bound,
        );
        best
    }
}

/// The alpha-beta searcher, holding the shared transposition table.
pub struct AlphaBetaSearcher {
    tt: Arc<TranspositionTable>,
    threads: usize,
    /// Try VCF/VCT at the root before the main search.
    pub use_threat_solvers: bool,
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
    /// optimum time (see [`threat_share`]); or fixed node budgets when the search is
    /// bounded by depth or nodes, so that bench and fixed-node play stay deterministic.
    /// With only a per-move limit (see [`Limits::unused_is_lost`]) the VCT may go on until
    /// the main search's reserve (see [`main_reserve`]) is all that is left of the move.
    ///
    /// Returns the win found, and whether such a long VCT ran out of time unfinished (the
    /// main search then has the rest of the move).
    fn root_threats(
        &self,
        position: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        nodes: &mut u64,
        with_vct: bool,
    ) -> (Option<Vec<Pos>>, bool) {
        let me = position.to_move();
        // With a depth or node limit the solvers get node budgets (deterministic for bench
        // and fixed-node play); otherwise a share of the optimum time. The hard time limit
        // applies in every case.
        let optimum = limits.optimum.min(limits.maximum);
        let share = optimum.mul_f64(threat_share(optimum));
        let deadline = limits.start + limits.elapsed() + share;
        let (vcf_nodes, vct_nodes) = if let Some(n) = limits.max_nodes {
            ((n / 4).max(1_000), (n / 4).max(1_000))
        } else if let Some(d) = limits.max_depth {
            let d = u64::from(d.min(12));
            (20_000 * d, 5_000 * d)
        } else {
            if share < Duration::from_millis(2) {
                return (None, false);
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
        let found = solver.vcf();
        *nodes += solver.nodes();
        log::debug!(
            "root VCF {} at {:?} (threat share {share:?})",
            if found.is_some() { "won" } else { "failed" },
            limits.elapsed()
        );
        if found.is_some() || !with_vct {
            return (found, false);
        }
        let long =
            limits.unused_is_lost && limits.max_nodes.is_none() && limits.max_depth.is_none();
        let vct_deadline = if long {
            limits.start + limits.maximum.saturating_sub(main_reserve(optimum, share))
        } else {
            deadline
        };
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
        .with_deadline(vct_deadline);
        let found = solver.vct();
        *nodes += solver.nodes();
        let ran_out = found.is_none() && solver.aborted();
        log::debug!(
            "root VCT {} at {:?}",
            match (found.is_some(), ran_out) {
                (true, _) => "won",
                (false, true) => "ran out",
                (false, false) => "found no win",
            },
            limits.elapsed()
        );
        (found, long && ran_out)
    }
}

impl Searcher for AlphaBetaSearcher {
    fn search(
        &mut self,
        position: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchOutcome {
        let mut shared = Shared::new();
        let tt: &TranspositionTable = &self.tt;
        let me = position.to_move();
        // Immediate decisions first.
        let tables = PatternTables::new(position.rule());
        let mut scratch = SearchBoard::new(position.board().clone(), tables);
        let mut root = NodeAnalysis::default();
        let mut threat_nodes = 0u64;
        analyse(&mut scratch, me, position.rule(), &mut root);
        let legal: Vec<Pos> = root
            .moves
            .iter()
            .filter(|m| m.score != i32::MIN)
            .map(|m| m.pos)
            .collect();
        let quick = |best: Pos, score: i32, pv: Vec<Pos>| SearchOutcome {
            best,
            score,
            depth: 1,
            nodes: 1,
            pv,
        };
        if let Some(five) = root.my_five {
            return quick(five, WIN - 1, vec![five]);
        }
        if legal.len() == 1 {
            return quick(legal[0], root.eval, vec![legal[0]]);
        }
        if let Some(&block) = root.their_fives.first() {
            if legal.contains(&block) {
                if root.their_fives.len() == 1 && legal.len() > 1 {
                    // Forced, but search anyway to get a score; fall through.
                } else {
                    return quick(block, -(WIN - 2), vec![block]);
                }
            }
        }
        if root.their_fives.is_empty() {
            if let Some(four) = root.my_open_four {
                return quick(four, WIN - 3, vec![four]);
            }
        }
        // With two or more threads (and no depth or node bound, which must stay
        // deterministic) one thread runs the VCT instead of a slice of the main thread's
        // time before it, then checks the main thread's choices and helps its search.
        let dedicated_vct = self.use_threat_solvers
            && self.threads >= 2
            && root.their_fives.is_empty()
            && limits.max_nodes.is_none()
            && limits.max_depth.is_none();
        let mut long_vct_ran_out = false;
        if root.their_fives.is_empty() && self.use_threat_solvers {
            let (found, ran_out) =
                self.root_threats(position, limits, stop, &mut threat_nodes, !dedicated_vct);
            long_vct_ran_out = ran_out;
            if let Some(line) = found {
                let len = line.len() as i32;
                return SearchOutcome {
                    best: line[0],
                    score: WIN - len,
                    depth: len as u32,
                    nodes: threat_nodes,
                    pv: line,
                };
            }
        }
        // After a root VCT that had all but the main search's reserve of the move (only a
        // per-move limit) and ran out, the main search has the rest: no later move can use
        // what it leaves, so it runs to the hard limit. So it does beside a threat thread
        // whose own VCT may then run to the hard limit too.
        let long_threat_thread = dedicated_vct && limits.unused_is_lost;
        let main_limits = Limits {
            optimum: if long_vct_ran_out || long_threat_thread {
                limits.maximum
            } else {
                limits.optimum
            },
            ..limits.clone()
        };
        let limits = &main_limits;
        // Threat-solver nodes count against a node limit too.
        *shared.nodes.get_mut() = threat_nodes;
        let max_depth = limits
            .max_depth
            .map_or(MAX_DEPTH, |d| (d as i32).clamp(1, MAX_DEPTH));
        let helpers = self.threads - 1 - usize::from(dedicated_vct);
        let mut main_result: Option<SearchOutcome> = None;
        let vct_line: std::sync::Mutex<Option<Vec<Pos>>> = std::sync::Mutex::new(None);
        std::thread::scope(|scope| {
            if dedicated_vct {
                let shared = &shared;
                let vct_line = &vct_line;
                scope.spawn_named(99, move || {
                    // Our own VCT first: for up to half the optimum time, or with only a
                    // per-move limit up to the hard limit (the main thread searches on
                    // meanwhile, to the hard limit as well).
                    let own_share = if long_threat_thread {
                        limits.maximum.saturating_sub(THREAT_THREAD_SLACK)
                    } else {
                        limits.optimum.min(limits.maximum) / 2
                    };
                    let mut solver = ThreatSolver::new(
                        position.board(),
                        position.rule(),
                        me,
                        ThreatLimits {
                            max_attacker_moves: ROOT_VCT_MOVES,
                            max_nodes: u64::MAX,
                        },
                    )
                    .with_stop(&shared.stop)
                    .with_deadline(limits.start + own_share);
                    let found = solver.vct();
                    shared.nodes.fetch_add(solver.nodes(), Ordering::Relaxed);
                    if let Some(line) = found {
                        if let Ok(mut slot) = vct_line.lock() {
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
                let shared = &shared;
                scope.spawn_named(t, move || {
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
            let mut w = Worker::new(position, tt, &shared, stop, limits, true);
            let mut best: Option<(Pos, i32, u32, Vec<Pos>)> = None;
            let mut pv = Vec::new();
            let mut previous_best: Option<Pos> = None;
            let mut stable_iterations = 0;
            let mut score_guess = 0;
            let mut depth = 0;
            while depth < max_depth {
                depth += 1;
                w.excluded = shared.refuted();
                // Aspiration window around the previous score.
                let mut delta = 60;
                let (mut lo, mut hi) = if depth >= 4 && !is_decisive(score_guess) {
                    (score_guess - delta, score_guess + delta)
                } else {
                    (-INFINITY, INFINITY)
                };
                let score = loop {
                    let s = w.search(me, depth, lo, hi, 0, &mut pv);
                    if w.stopped {
                        break s;
                    }
                    if s <= lo {
                        lo = (lo - delta).max(-INFINITY);
                    } else if s >= hi {
                        hi = (hi + delta).min(INFINITY);
                    } else {
                        break s;
                    }
                    delta *= 3;
                    if delta > 2_000 {
                        lo = -INFINITY;
                        hi = INFINITY;
                    }
                };
                w.flush_nodes();
                if w.interrupted {
                    // A root move was refuted: search this depth again without it.
                    w.interrupted = false;
                    w.stopped = false;
                    shared.refuted_changed.store(false, Ordering::Relaxed);
                    if limits.elapsed() < limits.maximum {
                        depth -= 1;
                        continue;
                    }
                    break;
                }
                if w.stopped && depth > 1 {
                    // Keep the last full iteration's move, unless this one already found a
                    // better move at the root (its first move was searched fully).
                    break;
                }
                if let Some(&first) = pv.first() {
                    best = Some((first, score, depth as u32, pv.clone()));
                } else if let Some(rb) = w.root_best {
                    best = Some((rb, score, depth as u32, vec![rb]));
                }
                if let Some(b) = &best {
                    shared
                        .candidate
                        .store(b.0.index() as u32 + 1, Ordering::Relaxed);
                }
                score_guess = score;
                let nodes = shared.nodes.load(Ordering::Relaxed);
                report(&SearchInfo {
                    depth: depth as u32,
                    score,
                    nodes,
                    elapsed: limits.elapsed(),
                    pv: pv.clone(),
                });
                if is_decisive(score) && depth >= 2 {
                    break;
                }
                let current = best.as_ref().map(|b| b.0);
                if current == previous_best {
                    stable_iterations += 1;
                } else {
                    stable_iterations = 0;
                }
                previous_best = current;
                // Time: stop early once the optimum is used; a little longer while the best
                // move keeps changing.
                let factor = if stable_iterations >= 3 {
                    0.6
                } else if stable_iterations == 0 {
                    1.4
                } else {
                    1.0
                };
                let target = limits.optimum.mul_f64(factor).min(limits.maximum);
                if limits.elapsed() >= target && limits.max_nodes.is_none() {
                    break;
                }
                if w.stopped {
                    break;
                }
            }
            shared.stop.store(true, Ordering::Relaxed);
            // The last full iteration's move may have been refuted since: then the first
            // move of the unfinished iteration (searched with a full window) replaces it.
            let refuted = shared.refuted();
            if let (Some(b), Some(rb)) = (&mut best, w.root_best) {
                if refuted.contains(&b.0) && !refuted.contains(&rb) {
                    *b = (rb, b.1, b.2, vec![rb]);
                }
            }
            let nodes = shared.nodes.load(Ordering::Relaxed);
            main_result = best.map(|(best, score, depth, pv)| SearchOutcome {
                best,
                score,
                depth,
                nodes,
                pv,
            });
        });
        let vct_line = vct_line.into_inner().ok().flatten();
        let nodes = shared.nodes.load(Ordering::Relaxed);
        if let Some(line) = vct_line {
            let len = line.len() as i32;
            return SearchOutcome {
                best: line[0],
                score: WIN - len,
                depth: len as u32,
                nodes,
                pv: line,
            };
        }
        main_result
            .map(|mut r| {
                r.nodes = nodes;
                r
            })
            .unwrap_or_else(|| {
                let fallback = legal
                    .first()
                    .copied()
                    .or_else(|| position.board().empty_positions().next())
                    .expect("an empty square");
                SearchOutcome {
                    best: fallback,
                    score: 0,
                    depth: 0,
                    nodes,
                    pv: vec![fallback],
                }
            })
    }

    fn clear(&mut self) {}
}

/// The part of the optimum time the root VCF and VCT may use before the main search (one
/// thread): a quarter at blitz speeds (up to 200 ms), rising to three quarters from 500 ms.
/// With little time the main search's depth matters most; with more, its depth grows
/// slowly while a longer VCT keeps finding wins (the quintet VCT set at 1 s per move: 37
/// published first moves with three quarters against 34 with a quarter).
fn threat_share(optimum: Duration) -> f64 {
    let ms = optimum.as_secs_f64() * 1000.0;
    0.25 + 0.5 * ((ms - 200.0) / 300.0).clamp(0.0, 1.0)
}

/// The part of the move that the main search keeps when only a per-move limit applies and
/// the root VCT may use the rest (see [`Limits::unused_is_lost`]): half of what the
/// optimum leaves after the VCF and VCT's usual share, at least [`MIN_MAIN_RESERVE`]. At 1 s
/// per move that gives the VCT 828 ms, run in one piece (a df-pn search cut short and
/// resumed takes a different, often longer path: vct_game_black_l11_3 took from 0.92 M to
/// 1.63 M nodes resumed, against 0.94 M in one piece). Positions where the VCT runs that
/// long are few in games (4 of 63 root VCTs at 1 s per move in a 6-game renju sample; most
/// end within milliseconds, and the main search then has the whole move) and rich in
/// threats.
fn main_reserve(optimum: Duration, share: Duration) -> Duration {
    (optimum.saturating_sub(share) / 2).max(MIN_MAIN_RESERVE)
}

/// Time the threat thread's own VCT leaves before the hard limit when it may run that far
/// (only a per-move limit): for building its line and freeing its tables (3 ms seen after
/// a 0.5 s VCT).
const THREAT_THREAD_SLACK: Duration = Duration::from_millis(10);

/// The shortest main search worth keeping time for after a long root VCT (see
/// [`main_reserve`]).
const MIN_MAIN_RESERVE: Duration = Duration::from_millis(40);

/// Time for the threat thread's look for an opponent VCT after one candidate root move: a
/// quarter of the optimum (at least 10 ms).
fn reply_check_time(limits: &Limits) -> Duration {
    (limits.optimum.min(limits.maximum) / 4).max(Duration::from_millis(10))
}

/// The threat thread's work once its own VCT has failed: check each new best root move of
/// the main thread for an opponent VCT in reply (a bounded look each; the moves that lose
/// to one are reported), and between checks help the main search as a Lazy SMP helper,
/// one iteration at a time.
fn check_and_help(
    position: &Position,
    tt: &TranspositionTable,
    shared: &Shared,
    stop: &AtomicBool,
    limits: &Limits,
    max_depth: i32,
) {
    let me = position.to_move();
    let mut checked: Vec<u32> = Vec::new();
    let mut helper = Worker::new(position, tt, shared, stop, limits, false);
    let mut pv = Vec::new();
    let mut depth = 1;
    while !shared.stop.load(Ordering::Relaxed)
        && !stop.load(Ordering::Relaxed)
        && limits.elapsed() < limits.maximum
    {
        let candidate = shared.candidate.load(Ordering::Relaxed);
        if candidate != 0 && !checked.contains(&candidate) {
            checked.push(candidate);
            check_reply(
                position,
                limits,
                shared,
                Pos::from_index(candidate as usize - 1),
            );
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

/// Look for an opponent VCT after our root move `pos`; report the move if one is found.
fn check_reply(position: &Position, limits: &Limits, shared: &Shared, pos: Pos) {
    let me = position.to_move();
    // A bounded look: a proof-number VCT that finds nothing would otherwise run to the hard
    // limit on the first candidate and never see the main thread's later choices.
    let deadline = (Instant::now() + reply_check_time(limits)).min(limits.start + limits.maximum);
    let mut board = position.board().clone();
    board.place(pos, Cell::Stone(me));
    let mut solver = ThreatSolver::new(
        &board,
        position.rule(),
        me.opponent(),
        ThreatLimits {
            max_attacker_moves: REPLY_VCT_MOVES,
            max_nodes: u64::MAX,
        },
    )
    .with_stop(&shared.stop)
    .with_deadline(deadline);
    let found = solver.vct();
    shared.nodes.fetch_add(solver.nodes(), Ordering::Relaxed);
    if found.is_some() {
        if let Ok(mut refuted) = shared.refuted.lock() {
            refuted.push(pos);
        }
        shared.refuted_changed.store(true, Ordering::Relaxed);
    }
}

/// Spawning helper threads with a large stack inside a scope.
trait SpawnNamed<'scope> {
    fn spawn_named<F: FnOnce() + Send + 'scope>(&'scope self, index: usize, f: F);
}

impl<'scope, 'env> SpawnNamed<'scope> for std::thread::Scope<'scope, 'env> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn main_reserve_is_half_of_what_the_optimum_leaves_after_the_threat_share() {
        // 1 s per move: optimum 736 ms, threat share 552 ms.
        assert_eq!(main_reserve(ms(736), ms(552)), ms(92));
        // Little left after the share: the shortest reserve.
        assert_eq!(main_reserve(ms(100), ms(25)), ms(40));
        assert_eq!(main_reserve(ms(100), ms(200)), ms(40));
    }
}
