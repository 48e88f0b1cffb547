//! Differential tests: the fast rules code (`rensa::rules`) against the slow reference
//! implementation (`tests/common/reference.rs`) on thousands of deterministic pseudo-random
//! positions of several board sizes, square and rectangular.
//!
//! For every position and every empty square: `is_winning_move` for both colours under every
//! rule, `renju_foul` (kind or None) and `is_forbidden`; for every stone: `stone_wins` under
//! every rule; and `forbidden_points` for the whole board. Positions come from three
//! generators: stones scattered around a point (dense, both colours, some blocked squares),
//! overlapping black-heavy line segments (many threes and fours), and random legal Renju
//! games (Black never plays a forbidden point).
//!
//! Run with `--nocapture` to see how many positions and squares were compared.

mod common;

use common::reference::{self, Grid};
use common::{code, grid_of, show, Rng};
use rensa::board::{Board, Cell, Color, Pos};
use rensa::rules::{
    forbidden_points, is_forbidden, is_winning_move, renju_foul, stone_wins, Foul, Rule,
};
use std::time::Instant;

/// What one test compared, for the summary line.
#[derive(Default)]
struct Stats {
    positions: usize,
    empty_squares: usize,
    stones: usize,
    win_checks: usize,
    wins: usize,
    fouls: [usize; 3],
    mismatches: Vec<String>,
}

impl Stats {
    fn report(&self, name: &str, started: Instant) {
        println!(
            "{name}: {} positions, {} empty squares (renju_foul + {} is_winning_move checks, {} wins), \
             {} stones, fouls: {} double-three / {} double-four / {} overline, {:.2?}",
            self.positions,
            self.empty_squares,
            self.win_checks,
            self.wins,
            self.stones,
            self.fouls[0],
            self.fouls[1],
            self.fouls[2],
            started.elapsed()
        );
        if !self.mismatches.is_empty() {
            panic!(
                "{name}: {} mismatches between the fast code and the reference; first ones:\n{}",
                self.mismatches.len(),
                self.mismatches
                    .iter()
                    .take(8)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join("\n")
            );
        }
    }

    fn mismatch(&mut self, what: String) {
        if self.mismatches.len() < 50 {
            self.mismatches.push(what);
        } else {
            self.mismatches.push(String::new());
        }
    }
}

fn foul_index(foul: Foul) -> usize {
    match foul {
        Foul::DoubleThree => 0,
        Foul::DoubleFour => 1,
        Foul::Overline => 2,
    }
}

