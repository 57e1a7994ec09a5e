//! `quentin replay`: a record in the interface, or printed for people or programs.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use clap::Args;

use crate::position_view;
use crate::record::Record;

use super::{BadRecord, load_record, write_stdout};

#[derive(Args, Debug)]
pub(super) struct ReplayArgs {
    /// The record to replay.
    file: PathBuf,
    /// Print the position as one JSON object (docs/records.md) instead of opening the interface.
    #[arg(long, conflicts_with = "print")]
    json: bool,
    /// Print the board and status for people instead of opening the interface.
    #[arg(long)]
    print: bool,
    /// Show the position after the first N actions instead of after all of them.
    #[arg(long, value_name = "N")]
    at: Option<u64>,
    /// Draw the interface with ASCII characters only.
    #[arg(long, conflicts_with_all = ["json", "print"])]
    ascii: bool,
    /// Who plays after `p` (playing on from the shown position), and the computer's search.
    #[command(flatten)]
    computer: super::ComputerArgs,
}

impl ReplayArgs {
    /// Who plays after `p`.
    #[cfg(test)]
    pub(super) fn computer(&self) -> &super::ComputerArgs {
        &self.computer
    }
}

/// The number of actions `--at` asks for (all of them when absent).
///
/// # Errors
/// [`BadRecord`] when it is beyond the end of the record.
pub(super) fn action_count(record: &Record, file: &Path, at: Option<u64>) -> Result<usize> {
    let total = record.actions().len();
    match at {
        None => Ok(total),
        Some(n) => match usize::try_from(n) {
            Ok(n) if n <= total => Ok(n),
            _ => bail!(BadRecord(format!(
                "{}: --at {n} is beyond the end of the record ({total} action{})",
                crate::saved_games::shown(file),
                if total == 1 { "" } else { "s" }
            ))),
        },
    }
}

pub(super) fn replay(args: &ReplayArgs) -> Result<()> {
    let record = load_record(&args.file)?;
    let at = action_count(&record, &args.file, args.at)?;
    if !args.json && !args.print {
        return crate::tui::replay(
            &record,
            at,
            args.ascii,
            None,
            args.computer.versus()?,
            args.computer.threads(),
        );
    }
    let position = record.position_at(at);
    let moves = &record.actions()[..at];
    let out = if args.json {
        let mut s = serde_json::to_string_pretty(&position_view::json(&position, moves))?;
        s.push('\n');
        s
    } else {
        let mut text = position_view::text(&position, moves);
        for (i, player) in record.players().iter().enumerate() {
            if let Some(player) = player {
                text.push_str(&format!("Player {}: {player}\n", i + 1));
            }
        }
        text
    };
    write_stdout(&out)
}
