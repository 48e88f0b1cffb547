//! The protocol session: the state a manager drives through commands, and the answers.
//!
//! Rules of conduct (see `shared/protocol.md`): a command that expects a reply gets exactly
//! one protocol line, optionally after `MESSAGE` lines; INFO, YXBOARD, YXHASHCLEAR, END and a
//! STOP outside a search print nothing else; a refused command leaves the position exactly as
//! it was; nothing the manager sends can crash the engine.

use super::io::{Input, Output};
use super::parse::{BoardStone, Command, CommandParser, Info, WireCoord};
use crate::board::{Board, Cell, Color, Pos};
use crate::engine::{Engine, RunningSearch, MAX_HASH_LOG2_KIB, MAX_THREADS};
use crate::opening::{self, Swap2Answer};
use crate::position::Position;
use crate::rules::{self, Rule};
use crate::search::{Limits, SearchInfo};
use crate::timeman::TimeSettings;
use crossbeam_channel::{after, never, select, Receiver};
use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Below this budget the engine answers with its instant move without starting a search.
const INSTANT_THRESHOLD: Duration = Duration::from_millis(5);
/// How long to wait for a stopped search before playing the fallback move.
const STOP_GRACE: Duration = Duration::from_millis(10);
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

/// The session state.
pub struct Session {
    out: Output,
    engine: Engine,
    parser: CommandParser,
    position: Position,
    rule: Rule,
    time: TimeSettings,
    show_detail: bool,
    /// Notes for the user, sent as MESSAGE lines before the next move.
    pending_messages: Vec<String>,
    /// Commands that arrived while thinking, handled after the move.
    queued: VecDeque<(Command, Instant)>,
    /// The input has ended: finish what was queued with instant moves, then exit.
    input_closed: bool,
    /// The colour Rensa plays in the current game.
    our_color: Color,
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
            engine: Engine::new(),
            parser: CommandParser::new(),
            position: Position::new(15, 15, Rule::Freestyle).expect("15x15 is supported"),
            rule: Rule::Freestyle,
            time: TimeSettings::default(),
            show_detail: false,
            pending_messages: Vec::new(),
            queued: VecDeque::new(),
            input_closed: false,
            our_color: Color::Black,
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
        let snapshot = self.position.clone();
        let wants_move = matches!(
            command,
            Command::Begin | Command::Turn(_) | Command::Board { think: true, .. }
        );
        match catch_unwind(AssertUnwindSafe(|| self.handle(command, at, input))) {
            Ok(flow) => flow,
            Err(_) => {
                log::error!("internal error while handling a command; state restored");
                self.position = snapshot;
                self.parser = CommandParser::new();
                if wants_move {
                    self.position.set_to_move(self.our_color);
                    let instant = Engine::instant_move(&self.position);
                    if let Some(m) = instant.map(|m| self.legal_or_fallback(m)) {
                        self.position.play_as(m, self.our_color);
                        self.out.line(m.to_string());
                        return Flow::Continue;
                    }
                }
                self.out
                    .line("ERROR internal error; the position is unchanged");
                Flow::Continue
            }
        }
    }

    fn handle(&mut self, command: Command, at: Instant, input: &Receiver<Input>) -> Flow {
        match command {
            Command::Start { width, height } => self.start(width, height),
            Command::Restart => {
                self.reset(
                    self.position.board().width(),
                    self.position.board().height(),
                );
                self.out.line("OK");
            }
            Command::Begin => {
                if self.position.board().stone_count() > 0 {
                    self.out
                        .line("ERROR BEGIN needs an empty board; send START or BOARD first");
                } else {
                    self.our_color = Color::Black;
                    return self.think(at, input);
                }
            }
            Command::Turn(c) => match self.empty_square(c) {
                Ok(pos) => {
                    // The opponent's stone: by parity, Black if the colours are level.
                    let b = self.position.board();
                    let (black, white) = (b.count(Color::Black), b.count(Color::White));
                    if black == white {
                        self.our_color = Color::White;
                    } else if black == white + 1 {
                        self.our_color = Color::Black;
                    }
                    self.position.play_as(pos, self.our_color.opponent());
                    return self.think(at, input);
                }
                Err(e) => self.out.line(format!("ERROR TURN {}: {e}", wire(c))),
            },
            Command::Board { stones, think } => match self.position_from_board(&stones) {
                Ok(position) => {
                    self.our_color = position.to_move();
                    self.position = position;
                    if think {
                        return self.think(at, input);
                    }
                }
                Err(e) => self.out.line(format!("ERROR {e}")),
            },
            Command::Takeback(c) => self.takeback(c),
            Command::Play(c) => match self.empty_square(c) {
                Ok(pos) => {
                    self.position.play_as(pos, self.our_color);
                    self.out.line(pos.to_string());
                }
                Err(e) => self.out.line(format!("ERROR PLAY {}: {e}", wire(c))),
            },
            Command::Info(info) => self.info(info),
            Command::Swap2Board(stones) => self.swap2(&stones),
            Command::About => self.out.line(about_line()),
            Command::End => return Flow::Exit(Exit::End),
            Command::Stop => {} // no search is running: nothing to say
            Command::YxHashClear => self.engine.clear_hash(),
            Command::YxShowInfo => {
                self.out
                    .message(format!("INFO MAX_THREAD_NUM {MAX_THREADS}"));
                self.out
                    .message(format!("INFO MAX_HASH_SIZE {MAX_HASH_LOG2_KIB}"));
            }
            Command::YxShowForbid => self.show_forbid(),
            Command::Unknown(text) => self.out.line(format!("UNKNOWN {}", echo(&text))),
            Command::Malformed(reason) => self.out.line(format!("ERROR {}", echo(&reason))),
        }
        Flow::Continue
    }

    fn reset(&mut self, width: usize, height: usize) {
        self.position = Position::new(width, height, self.rule).expect("size was checked");
        self.our_color = Color::Black;
        self.time.new_game();
        crate::pattern::warm(self.rule);
    }

    fn start(&mut self, width: i64, height: i64) {
        let ok = usize::try_from(width)
            .ok()
            .zip(usize::try_from(height).ok())
            .filter(|&(w, h)| Board::size_supported(w, h));
        match ok {
            Some((w, h)) => {
                self.reset(w, h);
                self.out.line("OK");
            }
            None => self.out.line(format!(
                "ERROR unsupported board size {width}x{height}: sizes 5 to 32 are supported"
            )),
        }
    }

    /// The board square for a wire coordinate, if on the board and empty.
    fn empty_square(&self, c: WireCoord) -> Result<Pos, String> {
        let pos = self.on_board(c)?;
        if !self.position.board().is_empty(pos) {
            return Err("square is occupied".into());
        }
        if self.position.board().stone_count() >= self.position.board().area() {
            return Err("board is full".into());
        }
        Ok(pos)
    }

    fn on_board(&self, c: WireCoord) -> Result<Pos, String> {
        let b = self.position.board();
        if c.x < 0 || c.y < 0 || c.x >= b.width() as i64 || c.y >= b.height() as i64 {
            return Err(format!("off the {}x{} board", b.width(), b.height()));
        }
        Ok(Pos::new(c.x as usize, c.y as usize))
    }

    /// Build the position a BOARD/YXBOARD block describes, or say why not.
    fn position_from_board(&mut self, stones: &[BoardStone]) -> Result<Position, String> {
        let mut squares = Vec::with_capacity(stones.len());
        for s in stones {
            let pos = self
                .on_board(s.at)
                .map_err(|e| format!("BOARD stone {}: {e}", wire(s.at)))?;
            squares.push((pos, s.field));
        }
        let own = stones.iter().filter(|s| s.field == 1).count();
        let opp = stones.iter().filter(|s| s.field == 2).count();
        let (us, note) = infer_colour(
            own,
            opp,
            stones.iter().find(|s| s.field != 3).map(|s| s.field),
        );
        if let Some(note) = note {
            self.pending_messages.push(note);
        }
        let placed: Vec<(Pos, Cell)> = squares
            .iter()
            .map(|&(pos, field)| {
                let cell = match field {
                    1 => Cell::Stone(us),
                    2 => Cell::Stone(us.opponent()),
                    _ => Cell::Blocked,
                };
                (pos, cell)
            })
            .collect();
        let b = self.position.board();
        Position::from_stones(b.width(), b.height(), self.rule, &placed, us).map_err(|e| e.0)
    }

    fn takeback(&mut self, c: WireCoord) {
        let pos = match self.on_board(c) {
            Ok(p) => p,
            Err(e) => return self.out.line(format!("ERROR TAKEBACK {}: {e}", wire(c))),
        };
        match self.position.board().cell(pos) {
            Cell::Empty => {
                return self
                    .out
                    .line(format!("ERROR TAKEBACK {}: square is empty", wire(c)))
            }
            Cell::Blocked => {
                self.position.board_mut().remove(pos);
            }
            Cell::Stone(_) if self.position.last_move() == Some(pos) => {
                self.position.undo();
            }
            Cell::Stone(_) => {
                // Not the last stone: remove it and infer the colours again, as for BOARD.
                self.position.remove_stone(pos);
                let b = self.position.board();
                let own = b.count(self.our_color);
                let opp = b.count(self.our_color.opponent());
                let first_field = self.position.history().first().map(|&p| {
                    if b.cell(p) == Cell::Stone(self.our_color) {
                        1
                    } else {
                        2
                    }
                });
                let (us, note) = infer_colour(own, opp, first_field);
                if let Some(note) = note {
                    self.pending_messages.push(note);
                }
                if us != self.our_color {
                    self.position.swap_colours();
                    self.our_color = us;
                }
                self.position.set_to_move(us);
            }
        }
        self.out.line("OK");
    }

    fn info(&mut self, info: Info) {
        let non_negative = |v: i64| v >= 0;
        match info {
            Info::TimeoutTurn(v) if non_negative(v) => self.time.turn_ms = Some(v),
            Info::TimeoutMatch(v) if non_negative(v) => self.time.match_ms = Some(v),
            Info::TimeLeft(v) => self.time.set_time_left(v),
            Info::MaxMemory(v) if non_negative(v) => {
                self.engine.options_mut().max_memory = Some(v as u64)
            }
            Info::GameType(_) | Info::Folder(_) | Info::Evaluate(_) => {}
            Info::Pondering(_) | Info::CautionFactor(_) | Info::TimeIncrement(_) => {}
            Info::Rule(v) => match Rule::from_code(v) {
                Some((rule, note)) => {
                    crate::pattern::warm(rule);
                    self.rule = rule;
                    self.position.set_rule(rule);
                    if let Some(note) = note {
                        self.pending_messages.push(note);
                    }
                }
                None => self.bad_info("rule", &v.to_string()),
            },
            Info::ThreadNum(v) if v >= 1 => {
                let n = (v as u64).min(MAX_THREADS as u64) as usize;
                if n as i64 != v {
                    self.pending_messages
                        .push(format!("thread_num {v} capped at {MAX_THREADS}"));
                }
                self.engine.options_mut().threads = n;
            }
            Info::HashSize(v) if non_negative(v) => {
                self.engine.options_mut().hash_kib = (v > 0).then_some(v as u64)
            }
            Info::MaxDepth(v) => {
                self.engine.options_mut().max_depth =
                    (v > 0).then(|| v.min(i64::from(u32::MAX)) as u32)
            }
            Info::MaxNode(v) => self.engine.options_mut().max_nodes = (v > 0).then_some(v as u64),
            Info::ShowDetail(v) => self.show_detail = v != 0,
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
            self.pending_messages
                .push("ignored an INFO line without a key".to_string());
            return;
        }
        self.pending_messages.push(format!(
            "ignored INFO {} with unusable value '{}'",
            echo(key),
            echo(value)
        ));
    }

    fn flush_messages(&mut self) {
        for m in self.pending_messages.drain(..) {
            self.out.message(m);
        }
    }

    /// Choose and play a move for the side to move, answering `x,y`.
    fn think(&mut self, at: Instant, input: &Receiver<Input>) -> Flow {
        if let Some(note) = self.engine.prepare_table() {
            self.pending_messages.push(note);
        }
        crate::pattern::warm(self.rule);
        self.flush_messages();
        self.position.set_to_move(self.our_color);
        if self.position.empty_count() == 0 {
            self.out.line("ERROR the board is full");
            return Flow::Continue;
        }
        let budget = self.time.budget(self.position.empty_count());
        let deadline = at + budget.maximum;
        let options = self.engine.options().clone();
        let limits = Limits {
            start: at,
            optimum: budget.optimum,
            maximum: budget.maximum,
            max_nodes: options.max_nodes,
            max_depth: options.max_depth,
            unused_is_lost: budget.unused_is_lost,
        };
        let (chosen, flow) = if budget.maximum <= INSTANT_THRESHOLD || self.input_closed {
            (Engine::instant_move(&self.position), Flow::Continue)
        } else {
            let live = Arc::new(AtomicBool::new(true));
            let report = self.reporter(at, Arc::clone(&live));
            let running = self.engine.start_search(&self.position, limits, report);
            let result = self.wait_for_search(running, deadline, input);
            live.store(false, Ordering::Relaxed);
            result
        };
        // With END mid-search `flow` says exit: the move found by then is still answered.
        let Some(chosen) = chosen else {
            self.out.line("ERROR no move available");
            return flow;
        };
        let chosen = self.legal_or_fallback(chosen);
        self.position.play_as(chosen, self.our_color);
        self.out.line(chosen.to_string());
        let used = at.elapsed();
        if used > budget.maximum + Duration::from_millis(5) {
            log::warn!(
                "move {chosen} took {} ms, budget {} ms",
                used.as_millis(),
                budget.maximum.as_millis()
            );
        } else {
            log::debug!(
                "move {chosen} after {} ms (budget {} ms)",
                used.as_millis(),
                budget.maximum.as_millis()
            );
        }
        self.time.charge(at.elapsed().as_millis() as i64);
        flow
    }

    /// `chosen` if the side to move may play it; else the instant move, else any legal
    /// square. Every move the engine answers with passes here: a foul or an occupied
    /// square loses the game at once, any legal move does not.
    fn legal_or_fallback(&mut self, chosen: Pos) -> Pos {
        if self.position.is_legal(chosen) {
            return chosen;
        }
        log::error!("the move {chosen} is illegal; playing the instant move");
        let instant = Engine::instant_move(&self.position).filter(|&m| self.position.is_legal(m));
        instant.unwrap_or_else(|| {
            log::error!("the instant move is illegal too; playing any legal square");
            self.position.any_legal_move().unwrap_or(chosen)
        })
    }

    /// A progress callback that prints MESSAGE lines when `show_detail` is on.
    /// Reports stop once `live` is cleared, so a search abandoned after its deadline
    /// cannot print after the move.
    fn reporter(
        &self,
        start: Instant,
        live: Arc<AtomicBool>,
    ) -> Box<dyn FnMut(&SearchInfo) + Send> {
        if !self.show_detail {
            return Box::new(|_| {});
        }
        let out = self.out.clone();
        Box::new(move |info: &SearchInfo| {
            if !live.load(Ordering::Relaxed) {
                return;
            }
            let ms = start.elapsed().as_millis().max(1);
            let nps = u128::from(info.nodes) * 1000 / ms;
            let pv: Vec<String> = info.pv.iter().map(|p| p.to_string()).collect();
            out.message(format!(
                "depth {} score {} nodes {} nps {} time {} pv {}",
                info.depth,
                info.score,
                info.nodes,
                nps,
                ms,
                pv.join(" ")
            ));
        })
    }

    /// Wait for the search while watching the input for END and STOP; other commands are
    /// queued. END stops the search and returns its move with an exit flow. Enforces the
    /// hard deadline even if the search does not stop by itself.
    fn wait_for_search(
        &mut self,
        running: RunningSearch,
        deadline: Instant,
        input: &Receiver<Input>,
    ) -> (Option<Pos>, Flow) {
        let mut flow = Flow::Continue;
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
                recv(running.done()) -> done => {
                    return match done {
                        Ok(done) => match self.engine.finish_search(done) {
                            Ok(outcome) => (Some(outcome.best), flow),
                            Err(panic) => {
                                log::error!("search panicked: {panic}");
                                (Some(running.fallback), flow)
                            }
                        },
                        Err(_) => (Some(running.fallback), flow),
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
                                        running.stop();
                                        flow = Flow::Exit(Exit::End);
                                        stop_deadline.get_or_insert(Instant::now() + STOP_GRACE);
                                    }
                                    Command::Stop => {
                                        running.stop();
                                        stop_deadline.get_or_insert(Instant::now() + STOP_GRACE);
                                    }
                                    other => self.queued.push_back((other, at)),
                                }
                            }
                        }
                        Ok(Input::Eof) | Err(_) => {
                            // Nobody will send more: answer now, finish the queue, exit.
                            self.input_closed = true;
                            running.stop();
                            stop_deadline.get_or_insert(Instant::now() + STOP_GRACE);
                        }
                    }
                }
                recv(timer) -> _ => {
                    if stop_deadline.is_some() {
                        log::warn!("search did not stop in time; playing the fallback move");
                        return (Some(running.fallback), flow);
                    }
                    running.stop();
                    stop_deadline = Some(Instant::now() + STOP_GRACE);
                }
            }
        }
    }

    fn show_forbid(&mut self) {
        let mut line = String::from("FORBID ");
        if self.rule == Rule::Renju && self.position.to_move() == Color::Black {
            for (pos, _) in rules::forbidden_points(self.position.board()) {
                line.push_str(&format!("{:02}{:02}", pos.x(), pos.y()));
            }
        }
        line.push('.');
        self.out.line(line);
    }

    fn swap2(&mut self, coords: &[WireCoord]) {
        if ![0, 3, 5].contains(&coords.len()) {
            return self.out.line(format!(
                "ERROR SWAP2BOARD needs 0, 3 or 5 stones, got {}",
                coords.len()
            ));
        }
        let b = self.position.board();
        let (w, h) = (b.width(), b.height());
        let mut position = match Position::new(w, h, self.rule) {
            Ok(p) => p,
            Err(e) => return self.out.line(format!("ERROR {}", e.0)),
        };
        for &c in coords {
            match self.on_board(c) {
                Ok(pos) if position.board().is_empty(pos) => position.play(pos),
                Ok(_) => {
                    return self.out.line(format!(
                        "ERROR SWAP2BOARD stone {}: square is occupied",
                        wire(c)
                    ))
                }
                Err(e) => {
                    return self
                        .out
                        .line(format!("ERROR SWAP2BOARD stone {}: {e}", wire(c)))
                }
            }
        }
        self.flush_messages();
        let answer = match coords.len() {
            0 => Swap2Answer::Stones(opening::propose_three(w, h)),
            3 => opening::answer_three(&position),
            _ => opening::answer_five(&position),
        };
        let text = match &answer {
            Swap2Answer::Swap => "SWAP".to_string(),
            Swap2Answer::Move(p) => p.to_string(),
            Swap2Answer::Stones(s) => s
                .iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join(" "),
        };
        // Keep our own view of the board in step with what we answered.
        match answer {
            Swap2Answer::Stones(stones) => {
                for s in stones {
                    position.play(s);
                }
            }
            Swap2Answer::Move(p) => position.play(p),
            Swap2Answer::Swap => {}
        }
        self.position = position;
        self.out.line(text);
    }
}

