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

use super::{may_threaten_vcf, ThreatSolver};
use crate::board::geometry::{
    aligned_along, candidate_rows, line_neighbours, line_squares_within, row_squares,
};
use crate::board::{zobrist_stone, Cell, Direction, Pos};
use crate::pattern::{Pattern, PatternCounts, Threat};
use crate::search::vcf::VcfBoard;
use std::rc::Rc;

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

/// Most fours in the defender's own VCF looked for at a defender node. Short looks pay:
/// on vct_game_black_l11_3 a limit of 4 took 1.78 M nodes against 2.43 M with none,
/// and deeper looks (8, 16) about 2.3 M (the VCT's VCF nodes count too). With defences
/// that must stop every follow-up and short quiet threats (below), 3 fours solve the 38
/// vct_game boards in 4.74 M nodes against 5.26 M with 4.
const DEFENDER_VCF_FOURS: u32 = 3;

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

/// What an attacker move does; sets how hopeful the unexplored defender node after it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A four: one reply.
    Four,
    /// An open three (or a stronger non-four threat).
    Three,
    /// A quiet move that threatens a VCF: many replies.
    Quiet,
    /// The forced block of a defender's four that makes no threat itself.
    Block,
    /// The forced block of a defender's four that makes a threat of its own (a three or a
    /// quiet threat, not a four). Forced, it spends no threat: the same block is a free
    /// `Block` when no threats are left, and the budget must not depend on which it is.
    ThreatBlock,
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

#[derive(Clone, Copy, Debug)]
pub(super) struct AttackMove {
    pos: Pos,
    kind: Kind,
}

/// What an attacker node's move list depends on besides its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct AttackScope {
    /// Non-four threats (threes) are still allowed.
    threats: bool,
    /// Quiet moves that may threaten a VCF are allowed.
    quiet: bool,
    /// The root, where quieter moves are tried too.
    root: bool,
}

impl AttackScope {
    /// A key to mix with a position's, for the move-list store.
    fn key(self) -> u64 {
        let bits = u64::from(self.threats) | u64::from(self.quiet) << 1 | u64::from(self.root) << 2;
        (bits + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0xa076_1d64_78bd_642f
    }
}

/// The moves of an expanded node that is not solved yet, kept for its next visit.
#[derive(Clone)]
pub(super) enum MoveList {
    Attack(Rc<[AttackMove]>),
    Defence(Rc<[Pos]>),
}

/// The defender's options after an attacker move.
enum Defences {
    /// Nothing stops the attacker's five: the defender's move and the five.
    Lost(Vec<Pos>),
    /// The attacker's move threatens nothing the solver can see.
    NoThreat,
    /// Replies to search. `refuted` is the first legal reply beaten by the quiet move's VCF
    /// line without a search, with that line (such replies are not in `replies`).
    Replies {
        replies: Vec<Pos>,
        refuted: Option<(Pos, Vec<Pos>)>,
    },
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

/// A winning follow-up the attacker threatens after a non-four move: an open four (or
/// two fours) or a four-three at `pos`.
struct FollowUp {
    pos: Pos,
    /// The directions (bit `i` for `Direction::ALL[i]`) of the lines it wins on: its
    /// fours, and for a four-three its three too.
    lines: u8,
    /// Squares off those lines where a defender stone would turn the four-three's forced
    /// block into a four (see [`ThreatSolver::four_three_defences`]).
    extra: Vec<Pos>,
}

impl FollowUp {
    fn new(solver: &ThreatSolver<'_>, pos: Pos, threat: Threat, extra: Vec<Pos>) -> FollowUp {
        let least = if threat >= Threat::OpenFour {
            Pattern::B4
        } else {
            Pattern::B3
        };
        let patterns = VcfBoard::patterns(&solver.board, pos, solver.attacker);
        let lines = patterns
            .iter()
            .enumerate()
            .filter(|(_, &p)| p >= least)
            .fold(0u8, |m, (i, _)| m | 1 << i);
        FollowUp { pos, lines, extra }
    }

