//! Whole matches against `pbrain-dummy`, a test engine that misbehaves on purpose, so that
//! every way of losing (time, crash, malformed reply, occupied and off-board squares, foul,
//! no OK, memory) and every clock rule (late move within the tolerance, YXSTOP, clipping
//! of the match clock) is exercised, plus records, SPRT stop and GomocupJudge mode.

use rensa::board::Color;
use rensa::client::spec::{EngineSpec, DEFAULT_TOLERANCE};
use rensa::records::Termination;
use rensa::rules::Rule;
use rensa_bench::config::EngineOptions;
use rensa_bench::openings::{read_file, OpeningBook};
use rensa_bench::report::{ProgressMode, Reporter};
use rensa_bench::stats::{Sprt, SprtState};
use rensa_bench::tournament::{resolve_names, run, MatchConfig, Schedule, Summary};
use std::path::{Path, PathBuf};

const DUMMY: &str = env!("CARGO_BIN_EXE_pbrain-dummy");

/// A dummy engine: `args` for the program, then extra `key=value` engine settings.
fn dummy(name: &str, args: &str, settings: &[&str]) -> EngineSpec {
    let mut words = vec![format!("cmd={DUMMY} {args}"), format!("name={name}")];
    words.extend(settings.iter().map(|s| s.to_string()));
    EngineOptions::parse(&words)
        .unwrap()
        .build(&std::env::current_dir().unwrap(), DEFAULT_TOLERANCE)
        .unwrap()
}

fn play(config: &MatchConfig) -> Summary {
    let names = resolve_names(&config.engines);
    run(config, names, &mut Reporter::new(ProgressMode::Quiet)).unwrap()
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rensa-match-test-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn shared_openings() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/testdata/openings/piskvork-openings.txt");
    assert!(
        p.exists() || std::env::var_os("RENSA_REQUIRE_TESTDATA").is_none(),
        "{} missing and RENSA_REQUIRE_TESTDATA is set",
        p.display()
    );
    p.exists().then_some(p)
}

/// A two-game match where engine "Bad" (first, Black in game 1) misbehaves; returns it.
fn forfeit_match(bad_args: &str, settings: &[&str]) -> Summary {
    let bad = dummy("Bad", bad_args, settings);
    let good = dummy("Good", "--seed 3", settings);
    let config = MatchConfig::new(vec![bad, good]);
    play(&config)
}

/// Both games lost by Bad with `t`.
fn assert_all_lost_by(s: &Summary, t: Termination, restarts: u64) {
    assert_eq!(s.played, 2);
    for g in &s.games {
        let bad_color = if g.setup.black == 0 {
            Color::Black
        } else {
            Color::White
        };
        assert_eq!(g.winner, Some(bad_color.opponent()), "{}", g.reason_text());
        assert_eq!(g.termination, t, "{}", g.reason_text());
    }
    assert_eq!(s.pairings[0].wld.l, 2);
    assert_eq!(s.engines[0].losses.get(&t), Some(&2));
    assert_eq!(s.engines[0].restarts, restarts, "restarts");
    assert_eq!(s.engines[1].restarts, 0);
}

#[test]
fn crash_is_a_loss_and_the_engine_is_restarted() {
    let s = forfeit_match("--mode crash --after 3", &[]);
    assert_all_lost_by(&s, Termination::Crash, 2);
    assert!(s.games[0].detail.contains("exited"));
}

#[test]
fn no_move_by_limit_plus_tolerance_loses_on_time() {
    let s = forfeit_match("--mode timeout --after 2", &["tc=0/0.2", "tolerance=0.3"]);
    assert_all_lost_by(&s, Termination::Time, 2);
    for g in &s.games {
        assert!(g.duration.as_millis() >= 500, "{:?}", g.duration);
    }
}

#[test]
fn occupied_and_off_board_squares_lose() {
    let s = forfeit_match("--mode occupied --after 3", &[]);
    assert_all_lost_by(&s, Termination::Occupied, 0);
    let s = forfeit_match("--mode offboard --after 2", &[]);
    assert_all_lost_by(&s, Termination::OffBoard, 0);
    assert_eq!(s.games[0].detail, "15,0");
}

