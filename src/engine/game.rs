//! The game a front end plays through the engine: the position, the rule, the clocks,
//! which colour the engine plays, warm-up, move legality and the fallback policy. The
//! Gomocup session is parse + format over this type; an analysis command or a web board
//! can drive the same game with the same guarantees:
//!
//! - every move the engine answers is legal for it (an illegal choice, which would lose at
//!   once, is replaced by the instant move or any legal square);
//! - the answer comes by the time budget's hard limit (a search that does not stop in time
//!   is abandoned for the instant move computed before it started);
//! - a refused request leaves the game exactly as it was.

use super::level::Level;
use super::{Engine, RunningSearch, SearchDone};
use crate::board::{Board, Cell, Color, Pos};
use crate::opening::{self, Swap2Answer};
use crate::position::Position;
use crate::rng::Rng;
use crate::rules::{self, Rule};
use crate::search::{Limits, RealtimeSink, SearchInfo};
use crate::timeman::{Budget, Deadline, TimeSettings};
use crossbeam_channel::{after, select, Receiver};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Below this budget the engine answers with its instant move without starting a search.
pub const INSTANT_THRESHOLD: Duration = Duration::from_millis(5);
/// How long to wait for a stopped search before playing its best move so far.
pub const STOP_GRACE: Duration = Duration::from_millis(10);
/// How long to wait for a stopped ponder search to hand the searcher back.
const PONDER_STOP_WAIT: Duration = Duration::from_millis(100);

/// What a stone of a whole-board description is, seen from the engine (the Gomocup
/// `BOARD` fields 1, 2 and 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// The engine's own stone.
    Own,
    /// The opponent's stone.
    Opponent,
    /// A blocked square (Gomocup field 3), nobody's stone.
    Blocked,
}

/// A move being chosen: started by [`Game::begin_move`], finished by
/// [`Game::finish_move`].
pub struct MoveRequest {
    /// When the request arrived: the budget counts from here.
    pub at: Instant,
    budget: Budget,
    search: Option<RunningSearch>,
    /// The move if no search runs (the instant move).
    ready: Option<Pos>,
    /// The level chooses among the search's lines.
    choose: bool,
    /// The running search's clock, to move.
    clock: Option<Arc<Deadline>>,
}

impl MoveRequest {
    /// Think at most `most` from the request's arrival (less where the budget says less):
    /// the search's clock moves at once.
    pub fn shorten(&mut self, most: Duration) {
        if most >= self.budget.maximum {
            return;
        }
        self.budget.maximum = most;
        self.budget.optimum = self.budget.optimum.min(most);
        if let Some(clock) = &self.clock {
            clock.reset(self.at, self.budget.optimum, self.budget.maximum);
        }
    }

    /// The instant by which the move must be out.
    pub fn deadline(&self) -> Instant {
        self.at + self.budget.maximum
    }

    /// The channel on which a running search reports its end; None when no search runs.
    pub fn done(&self) -> Option<&Receiver<SearchDone>> {
        self.search.as_ref().map(|s| s.done())
    }

    /// Ask the search to stop as soon as it can.
    pub fn stop(&self) {
        if let Some(s) = &self.search {
            s.stop();
        }
    }
}

/// How a search ended, for [`Game::finish_move`].
pub enum SearchEnd {
    /// The search thread returned (its outcome or its panic).
    Done(SearchDone),
    /// The search thread is gone without an answer, or did not stop in time.
    Abandoned,
}

/// A search on the position after the opponent's predicted reply, run while the opponent
/// thinks: [`Game::ponder_hit`] turns it into the move's search, [`Game::ponder_miss`]
/// stops it.
pub struct Ponder {
    /// The opponent's move the search assumes.
    pub predicted: Pos,
    request: MoveRequest,
}

impl Ponder {
    /// The channel on which the search reports its end (it may end by itself, on a proof).
    pub fn done(&self) -> Option<&Receiver<SearchDone>> {
        self.request.done()
    }
}

