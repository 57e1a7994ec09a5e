//! A connection of the cluster's own, outside the pool, made again when it is lost: the
//! lease's renewals and the presence never wait for a pooled connection behind moves and
//! takeovers, nor a move for them.

use anyhow::{Result, anyhow};

/// One connection, made when first used and again after it was lost.
pub struct Own {
    config: tokio_postgres::Config,
    /// Run on each new connection (tighter bounds than the pool's, or none).
    setup: &'static str,
    client: Option<tokio_postgres::Client>,
}

impl Own {
    /// A connection made as `config` says, running `setup` (statements: bounds such as
    /// [`super::lease::RENEWAL_BOUNDS`], or none) each time it is made.
    #[must_use]
    pub fn new(config: tokio_postgres::Config, setup: &'static str) -> Own {
        Own {
            config,
            setup,
            client: None,
        }
    }

    /// The connection, made again if it was lost or [`Own::drop_it`] was called.
    ///
    /// # Errors
    /// A database that cannot be reached.
    pub async fn client(&mut self) -> Result<&mut tokio_postgres::Client> {
        if self
            .client
            .as_ref()
            .is_none_or(tokio_postgres::Client::is_closed)
        {
            self.client = None;
            let (client, connection) = self.config.connect(tokio_postgres::NoTls).await?;
            tokio::spawn(connection);
            if !self.setup.is_empty() {
                client.batch_execute(self.setup).await?;
            }
            self.client = Some(client);
        }
        self.client
            .as_mut()
            .ok_or_else(|| anyhow!("no connection to the database"))
    }

    /// Forgets the connection (one that did not answer in time): the next use makes another.
    pub fn drop_it(&mut self) {
        self.client = None;
    }
}
