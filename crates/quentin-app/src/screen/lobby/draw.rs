//! The lobby's drawing: its lists (or the help, the form, the tournaments' screen) in a box
//! titled with the player's name, the selected line kept in sight, the keys on the last row.

use quentin_record::spec::{First, Spec};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color as Tint, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Padding, Paragraph, Widget, Wrap};

use super::{Challenge, Lobby, Rows};

impl Lobby {
    /// Draws the lobby into `area`; where its selectable lines are, for the mouse.
    pub(super) fn drawn(&self, area: Rect, buf: &mut Buffer) -> Rows {
        let color = self.color;
        let tint = |t: Tint| {
            if color {
                Style::new().fg(t)
            } else {
                Style::new()
            }
        };
        let block = Block::new()
            .borders(Borders::ALL)
            .padding(Padding::horizontal(1))
            .title(format!(" quentin server: {} ", self.me.1));
        let inner = block.inner(area);
        block.render(area, buf);
        let mut lines: Vec<Line> = Vec::new();
        if self.help {
            for text in HELP {
                lines.push(Line::from(*text));
            }
            Paragraph::new(lines)
                .wrap(Wrap { trim: false })
                .render(inner, buf);
            return Rows::default();
        }
        if let Some(form) = &self.form {
            let (lines, fields) = form.lines();
            Paragraph::new(lines).render(inner, buf);
            return Rows::of(inner, fields.enumerate().map(|(n, at)| (at, n)));
        }
        if let Some(screen) = &self.tournaments {
            let lines = screen.lines(&self.board.tournaments, self.message.as_ref(), tint);
            Paragraph::new(lines).render(inner, buf);
            return Rows::default();
        }
        let (lines, at) = self.lists(tint);
        self.scrolled(lines, at, inner, buf)
    }

    /// The lobby's lists, a line each, and the line of each selectable one, in order.
    fn lists(&self, tint: impl Fn(Tint) -> Style) -> (Vec<Line<'static>>, Vec<usize>) {
        let bold = Style::new().add_modifier(Modifier::BOLD);
        let mut lines: Vec<Line> = Vec::new();
        let b = &self.board;
        for text in &b.motd {
            lines.push(Line::styled(text.clone(), tint(Tint::Cyan)));
        }
        lines.push(Line::from(format!(
            "Online ({}): {}",
            b.online.len(),
            b.online.join(", ")
        )));
        if let Some((text, refused)) = &self.message {
            let style = if *refused {
                tint(Tint::Red)
            } else {
                tint(Tint::Green)
            };
            lines.push(Line::styled(text.clone(), style));
        }
        // The line of each selectable one, in order.
        let mut at: Vec<usize> = Vec::new();
        let selected = self.selected;
        let mut item = |text: String, lines: &mut Vec<Line>| {
            let here = at.len() == selected;
            at.push(lines.len());
            let style = if here {
                bold.add_modifier(Modifier::REVERSED)
            } else {
                Style::new()
            };
            lines.push(Line::from(vec![
                Span::raw(if here { "> " } else { "  " }),
                Span::styled(text, style),
            ]));
        };
        lines.push(Line::styled(
            "Open challenges (Enter accepts, c makes one)",
            bold,
        ));
        for c in &b.challenges {
            item(self.challenge_text(c), &mut lines);
        }
        if b.more_challenges > 0 {
            lines.push(Line::raw(format!(
                "  and {} older open challenges (the bot protocol's challenges lists them all)",
                b.more_challenges
            )));
        }
        lines.push(Line::styled(
            "Your games (Enter opens; n opens the next where it is your move)",
            bold,
        ));
        for g in &b.mine {
            item(g.text.clone(), &mut lines);
        }
        lines.push(Line::styled("Being played now (Enter watches)", bold));
        for g in &b.live {
            item(g.text.clone(), &mut lines);
        }
        lines.push(Line::styled("Recent results", bold));
        for text in &b.recent {
            lines.push(Line::from(format!("  {text}")));
        }
        lines.push(Line::styled("Leaderboard", bold));
        for text in &b.leaders {
            lines.push(Line::from(format!("  {text}")));
        }
        lines.push(Line::styled("Puzzle leaderboard (p solves puzzles)", bold));
        for text in &b.puzzle_leaders {
            lines.push(Line::from(format!("  {text}")));
        }
        (lines, at)
    }

