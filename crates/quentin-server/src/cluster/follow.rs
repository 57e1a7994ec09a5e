//! Following the other processes: a connection of its own listens on the channel; what they
//! committed is read back from the database and copied into the hub (all that came together
//! read at once), commands for the games this process owns are run and answered, and answers
//! to the commands this process passed on reach their waiters.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Result;
use tokio::sync::{mpsc, oneshot};

use super::{Cluster, lock};
use crate::context::Context;
use crate::hub::{Owner, Peers, Refusal};
use crate::ids::{ChallengeId, GameId, PlayerId, TournamentId};
use crate::metrics::metrics;
use crate::note::{Answer, Note};
use crate::report::survive;
use crate::store::postgres::{
    games, open_challenges, players, pool_error, presence, relay, tournaments,
};

/// For a test server (the hooks `notes stop`, `notes read`): while false, this process reads
/// nothing the other processes say; what they say waits, in order, until it reads again.
/// Always true elsewhere: nothing else sets it.
pub(crate) static READING: std::sync::LazyLock<tokio::sync::watch::Sender<bool>> =
    std::sync::LazyLock::new(|| tokio::sync::watch::channel(true).0);

/// What the following task hears.
pub(super) enum Heard {
    /// A notification's payload, and when it came.
    Note(String, Instant),
    /// The notifications were lost: everything is read again.
    Resync,
    /// A command names challenge or game `id`, which this process has not heard of (made on
    /// another process a moment ago, its news not here yet): read as if its news had come,
    /// in order with the rest, and told when read.
    Look(GameId, oneshot::Sender<()>),
}

/// What was said on the channel since the last read.
#[derive(Default)]
struct News {
    players: BTreeSet<PlayerId>,
    challenges: BTreeSet<ChallengeId>,
    games: BTreeSet<GameId>,
    tournaments: BTreeSet<TournamentId>,
    online: bool,
    /// Answers to give once the games of this batch are read.
    answers: Vec<(oneshot::Sender<Answer>, Answer)>,
    /// Look-ups to tell once this batch is read.
    looked: Vec<oneshot::Sender<()>>,
}

/// Starts listening (the first connection made before this returns, so that nothing
/// committed after it is missed), and the task that acts on what is heard; what it is given
/// to hear besides (look-ups) goes to the sender it returns.
///
/// # Errors
/// A database that cannot be reached.
pub(super) async fn start(cluster: Arc<Cluster>) -> Result<mpsc::UnboundedSender<Heard>> {
    let (heard, hearing) = mpsc::unbounded_channel();
    let looks = heard.clone();
    let first = listen(&cluster.config, heard.clone()).await?;
    let config = cluster.config.clone();
    tokio::spawn(async move {
        let (mut connection, mut _client) = first;
        loop {
            let _ = connection.await;
            tracing::error!("lost the database's notifications: listening again");
            loop {
                tokio::time::sleep(Duration::from_secs(1)).await;
                match listen(&config, heard.clone()).await {
                    Ok(next) => {
                        (connection, _client) = next;
                        // What was said meanwhile is lost: everything is read again.
                        let _ = heard.send(Heard::Resync);
                        break;
                    }
                    Err(e) => tracing::error!("cannot listen to the database: {e:#}"),
                }
            }
        }
    });
    tokio::spawn(act(cluster, hearing));
    Ok(looks)
}

/// A listening connection: its notifications go to `heard` until its task ends. The client
/// given back keeps the connection open.
async fn listen(
    config: &tokio_postgres::Config,
    heard: mpsc::UnboundedSender<Heard>,
) -> Result<(tokio::task::JoinHandle<()>, tokio_postgres::Client)> {
    relay::listen(config, move |payload, came| {
        let _ = heard.send(Heard::Note(payload, came));
    })
    .await
}

