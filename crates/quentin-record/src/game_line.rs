//! The line of play: every position from the start, the actions between them, and how many of
//! them are on the board (the shown position).
//!
//! One type for everything that replays a game's actions into positions: a record read from
//! disk ([`crate::record::Record::line`]), the app's undo, redo and stepping through a replay,
//! and an online game catching up with what the server committed ([`GameLine::catch_up`]). Each
//! action is played once, from the position before it; the positions are kept, so stepping
//! back and forth costs nothing.

use quentin_rules::{Action, Color, Illegal, Position};

/// A game's line of play. Undone actions stay on the line after the shown position until a
/// new action cuts them off, so that they can be redone.
#[derive(Clone, Debug)]
pub struct GameLine {
    /// `positions[i]` follows the first `i` actions: one more position than actions.
    positions: Vec<Position>,
    /// The line, undone actions included.
    actions: Vec<Action>,
    /// How many actions are on the board.
    shown: usize,
}

/// Where a replay stopped: action number `index` (from 0) of those given is illegal after the
/// ones before it.
#[derive(Clone, Debug)]
pub struct Stopped {
    /// The line of the legal actions before it, all shown.
    pub line: GameLine,
    /// Which action of those given (from 0).
    pub index: usize,
    /// The action.
    pub action: Action,
    /// Why the rules refuse it.
    pub reason: Illegal,
}

/// What [`GameLine::catch_up`] changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CaughtUp {
    /// How many actions the line and the other side had in common (kept).
    pub kept: usize,
    /// How many actions of this line after those were dropped (taken back).
    pub dropped: usize,
    /// How many were added after them.
    pub added: usize,
}

/// The seat (0: the player who moved first, 1: the other) that plays `color` in `position`:
/// the pie rule's swap exchanges the colours, not the seats.
#[must_use]
pub fn seat_of(position: &Position, color: Color) -> usize {
    usize::from((color == position.game().first_color()) == position.swapped())
}

/// How many actions at the end of `actions` (played from `start`) a takeback asked by `seat`
/// removes, as on lichess: back to and including that seat's last action, that is its move
/// and the opponent's reply when asked on its own turn, its move alone when asked just after
/// it. 0 when the seat has made no action.
#[must_use]
pub fn takeback_len(start: &Position, actions: &[Action], seat: usize) -> usize {
    let mut position = start.clone();
    let mut last = None;
    for (i, &action) in actions.iter().enumerate() {
        if position
            .to_move()
            .is_some_and(|color| seat_of(&position, color) == seat)
        {
            last = Some(i);
        }
        if position.play(action).is_err() {
            break;
        }
    }
    last.map_or(0, |i| actions.len() - i)
}

impl GameLine {
    /// The line of a game not begun: only its start.
    #[must_use]
    pub fn new(start: Position) -> GameLine {
        GameLine {
            positions: vec![start],
            actions: Vec::new(),
            shown: 0,
        }
    }

    /// `actions` played one after the other from `start`, all of them shown.
    ///
    /// # Errors
    /// When an action is illegal where it comes: the [`Stopped`] holds the line up to it.
    pub fn replay(start: Position, actions: &[Action]) -> Result<GameLine, Box<Stopped>> {
        let mut line = GameLine::new(start);
        line.positions.reserve(actions.len());
        line.actions.reserve(actions.len());
        for (index, &action) in actions.iter().enumerate() {
            if let Err(reason) = line.play(action) {
                return Err(Box::new(Stopped {
                    line,
                    index,
                    action,
                    reason,
                }));
            }
        }
        Ok(line)
    }

    /// The position after `actions` played from `start`, without keeping the positions
    /// between (where only the end is read: a record's last position for a listing).
    ///
    /// # Errors
    /// Which action (from 0) is illegal where it comes, and why.
    pub fn play_out(mut start: Position, actions: &[Action]) -> Result<Position, (usize, Illegal)> {
        for (index, &action) in actions.iter().enumerate() {
            start.play(action).map_err(|reason| (index, reason))?;
        }
        Ok(start)
    }

