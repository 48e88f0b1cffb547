//! `train`: fit the learned evaluation's weights (`rensa::search::learned`) to self-play
//! data made by `selfplay`, one weight file per rule family.
//!
//! 1. Positions: every searched position of every game (the opening's are skipped), except
//!    the forced ones the static evaluation never judges (a five to make or to stop, an open
//!    four to make) and those the search already scored as won or lost. One game in ten (by
//!    a hash of its index) is the validation set: the split is by game, so that no position
//!    of a validation game is fitted.
//! 2. Target: `lambda * result + (1 - lambda) * sigmoid(search score / K)`, where `K` is the
//!    scale that best fits the classic evaluation to the results (search scores are in its
//!    units). The classic evaluation's validation loss with that scale is printed first.
//! 3. Fit: a logistic regression of the target on the code counts and the threat class
//!    (cross-entropy, minibatch Adam, a little L2), printing both losses every epoch; the
//!    weights are written in evaluation points (the logit times `K`), so that a point means
//!    what it means to the classic evaluation and to the search's margins.

use clap::Parser;
use rensa::board::{Cell, Color, Pos};
use rensa::pattern::PatternTables;
use rensa::search::board::SearchBoard;
use rensa::search::learned::{
    code, LearnedFeatures, LearnedWeights, WeightFamily, CODES, FORBIDDEN, MOVE_SCORE_UNITS,
    THREAT_CLASSES,
};
use rensa::search::net::{NetWeights, ACC_ONE, ACT_ONE, HIDDEN, NET_INPUTS, OUT_SCALE};
use rensa::search::node::{
    analyse, learned_features, locality_class, NodeAnalysis, LOCALITY_CLASSES,
    ORDERING_POINTS_PER_LOGIT,
};
use rensa::search::score::is_decisive;
use rensa_bench::rng::Rng;
use rensa_bench::selfplay::{self, GameRecord, NO_SCORE};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Parser, Debug)]
#[command(about = "Fit the learned evaluation's weights to self-play data")]
struct Args {
    /// Data files made by `selfplay`.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// Folder the weight files are written to (`<family>.rnw`).
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/../src/search/weights"))]
    out_dir: PathBuf,
    /// Rule families to fit (default: all three).
    #[arg(long, value_delimiter = ',')]
    families: Vec<String>,
    /// Passes over the fitted positions.
    #[arg(long, default_value_t = 30)]
    epochs: usize,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 2048)]
    batch: usize,
    /// Adam's first step size (in logits; it falls linearly to a tenth of this). 0.002:
    /// at 0.01 the fitted loss jumped from epoch to epoch (freestyle validation 0.6476 at
    /// the end); at 0.002 it falls steadily (0.6460 on the same data).
    #[arg(long, default_value_t = 0.002)]
    rate: f64,
    /// Adam's first step size for the move scores.
    #[arg(long, default_value_t = 0.05)]
    move_rate: f64,
    /// Weight of the game result in the target (the rest is the search score).
    #[arg(long, default_value_t = 0.5)]
    lambda: f64,
    /// L2 penalty per weight.
    #[arg(long, default_value_t = 1e-6)]
    l2: f64,
    /// Seed of the minibatch order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Fit a network (`<family>.rnn`, see `rensa::search::net`) on top of fixed tables
    /// instead of the tables: the tables are read from `--tables` and copied beside it,
    /// so that `--out-dir` is a complete weights folder for `INFO weights`.
    #[arg(long)]
    net: bool,
    /// The tables a network is fitted on top of (default: the committed ones).
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/../src/search/weights"))]
    tables: PathBuf,
    /// Passes over the fitted positions for the network.
    #[arg(long, default_value_t = 8)]
    net_epochs: usize,
    /// Adam's first step size for the network.
    #[arg(long, default_value_t = 0.001)]
    net_rate: f64,
}

