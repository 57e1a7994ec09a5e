//! A tournament round's pairings on the PostgreSQL store, through its own interface on a
//! database of the test's: written whole in one transaction, or, when a row of it fails (as a
//! director killed midway would leave it), not at all: no pairing, no game, no challenge of
//! that round. A start waits for a join that holds the tournament's row, and pairs it; a join
//! after the start is refused.

use std::sync::{Arc, Mutex};

use quentin::rules::{Game, Setup};
use quentin::server::ids::{GameId, Millis, Moment, PlayerId, TournamentId};
use quentin::server::spec::TimeControl;
use quentin::server::store::postgres::{config, pool};
use quentin::server::store::{
    Applied, Change, EntrantRow, GameRow, Paired, Plan, Postgres, Round, TournamentChange,
    TournamentRow,
};
use quentin::server::tournament::{Settings, Status};

use crate::pty::wait_until;
use crate::serve::pg::{Database, execute, query_i64};

const PROCESS: &str = "test-process";

#[test]
fn a_round_s_pairings_are_written_whole_or_not_at_all_on_postgresql() {
    let Some(db) = Database::new("store_round") else {
        return;
    };
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let store = runtime.block_on(async {
        let pool = pool(config(&db.url, PROCESS).unwrap(), 4).await.unwrap();
        Postgres::open(pool, PROCESS, "the test's database")
            .await
            .unwrap()
    });
    let create = Change::Tournament(TournamentChange::Create(TournamentRow {
        id: TournamentId(0),
        by: PlayerId(1),
        settings: Settings::from_stored("swiss quentin clock 1+0 rounds 2").unwrap(),
        created: Moment(10),
        starts: Moment(70),
        status: Status::Open,
        started: None,
        version: 0,
        entrants: Vec::new(),
        pairings: Vec::new(),
    }));
    let Ok(Applied::Id(t)) = runtime
        .block_on(store.commit(&[&create]))
        .unwrap()
        .remove(0)
        .map(Applied::plain)
    else {
        panic!("no tournament");
    };
    let t = TournamentId(t);
    let game = |first: i64, second: i64| GameRow {
        id: GameId(0),
        setup: Setup::new(Game::Quentin),
        players: [PlayerId(first), PlayerId(second)],
        clock: TimeControl::parse_live("1+0").unwrap(),
        rated: false,
        left: [Millis(60_000), Millis(60_000)],
        turn_since: Moment(50),
        actions: Vec::new(),
        result: None,
        ended: None,
    };
    let round = |last: i64| {
        Change::Tournament(TournamentChange::Round {
            tournament: t,
            byes: vec![(1, PlayerId(5))],
            games: vec![(1, game(1, 2)), (1, game(3, last))],
        })
    };
    // The round's last row fails.
    execute(
        &db.url,
        "CREATE FUNCTION fail_last() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN RAISE EXCEPTION 'the last row fails'; END $$;
         CREATE TRIGGER fail_last BEFORE INSERT ON tournament_pairings
         FOR EACH ROW WHEN (NEW.second = 99) EXECUTE FUNCTION fail_last();",
    );
    let outcome = runtime
        .block_on(store.commit(&[&round(99)]))
        .unwrap()
        .remove(0);
    assert!(outcome.is_err(), "{outcome:?}");
    for table in ["tournament_pairings", "games", "challenges", "owners"] {
        assert_eq!(
            query_i64(&db.url, &format!("SELECT count(*) FROM {table}")),
            0,
            "{table}"
        );
    }
    // Whole: its bye and both games, with their numbers.
    let outcome = runtime
        .block_on(store.commit(&[&round(4)]))
        .unwrap()
        .remove(0)
        .map(Applied::plain);
    let Ok(Applied::Ids(ids)) = outcome else {
        panic!("{outcome:?}");
    };
    assert_eq!(ids.len(), 2);
    assert_eq!(
        query_i64(&db.url, "SELECT count(*) FROM tournament_pairings"),
        3
    );
    assert_eq!(query_i64(&db.url, "SELECT count(*) FROM games"), 2);
    let loaded = runtime.block_on(store.load()).unwrap();
    let pairings: Vec<(i64, Option<i64>, Option<GameId>)> = loaded.tournaments[0]
        .pairings
        .iter()
        .map(|p| (p.first.0, p.second.map(|s| s.0), p.game))
        .collect();
    assert_eq!(
        pairings,
        [
            (5, None, None),
            (1, Some(2), Some(ids[0])),
            (3, Some(4), Some(ids[1]))
        ]
    );
}

/// A game of a tournament's round, between `first` and `second`.
fn tournament_game(first: PlayerId, second: PlayerId) -> GameRow {
    GameRow {
        id: GameId(0),
        setup: Setup::new(Game::Quentin),
        players: [first, second],
        clock: TimeControl::parse_live("1+0").unwrap(),
        rated: false,
        left: [Millis(60_000), Millis(60_000)],
        turn_since: Moment(50),
        actions: Vec::new(),
        result: None,
        ended: None,
    }
}

/// `player` joins tournament `t`.
fn join(t: TournamentId, player: i64) -> Change {
    Change::Tournament(TournamentChange::Join {
        tournament: t,
        player: PlayerId(player),
        max: 64,
    })
}

