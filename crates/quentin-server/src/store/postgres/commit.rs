//! Committing changes on PostgreSQL: each change in a transaction of its own, with the lease
//! of its game checked inside it and its notifications sent on commit.

use anyhow::{Result, anyhow};
use deadpool_postgres::Pool;
use tokio_postgres::Transaction;

use crate::game_end::GameEnd;
use crate::ids::{ChallengeId, GameId, Millis, Moment, PlayerId, Seat, TournamentId};
use crate::size_class::RatingKey;
use quentin_rules::Action;

use crate::note::Note;

use super::lease::{fence, owned};
use super::{lease, pool_error, relay};
use crate::store::tournaments::{self, Paired, TournamentChange};
use crate::store::{Applied, ChallengeRow, Change, GameRow, RatingRow, Stale, StoreDown};

/// The new ratings of a rated game's two players (`hub`'s, player 1's first, name them and
/// their game and class), computed from their rows as they are now, locked until the commit:
/// two games of one player that end at once on two processes both count, one after the other.
/// The rows are locked in the players' order, so two such transactions never deadlock.
async fn rate(
    tx: &Transaction<'_>,
    hub: &[(PlayerId, RatingKey, RatingRow)],
    winner: Option<Seat>,
) -> Result<Vec<(PlayerId, RatingKey, RatingRow)>> {
    let ([(p1, key, _), (p2, _, _)], fresh) = (
        <[_; 2]>::try_from(hub).map_err(|_| anyhow!("a rated game has two players"))?,
        RatingRow::default(),
    );
    let (game, class) = (key.0.name(), key.1.name());
    tx.execute(
        "INSERT INTO ratings(player, game, class, rating, deviation, volatility, games)
         SELECT p, $2, $3, $4, $5, $6, 0 FROM unnest($1::BIGINT[]) AS p
         ON CONFLICT (player, game, class) DO NOTHING",
        &[
            &vec![p1, p2],
            &game,
            &class,
            &fresh.rating,
            &fresh.deviation,
            &fresh.volatility,
        ],
    )
    .await?;
    let rows = tx
        .query(
            "SELECT player, rating, deviation, volatility, games FROM ratings
             WHERE player = ANY($1) AND game = $2 AND class = $3 ORDER BY player FOR UPDATE",
            &[&vec![p1, p2], &game, &class],
        )
        .await?;
    let of = |p: PlayerId| {
        rows.iter()
            .find(|r| r.get::<_, PlayerId>(0) == p)
            .map_or(fresh, |r| RatingRow {
                rating: r.get(1),
                deviation: r.get(2),
                volatility: r.get(3),
                games: r.get(4),
            })
    };
    let after = crate::rating::after_game([of(p1), of(p2)], winner);
    let mut out = Vec::with_capacity(2);
    for (player, r) in [p1, p2].into_iter().zip(after) {
        tx.execute(
            "UPDATE ratings SET rating = $4, deviation = $5, volatility = $6, games = $7
             WHERE player = $1 AND game = $2 AND class = $3",
            &[
                &player,
                &game,
                &class,
                &r.rating,
                &r.deviation,
                &r.volatility,
                &r.games,
            ],
        )
        .await?;
        out.push((player, key, r));
    }
    Ok(out)
}

/// What a change gave, and what to tell the other processes of it.
type Outcome = (Applied, Vec<Note>);

