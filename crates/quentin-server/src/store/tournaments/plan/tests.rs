//! The rules of the tournaments' changes, decided on facts alone: no store.

use super::{Answer, Decision, Facts, Need, Write, decide, need};
use crate::ids::{GameId, Millis, Moment, PlayerId};
use crate::spec::TimeControl;
use crate::store::tournaments::{EntrantRow, Plan, Round, TournamentChange};
use crate::store::{Applied, GameRow};
use crate::tournament::{Status, TournamentId};
use quentin_rules::{Game, Setup};
use std::sync::Arc;

const T: TournamentId = TournamentId(3);

fn entrant(p: i64) -> EntrantRow {
    EntrantRow {
        player: PlayerId(p),
        withdrawn: false,
        strikes: 0,
        paused: false,
    }
}

fn facts(status: Status, entrants: i64, pairings: usize) -> Option<Facts> {
    Some(Facts {
        status,
        entrants: (1..=entrants).map(entrant).collect(),
        pairings,
    })
}

fn game(a: i64, b: i64) -> GameRow {
    GameRow {
        id: GameId(0),
        setup: Setup::new(Game::Quentin),
        players: [PlayerId(a), PlayerId(b)],
        clock: TimeControl::Live {
            minutes: 1,
            increment: 0,
        },
        rated: false,
        left: [Millis(60_000), Millis(60_000)],
        turn_since: Moment(50),
        actions: Vec::new(),
        result: None,
        ended: None,
    }
}

fn join(max: i64) -> TournamentChange {
    TournamentChange::Join {
        tournament: T,
        player: PlayerId(9),
        max,
    }
}

#[test]
fn a_join_is_written_only_to_an_open_tournament_with_room() {
    assert_eq!(need(&join(4)), Need::Entrants);
    let joined = decide(&join(4), facts(Status::Open, 3, 0)).unwrap();
    assert_eq!(joined.writes, vec![Write::Join(PlayerId(9))]);
    assert_eq!(joined.answer, Answer::Done);
    let full = decide(&join(3), facts(Status::Open, 3, 0)).unwrap();
    assert_eq!(
        (full.writes.len(), full.answer),
        (0, Answer::Refused(Applied::Taken))
    );
    let started = decide(&join(4), facts(Status::Running, 1, 0)).unwrap();
    assert_eq!(
        started.answer,
        Answer::Refused(Applied::Status(Status::Running))
    );
    assert!(started.writes.is_empty());
    assert!(
        decide(&join(4), None).is_err(),
        "a join is never decided blind"
    );
}

#[test]
fn a_leave_before_the_start_removes_and_after_it_withdraws() {
    let leave = TournamentChange::Leave {
        tournament: T,
        player: PlayerId(2),
    };
    let of = |status| decide(&leave, facts(status, 2, 0)).unwrap();
    assert_eq!(of(Status::Open).writes, vec![Write::Remove(PlayerId(2))]);
    assert_eq!(
        of(Status::Running).writes,
        vec![Write::Withdraw(PlayerId(2))]
    );
    for status in [Status::Over, Status::Cancelled] {
        assert_eq!(of(status).answer, Answer::Refused(Applied::Status(status)));
        assert!(of(status).writes.is_empty());
    }
}

#[test]
fn a_cancel_and_a_start_exclude_each_other() {
    let cancel = |running| TournamentChange::Cancel {
        tournament: T,
        at: Moment(50),
        text: "cancelled".into(),
        running,
    };
    let open = decide(&cancel(false), facts(Status::Open, 2, 0)).unwrap();
    assert_eq!(
        open.writes,
        vec![
            Write::Status {
                status: Status::Cancelled,
                started: None
            },
            Write::Message {
                at: Moment(50),
                text: "cancelled".into()
            }
        ]
    );
    let player = decide(&cancel(false), facts(Status::Running, 2, 0)).unwrap();
    assert_eq!(
        player.answer,
        Answer::Refused(Applied::Status(Status::Running))
    );
    let operator = decide(&cancel(true), facts(Status::Running, 2, 0)).unwrap();
    assert_eq!(operator.writes.len(), 2);
    let over = decide(&cancel(true), facts(Status::Over, 2, 0)).unwrap();
    assert_eq!(over.answer, Answer::Refused(Applied::Status(Status::Over)));
}

