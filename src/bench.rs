//! `pbrain-rensa bench`: a fixed-depth, single-threaded search over fixed positions of every
//! rule. The total node count is the engine's signature: any change to search behaviour
//! changes it, so commits quote it as `Bench: <n>` and CI checks it against
//! `bench/signature.txt`.
//!
//! `pbrain-rensa bench --time-ms N` instead gives each position N ms as a manager's
//! `timeout_turn` would (one thread) and reports the depth each search completed: a
//! report of how deep the engine gets in a game's time, not a signature (it depends on the
//! machine).

use crate::board::Pos;
use crate::position::Position;
use crate::rules::Rule;
use crate::search::tt::TranspositionTable;
use crate::search::AlphaBetaSearcher;
use crate::search::{Evaluator, Limits, MoveOrdering, SearchInfo, Searcher};
use crate::timeman::TimeSettings;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Depth searched for every bench position.
pub const BENCH_DEPTH: u32 = 9;
/// Table size for the bench.
pub const BENCH_TABLE_BYTES: usize = 16 << 20;

/// One bench position: board size, rule and the moves played so far (Black first).
pub struct BenchPosition {
    /// Label printed beside the result.
    pub name: &'static str,
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// The rule.
    pub rule: Rule,
    /// Moves as (x, y), Black first.
    pub moves: &'static [(usize, usize)],
}

/// The fixed bench set: freestyle 15x15 and 20x20, standard, renju and caro.
pub const POSITIONS: &[BenchPosition] = &[
    BenchPosition {
        name: "freestyle15-opening",
        width: 15,
        height: 15,
        rule: Rule::Freestyle,
        moves: &[(7, 7), (8, 6), (8, 8)],
    },
    BenchPosition {
        name: "freestyle15-middle",
        width: 15,
        height: 15,
        rule: Rule::Freestyle,
        moves: &[
            (7, 7),
            (8, 7),
            (7, 8),
            (7, 6),
            (8, 9),
            (6, 7),
            (9, 10),
            (10, 11),
            (6, 8),
            (9, 8),
        ],
    },
    BenchPosition {
        name: "freestyle15-attack",
        width: 15,
        height: 15,
        rule: Rule::Freestyle,
        moves: &[
            (7, 7),
            (7, 8),
            (8, 8),
            (6, 6),
            (9, 9),
            (10, 10),
            (8, 7),
            (8, 6),
            (9, 7),
            (10, 7),
            (9, 6),
            (9, 8),
        ],
    },
    BenchPosition {
        name: "freestyle20-opening",
        width: 20,
        height: 20,
        rule: Rule::Freestyle,
        moves: &[(10, 10), (11, 9), (9, 11), (12, 10)],
    },
    BenchPosition {
        name: "freestyle20-middle",
        width: 20,
        height: 20,
        rule: Rule::Freestyle,
        moves: &[
            (10, 10),
            (11, 11),
            (9, 11),
            (11, 9),
            (11, 10),
            (12, 10),
            (8, 12),
            (7, 13),
            (9, 10),
            (9, 9),
            (10, 12),
        ],
    },
    BenchPosition {
        name: "freestyle20-edge",
        width: 20,
        height: 20,
        rule: Rule::Freestyle,
        moves: &[(2, 2), (3, 3), (2, 3), (2, 4), (3, 2), (4, 1), (1, 2)],
    },
    BenchPosition {
        name: "standard15-opening",
        width: 15,
        height: 15,
        rule: Rule::Standard,
        moves: &[(7, 7), (6, 8), (8, 8), (6, 6), (6, 7)],
    },
    BenchPosition {
        name: "standard15-middle",
        width: 15,
        height: 15,
        rule: Rule::Standard,
        moves: &[
            (7, 7),
            (8, 8),
            (6, 8),
            (8, 6),
            (8, 7),
            (6, 7),
            (9, 6),
            (5, 9),
            (7, 5),
            (7, 9),
        ],
    },
    BenchPosition {
        name: "renju15-opening",
        width: 15,
        height: 15,
        rule: Rule::Renju,
        moves: &[(7, 7), (7, 6), (8, 6)],
    },
    BenchPosition {
        name: "renju15-middle",
        width: 15,
        height: 15,
        rule: Rule::Renju,
        moves: &[
            (7, 7),
            (8, 6),
            (8, 8),
            (6, 6),
            (7, 6),
            (7, 5),
            (9, 9),
            (6, 8),
            (6, 9),
            (10, 10),
            (9, 7),
        ],
    },
    BenchPosition {
        name: "renju15-white",
        width: 15,
        height: 15,
        rule: Rule::Renju,
        moves: &[
            (7, 7),
            (8, 7),
            (6, 8),
            (7, 8),
            (6, 6),
            (8, 9),
            (5, 7),
            (4, 6),
        ],
    },
    BenchPosition {
        name: "caro15-opening",
        width: 15,
        height: 15,
        rule: Rule::Caro,
        moves: &[(7, 7), (8, 8), (7, 8), (7, 9)],
    },
    BenchPosition {
        name: "caro15-middle",
        width: 15,
        height: 15,
        rule: Rule::CaroExact,
        moves: &[
            (7, 7),
            (6, 7),
            (7, 6),
            (7, 8),
            (8, 5),
            (9, 4),
            (8, 7),
            (6, 5),
            (6, 6),
            (9, 6),
        ],
    },
];

