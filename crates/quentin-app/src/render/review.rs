//! The review of a game on the screen: its progress in the panel, the win-chance graph of the
//! whole game under the board (Black's share against the action number, the shown action
//! marked), the marks beside the action list and the best action of the shown position.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::symbols::Marker;
use ratatui::text::Line;
use ratatui::widgets::{Axis, Block, Borders, Chart, Dataset, GraphType, Widget};

use crate::app::{App, chance};
use crate::record::quote;
use crate::review_words::summary_line;
use crate::search::review::Mark;
use crate::wrap::wrap;

use super::Palette;
use super::analysis::progress;

/// The fewest rows the graph is drawn in: its frame, a few rows of curve and the axis.
pub(super) const CHART_MIN_HEIGHT: u16 = 7;
/// The columns it takes, at least, when the window has them.
pub(super) const CHART_WIDTH: u16 = 34;
/// The most rows it takes.
pub(super) const CHART_MAX_HEIGHT: u16 = 11;

/// The sign of a mark beside an action, as chess writes them.
#[must_use]
pub(super) fn sign(mark: Mark) -> &'static str {
    mark.sign()
}

/// The panel's lines about the review: its progress while under way; once done, the best
/// action of the shown position and what the action played there lost.
pub(super) fn lines<'a>(app: &App, width: usize, palette: &Palette) -> Vec<Line<'a>> {
    let mut out = Vec::new();
    if let Some((done, total)) = app.review_progress() {
        let bold = ratatui::style::Style::new().add_modifier(Modifier::BOLD);
        out.push(Line::styled("Reviewing the game...", bold));
        let label = format!(" {done}/{total}");
        let bar = width.saturating_sub(label.chars().count()).max(1);
        #[allow(clippy::cast_precision_loss)]
        let share = done as f64 / total.max(1) as f64;
        out.push(Line::from(format!(
            "{}{label}",
            progress(share, bar, app.look())
        )));
    }
    if let Some(here) = app.reviewed_here() {
        let color = here.colour.capitalised();
        if let Some(best) = here.best {
            let glyph = super::analysis::review_glyph(app.look());
            out.push(Line::styled(
                format!(
                    "Best here {glyph}: {best}, {} for {color}",
                    chance(here.best_win, None)
                ),
                palette.label_here,
            ));
        }
        // Every action says what it lost, marked or not.
        let lost = match here.loss() {
            Some(loss) => format!(
                "lost {:.0}% ({} → {})",
                loss * 100.0,
                chance(here.win_before, None),
                chance(here.win_after, None)
            ),
            None => "loss not known (too few playouts)".to_string(),
        };
        let played = match here.mark {
            Some(mark) => format!("Played {}: {}, {lost}", here.action, mark.name()),
            None => format!("Played {}: {lost}", here.action),
        };
        out.push(Line::styled(played, palette.dim));
    }
    if let Some(why) = app.why_here() {
        let line: Vec<String> = why.line.iter().map(ToString::to_string).collect();
        let mut text = format!("Why: {} (w steps through it)", line.join(" "));
        if let Some(proof) = why.proof {
            text = format!("{proof}. {text}");
        }
        out.extend(wrap(&text, width).into_iter().take(3).map(Line::from));
    }
    if let Some(review) = app.game_review()
        && app.variation().is_none()
    {
        for (i, s) in review.summary.iter().enumerate() {
            let name = app.players()[i].as_deref().map(quote);
            let text = summary_line(i + 1, name.as_deref(), s);
            out.extend(
                wrap(&text, width)
                    .into_iter()
                    .take(3)
                    .map(|l| Line::styled(l, palette.dim)),
            );
        }
    }
    out
}

/// The graph of Black's win chance after each action of the reviewed game, in `area`, the
/// shown action marked with a vertical line.
pub(super) fn draw_chart(app: &App, area: Rect, buf: &mut Buffer, palette: &Palette) {
    let Some(review) = app.game_review() else {
        return;
    };
    #[allow(clippy::cast_precision_loss)]
    let points: Vec<(f64, f64)> = review
        .black_chances()
        .into_iter()
        .map(|(n, c)| (n as f64, c))
        .collect();
    let last = review.actions.len().max(1);
    #[allow(clippy::cast_precision_loss)]
    let here = app.current() as f64;
    let shown = [(here, 0.0), (here, 1.0)];
    let even: Vec<(f64, f64)> = vec![(0.0, 0.5), (last as f64, 0.5)];
    let marker = if app.look().ascii {
        Marker::Custom('*')
    } else {
        Marker::Braille
    };
    let datasets = vec![
        Dataset::default()
            .marker(marker)
            .graph_type(GraphType::Line)
            .style(palette.dim)
            .data(&even),
        Dataset::default()
            .marker(marker)
            .graph_type(GraphType::Line)
            .style(palette.label_here)
            .data(&shown),
        Dataset::default()
            .marker(marker)
            .graph_type(GraphType::Line)
            .data(&points),
    ];
    let chart = Chart::new(datasets)
        .block(
            Block::new()
                .borders(Borders::TOP)
                .title(format!(" Black's chance, action {} ", app.current())),
        )
        .x_axis(
            Axis::default()
                .bounds([0.0, last as f64])
                .labels(["0".to_string(), last.to_string()]),
        )
        .y_axis(
            Axis::default()
                .bounds([0.0, 1.0])
                .labels(["0%", "50%", "100%"]),
        );
    chart.render(area, buf);
}
