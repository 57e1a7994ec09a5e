//! The other server processes as the hub sees them ([`Peers`]): who owns a game, and the way
//! to pass a player's command to its owner and to tell the others what changed here.

use crate::ids::{GameId, PlayerId};
use std::future::Future;
use std::pin::Pin;

use crate::command::{GameCommand, Outcome};
use crate::note::Note;
use crate::refusal::Refusal;

/// Who holds a game's position and clocks, and writes its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Owner {
    /// This process.
    Me,
    /// Another process, by its name.
    Other(String),
    /// Nobody known: a finished game, or one whose owner's lease ran out.
    Nobody,
}

/// A future the [`Peers`] give back.
pub type PeerFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The other server processes that share the store (a PostgreSQL database): the hub asks
/// them who owns a game, passes a command to its owner, and tells them what is not in the
/// store (a takeback asked, the players online here).
pub trait Peers: Send + Sync {
    /// Who owns game `id`, as far as this process knows.
    fn owner(&self, id: GameId) -> Owner;

    /// Passes `command` of `player` to process `owner`: its answer once committed there, or
    /// `None` when none came in time (the owner may be gone).
    fn forward<'a>(
        &'a self,
        owner: &'a str,
        player: PlayerId,
        id: GameId,
        command: GameCommand,
    ) -> PeerFuture<'a, Option<Result<Outcome, Refusal>>>;

    /// Reads game `id`'s owner again, and takes the game over when its lease has run out;
    /// false when the database could not be reached.
    fn settle(&self, id: GameId) -> PeerFuture<'_, bool>;

    /// Reads challenge and game `id` (and the players they name) from the database into this
    /// process's copy, in order with what the other processes tell; returns once read (or
    /// after a few seconds).
    fn look_up(&self, id: GameId) -> PeerFuture<'_, ()>;

    /// Tells the other processes `note`.
    fn note(&self, note: Note);

    /// The players online here changed.
    fn presence_changed(&self);

    /// Game `id` started here: this process owns it.
    fn started(&self, id: GameId);

    /// For the tests: a transaction left open with game `id`'s lease locked ([`super::Hub::hold`]).
    fn hold(&self, id: GameId) -> PeerFuture<'_, Result<(), String>>;
}
