//! The tournament screen's page of the selected tournament: its terms and status (the start
//! time and a countdown while open), the standings in named columns (points, then the
//! tie-breaks by name), the crosstable and the games.

use crate::hub::TournamentView;
use crate::ids::{Millis, Moment};
use crate::moderation::moment;
use crate::present::tournament_summary;
use crate::tournament::standings::result_word;
use crate::tournament::{Kind, Status, points};
use quentin_app::screen::lobby::Tournament;

/// The tournament as the screen lists it and shows its page.
pub(super) fn tournament(t: &TournamentView, now: Moment) -> Tournament {
    let (terms, state) = status(t, now);
    let mut table = vec![terms, state];
    let names = match t.settings.kind {
        Kind::Arena => vec!["Performance"],
        Kind::Swiss | Kind::RoundRobin => vec!["Buchholz", "Sonneborn-Berger"],
    };
    let width = t
        .standings
        .iter()
        .map(|(_, n)| n.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    table.push(format!(
        "Rank {:<width$} {:>6} {}",
        "Name",
        "Points",
        names
            .iter()
            .map(|n| format!("{n:>8}"))
            .collect::<Vec<_>>()
            .join(" ")
    ));
    for (standing, name) in &t.standings {
        table.push(format!(
            "{:>4} {name:<width$} {:>6} {}",
            standing.rank,
            points(standing.halves),
            names
                .iter()
                .zip(&standing.tiebreaks)
                .map(|(n, v)| format!("{:>w$}", v.to_string(), w = n.len().max(8)))
                .collect::<Vec<_>>()
                .join(" ")
        ));
    }
    table.extend(crosstable_lines(t));
    for g in &t.games {
        table.push(match (&g.second, g.game) {
            (Some(second), Some(game)) => format!(
                "Round {}: {} - {second}, game #{game}, {}",
                g.round,
                g.first,
                result_word(g.result)
            ),
            _ => format!("Round {}: {} has a bye", g.round, g.first),
        });
    }
    Tournament {
        id: t.id.0,
        summary: tournament_summary(t),
        table,
        players: t.standings.len(),
    }
}

/// Its terms and where it stands, a line each: `roundrobin quentin 5x5, clock 2+0, casual,
/// by ann`, `open, 3 joined (at least 2), starts 2026-12-07 14:05:00 UTC, in 0:12:34`.
fn status(t: &TournamentView, now: Moment) -> (String, String) {
    let s = &t.settings;
    let terms = format!(
        "{} {} {}x{}, clock {}, {}, by {}",
        s.kind,
        s.spec.setup.game,
        s.spec.setup.size,
        s.spec.setup.size,
        s.spec.clock,
        if s.spec.rated { "rated" } else { "casual" },
        t.creator
    );
    let state = match t.status {
        Status::Open => {
            let left = (t.starts - now).max(Millis::ZERO).0 / 1000;
            format!(
                "open, {} joined (at least {}), starts {} UTC, in {}:{:02}:{:02}",
                t.entrants.len(),
                s.min,
                moment(t.starts),
                left / 3600,
                left / 60 % 60,
                left % 60
            )
        }
        Status::Running if s.kind == Kind::Arena => {
            format!("running, minute {} of {}", t.round, t.rounds)
        }
        Status::Running => format!("running, round {} of {}", t.round, t.rounds),
        other => other.to_string(),
    };
    (terms, state)
}

/// The crosstable under the standings, once a game is paired: a line a player in the
/// standings' order, their results against each column's player, numbered as the ranks are.
pub(super) fn crosstable_lines(t: &TournamentView) -> Vec<String> {
    if t.games.is_empty() || t.crosstable.is_empty() {
        return Vec::new();
    }
    let width = t
        .crosstable
        .iter()
        .flatten()
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(1)
        .max(t.standings.len().to_string().len());
    let name_width = t
        .standings
        .iter()
        .map(|(_, n)| n.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = vec![format!(
        "crosstable {:>name_width$}    {}",
        "",
        (1..=t.standings.len())
            .map(|n| format!("{n:>width$}"))
            .collect::<Vec<_>>()
            .join(" ")
    )];
    for (n, ((_, name), row)) in t.standings.iter().zip(&t.crosstable).enumerate() {
        out.push(format!(
            "{:>10} {name:>name_width$} {:>2}. {}",
            "",
            n + 1,
            row.iter()
                .map(|c| format!("{:>width$}", if c.is_empty() { "." } else { c }))
                .collect::<Vec<_>>()
                .join(" ")
        ));
    }
    out
}
