//! Whole games played through the engine facade ([`rensa::engine::game::Game`]) with no
//! protocol layer: two facades, one per side, relay their moves to each other while an
//! independent referee position checks every move and the end of the game.

use rensa::board::{Color, Pos};
use rensa::engine::game::Game;
use rensa::position::Position;
use rensa::rules::Rule;
use std::time::Instant;

/// A facade for one side: its rule, a node limit (deterministic and quick) or a per-move
/// time limit.
fn player(rule: Rule, size: usize, nodes: Option<u64>, turn_ms: i64, threads: usize) -> Game {
    let mut game = Game::new();
    game.set_rule(rule);
    game.new_game(size as i64, size as i64).unwrap();
    game.time_mut().turn_ms = Some(turn_ms);
    let options = game.engine_mut().options_mut();
    options.max_nodes = nodes;
    options.threads = threads;
    options.hash_kib = Some(4096);
    game
}

/// Play one game to its end; returns the referee's final position.
fn play_game(
    rule: Rule,
    size: usize,
    nodes: Option<u64>,
    turn_ms: i64,
    threads: usize,
) -> Position {
    let mut black = player(rule, size, nodes, turn_ms, threads);
    let mut white = player(rule, size, nodes, turn_ms, threads);
    let mut referee = Position::new(size, size, rule).unwrap();
    black.begin().unwrap();
    let mut last: Option<Pos> = None;
    loop {
        let mover = referee.to_move();
        let side = if mover == Color::Black {
            &mut black
        } else {
            &mut white
        };
        if let Some(reply_to) = last {
            let pos = side
                .empty_square(reply_to.x() as i64, reply_to.y() as i64)
                .unwrap();
            side.opponent_move(pos);
        }
        let pos = side.think(Instant::now(), Box::new(|_| {})).unwrap();
        assert_eq!(
            side.our_color(),
            mover,
            "{rule}: the facade plays the side to move"
        );
        assert!(
            referee.is_legal(pos),
            "{rule}: {mover:?} played the illegal {pos}"
        );
        referee.play(pos);
        // The facade's own position is the referee's.
        assert_eq!(
            side.position().hash(),
            referee.hash(),
            "{rule}: positions differ"
        );
        assert_eq!(side.position().history(), referee.history());
        if referee.last_move_won() || referee.empty_count() == 0 {
            return referee;
        }
        last = Some(pos);
    }
}

#[test]
fn complete_games_at_a_node_limit_in_every_rule() {
    for (rule, size) in [
        (Rule::Freestyle, 15),
        (Rule::Freestyle, 20),
        (Rule::Standard, 15),
        (Rule::Renju, 15),
        (Rule::Caro, 15),
    ] {
        let end = play_game(rule, size, Some(3_000), 60_000, 1);
        assert!(
            end.last_move_won() || end.empty_count() == 0,
            "{rule}: the game ended"
        );
        assert!(
            end.history().len() >= 9,
            "{rule}: a real game, not a blunder"
        );
    }
}

#[test]
fn a_complete_game_on_the_clock_with_the_threat_thread() {
    // Two threads: the threat thread runs beside the main search; 150 ms a move.
    let end = play_game(Rule::Renju, 15, None, 150, 2);
    assert!(end.last_move_won() || end.empty_count() == 0);
}
