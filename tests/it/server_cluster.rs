//! Several `quentin serve` processes on one PostgreSQL database, each a real process reached
//! with the real `ssh`: bots on different processes play whole games of the four games while a
//! watcher on a third sees every move; the owner of a game is killed with SIGKILL five times
//! during play and the game goes on from another process with every answered move; a SQLite
//! store moves to the database with `quentin serve migrate`; a challenge made on one process
//! is accepted on another at once, and its game played at once on the first, 50 times (the
//! process that has not heard of it yet asks the database). Each test makes its own database
//! (`QUENTIN_TEST_DATABASE_URL`; skipped, saying so, without it) and drops it.

use std::path::Path;

use quentin::rules::{Game, Position, Setup};

use crate::pty;
use crate::serve::pg::{Database, query_i64};
use crate::serve::{Bot, Server, TIMEOUT, key, scratch};

/// `n` processes on `db`, sharing the data directory `dir/data` (the host key).
fn processes(dir: &Path, db: &Database, n: usize) -> Vec<Server> {
    (0..n)
        .map(|_| Server::start(dir, &["--database", &db.url]))
        .collect()
}

/// Asks `bot` `what` (`challenges`, `games`) until a line of number `id` is among the
/// answer's: the process it is on has heard of it.
fn wait_listed(bot: &mut Bot, what: &str, id: &str) {
    let started = std::time::Instant::now();
    loop {
        let answer = bot.ask(what);
        if answer
            .lines()
            .any(|l| l.trim_start_matches("= ").starts_with(&format!("{id} ")))
        {
            return;
        }
        assert!(
            started.elapsed() < TIMEOUT,
            "{what}: {id} never reached: {answer}"
        );
        std::thread::yield_now();
    }
}

/// Waits until challenge `id` is among `bot`'s open challenges.
pub fn wait_for_challenge(bot: &mut Bot, id: &str) {
    wait_listed(bot, "challenges", id);
}

/// Waits until game `id` is among `bot`'s games: its process has heard that it started.
pub fn wait_for_game(bot: &mut Bot, id: &str) {
    wait_listed(bot, "games", id);
}

/// A seeded choice among the legal actions: the games end, and differ.
fn choose(position: &Position, seed: &mut u64) -> quentin::rules::Action {
    let legal = position.legal_actions();
    *seed = seed
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    legal[usize::try_from(*seed >> 33).unwrap() % legal.len()]
}

/// The seat (0: the challenger, who moves first with the pie rule off) to move.
fn seat_to_move(position: &Position) -> Option<usize> {
    let color = position.to_move()?;
    Some(usize::from(color != position.game().first_color()))
}

/// The number of actions in a record's text.
fn moves_in(record: &str) -> usize {
    quentin::record::Record::parse(record)
        .unwrap_or_else(|e| panic!("{e}: {record}"))
        .actions()
        .len()
}

