//! The defence set: positions from real games where the side not to move threatens a VCT
//! and the side to move has a defence, with every candidate defence judged by Rensa's
//! threat solver. Built and run by the `defence` tool (see its documentation for the file
//! format); the types live here so that tests can check a committed set.

use crate::probe;
use rensa::board::geometry::near_stones;
use rensa::board::{Board, Cell, Color, Pos};
use rensa::rules::{self, Rule};
use rensa::search::threat::{replay_is_win, ThreatLimits, ThreatSolver};
use std::path::Path;

/// Most attacker moves in a VCT line the set's solver looks for (twice the search's own
/// root VCT: the set's answers should not depend on the engine's limits).
const SET_VCT_MOVES: u32 = 48;

/// What the solver says about the attacker's chances, `attacker` to move.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A VCT, replayed and checked.
    Wins(Vec<Pos>),
    /// The search ended without a win.
    NoWin,
    /// The budget ran out.
    Unknown,
}

/// The solver's verdict for `attacker` (to move) with `nodes` at most.
pub fn vct_verdict(board: &Board, rule: Rule, attacker: Color, nodes: u64) -> Verdict {
    let limits = ThreatLimits {
        max_attacker_moves: SET_VCT_MOVES,
        max_nodes: nodes,
    };
    let mut solver = ThreatSolver::new(board, rule, attacker, limits);
    match solver.vct() {
        Some(line) if replay_is_win(board, rule, attacker, &line) => Verdict::Wins(line),
        // A line that does not replay is the solver's error: not an answer to trust.
        Some(_) => Verdict::Unknown,
        None if solver.aborted() => Verdict::Unknown,
        None => Verdict::NoWin,
    }
}

/// True when `color` has a VCF (a five included) within `nodes`.
pub fn has_vcf(board: &Board, rule: Rule, color: Color, nodes: u64) -> bool {
    let limits = ThreatLimits {
        max_attacker_moves: 255,
        max_nodes: nodes,
    };
    ThreatSolver::new(board, rule, color, limits)
        .vcf()
        .is_some()
}

/// One position of the set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The rule of the game.
    pub rule: Rule,
    /// Board side.
    pub size: usize,
    /// The game's moves up to the position, Black first.
    pub moves: Vec<Pos>,
    /// The defender's moves after which the attacker's VCT search finds no win.
    pub holds: Vec<Pos>,
    /// The defender's moves after which the attacker wins by VCT (found and replayed).
    pub loses: Vec<Pos>,
    /// Where the position comes from: record file and ply.
    pub source: String,
}

/// Squares as `x,y;x,y`.
pub fn squares_text(squares: &[Pos]) -> String {
    squares
        .iter()
        .map(|p| format!("{},{}", p.x(), p.y()))
        .collect::<Vec<_>>()
        .join(";")
}

/// Read `x,y;x,y` squares of a `size` board.
pub fn parse_squares(text: &str, size: usize) -> Result<Vec<Pos>, String> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    text.split(';')
        .map(|s| probe::parse_move(s, size))
        .collect()
}

impl Entry {
    /// The entry as a line of the set file.
    pub fn line(&self) -> String {
        format!(
            "rule={} size={} moves={} holds={} loses={} source={}",
            self.rule.code(),
            self.size,
            squares_text(&self.moves),
            squares_text(&self.holds),
            squares_text(&self.loses),
            self.source
        )
    }

    /// Read a line of the set file.
    pub fn parse(line: &str) -> Result<Entry, String> {
        let field = |key: &str| -> Result<&str, String> {
            line.split_whitespace()
                .find_map(|f| f.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
                .ok_or_else(|| format!("no {key}= field"))
        };
        let code: i64 = field("rule")?.parse().map_err(|_| "bad rule")?;
        let rule = Rule::from_code(code).ok_or("bad rule")?.0;
        let size: usize = field("size")?.parse().map_err(|_| "bad size")?;
        if !(5..=rensa::board::MAX_SIZE).contains(&size) {
            return Err(format!("bad size {size}"));
        }
        Ok(Entry {
            rule,
            size,
            moves: parse_squares(field("moves")?, size)?,
            holds: parse_squares(field("holds")?, size)?,
            loses: parse_squares(field("loses")?, size)?,
            source: field("source").unwrap_or("-").to_string(),
        })
    }

    /// The board and the defender (the side to move).
    pub fn board(&self) -> Result<(Board, Color), String> {
        let mut board = Board::new(self.size, self.size).map_err(|e| e.to_string())?;
        let mut colour = Color::Black;
        for &p in &self.moves {
            if !board.is_empty(p) {
                return Err(format!("{},{} is played twice", p.x(), p.y()));
            }
            board.place(p, Cell::Stone(colour));
            colour = colour.opponent();
        }
        Ok((board, colour))
    }
}

/// Read a set file.
pub fn load_set(path: &Path) -> Result<Vec<Entry>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| Entry::parse(l).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1)))
        .collect()
}

/// The defender's candidate moves: legal squares within two of a stone.
pub fn candidates(board: &Board, rule: Rule, defender: Color) -> Vec<Pos> {
    let mut scratch = board.clone();
    near_stones(board, 2)
        .into_iter()
        .filter(|&p| !rules::is_forbidden(&mut scratch, p, defender, rule))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_line_reads_back() {
        let e = Entry {
            rule: Rule::Renju,
            size: 15,
            moves: vec![Pos::new(7, 7), Pos::new(8, 8), Pos::new(6, 7)],
            holds: vec![Pos::new(5, 7)],
            loses: vec![Pos::new(0, 0), Pos::new(14, 14)],
            source: "g.psq:3".into(),
        };
        assert_eq!(Entry::parse(&e.line()).unwrap(), e);
        let (board, defender) = e.board().unwrap();
        assert_eq!(defender, Color::White);
        assert_eq!(board.cell(Pos::new(6, 7)), Cell::Stone(Color::Black));
    }

    #[test]
    fn bad_lines_are_refused() {
        assert!(Entry::parse("rule=0 size=15 moves=7,7;99,1 holds= loses=").is_err());
        assert!(Entry::parse("rule=0 moves=7,7 holds= loses=").is_err());
        let twice = Entry::parse("rule=0 size=15 moves=7,7;7,7 holds= loses=").unwrap();
        assert!(twice.board().is_err());
    }
}
