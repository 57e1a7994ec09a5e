//! The ways of taking the puzzles online (issue 60), through the real OpenSSH client and a
//! real `quentin serve`: on the lobby's puzzle screen, `o` then `4` starts a Streak that
//! rises with each puzzle solved and ends at the first mistake, its best kept by the server
//! across a reconnect; `o` then `5` a Storm whose clock the panel shows running, unrated; in
//! the bot protocol, `puzzle streak`, `puzzle storm`, `puzzle theme T` and `puzzle again`.

use quentin::rules::Game;

use crate::pty::{Session, panel_words, wait_until};
use crate::serve::{Server, scratch};
use crate::server_play::{login, newcomer};
use crate::server_puzzles::{after, offered, shipped, solve_right, wrong_move};

/// Waits until the panel says `text`; its words.
fn wait_panel(session: &Session, text: &str) -> String {
    wait_until(&format!("{text:?} in the panel"), || {
        let words = panel_words(&session.screen());
        words.contains(text).then_some(words)
    })
}

/// The id of the puzzle on the screen, once the panel names one other than `not`.
fn puzzle_on(session: &Session, not: Option<&str>) -> String {
    wait_until("a puzzle on the screen", || {
        let words = panel_words(&session.screen());
        let (_, rest) = words.split_once(" Puzzle ")?;
        let (id, rest) = rest.split_once(' ')?;
        let id = id.to_string();
        let fresh = rest.starts_with("(rated") && Some(id.as_str()) != not;
        (fresh && !words.contains("Take the puzzles:")).then_some(id)
    })
}

/// Types the player's moves of puzzle `id`'s solution, each once the reply before it is on
/// the board, until the panel says it is solved.
fn solve_typed(session: &mut Session, id: &str) {
    let puzzle = shipped(id);
    for (k, action) in puzzle.solution.iter().step_by(2).enumerate() {
        if k > 0 {
            let reply = puzzle.solution[2 * k - 1].to_string();
            wait_panel(session, &format!("answers {reply}"));
        }
        session.send(&format!(":{action}\r"));
    }
}

/// From the lobby: `p`, then `o` and `key` (`4` Streak, `5` Storm); the id of the way's
/// first puzzle.
fn take_puzzles(session: &mut Session, key: &str) -> String {
    session.wait_for("Puzzle leaderboard (p solves puzzles)");
    session.send("p");
    let rated = puzzle_on(session, None);
    session.send("o");
    wait_panel(session, "4 Streak, 5 Storm");
    session.send(key);
    puzzle_on(session, Some(&rated))
}

#[test]
fn a_streak_online_rises_then_ends_at_a_mistake_and_its_best_is_kept_across_a_reconnect() {
    let dir = scratch("puzzle-streak");
    let server = Server::start(&dir, &[]);
    let mut carol = newcomer(&server, &dir, "carol");
    let first = take_puzzles(&mut carol, "4");
    wait_panel(&carol, "Streak 0 (best 0)");
    solve_typed(&mut carol, &first);
    wait_panel(&carol, "Streak 1 (best 1)");
    carol.send("n");
    let second = puzzle_on(&carol, Some(&first));
    // Rising: the second is aimed higher, and none of these is rated.
    assert!(
        shipped(&second).rating >= shipped(&first).rating,
        "{second}"
    );
    let words = wait_panel(&carol, "unrated here");
    assert!(words.contains("Your rating 1500?"), "{words}");
    assert_ne!(
        shipped(&second).setup.game,
        Game::Quint,
        "placements: {second}"
    );
    carol.send(&format!(":{}\r", wrong_move(&second)));
    let words = wait_panel(&carol, "Streak 1 (best 1), over");
    assert!(words.contains("Wrong"), "{words}");
    assert!(words.contains("Your rating 1500?"), "{words}");
    carol.send("q");
    carol.wait_for("Puzzle leaderboard (p solves puzzles)");
    carol.send("q");
    assert!(carol.wait_exit(), "ssh ends when the player leaves");

    // Back with the same key: a new Streak starts at 0, the best kept by the server.
    let mut carol = login(&server, &dir, &dir.join("carol"));
    take_puzzles(&mut carol, "4");
    wait_panel(&carol, "Streak 0 (best 1)");
    // The attempts of the Streak are not the player's rated ones.
    let mut bot = server.bot(&dir.join("carol"));
    assert_eq!(bot.ok("puzzle rating"), "1500? 350 0");
}