/// Decide our colour from BOARD stone counts (field-3 stones excluded). Returns the colour
/// and a note when the counts are unusual.
fn infer_colour(own: usize, opp: usize, first_field: Option<u8>) -> (Color, Option<String>) {
    if own == opp {
        (Color::Black, None)
    } else if opp == own + 1 {
        (Color::White, None)
    } else {
        let us = if first_field == Some(1) {
            Color::Black
        } else {
            Color::White
        };
        let note = format!(
            "BOARD has {own} own and {opp} opponent stones; taking the first listed stone as Black, so playing {}",
            if us == Color::Black { "Black" } else { "White" }
        );
        (us, Some(note))
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
    fn colour_inference() {
        assert_eq!(infer_colour(0, 0, None).0, Color::Black);
        assert_eq!(infer_colour(3, 3, Some(2)).0, Color::Black);
        assert_eq!(infer_colour(2, 3, Some(2)).0, Color::White);
        let (c, note) = infer_colour(5, 1, Some(1));
        assert_eq!(c, Color::Black);
        assert!(note.is_some());
        assert_eq!(infer_colour(1, 5, Some(2)).0, Color::White);
    }

    #[test]
    fn an_illegal_choice_is_replaced_by_a_legal_move() {
        let (out, _writer) = crate::protocol::io::spawn_writer(std::io::sink());
        let mut session = Session::new(out);
        session.rule = Rule::Renju;
        session.position = Position::new(15, 15, Rule::Renju).expect("15x15");
        // Black X X X . X X on row 7 (the gap makes an overline), White far away.
        let white = [(0, 0), (2, 0), (4, 0), (6, 0), (8, 0)];
        for (i, x) in [3, 4, 5, 7, 8].into_iter().enumerate() {
            session.position.play(Pos::new(x, 7));
            session.position.play(Pos::new(white[i].0, white[i].1));
        }
        session.our_color = Color::Black;
        session.position.set_to_move(Color::Black);
        let overline = Pos::new(6, 7);
        assert!(!session.position.is_legal(overline));
        let played = session.legal_or_fallback(overline);
        assert_ne!(played, overline);
        assert!(session.position.is_legal(played), "{played} is legal");
        let occupied = Pos::new(3, 7);
        let played = session.legal_or_fallback(occupied);
        assert!(session.position.is_legal(played), "{played} is legal");
        // A legal choice stays.
        assert_eq!(session.legal_or_fallback(Pos::new(7, 9)), Pos::new(7, 9));
    }

    #[test]
    fn echo_is_one_safe_line() {
        assert_eq!(echo("a\rb\nc"), "a?b?c");
        assert!(echo(&"x".repeat(500)).len() <= MAX_ECHO_CHARS + 3);
    }
}