/// A copy of the game's state, to restore after a failure.
#[derive(Clone, Debug)]
pub struct Snapshot {
    position: Position,
}

/// The game: the engine and everything about the current game.
pub struct Game {
    engine: Engine,
    position: Position,
    rule: Rule,
    time: TimeSettings,
    /// The colour the engine plays.
    our_color: Color,
    /// Notes for the user, collected until the front end shows them.
    notes: Vec<String>,
    /// Root moves excluded from every search until reset (Yixin-Board's `YXBLOCK`).
    blocked: Vec<Pos>,
    /// How strongly the engine plays.
    level: Level,
    /// The level's choices.
    rng: Rng,
    /// The principal variation of the search whose move was played last (empty when the
    /// move did not come from a search): its second move is the predicted reply.
    last_line: Vec<Pos>,
}

impl Default for Game {
    fn default() -> Self {
        Self::new()
    }
}

impl Game {
    /// 15x15 freestyle, the engine playing Black, until told otherwise.
    pub fn new() -> Game {
        Game {
            engine: Engine::new(),
            position: Position::new(15, 15, Rule::Freestyle).expect("15x15 is supported"),
            rule: Rule::Freestyle,
            time: TimeSettings::default(),
            our_color: Color::Black,
            notes: Vec::new(),
            blocked: Vec::new(),
            level: Level::max(),
            rng: Rng::new(Rng::seed_from_time()),
            last_line: Vec::new(),
        }
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The rule.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The colour the engine plays.
    pub fn our_color(&self) -> Color {
        self.our_color
    }

    /// The engine (options, table).
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The engine, to change options or clear its table.
    pub fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// The time settings, to change.
    pub fn time_mut(&mut self) -> &mut TimeSettings {
        &mut self.time
    }

    /// Add a note for the user.
    pub fn note(&mut self, text: String) {
        self.notes.push(text);
    }

    /// The notes collected since the last call.
    pub fn take_notes(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notes)
    }

