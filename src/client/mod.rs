//! The engine client: hosting any Gomocup (`pbrain-*`) engine as a separate process and
//! holding the manager's side of the protocol with it, with its clock and its forfeits.
//! The match runner in `bench/` plays its games through it, and so can a front end of the
//! engine binary.
//!
//! - [`spec`]: how to start an engine and its time control;
//! - [`process`]: one engine process in its own directory and process group, a reader
//!   thread stamping every line, sends, receives with deadlines, suspend, resume, kill;
//! - [`reply`]: classifying the lines an engine prints;
//! - [`clock`]: per-move limits, tolerance, `YXSTOP` and overrun bookkeeping;
//! - [`conversation`]: `ABOUT`, `START`, `INFO`, move requests and waiting for the answer,
//!   with the forfeits a manager declares (time, crash, malformed reply, memory);
//! - [`sys`]: process-group signals and memory readings.
//!
//! This is a front-end layer: it may use the records and the board and rules code, and
//! nothing of the engine's search or protocol reads from it.

pub mod clock;
pub mod conversation;
pub mod process;
pub mod reply;
pub mod spec;
pub mod sys;
