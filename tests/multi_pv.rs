//! Multi-PV searches (`YXNBEST`, `YXSEARCHDEFEND`) and blocked root moves (`YXBLOCK`),
//! through the searcher: lines are distinct, legal and sorted by score; forced and proven
//! positions answer as single-PV does; blocked moves are never chosen unless they are all
//! there is. On the bench positions the agreement of multi-PV's first move with single-PV's
//! is printed (`cargo test --release --test multi_pv -- --nocapture`).

use rensa::bench::{position_of, POSITIONS};
use rensa::board::{Color, Pos};
use rensa::position::Position;
use rensa::rules::Rule;
use rensa::search::tt::TranspositionTable;
use rensa::search::{AlphaBetaSearcher, Limits, SearchInfo, SearchOutcome, Searcher};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Search to `depth` with a fresh table; returns the outcome and the last iteration's
/// lines (score, line) in the order reported.
fn search(
    position: &Position,
    depth: u32,
    multi_pv: usize,
    blocked: &[Pos],
) -> (SearchOutcome, Vec<(i32, Vec<Pos>)>) {
    let table = Arc::new(TranspositionTable::new(8 << 20));
    let mut searcher = AlphaBetaSearcher::new(table, 1);
    let limits = Limits {
        max_depth: Some(depth),
        multi_pv,
        blocked: blocked.to_vec(),
        ..Limits::unbounded()
    };
    let mut reports: Vec<SearchInfo> = Vec::new();
    let stop = AtomicBool::new(false);
    let outcome = searcher.search(position, &limits, &stop, &mut |i| reports.push(i.clone()));
    let last_depth = reports.iter().map(|r| r.depth).max().unwrap_or(0);
    let lines = reports
        .iter()
        .filter(|r| r.depth == last_depth)
        .map(|r| (r.score, r.pv.clone()))
        .collect();
    (outcome, lines)
}

fn check_lines(position: &Position, lines: &[(i32, Vec<Pos>)], what: &str) {
    let mut firsts = Vec::new();
    for (i, (score, line)) in lines.iter().enumerate() {
        assert!(!line.is_empty(), "{what}: line {i} is empty");
        let mut p = position.clone();
        for &m in line {
            assert!(p.is_legal(m), "{what}: line {i} plays the illegal {m}");
            p.play(m);
            if p.last_move_won() {
                break;
            }
        }
        assert!(
            !firsts.contains(&line[0]),
            "{what}: {} heads two lines",
            line[0]
        );
        firsts.push(line[0]);
        if i > 0 {
            assert!(
                lines[i - 1].0 >= *score,
                "{what}: lines not sorted by score"
            );
        }
    }
}

fn from_diagram(diagram: &str, to_move: Color, rule: Rule) -> Position {
    Position::from_ascii(diagram, to_move, rule).unwrap()
}

#[test]
fn lines_on_the_bench_positions_are_distinct_legal_sorted_and_mostly_agree() {
    let mut agree = 0;
    for p in POSITIONS {
        let position = position_of(p);
        let (single, _) = search(&position, 5, 1, &[]);
        let (multi, lines) = search(&position, 5, 3, &[]);
        check_lines(&position, &lines, p.name);
        assert!(!lines.is_empty(), "{}: no line", p.name);
        assert_eq!(
            multi.best, lines[0].1[0],
            "{}: the answer heads line 1",
            p.name
        );
        agree += usize::from(single.best == multi.best);
    }
    eprintln!(
        "multi-PV 3 against single-PV at depth 5: same first move on {agree} of {} bench positions",
        POSITIONS.len()
    );
    assert!(
        2 * agree >= POSITIONS.len(),
        "agreement {agree}/{}",
        POSITIONS.len()
    );
}

#[test]
fn forced_and_proven_positions_answer_as_single_pv_does() {
    // X to move: a five to make; O to move: a five to block.
    let four = ".........
                 OXXXX....
                 .........
                 ..OOO....
                 .........";
    for to_move in [Color::Black, Color::White] {
        let position = from_diagram(four, to_move, Rule::Freestyle);
        let (single, _) = search(&position, 4, 1, &[]);
        let (multi, lines) = search(&position, 4, 4, &[]);
        assert_eq!(single.best, Pos::new(5, 1), "{to_move:?}");
        assert_eq!(multi.best, single.best, "{to_move:?}");
        check_lines(&position, &lines, "forced");
        assert!(
            lines.len() >= 2,
            "more lines than the forced one: {lines:?}"
        );
    }
}

#[test]
fn blocked_moves_are_not_chosen_unless_nothing_else_is_left() {
    let position = position_of(&POSITIONS[0]);
    let (free, _) = search(&position, 4, 1, &[]);
    let (blocked, lines) = search(&position, 4, 3, &[free.best]);
    assert_ne!(blocked.best, free.best);
    assert!(lines.iter().all(|(_, l)| l[0] != free.best));
    assert!(!blocked.blocks_ignored);
    let (single, _) = search(&position, 4, 1, &[free.best]);
    assert_ne!(single.best, free.best);
    // A five that is blocked is not played.
    let five = from_diagram(
        ".........
         .XXXX....
         .........
         ..OO.....
         .........",
        Color::Black,
        Rule::Freestyle,
    );
    let (won, _) = search(&five, 3, 1, &[]);
    let (other, _) = search(&five, 3, 1, &[won.best]);
    assert_ne!(other.best, won.best);
    // Every move blocked: the block is ignored and the outcome says so.
    let full = from_diagram(
        "XOXOX
         XOXOX
         OXOXO
         OXO.O
         XOXOX",
        Color::Black,
        Rule::Freestyle,
    );
    let (only, _) = search(&full, 2, 1, &[Pos::new(3, 3)]);
    assert_eq!(only.best, Pos::new(3, 3));
    assert!(only.blocks_ignored);
}
