//! A small HTTP/1.0 client for the web's tests, on a raw `TcpStream`: one request a
//! connection, the answer read to its end (HTTP/1.0: the server closes after it), or a live
//! stream read line by line.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// An answer: its status, its headers (names in lower case) and its body.
#[derive(Clone, Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    /// The value of header `name`, if given.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A connection to 127.0.0.1:`port` from the loopback address `source` (another network
/// block than 127.0.0.1's), through tokio's socket, which binds before it connects.
pub fn connect_from(source: [u8; 4], port: u16) -> TcpStream {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket
            .bind(std::net::SocketAddr::from((source, 0)))
            .unwrap();
        let stream = socket
            .connect(std::net::SocketAddr::from(([127, 0, 0, 1], port)))
            .await
            .unwrap();
        stream.into_std().unwrap()
    })
}

/// `GET path` on 127.0.0.1:`port` from `source`; `None` when the server closed the
/// connection without an answer (a refused place).
pub fn get_from(source: [u8; 4], port: u16, path: &str) -> Option<Answer> {
    let socket = connect_from(source, port);
    socket.set_nonblocking(false).unwrap();
    request(socket, path, &[])
}

/// `GET path` on 127.0.0.1:`port` with `extra` header lines (`If-None-Match: "..."`).
pub fn get_with(port: u16, path: &str, extra: &[&str]) -> Answer {
    let socket = TcpStream::connect(("127.0.0.1", port)).unwrap();
    request(socket, path, extra).unwrap_or_else(|| panic!("no answer to {path}"))
}

/// `GET path` on `socket`, the answer read to its end; `None` when the server closed it
/// without one.
fn request(mut socket: TcpStream, path: &str, extra: &[&str]) -> Option<Answer> {
    socket.set_read_timeout(Some(super::TIMEOUT)).unwrap();
    let mut request = format!("GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n");
    for line in extra {
        request.push_str(line);
        request.push_str("\r\n");
    }
    request.push_str("\r\n");
    // A refused place is closed at once: the write or the read may find it gone.
    socket.write_all(request.as_bytes()).ok()?;
    let mut answer = Vec::new();
    socket.read_to_end(&mut answer).ok()?;
    if answer.is_empty() {
        return None;
    }
    let answer = String::from_utf8(answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    Some(parse_head(head, body.to_string()))
}

/// `GET path`.
pub fn get(port: u16, path: &str) -> Answer {
    get_with(port, path, &[])
}

fn parse_head(head: &str, body: String) -> Answer {
    let mut lines = head.lines();
    let status = lines.next().unwrap().split_whitespace().nth(1).unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Answer {
        status: status.parse().unwrap(),
        headers,
        body,
    }
}

/// A live stream: its head read, its body's lines to come.
pub struct Stream {
    pub head: Answer,
    reader: BufReader<TcpStream>,
}

impl Stream {
    /// Opens `GET path` with `extra` header lines and reads the head.
    pub fn open(port: u16, path: &str, extra: &[&str]) -> Stream {
        let mut socket = TcpStream::connect(("127.0.0.1", port)).unwrap();
        socket.set_read_timeout(Some(super::TIMEOUT)).unwrap();
        let mut request = format!("GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n");
        for line in extra {
            request.push_str(line);
            request.push_str("\r\n");
        }
        request.push_str("\r\n");
        socket.write_all(request.as_bytes()).unwrap();
        let mut reader = BufReader::new(socket);
        let mut head = String::new();
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            if line == "\r\n" || line.is_empty() {
                break;
            }
            head.push_str(&line);
        }
        Stream {
            head: parse_head(&head, String::new()),
            reader,
        }
    }

    /// The next line that is not empty, within `deadline`; `None` once the stream ended.
    pub fn line(&mut self, deadline: Duration) -> Option<String> {
        self.reader
            .get_ref()
            .set_read_timeout(Some(deadline))
            .unwrap();
        loop {
            let mut line = String::new();
            if self.reader.read_line(&mut line).unwrap() == 0 {
                return None;
            }
            let line = line.trim_end();
            if !line.is_empty() {
                return Some(line.to_string());
            }
        }
    }
}

/// Waits until the server has closed `stream` (its end, or a reset); `false` when it is still
/// open after the test's timeout. A read interrupted by a signal (the test process has many
/// children) is read again: taken for the end, it had the test drop the socket itself, and
/// the server log that the client went, long before the deadline under test.
pub fn closed(mut stream: TcpStream) -> bool {
    stream.set_nonblocking(false).unwrap();
    stream.set_read_timeout(Some(super::TIMEOUT)).unwrap();
    let deadline = Instant::now() + super::TIMEOUT;
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                if Instant::now() >= deadline {
                    return false;
                }
            }
            Err(e) => {
                assert!(
                    matches!(
                        e.kind(),
                        std::io::ErrorKind::ConnectionReset | std::io::ErrorKind::ConnectionAborted
                    ),
                    "the socket's read failed: {e}"
                );
                return true;
            }
        }
    }
}
