//! The hub as a copy of what other server processes on the same database changed: the players,
//! challenges and games they committed, read back from the database when they say so, and who
//! is online there. A game's copy is replaced only when it is not this process's own (its owner
//! changes its memory as it commits), or when this process has just taken it over.
//!
//! The `Hub` methods here: `mirror_players`, `mirror_challenges`, `unknown_players`, `look_up`,
//! `mirror_games`, `mirror_rating_changes`, `mirror_move`, `mirror_takeback`, `mirror_online`,
//! `online_here`, `running_games`, `challenge_numbers`.

use std::collections::HashMap;

use super::{Hub, Live, Unplayable, replay};
use crate::ids::{ChallengeId, GameId, Millis, Moment, PlayerId, Seat};
use crate::size_class::{RatingKey, rating_key};
use crate::store::{ChallengeRow, GameRow, PlayerRow, RatingRow};
use quentin_rules::Action;

impl Hub {
    /// Players as the database has them now, and their ratings.
    pub fn mirror_players(
        &self,
        players: &[PlayerRow],
        ratings: &[(PlayerId, RatingKey, RatingRow)],
    ) {
        let mut inner = self.lock();
        for p in players {
            if !inner.players.contains_key(&p.id) {
                inner.add_player(p.id, &p.name, &p.key);
            }
        }
        for (id, game, rating) in ratings {
            if let Some(p) = inner.players.get_mut(id) {
                p.ratings.insert(*game, *rating);
            }
        }
        inner.lobby_changed();
    }

    /// The challenges `ids` as the database has them now: those in `open` are open, the others
    /// closed (accepted or withdrawn).
    pub fn mirror_challenges(&self, ids: &[ChallengeId], open: Vec<ChallengeRow>) {
        let mut inner = self.lock();
        let mut changed = false;
        for id in ids {
            changed |= inner.challenges.remove(id).is_some();
        }
        for c in open {
            changed |= inner.challenges.insert(c.id, c.clone()).as_ref() != Some(&c);
        }
        // A look-up that found nothing new wakes no lobby.
        if changed {
            inner.lobby_changed();
        }
    }

    /// Those of `players` this process has not heard of.
    pub fn unknown_players(&self, players: impl Iterator<Item = PlayerId>) -> Vec<PlayerId> {
        let inner = self.lock();
        let mut unknown: Vec<PlayerId> =
            players.filter(|p| !inner.players.contains_key(p)).collect();
        unknown.sort_unstable();
        unknown.dedup();
        unknown
    }

    /// Before a command on game `id` (with `game`) or its challenge is answered, when this
    /// process has not heard of it: another process may have made it a moment ago (a game
    /// started from a challenge this process knows open, too), its news not here yet, so the
    /// database is asked (and what it has is copied in, as its news would have been) rather
    /// than the command refused with `no such`.
    pub async fn look_up(&self, id: GameId, game: bool) {
        let Some(peers) = self.peers.get() else {
            return;
        };
        let heard = {
            let inner = self.lock();
            inner.games.contains_key(&id)
                || inner.damaged.contains_key(&id)
                || (!game && inner.challenges.contains_key(&id.challenge()))
        };
        if !heard {
            peers.look_up(id).await;
        }
    }

    /// Games as the database has them now: the numbers of those that have just ended. A game
    /// that does not replay by the rules is left as it was (and the host told).
    pub fn mirror_games(&self, games: Vec<GameRow>) -> Vec<GameId> {
        let mut ended = Vec::new();
        let mut inner = self.lock();
        let mut lobby = false;
        for row in games {
            let id = row.id;
            match inner.games.get_mut(&id) {
                Some(live) if live.row == row => {}
                Some(live) => {
                    // Most often one action more: played on the copy, not replayed whole.
                    let extends = row.actions.len() == live.row.actions.len() + 1
                        && row.actions.starts_with(&live.row.actions);
                    let position = if extends {
                        let mut position = live.position.clone();
                        match position.play(row.actions[row.actions.len() - 1]) {
                            Ok(()) => Ok(position),
                            Err(e) => Err(Unplayable::Next(e)),
                        }
                    } else {
                        replay(&row)
                    };
                    match position {
                        Ok(position) => {
                            if live.row.result.is_none() && row.result.is_some() {
                                ended.push(id);
                            }
                            lobby |= live.row.result != row.result;
                            if live.row.actions != row.actions {
                                live.takeback = None;
                            }
                            live.position = position;
                            live.row = row;
                            live.told();
                        }
                        Err(why) => tracing::error!(game = %id, "cannot follow the game: {why}"),
                    }
                }
                None => match replay(&row) {
                    Ok(position) => {
                        inner.games.insert(id, Live::new(row, position));
                        lobby = true;
                    }
                    Err(why) => tracing::error!(game = %id, "cannot follow the game: {why}"),
                },
            }
        }
        if lobby {
            inner.lobby_changed();
        }
        ended
    }

