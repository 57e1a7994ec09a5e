//! The listings, bounded: no answer of the bot protocol and no lobby grows with the number of
//! open challenges or of a player's games. A listing gives a page at most and says how many
//! more there are; the bot protocol's next page is asked from where the last one ended (the
//! open challenges by number, which stays put as challenges come and go; a player's games by
//! how many to skip).
//!
//! The `Hub` methods here: `challenges_page`, `lobby_challenges`, `has_open_challenge`,
//! `games_page`, `next_game`.

use quentin_rules::Game;

use super::views::{ChallengeView, GameView};
use super::{ChallengeRow, Hub};
use crate::ids::{ChallengeId, GameId, Moment, PlayerId};

/// Whether `viewer` may see challenge `c`: one made to another player is not listed to them.
fn seen_by(c: &ChallengeRow, viewer: PlayerId) -> bool {
    c.to.is_none_or(|to| to == viewer) || c.by == viewer
}

/// The most lines of one page of a bot's listing.
pub const PAGE: usize = 100;

impl Hub {
    /// The open challenges `viewer` may see (open to all, theirs, or made to them: one made to
    /// another player is theirs alone) numbered after `after`, of `game` when given, oldest
    /// first: at most `most`, and how many more there are after them.
    #[must_use]
    pub fn challenges_page(
        &self,
        viewer: PlayerId,
        game: Option<Game>,
        after: ChallengeId,
        most: usize,
    ) -> (Vec<ChallengeView>, usize) {
        let inner = self.lock();
        let mut open = inner
            .challenges
            .range(ChallengeId(after.0.saturating_add(1))..)
            .map(|(_, c)| c)
            .filter(|c| seen_by(c, viewer))
            .filter(|c| game.is_none_or(|g| c.setup.game == g));
        let page = open
            .by_ref()
            .take(most)
            .map(|c| inner.challenge_view(c))
            .collect();
        (page, open.count())
    }

    /// The open challenges a lobby shows `player`, oldest first: their own and those made to
    /// them, then the newest of the others, at most `most` in all; and how many others are
    /// left out.
    #[must_use]
    pub fn lobby_challenges(&self, player: PlayerId, most: usize) -> (Vec<ChallengeView>, usize) {
        let inner = self.lock();
        let theirs = |c: &&ChallengeRow| c.by == player || c.to == Some(player);
        let mut shown: Vec<&ChallengeRow> = inner.challenges.values().filter(theirs).collect();
        shown.truncate(most);
        let room = most - shown.len();
        let others = inner
            .challenges
            .values()
            .filter(|c| !theirs(c) && seen_by(c, player));
        let left = others.clone().count().saturating_sub(room);
        shown.extend(others.rev().take(room));
        shown.sort_by_key(|c| c.id);
        let page = shown.into_iter().map(|c| inner.challenge_view(c)).collect();
        (page, left)
    }

    /// Whether `player` has an open challenge numbered `id`.
    #[must_use]
    pub fn has_open_challenge(&self, player: PlayerId, id: ChallengeId) -> bool {
        self.lock()
            .challenges
            .get(&id)
            .is_some_and(|c| c.by == player)
    }

    /// `player`'s games, the unfinished ones first, then the finished ones, each newest first:
    /// `skip` of them left out, then at most `most`; and how many more there are after them.
    #[must_use]
    pub fn games_page(
        &self,
        player: PlayerId,
        now: Moment,
        skip: usize,
        most: usize,
    ) -> (Vec<GameView>, usize) {
        let inner = self.lock();
        let mine = || {
            inner
                .games
                .values()
                .rev()
                .filter(|g| g.row.players.contains(&player))
        };
        let mut all = mine()
            .filter(|g| g.row.result.is_none())
            .chain(mine().filter(|g| g.row.result.is_some()))
            .skip(skip);
        let page = all
            .by_ref()
            .take(most)
            .map(|g| inner.view(g, now))
            .collect();
        (page, all.count())
    }

    /// The game where it is `player`'s move whose clock runs out soonest at `now` (Little
    /// Golem's "next game"), the first move's timer counted for a first move; `None` when it
    /// is their move nowhere.
    #[must_use]
    pub fn next_game(&self, player: PlayerId, now: Moment) -> Option<GameId> {
        let inner = self.lock();
        inner
            .games
            .values()
            .filter_map(|g| {
                let seat = g.to_move()?;
                (g.row.players[seat] == player).then_some(g)
            })
            .min_by_key(|g| {
                let left = g
                    .first_move_left(now)
                    .or_else(|| g.to_move().map(|seat| g.left_at(now)[seat]));
                (left, g.row.id)
            })
            .map(|g| g.row.id)
    }
}
