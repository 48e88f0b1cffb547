//! Line patterns from lookup tables.
//!
//! For a square and a direction, the ten neighbouring cells (five on each side) are read
//! from the board's line masks and packed into a 20-bit key, two bits a cell:
//! `00` empty, `01` own stone, `10` opponent stone, `11` off the board (a wall). A table per
//! rule family maps the key to the [`Pattern`] that a stone of "own" colour on the square
//! would form on that line. The tables are built once, lazily, by a small recursive
//! classifier over synthetic lines, so they are exactly as rule-aware as the rules code.
//!
//! Renju: the tables cannot tell a real three from a fake one (that depends on other lines)
//! nor see forbidden points; search code confirms fouls with [`crate::rules::renju_foul`].

use crate::board::{Board, Color, Direction, Pos};
use crate::rules::{line_run_wins, window_mask, Rule};
use std::sync::OnceLock;

/// What a stone on a square forms on one line, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Pattern {
    /// No five can ever be made through this square on this line.
    Dead = 0,
    /// One stone with room, blocked on one side.
    B1,
    /// One stone with room on both sides.
    F1,
    /// A two that can become only a closed three.
    B2,
    /// A two that can become an open three.
    F2,
    /// A three that can become only a closed four.
    B3,
    /// A three that can become an open four.
    F3,
    /// A four with one completing square.
    B4,
    /// A four with two completing squares (open four, or two fours on one line).
    F4,
    /// A winning line.
    F5,
}

impl Pattern {
    const ALL: [Pattern; 10] = [
        Pattern::Dead,
        Pattern::B1,
        Pattern::F1,
        Pattern::B2,
        Pattern::F2,
        Pattern::B3,
        Pattern::F3,
        Pattern::B4,
        Pattern::F4,
        Pattern::F5,
    ];

    fn from_u8(v: u8) -> Pattern {
        Pattern::ALL[v as usize]
    }
}

/// Rules that give the same line patterns share a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    /// Five or more wins (freestyle; White under renju).
    Free = 0,
    /// Exactly five wins (standard; Black under renju).
    Exact = 1,
    /// Caro.
    Caro = 2,
    /// Caro with exact five.
    CaroExact = 3,
}

fn family(rule: Rule, color: Color) -> Family {
    match rule {
        Rule::Freestyle => Family::Free,
        Rule::Standard => Family::Exact,
        Rule::Renju => match color {
            Color::Black => Family::Exact,
            Color::White => Family::Free,
        },
        Rule::Caro => Family::Caro,
        Rule::CaroExact => Family::CaroExact,
    }
}

/// Number of keys: ten cells, two bits each.
const KEYS: usize = 1 << 20;
/// Bit of the centre square in a synthetic 11-cell line.
const CENTRE: u32 = 5;

/// The rule and colour a synthetic line is judged under: any pair in the family will do.
fn representative(f: Family) -> (Rule, Color) {
    match f {
        Family::Free => (Rule::Freestyle, Color::Black),
        Family::Exact => (Rule::Standard, Color::Black),
        Family::Caro => (Rule::Caro, Color::Black),
        Family::CaroExact => (Rule::CaroExact, Color::Black),
    }
}

/// Decode a key into (own, opponent, wall) masks of an 11-cell line, centre included in own.
/// Cells beyond the 11 are walls.
fn decode(key: u32) -> (u32, u32, u32) {
    let mut own = 1 << CENTRE;
    let mut opp = 0;
    let mut wall = !0u32 << 11;
    for i in 0..10u32 {
        let cell = (key >> (2 * i)) & 3;
        let bit = if i < 5 { i } else { i + 1 };
        match cell {
            1 => own |= 1 << bit,
            2 => opp |= 1 << bit,
            3 => wall |= 1 << bit,
            _ => {}
        }
    }
    (own, opp, wall)
}

/// Encode masks of an 11-cell line (centre excluded) back into a key.
fn encode(own: u32, opp: u32, wall: u32) -> u32 {
    let mut key = 0;
    for i in 0..10u32 {
        let bit = if i < 5 { i } else { i + 1 };
        let cell = if wall & (1 << bit) != 0 {
            3
        } else if opp & (1 << bit) != 0 {
            2
        } else if own & (1 << bit) != 0 {
            1
        } else {
            0
        };
        key |= cell << (2 * i);
    }
    key
}

/// Squares that complete a winning line through the centre.
fn completing(own: u32, opp: u32, wall: u32, rule: Rule, color: Color) -> u32 {
    let empty = !(own | opp | wall) & 0x7FF;
    let mut candidates = empty & window_mask(CENTRE, 4);
    let mut points = 0;
    while candidates != 0 {
        let q = candidates.trailing_zeros();
        candidates &= candidates - 1;
        let with = own | (1 << q);
        let (lo, hi) = (q.min(CENTRE), q.max(CENTRE));
        let span = ((1u32 << (hi - lo + 1)) - 1) << lo;
        // Walls count as opponent stones for caro's "blocked at both ends" only if they are
        // stones: the board edge does not block, so walls are not passed as opponent.
        if with & span == span && line_run_wins(with, opp, q, color, rule) {
            points |= 1 << q;
        }
    }
    points
}

