//! `--slow-database MS [--burners N]`: the database made slow while the bots play, without
//! `tc` or any privilege but the database's: every move's row waits `MS` milliseconds in a
//! trigger (`pg_sleep`) before it is written, inside the move's transaction (so each move holds
//! a pooled connection and its game's lease row that long, as on a slow disk), and N other
//! connections keep the database's CPU busy with a query that never ends. Meanwhile the owners
//! of the games are read four times a second: the games that changed owner (a takeover: the
//! lease's `taken` moved) are counted. With several processes, a lease renewed late loses its
//! game to another process.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// What the slow database did to the leases.
#[derive(Default)]
pub struct Leases {
    /// Games seen owned.
    pub games: usize,
    /// Games whose owner changed at least once.
    pub moved: usize,
    /// Takeovers in all.
    pub takeovers: usize,
}

async fn connect(url: &str) -> tokio_postgres::Client {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .expect("the bench's database");
    tokio::spawn(connection);
    client
}

/// Makes every move's row wait `ms` milliseconds before it is written.
pub async fn slow_moves(url: &str, ms: u64) {
    let client = connect(url).await;
    client
        .batch_execute(&format!(
            "CREATE FUNCTION bench_slow() RETURNS trigger LANGUAGE plpgsql AS $$
             BEGIN PERFORM pg_sleep({}); RETURN NEW; END $$;
             CREATE TRIGGER bench_slow BEFORE INSERT ON moves
                 FOR EACH ROW EXECUTE FUNCTION bench_slow();",
            ms as f64 / 1000.0
        ))
        .await
        .expect("the slow trigger");
}

/// Starts `n` connections that keep the database's CPU busy until `stop`.
pub fn burn(url: &str, n: usize, stop: &Arc<AtomicBool>) {
    for _ in 0..n {
        let (url, stop) = (url.to_string(), stop.clone());
        tokio::spawn(async move {
            let client = connect(&url).await;
            let _ = client.batch_execute("SET statement_timeout = 5000").await;
            while !stop.load(Ordering::SeqCst) {
                // Ended by its timeout after 5 s, and started again.
                let _ = client
                    .batch_execute("SELECT count(*) FROM generate_series(1, 1000000000)")
                    .await;
            }
        });
    }
}

/// Reads the owners four times a second until `stop`; what changed.
pub async fn watch_leases(url: String, stop: Arc<AtomicBool>) -> Leases {
    let client = connect(&url).await;
    let mut seen: HashMap<i64, HashSet<i64>> = HashMap::new();
    while !stop.load(Ordering::SeqCst) {
        if let Ok(rows) = client.query("SELECT game, taken FROM owners", &[]).await {
            for row in rows {
                seen.entry(row.get(0)).or_default().insert(row.get(1));
            }
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    Leases {
        games: seen.len(),
        moved: seen.values().filter(|t| t.len() > 1).count(),
        takeovers: seen.values().map(|t| t.len() - 1).sum(),
    }
}
