//! `quentin serve` in a program built without its server (`--no-default-features`): the
//! subcommand stays, so that it says how to get the server rather than that it does not exist.

use anyhow::{Result, bail};
use clap::Args;

/// Whatever was given: the server's options are not known here.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The server's options (this program was built without the server).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    rest: Vec<String>,
}

/// Refuses, saying how to build the program with its server.
///
/// # Errors
/// Always.
pub fn serve(_args: &ServeArgs) -> Result<()> {
    bail!(
        "this quentin was built without its server (the cargo feature `server`, on by \
         default); install it with `cargo install quentin` or, from a clone, `cargo install \
         --path . --locked`"
    )
}
