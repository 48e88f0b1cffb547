//! Differential test: Rensa's renju fouls against the Gomocup referee.
//!
//! The referee of Gomocup renju games is the `foulr` routine of Piskvork's `renju.cpp`
//! (GomocupJudge's `check_forbid.py` adapts it). Its independent Python port, the PyPI package
//! `renju` (pinned in `tests/python-requirements.txt`), judges every empty square of
//! thousands of seeded random positions with Black to move, and a set of targeted diagrams;
//! `rensa::rules::forbidden_points` must name exactly the same squares with the same kind.
//!
//! The Python interpreter comes from `common::python` (`$RENSA_PYTHON` or `.venv`). Without
//! Python or the package, the test says so on stderr and passes; under `CI` it fails
//! instead.

mod common;

use common::python::python_with;
use common::{diagram_rows, show, transform, Rng};
use rensa::board::{Board, Cell, Color, Pos};
use rensa::rules::{forbidden_points, is_winning_move, renju_foul, Foul, Rule};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A forbidden square as `(x, y, kind)`, kind numbered as the referee does: 1 double three,
/// 2 double four, 3 overline.
type Verdict = (usize, usize, u8);

fn kind_code(foul: Foul) -> u8 {
    match foul {
        Foul::DoubleThree => 1,
        Foul::DoubleFour => 2,
        Foul::Overline => 3,
    }
}

/// The interpreter with the `renju` package (see `common::python`).
fn referee_python() -> Option<PathBuf> {
    python_with("renju.check_forbid", "the referee differential test")
}

/// One position as the driver script reads it: the size, a space, the cells row by row.
fn encode(board: &Board) -> String {
    assert_eq!(
        board.width(),
        board.height(),
        "the referee takes square boards"
    );
    let mut line = format!("{} ", board.width());
    for y in 0..board.height() {
        for x in 0..board.width() {
            line.push(match board.cell(Pos::new(x, y)) {
                Cell::Empty => '.',
                Cell::Stone(Color::Black) => 'X',
                Cell::Stone(Color::White) => 'O',
                Cell::Blocked => panic!("the referee has no blocked squares"),
            });
        }
    }
    line
}

fn parse_verdicts(line: &str) -> Vec<Verdict> {
    if line.trim() == "-" {
        return Vec::new();
    }
    line.split_whitespace()
        .map(|item| {
            let mut parts = item.split(',').map(|v| v.parse::<usize>().unwrap());
            let (x, y, k) = (parts.next(), parts.next(), parts.next());
            (x.unwrap(), y.unwrap(), k.unwrap() as u8)
        })
        .collect()
}

/// The referee's forbidden squares for each position, from one run of the driver script.
fn referee_run(python: &Path, boards: &[Board]) -> Vec<Vec<Verdict>> {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/referee/forbidden.py");
    let mut child = Command::new(python)
        .arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the referee script");
    let input: String = boards.iter().map(|b| encode(b) + "\n").collect();
    let mut stdin = child.stdin.take().unwrap();
    // Write from another thread: the script answers while it reads, and a full pipe on
    // either side would otherwise stall both.
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let lines: Vec<String> = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(|l| l.expect("read the referee's answer"))
        .collect();
    writer
        .join()
        .unwrap()
        .expect("write positions to the referee");
    assert!(child.wait().unwrap().success(), "the referee script failed");
    assert_eq!(lines.len(), boards.len(), "one answer per position");
    lines.iter().map(|l| parse_verdicts(l)).collect()
}

/// The referee's verdicts, the positions split over two script processes run side by side.
fn referee_verdicts(python: &Path, boards: &[Board]) -> Vec<Vec<Verdict>> {
    let half = boards.len() / 2;
    let (first, second) = boards.split_at(half);
    std::thread::scope(|s| {
        let a = s.spawn(|| referee_run(python, first));
        let b = referee_run(python, second);
        let mut all = a.join().unwrap();
        all.extend(b);
        all
    })
}

fn rensa_verdicts(board: &Board) -> Vec<Verdict> {
    let mut list: Vec<Verdict> = forbidden_points(board)
        .into_iter()
        .map(|(p, f)| (p.x(), p.y(), kind_code(f)))
        .collect();
    list.sort();
    list
}

