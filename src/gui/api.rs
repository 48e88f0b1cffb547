//! The `POST` requests of the JSON API: each body read into its own type (unknown fields
//! are refused, so a typo is an error and not a silent default), checked, and applied to
//! the game. An error changes nothing.
//!
//! | Path | Body | Does |
//! | --- | --- | --- |
//! | `/api/new` | `{"width", "height", "rule", "black", "white", "level", "time_ms", "seed"}`, each optional | a new game; missing fields keep the current set-up (but `seed`, which is random unless given) |
//! | `/api/move` | `{"move": [x, y], "version": v}` (`version` optional) | a person's move |
//! | `/api/undo`, `/api/redo` | none | take back, play again |
//! | `/api/analyse` | `{"nodes", "lines", "game"}`, each optional | the heatmap, or with `game` the evaluation of every position |
//! | `/api/load` | `{"text", "format", "black", "white"}` | a `.psq`, SGF or pos move list replaces the game |
//! | `/api/restart-engine` | none | ask the failed engine again |

use super::analyse::{self, DEFAULT_GAME_NODES, DEFAULT_NODES};
use super::records::{self, Format};
use super::state::{Setup, Shared, Side};
use super::ApiError;
use crate::analysis::DEFAULT_LINES;
use crate::rules::Rule;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    width: Option<i64>,
    height: Option<i64>,
    rule: Option<Value>,
    black: Option<String>,
    white: Option<String>,
    level: Option<String>,
    time_ms: Option<u64>,
    seed: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Move {
    #[serde(rename = "move")]
    square: [i64; 2],
    version: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Analyse {
    nodes: Option<u64>,
    lines: Option<usize>,
    game: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Load {
    text: String,
    format: Option<String>,
    black: Option<String>,
    white: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Nothing {}

/// The body as `T`: an empty body is `{}`; anything but a JSON object is refused.
fn body<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let value: Value = if bytes.iter().all(u8::is_ascii_whitespace) {
        Value::Object(Default::default())
    } else {
        serde_json::from_slice(bytes).map_err(|e| ApiError::bad(format!("malformed JSON: {e}")))?
    };
    if !value.is_object() {
        return Err(ApiError::bad("the body must be a JSON object"));
    }
    serde_json::from_value(value).map_err(|e| ApiError::bad(format!("bad request: {e}")))
}

/// A rule given by name (`renju`) or Gomocup code (`4`).
fn rule(value: &Value) -> Result<Rule, ApiError> {
    let found = match value {
        Value::String(name) => Rule::ALL
            .into_iter()
            .find(|r| r.to_string().eq_ignore_ascii_case(name)),
        Value::Number(n) => n
            .as_u64()
            .and_then(|c| Rule::ALL.into_iter().find(|r| u64::from(r.code()) == c)),
        _ => None,
    };
    found.ok_or_else(|| {
        ApiError::bad(format!(
            "unknown rule {value}: freestyle, standard, renju, caro or caro-exact (or 0, 1, 4, 8, 9)"
        ))
    })
}

fn side(name: Option<&str>, current: Side, colour: &str) -> Result<Side, ApiError> {
    match name {
        None => Ok(current),
        Some(n) => Side::named(n).ok_or_else(|| {
            ApiError::bad(format!(
                "{colour} must be \"human\" or \"engine\", not {n:?}"
            ))
        }),
    }
}

/// A side length given as a number: out of range reads as an unsupported size.
fn length(v: i64) -> usize {
    usize::try_from(v).unwrap_or(0)
}

/// Carry out the `POST` to `path` with `bytes` as its body.
pub fn post(shared: &Shared, path: &str, bytes: &[u8]) -> Result<(), ApiError> {
    match path {
        "/api/new" => {
            let req: NewGame = body(bytes)?;
            let current = shared.lock().setup.clone();
            let setup = Setup {
                width: req.width.map_or(current.width, length),
                height: req.height.map_or(current.height, length),
                rule: req.rule.as_ref().map_or(Ok(current.rule), rule)?,
                players: [
                    side(req.black.as_deref(), current.players[0], "black")?,
                    side(req.white.as_deref(), current.players[1], "white")?,
                ],
                level: req.level.unwrap_or(current.level),
                time_ms: req.time_ms.unwrap_or(current.time_ms),
                seed: req.seed,
            };
            shared.update(|s| s.new_game(setup))
        }
        "/api/move" => {
            let req: Move = body(bytes)?;
            let [x, y] = req.square;
            shared.update(|s| s.human_move(x, y, req.version))
        }
        "/api/undo" => {
            body::<Nothing>(bytes)?;
            shared.update(|s| s.undo())
        }
        "/api/redo" => {
            body::<Nothing>(bytes)?;
            shared.update(|s| s.redo())
        }
        "/api/restart-engine" => {
            body::<Nothing>(bytes)?;
            shared.update(|s| s.restart_engine());
            Ok(())
        }
        "/api/analyse" => {
            let req: Analyse = body(bytes)?;
            let game = req.game.unwrap_or(false);
            let default_nodes = if game {
                DEFAULT_GAME_NODES
            } else {
                DEFAULT_NODES
            };
            analyse::run(
                shared,
                analyse::Request {
                    nodes: req.nodes.unwrap_or(default_nodes),
                    lines: req.lines.unwrap_or(DEFAULT_LINES),
                    game,
                },
            )
        }
        "/api/load" => {
            let req: Load = body(bytes)?;
            let format = match req.format.as_deref() {
                None => Format::guess(&req.text),
                Some(name) => Format::named(name).ok_or_else(|| {
                    ApiError::bad(format!("format must be psq, sgf or pos, not {name:?}"))
                })?,
            };
            let (width, height) = {
                let s = shared.lock();
                (s.setup.width, s.setup.height)
            };
            let loaded = records::read(&req.text, format, width, height)?;
            let players = [
                side(req.black.as_deref(), Side::Human, "black")?,
                side(req.white.as_deref(), Side::Human, "white")?,
            ];
            shared.update(|s| {
                s.load(
                    loaded.width,
                    loaded.height,
                    loaded.rule,
                    &loaded.moves,
                    players,
                )
            })
        }
        _ => Err(ApiError::not_found(format!("no such request: POST {path}"))),
    }
}
