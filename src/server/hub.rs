//! The hub: every player, challenge and game the server knows, behind one lock, over the store.
//! Every change is committed to the store first and kept in memory only once committed; then
//! those who watch are told. The rules decide every move; the hub only asks them.
//!
//! Times are milliseconds since the epoch, passed in by the caller from the server's clock, so
//! that tests can move time on without waiting.

mod views;

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasher, Hasher};
use std::sync::{Mutex, MutexGuard};

use anyhow::Result;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use tokio::sync::watch;

use crate::rules::{Action, Color, Game, Position};

use super::spec::{First, Spec};
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

    /// Registers the key's player as `name`.
    ///
    /// # Errors
    /// `bad name`, `name taken`, or the key already has a name.
    pub fn register(&self, key: &str, name: &str, now: i64) -> Result<(i64, String), Refusal> {
        if !good_name(name) {
            return refuse("bad name");
        }
        let mut inner = self.lock();
        if let Ok(Some(p)) = inner.store.player_by_key(key) {
            return refuse(format!("this key is already {}", p.name));
        }
        let row = match inner.store.add_player(key, name, now) {
            Ok(Some(row)) => row,
            Ok(None) => return refuse("name taken"),
            Err(e) => return refuse(format!("the server cannot save: {e}")),
        };
        inner.players.insert(
            row.id,
            Player {
                name: row.name.clone(),
                ratings: HashMap::new(),
            },
        );
        drop(inner);
        self.lobby_changed();
        Ok((row.id, row.name))
    }

    /// Counts a session of `player` in, if it may have one more than `open` (the limit per
    /// key); [`Hub::leave`] counts it out.
    pub fn enter(&self, player: i64, most: usize) -> Result<(), Refusal> {
        let mut inner = self.lock();
        let n = inner.online.entry(player).or_insert(0);
        if *n >= most {
            return refuse(format!("too many sessions: at most {most} for one key"));
        }
        *n += 1;
        drop(inner);
        self.lobby_changed();
        Ok(())
    }

    /// Counts a session of `player` out.
    pub fn leave(&self, player: i64) {
        let mut inner = self.lock();
        if let Some(n) = inner.online.get_mut(&player) {
            *n -= 1;
            if *n == 0 {
                inner.online.remove(&player);
            }
        }
        drop(inner);
        self.lobby_changed();
    }

    /// A new challenge by `by`; its number.
    ///
    /// # Errors
    /// Too many open challenges, an opponent who does not exist or is oneself.
    pub fn challenge(&self, by: i64, spec: &Spec) -> Result<i64, Refusal> {
        let mut inner = self.lock();
        let open = inner.challenges.values().filter(|c| c.by == by).count();
        if open >= inner.limits.challenges_per_player {
            return refuse(format!(
                "too many open challenges: at most {}",
                inner.limits.challenges_per_player
            ));
        }
        let to = match &spec.to {
            None => None,
            Some(name) => match inner.store.player_by_name(name) {
                Ok(Some(p)) if p.id == by => return refuse("you cannot challenge yourself"),
                Ok(Some(p)) => Some(p.id),
                _ => return refuse(format!("no player named {}", super::spec::shown(name))),
            },
        };
        let id = inner
            .store
            .add_challenge(
                by,
                spec.setup,
                spec.first.name(),
                spec.clock,
                spec.rated,
                to,
            )
            .map_err(|e| Refusal(format!("the server cannot save: {e}")))?;
        inner.challenges.insert(
            id,
            ChallengeRow {
                id,
                by,
                setup: spec.setup,
                first: spec.first.name().to_string(),
                clock: spec.clock,
                rated: spec.rated,
                to,
            },
        );
        drop(inner);
        self.lobby_changed();
        Ok(id)
    }

    /// Withdraws `by`'s challenge `id`.
    ///
    /// # Errors
    /// No such open challenge of this player.
    pub fn withdraw(&self, by: i64, id: i64) -> Result<(), Refusal> {
        let mut inner = self.lock();
        match inner.challenges.get(&id) {
            Some(c) if c.by == by => {}
            Some(_) => return refuse("not your challenge"),
            None => return refuse("no such challenge"),
        }
        inner
            .store
            .close_challenge(id)
            .map_err(|e| Refusal(format!("the server cannot save: {e}")))?;
        inner.challenges.remove(&id);
        drop(inner);
        self.lobby_changed();
        Ok(())
    }

    /// `player` accepts challenge `id`: the game starts; its number (the challenge's) and the
    /// colour `player` has.
    ///
    /// # Errors
    /// No such open challenge, one's own, or one meant for somebody else.
    pub fn accept(&self, player: i64, id: i64, now: i64) -> Result<(i64, Color), Refusal> {
        let mut inner = self.lock();
        let Some(challenge) = inner.challenges.get(&id).cloned() else {
            return refuse("no such challenge");
        };
        if challenge.by == player {
            return refuse("that is your own challenge");
        }
        if challenge.to.is_some_and(|to| to != player) {
            return refuse("that challenge is for somebody else");
        }
        let first = First::from_name(&challenge.first).unwrap_or(First::Random);
        let challenger_first = match first {
            First::Me => true,
            First::You => false,
            First::Random => {
                std::collections::hash_map::RandomState::new()
                    .build_hasher()
                    .finish()
                    & 1
                    == 0
            }
        };
        let players = if challenger_first {
            [challenge.by, player]
        } else {
            [player, challenge.by]
        };
        let start = challenge.clock.start_ms();
        let row = GameRow {
            id,
            setup: challenge.setup,
            players,
            clock: challenge.clock,
            rated: challenge.rated,
            left: [start, start],
            turn_since: now,
            actions: Vec::new(),
            result: None,
            ended: None,
        };
        let position = challenge
            .setup
            .start()
            .map_err(|e| Refusal(e.to_string()))?;
        inner
            .store
            .start_game(&row)
            .map_err(|e| Refusal(format!("the server cannot save: {e}")))?;
        inner.challenges.remove(&id);
        let seat = usize::from(players[1] == player);
        let color = color_of(&position, seat);
        let (news, _) = watch::channel(0);
        inner.games.insert(
            id,
            Live {
                row,
                position,
                takeback: None,
                news,
            },
        );
        drop(inner);
        self.lobby_changed();
        Ok((id, color))
    }

    /// `player` plays `action` in game `id`: answered once it is on disk.
    ///
    /// # Errors
    /// Not in the game, not its turn, an illegal action, a game over (perhaps just now, on
    /// time), or a store that cannot save.
    pub fn play(&self, player: i64, id: i64, action: Action, now: i64) -> Result<(), Refusal> {
        let mut inner = self.lock();
        let inner = &mut *inner;
        let Some(game) = inner.games.get_mut(&id) else {
            return refuse("no such game");
        };
        let Some(seat) = game.row.players.iter().position(|p| *p == player) else {
            return refuse("not your game");
        };
        if game.row.result.is_some() {
            return refuse("the game is over");
        }
        let flagged = Self::flag(&mut inner.store, &mut inner.players, game, now)
            .map_err(|e| Refusal(format!("the server cannot save: {e}")))?;
        if flagged {
            self.lobby_changed();
            return refuse("the game is over: time ran out");
        }
        if game.to_move() != Some(seat) {
            return refuse("not your turn");
        }
        let mut position = game.position.clone();
        if let Err(why) = position.play(action) {
            return refuse(format!("illegal move: {why}"));
        }
        let mut left = game.left_at(now);
        left[seat] = game.row.clock.after_move_ms(left[seat]);
        let end = position.outcome().map(|o| {
            (
                o.winner().map_or("draw", Color::name).to_string(),
                ending_word(o.ending()).to_string(),
            )
        });
        let winner_seat = position
            .outcome()
            .and_then(|o| o.winner())
            .map(|c| seat_of(&position, c));
        let ratings = if end.is_some() && game.row.rated {
            rate(&inner.players, &game.row, winner_seat)
        } else {
            Vec::new()
        };
        inner
            .store
            .add_action(
                id,
                game.row.actions.len(),
                Some(action),
                (left, now),
                end.as_ref().map(|(r, w)| (r.as_str(), w.as_str())),
                &ratings,
            )
            .map_err(|e| Refusal(format!("the server cannot save: {e}")))?;
        game.position = position;
        game.row.actions.push(action);
        game.row.left = left;
        game.row.turn_since = now;
        game.takeback = None;
        if end.is_some() {
            game.row.ended = Some(now);
        }
        game.row.result = end;
        keep_ratings(&mut inner.players, &ratings);
        game.news.send_modify(|v| *v += 1);
        let over = game.row.result.is_some();
        if over {
            self.lobby_changed();
        }
        Ok(())
    }

    /// `player` resigns game `id`.
    ///
    /// # Errors
    /// Not in the game, a game over, a store that cannot save.
    pub fn resign(&self, player: i64, id: i64, now: i64) -> Result<(), Refusal> {
        let mut inner = self.lock();
        let inner = &mut *inner;
        let Some(game) = inner.games.get_mut(&id) else {
            return refuse("no such game");
        };
        let Some(seat) = game.row.players.iter().position(|p| *p == player) else {
            return refuse("not your game");
        };
        if game.row.result.is_some() {
            return refuse("the game is over");
        }
        Self::end(
            &mut inner.store,
            &mut inner.players,
            game,
            1 - seat,
            "resignation",
            now,
        )
        .map_err(|e| Refusal(format!("the server cannot save: {e}")))?;
        self.lobby_changed();
        Ok(())
    }

    /// Ends every game whose player to move has run out of time at `now`; whether any did.
    pub fn tick(&self, now: i64) -> bool {
        let mut inner = self.lock();
        let inner = &mut *inner;
        let mut any = false;
        for game in inner.games.values_mut() {
            any |= Self::flag(&mut inner.store, &mut inner.players, game, now).unwrap_or(false);
        }
        if let Err(e) = inner.store.beat(now) {
            eprintln!("quentin serve: cannot write the heartbeat: {e}");
        }
        if any {
            self.lobby_changed();
        }
        any
    }

    /// Ends `game` on time if its player to move has none left at `now`.
    fn flag(
        store: &mut Store,
        players: &mut HashMap<i64, Player>,
        game: &mut Live,
        now: i64,
    ) -> Result<bool> {
        let Some(seat) = game.to_move() else {
            return Ok(false);
        };
        if game.left_at(now)[seat] > 0 {
            return Ok(false);
        }
        Self::end(store, players, game, 1 - seat, "time", now)?;
        Ok(true)
    }

    /// Ends `game` with seat `winner` the winner, for `reason`.
    fn end(
        store: &mut Store,
        players: &mut HashMap<i64, Player>,
        game: &mut Live,
        winner: usize,
        reason: &str,
        now: i64,
    ) -> Result<()> {
        let mut left = game.left_at(now);
        for l in &mut left {
            *l = (*l).max(0);
        }
        let result = color_of(&game.position, winner).name().to_string();
        let ratings = if game.row.rated {
            rate(players, &game.row, Some(winner))
        } else {
            Vec::new()
        };
        store.add_action(
            game.row.id,
            game.row.actions.len(),
            None,
            (left, now),
            Some((&result, reason)),
            &ratings,
        )?;
        game.row.left = left;
        game.row.turn_since = now;
        game.row.result = Some((result, reason.to_string()));
        game.row.ended = Some(now);
        keep_ratings(players, &ratings);
        game.news.send_modify(|v| *v += 1);
        Ok(())
    }

    /// `player` asks to take the last action back, or agrees to the other's asking; in casual
    /// games only. Whether the action was taken back.
    ///
    /// # Errors
    /// A rated game, nothing to take back, not one's game.
    pub fn takeback(&self, player: i64, id: i64, now: i64) -> Result<bool, Refusal> {
        let mut inner = self.lock();
        let inner = &mut *inner;
        let Some(game) = inner.games.get_mut(&id) else {
            return refuse("no such game");
        };
        let Some(seat) = game.row.players.iter().position(|p| *p == player) else {
            return refuse("not your game");
        };
        if game.row.rated {
            return refuse("a rated game has no takebacks");
        }
        if game.row.result.is_some() {
            return refuse("the game is over");
        }
        if game.row.actions.is_empty() {
            return refuse("nothing to take back");
        }
        match game.takeback {
            Some(asker) if asker != seat => {
                let keep = game.row.actions.len() - 1;
                let mut position = game.row.setup.start().map_err(|e| Refusal(e.to_string()))?;
                for action in &game.row.actions[..keep] {
                    let _ = position.play(*action);
                }
                let left = game.left_at(now);
                inner
                    .store
                    .take_back(id, keep, left, now)
                    .map_err(|e| Refusal(format!("the server cannot save: {e}")))?;
                game.row.actions.truncate(keep);
                game.position = position;
                game.row.left = left;
                game.row.turn_since = now;
                game.takeback = None;
                game.news.send_modify(|v| *v += 1);
                Ok(true)
            }
            _ => {
                game.takeback = Some(seat);
                game.news.send_modify(|v| *v += 1);
                Ok(false)
            }
        }
    }

    /// `player` declines the other's takeback request.
    pub fn decline_takeback(&self, player: i64, id: i64) {
        let mut inner = self.lock();
        if let Some(game) = inner.games.get_mut(&id)
            && let Some(seat) = game.row.players.iter().position(|p| *p == player)
            && game.takeback.is_some_and(|asker| asker != seat)
        {
            game.takeback = None;
            game.news.send_modify(|v| *v += 1);
        }
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

/// The two players' new ratings after `row` ended with seat `winner` winning (`None`: a draw).
fn rate(
    players: &HashMap<i64, Player>,
    row: &GameRow,
    winner: Option<usize>,
) -> Vec<(i64, Game, RatingRow)> {
    let game = row.setup.game;
    let of = |id: i64| {
        players
            .get(&id)
            .and_then(|p| p.ratings.get(&game))
            .copied()
            .unwrap_or_default()
    };
    let [a, b] = row.players.map(of);
    let glicko = |r: RatingRow| Glicko2Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    };
    let outcome = match winner {
        Some(0) => Outcomes::WIN,
        Some(_) => Outcomes::LOSS,
        None => Outcomes::DRAW,
    };
    let (na, nb) = glicko2(&glicko(a), &glicko(b), &outcome, &Glicko2Config::new());
    let back = |n: Glicko2Rating, old: RatingRow| RatingRow {
        rating: n.rating,
        deviation: n.deviation,
        volatility: n.volatility,
        games: old.games + 1,
    };
    vec![
        (row.players[0], game, back(na, a)),
        (row.players[1], game, back(nb, b)),
    ]
}

fn keep_ratings(players: &mut HashMap<i64, Player>, ratings: &[(i64, Game, RatingRow)]) {
    for (id, game, rating) in ratings {
        if let Some(p) = players.get_mut(id) {
            p.ratings.insert(*game, *rating);
        }
    }
}

#[cfg(test)]
mod tests;
