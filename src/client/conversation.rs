//! The Gomocup conversation with one engine, as the managers really hold it: spawning and
//! `ABOUT`, `START` and the `INFO` settings, move requests (`INFO time_left` with `BEGIN`,
//! `BOARD` or `TURN`), and waiting for the answer under the clock, with every forfeit a
//! manager declares on its own: time, crash, malformed reply, memory, start failure.
//! Whether a move is legal on the board is the caller's to judge.
//!
//! Two manners, chosen by a `judge` flag:
//! - c-gomoku-cli (`judge` false): `ABOUT` after spawning, `START` waits for exactly `OK`
//!   within the tolerance, then the `INFO` settings; LF line endings.
//! - GomocupJudge (`judge` true): `START` and the `INFO` settings are sent without waiting
//!   for `OK` and the process is suspended (SIGSTOP) between its turns; lines that are not
//!   moves are ignored; CR LF line endings.
//!
//! A front end plays a game with [`spawn_engine`], [`start_game`], then for each move a
//! [`Clock::begin_move`](super::clock::Clock::begin_move), [`move_request`] and
//! [`request_move`], booking the time with
//! [`Clock::end_move`](super::clock::Clock::end_move).

use super::clock::MoveBudget;
use super::process::{EngineProcess, IoLog, Recv};
use super::reply::{about_name, classify, Reply};
use super::spec::EngineSpec;
use crate::board::{Color, Pos};
use crate::records::Termination;
use crate::rules::Rule;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often a waiting conversation looks at the stop flag.
const STOP_POLL: Duration = Duration::from_millis(100);

/// Where `MESSAGE` lines go, with the colour of the engine that sent them; None drops
/// them.
pub type Messages<'a> = Option<(&'a mut Vec<(Color, String)>, Color)>;

/// A loss decided before or during a move: why, and the details for the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    /// How the game ended.
    pub termination: Termination,
    /// Human-readable details (the malformed line, the limit that passed).
    pub detail: String,
}

/// A [`Forfeit`].
pub fn forfeit(termination: Termination, detail: impl Into<String>) -> Forfeit {
    Forfeit {
        termination,
        detail: detail.into(),
    }
}

/// The result of asking for a move.
#[derive(Clone, Debug)]
pub enum Awaited {
    /// The engine answered `x,y` (not yet checked against the board): the request was
    /// written at `sent` and the answer read at `at`.
    Move {
        /// Column as the engine wrote it.
        x: i64,
        /// Row as the engine wrote it.
        y: i64,
        /// When the request was written (the start of the engine's time).
        sent: Instant,
        /// When the reader thread received the answer.
        at: Instant,
    },
    /// The engine lost while thinking: time, crash or a malformed reply.
    Lost(Forfeit),
    /// The stop flag was set: the game is abandoned.
    Aborted,
}

/// The `START` command for the board (`RECTSTART w,h` for a rectangular one).
pub fn start_command(width: usize, height: usize) -> String {
    if width == height {
        format!("START {width}")
    } else {
        format!("RECTSTART {width},{height}")
    }
}

/// The `INFO` lines sent after `START`, in the order of the manager being imitated
/// (GomocupJudge when `judge`, else c-gomoku-cli).
pub fn info_lines(spec: &EngineSpec, rule: Rule, judge: bool) -> Vec<String> {
    let mut v = Vec::new();
    let turn = (spec.tc.turn_ms > 0).then(|| format!("INFO timeout_turn {}", spec.tc.turn_ms));
    let matc = format!("INFO timeout_match {}", spec.tc.match_ms);
    let mem = format!("INFO max_memory {}", spec.max_memory);
    let rule_line = format!("INFO rule {}", rule.code());
    if judge {
        v.extend(turn);
        v.push(matc);
        v.push(mem);
        v.push("INFO game_type 1".to_string());
        v.push(rule_line);
    } else {
        v.push(rule_line);
        v.extend(turn);
        v.push(matc);
        if let Some(d) = spec.depth {
            v.push(format!("INFO max_depth {d}"));
        }
        if let Some(n) = spec.nodes {
            v.push(format!("INFO max_node {n}"));
        }
        v.push(mem);
    }
    if let Some(t) = spec.threads {
        v.push(format!("INFO thread_num {t}"));
    }
    if judge {
        if let Some(d) = spec.depth {
            v.push(format!("INFO max_depth {d}"));
        }
        if let Some(n) = spec.nodes {
            v.push(format!("INFO max_node {n}"));
        }
    }
    for (k, val) in &spec.options {
        v.push(format!("INFO {k} {val}"));
    }
    v
}