#[test]
fn garbage_error_and_double_answers_are_malformed() {
    let s = forfeit_match("--mode garbage --after 2", &[]);
    assert_all_lost_by(&s, Termination::Malformed, 2);
    assert!(s.games[0].detail.contains("this is not a move"));
    let s = forfeit_match("--mode error-move --after 2", &[]);
    assert_all_lost_by(&s, Termination::Malformed, 2);
    let s = forfeit_match("--mode answer-twice --after 2", &[]);
    assert_all_lost_by(&s, Termination::Malformed, 2);
    assert!(
        s.games[0].detail.contains("unrequested"),
        "{}",
        s.games[0].detail
    );
    let s = forfeit_match("--mode ok-twice", &[]);
    assert_all_lost_by(&s, Termination::Malformed, 2);
}

#[test]
fn start_without_ok_loses() {
    let s = forfeit_match("--mode no-ok", &["tolerance=0.3"]);
    assert_all_lost_by(&s, Termination::StartFailure, 2);
    assert!(s.games[0].detail.contains("no OK"));
    let s = forfeit_match("--mode error-start", &[]);
    assert_all_lost_by(&s, Termination::StartFailure, 2);
    assert!(s.games[0].detail.contains("ERROR"));
    // A slow OK within the tolerance is fine.
    let s = forfeit_match("--mode slow-ok --delay-ms 150", &["tolerance=1"]);
    assert!(s.games.iter().all(|g| g.termination == Termination::Five));
}

#[test]
fn renju_foul_loses_for_black() {
    // Black builds a cross and then plays its centre: a double three.
    let bad = dummy("Bad", "--play first --script '7,6 6,7 8,7 7,8 7,7'", &[]);
    let good = dummy("Good", "--play first --script '0,14 2,14 4,14 6,14'", &[]);
    let mut config = MatchConfig::new(vec![bad, good]);
    config.rule = Rule::Renju;
    config.games = 1;
    let s = play(&config);
    let g = &s.games[0];
    assert_eq!(g.termination, Termination::Foul, "{}", g.reason_text());
    assert_eq!(g.winner, Some(Color::White));
    assert!(g.detail.contains("double-three at 7,7"), "{}", g.detail);
    // The foul is not on the board: 4 black + 4 white stones.
    assert_eq!(g.moves.len(), 8);
}

#[test]
fn late_move_within_tolerance_is_accepted_and_overrun_recorded() {
    let s = forfeit_match(
        "--mode late --after 2 --delay-ms 400",
        &["tc=0/0.2", "tolerance=1.5"],
    );
    assert!(
        s.games.iter().all(|g| g.termination == Termination::Five),
        "{}",
        s.games[0].reason_text()
    );
    let over = s.engines[0].max_turn_overrun_ms.unwrap();
    assert!((180..=1200).contains(&over), "overrun {over}");
    assert!(s.engines[1].max_turn_overrun_ms.unwrap() < 100);
}

#[test]
fn yxstop_is_sent_at_half_the_tolerance() {
    // The engine only answers its second request after YXSTOP, which must come at
    // 200 ms + 1000/2 ms; the hard limit is at 1200 ms.
    let s = forfeit_match("--mode wait-stop --after 2", &["tc=0/0.2", "tolerance=1"]);
    assert!(s.games.iter().all(|g| g.termination == Termination::Five));
    let over = s.engines[0].max_turn_overrun_ms.unwrap();
    assert!((480..=950).contains(&over), "overrun {over}");
}

