//! `quentin serve --metrics ADDR:PORT`: the Prometheus text format at `/metrics`, counting what
//! the players did, checked by `promtool check metrics` and scraped by a real Prometheus on
//! loopback (Debian's package `prometheus`, which `bash .ci/run` installs; without it those two
//! checks say they were skipped, and fail under `.ci/run`).

use crate::serve;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Command, Stdio};

use serve::play::{Play, pair};
use serve::{Server, free_port, scratch};

/// `GET path` on 127.0.0.1:`port`: the status line and the body.
fn get(port: u16, path: &str) -> (String, String) {
    try_get(port, path).unwrap_or_else(|| panic!("no answer to GET {path} on port {port}"))
}

/// The same, `None` when nothing answers (yet).
fn try_get(port: u16, path: &str) -> Option<(String, String)> {
    let mut socket = TcpStream::connect(("127.0.0.1", port)).ok()?;
    socket.set_read_timeout(Some(serve::TIMEOUT)).ok()?;
    // HTTP/1.0: the answer ends with the connection (Prometheus's own server keeps 1.1 open).
    write!(socket, "GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").ok()?;
    let mut answer = String::new();
    socket.read_to_string(&mut answer).ok()?;
    let (head, body) = answer.split_once("\r\n\r\n")?;
    Some((head.lines().next()?.to_string(), body.to_string()))
}

/// The value of the sample `name` (with its labels, as written) in `text`.
fn sample(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
}

/// Whether a program is on the path; when not, says the check was skipped, and fails under
/// `bash .ci/run` (which installs it).
fn have(program: &str, check: &str) -> bool {
    let found = Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok();
    if !found {
        assert!(
            std::env::var_os("QUENTIN_CI").is_none(),
            "{check} needs {program}: bash .ci/run installs Debian's package prometheus"
        );
        let _ = writeln!(
            std::io::stderr(),
            "skipped {check}: it needs {program} (apt-get install prometheus; bash .ci/run does)"
        );
    }
    found
}

#[test]
fn the_metrics_count_what_the_players_did_and_prometheus_reads_them() {
    let dir = scratch("server-metrics");
    let port = free_port();
    let at = format!("127.0.0.1:{port}");
    let server = Server::start(&dir, &["--metrics", &at]);
    let (mut bots, id) = pair(&server, &dir, ["alice", "bob"]);
    Play::new(id).moves(&mut bots, 6);

    let (status, text) = get(port, "/metrics");
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert_eq!(sample(&text, "quentin_moves_total"), Some(6.0), "{text}");
    assert_eq!(sample(&text, "quentin_games_running"), Some(1.0), "{text}");
    assert_eq!(
        sample(&text, "quentin_sessions{kind=\"bot\"}"),
        Some(2.0),
        "{text}"
    );
    assert_eq!(sample(&text, "quentin_players_online"), Some(2.0), "{text}");
    // Two registrations, a challenge, its start, six moves and the heartbeats, in one batch
    // or more: each batch's time in the histogram.
    let commits = sample(&text, "quentin_store_commit_seconds_count").unwrap();
    assert!(commits >= 1.0, "{text}");
    assert_eq!(sample(&text, "quentin_store_queue"), Some(0.0), "{text}");
    assert!(
        text.contains("# TYPE quentin_refused_total counter"),
        "{text}"
    );
    assert_eq!(get(port, "/").0, "HTTP/1.1 404 Not Found");

    if have("promtool", "the promtool check of the metrics") {
        check_with_input(Command::new("promtool").args(["check", "metrics"]), &text);
    }
    if have("prometheus", "the scrape by a real Prometheus") {
        scraped(&dir, port, 6.0);
    }
}

/// Runs a Prometheus on loopback that scrapes the server's metrics on `port` every second, and
/// waits until its query of `quentin_moves_total` answers `moves`.
fn scraped(dir: &Path, port: u16, moves: f64) {
    let web = free_port();
    let config = dir.join("prometheus.yml");
    std::fs::write(
        &config,
        format!(
            "global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: quentin\n    \
             static_configs:\n      - targets: ['127.0.0.1:{port}']\n"
        ),
    )
    .unwrap();
    let mut prometheus = Command::new("prometheus")
        .arg(format!("--config.file={}", config.display()))
        .arg(format!(
            "--storage.tsdb.path={}",
            dir.join("tsdb").display()
        ))
        .arg(format!("--web.listen-address=127.0.0.1:{web}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Asked again until it has scraped (it starts, then scrapes once a second).
    let deadline = std::time::Instant::now() + serve::TIMEOUT;
    let found = loop {
        let answer = try_get(web, "/api/v1/query?query=quentin_moves_total");
        let value = answer
            .and_then(|(_, body)| serde_json::from_str::<serde_json::Value>(&body).ok())
            .and_then(|v| {
                v["data"]["result"][0]["value"][1]
                    .as_str()
                    .map(str::to_string)
            });
        if let Some(value) = value {
            break value;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "Prometheus never scraped the moves"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    let _ = prometheus.kill();
    let _ = prometheus.wait();
    assert_eq!(found.parse::<f64>().unwrap(), moves);
}

/// Runs `command` with `input` on its standard input; fails showing what it said.
fn check_with_input(command: &mut Command, input: &str) {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}{}\n--- given:\n{input}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
