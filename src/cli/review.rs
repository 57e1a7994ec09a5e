//! `quentin review`: every position of a record searched and each action weighed against the
//! best one ([`crate::search::review`]), printed for people or as JSON.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use anyhow::{Result, anyhow};
use clap::Args;
use serde_json::{Map, Value, json};

use crate::record::{Record, quote};
use crate::search::review::explain::{Explained, Proven, explain};
use crate::search::review::{self, ActionReview, PlayerSummary, Progress, Review, Unreviewed};
use quentin_app::review_words::{self, counted};

use super::analyze::round;
use super::limits::LimitArgs;
use super::{load_record, write_stdout};

#[derive(Args, Debug)]
pub(super) struct ReviewArgs {
    /// The record to review.
    file: PathBuf,
    #[command(flatten)]
    limits: LimitArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub(super) fn review(args: &ReviewArgs) -> Result<()> {
    let record = load_record(&args.file)?;
    let start = record.position_at(0);
    let terminal = std::io::stderr().is_terminal();
    let shown = |p: Progress| {
        if terminal && p.total > 0 {
            let mut err = std::io::stderr().lock();
            // Progress only: a terminal that cannot take it loses nothing of the review.
            let _ = write!(err, "\rreviewing: position {} of {} ", p.done, p.total);
            let _ = err.flush();
        }
    };
    let result = review::review(
        &start,
        record.actions(),
        // Without options, the interface's review: the same marks as its `v`.
        args.limits.limits_or(review::standard_limits()),
        &AtomicBool::new(false),
        shown,
    );
    if terminal && !record.actions().is_empty() {
        eprint!("\r\x1b[K");
    }
    let review = match result {
        Ok(review) => review,
        // A parsed record holds legal actions and nothing stops this review: neither can be.
        Err(Unreviewed::Stopped) => return Err(anyhow!("the review was stopped")),
        Err(Unreviewed::Illegal(n, why)) => return Err(anyhow!("action {n} is illegal: {why}")),
    };
    // Each marked action explained: its refutation and a proof, searched as the review was.
    let limits = args.limits.limits_or(review::standard_limits());
    let explained: Vec<Option<Explained>> = review
        .actions
        .iter()
        .map(|a| {
            a.mark
                .and_then(|_| explain(&record.position_at(a.index - 1), a.action, limits))
        })
        .collect();
    let out = if args.json {
        let mut s = serde_json::to_string_pretty(&json_of(&record, &review, &explained))?;
        s.push('\n');
        s
    } else {
        text_of(&record, &review, &explained)
    };
    write_stdout(&out)
}

/// The JSON of a marked action's explanation: `"better"`, `"line"`, `"proven"` when proved.
fn explained_json(a: &ActionReview, explained: &Explained, object: &mut Map<String, Value>) {
    object.insert("better".into(), json!(a.best.map(|b| b.to_string())));
    let line: Vec<String> = explained.line.iter().map(ToString::to_string).collect();
    object.insert("line".into(), json!(line));
    if let Some(p) = explained.proven {
        object.insert(
            "proven".into(),
            json!({
                "winner": p.winner.name(),
                "first": p.first.to_string(),
                "moves": p.moves,
                "thrown": p.thrown,
            }),
        );
    }
}

/// What the text says of a proof: `you had a proven win: b3 wins in 3`, `White wins in 2,
/// proven`.
fn proven_words(p: &Proven) -> String {
    if p.thrown {
        format!("a proven win thrown away: {} wins in {}", p.first, p.moves)
    } else {
        format!("{} wins in {}, proven", p.winner.capitalised(), p.moves)
    }
}

/// The JSON object of docs/engine.md.
fn json_of(record: &Record, review: &Review, explained: &[Option<Explained>]) -> Value {
    let actions: Vec<Value> = review
        .actions
        .iter()
        .zip(explained)
        .map(|(a, explained)| {
            let mut object = json!({
                "index": a.index,
                "player": a.player,
                "colour": a.colour.name(),
                "action": a.action.to_string(),
                "win_before": a.win_before.map(round),
                "win_after": a.win_after.map(round),
                "best": a.best.map(|b| b.to_string()),
                "best_win": a.best_win.map(round),
                "mark": a.mark.map(review::Mark::name),
                "loss": a.loss().map(round),
            });
            if let (Some(explained), Value::Object(map)) = (explained, &mut object) {
                explained_json(a, explained, map);
            }
            object
        })
        .collect();
    let mut summary = Map::new();
    for (i, s) in review.summary.iter().enumerate() {
        summary.insert(
            format!("player{}", i + 1),
            json!({
                "name": record.players()[i],
                "actions": s.actions,
                "inaccuracies": s.inaccuracies,
                "mistakes": s.mistakes,
                "blunders": s.blunders,
                "average_loss": s.average_loss.map(round),
            }),
        );
    }
    json!({ "actions": actions, "summary": summary })
}

/// A chance for people: a whole percentage, or `?` when the search could not tell.
fn percent(chance: Option<f64>) -> String {
    chance.map_or("?".to_string(), |c| format!("{:.0}%", 100.0 * c))
}

/// One marked action: its number, who played it, the loss and the better action; under it,
/// the refutation and the proof when there is one.
fn marked_line(a: &ActionReview, explained: Option<&Explained>) -> String {
    let mark = a
        .mark
        .map_or(String::new(), |m| format!("{} {}", m.sign(), m.name()));
    let better = match a.best {
        Some(best) => format!("; better {best} ({})", percent(a.best_win)),
        None => String::new(),
    };
    let mut out = format!(
        "{:>4}. {:<5} {:<6} {:<13} {} → {}{better}\n",
        a.index,
        a.colour.capitalised(),
        a.action.to_string(),
        mark,
        percent(a.win_before),
        percent(a.win_after),
    );
    if let Some(explained) = explained.filter(|e| !e.line.is_empty() || e.proven.is_some()) {
        let line: Vec<String> = explained.line.iter().map(ToString::to_string).collect();
        let proof = explained
            .proven
            .map(|p| format!(" ({})", proven_words(&p)))
            .unwrap_or_default();
        out.push_str(&format!("        line: {}{proof}\n", line.join(" ")));
    }
    out
}

/// A player's line of the summary.
fn summary_line(record: &Record, player: usize, s: &PlayerSummary) -> String {
    let name = record.players()[player - 1].as_deref().map(quote);
    let mut line = review_words::summary_line(player, name.as_deref(), s);
    line.push('\n');
    line
}

/// The review for people: the game, the marked actions with the better one, the summary.
fn text_of(record: &Record, review: &Review, explained: &[Option<Explained>]) -> String {
    let setup = record.setup();
    let end = record.final_position();
    let result = match end.outcome() {
        Some(o) => match o.winner() {
            Some(w) => format!("{} won", w.capitalised()),
            None => "drawn".to_string(),
        },
        None => "unfinished".to_string(),
    };
    let n = review.actions.len();
    let mut out = format!(
        "{} {}×{}, {}, {result}\n\n",
        setup.game.title(),
        setup.size,
        setup.size,
        counted(n, "action", "actions"),
    );
    let marked: Vec<(&ActionReview, Option<&Explained>)> = review
        .actions
        .iter()
        .zip(explained)
        .filter(|(a, _)| a.mark.is_some())
        .map(|(a, e)| (a, e.as_ref()))
        .collect();
    if marked.is_empty() {
        out.push_str("No action lost 10% of its mover's win chance or more.\n");
    } else {
        out.push_str(
            "Marked actions (the mover's win chance before → after; the line that refutes it):\n",
        );
        for (a, e) in marked {
            out.push_str(&marked_line(a, e));
        }
    }
    out.push('\n');
    for (i, s) in review.summary.iter().enumerate() {
        out.push_str(&summary_line(record, i + 1, s));
    }
    out
}
