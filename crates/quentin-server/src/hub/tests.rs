use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};

use super::*;
use crate::spec::Spec;
use crate::store::{Backend, Loaded, Sqlite};
use quentin_rules::{Action, Game, Point};

/// A hub on a new store, fair play's limits out of the way (`tests/it/server_fair.rs` tests
/// them through the real server).
fn hub() -> (tempfile::TempDir, Hub) {
    hub_with(unlimited())
}

/// A hub on a new store with `limits`.
fn hub_with(limits: HubLimits) -> (tempfile::TempDir, Hub) {
    let dir = tempfile::tempdir().unwrap();
    let store = Sqlite::open(&dir.path().join("server.db")).unwrap();
    (dir, Hub::open(store, limits, Moment(1_000)).unwrap())
}

/// The hub's limits with fair play's out of the way.
fn unlimited() -> HubLimits {
    HubLimits {
        fair: super::FairLimits {
            asks_per_minute: 1000,
            live_games: 1000,
            rated_per_pair: 1000,
        },
        ..HubLimits::default()
    }
}

fn spec(words: &str) -> Spec {
    Spec::parse(&words.split_whitespace().collect::<Vec<_>>()).unwrap()
}

fn at(p: &str) -> Action {
    Action::Place(Point::parse(p).unwrap())
}

#[tokio::test]
async fn names_are_checked_and_unique_in_any_case() {
    let (_dir, hub) = hub();
    assert_eq!(
        hub.register("k1", "a", Moment(0)).await,
        Err(Refusal::BadName)
    );
    assert_eq!(
        hub.register("k1", "bad name", Moment(0)).await,
        Err(Refusal::BadName)
    );
    assert_eq!(
        hub.register("k1", "x\x1b[2J", Moment(0)).await,
        Err(Refusal::BadName)
    );
    let (alice, _) = hub.register("k1", "Alice", Moment(0)).await.unwrap();
    assert_eq!(
        hub.register("k2", "alice", Moment(0)).await,
        Err(Refusal::NameTaken)
    );
    assert_eq!(
        hub.register("k1", "other", Moment(0)).await,
        Err(Refusal::KeyHasName("Alice".to_string()))
    );
    assert_eq!(hub.player_of_key("k1"), Some((alice, "Alice".to_string())));
}

#[tokio::test]
async fn a_game_is_played_to_its_end_and_rated() {
    let (_dir, hub) = hub();
    let (a, _) = hub.register("ka", "alice", Moment(0)).await.unwrap();
    let (b, _) = hub.register("kb", "bob", Moment(0)).await.unwrap();
    let id = hub
        .challenge(a, &spec("quentin size 3 pie off first me"), Moment(0))
        .await
        .unwrap();
    assert_eq!(
        hub.accept(a, id, Moment(0)).await,
        Err(Refusal::OwnChallenge)
    );
    assert_eq!(
        hub.accept(b, id, Moment(10)).await.unwrap(),
        (id.game(), Color::White)
    );
    assert_eq!(
        hub.play(b, id.game(), at("b1"), Moment(20)).await,
        Err(Refusal::NotYourTurn)
    );
    let (c, _) = hub.register("kc", "carol", Moment(0)).await.unwrap();
    assert_eq!(
        hub.play(c, id.game(), at("b1"), Moment(20)).await,
        Err(Refusal::NotYourGame)
    );
    for (who, p) in [(a, "b1"), (b, "a2"), (a, "b2"), (b, "a3")] {
        hub.play(who, id.game(), at(p), Moment(30)).await.unwrap();
    }
    assert_eq!(
        hub.play(b, id.game(), at("c3"), Moment(40)).await,
        Err(Refusal::NotYourTurn),
        "it is Black's turn"
    );
    assert!(matches!(
        hub.play(a, id.game(), at("a1"), Moment(40)).await,
        Err(Refusal::Illegal(_))
    ));
    hub.play(a, id.game(), at("b3"), Moment(50)).await.unwrap();
    let view = hub.game(id.game(), Moment(60)).unwrap();
    assert_eq!(view.result_words().as_deref(), Some("B+ connection"));
    assert_eq!(
        view.result_text().as_deref(),
        Some("alice joined top and bottom and wins")
    );
    assert!(
        view.ratings[0] > 1500 && view.ratings[1] < 1500,
        "{:?}",
        view.ratings
    );
    assert_eq!(
        hub.play(b, id.game(), at("c3"), Moment(60)).await,
        Err(Refusal::GameOver)
    );
    assert_eq!(
        hub.play(b, GameId(99), at("c3"), Moment(60)).await,
        Err(Refusal::NoSuchGame(GameId(99)))
    );
    let record = quentin_record::record::Record::parse(&view.record()).unwrap();
    assert_eq!(record.actions().len(), 5);
    assert!(record.final_position().is_over());
}

