//! Long random play/undo walks on boards of several sizes: after every step the incrementally
//! updated board must equal a from-scratch recompute (cells, line masks, counts and Zobrist
//! hash), the line masks must agree with the cells read one by one, and the hash must change
//! by the same key whenever the same thing is put on or taken off the same square. Walking
//! back to the empty board must give hash 0.

mod common;

use common::Rng;
use rensa::board::{zobrist_stone, Board, Cell, Color, Direction, Pos};
use std::collections::HashMap;

const SIZES: [(usize, usize); 8] = [
    (5, 5),
    (15, 15),
    (20, 20),
    (9, 13),
    (32, 5),
    (5, 32),
    (32, 32),
    (17, 6),
];

/// Number of lines of a board in one direction.
fn line_count(board: &Board, dir: Direction) -> usize {
    match dir {
        Direction::Horizontal => board.height(),
        Direction::Vertical => board.width(),
        Direction::Diagonal | Direction::AntiDiagonal => board.width() + board.height() - 1,
    }
}

/// Check every line mask bit against the cells, and the counters, without using the board's
/// own recompute.
fn check_against_cells(board: &Board, context: &str) {
    let mut black = 0;
    let mut white = 0;
    let mut occupied = 0;
    for p in board.positions() {
        match board.cell(p) {
            Cell::Stone(Color::Black) => black += 1,
            Cell::Stone(Color::White) => white += 1,
            Cell::Blocked => {}
            Cell::Empty => continue,
        }
        occupied += 1;
    }
    assert_eq!(board.count(Color::Black), black, "{context}: black count");
    assert_eq!(board.count(Color::White), white, "{context}: white count");
    assert_eq!(board.stone_count(), occupied, "{context}: stone_count");
    assert_eq!(
        board.empty_positions().count(),
        board.area() - occupied,
        "{context}"
    );

    let mut seen = 0;
    for dir in Direction::ALL {
        for line in 0..line_count(board, dir) {
            let valid = board.line_valid(dir, line);
            let blacks = board.line_stones(Color::Black, dir, line);
            let whites = board.line_stones(Color::White, dir, line);
            let empties = board.line_empty(dir, line);
            for bit in 0..32u32 {
                let mask = 1u32 << bit;
                match board.pos_on_line(dir, line, bit as i32) {
                    None => {
                        assert_eq!(
                            valid & mask,
                            0,
                            "{context}: {dir:?} line {line} bit {bit} off board"
                        );
                        assert_eq!(
                            (blacks | whites | empties) & mask,
                            0,
                            "{context}: {dir:?} {line}/{bit}"
                        );
                    }
                    Some(p) => {
                        seen += 1;
                        let r = board.line_ref(p, dir);
                        assert_eq!((r.line, r.bit), (line, bit), "{context}: line_ref of {p}");
                        assert_ne!(valid & mask, 0, "{context}: {p} {dir:?} not valid");
                        let cell = board.cell(p);
                        let msg = || format!("{context}: {p} {dir:?} masks vs cell {cell:?}");
                        assert_eq!(
                            blacks & mask != 0,
                            cell == Cell::Stone(Color::Black),
                            "{}",
                            msg()
                        );
                        assert_eq!(
                            whites & mask != 0,
                            cell == Cell::Stone(Color::White),
                            "{}",
                            msg()
                        );
                        assert_eq!(empties & mask != 0, cell == Cell::Empty, "{}", msg());
                        assert_eq!(board.is_empty(p), cell == Cell::Empty, "{}", msg());
                    }
                }
            }
        }
    }
    assert_eq!(
        seen,
        4 * board.area(),
        "{context}: every square on one line per direction"
    );
}

fn random_cell(rng: &mut Rng) -> Cell {
    match rng.below(20) {
        0 | 1 => Cell::Blocked,
        2..=10 => Cell::Stone(Color::Black),
        _ => Cell::Stone(Color::White),
    }
}

fn random_empty(rng: &mut Rng, board: &Board) -> Option<Pos> {
    for _ in 0..64 {
        let p = Pos::new(rng.below(board.width()), rng.below(board.height()));
        if board.is_empty(p) {
            return Some(p);
        }
    }
    board.empty_positions().next()
}

/// Tracks the hash change each (square, content) pair causes, which must never vary.
#[derive(Default)]
struct KeyBook {
    keys: HashMap<(Pos, u8), u64>,
}

impl KeyBook {
    fn record(&mut self, pos: Pos, cell: Cell, delta: u64, context: &str) {
        let tag = match cell {
            Cell::Stone(Color::Black) => 0,
            Cell::Stone(Color::White) => 1,
            Cell::Blocked => 2,
            Cell::Empty => panic!("no key for an empty cell"),
        };
        assert_ne!(
            delta, 0,
            "{context}: placing {cell:?} on {pos} did not change the hash"
        );
        if let Cell::Stone(c) = cell {
            assert_eq!(
                delta,
                zobrist_stone(c, pos),
                "{context}: key of {cell:?} on {pos}"
            );
        }
        let known = *self.keys.entry((pos, tag)).or_insert(delta);
        assert_eq!(
            known, delta,
            "{context}: hash key of {cell:?} on {pos} changed"
        );
    }
}

/// The same cells placed in a shuffled order must give an equal board.
fn rebuilt_shuffled(board: &Board, rng: &mut Rng) -> Board {
    let mut cells: Vec<(Pos, Cell)> = board
        .positions()
        .map(|p| (p, board.cell(p)))
        .filter(|&(_, c)| c != Cell::Empty)
        .collect();
    for i in (1..cells.len()).rev() {
        let j = rng.below(i + 1);
        cells.swap(i, j);
    }
    let mut fresh = Board::new(board.width(), board.height()).unwrap();
    for (p, c) in cells {
        fresh.place(p, c);
    }
    fresh
}

