//! Whole sessions in the command orders that real managers use
//! (see /work/shared/protocol.md §1.5).

use crate::harness::*;
use crate::positions::*;
use std::time::{Duration, Instant};

/// Piskvork: START (one reply, must be OK), the INFO block, BEGIN, then
/// `INFO time_left` + TURN for later moves, END.
#[test]
fn piskvork_start_info_block_begin_turns_end() {
    let _g = shared();
    let mut e = Engine::spawn();
    let mut b = e.start(20);
    e.send_lines(&[
        "INFO max_memory 83886080",
        "INFO timeout_match 60000",
        "INFO timeout_turn 500",
        "INFO game_type 1",
        "INFO rule 0",
        "INFO time_left 60000",
        "INFO folder /tmp/rensa piskvork folder",
    ]);
    e.expect_silence(SILENCE);
    let mut last = e.begin(&mut b);
    let mut left = 60000;
    for _ in 0..5 {
        left -= 600;
        e.send(&format!("INFO time_left {left}"));
        let opp = b.next_empty((last.0, last.1 + 1));
        last = e.turn(&mut b, opp);
    }
    e.finish();
}

/// Piskvork sends TURN as the very first move command when exactly one stone
/// is on the board.
#[test]
fn piskvork_turn_as_first_command_after_start() {
    let _g = shared();
    let mut e = Engine::spawn();
    let mut b = e.start(15);
    e.send_lines(&[
        "INFO timeout_match 60000",
        "INFO timeout_turn 500",
        "INFO rule 1",
        "INFO time_left 60000",
    ]);
    let m = e.turn(&mut b, (7, 7));
    let opp = b.next_empty((m.0 + 1, m.1));
    e.turn(&mut b, opp);
    e.finish();
}

/// Piskvork with two or more stones: BOARD ... DONE first, then TURN; between
/// games outside tournaments it uses RESTART.
#[test]
fn piskvork_board_first_then_turn_then_restart() {
    let _g = shared();
    let mut e = Engine::spawn();
    let mut b = e.start(20);
    e.send_lines(&[
        "INFO max_memory 83886080",
        "INFO timeout_match 60000",
        "INFO timeout_turn 500",
        "INFO game_type 1",
        "INFO rule 0",
        "INFO time_left 60000",
    ]);
    let m = e.board(&mut b, &quiet20());
    e.send("INFO time_left 59000");
    let opp = b.next_empty((m.0, m.1 + 1));
    e.turn(&mut b, opp);

    e.send("RESTART");
    e.expect_ok();
    let mut b = Board::square(20);
    e.send("INFO time_left 60000");
    let first = e.begin(&mut b);
    let opp = b.next_empty((first.0 + 1, first.1));
    e.turn(&mut b, opp);
    e.finish();
}

/// GomocupJudge: a fresh process, START + INFO block (it does not wait for
/// OK), then `INFO time_left` + BOARD with the opening + DONE, then
/// `INFO time_left` + TURN, END. CR LF line endings throughout.
/// GJ charges process start-up to the first move and allows
/// `min(timeout_turn, time_left) + 1000 ms` tolerance.
#[test]
fn gomocupjudge_crlf_start_info_board_turn_end() {
    let _g = exclusive();
    let mut e = Engine::spawn();
    let spawned = e.spawned_at();
    for l in [
        "START 15",
        "INFO timeout_turn 1000",
        "INFO timeout_match 100000",
        "INFO max_memory 367001600",
        "INFO game_type 3",
        "INFO rule 1",
        "INFO folder C:\\gomocup\\folder\\rensa",
        "INFO time_left 100000",
        "BOARD",
        "7,7,2",
        "8,8,1",
        "9,7,2",
        "DONE",
    ] {
        e.send_crlf(l);
    }
    e.expect_ok();
    let mut b = Board::square(15);
    b.place((7, 7), OPP);
    b.place((8, 8), OWN);
    b.place((9, 7), OPP);
    let r = e.expect_reply(REPLY);
    let m = e.move_of(&r);
    b.assert_playable(m, "GomocupJudge first BOARD");
    b.place(m, OWN);
    let dt = r.at.duration_since(spawned);
    assert!(
        dt < Duration::from_millis(2000),
        "first move (including start-up) took {dt:?}; GomocupJudge allows timeout_turn 1000 + \
         tolerance 1000 ms\n{}",
        e.diagnostics()
    );
    let mut left = 99000;
    for _ in 0..3 {
        e.send_crlf(&format!("INFO time_left {left}"));
        let opp = b.next_empty((m.0 + 2, m.1 + 1));
        b.place(opp, OPP);
        let t = e.send_crlf(&format!("TURN {},{}", opp.0, opp.1));
        let r = e.expect_reply(REPLY);
        let mv = e.move_of(&r);
        b.assert_playable(mv, "GomocupJudge TURN");
        b.place(mv, OWN);
        let dt = r.at.duration_since(t);
        assert!(
            dt < Duration::from_millis(1500),
            "TURN with timeout_turn 1000 answered after {dt:?}\n{}",
            e.diagnostics()
        );
        left -= 1100;
    }
    e.expect_about();
    let t = e.send_crlf("END");
    e.expect_exit(Duration::from_secs(5));
    assert!(t.elapsed() <= EXIT_BOUND, "END took {:?}", t.elapsed());
}