#[tokio::test]
async fn everything_comes_back_from_the_store_and_downtime_is_charged_to_nobody() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("server.db");
    let (a, b, id) = {
        let hub = Hub::open(
            Sqlite::open(&path).unwrap(),
            HubLimits::default(),
            Moment(0),
        )
        .unwrap();
        let (a, _) = hub.register("ka", "alice", Moment(0)).await.unwrap();
        let (b, _) = hub.register("kb", "bob", Moment(0)).await.unwrap();
        let id = hub
            .challenge(a, &spec("konobi size 5 first me clock 10+0"), Moment(0))
            .await
            .unwrap();
        hub.challenge(a, &spec("brique"), Moment(0)).await.unwrap();
        hub.accept(b, id, Moment(0)).await.unwrap();
        hub.play(a, id.game(), at("c3"), Moment(10_000))
            .await
            .unwrap();
        // The server is last alive at 20 s: bob has used 10 s of his first move's 30.
        hub.tick(Moment(20_000)).await;
        hub.close().await;
        (a, b, id)
    };
    // Back an hour later: bob still has 20 s for his first move, and his whole clock.
    let hub = Hub::open(
        Sqlite::open(&path).unwrap(),
        HubLimits::default(),
        Moment(3_620_000),
    )
    .unwrap();
    let view = hub.game(id.game(), Moment(3_620_000)).unwrap();
    assert_eq!(view.actions, vec![at("c3")]);
    assert_eq!(view.left, [Millis(600_000), Millis(600_000)]);
    assert_eq!(view.first_move, Some(Millis(20_000)));
    assert_eq!(hub.challenges().len(), 1);
    assert_eq!(hub.integrity().await.unwrap(), "ok");
    // Bob's first move does not come 20 s later: the tick ends the game, aborted.
    assert!(!hub.tick(Moment(3_639_999)).await);
    assert!(hub.tick(Moment(3_640_000)).await);
    let view = hub.game(id.game(), Moment(3_640_000)).unwrap();
    assert_eq!(
        view.result_words().as_deref(),
        Some("aborted no-first-move")
    );
    assert_eq!(
        hub.play(b, id.game(), at("a1"), Moment(3_670_001)).await,
        Err(Refusal::GameOver)
    );
    let _ = a;
}

