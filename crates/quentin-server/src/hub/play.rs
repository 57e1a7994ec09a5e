//! The moves of a game: playing, resigning, time running out, taking back by agreement, and
//! what a finished rated game does to the ratings. Each waits for its game's turn, is checked
//! by the rules, and is committed to the store before memory changes and anyone is told.
//!
//! The `Hub` methods here: `seat`, `play`, `play_here`, `resign`, `resign_here`, `tick`,
//! `out_of_time`, `end`, `start_end`, `act_here`, `check`. (A correspondence clock that runs
//! out may be saved by a vacation day: `hub/vacation.rs`.)

use std::collections::HashMap;

use tokio::sync::{OwnedMutexGuard, oneshot};

use quentin_rules::Action;

use super::fair::RATED_MIN_ACTIONS;
use super::{GameCommand, Held, Hub, Inner, Outcome, Owner, Player, Refusal, color_of};
use crate::clock::Timing;
use crate::ids::{GameId, Millis, Moment, PlayerId, Seat};
use crate::report::report;
use crate::size_class::{RatingKey, rating_key};
use crate::store::{Applied, Change, GameRow, RatingRow};
use quentin_record::game_end::{Aborted, GameEnd, How};

/// Why the hub ends a game that the rules did not end: a win of the seat it names (read as an
/// abort when the loser made no first move, or a rated game is too short to rate), or an
/// abort asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// Won by this seat, this way.
    Won(Seat, How),
    /// Aborted: by a player or an operator.
    Aborted(Aborted),
}

/// What the end of a game changes, decided before its commit.
struct Ending {
    id: GameId,
    left: [Millis; 2],
    end: GameEnd,
    /// The seat that won, unless aborted.
    winner: Option<Seat>,
    ratings: Vec<(PlayerId, RatingKey, RatingRow)>,
    /// For an end on time, the start of the turn it was judged from.
    since: Option<Moment>,
}

impl Hub {
    /// Waits for game `id`'s turn, then checks that `player` plays in it and that it goes on:
    /// the turn, held until the change is committed, and their seat.
    pub(super) async fn seat(
        &self,
        player: PlayerId,
        id: GameId,
    ) -> Result<(OwnedMutexGuard<()>, Seat), Refusal> {
        let turn = self.lock().live(id)?.turn.clone();
        let turn = turn.lock_owned().await;
        let seat = self.lock().live(id)?.seat_going_on(player)?;
        Ok((turn, seat))
    }

    /// `player` plays `action` in game `id`: answered once it is on disk.
    ///
    /// # Errors
    /// Not in the game, not its turn, an illegal action, a game over (perhaps just now, on
    /// time), or a store that cannot save.
    pub async fn play(
        &self,
        player: PlayerId,
        id: GameId,
        action: Action,
        now: Moment,
    ) -> Result<(), Refusal> {
        self.act(player, id, GameCommand::Play(action), now)
            .await
            .map(|_| ())
    }

