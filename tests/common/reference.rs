//! A deliberately simple, slow reference implementation of every rule.
//!
//! It is written independently of `src/rules.rs` and as plainly as possible: the board is a
//! `Vec<Vec<u8>>`, lines are walked one cell at a time with `(dx, dy)` steps, and nothing here
//! calls the fast rules code (only its `Rule` and `Foul` enums are shared, so that results can
//! be compared directly). The integration tests compare the two on many positions.
//!
//! Definitions used (Renju, Black only):
//!
//! - A move that makes an *exact* five (a run of exactly five black stones through the new
//!   stone) wins and is never forbidden, whatever else it makes on the other lines.
//! - Otherwise a run of six or more through the new stone is an overline (forbidden).
//! - A *four* through the new stone on a line: an empty square of that line where one more
//!   black stone makes an exact five that contains the new stone. The number of fours on a
//!   line is the number of such squares, except that two of them exactly five apart with four
//!   black stones between (`.XXXX.`, a straight four) are one four. Two or more fours in
//!   total (also on one line, `X.XXX.X`, `XX.XX.XX`) are a double four (forbidden).
//! - A *three* through the new stone on a line: some empty square of that line where one more
//!   black stone makes a straight four (`.XXXX.`, both ends completing an exact five) whose
//!   four stones include the new stone and that square, and that square is itself not
//!   forbidden for Black (checked with this same function, recursively). Two or more threes
//!   are a double three (forbidden).

use rensa::rules::{Foul, Rule};

/// An empty square.
pub const EMPTY: u8 = 0;
/// A black stone.
pub const BLACK: u8 = 1;
/// A white stone.
pub const WHITE: u8 = 2;
/// A square nobody may play (field 3 of a continuous game).
pub const BLOCKED: u8 = 3;
/// What [`Grid::get`] answers for a square outside the board.
pub const OFF: u8 = 4;

/// The four line directions as `(dx, dy)`: right, down, down-right, up-right.
pub const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// The other player's stone value.
pub fn opponent(color: u8) -> u8 {
    if color == BLACK {
        WHITE
    } else if color == WHITE {
        BLACK
    } else {
        panic!("opponent of a non-stone value {color}")
    }
}

/// A board as plain rows of cell values: `rows[y][x]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub width: usize,
    pub height: usize,
    pub rows: Vec<Vec<u8>>,
}

impl Grid {
    /// An empty board.
    pub fn new(width: usize, height: usize) -> Grid {
        Grid {
            width,
            height,
            rows: vec![vec![EMPTY; width]; height],
        }
    }

    /// Parse a diagram: one row per text line, top row first; `X` Black, `O` White,
    /// `#` blocked, `.` empty. Whitespace is ignored and blank lines are skipped.
    pub fn from_ascii(text: &str) -> Grid {
        let mut rows = Vec::new();
        for line in text.lines() {
            let mut row = Vec::new();
            for ch in line.chars() {
                match ch {
                    'X' => row.push(BLACK),
                    'O' => row.push(WHITE),
                    '#' => row.push(BLOCKED),
                    '.' => row.push(EMPTY),
                    c if c.is_whitespace() => {}
                    c => panic!("reference grid: unexpected character {c:?}"),
                }
            }
            if !row.is_empty() {
                rows.push(row);
            }
        }
        let height = rows.len();
        let width = rows[0].len();
        for row in &rows {
            assert_eq!(row.len(), width, "ragged diagram");
        }
        Grid {
            width,
            height,
            rows,
        }
    }

    /// The diagram of this grid (`X`, `O`, `#`, `.`), one line per row.
    pub fn to_ascii(&self) -> String {
        let mut text = String::new();
        for row in &self.rows {
            for &cell in row {
                text.push(match cell {
                    EMPTY => '.',
                    BLACK => 'X',
                    WHITE => 'O',
                    BLOCKED => '#',
                    _ => '?',
                });
            }
            text.push('\n');
        }
        text
    }

    /// True when `(x, y)` lies on the board.
    pub fn on_board(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height
    }

