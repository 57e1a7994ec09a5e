//! A database of its own for each PostgreSQL test, made on the server that
//! `QUENTIN_TEST_DATABASE_URL` names and dropped when the test ends. Without that variable the
//! tests say they were skipped and how to run them; with it, a server that cannot be reached
//! fails them (`bash .ci/run` sets it to the machine's PostgreSQL).

use std::io::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The variable that names the PostgreSQL server the tests may use.
pub const VARIABLE: &str = "QUENTIN_TEST_DATABASE_URL";

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

impl Database {
    /// A new empty database named after `test`, or `None` (and a line saying the test was
    /// skipped) when no PostgreSQL server is named.
    pub fn new(test: &str) -> Option<Database> {
        let Ok(admin_url) = std::env::var(VARIABLE) else {
            // Straight to the standard error, past the test harness's capture: said even
            // when the test passes.
            let _ = writeln!(
                std::io::stderr(),
                "skipped {test}: it needs PostgreSQL. Run it with \
                 {VARIABLE}=postgres://postgres@127.0.0.1:5432/postgres cargo test --release \
                 (bash .ci/run does)"
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
