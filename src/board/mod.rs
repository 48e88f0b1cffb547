//! The board: cells, per-direction line bitboards and a Zobrist hash, all updated
//! incrementally when a stone is placed or removed.
//!
//! Coordinates follow the Gomocup convention: `x` is the column (0 = left), `y` the row
//! (0 = top). Boards are 5..=32 cells wide and high, square or rectangular.
//!
//! Every line of the board (rows, columns, diagonals, anti-diagonals) is kept as one `u32`
//! bit mask per colour. Along rows and both diagonals the bit index is `x`; along columns it
//! is `y`. A line's "valid" mask marks the bits whose cells lie on the board, so the board
//! edge looks like a wall to pattern code that works on whole lines.

pub mod geometry;

use std::fmt;

/// Smallest supported board side.
pub const MIN_SIZE: usize = 5;
/// Largest supported board side.
pub const MAX_SIZE: usize = 32;
/// Number of cell slots: positions are indexed `y * MAX_SIZE + x`.
pub const CELL_SLOTS: usize = MAX_SIZE * MAX_SIZE;
/// Number of line directions.
pub const DIRECTIONS: usize = 4;
/// Maximum number of lines in one direction (diagonals: width + height - 1).
const MAX_LINES: usize = 2 * MAX_SIZE;

/// A stone colour. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first player.
    Black = 0,
    /// The second player.
    White = 1,
}

impl Color {
    /// The other colour.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// Both colours, Black first.
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];
}

/// What occupies a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// Nothing.
    Empty,
    /// A stone of a colour.
    Stone(Color),
    /// A square that belongs to nobody but cannot be played (field 3 of a continuous game).
    Blocked,
}

/// A square on a board of at most 32x32, stored as `y * 32 + x`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos(u16);

impl Pos {
    /// The square at column `x`, row `y` (both < 32).
    #[inline]
    pub fn new(x: usize, y: usize) -> Pos {
        debug_assert!(x < MAX_SIZE && y < MAX_SIZE);
        Pos((y * MAX_SIZE + x) as u16)
    }

    /// Column.
    #[inline]
    pub fn x(self) -> usize {
        self.0 as usize % MAX_SIZE
    }

    /// Row.
    #[inline]
    pub fn y(self) -> usize {
        self.0 as usize / MAX_SIZE
    }

    /// Index in `0..CELL_SLOTS`.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The position from an index in `0..CELL_SLOTS`.
    #[inline]
    pub fn from_index(index: usize) -> Pos {
        debug_assert!(index < CELL_SLOTS);
        Pos(index as u16)
    }
}

impl fmt::Display for Pos {
    /// Gomocup wire form `x,y`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x(), self.y())
    }
}

/// A line direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Along a row: (x+1, y).
    Horizontal = 0,
    /// Along a column: (x, y+1).
    Vertical = 1,
    /// Down-right: (x+1, y+1).
    Diagonal = 2,
    /// Up-right: (x+1, y-1).
    AntiDiagonal = 3,
}

impl Direction {
    /// All four directions.
    pub const ALL: [Direction; DIRECTIONS] = [
        Direction::Horizontal,
        Direction::Vertical,
        Direction::Diagonal,
        Direction::AntiDiagonal,
    ];

    /// The step `(dx, dy)` that moves one cell forward (towards higher bit index).
    #[inline]
    pub fn step(self) -> (isize, isize) {
        match self {
            Direction::Horizontal => (1, 0),
            Direction::Vertical => (0, 1),
            Direction::Diagonal => (1, 1),
            Direction::AntiDiagonal => (1, -1),
        }
    }
}

/// The line through a cell in one direction, and the cell's bit index on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineRef {
    /// Line number within its direction.
    pub line: usize,
    /// Bit index of the cell along the line.
    pub bit: u32,
}

/// Zobrist keys, made once from a fixed seed so hashes are the same on every run and platform.
struct ZobristKeys {
    stones: [[u64; CELL_SLOTS]; 2],
    blocked: [u64; CELL_SLOTS],
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn zobrist() -> &'static ZobristKeys {
    use std::sync::OnceLock;
    static KEYS: OnceLock<Box<ZobristKeys>> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut state = 0x5245_4E53_4131_u64; // "RENSA1"
        let mut keys = Box::new(ZobristKeys {
            stones: [[0; CELL_SLOTS]; 2],
            blocked: [0; CELL_SLOTS],
        });
        for colour in 0..2 {
            for i in 0..CELL_SLOTS {
                keys.stones[colour][i] = splitmix64(&mut state);
            }
        }
        for i in 0..CELL_SLOTS {
            keys.blocked[i] = splitmix64(&mut state);
        }
        keys
    })
}

