//! The work of a node of the df-pn table: the positions its searches created, kept small.

/// A count of positions in 16 bits, exact below 16 and within 1/16 above (a small float: the
/// high bits the power of two, the low four the next bits), so that an entry stays 16 bytes.
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Work(pub(super) u16);

impl Work {
    /// The most it holds: an imported proof, kept before any the search made.
    pub(super) const MAX: Work = Work(u16::MAX);

    /// The count `n`, to within a sixteenth.
    pub(super) fn new(n: u64) -> Work {
        if n < 16 {
            return Work(n as u16);
        }
        // n = 1.m × 2^e, m the four bits after the leading one: the code (e - 3) × 16 + m,
        // which grows with n.
        let e = 63 - u64::from(n.leading_zeros());
        let m = (n >> (e - 4)) & 15;
        Work(u16::try_from(((e - 3) << 4) | m).unwrap_or(u16::MAX))
    }

    /// The count it holds (at most the one it was made from).
    pub(super) fn get(self) -> u64 {
        let code = u64::from(self.0);
        if code < 16 {
            return code;
        }
        let e = (code >> 4) + 3;
        if e > 63 {
            return u64::MAX;
        }
        (16 | (code & 15)) << (e - 4)
    }

    /// It with `n` more positions.
    pub(super) fn add(self, n: u64) -> Work {
        Work::new(self.get().saturating_add(n))
    }
}

#[cfg(test)]
mod tests {
    use super::Work;

    #[test]
    fn work_grows_with_the_count_and_holds_it_within_a_sixteenth() {
        let mut last = Work::new(0);
        for n in (0..5000u64).chain((12..63).map(|e| (1u64 << e) + 12345)) {
            let w = Work::new(n);
            assert!(w >= last, "{n}");
            last = w;
            let back = w.get();
            assert!(back <= n && n - back <= n / 16, "{n} {back}");
        }
        assert_eq!(Work::new(15).get(), 15);
        assert!(Work::new(u64::MAX) < Work::MAX);
        assert!(Work::new(1000).add(1000) >= Work::new(1900));
    }
}
