//! The quintet renju puzzles (renju-note/quintet, MIT) as kept in the project's shared
//! test data: parsing of the case files, shared by the puzzle runner and the tests.
//!
//! A case file has `key: value` header lines (`mode`, `attacker`, `limit`, `threat_limit`,
//! `tags`, `expect`) and then `board:` with 15 rows, top row (row 15) first. Quintet draws
//! Black as `o` and White as `x`. Points are written `H8`: column letter A..O, row 1..15
//! counted from the bottom; in Gomocup coordinates x = letter index, y = 15 - row.

use crate::board::{Board, Cell, Color, Pos};
use std::path::Path;

/// Board side of every case.
pub const SIZE: usize = 15;

/// Which solver the case is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Victory by continuous fours.
    Vcf,
    /// Victory by continuous threats (`vct` and `vct_dfpns` cases).
    Vct,
}

impl Mode {
    /// The mode as written in case files.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Vcf => "vcf",
            Mode::Vct => "vct",
        }
    }
}

/// One puzzle.
pub struct Case {
    /// File name without `.txt`.
    pub name: String,
    /// Which solver the case is about.
    pub mode: Mode,
    /// The side to move, who wins.
    pub attacker: Color,
    /// Most attacker moves in the published line.
    pub limit: u32,
    /// Most threat (non-four) moves, where the case says.
    pub threat_limit: Option<u32>,
    /// The published line; None for `disproven`.
    pub expect: Option<Vec<Pos>>,
    /// The position.
    pub board: Board,
}

/// `H8` -> Gomocup coordinates: x = letter index, y = 15 - row number.
pub fn point(name: &str) -> Result<Pos, String> {
    let name = name.trim();
    let mut chars = name.chars();
    let letter = chars.next().ok_or("empty point")?.to_ascii_uppercase();
    if !('A'..='O').contains(&letter) {
        return Err(format!("bad column in {name:?}"));
    }
    let row: usize = chars
        .as_str()
        .parse()
        .map_err(|_| format!("bad row in {name:?}"))?;
    if !(1..=SIZE).contains(&row) {
        return Err(format!("bad row in {name:?}"));
    }
    Ok(Pos::new(letter as usize - 'A' as usize, SIZE - row))
}

/// Gomocup coordinates -> `H8`.
pub fn point_name(p: Pos) -> String {
    format!("{}{}", (b'A' + p.x() as u8) as char, SIZE - p.y())
}

/// Parse one case file's text.
pub fn parse(name: &str, text: &str) -> Result<Case, String> {
    let (mut mode, mut attacker, mut limit, mut expect) = (None, None, None, None);
    let mut threat_limit = None;
    let mut rows: Vec<Vec<char>> = Vec::new();
    let mut in_board = false;
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if in_board {
            rows.push(line.chars().filter(|c| !c.is_whitespace()).collect());
            continue;
        }
        let (key, value) = line
            .split_once(':')
            .ok_or_else(|| format!("unexpected line {line:?}"))?;
        let value = value.trim();
        match key.trim() {
            "mode" => {
                mode = Some(match value {
                    "vcf" => Mode::Vcf,
                    "vct" | "vct_dfpns" => Mode::Vct,
                    other => return Err(format!("unknown mode {other:?}")),
                })
            }
            "attacker" => {
                attacker = Some(match value {
                    "o" => Color::Black,
                    "x" => Color::White,
                    other => return Err(format!("unknown attacker {other:?}")),
                })
            }
            "limit" => limit = Some(value.parse().map_err(|_| "bad limit")?),
            "expect" => {
                expect = Some(if value == "disproven" {
                    None
                } else {
                    Some(value.split(',').map(point).collect::<Result<Vec<_>, _>>()?)
                })
            }
            "threat_limit" => threat_limit = Some(value.parse().map_err(|_| "bad threat_limit")?),
            "tags" => {}
            "board" => in_board = true,
            other => return Err(format!("unknown key {other:?}")),
        }
    }
    if rows.len() != SIZE || rows.iter().any(|r| r.len() != SIZE) {
        return Err("the board is not 15x15".into());
    }
    // Quintet draws Black as `o` and White as `x`.
    let mut board = Board::new(SIZE, SIZE).map_err(|e| e.0)?;
    for (y, row) in rows.iter().enumerate() {
        for (x, &ch) in row.iter().enumerate() {
            match ch {
                'o' | 'O' => board.place(Pos::new(x, y), Cell::Stone(Color::Black)),
                'x' | 'X' => board.place(Pos::new(x, y), Cell::Stone(Color::White)),
                '.' => {}
                other => return Err(format!("unexpected board character {other:?}")),
            }
        }
    }
    Ok(Case {
        name: name.to_string(),
        mode: mode.ok_or("no mode")?,
        attacker: attacker.ok_or("no attacker")?,
        limit: limit.ok_or("no limit")?,
        threat_limit,
        expect: expect.ok_or("no expect")?,
        board,
    })
}

/// Every `*.txt` case of `dir`, by name.
pub fn load(dir: &Path) -> Result<Vec<Case>, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut paths: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| {
            let name = p
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .to_string();
            let text = std::fs::read_to_string(p)
                .map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            parse(&name, &text).map_err(|e| format!("{}: {e}", p.display()))
        })
        .collect()
}

/// The shared quintet cases for in-crate tests: None (the test is skipped, with a note on
/// stderr) when the test data is missing, unless `RENSA_REQUIRE_TESTDATA` is set, which
/// makes a missing set a failure.
#[cfg(test)]
pub(crate) fn load_for_tests() -> Option<Vec<Case>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/testdata/quintet/cases");
    match load(&dir) {
        Ok(cases) => Some(cases),
        Err(e) if std::env::var_os("RENSA_REQUIRE_TESTDATA").is_none() => {
            eprintln!("skipped: {e}");
            None
        }
        Err(e) => panic!("{e}"),
    }
}
