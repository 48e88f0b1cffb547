//! `selfplay`: training data for the evaluation: Rensa plays itself at a fixed node count
//! and every game is appended to a data file (`rensa_bench::selfplay` documents the format).
//!
//! The games follow a fixed schedule (freestyle 15x15 and 20x20, standard, renju in turn;
//! file openings under their symmetries plus random moves, and random near-equal starts);
//! game `i` depends only on `i` and the settings, so a run is the same for a seed however
//! many threads play it. Games are written in schedule order and flushed one by one: run
//! the same command again after an interruption and it resumes after the last whole game.

use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};
use rensa_bench::openings;
use rensa_bench::selfplay::{self, GameRecord, Settings};
use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::{IsTerminal, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;

#[derive(Parser, Debug)]
#[command(about = "Self-play games for training data, appended to a resumable data file")]
struct Args {
    /// The data file (created, or resumed when it exists).
    #[arg(long)]
    out: PathBuf,
    /// Games in the schedule (a resumed run plays those not yet in the file).
    #[arg(long, default_value_t = 1_000)]
    games: u32,
    /// Search nodes per move.
    #[arg(long, default_value_t = 5_000)]
    nodes: u64,
    /// Seed of every random choice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random moves after each file opening.
    #[arg(long, default_value_t = 2)]
    random_moves: usize,
    /// Transposition table per game, MiB.
    #[arg(long, default_value_t = 16)]
    hash_mb: usize,
    /// Games played at the same time (the games do not depend on it).
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Opening file (offset or pos format).
    #[arg(
        long,
        default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/testdata/openings/piskvork-openings.txt")
    )]
    openings: PathBuf,
    /// No progress bar (one summary line at the end).
    #[arg(long)]
    quiet: bool,
}

fn fail(message: String) -> ! {
    eprintln!("selfplay: {message}");
    std::process::exit(2);
}

fn main() {
    let args = Args::parse();
    let (file_openings, _) = openings::read_file(&args.openings, None).unwrap_or_else(|e| fail(e));
    let settings = Settings {
        seed: args.seed,
        nodes: args.nodes,
        random_moves: args.random_moves,
        hash_bytes: args.hash_mb << 20,
    };
    let name = args
        .openings
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let line = settings.line(&name);

    // Resume: keep the whole games, cut a torn tail, go on after the last index.
    let mut start = 0u32;
    let mut done_positions = 0u64;
    let mut file = if args.out.exists() {
        let data = selfplay::read(&args.out).unwrap_or_else(|e| fail(e));
        if data.settings != line {
            fail(format!(
                "{} was made with other settings:\n  file: {}\n  now:  {line}",
                args.out.display(),
                data.settings
            ));
        }
        if let Some(last) = data.games.last() {
            start = last.index + 1;
        }
        done_positions = data.games.iter().map(positions).sum();
        let mut f = OpenOptions::new()
            .write(true)
            .open(&args.out)
            .unwrap_or_else(|e| fail(format!("{}: {e}", args.out.display())));
        if data.torn_bytes > 0 {
            eprintln!(
                "selfplay: cutting a torn last game ({} bytes)",
                data.torn_bytes
            );
        }
        f.set_len(data.valid_len as u64)
            .and_then(|_| f.seek(SeekFrom::End(0)))
            .unwrap_or_else(|e| fail(format!("{}: {e}", args.out.display())));
        eprintln!(
            "selfplay: resuming {} after {} games ({} positions)",
            args.out.display(),
            data.games.len(),
            done_positions
        );
        f
    } else {
        let mut f = std::fs::File::create(&args.out)
            .unwrap_or_else(|e| fail(format!("{}: {e}", args.out.display())));
        f.write_all(&selfplay::header_bytes(&line))
            .and_then(|_| f.flush())
            .unwrap_or_else(|e| fail(format!("{}: {e}", args.out.display())));
        f
    };

    let total = args.games.saturating_sub(start);
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(u64::from(total))
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} games  {msg}  ETA {eta}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    let log_lines = !args.quiet && !std::io::stderr().is_terminal();
    let t0 = Instant::now();
    let next = AtomicU32::new(start);
    let (tx, rx) = crossbeam_channel::unbounded::<(u32, Option<GameRecord>)>();
    let mut new_positions = 0u64;
    let mut written = 0u64;
    std::thread::scope(|scope| {
        for _ in 0..args.threads.max(1) {
            let tx = tx.clone();
            let (next, settings, file_openings) = (&next, &settings, &file_openings);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= args.games {
                    break;
                }
                let game = selfplay::play_game(i, settings, file_openings);
                if tx.send((i, game)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        // Write in schedule order, whatever order the threads finish in.
        let mut pending = BTreeMap::new();
        let mut expect = start;
        for (i, game) in rx {
            pending.insert(i, game);
            while let Some(game) = pending.remove(&expect) {
                if let Some(game) = game {
                    new_positions += positions(&game);
                    written += 1;
                    selfplay::append(&mut file, &game)
                        .unwrap_or_else(|e| fail(format!("{}: {e}", args.out.display())));
                }
                expect += 1;
                bar.inc(1);
                let rate = new_positions as f64 / t0.elapsed().as_secs_f64().max(1e-9);
                let status = format!(
                    "{} positions  {rate:.0} positions/s",
                    done_positions + new_positions
                );
                // Without a terminal (a log file) the bar is hidden: a line now and then.
                if log_lines && (expect - start).is_multiple_of(500) {
                    eprintln!(
                        "{}/{} games  {status}  {:.0} s",
                        expect - start,
                        total,
                        t0.elapsed().as_secs_f64()
                    );
                }
                bar.set_message(status);
            }
        }
    });
    bar.finish();
    println!(
        "{} new games, {} new positions in {:.1} s ({:.0} positions/s); the file holds {} positions",
        written,
        new_positions,
        t0.elapsed().as_secs_f64(),
        new_positions as f64 / t0.elapsed().as_secs_f64().max(1e-9),
        done_positions + new_positions
    );
}

/// A game's searched positions (its moves after the opening).
fn positions(game: &GameRecord) -> u64 {
    (game.moves.len() - usize::from(game.opening)) as u64
}
