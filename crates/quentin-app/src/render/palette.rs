//! The styles of the board and the panel: colours from the 256-colour palette, or, without
//! colour, only what needs none (bold, reversed, dim).

use ratatui::style::{Color as Paint, Modifier, Style};

use crate::app::Look;

/// The styles of everything drawn; without colour they keep only what needs no colour.
pub(super) struct Palette {
    pub(super) wood: Style,
    pub(super) line: Style,
    pub(super) stone: [Style; 2],
    pub(super) last: Style,
    pub(super) fill: [Style; 2],
    pub(super) cursor: Style,
    pub(super) chain: Style,
    pub(super) label: Style,
    pub(super) label_here: Style,
    pub(super) banner: Style,
    pub(super) refusal: Style,
    pub(super) current: Style,
    pub(super) undone: Style,
    pub(super) dim: Style,
    /// A hint for newcomers.
    pub(super) hint: Style,
}

/// Board colours from the 256-colour palette, chosen to look the same on dark and light
/// terminals: the board has its own wooden background, so black and white stones keep their
/// contrast whatever the terminal's colours.
pub(super) mod paint {
    use super::Paint;
    pub const WOOD: Paint = Paint::Indexed(137);
    pub const LINE: Paint = Paint::Indexed(58);
    pub const BLACK: Paint = Paint::Indexed(16);
    pub const WHITE: Paint = Paint::Indexed(231);
    pub const BLACK_FILL: Paint = Paint::Indexed(238);
    pub const WHITE_FILL: Paint = Paint::Indexed(255);
    pub const CURSOR: Paint = Paint::Indexed(160);
    pub const CURSOR_WOOD: Paint = Paint::Indexed(180);
    pub const CHAIN: Paint = Paint::Indexed(71);
    pub const ACCENT: Paint = Paint::Indexed(172);
}

impl Palette {
    pub(super) fn new(look: Look) -> Palette {
        let bold = Style::new().add_modifier(Modifier::BOLD);
        if !look.color {
            return Palette {
                wood: Style::new(),
                line: Style::new(),
                stone: [Style::new(); 2],
                last: if look.ascii {
                    bold.add_modifier(Modifier::UNDERLINED)
                } else {
                    Style::new()
                },
                fill: [Style::new(); 2],
                cursor: bold,
                chain: bold.add_modifier(Modifier::REVERSED),
                label: Style::new(),
                label_here: bold,
                banner: bold.add_modifier(Modifier::REVERSED),
                refusal: bold,
                current: Style::new().add_modifier(Modifier::REVERSED),
                undone: Style::new().add_modifier(Modifier::DIM),
                dim: Style::new().add_modifier(Modifier::DIM),
                hint: Style::new().add_modifier(Modifier::ITALIC),
            };
        }
        let wood = Style::new().bg(paint::WOOD);
        Palette {
            wood,
            line: wood.fg(paint::LINE),
            stone: [
                wood.fg(paint::BLACK).add_modifier(Modifier::BOLD),
                wood.fg(paint::WHITE).add_modifier(Modifier::BOLD),
            ],
            last: if look.ascii {
                bold.add_modifier(Modifier::UNDERLINED)
            } else {
                Style::new()
            },
            fill: [wood.fg(paint::BLACK_FILL), wood.fg(paint::WHITE_FILL)],
            cursor: Style::new()
                .fg(paint::CURSOR)
                .bg(paint::CURSOR_WOOD)
                .add_modifier(Modifier::BOLD),
            chain: Style::new().bg(paint::CHAIN).add_modifier(Modifier::BOLD),
            label: Style::new(),
            label_here: Style::new().fg(paint::ACCENT).add_modifier(Modifier::BOLD),
            banner: Style::new()
                .fg(paint::BLACK)
                .bg(paint::ACCENT)
                .add_modifier(Modifier::BOLD),
            refusal: Style::new().fg(paint::CURSOR).add_modifier(Modifier::BOLD),
            current: Style::new().add_modifier(Modifier::REVERSED),
            undone: Style::new().add_modifier(Modifier::DIM),
            dim: Style::new().add_modifier(Modifier::DIM),
            hint: Style::new().add_modifier(Modifier::ITALIC),
        }
    }
}
