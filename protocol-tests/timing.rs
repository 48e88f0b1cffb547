//! Time limits, END/EOF during a search, STOP/YXSTOP.
//!
//! All tests here take the exclusive lock, so no other test's engine competes
//! for the 2 CI cores while wall-clock time is measured. The bounds are still
//! generous (documented at each assertion) because the machine may be loaded
//! by other jobs.

use crate::harness::*;
use crate::positions::*;
use std::time::{Duration, Instant};

/// Starts a search that would take up to 30 s: timeout_turn 30000 with
/// plenty of match time, on a 20x20 opening position with no forced result. Returns the instant the
/// BOARD block was written. Checks that no move comes within `listen`.
fn start_long_search(e: &mut Engine, listen: Duration) -> Instant {
    e.send_lines(&[
        "INFO timeout_turn 30000",
        "INFO timeout_match 1000000",
        "INFO time_left 1000000",
        "INFO rule 0",
    ]);
    let mut b = e.start(20);
    let t = e.send_board_block_timed(&mut b, &opening20_white());
    // MESSAGE/DEBUG may come while thinking; a move may not (with 30 s for an
    // open opening position the engine has no reason to stop this early).
    e.expect_quiet(listen);
    t
}

#[test]
fn end_during_long_search_exits_quickly() {
    let _g = exclusive();
    let mut e = Engine::spawn();
    start_long_search(&mut e, Duration::from_millis(300));
    let t = e.send("END");
    // The best move found so far comes first (as Rapfi answers), then the exit.
    let mv = e.expect_move(Duration::from_secs(10));
    assert!(
        t.elapsed() <= EXIT_BOUND,
        "END during a search: move {mv:?} after {:?}\n{}",
        t.elapsed(),
        e.diagnostics()
    );
    let st = e.expect_exit(Duration::from_secs(10));
    let dt = t.elapsed();
    // Spec: 500 ms. Bound 1000 ms (EXIT_BOUND) for scheduling slack.
    assert!(
        dt <= EXIT_BOUND,
        "END during a search: exit after {dt:?}, spec says 500 ms\n{}",
        e.diagnostics()
    );
    assert!(st.success(), "exit status {st}");
    e.assert_no_panic();
}

/// End of input during a search: the move still comes, after at most a second of thought
/// from the search's start (the README's end-of-input rule), then the engine exits.
#[test]
fn eof_during_long_search_answers_then_exits() {
    let _g = exclusive();
    let mut e = Engine::spawn();
    let started = start_long_search(&mut e, Duration::from_millis(300));
    let t = e.close_stdin();
    let mv = e.expect_move(Duration::from_secs(10));
    // One second of thought from the BOARD, plus EXIT_BOUND for scheduling slack.
    assert!(
        started.elapsed() <= Duration::from_secs(1) + EXIT_BOUND,
        "EOF during a search: move {mv:?} after {:?}\n{}",
        started.elapsed(),
        e.diagnostics()
    );
    e.expect_exit(Duration::from_secs(10));
    assert!(t.elapsed() <= Duration::from_secs(1) + EXIT_BOUND);
    e.assert_no_panic();
}

/// End of input right after several commands: every one is still answered (a move each,
/// at most a second of thought apiece although timeout_turn allows 30), then the exit.
#[test]
fn eof_after_queued_commands_answers_them_all() {
    let _g = exclusive();
    let mut e = Engine::spawn();
    e.send_lines(&[
        "INFO timeout_turn 30000",
        "INFO timeout_match 0",
        "START 15",
        "BEGIN",
        "TURN 0,0",
        "ABOUT",
    ]);
    let t = e.close_stdin();
    e.expect_ok();
    let first = e.expect_move(Duration::from_secs(10));
    let second = e.expect_move(Duration::from_secs(10));
    assert_ne!(first, second);
    assert_ne!(second, (0, 0));
    let about = e.expect_reply(QUICK);
    assert!(about.line.starts_with("name="), "{:?}", about.line);
    e.expect_exit(Duration::from_secs(10));
    // Two moves of at most a second each, plus slack.
    assert!(
        t.elapsed() <= Duration::from_secs(2) + EXIT_BOUND,
        "took {:?}",
        t.elapsed()
    );
    e.assert_no_panic();
}

/// END after queued commands: the search in progress answers, the rest is dropped, and the
/// engine exits within END's bound.
#[test]
fn end_after_queued_commands_answers_the_running_search_and_exits() {
    let _g = exclusive();
    let mut e = Engine::spawn();
    start_long_search(&mut e, Duration::from_millis(200));
    // Queued behind the running search: never answered.
    e.send("TURN 0,19");
    let t = e.send("END");
    e.expect_move(Duration::from_secs(5));
    e.expect_exit(Duration::from_secs(10));
    assert!(t.elapsed() <= EXIT_BOUND, "exit after {:?}", t.elapsed());
    e.assert_no_panic();
}

