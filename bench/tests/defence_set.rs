//! The committed defence set (`bench/defence/`): its positions are what the file says they
//! are, `defence build` finds a position of the set again in a game record, and `defence
//! run` plays an engine over it.

use rensa::board::{Cell, Color};
use rensa::records::{psq, Record};
use rensa::rules;
use rensa_bench::defence::{load_set, vct_verdict, Entry, Verdict};
use std::path::Path;
use std::process::Command;

const DEFENCE: &str = env!("CARGO_BIN_EXE_defence");
const DUMMY: &str = env!("CARGO_BIN_EXE_pbrain-dummy");
/// The budget the set was built with (its header).
const SET_NODES: u64 = 2_000_000;

fn set_path() -> &'static Path {
    Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/defence/freestyle-15.txt"
    ))
}

/// Does the solver find the attacker's VCT?
fn attacker_wins(board: &rensa::board::Board, e: &Entry, attacker: Color) -> bool {
    matches!(
        vct_verdict(board, e.rule, attacker, SET_NODES),
        Verdict::Wins(_)
    )
}

fn the_set() -> Vec<Entry> {
    load_set(set_path()).expect("the committed set reads")
}

#[test]
fn the_set_has_thirty_or_more_well_formed_positions() {
    let set = the_set();
    assert!(set.len() >= 30, "{} positions", set.len());
    for e in &set {
        let (board, defender) = e.board().expect("the moves fit the board");
        assert!(!e.holds.is_empty(), "{}: no holding move", e.source);
        assert!(
            e.loses.len() >= 3,
            "{}: fewer than 3 losing moves",
            e.source
        );
        for p in e.holds.iter().chain(&e.loses) {
            assert!(board.is_empty(*p), "{}: {p:?} is taken", e.source);
            assert!(!e.holds.contains(p) || !e.loses.contains(p), "{}", e.source);
        }
        // No four of the attacker's to block: the defence is a choice.
        let attacker = defender.opponent();
        assert!(
            !board
                .empty_positions()
                .any(|p| rules::is_winning_move(&board, p, attacker, e.rule)),
            "{}: a four to block",
            e.source
        );
    }
}

#[test]
fn holding_and_losing_moves_are_what_the_solver_says() {
    // A few positions spread over the set; the solver is deterministic.
    let set = the_set();
    for e in set.iter().step_by(set.len() / 4) {
        let (board, defender) = e.board().unwrap();
        let attacker = defender.opponent();
        // The threat itself: the attacker wins if it may move twice.
        assert!(
            attacker_wins(&board, e, attacker),
            "{}: no threat",
            e.source
        );
        let mut after = board.clone();
        let hold = e.holds[0];
        after.place(hold, Cell::Stone(defender));
        assert_eq!(
            vct_verdict(&after, e.rule, attacker, SET_NODES),
            Verdict::NoWin,
            "{}: {hold:?} should hold",
            e.source
        );
        after.remove(hold);
        let lose = e.loses[e.loses.len() / 2];
        after.place(lose, Cell::Stone(defender));
        assert!(
            attacker_wins(&after, e, attacker),
            "{}: {lose:?} should lose",
            e.source
        );
    }
}

#[test]
fn build_finds_a_set_position_in_a_game_record() {
    let set = the_set();
    let e = &set[0];
    // The game goes on past the position by a losing defence and a reply, so that the
    // builder (reading from the end backwards) meets the position first.
    let (mut board, defender) = e.board().unwrap();
    let lose = e.loses[0];
    board.place(lose, Cell::Stone(defender));
    let reply = board.empty_positions().next().expect("an empty square");
    let mut moves: Vec<_> = e.moves.iter().map(|&p| (p, 0)).collect();
    moves.push((lose, 0));
    moves.push((reply, 0));
    let record = Record {
        width: e.size,
        height: e.size,
        moves,
        ..Record::default()
    };
    let dir = std::env::temp_dir().join(format!("rensa-defence-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("game.psq"), psq::text(&record)).unwrap();
    let out = Command::new(DEFENCE)
        .args(["build", "--rule", "0", "--keep", "1", "--per-game", "1"])
        .arg(&dir)
        .output()
        .expect("defence build runs");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let found: Vec<Entry> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| Entry::parse(l).unwrap())
        .collect();
    assert_eq!(found.len(), 1, "{text}");
    assert_eq!(found[0].moves, e.moves);
    assert_eq!(found[0].holds, e.holds);
    assert_eq!(found[0].loses, e.loses);
    assert_eq!(
        found[0].board().unwrap().1,
        if e.moves.len().is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    );
}

#[test]
fn run_plays_an_engine_over_the_set_and_counts() {
    // The first three positions, through the test engine (it plays some legal move).
    let text = std::fs::read_to_string(set_path()).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    let dir = std::env::temp_dir().join(format!("rensa-defence-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let small = dir.join("three.txt");
    std::fs::write(&small, lines[..3].join("\n")).unwrap();
    let out = Command::new(DEFENCE)
        .args(["run", "--engine", DUMMY, "--time-ms", "200", "--set"])
        .arg(&small)
        .output()
        .expect("defence run runs");
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let last = stdout.lines().last().unwrap_or("");
    let held: usize = last
        .strip_prefix("held ")
        .and_then(|r| r.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no summary: {stdout}"));
    assert!(held <= 3);
    assert!(last.contains("of 3:"), "{last}");
    // One line per position, each with a verdict.
    let verdicts = stdout
        .lines()
        .filter(|l| l.contains("holds") || l.contains("loses"))
        .count();
    assert_eq!(verdicts, 3, "{stdout}");
}
