//! Match statistics on the logistic Elo scale: Elo from a score with a 95 % interval,
//! likelihood of superiority (LOS), and the sequential probability ratio test (SPRT) in
//! its trinomial (win/draw/loss per game) and pentanomial (score per colour-swapped game
//! pair) forms.
//!
//! The SPRT uses the generalised SPRT approximation of c-chess-cli and fishtest:
//! `LLR = (s1 - s0) * (2*m - s0 - s1) / (2 * var / N)` where `m` and `var` are the mean and
//! variance of the per-game (or per-pair, halved) score, `s0`/`s1` the expected scores at
//! `elo0`/`elo1`, and `N` the number of games (or pairs). The test stops when the LLR
//! leaves `[ln(beta/(1-alpha)), ln((1-beta)/alpha)]`. Unlike c-chess-cli, which returns 0
//! until wins, losses and draws are all non-zero, the LLR here is computed as soon as the
//! variance is positive, because Gomoku matches can go long without a draw.

/// Expected score for an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference for an expected score in (0, 1); ±infinity at 1 and 0.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The complementary error function (Numerical Recipes `erfcc`, fractional error below
/// 1.2e-7 everywhere).
pub fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// The standard normal cumulative distribution function.
pub fn phi(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The 97.5 % quantile of the standard normal distribution (two-sided 95 %).
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, losses and draws from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wld {
    /// Wins.
    pub w: u64,
    /// Losses.
    pub l: u64,
    /// Draws.
    pub d: u64,
}

impl Wld {
    /// Number of games.
    pub fn games(&self) -> u64 {
        self.w + self.l + self.d
    }

    /// Points: a win 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        self.w as f64 + self.d as f64 / 2.0
    }

    /// Score fraction (NaN without games).
    pub fn score(&self) -> f64 {
        self.points() / self.games() as f64
    }

    /// Draw fraction.
    pub fn draw_ratio(&self) -> f64 {
        self.d as f64 / self.games() as f64
    }

    /// The same results from the opponent's point of view.
    pub fn flipped(&self) -> Wld {
        Wld {
            w: self.l,
            l: self.w,
            d: self.d,
        }
    }

    /// Add another tally.
    pub fn add(&mut self, o: &Wld) {
        self.w += o.w;
        self.l += o.l;
        self.d += o.d;
    }
}

/// An Elo estimate with its 95 % confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Score fraction.
    pub score: f64,
    /// Elo difference.
    pub elo: f64,
    /// Lower end of the 95 % interval.
    pub lower: f64,
    /// Upper end of the 95 % interval.
    pub upper: f64,
}

impl EloEstimate {
    /// Half the width of the interval (`±` in tables), infinite if either end is.
    pub fn margin(&self) -> f64 {
        (self.upper - self.lower) / 2.0
    }
}

/// Elo estimate from per-unit score values and their frequencies: the mean score, its
/// standard error `sqrt(var / n)` and the normal approximation for the interval.
fn estimate(values: &[f64], counts: &[u64]) -> Option<EloEstimate> {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return None;
    }
    let nf = n as f64;
    let mean: f64 = values
        .iter()
        .zip(counts)
        .map(|(v, &c)| v * c as f64)
        .sum::<f64>()
        / nf;
    let var: f64 = values
        .iter()
        .zip(counts)
        .map(|(v, &c)| (v - mean).powi(2) * c as f64)
        .sum::<f64>()
        / nf;
    let (lo, hi) = if var > 0.0 {
        let se = (var / nf).sqrt();
        (
            (mean - Z95 * se).clamp(0.0, 1.0),
            (mean + Z95 * se).clamp(0.0, 1.0),
        )
    } else {
        wilson(mean, nf)
    };
    Some(EloEstimate {
        score: mean,
        elo: elo_from_score(mean),
        lower: elo_from_score(lo),
        upper: elo_from_score(hi),
    })
}

/// Wilson's 95 % score interval, used when every game (or pair) had the same result and
/// the normal approximation would give a zero-width interval: with `n` wins out of `n` the
/// lower end is `n / (n + z²)` instead of 1.
fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z2 = Z95 * Z95;
    let centre = p + z2 / (2.0 * n);
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let d = 1.0 + z2 / n;
    (
        ((centre - half) / d).clamp(0.0, 1.0),
        ((centre + half) / d).clamp(0.0, 1.0),
    )
}

/// Elo from win/loss/draw counts (trinomial model).
pub fn elo_trinomial(r: &Wld) -> Option<EloEstimate> {
    estimate(&[1.0, 0.0, 0.5], &[r.w, r.l, r.d])
}

/// Elo from game-pair counts: `pairs[k]` = pairs in which the side scored `k/2` points
/// out of 2 (k = 0..=4), the pentanomial model.
pub fn elo_pentanomial(pairs: &[u64; 5]) -> Option<EloEstimate> {
    estimate(&[0.0, 0.25, 0.5, 0.75, 1.0], pairs)
}

