//! Opening files and the order in which openings are played.
//!
//! The lines are in the offset or pos format of [`rensa::records::openings`], one opening
//! per line (Black's move first).
//!
//! Openings are placed on the match board and checked by the referee; those that do not
//! fit (off the board, overlapping, already won, or a Renju foul) are skipped with a
//! warning. Optional symmetry transforms give each pass through the file a new orientation.

use crate::referee::Referee;
use crate::rng::Rng;
use rensa::records::openings::{detect_format, offsets_to_squares, parse_line, OpeningFormat};
use rensa::rules::Rule;
use std::path::Path;

/// One opening as read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// 1-based line number in the file.
    pub line: usize,
    /// The line's text.
    pub text: String,
    /// Format the moves are in.
    pub format: OpeningFormat,
    /// Offsets (offset format) or absolute 0-based coordinates (pos format).
    pub moves: Vec<(i64, i64)>,
}

impl Opening {
    /// Absolute coordinates on a `width` x `height` board, before any transform.
    pub fn absolute(&self, width: usize, height: usize) -> Vec<(i64, i64)> {
        match self.format {
            OpeningFormat::Pos => self.moves.clone(),
            OpeningFormat::Offset => offsets_to_squares(&self.moves, width, height),
        }
    }
}

/// Openings read from a file, and the lines that could not be parsed (line number, why).
pub type ParsedOpenings = (Vec<Opening>, Vec<(usize, String)>);

/// Read an opening file. Lines that cannot be parsed are returned separately.
pub fn read_file(path: &Path, format: Option<OpeningFormat>) -> Result<ParsedOpenings, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(parse_text(&text, format))
}

/// Parse the text of an opening file (format None = detect per line).
pub fn parse_text(text: &str, format: Option<OpeningFormat>) -> ParsedOpenings {
    let mut openings = Vec::new();
    let mut bad = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let f = format.unwrap_or_else(|| detect_format(raw));
        match parse_line(raw, f) {
            Ok(Some(moves)) => openings.push(Opening {
                line: i + 1,
                text: raw.trim().to_string(),
                format: f,
                moves,
            }),
            Ok(None) => {}
            Err(e) => bad.push((i + 1, e)),
        }
    }
    (openings, bad)
}

/// The symmetries that map a `width` x `height` board onto itself: all 8 on a square
/// board, the 4 that keep the axes on a rectangular one. Numbered 0 (identity) upward.
pub fn transform_count(width: usize, height: usize) -> usize {
    if width == height {
        8
    } else {
        4
    }
}

/// Apply symmetry `t` to a square on a `width` x `height` board. On square boards 0-3 are
/// identity, mirror x, mirror y, rotate 180 and 4-7 the same after a transposition.
pub fn transform(t: usize, (x, y): (i64, i64), width: usize, height: usize) -> (i64, i64) {
    let (w, h) = (width as i64 - 1, height as i64 - 1);
    let (x, y) = if t >= 4 { (y, x) } else { (x, y) };
    match t % 4 {
        0 => (x, y),
        1 => (w - x, y),
        2 => (x, h - y),
        _ => (w - x, h - y),
    }
}

/// Openings that fit the board, with a play order.
#[derive(Clone, Debug)]
pub struct OpeningBook {
    openings: Vec<(Opening, Vec<(i64, i64)>)>,
    order: Vec<usize>,
    transforms: usize,
    width: usize,
    height: usize,
    /// Openings skipped: line number, text and reason.
    pub skipped: Vec<(usize, String, String)>,
}

/// The placement of one opening for one game (pair).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlacedOpening {
    /// Line number in the file.
    pub line: usize,
    /// The line's text.
    pub text: String,
    /// Symmetry applied.
    pub transform: usize,
    /// Absolute stones, Black first.
    pub stones: Vec<(i64, i64)>,
}

impl OpeningBook {
    /// Keep the openings that fit a `width` x `height` board under `rule`; shuffle them
    /// with `seed` when `random`; cycle through transforms when `transform`.
    pub fn new(
        openings: Vec<Opening>,
        width: usize,
        height: usize,
        rule: Rule,
        random: bool,
        seed: u64,
        transform: bool,
    ) -> OpeningBook {
        let mut kept = Vec::new();
        let mut skipped = Vec::new();
        for o in openings {
            let stones = o.absolute(width, height);
            let mut referee = Referee::new(width, height, rule).expect("valid board size");
            match referee.play_opening(&stones) {
                Ok(()) if referee.is_full() => {
                    skipped.push((o.line, o.text.clone(), "fills the board".to_string()))
                }
                Ok(()) => kept.push((o, stones)),
                Err(e) => skipped.push((o.line, o.text.clone(), e)),
            }
        }
        let mut order: Vec<usize> = (0..kept.len()).collect();
        if random {
            Rng::new(seed).shuffle(&mut order);
        }
        OpeningBook {
            openings: kept,
            order,
            transforms: if transform {
                transform_count(width, height)
            } else {
                1
            },
            width,
            height,
            skipped,
        }
    }

    /// Number of usable openings.
    pub fn len(&self) -> usize {
        self.openings.len()
    }

