//! The HTTP side: who may ask ([`HostGuard`]: only pages served by this server, never
//! another site or a DNS-rebound name), the routes, request bodies within a small limit,
//! and the answers: the embedded page, JSON, record downloads and the event stream.

use super::state::Shared;
use super::{api, events, page, records, view, ApiError};
use std::io::Read;
use std::net::IpAddr;
use std::sync::atomic::AtomicUsize;
use std::sync::Arc;
use tiny_http::{Header, Method, Request, Response};

/// The largest request body accepted: a 32x32 game record fits many times over.
pub const MAX_BODY: usize = 64 * 1024;

/// Headers sent with every answer: no caching, no sniffing, no framing by other pages,
/// nothing loaded from elsewhere.
const SECURITY_HEADERS: [(&str, &str); 5] = [
    ("Cache-Control", "no-store"),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "no-referrer"),
    (
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'none'",
    ),
];

/// Which `Host` and `Origin` values are the server's own: `localhost` or an IP address
/// (never a domain name, which another site could point at this machine), with the
/// server's port.
#[derive(Clone, Debug)]
pub struct HostGuard {
    port: u16,
}

impl HostGuard {
    /// The guard for a server listening on `port`.
    pub fn new(port: u16) -> HostGuard {
        HostGuard { port }
    }

    /// Whether a `Host` header value (`127.0.0.1:8080`, `[::1]:8080`, `localhost:8080`)
    /// names this server.
    pub fn host_ok(&self, host: &str) -> bool {
        let host = host.trim();
        let (name, port) = match host.rsplit_once(':') {
            Some((n, p)) if !n.is_empty() && (n.starts_with('[') || !n.contains(':')) => {
                (n, p.parse::<u16>().ok())
            }
            _ => (host, None),
        };
        let port = port.unwrap_or(80);
        if port != self.port {
            return false;
        }
        let bare = name.trim_start_matches('[').trim_end_matches(']');
        bare.eq_ignore_ascii_case("localhost") || bare.parse::<IpAddr>().is_ok()
    }

    /// Whether an `Origin` header value is a page of this server.
    pub fn origin_ok(&self, origin: &str) -> bool {
        origin
            .strip_prefix("http://")
            .is_some_and(|host| !host.contains('/') && self.host_ok(host))
    }
}

/// What every request handler shares.
pub struct Context {
    /// The game.
    pub shared: Arc<Shared>,
    /// The allowed hosts.
    pub guard: HostGuard,
    /// Event streams open now.
    pub streams: AtomicUsize,
}

/// A header's value, if the request has it.
fn header<'a>(request: &'a Request, name: &str) -> Option<&'a str> {
    request
        .headers()
        .iter()
        .find(|h| h.field.as_str().as_str().eq_ignore_ascii_case(name))
        .map(|h| h.value.as_str())
}

/// Refuse requests that do not come from this server's own pages.
fn check_caller(ctx: &Context, request: &Request) -> Result<(), ApiError> {
    let host = header(request, "Host").unwrap_or("");
    if !ctx.guard.host_ok(host) {
        return Err(ApiError::forbidden(format!(
            "the Host {host:?} is not this server"
        )));
    }
    if let Some(origin) = header(request, "Origin") {
        if !ctx.guard.origin_ok(origin) {
            return Err(ApiError::forbidden(format!(
                "requests from {origin:?} are not allowed"
            )));
        }
    }
    if header(request, "Sec-Fetch-Site").is_some_and(|s| s.eq_ignore_ascii_case("cross-site")) {
        return Err(ApiError::forbidden("cross-site requests are not allowed"));
    }
    Ok(())
}

fn with_headers<R: Read>(mut response: Response<R>, content_type: &str) -> Response<R> {
    let mut all: Vec<(&str, &str)> = SECURITY_HEADERS.to_vec();
    all.push(("Content-Type", content_type));
    for (k, v) in all {
        if let Ok(h) = Header::from_bytes(k.as_bytes(), v.as_bytes()) {
            response.add_header(h);
        }
    }
    response
}

/// Answer `text` with `status`.
fn send(request: Request, status: u16, content_type: &str, text: String) {
    let response = with_headers(
        Response::from_string(text).with_status_code(status),
        content_type,
    );
    if let Err(e) = request.respond(response) {
        log::debug!("the answer could not be sent: {e}");
    }
}

/// Answer a JSON value.
fn send_json(request: Request, status: u16, value: &serde_json::Value) {
    send(request, status, "application/json", value.to_string());
}

