//! Online play as players of lichess and online Go servers expect it, through the real `ssh`
//! client in pseudo-terminals and a real `quentin serve`: names from each side (`You win`,
//! `alice wins`), nothing stale offered (no swap to a watcher, none after the end), presence
//! (the opponent gone and back, the watchers counted), aborts and the low-time warning,
//! ratings shown with their provisional mark and the change a game made, and the lobby's form,
//! footer, scrolling and takebacks declined.

use crate::pty;
use crate::serve;
use crate::server_play::{login_with, newcomer};

use portable_pty::CommandBuilder;
use pty::Session;
use serve::{Server, key, scratch};

#[test]
fn a_game_names_its_players_from_each_side_counts_watchers_and_says_when_the_opponent_goes() {
    let dir = scratch("server-names");
    let server = Server::start(&dir, &[]);
    let kb = key(&dir, "bob");
    let mut bob = server.bot(&kb);
    assert_eq!(bob.ask("register bob"), "=");
    // Alice moves first (the acceptor), pie on: after her first stone White may swap.
    let id = bob.ok("challenge quentin size 5 first you casual");
    let mut alice = newcomer(&server, &dir, "alice");
    alice.wait_for(&format!("#{id} quentin 5x5"));
    alice.send("\r");
    let screen = alice.wait_for("Black to move: you");
    assert!(screen.contains("bob 1500?"), "{screen}");
    assert!(screen.contains("alice (you) 1500?"), "{screen}");
    alice.send("\r");
    assert_eq!(bob.ok(&format!("wait {id}")), "turn c3");
    // Her own move in her words; no swap offered to her: it is not her turn.
    let screen = alice.wait_for("You played c3.");
    assert!(screen.contains("White to move: bob"), "{screen}");
    assert!(!screen.contains("swaps"), "{screen}");

    // Carol watches: the lobby counts one action, her panel names the players, offers no
    // swap, and Alice's panel counts her.
    let mut carol = newcomer(&server, &dir, "carol");
    carol.wait_for(&format!("#{id} quentin alice vs bob, 1 action"));
    carol.send("\r");
    let screen = carol.wait_for("White to move: bob");
    assert!(screen.contains("watching"), "{screen}");
    assert!(!screen.contains("swaps"), "{screen}");
    alice.wait_for("1 watcher");

    // Bob's session goes: Alice is told, and his line says so; he comes back.
    assert!(bob.finish().success());
    let screen = alice.wait_for("bob left the game");
    assert!(screen.contains("bob (away)"), "{screen}");
    let mut bob = server.bot(&kb);
    assert_eq!(bob.ok("whoami"), "bob");
    alice.wait_for("bob is back.");

    // He plays, then resigns: each side reads the end its way, and nothing of the game is
    // offered.
    assert_eq!(bob.ask(&format!("play {id} a1")), "=");
    alice.wait_for("bob played a1.");
    assert_eq!(bob.ask(&format!("resign {id}")), "=");
    let screen = alice.wait_for("bob resigned: you win");
    assert!(!screen.contains("to move"), "{screen}");
    assert!(!screen.contains("swaps"), "{screen}");
    assert!(screen.contains("? help   q lobby"), "{screen}");
    carol.wait_for("bob resigned: alice wins");
    // The lobby lists the game from Alice's side.
    alice.send("q");
    alice.wait_for(&format!("#{id} quentin vs bob: bob resigned: you win"));
    carol.send("q");
    carol.wait_for("Recent results");
}

