//! The protocol session: the state a manager drives through commands, and the answers.
//!
//! Rules of conduct (see `shared/protocol.md`): a command that expects a reply gets exactly
//! one protocol line, optionally after `MESSAGE` lines; INFO, YXBOARD, YXHASHCLEAR, END and a
//! STOP outside a search print nothing else; a refused command leaves the position exactly as
//! it was; nothing the manager sends can crash the engine.

use super::io::{Input, Output};
use super::output;
use super::parse::{BoardStone, Command, CommandParser, Info, WireCoord};
use crate::board::{Cell, Pos};
use crate::engine::game::{Field, Game, MoveRequest, Ponder, SearchEnd, STOP_GRACE};
use crate::engine::level::Level;
use crate::engine::SearchDone;
use crate::engine::{MAX_HASH_LOG2_KIB, MAX_THREADS};
use crate::opening::Swap2Answer;
use crate::rules::Rule;
use crate::search::{learned, Evaluator, MoveOrdering, RealtimeSink, RootEvent, SearchInfo};
use crossbeam_channel::{after, never, select, Receiver};
use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
/// Most thought per move once the input has ended: the commands read before it are still
/// answered, each within this (or less where the limits say less), then the engine exits.
const AFTER_EOF_THOUGHT: Duration = Duration::from_secs(1);

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
    /// The input has ended: finish what was queued (at most [`AFTER_EOF_THOUGHT`] a move),
    /// then exit.
    input_closed: bool,
    /// `INFO pondering`: think on the predicted reply after answering.
    ponder_enabled: bool,
    /// The ponder search, while one runs.
    pondering: Option<Pondering>,
    /// The learned weights `INFO evaluator learned` selects: the embedded ones, or the
    /// last set loaded by `INFO weights`.
    weights: &'static learned::WeightSet,
}

/// What to do after a command.
enum Flow {
    Continue,
    Exit(Exit),
}

/// Whether a search's reports reach the output.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reports {
    /// Pondering: nothing is printed until a hit.
    Silent,
    /// The move's search: reports are printed.
    Live,
    /// The move is out: nothing more.
    Closed,
}

