//! Threat-space solvers: VCF (victory by continuous fours) and VCT (victory by continuous
//! threats: fours, open threes, and quiet moves that threaten a VCF). Both are rule-aware
//! (Renju fouls for Black, and White's use of Black's forbidden blocks) and return the
//! winning line, which tests replay through the rules code.
//!
//! A returned line alternates attacker and defender moves and ends with the attacker's
//! five. Against a four the defender's reply is forced. Against a three the solver tries
//! every square that can still stop the attacker's next winning threats (open fours and
//! four-threes: the squares where the attacker would make a four, or against a four-three
//! a three, on a line through one of them) and every counter-four of the defender. Against a
//! quiet move that prepares a VCF it tries every square near the stones and near the VCF
//! line; a square that leaves that line working is refuted by it without a search.
//!
//! After the attacker's move only the lines through it can hold new fives, and likewise
//! for the defender, so the solvers look for fives there instead of scanning the board.
//!
//! The VCF is the engine's one VCF ([`super::vcf`], which the main search's leaves run
//! too), here on a plain board ([`PlainBoard`]); the VCT (module `vct`) is a proof-number
//! search that uses the VCF for its fours-only nodes, over the moves and replies that
//! module `moves` generates.

use super::node::black_foul;
use super::vcf::{self, Spot, Ticker, Vcf, VcfBoard, VcfTables};
use crate::board::geometry::{candidate_rows, row_squares};
use crate::board::{Board, Cell, Color, Direction, Pos, MAX_SIZE};
use crate::pattern::{Pattern, PatternCounts, PatternTables};
use crate::rules::{self, Rule};
use std::sync::atomic::AtomicBool;

mod moves;
mod vct;

/// Limits for one solver call.
#[derive(Clone, Copy, Debug)]
pub struct ThreatLimits {
    /// Most attacker moves in the line.
    pub max_attacker_moves: u32,
    /// Most nodes to visit.
    pub max_nodes: u64,
}

/// The solvers' board: a plain board, the patterns looked up where they are read. The
/// solvers play and take back far more stones than they read patterns of (they look only
/// at the squares of few windows), so keeping every square's patterns (as the search
/// board does) costs them more than it saves: measured with `solver-time`, the VCT on the
/// search board took 1.5 times as long.
pub struct PlainBoard {
    board: Board,
    tables: PatternTables,
}

impl std::ops::Deref for PlainBoard {
    type Target = Board;
    fn deref(&self) -> &Board {
        &self.board
    }
}

impl std::ops::DerefMut for PlainBoard {
    fn deref_mut(&mut self) -> &mut Board {
        &mut self.board
    }
}

impl VcfBoard for PlainBoard {
    #[inline]
    fn patterns(&self, pos: Pos, color: Color) -> [Pattern; 4] {
        self.tables.patterns(&self.board, pos, color)
    }

    #[inline]
    fn put(&mut self, pos: Pos, color: Color) {
        self.board.place(pos, Cell::Stone(color));
    }

    #[inline]
    fn take(&mut self, pos: Pos) {
        self.board.remove(pos);
    }

    fn probe(&mut self) -> &mut Board {
        &mut self.board
    }

    fn four_candidates(&self, color: Color) -> [u32; MAX_SIZE] {
        window_squares(&self.board, color, 3)
    }
}

/// The solver.
pub struct ThreatSolver<'a> {
    board: PlainBoard,
    rule: Rule,
    attacker: Color,
    limits: ThreatLimits,
    ticker: Ticker<'a>,
    /// The VCF's failure table and buffers (shared by the VCT's fours-only nodes and the
    /// defender's VCF, keyed by the side making fours).
    vcf: VcfTables,
    /// The VCT's tables and bookkeeping.
    vct: vct::VctState,
}

impl<'a> ThreatSolver<'a> {
    /// A solver for `attacker` on a copy of `board`.
    pub fn new(board: &Board, rule: Rule, attacker: Color, limits: ThreatLimits) -> Self {
        ThreatSolver {
            board: PlainBoard {
                board: board.clone(),
                tables: PatternTables::new(rule),
            },
            rule,
            attacker,
            limits,
            ticker: Ticker::new(limits.max_nodes),
            vcf: VcfTables::default(),
            vct: vct::VctState::default(),
        }
    }

    /// Stop early when this flag is set.
    pub fn with_stop(mut self, stop: &'a AtomicBool) -> Self {
        self.ticker.stop = Some(stop);
        self
    }

