//! The ways of taking the puzzles besides the rated one near one's rating (issue 60, as
//! lichess offers them): a difficulty (easier, normal or harder than one's rating), one's own
//! failed puzzles again, Streak (rising difficulty, one mistake ends it) and Storm (three
//! minutes, seconds back for a run of right answers, ten off for a wrong one). Streak and Storm
//! are unrated: they keep only their best run ([`crate::puzzle_rating::Bests`]).
//!
//! Pure: the front end says how much time went by ([`Storm::tick`]); nothing here reads a
//! clock, so that the tests drive Storm's by hand.

/// How far from the player's rating the next puzzle is chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Difficulty {
    /// 300 below the rating.
    Easier,
    /// At the rating.
    #[default]
    Normal,
    /// 300 above the rating.
    Harder,
}

impl Difficulty {
    /// What it adds to the player's rating.
    #[must_use]
    pub fn offset(self) -> f64 {
        match self {
            Difficulty::Easier => -300.0,
            Difficulty::Normal => 0.0,
            Difficulty::Harder => 300.0,
        }
    }

    /// Its name on the command line and the screen.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easier => "easier",
            Difficulty::Normal => "normal",
            Difficulty::Harder => "harder",
        }
    }

    /// The difficulty of a [`Difficulty::name`] (the bot protocol's word).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Difficulty> {
        [Difficulty::Easier, Difficulty::Normal, Difficulty::Harder]
            .into_iter()
            .find(|d| d.name() == name)
    }

    /// The next one, in the order easier, normal, harder, easier.
    #[must_use]
    pub fn next(self) -> Difficulty {
        match self {
            Difficulty::Easier => Difficulty::Normal,
            Difficulty::Normal => Difficulty::Harder,
            Difficulty::Harder => Difficulty::Easier,
        }
    }
}

/// The rating Streak and Storm aim at after `solved` puzzles: 1000, then 60 more a puzzle
/// solved (the shipped puzzles are rated 1000 to 2200).
#[must_use]
pub fn rising(solved: u32) -> f64 {
    1000.0 + 60.0 * f64::from(solved)
}

/// A Storm's length, in milliseconds.
pub const STORM_MS: u64 = 180_000;
/// What a wrong answer takes off the Storm's clock.
pub const WRONG_MS: u64 = 10_000;
/// The right answers in a row that give seconds back.
pub const RUN: u32 = 5;
/// What such a run gives back.
pub const RUN_BONUS_MS: u64 = 5_000;

/// A Storm under way: its clock, the puzzles solved and missed, the run of right answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Storm {
    /// Milliseconds left.
    left_ms: u64,
    /// Puzzles solved.
    pub solved: u32,
    /// Puzzles missed.
    pub missed: u32,
    /// Right answers in a row.
    pub run: u32,
}

impl Default for Storm {
    fn default() -> Storm {
        Storm::new()
    }
}

impl Storm {
    /// A Storm at its start: three minutes on the clock.
    #[must_use]
    pub fn new() -> Storm {
        Storm {
            left_ms: STORM_MS,
            solved: 0,
            missed: 0,
            run: 0,
        }
    }

    /// `elapsed_ms` went by.
    pub fn tick(&mut self, elapsed_ms: u64) {
        self.left_ms = self.left_ms.saturating_sub(elapsed_ms);
    }

    /// Milliseconds left on the clock.
    #[must_use]
    pub fn left_ms(&self) -> u64 {
        self.left_ms
    }

    /// Whether the time is up.
    #[must_use]
    pub fn over(&self) -> bool {
        self.left_ms == 0
    }

    /// A puzzle solved: the run grows, and every [`RUN`] in a row gives [`RUN_BONUS_MS`]
    /// back. Returns the milliseconds given back.
    pub fn right(&mut self) -> u64 {
        self.solved += 1;
        self.run += 1;
        if self.run.is_multiple_of(RUN) {
            self.left_ms += RUN_BONUS_MS;
            RUN_BONUS_MS
        } else {
            0
        }
    }

    /// A puzzle missed: [`WRONG_MS`] off the clock, the run back to 0.
    pub fn wrong(&mut self) {
        self.missed += 1;
        self.run = 0;
        self.left_ms = self.left_ms.saturating_sub(WRONG_MS);
    }

    /// The clock as shown, minutes and seconds rounded up: `3:00`, `0:07`.
    #[must_use]
    pub fn clock(&self) -> String {
        let seconds = self.left_ms.div_ceil(1000);
        format!("{}:{:02}", seconds / 60, seconds % 60)
    }
}

