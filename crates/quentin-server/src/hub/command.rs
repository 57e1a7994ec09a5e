//! What a player asks of a game, as a type: the bot protocol and the terminal screens send the
//! same commands, and a process that does not own the game passes them to the one that does
//! ([`Peers`]), in the words of [`GameCommand::to_wire`].

use std::future::Future;
use std::pin::Pin;

use quentin_rules::Action;

use super::Refusal;

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

impl GameCommand {
    /// The command in one line of words.
    #[must_use]
    pub fn to_wire(self) -> String {
        match self {
            GameCommand::Play(action) => format!("play {action}"),
            GameCommand::Resign => "resign".to_string(),
            GameCommand::TakeBack => "takeback".to_string(),
            GameCommand::Decline => "decline".to_string(),
            GameCommand::Abort => "abort".to_string(),
        }
    }

    /// The command of [`GameCommand::to_wire`]'s words.
    #[must_use]
    pub fn from_wire(words: &str) -> Option<GameCommand> {
        let mut words = words.split(' ');
        let command = match (words.next()?, words.next()) {
            ("play", Some(action)) => GameCommand::Play(Action::parse(action).ok()?),
            ("resign", None) => GameCommand::Resign,
            ("takeback", None) => GameCommand::TakeBack,
            ("decline", None) => GameCommand::Decline,
            ("abort", None) => GameCommand::Abort,
            _ => return None,
        };
        words.next().is_none().then_some(command)
    }
}

/// An answer in one word, as it crosses between processes: `ok`, `asked`, `taken` or a
/// refusal's word. Refusals that carry the rules' reasons go as `illegal`: the asking process
/// finds the reason in its own copy of the game.
#[must_use]
pub fn answer_to_wire(answer: &Result<Outcome, Refusal>) -> &'static str {
    match answer {
        Ok(Outcome::Done) => "ok",
        Ok(Outcome::Asked) => "asked",
        Ok(Outcome::TakenBack) => "taken",
        Err(Refusal::NoSuchGame(_)) => "no-such-game",
        Err(Refusal::Damaged(_)) => "damaged",
        Err(Refusal::NotYourGame) => "not-your-game",
        Err(Refusal::GameOver) => "game-over",
        Err(Refusal::TimeRanOut) => "time-ran-out",
        Err(Refusal::NotYourTurn) => "not-your-turn",
        Err(Refusal::Illegal(_)) => "illegal",
        Err(Refusal::RatedNoTakeback) => "rated-no-takeback",
        Err(Refusal::NothingToTakeBack) => "nothing-to-take-back",
        Err(Refusal::TooLateToAbort) => "too-late-to-abort",
        Err(Refusal::Moving) => "moving",
        Err(Refusal::Slow) => "slow",
        Err(Refusal::Unreachable) => "unreachable",
        Err(_) => "not-saved",
    }
}

/// The answer of [`answer_to_wire`]'s word, for game `id`; `illegal` is left to the caller
/// (`None`), and so is a word not known.
#[must_use]
pub fn answer_from_wire(word: &str, id: i64) -> Option<Result<Outcome, Refusal>> {
    Some(match word {
        "ok" => Ok(Outcome::Done),
        "asked" => Ok(Outcome::Asked),
        "taken" => Ok(Outcome::TakenBack),
        "no-such-game" => Err(Refusal::NoSuchGame(id)),
        "damaged" => Err(Refusal::Damaged(id)),
        "not-your-game" => Err(Refusal::NotYourGame),
        "game-over" => Err(Refusal::GameOver),
        "time-ran-out" => Err(Refusal::TimeRanOut),
        "not-your-turn" => Err(Refusal::NotYourTurn),
        "rated-no-takeback" => Err(Refusal::RatedNoTakeback),
        "nothing-to-take-back" => Err(Refusal::NothingToTakeBack),
        "too-late-to-abort" => Err(Refusal::TooLateToAbort),
        "moving" => Err(Refusal::Moving),
        "slow" => Err(Refusal::Slow),
        "not-saved" => Err(Refusal::NotSaved),
        "unreachable" => Err(Refusal::Unreachable),
        _ => return None,
    })
}

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
    fn owner(&self, id: i64) -> Owner;

    /// Passes `command` of `player` to process `owner`: its answer once committed there, or
    /// `None` when none came in time (the owner may be gone).
    fn forward<'a>(
        &'a self,
        owner: &'a str,
        player: i64,
        id: i64,
        command: GameCommand,
    ) -> PeerFuture<'a, Option<Result<Outcome, Refusal>>>;

    /// Reads game `id`'s owner again, and takes the game over when its lease has run out;
    /// false when the database could not be reached.
    fn settle(&self, id: i64) -> PeerFuture<'_, bool>;

    /// Reads challenge and game `id` (and the players they name) from the database into this
    /// process's copy, in order with what the other processes tell; returns once read (or
    /// after a few seconds).
    fn look_up(&self, id: i64) -> PeerFuture<'_, ()>;

    /// Tells the other processes `note` (a line of the notification channel's words).
    fn note(&self, note: String);

    /// The players online here changed.
    fn presence_changed(&self);

    /// Game `id` started here: this process owns it.
    fn started(&self, id: i64);

    /// For the tests: a transaction left open with game `id`'s lease locked ([`super::Hub::hold`]).
    #[cfg(feature = "test-hooks")]
    fn hold(&self, id: i64) -> PeerFuture<'_, Result<(), String>>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_answers_cross_between_processes_unchanged() {
        for command in [
            GameCommand::Play(Action::parse("c3").unwrap()),
            GameCommand::Play(Action::parse("swap").unwrap()),
            GameCommand::Resign,
            GameCommand::TakeBack,
            GameCommand::Decline,
            GameCommand::Abort,
        ] {
            assert_eq!(GameCommand::from_wire(&command.to_wire()), Some(command));
        }
        for bad in ["", "play", "play zz", "resign now", "drop tables"] {
            assert_eq!(GameCommand::from_wire(bad), None, "{bad}");
        }
        for answer in [
            Ok(Outcome::Done),
            Ok(Outcome::Asked),
            Ok(Outcome::TakenBack),
            Err(Refusal::NoSuchGame(7)),
            Err(Refusal::Damaged(7)),
            Err(Refusal::NotYourGame),
            Err(Refusal::GameOver),
            Err(Refusal::TimeRanOut),
            Err(Refusal::NotYourTurn),
            Err(Refusal::RatedNoTakeback),
            Err(Refusal::NothingToTakeBack),
            Err(Refusal::TooLateToAbort),
            Err(Refusal::Moving),
            Err(Refusal::Slow),
            Err(Refusal::NotSaved),
            Err(Refusal::Unreachable),
        ] {
            assert_eq!(answer_from_wire(answer_to_wire(&answer), 7), Some(answer));
        }
        // The rules' reasons are found on the asking side.
        assert_eq!(answer_from_wire("illegal", 7), None);
    }
}
