//! SGF game records (`FF[4]`, `GM[4]` for Gomoku) in the layout of c-gomoku-cli: a root node
//! with the game number, event, date, round, rule code (`RU`), size (`SZ[15]` or
//! `SZ[20:15]`), players, result (`RE[B+1]`, `RE[W+1]`, `RE[0]`) and termination (`TE`),
//! then one node per stone, opening stones commented "opening move" and played moves with
//! their time ("1234ms"). A file is a collection of such games.
//!
//! The reader takes any collection of game trees: it follows the main line (the first
//! variation), reads the properties above plus `B[]`/`W[]` moves and their comments, and
//! skips the others. Setup stones (`AB`, `AW`), passes and moves that do not alternate
//! colours are errors: Gomocup games have none.

use super::{check_moves, Outcome, Record};
use crate::board::{Color, Pos};
use crate::rules::Rule;
use std::path::Path;

/// An SGF coordinate letter: `a`..`z`, then `A`..`Z` for boards wider than 26.
fn coord_letter(v: usize) -> char {
    if v < 26 {
        (b'a' + v as u8) as char
    } else {
        (b'A' + (v - 26) as u8) as char
    }
}

/// The coordinate of an SGF letter.
fn letter_coord(c: char) -> Option<usize> {
    match c {
        'a'..='z' => Some(c as usize - 'a' as usize),
        'A'..='Z' => Some(c as usize - 'A' as usize + 26),
        _ => None,
    }
}

/// Escape `]` and `\` in an SGF text value.
fn escape(t: &str) -> String {
    let mut s = String::with_capacity(t.len());
    for c in t.chars() {
        if c == ']' || c == '\\' {
            s.push('\\');
        }
        s.push(c);
    }
    s
}

/// One game as an SGF game tree, written by the application `app` (`AP`). An unknown
/// result is written as `RE[0]` and an unknown rule as `RU[0]`.
pub fn game_text(r: &Record, app: &str) -> String {
    let size = if r.width == r.height {
        format!("{}", r.width)
    } else {
        format!("{}:{}", r.width, r.height)
    };
    let re = match r.result {
        Some(Outcome::Win(Color::Black)) => "B+1",
        Some(Outcome::Win(Color::White)) => "W+1",
        Some(Outcome::Draw) | None => "0",
    };
    let mut s = format!(
        "(;FF[4]GM[4]CA[UTF-8]AP[{}]GN[{}]EV[{} x {}]DT[{}]RO[{}]RU[{}]SZ[{}]PB[{}]PW[{}]RE[{}]TE[{}]",
        escape(app),
        r.id,
        escape(&r.names[0]),
        escape(&r.names[1]),
        escape(&r.date),
        r.round,
        r.rule.map_or(0, Rule::code),
        size,
        escape(&r.names[0]),
        escape(&r.names[1]),
        re,
        escape(&r.reason),
    );
    for (i, (p, ms)) in r.moves.iter().enumerate() {
        let c = if i % 2 == 0 { 'B' } else { 'W' };
        let comment = if i < r.opening_len {
            "opening move".to_string()
        } else {
            format!("{ms}ms")
        };
        s.push_str(&format!(
            "\n;{c}[{}{}]C[{comment}]",
            coord_letter(p.x()),
            coord_letter(p.y())
        ));
    }
    s.push_str(")\n");
    s
}

/// A property: its identifier and values, unescaped.
type Property = (String, Vec<String>);

/// A small SGF parser over the characters of a collection.
struct Parser<'a> {
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
    text: &'a str,
}

