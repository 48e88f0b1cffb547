//! Game rules: which lines win, and Renju's forbidden moves for Black.
//!
//! The fast code here works on the board's per-line bit masks. A deliberately simple
//! reference implementation lives in the tests (`tests/common/reference.rs`) and is compared
//! against this one on many random positions; `tests/renju_referee.rs` compares both with the
//! Gomocup referee itself.
//!
//! # Forbidden moves, as the Gomocup referee judges them
//!
//! In a Gomocup renju game the manager's referee decides, and a forbidden move loses at
//! once. That referee is the `foulr` routine of Piskvork's `renju.cpp` (GomocupJudge's
//! `check_forbid.py` adapts it; the PyPI package `renju` ports it). [`renju_foul`] judges as
//! it does. Black's stone is imagined on the empty square `*`; then, in this order:
//!
//! 1. **Exact five first.** If any line through `*` holds exactly five black stones in a row,
//!    the move wins and is never forbidden, whatever the other lines hold:
//!
//!    ```text
//!    . X X X X * . .      five across: allowed, even if `*` also made an
//!                          overline or two fours on other lines
//!    ```
//! 2. **Overline.** Six or more black stones in a row through `*`: forbidden.
//!
//!    ```text
//!    . X X * X X X .      six: forbidden (unless a five on another line, rule 1)
//!    ```
//! 3. **Double four.** A *four* through `*` is a line where one more black stone on some
//!    empty square makes an exact five containing `*`. An open (straight) four counts once.
//!    Two fours on two lines, or two fours on *one* line, are forbidden. One line holds two
//!    fours exactly in these shapes, with `*` among the middle stones and no black stone just
//!    beyond either end:
//!
//!    ```text
//!    X . X * X . X        X X . * X . X X        X X X . * . X X X
//!    ```
//! 4. **Double three.** A *three* through `*` is a line where one more black stone on some
//!    empty square `s` makes a straight four (`. X X X X .`, with no black stone just beyond
//!    either end, so both of its fives are exact) whose four stones include `*` and `s`.
//!    The three is *real* only when `s` is playable: the referee judges `s` with rules 1-4
//!    again (with `*` standing), recursively, and the three counts only if `s` is neither
//!    forbidden **nor a five**. A square that makes a five counts as unplayable here, although
//!    a five is never forbidden as a move (rule 1): the referee calls itself on `s` asking a
//!    five to report as a foul. Two or more real threes on different lines: forbidden.
//!
//!    ```text
//!    . . . . . X . .      Across, `X X s *` is a three only through `s`, and `s`
//!    . . . . . X . .      makes a five down the column. So the three across is not
//!    . . . . . X . .      real: with the open three down, `*` holds one real three
//!    . . . . . X . .      and is allowed. Take one stone off the column and `s`
//!    . . . X X s * .      makes no five: the three is real and `*` is a double three.
//!    . . . . . . X .
//!    . . . . . . X .
//!    ```
//!
//!    A line holds at most one three through `*`: its straight-four squares are either one
//!    square or the two ends of `. . X X X . .`; the three is real when either is playable.
//!    The recursion ends because every level adds a stone.

pub use crate::board::geometry::{at_least, window_mask};
use crate::board::{Board, Cell, Color, Direction, Pos};
use std::fmt;

/// The rule a game is played under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Five or more in a row wins, for both colours.
    Freestyle,
    /// Exactly five wins; an overline does not (both colours).
    Standard,
    /// Renju: Black wins with exactly five and may not play double-three, double-four or
    /// overline; White wins with five or more.
    Renju,
    /// Caro: five or more wins, except an exact five with opponent stones at both ends.
    Caro,
    /// Caro with exact five: exactly five, not blocked by opponent stones at both ends.
    CaroExact,
}

