//! What the computer shows: the thinking panel (a progress bar of the time used, the playouts
//! so far, the best move and its win chance), the hint marked on the board, and the live
//! analysis (a win-chance bar beside the board, Black's share, and the top moves).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;

use crate::app::{App, Job, Look, Mode, chance, count};
use crate::rules::{Action, Color, Position};
use crate::search::{MoveReport, Proven, Report};

use super::{BoardGeometry, Palette, paint, put};
use crate::layout::CellGeometry;
use crate::wrap::wrap;

/// Columns the win-chance bar takes beside the board: the bar and a gap.
pub(super) const BAR_WIDTH: u16 = 2;

/// How many of the best moves the analysis lists.
const TOP_MOVES: usize = 3;

/// How many actions of a principal variation the analysis shows.
const PV_SHOWN: usize = 4;

/// Black's share of the win chance in `report`, a report on `position`; `None` before the
/// search has played enough playouts to give one.
fn black_share(position: &Position, report: &Report) -> Option<f64> {
    let win = match report.proven {
        Some(Proven::Win) => 1.0,
        Some(Proven::Loss) => 0.0,
        None => report.chance()?.clamp(0.0, 1.0),
    };
    Some(match position.to_move() {
        Some(Color::White) => 1.0 - win,
        _ => win,
    })
}

/// A count rounded to at most three figures: `9,999`, `216k`, `1.2M`, `34M`.
fn short_count(n: u64) -> String {
    match n {
        0..10_000 => count(n),
        10_000..1_000_000 => format!("{}k", n / 1000),
        1_000_000..10_000_000 => format!("{}.{}M", n / 1_000_000, n / 100_000 % 10),
        _ => format!("{}M", count(n / 1_000_000)),
    }
}

/// A bar `width` characters long, `done` of it (0 to 1) filled.
pub(super) fn progress(done: f64, width: usize, look: Look) -> String {
    let (full, empty) = if look.ascii {
        ('#', '-')
    } else {
        ('█', '░')
    };
    // Rounded to whole characters: the bar is a picture, not a measure.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let filled = ((done.clamp(0.0, 1.0) * width as f64).round() as usize).min(width);
    std::iter::repeat_n(full, filled)
        .chain(std::iter::repeat_n(empty, width - filled))
        .collect()
}

/// `text` in lines of at most `width` characters, in `style`.
fn wrapped<'a>(text: &str, width: usize, style: Style) -> Vec<Line<'a>> {
    wrap(text, width)
        .into_iter()
        .map(|line| Line::styled(line, style))
        .collect()
}

/// The panel's lines about the computer: its thinking, the hint, the analysis.
pub(super) fn lines<'a>(app: &App, width: usize, palette: &Palette) -> Vec<Line<'a>> {
    let mut out = Vec::new();
    let position = app.position();
    let bold = Style::new().add_modifier(Modifier::BOLD);
    if let Some((job, report)) = app.thinking()
        && job != Job::Analysis
    {
        let color = position.to_move().map_or("", Color::capitalised);
        let title = match job {
            Job::Move => format!("The computer ({}) is thinking...", app.versus().level),
            _ => format!("Looking for a hint for {color}..."),
        };
        out.extend(wrapped(&title, width, bold));
        let think = app.versus().think;
        let elapsed = report.map_or(0.0, |i| i.elapsed.as_secs_f64());
        let label = format!(" {elapsed:.1}/{think} s");
        let bar = width.saturating_sub(label.chars().count()).max(1);
        out.push(Line::from(format!(
            "{}{label}",
            progress(elapsed / think, bar, app.look())
        )));
        let best = match report.and_then(|i| i.best.map(|b| (b, i))) {
            Some((best, i)) if i.chance().is_none() && i.proven.is_none() => {
                format!("; best so far {best}")
            }
            Some((best, i)) => format!("; best so far {best}, {}", chance(i.chance(), i.proven)),
            None => String::new(),
        };
        let playouts = report.map_or(0, |i| i.playouts);
        let text = format!("{} playouts{best}", count(playouts));
        out.extend(wrapped(&text, width, Style::new()));
    }
    if let Some(hint) = app.suggestion() {
        let color = hint.color.capitalised();
        let text = match hint.win {
            Some(win) => format!(
                "Hint {}: {}, {} for {color}",
                hint_glyph(app.look()),
                hint.action,
                chance(Some(win), None)
            ),
            None => format!(
                "Hint for {color} {}: {}",
                hint_glyph(app.look()),
                hint.action
            ),
        };
        out.extend(wrapped(&text, width, palette.label_here));
    }
    if app.analysis_on() {
        out.extend(analysis_lines(app, width, palette));
    }
    out
}

