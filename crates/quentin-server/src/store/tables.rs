//! The store's tables and their columns, stated once (issue 64): the check of a PostgreSQL
//! database's shape at the start, `quentin serve migrate`'s copy (which tables, which columns,
//! how each cell crosses) and the tests that hold both backends' schema steps to this list
//! (`tables::tests` for SQLite, `postgres::schema::tests` for PostgreSQL) all read it. A column
//! added to one backend's steps and not here, or here and not in a backend's steps, fails a
//! test.

/// How a column's cells cross from SQLite to PostgreSQL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An integer (`INTEGER`, `BIGINT`).
    Int,
    /// A floating-point number (`REAL`, `DOUBLE PRECISION`).
    Real,
    /// Text.
    Text,
    /// A truth: SQLite's integer 0 or 1, PostgreSQL's `BOOLEAN`.
    Bool,
}

/// Which stores hold a table, and whether `migrate` copies it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Held {
    /// Both stores, copied by `migrate`: the community's rows.
    Copied,
    /// Both stores, not copied: a lease of the stopped server (`tournament_directors`: the
    /// first process on the database takes each tournament over from its rows).
    Lease,
    /// PostgreSQL's alone: the processes of a cluster, which start empty.
    Cluster,
}

/// A table: its name, which stores hold it, and its columns in order.
#[derive(Clone, Copy, Debug)]
pub struct Table {
    /// Its name.
    pub name: &'static str,
    /// Which stores hold it.
    pub held: Held,
    /// Its columns, in the order of its `CREATE TABLE`, and how each crosses.
    pub columns: &'static [(&'static str, Kind)],
}

use Kind::{Bool, Int, Real, Text};

/// Every table of the current version, in an order that keeps every row's references behind
/// it (the players before what names them, the games before their moves and the tournaments'
/// pairings, a tournament before its entrants and pairings): `migrate` copies in this order.
pub const TABLES: &[Table] = &[
    table(
        "players",
        &[("id", Int), ("name", Text), ("key", Text), ("created", Int)],
    ),
    table(
        "ratings",
        &[
            ("player", Int),
            ("game", Text),
            ("class", Text),
            ("rating", Real),
            ("deviation", Real),
            ("volatility", Real),
            ("games", Int),
        ],
    ),
    table(
        "challenges",
        &[
            ("id", Int),
            ("by", Int),
            ("game", Text),
            ("size", Int),
            ("pie", Bool),
            ("pieces", Int),
            ("first", Text),
            ("clock", Text),
            ("rated", Bool),
            ("to_player", Int),
            ("open", Bool),
        ],
    ),
    table(
        "games",
        &[
            ("id", Int),
            ("game", Text),
            ("size", Int),
            ("pie", Bool),
            ("pieces", Int),
            ("player1", Int),
            ("player2", Int),
            ("clock", Text),
            ("rated", Bool),
            ("left1", Int),
            ("left2", Int),
            ("turn_since", Int),
            ("result", Text),
            ("reason", Text),
            ("ended", Int),
        ],
    ),
    table(
        "moves",
        &[("game", Int), ("idx", Int), ("action", Text), ("at", Int)],
    ),
    table("meta", &[("key", Text), ("value", Int)]),
    table(
        "puzzles",
        &[
            ("id", Text),
            ("game", Text),
            ("line", Text),
            ("rating", Real),
            ("deviation", Real),
            ("volatility", Real),
            ("attempts", Int),
        ],
    ),
    table(
        "puzzle_ratings",
        &[
            ("player", Int),
            ("rating", Real),
            ("deviation", Real),
            ("volatility", Real),
            ("attempts", Int),
        ],
    ),
    table(
        "puzzle_attempts",
        &[
            ("player", Int),
            ("puzzle", Text),
            ("solved", Bool),
            ("at", Int),
        ],
    ),
    table(
        "puzzle_reveals",
        &[("puzzle", Text), ("block", Text), ("at", Int)],
    ),
    table("operators", &[("player", Int), ("at", Int)]),
    table(
        "bans",
        &[
            ("player", Int),
            ("reason", Text),
            ("ends", Int),
            ("at", Int),
        ],
    ),
    table("marks", &[("player", Int), ("at", Int)]),
    table("renames", &[("player", Int), ("old", Text), ("at", Int)]),
    table(
        "audit",
        &[
            ("id", Int),
            ("at", Int),
            ("who", Text),
            ("what", Text),
            ("whom", Text),
            ("why", Text),
        ],
    ),
    table("logins", &[("key", Text), ("address", Text), ("at", Int)]),
    table(
        "tournaments",
        &[
            ("id", Int),
            ("by", Int),
            ("settings", Text),
            ("created", Int),
            ("starts", Int),
            ("status", Text),
            ("started", Int),
            ("version", Int),
        ],
    ),
    table(
        "tournament_entrants",
        &[
            ("tournament", Int),
            ("player", Int),
            ("seq", Int),
            ("withdrawn", Bool),
            ("strikes", Int),
            ("paused", Bool),
        ],
    ),
    table(
        "tournament_pairings",
        &[
            ("id", Int),
            ("tournament", Int),
            ("round", Int),
            ("first", Int),
            ("second", Int),
            ("game", Int),
        ],
    ),
    // `seen` is an integer on both stores.
    table(
        "messages",
        &[
            ("id", Int),
            ("player", Int),
            ("at", Int),
            ("text", Text),
            ("seen", Int),
        ],
    ),
    table(
        "course_levels",
        &[
            ("player", Int),
            ("level", Text),
            ("stars", Int),
            ("at", Int),
        ],
    ),
    table(
        "vacations",
        &[("player", Int), ("year", Int), ("taken", Int)],
    ),
    table(
        "puzzle_bests",
        &[
            ("player", Int),
            ("streak", Int),
            ("storm", Int),
            ("at", Int),
        ],
    ),
    Table {
        name: "tournament_directors",
        held: Held::Lease,
        columns: &[("tournament", Int), ("process", Text), ("expires", Int)],
    },
    Table {
        name: "owners",
        held: Held::Cluster,
        columns: &[
            ("game", Int),
            ("process", Text),
            ("taken", Int),
            ("renewed", Int),
            ("expires", Int),
        ],
    },
    Table {
        name: "processes",
        held: Held::Cluster,
        columns: &[
            ("id", Text),
            ("listen", Text),
            ("started", Int),
            ("expires", Int),
        ],
    },
    Table {
        name: "presence",
        held: Held::Cluster,
        columns: &[("process", Text), ("player", Int), ("sessions", Int)],
    },
];

