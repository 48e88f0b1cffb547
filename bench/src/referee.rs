//! The referee: the position of one game and the verdict on every move, using Rensa's own
//! rules code (`rensa::rules`) for all rule codes and board sizes.

use rensa::board::{Board, Cell, Color, Pos};
use rensa::rules::{is_winning_move, renju_foul, Foul, Rule};

/// What a move did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The move stands and the game goes on.
    Normal,
    /// The move completed a winning line for the mover.
    Win,
    /// The square is off the board (the move is not played).
    OffBoard,
    /// The square is taken (the move is not played).
    Occupied,
    /// A forbidden Renju move by Black (the move is not played): Black loses.
    Foul(Foul),
}

/// A game position under a rule.
#[derive(Clone, Debug)]
pub struct Referee {
    board: Board,
    rule: Rule,
    moves: Vec<Pos>,
    next: Color,
}

impl Referee {
    /// An empty board of `width` x `height` (5..=32 each).
    pub fn new(width: usize, height: usize, rule: Rule) -> Result<Referee, String> {
        Ok(Referee {
            board: Board::new(width, height).map_err(|e| e.0)?,
            rule,
            moves: Vec::new(),
            next: Color::Black,
        })
    }

    /// A referee for an arbitrary position (for tests and analysis): `next` moves first.
    /// `moves()` then lists only the moves played afterwards.
    pub fn from_position(board: Board, rule: Rule, next: Color) -> Referee {
        Referee {
            board,
            rule,
            moves: Vec::new(),
            next,
        }
    }

    /// The rule.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Moves so far (Black first).
    pub fn moves(&self) -> &[Pos] {
        &self.moves
    }

    /// The colour to move.
    pub fn to_move(&self) -> Color {
        self.next
    }

    /// True when no empty square is left.
    pub fn is_full(&self) -> bool {
        self.board.stone_count() >= self.board.area()
    }

    /// Judge and, unless it is illegal, play a move by the side to move at signed
    /// coordinates as received from an engine.
    pub fn play(&mut self, x: i64, y: i64) -> Verdict {
        let pos = match (isize::try_from(x), isize::try_from(y)) {
            (Ok(x), Ok(y)) => self.board.pos_at(x, y),
            _ => None,
        };
        let Some(pos) = pos else {
            return Verdict::OffBoard;
        };
        if !self.board.is_empty(pos) {
            return Verdict::Occupied;
        }
        let color = self.to_move();
        let wins = is_winning_move(&self.board, pos, color, self.rule);
        if !wins && self.rule.has_fouls_for(color) {
            if let Some(foul) = renju_foul(&mut self.board, pos) {
                return Verdict::Foul(foul);
            }
        }
        self.board.place(pos, Cell::Stone(color));
        self.moves.push(pos);
        self.next = color.opponent();
        if wins {
            Verdict::Win
        } else {
            Verdict::Normal
        }
    }