/// Acts on what is heard, all that came together at once. One task reads everything, in
/// order: a copy in memory never goes back to an older state of the database.
async fn act(cluster: Arc<Cluster>, mut hearing: mpsc::UnboundedReceiver<Heard>) {
    while let Some(first) = hearing.recv().await {
        let _ = READING.subscribe().wait_for(|reading| *reading).await;
        let Some(ctx) = cluster.ctx() else { return };
        let mut news = News::default();
        let mut resync = false;
        let mut earliest: Option<Instant> = None;
        let mut next = Some(first);
        while let Some(heard) = next {
            match heard {
                Heard::Note(payload, came) => {
                    earliest.get_or_insert(came);
                    take(&cluster, &ctx, &payload, &mut news);
                }
                Heard::Resync => resync = true,
                Heard::Look(id, done) => {
                    news.challenges.insert(id.challenge());
                    news.games.insert(id);
                    news.looked.push(done);
                }
            }
            next = hearing.try_recv().ok();
        }
        let read = async {
            if resync {
                resync_all(&cluster, &ctx).await
            } else {
                copy(&cluster, &ctx, &news).await
            }
        };
        if let Err(e) = read.await {
            tracing::error!("cannot read what the other server processes changed: {e:#}");
        }
        if let Some(came) = earliest {
            metrics()
                .relay_seconds
                .observe(came.elapsed().as_secs_f64());
        }
        for (waiter, answer) in news.answers {
            let _ = waiter.send(answer);
        }
        for done in news.looked {
            let _ = done.send(());
        }
    }
}

/// One notification: a [`Note`] from another process. One this process cannot read (from a
/// newer quentin, or damaged) is logged and left.
fn take(cluster: &Arc<Cluster>, ctx: &Arc<Context>, payload: &str, news: &mut News) {
    let (from, note) = match Note::read(payload) {
        Ok(read) => read,
        Err(e) => {
            tracing::warn!("{e}");
            return;
        }
    };
    if from == cluster.name {
        return;
    }
    match note {
        Note::Player(id) => {
            news.players.insert(id);
        }
        Note::Challenge(id) => {
            news.challenges.insert(id);
        }
        Note::Tournament(id) => {
            news.tournaments.insert(id);
        }
        Note::Game(id) => {
            // Only a game's owner commits it.
            cluster.set_owner(id, Some(from.to_string()));
            news.games.insert(id);
        }
        Note::Move {
            game,
            index,
            action,
            left,
            at,
        } => {
            cluster.set_owner(game, Some(from.to_string()));
            // A move that comes with its news is played on the copy; one that does not
            // follow from the copy is read.
            if !ctx.hub.mirror_move(game, index, action, left, at) {
                news.games.insert(game);
            }
        }
        Note::Takeback { game, seat } => ctx.hub.mirror_takeback(game, seat),
        Note::Rematch { game, seat } => {
            // Both players asked at once, each on a process of their own: this one starts it.
            if ctx.hub.mirror_rematch(game, seat) {
                let ctx = ctx.clone();
                tokio::spawn(async move {
                    let now = ctx.clock.now();
                    if let Err(refusal) = ctx.hub.start_rematch(game, now).await {
                        tracing::warn!(%game, "cannot start the rematch both asked for: {refusal}");
                    }
                });
            }
        }
        Note::RematchStarted { game, next } => ctx.hub.rematch_started(game, next),
        Note::Online => news.online = true,
        Note::Ask {
            to,
            request,
            player,
            game,
            command,
        } if to == cluster.name => {
            let (cluster, ctx, from) = (cluster.clone(), ctx.clone(), from.to_string());
            tokio::spawn(survive(
                "a command from another server process",
                async move {
                    let answer = match command {
                        None => Answer::Given(Err(Refusal::NotSaved)),
                        Some(_) if cluster.owner(game) != Owner::Me => {
                            Answer::Given(Err(Refusal::Moving))
                        }
                        Some(command) => Answer::from(
                            &ctx.hub
                                .act_here(player, game, command, ctx.clock.now())
                                .await,
                        ),
                    };
                    cluster.note(Note::Answer {
                        to: from,
                        request,
                        answer,
                    });
                },
            ));
        }
        Note::Answer {
            to,
            request,
            answer,
        } if to == cluster.name => {
            if let Some((game, waiter)) = lock(&cluster.pending).remove(&request) {
                // The game's news came before its answer: played on the copy already, or to
                // be read in this batch, after which the answer is given.
                if news.games.contains(&game) {
                    news.answers.push((waiter, answer));
                } else {
                    let _ = waiter.send(answer);
                }
            }
        }
        // Asked of, or answered to, another process.
        Note::Ask { .. } | Note::Answer { .. } => {}
    }
}

