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

/// Whether `action` wins in 2 for the side to move of `position`: the game goes on, and after
/// every answer of the opponent (or its forced pass) the mover has a win at once.
#[must_use]
pub fn wins_in_2(position: &Position, action: Action) -> bool {
    let Some(mover) = position.to_move() else {
        return false;
    };
    let Some(next) = after(position, action) else {
        return false;
    };
    if next.is_over() {
        return false;
    }
    if next.to_move() == Some(mover) {
        return !winning(&next).is_empty();
    }
    next.legal_actions().into_iter().all(|answer| {
        after(&next, answer).is_some_and(|p| p.to_move() == Some(mover) && !winning(&p).is_empty())
    })
}

/// The opponent's best answer after a right first move of a `win2` level: the one that
/// leaves the learner the fewest wins at once (the first of them on a tie). `None` when the
/// opponent is not to move.
#[must_use]
pub fn defence(position: &Position) -> Option<Action> {
    position.to_move()?;
    position
        .legal_actions()
        .into_iter()
        .filter_map(|a| after(position, a).map(|p| (winning(&p).len(), a)))
        .min_by_key(|&(wins, _)| wins)
        .map(|(_, a)| a)
}

/// Whether, after `action`, the game goes on and the opponent's one legal action is a pass.
#[must_use]
pub fn forces_a_pass(position: &Position, action: Action) -> bool {
    after(position, action).is_some_and(|p| !p.is_over() && p.legal_actions() == [Action::Pass])
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
        Kind::Win2 => legal
            .into_iter()
            .filter(|&a| wins_in_2(position, a))
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
        Kind::Pass => legal
            .into_iter()
            .filter(|&a| forces_a_pass(position, a))
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
    if !matches!(kind, Kind::Win | Kind::Win2) {
        return None;
    }
    position
        .legal_actions()
        .into_iter()
        .find(|&a| blocks(position, a) && !matches!(a, Action::Pass))
        .map(|a| (a, false))
}
