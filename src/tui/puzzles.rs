//! The puzzle mode's front end (`quentin puzzle`): the puzzles to choose from, the player's
//! progress and its file, and what the loop does with the app's puzzle news: an attempt
//! rates the player and is saved at once; the next puzzle is chosen near the rating.

use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Result, anyhow};

use crate::puzzle_progress;
use crate::rules::Game;
use crate::search::puzzles::Puzzle;
use quentin_app::puzzle_rating::{Change, Progress};

use super::Session;
use super::app::{App, Look, PuzzleNews, PuzzleStanding};

/// The puzzles of a run and the player's progress.
pub(super) struct PuzzleRun {
    /// The puzzles to choose from (the game and theme asked for).
    pool: Vec<Puzzle>,
    /// The player's rating, streak and attempts.
    progress: Progress,
    /// Where the progress is kept.
    path: PathBuf,
    /// How the board is drawn.
    look: Look,
    /// What the last attempt changed, shown until the next.
    last: Option<Change>,
}

/// Seconds since 1970 now.
fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// A seed for the next choice: the clock's nanoseconds (the choice itself is the search
/// crate's generator's).
fn seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// What the panel shows of `progress`, with the `change` the last attempt made.
fn standing(progress: &Progress, change: Option<Change>) -> PuzzleStanding {
    PuzzleStanding {
        rating: progress.rating.shown(),
        change: change.filter(|c| c.rated).map(|c| c.signed()),
        streak: progress.streak,
    }
}

impl PuzzleRun {
    /// A run over `pool` with the progress of the file at `path` (read strictly: a damaged
    /// file is refused, and left as it is).
    ///
    /// # Errors
    /// When the progress file cannot be read, or `pool` is empty.
    pub(super) fn new(pool: Vec<Puzzle>, path: PathBuf, look: Look) -> Result<PuzzleRun> {
        if pool.is_empty() {
            return Err(anyhow!("no puzzle to play"));
        }
        let progress = puzzle_progress::load(&path)?;
        Ok(PuzzleRun {
            pool,
            progress,
            path,
            look,
            last: None,
        })
    }

    /// The app of the next puzzle, chosen near the player's rating.
    pub(super) fn next_app(&self, change: Option<Change>) -> Result<App> {
        let puzzle = self
            .progress
            .choose(&self.pool, now(), seed())
            .ok_or_else(|| anyhow!("no puzzle to play"))?;
        let mut app = App::puzzle(puzzle.clone(), self.look).map_err(|e| anyhow!(e))?;
        app.set_standing(standing(&self.progress, change));
        Ok(app)
    }
}

impl Session {
    /// Leaves the game on the screen, whose record is saved (and printed on exit), for the
    /// puzzles of `game`, drawn as the game was. When they cannot open (a damaged progress
    /// file), the game stays, and the panel says why.
    pub(super) fn open_puzzles(&mut self, game: Game) {
        let look = self.app.look();
        let opened = crate::puzzles::pool(Some(game), None)
            .and_then(|pool| PuzzleRun::new(pool, puzzle_progress::path()?, look))
            .and_then(|run| Ok((run.next_app(None)?, run)));
        match opened {
            Ok((app, run)) => {
                self.app = app;
                self.puzzles = Some(run);
            }
            Err(e) => self.app.warn(format!("The puzzles cannot open: {e:#}.")),
        }
    }

    /// Carries out the app's puzzle news: an attempt rated and saved, or the next puzzle.
    pub(super) fn puzzle_news(&mut self, news: PuzzleNews) {
        // The course's news rides on the puzzles' effect (the server's sessions ignore both).
        match news {
            PuzzleNews::Level { key, stars } => {
                return self.course_news(Some((key, stars)), false, None);
            }
            PuzzleNews::NextLevel => return self.course_news(None, true, None),
            PuzzleNews::PlayComputer(game) => return self.course_news(None, false, Some(game)),
            PuzzleNews::Attempted { .. } | PuzzleNews::Next => {}
        }
        let Some(run) = &mut self.puzzles else {
            return;
        };
        match news {
            PuzzleNews::Attempted { id, solved } => {
                let Some(puzzle) = run.pool.iter().find(|p| p.id == id) else {
                    return;
                };
                let change = run.progress.record(puzzle, solved, now());
                self.app.set_standing(standing(&run.progress, Some(change)));
                run.last = Some(change);
                if let Err(e) = puzzle_progress::save(&run.path, &run.progress) {
                    self.app
                        .warn(format!("Your puzzle rating could not be saved: {e:#}."));
                }
            }
            PuzzleNews::Next => match run.next_app(run.last) {
                Ok(app) => self.app = app,
                Err(e) => self.app.warn(format!("No next puzzle: {e:#}.")),
            },
            PuzzleNews::Level { .. } | PuzzleNews::NextLevel | PuzzleNews::PlayComputer(_) => {}
        }
    }
}
