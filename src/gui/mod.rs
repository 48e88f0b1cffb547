//! `pbrain-rensa gui`: a board in the browser, served by the engine itself.
//!
//! A small HTTP server (`tiny_http`: threads, no async runtime) serves an embedded page
//! and a JSON API over one shared game ([`state`]): Rensa plays in-process through the
//! engine facade, or another Gomocup engine plays through the engine client
//! ([`external`]). Layer 5 of the crate, beside the protocol and the engine client: the
//! engine core knows nothing of HTTP.
//!
//! - [`state`]: the game behind one mutex, versioned; [`view`]: its JSON;
//! - [`api`]: the `POST` requests; [`http`]: routes, the host check, bodies; [`events`]:
//!   server-sent events;
//! - [`player`]: the engine's worker thread, Rensa in-process; [`external`]: a hosted
//!   engine;
//! - [`analyse`]: heatmap and game evaluations; [`records`]: `.psq`, SGF and move lists;
//! - [`page`]: the page's HTML, CSS and script.
//!
//! Safety: the server listens on loopback unless told otherwise; a request whose `Host`
//! or `Origin` is not the server's own gets 403; bad requests get a 4xx answer and change
//! nothing; it reads and writes no file (records travel in request and response bodies).

pub mod analyse;
pub mod api;
pub mod events;
pub mod external;
pub mod http;
pub mod page;
pub mod player;
pub mod records;
pub mod state;
pub mod view;

use crate::search::{Evaluator, MoveOrdering};
use http::{Context, HostGuard};
use player::{InProcess, Player};
use state::{Shared, State};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Requests handled at once, event streams included; more get 503.
pub const MAX_REQUESTS: usize = 48;

/// A refused request: the HTTP status and a message for the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// HTTP status code (4xx; 5xx if the server failed).
    pub status: u16,
    /// What was wrong.
    pub message: String,
}

impl ApiError {
    /// An error with this status.
    pub fn new(status: u16, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    /// 400: the request is malformed or asks for something impossible.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(400, message)
    }

    /// 403: the caller is not one of this server's pages.
    pub fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError::new(403, message)
    }

    /// 404: no such thing.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(404, message)
    }

    /// 409: the request does not fit the game's state (not your turn, nothing to undo).
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(409, message)
    }

    /// 413: the body is over the limit.
    pub fn too_large() -> ApiError {
        ApiError::new(
            413,
            format!("the request body is over {} bytes", http::MAX_BODY),
        )
    }

    /// 500: the server failed (the game is unchanged).
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(500, message)
    }
}

/// How to run the server.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address to listen on.
    pub host: IpAddr,
    /// The port (0: a free one).
    pub port: u16,
    /// An external Gomocup engine to host instead of playing Rensa in-process.
    pub engine: Option<PathBuf>,
    /// Rensa's static evaluation, when it plays.
    pub evaluator: Evaluator,
    /// Rensa's move ordering, when it plays.
    pub ordering: MoveOrdering,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 0,
            engine: None,
            evaluator: Evaluator::default(),
            ordering: MoveOrdering::default(),
        }
    }
}

/// A running server.
pub struct Server {
    url: String,
    addr: SocketAddr,
    ctx: Arc<Context>,
    http: Arc<tiny_http::Server>,
    accept: Option<JoinHandle<()>>,
    worker: Option<JoinHandle<()>>,
}

impl Server {
    /// Listen and serve on threads of its own.
    pub fn start(config: &Config) -> Result<Server, String> {
        let listener = TcpListener::bind((config.host, config.port))
            .map_err(|e| format!("cannot listen on {}:{}: {e}", config.host, config.port))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let http = tiny_http::Server::from_listener(listener, None)
            .map_err(|e| format!("cannot serve on {addr}: {e}"))?;
        let http = Arc::new(http);
        let player: Box<dyn Player> = match &config.engine {
            Some(path) => Box::new(external::External::new(path.clone())),
            None => Box::new(InProcess::new(config.evaluator, config.ordering)),
        };
        let shared = Arc::new(Shared::new(State::new(
            player.name(),
            config.engine.is_some(),
        )));
        let worker = player::spawn_worker(player, Arc::clone(&shared));
        let ctx = Arc::new(Context {
            shared,
            guard: HostGuard::new(addr.port()),
            streams: AtomicUsize::new(0),
        });
        let accept = {
            let (ctx, http) = (Arc::clone(&ctx), Arc::clone(&http));
            std::thread::Builder::new()
                .name("gui-accept".into())
                .spawn(move || accept_loop(&ctx, &http))
                .map_err(|e| e.to_string())?
        };
        let shown = match addr.ip() {
            ip if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
            ip => ip,
        };
        Ok(Server {
            url: format!("http://{}/", SocketAddr::new(shown, addr.port())),
            addr,
            ctx,
            http,
            accept: Some(accept),
            worker: Some(worker),
        })
    }

    /// The page's address, `http://127.0.0.1:PORT/`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The address listened on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Serve until the process ends.
    pub fn wait(mut self) {
        if let Some(accept) = self.accept.take() {
            let _ = accept.join();
        }
    }

    /// Stop serving: the engine's search stops, event streams end, threads are joined.
    pub fn stop(mut self) {
        self.ctx.shared.update(|s| s.close());
        self.http.unblock();
        if let Some(accept) = self.accept.take() {
            let _ = accept.join();
        }
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

fn accept_loop(ctx: &Arc<Context>, http: &tiny_http::Server) {
    let active = Arc::new(AtomicUsize::new(0));
    while let Ok(request) = http.recv() {
        if ctx.shared.lock().closing {
            break;
        }
        if active.fetch_add(1, Ordering::SeqCst) >= MAX_REQUESTS {
            active.fetch_sub(1, Ordering::SeqCst);
            http::send_error(request, ApiError::new(503, "the server is busy: try again"));
            continue;
        }
        let (ctx, active) = (Arc::clone(ctx), Arc::clone(&active));
        let spawned = std::thread::Builder::new()
            .name("gui-request".into())
            .spawn(move || {
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    http::handle(&ctx, request)
                }));
                if outcome.is_err() {
                    log::error!("a request handler panicked");
                }
                active.fetch_sub(1, Ordering::SeqCst);
            });
        if let Err(e) = spawned {
            log::error!("cannot start a request thread: {e}");
        }
    }
}

/// Open `url` in the user's browser.
pub fn open_browser(url: &str) {
    let mut command = if cfg!(target_os = "windows") {
        let mut c = std::process::Command::new("cmd");
        c.args(["/C", "start", ""]);
        c
    } else if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else {
        std::process::Command::new("xdg-open")
    };
    let started = command
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = started {
        log::warn!("cannot open a browser ({e}); open {url} yourself");
    }
}

/// `pbrain-rensa gui`: serve until killed, printing the address (and opening it when
/// `open`).
pub fn run(config: &Config, open: bool) -> Result<(), String> {
    if !config.host.is_loopback() {
        log::warn!(
            "listening on {}, not loopback: other machines can reach the board (requests \
             must still name the server by IP address or localhost)",
            config.host
        );
        eprintln!(
            "pbrain-rensa gui: warning: listening on {}, reachable from other machines",
            config.host
        );
    }
    let server = Server::start(config)?;
    println!("Rensa's board: {}", server.url());
    if open {
        open_browser(server.url());
    }
    server.wait();
    Ok(())
}