impl Rule {
    /// Decode an `INFO rule` bitmask. Returns the rule and, where part of the value was
    /// ignored or unusual, a note for a `MESSAGE`. `None` for values that cannot be a rule
    /// (negative).
    ///
    /// Bits: 1 exact five, 2 continuous game, 4 renju, 8 caro. 4 wins over everything;
    /// else 8 (with bit 1: exact caro); else 1 standard; else freestyle. The value 2 alone is
    /// Yixin-Board's code for renju.
    pub fn from_code(code: i64) -> Option<(Rule, Option<String>)> {
        if !(0..=i64::from(u32::MAX)).contains(&code) {
            return None;
        }
        if code == 2 {
            return Some((Rule::Renju, None));
        }
        let rule = if code & 4 != 0 {
            Rule::Renju
        } else if code & 8 != 0 {
            if code & 1 != 0 {
                Rule::CaroExact
            } else {
                Rule::Caro
            }
        } else if code & 1 != 0 {
            Rule::Standard
        } else {
            Rule::Freestyle
        };
        let mut notes = Vec::new();
        if code & 2 != 0 {
            notes.push("continuous game (bit 2) is not supported and is ignored".to_string());
        }
        if code & !15 != 0 {
            notes.push(format!("unknown rule bits in {code} are ignored"));
        }
        if rule == Rule::Renju && code & (1 | 8) != 0 {
            notes.push("renju (bit 4) takes precedence over the other rule bits".to_string());
        }
        let note = if notes.is_empty() {
            None
        } else {
            Some(format!("rule {code} read as {rule}: {}", notes.join("; ")))
        };
        Some((rule, note))
    }

    /// The Gomocup code for this rule.
    pub fn code(self) -> u32 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro => 8,
            Rule::CaroExact => 9,
        }
    }

    /// All rules.
    pub const ALL: [Rule; 5] = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Caro,
        Rule::CaroExact,
    ];

    /// True when `color` must avoid forbidden points under this rule.
    #[inline]
    pub fn has_fouls_for(self, color: Color) -> bool {
        self == Rule::Renju && color == Color::Black
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
            Rule::CaroExact => "caro-exact",
        })
    }
}

/// The kind of a forbidden (foul) move for Black under Renju.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Foul {
    /// Two or more open threes at once.
    DoubleThree,
    /// Two or more fours at once (also two on one line).
    DoubleFour,
    /// Six or more in a row.
    Overline,
}

impl fmt::Display for Foul {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Foul::DoubleThree => "double-three",
            Foul::DoubleFour => "double-four",
            Foul::Overline => "overline",
        })
    }
}

/// The run of set bits of `mask` that contains `bit` (which must be set): `(low, high)`.
#[inline]
fn run_around(mask: u32, bit: u32) -> (u32, u32) {
    let up = (mask >> bit).trailing_ones();
    let down = (mask << (31 - bit)).leading_ones();
    (bit + 1 - down, bit + up - 1)
}

/// Decide whether a run of `len` stones of `color` is a win under `rule`, given whether the
/// squares just beyond each end hold opponent stones.
#[inline]
fn run_wins(rule: Rule, color: Color, len: u32, both_ends_opponent: bool) -> bool {
    match rule {
        Rule::Freestyle => len >= 5,
        Rule::Standard => len == 5,
        Rule::Renju => match color {
            Color::Black => len == 5,
            Color::White => len >= 5,
        },
        Rule::Caro => len > 5 || (len == 5 && !both_ends_opponent),
        Rule::CaroExact => len == 5 && !both_ends_opponent,
    }
}

/// True when a stone of `color` at `pos` (already there, or imagined on an empty square)
/// completes a winning line under `rule`.
pub fn is_winning_move(board: &Board, pos: Pos, color: Color, rule: Rule) -> bool {
    Direction::ALL
        .iter()
        .any(|&dir| wins_in_direction(board, pos, color, rule, dir))
}

/// Like [`is_winning_move`], restricted to one direction.
#[inline]
pub fn wins_in_direction(
    board: &Board,
    pos: Pos,
    color: Color,
    rule: Rule,
    dir: Direction,
) -> bool {
    let r = board.line_ref(pos, dir);
    let own = board.line_stones(color, dir, r.line) | (1 << r.bit);
    let opp = board.line_stones(color.opponent(), dir, r.line);
    line_run_wins(own, opp, r.bit, color, rule)
}

