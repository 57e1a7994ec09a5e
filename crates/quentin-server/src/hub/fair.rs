//! Fair play: the limits that keep a player with free keys from farming a rating or griefing
//! others (issue 50's fault campaign: two keys of one person played 100 rated 2-move games in
//! 0.7 s and topped the leaderboard; a griefer accepted 150 challenges in 0.4 s, never moved,
//! and collected rated wins from victims who resigned to get out).
//!
//! - challenges and accepts: at most [`FairLimits::asks_per_minute`] a minute a player;
//! - live games at once: at most [`FairLimits::live_games`] a player (correspondence apart);
//! - rated games between the same two players: the first [`FairLimits::rated_per_pair`] of a
//!   day are rated, the next are played casual;
//! - a rated result needs [`RATED_MIN_ACTIONS`] actions, else the game is aborted
//!   (`aborted too-short`), so that resigning to a player who never moves gives them nothing;
//! - a player who leaves or aborts games without a move is held from rated games a while,
//!   longer with each time (lichess's "playban"), as [`held_until`] says;
//! - provisional ratings stay off the leaderboard (`views.rs`).
//!
//! Everything is read from the games the hub holds, so that it holds across a restart and
//! (for the games each process has read) across processes; only the count of recent asks is
//! the process's own memory.

use crate::ids::{Millis, Moment, PlayerId};
use quentin_record::game_end::{Aborted, GameEnd};
use std::collections::{HashMap, VecDeque};

use super::{Inner, Refusal};
use crate::spec::TimeControl;

/// Actions a game needs before it can end with a rated result by resignation, time or a
/// player's leaving: two of each player's.
pub const RATED_MIN_ACTIONS: usize = 4;

/// A day, in milliseconds.
const DAY: Millis = Millis::days(1);
/// A minute, in milliseconds.
const MINUTE: Millis = Millis::minutes(1);
/// Games left without a move in a day before the first hold.
const FORGIVEN: usize = 2;
/// The first hold; each game left without a move after it doubles it.
const FIRST_HOLD: Millis = Millis::minutes(10);

/// The limits, from `quentin serve`'s options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FairLimits {
    /// Challenges and accepts a player may make a minute.
    pub asks_per_minute: usize,
    /// Live games (not correspondence) a player may have under way at once.
    pub live_games: usize,
    /// Rated games a day between the same two players; the next are casual.
    pub rated_per_pair: usize,
}

impl Default for FairLimits {
    fn default() -> FairLimits {
        FairLimits {
            asks_per_minute: 20,
            live_games: 4,
            rated_per_pair: 3,
        }
    }
}

/// Each player's recent challenges and accepts, in this process.
#[derive(Debug, Default)]
pub(crate) struct Asks {
    times: HashMap<PlayerId, VecDeque<Moment>>,
}

impl Inner {
    /// Counts a challenge or an accept of `player` at `now`, unless it is one too many this
    /// minute.
    pub(super) fn ask(&mut self, player: PlayerId, now: Moment) -> Result<(), Refusal> {
        let most = self.limits.fair.asks_per_minute;
        let times = self.asks.times.entry(player).or_default();
        while times.front().is_some_and(|t| *t <= now - MINUTE) {
            times.pop_front();
        }
        if times.len() >= most {
            return Err(Refusal::TooFast(most));
        }
        times.push_back(now);
        Ok(())
    }

    /// Refuses a new live game of `player` when they have their most under way.
    pub(super) fn may_start_live(
        &self,
        player: PlayerId,
        clock: TimeControl,
    ) -> Result<(), Refusal> {
        if clock.correspondence() {
            return Ok(());
        }
        let most = self.limits.fair.live_games;
        if self.live_places(player) >= most {
            return Err(Refusal::TooManyLiveGames(most));
        }
        Ok(())
    }

