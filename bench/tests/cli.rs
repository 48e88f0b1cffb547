//! The `rensa-match` command line: a gauntlet of three engines with records and a JSON
//! summary, and errors for bad options.

use std::path::Path;
use std::process::Command;

const RUNNER: &str = env!("CARGO_BIN_EXE_rensa-match");
const DUMMY: &str = env!("CARGO_BIN_EXE_pbrain-dummy");

#[test]
fn gauntlet_with_records_and_json() {
    let dir = std::env::temp_dir().join(format!("rensa-match-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let openings = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/testdata/openings/pos_freestyle_20x20.txt");
    assert!(
        openings.exists() || std::env::var_os("RENSA_REQUIRE_TESTDATA").is_none(),
        "{} missing and RENSA_REQUIRE_TESTDATA is set",
        openings.display()
    );
    let mut cmd = Command::new(RUNNER);
    cmd.args(["--engine", &format!("cmd={DUMMY} --seed 1 --name First")])
        .args(["--engine", &format!("cmd={DUMMY} --seed 2"), "name=Second"])
        .args([
            "--engine",
            &format!("cmd={DUMMY} --play random"),
            "name=Third",
            "tc=30/2",
        ])
        .args(["--each", "tc=60/5+0.5", "option.hash_size=1024"])
        .args([
            "--gauntlet",
            "--games",
            "4",
            "--concurrency",
            "2",
            "--boardsize",
            "20",
        ])
        .args(["--progress", "plain"])
        .arg("--psq")
        .arg(dir.join("psq"))
        .arg("--sgf")
        .arg(dir.join("all.sgf"))
        .arg("--json")
        .arg(dir.join("summary.json"));
    if openings.exists() {
        cmd.arg("--openings")
            .arg(format!("file={}", openings.display()))
            .args(["type=pos", "order=sequential"]);
    }
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The name of the first engine comes from its ABOUT answer.
    assert!(
        stdout.contains("First vs Second (First's view)"),
        "{stdout}"
    );
    assert!(stdout.contains("First vs Third"), "{stdout}");
    assert!(stdout.contains("Standings"), "{stdout}");
    assert!(stdout.contains("Finished game 8"), "{stdout}");
    assert!(stdout.contains("turn overrun"), "{stdout}");
    assert!(stdout.contains("Third (30/2)"), "{stdout}");
    let json = std::fs::read_to_string(dir.join("summary.json")).unwrap();
    assert!(json.contains("\"games_played\": 8"), "{json}");
    assert!(json.contains("\"pairings\""));
    assert!(json.contains("\"max_turn_overrun_ms\""));
    assert_eq!(std::fs::read_dir(dir.join("psq")).unwrap().count(), 8);
    let sgf = std::fs::read_to_string(dir.join("all.sgf")).unwrap();
    assert_eq!(sgf.matches("SZ[20]").count(), 8);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_options_are_refused() {
    let run = |args: &[&str]| Command::new(RUNNER).args(args).output().unwrap();
    let one = format!("cmd={DUMMY}");
    let out = run(&["--engine", &one]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("two engines"));
    let out = run(&["--engine", &one, "--engine", &one, "--rule", "3"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["--engine", &one, "--engine", &one, "--boardsize", "40"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["--engine", &one, "bogus=1", "--engine", &one]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown engine option"));
    let out = run(&["--engine", "cmd=/no/such/engine", "--engine", &one]);
    assert_eq!(out.status.code(), Some(2));
}