#[tokio::test]
async fn a_move_after_the_flag_fell_loses_on_time_and_correspondence_has_days_a_move() {
    // No vacation days, which would save a correspondence clock (`hub/vacation.rs`).
    let (_dir, hub) = hub_with(HubLimits {
        vacation_days: 0,
        ..unlimited()
    });
    let (a, _) = hub.register("ka", "alice", Moment(0)).await.unwrap();
    let (b, _) = hub.register("kb", "bob", Moment(0)).await.unwrap();
    let live = hub
        .challenge(a, &spec("quentin size 5 first me clock 1+2"), Moment(0))
        .await
        .unwrap();
    hub.accept(b, live, Moment(0)).await.unwrap();
    // A first move does not run the clock (it has a timer of its own): 2 s added.
    hub.play(a, live.game(), at("c3"), Moment(3_000))
        .await
        .unwrap();
    assert_eq!(
        hub.game(live.game(), Moment(3_000)).unwrap().left,
        [Millis(62_000), Millis(60_000)]
    );
    assert_eq!(
        hub.game(live.game(), Moment(5_000)).unwrap().first_move,
        Some(Millis(4_000))
    );
    // Bob's first move does not come within its 6 s (a tenth of the minute): the game is
    // aborted, and rated for nobody.
    assert_eq!(
        hub.play(b, live.game(), at("c2"), Moment(9_001)).await,
        Err(Refusal::TimeRanOut)
    );
    let view = hub.game(live.game(), Moment(9_001)).unwrap();
    assert_eq!(
        view.result_text().as_deref(),
        Some("Game aborted: bob made no first move")
    );
    assert!(view.changes.is_none());
    assert!(hub.leaderboard(5).is_empty());
    // Once both have moved, the clocks run: 30 s used, 2 s added; a move after the flag fell
    // loses on time (casual: a rated game this short is aborted, fair.rs).
    let live = hub
        .challenge(
            a,
            &spec("quentin size 5 first me clock 1+2 casual"),
            Moment(0),
        )
        .await
        .unwrap();
    hub.accept(b, live, Moment(0)).await.unwrap();
    hub.play(a, live.game(), at("c3"), Moment(1_000))
        .await
        .unwrap();
    hub.play(b, live.game(), at("a1"), Moment(2_000))
        .await
        .unwrap();
    hub.play(a, live.game(), at("c2"), Moment(32_000))
        .await
        .unwrap();
    assert_eq!(
        hub.game(live.game(), Moment(32_000)).unwrap().left,
        [Millis(34_000), Millis(62_000)]
    );
    assert_eq!(
        hub.play(b, live.game(), at("a2"), Moment(94_001)).await,
        Err(Refusal::TimeRanOut)
    );
    assert_eq!(
        hub.game(live.game(), Moment(94_001))
            .unwrap()
            .result_words()
            .as_deref(),
        Some("B+ time")
    );
    let day = 86_400_000;
    let slow = hub
        .challenge(a, &spec("brique size 5 first you days 2 casual"), Moment(0))
        .await
        .unwrap();
    hub.accept(b, slow, Moment(0)).await.unwrap();
    // Each first move within its day.
    hub.play(b, slow.game(), at("c3"), Moment(day - 1))
        .await
        .unwrap();
    hub.play(a, slow.game(), at("c2"), Moment(2 * day - 2))
        .await
        .unwrap();
    // Each move has its two days afresh: bob, Black, may wait 2 days less a moment.
    assert!(!hub.tick(Moment(4 * day - 3)).await);
    assert!(hub.tick(Moment(4 * day - 2)).await);
    assert_eq!(
        hub.game(slow.game(), Moment(4 * day))
            .unwrap()
            .result_words()
            .as_deref(),
        Some("W+ time")
    );
}

#[tokio::test]
async fn casual_games_take_back_by_agreement_and_rated_ones_never() {
    let (_dir, hub) = hub();
    let (a, _) = hub.register("ka", "alice", Moment(0)).await.unwrap();
    let (b, _) = hub.register("kb", "bob", Moment(0)).await.unwrap();
    let rated = hub
        .challenge(a, &spec("quentin size 5 first me"), Moment(0))
        .await
        .unwrap();
    hub.accept(b, rated, Moment(0)).await.unwrap();
    hub.play(a, rated.game(), at("c3"), Moment(1))
        .await
        .unwrap();
    assert_eq!(
        hub.takeback(a, rated.game(), Moment(2)).await,
        Err(Refusal::RatedNoTakeback)
    );
    let casual = hub
        .challenge(a, &spec("quentin size 5 first me casual"), Moment(0))
        .await
        .unwrap();
    hub.accept(b, casual, Moment(0)).await.unwrap();
    hub.play(a, casual.game(), at("c3"), Moment(1))
        .await
        .unwrap();
    assert_eq!(hub.takeback(a, casual.game(), Moment(2)).await, Ok(false));
    assert_eq!(
        hub.game(casual.game(), Moment(2)).unwrap().takeback,
        Some(Seat::First)
    );
    assert_eq!(hub.takeback(b, casual.game(), Moment(3)).await, Ok(true));
    let view = hub.game(casual.game(), Moment(3)).unwrap();
    assert!(view.actions.is_empty());
    assert_eq!(view.to_move, Some(Seat::First));
}