    /// The places of `player`'s bound of live games taken: each live game under way outside a
    /// tournament, and each live tournament they are in, open or running, not withdrawn. A
    /// tournament holds one place from the join to its end, whether its game is under way or
    /// not: it begins at most one game of a player at a time (an arena pairs only who is free,
    /// a round robin's and a Swiss's rounds follow each other), so that its pairings never take
    /// a player past the bound, and no casual game is refused in the middle of its rounds.
    pub(crate) fn live_places(&self, player: PlayerId) -> usize {
        let entered: Vec<_> = self
            .tournaments
            .values()
            .filter(|t| t.status.under_way() && !t.settings.correspondence())
            .filter(|t| {
                t.entrants
                    .iter()
                    .any(|e| e.player == player && !e.withdrawn)
            })
            .map(|t| t.id)
            .collect();
        // A game of a tournament they are in is that tournament's place; any other (one of a
        // tournament they left, say) is a place of its own.
        let games = self
            .games
            .values()
            .filter(|g| g.row.result.is_none() && g.row.players.contains(&player))
            .filter(|g| !g.row.clock.correspondence())
            .filter(|g| {
                self.in_tournament(g.row.id)
                    .is_none_or(|t| !entered.contains(&t.id))
            })
            .count();
        games + entered.len()
    }

    /// Whether a new game between `a` and `b` asked rated may be: not when they have had
    /// their most rated games of the day together (under way, or ended in the last day, not
    /// aborted).
    pub(super) fn may_rate(&self, a: PlayerId, b: PlayerId, now: Moment) -> bool {
        let together = self
            .games
            .values()
            .filter(|g| g.row.rated && g.row.players.contains(&a) && g.row.players.contains(&b))
            .filter(|g| g.row.ended.is_none_or(|at| at > now - DAY))
            // An aborted game moved no rating.
            .filter(|g| g.row.result.as_ref().is_none_or(|end| !end.aborted()))
            .count();
        together < self.limits.fair.rated_per_pair
    }

    /// Refuses a rated game to a player held for leaving games without a move.
    pub(super) fn may_play_rated(&self, player: PlayerId, now: Moment) -> Result<(), Refusal> {
        match held_until(self, player, now) {
            Some(until) => Err(Refusal::Held(until - now)),
            None => Ok(()),
        }
    }
}

/// When `player`'s hold from rated games ends, if they are held at `now`: after [`FORGIVEN`]
/// games in a day that ended aborted while it was their turn and they had not moved, each one
/// more holds them [`FIRST_HOLD`], doubled each time, from its end.
pub(super) fn held_until(inner: &Inner, player: PlayerId, now: Moment) -> Option<Moment> {
    let mut left: Vec<Moment> = inner
        .games
        .values()
        // A tournament's forfeit for no first move is a loss in the tournament only.
        .filter(|g| inner.in_tournament(g.row.id).is_none())
        .filter_map(|g| {
            let seat = g.row.players.iter().position(|p| *p == player)?;
            let ended = g.row.ended?;
            let aborted = g
                .row
                .result
                .is_some_and(|end| end.aborted() && end != GameEnd::Aborted(Aborted::ByOperator));
            // The player's own actions: those of their seat (the first player's are the even
            // ones; a swap keeps the order of seats). Held is the one who was to move and
            // never did, not the opponent who had no turn yet.
            let own = g.row.actions.iter().skip(seat).step_by(2).count();
            let to_move = g.row.actions.len() % 2 == seat;
            (aborted && own == 0 && to_move && ended > now - DAY).then_some(ended)
        })
        .collect();
    if left.len() <= FORGIVEN {
        return None;
    }
    left.sort_unstable();
    let times = u32::try_from(left.len() - FORGIVEN).unwrap_or(u32::MAX);
    let hold = FIRST_HOLD
        .0
        .saturating_mul(1_i64.checked_shl(times - 1).unwrap_or(i64::MAX));
    let until = Moment(left.last()?.0.saturating_add(hold));
    (until > now).then_some(until)
}