    /// [`Hub::play`] in this process, which owns the game.
    async fn play_here(
        &self,
        player: PlayerId,
        id: GameId,
        action: Action,
        now: Moment,
    ) -> Result<(), Refusal> {
        let (turn, seat) = match self.seat(player, id).await {
            Ok(held) => held,
            // The move retried, which ended the game: it was saved.
            Err(Refusal::GameOver) if self.lock().live(id)?.just_played(player, action) => {
                return Ok(());
            }
            Err(refusal) => return Err(refusal),
        };
        // The move just saved, retried: answered as it was, whatever the store does now.
        if self.lock().live(id)?.just_played(player, action) {
            return Ok(());
        }
        // The store could not be written at the last heartbeat: nothing is tried, and no
        // clock runs, until it can (hub/outage.rs).
        if self.store_down() {
            return Err(Refusal::Unreachable);
        }
        if self.out_of_time(id, now) {
            let winner = seat_to_move(self, id).other();
            self.end(vec![turn], id, Stop::Won(winner, How::Time), now)
                .await?;
            return Err(Refusal::TimeRanOut);
        }
        let (position, left, rated) = {
            let inner = self.lock();
            let game = inner.live(id)?;
            if game.to_move() != Some(seat) {
                return Err(Refusal::NotYourTurn);
            }
            let mut position = game.position.clone();
            position.play(action).map_err(Refusal::Illegal)?;
            let mut left = game.left_at(now);
            left[seat] = game.row.clock.after_move(left[seat]);
            (position, left, game.row.rated)
        };
        let outcome = position.outcome();
        let end = match outcome.map(|o| GameEnd::by_rules(o.winner(), o.ending())) {
            Some(Err(impossible)) => {
                // The rules never give one; the move is refused rather than the game misread.
                tracing::error!(game = %id, "the rules ended the game as {impossible}");
                return Err(Refusal::NotSaved);
            }
            Some(Ok(end)) => Some(end),
            None => None,
        };
        let mut held = vec![turn];
        let winner = outcome
            .and_then(|o| o.winner())
            .map(|c| Seat::of(&position, c));
        let ratings = if end.is_some() && rated {
            held.push(self.ratings_turn.clone().lock_owned().await);
            let inner = self.lock();
            rate(&inner.players, &inner.live(id)?.row, winner)
        } else {
            Vec::new()
        };
        let index = self.lock().live(id)?.row.actions.len();
        let change = Change::AddAction {
            game: id,
            index,
            action: Some(action),
            left,
            at: now,
            end,
            winner,
            ratings: ratings.clone(),
            since: None,
        };
        self.commit(change, held, move |inner, applied| {
            // The ratings as the store computed them, when it did (several processes).
            let ratings = match applied {
                Applied::Rated(stored) => stored,
                _ => ratings,
            };
            let changes = keep_ratings(&mut inner.players, &ratings);
            let over = end.is_some();
            let Some(game) = inner.games.get_mut(&id) else {
                return Ok(());
            };
            game.changes = changes;
            game.position = position;
            game.row.actions.push(action);
            game.row.left = left;
            game.row.turn_since = now;
            game.takeback = None;
            if over {
                game.row.ended = Some(now);
            }
            game.row.result = end;
            game.told();
            if over {
                log_end(inner, id);
                inner.lobby_changed();
            }
            Ok(())
        })
        .await
    }

    /// `player` resigns game `id`.
    ///
    /// # Errors
    /// Not in the game, a game over, a store that cannot save.
    pub async fn resign(&self, player: PlayerId, id: GameId, now: Moment) -> Result<(), Refusal> {
        self.act(player, id, GameCommand::Resign, now)
            .await
            .map(|_| ())
    }

    async fn resign_here(&self, player: PlayerId, id: GameId, now: Moment) -> Result<(), Refusal> {
        let (turn, seat) = self.seat(player, id).await?;
        self.end(
            vec![turn],
            id,
            Stop::Won(seat.other(), How::Resignation),
            now,
        )
        .await
    }

    /// Ends every game whose player to move has run out of time at `now`, and writes the
    /// heartbeat, in one commit; whether any game ended. The games whose watchers came or went
    /// are told so.
    pub async fn tick(&self, now: Moment) -> bool {
        self.tell_watchers();
        // While the store cannot be written, the clocks stand still (hub/outage.rs).
        let down = self.store_down();
        let due: Vec<(GameId, super::Turn)> = self
            .lock()
            .games
            .values()
            .filter(|g| !down && g.flagged(now))
            // Only a game's owner ends it on time.
            .filter(|g| {
                self.peers
                    .get()
                    .is_none_or(|p| p.owner(g.row.id) == Owner::Me)
            })
            .map(|g| (g.row.id, g.turn.clone()))
            .collect();
        let mut ending = Vec::new();
        for (id, turn) in due {
            // A correspondence clock run out with a vacation day left: the day is taken, and
            // the game goes on (`hub/vacation.rs`).
            if self.vacation_saves(id, now).await {
                continue;
            }
            // A change of the game in flight: it sees the flag itself, or the next tick does.
            let Ok(turn) = turn.try_lock_owned() else {
                continue;
            };
            if !self.out_of_time(id, now) {
                continue;
            }
            let winner = seat_to_move(self, id).other();
            // A game that cannot be ended now is still running out: the next tick tries again.
            match self
                .start_end(vec![turn], id, Stop::Won(winner, How::Time), now)
                .await
            {
                Ok(answer) => ending.push(answer),
                Err(e) => report(format_args!(
                    "cannot end game {id} on time (tried again at the next tick): {e}"
                )),
            }
        }
        // Several processes on one database keep no one heartbeat: each game's owner renews
        // its lease instead (docs/server.md).
        let beat = if self.peers.get().is_none() {
            Some(self.submit(Change::Beat(now), Vec::new(), |_, _| Ok(())))
        } else {
            None
        };
        let mut any = false;
        for answer in ending {
            any |= matches!(answer.await, Ok(Ok(())));
        }
        if let Some(beat) = beat {
            self.beaten(beat, now).await;
        }
        any
    }

