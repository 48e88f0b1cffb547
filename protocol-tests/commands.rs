//! One session per command family: START/RECTSTART/RESTART, BOARD, TAKEBACK,
//! PLAY, SWAP2BOARD, ABOUT, INFO, and the Yixin extensions.

use crate::harness::*;
use crate::managers::read_yxshowinfo;
use crate::positions::*;
use std::collections::HashSet;
use std::time::Duration;

/// Fast play for sessions that are not about strength or time.
fn fast(e: &mut Engine) {
    e.send_lines(&["INFO timeout_turn 300", "INFO timeout_match 0"]);
}

// --- START / RECTSTART / RESTART -------------------------------------------

#[test]
fn start_smallest_and_largest_square_boards() {
    let _g = shared();
    let mut e = Engine::spawn();
    fast(&mut e);
    for n in [5, 32, 15, 20, 6, 31] {
        let mut b = e.start(n);
        let m = e.begin(&mut b);
        let opp = b.next_empty((n - 1, n - 1));
        let m2 = e.turn(&mut b, opp);
        assert!(m.0 < n && m.1 < n && m2.0 < n && m2.1 < n);
    }
    e.finish();
}

/// On 5x5 the engine must keep answering legal moves until the board is
/// nearly full (no off-board or occupied reply late in a game).
#[test]
fn start_5_plays_a_whole_game_on_empty_squares() {
    let _g = shared();
    let mut e = Engine::spawn();
    fast(&mut e);
    e.send("INFO timeout_turn 100");
    let mut b = e.start(5);
    let mut last = e.begin(&mut b);
    // Our moves: the first empty square in scan order. Nobody can make five
    // in a row easily here, but if somebody does the game simply goes on: we
    // only check the engine's replies are legal.
    while b.count(EMPTY) >= 2 {
        let opp = b.next_empty((0, 0));
        last = e.turn(&mut b, opp);
    }
    let _ = last;
    e.finish();
}

#[test]
fn start_bad_sizes_are_refused_and_old_game_stays() {
    let _g = shared();
    let mut e = Engine::spawn();
    fast(&mut e);
    let mut b = e.start(20);
    let m = e.begin(&mut b);
    for bad in [
        "START 4",
        "START 33",
        "START abc",
        "START 0",
        "START -15",
        "START",
        "START 15x15",
        "START 1000000000000",
    ] {
        e.send(bad);
        e.expect_error(bad);
    }
    // The 20x20 game with the engine's first stone is still there: its stone
    // is occupied, and (19,19) is on the board.
    e.send(&format!("TURN {},{}", m.0, m.1));
    e.expect_error("TURN on the engine's stone after refused STARTs");
    e.turn(&mut b, (19, 19));
    e.finish();
}

#[test]
fn rectstart_20x15_moves_inside_bounds() {
    let _g = shared();
    let mut e = Engine::spawn();
    fast(&mut e);
    e.send("RECTSTART 20,15");
    e.expect_ok();
    let mut b = Board::new(20, 15);
    let mut last = e.begin(&mut b);
    // Corner squares that exist only if the width is 20 and the height 15.
    for opp in [(19, 14), (19, 0), (0, 14)] {
        last = e.turn(&mut b, opp);
    }
    // (19,15) and (14,19) are off this board.
    for bad in ["TURN 19,15", "TURN 14,19", "TURN 20,0"] {
        e.send(bad);
        e.expect_error(bad);
    }
    for _ in 0..4 {
        let opp = b.next_empty((last.0 + 1, last.1));
        last = e.turn(&mut b, opp);
    }
    e.finish();
}

#[test]
fn rectstart_32x5_and_5x32_moves_inside_bounds() {
    let _g = shared();
    let mut e = Engine::spawn();
    fast(&mut e);
    for (w, h) in [(32u32, 5u32), (5, 32)] {
        e.send(&format!("RECTSTART {w},{h}"));
        e.expect_ok();
        let mut b = Board::new(w, h);
        // An opening BOARD near the far corner, then a few turns.
        let m = e.board(
            &mut b,
            &[
                (w - 1, h - 1, OPP),
                (w - 2, h - 2, OWN),
                (w - 3, h - 1, OPP),
            ],
        );
        let bad = format!("TURN {},{}", h.max(w) - 1, h.max(w) - 1);
        e.send(&bad);
        e.expect_error(&bad);
        let mut last = m;
        for _ in 0..6 {
            let opp = b.next_empty((last.0.saturating_sub(1), last.1));
            last = e.turn(&mut b, opp);
        }
    }
    e.finish();
}