#[test]
fn eof_while_idle_exits_quickly() {
    let _g = exclusive();
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 300");
    let mut b = e.start(15);
    e.begin(&mut b);
    let t = e.close_stdin();
    e.expect_exit(Duration::from_secs(10));
    let dt = t.elapsed();
    assert!(
        dt <= EXIT_BOUND,
        "EOF: exit after {dt:?}\n{}",
        e.diagnostics()
    );
    e.assert_no_panic();

    // EOF right after spawn, before any command.
    let mut e = Engine::spawn();
    let t = e.close_stdin();
    e.expect_exit(Duration::from_secs(10));
    let dt = t.elapsed();
    assert!(
        dt <= EXIT_BOUND,
        "EOF at start: exit after {dt:?}\n{}",
        e.diagnostics()
    );
    e.assert_no_panic();

    // END right after spawn.
    let mut e = Engine::spawn();
    let t = e.send("END");
    let st = e.expect_exit(Duration::from_secs(10));
    assert!(t.elapsed() <= EXIT_BOUND, "END at start: {:?}", t.elapsed());
    assert!(st.success());
}

/// EOF without a final newline: the last partial line is still a command
/// (or ignored) and the engine exits.
#[test]
fn eof_after_partial_line_exits() {
    let _g = exclusive();
    let mut e = Engine::spawn();
    e.send_raw(b"ABOUT");
    let t = e.close_stdin();
    e.expect_exit(Duration::from_secs(10));
    assert!(t.elapsed() <= EXIT_BOUND, "exit after {:?}", t.elapsed());
    e.assert_no_panic();
}

#[test]
fn stop_and_yxstop_without_search_print_nothing() {
    let _g = exclusive();
    let mut e = Engine::spawn();
    e.send("STOP");
    e.expect_silence(SILENCE);
    e.send("YXSTOP");
    e.expect_silence(SILENCE);
    // The next line must be ABOUT's answer, not a late move or an ERROR.
    e.expect_about();
    e.send_lines(&["INFO timeout_turn 300", "INFO timeout_match 0"]);
    let mut b = e.start(15);
    e.send("yxstop");
    e.expect_silence(SILENCE);
    // After a finished search as well.
    let m = e.begin(&mut b);
    e.send("YXSTOP");
    e.expect_silence(SILENCE);
    e.send("stop");
    e.expect_silence(SILENCE);
    let opp = b.next_empty((m.0 + 1, m.1));
    e.turn(&mut b, opp);
    e.send("STOP");
    e.expect_silence(SILENCE);
    e.finish();
}

fn stop_during_search(cmd: &str) {
    let _g = exclusive();
    let mut e = Engine::spawn();
    start_long_search(&mut e, Duration::from_millis(300));
    // INFO during a search prints nothing either.
    e.send_lines(&["INFO time_left 999000", "INFO show_detail 0"]);
    e.expect_quiet(Duration::from_millis(100));
    let t = e.send(cmd);
    let r = e.expect_reply(Duration::from_secs(10));
    let m = e.move_of(&r);
    let dt = r.at.duration_since(t);
    // The move should come "at once"; bound 1000 ms for slack.
    assert!(
        dt < Duration::from_millis(1000),
        "{cmd} during a search: move after {dt:?}\n{}",
        e.diagnostics()
    );
    let mut b = Board::square(20);
    for (x, y, f) in opening20_white() {
        b.place((x, y), f);
    }
    b.assert_playable(m, cmd);
    // Exactly one move: nothing else follows.
    e.expect_quiet(SILENCE);
    // The game goes on normally with the stopped move on the board.
    b.place(m, OWN);
    e.send("INFO timeout_turn 300");
    let opp = b.next_empty((m.0 + 1, m.1));
    e.turn(&mut b, opp);
    e.finish();
}

#[test]
fn yxstop_during_search_answers_at_once() {
    stop_during_search("YXSTOP");
}

#[test]
fn stop_during_search_answers_at_once() {
    stop_during_search("STOP");
}

/// Measures one move under the given INFO lines on `pos`; returns the move
/// and the time from the end of the BOARD block to the reply.
fn timed_move(e: &mut Engine, n: u32, pos: &[(u32, u32, u8)]) -> (Mv, Duration) {
    let mut b = Board::square(n);
    let t = e.send_board_block_timed(&mut b, pos);
    let r = e.expect_reply(Duration::from_secs(60));
    let m = e.move_of(&r);
    b.assert_playable(m, "timed BOARD");
    (m, r.at.duration_since(t))
}

