//! Classifying the lines an engine prints (Gomocup protocol, brain → manager).

/// What one line from an engine is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `MESSAGE text`: information for the user.
    Message(String),
    /// `DEBUG text`: information for the author.
    Debug(String),
    /// `ERROR text`: a command could not be handled.
    Error(String),
    /// `UNKNOWN text`: the command is not implemented.
    Unknown(String),
    /// `SUGGEST x,y`: not supported by match runners.
    Suggest(String),
    /// Exactly `OK` (case-insensitive).
    Ok,
    /// A move `x,y` (two base-10 integers, one comma, nothing else).
    Move(i64, i64),
    /// Anything else.
    Other(String),
}

impl Reply {
    /// True for lines a manager skips while waiting for an answer.
    pub fn is_chatter(&self) -> bool {
        matches!(self, Reply::Message(_) | Reply::Debug(_))
    }
}

/// Classify a line (already stripped of the line ending). Prefixes are matched
/// case-insensitively (the spec asks managers to accept either case); a move must be
/// exactly `x,y` as c-gomoku-cli requires, so `7,7 ` or `7,7,1` are not moves.
pub fn classify(line: &str) -> Reply {
    let prefixed = |p: &str| -> Option<String> {
        let n = p.len();
        if line.len() >= n
            && line.as_bytes()[..n].eq_ignore_ascii_case(p.as_bytes())
            && (line.len() == n || line.as_bytes()[n] == b' ')
        {
            Some(line[n..].trim_start().to_string())
        } else {
            None
        }
    };
    if let Some(t) = prefixed("MESSAGE") {
        return Reply::Message(t);
    }
    if let Some(t) = prefixed("DEBUG") {
        return Reply::Debug(t);
    }
    if let Some(t) = prefixed("ERROR") {
        return Reply::Error(t);
    }
    if let Some(t) = prefixed("UNKNOWN") {
        return Reply::Unknown(t);
    }
    if let Some(t) = prefixed("SUGGEST") {
        return Reply::Suggest(t);
    }
    if line.eq_ignore_ascii_case("OK") {
        return Reply::Ok;
    }
    if let Some((x, y)) = parse_move(line) {
        return Reply::Move(x, y);
    }
    Reply::Other(line.to_string())
}

/// Parse `x,y` strictly: one comma, both sides entirely base-10 integers (optional sign).
pub fn parse_move(line: &str) -> Option<(i64, i64)> {
    let (a, b) = line.split_once(',')?;
    let int = |s: &str| -> Option<i64> {
        let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
        if digits.is_empty() || digits.len() > 9 || !digits.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    Some((int(a)?, int(b)?))
}

/// The value of `name="..."` in an ABOUT line, if present.
pub fn about_name(line: &str) -> Option<String> {
    about_field(line, "name")
}

/// The value of `key="..."` in an ABOUT line.
pub fn about_field(line: &str, key: &str) -> Option<String> {
    let mut rest = line;
    while let Some(i) = rest.find(key) {
        let before_ok = i == 0 || {
            let c = rest.as_bytes()[i - 1];
            c == b' ' || c == b','
        };
        let after = rest[i + key.len()..].trim_start();
        if before_ok {
            if let Some(v) = after.strip_prefix('=') {
                let v = v.trim_start();
                if let Some(q) = v.strip_prefix('"') {
                    let end = q.find('"').unwrap_or(q.len());
                    return Some(q[..end].to_string());
                }
                let end = v.find(',').unwrap_or(v.len());
                return Some(v[..end].trim().to_string());
            }
        }
        rest = &rest[i + key.len()..];
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_lines() {
        assert_eq!(classify("7,8"), Reply::Move(7, 8));
        assert_eq!(classify("-1,12"), Reply::Move(-1, 12));
        assert_eq!(classify("7,7 "), Reply::Other("7,7 ".into()));
        assert_eq!(classify("7,7,1"), Reply::Other("7,7,1".into()));
        assert_eq!(classify(" 7,7"), Reply::Other(" 7,7".into()));
        assert_eq!(classify("OK"), Reply::Ok);
        assert_eq!(classify("ok"), Reply::Ok);
        assert_eq!(classify("OK fine"), Reply::Other("OK fine".into()));
        assert_eq!(
            classify("MESSAGE depth 3"),
            Reply::Message("depth 3".into())
        );
        assert_eq!(classify("message"), Reply::Message(String::new()));
        assert_eq!(classify("MESSAGES x"), Reply::Other("MESSAGES x".into()));
        assert_eq!(classify("DEBUG x"), Reply::Debug("x".into()));
        assert_eq!(classify("ERROR bad size"), Reply::Error("bad size".into()));
        assert_eq!(classify("UNKNOWN ABOUT"), Reply::Unknown("ABOUT".into()));
        assert_eq!(classify("SUGGEST 1,2"), Reply::Suggest("1,2".into()));
        assert_eq!(classify("hello"), Reply::Other("hello".into()));
        assert_eq!(
            classify("99999999999,1"),
            Reply::Other("99999999999,1".into())
        );
        assert!(Reply::Message(String::new()).is_chatter());
        assert!(!Reply::Ok.is_chatter());
    }

    #[test]
    fn reads_about_names() {
        let l = r#"name="Rensa", version="0.1", author="x", country="CZ""#;
        assert_eq!(about_name(l).as_deref(), Some("Rensa"));
        assert_eq!(about_field(l, "version").as_deref(), Some("0.1"));
        assert_eq!(
            about_name(r#"version="1", name = "A B""#).as_deref(),
            Some("A B")
        );
        assert_eq!(about_name("just text").as_deref(), None);
        assert_eq!(
            about_name(r#"nickname="x", name="y""#).as_deref(),
            Some("y")
        );
    }
}
