//! Candidate moves: empty squares near the stones already on the board.

use crate::board::{Board, Cell, Pos, CELL_SLOTS};

/// Empty squares within `reach` (Chebyshev distance) of a stone, in row-major order.
/// On an empty board: the centre.
pub fn near_stones(board: &Board, reach: usize) -> Vec<Pos> {
    let mut mark = [false; CELL_SLOTS];
    let mut any = false;
    for p in board.positions() {
        if matches!(board.cell(p), Cell::Stone(_)) {
            any = true;
            let (x, y) = (p.x(), p.y());
            let x0 = x.saturating_sub(reach);
            let y0 = y.saturating_sub(reach);
            let x1 = (x + reach).min(board.width() - 1);
            let y1 = (y + reach).min(board.height() - 1);
            for yy in y0..=y1 {
                for xx in x0..=x1 {
                    mark[Pos::new(xx, yy).index()] = true;
                }
            }
        }
    }
    if !any {
        let c = board.center();
        return if board.is_empty(c) {
            vec![c]
        } else {
            board.empty_positions().collect()
        };
    }
    board
        .empty_positions()
        .filter(|p| mark[p.index()])
        .collect()
}
