//! Input and output threads.
//!
//! One thread reads stdin, decodes each line lossily and timestamps it on arrival, so the
//! time budget of a move counts from when the manager's command was read and END or STOP
//! can be seen while the engine thinks. One writer thread owns stdout: every protocol line
//! goes through it and is flushed at once.

use crossbeam_channel::{unbounded, Receiver, Sender};
use std::io::{BufRead, BufReader, Read, Write};
use std::thread::{self, JoinHandle};
use std::time::Instant;

/// Longest line kept; anything beyond is dropped (the line still counts as one line).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// One event from the input thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line (without its line ending) and when it was read.
    Line(String, Instant),
    /// The input was closed.
    Eof,
}

/// Start the input thread over any reader.
pub fn spawn_reader<R: Read + Send + 'static>(input: R) -> Receiver<Input> {
    let (tx, rx) = unbounded();
    let spawned = thread::Builder::new()
        .name("stdin".into())
        .spawn(move || read_lines(input, &tx));
    if let Err(e) = spawned {
        log::error!("cannot start the input thread: {e}");
    }
    rx
}

fn read_lines<R: Read>(input: R, tx: &Sender<Input>) {
    let mut reader = BufReader::new(input);
    let mut buf = Vec::with_capacity(256);
    loop {
        buf.clear();
        match read_bounded_line(&mut reader, &mut buf) {
            Ok(0) => break,
            Ok(_) => {
                let at = Instant::now();
                while matches!(buf.last(), Some(b'\n' | b'\r')) {
                    buf.pop();
                }
                let line = String::from_utf8_lossy(&buf).into_owned();
                if tx.send(Input::Line(line, at)).is_err() {
                    return;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                log::warn!("input error: {e}");
                break;
            }
        }
    }
    let _ = tx.send(Input::Eof);
}

/// Read up to and including the next `\n`, keeping at most [`MAX_LINE_BYTES`] bytes.
/// Returns the number of bytes consumed (0 at end of input).
fn read_bounded_line<R: BufRead>(reader: &mut R, buf: &mut Vec<u8>) -> std::io::Result<usize> {
    let mut consumed = 0;
    loop {
        let available = reader.fill_buf()?;
        if available.is_empty() {
            return Ok(consumed);
        }
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..=i], true),
            None => (available, false),
        };
        let room = MAX_LINE_BYTES.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let n = chunk.len();
        consumed += n;
        reader.consume(n);
        if done {
            return Ok(consumed);
        }
    }
}

/// A handle for sending protocol lines to the writer thread. Cloneable.
#[derive(Clone)]
pub struct Output {
    tx: Sender<String>,
}

impl Output {
    /// Queue one protocol line. Embedded line breaks are replaced by spaces so that one
    /// call can never become two protocol lines.
    pub fn line(&self, text: impl Into<String>) {
        let mut text: String = text.into();
        if text.contains(['\n', '\r']) {
            text = text.replace(['\n', '\r'], " ");
        }
        let _ = self.tx.send(text);
    }

    /// Queue a `MESSAGE` line (never empty, which Piskvork would misread).
    pub fn message(&self, text: impl AsRef<str>) {
        let text = text.as_ref().trim();
        let text = if text.is_empty() { "-" } else { text };
        self.line(format!("MESSAGE {text}"));
    }
}

/// Start the writer thread over any writer. Dropping every [`Output`] ends the thread after
/// it has written everything queued; join the handle to wait for that.
pub fn spawn_writer<W: Write + Send + 'static>(mut out: W) -> (Output, JoinHandle<()>) {
    let (tx, rx) = unbounded::<String>();
    let handle = thread::Builder::new()
        .name("stdout".into())
        .spawn(move || {
            for line in rx {
                let ok = out
                    .write_all(line.as_bytes())
                    .and_then(|_| out.write_all(b"\n"))
                    .and_then(|_| out.flush());
                if let Err(e) = ok {
                    log::warn!("output error: {e}");
                    return;
                }
            }
        })
        .expect("cannot start the output thread");
    (Output { tx }, handle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn reader_strips_line_endings_and_decodes_lossily() {
        let data: &[u8] = b"START 15\r\nab\xffcd\nlast";
        let rx = spawn_reader(Cursor::new(data.to_vec()));
        let lines: Vec<Input> = rx.iter().collect();
        let texts: Vec<String> = lines
            .iter()
            .filter_map(|i| match i {
                Input::Line(s, _) => Some(s.clone()),
                Input::Eof => None,
            })
            .collect();
        assert_eq!(texts, vec!["START 15", "ab\u{fffd}cd", "last"]);
        assert_eq!(lines.last(), Some(&Input::Eof));
    }

    #[test]
    fn over_long_lines_are_cut_not_split() {
        let mut data = vec![b'x'; MAX_LINE_BYTES + 100];
        data.extend_from_slice(b"\nEND\n");
        let rx = spawn_reader(Cursor::new(data));
        let first = rx.recv().unwrap();
        match first {
            Input::Line(s, _) => assert_eq!(s.len(), MAX_LINE_BYTES),
            Input::Eof => panic!("expected a line"),
        }
        assert!(matches!(rx.recv().unwrap(), Input::Line(s, _) if s == "END"));
    }

    #[test]
    fn writer_writes_each_line_once() {
        use std::sync::{Arc, Mutex};
        #[derive(Clone)]
        struct Shared(Arc<Mutex<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let sink = Shared(Arc::new(Mutex::new(Vec::new())));
        let (out, handle) = spawn_writer(sink.clone());
        out.line("OK");
        out.line("a\nb");
        out.message("");
        drop(out);
        handle.join().unwrap();
        let text = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
        assert_eq!(text, "OK\na b\nMESSAGE -\n");
    }
}
