//! Carrying out a player's, a challenge's or a game's change on PostgreSQL: the facts its plan
//! needs read (locked), the plan's writes made in PostgreSQL's SQL, a game's lease checked
//! before and after, and what to tell the other processes (the rules are
//! `crate::store::plan`'s).

use anyhow::Result;
use tokio_postgres::Transaction;
use tokio_postgres::types::ToSql;

use crate::ids::{ChallengeId, GameId, Millis, Moment, PlayerId};
use crate::note::Note;
use crate::size_class::RatingKey;
use crate::store::plan::{self, Facts, Need, Write};
use crate::store::sql::Sql;
use crate::store::{Applied, Change, GameRow, RatingRow, tournaments};
use quentin_rules::Action;

use super::lease::{self, fence, owned};

/// What a change gave, and what to tell the other processes of it.
pub(super) type Outcome = (Applied, Vec<Note>);

/// A change decided by `crate::store::plan`: a game's step or takeback only by the game's
/// owner (its lease held until the commit, and still held after the writes), the facts read
/// locked, the writes made, and what to tell the other processes.
pub(super) async fn planned(
    tx: &Transaction<'_>,
    process: &str,
    change: &Change,
) -> Result<Outcome> {
    let game = match change {
        Change::AddAction { game, .. }
        | Change::TakeBack { game, .. }
        | Change::MoreTime { game, .. } => Some(*game),
        _ => None,
    };
    if let Some(game) = game {
        owned(tx, process, game).await?;
    }
    let facts = facts(tx, &plan::need(change)).await?;
    let decision = plan::decide(change, &facts)?;
    let (mut added, mut notes) = (None, Vec::new());
    for write in &decision.writes {
        let (id, note) = written(tx, process, write).await?;
        added = added.or(id);
        notes.extend(note);
    }
    let ended = decision
        .writes
        .iter()
        .any(|w| matches!(w, Write::End { .. }));
    match *change {
        Change::AddAction {
            game,
            index,
            action,
            left,
            at,
            ..
        } => notes.push(
            Step {
                game,
                index,
                action,
                left,
                at,
            }
            .note(ended),
        ),
        Change::TakeBack { game, .. } | Change::MoreTime { game, .. } => {
            notes.push(Note::Game(game));
        }
        _ => {}
    }
    if let Some(game) = game {
        fence(tx, process, game, ended).await?;
    }
    Ok((decision.applied(added), notes))
}

/// The facts `need` names, locked until the commit: a challenge's row (two accepts on two
/// processes one after the other), the players' ratings (made first when new, locked in the
/// players' order, so that two such transactions never deadlock). A game's turn is read under
/// its lease's lock.
async fn facts(tx: &Transaction<'_>, need: &Need) -> Result<Facts> {
    let open = match need.open {
        Some(id) => Some(
            tx.query_opt(
                "SELECT open FROM challenges WHERE id = $1 FOR UPDATE",
                &[&id],
            )
            .await?
            .is_some_and(|r| r.get::<_, bool>(0)),
        ),
        None => None,
    };
    let turn = match need.turn {
        Some(game) => Some(
            tx.query_one("SELECT turn_since FROM games WHERE id = $1", &[&game])
                .await?
                .get(0),
        ),
        None => None,
    };
    let ratings = match need.ratings {
        Some((players, key)) => Some(ratings(tx, players, key).await?),
        None => None,
    };
    let vacation = match need.vacation {
        Some((player, year)) => Some(vacation_taken(tx, player, year).await?),
        None => None,
    };
    Ok(Facts {
        open,
        turn,
        ratings,
        vacation,
    })
}

