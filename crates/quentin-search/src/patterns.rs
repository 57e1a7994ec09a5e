//! Local patterns for the prior at expansion, as MoHex's knowledge: the eight points around a
//! placement, each empty, the mover's, the opponent's or off the board, with the share of
//! virtual wins that placements of each pattern start with, learned from the search's own
//! self-play games (`examples/patterns.rs`, docs/engine-strength.md).
//!
//! A pattern is read from the mover's side: the mover's stones and the opponent's, and the
//! board turned so that the mover's own edges are north and south (White's pattern is read
//! transposed, as White joins west to east). The four symmetries that keep those edges where
//! they are (the mirrors east-west and north-south, the half turn) give the same pattern, so a
//! pattern is learned and looked up by its [`canonical`] key.

use std::sync::OnceLock;

use quentin_rules::{Board, Color, Point};

/// Keys of patterns: two bits for each of the eight points around.
pub const KEYS: usize = 1 << 16;

/// What stands on one point around, two bits of a key.
const EMPTY: u16 = 0;
const MINE: u16 = 1;
const THEIRS: u16 = 2;
const OFF: u16 = 3;

/// The eight points around, as (column, row) steps, in the order of their two bits in a key:
/// north first, then clockwise.
const AROUND: [(isize, isize); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// The key of the pattern around the empty point `p` of `board` for a placement of `mover`
/// (not canonical: [`canonical`] gives the key it is learned by).
#[must_use]
pub fn key(board: &Board, p: Point, mover: Color) -> u16 {
    let mut key = 0;
    for (slot, &(dc, dr)) in AROUND.iter().enumerate() {
        // White's pattern is read transposed: its edges are west and east.
        let step = match mover {
            Color::Black => (dc, dr),
            Color::White => (dr, dc),
        };
        let value = match board.step(p, step).map(|q| board.get(q)) {
            None => OFF,
            Some(None) => EMPTY,
            Some(Some(color)) if color == mover => MINE,
            Some(Some(_)) => THEIRS,
        };
        key |= value << (2 * slot);
    }
    key
}

/// The slot of a step in [`AROUND`].
fn slot_of(step: (isize, isize)) -> usize {
    AROUND
        .iter()
        .position(|&s| s == step)
        .expect("a step to a point around") // ok: callers pass one of AROUND's own steps
}

/// `key` with each point moved by `map`, a symmetry of the eight points around.
fn transformed(key: u16, map: impl Fn((isize, isize)) -> (isize, isize)) -> u16 {
    let mut out = 0;
    for (slot, &step) in AROUND.iter().enumerate() {
        let value = key >> (2 * slot) & 3;
        out |= value << (2 * slot_of(map(step)));
    }
    out
}

/// The key a pattern is learned by: the least of its keys under the symmetries that keep the
/// mover's edges north and south.
#[must_use]
pub fn canonical(key: u16) -> u16 {
    [
        key,
        transformed(key, |(c, r)| (-c, r)),
        transformed(key, |(c, r)| (c, -r)),
        transformed(key, |(c, r)| (-c, -r)),
    ]
    .into_iter()
    .min()
    .unwrap_or(key)
}

/// The learned shares of virtual wins, by key and by whether the placement is near the stone
/// placed last (the prior's `reach`).
#[derive(PartialEq)]
pub struct Table {
    /// By `key * 2 + near`.
    shares: Vec<f32>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table").finish_non_exhaustive()
    }
}

impl Table {
    /// The table of a learned file (`examples/patterns.rs fit`: lines `key,near,share`, with
    /// canonical keys), placements of patterns it does not hold starting with `near` or `far`.
    ///
    /// # Errors
    /// A line that is not three numbers, a key that is not canonical or a share outside 0 to 1.
    pub fn parse(text: &str, near: f32, far: f32) -> Result<Table, String> {
        let mut learned = vec![None; 2 * KEYS];
        for line in text.lines() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = || format!("a bad line of patterns: {line}");
            let fields: Vec<&str> = line.split(',').collect();
            let [key, is_near, share] = fields[..] else {
                return Err(bad());
            };
            let key: u16 = key.parse().map_err(|_| bad())?;
            let is_near: usize = is_near.parse().map_err(|_| bad())?;
            let share: f32 = share.parse().map_err(|_| bad())?;
            if canonical(key) != key || is_near > 1 || !(0.0..=1.0).contains(&share) {
                return Err(bad());
            }
            learned[usize::from(key) * 2 + is_near] = Some(share);
        }
        let shares = (0..2 * KEYS)
            .map(|i| {
                let (key, is_near) = ((i / 2) as u16, i % 2);
                let default = if is_near == 1 { near } else { far };
                learned[usize::from(canonical(key)) * 2 + is_near].unwrap_or(default)
            })
            .collect();
        Ok(Table { shares })
    }

    /// The share of virtual wins of a placement whose pattern has `key` (any, canonical or
    /// not).
    #[must_use]
    pub fn share(&self, key: u16, near: bool) -> f32 {
        self.shares[usize::from(key) * 2 + usize::from(near)]
    }
}

