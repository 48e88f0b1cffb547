//! Line parser for the Gomocup (Piskvork) protocol and the Yixin-Board extensions.
//!
//! This module is pure: no I/O, no threads, no engine state. [`CommandParser::feed`] turns one
//! input line at a time into a typed [`Command`], assembling the multi-line
//! `BOARD` / `YXBOARD` / `SWAP2BOARD` … `DONE` blocks.
//!
//! Conventions (see `protocol.md` §1, §2, §4, §7):
//! * command words and INFO keys are case-insensitive; surrounding whitespace and a trailing
//!   `\r` are ignored; blank lines are ignored everywhere (also inside blocks);
//! * coordinates are `X,Y` with optional spaces around the numbers; numbers are decimal `i64`
//!   with an optional `+`/`-` sign; ranges are **not** checked here (the session does that);
//! * bare commands (`BEGIN`, `RESTART`, `ABOUT`, `END`, `STOP`, …) ignore trailing arguments;
//! * reasons carried by [`Command::Malformed`] are single-line ASCII-safe texts: quoted input
//!   is shortened and control characters / line separators are replaced by `?`.
//!
//! The parser never panics and runs in time linear in the line length.

use std::collections::HashSet;
use std::num::IntErrorKind;

/// Maximum number of stone lines accepted in one `BOARD`/`YXBOARD` block; a longer block is
/// reported as [`Command::Malformed`] (bounds memory on hostile input).
pub const MAX_BLOCK_STONES: usize = 65_536;

/// Maximum number of stones accepted syntactically in one `SWAP2BOARD` block.
pub const MAX_SWAP2_STONES: usize = 5;

/// How many characters of offending input are quoted in a [`Command::Malformed`] reason.
const SNIPPET_CHARS: usize = 40;

/// A board coordinate as written on the wire (0-based x = column, y = row). Range is NOT checked here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WireCoord {
    /// Column, 0-based (as sent; may be negative or too large).
    pub x: i64,
    /// Row, 0-based (as sent; may be negative or too large).
    pub y: i64,
}

/// One stone line of a BOARD/YXBOARD block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardStone {
    /// Where the stone is.
    pub at: WireCoord,
    /// 1 own stone, 2 opponent stone, 3 blocked square (continuous game). Always 1..=3.
    pub field: u8,
}

/// An INFO key with its value, parsed into a typed variant.
#[derive(Clone, Debug, PartialEq)]
pub enum Info {
    /// `timeout_turn` in ms (0 = as fast as possible).
    TimeoutTurn(i64),
    /// `timeout_match` in ms (0 = no limit).
    TimeoutMatch(i64),
    /// `time_left` in ms (may be negative; 2147483647 = unlimited).
    TimeLeft(i64),
    /// `max_memory` in bytes (0 = no limit).
    MaxMemory(i64),
    /// `game_type` (0 human, 1 brain, 2 tournament, 3 network tournament).
    GameType(i64),
    /// `rule` bitmask (1 exact five, 2 continuous, 4 renju, 8 caro).
    Rule(i64),
    /// `folder`: the rest of the line (trimmed), may contain spaces.
    Folder(String),
    /// `evaluator classic|learned`: the static evaluation (Rensa's key).
    Evaluator(String),
    /// `ordering classic|learned`: the move ordering (Rensa's key).
    Ordering(String),
    /// `weights PATH`: a folder of learned weight files to play with, relative to the
    /// executable's folder unless absolute (Rensa's key).
    Weights(String),
    /// `evaluate X,Y` (debug GUIs only).
    Evaluate(WireCoord),
    /// `thread_num` (Yixin/Rapfi extension).
    ThreadNum(i64),
    /// `hash_size` in KB (Yixin/Rapfi extension).
    HashSize(i64),
    /// `max_depth` (Yixin/Rapfi extension).
    MaxDepth(i64),
    /// `max_node` (Yixin/Rapfi extension; -1 = unlimited from Yixin-Board).
    MaxNode(i64),
    /// `pondering` 0/1 (Yixin/Rapfi extension).
    Pondering(i64),
    /// `show_detail` 0..3 (Yixin/Rapfi extension).
    ShowDetail(i64),
    /// `caution_factor` 0..5 (Yixin/Rapfi extension).
    CautionFactor(i64),
    /// `time_increment` in ms (Yixin extension).
    TimeIncrement(i64),
    /// `strength` 0..100 (Rapfi's key; 100 = full strength).
    Strength(i64),
    /// `level NAME`: a named playing level (beginner, easy, medium, hard, max).
    Level(String),
    /// `seed N`: seed for the level's choices.
    Seed(i64),
    /// A known key whose value did not parse: (key, raw value). The session reports it in a MESSAGE later.
    /// `key` is lower-cased; `value` is the trimmed raw value (empty when missing).
    BadValue {
        /// The INFO key, lower-cased.
        key: String,
        /// The raw value text, trimmed (empty if no value was given).
        value: String,
    },
    /// Unknown key: ignored silently by the session (keep key and value for logging).
    /// `key` is lower-cased; `value` is the trimmed raw rest of the line.
    Other {
        /// The INFO key, lower-cased.
        key: String,
        /// The raw value text, trimmed (may be empty).
        value: String,
    },
}

/// One complete manager → brain command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `START n` (width = height = n) and `RECTSTART w,h`. Sizes are not range-checked.
    Start {
        /// Board width (X range).
        width: i64,
        /// Board height (Y range).
        height: i64,
    },
    /// `RESTART`.
    Restart,
    /// `BEGIN`.
    Begin,
    /// `TURN X,Y`: the opponent played there.
    Turn(WireCoord),
    /// BOARD ... DONE (think afterwards), or YXBOARD ... DONE (`think == false`).
    Board {
        /// Stone lines in the order received; coordinates are pairwise distinct.
        stones: Vec<BoardStone>,
        /// `true` for `BOARD` (answer with a move), `false` for `YXBOARD` (no answer).
        think: bool,
    },
    /// `TAKEBACK X,Y`.
    Takeback(WireCoord),
    /// `PLAY X,Y` (answer to SUGGEST).
    Play(WireCoord),
    /// `INFO key value`.
    Info(Info),
    /// SWAP2BOARD ... DONE: stone lines are `x,y`; a third field is accepted and ignored.
    /// At most [`MAX_SWAP2_STONES`] stones, pairwise distinct, in the order received.
    Swap2Board(Vec<WireCoord>),
    /// `ABOUT`.
    About,
    /// `END` (also aborts a pending block).
    End,
    /// STOP or YXSTOP
    Stop,
    /// `YXHASHCLEAR`.
    YxHashClear,
    /// `YXSHOWINFO`.
    YxShowInfo,
    /// `YXSHOWFORBID`.
    YxShowForbid,
    /// `YXNBEST n`: a multi-PV search of the `n` best moves; the best is played.
    YxNBest(i64),
    /// `YXSEARCHDEFEND`: a multi-PV search over every root move; the best is played.
    YxSearchDefend,
    /// `YXBLOCK` ... `DONE`: root moves excluded from later searches (lines `X,Y`).
    YxBlock(Vec<WireCoord>),
    /// `YXBLOCKUNDO` ... `DONE`: moves taken off the excluded list.
    YxBlockUndo(Vec<WireCoord>),
    /// `YXBLOCKRESET`: no root move excluded.
    YxBlockReset,
    /// Unknown command: the text of the whole line (trimmed) for `UNKNOWN <text>`.
    /// The text is verbatim: the session should sanitize it before echoing.
    Unknown(String),
    /// A known command with a malformed argument or block; the String is the human reason for `ERROR <reason>`.
    Malformed(String),
}

