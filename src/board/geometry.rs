//! Board geometry: which squares lie near which, as the search and the solvers ask it.
//!
//! Squares near the stones (candidate moves), the empty squares along a square's four lines,
//! whether two squares share a line, and the bit-mask helpers the line code builds on. It
//! works on the board's line masks and knows nothing of rules or patterns.

use super::{Board, Cell, Color, Direction, Pos, CELL_SLOTS, MAX_SIZE};

/// Bits `bit - reach ..= bit + reach` of a line mask, clipped to 0..32.
#[inline]
pub fn window_mask(bit: u32, reach: u32) -> u32 {
    let lo = bit.saturating_sub(reach);
    let hi = (bit + reach).min(31);
    let width = hi - lo + 1;
    let ones = if width >= 32 {
        u32::MAX
    } else {
        (1u32 << width) - 1
    };
    ones << lo
}

/// True when `bits` has at least `n` bits set. For the small counts the line code asks
/// about, clearing the lowest bit `n - 1` times is cheaper than `count_ones`, which the
/// baseline x86-64 target (no POPCNT instruction) computes in software.
#[inline]
pub fn at_least(mut bits: u32, n: u32) -> bool {
    for _ in 1..n {
        bits &= bits.wrapping_sub(1);
    }
    n == 0 || bits != 0
}

/// Squares within two cells (Chebyshev) of any stone, as row masks (bit = x); on an empty
/// board, the centre.
pub fn candidate_rows(board: &Board) -> [u32; MAX_SIZE] {
    let h = board.height();
    let width_mask = if board.width() >= 32 {
        u32::MAX
    } else {
        (1u32 << board.width()) - 1
    };
    let mut dilated = [0u32; MAX_SIZE];
    for (y, d) in dilated.iter_mut().enumerate().take(h) {
        let occ = board.line_stones(Color::Black, Direction::Horizontal, y)
            | board.line_stones(Color::White, Direction::Horizontal, y);
        *d = (occ | occ << 1 | occ << 2 | occ >> 1 | occ >> 2) & width_mask;
    }
    let mut rows = [0u32; MAX_SIZE];
    if board.stone_count() == 0 {
        let c = board.center();
        rows[c.y()] = 1 << c.x();
        return rows;
    }
    for (y, row) in rows.iter_mut().enumerate().take(h) {
        let near = dilated[y.saturating_sub(2)..=(y + 2).min(h - 1)]
            .iter()
            .fold(0, |acc, d| acc | d);
        *row = near & board.line_empty(Direction::Horizontal, y);
    }
    rows
}

/// The squares whose bits are set in `rows` (bit x of row y is the square (x, y)).
pub fn row_squares(rows: &[u32], height: usize) -> impl Iterator<Item = Pos> + '_ {
    rows.iter().take(height).enumerate().flat_map(|(y, &row)| {
        let mut bits = row;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let x = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some(Pos::new(x, y))
        })
    })
}

/// Are `p` and `q` on one of the lines through `p` picked by `lines` (bit `i` for
/// `Direction::ALL[i]`), at most `reach` cells apart? (`p` itself counts.)
pub fn aligned_along(p: Pos, q: Pos, lines: u8, reach: usize) -> bool {
    let dx = q.x() as isize - p.x() as isize;
    let dy = q.y() as isize - p.y() as isize;
    if dx.unsigned_abs().max(dy.unsigned_abs()) > reach {
        return false;
    }
    let direction = if dx == 0 && dy == 0 {
        return true;
    } else if dy == 0 {
        Direction::Horizontal
    } else if dx == 0 {
        Direction::Vertical
    } else if dx == dy {
        Direction::Diagonal
    } else if dx == -dy {
        Direction::AntiDiagonal
    } else {
        return false;
    };
    lines & (1 << direction as u8) != 0
}

/// Empty squares within four cells of `pos` along its four lines (where a four through
/// `pos` can be completed).
pub fn line_neighbours(board: &Board, pos: Pos) -> arrayvec::ArrayVec<Pos, 32> {
    Direction::ALL
        .into_iter()
        .flat_map(|dir| line_squares_within(board, pos, dir, 4))
        .collect()
}

/// Empty squares up to `reach` cells from `pos` along its line in `dir` (`pos` too, if
/// empty).
pub fn line_squares_within(
    board: &Board,
    pos: Pos,
    dir: Direction,
    reach: u32,
) -> impl Iterator<Item = Pos> + '_ {
    let r = board.line_ref(pos, dir);
    let mut empty = board.line_empty(dir, r.line) & window_mask(r.bit, reach);
    std::iter::from_fn(move || loop {
        if empty == 0 {
            return None;
        }
        let bit = empty.trailing_zeros();
        empty &= empty - 1;
        if let Some(q) = board.pos_on_line(dir, r.line, bit as i32) {
            return Some(q);
        }
    })
}

/// Empty squares up to `reach` cells from `pos` along its four lines (`pos` excluded).
///
/// The same squares as [`line_squares_within`] over the four directions, walked by
/// coordinates instead: chaining that one here measured 2 % fewer bench nodes per second
/// (`bench/nps-compare.sh`, median of 9 pairs 0.980), in the threat solver's defences.
pub fn line_squares(board: &Board, pos: Pos, reach: isize) -> Vec<Pos> {
    let mut out = Vec::new();
    for (dx, dy) in [(1isize, 0isize), (0, 1), (1, 1), (1, -1)] {
        for k in (-reach..=reach).filter(|&k| k != 0) {
            if let Some(q) = board.pos_at(pos.x() as isize + k * dx, pos.y() as isize + k * dy) {
                if board.is_empty(q) {
                    out.push(q);
                }
            }
        }
    }
    out
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_least_agrees_with_the_bit_count() {
        let mut x = 0x9e37_79b9u32;
        for i in 0..20_000u32 {
            // Sparse and dense masks alike (xorshift, thinned by a second draw).
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let bits = if i % 2 == 0 { x & x.rotate_left(7) } else { x };
            for n in 0..=33 {
                assert_eq!(at_least(bits, n), bits.count_ones() >= n, "{bits:#x} {n}");
            }
        }
        assert!(at_least(0, 0) && !at_least(0, 1) && at_least(u32::MAX, 32));
    }
}
