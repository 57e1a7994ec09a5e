//! Correspondence play as Little Golem's (issue 63): a time bank (`bank H+I`), capped after
//! each move, and `next`, the game where it is one's move whose clock runs out soonest; on
//! SQLite across a restart, and on PostgreSQL with two processes. Time is moved on by the
//! test server's clock (`clock advance`), never waited for.

use crate::serve;

use crate::server_cluster::wait_for_challenge;
use serve::pg::Database;
use serve::{Bot, Server, key, scratch};

/// The seconds and the clock of game `id` in `bot`'s `games`: `... SECONDS CLOCK...`.
fn seconds_and_clock(bot: &mut Bot, id: &str) -> (i64, String) {
    let games = bot.ok("games");
    let line = games
        .lines()
        .find(|l| l.starts_with(&format!("{id} ")))
        .unwrap_or_else(|| panic!("game {id} in {games}"));
    let words: Vec<&str> = line.split(' ').collect();
    let n = words.len();
    let seconds = words[n - 3]
        .strip_suffix('s')
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("the seconds in {line}"));
    (seconds, words[n - 2..].join(" "))
}

const HOUR: i64 = 3600;

/// Alice (black, first) and Bob play a `bank 240+36` game on one process, or on two (Alice on
/// the first, Bob on the second, each process's clock moved on alike): the bank is capped at
/// 240 hours after a move, and filled by 36 hours below it. The game's number.
fn a_bank_game(two: bool, alice: &mut Bot, bob: &mut Bot) -> String {
    let advance = |bots: [&mut Bot; 2], hours: i64| {
        for bot in bots.into_iter().take(if two { 2 } else { 1 }) {
            bot.ok(&format!("clock advance {}", hours * HOUR));
        }
    };
    // Bob's challenge, heard of on Alice's process (at once on one), where she accepts: her
    // process owns the game, and what she reads there is the owner's.
    let id = bob.ok("challenge quentin size 5 first you bank 240+36 casual");
    wait_for_challenge(alice, &id);
    let listed = alice.ok("challenges");
    assert!(
        listed.contains(&format!(
            "{id} quentin 5 bob pie on first acceptor bank 240+36 casual"
        )),
        "{listed}"
    );
    alice.ok(&format!("accept {id}"));
    alice.ok(&format!("play {id} c3"));
    assert_eq!(bob.ask(&format!("wait {id}")), "= turn c3");
    bob.ok(&format!("play {id} a1"));
    assert_eq!(alice.ask(&format!("wait {id}")), "= turn a1");
    // Ten hours of Alice's bank gone, then her move: 230 + 36 is capped at 240.
    advance([&mut *alice, &mut *bob], 10);
    alice.ok(&format!("play {id} c4"));
    assert_eq!(
        seconds_and_clock(alice, &id),
        (240 * HOUR, "bank 240+36".to_string()),
        "capped at the bank"
    );
    // Bob's turn; then Alice's again, a hundred hours of it: 140 + 36, below the cap.
    assert_eq!(bob.ask(&format!("wait {id}")), "= turn c4");
    bob.ok(&format!("play {id} a2"));
    assert_eq!(alice.ask(&format!("wait {id}")), "= turn a2");
    advance([&mut *alice, &mut *bob], 100);
    alice.ok(&format!("play {id} c5"));
    let (seconds, clock) = seconds_and_clock(alice, &id);
    assert_eq!(clock, "bank 240+36");
    // 176 hours, less the real seconds the test took since Alice's turn began.
    assert!(
        (176 * HOUR - 600..=176 * HOUR).contains(&seconds),
        "{seconds}"
    );
    id
}