    /// The cell at `(x, y)`, or [`OFF`] outside the board.
    pub fn get(&self, x: i32, y: i32) -> u8 {
        if self.on_board(x, y) {
            self.rows[y as usize][x as usize]
        } else {
            OFF
        }
    }

    /// Set the cell at `(x, y)` (which must be on the board).
    pub fn set(&mut self, x: i32, y: i32, value: u8) {
        assert!(self.on_board(x, y), "set off the board at ({x}, {y})");
        self.rows[y as usize][x as usize] = value;
    }
}

/// How many stones of `color` follow one another starting one step away from `(x, y)` in
/// the direction `(dx, dy)` (the square `(x, y)` itself is not looked at).
fn count_from(grid: &Grid, x: i32, y: i32, dx: i32, dy: i32, color: u8) -> i32 {
    let mut n = 0;
    let mut cx = x + dx;
    let mut cy = y + dy;
    while grid.get(cx, cy) == color {
        n += 1;
        cx += dx;
        cy += dy;
    }
    n
}

/// True when a stone of `color` (`BLACK` or `WHITE`) on `(x, y)` makes a winning line under
/// `rule`. The square is treated as holding `color`, whatever is on it now.
pub fn wins(grid: &Grid, x: i32, y: i32, color: u8, rule: Rule) -> bool {
    for (dx, dy) in DIRECTIONS {
        let forward = count_from(grid, x, y, dx, dy, color);
        let backward = count_from(grid, x, y, -dx, -dy, color);
        let length = forward + 1 + backward;
        // The squares just past both ends of the run (OFF at the board edge).
        let end_a = grid.get(x + (forward + 1) * dx, y + (forward + 1) * dy);
        let end_b = grid.get(x - (backward + 1) * dx, y - (backward + 1) * dy);
        let blocked_both_ends = end_a == opponent(color) && end_b == opponent(color);
        let this_line_wins = match rule {
            Rule::Freestyle => length >= 5,
            Rule::Standard => length == 5,
            Rule::Renju => {
                if color == BLACK {
                    length == 5
                } else {
                    length >= 5
                }
            }
            Rule::Caro => {
                if length == 5 {
                    !blocked_both_ends
                } else {
                    length > 5
                }
            }
            Rule::CaroExact => length == 5 && !blocked_both_ends,
        };
        if this_line_wins {
            return true;
        }
    }
    false
}

/// The forbidden kind of Black's move on the empty square `(x, y)` under Renju, or None.
/// The grid is used as scratch space and is left as it was.
pub fn renju_foul(grid: &mut Grid, x: i32, y: i32) -> Option<Foul> {
    assert_eq!(grid.get(x, y), EMPTY, "renju_foul on a non-empty square");
    grid.set(x, y, BLACK);
    let result = foul_with_stone_placed(grid, x, y);
    grid.set(x, y, EMPTY);
    result
}

/// All forbidden squares for Black, row by row (top first), left to right.
pub fn forbidden_points(grid: &Grid) -> Vec<(i32, i32, Foul)> {
    let mut scratch = grid.clone();
    let mut list = Vec::new();
    for y in 0..grid.height as i32 {
        for x in 0..grid.width as i32 {
            if grid.get(x, y) == EMPTY {
                if let Some(foul) = renju_foul(&mut scratch, x, y) {
                    list.push((x, y, foul));
                }
            }
        }
    }
    assert_eq!(&scratch, grid, "renju_foul did not restore the grid");
    list
}

/// Length of the run of black stones through `(x, y)` (which holds Black) in one direction,
/// as `(backward, forward)`: the number of black stones before and after it.
fn black_run(grid: &Grid, x: i32, y: i32, dx: i32, dy: i32) -> (i32, i32) {
    (
        count_from(grid, x, y, -dx, -dy, BLACK),
        count_from(grid, x, y, dx, dy, BLACK),
    )
}

