//! People play over the network, end to end: the real OpenSSH client in pseudo-terminals, a real
//! `quentin serve`. Two players log in with their keys and pick names, one challenges, the
//! other accepts, they play a Quentin 5×5 game to a win with the game's keys while a third
//! watches it live; the record fetched with `ssh ... record ID` replays with `quentin replay`.
//! The lobby answers the mouse: a click selects a line, a second one opens it.

use crate::pty;
use crate::serve;

use portable_pty::CommandBuilder;
use pty::Session;
use serve::{Server, key, scratch};

/// The screen's row and column (from 0) where `text` is shown.
fn place_of(screen: &str, text: &str) -> (usize, usize) {
    screen
        .lines()
        .enumerate()
        .find_map(|(row, line)| Some((row, line.find(text)?)))
        .unwrap_or_else(|| panic!("{text:?} is not on the screen:\n{screen}"))
}

/// What a terminal sends for the mouse in SGR mode (which the server asks for): `button` at
/// `(row, column)` from 0, pressed and released; a wheel step is pressed only.
fn mouse(button: u8, (row, column): (usize, usize)) -> String {
    let at = format!("{button};{};{}", column + 1, row + 1);
    if button >= 64 {
        format!("\x1b[<{at}M")
    } else {
        format!("\x1b[<{at}M\x1b[<{at}m")
    }
}

/// An interactive `ssh` to the server in an 80×24 pseudo-terminal.
pub(crate) fn login(server: &Server, dir: &std::path::Path, key: &std::path::Path) -> Session {
    login_with(server, dir, key, &[])
}

/// [`login`] with ssh's own `options` first (ssh keeps the first value it reads of each).
pub(crate) fn login_with(
    server: &Server,
    dir: &std::path::Path,
    key: &std::path::Path,
    options: &[&str],
) -> Session {
    let mut command = CommandBuilder::new(serve::ssh_program());
    command.args(options);
    command.args(server.ssh_args(key));
    command.env("TERM", pty::TERM);
    Session::spawn(dir, command, 24, 80)
}

/// Logs in with a new key and picks `name`; the lobby is then shown.
pub(crate) fn newcomer(server: &Server, dir: &std::path::Path, name: &str) -> Session {
    newcomer_with(server, dir, name, &[])
}

/// [`newcomer`] with ssh's own options `options` first.
pub(crate) fn newcomer_with(
    server: &Server,
    dir: &std::path::Path,
    name: &str,
    options: &[&str],
) -> Session {
    let mut session = login_with(server, dir, &key(dir, name), options);
    session.wait_for("pick a name");
    session.send(&format!("{name}\r"));
    session.wait_for("Open challenges");
    session
}

