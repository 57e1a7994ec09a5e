//! Places before the login that no group of addresses can fill: 10 sockets from each of 10
//! network blocks of 127.0.0.0/8 (127.10.0.0/24 to 127.19.0.0/24), or one socket from each of
//! 150 (issue 59, item 10), each never sending a byte and reopened as soon as the server closes
//! it, while newcomers from other blocks log in with the real `ssh` client.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tokio::io::AsyncReadExt as _;

use crate::serve::{Server, TIMEOUT, key, scratch, ssh_args_at, ssh_program};

/// The flood: `held` counts its sockets open now that the server took (it sent them its
/// version line), `taken` every one it ever took.
struct Flood {
    stop: Arc<AtomicBool>,
    held: Arc<AtomicUsize>,
    taken: Arc<AtomicUsize>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Flood {
    /// 10 sockets from each of 10 blocks, 127.10.0.0/24 to 127.19.0.0/24.
    fn start(port: u16) -> Flood {
        let sources = (10u8..20)
            .flat_map(|block| (1u8..=10).map(move |host| [127, block, 0, host]))
            .collect();
        Flood::from(port, sources)
    }

    /// A socket from each of `sources`, reopened as soon as the server closes it.
    fn from(port: u16, sources: Vec<[u8; 4]>) -> Flood {
        let (stop, held, taken) = (
            Arc::new(AtomicBool::new(false)),
            Arc::new(AtomicUsize::new(0)),
            Arc::new(AtomicUsize::new(0)),
        );
        let (s, h, t) = (stop.clone(), held.clone(), taken.clone());
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                for source in sources {
                    {
                        let (s, h, t) = (s.clone(), h.clone(), t.clone());
                        tokio::spawn(async move {
                            while !s.load(Ordering::SeqCst) {
                                let socket = tokio::net::TcpSocket::new_v4().unwrap();
                                socket.bind((source, 0).into()).unwrap();
                                if let Ok(mut stream) =
                                    socket.connect(([127, 0, 0, 1], port).into()).await
                                {
                                    let mut byte = [0u8; 1];
                                    if matches!(stream.read(&mut byte).await, Ok(1)) {
                                        t.fetch_add(1, Ordering::SeqCst);
                                        h.fetch_add(1, Ordering::SeqCst);
                                        // Held, sending nothing, until the server closes it.
                                        let mut rest = [0u8; 256];
                                        while matches!(stream.read(&mut rest).await, Ok(n) if n > 0)
                                        {
                                        }
                                        h.fetch_sub(1, Ordering::SeqCst);
                                    }
                                }
                                // The attacker's own pace between two tries.
                                tokio::time::sleep(Duration::from_millis(20)).await;
                            }
                        });
                    }
                }
                while !s.load(Ordering::SeqCst) {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            });
        });
        Flood {
            stop,
            held,
            taken,
            thread: Some(thread),
        }
    }
}

impl Drop for Flood {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A newcomer with a new key `name` from `source` registers with the real ssh client: `Ok`
/// when answered `=`, else what ssh said.
fn newcomer(dir: &std::path::Path, port: u16, name: &str, source: &str) -> Result<(), String> {
    let newbie = key(dir, name);
    let mut ssh = Command::new(ssh_program())
        .args(["-b", source])
        .args(ssh_args_at(&newbie, port))
        .arg("bot")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = ssh.stdin.take().unwrap();
    writeln!(input, "register {name}").unwrap();
    input.flush().unwrap();
    let mut lines = BufReader::new(ssh.stdout.take().unwrap()).lines();
    let answer = lines.next().and_then(Result::ok);
    drop(input);
    let _ = ssh.kill();
    let output = ssh.wait_with_output().unwrap();
    match answer.as_deref() {
        Some("=") => Ok(()),
        _ => Err(format!(
            "{answer:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        )),
    }
}

#[test]
fn ten_sockets_from_each_of_ten_networks_held_and_reopened_keep_no_newcomer_out() {
    let dir = scratch("server-flood");
    let server = Server::start(&dir, &[]);
    let flood = Flood::start(server.port);
    // The flood holds what the server lets it: more than half the places, after a hundred.
    let started = Instant::now();
    while flood.taken.load(Ordering::SeqCst) < 100 || flood.held.load(Ordering::SeqCst) < 50 {
        assert!(
            started.elapsed() < TIMEOUT,
            "the flood never took its places"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    // A newcomer from elsewhere logs in with the real ssh client.
    let answer = newcomer(&dir, server.port, "newbie", "127.200.0.1");
    let held = flood.held.load(Ordering::SeqCst);
    assert_eq!(answer, Ok(()), "the newcomer was kept out");
    eprintln!(
        "the flood held {held} sockets when the newcomer logged in ({} taken in all)",
        flood.taken.load(Ordering::SeqCst)
    );
}

#[test]
fn one_socket_from_each_of_150_networks_keeps_no_newcomer_out() {
    let dir = scratch("server-flood-wide");
    let server = Server::start(&dir, &[]);
    // 127.40.0.0/24 to 127.189.0.0/24: 150 networks of one socket each, for 100 places.
    let flood = Flood::from(server.port, (40u8..190).map(|b| [127, b, 0, 1]).collect());
    let started = Instant::now();
    while flood.taken.load(Ordering::SeqCst) < 150 || flood.held.load(Ordering::SeqCst) < 90 {
        assert!(
            started.elapsed() < TIMEOUT,
            "the flood never took its places"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    // 20 newcomers, each from a network of its own, one after another.
    let mut refused = Vec::new();
    for n in 0..20u8 {
        let source = format!("127.201.{n}.1");
        if let Err(why) = newcomer(&dir, server.port, &format!("newbie{n}"), &source) {
            refused.push(why);
        }
    }
    eprintln!(
        "{} of 20 newcomers let in; the flood held {} sockets ({} taken in all)",
        20 - refused.len(),
        flood.held.load(Ordering::SeqCst),
        flood.taken.load(Ordering::SeqCst)
    );
    assert!(refused.len() <= 5, "newcomers kept out: {refused:#?}");
}
