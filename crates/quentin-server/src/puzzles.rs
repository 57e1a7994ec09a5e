//! Puzzles on the server (issue 49), for the bot protocol and the puzzle screen alike: the
//! next puzzle near a player's puzzle rating, an answer judged move by move against the
//! proved solution (the search crate's [`answer`]), a wrong move refuted, and the attempt
//! rated by the store (both ratings, on the player's first attempt at the puzzle only); the
//! puzzle leaderboard. Nothing is kept between two answers: a line of moves is judged whole
//! each time, so any process answers it.

use std::fmt;

use quentin_app::puzzle_modes::Difficulty;
use quentin_app::search::puzzles::Puzzle;
use quentin_app::search::puzzles::answer::{self, Judged, LineError};
use quentin_rules::{Action, Game};

use super::hub::{Hub, PROVISIONAL, Refusal, shown_rating, signed};
use super::spec::shown;
use super::store::RatingRow;
use super::store::puzzles::{Attempt, Pool, PuzzleFound, PuzzleQuery, PuzzleRow, Rated};
use crate::ids::{Moment, PlayerId};

pub mod run;

/// A puzzle as a player is given it, with its rating now.
#[derive(Clone, Debug)]
pub struct Served {
    /// The puzzle, read from the store.
    pub puzzle: Puzzle,
    /// Its rating now.
    pub rating: RatingRow,
}

/// What a line of moves came to.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// Right so far: the opponent replied `reply`; the next move is awaited.
    Right {
        /// The opponent's reply.
        reply: Action,
    },
    /// Solved, the solution's last reply (if any) played.
    Solved {
        /// The opponent's last reply, when the solution ends with one.
        reply: Option<Action>,
        /// The ratings before and after.
        rated: Rated,
    },
    /// Failed: the wrong move, the opponent's refutation (if one was proved), the solution.
    Wrong {
        /// The opponent's reply that refutes it.
        refutation: Option<Action>,
        /// The ratings before and after.
        rated: Rated,
        /// The whole solution.
        solution: Vec<Action>,
    },
}

/// A puzzle request refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PuzzleRefusal {
    /// No puzzle of that id.
    NoSuchPuzzle(String),
    /// The player has attempted every puzzle (of that game).
    NoneLeft(Option<Game>),
    /// The player has no failed puzzle to take again.
    NoneFailed,
    /// No theme of that name.
    NoTheme(String),
    /// A line of moves that cannot be judged.
    BadLine(LineError),
    /// A puzzle the store holds that cannot be read: why.
    Damaged(String, String),
    /// The store refused or failed.
    Store(Refusal),
}

impl fmt::Display for PuzzleRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PuzzleRefusal::NoSuchPuzzle(id) => write!(f, "no puzzle {}", shown(id)),
            PuzzleRefusal::NoneLeft(None) => f.write_str("no puzzle left: you tried them all"),
            PuzzleRefusal::NoneLeft(Some(game)) => {
                write!(f, "no puzzle left: you tried every {} puzzle", game.title())
            }
            PuzzleRefusal::NoneFailed => f.write_str("no failed puzzle to take again"),
            PuzzleRefusal::NoTheme(word) => write!(
                f,
                "no theme {}: {}",
                shown(word),
                quentin_app::search::puzzles::THEMES
                    .iter()
                    .map(|(t, _)| *t)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            PuzzleRefusal::BadLine(e @ LineError::Illegal { .. }) => write!(f, "illegal move: {e}"),
            PuzzleRefusal::BadLine(e) => write!(f, "{e}"),
            PuzzleRefusal::Damaged(id, why) => write!(f, "puzzle {id} cannot be read: {why}"),
            PuzzleRefusal::Store(refusal) => write!(f, "{refusal}"),
        }
    }
}

impl From<Refusal> for PuzzleRefusal {
    fn from(refusal: Refusal) -> PuzzleRefusal {
        PuzzleRefusal::Store(refusal)
    }
}

/// The store's row made a puzzle.
fn served(row: PuzzleRow) -> Result<Served, PuzzleRefusal> {
    let puzzle = Puzzle::from_line(&row.line, row.game)
        .map_err(|why| PuzzleRefusal::Damaged(row.id.clone(), why))?;
    Ok(Served {
        puzzle,
        rating: row.rating,
    })
}

/// The next puzzle for `me` (of `game`, if given): the nearest to their puzzle rating moved
/// by `difficulty`'s offset (300 below, at, 300 above) among those they have not attempted.
///
/// # Errors
/// None left, or the store's refusal.
pub async fn next(
    hub: &Hub,
    me: PlayerId,
    game: Option<Game>,
    difficulty: Difficulty,
) -> Result<Served, PuzzleRefusal> {
    let target = match difficulty {
        Difficulty::Normal => None,
        harder_or_easier => Some(rating(hub, me).await?.rating + harder_or_easier.offset()),
    };
    find(
        hub,
        me,
        Wanted {
            game,
            target,
            ..Wanted::default()
        },
    )
    .await
}

/// What a player asks of the next puzzle ([`PuzzleQuery::Next`]).
#[derive(Clone, Debug, Default)]
pub struct Wanted {
    /// Only this game's.
    pub game: Option<Game>,
    /// The rating aimed at; the player's when none.
    pub target: Option<f64>,
    /// Only this theme's.
    pub theme: Option<String>,
    /// Untried, or failed.
    pub pool: Pool,
    /// Those left out.
    pub skip: Vec<String>,
}

