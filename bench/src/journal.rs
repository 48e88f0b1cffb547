//! The match journal: one line per finished game, appended and flushed as each game ends,
//! so that an interrupted match (a long gauntlet or SPRT) can be resumed with
//! `rensa-match --resume`: the games already played count again (tables, Elo, the SPRT's
//! state) and only the others are played.
//!
//! The journal lives beside the JSON summary (`summary.json.journal`). Its first line is
//! the match's fingerprint (engines, clocks, rule, board, schedule, openings and their
//! seed); a resumed match must have the same one. Each further line is a game, as
//! tab-separated `key=value` fields (values never contain tabs or newlines):
//!
//! ```text
//! game=17  names=A|B  programs=a|b  winner=1  end=five  detail=...  opening=3
//! moves=7,7,0;8,8,0;...,412  black=moves,total_ms,max_ms,turn_over,match_over,rss
//! white=...  started_ms=...  duration_ms=...  overhead_ns=...  overhead_moves=...
//! pickup_ns=...  restarted=0,1
//! ```
//!
//! (`winner` 0 draw, 1 Black, 2 White; a missing optional figure is `-`.)

use crate::game::{GameRecord, GameSetup, SideStats};
use crate::tournament::MatchConfig;
use rensa::board::{Color, Pos};
use rensa::records::{AppendFile, Termination};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The journal's path for a JSON summary path.
pub fn path_for(json: &Path) -> PathBuf {
    let mut name = json.as_os_str().to_owned();
    name.push(".journal");
    PathBuf::from(name)
}

/// The match's fingerprint: everything that decides which games are played and how.
pub fn fingerprint(config: &MatchConfig, opening_seed: Option<u64>) -> String {
    let engines: Vec<String> = config.engines.iter().map(|e| format!("{e:?}")).collect();
    let text = format!(
        "rensa-match journal v1; engines {engines:?}; board {}x{}; rule {:?}; games {}; rounds {}; \
         schedule {:?}; repeat {}; openings {}; seed {opening_seed:?}; drawafter {:?}; judge {}; \
         sendbyboard {}",
        config.width,
        config.height,
        config.rule,
        config.games,
        config.rounds,
        config.schedule,
        config.repeat,
        config.openings.as_ref().map_or(0, |b| b.len()),
        config.draw_after,
        config.judge,
        config.send_by_board
    );
    clean(&text)
}

/// A value with tabs and line breaks replaced (they separate fields and games).
fn clean(text: &str) -> String {
    text.replace(['\t', '\n', '\r'], " ")
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map_or_else(|| "-".to_string(), |v| v.to_string())
}

fn side_text(s: &SideStats) -> String {
    format!(
        "{},{},{},{},{},{}",
        s.moves,
        s.total_ms,
        s.max_move_ms,
        opt(s.max_turn_overrun_ms),
        opt(s.max_match_overrun_ms),
        opt(s.peak_rss)
    )
}

/// One game's journal line (no line break).
pub fn line(g: &GameRecord) -> String {
    let moves: Vec<String> = g
        .moves
        .iter()
        .map(|(p, ms)| format!("{},{},{ms}", p.x(), p.y()))
        .collect();
    let started = g
        .started
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let fields = [
        ("game", g.setup.id.to_string()),
        ("names", clean(&g.names.join("|"))),
        ("programs", clean(&g.programs.join("|"))),
        (
            "winner",
            match g.winner {
                None => "0",
                Some(Color::Black) => "1",
                Some(Color::White) => "2",
            }
            .to_string(),
        ),
        ("end", g.termination.label().to_string()),
        ("detail", clean(&g.detail)),
        ("opening", g.opening_len.to_string()),
        ("moves", moves.join(";")),
        ("black", side_text(&g.sides[0])),
        ("white", side_text(&g.sides[1])),
        ("started_ms", started.to_string()),
        ("duration_ms", g.duration.as_millis().to_string()),
        ("overhead_ns", g.overhead.as_nanos().to_string()),
        ("overhead_moves", g.overhead_moves.to_string()),
        ("pickup_ns", g.pickup.as_nanos().to_string()),
        (
            "restarted",
            format!("{},{}", u8::from(g.restarted[0]), u8::from(g.restarted[1])),
        ),
    ];
    fields
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("\t")
}

fn number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{what}: {text:?} is not a number"))
}

fn opt_number<T: std::str::FromStr>(text: &str, what: &str) -> Result<Option<T>, String> {
    if text == "-" {
        Ok(None)
    } else {
        number(text, what).map(Some)
    }
}

fn parse_side(text: &str) -> Result<SideStats, String> {
    let f: Vec<&str> = text.split(',').collect();
    if f.len() != 6 {
        return Err(format!("side figures {text:?}: six expected"));
    }
    Ok(SideStats {
        moves: number(f[0], "moves")?,
        total_ms: number(f[1], "total_ms")?,
        max_move_ms: number(f[2], "max_move_ms")?,
        max_turn_overrun_ms: opt_number(f[3], "turn overrun")?,
        max_match_overrun_ms: opt_number(f[4], "match overrun")?,
        peak_rss: opt_number(f[5], "peak rss")?,
    })
}

