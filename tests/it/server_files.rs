//! The files the server reads whole and the file a backup writes (issue 59, items 13, 14 and
//! 18): a list or a message of the day that is no regular file (`/dev/zero`, which never ends)
//! is refused at the start and on SIGHUP without the memory growing; a backup onto the live
//! store, a file beside it, a file a program has open or a FIFO is refused, the store left
//! whole.

use std::path::Path;
use std::process::{Command, Output};

use crate::serve;
use serve::{Server, scratch};

/// `quentin serve --listen 127.0.0.1:0 --data DIR ARGS` run to its end (it must end).
fn serve_with(dir: &Path, args: &[&str]) -> Output {
    crate::isolated::quentin()
        .args(["serve", "--listen", "127.0.0.1:0", "--data"])
        .arg(dir.join("data"))
        .args(args)
        .output()
        .unwrap()
}

/// The resident memory of process `pid`, in kB (`/proc/PID/status`'s `VmRSS`).
fn resident_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

#[test]
fn a_file_that_never_ends_is_refused_at_the_start_and_on_sighup_with_the_memory_flat() {
    let dir = scratch("server-files");
    // At the start, each option: refused, naming the file (read whole, it would never end).
    for option in ["--motd", "--allow", "--operators"] {
        let out = serve_with(&dir, &[option, "/dev/zero"]);
        assert!(!out.status.success(), "{option} /dev/zero started");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains("/dev/zero is not a regular file"),
            "{option}: {said}"
        );
    }
    // A file too long is refused before it is read.
    let long = dir.join("long");
    std::fs::write(&long, vec![b'a'; 4096]).unwrap();
    let said =
        String::from_utf8_lossy(&serve_with(&dir, &["--motd", long.to_str().unwrap()]).stderr)
            .into_owned();
    assert!(
        said.contains("is 4096 bytes: a message of the day has at most 2048"),
        "{said}"
    );

    // On SIGHUP: the message made a link to /dev/zero is refused, the old one kept.
    let motd = dir.join("motd");
    let ops = dir.join("operators");
    std::fs::write(&motd, "Welcome to the club.\n").unwrap();
    std::fs::write(&ops, "root\n").unwrap();
    let server = Server::start(
        &dir,
        &[
            "--motd",
            motd.to_str().unwrap(),
            "--operators",
            ops.to_str().unwrap(),
        ],
    );
    let mut bot = server.registered(&dir, "alice");
    assert_eq!(bot.ask("motd"), "= Welcome to the club.");
    let before = resident_kb(server.pid());
    for file in [&motd, &ops] {
        std::fs::remove_file(file).unwrap();
        std::os::unix::fs::symlink("/dev/zero", file).unwrap();
        Command::new("kill")
            .args(["-HUP", &server.pid().to_string()])
            .status()
            .unwrap();
        let line = wait_log(&server, "the lists stay as they were");
        assert!(line.contains("is not a regular file"), "{line}");
        std::fs::remove_file(file).unwrap();
        std::fs::write(
            file,
            if file == &motd {
                "Welcome to the club.\n"
            } else {
                "root\n"
            },
        )
        .unwrap();
    }
    let after = resident_kb(server.pid());
    assert!(
        after < before + 64 * 1024,
        "the memory grew from {before} kB to {after} kB"
    );
    assert_eq!(bot.ask("motd"), "= Welcome to the club.");
}

/// The server's log up to a line that holds `what`: that line.
fn wait_log(server: &Server, what: &str) -> String {
    loop {
        let line = server
            .stderr
            .recv_timeout(serve::TIMEOUT)
            .unwrap_or_else(|_| panic!("the log never said {what:?}"));
        if line.contains(what) {
            return line;
        }
    }
}

/// `quentin serve backup --to TO --data DATA`: whether it succeeded, and what it said.
fn backup(data: &Path, to: &Path) -> (bool, String) {
    let out = crate::isolated::quentin()
        .args(["serve", "backup", "--to"])
        .arg(to)
        .arg("--data")
        .arg(data)
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), said)
}

#[test]
fn a_backup_onto_the_live_store_a_file_held_open_or_a_fifo_is_refused() {
    let dir = scratch("server-backup-target");
    let server = Server::start(&dir, &[]);
    let mut alice = server.registered(&dir, "alice");
    let data = server.data.clone();
    let store = data.join("server.db");
    // The live store, by its name, through a link, and its journal: refused.
    let link = dir.join("link.db");
    std::os::unix::fs::symlink(&store, &link).unwrap();
    for to in [store.clone(), link, data.join("server.db-wal")] {
        let (ok, said) = backup(&data, &to);
        assert!(!ok, "{}: {said}", to.display());
        assert!(said.contains("the server's own file"), "{said}");
    }
    // The name of the store's journal, not there now: refused too.
    let (ok, said) = backup(&data, &data.join("server.db-journal"));
    assert!(!ok && said.contains("the store's own file"), "{said}");
    // A file a program has open (this test holds it): refused, the file untouched.
    let held = dir.join("held.log");
    std::fs::write(&held, "a log being written\n").unwrap();
    let open = std::fs::File::open(&held).unwrap();
    let (ok, said) = backup(&data, &held);
    assert!(!ok && said.contains("is open in process"), "{said}");
    assert_eq!(
        std::fs::read_to_string(&held).unwrap(),
        "a log being written\n"
    );
    drop(open);
    // A FIFO, a directory: not regular files.
    let fifo = dir.join("fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let whole: &Path = &dir;
    for to in [fifo.as_path(), whole] {
        let (ok, said) = backup(&data, to);
        assert!(!ok && said.contains("is not a regular file"), "{said}");
    }
    // The store still serves, and a new file takes the backup.
    assert_eq!(alice.ask("whoami"), "= alice");
    let (ok, said) = backup(&data, &dir.join("backup.db"));
    assert!(ok, "{said}");
    assert!(said.contains("1 players"), "{said}");
    // A regular file no program has open, replaced.
    let (ok, said) = backup(&data, &held);
    assert!(ok, "{said}");
}
