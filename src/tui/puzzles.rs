//! The puzzle mode's front end (`quentin puzzle`): the puzzles to choose from, the player's
//! progress and its file, and what the loop does with the app's puzzle news: an attempt
//! rates the player and is saved at once; the next puzzle is chosen near the rating, moved by
//! the way the puzzles are taken ([`Way`]: a difficulty, one's failed puzzles again, Streak,
//! Storm, whose clock the loop advances).

use std::path::PathBuf;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Result, anyhow};

use crate::puzzle_progress;
use crate::rules::Game;
use crate::search::puzzles::Puzzle;
use quentin_app::puzzle_modes::{Storm, Way};
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
    /// How the puzzles are taken.
    way: Way,
    /// When Storm's clock was last advanced.
    ticked: Instant,
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

/// What the panel shows of `progress`, with the `change` the last attempt made, and of the
/// `way` the puzzles are taken.
fn standing(progress: &Progress, change: Option<Change>, way: &Way) -> PuzzleStanding {
    PuzzleStanding {
        rating: progress.rating.shown(),
        change: change.filter(|c| c.rated).map(|c| c.signed()),
        streak: progress.streak,
        way: way.line(progress.best),
    }
}

impl PuzzleRun {
    /// A run over `pool` with the progress of the file at `path` (read strictly: a damaged
    /// file is refused, and left as it is), taken in `way` (`Again`: the pool's puzzles
    /// whose last attempt failed).
    ///
    /// # Errors
    /// When the progress file cannot be read, or there is no puzzle to play.
    pub(super) fn new(
        mut pool: Vec<Puzzle>,
        path: PathBuf,
        look: Look,
        way: Way,
    ) -> Result<PuzzleRun> {
        let progress = puzzle_progress::load(&path)?;
        if way == Way::Again {
            let failed = progress.failed();
            pool.retain(|p| failed.contains(&p.id.as_str()));
            if pool.is_empty() {
                return Err(anyhow!(
                    "no failed puzzle to play again: --again offers the puzzles whose last \
                     attempt failed (of the game and theme asked for)"
                ));
            }
        }
        if pool.is_empty() {
            return Err(anyhow!("no puzzle to play"));
        }
        Ok(PuzzleRun {
            pool,
            progress,
            path,
            look,
            last: None,
            way,
            ticked: Instant::now(),
        })
    }

    /// The app of the next puzzle, chosen near the rating the way aims at.
    pub(super) fn next_app(&self, change: Option<Change>) -> Result<App> {
        let target = self.way.target(self.progress.rating.rating);
        let puzzle = self
            .progress
            .choose_near(&self.pool, target, now(), seed())
            .ok_or_else(|| anyhow!("no puzzle to play"))?;
        let mut app = App::puzzle(puzzle.clone(), self.look).map_err(|e| anyhow!(e))?;
        app.set_standing(standing(&self.progress, change, &self.way));
        Ok(app)
    }

    /// Notes an attempt the way it is taken: rated (and kept among the attempts), or
    /// counted in a Streak or a Storm, whose best is kept. Returns the rating's change and
    /// what to say of the run.
    fn attempted(&mut self, puzzle: &Puzzle, solved: bool) -> (Option<Change>, Option<String>) {
        if self.way.rated() {
            return (Some(self.progress.record(puzzle, solved, now())), None);
        }
        let said = self.way.attempted(solved);
        let best = &mut self.progress.best;
        match self.way {
            Way::Streak { solved, .. } => best.streak = best.streak.max(solved),
            Way::Storm(storm) => best.storm = best.storm.max(storm.solved),
            Way::Rated(_) | Way::Again => {}
        }
        (None, said)
    }

    /// A new Streak or Storm after one that ended; the same way otherwise.
    fn again(&mut self) {
        self.way = match self.way {
            Way::Streak { .. } => Way::Streak {
                solved: 0,
                ended: false,
            },
            Way::Storm(_) => Way::Storm(Storm::new()),
            other => other,
        };
        self.ticked = Instant::now();
    }
}

impl Session {
    /// Leaves the game on the screen, whose record is saved (and printed on exit), for the
    /// puzzles of `game`, drawn as the game was. When they cannot open (a damaged progress
    /// file), the game stays, and the panel says why.
    pub(super) fn open_puzzles(&mut self, game: Game) {
        let look = self.app.look();
        let way = Way::Rated(quentin_app::puzzle_modes::Difficulty::Normal);
        let opened = crate::puzzles::pool(Some(game), None)
            .and_then(|pool| PuzzleRun::new(pool, puzzle_progress::path()?, look, way))
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
                let Some(puzzle) = run.pool.iter().find(|p| p.id == id).cloned() else {
                    return;
                };
                let (change, said) = run.attempted(&puzzle, solved);
                self.app
                    .set_standing(standing(&run.progress, change, &run.way));
                run.last = change;
                if let Err(e) = puzzle_progress::save(&run.path, &run.progress) {
                    self.app
                        .warn(format!("Your puzzle rating could not be saved: {e:#}."));
                    return;
                }
                self.run_said(said);
            }
            PuzzleNews::Next => {
                if run.way.ended() {
                    run.again();
                }
                match run.next_app(run.last) {
                    Ok(app) => self.app = app,
                    Err(e) => self.app.warn(format!("No next puzzle: {e:#}.")),
                }
            }
            PuzzleNews::Level { .. } | PuzzleNews::NextLevel | PuzzleNews::PlayComputer(_) => {}
        }
    }

    /// After an attempt in a Streak or a Storm: what the run says, and a Storm's next puzzle
    /// at once (its clock runs on).
    fn run_said(&mut self, said: Option<String>) {
        let Some(run) = &mut self.puzzles else {
            return;
        };
        match run.way {
            Way::Storm(storm) if !storm.over() => match run.next_app(None) {
                Ok(app) => {
                    self.app = app;
                    let said = said.map(|s| format!("{s} ")).unwrap_or_default();
                    self.app.info(format!("{said}Next puzzle: find the move."));
                }
                Err(e) => self.app.warn(format!("No next puzzle: {e:#}.")),
            },
            Way::Streak { ended: true, .. } => {
                let said = said.unwrap_or_default();
                let message = self
                    .app
                    .message()
                    .map(|m| m.text.clone())
                    .unwrap_or_default();
                self.app
                    .warn(format!("{message} {said} n starts a new streak, q quits."));
            }
            _ => {}
        }
    }

    /// Advances a Storm's clock by the time gone since the last call; at its end, says so
    /// and keeps the best.
    pub(super) fn puzzle_tick(&mut self) {
        let Some(run) = &mut self.puzzles else {
            return;
        };
        let Way::Storm(storm) = &mut run.way else {
            return;
        };
        if storm.over() {
            return;
        }
        let now = Instant::now();
        let elapsed = now.duration_since(run.ticked);
        run.ticked = now;
        storm.tick(u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX));
        let storm = *storm;
        self.app
            .set_standing(standing(&run.progress, run.last, &run.way));
        if storm.over() {
            self.app.warn(format!(
                "Time is up: {} solved, {} missed. n starts a new storm, q quits.",
                storm.solved, storm.missed
            ));
        }
    }
}
