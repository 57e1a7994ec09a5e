//! The panel's lines of a game over the network: the result, both players with their ratings
//! and clocks (the running one marked), the terms, and a takeback asked.

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use crate::app::{App, player_of};
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

/// The lines, when the app plays a game over the network.
pub(super) fn lines<'a>(
    app: &App,
    width: usize,
    glyphs: &Glyphs,
    palette: &Palette,
) -> Vec<Line<'a>> {
    let Some(online) = app.online_state() else {
        return Vec::new();
    };
    let position = app.position();
    let mut out = Vec::new();
    // A game won on the board has its banner already; one won on time or by resignation not.
    if let Some(result) = online.result.as_ref().filter(|_| !position.is_over()) {
        let text = format!("{}{result}{}", glyphs.win[0], glyphs.win[1]);
        out.push(Line::styled(format!("{text:^width$}"), palette.banner));
    }
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
        let text = format!(
            " {}{you} {} {}{}",
            online.names[seat],
            online.ratings[seat],
            clock_text(online.left[seat]),
            if running { " ◀" } else { "" }
        );
        let style = if running {
            Style::new().add_modifier(Modifier::BOLD)
        } else {
            Style::new()
        };
        out.push(Line::from(vec![
            stone(color, glyphs, palette),
            Span::styled(text, style),
        ]));
    }
    out.push(Line::from(format!(
        "{}, {}{}",
        if online.rated { "Rated" } else { "Casual" },
        online.clock,
        if online.seat.is_none() {
            "; watching"
        } else {
            ""
        }
    )));
    if online.seat.is_some() && online.takeback.is_some() && online.takeback != online.seat {
        out.push(Line::styled("Takeback asked: u agrees", palette.hint));
    }
    out
}