/// Line-level win test: with `color`'s stones `own` (which must include `bit`) and the
/// opponent's stones `opp` on one line, does the run through `bit` win under `rule`?
#[inline]
pub fn line_run_wins(own: u32, opp: u32, bit: u32, color: Color, rule: Rule) -> bool {
    let (lo, hi) = run_around(own, bit);
    let len = hi - lo + 1;
    if len < 5 {
        return false;
    }
    let both_ends_opponent = if matches!(rule, Rule::Caro | Rule::CaroExact) && len == 5 {
        let below = lo > 0 && opp & (1 << (lo - 1)) != 0;
        let above = hi < 31 && opp & (1 << (hi + 1)) != 0;
        below && above
    } else {
        false
    };
    run_wins(rule, color, len, both_ends_opponent)
}

/// True when the stone already at `pos` is part of a winning line for its owner.
pub fn stone_wins(board: &Board, pos: Pos, rule: Rule) -> bool {
    match board.cell(pos) {
        Cell::Stone(c) => is_winning_move(board, pos, c, rule),
        _ => false,
    }
}

/// The forbidden kind of Black's move at the empty square `pos` under Renju, or None if the
/// move is allowed, as the Gomocup referee judges it (see the module documentation). A move
/// that makes an exact five is never forbidden. The board is used as scratch space and
/// restored before returning.
pub fn renju_foul(board: &mut Board, pos: Pos) -> Option<Foul> {
    debug_assert!(board.is_empty(pos));
    if !may_be_foul(board, pos) {
        return None;
    }
    board.place(pos, Cell::Stone(Color::Black));
    let foul = foul_of_placed(board, pos);
    board.remove(pos);
    foul
}

/// True when Black's move at the empty square `pos` makes an exact five and, on another
/// line, an overline. The five wins under Renju (Piskvork, GomocupJudge), but c-gomoku-cli's
/// foul check does not give the five priority: given the choice, play another five.
pub fn five_with_overline(board: &mut Board, pos: Pos) -> bool {
    if !may_be_overline(board, pos) {
        return false;
    }
    board.place(pos, Cell::Stone(Color::Black));
    let (five, overline) = black_runs_through(board, pos);
    board.remove(pos);
    five && overline
}

/// With a black stone on `pos`: does a line through it hold exactly five black stones in a
/// row, and does one hold six or more?
fn black_runs_through(board: &Board, pos: Pos) -> (bool, bool) {
    let (mut five, mut overline) = (false, false);
    for dir in Direction::ALL {
        let r = board.line_ref(pos, dir);
        let black = board.line_stones(Color::Black, dir, r.line);
        let (lo, hi) = run_around(black, r.bit);
        match hi - lo + 1 {
            5 => five = true,
            n if n > 5 => overline = true,
            _ => {}
        }
    }
    (five, overline)
}

/// True when `color` may not play at the empty square `pos` under `rule`.
pub fn is_forbidden(board: &mut Board, pos: Pos, color: Color, rule: Rule) -> bool {
    rule.has_fouls_for(color) && renju_foul(board, pos).is_some()
}

/// All forbidden points for Black on the board (Renju), in row-major order.
pub fn forbidden_points(board: &Board) -> Vec<(Pos, Foul)> {
    let mut scratch = board.clone();
    board
        .empty_positions()
        .filter_map(|p| renju_foul(&mut scratch, p).map(|f| (p, f)))
        .collect()
}

/// A cheap necessary condition for an overline of Black at the empty square `pos`: five
/// other black stones within five squares on one line. Pattern counts cannot tell an
/// overline (the line holds no four or three for Black), so callers that prefilter fouls
/// by patterns must also ask this.
pub fn may_be_overline(board: &Board, pos: Pos) -> bool {
    Direction::ALL.iter().any(|&dir| {
        let r = board.line_ref(pos, dir);
        let black = board.line_stones(Color::Black, dir, r.line);
        at_least(black & window_mask(r.bit, 5), 5)
    })
}

