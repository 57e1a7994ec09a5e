//! The server processes the load bench runs: each a `quentin serve` on a free port of
//! 127.0.0.1 with the bounds the bench needs, killed when the bench ends, however it ends.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

/// The server processes, killed when the bench ends, however it ends.
pub struct Servers(pub Vec<(std::process::Child, u16)>);

impl Servers {
    pub fn stop(&mut self) {
        for (server, _) in &mut self.0 {
            let _ = server.kill();
            let _ = server.wait();
        }
    }
}

impl Drop for Servers {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Starts a server process: its child and its port.
pub fn start_server(
    o: &super::Options,
    dir: &std::path::Path,
    database: Option<&str>,
) -> (std::process::Child, u16) {
    // Another build of the program (`QUENTIN_BENCH_PROGRAM=PATH`) measures a change side by
    // side with the one before it, under the same bench.
    let program = std::env::var_os("QUENTIN_BENCH_PROGRAM")
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_quentin").into());
    let mut server = Command::new(program)
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--sessions-per-key",
            "1",
        ])
        // Room for the attackers' keys that log in (8, and one that tries 20 times).
        .args([
            "--max-sessions",
            &(o.sessions + o.watchers + 20).to_string(),
        ])
        // Hundreds of bots from one address, registering at once and playing game after game
        // between the same pairs: past fair play's limits (docs/server.md), which a load
        // test does not measure.
        .args([
            "--registrations-per-hour",
            "1000000",
            "--challenges-per-minute",
            "1000000",
            "--live-games-per-player",
            "1000000",
            "--rated-games-per-pair",
            "1000000",
        ])
        // Its log: refusals only, not a line for each bot.
        .args([
            "--log-level",
            if o.attack.is_some() { "error" } else { "warn" },
        ])
        // Every bot connects at once, from one address; a soak keeps the default bounds
        // before the login, and its bots connect a few at a time.
        .args(if o.attack.is_some() {
            Vec::new()
        } else {
            let startups = (o.sessions + o.watchers + 10).to_string();
            vec![
                "--max-startups".to_string(),
                startups.clone(),
                "--max-startups-per-address".to_string(),
                startups,
            ]
        })
        .arg("--data")
        .arg(dir)
        .args(
            database
                .map(|url| ["--database", url])
                .into_iter()
                .flatten(),
        )
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    let port: u16 = loop {
        let line = lines.next().expect("an address").unwrap();
        if let Some(a) = line.strip_prefix("quentin serve: listening on ") {
            break a.rsplit(':').next().unwrap().parse().unwrap();
        }
    };
    // The rest of its output is read on, so that the pipe never fills.
    std::thread::spawn(move || for _ in lines {});
    (server, port)
}
