//! The commands that wait on others: `wait ID` and `rematch ID`. Input that comes meanwhile
//! waits in the channel's queue for after the answer; a session that ends meanwhile is
//! answered nothing ([`Outcome::Gone`]).

use super::Reader;
use super::answer::{Outcome, Refused};
use crate::context::Context;
use crate::hub::{Refusal, Rematch};
use crate::ids::{ChallengeId, GameId, PlayerId};

/// `rematch ID`: offers a rematch of a finished game, or accepts the opponent's offer; the
/// first to ask waits until the other asks too (`= NEW-ID`) or declines (`= declined`).
/// `rematch ID no` (`decline`) declines the opponent's offer.
pub(super) async fn rematch(
    ctx: &Context,
    me: PlayerId,
    id: GameId,
    decline: bool,
    reader: &mut Reader,
) -> Result<Outcome, Refused> {
    if decline {
        ctx.hub.decline_rematch(me, id)?;
        return Ok(Outcome::Done);
    }
    let mut news = ctx.hub.watch_game(id)?;
    ctx.hub.rematch(me, id, ctx.clock.now()).await?;
    loop {
        news.borrow_and_update();
        match ctx
            .hub
            .game(id, ctx.clock.now())
            .and_then(|g| g.rematch_state)
        {
            Some(Rematch::Started(next)) => return Ok(Outcome::Rematched(next)),
            Some(Rematch::Declined) | None => return Ok(Outcome::RematchDeclined),
            Some(Rematch::Offered) => {}
        }
        tokio::select! {
            changed = news.changed() => if changed.is_err() { return Ok(Outcome::Gone) },
            gone = reader.alive.changed() => if gone.is_err() { return Ok(Outcome::Gone) },
            () = reader.input.stopping() => return Ok(Outcome::Gone),
        }
    }
}

/// `wait ID`: until it is this player's turn (`= turn LAST`) or the game is over (`= over
/// RESULT`), or the opponent asks for a takeback (`= takeback N`); on one's own open
/// challenge, its game once accepted, or `= withdrawn`.
pub(super) async fn wait(
    ctx: &Context,
    me: PlayerId,
    id: GameId,
    reader: &mut Reader,
) -> Result<Outcome, Refused> {
    // One's own open challenge: its game, once accepted (it keeps the number).
    let mut news = loop {
        match ctx.hub.watch_game(id) {
            Ok(news) => break news,
            Err(refusal) => match waiting_challenge(ctx, me, id.challenge(), reader).await {
                Waited::Accepted => {}
                Waited::Withdrawn => return Ok(Outcome::Withdrawn),
                Waited::NotOpen => return Err(Refused::Hub(refusal)),
                Waited::Gone => return Ok(Outcome::Gone),
            },
        }
    };
    loop {
        news.borrow_and_update();
        let game = ctx
            .hub
            .game(id, ctx.clock.now())
            .ok_or_else(|| ctx.hub.missing(id))?;
        let seat = game.seat(me).ok_or(Refusal::NotYourGame)?;
        if let Some(result) = game.result_words() {
            return Ok(Outcome::Over(result));
        }
        // The opponent asks for a takeback: the answer waits on this player.
        if let Some((_, n)) = game.takeback_asked().filter(|(asker, _)| *asker != seat) {
            return Ok(Outcome::TakebackWanted(n));
        }
        if game.to_move == Some(seat) {
            return Ok(Outcome::Turn(game.actions.last().copied()));
        }
        tokio::select! {
            changed = news.changed() => if changed.is_err() { return Ok(Outcome::Gone) },
            gone = reader.alive.changed() => if gone.is_err() { return Ok(Outcome::Gone) },
            () = reader.input.stopping() => return Ok(Outcome::Gone),
        }
    }
}

/// How the wait for one's own challenge ended.
enum Waited {
    /// Its game has started.
    Accepted,
    /// It was withdrawn (by another session of the player).
    Withdrawn,
    /// It is no open challenge of this player.
    NotOpen,
    /// The session ended meanwhile.
    Gone,
}

/// Waits while `me`'s challenge `id` is open: until it is accepted or withdrawn.
async fn waiting_challenge(
    ctx: &Context,
    me: PlayerId,
    id: ChallengeId,
    reader: &mut Reader,
) -> Waited {
    let mut lobby = ctx.hub.watch_lobby();
    let mut seen = false;
    loop {
        lobby.borrow_and_update();
        let mine = ctx.hub.has_open_challenge(me, id);
        if !mine {
            return match (seen, ctx.hub.game(id.game(), ctx.clock.now()).is_some()) {
                (_, true) => Waited::Accepted,
                (true, false) => Waited::Withdrawn,
                (false, false) => Waited::NotOpen,
            };
        }
        seen = true;
        tokio::select! {
            changed = lobby.changed() => if changed.is_err() { return Waited::Gone },
            gone = reader.alive.changed() => if gone.is_err() { return Waited::Gone },
            () = reader.input.stopping() => return Waited::Gone,
        }
    }
}