    /// Give up (as "unknown") at this instant.
    pub fn with_deadline(mut self, deadline: std::time::Instant) -> Self {
        self.ticker.deadline = Some(deadline);
        self
    }

    /// Nodes visited so far.
    pub fn nodes(&self) -> u64 {
        self.ticker.nodes
    }

    /// True when the last search ran out of nodes or was stopped (a None is then "unknown").
    pub fn aborted(&self) -> bool {
        self.ticker.aborted
    }

    fn tick(&mut self) -> bool {
        self.ticker.tick()
    }

    /// True under the Caro rules, where a five closed at both ends does not count.
    fn capping(&self) -> bool {
        vcf::capping(self.rule)
    }

    fn fouls(&self, color: Color) -> bool {
        self.rule.has_fouls_for(color)
    }

    /// Is `pos` forbidden for `color`?
    fn forbidden(&mut self, pos: Pos, color: Color) -> bool {
        vcf::forbidden(&mut self.board, self.rule, pos, color)
    }

    /// Is the spot forbidden for `color`? Its patterns spare most exact checks.
    fn spot_forbidden(&mut self, spot: &Spot, color: Color) -> bool {
        self.fouls(color) && black_foul(&mut self.board, spot.pos, &spot.counts)
    }

    /// The empty square `pos` and what `color` would make there.
    fn spot(&self, pos: Pos, color: Color) -> Option<Spot> {
        self.board.is_empty(pos).then(|| Spot {
            pos,
            counts: PatternCounts::of(&VcfBoard::patterns(&self.board, pos, color)),
        })
    }

    /// Like [`Self::spots`], but with a square `must` (a five to block) only that square
    /// is looked at: it lies next to the opponent's stones, so `spots` would look at it
    /// too, and at nothing else the caller keeps.
    fn spots_at(
        &self,
        color: Color,
        must: Option<Pos>,
        min_own: u32,
        keep: impl Fn(&PatternCounts) -> bool,
    ) -> Vec<Spot> {
        match must {
            Some(must) => self
                .spot(must, color)
                .into_iter()
                .filter(|s| keep(&s.counts))
                .collect(),
            None => self.spots(color, min_own, keep),
        }
    }

    /// Cells near stones where `color` makes at least a pattern selected by `keep`. Only
    /// cells with `min_own` or more of `color`'s stones within four cells on one line are
    /// looked up (a five needs 4, a four 3, a three 2): a cheap bit count spares most of
    /// the pattern-table lookups.
    fn spots(
        &self,
        color: Color,
        min_own: u32,
        keep: impl Fn(&PatternCounts) -> bool,
    ) -> Vec<Spot> {
        let mut rows = window_squares(&self.board, color, min_own);
        if min_own < 3 {
            // With three stones in a five-cell window every empty cell of it is within two
            // of a stone; with fewer it may lie farther than the usual candidates.
            for (row, near) in rows.iter_mut().zip(candidate_rows(&self.board)) {
                *row &= near;
            }
        }
        // Room for every square looked at: one allocation, never grown.
        let looked_at: u32 = rows.iter().map(|r| r.count_ones()).sum();
        let mut out = Vec::with_capacity(looked_at as usize);
        for pos in row_squares(&rows, self.board.height()) {
            let counts = PatternCounts::of(&VcfBoard::patterns(&self.board, pos, color));
            if keep(&counts) {
                out.push(Spot { pos, counts });
            }
        }
        out
    }

    /// Squares where `color` would complete a five (legal ones only).
    fn fives(&mut self, color: Color) -> Vec<Pos> {
        // A five always wins, even if the square would otherwise be a foul.
        self.spots(color, 4, |c| c.f5 > 0)
            .into_iter()
            .map(|s| s.pos)
            .collect()
    }

    fn play(&mut self, pos: Pos, color: Color) {
        self.board.place(pos, Cell::Stone(color));
    }

    fn undo(&mut self, pos: Pos) {
        self.board.remove(pos);
    }

    /// The defender's moves that stop all of the attacker's fives `completions` (see
    /// [`vcf::five_defences`]).
    fn five_defences(&mut self, completions: &[Pos]) -> arrayvec::ArrayVec<Pos, 16> {
        vcf::five_defences(&mut self.board, self.rule, self.attacker, completions)
    }

