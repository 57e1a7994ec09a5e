//! `quentin serve backup` while the server plays, and `quentin serve restore` with it stopped:
//! the restored store holds every move answered before the backup, the store it replaced is
//! kept, and what is not a sound store is refused with nothing moved.

use crate::serve;

use std::path::Path;
use std::process::Output;

use quentin::record::Record;
use serve::play::{Play, pair};
use serve::{Server, scratch};

/// `quentin serve ARGS` run to its end.
fn serve_command(args: &[&str], data: &Path) -> Output {
    crate::isolated::quentin()
        .arg("serve")
        .args(args)
        .arg("--data")
        .arg(data)
        .output()
        .unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn a_backup_taken_mid_game_restores_every_move_answered_before_it() {
    let dir = scratch("server-backup");
    let mut server = Server::start(&dir, &[]);
    let (mut bots, id) = pair(&server, &dir, ["alice", "bob"]);
    let mut play = Play::new(id.clone());
    play.moves(&mut bots, 12);
    let before_backup = Record::parse(&server.record(&dir.join("alice"), &id)).unwrap();
    assert_eq!(before_backup.actions().len(), 12);

    // Taken while the server runs and its players are connected.
    let backup = dir.join("backup.db");
    let out = serve_command(&["backup", "--to", backup.to_str().unwrap()], &server.data);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("(2 players, 1 games, 12 moves)"),
        "{}",
        text(&out)
    );
    // The game goes on after it; these moves are not in the backup.
    play.moves(&mut bots, 4);

    // A running server's store is not replaced under it.
    let refused = serve_command(
        &["restore", "--from", backup.to_str().unwrap()],
        &server.data,
    );
    assert!(!refused.status.success());
    assert!(
        text(&refused).contains("another quentin serve is using the data directory"),
        "{}",
        text(&refused)
    );

    drop(bots);
    assert!(server.stop().success());
    let out = serve_command(
        &["restore", "--from", backup.to_str().unwrap()],
        &server.data,
    );
    assert!(out.status.success(), "{}", text(&out));
    let said = text(&out);
    assert!(said.contains("(2 players, 1 games, 12 moves)"), "{said}");
    let kept = said
        .lines()
        .find_map(|l| l.strip_prefix("the store it replaced is kept as "))
        .unwrap_or_else(|| panic!("{said}"));
    assert!(Path::new(kept).is_file(), "{said}");

    // The server starts on the restored store: the game as the backup found it, playable.
    let server = Server::start(&dir, &[]);
    let restored = Record::parse(&server.record(&dir.join("alice"), &id)).unwrap();
    assert_eq!(restored.actions(), before_backup.actions());
    let mut alice = server.bot(&dir.join("alice"));
    assert!(alice.ok(&format!("wait {id}")).starts_with("turn"));
}

#[test]
fn what_is_not_a_sound_store_is_neither_backed_up_nor_restored() {
    let dir = scratch("server-backup-refused");
    let data = dir.join("data");
    // No store yet.
    let out = serve_command(&["backup", "--to", "/dev/null/x"], &data);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("there is no store at"),
        "{}",
        text(&out)
    );

    // A store to keep, then a file that is not a backup: refused, the store untouched.
    let mut server = Server::start(&dir, &[]);
    server.registered(&dir, "alice");
    assert!(server.stop().success());
    let store = data.join("server.db");
    let before = std::fs::read(&store).unwrap();
    let garbage = dir.join("garbage.db");
    std::fs::write(&garbage, b"not a database at all, just some words\n").unwrap();
    let out = serve_command(&["restore", "--from", garbage.to_str().unwrap()], &data);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("is not a backup of a quentin server's store"),
        "{}",
        text(&out)
    );
    assert_eq!(std::fs::read(&store).unwrap(), before);
    let names: Vec<String> = std::fs::read_dir(&data)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        !names
            .iter()
            .any(|n| n.contains("replaced") || n.contains("restoring")),
        "{names:?}"
    );
    let out = serve_command(&["restore", "--from", "/no/such/backup.db"], &data);
    assert!(
        text(&out).contains("there is no backup at"),
        "{}",
        text(&out)
    );
}