    /// True when no opening fits.
    pub fn is_empty(&self) -> bool {
        self.openings.is_empty()
    }

    /// The opening for the `k`-th game pair: the order is walked cyclically and each full
    /// pass uses the next symmetry.
    pub fn get(&self, k: usize) -> Option<PlacedOpening> {
        if self.openings.is_empty() {
            return None;
        }
        let n = self.openings.len();
        let (o, stones) = &self.openings[self.order[k % n]];
        let t = (k / n) % self.transforms;
        Some(PlacedOpening {
            line: o.line,
            text: o.text.clone(),
            transform: t,
            stones: stones
                .iter()
                .map(|&p| transform(t, p, self.width, self.height))
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_formats() {
        let (o, bad) = parse_text("0,0, 1,0, 1,3\n\n# c\nh8i9j10\nx,y\n", None);
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].moves, [(0, 0), (1, 0), (1, 3)]);
        assert_eq!(o[0].absolute(15, 15), [(7, 7), (8, 7), (8, 10)]);
        assert_eq!(o[0].absolute(20, 20), [(10, 10), (11, 10), (11, 13)]);
        assert_eq!(o[1].moves, [(7, 7), (8, 8), (9, 9)]);
        assert_eq!(o[1].line, 4);
        assert_eq!(bad.len(), 1);
        assert_eq!(bad[0].0, 5);
    }

    #[test]
    fn reads_the_shared_opening_files() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/testdata/openings");
        if !dir.exists() {
            assert!(
                std::env::var_os("RENSA_REQUIRE_TESTDATA").is_none(),
                "{} missing and RENSA_REQUIRE_TESTDATA is set",
                dir.display()
            );
            eprintln!("shared openings not found, skipped");
            return;
        }
        let (o, bad) = read_file(&dir.join("piskvork-openings.txt"), None).unwrap();
        assert_eq!((o.len(), bad.len()), (41, 0));
        let book = OpeningBook::new(o.clone(), 15, 15, Rule::Freestyle, false, 0, false);
        assert_eq!((book.len(), book.skipped.len()), (40, 1));
        let book = OpeningBook::new(o, 20, 20, Rule::Freestyle, false, 0, false);
        assert_eq!(book.len(), 41);
        let (o, bad) = read_file(
            &dir.join("pos_freestyle_20x20.txt"),
            Some(OpeningFormat::Pos),
        )
        .unwrap();
        assert_eq!((o.len(), bad.len()), (4, 0));
        assert_eq!(o[0].moves[0], (3, 2));
        let (o, _) = read_file(
            &dir.join("offset_freestyle_20x20.txt"),
            Some(OpeningFormat::Offset),
        )
        .unwrap();
        assert_eq!(o.len(), 4);
        assert_eq!(o[0].absolute(20, 20)[0], (18, 7));
    }

    #[test]
    fn transforms_are_symmetries() {
        for (w, h) in [(15, 15), (20, 15)] {
            let n = transform_count(w, h);
            let mut images = std::collections::HashSet::new();
            for t in 0..n {
                let p = transform(t, (1, 3), w, h);
                assert!(p.0 >= 0 && p.1 >= 0 && p.0 < w as i64 && p.1 < h as i64);
                images.insert(p);
                // Every transform is a bijection of the board.
                let all: std::collections::HashSet<_> = (0..w as i64)
                    .flat_map(|x| (0..h as i64).map(move |y| (x, y)))
                    .map(|p| transform(t, p, w, h))
                    .collect();
                assert_eq!(all.len(), w * h);
            }
            assert_eq!(images.len(), n);
        }
    }

    #[test]
    fn book_skips_misfits_and_cycles_with_transforms() {
        let (o, _) = parse_text("0,0, 1,0\n0,0, 0,0\n9,9\n0,0, 1,1, -1,-1\n", None);
        let book = OpeningBook::new(o, 15, 15, Rule::Freestyle, false, 1, true);
        assert_eq!(book.len(), 2);
        assert_eq!(book.skipped.len(), 2);
        let a = book.get(0).unwrap();
        let b = book.get(1).unwrap();
        assert_eq!((a.line, a.transform), (1, 0));
        assert_eq!((b.line, b.transform), (4, 0));
        let c = book.get(2).unwrap();
        assert_eq!((c.line, c.transform), (1, 1));
        assert_eq!(c.stones, [(7, 7), (6, 7)]);
        assert_eq!(book.get(16).unwrap().transform, 0);
        // Random order is a reproducible permutation.
        let text: String = (1..=6).map(|k| format!("0,0, {k},1\n")).collect();
        let (o, _) = parse_text(&text, None);
        let r1 = OpeningBook::new(o.clone(), 15, 15, Rule::Freestyle, true, 5, false);
        let r2 = OpeningBook::new(o, 15, 15, Rule::Freestyle, true, 5, false);
        let lines1: Vec<usize> = (0..6).map(|k| r1.get(k).unwrap().line).collect();
        let lines2: Vec<usize> = (0..6).map(|k| r2.get(k).unwrap().line).collect();
        assert_eq!(lines1, lines2);
        let mut sorted = lines1.clone();
        sorted.sort();
        assert_eq!(sorted, [1, 2, 3, 4, 5, 6]);
    }
}
