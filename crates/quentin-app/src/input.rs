//! The app's own input: keys, the mouse, pastes and the window's size, as every front end
//! hands them over. The terminal loop translates crossterm's events into these, the SSH
//! session the events its terminal-input parser reads from the channel's bytes; the app knows
//! neither.

/// One thing that happened at the player's terminal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A key.
    Key(KeyEvent),
    /// The mouse moved, clicked or scrolled.
    Mouse(MouseEvent),
    /// Text pasted at once (bracketed paste).
    Paste(String),
    /// The window's new size: columns, rows.
    Resize(u16, u16),
    /// The window took the focus.
    FocusGained,
    /// The window lost the focus.
    FocusLost,
}

/// A key, with the modifiers held.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KeyEvent {
    /// Which key.
    pub code: KeyCode,
    /// Shift, Ctrl, Alt.
    pub modifiers: KeyModifiers,
    /// Pressed, repeated or released: the app acts on a press only (some terminals report
    /// the release too, and every key would then act twice).
    pub kind: KeyEventKind,
}

impl KeyEvent {
    /// A press of `code` with `modifiers`.
    #[must_use]
    pub const fn new(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent {
            code,
            modifiers,
            kind: KeyEventKind::Press,
        }
    }
}

impl From<KeyCode> for KeyEvent {
    fn from(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }
}

/// Whether a key went down, repeats or came up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyEventKind {
    /// The key went down.
    Press,
    /// The key is held and repeats.
    Repeat,
    /// The key came up.
    Release,
}

/// The keys the app and the front ends tell apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyCode {
    /// A character typed.
    Char(char),
    /// Enter.
    Enter,
    /// Escape.
    Esc,
    /// Backspace.
    Backspace,
    /// Tab.
    Tab,
    /// Shift-Tab.
    BackTab,
    /// Delete.
    Delete,
    /// Insert.
    Insert,
    /// The left arrow.
    Left,
    /// The right arrow.
    Right,
    /// The up arrow.
    Up,
    /// The down arrow.
    Down,
    /// Home.
    Home,
    /// End.
    End,
    /// Page up.
    PageUp,
    /// Page down.
    PageDown,
    /// A function key: F1 is `F(1)`.
    F(u8),
    /// Any other key (a media key, a lone modifier, …): the app does nothing with it.
    Other,
}

/// The modifiers held with a key or a click, as a set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KeyModifiers(u8);

impl KeyModifiers {
    /// None held.
    pub const NONE: KeyModifiers = KeyModifiers(0);
    /// Shift.
    pub const SHIFT: KeyModifiers = KeyModifiers(1);
    /// Ctrl.
    pub const CONTROL: KeyModifiers = KeyModifiers(2);
    /// Alt (Meta, Option).
    pub const ALT: KeyModifiers = KeyModifiers(4);

    /// Whether every modifier of `other` is held.
    #[must_use]
    pub const fn contains(self, other: KeyModifiers) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether none is held.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl std::ops::BitOr for KeyModifiers {
    type Output = KeyModifiers;

    fn bitor(self, other: KeyModifiers) -> KeyModifiers {
        KeyModifiers(self.0 | other.0)
    }
}

impl std::ops::BitOrAssign for KeyModifiers {
    fn bitor_assign(&mut self, other: KeyModifiers) {
        self.0 |= other.0;
    }
}

/// The mouse, at a cell of the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MouseEvent {
    /// What it did.
    pub kind: MouseEventKind,
    /// The column, from 0 at the left.
    pub column: u16,
    /// The row, from 0 at the top.
    pub row: u16,
    /// The modifiers held.
    pub modifiers: KeyModifiers,
}

/// What the mouse did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MouseEventKind {
    /// A button went down.
    Down(MouseButton),
    /// A button came up.
    Up(MouseButton),
    /// The mouse moved with a button down.
    Drag(MouseButton),
    /// The mouse moved with no button down.
    Moved,
    /// The wheel turned up.
    ScrollUp,
    /// The wheel turned down.
    ScrollDown,
    /// The wheel turned left.
    ScrollLeft,
    /// The wheel turned right.
    ScrollRight,
}

/// A mouse button.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MouseButton {
    /// The left button.
    Left,
    /// The right button.
    Right,
    /// The middle button.
    Middle,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modifiers_form_a_set() {
        let both = KeyModifiers::CONTROL | KeyModifiers::SHIFT;
        assert!(both.contains(KeyModifiers::CONTROL));
        assert!(both.contains(KeyModifiers::SHIFT));
        assert!(!both.contains(KeyModifiers::ALT));
        assert!(KeyModifiers::NONE.is_empty());
        assert!(!both.is_empty());
        assert_eq!(KeyEvent::from(KeyCode::Esc).kind, KeyEventKind::Press);
    }
}