/// Applies one change in `tx`: its outcome, and what to tell the other processes.
async fn apply(tx: &Transaction<'_>, process: &str, change: &Change) -> Result<Outcome> {
    match change {
        Change::AddPlayer { key, name, at } => add_player(tx, key, name, *at).await,
        Change::AddChallenge(c) => add_challenge(tx, c).await,
        Change::CloseChallenge(id) => close_challenge(tx, *id).await,
        Change::StartGame(game) => start_game(tx, process, game).await,
        Change::AddAction {
            game,
            index,
            action,
            left,
            at,
            end,
            winner,
            ratings,
            since,
        } => {
            let step = Step {
                game: *game,
                index: *index,
                action: *action,
                left: *left,
                at: *at,
            };
            let end = end.as_ref().map(|end| (end, *since));
            add_action(tx, process, &step, end, *winner, ratings).await
        }
        Change::TakeBack {
            game,
            index,
            left,
            at,
        } => take_back(tx, process, *game, *index, *left, *at).await,
        // Several processes keep no one heartbeat, and forgive no downtime all at once: each
        // game's owner renews its lease, and a takeover forgives the time since the last
        // renewal (docs/server.md). A heartbeat copied from SQLite stays, for the
        // games that were never owned here.
        Change::Beat(_) | Change::Forgive(_) => Ok((Applied::Done, Vec::new())),
        Change::AddPuzzles(rows) => Ok((super::puzzles::add(tx, rows).await?, Vec::new())),
        Change::Attempt(attempt) => Ok((super::puzzles::attempt(tx, attempt).await?, Vec::new())),
        Change::Tournament(change) => tournament(tx, process, change).await,
    }
}

/// A change of a tournament, counted in its `version` when it wrote anything, and given back
/// with the tournament's rows as the database holds them after it, in its transaction: the
/// process's copy is replaced by them (`Hub::submit`), so that no read begun before this
/// commit can undo it.
async fn tournament(
    tx: &Transaction<'_>,
    process: &str,
    change: &TournamentChange,
) -> Result<Outcome> {
    let (applied, notes) = tournament_change(tx, process, change).await?;
    let Some(id) = tournaments::changed(change, &applied) else {
        return Ok((applied, notes));
    };
    if applied.wrote() {
        super::tournaments::count_change(tx, id).await?;
    }
    let row = super::tournaments::load(tx, Some(id), &mut Vec::new())
        .await?
        .pop();
    Ok((Applied::tournament(applied, row), notes))
}

/// A change of a tournament, as it is applied.
async fn tournament_change(
    tx: &Transaction<'_>,
    process: &str,
    change: &TournamentChange,
) -> Result<Outcome> {
    let TournamentChange::Paired {
        tournament,
        start,
        known,
        plan,
    } = change
    else {
        return written(tx, process, change).await;
    };
    // The entrants read under the tournament's lock, and the round paired from them written
    // in this same transaction.
    let (entrants, round) =
        match super::tournaments::plan(tx, *tournament, *start, *known, plan).await? {
            Ok(planned) => planned,
            Err(applied) => return Ok((applied, Vec::new())),
        };
    let Some(mut round) = round else {
        let paired = Paired {
            entrants,
            round: None,
        };
        return Ok((Applied::Paired(paired), Vec::new()));
    };
    let change = TournamentChange::Round {
        tournament: *tournament,
        byes: round.byes.clone(),
        games: round.games.clone(),
    };
    let (Applied::Ids(ids), notes) = written(tx, process, &change).await? else {
        anyhow::bail!("a round without its games' numbers");
    };
    for ((_, game), id) in round.games.iter_mut().zip(ids) {
        game.id = id;
    }
    let paired = Paired {
        entrants,
        round: Some(round),
    };
    Ok((Applied::Paired(paired), notes))
}

/// A change of a tournament but a paired round; a pairing's game starts as every game does,
/// taking a challenge's number.
async fn written(
    tx: &Transaction<'_>,
    process: &str,
    change: &TournamentChange,
) -> Result<Outcome> {
    let mut notes = Vec::new();
    let mut games = Vec::new();
    let rows: Vec<&GameRow> = match change {
        TournamentChange::Pair { game: row, .. } => vec![row],
        TournamentChange::Round { games: rows, .. } => rows.iter().map(|(_, g)| g).collect(),
        _ => Vec::new(),
    };
    // Every game of a round in this one transaction: written whole or not at all.
    for row in rows {
        let (Applied::Id(id), _) = add_challenge(tx, &tournaments::challenge_of(row)).await? else {
            anyhow::bail!("a challenge without a number");
        };
        notes.extend(
            start_game(
                tx,
                process,
                &GameRow {
                    id: GameId(id),
                    ..row.clone()
                },
            )
            .await?
            .1,
        );
        games.push(GameId(id));
    }
    let applied = super::tournaments::apply(tx, process, change, &games).await?;
    // The other processes read the tournament again.
    let id = match (&applied, change) {
        (_, TournamentChange::Direct(_)) => None,
        (Applied::Id(id), TournamentChange::Create(_)) => Some(TournamentId(*id)),
        _ => change.tournament(),
    };
    notes.extend(id.map(Note::Tournament));
    Ok((applied, notes))
}

