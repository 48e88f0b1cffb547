//! `solver-time`: the threat solvers on the quintet puzzles in-process, timed.
//!
//! Every quintet case (`../shared/testdata/quintet/cases`) is given to the solver it is
//! about (`ThreatSolver::vcf` or `vct`, renju, the case's attacker) with a node budget, and
//! the answer is checked before any time counts: a case with a published line must be
//! won by a line that replays as a win (`replay_is_win`), a `disproven` case must end
//! without a win and without running out. The whole set is solved `--runs` times; the
//! fastest run's time is reported per mode, so that two builds of the solvers can be
//! compared by time (a change to the solvers changes what a node is, so node counts do
//! not compare). Exits non-zero when any answer is wrong.
//!
//! Example: `solver-time --runs 5`.

use clap::Parser;
use rensa::quintet::{self, Mode};
use rensa::rules::Rule;
use rensa::search::threat::{replay_is_win, ThreatLimits, ThreatSolver};
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Parser, Debug)]
#[command(about = "Time the threat solvers on the quintet puzzles, in-process")]
struct Args {
    /// Folder of case files (default: ../shared/testdata/quintet/cases beside the workspace).
    #[arg(long)]
    cases: Option<PathBuf>,
    /// Times the whole set is solved; the fastest run counts.
    #[arg(long, default_value_t = 3)]
    runs: u32,
    /// Most attacker moves of a VCT (the engine's root VCT allows 24; VCF lines are not
    /// limited).
    #[arg(long, default_value_t = 24)]
    vct_moves: u32,
    /// Node budget of one solver call.
    #[arg(long, default_value_t = 20_000_000)]
    max_nodes: u64,
}

/// One mode's figures in one run.
#[derive(Default, Clone, Copy)]
struct Tally {
    cases: usize,
    right: usize,
    nodes: u64,
    time: Duration,
}

fn main() {
    let args = Args::parse();
    let dir = args.cases.clone().unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/testdata/quintet/cases")
    });
    let cases = match quintet::load(&dir) {
        Ok(c) if !c.is_empty() => c,
        Ok(_) => {
            eprintln!("solver-time: no cases in {}", dir.display());
            std::process::exit(2);
        }
        Err(e) => {
            eprintln!("solver-time: {e}");
            std::process::exit(2);
        }
    };
    let mut best: [Option<Tally>; 2] = [None, None];
    let mut wrong = Vec::new();
    for run in 0..args.runs.max(1) {
        let mut tallies = [Tally::default(); 2];
        for case in &cases {
            let t = &mut tallies[usize::from(case.mode == Mode::Vct)];
            let limits = ThreatLimits {
                // As the engine's root calls them.
                max_attacker_moves: match case.mode {
                    Mode::Vcf => 255,
                    Mode::Vct => args.vct_moves,
                },
                max_nodes: args.max_nodes,
            };
            let start = Instant::now();
            let mut solver = ThreatSolver::new(&case.board, Rule::Renju, case.attacker, limits);
            let line = match case.mode {
                Mode::Vcf => solver.vcf(),
                Mode::Vct => solver.vct(),
            };
            t.time += start.elapsed();
            t.nodes += solver.nodes();
            t.cases += 1;
            // A `disproven` case with a threat limit is disproven under that limit only,
            // which the solver does not take: a win it finds must then replay.
            let right = match (&case.expect, &line) {
                (Some(_), Some(l)) => replay_is_win(&case.board, Rule::Renju, case.attacker, l),
                (None, Some(l)) if case.threat_limit.is_some() => {
                    replay_is_win(&case.board, Rule::Renju, case.attacker, l)
                }
                (None, None) => !solver.aborted(),
                _ => false,
            };
            if right {
                t.right += 1;
            } else if run == 0 {
                wrong.push(format!(
                    "{} ({}, {} nodes, {:.2} s)",
                    case.name,
                    match (&line, solver.aborted()) {
                        (Some(_), _) => "a line that does not replay",
                        (None, true) => "ran out",
                        (None, false) => "no win found",
                    },
                    solver.nodes(),
                    start.elapsed().as_secs_f64()
                ));
            }
        }
        for (slot, t) in best.iter_mut().zip(tallies) {
            if slot.is_none_or(|b| t.time < b.time) {
                *slot = Some(t);
            }
        }
        let total: Duration = tallies.iter().map(|t| t.time).sum();
        eprintln!("run {}: {:.3} s", run + 1, total.as_secs_f64());
    }
    for (mode, t) in ["VCF", "VCT"].iter().zip(best.iter().flatten()) {
        println!(
            "{mode}: {}/{} right, {} nodes, fastest run {:.3} s",
            t.right,
            t.cases,
            t.nodes,
            t.time.as_secs_f64()
        );
    }
    if !wrong.is_empty() {
        println!("wrong: {}", wrong.join(", "));
        std::process::exit(1);
    }
}
