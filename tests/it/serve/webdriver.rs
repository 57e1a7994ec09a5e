//! A real browser for the web's tests: the distribution's headless Chromium driven by its
//! chromedriver over the W3C WebDriver protocol (a session, a page opened, elements found and
//! their text read), on 127.0.0.1 only.
//!
//! Written here, on a raw `TcpStream` as `http.rs` is, rather than taken from a WebDriver
//! crate: the five commands used are a few lines each, and a crate's HTTP client would bring
//! hyper's client features into the dependencies the program shares with the tests, so that
//! `cargo build --release` after the tests' build would compile again (`.ci/run` refuses it).
//!
//! The browser writes only in the test's scratch directory: its profile, and `HOME` and the
//! `XDG_*` directories of the driver and the browser pointed there.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::{TIMEOUT, free_port};

/// The WebDriver protocol's name for an element's id in a command's answer.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A headless Chromium under its driver, with one session.
pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
}

/// The browser's programs, when this machine has them: the driver and Chromium.
fn programs() -> Option<(&'static str, &'static str)> {
    let found = |p: &str| Path::new(p).exists();
    (found("/usr/bin/chromedriver") && found("/usr/bin/chromium"))
        .then_some(("/usr/bin/chromedriver", "/usr/bin/chromium"))
}

impl Browser {
    /// Starts the driver and a headless browser writing only under `dir`. `None`, said on
    /// standard error, when the machine has no Chromium or driver, outside CI; in CI
    /// (`QUENTIN_CI`, where `.ci/run` installs them) their absence fails the test.
    pub fn start(dir: &Path, test: &str) -> Option<Browser> {
        let Some((driver, chromium)) = programs() else {
            assert!(
                std::env::var_os("QUENTIN_CI").is_none(),
                "{test}: CI has no chromium and chromedriver (.ci/run installs them)"
            );
            eprintln!(
                "{test}: skipped, no chromium and chromedriver (apt-get install chromium chromium-driver)"
            );
            return None;
        };
        let home = dir.join("browser");
        std::fs::create_dir_all(&home).unwrap();
        let port = free_port();
        let driver = Command::new(driver)
            .arg(format!("--port={port}"))
            .arg(format!("--log-path={}", home.join("driver.log").display()))
            .env("HOME", &home)
            .env("XDG_CONFIG_HOME", home.join("config"))
            .env("XDG_CACHE_HOME", home.join("cache"))
            .env("XDG_DATA_HOME", home.join("data"))
            .env("XDG_STATE_HOME", home.join("state"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut browser = Browser {
            driver,
            port,
            session: String::new(),
        };
        browser.wait_ready();
        let profile = home.join("profile");
        let args = [
            "--headless=new".to_string(),
            "--no-sandbox".to_string(),
            "--disable-gpu".to_string(),
            "--disable-dev-shm-usage".to_string(),
            "--no-first-run".to_string(),
            format!("--user-data-dir={}", profile.display()),
        ];
        let answer = browser.call(
            "POST",
            "/session",
            Some(json!({"capabilities": {"alwaysMatch": {
                "browserName": "chrome",
                "goog:chromeOptions": {"binary": chromium, "args": args}
            }}})),
        );
        browser.session = answer["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {answer}"))
            .to_string();
        Some(browser)
    }

    /// Waits until the driver answers its status as ready.
    fn wait_ready(&self) {
        let started = Instant::now();
        loop {
            if let Some((_, body)) = self.request("GET", "/status", None)
                && body["value"]["ready"] == true
            {
                return;
            }
            assert!(
                started.elapsed() < TIMEOUT,
                "chromedriver did not start on port {}",
                self.port
            );
            thread::sleep(Duration::from_millis(50));
        }
    }

    /// One request to the driver: its status and its JSON body; `None` when it cannot be
    /// reached (yet). The driver answers HTTP/1.1 only (an HTTP/1.0 request gets nothing) and
    /// keeps the connection open after its answer: the body is read by its length.
    fn request(&self, method: &str, path: &str, body: Option<Value>) -> Option<(u16, Value)> {
        let socket = TcpStream::connect(("127.0.0.1", self.port)).ok()?;
        socket.set_read_timeout(Some(TIMEOUT)).unwrap();
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.port,
            body.len()
        );
        (&socket).write_all(request.as_bytes()).ok()?;
        let mut reader = BufReader::new(&socket);
        let mut status = None;
        let mut length = 0;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).ok()? == 0 {
                return None;
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if status.is_none() {
                status = line.split_whitespace().nth(1)?.parse().ok();
            } else if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().ok()?;
            }
        }
        let mut answer = vec![0; length];
        reader.read_exact(&mut answer).ok()?;
        Some((
            status?,
            serde_json::from_slice(&answer).unwrap_or(Value::Null),
        ))
    }

    /// A command of the session: its answer's `value`; a failed one fails the test.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let (status, answer) = self
            .request(method, path, body)
            .unwrap_or_else(|| panic!("chromedriver did not answer {method} {path}"));
        assert_eq!(status, 200, "{method} {path}: {answer}");
        answer
    }

    /// A command of this session, by its path under `/session/ID`.
    fn command(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}{path}", self.session);
        let mut answer = self.call(method, &path, body);
        answer["value"].take()
    }

    /// Opens `url` and waits for it to load.
    pub fn open(&self, url: &str) {
        self.command("POST", "/url", Some(json!({ "url": url })));
    }

    /// The page's title.
    pub fn title(&self) -> String {
        self.command("GET", "/title", None)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// How many elements `css` selects now.
    pub fn count(&self, css: &str) -> usize {
        let found = self.command(
            "POST",
            "/elements",
            Some(json!({"using": "css selector", "value": css})),
        );
        found.as_array().map_or(0, Vec::len)
    }

    /// The text the page shows in the first element `css` selects (empty when none does).
    pub fn text(&self, css: &str) -> String {
        let found = self.command(
            "POST",
            "/elements",
            Some(json!({"using": "css selector", "value": css})),
        );
        let Some(id) = found
            .as_array()
            .and_then(|all| all.first())
            .and_then(|e| e[ELEMENT].as_str())
        else {
            return String::new();
        };
        self.command("GET", &format!("/element/{id}/text"), None)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Waits until `ready` holds of the page as it is now (no reload); what it found.
    pub fn wait_until<T>(&self, what: &str, mut ready: impl FnMut(&Browser) -> Option<T>) -> T {
        let started = Instant::now();
        loop {
            if let Some(found) = ready(self) {
                return found;
            }
            assert!(
                started.elapsed() < TIMEOUT,
                "the browser never showed {what}; the page says:\n{}",
                self.text("main")
            );
            thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let path = format!("/session/{}", self.session);
            let _ = self.request("DELETE", &path, None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}
