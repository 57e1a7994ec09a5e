//! The hub: every player, challenge and game the server knows, in memory, over the store.
//! Every change is committed to the store first and kept in memory only once committed (on the
//! store's thread, in the order of the commits); then those who watch are told. The memory's
//! lock is held for moments only, never while the disk works. The changes of one game wait for
//! each other (its `turn`), so do those of the lobby and of the ratings; nothing else waits.
//! The rules decide every move; the hub only asks them.
//!
//! Times are milliseconds since the epoch, passed in by the caller from the server's clock, so
//! that tests can move time on without waiting.
//!
//! The `Hub` methods here: `over`, `join`, `hold`, `note`, `lock`, `damaged`, `watch_lobby`,
//! `watch_game`, `player_of_key`, `name`, `submit`, `commit`, `integrity`, `close`.

mod agree;
mod command;
mod course;
mod director;
mod fair;
mod open;
pub use fair::FairLimits;
mod listings;
mod lobby;
mod mirror;
mod moderate;
mod outage;
mod play;
mod presence;
mod puzzles;
mod route;
mod summons;
mod tournaments;
mod vacation;
mod views;

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use anyhow::Result;
use tokio::sync::{OwnedMutexGuard, oneshot, watch};

use quentin_record::game_line::{GameLine, takeback_len};
use quentin_rules::{Action, Color, Illegal, Position, SetupError};

use super::clock::Timing;
use super::ids::{ChallengeId, GameId, Millis, PlayerId, Seat, TournamentId};
use super::size_class::RatingKey;
use super::store::{
    Applied, ChallengeRow, Change, Damaged, GameRow, LeaseLost, Loaded, RatingRow, Stale,
    StoreDown, Writer,
};
use crate::ids::Moment;
use crate::note::Note;

pub use crate::command::{GameCommand, Outcome};
pub use crate::refusal::Refusal;
pub use agree::Rematch;
pub use command::{Owner, PeerFuture, Peers};
pub use listings::PAGE;
pub use presence::Watching;
pub use summons::InTournament;
#[cfg(test)]
pub use tournaments::TournamentGame;
pub use tournaments::TournamentView;
pub use vacation::{DEFAULT_VACATION_DAYS, Vacation};
pub use views::{
    ChallengeView, GameView, OnlinePlayer, PROVISIONAL, Standing, shown_rating, signed,
};

/// The hub's limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HubLimits {
    /// Open challenges a player may have at once.
    pub challenges_per_player: usize,
    /// The limits of fair play ([`FairLimits`]).
    pub fair: FairLimits,
    /// Vacation days a player has a year (`--vacation-days`, `hub/vacation.rs`).
    pub vacation_days: u32,
}

impl Default for HubLimits {
    fn default() -> HubLimits {
        HubLimits {
            challenges_per_player: 10,
            fair: FairLimits::default(),
            vacation_days: DEFAULT_VACATION_DAYS,
        }
    }
}

/// A player the hub knows.
#[derive(Clone, Debug)]
pub(crate) struct Player {
    pub(crate) name: String,
    pub(crate) ratings: HashMap<RatingKey, RatingRow>,
}

/// Waits its turn to change something: one change at a time of what it guards.
type Turn = Arc<tokio::sync::Mutex<()>>;

/// A game in memory: its row and the position its actions reach.
pub(crate) struct Live {
    pub(crate) row: GameRow,
    pub(crate) position: Position,
    /// Who asked to take back (0 or 1), in a casual game: their last action and the reply
    /// after it, if any.
    pub(crate) takeback: Option<Seat>,
    /// Once over: who offers a rematch (memory only).
    pub(crate) rematch: Option<Seat>,
    /// Once over: the rematch's game, when both agreed.
    pub(crate) rematch_game: Option<GameId>,
    /// Once over: the offer of a rematch was declined.
    pub(crate) rematch_declined: bool,
    /// Once over: the seat whose offer of a rematch was asked on this process (memory only):
    /// when another process says the other seat asked too, at once, one of the two starts the
    /// game ([`Hub::mirror_rematch`]).
    pub(crate) rematch_here: Option<Seat>,
    /// Once over: this process is starting the rematch (memory only): no second start.
    pub(crate) rematch_starting: bool,
    /// What its end changed each player's rating by, once a rated game is over (memory only).
    pub(crate) changes: Option<[i64; 2]>,
    /// How many game screens watch it, its players' not counted.
    pub(crate) watchers: usize,
    /// The count of watchers its news last told.
    pub(crate) watchers_told: usize,
    /// Whether each seat's first-move timer was started afresh as its tournament game was
    /// shown to it (memory only: once a process).
    pub(crate) shown: [bool; 2],
    pub(crate) news: watch::Sender<u64>,
    /// Held from a change's check to its commit: the game's changes come one at a time.
    turn: Turn,
}

