//! A small deterministic generator for the rules' tests: the same random positions on every
//! run, and no dependency for them.

/// Marsaglia's xorshift on 64 bits, from a seed that is not 0.
pub(crate) struct Xorshift(pub(crate) u64);

impl Xorshift {
    /// A number below `n`, which is not 0.
    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}
