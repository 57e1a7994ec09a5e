//! The numbers the server gives its players, challenges and games, its times in milliseconds
//! (a moment, a length of time), and a player's seat in a game: types of their own, so that a
//! game's number cannot be passed where a player's is meant, a moment where a clock's time
//! left is, nor a seat computed as `1 - seat`. Each is stored as an `INTEGER` (SQLite) or a
//! `BIGINT` (PostgreSQL), and written as its digits.

use std::error::Error;
use std::fmt;
use std::ops::{Add, AddAssign, Sub, SubAssign};

use bytes::BytesMut;
use rusqlite::types::{FromSql, FromSqlResult, ToSql, ToSqlOutput, ValueRef};
use tokio_postgres::types::{self as pg, IsNull, Type};

/// A number of the store's written as its digits and kept as an `INTEGER` (SQLite) or a
/// `BIGINT` (PostgreSQL): the conversions of a type of one `i64`.
macro_rules! sql_number {
    ($name:ident) => {
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}", self.0)
            }
        }

        impl std::str::FromStr for $name {
            type Err = std::num::ParseIntError;

            fn from_str(digits: &str) -> Result<Self, Self::Err> {
                digits.parse().map($name)
            }
        }

        sql_column!($name);
    };
}

/// The store's conversions of a type of one `i64`, kept as an `INTEGER` (SQLite) or a
/// `BIGINT` (PostgreSQL).
macro_rules! sql_column {
    ($name:ident) => {
        impl ToSql for $name {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                Ok(ToSqlOutput::from(self.0))
            }
        }

        impl FromSql for $name {
            fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
                i64::column_result(value).map($name)
            }
        }

        impl pg::ToSql for $name {
            fn to_sql(
                &self,
                ty: &Type,
                out: &mut BytesMut,
            ) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
                <i64 as pg::ToSql>::to_sql(&self.0, ty, out)
            }

            fn accepts(ty: &Type) -> bool {
                <i64 as pg::ToSql>::accepts(ty)
            }

            pg::to_sql_checked!();
        }

        impl<'a> pg::FromSql<'a> for $name {
            fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Self, Box<dyn Error + Sync + Send>> {
                <i64 as pg::FromSql>::from_sql(ty, raw).map($name)
            }

            fn accepts(ty: &Type) -> bool {
                <i64 as pg::FromSql>::accepts(ty)
            }
        }
    };
}

/// A row's number as a type of its own (and its conversions: [`sql_number`]).
macro_rules! row_number {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub i64);

        sql_number!($name);
    };
}

row_number!(
    /// A player's number.
    PlayerId
);
row_number!(
    /// A game's number: the number of the challenge it was accepted from.
    GameId
);
row_number!(
    /// An open challenge's number, which its game keeps.
    ChallengeId
);

/// A tournament's number; written `t7` so that `withdraw t7` (leave a tournament) is never
/// taken for `withdraw 7` (take back a challenge).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TournamentId(pub i64);

sql_column!(TournamentId);

impl TournamentId {
    /// Reads `t7` (or `T7`).
    #[must_use]
    pub fn parse(text: &str) -> Option<TournamentId> {
        let digits = text.strip_prefix(['t', 'T'])?;
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        digits.parse().ok().filter(|n| *n > 0).map(TournamentId)
    }
}

impl fmt::Display for TournamentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "t{}", self.0)
    }
}

impl ChallengeId {
    /// The number of the game this challenge becomes.
    #[must_use]
    pub fn game(self) -> GameId {
        GameId(self.0)
    }
}

impl GameId {
    /// The challenge this game was accepted from.
    #[must_use]
    pub fn challenge(self) -> ChallengeId {
        ChallengeId(self.0)
    }
}

/// A length of time in milliseconds: a clock's time left, a timer, a wait.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Millis(pub i64);

/// A moment of the server's time: milliseconds since the Unix epoch (the database's time, when
/// several processes share one: `crate::clock`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Moment(pub i64);

sql_number!(Millis);
sql_number!(Moment);

impl Millis {
    /// No time.
    pub const ZERO: Millis = Millis(0);

    /// `n` seconds.
    #[must_use]
    pub const fn seconds(n: i64) -> Millis {
        Millis(n * 1000)
    }

    /// `n` minutes.
    #[must_use]
    pub const fn minutes(n: i64) -> Millis {
        Millis(n * 60_000)
    }

    /// `n` days.
    #[must_use]
    pub const fn days(n: i64) -> Millis {
        Millis(n * 86_400_000)
    }

    /// The whole seconds in it, rounded toward zero.
    #[must_use]
    pub const fn whole_seconds(self) -> i64 {
        self.0 / 1000
    }

    /// The whole minutes in it, rounded toward zero.
    #[must_use]
    pub const fn whole_minutes(self) -> i64 {
        self.0 / 60_000
    }

    /// Half of it, rounded toward zero.
    #[must_use]
    pub const fn half(self) -> Millis {
        Millis(self.0 / 2)
    }
}

impl Add for Millis {
    type Output = Millis;
    fn add(self, other: Millis) -> Millis {
        Millis(self.0 + other.0)
    }
}

impl Sub for Millis {
    type Output = Millis;
    fn sub(self, other: Millis) -> Millis {
        Millis(self.0 - other.0)
    }
}

impl AddAssign for Millis {
    fn add_assign(&mut self, other: Millis) {
        self.0 += other.0;
    }
}

impl SubAssign for Millis {
    fn sub_assign(&mut self, other: Millis) {
        self.0 -= other.0;
    }
}

impl Add<Millis> for Moment {
    type Output = Moment;
    fn add(self, later: Millis) -> Moment {
        Moment(self.0 + later.0)
    }
}

impl Sub<Millis> for Moment {
    type Output = Moment;
    fn sub(self, earlier: Millis) -> Moment {
        Moment(self.0 - earlier.0)
    }
}

impl AddAssign<Millis> for Moment {
    fn add_assign(&mut self, later: Millis) {
        self.0 += later.0;
    }
}

impl Sub for Moment {
    type Output = Millis;
    fn sub(self, since: Moment) -> Millis {
        Millis(self.0 - since.0)
    }
}

pub use quentin_record::game_end::Seat;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_round_trips_through_sqlite_as_an_integer() -> rusqlite::Result<()> {
        let db = rusqlite::Connection::open_in_memory()?;
        db.execute("CREATE TABLE t (n INTEGER NOT NULL)", [])?;
        db.execute("INSERT INTO t (n) VALUES (?1)", [GameId(42)])?;
        let back: GameId = db.query_row("SELECT n FROM t", [], |r| r.get(0))?;
        assert_eq!(back, GameId(42));
        let plain: i64 = db.query_row("SELECT n FROM t", [], |r| r.get(0))?;
        assert_eq!(plain, 42);
        assert_eq!(GameId(42).to_string(), "42");
        Ok(())
    }
}