/// The next puzzle for `me` that `wanted` asks.
///
/// # Errors
/// None left, or the store's refusal.
pub async fn find(hub: &Hub, me: PlayerId, wanted: Wanted) -> Result<Served, PuzzleRefusal> {
    let game = wanted.game;
    let query = PuzzleQuery::Next {
        player: me,
        game,
        target: wanted.target,
        theme: wanted.theme,
        pool: wanted.pool,
        skip: wanted.skip,
    };
    match hub.puzzle_query(query).await? {
        PuzzleFound::Puzzle(Some(row)) => served(row),
        _ if wanted.pool == Pool::Failed => Err(PuzzleRefusal::NoneFailed),
        _ => Err(PuzzleRefusal::NoneLeft(game)),
    }
}

/// The puzzle of `id`.
///
/// # Errors
/// No such puzzle, or the store's refusal.
pub async fn one(hub: &Hub, id: &str) -> Result<Served, PuzzleRefusal> {
    match hub.puzzle_query(PuzzleQuery::One(id.to_string())).await? {
        PuzzleFound::Puzzle(Some(row)) => served(row),
        _ => Err(PuzzleRefusal::NoSuchPuzzle(id.to_string())),
    }
}

/// The puzzle of the day `day` (days since 1970, UTC) of `game`: the same on every process
/// of a cluster.
///
/// # Errors
/// The store holds none of that game, or its refusal.
pub async fn daily(hub: &Hub, game: Game, day: i64) -> Result<Served, PuzzleRefusal> {
    match hub.puzzle_query(PuzzleQuery::Daily { game, day }).await? {
        PuzzleFound::Puzzle(Some(row)) => served(row),
        _ => Err(PuzzleRefusal::NoneLeft(Some(game))),
    }
}

/// `me`'s puzzle rating.
///
/// # Errors
/// The store's refusal.
pub async fn rating(hub: &Hub, me: PlayerId) -> Result<RatingRow, PuzzleRefusal> {
    match hub.puzzle_query(PuzzleQuery::Rating(me)).await? {
        PuzzleFound::Rating(r) => Ok(r),
        _ => Ok(RatingRow::default()),
    }
}

/// The players of the best puzzle ratings, best first, provisional ones left off.
///
/// # Errors
/// The store's refusal.
pub async fn leaders(hub: &Hub, most: usize) -> Result<Vec<(String, RatingRow)>, PuzzleRefusal> {
    let query = PuzzleQuery::Leaders {
        most,
        provisional: PROVISIONAL,
    };
    match hub.puzzle_query(query).await? {
        PuzzleFound::Leaders(rows) => Ok(rows),
        _ => Ok(Vec::new()),
    }
}

/// Judges `moves`, `me`'s moves in puzzle `id` (the replies left out), answered `from` an
/// address, and, once the puzzle is solved or failed, records the attempt: the ratings move
/// when it is `me`'s first at it and its solution was not shown to `from`'s network block
/// ([`crate::store::puzzles::decide`]).
///
/// # Errors
/// No such puzzle, a line that cannot be judged (a move not legal where it stands, more
/// moves than the solution has: nothing recorded), or the store's refusal.
pub async fn solve(
    hub: &Hub,
    me: PlayerId,
    from: Option<std::net::IpAddr>,
    id: &str,
    moves: &[Action],
    now: Moment,
) -> Result<Outcome, PuzzleRefusal> {
    let Served { puzzle, .. } = one(hub, id).await?;
    let judged = answer::judge(&puzzle, moves).map_err(PuzzleRefusal::BadLine)?;
    let block = block_words(from);
    let attempt = |solved| Attempt {
        player: me,
        block: block.clone(),
        puzzle: puzzle.id.clone(),
        solved,
        at: now,
    };
    Ok(match judged {
        Judged::Right { reply } => Outcome::Right { reply },
        Judged::Solved { reply } => Outcome::Solved {
            reply,
            rated: hub.puzzle_attempt(attempt(true)).await?,
        },
        Judged::Wrong { at, after } => {
            let rated = hub.puzzle_attempt(attempt(false)).await?;
            let solution = puzzle.solution.clone();
            // The solver's work, off the sessions' threads.
            let refutation = tokio::task::spawn_blocking(move || {
                // A few tenths of a second at most, on a thread apart from the sessions'.
                answer::refutation(&puzzle, at, &after, answer::REFUTATION_NODES).map(|r| r.reply)
            })
            .await
            .ok()
            .flatten();
            Outcome::Wrong {
                refutation,
                rated,
                solution,
            }
        }
    })
}

/// The network block of the address `from`, as the store keeps it (`-` unknown).
#[must_use]
pub fn block_words(from: Option<std::net::IpAddr>) -> String {
    from.map_or_else(|| "-".to_string(), |a| crate::gate::block_of(a).to_string())
}

/// A rating as shown: rounded, `?` while provisional.
#[must_use]
pub fn shown_puzzle_rating(r: &RatingRow) -> String {
    shown_rating(r.rating.round() as i64, r.deviation > PROVISIONAL)
}

/// A rating's change, rounded as shown: `+12`, `-7`, `+0`.
#[must_use]
pub fn change(before: &RatingRow, after: &RatingRow) -> String {
    signed(after.rating.round() as i64 - before.rating.round() as i64)
}
