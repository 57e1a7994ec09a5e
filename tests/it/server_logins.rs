//! The `logins` table kept for a stated time (issue 59, item 18): each login's key, address
//! and time are deleted after `--keep-logins DAYS` (90 by default), and a refused login is kept
//! once a minute a network block, so that a flood of refused logins does not grow the store.
//! The server's clock is moved on by the test server's `clock advance`.

use std::path::Path;
use std::time::Instant;

use crate::serve;
use serve::{Server, TIMEOUT, key, scratch};

/// The rows of `logins` in the store of `data`: those of registered players' keys, and the
/// others'.
fn logins(data: &Path) -> (i64, i64) {
    let db = rusqlite::Connection::open(data.join("server.db")).unwrap();
    let count = |sql: &str| -> i64 { db.query_row(sql, [], |r| r.get(0)).unwrap() };
    (
        count("SELECT COUNT(*) FROM logins WHERE key IN (SELECT key FROM players)"),
        count("SELECT COUNT(*) FROM logins WHERE key NOT IN (SELECT key FROM players)"),
    )
}

/// Waits until `logins(data)` is `want` (a login's row is written beside the login).
fn wait_logins(data: &Path, want: (i64, i64)) {
    let started = Instant::now();
    loop {
        let now = logins(data);
        if now == want {
            return;
        }
        assert!(started.elapsed() < TIMEOUT, "logins {now:?}, not {want:?}");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

const PRIVATE: &str = "? this server is private: only the keys its host lists may log in";

#[test]
fn logins_are_deleted_after_their_days_and_a_refused_one_is_kept_once_a_minute() {
    let dir = scratch("server-logins");
    let alice = key(&dir, "alice");
    let mallory = key(&dir, "mallory");
    let allow = dir.join("allow");
    std::fs::write(&allow, std::fs::read(alice.with_extension("pub")).unwrap()).unwrap();
    let server = Server::start(&dir, &["--allow", allow.to_str().unwrap()]);
    let mut root = server.bot(&alice);
    root.ok("register alice");
    wait_logins(&server.data, (1, 0));
    // Refused five times in a minute: kept once.
    for _ in 0..5 {
        let answer = server.bot(&mallory).ask("whoami");
        assert!(answer.starts_with(PRIVATE), "{answer}");
    }
    wait_logins(&server.data, (1, 1));
    // A minute on: kept once more.
    root.ok("clock advance 61");
    let answer = server.bot(&mallory).ask("whoami");
    assert!(answer.starts_with(PRIVATE), "{answer}");
    wait_logins(&server.data, (1, 2));
    // 89 days on, nothing is deleted; 91, everything before is.
    root.ok(&format!("clock advance {}", 89 * 86_400));
    server.bot(&alice).ok("whoami");
    wait_logins(&server.data, (2, 2));
    root.ok(&format!("clock advance {}", 2 * 86_400));
    wait_logins(&server.data, (1, 0));
}

#[test]
fn keep_logins_sets_the_days_and_is_at_least_one() {
    let dir = scratch("server-logins-days");
    let alice = key(&dir, "alice");
    let server = Server::start(&dir, &["--keep-logins", "2"]);
    let mut bot = server.bot(&alice);
    bot.ok("register alice");
    wait_logins(&server.data, (1, 0));
    bot.ok(&format!("clock advance {}", 3 * 86_400));
    wait_logins(&server.data, (0, 0));
    let out = crate::isolated::quentin()
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--keep-logins",
            "0",
            "--data",
        ])
        .arg(dir.join("other"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("--keep-logins must be at least 1"), "{said}");
}
