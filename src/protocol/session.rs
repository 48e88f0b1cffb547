//! The protocol session: the state a manager drives through commands, and the answers.
//!
//! Rules of conduct (see `shared/protocol.md`): a command that expects a reply gets exactly
//! one protocol line, optionally after `MESSAGE` lines; INFO, YXBOARD, YXHASHCLEAR, END and a
//! STOP outside a search print nothing else; a refused command leaves the position exactly as
//! it was; nothing the manager sends can crash the engine.

use super::io::{Input, Output};
use super::output;
use super::parse::{BoardStone, Command, CommandParser, Info, WireCoord};
use crate::engine::game::{Field, Game, MoveRequest, SearchEnd, STOP_GRACE};
use crate::engine::{MAX_HASH_LOG2_KIB, MAX_THREADS};
use crate::opening::Swap2Answer;
use crate::rules::Rule;
use crate::search::SearchInfo;
use crossbeam_channel::{after, never, select, Receiver};
use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};
use std::time::Instant;
/// Longest text echoed back in `UNKNOWN` / `ERROR` replies.
const MAX_ECHO_CHARS: usize = 80;

/// Why the session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// The manager sent END.
    End,
    /// The input closed.
    Eof,
}

/// Identity reported by ABOUT.
pub fn about_line() -> String {
    format!(
        "name=\"rensa\", version=\"{}\", author=\"The Rensa developers\", country=\"International\"",
        env!("CARGO_PKG_VERSION")
    )
}

/// The session state: the game (owned by the engine facade) and what belongs to the
/// conversation with the manager.
pub struct Session {
    out: Output,
    game: Game,
    parser: CommandParser,
    /// Rapfi's `show_detail`: 0 nothing, 1 realtime, 2 detailed (`INFO` blocks), 3 both;
    /// any non-zero value gives one `MESSAGE` line per iteration.
    show_detail: u8,
    /// Commands that arrived while thinking, handled after the move.
    queued: VecDeque<(Command, Instant)>,
    /// The input has ended: finish what was queued with instant moves, then exit.
    input_closed: bool,
}

/// What to do after a command.
enum Flow {
    Continue,
    Exit(Exit),
}

impl Session {
    /// A new session writing to `out`: 15x15 freestyle until told otherwise.
    pub fn new(out: Output) -> Session {
        Session {
            out,
            game: Game::new(),
            parser: CommandParser::new(),
            show_detail: 0,
            queued: VecDeque::new(),
            input_closed: false,
        }
    }

    /// Read commands until END or end of input.
    pub fn run(&mut self, input: &Receiver<Input>) -> Exit {
        loop {
            while let Some((command, at)) = self.queued.pop_front() {
                if let Flow::Exit(e) = self.handle_guarded(command, at, input) {
                    return e;
                }
            }
            if self.input_closed {
                return Exit::Eof;
            }
            let (line, at) = match input.recv() {
                Ok(Input::Line(line, at)) => (line, at),
                Ok(Input::Eof) | Err(_) => return Exit::Eof,
            };
            let Some(command) = self.parser.feed(&line) else {
                continue;
            };
            if let Flow::Exit(e) = self.handle_guarded(command, at, input) {
                return e;
            }
        }
    }

    /// Handle a command; a panic inside is caught, the position restored and an error (or
    /// the instant move, for commands that expect one) printed.
    fn handle_guarded(&mut self, command: Command, at: Instant, input: &Receiver<Input>) -> Flow {
        let snapshot = self.game.snapshot();
        let wants_move = matches!(
            command,
            Command::Begin | Command::Turn(_) | Command::Board { think: true, .. }
        );
        match catch_unwind(AssertUnwindSafe(|| self.handle(command, at, input))) {
            Ok(flow) => flow,
            Err(_) => {
                log::error!("internal error while handling a command; state restored");
                self.parser = CommandParser::new();
                if wants_move {
                    if let Some(m) = self.game.emergency_move(snapshot) {
                        self.out.line(m.to_string());
                        return Flow::Continue;
                    }
                } else {
                    self.game.restore(snapshot);
                }
                self.out
                    .line("ERROR internal error; the position is unchanged");
                Flow::Continue
            }
        }
    }

