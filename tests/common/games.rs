//! Random games with a tactical bias, the source of the generated soundness sets.

use super::Rng;
use rensa::board::{Board, Cell, Color, Pos};
use rensa::rules::{is_forbidden, is_winning_move, Rule};

/// Board side of the generated games.
pub const SIZE: usize = 15;

pub fn near_stones(board: &Board, p: Pos, reach: isize) -> bool {
    (-reach..=reach).any(|dy| {
        (-reach..=reach).any(|dx| {
            board
                .pos_at(p.x() as isize + dx, p.y() as isize + dy)
                .is_some_and(|q| matches!(board.cell(q), Cell::Stone(_)))
        })
    })
}

/// How much a stone of `color` on `p` extends its lines: for each direction, the most own
/// stones in a five-square window through `p` free of opponent stones; squared and summed.
fn line_score(board: &Board, p: Pos, color: Color) -> usize {
    let mut score = 0;
    for (dx, dy) in [(1isize, 0isize), (0, 1), (1, 1), (1, -1)] {
        let mut best = 0;
        for start in -4..=0isize {
            let mut own = 0;
            let mut open = true;
            for k in start..start + 5 {
                match board.pos_at(p.x() as isize + k * dx, p.y() as isize + k * dy) {
                    None => open = false,
                    Some(q) => match board.cell(q) {
                        Cell::Stone(c) if c == color => own += 1,
                        Cell::Empty => {}
                        _ => open = false,
                    },
                }
            }
            if open {
                best = best.max(own);
            }
        }
        score += best * best;
    }
    score
}

/// The policy's choice among `candidates`: usually the best-extending of a few random ones.
fn pick_move(rng: &mut Rng, board: &Board, candidates: &[Pos], color: Color) -> Pos {
    let mut best = candidates[rng.below(candidates.len())];
    if rng.percent(35) {
        return best;
    }
    let mut best_score = line_score(board, best, color);
    for _ in 0..8 {
        let q = candidates[rng.below(candidates.len())];
        let s = line_score(board, q, color);
        if s > best_score {
            (best, best_score) = (q, s);
        }
    }
    best
}

/// How many squares would win for `color` after it plays `p` (only squares on the lines
/// through `p` can be new).
fn fives_after(board: &mut Board, p: Pos, color: Color, rule: Rule) -> usize {
    board.place(p, Cell::Stone(color));
    let mut count = 0;
    for (dx, dy) in [(1isize, 0isize), (0, 1), (1, 1), (1, -1)] {
        for k in (-5..=5isize).filter(|&k| k != 0) {
            if let Some(q) = board.pos_at(p.x() as isize + k * dx, p.y() as isize + k * dy) {
                if board.is_empty(q) && is_winning_move(board, q, color, rule) {
                    count += 1;
                }
            }
        }
    }
    board.remove(p);
    count
}

/// A random game of about `moves` moves under `rule` with a tactical bias. Nobody ever
/// makes a five or an open or double four (such moves are skipped), a five threat is always
/// blocked and Black never plays a Renju foul. Returns the board and the
/// side to move.
pub fn tactical_game(rng: &mut Rng, rule: Rule, moves: usize) -> (Board, Color) {
    let mut board = Board::new(SIZE, SIZE).unwrap();
    let c = SIZE as i64 / 2;
    let first = Pos::new(
        rng.between(c - 2, c + 2) as usize,
        rng.between(c - 2, c + 2) as usize,
    );
    board.place(first, Cell::Stone(Color::Black));
    let mut color = Color::White;
    for _ in 1..moves {
        let mut candidates: Vec<Pos> = board
            .empty_positions()
            .filter(|&p| near_stones(&board, p, 2))
            .collect();
        // Never a five; never a foul.
        candidates.retain(|&p| !is_winning_move(&board, p, color, rule));
        let mut scratch = board.clone();
        candidates.retain(|&p| !is_forbidden(&mut scratch, p, color, rule));
        if candidates.is_empty() {
            break;
        }
        // Block the opponent's five; stop when there are two.
        let their_fives: Vec<Pos> = candidates
            .iter()
            .copied()
            .filter(|&p| is_winning_move(&board, p, color.opponent(), rule))
            .collect();
        if their_fives.len() >= 2 {
            break;
        }
        let p = if let Some(&block) = their_fives.first() {
            block
        } else {
            // A move that leaves at most one five to block (no open or double four), so the
            // game goes on with threats on the board.
            let mut chosen = None;
            for _ in 0..12 {
                let q = pick_move(rng, &board, &candidates, color);
                if fives_after(&mut board, q, color, rule) <= 1 {
                    chosen = Some(q);
                    break;
                }
            }
            match chosen {
                Some(q) => q,
                None => break,
            }
        };
        board.place(p, Cell::Stone(color));
        color = color.opponent();
    }
    (board, color)
}