    /// The rating changes of the rated games `ended` (just ended on another process), from
    /// the players' ratings here before and in `ratings` after: shown as the owner's are.
    pub fn mirror_rating_changes(
        &self,
        ended: &[GameId],
        ratings: &[(PlayerId, RatingKey, RatingRow)],
    ) {
        let mut inner = self.lock();
        for id in ended {
            let Some(game) = inner.games.get(id) else {
                continue;
            };
            if !game.row.rated {
                continue;
            }
            let key = rating_key(game.row.setup);
            let players = game.row.players;
            let change = players.map(|p| {
                let old = inner
                    .players
                    .get(&p)
                    .and_then(|p| p.ratings.get(&key))
                    .copied()
                    .unwrap_or_default();
                let new = ratings
                    .iter()
                    .find(|(q, k, _)| *q == p && *k == key)
                    .map_or(old, |(_, _, r)| *r);
                new.rating.round() as i64 - old.rating.round() as i64
            });
            if let Some(game) = inner.games.get_mut(id) {
                game.changes = Some(change);
                game.told();
            }
        }
    }

    /// Action number `index` of game `id`, played on another process, with the clocks after it
    /// and its time: played on this copy when the copy has the actions before it, else
    /// false (the game is then read back).
    pub fn mirror_move(
        &self,
        id: GameId,
        index: usize,
        action: Action,
        left: [Millis; 2],
        at: Moment,
    ) -> bool {
        let mut inner = self.lock();
        let Some(game) = inner.games.get_mut(&id) else {
            return false;
        };
        if game.row.actions.len() != index || game.row.result.is_some() {
            // Already here (read back since), or behind: read it back.
            return game.row.actions.len() > index;
        }
        let mut position = game.position.clone();
        if position.play(action).is_err() {
            return false;
        }
        game.position = position;
        game.row.actions.push(action);
        game.row.left = left;
        game.row.turn_since = at;
        game.takeback = None;
        game.told();
        true
    }

    /// Who asked to take back in game `id`, or nobody.
    pub fn mirror_takeback(&self, id: GameId, asker: Option<Seat>) {
        let mut inner = self.lock();
        if let Some(game) = inner.games.get_mut(&id) {
            game.takeback = asker;
            game.told();
        }
    }

    /// The sessions open for each player on the other processes.
    pub fn mirror_online(&self, elsewhere: HashMap<PlayerId, usize>) {
        let mut inner = self.lock();
        if inner.online_elsewhere != elsewhere {
            // The games of those who came or went hear of it (an opponent away, or back).
            let moved: Vec<PlayerId> = elsewhere
                .keys()
                .filter(|p| !inner.online_elsewhere.contains_key(p))
                .chain(
                    inner
                        .online_elsewhere
                        .keys()
                        .filter(|p| !elsewhere.contains_key(p)),
                )
                .copied()
                .collect();
            inner.online_elsewhere = elsewhere;
            for player in moved {
                inner.presence_changed(player);
            }
            inner.lobby_changed();
        }
    }

    /// The sessions open here for each player.
    #[must_use]
    pub fn online_here(&self) -> Vec<(PlayerId, usize)> {
        self.lock().online.iter().map(|(p, n)| (*p, *n)).collect()
    }

    /// The numbers of the games not over.
    #[must_use]
    pub fn running_games(&self) -> Vec<GameId> {
        self.lock()
            .games
            .values()
            .filter(|g| g.row.result.is_none())
            .map(|g| g.row.id)
            .collect()
    }

    /// The numbers of the open challenges.
    #[must_use]
    pub fn challenge_numbers(&self) -> Vec<ChallengeId> {
        self.lock().challenges.keys().copied().collect()
    }
}