#[test]
fn a_first_move_not_made_in_time_aborts_the_game_and_a_rated_game_shows_the_rating_change() {
    let dir = scratch("server-abort");
    let server = Server::start(&dir, &[]);
    let mut bob = server.registered(&dir, "bob");
    let id = bob.ok("challenge quentin size 5 first you clock 1+0");
    let mut alice = newcomer(&server, &dir, "alice");
    alice.wait_for(&format!("#{id} quentin 5x5"));
    alice.send("\r");
    alice.wait_for("Black to move: you");
    // A first move has a timer of its own, a tenth of the minute here; her clock stands.
    alice.wait_for("First move in 0:0");
    // Her first move never comes: the game is aborted, not lost, and not rated.
    bob.ok("clock advance 7");
    alice.wait_for("Game aborted: you made no first move");
    assert_eq!(bob.ok(&format!("wait {id}")), "over aborted no-first-move");
    alice.send("q");
    let screen = alice.wait_for(&format!(
        "#{id} quentin vs bob: Game aborted: you made no first move"
    ));
    assert!(
        !screen.contains("RD"),
        "nobody is on the leaderboard: {screen}"
    );

    // A rated game that is played: a few seconds left of her minute, the clock says it is
    // low; its end shows the rating change.
    let id = bob.ok("challenge quentin size 5 first you clock 1+0");
    alice.wait_for(&format!("#{id} quentin 5x5"));
    alice.send("\r");
    alice.wait_for("Black to move: you");
    alice.send("\r");
    assert_eq!(bob.ok(&format!("wait {id}")), "turn c3");
    assert_eq!(bob.ask(&format!("play {id} a1")), "=");
    alice.wait_for("bob played a1.");
    // Two actions each: a rated game shorter would be aborted (docs/server.md, "Fair play").
    alice.send("k\r");
    assert_eq!(bob.ok(&format!("wait {id}")), "turn c4");
    assert_eq!(bob.ask(&format!("play {id} e1")), "=");
    alice.wait_for("bob played e1.");
    let games: serde_json::Value = serde_json::from_str(&bob.ok("games --json")).unwrap();
    let left = games[0]["their_time_ms"].as_i64().unwrap() / 1000;
    bob.ok(&format!("clock advance {}", left - 6));
    alice.wait_for("◀ low time!");
    assert_eq!(bob.ask(&format!("resign {id}")), "=");
    let screen = alice.wait_for("bob resigned: you win");
    let line = screen
        .lines()
        .find(|l| l.contains("Your rating: "))
        .unwrap_or_else(|| panic!("no rating change: {screen}"));
    assert!(line.contains("? (+"), "provisional, and up: {line}");
    alice.send("q");
    let screen = alice.wait_for(&format!("#{id} quentin vs bob: bob resigned: you win, +"));
    // A provisional rating is off the leaderboard (docs/server.md, "Fair play").
    let board = &screen[screen.find("Leaderboard").unwrap_or(0)..];
    assert!(!board.contains("alice"), "{screen}");
}

#[test]
fn a_challenge_to_a_wrong_name_keeps_the_form_and_the_lobby_fits_and_scrolls() {
    let dir = scratch("server-lobby-form");
    let server = Server::start(&dir, &[]);
    let mut bob = server.registered(&dir, "bob");
    let mut alice = newcomer(&server, &dir, "alice");
    // The footer fits 80 columns whole.
    alice.wait_for("? help  q quit");
    // Size 14, then a name that nobody has.
    alice.send("c");
    alice.wait_for("New challenge");
    alice.send("jljjjjjnobody\r");
    let screen = alice.wait_for("Refused: no player named nobody.");
    assert!(screen.contains("14×14"), "the form as it was: {screen}");
    assert!(screen.contains("> Opponent   nobody"), "{screen}");
    // Put right: the challenge is made with the same terms.
    alice.send("\x7f\x7f\x7f\x7f\x7f\x7fbob\r");
    alice.wait_for("Challenge #1 made: quentin 14x14");
    // The news goes with the next key.
    alice.send("j");
    pty::wait_gone(&alice, "Challenge #1 made");
    assert!(bob.ok("challenges").contains(" to bob"));

    // Ten challenges open to all in a window of 12 rows (the one to bob is not carol's to
    // see): the lobby scrolls to the one selected.
    for _ in 0..10 {
        bob.ok("challenge konobi size 9");
    }
    let mut command = CommandBuilder::new(serve::ssh_program());
    command.args(server.ssh_args(&key(&dir, "carol")));
    command.env("TERM", pty::TERM);
    let mut carol = Session::spawn(&dir, command, 12, 80);
    carol.wait_for("pick a name");
    carol.send("carol\r");
    let screen = carol.wait_for("> #2 konobi");
    assert!(
        !screen.contains("#1 quentin"),
        "a challenge to bob, listed to carol: {screen}"
    );
    carol.send("jjjjjjjjj");
    let screen = carol.wait_for("> #11 konobi");
    assert!(screen.contains("q quit"), "the footer stays: {screen}");
    assert!(!screen.contains("#2 konobi"), "scrolled: {screen}");
    carol.send("q");
    assert!(carol.wait_exit());
}

