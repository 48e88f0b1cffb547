//! `pbrain-rensa analyse`: a position searched for its best lines and a heatmap of every
//! move near the stones, written as text, as an SVG board image and as JSON.
//!
//! Layer 5 of the crate (see `tests/layers.rs`): it reads positions with the records and
//! the protocol's `BOARD` parser, searches with [`crate::search`] and writes squares and
//! scores as the protocol's output does (`h8`, `+M7`).
//!
//! - [`input`]: the position from a pos move list, a `.psq` file or a `BOARD` block.
//! - [`heatmap`]: the search: every legal square within distance 2 of a stone scored.
//! - [`text`], [`svg`], [`json`]: the three ways of writing an [`Analysis`].

pub mod heatmap;
pub mod input;
pub mod json;
pub mod svg;
pub mod text;

use crate::position::Position;
use heatmap::{Budget, Heatmap};
use std::io::BufRead;
use std::path::PathBuf;

/// The node budget `analyse` uses when told none: a few seconds on one core.
pub const DEFAULT_NODES: u64 = 1_000_000;

/// How many best lines `analyse` prints when told no number.
pub const DEFAULT_LINES: usize = 5;

/// A position with its searched heatmap.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The position analysed.
    pub position: Position,
    /// What the search found.
    pub heatmap: Heatmap,
    /// The budget it was given.
    pub budget: Budget,
}

impl Analysis {
    /// Search `position` within `budget` for its heatmap and best `lines` lines.
    pub fn run(position: Position, budget: Budget, lines: usize) -> Analysis {
        let heatmap = heatmap::compute(&position, budget, lines);
        Analysis {
            position,
            heatmap,
            budget,
        }
    }
}

/// Where the position comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A move list in pos format (`h8i9j10`), Black first.
    Pos(String),
    /// A Piskvork `.psq` record file.
    Psq(PathBuf),
    /// A Gomocup `BOARD` … `DONE` block on standard input.
    BoardBlock,
}

/// Everything `pbrain-rensa analyse` is asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The position's source.
    pub source: Source,
    /// Gomocup rule code (0, 1, 4, 8 or 9).
    pub rule: u32,
    /// Board size as `N` or `WxH` (a `.psq` file gives its own; None: 15x15).
    pub size: Option<String>,
    /// The search's budget.
    pub budget: Budget,
    /// How many best lines to show.
    pub lines: usize,
    /// Where to write the SVG image, if anywhere.
    pub svg: Option<PathBuf>,
    /// Where to write the JSON, if anywhere.
    pub json: Option<PathBuf>,
}

/// Read the position a request names (`stdin` for a `BOARD` block).
pub fn read_position(request: &Request, stdin: &mut dyn BufRead) -> Result<Position, String> {
    let rule = input::rule_from_code(request.rule)?;
    let size = request.size.as_deref().map(input::parse_size).transpose()?;
    let (width, height) = size.unwrap_or(input::DEFAULT_SIZE);
    match &request.source {
        Source::Pos(moves) => input::from_pos(moves, width, height, rule),
        Source::BoardBlock => input::from_board_block(stdin, width, height, rule),
        Source::Psq(path) => {
            let position = input::from_psq_file(path, rule)?;
            let b = position.board();
            match size {
                Some((w, h)) if (w, h) != (b.width(), b.height()) => Err(format!(
                    "--size {w}x{h} disagrees with the {}x{} board of {}",
                    b.width(),
                    b.height(),
                    path.display()
                )),
                _ => Ok(position),
            }
        }
    }
}

/// Carry out a request: read the position, search it, write the SVG and JSON files it
/// names, and return the text report for standard output. Errors are messages for the
/// user (bad input, a file that cannot be written).
pub fn run(request: &Request, stdin: &mut dyn BufRead) -> Result<String, String> {
    let position = read_position(request, stdin)?;
    if request.lines == 0 {
        return Err("--lines must be at least 1".to_string());
    }
    let analysis = Analysis::run(position, request.budget, request.lines);
    if let Some(path) = &request.svg {
        write_file(path, &svg::document(&analysis))?;
    }
    if let Some(path) = &request.json {
        write_file(path, &json::document(&analysis))?;
    }
    Ok(text::report(&analysis))
}

fn write_file(path: &std::path::Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
