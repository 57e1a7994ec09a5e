//! The store on SQLite: one file in the data directory, in WAL mode with full sync, so that a
//! batch of changes is on disk before anyone is told of them.

use std::path::Path;

use anyhow::{Context as _, Result, anyhow, bail};
use rusqlite::{Connection, OpenFlags, OptionalExtension, Row, TransactionBehavior};

use quentin_rules::Game;

use super::rows::{attach_moves, clock_of, end_of, first_of, setup_of};
use super::{
    Applied, Backend, ChallengeRow, Change, Damaged, GameRow, Loaded, PlayerRow, RatingRow, schema,
    tournaments,
};
use crate::ids::{ChallengeId, GameId, PlayerId};
use crate::size_class::{RatingKey, SizeClass};

pub(in crate::store) mod changes;
pub mod ledger;
mod puzzles;

/// How long a write waits for another connection's (the ledger's, a backup's) before the
/// store is said to be unable to save: every transaction that writes takes the write lock
/// when it begins, so that it waits rather than being refused.
pub const BUSY_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// The store in one SQLite file.
pub struct Sqlite {
    conn: Connection,
}

impl Sqlite {
    /// Opens the store at `path`, or makes a new one when there is no file there. A new store
    /// is made whole beside it and renamed into place, so that a file at `path` is always a
    /// whole store.
    ///
    /// # Errors
    /// When the file cannot be opened, is not a quentin server's store (an empty file, some
    /// other file), or comes from a newer quentin.
    pub fn open(path: &Path) -> Result<Sqlite> {
        let what = path.display().to_string();
        match std::fs::metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => make(path)?,
            Err(e) => return Err(e).with_context(|| format!("cannot read the store {what}")),
            Ok(m) if !m.is_file() => bail!("the store {what} is not a regular file"),
            Ok(m) if m.len() == 0 => bail!(
                "{what} is empty (0 bytes), not a quentin server's store: move it away to \
                 start with a new store"
            ),
            Ok(_) => {}
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let mut conn = Connection::open_with_flags(path, flags)
            .with_context(|| format!("cannot open the store {what}"))?;
        let not_ours = || format!("{what} is not a quentin server's store");
        // The first read of the file: a file that is not SQLite's fails here.
        let version = schema::version(&conn).with_context(not_ours)?;
        // A damaged file is refused before anything is written to it: served, it would fail
        // its writes for ever (`database disk image is malformed`).
        sound(&conn, path, version)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .with_context(not_ours)?;
        // Every commit reaches the disk before it returns: a move answered `=` survives a crash.
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(BUSY_WAIT)?;
        schema::migrate(&mut conn, &what)?;
        Ok(Sqlite { conn })
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

    /// The schema version of the file.
    ///
    /// # Errors
    /// When the file cannot be read.
    pub fn version(&self) -> Result<i64> {
        schema::version(&self.conn)
    }

    fn players(&self) -> Result<Vec<PlayerRow>> {
        let mut statement = self.conn.prepare("SELECT id, name, key FROM players")?;
        let rows = statement.query_map([], |r| {
            Ok(PlayerRow {
                id: r.get(0)?,
                name: r.get(1)?,
                key: r.get(2)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn ratings(&self) -> Result<Vec<(PlayerId, RatingKey, RatingRow)>> {
        let mut statement = self.conn.prepare(
            "SELECT player, game, class, rating, deviation, volatility, games FROM ratings",
        )?;
        let rows = statement.query_map([], |r| {
            Ok((
                r.get::<_, PlayerId>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                RatingRow {
                    rating: r.get(3)?,
                    deviation: r.get(4)?,
                    volatility: r.get(5)?,
                    games: r.get(6)?,
                },
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (player, game, class, rating) = row?;
            if let (Some(game), Some(class)) =
                (Game::from_name(&game), SizeClass::from_name(&class))
            {
                out.push((player, (game, class), rating));
            }
        }
        Ok(out)
    }

    fn challenges(&self, damaged: &mut Vec<Damaged>) -> Result<Vec<ChallengeRow>> {
        let mut statement = self.conn.prepare(
            "SELECT id, by, game, size, pie, pieces, first, clock, rated, to_player
             FROM challenges WHERE open = 1 ORDER BY id",
        )?;
        let mut rows = statement.query([])?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            let id: i64 = r.get(0)?;
            let row = (|| {
                Ok::<_, anyhow::Error>(ChallengeRow {
                    id: ChallengeId(id),
                    by: r.get(1)?,
                    setup: setup_of(&r.get::<_, String>(2)?, r.get(3)?, r.get(4)?, r.get(5)?)?,
                    first: first_of(&r.get::<_, String>(6)?)?,
                    clock: clock_of(&r.get::<_, String>(7)?)?,
                    rated: r.get(8)?,
                    to: r.get(9)?,
                })
            })();
            match row {
                Ok(row) => out.push(row),
                Err(e) => damaged.push(Damaged {
                    kind: "challenge",
                    id,
                    why: format!("{e:#}"),
                }),
            }
        }
        Ok(out)
    }

    fn games(&self, damaged: &mut Vec<Damaged>) -> Result<Vec<GameRow>> {
        let mut statement = self.conn.prepare(
            "SELECT id, game, size, pie, pieces, player1, player2, clock, rated, left1, left2,
                    turn_since, result, reason, ended FROM games ORDER BY id",
        )?;
        let mut rows = statement.query([])?;
        let mut games = Vec::new();
        while let Some(r) = rows.next()? {
            let id: i64 = r.get(0)?;
            match game_of(GameId(id), r) {
                Ok(game) => games.push(game),
                Err(e) => damaged.push(Damaged {
                    kind: "game",
                    id,
                    why: format!("{e:#}"),
                }),
            }
        }
        let mut statement = self
            .conn
            .prepare("SELECT game, idx, action FROM moves ORDER BY game, idx")?;
        let moves = statement
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        attach_moves(&mut games, moves, damaged);
        Ok(games)
    }
}

fn game_of(id: GameId, r: &Row<'_>) -> Result<GameRow> {
    let result: Option<String> = r.get(12)?;
    let reason: Option<String> = r.get(13)?;
    Ok(GameRow {
        id,
        setup: setup_of(&r.get::<_, String>(1)?, r.get(2)?, r.get(3)?, r.get(4)?)?,
        players: [r.get(5)?, r.get(6)?],
        clock: clock_of(&r.get::<_, String>(7)?)?,
        rated: r.get(8)?,
        left: [r.get(9)?, r.get(10)?],
        turn_since: r.get(11)?,
        actions: Vec::new(),
        result: end_of(result, reason)?,
        ended: r.get(14)?,
    })
}

/// Checks the file's pages with SQLite's `PRAGMA quick_check` (every b-tree page of every
/// table and index read and checked, each record well formed; not the indexes against their
/// tables, which `integrity_check` also does and takes much longer). A damaged file is refused
/// with what SQLite found and how to restore a backup.
///
/// # Errors
/// A file SQLite finds damaged, or cannot read to the end.
fn sound(conn: &Connection, path: &Path, version: i64) -> Result<()> {
    let found = (|| {
        let mut statement = conn.prepare("PRAGMA quick_check")?;
        let rows = statement.query_map([], |r| r.get::<_, String>(0))?;
        rows.collect::<rusqlite::Result<Vec<String>>>()
    })();
    let found = match found {
        Ok(lines) if lines.len() == 1 && lines[0] == "ok" => return Ok(()),
        // Its heading (`*** in database main ***`) says nothing the message does not.
        Ok(lines) => lines
            .into_iter()
            .filter(|l| !l.starts_with("***"))
            .collect(),
        Err(e) => vec![e.to_string()],
    };
    let shown: Vec<&str> = found.iter().take(3).map(|l| l.trim()).collect();
    let more = match found.len() {
        n if n > 3 => format!(" (and {} more)", n - 3),
        _ => String::new(),
    };
    let file = path.display();
    let dir = path
        .parent()
        .map_or_else(|| ".".to_string(), |d| d.display().to_string());
    bail!(
        "the store {file} (schema version {version}) is damaged: SQLite's check found \
         {}{more}. The server does not start on it. Restore the latest backup: with the \
         server stopped, move {file} (and {file}-wal, {file}-shm if there) out of {dir}, \
         copy the backup to {file} and start again. Without a backup, docs/server.md (\"A \
         damaged store\") says how to copy what can still be read",
        shown.join("; ")
    )
}

/// Makes a new store at `path`: whole beside it first, then renamed into place.
fn make(path: &Path) -> Result<()> {
    let what = path.display().to_string();
    let mut new = path.as_os_str().to_owned();
    new.push(".new");
    let new = std::path::PathBuf::from(new);
    // A half-made store of a start that died: nobody uses it.
    let _ = std::fs::remove_file(&new);
    {
        let mut conn = Connection::open(&new)
            .with_context(|| format!("cannot make the store {}", new.display()))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        schema::create(&mut conn).with_context(|| format!("cannot make the store {what}"))?;
        conn.close()
            .map_err(|(_, e)| anyhow!(e))
            .with_context(|| format!("cannot make the store {what}"))?;
    }
    std::fs::File::open(&new)?.sync_all()?;
    std::fs::rename(&new, path).with_context(|| format!("cannot make the store {what}"))?;
    if let Some(dir) = path.parent() {
        // The rename itself on disk.
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        std::fs::File::open(dir)?.sync_all()?;
    }
    Ok(())
}

/// For a test server (the hooks `store fail`, `store heal`): every commit fails, as on a
/// failing disk. Always false elsewhere: nothing else sets it.
pub static FAILING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

impl Backend for Sqlite {
    fn load(&mut self) -> Result<Loaded> {
        let mut damaged = Vec::new();
        let challenges = self.challenges(&mut damaged)?;
        let games = self.games(&mut damaged)?;
        let tournaments = tournaments::load_sqlite(&self.conn, None, &mut damaged)?;
        Ok(Loaded {
            players: self.players()?,
            ratings: self.ratings()?,
            challenges,
            games,
            damaged,
            tournaments,
            heartbeat: self
                .conn
                .query_row("SELECT value FROM meta WHERE key = 'alive'", [], |r| {
                    r.get(0)
                })
                .optional()?,
        })
    }

    fn commit(&mut self, changes: &[&Change]) -> Result<Vec<Result<Applied>>> {
        if FAILING.load(std::sync::atomic::Ordering::SeqCst) {
            anyhow::bail!("disk I/O error (the test hook `store fail`)");
        }
        // A writer from its first statement (`BEGIN IMMEDIATE`): a deferred transaction that
        // reads, then writes after another connection's commit (the ledger's, a login's) is
        // refused as busy at once, whatever the busy timeout; a writer waits for the lock
        // instead, within the busy timeout.
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let mut outcomes = Vec::with_capacity(changes.len());
        for change in changes {
            // Each change in a savepoint of its own: one that fails is undone alone.
            tx.execute_batch("SAVEPOINT change")?;
            let outcome = changes::apply(&tx, change);
            if outcome.is_ok() {
                tx.execute_batch("RELEASE change")?;
            } else {
                tx.execute_batch("ROLLBACK TO change; RELEASE change")?;
            }
            outcomes.push(outcome);
        }
        tx.commit()?;
        Ok(outcomes)
    }

    fn puzzles(
        &mut self,
        query: &super::puzzles::PuzzleQuery,
    ) -> Result<super::puzzles::PuzzleFound> {
        puzzles::query(&self.conn, query)
    }

    fn integrity(&mut self) -> Result<String> {
        Sqlite::integrity(self)
    }
}
