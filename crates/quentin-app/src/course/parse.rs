//! Reading a course file (the format in [`super`]): every level checked as it is read, its
//! setup replayed, its answers computed and compared; an error names the file and the line.

use std::fmt;

use crate::rules::{Action, Game, Point, Setup};

use super::{Course, Kind, Level, computed};

/// Why a course file does not read: its file, its line (from 1) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CourseError {
    /// The file.
    pub file: String,
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for CourseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} line {}: {}", self.file, self.line, self.message)
    }
}

impl std::error::Error for CourseError {}

/// A level as its lines give it, before it is checked.
#[derive(Default)]
struct Draft {
    line: usize,
    title: String,
    say: Option<String>,
    goal: Option<String>,
    size: Option<(usize, usize)>,
    pie: bool,
    pieces: Option<usize>,
    setup: Vec<Action>,
    setup_line: usize,
    kind: Option<(Kind, usize)>,
    points: Vec<Point>,
    answers: Option<(Vec<Action>, usize)>,
    par: u32,
}

/// Reads the actions of a `setup` or `answers` line.
fn actions(text: &str) -> Result<Vec<Action>, String> {
    text.split_whitespace()
        .map(|t| Action::parse(t).map_err(|e| format!("{t:?}: {e}")))
        .collect()
}

/// Reads the course of `text`, the file `file`.
///
/// # Errors
/// The first line that does not read, or a level that is wrong: its setup illegal, its answers
/// not exactly what its kind says, its par missing.
pub fn parse(text: &str, file: &str) -> Result<Course, CourseError> {
    let err = |line: usize, message: String| CourseError {
        file: file.to_string(),
        line,
        message,
    };
    let mut game = None;
    let mut stage = (0, String::new());
    let mut levels: Vec<Level> = Vec::new();
    let mut draft: Option<Draft> = None;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.split_once('#').map_or(raw, |(a, _)| a).trim();
        if line.is_empty() {
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        let value = value.trim();
        if key == "game" {
            game =
                Some(Game::from_name(value).ok_or_else(|| err(n, format!("no game {value:?}")))?);
            continue;
        }
        let Some(g) = game else {
            return Err(err(n, "the file must begin with `game NAME`".into()));
        };
        match key {
            "stage" | "level" => {
                if let Some(d) = draft.take() {
                    levels.push(finish(d, g, &stage, &levels).map_err(|(l, m)| err(l, m))?);
                }
                if key == "stage" {
                    stage = (stage.0 + 1, value.to_string());
                } else if stage.0 == 0 {
                    return Err(err(n, "a level before the first stage".into()));
                } else {
                    draft = Some(Draft {
                        line: n,
                        title: value.to_string(),
                        pie: false,
                        ..Draft::default()
                    });
                }
            }
            _ => {
                let Some(d) = draft.as_mut() else {
                    return Err(err(n, format!("{key:?} outside a level")));
                };
                field(d, key, value, n).map_err(|m| err(n, m))?;
            }
        }
    }
    if let Some(d) = draft.take() {
        let g = game.ok_or_else(|| err(1, "no game".into()))?;
        levels.push(finish(d, g, &stage, &levels).map_err(|(l, m)| err(l, m))?);
    }
    let game = game.ok_or_else(|| err(1, "the file must begin with `game NAME`".into()))?;
    if levels.is_empty() {
        return Err(err(1, "no level".into()));
    }
    Ok(Course { game, levels })
}

/// Reads one line of a level into `d`.
fn field(d: &mut Draft, key: &str, value: &str, n: usize) -> Result<(), String> {
    match key {
        "say" => d.say = Some(value.to_string()),
        "goal" => d.goal = Some(value.to_string()),
        "size" => d.size = Some((value.parse().map_err(|_| format!("size {value:?}"))?, n)),
        "pie" => {
            d.pie = match value {
                "on" => true,
                "off" => false,
                _ => return Err(format!("pie is on or off, not {value:?}")),
            }
        }
        "pieces" => d.pieces = Some(value.parse().map_err(|_| format!("pieces {value:?}"))?),
        "setup" => {
            d.setup.extend(actions(value)?);
            d.setup_line = n;
        }
        "kind" => {
            let kind = Kind::from_name(value).ok_or_else(|| {
                format!("no kind {value:?} (win, block, legal, fill, take, draw, move)")
            })?;
            d.kind = Some((kind, n));
        }
        "points" => {
            d.points = value
                .split_whitespace()
                .map(|t| Point::parse(t).map_err(|_| format!("{t:?} is not a point")))
                .collect::<Result<_, _>>()?;
        }
        "answers" => d.answers = Some((actions(value)?, n)),
        "par" => d.par = value.parse().map_err(|_| format!("par {value:?}"))?,
        _ => return Err(format!("unknown field {key:?}")),
    }
    Ok(())
}

/// Checks the draft `d` of `game` into a level of `stage`, after the `before` levels: an error
/// names its line.
fn finish(
    d: Draft,
    game: Game,
    stage: &(usize, String),
    before: &[Level],
) -> Result<Level, (usize, String)> {
    let at = d.line;
    let goal = d.goal.ok_or((at, "the level has no goal".to_string()))?;
    let (size, size_line) = d.size.ok_or((at, "the level has no size".to_string()))?;
    let mut setup = Setup::new(game);
    setup.size = size;
    setup.pie = d.pie;
    if let Some(p) = d.pieces {
        setup.pieces = p;
    }
    let mut position = setup.start().map_err(|e| (size_line, e.to_string()))?;
    for &a in &d.setup {
        position
            .play(a)
            .map_err(|e| (d.setup_line, format!("the setup's {a} is illegal: {e}")))?;
    }
    if position.is_over() {
        return Err((d.setup_line, "the setup ends the game".into()));
    }
    let (kind, kind_line) = d.kind.ok_or((at, "the level has no kind".to_string()))?;
    let computed = computed(kind, &position, &d.points);
    let answers = match (computed, d.answers) {
        (Some(mut c), Some((mut listed, n))) => {
            listed.sort();
            c.sort();
            if listed != c {
                let shown = |v: &[Action]| {
                    v.iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                return Err((
                    n,
                    format!(
                        "the answers of a {} level here are {:?}, not {:?}",
                        kind.name(),
                        shown(&c),
                        shown(&listed)
                    ),
                ));
            }
            listed
        }
        (Some(c), None) => c,
        (None, Some((listed, n))) => {
            if let Some(a) = listed.iter().find(|&&a| !position.is_legal(a)) {
                return Err((n, format!("the answer {a} is illegal here")));
            }
            listed
        }
        (None, None) => return Err((kind_line, "a move level lists its answers".into())),
    };
    if answers.is_empty() {
        return Err((
            kind_line,
            format!("no move is right: a {} level needs one", kind.name()),
        ));
    }
    if d.par == 0 {
        return Err((at, "the level has no par (par 1 or more)".into()));
    }
    let level = before.iter().filter(|l| l.stage == stage.0).count() + 1;
    Ok(Level {
        game,
        stage: stage.0,
        stage_title: stage.1.clone(),
        level,
        title: d.title,
        say: d.say,
        goal,
        setup: position.setup(),
        actions: d.setup,
        kind,
        points: d.points,
        answers,
        par: d.par,
        line: at,
    })
}
