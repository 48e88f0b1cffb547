//! Rules through the protocol: INFO rule values, wins, blocks, renju fouls,
//! exact five and caro.

use crate::harness::*;
use crate::positions::*;

fn session(rule: &str) -> (Engine, Board) {
    let mut e = Engine::spawn();
    e.send_lines(&["INFO timeout_turn 1000", "INFO timeout_match 0", rule]);
    let b = e.start(15);
    (e, b)
}

/// Every rule value managers send (0, 1, 4, 8, 9) and Yixin's 2 is accepted
/// silently and the engine plays legal moves.
#[test]
fn every_rule_value_is_accepted() {
    let _g = shared();
    for rule in [0, 1, 2, 4, 8, 9] {
        let mut e = Engine::spawn();
        e.send_lines(&["INFO timeout_turn 300", "INFO timeout_match 0"]);
        e.send(&format!("INFO rule {rule}"));
        e.expect_silence(SILENCE);
        let mut b = e.start(15);
        let r = {
            e.send("BEGIN");
            e.expect_reply(REPLY)
        };
        let m = e.move_of(&r);
        b.assert_playable(m, &format!("rule {rule} BEGIN"));
        let complaint = |l: &String| {
            let l = l.to_lowercase();
            l.contains("rule")
                && ["invalid", "unknown", "unsupported", "bad", "ignor"]
                    .iter()
                    .any(|w| l.contains(w))
        };
        assert!(
            !r.messages.iter().any(complaint),
            "rule {rule} is valid but the engine complained: {:?}",
            r.messages
        );
        b.place(m, OWN);
        let opp = b.next_empty((m.0 + 1, m.1));
        e.turn(&mut b, opp);
        let mut b = Board::square(15);
        e.board(&mut b, &quiet15_white());
        e.finish();
    }
}

#[test]
fn wins_with_open_four_rather_than_blocking() {
    let _g = shared();
    for rule in ["INFO rule 0", "INFO rule 1", "INFO rule 4", "INFO rule 8"] {
        let (mut e, mut b) = session(rule);
        let (s, wins) = win_open_four();
        let m = e.board(&mut b, &s);
        assert!(
            wins.contains(&m),
            "{rule}: open four (5..=8,7); wanted one of {wins:?}, got {m:?}\n{}",
            e.diagnostics()
        );
        e.finish();
    }
}

#[test]
fn blocks_the_opponents_four() {
    let _g = shared();
    for rule in ["INFO rule 0", "INFO rule 1", "INFO rule 4", "INFO rule 9"] {
        let (mut e, mut b) = session(rule);
        let (s, want) = block_four();
        let m = e.board(&mut b, &s);
        assert_eq!(m, want, "{rule}: must block the four\n{}", e.diagnostics());
        let (s, want) = block_split_four();
        let mut b = Board::square(15);
        let m = e.board(&mut b, &s);
        assert_eq!(
            m,
            want,
            "{rule}: must block the split four\n{}",
            e.diagnostics()
        );
        e.finish();
    }
}

/// Renju, engine Black: the point that would make six is forbidden; the
/// engine blocks the opponent's four instead (and never plays the foul).
#[test]
fn renju_black_never_plays_overline_point() {
    let _g = shared();
    for rule in ["INFO rule 4", "INFO rule 2"] {
        let (mut e, mut b) = session(rule);
        let m = e.board(&mut b, &overline_or_block());
        assert_ne!(
            m,
            (7, 7),
            "{rule}: Black played the overline (forbidden) point"
        );
        assert_eq!(
            m,
            (7, 11),
            "{rule}: must block the four at (7,11)\n{}",
            e.diagnostics()
        );
        e.finish();
    }
}

/// Renju, engine Black with a double-three point as the natural attacking
/// move: the engine must not play it, even with no time to think.
#[test]
fn renju_black_never_plays_double_three_point() {
    let _g = shared();
    for timing in [
        &["INFO timeout_turn 1000"][..],
        &["INFO timeout_turn 0"][..],
        &["INFO timeout_match 100000", "INFO time_left 30"][..],
    ] {
        let (mut e, mut b) = session("INFO rule 4");
        e.send_lines(timing);
        let m = e.board(&mut b, &stones(&DIAMOND, &CORNERS));
        assert_ne!(
            m,
            (7, 7),
            "renju Black played the double-three point (7,7) with {timing:?}\n{}",
            e.diagnostics()
        );
        e.finish();
    }
}

