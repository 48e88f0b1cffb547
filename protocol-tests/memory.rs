//! Peak memory under `INFO max_memory`, measured as VmHWM (peak resident set)
//! from /proc/<pid>/status while the engine is still alive. Linux only.

#![cfg(target_os = "linux")]

use crate::harness::*;
use crate::positions::*;

const MIB: u64 = 1 << 20;

/// Plays a BOARD and a few TURNs at 500 ms per move, then returns VmHWM.
fn play_some_moves(e: &mut Engine) -> (u64, Vec<String>) {
    let mut b = Board::square(20);
    e.send_board_block("BOARD", &mut b, &opening20_white());
    let r = e.expect_reply(REPLY);
    let m = e.move_of(&r);
    b.assert_playable(m, "BOARD");
    b.place(m, OWN);
    let mut messages = r.messages;
    let mut last = m;
    for _ in 0..4 {
        let opp = b.next_empty((last.0 + 1, last.1 + 1));
        last = e.turn(&mut b, opp);
    }
    messages.extend(e.expect_quiet(std::time::Duration::from_millis(50)));
    let peak = e.peak_rss_bytes();
    eprintln!("peak RSS (VmHWM): {:.1} MiB", peak as f64 / MIB as f64);
    (peak, messages)
}

fn session(max_memory: Option<u64>) -> Engine {
    let mut e = Engine::spawn();
    e.send_lines(&[
        "INFO timeout_turn 500",
        "INFO timeout_match 1000000",
        "INFO time_left 1000000",
    ]);
    if let Some(mm) = max_memory {
        e.send(&format!("INFO max_memory {mm}"));
    }
    e.expect_silence(SILENCE);
    e.start(20);
    e
}

#[test]
fn max_memory_50mb_is_respected() {
    let _g = shared();
    let limit = 50_000_000;
    let mut e = session(Some(limit));
    let (peak, _) = play_some_moves(&mut e);
    assert!(
        peak < limit,
        "INFO max_memory {limit}: peak RSS {peak} bytes ({} MiB)\n{}",
        peak / MIB,
        e.diagnostics()
    );
    e.finish();
}

/// A limit below the engine's minimum: a MESSAGE says so (before the next
/// move, never an ERROR instead of a move), the engine plays with its minimum
/// table, and the peak stays small (< 64 MiB).
#[test]
fn max_memory_below_minimum_gives_message_and_still_moves() {
    let _g = shared();
    let limit = 1_000_000;
    let mut e = session(Some(limit));
    let (peak, messages) = play_some_moves(&mut e);
    assert!(
        !messages.is_empty(),
        "INFO max_memory {limit} is below any sensible minimum: wanted a MESSAGE before the next \
         move\n{}",
        e.diagnostics()
    );
    assert!(
        peak < 64 * MIB,
        "INFO max_memory {limit}: peak RSS {} MiB, wanted < 64 MiB\n{}",
        peak / MIB,
        e.diagnostics()
    );
    e.finish();
}

/// 0 or unset means 350 MiB.
#[test]
fn max_memory_default_and_zero_stay_within_350_mib() {
    let _g = shared();
    for mm in [None, Some(0)] {
        let mut e = session(mm);
        let (peak, _) = play_some_moves(&mut e);
        assert!(
            peak < 350 * MIB,
            "max_memory {mm:?}: peak RSS {} MiB, wanted < 350 MiB\n{}",
            peak / MIB,
            e.diagnostics()
        );
        e.finish();
    }
}

/// The Gomocup setting (350 MiB) with a hash_size request larger than it:
/// max_memory wins.
#[test]
fn max_memory_caps_hash_size() {
    let _g = shared();
    let limit = 100 * MIB;
    let mut e = session(Some(limit));
    e.send("INFO hash_size 1048576"); // 1 GiB in KB
    let (peak, _) = play_some_moves(&mut e);
    assert!(
        peak < limit,
        "max_memory 100 MiB + hash_size 1 GiB: peak RSS {} MiB\n{}",
        peak / MIB,
        e.diagnostics()
    );
    e.finish();
}

/// CPU time (user + system) of the process so far, from /proc/<pid>/stat.
fn cpu_time(pid: u32) -> std::time::Duration {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("read stat");
    // Fields after the command name (which is in parentheses).
    let rest = &s[s.rfind(')').expect("stat format") + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of stat, i.e. 11 and 12 here.
    let ticks: u64 = f[11].parse::<u64>().unwrap() + f[12].parse::<u64>().unwrap();
    // USER_HZ is 100 on every Linux configuration Rust supports in practice.
    std::time::Duration::from_millis(ticks * 10)
}

/// `INFO thread_num 1`: one search thread, so CPU time stays close to wall
/// time during a 2-second search (a second busy thread would double it).
#[test]
fn thread_num_1_uses_one_core() {
    let _g = exclusive();
    let mut e = Engine::spawn();
    e.send_lines(&[
        "INFO thread_num 1",
        "INFO timeout_turn 2000",
        "INFO timeout_match 1000000",
        "INFO time_left 1000000",
    ]);
    e.start(20);
    let before = cpu_time(e.pid);
    let mut b = Board::square(20);
    let t = e.send_board_block_timed(&mut b, &opening20_white());
    let r = e.expect_reply(REPLY);
    e.move_of(&r);
    let wall = r.at.duration_since(t);
    let cpu = cpu_time(e.pid) - before;
    assert!(
        cpu.as_secs_f64() <= wall.as_secs_f64() * 1.3 + 0.05,
        "thread_num 1: {cpu:?} CPU in {wall:?} wall\n{}",
        e.diagnostics()
    );
    e.finish();
}
