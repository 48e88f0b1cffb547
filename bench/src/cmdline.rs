//! Splitting an engine command line (`cmd=...`) into a program and its arguments.
//!
//! Rules, close to a POSIX shell without expansions: words are separated by unquoted
//! whitespace; `'...'` quotes literally; `"..."` quotes with `\"` and `\\` escapes; a
//! backslash outside quotes escapes the next character.

/// Split `line` into words, or explain why it cannot be split (an unclosed quote).
pub fn split_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed ' in {line:?}")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(format!("unclosed \" in {line:?}")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed \" in {line:?}")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    word.push(c);
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_plain_and_quoted_words() {
        assert_eq!(split_words("a  b\tc").unwrap(), ["a", "b", "c"]);
        assert_eq!(
            split_words(r#"./pbrain-x --name "my engine" 'a b' c\ d"#).unwrap(),
            ["./pbrain-x", "--name", "my engine", "a b", "c d"]
        );
        assert_eq!(split_words(r#""a\"b" """#).unwrap(), ["a\"b", ""]);
        assert!(split_words("'open").is_err());
        assert!(split_words("").unwrap().is_empty());
    }
}
