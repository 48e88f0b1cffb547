//! Black-box protocol tests for `pbrain-rensa`.
//!
//! Each `#[test]` is a whole session against the built binary: scripted input
//! lines and the replies expected, following the Gomocup (Piskvork) protocol
//! as real managers use it (/work/shared/protocol.md) and the project's
//! protocol spec. Run with `cargo test --release --test protocol`.
//!
//! Layout:
//! - `harness`: spawning the engine, reading replies with timeouts, the
//!   board model, transcripts printed on failure.
//! - `positions`: hand-made positions (wins, blocks, renju fouls, caro).
//! - `managers`: Piskvork, GomocupJudge, c-gomoku-cli and Yixin-Board orders.
//! - `commands`: START/RECTSTART/RESTART, BOARD, TAKEBACK, PLAY, SWAP2BOARD,
//!   ABOUT, INFO, YX* commands.
//! - `rules`: rule values, wins and blocks, renju, exact five, caro.
//! - `bad_input`: unknown/malformed input and refused commands.
//! - `timing`: time limits, END/EOF during a search, STOP/YXSTOP.
//! - `memory`: peak RSS under max_memory (Linux).
//! - `renju_cases`: third-party renju forbidden-point data (MIT).

mod analysis;
mod bad_input;
mod commands;
mod harness;
mod managers;
mod memory;
mod positions;
mod renju_cases;
mod rules;
mod timing;
