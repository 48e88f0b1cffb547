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
/// thread): a quarter at blitz speeds (up to 200 ms), rising to three quarters from 500 ms.
/// With little time the main search's depth matters most; with more, its depth grows
/// slowly while a longer VCT keeps finding wins (the quintet VCT set at 1 s per move: 37
/// published first moves with three quarters against 34 with a quarter).
pub fn threat_share(optimum: Duration) -> f64 {
    let ms = optimum.as_secs_f64() * 1000.0;
    0.25 + 0.5 * ((ms - 200.0) / 300.0).clamp(0.0, 1.0)
}

/// The part of the move that the main search keeps when only a per-move limit applies and
/// the root VCT may use the rest (see `Budget::unused_is_lost`): half of what the optimum
/// leaves after the VCF and VCT's usual share, at least [`MIN_MAIN_RESERVE`]. At 1 s per
/// move that gives the VCT 828 ms, run in one piece (a df-pn search cut short and resumed
/// takes a different, often longer path: vct_game_black_l11_3 took from 0.92 M to 1.63 M
/// nodes resumed, against 0.94 M in one piece). Positions where the VCT runs that long are
/// few in games (4 of 63 root VCTs at 1 s per move in a 6-game renju sample; most end
/// within milliseconds, and the main search then has the whole move) and rich in threats.
pub fn main_reserve(optimum: Duration, share: Duration) -> Duration {
    (optimum.saturating_sub(share) / 2).max(MIN_MAIN_RESERVE)
}

/// Time the threat thread's own VCT leaves before the hard limit when it may run that far
/// (only a per-move limit): for building its line and freeing its tables (3 ms seen after
/// a 0.5 s VCT).
pub const THREAT_THREAD_SLACK: Duration = Duration::from_millis(10);

/// The shortest main search worth keeping time for after a long root VCT (see
/// [`main_reserve`]).
pub const MIN_MAIN_RESERVE: Duration = Duration::from_millis(40);

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
    fn main_reserve_is_half_of_what_the_optimum_leaves_after_the_threat_share() {
        // 1 s per move: optimum 736 ms, threat share 552 ms.
        assert_eq!(main_reserve(ms(736), ms(552)), ms(92));
        // Little left after the share: the shortest reserve.
        assert_eq!(main_reserve(ms(100), ms(25)), ms(40));
        assert_eq!(main_reserve(ms(100), ms(200)), ms(40));
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
    fn threat_share_rises_from_a_quarter_to_three_quarters() {
        assert_eq!(threat_share(ms(100)), 0.25);
        assert_eq!(threat_share(ms(350)), 0.5);
        assert_eq!(threat_share(ms(2000)), 0.75);
    }
}
