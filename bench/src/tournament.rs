//! Tournament scheduling and execution: pairings (head to head, gauntlet, round robin),
//! colour-swapped opening pairs, parallel workers, result collection, records, and the
//! SPRT stop.

use crate::config::default_name;
use crate::game::{play_game, GameRecord, GameSetup, Seats, Table};
use crate::journal;
use crate::openings::OpeningBook;
use crate::records::Sinks;
use crate::report::Reporter;
use crate::stats::{elo_pentanomial, elo_trinomial, los, EloEstimate, Sprt, SprtState, Wld};
use rensa::board::Color;
use rensa::client::conversation::spawn_engine;
use rensa::client::process::IoLog;
use rensa::client::spec::EngineSpec;
use rensa::client::sys;
use rensa::records::Termination;
use rensa::rules::Rule;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How the engines are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Every engine against every other (two engines: head to head).
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// Everything a match needs.
#[derive(Clone)]
pub struct MatchConfig {
    /// The engines.
    pub engines: Vec<EngineSpec>,
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// Rule.
    pub rule: Rule,
    /// Games per encounter and round.
    pub games: usize,
    /// Rounds.
    pub rounds: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// Pairing scheme.
    pub schedule: Schedule,
    /// Openings (None: every game starts on an empty board).
    pub openings: Option<OpeningBook>,
    /// Play each opening twice with colours swapped.
    pub repeat: bool,
    /// Sequential test (two engines only).
    pub sprt: Option<Sprt>,
    /// Use the pentanomial (game pair) form of the SPRT.
    pub pentanomial: bool,
    /// Draw once this many stones are on the board.
    pub draw_after: Option<usize>,
    /// GomocupJudge mode.
    pub judge: bool,
    /// `BOARD` before every move instead of `TURN`.
    pub send_by_board: bool,
    /// Directory for `.psq` records.
    pub psq_dir: Option<PathBuf>,
    /// SGF collection file.
    pub sgf: Option<PathBuf>,
    /// File for engine `MESSAGE` lines.
    pub msg: Option<PathBuf>,
    /// File for the engine I/O log.
    pub log: Option<PathBuf>,
    /// The journal of finished games (see [`crate::journal`]), if kept.
    pub journal: Option<PathBuf>,
    /// Resume the match the journal records: its games count, the others are played.
    pub resume: bool,
    /// The seed of the openings' order (recorded in the journal's fingerprint).
    pub opening_seed: Option<u64>,
}

impl MatchConfig {
    /// A configuration with the defaults of the command line (15x15 freestyle, 2 games,
    /// one round, one game at a time, colour-swapped repeats).
    pub fn new(engines: Vec<EngineSpec>) -> MatchConfig {
        MatchConfig {
            engines,
            width: 15,
            height: 15,
            rule: Rule::Freestyle,
            games: 2,
            rounds: 1,
            concurrency: 1,
            schedule: Schedule::RoundRobin,
            openings: None,
            repeat: true,
            sprt: None,
            pentanomial: false,
            draw_after: None,
            judge: false,
            send_by_board: false,
            psq_dir: None,
            sgf: None,
            msg: None,
            log: None,
            journal: None,
            resume: false,
            opening_seed: None,
        }
    }

    /// The encounters `(a, b)`, `a` being the side whose results are reported.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let n = self.engines.len();
        match self.schedule {
            Schedule::Gauntlet => (1..n).map(|i| (0, i)).collect(),
            Schedule::RoundRobin => (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .collect(),
        }
    }

    /// Check the configuration.
    pub fn validate(&self) -> Result<(), String> {
        if self.engines.len() < 2 {
            return Err("at least two engines are needed".into());
        }
        if self.sprt.is_some() && self.engines.len() != 2 {
            return Err("--sprt needs exactly two engines".into());
        }
        if let Some(s) = &self.sprt {
            s.validate()?;
        }
        if self.pentanomial && !self.repeat {
            return Err("--pentanomial needs colour-swapped pairs (do not use --no-repeat)".into());
        }
        if self.games == 0 || self.rounds == 0 || self.concurrency == 0 {
            return Err("--games, --rounds and --concurrency must be at least 1".into());
        }
        if self.judge && !sys::supports_judge_mode() {
            return Err("--gomocupjudge needs Linux (SIGSTOP/SIGCONT and /proc)".into());
        }
        if let Some(book) = &self.openings {
            if book.is_empty() {
                return Err("no opening fits the board".into());
            }
        }
        Ok(())
    }

