//! Search output in the field's common text forms (Rapfi's, which Yixin-Board and
//! third-party clients such as pygomo read): coordinates as `h8` (a letter for x from `a`,
//! y from 1), evaluations with mate distances as `+M7` / `-M7`, and one line per
//! completed iteration:
//!
//! ```text
//! MESSAGE Depth 12-20 | Eval 150 | Time 0.34s | h8 i9 j10
//! ```
//!
//! Rapfi writes times under 10 s as whole milliseconds (`340ms`); Rensa writes them as
//! seconds with two decimals (`0.34s`), the form pygomo's parser accepts along with the
//! line's principal variation (its `Time` pattern is digits and dots, then `s` or `m`).
//! Longer times are written as Rapfi does (`12s`, `3min`, `2h`).

use crate::board::Pos;
use crate::search::score::{WIN, WIN_BOUND};
use crate::search::{RootEvent, SearchInfo};
use std::time::Duration;

/// A square as `h8`: letter for x (from `a`), number for y (from 1).
pub fn coord_text(pos: Pos) -> String {
    format!("{}{}", column_text(pos.x()), pos.y() + 1)
}

/// The letter of column `x` (from `a`), as [`coord_text`] writes it.
pub fn column_text(x: usize) -> String {
    if x < 26 {
        char::from(b'a' + x as u8).to_string()
    } else {
        // Boards up to 32 wide: past `z` the letters go on as `{`, which nobody reads;
        // write such columns as a bracketed number instead.
        format!("[{}]", x + 1)
    }
}