/// Minibatch Adam over a sparse gradient: only the weights a batch touched move (the
/// others have no gradient but the L2 penalty, negligible at this size).
struct SparseAdam {
    w: Vec<f64>,
    m: Vec<f64>,
    v: Vec<f64>,
    grad: Vec<f64>,
    touched: Vec<usize>,
    steps: i32,
}

impl SparseAdam {
    const B1: f64 = 0.9;
    const B2: f64 = 0.999;

    fn new(n: usize) -> SparseAdam {
        SparseAdam {
            w: vec![0.0; n],
            m: vec![0.0; n],
            v: vec![0.0; n],
            grad: vec![0.0; n],
            touched: Vec::new(),
            steps: 0,
        }
    }

    /// Add `g` to weight `f`'s gradient in the current batch.
    fn add(&mut self, f: usize, g: f64) {
        if self.grad[f] == 0.0 {
            self.touched.push(f);
        }
        self.grad[f] += g;
    }

    /// One step with the batch's mean gradient (`scale` = 1 / batch size) at step size
    /// `rate`, and clear the batch.
    fn step(&mut self, rate: f64, scale: f64, l2: f64) {
        self.steps += 1;
        let (b1, b2) = (Self::B1, Self::B2);
        let (c1, c2) = (1.0 - b1.powi(self.steps), 1.0 - b2.powi(self.steps));
        for &f in &self.touched {
            let g = self.grad[f] * scale + l2 * self.w[f];
            self.m[f] = b1 * self.m[f] + (1.0 - b1) * g;
            self.v[f] = b2 * self.v[f] + (1.0 - b2) * g * g;
            self.w[f] -= rate * (self.m[f] / c1) / ((self.v[f] / c2).sqrt() + 1e-10);
            self.grad[f] = 0.0;
        }
        self.touched.clear();
    }
}

/// The step size of `epoch` (from 1): falling linearly from `first` to a tenth of it over
/// the run, so that the last epochs settle instead of wandering with the minibatch noise.
fn epoch_rate(first: f64, epoch: usize, epochs: usize) -> f64 {
    first * (1.0 - 0.9 * (epoch - 1) as f64 / epochs.max(1) as f64)
}

/// Feature indices: the side to move's codes, then the opponent's, then the threat class.
const FEATURES: usize = 2 * CODES + THREAT_CLASSES;

/// One position: its sparse features (index, count; the opponent's counted negative), the
/// result for the side to move, the search score and the classic evaluation.
struct Sample {
    features: Vec<(u16, i16)>,
    /// The legal candidate moves' codes (for the side to move, for the opponent) and
    /// their classic ordering scores; the played move first.
    moves: Vec<(u16, u16, i32)>,
    /// Each candidate's [`locality_class`] to the opponent's last move and to our own
    /// last move (same order as `moves`).
    near: Vec<(u8, u8)>,
    result: f64,
    score: i32,
    classic: i32,
    validation: bool,
}

