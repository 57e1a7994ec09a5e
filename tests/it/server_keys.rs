//! The keys, through the real binary and the real OpenSSH client: the server's host key is
//! made once, readable by its owner only, and prints the same fingerprint at every start with
//! the same data (the one `ssh-keygen -lf` gives, as docs/server.md says); a player's key is the
//! player, whatever user name the ssh command line gives.

use crate::serve;

use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Stdio};

use serve::{Server, key, scratch};

#[test]
fn the_host_key_is_its_owners_only_and_keeps_its_fingerprint_across_a_restart() {
    let dir = scratch("server-host-key");
    let mut server = Server::start(&dir, &[]);
    let path = server.data.join("host_ed25519");
    let mode = std::fs::metadata(&path).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    let first = server.fingerprint.clone();
    assert!(first.starts_with("SHA256:"), "{first}");
    // What the docs give to print it again.
    let listed = Command::new("ssh-keygen")
        .arg("-lf")
        .arg(&path)
        .output()
        .unwrap();
    assert!(listed.status.success(), "{listed:?}");
    let listed = String::from_utf8(listed.stdout).unwrap();
    assert!(listed.contains(&first), "{listed} / {first}");
    // The key a client is shown is that one.
    let scanned = Command::new("ssh-keyscan")
        .args(["-t", "ed25519", "-p", &server.port.to_string(), "127.0.0.1"])
        .stderr(Stdio::null())
        .output()
        .unwrap();
    let known = dir.join("known_hosts");
    std::fs::write(&known, &scanned.stdout).unwrap();
    let shown = Command::new("ssh-keygen")
        .arg("-lf")
        .arg(&known)
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&shown.stdout).contains(&first),
        "{scanned:?} {shown:?}"
    );
    assert!(server.stop().success());
    let again = Server::start(&dir, &[]);
    assert_eq!(again.fingerprint, first);
    let mode = std::fs::metadata(&path).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "{mode:o}");
}

#[test]
fn the_same_key_under_another_user_name_is_the_same_player() {
    let dir = scratch("server-user-name");
    let server = Server::start(&dir, &[]);
    let ka = key(&dir, "alice");
    let mut bot = server.bot(&ka);
    bot.ok("register alice");
    bot.finish();
    for user in ["other", "root", "alice2"] {
        let args: Vec<String> = server
            .ssh_args(&ka)
            .into_iter()
            .map(|a| a.replace("player@", &format!("{user}@")))
            .collect();
        assert!(args.iter().any(|a| a == &format!("{user}@127.0.0.1")));
        let mut child = Command::new(serve::ssh_program())
            .args(&args)
            .arg("bot")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(child.stdin.as_mut().unwrap(), b"whoami\nquit\n").unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{out:?}");
        assert_eq!(String::from_utf8(out.stdout).unwrap(), "= alice\n\n=\n\n");
    }
}
