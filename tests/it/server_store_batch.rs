//! The PostgreSQL store's group commit, through its own interface on a database of the test's:
//! the moves of several games that arrive together commit in one transaction, a game whose
//! lease this process no longer holds is refused alone, and a move the database refuses (its
//! row there already) costs the others of its batch nothing.

use quentin::rules::{Action, Game, Setup};
use quentin::server::ids::{ChallengeId, GameId, Millis, Moment, PlayerId};
use quentin::server::spec::{First, TimeControl};
use quentin::server::store::postgres::{config, pool};
use quentin::server::store::{Applied, ChallengeRow, Change, GameRow, LeaseLost, Postgres};

use crate::serve::pg::{Database, execute, query_i64};

const PROCESS: &str = "test-process";

/// A move of game `game`: action `text`, number `index`.
fn step(game: i64, index: usize, text: &str) -> Change {
    Change::AddAction {
        game: GameId(game),
        index,
        action: Some(Action::parse(text).unwrap()),
        left: [Millis(60_000), Millis(60_000)],
        at: Moment(1_000 + index as i64),
        end: None,
        winner: None,
        ratings: Vec::new(),
        since: None,
    }
}

/// Commits `changes` as one batch: each one's outcome.
fn commit(
    runtime: &tokio::runtime::Runtime,
    store: &Postgres,
    changes: &[Change],
) -> Vec<anyhow::Result<Applied>> {
    let batch: Vec<&Change> = changes.iter().collect();
    runtime.block_on(store.commit(&batch)).unwrap()
}

#[test]
fn moves_of_several_games_commit_together_and_a_lost_lease_or_a_refused_row_fails_alone() {
    let Some(db) = Database::new("store_batch") else {
        return;
    };
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let store = runtime.block_on(async {
        let pool = pool(config(&db.url, PROCESS).unwrap(), 4).await.unwrap();
        Postgres::open(pool, PROCESS, "the test's database")
            .await
            .unwrap()
    });
    let clock = TimeControl::parse_live("1+0").unwrap();
    let setup = Setup::new(Game::Quentin);
    // Two players and three games, started here: this process owns them.
    let mut players = Vec::new();
    for name in ["alice", "bob"] {
        let added = Change::AddPlayer {
            key: format!("SHA256:{name}"),
            name: name.to_string(),
            at: Moment(0),
        };
        match commit(&runtime, &store, &[added]).pop().unwrap().unwrap() {
            Applied::Id(id) => players.push(PlayerId(id)),
            other => panic!("a new player gave {other:?}"),
        }
    }
    let mut games = Vec::new();
    for _ in 0..3 {
        let challenge = ChallengeRow {
            id: ChallengeId(0),
            by: players[0],
            setup,
            first: First::Me,
            clock,
            rated: false,
            to: None,
        };
        let Applied::Id(id) = commit(&runtime, &store, &[Change::AddChallenge(challenge)])
            .pop()
            .unwrap()
            .unwrap()
        else {
            panic!("a challenge has a number");
        };
        let game = GameRow {
            id: GameId(id),
            setup,
            players: [players[0], players[1]],
            clock,
            rated: false,
            left: [Millis(60_000), Millis(60_000)],
            turn_since: Moment(0),
            actions: Vec::new(),
            result: None,
            ended: None,
        };
        let started = commit(&runtime, &store, &[Change::StartGame(game)]);
        assert!(matches!(started[..], [Ok(Applied::Done)]), "{started:?}");
        games.push(id);
    }
    let moves = || query_i64(&db.url, "SELECT count(*) FROM moves");

    // Three games' first moves, together.
    let first: Vec<Change> = games.iter().map(|&g| step(g, 0, "b2")).collect();
    let outcomes = commit(&runtime, &store, &first);
    assert!(
        outcomes.iter().all(|o| matches!(o, Ok(Applied::Done))),
        "{outcomes:?}"
    );
    assert_eq!(moves(), 3);

    // The third game's lease taken by another process: its move alone is refused.
    execute(
        &db.url,
        &format!(
            "UPDATE owners SET process = 'another' WHERE game = {}",
            games[2]
        ),
    );
    let second: Vec<Change> = games.iter().map(|&g| step(g, 1, "c3")).collect();
    let outcomes = commit(&runtime, &store, &second);
    assert!(matches!(outcomes[0], Ok(Applied::Done)), "{outcomes:?}");
    assert!(matches!(outcomes[1], Ok(Applied::Done)), "{outcomes:?}");
    let lost = outcomes[2].as_ref().unwrap_err();
    assert!(lost.is::<LeaseLost>(), "{lost:#}");
    assert_eq!(moves(), 5);
    assert_eq!(
        query_i64(
            &db.url,
            &format!("SELECT count(*) FROM moves WHERE game = {}", games[2])
        ),
        1
    );

    // A move whose row is there already, in a batch with a good one: the good one is kept.
    let third = vec![step(games[0], 1, "d4"), step(games[1], 2, "d4")];
    let outcomes = commit(&runtime, &store, &third);
    assert!(outcomes[0].is_err(), "{outcomes:?}");
    assert!(matches!(outcomes[1], Ok(Applied::Done)), "{outcomes:?}");
    assert_eq!(moves(), 6);
    // The clocks of each game as its last kept move left them.
    assert_eq!(
        query_i64(
            &db.url,
            &format!("SELECT turn_since FROM games WHERE id = {}", games[1])
        ),
        1_002
    );
    drop(store);
    drop(runtime);
}
