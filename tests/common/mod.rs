//! Helpers shared by the integration tests: a deterministic random number generator,
//! conversions between `Board` and the reference `Grid`, and diagram printing.
//!
//! `reference` holds the slow reference implementation of the rules; `python` finds the
//! interpreter for the tests that drive PyPI packages.

#![allow(dead_code)]

pub mod games;
pub mod python;
pub mod reference;
pub mod vcf_reference;

use reference::Grid;
use rensa::board::{Board, Cell, Color, Pos};

/// The library's SplitMix64 with the tests' own range helpers (kept as they were, so that
/// every seeded test still draws the same positions).
pub struct Rng(rensa::rng::Rng);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(rensa::rng::Rng::new(seed))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0);
        ((self.next_u64() >> 11) % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn between(&mut self, lo: i64, hi: i64) -> i64 {
        assert!(lo <= hi);
        lo + self.below((hi - lo + 1) as usize) as i64
    }

    /// True with probability `percent` / 100.
    pub fn percent(&mut self, percent: u32) -> bool {
        self.below(100) < percent as usize
    }
}

/// The reference cell value of a stone colour.
pub fn code(color: Color) -> u8 {
    match color {
        Color::Black => reference::BLACK,
        Color::White => reference::WHITE,
    }
}

/// The reference grid holding the same cells as `board` (read one cell at a time).
pub fn grid_of(board: &Board) -> Grid {
    let mut grid = Grid::new(board.width(), board.height());
    for y in 0..board.height() {
        for x in 0..board.width() {
            let value = match board.cell(Pos::new(x, y)) {
                Cell::Empty => reference::EMPTY,
                Cell::Stone(Color::Black) => reference::BLACK,
                Cell::Stone(Color::White) => reference::WHITE,
                Cell::Blocked => reference::BLOCKED,
            };
            grid.set(x as i32, y as i32, value);
        }
    }
    grid
}

/// A diagram of the board with column and row numbers (Gomocup coordinates) and `*` on the
/// marked square, for failure messages.
pub fn show(board: &Board, mark: Option<Pos>) -> String {
    let mut text = format!(
        "{}x{} board (x across, y down):\n    ",
        board.width(),
        board.height()
    );
    for x in 0..board.width() {
        text.push(char::from_digit((x % 10) as u32, 10).unwrap());
    }
    text.push('\n');
    for y in 0..board.height() {
        text.push_str(&format!("{y:>3} "));
        for x in 0..board.width() {
            let p = Pos::new(x, y);
            text.push(if Some(p) == mark {
                '*'
            } else {
                match board.cell(p) {
                    Cell::Empty => '.',
                    Cell::Stone(Color::Black) => 'X',
                    Cell::Stone(Color::White) => 'O',
                    Cell::Blocked => '#',
                }
            });
        }
        text.push('\n');
    }
    text
}

/// Split a diagram into rows of characters (whitespace dropped, blank lines skipped).
pub fn diagram_rows(text: &str) -> Vec<Vec<char>> {
    text.lines()
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
        .filter(|r| !r.is_empty())
        .collect()
}

/// One of the eight symmetries of a rectangle applied to a diagram: bit 2 transposes, then
/// bit 0 mirrors left-right and bit 1 mirrors top-bottom. The rules do not change under any
/// of them (a transposed rectangular board is a valid board too).
pub fn transform(rows: &[Vec<char>], t: usize) -> Vec<Vec<char>> {
    let (h, w) = (rows.len(), rows[0].len());
    let mut out: Vec<Vec<char>> = if t & 4 != 0 {
        (0..w)
            .map(|x| (0..h).map(|y| rows[y][x]).collect())
            .collect()
    } else {
        rows.to_vec()
    };
    if t & 1 != 0 {
        for row in &mut out {
            row.reverse();
        }
    }
    if t & 2 != 0 {
        out.reverse();
    }
    out
}

/// Centre a small diagram on an empty `width` x `height` board (extra room goes right/below).
pub fn embed(rows: &[Vec<char>], width: usize, height: usize) -> Vec<Vec<char>> {
    let (h, w) = (rows.len(), rows[0].len());
    assert!(
        w <= width && h <= height,
        "diagram {w}x{h} larger than {width}x{height}"
    );
    let (ox, oy) = ((width - w) / 2, (height - h) / 2);
    let mut out = vec![vec!['.'; width]; height];
    for y in 0..h {
        assert_eq!(rows[y].len(), w, "ragged diagram");
        for x in 0..w {
            out[oy + y][ox + x] = rows[y][x];
        }
    }
    out
}

/// Build the fast board and the reference grid from diagram rows in which `*` marks one
/// empty square of interest (returned; None when there is no `*`). The board is built with
/// `Board::from_ascii`, the grid with the reference's own parser.
pub fn parse_marked(rows: &[Vec<char>]) -> (Board, Grid, Option<Pos>) {
    let mut mark = None;
    let mut text = String::new();
    for (y, row) in rows.iter().enumerate() {
        for (x, &ch) in row.iter().enumerate() {
            if ch == '*' {
                assert!(mark.is_none(), "two marks in a diagram");
                mark = Some(Pos::new(x, y));
                text.push('.');
            } else {
                text.push(ch);
            }
        }
        text.push('\n');
    }
    let board = Board::from_ascii(&text).expect("diagram parses");
    let grid = Grid::from_ascii(&text);
    assert_eq!(
        grid_of(&board),
        grid,
        "Board::from_ascii and the reference parser disagree"
    );
    (board, grid, mark)
}