impl Parser<'_> {
    fn skip_space(&mut self) {
        while self.chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_space();
        self.chars.peek().map(|&(_, c)| c)
    }

    /// Where the parser is, as "line L" for messages.
    fn here(&mut self) -> String {
        let at = self.chars.peek().map_or(self.text.len(), |&(i, _)| i);
        format!("line {}", self.text[..at].matches('\n').count() + 1)
    }

    /// A game tree `( node+ tree* )` after its `(`: the nodes of its main line.
    fn tree(&mut self, depth: usize) -> Result<Vec<Vec<Property>>, String> {
        if depth > 64 {
            return Err(format!("{}: variations nested too deep", self.here()));
        }
        let mut nodes = Vec::new();
        while self.peek() == Some(';') {
            self.chars.next();
            nodes.push(self.node()?);
        }
        if nodes.is_empty() {
            return Err(format!("{}: a game tree without nodes", self.here()));
        }
        let mut first_variation = true;
        loop {
            match self.peek() {
                Some('(') => {
                    self.chars.next();
                    let line = self.tree(depth + 1)?;
                    if std::mem::replace(&mut first_variation, false) {
                        nodes.extend(line);
                    }
                }
                Some(')') => {
                    self.chars.next();
                    return Ok(nodes);
                }
                Some(c) => return Err(format!("{}: unexpected {c:?} in a game tree", self.here())),
                None => return Err("the collection ends inside a game tree".into()),
            }
        }
    }

    /// The properties of a node, after its `;`.
    fn node(&mut self) -> Result<Vec<Property>, String> {
        let mut props = Vec::new();
        while let Some(c) = self.peek() {
            if !c.is_ascii_alphabetic() {
                break;
            }
            let mut ident = String::new();
            while let Some((_, c)) = self.chars.next_if(|(_, c)| c.is_ascii_alphabetic()) {
                // FF[3] allowed lower-case letters in identifiers; only capitals count.
                if c.is_ascii_uppercase() {
                    ident.push(c);
                }
            }
            let mut values = Vec::new();
            while self.peek() == Some('[') {
                self.chars.next();
                values.push(self.value()?);
            }
            if values.is_empty() {
                return Err(format!("{}: property {ident} has no value", self.here()));
            }
            props.push((ident, values));
        }
        Ok(props)
    }

    /// A value after its `[`, up to the closing `]`, unescaped: `\]` and `\\` stand for
    /// themselves and a backslash before a line break removes it (a soft break).
    fn value(&mut self) -> Result<String, String> {
        let mut v = String::new();
        loop {
            match self.chars.next() {
                None => return Err("the collection ends inside a property value".into()),
                Some((_, ']')) => return Ok(v),
                Some((_, '\\')) => match self.chars.next() {
                    None => return Err("the collection ends inside a property value".into()),
                    Some((_, '\n')) => {
                        self.chars.next_if(|&(_, c)| c == '\r');
                    }
                    Some((_, '\r')) => {
                        self.chars.next_if(|&(_, c)| c == '\n');
                    }
                    Some((_, c)) => v.push(c),
                },
                Some((_, c)) => v.push(c),
            }
        }
    }
}

/// Read an SGF collection: every game tree's main line as a [`Record`]. `SZ` defaults to
/// 15 when missing; results other than `B+...`, `W+...`, `0` and `Draw` read as unknown.
pub fn parse(text: &str) -> Result<Vec<Record>, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut p = Parser {
        chars: text.char_indices().peekable(),
        text,
    };
    let mut games = Vec::new();
    while let Some(c) = p.peek() {
        if c != '(' {
            return Err(format!(
                "{}: expected a game tree '(', found {c:?}",
                p.here()
            ));
        }
        p.chars.next();
        let nodes = p.tree(0)?;
        let n = games.len() + 1;
        games.push(record(&nodes).map_err(|e| format!("game {n}: {e}"))?);
    }
    if games.is_empty() {
        return Err("no game in the SGF text".into());
    }
    Ok(games)
}

