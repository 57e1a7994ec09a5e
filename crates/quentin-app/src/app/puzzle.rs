//! Puzzles (issue 49): the position of a proved puzzle, the player's side to move. Each move is
//! checked at once against the proved solution: the right one gets the solution's reply, played
//! by the program; a wrong one is played and refuted (the opponent's answer, from the solver);
//! `v` shows the solution (and gives up one being solved), `t` a hint (the area first, then the
//! move; a hinted puzzle counts as failed, as on lichess), `n` the next puzzle once this one is
//! over. The front end hears of the result and of the wish for a next puzzle through
//! [`Effect::Puzzle`](super::Effect::Puzzle), and tells the app the player's rating to show
//! ([`App::set_standing`]).

use crate::commands::Command;
use crate::game_line::GameLine;
use crate::rules::{Action, Color, Point, Position};
use crate::search::puzzles::answer::{self, Refuted};
use crate::search::puzzles::{Goal, Puzzle};

use super::text::join;
use super::{App, Effect, Look, Mode};

/// What the app tells its front end of the puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PuzzleNews {
    /// The first attempt at the puzzle ended: solved without a hint, or not.
    Attempted {
        /// The puzzle's id.
        id: String,
        /// Whether it was solved, with no hint taken.
        solved: bool,
    },
    /// The player asks for the next puzzle.
    Next,
    /// The course: a level solved, with its stars (its key `quentin/2/3`).
    Level {
        /// The level's key.
        key: String,
        /// Its stars, 1 to 3.
        stars: u8,
    },
    /// The course: the learner asks for the next level.
    NextLevel,
    /// The course's handoff: a game of this game against the computer at level 1.
    PlayComputer(crate::rules::Game),
    /// After a reviewed game against the computer: the person's own mistakes, to keep with
    /// the failed puzzles and take as exercises now.
    Mistakes(Vec<crate::mistakes::Mistake>),
    /// The player chose another way of taking the puzzles (`o`), or a theme.
    Choose(crate::puzzle_modes::Choice),
    /// The course: the learner chose a stage to play from its first level (`o`, a digit).
    Stage {
        /// The game of the course.
        game: crate::rules::Game,
        /// The stage, from 1.
        stage: usize,
    },
}

/// Where the player is in the puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PuzzleState {
    /// Finding the moves.
    Solving,
    /// Every move found (a hint taken still counts as failed for the rating).
    Solved,
    /// A wrong move played, or the solution asked for.
    Failed,
}

/// The player's rating and streak as the front end says, to show beside the puzzle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PuzzleStanding {
    /// The rating as shown, such as `1500?`.
    pub rating: String,
    /// The change the last attempt made, such as `+12`, once there was one.
    pub change: Option<String>,
    /// Puzzles solved in a row.
    pub streak: u32,
    /// The way the puzzles are taken, when not the plain rated one: `Streak 4 (best 9)`,
    /// `Storm 2:41, 6 solved, run 2 (best 14)` ([`crate::puzzle_modes::Way::line`]).
    pub way: Option<String>,
}

/// The puzzle on the board and what the player did with it.
#[derive(Clone, Debug)]
pub(super) struct PuzzleSeat {
    /// The puzzle.
    pub(super) puzzle: Puzzle,
    /// How many actions of the line lead to the puzzle's position.
    pub(super) start: usize,
    /// The side that solves it.
    pub(super) side: Color,
    /// Solving, solved or failed.
    pub(super) state: PuzzleState,
    /// Hints taken: 1 the area, 2 the move.
    pub(super) hints: u8,
    /// The player's rating, from the front end.
    pub(super) standing: Option<PuzzleStanding>,
    /// When the puzzle is one of the player's own mistakes: what judges it.
    pub(super) exercise: Option<exercise::Exercise>,
    /// Whether the list of the ways of taking the puzzles is open (`o`).
    pub(super) choosing: bool,
}

impl App {
    /// The puzzle's position, its side to move, ready to be solved.
    ///
    /// # Errors
    /// When the puzzle's setup does not replay (the shipped sets always do).
    pub fn puzzle(puzzle: Puzzle, look: Look) -> Result<App, String> {
        let start = puzzle.setup.start().map_err(|e| e.to_string())?;
        let line = GameLine::replay(start, &puzzle.line)
            .map_err(|_| format!("the setup of puzzle {} does not replay", puzzle.id))?;
        let position = line.position().clone();
        let Some(side) = position.to_move() else {
            return Err(format!("puzzle {} starts with the game over", puzzle.id));
        };
        let mut app = App::from_line(line, Mode::Play, look);
        app.puzzle = Some(Box::new(PuzzleSeat {
            start: puzzle.line.len(),
            puzzle,
            side,
            state: PuzzleState::Solving,
            hints: 0,
            standing: None,
            exercise: None,
            choosing: false,
        }));
        app.info("Find the move. t gives a hint, v the solution, ? the keys.");
        Ok(app)
    }

