//! The lobby's actions: registering a name, counting sessions in and out, making,
//! withdrawing and accepting challenges. Each change waits for the lobby's turn, so that two
//! of them never decide on the same memory; none waits for a game's.
//!
//! The `Hub` methods here: `register`, `enter`, `leave`, `challenge`, `withdraw`, `accept`.

use std::hash::{BuildHasher, Hasher};

use quentin_rules::Color;

use super::{Hub, Live, Refusal, color_of, good_name};
use crate::clock::Timing;
use crate::ids::{ChallengeId, GameId, Moment, PlayerId, Seat};
use crate::spec::{First, Spec};
use crate::store::{Applied, ChallengeRow, Change, GameRow};

impl Hub {
    /// Registers the key's player as `name`: their number and name, once on disk.
    ///
    /// # Errors
    /// A bad name, a name taken, a key that has a name, a store that cannot save.
    pub async fn register(
        &self,
        key: &str,
        name: &str,
        now: Moment,
    ) -> Result<(PlayerId, String), Refusal> {
        if !good_name(name) {
            return Err(Refusal::BadName);
        }
        let turn = self.lobby_turn.clone().lock_owned().await;
        {
            let inner = self.lock();
            if let Some(p) = inner.keys.get(key).and_then(|id| inner.players.get(id)) {
                return Err(Refusal::KeyHasName(p.name.clone()));
            }
            let lower = name.to_ascii_lowercase();
            // A name an operator took from a player is held from everyone until freed.
            if inner.names.contains_key(&lower) || self.sanctions.borrow().held.contains(&lower) {
                return Err(Refusal::NameTaken);
            }
        }
        let change = Change::AddPlayer {
            key: key.to_string(),
            name: name.to_string(),
            at: now,
        };
        let (key, name) = (key.to_string(), name.to_string());
        self.commit(change, vec![turn], move |inner, applied| match applied {
            Applied::Id(id) => {
                let id = PlayerId(id);
                inner.add_player(id, &name, &key);
                inner.lobby_changed();
                Ok((id, name))
            }
            _ => Err(Refusal::NameTaken),
        })
        .await
    }

    /// Counts a session of `player` in, if it may have one more than `most` (the limit per
    /// key); [`Hub::leave`] counts it out.
    ///
    /// # Errors
    /// Too many sessions.
    pub fn enter(&self, player: PlayerId, most: usize) -> Result<(), Refusal> {
        let mut inner = self.lock();
        let n = inner.online.entry(player).or_insert(0);
        if *n >= most {
            return Err(Refusal::TooManySessions(most));
        }
        *n += 1;
        if *n == 1 {
            inner.presence_changed(player);
        }
        inner.lobby_changed();
        drop(inner);
        if let Some(peers) = self.peers.get() {
            peers.presence_changed();
        }
        Ok(())
    }

    /// Counts a session of `player` out.
    pub fn leave(&self, player: PlayerId) {
        let mut inner = self.lock();
        if let Some(n) = inner.online.get_mut(&player) {
            *n -= 1;
            if *n == 0 {
                inner.online.remove(&player);
                inner.presence_changed(player);
            }
        }
        inner.lobby_changed();
        drop(inner);
        if let Some(peers) = self.peers.get() {
            peers.presence_changed();
        }
    }

    /// A new challenge by `by`; its number, once on disk.
    ///
    /// # Errors
    /// Too many open challenges, an opponent who does not exist or is oneself, a store that
    /// cannot save.
    pub async fn challenge(
        &self,
        by: PlayerId,
        spec: &Spec,
        now: Moment,
    ) -> Result<ChallengeId, Refusal> {
        let turn = self.lobby_turn.clone().lock_owned().await;
        let row = {
            let mut inner = self.lock();
            if spec.rated {
                inner.may_play_rated(by, now)?;
            }
            inner.ask(by, now)?;
            let open = inner.challenges.values().filter(|c| c.by == by).count();
            let most = inner.limits.challenges_per_player;
            if open >= most {
                return Err(Refusal::TooManyChallenges(most));
            }
            let to = match &spec.to {
                None => None,
                Some(name) => match inner.names.get(&name.to_ascii_lowercase()) {
                    Some(id) if *id == by => return Err(Refusal::ChallengeYourself),
                    Some(id) => Some(*id),
                    None => return Err(Refusal::NoSuchPlayer(name.clone())),
                },
            };
            ChallengeRow {
                id: ChallengeId(0),
                by,
                setup: spec.setup,
                first: spec.first,
                clock: spec.clock,
                rated: spec.rated,
                to,
            }
        };
        spec.setup.start().map_err(Refusal::BadSetup)?;
        let change = Change::AddChallenge(row.clone());
        self.commit(change, vec![turn], move |inner, applied| {
            let Applied::Id(id) = applied else {
                return Err(Refusal::NotSaved);
            };
            let id = ChallengeId(id);
            inner.challenges.insert(id, ChallengeRow { id, ..row });
            inner.lobby_changed();
            Ok(id)
        })
        .await
    }