/// Read an SGF file (see [`parse`]).
pub fn read(path: &Path) -> Result<Vec<Record>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The record of one game's main line.
fn record(nodes: &[Vec<Property>]) -> Result<Record, String> {
    let mut r = Record {
        width: 15,
        height: 15,
        ..Record::default()
    };
    // Moves as read, with the node's comment; the size may come after the first move in
    // badly ordered files, so coordinates are checked at the end.
    let mut opening_done = false;
    for (i, props) in nodes.iter().enumerate() {
        let mut stone = None;
        let mut comment = None;
        for (ident, values) in props {
            let v = values[0].trim();
            match ident.as_str() {
                "SZ" => (r.width, r.height) = parse_size(v)?,
                "PB" => r.names[0] = values[0].clone(),
                "PW" => r.names[1] = values[0].clone(),
                "GN" => r.id = v.parse().unwrap_or(0),
                "RO" => r.round = v.parse().unwrap_or(0),
                "DT" => r.date = values[0].clone(),
                "TE" => r.reason = values[0].clone(),
                "RE" => r.result = parse_result(v),
                "RU" => {
                    r.rule = v
                        .parse::<i64>()
                        .ok()
                        .and_then(Rule::from_code)
                        .map(|(rule, _)| rule)
                }
                "GM" if v != "4" => return Err(format!("GM[{v}] is not Gomoku (GM[4])")),
                "B" | "W" => {
                    let color = if ident == "B" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    if stone.is_some() {
                        return Err(format!("node {} holds two moves", i + 1));
                    }
                    stone = Some((color, parse_point(v)?));
                }
                "AB" | "AW" | "AE" => {
                    return Err(format!("setup stones ({ident}) are not supported"))
                }
                "C" => comment = Some(values[0].trim()),
                _ => {}
            }
        }
        let Some((color, (x, y))) = stone else {
            continue;
        };
        let expected = Record::color_of(r.moves.len());
        if color != expected {
            return Err(format!(
                "move {} is {color:?}'s but {expected:?} is to move",
                r.moves.len() + 1
            ));
        }
        if x >= crate::board::MAX_SIZE || y >= crate::board::MAX_SIZE {
            return Err(format!("move {} is off any board", r.moves.len() + 1));
        }
        let ms = comment
            .and_then(|c| c.strip_suffix("ms"))
            .and_then(|t| t.trim().parse().ok())
            .unwrap_or(0);
        if comment == Some("opening move") && !opening_done {
            r.opening_len += 1;
        } else {
            opening_done = true;
        }
        r.moves.push((Pos::new(x, y), ms));
    }
    check_moves(r.width, r.height, &r.moves)?;
    Ok(r)
}

/// `SZ[15]` or `SZ[20:15]`.
fn parse_size(v: &str) -> Result<(usize, usize), String> {
    let bad = || format!("bad board size SZ[{v}]");
    let (w, h) = v.split_once(':').unwrap_or((v, v));
    let w = w.trim().parse().map_err(|_| bad())?;
    let h = h.trim().parse().map_err(|_| bad())?;
    Ok((w, h))
}

/// `RE[B+...]`, `RE[W+...]`, `RE[0]` / `RE[Draw]`; anything else is unknown.
fn parse_result(v: &str) -> Option<Outcome> {
    let upper = v.to_ascii_uppercase();
    if upper.starts_with("B+") {
        Some(Outcome::Win(Color::Black))
    } else if upper.starts_with("W+") {
        Some(Outcome::Win(Color::White))
    } else if upper == "0" || upper == "DRAW" || upper == "D" {
        Some(Outcome::Draw)
    } else {
        None
    }
}