/// A new player, unless the name or the key is taken.
async fn add_player(tx: &Transaction<'_>, key: &str, name: &str, at: Moment) -> Result<Outcome> {
    let row = tx
        .query_opt(
            "INSERT INTO players(name, key, created) VALUES ($1, $2, $3)
             ON CONFLICT DO NOTHING RETURNING id",
            &[&name, &key, &at],
        )
        .await?;
    Ok(match row {
        Some(r) => {
            let id: i64 = r.get(0);
            (Applied::Id(id), vec![Note::Player(PlayerId(id))])
        }
        None => (Applied::Taken, Vec::new()),
    })
}

/// A new open challenge.
async fn add_challenge(tx: &Transaction<'_>, c: &ChallengeRow) -> Result<Outcome> {
    let id: i64 = tx
        .query_one(
            "INSERT INTO challenges(\"by\", game, size, pie, pieces, first, clock, rated,
                                    to_player)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
            &[
                &c.by,
                &c.setup.game.name(),
                &(c.setup.size as i64),
                &c.setup.pie,
                &(c.setup.pieces as i64),
                &c.first.name(),
                &c.clock.stored(),
                &c.rated,
                &c.to,
            ],
        )
        .await?
        .get(0);
    Ok((Applied::Id(id), vec![Note::Challenge(ChallengeId(id))]))
}

/// A challenge withdrawn, unless it is closed already.
async fn close_challenge(tx: &Transaction<'_>, id: ChallengeId) -> Result<Outcome> {
    let n = tx
        .execute(
            "UPDATE challenges SET open = FALSE WHERE id = $1 AND open",
            &[&id],
        )
        .await?;
    Ok(if n == 0 {
        (Applied::Taken, Vec::new())
    } else {
        (Applied::Done, vec![Note::Challenge(id)])
    })
}

/// A challenge's game begins, owned by this process, and the challenge closes.
async fn start_game(tx: &Transaction<'_>, process: &str, game: &GameRow) -> Result<Outcome> {
    let n = tx
        .execute(
            "UPDATE challenges SET open = FALSE WHERE id = $1 AND open",
            &[&game.id],
        )
        .await?;
    if n == 0 {
        // Accepted or withdrawn on another process meanwhile.
        return Ok((Applied::Taken, Vec::new()));
    }
    tx.execute(
        "INSERT INTO games(id, game, size, pie, pieces, player1, player2, clock, rated,
                           left1, left2, turn_since)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
        &[
            &game.id,
            &game.setup.game.name(),
            &(game.setup.size as i64),
            &game.setup.pie,
            &(game.setup.pieces as i64),
            &game.players[0],
            &game.players[1],
            &game.clock.stored(),
            &game.rated,
            &game.left[0],
            &game.left[1],
            &game.turn_since,
        ],
    )
    .await?;
    lease::start(tx, game.id, process).await?;
    Ok((
        Applied::Done,
        vec![Note::Challenge(game.id.challenge()), Note::Game(game.id)],
    ))
}

/// One step of a game: an action (or none: an end by resignation or time) and the clocks after.
#[derive(Clone, Copy)]
pub(super) struct Step {
    pub(super) game: GameId,
    pub(super) index: usize,
    pub(super) action: Option<Action>,
    pub(super) left: [Millis; 2],
    pub(super) at: Moment,
}

impl Step {
    /// What the other processes are told of it: the move itself goes with the news, so that
    /// they need not read it back; anything else (an end) is read back.
    pub(super) fn note(&self, ended: bool) -> Note {
        match self.action {
            Some(action) if !ended => Note::Move {
                game: self.game,
                index: self.index,
                action,
                left: self.left,
                at: self.at,
            },
            _ => Note::Game(self.game),
        }
    }
}

