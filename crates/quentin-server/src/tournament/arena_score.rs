//! An arena's score: lichess's points, 2 a win and 1 a draw, doubled once a player has won two
//! in a row, until they fail to win. Below both the arena's pairing (`arena.rs`), which pairs by
//! it, and the standings (`standings.rs`), which rank by it.

use super::{Pairing, Played, Player};

/// A player's arena score so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Half points (a win is 2 points, 4 halves; 8 on a streak).
    pub halves: u32,
    /// Wins in a row at the end of the finished games.
    pub streak: u32,
    /// The opponent of the last game begun.
    pub last_opponent: Option<Player>,
}

impl Score {
    /// Whether the player's next win counts double.
    #[must_use]
    pub fn on_fire(&self) -> bool {
        self.streak >= 2
    }
}

/// `player`'s score from `played`, whose `round`s number the games in the order they began.
#[must_use]
pub fn score(player: Player, played: &[Played]) -> Score {
    let mut games: Vec<&Played> = played.iter().filter(|g| g.pairing.has(player)).collect();
    games.sort_by_key(|g| g.round);
    let mut score = Score::default();
    for game in games {
        let Pairing::Game { first, .. } = game.pairing else {
            continue;
        };
        score.last_opponent = game.opponent_of(player);
        let Some(result) = game.result else { continue };
        let got = result.halves_for(first == player);
        let times = if score.on_fire() { 2 } else { 1 };
        // Arena points are twice a game's points: a win 2, a draw 1.
        score.halves += got * 2 * times;
        score.streak = if got == 2 { score.streak + 1 } else { 0 };
    }
    score
}
