//! The player's puzzle rating on disk: `puzzles.json` in the data directory (beside the folder
//! of saved games), a small JSON object written atomically (a temporary file beside it, synced,
//! renamed over it), read strictly.
//!
//! ```json
//! {"rating": 1523.4, "deviation": 290.1, "volatility": 0.06, "streak": 1,
//!  "attempts": [{"id": "quentin-0017", "solved": true, "at": 1795830000}],
//!  "best_streak": 7, "best_storm": 21}
//! ```
//!
//! A file that does not read (not JSON, a field missing or of the wrong type) is reported with
//! its path and what is wrong, and left as it is: the puzzle mode refuses to start rather than
//! begin again at 1500 over it (docs/puzzles.md).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use serde_json::{Value, json};

use crate::save::write_atomically;
use crate::saved_games::{data_dir, shown};
use quentin_app::puzzle_rating::{Attempt, Bests, Progress, PuzzleRating};

/// The file's name in the data directory.
pub const FILE_NAME: &str = "puzzles.json";

/// Where the player's puzzle rating is kept: `puzzles.json` in the data directory.
///
/// # Errors
/// As [`data_dir`].
pub fn path() -> Result<PathBuf> {
    Ok(data_dir()?.join(FILE_NAME))
}

/// The progress kept at `path`: a new player's (1500, provisional) when there is no file.
///
/// # Errors
/// A file that cannot be read or does not hold a progress: its path and why.
pub fn load(path: &Path) -> Result<Progress> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Progress::default()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", shown(path))),
    };
    parse(&text).map_err(|why| {
        anyhow!(
            "the puzzle rating file {} is damaged: {why}. It is left as it is: mend it, or move \
             it aside to start again at 1500",
            shown(path)
        )
    })
}

/// Writes `progress` to `path`, atomically, making the directory if need be.
///
/// # Errors
/// When the directory or the file cannot be written.
pub fn save(path: &Path, progress: &Progress) -> Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot make the directory {}", shown(dir)))?;
    }
    let mut text = to_json(progress).to_string();
    text.push('\n');
    write_atomically(path, text.as_bytes())
        .with_context(|| format!("cannot write {}", shown(path)))?;
    Ok(())
}

/// The JSON object of `progress`.
fn to_json(progress: &Progress) -> Value {
    let attempts: Vec<Value> = progress
        .attempts
        .iter()
        .map(|a| json!({"id": a.id, "solved": a.solved, "at": a.at}))
        .collect();
    json!({
        "rating": progress.rating.rating,
        "deviation": progress.rating.deviation,
        "volatility": progress.rating.volatility,
        "streak": progress.streak,
        "attempts": attempts,
        "best_streak": progress.best.streak,
        "best_storm": progress.best.storm,
    })
}

/// The progress of a file's text, or what is wrong with it.
fn parse(text: &str) -> Result<Progress> {
    let value: Value = serde_json::from_str(text).context("not JSON")?;
    let Some(object) = value.as_object() else {
        bail!("not a JSON object");
    };
    let number = |key: &str| {
        object
            .get(key)
            .and_then(Value::as_f64)
            .filter(|n| n.is_finite())
            .ok_or_else(|| anyhow!("{key:?} is not a number"))
    };
    let rating = PuzzleRating {
        rating: number("rating")?,
        deviation: number("deviation")?,
        volatility: number("volatility")?,
    };
    if rating.deviation <= 0.0 || rating.volatility <= 0.0 {
        bail!("the deviation and the volatility must be above 0");
    }
    let streak = object
        .get("streak")
        .and_then(Value::as_u64)
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| anyhow!("\"streak\" is not a count"))?;
    let Some(list) = object.get("attempts").and_then(Value::as_array) else {
        bail!("\"attempts\" is not a list");
    };
    let attempts = list
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let id = a.get("id").and_then(Value::as_str);
            let solved = a.get("solved").and_then(Value::as_bool);
            let at = a.get("at").and_then(Value::as_u64);
            match (id, solved, at) {
                (Some(id), Some(solved), Some(at)) => Ok(Attempt {
                    id: id.to_string(),
                    solved,
                    at,
                }),
                _ => Err(anyhow!(
                    "attempt {} needs \"id\" (text), \"solved\" (true or false) and \"at\" \
                     (seconds)",
                    i + 1
                )),
            }
        })
        .collect::<Result<Vec<_>>>()?;
    // The bests came later: a file without them has none yet.
    let best = |key: &str| {
        object
            .get(key)
            .map_or(Some(0), |v| v.as_u64().and_then(|n| u32::try_from(n).ok()))
            .ok_or_else(|| anyhow!("{key:?} is not a count"))
    };
    let best = Bests {
        streak: best("best_streak")?,
        storm: best("best_storm")?,
    };
    Ok(Progress {
        rating,
        streak,
        attempts,
        best,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_progress_reads_back_as_it_was_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("data").join(FILE_NAME);
        assert_eq!(load(&path).unwrap(), Progress::default());
        let progress = Progress {
            rating: PuzzleRating {
                rating: 1623.5,
                deviation: 101.25,
                volatility: 0.0599,
            },
            streak: 3,
            attempts: vec![Attempt {
                id: "konobi-0004".into(),
                solved: true,
                at: 1_795_830_000,
            }],
            best: Bests {
                streak: 7,
                storm: 21,
            },
        };
        save(&path, &progress).unwrap();
        assert_eq!(load(&path).unwrap(), progress);
    }

    #[test]
    fn a_damaged_file_is_refused_saying_where_and_left_as_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        for (text, why) in [
            ("{\"rating\": 1500", "not JSON"),
            ("[]", "not a JSON object"),
            (
                "{\"rating\": \"high\", \"deviation\": 1, \"volatility\": 1}",
                "\"rating\" is not a number",
            ),
            (
                "{\"rating\": 1500, \"deviation\": 300, \"volatility\": 0.06, \"streak\": 0, \
                 \"attempts\": [{\"id\": \"a\"}]}",
                "attempt 1 needs",
            ),
        ] {
            std::fs::write(&path, text).unwrap();
            let err = format!("{:#}", load(&path).unwrap_err());
            assert!(err.contains(why), "{err}");
            assert!(err.contains(FILE_NAME), "{err}");
            assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        }
    }
}
