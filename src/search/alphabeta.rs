//! One thread's principal-variation alpha-beta search: a [`Worker`] searches one iteration
//! to a given depth over the shared transposition table, with threat-aware move
//! generation, TT/killer/history ordering, late-move reductions, a move-count cut and a
//! leaf-VCF quiescence. Iterative deepening is in [`super::driver`], the threads in
//! [`super::pool`].
//!
//! Scores are for the side to move (see [`super::score`]).

use super::board::SearchBoard;
use super::node::{analyse, locality_class, Candidate, NodeAnalysis, NEAR_OPPONENT, NEAR_OWN};
use super::pool::Shared;
use super::root::RootMoves;
use super::score::{from_tt, to_tt, INFINITY, WIN, WIN_BOUND};
use super::tt::{Bound, TranspositionTable};
use super::vcf::{Spot, Ticker, Vcf, VcfTables};
use super::{Limits, RealtimeSink, RootEvent, REALTIME_AFTER, REALTIME_FROM_DEPTH};
use crate::board::{Board, Cell, Color, Pos};
use crate::pattern::{PatternTables, Threat};
use crate::position::Position;
use crate::rules::Rule;
use std::sync::atomic::{AtomicBool, Ordering};

const MAX_PLY: usize = 128;
/// Most iterations of iterative deepening.
pub(super) const MAX_DEPTH: i32 = 60;

/// Hash of board plus side to move.
fn node_key(board: &Board, to_move: Color) -> u64 {
    match to_move {
        Color::Black => board.hash(),
        Color::White => board.hash() ^ 0x9D39_247E_3377_6D41,
    }
}

/// From this move on (0-based, in order) a late move that makes or meets a three is
/// reduced one ply: twice the quiet moves' start of 3, a first guess kept untuned. Alone
/// +18.0 ± 28 over 540 self-play games (undecided); with the leaf's stand pat, H1 at
/// +42.9 ± 35.1 over 358 games (`bench/elo-log.md`).
const LATE_THREAT_MOVE: usize = 6;
/// Attacker moves tried by the VCF at the leaves.
const LEAF_VCF_DEPTH: u32 = 8;
/// Most nodes of one leaf VCF (keeps quiescence cheap and bounded).
const LEAF_VCF_NODES: u64 = 200;
/// Reverse futility: the deepest depth it applies at (Rapfi's futility runs to about
/// this depth, `../shared/strength-notes.md` §3).
const RFP_MAX_DEPTH: i32 = 6;
/// Reverse futility's margin a ply, in evaluation points (3000 = one logit of winning
/// chance): Rapfi's 63 a ply at its scale of 250 is 0.25 logit, 756 here, rounded up.
/// Measured as is (self-play SPRT [0, 20], tc=8/0.5+0.05): +50.9 +-35.8 over 344 games.
const RFP_MARGIN: i32 = 800;
/// Win distance assumed for a leaf VCF (its exact length is not tracked).
const LEAF_VCF_PLIES: i32 = 2 * LEAF_VCF_DEPTH as i32 + 1;

/// One thread's search state.
pub(super) struct Worker<'a> {
    board: SearchBoard,
    rule: Rule,
    tt: &'a TranspositionTable,
    shared: &'a Shared,
    external_stop: &'a AtomicBool,
    limits: &'a Limits,
    main: bool,
    nodes: u64,
    /// The search was stopped (or interrupted): the last result is incomplete.
    pub(super) stopped: bool,
    analyses: Vec<NodeAnalysis>,
    /// Each ply's move list and child line, kept between nodes so that a node allocates
    /// nothing.
    buffers: Vec<PlyBuffers>,
    killers: [[Option<Pos>; 2]; MAX_PLY],
    history: Box<[[i32; crate::board::CELL_SLOTS]; 2]>,
    /// The best root move of the current iteration so far.
    pub(super) root_best: Option<Pos>,
    /// The leaf VCF's failure table and buffers.
    vcf: VcfTables,
    /// Root moves not to search (they lose to an opponent VCT), unless nothing else is left.
    pub(super) excluded: Vec<Pos>,
    /// The current iteration was abandoned because `excluded` must grow (not a real stop).
    pub(super) interrupted: bool,
    /// The main thread's root move list: every root move's result is recorded here.
    pub(super) root_moves: RootMoves,
    /// The side to move at the root.
    root_color: Color,
    /// Deepest ply reached since the last [`Worker::take_seldepth`].
    seldepth: usize,
    /// Quiescence leaves are scored from the candidates with a threat instead of a full
    /// node analysis: the learned evaluation is on and no colour has forbidden
    /// moves (see [`Worker::quiet_leaf`]).
    marked_leaves: bool,
    /// The static evaluation of the node at each ply of the current line (for the side
    /// to move there), `None` where the side to move faced a five.
    static_evals: [Option<i32>; MAX_PLY],
    /// Root moves this search leaves out: blocked ones, and with multi-PV the lines the
    /// iteration already has. When nothing else is left at the root, every other legal
    /// move is searched; when nothing at all is left, the root returns [`NO_MOVE`].
    pub(super) root_filter: Vec<Pos>,
    /// The moves that led to each ply: `path[ply + 2]` is the move made at `ply`, and the
    /// first two are the game's last two moves before the root (see [`locality_class`]).
    path: [Option<Pos>; MAX_PLY + 2],
    /// Order moves by their distance to the last two moves as well (with the learned
    /// ordering only: the constants are on its scale).
    locality: bool,
}

