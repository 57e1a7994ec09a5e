//! `quentin learn [--game G] [--stage N]`: the course of the games in the terminal (docs/learn.md);
//! `quentin learn export [--game G]`: every level as one JSON object a line.

use anyhow::Result;
use clap::{Args, Subcommand};
use serde_json::json;

use super::{GameArg, write_stdout};
use crate::rules::Game;
use quentin_app::course::Course;

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub(super) struct LearnArgs {
    #[command(subcommand)]
    command: Option<LearnCommand>,
    /// Only this game's course (default: the four games', from the first level not solved).
    #[arg(long, value_enum)]
    game: Option<GameArg>,
    /// Start at this stage of the game's course (from 1): replay it, solved or not.
    #[arg(long, value_name = "N", requires = "game")]
    stage: Option<usize>,
    /// Draw with ASCII characters only.
    #[arg(long)]
    ascii: bool,
}

#[derive(Subcommand, Debug)]
enum LearnCommand {
    /// Print every level, one JSON object a line: game, stage, level, title, goal, size, pie,
    /// pieces (Quint), setup, kind, points, answers, par.
    Export(ExportArgs),
    /// Read course files as the program reads its own (for authors): each level's key and
    /// answers, or the first line that is wrong (exit status 1).
    Check(CheckArgs),
}

#[derive(Args, Debug)]
struct CheckArgs {
    /// The files.
    #[arg(required = true)]
    files: Vec<std::path::PathBuf>,
}

#[derive(Args, Debug)]
struct ExportArgs {
    /// Only this game's levels.
    #[arg(long, value_enum)]
    game: Option<GameArg>,
}

/// The courses of `game`, or of every game.
fn courses(game: Option<Game>) -> Result<Vec<Course>> {
    Ok(crate::learn::shipped()?
        .into_iter()
        .filter(|c| game.is_none_or(|g| c.game == g))
        .collect())
}

/// Runs `quentin learn`.
pub(super) fn learn(args: &LearnArgs) -> Result<()> {
    match &args.command {
        Some(LearnCommand::Export(export)) => {
            let mut out = String::new();
            for course in courses(export.game.map(Game::from))? {
                for l in &course.levels {
                    let words = |v: &[crate::rules::Action]| {
                        v.iter().map(ToString::to_string).collect::<Vec<_>>()
                    };
                    let mut object = json!({
                        "game": l.game.name(),
                        "stage": l.stage,
                        "level": l.level,
                        "title": l.title,
                        "goal": l.goal,
                        "size": l.setup.size,
                        "pie": l.setup.pie,
                        "setup": words(&l.actions),
                        "kind": l.kind.name(),
                        "answers": words(&l.answers),
                        "par": l.par,
                    });
                    if l.game == Game::Quint {
                        object["pieces"] = json!(l.setup.pieces);
                    }
                    if !l.points.is_empty() {
                        object["points"] =
                            json!(l.points.iter().map(ToString::to_string).collect::<Vec<_>>());
                    }
                    out.push_str(&format!("{object}\n"));
                }
            }
            write_stdout(&out)
        }
        Some(LearnCommand::Check(check)) => {
            let mut out = String::new();
            for file in &check.files {
                let text = std::fs::read_to_string(file)?;
                let course = quentin_app::course::parse(&text, &file.display().to_string())?;
                for l in &course.levels {
                    let answers: Vec<String> = l.answers.iter().map(ToString::to_string).collect();
                    out.push_str(&format!(
                        "{} {} ({}): {}\n",
                        l.key(),
                        l.title,
                        l.kind.name(),
                        answers.join(" ")
                    ));
                }
            }
            write_stdout(&out)
        }
        None => crate::tui::learn(courses(args.game.map(Game::from))?, args.stage, args.ascii),
    }
}
