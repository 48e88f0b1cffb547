//! The Gomocup (Piskvork) protocol layer: parsing, input/output threads and the session.

pub mod io;
pub mod output;
pub mod parse;
pub mod session;
