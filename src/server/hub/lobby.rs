//! The lobby's actions: registering a name, counting sessions in and out, making,
//! withdrawing and accepting challenges.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};

use tokio::sync::watch;

use crate::rules::Color;

use super::super::spec::{First, Spec};
use super::super::store::{ChallengeRow, GameRow};
use super::{Hub, Live, Player, Refusal, color_of, good_name, refuse};

impl Hub {
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
                _ => {
                    return refuse(format!(
                        "no player named {}",
                        super::super::spec::shown(name)
                    ));
                }
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
}
