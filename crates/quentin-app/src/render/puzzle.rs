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
