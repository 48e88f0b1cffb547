//! Time management on a fake clock: whole games are simulated over
//! `TimeSettings::budget`, every move "using" exactly its budget's maximum (the worst case
//! the engine allows itself), and the simulated game clock is charged with it.
//!
//! Per move: the maximum never exceeds `min(timeout_turn, time_left)` less the 30 ms base
//! margin (zero when that is not positive), the optimum never exceeds the maximum, and a
//! move never takes more than a fifth of the clock left. Per game: the total never exceeds
//! the match time, the first move takes at most a fifth of it, and a 60 s game clock lasts
//! for at least 25 moves.

use rensa::timeman::{Budget, TimeSettings, BASE_MARGIN_MS, DEFAULT_TURN_MS, UNLIMITED_MS};
use std::time::Duration;

fn ms(d: Duration) -> i64 {
    d.as_millis() as i64
}

/// A manager's time control, as sent with `INFO` (None: not sent).
#[derive(Clone, Copy, Debug)]
struct Control {
    name: &'static str,
    turn: Option<i64>,
    game: Option<i64>,
    /// `time_left` before the first move.
    left: Option<i64>,
}

/// How the game clock reaches the engine after the first move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Clock {
    /// The manager sends `time_left` before every move (Piskvork does).
    Resent,
    /// The manager sent `time_left` once; the engine charges its own moves.
    Charged,
}

/// One simulated move.
#[derive(Clone, Copy, Debug)]
struct Move {
    /// Empty squares when the move was asked for.
    empty: usize,
    /// The game clock before the move (None: unlimited).
    left: Option<i64>,
    budget: Budget,
}

const CONTROLS: [Control; 9] = [
    Control {
        name: "turn 5 s, game 60 s",
        turn: Some(5_000),
        game: Some(60_000),
        left: Some(60_000),
    },
    Control {
        name: "turn 300 s, game 1000 s",
        turn: Some(300_000),
        game: Some(1_000_000),
        left: Some(1_000_000),
    },
    Control {
        name: "turn 1 s, game 180 s",
        turn: Some(1_000),
        game: Some(180_000),
        left: Some(180_000),
    },
    Control {
        name: "turn 0 (answer at once), game 60 s",
        turn: Some(0),
        game: Some(60_000),
        left: Some(60_000),
    },
    Control {
        name: "game clock only, 60 s",
        turn: None,
        game: Some(60_000),
        left: Some(60_000),
    },
    Control {
        name: "tiny time left (30 ms)",
        turn: Some(5_000),
        game: Some(60_000),
        left: Some(30),
    },
    Control {
        name: "negative time left",
        turn: Some(5_000),
        game: Some(60_000),
        left: Some(-500),
    },
    Control {
        name: "turn 5 s, unlimited game",
        turn: Some(5_000),
        game: Some(0),
        left: Some(UNLIMITED_MS),
    },
    Control {
        name: "turn 2 s, game limit but time_left unlimited",
        turn: Some(2_000),
        game: Some(60_000),
        left: Some(UNLIMITED_MS),
    },
];

/// The game clock as a limit: None when unlimited.
fn limited(left: Option<i64>) -> Option<i64> {
    left.filter(|&l| l < UNLIMITED_MS)
}

/// Play a whole game on a `size` x `size` board (we move first, the opponent's moves take
/// no time from our clock) and return every move's budget. Each move uses exactly its
/// maximum.
fn simulate(control: Control, size: usize, clock: Clock) -> Vec<Move> {
    let mut settings = TimeSettings {
        turn_ms: control.turn,
        match_ms: control.game,
        time_left_ms: control.left,
        own_clock: false,
    };
    let mut left = control.left;
    let mut empty = size * size;
    let mut moves = Vec::new();
    while empty > 0 {
        if clock == Clock::Resent {
            settings.time_left_ms = left;
        } else {
            assert_eq!(settings.time_left_ms, left, "charge() keeps the clock");
        }
        let budget = settings.budget(empty);
        moves.push(Move {
            empty,
            left: limited(left),
            budget,
        });
        let used = ms(budget.maximum);
        if let Some(l) = limited(left) {
            left = Some(l - used);
        }
        settings.charge(used);
        empty = empty.saturating_sub(2);
    }
    moves
}

