//! The score of a match for the computer: its wins, losses and draws, and the Elo difference
//! they give with its 95% interval.

/// What a match found, for the computer.
#[derive(Debug, Default)]
pub(super) struct Tally {
    pub(super) wins: u64,
    pub(super) losses: u64,
    pub(super) draws: u64,
}

impl Tally {
    /// The games counted.
    pub(super) fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// The computer's score, from 0 to 1, a draw counting half.
    pub(super) fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }
}

/// The Elo difference of the computer's score and its 95% interval (Wilson's, so that a clean
/// sweep still has a finite lower bound).
pub(super) fn elo_interval(tally: &Tally) -> (f64, f64, f64) {
    let n = tally.games().max(1) as f64;
    let p = tally.score();
    let z: f64 = 1.96;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    // Wilson's bound of a clean sweep is exactly 1 (or 0): rounding must not turn it into a
    // large finite Elo for one sweep and an infinite one for another.
    let bound = |q: f64| {
        if q >= 1.0 - 1e-9 {
            1.0
        } else if q <= 1e-9 {
            0.0
        } else {
            q
        }
    };
    (elo(p), elo(bound(centre - half)), elo(bound(centre + half)))
}

/// The Elo difference of a score from 0 to 1.
fn elo(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

pub(super) fn elo_text(x: f64) -> String {
    if x.is_finite() {
        format!("{x:+.0}")
    } else if x > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_even_and_sweeping_scores() {
        let even = Tally {
            wins: 5,
            losses: 5,
            draws: 0,
        };
        let (e, lo, hi) = elo_interval(&even);
        assert!(e.abs() < 1e-9 && lo < 0.0 && hi > 0.0);
        let sweep = Tally {
            wins: 10,
            losses: 0,
            draws: 0,
        };
        let (e, lo, _) = elo_interval(&sweep);
        assert!(e.is_infinite() && lo.is_finite() && lo > 0.0);
        // Every sweep the same way: a finite lower bound, an infinite upper one.
        for games in 1..=40 {
            for (wins, losses) in [(games, 0), (0, games)] {
                let (e, lo, hi) = elo_interval(&Tally {
                    wins,
                    losses,
                    draws: 0,
                });
                let (inner, outer) = if wins > 0 { (lo, hi) } else { (hi, lo) };
                assert!(e.is_infinite() && inner.is_finite(), "{wins}-{losses}");
                assert!(
                    outer.is_infinite() && outer.signum() == e.signum(),
                    "{wins}-{losses}"
                );
            }
        }
    }
}
