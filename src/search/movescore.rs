//! The engine's one move scorer outside the tree search: the node analysis of the search
//! itself ([`super::node::analyse`]), with the default evaluation and move ordering (the
//! learned ones where [`super::Evaluator::Auto`] plays them), and the forced moves first.
//!
//! It is instant (one pass over the candidate squares), so it gives the fallback move when
//! time is nearly gone, and the Swap2 decisions judge positions by the same static
//! evaluation the search uses.

use super::board::SearchBoard;
use super::node::{analyse, NodeAnalysis};
use super::{Evaluator, MoveOrdering};
use crate::board::Pos;
use crate::pattern::{PatternTables, Threat};
use crate::position::Position;

/// Score of completing a five.
pub const SCORE_FIVE: i64 = 1_000_000_000;
/// Score of blocking the opponent's five.
const SCORE_BLOCK_FIVE: i64 = 500_000_000;
/// Score of making an open four (or a double four).
const SCORE_OPEN_FOUR: i64 = 100_000_000;

/// Scores of the winning combinations a move makes (a four-three, a double three), and
/// four fifths of them for taking the square from the opponent: above any ordering score,
/// since one ply cannot see what they threaten (the tree search can).
fn combination_tier(t: Threat) -> i64 {
    match t {
        Threat::FourThree => 50_000_000,
        Threat::DoubleThree => 10_000_000,
        _ => 0,
    }
}

/// A move with its score (higher is better).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoredMove {
    /// The square.
    pub pos: Pos,
    /// Higher is better.
    pub score: i64,
}

/// The node analysis of `position` for the side to move, with the default evaluation and
/// move ordering.
pub fn analysis(position: &Position) -> NodeAnalysis {
    let rule = position.rule();
    let weights = Evaluator::default().weights_for(rule);
    let mut board =
        SearchBoard::with_weights(position.board().clone(), PatternTables::new(rule), weights);
    board.set_learned_ordering(MoveOrdering::default() == MoveOrdering::Learned);
    let mut a = NodeAnalysis::default();
    analyse(&mut board, position.to_move(), rule, &mut a);
    a
}

/// The side to move's candidate moves, best first (ties by square, the same on every
/// platform): its five, the block of the opponent's five, its open four, then the move
/// ordering's scores; against an open three only the moves that stop it or make a four.
/// Squares forbidden to the side to move are left out. When nothing near the stones is
/// legal (an empty board, or every nearby square a foul), every legal square, scored 0.
pub fn scored_moves(position: &Position) -> Vec<ScoredMove> {
    let a = analysis(position);
    let mut out: Vec<ScoredMove> = a
        .moves
        .iter()
        .filter(|m| m.score != i32::MIN)
        .filter(|m| {
            !a.their_open_four_moves
                || a.their_fives.contains(&m.pos)
                || m.theirs.f4 + m.theirs.b4 > 0
                || m.mine.f4 + m.mine.b4 > 0
        })
        .map(|m| {
            let tier = if a.my_five == Some(m.pos) {
                SCORE_FIVE
            } else if a.their_fives.contains(&m.pos) {
                SCORE_BLOCK_FIVE
            } else if a.my_open_four == Some(m.pos) {
                SCORE_OPEN_FOUR
            } else {
                // A square forbidden to the opponent (renju) is no threat of theirs.
                let theirs = if a.fouls.contains(&m.pos) {
                    0
                } else {
                    combination_tier(m.their_threat())
                };
                combination_tier(m.my_threat()) + theirs * 4 / 5
            };
            ScoredMove {
                pos: m.pos,
                score: tier + i64::from(m.score),
            }
        })
        .collect();
    if out.is_empty() {
        let mut scratch = position.clone();
        let (w, h) = (position.board().width(), position.board().height());
        let centre = Pos::new(w / 2, h / 2);
        let mut squares: Vec<Pos> = position.board().empty_positions().collect();
        // Nearest the centre first.
        squares.sort_by_key(|p| {
            let (dx, dy) = (p.x().abs_diff(centre.x()), p.y().abs_diff(centre.y()));
            (dx.max(dy), dx + dy, *p)
        });
        out = squares
            .into_iter()
            .filter(|&p| scratch.is_legal(p))
            .map(|pos| ScoredMove { pos, score: 0 })
            .collect();
    }
    out.sort_by(|a, b| b.score.cmp(&a.score).then(a.pos.cmp(&b.pos)));
    out
}

