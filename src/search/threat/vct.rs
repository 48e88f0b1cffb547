//! VCT by depth-first proof-number search (df-pn).
//!
//! An attacker node (OR) is won when one of its moves wins; a defender node (AND) when
//! every defence loses. Proof numbers count the leaves still to be shown won for a node to
//! be won, disproof numbers those to be shown held for it to be held; the search always
//! follows the most proving node, so it runs deep along forcing lines (a four has one
//! reply) and only widens where the numbers say so. The numbers live in a table keyed by
//! position, the attacker moves left and the threats left, which also merges
//! transpositions. A second table keeps, for each position solved, the smallest budget
//! (moves, threats, quiet moves) it was won with and the largest it was held with: a
//! position met again with more to spend is won, with less held, without a search, also
//! across the passes below.
//!
//! The search runs again with one more non-four threat allowed each time (a line's threes
//! multiply the tree; its fours do not), and a node with no threat left is settled by the
//! VCF search, whose failure table does that far faster than proof numbers would.
//!
//! The moves are those of threat-space search: the attacker's fours, threes and quiet
//! moves that threaten a VCF; the defender's blocks of a five, the squares that stop an
//! open four or four-three on the follow-ups' lines (and, for a four-three, those where a
//! defender stone would turn its forced block into a four; a four-three whose block
//! already makes one, or whose renju three has no legal open four, is no sure
//! follow-up), counter-fours, and against a quiet threat every square near the stones
//! and the VCF line that does not leave the line working (those are refuted by the line
//! itself, without a search). A defender who, facing no four, wins by a short VCF of its
//! own holds without any of that.

use super::moves::{AttackMove, AttackScope, Defences, Kind};
use super::ThreatSolver;
use crate::board::{zobrist_stone, Pos};
use crate::search::vcf::KeyMap;
use std::rc::Rc;

/// What the VCT keeps besides the board and the VCF's tables: its proof-number tables,
/// the move lists and settled budgets of nodes seen, and the current path's children.
#[derive(Default)]
pub(super) struct VctState {
    /// Proof and disproof numbers of the VCT's nodes.
    proof: KeyMap<Numbers>,
    /// Attacker moves allowed at the root of the current VCT search.
    root_depth: u32,
    /// Move lists of VCT nodes already expanded, by node key: proof-number search
    /// re-enters a node many times, and generating its moves is most of a visit's cost.
    move_lists: KeyMap<MoveList>,
    /// Budgets VCT positions were won or held with, whatever the path and pass.
    settled: KeyMap<Settled>,
    /// Proof-table keys of the current VCT pass's wins the settled table does not answer
    /// for: kept when the proof table is emptied.
    loose_wins: Vec<u64>,
    /// Counts the times the VCT's tables lost entries (emptied or pruned): a node's loop
    /// looks its children up again after one.
    generation: u64,
    /// The children's numbers of the VCT nodes on the current path, one slice a node.
    child_numbers: Vec<Numbers>,
}

/// "Infinite" proof or disproof number.
const INF: u32 = 1 << 30;

/// Most entries in the proof table before it is emptied (about 16 bytes each: the table
/// stays within the engine's memory reserve; its solved entries live on in the settled
/// table).
const TABLE_CAP: usize = 1 << 18;

/// Proof and disproof numbers of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Numbers {
    pn: u32,
    dn: u32,
}

const PROVED: Numbers = Numbers { pn: 0, dn: INF };
const DISPROVED: Numbers = Numbers { pn: INF, dn: 0 };
const UNKNOWN: Numbers = Numbers { pn: 1, dn: 1 };
const UNBOUNDED: Numbers = Numbers { pn: INF, dn: INF };

/// Most move lists kept for re-entered nodes before the store is emptied (a list and its
/// entry take some 120 bytes: about 4 MiB at the cap).
const MOVE_LISTS_CAP: usize = 1 << 16;

/// Attacker moves allowed in the first pass (one non-four threat) of the VCT; every further
/// threat allowed adds [`MOVES_PER_THREAT`], up to the caller's limit. On the quintet set at
/// 0.7 s per board this solves one board more than full-depth passes (38 against 37), and
/// vct_game_black_l08_3 in 0.6 s instead of over 1 s.
const FIRST_PASS_MOVES: u32 = 10;
/// Attacker moves added with each further threat allowed. Long lines of fours between the
/// threats are common (vct_game_black_l17_1 needs 17 attacker moves with four threats; at
/// two moves a threat only the fifth pass has that many). Over the 44 quintet VCT boards
/// (a probe of the solver alone, 24 moves at most, vct_black_long left out: it takes longer):
/// 4.95 M nodes with two, 4.52 M with three, 4.28 M with four and 4.61 M with five;
/// vct_game_black_l11_3 takes 0.94 M with four against 1.20 M with three.
const MOVES_PER_THREAT: u32 = 4;

