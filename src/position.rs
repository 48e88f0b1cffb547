//! A game position: the board, the rule, whose turn it is and the move history.

use crate::board::{Board, Cell, Color, Pos, SizeError};
use crate::rules::{self, Rule};

/// Zobrist key mixed in when White is to move.
const WHITE_TO_MOVE_KEY: u64 = 0x9D39_247E_3377_6D41;

/// A position that can be played forward and undone.
#[derive(Clone, Debug)]
pub struct Position {
    board: Board,
    rule: Rule,
    to_move: Color,
    history: Vec<Pos>,
}

impl Position {
    /// An empty board with Black to move.
    pub fn new(width: usize, height: usize, rule: Rule) -> Result<Position, SizeError> {
        Ok(Position {
            board: Board::new(width, height)?,
            rule,
            to_move: Color::Black,
            history: Vec::new(),
        })
    }

    /// A position from a board diagram (see `Board::from_ascii`: `X` Black, `O` White,
    /// `.` empty), with the side to move and the rule; the stones count as played row by
    /// row. For tests and tools.
    pub fn from_ascii(diagram: &str, to_move: Color, rule: Rule) -> Result<Position, String> {
        let b = Board::from_ascii(diagram)?;
        let stones: Vec<(Pos, Cell)> = b
            .positions()
            .filter(|&p| b.cell(p) != Cell::Empty)
            .map(|p| (p, b.cell(p)))
            .collect();
        Position::from_stones(b.width(), b.height(), rule, &stones, to_move).map_err(|e| e.0)
    }

    /// Build a position from stones given in order and the side to move. Stones must lie on
    /// empty, on-board squares (callers validate first).
    pub fn from_stones(
        width: usize,
        height: usize,
        rule: Rule,
        stones: &[(Pos, Cell)],
        to_move: Color,
    ) -> Result<Position, SizeError> {
        let mut position = Position::new(width, height, rule)?;
        for &(pos, cell) in stones {
            position.board.place(pos, cell);
            if matches!(cell, Cell::Stone(_)) {
                position.history.push(pos);
            }
        }
        position.to_move = to_move;
        Ok(position)
    }

    /// The board.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Mutable access to the board for scratch work (callers must restore it).
    #[inline]
    pub fn board_mut(&mut self) -> &mut Board {
        &mut self.board
    }

    /// The rule in force.
    #[inline]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Change the rule (the stones stay).
    pub fn set_rule(&mut self, rule: Rule) {
        self.rule = rule;
    }

    /// The side to move.
    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Set the side to move.
    pub fn set_to_move(&mut self, color: Color) {
        self.to_move = color;
    }

    /// The stones in the order they were played or listed.
    pub fn history(&self) -> &[Pos] {
        &self.history
    }

    /// The last stone played, if any.
    pub fn last_move(&self) -> Option<Pos> {
        self.history.last().copied()
    }

    /// Hash of the stones and the side to move.
    #[inline]
    pub fn hash(&self) -> u64 {
        match self.to_move {
            Color::Black => self.board.hash(),
            Color::White => self.board.hash() ^ WHITE_TO_MOVE_KEY,
        }
    }

    /// Place a stone of the side to move on an empty square and pass the turn.
    #[inline]
    pub fn play(&mut self, pos: Pos) {
        self.board.place(pos, Cell::Stone(self.to_move));
        self.history.push(pos);
        self.to_move = self.to_move.opponent();
    }

    /// Place a stone of `color` on an empty square; the other colour is then to move.
    #[inline]
    pub fn play_as(&mut self, pos: Pos, color: Color) {
        self.board.place(pos, Cell::Stone(color));
        self.history.push(pos);
        self.to_move = color.opponent();
    }

    /// Swap the colour of every stone (the history order stays).
    pub fn swap_colours(&mut self) {
        let stones: Vec<(Pos, Cell)> = self
            .history
            .iter()
            .map(|&p| match self.board.cell(p) {
                Cell::Stone(c) => (p, Cell::Stone(c.opponent())),
                other => (p, other),
            })
            .collect();
        for &(p, _) in &stones {
            self.board.remove(p);
        }
        for &(p, cell) in &stones {
            self.board.place(p, cell);
        }
        self.to_move = self.to_move.opponent();
    }

    /// Take back the last move played; returns it.
    #[inline]
    pub fn undo(&mut self) -> Option<Pos> {
        let pos = self.history.pop()?;
        self.board.remove(pos);
        self.to_move = self.to_move.opponent();
        Some(pos)
    }

