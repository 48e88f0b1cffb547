//! What the client needs to know about an engine: how to start it ([`EngineSpec`]) and
//! its time control ([`TimeControl`]), with the Gomocup defaults.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// Default `max_memory` sent to engines: 350 MiB, the Gomocup limit.
pub const DEFAULT_MAX_MEMORY: u64 = 367_001_600;
/// Default tolerance on every time limit, as in c-gomoku-cli.
pub const DEFAULT_TOLERANCE: Duration = Duration::from_secs(3);
/// Value of `INFO time_left` when the match clock is unlimited.
pub const UNLIMITED_TIME_LEFT: i64 = 2_147_483_647;

/// A time control: per match, per move and an increment, all in milliseconds. Zero match
/// time means an unlimited match; zero turn time means no per-move limit (and is not sent).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeControl {
    /// Time for the whole game (`INFO timeout_match`), 0 = unlimited.
    pub match_ms: u64,
    /// Time per move (`INFO timeout_turn`), 0 = no per-move limit.
    pub turn_ms: u64,
    /// Added to the match clock before every move.
    pub inc_ms: u64,
}

impl TimeControl {
    /// Parse `match/turn+inc` in seconds (decimals allowed). `match` alone also sets the
    /// per-move limit to the match time, as c-gomoku-cli does; `+inc` is optional.
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let (main, inc) = match text.split_once('+') {
            Some((m, i)) => (m, seconds_to_ms(i)?),
            None => (text, 0),
        };
        let (match_ms, turn_ms) = match main.split_once('/') {
            Some((m, t)) => (seconds_to_ms(m)?, seconds_to_ms(t)?),
            None => {
                let m = seconds_to_ms(main)?;
                (m, m)
            }
        };
        Ok(TimeControl {
            match_ms,
            turn_ms,
            inc_ms: inc,
        })
    }

    /// True when no limit of any kind applies.
    pub fn is_unlimited(&self) -> bool {
        self.match_ms == 0 && self.turn_ms == 0
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = |ms: u64| {
            let v = ms as f64 / 1000.0;
            format!("{v}")
        };
        write!(f, "{}/{}", s(self.match_ms), s(self.turn_ms))?;
        if self.inc_ms > 0 {
            write!(f, "+{}", s(self.inc_ms))?;
        }
        Ok(())
    }
}

/// Parse a non-negative number of seconds into milliseconds.
pub fn seconds_to_ms(text: &str) -> Result<u64, String> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("not a number of seconds: {text:?}"))?;
    if !v.is_finite() || v < 0.0 {
        return Err(format!("seconds must be a non-negative number: {text:?}"));
    }
    Ok((v * 1000.0).round() as u64)
}

/// One engine taking part in the match.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// The command line as given.
    pub cmd: String,
    /// Absolute path of the program.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// Working directory: the program's own directory unless `dir=` says otherwise.
    pub workdir: PathBuf,
    /// Display name (`name=`, else the ABOUT name, else the file name).
    pub name: Option<String>,
    /// Time control.
    pub tc: TimeControl,
    /// Tolerance on every limit.
    pub tolerance: Duration,
    /// `INFO max_memory` in bytes, 0 = unlimited (also the GomocupJudge-mode limit).
    pub max_memory: u64,
    /// `INFO thread_num`, if set.
    pub threads: Option<u64>,
    /// `INFO max_depth`, if set.
    pub depth: Option<u64>,
    /// `INFO max_node`, if set.
    pub nodes: Option<u64>,
    /// Extra `INFO key value` lines, in order.
    pub options: Vec<(String, String)>,
    /// Pass the engine's stderr through instead of discarding it.
    pub stderr: bool,
}

impl EngineSpec {
    /// An engine with the defaults: no arguments, run in the program's own directory,
    /// unlimited time with the default tolerance, the Gomocup memory limit, no extra
    /// settings, stderr discarded.
    pub fn new(program: PathBuf) -> EngineSpec {
        EngineSpec {
            cmd: program.display().to_string(),
            workdir: program.parent().map(Path::to_path_buf).unwrap_or_default(),
            program,
            args: Vec::new(),
            name: None,
            tc: TimeControl::default(),
            tolerance: DEFAULT_TOLERANCE,
            max_memory: DEFAULT_MAX_MEMORY,
            threads: None,
            depth: None,
            nodes: None,
            options: Vec::new(),
            stderr: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse() {
        let tc = TimeControl::parse("60/5+0.5").unwrap();
        assert_eq!((tc.match_ms, tc.turn_ms, tc.inc_ms), (60_000, 5_000, 500));
        let tc = TimeControl::parse("10").unwrap();
        assert_eq!((tc.match_ms, tc.turn_ms, tc.inc_ms), (10_000, 10_000, 0));
        let tc = TimeControl::parse("0/0.2").unwrap();
        assert_eq!((tc.match_ms, tc.turn_ms), (0, 200));
        assert!(TimeControl::parse("x/1").is_err());
        assert!(TimeControl::parse("-1").is_err());
        assert_eq!(
            TimeControl::parse("180/30+1").unwrap().to_string(),
            "180/30+1"
        );
    }

    #[test]
    fn a_new_spec_runs_in_the_program_directory() {
        let e = EngineSpec::new(PathBuf::from("/opt/engines/pbrain-x"));
        assert_eq!(e.workdir, Path::new("/opt/engines"));
        assert_eq!(e.cmd, "/opt/engines/pbrain-x");
        assert!(e.tc.is_unlimited());
        assert_eq!(e.max_memory, DEFAULT_MAX_MEMORY);
    }
}
