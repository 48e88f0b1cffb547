//! The VCF (victory by continuous fours): one search for the whole engine. The main
//! search's leaves run it in place on the search board with a small node budget
//! ([`super::alphabeta`]); the root and the VCT run it on a plain board with the patterns
//! looked up ([`super::threat::ThreatSolver`]). Both go through [`Vcf`], over the
//! [`VcfBoard`] they have.
//!
//! A depth-first search of the attacker's fours to a limit on the attacker's moves, with a
//! failure table: VCF lines can be very long (dozens of fours), and deepening step by step
//! costs far more than it saves. Fours are tried open fours and double fours first, then by
//! pattern strength, ties by square. A node's fours follow from its parent's (a stone
//! changes the patterns within five squares on its lines only), so only the root scans the
//! board. The fours of every node on the current line live in one buffer, and the winning
//! line is written into another as the search returns: a call allocates nothing once the
//! buffers have grown.
//!
//! Rule-aware: Renju fouls for Black (a forbidden four is no move; a forbidden block loses
//! for White's opponent), and under Caro a five closed at both ends does not count (a stone
//! just past its far end may also stop it).

use super::node::black_foul;
use crate::board::geometry::{aligned_along, line_squares_within, row_squares};
use crate::board::{Board, Color, Direction, Pos, MAX_SIZE};
use crate::pattern::{Pattern, PatternCounts};
use crate::rules::{self, Rule};
use std::collections::HashMap;
use std::ops::Deref;
use std::sync::atomic::{AtomicBool, Ordering};

/// What a VCF runs on: a board whose empty squares' patterns are at hand.
pub trait VcfBoard: Deref<Target = Board> {
    /// The patterns `color` would form on the four lines by playing the empty `pos`.
    fn patterns(&self, pos: Pos, color: Color) -> [Pattern; 4];
    /// Put a stone of `color` on the empty `pos`.
    fn put(&mut self, pos: Pos, color: Color);
    /// Take back the stone last put (moves are taken back last first).
    fn take(&mut self, pos: Pos);
    /// The board, for the rules' exact foul checks (which place and take back stones).
    fn probe(&mut self) -> &mut Board;
    /// Row masks (bit x of row y) holding every empty square where `color` would make a
    /// four or a five (and maybe other squares).
    fn four_candidates(&self, color: Color) -> [u32; MAX_SIZE];
}

/// An empty square and what the side making fours would make there.
#[derive(Clone, Copy, Debug)]
pub struct Spot {
    /// The square.
    pub pos: Pos,
    /// Its patterns for the side making fours.
    pub counts: PatternCounts,
}

/// A hasher for keys that are already uniformly random (Zobrist hashes and mixes of
/// them): it passes them through, sparing the default hasher's cost on every lookup.
#[derive(Default, Clone, Copy)]
pub struct ZobristHasher(u64);

impl std::hash::Hasher for ZobristHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A map from such keys.
pub type KeyMap<V> = HashMap<u64, V, std::hash::BuildHasherDefault<ZobristHasher>>;

/// Most entries in the failure table (about 12 bytes each).
const FAILED_CAP: usize = 1 << 18;

/// Mixed into the failure table's keys by the side making the fours, so that Black's and
/// White's failures in one position stay apart.
fn side_salt(color: Color) -> u64 {
    match color {
        Color::Black => 0,
        Color::White => 0x4445_4645_4e44_4552,
    }
}

/// Node counting and the ways a search is cut short: a node budget, a stop flag, a
/// deadline.
#[derive(Debug)]
pub struct Ticker<'a> {
    /// Nodes visited.
    pub nodes: u64,
    /// Nodes allowed (the search gives up as "unknown" on reaching it).
    pub max_nodes: u64,
    /// Stop early when this flag is set.
    pub stop: Option<&'a AtomicBool>,
    /// Give up at this instant.
    pub deadline: Option<std::time::Instant>,
    /// The search ran out or was stopped: a failure is then "unknown".
    pub aborted: bool,
}

impl<'a> Ticker<'a> {
    /// A ticker with a node budget only.
    pub fn new(max_nodes: u64) -> Self {
        Ticker {
            nodes: 0,
            max_nodes,
            stop: None,
            deadline: None,
            aborted: false,
        }
    }

    /// Count a node; true when the search must give up.
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.max_nodes {
            self.aborted = true;
        }
        if self.nodes & 63 == 0 {
            if self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                self.aborted = true;
            }
            if self
                .deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
            {
                self.aborted = true;
            }
        }
        self.aborted
    }
}