#[tokio::test]
async fn challenges_have_limits_and_addressees() {
    let dir = tempfile::tempdir().unwrap();
    let store = Sqlite::open(&dir.path().join("s.db")).unwrap();
    let limits = HubLimits {
        challenges_per_player: 2,
        ..HubLimits::default()
    };
    let hub = Hub::open(store, limits, Moment(0)).unwrap();
    let (a, _) = hub.register("ka", "alice", Moment(0)).await.unwrap();
    let (b, _) = hub.register("kb", "bob", Moment(0)).await.unwrap();
    let (c, _) = hub.register("kc", "carol", Moment(0)).await.unwrap();
    assert_eq!(
        hub.challenge(a, &spec("quentin to alice"), Moment(0)).await,
        Err(Refusal::ChallengeYourself)
    );
    assert_eq!(
        hub.challenge(a, &spec("quentin to nobody"), Moment(0))
            .await,
        Err(Refusal::NoSuchPlayer("nobody".to_string()))
    );
    let for_bob = hub
        .challenge(a, &spec("quentin to BOB"), Moment(0))
        .await
        .unwrap();
    hub.challenge(a, &spec("quint"), Moment(0)).await.unwrap();
    assert_eq!(
        hub.challenge(a, &spec("konobi"), Moment(0)).await,
        Err(Refusal::TooManyChallenges(2))
    );
    assert_eq!(
        hub.accept(c, for_bob, Moment(0)).await,
        Err(Refusal::ForSomebodyElse)
    );
    assert_eq!(
        hub.withdraw(b, for_bob).await,
        Err(Refusal::NotYourChallenge)
    );
    hub.accept(b, for_bob, Moment(0)).await.unwrap();
    assert_eq!(
        hub.accept(c, for_bob, Moment(0)).await,
        Err(Refusal::NoSuchChallenge(for_bob))
    );
    // Its line in the bot protocol: bot/answer/tests.rs.
    let view = &hub.challenges()[0];
    assert_eq!(
        (view.id, view.setup.game, view.setup.pieces),
        (ChallengeId(2), Game::Quint, 20)
    );
    assert_eq!(
        (view.by_name.as_str(), view.first_mover()),
        ("alice", "random")
    );
}

/// A store whose commits wait for the test's word while `hold` is set, fail while `fail` is,
/// and count the changes of each batch.
struct Gated {
    store: Sqlite,
    hold: Arc<AtomicBool>,
    go: mpsc::Receiver<()>,
    fail: Arc<AtomicBool>,
    batches: Arc<Mutex<Vec<usize>>>,
    entered: mpsc::Sender<()>,
}

struct Gate {
    hold: Arc<AtomicBool>,
    go: mpsc::Sender<()>,
    fail: Arc<AtomicBool>,
    batches: Arc<Mutex<Vec<usize>>>,
    /// Told when a commit waits at the gate.
    entered: mpsc::Receiver<()>,
}

impl Gate {
    /// Waits until a commit waits at the gate.
    fn entered(&self) {
        tokio::task::block_in_place(|| {
            self.entered
                .recv_timeout(std::time::Duration::from_secs(60))
                .expect("a commit reaches the store");
        });
    }

