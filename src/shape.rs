//! Threat shapes made by one move: what a stone on a square would form on each line
//! (five, open four, four, open three, closed three, and room to grow), rule-aware.
//!
//! This is computed directly from the line masks and is used to score candidate moves.

use crate::board::{Board, Color, Direction, Pos};
use crate::rules::{at_least, line_run_wins, window_mask, Rule};

/// What one move forms on one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LineShape {
    /// Nothing of note.
    None,
    /// A three that can only become a closed four.
    ClosedThree,
    /// A three that one more stone turns into a four with two completing squares.
    OpenThree,
    /// A four with one completing square.
    Four,
    /// A four with two completing squares (open four, or two fours on one line).
    OpenFour,
    /// A winning line.
    Five,
}

/// The shapes a move forms over all four directions, and its room to grow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveShapes {
    /// Lines that win at once.
    pub fives: u8,
    /// Lines with an open four (or a double four on one line).
    pub open_fours: u8,
    /// Lines with a simple four.
    pub fours: u8,
    /// Lines with an open three.
    pub open_threes: u8,
    /// Lines with a closed three.
    pub closed_threes: u8,
    /// Five-cell windows through the move, free of opponent stones and walls, weighted by the
    /// number of own stones they would hold (a measure of room and connection).
    pub potential: u32,
}

impl MoveShapes {
    /// True when the move wins at once.
    #[inline]
    pub fn is_five(&self) -> bool {
        self.fives > 0
    }

    /// True when the move makes a four the opponent cannot answer with one stone
    /// (open four or two fours).
    #[inline]
    pub fn is_unstoppable_four(&self) -> bool {
        self.open_fours > 0 || self.fours >= 2
    }

    /// Any four (simple or open).
    #[inline]
    pub fn any_four(&self) -> bool {
        self.fours > 0 || self.open_fours > 0
    }
}

/// Squares on the line that would complete a win for `color` together with the stones `own`
/// (a mask that already includes the stone at `bit`), restricted to runs through `bit`.
#[inline]
fn completing_squares(own: u32, opp: u32, empty: u32, bit: u32, color: Color, rule: Rule) -> u32 {
    let mut candidates = empty & window_mask(bit, 4);
    let mut points = 0;
    while candidates != 0 {
        let q = candidates.trailing_zeros();
        candidates &= candidates - 1;
        let with = own | (1 << q);
        // The new run must contain `bit`: runs are contiguous, so test the run around q.
        if line_run_wins(with, opp, q, color, rule) && run_contains(with, q, bit) {
            points |= 1 << q;
        }
    }
    points
}

#[inline]
fn run_contains(mask: u32, from: u32, target: u32) -> bool {
    let (lo, hi) = if from <= target {
        (from, target)
    } else {
        (target, from)
    };
    let span = ((1u64 << (hi - lo + 1)) - 1) as u32;
    (mask >> lo) & span == span
}

/// The shape `color` would form on one line by playing `pos` (an empty square).
pub fn line_shape(board: &Board, pos: Pos, color: Color, rule: Rule, dir: Direction) -> LineShape {
    let r = board.line_ref(pos, dir);
    let own = board.line_stones(color, dir, r.line) | (1 << r.bit);
    let opp = board.line_stones(color.opponent(), dir, r.line);
    let empty = board.line_empty(dir, r.line) & !(1 << r.bit);
    if line_run_wins(own, opp, r.bit, color, rule) {
        return LineShape::Five;
    }
    if !at_least(own & window_mask(r.bit, 4), 3) {
        return LineShape::None;
    }
    let fives = completing_squares(own, opp, empty, r.bit, color, rule);
    match fives.count_ones() {
        0 => {}
        1 => return LineShape::Four,
        _ => return LineShape::OpenFour,
    }
    let mut best = LineShape::None;
    let mut extensions = empty & window_mask(r.bit, 4);
    while extensions != 0 {
        let q = extensions.trailing_zeros();
        extensions &= extensions - 1;
        let own2 = own | (1 << q);
        let points = completing_squares(own2, opp, empty & !(1 << q), r.bit, color, rule);
        if at_least(points, 2) {
            return LineShape::OpenThree;
        }
        if points != 0 {
            best = LineShape::ClosedThree;
        }
    }
    best
}

