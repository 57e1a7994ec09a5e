//! The solver's store on disk: the positions it proved and refuted, so that a long solve
//! stopped by its budget goes on from where it was (`quentin solve FILE --store DIR`).
//!
//! `DIR/proofs` is a text header of four lines (the format's name and [`VERSION`], the game,
//! the board's side, the number of entries), then the entries, each 37 bytes: the table's key
//! (the stones of each colour as two little-endian 128-bit words, exact on boards of up to
//! 11×11, and the flags byte), the fewest attacker moves a proof needs (`u16::MAX`: none) and
//! the depth below which the attacker was shown not to win (0: nothing), little-endian. A key
//! is the least of a position's images under the game's symmetries, so the version changes
//! whenever the keys or the symmetries do. A store of another game, size or version is refused
//! with what differs, and nothing is written over it.

use std::collections::HashMap;
use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use quentin_rules::Game;

use super::key::Key;

/// The version of the store's format and of the keys it holds.
pub const VERSION: u32 = 1;

/// The first line's name.
const MAGIC: &str = "quentin-solver-store";

/// Bytes an entry takes.
const ENTRY: usize = 16 + 16 + 1 + 2 + 2;

/// The largest board a store holds (its keys are exact up to 128 points).
pub const MAX_SIZE: usize = 11;

/// What a store knows of a position: the fewest attacker moves a proof needs (`u16::MAX`:
/// none) and the depth below which the attacker does not win (0: nothing known).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Known {
    pub(super) win_in: u16,
    pub(super) no_win_below: u16,
}

/// A store that cannot be used.
#[derive(Debug)]
pub enum StoreError {
    /// Reading or writing it failed.
    Io(PathBuf, io::Error),
    /// It is not a store, or it is damaged.
    Bad(PathBuf, String),
    /// It holds another game, size or version.
    Other(PathBuf, String),
    /// The board is too large for the store's exact keys.
    TooLarge(usize),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            StoreError::Bad(p, why) => write!(f, "{}: not a solver store: {why}", p.display()),
            StoreError::Other(p, why) => write!(
                f,
                "{}: {why}; it is left as it is (give another --store directory)",
                p.display()
            ),
            StoreError::TooLarge(size) => write!(
                f,
                "a store holds boards of up to {MAX_SIZE}×{MAX_SIZE}, not {size}×{size}"
            ),
        }
    }
}

impl std::error::Error for StoreError {}

/// The proved and refuted positions of one game and size, as loaded from (and saved to) a
/// directory.
pub struct Store {
    path: PathBuf,
    game: Game,
    size: usize,
    pub(super) known: HashMap<Key, Known>,
    /// Entries when it was loaded.
    loaded: usize,
}

