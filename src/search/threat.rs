//! Threat-space solvers: VCF (victory by continuous fours) and VCT (victory by continuous
//! threats: fours and open threes). Both are rule-aware (Renju fouls for Black, and White's
//! use of Black's forbidden blocks) and return the winning line, which tests replay through
//! the rules code.
//!
//! A returned line alternates attacker and defender moves and ends with the attacker's
//! five. Against a four the defender's reply is forced; against an open three the solver
//! tries every square that stops the three (the squares where the attacker would make a
//! four) and every counter-four of the defender.

use super::node::candidate_rows;
use crate::board::{Board, Cell, Color, Pos};
use crate::pattern::{PatternCounts, PatternTables, Threat};
use crate::rules::{self, Rule};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

/// Limits for one solver call.
#[derive(Clone, Copy, Debug)]
pub struct ThreatLimits {
    /// Most attacker moves in the line.
    pub max_attacker_moves: u32,
    /// Most nodes to visit.
    pub max_nodes: u64,
}

/// The solver.
pub struct ThreatSolver<'a> {
    board: Board,
    rule: Rule,
    attacker: Color,
    tables: PatternTables,
    nodes: u64,
    limits: ThreatLimits,
    stop: Option<&'a AtomicBool>,
    deadline: Option<std::time::Instant>,
    aborted: bool,
    /// Positions (by hash) known to fail with at least this many attacker moves left.
    failed: HashMap<u64, u32>,
}

/// A cell and what the side to move would make there.
#[derive(Clone, Copy, Debug)]
struct Spot {
    pos: Pos,
    counts: PatternCounts,
}

impl<'a> ThreatSolver<'a> {
    /// A solver for `attacker` on a copy of `board`.
    pub fn new(board: &Board, rule: Rule, attacker: Color, limits: ThreatLimits) -> Self {
        ThreatSolver {
            board: board.clone(),
            rule,
            attacker,
            tables: PatternTables::new(rule),
            nodes: 0,
            limits,
            stop: None,
            deadline: None,
            aborted: false,
            failed: HashMap::new(),
        }
    }

    /// Stop early when this flag is set.
    pub fn with_stop(mut self, stop: &'a AtomicBool) -> Self {
        self.stop = Some(stop);
        self
    }

    /// Give up (as "unknown") at this instant.
    pub fn with_deadline(mut self, deadline: std::time::Instant) -> Self {
        self.deadline = Some(deadline);
        self
    }

