//! A player's puzzle rating and what they attempted, apart from any file or server: the
//! Glicko-2 update after an attempt (the `skillratings` crate, as the server's game ratings),
//! the streak, and the choice of the next puzzle near the rating, none coming back too soon.
//!
//! The terminal's puzzle mode keeps a [`Progress`] in a file of the data directory; the
//! server's puzzles may use the same update and choice. Each attempt is a game against the
//! puzzle, whose rating is the set's: solved is a win, failed (a wrong move, the solution asked
//! for, or a hint taken) a loss, as on lichess.

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

use crate::search::puzzles::Puzzle;
use crate::search::rng::Rng;

/// A rating deviation above which a rating is provisional and shown with `?` (lichess's
/// threshold): about the deviation after a dozen games against settled players. The server's
/// game ratings follow the same rule, from here.
pub const PROVISIONAL: f64 = 110.0;

/// A rating as shown: `1500?` while provisional.
#[must_use]
pub fn shown_rating(rating: i64, provisional: bool) -> String {
    if provisional {
        format!("{rating}?")
    } else {
        rating.to_string()
    }
}

/// A change of rating with its sign: `+12`, `-7`, `+0`.
#[must_use]
pub fn signed(n: i64) -> String {
    if n < 0 {
        n.to_string()
    } else {
        format!("+{n}")
    }
}

/// The deviation given to a puzzle as an opponent: its rating comes from the set, settled
/// enough that the player's attempts move the player, not it.
pub const PUZZLE_DEVIATION: f64 = 80.0;

/// A puzzle attempted within this many days does not come back while others remain.
pub const RECENT_DAYS: u64 = 30;

/// The next puzzle is drawn among this many of those nearest the player's rating.
pub const NEAREST: usize = 8;

/// A Glicko-2 rating: 1500, deviation 350, volatility 0.06 at the start.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuzzleRating {
    /// The rating.
    pub rating: f64,
    /// Its deviation: how unsure it is.
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
}

impl Default for PuzzleRating {
    fn default() -> PuzzleRating {
        let start = Glicko2Rating::new();
        PuzzleRating {
            rating: start.rating,
            deviation: start.deviation,
            volatility: start.volatility,
        }
    }
}

impl PuzzleRating {
    /// Whether it is still provisional (its deviation above [`PROVISIONAL`]).
    #[must_use]
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL
    }

    /// The rating as shown: `1500?` while provisional, else `1623`.
    #[must_use]
    pub fn shown(&self) -> String {
        shown_rating(self.rating.round() as i64, self.provisional())
    }

    /// The rating after an attempt at a puzzle rated `puzzle`: `solved` a win, else a loss.
    #[must_use]
    pub fn after(&self, puzzle: u16, solved: bool) -> PuzzleRating {
        let player = Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        };
        let opponent = Glicko2Rating {
            rating: f64::from(puzzle),
            deviation: PUZZLE_DEVIATION,
            volatility: Glicko2Rating::new().volatility,
        };
        let outcome = if solved {
            Outcomes::WIN
        } else {
            Outcomes::LOSS
        };
        let (new, _) = glicko2(&player, &opponent, &outcome, &Glicko2Config::new());
        PuzzleRating {
            rating: new.rating,
            deviation: new.deviation,
            volatility: new.volatility,
        }
    }
}

/// One attempt at a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// The puzzle's id, such as `quentin-0017`.
    pub id: String,
    /// Whether it was solved (without a hint).
    pub solved: bool,
    /// When, in seconds since 1970 (UTC).
    pub at: u64,
}

/// A player's puzzle rating, streak and attempts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    /// The rating.
    pub rating: PuzzleRating,
    /// How many puzzles were solved in a row, up to now.
    pub streak: u32,
    /// Every attempt, the oldest first.
    pub attempts: Vec<Attempt>,
    /// The best Streak run and Storm score ([`crate::puzzle_modes`]), which leave the rating
    /// as it is.
    pub best: Bests,
    /// The player's own mistakes kept as exercises ([`crate::mistakes`]).
    pub mistakes: Vec<crate::mistakes::Mistake>,
}

/// The best runs of the unrated ways of taking the puzzles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bests {
    /// The most puzzles solved in one Streak.
    pub streak: u32,
    /// The most puzzles solved in one Storm.
    pub storm: u32,
}

/// What an attempt changed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Change {
    /// The rating before.
    pub before: PuzzleRating,
    /// The rating after (the same when the attempt was not rated).
    pub after: PuzzleRating,
    /// Whether it was rated: only the first attempt at a puzzle is, as on lichess.
    pub rated: bool,
}

impl Change {
    /// The change of the rating, rounded: `+12`, `-7`, `+0`.
    #[must_use]
    pub fn signed(&self) -> String {
        signed(self.after.rating.round() as i64 - self.before.rating.round() as i64)
    }
}

