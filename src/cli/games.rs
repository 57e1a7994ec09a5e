//! `quentin games [--json] [--all]`: the saved games of the data directory, newest first.

use anyhow::Result;
use clap::Args;
use serde_json::{Value, json};

use crate::rules::{Color, Outcome};
use crate::saved_games::{self, Entry, minute, rfc3339, shown};

use super::write_stdout;

/// How many games are listed without `--all`.
const RECENT: usize = 20;

#[derive(Args, Debug)]
pub(super) struct GamesArgs {
    /// Print a JSON array of objects (path, modified, game, size, actions, winner, finished,
    /// bytes, error) instead of lines for people.
    #[arg(long)]
    json: bool,
    /// List every record, not only the 20 most recent.
    #[arg(long)]
    all: bool,
}

pub(super) fn games(args: &GamesArgs) -> Result<()> {
    let dir = saved_games::games_dir()?;
    let mut entries = saved_games::games(&dir)?;
    let hidden = if args.all {
        0
    } else {
        entries.len().saturating_sub(RECENT)
    };
    entries.truncate(entries.len() - hidden);
    let out = if args.json {
        let list: Vec<Value> = entries.iter().map(json_of).collect();
        let mut s = serde_json::to_string_pretty(&list)?;
        s.push('\n');
        s
    } else {
        text(&entries, hidden, &shown(&dir))
    };
    write_stdout(&out)
}

/// `"black"`, `"white"` or `"draw"`.
fn winner(outcome: &Outcome) -> &'static str {
    outcome.winner().map_or("draw", Color::name)
}

fn json_of(entry: &Entry) -> Value {
    let mut object = json!({
        "path": entry.path.to_string_lossy(),
        "modified": rfc3339(entry.modified),
        "bytes": entry.bytes,
    });
    match &entry.summary {
        Ok(s) => {
            object["game"] = json!(s.game.name());
            object["size"] = json!(s.size);
            object["actions"] = json!(s.actions);
            object["finished"] = json!(s.outcome.is_some());
            object["winner"] = json!(s.outcome.as_ref().map(winner));
            object["players"] = json!(s.players);
            object["error"] = Value::Null;
        }
        Err(reason) => {
            for key in ["game", "size", "actions", "finished", "winner", "players"] {
                object[key] = Value::Null;
            }
            object["error"] = json!(reason);
        }
    }
    object
}

/// Who played, in short: `alice vs bob`, `you vs computer level 4`, `hot seat`.
fn who(players: &crate::record::Players) -> String {
    // `computer, level 4, 2 s a move` is the computer at level 4.
    let short = |text: &str| match text.strip_prefix("computer, ") {
        Some(rest) => format!("computer {}", rest.split(',').next().unwrap_or(rest)),
        None => saved_games::escaped(text),
    };
    let computer = |p: &Option<String>| p.as_deref().is_some_and(|t| t.starts_with("computer"));
    match players {
        [None, None] => "hot seat".to_string(),
        [a, b] => {
            let one = computer(a) != computer(b);
            let side = |p: &Option<String>| match p {
                Some(text) => short(text),
                None if one => "you".to_string(),
                None => "?".to_string(),
            };
            format!("{} vs {}", side(a), side(b))
        }
    }
}

/// One line a game: when, game, size, actions, result, who played, path.
fn text(entries: &[Entry], hidden: usize, dir: &str) -> String {
    if entries.is_empty() {
        return format!("No saved games in {dir}.\n");
    }
    let mut out = String::new();
    for entry in entries {
        let what = match &entry.summary {
            Ok(s) => {
                let result = match &s.outcome {
                    None => "unfinished".to_string(),
                    Some(o) => match o.winner() {
                        Some(color) => format!("{} won", color.capitalised()),
                        None => "draw".to_string(),
                    },
                };
                let actions = if s.actions == 1 { "action" } else { "actions" };
                format!(
                    "{:<8} {:>5}  {:>4} {actions:<7}  {result:<10}  {:<24}",
                    s.game.name(),
                    format!("{0}×{0}", s.size),
                    s.actions,
                    who(&s.players)
                )
            }
            Err(reason) => format!("unreadable: {}", saved_games::escaped(reason)),
        };
        out.push_str(&format!(
            "{} UTC  {what}  {}\n",
            minute(entry.modified),
            shown(&entry.path)
        ));
    }
    if hidden > 0 {
        out.push_str(&format!(
            "… and {hidden} older game{} (--all lists them).\n",
            if hidden == 1 { "" } else { "s" }
        ));
    }
    out
}
