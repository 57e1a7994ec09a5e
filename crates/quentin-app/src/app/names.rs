//! Who the players are, as the screen names them: the online players' names (`you` for the
//! viewer), the names a hot-seat game was given (`--names`) or a record carries, else `Player
//! 1` and `Player 2`; and whether the game is over, on the board or by the server's word.

use super::{App, Mode};

/// The longest record header shown as a name; a longer one (`computer, level 4, 2 s a move`)
/// is shown beside the board instead, and the player called by number.
const NAME_LIMIT: usize = 20;

impl App {
    /// The player `n` (1 moved first, 2 the other) as the screen names them: `you` online for
    /// the viewer, a name when the game has one, else `Player n`.
    #[must_use]
    pub fn person(&self, n: u8) -> String {
        let i = usize::from(n.saturating_sub(1)).min(1);
        if let Some(online) = &self.online.game {
            return online.who(i).to_string();
        }
        match &self.seats.players[i] {
            Some(name) if !self.seats.versus.plays(n) && name.chars().count() <= NAME_LIMIT => {
                name.clone()
            }
            _ => format!("Player {n}"),
        }
    }

    /// The player `n` in the list of actions: their name cut to 8 characters, else `P1`,
    /// `P2`.
    #[must_use]
    pub fn short_person(&self, n: u8) -> String {
        let i = usize::from(n.saturating_sub(1)).min(1);
        let name = match &self.online.game {
            Some(online) => Some(online.names[i].as_str()),
            None => self.seats.players[i]
                .as_deref()
                .filter(|name| !self.seats.versus.plays(n) && name.chars().count() <= NAME_LIMIT),
        };
        match name {
            Some(name) => name.chars().take(8).collect(),
            None => format!("P{n}"),
        }
    }

    /// Names the two players of a game at one keyboard (`--names alice,bob`): shown on the
    /// screen and written in the record's `player1`/`player2` headers.
    pub fn set_names(&mut self, names: [String; 2]) {
        self.seats.players = names.map(Some);
    }

    /// Whether the game is over: won or drawn on the board, or ended by the server (time,
    /// resignation, an abort).
    #[must_use]
    pub fn finished(&self) -> bool {
        self.position().is_over()
            || self
                .online
                .game
                .as_ref()
                .is_some_and(|o| o.result.is_some())
    }

    /// Whether the viewer may act on the board now: a game being played, not over, and not
    /// waiting for the computer, the opponent online, or (a watcher) anyone.
    #[must_use]
    pub fn may_act(&self) -> bool {
        if self.mode != Mode::Play || self.finished() || self.computer_to_move() {
            return false;
        }
        match &self.online.game {
            Some(online) => online.seat.is_some_and(|seat| self.my_turn(seat)),
            None => true,
        }
    }
}
