use super::*;
use crate::rules::{Action, Point};
use crate::server::spec::Spec;

fn hub() -> (tempfile::TempDir, Hub) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("server.db")).unwrap();
    (dir, Hub::open(store, HubLimits::default(), 1_000).unwrap())
}

fn spec(words: &str) -> Spec {
    Spec::parse(&words.split_whitespace().collect::<Vec<_>>()).unwrap()
}

fn at(p: &str) -> Action {
    Action::Place(Point::parse(p).unwrap())
}

#[test]
fn names_are_checked_and_unique_in_any_case() {
    let (_dir, hub) = hub();
    assert_eq!(hub.register("k1", "a", 0), refuse("bad name"));
    assert_eq!(hub.register("k1", "bad name", 0), refuse("bad name"));
    assert_eq!(hub.register("k1", "x\x1b[2J", 0), refuse("bad name"));
    let (alice, _) = hub.register("k1", "Alice", 0).unwrap();
    assert_eq!(hub.register("k2", "alice", 0), refuse("name taken"));
    assert_eq!(
        hub.register("k1", "other", 0),
        refuse("this key is already Alice")
    );
    assert_eq!(hub.player_of_key("k1"), Some((alice, "Alice".to_string())));
}

#[test]
fn a_game_is_played_to_its_end_and_rated() {
    let (_dir, hub) = hub();
    let (a, _) = hub.register("ka", "alice", 0).unwrap();
    let (b, _) = hub.register("kb", "bob", 0).unwrap();
    let id = hub
        .challenge(a, &spec("quentin size 3 pie off first me"))
        .unwrap();
    assert_eq!(hub.accept(a, id, 0), refuse("that is your own challenge"));
    assert_eq!(hub.accept(b, id, 10).unwrap(), (id, Color::White));
    assert_eq!(hub.play(b, id, at("b1"), 20), refuse("not your turn"));
    let (c, _) = hub.register("kc", "carol", 0).unwrap();
    assert_eq!(hub.play(c, id, at("b1"), 20), refuse("not your game"));
    for (who, p) in [(a, "b1"), (b, "a2"), (a, "b2"), (b, "a3")] {
        hub.play(who, id, at(p), 30).unwrap();
    }
    assert_eq!(
        hub.play(b, id, at("c3"), 40),
        refuse("not your turn"),
        "it is Black's turn"
    );
    assert!(
        hub.play(a, id, at("a1"), 40)
            .unwrap_err()
            .0
            .starts_with("illegal move: ")
    );
    hub.play(a, id, at("b3"), 50).unwrap();
    let view = hub.game(id, 60).unwrap();
    assert_eq!(view.result_words().as_deref(), Some("B+ connection"));
    assert_eq!(
        view.result_text().as_deref(),
        Some("Black (alice) wins by connection")
    );
    assert!(
        view.ratings[0] > 1500 && view.ratings[1] < 1500,
        "{:?}",
        view.ratings
    );
    assert_eq!(hub.play(b, id, at("c3"), 60), refuse("the game is over"));
    let record = crate::record::Record::parse(&view.record()).unwrap();
    assert_eq!(record.actions().len(), 5);
    assert!(record.final_position().is_over());
}

#[test]
fn everything_comes_back_from_the_store_and_downtime_is_charged_to_nobody() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("server.db");
    let (a, b, id) = {
        let hub = Hub::open(Store::open(&path).unwrap(), HubLimits::default(), 0).unwrap();
        let (a, _) = hub.register("ka", "alice", 0).unwrap();
        let (b, _) = hub.register("kb", "bob", 0).unwrap();
        let id = hub
            .challenge(a, &spec("konobi size 5 first me clock 1+0"))
            .unwrap();
        hub.challenge(a, &spec("brique")).unwrap();
        hub.accept(b, id, 0).unwrap();
        hub.play(a, id, at("c3"), 10_000).unwrap();
        // The server is last alive at 20 s: bob has used 10 s of his minute.
        hub.tick(20_000);
        (a, b, id)
    };
    // Back an hour later: bob still has 50 s.
    let hub = Hub::open(Store::open(&path).unwrap(), HubLimits::default(), 3_620_000).unwrap();
    let view = hub.game(id, 3_620_000).unwrap();
    assert_eq!(view.actions, vec![at("c3")]);
    assert_eq!(view.left, [50_000, 50_000]);
    assert_eq!(hub.challenges().len(), 1);
    assert_eq!(hub.integrity().unwrap(), "ok");
    // Bob's time runs out 50 s later, with no move: the tick ends the game.
    assert!(!hub.tick(3_669_999));
    assert!(hub.tick(3_670_000));
    let view = hub.game(id, 3_670_000).unwrap();
    assert_eq!(view.result_words().as_deref(), Some("B+ time"));
    assert_eq!(
        hub.play(b, id, at("a1"), 3_670_001),
        refuse("the game is over")
    );
    let _ = a;
}