/// A node's move list and its children's principal variation, reused from node to node.
#[derive(Default)]
struct PlyBuffers {
    moves: Vec<Candidate>,
    child_pv: Vec<Pos>,
}

/// What the root returns when every move is filtered out (multi-PV has no line left).
pub(super) const NO_MOVE: i32 = -INFINITY;

impl<'a> Worker<'a> {
    /// A worker on `position`; the `main` one checks the clock and node limit, stops the
    /// others and records root results.
    pub(super) fn new(
        position: &Position,
        tt: &'a TranspositionTable,
        shared: &'a Shared,
        external_stop: &'a AtomicBool,
        limits: &'a Limits,
        main: bool,
    ) -> Self {
        let tables = PatternTables::new(position.rule());
        let mut board = SearchBoard::with_weights(
            position.board().clone(),
            tables,
            limits.evaluator.weights_for(position.rule()),
        );
        board.set_learned_ordering(limits.ordering == super::MoveOrdering::Learned);
        let rule = position.rule();
        let marked_leaves = board.learned().is_some()
            && !rule.has_fouls_for(Color::Black)
            && !rule.has_fouls_for(Color::White);
        Worker {
            marked_leaves,
            board,
            rule,
            tt,
            shared,
            external_stop,
            limits,
            main,
            nodes: 0,
            stopped: false,
            analyses: (0..MAX_PLY).map(|_| NodeAnalysis::default()).collect(),
            buffers: (0..MAX_PLY).map(|_| PlyBuffers::default()).collect(),
            killers: [[None; 2]; MAX_PLY],
            history: Box::new([[0; crate::board::CELL_SLOTS]; 2]),
            root_best: None,
            vcf: VcfTables::default(),
            excluded: Vec::new(),
            interrupted: false,
            root_moves: RootMoves::default(),
            root_color: position.to_move(),
            seldepth: 0,
            root_filter: Vec::new(),
            static_evals: [None; MAX_PLY],
            path: {
                let mut path = [None; MAX_PLY + 2];
                let h = position.history();
                path[1] = h.last().copied();
                path[0] = h.len().checked_sub(2).map(|i| h[i]);
                path
            },
            locality: limits.ordering == super::MoveOrdering::Learned,
        }
    }

    /// The deepest ply reached since the last call (the selective depth), and start over.
    pub(super) fn take_seldepth(&mut self) -> u32 {
        std::mem::take(&mut self.seldepth) as u32
    }

    /// The side to move at the root.
    pub(super) fn root_color(&self) -> Color {
        self.root_color
    }

