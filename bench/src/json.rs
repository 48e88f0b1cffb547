//! A minimal JSON value and writer for the match summary (no dependency needed for
//! writing a few objects).

use std::fmt::Write;

/// A JSON value. Objects keep their key order.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number; non-finite values are written as `null`.
    Num(f64),
    /// An integer.
    Int(i64),
    /// A string.
    Str(String),
    /// An array.
    Arr(Vec<Json>),
    /// An object.
    Obj(Vec<(String, Json)>),
}

impl Json {
    /// An empty object.
    pub fn obj() -> Json {
        Json::Obj(Vec::new())
    }

    /// Add a key to an object (builder style).
    pub fn with(mut self, key: &str, value: impl Into<Json>) -> Json {
        if let Json::Obj(v) = &mut self {
            v.push((key.to_string(), value.into()));
        }
        self
    }

    /// Pretty-printed text with two-space indentation.
    pub fn pretty(&self) -> String {
        let mut s = String::new();
        self.write(&mut s, 0);
        s.push('\n');
        s
    }

    fn write(&self, s: &mut String, indent: usize) {
        match self {
            Json::Null => s.push_str("null"),
            Json::Bool(b) => s.push_str(if *b { "true" } else { "false" }),
            Json::Num(x) if x.is_finite() => {
                if x.fract() == 0.0 && x.abs() < 1e15 {
                    let _ = write!(s, "{x:.1}");
                } else {
                    let _ = write!(s, "{x}");
                }
            }
            Json::Num(_) => s.push_str("null"),
            Json::Int(i) => {
                let _ = write!(s, "{i}");
            }
            Json::Str(t) => write_str(s, t),
            Json::Arr(v) if v.is_empty() => s.push_str("[]"),
            Json::Arr(v) => {
                let simple = v.iter().all(|x| !matches!(x, Json::Arr(_) | Json::Obj(_)));
                if simple {
                    s.push('[');
                    for (i, x) in v.iter().enumerate() {
                        if i > 0 {
                            s.push_str(", ");
                        }
                        x.write(s, indent);
                    }
                    s.push(']');
                } else {
                    s.push_str("[\n");
                    for (i, x) in v.iter().enumerate() {
                        pad(s, indent + 1);
                        x.write(s, indent + 1);
                        if i + 1 < v.len() {
                            s.push(',');
                        }
                        s.push('\n');
                    }
                    pad(s, indent);
                    s.push(']');
                }
            }
            Json::Obj(v) if v.is_empty() => s.push_str("{}"),
            Json::Obj(v) => {
                s.push_str("{\n");
                for (i, (k, x)) in v.iter().enumerate() {
                    pad(s, indent + 1);
                    write_str(s, k);
                    s.push_str(": ");
                    x.write(s, indent + 1);
                    if i + 1 < v.len() {
                        s.push(',');
                    }
                    s.push('\n');
                }
                pad(s, indent);
                s.push('}');
            }
        }
    }
}

fn pad(s: &mut String, indent: usize) {
    for _ in 0..indent {
        s.push_str("  ");
    }
}

fn write_str(s: &mut String, t: &str) {
    s.push('"');
    for c in t.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            '\r' => s.push_str("\\r"),
            '\t' => s.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(s, "\\u{:04x}", c as u32);
            }
            c => s.push(c),
        }
    }
    s.push('"');
}

impl From<bool> for Json {
    fn from(b: bool) -> Json {
        Json::Bool(b)
    }
}
impl From<f64> for Json {
    fn from(x: f64) -> Json {
        Json::Num(x)
    }
}
impl From<i64> for Json {
    fn from(x: i64) -> Json {
        Json::Int(x)
    }
}
impl From<u64> for Json {
    fn from(x: u64) -> Json {
        Json::Int(x as i64)
    }
}
impl From<u32> for Json {
    fn from(x: u32) -> Json {
        Json::Int(i64::from(x))
    }
}
impl From<usize> for Json {
    fn from(x: usize) -> Json {
        Json::Int(x as i64)
    }
}
impl From<&str> for Json {
    fn from(s: &str) -> Json {
        Json::Str(s.to_string())
    }
}
impl From<String> for Json {
    fn from(s: String) -> Json {
        Json::Str(s)
    }
}
impl<T: Into<Json>> From<Option<T>> for Json {
    fn from(o: Option<T>) -> Json {
        o.map_or(Json::Null, Into::into)
    }
}
impl<T: Into<Json>> From<Vec<T>> for Json {
    fn from(v: Vec<T>) -> Json {
        Json::Arr(v.into_iter().map(Into::into).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_json() {
        let j = Json::obj()
            .with("a", 1u64)
            .with("b", "x\"y\n")
            .with("c", vec![1.5, f64::INFINITY])
            .with("d", Json::obj())
            .with("e", Some(true))
            .with("f", None::<u64>)
            .with("g", 2.0);
        assert_eq!(
            j.pretty(),
            "{\n  \"a\": 1,\n  \"b\": \"x\\\"y\\n\",\n  \"c\": [1.5, null],\n  \"d\": {},\n  \"e\": true,\n  \"f\": null,\n  \"g\": 2.0\n}\n"
        );
    }
}
