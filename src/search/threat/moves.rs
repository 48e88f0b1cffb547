//! The VCT's move generation: the attacker's moves at an attacker node (fours, threes and
//! the quiet moves that threaten a VCF, as the node's scope allows) and the defender's
//! replies after an attacker move (the block of a four, the squares that stop a three's
//! open four or four-three, counter-fours, and the squares near a quiet threat's VCF
//! line), for the proof-number search in `vct`.

use super::{may_threaten_vcf, ThreatSolver};
use crate::board::geometry::{
    aligned_along, candidate_rows, line_neighbours, line_squares_within, row_squares,
};
use crate::board::{Cell, Direction, Pos};
use crate::pattern::{Pattern, PatternCounts, Threat};
use crate::search::vcf::VcfBoard;

/// Most fours in the defender's own VCF looked for at a defender node. Short looks pay:
/// on vct_game_black_l11_3 a limit of 4 took 1.78 M nodes against 2.43 M with none,
/// and deeper looks (8, 16) about 2.3 M (the VCT's VCF nodes count too). With defences
/// that must stop every follow-up and short quiet threats (below), 3 fours solve the 38
/// vct_game boards in 4.74 M nodes against 5.26 M with 4.
const DEFENDER_VCF_FOURS: u32 = 3;

/// What an attacker move does; sets how hopeful the unexplored defender node after it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
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

#[derive(Clone, Copy, Debug)]
pub(super) struct AttackMove {
    pub(super) pos: Pos,
    pub(super) kind: Kind,
}

/// What an attacker node's move list depends on besides its position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct AttackScope {
    /// Non-four threats (threes) are still allowed.
    pub(super) threats: bool,
    /// Quiet moves that may threaten a VCF are allowed.
    pub(super) quiet: bool,
    /// The root, where quieter moves are tried too.
    pub(super) root: bool,
}

impl AttackScope {
    /// A key to mix with a position's, for the move-list store.
    pub(super) fn key(self) -> u64 {
        let bits = u64::from(self.threats) | u64::from(self.quiet) << 1 | u64::from(self.root) << 2;
        (bits + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0xa076_1d64_78bd_642f
    }
}

/// The defender's options after an attacker move.
pub(super) enum Defences {
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
    /// The attacker's moves within `scope`, facing the defender's fives `their_fives`:
    /// fours, threes and (with room for a follow-up) quiet moves that may threaten a VCF,
    /// strongest first; against a five only its block. Empty when the attacker cannot
    /// stop the defender's fives.
    pub(super) fn attack_moves(
        &mut self,
        scope: AttackScope,
        their_fives: &[Pos],
    ) -> Vec<AttackMove> {
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
    pub(super) fn defences(&mut self, quiet_fours: u32, last: Pos) -> Defences {
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
    pub(super) fn four_three_defences(&mut self, f: Pos) -> Option<Vec<Pos>> {
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
