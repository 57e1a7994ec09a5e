//! The server's store through the real binary: one server per data directory, damaged games
//! named and kept out of play while the others are served, and a file that is not a store
//! refused.

use crate::serve;

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;

use serve::{Server, TIMEOUT, scratch};

/// `quentin serve` on `data`, which must exit of itself (within the tests' limit): its output.
fn refused_start(data: &Path) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_quentin"))
        .args(["serve", "--listen", "127.0.0.1:0", "--data"])
        .arg(data)
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
    for _ in 0..3 {
        let id = alice.ok("challenge quentin size 5 first me");
        bob.ok(&format!("accept {id}"));
        assert_eq!(alice.ask(&format!("play {id} c3")), "=");
        ids.push(id);
    }
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
    drop(db);

    let server = Server::start(&dir, &[]);
    let mut alice = server.bot(&dir.join("alice"));
    let mut bob = server.bot(&dir.join("bob"));
    // The host is told which games are damaged, and why.
    let mut said = Vec::new();
    for _ in 0..2 {
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
    // A player who asks for one is told it is out of play.
    for id in &ids[..2] {
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
