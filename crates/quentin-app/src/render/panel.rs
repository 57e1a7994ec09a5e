//! The side panel: whose turn, what the cursor's point would do, the last message, the list of
//! actions and a legend.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Padding, Paragraph, Widget};

use crate::rules::{Action, Board, Color, Ending, Game, Point, Position};

use crate::app::{
    App, Mode, Online, PuzzleState, Tone, dimensions, player_of, refusal_text, removals_text,
    wins_text,
};

use super::{BoardStyle, Glyphs, Palette, analysis, konobi, quint, squares, stone};
use crate::wrap::wrap;

/// Whether a placement played so far filled points besides its own (Quentin's regions,
/// Brique's escorts): the list then shows `+N`, and the legend says what it means.
fn filled_any(app: &App) -> bool {
    matches!(app.setup().game, Game::Quentin | Game::Brique)
        && (0..app.current()).any(|i| {
            let (before, after) = (app.position_at(i), app.position_at(i + 1));
            matches!(app.actions()[i], Action::Place(_))
                && differences(before.board(), after.board()) > 1
        })
}

/// How many points differ between two boards.
fn differences(a: &Board, b: &Board) -> usize {
    a.points().filter(|&p| a.get(p) != b.get(p)).count()
}

/// The points that a placement at `at` filled besides its own, from `before` to `after`, by
/// colour: those that hold a stone of a colour they did not hold (Brique's removed enemy stone
/// filled, too); Black's first, each colour only when it filled some.
fn fills(before: &Board, after: &Board, at: Point) -> Vec<(Color, usize)> {
    let mut filled = [0usize; 2];
    for p in after.points() {
        if let Some(color) = after.get(p)
            && before.get(p) != Some(color)
            && p != at
        {
            filled[color.index()] += 1;
        }
    }
    [Color::Black, Color::White]
        .into_iter()
        .filter(|c| filled[c.index()] > 0)
        .map(|c| (c, filled[c.index()]))
        .collect()
}

/// The side panel: who is to move, the action number, what the cursor's point would do, the
/// last message, the list of actions and a legend. Returns how many actions the list showed.
pub(super) fn draw_panel(
    app: &App,
    area: Rect,
    buf: &mut Buffer,
    glyphs: &Glyphs,
    palette: &Palette,
) -> usize {
    let setup = app.setup();
    let look = app.look();
    let options = if setup.game.piece_options().is_empty() {
        format!(
            " {}, pie rule {}",
            dimensions(setup.size, look),
            if setup.pie { "on" } else { "off" }
        )
    } else {
        format!(", {} pieces each", setup.pieces)
    };
    let title = format!(
        " {}{}{options} ",
        if app.mode() == Mode::Replay {
            "Replay: "
        } else {
            ""
        },
        setup.game.title(),
    );
    let block = Block::new()
        .borders(Borders::ALL)
        .border_set(glyphs.border)
        .padding(Padding::horizontal(1))
        .title(title);
    let inner = block.inner(area);
    block.render(area, buf);
    let top = panel_status(app, usize::from(inner.width), glyphs, palette);
    let height = usize::from(inner.height);
    // The legend keeps a blank line above it, apart from the list of actions; it goes when
    // there is no room for it and at least one action.
    // The line that explains the list's `+N` goes first when room is short.
    let (mut footer, fills_line) = legend(app, glyphs, palette);
    if let Some(at) = fills_line
        && top.len() + 3 + footer.len() > height
    {
        footer.remove(at);
    }
    if top.len() + 3 + footer.len() <= height {
        footer.insert(0, Line::default());
    } else {
        footer.clear();
    }
    let rows = height.saturating_sub(top.len() + footer.len() + 1);
    let mut lines = top;
    // A course level's or a puzzle's setup is the position given, not anybody's moves.
    let given = app.given();
    lines.push(Line::styled(
        if given > 0 {
            "Actions from the position given"
        } else {
            "Actions"
        },
        Style::new().add_modifier(Modifier::BOLD),
    ));
    let first = app.list_top(rows);
    let shown = app.actions().len().min(first + rows);
    for i in first..shown {
        lines.push(action_line(app, i, glyphs, palette));
    }
    if app.actions().len() <= given {
        lines.push(Line::styled("none yet", palette.dim));
    }
    let used = lines.len();
    lines.extend((used..height.saturating_sub(footer.len())).map(|_| Line::default()));
    lines.extend(footer);
    Paragraph::new(lines).render(inner, buf);
    rows
}