    /// Lets the waiting commit and every later one through.
    fn open(&self) {
        self.hold.store(false, Ordering::SeqCst);
        self.go.send(()).unwrap();
    }
}

impl Backend for Gated {
    fn load(&mut self) -> Result<Loaded> {
        self.store.load()
    }

    fn commit(&mut self, changes: &[&Change]) -> Result<Vec<Result<Applied>>> {
        if self.hold.load(Ordering::SeqCst) {
            self.entered.send(())?;
            self.go.recv()?;
        }
        self.batches.lock().unwrap().push(changes.len());
        if self.fail.load(Ordering::SeqCst) {
            anyhow::bail!("disk I/O error");
        }
        self.store.commit(changes)
    }

    fn puzzles(
        &mut self,
        query: &crate::store::puzzles::PuzzleQuery,
    ) -> Result<crate::store::puzzles::PuzzleFound> {
        self.store.puzzles(query)
    }

    fn integrity(&mut self) -> Result<String> {
        self.store.integrity()
    }
}

fn gated() -> (tempfile::TempDir, Arc<Hub>, Gate) {
    let dir = tempfile::tempdir().unwrap();
    let (go, gone) = mpsc::channel();
    let (entered, entering) = mpsc::channel();
    let gate = Gate {
        hold: Arc::default(),
        go,
        fail: Arc::default(),
        batches: Arc::default(),
        entered: entering,
    };
    let store = Gated {
        store: Sqlite::open(&dir.path().join("server.db")).unwrap(),
        hold: gate.hold.clone(),
        go: gone,
        fail: gate.fail.clone(),
        batches: gate.batches.clone(),
        entered,
    };
    let hub = Hub::open(store, unlimited(), Moment(0)).unwrap();
    (dir, Arc::new(hub), gate)
}

/// Waits (yielding, never sleeping) until `n` changes in all were sent to the store.
async fn sent(hub: &Hub, n: usize) {
    tokio::time::timeout(std::time::Duration::from_secs(60), async {
        while hub.store.sent() < n {
            tokio::task::yield_now().await;
        }
    })
    .await
    .expect("the changes reach the store");
}

