//! `quentin manual`: the manual page (roff), generated from the same definitions as the command
//! line itself. `quentin manual > quentin.1; man ./quentin.1` reads it.

use anyhow::{Context, Result};
use clap::{Args, CommandFactory};

use super::{Cli, write_stdout};

#[derive(Args, Debug)]
pub(super) struct ManualArgs {}

pub(super) fn manual(_args: &ManualArgs) -> Result<()> {
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut page)
        .context("cannot write the manual page")?;
    write_stdout(&String::from_utf8_lossy(&page))
}