#[test]
fn two_players_play_a_game_over_ssh_while_a_third_watches() {
    let dir = scratch("server-play");
    let server = Server::start(&dir, &[]);
    let mut alice = newcomer(&server, &dir, "alice");
    let mut bob = newcomer(&server, &dir, "bob");
    let mut carol = newcomer(&server, &dir, "carol");
    // Who is online, each with a rating (`new` before a rated game).
    bob.wait_for("alice new, bob new");

    // Alice challenges: Quentin (the form's first game), 5×5, she moves first.
    alice.send("c");
    alice.wait_for("New challenge");
    alice.send("jhhhhhhhhjjl\r");
    alice.wait_for("Challenge #1 made: quentin 5x5 pie on, 10+5, rated");

    // Bob sees it (the first line he can select) and accepts: the game opens for both.
    // With the challenger's rating and who moves first, from bob's side.
    bob.wait_for("#1 quentin 5x5 pie on, 10+5, rated by alice 1500?, alice moves first");
    bob.send("\r");
    bob.wait_for("bob (you) 1500");
    alice.wait_for("alice (you) 1500");

    // Carol watches it from the games being played.
    carol.wait_for("#1 quentin alice vs bob");
    carol.send("\r");
    carol.wait_for("watching");

    // Black (alice) c1 c2 c3 c4 c5, White (bob) a5 a4 e5 e4; each cursor starts at c3.
    let black = ["jj", "k", "k", "k", "k"];
    let white = ["hhkk", "j", "llllk", "j"];
    let names = ["c1", "a5", "c2", "a4", "c3", "e5", "c4", "e4", "c5"];
    for (n, name) in names.iter().enumerate() {
        let (mover, keys) = if n % 2 == 0 {
            (&mut alice, black[n / 2])
        } else {
            (&mut bob, white[n / 2])
        };
        mover.send(&format!("{keys}\r"));
        // Each screen names the mover: `You` to the mover, the name to the others.
        let mover = if n % 2 == 0 { "alice" } else { "bob" };
        for (screen, me) in [(&alice, "alice"), (&bob, "bob"), (&carol, "carol")] {
            let who = if me == mover { "You" } else { mover };
            screen.wait_for(&format!("{who} played {name}."));
        }
    }
    // The banner from each side: the winner's, the loser's, a watcher's.
    alice.wait_for("You joined top and bottom: you win");
    bob.wait_for("alice joined top and bottom: you lose");
    carol.wait_for("alice joined top and bottom and wins");
    // Watchers cannot act: a key on Carol's board is refused.
    carol.send("\r");
    carol.wait_for("The game is over");

    // Back to the lobby; the result is listed, and the record replays.
    alice.send("q");
    alice.wait_for("#1 quentin: alice joined top and bottom and wins");
    let record = dir.join("game-1.txt");
    std::fs::write(&record, server.record(&dir.join("alice"), "1")).unwrap();
    let replay = crate::isolated::quentin()
        .args(["replay", "--print"])
        .arg(&record)
        .output()
        .unwrap();
    assert!(replay.status.success(), "{replay:?}");
    let text = String::from_utf8(replay.stdout).unwrap();
    assert!(
        text.contains("Black wins with a chain of 5 stones"),
        "{text}"
    );
    assert!(
        text.contains("Player 1: alice") && text.contains("Player 2: bob"),
        "{text}"
    );
    // q leaves a game for the lobby, and the lobby for the shell.
    for session in [&mut bob, &mut carol] {
        session.send("q");
        session.wait_for("Recent results");
    }
    for mut session in [alice, bob, carol] {
        session.send("q");
        assert!(session.wait_exit(), "ssh ends when the player leaves");
        session.assert_restored();
    }
}

#[test]
fn in_the_lobby_a_click_selects_a_line_a_second_click_opens_it_and_the_wheel_moves() {
    let dir = scratch("server-mouse");
    let server = Server::start(&dir, &[]);
    // Two challenges, from bots.
    let mut alice = server.registered(&dir, "alice");
    alice.ok("challenge konobi size 9");
    let mut carol = server.registered(&dir, "carol");
    carol.ok("challenge brique size 11 casual");
    let mut bob = newcomer(&server, &dir, "bob");
    let screen = bob.wait_for("by carol");
    assert!(screen.contains("> #1 konobi"), "{screen}");

    // A click on Carol's challenge selects it and does no more.
    bob.send(&mouse(0, place_of(&screen, "#2 brique")));
    bob.wait_for("> #2 brique");
    // The wheel moves the selection up and down a line at a time.
    bob.send(&mouse(64, (10, 10)));
    bob.wait_for("> #1 konobi");
    bob.send(&mouse(65, (10, 10)));
    let screen = bob.wait_for("> #2 brique");
    // A click on the selected line accepts it, as Enter does: the game opens.
    bob.send(&mouse(0, place_of(&screen, "#2 brique")));
    bob.wait_for("bob (you) 1500");
    assert!(carol.ok("games").starts_with("2 brique 11 bob"));
    // Alice's challenge, which the wheel passed over, is still open.
    assert!(alice.ok("challenges").starts_with("1 konobi 9 alice"));
    bob.send("q");
    bob.wait_for("Recent results");
    bob.send("q");
    assert!(bob.wait_exit());
}

