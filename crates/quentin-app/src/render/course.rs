//! The panel's lines of a course level: the game's course and its stage, the level's title,
//! its idea and goal, its par, and the stars once solved; the points a `legal` level names,
//! marked on the board.

use ratatui::buffer::Buffer;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;

use crate::app::{App, LevelState};
use crate::layout::{BoardGeometry, CellGeometry};
use crate::wrap::wrap;

use super::Palette;

/// The points a `legal` level asks about, drawn in the highlight colour (the goal names them
/// too, for a board drawn without colours).
pub(super) fn draw_points(
    app: &App,
    board: Option<&BoardGeometry>,
    cells: Option<&CellGeometry>,
    buf: &mut Buffer,
    palette: &Palette,
) {
    super::highlight(
        app.level_points().iter().copied(),
        board,
        cells,
        buf,
        palette,
    );
}

/// The lines, when the app shows a level of the course.
pub(super) fn lines<'a>(app: &App, width: usize, palette: &Palette) -> Vec<Line<'a>> {
    let (Some((level, (n, count), stages)), Some(state)) = (app.course_shown(), app.level_state())
    else {
        return Vec::new();
    };
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let mut lines = Vec::new();
    let head = format!(
        "Learn {}: stage {} of {stages}, {}",
        level.game.title(),
        level.stage,
        level.stage_title
    );
    lines.extend(wrap(&head, width).into_iter().take(2).map(Line::from));
    lines.push(Line::from(format!(
        "Level {n} of {count}: {} (par {})",
        level.title, level.par
    )));
    if let Some(say) = &level.say {
        lines.extend(wrap(say, width).into_iter().take(4).map(Line::from));
    }
    lines.extend(
        wrap(&format!("Goal: {}", level.goal), width)
            .into_iter()
            .take(3)
            .map(|l| Line::styled(l, bold)),
    );
    match state {
        LevelState::Solving | LevelState::Handoff => {}
        LevelState::Wrong => lines.push(Line::styled("Not yet", palette.refusal)),
        LevelState::Done(stars) => lines.push(Line::styled(
            format!("Solved {}", "*".repeat(usize::from(stars))),
            palette.banner,
        )),
    }
    lines
}