impl Store {
    /// Opens the store in `dir` for `game` on boards of side `size`: empty when the directory
    /// holds none yet (it is made when saved), refused when it holds another game's, size's or
    /// version's.
    ///
    /// # Errors
    /// A store that cannot be read, is damaged or holds something else; a board too large.
    pub fn open(dir: &Path, game: Game, size: usize) -> Result<Store, StoreError> {
        if size > MAX_SIZE || game == Game::Quint {
            return Err(StoreError::TooLarge(size));
        }
        let path = dir.join("proofs");
        let mut store = Store {
            path: path.clone(),
            game,
            size,
            known: HashMap::new(),
            loaded: 0,
        };
        let bytes = match fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(store),
            Err(e) => return Err(StoreError::Io(path, e)),
        };
        let bad = |why: &str| StoreError::Bad(path.clone(), why.to_string());
        // The header: four lines.
        let mut lines = Vec::new();
        let mut at = 0;
        while lines.len() < 4 {
            let end = bytes[at..]
                .iter()
                .position(|&b| b == b'\n')
                .ok_or_else(|| bad("its header is cut short"))?;
            let line = std::str::from_utf8(&bytes[at..at + end]).map_err(|_| bad("not text"))?;
            lines.push(line.to_string());
            at += end + 1;
        }
        let version = lines[0]
            .strip_prefix(MAGIC)
            .and_then(|v| v.trim().strip_prefix("version "))
            .and_then(|v| v.parse::<u32>().ok())
            .ok_or_else(|| bad("its first line names no store version"))?;
        let theirs = format!("{} {}×{}", lines[1], lines[2], lines[2]);
        let ours = format!("{game} {size}×{size}");
        if version != VERSION {
            return Err(StoreError::Other(
                path,
                format!("a store of version {version}, this program reads version {VERSION}"),
            ));
        }
        if theirs != ours {
            return Err(StoreError::Other(
                path,
                format!("a store of {theirs}, not of {ours}"),
            ));
        }
        let count: usize = lines[3].parse().map_err(|_| bad("no number of entries"))?;
        let body = &bytes[at..];
        if body.len() != count * ENTRY {
            return Err(bad("its entries are cut short"));
        }
        for e in body.chunks_exact(ENTRY) {
            let word = |i: usize| {
                let mut w = [0u8; 16];
                w.copy_from_slice(&e[i..i + 16]);
                u128::from_le_bytes(w)
            };
            let key = Key::from_parts([word(0), word(16)], e[32]);
            let win_in = u16::from_le_bytes([e[33], e[34]]);
            let no_win_below = u16::from_le_bytes([e[35], e[36]]);
            store.known.insert(
                key,
                Known {
                    win_in,
                    no_win_below,
                },
            );
        }
        store.loaded = store.known.len();
        Ok(store)
    }

    /// A store kept in memory only (for a solve that needs its proofs afterwards, as the
    /// book's maker does, without a directory): [`Store::save`] would write to `proofs` in the
    /// working directory, so it is never saved.
    #[must_use]
    pub fn in_memory(game: Game, size: usize) -> Store {
        Store {
            path: PathBuf::from("proofs"),
            game,
            size,
            known: HashMap::new(),
            loaded: 0,
        }
    }

    /// Writes the store to its directory (made if need be), through a file renamed over the
    /// old one, so that a stop midway leaves the old store whole.
    ///
    /// # Errors
    /// The directory or the file cannot be written.
    pub fn save(&self) -> Result<(), StoreError> {
        let io = |e| StoreError::Io(self.path.clone(), e);
        if let Some(dir) = self.path.parent() {
            fs::create_dir_all(dir).map_err(io)?;
        }
        let mut out = format!(
            "{MAGIC} version {VERSION}\n{}\n{}\n{}\n",
            self.game,
            self.size,
            self.known.len()
        )
        .into_bytes();
        out.reserve(self.known.len() * ENTRY);
        let mut entries: Vec<_> = self.known.iter().collect();
        entries.sort_by_key(|(k, _)| k.parts());
        for (key, known) in entries {
            let (stones, flags) = key.parts();
            out.extend(stones[0].to_le_bytes());
            out.extend(stones[1].to_le_bytes());
            out.push(flags);
            out.extend(known.win_in.to_le_bytes());
            out.extend(known.no_win_below.to_le_bytes());
        }
        let tmp = self.path.with_extension("new");
        let mut file = fs::File::create(&tmp).map_err(io)?;
        file.write_all(&out).map_err(io)?;
        file.sync_all().map_err(io)?;
        fs::rename(&tmp, &self.path).map_err(io)
    }

    /// The positions it holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.known.len()
    }

    /// Whether it holds nothing.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.known.is_empty()
    }

    /// The positions it held when it was opened.
    #[must_use]
    pub fn loaded(&self) -> usize {
        self.loaded
    }

    /// Adds what a search proved or refuted (the best of both for a position known twice).
    pub(super) fn add(&mut self, key: Key, known: Known) {
        let e = self.known.entry(key).or_insert(Known {
            win_in: u16::MAX,
            no_win_below: 0,
        });
        e.win_in = e.win_in.min(known.win_in);
        e.no_win_below = e.no_win_below.max(known.no_win_below);
    }
}