/// The kind of multi-line block being assembled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BlockKind {
    Board,
    YxBoard,
    Swap2,
    YxBlock,
    YxBlockUndo,
}

impl BlockKind {
    fn name(self) -> &'static str {
        match self {
            BlockKind::Board => "BOARD",
            BlockKind::YxBoard => "YXBOARD",
            BlockKind::Swap2 => "SWAP2BOARD",
            BlockKind::YxBlock => "YXBLOCK",
            BlockKind::YxBlockUndo => "YXBLOCKUNDO",
        }
    }

    fn max_stones(self) -> usize {
        match self {
            BlockKind::Board | BlockKind::YxBoard | BlockKind::YxBlock | BlockKind::YxBlockUndo => {
                MAX_BLOCK_STONES
            }
            BlockKind::Swap2 => MAX_SWAP2_STONES,
        }
    }
}

/// State of a block waiting for `DONE`.
#[derive(Debug)]
struct Block {
    kind: BlockKind,
    stones: Vec<BoardStone>,
    seen: HashSet<(i64, i64)>,
    /// Number of non-blank lines received inside the block (for error messages).
    lines: usize,
    /// First error found; once set, stones are no longer accumulated.
    error: Option<String>,
}

impl Block {
    fn new(kind: BlockKind, header_rest: &str) -> Self {
        let mut block = Block {
            kind,
            stones: Vec::new(),
            seen: HashSet::new(),
            lines: 0,
            error: None,
        };
        if !header_rest.is_empty() {
            block.fail(format!(
                "{}: unexpected argument '{}'",
                kind.name(),
                snippet(header_rest)
            ));
        }
        block
    }

    fn fail(&mut self, reason: String) {
        if self.error.is_none() {
            self.error = Some(reason);
            self.stones = Vec::new();
            self.seen = HashSet::new();
        }
    }

    fn add_line(&mut self, line: &str) {
        self.lines = self.lines.saturating_add(1);
        if self.error.is_some() {
            return;
        }
        let name = self.kind.name();
        let n = self.lines;
        let stone = match parse_block_line(self.kind, line) {
            Ok(stone) => stone,
            Err(e) => {
                self.fail(format!("{name}: line {n}: {e}"));
                return;
            }
        };
        if self.stones.len() >= self.kind.max_stones() {
            let max = self.kind.max_stones();
            self.fail(format!("{name}: too many stones (more than {max})"));
            return;
        }
        if !self.seen.insert((stone.at.x, stone.at.y)) {
            let (x, y) = (stone.at.x, stone.at.y);
            self.fail(format!("{name}: line {n}: duplicate stone at {x},{y}"));
            return;
        }
        self.stones.push(stone);
    }

    fn finish(self) -> Command {
        if let Some(reason) = self.error {
            return Command::Malformed(reason);
        }
        match self.kind {
            BlockKind::Board => Command::Board {
                stones: self.stones,
                think: true,
            },
            BlockKind::YxBoard => Command::Board {
                stones: self.stones,
                think: false,
            },
            BlockKind::Swap2 => {
                Command::Swap2Board(self.stones.into_iter().map(|s| s.at).collect())
            }
            BlockKind::YxBlock => Command::YxBlock(self.stones.into_iter().map(|s| s.at).collect()),
            BlockKind::YxBlockUndo => {
                Command::YxBlockUndo(self.stones.into_iter().map(|s| s.at).collect())
            }
        }
    }
}

/// Assembles commands from lines, handling multi-line blocks (BOARD/YXBOARD/SWAP2BOARD ... DONE).
///
/// Inside a block every non-blank line other than `DONE`/`END` must be a stone line; any bad
/// line (or a duplicate coordinate) makes the whole block [`Command::Malformed`], reported when
/// `DONE` arrives. `END` inside a block aborts it and yields [`Command::End`] at once.
#[derive(Debug, Default)]
pub struct CommandParser {
    block: Option<Block>,
}

impl CommandParser {
    /// A parser outside any block.
    pub fn new() -> Self {
        Self::default()
    }

    /// Feed one input line (may still contain a trailing '\r', leading/trailing whitespace, any case).
    /// Returns Some(command) when a command is complete, None while inside a block or for a blank line.
    pub fn feed(&mut self, line: &str) -> Option<Command> {
        let line = line.trim();
        if line.is_empty() {
            return None;
        }
        if self.block.is_some() {
            return self.feed_block(line);
        }
        self.feed_command(line)
    }

    /// True while inside a BOARD/YXBOARD/SWAP2BOARD block (waiting for DONE).
    pub fn in_block(&self) -> bool {
        self.block.is_some()
    }

    /// A non-blank trimmed line while inside a block.
    fn feed_block(&mut self, line: &str) -> Option<Command> {
        let (word, rest) = split_token(line);
        if word.eq_ignore_ascii_case("END") {
            self.block = None;
            return Some(Command::End);
        }
        if word.eq_ignore_ascii_case("DONE") {
            let mut block = self.block.take()?;
            if !rest.is_empty() {
                block.fail(format!(
                    "{}: unexpected text after DONE '{}'",
                    block.kind.name(),
                    snippet(rest)
                ));
            }
            return Some(block.finish());
        }
        if let Some(block) = self.block.as_mut() {
            block.add_line(line);
        }
        None
    }

