//! The web board's JSON API over real HTTP: every endpoint, every kind of bad request
//! (each answered 4xx and changing nothing), the host and origin checks, concurrent
//! clients and event streams, and hosted external engines that crash or hang. Each test
//! starts its own server on a free loopback port.

use rensa::gui::{Config, Server};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// An answer: status and body.
struct Answer {
    status: u16,
    headers: String,
    body: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    fn error(&self) -> String {
        self.json()["error"].as_str().unwrap_or("").to_string()
    }
}

/// One HTTP/1.1 request with the given extra headers (a `Host` naming the server unless
/// one is given).
fn raw(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Answer {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        head.push_str(&format!("Host: {addr}\r\n"));
    }
    for (k, v) in headers {
        if !v.is_empty() {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    stream.write_all(head.as_bytes()).unwrap();
    // The server may answer (413) before reading a large body; a reset then is fine.
    let _ = stream.write_all(body);
    let mut text = Vec::new();
    let _ = stream.read_to_end(&mut text);
    let text = String::from_utf8_lossy(&text).into_owned();
    let (headers, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = headers
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {text:?}"));
    Answer {
        status,
        headers: headers.to_string(),
        body: body.to_string(),
    }
}

fn get(addr: SocketAddr, path: &str) -> Answer {
    raw(addr, "GET", path, &[], b"")
}

fn post(addr: SocketAddr, path: &str, body: Value) -> Answer {
    raw(addr, "POST", path, &[], body.to_string().as_bytes())
}

fn state(addr: SocketAddr) -> Value {
    let a = get(addr, "/api/state");
    assert_eq!(a.status, 200, "{}", a.body);
    a.json()
}

/// Poll the state until `done` holds (the server has no other way to say "the engine has
/// moved" but its state and its events).
fn wait_for(addr: SocketAddr, what: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let s = state(addr);
        if done(&s) {
            return s;
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what}: {s}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn start(engine: Option<PathBuf>) -> Server {
    Server::start(&Config {
        engine,
        ..Config::default()
    })
    .unwrap()
}

fn moves(s: &Value) -> usize {
    s["moves"].as_array().unwrap().len()
}

fn two_people(addr: SocketAddr) {
    let a = post(
        addr,
        "/api/new",
        json!({"black": "human", "white": "human", "width": 15, "height": 15, "rule": "freestyle"}),
    );
    assert_eq!(a.status, 200, "{}", a.body);
}

#[test]
fn every_endpoint_answers() {
    let server = start(None);
    let addr = server.addr();
    assert!(server.url().starts_with("http://127.0.0.1:"));
    for (path, kind, needle) in [
        ("/", "text/html", "<svg id=\"board\""),
        ("/style.css", "text/css", "--board"),
        ("/app.js", "text/javascript", "EventSource"),
    ] {
        let a = get(addr, path);
        assert_eq!(a.status, 200);
        assert!(a.headers.contains(kind), "{}", a.headers);
        assert!(a.headers.contains("Content-Security-Policy"));
        assert!(a.body.contains(needle), "{path}");
    }
    assert_eq!(get(addr, "/api/state").json()["width"], 15);

    // A seeded low level against a person: the engine answers the person's move.
    let a = post(
        addr,
        "/api/new",
        json!({"rule": "standard", "width": 13, "height": 11, "level": "beginner",
               "seed": 7, "time_ms": 2000, "black": "human", "white": "engine"}),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    let s = a.json();
    assert_eq!(
        (s["width"].clone(), s["height"].clone()),
        (json!(13), json!(11))
    );
    assert_eq!(s["rule"], "standard");
    let a = post(
        addr,
        "/api/move",
        json!({"move": [6, 5], "version": s["version"]}),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    let s = wait_for(addr, "the engine's reply", |s| {
        moves(s) == 2 && !s["engine"]["busy"].as_bool().unwrap()
    });
    assert_eq!(s["to_move"], "black");
    assert!(s["evals"][1].is_object(), "the engine's evaluation: {s}");
    // Undo goes back to the person's turn; redo brings both moves back.
    let s = post(addr, "/api/undo", json!({})).json();
    assert_eq!((moves(&s), s["redo"].clone()), (0, json!(2)));
    let s = post(addr, "/api/redo", json!({})).json();
    assert_eq!(moves(&s), 2);

    // Analysis: the heatmap of the position, then the game's evaluations.
    let s = post(addr, "/api/analyse", json!({"nodes": 20000, "lines": 3})).json();
    let a = &s["analysis"];
    assert!(!a["heatmap"].as_array().unwrap().is_empty(), "{s}");
    assert_eq!(a["lines"].as_array().unwrap().len(), 3);
    assert!(s["evals"][2].is_object());
    let s = post(addr, "/api/analyse", json!({"game": true, "nodes": 2000})).json();
    assert!(
        s["evals"].as_array().unwrap().iter().all(Value::is_object),
        "{s}"
    );

    // Records out and back in.
    let psq = get(addr, "/api/record?format=psq");
    assert_eq!(psq.status, 200);
    assert!(psq
        .headers
        .contains("attachment; filename=\"rensa-game.psq\""));
    assert!(psq.body.starts_with("Piskvorky 13x11"), "{}", psq.body);
    let sgf = get(addr, "/api/record?format=sgf");
    assert!(
        sgf.body.contains("SZ[13:11]") && sgf.body.contains("RU[1]"),
        "{}",
        sgf.body
    );
    two_people(addr);
    let s = post(addr, "/api/load", json!({"text": psq.body})).json();
    assert_eq!((moves(&s), s["width"].clone()), (2, json!(13)));
    assert_eq!(s["players"], json!({"black": "human", "white": "human"}));
    let s = post(
        addr,
        "/api/load",
        json!({"text": sgf.body, "format": "sgf"}),
    )
    .json();
    assert_eq!((moves(&s), s["rule"].clone()), (2, json!("standard")));
    let s = post(
        addr,
        "/api/load",
        json!({"text": "h8i9j10", "format": "pos"}),
    )
    .json();
    assert_eq!(s["pos"], "h8i9j10");
    assert_eq!(s["moves"][2], json!([9, 9]));

    // The event stream starts with the whole state.
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(stream, "GET /api/events HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    let mut data = None;
    while data.is_none() {
        line.clear();
        assert!(reader.read_line(&mut line).unwrap() > 0, "the stream ended");
        data = line.strip_prefix("data: ").map(str::to_string);
    }
    let first: Value = serde_json::from_str(data.unwrap().trim()).unwrap();
    assert_eq!(first["pos"], "h8i9j10");

    assert_eq!(post(addr, "/api/restart-engine", json!({})).status, 200);
    server.stop();
}

#[test]
fn bad_requests_are_refused_and_change_nothing() {
    let server = start(None);
    let addr = server.addr();
    two_people(addr);
    for (x, y) in [(7, 7), (8, 8)] {
        assert_eq!(post(addr, "/api/move", json!({"move": [x, y]})).status, 200);
    }
    let before = state(addr);
    let big = format!(r#"{{"text": "{}"}}"#, "a".repeat(70_000));
    let cases: Vec<(&str, &str, Vec<u8>, u16, &str)> = vec![
        (
            "POST",
            "/api/move",
            b"{\"move\": [1, 2".to_vec(),
            400,
            "malformed JSON",
        ),
        (
            "POST",
            "/api/move",
            b"not json".to_vec(),
            400,
            "malformed JSON",
        ),
        ("POST", "/api/move", b"[1, 2]".to_vec(), 400, "JSON object"),
        ("POST", "/api/move", b"{}".to_vec(), 400, "missing field"),
        (
            "POST",
            "/api/move",
            br#"{"move": [1]}"#.to_vec(),
            400,
            "bad request",
        ),
        (
            "POST",
            "/api/move",
            br#"{"move": ["a", 1]}"#.to_vec(),
            400,
            "bad request",
        ),
        (
            "POST",
            "/api/move",
            br#"{"move": [1, 2], "colour": 1}"#.to_vec(),
            400,
            "unknown field",
        ),
        (
            "POST",
            "/api/move",
            br#"{"move": [15, 0]}"#.to_vec(),
            400,
            "off the 15x15 board",
        ),
        (
            "POST",
            "/api/move",
            br#"{"move": [-1, 3]}"#.to_vec(),
            400,
            "off the",
        ),
        (
            "POST",
            "/api/move",
            br#"{"move": [99999999999, 3]}"#.to_vec(),
            400,
            "off the",
        ),
        (
            "POST",
            "/api/move",
            br#"{"move": [7, 7]}"#.to_vec(),
            400,
            "occupied",
        ),
        (
            "POST",
            "/api/move",
            br#"{"move": [1, 1], "version": 1}"#.to_vec(),
            409,
            "has changed",
        ),
        (
            "POST",
            "/api/new",
            br#"{"width": 4}"#.to_vec(),
            400,
            "5 to 32",
        ),
        (
            "POST",
            "/api/new",
            br#"{"width": 33, "height": 15}"#.to_vec(),
            400,
            "5 to 32",
        ),
        (
            "POST",
            "/api/new",
            br#"{"height": -1}"#.to_vec(),
            400,
            "5 to 32",
        ),
        (
            "POST",
            "/api/new",
            br#"{"width": 1e40}"#.to_vec(),
            400,
            "bad request",
        ),
        (
            "POST",
            "/api/new",
            br#"{"rule": "gomoku"}"#.to_vec(),
            400,
            "unknown rule",
        ),
        (
            "POST",
            "/api/new",
            br#"{"rule": 3}"#.to_vec(),
            400,
            "unknown rule",
        ),
        (
            "POST",
            "/api/new",
            br#"{"level": "grandmaster"}"#.to_vec(),
            400,
            "unknown level",
        ),
        (
            "POST",
            "/api/new",
            br#"{"time_ms": 4000000}"#.to_vec(),
            400,
            "over the limit",
        ),
        (
            "POST",
            "/api/new",
            br#"{"black": "robot"}"#.to_vec(),
            400,
            "human",
        ),
        (
            "POST",
            "/api/analyse",
            br#"{"nodes": 0}"#.to_vec(),
            400,
            "nodes",
        ),
        (
            "POST",
            "/api/analyse",
            br#"{"lines": 500}"#.to_vec(),
            400,
            "lines",
        ),
        (
            "POST",
            "/api/load",
            br#"{"text": "Piskvorky 15x15\n99,1,0\n"}"#.to_vec(),
            400,
            "psq",
        ),
        (
            "POST",
            "/api/load",
            br#"{"text": "(;SZ[40];B[aa])", "format": "sgf"}"#.to_vec(),
            400,
            "SGF",
        ),
        (
            "POST",
            "/api/load",
            br#"{"text": "h8h8"}"#.to_vec(),
            400,
            "occupied",
        ),
        (
            "POST",
            "/api/load",
            br#"{"text": "h8", "format": "doc"}"#.to_vec(),
            400,
            "format",
        ),
        (
            "POST",
            "/api/load",
            big.into_bytes(),
            413,
            "over 65536 bytes",
        ),
        ("POST", "/api/redo", b"".to_vec(), 409, "nothing to redo"),
        (
            "POST",
            "/api/undo",
            br#"{"all": true}"#.to_vec(),
            400,
            "unknown field",
        ),
        ("GET", "/api/move", b"".to_vec(), 405, "POST"),
        ("POST", "/api/state", b"{}".to_vec(), 405, "GET"),
        ("DELETE", "/api/state", b"".to_vec(), 405, "GET"),
        ("GET", "/etc/passwd", b"".to_vec(), 404, "no such page"),
        ("GET", "/../Cargo.toml", b"".to_vec(), 404, "no such page"),
        ("GET", "/api/record?format=doc", b"".to_vec(), 400, "format"),
    ];
    for (method, path, body, status, message) in cases {
        let a = raw(addr, method, path, &[], &body);
        let shown = String::from_utf8_lossy(&body[..body.len().min(60)]).into_owned();
        assert_eq!(a.status, status, "{method} {path} {shown}: {}", a.body);
        assert!(
            a.error().contains(message),
            "{method} {path} {shown}: {}",
            a.error()
        );
        assert_eq!(
            state(addr),
            before,
            "{method} {path} {shown} changed the game"
        );
    }

    // Nothing to undo; the game is over; a renju foul.
    two_people(addr);
    assert_eq!(post(addr, "/api/undo", json!({})).status, 409);
    for (x, y) in [
        (0, 0),
        (0, 1),
        (1, 0),
        (1, 1),
        (2, 0),
        (2, 1),
        (3, 0),
        (3, 1),
        (4, 0),
    ] {
        assert_eq!(post(addr, "/api/move", json!({"move": [x, y]})).status, 200);
    }
    let won = state(addr);
    assert_eq!(won["result"]["winner"], "black");
    assert_eq!(won["result"]["line"].as_array().unwrap().len(), 5);
    let a = post(addr, "/api/move", json!({"move": [9, 9]}));
    assert_eq!((a.status, a.error().contains("over")), (409, true));
    assert_eq!(state(addr), won);
    post(addr, "/api/new", json!({"rule": "renju"}));
    for (x, y) in [
        (7, 5),
        (0, 0),
        (7, 6),
        (14, 0),
        (5, 7),
        (0, 14),
        (6, 7),
        (14, 14),
    ] {
        assert_eq!(post(addr, "/api/move", json!({"move": [x, y]})).status, 200);
    }
    let s = state(addr);
    assert!(
        s["forbidden"].as_array().unwrap().contains(&json!([7, 7])),
        "{s}"
    );
    let a = post(addr, "/api/move", json!({"move": [7, 7]}));
    assert_eq!(a.status, 400);
    assert!(
        a.error()
            .contains("forbidden for Black under renju (double-three)"),
        "{}",
        a.error()
    );
    assert_eq!(state(addr), s);

    // Not the person's turn: the engine plays White at full strength for a minute.
    post(
        addr,
        "/api/new",
        json!({"rule": "freestyle", "level": "max", "time_ms": 60000}),
    );
    let a = post(
        addr,
        "/api/load",
        json!({"text": "h8i9j10", "black": "human", "white": "engine"}),
    );
    assert_eq!(a.status, 200, "{}", a.body);
    wait_for(addr, "the engine to think", |s| s["engine"]["busy"] == true);
    let a = post(addr, "/api/move", json!({"move": [3, 3]}));
    assert_eq!(a.status, 409);
    assert!(a.error().contains("not your turn"), "{}", a.error());
    assert_eq!(moves(&state(addr)), 3);
    // A new game stops the search at once.
    two_people(addr);
    assert_eq!(post(addr, "/api/move", json!({"move": [3, 3]})).status, 200);
    let s = wait_for(addr, "the search to stop", |s| s["engine"]["busy"] == false);
    assert_eq!(s["moves"], json!([[3, 3]]));
    server.stop();
}

#[test]
fn only_the_servers_own_pages_may_ask() {
    let server = start(None);
    let addr = server.addr();
    let port = addr.port();
    let before = state(addr);
    let evil_host = format!("evil.example:{port}");
    let other_port = format!("127.0.0.1:{}", port.wrapping_add(1));
    let own = format!("http://127.0.0.1:{port}");
    for headers in [
        vec![("Host", evil_host.as_str())],
        vec![("Host", "localhost")],
        vec![("Host", other_port.as_str())],
        vec![("Origin", "http://evil.example")],
        vec![("Origin", "null")],
        vec![("Origin", &format!("http://evil.example:{port}"))],
        vec![("Origin", &format!("https://127.0.0.1:{port}"))],
        vec![("Origin", own.as_str()), ("Sec-Fetch-Site", "cross-site")],
    ] {
        for (method, path, body) in [
            ("GET", "/api/state", ""),
            ("GET", "/", ""),
            ("POST", "/api/move", r#"{"move": [7, 7]}"#),
            ("POST", "/api/new", r#"{"width": 9}"#),
        ] {
            let a = raw(addr, method, path, &headers, body.as_bytes());
            assert_eq!(
                a.status, 403,
                "{method} {path} with {headers:?}: {}",
                a.body
            );
        }
    }
    // A request without any Host header at all (HTTP/1.0 style).
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .write_all(b"GET /api/state HTTP/1.0\r\n\r\n")
        .unwrap();
    let mut text = String::new();
    let _ = stream.read_to_string(&mut text);
    assert!(
        text.starts_with("HTTP/1.0 403") || text.starts_with("HTTP/1.1 403"),
        "{text}"
    );
    assert_eq!(state(addr), before);
    // The server's own names pass.
    let localhost = format!("localhost:{port}");
    let a = raw(
        addr,
        "GET",
        "/api/state",
        &[("Host", &localhost), ("Origin", &own)],
        b"",
    );
    assert_eq!(a.status, 200);
    server.stop();
}

#[test]
fn concurrent_clients_see_one_consistent_game() {
    let server = start(None);
    let addr = server.addr();
    two_people(addr);
    let start_version = state(addr)["version"].as_u64().unwrap();
    // Eight clients try the same twelve squares at once, in different orders, while two
    // event streams watch.
    let watchers: Vec<_> = (0..2)
        .map(|_| {
            std::thread::spawn(move || {
                let mut stream = TcpStream::connect(addr).unwrap();
                stream
                    .set_read_timeout(Some(Duration::from_secs(60)))
                    .unwrap();
                write!(stream, "GET /api/events HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
                let mut reader = BufReader::new(stream);
                let mut line = String::new();
                let mut last = 0;
                loop {
                    line.clear();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return last;
                    }
                    if let Some(data) = line.strip_prefix("data: ") {
                        let s: Value = serde_json::from_str(data.trim()).unwrap();
                        let v = s["version"].as_u64().unwrap();
                        assert!(v > last, "versions only grow: {v} after {last}");
                        last = v;
                        if moves(&s) == 12 {
                            return last;
                        }
                    }
                }
            })
        })
        .collect();
    let squares: Vec<(i64, i64)> = (0..12).map(|i| (i % 4 * 2, i / 4 * 3)).collect();
    let clients: Vec<_> = (0..8)
        .map(|c| {
            let mut mine = squares.clone();
            mine.rotate_left(c * 5 % 12);
            std::thread::spawn(move || {
                let mut played = 0;
                for (x, y) in mine {
                    let a = post(addr, "/api/move", json!({"move": [x, y]}));
                    match a.status {
                        200 => played += 1,
                        400 => assert!(a.error().contains("occupied"), "{}", a.error()),
                        other => panic!("unexpected {other}: {}", a.body),
                    }
                    let _ = state(addr);
                }
                played
            })
        })
        .collect();
    let played: usize = clients.into_iter().map(|c| c.join().unwrap()).sum();
    let s = state(addr);
    assert_eq!(played, 12, "each square was taken exactly once");
    assert_eq!(moves(&s), 12);
    let mut taken: Vec<Value> = s["moves"].as_array().unwrap().clone();
    taken.sort_by_key(|v| v.to_string());
    taken.dedup();
    assert_eq!(taken.len(), 12);
    assert_eq!(s["version"].as_u64().unwrap(), start_version + 12);
    for w in watchers {
        assert_eq!(w.join().unwrap(), start_version + 12);
    }
    server.stop();
}

#[test]
fn engines_play_a_game_to_its_end() {
    let server = start(None);
    let addr = server.addr();
    let a = post(
        addr,
        "/api/new",
        json!({"black": "engine", "white": "engine", "level": "beginner", "seed": 3,
               "width": 9, "height": 9, "time_ms": 2000}),
    );
    assert_eq!(a.status, 200);
    let s = wait_for(addr, "the game's end", |s| !s["result"].is_null());
    assert!(moves(&s) >= 9, "{s}");
    let text = s["result"]["text"].as_str().unwrap();
    assert!(text.contains("wins") || text.contains("Draw"), "{text}");
    server.stop();
}

/// A fake engine as a shell script: answers `START` and `ABOUT`, then does `on_move`
/// when asked for a move.
#[cfg(unix)]
fn fake_engine(name: &str, on_move: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("rensa-gui-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("pbrain-{name}"));
    let script = format!(
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    \
         START*|RECTSTART*) echo OK ;;\n    ABOUT*) echo 'name=\"{name}\"' ;;\n    \
         BEGIN*|DONE*|TURN*) {on_move} ;;\n    END*) exit 0 ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[cfg(unix)]
#[test]
fn a_crashed_or_hung_engine_is_reported_and_restarted() {
    for (name, on_move, why) in [
        ("crasher", "exit 3", "crash"),
        ("sleeper", "sleep 30", "time forfeit"),
        ("liar", "echo 99,99", "off the board"),
    ] {
        let server = start(Some(fake_engine(name, on_move)));
        let addr = server.addr();
        let a = post(
            addr,
            "/api/new",
            json!({"black": "engine", "white": "human", "time_ms": 200}),
        );
        assert_eq!(a.status, 200);
        let s = wait_for(addr, "the engine's failure", |s| {
            !s["engine"]["error"].is_null()
        });
        let error = s["engine"]["error"].as_str().unwrap();
        assert!(error.contains(why), "{name}: {error}");
        assert_eq!(moves(&s), 0);
        assert_eq!(s["engine"]["busy"], false);
        // The server goes on; a restart asks the engine again, which fails again.
        let v = post(addr, "/api/restart-engine", json!({})).json()["version"]
            .as_u64()
            .unwrap();
        let s = wait_for(addr, "the second failure", |s| {
            s["version"].as_u64().unwrap() > v && !s["engine"]["error"].is_null()
        });
        assert!(s["engine"]["error"].as_str().unwrap().contains(why));
        two_people(addr);
        assert_eq!(post(addr, "/api/move", json!({"move": [7, 7]})).status, 200);
        server.stop();
    }
}

#[test]
fn a_hosted_engine_plays_through_the_protocol() {
    let engine = PathBuf::from(env!("CARGO_BIN_EXE_pbrain-rensa"));
    let server = start(Some(engine));
    let addr = server.addr();
    assert_eq!(state(addr)["engine"]["external"], true);
    let a = post(
        addr,
        "/api/new",
        json!({"black": "human", "white": "engine", "time_ms": 300, "rule": "renju"}),
    );
    assert_eq!(a.status, 200);
    post(addr, "/api/move", json!({"move": [7, 7]}));
    let s = wait_for(addr, "the hosted engine's move", |s| moves(s) == 2);
    assert!(s["engine"]["error"].is_null(), "{s}");
    assert_eq!(s["engine"]["name"], "rensa");
    // Undo while it thinks: its late answer is dropped. (A square the engine did not
    // take: a move the engine chose in a hurry may be any square next to 7,7.)
    let square = [[6, 6], [8, 8], [6, 8], [8, 6]]
        .into_iter()
        .find(|sq| {
            !s["moves"]
                .as_array()
                .unwrap()
                .iter()
                .any(|m| m == &json!(sq))
        })
        .unwrap();
    assert_eq!(
        post(addr, "/api/move", json!({ "move": square })).status,
        200
    );
    post(addr, "/api/undo", json!({}));
    let s = wait_for(addr, "the engine to be idle", |s| {
        s["engine"]["busy"] == false
    });
    assert_eq!(moves(&s), 2);
    server.stop();
}

#[test]
fn the_command_prints_its_address_and_warns_off_loopback() {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_pbrain-rensa"))
        .args(["gui", "--host", "0.0.0.0", "--port", "0"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    let url = line
        .trim()
        .strip_prefix("Rensa's board: ")
        .unwrap_or_else(|| panic!("{line}"));
    let addr: SocketAddr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .unwrap();
    assert!(addr.ip().is_loopback());
    assert_eq!(get(addr, "/api/state").status, 200);
    child.kill().unwrap();
    child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(err.contains("warning: listening on 0.0.0.0"), "{err}");
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_pbrain-rensa"))
        .args(["gui", "--host", "nowhere"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}