/// Likelihood of superiority: the probability that the side is stronger,
/// `Phi((W - L) / sqrt(W + L))` (draws carry no information). 0.5 without decisive games.
pub fn los(r: &Wld) -> f64 {
    let decisive = (r.w + r.l) as f64;
    if decisive == 0.0 {
        return 0.5;
    }
    phi((r.w as f64 - r.l as f64) / decisive.sqrt())
}

/// Parameters of a sequential probability ratio test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference of the null hypothesis.
    pub elo0: f64,
    /// Elo difference of the alternative hypothesis.
    pub elo1: f64,
    /// Type I error (accepting H1 when H0 holds).
    pub alpha: f64,
    /// Type II error (accepting H0 when H1 holds).
    pub beta: f64,
}

/// Pseudo-count for empty result categories in the LLR (fishtest's `regularize`).
const REGULARIZE: f64 = 1e-3;

/// Fewest games (trinomial) or game pairs (pentanomial) before an SPRT may stop.
pub const SPRT_MIN_UNITS: u64 = 20;

/// The state of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    /// Not decided yet.
    Continue,
    /// LLR at or below the lower bound: H0 (elo <= elo0) accepted.
    AcceptH0,
    /// LLR at or above the upper bound: H1 (elo >= elo1) accepted.
    AcceptH1,
}

impl Default for Sprt {
    fn default() -> Sprt {
        Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        }
    }
}

