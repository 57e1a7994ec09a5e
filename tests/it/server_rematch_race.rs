//! A rematch asked by both players at once, each through a process of their own on one
//! PostgreSQL database (issue 59, item 9): each of 20 runs answers both players with the same
//! new game, and the database holds one game more each time. Before, the two offers crossed,
//! each process took the other's for a plain offer, and nobody started the game (15 of 20).

use crate::serve::pg::{Database, query_i64};
use crate::serve::{Bot, Server, scratch};
use crate::server_cluster::wait_for_game;

/// A finished game `id` between `first` (who moves first) and `second`: a move each, then
/// `first` resigns; both processes have heard of the end.
fn play_out(first: &mut Bot, second: &mut Bot, id: &str) {
    wait_for_game(second, id);
    assert!(first.ok(&format!("wait {id}")).starts_with("turn"));
    assert_eq!(first.ask(&format!("play {id} c3")), "=");
    assert!(second.ok(&format!("wait {id}")).starts_with("turn"));
    assert_eq!(second.ask(&format!("play {id} b2")), "=");
    assert!(first.ok(&format!("wait {id}")).starts_with("turn"));
    assert_eq!(first.ask(&format!("resign {id}")), "=");
    assert!(second.ok(&format!("wait {id}")).starts_with("over"));
}

#[test]
fn a_rematch_asked_at_once_on_two_processes_starts_one_game_for_both() {
    let Some(db) = Database::new("rematch_race") else {
        return;
    };
    let dir = scratch("server-rematch-race");
    // Forty games in a minute between the same two: fair play's limits lifted, as for the
    // other tests that start game after game faster than a person would.
    let at_will = ["--database", &db.url, "--challenges-per-minute", "1000000"];
    let a = Server::start(&dir, &at_will);
    let b = Server::start(&dir, &at_will);
    let mut alice = a.registered(&dir, "alice");
    let mut bob = b.registered(&dir, "bob");
    let mut id = alice.ok("challenge quentin size 5 pie off first me casual");
    crate::server_cluster::wait_for_challenge(&mut bob, &id);
    bob.ok(&format!("accept {id}"));
    // Who moves first in the game under way: the rematch turns it round.
    let mut alice_first = true;
    for run in 0..20 {
        if alice_first {
            play_out(&mut alice, &mut bob, &id);
        } else {
            play_out(&mut bob, &mut alice, &id);
        }
        let games = query_i64(&db.url, "SELECT count(*) FROM games");
        alice.send(&format!("rematch {id}"));
        bob.send(&format!("rematch {id}"));
        let (to_alice, to_bob) = (alice.answer(), bob.answer());
        assert_eq!(to_alice, to_bob, "run {run}: both told the same");
        let next = to_alice
            .strip_prefix("= ")
            .unwrap_or_else(|| panic!("run {run}: {to_alice}"))
            .to_string();
        assert_ne!(next, id, "run {run}");
        assert_eq!(
            query_i64(&db.url, "SELECT count(*) FROM games"),
            games + 1,
            "run {run}: one game made"
        );
        id = next;
        alice_first = !alice_first;
    }
}
