//! One question to a fresh engine process: "your move in this position". The puzzle and
//! defence runners put each position to a new process (`START`, the rule and time
//! `INFO`s, the position as `BOARD`), read one move and end it, so that no case sees
//! another's hash table or time.

use rensa::board::{Board, Cell, Color, Pos};
use rensa::rules::Rule;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long the engine may take to answer `START` with `OK`.
const START_TOLERANCE: Duration = Duration::from_secs(5);

/// Extra time granted beyond the move time before a move counts as missing.
const MOVE_TOLERANCE: Duration = Duration::from_secs(2);

/// How long to wait for the engine to exit after `END` before killing it.
const EXIT_WAIT: Duration = Duration::from_secs(1);

/// One position put to an engine.
#[derive(Clone, Debug)]
pub struct Question<'a> {
    /// The engine executable.
    pub engine: &'a Path,
    /// Pass the engine's stderr (its log) through instead of discarding it.
    pub engine_stderr: bool,
    /// The board (square boards only).
    pub board: &'a Board,
    /// The side the engine plays.
    pub to_move: Color,
    /// The rule, sent as `INFO rule`.
    pub rule: Rule,
    /// Time per move in milliseconds (`INFO timeout_turn`).
    pub time_ms: u64,
    /// Engine threads (`INFO thread_num`).
    pub threads: u32,
}

/// An engine process.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn spawn(path: &Path, stderr: bool) -> Result<Engine, String> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if stderr {
                Stdio::inherit()
            } else {
                Stdio::null()
            })
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", path.display()))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Engine {
            child,
            stdin,
            lines,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("cannot write to the engine: {e}"))
    }

    /// The next line that is not `MESSAGE`/`DEBUG` (nor a stray `OK` when `skip_ok`).
    fn answer(&mut self, deadline: Instant, skip_ok: bool) -> Result<String, String> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => return Err("no answer in time".into()),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err("the engine closed its output".into())
                }
            };
            let line = line.trim().to_string();
            let upper = line.to_ascii_uppercase();
            if line.is_empty()
                || upper.starts_with("MESSAGE")
                || upper.starts_with("DEBUG")
                || (skip_ok && upper == "OK")
            {
                continue;
            }
            return Ok(line);
        }
    }

    /// `END`, then kill the process if it does not exit soon.
    fn finish(mut self) {
        let _ = self.send("END");
        let until = Instant::now() + EXIT_WAIT;
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The colour a Rensa-style engine infers from `BOARD`: own == opp -> Black, opp == own + 1
/// -> White, otherwise the owner of the first listed stone is Black.
pub fn inferred_colour(own: usize, opp: usize, first_is_own: bool) -> Color {
    if own == opp {
        Color::Black
    } else if opp == own + 1 {
        Color::White
    } else if first_is_own {
        Color::Black
    } else {
        Color::White
    }
}

/// The `BOARD` lines for `board` with `me` to move: Black and White stones interleaved,
/// Black first (a plausible move order), field 1 for `me`. Err when the stone counts would
/// make the engine take the other colour.
pub fn board_lines(board: &Board, me: Color) -> Result<Vec<String>, String> {
    let stones = |c: Color| -> Vec<Pos> {
        board
            .positions()
            .filter(|&p| board.cell(p) == Cell::Stone(c))
            .collect()
    };
    let (black, white) = (stones(Color::Black), stones(Color::White));
    let mut order = Vec::with_capacity(black.len() + white.len());
    for i in 0..black.len().max(white.len()) {
        order.extend(black.get(i).map(|&p| (p, Color::Black)));
        order.extend(white.get(i).map(|&p| (p, Color::White)));
    }
    let own = order.iter().filter(|s| s.1 == me).count();
    let opp = order.len() - own;
    let first_is_own = order.first().is_some_and(|s| s.1 == me);
    let seen = inferred_colour(own, opp, first_is_own);
    if seen != me {
        return Err(format!(
            "{} black and {} white stones: the engine would play {:?}, not {:?}",
            black.len(),
            white.len(),
            seen,
            me
        ));
    }
    Ok(order
        .iter()
        .map(|&(p, c)| {
            let field = if c == me { 1 } else { 2 };
            format!("{},{},{field}", p.x(), p.y())
        })
        .collect())
}

/// Ask a fresh engine process for its move. Returns the reply line and the time it took.
pub fn ask(q: &Question<'_>) -> Result<(String, Duration), String> {
    let lines = board_lines(q.board, q.to_move)?;
    let mut engine = Engine::spawn(q.engine, q.engine_stderr)?;
    let result = (|| {
        engine.send(&format!("START {}", q.board.width()))?;
        let ok = engine.answer(Instant::now() + START_TOLERANCE, false)?;
        if !ok.eq_ignore_ascii_case("OK") {
            return Err(format!("START answered {ok:?}"));
        }
        for info in [
            format!("INFO rule {}", q.rule.code()),
            format!("INFO timeout_turn {}", q.time_ms),
            "INFO timeout_match 0".to_string(),
            "INFO time_left 2147483647".to_string(),
            format!("INFO thread_num {}", q.threads),
        ] {
            engine.send(&info)?;
        }
        engine.send("BOARD")?;
        for line in &lines {
            engine.send(line)?;
        }
        engine.send("DONE")?;
        let started = Instant::now();
        let deadline = started + Duration::from_millis(q.time_ms) + MOVE_TOLERANCE;
        let reply = engine.answer(deadline, true)?;
        Ok((reply, started.elapsed()))
    })();
    engine.finish();
    result
}

/// Parse an `x,y` reply into a square of a `size` x `size` board.
pub fn parse_move(reply: &str, size: usize) -> Result<Pos, String> {
    let (x, y) = reply
        .split_once(',')
        .ok_or_else(|| format!("not a move: {reply:?}"))?;
    let (x, y): (usize, usize) = match (x.trim().parse(), y.trim().parse()) {
        (Ok(x), Ok(y)) => (x, y),
        _ => return Err(format!("not a move: {reply:?}")),
    };
    if x >= size || y >= size {
        return Err(format!("off the board: {reply:?}"));
    }
    Ok(Pos::new(x, y))
}