/// The top of the panel: who is to move (or the winner's banner), the action number, the swap
/// when offered, what the cursor's point would do and the last message.
fn panel_status<'a>(app: &App, width: usize, glyphs: &Glyphs, palette: &Palette) -> Vec<Line<'a>> {
    let position = app.position();
    let mut top: Vec<Line> = banner(app, width, glyphs, palette);
    let counter = counter(app);
    top.push(Line::from(counter));
    top.extend(super::online::lines(app, width, glyphs, palette));
    top.extend(super::puzzle::lines(app, width, palette));
    top.extend(super::course::lines(app, width, palette));
    if app.mode() == Mode::Replay {
        for (i, text) in app.players().iter().enumerate() {
            if let Some(text) = text {
                let line = format!("Player {}: {text}", i + 1);
                top.extend(wrap(&line, width).into_iter().take(2).map(Line::from));
            }
        }
    }
    top.extend(analysis::lines(app, width, palette));
    top.extend(super::review::lines(app, width, palette));
    if position.game() == Game::Quint {
        top.extend(quint::pieces_lines(position));
    }
    if app.may_act() && position.is_legal(Action::Swap) {
        top.push(Line::styled(
            "s swaps colours (pie rule)",
            palette.label_here,
        ));
    }
    top.extend(cursor_lines(app, width, palette));
    top.extend(notes(app, width, palette));
    top.push(Line::default());
    top
}

/// The panel's first line: the game's end (an online game's from the viewer's side), or who is
/// to move.
fn banner<'a>(app: &App, width: usize, glyphs: &Glyphs, palette: &Palette) -> Vec<Line<'a>> {
    let position = app.position();
    let mut top: Vec<Line> = Vec::new();
    let ending = position.outcome().map(|o| (o.winner(), o.ending()));
    let online_end = app.online_state().and_then(super::online::banner);
    match (ending, position.to_move()) {
        // An online game's end, from the viewer's side, whether on the board or not.
        _ if online_end.is_some() => {
            for (i, text) in online_end.into_iter().flatten().enumerate() {
                // The result in stars (none for the loser), the rating change under it.
                let lost = app.online_state().is_some_and(Online::viewer_lost);
                let text = if i == 0 && !lost {
                    format!("{}{text}{}", glyphs.win[0], glyphs.win[1])
                } else {
                    text
                };
                top.push(Line::styled(format!("{text:^width$}"), palette.banner));
            }
        }
        (Some((Some(winner), _)), _) => {
            let versus = app.versus();
            let who = player_of(position, winner);
            let text = if versus.against_one_person() && app.mode() == Mode::Play {
                if versus.plays(who) {
                    // No stars for the loser.
                    format!("The computer wins ({})", winner.capitalised())
                } else {
                    format!(
                        "{}You win! ({}){}",
                        glyphs.win[0],
                        winner.capitalised(),
                        glyphs.win[1]
                    )
                }
            } else {
                format!(
                    "{}{} wins! {}{}",
                    glyphs.win[0],
                    winner.capitalised(),
                    app.person(who),
                    glyphs.win[1]
                )
            };
            top.push(Line::styled(format!("{text:^width$}"), palette.banner));
        }
        (Some((None, ending)), _) => {
            let why = match ending {
                Ending::ThirdRepetition => "Draw by repetition",
                _ => "Draw",
            };
            let text = format!("{}{why}{}", glyphs.win[0], glyphs.win[1]);
            top.push(Line::styled(format!("{text:^width$}"), palette.banner));
        }
        (None, Some(color)) => {
            let mut text = format!(
                " {} to move: {}",
                color.capitalised(),
                app.person(player_of(position, color))
            );
            if app.mode() == Mode::Play && app.computer_plays(position, color) {
                // The player's number and the level when there is room for them.
                let level = app.versus().level;
                let with_level = format!(" (computer, {level})");
                text = if text.len() + with_level.len() + 3 <= width {
                    text + &with_level
                } else if text.len() + " (computer)".len() + 3 <= width {
                    text + " (computer)"
                } else {
                    format!(" {} to move: the computer", color.capitalised())
                };
            }
            top.push(Line::from(vec![
                stone(color, glyphs, palette),
                Span::styled(text, Style::new().add_modifier(Modifier::BOLD)),
            ]));
        }
        // A game not over always has a player to move.
        (None, None) => {}
    }
    top
}

