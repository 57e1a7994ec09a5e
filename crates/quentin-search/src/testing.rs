//! What the tests of several rooms share: random positions of the connection games.

use crate::rng::Rng;
use quentin_rules::{Board, Color, Game, Position, Setup};

/// A position of `game` on a `size` board reached by random actions from the empty board,
/// Black first, pie off, once `done` (given the position and the actions played) says so; `None`
/// when the game ended on the way.
pub(crate) fn random_position(
    game: Game,
    size: usize,
    rng: &mut Rng,
    done: impl Fn(&Position, usize) -> bool,
) -> Option<Position> {
    let mut pos = Setup::new(game)
        .start_from(Board::new(size), Color::Black)
        .unwrap();
    let mut played = 0;
    while !done(&pos, played) {
        let actions = pos.legal_actions();
        pos.play(actions[rng.below(actions.len())]).unwrap();
        played += 1;
        if pos.is_over() {
            return None;
        }
    }
    Some(pos)
}
