//! `tune`: fit Rensa's static-evaluation weights to self-play results (Texel-style).
//!
//! 1. Self-play: Rensa's own search plays games against itself in-process, one thread and
//!    a fixed node count per move (so every run with the same options plays the same
//!    games), from the project's openings under each of their board symmetries, a few
//!    seeded random moves after each opening for variety, over freestyle, standard and renju.
//! 2. Positions: every position of those games after the opening where nothing is forced
//!    (no five to make or block, no open four), labelled with the game's result for the
//!    side to move (1, 1/2, 0), with the pattern counts the evaluation reads.
//! 3. Fit: the scale K of `sigmoid(eval / K)` that best predicts the results with the
//!    current weights, then the weights themselves by gradient descent on the mean squared
//!    error, with every tenth game held out to check that the fit generalises.
//!
//! It prints both errors before and after and the fitted table in the form of
//! `rensa::search::eval::WEIGHTS`. Whether the new table plays better is for a self-play
//! SPRT to say (`bench/sprt.sh`), not the fit.

use clap::Parser;
use rensa::board::{Color, Pos};
use rensa::pattern::{PatternTables, Threat};
use rensa::position::Position;
use rensa::rules::Rule;
use rensa::search::board::SearchBoard;
use rensa::search::eval::{EvalFeatures, EvalWeights, EVAL_LIMIT, PATTERNS, WEIGHTS};
use rensa::search::node::{analyse, NodeAnalysis};
use rensa::search::tt::TranspositionTable;
use rensa::search::AlphaBetaSearcher;
use rensa::search::{Limits, Searcher};
use rensa_bench::openings::{self, Opening};
use rensa_bench::rng::Rng;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

#[derive(Parser, Debug)]
#[command(about = "Fit the static-evaluation weights to self-play results")]
struct Args {
    /// Self-play games to play (split over the rules freestyle, standard, renju).
    #[arg(long, default_value_t = 600)]
    games: usize,
    /// Search nodes per move.
    #[arg(long, default_value_t = 3_000)]
    nodes: u64,
    /// Random moves played after each opening.
    #[arg(long, default_value_t = 2)]
    random_moves: usize,
    /// Seed of those random moves.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads playing games at the same time (the games do not depend on it).
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Gradient-descent steps.
    #[arg(long, default_value_t = 3_000)]
    steps: usize,
    /// Opening file (offset or pos format).
    #[arg(
        long,
        default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/testdata/openings/piskvork-openings.txt")
    )]
    openings: PathBuf,
}

/// One labelled position.
#[derive(Debug)]
struct Sample {
    features: EvalFeatures,
    /// The game's result for the side to move: 1 win, 0.5 draw, 0 loss.
    result: f64,
    /// Held out of the fit.
    held_out: bool,
}

const RULES: [Rule; 3] = [Rule::Freestyle, Rule::Standard, Rule::Renju];
const SIZE: usize = 15;

