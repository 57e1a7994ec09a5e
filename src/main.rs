//! The `quentin` binary: parse the command line, hand over, report errors.

#![forbid(unsafe_code)]

use std::io::Write as _;
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
            // Written, not printed: a closed standard error must not turn the error into a panic.
            let mut stderr = std::io::stderr().lock();
            let _ = if let Some(bad) = err.downcast_ref::<BadRecord>() {
                writeln!(stderr, "{bad}")
            } else {
                writeln!(stderr, "quentin: {err:#}")
            };
            ExitCode::from(1)
        }
    }
}
