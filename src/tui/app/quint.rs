//! Quint's input, as part of the app's state machine: drops in the drop phase; in the move phase
//! a piece is selected, then its destination, then (when the step can capture) the pieces to take.
//!
//! Keys: Enter, Space or a click on the cursor's cell drop, select or move; Space or `x` on a
//! capturable piece takes or spares it (all are taken at first) and Enter plays the step; Esc
//! goes back one stage (from the capture choice to the destination, from the destination to no
//! selection) and quits only when nothing is selected.

use crossterm::event::KeyCode;

use crate::report::capitalised;
use crate::rules::{Action, Captures, Outcome, Point, Position};

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
    pub fn from(self) -> Option<Point> {
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
    match position.outcome()? {
        Outcome::Draw => Some("Draw: this position has come for the third time.".to_string()),
        Outcome::Win { winner, line } if line.is_empty() => {
            let loser = winner.opponent();
            let why = if position.board().count()[loser.index()] == 0 {
                "has no piece left"
            } else {
                "cannot move"
            };
            Some(format!("{} {why}.", capitalised(loser)))
        }
        Outcome::Win { .. } => None,
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
        self.pick
    }

    /// Quint's keys: Enter, Space and `x`. `None` for the keys the other games share, and
    /// once the game is over (the usual refusal then tells how to go on).
    pub(super) fn quint_key(&mut self, code: KeyCode) -> Option<Effect> {
        let position = self.position();
        if position.is_over() || !matches!(code, KeyCode::Enter | KeyCode::Char(' ' | 'x')) {
            return None;
        }
        let cursor = self.cursor;
        if dropping(position) {
            return match code {
                KeyCode::Char('x') => {
                    self.warn("x takes or spares a piece after a step; now is the drop phase.");
                    Some(Effect::None)
                }
                _ => Some(self.act(Action::Place(cursor))),
            };
        }
        Some(match (self.pick, code) {
            (Pick::Captures { capturable, .. }, KeyCode::Char(' ' | 'x'))
                if capturable.contains(cursor) =>
            {
                self.toggle(cursor)
            }
            (
                Pick::Captures {
                    from, to, taken, ..
                },
                KeyCode::Enter,
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
            (_, KeyCode::Char('x')) => {
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
        match self.pick {
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
        match self.pick {
            Pick::Nothing => return false,
            Pick::Piece(from) => {
                self.pick = Pick::Nothing;
                self.info(format!("{from} is no longer selected."));
            }
            Pick::Captures { from, .. } => {
                self.pick = Pick::Piece(from);
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
        if let Pick::Piece(from) = self.pick {
            if p == from {
                self.pick = Pick::Nothing;
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
                    self.pick = Pick::Piece(p);
                    self.info(format!("Selected {p}."));
                }
            }
            _ => match self.pick.from() {
                Some(from) => self.warn(format!(
                    "The piece on {from} steps one cell up, down, left or right, to an empty \
                     cell: {p} is none of them."
                )),
                None => self.warn(format!(
                    "{} moves a {mover} piece: select one of them first.",
                    capitalised(mover)
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
        self.pick = Pick::Captures {
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
        } = &mut self.pick
        {
            *taken = toggled(*taken, p);
            let verb = if taken.contains(p) { "taken" } else { "spared" };
            let action = step(*from, *to, *taken);
            self.info(format!("{p} {verb}: Enter plays {action}."));
        }
        Effect::None
    }
}
