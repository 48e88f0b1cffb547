//! The positions `analyse` reads: a move list in c-gomoku-cli's `pos` format (`h8i9j10`), a
//! Piskvork `.psq` record, or a Gomocup `BOARD` … `DONE` block, each with a rule and (but
//! for `.psq`, which says) a board size.
//!
//! Moves lists and records alternate colours from Black. A `BOARD` block gives the side
//! to move's stones as field 1 and the opponent's as 2 (3: a blocked square), in move
//! order; the colours follow the Gomocup convention of [`Game::set_stones`]. Every reader
//! returns an error message on bad input and never panics.

use crate::board::{Board, Cell, Color, Pos};
use crate::engine::game::{Field, Game};
use crate::position::Position;
use crate::protocol::parse::{Command, CommandParser};
use crate::records::openings::{parse_line, OpeningFormat};
use crate::records::{psq, Record};
use crate::rules::Rule;
use std::io::BufRead;
use std::path::Path;

/// The board size `analyse` uses when told none.
pub const DEFAULT_SIZE: (usize, usize) = (15, 15);

/// Rule codes `analyse` accepts (the Gomocup `INFO rule` values of the five rules).
pub const RULE_CODES: [u32; 5] = [0, 1, 4, 8, 9];

/// The rule of a Gomocup rule code among [`RULE_CODES`].
pub fn rule_from_code(code: u32) -> Result<Rule, String> {
    Rule::ALL
        .into_iter()
        .find(|r| r.code() == code)
        .ok_or_else(|| format!("unknown rule {code} (expected one of 0, 1, 4, 8, 9)"))
}

/// A board size written `N` (square) or `WxH`, checked against the supported sizes.
pub fn parse_size(text: &str) -> Result<(usize, usize), String> {
    let t = text.trim();
    let (w, h) = t.split_once(['x', 'X']).unwrap_or((t, t));
    let size = w.trim().parse::<usize>().ok().zip(h.trim().parse().ok());
    let (w, h) = size.ok_or_else(|| format!("bad board size {t:?} (expected N or WxH)"))?;
    if !Board::size_supported(w, h) {
        return Err(format!("unsupported board size {w}x{h} (5 to 32 per side)"));
    }
    Ok((w, h))
}

/// The position after `moves` (0-based (x, y), Black first) on a `width` x `height` board.
/// Errors name the first move that is off the board or on an occupied square.
pub fn position_from_moves(
    width: usize,
    height: usize,
    rule: Rule,
    moves: &[(i64, i64)],
) -> Result<Position, String> {
    let mut position = Position::new(width, height, rule).map_err(|e| e.0)?;
    for (i, &(x, y)) in moves.iter().enumerate() {
        let pos = isize::try_from(x)
            .ok()
            .zip(isize::try_from(y).ok())
            .and_then(|(x, y)| position.board().pos_at(x, y))
            .ok_or_else(|| {
                format!(
                    "move {} ({}) is off the {width}x{height} board",
                    i + 1,
                    spelling(x, y)
                )
            })?;
        if !position.board().is_empty(pos) {
            return Err(format!(
                "move {} ({}) is on an occupied square",
                i + 1,
                spelling(x, y)
            ));
        }
        position.play(pos);
    }
    Ok(position)
}

/// A move as the pos format spells it where it can (`h8`), else as `x,y`.
fn spelling(x: i64, y: i64) -> String {
    if (0..26).contains(&x) && y >= 0 {
        format!("{}{}", char::from(b'a' + x as u8), y + 1)
    } else {
        format!("{x},{y}")
    }
}

/// The position after a move list in pos format (`h8i9j10`; letter = x from `a`, number =
/// y from 1 counted from the top), Black first.
pub fn from_pos(text: &str, width: usize, height: usize, rule: Rule) -> Result<Position, String> {
    if text.trim().starts_with('#') {
        return Err(format!("not a pos move list: {:?}", text.trim()));
    }
    let moves = parse_line(text, OpeningFormat::Pos)?.unwrap_or_default();
    position_from_moves(width, height, rule, &moves)
}

/// The position at the end of a `.psq` record (its own board size), Black first.
pub fn from_record(record: &Record, rule: Rule) -> Result<Position, String> {
    let moves: Vec<(i64, i64)> = record
        .moves
        .iter()
        .map(|(p, _)| (p.x() as i64, p.y() as i64))
        .collect();
    position_from_moves(record.width, record.height, rule, &moves)
}

/// The position at the end of the `.psq` file at `path`.
pub fn from_psq_file(path: &Path, rule: Rule) -> Result<Position, String> {
    from_record(&psq::read(path)?, rule)
}

/// The position of the first `BOARD` (or `YXBOARD`) block read from `input`, lines before it
/// skipped. The side to move owns the field-1 stones; see [`Game::set_stones`].
pub fn from_board_block(
    input: &mut dyn BufRead,
    width: usize,
    height: usize,
    rule: Rule,
) -> Result<Position, String> {
    let mut parser = CommandParser::new();
    let mut line = String::new();
    let stones = loop {
        line.clear();
        let read = input
            .read_line(&mut line)
            .map_err(|e| format!("cannot read the BOARD block: {e}"))?;
        if read == 0 {
            return Err(if parser.in_block() {
                "the BOARD block ends without DONE".to_string()
            } else {
                "no BOARD block on standard input (or give --pos or --psq)".to_string()
            });
        }
        match parser.feed(&line) {
            Some(Command::Board { stones, .. }) => break stones,
            Some(Command::Malformed(reason)) => return Err(format!("bad BOARD block: {reason}")),
            _ => {}
        }
    };
    let mut game = Game::new();
    game.set_rule(rule);
    game.new_game(width as i64, height as i64)?;
    let mut placed = Vec::with_capacity(stones.len());
    for s in &stones {
        let pos = game
            .on_board(s.at.x, s.at.y)
            .map_err(|e| format!("stone {},{}: {e}", s.at.x, s.at.y))?;
        let field = match s.field {
            1 => Field::Own,
            2 => Field::Opponent,
            _ => Field::Blocked,
        };
        placed.push((pos, field));
    }
    game.set_stones(&placed)?;
    for note in game.take_notes() {
        log::warn!("{note}");
    }
    Ok(game.position().clone())
}