    /// An open challenge as the lobby lists it: who moves first said from the reader's side
    /// (the challenger plays against the acceptor, anyone else is the acceptor).
    fn challenge_text(&self, c: &Challenge) -> String {
        let to = c
            .spec
            .to
            .as_ref()
            .map(|t| format!(" for {t}"))
            .unwrap_or_default();
        let first = match c.spec.first {
            First::Me if c.by == self.me.0 => "you move first".to_string(),
            First::Me => format!("{} moves first", c.by_name),
            First::You if c.by == self.me.0 => "they move first".to_string(),
            First::You => "you move first".to_string(),
            First::Random => "first mover drawn".to_string(),
        };
        let spec = Spec {
            to: None,
            ..c.spec.clone()
        };
        format!(
            "#{} {} by {} {}{to}, {first}",
            c.id,
            spec.summary(),
            c.by_name,
            c.by_rating
        )
    }

    /// `lines` drawn into `inner`, scrolled to keep the selected one in sight, the keys on the
    /// last row; where the selectable lines (at `at`) are shown, for the mouse.
    fn scrolled(&self, lines: Vec<Line>, at: Vec<usize>, inner: Rect, buf: &mut Buffer) -> Rows {
        let selected = self.selected;
        // The footer stays on the last row; the rest scrolls to keep the selected line shown.
        // Every key of the lobby in 76 columns: the lists' headings say what Enter does there,
        // and `?` lists the arrows and the rest.
        let footer = Line::from(
            "c challenge  d withdraw  p puzzles  l learn  t tournaments  ? help  q quit",
        );
        let rows = usize::from(inner.height).saturating_sub(1);
        let chosen = at.get(selected).copied().unwrap_or(0);
        let top = (chosen + 2)
            .saturating_sub(rows)
            .min(lines.len().saturating_sub(rows));
        let mut shown: Vec<Line> = lines.into_iter().skip(top).take(rows).collect();
        shown.resize(rows, Line::default());
        shown.push(footer);
        Paragraph::new(shown).render(inner, buf);
        let visible = at
            .into_iter()
            .enumerate()
            .filter(|(_, at)| (top..top + rows).contains(at))
            .map(|(n, at)| (at - top, n));
        Rows::of(inner, visible)
    }
}

const HELP: &[&str] = &[
    "The lobby",
    "",
    "Up, Down, j, k     select a line (the mouse wheel too)",
    "Enter, Space       accept the challenge, open your game, or watch a game",
    "click              select a line; a click on the selected line is Enter",
    "c                  make a challenge (a form: the game, size, pie rule, who moves",
    "                   first, the clock, rated or casual, and perhaps one opponent)",
    "d                  withdraw your challenge",
    "n                  your next game: your move, the clock that runs out first",
    "v, V               your vacation days left; V takes one (24 h more a game by post)",
    "p                  puzzles, each near your puzzle rating (n the next, q back here)",
    "l                  learn the games: each game's course, a level a move (q back here)",
    "o                  the operators' screen (for the server's operators only)",
    "t                  tournaments: make one (n), join (Enter), withdraw (w), standings",
    "?                  this help (any key closes it)",
    "q, Esc, Ctrl-C     leave the server",
    "",
    "In a game: the game's keys (? lists them); R twice resigns, u asks for a takeback",
    "in a casual game, q comes back here. Your games wait for you when you leave.",
    "`ssh -p PORT HOST record ID` prints a game's record.",
];
