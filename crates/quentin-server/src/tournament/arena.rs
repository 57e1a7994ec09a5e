//! An arena: for a fixed time, a player who finishes a game is paired at once with another
//! who is waiting, of the nearest score, never the opponent they have just played (unless
//! they are the only two left). Points are lichess's: 2 a win, 1 a draw, doubled once a player
//! has won two in a row, until they fail to win. A paused player is not paired; the director
//! leaves them out of the waiting.

pub use super::arena_score::{Score, score};
use super::standings::Tally;
use super::{Pairing, Played, Player};

/// A player free for a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waiting {
    /// Who.
    pub player: Player,
    /// Their arena score.
    pub score: Score,
    /// How many more times they moved first than second.
    pub balance: i32,
}

impl Waiting {
    /// `player`, free, with what `played` says of them.
    #[must_use]
    pub fn from_played(player: Player, played: &[Played]) -> Waiting {
        let tally: Tally = super::standings::tallies(&[player], played)
            .remove(&player)
            .unwrap_or_default();
        Waiting {
            player,
            score: score(player, played),
            balance: tally.balance(),
        }
    }
}

/// The games to begin among `waiting` (in the order they came to wait, which breaks ties):
/// from the best score down, each with the nearest score that is not an immediate rematch.
/// `alone`: only these two players are left in the arena, and they may meet again at once.
/// Whoever is left over waits for the next game to end.
#[must_use]
pub fn pair(waiting: &[Waiting], alone: bool) -> Vec<Pairing> {
    let mut order: Vec<&Waiting> = waiting.iter().collect();
    order.sort_by_key(|w| std::cmp::Reverse(w.score.halves));
    let mut taken = vec![false; order.len()];
    let mut games = Vec::new();
    for i in 0..order.len() {
        if taken[i] {
            continue;
        }
        let me = order[i];
        let rematch = |other: &Waiting| {
            !alone
                && (me.score.last_opponent == Some(other.player)
                    || other.score.last_opponent == Some(me.player))
        };
        let best = (i + 1..order.len())
            .filter(|j| !taken[*j] && !rematch(order[*j]))
            .min_by_key(|j| me.score.halves.abs_diff(order[*j].score.halves));
        let Some(j) = best else { continue };
        taken[i] = true;
        taken[j] = true;
        let other = order[j];
        // Whoever moved first less often moves first; the better placed when even.
        let (first, second) = if other.balance < me.balance {
            (other.player, me.player)
        } else {
            (me.player, other.player)
        };
        games.push(Pairing::Game { first, second });
    }
    games
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::PlayerId;
    use crate::tournament::GameResult::{Draw, FirstWon, SecondWon};

    fn game(round: u32, first: i64, second: i64, result: crate::tournament::GameResult) -> Played {
        Played {
            round,
            pairing: Pairing::Game {
                first: PlayerId(first),
                second: PlayerId(second),
            },
            result: Some(result),
        }
    }

    #[test]
    fn two_wins_in_a_row_double_the_points_until_a_game_is_not_won() {
        let played = [
            game(1, 1, 2, FirstWon),  // 2
            game(2, 3, 1, SecondWon), // 2, now on fire
            game(3, 1, 4, FirstWon),  // 4
            game(4, 5, 1, Draw),      // 2, the streak ends
            game(5, 1, 2, FirstWon),  // 2
            game(6, 1, 3, SecondWon), // 0
        ];
        let s = score(PlayerId(1), &played);
        assert_eq!(s.halves, 2 * (2 + 2 + 4 + 2 + 2));
        assert_eq!(s.streak, 0);
        assert_eq!(s.last_opponent, Some(PlayerId(3)));
        assert!(score(PlayerId(1), &played[..3]).on_fire());
    }

    #[test]
    fn the_waiting_meet_the_nearest_score_but_never_their_last_opponent_at_once() {
        let played = [
            game(1, 1, 2, FirstWon),
            game(2, 3, 4, FirstWon),
            game(3, 5, 6, SecondWon),
        ];
        let waiting: Vec<Waiting> = (1..=6)
            .map(|p| Waiting::from_played(PlayerId(p), &played))
            .collect();
        let games = pair(&waiting, false);
        // Winners 1, 3, 6; losers 2, 4, 5. 1 meets 3 (nearest, not its last), 6 the first
        // loser it has not just met, 2; then 4 and 5.
        assert_eq!(games.len(), 3);
        for g in &games {
            for p in &played {
                let Pairing::Game { first, second } = *g else {
                    panic!("no byes in an arena")
                };
                assert!(!p.met(first, second), "{g:?} is a rematch");
            }
        }
        assert!(
            games
                .iter()
                .any(|g| g.has(PlayerId(1)) && g.has(PlayerId(3)))
        );
        // The last two, who just met, wait; alone in the arena they meet again.
        let two: Vec<Waiting> = [1, 2]
            .map(|p| Waiting::from_played(PlayerId(p), &played))
            .to_vec();
        assert!(pair(&two, false).is_empty());
        assert_eq!(pair(&two, true).len(), 1);
    }

    #[test]
    fn whoever_moved_first_less_often_moves_first() {
        let played = [game(1, 1, 2, FirstWon), game(2, 3, 4, SecondWon)];
        let waiting = [
            Waiting::from_played(PlayerId(1), &played),
            Waiting::from_played(PlayerId(4), &played),
        ];
        // 1 and 4 have 2 points each; 1 moved first, 4 second.
        assert_eq!(
            pair(&waiting, false),
            [Pairing::Game {
                first: PlayerId(4),
                second: PlayerId(1)
            }]
        );
    }
}
