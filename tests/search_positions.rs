//! Tactical positions for the alpha-beta search, written as ASCII diagrams.
//!
//! Diagrams: one row per line, top row (y = 0) first, `X` Black, `O` White, `.` empty;
//! columns count from x = 0 on the left. Squares in comments are `(x, y)`.
//!
//! Every search runs with one thread, a small table and a deterministic limit (a depth or a
//! node budget, never the wall clock), so results are the same on every machine. Every
//! returned move is checked to be on an empty square and legal for the side to move.

use rensa::board::{Board, Cell, Color, Pos};
use rensa::position::Position;
use rensa::rules::{self, Foul, Rule};
use rensa::search::score::{is_decisive, WIN};
use rensa::search::threat::{replay_is_win, ThreatLimits, ThreatSolver};
use rensa::search::tt::TranspositionTable;
use rensa::search::AlphaBetaSearcher;
use rensa::search::{Limits, SearchOutcome, Searcher};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Transposition table size for every search here.
const TABLE_BYTES: usize = 4 << 20;

fn p(x: usize, y: usize) -> Pos {
    Pos::new(x, y)
}

/// A position from a diagram, with the given side to move and rule.
fn position(diagram: &str, to_move: Color, rule: Rule) -> Position {
    Position::from_ascii(diagram, to_move, rule).expect("diagram parses")
}

/// The board as text with the square `mark` shown as `*`, for failure messages.
fn show(board: &Board, mark: Option<Pos>) -> String {
    let mut s = String::new();
    for y in 0..board.height() {
        for x in 0..board.width() {
            let q = p(x, y);
            s.push(if Some(q) == mark {
                '*'
            } else {
                match board.cell(q) {
                    Cell::Empty => '.',
                    Cell::Stone(Color::Black) => 'X',
                    Cell::Stone(Color::White) => 'O',
                    Cell::Blocked => '#',
                }
            });
        }
        s.push('\n');
    }
    s
}

/// Limits that stop after `depth` iterations.
fn to_depth(depth: u32) -> Limits {
    let mut limits = Limits::unbounded();
    limits.max_depth = Some(depth);
    limits
}

/// Limits that stop after about `nodes` nodes.
fn to_nodes(nodes: u64) -> Limits {
    let mut limits = Limits::unbounded();
    limits.max_nodes = Some(nodes);
    limits
}

/// Search with a fresh single-threaded searcher and table, and check that the move is on an
/// empty square, legal for the side to move, and heads its principal variation.
fn search(position: &Position, limits: &Limits) -> SearchOutcome {
    let tt = Arc::new(TranspositionTable::new(TABLE_BYTES));
    let mut searcher = AlphaBetaSearcher::new(tt, 1);
    let stop = AtomicBool::new(false);
    let outcome = searcher.search(position, limits, &stop, &mut |_| {});
    assert_legal(position, &outcome);
    outcome
}

fn assert_legal(position: &Position, outcome: &SearchOutcome) {
    let board = position.board();
    let best = outcome.best;
    assert!(
        board.contains(best) && board.is_empty(best),
        "move {best} is not an empty square ({} to move, {}):\n{}",
        side(position.to_move()),
        position.rule(),
        show(board, None)
    );
    let mut scratch = board.clone();
    assert!(
        !rules::is_forbidden(&mut scratch, best, position.to_move(), position.rule()),
        "move {best} is forbidden for {} under {}:\n{}",
        side(position.to_move()),
        position.rule(),
        show(board, Some(best))
    );
    if let Some(&first) = outcome.pv.first() {
        assert_eq!(first, best, "the principal variation starts with the move");
    }
}

