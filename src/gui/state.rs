//! The one game every page of the board shows: the set-up (board, rule, who plays which
//! colour, level, time), the moves, the undone moves to redo, the engine's live thinking,
//! the evaluations for the graph and the last analysis. It sits behind one mutex in
//! [`Shared`]; every change bumps [`State::version`] and wakes the event streams and the
//! engine's worker, so two tabs on one game always see the same thing.
//!
//! Every operation checks its request first and changes nothing when it refuses one.

use super::ApiError;
use crate::analysis::heatmap::Heatmap;
use crate::board::{Board, Cell, Color, Direction, Pos};
use crate::engine::level::{Level, NAMED};
use crate::position::Position;
use crate::protocol::output::coord_text;
use crate::rules::{self, Rule};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

/// The longest time per move the board accepts: an hour.
pub const MAX_TIME_MS: u64 = 3_600_000;

/// Who plays a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// A person clicking on the board.
    Human,
    /// The engine (Rensa in-process, or the hosted external engine).
    Engine,
}

impl Side {
    /// `human` or `engine`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Human => "human",
            Side::Engine => "engine",
        }
    }

    /// The side named `human` or `engine`.
    pub fn named(name: &str) -> Option<Side> {
        match name {
            "human" => Some(Side::Human),
            "engine" => Some(Side::Engine),
            _ => None,
        }
    }
}

/// How a game is set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Board width, 5..=32.
    pub width: usize,
    /// Board height, 5..=32.
    pub height: usize,
    /// The rule.
    pub rule: Rule,
    /// Who plays Black and White.
    pub players: [Side; 2],
    /// A named level (see [`crate::engine::level::NAMED`]).
    pub level: String,
    /// Time per engine move, in milliseconds.
    pub time_ms: u64,
    /// Seed for the level's choices (None: a seed from the clock).
    pub seed: Option<u64>,
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            width: 15,
            height: 15,
            rule: Rule::Freestyle,
            players: [Side::Human, Side::Engine],
            level: "medium".into(),
            time_ms: 5_000,
            seed: None,
        }
    }
}

impl Setup {
    /// Check the set-up: a supported size, a named level, a time per move within reach.
    pub fn check(&self) -> Result<(), ApiError> {
        if !Board::size_supported(self.width, self.height) {
            return Err(ApiError::bad(format!(
                "board size {}x{} is not supported: each side must be 5 to 32",
                self.width, self.height
            )));
        }
        if Level::named(&self.level).is_none() {
            let names: Vec<&str> = NAMED.iter().map(|(n, _)| *n).collect();
            return Err(ApiError::bad(format!(
                "unknown level {:?}: one of {}",
                self.level,
                names.join(", ")
            )));
        }
        if self.time_ms > MAX_TIME_MS {
            return Err(ApiError::bad(format!(
                "time per move {} ms is over the limit of {MAX_TIME_MS} ms",
                self.time_ms
            )));
        }
        Ok(())
    }

    /// Who plays `color`.
    pub fn side(&self, color: Color) -> Side {
        self.players[color.index()]
    }

    /// The engine plays both colours.
    pub fn engines_only(&self) -> bool {
        self.players == [Side::Engine, Side::Engine]
    }
}

/// The engine's progress on the move it is thinking about.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Thinking {
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Score for the side to move (centi-stones, or a proven result).
    pub score: Option<i32>,
    /// The best line.
    pub pv: Vec<Pos>,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent, in milliseconds.
    pub elapsed_ms: u64,
}

/// An analysis of one position.
#[derive(Clone, Debug)]
pub struct Analysed {
    /// The moves of the position analysed.
    pub moves: Vec<Pos>,
    /// The rule it was analysed under.
    pub rule: Rule,
    /// What the search found.
    pub heatmap: Heatmap,
}

/// How the game came out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winner; None for a draw (a full board).
    pub winner: Option<Color>,
    /// The winning line's squares (empty for a draw).
    pub line: Vec<Pos>,
}

