//! End-to-end browser tests of the web board live in `tests/`; this library is empty.
