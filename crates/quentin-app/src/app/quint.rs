//! Quint's input, as part of the app's state machine: drops in the drop phase; in the move phase
//! a piece is selected, then its destination, then (when the step can capture) the pieces to take.
//!
//! Keys: Enter, Space or a click on the cursor's cell drop, select or move; Space or `x` on a
//! capturable piece takes or spares it (all are taken at first) and Enter plays the step; Esc
//! goes back one stage (from the capture choice to the destination, from the destination to no
//! selection) and quits only when nothing is selected.

use crate::commands::Command;

use crate::rules::{Action, Captures, Color, Ending, Point, Position};

use super::{App, Effect};

/// Where a Quint move stands between two keys.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pick {
    /// Nothing selected.
    #[default]
    Nothing,
    /// The piece on this cell is selected; its destination is next.
    Piece(Point),
    /// The step `from`-`to` can capture: the player chooses which of `capturable` to take.
    Captures {
        /// Where the piece stands.
        from: Point,
        /// Where it goes.
        to: Point,
        /// Every enemy piece the step may take.
        capturable: Captures,
        /// The ones it will take, all of them at first.
        taken: Captures,
    },
}

impl Pick {
    /// The selected piece, if any.
    #[must_use]
    pub fn selected(self) -> Option<Point> {
        match self {
            Pick::Nothing => None,
            Pick::Piece(from) | Pick::Captures { from, .. } => Some(from),
        }
    }
}

/// Whether pieces are still being dropped.
#[must_use]
pub fn dropping(position: &Position) -> bool {
    position.in_hand().is_some_and(|hand| hand != [0, 0])
}

/// The cells the piece on `from` may step to, for the side to move.
#[must_use]
pub fn reachable(position: &Position, from: Point) -> Vec<Point> {
    let mut cells: Vec<Point> = position
        .legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::Step { from: f, to, .. } if f == from => Some(to),
            _ => None,
        })
        .collect();
    cells.sort_unstable();
    cells.dedup();
    cells
}

/// Every enemy piece the step `from`-`to` may take: the largest set the rules list for it.
#[must_use]
pub fn capturable(position: &Position, from: Point, to: Point) -> Captures {
    position
        .legal_actions()
        .into_iter()
        .filter_map(|a| match a {
            Action::Step {
                from: f,
                to: t,
                captures,
            } if f == from && t == to => Some(captures),
            _ => None,
        })
        .max_by_key(Captures::len)
        .unwrap_or_default()
}

