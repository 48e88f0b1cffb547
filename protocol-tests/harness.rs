//! Black-box harness: spawns `pbrain-rensa`, talks to it over pipes, and
//! records a transcript that is printed when a test fails.
//!
//! Every engine gets three helper threads: one reading stdout line by line
//! into a channel (each line stamped with the instant it was read, so that
//! timing assertions do not depend on when the test thread wakes up), one
//! draining stderr into a buffer (kept for diagnostics), and the test thread
//! itself, which writes to stdin.

#![allow(dead_code)]

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::thread;
use std::time::{Duration, Instant};

/// Path of the binary under test, provided by cargo for integration tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_pbrain-rensa");

/// The engine to run: `BIN`, unless the environment variable
/// `RENSA_PROTOCOL_ENGINE` names another executable (to check the suite
/// itself against a different engine).
pub fn engine_path() -> String {
    std::env::var("RENSA_PROTOCOL_ENGINE").unwrap_or_else(|_| BIN.to_string())
}

/// Generous default timeout for a reply when the test does not measure time.
pub const REPLY: Duration = Duration::from_secs(15);
/// Timeout for replies that need no search (OK, ERROR, UNKNOWN, ABOUT, ...).
pub const QUICK: Duration = Duration::from_secs(5);
/// How long we listen to make sure that the engine stays silent.
pub const SILENCE: Duration = Duration::from_millis(300);
/// Upper bound used for "exit within 500 ms" (END / EOF). The spec says 500 ms;
/// the CI machine has 2 cores and may be loaded by other test engines, so we
/// allow 1000 ms of wall clock between writing END and reaping the process.
pub const EXIT_BOUND: Duration = Duration::from_millis(1000);

// ---------------------------------------------------------------------------
// Serialisation of timing-sensitive tests
// ---------------------------------------------------------------------------

static CPU: RwLock<()> = RwLock::new(());

/// Ordinary tests share the machine.
pub fn shared() -> RwLockReadGuard<'static, ()> {
    CPU.read().unwrap_or_else(|e| e.into_inner())
}

/// Tests that measure wall-clock time run alone, so that another test's engine
/// searching on both cores cannot make them flaky.
pub fn exclusive() -> RwLockWriteGuard<'static, ()> {
    CPU.write().unwrap_or_else(|e| e.into_inner())
}

// ---------------------------------------------------------------------------
// Moves
// ---------------------------------------------------------------------------

pub type Mv = (u32, u32);

/// Parses a move that must match `^\d+,\d+$` exactly (no spaces, no sign, no
/// trailing text), as c-gomoku-cli and GomocupJudge require.
pub fn try_parse_move(s: &str) -> Option<Mv> {
    let (a, b) = s.split_once(',')?;
    let num = |t: &str| -> Option<u32> {
        if t.is_empty() || t.len() > 6 || !t.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        t.parse().ok()
    };
    Some((num(a)?, num(b)?))
}

pub fn parse_move(s: &str) -> Mv {
    try_parse_move(s).unwrap_or_else(|| panic!("expected a move matching ^\\d+,\\d+$, got {s:?}"))
}

/// Parses a line of moves separated by single spaces (SWAP2BOARD answers).
pub fn parse_moves(s: &str) -> Vec<Mv> {
    s.split(' ').map(parse_move).collect()
}

pub fn fmt_mv(m: Mv) -> String {
    format!("{},{}", m.0, m.1)
}

// ---------------------------------------------------------------------------
// Tiny board model
// ---------------------------------------------------------------------------

pub const EMPTY: u8 = 0;
pub const OWN: u8 = 1;
pub const OPP: u8 = 2;
pub const BLOCKED: u8 = 3;

/// The test's own copy of the position, used to check that every reply is on
/// the board and on an empty square.
#[derive(Clone, Debug)]
pub struct Board {
    pub w: u32,
    pub h: u32,
    cells: Vec<u8>,
    pub history: Vec<(u32, u32, u8)>,
}

impl Board {
    pub fn new(w: u32, h: u32) -> Board {
        Board {
            w,
            h,
            cells: vec![EMPTY; (w * h) as usize],
            history: Vec::new(),
        }
    }

    pub fn square(n: u32) -> Board {
        Board::new(n, n)
    }

