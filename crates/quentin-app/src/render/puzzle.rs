//! The panel's lines of a puzzle: which one and its rating, what to achieve, the player's
//! rating and streak, and whether it is solved or failed.

use ratatui::style::{Modifier, Style};
use ratatui::text::Line;

use crate::app::{App, PuzzleState};
use crate::wrap::wrap;

use super::Palette;

/// The lines, when the app shows a puzzle.
pub(super) fn lines<'a>(app: &App, width: usize, palette: &Palette) -> Vec<Line<'a>> {
    let (Some(puzzle), Some(goal), Some(state)) =
        (app.puzzle_shown(), app.puzzle_goal(), app.puzzle_state())
    else {
        return Vec::new();
    };
    let mut lines = vec![Line::from(format!(
        "Puzzle {} (rated {})",
        puzzle.id, puzzle.rating
    ))];
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
    use crate::app::Standing;
    use crate::app::puzzle::tests::{act, win_in_2};
    use crate::render::tests::draw_app;

    #[test]
    fn a_puzzle_shows_its_goal_and_the_players_rating() {
        let mut app = win_in_2();
        app.set_standing(Standing {
            rating: "1500?".into(),
            change: None,
            streak: 0,
        });
        let terminal = draw_app(&mut app, 80, 24);
        insta::assert_snapshot!(terminal.backend());
    }

    #[test]
    fn a_wrong_move_shows_the_refutation_and_the_rating_change() {
        let mut app = win_in_2();
        act(&mut app, "e3");
        app.set_standing(Standing {
            rating: "1385?".into(),
            change: Some("-115".into()),
            streak: 0,
        });
        let terminal = draw_app(&mut app, 80, 24);
        insta::assert_snapshot!(terminal.backend());
    }
}
