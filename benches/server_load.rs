//! The server under load: N bot sessions over real SSH connections on 127.0.0.1 (the russh
//! client, one process), playing N/2 live games of Quentin 13×13 against a real `quentin serve`
//! process. It prints the move round trip (from `play` sent to the opponent's `wait`
//! returning) at the median and the 99th percentile, the sessions held at once, the server's
//! peak memory and its CPU time per move.
//!
//! `cargo bench --bench server_load -- [--sessions N] [--moves M] [--think MS] [--seconds S]`:
//! 200 sessions, 30 moves a game, each bot thinking 0.5 to 1.5 s before a move (`--think 1000`,
//! a blitz pace; `--think 0` plays as fast as the server answers, to measure its throughput),
//! at most 300 s; the sessions are capped at 1000.
//!
//! `QUENTIN_BENCH_PROGRAM=PATH` runs another build of the program, to measure a change side by
//! side with the build before it.
//!
//! `--database URL --processes N` runs N server processes on a new PostgreSQL database made on
//! the server of URL (and dropped after), the two bots of a game on different processes, and
//! adds each process's memory and CPU and the database's CPU (its server processes' on this
//! machine, from /proc).
//!
//! `--watchers N [--watched K]` opens N terminal sessions that watch the first K games (1 by
//! default) while they are played (`server_load/watchers.rs`), and gives the round trip of
//! those games' moves apart (p50, p90, p99), the server's memory for each watcher, and the
//! machine's load.
//!
//! `--slow-database MS [--burners N]` (with `--database`) makes the database slow while the
//! bots play: each move's row waits MS ms in a trigger, N connections keep its CPU busy
//! (`server_load/slow.rs`); it counts the games that changed owner meanwhile.
//!
//! `--attack KIND` makes it a soak: while the honest bots play, attackers from other loopback
//! addresses try to lock them out (`half-open`, `silent-bot`, `resize`, `one-key` or `mix`:
//! `server_load/attack.rs`), against a server with its default bounds before the login. When
//! the time is up every client goes, and it measures how long until every key (the honest
//! bots' and the attackers') is let in again: the slots come back.

#[path = "server_load/attack.rs"]
mod attack;
#[path = "server_load/measure.rs"]
mod measure;
#[path = "server_load/servers.rs"]
mod servers;
#[path = "server_load/slow.rs"]
mod slow;
#[path = "server_load/watchers.rs"]
mod watchers;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use quentin::rules::{Action, Game, Setup};
use russh::client::{self, Handle};
use russh::keys::ssh_key::private::{Ed25519Keypair, KeypairData};
use russh::keys::{PrivateKey, PrivateKeyWithHashAlg};
use russh::{ChannelMsg, ChannelReadHalf, ChannelWriteHalf};
use tokio::sync::{Barrier, oneshot};

use measure::{
    admin, cpu_seconds, database, database_cpu_seconds, make_database, percentile, status_kb,
};
use servers::{Servers, start_server};

pub struct Client;

impl client::Handler for Client {
    type Error = russh::Error;

    async fn check_server_key(
        &mut self,
        _key: &russh::keys::PublicKeyOrCertificate,
    ) -> Result<bool, Self::Error> {
        Ok(true)
    }
}

/// The key of honest bot `seed`.
fn honest_key(seed: u64) -> PrivateKey {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8] = 0x51;
    PrivateKey::new(
        KeypairData::Ed25519(Ed25519Keypair::from_seed(&bytes)),
        "load",
    )
    .unwrap()
}

/// A bot session: the channel's two halves and what came and was not read yet.
struct Bot {
    _handle: Handle<Client>,
    read: ChannelReadHalf,
    write: ChannelWriteHalf<client::Msg>,
    pending: Vec<u8>,
}

/// A connection to the server on 127.0.0.1:`port`, logged in as `user` with `key`.
pub async fn logged_in(port: u16, user: &str, key: PrivateKey) -> client::Handle<Client> {
    let config = Arc::new(client::Config {
        nodelay: true,
        ..Default::default()
    });
    let mut handle = client::connect(config, ("127.0.0.1", port), Client)
        .await
        .expect("a connection");
    let auth = handle
        .authenticate_publickey(user, PrivateKeyWithHashAlg::new(Arc::new(key), None))
        .await
        .unwrap();
    assert!(auth.success(), "the {user} key is accepted");
    handle
}