#[test]
fn rectstart_bad_sizes_are_refused_and_old_game_stays() {
    let _g = shared();
    let mut e = Engine::spawn();
    fast(&mut e);
    e.send("RECTSTART 20,15");
    e.expect_ok();
    let mut b = Board::new(20, 15);
    let m = e.begin(&mut b);
    for bad in [
        "RECTSTART 4,10",
        "RECTSTART 10,4",
        "RECTSTART 33,20",
        "RECTSTART 20,33",
        "RECTSTART 20",
        "RECTSTART 20x15",
        "RECTSTART a,b",
        "RECTSTART",
    ] {
        e.send(bad);
        e.expect_error(bad);
    }
    e.send(&format!("TURN {},{}", m.0, m.1));
    e.expect_error("TURN on the engine's stone after refused RECTSTARTs");
    e.turn(&mut b, (19, 14));
    e.finish();
}

/// RESTART and START reset the position but keep INFO settings (here: the
/// renju rule, observed through YXSHOWFORBID).
#[test]
fn restart_and_start_reset_position_but_keep_info() {
    let _g = shared();
    let mut e = Engine::spawn();
    fast(&mut e);
    e.send("INFO rule 4");
    let mut b = e.start(15);
    let m = e.begin(&mut b);
    e.send("RESTART");
    e.expect_ok();
    // The engine's stone is gone: TURN there is legal.
    let mut b = Board::square(15);
    e.turn(&mut b, m);
    for cmd in ["RESTART", "START 15"] {
        e.send(cmd);
        e.expect_ok();
        let mut b = Board::square(15);
        e.send_board_block("YXBOARD", &mut b, &stones(&DIAMOND, &CORNERS));
        e.expect_quiet(SILENCE);
        e.send("YXSHOWFORBID");
        let r = e.expect_reply(QUICK);
        assert_eq!(
            parse_forbid(&r.line),
            vec![(7, 7)],
            "after {cmd}: rule 4 must still apply\n{}",
            e.diagnostics()
        );
    }
    e.finish();
}

/// START and RECTSTART may come in the middle of a game (no END): each is a
/// full new game.
#[test]
fn start_and_rectstart_mid_game_begin_new_games() {
    let _g = shared();
    let mut e = Engine::spawn();
    fast(&mut e);
    let mut b = e.start(15);
    let m = e.board(&mut b, &quiet15());
    e.send("RECTSTART 16,15");
    e.expect_ok();
    let mut b = Board::new(16, 15);
    e.turn(&mut b, m);
    let opp = b.next_empty((7, 7));
    e.turn(&mut b, opp);
    e.send("START 15");
    e.expect_ok();
    let mut b = Board::square(15);
    e.turn(&mut b, (7, 7));
    e.finish();
}

// --- BOARD -------------------------------------------------------------------

/// BOARD replaces the whole position every time (Yixin-Board and
/// c-gomoku-cli `-sendbyboard` send it before every move without START).
#[test]
fn board_again_replaces_the_whole_position() {
    let _g = shared();
    let mut e = Engine::spawn();
    fast(&mut e);
    let mut b = e.start(15);
    let m = e.board(&mut b, &quiet15());
    // A different position where the engine's last reply square and the old
    // stones are all empty; the engine must win at once.
    let (win, wins) = win_open_four();
    let mut b2 = Board::square(15);
    let r = e.board(&mut b2, &win);
    assert!(
        wins.contains(&r),
        "BOARD after BOARD: wanted one of {wins:?}, got {r:?}"
    );
    // And once more the first position: the engine's reply square of the
    // first BOARD is free again.
    let mut b3 = Board::square(15);
    let r3 = e.board(&mut b3, &quiet15());
    let _ = (m, r3);
    e.finish();
}

