//! `--watchers N`: N terminal sessions, as people's, that watch the games being played while the
//! bots play them. Each is a new key over its own SSH connection with a terminal (100×40): it
//! picks a name, finds the games in the lobby's list of games being played, opens one of the
//! first `--watched K` of them (the watchers spread over them in turn) and, once its screen says
//! it watches, takes every frame the server sends and reads none (as a terminal would draw it).
//! The bench then tells the round trips of the watched games' moves from the others'.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use russh::ChannelMsg;
use russh::client::{self, Handle};
use russh::keys::ssh_key::private::{Ed25519Keypair, KeypairData};
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use super::Client;

/// The terminal each watcher has.
const COLUMNS: u16 = 100;
const ROWS: u16 = 40;

/// The key of watcher `n`, apart from every bot's and attacker's.
fn key(n: u64) -> russh::keys::PrivateKey {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&n.to_le_bytes());
    bytes[8] = 0x3e;
    russh::keys::PrivateKey::new(
        KeypairData::Ed25519(Ed25519Keypair::from_seed(&bytes)),
        "watcher",
    )
    .unwrap()
}

/// The watchers, once each watches: their tasks (which take their frames until aborted), the
/// games they watch, and the bytes they have taken.
pub struct Watchers {
    pub tasks: JoinSet<()>,
    pub games: HashSet<String>,
    pub bytes: Arc<AtomicUsize>,
}

/// Opens `n` watchers on the server at `port`, spread over the first `watched` games of the
/// lobby's list, a few logins at a time; returns once every one watches.
pub async fn open(port: u16, n: usize, watched: usize) -> Watchers {
    let logins = Arc::new(Semaphore::new(8));
    let bytes = Arc::new(AtomicUsize::new(0));
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let mut tasks = JoinSet::new();
    for i in 0..n {
        let (logins, bytes, tx) = (logins.clone(), bytes.clone(), tx.clone());
        tasks.spawn(async move {
            let permit = logins.acquire().await.unwrap();
            let (handle, mut channel, game) = watch(port, i, i % watched.max(1)).await;
            drop(permit);
            tx.send(game).unwrap();
            // Every frame taken, none drawn; the connection held until the bench ends.
            let _handle: Handle<Client> = handle;
            while let Some(msg) = channel.wait().await {
                if let ChannelMsg::Data { data } = msg {
                    bytes.fetch_add(data.len(), Ordering::Relaxed);
                }
            }
        });
    }
    drop(tx);
    let mut games = HashSet::new();
    for _ in 0..n {
        let game = tokio::time::timeout(Duration::from_secs(600), rx.recv())
            .await
            .expect("the watchers opened their games within ten minutes")
            .expect("a watcher failed");
        games.insert(game);
    }
    Watchers {
        tasks,
        games,
        bytes,
    }
}

/// Watcher `i`: logs in, picks the name `wI`, opens the `k`-th game of the lobby's list, and
/// returns once its screen says it watches: the connection, its channel, and the game's number.
async fn watch(
    port: u16,
    i: usize,
    k: usize,
) -> (Handle<Client>, russh::Channel<client::Msg>, String) {
    let handle = super::logged_in(port, "watcher", key(i as u64)).await;
    let mut channel = handle.channel_open_session().await.unwrap();
    channel
        .request_pty(
            false,
            "xterm",
            u32::from(COLUMNS),
            u32::from(ROWS),
            0,
            0,
            &[],
        )
        .await
        .unwrap();
    channel.request_shell(false).await.unwrap();
    let nz = |n: u16| std::num::NonZeroU16::new(n).unwrap();
    let mut screen = vt100::Parser::new(nz(ROWS), nz(COLUMNS), 0);
    until(&mut channel, &mut screen, |s| s.contains("pick a name")).await;
    channel.data(format!("w{i}\r").as_bytes()).await.unwrap();
    let lobby = until(&mut channel, &mut screen, |s| {
        live_games(s).len() > k && s.contains("Open challenges")
    })
    .await;
    let game = live_games(&lobby)[k].clone();
    // The first item is the first game being played (no challenge is open, the watcher has no
    // game of its own): down k times, then Enter.
    let keys = format!("{}\r", "j".repeat(k));
    channel.data(keys.as_bytes()).await.unwrap();
    until(&mut channel, &mut screen, |s| s.contains("watching")).await;
    (handle, channel, game)
}

/// The numbers of the games in the lobby's list of games being played, in its order.
fn live_games(screen: &str) -> Vec<String> {
    screen
        .lines()
        .skip_while(|l| !l.contains("Being played now"))
        .take_while(|l| !l.contains("Recent results"))
        .filter_map(|l| {
            let at = l.find('#')?;
            let digits: String = l[at + 1..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            (!digits.is_empty() && l.contains(" vs ")).then_some(digits)
        })
        .collect()
}

/// Reads the channel into `screen` until its text satisfies `done`; that text.
async fn until(
    channel: &mut russh::Channel<client::Msg>,
    screen: &mut vt100::Parser,
    done: impl Fn(&str) -> bool,
) -> String {
    loop {
        let text = screen.screen().contents();
        if done(&text) {
            return text;
        }
        match tokio::time::timeout(Duration::from_secs(120), channel.wait()).await {
            Ok(Some(ChannelMsg::Data { data })) => screen.process(&data),
            Ok(Some(_)) => {}
            Ok(None) => panic!("the server closed a watcher's session: {text}"),
            Err(_) => panic!("a watcher's screen stood still for two minutes: {text}"),
        }
    }
}

/// What `n` watchers are worth in the server's memory: its resident memory now, in kB.
pub fn resident_kb(pid: u32) -> u64 {
    super::measure::status_kb(pid, "VmRSS:")
}

/// The machine's load averages (1, 5 and 15 minutes), as /proc/loadavg says them.
pub fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}