/// The positions of one game.
fn samples_of(game: &GameRecord, out: &mut Vec<Sample>) {
    let rule = game.rule;
    let tables = PatternTables::new(rule);
    let Ok(empty) = rensa::board::Board::new(usize::from(game.width), usize::from(game.height))
    else {
        return;
    };
    let mut board = SearchBoard::new(empty, tables);
    let mut analysis = NodeAnalysis::default();
    for (k, &(pos, score)) in game.moves.iter().enumerate() {
        let me = if k % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        if score != NO_SCORE && !is_decisive(i32::from(score)) {
            analyse(&mut board, me, rule, &mut analysis);
            let forced = analysis.my_five.is_some()
                || !analysis.their_fives.is_empty()
                || analysis.my_open_four.is_some();
            if !forced {
                let f = learned_features(&board, me, &analysis);
                let codes = |m: &rensa::search::node::Candidate| {
                    let c = |color| {
                        if color == Color::Black && analysis.fouls.contains(&m.pos) {
                            FORBIDDEN
                        } else {
                            code(&board.patterns(m.pos, color))
                        }
                    };
                    (c(me), c(me.opponent()), m.score)
                };
                let legal = analysis.moves.iter().filter(|m| m.score != i32::MIN);
                let mut moves: Vec<(u16, u16, i32)> = Vec::new();
                let mut near: Vec<(u8, u8)> = Vec::new();
                let earlier = |back: usize| k.checked_sub(back).map(|i| game.moves[i].0);
                let (their_last, my_last) = (earlier(1), earlier(2));
                let dist = |a: Pos| {
                    (
                        locality_class(a, their_last) as u8,
                        locality_class(a, my_last) as u8,
                    )
                };
                if let Some(played) = legal.clone().find(|m| m.pos == pos) {
                    moves.push(codes(played));
                    near.push(dist(played.pos));
                    for m in legal.filter(|m| m.pos != pos) {
                        moves.push(codes(m));
                        near.push(dist(m.pos));
                    }
                }
                let mut features: Vec<(u16, i16)> =
                    Vec::with_capacity(f.mine.len() + f.theirs.len() + 1);
                features.extend(f.mine.iter().map(|&(c, n)| (c, n as i16)));
                features.extend(
                    f.theirs
                        .iter()
                        .map(|&(c, n)| (CODES as u16 + c, -(n as i16))),
                );
                features.push(((2 * CODES) as u16 + f.threat_class, 1));
                features.push(((2 * CODES) as u16 + f.threat_mix, 1));
                out.push(Sample {
                    features,
                    moves,
                    near,
                    result: game.result_for_mover(k),
                    score: i32::from(score),
                    classic: analysis.eval,
                    validation: is_validation(game.index),
                });
            }
        }
        if !board.is_empty(pos) {
            return; // a damaged record: keep what came before
        }
        board.place(pos, Cell::Stone(me));
    }
}

