//! Puzzles on the server, through the real OpenSSH client and a real `quentin serve`: two
//! players' first attempts at one puzzle move its rating and theirs, on SQLite and on
//! PostgreSQL (there from two processes, at once); a second attempt moves nothing; a bad
//! `solve` is refused saying why, nothing recorded; the leaderboard leaves provisional
//! ratings off.

use quentin::rules::Action;
use quentin::search::puzzles::Puzzle;

use crate::pty;
use crate::serve::pg::{Database, query_i64};
use crate::serve::{Bot, Server, key, scratch};
use crate::server_play::newcomer;

/// The shipped puzzle of `id`, as the server loaded it.
pub fn shipped(id: &str) -> Puzzle {
    quentin::puzzles::shipped()
        .unwrap()
        .into_iter()
        .flat_map(|set| set.puzzles)
        .find(|p| p.id == id)
        .unwrap_or_else(|| panic!("no shipped puzzle {id}"))
}

/// The words of `line` after the word `key`, up to the end.
pub fn after<'a>(line: &'a str, key: &str) -> Vec<&'a str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words
        .iter()
        .position(|w| *w == key)
        .unwrap_or_else(|| panic!("no {key} in {line}"));
    words[at + 1..].to_vec()
}

/// A puzzle offered by `puzzle ...`: its id and its rating now.
pub fn offered(line: &str) -> (String, i64) {
    let id = line.split_whitespace().next().unwrap().to_string();
    (id, after(line, "rating")[0].parse().unwrap())
}

/// The ratings an answer of `solve` says: the player's (as shown, `1662?`), its change, the
/// puzzle's and its change.
pub fn ratings(line: &str) -> (String, i64, i64, i64) {
    let words = after(line, "rating");
    assert_eq!(words[2], "puzzle", "{line}");
    let n = |w: &str| w.parse::<i64>().unwrap_or_else(|_| panic!("{w} in {line}"));
    (words[0].to_string(), n(words[1]), n(words[3]), n(words[4]))
}

/// Solves puzzle `id` move by move, as a bot does: each `solve` sends the moves so far; the
/// answers are `right REPLY` (the solution's reply) until the last, which it returns.
pub fn solve_right(bot: &mut Bot, id: &str) -> String {
    let puzzle = shipped(id);
    let mine: Vec<String> = puzzle
        .solution
        .iter()
        .step_by(2)
        .map(ToString::to_string)
        .collect();
    for k in 1..=mine.len() {
        let answer = bot.ok(&format!("solve {id} {}", mine[..k].join(" ")));
        if k < mine.len() {
            assert_eq!(answer, format!("right {}", puzzle.solution[2 * k - 1]));
        } else {
            assert!(answer.starts_with("solved "), "{answer}");
            return answer;
        }
    }
    unreachable!("a solution has a move")
}

/// A legal first move of puzzle `id` that is not the solution's.
pub fn wrong_move(id: &str) -> Action {
    let puzzle = shipped(id);
    puzzle
        .position()
        .unwrap()
        .legal_actions()
        .into_iter()
        .find(|a| *a != puzzle.solution[0])
        .unwrap()
}

/// `puzzle rating`'s rating as shown and the attempts it counts.
fn rating_of(bot: &mut Bot) -> (String, i64) {
    let answer = bot.ok("puzzle rating");
    let words: Vec<&str> = answer.split_whitespace().collect();
    (words[0].to_string(), words[2].parse().unwrap())
}

