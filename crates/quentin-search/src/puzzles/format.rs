//! The text format of a puzzle set (docs/puzzles.md): a header, then one puzzle a line.
//!
//! ```text
//! # Quentin puzzles for quentin, each proved by its exact solver (docs/puzzles.md).
//! game quentin
//! command quentin puzzles generate --game quentin --size 5 --no-pie --count 100 --seed 1
//! quentin-0001; size 5; pie off; goal win; depth 2; rating 1240; themes win2 fill; setup c3 d4 e2 b2; solution b3 c2 a3
//! ```
//!
//! Reading is strict, and the first problem stops it with the file's name and the line's
//! number: an unknown header or field, a field twice or missing, a size, depth or rating out of
//! range, an unknown goal or theme, an id twice, and any action of the setup or the solution that
//! is not legal where it stands.

use std::collections::HashSet;
use std::fmt;

use quentin_rules::{Action, Game, Setup};

use super::{Goal, MAX_DEPTH, Puzzle, shown, theme};

/// A set of puzzles of one game, as a file holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleSet {
    /// The game of every puzzle.
    pub game: Game,
    /// The commands that generated it, in order.
    pub commands: Vec<String>,
    /// The puzzles, in the file's order.
    pub puzzles: Vec<Puzzle>,
}

/// A file that could not be read as a puzzle set: where, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetError {
    /// The file's name as the reader gave it.
    pub file: String,
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} line {}: {}", self.file, self.line, self.message)
    }
}

impl std::error::Error for SetError {}

/// The lowest and highest ratings a file may give.
const RATINGS: std::ops::RangeInclusive<u16> = 100..=3500;

impl PuzzleSet {
    /// An empty set of `game`.
    #[must_use]
    pub fn new(game: Game) -> PuzzleSet {
        PuzzleSet {
            game,
            commands: Vec::new(),
            puzzles: Vec::new(),
        }
    }

    /// Adds `puzzle` under the next free id, `GAME-NNNN`; returns the id.
    pub fn add(&mut self, mut puzzle: Puzzle) -> String {
        let prefix = format!("{}-", self.game.name());
        let next = self
            .puzzles
            .iter()
            .filter_map(|p| p.id.strip_prefix(&prefix)?.parse::<usize>().ok())
            .max()
            .unwrap_or(0)
            + 1;
        puzzle.id = format!("{prefix}{next:04}");
        let id = puzzle.id.clone();
        self.puzzles.push(puzzle);
        id
    }

    /// The set as its file holds it.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "# {} puzzles for quentin, each proved by its exact solver (docs/puzzles.md).\n\
             game {}\n",
            self.game.title(),
            self.game.name()
        );
        for c in &self.commands {
            out.push_str(&format!("command {c}\n"));
        }
        for p in &self.puzzles {
            out.push_str(&line_of(p));
            out.push('\n');
        }
        out
    }

    /// Reads a set from `text`, the contents of the file named `file` (for the messages).
    ///
    /// # Errors
    /// The first problem, with the file and the line.
    pub fn parse(text: &str, file: &str) -> Result<PuzzleSet, SetError> {
        let mut game = None;
        let mut commands = Vec::new();
        let mut puzzles: Vec<Puzzle> = Vec::new();
        let mut ids = HashSet::new();
        for (i, raw) in text.lines().enumerate() {
            let fail = |message: String| SetError {
                file: file.to_string(),
                line: i + 1,
                message,
            };
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            let rest = rest.trim();
            if line.contains(';') {
                let Some(g) = game else {
                    return Err(fail("a puzzle before the `game` header".into()));
                };
                let puzzle = parse_puzzle(line, g).map_err(fail)?;
                if !ids.insert(puzzle.id.clone()) {
                    return Err(fail(format!("the id {} comes twice", puzzle.id)));
                }
                puzzles.push(puzzle);
                continue;
            }
            if !puzzles.is_empty() {
                return Err(fail(format!(
                    "{word:?} is no puzzle: a puzzle's fields are separated by `;`"
                )));
            }
            match word {
                "game" if game.is_some() => {
                    return Err(fail("the `game` header comes twice".into()));
                }
                "game" => {
                    game = Some(Game::from_name(rest).ok_or_else(|| {
                        fail(format!(
                            "{rest:?} is no game: quentin, konobi, brique or quint"
                        ))
                    })?);
                }
                "command" if game.is_none() => {
                    return Err(fail("the `game` header comes first".into()));
                }
                "command" if rest.is_empty() => return Err(fail("an empty command".into())),
                "command" => commands.push(rest.to_string()),
                _ => return Err(fail(format!("{word:?} is no header: game or command"))),
            }
        }
        let game = game.ok_or_else(|| SetError {
            file: file.to_string(),
            line: text.lines().count().max(1),
            message: "no `game` header".into(),
        })?;
        Ok(PuzzleSet {
            game,
            commands,
            puzzles,
        })
    }
}

impl Puzzle {
    /// The puzzle as its line in a set's file (docs/puzzles.md): what a store keeps of it.
    #[must_use]
    pub fn to_line(&self) -> String {
        line_of(self)
    }

    /// A puzzle of `game` read from its line, as [`Puzzle::to_line`] writes it, every action
    /// checked legal where it stands.
    ///
    /// # Errors
    /// What is wrong with the line, in words.
    pub fn from_line(line: &str, game: Game) -> Result<Puzzle, String> {
        parse_puzzle(line.trim(), game)
    }
}

