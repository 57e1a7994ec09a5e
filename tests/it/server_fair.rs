//! Fair play through the real server: the two attacks of issue 50's fault campaign replayed,
//! and each shown to fail. Rating farming with a second key: games too short to rate are
//! aborted, only the first three rated games a day between two players are rated, and a
//! provisional rating is off the leaderboard. Griefing by accepting challenges and never
//! moving: at most four live games at once, victims who resign give nothing, and the griefer
//! is held from rated games. And challenges and accepts are limited a minute.

use crate::serve;

use serve::{Bot, Server, scratch};

/// The record's first line: `# quentin serve, game ID: A vs B, CLOCK, rated|casual`, and its
/// result line.
fn terms(bot: &mut Bot, id: &str) -> (bool, String) {
    let record = bot.ok(&format!("record {id}"));
    let mut lines = record.lines();
    let first = lines.next().unwrap().to_string();
    let result = lines.next().unwrap().to_string();
    (first.ends_with(", rated"), result)
}

/// Alice's rows in the ratings table: (games, deviation) of each.
fn ratings_of(server: &Server, name: &str) -> Vec<(i64, f64)> {
    let db = rusqlite::Connection::open(server.data.join("server.db")).unwrap();
    let mut statement = db
        .prepare(
            "SELECT r.games, r.deviation FROM ratings r JOIN players p ON p.id = r.player \
             WHERE p.name = ?1",
        )
        .unwrap();
    statement
        .query_map([name], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// Quentin 5×5 moves that end nothing for a while, in turn from the first.
const MOVES: [&str; 6] = ["a1", "e5", "a3", "e3", "a5", "e1"];

#[test]
fn a_second_key_cannot_farm_a_rating() {
    let dir = scratch("server-fair-farm");
    let server = Server::start(&dir, &[]);
    let mut alice = server.registered(&dir, "alice");
    let mut alt = server.registered(&dir, "alt");
    let game = |actions: usize, alice: &mut Bot, alt: &mut Bot| {
        let id = alt.ok("challenge quentin size 5 pie off first me rated to alice");
        assert!(alice.ok(&format!("accept {id}")).starts_with(&id));
        for (n, m) in MOVES.iter().take(actions).enumerate() {
            let who: &mut Bot = if n % 2 == 0 { alt } else { alice };
            assert_eq!(who.ask(&format!("play {id} {m}")), "=");
        }
        alt.ok(&format!("resign {id}"));
        id
    };
    // Resigned after a move each: too short to rate.
    let short = game(2, &mut alice, &mut alt);
    assert_eq!(
        terms(&mut alice, &short),
        (true, "# Game aborted: too short to be rated".to_string())
    );
    assert!(ratings_of(&server, "alice").is_empty());
    // Long enough: the first three of the day are rated, the next casual.
    let rated: Vec<bool> = (0..5)
        .map(|_| {
            let id = game(4, &mut alice, &mut alt);
            let (rated, result) = terms(&mut alice, &id);
            assert_eq!(result, "# alt resigned: alice wins");
            rated
        })
        .collect();
    assert_eq!(rated, [true, true, true, false, false]);
    let rows = ratings_of(&server, "alice");
    assert_eq!(rows.len(), 1, "{rows:?}");
    let (games, deviation) = rows[0];
    assert_eq!(games, 3);
    // Still provisional: off the leaderboard, which a terminal's lobby shows.
    assert!(deviation > 110.0, "{deviation}");
    let mut command = portable_pty::CommandBuilder::new(serve::ssh_program());
    command.args(server.ssh_args(&dir.join("alice")));
    command.env("TERM", crate::pty::TERM);
    let lobby = crate::pty::Session::spawn(&dir, command, 60, 100);
    let shown = lobby.wait_for("Leaderboard");
    let board = &shown[shown.find("Leaderboard").unwrap()..];
    assert!(!board.contains("alice"), "{shown}");
}

#[test]
fn a_griefer_who_never_moves_gains_nothing_and_is_held() {
    let dir = scratch("server-fair-grief");
    let server = Server::start(&dir, &[]);
    let mut griefer = server.registered(&dir, "griefer");
    let mut victims: Vec<Bot> = (0..5)
        .map(|i| server.registered(&dir, &format!("victim{i}")))
        .collect();
    let mut games = Vec::new();
    for (i, victim) in victims.iter_mut().enumerate() {
        let first = if i % 2 == 0 { "me" } else { "you" };
        let id = victim.ok(&format!(
            "challenge quentin size 5 first {first} clock 10+5"
        ));
        let accepted = griefer.ask(&format!("accept {id}"));
        if i < 4 {
            assert!(accepted.starts_with(&format!("= {id}")), "{accepted}");
            games.push(id);
        } else {
            assert_eq!(
                accepted,
                "? too many live games under way: at most 4 at once (correspondence games apart; \
                 each live tournament you are in counts as one)"
            );
        }
    }
    // The victims who moved first move; then every victim resigns to get out.
    for (i, id) in games.iter().enumerate() {
        if i % 2 == 0 {
            assert_eq!(victims[i].ask(&format!("play {id} c3")), "=");
        }
        victims[i].ok(&format!("resign {id}"));
        let (_, result) = terms(&mut victims[i], id);
        assert!(result.starts_with("# Game aborted"), "{result}");
    }
    assert!(ratings_of(&server, "griefer").is_empty());
    assert!(ratings_of(&server, "victim0").is_empty());
    // Four games left without a move: held from rated games, casual ones still open.
    let held = griefer.ask("challenge quentin size 5");
    assert!(
        held.starts_with("? held from rated games for 20 more minutes"),
        "{held}"
    );
    griefer.ok("challenge quentin size 5 casual");
    // The victims are not held: the games they left unmoved were not theirs to move.
    victims[1].ok("challenge quentin size 5");
}

#[test]
fn challenges_and_accepts_are_limited_a_minute() {
    let dir = scratch("server-fair-rate");
    let server = Server::start(&dir, &[]);
    let mut spammer = server.registered(&dir, "spammer");
    for _ in 0..10 {
        let id = spammer.ok("challenge brique casual");
        spammer.ok(&format!("withdraw {id}"));
    }
    for _ in 0..10 {
        spammer.ok("challenge konobi casual");
    }
    assert_eq!(
        spammer.ask("challenge quint casual"),
        "? too many challenges and accepts: at most 20 a minute"
    );
    // A minute later, it may again.
    spammer.ok("clock advance 61");
    let listed = spammer.ok("challenges");
    let first = listed.split_whitespace().next().unwrap();
    spammer.ok(&format!("withdraw {first}"));
    spammer.ok("challenge quint casual");
}

#[test]
fn a_network_block_registers_its_most_new_players_an_hour() {
    let dir = scratch("server-fair-signups");
    let server = Server::start(&dir, &["--registrations-per-hour", "3"]);
    for name in ["ann", "ben", "cal"] {
        server.registered(&dir, name);
    }
    let mut fourth = server.bot(&serve::key(&dir, "dan"));
    let refused = fourth.ask("register dan");
    assert!(
        refused.starts_with(
            "? too many new players from this network block: at most 3 an hour; try again in"
        ),
        "{refused}"
    );
    // Players already registered are not held up.
    let mut ann = server.bot(&dir.join("ann"));
    assert_eq!(ann.ask("whoami"), "= ann");
}

/// Issue 59, item 11: a live tournament holds one of a player's places of live play from the
/// join to its end, so that twelve tournaments cannot give one player twelve games at once;
/// and a casual game ended by a player who moved against one who never did is aborted, not
/// won by the one who never played.
#[test]
fn live_tournaments_count_in_the_bound_of_live_games_and_nobody_wins_without_a_move() {
    let dir = scratch("server-fair-tournaments");
    let server = Server::start(&dir, &[]);
    let mut makers: Vec<Bot> = (0..5)
        .map(|i| server.registered(&dir, &format!("maker{i}")))
        .collect();
    let mut busy = server.registered(&dir, "busy");
    let ids: Vec<String> = makers
        .iter_mut()
        .map(|m| m.ok("tournament create roundrobin quentin size 5 clock 2+0 casual"))
        .collect();
    for id in &ids[..4] {
        assert_eq!(busy.ask(&format!("join {id}")), "=");
    }
    assert_eq!(
        busy.ask(&format!("join {}", ids[4])),
        format!(
            "? cannot join {}: you have 4 live games and tournaments under way, the most at \
             once (correspondence apart)",
            ids[4]
        )
    );
    // A live game too is past the bound (its challenge is refused when accepted); a
    // correspondence one is not.
    let mut other = server.registered(&dir, "other");
    let live = busy.ok("challenge quentin size 5 casual");
    assert!(
        other
            .ask(&format!("accept {live}"))
            .starts_with("? too many live games under way: at most 4 at once"),
    );
    let slow = busy.ok("challenge quentin size 5 casual days 3");
    assert!(other.ask(&format!("accept {slow}")).starts_with('='));
    // Leaving one frees its place.
    assert_eq!(busy.ask(&format!("withdraw {}", ids[0])), "=");
    assert_eq!(busy.ask(&format!("join {}", ids[4])), "=");

    // Ann moves, then resigns before Bob has moved: nobody wins a game they never played in.
    let mut ann = server.registered(&dir, "ann");
    let mut bob = server.registered(&dir, "bob");
    let id = ann.ok("challenge quentin size 5 pie off first me casual");
    bob.ok(&format!("accept {id}"));
    assert_eq!(ann.ask(&format!("play {id} c3")), "=");
    assert_eq!(ann.ask(&format!("resign {id}")), "=");
    assert_eq!(bob.ok(&format!("wait {id}")), "over aborted by-player");
    let (_, result) = terms(&mut bob, &id);
    assert!(
        result.starts_with("# Game aborted by ann before both had moved"),
        "{result}"
    );
}
