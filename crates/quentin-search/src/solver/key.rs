//! The key of the solver's transposition table: a position and the kind of node.

use std::hash::{Hash, Hasher};

use quentin_rules::{Color, Position};

/// A position and the kind of node: the stones exactly on boards of up to 128 points, else as
/// two 128-bit Zobrist sums (a false match then has a chance of about 2^-128 per pair).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Key {
    stones: [u128; 2],
    /// Bit 0: White to move; bit 1: a swap is offered; bit 2: the attacker is to move.
    flags: u8,
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

pub(super) fn key(pos: &Position, attacker_to_move: bool) -> Key {
    let size = pos.size();
    let board = pos.board();
    let exact = size * size <= 128;
    let mut stones = [0u128; 2];
    for p in board.points() {
        if let Some(c) = board.get(p) {
            stones[c.index()] ^= if exact {
                1 << (p.row() * size + p.col())
            } else {
                zobrist(p.index(), c)
            };
        }
    }
    let flags = u8::from(pos.to_move() == Some(Color::White))
        | u8::from(pos.swap_available()) << 1
        | u8::from(attacker_to_move) << 2;
    Key { stones, flags }
}