#[test]
fn a_terminal_left_alone_is_told_why_given_back_and_closed_after_the_idle_timeout() {
    let dir = scratch("server-idle");
    let server = Server::start(&dir, &["--idle-timeout", "1"]);
    // A new key, and not a key pressed: the name is never picked.
    let mut alone = login(&server, &dir, &key(&dir, "alice"));
    alone.wait_output("quentin: closed after 1 second without a key; your games wait for you.");
    assert!(
        alone.wait_exit(),
        "ssh ends as the server closes the session"
    );
    alone.assert_restored();
}

#[test]
fn a_server_stopped_by_sigint_gives_every_terminal_back_and_says_so() {
    let dir = scratch("server-sigint");
    let mut server = Server::start(&dir, &[]);
    let mut alice = newcomer(&server, &dir, "alice");
    let mut bot = server.registered(&dir, "bob");
    let id = bot.ok("challenge quentin size 5 first you");
    // Alice's game, to be in one when the server stops; the bot waits for its turn.
    alice.wait_for(&format!("#{id} quentin"));
    alice.send("\r");
    alice.wait_for("alice (you)");
    bot.send(&format!("wait {id}"));
    assert!(server.signal("INT").success(), "the server exits with 0");
    assert!(
        alice.wait_exit(),
        "ssh ends as the server closes the session"
    );
    let raw = alice.all_output();
    let raw = String::from_utf8_lossy(&raw);
    let tail = &raw[raw.rfind("\x1b[?1049h").unwrap()..];
    let message = "quentin: the server is shutting down; your games are saved.\r\n";
    assert!(tail.ends_with(message), "{tail:?}");
    alice.assert_restored();
    assert_eq!(bot.answer(), "? the server is shutting down");
}

/// Whether `raw` sets a colour: an SGR sequence (`CSI ... m`) with a foreground or background
/// colour (30-38, 40-48, 90-97, 100-107; 38 and 48 start the 256-colour and RGB forms).
fn sets_colour(raw: &[u8]) -> bool {
    let raw = String::from_utf8_lossy(raw);
    raw.split("\x1b[").skip(1).any(|sequence| {
        let end = sequence
            .find(|c: char| !c.is_ascii_digit() && c != ';')
            .unwrap_or(sequence.len());
        sequence[end..].starts_with('m')
            && sequence[..end].split(';').any(|p| {
                matches!(
                    p.parse::<u32>(),
                    Ok(30..=38 | 40..=48 | 90..=97 | 100..=107)
                )
            })
    })
}

#[test]
fn no_color_sent_with_setenv_draws_the_lobby_without_colours() {
    let dir = scratch("server-no-color");
    let server = Server::start(&dir, &[]);
    let plain = newcomer_with(&server, &dir, "alice", &["-o", "SetEnv=NO_COLOR=1"]);
    let coloured = newcomer(&server, &dir, "bob");
    // Enter on an empty list: a refusal, red where colours are drawn.
    for (mut session, colours) in [(plain, false), (coloured, true)] {
        session.send("\r");
        session.wait_for("Nothing to open: c makes a challenge.");
        session.send("q");
        assert!(session.wait_exit());
        let raw = session.all_output();
        assert_eq!(
            sets_colour(&raw),
            colours,
            "{}",
            String::from_utf8_lossy(&raw)
        );
    }
}

/// The leaderboard's lines on `screen`, as it shows them: `(name, rating, games)`.
fn leaderboard(screen: &str) -> Vec<(String, i64, String)> {
    screen
        .lines()
        .skip_while(|line| !line.contains("Leaderboard"))
        .skip(1)
        .map_while(|line| {
            let words: Vec<&str> = line
                .trim_matches(|c| c == '│' || c == ' ')
                .split_whitespace()
                .collect();
            // `quentin  3-9  alice  1662? RD 290 (1 game)`: `?` while provisional.
            match words.as_slice() {
                [_, _, name, rating, "RD", _, games @ ..] => Some((
                    name.to_string(),
                    rating.trim_end_matches('?').parse().ok()?,
                    games.join(" "),
                )),
                _ => None,
            }
        })
        .collect()
}

