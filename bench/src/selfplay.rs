//! Self-play training data: the games Rensa plays against itself at a fixed node count,
//! the file format they are stored in, and the positions a trainer reads back from them.
//!
//! # File format, version 1 (all integers little-endian)
//!
//! ```text
//! header   "RENSAGMS"            8 bytes, magic
//!          u16 version = 1
//!          u16 n, then n bytes   the generator's settings as UTF-8 ("seed=1 nodes=5000 ...");
//!                                a resumed run must have the same settings
//! game*    u32 index             the game's number in the schedule (0, 1, 2, ... in order)
//!          u8  rule              0 freestyle, 1 standard, 2 renju, 3 caro, 4 caro exact
//!          u8  width, u8 height
//!          u8  result            0 draw, 1 Black won, 2 White won
//!          u16 opening           how many of the moves were the opening (not searched)
//!          u16 moves             how many moves follow, Black's first
//!          moves x (u8 x, u8 y, i16 score)
//!                                the square played; for searched moves the search's score
//!                                for the side to move before the move (the played move is
//!                                the search's best move), i16::MIN for opening moves;
//!                                scores beyond +-19000 are won / lost (`search::score`)
//!          u32 check             FNV-1a of the game's bytes from `index` on
//! ```
//!
//! A position is a game's first `k` moves (`k` ≥ the opening's length); the side to move
//! is Black when `k` is even. The side to move's result is the game's result seen from it.
//! A torn last game (an interrupted run) fails its length or check and is cut off when
//! the run resumes.

use crate::openings::{self, Opening};
use crate::rng::Rng;
use rensa::board::{Color, Pos};
use rensa::position::Position;
use rensa::rules::Rule;
use rensa::search::tt::TranspositionTable;
use rensa::search::{AlphaBetaSearcher, Limits, Searcher};
use std::io::{self, Read, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The magic bytes that open a data file.
pub const MAGIC: &[u8; 8] = b"RENSAGMS";
/// The format version this code writes and reads.
pub const VERSION: u16 = 1;
/// The score of a move that was not searched (an opening move).
pub const NO_SCORE: i16 = i16::MIN;

/// One stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The game's number in the generator's schedule.
    pub index: u32,
    /// The rule it was played under.
    pub rule: Rule,
    /// Board width.
    pub width: u8,
    /// Board height.
    pub height: u8,
    /// The winner, None for a draw.
    pub winner: Option<Color>,
    /// How many of the moves were the opening.
    pub opening: u16,
    /// The moves, Black's first: the square and the search score (see the module doc).
    pub moves: Vec<(Pos, i16)>,
}

/// The rule's code in the file.
pub fn rule_code(rule: Rule) -> u8 {
    match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::Renju => 2,
        Rule::Caro => 3,
        Rule::CaroExact => 4,
    }
}

fn rule_of_code(code: u8) -> Option<Rule> {
    Some(match code {
        0 => Rule::Freestyle,
        1 => Rule::Standard,
        2 => Rule::Renju,
        3 => Rule::Caro,
        4 => Rule::CaroExact,
        _ => return None,
    })
}