impl Live {
    fn new(row: GameRow, position: Position) -> Live {
        Live {
            row,
            position,
            takeback: None,
            rematch: None,
            rematch_game: None,
            rematch_declined: false,
            rematch_here: None,
            rematch_starting: false,
            changes: None,
            watchers: 0,
            watchers_told: 0,
            shown: [false; 2],
            news: watch::channel(0).0,
            turn: Turn::default(),
        }
    }

    /// The seat of the player to move; `None` once over.
    pub(crate) fn to_move(&self) -> Option<Seat> {
        if self.row.result.is_some() {
            return None;
        }
        self.position.to_move().map(|c| Seat::of(&self.position, c))
    }

    /// The seat of `player`, in a game that goes on: the guard of every change of a game.
    ///
    /// # Errors
    /// Not one's game, or over.
    pub(crate) fn seat_going_on(&self, player: PlayerId) -> Result<Seat, Refusal> {
        let seat = self.seat_of_player(player)?;
        if self.row.result.is_some() {
            return Err(Refusal::GameOver);
        }
        Ok(seat)
    }

    /// The milliseconds left to each player at `now`. A player's first move does not run
    /// their clock: it has a timer of its own ([`Live::first_move_left`]).
    pub(crate) fn left_at(&self, now: Moment) -> [Millis; 2] {
        let mut left = self.row.left;
        if let Some(p) = self.to_move()
            && self.first_move_pending().is_none()
        {
            left[p] -= (now - self.row.turn_since).max(Millis::ZERO);
        }
        left
    }

    /// The seat to move while it has made no first move (the first two actions are each
    /// player's first), in a game that goes on.
    pub(crate) fn first_move_pending(&self) -> Option<Seat> {
        self.to_move().filter(|_| self.row.actions.len() < 2)
    }

    /// The milliseconds left at `now` for the first move of the seat to move, while it has
    /// made none; past them the game is aborted.
    pub(crate) fn first_move_left(&self, now: Moment) -> Option<Millis> {
        self.first_move_pending()?;
        Some(self.row.clock.first_move() - (now - self.row.turn_since).max(Millis::ZERO))
    }

    /// Whether the player to move has run out of time at `now`, on their clock or on their
    /// first move's timer.
    pub(crate) fn flagged(&self, now: Moment) -> bool {
        self.first_move_left(now).is_some_and(|l| l <= Millis::ZERO)
            || self
                .to_move()
                .is_some_and(|seat| self.left_at(now)[seat] <= Millis::ZERO)
    }

    /// How many actions a takeback asked by `seat` takes back (0: none to take back).
    pub(crate) fn takeback_len(&self, seat: Seat) -> usize {
        match self.row.setup.start() {
            Ok(start) => takeback_len(&start, &self.row.actions, seat.index()),
            Err(_) => 0,
        }
    }

    fn told(&self) {
        self.news.send_modify(|v| *v += 1);
    }
}

/// The colour seat `seat` plays in `position`.
#[must_use]
pub fn color_of(position: &Position, seat: Seat) -> Color {
    if Seat::of(position, Color::Black) == seat {
        Color::Black
    } else {
        Color::White
    }
}

