//! What the runner shows: a progress line while running (redrawn in place on a terminal,
//! plain lines otherwise), the final tables, and the JSON summary.

use crate::game::GameRecord;
use crate::json::Json;
use crate::stats::{EloEstimate, SprtState, Wld};
use crate::tournament::{MatchConfig, Schedule, Summary};
use rensa::records::Termination;
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressMode {
    /// A live line on a terminal, plain lines otherwise.
    Auto,
    /// Plain lines: one per finished game and one with the running score.
    Plain,
    /// Nothing while running.
    Quiet,
}

/// Prints progress to stdout.
pub struct Reporter {
    live: bool,
    quiet: bool,
    line_shown: bool,
    last_draw: Instant,
}

impl Reporter {
    /// A reporter; `Auto` draws a live line only when stdout is a terminal.
    pub fn new(mode: ProgressMode) -> Reporter {
        Reporter {
            live: mode == ProgressMode::Auto && std::io::stdout().is_terminal(),
            quiet: mode == ProgressMode::Quiet,
            line_shown: false,
            last_draw: Instant::now(),
        }
    }

    fn clear_line(&mut self, out: &mut impl Write) {
        if self.line_shown {
            let _ = write!(out, "\r\x1b[2K");
            self.line_shown = false;
        }
    }

    /// The match is about to start.
    pub fn start(&mut self, config: &MatchConfig, summary: &Summary) {
        if self.quiet {
            return;
        }
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{}", header(config, summary));
        for (line, text, why) in &summary.skipped_openings {
            let _ = writeln!(out, "warning: opening line {line} skipped ({text}): {why}");
        }
    }

    /// A game is over.
    pub fn game_finished(&mut self, g: &GameRecord) {
        if self.quiet {
            return;
        }
        let mut out = std::io::stdout().lock();
        self.clear_line(&mut out);
        let _ = writeln!(
            out,
            "Finished game {} ({} vs {}): {} {{{}}}",
            g.setup.id,
            g.names[0],
            g.names[1],
            g.result_text(),
            g.reason_text()
        );
    }

    /// Scores changed.
    pub fn progress(&mut self, s: &Summary) {
        if self.quiet {
            return;
        }
        let line = progress_line(s);
        let mut out = std::io::stdout().lock();
        if self.live {
            self.clear_line(&mut out);
            let _ = write!(out, "{line}");
            self.line_shown = true;
            self.last_draw = Instant::now();
        } else {
            let _ = writeln!(out, "{line}");
        }
        let _ = out.flush();
    }

    /// Time passed without a result: refresh the live line once a second.
    pub fn tick(&mut self, s: &Summary) {
        if self.live && !self.quiet && self.last_draw.elapsed() >= Duration::from_secs(1) {
            self.progress(s);
        }
    }

    /// The match is over.
    pub fn finish(&mut self, _s: &Summary) {
        if self.quiet {
            return;
        }
        let mut out = std::io::stdout().lock();
        self.clear_line(&mut out);
        let _ = out.flush();
    }
}

/// `+12.3`, `-4.0`, `+inf`.
pub fn fmt_elo(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else if x.is_nan() {
        "n/a".into()
    } else {
        format!("{x:+.1}")
    }
}

fn fmt_estimate(e: Option<EloEstimate>) -> String {
    match e {
        Some(e) => {
            let m = e.margin();
            if m.is_finite() {
                format!(
                    "{} ±{:.1} [{}, {}]",
                    fmt_elo(e.elo),
                    m,
                    fmt_elo(e.lower),
                    fmt_elo(e.upper)
                )
            } else {
                format!(
                    "{} [{}, {}]",
                    fmt_elo(e.elo),
                    fmt_elo(e.lower),
                    fmt_elo(e.upper)
                )
            }
        }
        None => "n/a".into(),
    }
}

/// `1h02m`, `3m20s`, `45s`.
pub fn fmt_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{:.1}s", d.as_secs_f64())
    }
}

fn fmt_wld(r: &Wld) -> String {
    format!("{}-{}-{}", r.w, r.l, r.d)
}

fn fmt_bytes(b: Option<u64>) -> String {
    match b {
        Some(b) => format!("{:.1} MiB", b as f64 / (1024.0 * 1024.0)),
        None => "-".into(),
    }
}

fn fmt_ms(v: Option<i64>) -> String {
    match v {
        Some(v) => format!("{v}"),
        None => "-".into(),
    }
}

