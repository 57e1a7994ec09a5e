//! The hub's routing of a game's command with a fake set of other processes: passed to the
//! owner, taken over when the owner is gone, and the answer at the deadline when nobody owns
//! the game or the owner is silent. The end-to-end tests (tests/it/server_cluster*.rs) reach
//! these paths through real processes; here each is driven on purpose.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use quentin_rules::{Action, Point};

use crate::ids::{GameId, Moment, PlayerId};

use crate::hub::{FairLimits, GameCommand, Hub, HubLimits, Outcome, Owner, PeerFuture, Peers};
use crate::note::Note;
use crate::refusal::Refusal;
use crate::spec::Spec;
use crate::store::Sqlite;

/// The other processes, as the test sets them: who owns the game, what the owner answers,
/// and what reading the owner again finds.
struct FakePeers {
    owner: Mutex<Owner>,
    /// The owner's answers in turn; `None`, no answer in time. Past the last, no answer.
    answers: Mutex<VecDeque<Option<Result<Outcome, Refusal>>>>,
    /// The commands passed on: to whom, and which.
    forwarded: Mutex<Vec<(String, GameCommand)>>,
    /// The owner after the next reading (`settle`), if it changes.
    after_settle: Mutex<Option<Owner>>,
    /// Whether the database answers a reading.
    reachable: bool,
    settled: AtomicUsize,
    notes: Mutex<Vec<Note>>,
}

impl FakePeers {
    fn owned_by(owner: Owner, reachable: bool) -> Arc<FakePeers> {
        Arc::new(FakePeers {
            owner: Mutex::new(owner),
            answers: Mutex::new(VecDeque::new()),
            forwarded: Mutex::new(Vec::new()),
            after_settle: Mutex::new(None),
            reachable,
            settled: AtomicUsize::new(0),
            notes: Mutex::new(Vec::new()),
        })
    }

    fn answering(self: &Arc<Self>, answers: &[Option<Result<Outcome, Refusal>>]) {
        self.answers.lock().unwrap().extend(answers.iter().cloned());
    }
}

impl Peers for FakePeers {
    fn owner(&self, _id: GameId) -> Owner {
        self.owner.lock().unwrap().clone()
    }

    fn forward<'a>(
        &'a self,
        owner: &'a str,
        _player: PlayerId,
        _id: GameId,
        command: GameCommand,
    ) -> PeerFuture<'a, Option<Result<Outcome, Refusal>>> {
        self.forwarded
            .lock()
            .unwrap()
            .push((owner.to_string(), command));
        let answer = self.answers.lock().unwrap().pop_front().flatten();
        Box::pin(async move {
            if answer.is_none() {
                // No answer: the asking process's own wait for it runs out (on the tests'
                // paused clock, which moves on as soon as nothing else can run).
                let never = std::future::pending::<()>();
                let _ = tokio::time::timeout(std::time::Duration::from_secs(2), never).await;
            }
            answer
        })
    }

    fn settle(&self, _id: GameId) -> PeerFuture<'_, bool> {
        self.settled.fetch_add(1, Ordering::SeqCst);
        if let Some(owner) = self.after_settle.lock().unwrap().take() {
            *self.owner.lock().unwrap() = owner;
        }
        let reachable = self.reachable;
        Box::pin(async move { reachable })
    }

    fn look_up(&self, _id: GameId) -> PeerFuture<'_, ()> {
        Box::pin(async {})
    }

    fn note(&self, note: Note) {
        self.notes.lock().unwrap().push(note);
    }

    fn presence_changed(&self) {}

    fn started(&self, _id: GameId) {}

    fn hold(&self, _id: GameId) -> PeerFuture<'_, Result<(), String>> {
        Box::pin(async { Ok(()) })
    }
}

fn at(p: &str) -> Action {
    Action::Place(Point::parse(p).unwrap())
}

