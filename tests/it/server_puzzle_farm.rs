//! A second key cannot farm the puzzle ratings (issue 59), through the real OpenSSH client and
//! a real `quentin serve`: a puzzle whose solution was shown to one key (a failed attempt) is
//! not rated for a key of the same network block; a rating moves at most 50 points an
//! attempt; fresh keys' failures move a puzzle's rating a fifth as much as an established
//! player's. Before, one key failing each puzzle and a second
//! solving it at once took the second from 1500 to 2479 in 60 puzzles, first on the
//! leaderboard, and 16 fresh keys' failures pushed one puzzle from 1120 to 1796.

use crate::serve::{Bot, Server, bot_from, key, scratch};
use crate::server_puzzles::{after, offered, ratings, shipped, solve_right, wrong_move};

/// A registered bot `name` with a key of its own, from loopback address `from`.
fn from(server: &Server, dir: &std::path::Path, name: &str, at: Option<&str>) -> Bot {
    let mut bot = bot_from(&key(dir, name), server.port, at);
    bot.ok(&format!("register {name}"));
    bot
}

/// Fails puzzle `id` with a wrong first move: the answer shows its solution.
fn fail(bot: &mut Bot, id: &str) -> String {
    let wrong = bot.ok(&format!("solve {id} {}", wrong_move(id)));
    assert!(wrong.starts_with("wrong "), "{wrong}");
    assert!(!after(&wrong, "solution").is_empty(), "{wrong}");
    wrong
}

#[test]
fn a_second_key_of_the_network_gains_nothing_from_the_first_keys_failures() {
    let dir = scratch("puzzle-farm");
    let server = Server::start(&dir, &[]);
    let mut shower = from(&server, &dir, "shower", None);
    let mut farmer = from(&server, &dir, "farmer", None);
    // The farm, replayed on ten puzzles: the first key fails each, the second solves it.
    for _ in 0..10 {
        let (id, start) = offered(&shower.ok("puzzle quentin"));
        fail(&mut shower, &id);
        let (_, now) = offered(&farmer.ok(&format!("puzzle {id}")));
        assert!(
            now >= start,
            "the failure lifted the puzzle: {start} -> {now}"
        );
        let solved = solve_right(&mut farmer, &id);
        assert!(solved.ends_with(" unrated"), "{solved}");
        let (mine, up, puzzle, down) = ratings(&solved);
        assert_eq!(
            (mine.as_str(), up, puzzle, down),
            ("1500?", 0, now, 0),
            "{solved}"
        );
    }
    // Nothing was rated: the farmer's puzzle rating is where it began, and off the board.
    assert_eq!(farmer.ok("puzzle rating"), "1500? 350 0");
    let leaders = farmer.ok("puzzle leaders");
    assert!(!leaders.contains("farmer"), "{leaders}");
}

#[test]
fn another_network_is_rated_bounded_and_fresh_keys_move_a_puzzle_little() {
    let dir = scratch("puzzle-networks");
    let server = Server::start(&dir, &[]);
    let mut shower = from(&server, &dir, "shower", None);
    let (id, _) = offered(&shower.ok("puzzle konobi"));
    let start = shipped(&id).rating as i64;
    fail(&mut shower, &id);
    // Another network: rated, and the player's rise bounded.
    let mut far = from(&server, &dir, "far", Some("127.0.2.1"));
    let solved = solve_right(&mut far, &id);
    assert!(
        !solved.contains("unrated") && !solved.contains("retry"),
        "{solved}"
    );
    let (_, up, _, _) = ratings(&solved);
    assert!(
        up > 0 && up <= 50,
        "a first solve moved the player {up}: {solved}"
    );
    // Sixteen fresh keys from sixteen networks fail the puzzle: each counts a fifth in its
    // rating, which rises far less than the 676 points it rose before.
    let mut risen = 0;
    for n in 0..16 {
        let mut fresh = from(
            &server,
            &dir,
            &format!("fresh{n}"),
            Some(&format!("127.1.{n}.1")),
        );
        let wrong = fail(&mut fresh, &id);
        assert!(!wrong.contains("unrated"), "{wrong}");
        let (_, fell, puzzle, rose) = ratings(&wrong);
        assert!((-50..0).contains(&fell) && rose >= 0, "{wrong}");
        risen = puzzle - start;
    }
    assert!(risen < 250, "sixteen fresh keys lifted the puzzle {risen}");
}