    /// The full schedule, in play order.
    pub fn schedule_games(&self) -> Vec<GameSetup> {
        let mut out = Vec::new();
        let pairings = self.pairings();
        let per_pairing = self.games * self.rounds;
        for round in 0..self.rounds {
            for (p, &(a, b)) in pairings.iter().enumerate() {
                for g in 0..self.games {
                    let k = round * self.games + g;
                    let unit = if self.repeat { k / 2 } else { k };
                    let a_black = k.is_multiple_of(2);
                    let complete_pair = self.repeat && (k / 2) * 2 + 1 < per_pairing;
                    out.push(GameSetup {
                        id: out.len() + 1,
                        round: round + 1,
                        pairing: p,
                        pair: complete_pair.then_some(p * per_pairing + k / 2),
                        black: if a_black { a } else { b },
                        white: if a_black { b } else { a },
                        opening: self.openings.as_ref().and_then(|o| o.get(unit)),
                    });
                }
            }
        }
        out
    }
}

/// Names for the engines: `name=`, else the ABOUT name (asked from a short-lived process),
/// else the program's file name; duplicates get `-2`, `-3`... appended.
pub fn resolve_names(engines: &[EngineSpec]) -> Vec<String> {
    let mut names: Vec<String> = engines
        .iter()
        .map(|e| {
            if let Some(n) = &e.name {
                return n.clone();
            }
            let about = spawn_engine(e, "about", None, false, true)
                .ok()
                .and_then(|(eng, name)| {
                    eng.quit(Duration::from_millis(500));
                    name
                });
            match about {
                Some(n) if !n.trim().is_empty() => n.trim().to_string(),
                _ => default_name(e),
            }
        })
        .collect();
    for i in 0..names.len() {
        let dups = names[..i].iter().filter(|n| **n == names[i]).count();
        if dups > 0 {
            let base = names[i].clone();
            let mut k = dups + 1;
            while names.contains(&format!("{base}-{k}")) {
                k += 1;
            }
            names[i] = format!("{base}-{k}");
        }
    }
    names
}

/// Results of one encounter, from the first engine's point of view.
#[derive(Clone, Debug, Default)]
pub struct PairingStats {
    /// First engine.
    pub a: usize,
    /// Second engine.
    pub b: usize,
    /// Wins, losses, draws of `a`.
    pub wld: Wld,
    /// Results of `a` playing Black.
    pub a_black: Wld,
    /// Results of `a` playing White.
    pub a_white: Wld,
    /// Games by termination.
    pub terminations: BTreeMap<Termination, u64>,
    /// Colour-swapped pairs by `a`'s points (0, ½, 1, 1½, 2).
    pub penta: [u64; 5],
    half_pairs: HashMap<usize, u8>,
}

impl PairingStats {
    fn add(&mut self, g: &GameRecord) {
        let a_color = if g.setup.black == self.a {
            Color::Black
        } else {
            Color::White
        };
        let (w, l, d) = match g.winner {
            Some(c) if c == a_color => (1, 0, 0),
            Some(_) => (0, 1, 0),
            None => (0, 0, 1),
        };
        let r = Wld { w, l, d };
        self.wld.add(&r);
        if a_color == Color::Black {
            self.a_black.add(&r);
        } else {
            self.a_white.add(&r);
        }
        *self.terminations.entry(g.termination).or_default() += 1;
        if let Some(p) = g.setup.pair {
            let half_points = (2 * w + d) as u8;
            match self.half_pairs.remove(&p) {
                Some(other) => self.penta[usize::from(other + half_points)] += 1,
                None => {
                    self.half_pairs.insert(p, half_points);
                }
            }
        }
    }