fn side(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// Empty squares where `color` would win at once under `rule`.
fn winning_squares(board: &Board, color: Color, rule: Rule) -> Vec<Pos> {
    board
        .empty_positions()
        .filter(|&q| rules::is_winning_move(board, q, color, rule))
        .collect()
}

/// Does `color` (to move) have a legal move after which it has two or more winning squares
/// (an open four or a double four), or a five right away?
fn can_make_unstoppable_four(board: &Board, color: Color, rule: Rule) -> bool {
    if !winning_squares(board, color, rule).is_empty() {
        return true;
    }
    let mut b = board.clone();
    let empties: Vec<Pos> = b.empty_positions().collect();
    for q in empties {
        if rules::is_forbidden(&mut b, q, color, rule) {
            continue;
        }
        b.place(q, Cell::Stone(color));
        let n = winning_squares(&b, color, rule).len();
        b.remove(q);
        if n >= 2 {
            return true;
        }
    }
    false
}

/// Check a line of continuous fours move by move: each attacker move before the last is
/// legal and leaves at least one winning square; when it leaves exactly one, the defender's
/// reply is that square (or, when that square is forbidden for the defender, any other
/// square); the defender never has a five of their own when it is their turn; the line ends
/// with the attacker's five. Returns the reason for the first failure.
fn check_four_line(board: &Board, rule: Rule, attacker: Color, line: &[Pos]) -> Result<(), String> {
    let defender = attacker.opponent();
    let mut b = board.clone();
    for (i, &q) in line.iter().enumerate() {
        if !b.is_empty(q) {
            return Err(format!("move {i} ({q}) is on an occupied square"));
        }
        if i % 2 == 0 {
            if rules::is_winning_move(&b, q, attacker, rule) {
                return if i + 1 == line.len() {
                    Ok(())
                } else {
                    Err(format!("move {i} ({q}) wins but the line goes on"))
                };
            }
            if rules::is_forbidden(&mut b, q, attacker, rule) {
                return Err(format!("attacker move {i} ({q}) is forbidden"));
            }
            b.place(q, Cell::Stone(attacker));
            let threats = winning_squares(&b, attacker, rule);
            if threats.is_empty() {
                return Err(format!("attacker move {i} ({q}) is not a four"));
            }
            if !winning_squares(&b, defender, rule).is_empty() {
                return Err(format!("after move {i} ({q}) the defender has a five"));
            }
            if threats.len() == 1 {
                let block = threats[0];
                let next = line.get(i + 1).copied();
                if next != Some(block) && !rules::is_forbidden(&mut b, block, defender, rule) {
                    return Err(format!(
                        "defender reply {next:?} to move {i} is not the only block {block}"
                    ));
                }
            }
        } else {
            if rules::is_forbidden(&mut b, q, defender, rule) {
                return Err(format!("defender move {i} ({q}) is forbidden"));
            }
            b.place(q, Cell::Stone(defender));
        }
    }
    Err("the line does not end with a five".to_string())
}

/// Does `attacker` (to move) win by continuous fours, or else by threats (VCT)? The VCT is
/// deepened one attacker move at a time: a deep limit from the start can spend its whole
/// node budget on long lines and miss a short win.
fn threat_win(board: &Board, rule: Rule, attacker: Color) -> bool {
    let vcf = ThreatLimits {
        max_attacker_moves: 20,
        max_nodes: 300_000,
    };
    if ThreatSolver::new(board, rule, attacker, vcf)
        .vcf()
        .is_some()
    {
        return true;
    }
    (2..=6).any(|moves| {
        let vct = ThreatLimits {
            max_attacker_moves: moves,
            max_nodes: 200_000,
        };
        ThreatSolver::new(board, rule, attacker, vct)
            .vct()
            .is_some()
    })
}

/// True when `line` is a complete line: it ends with a move that wins for whoever plays it.
fn ends_with_five(board: &Board, rule: Rule, first: Color, line: &[Pos]) -> bool {
    let mut b = board.clone();
    let mut color = first;
    for (i, &q) in line.iter().enumerate() {
        if !b.is_empty(q) {
            return false;
        }
        if i + 1 == line.len() {
            return rules::is_winning_move(&b, q, color, rule);
        }
        b.place(q, Cell::Stone(color));
        color = color.opponent();
    }
    false
}

/// Check a claimed win independently of the engine's variation (which may stop short of
/// the five: a move into an open four, or a win found by the VCF at a leaf, ends it). A
/// complete variation must replay as a win. Then, after the move: a five or two winning
/// squares wins at once; a four is answered by its only block; any other move by every
/// legal reply; after each reply the threat solvers must find a win for the attacker.
fn assert_win_claim_sound(position: &Position, outcome: &SearchOutcome) {
    let board = position.board();
    let me = position.to_move();
    let them = me.opponent();
    let rule = position.rule();
    let context = format!(
        "{} to move under {rule}, move {}, score {}, pv {:?}:\n{}",
        side(me),
        outcome.best,
        outcome.score,
        outcome.pv,
        show(board, Some(outcome.best))
    );
    if ends_with_five(board, rule, me, &outcome.pv) {
        assert!(
            replay_is_win(board, rule, me, &outcome.pv),
            "complete variation does not replay as a win; {context}"
        );
    }
    let mut b = board.clone();
    if rules::is_winning_move(&b, outcome.best, me, rule) {
        return;
    }
    b.place(outcome.best, Cell::Stone(me));
    let threats = winning_squares(&b, me, rule);
    let their_fives = winning_squares(&b, them, rule);
    assert!(
        their_fives.is_empty(),
        "the opponent wins at once at {their_fives:?}; {context}"
    );
    if threats.len() >= 2 {
        return;
    }
    let replies: Vec<Pos> = match threats.first() {
        Some(&block) if rules::is_forbidden(&mut b, block, them, rule) => return,
        Some(&block) => vec![block],
        None => b.empty_positions().collect(),
    };
    for q in replies {
        if rules::is_forbidden(&mut b, q, them, rule) {
            continue;
        }
        b.place(q, Cell::Stone(them));
        let wins = threat_win(&b, rule, me);
        b.remove(q);
        assert!(wins, "the reply {q} refutes the claimed win; {context}");
    }
}

/// Check that the searched move starts a forced win for the side to move: a proven win
/// score, a principal variation that is a complete line and replays as a win, and the
/// independent check of [`assert_win_claim_sound`].
fn assert_move_wins(position: &Position, outcome: &SearchOutcome) {
    let board = position.board();
    let me = position.to_move();
    let rule = position.rule();
    let context = format!(
        "{} to move under {rule}, move {}, score {}, pv {:?}:\n{}",
        side(me),
        outcome.best,
        outcome.score,
        outcome.pv,
        show(board, Some(outcome.best))
    );
    assert!(
        is_decisive(outcome.score) && outcome.score > 0,
        "expected a proven win; {context}"
    );
    assert!(
        replay_is_win(board, rule, me, &outcome.pv),
        "principal variation does not replay as a win; {context}"
    );
    assert_win_claim_sound(position, outcome);
}

// ---------------------------------------------------------------------------------------
// Win in one
// ---------------------------------------------------------------------------------------

/// Both sides have a four. Black's four on row 3 is blocked on the left by White, so (7,3)
/// completes an exact five (a win under every rule, including caro: only one end is
/// blocked). White's four on row 9 completes at (9,9). The side to move takes its own five
/// rather than blocking.
const BOTH_HAVE_FOURS: &str = "
    ...............
    ...............
    ...............
    ..OXXXX........
    ...............
    ...............
    ...............
    ...............
    ...............
    ....XOOOO......
    ...............
    ...............
    ...............
    ...............
    ...............";

#[test]
fn win_in_one_rather_than_block_under_every_rule() {
    for rule in Rule::ALL {
        for (me, five) in [(Color::Black, p(7, 3)), (Color::White, p(9, 9))] {
            let pos = position(BOTH_HAVE_FOURS, me, rule);
            let out = search(&pos, &to_depth(3));
            assert_eq!(out.best, five, "{} under {rule}", side(me));
            assert_eq!(out.score, WIN - 1, "{} under {rule}", side(me));
            assert!(pos.is_winning_move(out.best));
        }
    }
}

/// Black's row 3 is `O X X X X . X`: the gap (7,3) would make six in a row (x = 3..8). White
/// has a four on row 9 that completes at (9,9).
///
/// Freestyle and caro count an overline as a win, so Black plays the gap and wins. Standard,
/// caro-exact and renju do not (under renju the overline is even forbidden for Black), so
/// Black must not count on the gap and must block White's five at (9,9).
const BLACK_OVERLINE_GAP: &str = "
    ...............
    ...............
    ...............
    ..OXXXX.X......
    ...............
    ...............
    ...............
    ...............
    ...............
    ....XOOOO......
    ...............
    ...............
    ...............
    ...............
    ...............";

#[test]
fn overline_wins_only_where_the_rule_says_so() {
    let gap = p(7, 3);
    let block = p(9, 9);
    for rule in Rule::ALL {
        let pos = position(BLACK_OVERLINE_GAP, Color::Black, rule);
        let out = search(&pos, &to_depth(3));
        let overline_wins = matches!(rule, Rule::Freestyle | Rule::Caro);
        assert_eq!(
            rules::is_winning_move(pos.board(), gap, Color::Black, rule),
            overline_wins,
            "{rule}: the diagram means what it says"
        );
        if overline_wins {
            assert_eq!(out.best, gap, "{rule}: the overline wins");
            assert_eq!(out.score, WIN - 1, "{rule}");
        } else {
            assert_eq!(
                out.best, block,
                "{rule}: must block, the overline is no five"
            );
            assert!(
                !(is_decisive(out.score) && out.score > 0),
                "{rule}: no win here, got score {}",
                out.score
            );
        }
    }
}

/// The same for White: White's row 3 is `X O O O O . O` (the gap (7,3) makes six for White)
/// and Black has a four completing at (9,9). Under renju White may make an overline and wins
/// with it; under standard and caro-exact White must block.
const WHITE_OVERLINE_GAP: &str = "
    ...............
    ...............
    ...............
    ..XOOOO.O......
    ...............
    ...............
    ...............
    ...............
    ...............
    ....OXXXX......
    ...............
    ...............
    ...............
    ...............
    ...............";

#[test]
fn white_overline_wins_under_renju_but_not_standard() {
    let gap = p(7, 3);
    let block = p(9, 9);
    for rule in Rule::ALL {
        let pos = position(WHITE_OVERLINE_GAP, Color::White, rule);
        let out = search(&pos, &to_depth(3));
        let overline_wins = matches!(rule, Rule::Freestyle | Rule::Caro | Rule::Renju);
        if overline_wins {
            assert_eq!(out.best, gap, "{rule}: White's overline wins");
            assert_eq!(out.score, WIN - 1, "{rule}");
        } else {
            assert_eq!(out.best, block, "{rule}: White must block");
            assert!(!(is_decisive(out.score) && out.score > 0), "{rule}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Forced defence
// ---------------------------------------------------------------------------------------

/// Black has a broken four on the diagonal (3,3) (4,4) . (6,6) (7,7): the gap (5,5) is its
/// only completion. White, to move, has nothing of its own and must take (5,5).
const BROKEN_FOUR_DIAGONAL: &str = "
    ...............
    ...............
    ...............
    ...X...........
    ....X..........
    ...............
    ......X........
    .......X.......
    ...............
    ..O.......O....
    ...............
    .......O.......
    ...............
    ...............
    ...............";

#[test]
fn blocks_the_only_square_of_a_four_under_every_rule() {
    for rule in Rule::ALL {
        let pos = position(BROKEN_FOUR_DIAGONAL, Color::White, rule);
        assert_eq!(
            winning_squares(pos.board(), Color::Black, rule),
            vec![p(5, 5)],
            "{rule}: the diagram has one completion"
        );
        for depth in [1, 2, 4] {
            let out = search(&pos, &to_depth(depth));
            assert_eq!(out.best, p(5, 5), "{rule}, depth {depth}");
        }
    }
}

/// The White squares that stop Black's threats: after them Black has no five and no move
/// that makes an open four or a double four.
fn stopping_squares(board: &Board, rule: Rule) -> Vec<Pos> {
    let mut b = board.clone();
    let empties: Vec<Pos> = b.empty_positions().collect();
    let mut out = Vec::new();
    for q in empties {
        b.place(q, Cell::Stone(Color::White));
        if !can_make_unstoppable_four(&b, Color::Black, rule) {
            out.push(q);
        }
        b.remove(q);
    }
    out
}

/// Black has an open three `. . X X X . .` on row 7 (x = 5..7). White, to move, has only
/// scattered stones. The only squares that stop the three are its two ends (4,7) and (8,7):
/// a stone one further out, e.g. (3,7), still lets Black make an open four at (8,7).
const OPEN_THREE: &str = "
    ...............
    ...............
    ...O...........
    ...............
    ...............
    ...............
    ...............
    .....XXX.......
    ...............
    ...............
    ...............
    ...........O...
    ...............
    ...............
    ...............";

/// Black has a broken three `. X . X X .` on row 7 (x = 4, 6, 7). It is stopped at either
/// end, (3,7) or (8,7), or in the gap (5,7).
const BROKEN_THREE: &str = "
    ...............
    ...............
    ...O...........
    ...............
    ...............
    ...............
    ...............
    ....X.XX.......
    ...............
    ...............
    ...............
    ...........O...
    ...............
    ...............
    ...............";

#[test]
fn defends_an_open_three_on_a_stopping_square() {
    let cases = [
        (OPEN_THREE, vec![p(4, 7), p(8, 7)]),
        (BROKEN_THREE, vec![p(3, 7), p(5, 7), p(8, 7)]),
    ];
    for (diagram, expected) in cases {
        for rule in Rule::ALL {
            let pos = position(diagram, Color::White, rule);
            let stops = stopping_squares(pos.board(), rule);
            assert_eq!(stops, expected, "{rule}: stopping squares of\n{diagram}");
            for depth in [2, 4] {
                let out = search(&pos, &to_depth(depth));
                assert!(
                    stops.contains(&out.best),
                    "{rule}, depth {depth}: {} does not stop the three:\n{}",
                    out.best,
                    show(pos.board(), Some(out.best))
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Victory by continuous fours
// ---------------------------------------------------------------------------------------

/// Black (to move) wins by continuous fours, but has no five, open four or four-three now:
///
/// - (6,3) makes a four on row 3 (`O X X X X .`), White must block at (7,3);
/// - (6,4) then makes a four on row 4 (`. X X X X O`, block (5,4)) and, with (6,3), a four
///   on column 6 (x = 6, y = 3..6 above White's (6,7), block (6,2)): a double four.
///
/// (The moves also work the other way round.) Under renju the final double four is
/// forbidden for Black, so this is no VCF there.
const VCF: &str = "
    ...............
    .............O.
    ...............
    ..OXXX.........
    .......XXXO....
    ......X........
    ......X........
    ......O........
    ............O..
    ...............
    .O........O....
    ...............
    ...O...........
    ...............
    ...............";

#[test]
fn finds_a_victory_by_continuous_fours() {
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Caro, Rule::CaroExact] {
        let pos = position(VCF, Color::Black, rule);
        let b = pos.board();
        assert!(
            !can_make_unstoppable_four(b, Color::Black, rule),
            "{rule}: no immediate five, open four or double four"
        );
        let solver_line = ThreatSolver::new(
            b,
            rule,
            Color::Black,
            ThreatLimits {
                max_attacker_moves: 10,
                max_nodes: 1_000_000,
            },
        )
        .vcf()
        .expect("the diagram holds a VCF");
        check_four_line(b, rule, Color::Black, &solver_line).unwrap();
        for depth in [1, 3, 5] {
            let out = search(&pos, &to_depth(depth));
            assert_move_wins(&pos, &out);
            if out.pv.len() % 2 == 1 {
                if let Err(e) = check_four_line(b, rule, Color::Black, &out.pv) {
                    panic!("{rule}, depth {depth}: pv {:?}: {e}", out.pv);
                }
            }
        }
    }
}

#[test]
fn renju_vcf_may_not_end_in_a_double_four() {
    let pos = position(VCF, Color::Black, Rule::Renju);
    let mut b = pos.board().clone();
    // After (6,3) and White's (7,3), (6,4) is a double four: forbidden for Black.
    b.place(p(6, 3), Cell::Stone(Color::Black));
    b.place(p(7, 3), Cell::Stone(Color::White));
    assert_eq!(rules::renju_foul(&mut b, p(6, 4)), Some(Foul::DoubleFour));
    for depth in [1, 3, 5] {
        let out = search(&pos, &to_depth(depth));
        if is_decisive(out.score) && out.score > 0 {
            assert_move_wins(&pos, &out);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Renju
// ---------------------------------------------------------------------------------------

/// Black's cross around (7,7): (7,7) would make two open threes at once (row 7 and column 7),
/// the natural winning move in freestyle and a forbidden double three in renju.
const CROSS: &str = "
    ...............
    ...............
    ...............
    ...............
    ...............
    ...............
    .......X.......
    ......X.X......
    .......X.......
    ...............
    ...O...........
    ...........O...
    ..O............
    ...............
    ...............";

/// Row 7 is `O X . X X . . X`: (2,7) gives a closed four, but (5,7) gives `X . X X X . X`,
/// two fours on one line: a win in freestyle, a forbidden double four for Black in renju.
const LINE_DOUBLE_FOUR: &str = "
    ...............
    ...............
    ...............
    ...............
    ...............
    ...............
    ...............
    OX.XX..X.......
    ...............
    ...............
    ...O...........
    ...........O...
    ...............
    ...............
    ...............";

#[test]
fn renju_black_never_plays_a_forbidden_point() {
    let cases = [
        (CROSS, p(7, 7), Foul::DoubleThree),
        (LINE_DOUBLE_FOUR, p(5, 7), Foul::DoubleFour),
        (BLACK_OVERLINE_GAP, p(7, 3), Foul::Overline),
    ];
    for (diagram, point, foul) in cases {
        let renju = position(diagram, Color::Black, Rule::Renju);
        let mut b = renju.board().clone();
        assert_eq!(rules::renju_foul(&mut b, point), Some(foul), "{diagram}");
        for depth in [1, 3] {
            // `search` checks the move is legal; the forbidden point is never it.
            let out = search(&renju, &to_depth(depth));
            assert_ne!(out.best, point, "depth {depth}\n{diagram}");
            for (i, &q) in out.pv.iter().enumerate().step_by(2) {
                let mut b = renju.board().clone();
                for (j, &r) in out.pv[..i].iter().enumerate() {
                    let c = if j % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    b.place(r, Cell::Stone(c));
                }
                assert!(
                    !rules::is_forbidden(&mut b, q, Color::Black, Rule::Renju),
                    "pv move {i} ({q}) is forbidden: {:?}\n{diagram}",
                    out.pv
                );
            }
        }
        let out = search(&renju, &to_nodes(20_000));
        assert_ne!(out.best, point);
    }
    // Where the points are not forbidden, the same shapes win.
    for (diagram, point) in [(CROSS, p(7, 7)), (LINE_DOUBLE_FOUR, p(5, 7))] {
        let free = position(diagram, Color::Black, Rule::Freestyle);
        let out = search(&free, &to_depth(3));
        assert!(
            is_decisive(out.score) && out.score > 0,
            "freestyle: {} should win, got {} ({})\n{diagram}",
            point,
            out.best,
            out.score
        );
        if point == p(5, 7) {
            assert_eq!(out.best, point, "the double four is the only win");
        }
    }
}

/// White (to move) exploits Black's forbidden point. Black's cross around (7,7) makes (7,7)
/// a double three, forbidden for Black. White has (4,4) (5,5) (6,6) on the diagonal, closed
/// by Black's (2,2): White's (3,3) makes a four whose only completion is (7,7), which Black
/// may not take, so White wins. (White's other four, at (7,7), is closed by Black's (8,8)
/// and blocked at (3,3); without renju Black simply blocks at (7,7).)
const WHITE_USES_FOUL: &str = "
    ...............
    ............O..
    ..X............
    ...............
    ....O..........
    .....O.........
    ......OX.......
    ......X.X......
    .......XX......
    ...............
    ...............
    ...............
    .O..........O..
    ...............
    ...............";

#[test]
fn renju_white_wins_through_a_forbidden_block() {
    let pos = position(WHITE_USES_FOUL, Color::White, Rule::Renju);
    let mut b = pos.board().clone();
    assert_eq!(rules::renju_foul(&mut b, p(7, 7)), Some(Foul::DoubleThree));
    assert!(
        !can_make_unstoppable_four(&b, Color::White, Rule::Renju),
        "no open four for White: the win needs the foul"
    );
    for depth in [1, 3, 5] {
        let out = search(&pos, &to_depth(depth));
        assert_move_wins(&pos, &out);
        assert_eq!(out.best, p(3, 3), "depth {depth}: the four onto the foul");
        check_four_line(pos.board(), Rule::Renju, Color::White, &out.pv).unwrap();
    }
    // Without fouls Black blocks at (7,7) and White has no VCF.
    let free = position(WHITE_USES_FOUL, Color::White, Rule::Freestyle);
    let limits = ThreatLimits {
        max_attacker_moves: 10,
        max_nodes: 1_000_000,
    };
    let mut solver = ThreatSolver::new(free.board(), Rule::Freestyle, Color::White, limits);
    assert!(solver.vcf().is_none() && !solver.aborted());
}

/// Black has two ways to combine threats: the cross around (10,10) makes (10,10) a double
/// three (forbidden in renju), while (6,3) makes a four on row 3 (`O X X X X .`) and an open
/// three on column 6 ((6,3) (6,4) (6,5)): a four-three, which is legal and wins.
const FOUR_THREE_OR_THREE_THREE: &str = "
    ...............
    ...............
    ...............
    ..OXXX.........
    ......X........
    ......X........
    ...............
    ...............
    ...............
    ..........X....
    .........X.X...
    ..........X....
    ...............
    ..O.........O..
    ....O...O......";

#[test]
fn renju_black_makes_four_three_not_three_three() {
    let pos = position(FOUR_THREE_OR_THREE_THREE, Color::Black, Rule::Renju);
    let mut b = pos.board().clone();
    assert_eq!(
        rules::renju_foul(&mut b, p(10, 10)),
        Some(Foul::DoubleThree)
    );
    assert_eq!(rules::renju_foul(&mut b, p(6, 3)), None);
    for depth in [1, 3, 5] {
        let out = search(&pos, &to_depth(depth));
        assert_ne!(out.best, p(10, 10), "depth {depth}");
        assert_move_wins(&pos, &out);
        assert_eq!(out.best, p(6, 3), "depth {depth}: the four-three");
    }
}

/// Rows 3 and 11 are both `O X . X X . . X`. Black's (5,3) or (5,11) would make
/// `X . X X X . X`, two fours on one line: a forbidden double four under renju (an
/// immediate win under freestyle or standard). Black's legal fours, (2,y) and (6,y), are
/// each answered at (5,y), where White may play. So under renju Black has no forced win,
/// and White cannot remove both forbidden "resources" with one move.
const TWO_LINE_DOUBLE_FOURS: &str = "
    ...............
    ...............
    ...............
    OX.XX..X.......
    ...............
    ...............
    ...........O...
    ...............
    .........O.....
    ...............
    ...............
    OX.XX..X.......
    ...............
    ...............
    ..........O....";

#[test]
fn line_double_four_wins_without_fouls() {
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Caro] {
        let pos = position(TWO_LINE_DOUBLE_FOURS, Color::Black, rule);
        let out = search(&pos, &to_depth(2));
        assert!(
            out.best == p(5, 3) || out.best == p(5, 11),
            "{rule}: {}",
            out.best
        );
        assert!(is_decisive(out.score) && out.score > 0, "{rule}");
    }
}

/// Under renju the search must not count Black's forbidden line double four as a win at
/// its leaves. Found: the leaf VCF in `alphabeta.rs` (`Worker::leaf_vcf`) only checks a
/// four for a foul when `PatternCounts::may_be_foul()` is true, which is false for a single
/// `F4` pattern, so it plays (5,3) and counts its two completions as a win. The root then
/// claims a proven win (score 19981 = WIN - 19, e.g. pv [(6,11), (5,11)] at depth 1) and
/// plays a quiet move. (The root VCF in `threat.rs` already checks fouls exactly.)
#[test]
fn renju_leaf_vcf_does_not_use_a_forbidden_line_double_four() {
    let pos = position(TWO_LINE_DOUBLE_FOURS, Color::Black, Rule::Renju);
    let mut b = pos.board().clone();
    for y in [3, 11] {
        assert_eq!(rules::renju_foul(&mut b, p(5, y)), Some(Foul::DoubleFour));
    }
    assert!(!threat_win(pos.board(), Rule::Renju, Color::Black));
    for limits in [to_depth(1), to_depth(2), to_depth(3), to_nodes(10_000)] {
        let out = search(&pos, &limits);
        assert!(
            !(is_decisive(out.score) && out.score > 0),
            "{limits:?}: false win claim: move {}, score {}, pv {:?}",
            out.best,
            out.score,
            out.pv
        );
    }
}

// ---------------------------------------------------------------------------------------
// Caro
// ---------------------------------------------------------------------------------------

/// Row 3 is `O X X X X . O`: filling (7,3) gives a five with White stones at both ends, which
/// does not win in caro (it does in freestyle). White has a four on row 9 completing at
/// (9,9), with only one end blocked. Under caro Black must block (9,9).
const CARO_DEAD_FIVE: &str = "
    ...............
    ...............
    ...............
    ..OXXXX.O......
    ...............
    ...............
    ...............
    ...............
    ...............
    ....XOOOO......
    ...............
    ...............
    ...............
    ...............
    ...............";

#[test]
fn caro_five_blocked_at_both_ends_is_no_win() {
    for rule in [Rule::Caro, Rule::CaroExact] {
        let pos = position(CARO_DEAD_FIVE, Color::Black, rule);
        assert!(!pos.is_winning_move(p(7, 3)));
        for depth in [1, 3] {
            let out = search(&pos, &to_depth(depth));
            assert_eq!(
                out.best,
                p(9, 9),
                "{rule}, depth {depth}: block White's five"
            );
            assert!(!(is_decisive(out.score) && out.score > 0), "{rule}");
        }
        // White to move: Black's "four" is dead, so White wins at once instead of blocking.
        let pos = position(CARO_DEAD_FIVE, Color::White, rule);
        let out = search(&pos, &to_depth(3));
        assert_eq!(out.best, p(9, 9), "{rule}: White wins");
        assert_eq!(out.score, WIN - 1);
    }
    for rule in [Rule::Freestyle, Rule::Standard] {
        let pos = position(CARO_DEAD_FIVE, Color::Black, rule);
        let out = search(&pos, &to_depth(3));
        assert_eq!(out.best, p(7, 3), "{rule}: a five is a five");
        assert_eq!(out.score, WIN - 1);
    }
}

/// Row 3 is `X X X X . O` against the left edge: (4,3) makes a five whose left end is the
/// board edge, not a White stone, so it wins in caro. White's four on row 9 would win at
/// (9,9) but Black is first.
const CARO_EDGE_FIVE: &str = "
    ...............
    ...............
    ...............
    XXXX.O.........
    ...............
    ...............
    ...............
    ...............
    ...............
    ....XOOOO......
    ...............
    ...............
    ...............
    ...............
    ...............";

#[test]
fn caro_five_against_the_edge_wins() {
    for rule in Rule::ALL {
        let pos = position(CARO_EDGE_FIVE, Color::Black, rule);
        let out = search(&pos, &to_depth(3));
        assert_eq!(out.best, p(4, 3), "{rule}");
        assert_eq!(out.score, WIN - 1, "{rule}");
    }
}

// ---------------------------------------------------------------------------------------
// Determinism, node limits and legality
// ---------------------------------------------------------------------------------------

/// A quiet middle game: no fours or open threes for either side, and no VCT for Black
/// (the threat solver disproves one in about 1,300 nodes; without White's F6 Black wins
/// by threats in freestyle, starting with F8, a three on the F column).
const QUIET: &str = "
    ...............
    ...............
    ...............
    ...............
    ...............
    ......O........
    .....XXO.......
    ......OX.......
    .....X..O......
    .....O.........
    ...............
    ...............
    ...............
    ...............
    ...............";

#[test]
fn same_search_twice_gives_the_same_result() {
    for rule in [Rule::Freestyle, Rule::Renju] {
        let pos = position(QUIET, Color::Black, rule);
        for limits in [to_depth(3), to_nodes(10_000)] {
            let a = search(&pos, &limits);
            let b = search(&pos, &limits);
            assert_eq!(
                (a.best, a.score, a.depth, a.nodes, &a.pv),
                (b.best, b.score, b.depth, b.nodes, &b.pv),
                "{rule}, {limits:?}"
            );
        }
    }
}

/// Node limits used on the quiet position.
const NODE_LIMITS: [u64; 3] = [4_000, 12_000, 30_000];

/// The main search checks its node counter every 512 nodes, and nodes counted by the VCF at
/// the leaves can step over a check: allow two intervals.
const CHECK_SLACK: u64 = 2 * 1_024;

/// The node budget bounds the search: the main search stops within its check interval of
/// the limit, plus the share (a quarter each at most) handed to the root VCF and VCT.
/// The search also uses most of the budget in a quiet position.
#[test]
fn node_limit_bounds_the_search() {
    for rule in [Rule::Freestyle, Rule::Renju] {
        let pos = position(QUIET, Color::Black, rule);
        for limit in NODE_LIMITS {
            let out = search(&pos, &to_nodes(limit));
            assert!(
                out.nodes <= limit + limit / 2 + CHECK_SLACK,
                "{rule}: {} nodes for a limit of {limit}",
                out.nodes
            );
            assert!(
                out.nodes >= limit / 2,
                "{rule}: only {} nodes of {limit} used in a quiet position",
                out.nodes
            );
        }
    }
}

/// Strict form: the reported node count (which includes the root threat solvers' nodes)
/// stays within the check interval of the limit.
#[test]
fn node_limit_counts_threat_solver_nodes() {
    for rule in [Rule::Freestyle, Rule::Renju] {
        let pos = position(QUIET, Color::Black, rule);
        for limit in NODE_LIMITS {
            let out = search(&pos, &to_nodes(limit));
            assert!(
                out.nodes <= limit + CHECK_SLACK,
                "{rule}: {} nodes for a limit of {limit}",
                out.nodes
            );
        }
    }
}

/// SplitMix64, for reproducible random games.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random game of `moves` moves near the centre of a `size` board, stopping before any
/// move that would win and skipping forbidden moves.
fn random_position(rng: &mut Rng, size: usize, moves: usize, rule: Rule) -> Position {
    let mut pos = Position::new(size, size, rule).unwrap();
    let c = size / 2;
    for _ in 0..moves {
        let mut placed = false;
        for _ in 0..50 {
            let x = (c + rng.below(9)).saturating_sub(4).min(size - 1);
            let y = (c + rng.below(9)).saturating_sub(4).min(size - 1);
            let q = p(x, y);
            if pos.board().is_empty(q) && !pos.is_winning_move(q) && pos.is_legal(q) {
                pos.play(q);
                placed = true;
                break;
            }
        }
        if !placed {
            break;
        }
    }
    pos
}

#[test]
fn every_returned_move_is_legal() {
    let mut rng = Rng(0x5EED);
    let mut claims = 0;
    for rule in Rule::ALL {
        for game in 0..8 {
            let size = if game % 2 == 0 { 15 } else { 20 };
            let moves = 6 + 4 * game;
            let pos = random_position(&mut rng, size, moves, rule);
            // `search` asserts the move is empty and legal. (A node budget keeps the root
            // VCT small: with only a depth limit it gets 50 000 nodes.)
            let out = search(&pos, &to_nodes(4_000));
            if is_decisive(out.score) && out.score > 0 {
                assert_win_claim_sound(&pos, &out);
                claims += 1;
            }
        }
    }
    assert!(claims > 0, "some random positions are won: the check ran");
    // The side to move on a nearly full board still gets an empty square.
    let full = position(
        "XOXOX
         XOXOX
         OXOXO
         OXOXO
         XOXO.",
        Color::Black,
        Rule::Freestyle,
    );
    let out = search(&full, &to_depth(2));
    assert_eq!(out.best, p(4, 4));
}

/// From a game against PentaZen (after Rensa's ninth stone, White): Black to move wins by
/// a VCT of 7 attacker moves, first blocking White's open three with a three of its own;
/// the root VCT finds it in about 39,000 nodes, an alpha-beta search to depth 10 does not.
const SLOW_VCT: &str = "\
    ...............
    ...............
    ...............
    ...............
    ...............
    .......OOO.....
    ......X........
    .......O.......
    ....X.X........
    .....O.........
    ....X..........
    ...............
    ...............
    ...............
    ...............";

/// A ponder search (its clock unbounded until a hit) runs the root threat solvers as a
/// move's search does, planned by the budget the move is expected to get: it finds the
/// VCT that the alpha-beta search alone misses at the same depth. Before, a ponder hit
/// played without them.
#[test]
fn a_ponder_search_runs_the_root_threat_solvers() {
    let pos = position(SLOW_VCT, Color::Black, Rule::Freestyle);
    // At depth 10 the root VCT gets 50,000 nodes (`root_threats`' node budget by depth).
    let depth = 10;
    let expected = (
        std::time::Duration::from_millis(800),
        std::time::Duration::from_millis(1000),
    );
    let ponder = Limits {
        ponder_budget: Some(expected),
        ..to_depth(depth)
    };
    // The solvers plan by the expected budget while the clock is unbounded, by the clock
    // once it is shorter (after a hit), and by the clock alone outside pondering.
    let day = std::time::Duration::from_secs(86_400);
    let short = std::time::Duration::from_millis(300);
    assert_eq!(ponder.planned(day, day), expected);
    assert_eq!(ponder.planned(short, day), (short, expected.1));
    assert_eq!(to_depth(depth).planned(day, short), (day, short));
    let out = search(&pos, &ponder);
    // The solver's whole line (its checker is `tests/vct_soundness.rs`; the replies here
    // include counter-fours, which `assert_win_claim_sound`'s short VCT does not follow).
    assert!(
        out.score >= WIN - 64
            && ends_with_five(pos.board(), Rule::Freestyle, Color::Black, &out.pv),
        "no proven win: {} {:?}",
        out.score,
        out.pv
    );
    assert!(replay_is_win(
        pos.board(),
        Rule::Freestyle,
        Color::Black,
        &out.pv
    ));
    // The same search without the solvers (as a ponder search was) does not see the win:
    // the test position needs them.
    let tt = Arc::new(TranspositionTable::new(TABLE_BYTES));
    let mut plain = AlphaBetaSearcher::new(tt, 1);
    plain.use_threat_solvers = false;
    let stop = AtomicBool::new(false);
    let alone = plain.search(&pos, &to_depth(depth), &stop, &mut |_| {});
    assert!(
        !is_decisive(alone.score),
        "alpha-beta alone found the win: {:?} {}",
        alone.pv,
        alone.score
    );
}
