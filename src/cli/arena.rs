//! `quentin match`: the computer against a baseline player or against itself at another budget,
//! colours alternating, with the win rate and an Elo difference.

use std::io::IsTerminal;
use std::sync::atomic::AtomicBool;

use anyhow::Result;
use clap::{Args, ValueEnum};
use serde_json::json;

use crate::rules::{Position, Setup};
use crate::search::players::Baseline;
use crate::search::rng::Rng;
use crate::search::{Budget, Level, Limits, Searcher};

use super::limits::{LimitArgs, parse_count, parse_level, parse_seconds};
use super::{GameOptions, usage_error, write_stdout};

#[derive(Args, Debug)]
pub(super) struct MatchArgs {
    #[command(flatten)]
    game: GameOptions,
    /// The computer's level, 1 to 10 (default 10, full strength); below 10 its playouts are
    /// the level's, within the budget.
    #[arg(long, value_name = "N", value_parser = parse_level)]
    level: Option<Level>,
    /// The opponent: a baseline player, or the computer at the --opponent-* budget and level.
    #[arg(long, value_enum, default_value = "greedy")]
    opponent: Opponent,
    /// The opponent computer's level, 1 to 10 (default 10).
    #[arg(long, value_name = "N", value_parser = parse_level)]
    opponent_level: Option<Level>,
    /// The opponent computer's seconds a move.
    #[arg(
        long,
        value_name = "S",
        conflicts_with = "opponent_playouts",
        value_parser = parse_seconds,
        allow_negative_numbers = true
    )]
    opponent_seconds: Option<f64>,
    /// The opponent computer's playouts a move.
    #[arg(long, value_name = "N", value_parser = parse_count)]
    opponent_playouts: Option<u64>,
    /// Games to play (colours alternate).
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = parse_count)]
    games: u64,
    #[command(flatten)]
    limits: LimitArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Who the computer plays.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Opponent {
    /// Every legal action equally likely.
    Random,
    /// Wins at once if it can, else avoids letting the opponent win at once, else random.
    Greedy,
    /// The computer at the --opponent-seconds or --opponent-playouts budget and
    /// --opponent-level.
    Engine,
}

/// A player of a match.
enum Player {
    Baseline(Baseline, Rng),
    Computer(Box<Searcher>),
}

impl Player {
    fn choose(&mut self, position: &Position) -> Option<crate::rules::Action> {
        match self {
            Player::Baseline(b, rng) => b.choose(position, rng),
            Player::Computer(s) => s.search(position, &AtomicBool::new(false), |_| {}).best,
        }
    }

    fn advance(&mut self, action: crate::rules::Action) {
        if let Player::Computer(s) = self {
            s.advance(action);
        }
    }
}

/// What a match found, for the computer.
#[derive(Debug, Default)]
struct Tally {
    wins: u64,
    losses: u64,
    draws: u64,
}

impl Tally {
    fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }
}

