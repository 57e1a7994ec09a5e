//! A tournament's games as a person at a terminal meets them (issue 59, item 1), through the
//! real OpenSSH client in a pseudo-terminal: a player left on the tournament screen is taken
//! to their game when the round is paired, with a bell; the game says its tournament and
//! round and offers no rematch; a player in another game is told, and goes to it with one key,
//! the first move's timer starting then; a forfeit for no first move is said as what it is,
//! a loss in the tournament only, never a hold from rated games.

use crate::pty::Session;
use crate::serve::{self, Bot, Server, scratch};
use crate::server_play::newcomer;
use crate::server_tournaments::view;

/// Makes a two-player round robin of Quentin 5×5 at 2+0 (twelve seconds for a first move) by
/// `creator`, who joins it: its number.
fn round_robin(creator: &mut Bot) -> String {
    let id = creator.ok("tournament create roundrobin quentin size 5 pie off clock 2+0 casual");
    creator.ok(&format!("join {id}"));
    id
}

/// The game line (`ROUND FIRST SECOND GAME-ID RESULT`) of tournament `id`'s first game, once
/// paired.
fn first_game(bot: &mut Bot, id: &str) -> Vec<String> {
    crate::pty::wait_until("the first round", || view(bot, id).games.first().cloned())
}

#[test]
fn a_player_left_on_the_tournament_screen_is_taken_to_the_game_and_plays_it() {
    let dir = scratch("server-tournament-tui");
    let server = Server::start(&dir, &[]);
    let mut alice = server.registered(&dir, "alice");
    let id = round_robin(&mut alice);
    let mut bob = newcomer(&server, &dir, "bob");
    bob.send("t");
    bob.wait_for(&format!("{id} roundrobin"));
    bob.send("\r");
    bob.wait_for(&format!("You joined tournament {id}."));
    // Its page: the terms, the start and a countdown, the standings in named columns.
    let screen = bob.wait_for("Rank Name");
    for text in [
        "Points",
        "Buchholz",
        "Sonneborn-Berger",
        "starts 20",
        " UTC, in 0:5",
    ] {
        assert!(screen.contains(text), "{text}: {screen}");
    }
    // Its help; the start is its creator's.
    bob.send("?");
    bob.wait_for("start it now (its creator");
    bob.send(" ");
    bob.wait_for("Rank Name");
    bob.send("s");
    bob.wait_for(&format!("tournament {id} is not yours"));
    let bells = bell_count(&bob);

    // The creator starts it: Bob, on the tournament screen, is taken to his game.
    alice.ok(&format!("tournament start {id}"));
    let screen = bob.wait_for("2+0, tournament t1, round 1");
    assert!(screen.contains("alice"), "{screen}");
    assert!(bell_count(&bob) > bells, "no bell");
    let game = first_game(&mut alice, &id);
    let gid = &game[3];
    if game[1] == "alice" {
        assert!(alice.ok(&format!("wait {gid}")).starts_with("turn"));
        alice.ok(&format!("play {gid} c3"));
        bob.wait_for("alice played c3.");
        bob.send("h\r");
    } else {
        bob.send("\r");
    }
    bob.wait_for("You played");
    assert!(alice.ok(&format!("wait {gid}")).starts_with("turn"));
    alice.ok(&format!("resign {gid}"));
    let screen = bob.wait_for("alice resigned: you win");
    assert!(!screen.contains("rematch"), "{screen}");
    bob.send("n");
    bob.wait_for("A tournament game has no rematch");
    assert_eq!(
        alice.ask(&format!("rematch {gid}")),
        "? a tournament game has no rematch: the tournament pairs its games"
    );
    // Back on the tournament screen he left: one he makes there has him in it.
    bob.send("q");
    bob.wait_for("Tournaments: Enter join");
    bob.send("n");
    bob.wait_for("New tournament");
    bob.send("roundrobin quentin size 5 clock 5+0\r");
    bob.wait_for("Tournament t2 made; you are in it (w leaves).");
    let screen = bob.wait_for("Rank Name");
    assert!(screen.contains("   1 bob"), "{screen}");
}