/// The Zobrist key of a colour's stone at a position (used by search for side-to-move keys).
pub fn zobrist_stone(color: Color, pos: Pos) -> u64 {
    zobrist().stones[color.index()][pos.index()]
}

/// A board position: who stands where, with incrementally kept line masks and hash.
#[derive(Clone)]
pub struct Board {
    width: usize,
    height: usize,
    cells: [Cell; CELL_SLOTS],
    /// `lines[colour][direction][line]`: bit set where that colour has a stone.
    lines: [[[u32; MAX_LINES]; DIRECTIONS]; 2],
    /// Same layout, for blocked squares.
    blocked: [[u32; MAX_LINES]; DIRECTIONS],
    /// Same layout: bits whose cells are on the board.
    valid: [[u32; MAX_LINES]; DIRECTIONS],
    stone_count: usize,
    hash: u64,
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Board {}x{}", self.width, self.height)?;
        write!(f, "{}", self.to_ascii())
    }
}

impl PartialEq for Board {
    fn eq(&self, other: &Self) -> bool {
        self.width == other.width
            && self.height == other.height
            && self.hash == other.hash
            && self.stone_count == other.stone_count
            && self.cells == other.cells
            && self.lines == other.lines
            && self.blocked == other.blocked
            && self.valid == other.valid
    }
}

impl Eq for Board {}