/// A cheap necessary condition for a foul: an overline needs five other black stones within
/// five squares on one line; a four through `pos` needs three other black stones in a
/// five-square window through it with no white stone, blocked square or edge inside, a
/// three two (the four it can become is such a window); a double four on one line also
/// needs four other black stones within four squares. A foul needs two lines with a three
/// or a four, or one line with a double four, or an overline.
fn may_be_foul(board: &Board, pos: Pos) -> bool {
    let mut busy_lines = 0;
    if may_be_overline(board, pos) {
        return true;
    }
    for dir in Direction::ALL {
        let r = board.line_ref(pos, dir);
        let black = board.line_stones(Color::Black, dir, r.line);
        let empty = board.line_empty(dir, r.line);
        // Clean five-square windows through `pos` holding three (two) other black stones.
        let in_window = |min| window_cells(black, empty, min) & (1 << r.bit) != 0;
        if in_window(3) && at_least(black & window_mask(r.bit, 4), 4) {
            // Perhaps two fours on this line (`X.XXX.X`).
            return true;
        }
        if in_window(2) {
            busy_lines += 1;
            if busy_lines >= 2 {
                return true;
            }
        }
    }
    false
}

/// The cells of a line (bit mask) that lie in a five-cell window holding at least `min`
/// of the stones `own` and nothing but those and the cells `empty` (no opponent stone,
/// blocked square or edge).
#[inline]
pub fn window_cells(own: u32, empty: u32, min: u32) -> u32 {
    let barrier = !(own | empty);
    // Bit j: the window of bits j..=j+4 holds a barrier (windows from bit 28 on run past
    // the line's 32 bits).
    let spoiled =
        barrier | barrier >> 1 | barrier >> 2 | barrier >> 3 | barrier >> 4 | (u32::MAX << 28);
    let starts = windows_with_at_least(own, min) & !spoiled;
    starts | starts << 1 | starts << 2 | starts << 3 | starts << 4
}

/// Bit j set when bits j..=j+4 of `stones` hold at least `min` stones (a bit-sliced count
/// of the five shifted masks).
fn windows_with_at_least(stones: u32, min: u32) -> u32 {
    let (mut ones, mut twos, mut fours) = (0u32, 0u32, 0u32);
    for shift in 0..5 {
        let x = stones >> shift;
        let carry = ones & x;
        ones ^= x;
        let carry2 = twos & carry;
        twos ^= carry;
        fours |= carry2;
    }
    match min {
        0 => u32::MAX,
        1 => ones | twos | fours,
        2 => twos | fours,
        3 => fours | (twos & ones),
        4 => fours,
        _ => fours & ones,
    }
}

/// Foul check with Black's stone already standing on `pos`.
fn foul_of_placed(board: &mut Board, pos: Pos) -> Option<Foul> {
    // An exact five wins before any foul.
    let (five, overline) = black_runs_through(board, pos);
    if five {
        return None;
    }
    if overline {
        return Some(Foul::Overline);
    }
    let fours: u32 = Direction::ALL
        .iter()
        .map(|&dir| black_fours_through(board, pos, dir))
        .sum();
    if fours >= 2 {
        return Some(Foul::DoubleFour);
    }
    let mut threes = 0;
    for dir in Direction::ALL {
        if is_real_three(board, pos, dir) {
            threes += 1;
            if threes >= 2 {
                return Some(Foul::DoubleThree);
            }
        }
    }
    None
}

/// Bits of empty squares on the line through `pos` where one more black stone would make an
/// exact five that contains `pos`.
fn black_five_points(board: &Board, pos: Pos, dir: Direction) -> u32 {
    let r = board.line_ref(pos, dir);
    let black = board.line_stones(Color::Black, dir, r.line);
    let mut candidates = board.line_empty(dir, r.line) & window_mask(r.bit, 4);
    let mut points = 0;
    while candidates != 0 {
        let q = candidates.trailing_zeros();
        candidates &= candidates - 1;
        let (lo, hi) = run_around(black | (1 << q), q);
        if hi - lo + 1 == 5 && lo <= r.bit && r.bit <= hi {
            points |= 1 << q;
        }
    }
    points
}