#[test]
fn a_takeback_asked_can_be_declined() {
    let dir = scratch("server-decline");
    let server = Server::start(&dir, &[]);
    let mut bob = newcomer(&server, &dir, "bob");
    let mut alice = server.registered(&dir, "alice");
    let id = alice.ok("challenge quentin size 5 pie off first you casual");
    drop(alice);
    let mut alice = login_with(&server, &dir, &dir.join("alice"), &[]);
    alice.wait_for("Open challenges");
    bob.wait_for(&format!("#{id} quentin"));
    bob.send("\r");
    bob.wait_for("Black to move: you");
    bob.send("\r");
    bob.wait_for("You played c3.");
    // Her challenge accepted, Alice's game opened by itself; she plays, then asks for her
    // move back; Bob says no.
    alice.wait_for("White to move: you");
    alice.send("h\r");
    alice.wait_for("You played b3.");
    alice.send("u");
    alice.wait_for("Takeback asked: 1 action (b3 by you); bob may");
    bob.wait_for("Takeback of 1 action: u agrees, d declines");
    bob.send("d");
    bob.wait_for("Takeback declined.");
    alice.wait_for("Your opponent declined the takeback.");
    let record = server.record(&dir.join("bob"), &id);
    assert!(record.ends_with("c3\nb3\n"), "{record}");
}

/// Bob (a bot) moves first in a casual Quentin 5×5 with the pie rule; Alice, in a terminal,
/// accepts and is offered the swap after his c3.
fn swap_offered(dir: &std::path::Path) -> (Server, serve::Bot, Session, String) {
    let server = Server::start(dir, &[]);
    let mut bob = server.registered(dir, "bob");
    let id = bob.ok("challenge quentin size 5 first me casual");
    let mut alice = newcomer(&server, dir, "alice");
    alice.wait_for(&format!("#{id} quentin 5x5"));
    alice.send("\r");
    alice.wait_for("Black to move: bob");
    assert_eq!(bob.ask(&format!("play {id} c3")), "=");
    alice.wait_for("s swaps colours (pie rule)");
    (server, bob, alice, id)
}

#[test]
fn the_swap_is_offered_to_the_player_who_may_swap_and_no_longer_once_the_game_is_over() {
    let dir = scratch("server-swap-stale");
    let (_server, mut bob, alice, id) = swap_offered(&dir);
    // Bob resigns after his first move, before Alice has moved: the casual game is aborted
    // (nobody wins a game they never moved in: issue 59, item 11), and the swap she was
    // offered goes with the game.
    assert_eq!(bob.ask(&format!("resign {id}")), "=");
    let screen = alice.wait_for("Game aborted by bob before both had moved");
    assert!(!screen.contains("swaps"), "{screen}");
    assert!(!screen.contains("to move"), "{screen}");
    assert!(screen.contains("1 action played"), "{screen}");
}

#[test]
fn a_swap_is_said_with_who_plays_which_colour_now() {
    let dir = scratch("server-swap-said");
    let (_server, mut bob, mut alice, id) = swap_offered(&dir);
    alice.send("s");
    alice.wait_for("You swapped colours: you now play Black.");
    assert_eq!(bob.ok(&format!("wait {id}")), "turn swap");
}
