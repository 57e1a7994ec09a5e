//! One statement for both stores: the writes the plans decide (`crate::store::plan`,
//! `crate::store::tournaments::plan`) stated once, in the SQL both dialects share (upserts by
//! `ON CONFLICT`, `RETURNING`, `TRUE`/`FALSE`), with PostgreSQL's numbered parameters (`$1`)
//! and typed values ([`Value`]). PostgreSQL runs it as it is; SQLite with its own parameters
//! (`?1`, [`Sql::sqlite`]). Each backend's executor is a few lines beside its transaction
//! (`crate::store::sqlite::changes`, `crate::store::postgres::changes`).

use std::borrow::Cow;

use bytes::BytesMut;
use tokio_postgres::types::{IsNull, ToSql, Type};

/// A value of a statement's parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// An integer (`INTEGER`, `BIGINT`), or NULL.
    Int(Option<i64>),
    /// A floating-point number (`REAL`, `DOUBLE PRECISION`).
    Real(f64),
    /// Text.
    Text(String),
    /// A truth (SQLite's 0 or 1, PostgreSQL's `BOOLEAN`).
    Bool(bool),
}

/// A statement and its parameters' values.
#[derive(Clone, Debug, PartialEq)]
pub struct Sql {
    /// The statement, with PostgreSQL's parameters (`$1`).
    pub text: &'static str,
    /// The parameters' values, `$1` first.
    pub values: Vec<Value>,
}

impl Sql {
    /// `text` with `values`.
    #[must_use]
    pub fn new(text: &'static str, values: Vec<Value>) -> Sql {
        Sql { text, values }
    }

    /// Whether it gives back a row (`RETURNING`).
    #[must_use]
    pub fn returns(&self) -> bool {
        self.text.contains("RETURNING")
    }

    /// The statement as SQLite writes it: each `$N` a `?N`.
    #[must_use]
    pub fn sqlite(&self) -> Cow<'static, str> {
        if !self.text.contains('$') {
            return Cow::Borrowed(self.text);
        }
        Cow::Owned(self.text.replace('$', "?"))
    }
}

macro_rules! int_value {
    ($($t:ty => $f:expr),* $(,)?) => {$(
        impl From<$t> for Value {
            fn from(v: $t) -> Value {
                Value::Int(Some($f(v)))
            }
        }
    )*};
}

int_value! {
    i64 => |v| v,
    crate::ids::PlayerId => |v: crate::ids::PlayerId| v.0,
    crate::ids::GameId => |v: crate::ids::GameId| v.0,
    crate::ids::ChallengeId => |v: crate::ids::ChallengeId| v.0,
    crate::ids::TournamentId => |v: crate::ids::TournamentId| v.0,
    crate::ids::Moment => |v: crate::ids::Moment| v.0,
    crate::ids::Millis => |v: crate::ids::Millis| v.0,
}

impl From<usize> for Value {
    fn from(v: usize) -> Value {
        Value::Int(i64::try_from(v).ok())
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Int(None), Into::into)
    }
}

impl From<f64> for Value {
    fn from(v: f64) -> Value {
        Value::Real(v)
    }
}

impl From<bool> for Value {
    fn from(v: bool) -> Value {
        Value::Bool(v)
    }
}

impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::Text(v)
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Text(v.to_string())
    }
}

/// A statement's values: `values![a, b, c]`.
macro_rules! values {
    ($($v:expr),* $(,)?) => { vec![$($crate::store::sql::Value::from($v)),*] };
}
pub(crate) use values;

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        match self {
            Value::Int(v) => rusqlite::ToSql::to_sql(v),
            Value::Real(v) => rusqlite::ToSql::to_sql(v),
            Value::Text(v) => rusqlite::ToSql::to_sql(v),
            Value::Bool(v) => rusqlite::ToSql::to_sql(v),
        }
    }
}

impl ToSql for Value {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self {
            Value::Int(v) => v.to_sql(ty, out),
            Value::Real(v) => v.to_sql(ty, out),
            Value::Text(v) => v.to_sql(ty, out),
            Value::Bool(v) => v.to_sql(ty, out),
        }
    }

    fn accepts(ty: &Type) -> bool {
        <i64 as ToSql>::accepts(ty)
            || <f64 as ToSql>::accepts(ty)
            || <String as ToSql>::accepts(ty)
            || <bool as ToSql>::accepts(ty)
    }

    /// Checked against the parameter's type by the value's own type, not any of the four: an
    /// integer where the statement wants text is an error, never bytes misread.
    fn to_sql_checked(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self {
            Value::Int(v) => v.to_sql_checked(ty, out),
            Value::Real(v) => v.to_sql_checked(ty, out),
            Value::Text(v) => v.to_sql_checked(ty, out),
            Value::Bool(v) => v.to_sql_checked(ty, out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Sql, Value};
    use crate::ids::{Moment, PlayerId};

    #[test]
    fn sqlite_numbers_its_parameters_as_postgresql_does() {
        let sql = Sql::new(
            "UPDATE games SET left1 = $2, turn_since = COALESCE($3, turn_since) WHERE id = $1",
            values![PlayerId(4), 7_i64, None::<Moment>],
        );
        assert_eq!(
            sql.sqlite(),
            "UPDATE games SET left1 = ?2, turn_since = COALESCE(?3, turn_since) WHERE id = ?1"
        );
        assert_eq!(
            sql.values,
            [Value::Int(Some(4)), Value::Int(Some(7)), Value::Int(None)]
        );
        assert!(!sql.returns());
    }
}
