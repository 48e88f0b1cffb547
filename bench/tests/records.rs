//! The match runner's records read back: a short gauntlet through the `rensa-match`
//! command line writes `.psq` files, an SGF collection and the JSON summary, and the
//! `rensa::records` readers must find in them the same games: board size, moves and
//! times, names, results and how each game ended, agreeing with each other and with the
//! summary.

use rensa::board::Color;
use rensa::records::{psq, sgf, Outcome, Record};
use rensa::rules::Rule;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

const RUNNER: &str = env!("CARGO_BIN_EXE_rensa-match");
const DUMMY: &str = env!("CARGO_BIN_EXE_pbrain-dummy");

/// The first engine, with a name SGF has to escape and file names have to sanitise.
const TRICKY: &str = "Wall]\\ x";

/// `"key": value` of the JSON text after `from`, as text (a number, or a string's raw
/// escaped content).
fn json_value<'a>(text: &'a str, from: usize, key: &str) -> (&'a str, usize) {
    let pat = format!("\"{key}\": ");
    let at = from
        + text[from..]
            .find(&pat)
            .unwrap_or_else(|| panic!("no {key}"))
        + pat.len();
    let rest = &text[at..];
    let value = if let Some(s) = rest.strip_prefix('"') {
        let mut end = 0;
        let bytes = s.as_bytes();
        while bytes[end] != b'"' {
            end += if bytes[end] == b'\\' { 2 } else { 1 };
        }
        &s[..end]
    } else {
        rest.split([',', '\n', '}']).next().unwrap().trim()
    };
    (value, at)
}

/// Per engine in the JSON summary: (escaped name, games, [w, l, d], moves answered).
fn json_engines(json: &str) -> Vec<(String, u64, [u64; 3], u64)> {
    let mut out = Vec::new();
    let mut at = json.find("\"engines\"").unwrap();
    let end = json.find("\"pairings\"").unwrap();
    while let Some(i) = json[at..end].find("\"name\": ") {
        let start = at + i;
        let num = |key: &str, from: usize| json_value(json, from, key).0.parse::<u64>().unwrap();
        let (name, _) = json_value(json, start, "name");
        let (_, wld_at) = json_value(json, start, "wld");
        let wld = [num("w", wld_at), num("l", wld_at), num("d", wld_at)];
        out.push((
            name.to_string(),
            num("games", start),
            wld,
            num("moves", start),
        ));
        at = start + 1;
    }
    out
}

/// The name as the JSON writer escapes it.
fn json_escaped(name: &str) -> String {
    name.replace('\\', "\\\\").replace('"', "\\\"")
}

