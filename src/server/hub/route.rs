//! Where a game's command runs: here, when this process owns the game (or is the only one),
//! or at its owner, to which it is passed; and the answer that tells the truth when the
//! owner's first answer was lost or late: a move found saved is done.

use crate::rules::Action;

use super::{GameCommand, Hub, Live, Outcome, Owner, Refusal, seat_of};

impl Hub {
    /// `command` of `player` to game `id`, in the process that owns the game: this one, or
    /// the owner it is passed to. Answered once on disk.
    ///
    /// # Errors
    /// As the command's own; [`Refusal::Moving`] when no process owns the game for ten
    /// seconds (its owner gone and its lease not yet run out), or [`Refusal::Unreachable`]
    /// when the database could not be reached meanwhile.
    pub async fn act(
        &self,
        player: i64,
        id: i64,
        command: GameCommand,
        now: i64,
    ) -> Result<Outcome, Refusal> {
        let Some(peers) = self.peers.get() else {
            return self.act_here(player, id, command, now).await;
        };
        // Passed to another process, a command is first checked against this process's copy:
        // what it refuses is refused at once, with its reason. The owner checks its own.
        if peers.owner(id) != Owner::Me
            && let Err(refusal) = self.check(player, id, command)
        {
            return self.unless_retried(player, id, command, refusal);
        }
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
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
                    Some(Err(Refusal::Moving)) | None => peers.settle(id).await,
                    // A refusal of a move that was saved (its first answer lost on the way,
                    // the owner asked again): the move is done.
                    Some(Err(refusal)) => {
                        return self.unless_retried(player, id, command, refusal);
                    }
                    Some(answer) => return answer,
                },
                Owner::Nobody => {
                    if self.lock().live(id)?.row.result.is_some() {
                        return self.unless_retried(player, id, command, Refusal::GameOver);
                    }
                    peers.settle(id).await
                }
            };
            // Settled: asked again at once when somebody owns the game now; else after a
            // moment, until the lease of a dead owner has run out and the game is taken over.
            if tokio::time::Instant::now() >= deadline {
                return Err(if reached {
                    Refusal::Moving
                } else {
                    Refusal::Unreachable
                });
            }
            if peers.owner(id) == Owner::Nobody {
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
        }
    }

    /// `refusal` of `command`, unless the command is a `play` of the move `player` has just
    /// made in game `id` (as this process's copy has it): then that move is saved, and the
    /// answer is that it is done.
    fn unless_retried(
        &self,
        player: i64,
        id: i64,
        command: GameCommand,
        refusal: Refusal,
    ) -> Result<Outcome, Refusal> {
        match (command, &refusal) {
            (GameCommand::Play(action), Refusal::NotYourTurn | Refusal::GameOver)
                if self
                    .lock()
                    .live(id)
                    .is_ok_and(|game| game.just_played(player, action)) =>
            {
                Ok(Outcome::Done)
            }
            _ => Err(refusal),
        }
    }
}

impl Live {
    /// Whether `action` is the game's last action and `player` played it, the game not
    /// waiting on them since: a `play` of it again is that move retried (its answer lost, or
    /// sent twice), and it is answered as it was, with `=`, not refused as if it were new.
    pub(crate) fn just_played(&self, player: i64, action: Action) -> bool {
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
        let Ok(mut position) = self.row.setup.start() else {
            return false;
        };
        if before.iter().any(|a| position.play(*a).is_err()) {
            return false;
        }
        position
            .to_move()
            .is_some_and(|color| seat_of(&position, color) == seat)
    }
}
