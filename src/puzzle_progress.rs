//! The player's puzzle rating on disk: `puzzles.json` in the data directory (beside the folder
//! of saved games), a small JSON object written atomically (a temporary file beside it, synced,
//! renamed over it), read strictly.
//!
//! ```json
//! {"rating": 1523.4, "deviation": 290.1, "volatility": 0.06, "streak": 1,
//!  "attempts": [{"id": "quentin-0017", "solved": true, "at": 1795830000}],
//!  "best_streak": 7, "best_storm": 21,
//!  "mistakes": [{"id": "mistake-quentin-…", "game": "quentin", "size": 5, "pie": false,
//!                "pieces": 0, "line": "c3 a1", "played": "e5", "best": "b3",
//!                "answers": "b3 d3"}]}
//! ```
//!
//! A file that does not read (not JSON, a field missing or of the wrong type) is reported with
//! its path and what is wrong, and left as it is: the puzzle mode refuses to start rather than
//! begin again at 1500 over it (docs/puzzles.md).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use serde_json::{Value, json};

use crate::rules::{Action, Game, Setup};
use crate::save::write_atomically;
use crate::saved_games::{data_dir, shown};
use quentin_app::mistakes::Mistake;
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
        "mistakes": progress.mistakes.iter().map(mistake_json).collect::<Vec<_>>(),
    })
}

/// `c3 e4 d3`: actions as a record writes them.
fn actions_text(actions: &[Action]) -> String {
    actions
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The JSON object of one of the player's own mistakes.
fn mistake_json(m: &Mistake) -> Value {
    json!({
        "id": m.id,
        "game": m.setup.game.name().to_lowercase(),
        "size": m.setup.size,
        "pie": m.setup.pie,
        "pieces": m.setup.pieces,
        "line": actions_text(&m.line),
        "played": m.played.to_string(),
        "best": m.best.to_string(),
        "answers": actions_text(&m.answers),
    })
}

/// One of the player's own mistakes from its JSON object (number `n` from 1): its position
/// replayed, its actions legal there, else what is wrong.
fn mistake_of(n: usize, value: &Value) -> Result<Mistake> {
    let text = |key: &str| {
        value
            .get(key)
            .and_then(Value::as_str)
            .ok_or_else(|| anyhow!("mistake {n}: {key:?} is not text"))
    };
    let count = |key: &str| {
        value
            .get(key)
            .and_then(Value::as_u64)
            .and_then(|v| usize::try_from(v).ok())
            .ok_or_else(|| anyhow!("mistake {n}: {key:?} is not a count"))
    };
    let actions = |key: &str| -> Result<Vec<Action>> {
        text(key)?
            .split_whitespace()
            .map(|a| Action::parse(a).map_err(|e| anyhow!("mistake {n}: {key:?}: {e}")))
            .collect()
    };
    let game =
        Game::from_name(text("game")?).ok_or_else(|| anyhow!("mistake {n}: no such game"))?;
    let pie = value
        .get("pie")
        .and_then(Value::as_bool)
        .ok_or_else(|| anyhow!("mistake {n}: \"pie\" is not true or false"))?;
    let setup = Setup {
        game,
        size: count("size")?,
        pie,
        pieces: count("pieces")?,
    };
    let line = actions("line")?;
    let played = actions("played")?;
    let best = actions("best")?;
    let answers = actions("answers")?;
    let ([played], [best]) = (played.as_slice(), best.as_slice()) else {
        bail!("mistake {n}: \"played\" and \"best\" are one action each");
    };
    let mistake = Mistake {
        id: text("id")?.to_string(),
        setup,
        line,
        played: *played,
        best: *best,
        answers,
    };
    let position = mistake
        .puzzle()
        .position()
        .map_err(|e| anyhow!("mistake {n}: {e}"))?;
    for a in std::iter::once(&mistake.played).chain(&mistake.answers) {
        position
            .preview(*a)
            .map_err(|e| anyhow!("mistake {n}: {a} is not legal there: {e}"))?;
    }
    Ok(mistake)
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
    // The mistakes came later still: a file without them has none.
    let mistakes = match object.get("mistakes") {
        None => Vec::new(),
        Some(Value::Array(list)) => list
            .iter()
            .enumerate()
            .map(|(i, m)| mistake_of(i + 1, m))
            .collect::<Result<Vec<_>>>()?,
        Some(_) => bail!("\"mistakes\" is not a list"),
    };
    Ok(Progress {
        rating,
        streak,
        attempts,
        best,
        mistakes,
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
            mistakes: vec![Mistake {
                id: "mistake-quentin-01234567".into(),
                setup: Setup {
                    game: Game::Quentin,
                    size: 5,
                    pie: false,
                    pieces: 0,
                },
                line: ["c3", "a1"].map(|a| Action::parse(a).unwrap()).to_vec(),
                played: Action::parse("e5").unwrap(),
                best: Action::parse("b3").unwrap(),
                answers: ["b3", "d3"].map(|a| Action::parse(a).unwrap()).to_vec(),
            }],
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
