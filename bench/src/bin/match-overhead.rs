//! `match-overhead`: measure the match runner's own time per move.
//!
//! Plays games between two instant engines (by default `pbrain-dummy` from the same build
//! directory) and reports the time per move that the runner spends outside waiting for a
//! reply: building and writing commands, waking up on the reply, refereeing, bookkeeping
//! (and in GomocupJudge mode the signals and memory readings). The time from writing a
//! request to the reader thread receiving the answer belongs to the engine and the pipe,
//! and is reported separately as the round trip. Exits with status 1 if the mean overhead
//! is 1 ms or more.

use clap::Parser;
use rensa::client::spec::DEFAULT_TOLERANCE;
use rensa_bench::config::EngineOptions;
use rensa_bench::report::{ProgressMode, Reporter};
use rensa_bench::tournament::{run, MatchConfig};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(about = "Measure rensa-match's own overhead per move")]
struct Args {
    /// Games to play.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Engine command (default: pbrain-dummy next to this program).
    #[arg(long)]
    engine: Option<String>,
    /// Board size.
    #[arg(long, default_value = "15")]
    boardsize: String,
    /// Measure GomocupJudge mode (suspend/resume and memory readings per move).
    #[arg(long)]
    gomocupjudge: bool,
}

fn main() {
    let args = Args::parse();
    let engine = args.engine.clone().unwrap_or_else(|| {
        let exe = std::env::current_exe().expect("current exe");
        let dir = exe.parent().map(PathBuf::from).unwrap_or_default();
        format!("{} --play first", dir.join("pbrain-dummy").display())
    });
    let cwd = std::env::current_dir().expect("cwd");
    let spec = |name: &str| {
        EngineOptions::parse(&[
            format!("cmd={engine}"),
            format!("name={name}"),
            "tc=600/60".to_string(),
        ])
        .and_then(|o| o.build(&cwd, DEFAULT_TOLERANCE))
        .unwrap_or_else(|e| {
            eprintln!("match-overhead: {e}");
            std::process::exit(2)
        })
    };
    let mut config = MatchConfig::new(vec![spec("A"), spec("B")]);
    config.games = args.games;
    config.judge = args.gomocupjudge;
    let (w, h) = rensa_bench::config::parse_board_size(&args.boardsize).unwrap_or_else(|e| {
        eprintln!("match-overhead: {e}");
        std::process::exit(2)
    });
    config.width = w;
    config.height = h;
    let names = vec!["A".to_string(), "B".to_string()];
    let s = run(&config, names, &mut Reporter::new(ProgressMode::Quiet)).unwrap_or_else(|e| {
        eprintln!("match-overhead: {e}");
        std::process::exit(2)
    });
    let engine_ms: u64 = s.engines.iter().map(|e| e.total_ms).sum();
    let moves: u64 = s.engines.iter().map(|e| e.moves).sum();
    let per_move = s.overhead_per_move_us();
    println!(
        "match-overhead: {} games, {} moves on {w}x{h}{} in {:.2} s",
        s.played,
        s.overhead_moves,
        if config.judge {
            " (GomocupJudge mode)"
        } else {
            ""
        },
        s.elapsed.as_secs_f64()
    );
    println!(
        "  everything else (engine replies, pipes, game set-up): {:.1} µs per move \
         (engines' own thinking: {engine_ms} ms over {moves} moves, ms-rounded)",
        (s.elapsed.as_secs_f64() - s.overhead.as_secs_f64()) * 1e6 / s.overhead_moves.max(1) as f64
    );
    println!(
        "  runner overhead: {per_move:.1} µs per move on average (of which {:.1} µs waking up \
         after a reply), {:.1} µs in the worst game",
        s.pickup_per_move_us(),
        s.worst_game_overhead_us
    );
    if per_move >= 1000.0 {
        println!("  FAIL: overhead is not below 1 ms per move");
        std::process::exit(1);
    }
    println!("  OK: below 1 ms per move");
}
