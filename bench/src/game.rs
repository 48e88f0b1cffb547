//! Playing one game between two engine processes: the command order managers really use,
//! the clocks, the referee's verdicts and every way a game can end. The conversation with
//! each engine (spawning, `START`, move requests, waiting under the clock, forfeits) is
//! [`rensa::client::conversation`]; this module keeps the processes between games, runs
//! the move loop with the referee and fills in the game's record.
//!
//! Two protocol modes:
//! - c-gomoku-cli style (default): one process per engine and worker, reused across games;
//!   `ABOUT` after spawning, then per game `START n` (waiting for exactly `OK`), the `INFO`
//!   settings, and per move `INFO time_left` + `BEGIN` / `BOARD` (an engine's first move of
//!   the game) / `TURN`. A process that crashed, timed out or misbehaved is restarted.
//! - GomocupJudge mode: a fresh process per game; `START` and the `INFO` settings are sent
//!   without waiting for `OK` and the process is suspended (SIGSTOP) at once; each move is
//!   `INFO time_left` + `BOARD`..`DONE` (first move) or `TURN`, with the process resumed
//!   (SIGCONT) only for its own turn; resident memory is sampled after every move, and
//!   Renju games are drawn at size² − 25 stones. Lines that are not moves are ignored, as
//!   GomocupJudge does. `END`, half a second, then a kill.

use crate::openings::PlacedOpening;
use crate::referee::{Referee, Verdict};
use rensa::board::{Color, Pos};
use rensa::client::clock::Clock;
use rensa::client::conversation::{
    check_memory, forfeit, move_request, request_move, spawn_engine, start_game, Awaited, Forfeit,
};
use rensa::client::process::{EngineProcess, IoLog};
use rensa::client::spec::EngineSpec;
use rensa::client::sys;
use rensa::records::{self, Outcome, Record, Termination};
use rensa::rules::Rule;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};
/// How long GomocupJudge mode lets an engine exit after `END` before killing it.
const JUDGE_END_GRACE: Duration = Duration::from_millis(500);

/// One engine's figures in one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideStats {
    /// Moves answered.
    pub moves: u32,
    /// Total thinking time, ms.
    pub total_ms: u64,
    /// Longest move, ms.
    pub max_move_ms: u64,
    /// Largest overrun of the per-move limit, ms (None without a per-move limit).
    pub max_turn_overrun_ms: Option<i64>,
    /// Largest overrun of the match clock, ms (None without a match limit).
    pub max_match_overrun_ms: Option<i64>,
    /// Largest resident memory seen, bytes.
    pub peak_rss: Option<u64>,
}

/// What to play: one game of the schedule.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// 1-based game number.
    pub id: usize,
    /// 1-based round.
    pub round: usize,
    /// Index of the pairing (encounter) this game belongs to.
    pub pairing: usize,
    /// Colour-swapped pair this game belongs to, if any (for the pentanomial statistics).
    pub pair: Option<usize>,
    /// Engine index playing Black.
    pub black: usize,
    /// Engine index playing White.
    pub white: usize,
    /// The opening stones, if any.
    pub opening: Option<PlacedOpening>,
}

/// Everything that happened in one game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The schedule entry.
    pub setup: GameSetup,
    /// Names of Black and White.
    pub names: [String; 2],
    /// Program file names of Black and White (for `.psq` records).
    pub programs: [String; 2],
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// Rule.
    pub rule: Rule,
    /// All stones in order with thinking time in ms (0 for opening stones).
    pub moves: Vec<(Pos, u64)>,
    /// How many of `moves` came from the opening.
    pub opening_len: usize,
    /// The winner, None for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub termination: Termination,
    /// Human-readable details (e.g. the malformed line).
    pub detail: String,
    /// Figures for Black and White.
    pub sides: [SideStats; 2],
    /// Wall-clock start.
    pub started: SystemTime,
    /// Wall-clock duration.
    pub duration: Duration,
    /// `MESSAGE` lines (colour, text), if kept.
    pub messages: Vec<(Color, String)>,
    /// The runner's own time in the move loop (all time not spent waiting for a reply).
    pub overhead: Duration,
    /// Moves the overhead was measured over.
    pub overhead_moves: u32,
    /// The part of `overhead` between a reply's arrival (stamped by the reader thread) and
    /// the game loop picking it up: scheduling delay, large on a saturated machine.
    pub pickup: Duration,
    /// Which sides' processes were restarted after the game.
    pub restarted: [bool; 2],
}