/// The vacation days `player` took in `year`, their row made when new and locked.
async fn vacation_taken(tx: &Transaction<'_>, player: PlayerId, year: i32) -> Result<u32> {
    let year = i64::from(year);
    tx.execute(
        "INSERT INTO vacations(player, year, taken) VALUES ($1, $2, 0)
         ON CONFLICT (player, year) DO NOTHING",
        &[&player, &year],
    )
    .await?;
    let taken: i64 = tx
        .query_one(
            &format!("{} FOR UPDATE", crate::store::vacation::TAKEN),
            &[&player, &year],
        )
        .await?
        .get(0);
    Ok(u32::try_from(taken).unwrap_or(u32::MAX))
}

/// Two players' ratings at a game and class, their rows made when new and locked.
async fn ratings(
    tx: &Transaction<'_>,
    players: [PlayerId; 2],
    (game, class): RatingKey,
) -> Result<[RatingRow; 2]> {
    let (game, class, fresh) = (game.name(), class.name(), RatingRow::default());
    tx.execute(
        "INSERT INTO ratings(player, game, class, rating, deviation, volatility, games)
         SELECT p, $2, $3, $4, $5, $6, 0 FROM unnest($1::BIGINT[]) AS p
         ON CONFLICT (player, game, class) DO NOTHING",
        &[
            &players.to_vec(),
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
            &[&players.to_vec(), &game, &class],
        )
        .await?;
    Ok(players.map(|p| {
        rows.iter()
            .find(|r| r.get::<_, PlayerId>(0) == p)
            .map_or(fresh, |r| RatingRow {
                rating: r.get(1),
                deviation: r.get(2),
                volatility: r.get(3),
                games: r.get(4),
            })
    }))
}

/// A game of a tournament begins as every game does, taking a challenge's number: its number,
/// and what to tell the other processes.
pub(super) async fn start_paired(
    tx: &Transaction<'_>,
    process: &str,
    row: &GameRow,
) -> Result<(GameId, Vec<Note>)> {
    let challenge = Change::AddChallenge(tournaments::challenge_of(row));
    let (Applied::Id(id), _) = planned(tx, process, &challenge).await? else {
        anyhow::bail!("a challenge without a number");
    };
    let game = Change::StartGame(GameRow {
        id: GameId(id),
        ..row.clone()
    });
    match planned(tx, process, &game).await? {
        (Applied::Done, notes) => Ok((GameId(id), notes)),
        (other, _) => anyhow::bail!("a tournament's game did not start: {other:?}"),
    }
}

/// Makes `write`: the new row's number for a write that gives one (none: a player whose name
/// or key is taken), and what to tell the other processes of it. A game begun is owned by this
/// process (its lease); the heartbeat and forgiven downtime are not kept here
/// (`crate::store::plan`).
async fn written(
    tx: &Transaction<'_>,
    process: &str,
    write: &Write,
) -> Result<(Option<i64>, Option<Note>)> {
    if matches!(write, Write::Heartbeat(_) | Write::Forgive(_)) {
        return Ok((None, None));
    }
    let mut added = None;
    for sql in plan::statements(write) {
        added = run(tx, &sql).await?.or(added);
    }
    let note = match write {
        Write::Player { .. } => added.map(|id| Note::Player(PlayerId(id))),
        Write::Challenge(_) => added.map(|id| Note::Challenge(ChallengeId(id))),
        Write::Close(id) => Some(Note::Challenge(*id)),
        Write::Game(game) => {
            lease::start(tx, game.id, process).await?;
            Some(Note::Game(game.id))
        }
        _ => None,
    };
    Ok((added, note))
}

/// Runs `sql` in `tx` (a statement both stores share): the number it gives back, if it says
/// `RETURNING` and a row came.
pub(super) async fn run(tx: &Transaction<'_>, sql: &Sql) -> Result<Option<i64>> {
    let values: Vec<&(dyn ToSql + Sync)> = sql.values.iter().map(|v| v as _).collect();
    if sql.returns() {
        return Ok(tx.query_opt(sql.text, &values).await?.map(|r| r.get(0)));
    }
    tx.execute(sql.text, &values).await?;
    Ok(None)
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
