//! A terminal's bytes as the key and mouse events the app reads, by the terminal-input parser
//! crate (no escape sequence is parsed here by hand).

use quentin_app::input::{Event, KeyCode};

/// The longest escape sequence kept while waiting for its end; a longer one is dropped.
const MAX_SEQUENCE: usize = 64;

/// Turns a terminal's bytes into events.
#[derive(Default)]
pub struct Keys {
    partial: Vec<u8>,
}

impl Keys {
    /// The events in `bytes`, with what an earlier chunk left unfinished. A lone ESC at the
    /// end of a chunk is the Esc key (a terminal sends a sequence in one write).
    pub fn feed(&mut self, bytes: &[u8], out: &mut Vec<Event>) {
        for (i, byte) in bytes.iter().enumerate() {
            self.partial.push(*byte);
            let last = i + 1 == bytes.len();
            // An ESC with more bytes behind it starts a sequence; at the end of a chunk it is
            // the Esc key.
            if self.partial == [0x1b] {
                if last {
                    self.partial.clear();
                    out.push(Event::Key(KeyCode::Esc.into()));
                }
                continue;
            }
            match terminput::Event::parse_from(&self.partial) {
                Ok(Some(event)) => {
                    self.partial.clear();
                    if let Some(event) = crate::translate::from_terminput(event) {
                        out.push(event);
                    }
                }
                Ok(None) if self.partial.len() <= MAX_SEQUENCE => {}
                Ok(None) | Err(_) => self.partial.clear(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quentin_app::input::{KeyEvent, KeyModifiers};

    fn keys(chunks: &[&[u8]]) -> Vec<Event> {
        let mut keys = Keys::default();
        let mut out = Vec::new();
        for chunk in chunks {
            keys.feed(chunk, &mut out);
        }
        out
    }

    fn code(event: &Event) -> Option<KeyCode> {
        match event {
            Event::Key(KeyEvent { code, .. }) => Some(*code),
            _ => None,
        }
    }

    #[test]
    fn letters_arrows_and_esc_come_out_as_keys() {
        let events = keys(&[b"q\x1b[A\r", b"\x1b"]);
        let codes: Vec<_> = events.iter().filter_map(code).collect();
        assert_eq!(
            codes,
            [
                KeyCode::Char('q'),
                KeyCode::Up,
                KeyCode::Enter,
                KeyCode::Esc
            ]
        );
    }

    #[test]
    fn a_sequence_split_between_chunks_is_one_key() {
        let events = keys(&[b"\x1b[", b"B"]);
        assert_eq!(
            events.iter().filter_map(code).collect::<Vec<_>>(),
            [KeyCode::Down]
        );
        let ctrl_c = keys(&[b"\x03"]);
        assert!(matches!(
            ctrl_c[0],
            Event::Key(KeyEvent { code: KeyCode::Char('c'), modifiers, .. }) if modifiers.contains(KeyModifiers::CONTROL)
        ));
    }

    #[test]
    fn random_bytes_never_panic_and_keep_nothing_long() {
        let mut keys = Keys::default();
        let mut out = Vec::new();
        let mut x: u32 = 12345;
        let bytes: Vec<u8> = (0..200_000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                x as u8
            })
            .collect();
        for chunk in bytes.chunks(1000) {
            keys.feed(chunk, &mut out);
            assert!(keys.partial.len() <= MAX_SEQUENCE);
        }
        assert!(!out.is_empty());
    }
}
