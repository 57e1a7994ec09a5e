//! A parsed command run against the hub: the one login check ([`admit`]), then one arm per
//! command, each giving a typed [`Outcome`] or [`Refused`] (their words are written in
//! [`super::answer`]).

use super::Reader;
use super::answer::{Outcome, Refused};
use super::command::PuzzleWay;
use super::command::{BotCommand, Gate, ParseError, TakebackReply};
use super::puzzle::LEADERS;
use super::wait::{rematch, wait};
use crate::context::Context;
use crate::context::session;
use crate::hub::{PAGE, Refusal};
use crate::ids::{GameId, PlayerId};
use crate::moderation::{self, Order};
use crate::puzzles;
use crate::puzzles::Served;
use crate::puzzles::run::Run;
use crate::tournament::{Status, TournamentId, TournamentRefusal};
use crate::who::Who;
use quentin_app::puzzle_modes::{Choice, Difficulty, Way};

/// Runs a line for `who`: the gate first (one not admitted hears why, even when the line
/// does not parse), then the command. `register` may give the session its player.
pub(super) async fn line(
    ctx: &Context,
    who: &mut Who,
    reader: &mut Reader,
    line: Result<BotCommand, ParseError>,
) -> Result<Outcome, Refused> {
    let gate = match &line {
        Ok(command) => command.gate(),
        Err(error) => error.gate,
    };
    // An operator's abort of a game not theirs is the order.
    let line = match gate {
        Gate::Abort(id) if session::operator_abort(ctx, who, id) => match line {
            Ok(_) => Ok(BotCommand::Order(Order::Abort(id))),
            Err(_) => Err(ParseError {
                why: moderation::ABORT_USAGE.to_string(),
                gate: Gate::Operator,
            }),
        },
        _ => line,
    };
    let gate = match &line {
        Ok(command) => command.gate(),
        Err(error) => error.gate,
    };
    admit(ctx, who, gate)?;
    command_of(ctx, who, reader, line.map_err(Refused::Parse)?).await
}

/// The login check: whether `who` may give a command behind `gate`.
fn admit(ctx: &Context, who: &Who, gate: Gate) -> Result<(), Refused> {
    let renamed = who
        .player
        .as_ref()
        .is_some_and(|(id, _)| session::renamed(ctx, *id));
    match (gate, &who.player) {
        (Gate::Anyone, _) => Ok(()),
        (Gate::Newcomer, Some((_, name))) if !renamed => {
            Err(Refused::AlreadyRegistered(name.clone()))
        }
        (Gate::Newcomer, _) => Ok(()),
        (Gate::Operator, _) if session::is_operator(ctx, who) => Ok(()),
        (Gate::Operator, _) => Err(Refused::NotAnOperator),
        (Gate::Player | Gate::Abort(_), _) if renamed => Err(Refused::Renamed),
        (Gate::Registered | Gate::Player | Gate::Abort(_), None) => Err(Refused::RegisterFirst),
        (Gate::Registered | Gate::Player | Gate::Abort(_), Some(_)) => Ok(()),
    }
}

/// The session's player's number: every command past [`admit`] that needs one has one.
fn me(who: &Who) -> Result<PlayerId, Refused> {
    who.player
        .as_ref()
        .map(|(id, _)| *id)
        .ok_or(Refused::RegisterFirst)
}

