//! Faults of several processes on one PostgreSQL database, each a real `quentin serve` reached
//! with the real `ssh`: an owner frozen (SIGSTOP) in the middle of a move's transaction, which
//! the database holds open with its lock, while its game's players play on through other
//! processes; the same owner's connections to the database cut without a word (a black hole,
//! as a firewall's) and then the owner killed. Each test makes its own database
//! (`QUENTIN_TEST_DATABASE_URL`; skipped, saying so, without it) and drops it.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use quentin::rules::{Color, Game, Position, Setup};

use crate::serve::pg::{Database, query_i64};
use crate::serve::{Bot, Server, TIMEOUT, key, scratch};
use crate::server_cluster::{wait_for_challenge, wait_for_game};
use crate::server_outage::Proxy;

/// A game of Brique 15×15 between two bots (the first, the challenger, moves first), played
/// with a seeded choice among the legal actions.
pub(crate) struct Duel {
    pub(crate) id: String,
    pub(crate) position: Position,
    seed: u64,
}

impl Duel {
    /// Challenged by `bots[0]` and accepted by `accepter` (whose process owns the game); the
    /// game heard of on both players' processes.
    pub(crate) fn start(bots: &mut [Bot; 2], accepter: &mut Bot, seed: u64) -> Duel {
        let id = bots[0].ok("challenge brique size 15 pie off first me casual clock 60+0");
        wait_for_challenge(accepter, &id);
        accepter.ok(&format!("accept {id}"));
        wait_for_game(&mut bots[0], &id);
        wait_for_game(&mut bots[1], &id);
        Duel {
            id,
            position: Setup {
                size: 15,
                pie: false,
                ..Setup::new(Game::Brique)
            }
            .start()
            .unwrap(),
            seed,
        }
    }

    /// The seat to move and the seeded choice of its next action (the choice made: the next
    /// one differs), none when the game is over.
    pub(crate) fn next(&mut self) -> Option<(usize, quentin::rules::Action)> {
        let color = self.position.to_move()?;
        let seat = usize::from(color == Color::White);
        let legal = self.position.legal_actions();
        self.seed = self
            .seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        Some((
            seat,
            legal[usize::try_from(self.seed >> 33).unwrap() % legal.len()],
        ))
    }

    /// One move by the player to move, which must be answered `=`; false when the game is over.
    pub(crate) fn step(&mut self, bots: &mut [Bot; 2]) -> bool {
        let Some((seat, action)) = self.next() else {
            return false;
        };
        let waited = bots[seat].ok(&format!("wait {}", self.id));
        assert!(waited.starts_with("turn"), "{waited}");
        let answer = bots[seat].ask(&format!("play {} {action}", self.id));
        assert_eq!(answer, "=", "game {}: play {action}", self.id);
        self.position.play(action).unwrap();
        true
    }
}

/// The number of actions in a record's text.
fn moves_in(record: &str) -> usize {
    quentin::record::Record::parse(record)
        .unwrap_or_else(|e| panic!("{e}: {record}"))
        .actions()
        .len()
}

/// Sends `signal` (`STOP`, `CONT`) to process `pid` and waits until `/proc` shows its effect.
pub(crate) fn signal(pid: u32, signal: &str) {
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), &pid.to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let stopped = signal == "STOP";
    let started = Instant::now();
    loop {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
        // The state follows the command's name in parentheses.
        let state = stat.rsplit(')').next().unwrap().split_whitespace().next();
        if (state == Some("T")) == stopped {
            return;
        }
        assert!(started.elapsed() < TIMEOUT, "{pid} never took SIG{signal}");
        std::thread::yield_now();
    }
}

/// Plays `game` on between `bots` on a thread of its own, game after game (each new one
/// accepted by `accepter`, whose process owns it), until the flag given back is set: the
/// moves answered so far, and the thread, which gives the games' numbers.
fn play_on(
    mut game: Duel,
    mut bots: [Bot; 2],
    mut accepter: Bot,
) -> (
    Arc<AtomicBool>,
    Arc<AtomicUsize>,
    std::thread::JoinHandle<Vec<String>>,
) {
    let stop = Arc::new(AtomicBool::new(false));
    let played = Arc::new(AtomicUsize::new(0));
    let thread = {
        let (stop, played) = (stop.clone(), played.clone());
        std::thread::spawn(move || {
            let mut ids = vec![game.id.clone()];
            while !stop.load(Ordering::SeqCst) {
                if !game.step(&mut bots) {
                    game = Duel::start(&mut bots, &mut accepter, ids.len() as u64);
                    ids.push(game.id.clone());
                    continue;
                }
                played.fetch_add(1, Ordering::SeqCst);
            }
            ids
        })
    };
    (stop, played, thread)
}