/// GomocupJudge never sends BEGIN: the first player gets an empty BOARD.
#[test]
fn gomocupjudge_empty_board_means_play_first() {
    let _g = shared();
    let mut e = Engine::spawn();
    for l in [
        "START 20",
        "INFO timeout_turn 500",
        "INFO timeout_match 100000",
        "INFO max_memory 367001600",
        "INFO game_type 3",
        "INFO rule 0",
        "INFO folder /tmp",
        "INFO time_left 100000",
        "BOARD",
        "DONE",
    ] {
        e.send_crlf(l);
    }
    e.expect_ok();
    let mut b = Board::square(20);
    let m = e.reply_move(&mut b, "empty BOARD", REPLY);
    e.send_crlf("INFO time_left 99000");
    let opp = b.next_empty((m.0 + 1, m.1 + 1));
    e.turn(&mut b, opp);
    e.finish();
}

/// c-gomoku-cli: ABOUT at spawn, then per game START (wait for exact OK),
/// INFO rule/timeout_turn/timeout_match/max_memory/thread_num, BEGIN or BOARD
/// (the second player's first move is a BOARD), TURN. The next game starts
/// with START again, without END or RESTART. LF endings.
#[test]
fn c_gomoku_cli_about_then_two_games_without_end() {
    let _g = shared();
    let mut e = Engine::spawn();
    let about = e.expect_about();
    assert!(about.contains("name=\"rensa\""), "{about}");

    // Game 1: the engine is the first player.
    e.send("START 15");
    let r = e.expect_line(QUICK);
    assert_eq!(r, "OK", "c-gomoku-cli wants the exact line OK");
    e.send_lines(&[
        "INFO rule 1",
        "INFO timeout_turn 500",
        "INFO timeout_match 20000",
        "INFO max_memory 367001600",
        "INFO thread_num 1",
    ]);
    let mut b = Board::square(15);
    e.send("INFO time_left 20000");
    let mut last = e.begin(&mut b);
    for left in [19400, 18800, 18200] {
        e.send(&format!("INFO time_left {left}"));
        let opp = b.next_empty((last.0 + 1, last.1 + 2));
        last = e.turn(&mut b, opp);
    }

    // Game 2: START again, no END; the engine is second and gets a BOARD
    // with the opponent's first stone.
    e.send("START 15");
    let r = e.expect_line(QUICK);
    assert_eq!(r, "OK");
    e.send_lines(&[
        "INFO rule 1",
        "INFO timeout_turn 500",
        "INFO timeout_match 20000",
        "INFO max_memory 367001600",
        "INFO thread_num 1",
        "INFO time_left 20000",
    ]);
    let mut b = Board::square(15);
    // The old game's stones must be gone: the square where the engine played
    // last in game 1 is free again.
    let m = e.board(&mut b, &[(last.0, last.1, OPP)]);
    assert_ne!(m, last);
    e.send("INFO time_left 19400");
    let opp = b.next_empty((m.0 + 1, m.1));
    e.turn(&mut b, opp);
    e.finish();
}

/// c-gomoku-cli with no match limit sends time_left 2147483647 and
/// timeout_match 0.
#[test]
fn c_gomoku_cli_unlimited_match_time() {
    let _g = shared();
    let mut e = Engine::spawn();
    e.expect_about();
    let mut b = e.start(15);
    e.send_lines(&[
        "INFO rule 0",
        "INFO timeout_turn 300",
        "INFO timeout_match 0",
        "INFO max_memory 367001600",
        "INFO time_left 2147483647",
    ]);
    let t = Instant::now();
    let m = e.begin(&mut b);
    let opp = b.next_empty((m.0 + 1, m.1));
    e.send("INFO time_left 2147483647");
    e.turn(&mut b, opp);
    assert!(
        t.elapsed() < Duration::from_secs(5),
        "two moves at timeout_turn 300 took {:?}",
        t.elapsed()
    );
    e.finish();
}

