//! The tournaments' store cases, each run on SQLite and on PostgreSQL (`each_store`): the
//! rules of `crate::store::tournaments::plan` carried out by both dialects alike.

use super::{Either, created, each_store};
use crate::ids::{GameId, Millis, Moment, PlayerId};
use crate::spec::TimeControl;
use crate::store::tournaments::{EntrantRow, PairingRow, TournamentChange};
use crate::store::{Applied, Change, GameRow};
use crate::tournament::Status;
use quentin_rules::{Game, Setup};

/// Players named `names`, made in `store`: their numbers.
fn players(store: &mut Either, names: &[&str]) -> Vec<PlayerId> {
    let mut ids = Vec::new();
    for name in names {
        let add = Change::AddPlayer {
            key: format!("SHA256:{name}"),
            name: (*name).to_string(),
            at: Moment(1),
        };
        let Ok(Applied::Id(id)) = store.commit(&[&add]).unwrap().remove(0) else {
            panic!("no player");
        };
        ids.push(PlayerId(id));
    }
    ids
}

/// A live one-minute game of Quentin between `first` and `second`, not yet numbered.
fn game(first: PlayerId, second: PlayerId, rated: bool) -> GameRow {
    GameRow {
        id: GameId(0),
        setup: Setup::new(Game::Quentin),
        players: [first, second],
        clock: TimeControl::Live {
            minutes: 1,
            increment: 0,
        },
        rated,
        left: [Millis(60_000), Millis(60_000)],
        turn_since: Moment(50),
        actions: Vec::new(),
        result: None,
        ended: None,
    }
}

/// `change` committed alone: what it gave, without the rows a tournament's change brings.
fn one(store: &mut Either, change: TournamentChange) -> Applied {
    let change = Change::Tournament(change);
    store.commit(&[&change]).unwrap().remove(0).unwrap().plain()
}

#[test]
fn a_tournament_s_entrants_pairings_and_state_come_back_as_they_were_committed() {
    each_store("tournament_rows", rows_case);
}

/// A tournament's changes of every kind, committed one after the other: its players, its
/// game's row, and the last change's outcome.
fn committed(store: &mut Either) -> (Vec<PlayerId>, GameRow, Result<Applied, String>) {
    let ids = players(store, &["ann", "bea", "cy"]);
    let t = created(store, ids[0]);
    let mut changes: Vec<Change> = ids
        .iter()
        .map(|p| {
            Change::Tournament(TournamentChange::Join {
                tournament: t,
                player: *p,
                max: 64,
            })
        })
        .collect();
    changes.push(Change::Tournament(TournamentChange::Status {
        tournament: t,
        status: Status::Running,
        at: Moment(50),
    }));
    changes.push(Change::Tournament(TournamentChange::Bye {
        tournament: t,
        round: 1,
        player: ids[2],
    }));
    changes.push(Change::Tournament(TournamentChange::Entrant {
        tournament: t,
        entrant: EntrantRow {
            player: ids[1],
            withdrawn: false,
            strikes: 1,
            paused: true,
        },
    }));
    let game = game(ids[1], ids[0], true);
    changes.push(Change::Tournament(TournamentChange::Pair {
        tournament: t,
        round: 1,
        game: game.clone(),
    }));
    // One after the other: PostgreSQL commits the changes of one batch side by side, each in
    // its own transaction, in whatever order their locks are had.
    let outcomes: Vec<_> = changes
        .iter()
        .map(|change| store.commit(&[change]).unwrap().remove(0))
        .collect();
    let last = outcomes
        .last()
        .unwrap()
        .as_ref()
        .map_err(|e| format!("{e:#}"));
    (ids, game, last.cloned())
}

fn rows_case(store: &mut Either) {
    let (ids, game, last) = committed(store);
    let Ok(Applied::Id(game_id)) = last.clone().map(Applied::plain) else {
        panic!("no game: {last:?}");
    };
    let loaded = store.load().unwrap();
    assert!(
        loaded.challenges.is_empty(),
        "the game's challenge is closed"
    );
    assert_eq!(
        loaded.games,
        [GameRow {
            id: GameId(game_id),
            ..game
        }]
    );
    let [row] = &loaded.tournaments[..] else {
        panic!("{:?}", loaded.tournaments)
    };
    assert_eq!(
        (row.status, row.started, row.starts),
        (Status::Running, Some(Moment(50)), Moment(70))
    );
    // Each change counted (the creation, three joins, the start, a bye, an entrant's state,
    // a game), and the last one gave back the rows as the store holds them after it: a
    // process's copy is replaced by those, never by an older read.
    assert_eq!(row.version, 8);
    let Ok(Applied::Tournament(_, after)) = last else {
        panic!("no rows: {last:?}");
    };
    assert_eq!(*after, *row);
    let entrants: Vec<(PlayerId, i64, bool)> = row
        .entrants
        .iter()
        .map(|e| (e.player, e.strikes, e.paused))
        .collect();
    assert_eq!(
        entrants,
        [(ids[0], 0, false), (ids[1], 1, true), (ids[2], 0, false)]
    );
    assert_eq!(
        row.pairings,
        [
            PairingRow {
                round: 1,
                first: ids[2],
                second: None,
                game: None
            },
            PairingRow {
                round: 1,
                first: ids[1],
                second: Some(ids[0]),
                game: Some(GameId(game_id))
            }
        ]
    );
}