/// One long walk. `stack_only` undoes strictly in reverse order; otherwise removals pick a
/// random occupied square. Returns the number of steps checked.
fn walk(width: usize, height: usize, steps: usize, seed: u64, stack_only: bool) -> usize {
    let mut rng = Rng::new(seed);
    let mut board = Board::new(width, height).unwrap();
    let empty = board.clone();
    let mut placed: Vec<Pos> = Vec::new();
    let mut book = KeyBook::default();
    // Fill towards a moving target so that the board goes from empty to (nearly) full and back.
    let mut target = 0usize;
    for step in 0..steps {
        let context = format!("{width}x{height} seed {seed:#x} step {step}");
        if step % 200 == 0 {
            target = match rng.below(4) {
                0 => board.area(),
                1 => 0,
                _ => rng.below(board.area() + 1),
            };
        }
        let before = board.hash();
        let grow = placed.len() < target || (placed.len() == target && rng.percent(50));
        if grow && placed.len() < board.area() {
            let p = random_empty(&mut rng, &board).expect("board not full");
            let cell = random_cell(&mut rng);
            board.place(p, cell);
            assert_eq!(board.cell(p), cell, "{context}");
            placed.push(p);
            book.record(p, cell, before ^ board.hash(), &context);
        } else if !placed.is_empty() {
            let i = if stack_only {
                placed.len() - 1
            } else {
                rng.below(placed.len())
            };
            let p = placed.swap_remove(i);
            let cell = board.cell(p);
            board.remove(p);
            assert_eq!(board.cell(p), Cell::Empty, "{context}");
            book.record(p, cell, before ^ board.hash(), &context);
        }
        // Removing from an empty square is a no-op.
        if let Some(p) = random_empty(&mut rng, &board) {
            let snapshot = board.clone();
            board.remove(p);
            assert_eq!(board, snapshot, "{context}: remove on an empty square");
        }
        assert_eq!(board, board.recomputed(), "{context}\n{board:?}");
        if step % 16 == 0 {
            check_against_cells(&board, &context);
            assert_eq!(
                board,
                rebuilt_shuffled(&board, &mut rng),
                "{context}: placement order"
            );
        }
        if placed.is_empty() {
            assert_eq!(board.hash(), 0, "{context}: empty board hash");
            assert_eq!(board, empty, "{context}");
        }
    }
    // Walk back to the empty board.
    while let Some(p) = placed.pop() {
        board.remove(p);
    }
    assert_eq!(board.hash(), 0, "{width}x{height}: hash after walking back");
    assert_eq!(board, empty);
    check_against_cells(&board, "after walking back");
    steps
}

#[test]
fn stack_order_walks() {
    let mut total = 0;
    for (i, &(w, h)) in SIZES.iter().enumerate() {
        total += walk(w, h, 15000, 0xB0A2_D000 + i as u64, true);
    }
    println!("stack-order walks: {total} steps on {} sizes", SIZES.len());
}

#[test]
fn random_order_walks() {
    let mut total = 0;
    for (i, &(w, h)) in SIZES.iter().enumerate() {
        total += walk(w, h, 15000, 0xB0A2_E000 + i as u64, false);
    }
    println!("random-order walks: {total} steps on {} sizes", SIZES.len());
}

#[test]
fn nested_play_and_undo_restores_every_snapshot() {
    // Search-like use: play a few moves, undo them all, and compare with the saved board.
    let mut rng = Rng::new(0xB0A2_F000);
    for &(w, h) in &SIZES {
        let mut board = Board::new(w, h).unwrap();
        for round in 0..400 {
            let snapshot = board.clone();
            let depth = rng.between(1, 8) as usize;
            let mut line = Vec::new();
            for _ in 0..depth {
                let Some(p) = random_empty(&mut rng, &board) else {
                    break;
                };
                board.place(p, random_cell(&mut rng));
                line.push(p);
            }
            while let Some(p) = line.pop() {
                board.remove(p);
            }
            assert_eq!(board, snapshot, "{w}x{h} round {round}");
            // Keep one move now and then so the base position grows (and sometimes shrinks).
            if rng.percent(60) {
                if let Some(p) = random_empty(&mut rng, &board) {
                    board.place(p, random_cell(&mut rng));
                }
            } else {
                let occupied = board.positions().find(|&p| !board.is_empty(p));
                if let Some(p) = occupied {
                    board.remove(p);
                }
            }
            assert_eq!(board, board.recomputed(), "{w}x{h} round {round}");
        }
    }
}

#[test]
fn full_board_and_back() {
    for &(w, h) in &SIZES {
        let mut rng = Rng::new(w as u64 * 100 + h as u64);
        let mut board = Board::new(w, h).unwrap();
        let mut order: Vec<Pos> = board.positions().collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        for &p in &order {
            board.place(p, random_cell(&mut rng));
        }
        assert_eq!(board.stone_count(), w * h);
        assert_eq!(board.empty_positions().count(), 0);
        assert_eq!(board, board.recomputed());
        check_against_cells(&board, &format!("{w}x{h} full"));
        for &p in order.iter().rev().step_by(2) {
            board.remove(p);
        }
        assert_eq!(board, board.recomputed());
        for &p in &order {
            board.remove(p);
        }
        assert_eq!(board.hash(), 0, "{w}x{h}");
        assert_eq!(board, Board::new(w, h).unwrap());
    }
}
