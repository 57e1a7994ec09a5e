//! `quentin bench`: random games from the empty board on one thread, to measure how fast the
//! rules engine runs: every legal action equally likely (`uniform`), or the search's playouts.

use std::time::{Duration, Instant};

use crate::rules::{Position, Setup};
use crate::search::policy::{self, Policy};
use crate::search::rng::Rng;

/// When to stop playing.
#[derive(Clone, Copy, Debug)]
pub enum Budget {
    /// After this many games.
    Playouts(u64),
    /// After the first game that ends past this much time.
    Time(Duration),
}

/// What a benchmark run measured.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The game, size and options played.
    pub setup: Setup,
    /// The seed of the random games.
    pub seed: u64,
    /// How the playouts chose their actions.
    pub policy: Policy,
    /// Games played.
    pub playouts: u64,
    /// Actions played in all.
    pub actions: u64,
    /// Games won by Black.
    pub black_wins: u64,
    /// Games won by White.
    pub white_wins: u64,
    /// Wall-clock time spent playing.
    pub seconds: f64,
}

impl Report {
    /// Games per second.
    #[must_use]
    pub fn playouts_per_s(&self) -> f64 {
        self.playouts as f64 / self.seconds.max(f64::MIN_POSITIVE)
    }

    /// Actions per second.
    #[must_use]
    pub fn actions_per_s(&self) -> f64 {
        self.actions as f64 / self.seconds.max(f64::MIN_POSITIVE)
    }

    /// Mean number of actions in a game.
    #[must_use]
    pub fn mean_length(&self) -> f64 {
        self.actions as f64 / (self.playouts.max(1)) as f64
    }

    /// Black's share of the games (draws and undecided games count for neither side).
    #[must_use]
    pub fn black_win_share(&self) -> f64 {
        self.black_wins as f64 / (self.playouts.max(1)) as f64
    }

    /// The report as the JSON object of `quentin bench --json`.
    #[must_use]
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "game": self.setup.game.name(),
            "size": self.setup.size,
            "seed": self.seed,
            "policy": self.policy.name(),
            "playouts": self.playouts,
            "actions": self.actions,
            "seconds": self.seconds,
            "playouts_per_s": self.playouts_per_s(),
            "actions_per_s": self.actions_per_s(),
            "mean_length": self.mean_length(),
            "black_win_share": self.black_win_share(),
            "white_win_share": self.white_wins as f64 / (self.playouts.max(1)) as f64,
        })
    }

    /// The report for people.
    #[must_use]
    pub fn text(&self) -> String {
        let n = self.setup.size;
        format!(
            "{} {n}×{n}, seed {}: {} {} playouts in {:.2} s\n\
             {:>12.0} playouts/s\n{:>12.0} actions/s\n{:>12.1} actions per game (mean)\n\
             {:>11.1}% won by Black\n",
            self.setup.game.title(),
            self.seed,
            self.playouts,
            self.policy.name(),
            self.seconds,
            self.playouts_per_s(),
            self.actions_per_s(),
            self.mean_length(),
            100.0 * self.black_win_share(),
        )
    }
}

/// Plays random games of `setup` (its pie rule as given) from `seed` until `budget` is spent.
#[must_use]
pub fn run(setup: Setup, start: &Position, seed: u64, budget: Budget, policy: Policy) -> Report {
    let mut rng = Rng::new(seed);
    let mut report = Report {
        setup,
        seed,
        policy,
        playouts: 0,
        actions: 0,
        black_wins: 0,
        white_wins: 0,
        seconds: 0.0,
    };
    let clock = Instant::now();
    loop {
        let done = match budget {
            Budget::Playouts(n) => report.playouts >= n,
            Budget::Time(limit) => clock.elapsed() >= limit,
        };
        if done {
            break;
        }
        let mut game = start.clone();
        let done = policy::playout(&mut game, policy, &mut rng);
        report.actions += done.actions as u64;
        report.playouts += 1;
        // A game cut short with an estimate counts for neither side.
        if done.black == 1.0 {
            report.black_wins += 1;
        } else if done.black == 0.0 {
            report.white_wins += 1;
        }
    }
    report.seconds = clock.elapsed().as_secs_f64();
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Game;

    fn setup(size: usize) -> Setup {
        Setup {
            size,
            pie: false,
            ..Setup::new(Game::Quentin)
        }
    }

    #[test]
    fn the_same_seed_plays_the_same_games() {
        let s = setup(7);
        let start = s.start().unwrap();
        let a = run(s, &start, 42, Budget::Playouts(50), Policy::Uniform);
        let b = run(s, &start, 42, Budget::Playouts(50), Policy::Uniform);
        let c = run(s, &start, 43, Budget::Playouts(50), Policy::Uniform);
        assert_eq!((a.actions, a.black_wins), (b.actions, b.black_wins));
        assert_ne!((a.actions, a.black_wins), (c.actions, c.black_wins));
        assert_eq!(a.playouts, 50);
        assert_eq!(
            a.black_wins + a.white_wins,
            50,
            "every Quentin game has a winner"
        );
    }
}
