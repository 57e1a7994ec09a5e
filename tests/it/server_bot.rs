//! The bot protocol end to end, through the real OpenSSH client and a real `quentin serve`:
//! whole games of the four games between two bot sessions, every refusal of the protocol's
//! table, and clocks that run out (moved on by the test server's clock, not by sleeping).

use crate::serve;

use quentin::record::Record;
use quentin::rules::{Action, Position};
use serve::{Bot, Server, key, scratch};

/// A little random number generator, seeded: the games are the same on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Plays game `id` to its end between two bots, each choosing a random legal action when
/// `wait` says it is its turn; returns the actions and both bots' final answers.
fn play_out(
    bots: &mut [Bot; 2],
    id: &str,
    mut position: Position,
    seed: u64,
) -> (Vec<Action>, [String; 2]) {
    let mut rng = Rng(seed);
    let mut actions = Vec::new();
    let mut over = [None, None];
    // The first bot moves first; each waits for its turn, then plays.
    let mut turn = 0;
    loop {
        if over.iter().all(Option::is_some) {
            break;
        }
        let answer = bots[turn].ok(&format!("wait {id}"));
        if answer.starts_with("over") {
            over[turn] = Some(answer);
            turn = 1 - turn;
            continue;
        }
        let last = answer.strip_prefix("turn ").unwrap();
        if last != "-" {
            assert_eq!(
                Some(&Action::parse(last).unwrap()),
                actions.last(),
                "the last action told"
            );
        }
        let legal = position.legal_actions();
        let action = legal[rng.below(legal.len())];
        assert_eq!(bots[turn].ask(&format!("play {id} {action}")), "=");
        position.play(action).unwrap();
        actions.push(action);
        assert!(actions.len() < 5000, "a game of that length is not a game");
        turn = 1 - turn;
    }
    (actions, over.map(Option::unwrap))
}

#[test]
fn two_bots_play_whole_games_of_all_four_games_and_the_records_replay() {
    let dir = scratch("server-bot-games");
    let server = Server::start(&dir, &[]);
    let (ka, kb) = (key(&dir, "alice"), key(&dir, "bob"));
    let mut bots = [server.bot(&ka), server.bot(&kb)];
    assert_eq!(bots[0].ask("register alice"), "=");
    assert_eq!(bots[1].ask("register bob"), "=");
    for (i, terms) in [
        "quentin size 5 first me",
        "konobi size 5 first me casual",
        "brique size 5 first me clock 30+0",
        "quint pieces 15 first me days 3",
    ]
    .iter()
    .enumerate()
    {
        let id = bots[0].ok(&format!("challenge {terms}"));
        let accepted = bots[1].ok(&format!("accept {id}"));
        let spec: Vec<&str> = terms.split_whitespace().collect();
        let record_start = Record::parse(&server.record(&ka, &id)).unwrap();
        assert_eq!(record_start.setup().game.name(), spec[0]);
        let colour = record_start.setup().game.first_color().opponent().name();
        assert_eq!(accepted, format!("{id} {colour}"), "bob moves second");
        let (actions, over) = play_out(&mut bots, &id, record_start.final_position(), 7 + i as u64);
        assert_eq!(over[0], over[1], "both see the same end");
        let record = Record::parse(&server.record(&kb, &id)).unwrap();
        assert_eq!(record.actions(), &actions[..]);
        let end = record.final_position();
        let outcome = end.outcome().expect("the record's game is over");
        let score = match outcome.winner() {
            Some(c) if c.name() == "black" => "B+",
            Some(_) => "W+",
            None => "0",
        };
        assert!(
            over[0].starts_with(&format!("over {score} ")),
            "{} vs {outcome:?}",
            over[0]
        );
        // And `quentin replay` reads it as it is.
        let file = dir.join(format!("game-{id}.txt"));
        std::fs::write(&file, server.record(&ka, &id)).unwrap();
        let replay = crate::isolated::quentin()
            .args(["replay", "--json"])
            .arg(&file)
            .output()
            .unwrap();
        assert!(replay.status.success(), "{replay:?}");
        let json: serde_json::Value = serde_json::from_slice(&replay.stdout).unwrap();
        assert_eq!(
            json["moves"].as_array().map(Vec::len),
            Some(actions.len()),
            "{json}"
        );
    }
    let games = bots[0].ok("games --json");
    let games: serde_json::Value = serde_json::from_str(&games).unwrap();
    assert_eq!(games.as_array().unwrap().len(), 4);
    for bot in bots {
        bot.finish();
    }
}

