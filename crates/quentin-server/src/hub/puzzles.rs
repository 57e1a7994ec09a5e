//! The hub's way to the puzzles in the store: the shipped set loaded, questions answered from
//! the rows as they are now, attempts committed; and the puzzle leaderboard the lobby shows,
//! kept in memory (read again after each attempt here and whenever a lobby opens, so that
//! the attempts on other processes show there too).
//!
//! The `Hub` methods here: `add_puzzles`, `puzzle_query`, `puzzle_attempt`,
//! `refresh_puzzle_leaders`, `puzzle_leaders`, `puzzle_bests`, `keep_puzzle_runs`.

use super::views::PROVISIONAL;
use super::{Hub, Refusal};
use crate::ids::PlayerId;
use crate::store::bests::Runs;
use crate::store::puzzles::{Attempt, PuzzleFound, PuzzleQuery, PuzzleRow, Rated};
use crate::store::{Applied, Change, RatingRow, StoreDown};
use quentin_app::puzzle_rating::Bests;

/// The lines of the puzzle leaderboard the lobby shows.
pub const LOBBY_LEADERS: usize = 5;

impl Hub {
    /// Adds the puzzles of `rows` that the store does not hold yet, by id; those it holds keep
    /// their ratings.
    ///
    /// # Errors
    /// When the store cannot save them.
    pub async fn add_puzzles(&self, rows: Vec<PuzzleRow>) -> Result<(), Refusal> {
        self.commit(Change::AddPuzzles(rows), Vec::new(), |_, _| Ok(()))
            .await?;
        self.refresh_puzzle_leaders().await;
        Ok(())
    }

    /// The store's answer to `query`, from its rows as they are now.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn puzzle_query(&self, query: PuzzleQuery) -> Result<PuzzleFound, Refusal> {
        let (answer, answered) = tokio::sync::oneshot::channel();
        self.store.puzzles(
            query,
            Box::new(move |found| {
                let _ = answer.send(found);
            }),
        );
        match answered.await {
            Ok(Ok(found)) => Ok(found),
            Ok(Err(e)) if e.downcast_ref::<StoreDown>().is_some() => {
                tracing::error!("{e:#}");
                Err(Refusal::Unreachable)
            }
            Ok(Err(e)) => {
                tracing::error!("the store cannot read the puzzles: {e:#}");
                Err(Refusal::NotSaved)
            }
            Err(_) => Err(Refusal::NotSaved),
        }
    }

    /// Commits `attempt`: the ratings before and after (moved on the player's first attempt at
    /// the puzzle only).
    ///
    /// # Errors
    /// When the store cannot save it.
    pub async fn puzzle_attempt(&self, attempt: Attempt) -> Result<Rated, Refusal> {
        let rated = self
            .commit(
                Change::Attempt(attempt),
                Vec::new(),
                |_, applied| match applied {
                    Applied::Attempted(rated) => Ok(rated),
                    _ => Err(Refusal::NotSaved),
                },
            )
            .await?;
        if rated.first {
            self.refresh_puzzle_leaders().await;
        }
        Ok(rated)
    }

    /// Reads the puzzle leaderboard again from the store, for the lobby; the lobbies are told
    /// when it changed. Kept as it was when the store cannot be read.
    pub async fn refresh_puzzle_leaders(&self) {
        let query = PuzzleQuery::Leaders {
            most: LOBBY_LEADERS,
            provisional: PROVISIONAL,
        };
        if let Ok(PuzzleFound::Leaders(rows)) = self.puzzle_query(query).await {
            let mut inner = self.lock();
            if inner.puzzle_leaders != rows {
                inner.puzzle_leaders = rows;
                inner.lobby_changed();
            }
        }
    }

    /// The best puzzle ratings, best first, as last read ([`Hub::refresh_puzzle_leaders`]).
    #[must_use]
    pub fn puzzle_leaders(&self) -> Vec<(String, RatingRow)> {
        self.lock().puzzle_leaders.clone()
    }

    /// `player`'s best Streak and Storm.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn puzzle_bests(&self, player: PlayerId) -> Result<Bests, Refusal> {
        match self.puzzle_query(PuzzleQuery::Bests(player)).await? {
            PuzzleFound::Bests(bests) => Ok(bests),
            _ => Err(Refusal::NotSaved),
        }
    }

    /// Commits a player's runs: each best raised when the run's is higher.
    ///
    /// # Errors
    /// When the store cannot save them.
    pub async fn keep_puzzle_runs(&self, runs: Runs) -> Result<(), Refusal> {
        self.commit(Change::PuzzleBests(runs), Vec::new(), |_, _| Ok(()))
            .await
    }
}
