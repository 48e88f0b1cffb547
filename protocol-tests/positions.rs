//! Hand-made positions shared by several sessions. Coordinates are Gomocup
//! coordinates `(x, y)`, zero-based from the top-left; `own` stones are the
//! engine's (field 1), `opp` the opponent's (field 2). Each comment says who
//! is Black according to the counting rule (own == opp → engine Black,
//! opp == own + 1 → engine White).

#![allow(dead_code)]

use crate::harness::{stones, stones_opp_first, Mv};

pub type Stones = Vec<(u32, u32, u8)>;

/// 15x15, 3 + 3 stones, engine Black to move, no threats on either side.
/// B(7,7) W(8,7) B(8,8) W(6,6) B(7,9) W(9,9).
pub fn quiet15() -> Stones {
    stones(&[(7, 7), (8, 8), (7, 9)], &[(8, 7), (6, 6), (9, 9)])
}

/// The same shape on 20x20, shifted by +3. No immediate threats, but the
/// engine may find a deep forced win here (Black to move in freestyle), so
/// it is not used where the search must run long.
pub fn quiet20() -> Stones {
    stones(
        &[(10, 10), (11, 11), (10, 12)],
        &[(11, 10), (9, 9), (12, 12)],
    )
}

/// 20x20 freestyle, engine White after three opening stones: B(10,10)
/// W(11,11) B(10,12). Far from any forced result, so a search with a long
/// turn limit really runs long (used for END/STOP during a search).
pub fn opening20_white() -> Stones {
    stones_opp_first(&[(11, 11)], &[(10, 10), (10, 12)])
}

/// 15x15, engine White to move (opp == own + 1), no threats.
pub fn quiet15_white() -> Stones {
    stones_opp_first(&[(8, 7), (6, 6), (9, 9)], &[(7, 7), (8, 8), (7, 9), (5, 9)])
}

/// 15x15, engine Black (5 + 5). The engine has an open four (5..=8, 7) and
/// wins at (4,7) or (9,7) (both exact fives). The opponent also has a four
/// (3..=6, 11), blocked at (2,11), open at (7,11): winning beats blocking.
pub fn win_open_four() -> (Stones, Vec<Mv>) {
    (
        stones(
            &[(5, 7), (6, 7), (7, 7), (8, 7), (2, 11)],
            &[(3, 11), (4, 11), (5, 11), (6, 11), (12, 2)],
        ),
        vec![(4, 7), (9, 7)],
    )
}

/// 15x15, engine White (3 + 4). The opponent has a four (3..=6, 11), blocked
/// at (2,11) by the engine; the only defence is (7,11).
pub fn block_four() -> (Stones, Mv) {
    (
        stones_opp_first(
            &[(2, 11), (10, 3), (12, 4)],
            &[(3, 11), (4, 11), (5, 11), (6, 11)],
        ),
        (7, 11),
    )
}

/// 15x15, engine White (3 + 4). The opponent has a split four
/// (3,11) (4,11) _ (6,11) (7,11); the only defence is (5,11).
pub fn block_split_four() -> (Stones, Mv) {
    (
        stones_opp_first(
            &[(9, 3), (11, 4), (10, 9)],
            &[(3, 11), (4, 11), (6, 11), (7, 11)],
        ),
        (5, 11),
    )
}

/// 15x15, engine Black (6 + 6).
/// Engine: (3,7) (4,7) (5,7) (6,7) _ (8,7) with the opponent at (2,7), so
/// (7,7) makes six in a row: a win in freestyle, not a win under exact five,
/// and an overline (forbidden) for Black under renju. (7,7) is the only
/// forbidden point of the position. The opponent has a four (3..=6, 11),
/// blocked at (2,11), open at (7,11).
/// Expected: rule 0 → (7,7); rule 1 → (7,11); rule 4 → (7,11), never (7,7).
pub fn overline_or_block() -> Stones {
    stones(
        &[(3, 7), (4, 7), (5, 7), (6, 7), (8, 7), (2, 11)],
        &[(2, 7), (3, 11), (4, 11), (5, 11), (6, 11), (12, 2)],
    )
}

/// 15x15, engine White (6 + 7) — same shape as `overline_or_block` with
/// colours swapped and one more black stone: the engine's (7,7) makes six,
/// which wins for White under renju and in freestyle.
pub fn white_overline_wins() -> Stones {
    stones_opp_first(
        &[(3, 7), (4, 7), (5, 7), (6, 7), (8, 7), (2, 11)],
        &[
            (2, 7),
            (3, 11),
            (4, 11),
            (5, 11),
            (6, 11),
            (10, 2),
            (12, 12),
        ],
    )
}

/// 15x15, engine White (5 + 6). The engine's (7,7) makes an exact five
/// (3..=7, 7) with opponent stones at both ends (2,7) and (8,7): a win in
/// freestyle and under exact five, but not under caro (8 and 9). The opponent
/// has a four (3..=6, 11) blocked by the engine at (2,11) only, so under caro
/// it wins at (7,11) unless the engine blocks there.
/// Expected: rules 0, 1 → (7,7); rules 8, 9 → (7,11).
pub fn caro_blocked_five() -> Stones {
    stones_opp_first(
        &[(3, 7), (4, 7), (5, 7), (6, 7), (2, 11)],
        &[(2, 7), (8, 7), (3, 11), (4, 11), (5, 11), (6, 11)],
    )
}

/// 15x15 renju, Black stones (7,6) (6,7) (8,7) (7,8): (7,7) is a double
/// three (renju-note/quintet `test_double_three`, MIT). Used with four
/// White stones in the corners so that the counts make Black the side to
/// move when the black stones are the engine's.
pub const DIAMOND: [Mv; 4] = [(7, 6), (6, 7), (8, 7), (7, 8)];
pub const CORNERS: [Mv; 4] = [(0, 0), (14, 0), (0, 14), (14, 14)];
