//! The search's board: a plain [`Board`] that also keeps every empty square's line patterns
//! up to date on each move the search plays or takes back.
//!
//! The main search reads the patterns of every candidate square at every node, while a
//! move changes the patterns of only the squares near it on its four lines: keeping them
//! here is far cheaper than looking them up again. The plain board below knows nothing of
//! patterns, so a foul probe or a threat solver's play and undo on it pays nothing for them.

use super::learned::{LearnedSnapshot, LearnedState, LearnedWeights};
use crate::board::{Board, Cell, Color, Pos};
use crate::pattern::{Pattern, PatternCache, PatternTables};
use std::ops::Deref;

/// A [`Board`] with its squares' line patterns kept under one rule's tables.
///
/// Reads go to the plain board through `Deref`; moves go through [`SearchBoard::place`] and
/// [`SearchBoard::remove`], which keep the patterns right. [`SearchBoard::probe`] lends the
/// plain board for place/remove pairs that leave it as they found it (a foul check).
#[derive(Clone)]
pub struct SearchBoard {
    board: Board,
    cache: PatternCache,
    /// The learned evaluation's sums, when the search evaluates with learned weights.
    learned: Option<LearnedState>,
    /// What each [`SearchBoard::place`] changed, newest last, so that the matching
    /// [`SearchBoard::remove`] puts the old values back instead of recomputing them.
    changes: Vec<Change>,
    /// One entry a place not yet taken back: its square, where its changes start in
    /// `changes`, and the learned state's values it changed outside them.
    placed: Vec<Placed>,
}

/// One kept value a place changed: the pattern of a square for a colour on one line, with
/// the learned state's tuple index and code of that square and colour before the change.
#[derive(Clone, Copy, Debug)]
pub struct Change {
    /// The square's index.
    pub square: u16,
    /// The colour's index.
    pub color: u8,
    /// The line's direction index.
    pub dir: u8,
    /// The pattern before the change.
    pub old: Pattern,
    /// The learned state's tuple index before the change (0 without a learned state).
    pub old_tuple: u16,
    /// The learned state's code before the change (0 without a learned state).
    pub old_code: u16,
}