/// Most fours in the VCF that makes the root's quiet move a threat (a fukumi may need a
/// long one: vct_fukumi is lost with 2).
const ROOT_QUIET_THREAT_FOURS: u32 = 8;

/// Most fours in the VCF that makes a later quiet move a threat: 2, the quintet set's own
/// threat limit (a four, then an open four or a four-three). Longer ones multiply the
/// defences and rarely win sooner: the 38 vct_game boards take 4.74 M nodes against
/// 5.96 M with 3 and 6.18 M with 8.
const QUIET_THREAT_FOURS: u32 = 2;

/// Attacker moves after the first that may still be quiet VCF threats.
const QUIET_MOVES_AFTER_ROOT: u32 = 2;

/// The quiet-move budget at the root (and after fours and forced blocks alone).
const FULL_QUIET: u8 = QUIET_MOVES_AFTER_ROOT as u8 + 1;

/// Attacker moves a node must have left for its fours and forced blocks to keep the root's
/// quiet moves ([`Budget::after`]): the root of the passes with four threats or more.
const FORCING_OPENING_DEPTH: u32 = FIRST_PASS_MOVES + 3 * MOVES_PER_THREAT;

impl Numbers {
    fn solved(self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

impl Kind {
    /// Threats (non-four moves) left after this move, from `threats`.
    fn threats_left(self, threats: u8) -> u8 {
        match self {
            Kind::Four | Kind::Block | Kind::ThreatBlock => threats,
            Kind::Three | Kind::Quiet => threats - 1,
        }
    }

    /// Numbers of a defender node not searched yet.
    fn initial(self) -> Numbers {
        match self {
            Kind::Four | Kind::Block => Numbers { pn: 1, dn: 1 },
            // About as many replies as a three usually has; a quiet threat has dozens.
            Kind::Three | Kind::ThreatBlock => Numbers { pn: 3, dn: 1 },
            Kind::Quiet => Numbers { pn: 16, dn: 1 },
        }
    }
}

/// The moves of an expanded node that is not solved yet, kept for its next visit.
#[derive(Clone)]
pub(super) enum MoveList {
    Attack(Rc<[AttackMove]>),
    Defence(Rc<[Pos]>),
}

/// What a node may still spend: attacker moves, non-four threats, and attacker moves
/// that may still be quiet. More of each never loses a win: every move list grows with
/// them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Budget {
    depth: u8,
    threats: u8,
    quiet: u8,
}

impl Budget {
    /// True when a node with this budget can do all that one with `other` can: a win
    /// proved with `other` stands here, and a hold proved here stands with `other`.
    fn covers(self, other: Budget) -> bool {
        self.depth >= other.depth && self.threats >= other.threats && self.quiet >= other.quiet
    }

    /// The budget left after an attacker move of this kind. In the deep passes, fours and
    /// forced blocks played before the line's first threat spend no quiet move: such a
    /// chain leaves the tree as narrow as at the root, so the quiet moves allowed "among
    /// the first attacker moves" count from the first threat (vct_game_black_l14_1 opens
    /// with a four). The shorter passes, all that blitz games reach, keep the plain count:
    /// there the wider trees cost more than they find.
    fn after(self, kind: Kind) -> Budget {
        let forcing_opening = matches!(kind, Kind::Four | Kind::Block | Kind::ThreatBlock)
            && self.quiet == FULL_QUIET
            && u32::from(self.depth) >= FORCING_OPENING_DEPTH;
        Budget {
            depth: self.depth - 1,
            threats: kind.threats_left(self.threats),
            quiet: if forcing_opening {
                self.quiet
            } else {
                self.quiet.saturating_sub(1)
            },
        }
    }
}

/// The smallest budget a position is known won with and the largest it is known held
/// with, whatever the path to it: a transposition with more to spend reuses the win
/// (also from an earlier pass of the search), one with less the hold.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Settled {
    won: Option<Budget>,
    held: Option<Budget>,
}

/// Most positions in the settled table before it drops its holds (8 bytes an entry
/// besides the key).
const SETTLED_CAP: usize = 1 << 18;

/// A node: its key in the proof table (position, side to move and budget), the key of
/// its position alone in the settled table, and its budget.
#[derive(Clone, Copy, Debug)]
struct Node {
    key: u64,
    position: u64,
    budget: Budget,
}

