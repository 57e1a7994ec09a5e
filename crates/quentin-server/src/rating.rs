//! A rated game's effect on its two players' Glicko-2 ratings (the `skillratings` crate), in
//! one place: the hub computes it for its own memory, and the store on PostgreSQL computes it
//! again from the rows it locks in the transaction that ends the game, so that two games of one
//! player ending at once on two processes both count.

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

use crate::ids::Seat;

/// A rating: Glicko-2's three numbers and the games it counts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingRow {
    /// The rating, 1500 to start.
    pub rating: f64,
    /// Its deviation, 350 to start.
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
    /// Rated games played.
    pub games: i64,
}

impl Default for RatingRow {
    fn default() -> RatingRow {
        RatingRow {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
            games: 0,
        }
    }
}

/// The two players' ratings after their game, from `before` (player 1's first), seat
/// `winner` having won (`None`: a draw).
#[must_use]
pub fn after_game(before: [RatingRow; 2], winner: Option<Seat>) -> [RatingRow; 2] {
    let [a, b] = before;
    let glicko = |r: RatingRow| Glicko2Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    };
    let outcome = match winner {
        Some(Seat::First) => Outcomes::WIN,
        Some(Seat::Second) => Outcomes::LOSS,
        None => Outcomes::DRAW,
    };
    let (na, nb) = glicko2(&glicko(a), &glicko(b), &outcome, &Glicko2Config::new());
    let back = |n: Glicko2Rating, old: RatingRow| RatingRow {
        rating: n.rating,
        deviation: n.deviation,
        volatility: n.volatility,
        games: old.games + 1,
    };
    [back(na, a), back(nb, b)]
}

/// A player's and a puzzle's ratings after the player's first attempt at it, from `before`:
/// solved is a win against the puzzle, failed a loss, as on lichess. The store computes it
/// from its own rows, in the attempt's transaction.
#[must_use]
pub fn after_puzzle(player: RatingRow, puzzle: RatingRow, solved: bool) -> [RatingRow; 2] {
    after_game(
        [player, puzzle],
        Some(if solved { Seat::First } else { Seat::Second }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A solved puzzle is the player's win: the player rises, the puzzle falls, both by the
    /// same points when their deviations are equal; a failed one the other way; each counts
    /// one attempt more.
    #[test]
    fn a_first_attempt_moves_the_player_and_the_puzzle_the_opposite_ways() {
        let puzzle = RatingRow {
            rating: 1480.0,
            ..RatingRow::default()
        };
        let [p, q] = after_puzzle(RatingRow::default(), puzzle, true);
        assert!(p.rating > 1500.0 && q.rating < 1480.0, "{p:?} {q:?}");
        assert!(((p.rating - 1500.0) - (1480.0 - q.rating)).abs() < 1e-6);
        assert_eq!((p.games, q.games), (1, 1));
        let [p, q] = after_puzzle(RatingRow::default(), puzzle, false);
        assert!(p.rating < 1500.0 && q.rating > 1480.0, "{p:?} {q:?}");
    }
}
