//! Every message between server processes (several processes on one PostgreSQL database), as
//! a type: a [`Note`] goes as one notification's payload on the channel `quentin`, `PROCESS
//! WORDS...`, the sender's name first. This module alone writes and reads their words; a
//! payload it cannot read is an error that the listener logs, never a message dropped in
//! silence.
//!
//! A new message is a variant of [`Note`], an arm in [`Note::words`] and one in [`Note::read`],
//! and a line of the round-trip test below.

use crate::ids::{ChallengeId, GameId, Millis, Moment, PlayerId, Seat, TournamentId};
use std::fmt;

use quentin_rules::Action;

use crate::command::{GameCommand, Outcome};
use crate::refusal::Refusal;

/// A message to the other processes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Note {
    /// A player is new (or changed): read their row.
    Player(PlayerId),
    /// A challenge is new, withdrawn or accepted: read its row.
    Challenge(ChallengeId),
    /// A tournament changed (made, joined, started, paired, over): read it again.
    Tournament(TournamentId),
    /// A game changed (it began, ended, was taken back or taken over): read its row. Only the
    /// game's owner sends it, so the sender owns the game.
    Game(GameId),
    /// A move of a game, with the clocks after it and when: played on each copy by the rules,
    /// with no need to read it back. Only the game's owner sends it.
    Move {
        /// The game.
        game: GameId,
        /// The action's number, from 0.
        index: usize,
        /// The action.
        action: Action,
        /// The clocks after it.
        left: [Millis; 2],
        /// When (ms since the epoch, server time).
        at: Moment,
    },
    /// A takeback asked in a game by a seat, or the asking over (`None`).
    Takeback {
        /// The game.
        game: GameId,
        /// The seat that asks.
        seat: Option<Seat>,
    },
    /// A rematch offered after a game by a seat, or the offer over (`None`).
    Rematch {
        /// The game over.
        game: GameId,
        /// The seat that offers.
        seat: Option<Seat>,
    },
    /// The rematch of a game began, as game `next`.
    RematchStarted {
        /// The game over.
        game: GameId,
        /// The new game.
        next: GameId,
    },
    /// The players online on some process changed.
    Online,
    /// A player's command, passed to the process that owns the game, `to`.
    Ask {
        /// The owner's name.
        to: String,
        /// The asking process's number for the request, which the answer names.
        request: u64,
        /// The player.
        player: PlayerId,
        /// The game.
        game: GameId,
        /// The command; `None` for words this process does not know (a newer process's),
        /// which the owner answers `not-saved`.
        command: Option<GameCommand>,
    },
    /// The owner's answer to request `request` of process `to`.
    Answer {
        /// The asking process's name.
        to: String,
        /// Its request's number.
        request: u64,
        /// The answer.
        answer: Answer,
    },
}

/// An owner's answer as it crosses between processes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// What the command did, or why it was refused.
    Given(Result<Outcome, Refusal>),
    /// Refused for a reason of the rules (an illegal action, a setup they cannot start): the
    /// asking process finds the reason in its own copy of the game.
    Recheck,
}

impl From<&Result<Outcome, Refusal>> for Answer {
    fn from(answer: &Result<Outcome, Refusal>) -> Answer {
        match answer {
            Err(Refusal::Illegal(_) | Refusal::BadSetup(_)) => Answer::Recheck,
            given => Answer::Given(given.clone()),
        }
    }
}

impl Note {
    /// The payload of this note sent by process `from`.
    #[must_use]
    pub fn payload(&self, from: &str) -> String {
        format!("{from} {}", self.words())
    }

    /// The note in words, without the sender.
    #[must_use]
    pub fn words(&self) -> String {
        let seat =
            |seat: &Option<Seat>| seat.map_or_else(|| "-".to_string(), |s| s.index().to_string());
        match self {
            Note::Player(id) => format!("player {id}"),
            Note::Challenge(id) => format!("challenge {id}"),
            Note::Tournament(id) => format!("tournament {}", id.0),
            Note::Game(id) => format!("game {id}"),
            Note::Move {
                game,
                index,
                action,
                left,
                at,
            } => format!(
                "game {game} move {index} {action} {} {} {at}",
                left[0], left[1]
            ),
            Note::Takeback { game, seat: s } => format!("takeback {game} {}", seat(s)),
            Note::Rematch { game, seat: s } => format!("rematch {game} {}", seat(s)),
            Note::RematchStarted { game, next } => format!("rematch {game} game {next}"),
            Note::Online => "online".to_string(),
            Note::Ask {
                to,
                request,
                player,
                game,
                command,
            } => {
                let command = command.map_or_else(|| "unknown".to_string(), command_words);
                format!("ask {to} {request} {player} {game} {command}")
            }
            Note::Answer {
                to,
                request,
                answer,
            } => format!("answer {to} {request} {}", answer_words(answer)),
        }
    }