/// A move the engine is asked for.
#[derive(Clone, Debug)]
pub struct Job {
    /// The game key the move is for: a reply for another key is stale.
    pub key: u64,
    /// The set-up.
    pub setup: Setup,
    /// The moves so far, Black first.
    pub moves: Vec<Pos>,
    /// Set when the game changes under the search: stop and throw the reply away.
    pub abort: Arc<AtomicBool>,
}

/// The game behind the mutex.
#[derive(Debug)]
pub struct State {
    /// Bumped at every change the pages should see.
    pub version: u64,
    /// Bumped when the moves or the set-up change: searches started before are stale.
    pub key: u64,
    /// The version at which the moves or the set-up last changed.
    pub key_version: u64,
    /// The set-up.
    pub setup: Setup,
    /// The position: board, rule, moves.
    pub position: Position,
    /// Moves undone, the next to redo last.
    pub redo: Vec<Pos>,
    /// Evaluations for Black after each number of moves (index 0: the empty board).
    pub evals: Vec<Option<i32>>,
    /// The engine's progress while it thinks.
    pub thinking: Option<Thinking>,
    /// The key of the move the engine is thinking about, if it is.
    pub busy: Option<u64>,
    /// The engine failed (crashed, hung, answered nonsense): no move is asked for until
    /// it is restarted.
    pub engine_error: Option<String>,
    /// The engine's name.
    pub engine_name: String,
    /// The engine is an external program.
    pub external: bool,
    /// How many times the page restarted the engine.
    pub restarts: u64,
    /// The last analysis.
    pub analysis: Option<Analysed>,
    /// An analysis is running.
    pub analysing: bool,
    /// The server is shutting down.
    pub closing: bool,
    abort: Arc<AtomicBool>,
}

impl State {
    /// A new game with the default set-up.
    pub fn new(engine_name: String, external: bool) -> State {
        let setup = Setup::default();
        let position = Position::new(setup.width, setup.height, setup.rule)
            .expect("the default size is supported");
        State {
            version: 1,
            key: 1,
            key_version: 1,
            setup,
            position,
            redo: Vec::new(),
            evals: vec![None],
            thinking: None,
            busy: None,
            engine_error: None,
            engine_name,
            external,
            restarts: 0,
            analysis: None,
            analysing: false,
            closing: false,
            abort: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The moves, Black first.
    pub fn moves(&self) -> &[Pos] {
        self.position.history()
    }

    /// The side to move.
    pub fn to_move(&self) -> Color {
        self.position.to_move()
    }

    /// The game's end, if it is over.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(last) = self.position.last_move() {
            if let Some(line) = winning_line(self.position.board(), last, self.setup.rule) {
                let winner = match self.position.board().cell(last) {
                    Cell::Stone(c) => Some(c),
                    _ => None,
                };
                return Some(Outcome { winner, line });
            }
        }
        (self.position.empty_count() == 0).then(|| Outcome {
            winner: None,
            line: Vec::new(),
        })
    }

    /// Black's forbidden squares when Black is to move under renju and the game goes on.
    pub fn forbidden(&self) -> Vec<Pos> {
        if self.setup.rule != Rule::Renju
            || self.to_move() != Color::Black
            || self.outcome().is_some()
        {
            return Vec::new();
        }
        rules::forbidden_points(self.position.board())
            .into_iter()
            .map(|(p, _)| p)
            .collect()
    }

    /// The analysis of the current position, if there is one.
    pub fn current_analysis(&self) -> Option<&Analysed> {
        self.analysis
            .as_ref()
            .filter(|a| a.moves == self.moves() && a.rule == self.setup.rule)
    }

    /// A change the pages should see.
    pub fn touch(&mut self) {
        self.version += 1;
    }