impl Node {
    fn new(hash: u64, budget: Budget, attacker_to_move: bool) -> Node {
        let position = hash
            ^ if attacker_to_move {
                0x5654_4354_4f52_u64
            } else {
                0x5654_4354_414e_u64
            };
        let b = u64::from(budget.depth)
            | u64::from(budget.threats) << 8
            | u64::from(budget.quiet) << 16;
        Node {
            key: position ^ (b + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            position,
            budget,
        }
    }
}

/// The child threshold on the number being minimised: up to twice the runner-up's value
/// (the "1 + epsilon" rule: it spares many switches between siblings, each of which costs
/// a fresh move generation).
fn sibling_limit(limit: u32, second: u32) -> u32 {
    let second = second.min(INF);
    limit.min(second.saturating_mul(2).saturating_add(1).min(INF))
}

/// The child to search next at a node: the first one with the smallest `minimised`
/// number, the runner-up's value of it, and the sum of the children's `summed` numbers
/// (capped at INF). An OR node minimises proof numbers and sums disproof numbers; an AND
/// node the other way round.
struct Choice {
    best: usize,
    numbers: Numbers,
    second: u32,
    sum: u32,
}

impl Choice {
    fn of(
        children: impl Iterator<Item = Numbers>,
        minimised: impl Fn(Numbers) -> u32,
        summed: impl Fn(Numbers) -> u32,
    ) -> Choice {
        let mut c = Choice {
            best: 0,
            numbers: UNBOUNDED,
            second: INF,
            sum: 0,
        };
        let mut least = INF;
        for (i, n) in children.enumerate() {
            c.sum = c.sum.saturating_add(summed(n)).min(INF);
            let v = minimised(n);
            if v < least {
                c.second = least;
                least = v;
                c.best = i;
                c.numbers = n;
            } else if v < c.second {
                c.second = v;
            }
        }
        c
    }
}

/// The child threshold on the number being summed: what is left of the node's threshold
/// once the siblings' share is taken out (unbounded stays unbounded).
fn sum_limit(limit: u32, sum: u32, own: u32) -> u32 {
    if limit >= INF {
        INF
    } else {
        limit - sum + own
    }
}

impl ThreatSolver<'_> {
    /// Search a VCT for the attacker (who is to move). Returns the winning line (one
    /// defence per defender move; every other defence is refuted too) with at most
    /// `max_attacker_moves` attacker moves.
    pub fn vct(&mut self) -> Option<Vec<Pos>> {
        self.ticker.aborted = false;
        self.vcf.clear();
        self.vct.settled.clear();
        self.vct.move_lists.clear();
        if let Some(&five) = self.fives(self.attacker).first() {
            return Some(vec![five]);
        }
        self.vct_passes()
    }

    /// The VCT's passes, one more threat allowed in each.
    fn vct_passes(&mut self) -> Option<Vec<Pos>> {
        let their_fives = self.fives(self.attacker.opponent());
        // Deepen over the threats (non-four moves) allowed in a line: fours cost little (one
        // reply each) while every three multiplies the tree, so wins with few threes are
        // found long before a search with no such bound would find them.
        let max_depth = self.limits.max_attacker_moves.min(u32::from(u8::MAX));
        for threats in 1..=max_depth {
            // Short lines first: a pass with few threats also gets fewer moves (the defender's
            // delaying fours make deep trees costly long before they find anything).
            let depth = FIRST_PASS_MOVES
                .saturating_add(MOVES_PER_THREAT * (threats - 1))
                .min(max_depth);
            self.vct.root_depth = depth;
            let budget = Budget {
                depth: depth as u8,
                threats: threats as u8,
                quiet: FULL_QUIET,
            };
            // A pass's nodes are keyed by their budget, so the last pass's numbers are
            // seldom met again: drop them (its wins and holds stay in the settled table).
            self.vct.proof.clear();
            self.vct.loose_wins.clear();
            let root = self.attack_node(budget, &their_fives, UNBOUNDED);
            log::debug!(
                "vct pass threats {threats} depth {depth}: pn {} dn {} nodes {}",
                root.pn,
                root.dn,
                self.nodes()
            );
            if self.ticker.aborted {
                return None;
            }
            if root.pn == 0 {
                // Building the line runs the VCF at its leaves, which can run out too.
                return self.attack_line(budget, &their_fives);
            }
        }
        None
    }

    /// A node's numbers: from the proof table, else from a win or hold of its position
    /// under a budget this one covers or is covered by, else `unknown`.
    fn numbers(&self, node: &Node, unknown: Numbers) -> Numbers {
        let exact = self.vct.proof.get(&node.key).copied();
        if exact.is_some_and(Numbers::solved) {
            return exact.unwrap_or(unknown);
        }
        if let Some(s) = self.vct.settled.get(&node.position) {
            if s.won.is_some_and(|b| node.budget.covers(b)) {
                return PROVED;
            }
            if s.held.is_some_and(|b| b.covers(node.budget)) {
                return DISPROVED;
            }
        }
        exact.unwrap_or(unknown)
    }

    /// The budget a node's win was proved with (its own, or a smaller one of its
    /// position), if it was.
    fn won_with(&self, node: &Node) -> Option<Budget> {
        if self.vct.proof.get(&node.key).is_some_and(|n| n.pn == 0) {
            return Some(node.budget);
        }
        let won = self.vct.settled.get(&node.position)?.won?;
        node.budget.covers(won).then_some(won)
    }

