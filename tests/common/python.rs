//! The Python interpreter for tests that drive PyPI packages (the renju referee, the pygomo
//! client): `$RENSA_PYTHON`, else `.venv/bin/python` at the repository root, made on first
//! use when `python3` is there (`python3 -m venv .venv && .venv/bin/pip install -r
//! tests/python-requirements.txt`; `.ci/run` does the same first). Without Python or the
//! package a test says so on stderr and passes; under `CI` it fails instead.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Once;

/// True when `python` runs and can `import module`.
fn can_import(python: &Path, module: &str) -> bool {
    Command::new(python)
        .args(["-c", &format!("import {module}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Make `.venv` at the repository root with the pinned packages (`python3 -m venv`, then
/// pip from the package index), once per test process. Errors are printed, not raised: the
/// caller decides whether a missing package skips or fails.
fn make_venv(root: &Path) {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let venv = root.join(".venv");
        eprintln!("making {} for the Python-driven tests", venv.display());
        let made = Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .status()
            .is_ok_and(|s| s.success());
        let installed = made
            && Command::new(venv.join("bin/python"))
                .args(["-m", "pip", "install", "--quiet", "-r"])
                .arg(root.join("tests/python-requirements.txt"))
                .status()
                .is_ok_and(|s| s.success());
        if !installed {
            eprintln!("could not make {} with the test packages", venv.display());
        }
    });
}

/// An interpreter that can `import module` (see the module comment for where it comes
/// from). None, with the reason printed, when there is none outside CI; under `CI` a
/// missing package fails the calling test, named by `test`.
pub fn python_with(module: &str, test: &str) -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let python = match std::env::var_os("RENSA_PYTHON") {
        Some(p) => PathBuf::from(p),
        None => {
            let venv_python = root.join(".venv/bin/python");
            if !can_import(&venv_python, module) {
                make_venv(&root);
            }
            venv_python
        }
    };
    if can_import(&python, module) {
        return Some(python);
    }
    let why = format!(
        "no Python with `{module}` at {} (set RENSA_PYTHON, or run `python3 -m venv .venv && \
         .venv/bin/pip install -r tests/python-requirements.txt`)",
        python.display()
    );
    if std::env::var_os("CI").is_some() {
        panic!("{why}: {test} must run under CI");
    }
    eprintln!("SKIPPED: {why}");
    None
}
