//! Operators through the real server (issue 50): an operator (named by `--operators FILE`,
//! read again on SIGHUP, or by `quentin serve admin op NAME`) bans a player while she plays
//! (her session closed with the reason, her game lost on forfeit or aborted before the second
//! move, her next login refused with the reason), renames, aborts, closes, resets and marks;
//! a player who is not an operator is told so; the audit log lists each order; and `quentin
//! serve admin` says the same words against a stopped server's store and a running one's; and
//! the lobby has an operators' screen, for operators only.

use std::path::Path;
use std::process::Command;

use crate::serve;
use crate::serve::pg::Database;
use crate::server_play::newcomer;

use serve::{Bot, Server, TIMEOUT, key, scratch};

/// Quentin 5×5 moves that end nothing for a while, in turn from the first.
const MOVES: [&str; 6] = ["a1", "e5", "a3", "e3", "a5", "e1"];

/// A file `dir/operators` naming `names`, one a line.
fn operators(dir: &Path, names: &[&str]) -> std::path::PathBuf {
    let path = dir.join("operators");
    std::fs::write(&path, format!("# the moderators\n{}\n", names.join("\n"))).unwrap();
    path
}

/// A server whose operators' file names `root`, and root's bot session.
fn served_with_root(dir: &Path) -> (Server, Bot) {
    let list = operators(dir, &["root"]);
    let server = Server::start(dir, &["--operators", list.to_str().unwrap()]);
    let root = server.registered(dir, "root");
    (server, root)
}

/// `quentin serve admin --data DATA WORDS...`: its standard output, or its error.
fn admin(data: &Path, words: &[&str]) -> Result<String, String> {
    let out = crate::isolated::quentin()
        .args(["serve", "admin", "--data"])
        .arg(data)
        .args(words)
        .output()
        .unwrap();
    if out.status.success() {
        Ok(String::from_utf8(out.stdout)
            .unwrap()
            .trim_end()
            .to_string())
    } else {
        Err(String::from_utf8(out.stderr).unwrap())
    }
}

/// A Quentin 5×5 game of `a` (who moves first) and `b`, `moves` moves played: its number.
fn game(a: &mut Bot, b: &mut Bot, b_name: &str, moves: usize, rated: bool) -> String {
    let terms = if rated { "rated" } else { "casual" };
    let id = a.ok(&format!(
        "challenge quentin size 5 pie off first me {terms} to {b_name}"
    ));
    assert!(b.ok(&format!("accept {id}")).starts_with(&id));
    for (n, m) in MOVES.iter().take(moves).enumerate() {
        let who: &mut Bot = if n % 2 == 0 { &mut *a } else { &mut *b };
        assert_eq!(who.ask(&format!("play {id} {m}")), "=");
    }
    id
}

/// Asks `bot` `line` until the answer satisfies `done` (an order given elsewhere reaches
/// this process within a second); the answer.
fn until(bot: &mut Bot, line: &str, done: impl Fn(&str) -> bool) -> String {
    let started = std::time::Instant::now();
    loop {
        let answer = bot.ask(line);
        if done(&answer) {
            return answer;
        }
        assert!(started.elapsed() < TIMEOUT, "{line}: still {answer}");
        std::thread::yield_now();
    }
}

/// Logs in with `key` until `whoami` says `name` (an order given elsewhere reaches the
/// process within a second; a session's name is its login's, so each try logs in again).
fn logs_in_as(server: &Server, key: &Path, name: &str) {
    let started = std::time::Instant::now();
    while server.bot(key).ask("whoami") != format!("= {name}") {
        assert!(
            started.elapsed() < TIMEOUT,
            "{key:?} never logged in as {name}"
        );
    }
}

const BANNED: &str = "? you are banned from this server: rude words in the chat (until 2099-01-01)";

/// Root bans alice for [`BANNED`]'s reason while she is logged in: her session is closed with
/// the reason, and her game `played` with bob, past its second move, is lost on forfeit.
fn ban_alice(root: &mut Bot, alice: &mut Bot, bob: &mut Bot, played: &str) {
    assert_eq!(
        root.ask("ban alice until 2099-01-01 rude words in the chat"),
        "="
    );
    assert_eq!(alice.answer(), BANNED);
    assert!(alice.try_ask("whoami").is_none(), "her session is closed");
    assert_eq!(bob.ok(&format!("wait {played}")), "over W+ forfeit");
}

