//! The score of a match for the computer: how each game ended, the wins, losses, draws and
//! forfeits, and the Elo difference they give with its 95% interval.

/// How a game ended, for the person who moved first.
#[derive(Debug)]
pub(super) enum End {
    /// Won on the board: whether by the first.
    Won { first: bool },
    /// Drawn (Quint).
    Drawn,
    /// Lost otherwise (an illegal action, a broken engine): whether by the first, and why.
    Forfeit { first: bool, reason: String },
}

/// The match was interrupted.
#[derive(Debug)]
pub(super) struct Interrupted;

/// Which side of the match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Side {
    Computer,
    Opponent,
}

impl Side {
    /// The side as the output names it.
    pub(super) fn name(self) -> &'static str {
        match self {
            Side::Computer => "computer",
            Side::Opponent => "opponent",
        }
    }
}

/// A game lost otherwise than on the board.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Forfeit {
    /// The game's number, from 1.
    pub(super) game: u64,
    /// Who lost it.
    pub(super) loser: Side,
    /// Why, in words.
    pub(super) reason: String,
}

/// What a match found, for the computer.
#[derive(Debug, Default)]
pub(super) struct Tally {
    pub(super) wins: u64,
    pub(super) losses: u64,
    pub(super) draws: u64,
    /// The games lost otherwise than on the board, by either side, in order.
    pub(super) forfeits: Vec<Forfeit>,
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

    /// Counts game number `game`, which ended with `end`, the computer having moved first or
    /// not.
    pub(super) fn count(&mut self, game: u64, end: End, computer_first: bool) {
        let (won, forfeit) = match end {
            End::Won { first } => (Some(first == computer_first), None),
            End::Drawn => (None, None),
            End::Forfeit { first, reason } => (Some(first != computer_first), Some(reason)),
        };
        match won {
            Some(true) => self.wins += 1,
            Some(false) => self.losses += 1,
            None => self.draws += 1,
        }
        if let Some(reason) = forfeit {
            let loser = if won == Some(true) {
                Side::Opponent
            } else {
                Side::Computer
            };
            self.forfeits.push(Forfeit {
                game,
                loser,
                reason,
            });
        }
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
        // Adding zero turns the -0 of an even score into 0 (printed "+0", not "-0").
        -400.0 * (1.0 / p - 1.0).log10() + 0.0
    }
}

/// An Elo figure as the text shows it: signed and whole, or +inf and -inf.
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
            ..Tally::default()
        };
        let (e, lo, hi) = elo_interval(&even);
        assert!(e.abs() < 1e-9 && lo < 0.0 && hi > 0.0);
        assert_eq!(elo_text(e), "+0");
        let sweep = Tally {
            wins: 10,
            ..Tally::default()
        };
        let (e, lo, _) = elo_interval(&sweep);
        assert!(e.is_infinite() && lo.is_finite() && lo > 0.0);
        // Every sweep the same way: a finite lower bound, an infinite upper one.
        for games in 1..=40 {
            for (wins, losses) in [(games, 0), (0, games)] {
                let (e, lo, hi) = elo_interval(&Tally {
                    wins,
                    losses,
                    ..Tally::default()
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

    #[test]
    fn forfeits_count_for_the_winner_and_name_the_loser() {
        let mut tally = Tally::default();
        // Game 1: the computer moved first, and the first person (the computer) forfeited.
        let reason = "illegal action a1".to_string();
        tally.count(
            1,
            End::Forfeit {
                first: true,
                reason,
            },
            true,
        );
        // Game 2: the opponent moved first and forfeited.
        let reason = "resigned".to_string();
        tally.count(
            2,
            End::Forfeit {
                first: true,
                reason,
            },
            false,
        );
        tally.count(3, End::Won { first: false }, false);
        tally.count(4, End::Drawn, true);
        assert_eq!((tally.wins, tally.losses, tally.draws), (2, 1, 1));
        let losers: Vec<(u64, Side)> = tally.forfeits.iter().map(|f| (f.game, f.loser)).collect();
        assert_eq!(losers, [(1, Side::Computer), (2, Side::Opponent)]);
        assert_eq!(tally.forfeits[1].reason, "resigned");
    }
}
