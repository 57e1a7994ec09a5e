//! One SSH channel's two ends, as a session sees them, neither of which ever waits for the
//! other: [`Feed`] holds what the client sent and the session has not read (its bytes up to a
//! bound, its window's latest size), [`Inbox`] gives it to the session until the client goes,
//! stays silent too long or the server stops, and [`Out`] queues what the session says for a
//! writer task of its own, which alone waits for the client to take it (a terminal's frames not
//! yet taken are replaced by the next; a client that takes nothing for the idle timeout, or
//! leaves more than a bound waiting, is cut). [`Keys`] turns the bytes that come from a terminal
//! into the key and mouse events the app reads, with the terminal-input parser crate (no escape
//! sequence is parsed here by hand).

mod keys;

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;
use tracing::Instrument as _;

use russh::ChannelId;
use russh::server::Handle;
use tokio::sync::{Notify, watch};
use tokio::time::Instant;

use super::link::Link;
pub use keys::Keys;

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
    /// The client sent more than the session's input may hold before reading its answers.
    Flooded,
    /// The player was banned (`moderation`).
    Banned,
}

/// A future that ends a session when it returns (a ban).
type Closer = std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>;

/// Returns when `closer` does; never without one.
async fn closing(closer: &mut Option<Closer>) {
    match closer {
        Some(closer) => closer.as_mut().await,
        None => std::future::pending().await,
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // Every change under these locks is whole: a panic elsewhere leaves them sound.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[derive(Default)]
struct Fed {
    bytes: Vec<u8>,
    size: Option<(u16, u16)>,
    closed: bool,
    flooded: bool,
}

/// What the client sent that the session has not read yet. The SSH side puts into it without
/// ever waiting; the session's [`Inbox`] takes from it.
#[derive(Default)]
pub struct Feed {
    fed: Mutex<Fed>,
    ready: Notify,
}

impl Feed {
    /// An empty feed.
    #[must_use]
    pub fn new() -> Arc<Feed> {
        Arc::default()
    }

    /// Adds `bytes` if what waits stays within `bound` bytes; false when they did not fit
    /// (and were not kept).
    pub fn push(&self, bytes: &[u8], bound: usize) -> bool {
        let mut fed = lock(&self.fed);
        if fed.closed || fed.flooded {
            return true;
        }
        if fed.bytes.len() + bytes.len() > bound {
            return false;
        }
        fed.bytes.extend_from_slice(bytes);
        drop(fed);
        self.ready.notify_one();
        true
    }

    /// The window's new size: only the latest one waits.
    pub fn resize(&self, width: u16, height: u16) {
        lock(&self.fed).size = Some((width, height));
        self.ready.notify_one();
    }

    /// No more input will come (what waits is still read).
    pub fn close(&self) {
        lock(&self.fed).closed = true;
        self.ready.notify_one();
    }

    /// The client sent more than may wait: the input ends now, with what waits dropped.
    pub fn flood(&self) {
        let mut fed = lock(&self.fed);
        fed.flooded = true;
        fed.bytes = Vec::new();
        drop(fed);
        self.ready.notify_one();
    }

    /// What waits, or why nothing more will come.
    fn take(&self) -> Option<Result<Input, Ended>> {
        let mut fed = lock(&self.fed);
        if fed.flooded {
            return Some(Err(Ended::Flooded));
        }
        if let Some((width, height)) = fed.size.take() {
            return Some(Ok(Input::Resize(width, height)));
        }
        if !fed.bytes.is_empty() {
            return Some(Ok(Input::Bytes(std::mem::take(&mut fed.bytes))));
        }
        fed.closed.then_some(Err(Ended::Gone))
    }
}

/// A session's input: what the client sends, until it goes, sends nothing for the idle timeout
/// while the server waits for it, or the server stops.
pub struct Inbox {
    feed: Arc<Feed>,
    idle: Duration,
    deadline: Instant,
    stop: watch::Receiver<bool>,
    ended: Option<Ended>,
    /// Ends the session when it returns: its player banned.
    closer: Option<Closer>,
}

impl Inbox {
    /// The input that comes through `feed`; the session ends after `idle` without any, or
    /// when `stop` turns true.
    #[must_use]
    pub fn new(feed: Arc<Feed>, idle: Duration, stop: watch::Receiver<bool>) -> Inbox {
        Inbox {
            feed,
            idle,
            deadline: Instant::now() + idle,
            stop,
            ended: None,
            closer: None,
        }
    }

    /// Whether something ends the input when it returns ([`Inbox::close_when`]).
    #[must_use]
    pub fn closes(&self) -> bool {
        self.closer.is_some()
    }

    /// Ends the input ([`Ended::Banned`]) once `closer` returns.
    pub fn close_when(&mut self, closer: impl std::future::Future<Output = ()> + Send + 'static) {
        self.closer = Some(Box::pin(closer));
    }

    /// The next input, or `None` once the input has ended ([`Inbox::ended`] says why). It may
    /// be cancelled (in a `select!`) and called again: nothing is lost.
    pub async fn recv(&mut self) -> Option<Input> {
        if self.ended.is_some() {
            return None;
        }
        let got = loop {
            if let Some(got) = self.feed.take() {
                break got;
            }
            // A notification that came since `take` is kept for this wait.
            tokio::select! {
                () = self.feed.ready.notified() => {}
                () = tokio::time::sleep_until(self.deadline) => break Err(Ended::Idle),
                _ = self.stop.wait_for(|stop| *stop) => break Err(Ended::Stopping),
                () = closing(&mut self.closer) => break Err(Ended::Banned),
            }
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

    /// Returns when the server stops, or the session is closed for a ban (and then the input
    /// has ended).
    pub async fn stopping(&mut self) {
        if self.ended.is_some() {
            return;
        }
        tokio::select! {
            _ = self.stop.wait_for(|stop| *stop) => self.ended = Some(Ended::Stopping),
            () = closing(&mut self.closer) => self.ended = Some(Ended::Banned),
        }
    }

    /// Why the input ended, if it has.
    #[must_use]
    pub fn ended(&self) -> Option<Ended> {
        self.ended
    }

    /// The idle timeout, in words: "30 minutes", "1 second".
    #[must_use]
    pub fn idle_words(&self) -> String {
        words(self.idle)
    }
}

/// A duration in words: "30 minutes", "1 second".
#[must_use]
pub fn words(duration: Duration) -> String {
    let seconds = duration.as_secs();
    let (n, unit) = match seconds {
        s if s >= 3600 && s % 3600 == 0 => (s / 3600, "hour"),
        s if s >= 60 && s % 60 == 0 => (s / 60, "minute"),
        s => (s, "second"),
    };
    format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
}

/// The most bytes handed to russh at once: russh holds a few such messages at most while the
/// client's window is full, so this bounds what waits there.
const CHUNK: usize = 32 * 1024;

/// How long a closing session waits for its client to take its last output.
const CLOSE_WAIT: Duration = Duration::from_secs(5);

enum Item {
    Data(Vec<u8>),
    Stderr(Vec<u8>),
    Close(u32),
}

#[derive(Default)]
struct Queue {
    items: VecDeque<Item>,
    bytes: usize,
    /// The last item is a frame that the writer has not taken: the next frame replaces it.
    frame_last: bool,
    /// The client has gone or was cut: nothing more is sent.
    gone: bool,
}

struct Outbox {
    queue: Mutex<Queue>,
    wake: Notify,
    /// Told when the writer takes what was queued (or the client goes).
    taken: Notify,
    done: watch::Sender<bool>,
    link: Arc<Link>,
    bound: usize,
}

impl Outbox {
    /// Queues `item`, in place of an untaken frame if `frame` and one is last.
    fn put(&self, item: Item, frame: bool) -> Result<(), Gone> {
        let mut queue = lock(&self.queue);
        if queue.gone {
            return Err(Gone);
        }
        let len = match &item {
            Item::Data(b) | Item::Stderr(b) => b.len(),
            Item::Close(_) => 0,
        };
        if frame
            && queue.frame_last
            && let Some(Item::Data(old)) = queue.items.pop_back()
        {
            queue.bytes -= old.len();
        }
        // The bound is on what the client left unread before this: one answer, however
        // long, is queued whole for a client that reads (its writer takes it as the client's
        // window opens); a client that asks again before reading what waits is cut.
        let unread = queue.bytes;
        queue.items.push_back(item);
        queue.bytes += len;
        queue.frame_last = frame;
        if unread > self.bound {
            let waiting = queue.bytes;
            queue.gone = true;
            queue.items.clear();
            drop(queue);
            self.link.cut(format!(
                "its output was not read: {waiting} bytes waiting, more than {}",
                self.bound
            ));
            self.wake.notify_one();
            return Err(Gone);
        }
        drop(queue);
        self.wake.notify_one();
        Ok(())
    }

    /// The next thing to send (data items merged up to a chunk), or `None` once gone.
    async fn next(&self) -> Option<Item> {
        loop {
            {
                let mut queue = lock(&self.queue);
                if queue.gone {
                    return None;
                }
                if let Some(mut item) = queue.items.pop_front() {
                    if let Item::Data(bytes) = &mut item {
                        while let Some(Item::Data(more)) = queue.items.front() {
                            if bytes.len() + more.len() > CHUNK {
                                break;
                            }
                            bytes.extend_from_slice(more);
                            queue.items.pop_front();
                        }
                    }
                    if let Item::Data(b) | Item::Stderr(b) = &item {
                        queue.bytes -= b.len();
                    }
                    if queue.items.is_empty() {
                        queue.frame_last = false;
                    }
                    drop(queue);
                    self.taken.notify_waiters();
                    return Some(item);
                }
            }
            self.wake.notified().await;
        }
    }

    /// Returns once no frame waits for the writer (or the client has gone).
    async fn frame_taken(&self) {
        loop {
            let taken = self.taken.notified();
            tokio::pin!(taken);
            taken.as_mut().enable();
            {
                let queue = lock(&self.queue);
                if !queue.frame_last || queue.gone {
                    return;
                }
            }
            taken.await;
        }
    }

    fn finish(&self) {
        let mut queue = lock(&self.queue);
        queue.gone = true;
        queue.items.clear();
        queue.bytes = 0;
        drop(queue);
        self.taken.notify_waiters();
        self.done.send_replace(true);
    }
}

/// Where a session's output goes: queued at once, never waiting for the client; a writer task
/// of the channel's own sends it.
#[derive(Clone)]
pub struct Out {
    outbox: Arc<Outbox>,
}

/// The client has gone (or was cut).
#[derive(Debug)]
pub struct Gone;

impl Out {
    /// The channel `id` of the connection behind `handle` and `link`, with its writer task
    /// started: more than `bound` bytes waiting, or a client that takes nothing for `stall`,
    /// cuts the connection.
    #[must_use]
    pub fn new(
        handle: Handle,
        id: ChannelId,
        link: Arc<Link>,
        bound: usize,
        stall: Duration,
    ) -> Out {
        let outbox = Arc::new(Outbox {
            queue: Mutex::default(),
            wake: Notify::new(),
            taken: Notify::new(),
            done: watch::Sender::new(false),
            link,
            bound,
        });
        let span = outbox.link.span.clone();
        tokio::spawn(write(handle, id, outbox.clone(), stall).instrument(span));
        Out { outbox }
    }

    /// Queues `bytes`; returns at once.
    ///
    /// # Errors
    /// When the client has gone, or leaves more than the bound unread (then it is cut).
    #[allow(clippy::unused_async)] // Kept async: its callers are written as if it may wait.
    pub async fn send(&self, bytes: &[u8]) -> Result<(), Gone> {
        self.outbox.put(Item::Data(bytes.to_vec()), false)
    }

    /// Queues `text` for the channel's standard error.
    ///
    /// # Errors
    /// When the client has gone.
    #[allow(clippy::unused_async)]
    pub async fn send_err(&self, text: &str) -> Result<(), Gone> {
        self.outbox
            .put(Item::Stderr(text.as_bytes().to_vec()), false)
    }

    /// Queues a terminal's frame, in place of the one before it if the client has not taken
    /// that yet (check [`Out::frame_waiting`] first: a frame that replaces another must be
    /// drawn whole, not as a difference).
    ///
    /// # Errors
    /// When the client has gone.
    pub fn frame(&self, bytes: Vec<u8>) -> Result<(), Gone> {
        self.outbox.put(Item::Data(bytes), true)
    }

    /// Whether the last frame queued is still waiting for the client.
    #[must_use]
    pub fn frame_waiting(&self) -> bool {
        lock(&self.outbox.queue).frame_last
    }

    /// Returns once no frame waits for the client (its writer took the last one, or the
    /// client has gone): a screen that draws only then draws the latest state for a slow
    /// client, rather than frames that replace each other unseen.
    pub async fn frame_taken(&self) {
        self.outbox.frame_taken().await;
    }

    /// Ends the channel with `status`, after what is queued; waits a few seconds at most for
    /// the client to take it, then cuts the connection.
    pub async fn close(&self, status: u32) {
        let mut done = self.outbox.done.subscribe();
        if self.outbox.put(Item::Close(status), false).is_err() {
            return;
        }
        let closed = tokio::time::timeout(CLOSE_WAIT, done.wait_for(|done| *done)).await;
        if closed.is_err() {
            self.outbox
                .link
                .cut("it did not take its last output (closing the channel)");
        }
    }
}

/// The writer of one channel: sends what its [`Out`] queues, in order, waiting for the client
/// as long as it must, up to `stall`.
async fn write(handle: Handle, id: ChannelId, outbox: Arc<Outbox>, stall: Duration) {
    while let Some(item) = outbox.next().await {
        let sent = tokio::time::timeout(stall, async {
            match item {
                Item::Data(bytes) => handle.data(id, bytes).await.is_ok(),
                Item::Stderr(bytes) => handle.extended_data(id, 1, bytes).await.is_ok(),
                Item::Close(status) => {
                    let _ = handle.exit_status_request(id, status).await;
                    let _ = handle.eof(id).await;
                    let _ = handle.close(id).await;
                    false
                }
            }
        })
        .await;
        match sent {
            Ok(true) => {}
            Ok(false) => break,
            Err(_) => {
                outbox.link.cut(format!(
                    "it read nothing for {} (--idle-timeout)",
                    words(stall)
                ));
                break;
            }
        }
    }
    outbox.finish();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn resizes_coalesce_and_input_beyond_its_bound_is_refused_or_ends_it() {
        let feed = Feed::new();
        let (_stop, stop) = watch::channel(false);
        let mut inbox = Inbox::new(feed.clone(), Duration::from_secs(60), stop);
        for w in 1..=1000 {
            feed.resize(w, 24);
        }
        assert!(feed.push(b"abc", 4));
        assert!(!feed.push(b"de", 4), "beyond the bound");
        assert!(matches!(inbox.recv().await, Some(Input::Resize(1000, 24))));
        assert!(matches!(inbox.recv().await, Some(Input::Bytes(b)) if b == b"abc"));
        feed.flood();
        assert!(inbox.recv().await.is_none());
        assert_eq!(inbox.ended(), Some(Ended::Flooded));
    }

    #[tokio::test]
    async fn one_long_answer_is_queued_whole_and_asking_again_before_reading_it_cuts() {
        let link = Link::new(([127, 0, 0, 1], 1).into());
        let outbox = Outbox {
            queue: Mutex::default(),
            wake: Notify::new(),
            taken: Notify::new(),
            done: watch::Sender::new(false),
            link: link.clone(),
            bound: 100,
        };
        assert!(outbox.put(Item::Data(vec![b'x'; 1000]), false).is_ok());
        assert!(link.cut_why().is_none(), "one answer ten times the bound");
        // Taken by the writer as the client reads: the next answer is queued too.
        assert!(matches!(outbox.next().await, Some(Item::Data(b)) if b.len() == 1000));
        assert!(outbox.put(Item::Data(vec![b'y'; 1000]), false).is_ok());
        // Asked again before that one is read: cut.
        assert!(outbox.put(Item::Data(b"more".to_vec()), false).is_err());
        assert!(link.cut_why().is_some_and(|why| why.contains("not read")));
    }

    /// A frame the client has not taken is replaced by the next, and a screen that waits for
    /// the last frame to be taken (a watcher's) is let go once the writer takes it.
    #[tokio::test]
    async fn a_frame_not_taken_is_replaced_and_waited_for_until_taken() {
        let outbox = Arc::new(Outbox {
            queue: Mutex::default(),
            wake: Notify::new(),
            taken: Notify::new(),
            done: watch::Sender::new(false),
            link: Link::new(([127, 0, 0, 1], 1).into()),
            bound: 1 << 20,
        });
        assert!(outbox.put(Item::Data(b"one".to_vec()), true).is_ok());
        assert!(outbox.put(Item::Data(b"two".to_vec()), true).is_ok());
        let waiting = tokio::spawn({
            let outbox = outbox.clone();
            async move { outbox.frame_taken().await }
        });
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished(), "the frame waits for the writer");
        // The writer takes the latest frame only: the first was never sent.
        assert!(matches!(outbox.next().await, Some(Item::Data(b)) if b == b"two"));
        waiting.await.unwrap();
        outbox.frame_taken().await;
    }

    #[test]
    fn the_idle_timeout_is_said_in_words() {
        let words = |seconds| {
            let (_stop, stop) = watch::channel(false);
            Inbox::new(Feed::new(), Duration::from_secs(seconds), stop).idle_words()
        };
        assert_eq!(words(1), "1 second");
        assert_eq!(words(90), "90 seconds");
        assert_eq!(words(1800), "30 minutes");
        assert_eq!(words(3600), "1 hour");
        assert_eq!(words(7200), "2 hours");
    }
}
