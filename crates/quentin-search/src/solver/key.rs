//! The key of the solver's transposition table: a position and the kind of node.

use std::hash::{Hash, Hasher};

use quentin_rules::{Color, Game, Point, Position};

use crate::puzzles::symmetry;

/// A position and the kind of node: the stones exactly on boards of up to 128 points, else as
/// two 128-bit Zobrist sums (a false match then has a chance of about 2^-128 per pair).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Key {
    stones: [u128; 2],
    /// Bit 0: White to move; bit 1: a swap is offered; bit 2: the attacker is to move.
    flags: u8,
}

impl Key {
    /// The key from its stones and flags (as [`Key::parts`] gives them).
    pub(super) fn from_parts(stones: [u128; 2], flags: u8) -> Key {
        Key { stones, flags }
    }

    /// The stones of each colour and the flags.
    pub(super) fn parts(&self) -> ([u128; 2], u8) {
        (self.stones, self.flags)
    }

    /// The same position as the other kind of node: the question asked of the other person
    /// (the attacker to move instead of the defender, or the reverse). The flag is the same in
    /// every image, so the least image stays the least.
    pub(super) fn other_question(self) -> Key {
        Key {
            stones: self.stones,
            flags: self.flags ^ 0b100,
        }
    }

    /// The key of a node never looked up (settled when it was made).
    pub(super) const NONE: Key = Key {
        stones: [0; 2],
        flags: u8::MAX,
    };
}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let [b, w] = self.stones;
        let fold = |x: u128| (x as u64) ^ ((x >> 64) as u64).rotate_left(17);
        state.write_u64(fold(b) ^ fold(w).rotate_left(31) ^ u64::from(self.flags));
    }
}

/// The hasher of the table: the key's one word mixed (SplitMix64's finaliser).
#[derive(Default)]
pub(super) struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }
}

/// A random 128-bit word for the point of index `i` and a colour, for the Zobrist sums.
fn zobrist(i: usize, color: Color) -> u128 {
    let mix = |mut z: u64| {
        z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let seed = (i as u64) << 1 | color.index() as u64;
    u128::from(mix(seed)) << 64 | u128::from(mix(seed ^ 0x5851_f42d_4c95_7f2d))
}

/// Makes the keys of one game and size: each position's least key under the game's board
/// symmetries (those of [`crate::puzzles::symmetry`], checked against the rules there and in the
/// solver's tests), so that a position and its mirror images share one entry of the table. The
/// kind of node is the attacker's, not a colour's, so a symmetry that exchanges the colours
/// maps a proof for one person to the proof for the other.
pub(super) struct Keyer {
    size: usize,
    exact: bool,
    /// Each symmetry's image of a point (by `row * size + col`), and whether it exchanges the
    /// colours; the identity first.
    maps: Vec<(Vec<usize>, bool)>,
}

impl Keyer {
    /// The keyer of `game` on boards of side `size`; with `symmetric` false, the identity alone.
    pub(super) fn new(game: Game, size: usize, symmetric: bool) -> Keyer {
        let mut syms = symmetry::symmetries(game);
        if !symmetric {
            syms.truncate(1);
        }
        let maps = syms
            .into_iter()
            .map(|s| {
                let map = (0..size * size)
                    .map(|i| {
                        let q = s.point(Point::new(i % size, i / size), size);
                        q.row() * size + q.col()
                    })
                    .collect();
                (map, s.swaps_colors())
            })
            .collect();
        Keyer {
            size,
            exact: size * size <= 128,
            maps,
        }
    }

    /// The points of the board (the stones of an exact key are bits among them).
    pub(super) fn points(&self) -> usize {
        self.size * self.size
    }

    /// The key of `pos` as a node where the attacker is to move or not.
    pub(super) fn key(&self, pos: &Position, attacker_to_move: bool) -> Key {
        let size = self.size;
        let board = pos.board();
        let mut stones = [[0u128; 2]; 8];
        let syms = self.maps.len().min(8);
        for p in board.points() {
            let Some(c) = board.get(p) else { continue };
            let i = p.row() * size + p.col();
            for (s, (map, swap)) in self.maps.iter().take(syms).enumerate() {
                let j = map[i];
                let colour = if *swap { c.opponent() } else { c };
                stones[s][colour.index()] ^= if self.exact {
                    1 << j
                } else {
                    zobrist(j, colour)
                };
            }
        }
        let white = pos.to_move() == Some(Color::White);
        let rest = u8::from(pos.swap_available()) << 1 | u8::from(attacker_to_move) << 2;
        (0..syms)
            .map(|s| Key {
                stones: stones[s],
                flags: u8::from(white != self.maps[s].1) | rest,
            })
            .min_by_key(|k| (k.flags, k.stones))
            .unwrap_or(Key {
                stones: [0; 2],
                flags: rest,
            })
    }
}