/// `c6`, `c6 and d5`, `c6, d5 and e4`.
#[must_use]
pub fn cells_text(cells: impl IntoIterator<Item = Point>) -> String {
    let names: Vec<String> = cells.into_iter().map(|p| p.to_string()).collect();
    match names.split_last() {
        None => "nothing".to_string(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// Why a Quint game ended without a winning five, or in a draw, for the message after the
/// action that ended it.
#[must_use]
pub fn ending(position: &Position) -> Option<String> {
    let outcome = position.outcome()?;
    let loser = outcome.winner().map(Color::opponent);
    match (outcome.ending(), loser) {
        (Ending::ThirdRepetition, _) => {
            Some("Draw: this position has come for the third time.".to_string())
        }
        (Ending::NoPieceLeft, Some(loser)) => {
            Some(format!("{} has no piece left.", loser.capitalised()))
        }
        (Ending::NoLegalAction, Some(loser)) => {
            Some(format!("{} cannot move.", loser.capitalised()))
        }
        _ => None,
    }
}

/// The step the capture choice would play.
fn step(from: Point, to: Point, captures: Captures) -> Action {
    Action::Step { from, to, captures }
}

/// `captures` with `p` added, or taken out when it is in.
fn toggled(captures: Captures, p: Point) -> Captures {
    let points: Vec<Point> = if captures.contains(p) {
        captures.iter().filter(|&q| q != p).collect()
    } else {
        captures.iter().chain([p]).collect()
    };
    // ok: a subset of the capturable pieces, at most one per direction, never repeated.
    Captures::from_points(points).unwrap_or(captures)
}

impl App {
    /// The Quint selection on the board (nothing outside Quint's move phase).
    #[must_use]
    pub fn pick(&self) -> Pick {
        self.screen.pick
    }

    /// Quint's keys: Enter, Space and `x`. `None` for the keys the other games share, and
    /// once the game is over (the usual refusal then tells how to go on).
    pub(super) fn quint_key(&mut self, command: Command) -> Option<Effect> {
        let position = self.position();
        if position.is_over()
            || !matches!(command, Command::Play | Command::Select | Command::Capture)
        {
            return None;
        }
        let cursor = self.screen.cursor;
        if dropping(position) {
            return match command {
                Command::Capture => {
                    self.warn("x takes or spares a piece after a step; now is the drop phase.");
                    Some(Effect::None)
                }
                _ => Some(self.act(Action::Place(cursor))),
            };
        }
        Some(match (self.screen.pick, command) {
            (Pick::Captures { capturable, .. }, Command::Select | Command::Capture)
                if capturable.contains(cursor) =>
            {
                self.toggle(cursor)
            }
            (
                Pick::Captures {
                    from, to, taken, ..
                },
                Command::Play,
            ) => self.act(step(from, to, taken)),
            (
                Pick::Captures {
                    from, to, taken, ..
                },
                _,
            ) => {
                self.warn(format!(
                    "Space or x takes or spares a marked piece; Enter plays {}.",
                    step(from, to, taken)
                ));
                Effect::None
            }
            (_, Command::Capture) => {
                self.warn("x takes or spares a marked piece, once a step can capture.");
                Effect::None
            }
            _ => self.choose(cursor),
        })
    }

    /// A left click on `p` in Quint's play: a drop, a selection, a destination; during a capture
    /// choice, a click on a marked piece takes or spares it and one on the destination plays.
    pub(super) fn quint_click(&mut self, p: Point) -> Effect {
        let position = self.position();
        if position.is_over() || dropping(position) {
            return self.act(Action::Place(p));
        }
        match self.screen.pick {
            Pick::Captures { capturable, .. } if capturable.contains(p) => self.toggle(p),
            Pick::Captures {
                from, to, taken, ..
            } if p == to => self.act(step(from, to, taken)),
            Pick::Captures { to, .. } => {
                self.warn(format!(
                    "Click a marked piece to take or spare it, or {to} to play; Esc goes back."
                ));
                Effect::None
            }
            _ => self.choose(p),
        }
    }

    /// Esc: goes back one stage of the selection. `false` when nothing was selected (then Esc
    /// quits).
    pub(super) fn quint_cancel(&mut self) -> bool {
        match self.screen.pick {
            Pick::Nothing => return false,
            Pick::Piece(from) => {
                self.screen.pick = Pick::Nothing;
                self.info(format!("{from} is no longer selected."));
            }
            Pick::Captures { from, .. } => {
                self.screen.pick = Pick::Piece(from);
                self.info(format!("{from} is selected: choose where it goes."));
            }
        }
        true
    }

    /// Selects the piece on `p`, moves the selected piece to `p`, or unselects it.
    fn choose(&mut self, p: Point) -> Effect {
        let position = self.position();
        let Some(mover) = position.to_move() else {
            return Effect::None;
        };
        if let Pick::Piece(from) = self.screen.pick {
            if p == from {
                self.screen.pick = Pick::Nothing;
                self.info(format!("{from} is no longer selected."));
                return Effect::None;
            }
            if reachable(position, from).contains(&p) {
                return self.step_to(from, p);
            }
        }
        match position.get(p) {
            Some(color) if color == mover => {
                if reachable(position, p).is_empty() {
                    self.warn(format!(
                        "The {color} piece on {p} cannot move: no empty cell next to it."
                    ));
                } else {
                    self.screen.pick = Pick::Piece(p);
                    self.info(format!("Selected {p}."));
                }
            }
            _ => match self.screen.pick.selected() {
                Some(from) => self.warn(format!(
                    "The piece on {from} steps one cell up, down, left or right, to an empty \
                     cell: {p} is none of them."
                )),
                None => self.warn(format!(
                    "{} moves a {mover} piece: select one of them first.",
                    mover.capitalised()
                )),
            },
        }
        Effect::None
    }

    /// Steps from `from` to `to` at once, or first asks which pieces to take.
    fn step_to(&mut self, from: Point, to: Point) -> Effect {
        let capturable = capturable(self.position(), from, to);
        if capturable.is_empty() {
            return self.act(step(from, to, Captures::NONE));
        }
        self.screen.pick = Pick::Captures {
            from,
            to,
            capturable,
            taken: capturable,
        };
        self.info(format!(
            "{from}-{to} can take {}: every marked piece is taken unless spared.",
            cells_text(capturable.iter())
        ));
        Effect::None
    }

    /// Takes or spares the capturable piece on `p`.
    fn toggle(&mut self, p: Point) -> Effect {
        if let Pick::Captures {
            from, to, taken, ..
        } = &mut self.screen.pick
        {
            *taken = toggled(*taken, p);
            let verb = if taken.contains(p) { "taken" } else { "spared" };
            let action = step(*from, *to, *taken);
            self.info(format!("{p} {verb}: Enter plays {action}."));
        }
        Effect::None
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::app::tests::{effect_of, key, press};
    use crate::app::{Look, Mode, player_of};
    use crate::game_line::GameLine;
    use crate::input::{Event, KeyCode, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
    use crate::rules::{Board, Game, Outcome, Setup};

    /// White to move in the move phase: c4-c5 can take b5, c6 and d5 (a5, c7 and e5 are white).
    pub(crate) const THREE_CAPTURES: &str =
        "........|..W.....|..B.....|WB.BW...|..W.....|........|......B.|........";

    /// The app on the Quint position `rows` (top row first), hands empty, `to_move` to move.
    pub(crate) fn quint_app(rows: &str, to_move: Color, look: Look) -> App {
        let board = Board::from_rows(rows).unwrap();
        let position = Setup::new(Game::Quint)
            .start_quint_from(&board, [0, 0], to_move)
            .unwrap();
        App::from_line(GameLine::new(position), Mode::Play, look)
    }

    /// [`THREE_CAPTURES`] with the cursor on c4.
    pub(crate) fn three_captures() -> App {
        let mut app = quint_app(THREE_CAPTURES, Color::White, Look::FULL);
        app.screen.cursor = p("c4");
        app
    }

    fn p(name: &str) -> Point {
        Point::parse(name).unwrap()
    }

    fn text(app: &App) -> &str {
        app.message().map_or("", |m| m.text.as_str())
    }

    /// The last line of the record.
    fn last_token(app: &App) -> String {
        app.record_text().lines().last().unwrap_or("").to_string()
    }

    /// Presses Enter, which must play the step `token`.
    fn enter_plays(app: &mut App, token: &str) {
        assert_eq!(effect_of(app, "\n"), Effect::Save, "{:?}", app.message());
        assert_eq!(last_token(app), token);
    }

    fn captures(names: &[&str]) -> Captures {
        Captures::from_points(names.iter().map(|n| p(n))).unwrap()
    }

    #[test]
    fn drops_go_on_the_cursor_cell_and_white_is_player_1() {
        let setup = Setup {
            pieces: 15,
            ..Setup::new(Game::Quint)
        };
        let mut app = App::new(setup, Look::FULL).unwrap();
        assert_eq!(app.position().to_move(), Some(Color::White));
        assert_eq!(player_of(app.position(), Color::White), 1);
        assert_eq!(player_of(app.position(), Color::Black), 2);
        assert_eq!(app.cursor(), p("e5"));
        assert_eq!(effect_of(&mut app, "\n"), Effect::Save);
        assert_eq!(effect_of(&mut app, "l "), Effect::Save);
        assert_eq!(app.record_text(), "game quint\npieces 15\ne5\nf5\n");
        assert_eq!(app.position().in_hand(), Some([14, 14]));
        // An occupied cell is refused; x means nothing yet.
        assert_eq!(effect_of(&mut app, "\n"), Effect::None);
        assert_eq!(text(&app), "White cannot play f5: f5 is not empty.");
        assert_eq!(effect_of(&mut app, "hx"), Effect::None);
        assert!(text(&app).contains("drop phase"), "{}", text(&app));
        assert_eq!(app.pick(), Pick::Nothing);
    }

    #[test]
    fn a_piece_is_selected_unselected_and_esc_goes_back_before_it_quits() {
        let mut app = three_captures();
        assert_eq!(effect_of(&mut app, "\n"), Effect::None);
        assert_eq!(app.pick(), Pick::Piece(p("c4")));
        assert_eq!(text(&app), "Selected c4.");
        assert_eq!(
            reachable(app.position(), p("c4")),
            [p("b4"), p("c3"), p("c5"), p("d4")]
        );
        // Enter on the selected piece unselects it.
        assert_eq!(effect_of(&mut app, "\n"), Effect::None);
        assert_eq!(app.pick(), Pick::Nothing);
        press(&mut app, "\n");
        assert_eq!(app.handle(&key(KeyCode::Esc)), Effect::None);
        assert_eq!(app.pick(), Pick::Nothing);
        assert_eq!(text(&app), "c4 is no longer selected.");
        // With nothing selected, Esc quits as in the other games.
        assert_eq!(app.handle(&key(KeyCode::Esc)), Effect::Quit);
        assert!(app.actions().is_empty());
    }

    #[test]
    fn enemy_pieces_empty_cells_and_cells_out_of_reach_are_refused() {
        let mut app = three_captures();
        press(&mut app, "k\n");
        assert_eq!(app.pick(), Pick::Nothing);
        assert_eq!(
            text(&app),
            "White moves a white piece: select one of them first."
        );
        press(&mut app, "k\n");
        assert!(text(&app).starts_with("White moves"), "{}", text(&app));
        press(&mut app, "jj\nll\n");
        assert_eq!(app.pick(), Pick::Piece(p("c4")));
        assert_eq!(
            text(&app),
            "The piece on c4 steps one cell up, down, left or right, to an empty cell: e4 is \
             none of them."
        );
        // Another own piece takes the selection over.
        press(&mut app, "k\n");
        assert_eq!(app.pick(), Pick::Piece(p("e5")));
        assert!(app.actions().is_empty());
    }

    #[test]
    fn a_step_without_capture_plays_at_once() {
        let mut app = three_captures();
        assert_eq!(effect_of(&mut app, "\nj\n"), Effect::Save);
        assert_eq!(last_token(&app), "c4-c3");
        assert_eq!(app.pick(), Pick::Nothing);
        assert_eq!(app.position().to_move(), Some(Color::Black));
        assert_eq!(text(&app), "White played c4-c3.");
    }

    #[test]
    fn every_capturable_piece_is_taken_unless_spared() {
        let mut app = three_captures();
        assert_eq!(effect_of(&mut app, "\nk\n"), Effect::None);
        let all = captures(&["b5", "c6", "d5"]);
        assert_eq!(
            app.pick(),
            Pick::Captures {
                from: p("c4"),
                to: p("c5"),
                capturable: all,
                taken: all
            }
        );
        assert_eq!(
            text(&app),
            "c4-c5 can take b5, c6 and d5: every marked piece is taken unless spared."
        );
        enter_plays(&mut app, "c4-c5xb5xc6xd5");
        assert_eq!(app.position().board().count(), [1, 4]);
    }

    #[test]
    fn some_captures_are_chosen_with_space_and_x() {
        let mut app = three_captures();
        press(&mut app, "\nk\nk ");
        assert_eq!(text(&app), "c6 spared: Enter plays c4-c5xb5xd5.");
        press(&mut app, "jlx");
        assert_eq!(text(&app), "d5 spared: Enter plays c4-c5xb5.");
        press(&mut app, "x");
        assert_eq!(text(&app), "d5 taken: Enter plays c4-c5xb5xd5.");
        // Space away from a marked piece does not play.
        press(&mut app, "l ");
        assert!(
            text(&app).starts_with("Space or x takes or spares"),
            "{}",
            text(&app)
        );
        assert!(app.actions().is_empty());
        enter_plays(&mut app, "c4-c5xb5xd5");
        assert_eq!(app.position().get(p("c6")), Some(Color::Black));
    }

    #[test]
    fn sparing_every_piece_captures_none() {
        let mut app = three_captures();
        press(&mut app, "\nk\nh lk lj ");
        match app.pick() {
            Pick::Captures { taken, .. } => assert!(taken.is_empty(), "{taken:?}"),
            other => panic!("{other:?}"),
        }
        enter_plays(&mut app, "c4-c5");
        assert_eq!(app.position().board().count(), [4, 4]);
    }

    #[test]
    fn esc_in_the_capture_choice_goes_back_to_the_destination_and_undo_clears_it() {
        let mut app = three_captures();
        press(&mut app, "\nk\n");
        assert_eq!(app.handle(&key(KeyCode::Esc)), Effect::None);
        assert_eq!(app.pick(), Pick::Piece(p("c4")));
        assert_eq!(text(&app), "c4 is selected: choose where it goes.");
        press(&mut app, "vv\n");
        assert_eq!(last_token(&app), "c4-c3");
        press(&mut app, "u");
        assert_eq!(app.pick(), Pick::Nothing);
        press(&mut app, "^\n");
        assert_eq!(app.pick(), Pick::Piece(p("c4")));
        press(&mut app, "r");
        assert_eq!(app.pick(), Pick::Nothing);
        assert_eq!(text(&app), "Redone: c4-c3.");
    }

    fn click(app: &mut App, name: &str) -> Effect {
        let (column, row) = app.screen.geometry.cells.unwrap().cell(p(name));
        app.handle(&Event::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column,
            row,
            modifiers: KeyModifiers::NONE,
        }))
    }

    #[test]
    fn clicks_select_move_and_choose_captures() {
        let mut app = three_captures();
        let cells = crate::layout::CellGeometry {
            x: 4,
            y: 2,
            size: 8,
        };
        app.set_geometry(crate::layout::Geometry {
            cells: Some(cells),
            ..Default::default()
        });
        assert_eq!(click(&mut app, "c4"), Effect::None);
        assert_eq!(click(&mut app, "c5"), Effect::None);
        assert_eq!(click(&mut app, "b5"), Effect::None);
        assert_eq!(text(&app), "b5 spared: Enter plays c4-c5xc6xd5.");
        assert_eq!(click(&mut app, "a8"), Effect::None);
        assert!(text(&app).starts_with("Click a marked piece"));
        assert_eq!(click(&mut app, "c5"), Effect::Save);
        assert_eq!(last_token(&app), "c4-c5xc6xd5");
    }

    /// Two lone pieces stepping back and forth until the position comes a third time.
    pub(crate) fn drawn_by_repetition() -> App {
        let mut app = quint_app(
            "......B.|........|........|........|........|........|........|W.......",
            Color::White,
            Look::FULL,
        );
        for _ in 0..2 {
            for (from, keys) in [
                ("a1", "\n^\n"),
                ("g8", "\nv\n"),
                ("a2", "\nv\n"),
                ("g7", "\n^\n"),
            ] {
                app.screen.cursor = p(from);
                assert_eq!(effect_of(&mut app, keys), Effect::Save, "{from}");
            }
        }
        app
    }

    #[test]
    fn a_draw_by_repetition_is_announced() {
        let app = drawn_by_repetition();
        assert_eq!(app.position().outcome(), Some(&Outcome::Draw));
        assert_eq!(
            text(&app),
            "Black played g7-g8. Draw: this position has come for the third time."
        );
    }

    #[test]
    fn a_win_without_a_five_says_why() {
        // Black's last piece is taken.
        let mut app = quint_app(
            "........|........|........|........|........|........|........|W.BW....",
            Color::White,
            Look::FULL,
        );
        app.screen.cursor = p("a1");
        press(&mut app, "\nl\n\n");
        assert_eq!(last_token(&app), "a1-b1xc1");
        assert_eq!(
            text(&app),
            "White played a1-b1xc1. Black has no piece left. White wins (Player 1)."
        );
    }
}
