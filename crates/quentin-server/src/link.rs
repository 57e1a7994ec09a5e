//! One connection as the server holds it, apart from russh: who it is, how many sessions it
//! runs, and a switch that cuts it. The switch works whatever state russh is in: the
//! connection's socket is wrapped in a [`Cut`] stream that fails every read and write once the
//! switch is thrown, so russh's task ends and drops the connection (and with it every place it
//! held). [`Link::deadline`] throws it when the login does not come within the grace time, when
//! a logged-in connection runs no session for the idle timeout, or when the server stops.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::watch;
use tokio::time::Instant;

/// What is known of a connection.
#[derive(Clone, Debug, Default)]
pub struct Known {
    /// The key's SHA-256 fingerprint, once proved.
    pub key: Option<String>,
    /// The player's name, once known.
    pub name: Option<String>,
    /// Why the server ends it, when the server does so without cutting it (it tells the
    /// client first).
    pub ending: Option<String>,
}

/// How long a connection has to send its SSH version line (the first line of the protocol,
/// which a client sends as it connects), when that is shorter than the login's grace: a
/// socket that sends nothing at all gives its place back sooner.
pub const VERSION_GRACE: Duration = Duration::from_secs(5);

#[derive(Debug)]
struct State {
    /// The client's SSH version line came.
    version: bool,
    /// It was cut for not sending its version line within [`VERSION_GRACE`].
    version_missed: bool,
    logged_in: bool,
    sessions: usize,
    /// Since when no session has run (from the login on).
    quiet_since: Instant,
    cut: Option<String>,
}

/// One connection's shared state.
pub struct Link {
    /// The client's address.
    pub peer: SocketAddr,
    /// When it connected.
    pub since: Instant,
    known: Mutex<Known>,
    state: watch::Sender<State>,
    /// The connection's span: every log line of its tasks says whose it is (its peer, and its
    /// key and player once known).
    pub span: tracing::Span,
}

impl Link {
    /// A connection from `peer`, just accepted.
    #[must_use]
    pub fn new(peer: SocketAddr) -> Arc<Link> {
        let now = Instant::now();
        Arc::new(Link {
            peer,
            since: now,
            known: Mutex::default(),
            span: tracing::info_span!(
                "connection",
                %peer,
                key = tracing::field::Empty,
                player = tracing::field::Empty
            ),
            state: watch::Sender::new(State {
                version: false,
                version_missed: false,
                logged_in: false,
                sessions: 0,
                quiet_since: now,
                cut: None,
            }),
        })
    }

