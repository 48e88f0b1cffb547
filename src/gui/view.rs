//! The state as the page reads it: one JSON object, sent by `GET /api/state`, after every
//! successful `POST` and on every change by `GET /api/events`.
//!
//! Squares are `[x, y]`, 0-based, y from the top; `text` fields spell squares as `h8`
//! and scores as the protocol does (`+35`, `+M7`). Scores in `evals` are Black's view;
//! `rate` is the matching chance of winning, 0 to 1.

use super::state::{color_name, Analysed, State, Thinking};
use crate::board::{Color, Pos};
use crate::protocol::output::{coord_text, eval_text, win_rate};
use crate::records::openings::{format_line, OpeningFormat};
use crate::search::score::is_decisive;
use serde_json::{json, Value};

/// `[x, y]`.
fn square(p: Pos) -> Value {
    json!([p.x(), p.y()])
}

fn squares(ps: &[Pos]) -> Value {
    Value::Array(ps.iter().map(|&p| square(p)).collect())
}

/// `{"score": 35, "text": "+35", "proven": false, "rate": 0.58}`.
fn score(s: i32) -> Value {
    json!({
        "score": s,
        "text": eval_text(s),
        "proven": is_decisive(s),
        "rate": (win_rate(s) * 1000.0).round() / 1000.0,
    })
}

/// The moves in pos format (`h8i9j10`), None where a column has no letter (past `z`).
pub fn pos_text(moves: &[Pos]) -> Option<String> {
    let squares: Vec<(i64, i64)> = moves.iter().map(|p| (p.x() as i64, p.y() as i64)).collect();
    format_line(&squares, OpeningFormat::Pos).ok()
}

fn thinking(t: &Thinking) -> Value {
    json!({
        "depth": t.depth,
        "score": t.score.map(score),
        "pv": t.pv.iter().map(|&p| coord_text(p)).collect::<Vec<_>>(),
        "pv_squares": squares(&t.pv),
        "nodes": t.nodes,
        "elapsed_ms": t.elapsed_ms,
    })
}

fn analysis(a: &Analysed) -> Value {
    let map = &a.heatmap;
    let cells: Vec<Value> = map
        .squares
        .iter()
        .map(|s| {
            json!({
                "x": s.pos.x(), "y": s.pos.y(), "score": s.score,
                "text": eval_text(s.score), "proven": is_decisive(s.score),
            })
        })
        .collect();
    let lines: Vec<Value> = map
        .lines
        .iter()
        .map(|l| {
            json!({
                "score": score(l.score),
                "moves": l.moves.iter().map(|&p| coord_text(p)).collect::<Vec<_>>(),
                "squares": squares(&l.moves),
            })
        })
        .collect();
    json!({
        "to_move": color_name(map.to_move),
        "depth": map.depth,
        "nodes": map.nodes,
        "elapsed_ms": map.elapsed.as_millis() as u64,
        "heatmap": cells,
        "lines": lines,
        "forbidden": squares(&map.forbidden),
    })
}

/// The whole state.
pub fn state(s: &State) -> Value {
    let outcome = s.outcome().map(|o| {
        let text = match o.winner {
            Some(Color::Black) => "Black wins",
            Some(Color::White) => "White wins",
            None => "Draw: the board is full",
        };
        json!({
            "winner": o.winner.map(color_name),
            "line": squares(&o.line),
            "text": text,
        })
    });
    let setup = &s.setup;
    let evals: Vec<Value> = s
        .evals
        .iter()
        .map(|e| e.map_or(Value::Null, score))
        .collect();
    json!({
        "version": s.version,
        "width": setup.width,
        "height": setup.height,
        "rule": setup.rule.to_string(),
        "rule_code": setup.rule.code(),
        "players": {
            "black": setup.players[0].name(),
            "white": setup.players[1].name(),
        },
        "level": setup.level,
        "time_ms": setup.time_ms,
        "seed": setup.seed,
        "moves": squares(s.moves()),
        "pos": pos_text(s.moves()),
        "to_move": color_name(s.to_move()),
        "redo": s.redo.len(),
        "result": outcome,
        "forbidden": squares(&s.forbidden()),
        "thinking": s.thinking.as_ref().map(thinking),
        "engine": {
            "name": s.engine_name,
            "external": s.external,
            "busy": s.busy.is_some(),
            "error": s.engine_error,
        },
        "evals": evals,
        "analysing": s.analysing,
        "analysis": s.current_analysis().map(analysis),
    })
}
