use super::*;
use crate::input::KeyEvent;
use crate::screen::shown;

fn key(code: KeyCode) -> Event {
    Event::Key(KeyEvent::from(code))
}

#[test]
fn enter_gives_the_line_typed_and_esc_goes_back() {
    let mut console = Console::new("Operators", "ban NAME  log");
    assert_eq!(console.handle(&key(KeyCode::Enter)), Step::Stay);
    for c in "log".chars() {
        assert_eq!(console.handle(&key(KeyCode::Char(c))), Step::Stay);
    }
    assert_eq!(
        console.handle(&key(KeyCode::Enter)),
        Step::Ask("log".to_string())
    );
    // The line is given once: it is empty after.
    assert_eq!(console.handle(&key(KeyCode::Enter)), Step::Stay);
    assert_eq!(console.handle(&key(KeyCode::Esc)), Step::Leave(Leave::Back));
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert_eq!(
        console.handle(&Event::Key(ctrl_c)),
        Step::Leave(Leave::Quit)
    );
}

#[test]
fn a_console_at_80x24_and_on_a_tiny_screen() {
    let mut console = Console::new("Operators: type an order", "ban NAME  unban NAME  log");
    console.show("player 1 alice\nplayer 2 bob");
    console.say("= unban bob");
    for c in "ban al".chars() {
        console.handle(&key(KeyCode::Char(c)));
    }
    insta::assert_snapshot!("console_80x24", shown(&mut console, 80, 24));
    insta::assert_snapshot!("console_20x3", shown(&mut console, 20, 3));
}