/// Play game `index` and return its positions (features and the side to move) and the
/// winner (None for a draw).
fn play_game(
    index: usize,
    args: &Args,
    opening_list: &[Opening],
) -> (Vec<(EvalFeatures, Color)>, Option<Color>) {
    let rule = RULES[index % RULES.len()];
    let opening = &opening_list[(index / RULES.len()) % opening_list.len()];
    let symmetry = (index / (RULES.len() * opening_list.len())) % 8;
    let mut rng = Rng::new(args.seed ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut position = Position::new(SIZE, SIZE, rule).expect("15x15 is supported");
    for &(x, y) in &opening.absolute(SIZE, SIZE) {
        let (x, y) = openings::transform(symmetry, (x, y), SIZE, SIZE);
        let pos = Pos::new(x as usize, y as usize);
        if !position.board().is_empty(pos) {
            return (Vec::new(), None);
        }
        position.play(pos);
    }
    // A few random legal moves next to the stones, for variety.
    for _ in 0..args.random_moves {
        let near: Vec<Pos> = rensa::board::geometry::near_stones(position.board(), 1)
            .into_iter()
            .filter(|&p| position.is_legal(p))
            .collect();
        if near.is_empty() {
            break;
        }
        position.play(near[rng.below(near.len())]);
        if position.last_move_won() {
            return (Vec::new(), None);
        }
    }
    let tables = PatternTables::new(rule);
    let tt = Arc::new(TranspositionTable::new(16 << 20));
    let mut searcher = AlphaBetaSearcher::new(tt, 1);
    let stop = AtomicBool::new(false);
    let mut samples = Vec::new();
    let mut analysis = NodeAnalysis::default();
    while position.empty_count() > 0 {
        let me = position.to_move();
        let mut board = SearchBoard::new(position.board().clone(), tables);
        analyse(&mut board, me, rule, &mut analysis);
        let forced = analysis.my_five.is_some()
            || !analysis.their_fives.is_empty()
            || analysis.my_open_four.is_some();
        if !forced && analysis.features.my_best < Threat::Five {
            samples.push((analysis.features, me));
        }
        let limits = Limits {
            max_nodes: Some(args.nodes),
            ..Limits::unbounded()
        };
        let outcome = searcher.search(&position, &limits, &stop, &mut |_| {});
        let mut best = outcome.best;
        if !position.is_legal(best) {
            match position.any_legal_move() {
                Some(p) => best = p,
                None => break,
            }
        }
        position.play(best);
        if position.last_move_won() {
            return (samples, Some(me));
        }
    }
    (samples, None)
}

/// Self-play all games on `args.threads` threads.
fn self_play(args: &Args, opening_list: &[Opening]) -> Vec<Sample> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut games: Vec<(usize, Vec<Sample>)> = Vec::new();
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..args.threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if i >= args.games {
                            break;
                        }
                        let (positions, winner) = play_game(i, args, opening_list);
                        let samples = positions
                            .into_iter()
                            .map(|(features, side)| Sample {
                                features,
                                result: match winner {
                                    None => 0.5,
                                    Some(w) if w == side => 1.0,
                                    Some(_) => 0.0,
                                },
                                held_out: i % 10 == 9,
                            })
                            .collect();
                        out.push((i, samples));
                        if (i + 1).is_multiple_of(50) {
                            eprintln!("played {} games", i + 1);
                        }
                    }
                    out
                })
            })
            .collect();
        for w in workers {
            games.extend(w.join().expect("a self-play thread panicked"));
        }
    });
    // The same order whatever the threads did.
    games.sort_by_key(|(i, _)| *i);
    games.into_iter().flat_map(|(_, s)| s).collect()
}

/// The weights as one parameter vector: mine, theirs, the three bonuses.
const PARAMS: usize = 2 * PATTERNS + 3;

fn to_params(w: &EvalWeights) -> [f64; PARAMS] {
    let mut p = [0.0; PARAMS];
    for i in 0..PATTERNS {
        p[i] = f64::from(w.mine[i]);
        p[PATTERNS + i] = f64::from(w.theirs[i]);
    }
    p[2 * PATTERNS] = f64::from(w.four_three);
    p[2 * PATTERNS + 1] = f64::from(w.double_three);
    p[2 * PATTERNS + 2] = f64::from(w.three);
    p
}

fn to_weights(p: &[f64; PARAMS]) -> EvalWeights {
    let mut w = WEIGHTS;
    for i in 0..PATTERNS {
        w.mine[i] = p[i].round() as i32;
        w.theirs[i] = p[PATTERNS + i].round() as i32;
    }
    w.four_three = p[2 * PATTERNS].round() as i32;
    w.double_three = p[2 * PATTERNS + 1].round() as i32;
    w.three = p[2 * PATTERNS + 2].round() as i32;
    w
}

/// d eval / d parameter for one position (the evaluation is linear in the weights).
fn gradient_of_eval(f: &EvalFeatures) -> [f64; PARAMS] {
    let mut g = [0.0; PARAMS];
    for i in 0..PATTERNS {
        g[i] = f64::from(f.mine[i]) / 10.0;
        g[PATTERNS + i] = -f64::from(f.theirs[i]) / 10.0;
    }
    match f.bonus_threat() {
        Some(Threat::FourThree) => g[2 * PATTERNS] = 1.0,
        Some(Threat::DoubleThree) => g[2 * PATTERNS + 1] = 1.0,
        Some(Threat::Three) => g[2 * PATTERNS + 2] = 1.0,
        _ => {}
    }
    g
}