#[test]
fn a_round_s_pairings_are_written_whole_or_not_at_all() {
    each_store("tournament_round", round_case);
}

fn round_case(store: &mut Either) {
    let t = created(store, PlayerId(1));
    let round = |last: i64| {
        Change::Tournament(TournamentChange::Round {
            tournament: t,
            byes: vec![(1, PlayerId(5))],
            games: vec![
                (1, game(PlayerId(1), PlayerId(2), false)),
                (1, game(PlayerId(3), PlayerId(last), false)),
            ],
        })
    };
    // The last game's pairing row fails, as a director killed before its end would leave it.
    store.execute(
        "CREATE TRIGGER fail_last BEFORE INSERT ON tournament_pairings
         WHEN NEW.second = 99 BEGIN SELECT RAISE(ABORT, 'the last row fails'); END;",
        "CREATE FUNCTION fail_last() RETURNS trigger AS $$
         BEGIN IF NEW.second = 99 THEN RAISE EXCEPTION 'the last row fails'; END IF;
         RETURN NEW; END $$ LANGUAGE plpgsql;
         CREATE TRIGGER fail_last BEFORE INSERT ON tournament_pairings
         FOR EACH ROW EXECUTE FUNCTION fail_last();",
    );
    let outcome = store.commit(&[&round(99)]).unwrap().remove(0);
    assert!(outcome.is_err(), "{outcome:?}");
    let loaded = store.load().unwrap();
    assert_eq!(loaded.tournaments[0].pairings, []);
    assert_eq!(loaded.games, []);
    assert_eq!(loaded.challenges, []);
    assert_eq!(
        loaded.tournaments[0].version, 1,
        "its creation alone: a failed change counts nothing"
    );
    // Whole, the round is there: its bye, then its games with their numbers.
    let outcome = store
        .commit(&[&round(4)])
        .unwrap()
        .remove(0)
        .map(Applied::plain);
    let Ok(Applied::Ids(ids)) = outcome else {
        panic!("{outcome:?}");
    };
    let loaded = store.load().unwrap();
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
    assert_eq!(loaded.games.len(), 2);
}

#[test]
fn joins_leaves_and_a_cancel_are_decided_alike_on_both_stores() {
    each_store("tournament_rules", rules_case);
}

fn rules_case(store: &mut Either) {
    let ids = players(store, &["ann", "bea", "cy"]);
    let t = created(store, ids[0]);
    let join = |player| TournamentChange::Join {
        tournament: t,
        player,
        max: 2,
    };
    assert_eq!(one(store, join(ids[0])), Applied::Done);
    assert_eq!(one(store, join(ids[1])), Applied::Done);
    assert_eq!(one(store, join(ids[2])), Applied::Taken, "past the most");
    // A leave before the start, as if never joined: a place again.
    let leave = |player| TournamentChange::Leave {
        tournament: t,
        player,
    };
    assert_eq!(one(store, leave(ids[1])), Applied::Done);
    assert_eq!(one(store, join(ids[2])), Applied::Done);
    let entrants = |store: &mut Either| -> Vec<PlayerId> {
        let loaded = store.load().unwrap();
        loaded.tournaments[0]
            .entrants
            .iter()
            .map(|e| e.player)
            .collect()
    };
    assert_eq!(entrants(store), [ids[0], ids[2]]);
    // A player's cancel of a running tournament is refused; an operator's is carried out, its
    // message left for each entrant; then nothing moves it.
    let running = TournamentChange::Status {
        tournament: t,
        status: Status::Running,
        at: Moment(60),
    };
    assert_eq!(one(store, running), Applied::Done);
    let cancel = |running| TournamentChange::Cancel {
        tournament: t,
        at: Moment(90),
        text: "tournament t1 is cancelled".into(),
        running,
    };
    assert_eq!(one(store, cancel(false)), Applied::Status(Status::Running));
    assert_eq!(
        one(store, leave(ids[2])),
        Applied::Done,
        "withdrawn once running"
    );
    assert_eq!(one(store, cancel(true)), Applied::Done);
    assert_eq!(
        store.number("SELECT count(*) FROM messages WHERE at = 90"),
        2,
        "each entrant told"
    );
    assert_eq!(one(store, join(ids[1])), Applied::Status(Status::Cancelled));
    assert_eq!(one(store, cancel(true)), Applied::Status(Status::Cancelled));
    let loaded = store.load().unwrap();
    let row = &loaded.tournaments[0];
    assert_eq!(
        (row.status, row.started),
        (Status::Cancelled, Some(Moment(60)))
    );
    let withdrawn: Vec<bool> = row.entrants.iter().map(|e| e.withdrawn).collect();
    assert_eq!(withdrawn, [false, true]);
    // The refused changes counted nothing: a creation, three joins and a leave, a start, a
    // withdrawal and a cancel.
    assert_eq!(row.version, 8);
}
