//! `pbrain-rensa`: the Rensa engine as a Gomocup (Piskvork protocol) brain.
//!
//! Without arguments it speaks the protocol on stdin/stdout. Logs go to stderr
//! (`RUST_LOG=debug` for more).

use clap::{Parser, Subcommand};
use rensa::protocol::io::{spawn_reader, spawn_writer};
use rensa::protocol::session::Session;

#[derive(Parser)]
#[command(
    name = "pbrain-rensa",
    version,
    about = "Rensa: a Gomoku / Renju engine for Gomocup managers"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Mode>,
}

#[derive(Subcommand)]
enum Mode {
    /// Speak the Gomocup protocol on stdin/stdout (the default).
    Protocol,
    /// Search the fixed bench positions (1 thread, fixed depth) and print `Bench: <nodes>`.
    Bench {
        /// Search depth.
        #[arg(long, default_value_t = rensa::bench::BENCH_DEPTH)]
        depth: u32,
    },
}

fn main() {
    let cli = Cli::parse();
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .format_timestamp_millis()
        .init();
    match cli.command.unwrap_or(Mode::Protocol) {
        Mode::Protocol => run_protocol(),
        Mode::Bench { depth } => {
            let lines = rensa::bench::run(depth);
            rensa::bench::print(&lines, depth);
        }
    }
}

fn run_protocol() {
    rensa::pattern::warm_in_background();
    let input = spawn_reader(std::io::stdin());
    let (out, writer) = spawn_writer(std::io::stdout());
    let exit = {
        let mut session = Session::new(out);
        session.run(&input)
    };
    log::debug!("session ended: {exit:?}");
    // Every Output handle is gone once the session is dropped: the writer drains and ends.
    let _ = writer.join();
    // Search threads may still be winding down; END must not wait for them.
    std::process::exit(0);
}