/// Where the game stands in its actions: the one shown in a replay, the one to play, those
/// undone.
fn counter(app: &App) -> String {
    let total = app.actions().len();
    match app.mode() {
        Mode::Replay => format!("Showing action {} of {total}", app.current()),
        Mode::Play if app.finished() => match app.current() {
            1 => "1 action played".to_string(),
            n => format!("{n} actions played"),
        },
        Mode::Play if app.current() < total => format!(
            "Action {} ({} undone: r redoes)",
            app.current() + 1,
            total - app.current()
        ),
        Mode::Play => format!("Action {}", app.current() + 1),
    }
}

/// What the cursor's point would do, while a game is played here.
fn cursor_lines<'a>(app: &App, width: usize, palette: &Palette) -> Vec<Line<'a>> {
    let position = app.position();
    let mut top: Vec<Line> = Vec::new();
    let watching = app.online_state().is_some_and(|o| o.seat.is_none());
    // In the course, the cursor's preview would tell the answer ("wins for Black").
    let learning = app.course_shown().is_some();
    if app.mode() == Mode::Play && !app.finished() && !watching && !learning {
        let (text, illegal) = if position.game() == Game::Quint {
            quint::cursor_text(app)
        } else {
            cursor_text(position, app.cursor())
        };
        let style = if illegal {
            palette.refusal
        } else {
            Style::new()
        };
        for line in wrap(&text, width).into_iter().take(4) {
            top.push(Line::styled(line, style));
        }
    }
    top
}

/// The typed move's prompt, the last message, the proof browser's words and the tip.
fn notes<'a>(app: &App, width: usize, palette: &Palette) -> Vec<Line<'a>> {
    let mut top: Vec<Line> = Vec::new();
    if let Some(typed) = app.prompt() {
        let text = format!("Move: {typed}_ (Enter plays, Esc closes)");
        for line in wrap(&text, width).into_iter().take(2) {
            top.push(Line::styled(
                line,
                Style::new().add_modifier(Modifier::BOLD),
            ));
        }
    }
    if let Some(message) = app.message() {
        let style = match message.tone {
            Tone::Info => Style::new(),
            Tone::Refusal => palette.refusal,
        };
        top.push(Line::default());
        for line in wrap(&message.text, width).into_iter().take(4) {
            top.push(Line::styled(line, style));
        }
    }
    if let Some(proof) = app.proof_text() {
        top.push(Line::default());
        for line in wrap(proof, width).into_iter().take(5) {
            top.push(Line::styled(line, palette.hint));
        }
    }
    if let Some(hint) = app.tip() {
        top.push(Line::default());
        for line in wrap(hint, width).into_iter().take(5) {
            top.push(Line::styled(line, palette.hint));
        }
    }
    top
}

/// The bottom of the panel: what the game's board shows, whose edges are whose, and the keys
/// to remember; and which of its lines explains the list's `+N`, if one does.
fn legend<'a>(app: &App, glyphs: &Glyphs, palette: &Palette) -> (Vec<Line<'a>>, Option<usize>) {
    let online = app
        .online_state()
        .map(|o| o.seat.is_some() && o.result.is_none());
    let keys = if let Some(playing) = online {
        // Every key of a game under way: an abort only while it can be one.
        if playing && app.actions().len() < 2 {
            "? help   u takeback   A abort   R resign   q lobby"
        } else if playing {
            "? help   u takeback   R resign   q lobby"
        } else {
            "? help   q lobby"
        }
    } else if let Some(state) = app.puzzle_state() {
        if state == PuzzleState::Solving {
            "t hint   v solution   ? help   q quit"
        } else {
            "n next puzzle   v solution   q quit"
        }
    } else if app.mode() == Mode::Play && app.position().is_over() {
        "n new game   u undo   q quit"
    } else if app.setup().game == Game::Quint {
        "Esc goes back   ? help   q quit"
    } else {
        "? help   q quit"
    };
    let mut lines = match app.setup().game {
        Game::Konobi => konobi::legend(glyphs, palette),
        Game::Brique => {
            let playing = app.mode() == Mode::Play && !app.position().is_over();
            squares::legend(app.look(), playing, glyphs, palette)
        }
        Game::Quint => {
            let lines = vec![
                Line::from(vec![
                    stone(Color::White, glyphs, palette),
                    Span::raw(" White   "),
                    stone(Color::Black, glyphs, palette),
                    Span::raw(" Black"),
                ]),
                Line::from("Exactly five in a line wins"),
                Line::styled(keys, palette.dim),
            ];
            return (lines, None);
        }
        Game::Quentin => Vec::new(),
    };
    let fills_line = filled_any(app).then_some(lines.len());
    if fills_line.is_some() {
        // The action list's `+2●`: what a placement filled besides its own point.
        let unit = BoardStyle::of(app.setup().game).unit();
        lines.push(Line::from(vec![
            Span::raw("+N"),
            stone(Color::Black, glyphs, palette),
            Span::raw(" +N"),
            stone(Color::White, glyphs, palette),
            Span::raw(format!(" N {unit}s filled, in that colour")),
        ]));
    }
    lines.extend([
        Line::from(vec![
            stone(Color::Black, glyphs, palette),
            Span::raw(" Black joins top and bottom "),
            Span::styled(glyphs.edge[0], palette.stone[0]),
        ]),
        Line::from(vec![
            stone(Color::White, glyphs, palette),
            Span::raw(" White joins left and right "),
            Span::styled(glyphs.edge[2], palette.stone[1]),
        ]),
        Line::styled(keys, palette.dim),
    ]);
    (lines, fills_line)
}