/// The stones of `position` in move order with their colours, for the move numbers of the
/// board pictures.
pub fn numbered_stones(position: &Position) -> Vec<(Pos, Color)> {
    position
        .history()
        .iter()
        .filter_map(|&p| match position.board().cell(p) {
            Cell::Stone(c) => Some((p, c)),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn a_pos_list_alternates_from_black() {
        let p = from_pos("h8i9j10", 15, 15, Rule::Freestyle).unwrap();
        let b = p.board();
        assert_eq!(b.cell(Pos::new(7, 7)), Cell::Stone(Color::Black));
        assert_eq!(b.cell(Pos::new(8, 8)), Cell::Stone(Color::White));
        assert_eq!(b.cell(Pos::new(9, 9)), Cell::Stone(Color::Black));
        assert_eq!(p.to_move(), Color::White);
        assert_eq!(p.history().len(), 3);
        let empty = from_pos("", 15, 15, Rule::Freestyle).unwrap();
        assert_eq!(empty.to_move(), Color::Black);
    }

    #[test]
    fn bad_pos_lists_are_refused() {
        let err = |t: &str| from_pos(t, 15, 15, Rule::Freestyle).unwrap_err();
        assert!(err("h8h8").contains("occupied"), "{}", err("h8h8"));
        assert!(
            err("h8z1").contains("off the 15x15 board"),
            "{}",
            err("h8z1")
        );
        assert!(err("h8i16").contains("off the 15x15"), "{}", err("h8i16"));
        assert!(err("h8i").contains("row number"), "{}", err("h8i"));
        assert!(err("h8-9").contains("not a pos"), "{}", err("h8-9"));
        assert!(err("h0").contains("start at 1"), "{}", err("h0"));
        assert!(err("# h8").contains("not a pos"));
    }

    #[test]
    fn sizes_and_rules_are_checked() {
        assert_eq!(parse_size("15").unwrap(), (15, 15));
        assert_eq!(parse_size("20x12").unwrap(), (20, 12));
        assert!(parse_size("40").unwrap_err().contains("unsupported"));
        assert!(parse_size("4x15").unwrap_err().contains("unsupported"));
        assert!(parse_size("big").unwrap_err().contains("bad board size"));
        assert_eq!(rule_from_code(4).unwrap(), Rule::Renju);
        assert_eq!(rule_from_code(9).unwrap(), Rule::CaroExact);
        assert!(rule_from_code(3).is_err());
    }

    #[test]
    fn a_psq_record_gives_its_size_and_moves() {
        let record =
            psq::parse("Piskvorky 20x20, 11:11, 0\n10,10,0\n11,11,5\n9,12,0\n-1\n").unwrap();
        let p = from_record(&record, Rule::Standard).unwrap();
        assert_eq!((p.board().width(), p.board().height()), (20, 20));
        assert_eq!(p.board().cell(Pos::new(9, 9)), Cell::Stone(Color::Black));
        assert_eq!(p.board().cell(Pos::new(8, 11)), Cell::Stone(Color::Black));
        assert_eq!(p.to_move(), Color::White);
        assert!(
            from_psq_file(Path::new("/nonexistent/x.psq"), Rule::Freestyle)
                .unwrap_err()
                .contains("cannot read")
        );
    }

    #[test]
    fn a_board_block_puts_its_own_stones_to_move() {
        // Opponent first, then own, then opponent: the side to move (own) is Black.
        let text = "BOARD\n7,7,2\n8,8,1\n9,9,2\n10,10,1\n3,3,3\nDONE\n";
        let p = from_board_block(&mut Cursor::new(text), 15, 15, Rule::Freestyle).unwrap();
        assert_eq!(p.to_move(), Color::Black);
        assert_eq!(p.board().cell(Pos::new(7, 7)), Cell::Stone(Color::White));
        assert_eq!(p.board().cell(Pos::new(8, 8)), Cell::Stone(Color::Black));
        assert_eq!(p.board().cell(Pos::new(3, 3)), Cell::Blocked);
        assert_eq!(
            p.history(),
            &[
                Pos::new(7, 7),
                Pos::new(8, 8),
                Pos::new(9, 9),
                Pos::new(10, 10)
            ]
        );
        // One stone more for the opponent: the side to move is White.
        let text = "BOARD\n7,7,2\n8,8,1\n9,9,2\nDONE\n";
        let p = from_board_block(&mut Cursor::new(text), 15, 15, Rule::Freestyle).unwrap();
        assert_eq!(p.to_move(), Color::White);
        assert_eq!(p.board().cell(Pos::new(7, 7)), Cell::Stone(Color::Black));
    }

    #[test]
    fn bad_board_blocks_are_refused() {
        let err =
            |t: &str| from_board_block(&mut Cursor::new(t), 15, 15, Rule::Freestyle).unwrap_err();
        assert!(err("").contains("no BOARD block"));
        assert!(err("BOARD\n7,7,1\n").contains("without DONE"));
        assert!(err("BOARD\n15,7,1\nDONE\n").contains("off the 15x15"));
        assert!(err("BOARD\n7,7,1\n7,7,2\nDONE\n").contains("duplicate"));
        assert!(err("BOARD\n7,7,5\nDONE\n").contains("bad BOARD"));
    }
}
