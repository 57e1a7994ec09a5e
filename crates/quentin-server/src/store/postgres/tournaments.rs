//! The tournaments' rows on PostgreSQL: their schema step, everything read at the start (and
//! again when another process changed a tournament), and each change carried out: the facts
//! its plan needs read and the plan's writes made (the rules are
//! `crate::store::tournaments::plan`'s). The rows
//! themselves, and SQLite's statements, are `crates/quentin-server/src/store/tournaments.rs`'s.

use anyhow::{Result, anyhow};
use tokio_postgres::Transaction;

use super::LEASE_MS;
use super::changes::run;
use crate::note::Note;
use crate::store::tournaments::plan::{self, Facts, Need, Write};
use crate::store::tournaments::{
    self, EntrantRow, PairingRow, Stored, TournamentChange, TournamentRow, typed,
};
use crate::store::{Applied, Damaged};
use crate::tournament::{Status, TournamentId};

/// The tables of the schema step that brings tournaments (SQLite's own is
/// `crate::store::tournaments::SQLITE_STEP`).
pub const POSTGRES_STEP: &str = "
CREATE TABLE tournaments(
    id BIGSERIAL PRIMARY KEY,
    \"by\" BIGINT NOT NULL, settings TEXT NOT NULL, created BIGINT NOT NULL,
    starts BIGINT NOT NULL, status TEXT NOT NULL, started BIGINT);
CREATE TABLE tournament_entrants(
    tournament BIGINT NOT NULL, player BIGINT NOT NULL, seq BIGINT NOT NULL,
    withdrawn BOOLEAN NOT NULL DEFAULT FALSE, strikes BIGINT NOT NULL DEFAULT 0,
    paused BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY(tournament, player));
CREATE TABLE tournament_pairings(
    id BIGSERIAL PRIMARY KEY,
    tournament BIGINT NOT NULL, round BIGINT NOT NULL, first BIGINT NOT NULL,
    second BIGINT, game BIGINT);
CREATE TABLE tournament_directors(
    tournament BIGINT PRIMARY KEY, process TEXT NOT NULL, expires BIGINT NOT NULL);
";

/// The schema step after the tournaments': the messages to players (a tournament cancelled),
/// kept until read (SQLite's own is `crate::store::tournaments::SQLITE_MESSAGES_STEP`).
pub const POSTGRES_MESSAGES_STEP: &str = "
CREATE TABLE messages(
    id BIGSERIAL PRIMARY KEY, player BIGINT NOT NULL, at BIGINT NOT NULL,
    text TEXT NOT NULL, seen BIGINT NOT NULL DEFAULT 0);
CREATE INDEX messages_player ON messages(player, seen);
";

/// The schema step that counts each tournament's changes (SQLite's own is
/// `crate::store::tournaments::SQLITE_VERSION_STEP`, which says what else the step brings).
pub const POSTGRES_VERSION_STEP: &str = "
ALTER TABLE tournaments ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
";

/// Every tournament, or only `only`; those that cannot be read are named in `damaged`.
///
/// # Errors
/// When the database cannot be read.
pub async fn load(
    client: &impl tokio_postgres::GenericClient,
    only: Option<TournamentId>,
    damaged: &mut Vec<Damaged>,
) -> Result<Vec<TournamentRow>> {
    // -1 names no tournament: every one.
    let only = only.map_or(-1, |t| t.0);
    let stored: Vec<Stored> = client
        .query(
            "SELECT id, \"by\", settings, created, starts, status, started, version
             FROM tournaments WHERE $1::BIGINT = -1 OR id = $1 ORDER BY id",
            &[&only],
        )
        .await?
        .iter()
        .map(|r| Stored {
            id: r.get(0),
            by: r.get(1),
            settings: r.get(2),
            created: r.get(3),
            starts: r.get(4),
            status: r.get(5),
            started: r.get(6),
            version: r.get(7),
        })
        .collect();
    let entrants = client
        .query(
            "SELECT tournament, player, withdrawn, strikes, paused FROM tournament_entrants
             WHERE $1::BIGINT = -1 OR tournament = $1 ORDER BY tournament, seq",
            &[&only],
        )
        .await?
        .iter()
        .map(|r| {
            (
                r.get(0),
                EntrantRow {
                    player: r.get(1),
                    withdrawn: r.get(2),
                    strikes: r.get(3),
                    paused: r.get(4),
                },
            )
        })
        .collect();
    let pairings = client
        .query(
            "SELECT tournament, round, first, second, game FROM tournament_pairings
             WHERE $1::BIGINT = -1 OR tournament = $1 ORDER BY tournament, id",
            &[&only],
        )
        .await?
        .iter()
        .map(|r| {
            (
                r.get(0),
                PairingRow {
                    round: r.get(1),
                    first: r.get(2),
                    second: r.get(3),
                    game: r.get(4),
                },
            )
        })
        .collect();
    Ok(typed(stored, entrants, pairings, damaged))
}

