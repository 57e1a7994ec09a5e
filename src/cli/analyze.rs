//! `quentin analyze`: the position of a record searched, printed for people or as JSON.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use anyhow::{Result, bail};
use clap::Args;
use serde_json::{Value, json};

use crate::record::Record;
use crate::rules::Position;
use crate::search::{Proven, Report, Searcher, chance_words};

use super::limits::LimitArgs;
use super::{BadRecord, load_record, write_stdout};

/// The most root actions listed.
const LISTED: usize = 10;

#[derive(Args, Debug)]
pub(super) struct AnalyzeArgs {
    /// The record to analyse.
    file: PathBuf,
    /// Analyse the position after the first N actions instead of after all of them.
    #[arg(long, value_name = "N")]
    at: Option<u64>,
    #[command(flatten)]
    limits: LimitArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub(super) fn analyze(args: &AnalyzeArgs) -> Result<()> {
    let limits = args.limits.limits();
    let record = load_record(&args.file)?;
    let at = super::replay::action_count(&record, &args.file, args.at)?;
    let position = record.position_at(at);
    if position.is_over() {
        bail!(BadRecord(format!(
            "{}: the game is over after {at} action{}: nothing to analyse; `quentin review {}` \
             weighs each of its actions",
            args.file.display(),
            if at == 1 { "" } else { "s" },
            args.file.display(),
        )));
    }
    let report = Searcher::new(limits).search(&position, &AtomicBool::new(false), |_| {});
    let out = if args.json {
        let mut s = serde_json::to_string_pretty(&json_of(&report))?;
        s.push('\n');
        s
    } else {
        text_of(&record, &position, at, &report)
    };
    write_stdout(&out)
}

/// The JSON object of ENGINE.md.
#[must_use]
pub(super) fn json_of(report: &Report) -> Value {
    let moves: Vec<Value> = report
        .moves
        .iter()
        .take(LISTED)
        .map(|m| {
            json!({
                "action": m.action.to_string(),
                "visits": m.visits,
                "win": m.chance().map(round),
                "raw_win": m.raw_chance().map(round),
                "pv": m.pv.iter().map(ToString::to_string).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "to_move": report.to_move.map(|c| c.name()),
        "playouts": report.playouts,
        "best": report.best.map(|a| a.to_string()),
        "win": report.chance().map(round),
        "raw_win": report.raw_chance().map(round),
        "proven": report.proven.map(Proven::name),
        "moves": moves,
    })
}

/// A chance to three decimals, as people and JSON read it.
pub(super) fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// The analysis for people: the position, then the best actions with their chances and lines.
fn text_of(record: &Record, position: &Position, at: usize, report: &Report) -> String {
    let mut out = crate::position_view::text(position, &record.actions()[..at]);
    let mover = report.to_move.map_or("nobody", |c| c.name());
    out.push_str(&format!(
        "\n{} playouts in {:.1} s ({:.0}/s)\n",
        report.playouts,
        report.elapsed.as_secs_f64(),
        report.playouts_per_s()
    ));
    if let Some(best) = report.best {
        // The words of the interface's "Computer played" and of GTP's `explain_last_move`.
        let worth = report.worth(&format!("for {mover}"));
        out.push_str(&format!("Best: {best}{worth}\n\n"));
    }
    out.push_str(&format!(
        "{:<14} {:>9} {:>13}  line\n",
        "action", "visits", "win"
    ));
    for m in report.moves.iter().take(LISTED) {
        let win = match m.proven {
            Some(_) => chance_words(None, m.proven),
            None => m
                .chance()
                .map_or("…".to_string(), |win| format!("{:.1}%", 100.0 * win)),
        };
        let line: Vec<String> = m.pv.iter().map(ToString::to_string).collect();
        out.push_str(&format!(
            "{:<14} {:>9} {:>13}  {}\n",
            m.action.to_string(),
            m.visits,
            win,
            line.join(" ")
        ));
    }
    out
}