    /// Withdraws `by`'s challenge `id`.
    ///
    /// # Errors
    /// No such open challenge of this player, a store that cannot save.
    pub async fn withdraw(&self, by: PlayerId, id: ChallengeId) -> Result<(), Refusal> {
        let turn = self.lobby_turn.clone().lock_owned().await;
        match self.lock().challenges.get(&id) {
            Some(c) if c.by == by => {}
            Some(_) => return Err(Refusal::NotYourChallenge),
            None => return Err(Refusal::NoSuchChallenge(id)),
        }
        self.commit(
            Change::CloseChallenge(id),
            vec![turn],
            move |inner, applied| {
                inner.challenges.remove(&id);
                inner.lobby_changed();
                // Accepted on another server process meanwhile.
                if applied == Applied::Taken {
                    return Err(Refusal::NoSuchChallenge(id));
                }
                Ok(())
            },
        )
        .await
    }

    /// `player` accepts challenge `id`: the game starts; its number (the challenge's) and the
    /// colour `player` has, once on disk.
    ///
    /// # Errors
    /// No such open challenge, one's own, one meant for somebody else, a store that cannot
    /// save.
    pub async fn accept(
        &self,
        player: PlayerId,
        id: ChallengeId,
        now: Moment,
    ) -> Result<(GameId, Color), Refusal> {
        let turn = self.lobby_turn.clone().lock_owned().await;
        let Some(challenge) = self.lock().challenges.get(&id).cloned() else {
            return Err(Refusal::NoSuchChallenge(id));
        };
        if challenge.by == player {
            return Err(Refusal::OwnChallenge);
        }
        if challenge.to.is_some_and(|to| to != player) {
            return Err(Refusal::ForSomebodyElse);
        }
        let rated = {
            let mut inner = self.lock();
            inner.may_start_live(player, challenge.clock)?;
            inner.may_start_live(challenge.by, challenge.clock)?;
            if challenge.rated {
                inner.may_play_rated(player, now)?;
            }
            inner.ask(player, now)?;
            // Past the pair's rated games of the day, the game is played casual; so is a
            // game of a player an operator marked (rated for nobody).
            let marked = {
                let sanctions = self.sanctions.borrow();
                sanctions.marked.contains(&player) || sanctions.marked.contains(&challenge.by)
            };
            challenge.rated && inner.may_rate(player, challenge.by, now) && !marked
        };
        let challenger_first = match challenge.first {
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
        let start = challenge.clock.start();
        let game = id.game();
        let row = GameRow {
            id: game,
            setup: challenge.setup,
            players,
            clock: challenge.clock,
            rated,
            left: [start, start],
            turn_since: now,
            actions: Vec::new(),
            result: None,
            ended: None,
        };
        let position = challenge.setup.start().map_err(Refusal::BadSetup)?;
        let seat = if players[1] == player {
            Seat::Second
        } else {
            Seat::First
        };
        let color = color_of(&position, seat);
        let change = Change::StartGame(row.clone());
        let peers = self.peers.get().cloned();
        self.commit(change, vec![turn], move |inner, applied| {
            inner.challenges.remove(&id);
            if applied == Applied::Taken {
                // Accepted or withdrawn on another server process meanwhile.
                inner.lobby_changed();
                return Err(Refusal::NoSuchChallenge(id));
            }
            // The process where a game starts owns it first.
            if let Some(peers) = peers {
                peers.started(game);
            }
            inner.games.insert(game, Live::new(row, position));
            inner.lobby_changed();
            let numbers = players.map(|p| p.0);
            tracing::info!(game = %game, players = ?numbers, "a game starts");
            Ok((game, color))
        })
        .await
    }
}
