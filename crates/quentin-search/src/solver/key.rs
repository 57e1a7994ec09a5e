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
    /// For exact keys, each symmetry's image of a byte of stones: at `(s * chunks + c) * 256 +
    /// byte`, the image under symmetry `s` of the points `8c` to `8c + 7` that `byte` holds.
    images: Vec<u128>,
    /// Bytes of a board's stones (exact keys).
    chunks: usize,
}

impl Keyer {
    /// The keyer of `game` on boards of side `size`; with `symmetric` false, the identity alone.
    pub(super) fn new(game: Game, size: usize, symmetric: bool) -> Keyer {
        let mut syms = symmetry::symmetries(game);
        if !symmetric {
            syms.truncate(1);
        }
        let maps: Vec<(Vec<usize>, bool)> = syms
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
        let exact = size * size <= 128;
        let chunks = (size * size).div_ceil(8);
        let mut images = Vec::new();
        if exact {
            images = vec![0u128; maps.len() * chunks * 256];
            for (s, (map, _)) in maps.iter().enumerate() {
                for c in 0..chunks {
                    for byte in 0..256usize {
                        let at = (s * chunks + c) * 256 + byte;
                        for bit in 0..8 {
                            let i = 8 * c + bit;
                            if byte >> bit & 1 == 1 && i < size * size {
                                images[at] |= 1 << map[i];
                            }
                        }
                    }
                }
            }
        }
        Keyer {
            size,
            exact,
            maps,
            images,
            chunks,
        }
    }

    /// The image of `stones` (a bit per point) under symmetry `s`, by bytes (exact keys).
    fn image(&self, s: usize, stones: u128) -> u128 {
        let table = &self.images[s * self.chunks * 256..(s + 1) * self.chunks * 256];
        (0..self.chunks)
            .map(|c| table[c * 256 + ((stones >> (8 * c)) as usize & 0xff)])
            .fold(0, |a, b| a | b)
    }

    /// The points of the board (the stones of an exact key are bits among them).
    pub(super) fn points(&self) -> usize {
        self.size * self.size
    }

    /// The key of `pos` as a node where the attacker is to move or not.
    pub(super) fn key(&self, pos: &Position, attacker_to_move: bool) -> Key {
        if self.exact {
            self.exact_key(pos, attacker_to_move)
        } else {
            self.summed_key(pos, attacker_to_move)
        }
    }

    /// [`Keyer::key`] point by point, each image's stones as bits (exact) or Zobrist sums.
    fn summed_key(&self, pos: &Position, attacker_to_move: bool) -> Key {
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

    /// [`Keyer::key`] on a board of up to 128 points: the stones as bits, each image made by
    /// bytes from the tables.
    fn exact_key(&self, pos: &Position, attacker_to_move: bool) -> Key {
        let size = self.size;
        let board = pos.board();
        let mut own = [0u128; 2];
        for p in board.points() {
            if let Some(c) = board.get(p) {
                own[c.index()] |= 1 << (p.row() * size + p.col());
            }
        }
        let white = pos.to_move() == Some(Color::White);
        let rest = u8::from(pos.swap_available()) << 1 | u8::from(attacker_to_move) << 2;
        let mut best = Key {
            stones: own,
            flags: u8::from(white) | rest,
        };
        for (s, (_, swap)) in self.maps.iter().enumerate().take(8).skip(1) {
            let [b, w] = [self.image(s, own[0]), self.image(s, own[1])];
            let key = Key {
                stones: if *swap { [w, b] } else { [b, w] },
                flags: u8::from(white != *swap) | rest,
            };
            if (key.flags, key.stones) < (best.flags, best.stones) {
                best = key;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use quentin_rules::{Game, Setup};

    #[test]
    fn the_keys_by_bytes_are_the_keys_point_by_point() {
        // Random positions of 3×3 to 11×11 games: the tables' key is the one the points give
        // (the store's keys do not change with the way they are made).
        let mut rng = Rng::new(61);
        for game in [Game::Quentin, Game::Konobi, Game::Brique] {
            for size in 3..=11 {
                let keyer = Keyer::new(game, size, true);
                for _ in 0..20 {
                    let mut pos = Setup {
                        size,
                        pie: rng.below(2) == 0,
                        ..Setup::new(game)
                    }
                    .start()
                    .unwrap();
                    let moves = rng.below(size * size);
                    for _ in 0..moves {
                        let actions = pos.legal_actions();
                        if pos.is_over() || actions.is_empty() {
                            break;
                        }
                        pos.play(actions[rng.below(actions.len())]).unwrap();
                        for attacker in [false, true] {
                            assert_eq!(
                                keyer.exact_key(&pos, attacker),
                                keyer.summed_key(&pos, attacker),
                                "{game} {size}"
                            );
                        }
                    }
                }
            }
        }
    }
}
