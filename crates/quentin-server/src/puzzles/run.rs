//! The ways of taking the puzzles on the server (issue 60), for the lobby's puzzle screen and
//! the bot protocol alike, as the terminal offers them ([`Way`]): rated at a difficulty,
//! one's failed puzzles again (the store's attempts that failed), Streak and Storm (unrated:
//! nothing reaches the attempts, only each best, kept in the store), with a theme or any.
//! A run lives as long as the screen or the bot's connection; the store keeps the bests.

use quentin_app::puzzle_modes::{Choice, Difficulty, Storm, Way, next_theme};
use quentin_app::puzzle_rating::Bests;
use quentin_app::search::puzzles::THEMES;
use quentin_rules::Game;

use super::{PuzzleRefusal, Served, Wanted, find, rating};
use crate::hub::Hub;
use crate::ids::{Moment, PlayerId};
use crate::store::bests::Runs;
use crate::store::puzzles::Pool;

/// A player's run of puzzles: the way, the theme, the puzzles given so far.
#[derive(Clone, Debug)]
pub struct Run {
    /// How the puzzles are taken.
    pub way: Way,
    /// Only this theme's, when chosen.
    pub theme: Option<&'static str>,
    /// Only this game's, when asked.
    pub game: Option<Game>,
    /// The player's bests, as the store last said and this run raised them.
    pub best: Bests,
    /// The puzzles given on this run, left out of the next choice while others remain.
    given: Vec<String>,
    /// When a Storm's clock was last advanced.
    ticked: Moment,
    /// The puzzle whose attempt a bot's `solve` counted already.
    counted: Option<String>,
}

impl Run {
    /// A run taken `way`, with the player's `best`, from `now`.
    #[must_use]
    pub fn new(way: Way, best: Bests, now: Moment) -> Run {
        Run {
            way,
            theme: None,
            game: None,
            best,
            given: Vec::new(),
            ticked: now,
            counted: None,
        }
    }

    /// The player's bests read from the store (none when it cannot be read).
    pub async fn bests(hub: &Hub, me: PlayerId) -> Bests {
        hub.puzzle_bests(me).await.unwrap_or_default()
    }

    /// The puzzle on the screen, the last given.
    #[must_use]
    pub fn current(&self) -> Option<&str> {
        self.given.last().map(String::as_str)
    }

    /// The next puzzle of the run for `me`: near the rating the way aims at (Streak's and
    /// Storm's rising), of the pool it takes (the failed ones again, or those not tried), of
    /// the theme; none given on this run while another is left, then none twice in a row.
    ///
    /// # Errors
    /// None left, or the store's refusal.
    pub async fn next(&mut self, hub: &Hub, me: PlayerId) -> Result<Served, PuzzleRefusal> {
        let target = match self.way {
            Way::Rated(Difficulty::Normal) | Way::Again => None,
            Way::Rated(d) => Some(rating(hub, me).await?.rating + d.offset()),
            way => Some(way.target(0.0)),
        };
        let wanted = |skip: Vec<String>| Wanted {
            game: self.game,
            target,
            theme: self.theme.map(str::to_string),
            pool: if self.way == Way::Again {
                Pool::Failed
            } else {
                Pool::Untried
            },
            skip,
        };
        let mut found = find(hub, me, wanted(self.given.clone())).await;
        if matches!(
            found,
            Err(PuzzleRefusal::NoneLeft(_) | PuzzleRefusal::NoneFailed)
        ) && !self.given.is_empty()
        {
            let last: Vec<String> = self.current().map(str::to_string).into_iter().collect();
            self.given.clear();
            found = find(hub, me, wanted(last)).await;
            if matches!(
                found,
                Err(PuzzleRefusal::NoneLeft(_) | PuzzleRefusal::NoneFailed)
            ) {
                found = find(hub, me, wanted(Vec::new())).await;
            }
        }
        let served = found?;
        self.given.push(served.puzzle.id.clone());
        Ok(served)
    }

