//! The SVG board image of an [`Analysis`]: a self-contained file that any browser shows.
//!
//! The grid has stones on its intersections, labelled as the text board is (letters across
//! from `a`, numbers down from 1 at the top). Stones carry their move numbers, the last
//! one ringed in red. Each scored square is filled with the colour of its score for the
//! side to move (red good, blue bad, white even; the deepest colours are proven wins and
//! losses) and shows the score as the text board does; Black's forbidden squares under
//! renju are crossed out; the best line's squares carry green badges numbered in the
//! order of play.

use super::input::numbered_stones;
use super::text::{cell_text, color_name, headline};
use super::Analysis;
use crate::board::{Color, Pos};
use crate::protocol::output::{column_text, eval_text, line_text};
use crate::search::score::is_decisive;
use std::fmt::Write;

/// Distance between two lines of the grid, in pixels.
const CELL: i32 = 40;
/// Room for the coordinates around the grid.
const MARGIN: i32 = 40;
/// Room for the title above the board and the caption below it.
const BAND: i32 = 30;
/// The score (centi-stones) coloured half way to the fullest colour short of a proof.
const HALF_SCALE: f64 = 500.0;
/// How far towards the proof colours an unproven score may go.
const MOST: f64 = 0.8;
/// The colours of a proven win and a proven loss.
const WON: (f64, f64, f64) = (178.0, 24.0, 43.0);
const LOST: (f64, f64, f64) = (33.0, 102.0, 172.0);

/// Escape text for XML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() && c != '\n' && c != '\t' => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// How far `score` goes from white towards its proof colour, in [0, 1], and that colour:
/// a soft curve (half way at [`HALF_SCALE`]) that only proofs reach the end of.
fn heat(score: i32) -> (f64, (f64, f64, f64)) {
    let towards = if score >= 0 { WON } else { LOST };
    if is_decisive(score) {
        return (1.0, towards);
    }
    let s = f64::from(score).abs();
    (MOST * s / (s + HALF_SCALE), towards)
}

/// The fill colour of a score for the side to move: white at 0, towards red for good
/// scores and blue for bad ones; proven wins and losses are the deepest red and blue.
pub fn heat_color(score: i32) -> String {
    let (t, (r, g, b)) = heat(score);
    let mix = |c: f64| (255.0 + (c - 255.0) * t).round() as u8;
    format!("#{:02x}{:02x}{:02x}", mix(r), mix(g), mix(b))
}

/// The colour of text on a square of this score: white on the deep colours.
fn ink(score: i32) -> &'static str {
    if heat(score).0 > 0.5 {
        "#ffffff"
    } else {
        "#222222"
    }
}

/// The centre of the intersection `pos`, in pixels.
fn centre(pos: Pos) -> (i32, i32) {
    (
        MARGIN + pos.x() as i32 * CELL,
        BAND + MARGIN + pos.y() as i32 * CELL,
    )
}

/// The whole SVG document.
pub fn document(analysis: &Analysis) -> String {
    let b = analysis.position.board();
    let (w, h) = (b.width() as i32, b.height() as i32);
    let width = 2 * MARGIN + (w - 1) * CELL;
    let height = 2 * BAND + 2 * MARGIN + (h - 1) * CELL;
    let mut out = String::new();
    let _ = writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#);
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif">"#
    );
    let _ = writeln!(
        out,
        "<title>Rensa analysis: {}</title>",
        escape(&headline(analysis))
    );
    let _ = writeln!(
        out,
        r##"<rect x="0" y="0" width="{width}" height="{height}" fill="#e9c98b"/>"##
    );
    title(&mut out, analysis, width, height);
    grid(&mut out, w, h);
    tiles(&mut out, analysis);
    forbidden(&mut out, analysis);
    stones(&mut out, analysis);
    best_line(&mut out, analysis);
    out.push_str("</svg>\n");
    out
}

/// The headline above the board and the caption with the best line below it.
fn title(out: &mut String, analysis: &Analysis, width: i32, height: i32) {
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" font-size="16" text-anchor="middle">{}</text>"#,
        width / 2,
        BAND - 8,
        escape(&headline(analysis))
    );
    let side = color_name(analysis.heatmap.to_move);
    let caption = match analysis.heatmap.lines.first() {
        Some(line) => format!(
            "Scores for {side} (red good, blue bad). Best: {} {}",
            eval_text(line.score),
            line_text(&line.moves)
        ),
        None => format!("No legal move near the stones for {side}"),
    };
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" font-size="13" text-anchor="middle">{}</text>"#,
        width / 2,
        height - 10,
        escape(&caption)
    );
}

