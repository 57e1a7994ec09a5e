//! The course's list of stages (issue 60), so that a stage can be chosen and replayed where no
//! command line says `--stage` (over SSH): `o` on a level lists the stages of its game's
//! course, `g` the next game's, a digit replays that stage from its first level (the front end
//! hears [`PuzzleNews::Stage`]); any other key closes the list.

use crate::course::{self, Course};
use crate::input::{KeyCode, KeyEvent, KeyModifiers};
use crate::rules::Game;

use super::super::{App, Effect};
use super::PuzzleNews;

/// The course of `game` among the shipped ones, and the game after it (round again).
fn course_and_next(game: Game) -> Option<(Course, Game)> {
    let courses = course::shipped().ok()?;
    let at = courses.iter().position(|c| c.game == game)?;
    let next = courses[(at + 1) % courses.len()].game;
    Some((courses[at].clone(), next))
}

impl App {
    /// `o` on a level: the list of the stages of `game`'s course, until a digit or another
    /// key.
    pub(in crate::app) fn open_stages(&mut self, game: Game) {
        let Some((course, next)) = course_and_next(game) else {
            self.warn("The course's stages cannot be read.");
            return;
        };
        if let Some(seat) = self.course.as_mut() {
            seat.listing = Some(game);
        }
        let stages: Vec<String> = (1..=course.stages())
            .filter_map(|s| {
                let first = course.stage(s).next()?;
                Some(format!("{s} {}", first.stage_title))
            })
            .collect();
        // Four lines of the panel at most: the keys are the digits listed, g, and any other.
        self.info(format!(
            "{}'s stages, g for {}'s: {}.",
            game.title(),
            next.title(),
            stages.join("; ")
        ));
    }

    /// Whether the list of stages is open.
    #[must_use]
    pub fn listing_stages(&self) -> bool {
        self.course.as_ref().is_some_and(|s| s.listing.is_some())
    }

    /// A key while the list is open: a stage's digit chooses it, `g` lists the next game's,
    /// any other key closes it. `None` when the list is not open, or for Ctrl's keys.
    pub(in crate::app) fn stages_key(&mut self, key: KeyEvent) -> Option<Effect> {
        let game = self.course.as_ref()?.listing?;
        if key.modifiers.contains(KeyModifiers::CONTROL) {
            return None;
        }
        if let Some(seat) = self.course.as_mut() {
            seat.listing = None;
        }
        let stages = course_and_next(game).map_or(0, |(c, _)| c.stages());
        match key.code {
            KeyCode::Char('g') => {
                if let Some((_, next)) = course_and_next(game) {
                    self.open_stages(next);
                }
                Some(Effect::None)
            }
            KeyCode::Char(c) => match c.to_digit(10).map(|d| d as usize) {
                Some(stage) if (1..=stages).contains(&stage) => {
                    Some(Effect::Puzzle(PuzzleNews::Stage { game, stage }))
                }
                _ => {
                    self.info("The level goes on as it was.");
                    Some(Effect::None)
                }
            },
            _ => {
                self.info("The level goes on as it was.");
                Some(Effect::None)
            }
        }
    }
}