/// A game's step, its end when it ended the game (with, for an end on time, the start of the
/// turn it was judged from), and the ratings that changed.
async fn add_action(
    tx: &Transaction<'_>,
    process: &str,
    step: &Step,
    end: Option<(&GameEnd, Option<Moment>)>,
    winner: Option<Seat>,
    ratings: &[(PlayerId, RatingKey, RatingRow)],
) -> Result<Outcome> {
    let Step {
        game,
        index,
        action,
        left,
        at,
    } = *step;
    owned(tx, process, game).await?;
    // An end on time judged before a takeover forgave an outage (this process's own copy not
    // yet told, the lease taken again by this very process): the turn moved on, and the clock
    // has time left. Under the lease's lock, so no takeover comes between.
    if let Some((_, Some(since))) = end {
        let now: Moment = tx
            .query_one("SELECT turn_since FROM games WHERE id = $1", &[&game])
            .await?
            .get(0);
        if now != since {
            return Err(Stale(game).into());
        }
    }
    let end = end.map(|(end, _)| end);
    if let Some(action) = action {
        tx.execute(
            "INSERT INTO moves(game, idx, action, at) VALUES ($1, $2, $3, $4)",
            &[&game, &(index as i64), &action.to_string(), &at],
        )
        .await?;
    }
    tx.execute(
        "UPDATE games SET left1 = $2, left2 = $3, turn_since = $4 WHERE id = $1",
        &[&game, &left[0], &left[1], &at],
    )
    .await?;
    if let Some((result, reason)) = end.map(|e| e.words()) {
        tx.execute(
            "UPDATE games SET result = $2, reason = $3, ended = $4 WHERE id = $1",
            &[&game, &result, &reason, &at],
        )
        .await?;
    }
    let rated = if ratings.is_empty() {
        None
    } else {
        Some(rate(tx, ratings, winner).await?)
    };
    fence(tx, process, game, end.is_some()).await?;
    Ok((
        rated.map_or(Applied::Done, Applied::Rated),
        vec![step.note(end.is_some())],
    ))
}

/// A game's actions from number `index` on taken back, with the clocks after.
async fn take_back(
    tx: &Transaction<'_>,
    process: &str,
    game: GameId,
    index: usize,
    left: [Millis; 2],
    at: Moment,
) -> Result<Outcome> {
    owned(tx, process, game).await?;
    tx.execute(
        "DELETE FROM moves WHERE game = $1 AND idx >= $2",
        &[&game, &(index as i64)],
    )
    .await?;
    tx.execute(
        "UPDATE games SET left1 = $2, left2 = $3, turn_since = $4 WHERE id = $1",
        &[&game, &left[0], &left[1], &at],
    )
    .await?;
    fence(tx, process, game, false).await?;
    Ok((Applied::Done, vec![Note::Game(game)]))
}

/// One change in a transaction of its own, with its notifications. A database that cannot be
/// reached (no connection, one lost, the pool's wait over) fails it with [`StoreDown`].
pub(super) async fn commit_one(pool: &Pool, process: &str, change: &Change) -> Result<Applied> {
    let committed = async {
        let mut client = pool
            .get()
            .await
            .map_err(|e| StoreDown(format!("{:#}", pool_error(&e))))?;
        commit_on(&mut client, process, change).await
    };
    committed.await.map_err(down)
}

/// An error of the database's connection (closed, lost, not the database's own verdict on a
/// statement) as [`StoreDown`]; any other as it is.
pub(super) fn down(e: anyhow::Error) -> anyhow::Error {
    let lost = e
        .downcast_ref::<tokio_postgres::Error>()
        .is_some_and(|e| e.is_closed() || e.as_db_error().is_none());
    if lost {
        StoreDown(format!("{e:#}")).into()
    } else {
        e
    }
}

async fn commit_on(
    client: &mut deadpool_postgres::Object,
    process: &str,
    change: &Change,
) -> Result<Applied> {
    let tx = client.transaction().await?;
    let (applied, notes) = apply(&tx, process, change).await?;
    for note in notes {
        relay::notify(&*tx, process, &note).await?;
    }
    tx.commit().await?;
    Ok(applied)
}