/// Field 3 (a blocked square of a continuous game) is accepted, not counted
/// for colours, and never played on.
#[test]
fn board_accepts_field_3_blocked_squares() {
    let _g = shared();
    let mut e = Engine::spawn();
    fast(&mut e);
    let mut b = e.start(15);
    let mut s = quiet15();
    for x in 2..7 {
        s.push((x, 2, BLOCKED));
    }
    let m = e.board(&mut b, &s);
    assert!(b.get(m) == OWN);
    e.finish();
}

/// BOARD is never refused for colour counts; with unusual counts the first
/// listed stone is Black and the engine says so in a MESSAGE.
#[test]
fn board_with_unusual_colour_counts_plays_and_says_so() {
    let _g = shared();
    let mut e = Engine::spawn();
    fast(&mut e);
    let mut b = e.start(15);
    // 3 own stones, 0 opponent stones.
    e.send_board_block("BOARD", &mut b, &[(7, 7, OWN), (9, 9, OWN), (3, 11, OWN)]);
    let r = e.expect_reply(REPLY);
    let m = e.move_of(&r);
    b.assert_playable(m, "BOARD with 3 own stones and no opponent stone");
    assert!(
        !r.messages.is_empty(),
        "unusual counts: the engine must say which colour it plays in a MESSAGE\n{}",
        e.diagnostics()
    );
    // 1 own stone, 4 opponent stones.
    let mut b = Board::square(15);
    e.send_board_block(
        "BOARD",
        &mut b,
        &[
            (7, 7, OPP),
            (8, 8, OWN),
            (1, 1, OPP),
            (13, 1, OPP),
            (1, 13, OPP),
        ],
    );
    let r = e.expect_reply(REPLY);
    let m = e.move_of(&r);
    b.assert_playable(m, "BOARD with 1 own and 4 opponent stones");
    assert!(!r.messages.is_empty(), "no MESSAGE about colours");
    e.finish();
}

/// Colours follow the counts: the same black double-three shape is a
/// forbidden point when those stones are the engine's and the engine is
/// Black, and not when the counts make the engine White.
#[test]
fn colours_are_inferred_from_counts_for_renju() {
    let _g = shared();
    let mut e = Engine::spawn();
    fast(&mut e);
    e.send("INFO rule 4");
    let mut b = e.start(15);
    // own (diamond) 4, opp 4 → engine Black, diamond is black.
    e.send_board_block("YXBOARD", &mut b, &stones(&DIAMOND, &CORNERS));
    e.expect_quiet(SILENCE);
    e.send("YXSHOWFORBID");
    let r = e.expect_reply(QUICK);
    assert_eq!(parse_forbid(&r.line), vec![(7, 7)], "{}", e.diagnostics());
    // own 3 corners, opp diamond 4 → engine White → nothing is forbidden for
    // the side to move.
    let mut b = Board::square(15);
    e.send_board_block(
        "YXBOARD",
        &mut b,
        &stones_opp_first(&CORNERS[..3], &DIAMOND),
    );
    e.expect_quiet(SILENCE);
    e.send("YXSHOWFORBID");
    let r = e.expect_reply(QUICK);
    assert_eq!(
        r.line,
        "FORBID .",
        "engine is White here\n{}",
        e.diagnostics()
    );
    e.finish();
}

// --- TAKEBACK ------------------------------------------------------------------

