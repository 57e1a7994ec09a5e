//! `quentin match`: the computer against a baseline player, against itself at another budget
//! or against any GTP engine (`gtp_engine`), colours alternating, with the win rate and an Elo
//! difference. The referee is the rules library: every action of either side is checked.

mod gtp_engine;
mod score;

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Result, anyhow};
use clap::{Args, ValueEnum};
use serde_json::json;

use crate::rules::{Action, Color, Position, Setup};
use crate::search::players::Baseline;
use crate::search::rng::Rng;
use crate::search::{Budget, Level, Limits, Searcher};

use super::limits::{LimitArgs, parse_count, parse_level, parse_seconds};
use super::{GameOptions, usage_error, write_stdout};
use gtp_engine::{Engine, Failure, Terms};
use score::{End, Interrupted, Tally, elo_interval, elo_text};

#[derive(Args, Debug)]
pub(super) struct MatchArgs {
    #[command(flatten)]
    game: GameOptions,
    /// The computer's level, 1 to 10 (default 10, full strength); below 10 its playouts are
    /// the level's, within the budget.
    #[arg(long, value_name = "N", value_parser = parse_level)]
    level: Option<Level>,
    /// The opponent: a baseline player, the computer at the --opponent-* budget and level, or
    /// the GTP engine of --opponent-command.
    #[arg(long, value_enum, default_value = "greedy")]
    opponent: Opponent,
    /// The GTP engine's command line, split into words as a shell would (quotes, backslashes)
    /// and started without a shell, e.g. "./old/quentin gtp --threads 1".
    #[arg(long, value_name = "CMD")]
    opponent_command: Option<String>,
    /// The opponent computer's level, 1 to 10 (default 10); told to a GTP engine by the command
    /// `level N`, which only builds newer than d5e668d know.
    #[arg(long, value_name = "N", value_parser = parse_level)]
    opponent_level: Option<Level>,
    /// The opponent's seconds a move (default 1); told to a GTP engine by `time_settings 0 S 1`.
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
    /// Any program speaking the Go Text Protocol (--opponent-command): another build of this
    /// one, or another program, at --opponent-seconds a move.
    Gtp,
}

/// A player of a match.
enum Player {
    Baseline(Baseline, Rng),
    Computer(Box<Searcher>),
    Gtp(Engine),
}

impl Player {
    /// The action this player chooses in `position`, a game not over, checked by the referee
    /// only after. A GTP engine that resigns or answers something else than an action
    /// forfeits.
    fn choose(
        &mut self,
        position: &Position,
        colour: Color,
        stop: &AtomicBool,
    ) -> Result<Action, Failure> {
        let chosen = match self {
            Player::Baseline(b, rng) => b.choose(position, rng),
            Player::Computer(s) => s.search(position, stop, |_| {}).best,
            Player::Gtp(engine) => {
                let answer = engine.genmove(colour, stop)?;
                if answer.eq_ignore_ascii_case("resign") {
                    return Err(Failure::Forfeit("resigned".into()));
                }
                let action = Action::parse(&answer).map_err(|e| {
                    Failure::Forfeit(format!("answered genmove with {answer:?}: {e}"))
                })?;
                Some(action)
            }
        };
        if stop.load(Ordering::Relaxed) {
            return Err(Failure::Interrupted);
        }
        chosen.ok_or_else(|| Failure::Forfeit("found no action in a game not over".into()))
    }

    /// Tells this player that `colour` played `action` (its own action if `own`).
    fn played(
        &mut self,
        colour: Color,
        action: Action,
        own: bool,
        stop: &AtomicBool,
    ) -> Result<(), Failure> {
        match self {
            Player::Baseline(..) => Ok(()),
            Player::Computer(s) => {
                s.advance(action);
                Ok(())
            }
            // The engine played its own action when it chose it.
            Player::Gtp(_) if own => Ok(()),
            Player::Gtp(engine) => engine.play(colour, action, stop),
        }
    }

    /// Ends this player's game: a GTP engine is told to quit, then ended.
    fn finish(self, stop: &AtomicBool) {
        if let Player::Gtp(engine) = self {
            engine.quit(stop);
        }
    }
}