/// Reads what `news` names and copies it into the hub: the games before the challenges, so
/// that an accepted challenge is never seen gone before its game is there, and the players
/// they name that this process has not heard of (a look-up may come before their news) before
/// either.
async fn copy(cluster: &Cluster, ctx: &Context, news: &News) -> Result<()> {
    let client = cluster.pool.get().await.map_err(|e| pool_error(&e))?;
    // The games this process owns are its own to change.
    let ids: Vec<GameId> = news
        .games
        .iter()
        .copied()
        .filter(|id| cluster.owner(*id) != Owner::Me)
        .collect();
    let rows = if ids.is_empty() {
        Vec::new()
    } else {
        games(&**client, &ids, &mut Vec::new()).await?
    };
    let challenges: Vec<ChallengeId> = news.challenges.iter().copied().collect();
    let open = if challenges.is_empty() {
        Vec::new()
    } else {
        open_challenges(&**client, &challenges).await?
    };
    let named = rows
        .iter()
        .flat_map(|g| g.players)
        .chain(open.iter().flat_map(|c| [Some(c.by), c.to]).flatten());
    let unknown = ctx.hub.unknown_players(named);
    let ids: Vec<PlayerId> = news.players.iter().copied().chain(unknown).collect();
    if !ids.is_empty() {
        let (rows, ratings) = players(&**client, &ids).await?;
        ctx.hub.mirror_players(&rows, &ratings);
    }
    if !rows.is_empty() {
        // A rated game that ended changed its players' ratings.
        let rated: Vec<(GameId, [PlayerId; 2])> = rows
            .iter()
            .filter(|g| g.result.is_some() && g.rated)
            .map(|g| (g.id, g.players))
            .collect();
        let ended = ctx.hub.mirror_games(rows);
        let rated: Vec<(GameId, [PlayerId; 2])> = rated
            .into_iter()
            .filter(|(id, _)| ended.contains(id))
            .collect();
        if !rated.is_empty() {
            let ids: Vec<PlayerId> = rated.iter().flat_map(|(_, p)| *p).collect();
            let (rows, ratings) = players(&**client, &ids).await?;
            let games: Vec<GameId> = rated.iter().map(|(id, _)| *id).collect();
            ctx.hub.mirror_rating_changes(&games, &ratings);
            ctx.hub.mirror_players(&rows, &ratings);
        }
    }
    if !challenges.is_empty() {
        ctx.hub.mirror_challenges(&challenges, open);
    }
    // After the games, which their pairings name.
    if !news.tournaments.is_empty() {
        let mut damaged = Vec::new();
        let rows = tournaments::load(&**client, None, &mut damaged).await?;
        for bad in damaged {
            tracing::error!("{bad}: left as this process had it");
        }
        ctx.hub.mirror_tournaments(
            rows.into_iter()
                .filter(|t| news.tournaments.contains(&t.id))
                .collect(),
        );
    }
    if news.online {
        let elsewhere = presence::elsewhere(&**client, &cluster.name).await?;
        ctx.hub.mirror_online(elsewhere);
    }
    Ok(())
}

/// Reads everything again: at the start, and after the notifications were lost.
pub(super) async fn resync_all(cluster: &Cluster, ctx: &Context) -> Result<()> {
    let client = cluster.pool.get().await.map_err(|e| pool_error(&e))?;
    let all = relay::everything(&**client).await?;
    let news = News {
        players: all.players.into_iter().collect(),
        challenges: all
            .challenges
            .into_iter()
            .chain(ctx.hub.challenge_numbers())
            .collect(),
        games: all.games.into_iter().collect(),
        tournaments: all.tournaments.into_iter().collect(),
        online: true,
        answers: Vec::new(),
        looked: Vec::new(),
    };
    for (game, process) in all.owners {
        cluster.set_owner(game, Some(process));
    }
    drop(client);
    copy(cluster, ctx, &news).await
}