/// A line of moves as `h8 i9 j10`.
pub fn line_text(moves: &[Pos]) -> String {
    moves
        .iter()
        .map(|&p| coord_text(p))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A score as Rapfi writes it: centi-stones, or `+M<n>` / `-M<n>` for a win or loss in
/// `n` plies.
pub fn eval_text(score: i32) -> String {
    if score >= WIN_BOUND {
        format!("+M{}", WIN - score)
    } else if score <= -WIN_BOUND {
        format!("-M{}", WIN + score)
    } else {
        score.to_string()
    }
}

/// A duration as in the module comment: `0.34s` under 10 s, then `12s`, `3min`, `2h`.
pub fn time_text(elapsed: Duration) -> String {
    let ms = elapsed.as_millis();
    if ms < 10_000 {
        format!("{:.2}s", elapsed.as_secs_f64())
    } else if ms < 1_000_000 {
        format!("{}s", ms / 1000)
    } else if ms < 360_000_000 {
        format!("{}min", ms / 60_000)
    } else {
        format!("{}h", ms / 3_600_000)
    }
}

/// The text of one completed iteration (without the `MESSAGE ` prefix).
pub fn depth_line(info: &SearchInfo) -> String {
    format!(
        "Depth {}-{} | Eval {} | Time {} | {}",
        info.depth,
        info.seldepth.max(info.depth),
        eval_text(info.score),
        time_text(info.elapsed),
        line_text(&info.pv)
    )
}

/// A realtime root event as Yixin-Board reads it (without the `MESSAGE ` prefix):
/// `REALTIME POS x,y`, `REALTIME DONE x,y`, `REALTIME BEST x,y`, `REALTIME LOST x,y`,
/// `REALTIME REFRESH`.
pub fn realtime_line(event: RootEvent) -> String {
    let square = |kind: &str, p: Pos| format!("REALTIME {kind} {},{}", p.x(), p.y());
    match event {
        RootEvent::Refresh => "REALTIME REFRESH".to_string(),
        RootEvent::Searching(p) => square("POS", p),
        RootEvent::Done(p) => square("DONE", p),
        RootEvent::Best(p) => square("BEST", p),
        RootEvent::Lost(p) => square("LOST", p),
    }
}

/// One line of a multi-PV report as Rapfi writes it: `(1) 150 | 12-20 | h8 i9 j10`
/// (without the `MESSAGE ` prefix; the index counts from 1).
pub fn multi_pv_line(info: &SearchInfo) -> String {
    format!(
        "({}) {} | {}-{} | {}",
        info.pv_index + 1,
        eval_text(info.score),
        info.depth,
        info.seldepth.max(info.depth),
        line_text(&info.pv)
    )
}

/// The scores' logistic scale: a score of `WIN_RATE_SCALE` is a 73 % winning chance.
/// The learned evaluation's points are its logit times the scale `train` fits to the
/// results of Rensa's self-play games (`bench/README.md`): K = 3696 freestyle, 4083
/// standard, 4074 renju on the 2,337,073 positions behind today's weights (3108, 3002,
/// 2764 on the 729,177 positions of a400a72's games behind the earlier ones); 3800 is
/// between them, freestyle weighing most.
pub const WIN_RATE_SCALE: f64 = 3800.0;

/// A winning probability for the side to move in [0, 1] from a score, for `INFO
/// WINRATE` and the board's graph: a logistic curve with 50 % at 0 and 73 % at
/// [`WIN_RATE_SCALE`]; proven wins and losses give 1 and 0.
pub fn win_rate(score: i32) -> f64 {
    if score >= WIN_BOUND {
        1.0
    } else if score <= -WIN_BOUND {
        0.0
    } else {
        1.0 / (1.0 + (-f64::from(score) / WIN_RATE_SCALE).exp())
    }
}

/// The Yixin-Board block for one principal variation (`INFO PV i` … `INFO PV DONE`),
/// one line per element, without the line ends: the line's index, count and nodes come
/// from `info`, as do the search's total nodes and time so far.
pub fn pv_block(info: &SearchInfo) -> Vec<String> {
    let ms = info.elapsed.as_millis().max(1);
    let speed = u128::from(info.nodes) * 1000 / ms;
    let bestline: Vec<String> = info
        .pv
        .iter()
        .map(|p| format!("{},{}", p.x(), p.y()))
        .collect();
    vec![
        format!("INFO PV {}", info.pv_index),
        format!("INFO NUMPV {}", info.pv_count),
        format!("INFO DEPTH {}", info.depth),
        format!("INFO SELDEPTH {}", info.seldepth.max(info.depth)),
        format!("INFO NODES {}", info.line_nodes),
        format!("INFO TOTALNODES {}", info.nodes),
        format!("INFO TOTALTIME {}", info.elapsed.as_millis()),
        format!("INFO SPEED {speed}"),
        format!("INFO EVAL {}", eval_text(info.score)),
        format!("INFO WINRATE {:.4}", win_rate(info.score)),
        format!("INFO BESTLINE {}", bestline.join(" ")),
        "INFO PV DONE".to_string(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(score: i32, ms: u64, pv: &[(usize, usize)]) -> SearchInfo {
        SearchInfo {
            depth: 12,
            seldepth: 20,
            pv_index: 0,
            pv_count: 1,
            line_nodes: 5_000,
            score,
            nodes: 5_000,
            elapsed: Duration::from_millis(ms),
            pv: pv.iter().map(|&(x, y)| Pos::new(x, y)).collect(),
        }
    }

    #[test]
    fn an_iteration_reads_as_rapfi_writes_it() {
        let line = depth_line(&info(150, 340, &[(7, 7), (8, 8), (9, 9)]));
        assert_eq!(line, "Depth 12-20 | Eval 150 | Time 0.34s | h8 i9 j10");
        let line = depth_line(&info(WIN - 7, 12_345, &[(0, 14)]));
        assert_eq!(line, "Depth 12-20 | Eval +M7 | Time 12s | a15");
        assert_eq!(eval_text(-(WIN - 4)), "-M4");
        assert_eq!(eval_text(-35), "-35");
        assert_eq!(time_text(Duration::from_secs(200)), "200s");
        assert_eq!(time_text(Duration::from_secs(2000)), "33min");
        assert_eq!(coord_text(Pos::new(27, 0)), "[28]1");
        let mut second = info(-40, 100, &[(3, 4), (5, 5)]);
        second.pv_index = 1;
        assert_eq!(multi_pv_line(&second), "(2) -40 | 12-20 | d5 f6");
        assert_eq!(
            realtime_line(RootEvent::Searching(Pos::new(3, 11))),
            "REALTIME POS 3,11"
        );
        assert_eq!(
            realtime_line(RootEvent::Lost(Pos::new(0, 1))),
            "REALTIME LOST 0,1"
        );
        assert_eq!(realtime_line(RootEvent::Refresh), "REALTIME REFRESH");
    }

    #[test]
    fn a_pv_block_is_framed_and_complete() {
        let block = pv_block(&info(WIN - 3, 1000, &[(7, 7), (8, 8)]));
        assert_eq!(block.first().unwrap(), "INFO PV 0");
        assert_eq!(block.last().unwrap(), "INFO PV DONE");
        assert!(block.contains(&"INFO BESTLINE 7,7 8,8".to_string()));
        assert!(block.contains(&"INFO EVAL +M3".to_string()));
        assert!(block.contains(&"INFO WINRATE 1.0000".to_string()));
        assert!(block.contains(&"INFO SPEED 5000".to_string()));
        assert!((win_rate(0) - 0.5).abs() < 1e-9);
        let k = WIN_RATE_SCALE as i32;
        assert!((win_rate(k) - 0.7311).abs() < 1e-3 && (win_rate(-k) - 0.2689).abs() < 1e-3);
    }
}
