//! The engine's layers, checked: every `crate::` path in `src/` must point at the same
//! layer or one below, and the top-level modules must not import each other in a cycle.
//!
//! From the bottom up:
//!
//! | layer | modules | what it is |
//! | --- | --- | --- |
//! | 0 | `board`, `rng` | cells, line masks, Zobrist keys, geometry; a seeded generator |
//! | 1 | `rules`, `position`, `quintet`, `records` | wins and fouls, a game's moves, puzzle files, game records |
//! | 2 | `shape`, `pattern` | line shapes and the pattern tables |
//! | 3 | `search`, `timeman` | the search, its board and solvers; time rules |
//! | 4 | `engine`, `opening`, `bench` | the facade that owns the game, swap2, the bench |
//! | 5 | `protocol`, `client`, `analysis`, `gui` | the Gomocup protocol over the facade; hosting other engines; the `analyse` command; the board in the browser |
//!
//! `lib.rs` declares the modules and `main.rs` is the binary: both stand above all layers.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layer of each top-level module of the crate.
const LAYERS: &[(&str, u32)] = &[
    ("board", 0),
    ("rng", 0),
    ("rules", 1),
    ("position", 1),
    ("quintet", 1),
    ("records", 1),
    ("shape", 2),
    ("pattern", 2),
    ("search", 3),
    ("timeman", 3),
    ("engine", 4),
    ("opening", 4),
    ("bench", 4),
    ("protocol", 5),
    ("client", 5),
    ("analysis", 5),
    ("gui", 5),
];

fn layer_of(module: &str) -> Option<u32> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|&(_, l)| l)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file of `src/` belongs to (`src/search/threat/vct.rs` is in
/// `search`), or None for `lib.rs` and `main.rs`.
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel.components().next()?.as_os_str().to_str()?.to_string();
    let name = first.strip_suffix(".rs").unwrap_or(&first).to_string();
    (name != "lib" && name != "main").then_some(name)
}

/// The top-level modules named by `crate::NAME` paths in `text`, comments skipped, with
/// the line each is first seen on. `use crate::{a::X, b::Y}` names both.
fn imports(text: &str) -> Vec<(String, usize)> {
    let mut found = Vec::new();
    let mut in_group = false;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split("//").next().unwrap_or("");
        let mut rest = line;
        while let Some(i) = rest.find("crate::") {
            let after = &rest[i + "crate::".len()..];
            if let Some(group) = after.strip_prefix('{') {
                in_group = !group.contains('}');
                found.extend(group_names(group).map(|m| (m, n + 1)));
            } else {
                let name: String = after
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    found.push((name, n + 1));
                }
            }
            rest = after;
        }
        if in_group && !line.contains("crate::") {
            // Lines of a `use crate::{ ... }` group spread over several lines.
            found.extend(group_names(line).map(|m| (m, n + 1)));
            if line.contains('}') {
                in_group = false;
            }
        }
    }
    found
}

/// The first path segments of the items of a `{a::X, b, c::{D, E}}` group (nested groups
/// are skipped past).
fn group_names(group: &str) -> impl Iterator<Item = String> + '_ {
    let mut depth = 0;
    let mut starts = vec![0];
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => starts.push(i + 1),
            _ => {}
        }
    }
    starts.into_iter().filter_map(move |s| {
        let name: String = group[s..]
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        (!name.is_empty() && name != "self").then_some(name)
    })
}

#[test]
fn imports_point_down_the_layers_and_close_no_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut problems = Vec::new();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let Some(module) = module_of(&src, file) else {
            continue;
        };
        let Some(own) = layer_of(&module) else {
            problems.push(format!(
                "{}: module `{module}` has no layer in tests/layers.rs",
                file.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        for (target, line) in imports(&text) {
            if target == module {
                continue;
            }
            match layer_of(&target) {
                None => problems.push(format!(
                    "{}:{line}: `crate::{target}` is no module with a layer",
                    file.display()
                )),
                Some(l) if l > own => problems.push(format!(
                    "{}:{line}: `{module}` (layer {own}) imports `{target}` (layer {l}), \
                     a layer above it",
                    file.display()
                )),
                Some(_) => {
                    graph.entry(module.clone()).or_default().insert(target);
                }
            }
        }
    }
    // Cycles among the modules that import each other within a layer.
    for start in graph.keys() {
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        let mut seen = BTreeSet::new();
        while let Some((at, path)) = stack.pop() {
            for next in graph.get(&at).into_iter().flatten() {
                if next == start {
                    problems.push(format!("import cycle: {} -> {start}", path.join(" -> ")));
                } else if seen.insert(next.clone()) {
                    let mut longer = path.clone();
                    longer.push(next.clone());
                    stack.push((next.clone(), longer));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "layering problems:\n{}",
        problems.join("\n")
    );
    // The scan found the imports it is meant to judge.
    assert!(graph.get("search").is_some_and(|s| s.contains("board")));
    assert!(graph.get("protocol").is_some_and(|s| s.contains("engine")));
    assert!(graph
        .get("gui")
        .is_some_and(|s| s.contains("engine") && s.contains("client")));
}

#[test]
fn the_scanner_reads_grouped_and_nested_imports() {
    let text = "use crate::board::Pos;\n\
                use crate::{rules::Rule, pattern::{A, B}};\n\
                use crate::{\n    search::x,\n    engine,\n};\n\
                // use crate::protocol::Nothing;\n\
                let a = crate::timeman::f();\n";
    let names: Vec<String> = imports(text).into_iter().map(|(m, _)| m).collect();
    assert_eq!(
        names,
        ["board", "rules", "pattern", "search", "engine", "timeman"]
    );
}

#[test]
fn the_core_knows_nothing_of_http() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    for file in &files {
        let Some(module) = module_of(&src, file) else {
            continue;
        };
        if layer_of(&module).is_some_and(|l| l < 5) {
            let text = std::fs::read_to_string(file).unwrap();
            for word in ["tiny_http", "serde"] {
                assert!(
                    !text.contains(word),
                    "{}: the engine core uses `{word}`",
                    file.display()
                );
            }
        }
    }
}
