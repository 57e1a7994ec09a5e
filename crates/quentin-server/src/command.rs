//! What a player asks of a game, as a type: the bot protocol and the terminal screens send the
//! same commands, and a process that does not own the game passes them to the one that does
//! (in the words of [`crate::note`]).

use quentin_rules::Action;

/// A player's command to a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameCommand {
    /// Plays an action.
    Play(Action),
    /// Resigns.
    Resign,
    /// Asks to take the last action back, or agrees to the other's asking.
    TakeBack,
    /// Declines the other's asking to take back.
    Decline,
    /// Aborts the game, before both players have made a first move.
    Abort,
    /// The game's screen is shown to the player: in a tournament game, the timer of their
    /// first move starts now (once).
    Shown,
    /// The player's vacation: this many hours more on their clock, in a correspondence game.
    Vacation(u32),
}

/// What a command did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Done and on disk.
    Done,
    /// A takeback asked: the other player has to agree.
    Asked,
    /// The last action taken back, on disk.
    TakenBack,
}
