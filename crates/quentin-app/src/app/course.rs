//! The course (issue 60, `quentin learn`): a level's position, the learner's side to move. A
//! move is judged at once: a right one ends the level (stars by the moves it took against the
//! par); an illegal one is refused at the point with the rules' reason and costs nothing; a
//! legal wrong one is played and answered on the board by the reply that shows why (the
//! opponent's win, or its block), and the learner's next move starts the level over. The front
//! end hears of a level done, of the wish for the next one and of the handoff's choices through
//! [`Effect::Puzzle`](super::Effect::Puzzle) ([`PuzzleNews::Level`] and the others), which the
//! server's sessions ignore.

use crate::commands::Command;
use crate::course::{self, Kind, Level};
use crate::game_line::GameLine;
use crate::rules::{Action, Color, Point};

mod stages;

use super::puzzle::PuzzleNews;
use super::text::join;
use super::{App, Effect, Look, Mode};

/// Where the learner is in the level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelState {
    /// Finding the move.
    Solving,
    /// A wrong move answered on the board: the next move starts the level over.
    Wrong,
    /// Solved, with these stars.
    Done(u8),
    /// The game's course is over: the handoff (puzzles, a game against the computer).
    Handoff,
}

/// The level on the board and what the learner did with it.
#[derive(Clone, Debug)]
pub(super) struct CourseSeat {
    /// The level.
    pub(super) level: Level,
    /// Its place: the level's number in the game's course and how many there are.
    pub(super) place: (usize, usize),
    /// The stages of the game's course.
    pub(super) stages: usize,
    /// The learner's side.
    pub(super) side: Color,
    /// Legal moves tried, the right one included.
    pub(super) moves: u32,
    /// The learner's moves of the solution already found: 1 once a `win2` level's first
    /// move is played and answered, when the next must win at once.
    pub(super) found: u32,
    /// Solving, wrong, done.
    pub(super) state: LevelState,
    /// The game whose stages the panel lists (`o`), while the list is open.
    pub(super) listing: Option<crate::rules::Game>,
}

impl App {
    /// The level's position, the learner's side to move; `place` its number in the game's
    /// course and their count, `stages` the course's stages.
    ///
    /// # Errors
    /// When the level's setup does not replay (a parsed level always does).
    pub fn course_level(
        level: Level,
        place: (usize, usize),
        stages: usize,
        look: Look,
    ) -> Result<App, String> {
        let start = level.setup.start().map_err(|e| e.to_string())?;
        let line = GameLine::replay(start, &level.actions)
            .map_err(|_| format!("the setup of level {} does not replay", level.key()))?;
        let Some(side) = line.position().to_move() else {
            return Err(format!("level {} starts with the game over", level.key()));
        };
        let mut app = App::from_line(line, Mode::Play, look);
        if let Some(&p) = level.points.first() {
            app.screen.cursor = p;
        }
        app.course = Some(Box::new(CourseSeat {
            level,
            place,
            stages,
            side,
            moves: 0,
            found: 0,
            state: LevelState::Solving,
            listing: None,
        }));
        app.info(
            "Your move: the cursor and Enter, or : and a point's name. o lists the stages (a \
             digit plays one), ? the keys.",
        );
        Ok(app)
    }

    /// The level on the board, with its place in the course and the course's stages.
    #[must_use]
    pub fn course_shown(&self) -> Option<(&Level, (usize, usize), usize)> {
        self.course.as_ref().map(|s| (&s.level, s.place, s.stages))
    }

    /// Where the learner is in the level.
    #[must_use]
    pub fn level_state(&self) -> Option<LevelState> {
        self.course.as_ref().map(|s| s.state)
    }

    /// The points a `legal` level names, to mark on the board while it is being solved.
    #[must_use]
    pub fn level_points(&self) -> &[Point] {
        match &self.course {
            Some(s) if s.state == LevelState::Solving => &s.level.points,
            _ => &[],
        }
    }

    /// Ends the game's course on this board: the handoff, `text` saying what comes next.
    pub fn course_handoff(&mut self, text: impl Into<String>) {
        if let Some(seat) = &mut self.course {
            seat.state = LevelState::Handoff;
        }
        self.info(text);
    }

    /// The keys that mean something else in the course: `n` the next level once this one is
    /// solved, `p` a game against the computer and `P` the puzzles at the handoff, no taking
    /// back, no hint, no analysis.
    pub(super) fn course_key(&mut self, command: Command) -> Option<Effect> {
        let seat = self.course.as_ref()?;
        let state = seat.state;
        let game = seat.level.game;
        match (command, state) {
            (Command::NewGame | Command::Play | Command::Select, LevelState::Done(_)) => {
                self.emit(Effect::Puzzle(PuzzleNews::NextLevel));
            }
            (Command::NewGame, LevelState::Handoff) => {
                self.emit(Effect::Puzzle(PuzzleNews::NextLevel));
            }
            (Command::Play | Command::Select, LevelState::Handoff) => self
                .warn("The course of this game is done: p plays a game, P the puzzles, n goes on."),
            (Command::PlayOn, LevelState::Handoff) => {
                self.emit(Effect::Puzzle(PuzzleNews::PlayComputer(game)));
            }
            (Command::Puzzles, LevelState::Handoff) => self.emit(Effect::Puzzles(game)),
            (Command::NewGame, _) => self.warn("Find the move first: n then goes on."),
            (Command::Undo | Command::Redo, _) => {
                self.warn(
                    "No taking back in the course: a wrong move is answered, then try again.",
                );
            }
            (Command::Ways, _) => self.open_stages(game),
            (Command::Hint | Command::Analysis | Command::Review, _) => {
                self.warn("Not in the course: the goal says what to find.");
            }
            (Command::Puzzles | Command::PlayOn, _) => {
                self.warn("Finish the course of this game first; q leaves it, kept as it is.");
            }
            _ => return None,
        }
        Some(Effect::None)
    }

