//! Opening the hub: over SQLite's store (the time the server was down forgiven), over
//! PostgreSQL's (its writer a task of the runtime), or to read only (`quentin serve admin`).
//!
//! The `Hub` methods here: `open`, `open_postgres`, `read_only`, `read_only_postgres`.

use anyhow::Result;

use super::{Hub, HubLimits};
use crate::ids::{Millis, Moment};
use crate::store::{Backend, Change, Postgres, Writer};

impl Hub {
    /// The hub over `store`, with the players, games and challenges it holds; the time the
    /// server was down (since its last heartbeat) is charged to nobody. A game or challenge
    /// that cannot be read or replayed is kept out of play: [`Hub::damaged`] names them.
    ///
    /// # Errors
    /// When the store cannot be read or written.
    pub fn open(store: impl Backend, limits: HubLimits, now: Moment) -> Result<Hub> {
        let mut store: Box<dyn Backend> = Box::new(store);
        let loaded = store.load()?;
        let forgive = loaded.heartbeat.map(|alive| (now - alive).max(Millis(0)));
        let mut changes = vec![Change::Beat(now)];
        changes.extend(forgive.map(Change::Forgive));
        for outcome in store.commit(&changes.iter().collect::<Vec<_>>())? {
            outcome?;
        }
        Ok(Hub::over(
            loaded,
            forgive,
            Writer::start(store)?,
            limits,
            now,
        ))
    }

    /// The hub over a PostgreSQL store, its writer a task of the runtime this runs in. No
    /// downtime is forgiven at the start: the takeovers do it, game by game.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn open_postgres(store: Postgres, limits: HubLimits, now: Moment) -> Result<Hub> {
        let loaded = store.load().await?;
        Ok(Hub::over(loaded, None, store.writer(), limits, now))
    }

    /// The hub over SQLite's `store` as it stands, to read only (`quentin serve admin
    /// tournament ID`, with the server running or not): nothing is written, no time forgiven.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub fn read_only(store: impl Backend, now: Moment) -> Result<Hub> {
        let mut store: Box<dyn Backend> = Box::new(store);
        let loaded = store.load()?;
        Ok(Hub::over(
            loaded,
            None,
            Writer::start(store)?,
            HubLimits::default(),
            now,
        ))
    }

    /// The hub over a PostgreSQL store as it stands, to read only, as [`Hub::read_only`].
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn read_only_postgres(store: Postgres, now: Moment) -> Result<Hub> {
        let loaded = store.load().await?;
        Ok(Hub::over(
            loaded,
            None,
            store.writer(),
            HubLimits::default(),
            now,
        ))
    }
}