#[test]
fn takeback_last_stone_other_stone_and_errors() {
    let _g = shared();
    let mut e = Engine::spawn();
    fast(&mut e);
    let mut b = e.start(15);
    let m1 = e.begin(&mut b);
    let o1 = b.next_empty((0, 0));
    let m2 = e.turn(&mut b, o1);
    let o2 = b.next_empty((14, 0));
    let m3 = e.turn(&mut b, o2);

    // The last stone (the engine's m3).
    e.send(&format!("TAKEBACK {},{}", m3.0, m3.1));
    e.expect_ok();
    b.remove(m3);
    // Again: now empty → ERROR.
    e.send(&format!("TAKEBACK {},{}", m3.0, m3.1));
    e.expect_error("TAKEBACK of an empty square");
    // The last stone is now the opponent's o2.
    e.send(&format!("TAKEBACK {},{}", o2.0, o2.1));
    e.expect_ok();
    b.remove(o2);
    // Another stone, not the last one: the engine's first stone.
    e.send(&format!("TAKEBACK {},{}", m1.0, m1.1));
    e.expect_ok();
    b.remove(m1);
    // Off-board and malformed.
    for bad in [
        "TAKEBACK 15,3",
        "TAKEBACK 3,15",
        "TAKEBACK 99,99",
        "TAKEBACK -1,0",
        "TAKEBACK",
    ] {
        e.send(bad);
        e.expect_error(bad);
    }
    // The removed squares are empty again: TURN there is legal and the
    // engine never answers on the remaining stones.
    e.turn(&mut b, m1);
    let o = if b.is_empty(m3) { m3 } else { b.next_empty(m3) };
    e.turn(&mut b, o);
    // Remaining stones are still there.
    for s in [o1, m2] {
        e.send(&format!("TURN {},{}", s.0, s.1));
        e.expect_error("TURN on a stone that was not taken back");
    }
    e.finish();
}

/// TAKEBACK of a stone that is not the last one re-infers colours: opp 5 /
/// own 4 (engine White) becomes 4 / 4 (engine Black), so the engine's
/// double-three point becomes forbidden.
#[test]
fn takeback_of_another_stone_reinfers_colours() {
    let _g = shared();
    let mut e = Engine::spawn();
    fast(&mut e);
    e.send("INFO rule 4");
    let mut b = e.start(15);
    let opp = [(0, 0), (14, 0), (0, 14), (14, 14), (14, 7)];
    e.send_board_block("YXBOARD", &mut b, &stones_opp_first(&DIAMOND, &opp));
    e.expect_quiet(SILENCE);
    e.send("YXSHOWFORBID");
    let r = e.expect_reply(QUICK);
    assert_eq!(
        r.line,
        "FORBID .",
        "5 opp / 4 own: engine is White\n{}",
        e.diagnostics()
    );
    e.send("TAKEBACK 14,0");
    e.expect_ok();
    e.send("YXSHOWFORBID");
    let r = e.expect_reply(QUICK);
    assert_eq!(
        parse_forbid(&r.line),
        vec![(7, 7)],
        "4 opp / 4 own after TAKEBACK: engine is Black\n{}",
        e.diagnostics()
    );
    e.finish();
}

// --- PLAY --------------------------------------------------------------------

#[test]
fn play_places_own_stone_and_echoes() {
    let _g = shared();
    let mut e = Engine::spawn();
    fast(&mut e);
    let mut b = e.start(15);
    e.send("PLAY 7,7");
    let r = e.expect_reply(QUICK);
    assert_eq!(r.line, "7,7", "PLAY must echo the move");
    b.place((7, 7), OWN);
    // The stone is there.
    e.send("TURN 7,7");
    e.expect_error("TURN on the PLAYed stone");
    e.send("PLAY 7,7");
    e.expect_error("PLAY on an occupied square");
    e.send("PLAY 15,0");
    e.expect_error("PLAY off the board");
    e.send("PLAY x,y");
    e.expect_error("PLAY malformed");
    e.turn(&mut b, (8, 8));
    e.finish();
}

// --- SWAP2BOARD ----------------------------------------------------------------

fn swap2(e: &mut Engine, stones: &[&str]) -> String {
    let mut lines = vec!["SWAP2BOARD"];
    lines.extend_from_slice(stones);
    lines.push("DONE");
    e.send_lines(&lines);
    let r = e.expect_reply(REPLY);
    assert!(
        !r.line.starts_with("SUGGEST"),
        "the engine never sends SUGGEST"
    );
    r.line
}

fn check_new_points(e: &Engine, occupied: &[Mv], pts: &[Mv], n: u32) {
    let mut seen: HashSet<Mv> = occupied.iter().copied().collect();
    for &p in pts {
        assert!(
            p.0 < n && p.1 < n,
            "{p:?} off the board\n{}",
            e.diagnostics()
        );
        assert!(
            seen.insert(p),
            "{p:?} is not an empty square\n{}",
            e.diagnostics()
        );
    }
}

