//! Piskvork `.psq` records: the header `Piskvorky WxH, 11:11, 0`, one `x,y,ms` line per
//! stone with 1-based coordinates, the two program file names (Black's first) and an error
//! code. `rensa-match` names each file `<id>_<black>_<white>_<result>.psq` with the
//! GomocupJudge result code (0 draw, 1 Black wins, 2 White wins).
//!
//! The reader accepts what other managers write too: CR LF line endings, a byte-order
//! mark, `x,y` lines without a time, and files that stop after the moves or after the
//! program names. The format holds neither the rule, the player names nor the result:
//! [`read`] takes the last two (and the game number) from a file name in the form above.

use super::{check_moves, Outcome, Record};
use crate::board::Pos;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The `.psq` text of a game. Unknown program names are written as empty lines and an
/// unknown error code as 0.
pub fn text(r: &Record) -> String {
    let mut s = format!("Piskvorky {}x{}, 11:11, 0\n", r.width, r.height);
    for (p, ms) in &r.moves {
        s.push_str(&format!("{},{},{}\n", p.x() + 1, p.y() + 1, ms));
    }
    s.push_str(&r.programs[0]);
    s.push('\n');
    s.push_str(&r.programs[1]);
    s.push('\n');
    s.push_str(&format!("{}\n", r.psq_code.unwrap_or(0)));
    s
}

/// The file name of a game's record: `<id>_<black>_<white>_<result>.psq`, the names with
/// every character other than ASCII letters, digits, `-` and `.` replaced by `-`, and an
/// unknown result written as 0.
pub fn file_name(r: &Record) -> String {
    format!(
        "{:05}_{}_{}_{}.psq",
        r.id,
        sanitize(&r.names[0]),
        sanitize(&r.names[1]),
        r.result.map_or(0, Outcome::code)
    )
}

/// A player name as [`file_name`] spells it: every character other than ASCII letters,
/// digits, `-` and `.` replaced by `-`.
pub fn sanitize(name: &str) -> String {
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

/// What a file name written by [`file_name`] says: game number, Black's and White's
/// (sanitised) names and the result. None for other names.
pub fn parse_file_name(name: &str) -> Option<(usize, String, String, Outcome)> {
    let stem = name.strip_suffix(".psq")?;
    let parts: Vec<&str> = stem.split('_').collect();
    let [id, black, white, result] = parts.as_slice() else {
        return None;
    };
    let id = id.parse().ok()?;
    let result = Outcome::from_code(result.parse().ok()?)?;
    Some((id, black.to_string(), white.to_string(), result))
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

    /// Write a game's record under its [`file_name`]; returns its path.
    pub fn write(&self, r: &Record) -> io::Result<PathBuf> {
        let path = self.dir.join(file_name(r));
        fs::write(&path, text(r))?;
        Ok(path)
    }
}

/// Read a `.psq` text: size, moves with times, program names and error code. The rest of
/// the [`Record`] is left at its defaults.
pub fn parse(text: &str) -> Result<Record, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text
        .split('\n')
        .map(|l| l.trim_end_matches('\r').trim())
        .enumerate()
        .filter(|(_, l)| !l.is_empty());
    let (_, header) = lines.next().ok_or("empty .psq file")?;
    let (width, height) = parse_header(header)?;
    let mut r = Record {
        width,
        height,
        ..Record::default()
    };
    let mut tail = Vec::new();
    for (n, line) in lines {
        if !tail.is_empty() {
            tail.push(line);
            continue;
        }
        match parse_move_line(line) {
            Some(Ok((x, y, ms))) => {
                if x < 1 || y < 1 || x > width as i64 || y > height as i64 {
                    return Err(format!(
                        "line {}: move {x},{y} is off the {width}x{height} board \
                         (coordinates start at 1)",
                        n + 1
                    ));
                }
                r.moves.push((Pos::new(x as usize - 1, y as usize - 1), ms));
            }
            Some(Err(e)) => return Err(format!("line {}: {e}", n + 1)),
            None => tail.push(line),
        }
    }
    check_moves(width, height, &r.moves)?;
    // The trailer: program names, then the error code (either may be missing).
    if let Some(code) = tail.last().and_then(|l| l.parse::<i32>().ok()) {
        r.psq_code = Some(code);
        tail.pop();
    }
    for (slot, name) in r.programs.iter_mut().zip(tail) {
        *slot = name.to_string();
    }
    Ok(r)
}

/// `Piskvorky WxH, ...` → (W, H).
fn parse_header(line: &str) -> Result<(usize, usize), String> {
    let rest = line
        .get(..9)
        .filter(|p| p.eq_ignore_ascii_case("piskvorky"))
        .map(|_| &line[9..])
        .ok_or_else(|| format!("not a .psq header: {line:?}"))?;
    let size = rest.split(',').next().unwrap_or("").trim();
    let (w, h) = size
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("the .psq header gives no board size WxH: {line:?}"))?;
    match (w.trim().parse::<usize>(), h.trim().parse::<usize>()) {
        (Ok(w), Ok(h)) => Ok((w, h)),
        _ => Err(format!("bad board size in the .psq header: {line:?}")),
    }
}

/// A move line `x,y,ms` or `x,y`: None when the line is not made of integers at all (the
/// trailer has begun), an error for a line of integers that is no move.
fn parse_move_line(line: &str) -> Option<Result<(i64, i64, u64), String>> {
    let fields: Vec<&str> = line.split(',').map(str::trim).collect();
    let nums: Vec<i64> = fields
        .iter()
        .map(|f| f.parse::<i64>().ok())
        .collect::<Option<_>>()?;
    match nums.as_slice() {
        [_] => None,
        &[x, y] => Some(Ok((x, y, 0))),
        // A negative time (some managers write -1 for "unknown") counts as 0.
        &[x, y, ms] => Some(Ok((x, y, ms.max(0) as u64))),
        _ => Some(Err(format!("not a move line x,y,ms: {line:?}"))),
    }
}

