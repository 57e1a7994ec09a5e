use super::*;
use crate::input::KeyEvent;
use crate::screen::shown;

fn key(code: KeyCode) -> Event {
    Event::Key(KeyEvent::from(code))
}

fn typed(pick: &mut NamePick, text: &str) {
    for c in text.chars() {
        assert_eq!(pick.handle(&key(KeyCode::Char(c))), Step::Stay);
    }
}

#[test]
fn enter_asks_for_the_name_typed_and_esc_leaves_without_one() {
    let mut pick = NamePick::new(false);
    typed(&mut pick, "al!ice");
    assert_eq!(pick.said, "Letters, digits, - and _ only.");
    assert_eq!(pick.handle(&key(KeyCode::Backspace)), Step::Stay);
    assert_eq!(
        pick.handle(&key(KeyCode::Enter)),
        Step::Ask("alic".to_string())
    );
    assert_eq!(pick.handle(&key(KeyCode::Esc)), Step::Leave(NoName));
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert_eq!(pick.handle(&Event::Key(ctrl_c)), Step::Leave(NoName));
    // Ctrl-L is a key, not a letter.
    let ctrl_l = KeyEvent::new(KeyCode::Char('l'), KeyModifiers::CONTROL);
    assert_eq!(pick.handle(&Event::Key(ctrl_l)), Step::Stay);
    assert_eq!(pick.name, "alic");
}

#[test]
fn a_name_is_20_characters_at_most() {
    let mut pick = NamePick::new(false);
    typed(&mut pick, &"a".repeat(25));
    assert_eq!(pick.name.len(), 20);
}

#[test]
fn the_name_pick_at_80x24_and_on_a_tiny_screen() {
    let mut pick = NamePick::new(false);
    typed(&mut pick, "alice");
    pick.say("That name is taken: try another.");
    insta::assert_snapshot!("name_80x24", shown(&mut pick, 80, 24));
    insta::assert_snapshot!("name_16x5", shown(&mut pick, 16, 5));
    let mut renamed = NamePick::new(true);
    insta::assert_snapshot!("name_renamed_80x24", shown(&mut renamed, 80, 24));
}
