//! Vacation days in the store (issue 63): how many days each player took in each year, as
//! Little Golem counts them (an allowance a year, renewed on 1 January). Days taken are a
//! [`Change::Vacation`](super::Change) decided once for both stores (`crate::store::plan`):
//! the player's row of the year read (PostgreSQL locks it), the days refused when more than
//! are left, else the row raised and a message left to each opponent told. The days a player
//! took are read back from the rows as they are now ([`TAKEN`], one statement for both
//! stores), so that a day taken on any process counts.

use crate::ids::{Moment, PlayerId};

/// Days of vacation taken by a player: ahead (`vacation N`) or by the server for them when a
/// correspondence clock ran out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Take {
    /// The player.
    pub player: PlayerId,
    /// The year they count in (UTC).
    pub year: i32,
    /// How many.
    pub days: u32,
    /// The days a year the server gives (`--vacation-days`).
    pub allowance: u32,
    /// When.
    pub at: Moment,
    /// The messages left to the players told (the opponents), each with its text.
    pub told: Vec<(PlayerId, String)>,
}

/// The statement that reads the days a player took in a year (`$1` the player, `$2` the
/// year), for both stores: none when no row.
pub const TAKEN: &str = "SELECT taken FROM vacations WHERE player = $1 AND year = $2";

/// SQLite's schema step of the vacations (`crate::store::schema`).
pub const SQLITE_STEP: &str = "
CREATE TABLE vacations(
    player INTEGER NOT NULL, year INTEGER NOT NULL, taken INTEGER NOT NULL,
    PRIMARY KEY(player, year));
";

/// PostgreSQL's schema step of the vacations (`crate::store::postgres::schema`).
pub const POSTGRES_STEP: &str = "
CREATE TABLE vacations(
    player BIGINT NOT NULL, year BIGINT NOT NULL, taken BIGINT NOT NULL,
    PRIMARY KEY(player, year));
";

/// The year (UTC) of `at`, milliseconds since the epoch: the days since the epoch as a date of
/// the proleptic Gregorian calendar (Howard Hinnant's `civil_from_days`).
#[must_use]
pub fn year_of(at: Moment) -> i32 {
    let days = at.0.div_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    i32::try_from(year).unwrap_or(i32::MAX)
}

/// The days left to a player who took `taken` of `allowance`.
#[must_use]
pub fn left(allowance: u32, taken: u32) -> u32 {
    allowance.saturating_sub(taken)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_year_turns_on_the_first_of_january_utc() {
        // 2026-12-31T23:59:59.999Z and 2027-01-01T00:00:00Z.
        assert_eq!(year_of(Moment(1_798_761_599_999)), 2026);
        assert_eq!(year_of(Moment(1_798_761_600_000)), 2027);
        assert_eq!(year_of(Moment(0)), 1970);
        // 2024-02-29T12:00:00Z, a leap day.
        assert_eq!(year_of(Moment(1_709_208_000_000)), 2024);
        assert_eq!(left(20, 3), 17);
        assert_eq!(left(20, 25), 0);
    }
}