    /// A non-blank trimmed line outside any block.
    fn feed_command(&mut self, line: &str) -> Option<Command> {
        let (word, rest) = split_token(line);
        let Some(kw) = Keyword::lookup(word) else {
            return Some(Command::Unknown(line.to_owned()));
        };
        let cmd = match kw {
            Keyword::Start => parse_start(rest),
            Keyword::RectStart => match parse_pair(rest) {
                Ok((width, height)) => Command::Start { width, height },
                Err(e) => Command::Malformed(format!("RECTSTART: {e}, expected RECTSTART W,H")),
            },
            Keyword::Restart => Command::Restart,
            Keyword::Begin => Command::Begin,
            Keyword::Turn => coord_command(rest, "TURN", Command::Turn),
            Keyword::Takeback => coord_command(rest, "TAKEBACK", Command::Takeback),
            Keyword::Play => coord_command(rest, "PLAY", Command::Play),
            Keyword::Info => parse_info(rest),
            Keyword::About => Command::About,
            Keyword::End => Command::End,
            Keyword::Stop => Command::Stop,
            Keyword::YxHashClear => Command::YxHashClear,
            Keyword::YxShowInfo => Command::YxShowInfo,
            Keyword::YxShowForbid => Command::YxShowForbid,
            Keyword::YxNBest => match parse_int(rest) {
                Ok(n) => Command::YxNBest(n),
                Err(e) => Command::Malformed(format!("YXNBEST: {e}, expected YXNBEST N")),
            },
            Keyword::YxSearchDefend => Command::YxSearchDefend,
            Keyword::YxBlockReset => Command::YxBlockReset,
            Keyword::YxBlock => return self.open_block(BlockKind::YxBlock, rest),
            Keyword::YxBlockUndo => return self.open_block(BlockKind::YxBlockUndo, rest),
            Keyword::Board => return self.open_block(BlockKind::Board, rest),
            Keyword::YxBoard => return self.open_block(BlockKind::YxBoard, rest),
            Keyword::Swap2Board => return self.open_block(BlockKind::Swap2, rest),
            Keyword::Done => Command::Unknown(line.to_owned()),
        };
        Some(cmd)
    }

    fn open_block(&mut self, kind: BlockKind, rest: &str) -> Option<Command> {
        self.block = Some(Block::new(kind, rest));
        None
    }
}

/// Known command words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Keyword {
    Start,
    RectStart,
    Restart,
    Begin,
    Turn,
    Board,
    YxBoard,
    Takeback,
    Play,
    Info,
    Swap2Board,
    About,
    End,
    Stop,
    YxHashClear,
    YxShowInfo,
    YxShowForbid,
    YxNBest,
    YxSearchDefend,
    YxBlock,
    YxBlockUndo,
    YxBlockReset,
    Done,
}

impl Keyword {
    const TABLE: [(&'static str, Keyword); 24] = [
        ("START", Keyword::Start),
        ("RECTSTART", Keyword::RectStart),
        ("RESTART", Keyword::Restart),
        ("BEGIN", Keyword::Begin),
        ("TURN", Keyword::Turn),
        ("BOARD", Keyword::Board),
        ("YXBOARD", Keyword::YxBoard),
        ("TAKEBACK", Keyword::Takeback),
        ("PLAY", Keyword::Play),
        ("INFO", Keyword::Info),
        ("SWAP2BOARD", Keyword::Swap2Board),
        ("ABOUT", Keyword::About),
        ("END", Keyword::End),
        ("STOP", Keyword::Stop),
        ("YXSTOP", Keyword::Stop),
        ("YXHASHCLEAR", Keyword::YxHashClear),
        ("YXSHOWINFO", Keyword::YxShowInfo),
        ("YXSHOWFORBID", Keyword::YxShowForbid),
        ("YXNBEST", Keyword::YxNBest),
        ("YXSEARCHDEFEND", Keyword::YxSearchDefend),
        ("YXBLOCK", Keyword::YxBlock),
        ("YXBLOCKUNDO", Keyword::YxBlockUndo),
        ("YXBLOCKRESET", Keyword::YxBlockReset),
        ("DONE", Keyword::Done),
    ];

    fn lookup(word: &str) -> Option<Keyword> {
        Self::TABLE
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(word))
            .map(|&(_, kw)| kw)
    }
}

/// Splits a trimmed string into its first whitespace-delimited token and the (trimmed) rest.
fn split_token(s: &str) -> (&str, &str) {
    match s.find(char::is_whitespace) {
        Some(i) => (&s[..i], s[i..].trim()),
        None => (s, ""),
    }
}

/// A short, single-line quotation of `s` for error reasons: at most [`SNIPPET_CHARS`]
/// characters, control characters and non-space whitespace (tabs, line separators) become `?`.
fn snippet(s: &str) -> String {
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i == SNIPPET_CHARS {
            out.push_str("...");
            break;
        }
        let unsafe_char = c.is_control() || (c.is_whitespace() && c != ' ');
        out.push(if unsafe_char { '?' } else { c });
    }
    out
}

/// Parses a decimal `i64` (optional sign, surrounding whitespace allowed).
fn parse_int(s: &str) -> Result<i64, String> {
    let t = s.trim();
    if t.is_empty() {
        return Err("missing number".to_owned());
    }
    t.parse::<i64>().map_err(|e| match e.kind() {
        IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => {
            format!("number out of range '{}'", snippet(t))
        }
        _ => format!("'{}' is not an integer", snippet(t)),
    })
}

/// Parses `a,b` (spaces allowed around the numbers) into two integers.
fn parse_pair(s: &str) -> Result<(i64, i64), String> {
    if s.is_empty() {
        return Err("missing argument".to_owned());
    }
    let mut parts = s.split(',');
    let (Some(a), Some(b), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(format!(
            "expected two comma-separated integers, got '{}'",
            snippet(s)
        ));
    };
    Ok((parse_int(a)?, parse_int(b)?))
}

/// Parses `X,Y` into a [`WireCoord`].
fn parse_coord(s: &str) -> Result<WireCoord, String> {
    parse_pair(s).map(|(x, y)| WireCoord { x, y })
}

/// `TURN`/`TAKEBACK`/`PLAY` argument handling.
fn coord_command(rest: &str, name: &str, make: fn(WireCoord) -> Command) -> Command {
    match parse_coord(rest) {
        Ok(at) => make(at),
        Err(e) => Command::Malformed(format!("{name}: {e}, expected {name} X,Y")),
    }
}

/// `START n`.
fn parse_start(rest: &str) -> Command {
    let (size, extra) = split_token(rest);
    if size.is_empty() {
        return Command::Malformed("START: missing board size, expected START N".to_owned());
    }
    if !extra.is_empty() {
        return Command::Malformed(format!(
            "START: unexpected extra argument '{}', expected START N",
            snippet(extra)
        ));
    }
    match parse_int(size) {
        Ok(n) => Command::Start {
            width: n,
            height: n,
        },
        Err(e) => Command::Malformed(format!("START: {e}, expected START N")),
    }
}

