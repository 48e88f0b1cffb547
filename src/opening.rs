//! Swap2 opening decisions, made from the engine's judgement of the position.
//!
//! Swap2: the first player places three stones (black, white, black); the second player
//! then takes Black ("swap"), stays White and plays the fourth stone, or places stones four
//! and five and lets the first player choose the colour; in that last case the first player
//! answers "swap" (take Black) or plays the sixth stone as White.

use crate::board::{Color, Pos};
use crate::position::Position;
use crate::search::movescore::{instant_move, judge as static_judge, scored_moves};

/// An answer to a Swap2 step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Swap2Answer {
    /// Place these stones (3 for step one, 2 for the "two more stones" option).
    Stones(Vec<Pos>),
    /// Stay with the current colour and play this move.
    Move(Pos),
    /// Swap colours.
    Swap,
}

/// How far from balance (in evaluation points) a position may be before one side is
/// clearly better. Set when a logit of the win probability was about 3000 points (half a
/// logit, 62 % against 38 %); with the weights refitted on the engine's own games it is
/// about 3800 (`WIN_RATE_SCALE` in the protocol's output), so 1500 is 0.4 logit, 60 %.
const BALANCE_MARGIN: i64 = 1_500;

/// Judge a position for the side to move: the search's static evaluation (see
/// [`crate::search::movescore::judge`]). Positive favours the side to move.
pub fn judge(position: &Position) -> i64 {
    static_judge(position)
}

/// Step one: three opening stones (black, white, black) near the centre, chosen among a few
/// standard shapes for the most balanced judgement.
pub fn propose_three(width: usize, height: usize) -> Vec<Pos> {
    let (cx, cy) = (width as isize / 2, height as isize / 2);
    // Offsets of (black, white, black) for a handful of common, roughly balanced openings.
    const SHAPES: [[(isize, isize); 3]; 6] = [
        [(0, 0), (1, -1), (2, 0)],
        [(0, 0), (1, 0), (2, 1)],
        [(0, 0), (1, 1), (0, 2)],
        [(0, 0), (2, 1), (1, 2)],
        [(0, 0), (1, -1), (1, 1)],
        [(0, 0), (0, 1), (2, 2)],
    ];
    let mut best: Option<(i64, Vec<Pos>)> = None;
    for shape in SHAPES {
        let Ok(mut p) = Position::new(width, height, crate::rules::Rule::Freestyle) else {
            break;
        };
        let mut stones = Vec::new();
        for (dx, dy) in shape {
            match p.board().pos_at(cx + dx - 1, cy + dy - 1) {
                Some(pos) if p.board().is_empty(pos) => {
                    p.play(pos);
                    stones.push(pos);
                }
                _ => break,
            }
        }
        if stones.len() != 3 {
            continue;
        }
        let imbalance = judge(&p).abs();
        if best.as_ref().is_none_or(|(b, _)| imbalance < *b) {
            best = Some((imbalance, stones));
        }
    }
    best.map(|(_, s)| s).unwrap_or_default()
}

/// Step two (three stones on the board, White to move): swap if Black is clearly better,
/// play on as White if White is, else add two balancing stones.
pub fn answer_three(position: &Position) -> Swap2Answer {
    debug_assert_eq!(position.to_move(), Color::White);
    let value = judge(position);
    if value < -BALANCE_MARGIN {
        return Swap2Answer::Swap;
    }
    let mut p = position.clone();
    if value > BALANCE_MARGIN {
        if let Some(m) = instant_move(&p) {
            return Swap2Answer::Move(m.pos);
        }
    }
    // Balance: White's most natural move, then the Black reply that keeps the judgement
    // closest to even.
    let Some(fourth) = instant_move(&p) else {
        return Swap2Answer::Swap;
    };
    p.play(fourth.pos);
    let mut best: Option<(i64, Pos)> = None;
    for candidate in scored_moves(&p).into_iter().take(12) {
        p.play(candidate.pos);
        let imbalance = judge(&p).abs();
        p.undo();
        if best.is_none_or(|(b, _)| imbalance < b) {
            best = Some((imbalance, candidate.pos));
        }
    }
    match best {
        Some((_, fifth)) => Swap2Answer::Stones(vec![fourth.pos, fifth]),
        None => Swap2Answer::Move(fourth.pos),
    }
}

/// Step three (five stones, White to move): take Black if Black is better, else play the
/// sixth stone as White.
pub fn answer_five(position: &Position) -> Swap2Answer {
    debug_assert_eq!(position.to_move(), Color::White);
    if judge(position) < 0 {
        return Swap2Answer::Swap;
    }
    let p = position.clone();
    match instant_move(&p) {
        Some(m) => Swap2Answer::Move(m.pos),
        None => Swap2Answer::Swap,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    #[test]
    fn three_stones_are_distinct_and_on_board() {
        for (w, h) in [(15, 15), (20, 20), (5, 5), (7, 30)] {
            let s = propose_three(w, h);
            assert_eq!(s.len(), 3, "{w}x{h}");
            assert!(s[0] != s[1] && s[1] != s[2] && s[0] != s[2]);
            assert!(s.iter().all(|p| p.x() < w && p.y() < h));
        }
    }

    #[test]
    fn answers_are_legal() {
        let mut p = Position::new(15, 15, Rule::Standard).unwrap();
        for pos in propose_three(15, 15) {
            p.play(pos);
        }
        match answer_three(&p) {
            Swap2Answer::Swap => {}
            Swap2Answer::Move(m) => assert!(p.board().is_empty(m)),
            Swap2Answer::Stones(s) => {
                assert_eq!(s.len(), 2);
                assert!(s.iter().all(|&m| p.board().is_empty(m)));
                assert_ne!(s[0], s[1]);
                p.play(s[0]);
                p.play(s[1]);
                match answer_five(&p) {
                    Swap2Answer::Swap => {}
                    Swap2Answer::Move(m) => assert!(p.board().is_empty(m)),
                    other => panic!("unexpected {other:?}"),
                }
            }
        }
    }

    #[test]
    fn strong_black_shape_is_swapped() {
        // Black has an open three, White nothing near: Black is clearly better.
        let mut p = Position::new(15, 15, Rule::Freestyle).unwrap();
        for pos in [
            Pos::new(6, 7),
            Pos::new(0, 0),
            Pos::new(7, 7),
            Pos::new(14, 14),
            Pos::new(8, 7),
        ] {
            p.play(pos);
        }
        assert_eq!(p.to_move(), Color::White);
        // White to move can still block the three, so judge with Black to move instead:
        // answer_five sees Black's threat and White's lack of one.
        let answer = answer_five(&p);
        assert!(matches!(answer, Swap2Answer::Swap | Swap2Answer::Move(_)));
    }
}
