//! A generated soundness set for the VCF solver: for every rule, a thousand 15x15 positions
//! from random games with a tactical bias (moves that extend lines, blocks of fives), labelled
//! by the slow exhaustive reference VCF of `tests/common/vcf_reference.rs`, then solved by
//! `ThreatSolver::vcf` with the same depth. Required:
//!
//! - no false win claims: every line the fast solver returns replays as a win through the
//!   rules code (`replay_is_win`), passes the reference's move-by-move check (each attacker
//!   move a four, each defender move a defence), and the reference finds a win too (which
//!   covers the other defences where there are several);
//! - no missed wins: whenever the reference finds a VCF within the depth, so does the fast
//!   solver.
//!
//! Each position is asked for both colours as the attacker (the side to move and the other
//! one, which then often faces a four it must block first). Run with `--release
//! --nocapture` to see the counts per rule.

mod common;

use common::games::{tactical_game, SIZE};
use common::reference::{self, Grid};
use common::vcf_reference::{check_vcf_line, ReferenceVcf, Square};
use common::{code, grid_of, show, Rng};
use rensa::board::{Board, Color, Pos};
use rensa::rules::Rule;
use rensa::search::threat::{replay_is_win, ThreatLimits, ThreatSolver};
use std::time::Instant;

/// Most fours in a VCF (the final five is not counted), for both solvers.
const DEPTH: u32 = 7;

/// Positions per rule.
const POSITIONS: usize = 1000;

/// Node budget for the fast solver (it never needs this much at this depth).
const FAST_NODES: u64 = 5_000_000;

/// Disagreements printed in full (with the board) when a rule fails.
const SHOWN: usize = 20;

fn to_squares(line: &[Pos]) -> Vec<Square> {
    line.iter().map(|p| (p.x() as i32, p.y() as i32)).collect()
}

fn to_positions(line: &[Square]) -> Vec<Pos> {
    line.iter()
        .map(|&(x, y)| Pos::new(x as usize, y as usize))
        .collect()
}

fn line_text(line: &[Pos]) -> String {
    line.iter()
        .map(|p| format!("{},{}", p.x(), p.y()))
        .collect::<Vec<_>>()
        .join(" ")
}

fn colour_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black (X)",
        Color::White => "White (O)",
    }
}

#[derive(Default)]
struct Counts {
    positions: usize,
    queries: usize,
    with_vcf: usize,
    without_vcf: usize,
    immediate_five: usize,
    /// Queries by the number of attacker moves of the reference's line (five included).
    by_length: Vec<usize>,
    fast_wins: usize,
    reference_nodes: u64,
    fast_nodes: u64,
    problems: Vec<String>,
}