fn header(config: &MatchConfig, summary: &Summary) -> String {
    let kind = if config.engines.len() == 2 {
        "head to head"
    } else if config.schedule == Schedule::Gauntlet {
        "gauntlet"
    } else {
        "round robin"
    };
    let tcs: Vec<String> = summary
        .names
        .iter()
        .zip(&config.engines)
        .map(|(n, e)| format!("{n} ({})", e.tc))
        .collect();
    let mut h = format!(
        "rensa-match: {kind}, {} games, {}x{} {} (rule {}), concurrency {}{}\n  engines: {}",
        summary.total,
        config.width,
        config.height,
        config.rule,
        config.rule.code(),
        config.concurrency,
        if config.judge {
            ", GomocupJudge mode"
        } else {
            ""
        },
        tcs.join(", ")
    );
    if let Some(o) = &config.openings {
        h.push_str(&format!(
            "\n  openings: {} usable, {} skipped{}",
            o.len(),
            o.skipped.len(),
            if config.repeat {
                ", each played twice with colours swapped"
            } else {
                ""
            }
        ));
    }
    if let Some(s) = &config.sprt {
        let (lo, hi) = s.bounds();
        h.push_str(&format!(
            "\n  SPRT: elo0={} elo1={} alpha={} beta={} ({}), LLR bounds [{lo:.2}, {hi:.2}]",
            s.elo0,
            s.elo1,
            s.alpha,
            s.beta,
            if config.pentanomial {
                "pentanomial"
            } else {
                "trinomial"
            }
        ));
    }
    h
}

/// The running-score line.
pub fn progress_line(s: &Summary) -> String {
    let pairing = s
        .games
        .last()
        .map(|g| g.setup.pairing)
        .unwrap_or(0)
        .min(s.pairings.len().saturating_sub(1));
    let p = &s.pairings[pairing];
    let mut line = format!(
        "[{}/{}] {} vs {}: {} [{:.3}] Elo {}",
        s.played,
        s.total,
        s.names[p.a],
        s.names[p.b],
        fmt_wld(&p.wld),
        p.wld.score(),
        match p.elo() {
            Some(e) if e.margin().is_finite() => format!("{} ±{:.0}", fmt_elo(e.elo), e.margin()),
            Some(e) => fmt_elo(e.elo),
            None => "n/a".into(),
        }
    );
    if let Some(st) = &s.sprt {
        let (lo, hi) = st.sprt.bounds();
        line.push_str(&format!(" LLR {:.2} [{lo:.2}, {hi:.2}]", st.llr));
    }
    if s.played > 0 && s.played < s.total {
        let per = s.elapsed.as_secs_f64() / s.played as f64;
        let left = Duration::from_secs_f64(per * (s.total - s.played) as f64);
        line.push_str(&format!(" left {}", fmt_duration(left)));
    }
    line
}

