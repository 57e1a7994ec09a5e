//! Helpers shared by the integration tests: random games and a straightforward reference
//! implementation of Quentin to compare the library against.
#![allow(dead_code)]

pub mod naive;

use quentin::rules::{Action, Game, Position, Setup};

/// Plays a random game: at each turn the action at `choice % legal.len()`, until the choices run
/// out or the game ends. Returns every position from the start and the actions played.
pub fn random_game(setup: Setup, choices: &[u32]) -> (Vec<Position>, Vec<Action>) {
    let mut pos = setup.start().expect("valid setup");
    let mut positions = vec![pos.clone()];
    let mut actions = Vec::new();
    for &choice in choices {
        let legal = pos.legal_actions();
        if legal.is_empty() {
            break;
        }
        let action = legal[choice as usize % legal.len()];
        pos.play(action).expect("a listed action plays");
        actions.push(action);
        positions.push(pos.clone());
    }
    (positions, actions)
}

/// A Quentin setup of `size` with the pie rule as given.
pub fn quentin(size: usize, pie: bool) -> Setup {
    Setup {
        size,
        pie,
        ..Setup::new(Game::Quentin)
    }
}
