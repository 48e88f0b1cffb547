//! Rensa: a Gomoku / Renju engine.
//!
//! The library holds the engine core (board, rules, search, time management) and the
//! Gomocup protocol layer that the `pbrain-rensa` binary runs. The core knows nothing of the
//! protocol: `protocol` turns lines into commands and drives an [`engine::Engine`].
//! [`records`] reads and writes game records (`.psq`, SGF, opening lines) and [`client`]
//! hosts other Gomocup engines as processes (the conversation, clocks, forfeits), for the
//! engine's front ends and for the match runner in `bench/`. [`analysis`] is the
//! `analyse` command: a position's best lines and a searched heatmap as text, SVG and JSON.
//! [`gui`] is the `gui` command: a board in the browser, served over local HTTP.

pub mod analysis;
pub mod bench;
pub mod board;
pub mod client;
pub mod engine;
pub mod gui;
pub mod opening;
pub mod pattern;
pub mod position;
pub mod protocol;
pub mod quintet;
pub mod records;
pub mod rng;
pub mod rules;
pub mod search;
pub mod shape;
pub mod timeman;
