//! One SSH channel's two ends, as a session sees them: [`Out`] sends bytes to the client,
//! [`Inbox`] receives what the client sends until it goes, stays silent too long or the server
//! stops, and [`Keys`] turns the bytes that come from a terminal into the key and mouse events
//! the app reads, with the terminal-input parser crate (no escape sequence is parsed here by
//! hand).

use std::time::Duration;

use russh::ChannelId;
use russh::server::Handle;
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;

use crate::tui::input::{Event, KeyCode};

/// What comes from the channel.
#[derive(Debug)]
pub enum Input {
    /// Bytes typed (or pasted), or a bot's lines.
    Bytes(Vec<u8>),
    /// The window's new size.
    Resize(u16, u16),
}

/// Why a session's input ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// The client closed the channel or went.
    Gone,
    /// The client sent nothing for the idle timeout.
    Idle,
    /// The server is stopping.
    Stopping,
}

/// A session's input: what the client sends, until it goes, sends nothing for the idle timeout
/// while the server waits for it, or the server stops.
pub struct Inbox {
    input: mpsc::Receiver<Input>,
    idle: Duration,
    deadline: Instant,
    stop: watch::Receiver<bool>,
    ended: Option<Ended>,
}

impl Inbox {
    /// The input that comes through `input`; the session ends after `idle` without any, or
    /// when `stop` turns true.
    #[must_use]
    pub fn new(input: mpsc::Receiver<Input>, idle: Duration, stop: watch::Receiver<bool>) -> Inbox {
        Inbox {
            input,
            idle,
            deadline: Instant::now() + idle,
            stop,
            ended: None,
        }
    }

    /// The next input, or `None` once the input has ended ([`Inbox::ended`] says why). It may
    /// be cancelled (in a `select!`) and called again: nothing is lost.
    pub async fn recv(&mut self) -> Option<Input> {
        if self.ended.is_some() {
            return None;
        }
        let got = tokio::select! {
            got = self.input.recv() => got.ok_or(Ended::Gone),
            () = tokio::time::sleep_until(self.deadline) => Err(Ended::Idle),
            _ = self.stop.wait_for(|stop| *stop) => Err(Ended::Stopping),
        };
        match got {
            Ok(input) => {
                self.deadline = Instant::now() + self.idle;
                Some(input)
            }
            Err(why) => {
                self.ended = Some(why);
                None
            }
        }
    }

    /// Counts the idle time afresh: the server has answered, and now waits for the client.
    pub fn restart(&mut self) {
        self.deadline = Instant::now() + self.idle;
    }

    /// Returns when the server stops (and then the input has ended).
    pub async fn stopping(&mut self) {
        let _ = self.stop.wait_for(|stop| *stop).await;
        self.ended = Some(Ended::Stopping);
    }

    /// Why the input ended, if it has.
    #[must_use]
    pub fn ended(&self) -> Option<Ended> {
        self.ended
    }

    /// The idle timeout, in words: "30 minutes", "1 second".
    #[must_use]
    pub fn idle_words(&self) -> String {
        let seconds = self.idle.as_secs();
        let (n, unit) = match seconds {
            s if s >= 3600 && s % 3600 == 0 => (s / 3600, "hour"),
            s if s >= 60 && s % 60 == 0 => (s / 60, "minute"),
            s => (s, "second"),
        };
        format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
    }
}

/// Where a session's output goes.
#[derive(Clone)]
pub struct Out {
    handle: Handle,
    id: ChannelId,
}

/// The client has gone.
#[derive(Debug)]
pub struct Gone;

impl Out {
    /// The channel `id` of the connection behind `handle`.
    #[must_use]
    pub fn new(handle: Handle, id: ChannelId) -> Out {
        Out { handle, id }
    }

    /// Sends `bytes`; waits while the client's window is full (a client that reads nothing
    /// holds up its own session only).
    ///
    /// # Errors
    /// When the client has gone.
    pub async fn send(&self, bytes: &[u8]) -> Result<(), Gone> {
        self.handle
            .data(self.id, bytes.to_vec())
            .await
            .map_err(|_| Gone)
    }

    /// Sends `text` on the channel's standard error.
    ///
    /// # Errors
    /// When the client has gone.
    pub async fn send_err(&self, text: &str) -> Result<(), Gone> {
        self.handle
            .extended_data(self.id, 1, text.as_bytes().to_vec())
            .await
            .map_err(|_| Gone)
    }

    /// Ends the channel with `status`.
    pub async fn close(&self, status: u32) {
        let _ = self.handle.exit_status_request(self.id, status).await;
        let _ = self.handle.eof(self.id).await;
        let _ = self.handle.close(self.id).await;
    }
}

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
                    if let Some(event) = super::translate::from_terminput(event) {
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
    use crate::tui::input::{KeyEvent, KeyModifiers};

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
    fn the_idle_timeout_is_said_in_words() {
        let words = |seconds| {
            let (_tx, rx) = mpsc::channel(1);
            let (_stop, stop) = watch::channel(false);
            Inbox::new(rx, Duration::from_secs(seconds), stop).idle_words()
        };
        assert_eq!(words(1), "1 second");
        assert_eq!(words(90), "90 seconds");
        assert_eq!(words(1800), "30 minutes");
        assert_eq!(words(3600), "1 hour");
        assert_eq!(words(7200), "2 hours");
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