/// The scorer's move for the side to move; None only when no square is legal.
pub fn instant_move(position: &Position) -> Option<ScoredMove> {
    scored_moves(position).into_iter().next()
}

/// The static evaluation of `position` for the side to move, in evaluation points (the
/// search's own: the learned evaluation where it plays by default); a five to make counts
/// as the evaluation's limit, the opponent's two fives as minus that.
pub fn judge(position: &Position) -> i64 {
    let a = analysis(position);
    let limit = i64::from(super::eval::EVAL_LIMIT);
    if a.my_five.is_some() || a.my_open_four.is_some() && a.their_fives.is_empty() {
        return limit;
    }
    if a.their_fives.len() >= 2 {
        return -limit;
    }
    i64::from(a.eval)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;
    use crate::rules::Rule;

    fn best(diagram: &str, to_move: Color, rule: Rule) -> (usize, usize) {
        let p = Position::from_ascii(diagram, to_move, rule).unwrap();
        let m = instant_move(&p).unwrap().pos;
        (m.x(), m.y())
    }

    #[test]
    fn wins_before_blocking() {
        let d = "...........
                 .XXXX......
                 ...........
                 .OOOO......
                 ...........
                 ...........";
        assert_eq!(best(d, Color::White, Rule::Freestyle).1, 3);
        assert_eq!(best(d, Color::Black, Rule::Freestyle).1, 1);
    }

    #[test]
    fn blocks_a_four() {
        let d = "...........
                 .XXXXO.....
                 ...........
                 ......O....
                 ...........
                 ...........";
        assert_eq!(best(d, Color::White, Rule::Freestyle), (0, 1));
    }

    #[test]
    fn stops_an_open_three() {
        let d = "...........
                 ...........
                 ...XXX.....
                 ...........
                 ......O....
                 ...........";
        let m = best(d, Color::White, Rule::Freestyle);
        assert!([(2, 2), (6, 2), (1, 2), (7, 2)].contains(&m), "{m:?}");
    }

    #[test]
    fn makes_open_four_from_own_three() {
        let d = "...........
                 ...........
                 ...OOO.....
                 ...........
                 ......X....
                 .......X...";
        let m = best(d, Color::White, Rule::Freestyle);
        assert!(m == (2, 2) || m == (6, 2), "{m:?}");
    }

    #[test]
    fn renju_black_avoids_forbidden_point() {
        // (7,7) would be a double three for Black.
        let d = "...............
                 ...............
                 ...............
                 ...............
                 ...............
                 ...............
                 .......X.......
                 ......X.X......
                 .......X.......
                 ...............
                 ...............
                 ...............
                 ...............
                 ...............
                 ..............O";
        let m = best(d, Color::Black, Rule::Renju);
        assert_ne!(m, (7, 7));
        let m = best(d, Color::Black, Rule::Freestyle);
        assert_eq!(m, (7, 7));
    }

    #[test]
    fn an_empty_board_gets_the_centre() {
        let p = Position::new(15, 15, Rule::Renju).unwrap();
        assert_eq!(instant_move(&p).unwrap().pos, Pos::new(7, 7));
    }

    #[test]
    fn judge_sees_who_is_better() {
        // Black to move with an open three of its own and nothing of White's near.
        let d = "...............
                 ...............
                 ...............
                 ...............
                 ...............
                 ...............
                 ...............
                 ......XXX......
                 ...............
                 ...............
                 ...............
                 ...............
                 ...............
                 ...............
                 O.............O";
        let black = Position::from_ascii(d, Color::Black, Rule::Freestyle).unwrap();
        let white = Position::from_ascii(d, Color::White, Rule::Freestyle).unwrap();
        assert!(judge(&black) > 0, "{}", judge(&black));
        assert!(judge(&white) < judge(&black));
    }
}
