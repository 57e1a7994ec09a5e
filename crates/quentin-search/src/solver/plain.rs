//! Quint's solver: a plain depth-first AND/OR search, without a table (see the parent module).
//!
//! Each line carries the rules' own position, its history with it, so that a third repetition
//! ends the line in a draw exactly where the game would, and a draw is not a win. A table would
//! have to key on the history to stay sound; the depths asked of Quint puzzles are small.

use quentin_rules::{Action, Position};

use super::{Counter, Engine, OutOfBudget, Settled, children};

/// The search, and whether its last question met a line cut by the depth.
pub(super) struct Plain {
    /// Whether the caller deepens to the end of the game (then the cuts are noted).
    to_end: bool,
    /// Whether a line was cut by the depth since the last call began.
    cut: bool,
}

impl Plain {
    pub(super) fn new(to_end: bool) -> Plain {
        Plain { to_end, cut: false }
    }

    /// Whether the attacker, to move in `pos`, wins within `depth` of its moves: `Some` with
    /// the moves a win needs.
    fn attacker_to_move(
        &mut self,
        pos: &Position,
        depth: usize,
        counter: &mut Counter,
    ) -> Result<Option<u16>, OutOfBudget> {
        let Some(attacker) = pos.to_move() else {
            return Ok(None);
        };
        if depth == 0 {
            self.cut = true;
            return Ok(None);
        }
        let kids = children(pos, None, true);
        for kid in &kids {
            counter.tick()?;
            if kid.pos.is_over() && kid.pos.winner() == Some(attacker) {
                return Ok(Some(1));
            }
        }
        // The defender's reply cannot make the attacker win: a step that captures has the same
        // step without captures beside it, and a drop or a step leaves the attacker's pieces as
        // they were (so with no exact five). A last move that does not win at once does not win.
        if depth == 1 {
            self.cut |= kids.iter().any(|k| !k.pos.is_over());
            return Ok(None);
        }
        for kid in kids.iter().filter(|k| !k.pos.is_over()) {
            if let Some(need) = self.defender_to_move_in(&kid.pos, depth - 1, counter)? {
                return Ok(Some(need + 1));
            }
        }
        Ok(None)
    }

    /// Whether the attacker wins within `depth` of its moves, the defender being to move in
    /// `pos`: `Some` with the moves the slowest reply leaves it needing.
    fn defender_to_move_in(
        &mut self,
        pos: &Position,
        depth: usize,
        counter: &mut Counter,
    ) -> Result<Option<u16>, OutOfBudget> {
        let Some(defender) = pos.to_move() else {
            return Ok(None);
        };
        let attacker = defender.opponent();
        let kids = children(pos, None, true);
        // The replies that end the game first: one that wins or draws holds it.
        for kid in &kids {
            counter.tick()?;
            if kid.pos.is_over() && kid.pos.winner() != Some(attacker) {
                return Ok(None);
            }
        }
        let mut need = 0;
        for kid in kids.iter().filter(|k| !k.pos.is_over()) {
            match self.attacker_to_move(&kid.pos, depth, counter)? {
                Some(n) => need = need.max(n),
                None => return Ok(None),
            }
        }
        Ok(Some(need))
    }
}

impl Engine for Plain {
    fn defender_to_move(
        &mut self,
        pos: &Position,
        _last: Action,
        depth: usize,
        counter: &mut Counter,
    ) -> Result<Settled, OutOfBudget> {
        self.cut = false;
        Ok(match self.defender_to_move_in(pos, depth, counter)? {
            Some(need) => Settled::Win(need),
            None => Settled::NoWinBelow(u16::try_from(depth + 1).unwrap_or(u16::MAX)),
        })
    }

    fn exhaustive(&self) -> bool {
        self.to_end && !self.cut
    }
}