/// What a VCF keeps between calls: the failure table and the two buffers.
#[derive(Default)]
pub struct VcfTables {
    /// Positions (by hash and side making fours) known to fail with at least this many
    /// attacker moves left. A failure is a fact about the position, so the table may be
    /// kept from call to call.
    failed: KeyMap<u32>,
    /// The fours of every node on the current line, each node's after its parent's.
    spots: Vec<Spot>,
    /// The winning line, last move first, as the search writes it.
    line: Vec<Pos>,
}

impl VcfTables {
    /// Forget every failure.
    pub fn clear(&mut self) {
        self.failed.clear();
    }

    /// The spot buffer, emptied, for a caller to give the attacker's fours in (every
    /// square where it makes one, in any order) before [`Vcf::solve_given`].
    pub fn given(&mut self) -> &mut Vec<Spot> {
        self.spots.clear();
        &mut self.spots
    }

    /// The winning line the last successful call found, first move first.
    pub fn line(&self) -> impl Iterator<Item = Pos> + '_ {
        self.line.iter().rev().copied()
    }
}

/// Where a node's fours come from.
#[derive(Clone, Copy)]
enum Fours {
    /// A scan of the board.
    Scan,
    /// Every square where the side making fours makes one, in the tables' spot buffer
    /// from this index to its end.
    Given(usize),
    /// The parent's list (the spot buffer from `from` to `to`), with the parent's four
    /// and the block played since: the node's own follow from them without a scan.
    After {
        /// Start of the parent's list.
        from: usize,
        /// End of the parent's list.
        to: usize,
        /// The parent's four.
        four: Pos,
        /// The block.
        block: Pos,
    },
}

/// One VCF search: the board, the kept tables, the ticker, the rule and the side making
/// fours.
pub struct Vcf<'s, 't, B: VcfBoard> {
    /// The board, played on in place.
    pub board: &'s mut B,
    /// The failure table and buffers.
    pub tables: &'s mut VcfTables,
    /// Node counting and limits.
    pub ticker: &'s mut Ticker<'t>,
    /// The rule.
    pub rule: Rule,
    /// The side making fours (to move).
    pub attacker: Color,
}

impl<B: VcfBoard> Vcf<'_, '_, B> {
    /// Does the attacker (to move) win by fours within `depth` attacker moves? Looks for
    /// its own five and the defender's fives first. On a win the line is in
    /// [`VcfTables::line`].
    pub fn solve(&mut self, depth: u32) -> bool {
        self.tables.line.clear();
        self.tables.spots.clear();
        let a = self.attacker;
        if let Some(five) = self.fives(a).first().copied() {
            self.tables.line.push(five);
            return true;
        }
        let their_fives = self.fives(a.opponent());
        self.attack(depth, &their_fives, Fours::Scan)
    }

    /// [`Vcf::solve`] where the caller knows that neither side has a five to make and
    /// has the attacker's fours at hand (every square where it makes one, in any order).
    pub fn solve_with_fours(&mut self, depth: u32, fours: impl IntoIterator<Item = Spot>) -> bool {
        self.tables.given().extend(fours);
        self.solve_given(depth)
    }

    /// [`Vcf::solve_with_fours`] with the fours given in [`VcfTables::given`].
    pub fn solve_given(&mut self, depth: u32) -> bool {
        self.tables.line.clear();
        self.attack(depth, &[], Fours::Given(0))
    }

    /// [`Vcf::solve`] where the caller knows that the attacker has no five to make, and
    /// the defender's fives (`their_fives`).
    pub fn attack_from_scan(&mut self, depth: u32, their_fives: &[Pos]) -> bool {
        self.tables.line.clear();
        self.tables.spots.clear();
        self.attack(depth, their_fives, Fours::Scan)
    }

    /// The empty squares where `color` would complete a five.
    fn fives(&self, color: Color) -> arrayvec::ArrayVec<Pos, 32> {
        let rows = self.board.four_candidates(color);
        let mut out = arrayvec::ArrayVec::new();
        for pos in row_squares(&rows, self.board.height()) {
            // A five always wins, even if the square would otherwise be a foul.
            if self.board.is_empty(pos)
                && self.board.patterns(pos, color).contains(&Pattern::F5)
                && !out.is_full()
            {
                out.push(pos);
            }
        }
        out
    }

    /// Is the spot forbidden for `color`? Its patterns spare most exact checks.
    fn spot_forbidden(&mut self, spot: &Spot, color: Color) -> bool {
        self.rule.has_fouls_for(color) && black_foul(self.board.probe(), spot.pos, &spot.counts)
    }