    /// The moves or the set-up changed: stale searches stop, the thinking display and the
    /// evaluations of positions no longer on the board go.
    fn changed(&mut self) {
        self.touch();
        self.key += 1;
        self.key_version = self.version;
        self.abort.store(true, Ordering::Relaxed);
        self.abort = Arc::new(AtomicBool::new(false));
        self.thinking = None;
        self.evals.resize(self.moves().len() + 1, None);
    }

    /// Start a new game.
    pub fn new_game(&mut self, setup: Setup) -> Result<(), ApiError> {
        setup.check()?;
        let position =
            Position::new(setup.width, setup.height, setup.rule).map_err(|e| ApiError::bad(e.0))?;
        self.replace(setup, position);
        Ok(())
    }

    /// Replace the game by `position` under `setup` (both checked by the caller).
    fn replace(&mut self, setup: Setup, position: Position) {
        self.setup = setup;
        self.position = position;
        self.redo.clear();
        self.evals.clear();
        self.analysis = None;
        self.changed();
    }

    /// The square `(x, y)` if the side to move may play there, else why not.
    fn playable(&mut self, x: i64, y: i64) -> Result<Pos, ApiError> {
        if self.outcome().is_some() {
            return Err(ApiError::conflict(
                "the game is over: start a new one or undo",
            ));
        }
        let b = self.position.board();
        let (w, h) = (b.width() as i64, b.height() as i64);
        if !(0..w).contains(&x) || !(0..h).contains(&y) {
            return Err(ApiError::bad(format!(
                "square {x},{y} is off the {w}x{h} board (x 0..{}, y 0..{})",
                w - 1,
                h - 1
            )));
        }
        let pos = Pos::new(x as usize, y as usize);
        let name = format!("{} ({x},{y})", coord_text(pos));
        if !b.is_empty(pos) {
            return Err(ApiError::bad(format!("{name} is occupied")));
        }
        if self.setup.rule.has_fouls_for(self.to_move()) {
            let mut board = self.position.board().clone();
            if let Some(foul) = rules::renju_foul(&mut board, pos) {
                return Err(ApiError::bad(format!(
                    "{name} is forbidden for Black under renju ({foul})"
                )));
            }
        }
        Ok(pos)
    }

    /// A person plays `(x, y)`; `version`, when given, is the version of the state the
    /// page showed: a page that has not seen the last change of the moves or the set-up is
    /// refused (changes such as the engine's progress do not count).
    pub fn human_move(&mut self, x: i64, y: i64, version: Option<u64>) -> Result<(), ApiError> {
        if let Some(v) = version {
            if v < self.key_version || v > self.version {
                return Err(ApiError::conflict(format!(
                    "the game has changed since version {v} (now {}): reload the state",
                    self.version
                )));
            }
        }
        if self.setup.side(self.to_move()) == Side::Engine {
            return Err(ApiError::conflict(format!(
                "it is not your turn: the engine plays {}",
                color_name(self.to_move())
            )));
        }
        let pos = self.playable(x, y)?;
        self.position.play(pos);
        self.redo.clear();
        self.changed();
        Ok(())
    }

    /// A person's turn is reached by undoing from here: there is a person in the game and
    /// the side to move is the engine's.
    fn engine_to_move_with_a_person(&self) -> bool {
        !self.setup.engines_only() && self.setup.side(self.to_move()) == Side::Engine
    }

    /// Take back the last move; against the engine, back to the person's last turn.
    pub fn undo(&mut self) -> Result<(), ApiError> {
        if self.moves().is_empty() {
            return Err(ApiError::conflict("nothing to undo"));
        }
        while let Some(pos) = self.position.undo() {
            self.redo.push(pos);
            if !self.engine_to_move_with_a_person() {
                break;
            }
        }
        self.changed();
        Ok(())
    }

