//! Game records: one neutral [`Record`] type with writers and readers for Piskvork `.psq`
//! files ([`psq`]) and SGF collections ([`sgf`]), the opening-line formats ([`openings`]),
//! and the vocabulary of how a game ends ([`Termination`], [`Outcome`]).
//!
//! The writers produce the files `rensa-match` has always written; the readers take those
//! back, and the usual variants other managers write. Readers return an error message on
//! bad input and never panic.

pub mod openings;
pub mod psq;
pub mod sgf;
mod termination;

pub use termination::{reason_text, Termination};

use crate::board::{Color, Pos};
use crate::rules::Rule;
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// How a game came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// A colour won.
    Win(Color),
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// The outcome with this winner (None: a draw).
    pub fn from_winner(winner: Option<Color>) -> Outcome {
        winner.map_or(Outcome::Draw, Outcome::Win)
    }

    /// The winner, None for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::Win(c) => Some(c),
            Outcome::Draw => None,
        }
    }

    /// The result code GomocupJudge writes: 0 draw, 1 Black wins, 2 White wins.
    pub fn code(self) -> u8 {
        match self {
            Outcome::Draw => 0,
            Outcome::Win(Color::Black) => 1,
            Outcome::Win(Color::White) => 2,
        }
    }

    /// The outcome for a GomocupJudge result code.
    pub fn from_code(code: u8) -> Option<Outcome> {
        match code {
            0 => Some(Outcome::Draw),
            1 => Some(Outcome::Win(Color::Black)),
            2 => Some(Outcome::Win(Color::White)),
            _ => None,
        }
    }
}

/// One game as the record formats see it. Fields a format does not hold are left at their
/// defaults by its reader (0, empty, None), as each field says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Game number (SGF `GN`, the first part of a `.psq` file name); 0 when unknown.
    pub id: usize,
    /// Round (SGF `RO`); 0 when unknown.
    pub round: usize,
    /// Date as `YYYY-MM-DD` (SGF `DT`); empty when unknown.
    pub date: String,
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// Rule (SGF `RU`, a Gomocup rule code); None when the record does not say (`.psq`).
    pub rule: Option<Rule>,
    /// Player names, Black first (SGF `PB`/`PW`, `.psq` file names); empty when unknown.
    pub names: [String; 2],
    /// Program file names, Black first (the `.psq` trailer); empty when unknown.
    pub programs: [String; 2],
    /// The stones in order, Black first, with thinking time in ms (0 for opening stones
    /// and when unknown).
    pub moves: Vec<(Pos, u64)>,
    /// How many of `moves` are opening stones (SGF comments "opening move"; 0 in `.psq`).
    pub opening_len: usize,
    /// The result; None when the record does not say.
    pub result: Option<Outcome>,
    /// The `.psq` error code (0 normal end, 15 timeout, 16 memory, 1 other errors); None
    /// when the record does not say.
    pub psq_code: Option<i32>,
    /// How the game ended, in words (SGF `TE`); empty when unknown.
    pub reason: String,
}

impl Record {
    /// The colour of the `i`-th stone (0-based): Black plays the even ones.
    pub fn color_of(i: usize) -> Color {
        if i.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    }
}

/// Checks shared by the readers: a supported board and moves on distinct squares of it.
fn check_moves(width: usize, height: usize, moves: &[(Pos, u64)]) -> Result<(), String> {
    if !crate::board::Board::size_supported(width, height) {
        return Err(format!(
            "board size {width}x{height} unsupported (5 to 32 per side)"
        ));
    }
    let mut seen = vec![false; crate::board::CELL_SLOTS];
    for (i, (p, _)) in moves.iter().enumerate() {
        if p.x() >= width || p.y() >= height {
            return Err(format!(
                "move {} ({},{}) is off the {width}x{height} board",
                i + 1,
                p.x(),
                p.y()
            ));
        }
        if std::mem::replace(&mut seen[p.index()], true) {
            return Err(format!(
                "move {} ({},{}) is on an occupied square",
                i + 1,
                p.x(),
                p.y()
            ));
        }
    }
    Ok(())
}

/// `YYYY-MM-DD` (UTC) for a time, by the civil-from-days algorithm (H. Hinnant).
pub fn date_text(t: SystemTime) -> String {
    let secs = t
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let z = secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// A text file that grows while a match runs (an SGF collection, a message log).
pub struct AppendFile {
    out: BufWriter<File>,
}

impl AppendFile {
    /// Create (truncate) the file.
    pub fn create(path: &Path) -> io::Result<AppendFile> {
        let f = OpenOptions::new()
            .create(true)
            .write(true)
            .truncate(true)
            .open(path)?;
        Ok(AppendFile {
            out: BufWriter::new(f),
        })
    }

    /// Open the file to add to what it holds (created if missing): a resumed match.
    pub fn append_to(path: &Path) -> io::Result<AppendFile> {
        let f = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(AppendFile {
            out: BufWriter::new(f),
        })
    }

    /// Append text and flush, so the file is usable while the match runs.
    pub fn append(&mut self, text: &str) -> io::Result<()> {
        self.out.write_all(text.as_bytes())?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(date_text(UNIX_EPOCH), "1970-01-01");
        let t = UNIX_EPOCH + std::time::Duration::from_secs(951_782_400); // 2000-02-29
        assert_eq!(date_text(t), "2000-02-29");
        let t = UNIX_EPOCH + std::time::Duration::from_secs(1_767_225_599); // 2025-12-31 23:59:59
        assert_eq!(date_text(t), "2025-12-31");
    }

    #[test]
    fn outcomes_and_codes() {
        for o in [
            Outcome::Draw,
            Outcome::Win(Color::Black),
            Outcome::Win(Color::White),
        ] {
            assert_eq!(Outcome::from_code(o.code()), Some(o));
            assert_eq!(Outcome::from_winner(o.winner()), o);
        }
        assert_eq!(Outcome::from_code(3), None);
    }

    #[test]
    fn move_checks() {
        let m = |x, y| (Pos::new(x, y), 0);
        assert!(check_moves(15, 15, &[m(0, 0), m(14, 14)]).is_ok());
        assert!(check_moves(15, 15, &[m(0, 0), m(0, 0)])
            .unwrap_err()
            .contains("occupied"));
        assert!(check_moves(15, 10, &[m(3, 10)])
            .unwrap_err()
            .contains("off"));
        assert!(check_moves(4, 15, &[]).is_err());
    }
}