    /// Can a defender stone at `q` stop this follow-up? Only on its winning lines, within
    /// reach of their patterns (five cells: a renju five must not be an overline), or on
    /// one of its extra squares. Elsewhere a stone changes none of the patterns it wins
    /// with, and makes no fours or fives of the attacker's (renju's rule that a three is
    /// real only where its four may be played would let a far stone turn a false three
    /// through `pos` into a real one and so make `pos` a double three: like the rest of
    /// the solver's move rules, this ignores such cascades).
    fn stopped_by(&self, q: Pos) -> bool {
        aligned_along(self.pos, q, self.lines, 5) || self.extra.contains(&q)
    }
}

impl ThreatSolver<'_> {
    /// Search a VCT for the attacker (who is to move). Returns the winning line (one
    /// defence per defender move; every other defence is refuted too) with at most
    /// `max_attacker_moves` attacker moves.
    pub fn vct(&mut self) -> Option<Vec<Pos>> {
        self.ticker.aborted = false;
        self.vcf.clear();
        self.settled.clear();
        self.move_lists.clear();
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
            self.root_depth = depth;
            let budget = Budget {
                depth: depth as u8,
                threats: threats as u8,
                quiet: FULL_QUIET,
            };
            // A pass's nodes are keyed by their budget, so the last pass's numbers are
            // seldom met again: drop them (its wins and holds stay in the settled table).
            self.proof.clear();
            self.loose_wins.clear();
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
        let exact = self.proof.get(&node.key).copied();
        if exact.is_some_and(Numbers::solved) {
            return exact.unwrap_or(unknown);
        }
        if let Some(s) = self.settled.get(&node.position) {
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
        if self.proof.get(&node.key).is_some_and(|n| n.pn == 0) {
            return Some(node.budget);
        }
        let won = self.settled.get(&node.position)?.won?;
        node.budget.covers(won).then_some(won)
    }

    fn remember(&mut self, node: &Node, numbers: Numbers) -> Numbers {
        if self.ticker.aborted && numbers.dn == 0 {
            // A search cut short reads as "no win" (an unfinished VCF under a defender
            // node, say): a disproof now may be false, so it stays out of the tables.
            // Proofs stand: every win found is a real one.
            return numbers;
        }
        if self.proof.len() >= TABLE_CAP {
            // The settled table answers for the solved nodes but the loose wins (see
            // `settle`), which the line is read back from: keep those.
            self.proof.clear();
            self.generation += 1;
            for &key in &self.loose_wins {
                self.proof.insert(key, PROVED);
            }
        }
        // Solved nodes stay here as well: the exact entry answers for this budget even
        // when the settled table later drops its holds.
        self.proof.insert(node.key, numbers);
        if numbers.solved() && !self.settle(node, numbers.pn == 0) && numbers.pn == 0 {
            self.loose_wins.push(node.key);
            if self.loose_wins.len() >= TABLE_CAP / 2 {
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
        if self.settled.len() >= SETTLED_CAP && !self.settled.contains_key(&node.position) {
            // A hold forgotten costs a search again; a win forgotten could cost the line.
            self.settled.retain(|_, s| {
                s.held = None;
                s.won.is_some()
            });
            self.generation += 1;
            if self.settled.len() >= SETTLED_CAP / 2 {
                self.ticker.aborted = true;
                return false;
            }
        }
        let b = node.budget;
        let s = self.settled.entry(node.position).or_default();
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
        if *generation == Some(self.generation) {
            return;
        }
        *generation = Some(self.generation);
        for i in 0..self.child_numbers.len() - base {
            self.child_numbers[base + i] = look_up(self, i);
        }
    }

    /// Keep a node's move list for its next visit.
    fn keep_moves(&mut self, key: u64, moves: MoveList) {
        if self.move_lists.len() >= MOVE_LISTS_CAP {
            self.move_lists.clear();
        }
        self.move_lists.insert(key, moves);
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
        let moves = match self.move_lists.get(&list_key) {
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
        let base = self.child_numbers.len();
        self.child_numbers.resize(base + moves.len(), UNKNOWN);
        let mut generation = None;
        loop {
            self.refresh_children(base, &mut generation, &look_up);
            let numbers = &self.child_numbers[base..];
            // The attacker needs one winning move: the smallest proof number.
            let c = Choice::of(numbers.iter().copied(), |n| n.pn, |n| n.dn);
            let here = Numbers {
                pn: c.numbers.pn,
                dn: c.sum,
            };
            if here.pn >= limit.pn || here.dn >= limit.dn || self.ticker.aborted {
                self.child_numbers.truncate(base);
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
            self.child_numbers[base + c.best] = look_up(self, c.best);
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
        let replies = match self.move_lists.get(&list_key) {
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
        let base = self.child_numbers.len();
        self.child_numbers.resize(base + replies.len(), UNKNOWN);
        let mut generation = None;
        loop {
            self.refresh_children(base, &mut generation, &look_up);
            let numbers = &self.child_numbers[base..];
            // The defender needs one holding reply: the smallest disproof number.
            let c = Choice::of(numbers.iter().copied(), |n| n.dn, |n| n.pn);
            let here = Numbers {
                pn: c.sum,
                dn: c.numbers.dn,
            };
            if here.pn >= limit.pn || here.dn >= limit.dn || self.ticker.aborted {
                self.child_numbers.truncate(base);
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
            self.child_numbers[base + c.best] = look_up(self, c.best);
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
            root: depth == self.root_depth,
        })
    }

    /// The attacker's moves within `scope`, facing the defender's fives `their_fives`:
    /// fours, threes and (with room for a follow-up) quiet moves that may threaten a VCF,
    /// strongest first; against a five only its block. Empty when the attacker cannot
    /// stop the defender's fives.
    fn attack_moves(&mut self, scope: AttackScope, their_fives: &[Pos]) -> Vec<AttackMove> {
        let a = self.attacker;
        if their_fives.len() >= 2 {
            return Vec::new();
        }
        let AttackScope {
            threats,
            quiet,
            root,
        } = scope;
        // At the root any move that builds on a line may be quiet (a fukumi's first move
        // can be as quiet as a lone two).
        let min_own = if quiet {
            1
        } else if threats {
            2
        } else {
            3
        };
        let keep = |c: &PatternCounts| {
            c.f4 + c.b4 > 0
                || (threats && c.threat() >= Threat::Three)
                || (quiet && (may_threaten_vcf(c) || (root && c.f2 + c.b3 >= 1)))
        };
        let mut spots = self.spots_at(a, their_fives.first().copied(), min_own, keep);
        if let Some(&must) = their_fives.first() {
            if spots.is_empty() {
                // Forced to block with a non-threat: worth it only if a threat already
                // made still stands afterwards (the defender node finds out).
                if self.forbidden(must, a) {
                    return Vec::new();
                }
                return vec![AttackMove {
                    pos: must,
                    kind: Kind::Block,
                }];
            }
        }
        // Strongest threats first (quiet moves last), then the moves that build the most
        // on their lines; ties by square.
        spots.sort_by_key(|s| {
            let c = &s.counts;
            let potential =
                4 * u32::from(c.b4) + 3 * u32::from(c.f3) + 2 * u32::from(c.b3) + u32::from(c.f2);
            (
                std::cmp::Reverse(c.threat()),
                std::cmp::Reverse(potential),
                s.pos,
            )
        });
        let mut moves = Vec::with_capacity(spots.len());
        for s in spots {
            if self.spot_forbidden(&s, a) {
                continue;
            }
            let kind = if s.counts.f4 + s.counts.b4 > 0 {
                Kind::Four
            } else if !their_fives.is_empty() {
                Kind::ThreatBlock
            } else if s.counts.threat() >= Threat::Three {
                Kind::Three
            } else {
                Kind::Quiet
            };
            moves.push(AttackMove { pos: s.pos, kind });
        }
        moves
    }

    /// The defender's options after the attacker's move at `last` (the defender has no
    /// five: the attacker node answered any); a quiet move threatens a VCF of at most
    /// `quiet_fours` fours (see [`Self::quiet_threat_fours`]).
    fn defences(&mut self, quiet_fours: u32, last: Pos) -> Defences {
        let a = self.attacker;
        let d = a.opponent();
        let completions = self.fives_through(last, a);
        if !completions.is_empty() {
            let blocks = self.five_defences(&completions);
            if blocks.is_empty() {
                return match self.unstoppable(&completions) {
                    Some(line) => Defences::Lost(line),
                    None => Defences::NoThreat,
                };
            }
            return Defences::Replies {
                replies: blocks.to_vec(),
                refuted: None,
            };
        }
        // No four: a defender who wins by fours of its own holds, whatever the attacker's
        // threat (each of its fours comes first). A short look settles many such nodes
        // that the proof numbers would otherwise reach only through its fours one by one.
        let counter_fours = self.spots(d, 3, |c| c.f4 + c.b4 > 0);
        if self.defender_vcf(DEFENDER_VCF_FOURS, &counter_fours) {
            return Defences::NoThreat;
        }
        // The attacker threatens an open four (or a four-three): stop it on its lines, or
        // counter with fours. Only threats the attacker may legally play count.
        let attacker = self.spots(a, 2, |c| c.f4 + c.b4 > 0 || c.f3 > 0);
        // Under Caro rules a five closed at both ends does not count: a block may also
        // cap the other five of an open four, and a square that caps is no square where
        // the attacker makes a four.
        let capping = self.capping();
        let mut follow_ups: Vec<FollowUp> = Vec::new();
        let mut open_four = false;
        for s in &attacker {
            let t = s.counts.threat();
            if t >= Threat::FourThree && !self.spot_forbidden(s, a) {
                let extra = if t < Threat::OpenFour {
                    match self.four_three_defences(s.pos) {
                        Some(squares) => squares,
                        None => continue,
                    }
                } else if capping && !self.sure_open_four(s.pos) {
                    continue;
                } else {
                    Vec::new()
                };
                open_four |= t >= Threat::OpenFour;
                follow_ups.push(FollowUp::new(self, s.pos, t, extra));
            }
        }
        if follow_ups.is_empty() {
            return self.quiet_threat_defences(quiet_fours);
        }
        // A defence must stop every follow-up (the attacker plays any one it leaves
        // standing): a square where the attacker would make a four (or, against
        // four-threes only, a three) on the lines of each follow-up, or where a defender
        // stone turns a four-three's forced block into a four. Or it counters with a four.
        let stops_all = |q: Pos| follow_ups.iter().all(|f| f.stopped_by(q));
        let mut set: Vec<Pos> = if capping {
            // Every empty square on the follow-ups' winning lines within reach.
            let mut near: Vec<Pos> = Vec::new();
            for f in &follow_ups {
                for (i, &dir) in Direction::ALL.iter().enumerate() {
                    if f.lines & (1 << i) != 0 {
                        near.extend(line_squares_within(&self.board, f.pos, dir, 5));
                    }
                }
            }
            near.sort();
            near.dedup();
            near.retain(|&q| stops_all(q));
            near
        } else {
            attacker
                .iter()
                .filter(|s| s.counts.f4 + s.counts.b4 > 0 || (!open_four && s.counts.f3 > 0))
                .map(|s| s.pos)
                .filter(|&q| stops_all(q))
                .collect()
        };
        for f in &follow_ups {
            for &q in &f.extra {
                if !set.contains(&q) && stops_all(q) {
                    set.push(q);
                }
            }
        }
        for s in counter_fours {
            if !set.contains(&s.pos) {
                set.push(s.pos);
            }
        }
        set.sort();
        let mut replies = Vec::with_capacity(set.len());
        for q in set {
            if !self.forbidden(q, d) {
                replies.push(q);
            }
        }
        if replies.is_empty() {
            // No one square stops them all, and the defender has no four: every reply
            // loses. One legal square on a follow-up's lines stands for them all (the
            // search shows it lost, and the line through it is the proof).
            let mut near: Vec<Pos> = attacker
                .iter()
                .map(|s| s.pos)
                .filter(|&q| follow_ups.iter().any(|f| f.stopped_by(q)))
                .collect();
            near.sort();
            match near.into_iter().find(|&q| !self.forbidden(q, d)) {
                Some(q) => replies.push(q),
                // No legal square near the threats cannot happen in practice; be
                // conservative.
                None => return Defences::NoThreat,
            }
        }
        Defences::Replies {
            replies,
            refuted: None,
        }
    }

    /// What the attacker's four-three at `f` needs from the defender's reply besides its
    /// own lines: `None` when it is no sure threat (the forced block of its four makes a
    /// four for the defender, or, where the attacker has fouls, no legal open four follows
    /// the block: a renju three whose four is forbidden is no three); else the squares
    /// where one more defender stone would make that block a four (on the block's lines
    /// where the defender has a three), which are defences too.
    fn four_three_defences(&mut self, f: Pos) -> Option<Vec<Pos>> {
        self.play(f, self.attacker);
        let extra = self.block_defences(f);
        self.undo(f);
        extra
    }

    /// Does the attacker's move at `g` leave fives that no defender move stops (an open
    /// four or two fours)? Under Caro rules one block may also close the other five at
    /// its far end.
    fn sure_open_four(&mut self, g: Pos) -> bool {
        self.play(g, self.attacker);
        let completions = self.fives_through(g, self.attacker);
        let sure = !completions.is_empty() && self.five_defences(&completions).is_empty();
        self.undo(g);
        sure
    }

    /// [`Self::four_three_defences`] with the four-three at `f` played.
    fn block_defences(&mut self, f: Pos) -> Option<Vec<Pos>> {
        let a = self.attacker;
        let d = a.opponent();
        let completions = self.fives_through(f, a);
        if completions.is_empty() {
            return None; // not a four after all (an overline completion)
        }
        let mut extra = Vec::new();
        for b in self.five_defences(&completions) {
            let patterns = VcfBoard::patterns(&self.board, b, d);
            if patterns.iter().any(|&p| p >= Pattern::B4) {
                return None;
            }
            if self.fouls(a) || self.capping() {
                self.play(b, d);
                let open_four = line_neighbours(&self.board, f).into_iter().any(|g| {
                    self.spot(g, a).is_some_and(|s| {
                        s.counts.threat() >= Threat::OpenFour && !self.spot_forbidden(&s, a)
                    }) && (!self.capping() || self.sure_open_four(g))
                });
                self.undo(b);
                if !open_four {
                    return None;
                }
            }
            for (&dir, &p) in Direction::ALL.iter().zip(&patterns) {
                if p < Pattern::B3 {
                    continue;
                }
                // A three there: the squares where one more defender stone makes the
                // block a four.
                let squares: arrayvec::ArrayVec<Pos, 9> =
                    line_squares_within(&self.board, b, dir, 4).collect();
                for q in squares {
                    if q == b {
                        continue;
                    }
                    self.play(q, d);
                    let four = self.board.tables.pattern(&self.board, b, d, dir) >= Pattern::B4;
                    self.undo(q);
                    if four {
                        extra.push(q);
                    }
                }
            }
        }
        Some(extra)
    }

    /// The most fours of the VCF that makes a quiet attacker move a threat, with `depth`
    /// attacker moves left after it: the only part of a defender node's budget its
    /// defences read.
    fn quiet_threat_fours(&self, depth: u32) -> u32 {
        let fours = if depth + 1 == self.root_depth {
            ROOT_QUIET_THREAT_FOURS
        } else {
            QUIET_THREAT_FOURS
        };
        depth.min(fours)
    }

    /// After a quiet attacker move (no four, no three) the defender faces a threat only if
    /// the attacker, moving again, would win by at most `fours` fours. Then every legal
    /// square near the stones and near that VCF line is a candidate; one that leaves the
    /// line working unchanged is refuted by it without a search.
    fn quiet_threat_defences(&mut self, fours: u32) -> Defences {
        if fours == 0 {
            return Defences::NoThreat;
        }
        let Some(line) = self.vcf_attack(fours, &[]) else {
            return Defences::NoThreat;
        };
        let a = self.attacker;
        let d = a.opponent();
        // Candidates near the stones and near the line's squares (where a defender stone
        // could join a forced reply in a four, or cap a Caro five).
        for &p in &line {
            self.board.place(p, Cell::Stone(a));
        }
        let rows = candidate_rows(&self.board);
        for &p in &line {
            self.board.remove(p);
        }
        // The line's own squares first: they are the likeliest defences.
        let mut candidates = line.clone();
        candidates.extend(row_squares(&rows, self.board.height()));
        let mut replies = Vec::new();
        let mut refuted = None;
        for q in candidates {
            if replies.contains(&q) || self.forbidden(q, d) {
                continue;
            }
            if !line.contains(&q) && self.line_survives(&line, q) {
                if refuted.is_none() {
                    refuted = Some((q, line.clone()));
                }
            } else {
                replies.push(q);
            }
        }
        Defences::Replies { replies, refuted }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
        s.proof.clear();
        assert_eq!(s.numbers(&node(budget(10, 2, 1)), UNKNOWN), PROVED);

        // A win under a budget neither smaller nor larger than the kept one is loose: the
        // settled table does not answer for it, and it outlives the proof table filling.
        let loose = node(budget(8, 4, 1));
        s.remember(&loose, PROVED);
        assert_eq!(s.won_with(&loose), Some(budget(8, 4, 1)));
        for i in 0..TABLE_CAP as u64 {
            s.remember(&Node::new(i, budget(3, 1, 0), false), UNKNOWN);
        }
        assert!(s.proof.len() < TABLE_CAP, "the proof table was emptied");
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
        s.proof.clear();
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
        s.root_depth = 10;
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
