//! Game records through the page: the game as a Piskvork `.psq` file or an SGF record
//! for the browser to download, and the moves of a `.psq` file, an SGF record or a pos
//! move list (`h8i9j10`) the user uploads or pastes. The server never opens a file
//! itself: records come and go as request and response bodies.

use super::state::{Side, State};
use super::ApiError;
use crate::board::Pos;
use crate::records::openings::{parse_line, OpeningFormat};
use crate::records::{date_text, psq, sgf, Outcome, Record};
use crate::rules::Rule;
use std::time::SystemTime;

/// The formats a record may come in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Piskvork `.psq`.
    Psq,
    /// SGF (the first game of a collection).
    Sgf,
    /// A pos move list, `h8i9j10`, on the current board size.
    Pos,
}

impl Format {
    /// The format named `psq`, `sgf` or `pos`.
    pub fn named(name: &str) -> Option<Format> {
        match name.to_ascii_lowercase().as_str() {
            "psq" => Some(Format::Psq),
            "sgf" => Some(Format::Sgf),
            "pos" => Some(Format::Pos),
            _ => None,
        }
    }

    /// The format a text seems to be in: `(` starts SGF, `Piskvorky` a `.psq` file,
    /// anything else is a move list.
    pub fn guess(text: &str) -> Format {
        let t = text.trim_start_matches('\u{feff}').trim_start();
        if t.starts_with('(') {
            Format::Sgf
        } else if t.len() >= 9 && t[..9].eq_ignore_ascii_case("piskvorky") {
            Format::Psq
        } else {
            Format::Pos
        }
    }
}

/// The moves a record holds: board size, rule (if the record says) and the moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// The rule, where the record gives one.
    pub rule: Option<Rule>,
    /// The moves, Black first.
    pub moves: Vec<Pos>,
}

/// Read `text` in `format`; a move list is read on a `width` x `height` board.
pub fn read(text: &str, format: Format, width: usize, height: usize) -> Result<Loaded, ApiError> {
    let from_record = |r: Record| Loaded {
        width: r.width,
        height: r.height,
        rule: r.rule,
        moves: r.moves.iter().map(|&(p, _)| p).collect(),
    };
    match format {
        Format::Psq => psq::parse(text)
            .map(from_record)
            .map_err(|e| ApiError::bad(format!("not a readable .psq file: {e}"))),
        Format::Sgf => {
            let games =
                sgf::parse(text).map_err(|e| ApiError::bad(format!("not a readable SGF: {e}")))?;
            Ok(from_record(
                games.into_iter().next().expect("parse returns a game"),
            ))
        }
        Format::Pos => {
            let squares = parse_line(text, OpeningFormat::Pos)
                .map_err(|e| ApiError::bad(format!("not a move list like h8i9j10: {e}")))?
                .unwrap_or_default();
            let mut moves = Vec::with_capacity(squares.len());
            for (i, (x, y)) in squares.into_iter().enumerate() {
                let fits = (0..width as i64).contains(&x) && (0..height as i64).contains(&y);
                if !fits {
                    return Err(ApiError::bad(format!(
                        "move {} is off the {width}x{height} board",
                        i + 1
                    )));
                }
                moves.push(Pos::new(x as usize, y as usize));
            }
            Ok(Loaded {
                width,
                height,
                rule: None,
                moves,
            })
        }
    }
}

/// The game as a [`Record`].
fn record(state: &State) -> Record {
    let setup = &state.setup;
    let name = |side: Side| match side {
        Side::Human => "Human".to_string(),
        Side::Engine => state.engine_name.clone(),
    };
    let outcome = state.outcome();
    Record {
        date: date_text(SystemTime::now()),
        width: setup.width,
        height: setup.height,
        rule: Some(setup.rule),
        names: [name(setup.players[0]), name(setup.players[1])],
        programs: [name(setup.players[0]), name(setup.players[1])],
        moves: state.moves().iter().map(|&p| (p, 0)).collect(),
        result: outcome.as_ref().map(|o| Outcome::from_winner(o.winner)),
        psq_code: Some(0),
        reason: outcome
            .map(|o| {
                if o.winner.is_some() {
                    "five"
                } else {
                    "full board"
                }
                .to_string()
            })
            .unwrap_or_default(),
        ..Record::default()
    }
}

/// The game as a file: (text, file name, MIME type).
pub fn write(state: &State, format: Format) -> Result<(String, String, &'static str), ApiError> {
    let r = record(state);
    match format {
        Format::Psq => Ok((psq::text(&r), "rensa-game.psq".into(), "text/plain")),
        Format::Sgf => Ok((
            sgf::game_text(&r, "Rensa"),
            "rensa-game.sgf".into(),
            "application/x-go-sgf",
        )),
        Format::Pos => Err(ApiError::bad(
            "a move list is in the state's \"pos\" field; download psq or sgf",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_guessed_and_read() {
        assert_eq!(Format::guess("(;FF[4]"), Format::Sgf);
        assert_eq!(
            Format::guess("\u{feff}Piskvorky 15x15, 11:11, 0"),
            Format::Psq
        );
        assert_eq!(Format::guess("h8i9"), Format::Pos);
        let l = read("h8i9", Format::Pos, 15, 15).unwrap();
        assert_eq!(l.moves, [Pos::new(7, 7), Pos::new(8, 8)]);
        assert!(read("z8", Format::Pos, 15, 15).is_err());
        assert!(read("h8 x", Format::Pos, 15, 15).is_err());
        let l = read("Piskvorky 20x20, 11:11, 0\n10,10,0\n", Format::Psq, 15, 15).unwrap();
        assert_eq!((l.width, l.moves.len()), (20, 1));
        assert!(read("Piskvorky 99x5\n", Format::Psq, 15, 15).is_err());
        assert!(read("(;B[zz]", Format::Sgf, 15, 15).is_err());
    }
}