/// What the hub holds in memory: what the store holds, and who is online.
pub(crate) struct Inner {
    pub(crate) players: HashMap<PlayerId, Player>,
    /// Each player's number by their key.
    keys: HashMap<String, PlayerId>,
    /// Each player's number by their name in lower case (names are ASCII).
    names: HashMap<String, PlayerId>,
    pub(crate) challenges: BTreeMap<ChallengeId, ChallengeRow>,
    pub(crate) games: BTreeMap<GameId, Live>,
    /// The games the store holds damaged, and why: out of play.
    damaged: BTreeMap<GameId, String>,
    /// Every damaged row, games and challenges.
    damaged_rows: Vec<Damaged>,
    /// Sessions open for each player.
    pub(crate) online: HashMap<PlayerId, usize>,
    /// Sessions open for each player on the other processes of the database.
    pub(crate) online_elsewhere: HashMap<PlayerId, usize>,
    /// Each player's recent challenges and accepts.
    asks: fair::Asks,
    lobby: watch::Sender<u64>,
    limits: HubLimits,
    /// The last heartbeat written.
    last_beat: Moment,
    /// Since when the store cannot be written (its last heartbeat), while it cannot.
    down_since: Option<Moment>,
    /// The best puzzle ratings, as last read from the store ([`Hub::refresh_puzzle_leaders`]).
    puzzle_leaders: Vec<(String, RatingRow)>,
    /// Every tournament, with its entrants and pairings.
    pub(crate) tournaments: BTreeMap<TournamentId, super::store::TournamentRow>,
}

impl Inner {
    fn lobby_changed(&self) {
        self.lobby.send_modify(|v| *v += 1);
    }

    fn add_player(&mut self, id: PlayerId, name: &str, key: &str) {
        self.players.insert(
            id,
            Player {
                name: name.to_string(),
                ratings: HashMap::new(),
            },
        );
        self.keys.insert(key.to_string(), id);
        self.names.insert(name.to_ascii_lowercase(), id);
    }

    /// Why game `id` is not here.
    fn missing(&self, id: GameId) -> Refusal {
        if self.damaged.contains_key(&id) {
            Refusal::Damaged(id)
        } else {
            Refusal::NoSuchGame(id)
        }
    }

    /// Game `id`, or why not.
    pub(crate) fn live(&self, id: GameId) -> Result<&Live, Refusal> {
        self.games.get(&id).ok_or_else(|| self.missing(id))
    }
}

/// Everything the server knows.
pub struct Hub {
    memory: Arc<Mutex<Inner>>,
    store: Writer,
    /// Held by a change of the players or challenges, from its check to its commit.
    lobby_turn: Turn,
    /// Held by the end of a rated game, from its check to its commit.
    ratings_turn: Turn,
    /// Held while a vacation day is taken for a player whose clock ran out
    /// (`hub/vacation.rs`): one day for one running out, however many ticks see it.
    vacation_turn: Turn,
    /// The other processes on the same database, if any.
    peers: OnceLock<Arc<dyn Peers>>,
    /// The sanctions in force, as the ledger last said (`hub/moderate.rs`).
    sanctions: watch::Sender<Arc<super::moderation::Sanctions>>,
}

