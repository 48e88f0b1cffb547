//! Search scores: centi-stones for the side to move, with proven wins and losses far
//! outside the evaluation's range. A win in `n` plies scores `WIN - n`, a loss `-(WIN - n)`.

/// Score of a win on the board.
pub const WIN: i32 = 20_000;
/// Scores beyond this are proven wins or losses.
pub const WIN_BOUND: i32 = WIN - 1_000;
/// Above every score: the open window's bounds.
pub const INFINITY: i32 = WIN + 1;

/// Convert a score to table form (win distances from this node, not from the root).
pub fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// Convert a score from table form back to distances from the root.
pub fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// True for a proven win or loss score.
pub fn is_decisive(score: i32) -> bool {
    score.abs() >= WIN_BOUND
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_form_counts_win_distance_from_the_node() {
        let win_in_5_from_root = WIN - 5;
        let stored = to_tt(win_in_5_from_root, 3);
        assert_eq!(stored, WIN - 2);
        assert_eq!(from_tt(stored, 3), win_in_5_from_root);
        assert_eq!(from_tt(to_tt(-(WIN - 7), 4), 4), -(WIN - 7));
        assert_eq!(to_tt(150, 9), 150);
        assert!(is_decisive(WIN_BOUND) && is_decisive(-WIN_BOUND) && !is_decisive(WIN_BOUND - 1));
    }
}