    /// Elo of `a` (trinomial).
    pub fn elo(&self) -> Option<EloEstimate> {
        elo_trinomial(&self.wld)
    }

    /// Elo of `a` from complete pairs (pentanomial).
    pub fn elo_pairs(&self) -> Option<EloEstimate> {
        elo_pentanomial(&self.penta)
    }

    /// Likelihood that `a` is stronger.
    pub fn los(&self) -> f64 {
        los(&self.wld)
    }
}

/// One engine's figures over the whole match.
#[derive(Clone, Debug, Default)]
pub struct EngineStats {
    /// Games played.
    pub games: u64,
    /// Wins, losses, draws against everyone.
    pub wld: Wld,
    /// Moves answered.
    pub moves: u64,
    /// Thinking time, ms.
    pub total_ms: u64,
    /// Longest move, ms.
    pub max_move_ms: u64,
    /// Largest overrun of the per-move limit, ms.
    pub max_turn_overrun_ms: Option<i64>,
    /// Largest overrun of the match clock, ms.
    pub max_match_overrun_ms: Option<i64>,
    /// Largest resident memory seen, bytes.
    pub peak_rss: Option<u64>,
    /// Losses by termination (forfeits and fives).
    pub losses: BTreeMap<Termination, u64>,
    /// Process restarts after a forfeit.
    pub restarts: u64,
}

fn max_opt<T: Ord + Copy>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, y) => x.or(y),
    }
}

/// The state of the SPRT at the end (or now).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtStatus {
    /// The test.
    pub sprt: Sprt,
    /// Pentanomial form used.
    pub pentanomial: bool,
    /// Log-likelihood ratio.
    pub llr: f64,
    /// Decision.
    pub state: SprtState,
}

/// Everything known about a match, updated as games finish.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Engine names.
    pub names: Vec<String>,
    /// Per encounter.
    pub pairings: Vec<PairingStats>,
    /// Per engine.
    pub engines: Vec<EngineStats>,
    /// Games finished.
    pub played: usize,
    /// Games scheduled.
    pub total: usize,
    /// Openings skipped because they do not fit: (line, text, reason).
    pub skipped_openings: Vec<(usize, String, String)>,
    /// SPRT state, if a test runs.
    pub sprt: Option<SprtStatus>,
    /// Runner overhead summed over all games.
    pub overhead: Duration,
    /// Moves the overhead was measured over.
    pub overhead_moves: u64,
    /// The part of the overhead spent waiting for the OS to wake the game loop after a
    /// reply arrived (see [`GameRecord::pickup`]).
    pub pickup: Duration,
    /// Longest runner overhead of a single game divided by its moves (µs per move).
    pub worst_game_overhead_us: f64,
    /// Wall-clock time since the start.
    pub elapsed: Duration,
    /// All finished games, in finishing order.
    pub games: Vec<GameRecord>,
    /// Records could not be written (first error).
    pub record_error: Option<String>,
}

impl Summary {
    fn new(config: &MatchConfig, names: Vec<String>, total: usize) -> Summary {
        Summary {
            engines: vec![EngineStats::default(); names.len()],
            names,
            pairings: config
                .pairings()
                .into_iter()
                .map(|(a, b)| PairingStats {
                    a,
                    b,
                    ..Default::default()
                })
                .collect(),
            played: 0,
            total,
            skipped_openings: config
                .openings
                .as_ref()
                .map(|o| o.skipped.clone())
                .unwrap_or_default(),
            sprt: config.sprt.map(|s| SprtStatus {
                sprt: s,
                pentanomial: config.pentanomial,
                llr: 0.0,
                state: SprtState::Continue,
            }),
            overhead: Duration::ZERO,
            overhead_moves: 0,
            pickup: Duration::ZERO,
            worst_game_overhead_us: 0.0,
            elapsed: Duration::ZERO,
            games: Vec::new(),
            record_error: None,
        }
    }