fn classify(key: u32, f: Family, memo: &mut [u8]) -> Pattern {
    let cached = memo[key as usize];
    if cached != u8::MAX {
        return Pattern::from_u8(cached);
    }
    let (rule, color) = representative(f);
    let (own, opp, wall) = decode(key);
    let result = if line_run_wins(own, opp, CENTRE, color, rule) {
        Pattern::F5
    } else {
        let points = completing(own, opp, wall, rule, color);
        match points.count_ones() {
            0 => {
                // One more stone: the best pattern reachable decides.
                let empty = !(own | opp | wall) & 0x7FF & window_mask(CENTRE, 4);
                let mut best = Pattern::Dead;
                let mut e = empty;
                while e != 0 {
                    let q = e.trailing_zeros();
                    e &= e - 1;
                    let next = classify(encode(own | (1 << q), opp, wall), f, memo);
                    let here = match next {
                        Pattern::F5 | Pattern::F4 => Pattern::F3,
                        Pattern::B4 => Pattern::B3,
                        Pattern::F3 => Pattern::F2,
                        Pattern::B3 => Pattern::B2,
                        Pattern::F2 => Pattern::F1,
                        Pattern::B2 | Pattern::F1 | Pattern::B1 => Pattern::B1,
                        Pattern::Dead => Pattern::Dead,
                    };
                    // F5 reachable in one more stone means this is already a four, which
                    // `completing` found; so here F4 is the most that can come back.
                    if here > best {
                        best = here;
                    }
                }
                best
            }
            1 => Pattern::B4,
            _ => Pattern::F4,
        }
    };
    memo[key as usize] = result as u8;
    result
}

fn build(f: Family) -> Box<[u8]> {
    let mut memo = vec![u8::MAX; KEYS].into_boxed_slice();
    for key in 0..KEYS as u32 {
        classify(key, f, &mut memo);
    }
    memo
}

fn table(f: Family) -> &'static [u8] {
    static TABLES: [OnceLock<Box<[u8]>>; 4] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    TABLES[f as usize].get_or_init(|| build(f))
}

/// Build the tables a rule needs now (about 45 ms each), so that the first search does not
/// pay for them.
pub fn warm(rule: Rule) {
    let _ = PatternTables::new(rule);
}

/// Spread the low five bits of `m` to the even bits of a ten-bit number.
const fn spread5(m: u32) -> u32 {
    (m & 1) | ((m & 2) << 1) | ((m & 4) << 2) | ((m & 8) << 3) | ((m & 16) << 4)
}

const SPREAD: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut i = 0;
    while i < 32 {
        t[i] = spread5(i as u32);
        i += 1;
    }
    t
};

/// Pattern lookups for one rule, with the tables of both colours at hand.
#[derive(Clone, Copy)]
pub struct PatternTables {
    tables: [&'static [u8]; 2],
}

impl PatternTables {
    /// The tables for a rule (built on first use).
    pub fn new(rule: Rule) -> PatternTables {
        PatternTables {
            tables: [
                table(family(rule, Color::Black)),
                table(family(rule, Color::White)),
            ],
        }
    }

    /// The key of the ten cells around `pos` on one line, seen by `color`.
    #[inline]
    pub fn key(board: &Board, pos: Pos, color: Color, dir: Direction) -> u32 {
        let r = board.line_ref(pos, dir);
        let own = board.line_stones(color, dir, r.line) as u64;
        let opp = board.line_stones(color.opponent(), dir, r.line) as u64;
        let valid = board.line_valid(dir, r.line) as u64;
        let empty = board.line_empty(dir, r.line) as u64;
        // Walls: off-board squares and blocked squares (neither stone nor empty).
        let wall = !(own | opp | empty) | (!valid & 0xFFFF_FFFF) | (!0u64 << 32);
        // Shift so the window's first cell (bit - 5) lands on bit 0; cells below bit 0 are walls.
        let shift = |m: u64, fill: u64| ((m << 5) | fill) >> r.bit;
        let own_w = shift(own, 0);
        let opp_w = shift(opp, 0);
        let wall_w = shift(wall, 0x1F);
        let a = (own_w | wall_w) as u32; // low bit of each cell's two bits
        let b = (opp_w | wall_w) as u32; // high bit
        let lo = SPREAD[(a & 31) as usize] | (SPREAD[(b & 31) as usize] << 1);
        let hi = SPREAD[((a >> 6) & 31) as usize] | (SPREAD[((b >> 6) & 31) as usize] << 1);
        lo | (hi << 10)
    }

    /// The pattern `color` would form on one line by playing `pos`.
    #[inline]
    pub fn pattern(&self, board: &Board, pos: Pos, color: Color, dir: Direction) -> Pattern {
        let key = Self::key(board, pos, color, dir);
        Pattern::from_u8(self.tables[color.index()][key as usize])
    }

