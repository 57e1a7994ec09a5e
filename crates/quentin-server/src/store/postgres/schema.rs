//! The store's tables on PostgreSQL: the same tables and the same version as on SQLite (the
//! row `version` of `meta` says which of the ordered steps a database has had), and three
//! tables of its own that the processes sharing it coordinate through: `owners` (each running
//! game's owner and its lease), `processes` (who is alive) and `presence` (who is online where).
//! Opening a database runs the steps it lacks in one transaction, under a lock that makes
//! processes starting together take turns.

use anyhow::{Context as _, Result, bail};
use tokio_postgres::Client;

/// The steps, in order: step `n` (from 0) brings a database from version `n` to `n + 1`. Step
/// `n` makes the tables of SQLite's step `n`, in PostgreSQL's types: step 2 keeps ratings by
/// game and board-size class, each rating of version 1 going to its game's own size's class.
const STEPS: &[&str] = &[
    "
CREATE TABLE IF NOT EXISTS players(
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    key TEXT NOT NULL UNIQUE,
    created BIGINT NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS players_name ON players (lower(name));
CREATE TABLE IF NOT EXISTS ratings(
    player BIGINT NOT NULL, game TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL, deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL, games BIGINT NOT NULL,
    PRIMARY KEY(player, game));
CREATE TABLE IF NOT EXISTS challenges(
    id BIGSERIAL PRIMARY KEY,
    \"by\" BIGINT NOT NULL, game TEXT NOT NULL, size BIGINT NOT NULL, pie BOOLEAN NOT NULL,
    pieces BIGINT NOT NULL, first TEXT NOT NULL, clock TEXT NOT NULL, rated BOOLEAN NOT NULL,
    to_player BIGINT, open BOOLEAN NOT NULL DEFAULT TRUE);
CREATE TABLE IF NOT EXISTS games(
    id BIGINT PRIMARY KEY,
    game TEXT NOT NULL, size BIGINT NOT NULL, pie BOOLEAN NOT NULL, pieces BIGINT NOT NULL,
    player1 BIGINT NOT NULL, player2 BIGINT NOT NULL, clock TEXT NOT NULL,
    rated BOOLEAN NOT NULL, left1 BIGINT NOT NULL, left2 BIGINT NOT NULL,
    turn_since BIGINT NOT NULL, result TEXT, reason TEXT, ended BIGINT);
CREATE INDEX IF NOT EXISTS games_running ON games (id) WHERE result IS NULL;
CREATE TABLE IF NOT EXISTS moves(
    game BIGINT NOT NULL, idx BIGINT NOT NULL, action TEXT NOT NULL, at BIGINT NOT NULL,
    PRIMARY KEY(game, idx));
CREATE TABLE IF NOT EXISTS owners(
    game BIGINT PRIMARY KEY, process TEXT NOT NULL, taken BIGINT NOT NULL,
    renewed BIGINT NOT NULL, expires BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS processes(
    id TEXT PRIMARY KEY, listen TEXT NOT NULL, started BIGINT NOT NULL, expires BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS presence(
    process TEXT NOT NULL, player BIGINT NOT NULL, sessions BIGINT NOT NULL,
    PRIMARY KEY(process, player));
",
    "
ALTER TABLE ratings ADD COLUMN class TEXT;
UPDATE ratings SET class = CASE game WHEN 'quint' THEN 'small' ELSE 'medium' END;
ALTER TABLE ratings ALTER COLUMN class SET NOT NULL;
ALTER TABLE ratings DROP CONSTRAINT ratings_pkey;
ALTER TABLE ratings ADD PRIMARY KEY (player, game, class);
",
    "
CREATE TABLE puzzles(
    id TEXT PRIMARY KEY, game TEXT NOT NULL, line TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL, deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL, attempts BIGINT NOT NULL);
CREATE INDEX puzzles_by_rating ON puzzles (game, rating);
CREATE TABLE puzzle_ratings(
    player BIGINT PRIMARY KEY,
    rating DOUBLE PRECISION NOT NULL, deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL, attempts BIGINT NOT NULL);
CREATE TABLE puzzle_attempts(
    player BIGINT NOT NULL, puzzle TEXT NOT NULL, solved BOOLEAN NOT NULL, at BIGINT NOT NULL,
    PRIMARY KEY(player, puzzle));
",
    "
CREATE TABLE operators(player BIGINT PRIMARY KEY, at BIGINT NOT NULL);
CREATE TABLE bans(
    player BIGINT PRIMARY KEY, reason TEXT NOT NULL, ends BIGINT, at BIGINT NOT NULL);
CREATE TABLE marks(player BIGINT PRIMARY KEY, at BIGINT NOT NULL);
CREATE TABLE renames(player BIGINT PRIMARY KEY, old TEXT NOT NULL, at BIGINT NOT NULL);
CREATE TABLE audit(
    id BIGSERIAL PRIMARY KEY, at BIGINT NOT NULL, who TEXT NOT NULL,
    what TEXT NOT NULL, whom TEXT NOT NULL, why TEXT NOT NULL);
CREATE TABLE logins(key TEXT NOT NULL, address TEXT NOT NULL, at BIGINT NOT NULL);
CREATE INDEX logins_key ON logins(key, at);
CREATE INDEX logins_address ON logins(address);
",
    super::tournaments::POSTGRES_STEP,
    super::tournaments::POSTGRES_MESSAGES_STEP,
    "
CREATE TABLE puzzle_reveals(puzzle TEXT NOT NULL, block TEXT NOT NULL, at BIGINT NOT NULL);
CREATE INDEX puzzle_reveals_by_block ON puzzle_reveals (puzzle, block);
",
    super::tournaments::POSTGRES_VERSION_STEP,
    crate::store::course::POSTGRES_STEP,
    crate::store::vacation::POSTGRES_STEP,
    crate::store::bests::POSTGRES_STEP,
];

// The two stores count the same versions: a step added to one is added to the other.
const _: () = assert!(STEPS.len() as i64 == crate::store::VERSION);

/// The key of the advisory lock under which a database is brought to the current version.
const MIGRATION_LOCK: i64 = 0x0071_7565_6e74_696e;

/// Brings the database to the current version; `what` names it in the errors.
///
/// # Errors
/// A database from a newer quentin, one that cannot be written.
pub async fn migrate(client: &mut Client, what: &str) -> Result<()> {
    let tx = client.transaction().await?;
    // Processes starting together wait for each other's steps, however long those take.
    tx.batch_execute(super::UNBOUNDED).await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value BIGINT NOT NULL);
         CREATE OR REPLACE FUNCTION quentin_now() RETURNS BIGINT LANGUAGE sql VOLATILE AS
             $$ SELECT (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT $$;",
    )
    .await
    .with_context(|| format!("cannot make the tables in {what}"))?;
    let version: i64 = tx
        .query_opt("SELECT value FROM meta WHERE key = 'version'", &[])
        .await?
        .map_or(0, |r| r.get(0));
    let newest = STEPS.len() as i64;
    if version > newest {
        bail!(
            "{what} has schema version {version}, newer than this quentin knows ({newest}): \
             run the quentin that wrote it"
        );
    }
    for (n, step) in STEPS.iter().enumerate().skip(usize::try_from(version)?) {
        tx.batch_execute(step)
            .await
            .with_context(|| format!("cannot bring {what} to version {}", n + 1))?;
    }
    tx.execute(
        "INSERT INTO meta(key, value) VALUES ('version', $1)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        &[&newest],
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// What is missing from the database's tables for the current version: every table and
/// column [`STEPS`] make, and the function `quentin_now`; empty when nothing is.
///
/// # Errors
/// When the database cannot be read.
pub async fn missing(client: &Client) -> Result<Vec<String>> {
    let rows = client
        .query(
            "SELECT table_name::TEXT, column_name::TEXT FROM information_schema.columns
             WHERE table_schema = current_schema()",
            &[],
        )
        .await?;
    let have = |table: &str, column: Option<&str>| {
        rows.iter().any(|r| {
            r.get::<_, &str>(0) == table && column.is_none_or(|c| r.get::<_, &str>(1) == c)
        })
    };
    let mut missing = Vec::new();
    // Every table of the current version and its columns, as the steps make them: the one
    // list both stores are held to (`store/tables.rs`).
    for table in crate::store::tables::TABLES {
        let (table, columns) = (table.name, table.columns.iter().map(|(c, _)| *c));
        if !have(table, None) {
            missing.push(format!("there is no table {table}"));
            continue;
        }
        let lacks: Vec<&str> = columns.filter(|c| !have(table, Some(c))).collect();
        if !lacks.is_empty() {
            missing.push(format!("table {table} has no column {}", lacks.join(", ")));
        }
    }
    let now = client
        .query_one(
            "SELECT count(*) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
             WHERE p.proname = 'quentin_now' AND n.nspname = current_schema()",
            &[],
        )
        .await?;
    if now.get::<_, i64>(0) == 0 {
        missing.push("there is no function quentin_now()".to_string());
    }
    Ok(missing)
}

/// Checks that the database, brought to the current version, has what that version has
/// ([`missing`]): a table dropped or a column changed by hand, or a backup restored in part,
/// is refused at the start with what is missing and how to restore, rather than failing
/// players' commands one by one.
///
/// # Errors
/// What is missing; a database that cannot be read.
pub async fn check(client: &Client, what: &str) -> Result<()> {
    let missing = missing(client).await?;
    if missing.is_empty() {
        return Ok(());
    }
    let version = version(client).await?;
    bail!(
        "{what} is not a whole quentin store (its meta row says schema version {version}): \
         {}. It was changed by hand, or restored in part: the server does not \
         start on it. Restore the latest backup into a new database \
         (pg_restore --dbname=URL FILE.dump) and start with --database at it (docs/server.md, \
         \"Backups and a standby\")",
        missing.join("; ")
    )
}

/// The database's version.
///
/// # Errors
/// When it cannot be read.
pub async fn version(client: &Client) -> Result<i64> {
    Ok(client
        .query_opt("SELECT value FROM meta WHERE key = 'version'", &[])
        .await?
        .map_or(0, |r| r.get(0)))
}

#[cfg(test)]
mod tests {
    use tokio_postgres::NoTls;

    use crate::store::tables::TABLES;

    /// A database brought to the current version by PostgreSQL's steps holds exactly the
    /// tables and columns of the one list (in an order of its own: step 1 added `ratings`'s
    /// `class` at its end, where SQLite's made the table anew): a column added to these steps and not to
    /// the list (or to SQLite's), or to the list alone, fails here or in `tables::tests`. Run
    /// where `QUENTIN_TEST_DATABASE_URL` names a server (`bash .ci/run` does; it fails there
    /// without one, through `QUENTIN_REQUIRE_POSTGRES`).
    #[tokio::test]
    async fn postgresql_s_steps_make_exactly_the_tables_and_columns_of_the_list() {
        let Ok(admin) = std::env::var("QUENTIN_TEST_DATABASE_URL") else {
            assert!(
                std::env::var_os("QUENTIN_REQUIRE_POSTGRES").is_none(),
                "QUENTIN_REQUIRE_POSTGRES is set without QUENTIN_TEST_DATABASE_URL"
            );
            eprintln!("skipped: it needs PostgreSQL (QUENTIN_TEST_DATABASE_URL)");
            return;
        };
        let name = format!("quentin_unit_schema_{}", std::process::id());
        let (client, connection) = tokio_postgres::connect(&admin, NoTls).await.unwrap();
        tokio::spawn(connection);
        // One statement a call: several in one string run as one transaction, which these
        // two refuse.
        for sql in [
            format!("DROP DATABASE IF EXISTS {name}"),
            format!("CREATE DATABASE {name}"),
        ] {
            client.batch_execute(&sql).await.unwrap();
        }
        let mut config: tokio_postgres::Config = admin.parse().unwrap();
        config.dbname(&name);
        let (mut db, connection) = config.connect(NoTls).await.unwrap();
        let running = tokio::spawn(connection);
        super::migrate(&mut db, "the test database").await.unwrap();
        let rows = db
            .query(
                "SELECT table_name::TEXT, column_name::TEXT FROM information_schema.columns
                 WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position",
                &[],
            )
            .await
            .unwrap();
        drop(db);
        let _ = running.await;
        client
            .batch_execute(&format!("DROP DATABASE {name}"))
            .await
            .unwrap();
        let mut made: Vec<(String, Vec<String>)> = Vec::new();
        for row in rows {
            let (table, column): (String, String) = (row.get(0), row.get(1));
            match made.last_mut() {
                Some((t, columns)) if *t == table => columns.push(column),
                _ => made.push((table, vec![column])),
            }
        }
        for (_, columns) in &mut made {
            columns.sort();
        }
        let mut listed: Vec<(String, Vec<String>)> = TABLES
            .iter()
            .map(|t| {
                let mut columns: Vec<String> =
                    t.columns.iter().map(|(c, _)| (*c).to_string()).collect();
                columns.sort();
                (t.name.to_string(), columns)
            })
            .collect();
        listed.sort();
        assert_eq!(made, listed);
    }
}