    /// Nodes visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// True when the last search ran out of nodes or was stopped (a None is then "unknown").
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.limits.max_nodes {
            self.aborted = true;
        }
        if self.nodes & 63 == 0 {
            if let Some(stop) = self.stop {
                if stop.load(Ordering::Relaxed) {
                    self.aborted = true;
                }
            }
            if self
                .deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
            {
                self.aborted = true;
            }
        }
        self.aborted
    }

    fn fouls(&self, color: Color) -> bool {
        self.rule.has_fouls_for(color)
    }

    /// Is `pos` forbidden for `color`?
    fn forbidden(&mut self, pos: Pos, color: Color) -> bool {
        self.fouls(color) && rules::renju_foul(&mut self.board, pos).is_some()
    }

    /// Cells near stones where `color` makes at least a pattern selected by `keep`.
    fn spots(&self, color: Color, keep: impl Fn(&PatternCounts) -> bool) -> Vec<Spot> {
        let rows = candidate_rows(&self.board);
        let mut out = Vec::new();
        for (y, &row) in rows.iter().enumerate().take(self.board.height()) {
            let mut bits = row;
            while bits != 0 {
                let x = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let pos = Pos::new(x, y);
                let counts = PatternCounts::of(&self.tables.patterns(&self.board, pos, color));
                if keep(&counts) {
                    out.push(Spot { pos, counts });
                }
            }
        }
        out
    }

    /// Squares where `color` would complete a five (legal ones only).
    fn fives(&mut self, color: Color) -> Vec<Pos> {
        // A five always wins, even if the square would otherwise be a foul.
        self.spots(color, |c| c.f5 > 0)
            .into_iter()
            .map(|s| s.pos)
            .collect()
    }

    fn play(&mut self, pos: Pos, color: Color) {
        self.board.place(pos, Cell::Stone(color));
    }

    fn undo(&mut self, pos: Pos) {
        self.board.remove(pos);
    }

    /// A legal square for `color` other than those in `avoid` (for a defender with no
    /// useful move).
    fn any_legal(&mut self, color: Color, avoid: &[Pos]) -> Option<Pos> {
        let empties: Vec<Pos> = self.board.empty_positions().collect();
        empties
            .into_iter()
            .find(|&p| !avoid.contains(&p) && !self.forbidden(p, color))
    }

    /// The defender's moves that stop all of the attacker's fives `completions` (one or
    /// more) at once. Occupying the square is the only way, except under Caro rules, where a
    /// stone just past the far end of the five-to-be can also close it at both ends (when
    /// the near end already holds a defender stone). Forbidden squares are left out.
    fn five_defences(&mut self, completions: &[Pos]) -> Vec<Pos> {
        let a = self.attacker;
        let d = a.opponent();
        if !matches!(self.rule, Rule::Caro | Rule::CaroExact) {
            return match *completions {
                [c] if !self.forbidden(c, d) => vec![c],
                _ => Vec::new(),
            };
        }
        let mut candidates: Vec<Pos> = completions.to_vec();
        for &c in completions {
            for q in line_squares(&self.board, c, 5) {
                if !candidates.contains(&q) {
                    candidates.push(q);
                }
            }
        }
        let mut out = Vec::new();
        for q in candidates {
            if self.forbidden(q, d) {
                continue;
            }
            // A defender stone only takes fives away: just re-check the known ones.
            self.play(q, d);
            let stopped = completions
                .iter()
                .all(|&c| c == q || !rules::is_winning_move(&self.board, c, a, self.rule));
            self.undo(q);
            if stopped {
                out.push(q);
            }
        }
        out
    }

    /// The end of a line when no defender move stops the attacker's fives `completions`:
    /// a defender move (blocking one of them where it may) and a five that is left.
    fn unstoppable(&mut self, completions: &[Pos]) -> Option<Vec<Pos>> {
        let a = self.attacker;
        let d = a.opponent();
        let reply = match completions.iter().copied().find(|&c| !self.forbidden(c, d)) {
            Some(c) => c,
            None => self.any_legal(d, completions)?,
        };
        self.play(reply, d);
        let five = completions
            .iter()
            .copied()
            .find(|&c| c != reply && rules::is_winning_move(&self.board, c, a, self.rule));
        self.undo(reply);
        five.map(|five| vec![reply, five])
    }

    /// Search a VCF for the attacker (who is to move). Returns the winning line.
    ///
    /// Depth-first to the full limit with a failure table: VCF lines can be very long
    /// (dozens of fours), and deepening step by step costs far more than it saves.
    pub fn vcf(&mut self) -> Option<Vec<Pos>> {
        self.aborted = false;
        self.failed.clear();
        let depth = self.limits.max_attacker_moves;
        self.vcf_attack(depth)
    }

    fn vcf_attack(&mut self, depth: u32) -> Option<Vec<Pos>> {
        if self.tick() {
            return None;
        }
        let a = self.attacker;
        let d = a.opponent();
        if let Some(&five) = self.fives(a).first() {
            return Some(vec![five]);
        }
        if depth == 0 {
            return None;
        }
        let key = self.board.hash();
        if self.failed.get(&key).is_some_and(|&left| left >= depth) {
            return None;
        }
        let their_fives = self.fives(d);
        // Under Caro rules a four may also stop the defender's fives by closing them at
        // both ends; otherwise it must stand on the defender's only five.
        let capping = matches!(self.rule, Rule::Caro | Rule::CaroExact);
        if their_fives.len() >= 2 && !capping {
            return None;
        }
        let mut fours = self.spots(a, |c| c.f4 + c.b4 > 0);
        if let (Some(&must), false) = (their_fives.first(), capping) {
            fours.retain(|s| s.pos == must);
        }
        // Open fours and double fours first, then by pattern strength; ties by square.
        fours.sort_by_key(|s| (std::cmp::Reverse(s.counts.threat()), s.pos));
        for spot in fours {
            let pos = spot.pos;
            // Exact check (rules::renju_foul prefilters cheaply): the pattern counts miss
            // fouls such as a double four on one line (`X.XXX.X`) or an overline.
            if self.forbidden(pos, a) {
                continue;
            }
            self.play(pos, a);
            if their_fives
                .iter()
                .any(|&f| f != pos && rules::is_winning_move(&self.board, f, d, self.rule))
            {
                self.undo(pos); // the defender would make a five
                continue;
            }
            let completions = self.fives(a);
            let result = if completions.is_empty() {
                None // not a four after all (e.g. only an overline completion)
            } else {
                let defences = self.five_defences(&completions);
                if defences.is_empty() {
                    // Nothing stops the five.
                    self.unstoppable(&completions).map(|mut line| {
                        line.insert(0, pos);
                        line
                    })
                } else {
                    // Usually the one block; every defence must lose.
                    let mut first: Option<Vec<Pos>> = None;
                    for block in defences {
                        self.play(block, d);
                        let sub = self.vcf_attack(depth - 1);
                        self.undo(block);
                        match sub {
                            None => {
                                first = None;
                                break;
                            }
                            Some(line) if first.is_none() => {
                                let mut l = vec![pos, block];
                                l.extend(line);
                                first = Some(l);
                            }
                            Some(_) => {}
                        }
                    }
                    first
                }
            };
            self.undo(pos);
            if result.is_some() {
                return result;
            }
            if self.aborted {
                return None;
            }
        }
        if !self.aborted {
            self.failed.insert(key, depth);
        }
        None
    }

    /// Search a VCT for the attacker (who is to move). Returns the winning line (one
    /// defence per defender move; other defences are refuted too).
    ///
    /// Iterative deepening over the number of attacker moves: short wins are found quickly
    /// and the failure table carries over from one iteration to the next.
    pub fn vct(&mut self) -> Option<Vec<Pos>> {
        self.aborted = false;
        self.failed.clear();
        let max = self.limits.max_attacker_moves;
        let mut depth = 2.min(max);
        loop {
            let found = self.vct_attack(depth);
            if found.is_some() || self.aborted || depth >= max {
                return found;
            }
            depth = (depth + 2).min(max);
        }
    }

    fn vct_attack(&mut self, depth: u32) -> Option<Vec<Pos>> {
        if self.tick() {
            return None;
        }
        let a = self.attacker;
        let d = a.opponent();
        if let Some(&five) = self.fives(a).first() {
            return Some(vec![five]);
        }
        if depth == 0 {
            return None;
        }
        let key = self.board.hash() ^ 0x5654_4354; // separate from VCF entries
        if self.failed.get(&key).is_some_and(|&left| left >= depth) {
            return None;
        }
        let their_fives = self.fives(d);
        if their_fives.len() >= 2 {
            return None;
        }
        let mut moves = self.spots(a, |c| c.threat() >= Threat::Four);
        if let Some(&must) = their_fives.first() {
            moves.retain(|s| s.pos == must);
            if moves.is_empty() {
                // Forced to block with a non-threat: allowed if the threat we already have
                // still stands afterwards.
                if !self.forbidden(must, a) {
                    self.play(must, a);
                    let sub = self.vct_defend(depth - 1);
                    self.undo(must);
                    if let Some(mut line) = sub {
                        line.insert(0, must);
                        return Some(line);
                    }
                }
                return None;
            }
        }
        moves.sort_by_key(|s| (std::cmp::Reverse(s.counts.threat()), s.pos));
        for spot in moves {
            let pos = spot.pos;
            // Exact check (rules::renju_foul prefilters cheaply): the pattern counts miss
            // fouls such as a double four on one line (`X.XXX.X`) or an overline.
            if self.forbidden(pos, a) {
                continue;
            }
            self.play(pos, a);
            let sub = self.vct_defend(depth - 1);
            self.undo(pos);
            if let Some(mut line) = sub {
                line.insert(0, pos);
                return Some(line);
            }
            if self.aborted {
                return None;
            }
        }
        if !self.aborted {
            self.failed.insert(key, depth);
        }
        None
    }

    /// Defender to move after an attacker threat. Some(line) when every defence loses.
    fn vct_defend(&mut self, depth: u32) -> Option<Vec<Pos>> {
        if self.tick() {
            return None;
        }
        let a = self.attacker;
        let d = a.opponent();
        if !self.fives(d).is_empty() {
            return None; // the defender wins first
        }
        let completions = self.fives(a);
        let defences: Vec<Pos> = if !completions.is_empty() {
            let defences = self.five_defences(&completions);
            if defences.is_empty() {
                return self.unstoppable(&completions);
            }
            defences
        } else {
            // The attacker threatens an open four (or a four-three): stop it on its lines, or
            // counter with fours. Only threats the attacker may legally play count.
            let attacker_fours = self.spots(a, |c| c.f4 + c.b4 > 0);
            let mut open_four = false;
            let mut four_three = false;
            for s in &attacker_fours {
                let t = s.counts.threat();
                if (t >= Threat::OpenFour || t == Threat::FourThree) && !self.forbidden(s.pos, a) {
                    if t >= Threat::OpenFour {
                        open_four = true;
                    } else {
                        four_three = true;
                    }
                }
            }
            if !open_four && !four_three {
                return None; // no real threat left
            }
            let mut set: Vec<Pos> = attacker_fours.iter().map(|s| s.pos).collect();
            if !open_four {
                // A four-three can also be stopped on its three's line: add the squares where
                // the attacker would make a three.
                for s in self.spots(a, |c| c.f3 > 0) {
                    if !set.contains(&s.pos) {
                        set.push(s.pos);
                    }
                }
            }
            for s in self.spots(d, |c| c.f4 + c.b4 > 0) {
                if !set.contains(&s.pos) {
                    set.push(s.pos);
                }
            }
            set.sort();
            set
        };
        let mut first_line: Option<Vec<Pos>> = None;
        let mut any_legal_defence = false;
        for pos in defences {
            if self.forbidden(pos, d) {
                continue;
            }
            any_legal_defence = true;
            self.play(pos, d);
            let sub = self.vct_attack(depth);
            self.undo(pos);
            match sub {
                None => return None,
                Some(line) => {
                    if first_line.is_none() {
                        let mut l = vec![pos];
                        l.extend(line);
                        first_line = Some(l);
                    }
                }
            }
        }
        if !any_legal_defence {
            return None; // cannot happen in practice; be conservative
        }
        first_line
    }
}

