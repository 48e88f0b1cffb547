//! VCT by depth-first proof-number search (df-pn).
//!
//! An attacker node (OR) is won when one of its moves wins; a defender node (AND) when
//! every defence loses. Proof numbers count the leaves still to be shown won for a node to
//! be won, disproof numbers those to be shown held for it to be held; the search always
//! follows the most proving node, so it runs deep along forcing lines (a four has one
//! reply) and only widens where the numbers say so. The numbers live in a table keyed by
//! position, the attacker moves left and the threats left, which also merges
//! transpositions.
//!
//! The search runs again with one more non-four threat allowed each time (a line's threes
//! multiply the tree; its fours do not), and a node with no threat left is settled by the
//! VCF search, whose failure table does that far faster than proof numbers would.
//!
//! The moves are those of threat-space search: the attacker's fours, threes and quiet
//! moves that threaten a VCF; the defender's blocks of a five, the squares that stop an
//! open four or four-three on the follow-ups' lines, counter-fours, and against a quiet
//! threat every square near the stones and the VCF line that does not leave the line
//! working (those are refuted by the line itself, without a search).

use super::{aligned_within, may_threaten_vcf, row_squares, ThreatSolver, QUIET_THREAT_FOURS};
use crate::board::{zobrist_stone, Cell, Pos};
use crate::pattern::Threat;
use crate::search::node::candidate_rows;
use std::rc::Rc;

/// "Infinite" proof or disproof number.
const INF: u32 = 1 << 30;

/// Most entries in the proof table before it is pruned to its solved entries (about
/// 16 bytes each: the table stays within the engine's memory reserve).
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
/// Attacker moves added with each further threat allowed.
const MOVES_PER_THREAT: u32 = 2;

/// Attacker moves after the first that may still be quiet VCF threats.
const QUIET_MOVES_AFTER_ROOT: u32 = 2;

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
}

impl Kind {
    /// Threats (non-four moves) left after this move, from `threats`.
    fn threats_left(self, threats: u32) -> u32 {
        match self {
            Kind::Four | Kind::Block => threats,
            Kind::Three | Kind::Quiet => threats - 1,
        }
    }

