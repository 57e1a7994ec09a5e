//! The web's bounds through the binary (issue 62): a slow or hostile HTTP client holds no
//! more than its share, as on the SSH side. A head that never ends is cut; a network block's
//! idle connections past its share are closed at once; its live streams past their share are
//! refused `429`; its requests past their rate are refused `429` with `Retry-After`; and all
//! the while another block is served. Each hostile client comes from a loopback address of its
//! own block (127.0.N.1), the honest one from 127.0.0.1.

use std::io::Write;
use std::net::TcpStream;
use std::time::Instant;

use crate::serve::http::{Stream, closed, connect_from, get, get_from};
use crate::serve::play::{Play, pair};
use crate::serve::{TIMEOUT, scratch};
use crate::server_web::start;

#[test]
fn slow_heads_idle_connections_stream_floods_and_fast_clients_hold_only_their_share() {
    let dir = scratch("web-hostile");
    let (server, web) = start(&dir, &[]);
    let (mut bots, id) = pair(&server, &dir, ["ann", "bob"]);
    Play::new(id.clone()).moves(&mut bots, 1);

    // A head that never ends: cut by the server's head deadline.
    let mut slow = connect_from([127, 0, 2, 1], web);
    slow.set_nonblocking(false).unwrap();
    slow.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .unwrap();
    assert_eq!(get(web, "/").status, 200, "the others are served meanwhile");
    assert!(closed(slow), "a head that never ends is cut");

    // A block's idle connections: its share held, one more closed at once, others served.
    // `PER_BLOCK` in crates/quentin-server/src/web/bounds.rs.
    let share = 64;
    let idle: Vec<TcpStream> = (0..share)
        .map(|_| connect_from([127, 0, 3, 1], web))
        .collect();
    assert!(
        get_from([127, 0, 3, 1], web, "/").is_none(),
        "one more than the block's share of connections is closed without an answer"
    );
    assert_eq!(
        get_from([127, 0, 5, 1], web, "/").map(|a| a.status),
        Some(200),
        "another block is served"
    );
    drop(idle);

    // A flood of live streams from one block: its share (`STREAMS_PER_BLOCK`) open, one
    // more refused.
    let streams: Vec<Stream> = (0..32)
        .map(|_| Stream::open(web, &format!("/api/stream/game/{id}"), &[]))
        .collect();
    assert!(streams.iter().all(|s| s.head.status == 200));
    let refused = Stream::open(web, &format!("/api/stream/game/{id}"), &[]);
    assert_eq!(refused.head.status, 429, "{:?}", refused.head);
    assert_eq!(
        get_from([127, 0, 6, 1], web, &format!("/api/game/{id}")).map(|a| a.status),
        Some(200),
        "another block is served while the streams are held"
    );
    drop(streams);

    // Requests faster than the rate: refused 429 with Retry-After, the others served.
    let started = Instant::now();
    let refused = loop {
        let answer = get_from([127, 0, 4, 1], web, "/style.css").expect("an answer");
        if answer.status == 429 {
            break answer;
        }
        assert_eq!(answer.status, 200);
        assert!(started.elapsed() < TIMEOUT, "no request was refused");
    };
    assert_eq!(refused.header("retry-after"), Some("1"), "{refused:?}");
    assert!(
        refused.body.contains("too many requests"),
        "{}",
        refused.body
    );
    assert_eq!(
        get(web, "/style.css").status,
        200,
        "another block is served"
    );
}