fn foul_with_stone_placed(grid: &mut Grid, x: i32, y: i32) -> Option<Foul> {
    // 1. An exact five anywhere wins: never forbidden.
    for (dx, dy) in DIRECTIONS {
        let (back, fwd) = black_run(grid, x, y, dx, dy);
        if back + 1 + fwd == 5 {
            return None;
        }
    }
    // 2. Overline.
    for (dx, dy) in DIRECTIONS {
        let (back, fwd) = black_run(grid, x, y, dx, dy);
        if back + 1 + fwd >= 6 {
            return Some(Foul::Overline);
        }
    }
    // 3. Fours.
    let mut fours = 0;
    for (dx, dy) in DIRECTIONS {
        fours += fours_on_line(grid, x, y, dx, dy);
    }
    if fours >= 2 {
        return Some(Foul::DoubleFour);
    }
    // 4. Threes.
    let mut threes = 0;
    for (dx, dy) in DIRECTIONS {
        if is_three(grid, x, y, dx, dy) {
            threes += 1;
        }
    }
    if threes >= 2 {
        return Some(Foul::DoubleThree);
    }
    None
}

/// Offsets `k` (the square `(x + k*dx, y + k*dy)`) of the empty squares on the line where one
/// more black stone makes an exact five that contains the black stone on `(x, y)`. Such a
/// five spans five squares holding both, so only offsets -4..=4 can qualify.
pub fn five_squares(grid: &mut Grid, x: i32, y: i32, dx: i32, dy: i32) -> Vec<i32> {
    let mut squares = Vec::new();
    for k in -4..=4 {
        let (qx, qy) = (x + k * dx, y + k * dy);
        if k == 0 || grid.get(qx, qy) != EMPTY {
            continue;
        }
        grid.set(qx, qy, BLACK);
        let (back, fwd) = black_run(grid, x, y, dx, dy);
        grid.set(qx, qy, EMPTY);
        // The run through (x, y) must be exactly five long and must include the new stone.
        if back + 1 + fwd == 5 && -back <= k && k <= fwd {
            squares.push(k);
        }
    }
    squares
}

/// True when `a` and `b` (offsets from `(x, y)`) are exactly five apart with four black
/// stones between them: the two ends of one straight four.
fn ends_of_straight_four(grid: &Grid, x: i32, y: i32, dx: i32, dy: i32, a: i32, b: i32) -> bool {
    if b - a != 5 {
        return false;
    }
    (a + 1..b).all(|k| grid.get(x + k * dx, y + k * dy) == BLACK)
}

/// Number of fours through the black stone on `(x, y)` along one line.
fn fours_on_line(grid: &mut Grid, x: i32, y: i32, dx: i32, dy: i32) -> i32 {
    let squares = five_squares(grid, x, y, dx, dy);
    let mut count = squares.len() as i32;
    for &a in &squares {
        for &b in &squares {
            if ends_of_straight_four(grid, x, y, dx, dy, a, b) {
                count -= 1;
            }
        }
    }
    count
}

/// True when the black stones on `(x, y)` and on offset `k` of the line are both part of one
/// straight four along this line.
fn makes_straight_four(grid: &mut Grid, x: i32, y: i32, dx: i32, dy: i32, k: i32) -> bool {
    let squares = five_squares(grid, x, y, dx, dy);
    for &a in &squares {
        for &b in &squares {
            if ends_of_straight_four(grid, x, y, dx, dy, a, b) && a < k && k < b {
                return true;
            }
        }
    }
    false
}

/// True when the black stone on `(x, y)` is part of a real three along this line: one more
/// black stone on some empty square of the line makes a straight four through `(x, y)` (the
/// new stone being one of its four stones: a line that already is a straight four is no
/// three), and that move neither makes a five nor is itself forbidden (the Gomocup referee,
/// Piskvork's `foulr`, counts a five-making square as unplayable for a three).
fn is_three(grid: &mut Grid, x: i32, y: i32, dx: i32, dy: i32) -> bool {
    for k in -4..=4 {
        let (qx, qy) = (x + k * dx, y + k * dy);
        if k == 0 || grid.get(qx, qy) != EMPTY {
            continue;
        }
        grid.set(qx, qy, BLACK);
        let straight = makes_straight_four(grid, x, y, dx, dy, k);
        grid.set(qx, qy, EMPTY);
        if straight && !wins(grid, qx, qy, BLACK, Rule::Renju) && renju_foul(grid, qx, qy).is_none()
        {
            return true;
        }
    }
    false
}