/// What the cursor's point holds or would do, and whether that is a refusal.
fn cursor_text(position: &Position, cursor: Point) -> (String, bool) {
    if let Some(color) = position.get(cursor) {
        return (format!("{cursor}: a {color} stone"), false);
    }
    match position.preview(Action::Place(cursor)) {
        Ok(effect) => {
            let unit = BoardStyle::of(position.game()).unit();
            // Which colour fills them, so that the preview says whose they become.
            let mut filled = [0usize; 2];
            for (_, color) in effect.fills() {
                filled[color.index()] += 1;
            }
            let units = |n: usize| {
                if n == 1 {
                    unit.to_string()
                } else {
                    format!("{unit}s")
                }
            };
            let fills = match filled {
                [0, 0] => String::new(),
                [b, 0] => format!(", fills {b} {} with black", units(b)),
                [0, w] => format!(", fills {w} {} with white", units(w)),
                [b, w] => format!(", fills {b} {} with black and {w} with white", units(b)),
            };
            let removes = removals_text(&effect)
                .map(|r| format!(", removes {r}"))
                .unwrap_or_default();
            let wins = wins_text(position, Action::Place(cursor));
            (format!("{cursor}: legal{fills}{removes}{wins}"), false)
        }
        Err(reason) => (
            format!("{cursor}: illegal: {}", refusal_text(&reason)),
            true,
        ),
    }
}

/// One entry of the action list: number, colour, action, how many points it filled.
fn action_line<'a>(app: &App, i: usize, glyphs: &Glyphs, palette: &Palette) -> Line<'a> {
    let action = app.actions()[i];
    let before = app.position_at(i);
    let after = app.position_at(i + 1);
    let mut spans = vec![Span::raw(format!("{:>3}. ", i + 1))];
    if action == Action::Swap
        && let Some(color) = before.to_move()
    {
        // The players exchange colours: say which one the swapper now has.
        let swapper = player_of(before, color);
        let now = [Color::Black, Color::White]
            .into_iter()
            .find(|&c| player_of(after, c) == swapper)
            .unwrap_or(color);
        let who = app.short_person(swapper);
        spans.push(Span::raw(format!(
            "{who} swap ({who} now {})",
            now.capitalised()
        )));
    } else {
        if let Some(color) = before.to_move() {
            spans.push(Span::raw(format!(
                "{} {:<5} ",
                app.short_person(player_of(before, color)),
                color.capitalised()
            )));
        }
        spans.push(Span::raw(action.to_string()));
    }
    if let Action::Place(at) = action
        && i < app.current()
    {
        // The points the placement filled besides its own, by the colour they became: `+2●`.
        for (color, n) in fills(before.board(), after.board(), at) {
            spans.push(Span::raw(format!(" +{n}")));
            spans.push(stone(color, glyphs, palette));
        }
    }
    if let Some(mark) = app.mark_of(i) {
        spans.push(Span::styled(
            format!(" {}", super::review::sign(mark)),
            palette.refusal,
        ));
    }
    let line = Line::from(spans);
    if i + 1 == app.current() {
        line.style(palette.current)
    } else if i >= app.current() {
        line.style(palette.undone)
    } else {
        line
    }
}
