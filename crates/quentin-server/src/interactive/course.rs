//! The course over SSH (issue 60): `l` in the lobby opens the terminal's course (the app
//! crate's shipped levels and its course app, [`App::course_level`]), Quentin's first; each
//! level judged at once as in `quentin learn`, `n` the next level, at the end of a game's
//! course the handoff (`P` the puzzles, `n` the next game's course), `q` back to the lobby.
//! The player's progress is the store's (`crate::store::course`): read when the course opens,
//! which starts at the first level not solved and says what is done; each level solved
//! committed at once, its best stars kept. `o` lists the stages of a game's course (`g` the
//! next game's), and a digit replays that stage from its first level.

use std::collections::HashMap;
use std::convert::Infallible;

use quentin_app::app::{App, Effect, LevelState, Look, PuzzleNews};
use quentin_app::course::{self, Course};

use super::driver::{Glue, drive};
use super::{Next, Screen, notice};
use crate::channel::Inbox;
use crate::context::Context;
use crate::ids::PlayerId;
use crate::store::course::Solved;

/// What the learner did with one level.
enum Done {
    /// The next level.
    Next,
    /// The next game's course, after the handoff.
    NextCourse,
    /// The puzzles, from the handoff.
    Puzzles,
    /// A stage chosen (`o`, a digit): its first level, solved or not.
    Stage(quentin_rules::Game, usize),
    /// Back to the lobby.
    Lobby,
    /// The client has gone.
    Quit,
}

/// The course, level after level, until the learner goes back to the lobby: from the first
/// level `me` has not solved, their stars read from the store.
pub(super) async fn course_screen(
    ctx: &Context,
    me: PlayerId,
    screen: &mut Screen,
    input: &mut Inbox,
) -> Next {
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
    let mut stars: HashMap<String, u8> = match ctx.hub.course_stars(me).await {
        Ok(stars) => stars.into_iter().collect(),
        Err(refusal) => {
            notice(
                screen,
                input,
                &format!("Your course progress cannot be read: {refusal}. Press any key."),
            )
            .await;
            return Next::Lobby;
        }
    };
    let look = Look {
        ascii: false,
        color: screen.color,
    };
    let mut at = course::first_unsolved(&courses, |key| stars.contains_key(key));
    let mut welcome = progress(&courses, &stars);
    loop {
        let course = &courses[at.0];
        let level = course.levels[at.1].clone();
        let place = (at.1 + 1, course.levels.len());
        let Ok(mut app) = App::course_level(level, place, course.stages(), look) else {
            return Next::Lobby;
        };
        if let Some(text) = welcome.take() {
            app.info(text);
        }
        let mut glue = Learning {
            ctx,
            me,
            app,
            course,
            last: at.1 + 1 == course.levels.len(),
            stars: &mut stars,
        };
        match drive(&mut glue, screen, input).await {
            Done::Next => at.1 += 1,
            Done::NextCourse => at = ((at.0 + 1) % courses.len(), 0),
            Done::Stage(game, stage) => {
                if let Some(start) = course::stage_start(&courses, game, stage) {
                    at = start;
                }
            }
            Done::Puzzles => return Next::Puzzles,
            Done::Lobby => return Next::Lobby,
            Done::Quit => return Next::Quit,
        }
    }
}

/// What the learner has done, when anything: each game's course begun, its stages done and
/// its stars (`Your progress: Quentin stage 1 done, 9 stars of 45.`), then how to go on.
fn progress(courses: &[Course], stars: &HashMap<String, u8>) -> Option<String> {
    let games: Vec<String> = courses
        .iter()
        .filter_map(|course| {
            let earned: usize = course
                .levels
                .iter()
                .filter_map(|l| stars.get(&l.key()))
                .map(|&s| usize::from(s))
                .sum();
            if earned == 0 {
                return None;
            }
            let done: Vec<String> = (1..=course.stages())
                .filter(|&s| course.stage(s).all(|l| stars.contains_key(&l.key())))
                .map(|s| s.to_string())
                .collect();
            let stages = match done.len() {
                0 => "no stage done yet".to_string(),
                1 => format!("stage {} done", done[0]),
                _ => format!("stages {} done", done.join(", ")),
            };
            let all = 3 * course.levels.len();
            Some(format!(
                "{} {stages}, {earned} stars of {all}",
                course.game.title()
            ))
        })
        .collect();
    (!games.is_empty()).then(|| {
        format!(
            "Your progress: {}. The course goes on from the first level not solved.",
            games.join("; ")
        )
    })
}

/// One level's screen on the server.
struct Learning<'a> {
    ctx: &'a Context,
    me: PlayerId,
    app: App,
    course: &'a Course,
    /// Whether it is the last level of its game's course.
    last: bool,
    /// The best stars of each level solved, by its key: the store's, and this visit's.
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
                    self.stars.insert(key.clone(), best);
                    let solved = Solved {
                        player: self.me,
                        level: key,
                        stars,
                        at: self.ctx.clock.now(),
                    };
                    if let Err(refusal) = self.ctx.hub.course_solved(solved).await {
                        self.app.warn(format!(
                            "Solved, but your progress could not be kept: {refusal}."
                        ));
                    }
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
                Effect::Puzzle(PuzzleNews::Stage { game, stage }) => {
                    return Some(Done::Stage(game, stage));
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