#[test]
fn three_processes_on_one_database_referee_every_game_while_a_third_watches() {
    let Some(db) = Database::new("three_processes") else {
        return;
    };
    let dir = scratch("cluster-three");
    let servers = processes(&dir, &db, 3);
    let mut bots = [
        servers[0].registered(&dir, "alice"),
        servers[1].registered(&dir, "bob"),
    ];
    // Carol watches from the third process, in a terminal.
    let mut command = portable_pty::CommandBuilder::new(crate::serve::ssh_program());
    command.args(servers[2].ssh_args(&key(&dir, "carol")));
    command.env("TERM", pty::TERM);
    let mut carol = pty::Session::spawn(&dir, command, 24, 80);
    carol.wait_for("pick a name");
    carol.send("carol\r");
    carol.wait_for("Open challenges");

    let games = [
        (Game::Quentin, 5),
        (Game::Konobi, 5),
        (Game::Brique, 6),
        (Game::Quint, 8),
    ];
    let mut seed = 7;
    for (game, size) in games {
        let id = bots[0].ok(&format!(
            "challenge {} size {size} pie off first me casual clock 30+0",
            game.name()
        ));
        wait_for_challenge(&mut bots[1], &id);
        bots[1].ok(&format!("accept {id}"));
        wait_for_game(&mut bots[0], &id);
        // Carol opens it from the lobby: the game being played is her list's first line
        // (she has no challenge and no game of her own), which k (up) reaches.
        let line = format!("#{id} {} alice vs bob", game.name());
        carol.wait_for(&line);
        carol.send("kkkkkkkk");
        carol.wait_for(&format!("> {line}"));
        carol.send("\r");
        carol.wait_for("watching");
        let mut position = Setup {
            size,
            pie: false,
            ..Setup::new(game)
        }
        .start()
        .unwrap();
        let mut played = 0;
        while let Some(seat) = seat_to_move(&position) {
            if played == 400 {
                // A game that goes on that long ends by resignation: whole all the same.
                bots[seat].ok(&format!("resign {id}"));
                break;
            }
            let action = choose(&position, &mut seed);
            let waited = bots[seat].ok(&format!("wait {id}"));
            assert!(waited.starts_with("turn"), "{waited}");
            assert_eq!(bots[seat].ask(&format!("play {id} {action}")), "=");
            position.play(action).unwrap();
            played += 1;
            carol.wait_for(&format!("played {action}."));
        }
        // Carol has seen every move; she goes back to the lobby for the next game.
        carol.send("q");
        carol.wait_for("Recent results");
        // Both players hear the end, each from its own process.
        for bot in &mut bots {
            let over = bot.ok(&format!("wait {id}"));
            assert!(over.starts_with("over"), "{over}");
        }
        // The same record from every process, with every move.
        let records: Vec<String> = servers
            .iter()
            .map(|s| s.record(&dir.join("alice"), &id))
            .collect();
        assert_eq!(records[0], records[1]);
        assert_eq!(records[0], records[2]);
        assert_eq!(moves_in(&records[0]), played, "{}", records[0]);
    }
    let games_in_db = query_i64(
        &db.url,
        "SELECT count(*) FROM games WHERE result IS NOT NULL",
    );
    assert_eq!(games_in_db, 4);
}

