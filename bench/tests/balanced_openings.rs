//! `balanced-openings` as a user runs it: a small set, read back as an opening file.

use rensa_bench::openings::{parse_text, Opening};
use std::process::Command;

fn run(args: &[&str]) -> (String, String, bool) {
    let out = Command::new(env!("CARGO_BIN_EXE_balanced-openings"))
        .args(args)
        .output()
        .expect("balanced-openings runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

#[test]
fn a_small_set_is_kept_distinct_and_reads_back_as_openings() {
    // The repository's own set, so that the test needs no shared data.
    let from = concat!(env!("CARGO_MANIFEST_DIR"), "/openings/freestyle-15.txt");
    let args = [
        "--from",
        from,
        "--rule",
        "0",
        "--size",
        "15",
        "--nodes",
        "3000",
        "--keep",
        "4",
        "--tries",
        "60",
        "--max-score",
        "3000",
        "--seed",
        "7",
    ];
    let (text, log, ok) = run(&args);
    assert!(ok, "{log}");
    let (openings, bad) = parse_text(&text, None);
    assert!(bad.is_empty(), "{bad:?}");
    assert_eq!(openings.len(), 4, "{text}\n{log}");
    // Each is an opening of the file plus two stones, all on the board and distinct.
    let (sources, _) = parse_text(&std::fs::read_to_string(from).unwrap(), None);
    for o in &openings {
        assert!(
            sources
                .iter()
                .any(|src| o.moves.len() == src.moves.len() + 2 && o.moves.starts_with(&src.moves)),
            "{} is no opening of the file plus two moves",
            o.text
        );
        let squares = o.absolute(15, 15);
        assert!(squares
            .iter()
            .all(|&(x, y)| (0..15).contains(&x) && (0..15).contains(&y)));
        let mut s = squares.clone();
        s.sort_unstable();
        s.dedup();
        assert_eq!(s.len(), squares.len(), "{}", o.text);
    }
    let texts: std::collections::HashSet<&str> =
        openings.iter().map(|o: &Opening| o.text.as_str()).collect();
    assert_eq!(texts.len(), openings.len());
    // Every kept opening's score (the comment line after it) is within the bound.
    let scores: Vec<i32> = text
        .lines()
        .filter_map(|l| l.strip_prefix("# score "))
        .map(|s| s.parse().unwrap())
        .collect();
    assert_eq!(scores.len(), 4);
    assert!(scores.iter().all(|s| s.abs() <= 3000), "{scores:?}");
    // The same seed gives the same set.
    assert_eq!(run(&args).0, text);
}

#[test]
fn a_bad_rule_or_file_is_refused_clearly() {
    let (_, log, ok) = run(&["--rule", "77"]);
    assert!(!ok && log.contains("unknown rule code 77"), "{log}");
    let (_, log, ok) = run(&["--size", "40"]);
    assert!(!ok && log.contains("board size 40"), "{log}");
    let (_, log, ok) = run(&["--from", "/nonexistent/openings.txt"]);
    assert!(!ok && log.contains("cannot read"), "{log}");
}
