//! The baseline players `quentin match` measures the search against: `random`, and `greedy`
//! (wins at once when it can, else avoids the actions that let the opponent win at once, else
//! plays at random).

use crate::rng::Rng;
use quentin_rules::{Action, Position};

/// A baseline player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Baseline {
    /// Every legal action equally likely.
    Random,
    /// An immediate win if there is one; else a random action after which the opponent has no
    /// immediate win, if there is one; else any random action.
    Greedy,
}

impl Baseline {
    /// The player's name on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Baseline::Random => "random",
            Baseline::Greedy => "greedy",
        }
    }

    /// The action this player chooses, `None` once the game is over.
    #[must_use]
    pub fn choose(self, position: &Position, rng: &mut Rng) -> Option<Action> {
        let legal = position.legal_actions();
        if legal.is_empty() {
            return None;
        }
        if self == Baseline::Random {
            return Some(legal[rng.below(legal.len())]);
        }
        if let Some(&win) = legal.iter().find(|&&a| wins_at_once(position, a)) {
            return Some(win);
        }
        let safe: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|&a| {
                let mut after = position.clone();
                after.play(a).is_ok()
                    && !after
                        .legal_actions()
                        .into_iter()
                        .any(|reply| wins_at_once(&after, reply))
            })
            .collect();
        let pool = if safe.is_empty() { &legal } else { &safe };
        Some(pool[rng.below(pool.len())])
    }
}

/// Whether `action` wins the game at once for the person who plays it (a swap never does).
#[must_use]
pub fn wins_at_once(position: &Position, action: Action) -> bool {
    let Some(mover) = position.to_move() else {
        return false;
    };
    let mut after = position.clone();
    action != Action::Swap && after.play(action).is_ok() && after.winner() == Some(mover)
}

#[cfg(test)]
mod tests {
    use super::*;
    use quentin_rules::{Board, Color, Game, Point, Setup};

    fn at(p: &str) -> Action {
        Action::Place(Point::parse(p).unwrap())
    }

    #[test]
    fn greedy_wins_at_once_and_blocks() {
        // Black to move joins a1..a3 top to bottom with a2... a column of three on 3x3.
        let board = Board::from_rows("B..|...|B..").unwrap();
        let pos = Setup::new(Game::Quentin)
            .start_from(board, Color::Black)
            .unwrap();
        let mut rng = Rng::new(1);
        for _ in 0..10 {
            assert_eq!(Baseline::Greedy.choose(&pos, &mut rng), Some(at("a2")));
        }
        // White to move must block a2, else Black wins at once.
        let board = Board::from_rows("B..|...|B..").unwrap();
        let pos = Setup::new(Game::Quentin)
            .start_from(board, Color::White)
            .unwrap();
        for _ in 0..10 {
            let a = Baseline::Greedy.choose(&pos, &mut rng).unwrap();
            let mut after = pos.clone();
            after.play(a).unwrap();
            assert!(!wins_at_once(&after, at("a2")), "{a}");
        }
    }
}