/// `INFO key value`.
fn parse_info(rest: &str) -> Command {
    let (key, value) = split_token(rest);
    if key.is_empty() {
        // INFO never answers on stdout: a bare INFO is reported later like a bad value.
        return Command::Info(Info::BadValue {
            key: String::new(),
            value: String::new(),
        });
    }
    let key = key.to_ascii_lowercase();
    let int_ctor: fn(i64) -> Info = match key.as_str() {
        "timeout_turn" => Info::TimeoutTurn,
        "timeout_match" => Info::TimeoutMatch,
        "time_left" => Info::TimeLeft,
        "max_memory" => Info::MaxMemory,
        "game_type" => Info::GameType,
        "rule" => Info::Rule,
        "thread_num" => Info::ThreadNum,
        "hash_size" => Info::HashSize,
        "max_depth" => Info::MaxDepth,
        "max_node" => Info::MaxNode,
        "pondering" => Info::Pondering,
        "show_detail" => Info::ShowDetail,
        "caution_factor" => Info::CautionFactor,
        "time_increment" => Info::TimeIncrement,
        "strength" => Info::Strength,
        "seed" => Info::Seed,
        // Keys whose value is text (the rest of the line): an empty one is unusable.
        "level" | "folder" | "evaluator" | "ordering" | "weights" => {
            if value.is_empty() {
                return bad_value(key, value);
            }
            let text_ctor: fn(String) -> Info = match key.as_str() {
                "level" => Info::Level,
                "folder" => Info::Folder,
                "evaluator" => Info::Evaluator,
                "ordering" => Info::Ordering,
                _ => Info::Weights,
            };
            return Command::Info(text_ctor(value.to_owned()));
        }
        "evaluate" => {
            return match parse_coord(value) {
                Ok(at) => Command::Info(Info::Evaluate(at)),
                Err(_) => bad_value(key, value),
            };
        }
        _ => {
            return Command::Info(Info::Other {
                key,
                value: value.to_owned(),
            })
        }
    };
    if value.is_empty() {
        return bad_value(key, value);
    }
    match parse_int(value) {
        Ok(v) => Command::Info(int_ctor(v)),
        Err(_) => bad_value(key, value),
    }
}

fn bad_value(key: String, value: &str) -> Command {
    Command::Info(Info::BadValue {
        key,
        value: value.to_owned(),
    })
}