/// One query: VCF for `attacker` on `board` under `rule`, both solvers.
fn check(board: &Board, grid: &Grid, rule: Rule, attacker: Color, what: &str, counts: &mut Counts) {
    counts.queries += 1;
    let mut reference_solver = ReferenceVcf::new(rule, code(attacker));
    let reference_line = reference_solver.solve(grid, DEPTH);
    counts.reference_nodes += reference_solver.nodes;
    let limits = ThreatLimits {
        max_attacker_moves: DEPTH,
        max_nodes: FAST_NODES,
    };
    let mut fast = ThreatSolver::new(board, rule, attacker, limits);
    let fast_line = fast.vcf();
    counts.fast_nodes += fast.nodes();
    let mut problem = |text: String| {
        counts.problems.push(format!(
            "{what}: {rule}, attacker {}: {text}\n{}",
            colour_name(attacker),
            show(board, None)
        ));
    };
    if fast.aborted() {
        problem(format!(
            "the fast solver ran out of nodes ({})",
            fast.nodes()
        ));
    }
    match &reference_line {
        Some(line) => {
            counts.with_vcf += 1;
            if line.len() == 1 {
                counts.immediate_five += 1;
            }
            let moves = line.len().div_ceil(2);
            if counts.by_length.len() <= moves {
                counts.by_length.resize(moves + 1, 0);
            }
            counts.by_length[moves] += 1;
            if !replay_is_win(board, rule, attacker, &to_positions(line)) {
                problem(format!(
                    "the REFERENCE line does not replay through the rules code: {}",
                    line_text(&to_positions(line))
                ));
            }
        }
        None => counts.without_vcf += 1,
    }
    match (&fast_line, &reference_line) {
        (Some(line), reference) => {
            counts.fast_wins += 1;
            if !replay_is_win(board, rule, attacker, line) {
                problem(format!(
                    "false win claim: the fast line does not replay as a win: {}",
                    line_text(line)
                ));
            } else if let Err(e) = check_vcf_line(grid, rule, code(attacker), &to_squares(line)) {
                problem(format!(
                    "false win claim: the fast line {} fails the reference check: {e}",
                    line_text(line)
                ));
            } else if reference.is_none() {
                problem(format!(
                    "the fast solver claims a win the reference does not find: {}",
                    line_text(line)
                ));
            }
        }
        (None, Some(line)) if !fast.aborted() => problem(format!(
            "missed win: the reference finds {} ({} attacker moves), the fast solver nothing",
            line_text(&to_positions(line)),
            line.len().div_ceil(2)
        )),
        _ => {}
    }
}

fn run_rule(rule: Rule, seed: u64) {
    let started = Instant::now();
    let mut rng = Rng::new(seed);
    let mut counts = Counts::default();
    for i in 0..POSITIONS {
        let moves = rng.between(20, 60) as usize;
        let (board, to_move) = tactical_game(&mut rng, rule, moves);
        let grid = grid_of(&board);
        assert_eq!(grid.rows.len(), SIZE);
        counts.positions += 1;
        for attacker in [to_move, to_move.opponent()] {
            let what = format!(
                "position #{i} ({} stones, {} to move)",
                board.stone_count(),
                colour_name(to_move)
            );
            check(&board, &grid, rule, attacker, &what, &mut counts);
        }
    }
    let lengths: Vec<String> = counts
        .by_length
        .iter()
        .enumerate()
        .skip(1)
        .map(|(moves, n)| format!("{moves}: {n}"))
        .collect();
    println!(
        "{rule}: {} positions, {} queries at depth {DEPTH}: {} with a VCF ({} immediate fives; \
         by attacker moves {}), {} without; fast solver wins {}; nodes: reference {}, \
         fast {}; {:.2?}",
        counts.positions,
        counts.queries,
        counts.with_vcf,
        counts.immediate_five,
        lengths.join(", "),
        counts.without_vcf,
        counts.fast_wins,
        counts.reference_nodes,
        counts.fast_nodes,
        started.elapsed()
    );
    if !counts.problems.is_empty() {
        for p in counts.problems.iter().take(SHOWN) {
            println!("{p}");
        }
        panic!(
            "{rule}: {} disagreements between the fast VCF and the reference (the first {} \
             shown above)",
            counts.problems.len(),
            counts.problems.len().min(SHOWN)
        );
    }
}

#[test]
fn vcf_soundness_freestyle() {
    run_rule(Rule::Freestyle, 0xF0F0_0001);
}

#[test]
fn vcf_soundness_standard() {
    run_rule(Rule::Standard, 0xF0F0_0002);
}

#[test]
fn vcf_soundness_renju() {
    run_rule(Rule::Renju, 0xF0F0_0003);
}

#[test]
fn vcf_soundness_caro() {
    run_rule(Rule::Caro, 0xF0F0_0004);
}

#[test]
fn vcf_soundness_caro_exact() {
    run_rule(Rule::CaroExact, 0xF0F0_0005);
}