    /// The end of a line when no defender move stops the attacker's fives `completions`:
    /// a defender move (blocking one of them where it may) and a five that is left.
    fn unstoppable(&mut self, completions: &[Pos]) -> Option<Vec<Pos>> {
        vcf::unstoppable(&mut self.board, self.rule, self.attacker, completions)
            .map(|(reply, five)| vec![reply, five])
    }

    /// Squares on the lines through `pos` where `color` would complete a five (see
    /// [`vcf::fives_through`]).
    fn fives_through(&self, pos: Pos, color: Color) -> arrayvec::ArrayVec<Pos, 32> {
        vcf::fives_through(&self.board, pos, color, self.rule)
    }

    /// The VCF over this solver's board, tables and ticker, for `attacker`.
    fn vcf_search(&mut self, attacker: Color) -> Vcf<'_, 'a, PlainBoard> {
        Vcf {
            board: &mut self.board,
            tables: &mut self.vcf,
            ticker: &mut self.ticker,
            rule: self.rule,
            attacker,
        }
    }

    /// Search a VCF for the attacker (who is to move). Returns the winning line.
    pub fn vcf(&mut self) -> Option<Vec<Pos>> {
        self.ticker.aborted = false;
        self.vcf.clear();
        let depth = self.limits.max_attacker_moves;
        let a = self.attacker;
        let won = self.vcf_search(a).solve(depth);
        won.then(|| self.vcf.line().collect())
    }

    /// Attacker to move, with no five of its own (the caller has checked), facing the
    /// defender's fives `their_fives`: its winning line by fours within `depth` attacker
    /// moves.
    fn vcf_attack(&mut self, depth: u32, their_fives: &[Pos]) -> Option<Vec<Pos>> {
        let a = self.attacker;
        let won = self.vcf_search(a).attack_from_scan(depth, their_fives);
        won.then(|| self.vcf.line().collect())
    }

    /// Does the defender, to move, win by fours of its own within `depth` fours? The
    /// caller's position must leave the attacker no five to make. The search is the VCF's,
    /// with the sides swapped (so the renju fouls and forbidden blocks apply to the right
    /// side); its failure entries are keyed by that side.
    /// `fours` are the squares where the defender makes a four, as
    /// `self.spots(defender, 3, ..)` finds them (the caller has them at hand).
    fn defender_vcf(&mut self, depth: u32, fours: &[Spot]) -> bool {
        debug_assert!(
            self.fives(self.attacker).is_empty(),
            "the attacker has a five to make"
        );
        let d = self.attacker.opponent();
        self.vcf_search(d)
            .solve_with_fours(depth, fours.iter().copied())
    }

    /// Does the VCF `line` (attacker four, forced block, ..., five) still win after a
    /// defender stone at `q`? Every attacker move must still be legal and a four whose only
    /// defence is the next move of the line, and no defender move may leave the defender a
    /// five the attacker's next move does not take.
    fn line_survives(&mut self, line: &[Pos], q: Pos) -> bool {
        let a = self.attacker;
        let d = a.opponent();
        let mut played: Vec<Pos> = vec![q];
        self.play(q, d);
        let mut their: arrayvec::ArrayVec<Pos, 32> = self.fives_through(q, d);
        let mut ok = false;
        for pair in line.chunks(2) {
            let mv = pair[0];
            if !self.board.is_empty(mv) || their.iter().any(|&f| f != mv) {
                break;
            }
            if pair.len() == 1 {
                ok = rules::is_winning_move(&self.board, mv, a, self.rule);
                break;
            }
            if self.forbidden(mv, a) {
                break;
            }
            self.play(mv, a);
            played.push(mv);
            let completions = self.fives_through(mv, a);
            if completions.is_empty() {
                break;
            }
            let defences = self.five_defences(&completions);
            if defences.is_empty() {
                ok = true; // the five can no longer be stopped at all
                break;
            }
            let reply = pair[1];
            if defences.as_slice() != [reply] {
                break;
            }
            self.play(reply, d);
            played.push(reply);
            their = self.fives_through(reply, d);
        }
        for &p in played.iter().rev() {
            self.undo(p);
        }
        ok
    }
}

/// Could a move with these patterns (no four, no three) set up a VCF? It must leave a line
/// where the attacker has three stones in a window (a closed three), or two open twos.
fn may_threaten_vcf(c: &PatternCounts) -> bool {
    c.b3 > 0 || c.f2 >= 2
}

