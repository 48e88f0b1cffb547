//! The static evaluation: a weighted count of the line patterns both sides could make on
//! the candidate squares, plus a bonus for the side to move's strongest combination.
//!
//! The node analysis ([`super::node::analyse`]) counts, over every candidate square and
//! each of its four lines, the pattern the side to move and the opponent would make there
//! ([`EvalFeatures`]); the evaluation is linear in those counts, so its weights can be
//! fitted to game results. `rensa-bench`'s `tune` binary does that (Texel-style: self-play
//! games at a fixed node count, then a logistic fit of the results on the evaluation) and
//! prints a table in the form of [`WEIGHTS`]; see `bench/README.md`.

use crate::pattern::{Pattern, Threat};

/// Number of line patterns (`Pattern as usize` indexes the tables).
pub const PATTERNS: usize = 10;

/// Largest static evaluation in either direction (far below the win scores).
pub const EVAL_LIMIT: i32 = 9_000;

/// What the evaluation reads from a position: pattern counts over the candidate squares
/// and the strongest combinations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvalFeatures {
    /// For each pattern, how often the side to move would make it (square and line).
    pub mine: [u16; PATTERNS],
    /// The same for the opponent (squares forbidden to the opponent left out).
    pub theirs: [u16; PATTERNS],
    /// The side to move's strongest combination on one square.
    pub my_best: Threat,
    /// The opponent's.
    pub their_best: Threat,
    /// Which combinations the side to move has somewhere, one bit a [`Threat`] kind
    /// ([`super::learned::threat_bit`]).
    pub my_threats: u8,
    /// The same for the opponent.
    pub their_threats: u8,
}

impl EvalFeatures {
    /// Note one square's combinations, the side to move's and the opponent's: the
    /// strongest kinds and the presence masks.
    #[inline]
    pub fn add_threats(&mut self, mine: Threat, theirs: Threat) {
        self.my_best = self.my_best.max(mine);
        self.their_best = self.their_best.max(theirs);
        self.my_threats |= super::learned::threat_bit(mine);
        self.their_threats |= super::learned::threat_bit(theirs);
    }

    /// Count the four line patterns of one square for the side to move.
    #[inline]
    pub fn add_mine(&mut self, patterns: &[Pattern; 4]) {
        for &p in patterns {
            self.mine[p as usize] += 1;
        }
    }

    /// Count the four line patterns of one square for the opponent.
    #[inline]
    pub fn add_theirs(&mut self, patterns: &[Pattern; 4]) {
        for &p in patterns {
            self.theirs[p as usize] += 1;
        }
    }

    /// The combination bonus that applies: the side to move's strongest threat counts
    /// only when the opponent cannot force with a four first.
    pub fn bonus_threat(&self) -> Option<Threat> {
        (self.their_best < Threat::Four).then_some(self.my_best)
    }
}

/// Evaluation weights. Pattern weights are in tenths of a point, so that the opponent's
/// patterns can weigh a fraction of one's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalWeights {
    /// Tenths of a point per pattern the side to move could make.
    pub mine: [i32; PATTERNS],
    /// Tenths of a point per pattern the opponent could make (subtracted).
    pub theirs: [i32; PATTERNS],
    /// Bonus when the side to move has a four-three (and the opponent no four).
    pub four_three: i32,
    /// Bonus for a double three.
    pub double_three: i32,
    /// Bonus for an open three.
    pub three: i32,
}

/// The weights the engine plays with. Pattern order: dead, B1, F1, B2, F2, B3, F3, B4, F4,
/// F5 (the dead and the five weights are not fitted).
///
/// Fitted by `target/release/tune --games 1500 --threads 1 --steps 4000` (seed 1, 3000
/// nodes a move; 38,725 positions) starting from the hand-set table of the commit before
/// this one (own patterns 0, 1, 3, 6, 20, 24, 90, 100, 1000, 10000 points, the opponent's
/// 9/10 of those, bonuses 3000 / 1500 / 300): held-out error 0.2280 with the hand-set
/// table, 0.2135 with this one. Self-play against the hand-set table, renju tc 5/0.5: SPRT
/// [0, 10] accepted H1 after 176 games, Elo +132.4 +-55.4.
pub const WEIGHTS: EvalWeights = EvalWeights {
    mine: [0, 0, 0, 0, 317, 617, 2_544, 5_329, 10_000, 100_000],
    theirs: [0, 0, 4, 6, 186, 390, 1_244, 4_815, 9_008, 90_000],
    four_three: 5_917,
    double_three: 4_311,
    three: 0,
};

impl EvalWeights {
    /// The bonus for the side to move's strongest combination.
    pub fn bonus(&self, t: Threat) -> i32 {
        match t {
            Threat::FourThree => self.four_three,
            Threat::DoubleThree => self.double_three,
            Threat::Three => self.three,
            _ => 0,
        }
    }

    /// The evaluation for the side to move, before clamping to [`EVAL_LIMIT`].
    pub fn raw(&self, f: &EvalFeatures) -> i64 {
        let dot = |w: &[i32; PATTERNS], c: &[u16; PATTERNS]| -> i64 {
            w.iter()
                .zip(c)
                .map(|(&w, &c)| i64::from(w) * i64::from(c))
                .sum()
        };
        let bonus = f.bonus_threat().map_or(0, |t| self.bonus(t));
        dot(&self.mine, &f.mine) / 10 - dot(&self.theirs, &f.theirs) / 10 + i64::from(bonus)
    }

    /// The evaluation for the side to move.
    pub fn evaluate(&self, f: &EvalFeatures) -> i32 {
        self.raw(f)
            .clamp(i64::from(-EVAL_LIMIT), i64::from(EVAL_LIMIT)) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_evaluation_is_own_patterns_minus_theirs_plus_the_bonus() {
        let w = EvalWeights {
            mine: [0, 10, 30, 60, 200, 240, 900, 1_000, 10_000, 100_000],
            theirs: [0, 9, 27, 54, 180, 216, 810, 900, 9_000, 90_000],
            four_three: 3_000,
            double_three: 1_500,
            three: 300,
        };
        let mut f = EvalFeatures::default();
        f.mine[Pattern::F2 as usize] = 3; // 3 x 20 points
        f.theirs[Pattern::F3 as usize] = 1; // 81 points
        f.theirs[Pattern::B1 as usize] = 1; // 0.9 of a point: the sums are rounded down
        assert_eq!(w.evaluate(&f), 60 - 81);
        // An open three of ours counts when they have no four.
        f.my_best = Threat::Three;
        f.their_best = Threat::Minor;
        assert_eq!(w.evaluate(&f), 60 - 81 + 300);
        f.their_best = Threat::Four;
        assert_eq!(w.evaluate(&f), 60 - 81);
        // Clamped far below the win scores.
        f.mine[Pattern::F5 as usize] = 10;
        assert_eq!(w.evaluate(&f), EVAL_LIMIT);
        f.mine[Pattern::F5 as usize] = 0;
        f.theirs[Pattern::F5 as usize] = 10;
        assert_eq!(w.evaluate(&f), -EVAL_LIMIT);
    }

    #[test]
    fn the_engine_weights_value_stronger_patterns_more() {
        for side in [WEIGHTS.mine, WEIGHTS.theirs] {
            let (f2, b3, f3, b4, f4) = (side[4], side[5], side[6], side[7], side[8]);
            assert!(f2 < b3 && b3 < f3 && f3 < b4 && b4 < f4, "{side:?}");
        }
    }
}