/// Spawn an engine (CR LF line endings in GomocupJudge manners) and, if `ask_about`, ask
/// its `ABOUT`, waiting up to the tolerance for the first line that is not chatter.
/// Returns the engine and the name from the reply, if any.
pub fn spawn_engine(
    spec: &EngineSpec,
    label: &str,
    log: Option<Arc<IoLog>>,
    judge: bool,
    ask_about: bool,
) -> std::io::Result<(EngineProcess, Option<String>)> {
    let mut e = EngineProcess::spawn(spec, label, log, judge)?;
    let mut name = None;
    if ask_about && e.send("ABOUT").is_ok() {
        let deadline = Instant::now() + spec.tolerance;
        // The first line that is not chatter is the answer (UNKNOWN/ERROR: no name).
        while let Recv::Line(_, l) = e.recv(Some(deadline)) {
            match classify(&l) {
                r if r.is_chatter() => continue,
                Reply::Other(text) => name = about_name(&text),
                _ => {}
            }
            break;
        }
    }
    Ok((e, name))
}

/// Start a game on an engine that is running: `START` (or `RECTSTART`) and the `INFO`
/// settings for `spec` and `rule`. In c-gomoku-cli manners the engine must answer `OK`
/// within its tolerance (a late, missing or other answer is a start failure, its exit a
/// crash); in GomocupJudge manners nothing is awaited and the process is suspended.
pub fn start_game(
    eng: &mut EngineProcess,
    spec: &EngineSpec,
    (width, height): (usize, usize),
    rule: Rule,
    judge: bool,
    mut messages: Messages,
) -> Result<(), Forfeit> {
    let start = start_command(width, height);
    let infos = info_lines(spec, rule, judge);
    let crash = |err: std::io::Error| forfeit(Termination::Crash, format!("cannot write: {err}"));
    if judge {
        let mut all = vec![start];
        all.extend(infos);
        eng.send_lines(&all).map_err(crash)?;
        eng.suspend();
        return Ok(());
    }
    let sent = eng.send(&start).map_err(crash)?;
    let deadline = sent + spec.tolerance;
    loop {
        match eng.recv(Some(deadline)) {
            Recv::Timeout => {
                return Err(forfeit(
                    Termination::StartFailure,
                    format!("no OK to {start} within {} ms", spec.tolerance.as_millis()),
                ))
            }
            Recv::Eof(_) => {
                return Err(forfeit(Termination::Crash, format!("exited after {start}")))
            }
            Recv::Line(at, line) => match classify(&line) {
                Reply::Message(m) => {
                    if let Some((v, c)) = messages.as_mut() {
                        v.push((*c, m));
                    }
                }
                Reply::Debug(_) => {}
                _ if at < sent => log::debug!("{}: stale line before START: {line}", eng.label()),
                Reply::Ok => break,
                Reply::Error(t) => {
                    return Err(forfeit(
                        Termination::StartFailure,
                        format!("{start} refused: ERROR {t}"),
                    ))
                }
                _ => {
                    return Err(forfeit(
                        Termination::StartFailure,
                        format!("reply to {start} is not OK: {line:?}"),
                    ))
                }
            },
        }
    }
    eng.send_lines(&infos).map_err(crash)?;
    Ok(())
}