pub(super) fn run(args: &MatchArgs) -> Result<()> {
    let setup = args.game.setup()?;
    let gtp = args.opponent == Opponent::Gtp;
    let computer = matches!(args.opponent, Opponent::Engine | Opponent::Gtp);
    let misplaced = [
        (
            "--opponent-level",
            args.opponent_level.is_some() && !computer,
        ),
        (
            "--opponent-seconds",
            args.opponent_seconds.is_some() && !computer,
        ),
        (
            "--opponent-playouts",
            args.opponent_playouts.is_some() && args.opponent != Opponent::Engine,
        ),
    ];
    if let Some((option, _)) = misplaced.iter().find(|(_, wrong)| *wrong) {
        return Err(usage_error(if gtp {
            format!("{option} is for --opponent engine: a GTP engine is given seconds a move")
        } else {
            format!("{option} is for a computer opponent: add --opponent engine (or gtp)")
        }));
    }
    let terms = match (&args.opponent_command, gtp) {
        (Some(command), true) => Some(gtp_terms(command, args)?),
        (None, true) => {
            return Err(usage_error(
                "--opponent gtp needs --opponent-command, the engine's command line",
            ));
        }
        (Some(_), false) => {
            return Err(usage_error(
                "--opponent-command is for a GTP engine: add --opponent gtp",
            ));
        }
        (None, false) => None,
    };
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
    let start = setup.start()?;
    let stop = interruption()?;
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
        let other = match (args.opponent, &terms) {
            (Opponent::Random, _) => {
                Ok(Player::Baseline(Baseline::Random, Rng::new(opponent_seed)))
            }
            (Opponent::Greedy, _) => {
                Ok(Player::Baseline(Baseline::Greedy, Rng::new(opponent_seed)))
            }
            (Opponent::Gtp, Some(terms)) => Engine::start(terms, setup, &stop).map(Player::Gtp),
            // (A GTP opponent always has its terms.)
            (Opponent::Engine | Opponent::Gtp, _) => Ok(Player::Computer(Box::new(Searcher::new(
                reseeded(opponent_limits, opponent_seed),
            )))),
        };
        let computer_first = game.is_multiple_of(2);
        let end = match other {
            Ok(mut other) => {
                let end = if computer_first {
                    play_game(&start, &mut computer, &mut other, &stop)
                } else {
                    play_game(&start, &mut other, &mut computer, &stop)
                };
                // A game played to its end says goodbye; after a forfeit or an interruption
                // the engine is only ended.
                if matches!(end, Ok(End::Won { .. } | End::Drawn)) {
                    other.finish(&stop);
                }
                end
            }
            Err(Failure::Stop(why)) => return Err(anyhow!(why)),
            // The engine broke down while the game was set up: the first to fail is the
            // opponent, whoever was to move first.
            Err(Failure::Forfeit(reason)) => Ok(End::Forfeit {
                first: !computer_first,
                reason,
            }),
            Err(Failure::Interrupted) => Err(Interrupted),
        };
        let Ok(end) = end else {
            return interrupted(args, setup, &limits, &opponent_limits, &tally);
        };
        tally.count(game + 1, end, computer_first);
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
    write_stdout(&results(args, setup, &limits, &opponent_limits, &tally)?)
}

/// The terms of a GTP opponent: its command split into words.
fn gtp_terms(command: &str, args: &MatchArgs) -> Result<Terms> {
    let words = shell_words::split(command)
        .map_err(|e| usage_error(format!("cannot read --opponent-command: {e}")))?;
    if words.is_empty() {
        return Err(usage_error("--opponent-command is empty"));
    }
    Ok(Terms {
        words,
        seconds: args.opponent_seconds.unwrap_or(1.0),
        level: args.opponent_level,
    })
}

/// A flag raised by the first SIGINT, SIGTERM or SIGHUP: the match stops after the action
/// being chosen (a search ends at once) and ends its GTP engine. A second signal ends the
/// program at once; a GTP engine then sees its input end.
fn interruption() -> Result<Arc<AtomicBool>> {
    let flag = Arc::new(AtomicBool::new(false));
    #[cfg(unix)]
    for signal in [
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
    ] {
        signal_hook::flag::register_conditional_shutdown(signal, 128 + signal, Arc::clone(&flag))?;
        signal_hook::flag::register(signal, Arc::clone(&flag))?;
    }
    Ok(flag)
}

/// The exit status of an interrupted match.
const INTERRUPTED: i32 = 130;

/// Ends an interrupted match: the games finished so far are reported, and the program exits
/// with status 130 (every engine is already ended).
fn interrupted(
    args: &MatchArgs,
    setup: Setup,
    limits: &Limits,
    opponent_limits: &Limits,
    tally: &Tally,
) -> Result<()> {
    eprintln!(
        "\nquentin: match interrupted after {} of {} games",
        tally.games(),
        args.games
    );
    write_stdout(&results(args, setup, limits, opponent_limits, tally)?)?;
    std::process::exit(INTERRUPTED)
}