    /// What is known of it.
    #[must_use]
    pub fn known(&self) -> Known {
        self.known
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Notes the key and the name.
    pub fn know(&self, key: Option<&str>, name: Option<&str>) {
        let mut known = self.known.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(key) = key {
            known.key = Some(key.to_string());
            self.span.record("key", tracing::field::display(key));
        }
        if let Some(name) = name {
            known.name = Some(name.to_string());
            self.span.record("player", tracing::field::display(name));
        }
    }

    /// Notes why the server ends the connection, for the log, when it tells the client first
    /// (the first reason is kept).
    pub fn ending(&self, why: impl Into<String>) {
        let mut known = self.known.lock().unwrap_or_else(PoisonError::into_inner);
        known.ending.get_or_insert_with(|| why.into());
    }

    /// Cuts it now, for the reason [`Link::ending`] gave, once the session has said its last
    /// words.
    pub fn end(&self) {
        let why = self.known().ending;
        self.cut(why.unwrap_or_else(|| "ended by the server".to_string()));
    }

    /// The client's SSH version line came: the login's grace runs from now on, not the
    /// version line's.
    pub fn version_came(&self) {
        self.state
            .send_if_modified(|s| !std::mem::replace(&mut s.version, true));
    }

    /// Whether it was cut for not sending its version line in time.
    #[must_use]
    pub fn version_missed(&self) -> bool {
        self.state.borrow().version_missed
    }

    /// The login came: the grace time no longer runs.
    pub fn logged_in(&self) {
        self.state.send_modify(|s| {
            s.logged_in = true;
            s.quiet_since = Instant::now();
        });
    }

    /// A session starts on it; counted until the guard drops.
    #[must_use]
    pub fn session(self: &Arc<Self>) -> Running {
        self.state.send_modify(|s| s.sessions += 1);
        Running(self.clone())
    }

    /// How many sessions run on it now.
    #[must_use]
    pub fn sessions(&self) -> usize {
        self.state.borrow().sessions
    }

    /// Cuts the connection, saying `why` in the log (the first reason is kept).
    pub fn cut(&self, why: impl Into<String>) {
        let why = why.into();
        self.state.send_if_modified(|s| {
            if s.cut.is_some() {
                return false;
            }
            s.cut = Some(why);
            true
        });
    }

    /// Why it was cut, if it was.
    #[must_use]
    pub fn cut_why(&self) -> Option<String> {
        self.state.borrow().cut.clone()
    }

    /// Returns once the connection must end, with why: it was cut; it has not sent its SSH
    /// version line within [`VERSION_GRACE`] (or `grace`, if shorter); it has not logged in
    /// within `grace`; logged in, it has run no session for `idle`; or `stop` turned true.
    pub async fn deadline(
        &self,
        grace: Duration,
        idle: Duration,
        mut stop: watch::Receiver<bool>,
    ) -> String {
        let mut state = self.state.subscribe();
        loop {
            let until = {
                let s = state.borrow_and_update();
                if let Some(why) = &s.cut {
                    return why.clone();
                }
                if !s.logged_in && !s.version && VERSION_GRACE < grace {
                    Some((
                        self.since + VERSION_GRACE,
                        format!("no SSH version line within {} s", VERSION_GRACE.as_secs()),
                        true,
                    ))
                } else if !s.logged_in {
                    Some((
                        self.since + grace,
                        format!(
                            "not logged in within {} s (--login-grace-time)",
                            grace.as_secs()
                        ),
                        false,
                    ))
                } else if s.sessions == 0 {
                    Some((
                        s.quiet_since + idle,
                        format!("no session for {} s (--idle-timeout)", idle.as_secs()),
                        false,
                    ))
                } else {
                    None
                }
            };
            let sleep = async {
                match &until {
                    Some((at, ..)) => tokio::time::sleep_until(*at).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                changed = state.changed() => if changed.is_err() { return String::new() },
                () = sleep => {
                    let (why, missed) = until.map(|(_, why, missed)| (why, missed)).unwrap_or_default();
                    self.cut(why.clone());
                    if missed {
                        self.state.send_modify(|s| s.version_missed = true);
                    }
                    return why;
                }
                _ = stop.wait_for(|stop| *stop) => {
                    self.cut("the server stopped");
                    return "the server stopped".to_string();
                }
            }
        }
    }

    /// A future that returns once the connection is cut.
    fn on_cut(&self) -> Pin<Box<dyn Future<Output = ()> + Send>> {
        let mut state = self.state.subscribe();
        Box::pin(async move {
            let _ = state.wait_for(|s| s.cut.is_some()).await;
        })
    }
}

/// A session running on a connection; it stops counting when dropped.
pub struct Running(Arc<Link>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.state.send_modify(|s| {
            s.sessions -= 1;
            if s.sessions == 0 {
                s.quiet_since = Instant::now();
            }
        });
    }
}

/// A connection's socket that fails every read and write once its [`Link`] is cut, and tells
/// the link when the client's first line (SSH's version line) has come.
pub struct Cut<S> {
    inner: S,
    cut: Pin<Box<dyn Future<Output = ()> + Send>>,
    done: bool,
    /// The link, until the client's first line has come.
    waiting_version: Option<Arc<Link>>,
}

impl<S> Cut<S> {
    /// `inner`, cut with `link`.
    pub fn new(inner: S, link: &Arc<Link>) -> Cut<S> {
        Cut {
            inner,
            cut: link.on_cut(),
            done: false,
            waiting_version: Some(link.clone()),
        }
    }

