//! `rensa-match`: engine-vs-engine matches, gauntlets and round robins for Gomocup-protocol
//! engines, with openings, SPRT, Elo and game records. See `bench/README.md`.

use clap::{ArgAction, CommandFactory, FromArgMatches, Parser, ValueEnum};
use rensa::client::spec::seconds_to_ms;
use rensa::records::openings::OpeningFormat;
use rensa_bench::config::{key_values, parse_board_size, parse_rule, EngineOptions};
use rensa_bench::openings::{read_file, OpeningBook};
use rensa_bench::report::{summary_json, summary_text, ProgressMode, Reporter};
use rensa_bench::rng::Rng;
use rensa_bench::stats::Sprt;
use rensa_bench::tournament::{resolve_names, run, MatchConfig, Schedule};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Progress {
    /// A live line on a terminal, plain lines otherwise.
    Auto,
    /// One line per game and score update.
    Plain,
    /// Only the final tables.
    Quiet,
}

/// Play Gomocup-protocol engines against each other.
#[derive(Parser, Debug)]
#[command(
    name = "rensa-match",
    version,
    args_override_self = true,
    about = "Engine-vs-engine matches for Gomocup-protocol engines (Gomoku, Renju, Caro)",
    after_help = "Engine keys: cmd=\"PATH ARGS\" name=NAME tc=MATCH/TURN+INC (seconds) \
tolerance=SECS maxmemory=BYTES thread=N depth=N nodes=N dir=WORKDIR stderr=1 option.KEY=VALUE\n\
Openings keys: file=PATH type=offset|pos order=random|sequential srand=SEED\n\
SPRT keys: elo0=0 elo1=10 alpha=0.05 beta=0.05\n\
Example: rensa-match --engine cmd=./pbrain-rensa --engine cmd=./pbrain-other \
--each tc=10/1 --games 100 --concurrency 2 --openings file=openings.txt order=random \
--sprt elo0=0 elo1=10 --pentanomial --psq games/ --json summary.json"
)]
struct Cli {
    /// An engine: KEY=VALUE words (repeat --engine for each engine, at least two).
    #[arg(long, num_args = 1.., action = ArgAction::Append, value_name = "KEY=VALUE")]
    engine: Vec<String>,
    /// KEY=VALUE settings applied to every engine (an engine's own settings win).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    each: Vec<String>,
    /// Rule: 0 freestyle, 1 standard (exact five), 4 renju, 8 caro, 9 caro with exact five.
    #[arg(long, default_value = "0")]
    rule: String,
    /// Board size N or WxH (5 to 32 per side).
    #[arg(long, default_value = "15")]
    boardsize: String,
    /// Games per encounter and round.
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Rounds (every encounter is played again in each round).
    #[arg(long, default_value_t = 1)]
    rounds: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Opening file: file=PATH [type=offset|pos] [order=random|sequential] [srand=N].
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    openings: Option<Vec<String>>,
    /// Play each opening twice with colours swapped (the default).
    #[arg(long, overrides_with = "no_repeat")]
    repeat: bool,
    /// Play every game with a new opening, alternating colours.
    #[arg(long)]
    no_repeat: bool,
    /// Apply a new board symmetry on every pass through the opening file.
    #[arg(long)]
    transform: bool,
    /// The first engine plays each of the others.
    #[arg(long, conflicts_with = "roundrobin")]
    gauntlet: bool,
    /// Every engine plays every other (the default).
    #[arg(long)]
    roundrobin: bool,
    /// Sequential test between two engines: [elo0=0] [elo1=10] [alpha=0.05] [beta=0.05].
    #[arg(long, num_args = 0.., value_name = "KEY=VALUE")]
    sprt: Option<Vec<String>>,
    /// Use the pentanomial SPRT over colour-swapped game pairs.
    #[arg(long)]
    pentanomial: bool,
    /// Draw a game once this many stones (opening included) are on the board.
    #[arg(long)]
    drawafter: Option<usize>,
    /// Default tolerance in seconds on every time limit and for START/ABOUT replies.
    #[arg(long, default_value = "3")]
    tolerance: String,
    /// GomocupJudge mode: fresh process per game, suspended while not its turn, memory
    /// checked after every move, renju drawn at size²-25 stones.
    #[arg(long)]
    gomocupjudge: bool,
    /// Send the whole position with BOARD before every move instead of TURN.
    #[arg(long)]
    sendbyboard: bool,
    /// Write one .psq record per game into this directory.
    #[arg(long, value_name = "DIR")]
    psq: Option<PathBuf>,
    /// Write all games to this SGF collection.
    #[arg(long, value_name = "FILE")]
    sgf: Option<PathBuf>,
    /// Write the engines' MESSAGE lines to this file.
    #[arg(long, value_name = "FILE")]
    msg: Option<PathBuf>,
    /// Write the JSON summary to this file.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Resume the interrupted match whose JSON summary is `--json` (its journal,
    /// `FILE.journal`, records the finished games): same options, the games played
    /// count, the rest are played, records are appended to.
    #[arg(long, requires = "json")]
    resume: bool,
    /// Log all engine I/O with timestamps to this file.
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Progress display.
    #[arg(long, value_enum, default_value = "auto")]
    progress: Progress,
}

