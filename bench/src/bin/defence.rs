//! `defence`: a set of positions from real games where the opponent threatens a VCT and a
//! defence exists, and a runner that counts how many of them an engine holds.
//!
//! `defence build` reads game records (`.psq` files), and at each position of a game asks
//! Rensa's threat solver (in-process, a node budget per question) whether the player not
//! to move would win by VCT if it were its turn. Where it would, every legal square within
//! two of a stone is tried as the defender's move: after it the solver looks for the
//! attacker's VCT again. A move after which a win is found *loses* (the line is replayed
//! through the rules); one after which the search ends without a win within its budget
//! *holds*. A position is kept when at least one move holds, at least `--min-losses` lose,
//! no more than `--max-hold-share` of the moves tried hold and no answer was cut off by
//! the budget; positions where the defender has a VCF of its own, or must block a four,
//! are skipped (the defence there is forced or not needed). Each game is read from its
//! end backwards (the latest such position is the one that decided it), at most
//! `--per-game` positions from one game.
//!
//! `defence run` plays an engine (Rensa or another Gomocup engine) over the set through the
//! protocol, one fresh process per position, and counts the positions where its move
//! holds. A move outside the set's lists (a square further away) is checked by the solver
//! with the set's budget.
//!
//! The set file has one position per line, `key=value` fields separated by spaces:
//! `rule=0 size=15 moves=7,7;8,8;... holds=6,8;9,5 loses=5,5;... source=FILE:PLY`, the moves
//! Black first, the defender to move after them; `#` starts a comment line.
//!
//! Examples: `defence build --rule 0 --keep 40 --out bench/defence/freestyle-15.txt GAMES...`
//! and `defence run --engine target/release/pbrain-rensa --set bench/defence/freestyle-15.txt`.

use clap::{Parser, Subcommand};
use rensa::board::{Board, Cell, Color, Pos};
use rensa::records::psq;
use rensa::rules::{self, Rule};
use rensa_bench::defence::{candidates, has_vcf, load_set, vct_verdict, Entry, Verdict};
use rensa_bench::probe;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Parser, Debug)]
#[command(about = "Positions where the opponent threatens a VCT: build the set, run an engine")]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Find defence positions in game records.
    Build(BuildArgs),
    /// Count the positions an engine holds.
    Run(RunArgs),
}

#[derive(clap::Args, Debug)]
struct BuildArgs {
    /// Gomocup rule code of the games (`.psq` files do not record it).
    #[arg(long, default_value_t = 0)]
    rule: i64,
    /// Solver nodes for each question (the threat, and each defence).
    #[arg(long, default_value_t = 2_000_000)]
    nodes: u64,
    /// How many positions to keep.
    #[arg(long, default_value_t = 40)]
    keep: usize,
    /// Most positions taken from one game.
    #[arg(long, default_value_t = 2)]
    per_game: usize,
    /// Fewest losing moves of a kept position.
    #[arg(long, default_value_t = 3)]
    min_losses: usize,
    /// Largest share of holding moves among the moves tried: a position where most moves
    /// hold tests little.
    #[arg(long, default_value_t = 0.25)]
    max_hold_share: f64,
    /// First ply looked at in each game.
    #[arg(long, default_value_t = 8)]
    from_ply: usize,
    /// Where to write the set (stdout when absent).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Game records (`.psq` files, or folders of them).
    #[arg(required = true)]
    games: Vec<PathBuf>,
}

#[derive(clap::Args, Debug)]
struct RunArgs {
    /// The engine executable.
    #[arg(long)]
    engine: PathBuf,
    /// The set file.
    #[arg(long)]
    set: PathBuf,
    /// Time per move in milliseconds (`INFO timeout_turn`).
    #[arg(long, default_value_t = 1000)]
    time_ms: u64,
    /// Engine threads (`INFO thread_num`).
    #[arg(long, default_value_t = 1)]
    threads: u32,
    /// Solver nodes for checking a move outside the set's lists.
    #[arg(long, default_value_t = 2_000_000)]
    nodes: u64,
    /// Pass the engine's stderr through.
    #[arg(long)]
    engine_stderr: bool,
}

