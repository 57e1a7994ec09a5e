//! Moderation in a player's session: who is an operator, an operator's order in the bot
//! protocol's words, a session closed when its player is banned, and the new name a renamed
//! player must pick.

use std::sync::Arc;

use crate::context::Context;
use crate::ids::{GameId, PlayerId};
use crate::moderation::{Order, OrderRefusal};
use crate::who::Who;

/// What a renamed player is told, for anything but a new name.
pub const RENAMED: &str = "an operator renamed you: pick a new name with register NAME";

/// Whether the session's key or player is an operator: named by `--operators`, or in the
/// store (`quentin serve admin op NAME`).
#[must_use]
pub fn is_operator(ctx: &Context, who: &Who) -> bool {
    let name = who.player.as_ref().map(|(_, n)| n.as_str());
    ctx.access
        .lists()
        .operators
        .as_ref()
        .is_some_and(|list| list.has(&who.key, name))
        || who
            .player
            .as_ref()
            .is_some_and(|(id, _)| ctx.hub.sanctions().operators.contains(id))
}

/// Whether `abort ID` in this session is an operator's: an operator, and not a player of
/// game `id` (a player's own abort is the player's, with its rules).
#[must_use]
pub fn operator_abort(ctx: &Context, who: &Who, id: GameId) -> bool {
    let me = who.player.as_ref().map(|(id, _)| *id);
    is_operator(ctx, who)
        && ctx
            .hub
            .game(id, ctx.clock.now())
            .is_none_or(|g| me.is_none_or(|me| g.seat(me).is_none()))
}

/// An order in the bot protocol's `words` (`ban alice spam`): its answer, or `? not an
/// operator` for one who is not.
///
/// # Errors
/// Not an operator, bad words, or the order refused.
pub async fn order(ctx: &Context, who: &Who, words: &[&str]) -> Result<String, OrderRefusal> {
    if !is_operator(ctx, who) {
        return Err(OrderRefusal::NotAnOperator);
    }
    carry_out(ctx, who, &Order::parse(words)?).await
}

/// An `order` of an operator (the caller checked): its answer.
///
/// # Errors
/// The order refused.
pub async fn carry_out(ctx: &Context, who: &Who, order: &Order) -> Result<String, OrderRefusal> {
    // Whom the log names: the operator's name, or the key of one not registered.
    let by = who
        .player
        .as_ref()
        .map_or_else(|| who.key.clone(), |(_, name)| name.clone());
    let answer = ctx.moderation.order(ctx, &by, order).await?;
    Ok(match order {
        Order::Players(_) => match ctx.access.lists().operators.as_ref() {
            Some(list) => flag_file_operators(&answer, |key, name| list.has(key, Some(name))),
            None => answer,
        },
        _ => answer,
    })
}

/// The lines of `players` with each player the operators' file names (by key or name) flagged
/// `operator`, as the store's operators are: the store knows only its own.
fn flag_file_operators(answer: &str, named: impl Fn(&str, &str) -> bool) -> String {
    answer
        .lines()
        .map(|line| {
            let words: Vec<&str> = line.split(' ').collect();
            // `NAME key KEY games N aborts N [operator] ...`
            match words.as_slice() {
                [name, "key", key, "games", _, "aborts", _, rest @ ..]
                    if rest.first() != Some(&"operator") && named(key, name) =>
                {
                    let mut flagged = words[..7].to_vec();
                    flagged.push("operator");
                    flagged.extend_from_slice(rest);
                    flagged.join(" ")
                }
                _ => line.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether player `id` was renamed by an operator and must pick a new name.
#[must_use]
pub fn renamed(ctx: &Context, id: PlayerId) -> bool {
    ctx.hub.sanctions().renamed.contains(&id)
}

/// What a banned player is told: the ban in force for player `id`.
#[must_use]
pub fn ban_words(ctx: &Context, id: Option<PlayerId>) -> String {
    id.and_then(|id| {
        ctx.hub
            .sanctions()
            .ban_of(id, ctx.clock.now())
            .map(ToString::to_string)
    })
    .unwrap_or_else(|| "you are banned from this server".to_string())
}

/// What a login of player `id` (if registered) is refused with: the ban in force, if any.
#[must_use]
pub fn ban_at_login(ctx: &Context, id: Option<PlayerId>) -> Option<String> {
    let id = id?;
    let sanctions = ctx.hub.sanctions();
    sanctions
        .ban_of(id, ctx.clock.now())
        .map(ToString::to_string)
}

/// Keeps a login of `key` from `address`, for the operators' `players` (in the background: a
/// login never waits for it).
pub fn keep_login(ctx: &Context, key: &str, address: std::net::IpAddr) {
    let ledger = ctx.moderation.ledger().clone();
    let (key, at) = (key.to_string(), ctx.clock.now());
    tokio::spawn(async move {
        if let Err(e) = ledger.login(&key, &address.to_string(), at).await {
            tracing::warn!("cannot keep a login's address: {e:#}");
        }
    });
}

/// Returns once player `id` is banned (never, if they are not): a session of theirs then ends
/// (`channel::Ended::Banned`).
pub async fn banned(ctx: Arc<Context>, id: PlayerId) {
    let mut news = ctx.hub.watch_sanctions();
    let gone = news
        .wait_for(|s| s.ban_of(id, ctx.clock.now()).is_some())
        .await
        .is_err();
    if gone {
        std::future::pending::<()>().await;
    }
}

/// Player `id`, renamed by an operator, picks `name`: kept in the store and in this process's
/// memory (the others read it within a second); the player's number and new name.
///
/// # Errors
/// A bad name, a name taken, a store that cannot save.
pub async fn pick(
    ctx: &Context,
    id: PlayerId,
    name: &str,
) -> Result<(PlayerId, String), OrderRefusal> {
    if !crate::hub::good_name(name) {
        return Err(OrderRefusal::BadName);
    }
    let now = ctx.clock.now();
    match ctx.moderation.ledger().pick_name(id, name, now).await {
        Ok(Ok(())) => {}
        Ok(Err(why)) => return Err(why),
        Err(e) => {
            tracing::error!("the ledger cannot save a new name: {e:#}");
            return Err(OrderRefusal::NotSaved);
        }
    }
    if let Err(e) = ctx.moderation.refresh(&ctx.hub, now).await {
        tracing::warn!("cannot read the ledger again: {e:#}");
    }
    Ok((id, name.to_string()))
}

#[cfg(test)]
mod tests {
    use super::flag_file_operators;

    #[test]
    fn a_player_the_operators_file_names_is_flagged_operator_once() {
        let answer = "ann key SHA256:a games 3 aborts 0 addresses 10.0.0.1\n\
                      bob key SHA256:b games 1 aborts 0 operator addresses -\n\
                      same addresses: eve";
        let named = |key: &str, name: &str| key == "SHA256:a" || name == "bob";
        assert_eq!(
            flag_file_operators(answer, named),
            "ann key SHA256:a games 3 aborts 0 operator addresses 10.0.0.1\n\
             bob key SHA256:b games 1 aborts 0 operator addresses -\n\
             same addresses: eve"
        );
    }
}
