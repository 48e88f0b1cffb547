//! A one-ply threat heuristic: win now, block the opponent's five, make an unstoppable four
//! or a four-three, stop the opponent's open threes and forks, otherwise prefer own threats
//! and room to grow.
//!
//! It is instant, so it also serves as the fallback move when time is nearly gone, and as a
//! move-ordering hint for deeper searches.

use super::{Limits, SearchInfo, SearchOutcome, Searcher};
use crate::board::geometry::near_stones;
use crate::board::{Color, Pos};
use crate::position::Position;
use crate::rules::{self, Rule};
use crate::shape::{move_shapes, MoveShapes};
use std::sync::atomic::AtomicBool;

/// Score for completing a win.
pub const SCORE_FIVE: i64 = 100_000_000;
/// Score for blocking the opponent's five.
const SCORE_BLOCK_FIVE: i64 = 50_000_000;

/// A candidate move with its heuristic score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoredMove {
    /// The square.
    pub pos: Pos,
    /// Higher is better.
    pub score: i64,
}

/// Value of the shapes a move makes for the side that plays it.
fn attack_value(s: &MoveShapes) -> i64 {
    if s.is_five() {
        return SCORE_FIVE;
    }
    if s.is_unstoppable_four() {
        return 1_000_000;
    }
    if s.any_four() && s.open_threes > 0 {
        return 500_000;
    }
    if s.open_threes >= 2 {
        return 100_000;
    }
    let mut v = 0;
    v += 3_000 * i64::from(s.fours);
    v += 2_500 * i64::from(s.open_threes);
    v += 300 * i64::from(s.closed_threes);
    v += i64::from(s.potential);
    v
}

/// Value of taking a square away from the opponent.
fn defence_value(s: &MoveShapes) -> i64 {
    if s.is_five() {
        return SCORE_BLOCK_FIVE;
    }
    if s.is_unstoppable_four() {
        return 400_000;
    }
    if s.any_four() && s.open_threes > 0 {
        return 200_000;
    }
    if s.open_threes >= 2 {
        return 80_000;
    }
    let mut v = 0;
    v += 800 * i64::from(s.fours);
    v += 1_500 * i64::from(s.open_threes);
    v += 150 * i64::from(s.closed_threes);
    v += i64::from(s.potential) * 3 / 4;
    v
}

/// All candidate moves of the side to move, best first (ties broken by square, so the order
/// is the same on every platform). Under Renju, Black's forbidden points are left out unless
/// nothing else is left.
pub fn score_moves(position: &mut Position) -> Vec<ScoredMove> {
    let me = position.to_move();
    let opp = me.opponent();
    let rule = position.rule();
    let mut candidates = near_stones(position.board(), 2);
    if rule.has_fouls_for(me) {
        let board = position.board_mut();
        let allowed: Vec<Pos> = candidates
            .iter()
            .copied()
            .filter(|&p| rules::renju_foul(board, p).is_none())
            .collect();
        candidates = if !allowed.is_empty() {
            allowed
        } else {
            // Everything near the stones is forbidden: look at the whole board.
            let all: Vec<Pos> = board.empty_positions().collect();
            let free: Vec<Pos> = all
                .iter()
                .copied()
                .filter(|&p| rules::renju_foul(board, p).is_none())
                .collect();
            if free.is_empty() {
                all
            } else {
                free
            }
        };
    }
    let mut scored: Vec<ScoredMove> = candidates
        .into_iter()
        .map(|pos| ScoredMove {
            pos,
            score: score_square(position, pos, me, opp, rule),
        })
        .collect();
    scored.sort_by(|a, b| b.score.cmp(&a.score).then(a.pos.cmp(&b.pos)));
    scored
}

fn score_square(position: &mut Position, pos: Pos, me: Color, opp: Color, rule: Rule) -> i64 {
    let attack = attack_value(&move_shapes(position.board(), pos, me, rule));
    let opp_shapes = move_shapes(position.board(), pos, opp, rule);
    // The opponent cannot use a square that is forbidden for them (unless it wins).
    let defence = if rule.has_fouls_for(opp)
        && !opp_shapes.is_five()
        && rules::renju_foul(position.board_mut(), pos).is_some()
    {
        0
    } else {
        defence_value(&opp_shapes)
    };
    attack + defence
}

/// The heuristic's move for the side to move: instant, always legal when a legal move exists.
/// Returns None only on a full board.
pub fn instant_move(position: &mut Position) -> Option<ScoredMove> {
    score_moves(position).into_iter().next().or_else(|| {
        position
            .board()
            .empty_positions()
            .next()
            .map(|pos| ScoredMove { pos, score: 0 })
    })
}

/// The heuristic as a [`Searcher`]: depth 1, no tree.
#[derive(Default)]
pub struct HeuristicSearcher;

impl Searcher for HeuristicSearcher {
    fn search(
        &mut self,
        position: &Position,
        limits: &Limits,
        _stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> SearchOutcome {
        let mut scratch = position.clone();
        let scored = score_moves(&mut scratch);
        let nodes = scored.len() as u64;
        let best = instant_move(&mut scratch).expect("search needs an empty square");
        let score = (best.score / 100).clamp(-30_000, 30_000) as i32;
        report(&SearchInfo {
            depth: 1,
            seldepth: 1,
            pv_index: 0,
            pv_count: 1,
            line_nodes: nodes,
            score,
            nodes,
            elapsed: limits.elapsed(),
            pv: vec![best.pos],
        });
        SearchOutcome {
            best: best.pos,
            score,
            depth: 1,
            nodes,
            pv: vec![best.pos],
            blocks_ignored: false,
            lines: vec![(best.pos, score)],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(diagram: &str, to_move: Color, rule: Rule) -> Position {
        Position::from_ascii(diagram, to_move, rule).unwrap()
    }

    fn best(diagram: &str, to_move: Color, rule: Rule) -> (usize, usize) {
        let mut p = position(diagram, to_move, rule);
        let m = instant_move(&mut p).unwrap().pos;
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
        assert!(m == (2, 2) || m == (6, 2), "{m:?}");
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
}