/// How the puzzles are being taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Way {
    /// Rated, chosen near the rating moved by the difficulty.
    Rated(Difficulty),
    /// One's own failed puzzles again (rated only if never attempted, so not at all).
    Again,
    /// Streak: `solved` so far; a mistake ends it.
    Streak {
        /// Puzzles solved in this Streak.
        solved: u32,
        /// Whether a mistake ended it.
        ended: bool,
    },
    /// Storm, under way or over.
    Storm(Storm),
}

impl Way {
    /// Whether an attempt moves the rating.
    #[must_use]
    pub fn rated(&self) -> bool {
        matches!(self, Way::Rated(_) | Way::Again)
    }

    /// The rating the next puzzle is chosen near, from the player's `rating`.
    #[must_use]
    pub fn target(&self, rating: f64) -> f64 {
        match self {
            Way::Rated(difficulty) => rating + difficulty.offset(),
            Way::Again => rating,
            Way::Streak { solved, .. } => rising(*solved),
            Way::Storm(storm) => rising(storm.solved),
        }
    }

    /// Whether the run is over: a Streak broken, a Storm's time up.
    #[must_use]
    pub fn ended(&self) -> bool {
        match self {
            Way::Streak { ended, .. } => *ended,
            Way::Storm(storm) => storm.over(),
            Way::Rated(_) | Way::Again => false,
        }
    }

    /// Notes an attempt; returns what to say of it, if anything (a Storm's seconds, a
    /// Streak's end).
    pub fn attempted(&mut self, solved: bool) -> Option<String> {
        match self {
            Way::Streak { solved: n, ended } => {
                if solved {
                    *n += 1;
                    None
                } else {
                    *ended = true;
                    Some(format!("The streak ends at {n}."))
                }
            }
            Way::Storm(storm) if !storm.over() => {
                if solved {
                    let back = storm.right();
                    (back > 0)
                        .then(|| format!("{} right in a row: {} s back.", storm.run, back / 1000))
                } else {
                    storm.wrong();
                    Some(format!("{} s off the clock.", WRONG_MS / 1000))
                }
            }
            Way::Storm(_) | Way::Rated(_) | Way::Again => None,
        }
    }

    /// The line the panel shows of the run: `Streak 4 (best 9)`, `Storm 2:41, 6 solved, run
    /// 2 (best 14)`; `None` for the rated ways but a difficulty other than normal's and
    /// `Again`.
    #[must_use]
    pub fn line(&self, best: crate::puzzle_rating::Bests) -> Option<String> {
        match self {
            Way::Rated(Difficulty::Normal) => None,
            Way::Rated(d) => Some(format!("Difficulty: {}", d.name())),
            Way::Again => Some("Your failed puzzles again".to_string()),
            Way::Streak { solved, ended } => Some(format!(
                "Streak {solved} (best {}){}",
                best.streak.max(*solved),
                if *ended { ", over" } else { "" }
            )),
            Way::Storm(storm) if storm.over() => Some(format!(
                "Storm over: {} solved, {} missed (best {})",
                storm.solved,
                storm.missed,
                best.storm.max(storm.solved)
            )),
            Way::Storm(storm) => Some(format!(
                "Storm {}, {} solved, run {} (best {})",
                storm.clock(),
                storm.solved,
                storm.run,
                best.storm.max(storm.solved)
            )),
        }
    }
}

/// A choice made on the puzzle screen (`o`), for its front end to carry out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Rated puzzles at this difficulty.
    Rated(Difficulty),
    /// A new Streak.
    Streak,
    /// A new Storm.
    Storm,
    /// One's failed puzzles (and own mistakes) again.
    Again,
    /// The next theme among those of the puzzles at hand.
    NextTheme,
    /// Any theme.
    AnyTheme,
}

/// The choices as the screen lists them: the key, the choice, its name.
pub const CHOICES: [(char, Choice, &str); 8] = [
    ('1', Choice::Rated(Difficulty::Normal), "normal"),
    ('2', Choice::Rated(Difficulty::Easier), "easier"),
    ('3', Choice::Rated(Difficulty::Harder), "harder"),
    ('4', Choice::Streak, "Streak"),
    ('5', Choice::Storm, "Storm"),
    ('6', Choice::Again, "your failed puzzles again"),
    ('7', Choice::NextTheme, "the next theme"),
    ('8', Choice::AnyTheme, "any theme"),
];

