//! A generated soundness check for the VCT solver, for every rule.
//!
//! The VCT solver answers each attacker threat with a reduced set of defences (the squares
//! that can stop the threat, the defender's counter-fours, or for a quiet move every square
//! that breaks the VCF it prepares). A wrong reduction would claim false wins. This test
//! checks the reduction from outside: in positions from random tactical games where the
//! solver claims a win whose first move is not a four, it tries **every** legal reply of
//! the defender, on the whole board, and requires that the attacker still wins each of them
//! (a VCT again, replayed through the rules code). Every returned line must also replay.
//!
//! Run with `--release --nocapture` to see the counts.

mod common;

use common::games::tactical_game;
use common::{show, Rng};
use rensa::board::{Board, Cell, Color, Pos};
use rensa::rules::{is_forbidden, is_winning_move, Rule};
use rensa::search::threat::{replay_is_win, ThreatLimits, ThreatSolver};

/// Attacker moves in the claimed VCT.
const CLAIM_MOVES: u32 = 5;
/// Attacker moves allowed after each reply (the reply may cost the attacker a forced block).
const REPLY_MOVES: u32 = 7;
/// Node budgets: a claim search, and the search after one reply.
const CLAIM_NODES: u64 = 20_000;
const REPLY_NODES: u64 = 400_000;
/// Claims checked per rule (each costs a VCT search per empty square).
const CLAIMS: usize = 30;
/// Games tried per rule at most.
const GAMES: usize = 3_000;

fn limits(moves: u32, nodes: u64) -> ThreatLimits {
    ThreatLimits {
        max_attacker_moves: moves,
        max_nodes: nodes,
    }
}

/// Some(reply) if a legal reply to the first move of a claimed win is not refuted; also the
/// number of replies whose search ran out of nodes (no verdict).
fn unrefuted_reply(
    board: &Board,
    rule: Rule,
    attacker: Color,
    first: Pos,
    undecided: &mut usize,
) -> Option<Pos> {
    let defender = attacker.opponent();
    let mut b = board.clone();
    b.place(first, Cell::Stone(attacker));
    let replies: Vec<Pos> = b.empty_positions().collect();
    for r in replies {
        if is_winning_move(&b, r, defender, rule) {
            return Some(r); // a five: the claim was false
        }
        if is_forbidden(&mut b, r, defender, rule) {
            continue; // not a legal reply
        }
        b.place(r, Cell::Stone(defender));
        let mut solver = ThreatSolver::new(&b, rule, attacker, limits(REPLY_MOVES, REPLY_NODES));
        let line = solver.vct();
        let refuted = match &line {
            Some(l) => {
                assert!(
                    replay_is_win(&b, rule, attacker, l),
                    "a line after the reply {r:?} does not replay: {l:?}\n{}",
                    show(&b, Some(r))
                );
                true
            }
            // The budget ran out: no verdict either way (counted, and bounded by the caller).
            None if solver.aborted() => {
                *undecided += 1;
                true
            }
            None => false,
        };
        b.remove(r);
        if !refuted {
            return Some(r);
        }
    }
    None
}

fn check_rule(rule: Rule, seed: u64) {
    let mut rng = Rng::new(seed);
    let mut claims = 0;
    let mut games = 0;
    let mut replies = 0;
    let mut undecided = 0;
    while claims < CLAIMS && games < GAMES {
        games += 1;
        let moves = 14 + rng.below(20);
        let (board, to_move) = tactical_game(&mut rng, rule, moves);
        let mut solver = ThreatSolver::new(&board, rule, to_move, limits(CLAIM_MOVES, CLAIM_NODES));
        let Some(line) = solver.vct() else { continue };
        assert!(
            replay_is_win(&board, rule, to_move, &line),
            "{rule:?}: the claimed line {line:?} does not replay\n{}",
            show(&board, None)
        );
        // Only claims that rest on threats: a first move that is not itself a four or five.
        let mut b = board.clone();
        if line.len() < 3 || is_winning_move(&b, line[0], to_move, rule) {
            continue;
        }
        b.place(line[0], Cell::Stone(to_move));
        let four = b
            .empty_positions()
            .any(|q| is_winning_move(&b, q, to_move, rule));
        if four {
            continue;
        }
        claims += 1;
        replies += b.empty_positions().count();
        if let Some(r) = unrefuted_reply(&board, rule, to_move, line[0], &mut undecided) {
            panic!(
                "{rule:?}: {to_move:?} claims a VCT with {line:?}, but the reply {r:?} to its \
                 first move is not refuted\n{}",
                show(&board, Some(line[0]))
            );
        }
    }
    println!(
        "{rule:?}: {claims} threat-based VCT claims checked against {replies} replies, \
         {undecided} undecided (out of nodes), {games} games"
    );
    assert!(
        claims >= CLAIMS / 2,
        "{rule:?}: only {claims} claims found in {games} games"
    );
    assert!(
        undecided * 20 <= replies,
        "{rule:?}: {undecided} of {replies} replies undecided"
    );
}

#[test]
fn freestyle_claims_survive_every_reply() {
    check_rule(Rule::Freestyle, 0x5eed_0001);
}

#[test]
fn standard_claims_survive_every_reply() {
    check_rule(Rule::Standard, 0x5eed_0002);
}

#[test]
fn renju_claims_survive_every_reply() {
    check_rule(Rule::Renju, 0x5eed_0003);
}

#[test]
fn caro_claims_survive_every_reply() {
    check_rule(Rule::Caro, 0x5eed_0004);
}
