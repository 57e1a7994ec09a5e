//! `quentin manual`: the manual pages (roff), generated from the same definitions as the command
//! line itself: `quentin manual > quentin.1; man ./quentin.1` reads the main page, and
//! `quentin manual --dir DIR` writes one page per subcommand as well (`quentin-replay.1`…), the
//! pages that the main one refers to.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::{Args, CommandFactory};

use super::{Cli, write_stdout};

#[derive(Args, Debug)]
pub(super) struct ManualArgs {
    /// Write every page (quentin.1 and one per subcommand) into this directory instead of
    /// printing the main page.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

pub(super) fn manual(args: &ManualArgs) -> Result<()> {
    if let Some(dir) = &args.dir {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        clap_mangen::generate_to(Cli::command(), dir)
            .with_context(|| format!("cannot write the manual pages into {}", dir.display()))?;
        return Ok(());
    }
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut page)
        .context("cannot write the manual page")?;
    write_stdout(&String::from_utf8_lossy(&page))
}
