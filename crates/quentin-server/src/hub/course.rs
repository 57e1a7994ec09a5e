//! The hub's way to the course's progress in the store (issue 60): a player's stars read when
//! their course opens, from the rows as they are now (a level solved on another process
//! counts), and a level solved committed as it is solved.
//!
//! The `Hub` methods here: `course_stars`, `course_solved`.

use super::{Hub, Refusal};
use crate::ids::PlayerId;
use crate::store::Change;
use crate::store::course::{Solved, Stars};
use crate::store::puzzles::{PuzzleFound, PuzzleQuery};

impl Hub {
    /// `player`'s stars in the course, each level solved.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn course_stars(&self, player: PlayerId) -> Result<Stars, Refusal> {
        match self.puzzle_query(PuzzleQuery::Course(player)).await? {
            PuzzleFound::Course(stars) => Ok(stars),
            _ => Err(Refusal::NotSaved),
        }
    }

    /// Commits a level solved: its stars kept, or raised when better than those kept.
    ///
    /// # Errors
    /// When the store cannot save it.
    pub async fn course_solved(&self, solved: Solved) -> Result<(), Refusal> {
        self.commit(Change::Course(solved), Vec::new(), |_, _| Ok(()))
            .await
    }
}