    /// Numbers of a defender node not searched yet.
    fn initial(self) -> Numbers {
        match self {
            Kind::Four | Kind::Block => Numbers { pn: 1, dn: 1 },
            // About as many replies as a three usually has; a quiet threat has dozens.
            Kind::Three => Numbers { pn: 3, dn: 1 },
            Kind::Quiet => Numbers { pn: 16, dn: 1 },
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub(super) struct AttackMove {
    pos: Pos,
    kind: Kind,
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

/// Table key of a node: the position, who is to move and the attacker moves left.
fn node_key(hash: u64, depth: u32, threats: u32, attacker_to_move: bool) -> u64 {
    let side = if attacker_to_move {
        0x5654_4354_4f52_u64
    } else {
        0x5654_4354_414e_u64
    };
    hash ^ side ^ u64::from((threats << 8) + depth + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
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
        self.aborted = false;
        self.failed.clear();
        if let Some(&five) = self.fives(self.attacker).first() {
            return Some(vec![five]);
        }
        let their_fives = self.fives(self.attacker.opponent());
        // Deepen over the threats (non-four moves) allowed in a line: fours cost little (one
        // reply each) while every three multiplies the tree, so wins with few threes are
        // found long before a search with no such bound would find them.
        let max_depth = self.limits.max_attacker_moves;
        for threats in 1..=max_depth {
            // Short lines first: a pass with few threats also gets fewer moves (the defender's
            // delaying fours make deep trees costly long before they find anything).
            let depth = FIRST_PASS_MOVES
                .saturating_add(MOVES_PER_THREAT * (threats - 1))
                .min(max_depth);
            self.root_depth = depth;
            // A pass's nodes are keyed by the threats left, so the last pass's entries
            // are seldom met again (the quintet boards take as many nodes either way):
            // drop them, and a long search fills the table far later.
            self.proof.clear();
            self.move_lists.clear();
            let root = self.attack_node(depth, threats, &their_fives, UNBOUNDED);
            if self.aborted {
                return None;
            }
            if root.pn == 0 {
                return self.attack_line(depth, threats, &their_fives);
            }
        }
        None
    }

    fn remembered(&self, key: u64, unknown: Numbers) -> Numbers {
        self.proof.get(&key).copied().unwrap_or(unknown)
    }

    fn remember(&mut self, key: u64, numbers: Numbers) -> Numbers {
        if self.proof.len() >= TABLE_CAP {
            // Keep what is solved; if that alone fills half the table, keep the proofs
            // only (a disproof forgotten costs a search again, a proof forgotten could
            // cost the line), and give up only if even they fill it.
            self.proof.retain(|_, n| n.solved());
            if self.proof.len() >= TABLE_CAP / 2 {
                self.proof.retain(|_, n| n.pn == 0);
                if self.proof.len() >= TABLE_CAP / 2 {
                    self.aborted = true;
                }
            }
        }
        self.proof.insert(key, numbers);
        numbers
    }

    /// Keep a node's move list for its next visit.
    fn keep_moves(&mut self, key: u64, moves: MoveList) {
        if self.move_lists.len() >= MOVE_LISTS_CAP {
            self.move_lists.clear();
        }
        self.move_lists.insert(key, moves);
    }

    /// Attacker to move with `depth` moves left, facing the defender's fives `their_fives`.
    fn attack_node(
        &mut self,
        depth: u32,
        threats: u32,
        their_fives: &[Pos],
        limit: Numbers,
    ) -> Numbers {
        let key = node_key(self.board.hash(), depth, threats, true);
        if self.tick() {
            return self.remembered(key, UNKNOWN);
        }
        if threats == 0 && their_fives.is_empty() {
            // Only fours are left: the VCF search (depth-first with its failure table)
            // settles such nodes far faster than proof numbers over the same tree.
            let won = self.vcf_attack(depth, their_fives).is_some();
            if self.aborted {
                return UNKNOWN;
            }
            return self.remember(key, if won { PROVED } else { DISPROVED });
        }
        let moves = match self.move_lists.get(&key) {
            Some(MoveList::Attack(moves)) => moves.clone(),
            _ => {
                let moves: Rc<[AttackMove]> = self.attack_moves(depth, threats, their_fives).into();
                if moves.is_empty() {
                    return self.remember(key, DISPROVED);
                }
                self.keep_moves(key, MoveList::Attack(moves.clone()));
                moves
            }
        };
        let a = self.attacker;
        let hash = self.board.hash();
        let keys: Vec<u64> = moves
            .iter()
            .map(|m| {
                let left = m.kind.threats_left(threats);
                node_key(hash ^ zobrist_stone(a, m.pos), depth - 1, left, false)
            })
            .collect();
        loop {
            let children = moves
                .iter()
                .zip(&keys)
                .map(|(m, &k)| self.remembered(k, m.kind.initial()));
            // The attacker needs one winning move: the smallest proof number.
            let c = Choice::of(children, |n| n.pn, |n| n.dn);
            let here = Numbers {
                pn: c.numbers.pn,
                dn: c.sum,
            };
            if here.pn >= limit.pn || here.dn >= limit.dn || self.aborted {
                return self.remember(key, here);
            }
            let child_limit = Numbers {
                pn: sibling_limit(limit.pn, c.second),
                dn: sum_limit(limit.dn, c.sum, c.numbers.dn),
            };
            let best = c.best;
            let pos = moves[best].pos;
            let left = moves[best].kind.threats_left(threats);
            self.play(pos, a);
            self.defence_node(depth - 1, left, pos, child_limit);
            self.undo(pos);
        }
    }

    /// Defender to move after the attacker's move at `last`, with `depth` attacker moves
    /// left after this.
    fn defence_node(&mut self, depth: u32, threats: u32, last: Pos, limit: Numbers) -> Numbers {
        let key = node_key(self.board.hash(), depth, threats, false);
        if self.tick() {
            return self.remembered(key, UNKNOWN);
        }
        let replies = match self.move_lists.get(&key) {
            Some(MoveList::Defence(replies)) => replies.clone(),
            _ => {
                let replies: Rc<[Pos]> = match self.defences(depth, last) {
                    Defences::Lost(_) => return self.remember(key, PROVED),
                    Defences::NoThreat => return self.remember(key, DISPROVED),
                    Defences::Replies { replies, refuted } => {
                        if replies.is_empty() {
                            let n = if refuted.is_some() { PROVED } else { DISPROVED };
                            return self.remember(key, n);
                        }
                        replies.into()
                    }
                };
                self.keep_moves(key, MoveList::Defence(replies.clone()));
                replies
            }
        };
        let d = self.attacker.opponent();
        let hash = self.board.hash();
        let keys: Vec<u64> = replies
            .iter()
            .map(|&q| node_key(hash ^ zobrist_stone(d, q), depth, threats, true))
            .collect();
        loop {
            let children = keys.iter().map(|&k| self.remembered(k, UNKNOWN));
            // The defender needs one holding reply: the smallest disproof number.
            let c = Choice::of(children, |n| n.dn, |n| n.pn);
            let here = Numbers {
                pn: c.sum,
                dn: c.numbers.dn,
            };
            if here.pn >= limit.pn || here.dn >= limit.dn || self.aborted {
                return self.remember(key, here);
            }
            let child_limit = Numbers {
                pn: sum_limit(limit.pn, c.sum, c.numbers.pn),
                dn: sibling_limit(limit.dn, c.second),
            };
            let q = replies[c.best];
            self.play(q, d);
            let their_fives = self.fives_through(q, d);
            self.attack_node(depth, threats, &their_fives, child_limit);
            self.undo(q);
        }
    }

    /// The winning line from a proved attacker node: the first proved move, then the line
    /// below it.
    fn attack_line(&mut self, depth: u32, threats: u32, their_fives: &[Pos]) -> Option<Vec<Pos>> {
        if threats == 0 && their_fives.is_empty() {
            return self.vcf_attack(depth, their_fives);
        }
        let a = self.attacker;
        let hash = self.board.hash();
        for m in self.attack_moves(depth, threats, their_fives) {
            let left = m.kind.threats_left(threats);
            let key = node_key(hash ^ zobrist_stone(a, m.pos), depth - 1, left, false);
            if self.proof.get(&key).is_some_and(|n| n.pn == 0) {
                self.play(m.pos, a);
                let rest = self.defence_line(depth - 1, left, m.pos);
                self.undo(m.pos);
                let mut line = vec![m.pos];
                line.extend(rest?);
                return Some(line);
            }
        }
        None
    }

    /// The winning line from a proved defender node, following its first defence.
    fn defence_line(&mut self, depth: u32, threats: u32, last: Pos) -> Option<Vec<Pos>> {
        match self.defences(depth, last) {
            Defences::Lost(line) => Some(line),
            Defences::NoThreat => None,
            Defences::Replies { replies, refuted } => match replies.first() {
                Some(&q) => {
                    let d = self.attacker.opponent();
                    self.play(q, d);
                    let their_fives = self.fives_through(q, d);
                    let rest = self.attack_line(depth, threats, &their_fives);
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

    /// The attacker's moves with `depth` moves left, facing the defender's fives
    /// `their_fives`: fours, threes and (with room for a follow-up) quiet moves that may
    /// threaten a VCF, strongest first; against a five only its block. Empty when the
    /// attacker has no move left or cannot stop the defender's fives.
    fn attack_moves(&mut self, depth: u32, threats: u32, their_fives: &[Pos]) -> Vec<AttackMove> {
        let a = self.attacker;
        if depth == 0 || their_fives.len() >= 2 {
            return Vec::new();
        }
        // Quiet moves only among the first attacker moves: deeper they cost far more than
        // they find. At the root any move that builds on a line may be one (a fukumi's
        // first move can be as quiet as a lone two).
        let quiet = depth >= 2 && threats >= 1 && depth + QUIET_MOVES_AFTER_ROOT >= self.root_depth;
        let root = depth == self.root_depth;
        let min_own = if quiet {
            1
        } else if threats >= 1 {
            2
        } else {
            3
        };
        let mut spots = self.spots(a, min_own, |c| {
            c.f4 + c.b4 > 0
                || (threats >= 1 && c.threat() >= Threat::Three)
                || (quiet && (may_threaten_vcf(c) || (root && c.f2 + c.b3 >= 1)))
        });
        if let Some(&must) = their_fives.first() {
            spots.retain(|s| s.pos == must);
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
            // Exact check (rules::renju_foul prefilters cheaply): the pattern counts miss
            // fouls such as a double four on one line (`X.XXX.X`) or an overline.
            if self.forbidden(s.pos, a) {
                continue;
            }
            let kind = if s.counts.f4 + s.counts.b4 > 0 {
                Kind::Four
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
    /// five: the attacker node answered any), with `depth` attacker moves left.
    fn defences(&mut self, depth: u32, last: Pos) -> Defences {
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
                replies: blocks,
                refuted: None,
            };
        }
        // The attacker threatens an open four (or a four-three): stop it on its lines, or
        // counter with fours. Only threats the attacker may legally play count.
        let attacker = self.spots(a, 2, |c| c.f4 + c.b4 > 0 || c.f3 > 0);
        let mut follow_ups: Vec<Pos> = Vec::new();
        let mut open_four = false;
        for s in &attacker {
            let t = s.counts.threat();
            if t >= Threat::FourThree && !self.forbidden(s.pos, a) {
                open_four |= t >= Threat::OpenFour;
                follow_ups.push(s.pos);
            }
        }
        if follow_ups.is_empty() {
            return self.quiet_threat_defences(depth);
        }
        // A defence must change a follow-up's lines: a square where the attacker would make
        // a four (or, against a four-three only, a three) on a line through a follow-up,
        // within reach of its patterns.
        let mut set: Vec<Pos> = attacker
            .iter()
            .filter(|s| s.counts.f4 + s.counts.b4 > 0 || (!open_four && s.counts.f3 > 0))
            .map(|s| s.pos)
            .filter(|&q| follow_ups.iter().any(|&f| aligned_within(f, q, 5)))
            .collect();
        for s in self.spots(d, 3, |c| c.f4 + c.b4 > 0) {
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
            // No legal defence at all cannot happen in practice; be conservative.
            return Defences::NoThreat;
        }
        Defences::Replies {
            replies,
            refuted: None,
        }
    }

    /// After a quiet attacker move (no four, no three) the defender faces a threat only if
    /// the attacker, moving again, would win by fours. Then every legal square near the
    /// stones and near that VCF line is a candidate; one that leaves the line working
    /// unchanged is refuted by it without a search.
    fn quiet_threat_defences(&mut self, depth: u32) -> Defences {
        if depth == 0 {
            return Defences::NoThreat;
        }
        let Some(line) = self.vcf_attack(depth.min(QUIET_THREAT_FOURS), &[]) else {
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
