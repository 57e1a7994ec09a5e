//! Outages of the store charged to nobody: under SQLite, a disk that fails (the test hook
//! `store fail`) while the server's clock runs on past a player's whole time; under
//! PostgreSQL, the database cut off (a proxy between the server and the machine's PostgreSQL
//! drops every connection and refuses new ones) until the game's lease has run out. Either
//! way the player to move is charged nothing for the outage.

use std::io::Read as _;
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::serve::pg::{Database, query_i64};
use crate::serve::{Bot, Server, TIMEOUT, scratch};

/// Alice (who moves first) and Bob, with a live game of Quentin 5×5 at 1+0 in which Alice has
/// played: Bob is to move, with his whole minute.
fn game(server: &Server, dir: &std::path::Path) -> ([Bot; 2], String) {
    let mut alice = server.registered(dir, "alice");
    let mut bob = server.registered(dir, "bob");
    let id = alice.ok("challenge quentin size 5 pie off first me casual clock 1+0");
    crate::server_cluster::wait_for_challenge(&mut bob, &id);
    bob.ok(&format!("accept {id}"));
    assert!(alice.ok(&format!("wait {id}")).starts_with("turn"));
    assert_eq!(alice.ask(&format!("play {id} c3")), "=");
    ([alice, bob], id)
}

/// Bob's seconds left in game `id`, as his `games` says.
fn seconds_left(bob: &mut Bot, id: &str) -> i64 {
    let games = bob.ok("games");
    let line = games
        .lines()
        .map(|l| l.trim_start_matches("= "))
        .find(|l| l.starts_with(&format!("{id} ")))
        .unwrap_or_else(|| panic!("{games}"));
    // `... SECONDS CLOCK`: the clock's two words after the seconds.
    line.rsplit(' ')
        .nth(2)
        .and_then(|s| s.trim_end_matches('s').parse().ok())
        .unwrap_or_else(|| panic!("{line}"))
}

#[test]
fn a_failing_disk_under_sqlite_is_charged_to_nobody() {
    let dir = scratch("outage-sqlite");
    let server = Server::start(&dir, &[]);
    let ([_alice, mut bob], id) = game(&server, &dir);
    // The disk fails; 200 s go by on the server's clock, past Bob's minute.
    bob.ok("store fail");
    bob.ok("clock advance 100");
    assert_eq!(
        bob.ask(&format!("play {id} b2")),
        "? the server's store cannot be reached now: try again later"
    );
    bob.ok("clock advance 100");
    // It works again: the next heartbeat is written, and the outage forgiven.
    bob.ok("store heal");
    bob.ok("clock advance 1");
    let left = seconds_left(&mut bob, &id);
    assert!(left > 30, "Bob was charged for the outage: {left} s left");
    assert!(bob.ok(&format!("wait {id}")).starts_with("turn"));
    assert_eq!(bob.ask(&format!("play {id} b2")), "=");
}

/// A TCP proxy to the machine's PostgreSQL that the test can cut off: every connection
/// dropped, new ones refused, until it is healed; or turned into a black hole, as a firewall
/// that drops every packet would be: nothing more goes through either way, nothing is closed
/// on either side (not even when one side closes), and new connections are taken and never
/// answered. (Its kernel still acknowledges what it is sent: TCP's own timeouts are not
/// exercised, only that no word comes back.)
pub struct Proxy {
    pub port: u16,
    down: Arc<AtomicBool>,
    black: Arc<AtomicBool>,
    open: Arc<Mutex<Vec<TcpStream>>>,
    stop: Arc<AtomicBool>,
}

impl Proxy {
    pub fn start(upstream: (String, u16)) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let down = Arc::new(AtomicBool::new(false));
        let black = Arc::new(AtomicBool::new(false));
        let open = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (d, b, o, s) = (down.clone(), black.clone(), open.clone(), stop.clone());
        std::thread::spawn(move || {
            while !s.load(Ordering::SeqCst) {
                let Ok((client, _)) = listener.accept() else {
                    std::thread::sleep(std::time::Duration::from_millis(10));
                    continue;
                };
                client.set_nonblocking(false).unwrap();
                if d.load(Ordering::SeqCst) {
                    continue;
                }
                if b.load(Ordering::SeqCst) {
                    // Taken and held, never answered.
                    o.lock().unwrap().push(client);
                    continue;
                }
                let Ok(server) = TcpStream::connect((upstream.0.as_str(), upstream.1)) else {
                    continue;
                };
                let mut sockets = o.lock().unwrap();
                sockets.push(client.try_clone().unwrap());
                sockets.push(server.try_clone().unwrap());
                for (mut from, mut to) in [
                    (client.try_clone().unwrap(), server.try_clone().unwrap()),
                    (server, client),
                ] {
                    let (black, stop) = (b.clone(), s.clone());
                    std::thread::spawn(move || {
                        let mut buffer = [0u8; 16 * 1024];
                        while let Ok(n) = from.read(&mut buffer) {
                            if black.load(Ordering::SeqCst) {
                                // Nothing more read or passed on; both sockets stay open
                                // (the proxy's list holds them) until the proxy goes.
                                while !stop.load(Ordering::SeqCst) {
                                    std::thread::sleep(std::time::Duration::from_millis(50));
                                }
                                return;
                            }
                            if n == 0 || std::io::Write::write_all(&mut to, &buffer[..n]).is_err() {
                                break;
                            }
                        }
                        let _ = to.shutdown(Shutdown::Both);
                    });
                }
            }
        });
        Proxy {
            port,
            down,
            black,
            open,
            stop,
        }
    }

    /// A proxy to the database of `url`, and the URL of the same database through it.
    pub fn before(url: &str) -> (Proxy, String) {
        let config: tokio_postgres::Config = url.parse().unwrap();
        let host = match config.get_hosts().first() {
            Some(tokio_postgres::config::Host::Tcp(h)) => h.clone(),
            _ => "127.0.0.1".to_string(),
        };
        let proxy = Proxy::start((host, config.get_ports()[0]));
        let through = format!(
            "postgres://{}@127.0.0.1:{}/{}",
            config.get_user().unwrap(),
            proxy.port,
            config.get_dbname().unwrap()
        );
        (proxy, through)
    }

    /// Drops every connection and refuses the new ones.
    pub fn cut(&self) {
        self.down.store(true, Ordering::SeqCst);
        for socket in self.open.lock().unwrap().drain(..) {
            let _ = socket.shutdown(Shutdown::Both);
        }
    }

    /// From now on nothing goes through, and nothing is closed: a firewall that drops every
    /// packet, both ways.
    pub fn blackhole(&self) {
        self.black.store(true, Ordering::SeqCst);
    }

    pub fn heal(&self) {
        self.down.store(false, Ordering::SeqCst);
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.cut();
    }
}

