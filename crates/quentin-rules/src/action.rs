//! Actions as players take them and as records write them.

use std::fmt;

use super::point::{ParsePointError, Point};

/// One action of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// A stone placed on an empty point (`c4`); in Quint, a piece dropped from the hand.
    Place(Point),
    /// The pie rule's exchange of colours (`swap`).
    Swap,
    /// A forced pass (`pass`).
    Pass,
    /// Quint's move phase: a piece steps from `from` to `to` and takes the enemy pieces on
    /// `captures` (`c4-c5`, `c4-c5xc6xd5`).
    Step {
        /// Where the piece stands.
        from: Point,
        /// Where it goes.
        to: Point,
        /// The enemy pieces it takes, possibly none.
        captures: Captures,
    },
}

/// The most pieces one step can name as captured: one per orthogonal direction.
pub const MAX_CAPTURES: usize = 4;

/// The points a step captures: a small set, kept sorted (column, then row) and without repeats,
/// so that equal sets compare equal and print in one fixed order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Captures {
    len: u8,
    /// The first `len` entries, sorted; the rest stay `a1` so that equality is structural.
    points: [Point; MAX_CAPTURES],
}

impl Default for Captures {
    fn default() -> Captures {
        Captures::NONE
    }
}

impl Captures {
    /// No capture.
    pub const NONE: Captures = Captures {
        len: 0,
        points: [Point::new(0, 0); MAX_CAPTURES],
    };

    /// The set of `points`.
    ///
    /// # Errors
    /// [`ParseActionError::DuplicateCapture`] when a point comes twice,
    /// [`ParseActionError::TooManyCaptures`] when there are more than [`MAX_CAPTURES`].
    pub fn from_points(
        points: impl IntoIterator<Item = Point>,
    ) -> Result<Captures, ParseActionError> {
        let mut set = Captures::NONE;
        for p in points {
            if set.contains(p) {
                return Err(ParseActionError::DuplicateCapture(p));
            }
            let len = usize::from(set.len);
            if len == MAX_CAPTURES {
                return Err(ParseActionError::TooManyCaptures);
            }
            set.points[len] = p;
            set.len += 1;
            set.points[..=len].sort_unstable();
        }
        Ok(set)
    }

    /// The points, in the fixed order (column, then row).
    pub fn iter(&self) -> impl Iterator<Item = Point> + '_ {
        self.points[..usize::from(self.len)].iter().copied()
    }

    /// How many points.
    #[must_use]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether the step captures nothing.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether `p` is captured.
    #[must_use]
    pub fn contains(&self, p: Point) -> bool {
        self.iter().any(|q| q == p)
    }
}

/// Why a token is not an action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseActionError {
    /// Not a point, `swap`, `pass` or a step.
    NotAnAction,
    /// Shaped like a point whose column or row no board has.
    OffEveryBoard,
    /// A step names the same captured point twice.
    DuplicateCapture(Point),
    /// A step names more captured points than a step can take.
    TooManyCaptures,
}

impl fmt::Display for ParseActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseActionError::NotAnAction => f.write_str(
                "not an action (a point such as c4, swap, pass or a step such as c4-c5xc6)",
            ),
            ParseActionError::OffEveryBoard => f.write_str("a point off every board"),
            ParseActionError::DuplicateCapture(p) => write!(f, "it captures {p} twice"),
            ParseActionError::TooManyCaptures => {
                write!(f, "a step captures at most {MAX_CAPTURES} pieces")
            }
        }
    }
}

impl std::error::Error for ParseActionError {}

/// Reads a point at the start of `text` (a letter and every digit after it) and returns it with
/// the rest of the text.
fn leading_point(text: &str) -> Result<(Point, &str), ParseActionError> {
    let letter_len = text.chars().next().map_or(0, char::len_utf8);
    let digits = text[letter_len..]
        .bytes()
        .take_while(u8::is_ascii_digit)
        .count();
    let (point, rest) = text.split_at(letter_len + digits);
    match Point::parse(point) {
        Ok(p) => Ok((p, rest)),
        Err(ParsePointError::NotAPoint) => Err(ParseActionError::NotAnAction),
        Err(ParsePointError::OffEveryBoard) => Err(ParseActionError::OffEveryBoard),
    }
}