#[test]
fn every_refusal_of_the_protocol_says_why() {
    let dir = scratch("server-bot-refusals");
    let server = Server::start(&dir, &["--challenges-per-player", "2"]);
    let (ka, kb, kc) = (key(&dir, "alice"), key(&dir, "bob"), key(&dir, "carol"));
    let (mut a, mut b, mut c) = (server.bot(&ka), server.bot(&kb), server.bot(&kc));
    assert_eq!(a.ask("whoami"), "? register first: register NAME");
    assert_eq!(a.ask("challenges"), "? register first: register NAME");
    let bad = "? bad name: 2 to 20 letters, digits, - and _";
    assert_eq!(a.ask("register x"), bad);
    assert_eq!(a.ask("register no\x1b[2Jway"), bad);
    assert_eq!(a.ask("register a-name-far-too-long-for-it"), bad);
    assert_eq!(a.ask("register Alice"), "=");
    assert_eq!(a.ask("register alice2"), "? already registered as Alice");
    assert_eq!(b.ask("register ALICE"), "? name taken");
    assert_eq!(b.ask("register bob"), "=");
    assert_eq!(c.ask("register carol"), "=");
    assert_eq!(a.ask("whoami"), "= Alice");
    assert_eq!(a.ask("fly"), "? unknown command fly");
    assert_eq!(a.ask("challenge chess"), "? unknown game chess");
    assert_eq!(a.ask("challenge quentin size 99").lines().count(), 1);
    assert!(a.ask("challenge quentin size 99").starts_with("? "));
    assert_eq!(
        a.ask("challenge quentin to nobody"),
        "? no player named nobody"
    );
    assert_eq!(
        a.ask("challenge quentin to alice"),
        "? you cannot challenge yourself"
    );
    let id = a.ok("challenge quentin size 5 first me casual");
    assert_eq!(a.ok("challenge brique to bob"), "2");
    assert_eq!(
        a.ask("challenge konobi"),
        "? too many open challenges: at most 2"
    );
    let listed = b.ok("challenges");
    assert!(
        listed.starts_with(&format!(
            "{id} quentin 5 Alice pie on first Alice clock 10+5 casual"
        )),
        "{listed}"
    );
    assert!(listed.ends_with("to bob"), "{listed}");
    assert_eq!(c.ask("accept 2"), "? that challenge is for somebody else");
    assert_eq!(
        a.ask(&format!("accept {id}")),
        "? that is your own challenge"
    );
    assert_eq!(b.ask("accept 99"), "? no such challenge");
    assert_eq!(b.ask("withdraw 2"), "? not your challenge");
    assert_eq!(a.ask("withdraw 2"), "=");
    assert_eq!(b.ask(&format!("accept {id}")), format!("= {id} white"));
    assert_eq!(b.ask(&format!("accept {id}")), "? no such challenge");
    assert_eq!(b.ask(&format!("play {id} c3")), "? not your turn");
    assert_eq!(c.ask(&format!("play {id} c3")), "? not your game");
    assert_eq!(c.ask(&format!("wait {id}")), "? not your game");
    assert_eq!(
        a.ask(&format!("play {id} z9")),
        "? illegal move: z9 is off the board"
    );
    assert!(
        a.ask(&format!("play {id} c3-c4"))
            .starts_with("? illegal move: ")
    );
    assert!(
        a.ask(&format!("play {id} banana"))
            .starts_with("? illegal move: banana is not an action")
    );
    assert_eq!(a.ask("play 99 c3"), "? no such game");
    assert_eq!(a.ask(&format!("play {id} c3")), "=");
    assert_eq!(b.ask(&format!("wait {id}")), "= turn c3");
    assert_eq!(
        b.ask(&format!("play {id} c3")).split(':').next(),
        Some("? illegal move")
    );
    assert_eq!(c.ask(&format!("resign {id}")), "? not your game");
    // Bob resigns after his first move (before it, the game would be aborted).
    assert_eq!(b.ask(&format!("play {id} b2")), "=");
    assert_eq!(b.ask(&format!("resign {id}")), "=");
    assert_eq!(a.ask(&format!("wait {id}")), "= over B+ resignation");
    assert_eq!(a.ask(&format!("play {id} d4")), "? the game is over");
    assert_eq!(b.ask(&format!("resign {id}")), "? the game is over");
    let line = "x".repeat(5000);
    assert_eq!(a.ask(&line), "? line too long");
    assert_eq!(a.ask("whoami"), "= Alice");
    let games = a.ok("games");
    assert_eq!(games.lines().count(), 1);
    assert!(
        games.starts_with(&format!("{id} quentin 5 bob black over B+ resignation")),
        "{games}"
    );
    assert_eq!(a.ask("record 99"), "? no such game");
    assert!(a.ok(&format!("record {id}")).contains("resign"));
    assert_eq!(a.ask("quit"), "=");
    assert!(a.finish().success());
    for bot in [b, c] {
        bot.finish();
    }
}