/// A hub with a game of alice (who moves first) and bob, started while this process was
/// alone; then the fake peers join. The players, the game.
async fn game_with(peers: Arc<FakePeers>) -> (tempfile::TempDir, Hub, [PlayerId; 2], GameId) {
    let dir = tempfile::tempdir().unwrap();
    let store = Sqlite::open(&dir.path().join("server.db")).unwrap();
    let limits = HubLimits {
        fair: FairLimits {
            asks_per_minute: 1000,
            live_games: 1000,
            rated_per_pair: 1000,
        },
        ..HubLimits::default()
    };
    let hub = Hub::open(store, limits, Moment(1_000)).unwrap();
    let (a, _) = hub.register("ka", "alice", Moment(0)).await.unwrap();
    let (b, _) = hub.register("kb", "bob", Moment(0)).await.unwrap();
    let words = ["quentin", "size", "5", "pie", "off", "first", "me"];
    let id = hub
        .challenge(a, &Spec::parse(&words).unwrap(), Moment(0))
        .await
        .unwrap();
    hub.accept(b, id, Moment(0)).await.unwrap();
    hub.join(peers);
    (dir, hub, [a, b], id.game())
}

#[tokio::test]
async fn a_command_is_passed_to_the_owner_and_its_answer_given() {
    let peers = FakePeers::owned_by(Owner::Other("p2".to_string()), true);
    peers.answering(&[Some(Ok(Outcome::Done))]);
    let (_dir, hub, [a, b], id) = game_with(peers.clone()).await;
    let play = GameCommand::Play(at("b2"));
    assert_eq!(hub.act(a, id, play, Moment(10)).await, Ok(Outcome::Done));
    assert_eq!(*peers.forwarded.lock().unwrap(), [("p2".to_string(), play)]);
    // The owner commits it; this copy hears of it by the owner's news, not by the answer.
    assert!(hub.game(id, Moment(10)).unwrap().actions.is_empty());
    // What this copy refuses is refused at once, with its reason, and passed to nobody.
    assert_eq!(
        hub.act(b, id, GameCommand::Play(at("c3")), Moment(10))
            .await,
        Err(Refusal::NotYourTurn)
    );
    assert_eq!(peers.forwarded.lock().unwrap().len(), 1);
    assert_eq!(peers.settled.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn a_game_whose_owner_is_gone_is_taken_over_and_the_command_runs_here() {
    let peers = FakePeers::owned_by(Owner::Other("p2".to_string()), true);
    // The owner says the game is moving; reading the lease again, this process takes it.
    peers.answering(&[Some(Err(Refusal::Moving))]);
    *peers.after_settle.lock().unwrap() = Some(Owner::Me);
    let (_dir, hub, [a, _], id) = game_with(peers.clone()).await;
    assert_eq!(
        hub.act(a, id, GameCommand::Play(at("b2")), Moment(10))
            .await,
        Ok(Outcome::Done)
    );
    assert_eq!(peers.settled.load(Ordering::SeqCst), 1);
    assert_eq!(hub.game(id, Moment(10)).unwrap().actions, [at("b2")]);
}

#[tokio::test(start_paused = true)]
async fn nobody_owning_the_game_until_the_deadline_is_said_to_be_moving() {
    let peers = FakePeers::owned_by(Owner::Nobody, true);
    let (_dir, hub, [a, _], id) = game_with(peers.clone()).await;
    let started = tokio::time::Instant::now();
    assert_eq!(
        hub.act(a, id, GameCommand::Play(at("b2")), Moment(10))
            .await,
        Err(Refusal::Moving)
    );
    // Asked again every tenth of a second for the ten seconds (time paused: no real wait).
    assert!(started.elapsed() >= std::time::Duration::from_secs(10));
    assert!(peers.settled.load(Ordering::SeqCst) >= 90);
    assert!(hub.game(id, Moment(10)).unwrap().actions.is_empty());
}

#[tokio::test(start_paused = true)]
async fn a_database_that_cannot_be_reached_until_the_deadline_is_said_so() {
    let peers = FakePeers::owned_by(Owner::Nobody, false);
    let (_dir, hub, [a, _], id) = game_with(peers).await;
    assert_eq!(
        hub.act(a, id, GameCommand::Play(at("b2")), Moment(10))
            .await,
        Err(Refusal::Unreachable)
    );
}

#[tokio::test(start_paused = true)]
async fn an_owner_alive_but_silent_until_the_deadline_is_said_to_be_slow() {
    let peers = FakePeers::owned_by(Owner::Other("p2".to_string()), true);
    let (_dir, hub, [a, _], id) = game_with(peers.clone()).await;
    assert_eq!(
        hub.act(a, id, GameCommand::Play(at("b2")), Moment(10))
            .await,
        Err(Refusal::Slow)
    );
    assert!(peers.forwarded.lock().unwrap().len() > 1, "asked again");
}
