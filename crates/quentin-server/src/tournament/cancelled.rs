//! The message a cancelled tournament leaves its entrants: why it was cancelled, said once here
//! for the lobby and the bot protocol's `messages`.

use std::fmt;

use crate::ids::TournamentId;

/// Why a tournament was cancelled: the message its entrants find in their lobby (and a bot
/// with `messages`), kept in the store as its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cancelled {
    /// Too few joined by its start.
    TooFew {
        /// The tournament.
        id: TournamentId,
        /// How many joined.
        joined: usize,
        /// How many it needed.
        needed: u32,
    },
    /// Its creator cancelled it before its start.
    ByCreator {
        /// The tournament.
        id: TournamentId,
        /// The creator's name.
        creator: String,
    },
    /// An operator cancelled it.
    ByOperator(TournamentId),
}

impl fmt::Display for Cancelled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cancelled::TooFew { id, joined, needed } => write!(
                f,
                "tournament {id} is cancelled: {joined} joined, {needed} needed to start"
            ),
            Cancelled::ByCreator { id, creator } => {
                write!(f, "tournament {id} is cancelled by its creator {creator}")
            }
            Cancelled::ByOperator(id) => write!(f, "tournament {id} is cancelled by an operator"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cancelled_tournament_says_why_to_its_entrants() {
        let id = TournamentId(3);
        assert_eq!(
            Cancelled::TooFew {
                id,
                joined: 1,
                needed: 2
            }
            .to_string(),
            "tournament t3 is cancelled: 1 joined, 2 needed to start"
        );
        assert_eq!(
            Cancelled::ByCreator {
                id,
                creator: "alice".to_string()
            }
            .to_string(),
            "tournament t3 is cancelled by its creator alice"
        );
        assert_eq!(
            Cancelled::ByOperator(id).to_string(),
            "tournament t3 is cancelled by an operator"
        );
    }
}
