//! Where a game's command runs: here, when this process owns the game (or is the only one),
//! or at its owner, to which it is passed; and the answer that tells the truth when the
//! owner's first answer was lost or late: a move found saved is done.
//!
//! The `Hub` methods here: `act`, `unless_retried`.

use quentin_record::game_line::GameLine;
use quentin_rules::{Action, Position};

use super::{GameCommand, Hub, Live, Outcome, Owner, Refusal};
use crate::ids::{GameId, Moment, PlayerId, Seat};

impl Hub {
    /// `command` of `player` to game `id`, in the process that owns the game: this one, or
    /// the owner it is passed to. Answered once on disk.
    ///
    /// # Errors
    /// As the command's own; [`Refusal::Moving`] when no process owns the game for ten
    /// seconds (its owner gone and its lease not yet run out), [`Refusal::Slow`] when its
    /// owner, alive, has not answered in that time (a slow database), or
    /// [`Refusal::Unreachable`] when the database could not be reached meanwhile. A move that
    /// this process's copy shows saved by then is done, whatever the owner said or did not.
    pub async fn act(
        &self,
        player: PlayerId,
        id: GameId,
        command: GameCommand,
        now: Moment,
    ) -> Result<Outcome, Refusal> {
        let Some(peers) = self.peers.get() else {
            return self.act_here(player, id, command, now).await;
        };
        // Where a move goes in the game as this copy has it: should the owner's answer be
        // lost and the command asked again after the opponent's reply, the move found there
        // is this command's, saved.
        let at = self.lock().live(id).map(|g| g.row.actions.len()).ok();
        // Passed to another process, a command is first checked against this process's copy:
        // what it refuses is refused at once, with its reason. The owner checks its own.
        if peers.owner(id) != Owner::Me
            && let Err(refusal) = self.check(player, id, command)
        {
            return self.unless_retried(player, id, command, refusal, None);
        }
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
        // Whether the owner last asked gave no answer in its time.
        let mut unanswered = false;
        loop {
            // Whether the database answered this look at the game's owner: when it did not,
            // the answer at the deadline says so, not that the game is moving.
            let reached = match peers.owner(id) {
                // A lease that ran out here (this process frozen, the database away): the
                // game is taken over, perhaps by this process again, and the command runs there.
                Owner::Me => match self.act_here(player, id, command, now).await {
                    Err(Refusal::Moving) => peers.settle(id).await,
                    answer => return answer,
                },
                Owner::Other(owner) => match peers.forward(&owner, player, id, command).await {
                    Some(Err(Refusal::Moving)) => {
                        unanswered = false;
                        peers.settle(id).await
                    }
                    None => {
                        unanswered = true;
                        peers.settle(id).await
                    }
                    // A refusal of a move that was saved (its first answer lost on the way,
                    // the owner asked again): the move is done.
                    Some(Err(refusal)) => {
                        return self.unless_retried(player, id, command, refusal, at);
                    }
                    Some(answer) => return answer,
                },
                Owner::Nobody => {
                    if self.lock().live(id)?.row.result.is_some() {
                        return self.unless_retried(player, id, command, Refusal::GameOver, at);
                    }
                    peers.settle(id).await
                }
            };
            // Settled: asked again at once when somebody owns the game now; else after a
            // moment, until the lease of a dead owner has run out and the game is taken over.
            if tokio::time::Instant::now() >= deadline {
                let alive = matches!(peers.owner(id), Owner::Other(_));
                let refusal = match (reached, unanswered && alive) {
                    (false, _) => Refusal::Unreachable,
                    (true, true) => Refusal::Slow,
                    (true, false) => Refusal::Moving,
                };
                return self.unless_retried(player, id, command, refusal, at);
            }
            if peers.owner(id) == Owner::Nobody {
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
        }
    }

    /// `refusal` of `command`, unless the command is a `play` of the move `player` has just
    /// made in game `id` (as this process's copy has it), or of the move this process's copy
    /// has as `player`'s at index `at` (where the command was to go when first asked): then
    /// that move is saved, and the answer is that it is done.
    fn unless_retried(
        &self,
        player: PlayerId,
        id: GameId,
        command: GameCommand,
        refusal: Refusal,
        at: Option<usize>,
    ) -> Result<Outcome, Refusal> {
        let GameCommand::Play(action) = command else {
            return Err(refusal);
        };
        let saved = self.lock().live(id).is_ok_and(|game| {
            game.just_played(player, action)
                || at.is_some_and(|at| game.played_at(player, action, at))
        });
        match refusal {
            Refusal::NotYourTurn
            | Refusal::GameOver
            | Refusal::Illegal(_)
            | Refusal::Slow
            | Refusal::Moving
            | Refusal::Unreachable
                if saved =>
            {
                Ok(Outcome::Done)
            }
            _ => Err(refusal),
        }
    }
}

impl Live {
    /// Whether action number `at` (from 0) of the game is `action`, played by `player`.
    pub(crate) fn played_at(&self, player: PlayerId, action: Action, at: usize) -> bool {
        let Ok(seat) = self.seat_of_player(player) else {
            return false;
        };
        if self.row.actions.get(at) != Some(&action) {
            return false;
        }
        let Some(position) = self.position_after(at) else {
            return false;
        };
        position
            .to_move()
            .is_some_and(|color| Seat::of(&position, color) == seat)
    }

    /// The position after the game's first `n` actions, by the rules (none if they do not
    /// replay).
    fn position_after(&self, n: usize) -> Option<Position> {
        let start = self.row.setup.start().ok()?;
        GameLine::play_out(start, self.row.actions.get(..n)?).ok()
    }

    /// Whether `action` is the game's last action and `player` played it, the game not
    /// waiting on them since: a `play` of it again is that move retried (its answer lost, or
    /// sent twice), and it is answered as it was, with `=`, not refused as if it were new.
    pub(crate) fn just_played(&self, player: PlayerId, action: Action) -> bool {
        let Ok(seat) = self.seat_of_player(player) else {
            return false;
        };
        let Some((last, before)) = self.row.actions.split_last() else {
            return false;
        };
        if *last != action || self.to_move() == Some(seat) {
            return false;
        }
        // Who played it: the seat to move in the position before it.
        let Some(position) = self.position_after(before.len()) else {
            return false;
        };
        position
            .to_move()
            .is_some_and(|color| Seat::of(&position, color) == seat)
    }
}

#[cfg(test)]
mod tests;