#[test]
fn an_operator_bans_alice_while_she_plays_and_she_is_refused_with_the_reason() {
    let dir = scratch("server-ban");
    let (server, mut root) = served_with_root(&dir);
    let mut alice = server.registered(&dir, "alice");
    let mut bob = server.registered(&dir, "bob");
    let mut carol = server.registered(&dir, "carol");
    // A game past its second move, one before it, and an open challenge of hers.
    let played = game(&mut alice, &mut bob, "bob", 4, true);
    let early = game(&mut carol, &mut alice, "alice", 1, false);
    let open = alice.ok("challenge brique size 9 casual");
    assert!(bob.ok("challenges").contains(&format!("{open} brique")));

    // Her session is closed, with the reason; her game past the second move is lost on
    // forfeit, the other aborted, unrated.
    ban_alice(&mut root, &mut alice, &mut bob, &played);
    let record = bob.ok(&format!("record {played}"));
    assert!(record.contains("# alice forfeits: bob wins"), "{record}");
    assert!(
        carol
            .ok(&format!("wait {early}"))
            .starts_with("over aborted"),
        "the early game is aborted"
    );
    // Her challenge is gone.
    assert!(!bob.ok("challenges").contains(&format!("{open} brique")));
    // Her next login: told why, and nothing else.
    let mut again = server.bot(&dir.join("alice"));
    assert_eq!(again.ask("whoami"), BANNED);
    assert!(again.try_ask("whoami").is_none());
    // The operator's list and the audit log say so.
    let players = root.ok("players alice");
    assert!(
        players.starts_with("alice key SHA256:") && players.contains(" banned until 2099-01-01"),
        "{players}"
    );
    assert!(players.contains("addresses 127.0.0.1"), "{players}");
    let log = root.ok("log");
    assert!(
        log.ends_with("root ban alice: rude words in the chat (until 2099-01-01)"),
        "{log}"
    );
    // Unbanned: she is back.
    assert_eq!(root.ask("unban alice"), "=");
    let mut back = server.bot(&dir.join("alice"));
    assert_eq!(back.ask("whoami"), "= alice");
    assert!(root.ok("log").ends_with("root unban alice"));
}

#[test]
fn a_player_who_is_not_an_operator_is_told_so() {
    let dir = scratch("server-not-operator");
    let server = Server::start(&dir, &[]);
    let mut bob = server.registered(&dir, "bob");
    for order in [
        "ban alice spam",
        "unban alice",
        "rename alice",
        "free alice",
        "close 1",
        "reset alice",
        "mark alice",
        "unmark alice",
        "players",
        "players alice",
        "log",
    ] {
        assert_eq!(bob.ask(order), "? not an operator", "{order}");
    }
    // `abort` stays a player's own: of a game not theirs, they are told it is not.
    assert_eq!(bob.ask("abort 1"), "? no such game");
}