/// Is game `index` in the validation set? One game in ten, chosen by a hash of the index
/// (not by the index itself, which cycles through the rules and opening kinds).
fn is_validation(index: u32) -> bool {
    let mut z = u64::from(index).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) % 10 == 0
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of predicting `p` for target `t` (clamped away from 0 and 1).
fn cross_entropy(t: f64, p: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// Mean cross-entropy of the classic evaluation at scale `k` against the results.
fn classic_result_loss(samples: &[Sample], k: f64) -> f64 {
    let fit: Vec<&Sample> = samples.iter().filter(|s| !s.validation).collect();
    fit.iter()
        .map(|s| cross_entropy(s.result, sigmoid(f64::from(s.classic) / k)))
        .sum::<f64>()
        / fit.len().max(1) as f64
}

/// The scale that best fits the classic evaluation to the results (golden section on
/// log K).
fn fit_scale(samples: &[Sample]) -> f64 {
    let (mut a, mut b) = (10f64.ln(), 50_000f64.ln());
    let r = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let c = b - r * (b - a);
        let d = a + r * (b - a);
        if classic_result_loss(samples, c.exp()) < classic_result_loss(samples, d.exp()) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp()
}

fn target(s: &Sample, k: f64, lambda: f64) -> f64 {
    lambda * s.result + (1.0 - lambda) * sigmoid(f64::from(s.score) / k)
}

fn logit(w: &[f64], s: &Sample) -> f64 {
    s.features
        .iter()
        .map(|&(i, n)| w[usize::from(i)] * f64::from(n))
        .sum()
}

/// Mean loss over the validation (or the fitted) positions of the model `predict`.
fn mean_loss(
    samples: &[Sample],
    validation: bool,
    k: f64,
    lambda: f64,
    predict: impl Fn(&Sample) -> f64,
) -> f64 {
    let (mut sum, mut n) = (0.0, 0usize);
    for s in samples.iter().filter(|s| s.validation == validation) {
        sum += cross_entropy(target(s, k, lambda), predict(s));
        n += 1;
    }
    sum / n.max(1) as f64
}

fn fit_family(
    args: &Args,
    family: WeightFamily,
    samples: &[Sample],
    data_hash: u64,
) -> LearnedWeights {
    let fitted: Vec<usize> = (0..samples.len())
        .filter(|&i| !samples[i].validation)
        .collect();
    let validation = samples.len() - fitted.len();
    println!(
        "{}: {} positions ({} fitted, {} validation)",
        family.name(),
        samples.len(),
        fitted.len(),
        validation
    );
    if fitted.is_empty() || validation == 0 {
        eprintln!("train: no data for {}", family.name());
        std::process::exit(2);
    }
    let k = fit_scale(samples);
    let classic = |s: &Sample| sigmoid(f64::from(s.classic) / k);
    println!(
        "{}: scale K = {k:.1}; classic evaluation: fit loss {:.6}, validation loss {:.6}",
        family.name(),
        mean_loss(samples, false, k, args.lambda, classic),
        mean_loss(samples, true, k, args.lambda, classic)
    );
    let mut adam = SparseAdam::new(FEATURES);
    let mut order = fitted.clone();
    let mut rng = Rng::new(args.seed);
    for epoch in 1..=args.epochs {
        let rate = epoch_rate(args.rate, epoch, args.epochs);
        rng.shuffle(&mut order);
        for batch in order.chunks(args.batch.max(1)) {
            for &i in batch {
                let s = &samples[i];
                let d = sigmoid(logit(&adam.w, s)) - target(s, k, args.lambda);
                for &(f, n) in &s.features {
                    adam.add(usize::from(f), d * f64::from(n));
                }
            }
            adam.step(rate, 1.0 / batch.len() as f64, args.l2);
        }
        let w = &adam.w;
        let model = |s: &Sample| sigmoid(logit(w, s));
        println!(
            "{} epoch {epoch}: fit loss {:.6}, validation loss {:.6}",
            family.name(),
            mean_loss(samples, false, k, args.lambda, model),
            mean_loss(samples, true, k, args.lambda, model)
        );
    }
    // In evaluation points, rounded as the engine holds them; the validation loss of the
    // rounded table is the one the engine plays with.
    let w = &adam.w;
    let points = |range: std::ops::Range<usize>| -> Vec<i32> {
        w[range].iter().map(|x| (x * k).round() as i32).collect()
    };
    let weights = LearnedWeights {
        family,
        data_hash,
        mine: points(0..CODES),
        // The file holds the opponent's worth as a positive number that is subtracted.
        theirs: points(CODES..2 * CODES),
        threat: points(2 * CODES..FEATURES),
        move_mine: Vec::new(),
        move_theirs: Vec::new(),
        net: None,
    };
    let rounded: Vec<f64> = weights
        .mine
        .iter()
        .chain(&weights.theirs)
        .chain(&weights.threat)
        .map(|&p| f64::from(p) / k)
        .collect();
    println!(
        "{}: learned evaluation in points: validation loss {:.6} (classic {:.6})",
        family.name(),
        mean_loss(samples, true, k, args.lambda, |s| sigmoid(logit(
            &rounded, s
        ))),
        mean_loss(samples, true, k, args.lambda, classic)
    );
    weights
}

/// A sample's features as the engine counts them ([`LearnedFeatures`]): the side to move's
/// codes, the opponent's (stored negative in `features`), the threat class and mix.
fn learned_features_of(s: &Sample) -> LearnedFeatures {
    let mut f = LearnedFeatures::default();
    let mut threats = Vec::new();
    for &(i, n) in &s.features {
        let i = usize::from(i);
        if i < CODES {
            f.mine.push((i as u16, n as u16));
        } else if i < 2 * CODES {
            f.theirs.push(((i - CODES) as u16, (-n) as u16));
        } else {
            threats.push((i - 2 * CODES) as u16);
        }
    }
    f.threat_class = threats[0];
    f.threat_mix = threats[1];
    f
}

/// Fit a network on top of fixed tables (`--net`): the tables' logit is the network's
/// starting point (a skip connection that does not move), and [`HIDDEN`] clipped-ReLU
/// units over the same features learn what the tables' linear sum misses. Each input is
/// divided by its mean count where present (a square code on half the board and a threat
/// class that is there or not then move at the same pace under Adam); the engine's rows
/// take the division in. Prints the losses every epoch beside the tables', and at the
/// end the loss of the integer network the engine runs.
fn fit_net(args: &Args, tables: &LearnedWeights, samples: &[Sample], data_hash: u64) -> NetWeights {
    let family = tables.family;
    let k = fit_scale(samples);
    let target_of = |s: &Sample| target(s, k, args.lambda);
    // The tables' logit of every sample, and each input's mean count where present.
    let skip: Vec<f64> = samples
        .iter()
        .map(|s| learned_features_of(s).evaluate(tables) as f64 / k)
        .collect();
    let mut count_sum = vec![0f64; NET_INPUTS];
    let mut present = vec![0f64; NET_INPUTS];
    for s in samples {
        for &(i, n) in &s.features {
            count_sum[usize::from(i)] += f64::from(n.unsigned_abs());
            present[usize::from(i)] += 1.0;
        }
    }
    let scale: Vec<f64> = (0..NET_INPUTS)
        .map(|i| (count_sum[i] / present[i].max(1.0)).max(1.0))
        .collect();
    let tables_loss = |validation: bool| {
        let (mut sum, mut n) = (0.0, 0usize);
        for (s, &y) in samples.iter().zip(&skip) {
            if s.validation == validation {
                sum += cross_entropy(target_of(s), sigmoid(y));
                n += 1;
            }
        }
        sum / n.max(1) as f64
    };
    println!(
        "{} network: K = {k:.1}; tables alone: fit loss {:.6}, validation loss {:.6}",
        family.name(),
        tables_loss(false),
        tables_loss(true)
    );
    // Parameters: input rows, unit biases, output weights, output bias.
    let (b1, w2, b2) = (
        NET_INPUTS * HIDDEN,
        NET_INPUTS * HIDDEN + HIDDEN,
        NET_INPUTS * HIDDEN + 2 * HIDDEN,
    );
    let mut adam = SparseAdam::new(b2 + 1);
    let mut rng = Rng::new(args.seed ^ 0x6e65_7477);
    for v in &mut adam.w[..b1] {
        *v = (rng.unit() - 0.5) * 0.2;
    }
    for j in 0..HIDDEN {
        adam.w[b1 + j] = 0.5;
        adam.w[w2 + j] = (rng.unit() - 0.5) * 0.2;
    }
    // The network's logit for sample `s`, with its units' inputs in `a`.
    let forward = |w: &[f64], s: &Sample, a: &mut [f64; HIDDEN]| -> f64 {
        a.copy_from_slice(&w[b1..b1 + HIDDEN]);
        for &(i, n) in &s.features {
            let i = usize::from(i);
            let x = f64::from(n.unsigned_abs()) / scale[i];
            for (j, aj) in a.iter_mut().enumerate() {
                *aj += w[i * HIDDEN + j] * x;
            }
        }
        w[b2]
            + (0..HIDDEN)
                .map(|j| w[w2 + j] * a[j].clamp(0.0, 1.0))
                .sum::<f64>()
    };
    let loss = |w: &[f64], validation: bool| {
        let mut a = [0f64; HIDDEN];
        let (mut sum, mut n) = (0.0, 0usize);
        for (s, &y) in samples.iter().zip(&skip) {
            if s.validation == validation {
                sum += cross_entropy(target_of(s), sigmoid(y + forward(w, s, &mut a)));
                n += 1;
            }
        }
        sum / n.max(1) as f64
    };
    let mut order: Vec<usize> = (0..samples.len())
        .filter(|&i| !samples[i].validation)
        .collect();
    let mut a = [0f64; HIDDEN];
    for epoch in 1..=args.net_epochs {
        let t = Instant::now();
        let rate = epoch_rate(args.net_rate, epoch, args.net_epochs);
        rng.shuffle(&mut order);
        for batch in order.chunks(args.batch.max(1)) {
            for &i in batch {
                let s = &samples[i];
                let d = sigmoid(skip[i] + forward(&adam.w, s, &mut a)) - target_of(s);
                adam.add(b2, d);
                for (j, &aj) in a.iter().enumerate() {
                    adam.add(w2 + j, d * aj.clamp(0.0, 1.0));
                    if aj > 0.0 && aj < 1.0 {
                        let g = d * adam.w[w2 + j];
                        adam.add(b1 + j, g);
                        for &(f, n) in &s.features {
                            let f = usize::from(f);
                            adam.add(f * HIDDEN + j, g * f64::from(n.unsigned_abs()) / scale[f]);
                        }
                    }
                }
            }
            adam.step(rate, 1.0 / batch.len() as f64, args.l2);
        }
        println!(
            "{} network epoch {epoch}: fit loss {:.6}, validation loss {:.6} ({:.0} s)",
            family.name(),
            loss(&adam.w, false),
            loss(&adam.w, true),
            t.elapsed().as_secs_f64()
        );
    }
    // Integers: rows scaled by the input's mean count, output weights in points x 16.
    let w = &adam.w;
    let one = f64::from(ACC_ONE);
    let mut net = NetWeights::zero(family);
    net.data_hash = data_hash;
    for (i, row) in net.input.iter_mut().enumerate() {
        for (j, v) in row.iter_mut().enumerate() {
            *v = (w[i * HIDDEN + j] / scale[i] * one).round() as i32;
        }
    }
    for j in 0..HIDDEN {
        net.bias[j] = (w[b1 + j] * one).round() as i32;
        net.output[j] = (w[w2 + j] * k * OUT_SCALE).round() as i32;
    }
    net.output_bias = (w[b2] * k * OUT_SCALE * f64::from(ACT_ONE)).round() as i32;
    let mut with_net = tables.clone();
    with_net.net = Some(Box::new(net.clone()));
    let engine_loss = |w: &LearnedWeights| {
        let (mut sum, mut n) = (0.0, 0usize);
        for s in samples.iter().filter(|s| s.validation) {
            let points = learned_features_of(s).evaluate(w) as f64;
            sum += cross_entropy(target_of(s), sigmoid(points / k));
            n += 1;
        }
        sum / n.max(1) as f64
    };
    println!(
        "{}: tables + integer network: validation loss {:.6} (tables alone {:.6})",
        family.name(),
        engine_loss(&with_net),
        engine_loss(tables)
    );
    net
}

/// The move-choice model's score of a candidate: the weights of its codes for both sides
/// and of its two locality classes (see [`Sample::near`]); `w` holds the side to move's
/// codes, the opponent's, then the [`LOCALITY_CLASSES`] classes to the opponent's last move
/// and as many to our own.
fn move_score(w: &[f64], &(m, t, _): &(u16, u16, i32), &(a, b): &(u8, u8)) -> f64 {
    w[usize::from(m)]
        + w[CODES + usize::from(t)]
        + w[2 * CODES + usize::from(a)]
        + w[2 * CODES + LOCALITY_CLASSES + usize::from(b)]
}

/// The move-choice model's probabilities over a position's legal candidates (the played
/// one first) under weights `w` (see [`move_score`]).
fn move_probabilities(w: &[f64], moves: &[(u16, u16, i32)], near: &[(u8, u8)], out: &mut Vec<f64>) {
    out.clear();
    out.extend(moves.iter().zip(near).map(|(m, l)| move_score(w, m, l)));
    let top = out.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let mut sum = 0.0;
    for v in out.iter_mut() {
        *v = (*v - top).exp();
        sum += *v;
    }
    for v in out.iter_mut() {
        *v /= sum;
    }
}

/// The share of positions where the highest score (ties broken against the played move)
/// is the played move's.
fn top1(
    samples: &[Sample],
    validation: bool,
    score: impl Fn(&(u16, u16, i32), &(u8, u8)) -> f64,
) -> f64 {
    let (mut hit, mut n) = (0usize, 0usize);
    for s in samples
        .iter()
        .filter(|s| s.validation == validation && !s.moves.is_empty())
    {
        let played = score(&s.moves[0], &s.near[0]);
        hit += usize::from(
            s.moves[1..]
                .iter()
                .zip(&s.near[1..])
                .all(|(m, l)| score(m, l) < played),
        );
        n += 1;
    }
    hit as f64 / n.max(1) as f64
}

/// Fit the move scores: a softmax over each position's legal candidates, scored by the
/// codes of the square for both sides and its distance to the last two moves (see
/// [`move_score`]), trained to pick the move the search played (cross-entropy, minibatch
/// Adam). The codes' scores are written to the weight file; the distance terms are printed
/// (the search's constants come from them). Prints the loss and how often the top-scored move
/// is the played one, beside the classic ordering's rate.
fn fit_move_scores(args: &Args, family: WeightFamily, samples: &[Sample]) -> (Vec<i32>, Vec<i32>) {
    let fitted: Vec<usize> = (0..samples.len())
        .filter(|&i| !samples[i].validation && samples[i].moves.len() > 1)
        .collect();
    println!(
        "{}: move ordering: classic scores pick the played move first in {:.1}% of validation positions",
        family.name(),
        100.0 * top1(samples, true, |m, _| f64::from(m.2))
    );
    let n = 2 * CODES + 2 * LOCALITY_CLASSES;
    let mut adam = SparseAdam::new(n);
    let mut probs = Vec::new();
    let mut order = fitted.clone();
    let mut rng = Rng::new(args.seed ^ 0x6d6f_7665);
    let loss = |w: &[f64], validation: bool| {
        let mut probs = Vec::new();
        let (mut sum, mut k) = (0.0, 0usize);
        for s in samples
            .iter()
            .filter(|s| s.validation == validation && s.moves.len() > 1)
        {
            move_probabilities(w, &s.moves, &s.near, &mut probs);
            sum -= probs[0].max(1e-12).ln();
            k += 1;
        }
        sum / k.max(1) as f64
    };
    for epoch in 1..=args.epochs {
        let rate = epoch_rate(args.move_rate, epoch, args.epochs);
        rng.shuffle(&mut order);
        for batch in order.chunks(args.batch.max(1)) {
            for &i in batch {
                let moves = &samples[i].moves;
                let near = &samples[i].near;
                move_probabilities(&adam.w, moves, near, &mut probs);
                for (j, (&(mc, tc, _), &(a, b))) in moves.iter().zip(near).enumerate() {
                    let d = probs[j] - if j == 0 { 1.0 } else { 0.0 };
                    adam.add(usize::from(mc), d);
                    adam.add(CODES + usize::from(tc), d);
                    adam.add(2 * CODES + usize::from(a), d);
                    adam.add(2 * CODES + LOCALITY_CLASSES + usize::from(b), d);
                }
            }
            adam.step(rate, 1.0 / batch.len() as f64, args.l2);
        }
        let w = &adam.w;
        println!(
            "{} move scores epoch {epoch}: fit loss {:.4}, validation loss {:.4}, played move first {:.1}%",
            family.name(),
            loss(w, false),
            loss(w, true),
            100.0
                * top1(samples, true, |m, l| move_score(w, m, l))
        );
    }
    let w = &adam.w;
    // The search's `NEAR_OPPONENT` and `NEAR_OWN` (see `rensa::search::node`) come from
    // these: print them in logits and in the ordering's points.
    let near = &w[2 * CODES..];
    let show = |v: &[f64]| {
        v.iter()
            .map(|x| {
                format!(
                    "{x:+.3} ({})",
                    (x * f64::from(ORDERING_POINTS_PER_LOGIT)).round()
                )
            })
            .collect::<Vec<_>>()
            .join(" / ")
    };
    println!(
        "{}: locality weights, distance 1 / 2 / 3 / 4+ to the opponent's last move: {}; to our own last move: {}",
        family.name(),
        show(&near[..LOCALITY_CLASSES]),
        show(&near[LOCALITY_CLASSES..])
    );
    let scaled = |range: std::ops::Range<usize>| -> Vec<i32> {
        w[range]
            .iter()
            .map(|x| (x * f64::from(MOVE_SCORE_UNITS)).round() as i32)
            .collect()
    };
    (scaled(0..CODES), scaled(CODES..2 * CODES))
}

fn main() {
    let args = Args::parse();
    let t0 = Instant::now();
    let mut games = Vec::new();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for path in &args.data {
        let bytes = std::fs::read(path).unwrap_or_else(|e| {
            eprintln!("train: {}: {e}", path.display());
            std::process::exit(2);
        });
        let data = selfplay::parse(&bytes).unwrap_or_else(|e| {
            eprintln!("train: {}: {e}", path.display());
            std::process::exit(2);
        });
        for &b in &bytes[..data.valid_len] {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
        println!(
            "{}: {} games ({})",
            path.display(),
            data.games.len(),
            data.settings
        );
        games.extend(data.games);
    }
    let families: Vec<WeightFamily> = if args.families.is_empty() {
        WeightFamily::ALL.to_vec()
    } else {
        args.families
            .iter()
            .map(|name| {
                *WeightFamily::ALL
                    .iter()
                    .find(|f| f.name() == name)
                    .unwrap_or_else(|| {
                        eprintln!("train: unknown family {name:?} (freestyle, standard, renju)");
                        std::process::exit(2);
                    })
            })
            .collect()
    };
    println!("data hash {hash:016x}");
    for family in families {
        let t = Instant::now();
        let mut samples = Vec::new();
        for game in games.iter().filter(|g| WeightFamily::of(g.rule) == family) {
            samples_of(game, &mut samples);
        }
        println!(
            "{}: positions read in {:.1} s",
            family.name(),
            t.elapsed().as_secs_f64()
        );
        if let Err(e) = std::fs::create_dir_all(&args.out_dir) {
            eprintln!("train: {}: {e}", args.out_dir.display());
            std::process::exit(2);
        }
        if args.net {
            let tables_path = args.tables.join(format!("{}.rnw", family.name()));
            let bytes = std::fs::read(&tables_path).unwrap_or_else(|e| {
                eprintln!("train: {}: {e}", tables_path.display());
                std::process::exit(2);
            });
            let tables = LearnedWeights::from_bytes(&bytes, Some(family)).unwrap_or_else(|e| {
                eprintln!("train: {}: {e}", tables_path.display());
                std::process::exit(2);
            });
            let net = fit_net(&args, &tables, &samples, hash);
            let path = args.out_dir.join(format!("{}.rnn", family.name()));
            let copy = args.out_dir.join(format!("{}.rnw", family.name()));
            if let Err(e) =
                std::fs::write(&path, net.to_bytes()).and_then(|_| std::fs::write(&copy, &bytes))
            {
                eprintln!("train: {}: {e}", path.display());
                std::process::exit(2);
            }
            println!(
                "{}: wrote {} and {}",
                family.name(),
                path.display(),
                copy.display()
            );
            continue;
        }
        let mut weights = fit_family(&args, family, &samples, hash);
        let (move_mine, move_theirs) = fit_move_scores(&args, family, &samples);
        weights.move_mine = move_mine;
        weights.move_theirs = move_theirs;
        let path = args.out_dir.join(format!("{}.rnw", family.name()));
        std::fs::write(&path, weights.to_bytes()).unwrap_or_else(|e| {
            eprintln!("train: {}: {e}", path.display());
            std::process::exit(2);
        });
        println!("{}: wrote {}", family.name(), path.display());
    }
    println!("done in {:.1} s", t0.elapsed().as_secs_f64());
}
