use quentin_rules::{Game, Setup};

use super::{Outcome, Refused, challenge_line, framed};
use crate::bot::command::{Gate, ParseError};
use crate::hub::{ChallengeView, Refusal};
use crate::ids::{ChallengeId, GameId, PlayerId};
use crate::spec::{First, TimeControl};
use crate::tournament::{TournamentId, TournamentRefusal};

fn quint() -> ChallengeView {
    ChallengeView {
        id: ChallengeId(2),
        by: PlayerId(1),
        by_name: "alice".to_string(),
        setup: Setup {
            game: Game::Quint,
            size: 8,
            pie: false,
            pieces: 20,
        },
        first: First::Random,
        clock: TimeControl::Live {
            minutes: 10,
            increment: 5,
        },
        rated: true,
        to: None,
        by_rating: "1500?".to_string(),
    }
}

#[test]
fn a_challenge_is_one_line_of_challenges() {
    assert_eq!(
        challenge_line(&quint()),
        "2 quint 8 alice pie off pieces 20 first random clock 10+5 rated"
    );
    let quentin = ChallengeView {
        setup: Setup {
            game: Game::Quentin,
            size: 9,
            pie: true,
            pieces: 0,
        },
        first: First::Me,
        clock: TimeControl::Days(3),
        rated: false,
        to: Some("bob".to_string()),
        ..quint()
    };
    assert_eq!(
        challenge_line(&quentin),
        "2 quentin 9 alice pie on first alice days 3 casual to bob"
    );
    let bank = ChallengeView {
        clock: TimeControl::Bank {
            hours: 240,
            increment: 36,
        },
        ..quentin
    };
    assert_eq!(
        challenge_line(&bank),
        "2 quentin 9 alice pie on first alice bank 240+36 casual to bob"
    );
}

#[test]
fn an_answer_is_framed_as_the_protocol_always_has() {
    assert_eq!(framed(&Ok(Outcome::Done)).as_deref(), Some("=\n\n"));
    assert_eq!(
        framed(&Ok(Outcome::Motd(Vec::new()))).as_deref(),
        Some("=\n\n")
    );
    assert_eq!(
        framed(&Ok(Outcome::Motd(vec!["a".to_string(), "b".to_string()]))).as_deref(),
        Some("= a\nb\n\n")
    );
    assert_eq!(
        framed(&Ok(Outcome::Record("# game\n1. c4\n".to_string()))).as_deref(),
        Some("= # game\n1. c4\n\n")
    );
    assert_eq!(
        framed(&Ok(Outcome::Turn(None))).as_deref(),
        Some("= turn -\n\n")
    );
    assert_eq!(
        framed(&Ok(Outcome::Challenges {
            page: vec![quint()],
            more: 3,
            game: Some(Game::Quint),
        }))
        .as_deref(),
        Some(
            "= 2 quint 8 alice pie off pieces 20 first random clock 10+5 rated\n\
             more 3: challenges quint after 2\n\n"
        )
    );
    // A session that ended while its command waited is answered nothing.
    assert_eq!(framed(&Ok(Outcome::Gone)), None);
}

#[test]
fn a_refusal_says_why_in_the_protocol_s_words() {
    for (refused, words) in [
        (Refused::RegisterFirst, "register first: register NAME"),
        (
            Refused::Renamed,
            "an operator renamed you: pick a new name with register NAME",
        ),
        (Refused::NotAnOperator, "not an operator"),
        (
            Refused::AlreadyRegistered("ann".to_string()),
            "already registered as ann",
        ),
        (Refused::Hub(Refusal::NotYourGame), "not your game"),
        (
            Refused::Tournament(TournamentRefusal::NoSuch(TournamentId(4))),
            "no tournament t4",
        ),
        (
            Refused::OpponentAskedTakeback(GameId(7)),
            "your opponent asked for a takeback: takeback 7 yes, or takeback 7 no",
        ),
        (Refused::NoTakebackAsked, "no takeback asked"),
        (Refused::TakebackUsage, "takeback ID [yes|no]"),
        (
            Refused::Parse(ParseError {
                why: "abort ID".to_string(),
                gate: Gate::Abort(GameId(7)),
            }),
            "abort ID",
        ),
    ] {
        assert_eq!(framed(&Err(refused)), Some(format!("? {words}\n\n")));
    }
}