    pub fn on_board(&self, m: Mv) -> bool {
        m.0 < self.w && m.1 < self.h
    }

    pub fn get(&self, m: Mv) -> u8 {
        assert!(
            self.on_board(m),
            "{m:?} is off a {}x{} board",
            self.w,
            self.h
        );
        self.cells[(m.1 * self.w + m.0) as usize]
    }

    pub fn is_empty(&self, m: Mv) -> bool {
        self.on_board(m) && self.get(m) == EMPTY
    }

    pub fn place(&mut self, m: Mv, v: u8) {
        assert!(
            self.is_empty(m),
            "test bug or engine bug: {m:?} is not an empty on-board square"
        );
        self.cells[(m.1 * self.w + m.0) as usize] = v;
        self.history.push((m.0, m.1, v));
    }

    pub fn remove(&mut self, m: Mv) {
        assert!(!self.is_empty(m));
        self.cells[(m.1 * self.w + m.0) as usize] = EMPTY;
        self.history.retain(|&(x, y, _)| (x, y) != m);
    }

    /// Asserts that a reply is a legal move here.
    pub fn assert_playable(&self, m: Mv, context: &str) {
        assert!(
            self.on_board(m),
            "{context}: engine replied {m:?}, off the {}x{} board",
            self.w,
            self.h
        );
        assert!(
            self.get(m) == EMPTY,
            "{context}: engine replied {m:?}, an occupied square (holds {})",
            self.get(m)
        );
    }

    /// First empty square in scan order starting from `from` (wrapping), used
    /// to pick the test's own moves without thinking.
    pub fn next_empty(&self, from: Mv) -> Mv {
        let n = self.w * self.h;
        let start = from.1 * self.w + from.0;
        for i in 0..n {
            let k = (start + i) % n;
            let m = (k % self.w, k / self.w);
            if self.is_empty(m) {
                return m;
            }
        }
        panic!("board full");
    }

    pub fn count(&self, v: u8) -> usize {
        self.cells.iter().filter(|&&c| c == v).count()
    }

    /// The BOARD/YXBOARD block lines for this position, in history order.
    pub fn block_lines(&self) -> Vec<String> {
        self.history
            .iter()
            .map(|&(x, y, f)| format!("{x},{y},{f}"))
            .collect()
    }
}

// ---------------------------------------------------------------------------
// The engine process
// ---------------------------------------------------------------------------

enum Event {
    Line(Instant, String),
    Eof(Instant),
}

/// One reply: the first line that is not a `MESSAGE `/`DEBUG ` line, the
/// chatter skipped before it, and when it was read.
#[derive(Debug)]
pub struct Reply {
    pub line: String,
    pub messages: Vec<String>,
    pub at: Instant,
}

pub fn is_chatter(line: &str) -> bool {
    line.starts_with("MESSAGE ") || line.starts_with("DEBUG ")
}

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Event>,
    stderr: Arc<Mutex<Vec<u8>>>,
    log: Arc<Mutex<String>>,
    spawned: Instant,
    eof_seen: bool,
    exited: Option<ExitStatus>,
    diag_shown: std::cell::Cell<bool>,
    pub pid: u32,
}

