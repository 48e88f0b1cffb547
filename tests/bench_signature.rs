//! The bench node count is the engine's search signature: it must match the value recorded
//! in `bench/signature.txt` (commits that change search behaviour update that file and quote
//! the new value as `Bench: <n>`), and it must be the same on every run.

use rensa::bench;

fn recorded() -> u64 {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/bench/signature.txt");
    let text = std::fs::read_to_string(path).expect("bench/signature.txt is tracked");
    text.trim().parse().expect("signature is a number")
}

#[test]
fn bench_signature_matches_the_recorded_value_and_is_deterministic() {
    let first = bench::signature(&bench::run(bench::BENCH_DEPTH));
    assert_eq!(
        first,
        recorded(),
        "bench signature changed: update bench/signature.txt and quote `Bench: {first}` in the commit message"
    );
    // A second run from scratch (fresh tables) gives the same count.
    let second = bench::signature(&bench::run(bench::BENCH_DEPTH));
    assert_eq!(first, second);
}

#[test]
fn the_timed_bench_reports_every_position_with_a_legal_move() {
    // 50 ms a move: a report, not a signature; only what does not depend on the machine
    // is checked.
    let lines = bench::run_timed(
        50,
        rensa::search::Evaluator::default(),
        rensa::search::MoveOrdering::default(),
    );
    assert_eq!(lines.len(), bench::POSITIONS.len());
    for (line, p) in lines.iter().zip(bench::POSITIONS) {
        assert_eq!(line.name, p.name);
        let position = bench::position_of(p);
        assert!(
            position.board().is_empty(line.best),
            "{}: {} is taken",
            p.name,
            line.best
        );
    }
}