fn pair(text: &str) -> Result<[String; 2], String> {
    match text.split_once('|') {
        Some((a, b)) => Ok([a.to_string(), b.to_string()]),
        None => Err(format!("{text:?}: two names expected")),
    }
}

/// The openings' seed a fingerprint records (None: sequential order or no openings).
pub fn seed_in(fingerprint: &str) -> Option<u64> {
    let rest = &fingerprint[fingerprint.find("seed Some(")? + "seed Some(".len()..];
    rest[..rest.find(')')?].parse().ok()
}

/// Read one game's line back into its record; `schedule` gives the game's setup (the
/// schedule of the same match, so the ids agree), `config` its board and rule.
pub fn parse_line(
    text: &str,
    schedule: &[GameSetup],
    config: &MatchConfig,
) -> Result<GameRecord, String> {
    let fields: HashMap<&str, &str> = text.split('\t').filter_map(|f| f.split_once('=')).collect();
    let get = |k: &str| {
        fields
            .get(k)
            .copied()
            .ok_or_else(|| format!("no {k}= field"))
    };
    let id: usize = number(get("game")?, "game")?;
    let setup = schedule
        .iter()
        .find(|s| s.id == id)
        .cloned()
        .ok_or_else(|| format!("game {id} is not in this match's schedule"))?;
    let moves = get("moves")?;
    let moves = if moves.is_empty() {
        Vec::new()
    } else {
        moves
            .split(';')
            .map(|m| {
                let f: Vec<&str> = m.split(',').collect();
                if f.len() != 3 {
                    return Err(format!("move {m:?}"));
                }
                Ok((
                    Pos::new(number(f[0], "x")?, number(f[1], "y")?),
                    number(f[2], "ms")?,
                ))
            })
            .collect::<Result<Vec<_>, String>>()?
    };
    let end = get("end")?;
    let termination = *Termination::ALL
        .iter()
        .find(|t| t.label() == end)
        .ok_or_else(|| format!("unknown ending {end:?}"))?;
    let restarted: Vec<&str> = get("restarted")?.split(',').collect();
    if restarted.len() != 2 {
        return Err("restarted: two flags expected".into());
    }
    Ok(GameRecord {
        setup,
        names: pair(get("names")?)?,
        programs: pair(get("programs")?)?,
        width: config.width,
        height: config.height,
        rule: config.rule,
        moves,
        opening_len: number(get("opening")?, "opening")?,
        winner: match get("winner")? {
            "0" => None,
            "1" => Some(Color::Black),
            "2" => Some(Color::White),
            w => return Err(format!("winner {w:?}")),
        },
        termination,
        detail: get("detail")?.to_string(),
        sides: [parse_side(get("black")?)?, parse_side(get("white")?)?],
        started: SystemTime::UNIX_EPOCH
            + Duration::from_millis(number(get("started_ms")?, "started_ms")?),
        duration: Duration::from_millis(number(get("duration_ms")?, "duration_ms")?),
        messages: Vec::new(),
        overhead: Duration::from_nanos(number(get("overhead_ns")?, "overhead_ns")?),
        overhead_moves: number(get("overhead_moves")?, "overhead_moves")?,
        pickup: Duration::from_nanos(number(get("pickup_ns")?, "pickup_ns")?),
        restarted: [restarted[0] == "1", restarted[1] == "1"],
    })
}

/// A journal read back: its fingerprint line and its games (a torn last line, from an
/// interruption while it was written, is dropped).
pub fn read(
    path: &Path,
    schedule: &[GameSetup],
    config: &MatchConfig,
) -> Result<(String, Vec<GameRecord>), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot resume: {}: {e}", path.display()))?;
    let complete = match text.rfind('\n') {
        Some(end) => &text[..end],
        None => "",
    };
    let mut lines = complete.lines();
    let header = lines
        .next()
        .ok_or_else(|| format!("cannot resume: {} is empty", path.display()))?
        .to_string();
    let mut games = Vec::new();
    for (i, l) in lines.enumerate() {
        let g = parse_line(l, schedule, config)
            .map_err(|e| format!("{} line {}: {e}", path.display(), i + 2))?;
        games.push(g);
    }
    Ok((header, games))
}

/// The journal being written.
pub struct Journal {
    file: AppendFile,
}

impl Journal {
    /// A new journal (truncating any old one) starting with `fingerprint`.
    pub fn create(path: &Path, fingerprint: &str) -> Result<Journal, String> {
        let mut file = AppendFile::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
        file.append(&format!("{fingerprint}\n"))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Journal { file })
    }

    /// An existing journal to append to, its torn last line (if any) cut first.
    pub fn reopen(path: &Path) -> Result<Journal, String> {
        let err = |e: std::io::Error| format!("{}: {e}", path.display());
        let text = std::fs::read_to_string(path).map_err(err)?;
        let keep = text.rfind('\n').map_or(0, |i| i + 1);
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(err)?;
        file.set_len(keep as u64).map_err(err)?;
        drop(file);
        Ok(Journal {
            file: AppendFile::append_to(path).map_err(err)?,
        })
    }

    /// Append one finished game and flush.
    pub fn add(&mut self, g: &GameRecord) -> std::io::Result<()> {
        self.file.append(&format!("{}\n", line(g)))
    }
}