impl Engine {
    pub fn spawn() -> Engine {
        let path = engine_path();
        let mut child = Command::new(&path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot spawn {path}: {e}"));
        let spawned = Instant::now();
        let pid = child.id();
        let stdout = child.stdout.take().unwrap();
        let mut stderr_pipe = child.stderr.take().unwrap();
        let stdin = child.stdin.take();
        let log = Arc::new(Mutex::new(String::new()));
        let stderr = Arc::new(Mutex::new(Vec::new()));

        let (tx, rx) = channel();
        let log2 = Arc::clone(&log);
        thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => {
                        let now = Instant::now();
                        let _ = writeln!(
                            log2.lock().unwrap(),
                            "{:>7} ms <EOF on stdout>",
                            now.duration_since(spawned).as_millis()
                        );
                        let _ = tx.send(Event::Eof(now));
                        return;
                    }
                    Ok(_) => {
                        let now = Instant::now();
                        while buf.last() == Some(&b'\n') || buf.last() == Some(&b'\r') {
                            buf.pop();
                        }
                        let line = String::from_utf8_lossy(&buf).into_owned();
                        let _ = writeln!(
                            log2.lock().unwrap(),
                            "{:>7} ms < {line}",
                            now.duration_since(spawned).as_millis()
                        );
                        if tx.send(Event::Line(now, line)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let stderr2 = Arc::clone(&stderr);
        thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            loop {
                match stderr_pipe.read(&mut chunk) {
                    Ok(0) | Err(_) => return,
                    Ok(n) => stderr2.lock().unwrap().extend_from_slice(&chunk[..n]),
                }
            }
        });
        Engine {
            child,
            stdin,
            rx,
            stderr,
            log,
            spawned,
            eof_seen: false,
            exited: None,
            diag_shown: std::cell::Cell::new(false),
            pid,
        }
    }

    pub fn spawned_at(&self) -> Instant {
        self.spawned
    }

    fn note(&self, what: &str) {
        let t = self.spawned.elapsed().as_millis();
        let _ = writeln!(self.log.lock().unwrap(), "{t:>7} ms {what}");
    }

    /// The transcript so far and the end of stderr, for failure messages.
    pub fn diagnostics(&self) -> String {
        self.diag_shown.set(true);
        let log = self.log.lock().unwrap().clone();
        let err = self.stderr_text();
        let tail: String = {
            let chars: Vec<char> = err.chars().collect();
            let from = chars.len().saturating_sub(4000);
            chars[from..].iter().collect()
        };
        format!(
            "--- transcript (pid {}) ---\n{log}--- stderr (tail) ---\n{tail}\n---",
            self.pid
        )
    }

    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }

    /// Writes a command line terminated by LF and flushes. Returns the instant
    /// just after the write, the start of the engine's clock for the command.
    pub fn send(&mut self, line: &str) -> Instant {
        self.send_raw_inner(format!("{line}\n").as_bytes(), &format!("> {line}"))
    }

    /// Writes a command line terminated by CR LF.
    pub fn send_crlf(&mut self, line: &str) -> Instant {
        self.send_raw_inner(format!("{line}\r\n").as_bytes(), &format!("> {line}\\r"))
    }

    /// Writes several lines (LF) in one go.
    pub fn send_lines<S: AsRef<str>>(&mut self, lines: &[S]) -> Instant {
        let mut at = Instant::now();
        for l in lines {
            at = self.send(l.as_ref());
        }
        at
    }

    /// Writes bytes as they are.
    pub fn send_raw(&mut self, bytes: &[u8]) -> Instant {
        let shown = format!("> (raw) {:?}", String::from_utf8_lossy(bytes));
        self.send_raw_inner(bytes, &shown)
    }

    fn send_raw_inner(&mut self, bytes: &[u8], shown: &str) -> Instant {
        self.note(shown);
        let res = match self.stdin.as_mut() {
            Some(w) => w.write_all(bytes).and_then(|_| w.flush()),
            None => panic!("stdin already closed\n{}", self.diagnostics()),
        };
        if let Err(e) = res {
            panic!(
                "writing to the engine failed ({e}); did it exit?\n{}",
                self.diagnostics()
            );
        }
        Instant::now()
    }

    /// Closes the engine's stdin (EOF).
    pub fn close_stdin(&mut self) -> Instant {
        self.note("> <close stdin>");
        self.stdin.take();
        Instant::now()
    }

    fn next_event(&mut self, deadline: Instant) -> Option<Event> {
        let now = Instant::now();
        let wait = deadline.saturating_duration_since(now);
        match self.rx.recv_timeout(wait) {
            Ok(ev) => Some(ev),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(Event::Eof(Instant::now())),
        }
    }

    /// The next stdout line, with the instant it was read.
    pub fn expect_line_at(&mut self, timeout: Duration) -> (String, Instant) {
        let deadline = Instant::now() + timeout;
        match self.next_event(deadline) {
            Some(Event::Line(at, l)) => (l, at),
            Some(Event::Eof(_)) => {
                self.eof_seen = true;
                panic!(
                    "engine closed stdout while a line was expected\n{}",
                    self.diagnostics()
                )
            }
            None => panic!(
                "no line from the engine within {timeout:?}\n{}",
                self.diagnostics()
            ),
        }
    }

    pub fn expect_line(&mut self, timeout: Duration) -> String {
        self.expect_line_at(timeout).0
    }