fn fnv1a(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for &b in bytes {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

impl GameRecord {
    /// The record's bytes, check included.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(16 + 4 * self.moves.len());
        out.extend_from_slice(&self.index.to_le_bytes());
        out.push(rule_code(self.rule));
        out.push(self.width);
        out.push(self.height);
        out.push(match self.winner {
            None => 0,
            Some(Color::Black) => 1,
            Some(Color::White) => 2,
        });
        out.extend_from_slice(&self.opening.to_le_bytes());
        out.extend_from_slice(&(self.moves.len() as u16).to_le_bytes());
        for &(p, score) in &self.moves {
            out.push(p.x() as u8);
            out.push(p.y() as u8);
            out.extend_from_slice(&score.to_le_bytes());
        }
        let check = fnv1a(&out);
        out.extend_from_slice(&check.to_le_bytes());
        out
    }

    /// Parse one record at the start of `bytes`: the record and its length, or None when
    /// the bytes end early or fail the check.
    pub fn from_bytes(bytes: &[u8]) -> Option<(GameRecord, usize)> {
        let head = bytes.get(..12)?;
        let moves = usize::from(u16::from_le_bytes([head[10], head[11]]));
        let len = 12 + 4 * moves;
        let body = bytes.get(..len)?;
        let check = u32::from_le_bytes(bytes.get(len..len + 4)?.try_into().ok()?);
        if fnv1a(body) != check {
            return None;
        }
        let winner = match head[7] {
            0 => None,
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => return None,
        };
        let (width, height) = (head[5], head[6]);
        let moves = body[12..]
            .chunks_exact(4)
            .map(|c| {
                (
                    Pos::new(usize::from(c[0]), usize::from(c[1])),
                    i16::from_le_bytes([c[2], c[3]]),
                )
            })
            .collect::<Vec<_>>();
        if moves
            .iter()
            .any(|(p, _)| p.x() >= usize::from(width) || p.y() >= usize::from(height))
        {
            return None;
        }
        let record = GameRecord {
            index: u32::from_le_bytes(head[..4].try_into().ok()?),
            rule: rule_of_code(head[4])?,
            width,
            height,
            winner,
            opening: u16::from_le_bytes([head[8], head[9]]),
            moves,
        };
        Some((record, len + 4))
    }

    /// The result for the side to move after the first `k` moves: 1 win, 0.5 draw, 0 loss.
    pub fn result_for_mover(&self, k: usize) -> f64 {
        let mover = if k.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        };
        match self.winner {
            None => 0.5,
            Some(w) if w == mover => 1.0,
            Some(_) => 0.0,
        }
    }
}

/// The header's bytes for `settings`.
pub fn header_bytes(settings: &str) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(settings.len() as u16).to_le_bytes());
    out.extend_from_slice(settings.as_bytes());
    out
}

/// A data file read back: its settings, its complete games, and the length of the valid
/// part (header and whole games; anything after it is a torn tail).
#[derive(Debug)]
pub struct DataFile {
    /// The generator's settings line.
    pub settings: String,
    /// The games in file order.
    pub games: Vec<GameRecord>,
    /// Bytes up to the end of the last valid game.
    pub valid_len: usize,
    /// Bytes after that (0 for a complete file).
    pub torn_bytes: usize,
}

/// Parse a whole data file.
pub fn parse(bytes: &[u8]) -> Result<DataFile, String> {
    if bytes.len() < 12 || &bytes[..8] != MAGIC {
        return Err("not a Rensa self-play data file (bad magic)".into());
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != VERSION {
        return Err(format!(
            "data format version {version}, this build reads {VERSION}"
        ));
    }
    let n = usize::from(u16::from_le_bytes([bytes[10], bytes[11]]));
    let settings = bytes
        .get(12..12 + n)
        .ok_or("the header ends early")
        .and_then(|s| std::str::from_utf8(s).map_err(|_| "the settings are not UTF-8"))?
        .to_string();
    let mut at = 12 + n;
    let mut games = Vec::new();
    while let Some((game, len)) = GameRecord::from_bytes(&bytes[at..]) {
        games.push(game);
        at += len;
    }
    Ok(DataFile {
        settings,
        games,
        valid_len: at,
        torn_bytes: bytes.len() - at,
    })
}

/// Read and parse a data file.
pub fn read(path: &Path) -> Result<DataFile, String> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Append one game to a writer and flush it, so that an interruption loses at most the
/// game being written.
pub fn append(out: &mut impl Write, game: &GameRecord) -> io::Result<()> {
    out.write_all(&game.to_bytes())?;
    out.flush()
}

/// What the generator plays: one game's rule and board in the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// The rule.
    pub rule: Rule,
    /// Board size (square).
    pub size: usize,
}

/// The schedule cycles through these: freestyle on 15x15 and 20x20, standard, renju.
pub const SCHEDULE: [Slot; 4] = [
    Slot {
        rule: Rule::Freestyle,
        size: 15,
    },
    Slot {
        rule: Rule::Freestyle,
        size: 20,
    },
    Slot {
        rule: Rule::Standard,
        size: 15,
    },
    Slot {
        rule: Rule::Renju,
        size: 15,
    },
];