    /// Whether the player to move in game `id` has no time left at `now`.
    pub(super) fn out_of_time(&self, id: GameId, now: Moment) -> bool {
        self.lock().games.get(&id).is_some_and(|g| g.flagged(now))
    }

    /// Ends game `id` with seat `winner` the winner, for `stop`; once on disk.
    pub(super) async fn end(
        &self,
        held: Held,
        id: GameId,
        stop: Stop,
        now: Moment,
    ) -> Result<(), Refusal> {
        self.start_end(held, id, stop, now)
            .await?
            .await
            .unwrap_or(Err(Refusal::NotSaved))
    }

    /// Sends the end of game `id` to the store; its answer comes once on disk.
    async fn start_end(
        &self,
        mut held: Held,
        id: GameId,
        stop: Stop,
        now: Moment,
    ) -> Result<oneshot::Receiver<Result<(), Refusal>>, Refusal> {
        if self.lock().live(id)?.row.rated {
            held.push(self.ratings_turn.clone().lock_owned().await);
        }
        let ending = {
            let inner = self.lock();
            let game = inner.live(id)?;
            // Aborted when asked, or when the loser has made no move yet (the first two
            // actions are each seat's first), or a rated game too short to rate (fair.rs):
            // won by nobody, not rated. Outside a tournament, a game the winner never moved in
            // (the loser resigned, or left, after their own first move) is aborted too: no
            // win for a player who never played. In a tournament it stands: a result is due.
            let unmoved = |seat: Seat| game.row.actions.len() <= seat.index();
            let short = game.row.rated && game.row.actions.len() < RATED_MIN_ACTIONS;
            let casual = inner.in_tournament(id).is_none();
            let end = match stop {
                Stop::Aborted(why) => GameEnd::Aborted(why),
                Stop::Won(winner, _) if unmoved(winner.other()) => {
                    GameEnd::Aborted(Aborted::NoFirstMove)
                }
                Stop::Won(_, _) if short => GameEnd::Aborted(Aborted::TooShort),
                Stop::Won(winner, _) if casual && unmoved(winner) => {
                    GameEnd::Aborted(Aborted::Asked(Some(winner.other())))
                }
                Stop::Won(winner, how) => GameEnd::Won {
                    by: color_of(&game.position, winner),
                    how,
                },
            };
            let winner = match stop {
                Stop::Won(winner, _) if !end.aborted() => Some(winner),
                _ => None,
            };
            let aborted = end.aborted();
            Ending {
                id,
                left: game.left_at(now).map(|l| l.max(Millis(0))),
                end,
                winner,
                ratings: if game.row.rated && !aborted {
                    rate(&inner.players, &game.row, winner)
                } else {
                    Vec::new()
                },
                since: matches!(stop, Stop::Won(_, How::Time)).then_some(game.row.turn_since),
            }
        };
        let change = Change::AddAction {
            game: id,
            index: self.lock().live(id)?.row.actions.len(),
            action: None,
            left: ending.left,
            at: now,
            end: Some(ending.end),
            winner: ending.winner,
            ratings: ending.ratings.clone(),
            since: ending.since,
        };
        Ok(self.submit(change, held, move |inner, applied| {
            let ratings = match applied {
                Applied::Rated(stored) => stored,
                _ => ending.ratings,
            };
            let changes = keep_ratings(&mut inner.players, &ratings);
            if let Some(game) = inner.games.get_mut(&ending.id) {
                game.changes = changes;
                game.row.left = ending.left;
                game.row.turn_since = now;
                game.row.result = Some(ending.end);
                game.row.ended = Some(now);
                game.told();
            }
            log_end(inner, ending.id);
            inner.lobby_changed();
            Ok(())
        }))
    }

