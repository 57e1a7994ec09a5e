//! The metrics endpoint bounded per client as SSH is (issue 59, items 16 and 18): 300 slow
//! connections from three network blocks of 127.0.0.0/8, each sending a byte every 2 seconds
//! and reopened when the server closes it, do not starve a scrape from 127.0.0.1; 16 slow ones
//! from the scraper's own address do not keep it out either.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

use crate::serve::{self, Server, free_port, scratch};

/// Slow clients: `count` connections from `source(i)`, each sending one byte of a request every
/// 2 seconds (never its end), reopened when the server closes it; `opened` counts every one
/// the server took.
struct Slow {
    stop: Arc<AtomicBool>,
    opened: Arc<AtomicUsize>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Slow {
    fn start(port: u16, count: usize, source: fn(usize) -> [u8; 4]) -> Slow {
        let (stop, opened) = (
            Arc::new(AtomicBool::new(false)),
            Arc::new(AtomicUsize::new(0)),
        );
        let (s, o) = (stop.clone(), opened.clone());
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let mut tasks = Vec::new();
                for i in 0..count {
                    let (s, o) = (s.clone(), o.clone());
                    tasks.push(tokio::spawn(async move {
                        while !s.load(Ordering::SeqCst) {
                            let socket = tokio::net::TcpSocket::new_v4().unwrap();
                            socket.bind((source(i), 0).into()).unwrap();
                            let Ok(mut stream) =
                                socket.connect(([127, 0, 0, 1], port).into()).await
                            else {
                                tokio::time::sleep(Duration::from_millis(200)).await;
                                continue;
                            };
                            o.fetch_add(1, Ordering::SeqCst);
                            let mut byte = [0u8; 64];
                            // A byte every 2 seconds until the server closes the connection.
                            while !s.load(Ordering::SeqCst) {
                                if stream.write_all(b"G").await.is_err() {
                                    break;
                                }
                                let closed = tokio::time::timeout(
                                    Duration::from_secs(2),
                                    stream.read(&mut byte),
                                )
                                .await;
                                if matches!(closed, Ok(Ok(0) | Err(_))) {
                                    break;
                                }
                            }
                            // Its pace: a connection, as a byte, every 2 seconds.
                            tokio::time::sleep(Duration::from_secs(2)).await;
                        }
                    }));
                }
                for task in tasks {
                    let _ = task.await;
                }
            });
        });
        Slow {
            stop,
            opened,
            thread: Some(thread),
        }
    }

    /// Waits until the server has taken `n` of its connections.
    fn opened(&self, n: usize) {
        let started = Instant::now();
        while self.opened.load(Ordering::SeqCst) < n {
            assert!(
                started.elapsed() < serve::TIMEOUT,
                "the slow clients never connected"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Slow {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// `GET /metrics` on 127.0.0.1:`port`: the status line and the body, or why there was none.
fn scrape(port: u16) -> Result<(String, String), String> {
    let mut socket = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    socket
        .set_read_timeout(Some(serve::TIMEOUT))
        .map_err(|e| e.to_string())?;
    write!(socket, "GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        .map_err(|e| e.to_string())?;
    let mut answer = String::new();
    socket
        .read_to_string(&mut answer)
        .map_err(|e| e.to_string())?;
    let (head, body) = answer
        .split_once("\r\n\r\n")
        .ok_or_else(|| format!("no answer: {answer:?}"))?;
    Ok((
        head.lines().next().unwrap_or_default().to_string(),
        body.to_string(),
    ))
}

/// `tries` scrapes one after another: each must be answered with the metrics. The time each
/// took is said on the standard error (for the record; not asserted).
fn every_scrape_answered(port: u16, tries: usize, what: &str) {
    for n in 0..tries {
        let started = Instant::now();
        let (status, body) = scrape(port).unwrap_or_else(|e| panic!("{what}: scrape {n}: {e}"));
        assert_eq!(status, "HTTP/1.1 200 OK", "{what}: scrape {n}");
        assert!(
            body.contains("quentin_sessions"),
            "{what}: scrape {n}: {body}"
        );
        eprintln!("{what}: scrape {n} answered in {:?}", started.elapsed());
    }
}

#[test]
fn slow_clients_of_the_metrics_starve_no_scrape() {
    let dir = scratch("server-metrics-slow");
    let port = free_port();
    let server = Server::start(&dir, &["--metrics", &format!("127.0.0.1:{port}")]);
    let mut alice = server.registered(&dir, "alice");
    // 16 slow ones from the scraper's own address.
    {
        let slow = Slow::start(port, 16, |_| [127, 0, 0, 1]);
        slow.opened(16);
        every_scrape_answered(port, 5, "16 slow from 127.0.0.1");
    }
    // 300 from three blocks, 100 each.
    let slow = Slow::start(port, 300, |i| {
        [
            127,
            30 + u8::try_from(i / 100).unwrap(),
            0,
            1 + u8::try_from(i % 100).unwrap(),
        ]
    });
    slow.opened(300);
    every_scrape_answered(port, 10, "300 slow from 3 blocks");
    // Play is unharmed.
    assert_eq!(alice.ask("whoami"), "= alice");
}
