//! `pbrain-rensa`: the Rensa engine as a Gomocup (Piskvork protocol) brain.
//!
//! Without arguments it speaks the protocol on stdin/stdout. Logs go to stderr
//! (`RUST_LOG=debug` for more).

use clap::{Args, Parser, Subcommand};
use rensa::analysis::heatmap::Budget;
use rensa::analysis::{Request, Source};
use rensa::protocol::io::{spawn_reader, spawn_writer};
use rensa::protocol::session::Session;
use rensa::search::learned::{self, WeightSet};
use rensa::search::{Evaluator, MoveOrdering};

#[derive(Parser)]
#[command(
    name = "pbrain-rensa",
    version,
    about = "Rensa: a Gomoku / Renju engine for Gomocup managers"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Mode>,
    /// The static evaluation: `auto`, `learned`, `tables` (learned without the networks) or
    /// `classic` (the protocol's `INFO evaluator`).
    #[arg(long, global = true)]
    evaluator: Option<String>,
    /// A folder of learned weight files (`freestyle.rnw`, `standard.rnw`, `renju.rnw`, each
    /// with an optional network `<family>.rnn`) to play with instead of the built-in ones;
    /// relative to the executable's folder unless absolute (the protocol's `INFO weights`).
    #[arg(long, global = true)]
    weights: Option<String>,
    /// The move ordering: `classic` or `learned` (the protocol's `INFO ordering`; learned
    /// ordering needs the learned evaluation).
    #[arg(long, global = true)]
    ordering: Option<String>,
}

impl Cli {
    /// The move ordering the options ask for; exits with a message when unusable.
    fn ordering(&self) -> MoveOrdering {
        match &self.ordering {
            None => MoveOrdering::default(),
            Some(name) => MoveOrdering::named(name).unwrap_or_else(|| {
                eprintln!("pbrain-rensa: --ordering: {name:?} is neither classic nor learned");
                std::process::exit(2);
            }),
        }
    }

    /// The evaluation the options ask for; exits with a message when they are unusable.
    fn evaluator(&self) -> Evaluator {
        let weights: &'static WeightSet = match &self.weights {
            None => learned::embedded(),
            Some(path) => match WeightSet::load(path) {
                Ok(set) => set,
                Err(e) => {
                    eprintln!("pbrain-rensa: --weights: {e}");
                    std::process::exit(2);
                }
            },
        };
        match (&self.evaluator, &self.weights) {
            (None, None) => Evaluator::default(),
            (None, Some(_)) => Evaluator::Learned(weights),
            (Some(name), _) => Evaluator::named(name, weights).unwrap_or_else(|| {
                eprintln!(
                    "pbrain-rensa: --evaluator: {name:?} is not auto, classic, learned or tables"
                );
                std::process::exit(2);
            }),
        }
    }
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
        /// Instead of the fixed depth: this many milliseconds a move (as `timeout_turn`),
        /// reporting the depth each search completes (not a signature).
        #[arg(long)]
        time_ms: Option<u64>,
    },
    /// Analyse a position: the best lines and a searched heatmap of the moves near the
    /// stones, as text on stdout and optionally as an SVG image and JSON.
    Analyse(AnalyseArgs),
    /// Serve a board in the browser: play Rensa (or the engine given by `--engine`) and
    /// analyse positions. Prints the page's address; runs until interrupted.
    Gui(GuiArgs),
}

/// The arguments of `gui`.
#[derive(Args)]
struct GuiArgs {
    /// The port to listen on (default: a free one).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// The address to listen on (default 127.0.0.1; anything else is reachable from
    /// other machines, and a warning says so).
    #[arg(long, default_value = "127.0.0.1")]
    host: std::net::IpAddr,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
    /// Host this Gomocup engine (a `pbrain-*` program) instead of playing Rensa.
    #[arg(long)]
    engine: Option<std::path::PathBuf>,
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
    let (evaluator, ordering) = (cli.evaluator(), cli.ordering());
    match cli.command.unwrap_or(Mode::Protocol) {
        Mode::Protocol => run_protocol(evaluator, ordering),
        Mode::Bench {
            time_ms: Some(ms), ..
        } => {
            let lines = rensa::bench::run_timed(ms, evaluator, ordering);
            rensa::bench::print_timed(&lines, ms);
        }
        Mode::Bench { depth, .. } => {
            let lines = rensa::bench::run_with(depth, evaluator, ordering);
            rensa::bench::print(&lines, depth);
        }
        Mode::Gui(args) => {
            let config = rensa::gui::Config {
                host: args.host,
                port: args.port,
                engine: args.engine.map(|p| std::path::absolute(&p).unwrap_or(p)),
                evaluator,
                ordering,
            };
            if let Err(e) = rensa::gui::run(&config, args.open) {
                eprintln!("pbrain-rensa gui: {e}");
                std::process::exit(2);
            }
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

fn run_protocol(evaluator: Evaluator, ordering: MoveOrdering) {
    rensa::pattern::warm_in_background();
    let input = spawn_reader(std::io::stdin());
    let (out, writer) = spawn_writer(std::io::stdout());
    let exit = {
        let mut session = Session::new(out);
        session.set_evaluator(evaluator, ordering);
        session.run(&input)
    };
    log::debug!("session ended: {exit:?}");
    // Every Output handle is gone once the session is dropped: the writer drains and ends.
    let _ = writer.join();
    // Search threads may still be winding down; END must not wait for them.
    std::process::exit(0);
}