    fn remember(&mut self, node: &Node, numbers: Numbers) -> Numbers {
        if self.ticker.aborted && numbers.dn == 0 {
            // A search cut short reads as "no win" (an unfinished VCF under a defender
            // node, say): a disproof now may be false, so it stays out of the tables.
            // Proofs stand: every win found is a real one.
            return numbers;
        }
        if self.vct.proof.len() >= TABLE_CAP {
            // The settled table answers for the solved nodes but the loose wins (see
            // `settle`), which the line is read back from: keep those.
            self.vct.proof.clear();
            self.vct.generation += 1;
            for &key in &self.vct.loose_wins {
                self.vct.proof.insert(key, PROVED);
            }
        }
        // Solved nodes stay here as well: the exact entry answers for this budget even
        // when the settled table later drops its holds.
        self.vct.proof.insert(node.key, numbers);
        if numbers.solved() && !self.settle(node, numbers.pn == 0) && numbers.pn == 0 {
            self.vct.loose_wins.push(node.key);
            if self.vct.loose_wins.len() >= TABLE_CAP / 2 {
                self.ticker.aborted = true;
            }
        }
        numbers
    }

    /// Record a solved node's budget with its position. A win's budget is only ever
    /// lowered and a hold's raised, so a node once answered by the table stays answered.
    /// False when the table does not answer for this node: a win (a hold) whose budget is
    /// neither larger nor smaller than the one kept (a loose win), or a full table.
    fn settle(&mut self, node: &Node, won: bool) -> bool {
        if self.vct.settled.len() >= SETTLED_CAP && !self.vct.settled.contains_key(&node.position) {
            // A hold forgotten costs a search again; a win forgotten could cost the line.
            self.vct.settled.retain(|_, s| {
                s.held = None;
                s.won.is_some()
            });
            self.vct.generation += 1;
            if self.vct.settled.len() >= SETTLED_CAP / 2 {
                self.ticker.aborted = true;
                return false;
            }
        }
        let b = node.budget;
        let s = self.vct.settled.entry(node.position).or_default();
        if won {
            if s.won.is_none_or(|old| old.covers(b)) {
                s.won = Some(b);
            }
            s.won.is_some_and(|w| b.covers(w))
        } else {
            if s.held.is_none_or(|old| b.covers(old)) {
                s.held = Some(b);
            }
            s.held.is_some_and(|h| h.covers(b))
        }
    }

    /// Look up all of a node's children again (their numbers at `base..` of
    /// `child_numbers`) on the loop's first round and after a table lost entries since
    /// `generation`; otherwise they are as the last round left them.
    fn refresh_children(
        &mut self,
        base: usize,
        generation: &mut Option<u64>,
        look_up: &impl Fn(&Self, usize) -> Numbers,
    ) {
        if *generation == Some(self.vct.generation) {
            return;
        }
        *generation = Some(self.vct.generation);
        for i in 0..self.vct.child_numbers.len() - base {
            self.vct.child_numbers[base + i] = look_up(self, i);
        }
    }

    /// Keep a node's move list for its next visit.
    fn keep_moves(&mut self, key: u64, moves: MoveList) {
        if self.vct.move_lists.len() >= MOVE_LISTS_CAP {
            self.vct.move_lists.clear();
        }
        self.vct.move_lists.insert(key, moves);
    }

    /// Attacker to move with `budget` left, facing the defender's fives `their_fives`.
    fn attack_node(&mut self, budget: Budget, their_fives: &[Pos], limit: Numbers) -> Numbers {
        let node = Node::new(self.board.hash(), budget, true);
        if self.tick() {
            return self.numbers(&node, UNKNOWN);
        }
        if budget.threats == 0 && their_fives.is_empty() {
            // Only fours are left: the VCF search (depth-first with its failure table)
            // settles such nodes far faster than proof numbers over the same tree.
            let won = self.vcf_attack(budget.depth.into(), their_fives).is_some();
            if self.ticker.aborted {
                return UNKNOWN;
            }
            return self.remember(&node, if won { PROVED } else { DISPROVED });
        }
        let Some(scope) = self.attack_scope(budget) else {
            return self.remember(&node, DISPROVED);
        };
        let list_key = node.position ^ scope.key();
        let moves = match self.vct.move_lists.get(&list_key) {
            Some(MoveList::Attack(moves)) => moves.clone(),
            _ => {
                let moves: Rc<[AttackMove]> = self.attack_moves(scope, their_fives).into();
                if moves.is_empty() {
                    return self.remember(&node, DISPROVED);
                }
                self.keep_moves(list_key, MoveList::Attack(moves.clone()));
                moves
            }
        };
        let a = self.attacker;
        let hash = self.board.hash();
        // Children's keys are made when needed: a few operations, against an allocation on
        // every visit of the node.
        let child = |i: usize| {
            let m = moves[i];
            Node::new(hash ^ zobrist_stone(a, m.pos), budget.after(m.kind), false)
        };
        // Every child from the tables on every visit: the search below another node often
        // settles one by transposition. Within this loop only the child just searched can
        // change (its subtree holds more stones than its siblings), unless a table was
        // emptied: so the others are looked up again only then.
        let look_up = |s: &Self, i: usize| s.numbers(&child(i), moves[i].kind.initial());
        let base = self.vct.child_numbers.len();
        self.vct.child_numbers.resize(base + moves.len(), UNKNOWN);
        let mut generation = None;
        loop {
            self.refresh_children(base, &mut generation, &look_up);
            let numbers = &self.vct.child_numbers[base..];
            // The attacker needs one winning move: the smallest proof number.
            let c = Choice::of(numbers.iter().copied(), |n| n.pn, |n| n.dn);
            let here = Numbers {
                pn: c.numbers.pn,
                dn: c.sum,
            };
            if here.pn >= limit.pn || here.dn >= limit.dn || self.ticker.aborted {
                self.vct.child_numbers.truncate(base);
                return self.remember(&node, here);
            }
            let child_limit = Numbers {
                pn: sibling_limit(limit.pn, c.second),
                dn: sum_limit(limit.dn, c.sum, c.numbers.dn),
            };
            let pos = moves[c.best].pos;
            self.play(pos, a);
            self.defence_node(child(c.best).budget, pos, child_limit);
            self.undo(pos);
            self.vct.child_numbers[base + c.best] = look_up(self, c.best);
        }
    }

