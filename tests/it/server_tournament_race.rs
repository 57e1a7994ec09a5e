//! A tournament's start on two processes sharing a PostgreSQL database, made deterministic by
//! the test hook `notes stop` (a process that reads nothing the others say until `notes
//! read`): the start reads the entrants the database holds, in the transaction that writes the
//! first round, so a join or a leave answered on the other process, whose news has not come
//! to the starting one, counts; and a join answered on a process that has not heard of the
//! start is refused, never `=` and then left out.

use std::collections::BTreeSet;

use serve::{Bot, Server, scratch};

use crate::pty::wait_until;
use crate::serve;
use crate::server_tournaments::{ok_once_heard, view};

/// The names of the entrants `tournament ID` lists, and of the players of its round 1.
fn entrants_and_round_1(bot: &mut Bot, id: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let v = view(bot, id);
    let entrants = v.players.iter().map(|p| p[1].clone()).collect();
    let round_1 = v
        .games
        .iter()
        .filter(|g| g[0] == "1")
        .flat_map(|g| [g[1].clone(), g[2].clone()])
        .filter(|name| name != "-")
        .collect();
    (entrants, round_1)
}

#[test]
fn a_start_pairs_the_entrants_the_database_holds_and_a_join_after_it_on_a_process_not_told_is_refused()
 {
    let Some(db) = serve::pg::Database::new("tournament_race") else {
        return;
    };
    let dir = scratch("server-tournament-race");
    let a = Server::start(&dir, &["--database", &db.url]);
    let b = Server::start(&dir, &["--database", &db.url]);
    // bot0 (the creator), bot1 and bot2 on the first process, the others on the second.
    let mut bots: Vec<Bot> = (0..3)
        .map(|i| a.registered(&dir, &format!("bot{i}")))
        .collect();
    bots.extend((3..7).map(|i| b.registered(&dir, &format!("bot{i}"))));
    let id = bots[0].ok(
        "tournament create swiss quentin size 5 pie off clock 2+0 casual rounds 3 start-in 600",
    );
    // bot5 joins on the second process, and the first hears of it; then the three join on the
    // first, and the second hears of them. (A process reads a tournament again when another
    // tells of a change, and puts what it read in its copy: a read begun before a join of its
    // own would leave that join out of its copy. Here no process reads while it joins.)
    let four = ["bot0", "bot1", "bot2", "bot5"].map(String::from);
    let listed = |bot: &mut Bot, names: &[String]| {
        let entrants = entrants_and_round_1(bot, &id).0;
        names.iter().all(|n| entrants.contains(n)).then_some(())
    };
    ok_once_heard(&mut bots[5], &format!("join {id}"));
    wait_until("bot5's join at the first process", || {
        listed(&mut bots[0], &four[3..])
    });
    for i in [0, 1, 2] {
        bots[i].ok(&format!("join {id}"));
    }
    wait_until("every join at the second process", || {
        listed(&mut bots[3], &four)
    });
    assert_eq!(
        entrants_and_round_1(&mut bots[0], &id).0,
        four.clone().into()
    );
    // From now on the first process hears nothing of the second: bot5 leaves, bot3 and bot4
    // join there, each answered `=`.
    bots[0].ok("notes stop");
    bots[5].ok(&format!("withdraw {id}"));
    for i in [3, 4] {
        bots[i].ok(&format!("join {id}"));
    }
    // The second stops hearing too, before the start on the first.
    bots[3].ok("notes stop");
    bots[0].ok(&format!("tournament start {id}"));
    let names = |list: &[&str]| list.iter().map(|n| n.to_string()).collect::<BTreeSet<_>>();
    let paired = names(&["bot0", "bot1", "bot2", "bot3", "bot4"]);
    assert_eq!(
        entrants_and_round_1(&mut bots[0], &id),
        (paired.clone(), paired.clone()),
        "the first round pairs the entrants the database holds"
    );
    // The second process has not heard of the start: its join goes to the database, which
    // holds the tournament started, and is refused.
    assert_eq!(
        bots[6].ask(&format!("join {id}")),
        format!("? tournament {id} is running: too late to join")
    );
    // Both read again: the second comes to the same tournament, without bot5.
    bots[0].ok("notes read");
    bots[3].ok("notes read");
    wait_until("the start at the second process", || {
        (entrants_and_round_1(&mut bots[3], &id) == (paired.clone(), paired.clone())).then_some(())
    });
    assert_eq!(view(&mut bots[3], &id), view(&mut bots[0], &id));
}
