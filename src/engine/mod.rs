//! The engine facade: options, the transposition table's memory budget, and searches run on
//! their own threads so that the caller stays free to read input; [`game::Game`] owns the
//! game a front end plays (position, rule, clocks, legality, the fallback move). No
//! protocol code here.

pub mod game;
pub mod level;

use crate::board::Pos;
use crate::position::Position;
use crate::search::movescore;
use crate::search::node::NodeAnalysis;
use crate::search::tt::{TranspositionTable, MIN_TABLE_BYTES};
use crate::search::AlphaBetaSearcher;
use crate::search::{
    BestSoFar, Evaluator, Limits, MoveOrdering, SearchInfo, SearchOutcome, Searcher,
};
use crossbeam_channel::{bounded, Receiver};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Instant;

/// Memory limit assumed when the manager sends none (or 0): Gomocup's 350 MiB.
pub const DEFAULT_MAX_MEMORY: u64 = 350 << 20;
/// Memory kept back from `max_memory` for everything but the transposition table:
/// code, stacks, buffers, the pattern tables (1 MiB per colour family), the threat
/// solvers' tables (a VCT that runs for seconds fills them: the engine then peaks at
/// 38 to 43 MiB of resident memory with a 1 MiB table, against 7.6 MiB after a quick one)
/// and the allocator's own overhead.
pub const MEMORY_RESERVE: u64 = 48 << 20;
/// Largest table used without an explicit `hash_size`.
pub const DEFAULT_TABLE_CAP: u64 = 256 << 20;
pub use crate::search::SEARCH_STACK_BYTES;
/// Most search threads accepted.
pub const MAX_THREADS: usize = 64;
/// Largest `hash_size` accepted, as log2 of KiB (reported to Yixin-Board).
pub const MAX_HASH_LOG2_KIB: u32 = 22;

/// Options that shape searches; set through INFO keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Search threads.
    pub threads: usize,
    /// `max_memory` in bytes (None or 0: the default).
    pub max_memory: Option<u64>,
    /// `hash_size` in KiB, if set.
    pub hash_kib: Option<u64>,
    /// Stop after this depth.
    pub max_depth: Option<u32>,
    /// Stop after this many nodes.
    pub max_nodes: Option<u64>,
    /// The static evaluation searches use (`INFO evaluator`, `INFO weights`).
    pub evaluator: Evaluator,
    /// How searches order moves (`INFO ordering`).
    pub ordering: MoveOrdering,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            threads: 1,
            max_memory: None,
            hash_kib: None,
            max_depth: None,
            max_nodes: None,
            evaluator: Evaluator::default(),
            ordering: MoveOrdering::default(),
        }
    }
}

impl EngineOptions {
    /// The table size these options allow, and a note when the memory limit is below the
    /// engine's minimum.
    pub fn table_bytes(&self) -> (usize, Option<String>) {
        let limit = match self.max_memory {
            Some(m) if m > 0 => m,
            _ => DEFAULT_MAX_MEMORY,
        };
        let from_memory = limit.saturating_sub(MEMORY_RESERVE);
        let wanted = match self.hash_kib {
            Some(kib) if kib > 0 => kib.saturating_mul(1024).min(from_memory),
            _ => from_memory.min(DEFAULT_TABLE_CAP),
        };
        let minimum = MIN_TABLE_BYTES as u64;
        if wanted < minimum {
            let note = format!(
                "max_memory {limit} is below the engine's minimum of {} bytes; using the smallest table",
                MEMORY_RESERVE + minimum
            );
            (MIN_TABLE_BYTES, Some(note))
        } else {
            (usize::try_from(wanted).unwrap_or(usize::MAX), None)
        }
    }
}

/// A search running on its own thread.
pub struct RunningSearch {
    stop: Arc<AtomicBool>,
    done: Receiver<SearchDone>,
    /// The instant move computed before the search started; played if the search fails
    /// before it has a move of its own.
    pub fallback: Pos,
    /// The search's best move so far (see [`RunningSearch::best_or_fallback`]).
    best_so_far: Arc<BestSoFar>,
}

/// What a search thread sends back.
pub struct SearchDone {
    /// The outcome, or the panic message if the search panicked.
    pub outcome: Result<SearchOutcome, String>,
    searcher: Box<dyn Searcher>,
}

impl RunningSearch {
    /// Ask the search to stop as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// The channel on which the result arrives.
    pub fn done(&self) -> &Receiver<SearchDone> {
        &self.done
    }