#[test]
fn the_owner_of_a_game_killed_five_times_during_play_loses_no_answered_move() {
    let Some(db) = Database::new("owner_killed") else {
        return;
    };
    let dir = scratch("cluster-kill");
    let mut servers = processes(&dir, &db, 3);
    let keys = [key(&dir, "alice"), key(&dir, "bob")];
    let mut bots = [servers[0].bot(&keys[0]), servers[1].bot(&keys[1])];
    bots[0].ok("register alice");
    bots[1].ok("register bob");
    // Which server each bot is on.
    let mut on = [0, 1];
    let id = bots[0].ok("challenge brique size 15 pie off first me casual clock 60+0");
    wait_for_challenge(&mut bots[1], &id);
    bots[1].ok(&format!("accept {id}"));
    wait_for_game(&mut bots[0], &id);
    let mut position = Setup {
        size: 15,
        pie: false,
        ..Setup::new(Game::Brique)
    }
    .start()
    .unwrap();
    let mut seed = 11;
    let mut answered = 0;
    for round in 0..5 {
        for _ in 0..6 {
            let seat = seat_to_move(&position).expect("the game goes on");
            let action = choose(&position, &mut seed);
            assert!(bots[seat].ok(&format!("wait {id}")).starts_with("turn"));
            assert_eq!(bots[seat].ask(&format!("play {id} {action}")), "=");
            position.play(action).unwrap();
            answered += 1;
        }
        // The owner, as the database says; its clock's state just before it dies.
        let owner_pid = query_i64(
            &db.url,
            &format!("SELECT split_part(process, '/', 2)::BIGINT FROM owners WHERE game = {id}"),
        );
        let before = query_i64(
            &db.url,
            &format!("SELECT turn_since FROM games WHERE id = {id}"),
        );
        let renewed = query_i64(
            &db.url,
            &format!("SELECT renewed FROM owners WHERE game = {id}"),
        );
        let owner = servers
            .iter()
            .position(|s| i64::from(s.pid()) == owner_pid)
            .unwrap_or_else(|| panic!("round {round}: the owner {owner_pid} is none of ours"));
        servers[owner].kill9();
        let killed = query_i64(&db.url, "SELECT quentin_now()");
        // Another process takes the game over once the lease has run out.
        let dead = format!("%/{owner_pid}/%");
        let started = std::time::Instant::now();
        let (taken, since) = loop {
            let taken = query_i64(
                &db.url,
                &format!(
                    "SELECT coalesce((SELECT taken FROM owners WHERE game = {id}
                                      AND process NOT LIKE '{dead}'), -1)"
                ),
            );
            if taken >= 0 {
                let since = query_i64(
                    &db.url,
                    &format!("SELECT turn_since FROM games WHERE id = {id}"),
                );
                break (taken, since);
            }
            assert!(
                started.elapsed() < TIMEOUT,
                "round {round}: nobody took the game over"
            );
            std::thread::yield_now();
        };
        // The mover is charged what it used while the old owner lived (up to its last
        // renewal, at least `renewed`, before the kill), and nothing from the kill to the
        // takeover.
        let charged = taken - since;
        assert!(
            charged <= (killed - before).max(0),
            "round {round}: {charged} ms charged"
        );
        assert!(
            charged >= (renewed - before).max(0),
            "round {round}: {charged} ms charged"
        );
        // A new process takes the dead one's place; its players log in again to another.
        servers[owner] = Server::start(&dir, &["--database", &db.url]);
        for seat in 0..2 {
            if on[seat] == owner {
                on[seat] = (owner + 1 + seat) % 3;
                bots[seat] = servers[on[seat]].bot(&keys[seat]);
                assert_eq!(bots[seat].ok("whoami"), ["alice", "bob"][seat]);
            }
        }
        let seat = seat_to_move(&position).unwrap();
        let action = choose(&position, &mut seed);
        assert!(bots[seat].ok(&format!("wait {id}")).starts_with("turn"));
        assert_eq!(
            bots[seat].ask(&format!("play {id} {action}")),
            "=",
            "round {round}"
        );
        position.play(action).unwrap();
        answered += 1;
        // Every answered move is there, from every process.
        for server in &servers {
            let record = server.record(&keys[0], &id);
            assert_eq!(moves_in(&record), answered, "round {round}: {record}");
        }
    }
    let record = servers[0].record(&keys[0], &id);
    assert_eq!(moves_in(&record), answered);
}

#[test]
fn a_challenge_made_on_one_process_is_accepted_and_played_at_once_on_another() {
    let Some(db) = Database::new("accept_at_once") else {
        return;
    };
    let dir = scratch("cluster-at-once");
    // Fifty games in a few seconds, past fair play's limits, which are not what this test is
    // about.
    let servers: Vec<Server> = (0..2)
        .map(|_| {
            Server::start(
                &dir,
                &[
                    "--database",
                    &db.url,
                    "--challenges-per-minute",
                    "1000",
                    "--live-games-per-player",
                    "1000",
                ],
            )
        })
        .collect();
    let mut bob = servers[1].registered(&dir, "bob");
    // Alice registers on the first process and challenges at once: the second may not have
    // heard of her either.
    let mut alice = servers[0].registered(&dir, "alice");
    for round in 0..50 {
        let id = alice.ok("challenge quentin size 5 pie off first me casual clock 10+5");
        // Accepted on the second process with no wait for its news: it asks the database.
        let answer = bob.ask(&format!("accept {id}"));
        assert!(
            answer.starts_with(&format!("= {id} ")),
            "round {round}: {answer}"
        );
        // The game, started and owned on the second, is played at once on the first.
        assert_eq!(alice.ask(&format!("play {id} c3")), "=", "round {round}");
        if round == 0 {
            let games = bob.ok("games");
            assert!(
                games
                    .lines()
                    .any(|l| l.starts_with(&format!("{id} quentin 5 alice "))),
                "alice known on the second process: {games}"
            );
        }
    }
}