impl Change {
    /// A pattern change of square `square` for colour index `color` on line `dir`, with
    /// no learned values noted.
    #[inline(always)]
    pub fn pattern(square: usize, color: usize, dir: usize, old: Pattern) -> Change {
        Change {
            square: square as u16,
            color: color as u8,
            dir: dir as u8,
            old,
            old_tuple: 0,
            old_code: 0,
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Placed {
    pos: Pos,
    changes_from: usize,
    /// The learned state's values this place changed; `None` where the board keeps no
    /// learned state, or the place was [`SearchBoard::place_patterns_only`]'s.
    learned: Option<LearnedSnapshot>,
}

impl SearchBoard {
    /// `board` with its patterns under `tables` (for the classic evaluation).
    pub fn new(board: Board, tables: PatternTables) -> SearchBoard {
        SearchBoard::with_weights(board, tables, None)
    }

    /// `board` with its patterns under `tables`, and the learned evaluation's state under
    /// `weights` when given.
    pub fn with_weights(
        board: Board,
        tables: PatternTables,
        weights: Option<&'static LearnedWeights>,
    ) -> SearchBoard {
        let cache = PatternCache::new(&board, tables);
        let learned = weights.map(|w| LearnedState::new(&board, &cache, w));
        SearchBoard {
            board,
            cache,
            learned,
            changes: Vec::new(),
            placed: Vec::new(),
        }
    }

    /// The learned evaluation's state, when the board keeps one.
    #[inline]
    pub fn learned(&self) -> Option<&LearnedState> {
        self.learned.as_ref()
    }

    /// Order moves by the learned weights' move scores (when the board keeps the learned
    /// state; nothing otherwise).
    pub fn set_learned_ordering(&mut self, on: bool) {
        if let Some(l) = &mut self.learned {
            l.set_order_moves(on);
        }
    }

    /// The kept patterns of every square (for a from-scratch recompute in tests and
    /// training).
    #[inline]
    pub fn pattern_cache(&self) -> &PatternCache {
        &self.cache
    }

    /// The tables the patterns come from.
    #[inline]
    pub fn tables(&self) -> &PatternTables {
        self.cache.tables()
    }

    /// The plain board for changes that are undone before the next pattern read (a foul
    /// probe's place and remove): the kept patterns are not refreshed for them.
    #[inline]
    pub fn probe(&mut self) -> &mut Board {
        &mut self.board
    }

    /// Put a stone (or a blocked marker) on an empty square and refresh the patterns of the
    /// squares whose lines it changed, noting the old values for the matching remove.
    #[inline]
    pub fn place(&mut self, pos: Pos, cell: Cell) {
        self.place_noting(pos, cell, true);
    }

    /// [`SearchBoard::place`] for a line of play that reads only patterns (the leaf VCF):
    /// the learned state is left as it was, which spares its updates. Such a stone must be
    /// taken back by [`SearchBoard::remove`] while it is the last one placed, before any
    /// other place or any read of the learned state.
    #[inline]
    pub fn place_patterns_only(&mut self, pos: Pos, cell: Cell) {
        self.place_noting(pos, cell, false);
    }

    /// Place and note the changes for the matching remove; the learned state (if kept)
    /// follows only `with_learned`.
    #[inline(always)]
    fn place_noting(&mut self, pos: Pos, cell: Cell, with_learned: bool) {
        self.board.place(pos, cell);
        let changes_from = self.changes.len();
        let changes = &mut self.changes;
        let learned = match &mut self.learned {
            Some(l) if with_learned => {
                Some(l.refresh_around_noting(&self.board, &mut self.cache, pos, changes))
            }
            _ => {
                self.cache
                    .refresh_around_noting(&self.board, pos, |q, c, dir, old, _| {
                        changes.push(Change::pattern(q, c, dir, old))
                    });
                None
            }
        };
        self.placed.push(Placed {
            pos,
            changes_from,
            learned,
        });
    }

    /// Take back what stands on a square and bring the patterns around it back. Taking
    /// back the last place restores the values it noted (the board is then as it was
    /// before that place, so they are right); any other square is recomputed, and the
    /// notes, which no longer describe the board, are dropped.
    #[inline]
    pub fn remove(&mut self, pos: Pos) {
        self.board.remove(pos);
        match self.placed.last() {
            Some(last) if last.pos == pos => {
                let last = self.placed.pop().expect("just seen");
                let changes = &self.changes[last.changes_from..];
                for ch in changes.iter().rev() {
                    self.cache.restore(
                        usize::from(ch.square),
                        usize::from(ch.color),
                        usize::from(ch.dir),
                        ch.old,
                    );
                }
                if let (Some(l), Some(snapshot)) = (&mut self.learned, last.learned) {
                    l.restore(changes, pos, snapshot);
                }
                self.changes.truncate(last.changes_from);
            }
            _ => {
                debug_assert!(
                    self.learned.is_none() || self.placed.iter().all(|p| p.learned.is_some()),
                    "a stone placed for patterns only is still on the board"
                );
                self.placed.clear();
                self.changes.clear();
                self.cache.refresh_square(&self.board, pos);
                match &mut self.learned {
                    Some(l) => l.refresh_around(&self.board, &mut self.cache, pos),
                    None => self.cache.refresh_around(&self.board, pos),
                }
            }
        }
    }

    /// The patterns `color` would form on the four lines by playing `pos`: kept for empty
    /// squares, looked up for occupied ones.
    #[inline(always)]
    pub fn patterns(&self, pos: Pos, color: Color) -> [Pattern; 4] {
        if self.board.is_empty(pos) {
            self.cache.patterns(pos, color)
        } else {
            self.tables().patterns(&self.board, pos, color)
        }
    }
}

impl Deref for SearchBoard {
    type Target = Board;

    #[inline]
    fn deref(&self) -> &Board {
        &self.board
    }
}

/// The leaf VCF runs on the search board in place: its stones update the kept patterns
/// only ([`SearchBoard::place_patterns_only`]), and the squares where a side makes a four
/// are kept by row ([`PatternCache::four_rows`]).
impl super::vcf::VcfBoard for SearchBoard {
    #[inline(always)]
    fn patterns(&self, pos: Pos, color: Color) -> [Pattern; 4] {
        SearchBoard::patterns(self, pos, color)
    }

    #[inline]
    fn put(&mut self, pos: Pos, color: Color) {
        self.place_patterns_only(pos, Cell::Stone(color));
    }

    #[inline]
    fn take(&mut self, pos: Pos) {
        self.remove(pos);
    }

    fn probe(&mut self) -> &mut Board {
        &mut self.board
    }

    #[inline]
    fn four_candidates(&self, color: Color) -> [u32; crate::board::MAX_SIZE] {
        let mut rows = *self.cache.four_rows(color);
        for (y, row) in rows.iter_mut().enumerate().take(self.board.height()) {
            *row &= self
                .board
                .line_empty(crate::board::Direction::Horizontal, y);
        }
        rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Direction;
    use crate::pattern::tests::xorshift;
    use crate::pattern::{PatternCounts, Threat};
    use crate::rules::Rule;

    /// The kept patterns agree with fresh table lookups on every square after any run of
    /// places and removes of stones and blocked squares, for every rule and on odd sizes;
    /// probes (place and remove on the plain board) leave them right too.
    #[test]
    fn kept_patterns_match_a_fresh_lookup() {
        let mut next = xorshift(0x0BAD_5EED_1234_5678);
        for rule in Rule::ALL {
            let tables = PatternTables::new(rule);
            for &(w, h) in &[(15, 15), (20, 20), (7, 12), (32, 32)] {
                let mut b = SearchBoard::new(Board::new(w, h).unwrap(), tables);
                let mut placed: Vec<Pos> = Vec::new();
                for step in 0..400 {
                    let p = Pos::new((next() % w as u64) as usize, (next() % h as u64) as usize);
                    if placed.is_empty() || !next().is_multiple_of(3) {
                        if !b.is_empty(p) {
                            continue;
                        }
                        let cell = match next() % 9 {
                            0 => Cell::Blocked,
                            k if k.is_multiple_of(2) => Cell::Stone(Color::Black),
                            _ => Cell::Stone(Color::White),
                        };
                        b.place(p, cell);
                        placed.push(p);
                    } else if next().is_multiple_of(2) && b.is_empty(p) {
                        b.probe().place(p, Cell::Stone(Color::Black));
                        b.probe().remove(p);
                    } else {
                        let i = (next() % placed.len() as u64) as usize;
                        b.remove(placed.swap_remove(i));
                    }
                    if step % 20 != 19 {
                        continue;
                    }
                    for p in b.positions().collect::<Vec<_>>() {
                        for color in Color::BOTH {
                            let fresh = Direction::ALL.map(|d| tables.pattern(&b, p, color, d));
                            assert_eq!(
                                b.patterns(p, color),
                                fresh,
                                "{rule:?} {w}x{h} at {p} for {color:?}"
                            );
                            if b.is_empty(p) {
                                let threat = |c| PatternCounts::of(&b.patterns(p, c)).threat();
                                assert_eq!(
                                    b.pattern_cache().threatens(p),
                                    Color::BOTH.iter().any(|&c| threat(c) > Threat::None),
                                    "threat test {rule:?} {w}x{h} at {p}"
                                );
                                let row = b.pattern_cache().four_rows(color)[p.y()];
                                assert_eq!(
                                    row >> p.x() & 1 == 1,
                                    Pattern::strongest(&fresh) >= Pattern::B4,
                                    "four bit {rule:?} {w}x{h} at {p} for {color:?}"
                                );
                            }
                        }
                    }
                }
                // Emptied again, every square reads as on a fresh board.
                for p in placed.drain(..) {
                    b.remove(p);
                }
                let fresh = Board::new(w, h).unwrap();
                for p in fresh.positions() {
                    for color in Color::BOTH {
                        assert_eq!(b.patterns(p, color), tables.patterns(&fresh, p, color));
                    }
                }
                assert_eq!(*b, b.recomputed());
            }
        }
    }

    /// With the learned state kept too, take-backs of the last move (restored from the
    /// notes), of an older move (recomputed, the notes dropped) and nested runs of both
    /// leave the patterns, codes and sums as a from-scratch recompute has them.
    #[test]
    fn restored_and_recomputed_take_backs_match_a_recompute() {
        let mut next = xorshift(0x00DE_CAF0_5EED);
        for rule in Rule::ALL {
            let tables = PatternTables::new(rule);
            // The embedded tables with a random network, so that its kept sums are
            // checked too.
            let mut with_net = super::super::Evaluator::learned()
                .weights_for(rule)
                .expect("learned weights")
                .clone();
            with_net.net = Some(Box::new(super::super::net::random_for_tests(
                with_net.family,
                next(),
            )));
            let weights = Some(&*Box::leak(Box::new(with_net)));
            let mut b = SearchBoard::with_weights(Board::new(15, 15).unwrap(), tables, weights);
            let mut placed: Vec<Pos> = Vec::new();
            let (mut restored, mut recomputed) = (0, 0);
            for step in 0..600 {
                let p = Pos::new(3 + (next() % 9) as usize, 3 + (next() % 9) as usize);
                let roll = next() % 10;
                if placed.is_empty() || roll < 6 {
                    if !b.is_empty(p) {
                        continue;
                    }
                    let color = if next().is_multiple_of(2) {
                        Color::Black
                    } else {
                        Color::White
                    };
                    b.place(p, Cell::Stone(color));
                    placed.push(p);
                } else if roll < 9 {
                    let last = placed.pop().unwrap();
                    restored += usize::from(b.placed.last().is_some_and(|l| l.pos == last));
                    b.remove(last);
                } else {
                    let i = (next() % placed.len() as u64) as usize;
                    recomputed += usize::from(i + 1 < placed.len());
                    b.remove(placed.remove(i));
                }
                // Now and then a run of stones for the patterns only (as the leaf VCF
                // plays them), checked and taken back last first.
                let mut quick: Vec<Pos> = Vec::new();
                if next().is_multiple_of(4) {
                    for _ in 0..3 {
                        let q = Pos::new(3 + (next() % 9) as usize, 3 + (next() % 9) as usize);
                        if b.is_empty(q) {
                            b.place_patterns_only(q, Cell::Stone(Color::BOTH[quick.len() % 2]));
                            quick.push(q);
                        }
                    }
                }
                for round in 0..2 {
                    let fresh = SearchBoard::with_weights((*b).clone(), tables, weights);
                    for q in b.positions().filter(|&q| b.is_empty(q)).collect::<Vec<_>>() {
                        for color in Color::BOTH {
                            assert_eq!(
                                b.patterns(q, color),
                                fresh.patterns(q, color),
                                "{rule:?} step {step} at {q}"
                            );
                            assert_eq!(
                                b.pattern_cache().four_rows(color)[q.y()] >> q.x() & 1,
                                fresh.pattern_cache().four_rows(color)[q.y()] >> q.x() & 1,
                                "four bit {rule:?} step {step} at {q}"
                            );
                        }
                    }
                    if round == 0 {
                        while let Some(q) = quick.pop() {
                            b.remove(q);
                        }
                    }
                }
                let diff = b.learned().unwrap().differences(&b, b.pattern_cache());
                assert!(diff.is_empty(), "{rule:?} step {step}: {diff:?}");
            }
            assert!(restored > 50 && recomputed > 10, "{restored} {recomputed}");
        }
    }
}