impl Choice {
    /// The way a choice of a way starts: `None` for a theme's choice, which keeps the way.
    #[must_use]
    pub fn way(self) -> Option<Way> {
        match self {
            Choice::Rated(d) => Some(Way::Rated(d)),
            Choice::Streak => Some(Way::Streak {
                solved: 0,
                ended: false,
            }),
            Choice::Storm => Some(Way::Storm(Storm::new())),
            Choice::Again => Some(Way::Again),
            Choice::NextTheme | Choice::AnyTheme => None,
        }
    }
}

/// The next theme after `current` among `themes` (in their order), back to the first after
/// the last; `None` when there is none.
#[must_use]
pub fn next_theme(themes: &[&'static str], current: Option<&str>) -> Option<&'static str> {
    let at = current.and_then(|c| themes.iter().position(|t| *t == c));
    match at {
        Some(i) => themes.get((i + 1) % themes.len()).copied(),
        None => themes.first().copied(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle_rating::Bests;

    #[test]
    fn a_storm_runs_three_minutes_gives_seconds_back_and_takes_ten_off() {
        let mut storm = Storm::new();
        assert_eq!(storm.clock(), "3:00");
        storm.tick(1_500);
        assert_eq!(storm.clock(), "2:59");
        storm.wrong();
        assert_eq!(storm.clock(), "2:49");
        for _ in 0..4 {
            assert_eq!(storm.right(), 0);
        }
        assert_eq!(storm.right(), RUN_BONUS_MS);
        assert_eq!(storm.clock(), "2:54");
        assert_eq!((storm.solved, storm.missed, storm.run), (5, 1, 5));
        storm.tick(STORM_MS);
        assert!(storm.over());
        assert_eq!(storm.clock(), "0:00");
    }

    #[test]
    fn a_streak_rises_and_one_mistake_ends_it() {
        let mut way = Way::Streak {
            solved: 0,
            ended: false,
        };
        assert_eq!(way.target(1500.0), 1000.0);
        assert_eq!(way.attempted(true), None);
        assert_eq!(way.attempted(true), None);
        assert_eq!(way.target(1500.0), 1120.0);
        assert!(!way.ended());
        assert_eq!(
            way.attempted(false).as_deref(),
            Some("The streak ends at 2.")
        );
        assert!(way.ended());
        let best = Bests {
            streak: 1,
            storm: 0,
        };
        assert_eq!(way.line(best).as_deref(), Some("Streak 2 (best 2), over"));
    }

    #[test]
    fn a_difficulty_moves_the_target_and_leaves_the_attempt_rated() {
        assert_eq!(Way::Rated(Difficulty::Easier).target(1500.0), 1200.0);
        assert_eq!(Way::Rated(Difficulty::Harder).target(1500.0), 1800.0);
        assert!(Way::Rated(Difficulty::Harder).rated());
        assert!(!Way::Storm(Storm::new()).rated());
        assert_eq!(Difficulty::Harder.next(), Difficulty::Easier);
    }

    #[test]
    fn the_themes_come_round_in_order() {
        let themes = ["win1", "win2", "defend"];
        assert_eq!(next_theme(&themes, None), Some("win1"));
        assert_eq!(next_theme(&themes, Some("win2")), Some("defend"));
        assert_eq!(next_theme(&themes, Some("defend")), Some("win1"));
        assert_eq!(next_theme(&[], None), None);
        assert_eq!(
            Choice::Streak.way(),
            Some(Way::Streak {
                solved: 0,
                ended: false
            })
        );
        assert_eq!(Choice::NextTheme.way(), None);
    }

    #[test]
    fn a_storm_says_its_seconds_and_stops_counting_when_over() {
        let mut way = Way::Storm(Storm::new());
        assert_eq!(way.attempted(false).as_deref(), Some("10 s off the clock."));
        for _ in 0..4 {
            assert_eq!(way.attempted(true), None);
        }
        assert_eq!(
            way.attempted(true).as_deref(),
            Some("5 right in a row: 5 s back.")
        );
        let Way::Storm(storm) = &mut way else {
            unreachable!()
        };
        storm.tick(STORM_MS);
        assert_eq!(way.attempted(true), None);
        assert!(way.ended());
        let best = Bests::default();
        assert_eq!(
            way.line(best).as_deref(),
            Some("Storm over: 5 solved, 1 missed (best 5)")
        );
    }
}
