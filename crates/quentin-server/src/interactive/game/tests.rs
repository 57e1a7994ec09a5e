use std::time::Duration;

use super::*;
use crate::clock::Clock;
use crate::context::Limits;
use crate::gate::{Bounds, Gate};
use crate::hub::{Hub, HubLimits};
use crate::ids::Moment;
use crate::spec::Spec;
use crate::store::Sqlite;
use quentin_app::input::Event;
use quentin_app::input::{KeyCode, KeyEvent};

/// A server's shared state on a fresh store in `dir`.
fn context(dir: &std::path::Path) -> Context {
    let store = Sqlite::open(&dir.join("server.db")).unwrap();
    Context {
        hub: Hub::open(store, HubLimits::default(), Moment(0)).unwrap(),
        clock: Clock::new(),
        limits: Limits {
            max_sessions: 4,
            sessions_per_key: 2,
            idle: Duration::from_secs(60),
            login_grace: Duration::from_secs(20),
        },
        gate: Gate::new(Bounds {
            max_startups: 4,
            startups_per_address: 4,
            max_sessions: 4,
            sessions_per_key: 2,
            login_grace: Duration::from_secs(20),
        }),
        connections: std::sync::atomic::AtomicUsize::new(0),
        stop: tokio::sync::watch::channel(false).0,
        cut_all: tokio::sync::watch::channel(false).0,
        closed: tokio::sync::Notify::new(),
        reviews: crate::reviews::Reviews::new(1),
        access: crate::access::Access::load(Default::default()).unwrap(),
        moderation: crate::context::watch::Moderation::new(
            crate::moderation::Ledger::sqlite(&dir.join("server.db")).unwrap(),
        ),
        signups: crate::signup::Signups::new(20),
        watchers: None,
    }
}

/// A screen is woken when the text of the running clock changes, not before: the next
/// second of a live clock, the next hour of a correspondence one, the moment `low time!`
/// comes; a clock at 0 wakes nothing more.
#[test]
fn the_clock_wakes_a_screen_when_its_text_changes() {
    assert_eq!(until_shown_changes(59_999, 10_000), Some(1_000));
    assert_eq!(until_shown_changes(59_000, 10_000), Some(1));
    // 10.4 s left with the mark at 10 s: the mark comes before the next second's text.
    assert_eq!(until_shown_changes(10_400, 10_000), Some(401));
    assert_eq!(until_shown_changes(9_400, 10_000), Some(401));
    // Two days: the text says hours.
    assert_eq!(
        until_shown_changes(2 * 86_400_000 + 1_800_000, 0),
        Some(1_800_001)
    );
    assert_eq!(until_shown_changes(0, 10_000), None);
}

/// A move typed just before `q`, in the same chunk of bytes, still reaches the server: the
/// session carries out each event's effects before it reads the next event (it used to
/// leave on `q` with the move's request still in the app).
#[tokio::test]
async fn a_move_typed_just_before_leaving_reaches_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = context(dir.path());
    let now = ctx.clock.now();
    let (alice, _) = ctx.hub.register("ka", "alice", now).await.unwrap();
    let (bob, _) = ctx.hub.register("kb", "bob", now).await.unwrap();
    let words = ["quentin", "size", "3", "pie", "off", "first", "me"];
    let id = ctx
        .hub
        .challenge(alice, &Spec::parse(&words).unwrap(), Moment(0))
        .await
        .unwrap();
    let (id, _) = ctx.hub.accept(bob, id, now).await.unwrap();
    let mut seen = crate::interactive::Seen::default();
    let mut glue = Playing::open(&ctx, alice, id, Look::FULL, &mut seen).unwrap();
    let events = vec![
        Event::Key(KeyEvent::from(KeyCode::Enter)),
        Event::Key(KeyEvent::from(KeyCode::Char('q'))),
    ];
    let next = crate::interactive::driver::handle(&mut glue, events).await;
    assert!(matches!(next, Some(Next::Lobby)));
    let actions = ctx.hub.game(id, ctx.clock.now()).unwrap().actions;
    assert_eq!(actions, [quentin_rules::Action::parse("b2").unwrap()]);
}