/// Yixin-Board: lower-case commands with LF endings, `info show_detail 3`,
/// `yxshowinfo` (two MESSAGE INFO lines), `start 15`, its INFO block, then for
/// each engine move `info time_left`, `yxhashclear`, `start 15`, `board` ...
/// `done`; `yxboard` sets a position without a reply; `end`.
#[test]
fn yixin_board_lower_case_session() {
    let _g = shared();
    let mut e = Engine::spawn();
    e.send("info show_detail 3");
    e.expect_silence(SILENCE);
    e.send("yxshowinfo");
    let (threads, hash) = read_yxshowinfo(&mut e);
    assert!(threads >= 1, "MAX_THREAD_NUM {threads}");
    assert!(hash >= 1, "MAX_HASH_SIZE {hash}");

    e.send("start 15");
    e.expect_ok();
    e.send_lines(&[
        "info timeout_match 100000",
        "info timeout_turn 500",
        "info max_node -1",
        "info max_depth 225",
        "info time_increment 0",
        "info caution_factor 3",
        "info thread_num 1",
        "info hash_size 65536",
        "info pondering 0",
        "info rule 2",
    ]);
    e.expect_quiet(SILENCE);

    // Move 1: the engine is White after Black's centre stone.
    e.send_lines(&["info time_left 100000", "yxhashclear"]);
    e.expect_quiet(SILENCE);
    e.send("start 15");
    e.expect_ok();
    let mut b = Board::square(15);
    e.send_lines(&["board", "7,7,2", "done"]);
    b.place((7, 7), OPP);
    let r = e.expect_reply_yixin(REPLY);
    let m = e.move_of(&r);
    b.assert_playable(m, "yixin board");
    b.place(m, OWN);

    // Move 2: the full position again, after Black's second stone.
    let opp = b.next_empty((m.0 + 1, m.1 + 1));
    b.place(opp, OPP);
    e.send_lines(&["info time_left 99000", "yxhashclear"]);
    e.expect_quiet(SILENCE);
    e.send("start 15");
    e.expect_ok();
    let mut lines = vec!["board".to_string()];
    lines.extend(b.block_lines());
    lines.push("done".to_string());
    e.send_lines(&lines);
    let r = e.expect_reply_yixin(REPLY);
    let m2 = e.move_of(&r);
    b.assert_playable(m2, "yixin second board");
    b.place(m2, OWN);

    // yxboard: no reply, then yxshowforbid answers a FORBID line.
    let mut lines = vec!["yxboard".to_string()];
    lines.extend(b.block_lines());
    lines.push("done".to_string());
    e.send_lines(&lines);
    e.expect_quiet(SILENCE);
    e.send("yxshowforbid");
    let r = e.expect_reply_yixin(QUICK);
    parse_forbid(&r.line);

    e.expect_about();
    let t = e.send("end");
    e.expect_exit(Duration::from_secs(5));
    assert!(t.elapsed() <= EXIT_BOUND, "end took {:?}", t.elapsed());
    e.assert_no_panic();
}

/// Reads the two `MESSAGE INFO MAX_THREAD_NUM n` / `MESSAGE INFO
/// MAX_HASH_SIZE k` lines (other MESSAGE lines may come too; nothing else).
pub fn read_yxshowinfo(e: &mut Engine) -> (u64, u64) {
    let mut threads = None;
    let mut hash = None;
    let deadline = Instant::now() + QUICK;
    while threads.is_none() || hash.is_none() {
        let left = deadline.saturating_duration_since(Instant::now());
        let l = e.expect_line(left);
        assert!(
            l.starts_with("MESSAGE "),
            "yxshowinfo must answer only MESSAGE lines, got {l:?}\n{}",
            e.diagnostics()
        );
        if let Some(v) = l.strip_prefix("MESSAGE INFO MAX_THREAD_NUM ") {
            threads = Some(
                v.trim()
                    .parse()
                    .unwrap_or_else(|_| panic!("bad line {l:?}")),
            );
        } else if let Some(v) = l.strip_prefix("MESSAGE INFO MAX_HASH_SIZE ") {
            hash = Some(
                v.trim()
                    .parse()
                    .unwrap_or_else(|_| panic!("bad line {l:?}")),
            );
        }
    }
    (threads.unwrap(), hash.unwrap())
}

