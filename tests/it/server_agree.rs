//! What the two players of an online game agree on, as on lichess, through the real `ssh`
//! client and a real `quentin serve`: a takeback that takes back the asker's own move (and the
//! reply after it when asked on their own turn), an abort before both have moved, the first
//! move's own timer, a rematch with the first move the other way round, a finished game
//! stepped through, and a running game opened again at login. Each record is read from the
//! server (`record ID`) and from its store.

use std::path::Path;

use crate::pty;
use crate::serve;
use crate::server_play::{login_with, newcomer};

use serve::{Bot, Server, scratch};

/// The actions of game `id` in the server's SQLite store, in order.
fn stored_moves(server: &Server, id: &str) -> Vec<String> {
    let store = rusqlite::Connection::open(server.data.join("server.db")).unwrap();
    let mut query = store
        .prepare("SELECT action FROM moves WHERE game = ?1 ORDER BY idx")
        .unwrap();
    query
        .query_map([id.parse::<i64>().unwrap()], |row| row.get::<_, String>(0))
        .unwrap()
        .map(Result::unwrap)
        .collect()
}

/// The moves of a record's text (the lines after its headers and comments).
fn record_moves(record: &str) -> Vec<String> {
    record
        .lines()
        .filter(|l| !l.starts_with('#') && !l.contains(' ') && !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// Checks that game `id` holds `moves`, as the server answers `record ID` and in its store.
fn holds(server: &Server, dir: &Path, id: &str, moves: &[&str]) {
    let record = server.record(&dir.join("bob"), id);
    assert_eq!(record_moves(&record), moves, "{record}");
    assert_eq!(stored_moves(server, id), moves);
}

/// Alice in a terminal, Bob a bot: a casual Quentin 5×5 without the pie rule, Alice first
/// (Black), her game open.
fn casual_game(server: &Server, dir: &Path) -> (pty::Session, Bot, String) {
    let mut bob = server.registered(dir, "bob");
    let id = bob.ok("challenge quentin size 5 pie off first you casual");
    let mut alice = newcomer(server, dir, "alice");
    alice.wait_for(&format!("#{id} quentin 5x5"));
    alice.send("\r");
    alice.wait_for("Black to move: you");
    (alice, bob, id)
}

#[test]
fn a_takeback_takes_back_the_askers_move_and_the_reply_after_it_as_on_lichess() {
    let dir = scratch("server-takeback");
    let server = Server::start(&dir, &[]);
    let (mut alice, mut bob, id) = casual_game(&server, &dir);
    // Alice e5 (the cursor starts at c3), Bob c3, Alice e4, Bob c4.
    alice.send("llkk\r");
    alice.wait_for("You played e5.");
    assert_eq!(bob.ok(&format!("wait {id}")), "turn e5");
    assert_eq!(bob.ask(&format!("play {id} c3")), "=");
    alice.wait_for("bob played c3.");
    alice.send("j\r");
    alice.wait_for("You played e4.");
    assert_eq!(bob.ok(&format!("wait {id}")), "turn e4");
    assert_eq!(bob.ask(&format!("play {id} c4")), "=");
    alice.wait_for("bob played c4.");

    // On her own turn, Alice asks: her e4 and Bob's reply go, and the offer says so.
    alice.send("u");
    alice.wait_for("Takeback asked: 2 actions (e4 by you, c4 by");
    let games = bob.ok("games");
    assert!(games.contains(" takeback 2 "), "{games}");
    assert_eq!(bob.ok(&format!("wait {id}")), "takeback 2");
    assert_eq!(bob.ok(&format!("takeback {id} yes")), "taken 2");
    let screen = alice.wait_for("2 actions were taken back, as both players");
    assert!(screen.contains("Black to move: you"), "{screen}");
    holds(&server, &dir, &id, &["e5", "c3"]);

    // Just after her move, she asks again: that move alone goes, and it is her turn again.
    alice.send("\r");
    alice.wait_for("You played e4.");
    alice.send("u");
    alice.wait_for("Takeback asked: 1 action (e4 by you); bob may");
    assert_eq!(bob.ok(&format!("wait {id}")), "takeback 1");
    assert_eq!(bob.ok(&format!("takeback {id} yes")), "taken 1");
    alice.wait_for("1 action was taken back, as both players");
    holds(&server, &dir, &id, &["e5", "c3"]);

    // Bob asks through the protocol just after his move (`= asked 1`), and Alice agrees.
    alice.send("\r");
    alice.wait_for("You played e4.");
    assert_eq!(bob.ok(&format!("wait {id}")), "turn e4");
    assert_eq!(bob.ask(&format!("play {id} a1")), "=");
    alice.wait_for("bob played a1.");
    assert_eq!(bob.ok(&format!("takeback {id}")), "asked 1");
    alice.wait_for("bob asks to take back 1 action (a1 by bob):");
    alice.send("u");
    alice.wait_for("1 action was taken back, as both players");
    holds(&server, &dir, &id, &["e5", "c3", "e4"]);

    // On his own turn he asks for two (his c3 and her e4); she declines, and nothing changes.
    assert_eq!(bob.ok(&format!("takeback {id}")), "asked 2");
    alice.wait_for("bob asks to take back 2 actions (c3 by bob, e4");
    alice.send("d");
    alice.wait_for("Takeback declined.");
    assert_eq!(bob.ok(&format!("wait {id}")), "turn e4");
    assert_eq!(
        bob.ask(&format!("takeback {id} yes")),
        "? no takeback asked"
    );
    holds(&server, &dir, &id, &["e5", "c3", "e4"]);
    // After a restart the store gives the same game.
    drop(alice);
    drop(bob);
    let mut server = server;
    server.stop();
    let server = Server::start(&dir, &[]);
    holds(&server, &dir, &id, &["e5", "c3", "e4"]);
}

#[test]
fn a_player_who_has_moved_may_abort_until_both_have_moved_and_nothing_is_rated() {
    let dir = scratch("server-abort-asked");
    let server = Server::start(&dir, &[]);
    let mut bob = server.registered(&dir, "bob");
    // Rated, Alice first; she moves, Bob never does.
    let id = bob.ok("challenge quentin size 5 pie off first you");
    let mut alice = newcomer(&server, &dir, "alice");
    alice.wait_for(&format!("#{id} quentin 5x5"));
    alice.send("\r");
    alice.wait_for("Black to move: you");
    alice.wait_for("First move in 0:");
    alice.send("\r");
    alice.wait_for("You played c3.");
    let screen = alice.wait_for("First move in 0:");
    assert!(
        screen.contains("bob 1500? 10:00 ◀"),
        "his clock stands: {screen}"
    );
    alice.send("A");
    alice.wait_for("Game aborted by you before both had moved");
    assert_eq!(bob.ok(&format!("wait {id}")), "over aborted by-player");
    alice.send("q");
    let screen = alice.wait_for(&format!("#{id} quentin vs bob: Game aborted"));
    assert!(!screen.contains("RD"), "no rating moved: {screen}");
    assert!(bob.ok("games --json").contains("\"rated\":true"));

    // Once both have moved, neither may abort: the bot is told why.
    let id = bob.ok("challenge quentin size 5 pie off first me casual");
    alice.wait_for(&format!("#{id} quentin 5x5"));
    alice.send("\r");
    alice.wait_for("Black to move: bob");
    assert_eq!(bob.ask(&format!("play {id} c3")), "=");
    alice.wait_for("bob played c3.");
    alice.send("h\r");
    alice.wait_for("You played b3.");
    assert_eq!(
        bob.ask(&format!("abort {id}")),
        "? both players have moved: the game can no longer be aborted"
    );
    alice.send("A");
    alice.wait_for("Both players have moved: the game can no");
}

#[test]
fn a_first_move_not_made_within_its_own_timer_aborts_the_game() {
    let dir = scratch("server-first-move");
    let server = Server::start(&dir, &[]);
    let mut bob = server.registered(&dir, "bob");
    let mut carol = server.registered(&dir, "carol");
    // 10+5: thirty seconds for each first move, and the main clock does not run meanwhile.
    let id = bob.ok("challenge quentin size 5 first me");
    assert!(carol.ok(&format!("accept {id}")).starts_with(&id));
    bob.ok("clock advance 20");
    let games: serde_json::Value = serde_json::from_str(&bob.ok("games --json")).unwrap();
    assert_eq!(games[0]["my_time_ms"], 600_000, "{games}");
    assert_eq!(bob.ask(&format!("play {id} c3")), "=");
    // Carol's first move never comes: thirty seconds later the game is aborted.
    carol.ok("clock advance 29");
    assert_eq!(carol.ok(&format!("wait {id}")), "turn c3");
    carol.ok("clock advance 2");
    assert_eq!(bob.ok(&format!("wait {id}")), "over aborted no-first-move");
    assert_eq!(carol.ask(&format!("play {id} b3")), "? the game is over");
    // A correspondence game gives a day.
    let id = bob.ok("challenge quentin size 5 first me days 3");
    assert!(carol.ok(&format!("accept {id}")).starts_with(&id));
    bob.ok("clock advance 80000");
    assert_eq!(bob.ask(&format!("play {id} c3")), "=");
    carol.ok("clock advance 86401");
    assert_eq!(bob.ok(&format!("wait {id}")), "over aborted no-first-move");
}

#[test]
fn a_rematch_starts_when_both_ask_with_the_first_move_the_other_way_round() {
    let dir = scratch("server-rematch");
    let server = Server::start(&dir, &[]);
    let mut bob = server.registered(&dir, "bob");
    let id = bob.ok("challenge quentin size 5 pie off first me casual");
    let mut alice = newcomer(&server, &dir, "alice");
    alice.wait_for(&format!("#{id} quentin 5x5"));
    alice.send("\r");
    alice.wait_for("Black to move: bob");
    assert_eq!(bob.ask(&format!("play {id} c3")), "=");
    alice.wait_for("bob played c3.");
    alice.send("h\r");
    alice.wait_for("You played b3.");
    assert_eq!(bob.ask(&format!("resign {id}")), "=");
    let screen = alice.wait_for("bob resigned: you win");
    assert!(
        screen.contains("n rematch, Left looks the game over"),
        "{screen}"
    );

    // The game looked over: Left steps back, Home goes to the start; the server reviews it.
    alice.send("\x1b[D");
    alice.wait_for("Looking the game over");
    alice.wait_for("Showing action 1 of 2");
    alice.send("\x1b[H");
    alice.wait_for("Showing action 0 of 2");
    alice.send("v");
    alice.wait_for("Reviewing 2 positions");
    alice.wait_for("Review done:");

    // Bob offers through the protocol and waits; Alice accepts with one key.
    bob.send(&format!("rematch {id}"));
    alice.wait_for("bob offers a rematch: n accepts");
    alice.send("n");
    let next = bob.answer();
    let next = next.strip_prefix("= ").unwrap_or_else(|| panic!("{next}"));
    assert_ne!(next, id);
    // Alice now moves first, with Black, in the new game that opened on her screen.
    alice.wait_for("Black to move: you");
    let games = bob.ok("games");
    let line = games
        .lines()
        .find(|l| l.starts_with(&format!("{next} ")))
        .unwrap_or_else(|| panic!("{games}"));
    assert!(line.contains(" alice white waiting "), "{line}");
    alice.send("\r");
    assert_eq!(bob.ok(&format!("wait {next}")), "turn c3");

    // A rematch declined: the one who asked is told.
    assert_eq!(bob.ask(&format!("play {next} a1")), "=");
    assert_eq!(bob.ask(&format!("resign {next}")), "=");
    alice.wait_for("bob resigned: you win");
    bob.send(&format!("rematch {next}"));
    alice.wait_for("bob offers a rematch: n accepts");
    alice.send("d");
    alice.wait_for("Rematch declined.");
    assert_eq!(bob.answer(), "= declined");
}

#[test]
fn a_player_who_comes_back_lands_in_their_running_game() {
    let dir = scratch("server-reconnect");
    let server = Server::start(&dir, &[]);
    let (mut alice, mut bob, id) = casual_game(&server, &dir);
    alice.send("\r");
    alice.wait_for("You played c3.");
    // Her connection goes; she comes back: the game opens at once, the lobby one key away.
    drop(alice);
    assert_eq!(bob.ok(&format!("wait {id}")), "turn c3");
    assert_eq!(bob.ask(&format!("play {id} a1")), "=");
    let mut alice = login_with(&server, &dir, &dir.join("alice"), &[]);
    let screen = alice.wait_for("Black to move: you");
    assert!(screen.contains("bob"), "{screen}");
    alice.send("q");
    alice.wait_for("Open challenges");
}

#[test]
fn a_win_by_connection_says_who_joined_which_edges() {
    let dir = scratch("server-joined");
    let server = Server::start(&dir, &[]);
    let mut bob = server.registered(&dir, "bob");
    // Bob (Black, first) joins top and bottom along the c file; Alice watches as his opponent.
    let id = bob.ok("challenge quentin size 5 pie off first me casual");
    let mut alice = newcomer(&server, &dir, "alice");
    alice.wait_for(&format!("#{id} quentin 5x5"));
    alice.send("\r");
    alice.wait_for("Black to move: bob");
    // Her moves from a second session of her key, a bot's.
    let mut alice_bot = server.bot(&dir.join("alice"));
    let mut mine = ["a1", "a2", "a3", "a4"].into_iter();
    for point in ["c1", "c2", "c3", "c4", "c5"] {
        assert_eq!(bob.ask(&format!("play {id} {point}")), "=");
        if let Some(reply) = mine.next() {
            assert_eq!(alice_bot.ok(&format!("wait {id}")), format!("turn {point}"));
            assert_eq!(alice_bot.ask(&format!("play {id} {reply}")), "=");
        }
    }
    let screen = alice.wait_for("bob joined top and bottom: you lose");
    let banner = screen
        .lines()
        .find(|l| l.contains("you lose"))
        .unwrap_or_default();
    assert!(
        !banner.contains('★') && !banner.contains("**"),
        "no stars for the loser: {banner}"
    );
    assert_eq!(bob.ok(&format!("wait {id}")), "over B+ connection");
}

#[test]
fn ctrl_keys_in_the_name_prompt_type_nothing_and_a_bad_name_says_why() {
    let dir = scratch("server-name-keys");
    let server = Server::start(&dir, &[]);
    let mut dave = login_with(&server, &dir, &serve::key(&dir, "dave"), &[]);
    dave.wait_for("pick a name");
    // Ctrl-L and Ctrl-A, then the name: the name is dave, not ladave.
    dave.send("\x0c\x01dave\r");
    dave.wait_for("Open challenges");
    let mut bot = server.bot(&dir.join("dave"));
    assert_eq!(bot.ok("whoami"), "dave");
    let mut eve = server.bot(&serve::key(&dir, "eve"));
    assert_eq!(
        eve.ask("register e"),
        "? bad name: 2 to 20 letters, digits, - and _"
    );
}