#[test]
fn operators_rename_abort_close_reset_and_mark_and_the_log_lists_each() {
    let dir = scratch("server-moderate");
    let (server, mut root) = served_with_root(&dir);
    let mut bob = server.registered(&dir, "bob");
    let mut carol = server.registered(&dir, "carol");

    // rename: her name goes at once; she picks another at her next login.
    let mut rude = server.registered(&dir, "rude");
    let placeholder = root.ok("rename rude");
    assert!(placeholder.starts_with("renamed."), "{placeholder}");
    drop(rude);
    rude = server.bot(&dir.join("rude"));
    let told = rude.ask("challenges");
    assert!(told.starts_with("? an operator renamed you"), "{told}");
    assert_eq!(rude.ask("register bob"), "? name taken");
    // The name taken from them is held: not theirs again, in any case, nor anyone's.
    for name in ["rude", "RUDE"] {
        assert_eq!(
            rude.ask(&format!("register {name}")),
            "? an operator took that name from you: pick another (only an operator can free it)"
        );
    }
    assert_eq!(rude.ask("register polite"), "=");
    assert_eq!(rude.ask("whoami"), "= polite");
    let mut other = server.bot(&key(&dir, "dave"));
    assert_eq!(other.ask("register rude"), "? name taken");
    // Until an operator frees it.
    assert_eq!(
        root.ask("free dave"),
        "? the name dave is not held: only a name an operator took with rename is"
    );
    assert_eq!(root.ask("free rude"), "=");
    assert_eq!(other.ask("register rude"), "=");

    // abort: any game, unrated.
    let aborted = game(&mut bob, &mut carol, "carol", 4, true);
    assert_eq!(root.ask(&format!("abort {aborted}")), "=");
    assert_eq!(
        bob.ok(&format!("wait {aborted}")),
        "over aborted by-operator"
    );
    let record = bob.ok(&format!("record {aborted}"));
    assert!(
        record.contains("# Game aborted by the server's operators"),
        "{record}"
    );
    assert_eq!(root.ask(&format!("abort {aborted}")), "? the game is over");

    // close: any challenge.
    let open = bob.ok("challenge brique size 9 casual");
    assert_eq!(root.ask(&format!("close {open}")), "=");
    assert!(!carol.ok("challenges").contains(&format!("{open} brique")));
    assert_eq!(root.ask(&format!("close {open}")), "? no such challenge");

    // reset: a rated game moved bob's rating; reset, it is gone.
    let id = game(&mut carol, &mut bob, "bob", 4, true);
    carol.ok(&format!("resign {id}"));
    let rated = |name: &str| -> i64 {
        let db = rusqlite::Connection::open(server.data.join("server.db")).unwrap();
        db.query_row(
            "SELECT COUNT(*) FROM ratings r JOIN players p ON p.id = r.player WHERE p.name = ?1",
            [name],
            |r| r.get(0),
        )
        .unwrap()
    };
    assert_eq!(rated("bob"), 1);
    assert_eq!(root.ask("reset bob"), "=");
    assert_eq!(rated("bob"), 0);

    // mark: carol's games from now on are played unrated.
    assert_eq!(root.ask("mark carol"), "=");
    assert!(root.ok("players carol").contains(" marked "));
    let id = bob.ok("challenge quentin size 5 pie off first me rated to carol");
    carol.ok(&format!("accept {id}"));
    let record = carol.ok(&format!("record {id}"));
    assert!(
        record.lines().next().unwrap().ends_with(", casual"),
        "{record}"
    );
    assert_eq!(root.ask("unmark carol"), "=");
    assert_eq!(root.ask("unmark carol"), "? carol is not marked");

    // The audit log: who, what, whom, why, when; each order once.
    let log = root.ok("log");
    let whats: Vec<&str> = log
        .lines()
        .map(|l| l.split(' ').nth(3).unwrap_or_default())
        .collect();
    assert_eq!(
        whats,
        [
            "rename", "new-name", "free", "abort", "close", "reset", "mark", "unmark"
        ],
        "{log}"
    );
    assert!(
        log.contains(&format!("root abort game {aborted}\n")),
        "{log}"
    );
    assert!(log.contains("root rename rude: renamed."), "{log}");
    assert!(log.contains("polite new-name renamed."), "{log}");
}

#[test]
fn serve_admin_orders_the_same_words_against_a_stopped_store_and_a_running_one() {
    let dir = scratch("server-admin");
    let mut server = Server::start(&dir, &[]);
    let mut root = server.registered(&dir, "root");
    let mut alice = server.registered(&dir, "alice");
    let mut bob = server.registered(&dir, "bob");
    let early = game(&mut alice, &mut bob, "bob", 1, false);
    assert_eq!(root.ask("log"), "? not an operator");
    drop((root, alice, bob));
    server.stop();

    // Stopped: the store takes the orders.
    // Each says what it did.
    assert_eq!(
        admin(&server.data, &["op", "root"]),
        Ok("root is an operator".to_string())
    );
    assert_eq!(
        admin(&server.data, &["ban", "alice", "spam"]),
        Ok("banned alice: spam".to_string())
    );
    let refused = admin(&server.data, &["ban", "nobody", "spam"]).unwrap_err();
    assert!(refused.contains("no player named nobody"), "{refused}");
    let players = admin(&server.data, &["players"]).unwrap();
    assert!(players.contains("root key SHA256:"), "{players}");
    assert!(players.contains(" operator "), "{players}");
    assert!(players.contains("alice key SHA256:"), "{players}");
    let log = admin(&server.data, &["log"]).unwrap();
    assert!(log.contains(" host op root"), "{log}");
    assert!(log.ends_with(" host ban alice: spam"), "{log}");

    // Started again: the ban holds, her game is aborted, and root is an operator.
    let server = Server::start(&dir, &[]);
    let mut alice = server.bot(&dir.join("alice"));
    assert_eq!(
        alice.ask("whoami"),
        "? you are banned from this server: spam"
    );
    let mut bob = server.bot(&dir.join("bob"));
    assert!(bob.ok(&format!("wait {early}")).starts_with("over aborted"));
    let mut root = server.bot(&dir.join("root"));
    assert!(root.ok("log").ends_with(" host ban alice: spam"));

    // Running: an order of `quentin serve admin` reaches the server within a second.
    assert_eq!(
        admin(&server.data, &["unban", "alice"]),
        Ok("unbanned alice".to_string())
    );
    logs_in_as(&server, &dir.join("alice"), "alice");
    let open = bob.ok("challenge brique size 9 casual");
    assert_eq!(
        admin(&server.data, &["close", &open]),
        Ok(format!("closed challenge {open}"))
    );
    until(&mut bob, "challenges", |a| {
        !a.contains(&format!("{open} brique"))
    });
    assert!(
        admin(&server.data, &["log"])
            .unwrap()
            .ends_with(&format!(" host close challenge {open}"))
    );
}