    /// The sender and the note of a payload.
    ///
    /// # Errors
    /// Words that are no note, saying what was wrong.
    pub fn read(payload: &str) -> Result<(&str, Note), BadNote> {
        let bad = |why: &str| BadNote {
            payload: payload.to_string(),
            why: why.to_string(),
        };
        let words: Vec<&str> = payload.split(' ').collect();
        let (from, what, rest) = match words.as_slice() {
            [from, what, rest @ ..] if !from.is_empty() => (*from, *what, rest),
            _ => return Err(bad("no sender and no message")),
        };
        let number = |i: usize| -> Result<i64, BadNote> {
            rest.get(i)
                .and_then(|w| w.parse().ok())
                .ok_or_else(|| bad("a number missing or not a number"))
        };
        let seat = |i: usize| -> Result<Option<Seat>, BadNote> {
            match rest.get(i) {
                Some(&"-") => Ok(None),
                Some(w) => match w.parse().ok().and_then(Seat::from_index) {
                    Some(s) => Ok(Some(s)),
                    None => Err(bad("a seat that is neither 0, 1 nor -")),
                },
                None => Err(bad("no seat")),
            }
        };
        let whole = |n: usize| -> Result<(), BadNote> {
            if rest.len() == n {
                Ok(())
            } else {
                Err(bad("not the words it should have"))
            }
        };
        let note = match what {
            "player" => whole(1).and(number(0).map(|n| Note::Player(PlayerId(n))))?,
            "challenge" => whole(1).and(number(0).map(|n| Note::Challenge(ChallengeId(n))))?,
            "tournament" => whole(1).and(number(0).map(|n| Note::Tournament(TournamentId(n))))?,
            "game" if rest.len() == 1 => Note::Game(GameId(number(0)?)),
            "game" => match rest {
                [_, "move", index, action, left0, left1, at] => Note::Move {
                    game: GameId(number(0)?),
                    index: index.parse().map_err(|_| bad("a move's number"))?,
                    action: Action::parse(action).map_err(|_| bad("a move's action"))?,
                    left: [
                        left0.parse().map_err(|_| bad("a move's clock"))?,
                        left1.parse().map_err(|_| bad("a move's clock"))?,
                    ],
                    at: at.parse().map_err(|_| bad("a move's time"))?,
                },
                _ => return Err(bad("a game's news of no known shape")),
            },
            "takeback" => {
                whole(2)?;
                Note::Takeback {
                    game: GameId(number(0)?),
                    seat: seat(1)?,
                }
            }
            "rematch" if rest.get(1) == Some(&"game") => {
                whole(3)?;
                Note::RematchStarted {
                    game: GameId(number(0)?),
                    next: GameId(number(2)?),
                }
            }
            "rematch" => {
                whole(2)?;
                Note::Rematch {
                    game: GameId(number(0)?),
                    seat: seat(1)?,
                }
            }
            "online" => whole(0).map(|()| Note::Online)?,
            "ask" if rest.len() >= 5 => Note::Ask {
                to: rest[0].to_string(),
                request: rest[1].parse().map_err(|_| bad("a request's number"))?,
                player: PlayerId(number(2)?),
                game: GameId(number(3)?),
                command: command_of(&rest[4..]),
            },
            "answer" if rest.len() >= 3 => Note::Answer {
                to: rest[0].to_string(),
                request: rest[1].parse().map_err(|_| bad("a request's number"))?,
                answer: answer_of(&rest[2..]).ok_or_else(|| bad("an answer not known"))?,
            },
            _ => return Err(bad("a message not known")),
        };
        Ok((from, note))
    }
}

