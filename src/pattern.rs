//! Line patterns from lookup tables.
//!
//! For a square and a direction, the ten neighbouring cells (five on each side) are read
//! from the board's line masks and packed into a 20-bit key, two bits a cell:
//! `00` empty, `01` own stone, `10` opponent stone, `11` off the board (a wall). A table per
//! rule family maps the key to the [`Pattern`] that a stone of "own" colour on the square
//! would form on that line. The tables are built once, lazily, by a small recursive
//! classifier over synthetic lines, so they are exactly as rule-aware as the rules code.
//! Where a wall reads as an opponent stone (every rule but caro) a table is stored by a
//! ternary index of 3^10 entries, small enough to stay in cache (see `ternary_layout`);
//! caro's tables keep all 2^20 keys, with the cells' low bits and high bits apart (see
//! `split_layout`), the order in which line masks give them most cheaply.
//!
//! Renju: the tables cannot tell a real three from a fake one (that depends on other lines)
//! nor see forbidden points; search code confirms fouls with [`crate::rules::renju_foul`].

use crate::board::{Board, Color, Direction, Pos, MAX_SIZE};
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

    /// The strongest of a square's four line patterns: a cheaper question than
    /// [`PatternCounts::of`] where only "a five?" or "a four?" matters.
    #[inline(always)]
    pub fn strongest(patterns: &[Pattern; 4]) -> Pattern {
        let [a, b, c, d] = *patterns;
        a.max(b).max(c.max(d))
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

/// The key with every cell beyond a wall (seen from the centre) made a wall as well. No
/// line through the centre reaches past a wall, so both keys have one pattern: only about
/// one key in eight is canonical, and only those need the classification.
fn canonical(key: u32) -> u32 {
    let mut k = key;
    // Key cells 4 down to 0 run leftwards from the centre, 5 up to 9 rightwards.
    for side in [[4u32, 3, 2, 1, 0], [5, 6, 7, 8, 9]] {
        let mut walled = false;
        for i in side {
            if walled {
                k |= 3 << (2 * i);
            } else if (k >> (2 * i)) & 3 == 3 {
                walled = true;
            }
        }
    }
    k
}

fn build(f: Family) -> Box<[u8]> {
    let mut memo = vec![u8::MAX; KEYS].into_boxed_slice();
    // A canonical key's classification only ever asks for canonical keys (one more stone
    // on an empty cell, never past a wall).
    for key in 0..KEYS as u32 {
        if canonical(key) == key {
            classify(key, f, &mut memo);
        }
    }
    for key in 0..KEYS as u32 {
        let c = canonical(key);
        if c != key {
            memo[key as usize] = memo[c as usize];
        }
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
    TABLES[f as usize].get_or_init(|| {
        let by_key = build(f);
        if is_ternary(f) {
            ternary_layout(&by_key)
        } else {
            split_layout(&by_key)
        }
    })
}

/// Whether a family's table is stored by the ternary index (see [`ternary_layout`]): a
/// wall reads as an opponent stone in every family but caro's, whose edge does not block
/// ("blocked at both ends" counts stones only).
fn is_ternary(f: Family) -> bool {
    matches!(f, Family::Free | Family::Exact)
}

/// The number of ternary indices: ten cells of three states.
const TERNARY_KEYS: usize = 3usize.pow(10);

/// `TERNARY_WEIGHT[m]`: the sum of `3^i` over the set bits `i` of a ten-bit cell mask, so
/// that a line's index is `TERNARY_WEIGHT[own] + 2 * TERNARY_WEIGHT[blocked]`.
static TERNARY_WEIGHT: [u16; 1024] = {
    let mut w = [0u16; 1024];
    let mut m = 0;
    while m < 1024 {
        let (mut i, mut p, mut sum) = (0, 1u16, 0u16);
        while i < 10 {
            if m >> i & 1 == 1 {
                sum += p;
            }
            p *= 3;
            i += 1;
        }
        w[m] = sum;
        m += 1;
    }
    w
};

/// A table by key (as [`build`] makes it) stored by ternary index: cell `i` of the key is
/// digit `i` of the index, 0 empty, 1 own stone, 2 opponent stone or wall. Only for the
/// families where a wall and an opponent stone give one pattern (`is_ternary`; a test
/// checks every key): 59,049 bytes instead of the split layout's 1 MiB, so that the
/// lookups on every move of the search stay in the first and second level caches
/// (`pbrain-rensa bench`: the split table's load was the search's hottest line).
fn ternary_layout(by_key: &[u8]) -> Box<[u8]> {
    (0..TERNARY_KEYS)
        .map(|index| {
            let (mut rest, mut key) = (index, 0u32);
            for i in 0..10 {
                key |= ((rest % 3) as u32) << (2 * i);
                rest /= 3;
            }
            by_key[key as usize]
        })
        .collect()
}

/// Build the tables a rule needs now (about 45 ms each), so that the first search does not
/// pay for them.
pub fn warm(rule: Rule) {
    let _ = PatternTables::new(rule);
}

/// Start building, each on a thread of its own, the two tables that freestyle, standard
/// and renju use (caro's are built when a caro rule is chosen). A manager that sends
/// `INFO rule` and then the position at once would otherwise see the first move pay for
/// the build: the move's clock runs from the reading of `BOARD` or `BEGIN`, while the
/// session is still busy with the `INFO`. A search that needs a table first waits for
/// the build already under way instead of starting another.
pub fn warm_in_background() {
    for rule in [Rule::Freestyle, Rule::Standard] {
        // Best effort: where no thread can be made, the first use builds the table.
        let _ = std::thread::Builder::new()
            .name(format!("tables-{}", rule.code()))
            .spawn(move || warm(rule));
    }
}

/// Pattern lookups for one rule, with the tables of both colours at hand.
#[derive(Clone, Copy)]
pub struct PatternTables {
    tables: [&'static [u8]; 2],
    /// Whether both tables are stored by ternary index (every rule but caro's).
    ternary: bool,
}

impl PatternTables {
    /// The tables for a rule (built on first use).
    pub fn new(rule: Rule) -> PatternTables {
        PatternTables {
            tables: [
                table(family(rule, Color::Black)),
                table(family(rule, Color::White)),
            ],
            ternary: is_ternary(family(rule, Color::Black)),
        }
    }

    /// The pattern `color` would form by playing the square at `bit` of `line`: its table
    /// entry, by ternary index or by the split layout's index as the tables are stored.
    #[inline(always)]
    fn lookup(&self, line: &LineMasks, color: Color, bit: u32) -> Pattern {
        let (own, blocked) = line.windows(color, bit);
        let index = if self.ternary {
            // Own stones that are not walls; walls read as opponent stones.
            usize::from(TERNARY_WEIGHT[(own & !blocked) as usize])
                + 2 * usize::from(TERNARY_WEIGHT[blocked as usize])
        } else {
            (own | blocked << 10) as usize
        };
        Pattern::from_u8(self.tables[color.index()][index])
    }

    /// The pattern `color` would form on one line by playing `pos`.
    #[inline]
    pub fn pattern(&self, board: &Board, pos: Pos, color: Color, dir: Direction) -> Pattern {
        let r = board.line_ref(pos, dir);
        self.lookup(&LineMasks::of(board, dir, r.line), color, r.bit)
    }

    /// Patterns on all four lines, looked up in the tables. Kept out of line: the search's
    /// hot path reads the patterns its board keeps (`search::board::SearchBoard`) instead.
    #[inline(never)]
    pub fn patterns(&self, board: &Board, pos: Pos, color: Color) -> [Pattern; 4] {
        Direction::ALL.map(|dir| self.pattern(board, pos, color, dir))
    }
}

/// One line's stones and walls, from which the key of any of its squares follows.
struct LineMasks {
    /// By colour: that colour's stones, and the walls (off-board and blocked squares,
    /// and every bit past 31), which read as stones of both colours in a key.
    marks: [u64; 2],
}

impl LineMasks {
    #[inline]
    fn of(board: &Board, dir: Direction, line: usize) -> LineMasks {
        let black = board.line_stones(Color::Black, dir, line) as u64;
        let white = board.line_stones(Color::White, dir, line) as u64;
        let wall = board.line_walls(dir, line) as u64 | (!0u64 << 32);
        LineMasks {
            marks: [black | wall, white | wall],
        }
    }

    /// The line's empty on-board squares (neither stone nor wall).
    #[inline]
    fn empty(&self) -> u32 {
        !(self.marks[0] | self.marks[1]) as u32
    }

    /// The ten cells around the square at `bit` seen by `color`, as two ten-bit masks (cell
    /// `i` at bit `i`, the square itself left out): the cells holding `color`'s stones or
    /// walls, and those holding the opponent's stones or walls.
    #[inline(always)]
    fn windows(&self, color: Color, bit: u32) -> (u32, u32) {
        // The eleven cells from bit - 5 to bit + 5 at bits 0 to 10 (cells below bit 0 are
        // walls); the centre (bit 5) is dropped.
        let window = |m: u64| {
            let w = (((m << 5) | 0x1F) >> bit) as u32;
            (w & 0x1F) | ((w >> 1) & 0x3E0)
        };
        (
            window(self.marks[color.index()]),
            window(self.marks[color.opponent().index()]),
        )
    }
}

/// The table index of a key (see [`split_layout`]), cell by cell.
#[cfg(test)]
fn split_index(key: u32) -> u32 {
    /// The even bits of `x` packed together (bit 2i to bit i).
    fn even_bits(x: u32) -> u32 {
        let mut x = x & 0x5555_5555;
        x = (x | x >> 1) & 0x3333_3333;
        x = (x | x >> 2) & 0x0F0F_0F0F;
        x = (x | x >> 4) & 0x00FF_00FF;
        (x | x >> 8) & 0x0000_FFFF
    }
    even_bits(key) | even_bits(key >> 1) << 10
}

/// A table by key (as [`build`] makes it) reordered by table index: the low bits of the
/// key's ten cells (own stone or wall) in bits 0 to 9 of the index, the high bits
/// (opponent stone or wall) in bits 10 to 19. Line masks give that order with a few
/// shifts.
fn split_layout(by_key: &[u8]) -> Box<[u8]> {
    // Each ten-bit half of an index spread back to its cells' bit of the key.
    let spread: Vec<u32> = (0..1u32 << 10)
        .map(|half| (0..10).map(|i| ((half >> i) & 1) << (2 * i)).sum())
        .collect();
    let mut out = Vec::with_capacity(KEYS);
    for &high in &spread {
        out.extend(spread.iter().map(|&low| by_key[(low | high << 1) as usize]));
    }
    out.into_boxed_slice()
}

/// Every square's patterns on its four lines for both colours, kept up to date by the
/// search's board (`search::board::SearchBoard`) on each place and remove: a move
/// changes the keys of the twenty squares around it on each of its lines only, while the
/// search reads the patterns of every candidate square at every node.
#[derive(Clone)]
pub struct PatternCache {
    tables: PatternTables,
    /// `cells[square][colour][direction]`, right for every empty square (occupied ones
    /// are brought up to date when emptied).
    cells: Box<[[[Pattern; 4]; 2]]>,
    /// By colour, row by row (bit x of row y is the square (x, y)): the squares whose
    /// kept patterns hold a four or a five on some line. Like the patterns, right for the
    /// empty squares only: mask with them.
    four_rows: [[u32; MAX_SIZE]; 2],
}

impl PatternCache {
    /// The patterns of every square of `board`.
    pub fn new(board: &Board, tables: PatternTables) -> PatternCache {
        let mut cache = PatternCache {
            tables,
            cells: vec![[[Pattern::Dead; 4]; 2]; crate::board::CELL_SLOTS].into_boxed_slice(),
            four_rows: [[0; MAX_SIZE]; 2],
        };
        for pos in board.positions() {
            cache.refresh_square(board, pos);
        }
        cache
    }

    /// Recompute one square's patterns.
    pub fn refresh_square(&mut self, board: &Board, pos: Pos) {
        for color in Color::BOTH {
            let patterns = Direction::ALL.map(|dir| self.tables.pattern(board, pos, color, dir));
            self.cells[pos.index()][color.index()] = patterns;
            self.note_strongest(
                pos.index(),
                color.index(),
                Pattern::strongest(&patterns) as u8,
            );
        }
    }

    /// Set square `square`'s pattern on line `dir` for colour index `color`, and its bit
    /// in the four rows. Most changes leave the square on the same side of "a four or
    /// more on some line"; only a crossing looks at the other lines, read as one word
    /// changed in a register (reading the cells back after the byte store would stall on
    /// it).
    #[inline(always)]
    fn set_pattern(&mut self, square: usize, color: usize, dir: usize, pattern: Pattern) {
        let cell = &mut self.cells[square][color];
        let old = cell[dir];
        let word = u32::from_le_bytes(cell.map(|p| p as u8));
        cell[dir] = pattern;
        if (old >= Pattern::B4) != (pattern >= Pattern::B4) {
            let shift = 8 * dir as u32;
            let word = (word & !(0xFF << shift)) | u32::from(pattern as u8) << shift;
            let [a, b, c, d] = word.to_le_bytes();
            self.note_strongest(square, color, a.max(b).max(c.max(d)));
        }
    }

    /// Set or clear square `square`'s bit in the four rows of colour index `color` by
    /// `strongest`, the strongest of its patterns (as a byte).
    #[inline(always)]
    fn note_strongest(&mut self, square: usize, color: usize, strongest: u8) {
        let (y, bit) = (square / MAX_SIZE, 1u32 << (square % MAX_SIZE));
        let row = &mut self.four_rows[color][y];
        *row = (*row & !bit)
            | if strongest >= Pattern::B4 as u8 {
                bit
            } else {
                0
            };
    }

    /// The squares where `color`'s kept patterns hold a four or a five (bit x of row y):
    /// right for the empty squares only.
    #[inline(always)]
    pub fn four_rows(&self, color: Color) -> &[u32; MAX_SIZE] {
        &self.four_rows[color.index()]
    }

    /// Does the empty square `pos` hold an open two or more on some line for either
    /// colour, that is a [`Threat`] above [`Threat::None`] for one of them? Both colours'
    /// eight kept patterns are tested at once, a byte each (all below 128): a byte of at
    /// least `F2` carries into its top bit when `0x80 - F2` is added.
    #[inline(always)]
    pub fn threatens(&self, pos: Pos) -> bool {
        let [b, w] = self.cells[pos.index()];
        let word = u64::from_le_bytes([
            b[0] as u8, b[1] as u8, b[2] as u8, b[3] as u8, w[0] as u8, w[1] as u8, w[2] as u8,
            w[3] as u8,
        ]);
        const ADD: u64 = u64::from_le_bytes([0x80 - Pattern::F2 as u8; 8]);
        (word + ADD) & 0x8080_8080_8080_8080 != 0
    }

    /// The tables the patterns come from.
    #[inline]
    pub fn tables(&self) -> &PatternTables {
        &self.tables
    }

    /// Put back one pattern noted before a change (a take-back restoring what a move
    /// changed, newest change first).
    #[inline(always)]
    pub fn restore(&mut self, square: usize, color: usize, dir: usize, pattern: Pattern) {
        self.set_pattern(square, color, dir, pattern);
    }

    /// The kept patterns of the empty square `pos` for `color`.
    #[inline(always)]
    pub fn patterns(&self, pos: Pos, color: Color) -> [Pattern; 4] {
        self.cells[pos.index()][color.index()]
    }

    /// Recompute the empty squares whose keys a change at `pos` touched: those within five
    /// cells of it on each of its lines (`board` already shows the change).
    pub fn refresh_around(&mut self, board: &Board, pos: Pos) {
        self.refresh_around_noting(board, pos, |_, _, _, _, _| {});
    }

    /// [`PatternCache::refresh_around`], calling `changed(square index, colour index,
    /// direction index, old pattern, new pattern)` for every pattern that changed (each
    /// square at most once a colour: the lines through `pos` share no other square).
    #[inline(always)]
    pub fn refresh_around_noting(
        &mut self,
        board: &Board,
        pos: Pos,
        mut changed: impl FnMut(usize, usize, usize, Pattern, Pattern),
    ) {
        for dir in Direction::ALL {
            let r = board.line_ref(pos, dir);
            // One line's masks serve all its squares; its empty mask tells which of them
            // are on the board and empty.
            let line = LineMasks::of(board, dir, r.line);
            let empty = line.empty();
            let (dx, dy) = dir.step();
            let step = dx + dy * crate::board::MAX_SIZE as isize;
            for offset in (-5i32..=5).filter(|&o| o != 0) {
                let bit = r.bit as i32 + offset;
                if !(0..32).contains(&bit) || empty & (1 << bit) == 0 {
                    continue;
                }
                // A cell `offset` steps along the line (square indices are y * 32 + x).
                let q = (pos.index() as isize + offset as isize * step) as usize;
                for color in Color::BOTH {
                    let new = self.tables.lookup(&line, color, bit as u32);
                    let old = self.cells[q][color.index()][dir as usize];
                    if old != new {
                        changed(q, color.index(), dir as usize, old, new);
                        self.set_pattern(q, color.index(), dir as usize, new);
                    }
                }
            }
        }
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

/// What each pattern adds to the byte-packed counts of [`PatternCounts::of`], by
/// pattern: byte 0 counts fives, then open fours, closed fours, open threes, closed
/// threes, open twos, closed twos and (byte 7) ones of either kind.
const COUNT_BYTE: [u64; 10] = [
    0,       // Dead
    1 << 56, // B1
    1 << 56, // F1
    1 << 48, // B2
    1 << 40, // F2
    1 << 32, // B3
    1 << 24, // F3
    1 << 16, // B4
    1 << 8,  // F4
    1,       // F5
];

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
    /// Count patterns. Each pattern adds one to its own byte of a 64-bit sum (four lines
    /// never carry into the next byte): no branch per line.
    #[inline]
    pub fn of(patterns: &[Pattern; 4]) -> PatternCounts {
        let sum: u64 = patterns.iter().map(|&p| COUNT_BYTE[p as usize]).sum();
        PatternCounts::unpack(sum)
    }

    /// The counts of patterns given by their index (`Pattern as usize`), packed into a
    /// word as [`PatternCounts::unpack`] reads it: for tables built at compile time.
    pub const fn packed(patterns: [usize; 4]) -> u64 {
        COUNT_BYTE[patterns[0]]
            + COUNT_BYTE[patterns[1]]
            + COUNT_BYTE[patterns[2]]
            + COUNT_BYTE[patterns[3]]
    }

    /// The counts packed one a byte, fives in the lowest (see [`PatternCounts::packed`]).
    #[inline(always)]
    pub fn unpack(packed: u64) -> PatternCounts {
        let [f5, f4, b4, f3, b3, f2, b2, f1] = packed.to_le_bytes();
        PatternCounts {
            f5,
            f4,
            b4,
            f3,
            b3,
            f2,
            b2,
            f1,
        }
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
pub(crate) mod tests {
    use super::*;
    use crate::shape::{line_shape, LineShape};

    /// The tables built from the canonical keys alone equal a classification of every key.
    #[test]
    fn canonical_build_classifies_every_key_alike() {
        for f in [Family::Free, Family::Exact, Family::Caro, Family::CaroExact] {
            let mut full = vec![u8::MAX; KEYS];
            for key in 0..KEYS as u32 {
                classify(key, f, &mut full);
            }
            let built = build(f);
            let differ = (0..KEYS).filter(|&k| built[k] != full[k]).count();
            assert_eq!(differ, 0, "{differ} keys differ in family {}", f as u8);
        }
    }

    /// Every key has its own table index, and the reordered table holds each key's
    /// pattern at that index.
    #[test]
    fn split_layout_keeps_every_key_at_its_index() {
        let mut seen = vec![false; KEYS];
        for key in 0..KEYS as u32 {
            let i = split_index(key) as usize;
            assert!(!seen[i], "index {i} twice");
            seen[i] = true;
        }
        let by_key = build(Family::Exact);
        let split = split_layout(&by_key);
        for key in 0..KEYS as u32 {
            assert_eq!(
                split[split_index(key) as usize],
                by_key[key as usize],
                "key {key:#x}"
            );
        }
    }

    /// Where the tables are stored by ternary index, a wall and an opponent stone give one
    /// pattern in every key (so the index may read walls as opponent stones); in caro's
    /// families they do not, and those tables keep the split layout.
    #[test]
    fn walls_read_as_opponent_stones_exactly_where_tables_are_ternary() {
        for f in [Family::Free, Family::Exact, Family::Caro, Family::CaroExact] {
            let by_key = build(f);
            let differ = (0..KEYS as u32)
                .filter(|&key| {
                    // Every wall cell (0b11) made an opponent stone (0b10).
                    let walls = key & (key >> 1) & 0x55555;
                    by_key[key as usize] != by_key[(key & !walls) as usize]
                })
                .count();
            assert_eq!(differ == 0, is_ternary(f), "family {}: {differ}", f as u8);
        }
    }

    /// The ternary table holds each key's pattern at the index its digits give, and the
    /// index computed from a line's two masks is that index.
    #[test]
    fn ternary_layout_keeps_every_key_at_its_index() {
        let by_key = build(Family::Free);
        let ternary = ternary_layout(&by_key);
        assert_eq!(ternary.len(), TERNARY_KEYS);
        for key in (0..KEYS as u32).step_by(7) {
            let (mut own, mut blocked, mut index, mut p) = (0u32, 0u32, 0usize, 1usize);
            for i in 0..10 {
                match key >> (2 * i) & 3 {
                    1 => {
                        own |= 1 << i;
                        index += p;
                    }
                    2 | 3 => {
                        blocked |= 1 << i;
                        index += 2 * p;
                    }
                    _ => {}
                }
                p *= 3;
            }
            let from_masks = usize::from(TERNARY_WEIGHT[own as usize])
                + 2 * usize::from(TERNARY_WEIGHT[blocked as usize]);
            assert_eq!(from_masks, index, "key {key:#x}");
            assert_eq!(ternary[index], by_key[key as usize], "key {key:#x}");
        }
    }

    #[test]
    fn encode_decode_round_trip() {
        for key in (0..KEYS as u32).step_by(97) {
            let (own, opp, wall) = decode(key);
            assert_eq!(encode(own, opp, wall), key);
        }
    }

    /// The packed count agrees with counting one line at a time, for every four lines.
    #[test]
    fn counts_add_up_line_by_line() {
        for code in 0..10u32.pow(4) {
            let lines = [0, 1, 2, 3].map(|i| Pattern::from_u8((code / 10u32.pow(i) % 10) as u8));
            let mut c = PatternCounts::default();
            for p in lines {
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
            assert_eq!(PatternCounts::of(&lines), c, "{lines:?}");
        }
    }

    /// A fixed pseudo-random sequence for the random-position tests (of this crate too).
    pub(crate) fn xorshift(seed: u64) -> impl FnMut() -> u64 {
        let mut rng = seed;
        move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        }
    }

    /// The table agrees with the direct shape code on random positions, for every rule.
    #[test]
    fn tables_agree_with_direct_shapes() {
        let mut next = xorshift(0x1234_5678_9ABC_DEF0);
        for rule in Rule::ALL {
            let tables = PatternTables::new(rule);
            for _ in 0..60 {
                let (w, h) = (5 + (next() % 16) as usize, 5 + (next() % 16) as usize);
                let mut b = Board::new(w, h).unwrap();
                let stones = (next() % (w * h / 2) as u64) as usize;
                for _ in 0..stones {
                    let p = Pos::new((next() % w as u64) as usize, (next() % h as u64) as usize);
                    if b.is_empty(p) {
                        let c = if next().is_multiple_of(2) {
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
