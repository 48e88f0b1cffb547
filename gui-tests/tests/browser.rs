//! The web board end to end, in a real headless Chromium driven through WebDriver
//! (`chromedriver` and `fantoccini`): a game against the engine by clicks to its end,
//! undo and redo, renju with Black's forbidden squares marked, a `.psq` file loaded
//! through the page, and the analysis heatmap read from the page. The engine plays at a
//! seeded low level (a fixed node count), so the game ends in seconds; every wait is on
//! the page's own state (`data-*` attributes the page sets on `<body>`), never a sleep.
//!
//! One test runs the scenarios one after another in one browser. Without `chromium` and
//! `chromedriver` it says so and passes, unless `RENSA_REQUIRE_BROWSER=1` (CI) makes them
//! mandatory. With `RENSA_UPDATE_SCREENSHOTS=1` it rewrites the screenshots in `docs/`.

use fantoccini::{Client, ClientBuilder, Locator};
use rensa::gui::{Config, Server};
use serde_json::{json, Value};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Longest wait for any one state of the page.
const PATIENCE: Duration = Duration::from_secs(60);

/// The first of `names` found on the `PATH` (or the program named by `env`).
fn find_program(env: &str, names: &[&str]) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(env) {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file())
}

/// A chromedriver process, killed when dropped.
struct Driver {
    child: Child,
    port: u16,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn start_driver(program: &Path) -> Driver {
    let port = free_port();
    let child = Command::new(program)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
    let driver = Driver { child, port };
    // Ready when it accepts connections.
    let deadline = Instant::now() + PATIENCE;
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            Instant::now() < deadline,
            "chromedriver does not listen on {port}"
        );
        std::thread::yield_now();
    }
    driver
}

async fn connect(driver: &Driver, chromium: &Path) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": chromium,
            "args": ["--headless", "--no-sandbox", "--disable-dev-shm-usage",
                     "--window-size=1100,820", "--force-device-scale-factor=1",
                     "--disable-gpu", "--hide-scrollbars"],
        }),
    );
    let wait_ms = PATIENCE.as_millis() as u64;
    caps.insert("timeouts".into(), json!({ "script": wait_ms }));
    ClientBuilder::rustls()
        .expect("TLS roots for the WebDriver client (install ca-certificates)")
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a Chromium session")
}

/// Wait, in the page, until the JavaScript expression `condition` holds: checked now and
/// after every change of the document (a `MutationObserver`), so the wait ends with the
/// change it waits for.
async fn wait_until(c: &Client, condition: &str) {
    let script = format!(
        "const done = arguments[arguments.length - 1];
         const ok = () => {{ try {{ return !!({condition}); }} catch (e) {{ return false; }} }};
         if (ok()) {{ done(true); return; }}
         const watch = new MutationObserver(() => {{
             if (ok()) {{ watch.disconnect(); done(true); }}
         }});
         watch.observe(document.documentElement,
             {{ attributes: true, childList: true, subtree: true, characterData: true }});"
    );
    c.execute_async(&script, vec![])
        .await
        .unwrap_or_else(|e| panic!("the page never came to {condition}: {e}"));
}

/// Wait until the page shows `selector`.
async fn wait_for(c: &Client, selector: &str) {
    wait_until(c, &format!("document.querySelector({selector:?})")).await;
}

/// A `data-*` attribute of `<body>`.
async fn body_data(c: &Client, key: &str) -> String {
    let v = c
        .execute(
            "return document.body.dataset[arguments[0]] || '';",
            vec![json!(key)],
        )
        .await
        .unwrap();
    v.as_str().unwrap_or("").to_string()
}

