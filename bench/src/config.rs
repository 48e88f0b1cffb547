//! Match configuration: engines and the global options, parsed from the `key=value` words
//! that follow `--engine`, `--each`, `--openings` and `--sprt` into the engine
//! specifications and time controls of [`rensa::client::spec`].

use crate::cmdline::split_words;
use rensa::client::spec::{seconds_to_ms, EngineSpec, TimeControl};
use rensa::rules::Rule;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The `key=value` settings of one `--engine` (or `--each`) before they are combined.
#[derive(Clone, Debug, Default)]
pub struct EngineOptions {
    pairs: Vec<(String, String)>,
}

impl EngineOptions {
    /// Parse `key=value` words; `option.K=V` keeps its `option.` prefix.
    pub fn parse(words: &[String]) -> Result<EngineOptions, String> {
        let mut pairs = Vec::new();
        for w in words {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| format!("engine option {w:?} is not key=value"))?;
            let key = k.trim().to_string();
            let known = matches!(
                key.as_str(),
                "cmd"
                    | "name"
                    | "tc"
                    | "tolerance"
                    | "maxmemory"
                    | "max_memory"
                    | "thread"
                    | "threads"
                    | "depth"
                    | "nodes"
                    | "dir"
                    | "stderr"
            ) || key.starts_with("option.");
            if !known {
                return Err(format!("unknown engine option {key:?}"));
            }
            pairs.push((key, v.to_string()));
        }
        Ok(EngineOptions { pairs })
    }

    /// `each` settings first, then this engine's (later ones win).
    pub fn merged(each: &EngineOptions, own: &EngineOptions) -> EngineOptions {
        let mut pairs = each.pairs.clone();
        pairs.extend(own.pairs.iter().cloned());
        EngineOptions { pairs }
    }

    /// Build the engine, resolving the program path against `cwd` and `PATH`.
    pub fn build(&self, cwd: &Path, default_tolerance: Duration) -> Result<EngineSpec, String> {
        let mut cmd = None;
        let mut spec_dir = None;
        let mut e = EngineSpec::new(PathBuf::new());
        e.tolerance = default_tolerance;
        let int = |k: &str, v: &str| -> Result<u64, String> {
            v.trim()
                .parse::<u64>()
                .map_err(|_| format!("{k}= needs a non-negative integer, got {v:?}"))
        };
        for (k, v) in &self.pairs {
            match k.as_str() {
                "cmd" => cmd = Some(v.clone()),
                "name" => e.name = Some(v.clone()),
                "tc" => e.tc = TimeControl::parse(v)?,
                "tolerance" => e.tolerance = Duration::from_millis(seconds_to_ms(v)?),
                "maxmemory" | "max_memory" => e.max_memory = int(k, v)?,
                "thread" | "threads" => e.threads = Some(int(k, v)?),
                "depth" => e.depth = Some(int(k, v)?),
                "nodes" => e.nodes = Some(int(k, v)?),
                "dir" => spec_dir = Some(PathBuf::from(v)),
                "stderr" => e.stderr = matches!(v.as_str(), "1" | "true" | "yes" | "on"),
                key => {
                    let name = key.trim_start_matches("option.");
                    if name.is_empty() || name.contains(char::is_whitespace) {
                        return Err(format!("bad option name in {key:?}"));
                    }
                    e.options.push((name.to_string(), v.clone()));
                }
            }
        }
        let cmd = cmd.ok_or("every engine needs cmd=")?;
        let words = split_words(&cmd)?;
        let (prog, args) = words.split_first().ok_or("cmd= is empty")?;
        e.program = resolve_program(prog, cwd)?;
        e.args = args.to_vec();
        e.workdir = match spec_dir {
            Some(d) if d.is_absolute() => d,
            Some(d) => cwd.join(d),
            None => e
                .program
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_else(|| cwd.to_path_buf()),
        };
        e.cmd = cmd;
        Ok(e)
    }
}

/// Find the program: a path with a `/` relative to `cwd`, else a search of `PATH`.
fn resolve_program(prog: &str, cwd: &Path) -> Result<PathBuf, String> {
    let p = Path::new(prog);
    let candidate = if p.is_absolute() {
        p.to_path_buf()
    } else if prog.contains('/') || prog.contains(std::path::MAIN_SEPARATOR) {
        cwd.join(p)
    } else {
        let local = cwd.join(p);
        let from_path = std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|d| d.join(p))
                .find(|c| c.is_file())
        });
        match from_path {
            Some(c) => c,
            None if local.is_file() => local,
            None => return Err(format!("engine program {prog:?} not found in PATH")),
        }
    };
    if !candidate.is_file() {
        return Err(format!(
            "engine program {} does not exist",
            candidate.display()
        ));
    }
    candidate
        .canonicalize()
        .map_err(|e| format!("{}: {e}", candidate.display()))
}

