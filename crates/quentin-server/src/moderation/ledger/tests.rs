use super::*;
use crate::store::Sqlite;

fn stamp(what: &'static str) -> Stamp {
    Stamp {
        by: "root".into(),
        what,
        now: Moment(1_000),
    }
}

fn alice() -> Named {
    Named {
        id: PlayerId(1),
        name: "alice".into(),
    }
}

fn audit_of(plan: &Plan<String>) -> &AuditLine {
    match plan.writes.last() {
        Some(Write::Audit(line)) => line,
        other => panic!("the last write is not the audit line: {other:?}"),
    }
}

#[test]
fn each_order_decides_its_rows_its_audit_line_and_its_words() {
    let until = crate::moderation::day("2030-01-02").unwrap();
    let plan = ban(&stamp("ban"), alice(), Some(until), "spam".into()).unwrap();
    assert_eq!(
        plan.writes[..2],
        [
            Write::Ban {
                player: PlayerId(1),
                reason: "spam".into(),
                ends: Some(until),
                at: Moment(1_000)
            },
            Write::CloseChallengesOf(PlayerId(1))
        ]
    );
    let line = audit_of(&plan);
    assert_eq!(
        (line.who.as_str(), line.what.as_str(), line.whom.as_str()),
        ("root", "ban", "alice")
    );
    assert_eq!(line.why, "spam (until 2030-01-02)");

    let plan = rename(&stamp("rename"), alice()).unwrap();
    assert_eq!(plan.answer, "renamed.1");
    assert_eq!(audit_of(&plan).why, "renamed.1 until a new name is picked");
    let renamed = Named {
        id: PlayerId(1),
        name: "renamed.1".into(),
    };
    assert_eq!(
        rename(&stamp("rename"), renamed).map_err(|r| r.to_string()),
        Err("renamed.1 has a new name to pick already".to_string())
    );

    assert_eq!(
        abort(&stamp("abort"), GameId(4), None).map_err(|r| r.to_string()),
        Err("no such game".to_string())
    );
    assert_eq!(
        abort(&stamp("abort"), GameId(4), Some(true)).map_err(|r| r.to_string()),
        Err("the game is over".to_string())
    );
    assert_eq!(
        audit_of(&abort(&stamp("abort"), GameId(4), Some(false)).unwrap()).whom,
        "game 4"
    );
    assert_eq!(
        cancel(&stamp("cancel"), TournamentId(3), None).map_err(|r| r.to_string()),
        Err("no tournament t3".to_string())
    );
    assert_eq!(
        cancel(&stamp("cancel"), TournamentId(3), Some(Status::Over)).map_err(|r| r.to_string()),
        Err("tournament t3 is over".to_string())
    );
    assert_eq!(
        audit_of(&cancel(&stamp("cancel"), TournamentId(3), Some(Status::Running)).unwrap()).whom,
        "tournament t3"
    );
    assert_eq!(
        close(&stamp("close"), ChallengeId(5), false).map_err(|r| r.to_string()),
        Err("no such challenge".to_string())
    );
    assert_eq!(
        close(&stamp("close"), ChallengeId(5), true).unwrap().writes[0],
        Write::CloseChallenge(ChallengeId(5))
    );
    assert_eq!(
        found(None, "zed").map_err(|r| r.to_string()),
        Err("no player named zed".to_string())
    );
}

#[test]
fn a_renamed_player_picks_a_free_name_and_the_log_says_what_it_was() {
    let taken = NameFacts {
        taken: true,
        old: None,
        held: false,
    };
    assert_eq!(
        pick(PlayerId(1), "ally", Moment(5), taken).map_err(|r| r.to_string()),
        Err("name taken".to_string())
    );
    let plan = pick(
        PlayerId(1),
        "ally",
        Moment(5),
        NameFacts {
            taken: false,
            old: Some("alice".into()),
            held: false,
        },
    )
    .unwrap();
    assert_eq!(
        plan.writes,
        [
            Write::Name {
                player: PlayerId(1),
                name: "ally".into()
            },
            Write::NamePicked(PlayerId(1)),
            Write::Audit(AuditLine {
                at: Moment(5),
                who: "ally".into(),
                what: "new-name".into(),
                whom: "renamed.1".into(),
                why: "was alice".into()
            })
        ]
    );
}

