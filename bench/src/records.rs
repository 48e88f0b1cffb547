//! Game records: one Piskvork `.psq` file per game, an SGF collection, and a log of the
//! engines' `MESSAGE` lines.

use crate::game::GameRecord;
use rensa::board::Color;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// The `.psq` text of a game (Piskvork format): the header `Piskvorky WxH, 11:11, 0`, one
/// `x,y,ms` line per stone with 1-based coordinates (opening stones take 0 ms), the two
/// program file names (Black's first), and an error code (0 normal end, 15 timeout, 16
/// memory, 1 other errors).
pub fn psq_text(g: &GameRecord) -> String {
    let mut s = format!("Piskvorky {}x{}, 11:11, 0\n", g.width, g.height);
    for (p, ms) in &g.moves {
        s.push_str(&format!("{},{},{}\n", p.x() + 1, p.y() + 1, ms));
    }
    s.push_str(&g.programs[0]);
    s.push('\n');
    s.push_str(&g.programs[1]);
    s.push('\n');
    s.push_str(&format!("{}\n", g.termination.psq_code()));
    s
}

/// The file name of a game's `.psq` record: `<id>_<black>_<white>_<result>.psq` with the
/// GomocupJudge result code (0 draw, 1 Black wins, 2 White wins).
pub fn psq_file_name(g: &GameRecord) -> String {
    format!(
        "{:05}_{}_{}_{}.psq",
        g.setup.id,
        sanitize(&g.names[0]),
        sanitize(&g.names[1]),
        g.result_code()
    )
}

/// Replace characters that are awkward in file names.
fn sanitize(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// Writes one `.psq` file per game into a directory.
pub struct PsqWriter {
    dir: PathBuf,
}

impl PsqWriter {
    /// Create the directory if needed.
    pub fn new(dir: &Path) -> io::Result<PsqWriter> {
        fs::create_dir_all(dir)?;
        Ok(PsqWriter {
            dir: dir.to_path_buf(),
        })
    }

    /// Write a game's record; returns its path.
    pub fn write(&self, g: &GameRecord) -> io::Result<PathBuf> {
        let path = self.dir.join(psq_file_name(g));
        fs::write(&path, psq_text(g))?;
        Ok(path)
    }
}

/// An SGF coordinate letter: `a`..`z`, then `A`..`Z` for boards wider than 26.
fn sgf_coord(v: usize) -> char {
    if v < 26 {
        (b'a' + v as u8) as char
    } else {
        (b'A' + (v - 26) as u8) as char
    }
}

/// Escape `]` and `\` in an SGF text value.
fn sgf_escape(t: &str) -> String {
    let mut s = String::with_capacity(t.len());
    for c in t.chars() {
        if c == ']' || c == '\\' {
            s.push('\\');
        }
        s.push(c);
    }
    s
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

/// One game as an SGF game tree (c-gomoku-cli layout: `GM[4]`, `RU` = rule code,
/// `RE[B+1|W+1|0]`, `TE` = termination, opening stones commented "opening move" and
/// played moves with their time).
pub fn sgf_text(g: &GameRecord) -> String {
    let size = if g.width == g.height {
        format!("{}", g.width)
    } else {
        format!("{}:{}", g.width, g.height)
    };
    let re = match g.winner {
        Some(Color::Black) => "B+1",
        Some(Color::White) => "W+1",
        None => "0",
    };
    let mut s = format!(
        "(;FF[4]GM[4]CA[UTF-8]AP[rensa-match]GN[{}]EV[{} x {}]DT[{}]RO[{}]RU[{}]SZ[{}]PB[{}]PW[{}]RE[{}]TE[{}]",
        g.setup.id,
        sgf_escape(&g.names[0]),
        sgf_escape(&g.names[1]),
        date_text(g.started),
        g.setup.round,
        g.rule.code(),
        size,
        sgf_escape(&g.names[0]),
        sgf_escape(&g.names[1]),
        re,
        sgf_escape(&g.reason_text()),
    );
    for (i, (p, ms)) in g.moves.iter().enumerate() {
        let c = if i % 2 == 0 { 'B' } else { 'W' };
        let comment = if i < g.opening_len {
            "opening move".to_string()
        } else {
            format!("{ms}ms")
        };
        s.push_str(&format!(
            "\n;{c}[{}{}]C[{comment}]",
            sgf_coord(p.x()),
            sgf_coord(p.y())
        ));
    }
    s.push_str(")\n");
    s
}

/// Appends games to an SGF collection file and engine messages to a text file.
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

    /// Append text and flush, so the file is usable while the match runs.
    pub fn append(&mut self, text: &str) -> io::Result<()> {
        self.out.write_all(text.as_bytes())?;
        self.out.flush()
    }
}

/// The `MESSAGE` lines of a game, grouped under a header line.
pub fn messages_text(g: &GameRecord) -> String {
    let mut s = format!(
        "Game {} (round {}): {} vs {}\n",
        g.setup.id, g.setup.round, g.names[0], g.names[1]
    );
    for (c, m) in &g.messages {
        s.push_str(&format!("{}: {m}\n", g.names[c.index()]));
    }
    s.push('\n');
    s
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
    fn sgf_helpers() {
        assert_eq!(sgf_coord(0), 'a');
        assert_eq!(sgf_coord(25), 'z');
        assert_eq!(sgf_coord(26), 'A');
        assert_eq!(sgf_escape("a]b\\"), "a\\]b\\\\");
        assert_eq!(sanitize("Rensa 0.1/x"), "Rensa-0.1-x");
    }
}
