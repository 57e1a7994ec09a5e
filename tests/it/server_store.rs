//! The server's store through the real binary: one server per data directory, damaged games
//! named and kept out of play while the others are served, a file that is not a store
//! refused, and a damaged store refused at the start with its reason and how to restore a
//! backup: an SQLite file with a damaged index page, a PostgreSQL database missing a table
//! and a column.

use crate::serve;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;

use serve::pg::{Database, execute};
use serve::{Server, TIMEOUT, scratch};

/// `quentin serve` on `data`, which must exit of itself (within the tests' limit): its output.
fn refused_start(data: &Path) -> Output {
    refused_start_with(data, &[])
}

/// [`refused_start`] with the options `extra`.
fn refused_start_with(data: &Path, extra: &[&str]) -> Output {
    let child = crate::isolated::quentin()
        .args(["serve", "--listen", "127.0.0.1:0", "--data"])
        .arg(data)
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(TIMEOUT) {
        Ok(output) => output.unwrap(),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            panic!(
                "quentin serve on {} did not refuse to start",
                data.display()
            );
        }
    }
}

#[test]
fn a_second_server_on_one_data_directory_is_refused_and_the_first_plays_on() {
    let dir = scratch("store-lock");
    let server = Server::start(&dir, &[]);
    let mut alice = server.registered(&dir, "alice");
    let out = refused_start(&server.data);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{out:?}");
    assert!(
        said.contains("another quentin serve is using the data directory"),
        "{said}"
    );
    assert_eq!(alice.ask("whoami"), "= alice");
    let mut bob = server.registered(&dir, "bob");
    let id = alice.ok("challenge quentin size 5 first me");
    assert!(bob.ok(&format!("accept {id}")).starts_with(&id));
    assert_eq!(alice.ask(&format!("play {id} c3")), "=");
    assert_eq!(bob.ask(&format!("wait {id}")), "= turn c3");
}

#[test]
fn damaged_games_are_named_and_kept_out_of_play_and_the_others_are_served() {
    let dir = scratch("store-damaged");
    let mut server = Server::start(&dir, &[]);
    let mut alice = server.registered(&dir, "alice");
    let mut bob = server.registered(&dir, "bob");
    let mut ids = Vec::new();
    for _ in 0..4 {
        let id = alice.ok("challenge quentin size 5 first me");
        bob.ok(&format!("accept {id}"));
        assert_eq!(alice.ask(&format!("play {id} c3")), "=");
        ids.push(id);
    }
    // The fourth ends, and its ending is written in words this version does not know.
    assert_eq!(bob.ask(&format!("play {} b2", ids[3])), "=");
    assert_eq!(alice.ask(&format!("resign {}", ids[3])), "=");
    drop((alice, bob));
    assert!(server.stop().success());
    let db = rusqlite::Connection::open(server.data.join("server.db")).unwrap();
    db.execute(
        "UPDATE moves SET action = 'zz99' WHERE game = ?1",
        [&ids[0]],
    )
    .unwrap();
    db.execute("UPDATE games SET size = 99 WHERE id = ?1", [&ids[1]])
        .unwrap();
    db.execute(
        "UPDATE games SET result = 'black', reason = 'checkmate' WHERE id = ?1 AND ended IS NOT NULL",
        [&ids[3]],
    )
    .unwrap();
    drop(db);

    let server = Server::start(&dir, &[]);
    let mut alice = server.bot(&dir.join("alice"));
    let mut bob = server.bot(&dir.join("bob"));
    // The host is told which games are damaged, and why.
    let mut said = Vec::new();
    for _ in 0..3 {
        said.push(
            server
                .stderr
                .recv_timeout(TIMEOUT)
                .expect("the damage is named"),
        );
    }
    said.sort();
    assert!(
        said[0].contains(&format!("game {} is damaged", ids[0])) && said[0].contains("zz99"),
        "{said:?}"
    );
    assert!(
        said[1].contains(&format!("game {} is damaged", ids[1])) && said[1].contains("size 99"),
        "{said:?}"
    );
    assert!(
        said[2].contains(&format!("game {} is damaged", ids[3]))
            && said[2].contains("the ending (black, checkmate) is not one this version knows"),
        "{said:?}"
    );
    // A player who asks for one is told it is out of play.
    for id in [&ids[0], &ids[1], &ids[3]] {
        let out_of_play = format!("? game {id} is damaged in the server's store and out of play");
        assert!(bob.ask(&format!("wait {id}")).starts_with(&out_of_play));
        assert!(bob.ask(&format!("play {id} b2")).starts_with(&out_of_play));
        assert!(alice.ask(&format!("record {id}")).starts_with(&out_of_play));
    }
    // The sound game plays on.
    let id = &ids[2];
    assert_eq!(bob.ask(&format!("wait {id}")), "= turn c3");
    assert_eq!(bob.ask(&format!("play {id} b2")), "=");
    assert_eq!(alice.ask(&format!("wait {id}")), "= turn b2");
    assert_eq!(alice.ask("whoami"), "= alice");
}

