//! `quentin match`: the computer against a baseline player or against itself at another budget,
//! colours alternating, with the win rate and an Elo difference.

mod score;

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
use score::{Tally, elo_interval, elo_text};

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