/// Empty squares within four cells of `pos` along its four lines (where a four through
/// `pos` can be completed).
pub fn line_neighbours(board: &Board, pos: Pos) -> arrayvec::ArrayVec<Pos, 32> {
    let mut out = arrayvec::ArrayVec::new();
    for dir in crate::board::Direction::ALL {
        let r = board.line_ref(pos, dir);
        let mut empty = board.line_empty(dir, r.line) & rules::window_mask(r.bit, 4);
        while empty != 0 {
            let bit = empty.trailing_zeros();
            empty &= empty - 1;
            if let Some(q) = board.pos_on_line(dir, r.line, bit as i32) {
                out.push(q);
            }
        }
    }
    out
}

/// Empty squares up to `reach` cells from `pos` along its four lines.
fn line_squares(board: &Board, pos: Pos, reach: isize) -> Vec<Pos> {
    let mut out = Vec::new();
    for (dx, dy) in [(1isize, 0isize), (0, 1), (1, 1), (1, -1)] {
        for k in (-reach..=reach).filter(|&k| k != 0) {
            if let Some(q) = board.pos_at(pos.x() as isize + k * dx, pos.y() as isize + k * dy) {
                if board.is_empty(q) {
                    out.push(q);
                }
            }
        }
    }
    out
}

/// Check that `line` is a real win for `attacker` from `board`: moves alternate, every
/// square is empty when played, the attacker's moves are legal, the defender's moves in
/// reply to a four are forced, and the line ends with the attacker's five.
pub fn replay_is_win(board: &Board, rule: Rule, attacker: Color, line: &[Pos]) -> bool {
    let mut b = board.clone();
    let mut color = attacker;
    for (i, &pos) in line.iter().enumerate() {
        if !b.is_empty(pos) {
            return false;
        }
        let wins = rules::is_winning_move(&b, pos, color, rule);
        if !wins && rules::is_forbidden(&mut b, pos, color, rule) {
            // A foul: loses for the mover.
            return color != attacker && i + 1 < line.len();
        }
        if wins {
            return color == attacker && i + 1 == line.len();
        }
        b.place(pos, Cell::Stone(color));
        color = color.opponent();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(moves: u32) -> ThreatLimits {
        ThreatLimits {
            max_attacker_moves: moves,
            max_nodes: 1_000_000,
        }
    }

    #[test]
    fn simple_vcf_is_found_and_replays() {
        // Black: two crossing broken lines give a four-four by continuous fours.
        let b = Board::from_ascii(
            "...............
             ...............
             ...............
             ...............
             ....XX.X.......
             ...............
             ......X........
             ......X........
             ......X........
             ...............
             ...............
             ..........O....
             ..........O....
             ..........O....
             ...............",
        )
        .unwrap();
        let mut s = ThreatSolver::new(&b, Rule::Freestyle, Color::Black, limits(10));
        let line = s.vcf().expect("a VCF exists");
        assert!(
            replay_is_win(&b, Rule::Freestyle, Color::Black, &line),
            "{line:?}"
        );
    }

    #[test]
    fn no_vcf_without_fours() {
        let b = Board::from_ascii(
            ".........
             .........
             ...X.....
             ....X....
             .........
             .........
             .........",
        )
        .unwrap();
        let mut s = ThreatSolver::new(&b, Rule::Freestyle, Color::Black, limits(10));
        assert!(s.vcf().is_none());
        assert!(!s.aborted());
    }

    #[test]
    fn open_three_plus_three_is_a_vct() {
        let b = Board::from_ascii(
            "...............
             ...............
             ...............
             ...............
             ...............
             ......X........
             ......X........
             .......XX......
             ...............
             ...............
             ...............
             ...............
             ..............O
             .............O.
             ............O..",
        )
        .unwrap();
        let mut s = ThreatSolver::new(&b, Rule::Freestyle, Color::Black, limits(6));
        let line = s.vct().expect("black wins by threes");
        assert!(
            replay_is_win(&b, Rule::Freestyle, Color::Black, &line),
            "{line:?}"
        );
    }
}
