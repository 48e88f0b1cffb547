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

/// The end of a renju game from Rensa's own self-play (a no-loss match, game 19): 224
/// stones, Black to move, and the one empty square, (8,9), is forbidden to Black. There is
/// no legal move; the engine must still answer with an empty square (the foul, which the
/// manager scores), not crash and answer an occupied one, as it did.
#[test]
fn renju_black_with_only_forbidden_squares_answers_an_empty_one() {
    let _g = shared();
    let moves: Vec<Mv> = parse_moves(RENJU_GAME_ONLY_FOULS_LEFT.concat().trim());
    assert_eq!(moves.len(), 224);
    let stones: Vec<(u32, u32, u8)> = moves
        .iter()
        .enumerate()
        .map(|(i, &(x, y))| (x, y, if i % 2 == 0 { OWN } else { OPP }))
        .collect();
    let (mut e, mut b) = session("INFO rule 4");
    let m = e.board(&mut b, &stones);
    assert_eq!(m, (8, 9), "the only empty square\n{}", e.diagnostics());
    e.finish();
}

/// Game 19's moves, Black first (Gomocup coordinates).
const RENJU_GAME_ONLY_FOULS_LEFT: &[&str] = &[
    "7,7 6,6 6,9 7,8 5,5 8,6 4,7 7,5 5,7 6,7 5,6 5,8 7,4 3,8 6,4 8,4 8,5 4,9 3,10 9,6 7,3 ",
    "9,3 10,2 4,6 8,2 9,1 5,4 5,3 6,5 8,3 6,3 6,1 7,6 4,3 9,4 11,2 3,4 4,4 4,5 3,6 7,2 ",
    "8,1 3,5 2,5 7,1 7,0 9,8 8,7 5,10 2,3 2,6 11,4 10,5 11,3 9,2 6,2 11,1 10,4 4,1 5,2 ",
    "12,3 2,2 3,3 4,10 11,6 10,7 3,2 3,1 4,11 2,9 4,8 5,9 10,8 3,11 2,12 2,4 2,1 12,7 ",
    "11,7 8,10 12,6 13,5 8,8 11,8 9,10 9,11 10,12 6,12 3,9 7,11 9,9 12,9 13,10 5,13 4,14 ",
    "10,10 8,12 11,12 2,10 1,11 12,2 13,6 13,9 11,11 13,8 13,11 10,11 12,4 13,4 5,11 11,9 ",
    "7,13 8,14 6,13 4,13 14,5 10,9 3,12 6,11 12,5 7,14 7,12 14,7 0,4 8,13 6,14 12,8 10,6 ",
    "11,14 9,12 5,12 7,10 7,9 10,14 13,3 12,12 14,10 14,4 13,13 0,5 2,7 0,6 0,3 3,7 4,0 ",
    "1,9 14,9 14,8 1,10 2,8 0,10 14,2 14,3 8,0 9,0 2,11 0,12 12,11 0,11 0,8 0,7 0,13 ",
    "12,13 14,13 11,0 13,2 1,0 2,14 1,2 5,0 1,4 1,3 10,0 12,0 10,1 13,0 3,13 6,0 0,0 2,0 ",
    "12,1 14,1 5,1 3,0 1,6 1,5 10,3 14,0 1,1 0,1 9,5 13,1 14,6 4,2 0,2 11,5 1,7 1,8 13,7 ",
    "13,12 0,9 9,7 12,10 6,10 2,13 6,8 10,13 11,10 9,14 12,14 4,12 8,11 14,11 11,13 1,12 ",
    "3,14 0,14 9,13 5,14 13,14 14,12 1,13 1,14 14,14 ",
];