/// A search on the predicted position while the opponent thinks, with what the session
/// holds back until it knows whether the opponent played the prediction.
struct Pondering {
    ponder: Ponder,
    reports: Arc<Mutex<Reports>>,
    /// The ponder search already ended by itself (a proof): its result.
    finished: Option<SearchDone>,
    /// A START (same size) or RESTART arrived: applied only on a miss, since a manager
    /// that restarts and sends the predicted position whole (Yixin-Board) still hits.
    restart: bool,
    /// A YXHASHCLEAR arrived: applied only on a miss (on a hit the table's knowledge is
    /// about the very position the manager sent).
    hash_clear: bool,
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
            ponder_enabled: false,
            pondering: None,
            weights: learned::embedded(),
        }
    }

    /// Read commands until END or end of input.
    pub fn run(&mut self, input: &Receiver<Input>) -> Exit {
        loop {
            let (command, at) = match self.queued.pop_front() {
                Some(queued) => queued,
                None if self.input_closed => {
                    self.stop_pondering();
                    return Exit::Eof;
                }
                None => match self.next_command(input) {
                    Some(next) => next,
                    None => continue,
                },
            };
            if let Flow::Exit(e) = self.dispatch(command, at, input) {
                self.stop_pondering();
                return e;
            }
        }
    }

    /// The next command from the input: None for a blank line or a line inside a block,
    /// when a ponder search ended by itself, or at the end of input (the session is then
    /// marked closed).
    fn next_command(&mut self, input: &Receiver<Input>) -> Option<(Command, Instant)> {
        let received = match self.pondering.as_mut() {
            Some(p) => match p.ponder.done() {
                Some(done) if p.finished.is_none() => select! {
                    recv(input) -> msg => msg,
                    recv(done) -> d => {
                        // The ponder search ended by itself: keep its result.
                        p.finished = d.ok();
                        return None;
                    }
                },
                _ => input.recv(),
            },
            None => input.recv(),
        };
        match received {
            Ok(Input::Line(line, at)) => self.parser.feed(&line).map(|c| (c, at)),
            Ok(Input::Eof) | Err(_) => {
                self.input_closed = true;
                None
            }
        }
    }

    /// Handle a command, through the ponder rules while a ponder search runs.
    fn dispatch(&mut self, command: Command, at: Instant, input: &Receiver<Input>) -> Flow {
        let command = if self.pondering.is_some() {
            match self.while_pondering(command, at, input) {
                Ok(flow) => return flow,
                Err(command) => command,
            }
        } else {
            command
        };
        self.handle_guarded(command, at, input)
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
            Info::Pondering(v) => self.ponder_enabled = v != 0,
            Info::CautionFactor(_) | Info::TimeIncrement(_) => {}
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
            Info::Strength(v) => self.game.set_level(Level::from_strength(v)),
            Info::Level(name) => match Level::named(&name) {
                Some(level) => self.game.set_level(level),
                None => self.bad_info("level", &name),
            },
            Info::Seed(v) => self.game.set_seed(v as u64),
            Info::Evaluator(name) => match Evaluator::named(&name, self.weights) {
                Some(e) => self.game.engine_mut().options_mut().evaluator = e,
                None => self.bad_info("evaluator", &name),
            },
            Info::Ordering(name) => match MoveOrdering::named(&name) {
                Some(o) => self.game.engine_mut().options_mut().ordering = o,
                None => self.bad_info("ordering", &name),
            },
            Info::Weights(path) => {
                if let Err(e) = self.load_weights(&path) {
                    self.game.note(format!("weights not loaded: {e}"));
                }
            }
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

    /// Load a folder of learned weights (`INFO weights`): relative paths are taken from
    /// the executable's folder, since managers start engines from anywhere. On success
    /// the engine plays with them; on failure nothing changes.
    pub fn load_weights(&mut self, path: &str) -> Result<(), String> {
        self.weights = learned::WeightSet::load(path)?;
        self.game.engine_mut().options_mut().evaluator = Evaluator::Learned(self.weights);
        Ok(())
    }

    /// Use `evaluator` and `ordering` for every later search (the command line's choice).
    pub fn set_evaluator(&mut self, evaluator: Evaluator, ordering: MoveOrdering) {
        if let Evaluator::Learned(set) | Evaluator::Auto(set) = evaluator {
            self.weights = set;
        }
        let options = self.game.engine_mut().options_mut();
        options.evaluator = evaluator;
        options.ordering = ordering;
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
        let reports = Arc::new(Mutex::new(Reports::Live));
        let report = self.reporter(Arc::clone(&reports), lines > 1);
        let realtime = self.realtime(Arc::clone(&reports));
        let most = self.input_closed.then_some(AFTER_EOF_THOUGHT);
        let request = self.game.begin_move(at, most, lines, report, realtime);
        self.flush_messages();
        let request = match request {
            Ok(r) => r,
            Err(e) => {
                self.out.line(format!("ERROR {e}"));
                return Flow::Continue;
            }
        };
        self.answer(request, None, reports, input, lines == 1)
    }

    /// Wait for a move's search (unless `finished` already holds its end), play and print
    /// the move, and start pondering if asked (`may_ponder`: a play request).
    fn answer(
        &mut self,
        mut request: MoveRequest,
        finished: Option<SearchDone>,
        reports: Arc<Mutex<Reports>>,
        input: &Receiver<Input>,
        may_ponder: bool,
    ) -> Flow {
        let (end, flow) = match finished {
            Some(done) => (Some(SearchEnd::Done(done)), Flow::Continue),
            None => self.wait_for_search(&mut request, input),
        };
        if let Ok(mut r) = reports.lock() {
            *r = Reports::Closed;
        }
        // With END mid-search `flow` says exit: the move found by then is still answered.
        let chosen = self.game.finish_move(request, end);
        self.flush_messages();
        match chosen {
            Ok(chosen) => self.out.line(chosen.to_string()),
            Err(e) => self.out.line(format!("ERROR {e}")),
        }
        if may_ponder && self.ponder_enabled && !self.input_closed && matches!(flow, Flow::Continue)
        {
            self.start_pondering();
        }
        flow
    }

    /// Start a ponder search on the predicted reply, if there is one.
    fn start_pondering(&mut self) {
        let reports = Arc::new(Mutex::new(Reports::Silent));
        let report = self.reporter(Arc::clone(&reports), false);
        if let Some(ponder) = self.game.begin_ponder(report) {
            log::debug!("pondering on {}", ponder.predicted);
            self.pondering = Some(Pondering {
                ponder,
                reports,
                finished: None,
                restart: false,
                hash_clear: false,
            });
        }
    }

    /// Stop pondering (a miss): the search stops, the held-back commands apply.
    fn stop_pondering(&mut self) {
        let Some(p) = self.pondering.take() else {
            return;
        };
        if let Ok(mut r) = p.reports.lock() {
            *r = Reports::Closed;
        }
        self.game.ponder_miss(p.ponder, p.finished);
        if self.show_detail != 0 {
            self.out.message("ponder miss");
        }
        if p.restart {
            self.game.restart();
        }
        if p.hash_clear {
            self.game.engine_mut().clear_hash();
        }
    }

    /// A command that arrives while pondering. INFO, ABOUT and YXSHOWINFO leave the ponder
    /// search alone; a START of the same size, RESTART and YXHASHCLEAR are held back; a
    /// TURN with the predicted move, or a BOARD with the predicted position, is a hit and
    /// is answered here. Anything else is a miss: the search stops and the command is
    /// returned (`Err`) to be handled as usual.
    fn while_pondering(
        &mut self,
        command: Command,
        at: Instant,
        input: &Receiver<Input>,
    ) -> Result<Flow, Command> {
        let Some(p) = self.pondering.as_mut() else {
            return Err(command);
        };
        let predicted = p.ponder.predicted;
        let b = self.game.position().board();
        let same_size = |w: i64, h: i64| w == b.width() as i64 && h == b.height() as i64;
        let hit = match &command {
            Command::Info(_) | Command::About | Command::YxShowInfo => {
                return Ok(self.handle(command, at, input));
            }
            Command::Start { width, height } if same_size(*width, *height) => {
                p.restart = true;
                self.out.line("OK");
                return Ok(Flow::Continue);
            }
            Command::Restart => {
                p.restart = true;
                self.out.line("OK");
                return Ok(Flow::Continue);
            }
            Command::YxHashClear => {
                p.hash_clear = true;
                return Ok(Flow::Continue);
            }
            Command::Turn(c) => {
                !p.restart && (c.x, c.y) == (predicted.x() as i64, predicted.y() as i64)
            }
            Command::Board {
                stones,
                think: true,
            } => self.is_predicted_board(stones, predicted),
            _ => false,
        };
        if !hit {
            let quiet = matches!(command, Command::Stop);
            self.stop_pondering();
            return if quiet {
                Ok(Flow::Continue)
            } else {
                Err(command)
            };
        }
        let p = self.pondering.take().expect("pondering");
        if self.show_detail != 0 {
            self.out.message("ponder hit");
        }
        if let Ok(mut r) = p.reports.lock() {
            *r = Reports::Live;
        }
        let request = self.game.ponder_hit(p.ponder, at);
        Ok(self.answer(request, p.finished, p.reports, input, true))
    }

    /// True when a BOARD block describes the current position plus the opponent's
    /// `predicted` move, stone for stone (the order aside).
    fn is_predicted_board(&self, stones: &[BoardStone], predicted: Pos) -> bool {
        let position = self.game.position();
        let b = position.board();
        let us = self.game.our_color();
        let mut expected: Vec<(i64, i64, u8)> = b
            .positions()
            .filter_map(|p| match b.cell(p) {
                Cell::Stone(c) => Some((p.x() as i64, p.y() as i64, if c == us { 1 } else { 2 })),
                Cell::Blocked => Some((p.x() as i64, p.y() as i64, 3)),
                Cell::Empty => None,
            })
            .collect();
        expected.push((predicted.x() as i64, predicted.y() as i64, 2));
        let mut given: Vec<(i64, i64, u8)> =
            stones.iter().map(|s| (s.at.x, s.at.y, s.field)).collect();
        expected.sort_unstable();
        given.sort_unstable();
        expected == given
    }

    /// A progress callback: with `show_detail`, one `MESSAGE` line per iteration in
    /// Rapfi's form, and with `show_detail` 2 or 3 the Yixin-Board `INFO PV` block for
    /// each line. A multi-PV search (`multi`) always reports its lines: as `INFO` blocks
    /// with `show_detail` 2 or 3, else one `MESSAGE (i) eval | depth-seldepth | line` each.
    /// Reports stop once `live` is cleared (under its lock), so that nothing is printed
    /// after the move, even by a search abandoned at its deadline.
    fn reporter(
        &self,
        reports: Arc<Mutex<Reports>>,
        multi: bool,
    ) -> Box<dyn FnMut(&SearchInfo) + Send> {
        let detail = self.show_detail;
        if detail == 0 && !multi {
            return Box::new(|_| {});
        }
        let out = self.out.clone();
        Box::new(move |info: &SearchInfo| {
            let Ok(state) = reports.lock() else { return };
            if *state != Reports::Live {
                return;
            }
            if detail != 0 && info.pv_index == 0 {
                out.message(output::depth_line(info));
            }
            if detail & 2 != 0 {
                for line in output::pv_block(info) {
                    out.line(line);
                }
            } else if multi {
                out.message(output::multi_pv_line(info));
            }
        })
    }

    /// With `show_detail` 1 or 3, Yixin-Board's realtime lines: `MESSAGE REALTIME POS x,y`
    /// while a root move is searched, `DONE x,y` after it, `BEST x,y` for a new best,
    /// `LOST x,y` for a proven loss, `REFRESH` as an iteration starts (the search sends them
    /// from depth 8 and 200 ms on, as Rapfi does).
    fn realtime(&self, reports: Arc<Mutex<Reports>>) -> Option<RealtimeSink> {
        if self.show_detail & 1 == 0 {
            return None;
        }
        let out = self.out.clone();
        Some(RealtimeSink(Arc::new(move |event: RootEvent| {
            let Ok(state) = reports.lock() else { return };
            if *state != Reports::Live {
                return;
            }
            out.message(output::realtime_line(event));
        })))
    }

    /// Wait for the search while watching the input for END and STOP; other commands are
    /// queued. END stops the search and returns its move with an exit flow. Enforces the
    /// hard deadline even if the search does not stop by itself.
    fn wait_for_search(
        &mut self,
        request: &mut MoveRequest,
        input: &Receiver<Input>,
    ) -> (Option<SearchEnd>, Flow) {
        let mut flow = Flow::Continue;
        let Some(done) = request.done().cloned() else {
            return (None, flow);
        };
        let mut stop_deadline: Option<Instant> = None;
        loop {
            let now = Instant::now();
            let wake = stop_deadline.unwrap_or(request.deadline());
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
                            // Nobody will send more: this move gets at most a second of
                            // thought from its start, then the queue is answered the
                            // same way, then the engine exits.
                            self.input_closed = true;
                            request.shorten(AFTER_EOF_THOUGHT);
                        }
                    }
                }
                recv(timer) -> _ => {
                    if stop_deadline.is_some() {
                        log::warn!("search did not stop in time; playing its best move so far");
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
