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

/// A new engine with `settings` sent, on a fresh 15x15 game.
fn session(settings: &[&str]) -> (Engine, Board) {
    let mut e = Engine::spawn();
    e.send_lines(settings);
    let b = e.start(15);
    (e, b)
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
    let (mut e, mut b) = session(&["INFO timeout_turn 400", "INFO timeout_match 0"]);
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
    let (mut e, mut b) = session(&[
        "INFO timeout_turn 400",
        "INFO timeout_match 0",
        "INFO show_detail 2",
    ]);
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

/// Three stones in the centre (White, Black, White as the engine's opponent, own, opponent),
/// the engine to move as Black; sent as YXBOARD (no reply).
const THREE: [(u32, u32, u8); 3] = [(7, 7, 2), (8, 8, 1), (7, 8, 2)];

/// The engine's lines `(i) eval | depth-seldepth | h8 ...` of the last iteration reported
/// before the move: (index, first square).
fn last_lines(messages: &[String]) -> Vec<(usize, Mv)> {
    let mut lines: Vec<(usize, Mv)> = Vec::new();
    for m in messages {
        let Some(rest) = m.strip_prefix("MESSAGE (") else {
            continue;
        };
        let (index, rest) = rest.split_once(") ").unwrap();
        let index: usize = index.parse().unwrap();
        let first = rest
            .rsplit(" | ")
            .next()
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        let x = first.as_bytes()[0] - b'a';
        let y: u32 = first[1..].parse().unwrap();
        if index == 1 {
            lines.clear();
        }
        lines.push((index, (u32::from(x), y - 1)));
    }
    lines
}

/// `YXNBEST n` without `show_detail`: one `MESSAGE (i) …` per line and iteration, the
/// lines distinct, then the move of line 1, which is played on the engine's board.
#[test]
fn yxnbest_reports_n_lines_and_plays_the_best() {
    let _g = shared();
    let (mut e, mut b) = session(&["INFO timeout_turn 500", "INFO timeout_match 0"]);
    e.send_board_block("YXBOARD", &mut b, &THREE);
    e.expect_silence(SILENCE);
    e.send("YXNBEST 3");
    let r = e.expect_reply(REPLY);
    let m = e.move_of(&r);
    b.assert_playable(m, "YXNBEST");
    let lines = last_lines(&r.messages);
    assert_eq!(lines.len(), 3, "three lines: {:?}", r.messages);
    assert_eq!(lines[0].1, m, "the move heads line 1");
    let firsts: Vec<Mv> = lines.iter().map(|l| l.1).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    for f in &firsts {
        b.assert_playable(*f, "a line's first move");
    }
    // The move is on the engine's board: taking it back is accepted.
    e.send(&format!("TAKEBACK {},{}", m.0, m.1));
    e.expect_ok();
    e.send("YXNBEST 0");
    e.expect_error("YXNBEST");
    e.finish();
}

/// `YXNBEST` under `show_detail 2`: every line as an `INFO PV i` block with `NUMPV n`.
#[test]
fn yxnbest_with_show_detail_2_prints_a_block_per_line() {
    let _g = shared();
    let (mut e, mut b) = session(&[
        "INFO timeout_turn 400",
        "INFO timeout_match 0",
        "INFO show_detail 2",
    ]);
    e.send_board_block("YXBOARD", &mut b, &THREE);
    e.expect_silence(SILENCE);
    e.send("YXNBEST 2");
    let r = e.expect_reply_yixin(REPLY);
    let m = e.move_of(&r);
    b.assert_playable(m, "YXNBEST");
    let heads: Vec<&String> = r
        .messages
        .iter()
        .filter(|l| l.starts_with("INFO PV ") && *l != "INFO PV DONE")
        .collect();
    assert!(heads.iter().any(|l| *l == "INFO PV 0") && heads.iter().any(|l| *l == "INFO PV 1"));
    assert!(r.messages.iter().any(|l| l == "INFO NUMPV 2"));
    assert!(!heads.iter().any(|l| *l == "INFO PV 2"), "only two lines");
    e.finish();
}

/// `YXBLOCK` … `DONE` keeps squares out of every later search (printing nothing) until
/// `YXBLOCKUNDO` or `YXBLOCKRESET`; blocking every legal move is ignored with a MESSAGE.
#[test]
fn yxblock_keeps_moves_out_until_undone() {
    let _g = shared();
    // A node budget well inside the turn: the same search each time, whatever the load,
    // so that the move after YXBLOCKRESET is the first one again.
    let (mut e, mut b) = session(&[
        "INFO timeout_turn 2000",
        "INFO timeout_match 0",
        "INFO max_node 60000",
    ]);
    let stones: Vec<(u32, u32, u8)> = THREE.to_vec();
    let first = e.board(&mut b, &stones);
    e.send_lines(&["YXBLOCK", &format!("{},{}", first.0, first.1), "DONE"]);
    e.expect_silence(SILENCE);
    let second = e.board(&mut b, &stones);
    assert_ne!(second, first, "a blocked square was played");
    e.send_lines(&["YXBLOCK", &format!("{},{}", second.0, second.1), "DONE"]);
    e.expect_silence(SILENCE);
    e.send_board_block("YXBOARD", &mut b, &stones);
    e.send("YXNBEST 3");
    let r = e.expect_reply(REPLY);
    let m = e.move_of(&r);
    assert!(m != first && m != second, "YXNBEST played a blocked square");
    for (_, head) in last_lines(&r.messages) {
        assert!(
            head != first && head != second,
            "a line starts on a blocked square"
        );
    }
    e.send_lines(&["YXBLOCKUNDO", &format!("{},{}", second.0, second.1), "DONE"]);
    e.expect_silence(SILENCE);
    e.send("YXBLOCKRESET");
    e.expect_silence(SILENCE);
    // And the same table as the first search had: empty.
    e.send("YXHASHCLEAR");
    e.expect_silence(SILENCE);
    assert_eq!(
        e.board(&mut b, &stones),
        first,
        "no block after YXBLOCKRESET"
    );

    // A 5x5 board with one empty square: blocking it leaves nothing, so it is ignored.
    let mut small = e.start(5);
    let mut full = Vec::new();
    let rows = ["12121", "12121", "21212", "21202", "12121"];
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            if c != '0' {
                full.push((x as u32, y as u32, c.to_digit(10).unwrap() as u8));
            }
        }
    }
    e.send_lines(&["YXBLOCK", "3,3", "DONE"]);
    e.expect_silence(SILENCE);
    e.send_board_block("BOARD", &mut small, &full);
    let r = e.expect_reply(REPLY);
    assert_eq!(e.move_of(&r), (3, 3));
    assert!(
        r.messages.iter().any(|l| l.contains("blocked")),
        "no MESSAGE about the ignored block: {:?}",
        r.messages
    );
    e.finish();
}

