//! Bounded answers, through the real server and the real `ssh`: 5,000 open challenges of 500
//! players and 120 games of one player (put in the store while the server is stopped, as a
//! community of that size would have made them), listed by a bot page by page: every
//! challenge and game once, no page longer than the bound, the session never cut.

use std::collections::BTreeSet;

use crate::serve::{Bot, Server, scratch};

/// The lines of a listing's page, and the command its `more N: COMMAND` line asks for next.
fn page(bot: &mut Bot, command: &str) -> (Vec<String>, Option<(usize, String)>) {
    let answer = bot.ask(command);
    assert!(answer.starts_with('='), "{command}: {answer}");
    let mut lines: Vec<String> = answer
        .trim_start_matches('=')
        .trim_start()
        .lines()
        .map(ToString::to_string)
        .filter(|l| !l.is_empty())
        .collect();
    let more = lines.last().and_then(|last| {
        let (n, next) = last.strip_prefix("more ")?.split_once(": ")?;
        Some((n.parse().unwrap(), next.to_string()))
    });
    if more.is_some() {
        lines.pop();
    }
    assert!(lines.len() <= 100, "{command}: {} lines", lines.len());
    (lines, more)
}

/// Every page of `command`: the lines, and how many pages there were.
fn every_page(bot: &mut Bot, command: &str) -> (Vec<String>, usize) {
    let (mut all, mut next) = page(bot, command);
    let mut pages = 1;
    while let Some((more, command)) = next {
        let (lines, after) = page(bot, &command);
        assert!(
            !lines.is_empty(),
            "{command}: an empty page with {more} more"
        );
        let left = after.as_ref().map_or(0, |(n, _)| *n);
        assert_eq!(
            lines.len() + left,
            more,
            "{command}: the count of what was left"
        );
        all.extend(lines);
        next = after;
        pages += 1;
    }
    (all, pages)
}

#[test]
fn five_thousand_open_challenges_are_listed_page_by_page_to_a_bot_never_cut() {
    let dir = scratch("listings");
    let mut server = Server::start(&dir, &[]);
    let alice = server.registered(&dir, "alice");
    drop(alice);
    assert!(server.stop().success());
    // 500 players with 10 open challenges each (one in five of Brique), and 120 finished games
    // between alice and the first of them.
    {
        let mut db = rusqlite::Connection::open(server.data.join("server.db")).unwrap();
        let tx = db.transaction().unwrap();
        for p in 0..500 {
            tx.execute(
                "INSERT INTO players(name, key, created) VALUES (?1, ?2, 0)",
                [format!("p{p}"), format!("SHA256:listed{p}")],
            )
            .unwrap();
            let by = tx.last_insert_rowid();
            for c in 0..10 {
                let game = if c % 5 == 0 { "brique" } else { "quentin" };
                tx.execute(
                    "INSERT INTO challenges(by, game, size, pie, pieces, first, clock, rated)
                     VALUES (?1, ?2, 13, 1, 0, 'random', '10+5', 1)",
                    rusqlite::params![by, game],
                )
                .unwrap();
            }
        }
        for g in 0..120 {
            tx.execute(
                "INSERT INTO games(id, game, size, pie, pieces, player1, player2, clock, rated,
                                   left1, left2, turn_since, result, reason, ended)
                 VALUES (?1, 'quentin', 5, 0, 0, 1, 2, '10+5', 0, 600000, 600000, 0,
                         'white', 'resignation', ?1)",
                [100_000 + g],
            )
            .unwrap();
        }
        tx.commit().unwrap();
    }
    let server = Server::start(&dir, &[]);
    let mut alice = server.bot(&dir.join("alice"));

    // One `challenges` gives the first page and says how to ask for the next.
    let (first, more) = page(&mut alice, "challenges");
    assert_eq!(first.len(), 100);
    let last = first.last().unwrap().split(' ').next().unwrap().to_string();
    assert_eq!(
        more,
        Some((4_900, format!("challenges after {last}"))),
        "the first page's last line"
    );
    // Every page, in turn: each challenge once.
    let (all, pages) = every_page(&mut alice, "challenges");
    assert_eq!(pages, 50);
    let ids: BTreeSet<i64> = all
        .iter()
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!((all.len(), ids.len()), (5_000, 5_000));
    // Those of one game, the pages asked with it.
    let (brique, _) = every_page(&mut alice, "challenges brique");
    assert_eq!(brique.len(), 1_000);
    assert!(
        brique.iter().all(|l| l.contains(" brique 13 ")),
        "{brique:?}"
    );
    assert_eq!(
        alice.ask("challenges chess"),
        "? challenges [GAME] [after ID]"
    );

    // A player's games, the same way: 120 of them, in two pages.
    let (games, pages) = every_page(&mut alice, "games");
    assert_eq!((games.len(), pages), (120, 2));
    let (json, more) = page(&mut alice, "games --json");
    assert_eq!(json.len(), 1, "one line of JSON");
    let listed: serde_json::Value = serde_json::from_str(&json[0]).unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 100);
    assert_eq!(more, Some((20, "games --json skip 100".to_string())));

    // Never cut: the session answers on.
    assert_eq!(alice.ask("whoami"), "= alice");
}