#[test]
fn swap2board_empty_gives_three_stones() {
    let _g = shared();
    let mut e = Engine::spawn();
    fast(&mut e);
    e.send("INFO rule 1");
    e.start(15);
    e.send("INFO time_left 60000");
    let line = swap2(&mut e, &[]);
    let pts = parse_moves(&line);
    assert_eq!(pts.len(), 3, "three stones on one line, got {line:?}");
    check_new_points(&e, &[], &pts, 15);
    e.finish();
}

#[test]
fn swap2board_three_stones_gives_swap_or_one_or_two_moves() {
    let _g = shared();
    let mut e = Engine::spawn();
    fast(&mut e);
    e.send("INFO rule 1");
    let occupied = [(7, 7), (8, 8), (6, 9)];
    for variant in [["7,7", "8,8", "6,9"], ["7,7,1", "8,8,2", "6,9,1"]] {
        e.start(15);
        let line = swap2(&mut e, &variant);
        if line != "SWAP" {
            let pts = parse_moves(&line);
            assert!(
                pts.len() == 1 || pts.len() == 2,
                "3 stones: SWAP, x,y or x1,y1 x2,y2; got {line:?}"
            );
            check_new_points(&e, &occupied, &pts, 15);
        }
    }
    e.finish();
}

#[test]
fn swap2board_five_stones_gives_swap_or_one_move() {
    let _g = shared();
    let mut e = Engine::spawn();
    fast(&mut e);
    e.send("INFO rule 1");
    let occupied = [(7, 7), (8, 8), (6, 9), (8, 6), (9, 9)];
    e.start(15);
    let line = swap2(&mut e, &["7,7", "8,8", "6,9", "8,6", "9,9"]);
    if line != "SWAP" {
        let pts = parse_moves(&line);
        assert_eq!(pts.len(), 1, "5 stones: SWAP or one move, got {line:?}");
        check_new_points(&e, &occupied, &pts, 15);
    }
    e.finish();
}

/// Whole swap2 flow as GomocupJudge drives it: SWAP2BOARD to player A,
/// then B, then BOARD with own/opponent labels on the same process.
#[test]
fn swap2board_then_board_continues_the_game() {
    let _g = shared();
    let mut e = Engine::spawn();
    fast(&mut e);
    e.send_lines(&["INFO rule 1", "INFO timeout_match 60000"]);
    e.start(15);
    e.send("INFO time_left 60000");
    let line = swap2(&mut e, &[]);
    let pts = parse_moves(&line);
    assert_eq!(pts.len(), 3, "{line:?}");
    // We (player B) stay white and play stone 4; the engine is Black and
    // gets a BOARD.
    let mut b = Board::square(15);
    b.place(pts[0], OWN);
    b.place(pts[1], OPP);
    b.place(pts[2], OWN);
    let s4 = b.next_empty((pts[2].0 + 1, pts[2].1));
    b.place(s4, OPP);
    let s: Vec<(u32, u32, u8)> = b.history.clone();
    let mut b2 = Board::square(15);
    e.send("INFO time_left 59000");
    e.board(&mut b2, &s);
    e.finish();
}

#[test]
fn swap2board_malformed_blocks_are_refused() {
    let _g = shared();
    let mut e = Engine::spawn();
    fast(&mut e);
    e.start(15);
    for (what, block) in [
        ("a bad line", vec!["7,7", "foo", "6,9"]),
        ("an off-board stone", vec!["7,7", "8,8", "15,9"]),
        ("a duplicate stone", vec!["7,7", "8,8", "7,7"]),
        ("4 stones", vec!["7,7", "8,8", "6,9", "9,9"]),
        ("2 stones", vec!["7,7", "8,8"]),
    ] {
        let mut lines = vec!["SWAP2BOARD"];
        lines.extend(block);
        lines.push("DONE");
        e.send_lines(&lines);
        e.expect_error(&format!("SWAP2BOARD with {what}"));
        e.expect_silence(Duration::from_millis(100));
    }
    e.finish();
}

// --- ABOUT ---------------------------------------------------------------------