    /// Push onto the spot buffer the attacker's fours by a scan of the board.
    fn scan_fours(&mut self) {
        let a = self.attacker;
        let rows = self.board.four_candidates(a);
        for pos in row_squares(&rows, self.board.height()) {
            if !self.board.is_empty(pos) {
                continue;
            }
            let counts = PatternCounts::of(&self.board.patterns(pos, a));
            if counts.f4 + counts.b4 > 0 {
                self.tables.spots.push(Spot { pos, counts });
            }
        }
    }

    /// Push onto the spot buffer the attacker's fours after its four at `four` and the
    /// defender's block at `block`, from the parent's list `tables.spots[from..to]` (every
    /// square where the attacker made a four before them). A stone changes the patterns of
    /// the squares within five cells on its lines only: the others keep theirs. Only the
    /// attacker's stone can make new fours, in windows on its own lines; the block only
    /// takes some away. (A square near the four may stay a four by another of its lines.)
    fn fours_after(&mut self, from: usize, to: usize, four: Pos, block: Pos) {
        let a = self.attacker;
        let is_four = |c: &PatternCounts| c.f4 + c.b4 > 0;
        let near = |p: Pos, q: Pos| aligned_along(p, q, 0b1111, 5);
        for i in from..to {
            let s = self.tables.spots[i];
            if s.pos == block || s.pos == four {
                continue;
            }
            if near(four, s.pos) || near(block, s.pos) {
                let counts = PatternCounts::of(&self.board.patterns(s.pos, a));
                if is_four(&counts) {
                    self.tables.spots.push(Spot { pos: s.pos, counts });
                }
            } else {
                self.tables.spots.push(s);
            }
        }
        for dir in Direction::ALL {
            let r = self.board.line_ref(four, dir);
            let own = self.board.line_stones(a, dir, r.line);
            let empty = self.board.line_empty(dir, r.line);
            let mut squares =
                empty & rules::window_mask(r.bit, 5) & rules::window_cells(own, empty, 3);
            while squares != 0 {
                let bit = squares.trailing_zeros();
                squares &= squares - 1;
                if let Some(q) = self.board.pos_on_line(dir, r.line, bit as i32) {
                    if self.tables.spots[from..to].iter().any(|s| s.pos == q) {
                        continue; // looked at above
                    }
                    let counts = PatternCounts::of(&self.board.patterns(q, a));
                    if is_four(&counts) {
                        self.tables.spots.push(Spot { pos: q, counts });
                    }
                }
            }
        }
    }

    /// [`Vcf::fours_after`] from the list `parent` (tests).
    #[cfg(test)]
    pub(crate) fn fours_after_list(&mut self, parent: &[Spot], four: Pos, block: Pos) -> Vec<Spot> {
        self.tables.spots.clear();
        self.tables.spots.extend_from_slice(parent);
        self.fours_after(0, parent.len(), four, block);
        let out = self.tables.spots[parent.len()..].to_vec();
        self.tables.spots.clear();
        out
    }