    /// Play again the moves last undone; against the engine, up to the person's next turn.
    pub fn redo(&mut self) -> Result<(), ApiError> {
        if self.redo.is_empty() {
            return Err(ApiError::conflict("nothing to redo"));
        }
        let mut replayed = 0;
        while let Some(&pos) = self.redo.last() {
            if replayed > 0 && !self.engine_to_move_with_a_person() {
                break;
            }
            let mut position = self.position.clone();
            if self.outcome().is_some() || !position.is_legal(pos) {
                // The set-up changed since (it cannot while moves wait here, but a
                // refused redo must change nothing all the same).
                break;
            }
            self.position.play(pos);
            self.redo.pop();
            replayed += 1;
        }
        if replayed == 0 {
            return Err(ApiError::conflict("the next move to redo cannot be played"));
        }
        self.changed();
        Ok(())
    }

    /// Replace the game by a record's moves on its board, under `rule` (None: the current
    /// rule), with `players`. Every move must be legal and none may follow a win.
    pub fn load(
        &mut self,
        width: usize,
        height: usize,
        rule: Option<Rule>,
        moves: &[Pos],
        players: [Side; 2],
    ) -> Result<(), ApiError> {
        let setup = Setup {
            width,
            height,
            rule: rule.unwrap_or(self.setup.rule),
            players,
            ..self.setup.clone()
        };
        setup.check()?;
        let mut position =
            Position::new(width, height, setup.rule).map_err(|e| ApiError::bad(e.0))?;
        for (i, &pos) in moves.iter().enumerate() {
            if position.last_move_won() {
                return Err(ApiError::bad(format!(
                    "move {} follows the game's winning move",
                    i + 1
                )));
            }
            if !position.board().contains(pos) || !position.board().is_empty(pos) {
                return Err(ApiError::bad(format!(
                    "move {} ({},{}) is off the board or on an occupied square",
                    i + 1,
                    pos.x(),
                    pos.y()
                )));
            }
            if !position.is_legal(pos) {
                return Err(ApiError::bad(format!(
                    "move {} ({},{}) is forbidden for Black under {}",
                    i + 1,
                    pos.x(),
                    pos.y(),
                    setup.rule
                )));
            }
            position.play(pos);
        }
        self.replace(setup, position);
        Ok(())
    }

    /// The move the engine should think about now, if any: the engine is to move, the game
    /// goes on, the engine works and is not already thinking.
    pub fn next_job(&mut self) -> Option<Job> {
        let wanted = self.setup.side(self.to_move()) == Side::Engine
            && self.outcome().is_none()
            && self.engine_error.is_none()
            && self.busy != Some(self.key)
            && !self.closing;
        if !wanted {
            return None;
        }
        self.busy = Some(self.key);
        self.thinking = Some(Thinking::default());
        self.touch();
        Some(Job {
            key: self.key,
            setup: self.setup.clone(),
            moves: self.moves().to_vec(),
            abort: Arc::clone(&self.abort),
        })
    }

    /// The engine's progress on the move for `key`.
    pub fn report(&mut self, key: u64, thinking: Thinking) {
        if self.key == key && self.busy == Some(key) {
            self.thinking = Some(thinking);
            self.touch();
        }
    }

    /// The engine's move for `key`, with its evaluation for the side that moved: played
    /// if the game is still the one it was asked about and the move is legal.
    pub fn engine_move(&mut self, key: u64, pos: Pos, eval: Option<i32>) -> Result<(), String> {
        if key != self.key {
            return Ok(());
        }
        self.busy = None;
        let mover = self.to_move();
        let legal = self.position.board().contains(pos) && self.position.clone().is_legal(pos);
        if !legal {
            self.touch();
            return Err(format!(
                "the engine played {},{}, which is not a legal move",
                pos.x(),
                pos.y()
            ));
        }
        let ply = self.moves().len();
        self.position.play(pos);
        self.redo.clear();
        self.changed();
        if let Some(e) = eval {
            self.evals[ply] = Some(for_black(e, mover));
        }
        Ok(())
    }