/// The generator's settings (all of them part of the file's settings line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Seed of every random choice.
    pub seed: u64,
    /// Search nodes per move.
    pub nodes: u64,
    /// Random moves after a file opening.
    pub random_moves: usize,
    /// Transposition table bytes per game.
    pub hash_bytes: usize,
}

impl Settings {
    /// The settings line stored in the header.
    pub fn line(&self, openings_name: &str) -> String {
        format!(
            "seed={} nodes={} random_moves={} hash={} openings={} schedule=f15,f20,s15,r15",
            self.seed, self.nodes, self.random_moves, self.hash_bytes, openings_name
        )
    }
}

/// Largest |score| a random start may have to be kept (eval units: about a third of an
/// open three's worth in `search::eval::WEIGHTS`; a start beyond it is lopsided).
const BALANCED: i32 = 600;

fn search(searcher: &mut AlphaBetaSearcher, position: &Position, nodes: u64) -> (Pos, i32) {
    let limits = Limits {
        max_nodes: Some(nodes),
        ..Limits::unbounded()
    };
    let stop = AtomicBool::new(false);
    let outcome = searcher.search(position, &limits, &stop, &mut |_| {});
    (outcome.best, outcome.score)
}

/// Place a file opening (under a symmetry) plus random legal moves within one square of
/// the stones; None when it does not fit, a move is not legal or a random move wins.
pub fn file_start(
    opening: &Opening,
    symmetry: usize,
    random_moves: usize,
    position: &mut Position,
    rng: &mut Rng,
) -> Option<()> {
    let (w, h) = (position.board().width(), position.board().height());
    for (x, y) in opening.absolute(w, h) {
        let (x, y) = openings::transform(symmetry, (x, y), w, h);
        if x < 0 || y < 0 || x >= w as i64 || y >= h as i64 {
            return None;
        }
        let pos = Pos::new(x as usize, y as usize);
        if !position.is_legal(pos) {
            return None;
        }
        position.play(pos);
    }
    for _ in 0..random_moves {
        random_near_move(position, rng)?;
        if position.last_move_won() {
            return None;
        }
    }
    Some(())
}

fn random_near_move(position: &mut Position, rng: &mut Rng) -> Option<()> {
    let near: Vec<Pos> = rensa::board::geometry::near_stones(position.board(), 1)
        .into_iter()
        .filter(|&p| position.is_legal(p))
        .collect();
    if near.is_empty() {
        return None;
    }
    position.play(near[rng.below(near.len())]);
    Some(())
}

/// A random start: one stone within two squares of the centre, then two to four more next
/// to the stones, kept when a short search finds it near equal.
fn random_start(
    position: &mut Position,
    rng: &mut Rng,
    searcher: &mut AlphaBetaSearcher,
    nodes: u64,
) -> Option<()> {
    let (w, h) = (position.board().width(), position.board().height());
    let rule = position.rule();
    for _attempt in 0..20 {
        *position = Position::new(w, h, rule).ok()?;
        let x = w / 2 - 2 + rng.below(5);
        let y = h / 2 - 2 + rng.below(5);
        position.play(Pos::new(x, y));
        let extra = 2 + rng.below(3);
        let placed = (0..extra).all(|_| random_near_move(position, rng).is_some());
        if !placed || position.last_move_won() {
            continue;
        }
        let (_, score) = search(searcher, position, nodes / 2);
        if score.abs() <= BALANCED {
            return Some(());
        }
    }
    None
}

