//! The engine's side of the board: one worker thread that waits for the engine's turn,
//! asks its [`Player`] for a move without holding the game's lock, and plays the answer
//! if the game is still the one it asked about. Rensa plays in-process through the
//! engine facade ([`InProcess`]); another Gomocup engine plays through the engine client
//! ([`super::external::External`]). A player that fails is reported on the page and asked
//! nothing more until the page restarts it; the server goes on either way.

use super::state::{Job, Shared, Thinking};
use crate::board::{Color, Pos};
use crate::engine::game::{Field, Game, SearchEnd};
use crate::engine::level::Level;
use crate::search::{Evaluator, MoveOrdering, SearchInfo};
use crossbeam_channel::RecvTimeoutError;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often a waiting player looks at the abort flag.
const POLL: Duration = Duration::from_millis(20);

/// How long a stopped search may take to hand its move back.
const STOP_WAIT: Duration = Duration::from_secs(2);

/// What a player answers.
#[derive(Debug)]
pub enum Reply {
    /// A move, with the evaluation for the side that moved if known.
    Move(Pos, Option<i32>),
    /// The game changed under the search: nothing to play.
    Aborted,
    /// The player failed: why.
    Failed(String),
}

/// Something that chooses the engine's moves.
pub trait Player: Send {
    /// The engine's name for the page.
    fn name(&self) -> String;

    /// Choose a move for the side to move after `job.moves`, reporting progress to
    /// `shared`; give up soon after `job.abort` is set.
    fn choose(&mut self, job: &Job, shared: &Arc<Shared>) -> Reply;

    /// The page asked for a restart: start afresh at the next move.
    fn restart(&mut self) {}
}

/// The colour to move after `moves`.
pub fn to_move(moves: &[Pos]) -> Color {
    if moves.len().is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    }
}

/// Run `player` on its own thread until the server closes.
pub fn spawn_worker(mut player: Box<dyn Player>, shared: Arc<Shared>) -> JoinHandle<()> {
    std::thread::Builder::new()
        .name("gui-engine".into())
        .spawn(move || {
            let mut restarts = shared.lock().restarts;
            while let Some(job) = shared.next_job() {
                let wanted = shared.lock().restarts;
                if wanted != restarts {
                    restarts = wanted;
                    player.restart();
                }
                let reply = catch_unwind(AssertUnwindSafe(|| player.choose(&job, &shared)))
                    .unwrap_or_else(|_| Reply::Failed("the engine's worker panicked".into()));
                let name = player.name();
                shared.update(|s| match reply {
                    Reply::Move(pos, eval) => {
                        s.engine_name = name;
                        if let Err(e) = s.engine_move(job.key, pos, eval) {
                            s.engine_failed(job.key, Some(e));
                            player.restart();
                        }
                    }
                    Reply::Aborted => s.engine_failed(job.key, None),
                    Reply::Failed(e) => s.engine_failed(job.key, Some(e)),
                });
            }
        })
        .expect("the engine's worker thread starts")
}

/// Rensa, in this process, through the engine facade.
pub struct InProcess {
    game: Game,
    evaluator: Evaluator,
    ordering: MoveOrdering,
}

impl InProcess {
    /// A fresh engine with this evaluation and move ordering (its tables are made at the
    /// first move).
    pub fn new(evaluator: Evaluator, ordering: MoveOrdering) -> InProcess {
        let mut player = InProcess {
            game: Game::new(),
            evaluator,
            ordering,
        };
        player.restart();
        player
    }

    /// Set the facade's game to the job's position, the engine to move.
    fn set_up(&mut self, job: &Job) -> Result<(), String> {
        let setup = &job.setup;
        let game = &mut self.game;
        game.set_rule(setup.rule);
        game.new_game(setup.width as i64, setup.height as i64)?;
        let us = to_move(&job.moves);
        let stones: Vec<(Pos, Field)> = job
            .moves
            .iter()
            .enumerate()
            .map(|(i, &p)| {
                let own = (i % 2 == 0) == (us == Color::Black);
                (p, if own { Field::Own } else { Field::Opponent })
            })
            .collect();
        game.set_stones(&stones)?;
        game.set_level(Level::named(&setup.level).unwrap_or_else(Level::max));
        if let Some(seed) = setup.seed {
            // The same seed, level and position give the same move, however the game
            // got there.
            let ply = job.moves.len() as u64;
            game.set_seed(seed ^ ply.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        }
        let time = game.time_mut();
        time.turn_ms = Some(setup.time_ms as i64);
        time.match_ms = None;
        time.time_left_ms = None;
        Ok(())
    }
}

impl Player for InProcess {
    fn name(&self) -> String {
        format!("Rensa {}", env!("CARGO_PKG_VERSION"))
    }

    fn choose(&mut self, job: &Job, shared: &Arc<Shared>) -> Reply {
        if let Err(e) = self.set_up(job) {
            return Reply::Failed(e);
        }
        let best = Arc::new(std::sync::Mutex::new(None::<i32>));
        let report = {
            let (shared, key, best) = (Arc::clone(shared), job.key, Arc::clone(&best));
            Box::new(move |info: &SearchInfo| {
                if info.pv_index != 0 {
                    return;
                }
                if let Ok(mut b) = best.lock() {
                    *b = Some(info.score);
                }
                let thinking = Thinking {
                    depth: info.depth,
                    score: Some(info.score),
                    pv: info.pv.clone(),
                    nodes: info.nodes,
                    elapsed_ms: info.elapsed.as_millis() as u64,
                };
                shared.update(|s| s.report(key, thinking));
            })
        };
        let request = match self.game.begin_move(Instant::now(), None, 1, report, None) {
            Ok(r) => r,
            Err(e) => return Reply::Failed(e),
        };
        let mut aborted = false;
        let end = request.done().map(|done| {
            let mut stopping: Option<Instant> = None;
            loop {
                match done.recv_timeout(POLL) {
                    Ok(d) => break SearchEnd::Done(d),
                    Err(RecvTimeoutError::Disconnected) => break SearchEnd::Abandoned,
                    Err(RecvTimeoutError::Timeout) => {}
                }
                let now = Instant::now();
                if let Some(since) = stopping {
                    if now > since + STOP_WAIT {
                        break SearchEnd::Abandoned;
                    }
                } else if job.abort.load(Ordering::Relaxed) || now >= request.deadline() {
                    aborted = job.abort.load(Ordering::Relaxed);
                    request.stop();
                    stopping = Some(now);
                }
            }
        });
        let played = self.game.finish_move(request, end);
        if aborted || job.abort.load(Ordering::Relaxed) {
            return Reply::Aborted;
        }
        let eval = best.lock().ok().and_then(|b| *b);
        match played {
            Ok(pos) => Reply::Move(pos, eval),
            Err(e) => Reply::Failed(e),
        }
    }

    fn restart(&mut self) {
        self.game = Game::new();
        let options = self.game.engine_mut().options_mut();
        options.evaluator = self.evaluator;
        options.ordering = self.ordering;
    }
}
