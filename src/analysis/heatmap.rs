//! The heatmap: every legal square within distance 2 of a stone scored by a search.
//!
//! One multi-PV search asks for as many lines as there are such squares, so each of its
//! completed iterations scores every one of them with a full window; the last completed
//! iteration's scores are the heatmap. The root of the search has exactly these squares as
//! its moves (the node analysis takes every empty square within two of a stone and leaves
//! out Black's fouls under renju), but a budget may end the search before its first
//! iteration has reached them all: each square still unscored is then searched on its own,
//! the opponent to move after it, with a share of the budget. Normal play is untouched:
//! this module only calls the searcher.
//!
//! Under renju Black's forbidden squares are listed (all of them, whoever is to move);
//! with Black to move they are not moves and get no score.

use crate::board::geometry::{candidate_rows, row_squares};
use crate::board::{Color, Pos};
use crate::position::Position;
use crate::rules::{forbidden_points, Rule};
use crate::search::score::{WIN, WIN_BOUND};
use crate::search::tt::TranspositionTable;
use crate::search::{AlphaBetaSearcher, Limits, SearchInfo, Searcher};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Size of the transposition table the analysis searches with.
pub const TABLE_BYTES: usize = 64 << 20;

/// Nodes a square searched on its own gets at the least.
const MIN_SQUARE_NODES: u64 = 2_000;

/// Time a square searched on its own gets at the least.
const MIN_SQUARE_TIME: Duration = Duration::from_millis(5);

/// How much the search may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Stop after about this many nodes (deterministic: the search runs on one thread).
    Nodes(u64),
    /// Stop after about this long.
    Time(Duration),
}

impl Budget {
    /// The share of this budget for one of `parts` separate searches.
    fn share(self, parts: usize) -> Budget {
        let parts = parts.max(1);
        match self {
            Budget::Nodes(n) => Budget::Nodes((n / parts as u64).max(MIN_SQUARE_NODES)),
            Budget::Time(t) => Budget::Time((t / parts as u32).max(MIN_SQUARE_TIME)),
        }
    }

    /// Search limits for this budget, the clock starting now.
    fn limits(self, multi_pv: usize) -> Limits {
        let mut limits = match self {
            Budget::Nodes(n) => Limits {
                max_nodes: Some(n.max(1)),
                ..Limits::unbounded()
            },
            Budget::Time(t) => Limits::new(Instant::now(), t, t),
        };
        limits.multi_pv = multi_pv.max(1);
        limits
    }
}

/// One scored square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SquareScore {
    /// The square.
    pub pos: Pos,
    /// Score of playing there, for the side to move: centi-stones, or a proven win in `n`
    /// plies as `WIN - n` (a loss as `-(WIN - n)`; see [`crate::search::score`]).
    pub score: i32,
    /// The square was searched on its own (the multi-PV search did not reach it).
    pub alone: bool,
}

/// One of the best lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Score for the side to move.
    pub score: i32,
    /// The line, from the side to move's move (just that move when no line is known).
    pub moves: Vec<Pos>,
}

/// The searched heatmap of a position.
#[derive(Clone, Debug)]
pub struct Heatmap {
    /// The side the scores are for.
    pub to_move: Color,
    /// Every legal square within distance 2 of a stone (the centre on an empty board), in
    /// row-major order, with its score.
    pub squares: Vec<SquareScore>,
    /// Black's forbidden squares under renju (empty under other rules).
    pub forbidden: Vec<Pos>,
    /// The best lines, best first, at most as many as asked for.
    pub lines: Vec<Line>,
    /// Depth of the multi-PV search's last completed iteration (0 if none completed).
    pub depth: u32,
    /// Nodes searched, the squares searched alone included.
    pub nodes: u64,
    /// Time the whole analysis took.
    pub elapsed: Duration,
}

impl Heatmap {
    /// The score of `pos`, if it was scored.
    pub fn score_at(&self, pos: Pos) -> Option<i32> {
        self.squares.iter().find(|s| s.pos == pos).map(|s| s.score)
    }