/// Names: 2 to 20 letters, digits, `-` and `_`.
#[must_use]
pub fn good_name(name: &str) -> bool {
    (2..=20).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// What a change holds until it is committed: the turns it waited for.
type Held = Vec<OwnedMutexGuard<()>>;

impl Hub {
    /// The hub over what the store `loaded`, with `forgive` ms of downtime forgiven to its
    /// unfinished games, its changes sent to `store`.
    fn over(
        loaded: Loaded,
        forgive: Option<Millis>,
        store: Writer,
        limits: HubLimits,
        now: Moment,
    ) -> Hub {
        let (lobby, _) = watch::channel(0);
        let mut inner = Inner {
            players: HashMap::new(),
            keys: HashMap::new(),
            names: HashMap::new(),
            challenges: BTreeMap::new(),
            games: BTreeMap::new(),
            damaged: BTreeMap::new(),
            damaged_rows: Vec::new(),
            online: HashMap::new(),
            online_elsewhere: HashMap::new(),
            asks: fair::Asks::default(),
            lobby,
            limits,
            last_beat: now,
            down_since: None,
            puzzle_leaders: Vec::new(),
            tournaments: loaded
                .tournaments
                .iter()
                .map(|t| (t.id, t.clone()))
                .collect(),
        };
        for p in &loaded.players {
            inner.add_player(p.id, &p.name, &p.key);
        }
        for (id, game, rating) in loaded.ratings {
            if let Some(p) = inner.players.get_mut(&id) {
                p.ratings.insert(game, rating);
            }
        }
        let mut damaged = loaded.damaged;
        inner.challenges = loaded
            .challenges
            .into_iter()
            .filter_map(|c| match c.setup.start() {
                Ok(_) => Some((c.id, c)),
                Err(e) => {
                    damaged.push(Damaged {
                        kind: "challenge",
                        id: c.id.0,
                        why: e.to_string(),
                    });
                    None
                }
            })
            .collect();
        for mut row in loaded.games {
            if row.result.is_none() {
                row.turn_since += forgive.unwrap_or(Millis::ZERO);
            }
            match replay(&row) {
                Ok(position) => {
                    inner.games.insert(row.id, Live::new(row, position));
                }
                Err(why) => damaged.push(Damaged {
                    kind: "game",
                    id: row.id.0,
                    why: why.to_string(),
                }),
            }
        }
        damaged.sort_by_key(|d| (d.kind, d.id));
        inner.damaged = damaged
            .iter()
            .filter(|d| d.kind == "game")
            .map(|d| (GameId(d.id), d.why.clone()))
            .collect();
        inner.damaged_rows = damaged;
        Hub {
            memory: Arc::new(Mutex::new(inner)),
            store,
            lobby_turn: Turn::default(),
            ratings_turn: Turn::default(),
            vacation_turn: Turn::default(),
            peers: OnceLock::new(),
            sanctions: watch::channel(Arc::default()).0,
        }
    }

    /// Joins the other processes on the same database: from now on a game's commands go to
    /// its owner.
    pub fn join(&self, peers: Arc<dyn Peers>) {
        let _ = self.peers.set(peers);
    }

    /// For the tests (`hold ID`): opens a transaction that locks game `id`'s lease as a move's
    /// does, and leaves it open, as a process frozen in the middle of a move would.
    ///
    /// # Errors
    /// One process alone, or a lease that cannot be locked.
    pub async fn hold(&self, id: GameId) -> Result<(), String> {
        match self.peers.get() {
            Some(peers) => peers.hold(id).await,
            None => Err("hold needs several processes on a database".to_string()),
        }
    }

    /// Tells the other processes `note`, if there are any.
    fn note(&self, note: Note) {
        if let Some(peers) = self.peers.get() {
            peers.note(note);
        }
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, Inner> {
        lock(&self.memory)
    }

    /// The games and challenges the store holds damaged, kept out of play.
    #[must_use]
    pub fn damaged(&self) -> Vec<Damaged> {
        self.lock().damaged_rows.clone()
    }

    /// News of the lobby: a change of players online, challenges or games.
    #[must_use]
    pub fn watch_lobby(&self) -> watch::Receiver<u64> {
        self.lock().lobby.subscribe()
    }

    /// News of game `id`.
    ///
    /// # Errors
    /// No such game, or a damaged one.
    pub fn watch_game(&self, id: GameId) -> Result<watch::Receiver<u64>, Refusal> {
        Ok(self.lock().live(id)?.news.subscribe())
    }

    /// The player of an SSH key's fingerprint: number and name.
    #[must_use]
    pub fn player_of_key(&self, key: &str) -> Option<(PlayerId, String)> {
        let inner = self.lock();
        let id = *inner.keys.get(key)?;
        Some((id, inner.players.get(&id)?.name.clone()))
    }

    /// A player's name.
    #[must_use]
    pub fn name(&self, id: PlayerId) -> Option<String> {
        self.lock().players.get(&id).map(|p| p.name.clone())
    }

    /// Commits `change`, holding `held` until it is on disk; then `apply` changes the memory
    /// (on the store's thread, in commit order, so even when the caller has gone) and its
    /// value is the answer. A change the store refuses leaves the memory as it was.
    fn submit<T: Send + 'static>(
        &self,
        change: Change,
        held: Held,
        apply: impl FnOnce(&mut Inner, Applied) -> Result<T, Refusal> + Send + 'static,
    ) -> oneshot::Receiver<Result<T, Refusal>> {
        let (answer, answered) = oneshot::channel();
        let memory = self.memory.clone();
        // The store's failures are logged with the game they were about.
        let span = tracing::info_span!("change", game = change.game().map(|g| g.0));
        self.store.send(
            change,
            Box::new(move |outcome| {
                let _in = span.enter();
                let result = match outcome {
                    // A tournament's change comes with its rows as the store holds them
                    // after it: they replace this process's copy once the change is applied
                    // to it, so that the copy is the store's, whatever was read meanwhile.
                    Ok(Applied::Tournament(applied, row)) => {
                        let mut inner = lock(&memory);
                        let result = apply(&mut inner, *applied);
                        inner.keep_tournament(*row);
                        result
                    }
                    Ok(applied) => apply(&mut lock(&memory), applied),
                    Err(e) if e.downcast_ref::<StoreDown>().is_some() => {
                        tracing::error!("{e:#}");
                        Err(Refusal::Unreachable)
                    }
                    Err(e) if e.downcast_ref::<LeaseLost>().is_some() => {
                        tracing::warn!("{e:#}: the game is moving");
                        Err(Refusal::Moving)
                    }
                    Err(e) if e.downcast_ref::<Stale>().is_some() => {
                        tracing::info!("{e:#}: judged again at the next tick");
                        Err(Refusal::Moving)
                    }
                    Err(e) => {
                        tracing::error!("the store cannot save: {e:#}");
                        Err(Refusal::NotSaved)
                    }
                };
                drop(held);
                let _ = answer.send(result);
            }),
        );
        answered
    }

    /// [`Hub::submit`], and waits for its answer.
    async fn commit<T: Send + 'static>(
        &self,
        change: Change,
        held: Held,
        apply: impl FnOnce(&mut Inner, Applied) -> Result<T, Refusal> + Send + 'static,
    ) -> Result<T, Refusal> {
        self.submit(change, held, apply)
            .await
            .unwrap_or(Err(Refusal::NotSaved))
    }

    /// `PRAGMA integrity_check` of the store.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn integrity(&self) -> Result<String> {
        let (answer, answered) = oneshot::channel();
        self.store.integrity(Box::new(move |result| {
            let _ = answer.send(result);
        }));
        answered.await?
    }

    /// Closes the store once everything sent to it is committed.
    pub async fn close(&self) {
        let (answer, answered) = oneshot::channel();
        self.store.close(Box::new(move || {
            let _ = answer.send(());
        }));
        let _ = answered.await;
    }
}