    /// The state, to restore with [`Game::restore`].
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            position: self.position.clone(),
        }
    }

    /// Go back to a snapshot's state.
    pub fn restore(&mut self, snapshot: Snapshot) {
        self.position = snapshot.position;
    }

    /// A new game on a `width` x `height` board (the rule stays); refused, with the game
    /// unchanged, for a size the engine does not support.
    pub fn new_game(&mut self, width: i64, height: i64) -> Result<(), String> {
        let size = usize::try_from(width)
            .ok()
            .zip(usize::try_from(height).ok())
            .filter(|&(w, h)| Board::size_supported(w, h));
        let Some((w, h)) = size else {
            return Err(format!(
                "unsupported board size {width}x{height}: sizes 5 to 32 are supported"
            ));
        };
        self.reset(w, h);
        Ok(())
    }

    /// A new game on the same board.
    pub fn restart(&mut self) {
        let b = self.position.board();
        self.reset(b.width(), b.height());
    }

    fn reset(&mut self, width: usize, height: usize) {
        self.position = Position::new(width, height, self.rule).expect("size was checked");
        self.our_color = Color::Black;
        self.time.new_game();
        crate::pattern::warm(self.rule);
    }

    /// Play under `rule` from now on (the pattern tables are built now, not in the first
    /// move's time).
    pub fn set_rule(&mut self, rule: Rule) {
        crate::pattern::warm(rule);
        self.rule = rule;
        self.position.set_rule(rule);
    }

    /// The square at `(x, y)`, if it is on the board.
    pub fn on_board(&self, x: i64, y: i64) -> Result<Pos, String> {
        let b = self.position.board();
        if x < 0 || y < 0 || x >= b.width() as i64 || y >= b.height() as i64 {
            return Err(format!("off the {}x{} board", b.width(), b.height()));
        }
        Ok(Pos::new(x as usize, y as usize))
    }

    /// The square at `(x, y)`, if it is on the board and empty.
    pub fn empty_square(&self, x: i64, y: i64) -> Result<Pos, String> {
        let pos = self.on_board(x, y)?;
        let b = self.position.board();
        if !b.is_empty(pos) {
            return Err("square is occupied".into());
        }
        if b.stone_count() >= b.area() {
            return Err("board is full".into());
        }
        Ok(pos)
    }

    /// The engine moves first on an empty board: it plays Black. Refused unless the board
    /// is empty.
    pub fn begin(&mut self) -> Result<(), String> {
        if self.position.board().stone_count() > 0 {
            return Err("BEGIN needs an empty board; send START or BOARD first".into());
        }
        self.our_color = Color::Black;
        Ok(())
    }

    /// The opponent played at `pos` (an empty square, see [`Game::empty_square`]). Which
    /// colour that was follows from the stone counts: Black if the colours are level.
    pub fn opponent_move(&mut self, pos: Pos) {
        let b = self.position.board();
        let (black, white) = (b.count(Color::Black), b.count(Color::White));
        if black == white {
            self.our_color = Color::White;
        } else if black == white + 1 {
            self.our_color = Color::Black;
        }
        self.position.play_as(pos, self.our_color.opponent());
    }

    /// Put one of the engine's own stones at `pos` (an empty square) without thinking.
    pub fn own_move(&mut self, pos: Pos) {
        self.position.play_as(pos, self.our_color);
    }

    /// Replace the position by `stones` (in the order given), with the engine to move. The
    /// engine's colour follows from the counts: Black when level, White when the opponent
    /// has one more; otherwise the first stone listed is taken as Black and a note says so.
    pub fn set_stones(&mut self, stones: &[(Pos, Field)]) -> Result<(), String> {
        let b = self.position.board();
        let mut seen = vec![false; b.width() * b.height()];
        for &(pos, _) in stones {
            let (x, y) = (pos.x(), pos.y());
            if x >= b.width() || y >= b.height() {
                return Err(format!(
                    "stone {x},{y} is off the {}x{} board",
                    b.width(),
                    b.height()
                ));
            }
            let i = y * b.width() + x;
            if std::mem::replace(&mut seen[i], true) {
                return Err(format!("stone {x},{y} is listed twice"));
            }
        }
        let own = stones.iter().filter(|s| s.1 == Field::Own).count();
        let opp = stones.iter().filter(|s| s.1 == Field::Opponent).count();
        let first = stones.iter().map(|s| s.1).find(|&f| f != Field::Blocked);
        let (us, note) = infer_colour(own, opp, first);
        let placed: Vec<(Pos, Cell)> = stones
            .iter()
            .map(|&(pos, field)| {
                let cell = match field {
                    Field::Own => Cell::Stone(us),
                    Field::Opponent => Cell::Stone(us.opponent()),
                    Field::Blocked => Cell::Blocked,
                };
                (pos, cell)
            })
            .collect();
        let b = self.position.board();
        let position = Position::from_stones(b.width(), b.height(), self.rule, &placed, us)
            .map_err(|e| e.0)?;
        if let Some(note) = note {
            self.notes.push(note);
        }
        self.our_color = us;
        self.position = position;
        Ok(())
    }

    /// Take back the stone at `pos`: the last move is undone; another stone is removed and
    /// the colours are inferred again as for [`Game::set_stones`]; a blocked square is
    /// cleared. Refused for an empty square.
    pub fn take_back(&mut self, pos: Pos) -> Result<(), String> {
        match self.position.board().cell(pos) {
            Cell::Empty => return Err("square is empty".into()),
            Cell::Blocked => {
                self.position.board_mut().remove(pos);
            }
            Cell::Stone(_) if self.position.last_move() == Some(pos) => {
                self.position.undo();
            }
            Cell::Stone(_) => {
                self.position.remove_stone(pos);
                let b = self.position.board();
                let own = b.count(self.our_color);
                let opp = b.count(self.our_color.opponent());
                let first = self.position.history().first().map(|&p| {
                    if b.cell(p) == Cell::Stone(self.our_color) {
                        Field::Own
                    } else {
                        Field::Opponent
                    }
                });
                let (us, note) = infer_colour(own, opp, first);
                if let Some(note) = note {
                    self.notes.push(note);
                }
                if us != self.our_color {
                    self.position.swap_colours();
                    self.our_color = us;
                }
                self.position.set_to_move(us);
            }
        }
        Ok(())
    }

    /// Play at `level` from the next move on.
    pub fn set_level(&mut self, level: Level) {
        self.level = level;
    }

    /// The current level.
    pub fn level(&self) -> &Level {
        &self.level
    }

    /// Seed the level's choices (the same seed, position and level give the same move).
    pub fn set_seed(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
    }

    /// Exclude `squares` from the engine's choices in every later search, until
    /// [`Game::reset_blocks`] (squares off the board are refused, nothing changed).
    pub fn block(&mut self, squares: &[(i64, i64)]) -> Result<(), String> {
        let mut add = Vec::with_capacity(squares.len());
        for &(x, y) in squares {
            add.push(self.on_board(x, y).map_err(|e| format!("{x},{y}: {e}"))?);
        }
        for p in add {
            if !self.blocked.contains(&p) {
                self.blocked.push(p);
            }
        }
        Ok(())
    }

    /// Take `squares` off the excluded list (squares not on it are ignored).
    pub fn unblock(&mut self, squares: &[(i64, i64)]) {
        self.blocked
            .retain(|p| !squares.contains(&(p.x() as i64, p.y() as i64)));
    }

    /// No root move excluded.
    pub fn reset_blocks(&mut self) {
        self.blocked.clear();
    }

    /// The excluded root moves.
    pub fn blocked(&self) -> &[Pos] {
        &self.blocked
    }

    /// Black's forbidden squares under renju when Black is to move; empty otherwise.
    pub fn forbidden_squares(&self) -> Vec<Pos> {
        if self.rule == Rule::Renju && self.position.to_move() == Color::Black {
            rules::forbidden_points(self.position.board())
                .into_iter()
                .map(|(pos, _)| pos)
                .collect()
        } else {
            Vec::new()
        }
    }

    /// Swap2: answer the opening `stones` (0, 3 or 5 of them, placed alternately from
    /// Black) on an empty board of the current size, and keep the board in step with the
    /// answer. Refused, with the game unchanged, for another count or a bad square.
    pub fn swap2(&mut self, stones: &[(i64, i64)]) -> Result<Swap2Answer, String> {
        if ![0, 3, 5].contains(&stones.len()) {
            return Err(format!(
                "SWAP2BOARD needs 0, 3 or 5 stones, got {}",
                stones.len()
            ));
        }
        let b = self.position.board();
        let (w, h) = (b.width(), b.height());
        let mut position = Position::new(w, h, self.rule).map_err(|e| e.0)?;
        for &(x, y) in stones {
            let pos = self
                .on_board(x, y)
                .map_err(|e| format!("SWAP2BOARD stone {x},{y}: {e}"))?;
            if !position.board().is_empty(pos) {
                return Err(format!("SWAP2BOARD stone {x},{y}: square is occupied"));
            }
            position.play(pos);
        }
        let answer = match stones.len() {
            0 => Swap2Answer::Stones(opening::propose_three(w, h)),
            3 => opening::answer_three(&position),
            _ => opening::answer_five(&position),
        };
        match &answer {
            Swap2Answer::Stones(placed) => {
                for &s in placed {
                    position.play(s);
                }
            }
            Swap2Answer::Move(p) => position.play(*p),
            Swap2Answer::Swap => {}
        }
        self.position = position;
        Ok(answer)
    }

    /// Start choosing the engine's move, the request having arrived `at`: the table is
    /// sized, the rule's tables warmed, and a search started within the time budget,
    /// thinking at most `most` (None: the budget alone decides; no search when the budget
    /// is tiny), for the `multi_pv` best lines (1 for play) and without the blocked moves.
    /// `report` receives the search's progress after each iteration, `realtime` (if any)
    /// the root moves as they are searched. Refused on a full board.
    pub fn begin_move(
        &mut self,
        at: Instant,
        most: Option<Duration>,
        multi_pv: usize,
        report: Box<dyn FnMut(&SearchInfo) + Send>,
        realtime: Option<RealtimeSink>,
    ) -> Result<MoveRequest, String> {
        self.position.set_to_move(self.our_color);
        if self.position.empty_count() == 0 {
            return Err("the board is full".into());
        }
        let mut budget = self.time.budget(self.position.empty_count());
        if let Some(most) = most {
            budget.maximum = budget.maximum.min(most);
            budget.optimum = budget.optimum.min(most);
        }
        // A new table (the first move of a process, or new memory settings) is made on
        // this move's clock: it may take a quarter of the optimum, and the search maps
        // the rest of its pages as it goes (see `TranspositionTable::new_touched_until`).
        let table_deadline = at + budget.optimum.min(budget.maximum) / 4;
        if let Some(note) = self.engine.prepare_table_until(Some(table_deadline)) {
            self.notes.push(note);
        }
        crate::pattern::warm(self.rule);
        let options = self.engine.options().clone();
        // Below full strength, a play request searches the level's lines within its
        // node budget and the level chooses among them.
        let choose = multi_pv <= 1 && !self.level.is_max();
        let (multi_pv, level_nodes) = if choose {
            (self.level.lines, self.level.nodes)
        } else {
            (multi_pv, None)
        };
        let max_nodes = match (options.max_nodes, level_nodes) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let mut request = MoveRequest {
            at,
            budget,
            search: None,
            ready: None,
            choose,
            clock: None,
        };
        // Under renju every empty square may be forbidden to Black near the end of a game:
        // no legal move is left, and no search is started. An empty square (a foul, which
        // the manager scores as a loss) is still a move; an occupied one would be an
        // illegal answer.
        let instant = Engine::instant_move(&self.position);
        if instant.is_none() {
            let foul = self.position.board().empty_positions().next();
            self.notes.push(
                "no legal move: every empty square is forbidden to Black; playing one".into(),
            );
            request.ready = foul;
        } else if budget.maximum <= INSTANT_THRESHOLD {
            request.ready = instant;
        } else {
            let limits = Limits {
                max_nodes,
                max_depth: options.max_depth,
                unused_is_lost: budget.unused_is_lost,
                multi_pv: multi_pv.max(1),
                blocked: self.blocked.clone(),
                realtime,
                ..Limits::new(at, budget.optimum, budget.maximum)
            };
            request.clock = Some(Arc::clone(&limits.clock));
            request.search = Some(self.engine.start_search(&self.position, limits, report));
        }
        Ok(request)
    }

    /// Start pondering after the engine's move: a search, with no time limit until a hit,
    /// on the position after the opponent's predicted reply (the last search's second
    /// move). None when there is no prediction (the move came from a shortcut or a level's
    /// choice, or the predicted square is not playable for the opponent).
    pub fn begin_ponder(&mut self, report: Box<dyn FnMut(&SearchInfo) + Send>) -> Option<Ponder> {
        let (&ours, &predicted) = (self.last_line.first()?, self.last_line.get(1)?);
        if self.position.last_move() != Some(ours) || !self.level.is_max() {
            return None;
        }
        let mut after = self.position.clone();
        after.set_to_move(self.our_color.opponent());
        if !after.is_legal(predicted) || after.is_winning_move(predicted) {
            return None;
        }
        after.play_as(predicted, self.our_color.opponent());
        after.set_to_move(self.our_color);
        if after.empty_count() == 0 {
            return None;
        }
        let now = Instant::now();
        let day = Duration::from_secs(86_400);
        let options = self.engine.options().clone();
        // The budget a hit is expected to bring (what `ponder_hit` will compute, but for
        // later `INFO time_left`): the root threat solvers plan by it, as a move's search
        // does, and with only a per-move limit the search deepens to the hard limit.
        let expected = self.time.budget(after.empty_count());
        let limits = Limits {
            max_nodes: options.max_nodes,
            max_depth: options.max_depth,
            blocked: self.blocked.clone(),
            unused_is_lost: expected.unused_is_lost,
            ponder_budget: Some((expected.optimum, expected.maximum)),
            ..Limits::new(now, day, day)
        };
        let clock = Arc::clone(&limits.clock);
        let search = self.engine.start_search(&after, limits, report);
        Some(Ponder {
            predicted,
            request: MoveRequest {
                at: now,
                budget: Budget {
                    optimum: day,
                    maximum: day,
                    unused_is_lost: false,
                },
                search: Some(search),
                ready: None,
                choose: false,
                clock: Some(clock),
            },
        })
    }

    /// The opponent played the predicted move (the request arrived `at`): play it, and
    /// turn the ponder search into this move's search, its budget counted from `at`.
    pub fn ponder_hit(&mut self, ponder: Ponder, at: Instant) -> MoveRequest {
        self.opponent_move(ponder.predicted);
        self.position.set_to_move(self.our_color);
        let budget = self.time.budget(self.position.empty_count());
        let mut request = ponder.request;
        request.at = at;
        request.budget = budget;
        if let Some(clock) = &request.clock {
            clock.reset(at, budget.optimum, budget.maximum);
        }
        request
    }

    /// The opponent did not play the predicted move: stop the ponder search and take the
    /// searcher back (its table keeps what it learnt). `finished` is the search's end if
    /// it already came.
    pub fn ponder_miss(&mut self, ponder: Ponder, finished: Option<SearchDone>) {
        ponder.request.stop();
        let done = finished.or_else(|| {
            ponder
                .request
                .done()
                .and_then(|d| d.recv_timeout(PONDER_STOP_WAIT).ok())
        });
        match done {
            Some(done) => {
                let _ = self.engine.finish_search(done);
            }
            None => log::warn!("the ponder search did not stop in time; a new searcher follows"),
        }
    }

    /// Finish a move request: take the search's move (or the fallback if it failed or was
    /// abandoned), make sure it is legal, play it, charge the clock, and return it. Err
    /// only if there was no move at all.
    pub fn finish_move(
        &mut self,
        request: MoveRequest,
        end: Option<SearchEnd>,
    ) -> Result<Pos, String> {
        self.last_line.clear();
        let chosen = match (request.search, end) {
            (None, _) => request.ready,
            (Some(running), Some(SearchEnd::Done(done))) => match self.engine.finish_search(done) {
                Ok(outcome) => {
                    if outcome.blocks_ignored {
                        self.notes.push(
                            "every legal move is blocked: the block is ignored for this search"
                                .to_string(),
                        );
                    }
                    self.last_line = outcome.pv.clone();
                    if request.choose {
                        // Every level makes its five and blocks the opponent's.
                        let forced = Engine::forced_move(&self.position);
                        forced.or_else(|| self.level.choose(&outcome.lines, &mut self.rng))
                    } else {
                        Some(outcome.best)
                    }
                }
                Err(panic) => {
                    log::error!("search panicked: {panic}");
                    Some(running.best_or_fallback())
                }
            },
            (Some(running), _) => Some(running.best_or_fallback()),
        };
        let Some(chosen) = chosen else {
            self.last_line.clear();
            return Err("no move available".into());
        };
        let chosen = self.legal_or_fallback(chosen);
        self.position.play_as(chosen, self.our_color);
        let used = request.at.elapsed();
        let maximum = request.budget.maximum;
        if used > maximum + Duration::from_millis(5) {
            log::warn!(
                "move {chosen} took {} ms, budget {} ms",
                used.as_millis(),
                maximum.as_millis()
            );
        } else {
            log::debug!(
                "move {chosen} after {} ms (budget {} ms)",
                used.as_millis(),
                maximum.as_millis()
            );
        }
        self.time.charge(request.at.elapsed().as_millis() as i64);
        Ok(chosen)
    }

    /// Choose and play the engine's move, waiting for the search: the whole move for a
    /// front end that has nothing else to watch meanwhile.
    pub fn think(
        &mut self,
        at: Instant,
        report: Box<dyn FnMut(&SearchInfo) + Send>,
    ) -> Result<Pos, String> {
        let request = self.begin_move(at, None, 1, report, None)?;
        let end = request.done().map(|done| wait_for_search(&request, done));
        self.finish_move(request, end)
    }

    /// After a failure while handling a request for a move: restore `snapshot`, then play
    /// the instant move (made legal). None if there is no legal square.
    pub fn emergency_move(&mut self, snapshot: Snapshot) -> Option<Pos> {
        self.restore(snapshot);
        self.position.set_to_move(self.our_color);
        let instant = Engine::instant_move(&self.position)?;
        let m = self.legal_or_fallback(instant);
        self.position.play_as(m, self.our_color);
        Some(m)
    }

    /// `chosen` if the side to move may play it; else the instant move, else any legal
    /// square. Every move the engine answers with passes here: a foul or an occupied
    /// square loses the game at once, any legal move does not.
    pub fn legal_or_fallback(&mut self, chosen: Pos) -> Pos {
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
}