/// The per-move ceiling `min(timeout_turn, time_left)`, None when nothing limits a move.
fn ceiling(control: Control, left: Option<i64>) -> Option<i64> {
    match (control.turn, left) {
        (Some(t), Some(l)) => Some(t.min(l)),
        (Some(t), None) => Some(t),
        (None, Some(l)) => Some(l),
        (None, None) if control.game.is_none() && control.left.is_none() => Some(DEFAULT_TURN_MS),
        (None, None) => None,
    }
}

fn check_game(control: Control, size: usize, clock: Clock) {
    let moves = simulate(control, size, clock);
    let what = format!("{} on {size}x{size}, {clock:?}", control.name);
    assert_eq!(moves.len(), (size * size).div_ceil(2), "{what}");
    for (i, m) in moves.iter().enumerate() {
        let max = ms(m.budget.maximum);
        let opt = ms(m.budget.optimum);
        assert!(
            opt <= max,
            "{what}, move {i}: optimum {opt} > maximum {max}"
        );
        assert!(max >= 0 && opt >= 0);
        if let Some(c) = ceiling(control, m.left) {
            let bound = (c - BASE_MARGIN_MS).max(0);
            assert!(
                max <= bound,
                "{what}, move {i} ({} empty, {:?} left): maximum {max} > {bound}",
                m.empty,
                m.left
            );
        }
        if let Some(l) = m.left {
            assert!(
                max <= (l / 5).max(0),
                "{what}, move {i}: maximum {max} is more than a fifth of {l} left"
            );
        }
    }
    let total: i64 = moves.iter().map(|m| ms(m.budget.maximum)).sum();
    if let Some(start) = limited(control.left) {
        assert!(
            total <= start.max(0),
            "{what}: the game used {total} ms of {start}"
        );
        assert!(
            ms(moves[0].budget.maximum) <= start.max(0) / 5,
            "{what}: the first move may use {} ms of {start}",
            ms(moves[0].budget.maximum)
        );
    }
}

#[test]
fn whole_games_stay_within_every_limit() {
    for control in CONTROLS {
        for size in [15, 20] {
            for clock in [Clock::Resent, Clock::Charged] {
                check_game(control, size, clock);
            }
        }
    }
}

#[test]
fn sixty_seconds_last_at_least_twenty_five_moves() {
    for control in [CONTROLS[0], CONTROLS[4]] {
        assert_eq!(control.left, Some(60_000));
        for size in [15, 20] {
            for clock in [Clock::Resent, Clock::Charged] {
                let moves = simulate(control, size, clock);
                // Every one of the first 25 moves may still think (worst case: all of them
                // used their whole maximum), and the clock is not run down by then.
                for (i, m) in moves.iter().take(25).enumerate() {
                    assert!(
                        ms(m.budget.maximum) > 0,
                        "{}, {size}x{size}: move {i} has no time, {:?} left",
                        control.name,
                        m.left
                    );
                    assert!(m.left.unwrap() > BASE_MARGIN_MS, "{}", control.name);
                }
            }
        }
    }
}

#[test]
fn the_game_clock_is_spread_over_the_moves() {
    // Large clock, large turn limit: the turn limit does not bind, the game clock does.
    let control = CONTROLS[1];
    let moves = simulate(control, 20, Clock::Resent);
    assert!(ms(moves[0].budget.maximum) <= 1_000_000 / 5);
    assert!(ms(moves[0].budget.optimum) <= 1_000_000 / 8);
    // The first ten moves together leave most of the clock when each uses its optimum.
    let mut settings = TimeSettings {
        turn_ms: control.turn,
        match_ms: control.game,
        time_left_ms: control.left,
        own_clock: false,
    };
    let mut empty = 400;
    for _ in 0..10 {
        let b = settings.budget(empty);
        settings.charge(ms(b.optimum));
        empty -= 2;
    }
    let left = settings.time_left_ms.unwrap();
    assert!(left >= 500_000, "ten typical moves left only {left} ms");
}

