//! Another Gomocup engine as the board's player, through the engine client: started on
//! the first move (and again after a failure, once the page asks), told the board, rule
//! and time per move with `START` and `INFO`, and asked each move with the whole board
//! (`BOARD`), so that undo, redo and loaded games need nothing else. The client's clock
//! decides when it has hung (no move by the limit plus a tolerance) and notices when it
//! has crashed; either way the process is killed and the page is told.

use super::player::{to_move, Player, Reply};
use super::state::{Job, Shared};
use crate::board::Pos;
use crate::client::clock::Clock;
use crate::client::conversation::{move_request, request_move, spawn_engine, start_game, Awaited};
use crate::client::process::{EngineProcess, Recv};
use crate::client::spec::{EngineSpec, TimeControl};
use crate::rules::Rule;
use crate::search::score::WIN;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Time over the move's limit before the engine counts as hung.
pub const TOLERANCE: Duration = Duration::from_millis(1_000);

/// The shortest time per move an external engine is given.
const MIN_TURN_MS: u64 = 100;

/// An external engine.
pub struct External {
    spec: EngineSpec,
    process: Option<EngineProcess>,
    /// Board, rule and time per move the running engine was started for.
    started: Option<(usize, usize, Rule, u64)>,
    name: String,
}

impl External {
    /// The engine at `program`; nothing is started yet.
    pub fn new(program: PathBuf) -> External {
        let mut spec = EngineSpec::new(program);
        spec.tolerance = TOLERANCE;
        let name = spec
            .program
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "engine".into());
        External {
            spec,
            process: None,
            started: None,
            name,
        }
    }

    fn stop_process(&mut self) {
        self.process = None;
        self.started = None;
    }

    /// The running engine, started for the job's board, rule and time.
    fn ready(&mut self, job: &Job) -> Result<&mut EngineProcess, String> {
        if self.process.as_ref().is_some_and(EngineProcess::has_ended) {
            self.stop_process();
        }
        let setup = &job.setup;
        let wanted = (setup.width, setup.height, setup.rule, self.spec.tc.turn_ms);
        if self.process.is_none() {
            let (process, about) = spawn_engine(&self.spec, "engine", None, false, true)
                .map_err(|e| format!("cannot start the engine: {e}"))?;
            if let Some(name) = about {
                self.name = name;
            }
            self.process = Some(process);
        }
        if self.started != Some(wanted) {
            let process = self.process.as_mut().expect("started above");
            if let Err(f) = start_game(
                process,
                &self.spec,
                (setup.width, setup.height),
                setup.rule,
                false,
                None,
            ) {
                self.stop_process();
                return Err(format!("{}: {}", f.termination.label(), f.detail));
            }
            self.started = Some(wanted);
        }
        Ok(self.process.as_mut().expect("started above"))
    }
}

/// The evaluation in a Rapfi-style `MESSAGE Depth 12-20 | Eval 150 | …` line: centi-stones,
/// or `+M7` / `-M7`.
pub fn message_eval(message: &str) -> Option<i32> {
    let rest = &message[message.find("Eval ")? + 5..];
    let word = rest.split(|c: char| c.is_whitespace() || c == '|').next()?;
    if let Some(n) = word.strip_prefix("+M") {
        return n.parse::<i32>().ok().map(|n| WIN - n);
    }
    if let Some(n) = word.strip_prefix("-M") {
        return n.parse::<i32>().ok().map(|n| n - WIN);
    }
    word.parse().ok()
}

impl Player for External {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, job: &Job, _shared: &Arc<Shared>) -> Reply {
        self.spec.tc = TimeControl {
            match_ms: 0,
            turn_ms: job.setup.time_ms.max(MIN_TURN_MS),
            inc_ms: 0,
        };
        let (tc, tolerance) = (self.spec.tc, self.spec.tolerance);
        let process = match self.ready(job) {
            Ok(p) => p,
            Err(e) => return Reply::Failed(e),
        };
        let mover = to_move(&job.moves);
        let mut clock = Clock::new(tc, tolerance);
        let budget = clock.begin_move();
        let mut lines = Vec::new();
        move_request(&mut lines, budget.time_left, &job.moves, mover, true, true);
        let mut messages = Vec::new();
        let awaited = request_move(
            process,
            &lines,
            &budget,
            false,
            &job.abort,
            Some((&mut messages, mover)),
        );
        match awaited {
            Awaited::Move { x, y, .. } => {
                let on_board = (0..job.setup.width as i64).contains(&x)
                    && (0..job.setup.height as i64).contains(&y);
                if !on_board {
                    self.stop_process();
                    return Reply::Failed(format!("the engine played {x},{y}, off the board"));
                }
                let eval = messages.iter().rev().find_map(|(_, m)| message_eval(m));
                Reply::Move(Pos::new(x as usize, y as usize), eval)
            }
            Awaited::Lost(f) => {
                self.stop_process();
                Reply::Failed(format!(
                    "the engine lost: {}: {}",
                    f.termination.label(),
                    f.detail
                ))
            }
            Awaited::Aborted => {
                // Stop it and wait for the move it then owes; an engine that does not
                // answer is started afresh next time.
                let _ = process.send("YXSTOP");
                let deadline = Instant::now() + tolerance;
                let answered = loop {
                    match process.recv(Some(deadline)) {
                        Recv::Line(_, line)
                            if crate::client::reply::parse_move(&line).is_some() =>
                        {
                            break true
                        }
                        Recv::Line(..) => continue,
                        _ => break false,
                    }
                };
                if !answered {
                    self.stop_process();
                }
                Reply::Aborted
            }
        }
    }

    fn restart(&mut self) {
        self.stop_process();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluations_from_messages() {
        assert_eq!(
            message_eval("Depth 12-20 | Eval 150 | Time 0.3s | h8"),
            Some(150)
        );
        assert_eq!(
            message_eval("Depth 3-5 | Eval -M4 | Time 1s"),
            Some(4 - WIN)
        );
        assert_eq!(message_eval("Depth 3 | Eval +M1"), Some(WIN - 1));
        assert_eq!(message_eval("hello"), None);
    }
}