    /// The realtime sink, if root events are due in an iteration of `depth`.
    pub(super) fn realtime_sink(&self, depth: i32) -> Option<RealtimeSink> {
        let sink = self.limits.realtime.as_ref()?;
        (depth >= REALTIME_FROM_DEPTH && self.limits.elapsed() >= REALTIME_AFTER)
            .then(|| sink.clone())
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
            if self.limits.clock.past_maximum() {
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

    /// Count `n` nodes at once (a leaf VCF's), checking the clock as often as one by one.
    #[inline]
    fn count_nodes(&mut self, n: u64) {
        let before = self.nodes;
        self.nodes += n;
        if before >> 7 != self.nodes >> 7 {
            self.check_stop();
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

    /// Add this worker's nodes to the shared count.
    pub(super) fn flush_nodes(&mut self) {
        self.shared.nodes.fetch_add(self.nodes, Ordering::Relaxed);
        self.nodes = 0;
    }

    /// Order candidates: TT move, then by score (threats first), killers and history; with
    /// `keep`, only the first `keep` are kept (the others are not sorted).
    fn order(
        &self,
        moves: &mut Vec<Candidate>,
        keep: Option<usize>,
        tt_move: Option<Pos>,
        ply: usize,
        me: Color,
    ) {
        let killers = self.killers[ply.min(MAX_PLY - 1)];
        let hist = &self.history[me.index()];
        let (their_last, my_last) = (self.path[ply + 1], self.path[ply]);
        for m in moves.iter_mut() {
            if m.score == i32::MIN {
                continue;
            }
            if self.locality {
                m.score += NEAR_OPPONENT[locality_class(m.pos, their_last)]
                    + NEAR_OWN[locality_class(m.pos, my_last)];
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
        // Total (score, then square): the kept moves and their order are those of a full
        // sort cut to `keep`.
        let by_order = |a: &Candidate, b: &Candidate| b.score.cmp(&a.score).then(a.pos.cmp(&b.pos));
        if let Some(keep) = keep.filter(|&k| k > 0 && moves.len() > k) {
            moves.select_nth_unstable_by(keep - 1, by_order);
            moves.truncate(keep);
        }
        moves.sort_unstable_by(by_order);
    }

    /// The root's moves after [`Worker::order`], by what the earlier iterations found: the
    /// table's move first (the last iteration's best), then the moves with a recorded
    /// score, highest first (most are the upper bounds of a zero-window search, which
    /// still tell a near miss from a clear refutation), then the moves not searched yet,
    /// each group in the static order (a stable sort). Stockfish orders its root moves by
    /// the previous iteration's scores the same way; the static order alone re-reduces
    /// every iteration's late moves whatever they scored.
    fn order_root(&self, moves: &mut [Candidate], tt_move: Option<Pos>) {
        moves.sort_by_key(|m| {
            if Some(m.pos) == tt_move {
                return (0, 0);
            }
            match self.root_moves.get(m.pos) {
                Some(r) if r.depth > 0 => (1, -i64::from(r.score)),
                _ => (2, 0),
            }
        });
    }

    /// A quiescence leaf (`me` to move) scored as [`Worker::search_node`] scores it after
    /// a full analysis, looking closer only at the candidates where the pattern cache
    /// shows a threat of some kind for either side
    /// ([`crate::pattern::PatternCache::threatens`]): the strongest combinations, the
    /// fives, the open fours and the fours (in the same row-major order) are all there,
    /// and the learned evaluation needs nothing else where no move is forbidden. `None`
    /// when the opponent has exactly one five to block: that leaf searches the block,
    /// which takes the full analysis. An evaluation at or above `beta` stands (see
    /// [`Worker::search_node`]'s quiescence).
    fn quiet_leaf(&mut self, me: Color, ply: usize, beta: i32, pv: &mut Vec<Pos>) -> Option<i32> {
        let opp = me.opponent();
        let rows = crate::board::geometry::candidate_rows(&self.board);
        let state = self
            .board
            .learned()
            .expect("marked leaves need the learned state");
        let cache = self.board.pattern_cache();
        let mut threats = super::eval::EvalFeatures::default();
        let (mut my_five, mut my_open_four) = (None, None);
        let mut their_fives = 0;
        let fours = self.vcf.given();
        for (y, &row) in rows.iter().enumerate().take(self.board.height()) {
            let mut bits = row;
            while bits != 0 {
                let x = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let pos = Pos::new(x, y);
                if !cache.threatens(pos) {
                    continue;
                }
                let (mine, theirs) = (state.counts(pos, me), state.counts(pos, opp));
                let (my_threat, their_threat) = (mine.threat(), theirs.threat());
                threats.add_threats(my_threat, their_threat);
                match my_threat {
                    Threat::Five => {
                        my_five.get_or_insert(pos);
                    }
                    Threat::OpenFour => {
                        my_open_four.get_or_insert(pos);
                    }
                    _ => {}
                }
                their_fives += usize::from(their_threat == Threat::Five);
                if mine.f4 + mine.b4 > 0 {
                    fours.push(Spot { pos, counts: mine });
                }
            }
        }
        if let Some(five) = my_five {
            pv.push(five);
            return Some(WIN - ply as i32 - 1);
        }
        match their_fives {
            0 => {}
            1 => return None,
            _ => return Some(-(WIN - ply as i32 - 2)),
        }
        if let Some(open_four) = my_open_four {
            pv.push(open_four);
            return Some(WIN - ply as i32 - 3);
        }
        let eval = super::node::learned_eval(state, me, &[], &threats);
        if eval >= beta {
            return Some(eval);
        }
        if !fours.is_empty() && self.leaf_vcf_given(me) {
            return Some(WIN - ply as i32 - LEAF_VCF_PLIES);
        }
        Some(eval)
    }

    /// Does `me` (to move, with no five for either side on the board) win by continuous
    /// fours within [`LEAF_VCF_DEPTH`] attacker moves, within [`LEAF_VCF_NODES`] nodes?
    /// The engine's one VCF ([`Vcf`]) on the worker's board in place, its failure table
    /// kept from leaf to leaf; its fours are given in the tables' spot buffer
    /// ([`VcfTables::given`]), every square where `me` makes one.
    fn leaf_vcf_given(&mut self, me: Color) -> bool {
        let mut ticker = Ticker::new(LEAF_VCF_NODES);
        let won = Vcf {
            board: &mut self.board,
            tables: &mut self.vcf,
            ticker: &mut ticker,
            rule: self.rule,
            attacker: me,
        }
        .solve_given(LEAF_VCF_DEPTH);
        self.count_nodes(ticker.nodes);
        won
    }

    /// [`Worker::leaf_vcf_given`] at a node whose analysis `a` is at hand (`me` to move, no
    /// five for either side): its fours are the analysis' own.
    fn leaf_vcf_at(&mut self, me: Color, a: &NodeAnalysis) -> bool {
        let board = &self.board;
        let given = self.vcf.given();
        for m in &a.moves {
            // A square forbidden to us carries no patterns in the analysis: its fours
            // are looked up (the VCF then refuses the square).
            let mine = if m.score == i32::MIN {
                crate::pattern::PatternCounts::of(&board.patterns(m.pos, me))
            } else {
                m.mine
            };
            if mine.f4 + mine.b4 > 0 {
                given.push(Spot {
                    pos: m.pos,
                    counts: mine,
                });
            }
        }
        self.leaf_vcf_given(me)
    }

    /// Search the position to `depth` within the window, from `ply`; `pv` receives the
    /// principal variation.
    pub(super) fn search(
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
        self.seldepth = self.seldepth.max(ply + 1);
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
        if depth <= 0 && ply > 0 && self.marked_leaves {
            if let Some(score) = self.quiet_leaf(me, ply, beta, pv) {
                return score;
            }
        }
        let mut analysis = std::mem::take(&mut self.analyses[ply]);
        analyse(&mut self.board, me, self.rule, &mut analysis);
        let mut buffers = std::mem::take(&mut self.buffers[ply]);
        let result = self.search_node(
            me,
            depth,
            alpha,
            beta,
            ply,
            pv,
            pv_node,
            &mut analysis,
            &mut buffers,
            key,
            tt_move,
        );
        self.analyses[ply] = analysis;
        self.buffers[ply] = buffers;
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
        pv_node: bool,
        a: &mut NodeAnalysis,
        buffers: &mut PlyBuffers,
        key: u64,
        tt_move: Option<Pos>,
    ) -> i32 {
        // At a root with filtered moves (multi-PV, blocks) the shortcuts below may not
        // answer with a filtered move, and a lost root still gets its moves searched.
        let filtering = ply == 0 && !self.root_filter.is_empty();
        let allowed = |p: Pos| !filtering || !self.root_filter.contains(&p);
        if let Some(five) = a.my_five.filter(|&p| allowed(p)) {
            pv.push(five);
            return WIN - ply as i32 - 1;
        }
        if a.their_fives.len() >= 2 && !filtering {
            return -(WIN - ply as i32 - 2);
        }
        let forced = a.their_fives.first().copied();
        self.static_evals[ply] = forced.is_none().then_some(a.eval);
        // Improving: better than two plies ago, for the same side (true where unknown).
        let improving = match (ply.checked_sub(2).map(|p| self.static_evals[p]), forced) {
            (Some(Some(before)), None) => a.eval > before,
            _ => true,
        };
        if let Some(block) = forced {
            // Only the block; a forbidden block loses.
            let legal = a
                .moves
                .iter()
                .any(|m| m.pos == block && m.score != i32::MIN);
            if !legal && !filtering {
                return -(WIN - ply as i32 - 2);
            }
        } else if let Some(open_four) = a.my_open_four.filter(|&p| allowed(p)) {
            pv.push(open_four);
            return WIN - ply as i32 - 3;
        }
        if depth <= 0 && forced.is_none() {
            // Quiescence: an evaluation at or above beta stands (a VCF could only raise
            // it: Rapfi's VCF search and PentaZen's leaves stand pat the same way);
            // below it, a quick VCF for the side to move decides tactical leaves.
            if a.eval >= beta {
                return a.eval;
            }
            if a.my_four_moves && self.leaf_vcf_at(me, a) {
                return WIN - ply as i32 - LEAF_VCF_PLIES;
            }
            return a.eval;
        }
        // The opponent threatens a four or a five: the moves are the defences.
        let defending = forced.is_some() || a.their_open_four_moves;
        // Reverse futility: at a quiet non-PV node whose static evaluation beats beta by a
        // margin growing with the depth left, trust it. Never against a four or an open
        // three (the moves then are forced) nor on a decisive evaluation.
        if !pv_node
            && ply > 0
            && !defending
            && depth <= RFP_MAX_DEPTH
            && a.eval < WIN_BOUND
            && a.eval - RFP_MARGIN * (depth - i32::from(improving)) >= beta
        {
            return a.eval;
        }
        // Which moves to search.
        let PlyBuffers { moves, child_pv } = buffers;
        moves.clear();
        if let Some(block) = forced {
            moves.extend(a.moves.iter().copied().filter(|m| m.pos == block));
        } else if a.their_open_four_moves {
            // Defend the open three (squares where they would make a four) or counter with
            // a four of our own.
            moves.extend(a.moves.iter().copied().filter(|m| {
                m.score != i32::MIN && (m.theirs.f4 + m.theirs.b4 > 0 || m.mine.f4 + m.mine.b4 > 0)
            }));
        } else {
            moves.extend(a.moves.iter().copied().filter(|m| m.score != i32::MIN));
        }
        if ply == 0 && !self.root_filter.is_empty() {
            let filter = &self.root_filter;
            moves.retain(|m| !filter.contains(&m.pos));
            if moves.is_empty() {
                // Multi-PV past the moves that matter, or a blocked forced move: the other
                // legal moves (they lose, and their scores will say so).
                moves.extend(
                    a.moves
                        .iter()
                        .copied()
                        .filter(|m| m.score != i32::MIN && !filter.contains(&m.pos)),
                );
                if moves.is_empty() {
                    return NO_MOVE;
                }
            }
        }
        if moves.is_empty() {
            // Nothing legal near the stones (every candidate forbidden): no proof either way.
            return a.eval;
        }
        if ply == 0 && moves.iter().any(|m| !self.excluded.contains(&m.pos)) {
            moves.retain(|m| !self.excluded.contains(&m.pos));
        }
        // Keep the tree narrow: the heuristic ordering is good, late quiet moves rarely matter.
        // Measured: without this cut (renju, self-play tc 5/0.5, one game at a time) the
        // engine lost an SPRT [0, 10] to itself, Elo -159.9 +-61.0 over 158 games.
        let width = match depth {
            d if d >= 8 => 24,
            d if d >= 5 => 18,
            d if d >= 3 => 14,
            _ => 10,
        };
        // Not improving: a third fewer moves (as Rapfi's and Stockfish's move-count
        // pruning halve theirs). Measured with the LMR step below (self-play SPRT [0, 20],
        // tc=8/0.5+0.05): +33.0 +-28.7 over 539 games, H1 accepted.
        let width = if improving { width } else { width * 2 / 3 };
        let keep = (!defending).then_some(width);
        self.order(moves, keep, tt_move, ply, me);
        if ply == 0 && self.main && depth > 1 {
            self.order_root(moves, tt_move);
        }
        let orig_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        child_pv.clear();
        let new_depth = if forced.is_some() { depth } else { depth - 1 };
        let realtime = if ply == 0 && self.main {
            self.realtime_sink(depth)
        } else {
            None
        };
        for (i, m) in moves.iter().enumerate() {
            let pos = m.pos;
            if let Some(sink) = &realtime {
                (sink.0)(RootEvent::Searching(pos));
            }
            self.board.place(pos, Cell::Stone(me));
            self.path[ply + 2] = Some(pos);
            let quiet = m.my_threat() < Threat::Three && m.their_threat() < Threat::Three;
            let mut score;
            if i == 0 {
                score = -self.search(me.opponent(), new_depth, -beta, -alpha, ply + 1, child_pv);
            } else {
                // Late-move reductions for quiet moves. Measured: without them (renju,
                // self-play tc 5/0.5) the engine lost an SPRT [0, 10] to itself, Elo
                // -46.8 +-26.3 over 680 games.
                // One ply more where the static evaluation is not improving (from depth
                // 4, so that a reduced move keeps at least the leaf; measured with the
                // width cut above).
                // One ply more again from the seventeenth quiet move at depth >= 6 (only
                // nodes whose width cut keeps more than 16 moves reach it): self-play SPRT
                // [0, 20], tc=8/0.5+0.05, +30.2 +-26.7 over 611 games, H1 accepted.
                // A late move that makes or meets no more than a three (a closed four, an
                // open three, or the square where the opponent would make one) where no
                // threat forces the moves: one ply, from the seventh move (Rapfi and
                // PentaZen reduce every late move; quiet moves alone were reduced here).
                let tame = !quiet
                    && !defending
                    && m.my_threat() <= Threat::Three
                    && m.their_threat() <= Threat::Three;
                let reduction = if quiet && depth >= 3 && i >= 3 {
                    1 + i32::from(i >= 8)
                        + i32::from(i >= 16 && depth >= 6)
                        + i32::from(!improving && depth >= 4)
                } else if tame && depth >= 3 && i >= LATE_THREAT_MOVE {
                    1
                } else {
                    0
                };
                score = -self.search(
                    me.opponent(),
                    new_depth - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    child_pv,
                );
                if score > alpha && (reduction > 0 || score < beta) {
                    score =
                        -self.search(me.opponent(), new_depth, -beta, -alpha, ply + 1, child_pv);
                }
            }
            self.board.remove(pos);
            if self.stopped {
                return 0;
            }
            if ply == 0 && self.main {
                let bound = if score <= alpha {
                    Bound::Upper
                } else if score >= beta {
                    Bound::Lower
                } else {
                    Bound::Exact
                };
                let at = u32::try_from(depth).unwrap_or(0);
                self.root_moves.record(pos, score, bound, at, child_pv);
                if let Some(sink) = &realtime {
                    (sink.0)(RootEvent::Done(pos));
                    if score <= -WIN_BOUND && bound != Bound::Lower {
                        (sink.0)(RootEvent::Lost(pos));
                    } else if score > best && score > alpha {
                        (sink.0)(RootEvent::Best(pos));
                    }
                }
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
                    pv.extend_from_slice(child_pv);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Walk `games` random games of up to `plies` moves in every rule on 15x15 (seeded by
    /// `seed`), stopping a game where either side has a five: `visit` gets a fresh worker
    /// on each position, the rule, the side to move and the position's analysis.
    fn walk_random_positions(
        seed: u64,
        games: usize,
        plies: usize,
        mut visit: impl FnMut(&mut Worker<'_>, Rule, Color, &NodeAnalysis),
    ) {
        let mut next = crate::pattern::tests::xorshift(seed);
        for rule in Rule::ALL {
            for _game in 0..games {
                let mut position = Position::new(15, 15, rule).unwrap();
                let tt = TranspositionTable::new(1 << 12);
                let shared = Shared::new(0);
                let stop = AtomicBool::new(false);
                let limits = super::super::Limits::unbounded();
                for _ in 0..plies {
                    let mut worker = Worker::new(&position, &tt, &shared, &stop, &limits, true);
                    let me = position.to_move();
                    let mut a = NodeAnalysis::default();
                    analyse(&mut worker.board, me, rule, &mut a);
                    if a.my_five.is_some() || !a.their_fives.is_empty() {
                        break;
                    }
                    visit(&mut worker, rule, me, &a);
                    let legal = a.legal_squares();
                    if legal.is_empty() {
                        break;
                    }
                    position.play(legal[(next() % legal.len() as u64) as usize]);
                }
            }
        }
    }

    /// A depth-0 leaf stands pat: where the side to move wins by the leaf VCF, a window
    /// whose beta lies at or below the leaf's evaluation gets that evaluation back with no
    /// VCF node searched, and the full window gets the win (both leaf paths: the quick
    /// leaf and the full analysis).
    #[test]
    fn a_leaf_at_or_above_beta_stands_before_its_vcf() {
        let (mut checked, mut stood) = (0, 0);
        walk_random_positions(0x5EED_57A4_D9A7, 10, 50, |worker, _rule, me, a| {
            if !a.my_four_moves || a.my_open_four.is_some() {
                return;
            }
            for marked in [true, false] {
                worker.marked_leaves &= marked;
                let mut pv = Vec::new();
                worker.nodes = 0;
                let full = worker.search(me, 0, -INFINITY, INFINITY, 1, &mut pv);
                if full < WIN_BOUND {
                    continue;
                }
                checked += 1;
                let eval = a.eval;
                if eval >= WIN_BOUND - 1 {
                    continue;
                }
                worker.tt.clear();
                worker.nodes = 0;
                let beta = eval;
                let stands = worker.search(me, 0, beta - 1, beta, 1, &mut pv);
                assert_eq!(stands, eval, "the leaf's evaluation stands");
                assert_eq!(worker.nodes, 1, "no VCF node was searched");
                stood += 1;
                worker.tt.clear();
            }
        });
        assert!(checked > 20 && stood > 20, "{checked} {stood}");
    }

    /// The root order: the table's move, then the searched moves by their last score
    /// (highest first), then the unsearched ones in the static order.
    #[test]
    fn root_moves_are_ordered_by_the_last_iterations_scores() {
        let mut position = Position::new(15, 15, Rule::Freestyle).unwrap();
        for (x, y) in [(7, 7), (8, 8), (6, 8)] {
            position.play(Pos::new(x, y));
        }
        let tt = TranspositionTable::new(1 << 12);
        let shared = Shared::new(0);
        let stop = AtomicBool::new(false);
        let limits = super::super::Limits::unbounded();
        let mut worker = Worker::new(&position, &tt, &shared, &stop, &limits, true);
        let mut a = NodeAnalysis::default();
        analyse(
            &mut worker.board,
            position.to_move(),
            Rule::Freestyle,
            &mut a,
        );
        let mut moves: Vec<Candidate> = a.moves.iter().copied().take(8).collect();
        let static_order: Vec<Pos> = moves.iter().map(|m| m.pos).collect();
        // Searched: the static order's 6th (best so far), 2nd and 8th; the 4th is the
        // table's move.
        let scored = [(5, 120), (1, -40), (7, 35)];
        for &(i, score) in &scored {
            worker
                .root_moves
                .record(static_order[i], score, Bound::Upper, 3, &[]);
        }
        worker.order_root(&mut moves, Some(static_order[3]));
        let got: Vec<Pos> = moves.iter().map(|m| m.pos).collect();
        let want: Vec<Pos> = [3, 5, 7, 1, 0, 2, 4, 6]
            .iter()
            .map(|&i| static_order[i])
            .collect();
        assert_eq!(got, want);
    }

    /// Quiescence leaves scored from the candidates with a threat answer as the full
    /// analysis does (score and line), on the positions of random games in every rule
    /// without forbidden moves; where the opponent has one five to block both take the
    /// full path.
    #[test]
    fn quiet_leaves_score_as_the_full_analysis() {
        let mut next = crate::pattern::tests::xorshift(0x1EAF_5CA1_2026);
        let (mut compared, mut wins, mut fallbacks) = (0, 0, 0);
        for rule in Rule::ALL
            .into_iter()
            .filter(|r| !r.has_fouls_for(Color::Black))
        {
            for size in [15usize, 20] {
                for _game in 0..6 {
                    let mut position = Position::new(size, size, rule).unwrap();
                    let shared = Shared::new(0);
                    let stop = AtomicBool::new(false);
                    let limits = super::super::Limits::unbounded();
                    for _ in 0..80 {
                        let (tt_a, tt_b) = (
                            TranspositionTable::new(1 << 12),
                            TranspositionTable::new(1 << 12),
                        );
                        let mut quick =
                            Worker::new(&position, &tt_a, &shared, &stop, &limits, true);
                        let mut full = Worker::new(&position, &tt_b, &shared, &stop, &limits, true);
                        assert!(
                            quick.marked_leaves,
                            "{rule:?}: the learned evaluation is on"
                        );
                        full.marked_leaves = false;
                        let me = position.to_move();
                        let (mut pv_a, mut pv_b) = (Vec::new(), Vec::new());
                        let a = quick.search(me, 0, -INFINITY, INFINITY, 1, &mut pv_a);
                        let b = full.search(me, 0, -INFINITY, INFINITY, 1, &mut pv_b);
                        assert_eq!((a, &pv_a), (b, &pv_b), "{rule:?} {:?}", position.history());
                        assert_eq!(quick.nodes, full.nodes);
                        compared += 1;
                        wins += usize::from(a.abs() >= WIN_BOUND);
                        let mut pv = Vec::new();
                        fallbacks +=
                            usize::from(quick.quiet_leaf(me, 1, INFINITY, &mut pv).is_none());
                        let mut an = NodeAnalysis::default();
                        analyse(&mut quick.board, me, rule, &mut an);
                        if an.my_five.is_some() || an.their_fives.len() >= 2 {
                            break;
                        }
                        let legal = an.legal_squares();
                        if legal.is_empty() {
                            break;
                        }
                        position.play(legal[(next() % legal.len() as u64) as usize]);
                    }
                }
            }
        }
        assert!(
            compared > 1000 && wins > 20 && fallbacks > 5,
            "{compared} {wins} {fallbacks}"
        );
    }

    /// One VCF: the leaf's, in place on the search board with the analysis' fours given,
    /// answers as the threat solver's on a plain board that scans for them (the same
    /// result and the same node count under the same budget, fresh tables each), on the
    /// positions of random games in every rule; its wins replay as wins.
    #[test]
    fn the_leaf_vcf_answers_as_the_solvers_vcf() {
        let (mut compared, mut wins, mut aborted) = (0, 0, 0);
        walk_random_positions(0x0F0E_4B1D_2024, 12, 60, |worker, rule, me, a| {
            if !a.my_four_moves {
                return;
            }
            let nodes_before = worker.nodes;
            worker.vcf = VcfTables::default();
            let leaf = worker.leaf_vcf_at(me, a);
            let leaf_line: Vec<Pos> = worker.vcf.line().collect();
            let leaf_nodes = worker.nodes - nodes_before;
            let limits = crate::search::threat::ThreatLimits {
                max_attacker_moves: LEAF_VCF_DEPTH,
                max_nodes: LEAF_VCF_NODES,
            };
            let mut solver =
                crate::search::threat::ThreatSolver::new(&worker.board, rule, me, limits);
            let line = solver.vcf();
            let board = worker.board.to_ascii();
            assert_eq!(leaf, line.is_some(), "{rule:?}\n{board}");
            assert_eq!(leaf_nodes, solver.nodes(), "{rule:?}\n{board}");
            if let Some(line) = line {
                assert_eq!(leaf_line, line, "{rule:?}\n{board}");
                assert!(
                    crate::search::threat::replay_is_win(&worker.board, rule, me, &line),
                    "{rule:?} {line:?}\n{board}"
                );
            }
            compared += 1;
            wins += usize::from(leaf);
            aborted += usize::from(solver.aborted());
        });
        assert!(
            compared > 100 && wins > 5 && aborted > 0,
            "{compared} compared, {wins} wins, {aborted} ran out"
        );
    }

    /// The leaf VCF's failure table kept from leaf to leaf changes no answer: along random
    /// games, a leaf with the kept table and one with a fresh table agree wherever neither
    /// runs out of nodes.
    #[test]
    fn a_kept_failure_table_changes_no_leaf_answer() {
        let mut kept = VcfTables::default();
        let (mut compared, mut wins) = (0, 0);
        walk_random_positions(0x7AB1_E5EE_D000, 10, 70, |worker, rule, me, _a| {
            let mut answer = |tables: &mut VcfTables| {
                let mut ticker = Ticker::new(LEAF_VCF_NODES);
                let won = Vcf {
                    board: &mut worker.board,
                    tables,
                    ticker: &mut ticker,
                    rule,
                    attacker: me,
                }
                .solve(LEAF_VCF_DEPTH);
                (won, ticker.aborted)
            };
            let (fresh, fresh_out) = answer(&mut VcfTables::default());
            let (with_kept, kept_out) = answer(&mut kept);
            if !fresh_out && !kept_out {
                assert_eq!(fresh, with_kept, "{rule:?}\n{}", worker.board.to_ascii());
                compared += 1;
                wins += usize::from(fresh);
            }
        });
        assert!(
            compared > 500 && wins > 5,
            "{compared} compared, {wins} wins"
        );
    }
}
