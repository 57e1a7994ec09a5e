//! The puzzles in the store (issue 49): the shipped set, loaded at every start (by puzzle id:
//! a puzzle the store holds keeps its rating); each player's puzzle rating; each player's first
//! attempt at each puzzle. Both ratings move after a player's first attempt at a puzzle only,
//! as on lichess, computed by the store from its own rows in the attempt's transaction, so
//! that attempts from several processes at one puzzle all count.

use quentin_rules::Game;

use super::RatingRow;
use crate::ids::{Moment, PlayerId};

/// A puzzle's rating deviation at the start: its shipped rating is an estimate (the computer
/// level that finds the move), surer than nothing known, so it starts below a player's 350
/// and a newcomer's first attempt moves it less than their own.
pub const PUZZLE_DEVIATION: f64 = 200.0;

/// A puzzle as the store keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRow {
    /// Its id in the shipped set, `quentin-0017`.
    pub id: String,
    /// Its game.
    pub game: Game,
    /// The puzzle, as its line in the set's file (docs/puzzles.md).
    pub line: String,
    /// Its rating now; `games` counts the first attempts.
    pub rating: RatingRow,
}

impl PuzzleRow {
    /// A puzzle of the shipped set as the store starts it: at its shipped rating.
    #[must_use]
    pub fn shipped(puzzle: &quentin_app::search::puzzles::Puzzle) -> PuzzleRow {
        PuzzleRow {
            id: puzzle.id.clone(),
            game: puzzle.setup.game,
            line: puzzle.to_line(),
            rating: RatingRow {
                rating: f64::from(puzzle.rating),
                deviation: PUZZLE_DEVIATION,
                ..RatingRow::default()
            },
        }
    }
}

/// A player's answer to a puzzle, once it is decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// The player.
    pub player: PlayerId,
    /// The network block the player answered from (`crate::gate::block_of`), `-` unknown.
    pub block: String,
    /// The puzzle's id.
    pub puzzle: String,
    /// Solved, or failed (which shows the solution).
    pub solved: bool,
    /// When (ms since the epoch).
    pub at: Moment,
}

/// What an attempt did to the ratings: each before and after (equal when not the first, or
/// not rated).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rated {
    /// Whether it was the player's first attempt at the puzzle: only that one moves them.
    pub first: bool,
    /// Why a first attempt moved nothing, if it did not.
    pub unrated: Option<Unrated>,
    /// The player's puzzle rating, before and after.
    pub player: [RatingRow; 2],
    /// The puzzle's rating, before and after.
    pub puzzle: [RatingRow; 2],
}

/// Why a player's first attempt at a puzzle is not rated: its solution was shown to a key of
/// the player's own network block (a failed attempt shows it), at any time, so that a second
/// key cannot farm the rating from what a first one was shown (issue 59). A window in which a
/// solution shown to anyone leaves the puzzle unrated for everybody was weighed and left out:
/// on a server where players of like ratings are offered the same puzzles, most puzzles would
/// be unrated most of the time, and a farmer's keys on two networks are bounded by
/// [`MOST_PLAYER_CHANGE`] all the same (docs/puzzles.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unrated {
    /// Shown to a key of the player's own network block.
    ShownNearby,
}

impl Unrated {
    /// The reason in words, for the screens.
    #[must_use]
    pub fn words(self) -> &'static str {
        match self {
            Unrated::ShownNearby => "its solution was shown on your network",
        }
    }
}

/// The most a player's puzzle rating moves in one attempt, either way: lichess bounds its
/// puzzle ratings' moves likewise, so that no run of attempts, however lucky, lifts a new
/// key to the top of the leaderboard in a few minutes.
pub const MOST_PLAYER_CHANGE: f64 = 50.0;

/// How much a provisional player's attempt counts in the puzzle's own rating (an established
/// player's counts whole): fresh keys cannot push a puzzle's rating about.
pub const FRESH_WEIGHT: f64 = 0.2;

/// What the store read for an attempt, in the attempt's transaction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttemptFacts {
    /// Whether it is the player's first attempt at the puzzle.
    pub first: bool,
    /// Whether the solution was shown before to the attempt's network block.
    pub shown_nearby: bool,
    /// The player's puzzle rating.
    pub player: RatingRow,
    /// The puzzle's rating.
    pub puzzle: RatingRow,
}