    /// Defender to move after the attacker's move at `last`, with `budget` left to the
    /// attacker after it.
    fn defence_node(&mut self, budget: Budget, last: Pos, limit: Numbers) -> Numbers {
        let node = Node::new(self.board.hash(), budget, false);
        if self.tick() {
            return self.numbers(&node, UNKNOWN);
        }
        let quiet_fours = self.quiet_threat_fours(budget.depth.into());
        // The defences read nothing else of the budget: one list serves every budget
        // with these fours, in every pass.
        let list_key =
            node.position ^ (u64::from(quiet_fours) + 1).wrapping_mul(0xd6e8_feb8_6659_fd93);
        let replies = match self.vct.move_lists.get(&list_key) {
            Some(MoveList::Defence(replies)) => replies.clone(),
            _ => {
                let replies: Rc<[Pos]> = match self.defences(quiet_fours, last) {
                    Defences::Lost(_) => return self.remember(&node, PROVED),
                    Defences::NoThreat => return self.remember(&node, DISPROVED),
                    Defences::Replies { replies, refuted } => {
                        if replies.is_empty() {
                            let n = if refuted.is_some() { PROVED } else { DISPROVED };
                            return self.remember(&node, n);
                        }
                        replies.into()
                    }
                };
                self.keep_moves(list_key, MoveList::Defence(replies.clone()));
                replies
            }
        };
        let d = self.attacker.opponent();
        let hash = self.board.hash();
        let child = |i: usize| Node::new(hash ^ zobrist_stone(d, replies[i]), budget, true);
        // As at the attacker's nodes: only the child searched changes, barring a table
        // emptied.
        let look_up = |s: &Self, i: usize| s.numbers(&child(i), UNKNOWN);
        let base = self.vct.child_numbers.len();
        self.vct.child_numbers.resize(base + replies.len(), UNKNOWN);
        let mut generation = None;
        loop {
            self.refresh_children(base, &mut generation, &look_up);
            let numbers = &self.vct.child_numbers[base..];
            // The defender needs one holding reply: the smallest disproof number.
            let c = Choice::of(numbers.iter().copied(), |n| n.dn, |n| n.pn);
            let here = Numbers {
                pn: c.sum,
                dn: c.numbers.dn,
            };
            if here.pn >= limit.pn || here.dn >= limit.dn || self.ticker.aborted {
                self.vct.child_numbers.truncate(base);
                return self.remember(&node, here);
            }
            let child_limit = Numbers {
                pn: sum_limit(limit.pn, c.sum, c.numbers.pn),
                dn: sibling_limit(limit.dn, c.second),
            };
            let q = replies[c.best];
            self.play(q, d);
            let their_fives = self.fives_through(q, d);
            self.attack_node(budget, &their_fives, child_limit);
            self.undo(q);
            self.vct.child_numbers[base + c.best] = look_up(self, c.best);
        }
    }

    /// The winning line from an attacker node won with `budget`: the first move proved
    /// to win, then the line below it.
    fn attack_line(&mut self, budget: Budget, their_fives: &[Pos]) -> Option<Vec<Pos>> {
        if budget.threats == 0 && their_fives.is_empty() {
            return self.vcf_attack(budget.depth.into(), their_fives);
        }
        let a = self.attacker;
        let hash = self.board.hash();
        let scope = self.attack_scope(budget)?;
        for m in self.attack_moves(scope, their_fives) {
            let child = Node::new(hash ^ zobrist_stone(a, m.pos), budget.after(m.kind), false);
            if let Some(won) = self.won_with(&child) {
                self.play(m.pos, a);
                let rest = self.defence_line(won, m.pos);
                self.undo(m.pos);
                let mut line = vec![m.pos];
                line.extend(rest?);
                return Some(line);
            }
        }
        None
    }