    /// The position before the first action.
    #[must_use]
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The position on the board: after the shown actions.
    #[must_use]
    pub fn position(&self) -> &Position {
        // ok: there is one more position than there are actions, and `shown` counts actions.
        &self.positions[self.shown]
    }

    /// The position after the first `n` actions of the line, or after all of them when `n` is
    /// larger.
    #[must_use]
    pub fn position_at(&self, n: usize) -> &Position {
        &self.positions[n.min(self.actions.len())]
    }

    /// The position after every action of the line, undone ones included.
    #[must_use]
    pub fn last(&self) -> &Position {
        &self.positions[self.actions.len()]
    }

    /// The whole line, undone actions included.
    #[must_use]
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// The actions on the board.
    #[must_use]
    pub fn played(&self) -> &[Action] {
        &self.actions[..self.shown]
    }

    /// How many actions are on the board.
    #[must_use]
    pub fn shown(&self) -> usize {
        self.shown
    }

    /// The last action on the board.
    #[must_use]
    pub fn last_played(&self) -> Option<Action> {
        self.shown.checked_sub(1).map(|i| self.actions[i])
    }

    /// Whether action number `n` (from 1) is a pass.
    #[must_use]
    pub fn is_pass(&self, n: usize) -> bool {
        n > 0 && self.actions.get(n - 1) == Some(&Action::Pass)
    }

    /// Shows the position after the first `n` actions (the last one when `n` is larger).
    pub fn go_to(&mut self, n: usize) {
        self.shown = n.min(self.actions.len());
    }

    /// Plays `action` after the shown position, cutting the undone actions off.
    ///
    /// # Errors
    /// When the rules refuse it there; the line is then as it was.
    pub fn play(&mut self, action: Action) -> Result<(), Illegal> {
        let mut next = self.position().clone();
        next.play(action)?;
        self.cut();
        self.actions.push(action);
        self.positions.push(next);
        self.shown += 1;
        Ok(())
    }

    /// Cuts the undone actions off: the shown position becomes the line's last.
    pub fn cut(&mut self) {
        self.actions.truncate(self.shown);
        self.positions.truncate(self.shown + 1);
    }

    /// Steps back one action, and with a forced pass the action that forced it: undoing only
    /// the pass would give the turn back to a side that must pass again at once. The actions
    /// undone, in the order played; none at the start.
    pub fn undo(&mut self) -> Vec<Action> {
        let from = self.shown;
        while self.shown > 0 {
            self.shown -= 1;
            if !self.is_pass(self.shown + 1) {
                break;
            }
        }
        self.actions[self.shown..from].to_vec()
    }

    /// Steps forward one undone action, and the forced passes after it. The actions redone;
    /// none at the line's end.
    pub fn redo(&mut self) -> Vec<Action> {
        let from = self.shown;
        if self.shown < self.actions.len() {
            self.shown += 1;
            while self.shown < self.actions.len() && self.is_pass(self.shown + 1) {
                self.shown += 1;
            }
        }
        self.actions[from..self.shown].to_vec()
    }

    /// Brings the line to `actions`, another side's line of the same game (the server's
    /// committed one): the actions in common are kept, the others of this line dropped, and
    /// the rest of `actions` played after them, all shown. `None` when the two lines are
    /// already the same (the shown position then stays where it is).
    ///
    /// # Errors
    /// When an action of `actions` is illegal where it comes: the line then ends before it,
    /// all shown.
    pub fn catch_up(&mut self, actions: &[Action]) -> Result<Option<CaughtUp>, Illegal> {
        let kept = self
            .actions
            .iter()
            .zip(actions)
            .take_while(|(a, b)| a == b)
            .count();
        if kept == self.actions.len() && kept == actions.len() {
            return Ok(None);
        }
        let dropped = self.actions.len() - kept;
        self.shown = kept;
        self.cut();
        for &action in &actions[kept..] {
            self.play(action)?;
        }
        Ok(Some(CaughtUp {
            kept,
            dropped,
            added: actions.len() - kept,
        }))
    }
}

#[cfg(test)]
mod tests;