/// The options of these tests' processes: fair play's limits lifted, since their duels
/// start game after game faster than any person would (docs/server.md, "Fair play").
const GAMES_AT_WILL: [&str; 4] = [
    "--challenges-per-minute",
    "1000000",
    "--live-games-per-player",
    "1000000",
];

/// A process of these tests on the database `url`.
pub(crate) fn at_will(dir: &Path, url: &str) -> Server {
    Server::start(dir, &[&["--database", url][..], &GAMES_AT_WILL].concat())
}

#[test]
fn an_owner_frozen_with_a_move_transaction_open_holds_up_neither_its_game_nor_the_others() {
    let Some(db) = Database::new("owner_frozen") else {
        return;
    };
    let dir = scratch("cluster-frozen");
    let servers: Vec<Server> = (0..3).map(|_| at_will(&dir, &db.url)).collect();
    let (a, b, c) = (&servers[0], &servers[1], &servers[2]);
    // Alice (on B) and Bob (on C) play game 1, which Bob accepted from A: A owns it.
    let bob = key(&dir, "bob");
    let mut bob_on_a = a.bot(&bob);
    bob_on_a.ok("register bob");
    let mut one = [b.registered(&dir, "alice"), c.bot(&bob)];
    let mut duel = Duel::start(&mut one, &mut bob_on_a, 3);
    let owner_of = |id: &str| {
        query_i64(
            &db.url,
            &format!("SELECT split_part(process, '/', 2)::BIGINT FROM owners WHERE game = {id}"),
        )
    };
    assert_eq!(owner_of(&duel.id), i64::from(a.pid()));
    // Carol (on B) and Dave (on C) play game 2, owned by C.
    let dave = key(&dir, "dave");
    let mut two = [b.registered(&dir, "carol"), c.bot(&dave)];
    two[1].ok("register dave");
    let mut dave_accepts = c.bot(&dave);
    let other = Duel::start(&mut two, &mut dave_accepts, 5);
    assert_eq!(owner_of(&other.id), i64::from(c.pid()));
    let other_taken = query_i64(
        &db.url,
        &format!("SELECT taken FROM owners WHERE game = {}", other.id),
    );
    let mut answered = 0;
    for _ in 0..4 {
        assert!(duel.step(&mut one));
        answered += 1;
    }

    // A opens a move's transaction on game 1 (its lease locked) and freezes in it.
    let mut holder = a.registered(&dir, "holder");
    holder.ok(&format!("hold {}", duel.id));
    let idle = format!(
        "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE '%/{}/%'
         AND state = 'idle in transaction'",
        a.pid()
    );
    let started = Instant::now();
    while query_i64(&db.url, &idle) == 0 {
        assert!(started.elapsed() < TIMEOUT, "A's transaction is not idle");
        std::thread::yield_now();
    }
    signal(a.pid(), "STOP");
    let frozen = Instant::now();

    // Game 2 goes on, on its own thread, for as long as A is frozen.
    let (stop, played, other_game) = play_on(other, two, dave_accepts);
    // Game 1 goes on through B and C: its first move waits for the database to end A's
    // transaction and for another process to take the game over.
    let before = played.load(Ordering::SeqCst);
    let asked = Instant::now();
    assert!(duel.step(&mut one));
    answered += 1;
    // Said, not asserted: how long the move waited, on this machine.
    eprintln!(
        "game 1's first move after A froze: answered after {:?}",
        asked.elapsed()
    );
    let during = played.load(Ordering::SeqCst);
    assert!(
        during > before,
        "game 2 stood still while game 1 moved to another process"
    );
    assert_ne!(owner_of(&duel.id), i64::from(a.pid()));
    for _ in 0..5 {
        assert!(duel.step(&mut one));
        answered += 1;
    }
    // A stays frozen some 15 s in all: the fault's length that issue 47 asks for, not a wait
    // for anything to happen (every step before and after waits for its answer).
    while frozen.elapsed() < Duration::from_secs(15) {
        std::thread::sleep(Duration::from_millis(100));
    }
    stop.store(true, Ordering::SeqCst);
    let others = other_game.join().unwrap();
    signal(a.pid(), "CONT");

    // C's games never left it: their leases were renewed throughout.
    let first = &others[0];
    let still = query_i64(
        &db.url,
        &format!("SELECT coalesce((SELECT taken FROM owners WHERE game = {first}), -1)"),
    );
    assert!(
        still == other_taken || still == -1,
        "game {first} changed owner while A was frozen"
    );
    let moved = query_i64(
        &db.url,
        &format!(
            "SELECT count(*) FROM owners WHERE game IN ({}) AND process NOT LIKE '%/{}/%'",
            others.join(", "),
            c.pid()
        ),
    );
    assert_eq!(moved, 0, "a game of C's changed owner while A was frozen");
    // Back from its freeze, A refuses nothing it should not and writes nothing of game 1.
    assert_eq!(holder.ok("whoami"), "holder");
    for _ in 0..2 {
        assert!(duel.step(&mut one));
        answered += 1;
    }
    // Every process gives the same record, every answered move in it once.
    same_everywhere(&dir, &db.url, &duel.id, answered, &[b, c, a]);
}