/// Compare every position; panic with the first disagreements drawn as diagrams.
fn compare(label: &str, boards: &[Board], referee: &[Vec<Verdict>]) {
    let mut failures = Vec::new();
    let mut squares = 0;
    let mut forbidden = 0;
    for (i, (board, want)) in boards.iter().zip(referee).enumerate() {
        let mut want = want.clone();
        want.sort();
        let got = rensa_verdicts(board);
        squares += board.area() - board.stone_count();
        forbidden += want.len();
        if got != want {
            let only_rensa: Vec<_> = got.iter().filter(|v| !want.contains(v)).collect();
            let only_referee: Vec<_> = want.iter().filter(|v| !got.contains(v)).collect();
            failures.push(format!(
                "{label} #{i}: Rensa only {only_rensa:?}, referee only {only_referee:?} \
                 (x, y, kind: 1 double three, 2 double four, 3 overline)\n{}",
                show(board, None)
            ));
        }
    }
    eprintln!(
        "{label}: {} positions, {squares} empty squares judged, {forbidden} forbidden by the \
         referee, {} positions disagree",
        boards.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} positions disagree with the referee; first ones:\n{}",
        failures.len(),
        boards.len(),
        failures
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

// ---------------------------------------------------------------------------------------------
// Random positions, Black to move (as many black stones as white)
// ---------------------------------------------------------------------------------------------

/// Place `count` stones of `color` on empty squares drawn by `square`, giving up after many
/// tries (a nearly full region).
fn scatter(
    board: &mut Board,
    rng: &mut Rng,
    color: Color,
    count: usize,
    mut square: impl FnMut(&mut Rng) -> (i64, i64),
) -> usize {
    let mut placed = 0;
    for _ in 0..count * 50 {
        if placed == count {
            break;
        }
        let (x, y) = square(rng);
        if let Some(p) = board.pos_at(x as isize, y as isize) {
            if board.is_empty(p) {
                board.place(p, Cell::Stone(color));
                placed += 1;
            }
        }
    }
    placed
}

/// Stones spread over a region around a random centre; `pairs` of each colour.
fn clustered(rng: &mut Rng, size: usize, pairs: usize) -> Board {
    let mut board = Board::new(size, size).unwrap();
    let half = size as i64 / 2;
    let (cx, cy) = (
        half + rng.between(-half / 2, half / 2),
        half + rng.between(-half / 2, half / 2),
    );
    let spread = rng.between(2, half.max(2));
    let mut square = move |r: &mut Rng| {
        (
            cx + r.between(-spread, spread),
            cy + r.between(-spread, spread),
        )
    };
    let black = scatter(&mut board, rng, Color::Black, pairs, &mut square);
    scatter(&mut board, rng, Color::White, black, &mut square);
    balance(&mut board);
    board
}

/// Black stones along short lines with gaps (threes, split threes, fours, overlines), then
/// as many white stones nearby.
fn lines(rng: &mut Rng, size: usize, segments: usize) -> Board {
    let mut board = Board::new(size, size).unwrap();
    let half = size as i64 / 2;
    let reach = (size as i64 / 3).max(2);
    let mut black = 0;
    for _ in 0..segments {
        let (dx, dy) = [(1, 0), (0, 1), (1, 1), (1, -1)][rng.below(4)];
        let sx = half + rng.between(-reach, reach);
        let sy = half + rng.between(-reach, reach);
        for k in 0..rng.between(3, 7) {
            if let Some(p) = board.pos_at((sx + k * dx) as isize, (sy + k * dy) as isize) {
                if board.is_empty(p) && rng.percent(70) {
                    board.place(p, Cell::Stone(Color::Black));
                    black += 1;
                }
            }
        }
    }
    let square = move |r: &mut Rng| {
        (
            half + r.between(-reach - 2, reach + 2),
            half + r.between(-reach - 2, reach + 2),
        )
    };
    scatter(&mut board, rng, Color::White, black, square);
    balance(&mut board);
    board
}

/// Remove black or white stones (the last found) until both colours count the same.
fn balance(board: &mut Board) {
    let count = |b: &Board, c| {
        b.positions()
            .filter(|&p| b.cell(p) == Cell::Stone(c))
            .count()
    };
    loop {
        let (black, white) = (count(board, Color::Black), count(board, Color::White));
        let extra = match black.cmp(&white) {
            std::cmp::Ordering::Equal => return,
            std::cmp::Ordering::Greater => Color::Black,
            std::cmp::Ordering::Less => Color::White,
        };
        let last = board
            .positions()
            .filter(|&p| board.cell(p) == Cell::Stone(extra))
            .last()
            .unwrap();
        board.remove(last);
    }
}

/// A random game under renju with moves near the stones, Black avoiding Rensa's forbidden
/// squares, stopped before a winning move, with Black to move.
fn game(rng: &mut Rng, size: usize, moves: usize) -> Board {
    let mut board = Board::new(size, size).unwrap();
    board.place(board.center(), Cell::Stone(Color::Black));
    let mut color = Color::White;
    for _ in 1..moves {
        let near: Vec<Pos> = board
            .empty_positions()
            .filter(|&p| common::games::near_stones(&board, p, 2))
            .collect();
        let Some(&p) = near.get(rng.below(near.len().max(1))) else {
            break;
        };
        if color == Color::Black && renju_foul(&mut board, p).is_some() {
            continue;
        }
        if is_winning_move(&board, p, color, Rule::Renju) {
            continue;
        }
        board.place(p, Cell::Stone(color));
        color = color.opponent();
    }
    balance(&mut board);
    board
}

/// `count` seeded positions of varied density and kind, sizes 15 (most) and 20.
fn random_positions(count: usize, seed: u64) -> Vec<Board> {
    let mut rng = Rng::new(seed);
    (0..count)
        .map(|i| {
            let size = if i % 10 == 9 { 20 } else { 15 };
            match i % 4 {
                0 => {
                    let pairs = rng.between(3, 70) as usize;
                    clustered(&mut rng, size, pairs)
                }
                1 => {
                    let segments = rng.between(2, 12) as usize;
                    lines(&mut rng, size, segments)
                }
                2 => {
                    let moves = rng.between(10, 90) as usize;
                    game(&mut rng, size, moves)
                }
                _ => {
                    let pairs = rng.between(20, 90) as usize;
                    clustered(&mut rng, size, pairs)
                }
            }
        })
        .collect()
}

#[test]
fn random_positions_agree_with_the_referee() {
    let Some(python) = referee_python() else {
        return;
    };
    let boards = random_positions(12_000, 0x5EED_2026);
    let referee = referee_verdicts(&python, &boards);
    compare("random positions", &boards, &referee);
}

// ---------------------------------------------------------------------------------------------
// Targeted positions: diagrams with the square of interest marked `*`
// ---------------------------------------------------------------------------------------------

/// A diagram, what the referee rules on its `*` square (None: allowed), and why.
struct Case {
    name: &'static str,
    diagram: &'static str,
    verdict: Option<Foul>,
}

const CASES: &[Case] = &[
    Case {
        // Across, `XX.*` is a three only through the square `a`, and `a` makes a five down
        // the column: the referee does not count a three whose straight-four square makes a
        // five. One real three (down): allowed.
        name: "three completed only by a five-making square",
        diagram: "
            . . . . . . . . . . .
            . . . . . X . . . . .
            . . . . . X . . . . .
            . . . . . X . . . . .
            . . . . . X . . . . .
            . . . X X . * . . . .
            . . . . . . X . . . .
            . . . . . . X . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .",
        verdict: None,
    },
    Case {
        // The same shape with the column two stones short: the square now makes a four
        // down and the four across (no five, no double four), so both threes are real.
        name: "the same three when the square makes no five",
        diagram: "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . X . . . . .
            . . . . . X . . . . .
            . . . X X . * . . . .
            . . . . . . X . . . .
            . . . . . . X . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .",
        verdict: Some(Foul::DoubleThree),
    },
    Case {
        // A plain double three: two open threes crossing on the square.
        name: "double three",
        diagram: "
            . . . . . . . . .
            . . . . . . . . .
            . . . . X . . . .
            . . . . X . . . .
            . . X X * . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
        verdict: Some(Foul::DoubleThree),
    },
    Case {
        // Two fours on one line, `X.XXX.X`.
        name: "two fours on one line (X.XXX.X)",
        diagram: "
            . . . . . . . . . . .
            . . X . X * X . X . .
            . . . . . . . . . . .",
        verdict: Some(Foul::DoubleFour),
    },
    Case {
        name: "two fours on one line (XX.XX.XX)",
        diagram: "
            . . . . . . . . . . . .
            . . X X . X * . X X . .
            . . . . . . . . . . . .",
        verdict: Some(Foul::DoubleFour),
    },
    Case {
        name: "two fours on one line (XXX.X.XXX)",
        diagram: "
            . . . . . . . . . . . . .
            . X X X . * . X X X . . .
            . . . . . . . . . . . . .",
        verdict: Some(Foul::DoubleFour),
    },
    Case {
        // `XXX.*.XXX` with a black stone beyond one end: filling that side would make six,
        // so it is one four, not two.
        name: "one four when the far side would be an overline",
        diagram: "
            . . . . . . . . . . . . . .
            . X X X . * . X X X X . . .
            . . . . . . . . . . . . . .",
        verdict: None,
    },
    Case {
        // Overline on the square, next to a five elsewhere on the board: forbidden.
        name: "overline next to a five",
        diagram: "
            . . . . . . . . . . .
            . X X X * X X . . . .
            . . . . . . . . . . .
            . X X X X X . . . . .
            . . . . . . . . . . .",
        verdict: Some(Foul::Overline),
    },
    Case {
        // The square makes a five down and six across: the five comes first, allowed.
        name: "five and overline at once",
        diagram: "
            . . . . . . . . . . .
            . . . . X . . . . . .
            . . . . X . . . . . .
            . . . . X . . . . . .
            . . . . X . . . . . .
            . X X X * X X . . . .
            . . . . . . . . . . .",
        verdict: None,
    },
    Case {
        // A four and a five at once: the five comes first.
        name: "five and four at once",
        diagram: "
            . . . . . . . . . .
            . X X X X * . . . .
            . . . . . X . . . .
            . . . . . X . . . .
            . . . . . X . . . .
            . . . . . . . . . .",
        verdict: None,
    },
    Case {
        // Down, `*XX` is a three whose straight-four squares are `a` (below) and `b` (above).
        // `b` is a double four for Black (forbidden), `a` is open: the three is real, and
        // with the three across the square is a double three.
        name: "three with one forbidden and one open straight-four square",
        diagram: "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . X . X . X X . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . X X . * . . . . . .
            . . . . X . . . . . .
            . . . . X . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .",
        verdict: Some(Foul::DoubleThree),
    },
    Case {
        // Nested, found by the random test. `*` holds a four (up-right, through `a`), a
        // three down (straight-four square `b`) and a three down-right (square `c`). `b`
        // would hold a four down, a three up-right and a three across, `X b . X` the latter,
        // whose straight-four square `a` makes a five (up-right, through `*`). So that three
        // is not real, `b` is no double three, the three down through `b` is real, and `*`
        // is a double three. Counting `a` as playable (a five is never forbidden) would
        // forbid `b` and allow `*`.
        name: "nested: the straight-four square is allowed because its own three is not real",
        diagram: "
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . . . . * . . .
            . . . . . . X a b X . .
            . . . . . . X . X . c .
            . . . . . X X . X . . X
            . . . . X X . . . O . .
            . . . . . . . . . . . .
            . . . . . . . . . . . .",
        verdict: Some(Foul::DoubleThree),
    },
    Case {
        // Another nested case found by the random test: the referee forbids `*`, and does
        // only when a square that makes a five counts as unplayable two levels down.
        name: "nested: a second shape",
        diagram: "
            . . . . . . . . . . . .
            . . . . . . . . . . . .
            . . . . . O . . . . . .
            . . . . . . . . . . . .
            . . . . . . . X . . . .
            . . . . . . . . X * . .
            . . . . . . . . X . . .
            . . . . . . . X X X . X
            . . . . . . . X . X . .
            . . . . . . . . . . . .",
        verdict: Some(Foul::DoubleThree),
    },
];

#[test]
fn targeted_positions_agree_with_the_referee() {
    // Every case in its eight symmetries, each on a 15x15 board.
    let mut boards = Vec::new();
    let mut marks = Vec::new();
    let mut failures = Vec::new();
    for case in CASES {
        // Lower-case letters only name squares for the comments: they are empty.
        let rows: Vec<Vec<char>> = diagram_rows(case.diagram)
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .map(|c| if c.is_ascii_lowercase() { '.' } else { c })
                    .collect()
            })
            .collect();
        for t in 0..8 {
            let placed = common::embed(&transform(&rows, t), 15, 15);
            let (board, _, mark) = common::parse_marked(&placed);
            let mark = mark.unwrap_or_else(|| panic!("{}: no `*` square", case.name));
            let got = renju_foul(&mut board.clone(), mark);
            if got != case.verdict {
                failures.push(format!(
                    "{} (symmetry {t}): Rensa says {got:?}, the case {:?}\n{}",
                    case.name,
                    case.verdict,
                    show(&board, Some(mark))
                ));
            }
            boards.push(board);
            marks.push((case, mark));
        }
    }
    if let Some(python) = referee_python() {
        let referee = referee_verdicts(&python, &boards);
        for ((board, verdicts), (case, mark)) in boards.iter().zip(&referee).zip(&marks) {
            let on_mark = verdicts
                .iter()
                .find(|v| (v.0, v.1) == (mark.x(), mark.y()))
                .map(|v| v.2);
            if on_mark != case.verdict.map(kind_code) {
                failures.push(format!(
                    "{}: the referee says {on_mark:?}, the case {:?}\n{}",
                    case.name,
                    case.verdict,
                    show(board, Some(*mark))
                ));
            }
        }
        compare("targeted positions", &boards, &referee);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