    /// The winning line from a defender node won with `budget`, following its first
    /// defence.
    fn defence_line(&mut self, budget: Budget, last: Pos) -> Option<Vec<Pos>> {
        let quiet_fours = self.quiet_threat_fours(budget.depth.into());
        match self.defences(quiet_fours, last) {
            Defences::Lost(line) => Some(line),
            Defences::NoThreat => None,
            Defences::Replies { replies, refuted } => match replies.first() {
                Some(&q) => {
                    let d = self.attacker.opponent();
                    self.play(q, d);
                    let their_fives = self.fives_through(q, d);
                    let child = Node::new(self.board.hash(), budget, true);
                    let rest = self
                        .won_with(&child)
                        .and_then(|won| self.attack_line(won, &their_fives));
                    self.undo(q);
                    let mut line = vec![q];
                    line.extend(rest?);
                    Some(line)
                }
                None => refuted.map(|(q, vcf)| {
                    let mut line = vec![q];
                    line.extend(vcf);
                    line
                }),
            },
        }
    }

    /// What the attacker's move generation reads of a node's budget: None when no
    /// attacker move is left. Nodes of one position and one scope have one move list,
    /// whatever their budgets, so the list is kept by scope, across the passes.
    fn attack_scope(&self, budget: Budget) -> Option<AttackScope> {
        let depth = u32::from(budget.depth);
        if depth == 0 {
            return None;
        }
        let threats = budget.threats >= 1;
        Some(AttackScope {
            threats,
            // Quiet moves only among the first attacker moves: deeper they cost far more
            // than they find.
            quiet: depth >= 2 && threats && budget.quiet >= 1,
            root: depth == self.vct.root_depth,
        })
    }