/// Wait for a search until its deadline, then stop it and wait [`STOP_GRACE`] more.
fn wait_for_search(request: &MoveRequest, done: &Receiver<SearchDone>) -> SearchEnd {
    let mut stopping = false;
    let mut wake = request.deadline();
    loop {
        let timer = after(wake.saturating_duration_since(Instant::now()));
        select! {
            recv(done) -> d => return match d {
                Ok(d) => SearchEnd::Done(d),
                Err(_) => SearchEnd::Abandoned,
            },
            recv(timer) -> _ => {
                if stopping {
                    log::warn!("search did not stop in time; playing its best move so far");
                    return SearchEnd::Abandoned;
                }
                request.stop();
                stopping = true;
                wake = Instant::now() + STOP_GRACE;
            }
        }
    }
}

/// Decide the engine's colour from stone counts (blocked squares excluded) and the field
/// of the first stone listed. Returns the colour and a note when the counts are unusual.
fn infer_colour(own: usize, opp: usize, first: Option<Field>) -> (Color, Option<String>) {
    if own == opp {
        (Color::Black, None)
    } else if opp == own + 1 {
        (Color::White, None)
    } else {
        let us = if first == Some(Field::Own) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_inference() {
        use Field::{Opponent, Own};
        assert_eq!(infer_colour(0, 0, None).0, Color::Black);
        assert_eq!(infer_colour(3, 3, Some(Opponent)).0, Color::Black);
        assert_eq!(infer_colour(2, 3, Some(Opponent)).0, Color::White);
        let (c, note) = infer_colour(5, 1, Some(Own));
        assert_eq!(c, Color::Black);
        assert!(note.is_some());
        assert_eq!(infer_colour(1, 5, Some(Opponent)).0, Color::White);
    }

    /// The game from a diagram: X the engine's stones, O the opponent's.
    fn game_from(diagram: &str, rule: Rule) -> Game {
        let board = Board::from_ascii(diagram).unwrap();
        let mut game = Game::new();
        game.set_rule(rule);
        game.new_game(board.width() as i64, board.height() as i64)
            .unwrap();
        let stones: Vec<(Pos, Field)> = board
            .positions()
            .filter_map(|p| match board.cell(p) {
                Cell::Stone(Color::Black) => Some((p, Field::Own)),
                Cell::Stone(Color::White) => Some((p, Field::Opponent)),
                _ => None,
            })
            .collect();
        game.set_stones(&stones).unwrap();
        game
    }

    #[test]
    fn a_search_that_does_not_answer_in_time_plays_its_best_move_so_far() {
        let mut game = game_from(
            "...............
             ...............
             ...............
             ...............
             ...............
             ...............
             ...............
             .......XO......
             ......O........
             ........X......
             ...............
             ...............
             ...............
             ...............
             ...............",
            Rule::Freestyle,
        );
        let request = game
            .begin_move(
                Instant::now(),
                Some(Duration::from_secs(20)),
                1,
                Box::new(|_| {}),
                None,
            )
            .unwrap();
        let running = request.search.as_ref().expect("a search runs");
        // Nothing is published before the first iteration completes; wait for one.
        let waited = Instant::now();
        while running.best_so_far.get().is_none() {
            assert!(waited.elapsed() < Duration::from_secs(15), "no iteration");
            std::thread::sleep(Duration::from_millis(1));
        }
        request.stop();
        let done = request.done().unwrap().recv().unwrap();
        let searched = done.outcome.as_ref().unwrap().best;
        assert_eq!(running.best_so_far.get(), Some(searched));
        // The search's answer is dropped, as when it comes too late: the move played is
        // still the search's, not the instant move computed before it.
        drop(done);
        let played = game
            .finish_move(request, Some(SearchEnd::Abandoned))
            .unwrap();
        assert_eq!(played, searched);
        assert_eq!(game.position.last_move(), Some(searched));
    }

    #[test]
    fn an_illegal_choice_is_replaced_by_a_legal_move() {
        // The engine (Black) has X X X . X X: the gap makes an overline under renju.
        let mut game = game_from(
            "O.O.O.O.O......
             ...............
             ...............
             ...............
             ...............
             ...............
             ...............
             ...XXX.XX......
             ...............
             ...............
             ...............
             ...............
             ...............
             ...............
             ...............",
            Rule::Renju,
        );
        assert_eq!(game.our_color(), Color::Black);
        let overline = Pos::new(6, 7);
        assert!(!game.position.is_legal(overline));
        let played = game.legal_or_fallback(overline);
        assert_ne!(played, overline);
        assert!(game.position.is_legal(played), "{played} is legal");
        let occupied = Pos::new(3, 7);
        let played = game.legal_or_fallback(occupied);
        assert!(game.position.is_legal(played), "{played} is legal");
        // A legal choice stays.
        assert_eq!(game.legal_or_fallback(Pos::new(7, 9)), Pos::new(7, 9));
    }

    #[test]
    fn refused_requests_leave_the_game_as_it_was() {
        let mut game = game_from(
            "........
             ...XO...
             ...OX...
             ........
             ........
             ........
             ........
             ........",
            Rule::Freestyle,
        );
        let (hash, history) = (game.position().hash(), game.position().history().to_vec());
        assert!(game.new_game(4, 40).is_err());
        assert!(game.take_back(Pos::new(0, 0)).is_err());
        assert!(game.swap2(&[(0, 0)]).is_err());
        assert!(game.swap2(&[(0, 0), (0, 0), (1, 1)]).is_err());
        assert!(game.on_board(8, 0).is_err() && game.empty_square(3, 1).is_err());
        assert!(game.begin().is_err());
        // Two stones on one square: the position cannot be built.
        let twice = [
            (Pos::new(0, 0), Field::Own),
            (Pos::new(0, 0), Field::Opponent),
        ];
        assert!(game.set_stones(&twice).is_err());
        assert_eq!(game.position().hash(), hash);
        assert_eq!(game.position().history(), &history[..]);
    }

    #[test]
    fn the_last_move_taken_back_and_the_engine_keeps_its_colour() {
        let mut game = Game::new();
        game.new_game(15, 15).unwrap();
        game.opponent_move(Pos::new(7, 7));
        assert_eq!(game.our_color(), Color::White);
        game.own_move(Pos::new(8, 8));
        game.take_back(Pos::new(8, 8)).unwrap();
        assert_eq!(game.position().history(), &[Pos::new(7, 7)]);
        assert_eq!(game.our_color(), Color::White);
    }
}
