//! `quentin completions SHELL`: the shell's completion script, generated from the same
//! definitions as the command line itself.

use anyhow::Result;
use clap::{Args, CommandFactory};
use clap_complete::Shell;

use super::{Cli, write_stdout};

#[derive(Args, Debug)]
pub(super) struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    shell: Shell,
}

pub(super) fn completions(args: &CompletionsArgs) -> Result<()> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "quentin", &mut script);
    write_stdout(&String::from_utf8_lossy(&script))
}