impl Sprt {
    /// Check the parameters.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.alpha > 0.0 && self.alpha < 1.0 && self.beta > 0.0 && self.beta < 1.0) {
            return Err("SPRT alpha and beta must lie in (0, 1)".into());
        }
        if self.alpha + self.beta >= 1.0 {
            return Err("SPRT alpha + beta must be below 1".into());
        }
        if self.elo1.partial_cmp(&self.elo0) != Some(std::cmp::Ordering::Greater) {
            return Err("SPRT needs elo1 > elo0".into());
        }
        Ok(())
    }

    /// `(lower, upper)` LLR bounds: `ln(beta/(1-alpha))`, `ln((1-beta)/alpha)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// GSPRT log-likelihood ratio from per-unit score values and frequencies.
    /// Empty categories are regularised to 0.001 as fishtest does, so that a one-sided
    /// result (all wins, or all pairs won) still has a variance and can be decided.
    fn llr(&self, values: &[f64], counts: &[u64]) -> f64 {
        if counts.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let counts: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0 { REGULARIZE } else { c as f64 })
            .collect();
        let nf: f64 = counts.iter().sum();
        let mean = values.iter().zip(&counts).map(|(v, c)| v * c).sum::<f64>() / nf;
        let m2 = values
            .iter()
            .zip(&counts)
            .map(|(v, c)| v * v * c)
            .sum::<f64>()
            / nf;
        let var = m2 - mean * mean;
        if var <= 0.0 {
            return 0.0;
        }
        let var_s = var / nf;
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        (s1 - s0) * (2.0 * mean - s0 - s1) / var_s / 2.0
    }

    /// LLR from game results (trinomial), from the first engine's point of view.
    pub fn llr_trinomial(&self, r: &Wld) -> f64 {
        self.llr(&[1.0, 0.0, 0.5], &[r.w, r.l, r.d])
    }

    /// LLR from colour-swapped game pairs (pentanomial); see [`elo_pentanomial`].
    pub fn llr_pentanomial(&self, pairs: &[u64; 5]) -> f64 {
        self.llr(&[0.0, 0.25, 0.5, 0.75, 1.0], pairs)
    }

    /// Decision for an LLR after `units` games (trinomial) or game pairs (pentanomial):
    /// none before [`SPRT_MIN_UNITS`]. The LLR uses the sample variance, which a handful
    /// of results cannot estimate (one lost pair alone gives an LLR below -3).
    pub fn decide(&self, llr: f64, units: u64) -> SprtState {
        if units < SPRT_MIN_UNITS {
            SprtState::Continue
        } else {
            self.state(llr)
        }
    }

    /// Decision for an LLR.
    pub fn state(&self, llr: f64) -> SprtState {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtState::AcceptH1
        } else if llr <= lo {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    // Expected values below were computed independently with Python 3 (math.erf,
    // math.log10, math.log) from the formulas in the module documentation.

    #[test]
    fn elo_score_round_trip() {
        assert!(close(elo_from_score(0.75), 190.848_501_887_864_9, 1e-9));
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        assert!(close(score_from_elo(100.0), 0.640_064_999_802_885_1, 1e-12));
        assert!(close(score_from_elo(-400.0), 1.0 / 11.0, 1e-12));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn normal_cdf() {
        assert!(close(phi(0.0), 0.5, 1e-7));
        assert!(close(phi(1.0), 0.841_344_746_068_542_9, 2e-7));
        assert!(close(phi(-1.959_963_984_540_054), 0.025, 1e-7));
        assert!(close(phi(3.0), 0.998_650_101_968_369_9, 1e-7));
        assert!(close(erfc(0.5), 0.479_500_122_186_953_5, 1e-7));
    }

    #[test]
    fn elo_interval_and_los() {
        let r = Wld {
            w: 60,
            l: 30,
            d: 10,
        };
        let e = elo_trinomial(&r).unwrap();
        assert!(close(e.score, 0.65, 1e-12));
        assert!(close(e.elo, 107.538_124_917_032_04, 1e-9));
        assert!(close(e.lower, 43.164_888_302_968_265, 1e-6), "{}", e.lower);
        assert!(close(e.upper, 180.080_302_653_605, 1e-6), "{}", e.upper);
        assert!(close(los(&r), 0.999_217_298_870_998_7, 1e-6));
        assert!(close(los(&Wld { w: 5, l: 5, d: 3 }), 0.5, 1e-7));
        assert!(close(los(&Wld { w: 0, l: 0, d: 3 }), 0.5, 1e-12));
        let p = elo_pentanomial(&[2, 8, 20, 12, 8]).unwrap();
        assert!(close(p.score, 0.58, 1e-12));
        assert!(close(p.elo, 56.071_481_266_014_7, 1e-9));
        assert!(close(p.lower, 5.143_755_246_732_9, 1e-6), "{}", p.lower);
        assert!(close(p.upper, 109.525_432_438_417_33, 1e-6), "{}", p.upper);
        assert!(elo_trinomial(&Wld::default()).is_none());
        // One-sided results fall back to Wilson's interval.
        let all = elo_trinomial(&Wld { w: 8, l: 0, d: 0 }).unwrap();
        assert_eq!(all.elo, f64::INFINITY);
        assert_eq!(all.upper, f64::INFINITY);
        assert!(
            close(all.lower, 127.437_521_980_668_41, 1e-6),
            "{}",
            all.lower
        );
        let draws = elo_trinomial(&Wld { w: 0, l: 0, d: 10 }).unwrap();
        assert!(close(draws.elo, 0.0, 1e-9));
        assert!(
            close(draws.lower, -203.501_611_627_731_8, 1e-6),
            "{}",
            draws.lower
        );
        assert!(
            close(draws.upper, 203.501_611_627_731_8, 1e-6),
            "{}",
            draws.upper
        );
    }

    const LLR_NINE_DRAWS: f64 = -16.773_729_032_757_302;
    const LLR_TWELVE_PAIRS: f64 = 544.803_500_599_006_4;

    #[test]
    fn sprt_bounds_and_llr() {
        let s = Sprt::default();
        let (lo, hi) = s.bounds();
        assert!(close(lo, -2.944_438_979_166_440_3, 1e-12));
        assert!(close(hi, 2.944_438_979_166_440_3, 1e-12));
        let r = Wld {
            w: 60,
            l: 30,
            d: 10,
        };
        assert!(close(s.llr_trinomial(&r), 1.014_608_439_894_63, 1e-9));
        let s2 = Sprt {
            elo0: -5.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.1,
        };
        let (lo, hi) = s2.bounds();
        assert!(close(lo, -2.251_291_798_606_495, 1e-12));
        assert!(close(hi, 2.890_371_757_896_165, 1e-12));
        assert!(close(
            s2.llr_trinomial(&Wld {
                w: 510,
                l: 490,
                d: 100
            }),
            0.633_397_516_766_249_4,
            1e-9
        ));
        assert!(close(
            s.llr_pentanomial(&[2, 8, 20, 12, 8]),
            0.763_468_804_057_371_4,
            1e-9
        ));
        // Regularised empty categories: all draws lean to H0, all wins to H1.
        assert!(close(
            s.llr_trinomial(&Wld { w: 0, l: 0, d: 9 }),
            LLR_NINE_DRAWS,
            1e-6
        ));
        assert!(close(
            s.llr_pentanomial(&[0, 0, 0, 0, 12]),
            LLR_TWELVE_PAIRS,
            1e-6
        ));
        assert_eq!(s.llr_trinomial(&Wld::default()), 0.0);
        // One lost pair has an LLR past the lower bound, but decides nothing yet.
        let one_pair = s.llr_pentanomial(&[1, 0, 0, 0, 0]);
        assert!(one_pair < s.bounds().0, "{one_pair}");
        assert_eq!(s.decide(one_pair, 1), SprtState::Continue);
        assert_eq!(s.decide(one_pair, SPRT_MIN_UNITS), SprtState::AcceptH0);
        assert_eq!(s.state(3.0), SprtState::AcceptH1);
        assert_eq!(s.state(-3.0), SprtState::AcceptH0);
        assert_eq!(s.state(0.0), SprtState::Continue);
        assert!(Sprt { elo1: -1.0, ..s }.validate().is_err());
        assert!(s.validate().is_ok());
    }
}
