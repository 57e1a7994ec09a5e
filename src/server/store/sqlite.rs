//! The store on SQLite: one file in the data directory, in WAL mode with full sync, so that a
//! move is on disk before anyone is told of it.

use std::path::Path;

use anyhow::{Context, Result};
use rusqlite::{Connection, OptionalExtension, params};

use crate::rules::{Action, Game, Setup};

use super::super::spec::TimeControl;
use super::{ChallengeRow, GameRow, PlayerRow, RatingRow};

/// The store.
pub struct Store {
    conn: Connection,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS players(
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    key TEXT NOT NULL UNIQUE,
    created INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS ratings(
    player INTEGER NOT NULL, game TEXT NOT NULL,
    rating REAL NOT NULL, deviation REAL NOT NULL, volatility REAL NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY(player, game));
CREATE TABLE IF NOT EXISTS challenges(
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    by INTEGER NOT NULL, game TEXT NOT NULL, size INTEGER NOT NULL, pie INTEGER NOT NULL,
    pieces INTEGER NOT NULL, first TEXT NOT NULL, clock TEXT NOT NULL, rated INTEGER NOT NULL,
    to_player INTEGER, open INTEGER NOT NULL DEFAULT 1);
CREATE TABLE IF NOT EXISTS games(
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL, size INTEGER NOT NULL, pie INTEGER NOT NULL, pieces INTEGER NOT NULL,
    player1 INTEGER NOT NULL, player2 INTEGER NOT NULL, clock TEXT NOT NULL,
    rated INTEGER NOT NULL, left1 INTEGER NOT NULL, left2 INTEGER NOT NULL,
    turn_since INTEGER NOT NULL, result TEXT, reason TEXT, ended INTEGER);
CREATE TABLE IF NOT EXISTS moves(
    game INTEGER NOT NULL, idx INTEGER NOT NULL, action TEXT NOT NULL, at INTEGER NOT NULL,
    PRIMARY KEY(game, idx));
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value INTEGER NOT NULL);
";

fn setup_of(game: &str, size: i64, pie: bool, pieces: i64) -> Result<Setup> {
    let game =
        Game::from_name(game).with_context(|| format!("unknown game {game} in the store"))?;
    Ok(Setup {
        game,
        size: usize::try_from(size)?,
        pie,
        pieces: usize::try_from(pieces)?,
    })
}

impl Store {
    /// Opens (or makes) the store at `path`.
    ///
    /// # Errors
    /// When the file cannot be opened or is not the server's.
    pub fn open(path: &Path) -> Result<Store> {
        let conn = Connection::open(path)
            .with_context(|| format!("cannot open the store {}", path.display()))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        // Every commit reaches the disk before it returns: a move answered `=` survives a crash.
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(SCHEMA)
            .with_context(|| format!("{} is not a quentin server's store", path.display()))?;
        Ok(Store { conn })
    }