/// Polls `sql` (an `i64`) on `url` until `done` says yes.
pub fn wait_db(url: &str, sql: &str, done: impl Fn(i64) -> bool) -> i64 {
    let started = Instant::now();
    loop {
        let value = query_i64(url, sql);
        if done(value) {
            return value;
        }
        assert!(started.elapsed() < TIMEOUT, "{sql}: still {value}");
        std::thread::yield_now();
    }
}

#[test]
fn the_database_cut_off_mid_game_is_charged_to_nobody() {
    let Some(db) = Database::new("outage") else {
        return;
    };
    let (proxy, through) = Proxy::before(&db.url);
    let dir = scratch("outage-pg");
    let server = Server::start(&dir, &["--database", &through]);
    let ([_alice, mut bob], id) = game(&server, &dir);
    let before = query_i64(
        &db.url,
        &format!("SELECT turn_since FROM games WHERE id = {id}"),
    );
    proxy.cut();
    let cut = query_i64(&db.url, "SELECT quentin_now()");
    // The database is away until the game's lease has run out.
    wait_db(
        &db.url,
        &format!("SELECT (expires < quentin_now())::INT::BIGINT FROM owners WHERE game = {id}"),
        |expired| expired == 1,
    );
    proxy.heal();
    // The server takes its game over again, forgiving the outage.
    let taken = wait_db(
        &db.url,
        &format!("SELECT taken FROM owners WHERE game = {id}"),
        |taken| taken > cut,
    );
    let since = query_i64(
        &db.url,
        &format!("SELECT turn_since FROM games WHERE id = {id}"),
    );
    // Bob is charged what he used before the cut at most, nothing of the outage.
    let charged = taken - since;
    assert!(
        charged <= cut - before,
        "{charged} ms charged for {} ms before the cut",
        cut - before
    );
    assert!(bob.ok(&format!("wait {id}")).starts_with("turn"));
    assert_eq!(bob.ask(&format!("play {id} b2")), "=");
}

/// Issue 59, item 17: the database away before the first move, longer than the whole first-
/// move timer (12 s at 2+0) and the game's lease. The takeover that follows forgives the outage
/// to the first-move timer as to the clock; before, the owner's tick, which had judged the game
/// out of time during the outage, ended it `aborted no-first-move` as soon as the database
/// came back, its end committed under the lease the same process had just taken again.
#[test]
fn the_database_cut_off_before_the_first_move_leaves_the_first_move_to_make() {
    let Some(db) = Database::new("outage_first_move") else {
        return;
    };
    let (proxy, through) = Proxy::before(&db.url);
    let dir = scratch("outage-pg-first-move");
    let server = Server::start(&dir, &["--database", &through]);
    let mut alice = server.registered(&dir, "alice");
    let mut bob = server.registered(&dir, "bob");
    let id = alice.ok("challenge quentin size 5 pie off first me casual clock 2+0");
    crate::server_cluster::wait_for_challenge(&mut bob, &id);
    bob.ok(&format!("accept {id}"));
    assert!(alice.ok(&format!("wait {id}")).starts_with("turn"));
    let since = query_i64(
        &db.url,
        &format!("SELECT turn_since FROM games WHERE id = {id}"),
    );
    proxy.cut();
    // Away for the fault's length: past the first move's 12 s by the database's clock (not a
    // wait for the program: nothing it does could end this sooner).
    while query_i64(&db.url, "SELECT quentin_now()") < since + 14_000 {
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    let cut_for = query_i64(&db.url, "SELECT quentin_now()") - since;
    proxy.heal();
    // The server takes its game over again, forgiving the outage.
    let taken = wait_db(
        &db.url,
        &format!("SELECT coalesce((SELECT taken FROM owners WHERE game = {id}), 0)"),
        |taken| taken > since + cut_for,
    );
    assert_eq!(
        query_i64(
            &db.url,
            &format!("SELECT (result IS NULL)::INT::BIGINT FROM games WHERE id = {id}")
        ),
        1,
        "the game ended while the database was away"
    );
    let moved_on = query_i64(
        &db.url,
        &format!("SELECT turn_since FROM games WHERE id = {id}"),
    );
    assert!(moved_on > since, "the first-move timer was not moved on");
    assert!(taken >= moved_on);
    // Alice's first move is hers to make, and the game goes on.
    assert_eq!(alice.ask(&format!("play {id} c3")), "=");
    assert!(bob.ok(&format!("wait {id}")).starts_with("turn"));
    assert_eq!(bob.ask(&format!("play {id} b2")), "=");
}
