//! The page, embedded in the binary: one HTML file, one style sheet, one script, all
//! written by hand (no build step, nothing fetched from elsewhere).

/// `index.html`.
pub const INDEX: &str = include_str!("page/index.html");
/// `style.css`: light and dark themes.
pub const STYLE: &str = include_str!("page/style.css");
/// `app.js`: the board, the dialogs and the API calls.
pub const SCRIPT: &str = include_str!("page/app.js");