/// GomocupJudge suspends the whole process (SIGSTOP) while it is not the
/// engine's turn and resumes it (SIGCONT) with the next command; wall-clock
/// keeps running meanwhile. The engine must time each move from when it reads
/// the command, not from some earlier instant.
#[cfg(unix)]
#[test]
fn gomocupjudge_suspended_between_moves() {
    let _g = exclusive();
    let signal = |e: &Engine, sig: &str| {
        let st = std::process::Command::new("kill")
            .args([sig, &e.pid.to_string()])
            .status()
            .expect("run kill");
        assert!(st.success(), "kill {sig} failed");
    };
    let mut e = Engine::spawn();
    for l in [
        "START 15",
        "INFO timeout_turn 1000",
        "INFO timeout_match 100000",
        "INFO max_memory 367001600",
        "INFO game_type 3",
        "INFO rule 0",
    ] {
        e.send_crlf(l);
    }
    e.expect_ok();
    let mut b = Board::square(15);
    for round in 0..3 {
        signal(&e, "-STOP");
        std::thread::sleep(Duration::from_millis(1500));
        e.send_crlf(&format!("INFO time_left {}", 90000 - round * 1000));
        let (cmd, t) = if round == 0 {
            let t = {
                e.send_crlf("BOARD");
                e.send_crlf("7,7,2");
                e.send_crlf("DONE")
            };
            b.place((7, 7), OPP);
            ("BOARD".to_string(), t)
        } else {
            let last = b.history.last().map(|&(x, y, _)| (x, y)).unwrap();
            let opp = b.next_empty((last.0 + 1, last.1 + 1));
            b.place(opp, OPP);
            let c = format!("TURN {},{}", opp.0, opp.1);
            (c.clone(), e.send_crlf(&c))
        };
        let resumed = Instant::now();
        signal(&e, "-CONT");
        let r = e.expect_reply(REPLY);
        let m = e.move_of(&r);
        b.assert_playable(m, &cmd);
        b.place(m, OWN);
        let dt = r.at.duration_since(resumed);
        let _ = t;
        assert!(
            dt < Duration::from_millis(1300),
            "{cmd} after SIGCONT: reply after {dt:?} (timeout_turn 1000)\n{}",
            e.diagnostics()
        );
    }
    e.finish();
}

/// Two search threads (`INFO thread_num 2`: the threat thread beside the main search), first
/// with only a per-move limit, then under a game clock: every answer is legal and comes
/// inside the turn limit (with a loose tolerance for a loaded machine), and an open three of
/// the opponent is blocked at one of its two ends.
#[test]
fn two_threads_answer_in_time_and_block_an_open_three() {
    let _g = exclusive();
    let mut e = Engine::spawn();
    e.send("START 15");
    e.expect_ok();
    e.send_lines(&["INFO thread_num 2", "INFO timeout_turn 500"]);
    // The opponent's open three on row 7 (x 5..7); two stones of ours below it.
    let mut b = Board::square(15);
    let t = Instant::now();
    let m = e.board(
        &mut b,
        &[
            (5, 7, OPP),
            (6, 8, OWN),
            (6, 7, OPP),
            (7, 8, OWN),
            (7, 7, OPP),
        ],
    );
    let dt = t.elapsed();
    assert!(
        m == (4, 7) || m == (8, 7),
        "two threads did not block the open three at an end: {m:?}\n{}",
        e.diagnostics()
    );
    assert!(
        dt < Duration::from_millis(1500),
        "timeout_turn 500 answered after {dt:?}\n{}",
        e.diagnostics()
    );
    // Under a game clock.
    e.send_lines(&[
        "INFO timeout_match 20000",
        "INFO time_left 20000",
        "INFO timeout_turn 2000",
    ]);
    let mut last = m;
    for left in [19000, 18000, 17000] {
        e.send(&format!("INFO time_left {left}"));
        let opp = b.next_empty((last.0 + 2, last.1 + 1));
        let t = Instant::now();
        last = e.turn(&mut b, opp);
        let dt = t.elapsed();
        assert!(
            dt < Duration::from_millis(3000),
            "timeout_turn 2000 answered after {dt:?}\n{}",
            e.diagnostics()
        );
    }
    e.finish();
}
