//! Bad input: unknown commands, malformed/off-board/occupied coordinates,
//! malformed BOARD blocks, invalid UTF-8, blank lines, huge lines. The engine
//! never exits on input, answers exactly one line where a reply is expected,
//! and a refused command leaves the position exactly as it was.

use crate::harness::*;
use std::time::Duration;

/// 15x15, engine White (4 + 5). The opponent has a four (3..=6, 11) that
/// the engine must block at (7,11); that block gives the engine a four on
/// column 7 ((7,8)..(7,11), closed by the opponent at (7,12)) whose only
/// winning square is (7,7). Then it is the opponent's turn: the session sends
/// refused commands, then a harmless `TURN 0,0`, and the engine must win at
/// (7,7). If a refused command had put a stone on (7,7) (or anywhere on the
/// column), the answer would differ; so "the next move is (7,7)" proves the
/// position was left unchanged.
fn forced_block_then_four() -> Vec<(u32, u32, u8)> {
    stones_opp_first(
        &[(2, 11), (7, 8), (7, 9), (7, 10)],
        &[(3, 11), (4, 11), (5, 11), (6, 11), (7, 12)],
    )
}

fn setup_four() -> (Engine, Board) {
    let mut e = Engine::spawn();
    e.send_lines(&[
        "INFO timeout_turn 1000",
        "INFO timeout_match 0",
        "INFO rule 0",
    ]);
    let mut b = e.start(15);
    let m = e.board(&mut b, &forced_block_then_four());
    assert_eq!(
        m,
        (7, 11),
        "the engine must block the four at (7,11)\n{}",
        e.diagnostics()
    );
    (e, b)
}

/// The opponent plays a harmless stone; the engine must then win at (7,7).
fn assert_position_unchanged(e: &mut Engine, b: &mut Board, after: &str) {
    let m = e.turn(b, (0, 0));
    assert_eq!(
        m,
        (7, 7),
        "after {after}: the engine should win at (7,7); the refused command changed the \
         position\n{}",
        e.diagnostics()
    );
}

#[test]
fn unknown_commands_get_unknown() {
    let _g = shared();
    let mut e = Engine::spawn();
    for cmd in [
        "FOO",
        "HELLO world",
        "SUGGEST 7,7",
        "YXNOSUCHTHING 1",
        "STARTX 15",
        "BEGINNER",
        "7,7",
        "OK",
        "INFOX rule 4",
    ] {
        e.send(cmd);
        let r = e.expect_reply(QUICK);
        assert!(
            r.line == "UNKNOWN" || r.line.starts_with("UNKNOWN "),
            "{cmd:?}: wanted `UNKNOWN <text>`, got {:?}\n{}",
            r.line,
            e.diagnostics()
        );
        e.assert_alive(cmd);
    }
    e.finish();
}

#[test]
fn malformed_and_off_board_turn_refused_position_unchanged() {
    let _g = shared();
    let (mut e, mut b) = setup_four();
    for bad in [
        "TURN",
        "TURN 7",
        "TURN 7,",
        "TURN ,7",
        "TURN a,7",
        "TURN 7;7",
        "TURN 7 7",
        "TURN 7.0,7",
        "TURN -7,7",
        "TURN 7,-7",
        "TURN 7,7x",
        "TURN 0x7,7",
        "TURN 7,7,2",
        "TURN 99999999999999999999,7",
        // Off the 15x15 board (and 2^32 + 7, which a truncating parser
        // would turn into 7).
        "TURN 15,7",
        "TURN 7,15",
        "TURN 4294967303,7",
        "TURN 7,4294967303",
    ] {
        e.send(bad);
        e.expect_error(bad);
        e.assert_alive(bad);
    }
    assert_position_unchanged(&mut e, &mut b, "malformed TURNs");
    e.finish();
}

#[test]
fn turn_on_occupied_square_refused_position_unchanged() {
    let _g = shared();
    let (mut e, mut b) = setup_four();
    for bad in ["TURN 7,8", "TURN 7,11", "TURN 7,12", "TURN 3,11"] {
        e.send(bad);
        e.expect_error(bad);
    }
    for bad in ["PLAY 7,10", "PLAY 7,12", "PLAY 15,15"] {
        e.send(bad);
        e.expect_error(bad);
    }
    assert_position_unchanged(&mut e, &mut b, "TURN/PLAY on occupied squares");
    e.finish();
}