impl Bot {
    async fn connect(port: u16, seed: u64) -> Bot {
        let handle = logged_in(port, "load", honest_key(seed)).await;
        let channel = handle.channel_open_session().await.unwrap();
        channel.exec(true, "bot").await.unwrap();
        let (read, write) = channel.split();
        Bot {
            _handle: handle,
            read,
            write,
            pending: Vec::new(),
        }
    }

    async fn ask(&mut self, line: &str) -> String {
        self.write
            .data(format!("{line}\n").as_bytes())
            .await
            .unwrap();
        loop {
            if let Some(end) = self.pending.windows(2).position(|w| w == b"\n\n") {
                let answer: Vec<u8> = self.pending.drain(..end + 2).collect();
                return String::from_utf8_lossy(&answer).trim().to_string();
            }
            match self.read.wait().await {
                Some(ChannelMsg::Data { data }) => self.pending.extend_from_slice(&data),
                Some(_) => {}
                None => panic!("the server closed the session"),
            }
        }
    }
}

#[derive(Clone, Copy)]
struct Options {
    sessions: usize,
    moves: usize,
    seconds: u64,
    /// Milliseconds each bot thinks before its move: 0 plays as fast as the server answers.
    think: u64,
    /// The attack of a soak, if any.
    attack: Option<&'static str>,
    /// Server processes.
    processes: usize,
    /// Terminal sessions watching, and the games they watch.
    watchers: usize,
    watched: usize,
    /// Milliseconds each move's row waits in the database, and the connections that keep its
    /// CPU busy meanwhile.
    slow: u64,
    burners: usize,
}

fn options() -> Options {
    let mut o = Options {
        sessions: 200,
        moves: 30,
        seconds: 300,
        think: 1000,
        attack: None,
        processes: 1,
        watchers: 0,
        watched: 1,
        slow: 0,
        burners: 0,
    };
    let args: Vec<String> = std::env::args().collect();
    for pair in args.windows(2) {
        let value = || pair[1].parse::<usize>().expect("a number");
        match pair[0].as_str() {
            "--sessions" => o.sessions = value().clamp(2, 1000),
            "--moves" => o.moves = value().clamp(1, 150),
            "--seconds" => o.seconds = value() as u64,
            "--think" => o.think = value() as u64,
            "--processes" => o.processes = value().clamp(1, 16),
            "--watchers" => o.watchers = value().min(2000),
            "--watched" => o.watched = value().max(1),
            "--slow-database" => o.slow = value() as u64,
            "--burners" => o.burners = value().min(64),
            "--attack" => {
                o.attack = Some(
                    attack::KINDS
                        .into_iter()
                        .find(|k| *k == pair[1])
                        .expect("--attack half-open, silent-bot, resize, one-key or mix"),
                );
            }
            _ => {}
        }
    }
    o.sessions -= o.sessions % 2;
    o
}

