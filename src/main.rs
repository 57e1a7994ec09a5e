//! The `quentin` binary: parse the command line, hand over, report errors.

#![forbid(unsafe_code)]

use std::process::ExitCode;

use clap::Parser;
use quentin::cli::{BadRecord, Cli};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            if let Some(usage) = err.downcast_ref::<clap::Error>() {
                // A wrong command line that only the game could judge: usage, exit status 2.
                usage.exit();
            }
            if let Some(bad) = err.downcast_ref::<BadRecord>() {
                eprintln!("{bad}");
            } else {
                eprintln!("quentin: {err:#}");
            }
            ExitCode::from(1)
        }
    }
}