/// The grid lines and the coordinates on all four sides.
fn grid(out: &mut String, w: i32, h: i32) {
    let (left, top) = centre(Pos::new(0, 0));
    let (right, bottom) = centre(Pos::new(w as usize - 1, h as usize - 1));
    out.push_str(r##"<g stroke="#5a4326" stroke-width="1">"##);
    out.push('\n');
    for x in 0..w {
        let px = left + x * CELL;
        let _ = writeln!(
            out,
            r#"<line x1="{px}" y1="{top}" x2="{px}" y2="{bottom}"/>"#
        );
    }
    for y in 0..h {
        let py = top + y * CELL;
        let _ = writeln!(
            out,
            r#"<line x1="{left}" y1="{py}" x2="{right}" y2="{py}"/>"#
        );
    }
    out.push_str("</g>\n");
    out.push_str(r##"<g font-size="14" fill="#3b2a14" text-anchor="middle">"##);
    out.push('\n');
    for x in 0..w {
        let px = left + x * CELL;
        let label = escape(&column_text(x as usize));
        for py in [top - MARGIN / 2, bottom + MARGIN / 2 + 10] {
            let _ = writeln!(out, r#"<text x="{px}" y="{py}">{label}</text>"#);
        }
    }
    for y in 0..h {
        let py = top + y * CELL + 5;
        for px in [left - MARGIN / 2 - 2, right + MARGIN / 2 + 2] {
            let _ = writeln!(out, r#"<text x="{px}" y="{py}">{}</text>"#, y + 1);
        }
    }
    out.push_str("</g>\n");
}

/// Each scored square as a coloured tile with its score.
fn tiles(out: &mut String, analysis: &Analysis) {
    let half = CELL / 2 - 2;
    out.push_str(r#"<g font-size="11" text-anchor="middle">"#);
    out.push('\n');
    for square in &analysis.heatmap.squares {
        let (cx, cy) = centre(square.pos);
        let _ = writeln!(
            out,
            r##"<rect x="{}" y="{}" width="{}" height="{}" rx="4" fill="{}" fill-opacity="0.9" stroke="#5a4326" stroke-opacity="0.4"/>"##,
            cx - half,
            cy - half,
            2 * half,
            2 * half,
            heat_color(square.score)
        );
        let _ = writeln!(
            out,
            r#"<text x="{cx}" y="{}" fill="{}">{}</text>"#,
            cy + 4,
            ink(square.score),
            escape(&cell_text(square.score))
        );
    }
    out.push_str("</g>\n");
}

/// Black's forbidden squares, crossed out.
fn forbidden(out: &mut String, analysis: &Analysis) {
    let d = CELL / 4;
    out.push_str(r##"<g stroke="#8b0000" stroke-width="3" stroke-linecap="round">"##);
    out.push('\n');
    for &pos in &analysis.heatmap.forbidden {
        let (cx, cy) = centre(pos);
        let _ = writeln!(
            out,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}"/><line x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
            cx - d,
            cy - d,
            cx + d,
            cy + d,
            cx - d,
            cy + d,
            cx + d,
            cy - d
        );
    }
    out.push_str("</g>\n");
}

/// The stones with their move numbers; the last one ringed in red.
fn stones(out: &mut String, analysis: &Analysis) {
    let r = CELL * 9 / 20;
    let last = analysis.position.last_move();
    out.push_str(r#"<g font-size="14" font-weight="bold" text-anchor="middle">"#);
    out.push('\n');
    for (i, (pos, color)) in numbered_stones(&analysis.position).into_iter().enumerate() {
        let (cx, cy) = centre(pos);
        let (fill, ink) = match color {
            Color::Black => ("#111111", "#ffffff"),
            Color::White => ("#fafafa", "#111111"),
        };
        let stroke = if last == Some(pos) {
            r##"stroke="#d7301f" stroke-width="3""##
        } else {
            r##"stroke="#111111" stroke-width="1""##
        };
        let _ = writeln!(
            out,
            r#"<circle cx="{cx}" cy="{cy}" r="{r}" fill="{fill}" {stroke}/>"#
        );
        let _ = writeln!(
            out,
            r#"<text x="{cx}" y="{}" fill="{ink}">{}</text>"#,
            cy + 5,
            i + 1
        );
    }
    for pos in analysis.position.board().positions() {
        if analysis.position.board().cell(pos) == crate::board::Cell::Blocked {
            let (cx, cy) = centre(pos);
            let _ = writeln!(
                out,
                r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#555555"/>"##,
                cx - r,
                cy - r,
                2 * r,
                2 * r
            );
        }
    }
    out.push_str("</g>\n");
}

/// The best line: a green badge on each of its squares, numbered in the order of play.
fn best_line(out: &mut String, analysis: &Analysis) {
    let Some(line) = analysis.heatmap.lines.first() else {
        return;
    };
    out.push_str(r#"<g font-size="11" font-weight="bold" text-anchor="middle">"#);
    out.push('\n');
    for (i, &pos) in line.moves.iter().enumerate() {
        let (cx, cy) = centre(pos);
        let (bx, by) = (cx + CELL / 3, cy - CELL / 3);
        let _ = writeln!(
            out,
            r##"<circle cx="{bx}" cy="{by}" r="8" fill="#1a9641" stroke="#ffffff" stroke-width="1"/><text x="{bx}" y="{}" fill="#ffffff">{}</text>"##,
            by + 4,
            i + 1
        );
    }
    out.push_str("</g>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::WIN;

    #[test]
    fn text_is_escaped() {
        assert_eq!(
            escape(r#"a<b & "c" 'd'>"#),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;"
        );
        assert_eq!(escape("x\u{1}y"), "x?y");
    }

    #[test]
    fn colours_run_from_blue_through_white_to_red() {
        assert_eq!(heat_color(0), "#ffffff");
        assert_eq!(heat_color(WIN - 3), "#b2182b");
        assert_eq!(heat_color(-(WIN - 3)), "#2166ac");
        // Half way (of the most an unproven score gets) at 500 centi-stones.
        assert_eq!(heat_color(500), "#e0a3aa");
        assert_ne!(heat_color(9_000), heat_color(WIN - 3));
        assert!(
            heat_color(-200) > heat_color(-2_000),
            "paler for smaller losses"
        );
        assert_eq!(
            (ink(0), ink(WIN - 1), ink(-3_000)),
            ("#222222", "#ffffff", "#ffffff")
        );
    }
}