#[test]
fn a_live_clock_and_a_correspondence_deadline_run_out() {
    let dir = scratch("server-bot-clocks");
    // No vacation days, which would save the correspondence clock (`server_corr.rs`).
    let server = Server::start(&dir, &["--vacation-days", "0"]);
    let (ka, kb) = (key(&dir, "alice"), key(&dir, "bob"));
    let (mut a, mut b) = (server.bot(&ka), server.bot(&kb));
    a.ok("register alice");
    b.ok("register bob");
    // Casual: a rated game this short would be aborted, not lost (docs/server.md, "Fair play").
    let live = a.ok("challenge quentin size 5 first me clock 1+0 casual");
    b.ok(&format!("accept {live}"));
    // Each makes a first move (a game without one is aborted, not lost).
    a.ok(&format!("play {live} c3"));
    assert_eq!(b.ask(&format!("wait {live}")), "= turn c3");
    b.ok(&format!("play {live} a1"));
    assert_eq!(a.ask(&format!("wait {live}")), "= turn a1");
    a.ok(&format!("play {live} c4"));
    // Bob thinks; 59 s pass, then 2 more: his minute is gone while he waits.
    b.ok("clock advance 59");
    assert_eq!(b.ask(&format!("wait {live}")), "= turn c4");
    a.send(&format!("wait {live}"));
    b.ok("clock advance 2");
    assert_eq!(a.answer(), "= over B+ time");
    assert_eq!(b.ask(&format!("play {live} c1")), "? the game is over");
    let slow = a.ok("challenge brique size 5 first you days 2 casual");
    b.ok(&format!("accept {slow}"));
    b.ok(&format!("play {slow} c3"));
    assert_eq!(a.ask(&format!("wait {slow}")), "= turn c3");
    a.ok(&format!("play {slow} a1"));
    assert_eq!(b.ask(&format!("wait {slow}")), "= turn a1");
    b.ok(&format!("play {slow} e5"));
    a.ok("clock advance 172799");
    assert_eq!(a.ask(&format!("wait {slow}")), "= turn e5");
    b.send(&format!("wait {slow}"));
    a.ok("clock advance 2");
    assert_eq!(b.answer(), "= over B+ time");
    let record = server.record(&kb, &slow);
    assert!(record.contains("ran out of time: bob wins"), "{record}");
    // A player's own clock, moved on by nobody, is not a test server's: the real one refuses.
    a.finish();
    b.finish();
}

#[test]
fn a_bot_that_sends_nothing_is_closed_after_the_idle_timeout_but_not_while_it_waits() {
    let dir = scratch("server-bot-idle");
    let server = Server::start(&dir, &["--idle-timeout", "10"]);
    let (ka, kb) = (key(&dir, "alice"), key(&dir, "bob"));
    // Alice and Bob start a game, Alice to move; Bob waits for his turn.
    let mut alice = server.bot(&ka);
    alice.ok("register alice");
    let id = alice.ok("challenge quentin size 3 pie off first me");
    let mut bob = server.bot(&kb);
    bob.ok("register bob");
    bob.ok(&format!("accept {id}"));
    bob.send(&format!("wait {id}"));
    // A session opened after that, which sends nothing, is told why and closed: Bob has been
    // waiting longer than the idle timeout by then. (Ten seconds, so that the steps before
    // Bob's wait, a command each, never take that long, however loaded the machine.)
    let mut silent = server.bot(&ka);
    assert_eq!(
        silent.answer(),
        "? no command for 10 seconds: the connection is closed"
    );
    assert!(silent.finish().success());
    // So has Alice, who said nothing since her challenge.
    assert_eq!(
        alice.answer(),
        "? no command for 10 seconds: the connection is closed"
    );
    assert!(alice.finish().success());
    // Bob's wait goes on: Alice comes back and moves, and he hears of it.
    let mut alice = server.bot(&ka);
    assert_eq!(alice.ask(&format!("play {id} b2")), "=");
    assert_eq!(bob.answer(), "= turn b2");
    assert_eq!(bob.ask(&format!("play {id} a1")), "=");
    alice.finish();
    bob.finish();
}

#[test]
fn wait_on_one_s_own_challenge_waits_for_its_game_or_its_withdrawal() {
    let dir = scratch("server-bot-wait-challenge");
    let server = Server::start(&dir, &[]);
    let ka = key(&dir, "alice");
    let mut alice = server.bot(&ka);
    assert_eq!(alice.ask("register alice"), "=");
    let mut bob = server.registered(&dir, "bob");
    // The list says who moves first (the challenger by name, the acceptor, or random) and
    // the pieces of Quint only.
    let first = alice.ok("challenge quentin size 3 pie off first me");
    let second = alice.ok("challenge quint first you");
    let third = alice.ok("challenge konobi first random casual");
    assert_eq!(
        bob.ok("challenges"),
        format!(
            "{first} quentin 3 alice pie off first alice clock 10+5 rated\n\
             {second} quint 8 alice pie off pieces 20 first acceptor clock 10+5 rated\n\
             {third} konobi 11 alice pie on first random clock 10+5 casual"
        )
    );
    // `wait` on the open challenge answers once Bob accepts: as for the game.
    alice.send(&format!("wait {first}"));
    assert_eq!(bob.ok(&format!("accept {first}")), format!("{first} white"));
    assert_eq!(alice.answer(), "= turn -");
    // One withdrawn by another session of hers: `wait` says so.
    alice.send(&format!("wait {second}"));
    let mut other = server.bot(&ka);
    assert_eq!(other.ask(&format!("withdraw {second}")), "=");
    assert_eq!(alice.answer(), "= withdrawn");
    // Somebody else's challenge, or none, is no game to wait for.
    assert_eq!(bob.ask(&format!("wait {third}")), "? no such game");
    assert_eq!(alice.ask("wait 99"), "? no such game");
}