    /// Whether `pos` is one of Black's forbidden squares.
    pub fn is_forbidden(&self, pos: Pos) -> bool {
        self.forbidden.contains(&pos)
    }
}

/// The empty squares within distance 2 (in both directions) of a stone, row-major; the
/// centre alone on a board without stones.
pub fn near_squares(position: &Position) -> Vec<Pos> {
    let board = position.board();
    let rows = candidate_rows(board);
    row_squares(&rows, board.height())
        .filter(|&p| board.is_empty(p))
        .collect()
}

/// Score every legal square within distance 2 of a stone for the side to move and find
/// the best `lines` lines, within `budget`.
pub fn compute(position: &Position, budget: Budget, lines: usize) -> Heatmap {
    let started = Instant::now();
    let to_move = position.to_move();
    let forbidden: Vec<Pos> = if position.rule() == Rule::Renju {
        forbidden_points(position.board())
            .into_iter()
            .map(|(p, _)| p)
            .collect()
    } else {
        Vec::new()
    };
    let black_fouls = position.rule().has_fouls_for(to_move);
    let legal: Vec<Pos> = near_squares(position)
        .into_iter()
        .filter(|p| !(black_fouls && forbidden.contains(p)))
        .collect();
    let mut heatmap = Heatmap {
        to_move,
        squares: Vec::new(),
        forbidden,
        lines: Vec::new(),
        depth: 0,
        nodes: 0,
        elapsed: Duration::ZERO,
    };
    if !legal.is_empty() {
        let table = Arc::new(TranspositionTable::new(TABLE_BYTES));
        let mut searcher = AlphaBetaSearcher::new(table, 1);
        let (mut found, depth, nodes) = search_all(&mut searcher, position, budget, legal.len());
        // A five is a win in one ply wherever it is: the multi-PV search knows only one
        // of them as such and scores the others as the moves they also are.
        for &pos in legal.iter().filter(|&&p| position.is_winning_move(p)) {
            found.insert(
                pos,
                Line {
                    score: WIN - 1,
                    moves: vec![pos],
                },
            );
        }
        heatmap.depth = depth;
        heatmap.nodes = nodes;
        let missing = legal.iter().filter(|p| !found.contains_key(p)).count();
        for &pos in &legal {
            let square = match found.get(&pos) {
                Some(line) => SquareScore {
                    pos,
                    score: line.score,
                    alone: false,
                },
                None => {
                    let (score, nodes) =
                        search_square(&mut searcher, position, pos, budget.share(missing));
                    heatmap.nodes += nodes;
                    SquareScore {
                        pos,
                        score,
                        alone: true,
                    }
                }
            };
            heatmap.squares.push(square);
        }
        heatmap.lines = best_lines(&heatmap.squares, &found, lines);
    }
    heatmap.elapsed = started.elapsed();
    heatmap
}

/// The multi-PV search over `count` root moves: the lines of its last completed
/// iteration by first move, that iteration's depth, and the nodes searched.
fn search_all(
    searcher: &mut AlphaBetaSearcher,
    position: &Position,
    budget: Budget,
    count: usize,
) -> (HashMap<Pos, Line>, u32, u64) {
    let limits = budget.limits(count);
    let stop = AtomicBool::new(false);
    let mut current: Vec<SearchInfo> = Vec::new();
    let mut last: Vec<SearchInfo> = Vec::new();
    let outcome = searcher.search(position, &limits, &stop, &mut |info| {
        if info.pv_index == 0 {
            current.clear();
        }
        current.push(info.clone());
        if current.len() == info.pv_count {
            last = std::mem::take(&mut current);
        }
    });
    let depth = last.first().map_or(0, |i| i.depth);
    let mut found: HashMap<Pos, Line> = last
        .into_iter()
        .filter(|i| !i.pv.is_empty())
        .map(|i| {
            let line = Line {
                score: i.score,
                moves: i.pv,
            };
            (line.moves[0], line)
        })
        .collect();
    // A root shortcut (a single legal move) reports through the outcome only.
    if found.is_empty() && outcome.depth > 0 && !outcome.pv.is_empty() {
        found.insert(
            outcome.best,
            Line {
                score: outcome.score,
                moves: outcome.pv.clone(),
            },
        );
    }
    (found, depth.max(outcome.depth), outcome.nodes)
}