    /// Remove a stone anywhere in the history (not only the last). Returns its colour.
    pub fn remove_stone(&mut self, pos: Pos) -> Option<Color> {
        let color = match self.board.cell(pos) {
            Cell::Stone(c) => c,
            _ => return None,
        };
        self.board.remove(pos);
        self.history.retain(|&p| p != pos);
        Some(color)
    }

    /// True when the side to move may play `pos`: empty and, under Renju for Black, not
    /// forbidden.
    pub fn is_legal(&mut self, pos: Pos) -> bool {
        self.board.is_empty(pos)
            && !rules::is_forbidden(&mut self.board, pos, self.to_move, self.rule)
    }

    /// A legal square for the side to move (the first in row-major order), if any.
    pub fn any_legal_move(&mut self) -> Option<Pos> {
        let empties: Vec<Pos> = self.board.empty_positions().collect();
        empties.into_iter().find(|&p| self.is_legal(p))
    }

    /// True when the side to move would win at once by playing `pos`.
    #[inline]
    pub fn is_winning_move(&self, pos: Pos) -> bool {
        rules::is_winning_move(&self.board, pos, self.to_move, self.rule)
    }

    /// True when the last stone played completed a winning line.
    pub fn last_move_won(&self) -> bool {
        self.last_move()
            .is_some_and(|p| rules::stone_wins(&self.board, p, self.rule))
    }

    /// Number of empty squares.
    pub fn empty_count(&self) -> usize {
        self.board.area() - self.board.stone_count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_undo_restores_hash_and_turn() {
        let mut p = Position::new(15, 15, Rule::Freestyle).unwrap();
        let h0 = p.hash();
        p.play(Pos::new(7, 7));
        p.play(Pos::new(8, 7));
        assert_eq!(p.to_move(), Color::Black);
        assert_ne!(p.hash(), h0);
        p.undo();
        assert_eq!(p.to_move(), Color::White);
        p.undo();
        assert_eq!(p.hash(), h0);
        assert_eq!(p.undo(), None);
    }

    #[test]
    fn any_legal_move_skips_black_fouls() {
        // Black B1..F1 (x 1..5, y 0): A1 and G1 would make overlines, forbidden in renju.
        let mut p = Position::new(15, 15, Rule::Renju).unwrap();
        for x in 1..=5 {
            p.board_mut()
                .place(Pos::new(x, 0), Cell::Stone(Color::Black));
        }
        p.set_to_move(Color::Black);
        assert!(!p.is_legal(Pos::new(0, 0)));
        assert!(!p.is_legal(Pos::new(6, 0)));
        assert_eq!(p.any_legal_move(), Some(Pos::new(7, 0)));
        // White has no fouls.
        p.set_to_move(Color::White);
        assert_eq!(p.any_legal_move(), Some(Pos::new(0, 0)));
    }

    #[test]
    fn a_black_five_that_is_also_an_overline_is_legal() {
        // Black B1..E1 and G1 (x 1..4 and 6, y 0): F1 (x 5) makes an overline on that
        // row, and with F2..F5 (x 5, y 1..4) an exact five in its column. A five wins
        // before any foul, so the session's legality checks never trade it away.
        let mut p = Position::new(15, 15, Rule::Renju).unwrap();
        for x in [1, 2, 3, 4, 6] {
            p.board_mut()
                .place(Pos::new(x, 0), Cell::Stone(Color::Black));
        }
        for y in 1..=4 {
            p.board_mut()
                .place(Pos::new(5, y), Cell::Stone(Color::Black));
        }
        p.set_to_move(Color::Black);
        let f1 = Pos::new(5, 0);
        assert!(p.is_winning_move(f1));
        assert!(p.is_legal(f1));
        // Without the column's five the same square is an overline foul.
        p.board_mut().remove(Pos::new(5, 4));
        assert!(!p.is_winning_move(f1));
        assert!(!p.is_legal(f1));
    }

    #[test]
    fn remove_stone_from_middle_of_history() {
        let mut p = Position::new(15, 15, Rule::Freestyle).unwrap();
        for x in 0..4 {
            p.play(Pos::new(x, 0));
        }
        assert_eq!(p.remove_stone(Pos::new(1, 0)), Some(Color::White));
        assert_eq!(
            p.history(),
            &[Pos::new(0, 0), Pos::new(2, 0), Pos::new(3, 0)]
        );
        assert_eq!(p.remove_stone(Pos::new(9, 9)), None);
    }
}
