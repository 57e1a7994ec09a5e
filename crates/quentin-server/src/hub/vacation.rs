//! Vacation, as Little Golem's (issue 63): each player has `--vacation-days` a year, renewed
//! on 1 January (UTC). Days taken ahead (`vacation N`) or, one at a time, by the server when a
//! correspondence clock of theirs runs out while they have one left, give each of their
//! correspondence games going on 24 hours a day more on their clock; each opponent is left a
//! message. Live games are not touched. The days are counted in the store (`store/vacation.rs`,
//! decided in `store/plan.rs`), so that every process counts them alike; each game's time is
//! given by the game's owner, as a move is (`GameCommand::Vacation`).
//!
//! The `Hub` methods here: `vacation`, `take_vacation`, `more_time_here`, `vacation_saves`.

use std::fmt;

use super::{GameCommand, Hub, Refusal};
use crate::ids::{GameId, Millis, Moment, PlayerId};
use crate::store::puzzles::{PuzzleFound, PuzzleQuery};
use crate::store::vacation::{Take, left, year_of};
use crate::store::{Applied, Change};

/// The vacation days a year when `--vacation-days` is not given.
pub const DEFAULT_VACATION_DAYS: u32 = 20;

/// A player's vacation this year.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vacation {
    /// Days left.
    pub left: u32,
    /// Days taken.
    pub taken: u32,
    /// The year (UTC).
    pub year: i32,
    /// The correspondence games just given more time (0 when only asked).
    pub games: usize,
}

/// Why days of vacation were not taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VacationRefusal {
    /// More days asked than are left (or none).
    NotEnough {
        /// Days asked.
        asked: u32,
        /// Days left.
        left: u32,
    },
    /// The hub's own refusal (a store that cannot save).
    Hub(Refusal),
}

impl fmt::Display for VacationRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VacationRefusal::NotEnough { left: 0, .. } => {
                f.write_str("no vacation days left this year")
            }
            VacationRefusal::NotEnough { asked: 0, left } => {
                write!(f, "say how many days: vacation N, 1 to {left} (days left)")
            }
            VacationRefusal::NotEnough { asked, left } => write!(
                f,
                "{asked} vacation days asked, {left} left this year: vacation N, 1 to {left}"
            ),
            VacationRefusal::Hub(refusal) => write!(f, "{refusal}"),
        }
    }
}

impl From<Refusal> for VacationRefusal {
    fn from(refusal: Refusal) -> VacationRefusal {
        VacationRefusal::Hub(refusal)
    }
}

impl Vacation {
    /// `19 days left, 1 taken in 2026`; with the games given time, `; 2 correspondence games
    /// given 24 hours more`.
    #[must_use]
    pub fn words(&self) -> String {
        let days = |n: u32| if n == 1 { "day" } else { "days" };
        let mut words = format!(
            "{} {} left, {} taken in {}",
            self.left,
            days(self.left),
            self.taken,
            self.year
        );
        if self.games > 0 {
            words += &format!(
                "; {} correspondence {} given more time",
                self.games,
                if self.games == 1 { "game" } else { "games" }
            );
        }
        words
    }
}