/// Every process of `servers` gives the same record of game `id` (the first's, read until it
/// has the `answered` moves; the others', until they catch up), and the database holds each
/// answered move once.
fn same_everywhere(dir: &Path, url: &str, id: &str, answered: usize, servers: &[&Server]) {
    let alice = dir.join("alice");
    let started = Instant::now();
    let record = loop {
        let record = servers[0].record(&alice, id);
        if moves_in(&record) >= answered {
            break record;
        }
        assert!(
            started.elapsed() < TIMEOUT,
            "the first process never heard of the last move"
        );
        std::thread::yield_now();
    };
    assert_eq!(moves_in(&record), answered, "{record}");
    for server in &servers[1..] {
        while server.record(&alice, id) != record {
            assert!(started.elapsed() < TIMEOUT, "a process never caught up");
            std::thread::yield_now();
        }
    }
    assert_eq!(
        query_i64(
            url,
            &format!("SELECT count(*) FROM moves WHERE game = {id}")
        ),
        i64::try_from(answered).unwrap()
    );
}

/// Waits until the database shows a transaction of process `pid` idle with its locks held.
fn wait_idle_in_transaction(url: &str, pid: u32) {
    let idle = format!(
        "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE '%/{pid}/%'
         AND state = 'idle in transaction'"
    );
    let started = Instant::now();
    while query_i64(url, &idle) == 0 {
        assert!(
            started.elapsed() < TIMEOUT,
            "{pid}'s transaction is not idle"
        );
        std::thread::yield_now();
    }
}

#[test]
fn an_owner_cut_off_from_the_database_without_a_word_then_killed_holds_up_nothing() {
    let Some(db) = Database::new("owner_cut") else {
        return;
    };
    // A reaches the database through a proxy that the test turns into a black hole.
    let (proxy, through) = Proxy::before(&db.url);
    let dir = scratch("cluster-cut");
    let mut a = at_will(&dir, &through);
    let servers: Vec<Server> = (0..2).map(|_| at_will(&dir, &db.url)).collect();
    let (b, c) = (&servers[0], &servers[1]);
    let owner_of = |id: &str| {
        query_i64(
            &db.url,
            &format!("SELECT split_part(process, '/', 2)::BIGINT FROM owners WHERE game = {id}"),
        )
    };
    // Alice (on B) and Bob (on C) play game 1, which Bob accepted from A: A owns it.
    let bob = key(&dir, "bob");
    let mut bob_on_a = a.bot(&bob);
    bob_on_a.ok("register bob");
    let mut one = [b.registered(&dir, "alice"), c.bot(&bob)];
    let mut duel = Duel::start(&mut one, &mut bob_on_a, 7);
    assert_eq!(owner_of(&duel.id), i64::from(a.pid()));
    // Carol (on B) and Dave (on C) play game 2, owned by C.
    let dave = key(&dir, "dave");
    let mut two = [b.registered(&dir, "carol"), c.bot(&dave)];
    two[1].ok("register dave");
    let mut dave_accepts = c.bot(&dave);
    let other = Duel::start(&mut two, &mut dave_accepts, 11);
    assert_eq!(owner_of(&other.id), i64::from(c.pid()));
    let mut answered = 0;
    for _ in 0..4 {
        assert!(duel.step(&mut one));
        answered += 1;
    }

    // Game 2 goes on, on its own thread, from before the cut to the end.
    let (stop, played, other_game) = play_on(other, two, dave_accepts);

    // A opens a move's transaction on game 1 (its lease locked), and then its connections to
    // the database go silent: nothing reaches the database from A, nor A from it, and no
    // socket is closed on either side.
    let mut holder = a.registered(&dir, "holder");
    holder.ok(&format!("hold {}", duel.id));
    wait_idle_in_transaction(&db.url, a.pid());
    proxy.blackhole();

    // Game 1 goes on through B and C: its first move waits for A's lease to run out, for the
    // database to end A's silent transaction, and for another process to take the game over.
    let before = played.load(Ordering::SeqCst);
    let asked = Instant::now();
    assert!(duel.step(&mut one));
    answered += 1;
    // Said, not asserted: how long the move waited, on this machine.
    eprintln!(
        "game 1's first move after A was cut off: answered after {:?}",
        asked.elapsed()
    );
    assert_ne!(owner_of(&duel.id), i64::from(a.pid()));
    for _ in 0..3 {
        assert!(duel.step(&mut one));
        answered += 1;
    }
    // Then A is killed; its sockets close, and the black hole keeps the database from hearing
    // of it (as a firewall would).
    a.kill9();
    for _ in 0..3 {
        assert!(duel.step(&mut one));
        answered += 1;
    }
    stop.store(true, Ordering::SeqCst);
    let others = other_game.join().unwrap();
    assert!(
        played.load(Ordering::SeqCst) > before,
        "game 2 stood still while game 1 moved"
    );
    // C's games never left it: their leases were renewed throughout.
    let moved = query_i64(
        &db.url,
        &format!(
            "SELECT count(*) FROM owners WHERE game IN ({}) AND process NOT LIKE '%/{}/%'",
            others.join(", "),
            c.pid()
        ),
    );
    assert_eq!(moved, 0, "a game of C's changed owner while A was cut off");
    // Every process left gives the same record, every answered move in it once (B hears of
    // the last move, played through C, within moments).
    same_everywhere(&dir, &db.url, &duel.id, answered, &[b, c]);
    drop(proxy);
}