/// The result of one bench position.
pub struct BenchLine {
    /// Position label.
    pub name: &'static str,
    /// Nodes searched.
    pub nodes: u64,
    /// The move chosen.
    pub best: Pos,
    /// Its score.
    pub score: i32,
    /// Time taken.
    pub elapsed: Duration,
}

/// Build a bench position.
pub fn position_of(p: &BenchPosition) -> Position {
    let mut position = Position::new(p.width, p.height, p.rule).expect("bench sizes are valid");
    for &(x, y) in p.moves {
        position.play(Pos::new(x, y));
    }
    position
}

/// A bench position and a one-thread searcher with a fresh table for it.
fn fresh_search(p: &BenchPosition) -> (Position, AlphaBetaSearcher) {
    let table = Arc::new(TranspositionTable::new(BENCH_TABLE_BYTES));
    (position_of(p), AlphaBetaSearcher::new(table, 1))
}

/// Search every bench position at [`BENCH_DEPTH`] with one thread and a fresh table.
pub fn run(depth: u32) -> Vec<BenchLine> {
    run_with(depth, Evaluator::default(), MoveOrdering::default())
}

/// [`run`] with a chosen evaluation and move ordering (to compare their speed in one run).
pub fn run_with(depth: u32, evaluator: Evaluator, ordering: MoveOrdering) -> Vec<BenchLine> {
    POSITIONS
        .iter()
        .map(|p| {
            let (position, mut searcher) = fresh_search(p);
            let mut limits = Limits::unbounded();
            limits.max_depth = Some(depth);
            limits.evaluator = evaluator;
            limits.ordering = ordering;
            let stop = AtomicBool::new(false);
            // The engine builds its rule's pattern tables when the rule is set, before any
            // search: so the timer leaves that out too (about 45 ms a rule family).
            crate::pattern::warm(position.rule());
            let start = Instant::now();
            let outcome = searcher.search(&position, &limits, &stop, &mut |_| {});
            BenchLine {
                name: p.name,
                nodes: outcome.nodes,
                best: outcome.best,
                score: outcome.score,
                elapsed: start.elapsed(),
            }
        })
        .collect()
}

/// What one timed bench search reached.
pub struct DepthLine {
    /// Position label.
    pub name: &'static str,
    /// The last completed iteration's depth (0 when none completed, e.g. a root shortcut).
    pub depth: u32,
    /// That iteration's selective depth.
    pub seldepth: u32,
    /// Nodes searched (threat solvers included).
    pub nodes: u64,
    /// The move chosen.
    pub best: Pos,
    /// Time taken.
    pub elapsed: Duration,
}