    /// The puzzle on the board, when this is one.
    #[must_use]
    pub fn puzzle_shown(&self) -> Option<&Puzzle> {
        self.puzzle.as_ref().map(|s| &s.puzzle)
    }

    /// Where the player is in the puzzle, when this is one.
    #[must_use]
    pub fn puzzle_state(&self) -> Option<PuzzleState> {
        self.puzzle.as_ref().map(|s| s.state)
    }

    /// What the puzzle asks, in words: `White to move: win in 2`.
    #[must_use]
    pub fn puzzle_goal(&self) -> Option<String> {
        self.puzzle.as_ref().map(|s| match &s.exercise {
            Some(e) => e.goal(s.side),
            None => goal_text(&s.puzzle, s.side),
        })
    }

    /// The area a first hint marks, its lower left and upper right corners, while the puzzle
    /// is being solved.
    #[must_use]
    pub fn puzzle_area(&self) -> Option<(Point, Point)> {
        let seat = self.puzzle.as_ref()?;
        if seat.state != PuzzleState::Solving || seat.hints == 0 {
            return None;
        }
        let key = *seat.puzzle.solution.get(self.current() - seat.start)?;
        Some(hint_area(self.position(), key_point(key)?))
    }

    /// The player's rating and streak, as the front end last said.
    #[must_use]
    pub fn standing(&self) -> Option<&PuzzleStanding> {
        self.puzzle.as_ref()?.standing.as_ref()
    }

    /// Tells the app the player's rating and streak, to show.
    pub fn set_standing(&mut self, standing: PuzzleStanding) {
        if let Some(seat) = &mut self.puzzle {
            seat.standing = Some(standing);
        }
    }

    /// The keys that mean something else in a puzzle: the hint, the solution, the next
    /// puzzle, no taking back while solving, no analysis.
    pub(super) fn puzzle_key(&mut self, command: Command) -> Option<Effect> {
        let seat = self.puzzle.as_ref()?;
        let solving = seat.state == PuzzleState::Solving;
        match command {
            Command::Hint => self.puzzle_hint(),
            Command::Review => self.show_solution(),
            Command::NewGame if solving => self.warn(
                "Solve the puzzle first, or press v for the solution (it then counts as failed).",
            ),
            Command::NewGame => self.emit(Effect::Puzzle(PuzzleNews::Next)),
            Command::Undo | Command::Redo if solving => {
                self.warn("No taking back in a puzzle: v shows the solution.");
            }
            Command::Undo if self.current() <= seat.start => {
                self.warn("This is the puzzle's position: r steps forward.");
            }
            Command::Undo => {
                let _ = self.undo();
            }
            Command::Redo => {
                let _ = self.redo();
            }
            // A game's Left and Home look a finished game over: a puzzle steps with u and r.
            Command::Left | Command::First if self.position().is_over() => {
                self.warn("u and r step through the moves, n gives the next puzzle.");
            }
            Command::Analysis | Command::NextMark | Command::PreviousMark => {
                self.warn("Not in a puzzle: t gives a hint, v the solution.");
            }
            Command::Puzzles => self.warn("These are the puzzles: n gives the next one."),
            Command::Why => self.show_threat(),
            Command::Ways => self.open_ways(),
            _ => return None,
        }
        Some(Effect::None)
    }

    /// The player's `action` in a puzzle: refused as in a game when illegal; else checked
    /// against the solution.
    pub(super) fn puzzle_act(&mut self, action: Action) -> Effect {
        let Some(seat) = self.puzzle.as_ref() else {
            return Effect::None;
        };
        if seat.state != PuzzleState::Solving {
            self.warn("The puzzle is over: n for the next one, v shows the solution.");
            return Effect::None;
        }
        if self.position().preview(action).is_err() {
            // The rules' refusal, in the game's words; nothing is played.
            let _ = self.play_action(action);
            return Effect::None;
        }
        if seat.exercise.is_some() {
            self.exercise_act(action);
            return Effect::None;
        }
        let step = self.current() - seat.start;
        let expected = seat.puzzle.solution.get(step).copied();
        let _ = self.play_action(action);
        if Some(action) == expected {
            self.puzzle_right();
        } else {
            self.puzzle_wrong(action, step);
        }
        Effect::None
    }

