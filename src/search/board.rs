//! The search's board: a plain [`Board`] that also keeps every empty square's line patterns
//! up to date on each move the search plays or takes back.
//!
//! The main search reads the patterns of every candidate square at every node, while a
//! move changes the patterns of only the squares near it on its four lines: keeping them
//! here is far cheaper than looking them up again. The plain board below knows nothing of
//! patterns, so a foul probe or a threat solver's play and undo on it pays nothing for them.

use super::learned::{LearnedState, LearnedWeights};
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
    /// squares whose lines it changed.
    #[inline]
    pub fn place(&mut self, pos: Pos, cell: Cell) {
        self.board.place(pos, cell);
        match &mut self.learned {
            Some(l) => l.refresh_around(&self.board, &mut self.cache, pos),
            None => self.cache.refresh_around(&self.board, pos),
        }
    }

    /// Take back what stands on a square and refresh the patterns around it and its own
    /// (not kept while it was occupied).
    #[inline]
    pub fn remove(&mut self, pos: Pos) {
        self.board.remove(pos);
        self.cache.refresh_square(&self.board, pos);
        match &mut self.learned {
            Some(l) => l.refresh_around(&self.board, &mut self.cache, pos),
            None => self.cache.refresh_around(&self.board, pos),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Direction;
    use crate::pattern::tests::xorshift;
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
}