    fn add(&mut self, g: GameRecord) {
        self.played += 1;
        self.pairings[g.setup.pairing].add(&g);
        for (side, &e) in [g.setup.black, g.setup.white].iter().enumerate() {
            let s = &g.sides[side];
            let es = &mut self.engines[e];
            let color = Color::BOTH[side];
            es.games += 1;
            es.wld.add(&match g.winner {
                Some(c) if c == color => Wld { w: 1, l: 0, d: 0 },
                Some(_) => Wld { w: 0, l: 1, d: 0 },
                None => Wld { w: 0, l: 0, d: 1 },
            });
            if g.winner == Some(color.opponent()) {
                *es.losses.entry(g.termination).or_default() += 1;
            }
            es.moves += u64::from(s.moves);
            es.total_ms += s.total_ms;
            es.max_move_ms = es.max_move_ms.max(s.max_move_ms);
            es.max_turn_overrun_ms = max_opt(es.max_turn_overrun_ms, s.max_turn_overrun_ms);
            es.max_match_overrun_ms = max_opt(es.max_match_overrun_ms, s.max_match_overrun_ms);
            es.peak_rss = max_opt(es.peak_rss, s.peak_rss);
            if g.restarted[side] {
                es.restarts += 1;
            }
        }
        self.overhead += g.overhead;
        self.pickup += g.pickup;
        self.overhead_moves += u64::from(g.overhead_moves);
        if g.overhead_moves > 0 {
            let us = g.overhead.as_secs_f64() * 1e6 / f64::from(g.overhead_moves);
            self.worst_game_overhead_us = self.worst_game_overhead_us.max(us);
        }
        // Once decided, the test is frozen: games that were already finishing when the
        // match stopped are counted in the tables but do not reopen the decision.
        if let Some(st) = self
            .sprt
            .as_mut()
            .filter(|s| s.state == SprtState::Continue)
        {
            let p = &self.pairings[0];
            let units = if st.pentanomial {
                st.llr = st.sprt.llr_pentanomial(&p.penta);
                p.penta.iter().sum()
            } else {
                st.llr = st.sprt.llr_trinomial(&p.wld);
                p.wld.w + p.wld.l + p.wld.d
            };
            st.state = st.sprt.decide(st.llr, units);
        }
        self.games.push(g);
    }

    /// Mean runner overhead per move in microseconds.
    pub fn overhead_per_move_us(&self) -> f64 {
        if self.overhead_moves == 0 {
            0.0
        } else {
            self.overhead.as_secs_f64() * 1e6 / self.overhead_moves as f64
        }
    }

    /// Mean wake-up delay per move in microseconds (part of the overhead).
    pub fn pickup_per_move_us(&self) -> f64 {
        if self.overhead_moves == 0 {
            0.0
        } else {
            self.pickup.as_secs_f64() * 1e6 / self.overhead_moves as f64
        }
    }

    /// Counts by termination over all games.
    pub fn terminations(&self) -> BTreeMap<Termination, u64> {
        let mut m = BTreeMap::new();
        for p in &self.pairings {
            for (t, n) in &p.terminations {
                *m.entry(*t).or_default() += n;
            }
        }
        m
    }
}

