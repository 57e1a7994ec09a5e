//! `quentin serve --config FILE`: the server's options in a TOML file, one key an option
//! (`max-sessions = 512` or `max_sessions = 512` for `--max-sessions 512`, `true` for a flag).
//! The options on the command line and in the environment (`QUENTIN_DATABASE_URL`) override
//! the file's. An unknown key, a value of the wrong kind or one the option refuses is refused
//! at the start, naming the file, the line and why; nothing is started.

use std::ffi::OsString;
use std::path::Path;

use anyhow::{Result, anyhow, bail};
use clap::{Arg, ArgAction, Command};

/// The most a configuration file may hold: a few dozen lines are all it needs.
const MAX_BYTES: u64 = 64 * 1024;

/// The command-line words that `file` stands for, checked against `serve`'s own options
/// (`command`), in the file's order: `--max-sessions 512`, `--flag`. A key whose option is set
/// from the environment is left out, as the command line overrides the file.
///
/// # Errors
/// `FILE:LINE: why` for a file that cannot be read or parsed, an unknown key, a value of the
/// wrong kind, or one the option refuses.
pub fn words(file: &Path, command: &Command) -> Result<Vec<OsString>> {
    let name = crate::saved_games::shown(file);
    let bytes = crate::saved_games::read_bytes(file).map_err(|e| anyhow!(e.message(&name)))?;
    if bytes.len() as u64 > MAX_BYTES {
        bail!(
            "{name}: larger than {} KiB: not a configuration file",
            MAX_BYTES / 1024
        );
    }
    let text = String::from_utf8(bytes).map_err(|_| anyhow!("{name}: not UTF-8 text"))?;
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        let line = e.span().map_or(0, |span| {
            text[..span.start.min(text.len())].lines().count().max(1)
        });
        anyhow!("{name}:{line}: {}", e.message())
    })?;
    let mut out = Vec::new();
    for (key, value) in &table {
        let line = line_of(&text, key);
        let at = format!("{name}:{line}");
        let long = key.replace('_', "-");
        let Some(arg) = command
            .get_arguments()
            .find(|a| a.get_long() == Some(long.as_str()) && !a.is_hide_set() && long != "config")
        else {
            bail!(
                "{at}: unknown key `{key}`; the keys are `quentin serve`'s options: {}",
                known(command).join(", ")
            );
        };
        if arg
            .get_env()
            .is_some_and(|env| std::env::var_os(env).is_some())
        {
            continue;
        }
        let flag = matches!(arg.get_action(), ArgAction::SetTrue);
        let words: Vec<String> = match (value, flag) {
            (toml::Value::Boolean(true), true) => vec![format!("--{long}")],
            (toml::Value::Boolean(false), true) => Vec::new(),
            (_, true) => bail!("{at}: `{key}` is a switch: true or false"),
            (toml::Value::String(s), false) => vec![format!("--{long}"), s.clone()],
            (toml::Value::Integer(n), false) => vec![format!("--{long}"), n.to_string()],
            (toml::Value::Float(x), false) => vec![format!("--{long}"), x.to_string()],
            (_, false) => bail!("{at}: `{key}` takes a string or a number"),
        };
        // The option's own check of its value, as on the command line.
        if let Err(e) = alone(arg)
            .try_get_matches_from(std::iter::once("serve".to_string()).chain(words.iter().cloned()))
        {
            let why = e.to_string();
            let why = why
                .lines()
                .next()
                .unwrap_or("")
                .trim_start_matches("error: ");
            bail!("{at}: bad value for `{key}`: {why}");
        }
        out.extend(words.into_iter().map(OsString::from));
    }
    Ok(out)
}

/// A command with `arg` alone, to check one value as the command line would.
fn alone(arg: &Arg) -> Command {
    Command::new("serve").arg(arg.clone().required(false))
}

/// The keys a file may hold: `serve`'s visible options.
fn known(command: &Command) -> Vec<String> {
    command
        .get_arguments()
        .filter(|a| !a.is_hide_set())
        .filter_map(Arg::get_long)
        .filter(|l| *l != "config" && *l != "help")
        .map(str::to_string)
        .collect()
}

/// The line of `text` where `key` is set, 1 for the first; 0 when it cannot be found.
fn line_of(text: &str, key: &str) -> usize {
    text.lines()
        .position(|l| {
            let l = l.trim_start();
            let bare = l.strip_prefix(key);
            let quoted = l
                .strip_prefix('"')
                .and_then(|l| l.strip_prefix(key))
                .and_then(|l| l.strip_prefix('"'));
            bare.or(quoted)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        })
        .map_or(0, |i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_s_line_is_found_bare_or_quoted() {
        let text = "# comment\nlisten = \"0.0.0.0:2222\"\n  \"max-sessions\" = 5\nmax = 1\n";
        assert_eq!(line_of(text, "listen"), 2);
        assert_eq!(line_of(text, "max-sessions"), 3);
        assert_eq!(line_of(text, "max"), 4);
        assert_eq!(line_of(text, "data"), 0);
    }
}