/// Runs `command`, admitted: one arm a command.
async fn command_of(
    ctx: &Context,
    who: &mut Who,
    reader: &mut Reader,
    command: BotCommand,
) -> Result<Outcome, Refused> {
    let now = ctx.clock.now();
    let hub = &ctx.hub;
    let done = |()| Outcome::Done;
    Ok(match command {
        BotCommand::Quit => Outcome::Done,
        BotCommand::Register(name) => register(ctx, who, &name).await?,
        BotCommand::Whoami => Outcome::Name(name(who)?),
        // The host's message of the day, a line a line, to anyone.
        BotCommand::Motd => Outcome::Motd(ctx.access.lists().motd.clone()),
        BotCommand::Order(order) => Outcome::Ordered(session::carry_out(ctx, who, &order).await?),
        BotCommand::Challenge(spec) => {
            Outcome::Challenged(hub.challenge(me(who)?, &spec, now).await?)
        }
        BotCommand::Challenges { game, after } => {
            let (page, more) = hub.challenges_page(me(who)?, game, after, PAGE);
            Outcome::Challenges { page, more, game }
        }
        BotCommand::Accept(id) => {
            let (game, color) = hub.accept(me(who)?, id, now).await?;
            Outcome::Accepted { game, color }
        }
        BotCommand::Withdraw(id) => done(hub.withdraw(me(who)?, id).await?),
        BotCommand::Play { game, action } => done(hub.play(me(who)?, game, action, now).await?),
        BotCommand::Resign(id) => done(hub.resign(me(who)?, id, now).await?),
        BotCommand::Abort(id) => done(hub.abort(me(who)?, id, now).await?),
        BotCommand::Takeback { game, reply } => takeback(ctx, me(who)?, game, reply).await?,
        BotCommand::Rematch { game, decline } => {
            rematch(ctx, me(who)?, game, decline, reader).await?
        }
        BotCommand::Wait(id) => wait(ctx, me(who)?, id, reader).await?,
        BotCommand::Record(id) => Outcome::Record(
            hub.record(id, now)
                .ok_or_else(|| Refused::Hub(hub.missing(id)))?,
        ),
        BotCommand::Games { json, skip } => {
            let me = me(who)?;
            let (page, more) = hub.games_page(me, now, skip, PAGE);
            Outcome::Games {
                page,
                more,
                json,
                skip,
                me,
            }
        }
        BotCommand::Next => Outcome::Next(hub.next_game(me(who)?, now)),
        BotCommand::Vacation(None) => Outcome::Vacation(hub.vacation(me(who)?, now).await?),
        BotCommand::Vacation(Some(days)) => Outcome::Vacation(
            hub.take_vacation(me(who)?, days, None, now)
                .await
                .map_err(|e| Refused::Said(e.to_string()))?,
        ),
        BotCommand::Tournaments => Outcome::Tournaments(hub.tournaments(now)),
        BotCommand::Tournament(id) => Outcome::Tournament(
            hub.tournament(id, now)
                .ok_or(TournamentRefusal::NoSuch(id))?,
        ),
        BotCommand::CreateTournament(settings) => {
            Outcome::TournamentMade(hub.create_tournament(me(who)?, &settings, now).await?)
        }
        BotCommand::StartTournament(id) => done(hub.start_tournament(me(who)?, id, now).await?),
        BotCommand::PauseTournament { id, paused } => {
            done(hub.pause_tournament(me(who)?, id, paused).await?)
        }
        BotCommand::Join(id) => done(hub.join_tournament(me(who)?, id).await?),
        BotCommand::WithdrawTournament { id, at_once } => {
            done(hub.withdraw_tournament(me(who)?, id, at_once, now).await?)
        }
        BotCommand::CancelTournament(id) => cancel_tournament(ctx, who, id).await?,
        BotCommand::Messages => Outcome::Messages(
            ctx.moderation
                .ledger()
                .messages(me(who)?)
                .await
                .map_err(|e| {
                    tracing::error!("cannot read a player's messages: {e:#}");
                    Refusal::NotSaved
                })?,
        ),
        BotCommand::NextPuzzle(game) => {
            Outcome::Puzzle(puzzles::next(hub, me(who)?, game, Difficulty::Normal).await?)
        }
        BotCommand::PuzzleAt(difficulty) => {
            Outcome::Puzzle(puzzles::next(hub, me(who)?, None, difficulty).await?)
        }
        BotCommand::Puzzle(id) => Outcome::Puzzle(puzzles::one(hub, &id).await?),
        BotCommand::PuzzleRating => Outcome::PuzzleRating(puzzles::rating(hub, me(who)?).await?),
        BotCommand::PuzzleLeaders => Outcome::PuzzleLeaders(puzzles::leaders(hub, LEADERS).await?),
        BotCommand::PuzzleWay(way) => {
            Outcome::Puzzle(puzzle_way(ctx, me(who)?, &mut reader.puzzles, way).await?)
        }
        BotCommand::Solve { puzzle, moves } => match &mut reader.puzzles {
            Some(run) if run.counts(&puzzle) => {
                let block = crate::puzzles::block_words(who.address);
                Outcome::Counted(
                    run.solve(hub, (me(who)?, block), &puzzle, &moves, now)
                        .await?,
                )
            }
            _ => Outcome::Solved(
                puzzles::solve(hub, me(who)?, who.address, &puzzle, &moves, now).await?,
            ),
        },
    })
}

