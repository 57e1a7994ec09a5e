//! The soak's attackers (`--attack KIND`): while the honest bots play, one task per attacker
//! does what a stranger would to lock players out, over and over until it is stopped, each
//! bounded in count. They come from other loopback addresses (127.0.0.2 to 127.0.0.9), as
//! strangers elsewhere would, so that the per-address bound is theirs alone.
//!
//! - `half-open`: 300 TCP connections that never send a byte (each reopened when the server
//!   closes it).
//! - `silent-bot`: 4 keys, each a bot session that writes megabytes of commands and never
//!   reads an answer.
//! - `resize`: 4 keys, each a terminal session that floods window-size changes and never reads
//!   its screen.
//! - `one-key`: one key opening 20 connections at once, each logging in and opening nothing.
//! - `mix`: all of these at once.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use russh::ChannelMsg;
use russh::client::{self, Handle};
use russh::keys::ssh_key::private::{Ed25519Keypair, KeypairData};
use russh::keys::{PrivateKey, PrivateKeyWithHashAlg};
use tokio::net::{TcpSocket, TcpStream};
use tokio::task::JoinSet;

use super::Client;

/// What the attackers did: connections opened, and those the server refused or closed.
#[derive(Default)]
pub struct Tally {
    pub opened: AtomicUsize,
    pub ended: AtomicUsize,
}

/// The attack kinds `--attack` takes.
pub const KINDS: [&str; 5] = ["half-open", "silent-bot", "resize", "one-key", "mix"];

/// The key of attacker `n`, apart from every honest bot's.
pub fn key(n: u64) -> PrivateKey {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&n.to_le_bytes());
    bytes[8] = 0xa7;
    PrivateKey::new(
        KeypairData::Ed25519(Ed25519Keypair::from_seed(&bytes)),
        "attacker",
    )
    .unwrap()
}

/// A connection to `port` from `127.0.0.N`.
async fn socket_from(n: u8, port: u16) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::new(IpAddr::V4(Ipv4Addr::new(127, 0, 0, n)), 0))?;
    socket
        .connect(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port))
        .await
}

/// An SSH login with attacker key `n` from `127.0.0.(2 + n % 8)`.
pub async fn login(n: u64, port: u16) -> Option<Handle<Client>> {
    login_as(&key(n), 2 + (n % 8) as u8, port).await
}

/// An SSH login with `key` from `127.0.0.FROM`.
async fn login_as(key: &PrivateKey, from: u8, port: u16) -> Option<Handle<Client>> {
    let stream = socket_from(from, port).await.ok()?;
    let config = Arc::new(client::Config::default());
    let mut handle = client::connect_stream(config, stream, Client).await.ok()?;
    let auth = handle
        .authenticate_publickey("x", PrivateKeyWithHashAlg::new(Arc::new(key.clone()), None))
        .await
        .ok()?;
    auth.success().then_some(handle)
}

/// Whether `key`, from `127.0.0.FROM`, gets a bot session that answers `whoami` (`register
/// first` is an answer; "too many sessions" or a closed connection is not).
pub async fn answers(key: &PrivateKey, from: u8, port: u16) -> bool {
    let Some(handle) = login_as(key, from, port).await else {
        return false;
    };
    let Ok(channel) = handle.channel_open_session().await else {
        return false;
    };
    if channel.exec(true, "bot").await.is_err() || channel.data(&b"whoami\n"[..]).await.is_err() {
        return false;
    }
    let (mut read, _write) = channel.split();
    let mut got = Vec::new();
    while let Ok(Some(msg)) = tokio::time::timeout(Duration::from_secs(10), read.wait()).await {
        if let ChannelMsg::Data { data } = msg {
            got.extend_from_slice(&data);
            if got.windows(2).any(|w| w == b"\n\n") {
                break;
            }
        }
    }
    let text = String::from_utf8_lossy(&got);
    text.starts_with('=') || text.contains("register first")
}

/// Starts the attackers of `kind` on the server at `port`.
pub fn start(kind: &str, port: u16, tally: &Arc<Tally>, tasks: &mut JoinSet<()>) {
    let all = kind == "mix";
    if all || kind == "half-open" {
        for i in 0..300u64 {
            let tally = tally.clone();
            tasks.spawn(async move {
                loop {
                    let Ok(mut stream) = socket_from(2 + (i % 8) as u8, port).await else {
                        tokio::time::sleep(Duration::from_millis(200)).await;
                        continue;
                    };
                    tally.opened.fetch_add(1, Ordering::Relaxed);
                    // Never a byte sent: wait for the server to close it.
                    let mut buf = [0u8; 256];
                    while tokio::io::AsyncReadExt::read(&mut stream, &mut buf)
                        .await
                        .is_ok_and(|n| n > 0)
                    {}
                    tally.ended.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
    }
    if all || kind == "silent-bot" {
        for n in 100..104u64 {
            let tally = tally.clone();
            tasks.spawn(async move {
                let flood = "whoami\n".repeat(1 << 14);
                loop {
                    tally.opened.fetch_add(1, Ordering::Relaxed);
                    if let Some(handle) = login(n, port).await
                        && let Ok(channel) = handle.channel_open_session().await
                        && channel.exec(true, "bot").await.is_ok()
                    {
                        // 8 MB of commands, never an answer read.
                        for _ in 0..72 {
                            if channel.data(flood.as_bytes()).await.is_err() {
                                break;
                            }
                        }
                        // Hold what is left until the server closes it.
                        let _ = handle.await;
                    }
                    tally.ended.fetch_add(1, Ordering::Relaxed);
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            });
        }
    }
    if all || kind == "resize" {
        for n in 200..204u64 {
            let tally = tally.clone();
            tasks.spawn(async move {
                loop {
                    tally.opened.fetch_add(1, Ordering::Relaxed);
                    if let Some(handle) = login(n, port).await
                        && let Ok(channel) = handle.channel_open_session().await
                        && channel
                            .request_pty(false, "xterm", 80, 24, 0, 0, &[])
                            .await
                            .is_ok()
                        && channel.request_shell(false).await.is_ok()
                    {
                        let mut size = 0u32;
                        loop {
                            size = (size + 1) % 200;
                            if channel
                                .window_change(40 + size, 10 + size / 2, 0, 0)
                                .await
                                .is_err()
                            {
                                break;
                            }
                        }
                    }
                    tally.ended.fetch_add(1, Ordering::Relaxed);
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            });
        }
    }
    if all || kind == "one-key" {
        for _ in 0..20 {
            let tally = tally.clone();
            tasks.spawn(async move {
                loop {
                    tally.opened.fetch_add(1, Ordering::Relaxed);
                    if let Some(handle) = login(300, port).await {
                        // Logged in, nothing opened: held until the server closes it.
                        let _ = handle.await;
                    }
                    tally.ended.fetch_add(1, Ordering::Relaxed);
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            });
        }
    }
}

/// How long after every client went until each honest bot's key and each attacker's key is let
/// in again (a session of it answers `whoami`); at most two minutes, else it panics: a slot kept.
pub async fn slots_back(port: u16, sessions: usize) -> Duration {
    let start = Instant::now();
    let honest = (0..sessions as u64).map(|n| (super::honest_key(n), 1));
    let attackers = [100, 200, 300].map(|n| (key(n), 2 + (n % 8) as u8));
    for (key, from) in honest.chain(attackers) {
        while !answers(&key, from, port).await {
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "a slot did not come back within two minutes"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    start.elapsed()
}
