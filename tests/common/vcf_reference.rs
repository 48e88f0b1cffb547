//! A slow, simple, exhaustive reference VCF (victory by continuous fours), written
//! independently of `src/search/threat.rs` on the plain `Grid` of `reference.rs` and its
//! rules (`wins`, `renju_foul`), for the soundness tests.
//!
//! Definitions (for every rule):
//!
//! - A *winning square* of a colour is an empty square where one stone of that colour wins
//!   (`reference::wins`). Under Renju an exact five for Black is never forbidden.
//! - A *four* is a legal attacker move after which the attacker has at least one winning
//!   square. Legal: for Black under Renju, not forbidden (`reference::renju_foul`).
//! - After a four the defender must stop every winning square at once. A *defence* is a
//!   legal defender move after which the attacker has no winning square left. Every empty
//!   square is tried: the defender may occupy the winning square, and under Caro may also
//!   block the far end of the five-to-be so that it would be closed at both ends. With no
//!   defence (two winning squares that no one stone stops, or one that Black may not
//!   occupy under Renju) the attacker wins next move. If the defender can win at once
//!   instead (a winning square of its own), the four fails.
//! - Depth: `depth` is the number of fours allowed; the final five is not counted (so a
//!   four-four or a four whose only block is forbidden counts as one move).
//!
//! The search tries every four at every node and every defence after every four, with a
//! memo of positions known to fail at a given depth (keyed by the whole grid), and nothing
//! else: no pattern tables, no move ordering, no pruning.

use super::reference::{self, Grid, EMPTY};
use rensa::rules::Rule;
use std::collections::HashMap;

/// A square `(x, y)`.
pub type Square = (i32, i32);

/// The reference solver for one attacker.
pub struct ReferenceVcf {
    rule: Rule,
    attacker: u8,
    defender: u8,
    /// Positions that fail with at most this many fours (the largest depth seen).
    failed: HashMap<Vec<Vec<u8>>, u32>,
    /// Attacker nodes visited.
    pub nodes: u64,
}

/// True when `color` may play on the empty square `sq` under `rule`.
pub fn legal(grid: &mut Grid, sq: Square, color: u8, rule: Rule) -> bool {
    if grid.get(sq.0, sq.1) != EMPTY {
        return false;
    }
    !(rule == Rule::Renju
        && color == reference::BLACK
        && reference::renju_foul(grid, sq.0, sq.1).is_some())
}

/// Every empty square of the grid, row by row.
fn empties(grid: &Grid) -> Vec<Square> {
    let mut out = Vec::new();
    for y in 0..grid.height as i32 {
        for x in 0..grid.width as i32 {
            if grid.get(x, y) == EMPTY {
                out.push((x, y));
            }
        }
    }
    out
}

/// Every empty square where one stone of `color` wins under `rule`.
pub fn winning_squares(grid: &Grid, color: u8, rule: Rule) -> Vec<Square> {
    empties(grid)
        .into_iter()
        .filter(|&(x, y)| reference::wins(grid, x, y, color, rule))
        .collect()
}

/// A necessary condition for `sq` to be a four for `color`: some line through it holds at
/// least three stones of `color` within four squares. Only used to skip hopeless squares.
fn may_make_four(grid: &Grid, sq: Square, color: u8) -> bool {
    reference::DIRECTIONS.iter().any(|&(dx, dy)| {
        (-4..=4)
            .filter(|&k| k != 0 && grid.get(sq.0 + k * dx, sq.1 + k * dy) == color)
            .count()
            >= 3
    })
}

/// The empty squares on the four lines through `sq` within five steps (the only squares
/// whose win status a stone on `sq` can change).
fn squares_near(grid: &Grid, sq: Square) -> Vec<Square> {
    let mut out = Vec::new();
    for (dx, dy) in reference::DIRECTIONS {
        for k in -5..=5 {
            let (x, y) = (sq.0 + k * dx, sq.1 + k * dy);
            if k != 0 && grid.get(x, y) == EMPTY {
                out.push((x, y));
            }
        }
    }
    out
}

impl ReferenceVcf {
    /// A solver for `attacker` (`reference::BLACK` or `reference::WHITE`).
    pub fn new(rule: Rule, attacker: u8) -> ReferenceVcf {
        ReferenceVcf {
            rule,
            attacker,
            defender: reference::opponent(attacker),
            failed: HashMap::new(),
            nodes: 0,
        }
    }

    /// A VCF for the attacker (to move) with at most `depth` fours, as a line of squares
    /// alternating attacker and defender and ending with the attacker's five; the first
    /// defence is shown where there are several (all of them lose). None: no VCF.
    pub fn solve(&mut self, grid: &Grid, depth: u32) -> Option<Vec<Square>> {
        let mut scratch = grid.clone();
        let line = self.attack(&mut scratch, depth);
        assert_eq!(&scratch, grid, "the reference VCF did not restore the grid");
        line
    }

    /// The winning squares the attacker has after playing the four on `m` (already placed):
    /// they are all on lines through `m`, because before `m` the attacker had none.
    fn completions(&self, grid: &Grid, m: Square) -> Vec<Square> {
        squares_near(grid, m)
            .into_iter()
            .filter(|&(x, y)| reference::wins(grid, x, y, self.attacker, self.rule))
            .collect()
    }

    /// Every legal defender move that leaves the attacker without a winning square, given
    /// the attacker's winning squares `wins` (a stone can only take wins away, so only those
    /// squares need checking afterwards).
    pub fn defences(&self, grid: &mut Grid, wins: &[Square]) -> Vec<Square> {
        let mut out = Vec::new();
        for r in empties(grid) {
            if !legal(grid, r, self.defender, self.rule) {
                continue;
            }
            grid.set(r.0, r.1, self.defender);
            let stopped = wins
                .iter()
                .all(|&c| c == r || !reference::wins(grid, c.0, c.1, self.attacker, self.rule));
            grid.set(r.0, r.1, EMPTY);
            if stopped {
                out.push(r);
            }
        }
        out
    }