#[test]
fn a_storm_online_shows_its_clock_running_and_moves_no_rating() {
    let dir = scratch("puzzle-storm");
    let server = Server::start(&dir, &[]);
    let mut dave = newcomer(&server, &dir, "dave");
    let first = take_puzzles(&mut dave, "5");
    let clock = |words: &str| after(words, "Storm")[0].trim_end_matches(',').to_string();
    let shown = clock(&wait_panel(&dave, ", 0 solved, run 0 (best 0)"));
    assert!(
        shown.starts_with("3:00") || shown.starts_with("2:"),
        "{shown}"
    );
    // The clock runs on the screen without a key pressed.
    wait_until("the Storm's clock to move", || {
        let words = panel_words(&dave.screen());
        (words.contains("Storm ") && clock(&words) != shown).then_some(())
    });
    solve_typed(&mut dave, &first);
    // Right: the next puzzle at once.
    let second = puzzle_on(&dave, Some(&first));
    wait_panel(&dave, "1 solved, run 1 (best 1)");
    assert_ne!(
        shipped(&second).setup.game,
        Game::Quint,
        "placements: {second}"
    );
    dave.send(&format!(":{}\r", wrong_move(&second)));
    let words = wait_panel(&dave, "10 s off the clock.");
    assert!(words.contains("1 solved, run 0 (best 1)"), "{words}");
    assert!(words.contains("Your rating 1500?"), "{words}");
    let mut bot = server.bot(&dir.join("dave"));
    assert_eq!(bot.ok("puzzle rating"), "1500? 350 0");
}

#[test]
fn a_bot_takes_a_streak_a_storm_a_theme_and_its_failed_puzzles_again() {
    let dir = scratch("puzzle-ways-bot");
    let server = Server::start(&dir, &[]);
    let mut bot = server.registered(&dir, "erin");
    // Streak: rising, unrated, ended by a wrong move.
    let (first, _) = offered(&bot.ok("puzzle streak"));
    let solved = solve_right(&mut bot, &first);
    assert!(solved.ends_with(" streak 1 best 1"), "{solved}");
    let (second, _) = offered(&bot.ok("puzzle streak"));
    assert_ne!(second, first);
    assert!(
        shipped(&second).rating >= shipped(&first).rating,
        "{second}"
    );
    let wrong = bot.ok(&format!("solve {second} {}", wrong_move(&second)));
    assert!(wrong.starts_with("wrong "), "{wrong}");
    assert!(wrong.contains(" streak 1 best 1 over solution "), "{wrong}");
    // A Streak's puzzle counts as shown to the network: rated later, it moves nothing.
    let mut again = server.bot(&dir.join("erin"));
    let solved = solve_right(&mut again, &first);
    assert!(solved.ends_with(" unrated"), "{solved}");
    // The next `puzzle streak` starts a new one, on a puzzle not given yet.
    let (third, _) = offered(&bot.ok("puzzle streak"));
    assert!(third != first && third != second, "{third}");
    // Storm: its clock in each answer, unrated.
    let (storm, _) = offered(&bot.ok("puzzle storm"));
    let solved = solve_right(&mut bot, &storm);
    let words = after(&solved, "storm");
    assert!(words[0].contains(':'), "{solved}");
    assert_eq!(
        &words[1..],
        ["solved", "1", "missed", "0", "run", "1", "best", "1"]
    );
    assert_eq!(bot.ok("puzzle rating"), "1500? 350 0");
    // A theme: rated puzzles of that theme.
    for theme in ["weak-link", "capture", "win3"] {
        let (id, _) = offered(&bot.ok(&format!("puzzle theme {theme}")));
        assert!(shipped(&id).themes.contains(&theme), "{theme}: {id}");
    }
    let refused = bot.ask("puzzle theme nope");
    assert!(refused.starts_with("? no theme "), "{refused}");
    assert!(refused.contains("weak-link"), "{refused}");
    // Again: none failed yet; then the rated puzzle failed comes back.
    assert_eq!(bot.ask("puzzle again"), "? no failed puzzle to take again");
    let (rated, _) = offered(&bot.ok("puzzle"));
    let wrong = bot.ok(&format!("solve {rated} {}", wrong_move(&rated)));
    assert!(wrong.contains(" rating "), "rated: {wrong}");
    let (again, _) = offered(&bot.ok("puzzle again"));
    assert_eq!(again, rated);
    let solved = solve_right(&mut bot, &again);
    assert!(
        solved.ends_with(" retry"),
        "tried before, nothing moves: {solved}"
    );
    let words = bot.ok("puzzle rating");
    assert!(words.ends_with(" 1"), "one rated attempt: {words}");
}