/// The final tables.
pub fn summary_text(s: &Summary, config: &MatchConfig) -> String {
    let mut t = String::new();
    t.push_str(&format!(
        "\n=== Result: {} of {} games played in {} ===\n",
        s.played,
        s.total,
        fmt_duration(s.elapsed)
    ));
    for p in &s.pairings {
        let (a, b) = (&s.names[p.a], &s.names[p.b]);
        let n = p.wld.games();
        t.push_str(&format!("\n{a} vs {b} ({a}'s view)\n"));
        if n == 0 {
            t.push_str("  no games\n");
            continue;
        }
        t.push_str(&format!(
            "  games {n}: W {}  L {}  D {}   score {:.1}%   draw ratio {:.1}%\n",
            p.wld.w,
            p.wld.l,
            p.wld.d,
            100.0 * p.wld.score(),
            100.0 * p.wld.draw_ratio()
        ));
        t.push_str(&format!(
            "  Elo {} (95%)   LOS {:.1}%\n",
            fmt_estimate(p.elo()),
            100.0 * p.los()
        ));
        t.push_str(&format!(
            "  {a} as black {}   as white {}\n",
            fmt_wld(&p.a_black),
            fmt_wld(&p.a_white)
        ));
        let pairs: u64 = p.penta.iter().sum();
        if pairs > 0 {
            t.push_str(&format!(
                "  pairs by {a}'s points (0, 0.5, 1, 1.5, 2): {:?}   pair Elo {}\n",
                p.penta,
                fmt_estimate(p.elo_pairs())
            ));
        }
        let ends: Vec<String> = p
            .terminations
            .iter()
            .map(|(k, v)| format!("{} {v}", k.label()))
            .collect();
        t.push_str(&format!("  endings: {}\n", ends.join(", ")));
    }
    if s.names.len() > 2 {
        t.push_str("\nStandings\n");
        let mut order: Vec<usize> = (0..s.names.len()).collect();
        order.sort_by(|&x, &y| {
            let sx = s.engines[x].wld.points();
            let sy = s.engines[y].wld.points();
            sy.partial_cmp(&sx).unwrap_or(std::cmp::Ordering::Equal)
        });
        t.push_str(&format!(
            "  {:<3} {:<20} {:>6} {:>8} {:>7}  {:<12} {}\n",
            "#", "engine", "games", "points", "score", "W-L-D", "Elo vs field"
        ));
        for (rank, &i) in order.iter().enumerate() {
            let e = &s.engines[i];
            t.push_str(&format!(
                "  {:<3} {:<20} {:>6} {:>8.1} {:>6.1}%  {:<12} {}\n",
                rank + 1,
                s.names[i],
                e.games,
                e.wld.points(),
                100.0 * e.wld.score(),
                fmt_wld(&e.wld),
                crate::stats::elo_trinomial(&e.wld)
                    .map(|x| fmt_elo(x.elo))
                    .unwrap_or_else(|| "n/a".into())
            ));
        }
    }
    t.push_str("\nEngines (times in ms)\n");
    t.push_str(&format!(
        "  {:<20} {:>6} {:>7} {:>8} {:>7} {:>13} {:>14} {:>11} {:>8}  {}\n",
        "engine",
        "games",
        "moves",
        "avg",
        "max",
        "turn overrun",
        "match overrun",
        "peak RSS",
        "restarts",
        "losses by"
    ));
    for (i, e) in s.engines.iter().enumerate() {
        let avg = if e.moves > 0 {
            format!("{:.1}", e.total_ms as f64 / e.moves as f64)
        } else {
            "-".into()
        };
        let losses: Vec<String> = e
            .losses
            .iter()
            .map(|(k, v)| format!("{} {v}", k.label()))
            .collect();
        t.push_str(&format!(
            "  {:<20} {:>6} {:>7} {:>8} {:>7} {:>13} {:>14} {:>11} {:>8}  {}\n",
            s.names[i],
            e.games,
            e.moves,
            avg,
            e.max_move_ms,
            fmt_ms(e.max_turn_overrun_ms),
            fmt_ms(e.max_match_overrun_ms),
            fmt_bytes(e.peak_rss),
            e.restarts,
            if losses.is_empty() {
                "-".into()
            } else {
                losses.join(", ")
            }
        ));
    }
    t.push_str(
        "  (overrun = largest move time minus the limit; negative: the limit was never reached)\n",
    );
    let ends: Vec<String> = s
        .terminations()
        .iter()
        .map(|(k, v)| format!("{} {v}", k.label()))
        .collect();
    t.push_str(&format!("\nAll endings: {}\n", ends.join(", ")));
    if let Some(st) = &s.sprt {
        let (lo, hi) = st.sprt.bounds();
        let verdict = match st.state {
            SprtState::AcceptH0 => "H0 accepted (elo <= elo0): stopped",
            SprtState::AcceptH1 => "H1 accepted (elo >= elo1): stopped",
            SprtState::Continue => "no decision",
        };
        t.push_str(&format!(
            "SPRT ({}): elo0={} elo1={} alpha={} beta={}  LLR {:.3} [{lo:.3}, {hi:.3}]  {verdict}\n",
            if st.pentanomial { "pentanomial" } else { "trinomial" },
            st.sprt.elo0,
            st.sprt.elo1,
            st.sprt.alpha,
            st.sprt.beta,
            st.llr
        ));
    }
    if let Some(o) = &config.openings {
        t.push_str(&format!(
            "Openings: {} usable, {} skipped (do not fit {}x{})\n",
            o.len(),
            o.skipped.len(),
            config.width,
            config.height
        ));
    }
    t.push_str(&format!(
        "Runner overhead: {:.1} µs per move on average ({:.1} µs of it waiting for the OS to \
         wake the runner after a reply), {:.1} µs in the worst game\n",
        s.overhead_per_move_us(),
        s.pickup_per_move_us(),
        s.worst_game_overhead_us
    ));
    if let Some(e) = &s.record_error {
        t.push_str(&format!("warning: records could not be written: {e}\n"));
    }
    t
}

