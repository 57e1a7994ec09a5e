//! A level's answers, computed from the rules: what each [`Kind`] means, as code.

use crate::rules::{Action, Color, Outcome, Position};

use super::Kind;

/// The position after `action` (legal in `position`).
fn after(position: &Position, action: Action) -> Option<Position> {
    let mut next = position.clone();
    next.play(action).ok()?;
    Some(next)
}

/// Whether `action` wins at once for the side to move of `position`.
#[must_use]
pub fn wins_at_once(position: &Position, action: Action) -> bool {
    let Some(mover) = position.to_move() else {
        return false;
    };
    after(position, action).is_some_and(|p| p.winner() == Some(mover))
}

/// The actions of the side to move that win at once.
#[must_use]
pub fn winning(position: &Position) -> Vec<Action> {
    position
        .legal_actions()
        .into_iter()
        .filter(|&a| wins_at_once(position, a))
        .collect()
}

/// Whether, after `action`, the opponent of the mover of `position` cannot win at once (the
/// game over counts: nobody then moves). A forced pass of the opponent hands the move back,
/// which is not a win.
#[must_use]
pub fn blocks(position: &Position, action: Action) -> bool {
    let Some(mover) = position.to_move() else {
        return false;
    };
    let Some(next) = after(position, action) else {
        return false;
    };
    if next.is_over() {
        return next.winner() != Some(mover.opponent());
    }
    if next.to_move() != Some(mover.opponent()) {
        return true;
    }
    winning(&next).is_empty()
}

/// Whether `action` fills at least one point with the mover's colour.
fn fills(position: &Position, action: Action, mover: Color) -> bool {
    position
        .preview(action)
        .is_ok_and(|p| p.fills().any(|(_, c)| c == mover))
}

/// Exactly the right moves of a level of `kind` on `position` (`points`: those a `legal`
/// level names); `None` for [`Kind::Move`], whose answers the file lists.
#[must_use]
pub fn computed(
    kind: Kind,
    position: &Position,
    points: &[crate::rules::Point],
) -> Option<Vec<Action>> {
    let mover = position.to_move()?;
    let legal = position.legal_actions();
    let mut answers: Vec<Action> = match kind {
        Kind::Win => legal
            .into_iter()
            .filter(|&a| wins_at_once(position, a))
            .collect(),
        Kind::Block => legal.into_iter().filter(|&a| blocks(position, a)).collect(),
        Kind::Legal => points
            .iter()
            .map(|&p| Action::Place(p))
            .filter(|a| legal.contains(a))
            .collect(),
        Kind::Fill => legal
            .into_iter()
            .filter(|&a| fills(position, a, mover))
            .collect(),
        Kind::Take => legal
            .into_iter()
            .filter(|a| matches!(a, Action::Step { captures, .. } if !captures.is_empty()))
            .collect(),
        Kind::Draw => legal
            .into_iter()
            .filter(|&a| {
                after(position, a).is_some_and(|p| matches!(p.outcome(), Some(Outcome::Draw)))
            })
            .collect(),
        Kind::Move => return None,
    };
    answers.sort();
    answers.dedup();
    Some(answers)
}

/// The opponent's reply that shows why `position` (after the learner's wrong move) is wrong:
/// a win at once when it has one; else, when the level asked for a win, a move after which the
/// learner no longer wins at once. `None` when the game is over or nothing shows it.
#[must_use]
pub fn reply(position: &Position, kind: Kind) -> Option<(Action, bool)> {
    if position.is_over() {
        return None;
    }
    if let Some(&win) = winning(position).first() {
        return Some((win, true));
    }
    if kind != Kind::Win {
        return None;
    }
    position
        .legal_actions()
        .into_iter()
        .find(|&a| blocks(position, a) && !matches!(a, Action::Pass))
        .map(|a| (a, false))
}