    /// Attacker to move, with no five of its own, facing the defender's fives
    /// `their_fives`: a win within `depth` attacker moves? On a win the line from here is
    /// pushed onto the line buffer, last move first.
    fn attack(&mut self, depth: u32, their_fives: &[Pos], source: Fours) -> bool {
        if self.ticker.tick() || depth == 0 {
            return false;
        }
        let a = self.attacker;
        let d = a.opponent();
        let key = self.board.hash() ^ side_salt(a);
        if self
            .tables
            .failed
            .get(&key)
            .is_some_and(|&left| left >= depth)
        {
            return false;
        }
        // Under Caro rules a four may also stop the defender's fives by closing them at
        // both ends; otherwise it must stand on the defender's only five.
        let capping = capping(self.rule);
        if their_fives.len() >= 2 && !capping {
            return false;
        }
        let must = their_fives.first().copied().filter(|_| !capping);
        // This node's fours: the buffer from `start` on.
        let start = match source {
            Fours::Given(from) => from,
            _ => self.tables.spots.len(),
        };
        match (must, source) {
            (Some(must), _) => {
                self.tables.spots.truncate(start);
                if self.board.is_empty(must) {
                    let counts = PatternCounts::of(&self.board.patterns(must, a));
                    if counts.f4 + counts.b4 > 0 {
                        self.tables.spots.push(Spot { pos: must, counts });
                    }
                }
            }
            (
                None,
                Fours::After {
                    from,
                    to,
                    four,
                    block,
                },
            ) => self.fours_after(from, to, four, block),
            (None, Fours::Given(_)) => {}
            (None, Fours::Scan) => self.scan_fours(),
        }
        let end = self.tables.spots.len();
        // Open fours and double fours first, then by pattern strength; ties by square.
        self.tables.spots[start..end]
            .sort_unstable_by_key(|s| (std::cmp::Reverse(s.counts.threat()), s.pos));
        // The incremental list against a scan of the whole board (debug builds only).
        #[cfg(debug_assertions)]
        if must.is_none() {
            self.check_fours(start, end);
        }
        let mut won = false;
        for i in start..end {
            let spot = self.tables.spots[i];
            let pos = spot.pos;
            if self.spot_forbidden(&spot, a) {
                continue;
            }
            let mark = self.tables.line.len();
            self.board.put(pos, a);
            if their_fives
                .iter()
                .any(|&f| f != pos && rules::is_winning_move(self.board, f, d, self.rule))
            {
                self.board.take(pos); // the defender would make a five
                continue;
            }
            let completions = fives_through(self.board, pos, a, self.rule);
            let result = if completions.is_empty() {
                false // not a four after all (e.g. only an overline completion)
            } else {
                let defences = five_defences(self.board, self.rule, a, &completions);
                if defences.is_empty() {
                    // Nothing stops the five.
                    self.unstoppable(&completions)
                } else {
                    // Usually the one block; every defence must lose. The line follows
                    // the first.
                    let mut all = true;
                    for (n, &block) in defences.iter().enumerate() {
                        let before = self.tables.line.len();
                        self.board.put(block, d);
                        // The defender's fives now: old ones still open, and new ones
                        // through the block.
                        let mut next = fives_through(self.board, block, d, self.rule);
                        for &f in their_fives {
                            if self.board.is_empty(f)
                                && !next.contains(&f)
                                && !next.is_full()
                                && rules::is_winning_move(self.board, f, d, self.rule)
                            {
                                next.push(f);
                            }
                        }
                        // Only a full list (no five to block here) tells the child its fours.
                        let child = match must {
                            None => Fours::After {
                                from: start,
                                to: end,
                                four: pos,
                                block,
                            },
                            Some(_) => Fours::Scan,
                        };
                        let sub = self.attack(depth - 1, &next, child);
                        self.tables.spots.truncate(end);
                        self.board.take(block);
                        if !sub {
                            all = false;
                            break;
                        }
                        if n == 0 {
                            self.tables.line.push(block);
                        } else {
                            self.tables.line.truncate(before);
                        }
                    }
                    all
                }
            };
            self.board.take(pos);
            if result {
                self.tables.line.push(pos);
                won = true;
                break;
            }
            self.tables.line.truncate(mark);
            if self.ticker.aborted {
                break;
            }
        }
        self.tables.spots.truncate(start);
        if !won && !self.ticker.aborted {
            if self.tables.failed.len() >= FAILED_CAP {
                // Only a cache: start afresh rather than outgrow the memory reserve.
                self.tables.failed.clear();
            }
            self.tables.failed.insert(key, depth);
        }
        won
    }

    /// Debug builds: the node's fours `tables.spots[start..end]` are those a scan of the
    /// board finds, in the same order.
    #[cfg(debug_assertions)]
    fn check_fours(&mut self, start: usize, end: usize) {
        let mine: Vec<(Pos, PatternCounts)> = self.tables.spots[start..end]
            .iter()
            .map(|s| (s.pos, s.counts))
            .collect();
        self.scan_fours();
        let mut full: Vec<Spot> = self.tables.spots.drain(end..).collect();
        full.sort_unstable_by_key(|s| (std::cmp::Reverse(s.counts.threat()), s.pos));
        let fresh: Vec<(Pos, PatternCounts)> = full.iter().map(|s| (s.pos, s.counts)).collect();
        assert!(
            fresh == mine,
            "the fours kept from the parent differ from a scan of the board:\n{}",
            self.board.to_ascii()
        );
    }

    /// The end of a line when no defender move stops the attacker's fives `completions`
    /// (see [`unstoppable`]), pushed onto the line buffer (five first).
    fn unstoppable(&mut self, completions: &[Pos]) -> bool {
        match unstoppable(self.board, self.rule, self.attacker, completions) {
            Some((reply, five)) => {
                self.tables.line.push(five);
                self.tables.line.push(reply);
                true
            }
            None => false,
        }
    }
}

