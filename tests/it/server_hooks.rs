//! The test hooks belong to a test server alone (issue 59): a server started as people start
//! it answers their words as unknown commands, whoever sends them, and says nothing of hooks
//! at its start; a test server (`--test-hooks`) says so in its start lines and answers them.

use crate::serve::{Server, scratch};

#[test]
fn a_server_for_people_knows_no_test_hook_and_a_test_server_says_it_has_them() {
    let dir = scratch("hooks-people");
    let server = Server::start_for_people(&dir, &[]);
    let mut eve = server.registered(&dir, "eve");
    for (line, word) in [
        ("store fail", "store"),
        ("clock advance 3600", "clock"),
        ("hold 1", "hold"),
        ("notes stop", "notes"),
        ("panic", "panic"),
    ] {
        assert_eq!(eve.ask(line), format!("? unknown command {word}"), "{line}");
    }
    // The store still takes every write: a challenge is made and listed.
    let id = eve.ok("challenge quentin size 9");
    assert!(
        eve.ok("challenges").starts_with(&id),
        "the challenge {id} was not kept"
    );
    drop(eve);
    drop(server);

    // A test server says what it is in its log, and answers the hooks.
    let dir = scratch("hooks-tests");
    let server = Server::start(&dir, &[]);
    let warned = std::iter::from_fn(|| server.stderr.recv_timeout(crate::pty::TIMEOUT).ok())
        .find(|line| line.contains("--test-hooks"));
    let warned = warned.expect("the test server's log said nothing of its hooks");
    assert!(warned.contains("a server for tests only"), "{warned}");
    let mut ann = server.registered(&dir, "ann");
    assert_eq!(ann.ask("store heal"), "=");
    assert_eq!(ann.ask("store"), "? store fail|heal");
}