/// Number of distinct fours through `pos` on one line (an open four counts once; two fours
/// on one line such as `X.XXX.X` count twice).
fn black_fours_through(board: &Board, pos: Pos, dir: Direction) -> u32 {
    let points = black_five_points(board, pos, dir);
    let n = points.count_ones();
    if n >= 2 && has_pair_at_distance_five(points) {
        n - 1
    } else {
        n
    }
}

/// True when two set bits are exactly five apart (the two ends of one straight four).
#[inline]
fn has_pair_at_distance_five(points: u32) -> bool {
    points & (points >> 5) != 0
}

/// True when Black's stones on this line through `pos` form a straight (open) four whose four
/// stones include bit `inner` (the stone just added): a line that was a straight four already
/// does not become a three because some unrelated square on it is filled.
fn is_straight_four_with(board: &Board, pos: Pos, dir: Direction, inner: u32) -> bool {
    let points = black_five_points(board, pos, dir);
    let mut low_ends = points & (points >> 5);
    while low_ends != 0 {
        let low = low_ends.trailing_zeros();
        low_ends &= low_ends - 1;
        if low < inner && inner < low + 5 {
            return true;
        }
    }
    false
}

/// The referee's test of a three's straight-four square `q` (empty): the three is real
/// through `q` only when Black could play `q` and it would *not* make a five. A square that
/// makes an exact five anywhere counts as unplayable here (Piskvork's `foulr` calls itself on
/// the square with its `five` result set to 1), although a five is never forbidden as a move.
fn straight_four_square_counts(board: &mut Board, q: Pos) -> bool {
    !is_winning_move(board, q, Color::Black, Rule::Renju) && renju_foul(board, q).is_none()
}