/// `puzzle streak|storm|again|theme T`: the connection's run taken that way (a Streak or a
/// Storm goes on while it runs, a new one after its end), and its next puzzle.
async fn puzzle_way(
    ctx: &Context,
    me: PlayerId,
    run: &mut Option<Run>,
    way: PuzzleWay,
) -> Result<Served, Refused> {
    let now = ctx.clock.now();
    let choice = match way {
        PuzzleWay::Streak => Choice::Streak,
        PuzzleWay::Storm => Choice::Storm,
        PuzzleWay::Again => Choice::Again,
        PuzzleWay::Theme(_) => Choice::Rated(Difficulty::Normal),
    };
    let run = match run {
        Some(run) => run,
        None => run.insert(Run::new(
            Way::Rated(Difficulty::Normal),
            Run::bests(&ctx.hub, me).await,
            now,
        )),
    };
    run.tick(now);
    let going_on = matches!(
        (way, run.way),
        (PuzzleWay::Streak, Way::Streak { ended: false, .. })
    ) || matches!((way, run.way), (PuzzleWay::Storm, Way::Storm(s)) if !s.over());
    if !going_on {
        run.choose(choice, now);
        run.theme = match way {
            PuzzleWay::Theme(theme) => Some(theme),
            _ => None,
        };
    }
    Ok(run.next(&ctx.hub, me).await?)
}

/// The session's player's name: every command past [`admit`] that needs one has one.
fn name(who: &Who) -> Result<String, Refused> {
    who.player
        .as_ref()
        .map(|(_, name)| name.clone())
        .ok_or(Refused::RegisterFirst)
}

/// `register NAME`: a name for the session's key (a new player), or the new name of one an
/// operator renamed.
async fn register(ctx: &Context, who: &mut Who, name: &str) -> Result<Outcome, Refused> {
    if let Some((id, _)) = who.player {
        who.player = Some(session::pick(ctx, id, name).await?);
        return Ok(Outcome::Done);
    }
    ctx.signups.may(who.address).map_err(Refused::Said)?;
    let (id, name) = ctx.hub.register(&who.key, name, ctx.clock.now()).await?;
    ctx.signups.counted(who.address);
    ctx.hub.enter(id, ctx.limits.sessions_per_key)?;
    who.player = Some((id, name));
    Ok(Outcome::Done)
}

/// `takeback ID` asks (`= asked N`, the number of actions it would take back), `takeback ID
/// yes` agrees to the opponent's asking (`= taken N`), `takeback ID no` declines it.
async fn takeback(
    ctx: &Context,
    me: PlayerId,
    id: GameId,
    reply: TakebackReply,
) -> Result<Outcome, Refused> {
    let now = ctx.clock.now();
    let hub = &ctx.hub;
    let view = hub.game(id, now).ok_or_else(|| hub.missing(id))?;
    let seat = view.seat(me).ok_or(Refusal::NotYourGame)?;
    let theirs = view.takeback_asked().filter(|(asker, _)| *asker != seat);
    match (reply, theirs) {
        (TakebackReply::Ask, Some(_)) => Err(Refused::OpponentAskedTakeback(id)),
        (TakebackReply::Ask, None) => {
            hub.takeback(me, id, now).await?;
            let asked = hub
                .game(id, ctx.clock.now())
                .and_then(|v| v.takeback_asked())
                .map_or(0, |(_, n)| n);
            Ok(Outcome::TakebackAsked(asked))
        }
        (TakebackReply::Yes, Some((_, n))) => {
            hub.takeback(me, id, now).await?;
            Ok(Outcome::TakenBack(n))
        }
        (TakebackReply::No, Some(_)) => {
            hub.decline_takeback(me, id, now).await?;
            Ok(Outcome::Done)
        }
        (TakebackReply::Yes | TakebackReply::No, None) => Err(Refused::NoTakebackAsked),
        (TakebackReply::Other, _) => Err(Refused::TakebackUsage),
    }
}

/// `tournament cancel ID`: its creator cancels it before its start; an operator cancels any
/// not over (an order, in the audit log), its games under way aborted, answered once its
/// director (maybe another process) has, or after 3 seconds. Each entrant is left a message.
async fn cancel_tournament(ctx: &Context, who: &Who, id: TournamentId) -> Result<Outcome, Refused> {
    let me = me(who)?;
    let now = ctx.clock.now();
    let own = ctx
        .hub
        .tournament(id, now)
        .is_some_and(|v| v.status == Status::Open && ctx.hub.player_named(&v.creator) == Some(me));
    if own || !session::is_operator(ctx, who) {
        ctx.hub.cancel_tournament(me, id, now).await?;
        return Ok(Outcome::Cancelled);
    }
    session::carry_out(ctx, who, &Order::CancelTournament(id)).await?;
    let mut lobby = ctx.hub.watch_lobby();
    let cancelled = || {
        ctx.hub
            .tournament(id, ctx.clock.now())
            .is_some_and(|v| v.status == Status::Cancelled)
    };
    let _ = tokio::time::timeout(std::time::Duration::from_secs(3), async {
        while !cancelled() {
            if lobby.changed().await.is_err() {
                break;
            }
        }
    })
    .await;
    Ok(Outcome::Cancelled)
}