impl Progress {
    /// Notes an attempt at `puzzle` at time `at`: the rating moves on the first attempt at it
    /// only, the streak grows with a solve and goes back to 0 with a failure.
    pub fn record(&mut self, puzzle: &Puzzle, solved: bool, at: u64) -> Change {
        let before = self.rating;
        let rated = !self.attempted(&puzzle.id);
        if rated {
            self.rating = before.after(puzzle.rating, solved);
        }
        self.streak = if solved { self.streak + 1 } else { 0 };
        self.attempts.push(Attempt {
            id: puzzle.id.clone(),
            solved,
            at,
        });
        Change {
            before,
            after: self.rating,
            rated,
        }
    }

    /// Keeps `mistakes` with the failed puzzles at time `at`: each not kept yet is added, with
    /// a failed attempt (its first, so that it never moves the rating), and so `--again`
    /// offers it until it is solved. Returns how many were new.
    pub fn keep_mistakes(&mut self, mistakes: &[crate::mistakes::Mistake], at: u64) -> usize {
        let mut new = 0;
        for m in mistakes {
            if self.mistakes.iter().any(|k| k.id == m.id) {
                continue;
            }
            self.mistakes.push(m.clone());
            self.attempts.push(Attempt {
                id: m.id.clone(),
                solved: false,
                at,
            });
            new += 1;
        }
        new
    }

    /// Whether `id` was ever attempted.
    #[must_use]
    pub fn attempted(&self, id: &str) -> bool {
        self.attempts.iter().any(|a| a.id == id)
    }

    /// When `id` was last attempted.
    #[must_use]
    pub fn last_attempt(&self, id: &str) -> Option<u64> {
        self.attempts
            .iter()
            .filter(|a| a.id == id)
            .map(|a| a.at)
            .max()
    }

