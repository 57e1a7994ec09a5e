//! A database of its own for each PostgreSQL test, made on the server that
//! `QUENTIN_TEST_DATABASE_URL` names and dropped when the test ends. Without that variable the
//! tests say they were skipped and how to run them, unless `QUENTIN_REQUIRE_POSTGRES` is set
//! (`bash .ci/run` sets both), when they fail; with it, a server that cannot be reached fails
//! them.

use std::io::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The variable that names the PostgreSQL server the tests may use.
pub const VARIABLE: &str = "QUENTIN_TEST_DATABASE_URL";

/// Set where the PostgreSQL tests must run (CI): a missing database fails them.
pub const REQUIRED: &str = "QUENTIN_REQUIRE_POSTGRES";

/// Says that `test` was skipped and why, or fails it where PostgreSQL is required.
fn skipped(test: &str, why: &str) {
    assert!(
        std::env::var_os(REQUIRED).is_none(),
        "{test} needs PostgreSQL ({REQUIRED} is set): {why}"
    );
    // Straight to the standard error, past the test harness's capture: said even when the
    // test passes.
    let _ = writeln!(std::io::stderr(), "skipped {test}: {why}");
}

/// A database made for one test.
pub struct Database {
    /// Its URL, for `quentin serve --database`.
    pub url: String,
    admin: String,
    name: String,
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn admin(url: &str, sql: &str) {
    runtime().block_on(async {
        let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
            .await
            .unwrap_or_else(|e| panic!("cannot reach the PostgreSQL of {VARIABLE} ({url}): {e}"));
        tokio::spawn(connection);
        client
            .batch_execute(sql)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    });
}

/// Runs the statements `sql` on the database of `url` (a test's own, to damage it).
pub fn execute(url: &str, sql: &str) {
    admin(url, sql);
}

/// Runs `sql` on the test's database and gives the first column of the first row.
pub fn query_i64(url: &str, sql: &str) -> i64 {
    runtime().block_on(async {
        let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
            .await
            .unwrap();
        tokio::spawn(connection);
        client.query_one(sql, &[]).await.unwrap().get(0)
    })
}

/// Runs `sql` on the test's database and gives the first column of every row, as text.
pub fn query_texts(url: &str, sql: &str) -> Vec<String> {
    runtime().block_on(async {
        let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
            .await
            .unwrap();
        tokio::spawn(connection);
        let rows = client.query(sql, &[]).await.unwrap();
        rows.iter().map(|r| r.get(0)).collect()
    })
}

impl Database {
    /// A new empty database named after `test`, or `None` (and a line saying the test was
    /// skipped) when no PostgreSQL server is named.
    pub fn new(test: &str) -> Option<Database> {
        let Ok(admin_url) = std::env::var(VARIABLE) else {
            skipped(
                test,
                &format!(
                    "it needs PostgreSQL. Run it with \
                     {VARIABLE}=postgres://postgres@127.0.0.1:5432/postgres cargo test --release \
                     (bash .ci/run does)"
                ),
            );
            return None;
        };
        static N: AtomicUsize = AtomicUsize::new(0);
        let name = format!(
            "quentin_test_{}_{}_{}",
            test.replace(|c: char| !c.is_ascii_alphanumeric(), "_"),
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        );
        let name: String = name.chars().take(60).collect();
        admin(&admin_url, &format!("CREATE DATABASE {name}"));
        let config: tokio_postgres::Config = admin_url.parse().unwrap();
        let user = config.get_user().unwrap_or("postgres");
        let host = match config.get_hosts().first() {
            Some(tokio_postgres::config::Host::Tcp(h)) => h.clone(),
            _ => "127.0.0.1".to_string(),
        };
        let port = config.get_ports().first().copied().unwrap_or(5432);
        Some(Database {
            url: format!("postgres://{user}@{host}:{port}/{name}"),
            admin: admin_url,
            name,
        })
    }
}

impl Drop for Database {
    fn drop(&mut self) {
        admin(
            &self.admin,
            &format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name),
        );
    }
}

/// A PostgreSQL server of a test's own, made with `initdb` in a scratch directory and started
/// on a free port of 127.0.0.1 with the settings the test gives (`max_connections=2`), run as
/// the user `postgres` when the tests run as root (PostgreSQL refuses root); stopped and
/// removed when dropped. For what cannot be done to the machine's PostgreSQL, which other
/// tests share: filling its connections.
pub struct Private {
    pub port: u16,
    child: std::process::Child,
    dir: tempfile::TempDir,
}

impl Private {
    /// Starts one, or `None` (and a line saying the test was skipped) without
    /// `QUENTIN_TEST_DATABASE_URL` or without PostgreSQL's programs (`initdb`, `postgres`).
    pub fn start(test: &str, settings: &[&str]) -> Option<Private> {
        if std::env::var(VARIABLE).is_err() {
            skipped(test, &format!("it needs PostgreSQL ({VARIABLE})"));
            return None;
        }
        let found = std::process::Command::new("initdb")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if !found {
            skipped(test, "it needs PostgreSQL's initdb and postgres on PATH");
            return None;
        }
        // Removed when the test ends, pass or fail (after the server has stopped: `Drop`).
        let tmp = tempfile::Builder::new()
            .prefix(&format!("quentin-pg-{test}-"))
            .tempdir()
            .unwrap();
        let dir = tmp.path().to_path_buf();
        let root = as_root();
        if root {
            let status = std::process::Command::new("chown")
                .args(["postgres:"])
                .arg(&dir)
                .status()
                .unwrap();
            assert!(status.success(), "chown postgres {}", dir.display());
        }
        let data = dir.join("data");
        let made = command(root, "initdb")
            .args(["-U", "postgres", "--auth=trust", "-D"])
            .arg(&data)
            .output()
            .unwrap();
        assert!(made.status.success(), "initdb: {made:?}");
        let port = crate::serve::free_port();
        let mut server = command(root, "postgres");
        server
            .arg("-D")
            .arg(&data)
            .args(["-p", &port.to_string(), "-c", "listen_addresses=127.0.0.1"])
            .arg("-c")
            .arg(format!("unix_socket_directories={}", dir.display()));
        for setting in settings {
            server.args(["-c", setting]);
        }
        let child = server
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let private = Private {
            port,
            child,
            dir: tmp,
        };
        // Ready once it answers a query.
        let url = private.url();
        let started = std::time::Instant::now();
        while runtime()
            .block_on(tokio_postgres::connect(&url, tokio_postgres::NoTls))
            .is_err()
        {
            assert!(
                started.elapsed() < crate::serve::TIMEOUT,
                "the test's own PostgreSQL never took a connection"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        Some(private)
    }

    /// The URL of its database `postgres`.
    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }
}

impl Drop for Private {
    fn drop(&mut self) {
        // Its immediate shutdown: every session ended, nothing of it to keep.
        let _ = command(as_root(), "pg_ctl")
            .args(["-m", "immediate", "-D"])
            .arg(self.dir.path().join("data"))
            .arg("stop")
            .output();
        let _ = self.child.wait();
    }
}

/// Whether the tests run as root.
fn as_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0\n"))
}

/// `program`, run as the user `postgres` when `root`.
fn command(root: bool, program: &str) -> std::process::Command {
    if root {
        let mut command = std::process::Command::new("runuser");
        command.args(["-u", "postgres", "--", program]);
        command
    } else {
        std::process::Command::new(program)
    }
}
