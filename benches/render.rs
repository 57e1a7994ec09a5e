//! How long drawing a whole screen takes: a 19×19 game in progress, cursor preview and side
//! panel included, into an off-screen buffer.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use quentin::record::Record;
use quentin::rules::{Game, Setup};
use quentin::tui::app::{App, Input, Look};
use quentin::tui::input::{Event, KeyCode, KeyEvent, KeyModifiers};
use quentin::tui::render::draw;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

/// A 19×19 game of `moves` actions chosen by a fixed pseudo-random sequence.
fn game(moves: usize) -> App {
    let setup = Setup {
        size: 19,
        ..Setup::new(Game::Quentin)
    };
    let mut position = setup.start().expect("19 is a valid size");
    let mut actions = Vec::new();
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    while actions.len() < moves && !position.is_over() {
        let legal = position.legal_actions();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let action = legal[(seed % legal.len() as u64) as usize];
        position.play(action).expect("a listed action is legal");
        actions.push(action);
    }
    let record = Record::new(setup, actions).expect("the actions were legal");
    let mut app = App::replay(&record, usize::MAX, Look::FULL);
    // Play on, so that the cursor's preview and legality are drawn too.
    let _ = app.step(Input::Event(Event::Key(KeyEvent::new(
        KeyCode::Char('p'),
        KeyModifiers::NONE,
    ))));
    app
}

fn render(c: &mut Criterion) {
    let app = game(120);
    eprintln!(
        "{} actions on the board, game over: {}",
        app.current(),
        app.position().is_over()
    );
    let area = Rect::new(0, 0, 100, 30);
    let mut buf = Buffer::empty(area);
    c.bench_function("draw 19x19, 120 actions, 100x30", |b| {
        b.iter(|| {
            buf.reset();
            black_box(draw(black_box(&app), area, &mut buf))
        });
    });
}

criterion_group!(benches, render);
criterion_main!(benches);