/// Five-cell windows through `pos` on one line that hold no opponent stone and no wall,
/// scored by the number of own stones they would contain.
fn line_potential(board: &Board, pos: Pos, color: Color, dir: Direction) -> u32 {
    let r = board.line_ref(pos, dir);
    let own = board.line_stones(color, dir, r.line) | (1 << r.bit);
    let free = board.line_empty(dir, r.line) | own;
    let mut total = 0;
    let start = r.bit.saturating_sub(4);
    for lo in start..=r.bit {
        if lo + 4 > 31 {
            break;
        }
        let window = 0b11111u32 << lo;
        if free & window == window {
            let n = (own & window).count_ones();
            total += match n {
                1 => 1,
                2 => 4,
                3 => 12,
                _ => 30,
            };
        }
    }
    total
}

/// All shapes `color` would form by playing the empty square `pos`.
pub fn move_shapes(board: &Board, pos: Pos, color: Color, rule: Rule) -> MoveShapes {
    let mut shapes = MoveShapes::default();
    for dir in Direction::ALL {
        match line_shape(board, pos, color, rule, dir) {
            LineShape::Five => shapes.fives += 1,
            LineShape::OpenFour => shapes.open_fours += 1,
            LineShape::Four => shapes.fours += 1,
            LineShape::OpenThree => shapes.open_threes += 1,
            LineShape::ClosedThree => shapes.closed_threes += 1,
            LineShape::None => {}
        }
        shapes.potential += line_potential(board, pos, color, dir);
    }
    shapes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape_at(diagram: &str, x: usize, y: usize, color: Color, rule: Rule) -> MoveShapes {
        let b = Board::from_ascii(diagram).unwrap();
        move_shapes(&b, Pos::new(x, y), color, rule)
    }

    const ROW: &str = "...........
                       ...........
                       ...XXX.....
                       ...........
                       ...........";

    #[test]
    fn open_three_becomes_open_four() {
        let s = shape_at(ROW, 6, 2, Color::Black, Rule::Freestyle);
        assert_eq!(s.open_fours, 1);
        let s = shape_at(ROW, 2, 2, Color::Black, Rule::Freestyle);
        assert_eq!(s.open_fours, 1);
        let s = shape_at(ROW, 7, 2, Color::Black, Rule::Freestyle);
        assert_eq!(s.fours, 1, "XXX.X is a simple four");
    }

    #[test]
    fn blocked_three_is_closed() {
        let d = "...........
                 ...........
                 ..OXX......
                 ...........
                 ...........";
        let s = shape_at(d, 5, 2, Color::Black, Rule::Freestyle);
        assert_eq!(s.closed_threes, 1);
        assert_eq!(s.open_threes, 0);
        let s = shape_at(d, 6, 2, Color::Black, Rule::Freestyle);
        assert_eq!((s.open_threes, s.closed_threes), (0, 1));
    }

    #[test]
    fn two_makes_open_three() {
        let d = "...........
                 ...........
                 ....XX.....
                 ...........
                 ...........";
        let s = shape_at(d, 6, 2, Color::White, Rule::Freestyle);
        assert_eq!(s.open_threes, 0, "white has no stones there");
        let s = shape_at(d, 6, 2, Color::Black, Rule::Freestyle);
        assert_eq!(s.open_threes, 1);
    }

    #[test]
    fn standard_rule_overline_is_not_five() {
        let d = "...........
                 ...........
                 .XXXX.X....
                 ...........
                 ...........";
        let s = shape_at(d, 5, 2, Color::Black, Rule::Standard);
        assert!(!s.is_five());
        let s = shape_at(d, 5, 2, Color::Black, Rule::Freestyle);
        assert!(s.is_five());
    }
}