#[test]
fn a_player_in_another_game_is_told_and_the_first_move_is_timed_from_when_it_is_shown() {
    let dir = scratch("server-tournament-told");
    let server = Server::start(&dir, &[]);
    let mut alice = server.registered(&dir, "alice");
    let mut carol = server.registered(&dir, "carol");
    let mut bob = server.registered(&dir, "bob");
    let id = round_robin(&mut alice);
    bob.ok(&format!("join {id}"));
    // Bob, at his terminal, plays a casual game with Carol.
    let casual = carol.ok("challenge quentin size 5 first me clock 10+5 casual to bob");
    assert!(bob.ok(&format!("accept {casual}")).starts_with(&casual));
    assert!(bob.finish().success());
    let mut command = portable_pty::CommandBuilder::new(serve::ssh_program());
    command.args(server.ssh_args(&dir.join("bob")));
    command.env("TERM", crate::pty::TERM);
    let mut bob = Session::spawn(&dir, command, 30, 120);
    bob.wait_for("10+5");

    alice.ok(&format!("tournament start {id}"));
    let game = first_game(&mut alice, &id);
    let gid = &game[3];
    let screen = bob.wait_for("o opens it");
    assert!(
        screen.contains(&format!("Tournament {id} game #{gid}")),
        "{screen}"
    );
    if game[1] == "alice" {
        assert!(alice.ok(&format!("wait {gid}")).starts_with("turn"));
        alice.ok(&format!("play {gid} c3"));
    }
    // Eight seconds of the twelve pass before he goes to it; eight more once it is shown: his
    // timer started when he saw the game.
    alice.ok("clock advance 8");
    bob.send("o");
    let screen = bob.wait_for("2+0, tournament t1, round 1");
    assert!(screen.contains("First move in"), "{screen}");
    alice.ok("clock advance 8");
    bob.send(if game[1] == "alice" { "h\r" } else { "\r" });
    bob.wait_for("You played");
    let v = view(&mut alice, &id);
    assert_eq!(v.games[0][4], "*", "{v:?}");
}

#[test]
fn a_forfeit_for_no_first_move_is_a_tournament_loss_and_no_hold() {
    let dir = scratch("server-tournament-forfeit");
    let server = Server::start(&dir, &[]);
    let mut idle = server.registered(&dir, "idle");
    // Three tournaments, each a game Idle never moves in: three forfeits in a day, which
    // outside a tournament hold a player from rated games.
    for n in 0..3 {
        let mut creator = server.registered(&dir, &format!("maker{n}"));
        let id = round_robin(&mut creator);
        idle.ok(&format!("join {id}"));
        creator.ok(&format!("tournament start {id}"));
        let game = first_game(&mut creator, &id);
        let gid = &game[3];
        if game[1] != "idle" {
            assert!(creator.ok(&format!("wait {gid}")).starts_with("turn"));
            creator.ok(&format!("play {gid} c3"));
        }
        creator.ok("clock advance 13");
        assert_eq!(
            creator.ok(&format!("wait {gid}")),
            "over aborted no-first-move"
        );
        let record = idle.ok(&format!("record {gid}"));
        assert!(
            record.contains(&format!(
                "idle made no first move: maker{n} wins by forfeit (tournament {id}, round 1)"
            )),
            "{record}"
        );
        let v = crate::pty::wait_until("the result", || {
            let v = view(&mut creator, &id);
            (v.games[0][4] != "*").then_some(v)
        });
        let winner = if game[1] == "idle" { "0-1" } else { "1-0" };
        assert_eq!(v.games[0][4], winner, "{v:?}");
    }
    // Not held: a rated challenge is made.
    assert!(idle.ok("challenge quentin size 5").parse::<u64>().is_ok());
}

/// How many bells the session's output holds so far.
fn bell_count(session: &Session) -> usize {
    let raw = session.wait_output("");
    raw.iter().filter(|b| **b == 0x07).count()
}
