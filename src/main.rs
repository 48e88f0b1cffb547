//! `pbrain-rensa`: the Rensa engine as a Gomocup (Piskvork protocol) brain.
//!
//! Without arguments it speaks the protocol on stdin/stdout. Logs go to stderr
//! (`RUST_LOG=debug` for more).

use clap::{Args, Parser, Subcommand};
use rensa::analysis::heatmap::Budget;
use rensa::analysis::{Request, Source};
use rensa::protocol::io::{spawn_reader, spawn_writer};
use rensa::protocol::session::Session;

#[derive(Parser)]
#[command(
    name = "pbrain-rensa",
    version,
    about = "Rensa: a Gomoku / Renju engine for Gomocup managers"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Mode>,
}

#[derive(Subcommand)]
enum Mode {
    /// Speak the Gomocup protocol on stdin/stdout (the default).
    Protocol,
    /// Search the fixed bench positions (1 thread, fixed depth) and print `Bench: <nodes>`.
    Bench {
        /// Search depth.
        #[arg(long, default_value_t = rensa::bench::BENCH_DEPTH)]
        depth: u32,
    },
    /// Analyse a position: the best lines and a searched heatmap of the moves near the
    /// stones, as text on stdout and optionally as an SVG image and JSON.
    Analyse(AnalyseArgs),
}

/// The arguments of `analyse`; without `--pos` or `--psq` a Gomocup BOARD block is read
/// from stdin.
#[derive(Args)]
struct AnalyseArgs {
    /// Moves in pos format, Black first: `h8i9j10` (letter = x from `a`, number = y from 1
    /// counted from the top).
    #[arg(long, conflicts_with = "psq")]
    pos: Option<String>,
    /// A Piskvork `.psq` record (its board size is used).
    #[arg(long)]
    psq: Option<std::path::PathBuf>,
    /// Gomocup rule code: 0 freestyle, 1 standard, 4 renju, 8 caro, 9 exact caro.
    #[arg(long, default_value_t = 0)]
    rule: u32,
    /// Board size, `N` or `WxH` (default 15).
    #[arg(long)]
    size: Option<String>,
    /// Node budget of the search (default 1000000).
    #[arg(long, conflicts_with = "time_ms")]
    nodes: Option<u64>,
    /// Time budget of the search, in milliseconds.
    #[arg(long)]
    time_ms: Option<u64>,
    /// How many best lines to print.
    #[arg(long, default_value_t = rensa::analysis::DEFAULT_LINES)]
    lines: usize,
    /// Write the board image as SVG to this file.
    #[arg(long)]
    svg: Option<std::path::PathBuf>,
    /// Write the analysis as JSON to this file.
    #[arg(long)]
    json: Option<std::path::PathBuf>,
}

impl AnalyseArgs {
    fn request(self) -> Request {
        let source = match (self.pos, self.psq) {
            (Some(moves), _) => Source::Pos(moves),
            (None, Some(path)) => Source::Psq(path),
            (None, None) => Source::BoardBlock,
        };
        let budget = match self.time_ms {
            Some(ms) => Budget::Time(std::time::Duration::from_millis(ms)),
            None => Budget::Nodes(self.nodes.unwrap_or(rensa::analysis::DEFAULT_NODES)),
        };
        Request {
            source,
            rule: self.rule,
            size: self.size,
            budget,
            lines: self.lines,
            svg: self.svg,
            json: self.json,
        }
    }
}

fn main() {
    let cli = Cli::parse();
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .format_timestamp_millis()
        .init();
    match cli.command.unwrap_or(Mode::Protocol) {
        Mode::Protocol => run_protocol(),
        Mode::Bench { depth } => {
            let lines = rensa::bench::run(depth);
            rensa::bench::print(&lines, depth);
        }
        Mode::Analyse(args) => {
            let request = args.request();
            match rensa::analysis::run(&request, &mut std::io::stdin().lock()) {
                Ok(report) => print!("{report}"),
                Err(e) => {
                    eprintln!("pbrain-rensa analyse: {e}");
                    std::process::exit(2);
                }
            }
        }
    }
}

fn run_protocol() {
    rensa::pattern::warm_in_background();
    let input = spawn_reader(std::io::stdin());
    let (out, writer) = spawn_writer(std::io::stdout());
    let exit = {
        let mut session = Session::new(out);
        session.run(&input)
    };
    log::debug!("session ended: {exit:?}");
    // Every Output handle is gone once the session is dropped: the writer drains and ends.
    let _ = writer.join();
    // Search threads may still be winding down; END must not wait for them.
    std::process::exit(0);
}