impl Action {
    /// Reads a record token: a point, `swap`, `pass` or a step `c4-c5` with captures
    /// `xc6xd5` in any order (all case-insensitive).
    ///
    /// # Errors
    /// When the token is none of those, or a step names a capture twice.
    pub fn parse(token: &str) -> Result<Action, ParseActionError> {
        if token.eq_ignore_ascii_case("swap") {
            return Ok(Action::Swap);
        }
        if token.eq_ignore_ascii_case("pass") {
            return Ok(Action::Pass);
        }
        let Some((from, rest)) = token.split_once('-') else {
            return leading_point(token).and_then(|(p, rest)| {
                if rest.is_empty() {
                    Ok(Action::Place(p))
                } else {
                    Err(ParseActionError::NotAnAction)
                }
            });
        };
        let (from, tail) = leading_point(from)?;
        if !tail.is_empty() {
            return Err(ParseActionError::NotAnAction);
        }
        let (to, mut rest) = leading_point(rest)?;
        let mut captured = Vec::new();
        while !rest.is_empty() {
            let Some(after) = rest.strip_prefix(['x', 'X']) else {
                return Err(ParseActionError::NotAnAction);
            };
            let (p, tail) = leading_point(after)?;
            captured.push(p);
            rest = tail;
        }
        Ok(Action::Step {
            from,
            to,
            captures: Captures::from_points(captured)?,
        })
    }

    /// The point this action puts a stone or piece on, if any: a step's destination.
    #[must_use]
    pub fn point(self) -> Option<Point> {
        match self {
            Action::Place(p) | Action::Step { to: p, .. } => Some(p),
            Action::Swap | Action::Pass => None,
        }
    }

    /// Every point the action names, as written.
    pub fn points(self) -> impl Iterator<Item = Point> {
        let (first, second, captures) = match self {
            Action::Place(p) => (Some(p), None, Captures::NONE),
            Action::Step { from, to, captures } => (Some(from), Some(to), captures),
            Action::Swap | Action::Pass => (None, None, Captures::NONE),
        };
        first
            .into_iter()
            .chain(second)
            .chain(captures.points.into_iter().take(captures.len()))
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Place(p) => p.fmt(f),
            Action::Swap => f.write_str("swap"),
            Action::Pass => f.write_str("pass"),
            Action::Step { from, to, captures } => {
                write!(f, "{from}-{to}")?;
                for p in captures.iter() {
                    write!(f, "x{p}")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip() {
        for token in [
            "c4",
            "swap",
            "pass",
            "z26",
            "a1",
            "c4-c5",
            "c4-c5xc6xd5",
            "a1-a2xa3",
        ] {
            assert_eq!(Action::parse(token).unwrap().to_string(), token);
        }
        assert_eq!(Action::parse("SWAP"), Ok(Action::Swap));
        assert_eq!(Action::parse("Pass"), Ok(Action::Pass));
        assert_eq!(Action::parse("C4"), Action::parse("c4"));
        assert_eq!(Action::parse("swapp"), Err(ParseActionError::NotAnAction));
        assert_eq!(Action::parse("c0"), Err(ParseActionError::OffEveryBoard));
    }

    #[test]
    fn captures_read_in_any_order_and_print_in_one() {
        let step = Action::parse("C4-C5XD5xc6").unwrap();
        assert_eq!(step.to_string(), "c4-c5xc6xd5");
        assert_eq!(step, Action::parse("c4-c5xc6xd5").unwrap());
        // A column named x reads as a point after the capture mark.
        assert_eq!(Action::parse("w4-w5xx5").unwrap().to_string(), "w4-w5xx5");
        let points: Vec<String> = step.points().map(|p| p.to_string()).collect();
        assert_eq!(points, ["c4", "c5", "c6", "d5"]);
    }

    #[test]
    fn bad_steps_are_refused() {
        let c6 = Point::parse("c6").unwrap();
        assert_eq!(
            Action::parse("c4-c5xc6xC6"),
            Err(ParseActionError::DuplicateCapture(c6))
        );
        assert_eq!(
            Action::parse("c4-c5xa1xa2xa3xa4xa5"),
            Err(ParseActionError::TooManyCaptures)
        );
        for bad in [
            "c4-", "-c5", "c4-c5x", "c4-c5xx", "c4c5", "c4-c5-c6", "c4-c5yc6", "c4x-c5",
        ] {
            assert_eq!(
                Action::parse(bad),
                Err(ParseActionError::NotAnAction),
                "{bad}"
            );
        }
        assert_eq!(Action::parse("c4-c0"), Err(ParseActionError::OffEveryBoard));
    }
}
