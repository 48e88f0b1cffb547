//! Playing levels: how strongly the engine plays for people.
//!
//! A level is a node budget plus a choice among the best lines, so that its strength does
//! not depend on the machine's speed: lower levels search fewer nodes and pick, among the
//! lines of a multi-PV search that score within `max_drop` of the best, one at random with
//! weight `exp(-drop / temperature)`. At the bottom a small budget and a warm choice miss
//! harder defences now and then. Every level still makes a five and blocks a four: the
//! game layer plays those before any choice (see `Game::finish_move`).
//!
//! The named levels and the `INFO strength` scale (0..100, Rapfi's key) are initial
//! settings, to be calibrated by matches between neighbouring levels (README, Levels).

use crate::board::Pos;
use crate::rng::Rng;

/// How the engine plays at one level.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    /// The level's name (`INFO level NAME`), or `strength N`.
    pub name: String,
    /// Nodes a move may search (None: full strength, bounded by time only).
    pub nodes: Option<u64>,
    /// Lines searched to choose among (1: the best move always).
    pub lines: usize,
    /// Softness of the choice, in centi-stones of score below the best.
    pub temperature: f64,
    /// Lines scoring more than this below the best are never chosen.
    pub max_drop: i32,
}

/// The named levels, weakest first: (name, strength on the `INFO strength` scale).
///
/// Spaced for steps of about 150 to 250 Elo: at `tc=0/1`, 200 games a pair
/// (`bench/levels.sh`), strength 0 against 25 measured -576 Elo, 25 against 50 -470 and 50
/// against 75 -429, about 20 Elo a point, so the levels first stood 12 to 13 points apart.
/// With the learned network the node-limited levels drew closer (48 against 60 -110, 60
/// against 72 -133: about 10 Elo a point), so beginner and easy moved down to 17 points
/// apart (README, Levels, has the measured steps).
pub const NAMED: [(&str, u32); 5] = [
    ("beginner", 38),
    ("easy", 55),
    ("medium", 72),
    ("hard", 85),
    ("max", 100),
];

impl Level {
    /// Full strength: no node budget, the best move.
    pub fn max() -> Level {
        Level::from_strength(100)
    }

    /// The level for `INFO strength n` (clamped to 0..=100). Nodes grow tenfold every 25
    /// points from 100 at 0; lines shrink from 6 to 1; temperature and the largest drop
    /// fall quadratically to 0 at 100, which is full strength.
    pub fn from_strength(n: i64) -> Level {
        let n = n.clamp(0, 100) as u32;
        if n == 100 {
            return Level {
                name: "max".into(),
                nodes: None,
                lines: 1,
                temperature: 0.0,
                max_drop: 0,
            };
        }
        let f = f64::from(n) / 100.0;
        let weak = (1.0 - f) * (1.0 - f);
        Level {
            name: format!("strength {n}"),
            nodes: Some((100.0 * 10f64.powf(f64::from(n) / 25.0)).round() as u64),
            lines: 6 - (n as usize * 5) / 100,
            temperature: 250.0 * weak,
            max_drop: (800.0 * weak).round() as i32,
        }
    }

    /// The named level `name` (case-insensitive), if there is one.
    pub fn named(name: &str) -> Option<Level> {
        let &(canonical, strength) = NAMED.iter().find(|(n, _)| n.eq_ignore_ascii_case(name))?;
        Some(Level {
            name: canonical.to_string(),
            ..Level::from_strength(i64::from(strength))
        })
    }

    /// True at full strength.
    pub fn is_max(&self) -> bool {
        self.nodes.is_none() && self.lines == 1
    }

    /// Choose among `lines` (first move, score; best first): a line within `max_drop` of
    /// the best, with weight `exp(-drop / temperature)`. The best line when the level is
    /// full strength, the best line is a proven win, or there is only one.
    pub fn choose(&self, lines: &[(Pos, i32)], rng: &mut Rng) -> Option<Pos> {
        let &(best_move, best) = lines.first()?;
        if self.temperature <= 0.0 || lines.len() == 1 || crate::search::score::is_decisive(best) {
            return Some(best_move);
        }
        let weights: Vec<(Pos, f64)> = lines
            .iter()
            .filter(|(_, s)| best - s <= self.max_drop)
            .map(|&(p, s)| (p, (-f64::from(best - s) / self.temperature).exp()))
            .collect();
        let total: f64 = weights.iter().map(|w| w.1).sum();
        let mut pick = rng.unit() * total;
        for &(p, w) in &weights {
            if pick < w {
                return Some(p);
            }
            pick -= w;
        }
        Some(best_move)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_runs_from_a_hundred_nodes_to_full_strength() {
        let bottom = Level::from_strength(0);
        assert_eq!((bottom.nodes, bottom.lines), (Some(100), 6));
        assert_eq!(Level::from_strength(50).nodes, Some(10_000));
        assert!(Level::from_strength(100).is_max() && Level::from_strength(170).is_max());
        let mut last = 0;
        for n in 0..100 {
            let l = Level::from_strength(n);
            assert!(l.nodes.unwrap() >= last && l.lines >= 1, "{l:?}");
            last = l.nodes.unwrap();
        }
        assert_eq!(Level::named("MEDIUM").unwrap().nodes, Some(75_858));
        assert_eq!(Level::named("medium").unwrap().name, "medium");
        assert!(Level::named("grandmaster").is_none());
    }

    #[test]
    fn choices_stay_within_the_drop_and_favour_the_best() {
        let (a, b, c) = (Pos::new(1, 1), Pos::new(2, 2), Pos::new(3, 3));
        let lines = [(a, 100), (b, 60), (c, -5_000)];
        let level = Level::named("easy").unwrap();
        let mut rng = Rng::new(7);
        let mut counts = [0; 3];
        for _ in 0..2_000 {
            match level.choose(&lines, &mut rng).unwrap() {
                p if p == a => counts[0] += 1,
                p if p == b => counts[1] += 1,
                _ => counts[2] += 1,
            }
        }
        assert_eq!(counts[2], 0, "a line far below the best is never chosen");
        assert!(counts[0] > counts[1] && counts[1] > 0, "{counts:?}");
        // The same seed gives the same choices.
        let again: Vec<Pos> = (0..20)
            .map(|_| level.choose(&lines, &mut Rng::new(3)).unwrap())
            .collect();
        assert!(again.windows(2).all(|w| w[0] == w[1]));
        // Full strength, or a proven win: the best line.
        assert_eq!(Level::max().choose(&lines, &mut rng), Some(a));
        let won = [(b, crate::search::score::WIN - 5), (a, 0)];
        assert_eq!(level.choose(&won, &mut rng), Some(b));
    }
}
