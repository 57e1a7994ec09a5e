//! The words of the app's messages.

use crate::rules::{Action, Color, Illegal, KonobiViolation, Point, Position};

use super::Look;

/// `13×13`, or `13x13` in ASCII.
#[must_use]
pub fn dimensions(size: usize, look: Look) -> String {
    let times = if look.ascii { 'x' } else { '×' };
    format!("{size}{times}{size}")
}

/// `12,345` for a count of playouts, visits or positions.
#[must_use]
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `a1, pass` for a message.
pub(super) fn join(actions: &[Action]) -> String {
    actions
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// `, filling 3 points with black and 1 with white` (nothing when nothing is filled); `unit`
/// names what is filled, `point` or `square`.
pub(super) fn fills_text(filled: [usize; 2], unit: &str) -> String {
    let points = |n: usize| {
        if n == 1 {
            unit.to_string()
        } else {
            format!("{unit}s")
        }
    };
    match filled {
        [0, 0] => String::new(),
        [b, 0] => format!(", filling {b} {} with black", points(b)),
        [0, w] => format!(", filling {w} {} with white", points(w)),
        [b, w] => format!(", filling {b} {} with black and {w} with white", points(b)),
    }
}

/// The stones an action would remove, such as `white c3 and d4` (`None` when it removes none).
/// Only the mover's opponent ever loses stones.
#[must_use]
pub fn removals_text(effect: &crate::rules::Preview) -> Option<String> {
    let removed: Vec<(Point, Color)> = effect.removals().collect();
    let &(_, color) = removed.first()?;
    let points: Vec<String> = removed.iter().map(|(p, _)| p.to_string()).collect();
    let points = match points.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => points.join(""),
    };
    Some(format!("{color} {points}"))
}

/// Why an action is refused, for a player: the rules' reason, with the way out when there is
/// one (Konobi's better point).
#[must_use]
pub fn refusal_text(reason: &Illegal) -> String {
    match reason {
        Illegal::Konobi(KonobiViolation::AvoidableWeakConnection { instead, .. }) => {
            format!("{reason}: play {instead}, or elsewhere")
        }
        other => other.to_string(),
    }
}

/// `, wins for Black` when playing `action` in `position` ends the game with a win (for either
/// side: a Quentin fill can complete the opponent's chain); nothing otherwise.
#[must_use]
pub fn wins_text(position: &Position, action: Action) -> String {
    let mut next = position.clone();
    if next.play(action).is_err() {
        return String::new();
    }
    match next.outcome().and_then(|o| o.winner()) {
        Some(winner) => format!(", wins for {}", winner.capitalised()),
        None => String::new(),
    }
}

/// The hint shown the first time Konobi refuses a weak connection that a strong one could
/// replace: in Konobi most diagonal moves are refused early on, and that is no bug.
pub const KONOBI_TIP: &str = "Normal in Konobi: a stone may join another only corner to \
                               corner when no free point beside that other stone could join \
                               it side by side, so most diagonal moves are refused early on. \
                               ? shows the rules.";