/// Compare the fast code with the reference on every square of one position.
fn check_position(board: &Board, label: &str, stats: &mut Stats) {
    stats.positions += 1;
    let mut grid: Grid = grid_of(board);
    let mut scratch = board.clone();
    let mut slow_forbidden = Vec::new();
    for p in board.positions() {
        let (x, y) = (p.x() as i32, p.y() as i32);
        match board.cell(p) {
            Cell::Empty => {
                stats.empty_squares += 1;
                for color in Color::BOTH {
                    for rule in Rule::ALL {
                        stats.win_checks += 1;
                        let fast = is_winning_move(board, p, color, rule);
                        let slow = reference::wins(&grid, x, y, code(color), rule);
                        stats.wins += slow as usize;
                        if fast != slow {
                            stats.mismatch(format!(
                                "{label}: is_winning_move({p}, {color:?}, {rule}): fast {fast}, \
                                 reference {slow}\n{}",
                                show(board, Some(p))
                            ));
                        }
                    }
                }
                let fast = renju_foul(&mut scratch, p);
                let slow = reference::renju_foul(&mut grid, x, y);
                if let Some(f) = slow {
                    stats.fouls[foul_index(f)] += 1;
                    slow_forbidden.push((p, f));
                }
                if fast != slow {
                    stats.mismatch(format!(
                        "{label}: renju_foul({p}): fast {fast:?}, reference {slow:?}\n{}",
                        show(board, Some(p))
                    ));
                }
                for color in Color::BOTH {
                    for rule in Rule::ALL {
                        let want = color == Color::Black && rule == Rule::Renju && slow.is_some();
                        if is_forbidden(&mut scratch, p, color, rule) != want {
                            stats.mismatch(format!(
                                "{label}: is_forbidden({p}, {color:?}, {rule}) != {want}\n{}",
                                show(board, Some(p))
                            ));
                        }
                    }
                }
            }
            Cell::Stone(color) => {
                stats.stones += 1;
                for rule in Rule::ALL {
                    let fast = stone_wins(board, p, rule);
                    let slow = reference::wins(&grid, x, y, code(color), rule);
                    if fast != slow {
                        stats.mismatch(format!(
                            "{label}: stone_wins({p}, {rule}): fast {fast}, reference {slow}\n{}",
                            show(board, Some(p))
                        ));
                    }
                }
            }
            Cell::Blocked => {
                for rule in Rule::ALL {
                    if stone_wins(board, p, rule) {
                        stats.mismatch(format!("{label}: stone_wins on a blocked square {p}"));
                    }
                }
            }
        }
    }
    if scratch != *board {
        stats.mismatch(format!("{label}: renju_foul did not restore the board"));
    }
    if grid != grid_of(board) {
        stats.mismatch(format!(
            "{label}: reference renju_foul did not restore the grid"
        ));
    }
    let fast_forbidden = forbidden_points(board);
    if fast_forbidden != slow_forbidden {
        stats.mismatch(format!(
            "{label}: forbidden_points: fast {fast_forbidden:?}, reference {slow_forbidden:?}\n{}",
            show(board, None)
        ));
    }
}

// ---------------------------------------------------------------------------------------------
// Position generators
// ---------------------------------------------------------------------------------------------

/// About `stones` stones (and a few blocked squares) scattered around a random point near the
/// middle, denser in the middle (sum of two uniform offsets).
fn scattered(
    rng: &mut Rng,
    width: usize,
    height: usize,
    stones: usize,
    black_percent: u32,
) -> Board {
    let mut board = Board::new(width, height).unwrap();
    let stones = stones.min(board.area() * 7 / 10);
    let cx = width as i64 / 2 + rng.between(-(width as i64) / 4, width as i64 / 4);
    let cy = height as i64 / 2 + rng.between(-(height as i64) / 4, height as i64 / 4);
    let spread = rng.between(2, 4);
    let blocked_percent = if rng.percent(25) { 4 } else { 0 };
    let mut placed = 0;
    let mut attempts = 0;
    while placed < stones && attempts < stones * 40 {
        attempts += 1;
        let x = cx + rng.between(-spread, spread) + rng.between(-spread, spread);
        let y = cy + rng.between(-spread, spread) + rng.between(-spread, spread);
        let Some(p) = board.pos_at(x as isize, y as isize) else {
            continue;
        };
        if !board.is_empty(p) {
            continue;
        }
        let cell = if rng.percent(blocked_percent) {
            Cell::Blocked
        } else if rng.percent(black_percent) {
            Cell::Stone(Color::Black)
        } else {
            Cell::Stone(Color::White)
        };
        board.place(p, cell);
        placed += 1;
    }
    board
}

/// Overlapping short line segments, mostly black: every kind of three, four, split pattern
/// and overline shows up, with some white stones in between.
fn segments(rng: &mut Rng, width: usize, height: usize) -> Board {
    let mut board = Board::new(width, height).unwrap();
    let count = rng.between(3, 9);
    let (cx, cy) = (width as i64 / 2, height as i64 / 2);
    let reach = (width.min(height) as i64 / 3).max(2);
    for _ in 0..count {
        let (dx, dy) = [(1, 0), (0, 1), (1, 1), (1, -1)][rng.below(4)];
        let sx = cx + rng.between(-reach, reach);
        let sy = cy + rng.between(-reach, reach);
        let len = rng.between(5, 8);
        for k in 0..len {
            let Some(p) = board.pos_at((sx + k * dx) as isize, (sy + k * dy) as isize) else {
                continue;
            };
            if !board.is_empty(p) {
                continue;
            }
            let r = rng.below(100);
            if r < 55 {
                board.place(p, Cell::Stone(Color::Black));
            } else if r < 63 {
                board.place(p, Cell::Stone(Color::White));
            } else if r < 65 {
                board.place(p, Cell::Blocked);
            }
        }
    }
    board
}

