//! The course that ships with the program (`quentin learn`, issue 60): `puzzles/learn/GAME.txt`,
//! one file a game, embedded in the app crate (the server's sessions follow it too), read by
//! its course reader (which refuses a level edited into a wrong line, naming it); and the
//! learner's progress,
//! `learn.json` in the data directory: the stars of every level solved, `{"levels":
//! {"quentin/1/1": 3}}`, written atomically. A progress file that does not read is set aside
//! beside (renamed, never deleted) and the course starts again.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde_json::{Value, json};

use crate::rules::Game;
use crate::save::write_atomically;
use crate::saved_games::{data_dir, shown};
use quentin_app::course::Course;

/// Each shipped file and the shipped courses: the app crate's, which the server's sessions
/// follow too.
pub use quentin_app::course::{FILES, shipped};

/// The shipped course of `game`.
///
/// # Errors
/// As [`shipped`].
pub fn shipped_of(game: Game) -> Result<Course> {
    shipped()?
        .into_iter()
        .find(|c| c.game == game)
        .with_context(|| format!("no course of {}", game.title()))
}

/// The file's name in the data directory.
pub const FILE_NAME: &str = "learn.json";

/// Where the progress is kept: `learn.json` in the data directory.
///
/// # Errors
/// As [`data_dir`].
pub fn path() -> Result<PathBuf> {
    Ok(data_dir()?.join(FILE_NAME))
}

/// The stars of each level solved, by its key (`quentin/1/1`).
pub type Stars = BTreeMap<String, u8>;

/// Reads a progress file's text.
fn parse(text: &str) -> Result<Stars, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let levels = value
        .get("levels")
        .and_then(Value::as_object)
        .ok_or("no object \"levels\"")?;
    levels
        .iter()
        .map(|(k, v)| {
            let stars = v
                .as_u64()
                .filter(|s| (1..=3).contains(s))
                .ok_or_else(|| format!("the stars of {k:?} are not 1, 2 or 3"))?;
            Ok((k.clone(), stars as u8))
        })
        .collect()
}

/// The progress kept at `path` (none when there is no file), and, when the file did not read,
/// what became of it: set aside beside (renamed `learn.json.damaged-SECONDS`), never deleted.
///
/// # Errors
/// When the file cannot be read, or a damaged one cannot be set aside.
pub fn load(path: &Path, now: u64) -> Result<(Stars, Option<String>)> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Stars::new(), None)),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", shown(path))),
    };
    match parse(&text) {
        Ok(stars) => Ok((stars, None)),
        Err(why) => {
            let aside = path.with_extension(format!("json.damaged-{now}"));
            std::fs::rename(path, &aside)
                .with_context(|| format!("cannot set aside the damaged {}", shown(path)))?;
            Ok((
                Stars::new(),
                Some(format!(
                    "Your course progress {} did not read ({why}): it is set aside as {}, and \
                     the course starts again.",
                    shown(path),
                    shown(&aside)
                )),
            ))
        }
    }
}

/// Writes `stars` to `path`, atomically, making the directory if need be.
///
/// # Errors
/// When the directory or the file cannot be written.
pub fn save(path: &Path, stars: &Stars) -> Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot make the directory {}", shown(dir)))?;
    }
    let text = format!("{}\n", json!({ "levels": stars }));
    write_atomically(path, text.as_bytes())
        .map(|_| ())
        .with_context(|| format!("cannot write {}", shown(path)))
}
