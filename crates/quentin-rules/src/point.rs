//! Points (intersections, squares or cells) named as in records: `a1` is bottom-left.

use std::fmt;

/// The smallest board side the connection games allow.
pub const MIN_SIZE: usize = 3;
/// The largest board side: one letter per column, `a` to `z`.
pub const MAX_SIZE: usize = 26;
/// The row length of the padded index space: the largest board plus a border on each side, so
/// that every point's neighbours have indices too.
pub const STRIDE: usize = MAX_SIZE + 2;
/// How many indices [`Point::index`] can give: every index is below this.
pub const INDICES: usize = STRIDE * STRIDE;

/// A point of the board by column and row, both counted from 0 (`a1` is `(0, 0)`).
///
/// A point does not know the board's size; [`crate::Board`] checks that it lies on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    col: u8,
    row: u8,
}

/// Why a token is not a point.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsePointError {
    /// The text does not have the shape letter-and-number (`c4`).
    NotAPoint,
    /// The shape is right but the column or row can be on no board (`a0`, `b27`, `c99999`).
    OffEveryBoard,
}

impl Point {
    /// The point at column `col` and row `row`, both from 0.
    ///
    /// # Panics
    /// When either is [`MAX_SIZE`] or more.
    #[must_use]
    pub const fn new(col: usize, row: usize) -> Point {
        assert!(
            col < MAX_SIZE && row < MAX_SIZE,
            "point beyond the largest board"
        );
        Point {
            col: col as u8,
            row: row as u8,
        }
    }

    /// Column from 0 (`a` is 0).
    #[must_use]
    pub const fn col(self) -> usize {
        self.col as usize
    }

    /// Row from 0 (`1` is 0).
    #[must_use]
    pub const fn row(self) -> usize {
        self.row as usize
    }

    /// The point's index in a padded grid, `(row + 1) * STRIDE + col + 1`, below [`INDICES`]:
    /// the neighbours of a point are its index ± 1 and ± [`STRIDE`], border included.
    #[must_use]
    pub const fn index(self) -> usize {
        (self.row as usize + 1) * STRIDE + self.col as usize + 1
    }

    /// The point of an index given by [`Point::index`].
    ///
    /// # Panics
    /// When the index is on the border of the padded grid, or beyond it.
    #[must_use]
    pub const fn from_index(i: usize) -> Point {
        Point::new(i % STRIDE - 1, i / STRIDE - 1)
    }

    /// The point `dc` columns and `dr` rows away, which the caller knows to be on the board:
    /// two byte additions, where [`Point::from_index`] of the index divides.
    #[inline]
    pub(crate) const fn shifted(self, dc: i8, dr: i8) -> Point {
        Point {
            col: self.col.wrapping_add_signed(dc),
            row: self.row.wrapping_add_signed(dr),
        }
    }

    /// Reads a point name such as `c4` or `C4` (letters are case-insensitive).
    ///
    /// # Errors
    /// [`ParsePointError::NotAPoint`] when the text is not a letter followed by digits,
    /// [`ParsePointError::OffEveryBoard`] when its row is 0 or above [`MAX_SIZE`].
    pub fn parse(text: &str) -> Result<Point, ParsePointError> {
        let mut chars = text.chars();
        let letter = chars.next().ok_or(ParsePointError::NotAPoint)?;
        let digits = chars.as_str();
        if !letter.is_ascii_alphabetic()
            || digits.is_empty()
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(ParsePointError::NotAPoint);
        }
        let col = usize::from(letter.to_ascii_lowercase() as u8 - b'a');
        // Long digit strings are off every board; avoid overflow by checking the length first.
        let row: usize = if digits.len() > 3 {
            0
        } else {
            digits.parse().map_err(|_| ParsePointError::NotAPoint)?
        };
        if row == 0 || row > MAX_SIZE {
            return Err(ParsePointError::OffEveryBoard);
        }
        Ok(Point::new(col, row - 1))
    }

    /// The point one step from `self` in direction `(dc, dr)` (column, row), if it lies on a
    /// board of side `size`.
    #[must_use]
    pub fn offset(self, (dc, dr): (isize, isize), size: usize) -> Option<Point> {
        let col = self.col().checked_add_signed(dc)?;
        let row = self.row().checked_add_signed(dr)?;
        (col < size && row < size).then(|| Point::new(col, row))
    }

    /// The column letter, `a` for column 0.
    #[must_use]
    pub const fn col_letter(self) -> char {
        (b'a' + self.col) as char
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.col_letter(), self.row() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for col in 0..MAX_SIZE {
            for row in 0..MAX_SIZE {
                let p = Point::new(col, row);
                assert_eq!(Point::parse(&p.to_string()), Ok(p));
            }
        }
        assert_eq!(Point::parse("C4"), Ok(Point::new(2, 3)));
    }

    #[test]
    fn bad_names_are_refused() {
        for bad in ["", "c", "4", "c-1", "cc4", "c4x", "é4", "c 4", "+4"] {
            assert_eq!(
                Point::parse(bad),
                Err(ParsePointError::NotAPoint),
                "{bad:?}"
            );
        }
        for off in ["a0", "a27", "z99999999999999999999"] {
            assert_eq!(
                Point::parse(off),
                Err(ParsePointError::OffEveryBoard),
                "{off:?}"
            );
        }
    }
}
