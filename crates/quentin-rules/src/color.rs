//! The two colours of stones and pieces.

use std::fmt;

/// A colour: the side that owns a stone, and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Black: in the connection games it moves first and owns the top and bottom edges.
    Black,
    /// White: owns the left and right edges; in Quint it moves first.
    White,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other colour.
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The lower-case name used in records, messages and JSON: `black` or `white`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// The name at the head of a sentence, as messages and reports write it: `Black` or
    /// `White`.
    #[must_use]
    pub const fn capitalised(self) -> &'static str {
        match self {
            Color::Black => "Black",
            Color::White => "White",
        }
    }

    /// The board letter used in JSON boards and worked examples: `B` or `W`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    /// A small index (Black 0, White 1) for per-colour arrays.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponent_is_an_involution() {
        for c in Color::ALL {
            assert_ne!(c.opponent(), c);
            assert_eq!(c.opponent().opponent(), c);
        }
        assert_eq!(Color::Black.to_string(), "black");
        assert_eq!(Color::White.letter(), 'W');
        assert_eq!(Color::Black.capitalised(), "Black");
    }
}
