//! The messages left to a player (a tournament of theirs cancelled), read from the store by
//! whichever process the player is on, and marked seen once shown.

use anyhow::Result;

use super::Ledger;
use crate::ids::PlayerId;

impl Ledger {
    /// The messages player `player` has not seen yet, oldest first, now marked seen.
    /// Blocking.
    ///
    /// # Errors
    /// A failing store.
    pub fn messages_now(&self, player: PlayerId) -> Result<Vec<String>> {
        let mut tx = self.store.begin(true)?;
        let rows = tx.query(
            "SELECT id, text FROM messages WHERE player = $1 AND seen = 0 ORDER BY id",
            &[player.into()],
        )?;
        if rows.is_empty() {
            return Ok(Vec::new());
        }
        tx.execute(
            "UPDATE messages SET seen = 1 WHERE player = $1 AND seen = 0 AND id <= $2",
            &[player.into(), rows.last().map_or(0, |r| r[0].int()).into()],
        )?;
        tx.commit()?;
        Ok(rows.iter().map(|r| r[1].text()).collect())
    }

    /// [`Ledger::messages_now`] on a thread that may wait.
    ///
    /// # Errors
    /// A failing store.
    pub async fn messages(&self, player: PlayerId) -> Result<Vec<String>> {
        let me = self.clone();
        tokio::task::spawn_blocking(move || me.messages_now(player)).await?
    }
}