async fn click(c: &Client, selector: &str) {
    c.find(Locator::Css(selector))
        .await
        .unwrap_or_else(|e| panic!("no {selector}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("cannot click {selector}: {e}"));
}

async fn click_square(c: &Client, x: usize, y: usize) {
    click(c, &format!("rect.cell[data-x='{x}'][data-y='{y}']")).await;
}

async fn set_field(c: &Client, selector: &str, value: &str) {
    let e = c.find(Locator::Css(selector)).await.unwrap();
    e.clear().await.unwrap();
    if !value.is_empty() {
        e.send_keys(value).await.unwrap();
    }
}

/// Fill in and submit the new-game dialog; wait for the empty board of that game.
async fn new_game(c: &Client, rule: &str, size: (usize, usize), players: &str) {
    click(c, "#new-game").await;
    wait_for(c, "dialog#new-dialog[open]").await;
    c.find(Locator::Css("#new-rule"))
        .await
        .unwrap()
        .select_by_value(rule)
        .await
        .unwrap();
    c.find(Locator::Css("#new-players"))
        .await
        .unwrap()
        .select_by_value(players)
        .await
        .unwrap();
    c.find(Locator::Css("#new-level"))
        .await
        .unwrap()
        .select_by_value("beginner")
        .await
        .unwrap();
    set_field(c, "#new-width", &size.0.to_string()).await;
    set_field(c, "#new-height", &size.1.to_string()).await;
    set_field(c, "#new-time", "2").await;
    set_field(c, "#new-seed", "11").await;
    click(c, "#new-start").await;
    // The new state may arrive by the event stream before the request's answer closes
    // the dialog: wait for both.
    let selector = format!(
        "body[data-rule='{rule}'][data-ply='0'] svg#board[data-width='{}'][data-height='{}']",
        size.0, size.1
    );
    wait_until(
        c,
        &format!(
            "document.querySelector({selector:?}) && !document.getElementById('new-dialog').open"
        ),
    )
    .await;
    let error_hidden = c
        .execute(
            "return document.getElementById('new-error').hidden;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        error_hidden,
        json!(true),
        "the new game is refused by no error"
    );
}

/// The stones on the page: (x, y) by move number.
async fn stones(c: &Client) -> Vec<(usize, usize)> {
    let v = c
        .execute(
            "return [...document.querySelectorAll('circle.stone')]
                 .map(s => [Number(s.dataset.x), Number(s.dataset.y)]);",
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(v).unwrap()
}

async fn screenshot(c: &Client, name: &str) {
    if std::env::var("RENSA_UPDATE_SCREENSHOTS").as_deref() != Ok("1") {
        return;
    }
    // Messages that fade by themselves would cover the board in the picture.
    c.execute("document.getElementById('toast').hidden = true;", vec![])
        .await
        .unwrap();
    let png = c.screenshot().await.unwrap();
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs");
    std::fs::create_dir_all(&docs).unwrap();
    std::fs::write(docs.join(name), png).unwrap();
    eprintln!("wrote docs/{name}");
}

/// The person clicks, the engine answers, until one of them wins.
async fn a_game_against_the_engine(c: &Client) {
    new_game(c, "freestyle", (15, 15), "black").await;
    // The person's plan: the squares spiralling out from the centre.
    let mut plan = Vec::new();
    for r in 0i64..8 {
        for dy in -r..=r {
            for dx in -r..=r {
                if dx.abs().max(dy.abs()) == r {
                    plan.push(((7 + dx) as usize, (7 + dy) as usize));
                }
            }
        }
    }
    loop {
        // The person's turn, or the end.
        wait_until(
            c,
            "document.body.dataset.busy === 'false' && (document.body.dataset.result !== '' \
             || document.body.dataset.toMove === 'black')",
        )
        .await;
        if !body_data(c, "result").await.is_empty() {
            break;
        }
        let ply: usize = body_data(c, "ply").await.parse().unwrap();
        assert!(ply < 200, "the game ends");
        let taken = stones(c).await;
        assert_eq!(taken.len(), ply);
        let &(x, y) = plan
            .iter()
            .find(|p| !taken.contains(p))
            .expect("a free square near the centre");
        click_square(c, x, y).await;
        wait_until(c, &format!("Number(document.body.dataset.ply) > {ply}")).await;
    }
    let status = c
        .find(Locator::Css("#status"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(status.contains("wins"), "{status}");
    let winners = c.find_all(Locator::Css("circle.stone.win")).await.unwrap();
    assert!(winners.len() >= 5, "the winning line is highlighted");
    wait_for(c, "line.win-line").await;
    screenshot(c, "gui-15x15-light.png").await;
}

/// Undo by key, redo by button: the game goes back to the person's turn and returns.
async fn undo_and_redo(c: &Client) {
    let ply: usize = body_data(c, "ply").await.parse().unwrap();
    let result = body_data(c, "result").await;
    assert!(!result.is_empty(), "the game was over");
    c.find(Locator::Css("#board"))
        .await
        .unwrap()
        .send_keys("u")
        .await
        .unwrap();
    wait_for(
        c,
        "body[data-result=''][data-to-move='black'][data-busy='false']",
    )
    .await;
    let back: usize = body_data(c, "ply").await.parse().unwrap();
    assert!(back < ply && ply - back <= 2, "{ply} -> {back}");
    assert_eq!(stones(c).await.len(), back);
    click(c, "#redo").await;
    wait_for(
        c,
        &format!("body[data-ply='{ply}'][data-result='{result}']"),
    )
    .await;
    wait_for(c, "#redo:disabled").await;
}

/// Renju: Black's double three is marked and cannot be played.
async fn renju_forbidden_marks(c: &Client) {
    new_game(c, "renju", (15, 15), "people").await;
    let moves = [
        (7, 5),
        (1, 1),
        (7, 6),
        (13, 1),
        (5, 7),
        (1, 13),
        (6, 7),
        (13, 13),
    ];
    for (i, &(x, y)) in moves.iter().enumerate() {
        click_square(c, x, y).await;
        wait_for(c, &format!("body[data-ply='{}']", i + 1)).await;
    }
    wait_for(c, "g.forbidden[data-x='7'][data-y='7']").await;
    let marks = c.find_all(Locator::Css("g.forbidden")).await.unwrap();
    assert!(!marks.is_empty());
    click_square(c, 7, 7).await;
    wait_for(c, "#toast:not([hidden])").await;
    let toast = c
        .find(Locator::Css("#toast"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(toast.contains("forbidden"), "{toast}");
    assert_eq!(body_data(c, "ply").await, "8", "the foul was not played");
    screenshot(c, "gui-renju-forbidden.png").await;
}

/// A `.psq` file chosen in the file input replaces the game.
async fn load_a_psq(c: &Client) {
    let dir = std::env::temp_dir().join(format!("rensa-browser-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.psq");
    let moves = [
        (10, 10),
        (11, 11),
        (10, 11),
        (11, 10),
        (9, 12),
        (12, 9),
        (8, 10),
        (9, 9),
    ];
    let mut text = String::from("Piskvorky 20x20, 11:11, 0\n");
    for (x, y) in moves {
        text.push_str(&format!("{},{},0\n", x + 1, y + 1));
    }
    text.push_str("pbrain-a\npbrain-b\n0\n");
    std::fs::write(&path, text).unwrap();
    c.find(Locator::Css("#load-file"))
        .await
        .unwrap()
        .send_keys(path.to_str().unwrap())
        .await
        .unwrap();
    wait_for(
        c,
        "body[data-ply='8'] svg#board[data-width='20'][data-height='20']",
    )
    .await;
    assert_eq!(stones(c).await, moves.to_vec());
    let moves_text = c
        .find(Locator::Css("#moves-text"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap();
    assert_eq!(moves_text.as_deref(), Some("k11l12k12l11j13m10i11j10"));
    click(c, "#theme").await;
    wait_for(c, "html[data-theme='dark']").await;
    screenshot(c, "gui-20x20-dark.png").await;
    let _ = std::fs::remove_dir_all(dir);
}

/// Analysis mode: the heatmap on the page is the server's analysis.
async fn the_heatmap(c: &Client) {
    click(c, "#analysis-mode").await;
    wait_for(c, "body[data-analysed='true'] rect.heat").await;
    let page = c
        .execute(
            "return [...document.querySelectorAll('rect.heat')]
                 .map(r => [Number(r.dataset.x), Number(r.dataset.y), Number(r.dataset.score)]);",
            vec![],
        )
        .await
        .unwrap();
    let page: Vec<(usize, usize, i64)> = serde_json::from_value(page).unwrap();
    let server: Value = c
        .execute_async(
            "const done = arguments[0];
             fetch('/api/state').then(r => r.json()).then(done);",
            vec![],
        )
        .await
        .unwrap();
    let expected: Vec<(usize, usize, i64)> = server["analysis"]["heatmap"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["x"].as_u64().unwrap() as usize,
                s["y"].as_u64().unwrap() as usize,
                s["score"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(page, expected);
    assert!(page.len() > 10, "{page:?}");
    let lines = c
        .find_all(Locator::Css("#analysis-lines li"))
        .await
        .unwrap();
    assert!(!lines.is_empty());
    screenshot(c, "gui-heatmap.png").await;
    click(c, "#theme").await;
    wait_for(c, "html[data-theme='light']").await;
}

/// A phone-sized window still shows the whole board.
async fn a_phone(c: &Client) {
    c.set_window_size(390, 844).await.unwrap();
    let width = c
        .execute(
            "return document.getElementById('board').getBoundingClientRect().right;",
            vec![],
        )
        .await
        .unwrap();
    assert!(width.as_f64().unwrap() <= 390.0, "the board fits: {width}");
    screenshot(c, "gui-phone.png").await;
}

#[test]
fn the_board_in_a_real_browser() {
    let required = std::env::var("RENSA_REQUIRE_BROWSER").as_deref() == Ok("1");
    let chromium = find_program("CHROME", &["chromium", "chromium-browser", "google-chrome"]);
    let driver = find_program("CHROMEDRIVER", &["chromedriver"]);
    let (Some(chromium), Some(driver)) = (chromium, driver) else {
        assert!(
            !required,
            "RENSA_REQUIRE_BROWSER=1 but chromium or chromedriver is missing \
             (apt-get install chromium chromium-driver)"
        );
        eprintln!(
            "skipped: the browser tests need chromium and chromedriver on the PATH \
             (apt-get install chromium chromium-driver)"
        );
        return;
    };
    let server = Server::start(&Config::default()).unwrap();
    let url = server.url().to_string();
    let driver = start_driver(&driver);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let c = connect(&driver, &chromium).await;
        c.goto(&url).await.unwrap();
        wait_for(&c, "body[data-ready='true']").await;
        c.execute("setTheme('light');", vec![]).await.unwrap();
        a_game_against_the_engine(&c).await;
        undo_and_redo(&c).await;
        renju_forbidden_marks(&c).await;
        load_a_psq(&c).await;
        the_heatmap(&c).await;
        a_phone(&c).await;
        c.close().await.unwrap();
    });
    drop(driver);
    server.stop();
}