    /// The move to play when the search cannot answer (it did not stop in time, or it
    /// failed): its best move so far, from its last completed iteration, else the
    /// instant move computed before it started.
    pub fn best_or_fallback(&self) -> Pos {
        self.best_so_far.get().unwrap_or(self.fallback)
    }
}

/// The engine: options, table and searcher.
pub struct Engine {
    options: EngineOptions,
    table: Option<Arc<TranspositionTable>>,
    searcher: Option<Box<dyn Searcher>>,
    /// Thread count the current searcher was made for.
    searcher_threads: usize,
}

impl Default for Engine {
    fn default() -> Self {
        Self::new()
    }
}

impl Engine {
    /// A new engine. Allocates nothing large: the table is made at the first search.
    pub fn new() -> Engine {
        Engine {
            options: EngineOptions::default(),
            table: None,
            searcher: None,
            searcher_threads: 0,
        }
    }

    /// Current options.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Change options (tables are resized lazily at the next search).
    pub fn options_mut(&mut self) -> &mut EngineOptions {
        &mut self.options
    }

    /// Make sure the table matches the options: the old table is freed before a new one is
    /// allocated, so peak memory never holds both. Returns a note for the user if the memory
    /// limit was too small.
    pub fn prepare_table(&mut self) -> Option<String> {
        self.prepare_table_until(None)
    }

    /// [`Engine::prepare_table`] for a move whose clock runs: a new table's pages are
    /// touched only until `deadline` (see [`TranspositionTable::new_touched_until`]).
    pub fn prepare_table_until(&mut self, deadline: Option<Instant>) -> Option<String> {
        let (bytes, note) = self.options.table_bytes();
        let current = self.table.as_ref().map(|t| t.bytes());
        let target = TranspositionTable::new_size(bytes);
        if current != Some(target) {
            self.searcher = None;
            self.table = None;
            self.table = Some(Arc::new(TranspositionTable::new_touched_until(
                bytes, deadline,
            )));
        }
        note
    }

    /// Size of the allocated table in bytes (0 before the first search).
    pub fn table_bytes(&self) -> usize {
        self.table.as_ref().map_or(0, |t| t.bytes())
    }

    /// Forget all search knowledge.
    pub fn clear_hash(&mut self) {
        if let Some(table) = self.table.as_ref() {
            // In place: the pages stay mapped (see `TranspositionTable::new`).
            table.clear();
        }
        if let Some(s) = self.searcher.as_mut() {
            s.clear();
        }
    }

    fn take_searcher(&mut self) -> Box<dyn Searcher> {
        if self.table.is_none() {
            self.prepare_table();
        }
        let threads = self.options.threads;
        match self.searcher.take() {
            Some(s) if self.searcher_threads == threads => s,
            _ => {
                self.searcher_threads = threads;
                let table = Arc::clone(self.table.as_ref().expect("table prepared"));
                Box::new(AlphaBetaSearcher::new(table, threads))
            }
        }
    }

    /// The move the side to move must play, if any: its own five, else a (legal) block
    /// of the opponent's five.
    fn forced_in(a: &NodeAnalysis) -> Option<Pos> {
        if let Some(five) = a.my_five {
            return Some(five);
        }
        let legal = |p: &Pos| a.moves.iter().any(|m| m.pos == *p && m.score != i32::MIN);
        a.their_fives.iter().copied().find(|p| legal(p))
    }

    /// The move the side to move must play, if any: a five of its own, else the block of
    /// the opponent's five.
    pub fn forced_move(position: &Position) -> Option<Pos> {
        Self::forced_in(&movescore::analysis(position))
    }

    /// The instant move for a position: the move scorer's choice
    /// ([`movescore::instant_move`]: a five if there is one, else a block of the opponent's
    /// five, else the best-scored move). None when no square is legal.
    pub fn instant_move(position: &Position) -> Option<Pos> {
        movescore::instant_move(position).map(|m| m.pos)
    }

