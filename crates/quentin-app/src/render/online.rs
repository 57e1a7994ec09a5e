//! The panel's lines of a game over the network: the result, both players with their ratings
//! and clocks (the running one marked), the terms, and a takeback asked.

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use crate::app::{App, Online, player_of};
use crate::rules::Color;

use super::{Glyphs, Palette, stone};

/// `9:58`, `1:02:03`, or `2 d 03 h` for a correspondence clock.
#[must_use]
pub fn clock_text(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    if s >= 86_400 {
        format!("{} d {:02} h", s / 86_400, s % 86_400 / 3600)
    } else if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s % 3600 / 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// The banner of an online game that is over, from the viewer's side: the result, and the
/// rating change of a rated game.
pub(super) fn banner(online: &Online) -> Option<Vec<String>> {
    let mut lines = vec![online.result_text()?];
    lines.extend(online.change_text());
    Some(lines)
}

/// The lines, when the app plays a game over the network: both players with their ratings,
/// clocks (the running one marked, and said when low) and presence, the terms and the
/// watchers, and a takeback asked.
pub(super) fn lines<'a>(
    app: &App,
    _width: usize,
    glyphs: &Glyphs,
    palette: &Palette,
) -> Vec<Line<'a>> {
    let Some(online) = app.online_state() else {
        return Vec::new();
    };
    let position = app.position();
    let mut out = Vec::new();
    for seat in 0..2 {
        let color = if usize::from(player_of(position, Color::Black)) == seat + 1 {
            Color::Black
        } else {
            Color::White
        };
        let you = if online.seat == Some(seat) {
            " (you)"
        } else {
            ""
        };
        let running = online.running == Some(seat) && online.result.is_none();
        let change = match online.changes {
            Some(changes) if changes[seat] < 0 => format!(" {}", changes[seat]),
            Some(changes) => format!(" +{}", changes[seat]),
            None => String::new(),
        };
        let away = if online.connected[seat] || online.result.is_some() {
            ""
        } else {
            " (away)"
        };
        let text = format!(
            " {}{you}{away} {}{change} ",
            online.names[seat], online.ratings[seat],
        );
        let low = online.low_on_time(seat);
        let clock = format!(
            "{}{}{}",
            clock_text(online.left[seat]),
            if running { " ◀" } else { "" },
            if low { " low time!" } else { "" }
        );
        let style = if running {
            Style::new().add_modifier(Modifier::BOLD)
        } else {
            Style::new()
        };
        out.push(Line::from(vec![
            stone(color, glyphs, palette),
            Span::styled(text, style),
            Span::styled(clock, if low { palette.refusal } else { style }),
        ]));
    }
    let watchers = match (online.seat, online.watchers) {
        (None, 0 | 1) => "; watching".to_string(),
        (None, n) => format!("; watching with {} more", n - 1),
        (_, 0) => String::new(),
        (_, 1) => "; 1 watcher".to_string(),
        (_, n) => format!("; {n} watchers"),
    };
    let tournament = online
        .tournament
        .as_ref()
        .map_or(String::new(), |t| format!(", {t}"));
    out.push(Line::from(format!(
        "{}, {}{tournament}{watchers}",
        if online.rated { "Rated" } else { "Casual" },
        online.clock,
    )));
    // The running player's (◀) first move has a timer of its own; their clock stands.
    if let Some(left) = online.first_move.filter(|_| online.result.is_none()) {
        out.push(Line::styled(
            format!("First move in {}, else aborted", clock_text(left)),
            palette.hint,
        ));
    }
    match online.takeback {
        Some(asker) if online.result.is_none() && online.seat.is_some_and(|me| me != asker) => {
            out.push(Line::styled(
                format!(
                    "Takeback of {}: u agrees, d declines",
                    app.takeback_count(asker)
                ),
                palette.hint,
            ));
        }
        _ => {}
    }
    match (online.rematch, online.seat) {
        // A tournament pairs its games: no rematch.
        (_, Some(_)) if online.result.is_some() && online.tournament.is_some() => out.push(
            Line::styled("Left looks the game over, q goes back", palette.hint),
        ),
        (None, Some(_)) if online.result.is_some() => out.push(Line::styled(
            "n rematch, Left looks the game over",
            palette.hint,
        )),
        (Some(by), Some(me)) if online.result.is_some() && by != me => out.push(Line::styled(
            format!("{} offers a rematch: n accepts", online.names[by]),
            palette.hint,
        )),
        (Some(_), Some(_)) if online.result.is_some() => out.push(Line::styled(
            format!(
                "Rematch offered: waiting for {}",
                online.names[1 - online.seat.unwrap_or(0)]
            ),
            palette.hint,
        )),
        _ => {}
    }
    out
}