/// `n` casual games of alice (Black, first) against bob; their numbers.
async fn games(hub: &Hub, n: usize) -> (PlayerId, PlayerId, Vec<GameId>) {
    let (a, _) = hub.register("ka", "alice", Moment(0)).await.unwrap();
    let (b, _) = hub.register("kb", "bob", Moment(0)).await.unwrap();
    let mut ids = Vec::new();
    for _ in 0..n {
        let id = hub
            .challenge(
                a,
                &spec("quentin size 5 first me casual clock 60+0"),
                Moment(0),
            )
            .await
            .unwrap();
        hub.accept(b, id, Moment(0)).await.unwrap();
        ids.push(id.game());
    }
    (a, b, ids)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_that_arrive_together_share_one_commit_and_are_told_only_after_it() {
    let (_dir, hub, gate) = gated();
    let (a, _, ids) = games(&hub, 8).await;
    let mut news = hub.watch_game(ids[0]).unwrap();
    news.borrow_and_update();
    gate.batches.lock().unwrap().clear();
    let before = hub.store.sent();
    gate.hold.store(true, Ordering::SeqCst);
    // The first move's commit waits on the disk (the gate)...
    let first = {
        let hub = hub.clone();
        let id = ids[0];
        tokio::spawn(async move { hub.play(a, id, at("c3"), Moment(1)).await })
    };
    gate.entered();
    // ... meanwhile nobody sees it ...
    assert!(hub.game(ids[0], Moment(1)).unwrap().actions.is_empty());
    assert!(!news.has_changed().unwrap());
    // ... and the moves of the seven other games come and wait together.
    let rest: Vec<_> = ids[1..]
        .iter()
        .map(|&id| {
            let hub = hub.clone();
            tokio::spawn(async move { hub.play(a, id, at("c3"), Moment(2)).await })
        })
        .collect();
    sent(&hub, before + 8).await;
    gate.open();
    first.await.unwrap().unwrap();
    for task in rest {
        task.await.unwrap().unwrap();
    }
    assert_eq!(*gate.batches.lock().unwrap(), [1, 7]);
    assert!(news.has_changed().unwrap());
    for id in ids {
        assert_eq!(hub.game(id, Moment(3)).unwrap().actions, [at("c3")]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_commit_changes_nothing_and_a_move_whose_caller_left_is_kept_in_order() {
    let (_dir, hub, gate) = gated();
    let (a, b, ids) = games(&hub, 1).await;
    let id = ids[0];
    gate.fail.store(true, Ordering::SeqCst);
    assert_eq!(
        hub.play(a, id, at("c3"), Moment(1)).await,
        Err(Refusal::Unreachable)
    );
    assert!(hub.game(id, Moment(1)).unwrap().actions.is_empty());
    gate.fail.store(false, Ordering::SeqCst);
    // A move whose session goes while its commit waits: it is kept, and the game's next move
    // waits for it.
    gate.hold.store(true, Ordering::SeqCst);
    let mover = {
        let hub = hub.clone();
        tokio::spawn(async move { hub.play(a, id, at("c3"), Moment(2)).await })
    };
    gate.entered();
    mover.abort();
    let reply = {
        let hub = hub.clone();
        tokio::spawn(async move { hub.play(b, id, at("b2"), Moment(3)).await })
    };
    gate.open();
    reply.await.unwrap().unwrap();
    assert_eq!(
        hub.game(id, Moment(4)).unwrap().actions,
        [at("c3"), at("b2")]
    );
    hub.close().await;
    drop(gate);
}

/// Each file of the hub opens with the list of the `Hub` methods it holds (issue 64), and the
/// list stays true: every method of an `impl Hub` block of the file is named in its opening
/// comment.
#[test]
fn each_hub_file_lists_the_hub_methods_it_holds() {
    let files = [
        ("hub.rs", include_str!("../hub.rs")),
        ("agree.rs", include_str!("agree.rs")),
        ("command.rs", include_str!("command.rs")),
        ("director.rs", include_str!("director.rs")),
        ("fair.rs", include_str!("fair.rs")),
        ("listings.rs", include_str!("listings.rs")),
        ("lobby.rs", include_str!("lobby.rs")),
        ("mirror.rs", include_str!("mirror.rs")),
        ("moderate.rs", include_str!("moderate.rs")),
        ("open.rs", include_str!("open.rs")),
        ("outage.rs", include_str!("outage.rs")),
        ("play.rs", include_str!("play.rs")),
        ("presence.rs", include_str!("presence.rs")),
        ("puzzles.rs", include_str!("puzzles.rs")),
        ("route.rs", include_str!("route.rs")),
        ("summons.rs", include_str!("summons.rs")),
        ("tournaments.rs", include_str!("tournaments.rs")),
        ("vacation.rs", include_str!("vacation.rs")),
        ("views.rs", include_str!("views.rs")),
    ];
    for (name, text) in files {
        let header: String = text
            .lines()
            .take_while(|l| l.starts_with("//!"))
            .collect::<Vec<_>>()
            .join(" ");
        let mut inside = false;
        for line in text.lines() {
            if line.starts_with("impl Hub {") {
                inside = true;
            } else if inside && line == "}" {
                inside = false;
            } else if inside {
                let words: Vec<&str> = line.trim_start().split(['(', ' ', '<']).collect();
                let at = words.iter().position(|w| *w == "fn");
                let indented = line.starts_with("    ") && !line.starts_with("     ");
                if let (Some(at), true) = (at, indented) {
                    let method = words[at + 1];
                    assert!(
                        header.contains(&format!("`{method}`")),
                        "hub/{name}: Hub::{method} is not in the file's opening list"
                    );
                }
            }
        }
    }
}