    /// Whether the link is cut; registers the task to be woken when it is.
    fn is_cut(&mut self, cx: &mut Context<'_>) -> bool {
        if !self.done && self.cut.as_mut().poll(cx).is_ready() {
            self.done = true;
        }
        self.done
    }
}

fn cut_error() -> io::Error {
    io::Error::new(io::ErrorKind::ConnectionAborted, "cut by the server")
}

impl<S: AsyncRead + Unpin> AsyncRead for Cut<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if self.is_cut(cx) {
            return Poll::Ready(Err(cut_error()));
        }
        let before = buf.filled().len();
        let read = Pin::new(&mut self.inner).poll_read(cx, buf);
        if self.waiting_version.is_some()
            && buf.filled()[before..].contains(&b'\n')
            && let Some(link) = self.waiting_version.take()
        {
            link.version_came();
        }
        read
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Cut<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        if self.is_cut(cx) {
            return Poll::Ready(Err(cut_error()));
        }
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.is_cut(cx) {
            return Poll::Ready(Err(cut_error()));
        }
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test]
    async fn a_cut_fails_a_read_that_waits() {
        let link = Link::new(([127, 0, 0, 1], 1).into());
        let (near, mut far) = tokio::io::duplex(64);
        let mut stream = Cut::new(near, &link);
        far.write_all(b"hi").await.unwrap();
        let mut buf = [0u8; 2];
        stream.read_exact(&mut buf).await.unwrap();
        let reading = tokio::spawn(async move {
            let mut buf = [0u8; 1];
            stream.read(&mut buf).await
        });
        link.cut("test");
        let read = reading.await.unwrap();
        assert_eq!(read.unwrap_err().kind(), io::ErrorKind::ConnectionAborted);
        assert_eq!(link.cut_why().as_deref(), Some("test"));
    }

    #[tokio::test(start_paused = true)]
    async fn no_login_within_the_grace_time_cuts_the_connection() {
        let link = Link::new(([127, 0, 0, 1], 1).into());
        let (_stop, stop) = watch::channel(false);
        let why = link
            .deadline(Duration::from_secs(5), Duration::from_secs(60), stop)
            .await;
        assert!(why.contains("not logged in within 5 s"), "{why}");
        assert!(link.cut_why().is_some());
    }

    #[tokio::test(start_paused = true)]
    async fn no_version_line_cuts_sooner_than_the_grace_and_a_version_line_gives_the_grace() {
        let silent = Link::new(([127, 0, 0, 1], 1).into());
        let (_stop, stop) = watch::channel(false);
        let why = silent
            .deadline(
                Duration::from_secs(20),
                Duration::from_secs(60),
                stop.clone(),
            )
            .await;
        assert!(why.contains("no SSH version line within 5 s"), "{why}");
        assert!(silent.version_missed());
        let greeted = Link::new(([127, 0, 0, 1], 2).into());
        let (near, mut far) = tokio::io::duplex(64);
        let mut stream = Cut::new(near, &greeted);
        far.write_all(b"SSH-2.0-test\r\n").await.unwrap();
        let mut buf = [0u8; 14];
        stream.read_exact(&mut buf).await.unwrap();
        let why = greeted
            .deadline(Duration::from_secs(20), Duration::from_secs(60), stop)
            .await;
        assert!(why.contains("not logged in within 20 s"), "{why}");
        assert!(!greeted.version_missed());
    }

    #[tokio::test(start_paused = true)]
    async fn a_logged_in_connection_without_a_session_is_cut_after_the_idle_time() {
        let link = Link::new(([127, 0, 0, 1], 1).into());
        link.logged_in();
        let running = link.session();
        let (_stop, stop) = watch::channel(false);
        let watched = link.clone();
        let deadline = tokio::spawn(async move {
            watched
                .deadline(Duration::from_secs(5), Duration::from_secs(60), stop)
                .await
        });
        tokio::time::sleep(Duration::from_secs(600)).await;
        assert!(!deadline.is_finished());
        drop(running);
        let why = deadline.await.unwrap();
        assert!(why.contains("no session for 60 s"), "{why}");
    }
}