/// A payload that is no note.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadNote {
    /// The payload.
    pub payload: String,
    /// What is wrong with it.
    pub why: String,
}

impl fmt::Display for BadNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a message not understood ({}): {:?}",
            self.why, self.payload
        )
    }
}

impl std::error::Error for BadNote {}

/// A command in words.
fn command_words(command: GameCommand) -> String {
    match command {
        GameCommand::Play(action) => format!("play {action}"),
        GameCommand::Resign => "resign".to_string(),
        GameCommand::TakeBack => "takeback".to_string(),
        GameCommand::Decline => "decline".to_string(),
        GameCommand::Abort => "abort".to_string(),
        GameCommand::Shown => "shown".to_string(),
        GameCommand::Vacation(hours) => format!("vacation {hours}"),
    }
}

/// The command of [`command_words`]'s words, if they are one.
fn command_of(words: &[&str]) -> Option<GameCommand> {
    Some(match words {
        ["play", action] => GameCommand::Play(Action::parse(action).ok()?),
        ["resign"] => GameCommand::Resign,
        ["takeback"] => GameCommand::TakeBack,
        ["decline"] => GameCommand::Decline,
        ["abort"] => GameCommand::Abort,
        ["shown"] => GameCommand::Shown,
        ["vacation", hours] => GameCommand::Vacation(hours.parse().ok()?),
        _ => return None,
    })
}

/// An answer in words: `ok`, `asked`, `taken`, `illegal` (found again by the asking process)
/// or a refusal's word, with its number or name when it has one. Every refusal has its own.
fn answer_words(answer: &Answer) -> String {
    let refusal = match answer {
        Answer::Recheck => return "illegal".to_string(),
        Answer::Given(Ok(Outcome::Done)) => return "ok".to_string(),
        Answer::Given(Ok(Outcome::Asked)) => return "asked".to_string(),
        Answer::Given(Ok(Outcome::TakenBack)) => return "taken".to_string(),
        Answer::Given(Err(refusal)) => refusal,
    };
    match refusal {
        Refusal::BadName => "bad-name".to_string(),
        Refusal::NameTaken => "name-taken".to_string(),
        Refusal::KeyHasName(name) => format!("key-has-name {name}"),
        Refusal::TooManySessions(n) => format!("too-many-sessions {n}"),
        Refusal::TooManyChallenges(n) => format!("too-many-challenges {n}"),
        Refusal::TooFast(n) => format!("too-fast {n}"),
        Refusal::TooManyLiveGames(n) => format!("too-many-live-games {n}"),
        Refusal::Held(ms) => format!("held {ms}"),
        Refusal::ChallengeYourself => "challenge-yourself".to_string(),
        Refusal::NoSuchPlayer(name) => format!("no-such-player {name}"),
        Refusal::NoSuchChallenge(id) => format!("no-such-challenge {id}"),
        Refusal::NotYourChallenge => "not-your-challenge".to_string(),
        Refusal::OwnChallenge => "own-challenge".to_string(),
        Refusal::ForSomebodyElse => "for-somebody-else".to_string(),
        // The rules' reasons are found again by the asking process.
        Refusal::BadSetup(_) | Refusal::Illegal(_) => "illegal".to_string(),
        Refusal::NoSuchGame(id) => format!("no-such-game {id}"),
        Refusal::Damaged(id) => format!("damaged {id}"),
        Refusal::NotYourGame => "not-your-game".to_string(),
        Refusal::GameOver => "game-over".to_string(),
        Refusal::TimeRanOut => "time-ran-out".to_string(),
        Refusal::NotYourTurn => "not-your-turn".to_string(),
        Refusal::RatedNoTakeback => "rated-no-takeback".to_string(),
        Refusal::TournamentNoRematch => "tournament-no-rematch".to_string(),
        Refusal::NothingToTakeBack => "nothing-to-take-back".to_string(),
        Refusal::TooLateToAbort => "too-late-to-abort".to_string(),
        Refusal::NotOver => "not-over".to_string(),
        Refusal::NotSaved => "not-saved".to_string(),
        Refusal::Moving => "moving".to_string(),
        Refusal::Slow => "slow".to_string(),
        Refusal::Unreachable => "unreachable".to_string(),
    }
}

