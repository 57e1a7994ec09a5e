//! The views of a replayed position that `quentin replay` prints: the JSON object of
//! docs/records.md for programs, and a board with coordinates for people.

use serde_json::{Value, json};

use crate::rules::{Action, Color, Ending, Point, Position};

/// The JSON object of `quentin replay --json`: game, size, pie, ply, moves, side to move,
/// winner (`"draw"` for a drawn game), board (top row first), legal actions and, in Quint, the
/// pieces in hand.
#[must_use]
pub fn json(position: &Position, moves: &[Action]) -> Value {
    let setup = position.setup();
    let legal: Vec<String> = position
        .legal_actions()
        .iter()
        .map(ToString::to_string)
        .collect();
    let winner = position
        .outcome()
        .map(|o| o.winner().map_or("draw", Color::name));
    let mut object = json!({
        "game": setup.game.name(),
        "size": setup.size,
        "pie": setup.pie,
        "ply": position.ply(),
        "moves": moves.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "to_move": position.to_move().map(Color::name),
        "winner": winner,
        "board": position.board().rows(),
        "legal": legal,
    });
    if let Some(in_hand) = position.in_hand() {
        object["in_hand"] = json!({
            "white": in_hand[Color::White.index()],
            "black": in_hand[Color::Black.index()],
        });
    }
    object
}

/// The column letters line of a text board: `a b c …`, indented past the row numbers.
fn letters_line(size: usize) -> String {
    let letters: Vec<String> = (0..size)
        .map(|c| Point::new(c, 0).col_letter().to_string())
        .collect();
    format!("    {}", letters.join(" "))
}

/// The position for people: the board with coordinates (the winning chain in lower case), then
/// what happens next.
#[must_use]
pub fn text(position: &Position, moves: &[Action]) -> String {
    let setup = position.setup();
    let n = setup.size;
    let chain = position.outcome().map(|o| *o.line());
    let options = if setup.game.has_pie() {
        format!("pie rule {}", if setup.pie { "on" } else { "off" })
    } else {
        format!("{} pieces each", setup.pieces)
    };
    let mut out = format!(
        "{} {n}×{n}, {options}, after {} action{}\n\n",
        setup.game.title(),
        moves.len(),
        if moves.len() == 1 { "" } else { "s" }
    );
    out.push_str(&letters_line(n));
    out.push('\n');
    for row in (0..n).rev() {
        out.push_str(&format!("{:>3} ", row + 1));
        for col in 0..n {
            let p = Point::new(col, row);
            let mut ch = position.get(p).map_or('.', Color::letter);
            if chain.is_some_and(|c| c.contains(p)) {
                ch = ch.to_ascii_lowercase();
            }
            out.push(ch);
            if col + 1 < n {
                out.push(' ');
            }
        }
        out.push_str(&format!(" {}\n", row + 1));
    }
    out.push_str(&letters_line(n));
    out.push_str("\n\n");
    if let Some(in_hand) = position.in_hand() {
        out.push_str(&format!(
            "In hand: White {}, Black {}\n",
            in_hand[Color::White.index()],
            in_hand[Color::Black.index()]
        ));
    }
    if let Some(last) = moves.last() {
        out.push_str(&format!("Last action: {last}\n"));
    }
    match (position.outcome(), position.to_move()) {
        (Some(outcome), _) => match (outcome.winner(), outcome.ending()) {
            (Some(winner), ending @ (Ending::NoPieceLeft | Ending::NoLegalAction)) => {
                let why = if ending == Ending::NoPieceLeft {
                    "has no piece left"
                } else {
                    "has no legal move"
                };
                out.push_str(&format!(
                    "{} wins: {} {why}.\n",
                    winner.capitalised(),
                    winner.opponent().capitalised()
                ));
            }
            (Some(winner), ending) => {
                let line = if ending == Ending::Quint {
                    "five in a row".to_string()
                } else {
                    format!("a chain of {} stones", outcome.line().len())
                };
                out.push_str(&format!(
                    "{} wins with {line} (shown in lower case).\n",
                    winner.capitalised()
                ));
            }
            (None, _) => {
                out.push_str("The game is drawn by the third repetition of a position.\n");
            }
        },
        (None, Some(color)) => {
            let legal = position.legal_actions();
            if legal == [Action::Pass] {
                out.push_str(&format!(
                    "{} to move, and must pass: no placement is legal.\n",
                    color.capitalised()
                ));
            } else {
                out.push_str(&format!(
                    "{} to move; {} legal action{}.\n",
                    color.capitalised(),
                    legal.len(),
                    if legal.len() == 1 { "" } else { "s" }
                ));
            }
        }
        (None, None) => {}
    }
    out
}
