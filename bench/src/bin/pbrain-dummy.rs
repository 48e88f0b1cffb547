//! `pbrain-dummy`: a small Gomocup-protocol engine for testing match runners.
//!
//! It plays legal moves (first free square, random, or a greedy one-ply heuristic that
//! wins, blocks and extends lines), and can misbehave on purpose on its N-th move request
//! of each game (`--after N`): crash, never answer, answer late, play an occupied or
//! off-board square, print garbage or an ERROR, answer twice, grow its memory, or wait for
//! `YXSTOP`. It can also refuse or delay `OK`, answer `OK` twice, or ignore `END`.
//!
//! Example: `pbrain-dummy --play greedy --seed 3 --mode crash --after 5`.

use clap::{Parser, ValueEnum};
use rensa::board::{Board, Cell, Color, Direction, Pos};
use rensa::rules::{is_winning_move, renju_foul, Rule};
use rensa_bench::rng::Rng;
use std::io::{self, BufRead, Write};
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Mode {
    /// Behave.
    Good,
    /// Exit without answering the N-th move request.
    Crash,
    /// Never answer the N-th move request (ignores YXSTOP too).
    Timeout,
    /// Answer the N-th move request only when YXSTOP arrives.
    WaitStop,
    /// Sleep `--delay-ms` before answering the N-th move request.
    Late,
    /// Answer the N-th move request with an occupied square.
    Occupied,
    /// Answer the N-th move request with a square off the board.
    Offboard,
    /// Answer the N-th move request with a line that is not a move.
    Garbage,
    /// Answer the N-th move request with `ERROR`.
    ErrorMove,
    /// Answer the N-th move request with two moves.
    AnswerTwice,
    /// Allocate and touch `--hog-mb` MiB at the N-th move request, then answer.
    Hog,
    /// Never answer START.
    NoOk,
    /// Answer START with ERROR.
    ErrorStart,
    /// Sleep `--delay-ms` before answering START.
    SlowOk,
    /// Answer START with OK twice.
    OkTwice,
    /// Do not exit on END (only on end of input).
    IgnoreEnd,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Play {
    /// The first empty square in row-major order.
    First,
    /// A random empty square near the stones.
    Random,
    /// Win if possible, else block a five, else extend the longest lines.
    Greedy,
}

#[derive(Parser, Debug)]
#[command(about = "A Gomocup test engine that can misbehave on purpose")]
struct Args {
    /// How to misbehave.
    #[arg(long, value_enum, default_value = "good")]
    mode: Mode,
    /// The move request (1-based, per game) on which to misbehave.
    #[arg(long, default_value_t = 1)]
    after: u32,
    /// Delay for `late` and `slow-ok`, in ms.
    #[arg(long, default_value_t = 0)]
    delay_ms: u64,
    /// Thinking time for every move, in ms.
    #[arg(long, default_value_t = 0)]
    think_ms: u64,
    /// Move choice.
    #[arg(long, value_enum, default_value = "greedy")]
    play: Play,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Moves to play first, e.g. "7,7 8,8" (occupied ones are skipped).
    #[arg(long)]
    script: Option<String>,
    /// Name reported by ABOUT.
    #[arg(long, default_value = "dummy")]
    name: String,
    /// MiB to allocate in `hog` mode.
    #[arg(long, default_value_t = 64)]
    hog_mb: usize,
    /// Print a MESSAGE line before every move.
    #[arg(long)]
    message: bool,
}

struct State {
    args: Args,
    board: Option<Board>,
    rule: Rule,
    requests: u32,
    script_pos: usize,
    waiting_for_stop: bool,
    rng: Rng,
    hog: Vec<Vec<u8>>,
}

fn say(lines: &[String]) {
    let mut out = io::stdout().lock();
    for l in lines {
        let _ = writeln!(out, "{l}");
    }
    let _ = out.flush();
}

fn parse_xy(s: &str) -> Option<(usize, usize)> {
    let mut it = s.trim().split(',');
    let x = it.next()?.trim().parse().ok()?;
    let y = it.next()?.trim().parse().ok()?;
    Some((x, y))
}

impl State {
    fn new_game(&mut self, w: usize, h: usize) -> bool {
        match Board::new(w, h) {
            Ok(b) => {
                self.board = Some(b);
                self.requests = 0;
                self.script_pos = 0;
                true
            }
            Err(_) => false,
        }
    }

    fn to_move(&self) -> Color {
        let b = self.board.as_ref().expect("board");
        if b.stone_count().is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    }

    fn place(&mut self, x: usize, y: usize) {
        let color = self.to_move();
        if let Some(b) = self.board.as_mut() {
            if x < b.width() && y < b.height() && b.is_empty(Pos::new(x, y)) {
                b.place(Pos::new(x, y), Cell::Stone(color));
            }
        }
    }

    /// Choose, play and print a move, misbehaving if this is the chosen request.
    fn request_move(&mut self) {
        if self.board.is_none() {
            say(&["ERROR no game started".into()]);
            return;
        }
        self.requests += 1;
        let act = self.requests == self.args.after;
        if self.args.think_ms > 0 {
            std::thread::sleep(Duration::from_millis(self.args.think_ms));
        }
        if act {
            match self.args.mode {
                Mode::Crash => std::process::exit(3),
                Mode::Timeout => return,
                Mode::WaitStop => {
                    self.waiting_for_stop = true;
                    return;
                }
                Mode::Late => std::thread::sleep(Duration::from_millis(self.args.delay_ms)),
                Mode::Occupied => {
                    let b = self.board.as_ref().expect("board");
                    if let Some(p) = b.positions().find(|&p| !b.is_empty(p)) {
                        say(&[format!("{},{}", p.x(), p.y())]);
                        return;
                    }
                }
                Mode::Offboard => {
                    let w = self.board.as_ref().expect("board").width();
                    say(&[format!("{w},0")]);
                    return;
                }
                Mode::Garbage => {
                    say(&["this is not a move".into()]);
                    return;
                }
                Mode::ErrorMove => {
                    say(&["ERROR cannot think".into()]);
                    return;
                }
                Mode::AnswerTwice => {
                    let first = self.choose();
                    self.place(first.x(), first.y());
                    let second = self.choose();
                    say(&[
                        format!("{},{}", first.x(), first.y()),
                        format!("{},{}", second.x(), second.y()),
                    ]);
                    return;
                }
                Mode::Hog => {
                    let mut v = vec![0u8; self.args.hog_mb << 20];
                    for i in (0..v.len()).step_by(4096) {
                        v[i] = 1;
                    }
                    self.hog.push(v);
                }
                _ => {}
            }
        }
        self.answer();
    }

    fn answer(&mut self) {
        let p = self.choose();
        self.place(p.x(), p.y());
        let mut lines = Vec::new();
        if self.args.message {
            lines.push(format!("MESSAGE move {} of this game", self.requests));
        }
        lines.push(format!("{},{}", p.x(), p.y()));
        say(&lines);
    }

    fn choose(&mut self) -> Pos {
        let b = self.board.as_ref().expect("board").clone();
        if let Some(script) = &self.args.script {
            let moves: Vec<(usize, usize)> =
                script.split_whitespace().filter_map(parse_xy).collect();
            while self.script_pos < moves.len() {
                let (x, y) = moves[self.script_pos];
                self.script_pos += 1;
                if x < b.width() && y < b.height() && b.is_empty(Pos::new(x, y)) {
                    return Pos::new(x, y);
                }
            }
        }
        let empty: Vec<Pos> = b.empty_positions().collect();
        if empty.is_empty() {
            return Pos::new(0, 0);
        }
        match self.args.play {
            Play::First => empty[0],
            Play::Random => {
                let near = near_stones(&b, &empty);
                let pool = if near.is_empty() { &empty } else { &near };
                pool[self.rng.below(pool.len())]
            }
            Play::Greedy => self.greedy(&b, &empty),
        }
    }

    fn greedy(&mut self, b: &Board, empty: &[Pos]) -> Pos {
        let me = self.to_move();
        let rule = self.rule;
        let mut scratch = b.clone();
        let legal = |p: Pos, scratch: &mut Board| {
            !(rule.has_fouls_for(me)
                && !is_winning_move(scratch, p, me, rule)
                && renju_foul(scratch, p).is_some())
        };
        if b.stone_count() == 0 {
            return b.center();
        }
        if let Some(&p) = empty.iter().find(|&&p| is_winning_move(b, p, me, rule)) {
            return p;
        }
        if let Some(&p) = empty
            .iter()
            .find(|&&p| is_winning_move(b, p, me.opponent(), rule) && legal(p, &mut scratch))
        {
            return p;
        }
        let near = near_stones(b, empty);
        let pool = if near.is_empty() {
            empty.to_vec()
        } else {
            near
        };
        let mut best = (i64::MIN, pool[0]);
        for p in pool {
            if !legal(p, &mut scratch) {
                continue;
            }
            let score = line_score(b, p, me) * 3
                + line_score(b, p, me.opponent()) * 2
                + self.rng.below(8) as i64;
            if score > best.0 {
                best = (score, p);
            }
        }
        best.1
    }
}

/// Empty squares within two of a stone.
fn near_stones(b: &Board, empty: &[Pos]) -> Vec<Pos> {
    empty
        .iter()
        .copied()
        .filter(|p| {
            (-2..=2).any(|dy: isize| {
                (-2..=2).any(|dx: isize| {
                    b.pos_at(p.x() as isize + dx, p.y() as isize + dy)
                        .is_some_and(|q| matches!(b.cell(q), Cell::Stone(_)))
                })
            })
        })
        .collect()
}

/// Sum over directions of 4^(stones of `c` in a row through `p`).
fn line_score(b: &Board, p: Pos, c: Color) -> i64 {
    let mut total = 0;
    for dir in Direction::ALL {
        let (dx, dy) = dir.step();
        let mut run = 0;
        for sign in [1isize, -1] {
            let (mut x, mut y) = (p.x() as isize, p.y() as isize);
            loop {
                x += sign * dx;
                y += sign * dy;
                match b.pos_at(x, y) {
                    Some(q) if b.cell(q) == Cell::Stone(c) => run += 1,
                    _ => break,
                }
            }
        }
        total += 4i64.pow(run.min(6));
    }
    total
}

fn main() {
    let args = Args::parse();
    let seed = args.seed;
    let mut st = State {
        args,
        board: None,
        rule: Rule::Freestyle,
        requests: 0,
        script_pos: 0,
        waiting_for_stop: false,
        rng: Rng::new(seed),
        hog: Vec::new(),
    };
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    while let Some(Ok(raw)) = lines.next() {
        let line = raw.trim().to_string();
        if line.is_empty() {
            continue;
        }
        let (cmd, rest) = match line.split_once(' ') {
            Some((c, r)) => (c.to_ascii_uppercase(), r.trim().to_string()),
            None => (line.to_ascii_uppercase(), String::new()),
        };
        match cmd.as_str() {
            "ABOUT" => say(&[format!(
                "name=\"{}\", version=\"1.0\", author=\"rensa-bench\", country=\"CZ\"",
                st.args.name
            )]),
            "START" | "RECTSTART" => {
                let (w, h) = if cmd == "START" {
                    let n = rest.parse().unwrap_or(0);
                    (n, n)
                } else {
                    parse_xy(&rest).unwrap_or((0, 0))
                };
                match st.args.mode {
                    Mode::NoOk => continue,
                    Mode::ErrorStart => {
                        say(&["ERROR this size is not supported".into()]);
                        continue;
                    }
                    Mode::SlowOk => std::thread::sleep(Duration::from_millis(st.args.delay_ms)),
                    _ => {}
                }
                if st.new_game(w, h) {
                    if st.args.mode == Mode::OkTwice {
                        say(&["OK".into(), "OK".into()]);
                    } else {
                        say(&["OK".into()]);
                    }
                } else {
                    say(&["ERROR unsupported size".into()]);
                }
            }
            "RESTART" => {
                if let Some(b) = &st.board {
                    let (w, h) = (b.width(), b.height());
                    st.new_game(w, h);
                }
                say(&["OK".into()]);
            }
            "INFO" => {
                let mut it = rest.split_whitespace();
                if let (Some(k), Some(v)) = (it.next(), it.next()) {
                    if k.eq_ignore_ascii_case("rule") {
                        if let Some((r, _)) = v.parse().ok().and_then(Rule::from_code) {
                            st.rule = r;
                        }
                    }
                }
            }
            "BEGIN" => st.request_move(),
            "TURN" => {
                if let Some((x, y)) = parse_xy(&rest) {
                    st.place(x, y);
                }
                st.request_move();
            }
            "BOARD" => {
                let mut stones = Vec::new();
                for l in lines.by_ref() {
                    let Ok(l) = l else { break };
                    let l = l.trim().to_string();
                    if l.eq_ignore_ascii_case("DONE") {
                        break;
                    }
                    let f: Vec<usize> =
                        l.split(',').filter_map(|s| s.trim().parse().ok()).collect();
                    if f.len() == 3 {
                        stones.push((f[0], f[1], f[2]));
                    }
                }
                if let Some(b) = &st.board {
                    let (w, h) = (b.width(), b.height());
                    st.new_game_keep_count(w, h);
                }
                let me = if stones.len().is_multiple_of(2) {
                    Color::Black
                } else {
                    Color::White
                };
                if let Some(b) = st.board.as_mut() {
                    for (x, y, f) in stones {
                        let c = if f == 1 { me } else { me.opponent() };
                        if x < b.width() && y < b.height() && b.is_empty(Pos::new(x, y)) {
                            b.place(Pos::new(x, y), Cell::Stone(c));
                        }
                    }
                }
                st.request_move();
            }
            "YXSTOP" | "STOP" => {
                if st.waiting_for_stop {
                    st.waiting_for_stop = false;
                    st.answer();
                }
            }
            "END" => {
                if st.args.mode != Mode::IgnoreEnd {
                    return;
                }
            }
            _ => say(&[format!("UNKNOWN {cmd}")]),
        }
    }
}

impl State {
    /// Clear the board for a BOARD command without resetting the per-game counters.
    fn new_game_keep_count(&mut self, w: usize, h: usize) {
        if let Ok(b) = Board::new(w, h) {
            self.board = Some(b);
        }
    }
}