/// The answer of [`answer_words`]'s words, if they are one.
fn answer_of(words: &[&str]) -> Option<Answer> {
    let (word, rest) = words.split_first()?;
    let name = || (!rest.is_empty()).then(|| rest.join(" "));
    let number = || match rest {
        [n] => n.parse::<i64>().ok(),
        _ => None,
    };
    let count = || number().and_then(|n| usize::try_from(n).ok());
    let bare = |answer: Answer| rest.is_empty().then_some(answer);
    let refused = |r: Refusal| Answer::Given(Err(r));
    match *word {
        "ok" => bare(Answer::Given(Ok(Outcome::Done))),
        "asked" => bare(Answer::Given(Ok(Outcome::Asked))),
        "taken" => bare(Answer::Given(Ok(Outcome::TakenBack))),
        "illegal" => bare(Answer::Recheck),
        "bad-name" => bare(refused(Refusal::BadName)),
        "name-taken" => bare(refused(Refusal::NameTaken)),
        "key-has-name" => name().map(|n| refused(Refusal::KeyHasName(n))),
        "too-many-sessions" => count().map(|n| refused(Refusal::TooManySessions(n))),
        "too-many-challenges" => count().map(|n| refused(Refusal::TooManyChallenges(n))),
        "too-fast" => count().map(|n| refused(Refusal::TooFast(n))),
        "too-many-live-games" => count().map(|n| refused(Refusal::TooManyLiveGames(n))),
        "held" => number().map(|ms| refused(Refusal::Held(Millis(ms)))),
        "challenge-yourself" => bare(refused(Refusal::ChallengeYourself)),
        "no-such-player" => name().map(|n| refused(Refusal::NoSuchPlayer(n))),
        "no-such-challenge" => {
            number().map(|id| refused(Refusal::NoSuchChallenge(ChallengeId(id))))
        }
        "not-your-challenge" => bare(refused(Refusal::NotYourChallenge)),
        "own-challenge" => bare(refused(Refusal::OwnChallenge)),
        "for-somebody-else" => bare(refused(Refusal::ForSomebodyElse)),
        "no-such-game" => number().map(|id| refused(Refusal::NoSuchGame(GameId(id)))),
        "damaged" => number().map(|id| refused(Refusal::Damaged(GameId(id)))),
        "not-your-game" => bare(refused(Refusal::NotYourGame)),
        "game-over" => bare(refused(Refusal::GameOver)),
        "time-ran-out" => bare(refused(Refusal::TimeRanOut)),
        "not-your-turn" => bare(refused(Refusal::NotYourTurn)),
        "rated-no-takeback" => bare(refused(Refusal::RatedNoTakeback)),
        "tournament-no-rematch" => bare(refused(Refusal::TournamentNoRematch)),
        "nothing-to-take-back" => bare(refused(Refusal::NothingToTakeBack)),
        "too-late-to-abort" => bare(refused(Refusal::TooLateToAbort)),
        "not-over" => bare(refused(Refusal::NotOver)),
        "not-saved" => bare(refused(Refusal::NotSaved)),
        "moving" => bare(refused(Refusal::Moving)),
        "slow" => bare(refused(Refusal::Slow)),
        "unreachable" => bare(refused(Refusal::Unreachable)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quentin_rules::{Illegal, SetupError};

    /// Every refusal, one of each kind: the round-trip test below covers them all, and a refusal
    /// added without a word of its own fails to compile in [`answer_words`].
    fn every_refusal() -> Vec<Refusal> {
        vec![
            Refusal::BadName,
            Refusal::NameTaken,
            Refusal::KeyHasName("alice".to_string()),
            Refusal::TooManySessions(3),
            Refusal::TooManyChallenges(5),
            Refusal::TooFast(20),
            Refusal::TooManyLiveGames(4),
            Refusal::Held(Millis(600_000)),
            Refusal::ChallengeYourself,
            Refusal::NoSuchPlayer("nobody at all".to_string()),
            Refusal::NoSuchChallenge(ChallengeId(9)),
            Refusal::NotYourChallenge,
            Refusal::OwnChallenge,
            Refusal::ForSomebodyElse,
            Refusal::BadSetup(SetupError::NoPieRule(quentin_rules::Game::Quint)),
            Refusal::NoSuchGame(GameId(7)),
            Refusal::Damaged(GameId(7)),
            Refusal::NotYourGame,
            Refusal::GameOver,
            Refusal::TimeRanOut,
            Refusal::NotYourTurn,
            Refusal::Illegal(Illegal::SwapNotOffered),
            Refusal::RatedNoTakeback,
            Refusal::TournamentNoRematch,
            Refusal::NothingToTakeBack,
            Refusal::TooLateToAbort,
            Refusal::NotOver,
            Refusal::NotSaved,
            Refusal::Moving,
            Refusal::Slow,
            Refusal::Unreachable,
        ]
    }

    fn round_trip(note: &Note) {
        let payload = note.payload("p-1");
        assert_eq!(Note::read(&payload), Ok(("p-1", note.clone())), "{payload}");
    }

    #[test]
    fn every_message_crosses_between_processes_unchanged() {
        let action = |text| Action::parse(text).unwrap();
        let mut notes = vec![
            Note::Player(PlayerId(3)),
            Note::Challenge(ChallengeId(4)),
            Note::Game(GameId(5)),
            Note::Move {
                game: GameId(5),
                index: 12,
                action: action("c3"),
                left: [Millis(59_000), Millis(-1)],
                at: Moment(1_790_000_000_000),
            },
            Note::Move {
                game: GameId(5),
                index: 1,
                action: action("swap"),
                left: [Millis(0), Millis(0)],
                at: Moment(0),
            },
            Note::Takeback {
                game: GameId(5),
                seat: Some(Seat::Second),
            },
            Note::Takeback {
                game: GameId(5),
                seat: None,
            },
            Note::Rematch {
                game: GameId(5),
                seat: Some(Seat::First),
            },
            Note::Rematch {
                game: GameId(5),
                seat: None,
            },
            Note::RematchStarted {
                game: GameId(5),
                next: GameId(6),
            },
            Note::Online,
        ];
        for command in [
            Some(GameCommand::Play(action("d4"))),
            Some(GameCommand::Resign),
            Some(GameCommand::TakeBack),
            Some(GameCommand::Decline),
            Some(GameCommand::Abort),
            Some(GameCommand::Shown),
            Some(GameCommand::Vacation(48)),
            None,
        ] {
            notes.push(Note::Ask {
                to: "p-2".to_string(),
                request: 17,
                player: PlayerId(3),
                game: GameId(5),
                command,
            });
        }
        let mut answers = vec![
            Ok(Outcome::Done),
            Ok(Outcome::Asked),
            Ok(Outcome::TakenBack),
        ];
        answers.extend(every_refusal().into_iter().map(Err));
        for answer in &answers {
            notes.push(Note::Answer {
                to: "p-2".to_string(),
                request: 17,
                answer: Answer::from(answer),
            });
        }
        for note in &notes {
            round_trip(note);
        }
    }

    #[test]
    fn every_refusal_but_the_rules_own_crosses_as_itself() {
        for refusal in every_refusal() {
            let answer = Answer::from(&Err(refusal.clone()));
            match refusal {
                Refusal::Illegal(_) | Refusal::BadSetup(_) => assert_eq!(answer, Answer::Recheck),
                _ => assert_eq!(answer, Answer::Given(Err(refusal))),
            }
        }
    }

    #[test]
    fn words_that_are_no_message_are_refused_saying_why() {
        for bad in [
            "",
            "p-1",
            "p-1 drop tables",
            "p-1 game",
            "p-1 game x",
            "p-1 game 5 move 1 zz 0 0 0",
            "p-1 game 5 move 1 c3 0 0",
            "p-1 takeback 5 2",
            "p-1 takeback 5",
            "p-1 online now",
            "p-1 answer p-2 17 perhaps",
            "p-1 answer p-2 17 ok and more",
            "p-1 answer p-2 x ok",
            "p-1 ask p-2 17 3",
        ] {
            let read = Note::read(bad);
            assert!(read.is_err(), "{bad:?} read as {read:?}");
        }
        // A command this process does not know still reaches the owner, which says so.
        assert_eq!(
            Note::read("p-1 ask p-2 17 3 5 castle long"),
            Ok((
                "p-1",
                Note::Ask {
                    to: "p-2".to_string(),
                    request: 17,
                    player: PlayerId(3),
                    game: GameId(5),
                    command: None,
                }
            ))
        );
    }
}