/// `YXSEARCHDEFEND`: a multi-PV search over every move, answered with a legal move.
#[test]
fn yxsearchdefend_answers_a_legal_move() {
    let _g = shared();
    let (mut e, mut b) = session(&["INFO timeout_turn 400", "INFO timeout_match 0"]);
    e.send_board_block("YXBOARD", &mut b, &THREE);
    e.expect_silence(SILENCE);
    e.send("YXSEARCHDEFEND");
    let r = e.expect_reply(REPLY);
    b.assert_playable(e.move_of(&r), "YXSEARCHDEFEND");
    assert!(
        last_lines(&r.messages).len() > 3,
        "lines over all moves: {:?}",
        r.messages
    );
    e.finish();
}

/// The predicted reply: the second square of the last `MESSAGE Depth …` line's line.
fn predicted_reply(messages: &[String]) -> Option<Mv> {
    let line = messages
        .iter()
        .rev()
        .find(|m| m.starts_with("MESSAGE Depth "))?;
    let second = line.rsplit(" | ").next()?.split(' ').nth(1)?;
    let x = u32::from(second.as_bytes()[0] - b'a');
    let y: u32 = second[1..].parse().ok()?;
    Some((x, y - 1))
}

/// `INFO pondering 1`: after answering, the engine thinks on the predicted reply. INFO and
/// ABOUT leave it alone; a TURN with the prediction is a hit ("ponder hit" under
/// show_detail) and any other move a miss ("ponder miss"); every answer stays a legal move.
#[test]
fn pondering_hits_and_misses() {
    let _g = shared();
    let (mut e, mut b) = session(&[
        "INFO timeout_turn 400",
        "INFO timeout_match 0",
        "INFO show_detail 1",
        "INFO pondering 1",
    ]);
    let mut r = think(&mut e, &mut b, (7, 7), false);
    let (mut hits, mut misses) = (0, 0);
    for round in 0..8 {
        let m = e.move_of(&r);
        b.assert_playable(m, "pondering");
        b.place(m, OWN);
        // Not disturbed by INFO or ABOUT.
        e.send("INFO time_left 100000");
        e.expect_about();
        let predicted = predicted_reply(&r.messages).filter(|&p| b.is_empty(p));
        let reply = match predicted {
            Some(p) if round % 2 == 0 => p,
            _ => b.next_empty((round, 0)),
        };
        r = think(&mut e, &mut b, reply, false);
        hits += r
            .messages
            .iter()
            .filter(|l| *l == "MESSAGE ponder hit")
            .count();
        misses += r
            .messages
            .iter()
            .filter(|l| *l == "MESSAGE ponder miss")
            .count();
        if r.line.contains(',') && !b.is_empty(e.move_of(&r)) {
            panic!("an occupied square after pondering: {r:?}");
        }
    }
    assert!(hits >= 1, "no ponder hit in 8 rounds");
    assert!(misses >= 1, "no ponder miss in 8 rounds");
    e.finish();
}