/// The lines that ask `to_move` for a move in the position `moves` (Black's first):
/// `INFO time_left`, then `TURN x,y` with the last move, or with `whole_board` (an engine's
/// first move of a game, or a manager that always sends the position) `BEGIN` on an empty
/// board if `begin` allows it, else `BOARD`, the stones (1 own, 2 the opponent's), `DONE`.
/// `out` is cleared first, so one buffer serves a whole game.
pub fn move_request(
    out: &mut Vec<String>,
    time_left: i64,
    moves: &[Pos],
    to_move: Color,
    whole_board: bool,
    begin: bool,
) {
    out.clear();
    out.push(format!("INFO time_left {time_left}"));
    match moves.last() {
        Some(last) if !whole_board => out.push(format!("TURN {},{}", last.x(), last.y())),
        None if begin => out.push("BEGIN".into()),
        _ => {
            out.push("BOARD".into());
            for (i, &p) in moves.iter().enumerate() {
                let own = if (i % 2 == 0) == (to_move == Color::Black) {
                    1
                } else {
                    2
                };
                out.push(format!("{},{},{own}", p.x(), p.y()));
            }
            out.push("DONE".into());
        }
    }
}

/// Send a move request (`lines` from [`move_request`]) and wait for the answer under
/// `budget` (see [`await_move`]); in GomocupJudge manners the process is resumed for the
/// wait and suspended again after it. An engine that cannot be written to has crashed.
pub fn request_move(
    eng: &mut EngineProcess,
    lines: &[String],
    budget: &MoveBudget,
    judge: bool,
    stop: &AtomicBool,
    messages: Messages,
) -> Awaited {
    let sent = match eng.send_lines(lines) {
        Ok(t) => t,
        Err(e) => {
            return Awaited::Lost(forfeit(
                Termination::Crash,
                format!("cannot send the move request: {e}"),
            ))
        }
    };
    if judge {
        eng.resume();
    }
    let awaited = await_move(eng, budget, sent, judge, stop, messages);
    if judge {
        eng.suspend();
    }
    awaited
}

/// Sample the engine's resident memory (with its child processes) into `peak`; above
/// `limit` bytes (0: no limit) it loses, as GomocupJudge rules.
pub fn check_memory(
    eng: &EngineProcess,
    limit: u64,
    peak: &mut Option<u64>,
) -> Result<(), Forfeit> {
    let Some(rss) = eng.rss_bytes() else {
        return Ok(());
    };
    *peak = Some(peak.map_or(rss, |p| p.max(rss)));
    if limit > 0 && rss > limit {
        return Err(forfeit(
            Termination::Memory,
            format!("{} bytes resident > max_memory {limit}", rss),
        ));
    }
    Ok(())
}

