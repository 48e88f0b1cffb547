//! `bench/analysis/peer_wins.py` on a small engines' log written here: two games a peer won,
//! one after its evaluation had risen (gradual) and one from a near-equal position
//! (sudden), and one game it lost, in both peers' message formats.

use std::path::PathBuf;
use std::process::Command;

/// The log lines of one game on slot `slot` of `peer`: the opening stones, then alternate
/// replies of the peer (with the evaluation it printed first) and Rensa's moves.
fn game(peer: &str, slot: u32, opening: &[(u32, u32)], play: &[(&str, (u32, u32))]) -> String {
    let mut out = format!("[     0.100] {peer}@{slot} > BOARD\n");
    for (i, (x, y)) in opening.iter().enumerate() {
        out += &format!("[     0.100] {peer}@{slot} > {x},{y},{}\n", 1 + i % 2);
    }
    out += &format!("[     0.100] {peer}@{slot} > DONE\n");
    for (eval, (x, y)) in play {
        if eval.is_empty() {
            out += &format!("[     0.200] {peer}@{slot} > TURN {x},{y}\n");
        } else {
            out += &format!("[     0.300] {peer}@{slot} < MESSAGE {eval}\n");
            out += &format!("[     0.300] {peer}@{slot} < {x},{y}\n");
            // Another engine's lines in between are not the peer's.
            out += &format!("[     0.300] rensa@{slot} > TURN {x},{y}\n");
        }
    }
    out
}

fn run(log: &str, peer: &str) -> Option<String> {
    let dir = std::env::temp_dir().join(format!("peer-wins-{}-{peer}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("engines.log");
    std::fs::write(&path, log).unwrap();
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("analysis/peer_wins.py");
    let out = match Command::new("python3")
        .arg(&script)
        .arg(&path)
        .args(["--peer", peer])
        .output()
    {
        Ok(out) => out,
        Err(e) if std::env::var_os("CI").is_none() => {
            eprintln!("SKIPPED: no python3 ({e})");
            return None;
        }
        Err(e) => panic!("python3 must run under CI: {e}"),
    };
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn rapfi_wins_are_split_into_gradual_and_sudden() {
    let e = |v: &str| format!("Speed 700K | Depth 20-40 | Eval {v} | Node 700K | Time 970ms");
    let (e1, e2, e3, e4) = (e("120"), e("350"), e("410"), e("+M25"));
    let (s1, s2, s3, s4) = (e("-40"), e("10"), e("90"), e("+M13"));
    let (l1, l2) = (e("-300"), e("-M4"));
    let mut log = game(
        "rapfi",
        1,
        &[(7, 7), (8, 8), (6, 6)],
        &[
            (&e1, (5, 5)),
            ("", (4, 4)),
            (&e2, (9, 9)),
            ("", (3, 3)),
            (&e3, (10, 10)),
            ("", (2, 2)),
            (&e4, (11, 11)),
        ],
    );
    log += &game(
        "rapfi",
        2,
        &[(7, 7), (8, 8)],
        &[
            ("", (6, 6)),
            (&s1, (5, 5)),
            ("", (4, 4)),
            (&s2, (9, 9)),
            ("", (3, 3)),
            (&s3, (10, 10)),
            ("", (2, 2)),
            (&s4, (11, 11)),
        ],
    );
    log += &game(
        "rapfi",
        1,
        &[(7, 7)],
        &[(&l1, (8, 8)), ("", (6, 6)), (&l2, (9, 9))],
    );
    let Some(out) = run(&log, "rapfi") else {
        return;
    };
    assert!(
        out.contains("3 games of rapfi; 2 forced wins announced"),
        "{out}"
    );
    assert!(
        out.contains("gradual (above 300 before) 1, sudden 1"),
        "{out}"
    );
    // Wins of 25 and 13 plies, both announced at ply 9 (0-based); the lost game's
    // `-M4` is no win.
    assert!(out.contains("median 19.0 plies (min 13, max 25)"), "{out}");
    assert!(out.contains("announced at median ply 9.0\n"), "{out}");
}

#[test]
fn pentazen_mate_scores_read_as_forced_wins() {
    let (e1, e2) = ("dep 18-33 ev 61 nd 344k", "dep 18-33 ev +v25 nd 344k");
    let log = game(
        "pentazen",
        1,
        &[(7, 7), (8, 8), (6, 6)],
        &[(e1, (5, 5)), ("", (4, 4)), (e2, (9, 9))],
    );
    let Some(out) = run(&log, "pentazen") else {
        return;
    };
    assert!(
        out.contains("1 games of pentazen; 1 forced wins announced"),
        "{out}"
    );
    assert!(out.contains("sudden 1"), "{out}");
}
