//! The root move list: every legal root move with what the search has learnt about it
//! across iterations (score and its bound, depth, principal variation, proof state), and
//! which move the search currently holds best.
//!
//! The list keeps the order in which the root's node analysis produced the moves; the
//! search orders them at the root as at any node. Root shortcuts (a five, a single legal
//! move, a forced block, an open four, a proven VCF or VCT) report here as well, so that
//! every search ends by reading its answer off this list.

use super::score::{is_decisive, WIN_BOUND};
use super::tt::Bound;
use super::SearchOutcome;
use crate::board::Pos;

/// What is proven about a root move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// Nothing proven.
    Unknown,
    /// The move wins by force.
    Won,
    /// The move loses by force.
    Lost,
}

/// One root move and what the search knows about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootMove {
    /// The square.
    pub pos: Pos,
    /// Last score found for the move, for the side to move; exact, or a bound (see
    /// `bound`). Meaningless until `depth` > 0 or the move is proven.
    pub score: i32,
    /// Whether `score` is exact or a bound.
    pub bound: Bound,
    /// Depth of the iteration that gave `score` (0: not searched yet).
    pub depth: u32,
    /// Principal variation starting with the move (just the move when only a bound is
    /// known).
    pub pv: Vec<Pos>,
    /// Proven win or loss.
    pub proof: Proof,
    /// The threat thread found a VCT for the opponent after this move: the search leaves
    /// it out while any other move is left.
    pub refuted: bool,
}

impl RootMove {
    fn new(pos: Pos) -> RootMove {
        RootMove {
            pos,
            score: 0,
            bound: Bound::Upper,
            depth: 0,
            pv: vec![pos],
            proof: Proof::Unknown,
            refuted: false,
        }
    }
}

/// The root moves of one search.
#[derive(Clone, Debug, Default)]
pub struct RootMoves {
    moves: Vec<RootMove>,
    /// Index of the move the search holds best, with the depth and score it was chosen at.
    best: Option<usize>,
    best_depth: u32,
    best_score: i32,
    /// The principal variation the best move was chosen with.
    best_pv: Vec<Pos>,
    /// The last multi-PV iteration's lines (first move, score), best first.
    lines: Vec<(Pos, i32)>,
}

impl RootMoves {
    /// A list of the given legal moves, in that order.
    pub fn new(legal: impl IntoIterator<Item = Pos>) -> RootMoves {
        RootMoves {
            moves: legal.into_iter().map(RootMove::new).collect(),
            ..RootMoves::default()
        }
    }

    /// All root moves, in the list's order.
    pub fn moves(&self) -> &[RootMove] {
        &self.moves
    }

    /// Number of root moves.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// True when there is no root move.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The entry of `pos`, if it is a root move.
    pub fn get(&self, pos: Pos) -> Option<&RootMove> {
        self.moves.iter().find(|m| m.pos == pos)
    }

    fn index_or_insert(&mut self, pos: Pos) -> usize {
        match self.moves.iter().position(|m| m.pos == pos) {
            Some(i) => i,
            None => {
                // A move outside the node analysis' list (a fallback square): keep it.
                self.moves.push(RootMove::new(pos));
                self.moves.len() - 1
            }
        }
    }

    /// Record a search result for `pos` at iteration `depth`: the score, whether it is
    /// exact or a bound, and the line after the move (used when the score is not an upper
    /// bound). Decisive scores set the proof state.
    pub fn record(&mut self, pos: Pos, score: i32, bound: Bound, depth: u32, line: &[Pos]) {
        let i = self.index_or_insert(pos);
        let m = &mut self.moves[i];
        m.score = score;
        m.bound = bound;
        m.depth = depth;
        m.pv.clear();
        m.pv.push(pos);
        if bound != Bound::Upper {
            m.pv.extend_from_slice(line);
        }
        if is_decisive(score) {
            if score >= WIN_BOUND && bound != Bound::Upper {
                m.proof = Proof::Won;
            } else if score <= -WIN_BOUND && bound != Bound::Lower {
                m.proof = Proof::Lost;
            }
        }
    }

    /// Make `pv[0]` the best move, with an exact score from a completed iteration of
    /// `depth` (or a shortcut) and its principal variation.
    pub fn set_best(&mut self, score: i32, depth: u32, pv: &[Pos]) {
        let Some(&pos) = pv.first() else { return };
        self.record(pos, score, Bound::Exact, depth, &pv[1..]);
        self.best = Some(self.index_or_insert(pos));
        self.best_depth = depth;
        self.best_score = score;
        self.best_pv = pv.to_vec();
    }

    /// The move an unfinished iteration of `depth` found better than the best move: one
    /// searched in full at that depth (an exact score or a lower bound, not refuted)
    /// whose score beats what the same iteration gave the best move. None when the best
    /// move was not searched at that depth (nothing to compare with) or held.
    pub fn better_in_unfinished(&self, depth: u32) -> Option<&RootMove> {
        let best = self.best()?;
        if best.depth != depth {
            return None;
        }
        self.moves
            .iter()
            .filter(|m| {
                m.pos != best.pos
                    && m.depth == depth
                    && m.bound != Bound::Upper
                    && !m.refuted
                    && m.score > best.score
            })
            .max_by_key(|m| m.score)
    }

    /// Make `pos` the best move in place of one found refuted, keeping the score and depth
    /// the old one was chosen with (nothing better is known); its line is known no further
    /// than the move itself.
    pub fn replace_best(&mut self, pos: Pos) {
        self.best = Some(self.index_or_insert(pos));
        self.best_pv = vec![pos];
    }

