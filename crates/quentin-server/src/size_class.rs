//! The board-size classes that ratings are kept apart by, as Go servers keep 9×9, 13×13 and
//! 19×19 apart: a game on a small board is short and tactical, and says little of a player's
//! strength on a large one. A player has one rating for each game and class.

use std::fmt;

use quentin_rules::{Game, Setup};

/// A class of board sizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SizeClass {
    /// 3×3 to 9×9 (and Quint's 8×8): quick games.
    Small,
    /// 10×10 to 15×15: the games' own sizes (Quentin 13, Konobi 11, Brique 15).
    Medium,
    /// 16×16 to 26×26.
    Large,
}

impl SizeClass {
    /// Every class, smallest first.
    pub const ALL: [SizeClass; 3] = [SizeClass::Small, SizeClass::Medium, SizeClass::Large];

    /// The class of a board side.
    #[must_use]
    pub fn of(size: usize) -> SizeClass {
        match size {
            ..=9 => SizeClass::Small,
            10..=15 => SizeClass::Medium,
            _ => SizeClass::Large,
        }
    }

    /// The class a game's setup is rated in.
    #[must_use]
    pub fn of_setup(setup: Setup) -> SizeClass {
        SizeClass::of(setup.size)
    }

    /// Its name in the store: `small`, `medium`, `large`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            SizeClass::Small => "small",
            SizeClass::Medium => "medium",
            SizeClass::Large => "large",
        }
    }

    /// The class named `name` ([`SizeClass::name`]).
    #[must_use]
    pub fn from_name(name: &str) -> Option<SizeClass> {
        SizeClass::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// The sizes for people: `3-9`, `10-15`, `16-26`.
impl fmt::Display for SizeClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SizeClass::Small => "3-9",
            SizeClass::Medium => "10-15",
            SizeClass::Large => "16-26",
        })
    }
}

/// What a rating is kept for: a game and a class of its board sizes.
pub type RatingKey = (Game, SizeClass);

/// The rating key of a game's setup.
#[must_use]
pub fn rating_key(setup: Setup) -> RatingKey {
    (setup.game, SizeClass::of_setup(setup))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_game_s_own_size_is_medium_and_quint_small() {
        for game in [Game::Quentin, Game::Konobi, Game::Brique] {
            assert_eq!(SizeClass::of_setup(Setup::new(game)), SizeClass::Medium);
        }
        assert_eq!(
            SizeClass::of_setup(Setup::new(Game::Quint)),
            SizeClass::Small
        );
        assert_eq!(SizeClass::of(5), SizeClass::Small);
        assert_eq!(SizeClass::of(19), SizeClass::Large);
        for class in SizeClass::ALL {
            assert_eq!(SizeClass::from_name(class.name()), Some(class));
        }
    }
}