#[test]
fn timeout_turn_1000_is_respected() {
    let _g = exclusive();
    let mut e = Engine::spawn();
    e.send_lines(&[
        "INFO timeout_turn 1000",
        "INFO timeout_match 1000000",
        "INFO time_left 1000000",
        "INFO rule 0",
    ]);
    e.start(20);
    for _ in 0..2 {
        let (_, dt) = timed_move(&mut e, 20, &opening20_white());
        // Spec: within 1000 ms minus a margin. Bound: 1000 + 300 ms slack.
        assert!(
            dt < Duration::from_millis(1300),
            "timeout_turn 1000: reply after {dt:?}\n{}",
            e.diagnostics()
        );
    }
    e.finish();
}

#[test]
fn time_left_bounds_the_move_when_below_timeout_turn() {
    let _g = exclusive();
    let mut e = Engine::spawn();
    e.send_lines(&[
        "INFO timeout_turn 30000",
        "INFO timeout_match 100000",
        "INFO time_left 1000",
        "INFO rule 0",
    ]);
    e.start(20);
    let (_, dt) = timed_move(&mut e, 20, &opening20_white());
    // Spec: within min(30000, 1000) minus a margin. Bound: 1000 + 300 ms.
    assert!(
        dt < Duration::from_millis(1300),
        "time_left 1000: reply after {dt:?}\n{}",
        e.diagnostics()
    );
    e.finish();
}

#[test]
fn tiny_time_left_answers_within_milliseconds() {
    let _g = exclusive();
    let mut e = Engine::spawn();
    e.send_lines(&[
        "INFO timeout_turn 5000",
        "INFO timeout_match 100000",
        "INFO rule 1",
    ]);
    e.start(20);
    for left in ["40", "10", "1", "0", "-500"] {
        e.send(&format!("INFO time_left {left}"));
        let (_, dt) = timed_move(&mut e, 20, &opening20_white());
        // Spec: "within a few ms". Bound: 200 ms for scheduling slack.
        assert!(
            dt < Duration::from_millis(200),
            "time_left {left}: reply after {dt:?}\n{}",
            e.diagnostics()
        );
    }
    e.finish();
}

#[test]
fn timeout_turn_0_answers_at_once() {
    let _g = exclusive();
    let mut e = Engine::spawn();
    e.send_lines(&[
        "INFO timeout_turn 0",
        "INFO timeout_match 1000000",
        "INFO time_left 1000000",
    ]);
    e.start(20);
    for _ in 0..3 {
        let (_, dt) = timed_move(&mut e, 20, &opening20_white());
        // "Play at once": bound 300 ms.
        assert!(
            dt < Duration::from_millis(300),
            "timeout_turn 0: reply after {dt:?}\n{}",
            e.diagnostics()
        );
    }
    let b = e.start(20);
    let t = e.send("BEGIN");
    let r = e.expect_reply(REPLY);
    let m = e.move_of(&r);
    b.assert_playable(m, "BEGIN");
    assert!(r.at.duration_since(t) < Duration::from_millis(300));
    e.finish();
}

/// With almost no time the instant fallback must still win a five and block
/// the opponent's four.
#[test]
fn tiny_time_still_wins_and_blocks() {
    let _g = exclusive();
    let settings: [&[&str]; 5] = [
        &[
            "INFO timeout_turn 5000",
            "INFO timeout_match 100000",
            "INFO time_left 40",
        ],
        &[
            "INFO timeout_turn 5000",
            "INFO timeout_match 100000",
            "INFO time_left 1",
        ],
        &[
            "INFO timeout_turn 5000",
            "INFO timeout_match 100000",
            "INFO time_left 0",
        ],
        &[
            "INFO timeout_turn 5000",
            "INFO timeout_match 100000",
            "INFO time_left -300",
        ],
        &["INFO timeout_turn 0", "INFO timeout_match 0"],
    ];
    for s in settings {
        for rule in ["INFO rule 0", "INFO rule 4"] {
            let mut e = Engine::spawn();
            e.send_lines(s);
            e.send(rule);
            e.start(15);
            let (win, wins) = win_open_four();
            let (m, dt) = timed_move(&mut e, 15, &win);
            assert!(
                wins.contains(&m),
                "{s:?} {rule}: must complete the open four, got {m:?}\n{}",
                e.diagnostics()
            );
            assert!(dt < Duration::from_millis(300), "{s:?}: win took {dt:?}");
            for (pos, want) in [block_four(), block_split_four()] {
                let (m, dt) = timed_move(&mut e, 15, &pos);
                assert_eq!(
                    m,
                    want,
                    "{s:?} {rule}: must block the four\n{}",
                    e.diagnostics()
                );
                assert!(dt < Duration::from_millis(300), "{s:?}: block took {dt:?}");
            }
            if rule == "INFO rule 4" {
                let m = timed_move(&mut e, 15, &overline_or_block()).0;
                assert_eq!(
                    m,
                    (7, 11),
                    "{s:?} renju: block, never the overline point\n{}",
                    e.diagnostics()
                );
            }
            e.finish();
        }
    }
}