    /// Skips `MESSAGE `/`DEBUG ` lines and returns the first other line.
    pub fn expect_reply(&mut self, timeout: Duration) -> Reply {
        let deadline = Instant::now() + timeout;
        let mut messages = Vec::new();
        loop {
            match self.next_event(deadline) {
                Some(Event::Line(at, l)) => {
                    if is_chatter(&l) {
                        messages.push(l);
                    } else {
                        return Reply {
                            line: l,
                            messages,
                            at,
                        };
                    }
                }
                Some(Event::Eof(_)) => {
                    self.eof_seen = true;
                    panic!(
                        "engine closed stdout while a reply was expected\n{}",
                        self.diagnostics()
                    )
                }
                None => panic!(
                    "no reply from the engine within {timeout:?}\n{}",
                    self.diagnostics()
                ),
            }
        }
    }

    /// Like `expect_reply`, but also skips Yixin-style `INFO ...` analysis
    /// lines that an engine may print after `INFO show_detail`.
    pub fn expect_reply_yixin(&mut self, timeout: Duration) -> Reply {
        let deadline = Instant::now() + timeout;
        let mut messages = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let r = self.expect_reply(left);
            messages.extend(r.messages);
            if r.line.starts_with("INFO ") {
                messages.push(r.line);
                continue;
            }
            return Reply {
                line: r.line,
                messages,
                at: r.at,
            };
        }
    }

    /// A reply that must be a move `x,y`.
    pub fn expect_move(&mut self, timeout: Duration) -> Mv {
        let r = self.expect_reply(timeout);
        self.move_of(&r)
    }

    pub fn move_of(&self, r: &Reply) -> Mv {
        try_parse_move(&r.line).unwrap_or_else(|| {
            panic!(
                "expected a move ^\\d+,\\d+$, got {:?}\n{}",
                r.line,
                self.diagnostics()
            )
        })
    }

    /// A reply that must be exactly `want`.
    pub fn expect_exact(&mut self, want: &str, timeout: Duration) -> Reply {
        let r = self.expect_reply(timeout);
        assert_eq!(
            r.line,
            want,
            "wrong reply (wanted exactly {want:?})\n{}",
            self.diagnostics()
        );
        r
    }

    pub fn expect_ok(&mut self) -> Reply {
        self.expect_exact("OK", QUICK)
    }

    /// A reply that must start with `ERROR` (the spec: `ERROR <reason>`).
    pub fn expect_error(&mut self, what: &str) -> Reply {
        let r = self.expect_reply(QUICK);
        assert!(
            r.line == "ERROR" || r.line.starts_with("ERROR "),
            "{what}: wanted an `ERROR <reason>` line, got {:?}\n{}",
            r.line,
            self.diagnostics()
        );
        r
    }

    /// Nothing at all may arrive on stdout for `dur`.
    pub fn expect_silence(&mut self, dur: Duration) {
        let deadline = Instant::now() + dur;
        match self.next_event(deadline) {
            None => {}
            Some(Event::Line(_, l)) => panic!(
                "expected no output for {dur:?}, got {l:?}\n{}",
                self.diagnostics()
            ),
            Some(Event::Eof(_)) => {
                self.eof_seen = true;
                panic!(
                    "expected no output for {dur:?}, but the engine closed stdout\n{}",
                    self.diagnostics()
                )
            }
        }
    }

    /// Only `MESSAGE `/`DEBUG ` lines may arrive for `dur`; returns them.
    pub fn expect_quiet(&mut self, dur: Duration) -> Vec<String> {
        let deadline = Instant::now() + dur;
        let mut msgs = Vec::new();
        loop {
            match self.next_event(deadline) {
                None => return msgs,
                Some(Event::Line(_, l)) if is_chatter(&l) => msgs.push(l),
                Some(Event::Line(_, l)) => panic!(
                    "expected at most MESSAGE/DEBUG lines for {dur:?}, got {l:?}\n{}",
                    self.diagnostics()
                ),
                Some(Event::Eof(_)) => {
                    self.eof_seen = true;
                    panic!(
                        "expected the engine to keep running, but it closed stdout\n{}",
                        self.diagnostics()
                    )
                }
            }
        }
    }

    /// For `dur`, accepts MESSAGE/DEBUG lines and at most one `ERROR` line;
    /// returns that line if it came.
    pub fn expect_at_most_one_error(&mut self, dur: Duration) -> Option<String> {
        let deadline = Instant::now() + dur;
        let mut err = None;
        loop {
            match self.next_event(deadline) {
                None => return err,
                Some(Event::Line(_, l)) if is_chatter(&l) => {}
                Some(Event::Line(_, l)) if err.is_none() && l.starts_with("ERROR") => err = Some(l),
                Some(Event::Line(_, l)) => panic!(
                    "expected nothing but MESSAGE/DEBUG and at most one ERROR, got {l:?}\n{}",
                    self.diagnostics()
                ),
                Some(Event::Eof(_)) => {
                    self.eof_seen = true;
                    panic!("the engine closed stdout\n{}", self.diagnostics())
                }
            }
        }
    }

    /// Waits for the process to exit; panics after `timeout`.
    pub fn expect_exit(&mut self, timeout: Duration) -> ExitStatus {
        if let Some(st) = self.exited {
            return st;
        }
        let deadline = Instant::now() + timeout;
        loop {
            match self.child.try_wait() {
                Ok(Some(st)) => {
                    self.note(&format!("<exited: {st}>"));
                    self.exited = Some(st);
                    return st;
                }
                Ok(None) => {}
                Err(e) => panic!("try_wait failed: {e}"),
            }
            if Instant::now() >= deadline {
                panic!(
                    "engine did not exit within {timeout:?}\n{}",
                    self.diagnostics()
                );
            }
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// Asserts that the process is still alive.
    pub fn assert_alive(&mut self, context: &str) {
        match self.child.try_wait() {
            Ok(None) => {}
            Ok(Some(st)) => panic!("{context}: engine exited ({st})\n{}", self.diagnostics()),
            Err(e) => panic!("try_wait failed: {e}"),
        }
    }

    /// Asserts that stderr shows no Rust panic.
    pub fn assert_no_panic(&self) {
        let err = self.stderr_text();
        assert!(
            !err.contains("panicked at"),
            "the engine panicked\n{}",
            self.diagnostics()
        );
    }

    // --- convenience --------------------------------------------------------

    /// `ABOUT` must be answered by a line starting with `name=`; used at the
    /// end of sessions to prove that no stray line is pending.
    pub fn expect_about(&mut self) -> String {
        self.send("ABOUT");
        let r = self.expect_reply(QUICK);
        assert!(
            r.line.starts_with("name="),
            "ABOUT: wanted a line starting with name=, got {:?} (a stray line left over from an \
             earlier command?)\n{}",
            r.line,
            self.diagnostics()
        );
        r.line
    }

    /// Ends a session: checks that nothing is pending, sends END, and expects
    /// a clean exit within the bound.
    pub fn finish(mut self) {
        self.expect_about();
        let t = self.send("END");
        let st = self.expect_exit(Duration::from_secs(5));
        let dt = t.elapsed();
        assert!(
            dt <= EXIT_BOUND,
            "END: exit took {dt:?} (> {EXIT_BOUND:?})\n{}",
            self.diagnostics()
        );
        assert!(
            st.success(),
            "END: exit status {st}\n{}",
            self.diagnostics()
        );
        self.assert_no_panic();
    }

    /// `START n` → exactly `OK`.
    pub fn start(&mut self, n: u32) -> Board {
        self.send(&format!("START {n}"));
        self.expect_ok();
        Board::square(n)
    }

    /// Sends a command that must be answered by a move on an empty square of
    /// `b`; records the move as the engine's own stone and returns it.
    pub fn play(&mut self, b: &mut Board, cmd: &str, timeout: Duration) -> Mv {
        self.send(cmd);
        self.reply_move(b, cmd, timeout)
    }

    /// Reads a move answering `cmd` and records it in `b`.
    pub fn reply_move(&mut self, b: &mut Board, cmd: &str, timeout: Duration) -> Mv {
        let r = self.expect_reply(timeout);
        let m = self.move_of(&r);
        if !b.is_empty(m) {
            panic!(
                "{cmd}: engine replied {m:?}, not an empty square of the {}x{} board\n{}",
                b.w,
                b.h,
                self.diagnostics()
            );
        }
        b.place(m, OWN);
        m
    }

    pub fn begin(&mut self, b: &mut Board) -> Mv {
        self.play(b, "BEGIN", REPLY)
    }

    /// `TURN x,y` for the opponent's move; returns the engine's answer.
    pub fn turn(&mut self, b: &mut Board, m: Mv) -> Mv {
        b.place(m, OPP);
        self.play(b, &format!("TURN {},{}", m.0, m.1), REPLY)
    }

    /// Sends `BOARD` with `stones` (x, y, field) then `DONE` and returns the
    /// engine's move; `b` is replaced by the position plus that move.
    pub fn board(&mut self, b: &mut Board, stones: &[(u32, u32, u8)]) -> Mv {
        self.send_board_block("BOARD", b, stones);
        self.reply_move(b, "BOARD", REPLY)
    }

    /// Sends a `BOARD`/`YXBOARD` block and resets `b` to it (no reply read).
    pub fn send_board_block(&mut self, cmd: &str, b: &mut Board, stones: &[(u32, u32, u8)]) {
        *b = Board::new(b.w, b.h);
        let mut lines = vec![cmd.to_string()];
        for &(x, y, f) in stones {
            b.place((x, y), f);
            lines.push(format!("{x},{y},{f}"));
        }
        lines.push("DONE".to_string());
        self.send_lines(&lines);
    }

    /// Sends a BOARD block and returns the instant the last line was written
    /// (the start of the engine's clock for the move).
    pub fn send_board_block_timed(&mut self, b: &mut Board, s: &[(u32, u32, u8)]) -> Instant {
        self.send_board_block("BOARD", b, s);
        Instant::now()
    }

    /// Peak resident set size (VmHWM) in bytes.
    #[cfg(target_os = "linux")]
    pub fn peak_rss_bytes(&self) -> u64 {
        let s = std::fs::read_to_string(format!("/proc/{}/status", self.pid))
            .expect("read /proc/<pid>/status");
        let line = s
            .lines()
            .find(|l| l.starts_with("VmHWM:"))
            .expect("VmHWM line");
        let kb: u64 = line
            .split_whitespace()
            .nth(1)
            .and_then(|v| v.parse().ok())
            .expect("VmHWM value");
        kb * 1024
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if thread::panicking() && !self.diag_shown.get() {
            eprintln!("{}", self.diagnostics());
        }
        self.stdin.take();
        if self.exited.is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Stones as (x, y, field) from two lists.
pub fn stones(own: &[Mv], opp: &[Mv]) -> Vec<(u32, u32, u8)> {
    // Interleave so the list looks like a game record (black first is up to
    // the caller: the first list goes first).
    let mut v = Vec::new();
    let n = own.len().max(opp.len());
    for i in 0..n {
        if let Some(&(x, y)) = own.get(i) {
            v.push((x, y, OWN));
        }
        if let Some(&(x, y)) = opp.get(i) {
            v.push((x, y, OPP));
        }
    }
    v
}

/// Like `stones`, but the opponent's stones come first in each pair (the
/// opponent is Black).
pub fn stones_opp_first(own: &[Mv], opp: &[Mv]) -> Vec<(u32, u32, u8)> {
    let mut v = Vec::new();
    let n = own.len().max(opp.len());
    for i in 0..n {
        if let Some(&(x, y)) = opp.get(i) {
            v.push((x, y, OPP));
        }
        if let Some(&(x, y)) = own.get(i) {
            v.push((x, y, OWN));
        }
    }
    v
}

/// Parses a `FORBID XXYYXXYY....` line into points; panics on bad shape.
pub fn parse_forbid(line: &str) -> Vec<Mv> {
    let body = line
        .strip_prefix("FORBID ")
        .unwrap_or_else(|| panic!("wanted a `FORBID ...` line, got {line:?}"));
    let digits = body
        .strip_suffix('.')
        .unwrap_or_else(|| panic!("FORBID line must end with '.', got {line:?}"));
    assert!(
        digits.len().is_multiple_of(4) && digits.bytes().all(|c| c.is_ascii_digit()),
        "FORBID points must be 4-digit XXYY groups, got {line:?}"
    );
    let mut v: Vec<Mv> = digits
        .as_bytes()
        .chunks(4)
        .map(|c| {
            let s = std::str::from_utf8(c).unwrap();
            (s[..2].parse().unwrap(), s[2..].parse().unwrap())
        })
        .collect();
    v.sort();
    v
}
