use super::*;
use crate::ids::Moment;
use crate::store::Sqlite;
use crate::store::ledger::AuditLine;
use crate::store::ledger::{Plan, PlayerNamed};

/// A new store with alice (1) and bob (2), and the ledger's connection to it.
fn store(dir: &Path) -> (Connection, LedgerFile) {
    let path = dir.join("server.db");
    drop(Sqlite::open(&path).unwrap());
    let conn = Connection::open(&path).unwrap();
    conn.execute_batch(
        "INSERT INTO players(id, name, key, created) VALUES (1, 'alice', 'SHA256:a', 5),
                                                           (2, 'bob', 'SHA256:b', 6);",
    )
    .unwrap();
    (conn, LedgerFile::open(&path).unwrap())
}

fn audit_lines(conn: &Connection) -> i64 {
    conn.query_row("SELECT COUNT(*) FROM audit", [], |r| r.get(0))
        .unwrap()
}

fn line(at: Moment) -> Write {
    Write::Audit(AuditLine {
        at,
        who: "root".into(),
        what: "mark".into(),
        whom: "alice".into(),
        why: String::new(),
    })
}

#[test]
fn a_value_of_the_wrong_type_is_an_error_not_a_zero_or_an_empty_word() {
    let dir = tempfile::tempdir().unwrap();
    let (conn, ledger) = store(dir.path());
    conn.execute_batch(
        "INSERT INTO audit(at, who, what, whom, why) VALUES (7, 'root', 'mark', 'alice', '');",
    )
    .unwrap();
    assert_eq!(ledger.since(0).unwrap()[0].at, Moment(7));
    // SQLite keeps what it is given: text where a number belongs is read as an error.
    conn.execute_batch("UPDATE audit SET at = 'soon'").unwrap();
    let e = ledger.since(0).unwrap_err();
    assert!(format!("{e:#}").contains("Invalid column type"), "{e:#}");
    // A blob where a name belongs (a number would be kept as text: the column's affinity).
    conn.execute_batch("UPDATE audit SET at = 7, who = x'ff'")
        .unwrap();
    assert!(ledger.since(0).is_err());
    conn.execute_batch("INSERT INTO bans(player, reason, ends, at) VALUES (1, 'spam', 'never', 8)")
        .unwrap();
    assert!(ledger.sanctions().is_err());
}

#[test]
fn a_refused_order_writes_nothing_and_a_failing_one_keeps_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (conn, ledger) = store(dir.path());
    let alice = PlayerNamed {
        name: "ALICE".into(),
        holding: Some(Sanction::Mark),
    };
    // Refused once the facts are read: the writes it might have made are not made.
    let refused = ledger
        .carry_out(&alice, |found| {
            let (p, holds) = found.unwrap();
            assert_eq!(
                (p.id, p.name.as_str(), holds),
                (PlayerId(1), "alice", false)
            );
            Err::<Plan<()>, String>("alice is not marked".to_string())
        })
        .unwrap();
    assert_eq!(refused, Err("alice is not marked".to_string()));
    assert_eq!(audit_lines(&conn), 0);
    // A write that fails (bob's name is taken) undoes the audit line before it.
    let failed = ledger.carry_out(&alice, |_| {
        Ok::<_, String>(Plan {
            writes: vec![
                line(Moment(9)),
                Write::Name {
                    player: PlayerId(1),
                    name: "Bob".into(),
                },
            ],
            answer: (),
        })
    });
    assert!(failed.is_err());
    assert_eq!(audit_lines(&conn), 0);
    // Done: the row and its audit line together.
    let done = ledger.carry_out(&alice, |_| {
        Ok::<_, String>(Plan {
            writes: vec![
                Write::Put {
                    flag: crate::store::ledger::Flag::Mark,
                    player: PlayerId(1),
                    at: Moment(9),
                },
                line(Moment(9)),
            ],
            answer: 3,
        })
    });
    assert_eq!(done.unwrap(), Ok(3));
    assert_eq!(audit_lines(&conn), 1);
    let found = ledger.carry_out(&alice, |found| {
        Ok::<_, String>(Plan {
            writes: Vec::new(),
            answer: found.unwrap().1,
        })
    });
    assert_eq!(found.unwrap(), Ok(true));
    assert_eq!(ledger.sanctions().unwrap().marked, [PlayerId(1)]);
}