/// Alice solves the puzzle both are offered first, Bob fails it: each rating moves, and the
/// puzzle's twice; a second attempt moves nothing. `bots` may be on two processes.
fn two_attempts(alice: &mut Bot, bob: &mut Bot) -> String {
    let (id, start) = offered(&alice.ok("puzzle quentin"));
    // Both at 1500: the same puzzle, the nearest to 1500.
    assert_eq!(offered(&bob.ok("puzzle quentin")).0, id);
    assert!(id.starts_with("quentin-"), "{id}");

    let solved = solve_right(alice, &id);
    let (mine, up, puzzle, down) = ratings(&solved);
    assert!(up > 0 && down < 0, "{solved}");
    assert_eq!(mine, format!("{}?", 1500 + up));
    assert_eq!(puzzle, start + down);
    assert!(!solved.contains("retry"), "{solved}");

    let wrong = bob.ok(&format!("solve {id} {}", wrong_move(&id)));
    assert!(wrong.starts_with("wrong "), "{wrong}");
    let (theirs, fell, again, rose) = ratings(&wrong);
    assert!(fell < 0 && rose > 0, "{wrong}");
    assert_eq!(theirs, format!("{}?", 1500 + fell));
    assert_eq!(
        again,
        puzzle + rose,
        "the puzzle's rating moved from Alice's"
    );
    let solution: Vec<String> = shipped(&id)
        .solution
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(after(&wrong, "solution"), solution, "{wrong}");
    // The refutation: the opponent's reply, legal after the wrong move.
    let refutation = after(&wrong, "wrong")[0];
    let mut pos = shipped(&id).position().unwrap();
    pos.play(wrong_move(&id)).unwrap();
    assert!(
        pos.is_legal(Action::parse(refutation).unwrap()),
        "{refutation} after {wrong}"
    );

    // A second attempt, right this time: nothing moves.
    let retry = solve_right(bob, &id);
    let (same, zero, unmoved, none) = ratings(&retry);
    assert_eq!(
        (same.as_str(), zero, unmoved, none),
        (theirs.as_str(), 0, again, 0)
    );
    assert!(retry.ends_with(" retry"), "{retry}");
    assert_eq!(rating_of(bob), (theirs, 1));
    assert_eq!(rating_of(alice), (mine, 1));
    // The next puzzle is another.
    assert_ne!(offered(&alice.ok("puzzle quentin")).0, id);
    id
}

#[test]
fn two_players_first_attempts_move_the_puzzles_rating_and_theirs_and_a_second_moves_nothing() {
    let dir = scratch("puzzles-two");
    let server = Server::start(&dir, &[]);
    let mut alice = server.registered(&dir, "alice");
    let mut bob = server.registered(&dir, "bob");
    two_attempts(&mut alice, &mut bob);
}

#[test]
fn two_players_attempts_count_on_postgresql_from_two_processes_at_once() {
    let Some(db) = Database::new("puzzles_two_processes") else {
        return;
    };
    let dir = scratch("puzzles-pg");
    let servers: Vec<Server> = (0..2)
        .map(|_| Server::start(&dir, &["--database", &db.url]))
        .collect();
    let mut alice = servers[0].registered(&dir, "alice");
    // Bob on a network of his own: a solution shown to Alice's would leave his attempts
    // unrated (tests/it/server_puzzle_farm.rs).
    let mut bob = crate::serve::bot_from(&key(&dir, "bob"), servers[1].port, Some("127.0.4.1"));
    bob.ok("register bob");
    let id = two_attempts(&mut alice, &mut bob);
    let attempts = |id: &str| {
        query_i64(
            &db.url,
            &format!("SELECT attempts FROM puzzles WHERE id = '{id}'"),
        )
    };
    assert_eq!(attempts(&id), 2);
    // The next puzzle for both, answered at the same moment on the two processes: both
    // attempts count, each rating moved from the other's.
    let next = "konobi-0001".to_string();
    assert_eq!(offered(&alice.ok(&format!("puzzle {next}"))).0, next);
    assert_eq!(offered(&bob.ok(&format!("puzzle {next}"))).0, next);
    let wrong = wrong_move(&next);
    alice.send(&format!("solve {next} {wrong}"));
    bob.send(&format!("solve {next} {wrong}"));
    let answers = [alice.answer(), bob.answer()];
    for a in &answers {
        assert!(a.starts_with("= wrong "), "{a}");
    }
    assert_eq!(attempts(&next), 2);
    let risen = answers.each_ref().map(|a| ratings(a).2);
    let start = shipped(&next).rating as i64;
    assert!(risen.iter().all(|r| *r > start), "{answers:?}");
    assert_ne!(
        risen[0], risen[1],
        "each attempt moved the puzzle: {answers:?}"
    );
    assert_eq!(
        query_i64(
            &db.url,
            &format!("SELECT round(rating)::BIGINT FROM puzzles WHERE id = '{next}'"),
        ),
        *risen.iter().max().unwrap()
    );
}

