//! The course over SSH (issue 60): `l` in the lobby opens the terminal's course (the app
//! crate's shipped levels and its course app, [`App::course_level`]), Quentin's first; each
//! level judged at once as in `quentin learn`, `n` the next level, at the end of a game's
//! course the handoff (`P` the puzzles, `n` the next game's course), `q` back to the lobby.
//! The stars are kept for this visit only: progress per player in the stores is not made yet
//! (docs/learn.md, "Not done yet").

use std::collections::HashMap;
use std::convert::Infallible;

use quentin_app::app::{App, Effect, LevelState, Look, PuzzleNews};
use quentin_app::course::{self, Course};

use super::driver::{Glue, drive};
use super::{Next, Screen, notice};
use crate::channel::Inbox;

/// What the learner did with one level.
enum Done {
    /// The next level.
    Next,
    /// The next game's course, after the handoff.
    NextCourse,
    /// The puzzles, from the handoff.
    Puzzles,
    /// Back to the lobby.
    Lobby,
    /// The client has gone.
    Quit,
}

/// The course, level after level, until the learner goes back to the lobby.
pub(super) async fn course_screen(screen: &mut Screen, input: &mut Inbox) -> Next {
    let courses = match course::shipped() {
        Ok(courses) if !courses.is_empty() => courses,
        Ok(_) => return Next::Lobby,
        Err(e) => {
            notice(
                screen,
                input,
                &format!("The course cannot be read: {e}. Press any key."),
            )
            .await;
            return Next::Lobby;
        }
    };
    let look = Look {
        ascii: false,
        color: screen.color,
    };
    let mut stars: HashMap<String, u8> = HashMap::new();
    let mut at = (0, 0);
    loop {
        let course = &courses[at.0];
        let level = course.levels[at.1].clone();
        let place = (at.1 + 1, course.levels.len());
        let Ok(app) = App::course_level(level, place, course.stages(), look) else {
            return Next::Lobby;
        };
        let mut glue = Learning {
            app,
            course,
            last: at.1 + 1 == course.levels.len(),
            stars: &mut stars,
        };
        match drive(&mut glue, screen, input).await {
            Done::Next => at.1 += 1,
            Done::NextCourse => at = ((at.0 + 1) % courses.len(), 0),
            Done::Puzzles => return Next::Puzzles,
            Done::Lobby => return Next::Lobby,
            Done::Quit => return Next::Quit,
        }
    }
}

/// One level's screen on the server.
struct Learning<'a> {
    app: App,
    course: &'a Course,
    /// Whether it is the last level of its game's course.
    last: bool,
    /// The best stars of each level solved on this visit, by its key.
    stars: &'a mut HashMap<String, u8>,
}

impl Learning<'_> {
    /// The handoff at the end of a game's course: the stars of this visit, what comes next.
    fn handoff(&mut self) {
        let earned: usize = self
            .course
            .levels
            .iter()
            .filter_map(|l| self.stars.get(&l.key()))
            .map(|&s| usize::from(s))
            .sum();
        let all = 3 * self.course.levels.len();
        self.app.course_handoff(format!(
            "The course of {} is done: {earned} stars of {all}. Now play: P the puzzles, n the \
             next game's course, q back to the lobby (c there challenges a player).",
            self.course.game.title()
        ));
    }
}

impl Glue for Learning<'_> {
    type Screen = App;
    type Done = Done;

    fn screen(&mut self) -> &mut App {
        &mut self.app
    }

    fn gone(&self) -> Done {
        Done::Quit
    }

    async fn act(&mut self, effects: Vec<Effect>) -> Option<Done> {
        for effect in effects {
            match effect {
                Effect::Quit => return Some(Done::Lobby),
                Effect::Puzzles(_) => return Some(Done::Puzzles),
                Effect::Puzzle(PuzzleNews::Level { key, stars }) => {
                    let best = self.stars.get(&key).copied().unwrap_or(0).max(stars);
                    self.stars.insert(key, best);
                }
                Effect::Puzzle(PuzzleNews::NextLevel) => {
                    if self.app.level_state() == Some(LevelState::Handoff) {
                        return Some(Done::NextCourse);
                    }
                    if !self.last {
                        return Some(Done::Next);
                    }
                    self.handoff();
                }
                Effect::Puzzle(PuzzleNews::PlayComputer(_)) => self
                    .app
                    .warn("No computer plays here: q goes back to the lobby, where c challenges a player."),
                _ => {}
            }
        }
        None
    }

    fn left(&mut self, never: Infallible) -> Done {
        match never {}
    }
}
