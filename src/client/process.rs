//! One running engine process: spawning it in its own directory and process group, a
//! reader thread that timestamps every line it prints, writing commands, waiting for
//! replies with deadlines, suspending and resuming it, and shutting it down.

use super::spec::EngineSpec;
use super::sys;
use crossbeam_channel::{Receiver, RecvTimeoutError};
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A line (or the end of output) received from an engine, stamped by the reader thread.
#[derive(Clone, Debug)]
pub struct Received {
    /// When the reader thread got it.
    pub at: Instant,
    /// The line without its line ending, or None at end of output (the engine exited or
    /// closed stdout).
    pub line: Option<String>,
}

/// Outcome of waiting for a line.
#[derive(Clone, Debug)]
pub enum Recv {
    /// A line arrived at the given instant.
    Line(Instant, String),
    /// The engine's output ended (crash or exit).
    Eof(Instant),
    /// The deadline passed first.
    Timeout,
}

/// A log of all engine I/O with millisecond timestamps, shared by all workers.
pub struct IoLog {
    start: Instant,
    out: Mutex<BufWriter<File>>,
}

impl IoLog {
    /// Create (truncate) the log file.
    pub fn create(path: &Path) -> io::Result<IoLog> {
        Ok(IoLog {
            start: Instant::now(),
            out: Mutex::new(BufWriter::new(File::create(path)?)),
        })
    }

    /// Record one line: `dir` is `<` for engine output, `>` for runner input.
    pub fn line(&self, at: Instant, who: &str, dir: char, text: &str) {
        let t = at.saturating_duration_since(self.start).as_secs_f64();
        if let Ok(mut out) = self.out.lock() {
            let _ = writeln!(out, "[{t:10.3}] {who} {dir} {text}");
        }
    }

    /// Flush to disk.
    pub fn flush(&self) {
        if let Ok(mut out) = self.out.lock() {
            let _ = out.flush();
        }
    }
}

/// A running engine process.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Received>,
    pid: u32,
    label: String,
    log: Option<Arc<IoLog>>,
    crlf: bool,
    suspended: bool,
    ended: bool,
    buf: String,
}

impl EngineProcess {
    /// Start the engine's program with its arguments, in its working directory and in a
    /// new process group. `label` names it in logs; `crlf` selects CR LF line endings
    /// (GomocupJudge) instead of LF (c-gomoku-cli on POSIX).
    pub fn spawn(
        spec: &EngineSpec,
        label: &str,
        log: Option<Arc<IoLog>>,
        crlf: bool,
    ) -> io::Result<EngineProcess> {
        let mut cmd = Command::new(&spec.program);
        cmd.args(&spec.args)
            .current_dir(&spec.workdir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if spec.stderr {
                Stdio::inherit()
            } else {
                Stdio::null()
            });
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd.spawn().map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("cannot start {}: {e}", spec.program.display()),
            )
        })?;
        let pid = child.id();
        sys::register(pid);
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = crossbeam_channel::unbounded();
        let thread_log = log.clone();
        let thread_label = label.to_string();
        std::thread::Builder::new()
            .name(format!("read-{label}"))
            .spawn(move || {
                let mut reader = BufReader::with_capacity(1 << 14, stdout);
                let mut bytes = Vec::with_capacity(256);
                loop {
                    bytes.clear();
                    match reader.read_until(b'\n', &mut bytes) {
                        Ok(0) | Err(_) => {
                            let _ = tx.send(Received {
                                at: Instant::now(),
                                line: None,
                            });
                            return;
                        }
                        Ok(_) => {
                            let at = Instant::now();
                            while matches!(bytes.last(), Some(b'\n' | b'\r')) {
                                bytes.pop();
                            }
                            let line = String::from_utf8_lossy(&bytes).into_owned();
                            if let Some(log) = &thread_log {
                                log.line(at, &thread_label, '<', &line);
                            }
                            if tx
                                .send(Received {
                                    at,
                                    line: Some(line),
                                })
                                .is_err()
                            {
                                return;
                            }
                        }
                    }
                }
            })?;
        Ok(EngineProcess {
            child,
            stdin,
            rx,
            pid,
            label: label.to_string(),
            log,
            crlf,
            suspended: false,
            ended: false,
            buf: String::with_capacity(4096),
        })
    }

    /// Process id (also the process group id).
    pub fn pid(&self) -> u32 {
        self.pid
    }

    /// The label used in logs.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// True once the engine's output has ended (it exited or crashed).
    pub fn has_ended(&self) -> bool {
        self.ended
    }

    /// Write several command lines in one system call and return the instant just before
    /// the write (the start of the engine's time). An error means the engine is gone.
    pub fn send_lines<S: AsRef<str>>(&mut self, lines: &[S]) -> io::Result<Instant> {
        self.buf.clear();
        for l in lines {
            self.buf.push_str(l.as_ref());
            self.buf.push_str(if self.crlf { "\r\n" } else { "\n" });
        }
        let at = Instant::now();
        if let Some(log) = &self.log {
            for l in lines {
                log.line(at, &self.label, '>', l.as_ref());
            }
        }
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| io::Error::new(io::ErrorKind::BrokenPipe, "stdin closed"))?;
        stdin.write_all(self.buf.as_bytes())?;
        stdin.flush()?;
        Ok(at)
    }

    /// Write one command line.
    pub fn send(&mut self, line: &str) -> io::Result<Instant> {
        self.send_lines(&[line])
    }

    /// Wait for the next line until `deadline` (None = forever).
    pub fn recv(&mut self, deadline: Option<Instant>) -> Recv {
        let got = match deadline {
            None => self.rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
            Some(d) => self.rx.recv_deadline(d),
        };
        match got {
            Ok(Received {
                at,
                line: Some(line),
            }) => Recv::Line(at, line),
            Ok(Received { at, line: None }) => {
                self.ended = true;
                Recv::Eof(at)
            }
            Err(RecvTimeoutError::Timeout) => Recv::Timeout,
            Err(RecvTimeoutError::Disconnected) => {
                self.ended = true;
                Recv::Eof(Instant::now())
            }
        }
    }

    /// Take every line already received without waiting.
    pub fn drain(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        while let Ok(r) = self.rx.try_recv() {
            match r.line {
                Some(l) => out.push(l),
                None => self.ended = true,
            }
        }
        out
    }

    /// Stop the engine's processes (SIGSTOP) while it is not its turn.
    pub fn suspend(&mut self) {
        if !self.suspended && sys::suspend(self.pid) {
            self.suspended = true;
        }
    }

    /// Continue the engine's processes (SIGCONT).
    pub fn resume(&mut self) {
        if self.suspended {
            sys::resume(self.pid);
            self.suspended = false;
        }
    }

    /// Resident memory of the engine and its child processes, in bytes.
    pub fn rss_bytes(&self) -> Option<u64> {
        sys::tree_rss_bytes(self.pid)
    }

    /// Send `END`, give the engine `grace` to exit, then kill its process group.
    pub fn quit(mut self, grace: Duration) {
        self.resume();
        if !self.ended && self.send("END").is_ok() {
            let deadline = Instant::now() + grace;
            while !self.ended {
                if let Recv::Timeout = self.recv(Some(deadline)) {
                    break;
                }
            }
        }
        // Dropping kills the group and reaps the process.
    }

    /// Kill the engine's process group now.
    pub fn kill(&mut self) {
        sys::kill_group(self.pid);
        let _ = self.child.kill();
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.stdin = None;
        sys::kill_group(self.pid);
        let _ = self.child.kill();
        let _ = self.child.wait();
        sys::unregister(self.pid);
    }
}