    /// Carries out a choice made on the screen: another way (a new Streak, a new Storm), or
    /// theme; the puzzles given stay left out, so that a new Streak does not start on the
    /// last one's. Returns the way it was, to go back to when the choice gives no puzzle.
    pub fn choose(&mut self, choice: Choice, now: Moment) -> (Way, Option<&'static str>) {
        let was = (self.way, self.theme);
        match choice.way() {
            Some(way) => self.way = way,
            None if choice == Choice::AnyTheme => self.theme = None,
            None => {
                let themes: Vec<&'static str> = THEMES.iter().map(|(t, _)| *t).collect();
                self.theme = next_theme(&themes, self.theme);
            }
        }
        self.ticked = now;
        was
    }

    /// Goes back to the way and theme `was`, a choice having given no puzzle.
    pub fn undo(&mut self, was: (Way, Option<&'static str>)) {
        (self.way, self.theme) = was;
    }

    /// The way and theme as the screen says them after a choice: `Streak, theme win2`.
    #[must_use]
    pub fn said(&self) -> String {
        let way = match self.way {
            Way::Rated(d) => format!("Rated puzzles, {}", d.name()),
            Way::Again => "Your failed puzzles again".to_string(),
            Way::Streak { .. } => "Streak".to_string(),
            Way::Storm(_) => "Storm (3 minutes)".to_string(),
        };
        let theme = self
            .theme
            .map_or("any theme".to_string(), |t| format!("theme {t}"));
        format!("{way}, {theme}")
    }

    /// The panel's line of the way and theme: `Streak 4 (best 9); Theme win2`.
    #[must_use]
    pub fn line(&self) -> Option<String> {
        let theme = self.theme.map(|t| format!("Theme {t}"));
        match (self.way.line(self.best), theme) {
            (Some(line), Some(theme)) => Some(format!("{line}; {theme}")),
            (line, theme) => line.or(theme),
        }
    }

    /// A new Streak or Storm after one that ended; the same way otherwise.
    pub fn again(&mut self, now: Moment) {
        if self.way.ended() {
            self.way = match self.way {
                Way::Storm(_) => Way::Storm(Storm::new()),
                _ => Way::Streak {
                    solved: 0,
                    ended: false,
                },
            };
            self.ticked = now;
        }
    }

    /// Advances a Storm's clock to `now`; whether its time ran out just now.
    pub fn tick(&mut self, now: Moment) -> bool {
        let elapsed = u64::try_from(now.0 - self.ticked.0).unwrap_or(0);
        self.ticked = now;
        match &mut self.way {
            Way::Storm(storm) if !storm.over() => {
                storm.tick(elapsed);
                storm.over()
            }
            _ => false,
        }
    }

    /// Milliseconds until a running Storm's clock shows another second.
    #[must_use]
    pub fn clock_changes_in(&self) -> Option<u64> {
        match self.way {
            Way::Storm(storm) if !storm.over() => Some(match storm.left_ms() % 1000 {
                0 => 1000,
                ms => ms,
            }),
            _ => None,
        }
    }

    /// Notes an attempt at the run's `puzzle` in a Streak or a Storm, answered from the
    /// network `block`: the run counted; the change that keeps the bests it passes and
    /// counts the puzzle as shown to the block (none for the rated ways). Returns what to
    /// say of it, and that change.
    pub fn attempted(
        &mut self,
        me: PlayerId,
        (puzzle, block): (&str, String),
        solved: bool,
        now: Moment,
    ) -> (Option<String>, Option<Runs>) {
        self.tick(now);
        let said = self.way.attempted(solved);
        let runs = match self.way {
            Way::Streak { solved, .. } => Bests {
                streak: solved,
                storm: 0,
            },
            Way::Storm(storm) => Bests {
                streak: 0,
                storm: storm.solved,
            },
            Way::Rated(_) | Way::Again => return (said, None),
        };
        self.best.streak = self.best.streak.max(runs.streak);
        self.best.storm = self.best.storm.max(runs.storm);
        let keep = Runs {
            player: me,
            runs,
            puzzle: puzzle.to_string(),
            block,
            at: now,
        };
        (said, Some(keep))
    }
}

/// The bot protocol's and the screen's words for a Streak's or Storm's standing after an
/// attempt: `streak 3 best 5`, `streak 2 best 5 over`, `storm 2:41 solved 6 missed 1 run 2
/// best 14`, `storm 0:00 solved 9 missed 2 run 0 best 14 over`.
#[must_use]
pub fn standing_words(way: &Way, best: Bests) -> String {
    match way {
        Way::Streak { solved, ended } => format!(
            "streak {solved} best {}{}",
            best.streak.max(*solved),
            if *ended { " over" } else { "" }
        ),
        Way::Storm(storm) => format!(
            "storm {} solved {} missed {} run {} best {}{}",
            storm.clock(),
            storm.solved,
            storm.missed,
            storm.run,
            best.storm.max(storm.solved),
            if storm.over() { " over" } else { "" }
        ),
        Way::Rated(_) | Way::Again => String::new(),
    }
}

/// What a line of moves came to in a Streak or a Storm: judged as `solve` judges it,
/// counted in the run, nothing rated or recorded but a best passed.
#[derive(Clone, Debug)]
pub enum Counted {
    /// Right so far: the opponent replied.
    Right {
        /// The opponent's reply.
        reply: quentin_rules::Action,
    },
    /// Solved; the run's standing after ([`standing_words`]).
    Solved {
        /// The solution's last reply, if any.
        reply: Option<quentin_rules::Action>,
        /// The run's standing.
        run: String,
    },
    /// Failed; the run's standing after, and the solution.
    Wrong {
        /// The opponent's reply that refutes the move, when one was proved.
        refutation: Option<quentin_rules::Action>,
        /// The run's standing.
        run: String,
        /// The whole solution.
        solution: Vec<quentin_rules::Action>,
    },
}

impl Run {
    /// Whether puzzle `id` was given by this run's Streak or Storm: its answers are counted
    /// in the run, never rated.
    #[must_use]
    pub fn counts(&self, id: &str) -> bool {
        matches!(self.way, Way::Streak { .. } | Way::Storm(_)) && self.given.iter().any(|g| g == id)
    }