/// Applies `change` in `tx` for `process`: the facts its plan needs read under the
/// tournament row's lock (`FOR UPDATE`: the joins, leaves, entrants' changes, starts and
/// cancels of every process one after the other), the plan's writes made in PostgreSQL's SQL,
/// each game begun as every game begins. The change is counted in the tournament's `version`
/// when it wrote anything, and given back with the tournament's rows as the database holds
/// them after it, in its transaction: the process's copy is replaced by them
/// (`Hub::submit`), so that no read begun before this commit can undo it. The other
/// processes are told to read the tournament again.
///
/// # Errors
/// When the database cannot be read or written.
pub(super) async fn apply(
    tx: &Transaction<'_>,
    process: &str,
    change: &TournamentChange,
) -> Result<(Applied, Vec<Note>)> {
    if let TournamentChange::Direct(t) = change {
        return Ok((direct(tx, process, *t).await?, Vec::new()));
    }
    let tournament = change.tournament();
    let facts = match (plan::need(change), tournament) {
        (Need::Nothing, _) => None,
        (need, Some(t)) => Some(facts(tx, t, need).await?),
        (_, None) => anyhow::bail!("a change that needs a tournament names none"),
    };
    let decision = plan::decide(change, facts)?;
    let (mut created, mut games, mut notes) = (None, Vec::new(), Vec::new());
    for write in &decision.writes {
        // Every game of a round in this one transaction: written whole or not at all.
        let game = match write {
            Write::Game { game, .. } => {
                let (id, started) = super::changes::start_paired(tx, process, game).await?;
                notes.extend(started);
                Some(id)
            }
            _ => None,
        };
        games.extend(game);
        for sql in plan::statements(tournament, write, game) {
            created = run(tx, &sql).await?.or(created);
        }
    }
    let applied = decision.applied(created, games)?;
    let Some(id) = tournaments::changed(change, &applied) else {
        return Ok((applied, notes));
    };
    notes.push(Note::Tournament(id));
    if applied.wrote() {
        run(tx, &plan::counted(id)).await?;
    }
    let row = load(tx, Some(id), &mut Vec::new()).await?.pop();
    Ok((Applied::tournament(applied, row), notes))
}

/// This process takes or renews its lease on directing tournament `t`, for as long as a
/// game's owner's lease lasts: [`Applied::Done`], or [`Applied::Taken`] while another process
/// holds it.
async fn direct(tx: &Transaction<'_>, process: &str, t: TournamentId) -> Result<Applied> {
    let held = tx
        .query_opt(
            "INSERT INTO tournament_directors(tournament, process, expires)
             VALUES ($1, $2, quentin_now() + $3)
             ON CONFLICT (tournament) DO UPDATE SET process = excluded.process,
                 expires = excluded.expires
             WHERE tournament_directors.process = excluded.process
                OR tournament_directors.expires < quentin_now()
             RETURNING process",
            &[&t, &process, &LEASE_MS],
        )
        .await?;
    Ok(if held.is_some() {
        Applied::Done
    } else {
        Applied::Taken
    })
}

/// The facts `need` names of tournament `t`, its row locked until the commit: a statement
/// after the lock reads what the changes before it committed.
async fn facts(tx: &Transaction<'_>, t: TournamentId, need: Need) -> Result<Facts> {
    let row = tx
        .query_opt(
            "SELECT status FROM tournaments WHERE id = $1 FOR UPDATE",
            &[&t],
        )
        .await?
        .ok_or_else(|| anyhow!("no tournament {t}"))?;
    let word: String = row.get(0);
    let status = Status::from_word(&word)
        .ok_or_else(|| anyhow!("tournament {t}: a status this version does not know: {word:?}"))?;
    if need != Need::Entrants {
        return Ok(Facts {
            status,
            entrants: Vec::new(),
            pairings: 0,
        });
    }
    let pairings: i64 = tx
        .query_one(
            "SELECT count(*) FROM tournament_pairings WHERE tournament = $1",
            &[&t],
        )
        .await?
        .get(0);
    let entrants = tx
        .query(
            "SELECT player, withdrawn, strikes, paused FROM tournament_entrants
             WHERE tournament = $1 ORDER BY seq",
            &[&t],
        )
        .await?
        .iter()
        .map(|r| EntrantRow {
            player: r.get(0),
            withdrawn: r.get(1),
            strikes: r.get(2),
            paused: r.get(3),
        })
        .collect();
    Ok(Facts {
        status,
        entrants,
        pairings: usize::try_from(pairings)?,
    })
}