/// Search every bench position with `turn_ms` per move as the only limit (as under
/// `INFO timeout_turn` with no game clock: the same budget, margins and stop rules), one
/// thread and a fresh table, and record the depth reached.
pub fn run_timed(turn_ms: u64, evaluator: Evaluator, ordering: MoveOrdering) -> Vec<DepthLine> {
    POSITIONS
        .iter()
        .map(|p| {
            let (position, mut searcher) = fresh_search(p);
            let settings = TimeSettings {
                turn_ms: Some(i64::try_from(turn_ms).unwrap_or(i64::MAX)),
                match_ms: Some(0),
                ..TimeSettings::default()
            };
            let empty = position.board().empty_positions().count();
            let budget = settings.budget(empty);
            crate::pattern::warm(position.rule());
            let start = Instant::now();
            let limits = Limits {
                unused_is_lost: budget.unused_is_lost,
                evaluator,
                ordering,
                ..Limits::new(start, budget.optimum, budget.maximum)
            };
            let stop = AtomicBool::new(false);
            let (mut depth, mut seldepth) = (0, 0);
            let outcome = searcher.search(&position, &limits, &stop, &mut |info: &SearchInfo| {
                depth = info.depth;
                seldepth = info.seldepth;
            });
            DepthLine {
                name: p.name,
                depth,
                seldepth,
                nodes: outcome.nodes,
                best: outcome.best,
                elapsed: start.elapsed(),
            }
        })
        .collect()
}

/// Print a timed bench run: one line per position, then the mean depth.
pub fn print_timed(lines: &[DepthLine], turn_ms: u64) {
    println!(
        "Rensa {} bench: {turn_ms} ms a move (timeout_turn), 1 thread, {} MiB table",
        env!("CARGO_PKG_VERSION"),
        BENCH_TABLE_BYTES >> 20
    );
    for (i, l) in lines.iter().enumerate() {
        let depth = if l.depth == 0 {
            // No iteration: the root shortcuts or the threat solvers decided the move.
            "solved".to_string()
        } else {
            format!("{}-{}", l.depth, l.seldepth)
        };
        println!(
            "Position {:2} {:<22} best {:>5} depth {:<7} nodes {:>10} time {:>6} ms",
            i + 1,
            l.name,
            l.best.to_string(),
            depth,
            l.nodes,
            l.elapsed.as_millis()
        );
    }
    // Means over the positions the main search decided.
    let searched: Vec<&DepthLine> = lines.iter().filter(|l| l.depth > 0).collect();
    let n = searched.len().max(1) as f64;
    let mean = |f: fn(&DepthLine) -> u32| searched.iter().map(|l| f64::from(f(l))).sum::<f64>() / n;
    println!("===========================");
    println!(
        "Searched        : {} of {} (the others solved)",
        searched.len(),
        lines.len()
    );
    println!("Mean depth      : {:.2}", mean(|l| l.depth));
    println!("Mean seldepth   : {:.2}", mean(|l| l.seldepth));
    println!(
        "Nodes searched  : {}",
        lines.iter().map(|l| l.nodes).sum::<u64>()
    );
}

/// Total nodes of a bench run: the signature.
pub fn signature(lines: &[BenchLine]) -> u64 {
    lines.iter().map(|l| l.nodes).sum()
}

/// Print a bench run the way `pbrain-rensa bench` does.
pub fn print(lines: &[BenchLine], depth: u32) {
    println!(
        "Rensa {} bench: depth {depth}, 1 thread, {} MiB table",
        env!("CARGO_PKG_VERSION"),
        BENCH_TABLE_BYTES >> 20
    );
    let mut total_time = Duration::ZERO;
    for (i, l) in lines.iter().enumerate() {
        total_time += l.elapsed;
        println!(
            "Position {:2} {:<22} best {:>5} score {:>6} nodes {:>10} time {:>6} ms",
            i + 1,
            l.name,
            l.best.to_string(),
            l.score,
            l.nodes,
            l.elapsed.as_millis()
        );
    }
    let total = signature(lines);
    let ms = total_time.as_millis().max(1);
    println!("===========================");
    println!("Total time (ms) : {ms}");
    println!("Nodes searched  : {total}");
    println!("Nodes/second    : {}", u128::from(total) * 1000 / ms);
    println!("Bench: {total}");
}
