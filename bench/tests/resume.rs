//! `rensa-match --resume`: an interrupted match (its journal cut after three games, with
//! a torn fourth line) resumes, counts the three again, plays only the rest, and ends
//! with the same number of games, records and a complete journal; a resume with other
//! options is refused.

use std::path::Path;
use std::process::{Command, Output};

const RUNNER: &str = env!("CARGO_BIN_EXE_rensa-match");
const DUMMY: &str = env!("CARGO_BIN_EXE_pbrain-dummy");

fn run(dir: &Path, games: &str, resume: bool) -> Output {
    let mut cmd = Command::new(RUNNER);
    cmd.args(["--engine", &format!("cmd={DUMMY} --seed 1"), "name=A"])
        .args([
            "--engine",
            &format!("cmd={DUMMY} --play random --seed 2"),
            "name=B",
        ])
        .args(["--each", "tc=0/1"])
        .args([
            "--games",
            games,
            "--concurrency",
            "2",
            "--progress",
            "plain",
        ])
        .arg("--psq")
        .arg(dir.join("psq"))
        .arg("--sgf")
        .arg(dir.join("all.sgf"))
        .arg("--json")
        .arg(dir.join("summary.json"));
    if resume {
        cmd.arg("--resume");
    }
    cmd.output().unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn an_interrupted_match_resumes_where_it_stopped() {
    let dir = std::env::temp_dir().join(format!("rensa-match-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let first = run(&dir, "8", false);
    assert!(first.status.success(), "{}", text(&first));
    let journal = dir.join("summary.json.journal");
    let full = std::fs::read_to_string(&journal).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    assert_eq!(lines.len(), 9, "a fingerprint and eight games:\n{full}");

    // The interruption: three games kept, the fourth line torn; their records stay.
    let kept: Vec<&str> = lines[..4].to_vec();
    let cut = format!("{}\n{}", kept.join("\n"), &lines[4][..lines[4].len() / 2]);
    std::fs::write(&journal, cut).unwrap();
    let kept_ids: Vec<String> = lines[1..4]
        .iter()
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect();
    for entry in std::fs::read_dir(dir.join("psq")).unwrap() {
        let path = entry.unwrap().path();
        let id = path.file_name().unwrap().to_string_lossy()[..5]
            .trim_start_matches('0')
            .to_string();
        if !kept_ids.contains(&format!("game={id}")) {
            std::fs::remove_file(path).unwrap();
        }
    }

    let resumed = run(&dir, "8", true);
    let out = text(&resumed);
    assert!(resumed.status.success(), "{out}");
    assert!(
        out.contains("resumed: 3 games from the journal, 5 to play"),
        "{out}"
    );
    let after = std::fs::read_to_string(&journal).unwrap();
    assert_eq!(after.lines().count(), 9, "{after}");
    assert!(after.starts_with(&format!("{}\n", lines[0])));
    let mut ids: Vec<String> = after
        .lines()
        .skip(1)
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 8, "every game once: {ids:?}");
    assert_eq!(std::fs::read_dir(dir.join("psq")).unwrap().count(), 8);
    let json = std::fs::read_to_string(dir.join("summary.json")).unwrap();
    assert!(json.contains("\"games_played\": 8"), "{json}");

    // Another match's options: refused, nothing played.
    let other = run(&dir, "10", true);
    assert!(!other.status.success());
    assert!(
        text(&other).contains("records another match"),
        "{}",
        text(&other)
    );
    assert_eq!(std::fs::read_to_string(&journal).unwrap(), after);
    let _ = std::fs::remove_dir_all(&dir);
}
