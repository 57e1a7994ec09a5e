//! Text from outside the program (a path, a name) as printed for a person: a terminal could
//! take its control characters for commands, so they are escaped.

use std::path::Path;

/// A path as printed for a person: control characters (which a terminal could take for
/// commands) escaped, everything else as it is.
#[must_use]
pub fn shown(path: &Path) -> String {
    escaped(&path.to_string_lossy())
}

/// `text` with its control characters escaped, for a terminal.
#[must_use]
pub fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        if ch.is_control() {
            out.extend(ch.escape_default());
        } else {
            out.push(ch);
        }
    }
    out
}