    /// Start searching `position` (which must have an empty square) on a new thread.
    /// `report` receives progress from the search thread.
    pub fn start_search(
        &mut self,
        position: &Position,
        mut limits: Limits,
        mut report: Box<dyn FnMut(&SearchInfo) + Send>,
    ) -> RunningSearch {
        limits.evaluator = self.options.evaluator;
        limits.ordering = self.options.ordering;
        // The fallback (played when the search fails or does not stop in time) keeps out
        // of the blocked squares (`YXBLOCK`) as the search does, unless all are blocked.
        let scored = movescore::scored_moves(position);
        let fallback = scored
            .iter()
            .find(|m| !limits.blocked.contains(&m.pos))
            .or(scored.first())
            .map(|m| m.pos)
            // No legal square (renju, every empty square forbidden to Black): an empty one.
            .or_else(|| position.board().empty_positions().next())
            .expect("a position with an empty square");
        let best_so_far = Arc::clone(&limits.best_so_far);
        let stop = Arc::new(AtomicBool::new(false));
        let (tx, rx) = bounded(1);
        let mut searcher = self.take_searcher();
        let root = position.clone();
        let thread_stop = Arc::clone(&stop);
        let spawned = thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let outcome = catch_unwind(AssertUnwindSafe(|| {
                    searcher.search(&root, &limits, &thread_stop, &mut *report)
                }))
                .map_err(|panic| panic_message(&*panic));
                let _ = tx.send(SearchDone { outcome, searcher });
            });
        if let Err(e) = spawned {
            log::error!("could not start a search thread: {e}");
        }
        RunningSearch {
            stop,
            done: rx,
            fallback,
            best_so_far,
        }
    }

    /// Take the searcher back after a finished search.
    pub fn finish_search(&mut self, done: SearchDone) -> Result<SearchOutcome, String> {
        self.searcher = Some(done.searcher);
        done.outcome
    }
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "search panicked".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_respects_memory_limit() {
        let mut o = EngineOptions::default();
        assert_eq!(o.table_bytes().0 as u64, DEFAULT_TABLE_CAP);
        o.max_memory = Some(100 << 20);
        assert_eq!(o.table_bytes().0 as u64, (100 << 20) - MEMORY_RESERVE);
        o.hash_kib = Some(4096);
        assert_eq!(o.table_bytes().0, 4 << 20);
        o.max_memory = Some(1_000_000);
        let (bytes, note) = o.table_bytes();
        assert_eq!(bytes, MIN_TABLE_BYTES);
        assert!(note.is_some());
    }

    fn position(diagram: &str, to_move: crate::board::Color, rule: crate::rules::Rule) -> Position {
        Position::from_ascii(diagram, to_move, rule).unwrap()
    }

    #[test]
    fn instant_move_wins_then_blocks() {
        use crate::board::Color;
        use crate::rules::Rule;
        let d = "...........
                 .XXXX......
                 ...........
                 .OOOO......
                 ...........";
        let w = Engine::instant_move(&position(d, Color::White, Rule::Freestyle)).unwrap();
        assert_eq!(w.y(), 3, "White completes its own five");
        let d = "...........
                 .XXXX......
                 ...........
                 .OO........
                 ...........";
        let b = Engine::instant_move(&position(d, Color::White, Rule::Freestyle)).unwrap();
        assert!(
            b == Pos::new(0, 1) || b == Pos::new(5, 1),
            "White blocks: {b}"
        );
    }

    #[test]
    fn search_runs_on_a_thread_and_returns_the_searcher() {
        let mut engine = Engine::new();
        engine.prepare_table();
        let mut p = Position::new(15, 15, crate::rules::Rule::Freestyle).unwrap();
        p.play(Pos::new(7, 7));
        let mut limits = Limits::unbounded();
        limits.max_depth = Some(3);
        let running = engine.start_search(&p, limits, Box::new(|_| {}));
        let done = running.done().recv().unwrap();
        let outcome = engine.finish_search(done).unwrap();
        assert!(p.board().is_empty(outcome.best));
        assert!(engine.searcher.is_some());
    }

    #[test]
    fn the_fallback_move_keeps_out_of_blocked_squares() {
        use crate::board::Color;
        use crate::rules::Rule;
        let d = "...........
                 .XXXX......
                 ...........
                 ...........
                 .OOO.......
                 ...........";
        let p = position(d, Color::Black, Rule::Freestyle);
        let win = Engine::instant_move(&p).unwrap();
        let mut engine = Engine::new();
        engine.prepare_table();
        let mut limits = Limits::unbounded();
        limits.max_depth = Some(2);
        limits.blocked = vec![win];
        let running = engine.start_search(&p, limits, Box::new(|_| {}));
        assert_ne!(
            running.fallback, win,
            "the fallback is not the blocked five"
        );
        assert!(p.board().is_empty(running.fallback));
        let done = running.done().recv().unwrap();
        engine.finish_search(done).unwrap();
    }
}