/// Run a match with engine names already resolved. Returns the summary; `reporter`
/// shows progress and finished games.
pub fn run(
    config: &MatchConfig,
    names: Vec<String>,
    reporter: &mut Reporter,
) -> Result<Summary, String> {
    config.validate()?;
    let start = Instant::now();
    let schedule = config.schedule_games();
    let mut summary = Summary::new(config, names.clone(), schedule.len());
    // The journal: a resumed match counts its games again and plays only the others.
    let mut done = std::collections::HashSet::new();
    let mut journal = match &config.journal {
        None => None,
        Some(path) => {
            let fingerprint = journal::fingerprint(config, config.opening_seed);
            if config.resume {
                let (header, games) = journal::read(path, &schedule, config)?;
                if header != fingerprint {
                    return Err(format!(
                        "cannot resume: {} records another match\n  journal: {header}\n  now:     {fingerprint}",
                        path.display()
                    ));
                }
                for g in games {
                    done.insert(g.setup.id);
                    summary.add(g);
                }
                Some(journal::Journal::reopen(path)?)
            } else {
                Some(journal::Journal::create(path, &fingerprint)?)
            }
        }
    };
    let mut sinks = Sinks::open(
        config.psq_dir.as_deref(),
        config.sgf.as_deref(),
        config.msg.as_deref(),
        config.resume,
    )?;
    let log = match &config.log {
        Some(p) => Some(Arc::new(
            IoLog::create(p).map_err(|e| format!("{}: {e}", p.display()))?,
        )),
        None => None,
    };
    reporter.start(config, &summary);
    if !done.is_empty() {
        println!(
            "resumed: {} games from the journal, {} to play",
            done.len(),
            schedule.len() - done.len()
        );
    }
    let decided = summary
        .sprt
        .as_ref()
        .is_some_and(|s| s.state != SprtState::Continue);

    let (job_tx, job_rx) = crossbeam_channel::unbounded::<GameSetup>();
    for g in schedule.into_iter().filter(|g| !done.contains(&g.id)) {
        if decided {
            break;
        }
        job_tx.send(g).expect("receiver alive");
    }
    drop(job_tx);
    let (res_tx, res_rx) = crossbeam_channel::unbounded::<GameRecord>();
    let stop = Arc::new(AtomicBool::new(false));
    let workers = config.concurrency.min(summary.total.max(1));
    let shared_names = Arc::new(names);
    let shared_config = Arc::new(config.clone());
    let mut handles = Vec::new();
    for w in 0..workers {
        let jobs = job_rx.clone();
        let results = res_tx.clone();
        let stop = Arc::clone(&stop);
        let names = Arc::clone(&shared_names);
        let cfg = Arc::clone(&shared_config);
        let log = log.clone();
        handles.push(
            std::thread::Builder::new()
                .name(format!("worker-{w}"))
                .spawn(move || {
                    let table = Table {
                        width: cfg.width,
                        height: cfg.height,
                        rule: cfg.rule,
                        engines: &cfg.engines,
                        names: &names,
                        judge: cfg.judge,
                        send_by_board: cfg.send_by_board,
                        draw_after: cfg.draw_after,
                        stop: &stop,
                        log,
                        keep_messages: cfg.msg.is_some(),
                        worker: w + 1,
                    };
                    let mut seats = Seats::new(cfg.engines.len());
                    let grace = Duration::from_secs(1);
                    while let Ok(job) = jobs.recv() {
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        seats.release_except(&[job.black, job.white], grace);
                        match play_game(&table, &job, &mut seats) {
                            Some(rec) => {
                                if results.send(rec).is_err() {
                                    break;
                                }
                            }
                            None => break,
                        }
                    }
                    seats.shutdown(grace);
                })
                .map_err(|e| e.to_string())?,
        );
    }
    drop(res_tx);

    loop {
        match res_rx.recv_timeout(Duration::from_millis(500)) {
            Ok(rec) => {
                if let Err(e) = sinks.write(&rec) {
                    summary.record_error.get_or_insert_with(|| e.to_string());
                }
                if let Some(j) = journal.as_mut() {
                    if let Err(e) = j.add(&rec) {
                        summary.record_error.get_or_insert_with(|| e.to_string());
                    }
                }
                reporter.game_finished(&rec);
                summary.add(rec);
                summary.elapsed = start.elapsed();
                if let Some(st) = &summary.sprt {
                    if st.state != SprtState::Continue {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                reporter.progress(&summary);
            }
            Err(crossbeam_channel::RecvTimeoutError::Timeout) => {
                summary.elapsed = start.elapsed();
                reporter.tick(&summary);
            }
            Err(crossbeam_channel::RecvTimeoutError::Disconnected) => break,
        }
    }
    for h in handles {
        let _ = h.join();
    }
    if let Some(l) = &log {
        l.flush();
    }
    summary.elapsed = start.elapsed();
    reporter.finish(&summary);
    Ok(summary)
}