/// A move `B[hh]`: two coordinate letters. An empty value is a pass (`tt` is not: it is
/// a square of a 20x20 board).
fn parse_point(v: &str) -> Result<(usize, usize), String> {
    let mut cs = v.chars();
    match (cs.next(), cs.next(), cs.next()) {
        (None, ..) => Err("a pass (empty move) is not a Gomoku move".into()),
        (Some(a), Some(b), None) => match (letter_coord(a), letter_coord(b)) {
            (Some(x), Some(y)) => Ok((x, y)),
            _ => Err(format!("bad move [{v}]")),
        },
        _ => Err(format!("bad move [{v}]")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(width: usize, height: usize, result: Option<Outcome>) -> Record {
        Record {
            id: 3,
            round: 2,
            date: "2025-01-31".into(),
            width,
            height,
            rule: Some(Rule::Renju),
            names: ["Esc]aped\\ one".into(), "Plain".into()],
            moves: vec![
                (Pos::new(width / 2, height / 2), 0),
                (Pos::new(width / 2 + 1, height / 2), 0),
                (Pos::new(0, height - 1), 250),
                (Pos::new(width - 1, 0), 1),
            ],
            opening_len: 2,
            result,
            reason: "Plain loses by time forfeit: no move [x] within 10 ms".into(),
            ..Record::default()
        }
    }

    #[test]
    fn writes_the_c_gomoku_cli_layout() {
        let r = sample(15, 15, Some(Outcome::Win(Color::Black)));
        assert_eq!(
            game_text(&r, "rensa-match"),
            "(;FF[4]GM[4]CA[UTF-8]AP[rensa-match]GN[3]EV[Esc\\]aped\\\\ one x Plain]\
             DT[2025-01-31]RO[2]RU[4]SZ[15]PB[Esc\\]aped\\\\ one]PW[Plain]RE[B+1]\
             TE[Plain loses by time forfeit: no move [x\\] within 10 ms]\
             \n;B[hh]C[opening move]\n;W[ih]C[opening move]\n;B[ao]C[250ms]\n;W[oa]C[1ms])\n"
        );
        assert_eq!(coord_letter(0), 'a');
        assert_eq!(coord_letter(25), 'z');
        assert_eq!(coord_letter(26), 'A');
        assert_eq!(escape("a]b\\"), "a\\]b\\\\");
    }

    #[test]
    fn round_trips_results_and_board_shapes() {
        let mut text = String::new();
        let mut written = Vec::new();
        for (i, (w, h)) in [(15, 15), (20, 7), (32, 30), (6, 27)]
            .into_iter()
            .enumerate()
        {
            for result in [
                Some(Outcome::Win(Color::Black)),
                Some(Outcome::Win(Color::White)),
                Some(Outcome::Draw),
            ] {
                let mut r = sample(w, h, result);
                r.id = i;
                text.push_str(&game_text(&r, "test"));
                written.push(r);
            }
        }
        let back = parse(&text).unwrap();
        assert_eq!(back, written);
    }

    #[test]
    fn reads_other_layouts() {
        let text = "(;GM[4]FF[4]SZ[20]PB[A]PW[B]RE[W+Resign]\n\
                    ;B[jj];W[kk]\n(;B[ll]C[12 ms];W[mm]C[soft\\\nbreak])\n(;B[aa]))\n\
                    (;FF[4]GM[4]SZ[15]RE[?];B[hh])";
        let games = parse(text).unwrap();
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!((g.width, g.height), (20, 20));
        assert_eq!(g.names, ["A".to_string(), "B".to_string()]);
        assert_eq!(g.result, Some(Outcome::Win(Color::White)));
        assert_eq!(g.opening_len, 0);
        assert_eq!(
            g.moves,
            [
                (Pos::new(9, 9), 0),
                (Pos::new(10, 10), 0),
                (Pos::new(11, 11), 12),
                (Pos::new(12, 12), 0)
            ]
        );
        assert_eq!(games[1].result, None);
        assert_eq!(games[1].rule, None);
        // No SZ: 15x15.
        let g = &parse("(;GM[4];B[hh])").unwrap()[0];
        assert_eq!((g.width, g.height), (15, 15));
    }

    #[test]
    fn malformed_collections_are_errors() {
        for (text, why) in [
            ("", "no game"),
            ("   \n", "no game"),
            ("hello", "expected a game tree"),
            ("(;SZ[15];B[hh]", "ends inside a game tree"),
            ("(;SZ[15];B[hh", "ends inside a property"),
            ("(;SZ[15];C[x\\", "ends inside a property"),
            ("(;SZ[15];B[hh]\\", "unexpected"),
            ("()", "without nodes"),
            ("(;SZ[15]B)", "no value"),
            ("(;SZ[x])", "bad board size"),
            ("(;SZ[40])", "unsupported"),
            ("(;SZ[15:4])", "unsupported"),
            ("(;SZ[15];B[])", "pass"),
            ("(;SZ[15];B[h])", "bad move"),
            ("(;SZ[15];B[h1])", "bad move"),
            ("(;SZ[15];B[hh];B[ii])", "to move"),
            ("(;SZ[15];W[hh])", "to move"),
            ("(;SZ[15];B[hh];W[hh])", "occupied"),
            ("(;SZ[15];B[pp])", "off the"),
            ("(;SZ[15];B[ZZ])", "off any board"),
            ("(;SZ[15]AB[hh])", "setup stones"),
            ("(;GM[1]SZ[19])", "not Gomoku"),
            ("(;SZ[15];B[hh]W[ii])", "two moves"),
            ("(;SZ[15]) x", "expected a game tree"),
        ] {
            let e = parse(text).unwrap_err();
            assert!(e.contains(why), "{text:?}: {e}");
        }
        let deep = "(;SZ[15]".to_string() + &"(;C[x]".repeat(100) + &")".repeat(101);
        assert!(parse(&deep).unwrap_err().contains("too deep"));
    }
}