/// One puzzle as its line.
fn line_of(p: &Puzzle) -> String {
    let words = |actions: &[Action]| -> String {
        actions
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut fields = vec![p.id.clone(), format!("size {}", p.setup.size)];
    if p.setup.game == Game::Quint {
        fields.push(format!("pieces {}", p.setup.pieces));
    } else {
        fields.push(format!("pie {}", if p.setup.pie { "on" } else { "off" }));
    }
    fields.push(format!("goal {}", p.goal));
    if p.goal != Goal::Swap {
        fields.push(format!("depth {}", p.depth));
    }
    fields.push(format!("rating {}", p.rating));
    fields.push(format!("themes {}", p.themes.join(" ")));
    fields.push(format!("setup {}", words(&p.line)).trim_end().to_string());
    fields.push(format!("solution {}", words(&p.solution)));
    fields.join("; ")
}

/// A whole number of `field`, within `range`.
fn number<T: TryFrom<u64> + Copy + fmt::Display + PartialOrd>(
    field: &str,
    text: &str,
    range: std::ops::RangeInclusive<T>,
) -> Result<T, String> {
    let out_of_range = || {
        format!(
            "{field} {text:?} is out of range: {} to {}",
            range.start(),
            range.end()
        )
    };
    let n: u64 = text
        .parse()
        .map_err(|_| format!("{field} {text:?} is not a whole number"))?;
    let n = T::try_from(n).map_err(|_| out_of_range())?;
    if range.contains(&n) {
        Ok(n)
    } else {
        Err(out_of_range())
    }
}

/// Actions in record notation.
fn actions(field: &str, text: &str) -> Result<Vec<Action>, String> {
    text.split_whitespace()
        .map(|w| Action::parse(w).map_err(|e| format!("{field}: {w:?} is no action: {e}")))
        .collect()
}

/// One puzzle line of a set of `game`.
fn parse_puzzle(line: &str, game: Game) -> Result<Puzzle, String> {
    let mut parts = line.split(';').map(str::trim);
    let id = parts.next().unwrap_or_default();
    let digits = id
        .strip_prefix(game.name())
        .and_then(|r| r.strip_prefix('-'));
    if !digits.is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())) {
        return Err(format!(
            "{id:?} is no id of a {} puzzle, such as {}-0001",
            game.title(),
            game.name()
        ));
    }
    let mut fields: Vec<(&str, &str)> = Vec::new();
    for part in parts {
        let (name, value) = part.split_once(char::is_whitespace).unwrap_or((part, ""));
        const NAMES: [&str; 9] = [
            "size", "pie", "pieces", "goal", "depth", "rating", "themes", "setup", "solution",
        ];
        if !NAMES.contains(&name) {
            return Err(format!("{name:?} is no field: {}", NAMES.join(", ")));
        }
        if fields.iter().any(|(n, _)| *n == name) {
            return Err(format!("the field {name} comes twice"));
        }
        fields.push((name, value.trim()));
    }
    let get = |name: &str| fields.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
    let need = |name: &str| get(name).ok_or_else(|| format!("the field {name} is missing"));
    let mut setup = Setup::new(game);
    let size = number("size", need("size")?, 3..=26)?;
    setup.size = Setup::check_size(game, size as u64).map_err(|e| e.to_string())?;
    if game == Game::Quint {
        if get("pie").is_some() {
            return Err("Quint has no pie rule: no field pie".into());
        }
        let pieces = number("pieces", need("pieces")?, 0..=99)?;
        setup.pieces = Setup::check_pieces(game, pieces).map_err(|e| e.to_string())?;
    } else {
        if get("pieces").is_some() {
            return Err(format!(
                "{} has no pieces in hand: no field pieces",
                game.title()
            ));
        }
        setup.pie = match need("pie")? {
            "on" => true,
            "off" => false,
            other => return Err(format!("pie {other:?} is neither on nor off")),
        };
    }
    let goal_text = need("goal")?;
    let goal = Goal::from_name(goal_text)
        .ok_or_else(|| format!("goal {goal_text:?} is no goal: win, defend or swap"))?;
    let depth = match (goal, get("depth")) {
        (Goal::Swap, None) => 0,
        (Goal::Swap, Some(_)) => {
            return Err("a swap puzzle has no depth: it is proved to the end".into());
        }
        (_, _) => number("depth", need("depth")?, 1..=MAX_DEPTH)?,
    };
    let rating = number("rating", need("rating")?, RATINGS)?;
    let mut themes = Vec::new();
    for word in need("themes")?.split_whitespace() {
        let t = theme(word)
            .ok_or_else(|| format!("{word:?} is no theme (docs/puzzles.md lists them)"))?;
        if themes.contains(&t) {
            return Err(format!("the theme {t} comes twice"));
        }
        themes.push(t);
    }
    let line = actions("setup", need("setup")?)?;
    let solution = actions("solution", need("solution")?)?;
    if solution.is_empty() {
        return Err("the solution is empty".into());
    }
    let puzzle = Puzzle {
        id: id.to_string(),
        setup,
        line,
        solution,
        goal,
        depth,
        themes,
        rating,
    };
    // Every action must be legal where it stands.
    let mut pos = puzzle.position()?;
    if pos.is_over() {
        return Err("the game is over after the setup".into());
    }
    for (i, &a) in puzzle.solution.iter().enumerate() {
        pos.play(a).map_err(|why| {
            format!(
                "in the solution, {a} is not legal after {}: {why}",
                shown(&puzzle.solution[..i], "the setup")
            )
        })?;
    }
    Ok(puzzle)
}