/// The report of a match: text, or one JSON object.
fn results(
    args: &MatchArgs,
    setup: Setup,
    limits: &Limits,
    opponent_limits: &Limits,
    tally: &Tally,
) -> Result<String> {
    let opponent = match (args.opponent, &args.opponent_command) {
        (Opponent::Random, _) => "random".to_string(),
        (Opponent::Greedy, _) => "greedy".to_string(),
        (Opponent::Gtp, Some(command)) => format!(
            "GTP engine `{command}` at {}",
            player_name(&Limits {
                level: args.opponent_level.unwrap_or(Level::FULL),
                ..*opponent_limits
            })
        ),
        (Opponent::Engine | Opponent::Gtp, _) => {
            format!("computer at {}", player_name(opponent_limits))
        }
    };
    let (elo, low, high) = elo_interval(tally);
    Ok(if args.json {
        let finite = |x: f64| x.is_finite().then_some((x * 10.0).round() / 10.0);
        let forfeits: Vec<_> = tally
            .forfeits
            .iter()
            .map(|f| json!({"game": f.game, "loser": f.loser.name(), "reason": f.reason}))
            .collect();
        let value = json!({
            "game": setup.game.name(),
            "size": setup.size,
            "pie": setup.pie,
            "computer": player_name(limits),
            "level": limits.level.get(),
            "opponent": opponent,
            "opponent_command": args.opponent_command,
            "opponent_level": match args.opponent {
                Opponent::Engine => Some(opponent_limits.level.get()),
                Opponent::Gtp => args.opponent_level.map(Level::get),
                Opponent::Random | Opponent::Greedy => None,
            },
            "games": tally.games(),
            "wins": tally.wins,
            "losses": tally.losses,
            "draws": tally.draws,
            "win_rate": tally.score(),
            "elo": finite(elo),
            "elo_low": finite(low),
            "elo_high": finite(high),
            "forfeits": forfeits,
        });
        format!("{}\n", serde_json::to_string_pretty(&value)?)
    } else {
        let n = setup.size;
        let mut text = format!(
            "{} {n}×{n}: computer at {} against {opponent}, {} games\n\
             {} won, {} lost, {} drawn: {:.1}%\n\
             Elo difference {} (95% interval {} to {})\n",
            setup.game.title(),
            player_name(limits),
            tally.games(),
            tally.wins,
            tally.losses,
            tally.draws,
            100.0 * tally.score(),
            elo_text(elo),
            elo_text(low),
            elo_text(high),
        );
        for f in &tally.forfeits {
            text.push_str(&format!(
                "Game {}: the {} lost by forfeit: {}\n",
                f.game,
                f.loser.name(),
                f.reason
            ));
        }
        text
    })
}

/// Plays one game from `start` between `first` (who moves first) and `second`, the referee
/// checking every action.
fn play_game(
    start: &Position,
    first: &mut Player,
    second: &mut Player,
    stop: &AtomicBool,
) -> Result<End, Interrupted> {
    let mut position = start.clone();
    let first_color = position.to_move();
    loop {
        let Some(colour) = position.to_move() else {
            let winner = position.outcome().and_then(|o| o.winner());
            // The pie rule gives the first person the other colour.
            let first_now = if position.swapped() {
                first_color.map(Color::opponent)
            } else {
                first_color
            };
            return Ok(match winner {
                Some(w) => End::Won {
                    first: Some(w) == first_now,
                },
                None => End::Drawn,
            });
        };
        // The people alternate with every action, a swap included.
        let mover_is_first = position.ply().is_multiple_of(2);
        let (mover, waiter) = if mover_is_first {
            (&mut *first, &mut *second)
        } else {
            (&mut *second, &mut *first)
        };
        let forfeit = |first: bool, failure: Failure| match failure {
            Failure::Interrupted => Err(Interrupted),
            Failure::Stop(reason) | Failure::Forfeit(reason) => Ok(End::Forfeit { first, reason }),
        };
        let action = match mover.choose(&position, colour, stop) {
            Ok(action) => action,
            Err(failure) => return forfeit(mover_is_first, failure),
        };
        if let Err(illegal) = position.play(action) {
            let reason = format!("illegal action {action}: {illegal}");
            return Ok(End::Forfeit {
                first: mover_is_first,
                reason,
            });
        }
        if let Err(failure) = mover.played(colour, action, true, stop) {
            return forfeit(mover_is_first, failure);
        }
        if let Err(failure) = waiter.played(colour, action, false, stop) {
            return forfeit(!mover_is_first, failure);
        }
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