#[test]
fn no_time_information_gives_a_few_seconds() {
    for empty in [225, 100, 2] {
        let b = TimeSettings::default().budget(empty);
        assert!(ms(b.maximum) >= 1_000, "{b:?}");
        assert!(ms(b.maximum) <= DEFAULT_TURN_MS - BASE_MARGIN_MS, "{b:?}");
        assert!(b.optimum <= b.maximum);
        assert!(b.optimum > Duration::ZERO);
    }
    let control = Control {
        name: "nothing sent",
        turn: None,
        game: None,
        left: None,
    };
    check_game(control, 15, Clock::Resent);
}

#[test]
fn timeout_turn_zero_answers_at_once() {
    let alone = TimeSettings {
        turn_ms: Some(0),
        ..Default::default()
    };
    let with_clock = TimeSettings {
        turn_ms: Some(0),
        match_ms: Some(0),
        time_left_ms: Some(UNLIMITED_MS),
        own_clock: false,
    };
    for settings in [alone, with_clock] {
        for empty in [400, 225, 1] {
            let b = settings.budget(empty);
            assert_eq!(b.maximum, Duration::ZERO, "{settings:?}");
            assert_eq!(b.optimum, Duration::ZERO, "{settings:?}");
        }
    }
    for size in [15, 20] {
        let moves = simulate(CONTROLS[3], size, Clock::Resent);
        assert!(moves.iter().all(|m| m.budget.maximum == Duration::ZERO));
    }
}

#[test]
fn little_or_negative_time_left_answers_at_once() {
    for left in [i64::MIN / 2, -500, -1, 0, 1, 29, 30] {
        let settings = TimeSettings {
            turn_ms: Some(5_000),
            match_ms: Some(60_000),
            time_left_ms: Some(left),
            own_clock: false,
        };
        let b = settings.budget(200);
        assert_eq!(b.maximum, Duration::ZERO, "time_left {left}");
        assert_eq!(b.optimum, Duration::ZERO, "time_left {left}");
    }
}

#[test]
fn unlimited_game_uses_the_turn_limit() {
    let moves = simulate(CONTROLS[7], 15, Clock::Charged);
    for m in &moves {
        let max = ms(m.budget.maximum);
        assert!(max > 4_500 && max <= 5_000 - BASE_MARGIN_MS, "{max}");
    }
    // Nothing limits a move at all: no turn limit and an unlimited game.
    let free = TimeSettings {
        turn_ms: None,
        match_ms: Some(0),
        time_left_ms: Some(UNLIMITED_MS),
        own_clock: false,
    };
    let b = free.budget(225);
    assert!(b.maximum >= Duration::from_secs(3_600), "{b:?}");
    assert!(b.optimum <= b.maximum);
}

/// A manager that sends `timeout_match` but never `time_left`: the engine has only its own
/// charges to go by. Found: `budget` then reads the whole `timeout_match` as the time left
/// on every move (`match_left_ms`), and `charge` does nothing because `time_left_ms` is
/// None, so every move may take a fifth of the full game clock: on 60 s, 12 s a move, and
/// the game total exceeds 60 s after five moves.
#[test]
fn game_clock_without_time_left_is_charged() {
    let control = Control {
        name: "timeout_match only, no time_left ever",
        turn: None,
        game: Some(60_000),
        left: None,
    };
    let mut settings = TimeSettings {
        turn_ms: control.turn,
        match_ms: control.game,
        time_left_ms: control.left,
        own_clock: false,
    };
    let mut total = 0;
    let mut empty = 225;
    while empty > 0 {
        let b = settings.budget(empty);
        total += ms(b.maximum);
        settings.charge(ms(b.maximum));
        empty = empty.saturating_sub(2);
    }
    assert!(total <= 60_000, "the game used {total} ms of 60000");
}
