//! The JSON of an [`Analysis`], for tools:
//!
//! ```json
//! {"width": 15, "height": 15, "rule": "freestyle", "rule_code": 0, "to_move": "white",
//!  "moves": [{"x": 7, "y": 7, "text": "h8", "color": "black"}],
//!  "budget": {"nodes": 1000000}, "depth": 6, "nodes": 1000123, "elapsed_ms": 2400,
//!  "lines": [{"score": 35, "text": "+35", "proven": false, "moves": ["i9", "j10"]}],
//!  "heatmap": [{"x": 8, "y": 8, "score": 35, "text": "+35", "proven": false,
//!               "searched_alone": false}],
//!  "forbidden": [{"x": 6, "y": 6, "text": "g7"}]}
//! ```
//!
//! Coordinates are 0-based with y from the top; `text` is the `h8` spelling of a square
//! or the `+M7` spelling of a score (centi-stones for the side to move; `proven` marks a
//! win or loss, its distance in plies in `text`). Written by hand: no serialiser is needed
//! for so small a document, and strings are escaped as JSON requires.

use super::heatmap::Budget;
use super::input::numbered_stones;
use super::Analysis;
use crate::board::{Color, Pos};
use crate::protocol::output::{coord_text, eval_text};
use crate::search::score::is_decisive;
use std::fmt::Write;

/// A JSON string literal of `text`, quotes included.
pub fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn color_text(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// `"x": 7, "y": 7, "text": "h8"` for a square.
fn square_fields(pos: Pos) -> String {
    format!(
        r#""x": {}, "y": {}, "text": {}"#,
        pos.x(),
        pos.y(),
        string(&coord_text(pos))
    )
}

/// `"score": 35, "text": "+35", "proven": false` for a score.
fn score_fields(score: i32) -> String {
    format!(
        r#""score": {score}, "text": {}, "proven": {}"#,
        string(&eval_text(score)),
        is_decisive(score)
    )
}

/// Items as a JSON array, one to a line.
fn array(items: impl Iterator<Item = String>) -> String {
    let items: Vec<String> = items.map(|i| format!("    {i}")).collect();
    if items.is_empty() {
        "[]".to_string()
    } else {
        format!("[\n{}\n  ]", items.join(",\n"))
    }
}

/// The whole JSON document.
pub fn document(analysis: &Analysis) -> String {
    let position = &analysis.position;
    let b = position.board();
    let map = &analysis.heatmap;
    let budget = match analysis.budget {
        Budget::Nodes(n) => format!(r#"{{"nodes": {n}}}"#),
        Budget::Time(t) => format!(r#"{{"time_ms": {}}}"#, t.as_millis()),
    };
    let moves = numbered_stones(position).into_iter().map(|(pos, color)| {
        format!(
            r#"{{{}, "color": {}}}"#,
            square_fields(pos),
            string(color_text(color))
        )
    });
    let lines = map.lines.iter().map(|line| {
        let moves: Vec<String> = line.moves.iter().map(|&p| string(&coord_text(p))).collect();
        format!(
            r#"{{{}, "moves": [{}]}}"#,
            score_fields(line.score),
            moves.join(", ")
        )
    });
    let heatmap = map.squares.iter().map(|s| {
        format!(
            r#"{{"x": {}, "y": {}, {}, "searched_alone": {}}}"#,
            s.pos.x(),
            s.pos.y(),
            score_fields(s.score),
            s.alone
        )
    });
    let forbidden = map
        .forbidden
        .iter()
        .map(|&p| format!("{{{}}}", square_fields(p)));
    let mut out = String::from("{\n");
    let fields = [
        ("width", b.width().to_string()),
        ("height", b.height().to_string()),
        ("rule", string(&position.rule().to_string())),
        ("rule_code", position.rule().code().to_string()),
        ("to_move", string(color_text(position.to_move()))),
        ("moves", array(moves)),
        ("budget", budget),
        ("depth", map.depth.to_string()),
        ("nodes", map.nodes.to_string()),
        ("elapsed_ms", map.elapsed.as_millis().to_string()),
        ("lines", array(lines)),
        ("heatmap", array(heatmap)),
        ("forbidden", array(forbidden)),
    ];
    let body: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("  {}: {v}", string(k)))
        .collect();
    out.push_str(&body.join(",\n"));
    out.push_str("\n}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::input::from_pos;
    use crate::rules::Rule;

    #[test]
    fn strings_are_escaped() {
        assert_eq!(string(r#"a"b\c"#), r#""a\"b\\c""#);
        assert_eq!(string("x\ny\u{1}"), r#""x\ny\u0001""#);
        assert_eq!(string("é"), "\"é\"");
    }

    #[test]
    fn the_document_lists_moves_lines_and_squares() {
        let position = from_pos("h8i9", 15, 15, Rule::Renju).unwrap();
        let analysis = Analysis::run(position, Budget::Nodes(10_000), 2);
        let doc = document(&analysis);
        assert!(doc.starts_with("{\n  \"width\": 15,\n  \"height\": 15,"));
        assert!(doc.contains(r#""rule": "renju""#));
        assert!(doc.contains(r#""rule_code": 4"#));
        assert!(doc.contains(r#""to_move": "black""#));
        assert!(doc.contains(r#"{"x": 7, "y": 7, "text": "h8", "color": "black"}"#));
        assert!(doc.contains(r#""budget": {"nodes": 10000}"#));
        assert!(doc.contains(r#""forbidden": []"#));
        let squares = doc.matches(r#""searched_alone""#).count();
        assert_eq!(squares, analysis.heatmap.squares.len());
        assert_eq!(doc.matches('{').count(), doc.matches('}').count());
        assert_eq!(doc.matches('[').count(), doc.matches(']').count());
    }
}