#[test]
fn a_move_after_the_flag_fell_loses_on_time_and_correspondence_has_days_a_move() {
    let (_dir, hub) = hub();
    let (a, _) = hub.register("ka", "alice", 0).unwrap();
    let (b, _) = hub.register("kb", "bob", 0).unwrap();
    let live = hub
        .challenge(a, &spec("quentin size 5 first me clock 1+2"))
        .unwrap();
    hub.accept(b, live, 0).unwrap();
    hub.play(a, live, at("c3"), 30_000).unwrap();
    // 30 s used, 2 s added.
    assert_eq!(hub.game(live, 30_000).unwrap().left, [32_000, 60_000]);
    assert_eq!(
        hub.play(b, live, at("c2"), 90_000),
        refuse("the game is over: time ran out")
    );
    assert_eq!(
        hub.game(live, 90_000).unwrap().result_text().as_deref(),
        Some("Black (alice) wins on time")
    );
    let day = 86_400_000;
    let slow = hub
        .challenge(a, &spec("brique size 5 first you days 2 casual"))
        .unwrap();
    hub.accept(b, slow, 0).unwrap();
    hub.play(b, slow, at("c3"), day).unwrap();
    hub.play(a, slow, at("c2"), 2 * day).unwrap();
    // Each move has its two days afresh: bob, Black, may wait 2 days less a moment.
    assert!(!hub.tick(4 * day - 1));
    assert!(hub.tick(4 * day));
    assert_eq!(
        hub.game(slow, 4 * day).unwrap().result_words().as_deref(),
        Some("W+ time")
    );
}

#[test]
fn casual_games_take_back_by_agreement_and_rated_ones_never() {
    let (_dir, hub) = hub();
    let (a, _) = hub.register("ka", "alice", 0).unwrap();
    let (b, _) = hub.register("kb", "bob", 0).unwrap();
    let rated = hub.challenge(a, &spec("quentin size 5 first me")).unwrap();
    hub.accept(b, rated, 0).unwrap();
    hub.play(a, rated, at("c3"), 1).unwrap();
    assert_eq!(
        hub.takeback(a, rated, 2),
        refuse("a rated game has no takebacks")
    );
    let casual = hub
        .challenge(a, &spec("quentin size 5 first me casual"))
        .unwrap();
    hub.accept(b, casual, 0).unwrap();
    hub.play(a, casual, at("c3"), 1).unwrap();
    assert_eq!(hub.takeback(a, casual, 2), Ok(false));
    assert_eq!(hub.game(casual, 2).unwrap().takeback, Some(0));
    assert_eq!(hub.takeback(b, casual, 3), Ok(true));
    let view = hub.game(casual, 3).unwrap();
    assert!(view.actions.is_empty());
    assert_eq!(view.to_move, Some(0));
}

#[test]
fn challenges_have_limits_and_addressees() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.db")).unwrap();
    let hub = Hub::open(
        store,
        HubLimits {
            challenges_per_player: 2,
        },
        0,
    )
    .unwrap();
    let (a, _) = hub.register("ka", "alice", 0).unwrap();
    let (b, _) = hub.register("kb", "bob", 0).unwrap();
    let (c, _) = hub.register("kc", "carol", 0).unwrap();
    assert_eq!(
        hub.challenge(a, &spec("quentin to alice")),
        refuse("you cannot challenge yourself")
    );
    assert_eq!(
        hub.challenge(a, &spec("quentin to nobody")),
        refuse("no player named nobody")
    );
    let for_bob = hub.challenge(a, &spec("quentin to BOB")).unwrap();
    hub.challenge(a, &spec("quint")).unwrap();
    assert_eq!(
        hub.challenge(a, &spec("konobi")),
        refuse("too many open challenges: at most 2")
    );
    assert_eq!(
        hub.accept(c, for_bob, 0),
        refuse("that challenge is for somebody else")
    );
    assert_eq!(hub.withdraw(b, for_bob), refuse("not your challenge"));
    hub.accept(b, for_bob, 0).unwrap();
    assert_eq!(hub.accept(c, for_bob, 0), refuse("no such challenge"));
    assert!(
        hub.challenges()[0]
            .line()
            .starts_with("2 quint 8 alice pie off pieces 20 first random clock 10+5 rated")
    );
}