    /// The most fours of the VCF that makes a quiet attacker move a threat, with `depth`
    /// attacker moves left after it: the only part of a defender node's budget its
    /// defences read.
    fn quiet_threat_fours(&self, depth: u32) -> u32 {
        let fours = if depth + 1 == self.vct.root_depth {
            ROOT_QUIET_THREAT_FOURS
        } else {
            QUIET_THREAT_FOURS
        };
        depth.min(fours)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::geometry::{candidate_rows, row_squares};
    use crate::board::{Board, Color};
    use crate::rules::Rule;
    use crate::search::threat::ThreatLimits;

    fn budget(depth: u8, threats: u8, quiet: u8) -> Budget {
        Budget {
            depth,
            threats,
            quiet,
        }
    }

    #[test]
    fn budgets_cover_smaller_ones_and_moves_spend_them() {
        let b = budget(12, 3, 2);
        assert!(b.covers(b));
        assert!(b.covers(budget(11, 3, 2)));
        assert!(b.covers(budget(12, 2, 0)));
        assert!(
            !b.covers(budget(13, 1, 0)),
            "more moves left is not covered"
        );
        assert!(
            !b.covers(budget(10, 4, 0)),
            "more threats left is not covered"
        );
        assert!(
            !budget(12, 3, 0).covers(b),
            "more quiet moves left is not covered"
        );
        // Fours and forced blocks (whether they make a three or not) spend a move only;
        // threes and quiet moves a threat too.
        assert_eq!(b.after(Kind::Four), budget(11, 3, 1));
        assert_eq!(b.after(Kind::Block), budget(11, 3, 1));
        assert_eq!(b.after(Kind::ThreatBlock), budget(11, 3, 1));
        assert_eq!(b.after(Kind::Three), budget(11, 2, 1));
        assert_eq!(budget(5, 1, 0).after(Kind::Quiet), budget(4, 0, 0));
        // In the deep passes, fours and blocks before the first threat keep the root's
        // quiet moves; not in the short ones.
        let deep = FORCING_OPENING_DEPTH as u8;
        let root = budget(deep, 3, FULL_QUIET);
        assert_eq!(root.after(Kind::Four), root.after(Kind::Block));
        assert_eq!(root.after(Kind::Four), root.after(Kind::ThreatBlock));
        assert_eq!(root.after(Kind::Four), budget(deep - 1, 3, FULL_QUIET));
        assert_eq!(root.after(Kind::Three), budget(deep - 1, 2, FULL_QUIET - 1));
        assert_eq!(
            root.after(Kind::Four).after(Kind::Quiet).after(Kind::Four),
            budget(deep - 3, 2, FULL_QUIET - 2)
        );
        let short = budget(deep - 1, 3, FULL_QUIET);
        assert_eq!(short.after(Kind::Four), budget(deep - 2, 3, FULL_QUIET - 1));
    }

    #[test]
    fn settled_positions_answer_for_covering_and_covered_budgets() {
        let board = Board::new(15, 15).unwrap();
        let limits = ThreatLimits {
            max_attacker_moves: 16,
            max_nodes: u64::MAX,
        };
        let mut s = ThreatSolver::new(&board, Rule::Freestyle, Color::Black, limits);
        let hash = 0x1234_5678_9abc_def0;
        let node = |b: Budget| Node::new(hash, b, true);

        // A win with (10, 2, 1): every budget with at least as much of each is won.
        s.remember(&node(budget(10, 2, 1)), PROVED);
        assert_eq!(s.numbers(&node(budget(14, 3, 1)), UNKNOWN), PROVED);
        assert_eq!(s.numbers(&node(budget(9, 2, 1)), UNKNOWN), UNKNOWN);
        assert_eq!(s.numbers(&node(budget(14, 1, 1)), UNKNOWN), UNKNOWN);
        assert_eq!(s.won_with(&node(budget(14, 3, 2))), Some(budget(10, 2, 1)));
        // A later win with a larger budget does not replace the smaller one.
        s.remember(&node(budget(12, 2, 1)), PROVED);
        assert_eq!(s.won_with(&node(budget(11, 2, 1))), Some(budget(10, 2, 1)));
        // Nor does emptying the proof table lose it.
        s.vct.proof.clear();
        assert_eq!(s.numbers(&node(budget(10, 2, 1)), UNKNOWN), PROVED);

        // A win under a budget neither smaller nor larger than the kept one is loose: the
        // settled table does not answer for it, and it outlives the proof table filling.
        let loose = node(budget(8, 4, 1));
        s.remember(&loose, PROVED);
        assert_eq!(s.won_with(&loose), Some(budget(8, 4, 1)));
        for i in 0..TABLE_CAP as u64 {
            s.remember(&Node::new(i, budget(3, 1, 0), false), UNKNOWN);
        }
        assert!(s.vct.proof.len() < TABLE_CAP, "the proof table was emptied");
        assert_eq!(s.won_with(&loose), Some(budget(8, 4, 1)));
        assert!(!s.aborted());

        // The other side to move is another node.
        let defender = Node::new(hash, budget(14, 3, 1), false);
        assert_eq!(s.numbers(&defender, UNKNOWN), UNKNOWN);

        // A hold with (8, 4, 2): every budget with at most as much of each is held.
        let other = |b: Budget| Node::new(hash ^ 1, b, true);
        s.remember(&other(budget(8, 4, 2)), DISPROVED);
        assert_eq!(s.numbers(&other(budget(6, 1, 0)), UNKNOWN), DISPROVED);
        assert_eq!(s.numbers(&other(budget(9, 1, 0)), UNKNOWN), UNKNOWN);
        // A later hold with a smaller budget does not replace the larger one.
        s.remember(&other(budget(7, 4, 2)), DISPROVED);
        s.vct.proof.clear();
        assert_eq!(s.numbers(&other(budget(8, 4, 2)), UNKNOWN), DISPROVED);
    }

    /// A freestyle board with Black's four-three at H8 (x 7, y 7): the four E8-H8 closed
    /// by White at D8, its block at I8 (x 8, y 7); the three H8 H7 H6. `column_i` gives
    /// I7, I6, I5 and I4 (x 8, y 8 to 11).
    fn four_three_board(column_i: [char; 4]) -> Board {
        let mut rows = vec!["...............".to_string(); 15];
        rows[7] = "...OXXX........".to_string();
        for (k, c) in column_i.iter().enumerate() {
            let mut row: Vec<char> = rows[8 + k].chars().collect();
            if k < 2 {
                row[7] = 'X';
            }
            row[8] = *c;
            rows[8 + k] = row.into_iter().collect();
        }
        Board::from_ascii(&rows.join("\n")).unwrap()
    }

    fn solver(board: &Board) -> ThreatSolver<'static> {
        let limits = ThreatLimits {
            max_attacker_moves: 16,
            max_nodes: u64::MAX,
        };
        ThreatSolver::new(board, Rule::Freestyle, Color::Black, limits)
    }

    /// Black's double three at G9 (x 6, y 8): the columns G7-G8 and the row H9-I9. With
    /// `white_three`, White also has an open three B3-D3 (a VCF of two fours).
    fn double_three_board(white_three: bool) -> Board {
        let mut rows = vec!["...............".to_string(); 15];
        if white_three {
            rows[2] = ".OOO...........".to_string();
        }
        rows[6] = "......X........".to_string();
        rows[7] = "......X........".to_string();
        rows[8] = ".......XX......".to_string();
        rows[12] = ".........O.O...".to_string();
        Board::from_ascii(&rows.join("\n")).unwrap()
    }

