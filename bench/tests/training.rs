//! The learned evaluation's pipeline end to end on a tiny run: `selfplay` writes games that
//! do not depend on the thread count, resumes after an interruption (a torn last game)
//! to the same bytes as an uninterrupted run, refuses to resume with other settings; and
//! `train` fits weight files that the engine loads and plays with.

use rensa::search::learned::{LearnedWeights, WeightFamily, WeightSet};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

const SELFPLAY: &str = env!("CARGO_BIN_EXE_selfplay");
const TRAIN: &str = env!("CARGO_BIN_EXE_train");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rensa-training-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn selfplay(out: &Path, games: u32, threads: u32, nodes: u32) -> String {
    let run = Command::new(SELFPLAY)
        .arg("--out")
        .arg(out)
        .args(["--games", &games.to_string(), "--nodes", &nodes.to_string()])
        .args(["--threads", &threads.to_string(), "--seed", "5", "--quiet"])
        .output()
        .expect("selfplay runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(run.status.success(), "{text}");
    text
}

/// Run `train` with `args`; it must succeed. Its standard output.
fn train(args: &[&OsStr]) -> String {
    let run = Command::new(TRAIN).args(args).output().expect("train runs");
    let text = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(
        run.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    text
}

#[test]
fn self_play_is_deterministic_and_resumes_where_it_stopped() {
    let dir = scratch("selfplay");
    let whole = dir.join("whole.rgs");
    selfplay(&whole, 12, 2, 400);
    let one_thread = dir.join("one.rgs");
    selfplay(&one_thread, 12, 1, 400);
    let bytes = std::fs::read(&whole).unwrap();
    assert_eq!(
        bytes,
        std::fs::read(&one_thread).unwrap(),
        "threads change nothing"
    );
    let data = rensa_bench::selfplay::parse(&bytes).unwrap();
    assert!(data.games.len() >= 10, "{} games", data.games.len());
    assert_eq!(data.torn_bytes, 0);

    // Interrupted: the schedule's first 7 games (those whose start fits) and part of the
    // next one on disk.
    let resumed = dir.join("resumed.rgs");
    let seven = selfplay(&resumed, 7, 2, 400);
    let kept = rensa_bench::selfplay::read(&resumed).unwrap().games;
    assert!(
        !kept.is_empty() && kept.iter().all(|g| g.index < 7),
        "{seven}"
    );
    assert!(
        seven.contains(&format!("{} new games", kept.len())),
        "{seven}"
    );
    let mut partial = std::fs::read(&resumed).unwrap();
    let eighth_start = partial.len();
    partial.extend_from_slice(&bytes[eighth_start..eighth_start + 9]);
    std::fs::write(&resumed, &partial).unwrap();
    let text = selfplay(&resumed, 12, 2, 400);
    assert!(
        text.contains("cutting a torn last game (9 bytes)"),
        "{text}"
    );
    assert!(text.contains("resuming"), "{text}");
    assert_eq!(
        std::fs::read(&resumed).unwrap(),
        bytes,
        "the same file as one run"
    );

    // Other settings: refused, the file left alone.
    let refused = Command::new(SELFPLAY)
        .arg("--out")
        .arg(&resumed)
        .args(["--games", "14", "--nodes", "500", "--seed", "5", "--quiet"])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("other settings"));
    assert_eq!(std::fs::read(&resumed).unwrap(), bytes);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn training_writes_weights_the_engine_loads() {
    let dir = scratch("train");
    let data = dir.join("data.rgs");
    selfplay(&data, 120, 2, 300);
    let weights = dir.join("weights");
    let text = train(&[
        data.as_os_str(),
        "--out-dir".as_ref(),
        weights.as_os_str(),
        "--epochs".as_ref(),
        "3".as_ref(),
    ]);
    for family in WeightFamily::ALL {
        let name = family.name();
        assert!(text.contains(&format!("{name}: scale K = ")), "{text}");
        assert!(
            text.contains(&format!("{name} epoch 3: fit loss")),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "{name}: learned evaluation in points: validation loss"
            )),
            "{text}"
        );
        let bytes = std::fs::read(weights.join(format!("{name}.rnw"))).unwrap();
        let w = LearnedWeights::from_bytes(&bytes, Some(family)).unwrap();
        assert!(w.mine.iter().any(|&v| v != 0), "{name} learned something");
    }
    let set = WeightSet::from_folder(&weights).unwrap();
    assert_eq!(
        set.for_rule(rensa::rules::Rule::Renju).family,
        WeightFamily::Renju
    );
    assert!(set.for_rule(rensa::rules::Rule::Renju).net.is_none());

    // A network on top of those tables: the tables are copied beside it, the integer
    // network's loss is printed, and the folder loads with a network for each family.
    let with_net = dir.join("with-net");
    let text = train(&[
        data.as_os_str(),
        "--net".as_ref(),
        "--tables".as_ref(),
        weights.as_os_str(),
        "--out-dir".as_ref(),
        with_net.as_os_str(),
        "--net-epochs".as_ref(),
        "2".as_ref(),
    ]);
    let set = WeightSet::from_folder(&with_net).unwrap();
    for family in WeightFamily::ALL {
        let name = family.name();
        assert!(
            text.contains(&format!("{name} network epoch 2: fit loss")),
            "{text}"
        );
        assert!(
            text.contains(&format!(
                "{name}: tables + integer network: validation loss"
            )),
            "{text}"
        );
        let tables = std::fs::read(weights.join(format!("{name}.rnw"))).unwrap();
        let copied = std::fs::read(with_net.join(format!("{name}.rnw"))).unwrap();
        assert_eq!(tables, copied, "{name}: the tables are copied unchanged");
    }
    for rule in rensa::rules::Rule::ALL {
        let net = set.for_rule(rule).net.as_ref().expect("a network");
        assert_eq!(net.family, WeightFamily::of(rule));
        assert!(
            net.output.iter().any(|&v| v != 0),
            "{rule:?}: the network learned"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
