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
use crate::search::puzzles::THEMES;
use quentin_app::mistakes::Mistake;
use quentin_app::puzzle_modes::{Choice, Storm, Way, next_theme};
use quentin_app::puzzle_rating::{Change, Progress};

use super::Session;
use super::app::{App, Look, PuzzleNews, PuzzleStanding};

/// The puzzles of a run and the player's progress.
pub(super) struct PuzzleRun {
    /// The puzzles to choose from (the game and theme asked for, the way taken).
    pool: Vec<Puzzle>,
    /// Every puzzle the run was opened with, whatever the way and theme chosen since.
    all: Vec<Puzzle>,
    /// The theme chosen on the screen (`o`), if any.
    theme: Option<&'static str>,
    /// The puzzle on the screen: the next is another when there is one.
    current: Option<String>,
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
fn standing(
    progress: &Progress,
    change: Option<Change>,
    way: &Way,
    theme: Option<&str>,
) -> PuzzleStanding {
    let theme = theme.map(|t| format!("Theme {t}"));
    let way = match (way.line(progress.best), theme) {
        (Some(line), Some(theme)) => Some(format!("{line}; {theme}")),
        (line, theme) => line.or(theme),
    };
    PuzzleStanding {
        rating: progress.rating.shown(),
        change: change.filter(|c| c.rated).map(|c| c.signed()),
        streak: progress.streak,
        way,
    }
}

/// A way's name as the screen says it after a choice.
fn way_name(way: &Way) -> String {
    match way {
        Way::Rated(d) => format!("Rated puzzles, {}", d.name()),
        Way::Again => "Your failed puzzles again".to_string(),
        Way::Streak { .. } => "Streak".to_string(),
        Way::Storm(_) => "Storm (3 minutes)".to_string(),
    }
}

impl PuzzleRun {
    /// A run over `pool` with the progress of the file at `path` (read strictly: a damaged
    /// file is refused, and left as it is), taken in `way` (`Again`: the pool's puzzles
    /// whose last attempt failed).
    ///
    /// # Errors
    /// When the progress file cannot be read, or there is no puzzle to play.
    pub(super) fn new(pool: Vec<Puzzle>, path: PathBuf, look: Look, way: Way) -> Result<PuzzleRun> {
        let progress = puzzle_progress::load(&path)?;
        let mut run = PuzzleRun::of(pool, progress, path, look, way);
        run.pool = run.chosen()?;
        Ok(run)
    }

    /// A run over `all` as it starts, every puzzle in its pool.
    fn of(all: Vec<Puzzle>, progress: Progress, path: PathBuf, look: Look, way: Way) -> PuzzleRun {
        PuzzleRun {
            pool: all.clone(),
            all,
            theme: None,
            current: None,
            progress,
            path,
            look,
            last: None,
            way,
            ticked: Instant::now(),
        }
    }