#[test]
fn a_status_sets_the_start_only_when_it_starts() {
    let status = |status| TournamentChange::Status {
        tournament: T,
        status,
        at: Moment(7),
    };
    assert_eq!(need(&status(Status::Running)), Need::Nothing);
    let started = decide(&status(Status::Running), None).unwrap();
    assert_eq!(
        started.writes,
        vec![Write::Status {
            status: Status::Running,
            started: Some(Moment(7))
        }]
    );
    let over = decide(&status(Status::Over), None).unwrap();
    assert_eq!(
        over.writes,
        vec![Write::Status {
            status: Status::Over,
            started: None
        }]
    );
}

fn paired(start: Option<Moment>, known: usize) -> TournamentChange {
    let plan: Plan = Plan(Arc::new(|entrants: &[EntrantRow]| {
        (entrants.len() >= 3).then(|| Round {
            byes: vec![(1, entrants[2].player)],
            games: vec![(1, game(entrants[0].player.0, entrants[1].player.0))],
        })
    }));
    TournamentChange::Paired {
        tournament: T,
        start,
        known,
        plan,
    }
}

#[test]
fn a_round_is_paired_from_the_entrants_read_and_written_whole() {
    let start = decide(&paired(Some(Moment(70)), 0), facts(Status::Open, 3, 0)).unwrap();
    assert_eq!(
        start.writes,
        vec![
            Write::Status {
                status: Status::Running,
                started: Some(Moment(70))
            },
            Write::Bye {
                round: 1,
                player: PlayerId(3)
            },
            Write::Game {
                round: 1,
                game: game(1, 2)
            },
        ]
    );
    let Applied::Paired(done) = start.applied(None, vec![GameId(40)]).unwrap() else {
        panic!("a paired round answers with its pairing");
    };
    assert_eq!(done.entrants.len(), 3);
    assert_eq!(done.round.unwrap().games[0].1.id, GameId(40));
}

#[test]
fn a_round_is_not_paired_on_a_status_or_pairings_the_hub_did_not_know() {
    let refused = |change: &TournamentChange, f| decide(change, f).unwrap();
    let running = refused(&paired(Some(Moment(70)), 0), facts(Status::Running, 3, 0));
    assert_eq!(
        running.answer,
        Answer::Refused(Applied::Status(Status::Running))
    );
    let open = refused(&paired(None, 0), facts(Status::Open, 3, 0));
    assert_eq!(open.answer, Answer::Refused(Applied::Status(Status::Open)));
    let unknown = refused(&paired(None, 1), facts(Status::Running, 3, 2));
    assert_eq!(unknown.answer, Answer::Refused(Applied::Taken));
    for decision in [running, open, unknown] {
        assert!(decision.writes.is_empty());
    }
    // The plan pairs nobody: nothing written, the entrants still told.
    let nobody = refused(&paired(Some(Moment(70)), 0), facts(Status::Open, 2, 0));
    assert!(nobody.writes.is_empty());
    let Applied::Paired(p) = nobody.applied(None, Vec::new()).unwrap() else {
        panic!("a paired round answers with its pairing");
    };
    assert_eq!((p.entrants.len(), p.round), (2, None));
}

#[test]
fn the_answer_needs_the_numbers_its_writes_gave() {
    let created = Decision {
        writes: Vec::new(),
        answer: Answer::Created,
    };
    assert!(created.clone().applied(None, Vec::new()).is_err());
    assert_eq!(
        created.applied(Some(5), Vec::new()).unwrap(),
        Applied::Id(5)
    );
    let one = Decision {
        writes: Vec::new(),
        answer: Answer::Game,
    };
    assert!(one.clone().applied(None, Vec::new()).is_err());
    assert_eq!(one.applied(None, vec![GameId(8)]).unwrap(), Applied::Id(8));
}