fn fail(message: String) -> ! {
    eprintln!("defence: {message}");
    std::process::exit(2);
}

/// Examine the position after `moves`: Some(entry) when it belongs in the set.
fn examine(
    moves: &[Pos],
    size: usize,
    rule: Rule,
    args: &BuildArgs,
    source: String,
) -> Option<Entry> {
    let entry = Entry {
        rule,
        size,
        moves: moves.to_vec(),
        holds: Vec::new(),
        loses: Vec::new(),
        source,
    };
    let (board, defender) = entry.board().ok()?;
    let attacker = defender.opponent();
    // A four to block, or a five or a VCF of the defender's own: not a defence question.
    if board
        .empty_positions()
        .any(|p| rules::is_winning_move(&board, p, attacker, rule))
    {
        return None;
    }
    if has_vcf(&board, rule, defender, args.nodes / 10) {
        return None;
    }
    // The threat: the attacker wins if it may move twice.
    if !matches!(
        vct_verdict(&board, rule, attacker, args.nodes),
        Verdict::Wins(_)
    ) {
        return None;
    }
    let mut holds = Vec::new();
    let mut loses = Vec::new();
    let mut after = board.clone();
    for p in candidates(&board, rule, defender) {
        after.place(p, Cell::Stone(defender));
        let verdict = vct_verdict(&after, rule, attacker, args.nodes);
        after.remove(p);
        match verdict {
            Verdict::Wins(_) => loses.push(p),
            Verdict::NoWin => holds.push(p),
            Verdict::Unknown => return None,
        }
    }
    let tried = holds.len() + loses.len();
    if holds.is_empty()
        || loses.len() < args.min_losses
        || holds.len() as f64 > args.max_hold_share * tried as f64
    {
        return None;
    }
    Some(Entry {
        holds,
        loses,
        ..entry
    })
}

/// Every `.psq` file named, folders expanded, sorted.
fn record_files(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let Ok(dir) = std::fs::read_dir(path) else {
                fail(format!("cannot read {}", path.display()))
            };
            let mut found: Vec<PathBuf> = dir
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "psq"))
                .collect();
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    files
}

fn build(args: &BuildArgs) {
    let rule = Rule::from_code(args.rule)
        .unwrap_or_else(|| fail(format!("bad rule {}", args.rule)))
        .0;
    let files = record_files(&args.games);
    let started = Instant::now();
    let mut kept: Vec<Entry> = Vec::new();
    let mut examined = 0usize;
    let mut games_read = 0usize;
    'games: for file in &files {
        let record = match psq::read(file) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("defence: skipping {}: {e}", file.display());
                continue;
            }
        };
        if record.width != record.height {
            continue;
        }
        games_read += 1;
        let moves: Vec<Pos> = record.moves.iter().map(|m| m.0).collect();
        // The file's last three path parts: matches write records with the same names
        // into `RUN/games/` folders of their own.
        let name = file
            .iter()
            .rev()
            .take(3)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .map(|c| c.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/");
        // From the end of the game backwards: the latest positions are the ones that
        // decided it, and the early ones repeat the opening's threats.
        let mut from_game = 0;
        // The last position before the game's final move has a five to block at best.
        let mut ply = moves.len().saturating_sub(2);
        while ply >= args.from_ply && from_game < args.per_game {
            examined += 1;
            let source = format!("{name}:{ply}");
            if let Some(entry) = examine(&moves[..ply], record.width, rule, args, source) {
                eprintln!(
                    "defence: kept {} ({} hold, {} lose) after {:.0} s",
                    entry.source,
                    entry.holds.len(),
                    entry.loses.len(),
                    started.elapsed().as_secs_f64()
                );
                kept.push(entry);
                from_game += 1;
                if kept.len() >= args.keep {
                    break 'games;
                }
                // The next one from this game, a few moves earlier.
                ply = ply.saturating_sub(6);
            } else {
                ply = ply.saturating_sub(1);
            }
            if ply == 0 {
                break;
            }
        }
    }
    let mut out = String::new();
    out.push_str(&format!(
        "# defence set: {} positions where the side not to move threatens a VCT and a \
         defence exists\n# made by: defence build --rule {} --nodes {} --keep {} --per-game {} \
         --min-losses {} --max-hold-share {} --from-ply {} ({} games read, {} positions examined, \
         {:.0} s)\n",
        kept.len(),
        args.rule,
        args.nodes,
        args.keep,
        args.per_game,
        args.min_losses,
        args.max_hold_share,
        args.from_ply,
        games_read,
        examined,
        started.elapsed().as_secs_f64()
    ));
    for entry in &kept {
        out.push_str(&entry.line());
        out.push('\n');
    }
    match &args.out {
        Some(path) => std::fs::write(path, out)
            .unwrap_or_else(|e| fail(format!("cannot write {}: {e}", path.display()))),
        None => {
            let _ = std::io::stdout().write_all(out.as_bytes());
        }
    }
    eprintln!(
        "defence: {} kept of {examined} positions in {games_read} games, {:.0} s",
        kept.len(),
        started.elapsed().as_secs_f64()
    );
}