/// The empty squares (as row masks: bit x of row y) that lie in a five-cell window holding
/// at least `min_own` stones of `color` and no opponent stone, blocked square or edge.
/// Every five, four or three a move makes lies in such a window, with one stone fewer
/// before the move: only these squares can make one. Works a line at a time on the line
/// masks, skipping lines with too few stones, so it costs far less than a look at every
/// square.
fn window_squares(board: &Board, color: Color, min_own: u32) -> [u32; MAX_SIZE] {
    let mut rows = [0u32; MAX_SIZE];
    let height = board.height();
    for dir in Direction::ALL {
        for line in 0..board.line_count(dir) {
            let own = board.line_stones(color, dir, line);
            if !rules::at_least(own, min_own) {
                continue;
            }
            let empty = board.line_empty(dir, line);
            let mut squares = empty & rules::window_cells(own, empty, min_own);
            if dir == Direction::Horizontal {
                // A row's bits are its squares' x: the mask is the row itself.
                rows[line] |= squares;
                continue;
            }
            // The squares are empty, so on the board: their coordinates follow from the
            // line's geometry without the bounds checks of `Board::pos_on_line`.
            while squares != 0 {
                let bit = squares.trailing_zeros() as usize;
                squares &= squares - 1;
                let (x, y) = match dir {
                    Direction::Vertical => (line, bit),
                    Direction::Diagonal => (bit, bit + height - 1 - line),
                    _ => (bit, line - bit),
                };
                rows[y] |= 1 << x;
            }
        }
    }
    rows
}

