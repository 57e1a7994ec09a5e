//! A private server (`--allow FILE`) and its message of the day (`--motd FILE`): a key not on
//! the list is told the server is private and gets nothing else, one on it plays; SIGHUP reads
//! both files again, and a bad line keeps the lists as they were.

use crate::serve;
use crate::server_play::login_with;

use std::path::Path;
use std::process::Command;

use serve::{Server, key, scratch};

/// The public key of the key at `path`, a line of an allow list.
fn public(path: &Path) -> String {
    std::fs::read_to_string(path.with_extension("pub")).unwrap()
}

/// Sends SIGHUP to the server and waits for its log to say what it did: the line.
fn hangup(server: &Server, what: &str) -> String {
    let status = Command::new("kill")
        .args(["-HUP", &server.pid().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
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

const PRIVATE: &str = "? this server is private: only the keys its host lists may log in";

#[test]
fn only_listed_keys_log_in_and_sighup_reads_the_lists_again() {
    let dir = scratch("server-private");
    let (alice, bob, carol) = (key(&dir, "alice"), key(&dir, "bob"), key(&dir, "carol"));
    let allow = dir.join("allow");
    std::fs::write(&allow, format!("# the club\n{}", public(&alice))).unwrap();
    let motd = dir.join("motd");
    std::fs::write(&motd, "Welcome to the club.\nQuentin night: Fridays.\n").unwrap();
    let server = Server::start(
        &dir,
        &[
            "--allow",
            allow.to_str().unwrap(),
            "--motd",
            motd.to_str().unwrap(),
        ],
    );
    let mut a = server.bot(&alice);
    a.ok("register alice");
    assert_eq!(
        a.ask("motd"),
        "= Welcome to the club.\nQuentin night: Fridays."
    );
    // Not on the list: told so, with its key, and nothing else.
    let mut b = server.bot(&bob);
    let refused = b.ask("register bob");
    assert!(refused.starts_with(PRIVATE), "{refused}");
    assert!(refused.contains("SHA256:"), "{refused}");
    assert!(b.try_ask("whoami").is_none(), "the session is closed");
    let screen = login_with(&server, &dir, &carol, &["-t"]);
    screen.wait_for("this server is private");

    // Bob's key and carol's name added; the message changed.
    std::fs::write(
        &allow,
        format!("# the club\n{}{}carol\n", public(&alice), public(&bob)),
    )
    .unwrap();
    std::fs::write(&motd, "Closed on Monday.\n").unwrap();
    let said = hangup(&server, "the lists read again");
    assert!(said.contains("3 keys or names may log in"), "{said}");
    let mut b = server.bot(&bob);
    b.ok("register bob");
    assert_eq!(b.ask("motd"), "= Closed on Monday.");
    // A name lets in the player who has it, not a new key that would take it.
    let mut c = server.bot(&carol);
    let refused = c.ask("register carol");
    assert!(refused.starts_with(PRIVATE), "{refused}");

    // A bad line: the lists stay as they were.
    std::fs::write(&allow, "alice\nnot a key or a name\n").unwrap();
    let said = hangup(&server, "the lists stay as they were");
    assert!(said.contains("allow line 2"), "{said}");
    let mut b = server.bot(&bob);
    assert_eq!(b.ask("whoami"), "= bob");
}

#[test]
fn the_lobby_shows_the_message_of_the_day() {
    let dir = scratch("server-motd");
    let motd = dir.join("motd");
    // A terminal's escape in the file reaches nobody.
    std::fs::write(&motd, "Welcome, \x1b[2Jplayers.\n\n").unwrap();
    let server = Server::start(&dir, &["--motd", motd.to_str().unwrap()]);
    let mut screen = login_with(&server, &dir, &key(&dir, "alice"), &[]);
    screen.wait_for("pick a name");
    screen.send("alice\r");
    let shown = screen.wait_for("Open challenges");
    assert!(shown.contains("Welcome, [2Jplayers."), "{shown}");
}

#[test]
fn a_bad_list_stops_the_start_naming_its_line() {
    let dir = scratch("server-allow-bad");
    let allow = dir.join("allow");
    std::fs::write(&allow, "alice\n\nssh-ed25519 AAAAnotakey\n").unwrap();
    let out = crate::isolated::quentin()
        .args(["serve", "--listen", "127.0.0.1:0", "--data"])
        .arg(dir.join("data"))
        .arg("--allow")
        .arg(&allow)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("allow line 3: not an OpenSSH public key"),
        "{said}"
    );
}