    /// The next puzzle among `puzzles` at time `now`: one not attempted within [`RECENT_DAYS`]
    /// days, drawn with `seed` among the [`NEAREST`] rated nearest the player; when every one
    /// was attempted that recently, the one attempted longest ago. `None` when `puzzles` is
    /// empty.
    #[must_use]
    pub fn choose<'a>(&self, puzzles: &'a [Puzzle], now: u64, seed: u64) -> Option<&'a Puzzle> {
        self.choose_near(puzzles, self.rating.rating, now, seed)
    }

    /// The ids of the puzzles whose last attempt failed, the most lately failed first: what
    /// `quentin puzzle --again` offers.
    #[must_use]
    pub fn failed(&self) -> Vec<&str> {
        let mut seen = std::collections::HashSet::new();
        self.attempts
            .iter()
            .rev()
            .filter(|a| seen.insert(a.id.as_str()) && !a.solved)
            .map(|a| a.id.as_str())
            .collect()
    }

    /// As [`Progress::choose`], near `target` instead of the player's rating (a difficulty,
    /// Streak's and Storm's rising ratings).
    #[must_use]
    pub fn choose_near<'a>(
        &self,
        puzzles: &'a [Puzzle],
        target: f64,
        now: u64,
        seed: u64,
    ) -> Option<&'a Puzzle> {
        let recent = RECENT_DAYS * 24 * 60 * 60;
        let fresh: Vec<&Puzzle> = puzzles
            .iter()
            .filter(|p| {
                self.last_attempt(&p.id)
                    .is_none_or(|at| now.saturating_sub(at) >= recent)
            })
            .collect();
        if fresh.is_empty() {
            return puzzles
                .iter()
                .min_by_key(|p| (self.last_attempt(&p.id).unwrap_or(0), p.id.clone()));
        }
        let mut near = fresh;
        let rating = target;
        // By distance to the rating, then by id: the same progress and seed give the same
        // puzzle.
        near.sort_by(|a, b| {
            let da = (f64::from(a.rating) - rating).abs();
            let db = (f64::from(b.rating) - rating).abs();
            da.total_cmp(&db).then_with(|| a.id.cmp(&b.id))
        });
        near.truncate(NEAREST);
        let mut rng = Rng::new(seed);
        near.get(rng.below(near.len())).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Action, Game, Point, Setup};
    use crate::search::puzzles::Goal;

    fn puzzle(id: &str, rating: u16) -> Puzzle {
        Puzzle {
            id: id.to_string(),
            setup: Setup::new(Game::Quentin),
            line: Vec::new(),
            solution: vec![Action::Place(Point::new(0, 0))],
            goal: Goal::Win,
            depth: 1,
            themes: vec!["win1"],
            rating,
        }
    }

    #[test]
    fn a_new_player_is_rated_1500_provisionally() {
        let progress = Progress::default();
        assert_eq!(progress.rating.shown(), "1500?");
        assert_eq!(progress.streak, 0);
    }

    #[test]
    fn a_solved_puzzle_raises_the_rating_and_a_failed_one_lowers_it() {
        let mut progress = Progress::default();
        let change = progress.record(&puzzle("quentin-0001", 1500), true, 10);
        assert!(change.rated);
        assert!(change.after.rating > 1500.0, "{change:?}");
        assert!(change.after.deviation < change.before.deviation);
        assert_eq!(progress.streak, 1);
        assert!(change.signed().starts_with('+'), "{}", change.signed());
        let change = progress.record(&puzzle("quentin-0002", 1500), false, 20);
        assert!(change.after.rating < change.before.rating, "{change:?}");
        assert!(change.signed().starts_with('-'), "{}", change.signed());
        assert_eq!(progress.streak, 0);
    }

    #[test]
    fn solving_a_hard_puzzle_gains_more_than_an_easy_one() {
        let start = PuzzleRating::default();
        let easy = start.after(1000, true).rating - start.rating;
        let hard = start.after(2000, true).rating - start.rating;
        assert!(hard > easy && easy > 0.0, "easy {easy}, hard {hard}");
    }

    #[test]
    fn only_the_first_attempt_at_a_puzzle_moves_the_rating() {
        let mut progress = Progress::default();
        let p = puzzle("quentin-0001", 1500);
        progress.record(&p, false, 10);
        let rating = progress.rating;
        let again = progress.record(&p, true, 20);
        assert!(!again.rated);
        assert_eq!(progress.rating, rating);
        assert_eq!(progress.streak, 1);
        assert_eq!(again.signed(), "+0");
    }

    #[test]
    fn the_rating_stops_being_provisional_after_enough_attempts() {
        let mut progress = Progress::default();
        for i in 0..40 {
            progress.record(&puzzle(&format!("quentin-{i:04}"), 1500), i % 2 == 0, i);
        }
        assert!(!progress.rating.provisional(), "{:?}", progress.rating);
        assert!(!progress.rating.shown().ends_with('?'));
    }

    #[test]
    fn the_next_puzzle_is_among_those_nearest_the_rating() {
        let puzzles: Vec<Puzzle> = (0..40)
            .map(|i| puzzle(&format!("quentin-{i:04}"), 1000 + 30 * i as u16))
            .collect();
        let progress = Progress::default();
        for seed in 0..50 {
            let chosen = progress.choose(&puzzles, 0, seed).unwrap();
            // 1500 is puzzle 16 or 17's neighbourhood: the 8 nearest are 1380..=1620.
            assert!((1380..=1620).contains(&chosen.rating), "{}", chosen.rating);
        }
        // The same seed, the same puzzle.
        assert_eq!(
            progress.choose(&puzzles, 0, 7).unwrap().id,
            progress.choose(&puzzles, 0, 7).unwrap().id
        );
    }

    #[test]
    fn the_failed_puzzles_are_those_whose_last_attempt_failed() {
        let mut progress = Progress::default();
        progress.record(&puzzle("a", 1500), false, 1);
        progress.record(&puzzle("b", 1500), false, 2);
        progress.record(&puzzle("c", 1500), true, 3);
        progress.record(&puzzle("a", 1500), true, 4);
        progress.record(&puzzle("d", 1500), false, 5);
        assert_eq!(progress.failed(), ["d", "b"]);
    }

    #[test]
    fn a_target_away_from_the_rating_draws_near_it() {
        let puzzles: Vec<Puzzle> = (0..40)
            .map(|i| puzzle(&format!("quentin-{i:04}"), 1000 + 30 * i as u16))
            .collect();
        let progress = Progress::default();
        for seed in 0..20 {
            let chosen = progress.choose_near(&puzzles, 1800.0, 0, seed).unwrap();
            assert!((1680..=1920).contains(&chosen.rating), "{}", chosen.rating);
        }
    }

    #[test]
    fn a_puzzle_attempted_lately_does_not_come_back_while_others_remain() {
        let puzzles = vec![puzzle("a", 1500), puzzle("b", 1500), puzzle("c", 2500)];
        let mut progress = Progress::default();
        let day = 24 * 60 * 60;
        progress.record(&puzzles[0], true, 0);
        progress.record(&puzzles[1], false, day);
        for seed in 0..20 {
            assert_eq!(progress.choose(&puzzles, 2 * day, seed).unwrap().id, "c");
        }
        progress.record(&puzzles[2], true, 2 * day);
        // All three lately: the one attempted longest ago.
        assert_eq!(progress.choose(&puzzles, 3 * day, 1).unwrap().id, "a");
        // After RECENT_DAYS days the first is fresh again, alone.
        let later = RECENT_DAYS * day + day / 2;
        assert_eq!(progress.choose(&puzzles, later, 1).unwrap().id, "a");
        assert!(progress.choose(&[], later, 1).is_none());
    }
}
