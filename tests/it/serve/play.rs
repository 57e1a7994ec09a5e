//! Two bots that play on, move after move, each answered, whatever happens beside them: the
//! honest players of the hostile tests.

use std::path::Path;

use quentin::rules::{Color, Game, Position, Setup};

use super::{Bot, Server, key};

/// Two registered bots with a game of Brique 15×15 between them, the first to move.
pub fn pair(server: &Server, dir: &Path, names: [&str; 2]) -> ([Bot; 2], String) {
    let keys = names.map(|n| key(dir, n));
    let mut bots = [server.bot(&keys[0]), server.bot(&keys[1])];
    bots[0].ok(&format!("register {}", names[0]));
    bots[1].ok(&format!("register {}", names[1]));
    let id = bots[0].ok("challenge brique size 15 pie off first me casual");
    bots[1].ok(&format!("accept {id}"));
    (bots, id)
}

/// The pair's play, game after game: the middle legal action each time, each answered `=`, so
/// that the pair's game goes on whatever happens beside it; when a game ends, the pair starts
/// another, and plays on as long as a test needs (however long a loaded machine takes over
/// what happens beside it).
pub struct Play {
    pub id: String,
    pub position: Position,
}

impl Play {
    pub fn new(id: String) -> Play {
        Play {
            id,
            position: brique_15(),
        }
    }

    /// Plays `moves` moves.
    pub fn moves(&mut self, bots: &mut [Bot; 2], moves: usize) {
        for _ in 0..moves {
            if self.position.is_over() {
                self.id = bots[0].ok("challenge brique size 15 pie off first me casual");
                bots[1].ok(&format!("accept {}", self.id));
                self.position = brique_15();
            }
            // No pie rule: the challenger, who moves first, is Black throughout.
            let turn = usize::from(self.position.to_move() == Some(Color::White));
            let legal = self.position.legal_actions();
            let action = legal[legal.len() / 2];
            assert!(
                bots[turn]
                    .ok(&format!("wait {}", self.id))
                    .starts_with("turn")
            );
            assert_eq!(bots[turn].ask(&format!("play {} {action}", self.id)), "=");
            self.position.play(action).unwrap();
        }
    }
}

/// The start of the pair's games.
pub fn brique_15() -> Position {
    Setup {
        size: 15,
        pie: false,
        ..Setup::new(Game::Brique)
    }
    .start()
    .unwrap()
}
