//! Konobi's board: Quentin's grid of points, with a diagonal mark between every two weakly
//! connected stones.

use ratatui::buffer::Buffer;
use ratatui::text::{Line, Span};

use crate::rules::konobi::weak_connections;
use crate::rules::{Color, Position};

use super::{BoardGeometry, Glyphs, Palette, paint, put};

/// The marks of a weak connection rising to the right and falling to the right.
fn marks(glyphs: &Glyphs) -> [&'static str; 2] {
    if glyphs.stone[0].is_ascii() {
        ["/", "\\"]
    } else {
        ["╱", "╲"]
    }
}

/// Draws a mark, in the stones' colour, between every two weakly connected stones of
/// `position`; the marks of the winning chain are highlighted with it.
///
/// Rows are one screen line apart, so the mark goes in the column between the two points, on
/// the line of the lower one. Each 2×2 square gets at most one mark there: two weak connections
/// across one square would be a crosscut, which Konobi forbids.
pub(super) fn draw_weak_connections(
    position: &Position,
    geometry: &BoardGeometry,
    buf: &mut Buffer,
    glyphs: &Glyphs,
    palette: &Palette,
) {
    let board = position.board();
    let [rising, falling] = marks(glyphs);
    let line = position.outcome().map(|o| o.line());
    for (low, high) in weak_connections(board) {
        let Some(color) = board.get(low) else {
            continue;
        };
        let (x, y) = geometry.cell(low);
        let (mark, x) = if high.col() > low.col() {
            (rising, x + 1)
        } else {
            (falling, x - 1)
        };
        put(buf, x, y, mark, palette.stone[color.index()]);
        if line.is_some_and(|l| l.contains(low) && l.contains(high)) {
            paint(buf, x, y, palette.chain);
        }
    }
}

/// The panel's line about weak connections.
pub(super) fn legend<'a>(glyphs: &Glyphs, palette: &Palette) -> Vec<Line<'a>> {
    let [rising, _] = marks(glyphs);
    let black = glyphs.stone[Color::Black.index()];
    vec![Line::from(vec![
        Span::styled(format!(" {black}{rising}{black} "), palette.stone[0]),
        Span::raw(" a weak connection"),
    ])]
}

#[cfg(test)]
mod tests {
    use crate::app::Look;
    use crate::app::tests::{played, press};
    use crate::render::Palette;
    use crate::render::tests::{draw_app, with_marks};
    use crate::rules::Game;

    #[test]
    fn weak_connections_are_drawn_between_their_stones() {
        // docs/rules.md: Black b3 is legal and connects weakly to c2.
        let moves = "a3 a4 e3 c4 c2 c3 c1 d1 b3";
        let mut app = played(Game::Konobi, Look::FULL, 5, false, moves);
        press(&mut app, "jj");
        insta::assert_snapshot!(draw_app(&mut app, 70, 20).backend());
        // In ASCII the mark is a backslash, between the grid's plus signs.
        let ascii = Look {
            ascii: true,
            color: false,
        };
        let mut app = played(Game::Konobi, ascii, 5, false, moves);
        let screen = format!("{:?}", draw_app(&mut app, 70, 20).backend());
        assert!(screen.contains(r#" 2 | +-+\X-+-+ | 2"#), "{screen}");
    }

    #[test]
    fn the_panel_and_a_refusal_give_konobi_s_reason_and_a_first_time_hint() {
        // docs/rules.md: b2 is illegal, a2 connects to a3 cleanly.
        let reason = "b2 would join a3 only corner to corner, but a2 would join a3 side by \
                      side: play a2, or elsewhere";
        let mut app = played(
            Game::Konobi,
            Look::FULL,
            5,
            false,
            "a3 a4 e3 c4 c2 c3 c1 d1",
        );
        press(&mut app, "hj");
        let screen = format!("{:?}", draw_app(&mut app, 100, 24).backend());
        assert!(
            screen.contains("b2: illegal: b2 would join a3 only corner"),
            "{screen}"
        );
        assert!(!screen.contains("Normal in Konobi"), "{screen}");
        press(&mut app, "\n");
        assert_eq!(
            app.message().map(|m| m.text.clone()),
            Some(format!("Black cannot play b2: {reason}."))
        );
        assert_eq!(app.current(), 8);
        // The first such refusal explains that it is normal; the panel shows it at 80×24.
        assert_eq!(app.tip(), Some(crate::app::KONOBI_TIP));
        let screen = draw_app(&mut app, 80, 24).backend().to_string();
        assert!(screen.contains("Normal in Konobi"), "{screen}");
        // Moving on clears it, and it never comes back.
        press(&mut app, "k\n");
        assert_eq!(app.current(), 9);
        assert_eq!(app.tip(), None);
        press(&mut app, "u");
        press(&mut app, "j\n");
        assert!(
            app.message()
                .is_some_and(|m| m.text.contains("cannot play b2"))
        );
        assert_eq!(app.tip(), None);
    }

    #[test]
    fn a_won_chain_is_highlighted_through_its_weak_links() {
        let moves = "a1 b5 b4 d4 b3 e4 d2 a5 e5 c4";
        let mut app = played(Game::Konobi, Look::FULL, 5, false, moves);
        let terminal = draw_app(&mut app, 70, 20);
        let chain = Palette::new(Look::FULL).chain;
        insta::assert_snapshot!(with_marks(&terminal, |s| s.bg == chain.bg));
    }
}