#[test]
fn question_mark_opens_the_lobby_s_help_and_the_leaderboard_ranks_settled_ratings_only() {
    let dir = scratch("server-lobby");
    let mut server = Server::start(&dir, &[]);
    let mut carol = newcomer(&server, &dir, "carol");
    carol.send("?");
    carol.wait_for("this help (any key closes it)");
    carol.send("x");
    carol.wait_for("Open challenges");
    assert!(leaderboard(&carol.screen()).is_empty());

    // Alice beats Bob in a rated game (rated is the default).
    let mut alice = server.registered(&dir, "alice");
    let id = alice.ok("challenge quentin size 3 pie off first me");
    let mut bob = server.registered(&dir, "bob");
    bob.ok(&format!("accept {id}"));
    for (n, action) in ["b1", "a2", "b2", "a3", "b3"].iter().enumerate() {
        let mover = if n % 2 == 0 { &mut alice } else { &mut bob };
        assert!(mover.ok(&format!("wait {id}")).starts_with("turn"));
        assert_eq!(mover.ask(&format!("play {id} {action}")), "=");
    }
    assert_eq!(bob.ok(&format!("wait {id}")), "over B+ connection");
    // Drawn with the result: their ratings are provisional after one game, and off the
    // leaderboard (docs/server.md, "Fair play").
    let screen = carol.wait_for(&format!(
        "#{id} quentin: alice joined top and bottom and wins"
    ));
    assert!(leaderboard(&screen).is_empty(), "{screen}");

    // Alice's rating settled (as after many games), Bob's not: she alone is ranked.
    drop((alice, bob, carol));
    assert!(server.stop().success());
    let db = rusqlite::Connection::open(server.data.join("server.db")).unwrap();
    db.execute(
        "UPDATE ratings SET deviation = 80 WHERE player = (SELECT id FROM players WHERE name = 'alice')",
        [],
    )
    .unwrap();
    drop(db);
    let server = Server::start(&dir, &[]);
    let carol = login_with(&server, &dir, &dir.join("carol"), &[]);
    let screen = carol.wait_for("Leaderboard");
    let board = leaderboard(&screen);
    assert_eq!(board.len(), 1, "{screen}");
    assert_eq!(board[0].0, "alice", "{screen}");
    assert!(board[0].1 > 1500, "{board:?}");
    assert_eq!(board[0].2, "(1 game)", "{board:?}");
}

#[test]
fn a_watcher_s_keys_change_nothing_in_the_game_being_played() {
    let dir = scratch("server-watcher-keys");
    let server = Server::start(&dir, &[]);
    let mut alice = server.registered(&dir, "alice");
    let id = alice.ok("challenge quentin size 5 pie off first me casual");
    let mut bob = server.registered(&dir, "bob");
    bob.ok(&format!("accept {id}"));
    assert_eq!(alice.ask(&format!("play {id} c3")), "=");
    let mut carol = newcomer(&server, &dir, "carol");
    carol.wait_for(&format!("#{id} quentin alice vs bob"));
    carol.send("\r");
    carol.wait_for("1. alice Black c3");
    // Enter and Space play no stone; R twice resigns nothing, u asks for no takeback: each
    // says what a watcher may do. The help, opened after them, shows they have all been read.
    carol.send("lj\r");
    carol.wait_for("You are watching this game:");
    carol.send("RR u?");
    carol.wait_for("Help: Quentin");
    carol.send("?");
    let screen = carol.wait_for("You are watching this game:");
    assert!(
        !screen.contains("Resign") && !screen.contains("refused"),
        "{screen}"
    );
    // The game is where it was: Bob to move after c3, and it goes on.
    assert_eq!(bob.ok(&format!("wait {id}")), "turn c3");
    assert_eq!(bob.ask(&format!("play {id} a1")), "=");
    carol.wait_for("bob played a1.");
    let record = server.record(&dir.join("alice"), &id);
    let actions: Vec<&str> = record.lines().filter(|l| !l.contains(' ')).collect();
    assert_eq!(actions, ["c3", "a1"], "{record}");
}