    #[test]
    fn a_defender_who_wins_by_fours_holds_against_a_three() {
        let g9 = Pos::new(6, 8);
        // Alone, the double three wins.
        let board = double_three_board(false);
        let line = solver(&board).vct().expect("the double three wins");
        assert!(
            crate::search::threat::replay_is_win(&board, Rule::Freestyle, Color::Black, &line),
            "{line:?}"
        );
        // With White's open three, White's own fours come first: the double three threatens
        // nothing, and Black has no VCT at all.
        let board = double_three_board(true);
        let mut s = solver(&board);
        s.play(g9, Color::Black);
        assert!(matches!(
            s.defences(s.quiet_threat_fours(16), g9),
            Defences::NoThreat
        ));
        s.undo(g9);
        assert_eq!(s.vct(), None);
        assert!(!s.aborted());
    }

    /// Every square the defences leave out after a three loses: the attacker then wins
    /// by fours (an open four, a four-three's two fours, or a quiet threat's VCF line).
    /// Checked for every three the attacker has in `board`, over every legal defender
    /// square near the stones.
    fn left_out_squares_lose(board: &Board, rule: Rule, attacker: Color) -> usize {
        let limits = ThreatLimits {
            max_attacker_moves: 10,
            max_nodes: u64::MAX,
        };
        let mut s = ThreatSolver::new(board, rule, attacker, limits);
        s.vct.root_depth = 10;
        let d = attacker.opponent();
        if !s.fives(attacker).is_empty() || !s.fives(d).is_empty() {
            return 0;
        }
        let moves = s.attack_moves(s.attack_scope(budget(10, 2, FULL_QUIET)).unwrap(), &[]);
        let mut checked = 0;
        for m in moves.iter().filter(|m| m.kind == Kind::Three) {
            s.play(m.pos, attacker);
            if let Defences::Replies { replies, .. } = s.defences(s.quiet_threat_fours(9), m.pos) {
                let rows = candidate_rows(&s.board);
                for q in row_squares(&rows, s.board.height()) {
                    if replies.contains(&q) || s.forbidden(q, d) {
                        continue;
                    }
                    s.play(q, d);
                    s.vcf.clear();
                    let won = s.vcf_attack(ROOT_QUIET_THREAT_FOURS, &[]).is_some();
                    s.undo(q);
                    assert!(
                        won,
                        "after the three at {:?} the left-out reply {q:?} holds\n{}",
                        m.pos,
                        s.board.to_ascii()
                    );
                    checked += 1;
                }
            }
            s.undo(m.pos);
        }
        checked
    }

    #[test]
    fn defences_against_threes_leave_out_only_losing_squares() {
        // Black's split three on the H column (White caps it above) crossing Black's
        // diagonal three at H6: Black's threes have follow-ups on more than one line.
        // (White, with one stone, has none: its runs check nothing.)
        let board = Board::from_ascii(
            "...............
             ...............
             ...............
             ...............
             ...............
             .......O.......
             .......X.......
             .....X.X.......
             ......X........
             .......X.......
             ...............
             ...............
             ...............
             ...............
             ...............",
        )
        .unwrap();
        let mut checked = 0;
        for rule in [Rule::Freestyle, Rule::Renju] {
            for attacker in Color::BOTH {
                checked += left_out_squares_lose(&board, rule, attacker);
            }
        }
        assert!(checked > 100, "only {checked} squares checked");
    }

    /// The same over the quintet set's renju boards (skipped without the test data,
    /// unless `RENSA_REQUIRE_TESTDATA` is set).
    #[test]
    fn defences_on_the_quintet_boards_leave_out_only_losing_squares() {
        let Some(cases) = crate::quintet::load_for_tests() else {
            return;
        };
        let checked: usize = cases
            .iter()
            .map(|c| left_out_squares_lose(&c.board, Rule::Renju, c.attacker))
            .sum();
        assert!(checked > 1_000, "only {checked} squares checked");
    }

    #[test]
    fn a_four_three_whose_block_makes_a_four_is_no_sure_threat() {
        let f = Pos::new(7, 7);
        // Nothing of White's near the block: a sure threat with no further defences.
        let board = four_three_board(['.', '.', '.', '.']);
        assert_eq!(solver(&board).four_three_defences(f), Some(Vec::new()));
        // White I7 I6 I5 (Black I4 closes them): blocking at I8 makes White a four, so
        // the four-three is no threat a quiet reply must stop.
        let board = four_three_board(['O', 'O', 'O', 'X']);
        assert_eq!(solver(&board).four_three_defences(f), None);
        // White I6 I5 only: one more White stone (at I7) would make the block a four, so
        // that square is a defence too.
        let board = four_three_board(['.', 'O', 'O', 'X']);
        let extra = solver(&board).four_three_defences(f).unwrap();
        assert!(extra.contains(&Pos::new(8, 8)), "{extra:?}");
        assert!(
            extra.iter().all(|q| q.x() == 8),
            "only the block's column: {extra:?}"
        );
    }
}