/// Why a board size was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SizeError(pub String);

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Board {
    /// True when `width` x `height` is a supported board.
    pub fn size_supported(width: usize, height: usize) -> bool {
        (MIN_SIZE..=MAX_SIZE).contains(&width) && (MIN_SIZE..=MAX_SIZE).contains(&height)
    }

    /// An empty board, or an error for an unsupported size.
    pub fn new(width: usize, height: usize) -> Result<Board, SizeError> {
        if !Self::size_supported(width, height) {
            return Err(SizeError(format!(
                "unsupported board size {width}x{height} (supported: {MIN_SIZE} to {MAX_SIZE} per side)"
            )));
        }
        let mut board = Board {
            width,
            height,
            cells: [Cell::Empty; CELL_SLOTS],
            lines: [[[0; MAX_LINES]; DIRECTIONS]; 2],
            blocked: [[0; MAX_LINES]; DIRECTIONS],
            valid: [[0; MAX_LINES]; DIRECTIONS],
            stone_count: 0,
            hash: 0,
        };
        for y in 0..height {
            for x in 0..width {
                for dir in Direction::ALL {
                    let r = board.line_ref(Pos::new(x, y), dir);
                    board.valid[dir as usize][r.line] |= 1 << r.bit;
                }
            }
        }
        Ok(board)
    }

    /// Board width (number of columns).
    #[inline]
    pub fn width(&self) -> usize {
        self.width
    }

    /// Board height (number of rows).
    #[inline]
    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of squares.
    #[inline]
    pub fn area(&self) -> usize {
        self.width * self.height
    }

    /// Number of stones and blocked squares on the board.
    #[inline]
    pub fn stone_count(&self) -> usize {
        self.stone_count
    }

    /// Zobrist hash of the stones (side to move not included).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The position at signed coordinates, or None when off the board.
    #[inline]
    pub fn pos_at(&self, x: isize, y: isize) -> Option<Pos> {
        if x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height {
            Some(Pos::new(x as usize, y as usize))
        } else {
            None
        }
    }

    /// True when the position lies on this board.
    #[inline]
    pub fn contains(&self, pos: Pos) -> bool {
        pos.x() < self.width && pos.y() < self.height
    }

    /// The centre square (`floor(w/2), floor(h/2)`).
    pub fn center(&self) -> Pos {
        Pos::new(self.width / 2, self.height / 2)
    }

    /// What is at a position.
    #[inline]
    pub fn cell(&self, pos: Pos) -> Cell {
        self.cells[pos.index()]
    }

    /// True when the square is on the board and empty.
    #[inline]
    pub fn is_empty(&self, pos: Pos) -> bool {
        self.contains(pos) && self.cells[pos.index()] == Cell::Empty
    }

    /// All squares of the board in row-major order.
    pub fn positions(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| Pos::new(x, y)))
    }

    /// All empty squares in row-major order.
    pub fn empty_positions(&self) -> impl Iterator<Item = Pos> + '_ {
        self.positions()
            .filter(move |&p| self.cells[p.index()] == Cell::Empty)
    }

    /// Number of stones of one colour.
    pub fn count(&self, color: Color) -> usize {
        self.lines[color.index()][Direction::Horizontal as usize][..self.height]
            .iter()
            .map(|m| m.count_ones() as usize)
            .sum()
    }

    /// The line through `pos` in direction `dir`.
    #[inline]
    pub fn line_ref(&self, pos: Pos, dir: Direction) -> LineRef {
        let (x, y) = (pos.x(), pos.y());
        match dir {
            Direction::Horizontal => LineRef {
                line: y,
                bit: x as u32,
            },
            Direction::Vertical => LineRef {
                line: x,
                bit: y as u32,
            },
            Direction::Diagonal => LineRef {
                line: x + self.height - 1 - y,
                bit: x as u32,
            },
            Direction::AntiDiagonal => LineRef {
                line: x + y,
                bit: x as u32,
            },
        }
    }

    /// The position at bit `bit` of the line `line` in direction `dir`, if on the board.
    #[inline]
    pub fn pos_on_line(&self, dir: Direction, line: usize, bit: i32) -> Option<Pos> {
        if !(0..32).contains(&bit) {
            return None;
        }
        let b = bit as isize;
        let (x, y) = match dir {
            Direction::Horizontal => (b, line as isize),
            Direction::Vertical => (line as isize, b),
            Direction::Diagonal => (b, b - line as isize + self.height as isize - 1),
            Direction::AntiDiagonal => (b, line as isize - b),
        };
        self.pos_at(x, y)
    }

    /// Number of lines in direction `dir` (rows, columns or diagonals).
    #[inline]
    pub fn line_count(&self, dir: Direction) -> usize {
        match dir {
            Direction::Horizontal => self.height,
            Direction::Vertical => self.width,
            Direction::Diagonal | Direction::AntiDiagonal => self.width + self.height - 1,
        }
    }

    /// Stones of `color` on a line, as a bit mask.
    #[inline]
    pub fn line_stones(&self, color: Color, dir: Direction, line: usize) -> u32 {
        self.lines[color.index()][dir as usize][line]
    }

    /// Empty on-board squares of a line, as a bit mask.
    #[inline]
    pub fn line_empty(&self, dir: Direction, line: usize) -> u32 {
        let d = dir as usize;
        self.valid[d][line]
            & !(self.lines[0][d][line] | self.lines[1][d][line] | self.blocked[d][line])
    }

    /// Bits of a line that no stone can take: cells off the board and blocked squares.
    #[inline]
    pub fn line_walls(&self, dir: Direction, line: usize) -> u32 {
        let d = dir as usize;
        !self.valid[d][line] | self.blocked[d][line]
    }

    /// Bits of a line whose cells are on the board.
    #[inline]
    pub fn line_valid(&self, dir: Direction, line: usize) -> u32 {
        self.valid[dir as usize][line]
    }

    #[inline]
    fn toggle_bits(&mut self, pos: Pos, mut apply: impl FnMut(&mut Self, usize, usize, u32)) {
        for dir in Direction::ALL {
            let r = self.line_ref(pos, dir);
            apply(self, dir as usize, r.line, 1 << r.bit);
        }
    }

    /// Put a stone (or a blocked marker) on an empty on-board square.
    ///
    /// Panics in debug builds if the square is occupied or off the board; callers validate.
    pub fn place(&mut self, pos: Pos, cell: Cell) {
        debug_assert!(self.is_empty(pos), "place on non-empty {pos}");
        match cell {
            Cell::Empty => return,
            Cell::Stone(c) => {
                self.toggle_bits(pos, |b, d, l, bit| b.lines[c.index()][d][l] |= bit);
                self.hash ^= zobrist().stones[c.index()][pos.index()];
            }
            Cell::Blocked => {
                self.toggle_bits(pos, |b, d, l, bit| b.blocked[d][l] |= bit);
                self.hash ^= zobrist().blocked[pos.index()];
            }
        }
        self.cells[pos.index()] = cell;
        self.stone_count += 1;
    }

    /// Remove whatever stands on a square (no-op on an empty square).
    pub fn remove(&mut self, pos: Pos) {
        match self.cells[pos.index()] {
            Cell::Empty => return,
            Cell::Stone(c) => {
                self.toggle_bits(pos, |b, d, l, bit| b.lines[c.index()][d][l] &= !bit);
                self.hash ^= zobrist().stones[c.index()][pos.index()];
            }
            Cell::Blocked => {
                self.toggle_bits(pos, |b, d, l, bit| b.blocked[d][l] &= !bit);
                self.hash ^= zobrist().blocked[pos.index()];
            }
        }
        self.cells[pos.index()] = Cell::Empty;
        self.stone_count -= 1;
    }

    /// Rebuild a board from scratch from its cells: used by tests to check incremental state.
    pub fn recomputed(&self) -> Board {
        let mut fresh = Board::new(self.width, self.height).expect("size was valid");
        for pos in self.positions() {
            let cell = self.cells[pos.index()];
            if cell != Cell::Empty {
                fresh.place(pos, cell);
            }
        }
        fresh
    }

    /// Parse an ASCII diagram: one row per line, top row first; `X`/`x`/`B` Black,
    /// `O`/`o`/`W` White, `#` blocked, `.`/`-`/`+` empty. Spaces are ignored.
    pub fn from_ascii(text: &str) -> Result<Board, String> {
        let rows: Vec<Vec<char>> = text
            .lines()
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        let height = rows.len();
        let width = rows.first().map_or(0, |r| r.len());
        let mut board = Board::new(width, height).map_err(|e| e.0)?;
        for (y, row) in rows.iter().enumerate() {
            if row.len() != width {
                return Err(format!("row {y} has {} cells, expected {width}", row.len()));
            }
            for (x, ch) in row.iter().enumerate() {
                let cell = match ch {
                    'X' | 'x' | 'B' => Cell::Stone(Color::Black),
                    'O' | 'o' | 'W' => Cell::Stone(Color::White),
                    '#' => Cell::Blocked,
                    '.' | '-' | '+' | '_' => Cell::Empty,
                    other => return Err(format!("unexpected character {other:?}")),
                };
                board.place(Pos::new(x, y), cell);
            }
        }
        Ok(board)
    }

    /// The board as an ASCII diagram (`X` Black, `O` White, `#` blocked, `.` empty).
    pub fn to_ascii(&self) -> String {
        let mut s = String::with_capacity((self.width + 1) * self.height);
        for y in 0..self.height {
            for x in 0..self.width {
                s.push(match self.cells[Pos::new(x, y).index()] {
                    Cell::Empty => '.',
                    Cell::Stone(Color::Black) => 'X',
                    Cell::Stone(Color::White) => 'O',
                    Cell::Blocked => '#',
                });
            }
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_refs_round_trip_on_rectangular_boards() {
        for (w, h) in [(5, 5), (15, 15), (20, 7), (7, 20), (32, 32), (32, 5)] {
            let b = Board::new(w, h).unwrap();
            for p in b.positions() {
                for dir in Direction::ALL {
                    let r = b.line_ref(p, dir);
                    assert!(r.line < MAX_LINES);
                    assert_eq!(b.pos_on_line(dir, r.line, r.bit as i32), Some(p));
                    let (dx, dy) = dir.step();
                    if let Some(next) = b.pos_at(p.x() as isize + dx, p.y() as isize + dy) {
                        let rn = b.line_ref(next, dir);
                        assert_eq!((rn.line, rn.bit), (r.line, r.bit + 1));
                    }
                }
            }
        }
    }

    #[test]
    fn place_and_remove_match_recompute() {
        let mut b = Board::new(17, 13).unwrap();
        let mut rng = 12345u64;
        let mut placed = Vec::new();
        for step in 0..2000 {
            let r = splitmix64(&mut rng);
            if placed.is_empty() || (!r.is_multiple_of(3) && placed.len() < 150) {
                let p = Pos::new((r >> 8) as usize % 17, (r >> 20) as usize % 13);
                if b.is_empty(p) {
                    let cell = match r % 7 {
                        0 => Cell::Blocked,
                        1..=3 => Cell::Stone(Color::Black),
                        _ => Cell::Stone(Color::White),
                    };
                    b.place(p, cell);
                    placed.push(p);
                }
            } else {
                let i = (r >> 33) as usize % placed.len();
                let p = placed.swap_remove(i);
                b.remove(p);
            }
            if step % 50 == 0 {
                assert_eq!(b, b.recomputed(), "step {step}");
            }
        }
        while let Some(p) = placed.pop() {
            b.remove(p);
        }
        assert_eq!(b.hash(), 0);
        assert_eq!(b, Board::new(17, 13).unwrap());
    }

    #[test]
    fn sizes_outside_range_are_refused() {
        assert!(Board::new(4, 15).is_err());
        assert!(Board::new(15, 33).is_err());
        assert!(Board::new(5, 32).is_ok());
    }

    #[test]
    fn ascii_round_trip() {
        let text = ".....\n.XO..\n..#..\n.....\n....X\n";
        let b = Board::from_ascii(text).unwrap();
        assert_eq!(b.to_ascii(), text);
        assert_eq!(b.count(Color::Black), 2);
        assert_eq!(b.count(Color::White), 1);
        assert_eq!(b.stone_count(), 4);
    }
}
