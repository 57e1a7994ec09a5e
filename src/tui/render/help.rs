//! The help overlay: the rules in short and every key.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Padding, Paragraph, Widget};

use crate::rules::Game;

use crate::tui::app::App;

use super::{Glyphs, konobi, quint, squares};

/// The keys of the help overlay, by section.
const HELP: [(&str, &[(&str, &str)]); 2] = [
    (
        "Playing",
        &[
            ("arrows, h j k l", "move the cursor"),
            ("Enter, Space", "play at the cursor"),
            ("mouse", "point to move the cursor, click to play"),
            ("s", "swap colours (pie rule, White's first turn)"),
            ("u, r", "undo, redo (no limit)"),
            ("n", "new game, once the game is won"),
            ("PgUp, PgDn, wheel", "scroll the action list"),
            ("?", "open or close this help"),
            ("q, Esc, Ctrl-C", "quit (the record is already saved)"),
        ],
    ),
    (
        "In a replay",
        &[
            ("Left, Right, h, l", "step back, step forward"),
            ("Home, End, g, G", "first, last position"),
            ("p", "play on from here into a new record"),
        ],
    ),
];

/// How to find a game again after quitting.
const LATER: &str = "Later: `quentin resume` plays on the latest unfinished game, \
                     `quentin games` lists your games.";

/// The help overlay: every key, and where the record is saved.
pub(super) fn draw_help(app: &App, area: Rect, buf: &mut Buffer, glyphs: &Glyphs) {
    const KEY_WIDTH: usize = 19;
    // What the game's board shows, when it needs telling; the help then takes the width of an
    // 80-column terminal, so that the explanation and the record's path take few lines.
    let board = match app.setup().game {
        Game::Konobi => Some(konobi::HELP),
        Game::Brique => Some(squares::HELP),
        _ => None,
    };
    let width = area.width.min(if board.is_some() { 78 } else { 66 });
    let text_width = usize::from(width.saturating_sub(4))
        .saturating_sub(KEY_WIDTH)
        .max(1);
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let mut lines = Vec::new();
    if let Some(text) = board {
        let width = usize::from(width.saturating_sub(4)).max(1);
        lines.extend(wrap(text, width).into_iter().map(Line::from));
    }
    let mut sections = HELP;
    if app.setup().game == Game::Quint {
        sections[0] = quint::HELP;
    }
    for (heading, keys) in sections {
        if !lines.is_empty() {
            lines.push(Line::default());
        }
        lines.push(Line::styled(
            heading,
            bold.add_modifier(Modifier::UNDERLINED),
        ));
        for (key, what) in keys {
            for (i, part) in wrap(what, text_width).into_iter().enumerate() {
                let key = if i == 0 { key } else { "" };
                lines.push(Line::from(vec![
                    Span::styled(format!("{key:<KEY_WIDTH$}"), bold),
                    Span::raw(part),
                ]));
            }
        }
    }
    lines.push(Line::default());
    let record = match app.record_path() {
        Some(path) => format!("Record: {}", crate::library::shown(path)),
        None => "Record: none yet (a replay; p plays on into a new record)".to_string(),
    };
    for text in [record.as_str(), LATER] {
        for part in wrap(text, usize::from(width.saturating_sub(4)).max(1)) {
            lines.push(Line::from(part));
        }
    }
    let height = (u16::try_from(lines.len()).unwrap_or(u16::MAX) + 2).min(area.height);
    let popup = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    Clear.render(popup, buf);
    Paragraph::new(lines)
        .block(
            Block::new()
                .borders(Borders::ALL)
                .border_set(glyphs.border)
                .padding(Padding::horizontal(1))
                .title(" Keys: any other key closes this help "),
        )
        .render(popup, buf);
}

/// Breaks `text` into lines of at most `width` characters, at spaces where it can.
pub(super) fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let mut word = word.to_string();
        loop {
            let len = line.chars().count();
            let wlen = word.chars().count();
            let sep = usize::from(len > 0);
            if len + sep + wlen <= width {
                if sep == 1 {
                    line.push(' ');
                }
                line.push_str(&word);
                break;
            }
            if len > 0 {
                lines.push(std::mem::take(&mut line));
                continue;
            }
            // A word longer than the line, such as a path: cut it after its last `/` that fits,
            // or else at the width.
            let head: String = word.chars().take(width).collect();
            let at = match head.rfind('/') {
                Some(slash) if slash > 0 => head[..=slash].chars().count(),
                _ => width,
            };
            lines.push(word.chars().take(at).collect());
            word = word.chars().skip(at).collect();
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}
