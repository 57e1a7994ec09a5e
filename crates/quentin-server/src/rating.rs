//! A rated game's effect on its two players' Glicko-2 ratings (the `skillratings` crate), in
//! one place: the hub computes it for its own memory, and the store on PostgreSQL computes it
//! again from the rows it locks in the transaction that ends the game, so that two games of one
//! player ending at once on two processes both count.

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

use super::store::RatingRow;

/// The two players' ratings after their game, from `before` (player 1's first), seat
/// `winner` having won (`None`: a draw).
#[must_use]
pub fn after_game(before: [RatingRow; 2], winner: Option<usize>) -> [RatingRow; 2] {
    let [a, b] = before;
    let glicko = |r: RatingRow| Glicko2Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    };
    let outcome = match winner {
        Some(0) => Outcomes::WIN,
        Some(_) => Outcomes::LOSS,
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