#[test]
fn every_record_of_a_match_reads_back() {
    let dir = std::env::temp_dir().join(format!("rensa-match-records-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let openings = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/testdata/openings/piskvork-openings.txt");
    assert!(
        openings.exists() || std::env::var_os("RENSA_REQUIRE_TESTDATA").is_none(),
        "{} missing and RENSA_REQUIRE_TESTDATA is set",
        openings.display()
    );
    let mut cmd = Command::new(RUNNER);
    // "first" players fill row 0 in turn: a draw at 20 stones between two of them.
    cmd.args([
        "--engine",
        &format!("cmd={DUMMY} --play first"),
        &format!("name={TRICKY}"),
    ])
    .args([
        "--engine",
        &format!("cmd={DUMMY} --play first"),
        "name=Twin",
    ])
    .args(["--engine", &format!("cmd={DUMMY} --seed 4"), "name=Greedy"])
    .args([
        "--engine",
        &format!("cmd={DUMMY} --mode crash --after 3"),
        "name=Crashy",
    ])
    .args([
        "--engine",
        &format!("cmd={DUMMY} --mode timeout --after 2"),
        "name=Slow",
        "tc=0/0.3",
        "tolerance=0.2",
    ])
    .args(["--each", "tc=0/5"])
    .args(["--gauntlet", "--games", "2", "--concurrency", "2"])
    .args(["--boardsize", "20x15", "--rule", "1", "--drawafter", "20"])
    .args(["--progress", "quiet"])
    .arg("--psq")
    .arg(dir.join("psq"))
    .arg("--sgf")
    .arg(dir.join("games.sgf"))
    .arg("--json")
    .arg(dir.join("summary.json"));
    if openings.exists() {
        cmd.arg("--openings")
            .arg(format!("file={}", openings.display()))
            .args(["type=offset", "order=sequential"]);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );

    let json = std::fs::read_to_string(dir.join("summary.json")).unwrap();
    assert_eq!(json_value(&json, 0, "board").0, "20x15");
    let played: usize = json_value(&json, 0, "games_played").0.parse().unwrap();
    assert_eq!(played, 8);

    // The SGF collection: one game per game played, keyed by game number.
    let sgf_games = sgf::read(&dir.join("games.sgf")).unwrap();
    assert_eq!(sgf_games.len(), played);
    let by_id: BTreeMap<usize, &Record> = sgf_games.iter().map(|g| (g.id, g)).collect();
    assert_eq!(by_id.len(), played);

    // Every .psq file against its SGF game.
    let mut psq_count = 0;
    let mut terminations = BTreeMap::new();
    for entry in std::fs::read_dir(dir.join("psq")).unwrap() {
        let path = entry.unwrap().path();
        let p = psq::read(&path).unwrap();
        psq_count += 1;
        let s = by_id[&p.id];
        assert_eq!((p.width, p.height), (20, 15), "{}", path.display());
        assert_eq!((s.width, s.height), (20, 15));
        assert_eq!(s.rule, Some(Rule::Standard));
        assert_eq!(p.moves, s.moves, "{}", path.display());
        assert_eq!(p.result, s.result, "{}: {}", path.display(), s.reason);
        assert_eq!(p.names, s.names.clone().map(|n| psq::sanitize(&n)));
        assert_eq!(
            p.programs,
            ["pbrain-dummy".to_string(), "pbrain-dummy".to_string()]
        );
        assert!(s.opening_len <= s.moves.len());
        assert!(s.moves[..s.opening_len].iter().all(|&(_, ms)| ms == 0));
        if !openings.exists() {
            assert_eq!(s.opening_len, 0);
        }
        // How the game ended: the SGF's words and the .psq error code agree.
        let kind = if s.reason.contains("wins by five") {
            assert_eq!(p.psq_code, Some(0));
            let winner = Record::color_of(s.moves.len() - 1);
            assert_eq!(s.result, Some(Outcome::Win(winner)));
            "five"
        } else if s.reason.starts_with("draw by move limit") {
            assert_eq!(p.psq_code, Some(0));
            assert_eq!(s.result, Some(Outcome::Draw));
            assert_eq!(s.moves.len(), 20);
            "draw"
        } else if s.reason.contains("loses by time forfeit") {
            assert_eq!(p.psq_code, Some(15));
            "time"
        } else if s.reason.contains("loses by crash") {
            assert_eq!(p.psq_code, Some(1));
            "crash"
        } else {
            panic!("unexpected end: {}", s.reason)
        };
        if kind == "time" || kind == "crash" {
            // The side to move lost: its move never came.
            let loser = Record::color_of(s.moves.len());
            assert_eq!(s.result, Some(Outcome::Win(loser.opponent())));
            assert!(
                s.reason.starts_with(&s.names[loser.index()]),
                "{}",
                s.reason
            );
        }
        *terminations.entry(kind).or_insert(0) += 1;
    }
    assert_eq!(psq_count, played);
    assert_eq!(
        terminations.into_iter().collect::<Vec<_>>(),
        [("crash", 2), ("draw", 2), ("five", 2), ("time", 2)]
    );

    // The summary's figures per engine, from the records.
    let engines = json_engines(&json);
    assert_eq!(engines.len(), 5);
    for (name, games, wld, moves) in engines {
        let mut mine = [0u64; 3];
        let mut my_games = 0;
        let mut my_moves = 0;
        for g in &sgf_games {
            let Some(side) = g.names.iter().position(|n| json_escaped(n) == name) else {
                continue;
            };
            let color = Color::BOTH[side];
            my_games += 1;
            my_moves += (g.opening_len..g.moves.len())
                .filter(|&i| Record::color_of(i) == color)
                .count() as u64;
            match g.result.unwrap() {
                Outcome::Draw => mine[2] += 1,
                Outcome::Win(c) if c == color => mine[0] += 1,
                Outcome::Win(_) => mine[1] += 1,
            }
        }
        assert_eq!((my_games, mine, my_moves), (games, wld, moves), "{name}");
    }
    assert!(json.contains(&format!("\"name\": \"{}\"", json_escaped(TRICKY))));
    let _ = std::fs::remove_dir_all(&dir);
}