    /// Record a proven win for `pv[0]` along `pv` (a root shortcut or a solver's line),
    /// scored `score`, and make it the best move.
    pub fn set_won(&mut self, score: i32, depth: u32, pv: &[Pos]) {
        self.set_best(score, depth, pv);
        if let Some(i) = self.best {
            self.moves[i].proof = Proof::Won;
        }
    }

    /// The lines of a completed multi-PV iteration, best first.
    pub fn set_lines(&mut self, lines: Vec<(Pos, i32)>) {
        self.lines = lines;
    }

    /// Mark `pos` as refuted: the opponent has a VCT after it.
    pub fn refute(&mut self, pos: Pos) {
        let i = self.index_or_insert(pos);
        self.moves[i].refuted = true;
        self.moves[i].proof = Proof::Lost;
    }

    /// The refuted moves, in the list's order.
    pub fn refuted(&self) -> Vec<Pos> {
        self.moves
            .iter()
            .filter(|m| m.refuted)
            .map(|m| m.pos)
            .collect()
    }

    /// The best move so far.
    pub fn best(&self) -> Option<&RootMove> {
        self.best.map(|i| &self.moves[i])
    }

    /// The search's answer: the best move, the score and depth it was chosen with, its
    /// line, and `nodes`. None before any move was chosen.
    pub fn outcome(&self, nodes: u64) -> Option<SearchOutcome> {
        let best = self.best()?;
        Some(SearchOutcome {
            best: best.pos,
            score: self.best_score,
            depth: self.best_depth,
            nodes,
            pv: self.best_pv.clone(),
            blocks_ignored: false,
            lines: if self.lines.first().is_some_and(|l| l.0 == best.pos) {
                self.lines.clone()
            } else {
                vec![(best.pos, self.best_score)]
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::WIN;

    #[test]
    fn results_bounds_and_proofs_are_kept_per_move() {
        let (a, b, c) = (Pos::new(7, 7), Pos::new(8, 8), Pos::new(6, 6));
        let mut root = RootMoves::new([a, b, c]);
        assert_eq!(root.len(), 3);
        assert!(root.best().is_none() && root.outcome(0).is_none());
        root.record(b, -40, Bound::Upper, 3, &[c]);
        let m = root.get(b).unwrap();
        assert_eq!((m.score, m.depth, m.pv.clone()), (-40, 3, vec![b]));
        root.set_best(25, 3, &[a, c, b]);
        let out = root.outcome(99).unwrap();
        assert_eq!((out.best, out.score, out.depth, out.nodes), (a, 25, 3, 99));
        assert_eq!(out.pv, vec![a, c, b]);
        root.record(c, -(WIN - 4), Bound::Exact, 4, &[]);
        assert_eq!(root.get(c).unwrap().proof, Proof::Lost);
        // A lower bound that is a win proves it; an upper bound does not.
        root.record(b, WIN - 9, Bound::Upper, 4, &[]);
        assert_eq!(root.get(b).unwrap().proof, Proof::Unknown);
        root.record(b, WIN - 9, Bound::Lower, 4, &[a]);
        assert_eq!(root.get(b).unwrap().proof, Proof::Won);
        root.refute(a);
        assert_eq!(root.refuted(), vec![a]);
        // The best move stays the chosen one until replaced; the order stays the analysis'.
        assert_eq!(root.best().unwrap().pos, a);
        root.replace_best(b);
        let out = root.outcome(5).unwrap();
        assert_eq!(
            (out.best, out.score, out.depth, out.pv),
            (b, 25, 3, vec![b])
        );
        let order: Vec<Pos> = root.moves().iter().map(|m| m.pos).collect();
        assert_eq!(order, vec![a, b, c]);
    }

    #[test]
    fn an_unfinished_iteration_gives_a_move_searched_in_full_that_beat_the_best() {
        let (a, b, c, d) = (
            Pos::new(7, 7),
            Pos::new(8, 8),
            Pos::new(6, 6),
            Pos::new(5, 5),
        );
        let mut root = RootMoves::new([a, b, c, d]);
        // Depth 4 completed with `a`; depth 5 not yet begun: nothing to compare.
        root.set_best(100, 4, &[a, b]);
        assert!(root.better_in_unfinished(5).is_none());
        // Depth 5: `a` failed low at 20; `b` only bounded (zero window), `c` searched in
        // full at 60, `d` at 90 but refuted.
        root.record(a, 20, Bound::Upper, 5, &[b]);
        root.record(b, 20, Bound::Upper, 5, &[]);
        assert!(
            root.better_in_unfinished(5).is_none(),
            "bounds alone prove nothing"
        );
        root.record(c, 60, Bound::Exact, 5, &[a, d]);
        root.record(d, 90, Bound::Exact, 5, &[a]);
        root.refute(d);
        let better = root.better_in_unfinished(5).unwrap();
        assert_eq!(
            (better.pos, better.score, better.pv.clone()),
            (c, 60, vec![c, a, d])
        );
        // A fail high (a lower bound) counts too, the highest wins.
        root.record(b, 75, Bound::Lower, 5, &[c]);
        assert_eq!(root.better_in_unfinished(5).unwrap().pos, b);
        // No better move where the best held at this depth.
        root.record(a, 80, Bound::Exact, 5, &[b]);
        assert!(root.better_in_unfinished(5).is_none());
        // A result of an older iteration does not count.
        assert!(root.better_in_unfinished(6).is_none());
    }

    #[test]
    fn a_shortcut_win_outside_the_list_is_kept() {
        let mut root = RootMoves::new([Pos::new(1, 1)]);
        let five = Pos::new(3, 3);
        root.set_won(WIN - 1, 1, &[five]);
        assert_eq!(root.best().unwrap().proof, Proof::Won);
        assert_eq!(root.outcome(1).unwrap().best, five);
    }
}