    fn handle(&mut self, command: Command, at: Instant, input: &Receiver<Input>) -> Flow {
        match command {
            Command::Start { width, height } => match self.game.new_game(width, height) {
                Ok(()) => self.out.line("OK"),
                Err(e) => self.out.line(format!("ERROR {e}")),
            },
            Command::Restart => {
                self.game.restart();
                self.out.line("OK");
            }
            Command::Begin => match self.game.begin() {
                Ok(()) => return self.think(at, input),
                Err(e) => self.out.line(format!("ERROR {e}")),
            },
            Command::Turn(c) => match self.game.empty_square(c.x, c.y) {
                Ok(pos) => {
                    self.game.opponent_move(pos);
                    return self.think(at, input);
                }
                Err(e) => self.out.line(format!("ERROR TURN {}: {e}", wire(c))),
            },
            Command::Board { stones, think } => match self.set_board(&stones) {
                Ok(()) => {
                    if think {
                        return self.think(at, input);
                    }
                }
                Err(e) => self.out.line(format!("ERROR {e}")),
            },
            Command::Takeback(c) => self.takeback(c),
            Command::Play(c) => match self.game.empty_square(c.x, c.y) {
                Ok(pos) => {
                    self.game.own_move(pos);
                    self.out.line(pos.to_string());
                }
                Err(e) => self.out.line(format!("ERROR PLAY {}: {e}", wire(c))),
            },
            Command::Info(info) => self.info(info),
            Command::Swap2Board(stones) => self.swap2(&stones),
            Command::About => self.out.line(about_line()),
            Command::End => return Flow::Exit(Exit::End),
            Command::Stop => {} // no search is running: nothing to say
            Command::YxHashClear => self.game.engine_mut().clear_hash(),
            Command::YxShowInfo => {
                self.out
                    .message(format!("INFO MAX_THREAD_NUM {MAX_THREADS}"));
                self.out
                    .message(format!("INFO MAX_HASH_SIZE {MAX_HASH_LOG2_KIB}"));
            }
            Command::YxShowForbid => self.show_forbid(),
            Command::YxNBest(n) if n >= 1 => {
                let n = usize::try_from(n).unwrap_or(usize::MAX);
                return self.think_lines(at, input, n);
            }
            Command::YxNBest(n) => self
                .out
                .line(format!("ERROR YXNBEST needs a count of 1 or more, got {n}")),
            Command::YxSearchDefend => return self.think_lines(at, input, usize::MAX),
            Command::YxBlock(squares) => {
                let squares: Vec<(i64, i64)> = squares.iter().map(|c| (c.x, c.y)).collect();
                if let Err(e) = self.game.block(&squares) {
                    self.game.note(format!("YXBLOCK ignored: {e}"));
                }
            }
            Command::YxBlockUndo(squares) => {
                let squares: Vec<(i64, i64)> = squares.iter().map(|c| (c.x, c.y)).collect();
                self.game.unblock(&squares);
            }
            Command::YxBlockReset => self.game.reset_blocks(),
            Command::Unknown(text) => self.out.line(format!("UNKNOWN {}", echo(&text))),
            Command::Malformed(reason) => self.out.line(format!("ERROR {}", echo(&reason))),
        }
        Flow::Continue
    }

    /// Set the position a BOARD/YXBOARD block describes, or say why not.
    fn set_board(&mut self, stones: &[BoardStone]) -> Result<(), String> {
        let mut placed = Vec::with_capacity(stones.len());
        for s in stones {
            let pos = self
                .game
                .on_board(s.at.x, s.at.y)
                .map_err(|e| format!("BOARD stone {}: {e}", wire(s.at)))?;
            let field = match s.field {
                1 => Field::Own,
                2 => Field::Opponent,
                _ => Field::Blocked,
            };
            placed.push((pos, field));
        }
        self.game.set_stones(&placed)
    }

    fn takeback(&mut self, c: WireCoord) {
        let done = self
            .game
            .on_board(c.x, c.y)
            .and_then(|pos| self.game.take_back(pos));
        match done {
            Ok(()) => self.out.line("OK"),
            Err(e) => self.out.line(format!("ERROR TAKEBACK {}: {e}", wire(c))),
        }
    }