#[test]
fn late_move_clips_the_match_clock_to_zero() {
    let dir = temp_dir("clip");
    let log = dir.join("io.log");
    let bad = dummy(
        "Bad",
        "--mode late --after 2 --delay-ms 600",
        &["tc=0.4/0", "tolerance=1.5"],
    );
    let good = dummy("Good", "--seed 3", &["tc=0.4/0", "tolerance=1.5"]);
    let mut config = MatchConfig::new(vec![bad, good]);
    config.games = 1;
    config.log = Some(log.clone());
    let s = play(&config);
    let g = &s.games[0];
    assert_eq!(g.termination, Termination::Five, "{}", g.reason_text());
    let over = s.engines[0].max_match_overrun_ms.unwrap();
    assert!((150..=1400).contains(&over), "match overrun {over}");
    let text = std::fs::read_to_string(&log).unwrap();
    // Bad's third request must announce an empty clock.
    let bad_infos: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("Bad@1 > INFO time_left"))
        .collect();
    assert!(bad_infos.len() >= 3, "{text}");
    assert!(
        bad_infos[2].ends_with("INFO time_left 0"),
        "{}",
        bad_infos[2]
    );
    // INFO timeout_turn is not sent for a zero turn limit; timeout_match is.
    assert!(!text.contains("Bad@1 > INFO timeout_turn"));
    assert!(text.contains("Bad@1 > INFO timeout_match 400"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn engine_ignoring_end_is_killed() {
    let t = std::time::Instant::now();
    let s = forfeit_match("--mode ignore-end", &[]);
    assert_eq!(s.played, 2);
    assert!(t.elapsed().as_secs() < 10);
}

#[test]
fn records_openings_and_pairs() {
    let Some(openings) = shared_openings() else {
        eprintln!("shared openings missing: skipped");
        return;
    };
    let dir = temp_dir("records");
    let a = dummy("A", "--seed 1 --message", &["tc=10/1+0.1"]);
    let b = dummy("B", "--seed 2", &["tc=10/1+0.1"]);
    let mut config = MatchConfig::new(vec![a, b]);
    config.games = 6;
    config.concurrency = 2;
    let (list, _) = read_file(&openings, None).unwrap();
    config.openings = Some(OpeningBook::new(
        list,
        15,
        15,
        Rule::Freestyle,
        true,
        9,
        true,
    ));
    config.psq_dir = Some(dir.join("psq"));
    config.sgf = Some(dir.join("games.sgf"));
    config.msg = Some(dir.join("messages.txt"));
    let s = play(&config);
    assert_eq!(s.played, 6);
    assert_eq!(s.skipped_openings.len(), 1);
    // Colour-swapped pairs: games 2k+1 and 2k+2 share an opening with colours swapped.
    let mut by_id: Vec<_> = s.games.iter().collect();
    by_id.sort_by_key(|g| g.setup.id);
    for pair in by_id.chunks(2) {
        assert_eq!(pair[0].setup.opening, pair[1].setup.opening);
        assert_eq!(pair[0].setup.black, pair[1].setup.white);
        let n = pair[0].opening_len;
        assert_eq!(pair[0].moves[..n], pair[1].moves[..n]);
    }
    assert_eq!(s.pairings[0].penta.iter().sum::<u64>(), 3);
    assert_eq!(
        s.pairings[0].a_black.games() + s.pairings[0].a_white.games(),
        6
    );
    // One .psq per game, 1-based coordinates, opening stones with 0 ms.
    let psq: Vec<_> = std::fs::read_dir(dir.join("psq"))
        .unwrap()
        .flatten()
        .collect();
    assert_eq!(psq.len(), 6);
    let first = by_id[0];
    let name = rensa::records::psq::file_name(&first.to_record());
    let text = std::fs::read_to_string(dir.join("psq").join(&name)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "Piskvorky 15x15, 11:11, 0");
    let (p, _) = first.moves[0];
    assert_eq!(lines[1], format!("{},{},0", p.x() + 1, p.y() + 1));
    assert_eq!(lines.len(), 1 + first.moves.len() + 3);
    assert_eq!(lines[lines.len() - 3], "pbrain-dummy");
    assert_eq!(*lines.last().unwrap(), "0");
    let sgf = std::fs::read_to_string(dir.join("games.sgf")).unwrap();
    assert_eq!(sgf.matches("(;FF[4]GM[4]").count(), 6);
    assert!(sgf.contains("C[opening move]"));
    assert!(sgf.contains("SZ[15]"));
    let msg = std::fs::read_to_string(dir.join("messages.txt")).unwrap();
    assert!(msg.contains("A: move 1 of this game"), "{msg}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn rectangular_board_and_draw_after() {
    let a = dummy("A", "--play first", &[]);
    let b = dummy("B", "--play first", &[]);
    let mut config = MatchConfig::new(vec![a, b]);
    config.width = 20;
    config.height = 7;
    config.draw_after = Some(12);
    let s = play(&config);
    for g in &s.games {
        assert_eq!(g.termination, Termination::MoveLimit);
        assert_eq!(g.winner, None);
        assert_eq!(g.moves.len(), 12);
    }
    assert_eq!(s.pairings[0].wld.d, 2);
}

#[test]
fn gauntlet_and_round_robin_schedules() {
    let e = |n: &str, seed: u32| dummy(n, &format!("--seed {seed}"), &[]);
    let mut config = MatchConfig::new(vec![e("A", 1), e("B", 2), e("C", 3)]);
    config.schedule = Schedule::Gauntlet;
    config.games = 2;
    config.concurrency = 2;
    let s = play(&config);
    assert_eq!(s.played, 4);
    assert_eq!(s.pairings.len(), 2);
    assert_eq!(s.engines[0].games, 4);
    assert_eq!(s.engines[1].games + s.engines[2].games, 4);
    config.schedule = Schedule::RoundRobin;
    config.rounds = 2;
    let s = play(&config);
    assert_eq!(s.played, 12);
    assert!(s.engines.iter().all(|e| e.games == 8));
}

#[test]
fn sprt_stops_the_match_once_decided() {
    let strong = dummy("Strong", "--play greedy --seed 4", &[]);
    let weak = dummy("Weak", "--play random --seed 5", &[]);
    let mut config = MatchConfig::new(vec![strong, weak]);
    config.games = 400;
    config.concurrency = 2;
    config.sprt = Some(Sprt {
        elo0: 0.0,
        elo1: 50.0,
        alpha: 0.05,
        beta: 0.05,
    });
    config.pentanomial = true;
    let s = play(&config);
    let st = s.sprt.unwrap();
    assert_eq!(st.state, SprtState::AcceptH1, "llr {}", st.llr);
    assert!(s.played < 400, "played {}", s.played);
    assert!(s.pairings[0].wld.w > s.pairings[0].wld.l);
}

#[test]
fn names_come_from_about_and_are_unique() {
    let mut a = dummy("x", "--name Twin", &[]);
    let mut b = dummy("x", "--name Twin", &[]);
    a.name = None;
    b.name = None;
    assert_eq!(resolve_names(&[a, b]), ["Twin", "Twin-2"]);
}

#[cfg(target_os = "linux")]
#[test]
fn gomocupjudge_mode_memory_limit_and_fresh_processes() {
    let hog = dummy(
        "Hog",
        "--mode hog --after 3 --hog-mb 48",
        &["maxmemory=30000000", "tc=10/2"],
    );
    let good = dummy("Good", "--seed 3", &["tc=10/2"]);
    let mut config = MatchConfig::new(vec![hog, good]);
    config.judge = true;
    let s = play(&config);
    assert_all_lost_by(&s, Termination::Memory, 2);
    assert!(s.engines[0].peak_rss.unwrap() > 30_000_000);
}

#[cfg(target_os = "linux")]
#[test]
fn gomocupjudge_mode_draws_renju_at_size_squared_minus_25() {
    let a = dummy("A", "--play random --seed 11", &[]);
    let b = dummy("B", "--play random --seed 12", &[]);
    let mut config = MatchConfig::new(vec![a, b]);
    config.judge = true;
    config.rule = Rule::Renju;
    config.width = 6;
    config.height = 6;
    config.games = 6;
    let s = play(&config);
    for g in &s.games {
        assert!(g.moves.len() <= 11, "{} stones", g.moves.len());
        if g.termination == Termination::MoveLimit {
            assert_eq!(g.moves.len(), 11);
        }
    }
    assert!(s
        .games
        .iter()
        .any(|g| g.termination == Termination::MoveLimit));
}

#[cfg(target_os = "linux")]
#[test]
fn suspended_engines_are_stopped() {
    use rensa::client::process::EngineProcess;
    let spec = dummy("S", "", &[]);
    let mut e = EngineProcess::spawn(&spec, "S", None, true).unwrap();
    let state = |pid: u32| {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
        let after = &stat[stat.rfind(')').unwrap() + 2..];
        after.chars().next().unwrap()
    };
    e.suspend();
    std::thread::sleep(std::time::Duration::from_millis(50));
    assert_eq!(state(e.pid()), 'T');
    e.resume();
    std::thread::sleep(std::time::Duration::from_millis(50));
    assert_ne!(state(e.pid()), 'T');
    let pid = e.pid();
    e.quit(std::time::Duration::from_millis(500));
    assert!(!Path::new(&format!("/proc/{pid}/status")).exists());
}

#[test]
fn runner_overhead_per_move_is_below_a_millisecond() {
    let a = dummy("A", "--seed 1", &["tc=60/5"]);
    let b = dummy("B", "--seed 2", &["tc=60/5"]);
    let mut config = MatchConfig::new(vec![a, b]);
    config.games = 20;
    let s = play(&config);
    assert!(s.overhead_moves > 100);
    // The runner's own work per move; the wake-up delay after a reply depends on how busy
    // the machine is (other tests run in parallel) and is reported separately.
    let total = s.overhead_per_move_us();
    let own = total - s.pickup_per_move_us();
    assert!(
        own < 1000.0,
        "runner overhead {own:.1} µs per move (total {total:.1})"
    );
    eprintln!("runner overhead: {own:.1} µs own work, {total:.1} µs with wake-ups");
}
