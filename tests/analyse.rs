//! `pbrain-rensa analyse` as a user runs it: a position from a pos move list, a `.psq` file
//! or a `BOARD` block on stdin; the text report on stdout, the SVG image checked to be
//! well-formed XML and the JSON checked to be well-formed JSON (both by the small checkers
//! below, written for this test); bad input refused with exit code 2 and a message.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_pbrain-rensa");

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rensa-analyse-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn analyse(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(BIN)
        .arg("analyse")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Run `analyse`, which must succeed, and return its stdout.
fn analyse_ok(args: &[&str], stdin: &str) -> String {
    let out = analyse(args, stdin);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

/// The text board's line of column letters.
fn column_header(text: &str) -> &str {
    text.lines()
        .find(|l| l.trim_start().starts_with("a "))
        .unwrap_or_else(|| panic!("no column letters in {text}"))
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

#[test]
fn a_pos_list_gives_lines_a_board_an_svg_and_json() {
    let dir = scratch("pos");
    let (svg, json) = (dir.join("a.svg"), dir.join("a.json"));
    let text = analyse_ok(
        &[
            "--pos",
            "h8i9h9i8g10",
            "--nodes",
            "30000",
            "--lines",
            "3",
            "--svg",
            svg.to_str().unwrap(),
            "--json",
            json.to_str().unwrap(),
        ],
        "",
    );
    assert!(
        text.contains("Position: 15x15 freestyle, 5 stones, White to move"),
        "{text}"
    );
    assert!(text.contains("Best lines (scores for White):"), "{text}");
    for rank in ["  1. ", "  2. ", "  3. "] {
        assert!(text.contains(rank), "{text}");
    }
    assert!(!text.contains("  4. "), "{text}");
    let header = column_header(&text);
    assert!(header.trim_end().ends_with('o'), "{header}");
    let row10 = text.lines().find(|l| l.starts_with(" 10 ")).unwrap();
    assert!(
        row10.contains("[X]"),
        "the last move g10 is marked: {row10}"
    );

    let svg = std::fs::read_to_string(&svg).unwrap();
    xml::check(&svg).unwrap_or_else(|e| panic!("the SVG is not well-formed XML: {e}\n{svg}"));
    assert!(svg.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.contains(">15x15 freestyle, 5 stones, White to move</text>"));
    // Five stones numbered 1 to 5, every coordinate label, one tile per scored square.
    for n in 1..=5 {
        assert!(svg.contains(&format!("\">{n}</text>")), "move {n}");
    }
    assert!(svg.contains("\">a</text>") && svg.contains("\">o</text>"));
    assert!(svg.contains("\">15</text>"));

    let json = std::fs::read_to_string(&json).unwrap();
    json::check(&json).unwrap_or_else(|e| panic!("the JSON is not well-formed: {e}\n{json}"));
    assert!(json.contains(r#""to_move": "white""#));
    assert!(json.contains(r#"{"x": 6, "y": 9, "text": "g10", "color": "black"}"#));
    assert!(json.contains(r#""budget": {"nodes": 30000}"#));
    let squares = json.matches(r#""searched_alone""#).count();
    let tiles = svg.matches("<rect").count() - 1; // less the background
    assert_eq!(squares, tiles);
    // Every empty square within two of the five stones, in both directions.
    let stones = [(7, 7), (8, 8), (7, 8), (8, 7), (6, 9)];
    let near = (0..15i32)
        .flat_map(|y| (0..15i32).map(move |x| (x, y)))
        .filter(|p| !stones.contains(p))
        .filter(|&(x, y)| {
            stones
                .iter()
                .any(|&(sx, sy)| (sx - x).abs() <= 2 && (sy - y).abs() <= 2)
        })
        .count();
    assert_eq!(squares, near);
    assert_eq!(json.matches(r#", "moves": ["#).count(), 3, "three lines");
}

#[test]
fn a_board_block_on_stdin_and_a_psq_file_are_read() {
    let text = analyse_ok(
        &["--nodes", "5000", "--rule", "4"],
        "BOARD\n7,7,2\n8,8,1\n7,8,2\nDONE\n",
    );
    assert!(
        text.contains("15x15 renju, 3 stones, White to move"),
        "{text}"
    );

    let dir = scratch("psq");
    let psq = dir.join("game.psq");
    std::fs::write(&psq, "Piskvorky 20x20, 11:11, 0\n10,10,0\n11,11,0\n-1\n").unwrap();
    let text = analyse_ok(&["--psq", psq.to_str().unwrap(), "--nodes", "5000"], "");
    assert!(
        text.contains("20x20 freestyle, 2 stones, Black to move"),
        "{text}"
    );
    let header = column_header(&text);
    assert!(
        header.trim_end().ends_with('t'),
        "20 columns, a to t: {header}"
    );
}

#[test]
fn bad_input_is_refused_with_exit_code_2() {
    let dir = scratch("bad");
    let cases: [(&[&str], &str, &str); 8] = [
        (&["--pos", "h8h8"], "", "occupied"),
        (&["--pos", "h8z9"], "", "off the 15x15 board"),
        (&["--pos", "h8!"], "", "not a pos"),
        (
            &["--pos", "h8", "--size", "50"],
            "",
            "unsupported board size",
        ),
        (&["--pos", "h8", "--rule", "3"], "", "unknown rule"),
        (&["--psq", "/nonexistent/game.psq"], "", "cannot read"),
        (&[], "BOARD\n16,1,1\nDONE\n", "off the 15x15 board"),
        (&[], "", "no BOARD block"),
    ];
    for (args, stdin, message) in cases {
        let out = analyse(args, stdin);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{args:?}");
        assert!(stdout(&out).is_empty(), "{args:?}");
    }
    let svg = dir.join("no-such-dir").join("a.svg");
    let out = analyse(
        &[
            "--pos",
            "h8",
            "--nodes",
            "1000",
            "--svg",
            svg.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot write"), "{}", stderr(&out));
}

/// A well-formedness check of XML documents as the SVG writer makes them: an optional
/// declaration, comments, one root element; elements nested properly, attributes quoted
/// and not repeated, text and attribute values free of `<` and of `&` other than the
/// predefined and numeric entities.
mod xml {
    use std::collections::HashSet;

    struct Reader<'a> {
        text: &'a str,
        at: usize,
    }

    impl<'a> Reader<'a> {
        fn rest(&self) -> &'a str {
            &self.text[self.at..]
        }

        fn eat(&mut self, prefix: &str) -> bool {
            let found = self.rest().starts_with(prefix);
            if found {
                self.at += prefix.len();
            }
            found
        }

        fn skip_space(&mut self) {
            let rest = self.rest();
            self.at += rest.len() - rest.trim_start().len();
        }

        fn until(&mut self, end: &str) -> Result<&'a str, String> {
            let rest = self.rest();
            let i = rest
                .find(end)
                .ok_or_else(|| format!("{end:?} missing after byte {}", self.at))?;
            self.at += i + end.len();
            Ok(&rest[..i])
        }

        fn name(&mut self) -> Result<&'a str, String> {
            let rest = self.rest();
            let len = rest
                .char_indices()
                .find(|&(i, c)| {
                    !(c.is_alphanumeric() || c == '_' || c == ':' || (i > 0 && "-.".contains(c)))
                })
                .map_or(rest.len(), |(i, _)| i);
            if len == 0 || rest.starts_with(|c: char| c.is_ascii_digit()) {
                return Err(format!("a name expected at byte {}", self.at));
            }
            self.at += len;
            Ok(&rest[..len])
        }

        /// Comments and white space between elements.
        fn misc(&mut self) -> Result<(), String> {
            loop {
                self.skip_space();
                if self.eat("<!--") {
                    let body = self.until("-->")?;
                    if body.contains("--") {
                        return Err("`--` inside a comment".into());
                    }
                } else {
                    return Ok(());
                }
            }
        }
    }

    /// Character data: no `<`, and every `&` starts an entity.
    fn check_text(text: &str) -> Result<(), String> {
        if text.contains('<') {
            return Err(format!("raw `<` in {text:?}"));
        }
        let mut rest = text;
        while let Some(i) = rest.find('&') {
            let after = &rest[i + 1..];
            let end = after
                .find(';')
                .ok_or_else(|| format!("unterminated entity in {text:?}"))?;
            let entity = &after[..end];
            let known = ["amp", "lt", "gt", "quot", "apos"].contains(&entity)
                || entity
                    .strip_prefix("#x")
                    .is_some_and(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit()))
                || entity
                    .strip_prefix('#')
                    .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()));
            if !known {
                return Err(format!("unknown entity &{entity}; in {text:?}"));
            }
            rest = &after[end + 1..];
        }
        Ok(())
    }

    /// Check `text`, returning the first fault found.
    pub fn check(text: &str) -> Result<(), String> {
        let mut r = Reader { text, at: 0 };
        if r.eat("<?xml") {
            r.until("?>")?;
        }
        r.misc()?;
        let mut open: Vec<&str> = Vec::new();
        let mut roots = 0;
        loop {
            if open.is_empty() {
                r.misc()?;
                if r.rest().is_empty() {
                    break;
                }
                roots += 1;
                if roots > 1 {
                    return Err(format!("a second root element at byte {}", r.at));
                }
            }
            if !r.eat("<") {
                let text = r.until("<")?;
                check_text(text)?;
                r.at -= 1;
                continue;
            }
            if r.eat("!--") {
                r.until("-->")?;
            } else if r.eat("/") {
                let name = r.name()?;
                r.skip_space();
                if !r.eat(">") {
                    return Err(format!("bad end tag </{name} at byte {}", r.at));
                }
                match open.pop() {
                    Some(o) if o == name => {}
                    other => return Err(format!("</{name}> closes {other:?}")),
                }
            } else {
                let name = r.name()?;
                let mut seen = HashSet::new();
                loop {
                    let before = r.at;
                    r.skip_space();
                    if r.eat("/>") {
                        break;
                    }
                    if r.eat(">") {
                        open.push(name);
                        break;
                    }
                    if r.at == before {
                        return Err(format!("space expected in <{name}> at byte {}", r.at));
                    }
                    let attr = r.name()?;
                    if !seen.insert(attr) {
                        return Err(format!("attribute {attr} repeated in <{name}>"));
                    }
                    r.skip_space();
                    if !r.eat("=") {
                        return Err(format!("`=` expected after {attr} in <{name}>"));
                    }
                    r.skip_space();
                    let quote = if r.eat("\"") {
                        "\""
                    } else if r.eat("'") {
                        "'"
                    } else {
                        return Err(format!("unquoted value of {attr} in <{name}>"));
                    };
                    check_text(r.until(quote)?)?;
                }
            }
        }
        if roots == 0 {
            return Err("no root element".into());
        }
        Ok(())
    }

    #[test]
    fn the_checker_tells_good_from_bad() {
        assert!(check(r#"<?xml version="1.0"?><a x="1"><b/>t &amp; &#38;<!-- c --></a>"#).is_ok());
        for bad in [
            "<a><b></a></b>",
            "<a x=1/>",
            r#"<a x="1" x="2"/>"#,
            "<a>1 < 2</a>",
            "<a>&nbsp;</a>",
            "<a/><b/>",
            "<a>",
            "",
            r#"<a x="&"/>"#,
        ] {
            assert!(check(bad).is_err(), "{bad}");
        }
    }
}

/// A well-formedness check of JSON (RFC 8259): one value, then nothing but white space.
mod json {
    fn space(s: &[u8], i: &mut usize) {
        while *i < s.len() && b" \t\r\n".contains(&s[*i]) {
            *i += 1;
        }
    }

    fn value(s: &[u8], i: &mut usize) -> Result<(), String> {
        space(s, i);
        match s.get(*i) {
            Some(b'{') => sequence(s, i, b'}', true),
            Some(b'[') => sequence(s, i, b']', false),
            Some(b'"') => string(s, i),
            Some(b't') => literal(s, i, "true"),
            Some(b'f') => literal(s, i, "false"),
            Some(b'n') => literal(s, i, "null"),
            Some(c) if *c == b'-' || c.is_ascii_digit() => number(s, i),
            _ => Err(format!("a value expected at byte {i}")),
        }
    }

    fn literal(s: &[u8], i: &mut usize, word: &str) -> Result<(), String> {
        if s[*i..].starts_with(word.as_bytes()) {
            *i += word.len();
            Ok(())
        } else {
            Err(format!("bad literal at byte {i}"))
        }
    }

    fn number(s: &[u8], i: &mut usize) -> Result<(), String> {
        let start = *i;
        if s[*i] == b'-' {
            *i += 1;
        }
        let digits = |i: &mut usize| {
            let from = *i;
            while *i < s.len() && s[*i].is_ascii_digit() {
                *i += 1;
            }
            *i - from
        };
        let whole = *i;
        let n = digits(i);
        if n == 0 || (n > 1 && s[whole] == b'0') {
            return Err(format!("bad number at byte {start}"));
        }
        if s.get(*i) == Some(&b'.') {
            *i += 1;
            if digits(i) == 0 {
                return Err(format!("bad fraction at byte {start}"));
            }
        }
        Ok(())
    }

    fn string(s: &[u8], i: &mut usize) -> Result<(), String> {
        *i += 1;
        while let Some(&c) = s.get(*i) {
            *i += 1;
            match c {
                b'"' => return Ok(()),
                b'\\' => {
                    match s.get(*i) {
                        Some(b'u') => {
                            let hex = s.get(*i + 1..*i + 5).ok_or("short \\u escape")?;
                            if !hex.iter().all(u8::is_ascii_hexdigit) {
                                return Err(format!("bad \\u escape at byte {i}"));
                            }
                            *i += 4;
                        }
                        Some(c) if b"\"\\/bfnrt".contains(c) => {}
                        _ => return Err(format!("bad escape at byte {i}")),
                    }
                    *i += 1;
                }
                c if c < 0x20 => return Err(format!("raw control character at byte {i}")),
                _ => {}
            }
        }
        Err("unterminated string".into())
    }

    fn sequence(s: &[u8], i: &mut usize, close: u8, keyed: bool) -> Result<(), String> {
        *i += 1;
        space(s, i);
        if s.get(*i) == Some(&close) {
            *i += 1;
            return Ok(());
        }
        loop {
            if keyed {
                space(s, i);
                if s.get(*i) != Some(&b'"') {
                    return Err(format!("a key expected at byte {i}"));
                }
                string(s, i)?;
                space(s, i);
                if s.get(*i) != Some(&b':') {
                    return Err(format!("`:` expected at byte {i}"));
                }
                *i += 1;
            }
            value(s, i)?;
            space(s, i);
            match s.get(*i) {
                Some(b',') => *i += 1,
                Some(c) if *c == close => {
                    *i += 1;
                    return Ok(());
                }
                _ => return Err(format!("`,` or the close expected at byte {i}")),
            }
        }
    }

    /// Check `text`, returning the first fault found.
    pub fn check(text: &str) -> Result<(), String> {
        let s = text.as_bytes();
        let mut i = 0;
        value(s, &mut i)?;
        space(s, &mut i);
        if i != s.len() {
            return Err(format!("text after the value at byte {i}"));
        }
        Ok(())
    }

    #[test]
    fn the_checker_tells_good_from_bad() {
        assert!(check(r#" {"a": [1, -2.5, "x\"\u00e9", true, null], "b": {}} "#).is_ok());
        for bad in [
            r#"{"a": 1,}"#,
            "[01]",
            r#"{"a" 1}"#,
            "[1] 2",
            "\"\u{1}\"",
            "{a: 1}",
            "",
        ] {
            assert!(check(bad).is_err(), "{bad}");
        }
    }
}
