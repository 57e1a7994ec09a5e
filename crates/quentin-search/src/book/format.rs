//! A book's file: written and read here only (the format is in the parent module's text).

use std::fmt;

use quentin_rules::Game;

use super::{Book, MAX_SIZE, SWAP, Winner};

/// The version of the file's format and of the images it holds.
pub const VERSION: u32 = 1;

/// The first line's name.
const MAGIC: &str = "quentin-book";

/// A book that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookError {
    /// The bytes are not a book, or a damaged one: what is wrong.
    Bad(String),
    /// A board or game a book cannot hold.
    Unsupported(String),
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Bad(why) => write!(f, "not a book: {why}"),
            BookError::Unsupported(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for BookError {}

/// Bytes of the stones of one colour on a board of side `size`.
fn stone_bytes(size: usize) -> usize {
    (size * size).div_ceil(8)
}

impl Book {
    /// The book as its file's bytes: the header, then the entries sorted.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = format!(
            "{MAGIC} version {VERSION}\n{}\n{}\npie {}\nwinner {}\n{}\n",
            self.game.name(),
            self.size,
            if self.pie { "on" } else { "off" },
            self.winner.name(),
            self.moves.len()
        )
        .into_bytes();
        let width = stone_bytes(self.size);
        let mut entries: Vec<_> = self.moves.iter().collect();
        entries.sort_by_key(|((stones, flags), _)| (*flags, *stones));
        for ((stones, flags), code) in entries {
            for s in stones {
                out.extend_from_slice(&s.to_le_bytes()[..width]);
            }
            out.push(*flags);
            out.push(*code);
        }
        out
    }

    /// Reads a book from its file's bytes.
    ///
    /// # Errors
    /// Bytes that are not a book, or a damaged one, or one of another version: what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        let bad = |why: String| BookError::Bad(why);
        let mut lines = Vec::new();
        let mut at = 0;
        while lines.len() < 6 {
            let end = bytes[at..]
                .iter()
                .position(|&b| b == b'\n')
                .ok_or_else(|| bad("its header is cut short".to_string()))?;
            let line = std::str::from_utf8(&bytes[at..at + end])
                .map_err(|_| bad("its header is not text".to_string()))?;
            lines.push(line);
            at += end + 1;
        }
        let version = lines[0]
            .strip_prefix(MAGIC)
            .and_then(|v| v.trim().strip_prefix("version "))
            .and_then(|v| v.parse::<u32>().ok())
            .ok_or_else(|| bad("its first line names no book version".to_string()))?;
        if version != VERSION {
            return Err(bad(format!(
                "a book of version {version}, this program reads version {VERSION}"
            )));
        }
        let game = Game::from_name(lines[1])
            .ok_or_else(|| bad(format!("{:?} is not a game", lines[1])))?;
        let size: usize = lines[2]
            .parse()
            .map_err(|_| bad(format!("{:?} is not a board's side", lines[2])))?;
        if !(3..=MAX_SIZE).contains(&size) {
            return Err(bad(format!("a side of {size} is not a book's")));
        }
        let pie = match lines[3] {
            "pie on" => true,
            "pie off" => false,
            other => return Err(bad(format!("{other:?} is neither `pie on` nor `pie off`"))),
        };
        let winner = match lines[4] {
            "winner first" => Winner::First,
            "winner second" => Winner::Second,
            other => {
                return Err(bad(format!(
                    "{other:?} is neither `winner first` nor `winner second`"
                )));
            }
        };
        let count: usize = lines[5]
            .parse()
            .map_err(|_| bad(format!("{:?} is not a number of entries", lines[5])))?;
        let mut book = Book::new(game, size, pie, winner)?;
        let width = stone_bytes(size);
        let entry = 2 * width + 2;
        let body = &bytes[at..];
        if Some(body.len()) != count.checked_mul(entry) {
            return Err(bad(format!(
                "{} bytes of entries where {count} entries of {entry} bytes were announced",
                body.len()
            )));
        }
        let points = size * size;
        for (n, e) in body.chunks_exact(entry).enumerate() {
            let word = |i: usize| {
                let mut w = [0u8; 16];
                w[..width].copy_from_slice(&e[i * width..(i + 1) * width]);
                u128::from_le_bytes(w)
            };
            let stones = [word(0), word(1)];
            let (flags, code) = (e[2 * width], e[2 * width + 1]);
            let beyond = stones.iter().any(|s| points < 128 && s >> points != 0);
            if beyond || stones[0] & stones[1] != 0 || flags > 3 {
                return Err(bad(format!("entry {} is not a position", n + 1)));
            }
            if code != SWAP && usize::from(code) >= points {
                return Err(bad(format!("entry {} has no move", n + 1)));
            }
            if book.moves.insert((stones, flags), code).is_some() {
                return Err(bad(format!("entry {} repeats a position", n + 1)));
            }
        }
        Ok(book)
    }
}