#[test]
fn about_has_name_version_author_country() {
    let _g = shared();
    let mut e = Engine::spawn();
    let line = e.expect_about();
    // key="value" pairs separated by ", ".
    let mut keys = Vec::new();
    let mut rest = line.as_str();
    loop {
        let eq = rest
            .find("=\"")
            .unwrap_or_else(|| panic!("ABOUT: expected key=\"value\" pairs, got {line:?}"));
        let key = &rest[..eq];
        assert!(
            !key.is_empty() && key.bytes().all(|c| c.is_ascii_alphabetic()),
            "ABOUT: bad key {key:?} in {line:?}"
        );
        let after = &rest[eq + 2..];
        let close = after
            .find('"')
            .unwrap_or_else(|| panic!("ABOUT: unterminated value in {line:?}"));
        let value = &after[..close];
        keys.push((key.to_string(), value.to_string()));
        rest = &after[close + 1..];
        if rest.is_empty() {
            break;
        }
        rest = rest
            .strip_prefix(", ")
            .unwrap_or_else(|| panic!("ABOUT: pairs must be separated by \", \": {line:?}"));
    }
    let get = |k: &str| keys.iter().find(|(kk, _)| kk == k).map(|(_, v)| v.clone());
    assert_eq!(get("name").as_deref(), Some("rensa"), "{line}");
    assert_eq!(keys[0].0, "name", "name comes first: {line}");
    assert_eq!(
        get("version").as_deref(),
        Some(env!("CARGO_PKG_VERSION")),
        "version must be the crate version: {line}"
    );
    assert!(get("author").is_some_and(|v| !v.is_empty()), "{line}");
    assert!(get("country").is_some_and(|v| !v.is_empty()), "{line}");
    // Case-insensitive, and again later in a game.
    e.send("about");
    let again = e.expect_reply(QUICK).line;
    assert_eq!(again, line);
    e.finish();
}

// --- INFO --------------------------------------------------------------------

/// Every INFO key of the spec, with a valid value, prints nothing; the next
/// move command is answered normally.
#[test]
fn info_all_keys_are_silent() {
    let _g = shared();
    let mut e = Engine::spawn();
    let mut b = e.start(15);
    for l in [
        "INFO timeout_turn 500",
        "INFO timeout_match 100000",
        "INFO time_left 100000",
        "INFO max_memory 367001600",
        "INFO game_type 1",
        "INFO rule 1",
        "INFO folder /tmp/some folder with spaces",
        "INFO evaluate 7,7",
        "INFO thread_num 1",
        "INFO hash_size 16384",
        "INFO max_depth 100",
        "INFO max_node 1000000000",
        "INFO pondering 0",
        "INFO show_detail 0",
        "INFO caution_factor 2",
    ] {
        e.send(l);
        e.expect_silence(Duration::from_millis(60));
    }
    e.expect_silence(SILENCE);
    let m = e.begin(&mut b);
    let opp = b.next_empty((m.0 + 1, m.1));
    e.turn(&mut b, opp);
    e.finish();
}

/// Unknown keys and malformed INFO lines print nothing either ("INFO never
/// answers on stdout").
#[test]
fn info_unknown_keys_and_malformed_lines_print_nothing() {
    let _g = shared();
    let mut e = Engine::spawn();
    fast(&mut e);
    let mut b = e.start(15);
    for l in [
        "INFO some_unknown_key 42",
        "INFO vcthread 1",
        "INFO time_increment 0",
        "INFO timeout_turn",
        "INFO",
    ] {
        e.send(l);
        e.expect_silence(Duration::from_millis(100));
    }
    e.expect_silence(SILENCE);
    e.begin(&mut b);
    e.finish();
}

/// A bad value prints nothing at INFO time; it is reported by a MESSAGE
/// before the next move, and the move still comes.
#[test]
fn info_bad_values_reported_by_message_before_next_move() {
    let _g = shared();
    for bad in [
        "INFO timeout_turn abc",
        "INFO timeout_match -x",
        "INFO max_memory lots",
        "INFO rule seven",
        "INFO thread_num many",
        "INFO hash_size ?",
        "INFO max_depth deep",
        "INFO caution_factor 1.5.3",
        "INFO game_type x",
        "INFO time_left soon",
    ] {
        let mut e = Engine::spawn();
        fast(&mut e);
        let mut b = e.start(15);
        e.send(bad);
        e.expect_silence(SILENCE);
        e.send("BEGIN");
        let r = e.expect_reply(REPLY);
        let m = e.move_of(&r);
        b.assert_playable(m, bad);
        assert!(
            !r.messages.is_empty(),
            "{bad}: wanted a MESSAGE before the next move\n{}",
            e.diagnostics()
        );
        b.place(m, OWN);
        e.finish();
    }
}

