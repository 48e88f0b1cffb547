//! `balanced-openings`: an opening set whose positions a deep search finds near equal.
//!
//! The shared Piskvork openings are not balanced: some give the side to move a won or
//! nearly won game, so a match over them measures the openings as much as the engines.
//! This tool extends each opening of a file by a few random moves next to the stones
//! (seeded, so a run is repeatable), searches every candidate with a node budget, and keeps
//! those whose score for the side to move lies within `--max-score` (600 is a 55 %
//! winning chance on the logistic scale `train` fits to Rensa's games, K = 3000) and that
//! no search proves won or lost. Positions equal under a board symmetry are kept once. The kept openings are
//! written in the offset format (`dx,dy, ...` from the centre, Black first) with a header
//! that records the command's settings, and each line ends with its score as a comment.
//!
//! `bench/balanced-openings.sh` makes the committed sets in `bench/openings/`.

use clap::Parser;
use rensa::board::Color;
use rensa::position::Position;
use rensa::records::openings::{format_line, squares_to_offsets, OpeningFormat};
use rensa::rules::Rule;
use rensa::search::score::WIN_BOUND;
use rensa::search::tt::TranspositionTable;
use rensa::search::{AlphaBetaSearcher, Limits, Searcher};
use rensa_bench::openings::{self, Opening};
use rensa_bench::rng::Rng;
use rensa_bench::selfplay;
use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

#[derive(Parser, Debug)]
#[command(
    about = "Keep the openings (extended by random moves) that a deep search finds near equal"
)]
struct Args {
    /// Gomocup rule code: 0 freestyle, 1 standard, 4 renju.
    #[arg(long, default_value_t = 0)]
    rule: i64,
    /// Board size (square).
    #[arg(long, default_value_t = 15)]
    size: usize,
    /// The openings to extend (offset or pos format).
    #[arg(
        long,
        default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/testdata/openings/piskvork-openings.txt")
    )]
    from: PathBuf,
    /// Random moves added to each opening, next to its stones.
    #[arg(long, default_value_t = 2)]
    extend: usize,
    /// Search nodes for each candidate.
    #[arg(long, default_value_t = 400_000)]
    nodes: u64,
    /// Largest |score| (for the side to move) of a kept opening: 600 is a 45-55 % winning
    /// chance (see `INFO WINRATE`).
    #[arg(long, default_value_t = 600)]
    max_score: i32,
    /// How many openings to keep.
    #[arg(long, default_value_t = 40)]
    keep: usize,
    /// Candidates to try at most (default: 12 times --keep).
    #[arg(long)]
    tries: Option<usize>,
    /// Seed of the random extensions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write the set (stdout when absent).
    #[arg(long)]
    out: Option<PathBuf>,
}

fn fail(message: String) -> ! {
    eprintln!("balanced-openings: {message}");
    std::process::exit(2);
}

/// Place `opening` and `extend` random legal moves within one square of the stones (as
/// self-play starts its games); None when the opening does not fit, a move is not legal
/// (a renju foul included) or a random move wins.
fn candidate(
    opening: &Opening,
    size: usize,
    rule: Rule,
    extend: usize,
    rng: &mut Rng,
) -> Option<Position> {
    let mut position = Position::new(size, size, rule).ok()?;
    selfplay::file_start(opening, 0, extend, &mut position, rng)?;
    Some(position)
}