    /// A right move: the solution's reply is played, or the puzzle is solved.
    fn puzzle_right(&mut self) {
        let Some(seat) = self.puzzle.as_ref() else {
            return;
        };
        let (side, start) = (seat.side, seat.start);
        let solution = seat.puzzle.solution.clone();
        let mut replies = Vec::new();
        while self.current() - start < solution.len() && self.position().to_move() != Some(side) {
            let reply = solution[self.current() - start];
            if self.push(reply).is_err() {
                break;
            }
            replies.push(reply);
        }
        if self.current() - start >= solution.len() || self.position().is_over() {
            self.puzzle_over(true);
            return;
        }
        let message = self.message().map(|m| m.text.clone()).unwrap_or_default();
        let answer = format!(
            "{} answers {}.",
            side.opponent().capitalised(),
            join(&replies)
        );
        self.info(format!("Right: {message} {answer} Your move."));
    }

    /// A wrong move: the opponent's answer that refutes it is played, when the solver finds
    /// one, and the puzzle is failed.
    fn puzzle_wrong(&mut self, action: Action, step: usize) {
        let Some(seat) = self.puzzle.as_ref() else {
            return;
        };
        let (side, verb) = (seat.side, goal_verb(&seat.puzzle));
        let defence = seat.puzzle.goal == Goal::Defend;
        let refutation = refutation(self.position(), &seat.puzzle, side, step);
        let played = self.message().map(|m| m.text.clone()).unwrap_or_default();
        let mut text = format!("Wrong: {played}");
        match refutation {
            Some((reply, why)) if self.push(reply).is_ok() => {
                let opponent = side.opponent().capitalised();
                text.push_str(&format!(" {opponent} answers {reply}: {why}."));
            }
            _ => text.push_str(&format!(" {action} does not {verb}.")),
        }
        self.puzzle_over(false);
        text.push_str(if defence {
            " v shows the solution, w the threat played out, n the next puzzle."
        } else {
            " v shows the solution, n the next puzzle."
        });
        self.warn(text);
    }

    /// Ends the attempt: solved (without a hint) or failed, told to the front end.
    fn puzzle_over(&mut self, solved: bool) {
        let Some(seat) = self.puzzle.as_mut() else {
            return;
        };
        let first = seat.state == PuzzleState::Solving;
        let clean = solved && seat.hints == 0;
        seat.state = if solved {
            PuzzleState::Solved
        } else {
            PuzzleState::Failed
        };
        let id = seat.puzzle.id.clone();
        let hinted = seat.hints > 0;
        let defence = seat.puzzle.goal == Goal::Defend;
        if first {
            self.emit(Effect::Puzzle(PuzzleNews::Attempted { id, solved: clean }));
        }
        if solved {
            let how = if hinted {
                "Solved, with a hint (it counts as failed)."
            } else {
                "Solved!"
            };
            let threat = if defence {
                " w plays out the threat you stopped,"
            } else {
                ""
            };
            self.info(format!("{how}{threat} n gives the next puzzle."));
        }
    }

    /// `t`: the area of the next move first, then the move itself (the cursor goes there).
    fn puzzle_hint(&mut self) {
        let Some(seat) = self.puzzle.as_mut() else {
            return;
        };
        if seat.state != PuzzleState::Solving {
            self.warn("The puzzle is over: v shows the solution.");
            return;
        }
        let step = self.line.shown() - seat.start;
        let Some(&key) = seat.puzzle.solution.get(step) else {
            return;
        };
        seat.hints = (seat.hints + 1).min(2);
        let hints = seat.hints;
        let text = match (hints, key_point(key)) {
            (_, None) => format!("Hint: the answer is {key} (a hint counts as failed)."),
            (1, Some(p)) => {
                let (low, high) = hint_area(self.position(), p);
                format!(
                    "Hint: the move is in {low}-{high} (t again shows it; a hint counts as failed)."
                )
            }
            (_, Some(p)) => {
                self.screen.cursor = p;
                format!("Hint: play {key} (under the cursor).")
            }
        };
        self.info(text);
    }

