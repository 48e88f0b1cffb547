//! The engine client as a front end uses it, against the engine's own binary: spawn it,
//! ask its name, start a game, ask for moves under a clock, and declare a time forfeit
//! when the clock has run out.

use rensa::board::{Color, Pos};
use rensa::client::clock::Clock;
use rensa::client::conversation::{move_request, request_move, spawn_engine, start_game, Awaited};
use rensa::client::spec::{EngineSpec, TimeControl};
use rensa::records::Termination;
use rensa::rules::Rule;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_pbrain-rensa");

#[test]
fn a_front_end_plays_moves_against_the_engine_binary() {
    let mut spec = EngineSpec::new(BIN.into());
    spec.tc = TimeControl::parse("0/0.3").unwrap();
    spec.tolerance = Duration::from_secs(2);
    let (mut eng, name) = spawn_engine(&spec, "rensa", None, false, true).unwrap();
    assert_eq!(name.as_deref(), Some("rensa"));
    let stop = AtomicBool::new(false);
    let mut messages = Vec::new();
    start_game(&mut eng, &spec, (20, 15), Rule::Freestyle, false, None).unwrap();
    let mut clock = Clock::new(spec.tc, spec.tolerance);
    let mut moves: Vec<Pos> = Vec::new();
    let mut lines = Vec::new();
    for turn in 0..2 {
        // The engine plays Black; the "opponent" answers at the corner squares.
        let budget = clock.begin_move();
        move_request(
            &mut lines,
            budget.time_left,
            &moves,
            Color::Black,
            turn == 0,
            true,
        );
        let messages = Some((&mut messages, Color::Black));
        let Awaited::Move { x, y, sent, at } =
            request_move(&mut eng, &lines, &budget, false, &stop, messages)
        else {
            panic!("no move on turn {turn}");
        };
        clock.end_move(&budget, at.saturating_duration_since(sent));
        assert!((0..20).contains(&x) && (0..15).contains(&y), "{x},{y}");
        let p = Pos::new(x as usize, y as usize);
        assert!(!moves.contains(&p));
        moves.push(p);
        moves.push(Pos::new(turn, 0));
    }
    assert_eq!(clock.moves, 2);
    assert_eq!(lines[1], "TURN 0,0");

    // A match clock run out, and no tolerance: the answer cannot come in time.
    let tc = TimeControl {
        match_ms: 1,
        turn_ms: 0,
        inc_ms: 0,
    };
    let mut none = Clock::new(tc, Duration::ZERO);
    let budget = none.begin_move();
    none.end_move(&budget, Duration::from_secs(1));
    let budget = none.begin_move();
    assert_eq!(budget.hard, Some(Duration::ZERO));
    move_request(&mut lines, 0, &moves, Color::Black, false, true);
    match request_move(&mut eng, &lines, &budget, false, &stop, None) {
        Awaited::Lost(f) => assert_eq!(f.termination, Termination::Time, "{}", f.detail),
        other => panic!("expected a time forfeit, got {other:?}"),
    }
    eng.quit(Duration::from_millis(500));
}