#[test]
fn a_bad_solve_is_refused_saying_why_and_nothing_is_recorded() {
    let dir = scratch("puzzles-bad");
    let server = Server::start(&dir, &[]);
    let mut bot = server.registered(&dir, "alice");
    let (id, _) = offered(&bot.ok("puzzle brique"));
    let puzzle = shipped(&id);
    let taken = puzzle.line[0];
    let refusals = [
        (
            "solve brique-9999 a1",
            "? no puzzle brique-9999".to_string(),
        ),
        ("solve", "? solve ID MOVE...".to_string()),
        (
            &format!("solve {id}") as &str,
            "? solve ID MOVE...".to_string(),
        ),
        (
            &format!("solve {id} zz9!") as &str,
            "? illegal move: move 1, zz9!: not an action".to_string(),
        ),
        (
            &format!("solve {id} {taken}") as &str,
            format!("? illegal move: move 1, {taken}, is not legal: "),
        ),
        ("puzzle chess", "? no game chess".to_string()),
    ];
    for (line, said) in refusals {
        let answer = bot.ask(line);
        assert!(answer.starts_with(&said), "{line}: {answer}");
    }
    let long: Vec<String> = puzzle.solution.iter().map(ToString::to_string).collect();
    let too_long = bot.ask(&format!("solve {id} {} {}", long.join(" "), long[0]));
    assert!(too_long.starts_with("? "), "{too_long}");
    // Nothing was recorded: the rating is the start's, and the puzzle is offered again.
    assert_eq!(rating_of(&mut bot), ("1500?".to_string(), 0));
    assert_eq!(offered(&bot.ok("puzzle brique")).0, id);
}

#[test]
fn the_puzzle_leaderboard_leaves_provisional_ratings_off() {
    let dir = scratch("puzzles-leaders");
    let server = Server::start(&dir, &[]);
    let mut alice = server.registered(&dir, "alice");
    let mut bob = server.registered(&dir, "bob");
    // Bob tries one puzzle: provisional, off the board.
    let (id, _) = offered(&bob.ok("puzzle quint"));
    solve_right(&mut bob, &id);
    assert_eq!(alice.ask("puzzle leaders"), "=");
    // Alice solves puzzles until her rating is no longer provisional.
    let mut solved = 0;
    loop {
        let (shown, _) = rating_of(&mut alice);
        if !shown.ends_with('?') {
            break;
        }
        let (id, _) = offered(&alice.ok("puzzle"));
        solve_right(&mut alice, &id);
        solved += 1;
        assert!(
            solved < 60,
            "still provisional after {solved} puzzles: {shown}"
        );
    }
    let board = alice.ok("puzzle leaders");
    let words: Vec<&str> = board.split_whitespace().collect();
    assert_eq!(words.len(), 5, "one line, Alice's: {board}");
    assert_eq!(&words[..2], ["1", "alice"]);
    assert_eq!(words[4], solved.to_string());
    assert!(words[3].parse::<i64>().unwrap() <= 110, "{board}");
}

/// The shipped puzzle a newcomer (1500) is offered first: the nearest to 1500, the first by id.
fn first_for_newcomers() -> Puzzle {
    let mut all: Vec<Puzzle> = quentin::puzzles::shipped()
        .unwrap()
        .into_iter()
        .flat_map(|set| set.puzzles)
        .collect();
    all.sort_by_key(|p| ((i64::from(p.rating) - 1500).abs(), p.id.clone()));
    all.remove(0)
}

/// The keys that take the cursor of a board of `size` from its centre, where it starts (c3 on
/// 5×5, d4 on 6×6), to `to` (a placement), then play there: `h` left, `l` right, `j` down,
/// `k` up, Enter.
fn keys_to(to: Action, size: usize) -> String {
    let name = to.to_string();
    let column = i32::from(name.as_bytes()[0]) - i32::from(b'a');
    let row: i32 = name[1..].parse::<i32>().unwrap() - 1;
    let centre = i32::try_from(size / 2).unwrap();
    let (dc, dr) = (column - centre, row - centre);
    let mut keys = String::new();
    keys.extend(std::iter::repeat_n(
        if dc < 0 { 'h' } else { 'l' },
        dc.unsigned_abs() as usize,
    ));
    keys.extend(std::iter::repeat_n(
        if dr < 0 { 'j' } else { 'k' },
        dr.unsigned_abs() as usize,
    ));
    keys.push('\r');
    keys
}

/// The words of a game screen's panel (right of the board, inside its border), its lines
/// joined: a message wrapped over several lines reads whole.
fn panel(screen: &str) -> String {
    let words: Vec<&str> = screen
        .lines()
        .filter_map(|line| {
            let inner = line.split_once('│')?.1;
            Some(inner.rsplit_once('│').map_or(inner, |(text, _)| text))
        })
        .flat_map(str::split_whitespace)
        .collect();
    words.join(" ")
}

/// Waits until the panel of `session`'s screen says `text`; the panel's words.
fn wait_panel(session: &pty::Session, text: &str) -> String {
    pty::wait_until(&format!("{text:?} in the panel"), || {
        let words = panel(&session.screen());
        words.contains(text).then_some(words)
    })
}