    /// `PRAGMA integrity_check`'s answer: `ok` for a sound file.
    ///
    /// # Errors
    /// When the file cannot be read.
    pub fn integrity(&self) -> Result<String> {
        Ok(self
            .conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))?)
    }

    /// The player of an SSH key (its SHA-256 fingerprint).
    ///
    /// # Errors
    /// On a failing disk.
    pub fn player_by_key(&self, key: &str) -> Result<Option<PlayerRow>> {
        Ok(self
            .conn
            .prepare_cached("SELECT id, name FROM players WHERE key = ?1")?
            .query_row([key], |r| {
                Ok(PlayerRow {
                    id: r.get(0)?,
                    name: r.get(1)?,
                })
            })
            .optional()?)
    }

    /// The player named `name`, whatever its case.
    ///
    /// # Errors
    /// On a failing disk.
    pub fn player_by_name(&self, name: &str) -> Result<Option<PlayerRow>> {
        Ok(self
            .conn
            .prepare_cached("SELECT id, name FROM players WHERE name = ?1")?
            .query_row([name], |r| {
                Ok(PlayerRow {
                    id: r.get(0)?,
                    name: r.get(1)?,
                })
            })
            .optional()?)
    }

    /// Every player's number and name.
    ///
    /// # Errors
    /// On a failing disk.
    pub fn players(&self) -> Result<Vec<PlayerRow>> {
        let mut statement = self.conn.prepare_cached("SELECT id, name FROM players")?;
        let rows = statement.query_map([], |r| {
            Ok(PlayerRow {
                id: r.get(0)?,
                name: r.get(1)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// A new player; `None` when the name (in any case) or the key is taken.
    ///
    /// # Errors
    /// On a failing disk.
    pub fn add_player(&self, key: &str, name: &str, now: i64) -> Result<Option<PlayerRow>> {
        let added = self.conn.execute(
            "INSERT OR IGNORE INTO players(name, key, created) VALUES (?1, ?2, ?3)",
            params![name, key, now],
        )?;
        if added == 0 {
            return Ok(None);
        }
        Ok(Some(PlayerRow {
            id: self.conn.last_insert_rowid(),
            name: name.to_string(),
        }))
    }

    /// Every player's rating at `game`, for those who have one.
    ///
    /// # Errors
    /// On a failing disk.
    pub fn ratings(&self) -> Result<Vec<(i64, Game, RatingRow)>> {
        let mut statement = self.conn.prepare_cached(
            "SELECT player, game, rating, deviation, volatility, games FROM ratings",
        )?;
        let rows = statement.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                RatingRow {
                    rating: r.get(2)?,
                    deviation: r.get(3)?,
                    volatility: r.get(4)?,
                    games: r.get(5)?,
                },
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (player, game, rating) = row?;
            if let Some(game) = Game::from_name(&game) {
                out.push((player, game, rating));
            }
        }
        Ok(out)
    }

    /// A new open challenge; its number.
    ///
    /// # Errors
    /// On a failing disk.
    pub fn add_challenge(
        &self,
        by: i64,
        setup: Setup,
        first: &str,
        clock: TimeControl,
        rated: bool,
        to: Option<i64>,
    ) -> Result<i64> {
        self.conn.execute(
            "INSERT INTO challenges(by, game, size, pie, pieces, first, clock, rated, to_player)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                by,
                setup.game.name(),
                setup.size as i64,
                setup.pie,
                setup.pieces as i64,
                first,
                clock.stored(),
                rated,
                to
            ],
        )?;
        Ok(self.conn.last_insert_rowid())
    }

    /// Withdraws a challenge.
    ///
    /// # Errors
    /// On a failing disk.
    pub fn close_challenge(&self, id: i64) -> Result<()> {
        self.conn
            .execute("UPDATE challenges SET open = 0 WHERE id = ?1", [id])?;
        Ok(())
    }

    /// The open challenges, oldest first.
    ///
    /// # Errors
    /// On a failing disk or a row the server did not write.
    pub fn open_challenges(&self) -> Result<Vec<ChallengeRow>> {
        let mut statement = self.conn.prepare_cached(
            "SELECT id, by, game, size, pie, pieces, first, clock, rated, to_player
             FROM challenges WHERE open = 1 ORDER BY id",
        )?;
        let rows = statement.query_map([], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, bool>(4)?,
                r.get::<_, i64>(5)?,
                r.get::<_, String>(6)?,
                r.get::<_, String>(7)?,
                r.get::<_, bool>(8)?,
                r.get::<_, Option<i64>>(9)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, by, game, size, pie, pieces, first, clock, rated, to) = row?;
            out.push(ChallengeRow {
                id,
                by,
                setup: setup_of(&game, size, pie, pieces)?,
                first,
                clock: TimeControl::from_stored(&clock).context("a bad clock in the store")?,
                rated,
                to,
            });
        }
        Ok(out)
    }

    /// Starts the game of challenge `game.id`: the challenge closes and the game begins, in one
    /// transaction.
    ///
    /// # Errors
    /// On a failing disk.
    pub fn start_game(&mut self, game: &GameRow) -> Result<()> {
        let tx = self.conn.transaction()?;
        tx.execute("UPDATE challenges SET open = 0 WHERE id = ?1", [game.id])?;
        tx.execute(
            "INSERT INTO games(id, game, size, pie, pieces, player1, player2, clock, rated,
                               left1, left2, turn_since)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            params![
                game.id,
                game.setup.game.name(),
                game.setup.size as i64,
                game.setup.pie,
                game.setup.pieces as i64,
                game.players[0],
                game.players[1],
                game.clock.stored(),
                game.rated,
                game.left[0],
                game.left[1],
                game.turn_since
            ],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// Adds action number `index` (from 0) to game `id` with the clocks after it, and its end
    /// when it ended the game, in one durable transaction; and the ratings the end changed.
    ///
    /// # Errors
    /// On a failing disk: then nothing of it is kept.
    pub fn add_action(
        &mut self,
        id: i64,
        index: usize,
        action: Option<Action>,
        clocks: ([i64; 2], i64),
        end: Option<(&str, &str)>,
        ratings: &[(i64, Game, RatingRow)],
    ) -> Result<()> {
        let tx = self.conn.transaction()?;
        let (left, now) = clocks;
        if let Some(action) = action {
            tx.execute(
                "INSERT INTO moves(game, idx, action, at) VALUES (?1, ?2, ?3, ?4)",
                params![id, index as i64, action.to_string(), now],
            )?;
        }
        tx.execute(
            "UPDATE games SET left1 = ?2, left2 = ?3, turn_since = ?4 WHERE id = ?1",
            params![id, left[0], left[1], now],
        )?;
        if let Some((result, reason)) = end {
            tx.execute(
                "UPDATE games SET result = ?2, reason = ?3, ended = ?4 WHERE id = ?1",
                params![id, result, reason, now],
            )?;
        }
        for (player, game, r) in ratings {
            tx.execute(
                "INSERT OR REPLACE INTO ratings(player, game, rating, deviation, volatility, games)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    player,
                    game.name(),
                    r.rating,
                    r.deviation,
                    r.volatility,
                    r.games
                ],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Takes the last action of game `id` back (a casual game's takeback both players agreed
    /// to), with the clocks after it.
    ///
    /// # Errors
    /// On a failing disk.
    pub fn take_back(&mut self, id: i64, index: usize, left: [i64; 2], now: i64) -> Result<()> {
        let tx = self.conn.transaction()?;
        tx.execute(
            "DELETE FROM moves WHERE game = ?1 AND idx >= ?2",
            params![id, index as i64],
        )?;
        tx.execute(
            "UPDATE games SET left1 = ?2, left2 = ?3, turn_since = ?4 WHERE id = ?1",
            params![id, left[0], left[1], now],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// Every game, with its actions: the server's memory at its start.
    ///
    /// # Errors
    /// On a failing disk or a row the server did not write.
    pub fn games(&self) -> Result<Vec<GameRow>> {
        let mut statement = self.conn.prepare(
            "SELECT id, game, size, pie, pieces, player1, player2, clock, rated, left1, left2,
                    turn_since, result, reason, ended FROM games ORDER BY id",
        )?;
        let rows = statement.query_map([], |r| {
            Ok((
                (
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, i64>(2)?,
                    r.get::<_, bool>(3)?,
                    r.get::<_, i64>(4)?,
                ),
                (
                    r.get::<_, i64>(5)?,
                    r.get::<_, i64>(6)?,
                    r.get::<_, String>(7)?,
                    r.get::<_, bool>(8)?,
                    r.get::<_, i64>(9)?,
                    r.get::<_, i64>(10)?,
                    r.get::<_, i64>(11)?,
                ),
                (
                    r.get::<_, Option<String>>(12)?,
                    r.get::<_, Option<String>>(13)?,
                    r.get::<_, Option<i64>>(14)?,
                ),
            ))
        })?;
        let mut games = Vec::new();
        for row in rows {
            let ((id, game, size, pie, pieces), (p1, p2, clock, rated, l1, l2, since), end) = row?;
            let (result, reason, ended) = end;
            games.push(GameRow {
                id,
                setup: setup_of(&game, size, pie, pieces)?,
                players: [p1, p2],
                clock: TimeControl::from_stored(&clock).context("a bad clock in the store")?,
                rated,
                left: [l1, l2],
                turn_since: since,
                actions: Vec::new(),
                result: result.zip(reason),
                ended,
            });
        }
        let mut statement = self
            .conn
            .prepare("SELECT game, action FROM moves ORDER BY game, idx")?;
        let mut rows = statement.query([])?;
        let mut at = 0;
        while let Some(row) = rows.next()? {
            let (id, action): (i64, String) = (row.get(0)?, row.get(1)?);
            while games.get(at).is_some_and(|g| g.id < id) {
                at += 1;
            }
            let game = games
                .get_mut(at)
                .filter(|g| g.id == id)
                .context("a move of no game in the store")?;
            game.actions
                .push(Action::parse(&action).context("a bad action in the store")?);
        }
        Ok(games)
    }

    /// The last time the running server said it was alive (ms since the epoch).
    ///
    /// # Errors
    /// On a failing disk.
    pub fn heartbeat(&self) -> Result<Option<i64>> {
        Ok(self
            .conn
            .query_row("SELECT value FROM meta WHERE key = 'alive'", [], |r| {
                r.get(0)
            })
            .optional()?)
    }

    /// Says the server is alive at `now`.
    ///
    /// # Errors
    /// On a failing disk.
    pub fn beat(&self, now: i64) -> Result<()> {
        self.conn.execute(
            "INSERT OR REPLACE INTO meta(key, value) VALUES ('alive', ?1)",
            [now],
        )?;
        Ok(())
    }

    /// Moves the start of every unfinished game's turn `by` milliseconds later: the time the
    /// server was down is charged to nobody.
    ///
    /// # Errors
    /// On a failing disk.
    pub fn forgive(&self, by: i64) -> Result<()> {
        self.conn.execute(
            "UPDATE games SET turn_since = turn_since + ?1 WHERE result IS NULL",
            [by],
        )?;
        Ok(())
    }
}