#[test]
fn the_operators_file_is_read_again_on_sighup() {
    let dir = scratch("server-operators-hup");
    let list = operators(&dir, &[]);
    let server = Server::start(&dir, &["--operators", list.to_str().unwrap()]);
    let mut bob = server.registered(&dir, "bob");
    assert_eq!(bob.ask("log"), "? not an operator");
    // By key, as in authorized_keys.
    let public = std::fs::read_to_string(dir.join("bob.pub")).unwrap();
    std::fs::write(&list, public).unwrap();
    let status = Command::new("kill")
        .args(["-HUP", &server.pid().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    until(&mut bob, "log", |a| a == "=");
    assert_eq!(bob.ask("mark bob"), "=");
    assert!(bob.ok("log").ends_with("bob mark bob"));
}

#[test]
fn a_ban_or_a_rename_on_one_process_reaches_the_other_on_postgresql() {
    let Some(db) = Database::new("moderation_two_processes") else {
        return;
    };
    let dir = scratch("cluster-moderation");
    let list = operators(&dir, &["root"]);
    let options = ["--database", &db.url, "--operators", list.to_str().unwrap()];
    let here = Server::start(&dir, &options);
    let there = Server::start(&dir, &options);
    let mut alice = here.registered(&dir, "alice");
    let mut bob = here.registered(&dir, "bob");
    let mut carol = here.registered(&dir, "carol");
    let mut root = there.registered(&dir, "root");
    let played = game(&mut alice, &mut bob, "bob", 4, true);

    // Banned on the other process: her session here is closed with the reason.
    ban_alice(&mut root, &mut alice, &mut bob, &played);
    for server in [&here, &there] {
        assert_eq!(server.bot(&dir.join("alice")).ask("whoami"), BANNED);
    }

    // Renamed on the other process: she is asked for a new name here.
    assert!(root.ok("rename carol").starts_with("renamed."));
    let told = until(&mut carol, "challenges", |a| {
        a.starts_with("? an operator renamed")
    });
    assert!(told.contains("register NAME"), "{told}");
    assert_eq!(carol.ask("register caroline"), "=");
    // A session's name is its login's: each try logs in again.
    logs_in_as(&there, &dir.join("carol"), "caroline");

    let log = root.ok("log");
    let whats: Vec<&str> = log
        .lines()
        .map(|l| l.split(' ').nth(3).unwrap_or_default())
        .collect();
    assert_eq!(whats, ["ban", "rename", "new-name"], "{log}");
}

#[test]
fn the_lobby_has_an_operators_screen_for_operators_only() {
    let dir = scratch("server-operators-screen");
    let list = operators(&dir, &["root"]);
    let server = Server::start(&dir, &["--operators", list.to_str().unwrap()]);
    let mut alice = server.registered(&dir, "alice");
    let mut bob = newcomer(&server, &dir, "bob");
    bob.send("o");
    bob.wait_for("not an operator");
    let mut root = newcomer(&server, &dir, "root");
    root.send("o");
    root.wait_for("Operators: type an order");
    root.wait_for("alice key SHA256:");
    root.send("ban alice until 2099-01-01 rude words in the chat\r");
    root.wait_for("= ban alice until 2099-01-01 rude words in the chat");
    assert_eq!(alice.answer(), BANNED);
    root.wait_for("banned until 2099-01-01");
    root.send("log\r");
    root.wait_for("root ban alice: rude words in the chat (until 2099-01-01)");
    // A terminal's session is closed too, with the reason, its terminal given back.
    root.send("ban bob spam in the lobby\r");
    bob.wait_for("quentin: you are banned from this server: spam in the lobby.");
    root.send("\x1b");
    root.wait_for("Open challenges");
}
