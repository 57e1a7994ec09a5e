//! What may happen to a tournament besides its games, through the real OpenSSH client and a
//! real `quentin serve` (issue 51): its creator cancels it before the start, an operator at any
//! time (its game under way aborted, the act in the audit log), and one with too few players
//! at its start is cancelled; each entrant finds a message, at once or at their next login;
//! `quentin serve admin` prints its table as the bot protocol does, the server running or not,
//! and cancels one; a player withdrawn keeps their game under way until its clock runs out, or
//! forfeits it at once; a Swiss by correspondence starts a round at its set time.

use std::path::Path;

use crate::serve::{self, Bot, Server, TIMEOUT, scratch};
use crate::server_play::{login, newcomer};
use crate::server_tournaments::{entrants, ok_once_heard, play_game, start, view};

/// `quentin serve admin [--data DIR | --database URL] WORDS...`: its standard output, or its
/// error.
pub(crate) fn admin(store: &[&str], words: &[&str]) -> Result<String, String> {
    let out = crate::isolated::quentin()
        .args(["serve", "admin"])
        .args(store)
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

/// Asks `bot` `line` until the answer satisfies `done`; the answer.
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

/// A server whose operators' file names `root`.
fn served_with_root(dir: &Path, extra: &[&str]) -> Server {
    let list = dir.join("operators");
    std::fs::write(&list, "root\n").unwrap();
    let mut args = vec!["--operators", list.to_str().unwrap()];
    args.extend_from_slice(extra);
    Server::start(dir, &args)
}

#[test]
fn a_tournament_is_cancelled_by_its_creator_or_an_operator_or_for_too_few_and_each_entrant_is_told()
{
    let dir = scratch("server-tournament-cancel");
    let server = served_with_root(&dir, &[]);
    let mut root = server.registered(&dir, "root");
    let (mut bots, _, id) = entrants(
        &server,
        &dir,
        3,
        "swiss quentin size 5 pie off clock 5+0 casual rounds 2 start-in 600",
    );
    assert_eq!(
        bots[1].ask(&format!("tournament cancel {id}")),
        format!("? tournament {id} is not yours to cancel")
    );
    assert!(
        bots[1]
            .ask("tournament cancel 5")
            .starts_with("? bad tournament number 5")
    );
    // bot2 goes away: it finds its message at its next login.
    drop(bots.pop());
    assert_eq!(
        bots[0].ask(&format!("tournament cancel {id}")),
        "= cancelled"
    );
    assert_eq!(view(&mut bots[0], &id).status[3], "cancelled");
    let told = format!("tournament {id} is cancelled by its creator bot0");
    assert_eq!(bots[0].ok("messages"), told);
    assert_eq!(bots[1].ok("messages"), told);
    assert_eq!(bots[1].ask("messages"), "=");
    let mut bot2 = server.bot(&dir.join("bot2"));
    assert_eq!(bot2.ok("messages"), told);
    assert_eq!(
        bots[0].ask(&format!("tournament cancel {id}")),
        format!("? tournament {id} is cancelled")
    );
    bots.push(bot2);

    // Running, with a game under way: its creator may no longer, an operator may.
    let id = bots[1].ok("tournament create roundrobin quentin size 5 pie off clock 5+0 casual");
    for bot in &mut bots {
        assert_eq!(bot.ask(&format!("join {id}")), "=");
    }
    assert_eq!(bots[1].ask(&format!("tournament start {id}")), "=");
    let v = view(&mut bots[1], &id);
    let game = v.games[0].clone();
    assert_eq!(game[4], "*", "{v:?}");
    assert_eq!(
        bots[1].ask(&format!("tournament cancel {id}")),
        format!("? tournament {id} is running: only an operator may cancel it now")
    );
    assert_eq!(root.ask(&format!("tournament cancel {id}")), "= cancelled");
    assert_eq!(view(&mut bots[1], &id).status[3], "cancelled");
    let first: usize = game[1].trim_start_matches("bot").parse().unwrap();
    assert!(
        bots[first]
            .ok(&format!("wait {}", game[3]))
            .starts_with("over aborted"),
        "the game of a cancelled tournament is aborted"
    );
    for bot in &mut bots {
        assert_eq!(
            bot.ok("messages"),
            format!("tournament {id} is cancelled by an operator")
        );
    }
    assert!(
        root.ok("log")
            .ends_with(&format!(" root cancel tournament {id}"))
    );
    assert!(!bots[0].ok("tournaments").contains(&id));

    // Too few by its start: cancelled, and its one entrant told why.
    let id = bots[2].ok("tournament create roundrobin quentin clock 1+0 start-in 1");
    assert_eq!(bots[0].ask(&format!("join {id}")), "=");
    bots[0].ok("clock advance 120");
    assert_eq!(view(&mut bots[0], &id).status[3], "cancelled");
    assert_eq!(
        bots[0].ok("messages"),
        format!("tournament {id} is cancelled: 1 joined, 2 needed to start")
    );
    // Bad words for the new options.
    assert_eq!(
        bots[0].ask(&format!("withdraw {id} later")),
        "? withdraw ID [now]: later is not now"
    );
    assert_eq!(
        bots[0].ask("messages please"),
        "? messages takes no words after it"
    );
}

/// A round robin of three, started, its first game played out: the bots, their names and
/// the tournament's number.
fn three_played(server: &Server, dir: &Path) -> (Vec<Bot>, Vec<String>, String) {
    let (mut bots, names, id) = entrants(
        server,
        dir,
        3,
        "roundrobin quentin size 5 pie off clock 5+0 casual start-in 600",
    );
    assert_eq!(bots[0].ask(&format!("tournament start {id}")), "=");
    let first = view(&mut bots[0], &id).games[0].clone();
    play_game(&mut bots, &names, &first);
    until(&mut bots[0], &format!("tournament {id}"), |a| {
        a.lines().filter(|l| l.starts_with("game 2 ")).count() == 1
    });
    (bots, names, id)
}

#[test]
fn serve_admin_prints_a_tournament_s_table_as_the_bot_does_running_or_stopped_and_cancels_it() {
    let dir = scratch("server-tournament-admin");
    let mut server = Server::start(&dir, &[]);
    let data = ["--data", server.data.to_str().unwrap()].map(str::to_string);
    let data: Vec<&str> = data.iter().map(String::as_str).collect();
    let (mut bots, _, id) = three_played(&server, &dir);
    let table = bots[0].ok(&format!("tournament {id}"));
    let list = bots[0].ok("tournaments");
    assert!(table.contains(" 1-0") || table.contains(" 0-1"), "{table}");
    assert_eq!(admin(&data, &["tournament", &id]), Ok(table.clone()));
    assert_eq!(admin(&data, &["tournaments"]), Ok(list.clone()));
    assert!(
        admin(&data, &["tournament", "t99"])
            .unwrap_err()
            .contains("no tournament t99")
    );
    assert!(
        admin(&data, &["tournament", "9"])
            .unwrap_err()
            .contains("bad tournament number 9")
    );
    drop(bots);
    server.stop();
    // Stopped: the same table from the file, and an operator's cancel kept for the start.
    assert_eq!(admin(&data, &["tournament", &id]), Ok(table.clone()));
    assert_eq!(admin(&data, &["tournaments"]), Ok(list));
    assert_eq!(
        admin(&data, &["tournament", "cancel", &id]),
        // `serve admin` says what it did (issue 59).
        Ok(format!("cancelled tournament {id}"))
    );
    assert!(
        admin(&data, &["log"])
            .unwrap()
            .ends_with(&format!(" host cancel tournament {id}"))
    );
    let server = Server::start(&dir, &[]);
    let mut bot1 = server.bot(&dir.join("bot1"));
    let v = view(&mut bot1, &id);
    assert_eq!(v.status[3], "cancelled");
    assert_eq!(
        bot1.ok("messages"),
        format!("tournament {id} is cancelled by an operator")
    );
    let running = v.games.iter().find(|g| g[0] == "2").unwrap();
    let seat = &running[1];
    let mut player = server.bot(&dir.join(seat));
    assert!(
        player
            .ok(&format!("wait {}", running[3]))
            .starts_with("over aborted")
    );
    assert!(
        admin(&data, &["tournament", "cancel", &id])
            .unwrap_err()
            .contains(&format!("tournament {id} is cancelled"))
    );
}

#[test]
fn serve_admin_prints_a_tournament_s_table_from_a_postgresql_database() {
    let Some(db) = serve::pg::Database::new("tournament_admin") else {
        return;
    };
    let dir = scratch("server-tournament-admin-pg");
    let server = Server::start(&dir, &["--database", &db.url]);
    let store = ["--database", db.url.as_str()];
    let (mut bots, _, id) = three_played(&server, &dir);
    let table = bots[0].ok(&format!("tournament {id}"));
    assert_eq!(admin(&store, &["tournament", &id]), Ok(table));
    assert_eq!(
        admin(&store, &["tournaments"]),
        Ok(bots[0].ok("tournaments"))
    );
    // An operator's cancel from the host reaches the running server within a second.
    assert_eq!(
        admin(&store, &["tournament", "cancel", &id]),
        // `serve admin` says what it did (issue 59).
        Ok(format!("cancelled tournament {id}"))
    );
    until(&mut bots[0], &format!("tournament {id}"), |a| {
        a.contains(" cancelled round ")
    });
    assert_eq!(
        bots[2].ok("messages"),
        format!("tournament {id} is cancelled by an operator")
    );
}

#[test]
fn a_player_withdrawn_keeps_the_game_under_way_until_the_clock_ends_it_or_forfeits_it_now() {
    let dir = scratch("server-tournament-withdraw");
    let server = Server::start(&dir, &[]);
    let (mut bots, names, id) = entrants(
        &server,
        &dir,
        4,
        "swiss quentin size 5 pie off clock 1+0 casual rounds 2 start-in 600",
    );
    assert_eq!(bots[0].ask(&format!("tournament start {id}")), "=");
    let seat = |name: &str| names.iter().position(|n| n == name).unwrap();
    let v = view(&mut bots[0], &id);
    assert_eq!(v.games.len(), 2, "{v:?}");
    let (kept, other) = (v.games[0].clone(), v.games[1].clone());
    let (first, second) = (seat(&kept[1]), seat(&kept[2]));
    // The first moves; the second withdraws, and the game goes on.
    let legal = start().legal_actions();
    bots[first].ok(&format!("play {} {}", kept[3], legal[legal.len() / 2]));
    assert_eq!(bots[second].ask(&format!("withdraw {id}")), "=");
    assert_eq!(view(&mut bots[0], &id).games[0][4], "*");
    assert!(
        bots[second]
            .ok(&format!("wait {}", kept[3]))
            .starts_with("turn")
    );
    play_game(&mut bots, &names, &other);
    // Its clock runs out: lost on time, and the next round pairs the three others.
    bots[0].ok("clock advance 90");
    let v = until(&mut bots[0], &format!("tournament {id}"), |a| {
        a.contains("\ngame 2 ")
    });
    assert!(
        v.contains(&format!("game 1 {} {} {} 1-0", kept[1], kept[2], kept[3])),
        "{v}"
    );
    let v = view(&mut bots[0], &id);
    let round2: Vec<&Vec<String>> = v.games.iter().filter(|g| g[0] == "2").collect();
    assert_eq!(round2.len(), 2, "a game and a bye: {v:?}");
    assert!(
        round2.iter().all(|g| g[1] != kept[2] && g[2] != kept[2]),
        "{v:?}"
    );
    // `withdraw ID now`: the game under way is forfeited at once.
    let game = round2.iter().find(|g| g[4] == "*").unwrap();
    let quitter = seat(&game[1]);
    bots[quitter].ok(&format!("play {} {}", game[3], legal[legal.len() / 2]));
    assert_eq!(bots[quitter].ask(&format!("withdraw {id} now")), "=");
    assert!(
        bots[seat(&game[2])]
            .ok(&format!("wait {}", game[3]))
            .starts_with("over"),
    );
    let v = view(&mut bots[0], &id);
    let line = v.games.iter().find(|g| g[3] == game[3]).unwrap();
    assert_eq!(line[4], "0-1", "{v:?}");
}

#[test]
fn a_swiss_by_correspondence_starts_a_round_at_its_set_time_beside_a_game_still_under_way() {
    let dir = scratch("server-tournament-round-days");
    let server = Server::start(&dir, &[]);
    let refused = server
        .registered(&dir, "ann")
        .ask("tournament create swiss quentin clock 5+0 rounds 2 round-days 2");
    assert!(
        refused.starts_with("? round-days is for a Swiss by correspondence"),
        "{refused}"
    );
    let (mut bots, names, id) = entrants(
        &server,
        &dir,
        4,
        "swiss quentin size 5 pie off clock 5d casual rounds 2 round-days 2 start-in 600",
    );
    assert_eq!(bots[0].ask(&format!("tournament start {id}")), "=");
    let seat = |name: &str| names.iter().position(|n| n == name).unwrap();
    let v = view(&mut bots[0], &id);
    let (slow, done) = (v.games[0].clone(), v.games[1].clone());
    play_game(&mut bots, &names, &done);
    // The slow game: a move each (a first move has a day), then the first player's turn.
    let mut position = start();
    for player in [seat(&slow[1]), seat(&slow[2])] {
        assert!(
            bots[player]
                .ok(&format!("wait {}", slow[3]))
                .starts_with("turn")
        );
        let legal = position.legal_actions();
        let action = legal[legal.len() / 2];
        bots[player].ok(&format!("play {} {action}", slow[3]));
        position.play(action).unwrap();
    }
    // A day on, the round before still goes on: no new round.
    bots[0].ok("clock advance 86400");
    assert_eq!(
        view(&mut bots[0], &id).status.join(" "),
        "swiss quentin 5 running round 1 of 2"
    );
    // Two days after the start: round 2 begins, the slow game still under way.
    bots[0].ok("clock advance 86400");
    let v = view(&mut bots[0], &id);
    assert_eq!(v.status.join(" "), "swiss quentin 5 running round 2 of 2");
    assert_eq!(v.games.iter().filter(|g| g[0] == "2").count(), 2, "{v:?}");
    let slow_now = v.games.iter().find(|g| g[3] == slow[3]).unwrap();
    assert_eq!(slow_now[4], "*");
}

#[test]
fn the_lobby_shows_a_cancelled_tournament_s_message_at_once_and_at_the_next_login() {
    let dir = scratch("server-tournament-lobby-message");
    let server = Server::start(&dir, &[]);
    let mut alice = newcomer(&server, &dir, "alice");
    let mut bob = server.registered(&dir, "bob");
    alice.send("t");
    alice.wait_for("No tournament yet");
    for away in [false, true] {
        let id = bob.ok("tournament create roundrobin quentin clock 1+0 start-in 600");
        alice.wait_for(&format!("> {id} roundrobin quentin 13 open 0/64 by bob"));
        alice.send("\r");
        alice.wait_for(&format!("You joined tournament {id}."));
        let cancel = format!("tournament cancel {id}");
        if away {
            drop(alice);
            assert_eq!(bob.ask(&cancel), "= cancelled");
            alice = login(&server, &dir, &dir.join("alice"));
        } else {
            assert_eq!(bob.ask(&cancel), "= cancelled");
        }
        alice.wait_for(&format!("tournament {id} is cancelled by its creator bob"));
        if away {
            // Shown once: the bot's `messages` finds none left.
            let mut bot = server.bot(&dir.join("alice"));
            assert_eq!(bot.ask("messages"), "=");
        }
    }
}

#[test]
fn an_operator_on_another_process_cancels_a_running_tournament_its_director_aborts_its_game() {
    let Some(db) = serve::pg::Database::new("tournament_cancel_cluster") else {
        return;
    };
    let dir = scratch("server-tournament-cancel-cluster");
    let a = served_with_root(&dir, &["--database", &db.url]);
    let b = served_with_root(&dir, &["--database", &db.url]);
    // The creator starts it on the first process, which directs it; root is on the second.
    let mut ann = a.registered(&dir, "ann");
    let mut bea = b.registered(&dir, "bea");
    let mut root = b.registered(&dir, "root");
    let id = ann.ok("tournament create roundrobin quentin size 5 pie off clock 5+0 casual");
    ok_once_heard(&mut ann, &format!("join {id}"));
    ok_once_heard(&mut bea, &format!("join {id}"));
    ok_once_heard(&mut ann, &format!("tournament start {id}"));
    let game = view(&mut ann, &id).games[0].clone();
    assert_eq!(game[4], "*");
    assert_eq!(root.ask(&format!("tournament cancel {id}")), "= cancelled");
    // Its director, the first process, aborts the game once it has cancelled the tournament.
    let over = until(&mut ann, &format!("wait {}", game[3]), |a| {
        a.starts_with("= over")
    });
    assert!(over.starts_with("= over aborted"), "{over}");
    assert_eq!(view(&mut bea, &id).status[3], "cancelled");
    for bot in [&mut ann, &mut bea] {
        assert_eq!(
            bot.ok("messages"),
            format!("tournament {id} is cancelled by an operator")
        );
    }
}