#[test]
fn a_bank_is_capped_after_each_move_survives_a_restart_and_next_finds_the_soonest_clock() {
    let dir = scratch("server-corr-bank");
    let mut server = Server::start(&dir, &[]);
    let (ka, kb) = (key(&dir, "alice"), key(&dir, "bob"));
    let (mut alice, mut bob) = (server.bot(&ka), server.bot(&kb));
    alice.ok("register alice");
    bob.ok("register bob");
    // Out of range: said with the range.
    for (words, why) in [
        ("bank 2001+1", "? bad bank: from 1 to 2000 hours"),
        ("bank 0+0", "? bad bank: from 1 to 2000 hours"),
        (
            "bank 24+25",
            "? bad bank: an increment from 0 to 24 hours (the bank)",
        ),
        (
            "bank 240",
            "? bad bank 240: say HOURS+INCREMENT, e.g. 240+36",
        ),
    ] {
        assert_eq!(alice.ask(&format!("challenge quentin {words}")), why);
    }
    assert_eq!(alice.ok("next"), "none");
    let bank = a_bank_game(false, &mut alice, &mut bob);
    // Bob's move in the bank game; a second game, by days, where Alice's first move waits:
    // its day runs out before Bob's bank.
    assert_eq!(bob.ok("next"), bank);
    let days = bob.ok("challenge brique size 5 first me days 2 casual");
    alice.ok(&format!("accept {days}"));
    bob.ok(&format!("play {days} c3"));
    assert_eq!(alice.ok("next"), days);
    assert_eq!(bob.ok("next"), bank);
    // A restart: the bank game goes on with its bank and its clocks.
    alice.finish();
    bob.finish();
    assert!(server.stop().success());
    let server = Server::start(&dir, &[]);
    let (mut alice, mut bob) = (server.bot(&ka), server.bot(&kb));
    let (seconds, clock) = seconds_and_clock(&mut alice, &bank);
    assert_eq!(clock, "bank 240+36");
    assert!(
        (176 * HOUR - 600..=176 * HOUR).contains(&seconds),
        "{seconds}"
    );
    // Bob moves in the bank game; Alice's next is still the game by days (a day, against her
    // bank's 176 hours); once she moves there, the bank game; then none.
    assert_eq!(bob.ask(&format!("play {bank} a3")), "=");
    assert_eq!(alice.ok("next"), days);
    alice.ok(&format!("play {days} a1"));
    assert_eq!(alice.ok("next"), bank);
    alice.ok(&format!("play {bank} b3"));
    assert_eq!(alice.ok("next"), "none");
    alice.finish();
    bob.finish();
}

#[test]
fn a_bank_game_between_two_processes_on_postgresql_is_capped_and_its_bank_kept() {
    let Some(db) = Database::new("corr_bank") else {
        return;
    };
    let dir = scratch("server-corr-bank-pg");
    let first = Server::start(&dir, &["--database", &db.url]);
    let second = Server::start(&dir, &["--database", &db.url]);
    let (ka, kb) = (key(&dir, "alice"), key(&dir, "bob"));
    let mut alice = first.bot(&ka);
    alice.ok("register alice");
    let mut bob = second.bot(&kb);
    bob.ok("register bob");
    let id = a_bank_game(true, &mut alice, &mut bob);
    // Seen alike from the other process, once it has heard of Alice's last move.
    assert_eq!(bob.ask(&format!("wait {id}")), "= turn c5");
    let (seconds, clock) = seconds_and_clock(&mut bob, &id);
    assert_eq!(clock, "bank 240+36");
    assert!(seconds > 200 * HOUR, "bob's own bank: {seconds}");
    assert_eq!(bob.ok("next"), id);
    assert_eq!(alice.ok("next"), "none");
    alice.finish();
    bob.finish();
}

/// The first line of `bot`'s `messages` that contains `words`.
fn message(bot: &mut Bot, words: &str) -> String {
    let messages = bot.ok("messages");
    messages
        .lines()
        .find(|l| l.contains(words))
        .unwrap_or_else(|| panic!("{words} in {messages}"))
        .to_string()
}