/// Wait for the reply to a move request sent at `sent`, enforcing the deadlines: `YXSTOP`
/// at the soft one, a time forfeit at the hard one. `MESSAGE` lines go to `messages`
/// and `DEBUG` lines are skipped. An answer that is not a move is malformed, except in
/// GomocupJudge manners (`judge`), which ignore it; a line read before the request is
/// malformed too, as c-gomoku-cli judges. Returns [`Awaited::Aborted`] soon after `stop`
/// is set.
pub fn await_move(
    eng: &mut EngineProcess,
    budget: &MoveBudget,
    sent: Instant,
    judge: bool,
    stop: &AtomicBool,
    mut messages: Messages,
) -> Awaited {
    let soft = budget.soft_at(sent);
    let hard = budget.hard_at(sent);
    let mut stop_sent = false;
    loop {
        let now = Instant::now();
        let mut wake = now + STOP_POLL;
        if let (Some(s), false) = (soft, stop_sent) {
            wake = wake.min(s);
        }
        if let Some(h) = hard {
            wake = wake.min(h);
        }
        match eng.recv(Some(wake)) {
            Recv::Timeout => {
                let now = Instant::now();
                if hard.is_some_and(|h| now >= h) {
                    return Awaited::Lost(forfeit(
                        Termination::Time,
                        format!(
                            "no move within {} ms (limit {} ms + tolerance)",
                            budget.hard.unwrap_or_default().as_millis(),
                            budget.limit.unwrap_or_default().as_millis()
                        ),
                    ));
                }
                if !stop_sent && soft.is_some_and(|s| now >= s) {
                    let _ = eng.send("YXSTOP");
                    stop_sent = true;
                }
                if stop.load(Ordering::Relaxed) {
                    return Awaited::Aborted;
                }
            }
            Recv::Eof(_) => {
                return Awaited::Lost(forfeit(Termination::Crash, "exited while thinking"));
            }
            Recv::Line(at, line) => {
                let reply = classify(&line);
                match reply {
                    Reply::Message(m) => {
                        if let Some((v, c)) = messages.as_mut() {
                            v.push((*c, m));
                        }
                        continue;
                    }
                    Reply::Debug(_) => continue,
                    _ => {}
                }
                if at < sent {
                    if judge && !matches!(reply, Reply::Move(..)) {
                        continue;
                    }
                    return Awaited::Lost(forfeit(
                        Termination::Malformed,
                        format!("unrequested output before the request: {line:?}"),
                    ));
                }
                if hard.is_some_and(|h| at > h) {
                    return Awaited::Lost(forfeit(
                        Termination::Time,
                        format!(
                            "move after {} ms (limit {} ms + tolerance)",
                            at.saturating_duration_since(sent).as_millis(),
                            budget.limit.unwrap_or_default().as_millis()
                        ),
                    ));
                }
                match reply {
                    Reply::Move(x, y) => return Awaited::Move { x, y, sent, at },
                    _ if judge => continue,
                    Reply::Error(t) => {
                        return Awaited::Lost(forfeit(
                            Termination::Malformed,
                            format!("ERROR instead of a move: {t}"),
                        ))
                    }
                    _ => {
                        return Awaited::Lost(forfeit(
                            Termination::Malformed,
                            format!("not a move: {line:?}"),
                        ))
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_requests() {
        let mut out = Vec::new();
        move_request(&mut out, 900, &[], Color::Black, true, true);
        assert_eq!(out, ["INFO time_left 900", "BEGIN"]);
        move_request(&mut out, 900, &[], Color::Black, true, false);
        assert_eq!(out, ["INFO time_left 900", "BOARD", "DONE"]);
        let moves = [Pos::new(7, 7), Pos::new(8, 7), Pos::new(1, 2)];
        move_request(&mut out, 5, &moves, Color::White, false, true);
        assert_eq!(out, ["INFO time_left 5", "TURN 1,2"]);
        move_request(&mut out, 5, &moves, Color::White, true, true);
        assert_eq!(
            out,
            [
                "INFO time_left 5",
                "BOARD",
                "7,7,2",
                "8,7,1",
                "1,2,2",
                "DONE"
            ]
        );
        assert_eq!(start_command(15, 15), "START 15");
        assert_eq!(start_command(20, 15), "RECTSTART 20,15");
    }

    #[test]
    fn info_lines_follow_the_manager() {
        let mut spec = EngineSpec::new("/bin/true".into());
        spec.tc = super::super::spec::TimeControl::parse("60/5").unwrap();
        spec.threads = Some(2);
        spec.options.push(("hash_size".into(), "64".into()));
        assert_eq!(
            info_lines(&spec, Rule::Renju, false),
            [
                "INFO rule 4",
                "INFO timeout_turn 5000",
                "INFO timeout_match 60000",
                "INFO max_memory 367001600",
                "INFO thread_num 2",
                "INFO hash_size 64"
            ]
        );
        assert_eq!(
            info_lines(&spec, Rule::Renju, true),
            [
                "INFO timeout_turn 5000",
                "INFO timeout_match 60000",
                "INFO max_memory 367001600",
                "INFO game_type 1",
                "INFO rule 4",
                "INFO thread_num 2",
                "INFO hash_size 64"
            ]
        );
    }
}
