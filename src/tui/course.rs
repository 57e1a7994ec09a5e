//! The course's front end (`quentin learn`): the courses of the games asked for, the learner's
//! stars and their file, and what the loop does with the app's course news: a level solved is
//! saved at once; the next level follows; after a game's last level, the handoff (its puzzles,
//! or a game against the computer at level 1).

use std::path::PathBuf;
use std::time::SystemTime;

use anyhow::{Result, anyhow};

use crate::learn::{self, Stars};
use crate::rules::{Game, Setup};
use crate::save::RecordFile;
use crate::search::Level;
use quentin_app::course::Course;

use super::Session;
use super::app::{App, Look, Versus};

/// The course being followed and the learner's stars.
pub(super) struct CourseRun {
    /// The courses to follow, in order (one game's with `--game`).
    courses: Vec<Course>,
    /// The course and the level shown: indices into `courses` and its levels.
    at: (usize, usize),
    /// The stars of each level solved.
    stars: Stars,
    /// Where they are kept.
    path: PathBuf,
    /// How the board is drawn.
    look: Look,
}

/// Seconds since 1970 now.
fn now() -> u64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl CourseRun {
    /// A run over `courses` with the stars of the file at `path` (a damaged file is set aside
    /// and the course starts again: the returned note says so), starting at `stage` of the
    /// first course when given, else at its first level not solved yet.
    ///
    /// # Errors
    /// When the file cannot be read or set aside, `courses` is empty, or `stage` is not one.
    pub(super) fn new(
        courses: Vec<Course>,
        stage: Option<usize>,
        path: PathBuf,
        look: Look,
    ) -> Result<(CourseRun, Option<String>)> {
        let (stars, note) = learn::load(&path, now())?;
        let first = courses
            .first()
            .ok_or_else(|| anyhow!("no course to follow"))?;
        let at = match stage {
            Some(s) => {
                let i = first
                    .levels
                    .iter()
                    .position(|l| l.stage == s)
                    .ok_or_else(|| {
                        anyhow!(
                            "the course of {} has stages 1 to {}, not {s}",
                            first.game.title(),
                            first.stages()
                        )
                    })?;
                (0, i)
            }
            None => quentin_app::course::first_unsolved(&courses, |key| stars.contains_key(key)),
        };
        let run = CourseRun {
            courses,
            at,
            stars,
            path,
            look,
        };
        Ok((run, note))
    }

    /// The app of the level shown.
    pub(super) fn app(&self) -> Result<App> {
        let course = &self.courses[self.at.0];
        let level = course.levels[self.at.1].clone();
        let place = (self.at.1 + 1, course.levels.len());
        App::course_level(level, place, course.stages(), self.look).map_err(|e| anyhow!(e))
    }

    /// The stars of the course shown: earned and possible.
    fn total(&self) -> (usize, usize) {
        let course = &self.courses[self.at.0];
        let earned = course
            .levels
            .iter()
            .filter_map(|l| self.stars.get(&l.key()))
            .map(|&s| usize::from(s))
            .sum();
        (earned, 3 * course.levels.len())
    }
}

impl Session {
    /// Carries out the app's course news: a level's stars saved, the next level, the handoff's
    /// game against the computer.
    pub(super) fn course_news(
        &mut self,
        key: Option<(String, u8)>,
        next: bool,
        play: Option<Game>,
    ) {
        if let Some(game) = play {
            return self.play_computer(game);
        }
        let Some(run) = &mut self.course else {
            return;
        };
        if let Some((key, stars)) = key {
            let best = run.stars.get(&key).copied().unwrap_or(0).max(stars);
            run.stars.insert(key, best);
            if let Err(e) = learn::save(&run.path, &run.stars) {
                self.app
                    .warn(format!("Your course progress could not be saved: {e:#}."));
            }
            return;
        }
        if !next {
            return;
        }
        let (c, l) = run.at;
        if self.app.level_state() == Some(quentin_app::app::LevelState::Handoff) {
            // After the handoff: the next game's course, or this one again.
            run.at = ((c + 1) % run.courses.len(), 0);
        } else if l + 1 < run.courses[c].levels.len() {
            run.at = (c, l + 1);
        } else {
            let game = run.courses[c].game;
            let (earned, all) = run.total();
            let more = if run.courses.len() > 1 {
                "n the next game's course"
            } else {
                "n this course again"
            };
            let board = if game == Game::Quint { "" } else { ", 7x7" };
            self.app.course_handoff(format!(
                "The course of {} is done: {earned} stars of {all}. Now play: p a game against \
                 the computer (level 1{board}), P the puzzles, {more}, q quits.",
                game.title(),
            ));
            return;
        }
        match run.app() {
            Ok(app) => self.app = app,
            Err(e) => self.app.warn(format!("No next level: {e:#}.")),
        }
    }

    /// A stage chosen on the screen (`o`, then its digit): its first level, solved or not.
    pub(super) fn course_stage(&mut self, game: Game, stage: usize) {
        let Some(run) = &mut self.course else {
            return;
        };
        let Some(at) = quentin_app::course::stage_start(&run.courses, game, stage) else {
            self.app.warn(format!(
                "The course of {} is not open here: quentin learn --game {} opens it.",
                game.title(),
                game.name()
            ));
            return;
        };
        run.at = at;
        match run.app() {
            Ok(app) => self.app = app,
            Err(e) => self.app.warn(format!("No such level: {e:#}.")),
        }
    }

    /// The handoff's game: `game` on a small board against the computer at level 1, which
    /// plays second, saved as every game is.
    fn play_computer(&mut self, game: Game) {
        let mut setup = Setup::new(game);
        if game != Game::Quint {
            setup.size = 7;
        }
        let app = App::new(setup, self.app.look()).map_err(|e| anyhow!(e.to_string()));
        let made = app.and_then(|mut app| {
            app.set_computer(Versus {
                computer: [false, true],
                think: 1.0,
                level: Level::new(1).ok_or_else(|| anyhow!("no level 1"))?,
            });
            Ok((app, RecordFile::in_data_dir(SystemTime::now())?))
        });
        match made {
            Ok((app, file)) => {
                let old = std::mem::replace(&mut self.app, app);
                self.course = None;
                if let Err(e) = self.adopt(file) {
                    self.app = old;
                    self.app.warn(format!("The game cannot start: {e:#}."));
                } else {
                    self.app.info(format!(
                        "A game of {} against the computer (level 1): you play {}, first. \
                         ? lists the keys.",
                        game.title(),
                        game.first_color().capitalised()
                    ));
                }
            }
            Err(e) => self.app.warn(format!("The game cannot start: {e:#}.")),
        }
    }
}