/// Answer an error as `{"error": message}`.
pub fn send_error(request: Request, error: ApiError) {
    log::info!(
        "{} {}: {} {}",
        request.method(),
        request.url(),
        error.status,
        error.message
    );
    send_json(
        request,
        error.status,
        &serde_json::json!({ "error": error.message }),
    );
}

/// Read the body, refusing one over [`MAX_BODY`].
fn read_body(request: &mut Request) -> Result<Vec<u8>, ApiError> {
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err(ApiError::too_large());
    }
    let mut bytes = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ApiError::bad(format!("the body could not be read: {e}")))?;
    if bytes.len() > MAX_BODY {
        return Err(ApiError::too_large());
    }
    Ok(bytes)
}

/// The paths the server knows, with the method each takes.
const ROUTES: [(&str, &str); 15] = [
    ("/", "GET"),
    ("/index.html", "GET"),
    ("/style.css", "GET"),
    ("/app.js", "GET"),
    ("/api/state", "GET"),
    ("/api/events", "GET"),
    ("/api/record", "GET"),
    ("/api/new", "POST"),
    ("/api/move", "POST"),
    ("/api/undo", "POST"),
    ("/api/redo", "POST"),
    ("/api/analyse", "POST"),
    ("/api/load", "POST"),
    ("/api/restart-engine", "POST"),
    ("/favicon.ico", "GET"),
];

/// Handle one request.
pub fn handle(ctx: &Arc<Context>, mut request: Request) {
    if let Err(e) = check_caller(ctx, &request) {
        return send_error(request, e);
    }
    let url = request.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((&url, ""));
    let Some(&(_, method)) = ROUTES.iter().find(|(p, _)| *p == path) else {
        return send_error(
            request,
            ApiError::not_found(format!("no such page: {path}")),
        );
    };
    let allowed = match request.method() {
        Method::Get | Method::Head => method == "GET",
        Method::Post => method == "POST",
        _ => false,
    };
    if !allowed {
        let e = ApiError::new(405, format!("{path} takes {method} requests only"));
        return send_error(request, e);
    }
    match path {
        "/" | "/index.html" => send(request, 200, "text/html; charset=utf-8", page::INDEX.into()),
        "/style.css" => send(request, 200, "text/css; charset=utf-8", page::STYLE.into()),
        "/app.js" => send(
            request,
            200,
            "text/javascript; charset=utf-8",
            page::SCRIPT.into(),
        ),
        "/favicon.ico" => send(request, 204, "text/plain", String::new()),
        "/api/state" => {
            let value = view::state(&ctx.shared.lock());
            send_json(request, 200, &value);
        }
        "/api/events" => events::stream(ctx, request),
        "/api/record" => {
            let format = query
                .split('&')
                .find_map(|kv| kv.strip_prefix("format="))
                .unwrap_or("psq");
            let file = records::Format::named(format)
                .ok_or_else(|| ApiError::bad(format!("format must be psq or sgf, not {format:?}")))
                .and_then(|f| records::write(&ctx.shared.lock(), f));
            match file {
                Ok((text, name, mime)) => {
                    let mut response =
                        with_headers(Response::from_string(text).with_status_code(200), mime);
                    let disposition = format!("attachment; filename=\"{name}\"");
                    if let Ok(h) = Header::from_bytes(&b"Content-Disposition"[..], disposition) {
                        response.add_header(h);
                    }
                    let _ = request.respond(response);
                }
                Err(e) => send_error(request, e),
            }
        }
        _ => {
            let result = read_body(&mut request).and_then(|b| api::post(&ctx.shared, path, &b));
            match result {
                Ok(()) => {
                    let value = view::state(&ctx.shared.lock());
                    send_json(request, 200, &value);
                }
                Err(e) => send_error(request, e),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_this_servers_names_pass() {
        let g = HostGuard::new(8123);
        for ok in [
            "127.0.0.1:8123",
            "localhost:8123",
            "[::1]:8123",
            "192.168.1.4:8123",
        ] {
            assert!(g.host_ok(ok), "{ok}");
            assert!(g.origin_ok(&format!("http://{ok}")), "{ok}");
        }
        for bad in [
            "",
            "127.0.0.1",
            "127.0.0.1:8124",
            "evil.example:8123",
            "localhost.evil.example:8123",
            "127.0.0.1:8123:1",
        ] {
            assert!(!g.host_ok(bad), "{bad}");
        }
        for bad in [
            "null",
            "https://127.0.0.1:8123",
            "http://evil.example:8123",
            "http://127.0.0.1:8123/x",
        ] {
            assert!(!g.origin_ok(bad), "{bad}");
        }
        assert!(HostGuard::new(80).host_ok("localhost"));
    }
}