/// Quentin's learned patterns (`patterns/quentin.txt`).
pub(crate) fn quentin() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        Table::parse(include_str!("patterns/quentin.txt"), 0.65, 0.45)
            .expect("the shipped patterns parse") // ok: embedded, and parsed by the tests
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use quentin_rules::{Game, Setup};

    #[test]
    fn the_symmetries_of_a_pattern_share_its_canonical_key() {
        // A mover's stone to the north-east, an opponent's to the west.
        let key = MINE << 2 | THEIRS << 12;
        let mirrored = MINE << 14 | THEIRS << 4;
        let flipped = MINE << 6 | THEIRS << 12;
        assert_eq!(canonical(key), canonical(mirrored));
        assert_eq!(canonical(key), canonical(flipped));
        assert_eq!(canonical(canonical(key)), canonical(key));
        // A quarter turn is no symmetry: the edges matter.
        let turned = MINE << 6 | THEIRS;
        assert_ne!(canonical(key), canonical(turned));
    }

    #[test]
    fn a_table_refuses_what_it_cannot_have_learned() {
        let canonical_key = canonical(MINE << 2);
        let good = format!("# a comment\n{canonical_key},1,0.7\n");
        let table = Table::parse(&good, 0.6, 0.4).unwrap();
        assert_eq!(table.share(canonical_key, true), 0.7);
        // Every key of the pattern's symmetries, and only the near placements.
        assert_eq!(table.share(MINE << 14, true), 0.7);
        assert_eq!(table.share(MINE << 14, false), 0.4);
        assert_eq!(table.share(0, true), 0.6);
        let other = (0..4)
            .map(|s| MINE << (2 * s))
            .find(|&k| canonical(k) != k)
            .unwrap();
        for bad in [
            format!("{other},1,0.7"),
            format!("{canonical_key},2,0.7"),
            format!("{canonical_key},1,1.5"),
            format!("{canonical_key},1"),
            "x,1,0.5".to_string(),
        ] {
            assert!(Table::parse(&bad, 0.6, 0.4).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_shipped_table_parses_and_ranks_patterns() {
        let table = quentin();
        let shares: Vec<f32> = (0..=u16::MAX).map(|k| table.share(k, true)).collect();
        let (low, high) = shares
            .iter()
            .fold((1.0f32, 0.0f32), |(l, h), &s| (l.min(s), h.max(s)));
        assert!(low < 0.45 && high > 0.75, "{low} {high}");
    }

    #[test]
    fn a_key_reads_the_board_from_the_mover() {
        let mut pos = Setup::new(Game::Quentin).start().unwrap();
        // Black on b2, then White on c3; the patterns around b3.
        pos.play(quentin_rules::Action::Place(Point::new(1, 1)))
            .unwrap();
        pos.play(quentin_rules::Action::Place(Point::new(2, 2)))
            .unwrap();
        let p = Point::new(1, 2);
        let board = pos.board();
        // Black at b3: its own stone to the south, White's to the east.
        assert_eq!(key(board, p, Color::Black), MINE << 8 | THEIRS << 4);
        // White at b3, read transposed: its own stone (c3) to the north, Black's (b2) to the
        // west.
        assert_eq!(key(board, p, Color::White), MINE | THEIRS << 12);
        // The corner a1: off the board to the south and west.
        let corner = key(board, Point::new(0, 0), Color::Black);
        for slot in [3, 4, 5, 6, 7] {
            assert_eq!(corner >> (2 * slot) & 3, OFF, "slot {slot}");
        }
        assert_eq!(corner >> 2 & 3, MINE, "b2 to the north-east");
    }
}
