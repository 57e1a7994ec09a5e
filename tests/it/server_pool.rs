//! The server's connections to PostgreSQL, sized against the database's: a server started on
//! a PostgreSQL whose connections are all taken exits at once, saying the database's own
//! reason (`sorry, too many clients already`), not a bare `db error`. The database is the
//! test's own (`serve::pg::Private`, with `max_connections=2`): the machine's, which other
//! tests share, is never filled.

use std::process::Stdio;
use std::time::Instant;

use crate::serve::pg::Private;
use crate::serve::{TIMEOUT, scratch};

#[test]
fn a_server_started_on_a_full_postgresql_exits_with_the_database_s_reason() {
    let Some(pg) = Private::start(
        "full",
        &[
            "max_connections=2",
            "superuser_reserved_connections=0",
            "max_wal_senders=0",
        ],
    ) else {
        return;
    };
    let url = pg.url();
    // Both connections taken, held until the end of the test.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut held = Vec::new();
    let refused = runtime.block_on(async {
        loop {
            match tokio_postgres::connect(&url, tokio_postgres::NoTls).await {
                Ok((client, connection)) => {
                    tokio::spawn(connection);
                    held.push(client);
                }
                Err(e) => {
                    break format!("{e}: {}", e.as_db_error().map_or("", |db| db.message()));
                }
            }
        }
    });
    assert!(
        held.len() <= 2,
        "{} connections to a server of 2",
        held.len()
    );
    assert!(
        refused.contains("too many clients already"),
        "the database refuses so: {refused}"
    );

    let dir = scratch("pool-full");
    let mut server = crate::isolated::quentin()
        .args(["serve", "--listen", "127.0.0.1:0", "--test-hooks", "--data"])
        .arg(dir.join("data"))
        .args(["--database", &url])
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let status = loop {
        if let Some(status) = server.try_wait().unwrap() {
            break status;
        }
        assert!(started.elapsed() < TIMEOUT, "the server did not exit");
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let mut said = String::new();
    std::io::Read::read_to_string(&mut server.stderr.take().unwrap(), &mut said).unwrap();
    assert_eq!(status.code(), Some(1), "{said}");
    assert!(
        said.contains("too many clients already"),
        "the database's reason, said: {said}"
    );
    // Which of the server's connections is refused depends on the moment: its pool's first,
    // or, when a slot came free between the fill above and the start (seen twice on a loaded
    // machine), the one it opens to join the other processes. Either way it says which step
    // failed, with the database's reason above.
    assert!(
        said.contains("cannot reach the database")
            || said.contains("cannot join the other server processes on the database"),
        "{said}"
    );
    drop(held);
}