/// The end of a line when no defender move stops the attacker's fives `completions`: a
/// defender move (blocking one of them where it may) and a five that is left. None when
/// the defender has no legal move or no five is left.
pub fn unstoppable<B: VcfBoard>(
    board: &mut B,
    rule: Rule,
    attacker: Color,
    completions: &[Pos],
) -> Option<(Pos, Pos)> {
    let d = attacker.opponent();
    let reply = match completions
        .iter()
        .copied()
        .find(|&c| !forbidden(board, rule, c, d))
    {
        Some(c) => c,
        None => any_legal(board, rule, d, completions)?,
    };
    board.put(reply, d);
    let five = completions
        .iter()
        .copied()
        .find(|&c| c != reply && rules::is_winning_move(board, c, attacker, rule));
    board.take(reply);
    five.map(|five| (reply, five))
}

/// True under the Caro rules, where a five closed at both ends does not count.
pub fn capping(rule: Rule) -> bool {
    matches!(rule, Rule::Caro | Rule::CaroExact)
}

/// Is `pos` forbidden for `color`?
pub fn forbidden<B: VcfBoard>(board: &mut B, rule: Rule, pos: Pos, color: Color) -> bool {
    rule.has_fouls_for(color) && rules::renju_foul(board.probe(), pos).is_some()
}

/// A legal square for `color` other than those in `avoid` (for a defender with no useful
/// move).
fn any_legal<B: VcfBoard>(board: &mut B, rule: Rule, color: Color, avoid: &[Pos]) -> Option<Pos> {
    let empties: Vec<Pos> = board.empty_positions().collect();
    empties
        .into_iter()
        .find(|&p| !avoid.contains(&p) && !forbidden(board, rule, p, color))
}

/// The defender's moves that stop all of the attacker's fives `completions` (one or more)
/// at once. Occupying the square is the only way, except under Caro rules, where a stone
/// just past the far end of the five-to-be can also close it at both ends (when the near
/// end already holds a defender stone). Forbidden squares are left out.
///
/// A short list kept on the stack (VCF nodes ask for it at every four): every square in it
/// stops the first completion, by taking it or by closing a five through it at both ends,
/// and only a square just past an end of such a five closes it (two ends on each of four
/// lines), so it never holds more than nine.
pub fn five_defences<B: VcfBoard>(
    board: &mut B,
    rule: Rule,
    attacker: Color,
    completions: &[Pos],
) -> arrayvec::ArrayVec<Pos, 16> {
    let d = attacker.opponent();
    let mut out = arrayvec::ArrayVec::new();
    if !capping(rule) {
        if let [c] = *completions {
            if !forbidden(board, rule, c, d) {
                out.push(c);
            }
        }
        return out;
    }
    // A capping stone stands on the line of the five it closes: only the lines where a
    // completion makes five are looked along (ten squares each at most).
    let mut candidates: Vec<Pos> = completions.to_vec();
    for &c in completions {
        for dir in Direction::ALL {
            if !rules::wins_in_direction(board, c, attacker, rule, dir) {
                continue;
            }
            for q in line_squares_within(board, c, dir, 5) {
                if !candidates.contains(&q) {
                    candidates.push(q);
                }
            }
        }
    }
    for q in candidates {
        if forbidden(board, rule, q, d) {
            continue;
        }
        // A defender stone only takes fives away: just re-check the known ones.
        board.put(q, d);
        let stopped = completions
            .iter()
            .all(|&c| c == q || !rules::is_winning_move(board, c, attacker, rule));
        board.take(q);
        if stopped {
            out.push(q);
        }
    }
    out
}

/// Squares on the lines through `pos` where `color` would complete a five. After a move at
/// `pos` these are the only new fives it can have, which spares a scan of the whole board.
/// (A line with fewer than four such stones within four cells of `pos` is skipped: an
/// older five farther along it may be left out.)
pub fn fives_through(
    board: &Board,
    pos: Pos,
    color: Color,
    rule: Rule,
) -> arrayvec::ArrayVec<Pos, 32> {
    let mut out = arrayvec::ArrayVec::new();
    for dir in Direction::ALL {
        // A new five runs along the line through `pos`: only that direction is tested.
        let r = board.line_ref(pos, dir);
        // Only an empty square of a clean five-square window holding four stones of
        // `color` can complete a five (the rules decide which of those do).
        let own = board.line_stones(color, dir, r.line);
        let reach = rules::window_mask(r.bit, 4);
        if !rules::at_least(own & reach, 4) {
            continue; // no window through `pos` holds four stones: most lines
        }
        let empty = board.line_empty(dir, r.line);
        let mut empty = empty & reach & rules::window_cells(own, empty, 4);
        while empty != 0 {
            let bit = empty.trailing_zeros();
            empty &= empty - 1;
            if let Some(q) = board.pos_on_line(dir, r.line, bit as i32) {
                if rules::wins_in_direction(board, q, color, rule, dir) {
                    out.push(q);
                }
            }
        }
    }
    out
}
