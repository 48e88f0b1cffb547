//! `puzzles`: play a Gomocup engine (Rensa or another) over the renju puzzles of
//! `shared/testdata/quintet/cases/` (renju-note/quintet, MIT) through the protocol.
//!
//! For every case a fresh engine process gets `START 15`, the rule and time `INFO`s and the
//! position as `BOARD` (the attacker's stones as field 1, so the engine plays the attacker),
//! then one move is read. The case passes when the move is the published first move of the
//! winning line. Any other legal move is an *alternative*, and Rensa's own threat solver
//! (in-process, one thread, ten times the engine's time) tries to prove that it still wins:
//! after the move, every defender reply must lose (the forced block after a four, or every
//! legal reply otherwise) to a VCF or VCT (the case's mode) of the attacker. Cases published
//! as `disproven` have no winning first move: they are listed but not counted.
//!
//! Output: one line per case (name, mode, published first move, engine move, result, time),
//! a summary, and last `N passed, M failed` (passed = published move; failed = anything but
//! the published move or a proven alternative; proven alternatives are counted apart).
//! The exit status is 1 when a case failed.
//!
//! Example: `puzzles --engine target/release/pbrain-rensa --time-ms 1000`.

use clap::Parser;
use rensa::board::{Board, Cell, Color, Pos};
use rensa::rules::{self, Rule};
use rensa::search::threat::{ThreatLimits, ThreatSolver};
use rensa_bench::probe;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Board side of every quintet case.
const SIZE: usize = 15;

/// The solver's budget for proving an alternative, as a multiple of the engine's time.
const PROOF_FACTOR: u32 = 10;

#[derive(Parser, Debug)]
#[command(
    name = "puzzles",
    about = "Play a Gomocup engine over the quintet renju puzzles"
)]
struct Options {
    /// The engine executable.
    #[arg(long)]
    engine: PathBuf,
    /// Time per move in milliseconds (sent as `INFO timeout_turn`).
    #[arg(long, default_value_t = 1000)]
    time_ms: u64,
    /// Folder of case files (default: ../shared/testdata/quintet/cases beside the workspace).
    #[arg(long)]
    cases: Option<PathBuf>,
    /// Only cases whose name contains this text.
    #[arg(long)]
    filter: Option<String>,
    /// Engine threads (sent as `INFO thread_num`).
    #[arg(long, default_value_t = 1)]
    threads: u32,
    /// Pass the engine's stderr (its log) through instead of discarding it.
    #[arg(long)]
    engine_stderr: bool,
}

/// The published quintet cases.
use rensa::quintet as case;

/// Ask the engine for its move in `case`. Returns the reply line and the time taken.
fn ask_engine(opts: &Options, case: &case::Case) -> Result<(String, Duration), String> {
    probe::ask(&probe::Question {
        engine: &opts.engine,
        engine_stderr: opts.engine_stderr,
        board: &case.board,
        to_move: case.attacker,
        rule: Rule::Renju,
        time_ms: opts.time_ms,
        threads: opts.threads,
    })
}

/// Run `f` with a stop flag that is raised after `budget`.
fn with_budget<T>(budget: Duration, f: impl FnOnce(&AtomicBool) -> T) -> T {
    let stop = AtomicBool::new(false);
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        let timer = s.spawn(|| {
            let end = Instant::now() + budget;
            while !done.load(Ordering::Relaxed) {
                let now = Instant::now();
                if now >= end {
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
                std::thread::park_timeout((end - now).min(Duration::from_millis(20)));
            }
        });
        let result = f(&stop);
        done.store(true, Ordering::Relaxed);
        timer.thread().unpark();
        result
    })
}

/// Winning squares of `color` (empty squares where one stone wins).
fn winning_squares(board: &Board, color: Color) -> Vec<Pos> {
    board
        .empty_positions()
        .filter(|&p| rules::is_winning_move(board, p, color, Rule::Renju))
        .collect()
}

/// Whether the attacker still wins after playing `mv`: Ok(how) when proven, Err(why not).
fn prove_alternative(case: &case::Case, mv: Pos, stop: &AtomicBool) -> Result<String, String> {
    let a = case.attacker;
    let d = a.opponent();
    let mut board = case.board.clone();
    if rules::is_winning_move(&board, mv, a, Rule::Renju) {
        return Ok("a five".into());
    }
    board.place(mv, Cell::Stone(a));
    if !winning_squares(&board, d).is_empty() {
        return Err("the defender can make a five".into());
    }
    let fives = winning_squares(&board, a);
    let replies: Vec<Pos> = match fives.len() {
        0 => {
            // No four: every legal reply, nearest first (the likeliest refutations).
            let mut all: Vec<Pos> = board.empty_positions().collect();
            all.retain(|&p| !rules::is_forbidden(&mut board, p, d, Rule::Renju));
            let dist = |p: Pos| p.x().abs_diff(mv.x()).max(p.y().abs_diff(mv.y()));
            all.sort_by_key(|&p| (dist(p), p));
            all
        }
        1 if rules::is_forbidden(&mut board, fives[0], d, Rule::Renju) => {
            return Ok("a four whose block is forbidden".into())
        }
        1 => fives.clone(),
        // Under renju one stone never stops two fives.
        _ => return Ok("an open or double four".into()),
    };
    // VCF cases: no limit on the number of fours. VCT: the case's limit plus two (after the
    // move, three moves of slack, as the solver counts forced blocks that quintet does not).
    let depth = match case.mode {
        case::Mode::Vcf => 255,
        case::Mode::Vct => case.limit + 2,
    };
    let limits = ThreatLimits {
        max_attacker_moves: depth,
        max_nodes: u64::MAX,
    };
    let mut nodes = 0;
    for &r in &replies {
        board.place(r, Cell::Stone(d));
        let mut solver = ThreatSolver::new(&board, Rule::Renju, a, limits).with_stop(stop);
        let line = match case.mode {
            case::Mode::Vcf => solver.vcf(),
            case::Mode::Vct => solver.vct(),
        };
        nodes += solver.nodes();
        board.remove(r);
        if line.is_none() {
            let why = if solver.aborted() {
                "out of time"
            } else {
                "no win found"
            };
            return Err(format!(
                "after the reply {}: {} ({} of {} replies refuted)",
                case::point_name(r),
                why,
                replies.iter().position(|&q| q == r).unwrap_or(0),
                replies.len()
            ));
        }
    }
    Ok(format!(
        "all {} replies lose to a {}, {nodes} nodes",
        replies.len(),
        case.mode.name()
    ))
}

