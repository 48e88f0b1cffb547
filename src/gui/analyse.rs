//! Analysis for the board, always by Rensa's own search (also when an external engine
//! plays): the heatmap of the current position (every legal square near the stones
//! scored, as `pbrain-rensa analyse` does) and a quick evaluation of every position of the
//! game for the graph. Both run without the game's lock; their results are kept only if
//! the game has not changed meanwhile.

use super::state::{for_black, Analysed, Shared};
use super::ApiError;
use crate::analysis::heatmap::{self, Budget};
use crate::board::Pos;
use crate::position::Position;
use crate::rules::Rule;
use crate::search::tt::TranspositionTable;
use crate::search::{AlphaBetaSearcher, Limits, Searcher};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Nodes for a heatmap when the request names none.
pub const DEFAULT_NODES: u64 = 200_000;
/// Nodes for each position of the game's evaluation when the request names none.
pub const DEFAULT_GAME_NODES: u64 = 20_000;
/// The most nodes a request may ask for.
pub const MAX_NODES: u64 = 50_000_000;
/// The most best lines a request may ask for.
pub const MAX_LINES: usize = 20;

/// Table for the game's evaluation.
const GAME_TABLE_BYTES: usize = 16 << 20;

/// What to analyse.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// Node budget (of the heatmap, or of each position of the game).
    pub nodes: u64,
    /// Best lines to list.
    pub lines: usize,
    /// Evaluate every position of the game for the graph instead of the heatmap.
    pub game: bool,
}

/// Run `request` on the current game and store what it found. One analysis runs at a
/// time; a second is refused while the first runs.
pub fn run(shared: &Shared, request: Request) -> Result<(), ApiError> {
    if request.nodes == 0 || request.nodes > MAX_NODES {
        return Err(ApiError::bad(format!(
            "nodes must be 1 to {MAX_NODES}, not {}",
            request.nodes
        )));
    }
    if request.lines == 0 || request.lines > MAX_LINES {
        return Err(ApiError::bad(format!(
            "lines must be 1 to {MAX_LINES}, not {}",
            request.lines
        )));
    }
    let (position, key) = shared.update(|s| {
        if s.analysing {
            return Err(ApiError::conflict("an analysis is already running"));
        }
        s.analysing = true;
        s.touch();
        Ok((s.position.clone(), s.key))
    })?;
    let result = std::panic::catch_unwind(|| {
        if request.game {
            Found::Evals(game_evals(&position, request.nodes))
        } else {
            Found::Heatmap(heatmap_of(&position, request))
        }
    });
    shared.update(|s| {
        s.analysing = false;
        s.touch();
        let found = result.map_err(|_| ApiError::internal("the analysis failed"))?;
        if s.key != key {
            return Err(ApiError::conflict(
                "the game changed during the analysis: analyse again",
            ));
        }
        match found {
            Found::Heatmap(a) => {
                let ply = a.moves.len();
                if let Some(best) = a.heatmap.lines.first() {
                    s.evals[ply] = Some(for_black(best.score, a.heatmap.to_move));
                }
                s.analysis = Some(a);
            }
            Found::Evals(evals) => {
                for (slot, e) in s.evals.iter_mut().zip(evals) {
                    if e.is_some() {
                        *slot = e;
                    }
                }
            }
        }
        Ok(())
    })
}

enum Found {
    Heatmap(Analysed),
    Evals(Vec<Option<i32>>),
}

fn heatmap_of(position: &Position, request: Request) -> Analysed {
    let heatmap = heatmap::compute(position, Budget::Nodes(request.nodes), request.lines);
    Analysed {
        moves: position.history().to_vec(),
        rule: position.rule(),
        heatmap,
    }
}

/// Black's evaluation after each number of moves of `position`'s game, by a search of
/// `nodes` nodes each; None where the game was already over.
pub fn game_evals(position: &Position, nodes: u64) -> Vec<Option<i32>> {
    let b = position.board();
    let rule: Rule = position.rule();
    let mut replay = Position::new(b.width(), b.height(), rule).expect("the game's own size");
    let table = Arc::new(TranspositionTable::new(GAME_TABLE_BYTES));
    let mut searcher = AlphaBetaSearcher::new(table, 1);
    let stop = AtomicBool::new(false);
    let moves: Vec<Pos> = position.history().to_vec();
    let mut evals = Vec::with_capacity(moves.len() + 1);
    for i in 0..=moves.len() {
        if i > 0 {
            replay.play(moves[i - 1]);
        }
        if replay.last_move_won() || replay.empty_count() == 0 {
            evals.push(None);
            continue;
        }
        let limits = Limits {
            max_nodes: Some(nodes),
            ..Limits::unbounded()
        };
        let outcome = searcher.search(&replay, &limits, &stop, &mut |_| {});
        evals.push(Some(for_black(outcome.score, replay.to_move())));
    }
    evals
}
