//! Analysis output: what `show_detail` asks for, in the forms Rapfi writes and clients read.

use crate::harness::*;

/// True for `Depth D-S | Eval E | Time T | line`, Rapfi's per-iteration line.
fn is_depth_line(text: &str, b: &Board) -> bool {
    let parts: Vec<&str> = text.split(" | ").collect();
    if parts.len() != 4 {
        return false;
    }
    let depth_ok = parts[0]
        .strip_prefix("Depth ")
        .and_then(|d| d.split_once('-'))
        .is_some_and(|(d, s)| {
            d.parse::<u32>().is_ok_and(|d| d >= 1) && s.parse::<u32>().is_ok_and(|s| s >= 1)
        });
    let eval_ok = parts[1].strip_prefix("Eval ").is_some_and(|e| {
        e.parse::<i32>().is_ok()
            || e.strip_prefix("+M")
                .or_else(|| e.strip_prefix("-M"))
                .is_some_and(|n| n.parse::<u32>().is_ok())
    });
    let time_ok = parts[2]
        .strip_prefix("Time ")
        .is_some_and(|t| t.ends_with('s'));
    // The line: letter for x from `a`, number for y from 1; every square empty.
    let line_ok = parts[3].split(' ').all(|m| {
        let mut chars = m.chars();
        let Some(letter) = chars.next().filter(|c| c.is_ascii_lowercase()) else {
            return false;
        };
        let Ok(y) = chars.as_str().parse::<u32>() else {
            return false;
        };
        let sq = (letter as u32 - 'a' as u32, y.wrapping_sub(1));
        b.on_board(sq) && b.is_empty(sq)
    });
    depth_ok && eval_ok && time_ok && line_ok
}

fn think(e: &mut Engine, b: &mut Board, opp: Mv, yixin: bool) -> Reply {
    b.place(opp, OPP);
    e.send(&format!("TURN {},{}", opp.0, opp.1));
    if yixin {
        e.expect_reply_yixin(REPLY)
    } else {
        e.expect_reply(REPLY)
    }
}

/// `show_detail 0`: no search output at all; 1: Rapfi's depth lines, no `INFO` line.
#[test]
fn show_detail_1_prints_rapfi_depth_lines_and_no_info() {
    let _g = shared();
    let mut e = Engine::spawn();
    e.send_lines(&["INFO timeout_turn 400", "INFO timeout_match 0"]);
    let mut b = e.start(15);
    let r = think(&mut e, &mut b, (7, 7), false);
    let m = e.move_of(&r);
    assert!(
        r.messages.is_empty(),
        "show_detail 0 printed {:?}",
        r.messages
    );
    b.place(m, OWN);
    e.send("INFO show_detail 1");
    e.expect_silence(SILENCE);
    // `think` puts the opponent's stone on `b`: the position the lines are searched in.
    let opp = b.next_empty((8, 8));
    let r = think(&mut e, &mut b, opp, false);
    let depth_lines: Vec<&String> = r
        .messages
        .iter()
        .filter(|l| l.starts_with("MESSAGE Depth "))
        .collect();
    assert!(!depth_lines.is_empty(), "no depth line in {:?}", r.messages);
    for l in &depth_lines {
        let text = l.trim_start_matches("MESSAGE ");
        assert!(is_depth_line(text, &b), "not Rapfi's form: {l}");
    }
    e.move_of(&r);
    e.finish();
}

/// `show_detail 2` (Yixin-Board's detailed mode): after each iteration a framed block
/// `INFO PV 0` … `INFO PV DONE` with the keys Yixin-Board reads and a line of empty squares.
#[test]
fn show_detail_2_prints_framed_pv_blocks() {
    let _g = shared();
    let mut e = Engine::spawn();
    e.send_lines(&[
        "INFO timeout_turn 400",
        "INFO timeout_match 0",
        "INFO show_detail 2",
    ]);
    let mut b = e.start(15);
    let r = think(&mut e, &mut b, (7, 7), true);
    let info: Vec<&str> = r
        .messages
        .iter()
        .filter(|l| l.starts_with("INFO "))
        .map(|l| l.as_str())
        .collect();
    assert!(!info.is_empty(), "no INFO block in {:?}", r.messages);
    let blocks: Vec<&[&str]> = info.split_inclusive(|l| *l == "INFO PV DONE").collect();
    for block in &blocks {
        assert_eq!(block.first(), Some(&"INFO PV 0"), "{block:?}");
        assert_eq!(block.last(), Some(&"INFO PV DONE"), "{block:?}");
        for key in [
            "NUMPV",
            "DEPTH",
            "SELDEPTH",
            "NODES",
            "TOTALNODES",
            "TOTALTIME",
            "SPEED",
            "EVAL",
            "WINRATE",
            "BESTLINE",
        ] {
            assert!(
                block.iter().any(|l| l.starts_with(&format!("INFO {key} "))),
                "{key} missing from {block:?}"
            );
        }
        let line = block
            .iter()
            .find_map(|l| l.strip_prefix("INFO BESTLINE "))
            .unwrap();
        for sq in line.split(' ') {
            let m = parse_move(sq);
            assert!(b.on_board(m) && b.is_empty(m), "BESTLINE square {sq}");
        }
    }
    e.move_of(&r);
    e.finish();
}
