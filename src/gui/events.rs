//! `GET /api/events`: server-sent events. The stream sends the whole state at once, then
//! again after every change (changes that come quickly are sent together), and a comment
//! line every few seconds so that a closed tab is noticed. Each stream holds a thread; a
//! few are allowed at once.

use super::http::{send_error, Context};
use super::{view, ApiError};
use std::io::Write;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tiny_http::Request;

/// Streams open at once, at most.
pub const MAX_STREAMS: usize = 16;

/// How often a quiet stream sends a comment line.
const KEEP_ALIVE: Duration = Duration::from_secs(10);

/// Changes within this time after an event wait for the next one.
const COALESCE: Duration = Duration::from_millis(40);

/// Serve the event stream of `request` until the tab goes or the server closes.
pub fn stream(ctx: &Arc<Context>, request: Request) {
    if ctx.streams.fetch_add(1, Ordering::SeqCst) >= MAX_STREAMS {
        ctx.streams.fetch_sub(1, Ordering::SeqCst);
        return send_error(
            request,
            ApiError::new(503, "too many open event streams: close a tab"),
        );
    }
    let mut out = request.into_writer();
    let head = "HTTP/1.1 200 OK\r\n\
                Content-Type: text/event-stream\r\n\
                Cache-Control: no-store\r\n\
                X-Content-Type-Options: nosniff\r\n\
                Connection: close\r\n\r\n";
    let mut seen = 0;
    let mut ok = out.write_all(head.as_bytes()).is_ok();
    while ok {
        let (version, text, closing) = {
            let state = ctx.shared.wait_change(seen, KEEP_ALIVE);
            let text = (state.version != seen).then(|| view::state(&state).to_string());
            (state.version, text, state.closing)
        };
        if closing {
            break;
        }
        let chunk = match text {
            Some(json) => format!("event: state\ndata: {json}\n\n"),
            None => ": keep-alive\n\n".to_string(),
        };
        ok = out
            .write_all(chunk.as_bytes())
            .and_then(|_| out.flush())
            .is_ok();
        if version != seen {
            seen = version;
            std::thread::sleep(COALESCE);
        }
    }
    drop(out);
    ctx.streams.fetch_sub(1, Ordering::SeqCst);
}