    /// Judges `moves` in puzzle `id` of this run's Streak or Storm for `me` answering from
    /// `block`: once the puzzle is solved or failed, the attempt counts in the run (the
    /// puzzle on the screen only, once), kept in the store ([`Run::attempted`]).
    ///
    /// # Errors
    /// No such puzzle, a line that cannot be judged, or the store's refusal.
    pub async fn solve(
        &mut self,
        hub: &Hub,
        (me, block): (PlayerId, String),
        id: &str,
        moves: &[quentin_rules::Action],
        now: Moment,
    ) -> Result<Counted, PuzzleRefusal> {
        use quentin_app::search::puzzles::answer::{self, Judged};
        let Served { puzzle, .. } = super::one(hub, id).await?;
        let judged = answer::judge(&puzzle, moves).map_err(PuzzleRefusal::BadLine)?;
        let solved = match &judged {
            Judged::Right { reply } => return Ok(Counted::Right { reply: *reply }),
            Judged::Solved { .. } => true,
            Judged::Wrong { .. } => false,
        };
        if self.current() == Some(id) && self.counted.as_deref() != Some(id) {
            self.counted = Some(id.to_string());
            let (_, keep) = self.attempted(me, (id, block), solved, now);
            if let Some(runs) = keep {
                hub.keep_puzzle_runs(runs).await?;
            }
        } else {
            self.tick(now);
        }
        let run = standing_words(&self.way, self.best);
        Ok(match judged {
            Judged::Wrong { at, after } => {
                let solution = puzzle.solution.clone();
                // The solver's work, off the sessions' threads.
                let refutation = tokio::task::spawn_blocking(move || {
                    answer::refutation(&puzzle, at, &after, answer::REFUTATION_NODES)
                        .map(|r| r.reply)
                })
                .await
                .ok()
                .flatten();
                Counted::Wrong {
                    refutation,
                    run,
                    solution,
                }
            }
            Judged::Solved { reply } => Counted::Solved { reply, run },
            Judged::Right { reply } => Counted::Right { reply },
        })
    }
}