fn main() {
    let o = options();
    let dir = tempfile::tempdir().unwrap();
    let made = database().map(|url| make_database(&url));
    assert!(
        o.processes == 1 || made.is_some(),
        "--processes needs --database URL"
    );
    let mut servers = Servers(
        (0..o.processes)
            .map(|_| start_server(&o, dir.path(), made.as_ref().map(|d| d.0.as_str())))
            .collect(),
    );
    let ports: Vec<u16> = servers.0.iter().map(|(_, port)| *port).collect();
    let pids: Vec<u32> = servers.0.iter().map(|(child, _)| child.id()).collect();
    let port = ports[0];

    let runtime = tokio::runtime::Runtime::new().unwrap();
    let round_trips = Arc::new(Mutex::new(Vec::new()));
    let held = Arc::new(AtomicUsize::new(0));
    let refused = Arc::new(AtomicUsize::new(0));
    let games = o.sessions / 2;
    let ready = Arc::new(Barrier::new(o.sessions + 1));
    // The bots play once every watcher watches; the games watched, once known.
    let (go, going) = tokio::sync::watch::channel(false);
    let watched = Arc::new(std::sync::OnceLock::<std::collections::HashSet<String>>::new());
    let mut frames = 0;
    let mut lease_changes: Option<slow::Leases> = None;
    let (mut resident, mut load) = ((0, 0), (watchers::load(), String::new()));
    let logins = Arc::new(tokio::sync::Semaphore::new(8));
    let tally = Arc::new(attack::Tally::default());
    // How late the bench's own runtime woke at worst, and when.
    let lag = Arc::new(Mutex::new((Duration::ZERO, Duration::ZERO)));
    let (cpu_before, db_before, moves, elapsed, back) = runtime.block_on(async {
        let mut tasks = Vec::new();
        for g in 0..games {
            let (tx, rx) = oneshot::channel::<String>();
            let sent = Arc::new(Mutex::new(None::<Instant>));
            let mut rx = Some(rx);
            let mut tx = Some(tx);
            for side in 0..2 {
                let (logins, ready, held, rts, sent) = (
                    logins.clone(),
                    ready.clone(),
                    held.clone(),
                    round_trips.clone(),
                    sent.clone(),
                );
                let (mut going, watched) = (going.clone(), watched.clone());
                let refused = refused.clone();
                // The two players of a game on different processes, when there are several.
                let port = ports[(g + side) % ports.len()];
                let (tx, rx) = if side == 0 {
                    (tx.take(), None)
                } else {
                    (None, rx.take())
                };
                tasks.push(tokio::spawn(async move {
                    let permit = logins.acquire().await.unwrap();
                    let mut bot = Bot::connect(port, (g * 2 + side) as u64).await;
                    drop(permit);
                    held.fetch_add(1, Ordering::SeqCst);
                    assert_eq!(
                        bot.ask(&format!("register load{g}x{side}")).await.as_str(),
                        "="
                    );
                    let id = if let Some(tx) = tx {
                        let id = bot
                            .ask("challenge quentin size 13 pie off first me clock 60+0 casual")
                            .await;
                        let id = id.trim_start_matches("= ").to_string();
                        tx.send(id.clone()).unwrap();
                        id
                    } else {
                        let id = rx.unwrap().await.unwrap();
                        // On another process, the challenge arrives within moments.
                        loop {
                            let answer = bot.ask(&format!("accept {id}")).await;
                            if answer.starts_with('=') {
                                break;
                            }
                            assert!(answer.contains("no such challenge"), "{answer}");
                            tokio::time::sleep(Duration::from_millis(5)).await;
                        }
                        id
                    };
                    ready.wait().await;
                    let _ = going.wait_for(|go| *go).await;
                    let seen = watched.get().is_some_and(|w| w.contains(&id));
                    let mut position = Setup {
                        size: 13,
                        pie: false,
                        ..Setup::new(Game::Quentin)
                    }
                    .start()
                    .unwrap();
                    let mut rng = 0x2545_f491_4f6c_dd1d_u64 ^ (g as u64) << 1 ^ side as u64;
                    let mut played = 0;
                    let mut log: Vec<String> = Vec::new();
                    while position.ply() < o.moves {
                        let mut answer = bot.ask(&format!("wait {id}")).await;
                        // On another process, the game arrives within moments.
                        while answer.contains("no such game") {
                            tokio::time::sleep(Duration::from_millis(5)).await;
                            answer = bot.ask(&format!("wait {id}")).await;
                        }
                        log.push(answer.clone());
                        let Some(last) = answer.strip_prefix("= turn ") else {
                            break;
                        };
                        if last != "-" {
                            if let Some(t) = sent.lock().unwrap().take() {
                                rts.lock().unwrap().push((t.elapsed(), t, seen));
                            }
                            position.play(Action::parse(last).unwrap()).unwrap();
                        }
                        if position.ply() >= o.moves || position.is_over() {
                            break;
                        }
                        let legal = position.legal_actions();
                        rng ^= rng << 13;
                        rng ^= rng >> 7;
                        rng ^= rng << 17;
                        let action = legal[(rng % legal.len() as u64) as usize];
                        // A think time drawn around the asked one, so that moves do not come
                        // in lockstep.
                        if o.think > 0 {
                            let ms = o.think / 2 + rng % o.think.max(1);
                            tokio::time::sleep(Duration::from_millis(ms)).await;
                        }
                        *sent.lock().unwrap() = Some(Instant::now());
                        let mut said = Vec::new();
                        loop {
                            let answer = bot.ask(&format!("play {id} {action}")).await;
                            said.push(answer.clone());
                            log.push(format!("play {action}: {answer}"));
                            if answer == "=" {
                                break;
                            }
                            // A slow database may have a move wait past its bound: it is said
                            // so, and the move may yet be saved: the record tells, else it is
                            // sent again.
                            if !(o.slow > 0 && answer.starts_with("? the")) {
                                let record = bot.ask(&format!("record {id}")).await;
                                panic!(
                                    "play {id} {action}: {said:?}; mine {log:?}; record {record}"
                                );
                            }
                            refused.fetch_add(1, Ordering::Relaxed);
                            tokio::time::sleep(Duration::from_millis(100)).await;
                            let record = bot.ask(&format!("record {id}")).await;
                            let text = record.trim_start_matches("= ");
                            if quentin::record::Record::parse(text)
                                .is_ok_and(|r| r.actions().get(position.ply()) == Some(&action))
                            {
                                break;
                            }
                        }
                        position.play(action).unwrap();
                        played += 1;
                    }
                    played
                }));
            }
        }
        ready.wait().await;
        resident.0 = watchers::resident_kb(pids[0]);
        let watching = if o.watchers > 0 {
            let opened = watchers::open(port, o.watchers, o.watched).await;
            let _ = watched.set(opened.games.clone());
            Some(opened)
        } else {
            None
        };
        resident.1 = watchers::resident_kb(pids[0]);
        let slowed = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let leases = match &made {
            Some((url, _)) if o.slow > 0 || o.burners > 0 => {
                if o.slow > 0 {
                    slow::slow_moves(url, o.slow).await;
                }
                slow::burn(url, o.burners, &slowed);
                Some(tokio::spawn(slow::watch_leases(
                    url.clone(),
                    slowed.clone(),
                )))
            }
            _ => None,
        };
        go.send_replace(true);
        // The bench's own runtime, watched: a task that sleeps a millisecond at a time and
        // notes how late it wakes, so that a stall of the measuring client is told apart from
        // one of the servers.
        let watched = Instant::now();
        let watcher = {
            let lag = lag.clone();
            tokio::spawn(async move {
                loop {
                    let asleep = Instant::now();
                    tokio::time::sleep(Duration::from_millis(1)).await;
                    let late = asleep.elapsed().saturating_sub(Duration::from_millis(1));
                    let mut worst = lag.lock().unwrap();
                    if late > worst.0 {
                        *worst = (late, asleep.duration_since(watched));
                    }
                }
            })
        };
        let mut attackers = tokio::task::JoinSet::new();
        if let Some(kind) = o.attack {
            attack::start(kind, port, &tally, &mut attackers);
        }
        let cpu_before: Vec<f64> = pids.iter().map(|p| cpu_seconds(*p)).collect();
        let db_before = database_cpu_seconds();
        let start = Instant::now();
        let all = futures_all(tasks, Duration::from_secs(o.seconds)).await;
        let elapsed = start.elapsed();
        watcher.abort();
        load.1 = watchers::load();
        slowed.store(true, Ordering::SeqCst);
        if let Some(leases) = leases {
            lease_changes = Some(leases.await.unwrap());
        }
        if let Some(mut watching) = watching {
            frames = watching.bytes.load(Ordering::Relaxed);
            watching.tasks.abort_all();
            while watching.tasks.join_next().await.is_some() {}
        }
        attackers.abort_all();
        while attackers.join_next().await.is_some() {}
        let back = if o.attack.is_some() {
            Some(attack::slots_back(port, o.sessions).await)
        } else {
            None
        };
        (cpu_before, db_before, all, elapsed, back)
    });
    let cpu: Vec<f64> = pids
        .iter()
        .zip(&cpu_before)
        .map(|(p, before)| cpu_seconds(*p) - before)
        .collect();
    let db_cpu = database_cpu_seconds() - db_before;
    let peaks: Vec<u64> = pids.iter().map(|p| status_kb(*p, "VmHWM:")).collect();
    let mut timed = round_trips.lock().unwrap().clone();
    timed.sort_by_key(|(rt, _, _)| std::cmp::Reverse(*rt));
    // When the slowest round trips began, from the first move: a tail at the start, or
    // spread over the run.
    let first = timed.iter().map(|(_, at, _)| *at).min();
    let slowest: Vec<String> = timed
        .iter()
        .take(5)
        .map(|(rt, at, _)| {
            format!(
                "{:.0} ms at {:.1} s",
                rt.as_secs_f64() * 1000.0,
                first.map_or(0.0, |f| at.duration_since(f).as_secs_f64())
            )
        })
        .collect();
    let mut rts: Vec<Duration> = timed.iter().map(|(rt, _, _)| *rt).collect();
    rts.sort();
    let mut seen: Vec<Duration> = timed.iter().filter(|t| t.2).map(|t| t.0).collect();
    seen.sort();
    servers.stop();
    if let (Some(url), Some((_, name))) = (database(), &made) {
        admin(
            &url,
            &format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
        );
    }
    println!(
        "server load: {} sessions in {games} live games of Quentin 13x13 over SSH on 127.0.0.1, thinking {} ms a move, {} server process(es){}",
        o.sessions,
        o.think,
        o.processes,
        if made.is_some() {
            " on PostgreSQL"
        } else {
            " on SQLite"
        }
    );
    println!("  sessions held at once   {}", held.load(Ordering::SeqCst));
    println!(
        "  moves played            {moves} in {:.1} s ({:.0} a second)",
        elapsed.as_secs_f64(),
        moves as f64 / elapsed.as_secs_f64()
    );
    println!(
        "  round trip p50          {:.1} ms",
        percentile(&rts, 0.5).as_secs_f64() * 1000.0
    );
    println!(
        "  round trip p90          {:.1} ms",
        percentile(&rts, 0.9).as_secs_f64() * 1000.0
    );
    println!(
        "  round trip p99          {:.1} ms",
        percentile(&rts, 0.99).as_secs_f64() * 1000.0
    );
    if o.watchers > 0 {
        let ms = |p| percentile(&seen, p).as_secs_f64() * 1000.0;
        println!(
            "  watched games           {} watchers on {} game(s): {} round trips, p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms; {:.1} MB of frames taken",
            o.watchers,
            o.watched,
            seen.len(),
            ms(0.5),
            ms(0.9),
            ms(0.99),
            frames as f64 / 1e6
        );
        println!(
            "  memory a watcher        {:.1} kB (resident {:.1} MB before the watchers, {:.1} MB after)",
            resident.1.saturating_sub(resident.0) as f64 / o.watchers as f64,
            resident.0 as f64 / 1024.0,
            resident.1 as f64 / 1024.0
        );
    }
    println!(
        "  machine load            {} at the start, {} at the end",
        load.0, load.1
    );
    println!("  the slowest             {}", slowest.join(", "));
    let (late, at) = *lag.lock().unwrap();
    println!(
        "  the bench's runtime     late by at most {:.0} ms (at {:.1} s)",
        late.as_secs_f64() * 1000.0,
        at.as_secs_f64()
    );
    for (n, (peak, cpu)) in peaks.iter().zip(&cpu).enumerate() {
        println!(
            "  server {n} peak memory    {:.1} MB, CPU {:.1} s ({:.2} ms a move in all)",
            *peak as f64 / 1024.0,
            cpu,
            cpu * 1000.0 / moves.max(1) as f64
        );
    }
    if made.is_some() {
        println!(
            "  database CPU            {db_cpu:.1} s ({:.2} ms a move, {:.0} % of a core)",
            db_cpu * 1000.0 / moves.max(1) as f64,
            db_cpu * 100.0 / elapsed.as_secs_f64()
        );
    }
    if let Some(leases) = &lease_changes {
        println!(
            "  slow database           each move's row {} ms, {} connections burning its CPU: {} of {} games changed owner ({} takeovers); {} plays answered with a refusal and sent again",
            o.slow,
            o.burners,
            leases.moved,
            leases.games,
            leases.takeovers,
            refused.load(Ordering::Relaxed)
        );
    }
    if let (Some(kind), Some(back)) = (o.attack, back) {
        println!(
            "  attack                  {kind}: {} connections opened, {} ended by the server",
            tally.opened.load(Ordering::Relaxed),
            tally.ended.load(Ordering::Relaxed)
        );
        println!(
            "  slots back              every key let in again {:.1} s after the clients went",
            back.as_secs_f64()
        );
    }
}

/// Waits for every task, within `limit`; the moves they played.
async fn futures_all(tasks: Vec<tokio::task::JoinHandle<usize>>, limit: Duration) -> usize {
    let deadline = tokio::time::Instant::now() + limit;
    let mut moves = 0;
    let mut tasks = tasks.into_iter();
    for task in tasks.by_ref() {
        match tokio::time::timeout_at(deadline, task).await {
            Ok(Ok(n)) => moves += n,
            Ok(Err(e)) => panic!("a bot failed: {e}"),
            Err(_) => {
                eprintln!("the time limit came first");
                break;
            }
        }
    }
    // The bots still playing go, and their connections with them.
    for task in tasks {
        task.abort();
        let _ = task.await;
    }
    moves
}