/// Read a `.psq` file; when its name is one [`file_name`] writes, the game number, the
/// (sanitised) player names and the result are taken from it.
pub fn read(path: &Path) -> Result<Record, String> {
    let text =
        fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut r = parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if let Some((id, black, white, result)) = parse_file_name(name) {
        r.id = id;
        r.names = [black, white];
        r.result = Some(result);
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Color;

    fn sample(width: usize, height: usize) -> Record {
        Record {
            id: 7,
            width,
            height,
            names: ["Black One".into(), "W/2".into()],
            programs: ["pbrain-a".into(), "pbrain-b.exe".into()],
            moves: vec![
                (Pos::new(width / 2, height / 2), 0),
                (Pos::new(0, 0), 12),
                (Pos::new(width - 1, height - 1), 3400),
            ],
            result: Some(Outcome::Win(Color::White)),
            psq_code: Some(15),
            ..Record::default()
        }
    }

    #[test]
    fn writes_the_piskvork_layout() {
        let r = sample(15, 15);
        assert_eq!(
            text(&r),
            "Piskvorky 15x15, 11:11, 0\n8,8,0\n1,1,12\n15,15,3400\npbrain-a\npbrain-b.exe\n15\n"
        );
        assert_eq!(file_name(&r), "00007_Black-One_W-2_2.psq");
        assert_eq!(sanitize("Rensa 0.1/x"), "Rensa-0.1-x");
    }

    #[test]
    fn round_trips_square_and_rectangular_boards() {
        for (w, h) in [(15, 15), (20, 7), (7, 32)] {
            let r = sample(w, h);
            let back = parse(&text(&r)).unwrap();
            assert_eq!((back.width, back.height), (w, h));
            assert_eq!(back.moves, r.moves);
            assert_eq!(back.programs, r.programs);
            assert_eq!(back.psq_code, Some(15));
            assert_eq!(back.result, None);
            let (id, b, wh, res) = parse_file_name(&file_name(&r)).unwrap();
            assert_eq!(
                (id, b.as_str(), wh.as_str(), res),
                (7, "Black-One", "W-2", r.result.unwrap())
            );
        }
        for result in [Outcome::Draw, Outcome::Win(Color::Black)] {
            let r = Record {
                result: Some(result),
                ..sample(15, 15)
            };
            assert_eq!(parse_file_name(&file_name(&r)).unwrap().3, result);
        }
    }

    #[test]
    fn reads_real_world_variants() {
        // CR LF, a byte-order mark, x,y without time, no trailer at all.
        let r = parse("\u{feff}Piskvorky 20x20, 11:11, 0\r\n10,10\r\n11,11,5\r\n").unwrap();
        assert_eq!((r.width, r.height), (20, 20));
        assert_eq!(r.moves, [(Pos::new(9, 9), 0), (Pos::new(10, 10), 5)]);
        assert_eq!(r.programs, [String::new(), String::new()]);
        assert_eq!(r.psq_code, None);
        // Program names but no error code; spaces around fields; a -1 time.
        let r = parse("piskvorky 15x10,0:0,1\n 1 , 2 , -1 \nA.exe\nB.exe\n").unwrap();
        assert_eq!((r.width, r.height), (15, 10));
        assert_eq!(r.moves, [(Pos::new(0, 1), 0)]);
        assert_eq!(r.programs, ["A.exe".to_string(), "B.exe".to_string()]);
        assert_eq!(r.psq_code, None);
        // Only an error code after the moves; an empty game.
        let r = parse("Piskvorky 15x15, 11:11, 0\n-1\n").unwrap();
        assert!(r.moves.is_empty());
        assert_eq!(r.psq_code, Some(-1));
    }

    #[test]
    fn malformed_files_are_errors() {
        for (text, why) in [
            ("", "empty"),
            ("\r\n\n", "empty"),
            ("Gomoku 15x15\n", "header"),
            ("Piskvorky, 11:11, 0\n8,8,0\n", "size"),
            ("Piskvorky 15, 11:11, 0\n", "size"),
            ("Piskvorky axb, 0\n", "size"),
            ("Piskvorky 40x40, 11:11, 0\n", "unsupported"),
            ("Piskvorky 15x15, 11:11, 0\n16,1,0\n", "off"),
            ("Piskvorky 15x15, 11:11, 0\n0,1,0\n", "off"),
            ("Piskvorky 15x15, 11:11, 0\n1,1,0\n1,1,0\n", "occupied"),
            ("Piskvorky 15x15, 11:11, 0\n1,1,0,4\n", "not a move"),
            ("Piskvork", "header"),
            ("Piskvorky 99999999999999999999x1\n", "size"),
        ] {
            let e = parse(text).unwrap_err();
            assert!(e.contains(why), "{text:?}: {e}");
        }
    }

    #[test]
    fn reads_files_and_their_names() {
        let dir = std::env::temp_dir().join(format!("rensa-psq-test-{}", std::process::id()));
        let w = PsqWriter::new(&dir).unwrap();
        let r = sample(15, 15);
        let path = w.write(&r).unwrap();
        let back = read(&path).unwrap();
        assert_eq!(back.id, 7);
        assert_eq!(back.names, ["Black-One".to_string(), "W-2".to_string()]);
        assert_eq!(back.result, r.result);
        assert_eq!(back.moves, r.moves);
        assert!(read(&dir.join("missing.psq")).is_err());
        let _ = fs::remove_dir_all(dir);
    }
}
