//! The match runner's referee cross-checked against the slow reference rules of the engine
//! core (`tests/common/reference.rs` of the `rensa` package) on random games for every rule
//! code and many board sizes, and against the public renju forbidden-move cases
//! (renju-note/quintet, MIT, in `shared/testdata/quintet/`).

#[path = "../../tests/common/reference.rs"]
#[allow(dead_code)]
mod reference;

use reference::{Grid, BLACK, EMPTY, WHITE};
use rensa::board::{Board, Cell, Color, Pos};
use rensa::rules::{Foul, Rule};
use rensa_bench::referee::{Referee, Verdict};
use rensa_bench::rng::Rng;
use std::path::Path;

fn code(c: Color) -> u8 {
    match c {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

/// What the reference says a move by `color` on the empty `(x, y)` should get.
fn expected(grid: &mut Grid, x: usize, y: usize, color: Color, rule: Rule) -> Verdict {
    let (xi, yi) = (x as i32, y as i32);
    if reference::wins(grid, xi, yi, code(color), rule) {
        return Verdict::Win;
    }
    if rule == Rule::Renju && color == Color::Black {
        if let Some(f) = reference::renju_foul(grid, xi, yi) {
            return Verdict::Foul(f);
        }
    }
    Verdict::Normal
}

/// Random games: every move is judged by the referee and by the reference; a move judged
/// `Normal` is played on both, a win restarts the game, and a foul is retried elsewhere.
/// Moves favour squares near existing stones so that lines, fours and threes appear.
fn cross_check(rule: Rule, width: usize, height: usize, seed: u64, checks: usize) -> [usize; 3] {
    let mut rng = Rng::new(seed);
    let mut counts = [0usize; 3]; // normal, win, foul
    let mut referee = Referee::new(width, height, rule).unwrap();
    let mut grid = Grid::new(width, height);
    let mut done = 0;
    while done < checks {
        let empties: Vec<(usize, usize)> = (0..height)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .filter(|&(x, y)| grid.rows[y][x] == EMPTY)
            .collect();
        if empties.is_empty() {
            referee = Referee::new(width, height, rule).unwrap();
            grid = Grid::new(width, height);
            continue;
        }
        let near: Vec<(usize, usize)> = empties
            .iter()
            .copied()
            .filter(|&(x, y)| {
                (-2i32..=2).any(|dy| {
                    (-2i32..=2).any(|dx| {
                        let v = grid.get(x as i32 + dx, y as i32 + dy);
                        v == BLACK || v == WHITE
                    })
                })
            })
            .collect();
        let pool = if near.is_empty() || rng.below(10) == 0 {
            &empties
        } else {
            &near
        };
        let (x, y) = pool[rng.below(pool.len())];
        let color = referee.to_move();
        let want = expected(&mut grid, x, y, color, rule);
        let mut trial = referee.clone();
        let got = trial.play(x as i64, y as i64);
        assert_eq!(
            got,
            want,
            "rule {rule} {width}x{height}: {color:?} at {x},{y}\n{}",
            referee.board().to_ascii()
        );
        done += 1;
        match got {
            Verdict::Normal => {
                referee = trial;
                grid.set(x as i32, y as i32, code(color));
                counts[0] += 1;
            }
            Verdict::Win => {
                counts[1] += 1;
                referee = Referee::new(width, height, rule).unwrap();
                grid = Grid::new(width, height);
            }
            Verdict::Foul(_) => counts[2] += 1,
            v => panic!("unexpected verdict {v:?}"),
        }
    }
    counts
}

#[test]
fn referee_matches_reference_rules_on_random_games() {
    let sizes = [
        (15, 15),
        (20, 20),
        (5, 5),
        (32, 32),
        (20, 15),
        (7, 12),
        (32, 5),
    ];
    for (i, rule) in Rule::ALL.iter().enumerate() {
        for (j, &(w, h)) in sizes.iter().enumerate() {
            let checks = if (w, h) == (15, 15) { 6000 } else { 1500 };
            let counts = cross_check(*rule, w, h, (i * 31 + j) as u64 + 1, checks);
            assert!(counts[1] > 0, "{rule} {w}x{h}: no win was exercised");
            if *rule == Rule::Renju && (w, h) == (15, 15) {
                assert!(counts[2] > 0, "renju: no foul was exercised");
            }
        }
    }
}

/// Rule codes as the runner receives them map to the rules the referee uses.
#[test]
fn every_rule_code_is_refereed() {
    for code in [0, 1, 4, 8, 9] {
        let rule = rensa_bench::config::parse_rule(&code.to_string()).unwrap();
        assert_eq!(rule.code(), code);
    }
}

// ---- renju-note/quintet forbidden-move cases ----

/// Just enough JSON for the case file.
#[derive(Debug, Clone)]
enum J {
    Null,
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
    Other,
}

fn parse_json(s: &str) -> J {
    fn ws(b: &[u8], i: &mut usize) {
        while *i < b.len() && (b[*i] as char).is_whitespace() {
            *i += 1;
        }
    }
    fn string(b: &[u8], i: &mut usize) -> String {
        *i += 1;
        let mut out = Vec::new();
        while b[*i] != b'"' {
            if b[*i] == b'\\' {
                *i += 1;
            }
            out.push(b[*i]);
            *i += 1;
        }
        *i += 1;
        String::from_utf8(out).unwrap()
    }
    fn value(b: &[u8], i: &mut usize) -> J {
        ws(b, i);
        match b[*i] {
            b'"' => J::Str(string(b, i)),
            b'[' => {
                *i += 1;
                let mut v = Vec::new();
                loop {
                    ws(b, i);
                    if b[*i] == b']' {
                        *i += 1;
                        return J::Arr(v);
                    }
                    v.push(value(b, i));
                    ws(b, i);
                    if b[*i] == b',' {
                        *i += 1;
                    }
                }
            }
            b'{' => {
                *i += 1;
                let mut v = Vec::new();
                loop {
                    ws(b, i);
                    if b[*i] == b'}' {
                        *i += 1;
                        return J::Obj(v);
                    }
                    let k = string(b, i);
                    ws(b, i);
                    *i += 1; // ':'
                    let x = value(b, i);
                    v.push((k, x));
                    ws(b, i);
                    if b[*i] == b',' {
                        *i += 1;
                    }
                }
            }
            b'n' => {
                *i += 4;
                J::Null
            }
            _ => {
                while *i < b.len() && !matches!(b[*i], b',' | b']' | b'}') {
                    *i += 1;
                }
                J::Other
            }
        }
    }
    let mut i = 0;
    value(s.as_bytes(), &mut i)
}

fn get<'a>(j: &'a J, key: &str) -> Option<&'a J> {
    match j {
        J::Obj(v) => v.iter().find(|(k, _)| k == key).map(|(_, x)| x),
        _ => None,
    }
}

