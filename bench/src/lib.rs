//! `rensa-bench`: tools to measure Rensa and other Gomocup engines.
//!
//! The main tool is the match runner `rensa-match` (engine-vs-engine tournaments,
//! self-play SPRT tests, game records); see `bench/README.md`. The library modules are
//! small and independent so that tests and other tools can use them directly:
//!
//! - [`config`]: engine specifications, time controls and option parsing;
//! - [`engine`]: running an engine process and talking to it;
//! - [`protocol`]: classifying engine output lines;
//! - [`clock`]: per-move limits, tolerance, `YXSTOP` and overrun bookkeeping;
//! - [`referee`]: the game position and verdicts, using Rensa's own rules code;
//! - [`openings`]: opening files (lines in `rensa::records::openings` formats), order and
//!   transforms;
//! - [`game`]: playing one game in c-gomoku-cli or GomocupJudge style;
//! - [`tournament`]: schedules, parallel workers, aggregation and the SPRT stop;
//! - [`stats`]: Elo, LOS and SPRT arithmetic;
//! - [`records`]: the record files of a match: `.psq` and SGF (written by
//!   `rensa::records`) and message logs;
//! - [`report`]: progress, tables and the JSON summary;
//! - [`sys`]: process-group signals and memory readings.

pub mod clock;
pub mod cmdline;
pub mod config;
pub mod engine;
pub mod game;
pub mod json;
pub mod openings;
pub mod protocol;
pub mod records;
pub mod referee;
pub mod report;
pub mod rng;
pub mod stats;
pub mod sys;
pub mod tournament;