    /// Set up an opening: every stone must be on the board and empty, and no stone may
    /// win or (for Black under Renju) be forbidden. Returns why it cannot be used.
    pub fn play_opening(&mut self, stones: &[(i64, i64)]) -> Result<(), String> {
        for (i, &(x, y)) in stones.iter().enumerate() {
            let what = match self.play(x, y) {
                Verdict::Normal => continue,
                Verdict::Win => "completes a five",
                Verdict::OffBoard => "is off the board",
                Verdict::Occupied => "is on an occupied square",
                Verdict::Foul(_) => "is a forbidden move for Black",
            };
            return Err(format!("opening move {} ({x},{y}) {what}", i + 1));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play_all(r: &mut Referee, moves: &[(i64, i64)]) -> Verdict {
        let mut last = Verdict::Normal;
        for &(x, y) in moves {
            last = r.play(x, y);
            if last != Verdict::Normal {
                break;
            }
        }
        last
    }

    #[test]
    fn rejects_off_board_and_occupied() {
        let mut r = Referee::new(15, 15, Rule::Freestyle).unwrap();
        assert_eq!(r.play(15, 0), Verdict::OffBoard);
        assert_eq!(r.play(-1, 3), Verdict::OffBoard);
        assert_eq!(r.play(i64::MAX, 3), Verdict::OffBoard);
        assert_eq!(r.play(7, 7), Verdict::Normal);
        assert_eq!(r.play(7, 7), Verdict::Occupied);
        assert_eq!(r.to_move(), Color::White);
        assert_eq!(r.moves().len(), 1);
    }

    #[test]
    fn rectangular_boards_use_width_for_x() {
        let mut r = Referee::new(20, 6, Rule::Freestyle).unwrap();
        assert_eq!(r.play(19, 5), Verdict::Normal);
        assert_eq!(r.play(5, 19), Verdict::OffBoard);
        assert_eq!(r.play(19, 6), Verdict::OffBoard);
    }

    /// Black builds a line along row 0 from x=0 (with `extra` stones), White plays on row 9.
    fn line_game(rule: Rule, black: &[i64], white_count: usize) -> Verdict {
        let mut r = Referee::new(15, 15, rule).unwrap();
        let mut moves = Vec::new();
        for (i, &x) in black.iter().enumerate() {
            moves.push((x, 0));
            if i < white_count {
                moves.push((2 * i as i64, 9));
            }
        }
        play_all(&mut r, &moves)
    }

    #[test]
    fn five_and_overline_per_rule() {
        // Black: 0,1,2,3 then 5, then 4 makes six (0..=5).
        let six = [0, 1, 2, 3, 5, 4];
        let five = [0, 1, 2, 3, 4];
        for rule in Rule::ALL {
            assert_eq!(line_game(rule, &five, 5), Verdict::Win, "{rule}");
        }
        assert_eq!(line_game(Rule::Freestyle, &six, 6), Verdict::Win);
        assert_eq!(line_game(Rule::Caro, &six, 6), Verdict::Win);
        assert_eq!(line_game(Rule::Standard, &six, 6), Verdict::Normal);
        assert_eq!(line_game(Rule::CaroExact, &six, 6), Verdict::Normal);
        assert_eq!(
            line_game(Rule::Renju, &six, 6),
            Verdict::Foul(Foul::Overline)
        );
    }

    #[test]
    fn renju_white_overline_wins_and_black_fouls() {
        let mut r = Referee::new(15, 15, Rule::Renju).unwrap();
        // White makes six on row 5; Black scatters.
        let moves = [
            (0, 14),
            (0, 5),
            (2, 14),
            (1, 5),
            (4, 14),
            (2, 5),
            (6, 14),
            (4, 5),
            (8, 12),
            (5, 5),
            (10, 10),
        ];
        assert_eq!(play_all(&mut r, &moves), Verdict::Normal);
        assert_eq!(r.play(3, 5), Verdict::Win);

        // Double-three: a cross around (7,7).
        let mut r = Referee::new(15, 15, Rule::Renju).unwrap();
        let moves = [
            (7, 6),
            (0, 0),
            (6, 7),
            (0, 2),
            (8, 7),
            (0, 4),
            (7, 8),
            (0, 6),
        ];
        assert_eq!(play_all(&mut r, &moves), Verdict::Normal);
        assert_eq!(r.play(7, 7), Verdict::Foul(Foul::DoubleThree));
        // The foul is not played; Black may still play elsewhere in a test.
        assert_eq!(r.moves().len(), 8);

        // The same shape is fine for White and in freestyle.
        let mut r = Referee::new(15, 15, Rule::Freestyle).unwrap();
        assert_eq!(play_all(&mut r, &moves), Verdict::Normal);
        assert_eq!(r.play(7, 7), Verdict::Normal);
    }

    #[test]
    fn renju_five_beats_a_simultaneous_foul() {
        // Black: row 7 x=3..6 (four) and column 7 y=4,5,6 -> (7,7) makes five on the row
        // and four on the column: a win, not a double-four foul.
        let mut r = Referee::new(15, 15, Rule::Renju).unwrap();
        let black = [(3, 7), (4, 7), (5, 7), (6, 7), (7, 4), (7, 5), (7, 6)];
        let white = [(0, 0), (2, 0), (4, 0), (6, 0), (8, 0), (10, 0), (12, 0)];
        for i in 0..black.len() {
            assert_eq!(r.play(black[i].0, black[i].1), Verdict::Normal, "{i}");
            assert_eq!(r.play(white[i].0, white[i].1), Verdict::Normal, "{i}");
        }
        assert_eq!(r.play(7, 7), Verdict::Win);
    }

    #[test]
    fn caro_blocked_five_does_not_win() {
        // White at (0,0) and (6,0) block both ends of Black's x=1..5.
        let mut r = Referee::new(15, 15, Rule::Caro).unwrap();
        let moves = [
            (1, 0),
            (0, 0),
            (2, 0),
            (6, 0),
            (3, 0),
            (9, 9),
            (4, 0),
            (11, 11),
        ];
        assert_eq!(play_all(&mut r, &moves), Verdict::Normal);
        assert_eq!(r.play(5, 0), Verdict::Normal);
        // Freestyle would have counted it.
        let mut r = Referee::new(15, 15, Rule::Freestyle).unwrap();
        assert_eq!(play_all(&mut r, &moves), Verdict::Normal);
        assert_eq!(r.play(5, 0), Verdict::Win);
    }

    #[test]
    fn openings_are_validated() {
        let mut r = Referee::new(15, 15, Rule::Freestyle).unwrap();
        assert!(r.play_opening(&[(7, 7), (8, 8), (6, 6)]).is_ok());
        assert_eq!(r.to_move(), Color::White);
        let mut r = Referee::new(15, 15, Rule::Freestyle).unwrap();
        assert!(r.play_opening(&[(7, 7), (7, 7)]).is_err());
        let mut r = Referee::new(5, 5, Rule::Freestyle).unwrap();
        assert!(r.play_opening(&[(7, 7)]).is_err());
    }

    #[test]
    fn full_board_detection() {
        let mut r = Referee::new(5, 5, Rule::Freestyle).unwrap();
        // Fill a 5x5 board without five in a row: columns pattern that avoids lines.
        let mut n = 0;
        let order: Vec<(i64, i64)> = (0..5).flat_map(|y| (0..5).map(move |x| (x, y))).collect();
        // Colour of (x, y) must follow move parity; just check `is_full` after placing
        // all squares regardless of wins by using a fresh referee per failure.
        for &(x, y) in &order {
            match r.play(x, y) {
                Verdict::Normal | Verdict::Win => n += 1,
                v => panic!("{v:?}"),
            }
        }
        assert_eq!(n, 25);
        assert!(r.is_full());
    }
}
