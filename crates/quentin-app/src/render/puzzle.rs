//! The panel's lines of a puzzle: which one and its rating, what to achieve, the player's
//! rating and streak, and whether it is solved or failed.

use ratatui::buffer::Buffer;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;

use crate::app::{App, PuzzleState};
use crate::layout::{BoardGeometry, CellGeometry};
use crate::rules::Point;
use crate::wrap::wrap;

use super::Palette;

/// The area of a hint marked on the board: its empty points drawn in the highlight colour
/// (the panel's message names the area too, for a board drawn without colours).
pub(super) fn draw_area(
    app: &App,
    board: Option<&BoardGeometry>,
    cells: Option<&CellGeometry>,
    buf: &mut Buffer,
    palette: &Palette,
) {
    let Some((low, high)) = app.puzzle_area() else {
        return;
    };
    let stones = app.position().board();
    let empty = (low.col()..=high.col())
        .flat_map(|col| (low.row()..=high.row()).map(move |row| Point::new(col, row)))
        .filter(|&p| stones.get(p).is_none());
    super::highlight(empty, board, cells, buf, palette);
}

/// The lines, when the app shows a puzzle.
pub(super) fn lines<'a>(app: &App, width: usize, palette: &Palette) -> Vec<Line<'a>> {
    let (Some(puzzle), Some(goal), Some(state)) =
        (app.puzzle_shown(), app.puzzle_goal(), app.puzzle_state())
    else {
        return Vec::new();
    };
    let title = if puzzle.id.starts_with(crate::mistakes::ID_PREFIX) {
        format!("Exercise {} (unrated)", puzzle.id)
    } else {
        format!("Puzzle {} (rated {})", puzzle.id, puzzle.rating)
    };
    let mut lines = vec![Line::from(title)];
    let bold = Style::new().add_modifier(Modifier::BOLD);
    lines.extend(
        wrap(&goal, width)
            .into_iter()
            .take(2)
            .map(|l| Line::styled(l, bold)),
    );
    if let Some(standing) = app.standing() {
        let change = standing
            .change
            .as_ref()
            .map(|c| format!(" ({c})"))
            .unwrap_or_default();
        lines.push(Line::from(format!(
            "Your rating {}{change}, streak {}",
            standing.rating, standing.streak
        )));
        if let Some(way) = &standing.way {
            lines.push(Line::styled(way.clone(), bold));
        }
    }
    match state {
        PuzzleState::Solving => {}
        PuzzleState::Solved => lines.push(Line::styled("Solved", palette.banner)),
        PuzzleState::Failed => lines.push(Line::styled("Failed", palette.refusal)),
    }
    lines
}

#[cfg(test)]
mod tests {
    use crate::app::Look;
    use crate::app::PuzzleStanding;
    use crate::app::puzzle::tests::{act, win_in_2};
    use crate::app::tests::press;
    use crate::render::Palette;
    use crate::render::tests::{draw_app, with_marks};

    #[test]
    fn a_puzzle_shows_its_goal_and_the_players_rating() {
        let mut app = win_in_2();
        app.set_standing(PuzzleStanding {
            rating: "1500?".into(),
            change: None,
            streak: 0,
            way: None,
        });
        let terminal = draw_app(&mut app, 80, 24);
        insta::assert_snapshot!(terminal.backend());
    }

    #[test]
    fn a_wrong_move_shows_the_refutation_and_the_rating_change() {
        let mut app = win_in_2();
        act(&mut app, "e3");
        app.set_standing(PuzzleStanding {
            rating: "1385?".into(),
            change: Some("-115".into()),
            streak: 0,
            way: None,
        });
        let terminal = draw_app(&mut app, 80, 24);
        insta::assert_snapshot!(terminal.backend());
    }

    #[test]
    fn a_first_hint_marks_the_area_of_the_move_on_the_board() {
        let mut app = win_in_2();
        press(&mut app, "t");
        let terminal = draw_app(&mut app, 80, 24);
        let palette = Palette::new(Look::FULL);
        let marked = palette.label_here.patch(palette.wood);
        insta::assert_snapshot!(with_marks(&terminal, |s| s.fg == marked.fg && s.bg == marked.bg));
    }
}