fn lock(memory: &Mutex<Inner>) -> MutexGuard<'_, Inner> {
    // A panic while holding the lock leaves nothing half-done in memory (changes are made
    // after the store commits, each in one go), so the data stays usable.
    memory
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The position `row`'s actions reach, by the rules; or why they do not.
fn replay(row: &GameRow) -> Result<Position, Unplayable> {
    let start = row.setup.start().map_err(Unplayable::Setup)?;
    GameLine::play_out(start, &row.actions)
        .map_err(|(n, e)| Unplayable::Illegal(n, row.actions[n], e))
}

/// Why a game's row cannot be played (a damaged row, or one another process wrote that the
/// rules refuse); its words, for the host's log and the damaged games' list, by `Display`.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Unplayable {
    /// Its setup cannot start a game.
    Setup(SetupError),
    /// Its action of this index, from 0, is illegal.
    Illegal(usize, Action, Illegal),
    /// The action after those already followed is illegal.
    Next(Illegal),
}

impl std::fmt::Display for Unplayable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unplayable::Setup(e) => write!(f, "its setup cannot start: {e}"),
            Unplayable::Illegal(n, action, e) => {
                write!(f, "move {}, {action}, is illegal: {e}", n + 1)
            }
            Unplayable::Next(e) => write!(f, "{e}"),
        }
    }
}

#[cfg(test)]
mod tests;