/// The analysis: Black's win chance and playouts, then the best moves with their win chance
/// (for the side to move), visits and the start of their principal variations.
fn analysis_lines<'a>(app: &App, width: usize, palette: &Palette) -> Vec<Line<'a>> {
    let position = app.position();
    let bold = Style::new().add_modifier(Modifier::BOLD);
    if position.is_over() {
        return vec![Line::styled("Analysis: the game is over here", palette.dim)];
    }
    let Some(report) = app.report() else {
        return vec![Line::styled("Analysis: starting...", palette.dim)];
    };
    let black = black_share(position, report).map_or("…".to_string(), |b| {
        let percent = b * 100.0;
        format!("{percent:.0}%")
    });
    // The playouts in full where they fit on one line, else rounded (216k), so that a narrow
    // panel does not break the line before its last word.
    // The playouts the tree holds, those kept from earlier searches too: an action's visits
    // never exceed them.
    let playouts = report.tree_playouts();
    let forms = [count(playouts), short_count(playouts)]
        .map(|n| format!("Analysis: Black {black}, {n} playouts"));
    let text = forms
        .iter()
        .find(|text| text.chars().count() <= width)
        .unwrap_or(&forms[1]);
    let mut out = wrapped(text, width, bold);
    let mover = position.to_move().map_or("", Color::capitalised);
    out.push(Line::styled(
        format!("Best for {mover}: win, visits, line"),
        palette.dim,
    ));
    // Columns as wide as their widest entry (a Quint step, "a proven win"), never run together.
    let shown: Vec<_> = report.moves.iter().take(TOP_MOVES).collect();
    let widest = |f: &dyn Fn(&&MoveReport) -> usize, least: usize| {
        shown.iter().map(f).max().unwrap_or(0).max(least)
    };
    let action_w = widest(&|m| m.action.to_string().chars().count(), 4);
    let chance_w = widest(&|m| chance(m.chance(), m.proven).chars().count(), 4);
    for m in shown {
        let pv: Vec<String> = m.pv.iter().take(PV_SHOWN).map(Action::to_string).collect();
        let text = format!(
            "{:<action_w$} {:>chance_w$} {:>7}  {}",
            m.action.to_string(),
            chance(m.chance(), m.proven),
            count(m.visits),
            pv.join(" ")
        );
        out.push(Line::from(text.chars().take(width).collect::<String>()));
    }
    out
}