/// Decides what an attempt does to both ratings from the facts the store read: one function
/// for both stores, which then write what it gives (when `rated.unrated` is none and
/// `rated.first`). `provisional` is the deviation above which a player's rating is provisional.
#[must_use]
pub fn decide(facts: AttemptFacts, solved: bool, provisional: f64) -> Rated {
    let unchanged = |unrated| Rated {
        first: facts.first,
        unrated,
        player: [facts.player; 2],
        puzzle: [facts.puzzle; 2],
    };
    if !facts.first {
        return unchanged(None);
    }
    if facts.shown_nearby {
        return unchanged(Some(Unrated::ShownNearby));
    }
    let [mut p, mut q] = crate::rating::after_puzzle(facts.player, facts.puzzle, solved);
    let before = facts.player.rating;
    p.rating = p
        .rating
        .clamp(before - MOST_PLAYER_CHANGE, before + MOST_PLAYER_CHANGE);
    if facts.player.deviation > provisional {
        let was = facts.puzzle;
        q.rating = was.rating + FRESH_WEIGHT * (q.rating - was.rating);
        q.deviation = was.deviation + FRESH_WEIGHT * (q.deviation - was.deviation);
        q.volatility = was.volatility + FRESH_WEIGHT * (q.volatility - was.volatility);
    }
    Rated {
        first: true,
        unrated: None,
        player: [facts.player, p],
        puzzle: [facts.puzzle, q],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts() -> AttemptFacts {
        AttemptFacts {
            first: true,
            shown_nearby: false,
            player: RatingRow::default(),
            puzzle: RatingRow {
                rating: 1500.0,
                deviation: PUZZLE_DEVIATION,
                ..RatingRow::default()
            },
        }
    }

    #[test]
    fn a_solution_seen_nearby_leaves_both_ratings_alone_either_way() {
        for solved in [true, false] {
            let facts = AttemptFacts {
                shown_nearby: true,
                ..facts()
            };
            let rated = decide(facts, solved, 110.0);
            assert_eq!(rated.unrated, Some(Unrated::ShownNearby));
            assert_eq!(rated.player[0], rated.player[1]);
            assert_eq!(rated.puzzle[0], rated.puzzle[1]);
        }
    }

    #[test]
    fn a_first_attempt_moves_the_player_at_most_the_bound_and_a_fresh_key_moves_the_puzzle_less() {
        let rated = decide(facts(), true, 110.0);
        assert_eq!(rated.unrated, None);
        let rise = rated.player[1].rating - rated.player[0].rating;
        assert!(rise > 0.0 && rise <= MOST_PLAYER_CHANGE, "{rise}");
        let fall = rated.puzzle[0].rating - rated.puzzle[1].rating;
        // Unweighted, Glicko-2 moves the puzzle by tens of points against a fresh key.
        let [_, whole] = crate::rating::after_puzzle(facts().player, facts().puzzle, true);
        let full = facts().puzzle.rating - whole.rating;
        assert!(
            fall > 0.0 && (fall - FRESH_WEIGHT * full).abs() < 1e-9,
            "{fall} {full}"
        );
        // An established player's attempt counts whole.
        let sure = AttemptFacts {
            player: RatingRow {
                deviation: 60.0,
                ..RatingRow::default()
            },
            ..facts()
        };
        let rated = decide(sure, false, 110.0);
        let [_, whole] = crate::rating::after_puzzle(sure.player, sure.puzzle, false);
        assert_eq!(rated.puzzle[1], whole);
    }

    #[test]
    fn the_days_run_through_the_set_and_neighbouring_days_differ() {
        let count = 331;
        let days: std::collections::HashSet<i64> = (20_000..20_000 + count)
            .map(|d| daily_offset(d, count))
            .collect();
        assert_eq!(
            days.len() as i64,
            count,
            "every puzzle once in {count} days"
        );
        for d in 20_000..20_100 {
            let (a, b) = (daily_offset(d, count), daily_offset(d + 1, count));
            assert!((a - b).abs() > 1, "days {d} and {}: {a} and {b}", d + 1);
        }
        assert_eq!(daily_offset(5, 0), 0);
        assert!((0..7).contains(&daily_offset(-3, 7)));
    }

    #[test]
    fn a_retry_moves_nothing() {
        let rated = decide(
            AttemptFacts {
                first: false,
                ..facts()
            },
            true,
            110.0,
        );
        assert_eq!((rated.first, rated.unrated), (false, None));
        assert_eq!(rated.player[0], rated.player[1]);
    }
}

/// A question about puzzles (or the course's progress, which rides with them), answered from the store's rows as they are now (several
/// processes share them).
#[derive(Clone, Debug, PartialEq)]
pub enum PuzzleQuery {
    /// The puzzle of the `pool`, of `game` and `theme` if given, left out those in `skip`,
    /// whose rating is nearest to `target` (the player's puzzle rating when none); among
    /// equals, the first by id.
    Next {
        /// The player.
        player: PlayerId,
        /// Only this game's.
        game: Option<Game>,
        /// The rating aimed at (a difficulty's: the player's rating moved by its offset).
        target: Option<f64>,
        /// Only puzzles of this theme (docs/puzzles.md's names).
        theme: Option<String>,
        /// Those the player has not attempted, or those they failed.
        pool: Pool,
        /// Left out: the puzzles given already on this visit.
        skip: Vec<String>,
    },
    /// The puzzle of this id.
    One(String),
    /// The player's puzzle rating (1500, RD 350 before any attempt).
    Rating(PlayerId),
    /// The players of the best puzzle ratings, best first, at most `most`, those whose rating
    /// deviation is above `provisional` left off.
    Leaders {
        /// How many at most.
        most: usize,
        /// The deviation above which a rating is provisional.
        provisional: f64,
    },
    /// The player's stars in the course, each level solved ([`super::course`]).
    Course(PlayerId),
    /// The puzzle of the day `day` (days since 1970, UTC) of `game`: the same on every
    /// process that holds the same set ([`daily_offset`]).
    Daily {
        /// Its game.
        game: Game,
        /// The day.
        day: i64,
    },
    /// The vacation days the player took in the year ([`super::vacation`]).
    Vacation(PlayerId, i32),
    /// The player's best Streak and Storm ([`super::bests`]).
    Bests(PlayerId),
}

/// How many puzzles of a game the store holds (`$1` the game's name): the daily choice's
/// span. One statement for both stores.
pub const DAILY_COUNT: &str = "SELECT count(*) FROM puzzles WHERE game = $1";

/// The puzzle of a game (`$1`) at an offset (`$2`) in the order of the ids.
pub const DAILY_AT: &str = "SELECT id, game, line, rating, deviation, volatility, attempts \
    FROM puzzles WHERE game = $1 ORDER BY id LIMIT 1 OFFSET $2";

/// Where the puzzle of day `day` stands among `count` puzzles ordered by id: a step of a
/// large odd number a day, so that the days run through the whole set before one comes
/// again (when `count` is odd or a power of two…) and neighbours by id (generated together,
/// often alike) are not shown on neighbouring days. 0 for an empty set.
#[must_use]
pub fn daily_offset(day: i64, count: i64) -> i64 {
    if count <= 0 {
        return 0;
    }
    (i128::from(day) * 40_503 % i128::from(count)).rem_euclid(i128::from(count)) as i64
}

/// Which puzzles [`PuzzleQuery::Next`] chooses from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pool {
    /// Those the player has not attempted.
    #[default]
    Untried,
    /// Those whose (first) attempt the player failed: their failed puzzles again.
    Failed,
}