/// The reference itself on hand-made positions: crossing fours (a four-four, forbidden for
/// Black under Renju), an open four in every rule, and the Caro four that can also be stopped
/// at the far end.
#[test]
fn reference_vcf_hand_cases() {
    let solve = |rule: Rule, attacker: u8, depth: u32, text: &str| {
        let grid = Grid::from_ascii(text);
        ReferenceVcf::new(rule, attacker).solve(&grid, depth)
    };
    // Three on a row and three on a column meeting at (4, 3): there, an open four plus a
    // four. Every other four has a single completion and loses at depth 1.
    let crossing = "
        ....X....
        ....X....
        ....X....
        .XXX.....
        .........
        .........
        .........";
    let line = solve(Rule::Freestyle, reference::BLACK, 1, crossing).expect("a four-four");
    assert_eq!(line[0], (4, 3), "{line:?}");
    // Under Renju that move is a forbidden double four for Black ...
    assert_eq!(solve(Rule::Renju, reference::BLACK, 1, crossing), None);
    // ... and allowed for White.
    let white = crossing.replace('X', "O");
    let line = solve(Rule::Renju, reference::WHITE, 1, &white).expect("White's four-four");
    assert_eq!(line[0], (4, 3), "{line:?}");
    // An open three becomes an open four: a win with one four under every rule.
    let open = "
        .........
        ..XXX....
        .........";
    for rule in Rule::ALL {
        let line = solve(rule, reference::BLACK, 1, open).expect("open four");
        assert_eq!(line[0], (1, 1), "{rule}: {line:?}");
    }
    // `O X X X X . .`: the five on (6, 0) would have O on (1, 0) at one end, so under Caro
    // the defender may also stop it on (7, 0) (the five would be closed at both ends).
    let caro = Grid::from_ascii(
        "
        .OXXXX....
        ..........",
    );
    let mut g = caro.clone();
    for (rule, expected) in [
        (Rule::Freestyle, vec![(6, 0)]),
        (Rule::Standard, vec![(6, 0)]),
        (Rule::Caro, vec![(6, 0), (7, 0)]),
        (Rule::CaroExact, vec![(6, 0), (7, 0)]),
    ] {
        let solver = ReferenceVcf::new(rule, reference::BLACK);
        assert_eq!(solver.defences(&mut g, &[(6, 0)]), expected, "{rule}");
        assert_eq!(g, caro);
    }
}

/// Regressions found by this set, on small boards, for both solvers.
#[test]
fn known_disagreements() {
    let both = |rule: Rule, text: &str| {
        let grid = Grid::from_ascii(text);
        let reference = ReferenceVcf::new(rule, reference::BLACK).solve(&grid, 1);
        let board = Board::from_ascii(text).unwrap();
        let limits = ThreatLimits {
            max_attacker_moves: 1,
            max_nodes: 100_000,
        };
        let fast = ThreatSolver::new(&board, rule, Color::Black, limits).vcf();
        (reference, fast)
    };
    // Black on (3, 0) makes `X.XXX.X`: two fours on one line, a forbidden double four under
    // Renju (the fast solver used to play it: its pattern counts call it one open four).
    let double_four = "
        X.X.X.X..
        .........
        .........
        .........
        .........";
    let (reference, fast) = both(Rule::Freestyle, double_four);
    assert_eq!(reference.map(|l| l[0]), Some((3, 0)));
    assert_eq!(fast.map(|l| l[0]), Some(Pos::new(3, 0)));
    assert_eq!(both(Rule::Renju, double_four), (None, None));
    // Black on (5, 0) makes four in a row between two empty squares, but under Caro the O
    // stones on (0, 0) and (7, 0) let one defender stone on either empty square close the
    // other five at both ends: no win (the fast solver used to call it an open four).
    let capped = "
        O.XXX..O.
        .........
        .........
        .........
        .........";
    let (reference, fast) = both(Rule::Freestyle, capped);
    assert_eq!(reference.map(|l| l[0]), Some((5, 0)));
    assert_eq!(fast.map(|l| l[0]), Some(Pos::new(5, 0)));
    for rule in [Rule::Caro, Rule::CaroExact] {
        assert_eq!(both(rule, capped), (None, None), "{rule}");
    }
}