impl GameRecord {
    /// Result for Black: 1 win, 0 loss, 0.5 draw.
    pub fn black_score(&self) -> f64 {
        match self.winner {
            Some(Color::Black) => 1.0,
            Some(Color::White) => 0.0,
            None => 0.5,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2` (Black first).
    pub fn result_text(&self) -> &'static str {
        match self.winner {
            Some(Color::Black) => "1-0",
            Some(Color::White) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// A one-line description of how the game ended.
    pub fn reason_text(&self) -> String {
        records::reason_text(&self.names, self.winner, self.termination, &self.detail)
    }

    /// The game as the record formats (`.psq`, SGF) see it.
    pub fn to_record(&self) -> Record {
        Record {
            id: self.setup.id,
            round: self.setup.round,
            date: records::date_text(self.started),
            width: self.width,
            height: self.height,
            rule: Some(self.rule),
            names: self.names.clone(),
            programs: self.programs.clone(),
            moves: self.moves.clone(),
            opening_len: self.opening_len,
            result: Some(Outcome::from_winner(self.winner)),
            psq_code: Some(self.termination.psq_code()),
            reason: self.reason_text(),
        }
    }
}

/// Settings shared by every game of a match.
pub struct Table<'a> {
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// Rule.
    pub rule: Rule,
    /// All engines of the match.
    pub engines: &'a [EngineSpec],
    /// Their display names.
    pub names: &'a [String],
    /// GomocupJudge mode.
    pub judge: bool,
    /// Send `BOARD` before every move instead of `TURN`.
    pub send_by_board: bool,
    /// Draw once this many stones are on the board.
    pub draw_after: Option<usize>,
    /// Set to stop: games in progress are abandoned.
    pub stop: &'a AtomicBool,
    /// Engine I/O log.
    pub log: Option<Arc<IoLog>>,
    /// Keep `MESSAGE` lines in the records.
    pub keep_messages: bool,
    /// Worker number (for log labels).
    pub worker: usize,
}

/// The engine processes one worker keeps between games, indexed like `Table::engines`.
pub struct Seats {
    slots: Vec<Option<EngineProcess>>,
}

impl Seats {
    /// No processes yet for `n` engines.
    pub fn new(n: usize) -> Seats {
        Seats {
            slots: (0..n).map(|_| None).collect(),
        }
    }

    /// End (`END`, grace, kill) every process not in `keep`.
    pub fn release_except(&mut self, keep: &[usize], grace: Duration) {
        for (i, slot) in self.slots.iter_mut().enumerate() {
            if !keep.contains(&i) {
                if let Some(e) = slot.take() {
                    e.quit(grace);
                }
            }
        }
    }

    /// End every process.
    pub fn shutdown(&mut self, grace: Duration) {
        self.release_except(&[], grace);
    }

    /// Kill one engine's process (it is started again for the next game).
    fn restart(&mut self, i: usize) {
        self.slots[i] = None;
    }
}

/// Play one game. Returns None when the stop flag ended it early (nothing is recorded).
pub fn play_game(table: &Table, setup: &GameSetup, seats: &mut Seats) -> Option<GameRecord> {
    let started = SystemTime::now();
    let wall = Instant::now();
    let idx = [setup.black, setup.white];
    let specs = [&table.engines[idx[0]], &table.engines[idx[1]]];
    let mut referee = Referee::new(table.width, table.height, table.rule).expect("board size");
    let mut rec = GameRecord {
        setup: setup.clone(),
        names: [table.names[idx[0]].clone(), table.names[idx[1]].clone()],
        programs: [program_name(specs[0]), program_name(specs[1])],
        width: table.width,
        height: table.height,
        rule: table.rule,
        moves: Vec::new(),
        opening_len: 0,
        winner: None,
        termination: Termination::FullBoard,
        detail: String::new(),
        sides: [SideStats::default(); 2],
        started,
        duration: Duration::ZERO,
        messages: Vec::new(),
        overhead: Duration::ZERO,
        overhead_moves: 0,
        pickup: Duration::ZERO,
        restarted: [false; 2],
    };
    if let Some(o) = &setup.opening {
        referee
            .play_opening(&o.stones)
            .expect("openings are checked when the book is built");
        rec.moves = referee.moves().iter().map(|&p| (p, 0)).collect();
        rec.opening_len = rec.moves.len();
    }
    let mut clocks = [0, 1].map(|s| {
        let c = Clock::new(specs[s].tc, specs[s].tolerance);
        if table.judge {
            c.without_clipping()
        } else {
            c
        }
    });

    // Start both engines, Black first.
    for side in 0..2 {
        if let Err(f) = start_engine(table, seats, idx[side], &mut rec.messages, side) {
            let color = Color::BOTH[side];
            return Some(finish(
                table,
                seats,
                rec,
                &idx,
                &clocks,
                Some(color.opponent()),
                f,
                Some(side),
                wall,
            ));
        }
    }

    let mut first_done = [false; 2];
    let loop_start = Instant::now();
    let mut engine_time = Duration::ZERO;
    let mut lines: Vec<String> = Vec::with_capacity(table.width * table.height + 4);
    let area = table.width * table.height;
    let outcome: (Option<Color>, Forfeit, Option<usize>) = loop {
        if table.stop.load(Ordering::Relaxed) {
            return None;
        }
        let stones = referee.moves().len();
        if referee.is_full() {
            break (None, forfeit(Termination::FullBoard, ""), None);
        }
        if let Some(n) = table.draw_after {
            if stones >= n {
                break (
                    None,
                    forfeit(Termination::MoveLimit, format!("{n} stones")),
                    None,
                );
            }
        }
        if table.judge && table.rule == Rule::Renju && area > 25 && stones >= area - 25 {
            break (
                None,
                forfeit(
                    Termination::MoveLimit,
                    format!("renju, {} stones", area - 25),
                ),
                None,
            );
        }
        let color = referee.to_move();
        let side = color.index();
        let budget = clocks[side].begin_move();
        move_request(
            &mut lines,
            budget.time_left,
            referee.moves(),
            color,
            !first_done[side] || table.send_by_board,
            !table.judge && !table.send_by_board,
        );
        let eng = seats.slots[idx[side]].as_mut().expect("engine started");
        let awaited = request_move(
            eng,
            &lines,
            &budget,
            table.judge,
            table.stop,
            table.keep_messages.then_some((&mut rec.messages, color)),
        );
        let (x, y, sent, at) = match awaited {
            Awaited::Aborted => {
                seats.restart(idx[side]);
                return None;
            }
            Awaited::Lost(f) => break (Some(color.opponent()), f, Some(side)),
            Awaited::Move { x, y, sent, at } => (x, y, sent, at),
        };
        rec.pickup += at.elapsed();
        let elapsed = at.saturating_duration_since(sent);
        engine_time += elapsed;
        rec.overhead_moves += 1;
        clocks[side].end_move(&budget, elapsed);
        first_done[side] = true;
        if table.judge {
            let eng = seats.slots[idx[side]].as_ref().expect("engine started");
            let peak = &mut rec.sides[side].peak_rss;
            if let Err(f) = check_memory(eng, specs[side].max_memory, peak) {
                break (Some(color.opponent()), f, Some(side));
            }
        }
        let ms = elapsed.as_millis() as u64;
        match referee.play(x, y) {
            Verdict::Normal => {
                rec.moves
                    .push((*referee.moves().last().expect("played"), ms));
            }
            Verdict::Win => {
                rec.moves
                    .push((*referee.moves().last().expect("played"), ms));
                break (Some(color), forfeit(Termination::Five, ""), None);
            }
            Verdict::OffBoard => {
                break (
                    Some(color.opponent()),
                    forfeit(Termination::OffBoard, format!("{x},{y}")),
                    Some(side),
                )
            }
            Verdict::Occupied => {
                break (
                    Some(color.opponent()),
                    forfeit(Termination::Occupied, format!("{x},{y}")),
                    Some(side),
                )
            }
            Verdict::Foul(foul) => {
                break (
                    Some(color.opponent()),
                    forfeit(Termination::Foul, format!("{foul} at {x},{y}")),
                    Some(side),
                )
            }
        }
    };
    rec.overhead = loop_start.elapsed().saturating_sub(engine_time);
    let (winner, f, culprit) = outcome;
    Some(finish(
        table, seats, rec, &idx, &clocks, winner, f, culprit, wall,
    ))
}

/// Close a game: fill in the result and statistics, restart or end processes.
#[allow(clippy::too_many_arguments)]
fn finish(
    table: &Table,
    seats: &mut Seats,
    mut rec: GameRecord,
    idx: &[usize; 2],
    clocks: &[Clock; 2],
    winner: Option<Color>,
    f: Forfeit,
    culprit: Option<usize>,
    wall: Instant,
) -> GameRecord {
    rec.winner = winner;
    rec.termination = f.termination;
    rec.detail = f.detail;
    for side in 0..2 {
        let c = &clocks[side];
        let s = &mut rec.sides[side];
        s.moves = c.moves;
        s.total_ms = c.total_ms;
        s.max_move_ms = c.max_move_ms;
        s.max_turn_overrun_ms = c.max_turn_overrun_ms;
        s.max_match_overrun_ms = c.max_match_overrun_ms;
        if let Some(e) = &seats.slots[idx[side]] {
            if let Some(hwm) = sys::process_peak_rss_bytes(e.pid()) {
                s.peak_rss = Some(s.peak_rss.map_or(hwm, |p| p.max(hwm)));
            }
        }
    }
    if let Some(side) = culprit {
        if f.termination.restarts_engine() {
            seats.restart(idx[side]);
            rec.restarted[side] = true;
        }
    }
    if table.judge {
        for &i in idx {
            if let Some(e) = seats.slots[i].take() {
                e.quit(JUDGE_END_GRACE);
            }
        }
    }
    rec.duration = wall.elapsed();
    rec
}

/// Make sure the engine has a live process and a started game.
fn start_engine(
    table: &Table,
    seats: &mut Seats,
    e: usize,
    messages: &mut Vec<(Color, String)>,
    side: usize,
) -> Result<(), Forfeit> {
    let spec = &table.engines[e];
    let slot = &mut seats.slots[e];
    if table.judge {
        *slot = None;
    }
    if let Some(eng) = slot.as_mut() {
        for stale in eng.drain() {
            log::debug!("{}: stale line before START: {stale}", eng.label());
        }
        if eng.has_ended() {
            *slot = None;
        }
    }
    if slot.is_none() {
        let label = format!("{}@{}", table.names[e], table.worker);
        let (eng, _) = spawn_engine(spec, &label, table.log.clone(), table.judge, !table.judge)
            .map_err(|err| forfeit(Termination::StartFailure, err.to_string()))?;
        *slot = Some(eng);
    }
    let eng = slot.as_mut().expect("just started");
    let messages = table.keep_messages.then_some((messages, Color::BOTH[side]));
    start_game(
        eng,
        spec,
        (table.width, table.height),
        table.rule,
        table.judge,
        messages,
    )
}

fn program_name(spec: &EngineSpec) -> String {
    spec.program
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}