    fn info(&mut self, info: Info) {
        let non_negative = |v: i64| v >= 0;
        match info {
            Info::TimeoutTurn(v) if non_negative(v) => self.game.time_mut().turn_ms = Some(v),
            Info::TimeoutMatch(v) if non_negative(v) => self.game.time_mut().match_ms = Some(v),
            Info::TimeLeft(v) => self.game.time_mut().set_time_left(v),
            Info::MaxMemory(v) if non_negative(v) => {
                self.game.engine_mut().options_mut().max_memory = Some(v as u64)
            }
            Info::GameType(_) | Info::Folder(_) | Info::Evaluate(_) => {}
            Info::Pondering(_) | Info::CautionFactor(_) | Info::TimeIncrement(_) => {}
            Info::Rule(v) => match Rule::from_code(v) {
                Some((rule, note)) => {
                    self.game.set_rule(rule);
                    if let Some(note) = note {
                        self.game.note(note);
                    }
                }
                None => self.bad_info("rule", &v.to_string()),
            },
            Info::ThreadNum(v) if v >= 1 => {
                let n = (v as u64).min(MAX_THREADS as u64) as usize;
                if n as i64 != v {
                    self.game
                        .note(format!("thread_num {v} capped at {MAX_THREADS}"));
                }
                self.game.engine_mut().options_mut().threads = n;
            }
            Info::HashSize(v) if non_negative(v) => {
                self.game.engine_mut().options_mut().hash_kib = (v > 0).then_some(v as u64)
            }
            Info::MaxDepth(v) => {
                self.game.engine_mut().options_mut().max_depth =
                    (v > 0).then(|| v.min(i64::from(u32::MAX)) as u32)
            }
            Info::MaxNode(v) => {
                self.game.engine_mut().options_mut().max_nodes = (v > 0).then_some(v as u64)
            }
            Info::ShowDetail(v) => self.show_detail = v.clamp(0, 3) as u8,
            Info::TimeoutTurn(v) => self.bad_info("timeout_turn", &v.to_string()),
            Info::TimeoutMatch(v) => self.bad_info("timeout_match", &v.to_string()),
            Info::MaxMemory(v) => self.bad_info("max_memory", &v.to_string()),
            Info::ThreadNum(v) => self.bad_info("thread_num", &v.to_string()),
            Info::HashSize(v) => self.bad_info("hash_size", &v.to_string()),
            Info::BadValue { key, value } => self.bad_info(&key, &value),
            Info::Other { key, value } => {
                log::debug!("ignoring unknown INFO {key} {value}");
            }
        }
    }

    fn bad_info(&mut self, key: &str, value: &str) {
        if key.is_empty() {
            self.game
                .note("ignored an INFO line without a key".to_string());
            return;
        }
        self.game.note(format!(
            "ignored INFO {} with unusable value '{}'",
            echo(key),
            echo(value)
        ));
    }

    fn flush_messages(&mut self) {
        for m in self.game.take_notes() {
            self.out.message(m);
        }
    }

    /// Choose and play a move for the engine, answering `x,y`.
    fn think(&mut self, at: Instant, input: &Receiver<Input>) -> Flow {
        self.think_lines(at, input, 1)
    }

    /// Choose and play a move for the engine after a search of the `lines` best moves
    /// (`YXNBEST`, `YXSEARCHDEFEND`; 1 for play), answering `x,y`.
    fn think_lines(&mut self, at: Instant, input: &Receiver<Input>, lines: usize) -> Flow {
        let live = Arc::new(Mutex::new(true));
        let report = self.reporter(Arc::clone(&live), lines > 1);
        let request = self.game.begin_move(at, self.input_closed, lines, report);
        self.flush_messages();
        let request = match request {
            Ok(r) => r,
            Err(e) => {
                self.out.line(format!("ERROR {e}"));
                return Flow::Continue;
            }
        };
        let (end, flow) = self.wait_for_search(&request, input);
        if let Ok(mut live) = live.lock() {
            *live = false;
        }
        // With END mid-search `flow` says exit: the move found by then is still answered.
        let chosen = self.game.finish_move(request, end);
        self.flush_messages();
        match chosen {
            Ok(chosen) => self.out.line(chosen.to_string()),
            Err(e) => self.out.line(format!("ERROR {e}")),
        }
        flow
    }

    /// A progress callback: with `show_detail`, one `MESSAGE` line per iteration in
    /// Rapfi's form, and with `show_detail` 2 or 3 the Yixin-Board `INFO PV` block for
    /// each line. A multi-PV search (`multi`) always reports its lines: as `INFO` blocks
    /// with `show_detail` 2 or 3, else one `MESSAGE (i) eval | depth-seldepth | line` each.
    /// Reports stop once `live` is cleared (under its lock), so that nothing is printed
    /// after the move, even by a search abandoned at its deadline.
    fn reporter(&self, live: Arc<Mutex<bool>>, multi: bool) -> Box<dyn FnMut(&SearchInfo) + Send> {
        let detail = self.show_detail;
        if detail == 0 && !multi {
            return Box::new(|_| {});
        }
        let out = self.out.clone();
        Box::new(move |info: &SearchInfo| {
            let Ok(live) = live.lock() else { return };
            if !*live {
                return;
            }
            if detail != 0 && info.pv_index == 0 {
                out.message(output::depth_line(info));
            }
            if detail & 2 != 0 {
                let block = output::pv_block(info.pv_index, info.pv_count, info, info.line_nodes);
                for line in block {
                    out.line(line);
                }
            } else if multi {
                out.message(output::multi_pv_line(info));
            }
        })
    }