/// A table of the community's rows, in both stores.
const fn table(name: &'static str, columns: &'static [(&'static str, Kind)]) -> Table {
    Table {
        name,
        held: Held::Copied,
        columns,
    }
}

/// The table named `name`, if there is one.
#[must_use]
pub fn named(name: &str) -> Option<&'static Table> {
    TABLES.iter().find(|t| t.name == name)
}

/// The tables `migrate` copies, in order.
pub fn copied() -> impl Iterator<Item = &'static Table> {
    TABLES.iter().filter(|t| t.held == Held::Copied)
}

/// The tables SQLite holds.
pub fn in_sqlite() -> impl Iterator<Item = &'static Table> {
    TABLES.iter().filter(|t| t.held != Held::Cluster)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use rusqlite::Connection;

    use super::in_sqlite;

    /// The tables and columns of a store made by SQLite's steps, read from the file itself.
    fn made() -> BTreeMap<String, Vec<String>> {
        let mut conn = Connection::open_in_memory().unwrap();
        crate::store::schema::create(&mut conn).unwrap();
        let names: Vec<String> = conn
            .prepare(
                "SELECT name FROM sqlite_master WHERE type = 'table'
                 AND name NOT LIKE 'sqlite_%' ORDER BY name",
            )
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        names
            .into_iter()
            .map(|name| {
                let columns = conn
                    .prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid")
                    .unwrap()
                    .query_map([&name], |r| r.get(0))
                    .unwrap()
                    .collect::<Result<_, _>>()
                    .unwrap();
                (name, columns)
            })
            .collect()
    }

    #[test]
    fn sqlite_s_steps_make_exactly_the_tables_and_columns_of_the_list() {
        let listed: BTreeMap<String, Vec<String>> = in_sqlite()
            .map(|t| {
                let columns = t.columns.iter().map(|(c, _)| (*c).to_string()).collect();
                (t.name.to_string(), columns)
            })
            .collect();
        assert_eq!(made(), listed);
    }
}