/// Does the defender's `mv` hold? From the set's lists, else asked of the solver.
fn judge(entry: &Entry, board: &Board, defender: Color, mv: Pos, nodes: u64) -> &'static str {
    if entry.holds.contains(&mv) {
        return "holds";
    }
    if entry.loses.contains(&mv) {
        return "loses";
    }
    let mut after = board.clone();
    after.place(mv, Cell::Stone(defender));
    match vct_verdict(&after, entry.rule, defender.opponent(), nodes) {
        Verdict::Wins(_) => "loses (checked)",
        Verdict::NoWin => "holds (checked)",
        Verdict::Unknown => "unknown",
    }
}

fn run(args: &RunArgs) {
    let set = load_set(&args.set).unwrap_or_else(|e| fail(e));
    if set.is_empty() {
        fail(format!("{} has no position", args.set.display()));
    }
    println!(
        "{} positions from {}, engine {}, {} ms per move, {} thread(s)",
        set.len(),
        args.set.display(),
        args.engine.display(),
        args.time_ms,
        args.threads
    );
    let (mut held, mut lost, mut failed) = (0, 0, 0);
    for (i, entry) in set.iter().enumerate() {
        let (board, defender) = entry.board().unwrap_or_else(|e| fail(e));
        let answer = probe::ask(&probe::Question {
            engine: &args.engine,
            engine_stderr: args.engine_stderr,
            board: &board,
            to_move: defender,
            rule: entry.rule,
            time_ms: args.time_ms,
            threads: args.threads,
        })
        .and_then(|(reply, took)| Ok((probe::parse_move(&reply, entry.size)?, took)));
        let (text, took) = match answer {
            Ok((mv, took)) if board.is_empty(mv) => {
                let verdict = judge(entry, &board, defender, mv, args.nodes);
                if verdict.starts_with("holds") {
                    held += 1;
                } else {
                    lost += 1;
                }
                (format!("{},{} {verdict}", mv.x(), mv.y()), Some(took))
            }
            Ok((mv, took)) => {
                failed += 1;
                (format!("{},{} FAIL: occupied", mv.x(), mv.y()), Some(took))
            }
            Err(e) => {
                failed += 1;
                (format!("FAIL: {e}"), None)
            }
        };
        println!(
            "{:>3} {:<32} {:>2} hold {:<24} {}",
            i + 1,
            entry.source,
            entry.holds.len(),
            text,
            took.map_or("-".to_string(), |t| format!("{} ms", t.as_millis()))
        );
    }
    println!("held {held} of {}: {lost} lost, {failed} failed", set.len());
}

fn main() {
    let args = Args::parse();
    match &args.command {
        Command::Build(b) => build(b),
        Command::Run(r) => run(r),
    }
}
