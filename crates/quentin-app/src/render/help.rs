//! The help overlay: the game's rules in short, every mark on its board, then the keys and
//! where the record is saved. The rules and marks come from [`crate::guide`], the same text
//! that `quentin rules` prints. The help takes the whole screen (so nothing of the board or the
//! panel shows through at its sides) and scrolls when it is taller than the window.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Padding, Paragraph, Widget};

use crate::rules::Game;
use crate::rules_text::{self, MARK_WIDTH};
use crate::wrap::wrap;

use crate::app::App;
use crate::commands::{self, Section};

use super::{Glyphs, HelpGeometry};

/// How to find a game again after quitting.
const LATER: &str = "Later: `quentin resume` plays on the latest unfinished game, \
                     `quentin games` lists your games.";

/// Width of the column of keys.
const KEY_WIDTH: usize = 19;
/// The help's widest box: an 80-column terminal's whole width.
const MAX_WIDTH: u16 = 80;

/// Every line of the help for `app`, for a text `width` columns wide.
pub(super) fn help_lines<'a>(app: &App, width: usize, glyphs: &Glyphs) -> Vec<Line<'a>> {
    let game = app.setup().game;
    let guide = rules_text::guide(game);
    let ascii = glyphs.stone[0].is_ascii();
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let heading =
        |text: &str| Line::styled(text.to_string(), bold.add_modifier(Modifier::UNDERLINED));
    let (title, rules) = guide.paragraphs(ascii);
    let mut lines = vec![Line::styled(title, bold), Line::default()];
    lines.push(heading("Rules"));
    for rule in &rules {
        for (i, part) in wrap(rule, width.saturating_sub(2)).into_iter().enumerate() {
            let bullet = if i == 0 { "- " } else { "  " };
            lines.push(Line::from(format!("{bullet}{part}")));
        }
    }
    lines.push(Line::default());
    lines.push(heading("On the board"));
    for mark in guide.marks {
        let glyph = mark.glyph(ascii, app.look().color);
        let parts = wrap(mark.meaning, width.saturating_sub(MARK_WIDTH));
        for (i, part) in parts.into_iter().enumerate() {
            let glyph = if i == 0 { glyph } else { "" };
            lines.push(Line::from(vec![
                Span::styled(format!("{glyph:<MARK_WIDTH$}"), bold),
                Span::raw(part),
            ]));
        }
    }
    // The keys, from the one table that also dispatches them.
    let game_keys = if game == Game::Quint {
        Section::Quint
    } else {
        Section::Game
    };
    let text_width = width.saturating_sub(KEY_WIDTH).max(1);
    let second = if app.puzzle_shown().is_some() {
        ("In a puzzle", Section::Puzzle)
    } else {
        ("In a replay", Section::Replay)
    };
    for (heading_text, section) in [("Keys", game_keys), second] {
        lines.push(Line::default());
        lines.push(heading(heading_text));
        for row in commands::rows(section) {
            for (i, part) in wrap(row.does, text_width).into_iter().enumerate() {
                let key = if i == 0 { row.keys } else { "" };
                lines.push(Line::from(vec![
                    Span::styled(format!("{key:<KEY_WIDTH$}"), bold),
                    Span::raw(part),
                ]));
            }
        }
    }
    lines.push(Line::default());
    let record = match app.record_path() {
        Some(path) => format!("Record: {}", crate::escape::shown(path)),
        None => "Record: none yet (a replay; p plays on into a new record)".to_string(),
    };
    for text in [record.as_str(), LATER] {
        lines.extend(wrap(text, width).into_iter().map(Line::from));
    }
    lines
}

/// Draws the help over the whole of `area`, scrolled as far as the app asks (no further than
/// its last line), and tells how it can scroll.
pub(super) fn draw_help(app: &App, area: Rect, buf: &mut Buffer, glyphs: &Glyphs) -> HelpGeometry {
    Clear.render(area, buf);
    let width = area.width.min(MAX_WIDTH);
    if width < 8 || area.height < 3 {
        return HelpGeometry::default();
    }
    let lines = help_lines(app, usize::from(width - 4), glyphs);
    let rows = usize::from(area.height - 2);
    let max_scroll = lines.len().saturating_sub(rows);
    let scroll = app.help_scroll().min(max_scroll);
    let shown = lines.len().min(rows);
    let height = u16::try_from(shown).unwrap_or(u16::MAX) + 2;
    let popup = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    let ascii = glyphs.stone[0].is_ascii();
    let title = format!(" Help: {} ", app.setup().game.title());
    let mut block = Block::new()
        .borders(Borders::ALL)
        .border_set(glyphs.border)
        .padding(Padding::horizontal(1))
        .title_top(Line::from(title))
        .title_top(Line::from(" ? closes ").right_aligned());
    if max_scroll > 0 {
        let keys = if ascii {
            "Up/Down PgUp/PgDn"
        } else {
            "↑ ↓ PgUp PgDn"
        };
        let dash = if ascii { "-" } else { "–" };
        block = block.title_bottom(
            Line::from(format!(
                " lines {}{dash}{} of {}: {keys} scroll ",
                scroll + 1,
                scroll + shown,
                lines.len()
            ))
            .right_aligned(),
        );
    }
    let visible: Vec<Line> = lines.into_iter().skip(scroll).take(shown).collect();
    Paragraph::new(visible).block(block).render(popup, buf);
    HelpGeometry { rows, max_scroll }
}

#[cfg(test)]
mod tests {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    use super::*;
    use crate::app::Look;
    use crate::app::tests::press;
    use crate::render::tests::draw_app;
    use crate::rules::Setup;

