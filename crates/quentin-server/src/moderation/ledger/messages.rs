//! The messages left to a player (a tournament of theirs cancelled), read from the store by
//! whichever process the player is on, and marked seen once shown.

use anyhow::Result;

use super::{Ledger, Store};
use crate::ids::PlayerId;
use crate::store::postgres::ledger as pg;

impl Ledger {
    /// The messages player `player` has not seen yet, oldest first, now marked seen.
    ///
    /// # Errors
    /// A failing store, or a value not of its column's type.
    pub async fn messages(&self, player: PlayerId) -> Result<Vec<String>> {
        match &self.store {
            Store::Sqlite(file) => {
                let file = file.clone();
                tokio::task::spawn_blocking(move || file.messages(player)).await?
            }
            Store::Postgres(pool) => pg::messages(pool, player).await,
        }
    }
}