/// The win-chance bar in `area` (its first column): Black's share from the bottom, White's
/// above it, like the evaluation bar of a chess program.
pub(super) fn draw_bar(app: &App, area: Rect, buf: &mut Buffer, palette: &Palette) {
    let position = app.position();
    // Over, the game has its result to show: all Black's, all White's, or half each for a draw.
    let share = match position.outcome() {
        Some(outcome) => Some(match outcome.winner() {
            Some(Color::Black) => 1.0,
            Some(Color::White) => 0.0,
            None => 0.5,
        }),
        None => app
            .report()
            .and_then(|report| black_share(position, report)),
    };
    let Some(black) = share else {
        // The search has not reported yet, or not played enough playouts to give a chance.
        let rule = if app.look().ascii { "|" } else { "│" };
        for y in area.y..area.y + area.height {
            put(buf, area.x, y, rule, palette.dim);
        }
        return;
    };
    let look = app.look();
    let eighths = if look.ascii {
        ["#"; 8]
    } else {
        ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    };
    let (black_style, white_style) = if look.color {
        (
            Style::new().fg(paint::BLACK).bg(paint::WHITE),
            Style::new().bg(paint::WHITE),
        )
    } else {
        (Style::new(), Style::new())
    };
    let height = f64::from(area.height);
    // Black's share in eighths of a row, from the bottom.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let filled = (black * height * 8.0).round() as u32;
    for row in 0..area.height {
        let y = area.y + area.height - 1 - row;
        let here = filled.saturating_sub(u32::from(row) * 8).min(8);
        let glyph = match here {
            0 if look.color => " ",
            0 => {
                if look.ascii {
                    "."
                } else {
                    "░"
                }
            }
            n => eighths[(n - 1) as usize],
        };
        let style = if here == 0 { white_style } else { black_style };
        put(buf, area.x, y, glyph, style);
    }
}

/// The live analysis's best moves numbered on the board, 1 the most searched, as the panel
/// lists them: placements only (a swap or a pass has no point).
pub(super) fn draw_candidates(
    app: &App,
    geometry: &BoardGeometry,
    buf: &mut Buffer,
    palette: &Palette,
) {
    let position = app.position();
    if !app.analysis_on() || position.is_over() {
        return;
    }
    let Some(report) = app.report() else {
        return;
    };
    for (rank, m) in report.moves.iter().take(TOP_MOVES).enumerate() {
        if let Action::Place(p) = m.action {
            let (x, y) = geometry.cell(p);
            let digit = (rank + 1).to_string();
            put(buf, x, y, &digit, palette.label_here.patch(palette.wood));
        }
    }
}

/// The glyph of the hint on the board: a full diamond.
pub(super) fn hint_glyph(look: Look) -> &'static str {
    if look.ascii { "*" } else { "◆" }
}

/// The glyph of the review's best action on the board: an open diamond, apart from the hint's.
pub(super) fn review_glyph(look: Look) -> &'static str {
    if look.ascii { "+" } else { "◇" }
}

/// The actions to mark on the board, each with its glyph: the review's best action of the shown
/// position, then the hint for it (drawn last, so that where both fall on one point the hint's
/// shows); none while the computer thinks of its move.
fn marked_actions(app: &App) -> Vec<(Action, &'static str)> {
    if app.mode() == Mode::Play && app.computer_to_move() {
        return Vec::new();
    }
    let look = app.look();
    let review = app
        .reviewed_here()
        .and_then(|r| r.best)
        .map(|a| (a, review_glyph(look)));
    let hint = app.suggestion().map(|h| (h.action, hint_glyph(look)));
    review.into_iter().chain(hint).collect()
}

/// The hint (a full diamond) and the review's best action (an open one) marked on the board,
/// in the highlight colour.
pub(super) fn draw_hint(app: &App, geometry: &BoardGeometry, buf: &mut Buffer, palette: &Palette) {
    for (action, glyph) in marked_actions(app) {
        for p in action.points() {
            let (x, y) = geometry.cell(p);
            put(buf, x, y, glyph, palette.label_here.patch(palette.wood));
        }
    }
}

