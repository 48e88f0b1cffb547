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