impl Hub {
    /// `player`'s vacation this year, as the store counts it now.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn vacation(&self, player: PlayerId, now: Moment) -> Result<Vacation, Refusal> {
        let year = year_of(now);
        let allowance = self.lock().limits.vacation_days;
        match self
            .puzzle_query(PuzzleQuery::Vacation(player, year))
            .await?
        {
            PuzzleFound::Vacation(taken) => Ok(Vacation {
                left: left(allowance, taken),
                taken,
                year,
                games: 0,
            }),
            _ => Err(Refusal::NotSaved),
        }
    }

    /// `player` takes `days` of vacation (`by_itself`: one the server takes for them, their
    /// clock in game `ran_out` having run out): counted in the store, a message left to each
    /// opponent, then each of their correspondence games going on given `days` × 24 hours.
    ///
    /// # Errors
    /// Fewer days left than asked, or none asked; a store that cannot save.
    pub async fn take_vacation(
        &self,
        player: PlayerId,
        days: u32,
        ran_out: Option<GameId>,
        now: Moment,
    ) -> Result<Vacation, VacationRefusal> {
        let (allowance, name, games) = {
            let inner = self.lock();
            let games: Vec<(GameId, PlayerId)> = inner
                .games
                .values()
                .filter(|g| g.row.result.is_none() && g.row.clock.correspondence())
                .filter_map(|g| {
                    let seat = g.seat_of_player(player).ok()?;
                    Some((g.row.id, g.row.players[seat.other()]))
                })
                .collect();
            let name = inner
                .players
                .get(&player)
                .map_or_else(|| format!("#{player}"), |p| p.name.clone());
            (inner.limits.vacation_days, name, games)
        };
        let hours = days.saturating_mul(24);
        let told = games
            .iter()
            .map(|(id, opponent)| {
                let why = match ran_out {
                    Some(out) => format!(
                        "{name}'s clock ran out in game {out}: a vacation day was taken for them"
                    ),
                    None => format!(
                        "{name} takes {days} vacation {}",
                        if days == 1 { "day" } else { "days" }
                    ),
                };
                (
                    *opponent,
                    format!("{why}; game {id}: {hours} hours more on their clock"),
                )
            })
            .collect();
        let take = Take {
            player,
            year: year_of(now),
            days,
            allowance,
            at: now,
            told,
        };
        let applied = self
            .commit(Change::Vacation(take), Vec::new(), |_, applied| Ok(applied))
            .await?;
        if applied == Applied::Taken {
            let left = self.vacation(player, now).await?.left;
            return Err(VacationRefusal::NotEnough { asked: days, left });
        }
        let mut given = 0;
        for (id, _) in games {
            match self
                .act(player, id, GameCommand::Vacation(hours), now)
                .await
            {
                Ok(_) => given += 1,
                Err(e) => tracing::warn!(game = %id, "a vacation's time not given: {e}"),
            }
        }
        let vacation = self.vacation(player, now).await?;
        tracing::info!(player = %name, days, games = given, "vacation taken");
        Ok(Vacation {
            games: given,
            ..vacation
        })
    }

    /// [`GameCommand::Vacation`] here, the owner: `hours` more on `player`'s clock in game
    /// `id`, a correspondence game (a live one is not touched), its turn going on from when
    /// it began.
    pub(super) async fn more_time_here(
        &self,
        player: PlayerId,
        id: GameId,
        hours: u32,
        _now: Moment,
    ) -> Result<(), Refusal> {
        let (turn, seat) = self.seat(player, id).await?;
        let (left, since) = {
            let inner = self.lock();
            let game = inner.live(id)?;
            if !game.row.clock.correspondence() {
                return Ok(());
            }
            let mut left = game.row.left;
            left[seat] += Millis(i64::from(hours) * 3_600_000);
            (left, game.row.turn_since)
        };
        let change = Change::MoreTime {
            game: id,
            left,
            since,
        };
        self.commit(change, vec![turn], move |inner, _| {
            if let Some(game) = inner.games.get_mut(&id) {
                game.row.left = left;
                game.told();
            }
            Ok(())
        })
        .await
    }

    /// Whether game `id`, out of time at `now`, is saved by a vacation day its player to move
    /// has left (a correspondence clock, not a first move's timer): the day taken, every
    /// correspondence game of theirs given 24 hours.
    pub(super) async fn vacation_saves(&self, id: GameId, now: Moment) -> bool {
        let player = {
            let inner = self.lock();
            let Some(game) = inner.games.get(&id) else {
                return false;
            };
            match game.to_move() {
                Some(seat)
                    if game.row.clock.correspondence()
                        && game.first_move_pending().is_none()
                        && inner.limits.vacation_days > 0 =>
                {
                    game.row.players[seat]
                }
                _ => return false,
            }
        };
        let _one = self.vacation_turn.clone().lock_owned().await;
        // Saved meanwhile, by a tick before this one.
        if !self.out_of_time(id, now) {
            return true;
        }
        match self.take_vacation(player, 1, Some(id), now).await {
            Ok(_) => !self.out_of_time(id, now),
            Err(VacationRefusal::NotEnough { .. }) => false,
            Err(e) => {
                tracing::warn!(game = %id, "no vacation day taken: {e}");
                false
            }
        }
    }
}