/// A file name usable as an engine name: the program's stem without a `pbrain-` prefix.
pub fn default_name(spec: &EngineSpec) -> String {
    let stem = spec
        .program
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "engine".into());
    stem.strip_prefix("pbrain-").unwrap_or(&stem).to_string()
}

/// Parse a rule given as a Gomocup code or a name.
pub fn parse_rule(text: &str) -> Result<Rule, String> {
    let t = text.trim().to_ascii_lowercase();
    let rule = match t.as_str() {
        "freestyle" | "gomoku" => Rule::Freestyle,
        "standard" | "exact" => Rule::Standard,
        "renju" => Rule::Renju,
        "caro" => Rule::Caro,
        "caro-exact" | "caroexact" | "standard-caro" => Rule::CaroExact,
        _ => {
            let code: i64 = t.parse().map_err(|_| format!("unknown rule {text:?}"))?;
            if ![0, 1, 4, 8, 9].contains(&code) {
                return Err(format!("rule code must be 0, 1, 4, 8 or 9, got {code}"));
            }
            Rule::from_code(code).ok_or("bad rule")?.0
        }
    };
    Ok(rule)
}

/// Parse a board size `N` or `WxH` (5 to 32 per side).
pub fn parse_board_size(text: &str) -> Result<(usize, usize), String> {
    let t = text.trim().to_ascii_lowercase();
    let (w, h) = match t.split_once('x') {
        Some((w, h)) => (w.trim().parse(), h.trim().parse()),
        None => (t.parse(), t.parse()),
    };
    let (w, h): (usize, usize) = match (w, h) {
        (Ok(w), Ok(h)) => (w, h),
        _ => return Err(format!("board size must be N or WxH, got {text:?}")),
    };
    if !rensa::board::Board::size_supported(w, h) {
        return Err(format!("board size {w}x{h} unsupported (5 to 32 per side)"));
    }
    Ok((w, h))
}

/// Split `key=value` words into pairs, for the `--openings` and `--sprt` groups.
pub fn key_values(words: &[String], allowed: &[&str]) -> Result<Vec<(String, String)>, String> {
    words
        .iter()
        .map(|w| {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| format!("{w:?} is not key=value"))?;
            if !allowed.contains(&k) {
                return Err(format!("unknown key {k:?} (expected one of {allowed:?})"));
            }
            Ok((k.to_string(), v.to_string()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rensa::client::spec::DEFAULT_TOLERANCE;

    #[test]
    fn rules_and_sizes_parse() {
        assert_eq!(parse_rule("4").unwrap(), Rule::Renju);
        assert_eq!(parse_rule("caro").unwrap(), Rule::Caro);
        assert_eq!(parse_rule("9").unwrap(), Rule::CaroExact);
        assert!(parse_rule("2").is_err());
        assert_eq!(parse_board_size("15").unwrap(), (15, 15));
        assert_eq!(parse_board_size("20x15").unwrap(), (20, 15));
        assert!(parse_board_size("33").is_err());
        assert!(parse_board_size("4x10").is_err());
    }

    #[test]
    fn engine_options_build() {
        let dir = std::env::temp_dir();
        let sh = Path::new("/bin/sh");
        if !sh.exists() {
            return;
        }
        let each =
            EngineOptions::parse(&["tc=10/1".into(), "option.hash_size=1024".into()]).unwrap();
        let own = EngineOptions::parse(&[
            "cmd=/bin/sh -c 'exit 0'".into(),
            "tc=5/0.5+0.1".into(),
            "thread=2".into(),
        ])
        .unwrap();
        let e = EngineOptions::merged(&each, &own)
            .build(&dir, DEFAULT_TOLERANCE)
            .unwrap();
        assert_eq!(e.args, ["-c", "exit 0"]);
        assert_eq!(e.tc, TimeControl::parse("5/0.5+0.1").unwrap());
        assert_eq!(e.threads, Some(2));
        assert_eq!(e.options, [("hash_size".to_string(), "1024".to_string())]);
        assert!(EngineOptions::parse(&["bogus=1".into()]).is_err());
        assert!(EngineOptions::parse(&["cmd=/nonexistent/x".into()])
            .unwrap()
            .build(&dir, DEFAULT_TOLERANCE)
            .is_err());
    }
}
