//! What the lobby's keys ask of the hub: accepting and withdrawing challenges, making one,
//! and the tournaments' making, joining and leaving; the lobby says how it went.

use super::super::Context;
use super::super::hub::Refusal;
use super::super::lobby::{Ask, Lobby};
use super::Next;

/// Carries out `ask` of the lobby's player at `now`: where the session goes next, if it
/// leaves the lobby.
pub(super) async fn answer(ctx: &Context, lobby: &mut Lobby, ask: Ask, now: i64) -> Option<Next> {
    match ask {
        Ask::Nothing => {}
        Ask::Quit => return Some(Next::Quit),
        Ask::Puzzles => return Some(Next::Puzzles),
        Ask::Operators => return Some(Next::Operators),
        Ask::Open(id) => return Some(Next::Game(id)),
        Ask::Accept(id) => match ctx.hub.accept(lobby.me.0, id, now).await {
            Ok((id, _)) => return Some(Next::Game(id)),
            Err(refusal) => lobby.say(refusal.to_string(), true),
        },
        Ask::Withdraw(id) => match ctx.hub.withdraw(lobby.me.0, id).await {
            Ok(()) => lobby.say(format!("Challenge #{id} withdrawn."), false),
            Err(refusal) => lobby.say(refusal.to_string(), true),
        },
        Ask::CreateTournament(settings) => {
            match ctx.hub.create_tournament(lobby.me.0, &settings, now).await {
                Ok(id) => lobby.say(format!("Tournament {id} made."), false),
                Err(why) => lobby.say(why.to_string(), true),
            }
        }
        Ask::JoinTournament(id) => match ctx.hub.join_tournament(lobby.me.0, id).await {
            Ok(()) => lobby.say(format!("You joined tournament {id}."), false),
            Err(why) => lobby.say(why.to_string(), true),
        },
        Ask::WithdrawTournament(id) => {
            match ctx
                .hub
                .withdraw_tournament(lobby.me.0, id, false, now)
                .await
            {
                Ok(()) => lobby.say(format!("You left tournament {id}."), false),
                Err(why) => lobby.say(why.to_string(), true),
            }
        }
        Ask::Challenge(spec) => match ctx.hub.challenge(lobby.me.0, &spec, now).await {
            Ok(id) => lobby.say(
                format!(
                    "Challenge #{id} made: {}. Its game opens when accepted.",
                    spec.summary()
                ),
                false,
            ),
            Err(refusal) => {
                let name = matches!(
                    refusal,
                    Refusal::NoSuchPlayer(_) | Refusal::ChallengeYourself
                );
                lobby.challenge_refused(refusal.to_string(), name);
            }
        },
    }
    None
}
