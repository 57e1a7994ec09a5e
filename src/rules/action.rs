//! Actions as players take them and as records write them.

use std::fmt;

use super::point::{ParsePointError, Point};

/// One action of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// A stone placed on an empty point (`c4`).
    Place(Point),
    /// The pie rule's exchange of colours (`swap`).
    Swap,
    /// A forced pass (`pass`).
    Pass,
}

/// Why a token is not an action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseActionError {
    /// Not a point, `swap` or `pass`.
    NotAnAction,
    /// Shaped like a point whose column or row no board has.
    OffEveryBoard,
}

impl Action {
    /// Reads a record token: a point, `swap` or `pass` (case-insensitive).
    ///
    /// # Errors
    /// When the token is none of those.
    pub fn parse(token: &str) -> Result<Action, ParseActionError> {
        if token.eq_ignore_ascii_case("swap") {
            return Ok(Action::Swap);
        }
        if token.eq_ignore_ascii_case("pass") {
            return Ok(Action::Pass);
        }
        match Point::parse(token) {
            Ok(p) => Ok(Action::Place(p)),
            Err(ParsePointError::NotAPoint) => Err(ParseActionError::NotAnAction),
            Err(ParsePointError::OffEveryBoard) => Err(ParseActionError::OffEveryBoard),
        }
    }

    /// The point this action puts a stone on, if any.
    #[must_use]
    pub fn point(self) -> Option<Point> {
        match self {
            Action::Place(p) => Some(p),
            Action::Swap | Action::Pass => None,
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Place(p) => p.fmt(f),
            Action::Swap => f.write_str("swap"),
            Action::Pass => f.write_str("pass"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip() {
        for token in ["c4", "swap", "pass", "z26", "a1"] {
            assert_eq!(Action::parse(token).unwrap().to_string(), token);
        }
        assert_eq!(Action::parse("SWAP"), Ok(Action::Swap));
        assert_eq!(Action::parse("Pass"), Ok(Action::Pass));
        assert_eq!(Action::parse("C4"), Action::parse("c4"));
        assert_eq!(Action::parse("swapp"), Err(ParseActionError::NotAnAction));
        assert_eq!(Action::parse("c0"), Err(ParseActionError::OffEveryBoard));
    }
}