/// Named levels and `INFO strength`: legal moves, quick answers at the bottom, and every
/// level completes a five when it has a four.
#[test]
fn levels_play_legal_moves_and_make_their_five() {
    let _g = shared();
    let mut e = Engine::spawn();
    e.send_lines(&[
        "INFO timeout_turn 2000",
        "INFO timeout_match 0",
        "INFO seed 7",
    ]);
    for level in ["INFO level beginner", "INFO level easy", "INFO strength 60"] {
        e.send(level);
        let mut b = e.start(15);
        let mut m = e.begin(&mut b);
        for i in 0..6 {
            let opp = b.next_empty((i * 2, 14));
            let t = std::time::Instant::now();
            m = e.turn(&mut b, opp);
            if level.ends_with("beginner") {
                // A few hundred nodes: well under the 2 s the clock allows.
                assert!(
                    t.elapsed() < std::time::Duration::from_millis(1500),
                    "{level}: slow"
                );
            }
        }
        let _ = m;
    }
    // Own four on row 3 (x = 3..6): every level plays the five.
    for level in ["INFO level beginner", "INFO strength 10", "INFO level max"] {
        e.send(level);
        let mut b = e.start(15);
        let stones = [
            (3, 3, 1),
            (0, 10, 2),
            (4, 3, 1),
            (2, 10, 2),
            (5, 3, 1),
            (4, 10, 2),
            (6, 3, 1),
            (9, 12, 2),
        ];
        let m = e.board(&mut b, &stones);
        assert!(m == (2, 3) || m == (7, 3), "{level}: no five, played {m:?}");
    }
    e.send("INFO level grandmaster");
    let b = e.start(15);
    let r = {
        e.send("BEGIN");
        e.expect_reply(REPLY)
    };
    b.assert_playable(e.move_of(&r), "after an unknown level");
    assert!(
        r.messages.iter().any(|m| m.contains("level")),
        "an unknown level is reported: {:?}",
        r.messages
    );
    e.finish();
}

/// `show_detail 1` (or 3): Yixin-Board's realtime lines during a long enough search, each
/// well-formed, with squares that are empty; none with `show_detail 2`.
#[test]
fn realtime_lines_with_show_detail_1_only() {
    let _g = shared();
    for (detail, want) in [(1, true), (2, false)] {
        let (mut e, mut b) = session(&[
            "INFO timeout_turn 1500",
            "INFO timeout_match 0",
            &format!("INFO show_detail {detail}"),
        ]);
        e.send_board_block("BOARD", &mut b, &THREE);
        let r = e.expect_reply_yixin(REPLY);
        b.assert_playable(e.move_of(&r), "realtime");
        let realtime: Vec<&str> = r
            .messages
            .iter()
            .filter_map(|l| l.strip_prefix("MESSAGE REALTIME "))
            .collect();
        assert_eq!(
            !realtime.is_empty(),
            want,
            "show_detail {detail}: {realtime:?}"
        );
        for l in realtime {
            if l == "REFRESH" {
                continue;
            }
            let (kind, sq) = l.split_once(' ').expect("KIND x,y");
            assert!(["POS", "DONE", "BEST", "LOST"].contains(&kind), "{l}");
            let m = parse_move(sq);
            assert!(b.on_board(m) && b.is_empty(m), "{l}");
        }
        e.finish();
    }
}

