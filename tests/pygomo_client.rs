//! A complete game played through pygomo-lib, a Gomocup client from PyPI (pinned in
//! `tests/python-requirements.txt`): two Rensa processes with `show_detail` on, driven by
//! `tests/pygomo/play_game.py`. The client must read Rensa's search output as it reads
//! Rapfi's: depth and selective depth, the evaluation (mate scores as `+M7`), and a
//! principal variation of real squares; and the game must end with a five or a full board.

mod common;

use common::python::python_with;
use rensa::board::Pos;
use rensa::position::Position;
use rensa::rules::Rule;
use std::path::PathBuf;
use std::process::Command;

/// What pygomo read from one search report.
struct Report {
    depth: u32,
    seldepth: u32,
    eval: String,
    pv: Vec<Pos>,
}

fn pos_of(text: &str) -> Pos {
    let (x, y) = text.split_once(',').expect("x,y");
    Pos::new(x.parse().unwrap(), y.parse().unwrap())
}

/// True for an evaluation as Rapfi writes it: an integer, or `+M<n>` / `-M<n>`.
fn is_eval_text(text: &str) -> bool {
    let mate = text
        .strip_prefix("+M")
        .or_else(|| text.strip_prefix("-M"))
        .is_some_and(|n| n.parse::<u32>().is_ok());
    mate || text.parse::<i32>().is_ok()
}

#[test]
fn pygomo_plays_a_game_and_reads_the_search_output() {
    let Some(python) = python_with("pygomo", "the pygomo client test") else {
        return;
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(python)
        .arg(root.join("tests/pygomo/play_game.py"))
        .arg(env!("CARGO_BIN_EXE_pbrain-rensa"))
        .arg("200")
        .output()
        .expect("run the pygomo driver");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "driver failed: {}\n{text}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut moves: Vec<(Pos, Vec<Report>)> = Vec::new();
    let mut end = None;
    for line in text.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        match fields.first() {
            Some(&"MOVE") => {
                let pos = Pos::new(fields[1].parse().unwrap(), fields[2].parse().unwrap());
                moves.push((pos, Vec::new()));
            }
            Some(&"SEARCH") => moves.last_mut().expect("a move").1.push(Report {
                depth: fields[1].parse().unwrap(),
                seldepth: fields[2].parse().unwrap(),
                eval: fields[3].to_string(),
                pv: fields[4..].iter().map(|t| pos_of(t)).collect(),
            }),
            Some(&"END") => end = fields.get(1).map(|s| s.to_string()),
            _ => {}
        }
    }
    let end = end.expect("the driver reports the end");
    assert!(
        end == "five" || end == "full",
        "the game ended badly: {end}\n{text}"
    );
    // Replay the game; every report's line must be made of distinct empty squares of the
    // position it was searched in.
    let mut position = Position::new(15, 15, Rule::Freestyle).unwrap();
    let (mut searched, mut agree) = (0, 0);
    for (i, (mv, reports)) in moves.iter().enumerate() {
        for (k, r) in reports.iter().enumerate() {
            assert!(
                r.depth >= 1 && r.seldepth >= r.depth,
                "move {i}: depth {}-{}",
                r.depth,
                r.seldepth
            );
            assert!(
                k == 0 || r.depth > reports[k - 1].depth,
                "move {i}: depths rise"
            );
            assert!(is_eval_text(&r.eval), "move {i}: eval {:?}", r.eval);
            assert!(!r.pv.is_empty(), "move {i}: an empty line");
            let mut seen = Vec::new();
            for &p in &r.pv {
                assert!(p.x() < 15 && p.y() < 15, "move {i}: {p} is off the board");
                assert!(position.board().is_empty(p), "move {i}: {p} is occupied");
                assert!(!seen.contains(&p), "move {i}: {p} twice in the line");
                seen.push(p);
            }
        }
        if let Some(last) = reports.last() {
            searched += 1;
            agree += usize::from(last.pv[0] == *mv);
        }
        assert!(position.is_legal(*mv), "move {i}: {mv} is illegal");
        position.play(*mv);
    }
    assert!(
        searched >= 5,
        "pygomo read the search output of only {searched} moves\n{text}"
    );
    // The move played heads the last line read for it: the engine reports the line of the
    // move it plays last, even when an unfinished iteration changed it. One slip is allowed
    // for a hard stop that lands between choosing the move and printing its line.
    assert!(
        agree + 1 >= searched,
        "{agree} of {searched} moves head their last line\n{text}"
    );
}