    /// The puzzles of the way and theme chosen: with `Again`, those whose last attempt failed
    /// and the player's own mistakes of the same games.
    ///
    /// # Errors
    /// When that leaves no puzzle.
    fn chosen(&self) -> Result<Vec<Puzzle>> {
        let mut pool: Vec<Puzzle> = self
            .all
            .iter()
            .filter(|p| self.theme.is_none_or(|t| p.themes.contains(&t)))
            .cloned()
            .collect();
        if self.way == Way::Again {
            let failed = self.progress.failed();
            // The player's own mistakes of the games asked for are failed puzzles too.
            let games: Vec<Game> = self.all.iter().map(|p| p.setup.game).collect();
            if self.theme.is_none() {
                pool.extend(
                    self.progress
                        .mistakes
                        .iter()
                        .filter(|m| games.contains(&m.game()))
                        .map(Mistake::puzzle),
                );
            }
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
        Ok(pool)
    }

    /// Carries out a choice made on the screen: another way, or theme; the pool as it was
    /// when the choice leaves no puzzle. Returns what to say.
    fn choose(&mut self, choice: Choice) -> Result<String> {
        let (way, theme) = (self.way, self.theme);
        match choice.way() {
            Some(way) => self.way = way,
            None if choice == Choice::AnyTheme => self.theme = None,
            None => {
                let mut themes: Vec<&'static str> = THEMES
                    .iter()
                    .map(|(t, _)| *t)
                    .filter(|t| self.all.iter().any(|p| p.themes.contains(t)))
                    .collect();
                themes.dedup();
                self.theme = next_theme(&themes, self.theme);
            }
        }
        match self.chosen() {
            Ok(pool) => {
                self.pool = pool;
                self.ticked = Instant::now();
                let theme = self
                    .theme
                    .map_or("any theme".to_string(), |t| format!("theme {t}"));
                Ok(format!("{}, {theme}", way_name(&self.way)))
            }
            Err(e) => {
                (self.way, self.theme) = (way, theme);
                Err(e)
            }
        }
    }

    /// A run over the player's own `mistakes` of a game just reviewed: kept first with the
    /// failed puzzles in the progress file at `path` (so that `--again` offers them), then
    /// taken one after the other.
    ///
    /// # Errors
    /// When the progress file cannot be read or written.
    pub(super) fn mistakes(mistakes: &[Mistake], path: PathBuf, look: Look) -> Result<PuzzleRun> {
        let mut progress = puzzle_progress::load(&path)?;
        progress.keep_mistakes(mistakes, now());
        puzzle_progress::save(&path, &progress)?;
        let pool = mistakes.iter().map(Mistake::puzzle).collect();
        Ok(PuzzleRun::of(pool, progress, path, look, Way::Again))
    }

    /// The app of the next puzzle, chosen near the rating the way aims at.
    pub(super) fn next_app(&mut self, change: Option<Change>) -> Result<App> {
        let target = self.way.target(self.progress.rating.rating);
        let others: Vec<Puzzle> = self
            .pool
            .iter()
            .filter(|p| self.current.as_deref() != Some(p.id.as_str()))
            .cloned()
            .collect();
        let among = if others.is_empty() {
            &self.pool
        } else {
            &others
        };
        let puzzle = self
            .progress
            .choose_near(among, target, now(), seed())
            .ok_or_else(|| anyhow!("no puzzle to play"))?;
        self.current = Some(puzzle.id.clone());
        let mistake = self.progress.mistakes.iter().find(|m| m.id == puzzle.id);
        let mut app = match mistake {
            Some(m) => App::mistake(m, self.look),
            None => App::puzzle(puzzle.clone(), self.look),
        }
        .map_err(|e| anyhow!(e))?;
        app.set_standing(standing(&self.progress, change, &self.way, self.theme));
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
            .and_then(|mut run| Ok((run.next_app(None)?, run)));
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
            PuzzleNews::Mistakes(list) => return self.open_mistakes(&list),
            PuzzleNews::Choose(choice) => return self.puzzle_choice(choice),
            PuzzleNews::Stage { game, stage } => return self.course_stage(game, stage),
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
                    .set_standing(standing(&run.progress, change, &run.way, run.theme));
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
            PuzzleNews::Level { .. }
            | PuzzleNews::NextLevel
            | PuzzleNews::PlayComputer(_)
            | PuzzleNews::Mistakes(_)
            | PuzzleNews::Choose(_)
            | PuzzleNews::Stage { .. } => {}
        }
    }

    /// A way or theme chosen on the puzzle screen: the next puzzle that way, at once (the one
    /// on the board is left, not counted).
    fn puzzle_choice(&mut self, choice: Choice) {
        let Some(run) = &mut self.puzzles else {
            return;
        };
        let said = match run.choose(choice) {
            Ok(said) => said,
            Err(e) => {
                self.app
                    .warn(format!("{e:#}; the puzzles go on as they were."));
                return;
            }
        };
        match run.next_app(None) {
            Ok(app) => {
                self.app = app;
                self.app.info(format!("{said}. Find the move."));
            }
            Err(e) => self.app.warn(format!("No next puzzle: {e:#}.")),
        }
    }

    /// Leaves the reviewed game, whose record is saved, for the person's own `mistakes` in
    /// it, kept with the failed puzzles. When they cannot open (a damaged progress file), the
    /// game stays, and the panel says why.
    fn open_mistakes(&mut self, mistakes: &[Mistake]) {
        let look = self.app.look();
        let opened = puzzle_progress::path()
            .and_then(|path| PuzzleRun::mistakes(mistakes, path, look))
            .and_then(|mut run| Ok((run.next_app(None)?, run)));
        match opened {
            Ok((app, run)) => {
                self.app = app;
                self.puzzles = Some(run);
            }
            Err(e) => self
                .app
                .warn(format!("Your mistakes cannot open as exercises: {e:#}.")),
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
            .set_standing(standing(&run.progress, run.last, &run.way, run.theme));
        if storm.over() {
            self.app.warn(format!(
                "Time is up: {} solved, {} missed. n starts a new storm, q quits.",
                storm.solved, storm.missed
            ));
        }
    }
}