pub(super) fn run(args: &MatchArgs) -> Result<()> {
    let setup = args.game.setup()?;
    let computer_only = [
        ("--opponent-level", args.opponent_level.is_some()),
        ("--opponent-seconds", args.opponent_seconds.is_some()),
        ("--opponent-playouts", args.opponent_playouts.is_some()),
    ];
    if let Some((option, _)) = computer_only.iter().find(|(_, given)| *given)
        && args.opponent != Opponent::Engine
    {
        return Err(usage_error(format!(
            "{option} is for a computer opponent: add --opponent engine"
        )));
    }
    let limits = Limits {
        level: args.level.unwrap_or(Level::FULL),
        ..args.limits.limits()
    };
    let opponent_limits = Limits {
        budget: match (args.opponent_playouts, args.opponent_seconds) {
            (Some(n), _) => Budget::Playouts(n),
            (None, Some(s)) => Budget::Seconds(s),
            (None, None) => Budget::Seconds(1.0),
        },
        level: args.opponent_level.unwrap_or(Level::FULL),
        ..limits
    };
    let progress = std::io::stderr().is_terminal();
    let mut rng = Rng::new(limits.seed.unwrap_or(1));
    let mut tally = Tally::default();
    for game in 0..args.games {
        // Each game its own seeds, drawn from the match's: with playout budgets, one seed for
        // every game would play the same two games over and over.
        let (seed, opponent_seed) = (rng.next_u64(), rng.next_u64());
        let reseeded = |l: Limits, s: u64| Limits {
            seed: l.seed.map(|_| s),
            ..l
        };
        let mut computer = Player::Computer(Box::new(Searcher::new(reseeded(limits, seed))));
        let mut other = match args.opponent {
            Opponent::Random => Player::Baseline(Baseline::Random, Rng::new(opponent_seed)),
            Opponent::Greedy => Player::Baseline(Baseline::Greedy, Rng::new(opponent_seed)),
            Opponent::Engine => Player::Computer(Box::new(Searcher::new(reseeded(
                opponent_limits,
                opponent_seed,
            )))),
        };
        let computer_first = game % 2 == 0;
        let result = if computer_first {
            play_game(setup, &mut computer, &mut other)
        } else {
            play_game(setup, &mut other, &mut computer).map(|first| !first)
        };
        match result {
            Some(true) => tally.wins += 1,
            Some(false) => tally.losses += 1,
            None => tally.draws += 1,
        }
        if progress {
            eprint!(
                "\rgame {}/{}: {} won, {} lost, {} drawn ",
                game + 1,
                args.games,
                tally.wins,
                tally.losses,
                tally.draws
            );
        }
    }
    if progress {
        eprintln!();
    }
    let opponent = match args.opponent {
        Opponent::Random => "random".to_string(),
        Opponent::Greedy => "greedy".to_string(),
        Opponent::Engine => format!("computer at {}", player_name(&opponent_limits)),
    };
    let (elo, low, high) = elo_interval(&tally);
    let out = if args.json {
        let finite = |x: f64| x.is_finite().then_some((x * 10.0).round() / 10.0);
        let value = json!({
            "game": setup.game.name(),
            "size": setup.size,
            "pie": setup.pie,
            "computer": player_name(&limits),
            "level": limits.level.get(),
            "opponent": opponent,
            "opponent_level": (args.opponent == Opponent::Engine)
                .then(|| opponent_limits.level.get()),
            "games": tally.games(),
            "wins": tally.wins,
            "losses": tally.losses,
            "draws": tally.draws,
            "win_rate": tally.score(),
            "elo": finite(elo),
            "elo_low": finite(low),
            "elo_high": finite(high),
        });
        format!("{}\n", serde_json::to_string_pretty(&value)?)
    } else {
        let n = setup.size;
        format!(
            "{} {n}×{n}: computer at {} against {opponent}, {} games\n\
             {} won, {} lost, {} drawn: {:.1}%\n\
             Elo difference {} (95% interval {} to {})\n",
            setup.game.title(),
            player_name(&limits),
            tally.games(),
            tally.wins,
            tally.losses,
            tally.draws,
            100.0 * tally.score(),
            elo_text(elo),
            elo_text(low),
            elo_text(high),
        )
    };
    write_stdout(&out)
}

/// Plays one game between `first` (who moves first) and `second`; returns whether the first
/// person won, `None` for a draw.
fn play_game(setup: Setup, first: &mut Player, second: &mut Player) -> Option<bool> {
    let mut position = setup.start().ok()?;
    let first_color = position.to_move()?;
    loop {
        if let Some(outcome) = position.outcome() {
            let winner = outcome.winner()?;
            // The pie rule gives the first person the other colour.
            let first_now = if position.swapped() {
                first_color.opponent()
            } else {
                first_color
            };
            return Some(winner == first_now);
        }
        // The people alternate with every action, a swap included.
        let mover_is_first = position.ply() % 2 == 0;
        let (mover, waiter) = if mover_is_first {
            (&mut *first, &mut *second)
        } else {
            (&mut *second, &mut *first)
        };
        let action = mover.choose(&position)?;
        position.play(action).ok()?;
        mover.advance(action);
        waiter.advance(action);
    }
}

/// The Elo difference of the computer's score and its 95% interval (Wilson's, so that a clean
/// sweep still has a finite lower bound).
fn elo_interval(tally: &Tally) -> (f64, f64, f64) {
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

fn elo_text(x: f64) -> String {
    if x.is_finite() {
        format!("{x:+.0}")
    } else if x > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

/// How a computer of `limits` plays: its budget, and its level below full strength (its
/// playouts, the budget then only a cap).
fn player_name(limits: &Limits) -> String {
    if limits.level.is_full() {
        budget_name(limits.budget)
    } else {
        format!("{} (at most {})", limits.level, budget_name(limits.budget))
    }
}

fn budget_name(budget: Budget) -> String {
    match budget {
        Budget::Seconds(s) => format!("{s} s a move"),
        Budget::Playouts(n) => format!("{n} playouts a move"),
        Budget::Unlimited => "no limit".into(),
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