/// With no time INFO at all a default of a few seconds per move applies.
#[test]
fn default_time_without_any_time_info() {
    let _g = exclusive();
    let mut e = Engine::spawn();
    e.start(20);
    let (_, dt) = timed_move(&mut e, 20, &opening20_white());
    // "A few seconds": bound 10 s.
    assert!(
        dt < Duration::from_secs(10),
        "no time INFO: reply after {dt:?}\n{}",
        e.diagnostics()
    );
    e.finish();
}

/// A whole fast game under a match clock, as GomocupJudge runs it: every
/// move within min(timeout_turn, time_left) + slack, the clock decreasing by
/// the time actually used.
#[test]
fn match_clock_game_stays_within_time_left() {
    let _g = exclusive();
    let mut e = Engine::spawn();
    e.send_lines(&[
        "INFO timeout_turn 2000",
        "INFO timeout_match 5000",
        "INFO max_memory 367001600",
        "INFO rule 1",
    ]);
    let mut b = e.start(15);
    let mut left: i64 = 5000;
    let mut last: Option<Mv> = None;
    for _ in 0..8 {
        e.send(&format!("INFO time_left {left}"));
        let (t, cmd) = match last {
            None => (e.send("BEGIN"), "BEGIN".to_string()),
            Some(m) => {
                let opp = b.next_empty((m.0 + 1, m.1 + 1));
                b.place(opp, OPP);
                let c = format!("TURN {},{}", opp.0, opp.1);
                (e.send(&c), c)
            }
        };
        let r = e.expect_reply(Duration::from_secs(30));
        let m = e.move_of(&r);
        b.assert_playable(m, &cmd);
        b.place(m, OWN);
        let used = r.at.duration_since(t).as_millis() as i64;
        let limit = left.clamp(0, 2000);
        assert!(
            used < limit + 300,
            "{cmd}: used {used} ms with time_left {left} (limit {limit} ms + 300 ms slack)\n{}",
            e.diagnostics()
        );
        left -= used;
        last = Some(m);
    }
    assert!(left > 0, "the engine ran out of match time: {left} ms left");
    e.finish();
}

/// `INFO max_depth` and `INFO max_node` bound the search even with a long
/// turn time (Yixin-Board's levels rely on them).
#[test]
fn max_depth_and_max_node_bound_the_search() {
    let _g = exclusive();
    let mut failures = Vec::new();
    for limit in ["INFO max_depth 2", "INFO max_node 20000"] {
        let mut e = Engine::spawn();
        e.send_lines(&[
            "INFO timeout_turn 30000",
            "INFO timeout_match 1000000",
            "INFO time_left 1000000",
            "INFO rule 0",
            limit,
        ]);
        e.start(20);
        let (_, dt) = timed_move(&mut e, 20, &opening20_white());
        // A depth-2 or 20000-node search takes milliseconds; bound 3 s (the
        // turn limit is 30 s, so a slow reply means the limit was ignored).
        if dt >= Duration::from_secs(3) {
            failures.push(format!("{limit}: reply after {dt:?} (timeout_turn 30000)"));
        }
        e.finish();
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `START`, `BEGIN` and `END` written at once (`printf … | pbrain-rensa`): END arrives while
/// the first move is being chosen, and the move is still printed before the exit.
#[test]
fn begin_then_end_at_once_prints_the_move() {
    let _g = exclusive();
    let mut e = Engine::spawn();
    let t = e.send_lines(&["START 15", "BEGIN", "END"]);
    e.expect_ok();
    let mv = e.expect_move(Duration::from_secs(10));
    assert!(
        mv.0 < 15 && mv.1 < 15,
        "move {mv:?} off the board\n{}",
        e.diagnostics()
    );
    e.expect_exit(Duration::from_secs(10));
    assert!(
        t.elapsed() <= EXIT_BOUND,
        "START/BEGIN/END: exit after {:?}\n{}",
        t.elapsed(),
        e.diagnostics()
    );
    e.assert_no_panic();
}