/// True when the black stone on `pos` is part of a real three on this line: some empty square
/// turns it into a straight four, and that square neither makes a five nor is forbidden.
fn is_real_three(board: &mut Board, pos: Pos, dir: Direction) -> bool {
    let r = board.line_ref(pos, dir);
    let black = board.line_stones(Color::Black, dir, r.line);
    // A three needs two other black stones within four squares.
    if !at_least(black & window_mask(r.bit, 4), 3) {
        return false;
    }
    let mut candidates = board.line_empty(dir, r.line) & window_mask(r.bit, 4);
    while candidates != 0 {
        let bit = candidates.trailing_zeros();
        candidates &= candidates - 1;
        let Some(q) = board.pos_on_line(dir, r.line, bit as i32) else {
            continue;
        };
        board.place(q, Cell::Stone(Color::Black));
        let straight = is_straight_four_with(board, pos, dir, bit);
        board.remove(q);
        if straight && straight_four_square_counts(board, q) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        Board::from_ascii(text).unwrap()
    }

    fn at(b: &Board, x: usize, y: usize) -> Pos {
        assert!(x < b.width() && y < b.height());
        Pos::new(x, y)
    }

    #[test]
    fn run_around_finds_runs() {
        assert_eq!(run_around(0b0111_1000, 4), (3, 6));
        assert_eq!(run_around(u32::MAX, 0), (0, 31));
        assert_eq!(run_around(u32::MAX, 31), (0, 31));
        assert_eq!(run_around(1, 0), (0, 0));
    }

    #[test]
    fn rule_codes_decode_as_documented() {
        let r = |c| Rule::from_code(c).unwrap().0;
        assert_eq!(r(0), Rule::Freestyle);
        assert_eq!(r(1), Rule::Standard);
        assert_eq!(r(2), Rule::Renju);
        assert_eq!(r(4), Rule::Renju);
        assert_eq!(r(5), Rule::Renju);
        assert_eq!(r(8), Rule::Caro);
        assert_eq!(r(9), Rule::CaroExact);
        assert_eq!(r(3), Rule::Standard);
        assert!(Rule::from_code(3).unwrap().1.is_some());
        assert_eq!(r(12), Rule::Renju);
        assert!(Rule::from_code(-1).is_none());
        for rule in Rule::ALL {
            assert_eq!(r(i64::from(rule.code())), rule);
        }
    }

    #[test]
    fn five_and_overline_by_rule() {
        // Black five at row 0 columns 0..5; white six at row 2.
        let b = board(
            "XXXX.X.
             .......
             OOO.OO.
             .......
             .......",
        );
        let five_point = at(&b, 4, 0);
        // Filling (4,0) makes six in a row for black: X X X X X . X? no: columns 0-3 + 4 = five, 5 is X -> six.
        assert!(is_winning_move(
            &b,
            five_point,
            Color::Black,
            Rule::Freestyle
        ));
        assert!(!is_winning_move(
            &b,
            five_point,
            Color::Black,
            Rule::Standard
        ));
        assert!(!is_winning_move(&b, five_point, Color::Black, Rule::Renju));
        assert!(is_winning_move(&b, five_point, Color::Black, Rule::Caro));
        assert!(!is_winning_move(
            &b,
            five_point,
            Color::Black,
            Rule::CaroExact
        ));
        let w = at(&b, 3, 2);
        assert!(is_winning_move(&b, w, Color::White, Rule::Freestyle));
        assert!(is_winning_move(&b, w, Color::White, Rule::Renju));
        assert!(!is_winning_move(&b, w, Color::White, Rule::Standard));
    }

    #[test]
    fn caro_five_blocked_at_both_ends_does_not_win() {
        let b = board(
            "OXXXX.O
             .......
             XXXX.O.
             .......
             .......",
        );
        let p = at(&b, 5, 0);
        for rule in [Rule::Caro, Rule::CaroExact] {
            assert!(!is_winning_move(&b, p, Color::Black, rule), "{rule}");
        }
        assert!(is_winning_move(&b, p, Color::Black, Rule::Freestyle));
        // Board edge does not count as a block.
        let q = at(&b, 4, 2);
        for rule in [Rule::Caro, Rule::CaroExact] {
            assert!(is_winning_move(&b, q, Color::Black, rule), "{rule}");
        }
    }

    #[test]
    fn renju_basic_fouls() {
        let mut b = board(
            "...............
             ...............
             ...............
             ...............
             ...............
             ...............
             .......X.......
             ......X.X......
             .......X.......
             ...............
             ...............
             ...............
             ...............
             ...............
             ...............",
        );
        // Centre of a cross: double-three... (7,7) with neighbours forms two open twos -> threes.
        assert_eq!(renju_foul(&mut b, Pos::new(7, 7)), Some(Foul::DoubleThree));
        let mut b = board(
            "...............
             ...............
             ...............
             ...............
             ...............
             ...............
             ...............
             ..XX.XX........
             ...............
             ...............
             ...............
             ...............
             ...............
             ...............
             ...............",
        );
        // Joining XX.XX gives a straight five XXXXX: a win, not a foul.
        assert_eq!(renju_foul(&mut b, Pos::new(4, 7)), None);
        let mut b = board(
            "...............
             ...............
             ...............
             ...............
             ...............
             ...............
             ...............
             .XXX.XX........
             ...............
             ...............
             ...............
             ...............
             ...............
             ...............
             ...............",
        );
        assert_eq!(renju_foul(&mut b, Pos::new(4, 7)), Some(Foul::Overline));
        let mut b = board(
            "...............
             ...............
             ...............
             ...............
             ...............
             ...............
             ...............
             .X.XX..X.......
             ...............
             ...............
             ...............
             ...............
             ...............
             ...............
             ...............",
        );
        // X.XXX.X on one line is a double four.
        assert_eq!(renju_foul(&mut b, Pos::new(5, 7)), Some(Foul::DoubleFour));
        assert_eq!(b, b.recomputed());
    }
}