    /// Wait for the search while watching the input for END and STOP; other commands are
    /// queued. END stops the search and returns its move with an exit flow. Enforces the
    /// hard deadline even if the search does not stop by itself.
    fn wait_for_search(
        &mut self,
        request: &MoveRequest,
        input: &Receiver<Input>,
    ) -> (Option<SearchEnd>, Flow) {
        let mut flow = Flow::Continue;
        let Some(done) = request.done() else {
            return (None, flow);
        };
        let deadline = request.deadline();
        let mut stop_deadline: Option<Instant> = None;
        loop {
            let now = Instant::now();
            let wake = stop_deadline.unwrap_or(deadline);
            let timer = after(wake.saturating_duration_since(now));
            let input = if self.input_closed {
                never()
            } else {
                input.clone()
            };
            select! {
                recv(done) -> done => {
                    return match done {
                        Ok(done) => (Some(SearchEnd::Done(done)), flow),
                        Err(_) => (Some(SearchEnd::Abandoned), flow),
                    };
                }
                recv(input) -> msg => {
                    match msg {
                        Ok(Input::Line(line, at)) => {
                            if let Some(command) = self.parser.feed(&line) {
                                match command {
                                    Command::End => {
                                        // Stop, answer with the best move so far (as
                                        // Rapfi does; a manager that sent END ignores
                                        // it), then exit: well inside END's 500 ms.
                                        request.stop();
                                        flow = Flow::Exit(Exit::End);
                                        stop_deadline.get_or_insert(Instant::now() + STOP_GRACE);
                                    }
                                    Command::Stop => {
                                        request.stop();
                                        stop_deadline.get_or_insert(Instant::now() + STOP_GRACE);
                                    }
                                    other => self.queued.push_back((other, at)),
                                }
                            }
                        }
                        Ok(Input::Eof) | Err(_) => {
                            // Nobody will send more: answer now, finish the queue, exit.
                            self.input_closed = true;
                            request.stop();
                            stop_deadline.get_or_insert(Instant::now() + STOP_GRACE);
                        }
                    }
                }
                recv(timer) -> _ => {
                    if stop_deadline.is_some() {
                        log::warn!("search did not stop in time; playing the fallback move");
                        return (Some(SearchEnd::Abandoned), flow);
                    }
                    request.stop();
                    stop_deadline = Some(Instant::now() + STOP_GRACE);
                }
            }
        }
    }

    fn show_forbid(&mut self) {
        let mut line = String::from("FORBID ");
        for pos in self.game.forbidden_squares() {
            line.push_str(&format!("{:02}{:02}", pos.x(), pos.y()));
        }
        line.push('.');
        self.out.line(line);
    }

    fn swap2(&mut self, coords: &[WireCoord]) {
        let stones: Vec<(i64, i64)> = coords.iter().map(|c| (c.x, c.y)).collect();
        let answer = self.game.swap2(&stones);
        if answer.is_ok() {
            self.flush_messages();
        }
        match answer {
            Ok(Swap2Answer::Swap) => self.out.line("SWAP"),
            Ok(Swap2Answer::Move(p)) => self.out.line(p.to_string()),
            Ok(Swap2Answer::Stones(s)) => self.out.line(
                s.iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            Err(e) => self.out.line(format!("ERROR {e}")),
        }
    }
}

fn wire(c: WireCoord) -> String {
    format!("{},{}", c.x, c.y)
}

/// Text safe to echo in one protocol line: control characters replaced, length bounded.
fn echo(text: &str) -> String {
    let mut s: String = text
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .take(MAX_ECHO_CHARS)
        .collect();
    if text.chars().count() > MAX_ECHO_CHARS {
        s.push_str("...");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echo_is_one_safe_line() {
        assert_eq!(echo("a\rb\nc"), "a?b?c");
        assert!(echo(&"x".repeat(500)).len() <= MAX_ECHO_CHARS + 3);
    }
}