#[test]
fn malformed_board_refused_as_a_whole() {
    let _g = shared();
    let (mut e, mut b) = setup_four();
    for (what, body) in [
        ("a junk line", vec!["7,7,2", "foo", "1,1,1"]),
        ("field 4", vec!["7,7,2", "3,3,4"]),
        ("field 0", vec!["7,7,2", "3,3,0"]),
        ("an off-board stone", vec!["7,7,2", "15,3,1"]),
        ("a negative coordinate", vec!["7,7,2", "-1,3,1"]),
        ("a duplicate square", vec!["7,7,2", "1,1,1", "1,1,2"]),
        ("non-numbers", vec!["7,7,2", "a,b,c"]),
        ("a missing field", vec!["7,7,2", "1,1,"]),
    ] {
        let mut lines = vec!["BOARD"];
        lines.extend(body);
        lines.push("DONE");
        e.send_lines(&lines);
        e.expect_error(&format!("BOARD with {what}"));
        // Exactly one line for the whole block.
        e.expect_silence(Duration::from_millis(150));
    }
    // Same for YXBOARD: refused as a whole. The spec does not say whether a
    // malformed YXBOARD answers ERROR or stays silent, so both are accepted
    // (at most one ERROR line, besides MESSAGE/DEBUG).
    e.send_lines(&["YXBOARD", "7,7,2", "foo", "DONE"]);
    let extra = e.expect_at_most_one_error(SILENCE);
    let _ = extra;
    assert_position_unchanged(&mut e, &mut b, "malformed BOARD blocks");
    e.finish();
}

#[test]
fn invalid_utf8_does_not_end_input() {
    let _g = shared();
    let mut e = Engine::spawn();
    e.send_lines(&["INFO timeout_turn 300", "INFO timeout_match 0"]);
    // An INFO folder path in a Windows code page: silent.
    e.send_raw(b"INFO folder C:\\Users\\J\xe9r\xf4me\\gomocup\r\n");
    e.expect_silence(SILENCE);
    // A garbage line: UNKNOWN.
    e.send_raw(b"\xff\xfe\xfd\xc3\x28\n");
    let r = e.expect_reply(QUICK);
    assert!(r.line.starts_with("UNKNOWN"), "{:?}", r.line);
    e.send_raw(b"ABO\xffUT\n");
    let r = e.expect_reply(QUICK);
    assert!(r.line.starts_with("UNKNOWN"), "{:?}", r.line);
    e.send("START 15");
    e.expect_ok();
    e.send_raw(b"TURN 7,\xff7\n");
    e.expect_error("TURN with an invalid byte");
    let mut b = Board::square(15);
    let m = e.begin(&mut b);
    let opp = b.next_empty((m.0 + 1, m.1));
    e.turn(&mut b, opp);
    e.finish();
}

#[test]
fn blank_lines_are_ignored() {
    let _g = shared();
    let mut e = Engine::spawn();
    e.send_lines(&["INFO timeout_turn 300", "INFO timeout_match 0"]);
    e.send_raw(b"\n\r\n   \n\t\n \r\n\n");
    e.expect_silence(SILENCE);
    e.expect_about();
    e.send("START 15");
    e.expect_ok();
    e.send_raw(b"\n\r\n");
    e.expect_silence(Duration::from_millis(150));
    // Blank lines inside a BOARD block are ignored too.
    let mut b = Board::square(15);
    e.send_raw(b"BOARD\n7,7,2\n\n\r\n8,8,1\n9,7,2\nDONE\n");
    b.place((7, 7), OPP);
    b.place((8, 8), OWN);
    b.place((9, 7), OPP);
    e.reply_move(&mut b, "BOARD with blank lines", REPLY);
    e.finish();
}

#[test]
fn huge_line_and_many_bad_lines_do_not_kill_the_engine() {
    let _g = shared();
    let mut e = Engine::spawn();
    let mut big = vec![b'X'; 200_000];
    big.push(b'\n');
    e.send_raw(&big);
    let r = e.expect_reply(QUICK);
    assert!(
        r.line.starts_with("UNKNOWN"),
        "huge line: got {:?}",
        &r.line[..r.line.len().min(40)]
    );
    let mut big_turn = b"TURN ".to_vec();
    big_turn.extend(std::iter::repeat_n(b'9', 100_000));
    big_turn.extend(b",1\n");
    e.send_raw(&big_turn);
    e.expect_error("TURN with a 100000-digit number");
    for i in 0..200 {
        e.send(&format!("NOPE{i}"));
    }
    for _ in 0..200 {
        let r = e.expect_reply(QUICK);
        assert!(r.line.starts_with("UNKNOWN"), "{:?}", r.line);
    }
    e.finish();
}

/// Move commands in states where they cannot be legal are refused, not
/// answered with an illegal move, and the engine stays alive.
#[test]
fn takeback_and_play_errors_leave_position_unchanged() {
    let _g = shared();
    let (mut e, mut b) = setup_four();
    for bad in [
        "TAKEBACK 7,7",
        "TAKEBACK 0,0",
        "TAKEBACK 15,7",
        "TAKEBACK x,y",
        "PLAY 4,",
        "PLAY -1,-1",
    ] {
        e.send(bad);
        e.expect_error(bad);
    }
    assert_position_unchanged(&mut e, &mut b, "refused TAKEBACK/PLAY");
    e.finish();
}
