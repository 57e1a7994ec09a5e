//! SQLite never refuses for being busy (issue 59, item 2): fifty new players log in at once,
//! each registers, joins a tournament and leaves it, while the others do the same and every
//! login writes its row. Every answer is `=`: no `? the server cannot save now`.

use std::sync::{Arc, Barrier};

use crate::serve;
use serve::{Server, key, scratch};

#[test]
fn fifty_fresh_logins_join_and_leave_a_tournament_at_once_and_none_is_refused() {
    const PLAYERS: usize = 50;
    let dir = scratch("server-busy");
    let server = Server::start(
        &dir,
        &[
            "--registrations-per-hour",
            "1000",
            "--max-startups-per-address",
            "100",
            "--max-startups",
            "400",
        ],
    );
    let mut host = server.registered(&dir, "host");
    let id = host.ok(
        "tournament create swiss quentin size 5 pie off clock 2+0 casual rounds 3 start-in 600",
    );
    let keys: Vec<_> = (0..PLAYERS).map(|i| key(&dir, &format!("p{i}"))).collect();
    let port = server.port;
    let barrier = Arc::new(Barrier::new(PLAYERS));
    let runs: Vec<_> = keys
        .into_iter()
        .enumerate()
        .map(|(i, key)| {
            let (barrier, id) = (barrier.clone(), id.clone());
            std::thread::spawn(move || {
                barrier.wait();
                let mut bot = serve::bot_at(&key, port);
                let lines = [
                    format!("register p{i}"),
                    format!("join {id}"),
                    format!("withdraw {id}"),
                    format!("join {id}"),
                ];
                lines
                    .iter()
                    .map(|line| (line.clone(), bot.ask(line)))
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut refused = Vec::new();
    for run in runs {
        for (line, answer) in run.join().unwrap() {
            if !answer.starts_with('=') {
                refused.push(format!("{line}: {answer}"));
            }
        }
    }
    assert!(refused.is_empty(), "refused: {refused:#?}");
    // Every player's last join counts: the tournament lists the fifty and its creator.
    let listed = host.ask(&format!("tournament {id}"));
    for i in 0..PLAYERS {
        assert!(
            listed.contains(&format!(" p{i} ")),
            "p{i} is not listed: {listed}"
        );
    }
}
