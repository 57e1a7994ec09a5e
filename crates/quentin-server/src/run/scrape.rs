//! `quentin serve --metrics ADDR:PORT`: the counters of `crates/quentin-server/src/metrics.rs`
//! served at `/metrics`, the hub's gauges read at each scrape. The HTTP side is as small as a
//! scrape needs: `GET /metrics` answered and the connection closed, anything else `404` or
//! `405`, a request of more than 8 KiB or slower than 5 seconds dropped. Connections are
//! bounded per client as SSH's are ([`Clients`]): every connection is accepted at once, at
//! most [`PER_BLOCK`] of one network block and [`CLIENTS`] in all are read together, and a
//! newcomer takes the place of its own block's oldest, or of the fullest block's, so that slow
//! clients never keep a scrape waiting for their place; a request read whole is answered
//! outside those places.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpListener;
use tokio::sync::{Notify, watch};

use crate::context::Context;
use crate::metrics::metrics;

/// The longest request read.
const MOST_REQUEST: usize = 8 * 1024;
/// Connections served at once, in all: a newcomer beyond them takes the place of the fullest
/// block's oldest.
const CLIENTS: usize = 64;
/// Connections served at once from one network block (an IPv4 /24, an IPv6 /64): a newcomer
/// beyond them takes the place of its block's oldest.
const PER_BLOCK: usize = 8;
/// The longest a connection is served, its request read and its answer written.
const SERVED: Duration = Duration::from_secs(5);

/// The connections being served, by network block, oldest first: each with what cuts it.
#[derive(Default)]
struct Served {
    blocks: HashMap<IpAddr, VecDeque<(u64, Arc<Notify>)>>,
    total: usize,
    next: u64,
}

/// The places of the connections served, shared by them.
#[derive(Clone, Default)]
struct Clients(Arc<Mutex<Served>>);

/// A connection's place, given back when it ends.
struct Place {
    clients: Clients,
    block: IpAddr,
    id: u64,
}

impl Clients {
    fn lock(&self) -> std::sync::MutexGuard<'_, Served> {
        // Each change is whole: a panic between them leaves nothing half done.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A place for a connection from `address`, and what cuts it; the oldest of its block, or
    /// of the fullest block when every place is taken, is cut to make room.
    fn admit(&self, address: IpAddr) -> (Place, Arc<Notify>) {
        let block = crate::gate::block_of(address);
        let mut served = self.lock();
        let full_block = served
            .blocks
            .get(&block)
            .is_some_and(|q| q.len() >= PER_BLOCK);
        let victim = if full_block {
            Some(block)
        } else if served.total >= CLIENTS {
            served
                .blocks
                .iter()
                .max_by_key(|(_, q)| q.len())
                .map(|(b, _)| *b)
        } else {
            None
        };
        if let Some(victim) = victim
            && let Some(q) = served.blocks.get_mut(&victim)
            && let Some((_, cut)) = q.pop_front()
        {
            cut.notify_one();
            if q.is_empty() {
                served.blocks.remove(&victim);
            }
            served.total -= 1;
        }
        served.next += 1;
        let id = served.next;
        let cut = Arc::new(Notify::new());
        served
            .blocks
            .entry(block)
            .or_default()
            .push_back((id, cut.clone()));
        served.total += 1;
        let place = Place {
            clients: self.clone(),
            block,
            id,
        };
        (place, cut)
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut served = self.clients.lock();
        let Some(q) = served.blocks.get_mut(&self.block) else {
            return;
        };
        // A connection cut to make room gave its place back then.
        if let Some(at) = q.iter().position(|(id, _)| *id == self.id) {
            q.remove(at);
            if q.is_empty() {
                served.blocks.remove(&self.block);
            }
            served.total -= 1;
        }
    }
}

/// Serves the metrics on `listener` until `stop` turns true.
pub async fn serve(ctx: Arc<Context>, listener: TcpListener, mut stop: watch::Receiver<bool>) {
    let clients = Clients::default();
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = stop.wait_for(|stop| *stop) => return,
        };
        let Ok((socket, peer)) = accepted else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        // Accepted at once, whatever the others do: a slow one is cut, never waited for.
        let (place, cut) = clients.admit(peer.ip());
        let ctx = ctx.clone();
        tokio::spawn(async move {
            tokio::select! {
                _ = tokio::time::timeout(SERVED, answer(&ctx, socket, place)) => {}
                () = cut.notified() => {}
            }
        });
    }
}

/// Reads one request on `socket` and answers it; its `place` among those read is given back
/// once the request is whole (its answer is quick, and cut by nobody).
async fn answer(
    ctx: &Context,
    mut socket: tokio::net::TcpStream,
    place: Place,
) -> std::io::Result<()> {
    let mut request = Vec::new();
    let mut chunk = [0u8; 1024];
    while !request.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = socket.read(&mut chunk).await?;
        if n == 0 || request.len() + n > MOST_REQUEST {
            return Ok(());
        }
        request.extend_from_slice(&chunk[..n]);
    }
    drop(place);
    let line = String::from_utf8_lossy(&request);
    let mut words = line.split_whitespace();
    let (status, kind, body) = match (words.next(), words.next()) {
        (Some("GET"), Some(path)) if path == "/metrics" || path.starts_with("/metrics?") => (
            "200 OK",
            "text/plain; version=0.0.4; charset=utf-8",
            metrics().render(
                ctx.hub.running_games().len(),
                ctx.hub.online_here().len(),
                ctx.connections.load(std::sync::atomic::Ordering::Relaxed),
            ),
        ),
        (Some("GET"), Some(_)) => (
            "404 Not Found",
            "text/plain; charset=utf-8",
            "quentin serve: the metrics are at /metrics\n".to_string(),
        ),
        _ => (
            "405 Method Not Allowed",
            "text/plain; charset=utf-8",
            "GET /metrics\n".to_string(),
        ),
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    socket.write_all(head.as_bytes()).await?;
    socket.write_all(body.as_bytes()).await?;
    socket.shutdown().await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_newcomer_takes_the_place_of_its_block_s_oldest_or_the_fullest_block_s() {
        let clients = Clients::default();
        let slow: IpAddr = [10, 0, 1, 1].into();
        let mut held = Vec::new();
        for _ in 0..PER_BLOCK {
            held.push(clients.admit(slow));
        }
        // One more of the block: its oldest is cut.
        held.push(clients.admit(slow));
        assert_eq!(clients.lock().total, PER_BLOCK);
        let first = held.remove(0);
        let was_cut = tokio::time::timeout(Duration::ZERO, first.1.notified()).await;
        assert!(was_cut.is_ok(), "the oldest was cut");
        drop(first);
        assert_eq!(clients.lock().total, PER_BLOCK);
        // Every place taken by many blocks: a newcomer cuts the fullest block's oldest.
        for n in 0..(CLIENTS - PER_BLOCK) {
            held.push(clients.admit([10, 1, u8::try_from(n).unwrap(), 1].into()));
        }
        assert_eq!(clients.lock().total, CLIENTS);
        let scrape = clients.admit([127, 0, 0, 1].into());
        assert_eq!(clients.lock().total, CLIENTS);
        assert_eq!(
            clients.lock().blocks[&IpAddr::from([10, 0, 1, 0])].len(),
            PER_BLOCK - 1
        );
        drop(scrape);
        drop(held);
        assert_eq!(clients.lock().total, 0);
        assert!(clients.lock().blocks.is_empty());
    }
}
