//! The store's tables and their versions: SQLite's `user_version` says which of the ordered
//! steps below a file has had; opening a file runs the steps it lacks, each in one transaction
//! with the version it reaches. A file from a newer quentin (a higher version) is refused.
//!
//! Version 1 is the shape the server had before it counted versions (`user_version` 0 with
//! these tables): such a file is taken as version 1, its rows untouched.

use anyhow::{Context as _, Result, bail};
use rusqlite::Connection;

/// The steps, in order: step `n` (from 0) brings a file from version `n` to `n + 1`. Step 1
/// (version 2) keeps ratings per game and board-size class (`small`, `medium`, `large`: see
/// `crates/quentin-server/src/size_class.rs`); a rating of version 1, one per game, becomes the rating of the
/// class of the game's own size (`medium`; Quint's 8×8, `small`).
const STEPS: &[&str] = &[
    "
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
",
    "
CREATE TABLE ratings_by_size(
    player INTEGER NOT NULL, game TEXT NOT NULL, class TEXT NOT NULL,
    rating REAL NOT NULL, deviation REAL NOT NULL, volatility REAL NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY(player, game, class));
INSERT INTO ratings_by_size
    SELECT player, game, CASE game WHEN 'quint' THEN 'small' ELSE 'medium' END,
           rating, deviation, volatility, games
    FROM ratings;
DROP TABLE ratings;
ALTER TABLE ratings_by_size RENAME TO ratings;
",
    // Puzzles (issue 49): the shipped set with each puzzle's rating, each player's puzzle
    // rating, and each player's first attempt at each puzzle (`store/puzzles.rs`).
    "
CREATE TABLE puzzles(
    id TEXT PRIMARY KEY, game TEXT NOT NULL, line TEXT NOT NULL,
    rating REAL NOT NULL, deviation REAL NOT NULL, volatility REAL NOT NULL,
    attempts INTEGER NOT NULL);
CREATE INDEX puzzles_by_rating ON puzzles(game, rating);
CREATE TABLE puzzle_ratings(
    player INTEGER PRIMARY KEY,
    rating REAL NOT NULL, deviation REAL NOT NULL, volatility REAL NOT NULL,
    attempts INTEGER NOT NULL);
CREATE TABLE puzzle_attempts(
    player INTEGER NOT NULL, puzzle TEXT NOT NULL, solved INTEGER NOT NULL, at INTEGER NOT NULL,
    PRIMARY KEY(player, puzzle));
",
    // Moderation (issue 50): operators, bans, marks, renames, the audit log and each login's
    // address (`moderation/`).
    "
CREATE TABLE operators(player INTEGER PRIMARY KEY, at INTEGER NOT NULL);
CREATE TABLE bans(
    player INTEGER PRIMARY KEY, reason TEXT NOT NULL, ends INTEGER, at INTEGER NOT NULL);
CREATE TABLE marks(player INTEGER PRIMARY KEY, at INTEGER NOT NULL);
CREATE TABLE renames(player INTEGER PRIMARY KEY, old TEXT NOT NULL, at INTEGER NOT NULL);
CREATE TABLE audit(
    id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, who TEXT NOT NULL,
    what TEXT NOT NULL, whom TEXT NOT NULL, why TEXT NOT NULL);
CREATE TABLE logins(key TEXT NOT NULL, address TEXT NOT NULL, at INTEGER NOT NULL);
CREATE INDEX logins_key ON logins(key, at);
CREATE INDEX logins_address ON logins(address);
",
    // Tournaments (issue 51): their settings, entrants, pairings and directors.
    super::tournaments::SQLITE_STEP,
    // The messages left to players (a tournament cancelled), read at their next login.
    super::tournaments::SQLITE_MESSAGES_STEP,
    // Where each puzzle's solution was shown (a failed attempt), by network block: a later
    // first attempt from that block is not rated (issue 59).
    "
CREATE TABLE puzzle_reveals(puzzle TEXT NOT NULL, block TEXT NOT NULL, at INTEGER NOT NULL);
CREATE INDEX puzzle_reveals_by_block ON puzzle_reveals(puzzle, block);
",
    // Each tournament's count of changes, so that a process's copy is never replaced by an
    // older read (issue 59); the abort's words that name who asked it.
    super::tournaments::SQLITE_VERSION_STEP,
    // The course's progress, each player's best stars by level (issue 60).
    super::course::SQLITE_STEP,
    // The vacation days each player took, by year (issue 63).
    super::vacation::SQLITE_STEP,
    // The best Streak and Storm of each player (issue 60).
    super::bests::SQLITE_STEP,
];

/// The tables of version 1, which a file of version 0 must have to be a store.
const TABLES: [&str; 6] = ["players", "ratings", "challenges", "games", "moves", "meta"];

/// The version this program writes.
pub const VERSION: i64 = STEPS.len() as i64;

/// The file's version.
///
/// # Errors
/// When it cannot be read.
pub fn version(conn: &Connection) -> Result<i64> {
    Ok(conn.query_row("PRAGMA user_version", [], |r| r.get(0))?)
}

/// Brings a new, empty file to [`VERSION`].
///
/// # Errors
/// On a failing disk.
pub fn create(conn: &mut Connection) -> Result<()> {
    upgrade(conn, 0)
}

/// Brings an existing store to [`VERSION`]; `what` names it in the errors.
///
/// # Errors
/// A file that is not a store (no tables of one), from a newer program, or a failing disk.
pub fn migrate(conn: &mut Connection, what: &str) -> Result<()> {
    let version = version(conn)?;
    if version > VERSION {
        bail!(
            "{what} has schema version {version}, newer than this quentin knows ({VERSION}): \
             run the quentin that wrote it"
        );
    }
    if version == 0 {
        let mut statement = conn.prepare("SELECT name FROM sqlite_master WHERE type = 'table'")?;
        let tables: Vec<String> = statement
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        drop(statement);
        let missing: Vec<&str> = TABLES
            .into_iter()
            .filter(|t| !tables.iter().any(|have| have == t))
            .collect();
        if !missing.is_empty() {
            bail!(
                "{what} is not a quentin server's store: it has no table {}",
                missing.join(", ")
            );
        }
    }
    upgrade(conn, version)
}

fn upgrade(conn: &mut Connection, from: i64) -> Result<()> {
    for (n, step) in STEPS.iter().enumerate().skip(usize::try_from(from)?) {
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        tx.execute_batch(step)
            .with_context(|| format!("cannot bring the store to version {}", n + 1))?;
        tx.pragma_update(None, "user_version", n as i64 + 1)?;
        tx.commit()?;
    }
    Ok(())
}
