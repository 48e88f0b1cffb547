//! Iterative deepening on the main thread: one iteration per depth with an aspiration
//! window around the previous score, the restart of an iteration when the threat thread
//! refutes a root move, progress reports, and the stop rules of
//! [`crate::timeman::stop_rules`]. Results go to the worker's root move list.

use super::alphabeta::{Worker, NO_MOVE};
use super::defence::ReplyCheck;
use super::pool::Shared;
use super::score::{is_decisive, INFINITY};
use super::{Limits, RootEvent, SearchInfo};
use crate::board::Pos;
use crate::timeman::stop_rules::iteration_target;
use std::sync::atomic::Ordering;

/// First aspiration half-width, in centi-stones; it triples on each fail.
const ASPIRATION_DELTA: i32 = 60;
/// Past this half-width the window opens fully.
const ASPIRATION_GIVE_UP: i32 = 2_000;
/// First depth searched with an aspiration window.
const ASPIRATION_FROM_DEPTH: i32 = 4;

/// Deepen the main worker `w` up to `max_depth`; the best move ends up in
/// `w.root_moves`. Stops on the stop rules, a decisive score, or a stop. With `check`
/// (one thread) each new best move is looked at for an opponent VCT in reply, and the
/// depth is searched again without a move that loses to one.
pub(super) fn iterate(
    w: &mut Worker,
    shared: &Shared,
    limits: &Limits,
    max_depth: i32,
    mut check: Option<&mut ReplyCheck>,
    report: &mut dyn FnMut(&SearchInfo),
) {
    let me = w.root_color();
    let mut pv = Vec::new();
    let mut previous_best: Option<Pos> = None;
    let mut stable_iterations = 0;
    let mut score_guess = 0;
    let mut depth = 0;
    while depth < max_depth {
        depth += 1;
        for p in shared.refuted() {
            w.root_moves.refute(p);
        }
        w.excluded = w.root_moves.refuted();
        if let Some(sink) = w.realtime_sink(depth) {
            (sink.0)(RootEvent::Refresh);
        }
        // Aspiration window around the previous score.
        let mut delta = ASPIRATION_DELTA;
        let (mut lo, mut hi) = if depth >= ASPIRATION_FROM_DEPTH && !is_decisive(score_guess) {
            (score_guess - delta, score_guess + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        let score = loop {
            let s = w.search(me, depth, lo, hi, 0, &mut pv);
            if w.stopped {
                break s;
            }
            // The search fails soft: its score bounds the true one from the failing
            // side, so the next window starts there rather than one step past the old
            // bound (Stockfish's aspiration); a fail low also brings the upper bound
            // down to the old window's middle.
            if s <= lo {
                hi = (lo + hi) / 2;
                lo = (s - delta).max(-INFINITY);
            } else if s >= hi {
                hi = (s + delta).min(INFINITY);
            } else {
                break s;
            }
            delta *= 3;
            if delta > ASPIRATION_GIVE_UP {
                lo = -INFINITY;
                hi = INFINITY;
            }
        };
        w.flush_nodes();
        if w.interrupted {
            // A root move was refuted: search this depth again without it.
            w.interrupted = false;
            w.stopped = false;
            shared.refuted_changed.store(false, Ordering::Relaxed);
            if !limits.clock.past_maximum() {
                depth -= 1;
                continue;
            }
            break;
        }
        if w.stopped && depth > 1 {
            // Keep the last full iteration's move, unless this one already found a
            // better move at the root: a later move searched in full that beat what this
            // depth gave the best move (Stockfish plays a stopped iteration's new best
            // move the same way). With only a per-move limit the last iteration is
            // always cut off at the hard limit.
            let better = w
                .root_moves
                .better_in_unfinished(depth as u32)
                .map(|m| (m.score, m.pv.clone()));
            if let Some((score, line)) = better {
                log::debug!(
                    "depth {depth} unfinished: {} (score {score}) replaces the best move",
                    line[0]
                );
                w.root_moves.set_best(score, depth as u32, &line);
                limits.best_so_far.set(line[0]);
                // Reported, so that the last line a manager or GUI shows (and the reply a
                // ponder search predicts from it) is the move played.
                report(&single_line(w, shared, limits, depth, score, line));
            }
            break;
        }
        if !pv.is_empty() {
            w.root_moves.set_best(score, depth as u32, &pv);
        } else if let Some(rb) = w.root_best {
            w.root_moves.set_best(score, depth as u32, &[rb]);
        }
        if let Some(b) = w.root_moves.best() {
            shared.candidate.set(b.pos);
        }
        let decided = is_decisive(score) && depth >= 2;
        // One thread: a best move that loses to an opponent VCT in reply is refuted before
        // the iteration is reported, and the depth is searched again without it (so the
        // reported depths still rise).
        if let (false, Some(check), Some(b)) = (
            decided,
            check.as_deref_mut(),
            w.root_moves.best().map(|b| b.pos),
        ) {
            if check.refutes(b, shared) {
                shared.refute(b);
                shared.refuted_changed.store(false, Ordering::Relaxed);
                depth -= 1;
                continue;
            }
        }
        score_guess = score;
        if let Some(b) = w.root_moves.best() {
            limits.best_so_far.set(b.pos);
        }
        report(&single_line(w, shared, limits, depth, score, pv.clone()));
        if decided {
            break;
        }
        let current = w.root_moves.best().map(|b| b.pos);
        if current == previous_best {
            stable_iterations += 1;
        } else {
            stable_iterations = 0;
        }
        previous_best = current;
        // Time: stop early once the optimum is used; a little longer while the best
        // move keeps changing. With only a per-move limit, time not used is lost: go on
        // to the hard limit (an unfinished iteration still counts where its first move
        // was searched in full). At 1 s per move the early stop left 535 of the 1000 ms
        // unused on average (PentaZen gauntlet, bench/elo-log.md).
        let target = if limits.unused_is_lost {
            limits.maximum()
        } else {
            iteration_target(limits.optimum(), limits.maximum(), stable_iterations)
        };
        if limits.elapsed() >= target && limits.max_nodes.is_none() {
            break;
        }
        if w.stopped {
            break;
        }
    }
    shared.stop.store(true, Ordering::Relaxed);
    // The last full iteration's move may have been refuted since: then the first move of
    // the unfinished iteration (searched with a full window) replaces it.
    let refuted = shared.refuted();
    if let (Some(b), Some(rb)) = (w.root_moves.best().map(|b| b.pos), w.root_best) {
        if refuted.contains(&b) && !refuted.contains(&rb) {
            w.root_moves.replace_best(rb);
            limits.best_so_far.set(rb);
        }
    }
}

/// The report of a single-PV iteration at `depth`: its score and line, the nodes so far.
fn single_line(
    w: &mut Worker,
    shared: &Shared,
    limits: &Limits,
    depth: i32,
    score: i32,
    pv: Vec<Pos>,
) -> SearchInfo {
    let nodes = shared.nodes.load(Ordering::Relaxed);
    SearchInfo {
        depth: depth as u32,
        seldepth: w.take_seldepth(),
        pv_index: 0,
        pv_count: 1,
        line_nodes: nodes,
        score,
        nodes,
        elapsed: limits.elapsed(),
        pv,
    }
}

/// One line of a multi-PV iteration.
struct Line {
    score: i32,
    pv: Vec<Pos>,
    nodes: u64,
    seldepth: u32,
}

/// Multi-PV deepening: each iteration searches the best move, then the best of the others,
/// and so on for `lines` lines (each with a full window, the moves already found left
/// out), then reports them best first. A stopped iteration keeps the previous one's
/// lines. The best line's move ends up in `w.root_moves`, and every line's score there.
pub(super) fn iterate_multi_pv(
    w: &mut Worker,
    shared: &Shared,
    limits: &Limits,
    max_depth: i32,
    lines: usize,
    report: &mut dyn FnMut(&SearchInfo),
) {
    let me = w.root_color();
    let blocked = std::mem::take(&mut w.root_filter);
    let mut pv = Vec::new();
    for depth in 1..=max_depth {
        let mut found: Vec<Line> = Vec::new();
        w.root_filter.clone_from(&blocked);
        while found.len() < lines {
            let before = shared.nodes.load(Ordering::Relaxed);
            let score = w.search(me, depth, -INFINITY, INFINITY, 0, &mut pv);
            w.flush_nodes();
            if w.stopped || score == NO_MOVE || pv.is_empty() {
                break;
            }
            let nodes = shared.nodes.load(Ordering::Relaxed) - before;
            w.root_filter.push(pv[0]);
            found.push(Line {
                score,
                pv: pv.clone(),
                nodes,
                seldepth: w.take_seldepth(),
            });
        }
        if found.is_empty() || (w.stopped && depth > 1) {
            break;
        }
        // Each pass finds the best of what is left, so the order is nearly right already;
        // the sort is stable, so equal scores keep the search's order.
        found.sort_by_key(|l| std::cmp::Reverse(l.score));
        for line in &found {
            let at = depth as u32;
            w.root_moves.record(
                line.pv[0],
                line.score,
                super::tt::Bound::Exact,
                at,
                &line.pv[1..],
            );
        }
        w.root_moves
            .set_best(found[0].score, depth as u32, &found[0].pv);
        limits.best_so_far.set(found[0].pv[0]);
        w.root_moves
            .set_lines(found.iter().map(|l| (l.pv[0], l.score)).collect());
        let nodes = shared.nodes.load(Ordering::Relaxed);
        for (i, line) in found.iter().enumerate() {
            report(&SearchInfo {
                depth: depth as u32,
                seldepth: line.seldepth,
                pv_index: i,
                pv_count: found.len(),
                line_nodes: line.nodes,
                score: line.score,
                nodes,
                elapsed: limits.elapsed(),
                pv: line.pv.clone(),
            });
        }
        if w.stopped || found.iter().all(|l| is_decisive(l.score)) && depth >= 2 {
            break;
        }
        // Time: no new iteration past the optimum (no stability bonus: the lines matter,
        // not just the best move).
        if limits.max_nodes.is_none() && limits.elapsed() >= limits.optimum().min(limits.maximum())
        {
            break;
        }
    }
    shared.stop.store(true, Ordering::Relaxed);
    w.root_filter = blocked;
}