/// `h8` → Gomocup (x, y) on 15x15: x from the letter, y = 15 - row.
fn square(name: &str) -> (usize, usize) {
    let x = (name.as_bytes()[0] - b'a') as usize;
    let row: usize = name[1..].parse().unwrap();
    (x, 15 - row)
}

fn foul_named(name: &str) -> Foul {
    match name {
        "double-three" => Foul::DoubleThree,
        "double-four" => Foul::DoubleFour,
        "overline" => Foul::Overline,
        other => panic!("unknown foul {other}"),
    }
}

#[test]
fn referee_agrees_with_quintet_forbidden_cases() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/testdata/quintet/renju_forbidden_cases.jsonl");
    let Ok(text) = std::fs::read_to_string(&path) else {
        assert!(
            std::env::var_os("RENSA_REQUIRE_TESTDATA").is_none(),
            "{} missing and RENSA_REQUIRE_TESTDATA is set",
            path.display()
        );
        eprintln!("{} not found: skipped", path.display());
        return;
    };
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case = parse_json(line);
        let mut board = Board::new(15, 15).unwrap();
        for (key, color) in [("black", Color::Black), ("white", Color::White)] {
            if let Some(J::Arr(list)) = get(&case, key) {
                for s in list {
                    if let J::Str(s) = s {
                        let (x, y) = square(s);
                        board.place(Pos::new(x, y), Cell::Stone(color));
                    }
                }
            }
        }
        let referee = Referee::from_position(board.clone(), Rule::Renju, Color::Black);
        let judge = |x: usize, y: usize| {
            let mut r = referee.clone();
            r.play(x as i64, y as i64)
        };
        match get(&case, "query") {
            Some(J::Str(q)) if q == "all" => {
                let mut want: Vec<((usize, usize), Foul)> = Vec::new();
                if let Some(J::Arr(list)) = get(&case, "forbidden") {
                    for item in list {
                        if let J::Arr(pair) = item {
                            if let (J::Str(sq), J::Str(kind)) = (&pair[0], &pair[1]) {
                                want.push((square(sq), foul_named(kind)));
                            }
                        }
                    }
                }
                for p in board.empty_positions() {
                    let got = judge(p.x(), p.y());
                    let expect = want.iter().find(|(sq, _)| *sq == (p.x(), p.y()));
                    match expect {
                        Some((_, f)) => assert_eq!(got, Verdict::Foul(*f), "{line}"),
                        None => assert!(!matches!(got, Verdict::Foul(_)), "{line} at {p}"),
                    }
                    checked += 1;
                }
            }
            Some(J::Str(q)) => {
                let (x, y) = square(q);
                let got = judge(x, y);
                match get(&case, "expected") {
                    Some(J::Str(kind)) => {
                        assert_eq!(got, Verdict::Foul(foul_named(kind)), "{line}")
                    }
                    Some(J::Null) | None => {
                        assert!(!matches!(got, Verdict::Foul(_)), "{line}: got {got:?}")
                    }
                    Some(other) => panic!("bad expected {other:?}"),
                }
                checked += 1;
            }
            other => panic!("bad query {other:?}"),
        }
    }
    assert!(checked > 22, "only {checked} checks");
}