/// A bad value is ignored: the previous good value stays in force.
#[test]
fn info_bad_value_keeps_previous_value() {
    let _g = exclusive();
    let mut e = Engine::spawn();
    let mut b = e.start(20);
    e.send_lines(&[
        "INFO timeout_turn 300",
        "INFO timeout_match 1000000",
        "INFO time_left 1000000",
        "INFO timeout_turn forever",
    ]);
    let t = e.send_board_block_timed(&mut b, &opening20_white());
    let r = e.expect_reply(REPLY);
    e.move_of(&r);
    let dt = r.at.duration_since(t);
    assert!(
        dt < Duration::from_millis(800),
        "timeout_turn 300 must still apply after a bad value; reply took {dt:?}\n{}",
        e.diagnostics()
    );
    e.finish();
}

// --- Yixin extensions --------------------------------------------------------

#[test]
fn yxshowinfo_answers_two_message_info_lines() {
    let _g = shared();
    let mut e = Engine::spawn();
    e.send("YXSHOWINFO");
    let (t, h) = read_yxshowinfo(&mut e);
    assert!(t >= 1 && h >= 1);
    e.finish();
}

#[test]
fn yxhashclear_prints_at_most_a_message() {
    let _g = shared();
    let mut e = Engine::spawn();
    fast(&mut e);
    let mut b = e.start(15);
    e.send("YXHASHCLEAR");
    let msgs = e.expect_quiet(SILENCE);
    assert!(msgs.len() <= 1, "at most one MESSAGE, got {msgs:?}");
    e.begin(&mut b);
    e.send("yxhashclear");
    let msgs = e.expect_quiet(SILENCE);
    assert!(msgs.len() <= 1, "at most one MESSAGE, got {msgs:?}");
    e.finish();
}

#[test]
fn yxboard_sets_position_without_reply() {
    let _g = shared();
    let mut e = Engine::spawn();
    fast(&mut e);
    let mut b = e.start(15);
    let (win, _) = win_open_four();
    e.send_board_block("YXBOARD", &mut b, &win);
    e.expect_quiet(SILENCE);
    // The position is set: a stone of it is occupied...
    e.send("TURN 5,7");
    e.expect_error("TURN on a YXBOARD stone");
    // ...and the engine is to move. Its own stone by PLAY, then the
    // opponent's harmless TURN: the engine must make five at once.
    e.send("PLAY 0,0");
    assert_eq!(e.expect_reply(QUICK).line, "0,0");
    b.place((0, 0), OWN);
    let m = e.turn(&mut b, (14, 0));
    assert!(
        m == (4, 7) || m == (9, 7),
        "after YXBOARD with an open four the engine must make five, got {m:?}\n{}",
        e.diagnostics()
    );
    e.finish();
}

#[test]
fn yxshowforbid_double_three_in_renju() {
    let _g = shared();
    let mut e = Engine::spawn();
    e.send("INFO rule 4");
    let mut b = e.start(15);
    e.send_board_block("YXBOARD", &mut b, &stones(&DIAMOND, &CORNERS));
    e.expect_quiet(SILENCE);
    e.send("YXSHOWFORBID");
    let r = e.expect_reply(QUICK);
    assert!(r.line.starts_with("FORBID ") && r.line.ends_with('.'));
    assert_eq!(parse_forbid(&r.line), vec![(7, 7)], "{}", e.diagnostics());
    assert_eq!(r.line, "FORBID 0707.");
    e.finish();
}

#[test]
fn yxshowforbid_overline_point() {
    let _g = shared();
    let mut e = Engine::spawn();
    e.send("INFO rule 4");
    let mut b = e.start(15);
    e.send_board_block("YXBOARD", &mut b, &overline_or_block());
    e.expect_quiet(SILENCE);
    e.send("yxshowforbid");
    let r = e.expect_reply(QUICK);
    assert_eq!(parse_forbid(&r.line), vec![(7, 7)], "{}", e.diagnostics());
    e.finish();
}

