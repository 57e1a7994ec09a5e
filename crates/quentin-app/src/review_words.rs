//! The words of a game's review that the screen and `quentin review` both say: a player's
//! summary line, and what a proof says of a marked action.

use crate::search::review::PlayerSummary;

/// `1 blunder`, `2 mistakes`.
#[must_use]
pub fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A player's line of the summary: `Player 1 "ann": 12 actions, 1 inaccuracy, 2 mistakes, 0
/// blunders; average loss 3.1% a move` (`name` already quoted, when there is one).
#[must_use]
pub fn summary_line(player: usize, name: Option<&str>, s: &PlayerSummary) -> String {
    let name = name.map_or(String::new(), |n| format!(" {n}"));
    let loss = s
        .average_loss
        .map_or("?".to_string(), |l| format!("{:.1}%", 100.0 * l));
    format!(
        "Player {player}{name}: {}, {}, {}, {}; average loss {loss} a move",
        counted(s.actions, "action", "actions"),
        counted(s.inaccuracies, "inaccuracy", "inaccuracies"),
        counted(s.mistakes, "mistake", "mistakes"),
        counted(s.blunders, "blunder", "blunders"),
    )
}