/// Parses one stone line of a block: `x,y,f` (BOARD/YXBOARD, f ∈ 1..=3) or `x,y[,n]`
/// (SWAP2BOARD, n any integer, ignored).
fn parse_block_line(kind: BlockKind, line: &str) -> Result<BoardStone, String> {
    let mut parts = line.split(',');
    let fields = (parts.next(), parts.next(), parts.next(), parts.next());
    match (kind, fields) {
        (BlockKind::Board | BlockKind::YxBoard, (Some(x), Some(y), Some(f), None)) => {
            let at = WireCoord {
                x: parse_int(x)?,
                y: parse_int(y)?,
            };
            let field = match parse_int(f)? {
                1 => 1,
                2 => 2,
                3 => 3,
                other => return Err(format!("field must be 1, 2 or 3, got {other}")),
            };
            Ok(BoardStone { at, field })
        }
        (
            BlockKind::Swap2 | BlockKind::YxBlock | BlockKind::YxBlockUndo,
            (Some(x), Some(y), third, None),
        ) => {
            let at = WireCoord {
                x: parse_int(x)?,
                y: parse_int(y)?,
            };
            if let Some(t) = third {
                parse_int(t)?;
            }
            Ok(BoardStone { at, field: 0 })
        }
        (BlockKind::Swap2 | BlockKind::YxBlock | BlockKind::YxBlockUndo, _) => {
            Err(format!("expected X,Y, got '{}'", snippet(line)))
        }
        _ => Err(format!("expected X,Y,FIELD, got '{}'", snippet(line))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(x: i64, y: i64) -> WireCoord {
        WireCoord { x, y }
    }

    fn st(x: i64, y: i64, field: u8) -> BoardStone {
        BoardStone { at: c(x, y), field }
    }

    /// Feeds a single line to a fresh parser.
    fn one(line: &str) -> Option<Command> {
        CommandParser::new().feed(line)
    }

    /// Feeds all lines; returns every produced command and the final parser.
    fn run(lines: &[&str]) -> (Vec<Command>, CommandParser) {
        let mut p = CommandParser::new();
        let out = lines.iter().filter_map(|l| p.feed(l)).collect();
        (out, p)
    }

    fn is_malformed(cmd: &Option<Command>) -> bool {
        matches!(cmd, Some(Command::Malformed(reason)) if !reason.is_empty())
    }

    fn info(line: &str) -> Info {
        match one(line) {
            Some(Command::Info(i)) => i,
            other => panic!("expected Info for {line:?}, got {other:?}"),
        }
    }

    fn bad(key: &str, value: &str) -> Info {
        Info::BadValue {
            key: key.to_owned(),
            value: value.to_owned(),
        }
    }

    #[test]
    fn start_variants() {
        assert_eq!(
            one("START 15"),
            Some(Command::Start {
                width: 15,
                height: 15
            })
        );
        assert_eq!(
            one("start 20\r\n"),
            Some(Command::Start {
                width: 20,
                height: 20
            })
        );
        assert_eq!(
            one("  StArT    20  \r"),
            Some(Command::Start {
                width: 20,
                height: 20
            })
        );
        assert_eq!(
            one("START +7"),
            Some(Command::Start {
                width: 7,
                height: 7
            })
        );
        assert_eq!(
            one("START -3"),
            Some(Command::Start {
                width: -3,
                height: -3
            })
        );
        assert_eq!(
            one("START\t15"),
            Some(Command::Start {
                width: 15,
                height: 15
            })
        );
    }

    #[test]
    fn start_malformed() {
        for line in [
            "START",
            "START   \r",
            "START x",
            "START 15 15",
            "START 15,15",
            "START 1.5",
            "START 99999999999999999999",
            "START +",
            "START 15x",
        ] {
            assert!(is_malformed(&one(line)), "{line:?} -> {:?}", one(line));
        }
    }

    #[test]
    fn rectstart() {
        assert_eq!(
            one("RECTSTART 20,15"),
            Some(Command::Start {
                width: 20,
                height: 15
            })
        );
        assert_eq!(
            one("rectstart 20 , 15\r"),
            Some(Command::Start {
                width: 20,
                height: 15
            })
        );
        for line in [
            "RECTSTART",
            "RECTSTART 20 15",
            "RECTSTART 20",
            "RECTSTART 20,15,1",
            "RECTSTART a,b",
            "RECTSTART 20,",
            "RECTSTART ,15",
        ] {
            assert!(is_malformed(&one(line)), "{line:?} -> {:?}", one(line));
        }
    }

    #[test]
    fn bare_commands() {
        let cases = [
            ("RESTART", Command::Restart),
            ("restart\r", Command::Restart),
            ("BEGIN", Command::Begin),
            ("begin", Command::Begin),
            ("ABOUT", Command::About),
            ("about\r\n", Command::About),
            ("END", Command::End),
            ("end", Command::End),
            ("STOP", Command::Stop),
            ("YXSTOP", Command::Stop),
            ("yxstop", Command::Stop),
            ("YXHASHCLEAR", Command::YxHashClear),
            ("yxhashclear", Command::YxHashClear),
            ("YXSHOWINFO", Command::YxShowInfo),
            ("yxshowinfo\r", Command::YxShowInfo),
            ("YXSHOWFORBID", Command::YxShowForbid),
            ("YxShowForbid", Command::YxShowForbid),
        ];
        for (line, expected) in cases {
            assert_eq!(one(line), Some(expected), "{line:?}");
        }
    }

    #[test]
    fn bare_commands_ignore_trailing_arguments() {
        assert_eq!(one("END now"), Some(Command::End));
        assert_eq!(one("BEGIN please"), Some(Command::Begin));
        assert_eq!(one("ABOUT x"), Some(Command::About));
    }

    #[test]
    fn turn_takeback_play() {
        assert_eq!(one("TURN 7,8"), Some(Command::Turn(c(7, 8))));
        assert_eq!(one("turn 7,8\r\n"), Some(Command::Turn(c(7, 8))));
        assert_eq!(one("TURN 7, 8"), Some(Command::Turn(c(7, 8))));
        assert_eq!(one("TURN  7 ,  8  "), Some(Command::Turn(c(7, 8))));
        assert_eq!(one("TURN -1,-1"), Some(Command::Turn(c(-1, -1))));
        assert_eq!(one("TURN +3,+4"), Some(Command::Turn(c(3, 4))));
        assert_eq!(one("TURN 007,08"), Some(Command::Turn(c(7, 8))));
        assert_eq!(one("TAKEBACK 3,4"), Some(Command::Takeback(c(3, 4))));
        assert_eq!(one("takeback 3 ,4"), Some(Command::Takeback(c(3, 4))));
        assert_eq!(one("PLAY 10,11"), Some(Command::Play(c(10, 11))));
        assert_eq!(one("play 10,11\r"), Some(Command::Play(c(10, 11))));
        assert_eq!(
            one("TURN 9223372036854775807,-9223372036854775808"),
            Some(Command::Turn(c(i64::MAX, i64::MIN)))
        );
    }

    #[test]
    fn turn_malformed() {
        for line in [
            "TURN",
            "TURN   ",
            "TURN a,b",
            "TURN 1,2,3",
            "TURN 1",
            "TURN 1 2",
            "TURN 1,",
            "TURN ,2",
            "TURN ,",
            "TURN 1;2",
            "TURN 1,2 3",
            "TURN 1.0,2",
            "TURN - 1,2",
            "TURN 9223372036854775808,0",
            "TURN 0,-9223372036854775809",
            "TURN １,２",
            "TURN 1,2\0",
            "TAKEBACK",
            "TAKEBACK x,y",
            "PLAY",
            "PLAY 1,2,3",
        ] {
            assert!(is_malformed(&one(line)), "{line:?} -> {:?}", one(line));
        }
    }

    #[test]
    fn malformed_reasons_are_single_line_and_short() {
        let long = format!("TURN {}\u{7}\r\n", "x".repeat(10_000));
        let Some(Command::Malformed(reason)) = one(&long) else {
            panic!("expected Malformed");
        };
        assert!(reason.len() < 200, "{reason}");
        assert!(!reason.chars().any(char::is_control), "{reason:?}");
        let Some(Command::Malformed(reason)) = one("TURN a\u{0}b,1") else {
            panic!("expected Malformed");
        };
        assert!(!reason.chars().any(char::is_control), "{reason:?}");
        assert!(reason.starts_with("TURN"), "{reason}");
    }

    #[test]
    fn board_block() {
        let (out, p) = run(&["BOARD", "7,7,1", "8,8,2", "9,9,3", "DONE"]);
        assert!(!p.in_block());
        assert_eq!(
            out,
            vec![Command::Board {
                stones: vec![st(7, 7, 1), st(8, 8, 2), st(9, 9, 3)],
                think: true
            }]
        );
    }

    #[test]
    fn board_block_lower_case_crlf_blank_lines_and_spaces() {
        let mut p = CommandParser::new();
        assert_eq!(p.feed("board\r\n"), None);
        assert!(p.in_block());
        assert_eq!(p.feed("\r\n"), None);
        assert_eq!(p.feed(" 7 , 7 , 1 \r"), None);
        assert_eq!(p.feed(""), None);
        assert_eq!(p.feed("   "), None);
        assert_eq!(p.feed("8,8,+2"), None);
        assert!(p.in_block());
        assert_eq!(
            p.feed("done\r"),
            Some(Command::Board {
                stones: vec![st(7, 7, 1), st(8, 8, 2)],
                think: true
            })
        );
        assert!(!p.in_block());
        // The parser is reusable afterwards.
        assert_eq!(p.feed("TURN 1,1"), Some(Command::Turn(c(1, 1))));
    }

    #[test]
    fn empty_board_is_valid() {
        let (out, p) = run(&["BOARD", "DONE"]);
        assert!(!p.in_block());
        assert_eq!(
            out,
            vec![Command::Board {
                stones: vec![],
                think: true
            }]
        );
        let (out, _) = run(&["BOARD\r\n", "\r\n", "DONE\r\n"]);
        assert_eq!(
            out,
            vec![Command::Board {
                stones: vec![],
                think: true
            }]
        );
    }

    #[test]
    fn board_keeps_out_of_range_and_negative_coordinates() {
        let (out, _) = run(&["BOARD", "-1,5,1", "100,200,2", "DONE"]);
        assert_eq!(
            out,
            vec![Command::Board {
                stones: vec![st(-1, 5, 1), st(100, 200, 2)],
                think: true
            }]
        );
    }

    #[test]
    fn yxboard_block() {
        let (out, p) = run(&["yxboard", "7,7,1", "7,8,2", "done"]);
        assert!(!p.in_block());
        assert_eq!(
            out,
            vec![Command::Board {
                stones: vec![st(7, 7, 1), st(7, 8, 2)],
                think: false
            }]
        );
        let (out, _) = run(&["YXBOARD", "DONE"]);
        assert_eq!(
            out,
            vec![Command::Board {
                stones: vec![],
                think: false
            }]
        );
    }

    #[test]
    fn board_bad_lines_make_the_whole_block_malformed() {
        let bad_lines = [
            "7,7",
            "7,7,0",
            "7,7,4",
            "7,7,-1",
            "7,7,1,1",
            "a,7,1",
            "7,b,1",
            "7,7,x",
            "7 7 1",
            "7,7,",
            "TURN 7,7",
            "START 15",
            "BOARD",
            "7,7,99999999999999999999",
            "7,7,1\0",
        ];
        for bad in bad_lines {
            for kind in ["BOARD", "YXBOARD"] {
                let mut p = CommandParser::new();
                assert_eq!(p.feed(kind), None);
                assert_eq!(p.feed("1,1,1"), None);
                assert_eq!(p.feed(bad), None, "{bad:?} must be consumed");
                assert!(p.in_block(), "{bad:?} must not end the block");
                assert_eq!(p.feed("2,2,2"), None);
                let out = p.feed("DONE");
                assert!(is_malformed(&out), "{kind} with {bad:?} -> {out:?}");
                assert!(!p.in_block());
            }
        }
    }

    #[test]
    fn board_error_reports_first_problem() {
        let (out, _) = run(&["BOARD", "1,1,1", "x", "1,1,2", "DONE"]);
        let [Command::Malformed(reason)] = out.as_slice() else {
            panic!("{out:?}");
        };
        assert!(reason.contains("line 2"), "{reason}");
        assert!(reason.starts_with("BOARD"), "{reason}");
    }

    #[test]
    fn board_duplicates_are_malformed() {
        let (out, p) = run(&["BOARD", "3,3,1", "4,4,2", "3,3,2", "DONE"]);
        assert!(!p.in_block());
        let [Command::Malformed(reason)] = out.as_slice() else {
            panic!("{out:?}");
        };
        assert!(reason.contains("duplicate"), "{reason}");
        let (out, _) = run(&["YXBOARD", "3,3,1", " 3 , 3 , 1", "DONE"]);
        assert!(matches!(out.as_slice(), [Command::Malformed(_)]), "{out:?}");
    }

    #[test]
    fn board_header_argument_is_malformed_but_consumes_block() {
        let (out, p) = run(&["BOARD 3", "1,1,1", "DONE", "BEGIN"]);
        assert!(!p.in_block());
        assert!(
            matches!(out.as_slice(), [Command::Malformed(_), Command::Begin]),
            "{out:?}"
        );
    }

    #[test]
    fn yixin_analysis_commands() {
        let c = |x, y| WireCoord { x, y };
        let (out, p) = run(&[
            "yxnbest 3",
            "YXNBEST",
            "YXNBEST x",
            "YXSEARCHDEFEND",
            "YXBLOCK",
            "7,7",
            "8,8",
            "DONE",
            "yxblockundo",
            "8,8",
            "done",
            "YXBLOCKRESET",
            "YXBLOCK",
            "7,7,1,1",
            "DONE",
        ]);
        assert!(!p.in_block());
        assert_eq!(out[0], Command::YxNBest(3));
        assert!(matches!(out[1], Command::Malformed(_)));
        assert!(matches!(out[2], Command::Malformed(_)));
        assert_eq!(out[3], Command::YxSearchDefend);
        assert_eq!(out[4], Command::YxBlock(vec![c(7, 7), c(8, 8)]));
        assert_eq!(out[5], Command::YxBlockUndo(vec![c(8, 8)]));
        assert_eq!(out[6], Command::YxBlockReset);
        assert!(matches!(out[7], Command::Malformed(_)), "{out:?}");
    }

    #[test]
    fn done_with_trailing_text_ends_block_as_malformed() {
        let (out, p) = run(&["BOARD", "1,1,1", "DONE now"]);
        assert!(!p.in_block());
        assert!(matches!(out.as_slice(), [Command::Malformed(_)]), "{out:?}");
    }

    #[test]
    fn end_inside_block_aborts() {
        for kind in ["BOARD", "YXBOARD", "SWAP2BOARD"] {
            let mut p = CommandParser::new();
            assert_eq!(p.feed(kind), None);
            assert_eq!(p.feed("1,1,1"), None);
            assert_eq!(p.feed("end\r"), Some(Command::End));
            assert!(!p.in_block());
            // DONE afterwards is outside any block.
            assert_eq!(p.feed("DONE"), Some(Command::Unknown("DONE".to_owned())));
        }
        // Also after an error inside the block.
        let (out, p) = run(&["BOARD", "garbage", "END"]);
        assert_eq!(out, vec![Command::End]);
        assert!(!p.in_block());
    }

    #[test]
    fn too_many_stones_is_malformed() {
        let mut p = CommandParser::new();
        p.feed("BOARD");
        for i in 0..=MAX_BLOCK_STONES as i64 {
            assert_eq!(p.feed(&format!("{},{},1", i % 1000, i / 1000)), None);
        }
        assert!(is_malformed(&p.feed("DONE")));
        assert!(!p.in_block());
    }

    #[test]
    fn swap2board_block() {
        let (out, p) = run(&["SWAP2BOARD", "DONE"]);
        assert!(!p.in_block());
        assert_eq!(out, vec![Command::Swap2Board(vec![])]);

        let (out, _) = run(&["swap2board\r\n", "7,7\r\n", "", "7, 8", "8,8,1", "done\r\n"]);
        assert_eq!(
            out,
            vec![Command::Swap2Board(vec![c(7, 7), c(7, 8), c(8, 8)])]
        );

        let (out, _) = run(&["SWAP2BOARD", "1,1", "2,2", "3,3", "4,4,-7", "5,5", "DONE"]);
        assert_eq!(
            out,
            vec![Command::Swap2Board(vec![
                c(1, 1),
                c(2, 2),
                c(3, 3),
                c(4, 4),
                c(5, 5)
            ])]
        );
    }

    #[test]
    fn swap2board_malformed() {
        for lines in [
            &["SWAP2BOARD", "1,1", "1,1", "DONE"][..],
            &["SWAP2BOARD", "1,1", "2", "DONE"][..],
            &["SWAP2BOARD", "1,1,x", "DONE"][..],
            &["SWAP2BOARD", "1,1,2,3", "DONE"][..],
            &["SWAP2BOARD", "a,b", "DONE"][..],
            &["SWAP2BOARD", "TURN 1,1", "DONE"][..],
            &[
                "SWAP2BOARD",
                "1,1",
                "2,2",
                "3,3",
                "4,4",
                "5,5",
                "6,6",
                "DONE",
            ][..],
            &["SWAP2BOARD 3", "1,1", "DONE"][..],
        ] {
            let (out, p) = run(lines);
            assert!(!p.in_block(), "{lines:?}");
            assert!(
                matches!(out.as_slice(), [Command::Malformed(_)]),
                "{lines:?} -> {out:?}"
            );
        }
    }

    #[test]
    fn info_integer_keys() {
        let cases = [
            ("INFO timeout_turn 5000", Info::TimeoutTurn(5000)),
            ("INFO timeout_match 180000", Info::TimeoutMatch(180000)),
            ("INFO time_left 1000", Info::TimeLeft(1000)),
            ("INFO time_left -250", Info::TimeLeft(-250)),
            ("INFO time_left 2147483647", Info::TimeLeft(2147483647)),
            ("INFO max_memory 367001600", Info::MaxMemory(367001600)),
            ("INFO game_type 1", Info::GameType(1)),
            ("INFO rule 4", Info::Rule(4)),
            ("INFO thread_num 8", Info::ThreadNum(8)),
            ("INFO hash_size 1048576", Info::HashSize(1048576)),
            ("INFO max_depth 20", Info::MaxDepth(20)),
            ("INFO max_node -1", Info::MaxNode(-1)),
            ("INFO pondering 1", Info::Pondering(1)),
            ("INFO show_detail 3", Info::ShowDetail(3)),
            ("INFO caution_factor 2", Info::CautionFactor(2)),
            ("INFO time_increment 500", Info::TimeIncrement(500)),
            ("INFO max_node +5", Info::MaxNode(5)),
            ("info RULE 1\r\n", Info::Rule(1)),
            ("Info Rule 4", Info::Rule(4)),
            ("  INFO   Timeout_Turn    300   \r", Info::TimeoutTurn(300)),
            (
                "INFO max_memory 9223372036854775807",
                Info::MaxMemory(i64::MAX),
            ),
        ];
        for (line, expected) in cases {
            assert_eq!(info(line), expected, "{line:?}");
        }
    }

    #[test]
    fn info_bad_values() {
        assert_eq!(info("INFO rule"), bad("rule", ""));
        assert_eq!(info("INFO rule   \r"), bad("rule", ""));
        assert_eq!(info("INFO rule four"), bad("rule", "four"));
        assert_eq!(info("INFO RULE 4 5"), bad("rule", "4 5"));
        assert_eq!(info("INFO timeout_turn 1.5"), bad("timeout_turn", "1.5"));
        assert_eq!(
            info("INFO max_memory 9223372036854775808"),
            bad("max_memory", "9223372036854775808")
        );
        assert_eq!(
            info("INFO time_left -9223372036854775809"),
            bad("time_left", "-9223372036854775809")
        );
        assert_eq!(info("INFO folder"), bad("folder", ""));
        assert_eq!(info("INFO evaluate"), bad("evaluate", ""));
        assert_eq!(info("INFO evaluate 3"), bad("evaluate", "3"));
        assert_eq!(info("INFO evaluate a,b"), bad("evaluate", "a,b"));
        assert_eq!(info("INFO evaluate 1,2,3"), bad("evaluate", "1,2,3"));
    }

    #[test]
    fn info_folder_and_evaluate() {
        assert_eq!(
            info("INFO folder C:\\My Games\\x\r\n"),
            Info::Folder("C:\\My Games\\x".to_owned())
        );
        assert_eq!(
            info("INFO folder   /tmp/a  b/ c  "),
            Info::Folder("/tmp/a  b/ c".to_owned())
        );
        assert_eq!(
            info("INFO FOLDER ünïcødé 路径"),
            Info::Folder("ünïcødé 路径".to_owned())
        );
        assert_eq!(info("INFO evaluate 3,4"), Info::Evaluate(c(3, 4)));
        assert_eq!(info("info EVALUATE 3, 4\r"), Info::Evaluate(c(3, 4)));
    }

    #[test]
    fn info_unknown_keys_and_missing_key() {
        assert_eq!(
            info("INFO vcthread 1"),
            Info::Other {
                key: "vcthread".to_owned(),
                value: "1".to_owned()
            }
        );
        assert_eq!(
            info("INFO NbestSym  a b  c"),
            Info::Other {
                key: "nbestsym".to_owned(),
                value: "a b  c".to_owned()
            }
        );
        assert_eq!(
            info("INFO checkmate"),
            Info::Other {
                key: "checkmate".to_owned(),
                value: String::new()
            }
        );
        // A bare INFO must not be answered: it becomes a bad value reported later.
        let bare = Info::BadValue {
            key: String::new(),
            value: String::new(),
        };
        assert_eq!(info("INFO"), bare);
        assert_eq!(info("info \r\n"), bare);
    }

    #[test]
    fn unknown_and_done_outside_block() {
        assert_eq!(one("DONE"), Some(Command::Unknown("DONE".to_owned())));
        assert_eq!(
            one("  DONE \r\n"),
            Some(Command::Unknown("DONE".to_owned()))
        );
        assert_eq!(
            one("  YXBALANCEONE 3  \r\n"),
            Some(Command::Unknown("YXBALANCEONE 3".to_owned()))
        );
        assert_eq!(
            one("SUGGEST 1,1"),
            Some(Command::Unknown("SUGGEST 1,1".to_owned()))
        );
        assert_eq!(
            one("STARTX 15"),
            Some(Command::Unknown("STARTX 15".to_owned()))
        );
        assert_eq!(one("7,7"), Some(Command::Unknown("7,7".to_owned())));
        assert_eq!(
            one("ＳＴＡＲＴ 15"),
            Some(Command::Unknown("ＳＴＡＲＴ 15".to_owned()))
        );
        assert_eq!(one("\0"), Some(Command::Unknown("\0".to_owned())));
    }

    #[test]
    fn blank_lines_are_ignored() {
        let mut p = CommandParser::new();
        for line in ["", "\r", "\r\n", "\n", "   ", "\t \r\n", "\u{3000}"] {
            assert_eq!(p.feed(line), None, "{line:?}");
            assert!(!p.in_block());
        }
    }

    #[test]
    fn full_session_sequence() {
        let lines = [
            "START 15\r\n",
            "INFO timeout_turn 30000\r\n",
            "INFO timeout_match 180000\r\n",
            "INFO max_memory 367001600\r\n",
            "INFO game_type 3\r\n",
            "INFO rule 4\r\n",
            "INFO folder C:\\tmp\\x y\r\n",
            "INFO time_left 180000\r\n",
            "BOARD\r\n",
            "7,7,2\r\n",
            "8,8,1\r\n",
            "8,7,2\r\n",
            "DONE\r\n",
            "INFO time_left 170000\r\n",
            "TURN 9,9\r\n",
            "END\r\n",
        ];
        let (out, p) = run(&lines);
        assert!(!p.in_block());
        assert_eq!(
            out,
            vec![
                Command::Start {
                    width: 15,
                    height: 15
                },
                Command::Info(Info::TimeoutTurn(30000)),
                Command::Info(Info::TimeoutMatch(180000)),
                Command::Info(Info::MaxMemory(367001600)),
                Command::Info(Info::GameType(3)),
                Command::Info(Info::Rule(4)),
                Command::Info(Info::Folder("C:\\tmp\\x y".to_owned())),
                Command::Info(Info::TimeLeft(180000)),
                Command::Board {
                    stones: vec![st(7, 7, 2), st(8, 8, 1), st(8, 7, 2)],
                    think: true
                },
                Command::Info(Info::TimeLeft(170000)),
                Command::Turn(c(9, 9)),
                Command::End,
            ]
        );
    }

    #[test]
    fn long_lines_and_odd_bytes_do_not_panic() {
        let mut p = CommandParser::new();
        let digits = "9".repeat(1_000_000);
        assert!(is_malformed(&p.feed(&format!("TURN {digits},1"))));
        assert!(is_malformed(&p.feed(&format!("START {digits}"))));
        let commas = ",".repeat(1_000_000);
        assert!(is_malformed(&p.feed(&format!("TURN {commas}"))));
        let junk = "é\u{0}ß\u{10FFFF}漢".repeat(100_000);
        assert!(matches!(p.feed(&junk), Some(Command::Unknown(_))));
        assert!(matches!(
            p.feed(&format!("INFO rule {junk}")),
            Some(Command::Info(Info::BadValue { .. }))
        ));
        p.feed("BOARD");
        p.feed(&format!("{digits},{commas},1"));
        p.feed(&junk);
        assert!(is_malformed(&p.feed("DONE")));
        assert!(!p.in_block());
    }

    /// xorshift64 (Marsaglia); deterministic, no external crates.
    struct XorShift(u64);

    impl XorShift {
        fn next(&mut self) -> u64 {
            let mut x = self.0;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            self.0 = x;
            x
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    fn random_line(rng: &mut XorShift) -> String {
        const WORDS: [&str; 40] = [
            "START",
            "start",
            "RECTSTART",
            "RESTART",
            "BEGIN",
            "TURN",
            "turn",
            "BOARD",
            "board",
            "YXBOARD",
            "yxboard",
            "SWAP2BOARD",
            "DONE",
            "done",
            "END",
            "end",
            "TAKEBACK",
            "PLAY",
            "INFO",
            "info",
            "ABOUT",
            "STOP",
            "YXSTOP",
            "YXHASHCLEAR",
            "YXSHOWINFO",
            "YXSHOWFORBID",
            "timeout_turn",
            "time_left",
            "max_node",
            "rule",
            "folder",
            "evaluate",
            "max_memory",
            "-",
            "+",
            "9223372036854775807",
            "-9223372036854775808",
            "99999999999999999999",
            "\0",
            "\t",
        ];
        let mut s = String::new();
        let pieces = rng.below(9);
        for _ in 0..pieces {
            match rng.below(8) {
                0 | 1 => s.push_str(WORDS[rng.below(WORDS.len())]),
                2 => {
                    for _ in 0..=rng.below(3) {
                        s.push(char::from(b'0' + rng.below(10) as u8));
                    }
                }
                3 => s.push(','),
                4 => s.push(' '),
                5 => s.push('\r'),
                6 => {
                    // Random Unicode scalar (surrogates are skipped by from_u32).
                    let cp = (rng.next() % 0x11_0000) as u32;
                    if let Some(ch) = char::from_u32(cp) {
                        s.push(ch);
                    }
                }
                _ => {
                    // A plausible stone / coordinate line.
                    let x = rng.below(25) as i64 - 3;
                    let y = rng.below(25) as i64 - 3;
                    if rng.below(2) == 0 {
                        s.push_str(&format!("{x},{y},{}", rng.below(5)));
                    } else {
                        s.push_str(&format!("{x}, {y}"));
                    }
                }
            }
        }
        if rng.below(4) == 0 {
            s.push_str("\r\n");
        }
        s
    }

    #[test]
    fn fuzz_no_panic_and_done_always_closes_blocks() {
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        let mut p = CommandParser::new();
        let mut produced = 0usize;
        for i in 0..20_000 {
            let line = random_line(&mut rng);
            if p.feed(&line).is_some() {
                produced += 1;
            }
            if i % 7 == 6 {
                let was_in_block = p.in_block();
                let out = p.feed("DONE");
                assert!(
                    !p.in_block(),
                    "still in block after DONE (line {i}: {line:?})"
                );
                if was_in_block {
                    assert!(
                        matches!(
                            out,
                            Some(Command::Board { .. })
                                | Some(Command::Swap2Board(_))
                                | Some(Command::Malformed(_))
                        ),
                        "{out:?}"
                    );
                } else {
                    assert_eq!(out, Some(Command::Unknown("DONE".to_owned())));
                }
            }
            // Every Malformed reason must be printable on one line.
            if let Some(Command::Malformed(reason)) = p.feed(&random_line(&mut rng)) {
                assert!(!reason.is_empty());
                assert!(!reason.chars().any(char::is_control), "{reason:?}");
            }
        }
        assert!(
            produced > 1000,
            "fuzz produced too few commands: {produced}"
        );
        p.feed("DONE");
        assert!(!p.in_block());
    }

    #[test]
    fn fuzz_blocks_with_random_stone_lines() {
        let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
        for _ in 0..2_000 {
            let mut p = CommandParser::new();
            let kind = ["BOARD", "yxboard", "SWAP2BOARD"][rng.below(3)];
            assert_eq!(p.feed(kind), None);
            for _ in 0..rng.below(12) {
                let line = random_line(&mut rng);
                let out = p.feed(&line);
                if !p.in_block() {
                    // Only DONE (first token) or END can close a block.
                    let first = line.split_whitespace().next().unwrap_or("");
                    assert!(
                        first.eq_ignore_ascii_case("DONE") || first.eq_ignore_ascii_case("END"),
                        "{line:?} closed the block: {out:?}"
                    );
                    break;
                }
                assert_eq!(out, None);
            }
            p.feed("DONE");
            assert!(!p.in_block());
        }
    }
}