    /// Patterns on all four lines.
    #[inline]
    pub fn patterns(&self, board: &Board, pos: Pos, color: Color) -> [Pattern; 4] {
        [
            self.pattern(board, pos, color, Direction::Horizontal),
            self.pattern(board, pos, color, Direction::Vertical),
            self.pattern(board, pos, color, Direction::Diagonal),
            self.pattern(board, pos, color, Direction::AntiDiagonal),
        ]
    }
}

/// The strongest combination of line patterns a move makes, for ordering and threat logic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Threat {
    /// Nothing forcing.
    #[default]
    None = 0,
    /// One closed three or two-based shapes.
    Minor,
    /// A closed four alone.
    Four,
    /// An open three alone.
    Three,
    /// Two open threes (a win unless defended by a four).
    DoubleThree,
    /// A closed four plus an open three.
    FourThree,
    /// An open four or two fours: wins next move.
    OpenFour,
    /// Five.
    Five,
}

/// Counts of the line patterns of one move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PatternCounts {
    /// Fives.
    pub f5: u8,
    /// Open fours (or double fours on a line).
    pub f4: u8,
    /// Closed fours.
    pub b4: u8,
    /// Open threes.
    pub f3: u8,
    /// Closed threes.
    pub b3: u8,
    /// Open twos.
    pub f2: u8,
    /// Closed twos.
    pub b2: u8,
    /// Ones with room.
    pub f1: u8,
}

impl PatternCounts {
    /// Count patterns.
    #[inline]
    pub fn of(patterns: &[Pattern; 4]) -> PatternCounts {
        let mut c = PatternCounts::default();
        for &p in patterns {
            match p {
                Pattern::F5 => c.f5 += 1,
                Pattern::F4 => c.f4 += 1,
                Pattern::B4 => c.b4 += 1,
                Pattern::F3 => c.f3 += 1,
                Pattern::B3 => c.b3 += 1,
                Pattern::F2 => c.f2 += 1,
                Pattern::B2 => c.b2 += 1,
                Pattern::F1 | Pattern::B1 => c.f1 += 1,
                Pattern::Dead => {}
            }
        }
        c
    }

    /// The combined threat.
    #[inline]
    pub fn threat(&self) -> Threat {
        if self.f5 > 0 {
            Threat::Five
        } else if self.f4 > 0 || self.b4 >= 2 {
            Threat::OpenFour
        } else if self.b4 > 0 && self.f3 > 0 {
            Threat::FourThree
        } else if self.f3 >= 2 {
            Threat::DoubleThree
        } else if self.f3 > 0 {
            Threat::Three
        } else if self.b4 > 0 {
            Threat::Four
        } else if self.b3 > 0 || self.f2 > 0 {
            Threat::Minor
        } else {
            Threat::None
        }
    }

    /// True when this move could be a renju foul for Black (needs an exact check).
    #[inline]
    pub fn may_be_foul(&self) -> bool {
        self.f4 + self.b4 >= 2 || self.f3 >= 2 || (self.f4 > 0 && self.b4 + self.f3 > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{line_shape, LineShape};

    #[test]
    fn encode_decode_round_trip() {
        for key in (0..KEYS as u32).step_by(97) {
            let (own, opp, wall) = decode(key);
            assert_eq!(encode(own, opp, wall), key);
        }
    }

    /// The table agrees with the direct shape code on random positions, for every rule.
    #[test]
    fn tables_agree_with_direct_shapes() {
        let mut rng = 0x1234_5678_9ABC_DEF0u64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        for rule in Rule::ALL {
            let tables = PatternTables::new(rule);
            for _ in 0..60 {
                let (w, h) = (5 + (next() % 16) as usize, 5 + (next() % 16) as usize);
                let mut b = Board::new(w, h).unwrap();
                let stones = (next() % (w * h / 2) as u64) as usize;
                for _ in 0..stones {
                    let p = Pos::new((next() % w as u64) as usize, (next() % h as u64) as usize);
                    if b.is_empty(p) {
                        let c = if next() % 2 == 0 {
                            Color::Black
                        } else {
                            Color::White
                        };
                        b.place(p, crate::board::Cell::Stone(c));
                    }
                }
                for p in b.empty_positions().collect::<Vec<_>>() {
                    for color in Color::BOTH {
                        for dir in Direction::ALL {
                            let pat = tables.pattern(&b, p, color, dir);
                            let direct = line_shape(&b, p, color, rule, dir);
                            let expected = match direct {
                                LineShape::Five => Pattern::F5,
                                LineShape::OpenFour => Pattern::F4,
                                LineShape::Four => Pattern::B4,
                                LineShape::OpenThree => Pattern::F3,
                                LineShape::ClosedThree => Pattern::B3,
                                LineShape::None => pat.min(Pattern::F2),
                            };
                            assert_eq!(
                                pat,
                                expected,
                                "{rule} {color:?} {p} {dir:?}\n{}",
                                b.to_ascii()
                            );
                        }
                    }
                }
            }
        }
    }
}