#[test]
fn two_rated_games_of_one_player_ending_at_once_on_two_processes_both_count() {
    let Some(db) = Database::new("rating_race") else {
        return;
    };
    let dir = scratch("cluster-rating");
    // Ten rated games of one pair in a minute: past fair play's limits, which are not what
    // this test is about.
    let servers: Vec<Server> = (0..2)
        .map(|_| {
            Server::start(
                &dir,
                &["--database", &db.url, "--rated-games-per-pair", "1000"],
            )
        })
        .collect();
    // Pat plays Quinn on the first process and Rose on the second, each game owned there.
    let pat = key(&dir, "pat");
    let mut first = servers[0].bot(&pat);
    first.ok("register pat");
    // Pat's second session, once the second process has heard of the new player.
    let started = Instant::now();
    let second = loop {
        let mut bot = servers[1].bot(&pat);
        if bot.ask("whoami") == "= pat" {
            break bot;
        }
        assert!(
            started.elapsed() < TIMEOUT,
            "the second process never heard of pat"
        );
    };
    let mut pats = [first, second];
    let mut others = [
        servers[0].registered(&dir, "quinn"),
        servers[1].registered(&dir, "rose"),
    ];
    let rounds = 5;
    for round in 0..rounds {
        let mut ids = Vec::new();
        for side in 0..2 {
            let id = pats[side].ok("challenge quentin size 5 pie off first me rated clock 10+0");
            wait_for_challenge(&mut others[side], &id);
            others[side].ok(&format!("accept {id}"));
            // Both move twice, so that the game is rated when it ends.
            for (pat, other) in [("c3", "b2"), ("c4", "b1")] {
                assert_eq!(pats[side].ask(&format!("play {id} {pat}")), "=");
                assert!(others[side].ok(&format!("wait {id}")).starts_with("turn"));
                assert_eq!(others[side].ask(&format!("play {id} {other}")), "=");
            }
            ids.push(id);
        }
        // Quinn and Rose resign at once, each on their own process.
        let barrier = std::sync::Barrier::new(2);
        std::thread::scope(|scope| {
            let resigned: Vec<_> = others
                .iter_mut()
                .zip(&ids)
                .map(|(bot, id)| {
                    let barrier = &barrier;
                    scope.spawn(move || {
                        barrier.wait();
                        bot.ask(&format!("resign {id}"))
                    })
                })
                .collect();
            for answer in resigned {
                assert_eq!(answer.join().unwrap(), "=", "round {round}");
            }
        });
        let counted = query_i64(
            &db.url,
            "SELECT games FROM ratings r JOIN players p ON p.id = r.player WHERE p.name = 'pat'",
        );
        assert_eq!(
            counted,
            2 * (round + 1),
            "round {round}: a rating change was lost"
        );
    }
}
