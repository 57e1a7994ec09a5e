//! `quentin resume [FILE]`: play on a saved game, appending to the same record.

use std::path::PathBuf;

use anyhow::{Result, anyhow};
use clap::Args;

use crate::save::RecordFile;
use crate::saved_games::{self, shown};

use super::{InterfaceArgs, parse_record};

#[derive(Args, Debug)]
pub(super) struct ResumeArgs {
    /// The record to play on (default: the most recently changed unfinished game in the data
    /// directory).
    file: Option<PathBuf>,
    #[command(flatten)]
    interface: InterfaceArgs,
}

impl ResumeArgs {
    /// Who plays on.
    #[cfg(test)]
    pub(super) fn computer(&self) -> &super::ComputerArgs {
        &self.interface.computer
    }
}

pub(super) fn resume(args: &ResumeArgs) -> Result<()> {
    // Before anything is opened or locked: without a terminal there is nothing to play on.
    crate::tui::require_terminal()?;
    let path = match &args.file {
        Some(path) => path.clone(),
        None => {
            let dir = saved_games::games_dir()?;
            saved_games::latest_unfinished(&dir)?.ok_or_else(|| {
                anyhow!(
                    "there is no unfinished game in {}: `quentin games` lists the records, \
                     `quentin resume FILE` plays on one, `quentin` starts a new game",
                    shown(&dir)
                )
            })?
        }
    };
    // Locked before it is read: what is read is what the game goes on from.
    let mut file = RecordFile::existing(path.clone())?;
    let record = parse_record(&path, &file.read()?)?;
    let ascii = args.interface.ascii;
    // The computer comes back where the record names it, unless the options say otherwise.
    let (versus, threads) = (
        args.interface.computer.versus_resuming(record.players())?,
        args.interface.computer.threads(),
    );
    if record.final_position().is_over() {
        drop(file);
        let n = record.actions().len();
        let note = "This game is over, so it opens as a replay: Left steps back, p plays on \
                    from an earlier position into a new record."
            .to_string();
        return crate::tui::replay(&record, n, ascii, Some(note), versus, threads);
    }
    // The players the file names, so that only a change of players rewrites its headers.
    file.set_players(record.players());
    file.holds(record.setup(), record.actions());
    crate::tui::resume(&record, file, ascii, versus, threads)
}