/// Alice's vacation, `--vacation-days 2`, her two correspondence games (one with Bob, one
/// with Carol, `bots` in that order) each at her move: a day taken by itself when her clocks
/// run out, a day taken ahead, then none left and her games lost on time. `advance` moves
/// every server's clock on, one after the other.
fn a_vacation(bots: &mut [Bot; 3], advance: &dyn Fn(&mut [Bot; 3], i64)) {
    let [alice, bob, carol] = bots;
    assert!(
        alice.ok("vacation").starts_with("2 days left, 0 taken in "),
        "the allowance"
    );
    let with_bob = bob.ok("challenge brique size 5 first you days 1 casual");
    alice.ok(&format!("accept {with_bob}"));
    alice.ok(&format!("play {with_bob} c3"));
    assert_eq!(bob.ask(&format!("wait {with_bob}")), "= turn c3");
    bob.ok(&format!("play {with_bob} a1"));
    let with_carol = alice.ok("challenge brique size 5 first you days 1 casual");
    carol.ok(&format!("accept {with_carol}"));
    carol.ok(&format!("play {with_carol} c3"));
    assert_eq!(alice.ask(&format!("wait {with_carol}")), "= turn c3");
    alice.ok(&format!("play {with_carol} a1"));
    assert_eq!(carol.ask(&format!("wait {with_carol}")), "= turn a1");
    carol.ok(&format!("play {with_carol} e5"));
    // Alice's move in both; her day a move runs out in both: one vacation day is taken, and
    // each game has 24 hours more.
    advance(bots, 86_401);
    let [alice, bob, carol] = bots;
    assert!(
        alice.ok("vacation").starts_with("1 day left, 1 taken in "),
        "one day by itself"
    );
    for (bot, id) in [(&mut *bob, &with_bob), (&mut *carol, &with_carol)] {
        let told = message(bot, &format!("game {id}: 24 hours more"));
        assert!(
            told.starts_with("alice's clock ran out in game ")
                && told.contains("a vacation day was taken for them"),
            "{told}"
        );
        let games = bot.ok("games");
        assert!(
            games.lines().any(|l| l.starts_with(&format!("{id} brique 5 alice ")) && l.contains(" waiting ")),
            "going on: {games}"
        );
    }
    let (left, _) = seconds_and_clock(alice, &with_bob);
    assert!((86_000..=86_400).contains(&left), "a day more: {left}");
    // A live game, Carol to move: not touched by a day taken ahead.
    let live = alice.ok("challenge quentin size 5 first me clock 10+0 casual");
    carol.ok(&format!("accept {live}"));
    alice.ok(&format!("play {live} c3"));
    assert_eq!(carol.ask(&format!("wait {live}")), "= turn c3");
    carol.ok(&format!("play {live} a1"));
    assert_eq!(alice.ask(&format!("wait {live}")), "= turn a1");
    alice.ok(&format!("play {live} c4"));
    let live_before = seconds_and_clock(alice, &live);
    let taken = alice.ok("vacation 1");
    assert!(
        taken.starts_with("0 days left, 2 taken in ")
            && taken.ends_with("; 2 correspondence games given more time"),
        "{taken}"
    );
    assert_eq!(seconds_and_clock(alice, &live), live_before);
    let (left, _) = seconds_and_clock(alice, &with_bob);
    assert!((172_000..=172_800).contains(&left), "two days: {left}");
    let told = message(bob, &format!("game {with_bob}: 24 hours more"));
    assert_eq!(
        told,
        format!("alice takes 1 vacation day; game {with_bob}: 24 hours more on their clock")
    );
    assert_eq!(alice.ask("vacation 1"), "? no vacation days left this year");
    // None left: her clocks run out, and she loses on time in both.
    advance(bots, 2 * 86_400 + 1);
    let [alice, bob, carol] = bots;
    for (bot, id) in [(&mut *bob, &with_bob), (&mut *carol, &with_carol)] {
        let answer = bot.ask(&format!("wait {id}"));
        assert!(
            answer.starts_with("= over ") && answer.ends_with(" time"),
            "{answer}"
        );
    }
    assert!(alice.ok("vacation").starts_with("0 days left, 2 taken in "));
}

#[test]
fn a_vacation_day_is_taken_by_itself_on_every_correspondence_game_then_ahead_then_none() {
    let dir = scratch("server-corr-vacation");
    let server = Server::start(&dir, &["--vacation-days", "2"]);
    let mut bots = ["alice", "bob", "carol"].map(|name| {
        let mut bot = server.bot(&key(&dir, name));
        bot.ok(&format!("register {name}"));
        bot
    });
    a_vacation(&mut bots, &|bots, seconds| {
        bots[0].ok(&format!("clock advance {seconds}"));
    });
    for bot in bots {
        bot.finish();
    }
}

#[test]
fn a_vacation_on_postgresql_counts_once_across_two_processes() {
    let Some(db) = Database::new("corr_vacation") else {
        return;
    };
    let dir = scratch("server-corr-vacation-pg");
    let options = ["--database", db.url.as_str(), "--vacation-days", "2"];
    let first = Server::start(&dir, &options);
    let second = Server::start(&dir, &options);
    // Alice on the first process, Bob and Carol on the second: her game with Bob begins on
    // the first (she accepts), her game with Carol on the second (Carol accepts).
    let mut bots =
        [("alice", &first), ("bob", &second), ("carol", &second)].map(|(name, server)| {
            let mut bot = server.bot(&key(&dir, name));
            bot.ok(&format!("register {name}"));
            bot
        });
    a_vacation(&mut bots, &|bots, seconds| {
        // One process after the other: each runs out the games it owns.
        bots[0].ok(&format!("clock advance {seconds}"));
        bots[1].ok(&format!("clock advance {seconds}"));
    });
    for bot in bots {
        bot.finish();
    }
}