/// The score of playing `pos` for the side to move of `position`, by a search of the
/// opponent's reply within `budget`; and the nodes searched.
fn search_square(
    searcher: &mut AlphaBetaSearcher,
    position: &Position,
    pos: Pos,
    budget: Budget,
) -> (i32, u64) {
    if position.is_winning_move(pos) {
        return (WIN - 1, 0);
    }
    let mut after = position.clone();
    after.play(pos);
    if after.board().empty_positions().next().is_none() {
        return (0, 0);
    }
    let stop = AtomicBool::new(false);
    let outcome = searcher.search(&after, &budget.limits(1), &stop, &mut |_| {});
    (one_ply_back(outcome.score), outcome.nodes)
}

/// A score for the side to move one ply later, seen from the side that moved before: negated,
/// and a win or loss one ply further away.
pub fn one_ply_back(score: i32) -> i32 {
    if score >= WIN_BOUND {
        1 - score
    } else if score <= -WIN_BOUND {
        -score - 1
    } else {
        -score
    }
}

/// The best `count` lines: the squares by score, best first (the search's order among
/// equal scores, then row-major), each with the search's line where it has one.
fn best_lines(squares: &[SquareScore], found: &HashMap<Pos, Line>, count: usize) -> Vec<Line> {
    let mut order: Vec<&SquareScore> = squares.iter().collect();
    order.sort_by_key(|s| std::cmp::Reverse(s.score));
    order
        .into_iter()
        .take(count)
        .map(|s| {
            found.get(&s.pos).cloned().unwrap_or(Line {
                score: s.score,
                moves: vec![s.pos],
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::input::from_pos;
    use crate::board::Cell;
    use crate::search::score::is_decisive;

    fn within_two(position: &Position, p: Pos) -> bool {
        position.board().positions().any(|s| {
            matches!(position.board().cell(s), Cell::Stone(_))
                && s.x().abs_diff(p.x()) <= 2
                && s.y().abs_diff(p.y()) <= 2
        })
    }

    #[test]
    fn every_legal_square_near_the_stones_is_scored() {
        let position = from_pos("h8i9h9i8g10", 15, 15, Rule::Freestyle).unwrap();
        let map = compute(&position, Budget::Nodes(20_000), 3);
        let expected: Vec<Pos> = position
            .board()
            .empty_positions()
            .filter(|&p| within_two(&position, p))
            .collect();
        let scored: Vec<Pos> = map.squares.iter().map(|s| s.pos).collect();
        assert_eq!(scored, expected);
        assert_eq!(map.to_move, Color::White);
        assert_eq!(map.lines.len(), 3);
        assert!(map.lines.windows(2).all(|w| w[0].score >= w[1].score));
        assert_eq!(
            map.lines[0].score,
            map.squares.iter().map(|s| s.score).max().unwrap()
        );
        assert!(map.nodes > 0 && map.depth >= 1);
    }

    #[test]
    fn squares_the_multi_pv_search_leaves_are_searched_alone() {
        // White to move against Black's open four (h8 to k8): two fives to stop, so the
        // search's root answers with a loss and no line; each square is searched alone,
        // and each loses to a five on the next move.
        let position = from_pos("h8a1i8a3j8a5k8", 15, 15, Rule::Freestyle).unwrap();
        assert_eq!(position.to_move(), Color::White);
        let map = compute(&position, Budget::Nodes(20_000), 3);
        assert_eq!(map.squares.len(), near_squares(&position).len());
        assert!(map.squares.iter().all(|s| s.alone && s.score == -(WIN - 2)));
        assert_eq!(map.lines.len(), 3);
        assert_eq!(
            crate::protocol::output::eval_text(map.lines[0].score),
            "-M2"
        );
    }

    #[test]
    fn a_tiny_budget_still_scores_every_square() {
        let position = from_pos("h8i9h9i8g10j7", 15, 15, Rule::Freestyle).unwrap();
        let map = compute(&position, Budget::Nodes(1), 1);
        assert_eq!(map.squares.len(), near_squares(&position).len());
        assert_eq!(map.lines.len(), 1);
    }

    #[test]
    fn a_five_to_make_is_a_win_in_one() {
        // Black to move with h8 i8 j8 k8 (x 7 to 10 on row 8): g8 and l8 make five.
        let position = from_pos("h8h9i8i9j8j9k8a1", 15, 15, Rule::Freestyle).unwrap();
        assert_eq!(position.to_move(), Color::Black);
        let map = compute(&position, Budget::Nodes(20_000), 2);
        for five in [Pos::new(6, 7), Pos::new(11, 7)] {
            assert_eq!(map.score_at(five), Some(WIN - 1), "at {five:?}");
            assert_eq!(crate::protocol::output::eval_text(WIN - 1), "+M1");
        }
        assert_eq!(map.lines[0].score, WIN - 1);
        // Elsewhere White blocks one end and Black wins at the other: nothing is lost.
        assert!(map.squares.iter().all(|s| s.score > -WIN_BOUND));
        assert!(map.squares.iter().filter(|s| is_decisive(s.score)).count() >= 2);
    }

    #[test]
    fn forbidden_squares_are_marked_and_not_scored_for_black() {
        // Black to move; (7,7) would make two open threes for Black, a double three.
        let mut stones = vec![
            (Pos::new(7, 5), Cell::Stone(Color::Black)),
            (Pos::new(1, 1), Cell::Stone(Color::White)),
            (Pos::new(7, 6), Cell::Stone(Color::Black)),
            (Pos::new(13, 1), Cell::Stone(Color::White)),
            (Pos::new(5, 7), Cell::Stone(Color::Black)),
            (Pos::new(1, 13), Cell::Stone(Color::White)),
            (Pos::new(6, 7), Cell::Stone(Color::Black)),
            (Pos::new(13, 13), Cell::Stone(Color::White)),
        ];
        let foul = Pos::new(7, 7);
        let position = Position::from_stones(15, 15, Rule::Renju, &stones, Color::Black).unwrap();
        assert!(
            crate::rules::renju_foul(&mut position.board().clone(), foul).is_some(),
            "the premise: a double three"
        );
        let map = compute(&position, Budget::Nodes(20_000), 3);
        assert!(map.is_forbidden(foul));
        assert_eq!(map.score_at(foul), None);
        assert!(map.lines.iter().all(|l| l.moves[0] != foul));
        assert!(!map.squares.is_empty());
        // With White to move the square is White's to play, and still marked.
        stones.push((Pos::new(0, 7), Cell::Stone(Color::Black)));
        let position = Position::from_stones(15, 15, Rule::Renju, &stones, Color::White).unwrap();
        let map = compute(&position, Budget::Nodes(20_000), 1);
        assert!(map.is_forbidden(foul));
        assert!(map.score_at(foul).is_some());
        // Freestyle marks nothing.
        let free = from_pos("h8", 15, 15, Rule::Freestyle).unwrap();
        assert!(compute(&free, Budget::Nodes(5_000), 1).forbidden.is_empty());
    }

    #[test]
    fn an_empty_board_scores_the_centre() {
        let position = Position::new(15, 15, Rule::Freestyle).unwrap();
        let map = compute(&position, Budget::Nodes(5_000), 5);
        assert_eq!(map.squares.len(), 1);
        assert_eq!(map.squares[0].pos, Pos::new(7, 7));
        assert_eq!(map.lines.len(), 1);
    }

    #[test]
    fn scores_step_back_a_ply() {
        assert_eq!(one_ply_back(WIN - 1), -(WIN - 2));
        assert_eq!(one_ply_back(-(WIN - 4)), WIN - 5);
        assert_eq!(one_ply_back(35), -35);
    }
}