/// Play game `index` of the schedule with `settings` and return its record (None when its
/// opening does not fit the board; the schedule then has no game at that index). The game
/// depends on nothing but its index, the settings and the openings.
pub fn play_game(index: u32, settings: &Settings, file_openings: &[Opening]) -> Option<GameRecord> {
    let slot = SCHEDULE[index as usize % SCHEDULE.len()];
    let round = index as usize / SCHEDULE.len();
    let mut rng = Rng::new(settings.seed ^ u64::from(index).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut position = Position::new(slot.size, slot.size, slot.rule).ok()?;
    let tt = Arc::new(TranspositionTable::new(settings.hash_bytes));
    let mut searcher = AlphaBetaSearcher::new(tt, 1);
    // Even rounds: the file's openings under each symmetry in turn; odd: random starts.
    if round.is_multiple_of(2) && !file_openings.is_empty() {
        let k = round / 2;
        let opening = &file_openings[k % file_openings.len()];
        let symmetry = (k / file_openings.len()) % 8;
        file_start(
            opening,
            symmetry,
            settings.random_moves,
            &mut position,
            &mut rng,
        )?;
    } else {
        random_start(&mut position, &mut rng, &mut searcher, settings.nodes)?;
    }
    let opening_len = position.history().len();
    let mut moves: Vec<(Pos, i16)> = position.history().iter().map(|&p| (p, NO_SCORE)).collect();
    let mut winner = None;
    while position.empty_count() > 0 {
        let me = position.to_move();
        let (mut best, score) = search(&mut searcher, &position, settings.nodes);
        if !position.is_legal(best) {
            best = position.any_legal_move()?;
        }
        position.play(best);
        moves.push((best, score.clamp(-30_000, 30_000) as i16));
        if position.last_move_won() {
            winner = Some(me);
            break;
        }
    }
    Some(GameRecord {
        index,
        rule: slot.rule,
        width: slot.size as u8,
        height: slot.size as u8,
        winner,
        opening: opening_len as u16,
        moves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameRecord {
        GameRecord {
            index: 7,
            rule: Rule::Renju,
            width: 15,
            height: 15,
            winner: Some(Color::White),
            opening: 2,
            moves: vec![
                (Pos::new(7, 7), NO_SCORE),
                (Pos::new(8, 8), NO_SCORE),
                (Pos::new(6, 8), 120),
                (Pos::new(9, 9), -20_000),
            ],
        }
    }

    #[test]
    fn a_file_reads_back_and_a_torn_tail_is_cut() {
        let mut bytes = header_bytes("seed=1");
        let g = sample();
        append(&mut bytes, &g).unwrap();
        let mut second = g.clone();
        second.index = 8;
        second.winner = None;
        append(&mut bytes, &second).unwrap();
        let whole = parse(&bytes).unwrap();
        assert_eq!(whole.settings, "seed=1");
        assert_eq!(whole.games, vec![g.clone(), second]);
        assert_eq!(whole.torn_bytes, 0);
        // Cut anywhere inside the second game: the first survives, the rest is torn.
        for cut in 1..g.to_bytes().len() {
            let torn = &bytes[..bytes.len() - cut];
            let f = parse(torn).unwrap();
            assert_eq!(f.games, vec![g.clone()], "cut {cut}");
            assert_eq!(f.valid_len + f.torn_bytes, torn.len());
        }
        // A flipped bit fails the check.
        let mut bad = bytes.clone();
        let at = bad.len() - 6;
        bad[at] ^= 1;
        assert_eq!(parse(&bad).unwrap().games.len(), 1);
        assert!(parse(b"RENSAGMX\x01\x00\x00\x00").is_err());
        let mut v2 = header_bytes("");
        v2[8] = 2;
        assert!(parse(&v2).unwrap_err().contains("version 2"));
    }

    #[test]
    fn results_are_seen_from_the_side_to_move() {
        let g = sample();
        assert_eq!(g.result_for_mover(2), 0.0, "Black to move, White won");
        assert_eq!(g.result_for_mover(3), 1.0);
    }

    #[test]
    fn a_game_depends_only_on_its_index_and_settings() {
        let settings = Settings {
            seed: 3,
            nodes: 300,
            random_moves: 2,
            hash_bytes: 1 << 20,
        };
        for index in [1, 3] {
            // Odd rounds are random starts; index 1 is freestyle 20x20, 3 renju.
            let a = play_game(index, &settings, &[]).expect("a random start fits");
            let b = play_game(index, &settings, &[]).unwrap();
            assert_eq!(a, b);
            assert!(a.moves.len() > usize::from(a.opening));
            let mut position =
                Position::new(usize::from(a.width), usize::from(a.height), a.rule).unwrap();
            for (k, &(p, score)) in a.moves.iter().enumerate() {
                assert!(position.is_legal(p), "move {k} of game {index}");
                assert_eq!(score == NO_SCORE, k < usize::from(a.opening));
                position.play(p);
            }
            assert_eq!(
                a.winner.is_some(),
                position.last_move_won(),
                "the result is the board's"
            );
        }
    }
}