    /// The engine gave up on the move for `key`: `error` says why (None: it was stopped
    /// because the game changed).
    pub fn engine_failed(&mut self, key: u64, error: Option<String>) {
        if self.busy == Some(key) {
            self.busy = None;
        }
        if key == self.key {
            self.thinking = None;
            if let Some(e) = error {
                log::warn!("engine: {e}");
                self.engine_error = Some(e);
            }
        }
        self.touch();
    }

    /// The server is closing: the search stops and nothing more is asked.
    pub fn close(&mut self) {
        self.closing = true;
        self.abort.store(true, Ordering::Relaxed);
        self.touch();
    }

    /// The engine may be asked again: a search still running is stopped, and the worker
    /// restarts the engine before the next move.
    pub fn restart_engine(&mut self) {
        self.abort.store(true, Ordering::Relaxed);
        self.abort = Arc::new(AtomicBool::new(false));
        self.engine_error = None;
        self.busy = None;
        self.restarts += 1;
        self.touch();
    }
}

/// `black` or `white`.
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A score for the side `mover` seen from Black.
pub fn for_black(score: i32, mover: Color) -> i32 {
    match mover {
        Color::Black => score,
        Color::White => -score,
    }
}

/// The squares of the winning line through the stone at `last`, if it wins.
pub fn winning_line(board: &Board, last: Pos, rule: Rule) -> Option<Vec<Pos>> {
    let Cell::Stone(color) = board.cell(last) else {
        return None;
    };
    let dir = Direction::ALL
        .into_iter()
        .find(|&d| rules::wins_in_direction(board, last, color, rule, d))?;
    let (dx, dy) = dir.step();
    let mut line = vec![last];
    for sign in [-1isize, 1] {
        let (mut x, mut y) = (last.x() as isize, last.y() as isize);
        loop {
            x += sign * dx;
            y += sign * dy;
            match board.pos_at(x, y) {
                Some(p) if board.cell(p) == Cell::Stone(color) => line.push(p),
                _ => break,
            }
        }
    }
    line.sort_by_key(|p| (p.y(), p.x()));
    Some(line)
}

/// The game and the signal that it changed.
pub struct Shared {
    state: Mutex<State>,
    changed: Condvar,
}

impl Shared {
    /// Shared state around `state`.
    pub fn new(state: State) -> Shared {
        Shared {
            state: Mutex::new(state),
            changed: Condvar::new(),
        }
    }

    /// The state, locked (a panic elsewhere while it was held does not poison it for
    /// good: the state is kept consistent by every operation before it returns).
    pub fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Run `f` on the state and wake everyone waiting for a change.
    pub fn update<T>(&self, f: impl FnOnce(&mut State) -> T) -> T {
        let out = f(&mut self.lock());
        self.changed.notify_all();
        out
    }