    /// `v`: the solution from the puzzle's position, played on the board (u and r step through
    /// it); the puzzle counts as failed when it was still being solved.
    fn show_solution(&mut self) {
        let Some(seat) = self.puzzle.as_ref() else {
            return;
        };
        let solving = seat.state == PuzzleState::Solving;
        let (start, solution) = (seat.start, seat.puzzle.solution.clone());
        if solving {
            self.puzzle_over(false);
        }
        self.line.go_to(start);
        self.line.cut();
        for &a in &solution {
            if self.push(a).is_err() {
                break;
            }
        }
        self.screen.follow_line();
        self.info(format!(
            "Solution: {}. u and r step through it, n gives the next puzzle.",
            join(&solution)
        ));
    }
}

/// `White to move: win in 2`, `Black to move: defend: White wins in 1 unless you stop it`,
/// `White to move: swap or not`.
#[must_use]
pub fn goal_text(puzzle: &Puzzle, side: Color) -> String {
    let what = match puzzle.goal {
        Goal::Win => format!("win in {}", puzzle.depth),
        Goal::Defend => format!(
            "defend: {} wins in {} unless you stop it",
            side.opponent().capitalised(),
            puzzle.depth
        ),
        Goal::Swap => "swap or not (s swaps, or place a stone)".to_string(),
    };
    format!("{} to move: {what}", side.capitalised())
}

/// What a wrong move failed to do.
fn goal_verb(puzzle: &Puzzle) -> String {
    match puzzle.goal {
        Goal::Win => format!("win in {}", puzzle.depth),
        Goal::Defend => "stop the threat".to_string(),
        Goal::Swap => "keep the win".to_string(),
    }
}

/// The point a hint points at: a placement's, a step's destination.
fn key_point(action: Action) -> Option<Point> {
    match action {
        Action::Place(p) => Some(p),
        Action::Step { to, .. } => Some(to),
        Action::Swap | Action::Pass => None,
    }
}

/// The fewest points where the side to move may play that a hint's area holds (when the
/// board has that many): an area that still leaves a choice.
pub const HINT_CHOICES: usize = 4;

/// The area of a hint around `p`, the point of the next move in `position`: a square of about
/// a third of the board, within it, grown until it holds at least [`HINT_CHOICES`] points the
/// side to move may play (a placement's point, a step's destination), from its lower left
/// corner to its upper right one.
#[must_use]
pub fn hint_area(position: &Position, p: Point) -> (Point, Point) {
    let size = position.size();
    let mut points: Vec<Point> = position
        .legal_actions()
        .into_iter()
        .filter_map(key_point)
        .collect();
    points.sort();
    points.dedup();
    let mut side = size.div_ceil(3).max(2).min(size);
    loop {
        let (low, high) = square(p, size, side);
        let inside = points
            .iter()
            .filter(|q| (low.col()..=high.col()).contains(&q.col()))
            .filter(|q| (low.row()..=high.row()).contains(&q.row()))
            .count();
        if inside >= HINT_CHOICES || side >= size {
            return (low, high);
        }
        side += 1;
    }
}

/// The square of `side` points around `p`, within a board of `size`.
fn square(p: Point, size: usize, side: usize) -> (Point, Point) {
    let low = |v: usize| v.saturating_sub(side / 2).min(size - side.min(size));
    let (col, row) = (low(p.col()), low(p.row()));
    let high = |v: usize| (v + side - 1).min(size - 1);
    (Point::new(col, row), Point::new(high(col), high(row)))
}

/// The opponent's answer to a wrong move of `side` at `step` of the solution, `pos` the
/// position after it, and why it refutes, in words: the search crate's refutation, which the
/// server's puzzles give too. `None` when the game is over, the solver runs out of its budget
/// or finds none.
fn refutation(
    pos: &Position,
    puzzle: &Puzzle,
    side: Color,
    step: usize,
) -> Option<(Action, String)> {
    if pos.is_over() || pos.to_move() == Some(side) {
        return None;
    }
    let refuted = answer::refutation(puzzle, step / 2, pos, answer::REFUTATION_NODES)?;
    let words = match refuted.why {
        Refuted::Wins(1) => "it wins at once".to_string(),
        Refuted::Wins(moves) => format!("it wins in {moves}"),
        Refuted::NoLongerWins(0) | Refuted::Ends => {
            format!("{} can no longer win", side.capitalised())
        }
        Refuted::NoLongerWins(left) => format!("{} no longer wins in {left}", side.capitalised()),
    };
    Some((refuted.reply, words))
}

mod exercise;
mod threat;
mod ways;

#[cfg(test)]
pub(crate) mod tests;