#[test]
fn a_name_taken_by_an_operator_is_held_from_its_player_and_from_everyone_until_freed() {
    let facts = |old: Option<&str>, held| NameFacts {
        taken: false,
        old: old.map(String::from),
        held,
    };
    let own = pick(PlayerId(1), "ALICE", Moment(5), facts(Some("alice"), true))
        .unwrap_err()
        .to_string();
    assert!(
        own.starts_with("an operator took that name from you"),
        "{own}"
    );
    assert_eq!(
        pick(PlayerId(2), "alice", Moment(5), facts(Some("bob"), true)).map_err(|r| r.to_string()),
        Err("name taken".to_string())
    );
    assert!(pick(PlayerId(2), "alice", Moment(5), facts(Some("bob"), false)).is_ok());
    let held = |rows: &[(&str, &str)]| {
        let rows: Vec<(String, String)> = rows
            .iter()
            .map(|(a, b)| ((*a).to_string(), (*b).to_string()))
            .collect();
        let mut names: Vec<String> = held_names(&rows).into_iter().collect();
        names.sort();
        names
    };
    assert_eq!(
        held(&[("rename", "Alice"), ("rename", "bob"), ("free", "alice")]),
        ["bob"]
    );
    assert_eq!(held(&[("free", "bob"), ("rename", "bob")]), ["bob"]);
    assert!(free(&stamp("free"), "carol", false).is_err());
    assert_eq!(
        audit_of(&free(&stamp("free"), "carol", true).unwrap()).whom,
        "carol"
    );
}

#[test]
fn a_ban_until_a_day_begun_is_refused_and_its_reason_is_kept_printable() {
    // stamp()'s now is 1970-01-01 00:00:01.
    let today = crate::moderation::day("1970-01-01").unwrap();
    let refused = ban(&stamp("ban"), alice(), Some(today), "spam".into())
        .unwrap_err()
        .to_string();
    assert!(refused.contains("would ban nobody"), "{refused}");
    let plan = ban(
        &stamp("ban"),
        alice(),
        None,
        "\u{1b}[2J\u{1b}]0;pwned\u{7} spam\0 \t".into(),
    )
    .unwrap();
    assert_eq!(audit_of(&plan).why, "[2J]0;pwned spam");
    assert!(ban(&stamp("ban"), alice(), None, "\u{1b}\0".into()).is_err());
}

/// The orders through the ledger on a SQLite store: each answer's words, and the rows they
/// leave, read back as the sanctions in force.
#[tokio::test]
async fn the_orders_on_a_sqlite_store_answer_and_keep_their_rows() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("server.db");
    drop(Sqlite::open(&path).unwrap());
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch(
            "INSERT INTO players(id, name, key, created) VALUES (1, 'alice', 'SHA256:a', 5),
                                                               (2, 'bob', 'SHA256:b', 6);",
        )
        .unwrap();
    let ledger = Ledger::sqlite(&path).unwrap();
    let order = |words: &'static str| {
        let ledger = ledger.clone();
        async move {
            let words: Vec<&str> = words.split(' ').collect();
            ledger
                .order("root", &Order::parse(&words).unwrap(), Moment(1_000))
                .await
                .unwrap()
                .map_err(|r| r.to_string())
        }
    };
    assert_eq!(
        order("unban alice").await.map_err(|r| r.to_string()),
        Err("alice is not banned".to_string())
    );
    assert_eq!(order("ban Alice spam").await, Ok(String::new()));
    assert_eq!(order("mark bob").await, Ok(String::new()));
    assert_eq!(order("unmark zed").await, Err("no player named zed".into()));
    assert_eq!(order("abort 9").await, Err("no such game".into()));
    assert_eq!(order("close 9").await, Err("no such challenge".into()));
    let sanctions = ledger.sanctions().await.unwrap();
    assert_eq!(sanctions.bans[&PlayerId(1)].reason, "spam");
    assert!(sanctions.marked.contains(&PlayerId(2)));
    assert_eq!(sanctions.last, 2);
    let log = order("log").await.unwrap();
    assert!(
        log.ends_with("root ban alice: spam\n1970-01-01 00:00:01 root mark bob"),
        "{log}"
    );
    ledger
        .login("SHA256:a", "10.0.0.1", Moment(900))
        .await
        .unwrap();
    ledger
        .login("SHA256:b", "10.0.0.1", Moment(950))
        .await
        .unwrap();
    assert_eq!(
        order("players alice").await,
        Ok(
            "alice key SHA256:a games 0 aborts 0 banned addresses 10.0.0.1\n\
            same addresses: bob"
                .into()
        )
    );
    assert_eq!(ledger.since(1).await.unwrap().len(), 1);
    assert_eq!(order("rename bob").await, Ok("renamed.2".into()));
    assert_eq!(
        ledger
            .pick_name(PlayerId(2), "ALICE", Moment(1_100))
            .await
            .unwrap()
            .map_err(|r| r.to_string()),
        Err("name taken".into())
    );
    assert_eq!(
        ledger
            .pick_name(PlayerId(2), "bobby", Moment(1_100))
            .await
            .unwrap(),
        Ok(())
    );
    assert!(ledger.sanctions().await.unwrap().renamed.is_empty());
    assert_eq!(
        ledger.messages(PlayerId(1)).await.unwrap(),
        Vec::<String>::new()
    );
}
