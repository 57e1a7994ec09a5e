//! What an operator writes, checked before it is kept (issue 59, items 3, 5 and 20): a ban until
//! a day already begun is refused with the reason, through the bot protocol and `quentin serve
//! admin`; a ban's reason reaches the store, the banned player, the answers and the audit log
//! without its control characters (a terminal's escapes, a NUL), alike on SQLite and
//! PostgreSQL.

use std::path::Path;

use crate::serve;
use crate::serve::pg::{Database, query_texts};

use serve::{Server, scratch};

/// A reason with a terminal's escapes (clear the screen, set the window's title), a NUL, a
/// tab and a bell.
const HOSTILE: &str = "\x1b[2J\x1b]0;pwned\x07 spam\tin\0 the lobby";
/// What is kept of it.
const KEPT: &str = "[2J]0;pwned spam in the lobby";

/// `quentin serve admin WORDS...` against `store` (`--data DIR` or `--database URL`): its
/// exit's success, its standard output and its standard error.
fn admin(store: &[&str], words: &[&str]) -> (bool, String, String) {
    let out = crate::isolated::quentin()
        .args(["serve", "admin"])
        .args(store)
        .args(words)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn no_control(what: &str, text: &str) {
    assert!(
        !text.chars().any(|c| c.is_control() && c != '\n'),
        "{what} holds control characters: {text:?}"
    );
}

/// The orders of both tests, on a server whose operator is `root`, `store` its store's
/// `serve admin` options; `reasons` reads the reasons the store holds.
fn refused_and_stripped(
    server: &Server,
    dir: &Path,
    store: &[&str],
    reasons: impl Fn() -> Vec<String>,
) {
    let mut root = server.registered(dir, "root");
    let _eve = server.registered(dir, "eve");
    let _mallory = server.registered(dir, "mallory");
    // A day already begun bans nobody: refused, saying why, and nothing is written.
    let past = "? a ban until 2020-01-01 would ban nobody: that day has begun (UTC); give a day \
                to come";
    assert_eq!(root.ask("ban eve until 2020-01-01 spam"), past);
    let (ok, out, err) = admin(store, &["ban", "eve", "until", "2020-01-01", "spam"]);
    assert!(!ok, "{out}");
    assert!(err.contains(&past[2..]), "{err}");
    assert!(reasons().is_empty(), "{:?}", reasons());
    assert!(!root.ok("log").contains("ban eve"));

    // A reason full of escapes and a NUL, through the bot protocol: kept printable.
    assert_eq!(root.ask(&format!("ban eve {HOSTILE}")), "=");
    let mut eve = server.bot(&dir.join("eve"));
    let told = eve.ask("whoami");
    assert_eq!(told, format!("? you are banned from this server: {KEPT}"));
    // The same through `quentin serve admin`'s words, a line's end among them.
    let (ok, out, err) = admin(store, &["ban", "mallory", "two\nlines\x1b[31m", "red"]);
    assert!(ok, "{err}");
    assert_eq!(out, "banned mallory: twolines[31m red\n");
    let log = root.ok("log");
    assert!(
        log.contains(&format!("root ban eve: {KEPT}"))
            && log.ends_with("host ban mallory: twolines[31m red"),
        "{log}"
    );
    no_control("the log", &log);
    let mut kept = reasons();
    kept.sort();
    assert_eq!(kept, [KEPT, "twolines[31m red"]);
    let players = root.ok("players");
    no_control("players", &players);
}

#[test]
fn a_ban_until_a_past_day_is_refused_and_a_reason_s_escapes_are_stripped_on_sqlite() {
    let dir = scratch("server-sanctions");
    let list = dir.join("operators");
    std::fs::write(&list, "root\n").unwrap();
    let server = Server::start(&dir, &["--operators", list.to_str().unwrap()]);
    let data = server.data.display().to_string();
    let file = server.data.join("server.db");
    refused_and_stripped(&server, &dir, &["--data", &data], || {
        let db = rusqlite::Connection::open(&file).unwrap();
        let mut statement = db.prepare("SELECT reason FROM bans").unwrap();
        statement
            .query_map([], |r| r.get::<_, String>(0))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    });
}

#[test]
fn a_ban_until_a_past_day_is_refused_and_a_reason_s_escapes_are_stripped_on_postgresql() {
    let Some(db) = Database::new("sanctions") else {
        return;
    };
    let dir = scratch("server-sanctions-pg");
    let list = dir.join("operators");
    std::fs::write(&list, "root\n").unwrap();
    let server = Server::start(
        &dir,
        &["--database", &db.url, "--operators", list.to_str().unwrap()],
    );
    let url = db.url.clone();
    refused_and_stripped(&server, &dir, &["--database", &db.url], || {
        query_texts(&url, "SELECT reason FROM bans")
    });
}