    /// Wait until the version differs from `seen` or `timeout` passes; the state, locked.
    pub fn wait_change(&self, seen: u64, timeout: Duration) -> MutexGuard<'_, State> {
        let guard = self.lock();
        let (guard, _) = self
            .changed
            .wait_timeout_while(guard, timeout, |s| s.version == seen && !s.closing)
            .unwrap_or_else(|e| e.into_inner());
        guard
    }

    /// Wait for the engine's next job (None when the server closes).
    pub fn next_job(&self) -> Option<Job> {
        let mut guard = self.lock();
        loop {
            if guard.closing {
                return None;
            }
            if let Some(job) = guard.next_job() {
                drop(guard);
                self.changed.notify_all();
                return Some(job);
            }
            guard = self.changed.wait(guard).unwrap_or_else(|e| e.into_inner());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_people() -> State {
        let mut s = State::new("rensa".into(), false);
        let setup = Setup {
            players: [Side::Human, Side::Human],
            ..Setup::default()
        };
        s.new_game(setup).unwrap();
        s
    }

    #[test]
    fn moves_undo_and_redo() {
        let mut s = two_people();
        s.human_move(7, 7, None).unwrap();
        s.human_move(8, 8, Some(s.version)).unwrap();
        assert!(s.human_move(8, 8, None).is_err(), "occupied");
        assert!(s.human_move(15, 0, None).is_err(), "off the board");
        assert_eq!(s.human_move(1, 1, Some(1)).unwrap_err().status, 409);
        s.undo().unwrap();
        assert_eq!(s.moves(), &[Pos::new(7, 7)]);
        s.redo().unwrap();
        assert_eq!(s.moves().len(), 2);
        assert!(s.redo().is_err());
        s.undo().unwrap();
        s.human_move(0, 0, None).unwrap();
        assert!(s.redo.is_empty(), "a new move clears the moves to redo");
    }

    #[test]
    fn against_the_engine_undo_goes_back_to_the_persons_turn() {
        let mut s = State::new("rensa".into(), false);
        s.human_move(7, 7, None).unwrap();
        assert_eq!(s.human_move(8, 8, None).unwrap_err().status, 409);
        let job = s.next_job().unwrap();
        assert!(s.next_job().is_none(), "one search at a time");
        s.engine_move(job.key, Pos::new(8, 8), Some(20)).unwrap();
        assert_eq!(s.evals[1], Some(-20));
        s.undo().unwrap();
        assert!(s.moves().is_empty());
        assert_eq!(s.redo.len(), 2);
        s.redo().unwrap();
        assert_eq!(s.moves().len(), 2, "the engine's reply comes back too");
        // A reply for a game that changed is dropped.
        s.human_move(6, 6, None).unwrap();
        let job = s.next_job().unwrap();
        s.undo().unwrap();
        assert!(job.abort.load(Ordering::Relaxed));
        s.engine_move(job.key, Pos::new(0, 0), None).unwrap();
        assert_eq!(s.moves().len(), 2);
    }

    #[test]
    fn wins_renju_fouls_and_loads() {
        let mut s = two_people();
        for (x, y) in [
            (0, 0),
            (0, 1),
            (1, 0),
            (1, 1),
            (2, 0),
            (2, 1),
            (3, 0),
            (3, 1),
        ] {
            s.human_move(x, y, None).unwrap();
        }
        s.human_move(4, 0, None).unwrap();
        let out = s.outcome().unwrap();
        assert_eq!(out.winner, Some(Color::Black));
        assert_eq!(out.line.len(), 5);
        assert_eq!(s.human_move(9, 9, None).unwrap_err().status, 409);
        // Renju: a double three for Black is refused and marked.
        let setup = Setup {
            rule: Rule::Renju,
            players: [Side::Human, Side::Human],
            ..Setup::default()
        };
        s.new_game(setup).unwrap();
        for (x, y) in [
            (7, 5),
            (0, 0),
            (7, 6),
            (14, 0),
            (5, 7),
            (0, 14),
            (6, 7),
            (14, 14),
        ] {
            s.human_move(x, y, None).unwrap();
        }
        assert!(s.forbidden().contains(&Pos::new(7, 7)));
        let before = s.version;
        assert!(s
            .human_move(7, 7, None)
            .unwrap_err()
            .message
            .contains("forbidden"));
        assert_eq!(s.version, before, "a refused move changes nothing");
        // A load with a foul is refused; a good one replaces the game.
        let foul: Vec<Pos> = s.moves().iter().copied().chain([Pos::new(7, 7)]).collect();
        assert!(s
            .load(15, 15, None, &foul, [Side::Human, Side::Human])
            .is_err());
        s.load(
            20,
            20,
            Some(Rule::Freestyle),
            &foul,
            [Side::Human, Side::Human],
        )
        .unwrap();
        assert_eq!(s.moves().len(), 9);
        assert!(s.load(40, 20, None, &[], [Side::Human; 2]).is_err());
    }
}
