//! A tournament round's pairings on the PostgreSQL store, through its own interface on a
//! database of the test's: written whole in one transaction, or, when a row of it fails (as a
//! director killed midway would leave it), not at all: no pairing, no game, no challenge of
//! that round.

use quentin::rules::{Game, Setup};
use quentin::server::ids::{GameId, Millis, Moment, PlayerId};
use quentin::server::spec::TimeControl;
use quentin::server::store::postgres::{config, pool};
use quentin::server::store::{Applied, Change, GameRow, Postgres, TournamentChange, TournamentRow};

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
        id: 0,
        by: PlayerId(1),
        settings: "swiss quentin clock 1+0 rounds 2".to_string(),
        created: Moment(10),
        starts: Moment(70),
        status: "open".to_string(),
        started: None,
        entrants: Vec::new(),
        pairings: Vec::new(),
    }));
    let Ok(Applied::Id(t)) = runtime
        .block_on(store.commit(&[&create]))
        .unwrap()
        .remove(0)
    else {
        panic!("no tournament");
    };
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
        .remove(0);
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