    fn attack(&mut self, grid: &mut Grid, depth: u32) -> Option<Vec<Square>> {
        self.nodes += 1;
        // A five now.
        if let Some(&five) = winning_squares(grid, self.attacker, self.rule).first() {
            return Some(vec![five]);
        }
        if depth == 0 {
            return None;
        }
        if self
            .failed
            .get(&grid.rows)
            .is_some_and(|&known| known >= depth)
        {
            return None;
        }
        let their_wins = winning_squares(grid, self.defender, self.rule);
        for m in empties(grid) {
            if !may_make_four(grid, m, self.attacker) {
                continue;
            }
            grid.set(m.0, m.1, self.attacker);
            let wins = self.completions(grid, m);
            // The defender must not be able to win at once (a stone of ours can only take
            // the defender's winning squares away).
            let defender_wins = their_wins
                .iter()
                .any(|&c| c != m && reference::wins(grid, c.0, c.1, self.defender, self.rule));
            grid.set(m.0, m.1, EMPTY);
            if wins.is_empty() || defender_wins || !legal(grid, m, self.attacker, self.rule) {
                continue;
            }
            grid.set(m.0, m.1, self.attacker);
            let result = self.after_four(grid, m, &wins, depth);
            grid.set(m.0, m.1, EMPTY);
            if result.is_some() {
                return result;
            }
        }
        let known = self.failed.entry(grid.rows.clone()).or_insert(0);
        *known = (*known).max(depth);
        None
    }

    /// The four on `m` (placed) leaves the attacker the winning squares `wins`: try every
    /// defence; Some(line) when all of them lose.
    fn after_four(
        &mut self,
        grid: &mut Grid,
        m: Square,
        wins: &[Square],
        depth: u32,
    ) -> Option<Vec<Square>> {
        let defences = self.defences(grid, wins);
        if defences.is_empty() {
            // Nothing stops the five: show any legal defender move and a five after it.
            let any = empties(grid)
                .into_iter()
                .find(|&r| legal(grid, r, self.defender, self.rule))?;
            grid.set(any.0, any.1, self.defender);
            let five = wins
                .iter()
                .copied()
                .find(|&c| c != any && reference::wins(grid, c.0, c.1, self.attacker, self.rule));
            grid.set(any.0, any.1, EMPTY);
            return Some(vec![
                m,
                any,
                five.expect("an unstoppable four has a five left"),
            ]);
        }
        let mut first = None;
        for r in defences {
            grid.set(r.0, r.1, self.defender);
            let sub = self.attack(grid, depth - 1);
            grid.set(r.0, r.1, EMPTY);
            let sub = sub?;
            if first.is_none() {
                let mut line = vec![m, r];
                line.extend(sub);
                first = Some(line);
            }
        }
        first
    }
}

/// Check a VCF line claimed by any solver, move by move, with the reference rules: every
/// attacker move but the last is a legal four after which the defender cannot win at once;
/// every defender move is legal and one of the defences against that four (or, when there
/// is no defence, any legal move; then the next attacker move must be the five); the last
/// attacker move is a five. Err says what is wrong. Where a four has several defences the
/// line shows one of them only: that the others lose too is for the caller to check (the
/// soundness test requires the reference search to find a win as well).
pub fn check_vcf_line(
    grid: &Grid,
    rule: Rule,
    attacker: u8,
    line: &[Square],
) -> Result<(), String> {
    let defender = reference::opponent(attacker);
    let solver = ReferenceVcf::new(rule, attacker);
    let mut g = grid.clone();
    if line.len().is_multiple_of(2) {
        return Err(format!("a line of even length {}", line.len()));
    }
    let mut unstoppable = false;
    for (i, pair) in line.chunks(2).enumerate() {
        let m = pair[0];
        if g.get(m.0, m.1) != EMPTY {
            return Err(format!("attacker move {i} {m:?} is on a non-empty square"));
        }
        if reference::wins(&g, m.0, m.1, attacker, rule) {
            return if pair.len() == 1 {
                Ok(())
            } else {
                Err(format!(
                    "attacker move {i} {m:?} already wins but the line goes on"
                ))
            };
        }
        if pair.len() == 1 || unstoppable {
            return Err(format!(
                "attacker move {i} {m:?} should be a five and is not"
            ));
        }
        if !legal(&mut g, m, attacker, rule) {
            return Err(format!("attacker move {i} {m:?} is forbidden"));
        }
        g.set(m.0, m.1, attacker);
        let wins = winning_squares(&g, attacker, rule);
        if wins.is_empty() {
            return Err(format!("attacker move {i} {m:?} is not a four"));
        }
        if !winning_squares(&g, defender, rule).is_empty() {
            return Err(format!(
                "after attacker move {i} {m:?} the defender can make a five"
            ));
        }
        let r = pair[1];
        let defences = solver.defences(&mut g, &wins);
        if defences.is_empty() {
            if !legal(&mut g, r, defender, rule) {
                return Err(format!("defender move {i} {r:?} is not a legal move"));
            }
            unstoppable = true;
        } else if !defences.contains(&r) {
            return Err(format!(
                "after attacker move {i} {m:?} the defences are {defences:?}, the line plays {r:?}"
            ));
        }
        g.set(r.0, r.1, defender);
    }
    unreachable!("a line of odd length ends on an attacker move")
}
