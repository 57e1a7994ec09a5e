//! The hub: every player, challenge and game the server knows, behind one lock, over the store.
//! Every change is committed to the store first and kept in memory only once committed; then
//! those who watch are told. The rules decide every move; the hub only asks them.
//!
//! Times are milliseconds since the epoch, passed in by the caller from the server's clock, so
//! that tests can move time on without waiting.

mod lobby;
mod play;
mod views;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, MutexGuard};

use anyhow::Result;
use tokio::sync::watch;

use crate::rules::{Color, Game, Position};

use super::store::{ChallengeRow, GameRow, RatingRow, Store};

pub use views::{ChallengeView, GameView, Standing};

/// A request refused, with the reason a player reads (after `? ` in the bot protocol).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal(pub String);

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn refuse<T>(why: impl Into<String>) -> Result<T, Refusal> {
    Err(Refusal(why.into()))
}

/// The hub's limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HubLimits {
    /// Open challenges a player may have at once.
    pub challenges_per_player: usize,
}

impl Default for HubLimits {
    fn default() -> HubLimits {
        HubLimits {
            challenges_per_player: 10,
        }
    }
}

/// A player the hub knows.
#[derive(Clone, Debug)]
pub(crate) struct Player {
    pub(crate) name: String,
    pub(crate) ratings: HashMap<Game, RatingRow>,
}

/// A game in memory: its row and the position its actions reach.
pub(crate) struct Live {
    pub(crate) row: GameRow,
    pub(crate) position: Position,
    /// Who asked to take the last action back (0 or 1), in a casual game.
    pub(crate) takeback: Option<usize>,
    pub(crate) news: watch::Sender<u64>,
}

impl Live {
    /// The index (0: player 1) of the player to move; `None` once over.
    pub(crate) fn to_move(&self) -> Option<usize> {
        if self.row.result.is_some() {
            return None;
        }
        self.position.to_move().map(|c| seat_of(&self.position, c))
    }

    /// The milliseconds left to each player at `now`.
    pub(crate) fn left_at(&self, now: i64) -> [i64; 2] {
        let mut left = self.row.left;
        if let Some(p) = self.to_move() {
            left[p] -= (now - self.row.turn_since).max(0);
        }
        left
    }
}

/// The seat (0 for player 1, who moved first) that plays `color` in `position`.
#[must_use]
pub fn seat_of(position: &Position, color: Color) -> usize {
    usize::from((color == position.game().first_color()) == position.swapped())
}

/// The colour seat `seat` plays in `position`.
#[must_use]
pub fn color_of(position: &Position, seat: usize) -> Color {
    if seat_of(position, Color::Black) == seat {
        Color::Black
    } else {
        Color::White
    }
}

pub(crate) struct Inner {
    pub(crate) store: Store,
    pub(crate) players: HashMap<i64, Player>,
    pub(crate) challenges: BTreeMap<i64, ChallengeRow>,
    pub(crate) games: BTreeMap<i64, Live>,
    /// Sessions open for each player.
    pub(crate) online: HashMap<i64, usize>,
    limits: HubLimits,
}

/// Everything the server knows.
pub struct Hub {
    inner: Mutex<Inner>,
    lobby: watch::Sender<u64>,
}

/// Names: 2 to 20 letters, digits, `-` and `_`.
#[must_use]
pub fn good_name(name: &str) -> bool {
    (2..=20).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

impl Hub {
    /// The hub over `store`, with the games and challenges it holds; the time the server was
    /// down (since its last heartbeat) is charged to nobody.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub fn open(store: Store, limits: HubLimits, now: i64) -> Result<Hub> {
        if let Some(alive) = store.heartbeat()? {
            store.forgive((now - alive).max(0))?;
        }
        store.beat(now)?;
        let mut players: HashMap<i64, Player> = store
            .players()?
            .into_iter()
            .map(|p| {
                (
                    p.id,
                    Player {
                        name: p.name,
                        ratings: HashMap::new(),
                    },
                )
            })
            .collect();
        for (id, game, rating) in store.ratings()? {
            if let Some(p) = players.get_mut(&id) {
                p.ratings.insert(game, rating);
            }
        }
        let challenges = store
            .open_challenges()?
            .into_iter()
            .map(|c| (c.id, c))
            .collect();
        let mut games = BTreeMap::new();
        for row in store.games()? {
            let mut position = row.setup.start()?;
            for action in &row.actions {
                position.play(*action)?;
            }
            let (news, _) = watch::channel(0);
            games.insert(
                row.id,
                Live {
                    row,
                    position,
                    takeback: None,
                    news,
                },
            );
        }
        let (lobby, _) = watch::channel(0);
        Ok(Hub {
            inner: Mutex::new(Inner {
                store,
                players,
                challenges,
                games,
                online: HashMap::new(),
                limits,
            }),
            lobby,
        })
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding the lock leaves nothing half-done in memory (changes are made
        // after the store commits), so the data stays usable.
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn lobby_changed(&self) {
        self.lobby.send_modify(|v| *v += 1);
    }

    /// News of the lobby: a change of players online, challenges or games.
    #[must_use]
    pub fn watch_lobby(&self) -> watch::Receiver<u64> {
        self.lobby.subscribe()
    }

    /// News of game `id`.
    #[must_use]
    pub fn watch_game(&self, id: i64) -> Option<watch::Receiver<u64>> {
        self.lock().games.get(&id).map(|g| g.news.subscribe())
    }

    /// The player of an SSH key's fingerprint: number and name.
    #[must_use]
    pub fn player_of_key(&self, key: &str) -> Option<(i64, String)> {
        let inner = self.lock();
        inner
            .store
            .player_by_key(key)
            .ok()
            .flatten()
            .map(|p| (p.id, p.name))
    }

    /// A player's name.
    #[must_use]
    pub fn name(&self, id: i64) -> Option<String> {
        self.lock().players.get(&id).map(|p| p.name.clone())
    }

    /// `PRAGMA integrity_check` of the store.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub fn integrity(&self) -> Result<String> {
        self.lock().store.integrity()
    }
}

/// The word for why a game ended, as the bot protocol and the records say it.
#[must_use]
pub fn ending_word(ending: crate::rules::Ending) -> &'static str {
    use crate::rules::Ending;
    match ending {
        Ending::Connection => "connection",
        Ending::Quint => "quint",
        Ending::NoPieceLeft => "no-piece-left",
        Ending::NoLegalAction => "no-legal-action",
        Ending::ThirdRepetition => "repetition",
    }
}

#[cfg(test)]
mod tests;
