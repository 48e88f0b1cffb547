//! `rensa-bench`: tools to measure Rensa and other Gomocup engines.
//!
//! The main tool is the match runner `rensa-match` (engine-vs-engine tournaments,
//! self-play SPRT tests, game records); see `bench/README.md`. The library modules are
//! small and independent so that tests and other tools can use them directly:
//!
//! - [`config`]: parsing engine options, rules and board sizes into the engine
//!   specifications and time controls of `rensa::client::spec`;
//! - [`referee`]: the game position and verdicts, using Rensa's own rules code;
//! - [`openings`]: opening files (lines in `rensa::records::openings` formats), order and
//!   transforms;
//! - [`defence`]: the defence set (positions under an opponent VCT threat, judged by the
//!   threat solver) that the `defence` tool builds and runs;
//! - [`game`]: playing one game in c-gomoku-cli or GomocupJudge style, talking to the
//!   engines through `rensa::client`;
//! - [`tournament`]: schedules, parallel workers, aggregation and the SPRT stop;
//! - [`stats`]: Elo, LOS and SPRT arithmetic;
//! - [`records`]: the record files of a match: `.psq` and SGF (written by
//!   `rensa::records`) and message logs;
//! - [`report`]: progress, tables and the JSON summary;
//! - [`journal`]: one line per finished game, so that an interrupted match resumes;
//! - [`probe`]: one position put to a fresh engine process (puzzle and defence runners);
//! - [`selfplay`]: self-play training data (the games, their file format, resuming).
//!
//! The engine processes themselves (spawning, the Gomocup conversation, clocks, forfeits,
//! process-group signals) are the engine library's `rensa::client`, so that the engine
//! binary can host other engines too; the record formats are `rensa::records`.

pub mod cmdline;
pub mod config;
pub mod defence;
pub mod game;
pub mod journal;
pub mod json;
pub mod openings;
pub mod probe;
pub mod records;
pub mod referee;
pub mod report;
pub mod selfplay;
/// The deterministic generator, shared with the engine library.
pub use rensa::rng;
pub mod stats;
pub mod tournament;