impl Pool {
    /// The condition on the puzzle `p` for the player `$1`, the same in both stores.
    #[must_use]
    pub fn condition(self) -> &'static str {
        match self {
            Pool::Untried => {
                "NOT EXISTS (SELECT 1 FROM puzzle_attempts a WHERE a.player = $1 AND a.puzzle = p.id)"
            }
            Pool::Failed => {
                "EXISTS (SELECT 1 FROM puzzle_attempts a
                         WHERE a.player = $1 AND a.puzzle = p.id AND NOT a.solved)"
            }
        }
    }
}

/// Whether the puzzle `id`, whose line in the set's file is `line`, is one a
/// [`PuzzleQuery::Next`] of `theme` and `skip` keeps: the theme among its `themes` field's,
/// and not skipped. Both stores filter their rows, nearest first, with it.
#[must_use]
pub fn wanted(id: &str, line: &str, theme: Option<&str>, skip: &[String]) -> bool {
    if skip.iter().any(|s| s == id) {
        return false;
    }
    let Some(theme) = theme else {
        return true;
    };
    line.split(';')
        .filter_map(|field| field.trim().strip_prefix("themes "))
        .any(|themes| themes.split_whitespace().any(|t| t == theme))
}

/// The store's answer to a [`PuzzleQuery`].
#[derive(Clone, Debug, PartialEq)]
pub enum PuzzleFound {
    /// A puzzle, if there is one.
    Puzzle(Option<PuzzleRow>),
    /// A rating.
    Rating(RatingRow),
    /// The leaderboard: names and ratings, best first.
    Leaders(Vec<(String, RatingRow)>),
    /// A player's stars in the course.
    Course(super::course::Stars),
    /// The vacation days a player took in a year.
    Vacation(u32),
    /// A player's best Streak and Storm.
    Bests(quentin_app::puzzle_rating::Bests),
}