/// Same shape as the overline test with colours swapped: White is not
/// restricted, so six in a row wins for White under renju.
#[test]
fn renju_white_wins_with_overline() {
    let _g = shared();
    let (mut e, mut b) = session("INFO rule 4");
    let m = e.board(&mut b, &white_overline_wins());
    assert_eq!(
        m,
        (7, 7),
        "White wins with six under renju\n{}",
        e.diagnostics()
    );
    e.finish();
}

/// Freestyle: six wins, so (7,7) is the move; exact five (rule 1): six does
/// not win, so the engine must block at (7,11).
#[test]
fn freestyle_overline_wins_exact_five_does_not() {
    let _g = shared();
    let (mut e, mut b) = session("INFO rule 0");
    let m = e.board(&mut b, &overline_or_block());
    assert_eq!(
        m,
        (7, 7),
        "freestyle: six in a row wins\n{}",
        e.diagnostics()
    );
    e.finish();
    let (mut e, mut b) = session("INFO rule 1");
    let m = e.board(&mut b, &overline_or_block());
    assert_eq!(
        m,
        (7, 11),
        "exact five: six does not win, block the four\n{}",
        e.diagnostics()
    );
    e.finish();
}

/// Caro (8, and 9 = caro with exact five): a five blocked by opponent stones
/// at both ends does not win, so the engine must block the opponent's four;
/// under 0 and 1 the same five wins.
#[test]
fn caro_five_blocked_at_both_ends_does_not_win() {
    let _g = shared();
    for (rule, want) in [
        ("INFO rule 8", (7, 11)),
        ("INFO rule 9", (7, 11)),
        ("INFO rule 0", (7, 7)),
        ("INFO rule 1", (7, 7)),
    ] {
        let (mut e, mut b) = session(rule);
        let m = e.board(&mut b, &caro_blocked_five());
        assert_eq!(m, want, "{rule}\n{}", e.diagnostics());
        e.finish();
    }
}

/// Renju, engine Black: (7,7) would make two fours on one line
/// (renju-note/quintet `test_double_four`, MIT) — a winning double four in
/// freestyle, a foul for Black in renju.
#[test]
fn renju_black_never_plays_double_four_point() {
    let _g = shared();
    let black = [(4, 7), (6, 7), (8, 7), (10, 7)];
    for rule in ["INFO rule 4", "INFO rule 0"] {
        let (mut e, mut b) = session(rule);
        let m = e.board(&mut b, &stones(&black, &CORNERS));
        if rule == "INFO rule 4" {
            assert_ne!(
                m,
                (7, 7),
                "renju Black played the double-four point (7,7)\n{}",
                e.diagnostics()
            );
        } else {
            // In freestyle (7,7) makes two fours at once and wins by force;
            // any move that makes a four is acceptable, so only legality is
            // checked (done by `board`).
        }
        e.finish();
    }
}

/// The rule bitmask: 4 → renju; else 8 → caro (with 1: exact-five caro);
/// else 1 → standard; else freestyle; 2 alone → renju. Renju is observed via
/// YXSHOWFORBID on the double-three shape, caro via the doubly blocked five.
#[test]
fn rule_bitmask_combinations() {
    let _g = shared();
    let mut e = Engine::spawn();
    e.send_lines(&["INFO timeout_turn 500", "INFO timeout_match 0"]);
    for rule in [0u32, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13] {
        let renju = rule & 4 != 0 || rule == 2;
        let caro = !renju && rule & 8 != 0;
        e.send(&format!("INFO rule {rule}"));
        e.expect_silence(std::time::Duration::from_millis(50));
        let mut b = e.start(15);
        e.send_board_block("YXBOARD", &mut b, &stones(&DIAMOND, &CORNERS));
        e.expect_quiet(std::time::Duration::from_millis(50));
        e.send("YXSHOWFORBID");
        let r = e.expect_reply(QUICK);
        let want: Vec<Mv> = if renju { vec![(7, 7)] } else { vec![] };
        assert_eq!(
            parse_forbid(&r.line),
            want,
            "INFO rule {rule}: renju={renju}\n{}",
            e.diagnostics()
        );
        if !renju {
            let mut b = Board::square(15);
            let m = e.board(&mut b, &caro_blocked_five());
            let want = if caro { (7, 11) } else { (7, 7) };
            assert_eq!(
                m,
                want,
                "INFO rule {rule}: caro={caro}\n{}",
                e.diagnostics()
            );
        }
    }
    e.finish();
}
