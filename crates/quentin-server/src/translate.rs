//! The SSH front end's events in the app's words: what the terminal-input parser reads from a
//! channel's bytes, turned into the app's own input ([`quentin_app::input`]), which the game
//! screen and the lobby both read.

use quentin_app::input::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

/// `event` as the app reads it, or `None` for what it cannot stand for (a mouse button the
/// parser could not name, a size beyond a terminal's).
#[must_use]
pub fn from_terminput(event: terminput::Event) -> Option<Event> {
    use terminput::Event as T;
    Some(match event {
        T::Key(key) => Event::Key(KeyEvent {
            code: code(
                key.code,
                key.modifiers.contains(terminput::KeyModifiers::SHIFT),
            ),
            modifiers: modifiers(key.modifiers),
            kind: match key.kind {
                terminput::KeyEventKind::Press => KeyEventKind::Press,
                terminput::KeyEventKind::Repeat => KeyEventKind::Repeat,
                terminput::KeyEventKind::Release => KeyEventKind::Release,
            },
        }),
        T::Mouse(mouse) => {
            use terminput::{MouseEventKind as M, ScrollDirection as S};
            Event::Mouse(MouseEvent {
                kind: match mouse.kind {
                    M::Down(b) => MouseEventKind::Down(button(b)?),
                    M::Up(b) => MouseEventKind::Up(button(b)?),
                    M::Drag(b) => MouseEventKind::Drag(button(b)?),
                    M::Moved => MouseEventKind::Moved,
                    M::Scroll(S::Up) => MouseEventKind::ScrollUp,
                    M::Scroll(S::Down) => MouseEventKind::ScrollDown,
                    M::Scroll(S::Left) => MouseEventKind::ScrollLeft,
                    M::Scroll(S::Right) => MouseEventKind::ScrollRight,
                },
                column: mouse.column,
                row: mouse.row,
                modifiers: modifiers(mouse.modifiers),
            })
        }
        T::Paste(text) => Event::Paste(text),
        T::Resize { cols, rows } => Event::Resize(cols.try_into().ok()?, rows.try_into().ok()?),
        T::FocusGained => Event::FocusGained,
        T::FocusLost => Event::FocusLost,
    })
}

/// The key; Tab with Shift is Shift-Tab, as a terminal means it.
fn code(code: terminput::KeyCode, shift: bool) -> KeyCode {
    use terminput::KeyCode as K;
    match code {
        K::Char(c) => KeyCode::Char(c),
        K::Enter => KeyCode::Enter,
        K::Esc => KeyCode::Esc,
        K::Backspace => KeyCode::Backspace,
        K::Tab if shift => KeyCode::BackTab,
        K::Tab => KeyCode::Tab,
        K::Delete => KeyCode::Delete,
        K::Insert => KeyCode::Insert,
        K::Left => KeyCode::Left,
        K::Right => KeyCode::Right,
        K::Up => KeyCode::Up,
        K::Down => KeyCode::Down,
        K::Home => KeyCode::Home,
        K::End => KeyCode::End,
        K::PageUp => KeyCode::PageUp,
        K::PageDown => KeyCode::PageDown,
        K::F(n) => KeyCode::F(n),
        _ => KeyCode::Other,
    }
}

fn modifiers(held: terminput::KeyModifiers) -> KeyModifiers {
    let mut out = KeyModifiers::NONE;
    for (theirs, ours) in [
        (terminput::KeyModifiers::SHIFT, KeyModifiers::SHIFT),
        (terminput::KeyModifiers::CTRL, KeyModifiers::CONTROL),
        (terminput::KeyModifiers::ALT, KeyModifiers::ALT),
    ] {
        if held.contains(theirs) {
            out |= ours;
        }
    }
    out
}

fn button(button: terminput::MouseButton) -> Option<MouseButton> {
    match button {
        terminput::MouseButton::Left => Some(MouseButton::Left),
        terminput::MouseButton::Right => Some(MouseButton::Right),
        terminput::MouseButton::Middle => Some(MouseButton::Middle),
        terminput::MouseButton::Unknown => None,
    }
}