/// Check that `line` is a real win for `attacker` from `board`: moves alternate, every
/// square is empty when played, the attacker's moves are legal, the defender's moves in
/// reply to a four are forced, and the line ends with the attacker's five.
pub fn replay_is_win(board: &Board, rule: Rule, attacker: Color, line: &[Pos]) -> bool {
    let mut b = board.clone();
    let mut color = attacker;
    for (i, &pos) in line.iter().enumerate() {
        if !b.is_empty(pos) {
            return false;
        }
        let wins = rules::is_winning_move(&b, pos, color, rule);
        if !wins && rules::is_forbidden(&mut b, pos, color, rule) {
            // A foul: loses for the mover.
            return color != attacker && i + 1 < line.len();
        }
        if wins {
            return color == attacker && i + 1 == line.len();
        }
        b.place(pos, Cell::Stone(color));
        color = color.opponent();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::Threat;

    /// The square filter `spots` used before [`window_squares`]: any `min` stones of
    /// `color` within four cells on one line, whatever lies between.
    fn has_line_stones(board: &Board, pos: Pos, color: Color, min: u32) -> bool {
        Direction::ALL.iter().any(|&dir| {
            let r = board.line_ref(pos, dir);
            let near = board.line_stones(color, dir, r.line) & rules::window_mask(r.bit, 4);
            near.count_ones() >= min
        })
    }

    /// The attacker's fours by a scan of the whole board, in the VCF's order.
    fn scanned_fours(solver: &ThreatSolver<'_>) -> Vec<(Pos, PatternCounts)> {
        let mut full = solver.spots(solver.attacker, 3, |c| c.f4 + c.b4 > 0);
        full.sort_by_key(|s| (std::cmp::Reverse(s.counts.threat()), s.pos));
        full.into_iter().map(|s| (s.pos, s.counts)).collect()
    }

    /// Plays every four and each of its blocks down to `depth` fours, checking the fours
    /// [`Vcf::fours_after`](super::vcf) derives against a scan after each pair. Returns the
    /// pairs checked.
    fn walk_fours(solver: &mut ThreatSolver<'_>, fours: &[Spot], depth: u32) -> usize {
        if depth == 0 {
            return 0;
        }
        let (a, d) = (solver.attacker, solver.attacker.opponent());
        let mut checked = 0;
        for spot in fours {
            solver.play(spot.pos, a);
            let completions = solver.fives_through(spot.pos, a);
            for block in solver.five_defences(&completions) {
                solver.play(block, d);
                let mut derived = solver
                    .vcf_search(a)
                    .fours_after_list(fours, spot.pos, block);
                derived.sort_by_key(|s| (std::cmp::Reverse(s.counts.threat()), s.pos));
                let pairs: Vec<(Pos, PatternCounts)> =
                    derived.iter().map(|s| (s.pos, s.counts)).collect();
                assert_eq!(
                    pairs,
                    scanned_fours(solver),
                    "after the four {:?} and the block {block:?}:\n{}",
                    spot.pos,
                    solver.board.to_ascii()
                );
                checked += 1 + walk_fours(solver, &derived, depth - 1);
                solver.undo(block);
            }
            solver.undo(spot.pos);
        }
        checked
    }

    /// The fours the VCF derives from its parent's (instead of scanning the board) are the
    /// scan's, in every rule, over the quintet boards and their fours three deep.
    #[test]
    fn fours_kept_from_the_parent_match_a_scan() {
        let Some(cases) = crate::quintet::load_for_tests() else {
            return;
        };
        let limits = ThreatLimits {
            max_attacker_moves: 10,
            max_nodes: u64::MAX,
        };
        let mut checked = 0;
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
            for case in &cases {
                for attacker in [case.attacker, case.attacker.opponent()] {
                    let mut solver = ThreatSolver::new(&case.board, rule, attacker, limits);
                    let fours = solver.spots(attacker, 3, |c| c.f4 + c.b4 > 0);
                    checked += walk_fours(&mut solver, &fours, 3);
                }
            }
        }
        assert!(checked > 10_000, "only {checked} four-block pairs checked");
    }

    #[test]
    fn window_filter_keeps_every_square_that_makes_a_pattern() {
        // Random positions of every rule and several sizes: the squares `spots` finds with
        // the line-window filter are exactly those the plain look at every near square
        // (at least `min` stones within four cells on a line) finds, for every selection
        // the solvers use.
        type Keep = fn(&PatternCounts) -> bool;
        let selections: [(u32, Keep); 5] = [
            (4, |c| c.f5 > 0),
            (3, |c| c.f4 + c.b4 > 0),
            (2, |c| c.f4 + c.b4 > 0 || c.f3 > 0),
            (2, |c| c.threat() >= Threat::Three),
            (1, |c| may_threaten_vcf(c) || c.f2 + c.b3 >= 1),
        ];
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let rules = [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro];
        let sizes = [(15, 15), (20, 20), (9, 13), (32, 32)];
        let mut compared = 0;
        for round in 0..120 {
            let rule = rules[round % rules.len()];
            let (w, h) = sizes[(round / 4) % sizes.len()];
            let mut board = Board::new(w, h).unwrap();
            let stones = 4 + (next() % 40) as usize;
            let mut color = Color::Black;
            for _ in 0..stones {
                let x = (next() % w as u64) as usize;
                let y = (next() % h as u64) as usize;
                let p = Pos::new(x, y);
                if board.is_empty(p) {
                    board.place(p, Cell::Stone(color));
                    color = color.opponent();
                }
            }
            let solver = ThreatSolver::new(&board, rule, Color::Black, limits(4));
            for color in [Color::Black, Color::White] {
                for (min, keep) in selections {
                    let fast: Vec<Pos> = solver
                        .spots(color, min, keep)
                        .iter()
                        .map(|s| s.pos)
                        .collect();
                    let plain: Vec<Pos> = row_squares(&candidate_rows(&board), h)
                        .filter(|&p| has_line_stones(&board, p, color, min))
                        .filter(|&p| {
                            keep(&PatternCounts::of(&VcfBoard::patterns(
                                &solver.board,
                                p,
                                color,
                            )))
                        })
                        .collect();
                    assert_eq!(fast, plain, "{rule:?} min {min}:\n{}", board.to_ascii());
                    compared += plain.len();
                }
            }
        }
        assert!(
            compared > 1000,
            "the positions hold patterns to compare ({compared})"
        );
    }

    fn limits(moves: u32) -> ThreatLimits {
        ThreatLimits {
            max_attacker_moves: moves,
            max_nodes: 1_000_000,
        }
    }

    #[test]
    fn simple_vcf_is_found_and_replays() {
        // Black: two crossing broken lines give a four-four by continuous fours.
        let b = Board::from_ascii(
            "...............
             ...............
             ...............
             ...............
             ....XX.X.......
             ...............
             ......X........
             ......X........
             ......X........
             ...............
             ...............
             ..........O....
             ..........O....
             ..........O....
             ...............",
        )
        .unwrap();
        let mut s = ThreatSolver::new(&b, Rule::Freestyle, Color::Black, limits(10));
        let line = s.vcf().expect("a VCF exists");
        assert!(
            replay_is_win(&b, Rule::Freestyle, Color::Black, &line),
            "{line:?}"
        );
    }

    #[test]
    fn no_vcf_without_fours() {
        let b = Board::from_ascii(
            ".........
             .........
             ...X.....
             ....X....
             .........
             .........
             .........",
        )
        .unwrap();
        let mut s = ThreatSolver::new(&b, Rule::Freestyle, Color::Black, limits(10));
        assert!(s.vcf().is_none());
        assert!(!s.aborted());
    }

    #[test]
    fn open_three_plus_three_is_a_vct() {
        let b = Board::from_ascii(
            "...............
             ...............
             ...............
             ...............
             ...............
             ......X........
             ......X........
             .......XX......
             ...............
             ...............
             ...............
             ...............
             ..............O
             .............O.
             ............O..",
        )
        .unwrap();
        let mut s = ThreatSolver::new(&b, Rule::Freestyle, Color::Black, limits(6));
        let line = s.vct().expect("black wins by threes");
        assert!(
            replay_is_win(&b, Rule::Freestyle, Color::Black, &line),
            "{line:?}"
        );
    }

    /// Every legal defender reply to `first` (not only the solver's defence set) must
    /// still lose to a VCT: a check of the defence-set reasoning from outside it.
    fn every_reply_loses(board: &Board, rule: Rule, attacker: Color, first: Pos, moves: u32) {
        let mut b = board.clone();
        b.place(first, Cell::Stone(attacker));
        let replies: Vec<Pos> = b.empty_positions().collect();
        for r in replies {
            b.place(r, Cell::Stone(attacker.opponent()));
            let line = ThreatSolver::new(&b, rule, attacker, limits(moves)).vct();
            assert!(
                line.as_ref()
                    .is_some_and(|l| replay_is_win(&b, rule, attacker, l)),
                "the reply {r:?} to {first:?} is not refuted"
            );
            b.remove(r);
        }
    }

    /// The first move's own patterns: neither a four nor a three (a quiet move).
    fn is_quiet(board: &Board, rule: Rule, color: Color, pos: Pos) -> bool {
        let tables = PatternTables::new(rule);
        PatternCounts::of(&tables.patterns(board, pos, color)).threat() < Threat::Four
    }

    /// Black has no VCF; the solver finds a VCT that replays, and `quiet` (neither a four
    /// nor a three) is a winning first move too: every reply to it loses. (The solver
    /// may start with another move: these boards also hold longer wins by threes.)
    fn assert_quiet_move_wins(b: &Board, quiet: Pos) {
        let rule = Rule::Freestyle;
        assert!(ThreatSolver::new(b, rule, Color::Black, limits(20))
            .vcf()
            .is_none());
        let line = ThreatSolver::new(b, rule, Color::Black, limits(6))
            .vct()
            .expect("a VCT");
        assert!(replay_is_win(b, rule, Color::Black, &line), "{line:?}");
        assert!(is_quiet(b, rule, Color::Black, quiet));
        every_reply_loses(b, rule, Color::Black, quiet, 8);
    }

    #[test]
    fn quiet_move_that_prepares_a_four_three_is_a_vct() {
        // Black (X) to move: E8 (x 4, y 7) is quiet, yet it leaves the four-three at F8
        // (x 5, y 7) that White cannot stop in time. (F8 at once, a three, also wins by a
        // longer line, so the solver may start with either; E8 is checked on its own.)
        let b = Board::from_ascii(
            "...............
             ...............
             ...............
             .....O.....X...
             ...........O...
             .....X.........
             ...OOX.........
             ...X..XOX......
             ...........X...
             ...............
             ...O...........
             .....X....O....
             ...............
             ...............
             ...............",
        )
        .unwrap();
        assert_quiet_move_wins(&b, Pos::new(4, 7));
    }

    #[test]
    fn quiet_move_that_threatens_a_vcf_is_a_vct() {
        // After the quiet G8 (x 6, y 7) Black has no four-three or open four, but wins by
        // three fours (F8, I8, I9, then I7 or I11) if White does not stop that line: a
        // "fukumi". (I8 at once, a three, also wins by a longer line.)
        let b = Board::from_ascii(
            "...............
             ...............
             ...............
             ......O.X..O...
             ...........X...
             .....O..X..O...
             ...X.......O...
             ...X...X.......
             ...O.....O.....
             ........X......
             ...............
             ...............
             ...............
             ...............
             ...............",
        )
        .unwrap();
        assert_quiet_move_wins(&b, Pos::new(6, 7));
    }
}
