//! The server when what surrounds it fails: nobody reads its standard output or error (a closed
//! pipe), the store refuses a write. Nothing that runs in the background dies of it: the clocks
//! still run out, the sessions are still answered, and a stop still exits cleanly. And the
//! protocol's limits are the documented ones.

use crate::serve;

use serve::{Pipes, Server, TIMEOUT, key, scratch};

/// Makes the store refuse every write of the server's heartbeat, as a failing disk would.
const REFUSE_HEARTBEAT: &str = "CREATE TRIGGER refuse_heartbeat BEFORE INSERT ON meta
    WHEN NEW.key = 'alive' BEGIN SELECT RAISE(ABORT, 'the disk refuses'); END;";

/// Bob's seconds left in game `id`, as his `games` says (`... 95s`).
fn seconds_left(bob: &mut serve::Bot, id: &str) -> i64 {
    let games = bob.ok("games");
    let line = games
        .lines()
        .find(|l| l.starts_with(&format!("{id} ")))
        .unwrap_or_else(|| panic!("game {id} in {games}"));
    // `... SECONDS CLOCK`: the clock's two words after the seconds.
    line.rsplit(' ')
        .nth(2)
        .and_then(|s| s.strip_suffix('s'))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("the seconds left in {line}"))
}

#[test]
fn the_clocks_run_out_though_a_write_fails_and_nobody_reads_the_errors() {
    let dir = scratch("server-faults-clock");
    let server = Server::start_with(&dir, &[], Pipes::StderrClosed);
    let (mut a, mut b) = (
        server.registered(&dir, "alice"),
        server.registered(&dir, "bob"),
    );
    // Two live games, Bob to move in both: a minute on his clock in one, two in the other.
    // He never makes his first move: each game ends aborted when his clock runs out.
    let short = a.ok("challenge quentin size 5 first me clock 1+0");
    let long = a.ok("challenge quentin size 5 first me clock 2+0");
    for id in [&short, &long] {
        b.ok(&format!("accept {id}"));
        a.ok(&format!("play {id} c3"));
    }
    b.ok("clock advance 59");
    // The disk refuses the heartbeat from now on: each tick fails to write it, and the report
    // of that goes to a closed pipe.
    let store = rusqlite::Connection::open(server.data.join("server.db")).unwrap();
    store.busy_timeout(TIMEOUT).unwrap();
    store.execute_batch(REFUSE_HEARTBEAT).unwrap();
    // Bob's last second of the first minute runs out on its own: a tick ends the game, and
    // fails to write the heartbeat after.
    assert_eq!(
        a.ask(&format!("wait {short}")),
        "= over aborted no-first-move"
    );
    // The disk takes writes again; Bob's second game is left a few seconds, which only the
    // ticks (still running) can see run out.
    store
        .execute_batch("DROP TRIGGER refuse_heartbeat")
        .unwrap();
    let left = seconds_left(&mut b, &long);
    b.ok(&format!("clock advance {}", left - 4));
    assert_eq!(
        a.ask(&format!("wait {long}")),
        "= over aborted no-first-move"
    );
    // And the heartbeat is written again, by the ticks after that end.
    let ended: i64 = store
        .query_row("SELECT ended FROM games WHERE id = ?1", [&long], |r| {
            r.get(0)
        })
        .unwrap();
    let started = std::time::Instant::now();
    loop {
        let alive: i64 = store
            .query_row("SELECT value FROM meta WHERE key = 'alive'", [], |r| {
                r.get(0)
            })
            .unwrap();
        if alive >= ended {
            break;
        }
        assert!(started.elapsed() < TIMEOUT, "no heartbeat after {ended}");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    a.finish();
    b.finish();
}

#[test]
fn a_closed_standard_output_at_the_start_stops_nothing() {
    // `quentin serve | head -c 10`, its reader gone before the server says anything.
    let dir = scratch("server-faults-stdout");
    let mut server = Server::start_with(&dir, &[], Pipes::StdoutClosed);
    let mut a = server.registered(&dir, "alice");
    assert_eq!(a.ask("whoami"), "= alice");
    assert!(server.running());
    a.finish();
    assert!(server.stop().success());
}

#[test]
fn a_stop_after_the_standard_output_closed_exits_cleanly() {
    // Its reader goes once it has read where the server listens; the server says `stopped`
    // to nobody, and exits 0.
    let dir = scratch("server-faults-stop");
    let mut server = Server::start_with(&dir, &[], Pipes::StdoutClosedAfterStart);
    let mut a = server.registered(&dir, "alice");
    assert_eq!(a.ask("whoami"), "= alice");
    a.finish();
    let status = server.stop();
    assert_eq!(status.code(), Some(0), "{status}");
}

#[test]
fn a_line_of_4096_bytes_is_read_and_a_longer_one_refused() {
    let dir = scratch("server-faults-line");
    let server = Server::start(&dir, &[]);
    let mut bot = server.bot(&key(&dir, "alice"));
    bot.ok("register alice");
    // 4096 bytes before the newline: the longest line the protocol reads (docs/server.md).
    let longest = format!("whoami{}", " ".repeat(4096 - "whoami".len()));
    assert_eq!(longest.len(), 4096);
    assert_eq!(bot.ask(&longest), "= alice");
    assert_eq!(bot.ask(&format!("{longest} ")), "? line too long");
    assert_eq!(bot.ask("whoami"), "= alice");
    bot.finish();
}

#[test]
fn a_panic_in_a_session_ends_that_session_only_and_is_reported() {
    let dir = scratch("server-faults-panic");
    // One session a key: the failed one's must come back.
    let server = Server::start(&dir, &["--sessions-per-key", "1"]);
    assert!(server.registered(&dir, "alice").finish().success());
    let mut b = server.registered(&dir, "bob");
    let mut a = server.bot(&dir.join("alice"));
    assert_eq!(a.ask("whoami"), "= alice");
    // The test hook `panic`: Alice's session fails; its channel is closed with status 1.
    assert_eq!(a.try_ask("panic"), None);
    assert_eq!(a.finish().code(), Some(1));
    let report = loop {
        let line = server
            .stderr
            .recv_timeout(TIMEOUT)
            .expect("the failure is reported");
        if line.contains("failed") {
            break line;
        }
    };
    assert!(
        report.contains("the bot session of alice failed and was closed"),
        "{report}"
    );
    // Bob's goes on, and Alice comes back (her one session counted out).
    assert_eq!(b.ask("whoami"), "= bob");
    let mut a = server.bot(&dir.join("alice"));
    assert_eq!(a.ask("whoami"), "= alice");
    a.finish();
    b.finish();
}

#[test]
fn a_line_of_no_break_spaces_is_answered_and_whoami_takes_no_words() {
    let dir = scratch("server-faults-words");
    let server = Server::start(&dir, &[]);
    let mut bot = server.registered(&dir, "alice");
    let answer = bot.ask("\u{a0}\u{a0}\u{a0}");
    assert!(answer.starts_with("? unknown command"), "{answer}");
    assert_eq!(
        bot.ask("whoami extra words"),
        "? whoami takes no words after it"
    );
    assert_eq!(bot.ask("whoami"), "= alice");
}
