//! How a search spends its move: when iterative deepening stops, and how the move is split
//! between the root threat solvers and the main search. The budget itself comes from
//! [`super::TimeSettings::budget`]; these rules work inside it.

use std::time::Duration;

/// The time after which iterative deepening begins no new iteration: the optimum, cut to
/// 6/10 once the best move has held for three iterations and stretched to 14/10 while it
/// keeps changing, never past the hard limit.
pub fn iteration_target(optimum: Duration, maximum: Duration, stable_iterations: u32) -> Duration {
    let factor = if stable_iterations >= 3 {
        0.6
    } else if stable_iterations == 0 {
        1.4
    } else {
        1.0
    };
    optimum.mul_f64(factor).min(maximum)
}

/// The part of the optimum time the root VCF and VCT may use before the main search (one
/// thread): a quarter up to an optimum of 750 ms (1 s per move), rising to a half from
/// 1750 ms. A root VCT that runs long rarely wins in games, while the main search it
/// starves decides the threat-rich positions it runs in: in 160 full-time moves of a
/// PentaZen gauntlet at 1 s per move, the VCT (which then had up to 828 ms) ran out in 11
/// and won in none, leaving the main search 92 ms. The quintet VCT set still needs a long
/// VCT for one board (vct_game_black_l11_3, about 0.94 M nodes): a half at 3 s per move
/// solves all 44; a quarter at 1 s per move solves 43 (see `bench/elo-log.md`).
pub fn threat_share(optimum: Duration) -> f64 {
    let ms = optimum.as_secs_f64() * 1000.0;
    0.25 + 0.25 * ((ms - 750.0) / 1000.0).clamp(0.0, 1.0)
}

/// Time the root VCF and VCT get before (one thread) or beside (the threat thread) the
/// main search: [`threat_share`] of the optimum, the optimum never past the hard limit.
pub fn threat_time(optimum: Duration, maximum: Duration) -> Duration {
    let optimum = optimum.min(maximum);
    optimum.mul_f64(threat_share(optimum))
}

/// Time for the threat thread's look for an opponent VCT after one candidate root move: a
/// quarter of the optimum (at least 10 ms).
pub fn reply_check_time(optimum: Duration, maximum: Duration) -> Duration {
    (optimum.min(maximum) / 4).max(Duration::from_millis(10))
}

/// Time for one look for an opponent VCT on the main thread when no threat thread runs
/// (see `search::defence::ReplyCheck`): an eighth of the optimum (at least 10 ms), so that
/// a pass check and a few candidates cost about half of it. At 1 s per move: 92 ms.
pub fn single_thread_check_time(optimum: Duration, maximum: Duration) -> Duration {
    (optimum.min(maximum) / 8).max(Duration::from_millis(10))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn deepening_stops_sooner_on_a_stable_move_and_later_on_a_changing_one() {
        assert_eq!(iteration_target(ms(500), ms(900), 3), ms(300));
        assert_eq!(iteration_target(ms(500), ms(900), 1), ms(500));
        assert_eq!(iteration_target(ms(500), ms(900), 0), ms(700));
        // Never past the hard limit.
        assert_eq!(iteration_target(ms(800), ms(900), 0), ms(900));
    }

    #[test]
    fn threat_share_rises_from_a_quarter_to_a_half() {
        assert_eq!(threat_share(ms(100)), 0.25);
        assert_eq!(threat_share(ms(736)), 0.25);
        assert_eq!(threat_share(ms(1250)), 0.375);
        assert_eq!(threat_share(ms(2256)), 0.5);
        assert_eq!(threat_time(ms(400), ms(1000)), ms(100));
        // The optimum is cut to the hard limit first: 0.3125 of 1000 ms.
        assert_eq!(
            threat_time(ms(4000), ms(1000)),
            Duration::from_micros(312_500)
        );
    }
}