#[test]
fn yxshowforbid_empty_for_white_freestyle_and_empty_board() {
    let _g = shared();
    let mut e = Engine::spawn();
    // Renju, empty board: nothing forbidden.
    e.send("INFO rule 4");
    e.start(15);
    e.send("YXSHOWFORBID");
    assert_eq!(e.expect_reply(QUICK).line, "FORBID .");
    // Renju, White to move (the diamond is the opponent's, 4 vs 3).
    let mut b = Board::square(15);
    e.send_board_block(
        "YXBOARD",
        &mut b,
        &stones_opp_first(&CORNERS[..3], &DIAMOND),
    );
    e.expect_quiet(SILENCE);
    e.send("YXSHOWFORBID");
    assert_eq!(e.expect_reply(QUICK).line, "FORBID .", "White to move");
    // Freestyle, Black to move with the double-three shape.
    for rule in ["INFO rule 0", "INFO rule 1"] {
        e.send(rule);
        e.start(15);
        let mut b = Board::square(15);
        e.send_board_block("YXBOARD", &mut b, &stones(&DIAMOND, &CORNERS));
        e.expect_quiet(SILENCE);
        e.send("YXSHOWFORBID");
        assert_eq!(e.expect_reply(QUICK).line, "FORBID .", "{rule}");
    }
    e.finish();
}

/// The 23 quintet cases (third-party data): every expected forbidden point is
/// listed, every look-alike is not; the `all` case matches exactly.
#[test]
fn yxshowforbid_matches_quintet_cases() {
    use crate::renju_cases::{Query, CASES};
    let _g = shared();
    let mut e = Engine::spawn();
    e.send("INFO rule 4");
    let mut failures = Vec::new();
    for c in CASES {
        e.send("START 15");
        e.expect_ok();
        // Black stones are the engine's and listed first, so Black is the
        // side to move whatever the counts (none of the cases has
        // white == black + 1).
        let mut lines = vec!["YXBOARD".to_string()];
        for &(x, y) in c.black {
            lines.push(format!("{x},{y},1"));
        }
        for &(x, y) in c.white {
            lines.push(format!("{x},{y},2"));
        }
        lines.push("DONE".to_string());
        e.send_lines(&lines);
        e.send("YXSHOWFORBID");
        let r = e.expect_reply(QUICK);
        let got = parse_forbid(&r.line);
        match c.query {
            Query::All(want) => {
                let mut want = want.to_vec();
                want.sort();
                if got != want {
                    failures.push(format!("{}: wanted {want:?}, got {got:?}", c.name));
                }
            }
            Query::Point(p, forbidden) => {
                if got.contains(&p) != forbidden {
                    failures.push(format!(
                        "{}: point {p:?} forbidden={forbidden}, got list {got:?}",
                        c.name
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "YXSHOWFORBID mismatches:\n{}",
        failures.join("\n")
    );
    e.finish();
}

// --- case and line endings ---------------------------------------------------

#[test]
fn commands_are_case_insensitive() {
    let _g = shared();
    let mut e = Engine::spawn();
    e.send_lines(&["info TIMEOUT_TURN 300", "Info Rule 1"]);
    e.expect_silence(SILENCE);
    e.send("start 15");
    e.expect_ok();
    let mut b = Board::square(15);
    let m = e.play(&mut b, "bEgIn", REPLY);
    let opp = b.next_empty((m.0 + 1, m.1));
    b.place(opp, OPP);
    e.play(&mut b, &format!("turn {},{}", opp.0, opp.1), REPLY);
    e.send("Restart");
    e.expect_ok();
    let mut b = Board::square(15);
    e.send_lines(&["board", "7,7,2", "Done"]);
    b.place((7, 7), OPP);
    e.reply_move(&mut b, "board/Done", REPLY);
    e.send("rectstart 20,15");
    e.expect_ok();
    e.send("About");
    assert!(e.expect_reply(QUICK).line.starts_with("name="));
    e.send("eNd");
    e.expect_exit(Duration::from_secs(5));
}