    const RECORD: &str = "/home/player/.local/share/quentin/games/2026-11-22T03-43-00.txt";

    fn help_of(game: Game) -> App {
        let mut app = App::new(Setup::new(game), Look::FULL).unwrap();
        app.set_record_path(RECORD.into());
        press(&mut app, "?");
        app
    }

    /// Every screen of the help at 80×24, scrolled down to its end with `j`.
    fn screens(game: Game) -> Vec<String> {
        let mut app = help_of(game);
        let mut screens = vec![draw_app(&mut app, 80, 24).backend().to_string()];
        loop {
            press(&mut app, "v");
            let screen = draw_app(&mut app, 80, 24).backend().to_string();
            if Some(&screen) == screens.last() {
                return screens;
            }
            screens.push(screen);
        }
    }

    /// The words of `text`, border characters left out.
    fn words(text: &str) -> Vec<String> {
        text.split(|c: char| c.is_whitespace() || "│┌┐└┘─\"".contains(c))
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    }

    fn contains_run(haystack: &[String], needle: &[String]) -> bool {
        haystack.windows(needle.len()).any(|w| w == needle)
    }

    #[test]
    fn the_help_of_each_game_at_80x24_first_and_last_screens() {
        for game in Game::ALL {
            let screens = screens(game);
            assert!(
                screens.len() > 1,
                "{game}: the help needs scrolling at 80×24"
            );
            let first = screens.first().unwrap();
            let last = screens.last().unwrap();
            for screen in [first, last] {
                // The box spans the whole width: nothing of the panel shows at its right.
                for line in screen.lines() {
                    let line = line.trim_matches('"');
                    assert_eq!(line.chars().count(), 80);
                    let right = line.chars().last().unwrap();
                    assert!("┐│┘".contains(right), "{game}: {line:?}");
                }
            }
            insta::assert_snapshot!(format!("help_{game}_top"), first);
            insta::assert_snapshot!(format!("help_{game}_bottom"), last);
        }
    }

    #[test]
    fn the_help_says_the_rules_and_every_mark_of_the_guide() {
        for game in Game::ALL {
            let all: Vec<String> = screens(game).iter().flat_map(|s| words(s)).collect();
            let guide = rules_text::guide(game);
            for rule in guide.rules {
                assert!(contains_run(&all, &words(rule)), "{game}: {rule}");
            }
            for mark in guide.marks {
                assert!(contains_run(&all, &words(mark.meaning)), "{mark:?}");
            }
            assert!(contains_run(&all, &words(&format!("Record: {RECORD}"))));
        }
    }

    #[test]
    fn arrows_pages_and_ends_scroll_the_help_and_other_keys_close_it() {
        use crate::input::KeyCode;

        use crate::app::tests::key;
        let mut app = help_of(Game::Quentin);
        let terminal_at = |app: &mut App| {
            let screen = draw_app(app, 80, 24).backend().to_string();
            screen.lines().nth(1).unwrap_or_default().to_string()
        };
        let top = terminal_at(&mut app);
        assert_eq!(app.help_scroll(), 0);
        for (code, scroll) in [
            (KeyCode::Down, 1),
            (KeyCode::Char('j'), 2),
            (KeyCode::Up, 1),
            (KeyCode::PageDown, 22),
            (KeyCode::PageUp, 1),
            (KeyCode::Home, 0),
            (KeyCode::Char('k'), 0),
        ] {
            let _ = app.handle(&key(code));
            assert!(app.help_open(), "{code:?}");
            assert_eq!(app.help_scroll(), scroll, "{code:?}");
            terminal_at(&mut app);
        }
        // End shows the last line at the bottom, and scrolls no further.
        let _ = app.handle(&key(KeyCode::End));
        let end = app.help_scroll();
        assert!(end > 22, "{end}");
        let bottom = terminal_at(&mut app);
        assert_ne!(bottom, top);
        let _ = app.handle(&key(KeyCode::Down));
        assert_eq!(app.help_scroll(), end);
        // Reopened, the help starts at the top again.
        press(&mut app, "??");
        assert_eq!(app.help_scroll(), 0);
        assert_eq!(terminal_at(&mut app), top);
        press(&mut app, "x");
        assert!(!app.help_open());
    }

    #[test]
    fn the_help_shows_the_edge_marks_the_board_is_drawn_with() {
        for (color, drawn, not_drawn) in [(true, "▄ ▐", "━ ║"), (false, "━ ║", "▄ ▐")]
        {
            let mut app = App::new(
                Setup::new(Game::Brique),
                Look {
                    ascii: false,
                    color,
                },
            )
            .unwrap();
            press(&mut app, "?");
            let glyphs = Glyphs::of(app.look(), crate::render::BoardStyle::Squares);
            let lines = help_lines(&app, 76, &glyphs);
            let text: Vec<String> = lines.iter().map(ToString::to_string).collect();
            let edges = text.iter().find(|l| l.contains("edge bars")).unwrap();
            assert!(edges.starts_with(drawn), "{edges}");
            assert!(!text.iter().any(|l| l.contains(not_drawn)), "{text:#?}");
        }
    }

    #[test]
    fn ascii_help_has_ascii_marks_and_borders() {
        let mut app = App::new(
            Setup::new(Game::Quint),
            Look {
                ascii: true,
                color: false,
            },
        )
        .unwrap();
        press(&mut app, "?");
        let mut terminal = Terminal::new(TestBackend::new(80, 60)).unwrap();
        terminal
            .draw(|frame| {
                crate::render::render(&app, frame);
            })
            .unwrap();
        let screen = terminal.backend().to_string();
        assert!(screen.contains("(X)"), "{screen}");
        assert!(screen.is_ascii(), "{screen}");
    }
}
