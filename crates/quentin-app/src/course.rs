//! The course (issue 60, `quentin learn`): for each game, stages of levels, each one idea on
//! the smallest board that shows it, a one-line goal and a par. A level is data: a file a game
//! (`puzzles/learn/GAME.txt`, shipped with the program), read here, each level's answers
//! computed from the rules and checked against those the file lists, so that a level edited
//! into a wrong or illegal line is refused naming its line.
//!
//! The format, a line each (`#` starts a comment):
//!
//! ```text
//! game quentin
//! stage Placing and winning          a new stage, its title
//! level First stone                  a new level of the stage, its title
//! say One sentence: the idea.        shown above the goal
//! goal Join top and bottom           the one-line goal
//! size 3                             the board (Quint: 8)
//! pie off                            on or off (Quint: off)
//! pieces 15                          Quint's pieces in hand
//! setup b3 a1 b1 c1                  the actions from the empty board
//! kind win                           how the move is judged (see [`Kind`])
//! points b2 c3                       the points a `legal` level names
//! answers b2                         exactly the right moves
//! par 1                              the moves of a perfect solve
//! ```

mod answers;
mod parse;

use crate::rules::{Action, Game, Point, Position, Setup};

pub use answers::{
    blocks, computed, defence, forces_a_pass, reply, winning, wins_at_once, wins_in_2,
};
pub use parse::{CourseError, parse};

/// Each shipped course file: its path in the repository and its text, in the order of
/// [`Game::ALL`], embedded here so that the terminal (`quentin learn`) and the server's
/// sessions (`l` in the lobby) follow the same course.
pub const FILES: [(&str, &str); 4] = [
    (
        "puzzles/learn/quentin.txt",
        include_str!("../../../puzzles/learn/quentin.txt"),
    ),
    (
        "puzzles/learn/konobi.txt",
        include_str!("../../../puzzles/learn/konobi.txt"),
    ),
    (
        "puzzles/learn/brique.txt",
        include_str!("../../../puzzles/learn/brique.txt"),
    ),
    (
        "puzzles/learn/quint.txt",
        include_str!("../../../puzzles/learn/quint.txt"),
    ),
];

/// The shipped courses, one a game, in the order of [`Game::ALL`].
///
/// # Errors
/// A file that does not read (a test makes sure every shipped one does).
pub fn shipped() -> Result<Vec<Course>, CourseError> {
    FILES.iter().map(|(path, text)| parse(text, path)).collect()
}

/// How a level judges the learner's move; each kind but [`Kind::Move`] computes its answers
/// from the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Exactly the moves that win at once.
    Win,
    /// Exactly the moves after which the learner wins at once whatever the opponent answers
    /// (a win in 2: a double threat); the app then plays the opponent's answer and the
    /// learner's second move must win at once.
    Win2,
    /// Exactly the moves after which the opponent cannot win at once.
    Block,
    /// Exactly the legal points among those the level names.
    Legal,
    /// Exactly the moves that fill at least one point (Brique: square) with the mover's
    /// colour (Quentin's territories, Brique's escorts).
    Fill,
    /// Exactly the moves that take at least one enemy piece (Quint's captures).
    Take,
    /// Exactly the moves that end the game in a draw at once (Quint's third repetition).
    Draw,
    /// Exactly the moves after which the opponent has no legal placement and must pass, the
    /// game going on (Quentin's forced pass).
    Pass,
    /// The answers the file lists, each a legal action (the pie rule's swap, a forced pass).
    Move,
}

impl Kind {
    /// The kind of a file's `kind` line.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Kind> {
        Some(match name {
            "win" => Kind::Win,
            "win2" => Kind::Win2,
            "block" => Kind::Block,
            "legal" => Kind::Legal,
            "fill" => Kind::Fill,
            "take" => Kind::Take,
            "draw" => Kind::Draw,
            "pass" => Kind::Pass,
            "move" => Kind::Move,
            _ => return None,
        })
    }

    /// Its name in the files and in `quentin learn export`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Kind::Win => "win",
            Kind::Win2 => "win2",
            Kind::Block => "block",
            Kind::Legal => "legal",
            Kind::Fill => "fill",
            Kind::Take => "take",
            Kind::Draw => "draw",
            Kind::Pass => "pass",
            Kind::Move => "move",
        }
    }
}

/// One level: a position, a goal, and the moves that reach it.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    /// The game.
    pub game: Game,
    /// Its stage, from 1.
    pub stage: usize,
    /// The stage's title.
    pub stage_title: String,
    /// Its number in the stage, from 1.
    pub level: usize,
    /// Its title.
    pub title: String,
    /// The idea in one sentence, when the level says one.
    pub say: Option<String>,
    /// The goal in one line.
    pub goal: String,
    /// The game's options.
    pub setup: Setup,
    /// The actions from the empty board to the level's position.
    pub actions: Vec<Action>,
    /// How the move is judged.
    pub kind: Kind,
    /// The points a `legal` level names.
    pub points: Vec<Point>,
    /// Exactly the right moves.
    pub answers: Vec<Action>,
    /// The moves of a perfect solve.
    pub par: u32,
    /// The line of the file where the level begins.
    pub line: usize,
}

impl Level {
    /// Its key in the progress file: `quentin/2/3`.
    #[must_use]
    pub fn key(&self) -> String {
        format!("{}/{}/{}", self.game.name(), self.stage, self.level)
    }

    /// The level's position.
    ///
    /// # Errors
    /// When its setup does not replay (a parsed level always does).
    pub fn position(&self) -> Result<Position, String> {
        let mut position = self.setup.start().map_err(|e| e.to_string())?;
        for &a in &self.actions {
            position
                .play(a)
                .map_err(|e| format!("the setup's {a} is illegal: {e}"))?;
        }
        Ok(position)
    }
}

/// The first level not solved (`solved` says which are, by key), of the first course with one,
/// as indices into `courses` and its levels; the very first when every level is. The terminal
/// and the server's sessions both open the course there.
#[must_use]
pub fn first_unsolved(courses: &[Course], solved: impl Fn(&str) -> bool) -> (usize, usize) {
    courses
        .iter()
        .enumerate()
        .find_map(|(c, course)| {
            let l = course.levels.iter().position(|l| !solved(&l.key()))?;
            Some((c, l))
        })
        .unwrap_or((0, 0))
}

/// The first level of `stage` of `game`'s course, as indices into `courses` and its levels;
/// `None` when `courses` has no such stage. A stage chosen on the screen opens there.
#[must_use]
pub fn stage_start(courses: &[Course], game: Game, stage: usize) -> Option<(usize, usize)> {
    let c = courses.iter().position(|course| course.game == game)?;
    let l = courses[c].levels.iter().position(|l| l.stage == stage)?;
    Some((c, l))
}

/// Stars for a level solved in `moves` moves against its `par`: 3 at par, 2 one over, else 1.
#[must_use]
pub fn stars(moves: u32, par: u32) -> u8 {
    if moves <= par {
        3
    } else if moves <= par + 1 {
        2
    } else {
        1
    }
}

/// One game's course: its levels in order, stage by stage.
#[derive(Clone, Debug, PartialEq)]
pub struct Course {
    /// The game.
    pub game: Game,
    /// The levels.
    pub levels: Vec<Level>,
}

impl Course {
    /// How many stages.
    #[must_use]
    pub fn stages(&self) -> usize {
        self.levels.last().map_or(0, |l| l.stage)
    }

    /// The levels of `stage`.
    pub fn stage(&self, stage: usize) -> impl Iterator<Item = &Level> {
        self.levels.iter().filter(move |l| l.stage == stage)
    }
}