    /// The learner's `action`: refused as in a game when illegal; else judged at once.
    pub(super) fn course_act(&mut self, action: Action) -> Effect {
        let Some(seat) = self.course.as_ref() else {
            return Effect::None;
        };
        match seat.state {
            LevelState::Done(_) | LevelState::Handoff => {
                self.warn("This level is done: n or Enter goes on.");
                return Effect::None;
            }
            LevelState::Wrong => self.restart_level(),
            LevelState::Solving => {}
        }
        let Some(seat) = self.course.as_ref() else {
            return Effect::None;
        };
        if self.position().preview(action).is_err() {
            // The rules' refusal, in the game's words; nothing is played, nothing counted.
            let _ = self.play_action(action);
            return Effect::None;
        }
        // A `win2` level's second move is judged as a `win` level's.
        let second = seat.found > 0;
        let kind = if second { Kind::Win } else { seat.level.kind };
        let points = seat.level.points.clone();
        if kind == Kind::Legal && !action.point().is_some_and(|p| points.contains(&p)) {
            let named: Vec<Action> = points.iter().map(|&p| Action::Place(p)).collect();
            self.warn(format!(
                "The level asks about the marked points: {}.",
                join(&named)
            ));
            return Effect::None;
        }
        let right = if second {
            course::wins_at_once(self.position(), action)
        } else {
            seat.level.answers.contains(&action)
        };
        let par = seat.level.par;
        let _ = self.play_action(action);
        let Some(seat) = self.course.as_mut() else {
            return Effect::None;
        };
        seat.moves += 1;
        if right && !second && seat.level.kind == Kind::Win2 {
            seat.found = 1;
            self.course_answer();
        } else if right {
            let stars = course::stars(seat.moves, par);
            seat.state = LevelState::Done(stars);
            let key = seat.level.key();
            let played = self.message().map(|m| m.text.clone()).unwrap_or_default();
            self.info(format!(
                "Right! {played} {} n or Enter goes on.",
                "*".repeat(usize::from(stars))
            ));
            self.emit(Effect::Puzzle(PuzzleNews::Level { key, stars }));
        } else {
            seat.state = LevelState::Wrong;
            self.course_wrong(action, kind);
        }
        Effect::None
    }

    /// A `win2` level's first move found: the opponent's best answer, played, and the
    /// learner asked for the win.
    fn course_answer(&mut self) {
        let Some(seat) = self.course.as_ref() else {
            return;
        };
        let side = seat.side;
        let played = self.message().map(|m| m.text.clone()).unwrap_or_default();
        let answer = if self.position().to_move() == Some(side.opponent()) {
            course::defence(self.position())
        } else {
            None
        };
        let answered = match answer {
            Some(answer) if self.push(answer).is_ok() => {
                format!(" {} answers {answer}.", side.opponent().capitalised())
            }
            _ => String::new(),
        };
        self.info(format!(
            "Right! {played}{answered} Now win at once: it needs one move more."
        ));
    }

    /// Back to the level's position, after a wrong move.
    fn restart_level(&mut self) {
        let Some(seat) = self.course.as_mut() else {
            return;
        };
        seat.state = LevelState::Solving;
        seat.found = 0;
        let start = seat.level.actions.len();
        self.line.go_to(start);
        self.line.cut();
        self.screen.follow_line();
    }

    /// A legal wrong move, played: the reply that shows why, in words and on the board.
    fn course_wrong(&mut self, action: Action, kind: Kind) {
        let Some(seat) = self.course.as_ref() else {
            return;
        };
        let side = seat.side;
        let played = self.message().map(|m| m.text.clone()).unwrap_or_default();
        let mut text = format!("Not that: {played}");
        let opponent = side.opponent().capitalised();
        match course::reply(self.position(), kind) {
            Some((reply, true)) if self.push(reply).is_ok() => {
                text.push_str(&format!(" {opponent} answers {reply} and wins."));
            }
            Some((reply, false)) if self.push(reply).is_ok() => {
                text.push_str(&format!(
                    " {opponent} answers {reply}: now {} has no win at once.",
                    side.capitalised()
                ));
            }
            _ => text.push_str(&format!(" {}", missed(action, kind))),
        }
        text.push_str(" Your next move starts the level again.");
        self.warn(text);
    }
}

/// What a wrong `action` failed to do, by the level's kind.
fn missed(action: Action, kind: Kind) -> String {
    match kind {
        Kind::Win => format!("{action} does not win at once."),
        Kind::Win2 => format!("{action} leaves your opponent a defence."),
        Kind::Block => format!("{action} does not stop the win."),
        Kind::Legal => format!("{action} is not the point asked for."),
        Kind::Fill => format!("{action} fills nothing with your colour."),
        Kind::Take => format!("{action} takes nothing."),
        Kind::Draw => format!("{action} does not bring the position back a third time."),
        Kind::Pass => format!("{action} leaves a legal point to your opponent."),
        Kind::Move => format!("{action} is not the move the level asks for."),
    }
}