/// A random legal Renju game: moves near the existing stones, Black never on a forbidden
/// point, stopped after `moves` moves or when a move wins (the winning move is kept).
fn renju_game(rng: &mut Rng, width: usize, height: usize, moves: usize) -> Board {
    let mut board = Board::new(width, height).unwrap();
    board.place(board.center(), Cell::Stone(Color::Black));
    let mut color = Color::White;
    for _ in 1..moves {
        // Empty squares within two of a stone.
        let near: Vec<Pos> = board
            .empty_positions()
            .filter(|&p| common::games::near_stones(&board, p, 2))
            .collect();
        let mut chosen = None;
        for _ in 0..20 {
            if near.is_empty() {
                break;
            }
            let p = near[rng.below(near.len())];
            if color == Color::Black && renju_foul(&mut board, p).is_some() {
                continue;
            }
            chosen = Some(p);
            break;
        }
        let Some(p) = chosen else {
            break;
        };
        let wins = is_winning_move(&board, p, color, Rule::Renju);
        board.place(p, Cell::Stone(color));
        if wins {
            break;
        }
        color = color.opponent();
    }
    board
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

/// Fewer positions in debug builds (the default `cargo test` profile here is optimised, so
/// the difference is small); `cargo test --release` runs them all.
fn scaled(n: usize) -> usize {
    if cfg!(debug_assertions) {
        n / 2
    } else {
        n
    }
}

const SIZES: [(usize, usize); 8] = [
    (15, 15),
    (20, 20),
    (9, 13),
    (13, 9),
    (32, 5),
    (5, 5),
    (19, 32),
    (32, 32),
];

#[test]
fn scattered_positions() {
    let started = Instant::now();
    let mut stats = Stats::default();
    let mut rng = Rng::new(0x5EED_0001);
    for i in 0..scaled(3000) {
        let (w, h) = SIZES[i % SIZES.len()];
        let stones = if (w, h) == (5, 5) {
            rng.between(6, 16) as usize
        } else {
            rng.between(20, 90) as usize
        };
        let black_percent = [50, 60, 75][i % 3];
        let board = scattered(&mut rng, w, h, stones, black_percent);
        check_position(&board, &format!("scattered #{i}"), &mut stats);
    }
    stats.report("scattered_positions", started);
}

#[test]
fn line_segment_positions() {
    let started = Instant::now();
    let mut stats = Stats::default();
    let mut rng = Rng::new(0x5EED_0002);
    for i in 0..scaled(4000) {
        let (w, h) = SIZES[i % SIZES.len()];
        let board = segments(&mut rng, w, h);
        check_position(&board, &format!("segments #{i}"), &mut stats);
    }
    stats.report("line_segment_positions", started);
}

#[test]
fn random_renju_games() {
    let started = Instant::now();
    let mut stats = Stats::default();
    let mut rng = Rng::new(0x5EED_0003);
    for i in 0..scaled(2000) {
        let (w, h) = SIZES[i % SIZES.len()];
        let moves = if (w, h) == (5, 5) {
            rng.between(5, 18) as usize
        } else {
            rng.between(20, 90) as usize
        };
        let board = renju_game(&mut rng, w, h, moves);
        check_position(&board, &format!("renju game #{i}"), &mut stats);
    }
    stats.report("random_renju_games", started);
}
