//! `bench` nodes per second of the working tree's engine beside those of a tagged
//! baseline build (`baseline-core` by default), measured in one process, one run.
//!
//! The working tree runs its own bench (`pbrain-rensa bench`: fixed depth, one thread) and
//! must reproduce the signature in `bench/signature.txt` before its speed is reported. The
//! baseline has no bench command: each of the same positions is handed to its searcher
//! again and again for a fixed time, and its reported nodes are counted. What a node is
//! differs between builds (an alpha-beta or threat-search node here; a square scored by
//! the one-ply heuristic in baseline-core), so the figures say how fast each build works
//! through its own search, not that one searches better.

use rensa::bench::{position_of, run, signature, BenchPosition, BENCH_DEPTH, POSITIONS};
use rensa_baseline::search::Searcher as _;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The baseline's rule for one of ours.
fn baseline_rule(rule: rensa::rules::Rule) -> rensa_baseline::rules::Rule {
    use rensa::rules::Rule as R;
    use rensa_baseline::rules::Rule as B;
    match rule {
        R::Freestyle => B::Freestyle,
        R::Standard => B::Standard,
        R::Renju => B::Renju,
        R::Caro => B::Caro,
        R::CaroExact => B::CaroExact,
    }
}

/// A bench position as the baseline's type.
fn baseline_position(p: &BenchPosition) -> rensa_baseline::position::Position {
    let mut position =
        rensa_baseline::position::Position::new(p.width, p.height, baseline_rule(p.rule))
            .expect("bench sizes are valid");
    for &(x, y) in p.moves {
        position.play(rensa_baseline::board::Pos::new(x, y));
    }
    position
}

/// One position's baseline measurement.
struct BaselineLine {
    nodes: u64,
    calls: u64,
    elapsed: Duration,
}

/// Run the baseline's searcher on `p` until `min_time` has passed; every call must choose
/// the same empty square (it is deterministic), or the run stops with an error.
fn measure_baseline(p: &BenchPosition, min_time: Duration) -> Result<BaselineLine, String> {
    let position = baseline_position(p);
    let mut searcher = rensa_baseline::search::heuristic::HeuristicSearcher;
    let limits = rensa_baseline::search::Limits::unbounded();
    let stop = AtomicBool::new(false);
    let first = searcher.search(&position, &limits, &stop, &mut |_| {});
    if !position.board().is_empty(first.best) {
        return Err(format!(
            "{}: baseline chose an occupied square {}",
            p.name, first.best
        ));
    }
    let mut line = BaselineLine {
        nodes: 0,
        calls: 0,
        elapsed: Duration::ZERO,
    };
    let start = Instant::now();
    while line.calls == 0 || start.elapsed() < min_time {
        let outcome = searcher.search(&position, &limits, &stop, &mut |_| {});
        if outcome.best != first.best {
            return Err(format!("{}: baseline is not deterministic", p.name));
        }
        line.nodes += outcome.nodes;
        line.calls += 1;
    }
    line.elapsed = start.elapsed();
    Ok(line)
}

fn per_second(nodes: u64, elapsed: Duration) -> u128 {
    u128::from(nodes) * 1_000_000 / elapsed.as_micros().max(1)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let tag = args.next().unwrap_or_else(|| "baseline-core".to_string());
    let signature_file = args
        .next()
        .unwrap_or_else(|| "bench/signature.txt".to_string());
    let min_ms: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(300);

    let expected: u64 = match std::fs::read_to_string(&signature_file) {
        Ok(text) => text.trim().parse().unwrap_or(0),
        Err(e) => {
            eprintln!("cannot read {signature_file}: {e}");
            std::process::exit(2);
        }
    };
    let lines = run(BENCH_DEPTH);
    let total = signature(&lines);
    if total != expected {
        eprintln!("bench signature {total} differs from {signature_file} ({expected}): not timing a wrong search");
        std::process::exit(1);
    }

    println!("bench depth {BENCH_DEPTH}, 1 thread; baseline {tag}: each position for {min_ms} ms");
    println!(
        "{:<22} {:>10} {:>8} {:>10} | {:>12} {:>8} {:>10}",
        "position", "nodes", "ms", "nodes/s", "base nodes", "calls", "nodes/s"
    );
    let (mut main_nodes, mut main_time) = (0u64, Duration::ZERO);
    let (mut base_nodes, mut base_time) = (0u64, Duration::ZERO);
    for (p, l) in POSITIONS.iter().zip(&lines) {
        // The working tree's chosen move must be legal in the position it searched.
        if !position_of(p).board().is_empty(l.best) {
            eprintln!("{}: bench chose an occupied square", p.name);
            std::process::exit(1);
        }
        let b = match measure_baseline(p, Duration::from_millis(min_ms)) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        };
        println!(
            "{:<22} {:>10} {:>8} {:>10} | {:>12} {:>8} {:>10}",
            p.name,
            l.nodes,
            l.elapsed.as_millis(),
            per_second(l.nodes, l.elapsed),
            b.nodes,
            b.calls,
            per_second(b.nodes, b.elapsed)
        );
        main_nodes += l.nodes;
        main_time += l.elapsed;
        base_nodes += b.nodes;
        base_time += b.elapsed;
    }
    let main_nps = per_second(main_nodes, main_time);
    let base_nps = per_second(base_nodes, base_time);
    println!("Bench: {total}");
    println!(
        "main          : {main_nodes} nodes in {} ms, {main_nps} nodes/s",
        main_time.as_millis()
    );
    println!("{tag:<14}: {base_nodes} nodes in {} ms, {base_nps} nodes/s (squares scored by its one-ply heuristic)", base_time.as_millis());
    println!(
        "ratio main/{tag}: {:.3}",
        main_nps as f64 / base_nps.max(1) as f64
    );
}
