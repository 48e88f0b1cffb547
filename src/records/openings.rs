//! Opening lines, one opening per line with Black's stone first, in the two formats
//! opening files use:
//! - "offset": `dx,dy, dx,dy, ...`, offsets from the centre `(floor(w/2), floor(h/2))`, as in
//!   Piskvork, GomocupJudge and c-gomoku-cli;
//! - "pos": `h8i9j10`, a letter for x (from `a`) and a number for y (from 1), no separators.
//!
//! This module only reads and writes the lines; which openings a match plays, in what
//! order and orientation, is the match runner's business.

/// The format of an opening line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningFormat {
    /// `dx,dy, dx,dy` offsets from the centre.
    Offset,
    /// `h8i9` letters and numbers.
    Pos,
}

impl OpeningFormat {
    /// Parse `offset` or `pos`.
    pub fn parse(s: &str) -> Result<OpeningFormat, String> {
        match s {
            "offset" => Ok(OpeningFormat::Offset),
            "pos" => Ok(OpeningFormat::Pos),
            _ => Err(format!("opening type must be offset or pos, got {s:?}")),
        }
    }
}

/// Parse one line in the given format: offsets (offset format) or absolute 0-based
/// coordinates (pos format). Empty lines and `#` comments give `Ok(None)`.
pub fn parse_line(text: &str, format: OpeningFormat) -> Result<Option<Vec<(i64, i64)>>, String> {
    let t = text.trim();
    if t.is_empty() || t.starts_with('#') {
        return Ok(None);
    }
    match format {
        OpeningFormat::Offset => {
            let nums: Result<Vec<i64>, _> = t
                .split(',')
                .map(|s| s.trim())
                .filter(|s| !s.is_empty())
                .map(|s| s.parse::<i64>())
                .collect();
            let nums = nums.map_err(|_| format!("not an offset opening: {t:?}"))?;
            if nums.len() % 2 != 0 || nums.is_empty() {
                return Err(format!("odd number of coordinates: {t:?}"));
            }
            Ok(Some(nums.chunks(2).map(|c| (c[0], c[1])).collect()))
        }
        OpeningFormat::Pos => {
            let mut moves = Vec::new();
            let bytes = t.as_bytes();
            let mut i = 0;
            while i < bytes.len() {
                let c = bytes[i].to_ascii_lowercase();
                if !c.is_ascii_lowercase() {
                    return Err(format!("not a pos opening: {t:?}"));
                }
                i += 1;
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                let n: i64 = t[start..i]
                    .parse()
                    .map_err(|_| format!("missing row number in {t:?}"))?;
                if n < 1 {
                    return Err(format!("row numbers start at 1 in {t:?}"));
                }
                moves.push((i64::from(c - b'a'), n - 1));
            }
            Ok(Some(moves))
        }
    }
}

/// Write moves as one line: offsets as `dx,dy, dx,dy` (offset format), absolute 0-based
/// coordinates as `h8i9` (pos format; columns beyond `z` and negative coordinates have
/// no pos spelling and are an error).
pub fn format_line(moves: &[(i64, i64)], format: OpeningFormat) -> Result<String, String> {
    let mut parts = Vec::with_capacity(moves.len());
    for &(x, y) in moves {
        parts.push(match format {
            OpeningFormat::Offset => format!("{x},{y}"),
            OpeningFormat::Pos => {
                if !(0..26).contains(&x) || y < 0 {
                    return Err(format!("{x},{y} has no pos spelling"));
                }
                format!("{}{}", (b'a' + x as u8) as char, y + 1)
            }
        });
    }
    Ok(parts.join(match format {
        OpeningFormat::Offset => ", ",
        OpeningFormat::Pos => "",
    }))
}

/// Guess a line's format: a comma means offset.
pub fn detect_format(text: &str) -> OpeningFormat {
    if text.contains(',') {
        OpeningFormat::Offset
    } else {
        OpeningFormat::Pos
    }
}

/// The centre offsets are measured from on a `width` x `height` board.
pub fn centre(width: usize, height: usize) -> (i64, i64) {
    ((width / 2) as i64, (height / 2) as i64)
}

/// Absolute coordinates of offsets on a `width` x `height` board.
pub fn offsets_to_squares(moves: &[(i64, i64)], width: usize, height: usize) -> Vec<(i64, i64)> {
    let (cx, cy) = centre(width, height);
    moves.iter().map(|&(dx, dy)| (cx + dx, cy + dy)).collect()
}

/// Offsets from the centre of absolute coordinates on a `width` x `height` board.
pub fn squares_to_offsets(moves: &[(i64, i64)], width: usize, height: usize) -> Vec<(i64, i64)> {
    let (cx, cy) = centre(width, height);
    moves.iter().map(|&(x, y)| (x - cx, y - cy)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_formats() {
        assert_eq!(
            parse_line(" 0,0, 1,0, 1,3 ", OpeningFormat::Offset).unwrap(),
            Some(vec![(0, 0), (1, 0), (1, 3)])
        );
        assert_eq!(
            parse_line("h8I9j10", OpeningFormat::Pos).unwrap(),
            Some(vec![(7, 7), (8, 8), (9, 9)])
        );
        assert_eq!(parse_line("# c", OpeningFormat::Pos).unwrap(), None);
        assert_eq!(parse_line("", OpeningFormat::Offset).unwrap(), None);
        for bad in ["1,2,3", "x,y", "1.5,2"] {
            assert!(parse_line(bad, OpeningFormat::Offset).is_err(), "{bad}");
        }
        for bad in ["h", "h0", "8h", "h8,", "é1", "h99999999999999999999"] {
            assert!(parse_line(bad, OpeningFormat::Pos).is_err(), "{bad}");
        }
        assert_eq!(detect_format("0,0"), OpeningFormat::Offset);
        assert_eq!(detect_format("h8"), OpeningFormat::Pos);
        assert_eq!(OpeningFormat::parse("pos"), Ok(OpeningFormat::Pos));
        assert!(OpeningFormat::parse("x").is_err());
    }

    #[test]
    fn lines_round_trip() {
        let offsets = vec![(0, 0), (1, 0), (-1, 3), (-7, -7)];
        let line = format_line(&offsets, OpeningFormat::Offset).unwrap();
        assert_eq!(line, "0,0, 1,0, -1,3, -7,-7");
        assert_eq!(
            parse_line(&line, OpeningFormat::Offset).unwrap(),
            Some(offsets.clone())
        );
        for (w, h) in [(15, 15), (20, 20), (20, 15), (15, 20)] {
            let squares = offsets_to_squares(&offsets, w, h);
            assert_eq!(squares_to_offsets(&squares, w, h), offsets);
            let pos = format_line(&squares, OpeningFormat::Pos).unwrap();
            assert_eq!(parse_line(&pos, OpeningFormat::Pos).unwrap(), Some(squares));
        }
        assert_eq!(offsets_to_squares(&[(0, 0)], 20, 15), [(10, 7)]);
        assert_eq!(
            format_line(&[(7, 7), (8, 8), (9, 9)], OpeningFormat::Pos).unwrap(),
            "h8i9j10"
        );
        assert!(format_line(&[(26, 0)], OpeningFormat::Pos).is_err());
        assert!(format_line(&[(0, -1)], OpeningFormat::Pos).is_err());
    }
}
