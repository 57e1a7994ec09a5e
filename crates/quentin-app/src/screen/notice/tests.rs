use super::*;
use crate::input::{KeyCode, KeyEvent};
use crate::screen::shown;

#[test]
fn a_key_closes_a_notice_and_a_resize_does_not() {
    let mut notice = Notice::new("Too many sessions. Press any key.");
    assert_eq!(notice.handle(&Event::Resize(10, 10)), Step::Stay);
    let key = Event::Key(KeyEvent::from(KeyCode::Char('x')));
    assert_eq!(notice.handle(&key), Step::Leave(()));
}

#[test]
fn a_notice_at_80x24_and_wrapped_on_a_tiny_screen() {
    let text = "This key already has 2 sessions open: close one first. Press any key.";
    let mut notice = Notice::new(text);
    insta::assert_snapshot!("notice_80x24", shown(&mut notice, 80, 24));
    insta::assert_snapshot!("notice_12x4", shown(&mut notice, 12, 4));
}
