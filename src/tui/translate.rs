//! The terminal front end's events in the app's words: crossterm's events, as the loop reads
//! them, turned into the app's own input ([`crate::tui::input`]).

use crossterm::event as ct;

use super::input::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

/// `event` as the app reads it.
#[must_use]
pub fn from_crossterm(event: ct::Event) -> Event {
    match event {
        ct::Event::Key(key) => Event::Key(KeyEvent {
            code: code(key.code),
            modifiers: modifiers(key.modifiers),
            kind: match key.kind {
                ct::KeyEventKind::Press => KeyEventKind::Press,
                ct::KeyEventKind::Repeat => KeyEventKind::Repeat,
                ct::KeyEventKind::Release => KeyEventKind::Release,
            },
        }),
        ct::Event::Mouse(mouse) => Event::Mouse(MouseEvent {
            kind: match mouse.kind {
                ct::MouseEventKind::Down(b) => MouseEventKind::Down(button(b)),
                ct::MouseEventKind::Up(b) => MouseEventKind::Up(button(b)),
                ct::MouseEventKind::Drag(b) => MouseEventKind::Drag(button(b)),
                ct::MouseEventKind::Moved => MouseEventKind::Moved,
                ct::MouseEventKind::ScrollUp => MouseEventKind::ScrollUp,
                ct::MouseEventKind::ScrollDown => MouseEventKind::ScrollDown,
                ct::MouseEventKind::ScrollLeft => MouseEventKind::ScrollLeft,
                ct::MouseEventKind::ScrollRight => MouseEventKind::ScrollRight,
            },
            column: mouse.column,
            row: mouse.row,
            modifiers: modifiers(mouse.modifiers),
        }),
        ct::Event::Paste(text) => Event::Paste(text),
        ct::Event::Resize(columns, rows) => Event::Resize(columns, rows),
        ct::Event::FocusGained => Event::FocusGained,
        ct::Event::FocusLost => Event::FocusLost,
    }
}

fn code(code: ct::KeyCode) -> KeyCode {
    match code {
        ct::KeyCode::Char(c) => KeyCode::Char(c),
        ct::KeyCode::Enter => KeyCode::Enter,
        ct::KeyCode::Esc => KeyCode::Esc,
        ct::KeyCode::Backspace => KeyCode::Backspace,
        ct::KeyCode::Tab => KeyCode::Tab,
        ct::KeyCode::BackTab => KeyCode::BackTab,
        ct::KeyCode::Delete => KeyCode::Delete,
        ct::KeyCode::Insert => KeyCode::Insert,
        ct::KeyCode::Left => KeyCode::Left,
        ct::KeyCode::Right => KeyCode::Right,
        ct::KeyCode::Up => KeyCode::Up,
        ct::KeyCode::Down => KeyCode::Down,
        ct::KeyCode::Home => KeyCode::Home,
        ct::KeyCode::End => KeyCode::End,
        ct::KeyCode::PageUp => KeyCode::PageUp,
        ct::KeyCode::PageDown => KeyCode::PageDown,
        ct::KeyCode::F(n) => KeyCode::F(n),
        _ => KeyCode::Other,
    }
}

fn modifiers(held: ct::KeyModifiers) -> KeyModifiers {
    let mut out = KeyModifiers::NONE;
    for (theirs, ours) in [
        (ct::KeyModifiers::SHIFT, KeyModifiers::SHIFT),
        (ct::KeyModifiers::CONTROL, KeyModifiers::CONTROL),
        (ct::KeyModifiers::ALT, KeyModifiers::ALT),
    ] {
        if held.contains(theirs) {
            out |= ours;
        }
    }
    out
}

fn button(button: ct::MouseButton) -> MouseButton {
    match button {
        ct::MouseButton::Left => MouseButton::Left,
        ct::MouseButton::Right => MouseButton::Right,
        ct::MouseButton::Middle => MouseButton::Middle,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_clicks_and_sizes_keep_what_the_app_reads() {
        let ctrl_c = ct::Event::Key(ct::KeyEvent::new(
            ct::KeyCode::Char('c'),
            ct::KeyModifiers::CONTROL,
        ));
        assert_eq!(
            from_crossterm(ctrl_c),
            Event::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL))
        );
        let mut release = ct::KeyEvent::new(ct::KeyCode::Enter, ct::KeyModifiers::NONE);
        release.kind = ct::KeyEventKind::Release;
        let Event::Key(key) = from_crossterm(ct::Event::Key(release)) else {
            panic!("a key stays a key");
        };
        assert_eq!(key.kind, KeyEventKind::Release);
        let click = ct::Event::Mouse(ct::MouseEvent {
            kind: ct::MouseEventKind::Down(ct::MouseButton::Left),
            column: 7,
            row: 3,
            modifiers: ct::KeyModifiers::NONE,
        });
        assert_eq!(
            from_crossterm(click),
            Event::Mouse(MouseEvent {
                kind: MouseEventKind::Down(MouseButton::Left),
                column: 7,
                row: 3,
                modifiers: KeyModifiers::NONE,
            })
        );
        assert_eq!(
            from_crossterm(ct::Event::Resize(80, 24)),
            Event::Resize(80, 24)
        );
    }
}