#[test]
fn a_start_on_postgresql_pairs_a_join_committed_while_it_waited_for_the_tournament_and_refuses_one_after_it()
 {
    let Some(db) = Database::new("store_start") else {
        return;
    };
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let store = Arc::new(runtime.block_on(async {
        let pool = pool(config(&db.url, PROCESS).unwrap(), 4).await.unwrap();
        Postgres::open(pool, PROCESS, "the test's database")
            .await
            .unwrap()
    }));
    let commit = |change: Change| {
        let store = store.clone();
        runtime.block_on(async move {
            store
                .commit(&[&change])
                .await
                .unwrap()
                .remove(0)
                .map(Applied::plain)
        })
    };
    let create = Change::Tournament(TournamentChange::Create(TournamentRow {
        id: TournamentId(0),
        by: PlayerId(1),
        settings: Settings::from_stored("swiss quentin clock 1+0 rounds 2").unwrap(),
        created: Moment(10),
        starts: Moment(70),
        status: Status::Open,
        started: None,
        version: 0,
        entrants: Vec::new(),
        pairings: Vec::new(),
    }));
    let Ok(Applied::Id(tn)) = commit(create) else {
        panic!("no tournament");
    };
    let t = TournamentId(tn);
    for player in [1, 2] {
        assert_eq!(commit(join(t, player)).unwrap(), Applied::Done);
    }
    // Another process's join, its transaction holding the tournament's row as a join does,
    // not yet committed.
    let other = runtime.block_on(async {
        let (client, connection) = tokio_postgres::connect(&db.url, tokio_postgres::NoTls)
            .await
            .unwrap();
        tokio::spawn(connection);
        client
            .batch_execute(&format!(
                "BEGIN; SELECT status FROM tournaments WHERE id = {tn} FOR UPDATE;
                 INSERT INTO tournament_entrants(tournament, player, seq) VALUES ({tn}, 3, 3);"
            ))
            .await
            .unwrap();
        client
    });
    // The start pairs the first two entrants it is given, and gives the third a bye.
    let given = Arc::new(Mutex::new(Vec::new()));
    let plan = {
        let given = given.clone();
        Plan(Arc::new(move |entrants: &[EntrantRow]| {
            let players: Vec<PlayerId> = entrants.iter().map(|e| e.player).collect();
            given.lock().unwrap().push(players.clone());
            Some(Round {
                byes: players.get(2).map(|p| (1, *p)).into_iter().collect(),
                games: vec![(1, tournament_game(players[0], players[1]))],
            })
        }))
    };
    let start = Change::Tournament(TournamentChange::Paired {
        tournament: t,
        start: Some(Moment(60)),
        known: 0,
        plan,
    });
    let started = {
        let store = store.clone();
        runtime.spawn(async move {
            store
                .commit(&[&start])
                .await
                .unwrap()
                .remove(0)
                .map(Applied::plain)
        })
    };
    wait_until("the start waiting for the tournament's row", || {
        let waiting = query_i64(
            &db.url,
            "SELECT count(*) FROM pg_stat_activity
             WHERE wait_event_type = 'Lock' AND datname = current_database()",
        );
        (waiting > 0).then_some(())
    });
    assert!(
        given.lock().unwrap().is_empty(),
        "the plan waits for the lock"
    );
    runtime.block_on(other.batch_execute("COMMIT")).unwrap();
    let outcome = runtime.block_on(started).unwrap();
    let Ok(Applied::Paired(Paired {
        entrants,
        round: Some(round),
    })) = outcome
    else {
        panic!("{outcome:?}");
    };
    let numbers = |players: &[PlayerId]| players.iter().map(|p| p.0).collect::<Vec<i64>>();
    assert_eq!(
        given
            .lock()
            .unwrap()
            .iter()
            .map(|g| numbers(g))
            .collect::<Vec<_>>(),
        [vec![1, 2, 3]]
    );
    assert_eq!(
        entrants.iter().map(|e| e.player.0).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    assert_eq!(round.byes, [(1, PlayerId(3))]);
    assert_ne!(round.games[0].1.id, GameId(0), "the game has its number");
    assert_eq!(
        query_i64(
            &db.url,
            &format!(
                "SELECT count(*) FROM tournaments WHERE id = {tn} AND status = 'running' AND started = 60"
            )
        ),
        1
    );
    // Once it has started, a join is refused with the store's status, and so is another start;
    // a round paired from fewer pairings than the store holds is not written.
    assert_eq!(
        commit(join(t, 4)).unwrap(),
        Applied::Status(Status::Running)
    );
    let nothing = || Plan(Arc::new(|_: &[EntrantRow]| Some(Round::default())));
    let again = |start: Option<Moment>| {
        Change::Tournament(TournamentChange::Paired {
            tournament: t,
            start,
            known: 0,
            plan: nothing(),
        })
    };
    assert_eq!(
        commit(again(Some(Moment(70)))).unwrap(),
        Applied::Status(Status::Running)
    );
    assert_eq!(commit(again(None)).unwrap(), Applied::Taken);
    assert_eq!(
        query_i64(&db.url, "SELECT count(*) FROM tournament_entrants"),
        3
    );
}