#[test]
fn a_file_that_is_not_the_store_is_refused_and_left_as_it_was() {
    let dir = scratch("store-not");
    for (what, bytes) in [
        ("empty", &b""[..]),
        (
            "text",
            &b"These are my notes, not a database.\n".repeat(50)[..],
        ),
    ] {
        let data = dir.join(what);
        std::fs::create_dir_all(&data).unwrap();
        let db = data.join("server.db");
        std::fs::write(&db, bytes).unwrap();
        let out = refused_start(&data);
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{what}: {out:?}");
        assert!(
            said.contains(&format!(
                "{} is {}not a quentin server's store",
                db.display(),
                if bytes.is_empty() {
                    "empty (0 bytes), "
                } else {
                    ""
                }
            )),
            "{what}: {said}"
        );
        assert_eq!(std::fs::read(&db).unwrap(), bytes, "{what}: left as it was");
    }
}

#[test]
fn a_store_with_a_damaged_index_page_is_refused_with_its_reason_and_a_backup_restored_serves() {
    let dir = scratch("store-malformed");
    let mut server = Server::start(&dir, &[]);
    for name in ["alice", "bob", "carol"] {
        drop(server.registered(&dir, name));
    }
    assert!(server.stop().success());
    let db = server.data.join("server.db");
    // A clean stop leaves the whole store in the file (no write-ahead log beside it).
    assert!(!server.data.join("server.db-wal").exists());
    let backup = dir.join("backup.db");
    std::fs::copy(&db, &backup).unwrap();
    // Garbage over the first page of an index of the players (their names or keys), found by
    // its root page and the page size.
    let (index, page, size): (String, i64, i64) = {
        let conn = rusqlite::Connection::open(&db).unwrap();
        let (index, page) = conn
            .query_row(
                "SELECT name, rootpage FROM sqlite_master
                 WHERE type = 'index' AND tbl_name = 'players' ORDER BY name LIMIT 1",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        let size = conn
            .query_row("PRAGMA page_size", [], |r| r.get(0))
            .unwrap();
        (index, page, size)
    };
    let mut bytes = std::fs::read(&db).unwrap();
    let at = usize::try_from((page - 1) * size).unwrap();
    let size = usize::try_from(size).unwrap();
    for (i, byte) in bytes[at..at + size].iter_mut().enumerate() {
        *byte = [0xde, 0xad, 0xbe, 0xef][i % 4];
    }
    std::fs::write(&db, &bytes).unwrap();

    let out = refused_start(&server.data);
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains(&format!(
            "the store {} (schema version {}) is damaged",
            db.display(),
            quentin::server::store::VERSION
        )),
        "{said}"
    );
    // SQLite's words name the index, or its page.
    assert!(
        said.contains(&format!("index {index}")) || said.contains(&format!("Page {page}")),
        "SQLite's words: {said}"
    );
    assert!(said.contains("Restore the latest backup"), "{said}");
    assert_eq!(std::fs::read(&db).unwrap(), bytes, "left as it was");

    // As the message says: the damaged file moved away, the backup copied into place.
    std::fs::rename(&db, dir.join("damaged.db")).unwrap();
    std::fs::copy(&backup, &db).unwrap();
    let server = Server::start(&dir, &[]);
    let mut bob = server.bot(&dir.join("bob"));
    assert_eq!(bob.ask("whoami"), "= bob");
    let mut dave = server.registered(&dir, "dave");
    assert_eq!(dave.ask("whoami"), "= dave");
}

#[test]
fn a_database_missing_a_table_or_a_column_is_refused_with_what_it_misses() {
    let Some(db) = Database::new("schema-check") else {
        return;
    };
    let dir = scratch("store-schema");
    let mut server = Server::start(&dir, &["--database", &db.url]);
    drop(server.registered(&dir, "alice"));
    assert!(server.stop().success());
    execute(
        &db.url,
        "ALTER TABLE moves DROP COLUMN at; DROP TABLE presence",
    );
    let out = refused_start_with(&server.data, &["--database", &db.url]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("is not a whole quentin store"), "{said}");
    assert!(said.contains("table moves has no column at"), "{said}");
    assert!(said.contains("no table presence"), "{said}");
    assert!(said.contains("pg_restore"), "{said}");
}
