//! The text report of an [`Analysis`]: a headline, the best lines, and the board with
//! every scored square's score, in columns of equal width.
//!
//! ```text
//!          a     b     c     d
//!    1     .     .   +12  -415
//!    2     .     X   [O]   +M3
//! ```
//!
//! Coordinates are those of `h8`: letters across from `a`, numbers down from 1 at the top.
//! Stones are `X` (Black) and `O` (White), the last one in brackets; `#` is a blocked
//! square, `f` one of Black's forbidden squares under renju, `.` a square not scored.
//! Scores are centi-stones for the side to move, clipped to ±9999, or `+M<n>` / `-M<n>`
//! for a win or loss in `n` plies.

use super::heatmap::Budget;
use super::Analysis;
use crate::board::{Cell, Color, Pos};
use crate::protocol::output::{column_text, eval_text, line_text, time_text};
use crate::search::score::is_decisive;
use std::fmt::Write;

/// Width of one board column.
const CELL_WIDTH: usize = 6;

/// Largest centi-stone score shown as it is; larger ones are clipped.
const CLIP: i32 = 9_999;

/// A colour's name, capitalised.
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// A score as the board shows it: at most five characters.
pub fn cell_text(score: i32) -> String {
    let text = if is_decisive(score) {
        eval_text(score)
    } else {
        score.clamp(-CLIP, CLIP).to_string()
    };
    // Proofs are at most 999 plies long (see `WIN_BOUND`): five characters at most.
    if text.starts_with(['-', '+']) || text == "0" {
        text
    } else {
        format!("+{text}")
    }
}

/// The first line of every report: size, rule, stones, side to move.
pub fn headline(analysis: &Analysis) -> String {
    let b = analysis.position.board();
    let stones = b.count(Color::Black) + b.count(Color::White);
    format!(
        "{}x{} {}, {stones} stone{}, {} to move",
        b.width(),
        b.height(),
        analysis.position.rule(),
        if stones == 1 { "" } else { "s" },
        color_name(analysis.position.to_move())
    )
}

/// The budget in words: `1000000 nodes` or `2.00s`.
pub fn budget_text(budget: Budget) -> String {
    match budget {
        Budget::Nodes(n) => format!("{n} nodes"),
        Budget::Time(t) => time_text(t),
    }
}

/// The whole report.
pub fn report(analysis: &Analysis) -> String {
    let map = &analysis.heatmap;
    let mut out = String::new();
    let _ = writeln!(out, "Position: {}", headline(analysis));
    let _ = writeln!(
        out,
        "Search: budget {}, depth {}, {} nodes, {}",
        budget_text(analysis.budget),
        map.depth,
        map.nodes,
        time_text(map.elapsed)
    );
    out.push('\n');
    let side = color_name(map.to_move);
    if map.lines.is_empty() {
        let _ = writeln!(out, "No legal move near the stones.");
    } else {
        let _ = writeln!(out, "Best lines (scores for {side}):");
        for (i, line) in map.lines.iter().enumerate() {
            let _ = writeln!(
                out,
                "{:>3}. {:>6}  {}",
                i + 1,
                eval_text(line.score),
                line_text(&line.moves)
            );
        }
    }
    out.push('\n');
    let _ = writeln!(
        out,
        "Heatmap (centi-stones for {side}, +M<n>/-M<n> a win/loss in n plies; X Black, \
         O White, [ ] the last move, # blocked, f forbidden for Black):"
    );
    out.push_str(&board(analysis));
    out
}

/// The board with stones and scores, one text line per row and a header of column letters.
pub fn board(analysis: &Analysis) -> String {
    let b = analysis.position.board();
    let last = analysis.position.last_move();
    let mut out = String::from("   ");
    for x in 0..b.width() {
        let _ = write!(out, "{:>w$}", column_text(x), w = CELL_WIDTH);
    }
    out.push('\n');
    for y in 0..b.height() {
        let _ = write!(out, "{:>3}", y + 1);
        for x in 0..b.width() {
            let pos = Pos::new(x, y);
            let cell = square_text(analysis, pos, last == Some(pos));
            let _ = write!(out, "{cell:>w$}", w = CELL_WIDTH);
        }
        out.push('\n');
    }
    out
}

/// What one square shows on the text board.
fn square_text(analysis: &Analysis, pos: Pos, last: bool) -> String {
    let stone = |c: &str| {
        if last {
            format!("[{c}]")
        } else {
            c.to_string()
        }
    };
    match analysis.position.board().cell(pos) {
        Cell::Stone(Color::Black) => stone("X"),
        Cell::Stone(Color::White) => stone("O"),
        Cell::Blocked => "#".to_string(),
        Cell::Empty => match analysis.heatmap.score_at(pos) {
            Some(score) => cell_text(score),
            None if analysis.heatmap.is_forbidden(pos) => "f".to_string(),
            None => ".".to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::input::from_pos;
    use crate::rules::Rule;
    use crate::search::score::WIN;

    #[test]
    fn scores_fit_five_characters() {
        assert_eq!(cell_text(35), "+35");
        assert_eq!(cell_text(0), "0");
        assert_eq!(cell_text(-4000), "-4000");
        assert_eq!(cell_text(-12_000), "-9999");
        assert_eq!(cell_text(15_000), "+9999");
        assert_eq!(cell_text(WIN - 7), "+M7");
        assert_eq!(cell_text(-(WIN - 13)), "-M13");
        assert_eq!(cell_text(-(WIN - 999)), "-M999");
    }

    #[test]
    fn the_report_has_lines_and_a_labelled_board() {
        let position = from_pos("h8i9", 15, 15, Rule::Freestyle).unwrap();
        let analysis = Analysis::run(position, Budget::Nodes(10_000), 2);
        let text = report(&analysis);
        assert!(text.contains("Position: 15x15 freestyle, 2 stones, Black to move"));
        assert!(text.contains("Best lines (scores for Black):"));
        assert!(text.contains("  1. "), "{text}");
        assert!(text.contains("  2. "), "{text}");
        let board = board(&analysis);
        let rows: Vec<&str> = board.lines().collect();
        assert_eq!(rows.len(), 16);
        assert!(rows[0].trim_start().starts_with("a     b     c"));
        assert!(rows[0].trim_end().ends_with('o'));
        // Row 8 holds Black's h8, row 9 White's i9 as the last move.
        assert_eq!(&rows[8][3 + 7 * CELL_WIDTH..3 + 8 * CELL_WIDTH], "     X");
        assert_eq!(&rows[9][3 + 8 * CELL_WIDTH..3 + 9 * CELL_WIDTH], "   [O]");
        assert!(rows[1].trim_start().starts_with("1     ."));
        assert!(rows.iter().all(|r| r.len() == 3 + 15 * CELL_WIDTH));
        let one = Analysis::run(
            from_pos("h8", 15, 15, Rule::Freestyle).unwrap(),
            Budget::Nodes(2_000),
            1,
        );
        assert_eq!(headline(&one), "15x15 freestyle, 1 stone, White to move");
    }
}
