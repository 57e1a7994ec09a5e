//! Playout policies: how a simulation plays a position to its end (or to a cut with an estimate).

use crate::rng::Rng;
use quentin_rules::{Action, Captures, Color, Game, Point, Position, QuentinStones};

/// How playouts choose their actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Policy {
    /// Every legal action of a turn equally likely, to the end of the game (Quint lists every
    /// capture subset as an action: slow).
    Uniform,
    /// The search's own: the connection games as `Uniform`; Quint picks a step uniformly and
    /// then takes every piece the step may capture, and long games are cut at
    /// [`QUINT_CUT`] actions of the move phase with an estimate from the pieces left.
    #[default]
    Search,
}

impl Policy {
    /// The name used on the command line and in JSON.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Policy::Uniform => "uniform",
            Policy::Search => "search",
        }
    }
}

/// Move-phase actions a Quint playout plays before it stops and estimates. Measured in games
/// between engines at 0.2 s a move, 15 pieces, 20 games each: a cut at 80 beat no cut 20-0 and
/// a cut at 250 15-5; a cut at 30 beat 80 14-6 and 12 12-8.
pub const QUINT_CUT: usize = 30;

/// What a playout did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Playout {
    /// Actions played.
    pub actions: usize,
    /// Black's score: 1 when Black won, 0 when White won, one half for a draw or an unfinished
    /// game, in between for an estimate of a game cut short.
    pub black: f32,
    /// The stones at the end when the playout went on on a board of its own (Quentin at its
    /// real width, [`crate::playout::uniform_to_end`]); the position was then left where that
    /// began. `None` when the position itself stands at the end.
    pub end: Option<QuentinStones>,
}

impl Playout {
    /// Whether the point of index `index` ([`Point::index`]) holds a stone of `color` at the
    /// end of the playout that left `pos`.
    #[inline]
    #[must_use]
    pub fn holds(&self, pos: &Position, index: usize, color: Color) -> bool {
        match &self.end {
            Some(stones) => stones.holds(index, color),
            None => pos.board().holds(index, color),
        }
    }
}

/// Plays `pos` out with `policy`.
pub fn playout(pos: &mut Position, policy: Policy, rng: &mut Rng) -> Playout {
    match (policy, pos.game()) {
        (Policy::Search, Game::Quint) => quint_playout(pos, rng),
        _ => super::playout::uniform_to_end(pos, rng),
    }
}

/// Black's score of a finished (or abandoned) game won by `winner`.
pub(crate) fn black_score(winner: Option<Color>) -> f32 {
    match winner {
        Some(Color::Black) => 1.0,
        Some(Color::White) => 0.0,
        None => 0.5,
    }
}

/// Quint: drops on random empty cells, then random steps taking everything they can, cut after
/// [`QUINT_CUT`] steps with the balance of pieces as the estimate.
fn quint_playout(pos: &mut Position, rng: &mut Rng) -> Playout {
    // No allocation: the empty cells in an array, the steps picked without listing them.
    let mut cells = [Point::new(0, 0); 64];
    let mut empty = 0;
    let mut moves = 0;
    let mut actions = 0;
    // Drops only fill cells: the empty cells are listed once and taken from as pieces drop.
    for p in pos.board().points().filter(|&p| pos.board().is_empty_at(p)) {
        if let Some(cell) = cells.get_mut(empty) {
            *cell = p;
            empty += 1;
        }
    }
    while !pos.is_over() {
        let action = if pos.in_hand().is_some_and(|h| h != [0, 0]) {
            if empty == 0 {
                break;
            }
            // As Vec::swap_remove: the last cell takes the place of the one dropped on.
            let i = rng.below(empty);
            let cell = cells[i];
            empty -= 1;
            cells[i] = cells[empty];
            Action::Place(cell)
        } else {
            if moves >= QUINT_CUT {
                return Playout {
                    actions,
                    black: material_estimate(pos),
                    end: None,
                };
            }
            moves += 1;
            let Some((from, to)) = pos.pick_step(|n| rng.below(n)) else {
                break;
            };
            let captures: Captures = pos.capturable(to);
            Action::Step { from, to, captures }
        };
        if pos.play(action).is_err() {
            // Built from the rules' own steps and captures: always legal. Stop rather than loop.
            debug_assert!(false, "a playout action was refused");
            break;
        }
        actions += 1;
    }
    Playout {
        actions,
        black: black_score(pos.winner()),
        end: None,
    }
}

/// Black's estimated score from the pieces each side has left.
fn material_estimate(pos: &Position) -> f32 {
    let [black, white] = pos.on_board();
    let diff = black as f32 - white as f32;
    (0.5 + 0.1 * diff).clamp(0.1, 0.9)
}

#[cfg(test)]
mod tests {
    use super::*;
    use quentin_rules::Setup;

    #[test]
    fn quint_playouts_end_or_cut_with_only_legal_actions() {
        let start = Setup::new(Game::Quint).start().unwrap();
        let mut rng = Rng::new(3);
        for _ in 0..50 {
            let mut pos = start.clone();
            let done = playout(&mut pos, Policy::Search, &mut rng);
            assert!((0.0..=1.0).contains(&done.black));
            assert!(pos.is_over() || pos.in_hand() == Some([0, 0]));
        }
    }

    /// A playout ends the game; Quentin's, played on a board of its own, is the very game the
    /// position would have played from the same generator state, and ends with its stones.
    #[test]
    fn connection_playouts_finish_the_game() {
        for game in [Game::Quentin, Game::Konobi, Game::Brique] {
            let start = Setup::new(game).start().unwrap();
            for seed in 0..5 {
                let mut pos = start.clone();
                let done = playout(&mut pos, Policy::Search, &mut Rng::new(seed));
                assert!(done.black == 0.0 || done.black == 1.0);
                let mut alike = start.clone();
                let actions = crate::playout::uniform(&mut alike, &mut Rng::new(seed));
                assert!(alike.is_over());
                assert_eq!(done.actions, actions, "{game}");
                assert_eq!(done.black, black_score(alike.winner()), "{game}");
                assert_eq!(done.end.is_some(), game == Game::Quentin, "{game}");
                if done.end.is_none() {
                    assert_eq!(pos.board(), alike.board(), "{game}");
                }
                for p in alike.board().points() {
                    for color in [Color::Black, Color::White] {
                        assert_eq!(
                            done.holds(&pos, p.index(), color),
                            alike.get(p) == Some(color),
                            "{game} {p}"
                        );
                    }
                }
            }
        }
    }
}