/// What happened in one case.
enum Outcome {
    Pass,
    ProvenAlternative,
    Fail,
    Listed,
}

fn run_case(opts: &Options, case: &case::Case) -> (Outcome, String) {
    let expected = case.expect.as_ref().map(|line| line[0]);
    let expected_text = expected.map_or("-".to_string(), case::point_name);
    let head = |engine_move: &str, result: &str, ms: Option<u128>| {
        format!(
            "{:<26} {:<4} expect {:<4} engine {:<8} {:<60} {}",
            case.name,
            case.mode.name(),
            expected_text,
            engine_move,
            result,
            ms.map_or("-".to_string(), |ms| format!("{ms} ms"))
        )
    };
    let (reply, took) = match ask_engine(opts, case) {
        Ok(answer) => answer,
        Err(e) => {
            let outcome = if expected.is_some() {
                Outcome::Fail
            } else {
                Outcome::Listed
            };
            return (outcome, head("-", &format!("FAIL: {e}"), None));
        }
    };
    let ms = Some(took.as_millis());
    let mv = match probe::parse_move(&reply, SIZE) {
        Ok(mv) if case.board.is_empty(mv) => mv,
        Ok(_) => return (Outcome::Fail, head(&reply, "FAIL: occupied square", ms)),
        Err(e) => return (Outcome::Fail, head(&reply, &format!("FAIL: {e}"), ms)),
    };
    let name = case::point_name(mv);
    let mut scratch = case.board.clone();
    if rules::is_forbidden(&mut scratch, mv, case.attacker, Rule::Renju) {
        return (Outcome::Fail, head(&name, "FAIL: forbidden move", ms));
    }
    let Some(expected) = expected else {
        return (
            Outcome::Listed,
            head(&name, "listed only (published: no win)", ms),
        );
    };
    if mv == expected {
        return (Outcome::Pass, head(&name, "pass", ms));
    }
    let budget = Duration::from_millis(opts.time_ms) * PROOF_FACTOR;
    let started = Instant::now();
    let proof = with_budget(budget, |stop| prove_alternative(case, mv, stop));
    let proof_ms = started.elapsed().as_millis();
    match proof {
        Ok(how) => (
            Outcome::ProvenAlternative,
            head(
                &name,
                &format!("alternative (proven: {how}; {proof_ms} ms)"),
                ms,
            ),
        ),
        Err(why) => (
            Outcome::Fail,
            head(
                &name,
                &format!("alternative (unproven: {why}; {proof_ms} ms)"),
                ms,
            ),
        ),
    }
}

fn default_cases_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/testdata/quintet/cases");
    dir.canonicalize().unwrap_or(dir)
}

fn main() {
    let opts = Options::parse();
    let dir = opts.cases.clone().unwrap_or_else(default_cases_dir);
    let cases = match case::load(&dir) {
        Ok(cases) => cases,
        Err(e) => {
            eprintln!("puzzles: {e}");
            std::process::exit(2);
        }
    };
    let cases: Vec<_> = cases
        .into_iter()
        .filter(|c| {
            opts.filter
                .as_ref()
                .is_none_or(|f| c.name.contains(f.as_str()))
        })
        .collect();
    if cases.is_empty() {
        eprintln!("puzzles: no case in {} matches", dir.display());
        std::process::exit(2);
    }
    println!(
        "{} cases from {}, engine {}, {} ms per move, {} thread(s)",
        cases.len(),
        dir.display(),
        opts.engine.display(),
        opts.time_ms,
        opts.threads
    );
    let started = Instant::now();
    let (mut passed, mut failed, mut proven, mut listed) = (0, 0, 0, 0);
    for case in &cases {
        let (outcome, line) = run_case(&opts, case);
        println!("{line}");
        match outcome {
            Outcome::Pass => passed += 1,
            Outcome::ProvenAlternative => proven += 1,
            Outcome::Fail => failed += 1,
            Outcome::Listed => listed += 1,
        }
    }
    println!(
        "{} cases counted: {passed} published first moves, {proven} proven alternatives, \
         {failed} failed; {listed} listed only (no published win); {:.1} s in all",
        passed + proven + failed,
        started.elapsed().as_secs_f64()
    );
    println!("{passed} passed, {failed} failed");
    if failed > 0 {
        std::process::exit(1);
    }
}