/// Yixin-Board's order with analysis and pondering: `info show_detail 3`, `yxshowinfo`,
/// `start`, its INFO block with `info pondering 1`; each move as `info time_left`,
/// `yxhashclear`, `start 15`, `board` … `done` (a held-back restart, then the predicted
/// position or another); analysis as `yxboard` … `done` then `yxnbest 2`. Every answer is
/// one legal move after MESSAGE and INFO lines, nothing is left over.
#[test]
fn yixin_board_order_with_pondering_and_nbest() {
    let _g = shared();
    let mut e = Engine::spawn();
    e.send("info show_detail 3");
    e.expect_silence(SILENCE);
    e.send("yxshowinfo");
    crate::managers::read_yxshowinfo(&mut e);
    e.send("start 15");
    e.expect_ok();
    e.send_lines(&[
        "info timeout_match 100000",
        "info timeout_turn 400",
        "info max_node -1",
        "info thread_num 1",
        "info pondering 1",
        "info rule 0",
    ]);
    e.expect_quiet(SILENCE);
    let mut b = Board::square(15);
    let mut stones: Vec<(u32, u32, u8)> = vec![(7, 7, 2)];
    let mut hits = 0;
    for round in 0..6u32 {
        e.send_lines(&["info time_left 90000", "yxhashclear"]);
        e.send("start 15");
        e.expect_ok();
        let mut lines = vec!["board".to_string()];
        lines.extend(stones.iter().map(|(x, y, f)| format!("{x},{y},{f}")));
        lines.push("done".to_string());
        e.send_lines(&lines);
        b = Board::square(15);
        for &(x, y, f) in &stones {
            b.place((x, y), f);
        }
        let r = e.expect_reply_yixin(REPLY);
        hits += r
            .messages
            .iter()
            .filter(|l| *l == "MESSAGE ponder hit")
            .count();
        let m = e.move_of(&r);
        b.assert_playable(m, "yixin pondering");
        stones.push((m.0, m.1, 1));
        b.place(m, OWN);
        // Half the time the predicted reply (a hit), else another square (a miss).
        let predicted = r
            .messages
            .iter()
            .rev()
            .find_map(|l| l.strip_prefix("MESSAGE Depth "))
            .and_then(|l| l.rsplit(" | ").next())
            .and_then(|line| line.split(' ').nth(1))
            .map(|sq| {
                (
                    u32::from(sq.as_bytes()[0] - b'a'),
                    sq[1..].parse::<u32>().unwrap() - 1,
                )
            })
            .filter(|&p| b.is_empty(p));
        let opp = match predicted {
            Some(p) if round % 2 == 0 => p,
            _ => b.next_empty((round, 14)),
        };
        stones.push((opp.0, opp.1, 2));
        b.place(opp, OPP);
    }
    // The predicted position arrives whole after yxhashclear + start: still a hit.
    assert!(hits >= 1, "no ponder hit in Yixin-Board's order");
    // Analysis of the current position, then nothing pending.
    e.send_board_block("yxboard", &mut b, &stones);
    e.send("yxnbest 2");
    let r = e.expect_reply_yixin(REPLY);
    b.assert_playable(e.move_of(&r), "yxnbest");
    assert!(
        r.messages.iter().any(|l| l == "INFO NUMPV 2"),
        "{:?}",
        r.messages
    );
    e.finish();
}

/// `INFO evaluator` switches between the classic and the learned evaluation (with or
/// without its network: `tables`), and `INFO weights` loads a folder of weight files;
/// unusable values and folders (a damaged network among them) are named in a `MESSAGE` and
/// change nothing: the engine goes on playing legal moves.
#[test]
fn evaluator_and_weights_keys() {
    let _g = shared();
    let mut e = Engine::spawn();
    e.send_lines(&["INFO timeout_turn 300", "INFO timeout_match 0"]);
    let missing = std::env::temp_dir().join(format!("rensa-no-weights-{}", std::process::id()));
    // A whole folder (the committed tables and networks), and one whose freestyle network
    // is damaged: refused as a whole, not loaded without it.
    let committed = concat!(env!("CARGO_MANIFEST_DIR"), "/src/search/weights");
    let folder = |name: &str, damage: bool| {
        let dir = std::env::temp_dir().join(format!("rensa-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for entry in std::fs::read_dir(committed).unwrap() {
            let path = entry.unwrap().path();
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
        if damage {
            let net = dir.join("freestyle.rnn");
            let mut bytes = std::fs::read(&net).unwrap();
            bytes[1000] ^= 0x10;
            std::fs::write(&net, bytes).unwrap();
        }
        dir
    };
    let (good, damaged) = (folder("weights-ok", false), folder("weights-damaged", true));
    let mut weights_message = false;
    for (setting, complaint) in [
        ("INFO evaluator classic".to_string(), None),
        ("INFO evaluator learned".to_string(), None),
        ("INFO evaluator tables".to_string(), None),
        ("INFO evaluator bogus".to_string(), Some("evaluator")),
        (
            format!("INFO weights {}", missing.display()),
            Some("weights not loaded"),
        ),
        (format!("INFO weights {}", good.display()), None),
        (
            format!("INFO weights {}", damaged.display()),
            Some("weights not loaded"),
        ),
    ] {
        e.send(&setting);
        let mut b = e.start(15);
        e.send("BEGIN");
        let r = e.expect_reply(REPLY);
        let m = e.move_of(&r);
        b.assert_playable(m, &setting);
        b.place(m, 1);
        let opp = b.next_empty((0, 0));
        e.turn(&mut b, opp);
        if let Some(word) = complaint {
            let said = r.messages.iter().any(|l| l.contains(word));
            assert!(said, "{setting}: no MESSAGE about it in {:?}", r.messages);
            weights_message |= word.starts_with("weights");
        } else {
            assert!(
                !r.messages.iter().any(|l| l.contains("not loaded")),
                "{setting}: {:?}",
                r.messages
            );
        }
    }
    assert!(weights_message);
    let _ = std::fs::remove_dir_all(good);
    let _ = std::fs::remove_dir_all(damaged);
}