/// Quint's hint (or the review's best action) marked on its cells: a drop's cell, or a step's
/// piece and the cell it goes to, with the hint's diamond (beside the piece, which keeps its
/// colour).
pub(super) fn draw_quint_hint(
    app: &App,
    cells: &CellGeometry,
    buf: &mut Buffer,
    palette: &Palette,
) {
    let style = palette.label_here.patch(palette.wood);
    for (action, glyph) in marked_actions(app) {
        match action {
            Action::Place(to) => {
                let (x, y) = cells.cell(to);
                put(buf, x, y, glyph, style);
            }
            Action::Step { from, to, .. } => {
                let (x, y) = cells.cell(from);
                put(buf, x + 1, y, glyph, style);
                let (x, y) = cells.cell(to);
                put(buf, x, y, glyph, style);
            }
            Action::Swap | Action::Pass => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use crate::app::computer::tests::{answer, press_with, report, tick, versus_with};
    use crate::app::{App, Effect, Look};
    use crate::render::tests::draw_app;
    use crate::search_handle::fake::Script;

    /// A 13×13 game of Quentin after `moves`, the computer playing `computer`.
    fn thirteen(moves: &str, computer: [bool; 2]) -> (App, Arc<Mutex<Script>>) {
        thirteen_with(Look::FULL, moves, computer)
    }

    /// [`thirteen`], drawn with `look`.
    fn thirteen_with(look: Look, moves: &str, computer: [bool; 2]) -> (App, Arc<Mutex<Script>>) {
        let (mut app, script) = versus_with(look, 13, true, computer);
        for token in moves.split_whitespace() {
            let action = crate::rules::Action::parse(token).unwrap();
            let p = action.point().unwrap();
            // Walk the cursor there and play, as a person would.
            let c = app.cursor();
            let keys: String = std::iter::repeat_n('l', p.col().saturating_sub(c.col()))
                .chain(std::iter::repeat_n('h', c.col().saturating_sub(p.col())))
                .chain(std::iter::repeat_n('k', p.row().saturating_sub(c.row())))
                .chain(std::iter::repeat_n('j', c.row().saturating_sub(p.row())))
                .chain(std::iter::once('\n'))
                .collect();
            press_with(&mut app, &script, &keys);
            assert_eq!(app.actions().last(), Some(&action), "{:?}", app.message());
        }
        (app, script)
    }

    #[test]
    fn the_thinking_panel_shows_time_playouts_and_the_best_move_so_far() {
        let (mut app, script) = thirteen("g7", [false, true]);
        assert_eq!(tick(&mut app, &script), Effect::None);
        answer(&script, report("f6", 0.61, 48_210, 1200, &[]), false);
        assert_eq!(tick(&mut app, &script), Effect::None);
        press_with(&mut app, &script, "l\n");
        let terminal = draw_app(&mut app, 80, 24);
        let screen = format!("{}", terminal.backend());
        assert!(screen.contains("is thinking: wait"), "{screen}");
        insta::assert_snapshot!(terminal.backend());
    }

    #[test]
    fn a_hint_is_marked_on_the_board_with_its_win_chance() {
        let (mut app, script) = thirteen("g7 h8", [false, false]);
        press_with(&mut app, &script, "t");
        assert_eq!(tick(&mut app, &script), Effect::None);
        answer(&script, report("f6", 0.54, 9_000, 2000, &[]), true);
        assert_eq!(tick(&mut app, &script), Effect::None);
        let terminal = draw_app(&mut app, 80, 24);
        insta::assert_snapshot!(terminal.backend());
    }

    #[test]
    fn the_analysis_bar_is_blacks_share_beside_the_board() {
        let (mut app, script) = thirteen("g7 h8 g6", [false, false]);
        press_with(&mut app, &script, "a");
        assert_eq!(tick(&mut app, &script), Effect::None);
        // White to move, 30% for White: Black's share is 70%.
        answer(
            &script,
            report("f6", 0.3, 123_456, 900, &["f8", "h6"]),
            false,
        );
        assert_eq!(tick(&mut app, &script), Effect::None);
        let terminal = draw_app(&mut app, 80, 24);
        let screen = format!("{}", terminal.backend());
        assert!(
            screen.contains("Analysis: Black 70%, 123,456 playouts"),
            "{screen}"
        );
        insta::assert_snapshot!(terminal.backend());
    }

    #[test]
    fn counts_shorten_to_three_figures() {
        use super::short_count;
        assert_eq!(short_count(9_999), "9,999");
        assert_eq!(short_count(216_415), "216k");
        assert_eq!(short_count(1_234_567), "1.2M");
        assert_eq!(short_count(34_500_000), "34M");
        assert_eq!(short_count(1_234_000_000), "1,234M");
    }

    #[test]
    fn brique_fits_80x24_with_the_analysis_on() {
        use crate::app::Versus;
        use crate::app::tests::played;
        use crate::rules::Game;
        // 15×15 squares leave the panel 35 columns: "216,415 playouts" would not fit on the
        // analysis line and "playouts" would wrap alone.
        let moves = "h8 i8 g7 h6 i10 f9 j7";
        let mut app = played(Game::Brique, Look::FULL, 15, true, moves);
        app.set_computer(Versus::PEOPLE);
        let script = Arc::new(Mutex::new(Script::default()));
        press_with(&mut app, &script, "a");
        assert_eq!(tick(&mut app, &script), Effect::None);
        answer(
            &script,
            report("h7", 0.49, 216_415, 900, &["g6", "h11"]),
            false,
        );
        assert_eq!(tick(&mut app, &script), Effect::None);
        let terminal = draw_app(&mut app, 80, 24);
        let screen = format!("{}", terminal.backend());
        let lines: Vec<&str> = screen.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.contains("Analysis: Black 51%, 216k playouts"))
            .unwrap_or_else(|| panic!("{screen}"));
        assert!(lines[at + 1].contains("Best for White"), "{screen}");
        insta::assert_snapshot!(terminal.backend());
    }

    #[test]
    fn after_a_win_the_bar_shows_the_result_not_an_empty_rule() {
        use crate::app::Versus;
        // Black joins top and bottom on 5×5: b1 b2 b3 b4 b5, White elsewhere.
        let mut app = crate::app::tests::after(5, false, "c1 a1 c2 a2 c3 a3 c4 a4 c5");
        assert!(app.position().is_over());
        app.set_computer(Versus::PEOPLE);
        let script = Arc::new(Mutex::new(Script::default()));
        press_with(&mut app, &script, "a");
        assert_eq!(tick(&mut app, &script), Effect::None);
        let terminal = draw_app(&mut app, 80, 24);
        let buffer = terminal.backend().buffer();
        // The bar's column, two left of the board's row labels: all Black's share.
        let column: Vec<String> = (0..24)
            .map(|y| {
                (0..80)
                    .map(|x| buffer[(x, y)].symbol().to_string())
                    .collect::<String>()
            })
            .collect();
        let bars = column.iter().filter(|row| row.contains('█')).count();
        assert!(bars >= 5, "{column:#?}");
        // Nothing in the bar's column but the bar: no bare rule left where it was.
        let x = column
            .iter()
            .find_map(|row| row.chars().position(|c| c == '█'))
            .unwrap();
        for row in &column {
            let c = row.chars().nth(x).unwrap();
            assert!(
                c == '█' || c == ' ',
                "{c:?} in the bar's column: {column:#?}"
            );
        }
    }

    #[test]
    fn quints_hint_marks_the_piece_and_the_cell_it_goes_to() {
        use crate::app::Versus;
        use crate::app::quint::tests::{THREE_CAPTURES, quint_app};
        use crate::rules::Color;
        let mut app = quint_app(THREE_CAPTURES, Color::White, Look::FULL);
        app.set_computer(Versus::PEOPLE);
        let script = Arc::new(Mutex::new(Script::default()));
        let before = format!("{}", draw_app(&mut app, 80, 24).backend());
        assert!(!before.contains('◆'), "{before}");
        press_with(&mut app, &script, "t");
        assert_eq!(tick(&mut app, &script), Effect::None);
        answer(&script, report("c4-c5xb5", 0.7, 5_000, 2000, &[]), true);
        assert_eq!(tick(&mut app, &script), Effect::None);
        let screen = format!("{}", draw_app(&mut app, 80, 24).backend());
        assert!(screen.contains("Hint for White: c4-c5xb5"), "{screen}");
        // Beside the piece on c4, and on the empty c5.
        let board: Vec<&str> = screen.lines().collect();
        // The board's columns only: the panel beside it names the hint's glyph.
        let marked = board
            .iter()
            .filter(|row| row.chars().take(38).any(|c| c == '◆'))
            .count();
        assert_eq!(marked, 2, "{screen}");
        assert!(board.iter().any(|row| row.contains("○◆")), "{screen}");
    }

    #[test]
    fn quint_rows_keep_their_columns_apart() {
        use crate::app::Versus;
        use crate::app::quint::tests::{THREE_CAPTURES, quint_app};
        use crate::rules::Color;
        use crate::search::Proven;
        let mut app = quint_app(THREE_CAPTURES, Color::White, Look::FULL);
        app.set_computer(Versus::PEOPLE);
        let script = Arc::new(Mutex::new(Script::default()));
        press_with(&mut app, &script, "a");
        assert_eq!(tick(&mut app, &script), Effect::None);
        let mut found = report("c4-c5xb5", 0.9, 5_000, 300, &["a5-a6"]);
        found.moves[0].proven = Some(Proven::Win);
        answer(&script, found, false);
        assert_eq!(tick(&mut app, &script), Effect::None);
        let terminal = draw_app(&mut app, 100, 30);
        let screen = format!("{}", terminal.backend());
        assert!(screen.contains("c4-c5xb5 a proven win"), "{screen}");
        assert!(screen.contains("a5-a6             85%   1,000"), "{screen}");
    }

    #[test]
    fn the_analysis_draws_at_every_window_size_without_panicking() {
        let (mut app, script) = thirteen("g7 h8 g6", [false, false]);
        press_with(&mut app, &script, "a");
        assert_eq!(tick(&mut app, &script), Effect::None);
        answer(&script, report("f6", 0.97, 10, 900, &["f8", "h6"]), false);
        assert_eq!(tick(&mut app, &script), Effect::None);
        for width in (0..110).step_by(3) {
            for height in 0..36 {
                let area = ratatui::layout::Rect::new(0, 0, width, height);
                let mut buf = ratatui::buffer::Buffer::empty(area);
                let _ = crate::render::draw(&app, area, &mut buf);
            }
        }
    }

    #[test]
    fn in_ascii_the_computer_draws_only_ascii() {
        let look = Look {
            ascii: true,
            color: false,
        };
        // The computer thinking.
        let (mut thinking, script) = thirteen_with(look, "g7", [false, true]);
        assert_eq!(tick(&mut thinking, &script), Effect::None);
        answer(&script, report("f6", 0.61, 48_210, 1200, &[]), false);
        assert_eq!(tick(&mut thinking, &script), Effect::None);
        // A hint found, then the analysis under way.
        let (mut analysing, script) = thirteen_with(look, "g7 h8", [false, false]);
        press_with(&mut analysing, &script, "t");
        assert_eq!(tick(&mut analysing, &script), Effect::None);
        answer(&script, report("f6", 0.54, 9_000, 2000, &[]), true);
        assert_eq!(tick(&mut analysing, &script), Effect::None);
        press_with(&mut analysing, &script, "a");
        assert_eq!(tick(&mut analysing, &script), Effect::None);
        answer(
            &script,
            report("f6", 0.54, 9_000, 300, &["f8", "h6"]),
            false,
        );
        assert_eq!(tick(&mut analysing, &script), Effect::None);
        for mut app in [thinking, analysing] {
            let terminal = draw_app(&mut app, 80, 24);
            let screen = format!("{}", terminal.backend());
            assert!(screen.contains(" playouts"), "{screen}");
            for cell in terminal.backend().buffer().content() {
                assert!(cell.symbol().is_ascii(), "{:?}\n{screen}", cell.symbol());
            }
        }
    }
}