fn wld_json(r: &Wld) -> Json {
    Json::obj().with("w", r.w).with("l", r.l).with("d", r.d)
}

fn elo_json(e: Option<EloEstimate>) -> Json {
    match e {
        Some(e) => Json::obj()
            .with("elo", e.elo)
            .with("lower95", e.lower)
            .with("upper95", e.upper)
            .with("score", e.score),
        None => Json::Null,
    }
}

fn terminations_json<'a>(it: impl Iterator<Item = (&'a Termination, &'a u64)>) -> Json {
    Json::Obj(
        it.map(|(k, v)| (k.label().to_string(), Json::from(*v)))
            .collect(),
    )
}

/// The machine-readable summary.
pub fn summary_json(s: &Summary, config: &MatchConfig) -> Json {
    let engines: Vec<Json> = s
        .engines
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let spec = &config.engines[i];
            Json::obj()
                .with("name", s.names[i].as_str())
                .with("cmd", spec.cmd.as_str())
                .with("tc", spec.tc.to_string())
                .with("games", e.games)
                .with("wld", wld_json(&e.wld))
                .with("moves", e.moves)
                .with("total_ms", e.total_ms)
                .with("max_move_ms", e.max_move_ms)
                .with("max_turn_overrun_ms", e.max_turn_overrun_ms)
                .with("max_match_overrun_ms", e.max_match_overrun_ms)
                .with("peak_rss_bytes", e.peak_rss)
                .with("restarts", e.restarts)
                .with("losses_by", terminations_json(e.losses.iter()))
        })
        .collect();
    let pairings: Vec<Json> = s
        .pairings
        .iter()
        .map(|p| {
            Json::obj()
                .with("a", s.names[p.a].as_str())
                .with("b", s.names[p.b].as_str())
                .with("games", p.wld.games())
                .with("wld", wld_json(&p.wld))
                .with(
                    "score",
                    if p.wld.games() > 0 {
                        Json::from(p.wld.score())
                    } else {
                        Json::Null
                    },
                )
                .with("elo", elo_json(p.elo()))
                .with("los", p.los())
                .with(
                    "draw_ratio",
                    if p.wld.games() > 0 {
                        Json::from(p.wld.draw_ratio())
                    } else {
                        Json::Null
                    },
                )
                .with("a_as_black", wld_json(&p.a_black))
                .with("a_as_white", wld_json(&p.a_white))
                .with("pentanomial", p.penta.to_vec())
                .with("elo_pairs", elo_json(p.elo_pairs()))
                .with("terminations", terminations_json(p.terminations.iter()))
        })
        .collect();
    let sprt = match &s.sprt {
        Some(st) => {
            let (lo, hi) = st.sprt.bounds();
            Json::obj()
                .with("elo0", st.sprt.elo0)
                .with("elo1", st.sprt.elo1)
                .with("alpha", st.sprt.alpha)
                .with("beta", st.sprt.beta)
                .with("pentanomial", st.pentanomial)
                .with("llr", st.llr)
                .with("lower_bound", lo)
                .with("upper_bound", hi)
                .with(
                    "result",
                    match st.state {
                        SprtState::AcceptH0 => "H0",
                        SprtState::AcceptH1 => "H1",
                        SprtState::Continue => "none",
                    },
                )
        }
        None => Json::Null,
    };
    let skipped: Vec<Json> = s
        .skipped_openings
        .iter()
        .map(|(l, text, why)| {
            Json::obj()
                .with("line", *l)
                .with("text", text.as_str())
                .with("reason", why.as_str())
        })
        .collect();
    Json::obj()
        .with("board", format!("{}x{}", config.width, config.height))
        .with("rule", config.rule.code())
        .with("gomocupjudge", config.judge)
        .with("games_total", s.total)
        .with("games_played", s.played)
        .with("elapsed_s", s.elapsed.as_secs_f64())
        .with("engines", Json::Arr(engines))
        .with("pairings", Json::Arr(pairings))
        .with("terminations", terminations_json(s.terminations().iter()))
        .with("sprt", sprt)
        .with(
            "openings",
            Json::obj()
                .with("used", config.openings.as_ref().map(|o| o.len()))
                .with("skipped", s.skipped_openings.len())
                .with("skipped_list", Json::Arr(skipped)),
        )
        .with("overhead_us_per_move", s.overhead_per_move_us())
        .with("overhead_wakeup_us_per_move", s.pickup_per_move_us())
        .with("overhead_us_per_move_worst_game", s.worst_game_overhead_us)
}