fn build(cli: &Cli, engine_words: &[Vec<String>]) -> Result<MatchConfig, String> {
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    let tolerance = Duration::from_millis(seconds_to_ms(&cli.tolerance)?);
    let each = EngineOptions::parse(&cli.each)?;
    let mut engines = Vec::new();
    for (i, words) in engine_words.iter().enumerate() {
        let own = EngineOptions::parse(words).map_err(|e| format!("engine {}: {e}", i + 1))?;
        let spec = EngineOptions::merged(&each, &own)
            .build(&cwd, tolerance)
            .map_err(|e| format!("engine {}: {e}", i + 1))?;
        engines.push(spec);
    }
    let mut config = MatchConfig::new(engines);
    config.rule = parse_rule(&cli.rule)?;
    (config.width, config.height) = parse_board_size(&cli.boardsize)?;
    config.games = cli.games;
    config.rounds = cli.rounds;
    config.concurrency = cli.concurrency;
    config.repeat = !cli.no_repeat || cli.repeat;
    config.schedule = if cli.gauntlet {
        Schedule::Gauntlet
    } else {
        Schedule::RoundRobin
    };
    config.pentanomial = cli.pentanomial;
    config.draw_after = cli.drawafter;
    config.judge = cli.gomocupjudge;
    config.send_by_board = cli.sendbyboard;
    config.psq_dir = cli.psq.clone();
    config.sgf = cli.sgf.clone();
    config.msg = cli.msg.clone();
    config.log = cli.log.clone();
    config.journal = cli.json.as_deref().map(rensa_bench::journal::path_for);
    config.resume = cli.resume;
    // A resumed match takes its openings' seed from the journal unless one is given.
    let journal_seed = match (&config.journal, cli.resume) {
        (Some(path), true) => std::fs::read_to_string(path)
            .ok()
            .and_then(|t| t.lines().next().and_then(rensa_bench::journal::seed_in)),
        _ => None,
    };
    if let Some(words) = &cli.sprt {
        let mut s = Sprt::default();
        for (k, v) in key_values(words, &["elo0", "elo1", "alpha", "beta"])? {
            let x: f64 = v
                .parse()
                .map_err(|_| format!("--sprt {k}={v}: not a number"))?;
            match k.as_str() {
                "elo0" => s.elo0 = x,
                "elo1" => s.elo1 = x,
                "alpha" => s.alpha = x,
                _ => s.beta = x,
            }
        }
        config.sprt = Some(s);
    }
    if let Some(words) = &cli.openings {
        let mut file = None;
        let mut format = None;
        let mut random = false;
        let mut seed = None;
        for (k, v) in key_values(words, &["file", "type", "order", "srand"])? {
            match k.as_str() {
                "file" => file = Some(PathBuf::from(v)),
                "type" => format = Some(OpeningFormat::parse(&v)?),
                "order" => {
                    random = match v.as_str() {
                        "random" => true,
                        "sequential" => false,
                        _ => return Err(format!("order must be random or sequential, got {v:?}")),
                    }
                }
                _ => {
                    seed = Some(
                        v.parse::<u64>()
                            .map_err(|_| format!("srand={v}: not an integer"))?,
                    )
                }
            }
        }
        let file = file.ok_or("--openings needs file=")?;
        let (list, bad) = read_file(&file, format)?;
        let seed = seed.or(journal_seed).unwrap_or_else(Rng::seed_from_time);
        if random {
            println!("openings: random order with srand={seed}");
            config.opening_seed = Some(seed);
        }
        let mut book = OpeningBook::new(
            list,
            config.width,
            config.height,
            config.rule,
            random,
            seed,
            cli.transform,
        );
        for (line, why) in bad {
            book.skipped.push((line, String::new(), why));
        }
        config.openings = Some(book);
    }
    config.validate()?;
    Ok(config)
}

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    // One group of KEY=VALUE words per --engine occurrence.
    let engine_words: Vec<Vec<String>> = matches
        .get_occurrences::<String>("engine")
        .map(|occ| occ.map(|words| words.cloned().collect()).collect())
        .unwrap_or_default();
    debug_assert_eq!(engine_words.concat(), cli.engine);
    let config = match build(&cli, &engine_words) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("rensa-match: {e}");
            std::process::exit(2);
        }
    };
    rensa::client::sys::install_interrupt_handler();
    let names = resolve_names(&config.engines);
    let mut reporter = Reporter::new(match cli.progress {
        Progress::Auto => ProgressMode::Auto,
        Progress::Plain => ProgressMode::Plain,
        Progress::Quiet => ProgressMode::Quiet,
    });
    let summary = match run(&config, names, &mut reporter) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("rensa-match: {e}");
            std::process::exit(2);
        }
    };
    // Ignore a closed stdout (e.g. piped into `head`) instead of panicking.
    let _ = std::io::stdout().write_all(summary_text(&summary, &config).as_bytes());
    if let Some(path) = &cli.json {
        if let Err(e) = std::fs::write(path, summary_json(&summary, &config).pretty()) {
            eprintln!("rensa-match: {}: {e}", path.display());
            std::process::exit(2);
        }
    }
}
