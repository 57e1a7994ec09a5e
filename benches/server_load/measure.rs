//! What the load bench measures and the database it makes: the CPU time and peak memory of
//! processes from /proc, percentiles, and a database of its own on the server of
//! `--database`, dropped at the end.

use std::time::Duration;

/// The database URL of `--database`, if any.
pub fn database() -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.windows(2)
        .find(|pair| pair[0] == "--database")
        .map(|pair| pair[1].clone())
}

/// A new database on the server of `url` for this run (its URL and name), dropped at the end.
pub fn make_database(url: &str) -> (String, String) {
    let name = format!("quentin_bench_{}", std::process::id());
    admin(url, &format!("CREATE DATABASE {name}"));
    let config: tokio_postgres::Config = url.parse().expect("a database URL");
    let user = config.get_user().unwrap_or("postgres");
    let host = match config.get_hosts().first() {
        Some(tokio_postgres::config::Host::Tcp(h)) => h.clone(),
        _ => "127.0.0.1".to_string(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    (format!("postgres://{user}@{host}:{port}/{name}"), name)
}

pub fn admin(url: &str, sql: &str) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
            .await
            .expect("the database of --database");
        tokio::spawn(connection);
        client.batch_execute(sql).await.unwrap();
    });
}

/// The CPU time of every PostgreSQL server process on this machine so far.
pub fn database_cpu_seconds() -> f64 {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0.0;
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/comm"))
                .is_ok_and(|c| c.trim().starts_with("postgres"))
        })
        .map(cpu_seconds)
        .sum()
}

/// The server's CPU time (user and system) so far, from /proc.
pub fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15 of the whole line: 11 and 12 after the name.
    (ticks(11) + ticks(12)) / 100.0
}

/// A line of /proc/PID/status, in kB.
pub fn status_kb(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

pub fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}