/// The position's stones under its least symmetric image: equal for positions that one of
/// the board's symmetries maps onto each other.
fn canonical(position: &Position, size: usize) -> Vec<(i64, i64, u8)> {
    (0..openings::transform_count(size, size))
        .map(|t| {
            let mut stones: Vec<(i64, i64, u8)> = position
                .history()
                .iter()
                .enumerate()
                .map(|(k, p)| {
                    let (x, y) = openings::transform(t, (p.x() as i64, p.y() as i64), size, size);
                    (x, y, (k % 2) as u8)
                })
                .collect();
            stones.sort_unstable();
            stones
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    let args = Args::parse();
    // Only plain rule codes: a set is made for one rule, not for what a code's odd bits
    // would fall back to.
    let rule = Rule::from_code(args.rule)
        .filter(|(_, note)| note.is_none())
        .map(|(r, _)| r)
        .unwrap_or_else(|| fail(format!("unknown rule code {}", args.rule)));
    if let Err(e) = Position::new(args.size, args.size, rule) {
        fail(format!("board size {}: {e}", args.size));
    }
    let (sources, bad) = openings::read_file(&args.from, None).unwrap_or_else(|e| fail(e));
    if let Some((line, why)) = bad.first() {
        fail(format!("{}:{line}: {why}", args.from.display()));
    }
    if sources.is_empty() {
        fail(format!("no openings in {}", args.from.display()));
    }
    let tries = args.tries.unwrap_or(args.keep * 12);
    let mut rng = Rng::new(args.seed);
    let limits = Limits {
        max_nodes: Some(args.nodes),
        ..Limits::unbounded()
    };
    let stop = AtomicBool::new(false);
    let mut seen = HashSet::new();
    let mut kept: Vec<(String, i32)> = Vec::new();
    let mut tried = 0;
    let mut k = 0usize;
    while kept.len() < args.keep && tried < tries {
        let opening = &sources[k % sources.len()];
        k += 1;
        // Every candidate counts as a try, one that does not fit or repeats an earlier one
        // too (an opening that never fits would otherwise loop forever).
        tried += 1;
        let Some(position) = candidate(opening, args.size, rule, args.extend, &mut rng) else {
            continue;
        };
        if !seen.insert(canonical(&position, args.size)) {
            continue;
        }
        // A fresh table for each candidate: its score does not depend on the ones before.
        let mut searcher = AlphaBetaSearcher::new(Arc::new(TranspositionTable::new(32 << 20)), 1);
        let outcome = searcher.search(&position, &limits, &stop, &mut |_| {});
        let score = outcome.score;
        let keep = score.abs() < WIN_BOUND && score.abs() <= args.max_score;
        eprintln!(
            "[{tried}/{tries}] line {} + {} moves: {} to move, score {score}{}",
            opening.line,
            args.extend,
            if position.to_move() == Color::Black {
                "Black"
            } else {
                "White"
            },
            if keep { " kept" } else { "" }
        );
        if keep {
            let squares: Vec<(i64, i64)> = position
                .history()
                .iter()
                .map(|p| (p.x() as i64, p.y() as i64))
                .collect();
            let offsets = squares_to_offsets(&squares, args.size, args.size);
            let text = format_line(&offsets, OpeningFormat::Offset)
                .unwrap_or_else(|e| fail(format!("cannot write an opening: {e}")));
            kept.push((text, score));
        }
    }
    let mut out = String::new();
    out.push_str(&format!(
        "# balanced-openings --rule {} --size {} --from {} --extend {} --nodes {} --max-score {} --keep {} --seed {}\n",
        args.rule,
        args.size,
        args.from.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        args.extend,
        args.nodes,
        args.max_score,
        args.keep,
        args.seed
    ));
    out.push_str(&format!(
        "# {} kept of {tried} candidates; offsets from the centre, Black first; the score is for the side to move\n",
        kept.len()
    ));
    for (text, score) in &kept {
        out.push_str(&format!("{text}\n# score {score}\n"));
    }
    match &args.out {
        Some(path) => std::fs::write(path, out)
            .unwrap_or_else(|e| fail(format!("cannot write {}: {e}", path.display()))),
        None => {
            let _ = std::io::stdout().write_all(out.as_bytes());
        }
    }
    eprintln!("balanced-openings: kept {} of {tried}", kept.len());
    if kept.len() < args.keep {
        eprintln!(
            "balanced-openings: fewer than --keep {} (raise --tries or --max-score)",
            args.keep
        );
    }
}