#[test]
fn a_puzzle_opened_from_the_lobby_is_solved_or_refuted_on_its_screen_with_the_ratings() {
    let dir = scratch("puzzles-screen");
    let server = Server::start(&dir, &[]);
    let first = first_for_newcomers();
    assert_eq!(first.setup.size, 5, "{first:?}");
    assert_eq!(first.solution.len(), 1, "one move: {first:?}");
    let mut carol = newcomer(&server, &dir, "carol");
    carol.wait_for("Puzzle leaderboard (p solves puzzles)");
    carol.send("p");
    // A screen of its own: the setup is the position given, no clock, no resignation.
    let opened = wait_panel(&carol, &format!("Puzzle {} (rated", first.id));
    assert!(
        opened.contains("Actions from the position given none yet"),
        "{opened}"
    );
    assert!(opened.contains("Your rating 1500?, streak 0"), "{opened}");
    for game_only in ["0:00", "resign", "puzzle:"] {
        assert!(!opened.contains(game_only), "{game_only}: {opened}");
    }
    carol.send(&keys_to(first.solution[0], first.setup.size));
    let said = wait_panel(&carol, "Your puzzle rating: 1");
    assert!(said.contains("Solved!"), "{said}");
    assert!(said.contains("; the puzzle's: "), "{said}");
    assert!(said.contains("streak 1"), "{said}");
    // The next puzzle is another; q goes back to the lobby.
    carol.send("n");
    let old = format!("Puzzle {} ", first.id);
    pty::wait_until("the next puzzle", || {
        let words = panel(&carol.screen());
        (words.contains("Puzzle ") && !words.contains(&old)).then_some(())
    });
    carol.send("q");
    carol.wait_for("Puzzle leaderboard (p solves puzzles)");

    // Dave, new too, is offered the next nearest (the first one's rating moved) and plays a
    // wrong move: it is refuted on the board, his rating falls, and v shows the solution.
    let mut dave = newcomer(&server, &dir, "dave");
    dave.send("p");
    let words = wait_panel(&dave, "to move");
    let id = after(&words, "Puzzle")[0].to_string();
    let theirs = shipped(&id);
    assert_ne!(
        theirs.setup.game,
        quentin::rules::Game::Quint,
        "placements only: {id}"
    );
    // A hint first marks an area that still leaves a choice.
    dave.send("t");
    wait_panel(&dave, "Hint: the move is in ");
    let wrong = wrong_move(&id);
    dave.send(&keys_to(wrong, theirs.setup.size));
    let said = wait_panel(&dave, "Your puzzle rating: 1");
    assert!(said.contains("Wrong: "), "{said}");
    assert!(said.contains(&format!(" played {wrong}")), "{said}");
    assert!(
        said.contains(" answers "),
        "the refutation is played: {said}"
    );
    assert!(said.contains(" (-"), "his rating fell: {said}");
    dave.send("v");
    let solution: Vec<String> = theirs.solution.iter().map(ToString::to_string).collect();
    wait_panel(&dave, &format!("Solution: {}.", solution.join(", ")));
    // The puzzle's rating moved.
    let mut erin = server.registered(&dir, "erin");
    let line = erin.ok(&format!("puzzle {id}"));
    assert!(offered(&line).1 > i64::from(theirs.rating), "{line}");
}

/// The rating of the shipped puzzles' nearest to `target`: what a fresh server offers a
/// player who aims there.
fn nearest_shipped(target: i64) -> i64 {
    quentin::puzzles::shipped()
        .unwrap()
        .into_iter()
        .flat_map(|set| set.puzzles)
        .map(|p| i64::from(p.rating))
        .min_by_key(|r| (r - target).abs())
        .unwrap()
}

#[test]
fn a_bot_asks_for_each_difficulty_and_gets_a_puzzle_300_below_at_or_300_above_its_rating() {
    let dir = scratch("puzzles-difficulty");
    let server = Server::start(&dir, &[]);
    let mut bot = server.registered(&dir, "alice");
    // A new player's puzzle rating is 1500: easier aims at 1200, harder at 1800.
    for (words, target) in [
        ("puzzle difficulty easier", 1200),
        ("puzzle difficulty normal", 1500),
        ("puzzle difficulty harder", 1800),
    ] {
        let (_, rating) = offered(&bot.ok(words));
        assert_eq!(
            (rating - target).abs(),
            (nearest_shipped(target) - target).abs(),
            "{words}: {rating}"
        );
    }
    let refused = bot.ask("puzzle difficulty hard");
    assert!(
        refused.contains("no difficulty \"hard\": easier, normal or harder")
            || refused.contains("no difficulty hard: easier, normal or harder"),
        "{refused}"
    );
}