fn eval_of(p: &[f64; PARAMS], g: &[f64; PARAMS]) -> f64 {
    p.iter().zip(g).map(|(a, b)| a * b).sum()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of `sigmoid(eval / k)` against the results, over the samples
/// selected by `held_out`. The evaluation is clamped as the engine clamps it.
fn error(
    samples: &[Sample],
    grads: &[[f64; PARAMS]],
    p: &[f64; PARAMS],
    k: f64,
    held_out: bool,
) -> f64 {
    let limit = f64::from(EVAL_LIMIT);
    let (mut sum, mut n) = (0.0, 0usize);
    for (s, g) in samples.iter().zip(grads) {
        if s.held_out != held_out {
            continue;
        }
        let e = eval_of(p, g).clamp(-limit, limit);
        let d = s.result - sigmoid(e / k);
        sum += d * d;
        n += 1;
    }
    sum / n.max(1) as f64
}

/// The scale that best fits the current weights (golden-section search on log K).
fn fit_scale(samples: &[Sample], grads: &[[f64; PARAMS]], p: &[f64; PARAMS]) -> f64 {
    let f = |lk: f64| error(samples, grads, p, lk.exp(), false);
    let (mut a, mut b) = (10f64.ln(), 20_000f64.ln());
    let r = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let c = b - r * (b - a);
        let d = a + r * (b - a);
        if f(c) < f(d) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp()
}

fn main() {
    let args = Args::parse();
    let (opening_list, bad) = match openings::read_file(&args.openings, None) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("tune: {e}");
            std::process::exit(2);
        }
    };
    if opening_list.is_empty() {
        eprintln!(
            "tune: no openings in {} ({} bad lines)",
            args.openings.display(),
            bad.len()
        );
        std::process::exit(2);
    }
    let t0 = std::time::Instant::now();
    let samples = self_play(&args, &opening_list);
    let held = samples.iter().filter(|s| s.held_out).count();
    println!(
        "{} games, {} positions ({} held out), {:.1} s",
        args.games,
        samples.len(),
        held,
        t0.elapsed().as_secs_f64()
    );
    let grads: Vec<[f64; PARAMS]> = samples
        .iter()
        .map(|s| gradient_of_eval(&s.features))
        .collect();
    let start = to_params(&WEIGHTS);
    // The fit's floating-point evaluation must be the engine's (which rounds each side's sum
    // down to whole points, so the two differ by less than 2).
    for (sample, g) in samples.iter().zip(&grads) {
        let engine = WEIGHTS.raw(&sample.features) as f64;
        assert!(
            (eval_of(&start, g) - engine).abs() < 2.0,
            "the fit's evaluation strays from the engine's: {sample:?}"
        );
    }
    let k = fit_scale(&samples, &grads, &start);
    let before = (
        error(&samples, &grads, &start, k, false),
        error(&samples, &grads, &start, k, true),
    );
    println!("scale K = {k:.1}");
    println!(
        "current weights: fit error {:.6}, held-out error {:.6}",
        before.0, before.1
    );

    // Adam on the mean squared error; the five's and the dead pattern's weights stay (a five
    // is never evaluated, a dead line is worth nothing by definition).
    let frozen =
        |i: usize| i < 2 * PATTERNS && (i.is_multiple_of(PATTERNS) || i % PATTERNS == PATTERNS - 1);
    let mut p = start;
    let (mut m, mut v) = ([0.0; PARAMS], [0.0; PARAMS]);
    let (b1, b2, rate) = (0.9, 0.999, 2.0);
    let limit = f64::from(EVAL_LIMIT);
    let fit: Vec<usize> = (0..samples.len())
        .filter(|&i| !samples[i].held_out)
        .collect();
    for step in 1..=args.steps {
        let mut grad = [0.0; PARAMS];
        for &i in &fit {
            let g = &grads[i];
            let e = eval_of(&p, g);
            if e.abs() >= limit {
                continue; // clamped: no gradient
            }
            let s = sigmoid(e / k);
            let d = -2.0 * (samples[i].result - s) * s * (1.0 - s) / k;
            for j in 0..PARAMS {
                grad[j] += d * g[j];
            }
        }
        for j in 0..PARAMS {
            if frozen(j) {
                continue;
            }
            let gj = grad[j] / fit.len() as f64;
            m[j] = b1 * m[j] + (1.0 - b1) * gj;
            v[j] = b2 * v[j] + (1.0 - b2) * gj * gj;
            let mh = m[j] / (1.0 - b1.powi(step as i32));
            let vh = v[j] / (1.0 - b2.powi(step as i32));
            p[j] = (p[j] - rate * mh / (vh.sqrt() + 1e-12)).max(0.0);
        }
        if step % 500 == 0 {
            eprintln!(
                "step {step}: fit error {:.6}",
                error(&samples, &grads, &p, k, false)
            );
        }
    }
    let tuned = to_weights(&p);
    let rounded = to_params(&tuned);
    println!(
        "fitted weights: fit error {:.6}, held-out error {:.6}",
        error(&samples, &grads, &rounded, k, false),
        error(&samples, &grads, &rounded, k, true)
    );
    println!("pub const WEIGHTS: EvalWeights = EvalWeights {{");
    println!("    mine: {:?},", tuned.mine);
    println!("    theirs: {:?},", tuned.theirs);
    println!("    four_three: {},", tuned.four_three);
    println!("    double_three: {},", tuned.double_three);
    println!("    three: {},", tuned.three);
    println!("}};");
}
