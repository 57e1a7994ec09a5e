//! `kill -9` of the server during a burst of moves: after the restart every move that was
//! answered `=` or shown to the opponent is there, the store passes `PRAGMA integrity_check`,
//! and the players, reconnecting, find the game and play it on.

use crate::serve;

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

use quentin::record::Record;
use quentin::rules::{Action, Game, Position, Setup};
use quentin::server::store::Sqlite;
use serve::{Bot, Server, key, scratch};

/// What the players were told: the moves answered `=`, and those shown to the opponent by
/// `wait`, in order.
#[derive(Default)]
struct Told {
    acknowledged: Vec<Action>,
    shown: Vec<Action>,
}

/// Plays on game `id` between the two bots, as fast as they can, until the server goes or the
/// game ends; every move answered or shown goes into `told`.
fn burst(mut bots: [Bot; 2], id: String, mut position: Position, told: Arc<Mutex<Told>>) {
    let mut turn = usize::from(!position.ply().is_multiple_of(2));
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    loop {
        let Some(answer) = bots[turn].try_ask(&format!("wait {id}")) else {
            return;
        };
        let Some(last) = answer.strip_prefix("= turn ") else {
            return;
        };
        if last != "-" {
            told.lock()
                .unwrap()
                .shown
                .push(Action::parse(last).unwrap());
        }
        let legal = position.legal_actions();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let action = legal[(seed % legal.len() as u64) as usize];
        match bots[turn].try_ask(&format!("play {id} {action}")) {
            Some(answer) if answer == "=" => told.lock().unwrap().acknowledged.push(action),
            _ => return,
        }
        position.play(action).unwrap();
        turn = 1 - turn;
    }
}

#[test]
fn kill_9_during_a_burst_of_moves_loses_nothing_acknowledged() {
    let dir = scratch("server-crash");
    let mut server = Server::start(&dir, &[]);
    let (ka, kb) = (key(&dir, "alice"), key(&dir, "bob"));
    let mut a = server.bot(&ka);
    let mut b = server.bot(&kb);
    a.ok("register alice");
    b.ok("register bob");
    let id = a.ok("challenge brique size 19 pie off first me casual");
    b.ok(&format!("accept {id}"));
    let setup = Setup {
        size: 19,
        pie: false,
        ..Setup::new(Game::Brique)
    };
    let told = Arc::new(Mutex::new(Told::default()));
    let player = {
        let (told, id, start) = (told.clone(), id.clone(), setup.start().unwrap());
        std::thread::spawn(move || burst([a, b], id, start, told))
    };
    // The kill comes in the middle of the burst: after 60 moves were answered, while the
    // players go on sending theirs.
    let deadline = std::time::Instant::now() + serve::TIMEOUT;
    while told.lock().unwrap().acknowledged.len() < 60 {
        assert!(
            std::time::Instant::now() < deadline,
            "the burst did not get going"
        );
        std::thread::yield_now();
    }
    server.kill9();
    player.join().unwrap();
    let told = std::mem::take(&mut *told.lock().unwrap());
    assert!(told.acknowledged.len() >= 60);

    let store = Sqlite::open(&server.data.join("server.db")).unwrap();
    assert_eq!(store.integrity().unwrap(), "ok");
    drop(store);

    let server = Server::start(&dir, &[]);
    let record = Record::parse(&server.record(&ka, &id)).unwrap();
    let kept = record.actions();
    assert!(
        kept.starts_with(&told.acknowledged) && kept.starts_with(&told.shown),
        "kept {} actions; {} were answered and {} shown",
        kept.len(),
        told.acknowledged.len(),
        told.shown.len()
    );
    // At most the move in flight came in beside those answered.
    assert!(kept.len() <= told.acknowledged.len() + 1);

    // The players come back and find the game where it was, and play it on.
    let mut a = server.bot(&ka);
    let mut b = server.bot(&kb);
    let games = a.ok("games");
    assert!(
        games.starts_with(&format!("{id} brique 19 bob black ")),
        "{games}"
    );
    let position = record.final_position();
    let mover = if position.ply().is_multiple_of(2) {
        &mut a
    } else {
        &mut b
    };
    assert!(mover.ok(&format!("wait {id}")).starts_with("turn "));
    let action = position.legal_actions()[0];
    assert_eq!(mover.ask(&format!("play {id} {action}")), "=");
    let again = Record::parse(&server.record(&kb, &id)).unwrap();
    assert_eq!(again.actions().len(), kept.len() + 1);
    a.finish();
    b.finish();
}

#[test]
fn sigterm_stops_the_server_cleanly_telling_the_sessions() {
    let dir = scratch("server-stop");
    let mut server = Server::start(&dir, &[]);
    let (ka, kb) = (key(&dir, "alice"), key(&dir, "bob"));
    let mut a = server.bot(&ka);
    let mut b = server.bot(&kb);
    a.ok("register alice");
    b.ok("register bob");
    let id = a.ok("challenge quentin size 5 first me");
    b.ok(&format!("accept {id}"));
    a.ok(&format!("play {id} c3"));
    // A session at the INFO level, which would print what the server says should it
    // disconnect the client instead of closing the session.
    let mut watcher = std::process::Command::new(serve::ssh_program())
        .args(["-o", "LogLevel=INFO"])
        .args(server.ssh_args(&ka))
        .arg("bot")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // It is in once it has answered.
    let mut stdin = watcher.stdin.take().unwrap();
    writeln!(stdin, "whoami").unwrap();
    let mut stdout = std::io::BufReader::new(watcher.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    assert_eq!(line.trim(), "= alice");
    b.ok(&format!("wait {id}"));
    assert!(server.stop().success(), "SIGTERM: a clean stop, status 0");
    let out = {
        drop(stdin);
        watcher.wait_with_output().unwrap()
    };
    // Each session is told, then closed.
    let mut said = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut said).unwrap();
    assert_eq!(said, "\n? the server is shutting down\n\n");
    assert!(out.status.success(), "{out:?}");
    for bot in [&mut a, &mut b] {
        assert_eq!(bot.answer(), "? the server is shutting down");
        assert!(bot.try_ask("whoami").is_none(), "the sessions are closed");
    }
    drop((a, b));
    let store = Sqlite::open(&server.data.join("server.db")).unwrap();
    assert_eq!(store.integrity().unwrap(), "ok");
    drop(store);
    let server = Server::start(&dir, &[]);
    let record = Record::parse(&server.record(&kb, &id)).unwrap();
    assert_eq!(record.actions().len(), 1);
    let mut b = server.bot(&kb);
    assert_eq!(b.ask(&format!("wait {id}")), "= turn c3");
    b.finish();
}
