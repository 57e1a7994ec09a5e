//! Why a Quint action is illegal: the reasons the rules give.

use std::fmt;

use crate::Illegal;
use crate::color::Color;
use crate::point::Point;

/// Why a Quint action is illegal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuintViolation {
    /// A drop after both players have dropped all their pieces.
    DropsOver,
    /// A step while `color` still has `in_hand` pieces to drop.
    DropsNotOver {
        /// The side to move.
        color: Color,
        /// Its pieces in hand.
        in_hand: usize,
    },
    /// A drop on, or a step to, a cell that holds a piece.
    NotEmpty(Point),
    /// A step from a cell that holds no piece of the side to move.
    NotOwnPiece {
        /// The cell the step starts from.
        from: Point,
        /// The side to move.
        color: Color,
    },
    /// A step that is not one cell up, down, left or right.
    NotOneStep {
        /// Where it starts.
        from: Point,
        /// Where it ends.
        to: Point,
    },
    /// A captured cell that is not orthogonally next to the step's destination.
    NotNextTo {
        /// The cell named as captured.
        capture: Point,
        /// The step's destination.
        to: Point,
    },
    /// A captured cell that holds no enemy piece.
    NoEnemy {
        /// The cell named as captured.
        capture: Point,
        /// The colour it should hold.
        enemy: Color,
    },
    /// A captured cell with no piece of the mover directly beyond it.
    NothingBeyond {
        /// The cell named as captured.
        capture: Point,
        /// The mover.
        color: Color,
    },
    /// `pass`: a player with no legal action has lost instead.
    NoPass,
}

impl fmt::Display for QuintViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QuintViolation::DropsOver => f.write_str("drops are over: move a piece"),
            QuintViolation::DropsNotOver { color, in_hand } => write!(
                f,
                "{color} still has {in_hand} piece{} to drop",
                if *in_hand == 1 { "" } else { "s" }
            ),
            QuintViolation::NotEmpty(p) => write!(f, "{p} is not empty"),
            QuintViolation::NotOwnPiece { from, color } => {
                write!(f, "{from} holds no {color} piece")
            }
            QuintViolation::NotOneStep { from, to } => {
                write!(f, "{from}-{to} is not a one-step orthogonal move")
            }
            QuintViolation::NotNextTo { capture, to } => {
                write!(f, "{capture} cannot be captured: it is not next to {to}")
            }
            QuintViolation::NoEnemy { capture, enemy } => {
                write!(f, "{capture} cannot be captured: it holds no {enemy} piece")
            }
            QuintViolation::NothingBeyond { capture, color } => {
                write!(
                    f,
                    "{capture} cannot be captured: no {color} piece beyond it"
                )
            }
            QuintViolation::NoPass => {
                f.write_str("Quint has no pass: a player without a legal action loses")
            }
        }
    }
}

impl From<QuintViolation> for Illegal {
    fn from(v: QuintViolation) -> Illegal {
        Illegal::Quint(v)
    }
}