    /// `command` run here: this process owns game `id` (or is the only one).
    ///
    /// # Errors
    /// As the command's own.
    pub async fn act_here(
        &self,
        player: PlayerId,
        id: GameId,
        command: GameCommand,
        now: Moment,
    ) -> Result<Outcome, Refusal> {
        match command {
            GameCommand::Play(action) => self
                .play_here(player, id, action, now)
                .await
                .map(|()| Outcome::Done),
            GameCommand::Resign => self
                .resign_here(player, id, now)
                .await
                .map(|()| Outcome::Done),
            GameCommand::TakeBack => self.takeback_here(player, id, now).await.map(|taken| {
                if taken {
                    Outcome::TakenBack
                } else {
                    Outcome::Asked
                }
            }),
            GameCommand::Decline => self.decline_here(player, id).map(|()| Outcome::Done),
            GameCommand::Abort => self
                .abort_here(player, id, now)
                .await
                .map(|()| Outcome::Done),
            GameCommand::Shown => self
                .shown_here(player, id, now)
                .await
                .map(|()| Outcome::Done),
            GameCommand::Vacation(hours) => self
                .more_time_here(player, id, hours, now)
                .await
                .map(|()| Outcome::Done),
        }
    }

    /// What this process's copy of game `id` says of `command` by `player`, without waiting:
    /// not one's game, over, not one's turn, illegal.
    pub fn check(&self, player: PlayerId, id: GameId, command: GameCommand) -> Result<(), Refusal> {
        let inner = self.lock();
        let game = inner.live(id)?;
        let seat = game.seat_going_on(player)?;
        if let GameCommand::Play(action) = command {
            if game.to_move() != Some(seat) {
                return Err(Refusal::NotYourTurn);
            }
            game.position
                .clone()
                .play(action)
                .map_err(Refusal::Illegal)?;
        }
        Ok(())
    }
}

/// The seat to move in game `id` (the first when none: asked only of a game that goes on).
fn seat_to_move(hub: &Hub, id: GameId) -> Seat {
    hub.lock()
        .games
        .get(&id)
        .and_then(super::Live::to_move)
        .unwrap_or(Seat::First)
}

/// Tells the host's log that game `id` ended.
fn log_end(inner: &Inner, id: GameId) {
    if let Some(game) = inner.games.get(&id) {
        let names = game.row.players.map(|p| {
            inner
                .players
                .get(&p)
                .map_or_else(|| format!("#{p}"), |p| p.name.clone())
        });
        let (result, reason) = game.row.result.map(GameEnd::words).unwrap_or_default();
        tracing::info!(game = %id, black_or_first = %names[0], second = %names[1], %result, %reason, "a game ends");
    }
}
/// The two players' new ratings after `row` ended with seat `winner` winning (`None`: a draw).
fn rate(
    players: &HashMap<PlayerId, Player>,
    row: &GameRow,
    winner: Option<Seat>,
) -> Vec<(PlayerId, RatingKey, RatingRow)> {
    // A rating for each game and board-size class: a 5×5 game moves no 13×13 rating.
    let key = rating_key(row.setup);
    let of = |id: PlayerId| {
        players
            .get(&id)
            .and_then(|p| p.ratings.get(&key))
            .copied()
            .unwrap_or_default()
    };
    let [a, b] = crate::rating::after_game(row.players.map(of), winner);
    vec![(row.players[0], key, a), (row.players[1], key, b)]
}

/// Keeps the new `ratings` of a game's two players (player 1's first); what each changed by,
/// rounded as shown, when there are two.
fn keep_ratings(
    players: &mut HashMap<PlayerId, Player>,
    ratings: &[(PlayerId, RatingKey, RatingRow)],
) -> Option<[i64; 2]> {
    let mut changes = Vec::new();
    for (id, key, rating) in ratings {
        if let Some(p) = players.get_mut(id) {
            let old = p.ratings.insert(*key, *rating).unwrap_or_default();
            changes.push(rating.rating.round() as i64 - old.rating.round() as i64);
        }
    }
    <[i64; 2]>::try_from(changes).ok()
}
