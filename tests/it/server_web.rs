//! `quentin serve --web ADDR:PORT` run as the binary, on SQLite: every page and API route
//! answered for a game played over the real ssh, the record replayed by `quentin replay`, a
//! move seen on the live stream, the bad values and unknown ids refused, the caching headers,
//! the metrics, a private server's refusal without `--web-public`, and nothing secret in any
//! answer (the keys, fingerprints and addresses the test used).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::serve;
use serve::http::{Answer, Stream, get, get_with};
use serve::play::{Play, pair};
use serve::{Server, free_port, scratch};

/// A server with the web on a port of its own; the web's port.
pub(crate) fn start(dir: &Path, extra: &[&str]) -> (Server, u16) {
    let web = free_port();
    let at = format!("127.0.0.1:{web}");
    let mut args = vec!["--web", at.as_str()];
    args.extend_from_slice(extra);
    (Server::start(dir, &args), web)
}

/// The JSON of `answer`'s body.
fn json(answer: &Answer) -> Value {
    serde_json::from_str(&answer.body).unwrap_or_else(|e| panic!("{e}: {}", answer.body))
}

/// A key's fingerprint, as `ssh-keygen -lf` says it: `SHA256:...`.
fn fingerprint(key: &Path) -> String {
    let out = Command::new("ssh-keygen")
        .arg("-lf")
        .arg(key.with_extension("pub"))
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    text.split_whitespace().nth(1).unwrap().to_string()
}

/// The base64 of a key's public half.
fn public_key(key: &Path) -> String {
    let text = std::fs::read_to_string(key.with_extension("pub")).unwrap();
    text.split_whitespace().nth(1).unwrap().to_string()
}

#[test]
fn every_route_answers_for_a_game_played_over_ssh_and_nothing_secret_is_shown() {
    let dir = scratch("server-web");
    let (server, web) = start(&dir, &[]);
    let (mut bots, id) = pair(&server, &dir, ["ann", "bob"]);
    let mut play = Play::new(id.clone());
    play.moves(&mut bots, 4);
    let mut answers: Vec<(String, Answer)> = Vec::new();
    let mut fetch = |path: &str| {
        let answer = get(web, path);
        answers.push((path.to_string(), answer.clone()));
        answer
    };

    // The API.
    let game = fetch(&format!("/api/game/{id}"));
    assert_eq!(game.status, 200);
    assert_eq!(game.header("content-type"), Some("application/json"));
    let value = json(&game);
    assert_eq!(value["id"].to_string(), id);
    assert_eq!(value["game"], "brique");
    assert_eq!(value["size"], 15);
    assert_eq!(value["pie"], false);
    assert_eq!(value["players"][0]["name"], "ann");
    assert_eq!(value["players"][1]["name"], "bob");
    assert_eq!(value["moves"].as_array().unwrap().len(), 4);
    assert_eq!(value["result"], Value::Null);
    assert_eq!(value["status"], "started");
    assert!(value["clocks"]["left_ms"][0].as_i64().unwrap() > 0);
    assert!(game.header("etag").is_some());

    let record = fetch(&format!("/api/game/{id}.txt"));
    assert_eq!(record.status, 200);
    assert_eq!(record.body, server.record(&dir.join("ann"), &id));
    let file = dir.join("game.txt");
    std::fs::write(&file, &record.body).unwrap();
    let replay = crate::isolated::quentin()
        .arg("replay")
        .arg(&file)
        .arg("--json")
        .output()
        .unwrap();
    assert!(replay.status.success(), "{replay:?}");
    let replayed: Value = serde_json::from_slice(&replay.stdout).unwrap();
    assert_eq!(replayed["game"], "brique", "{replayed}");

    let games = fetch("/api/games/player/ann");
    assert_eq!(games.status, 200);
    assert_eq!(games.header("content-type"), Some("application/x-ndjson"));
    let lines: Vec<Value> = games
        .body
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["moves"], value["moves"]);
    let bad = fetch("/api/games/player/ann?max=many");
    assert_eq!(bad.status, 400);
    assert_eq!(
        bad.body,
        "max must be a number from 1 to 1000, not \"many\"\n"
    );
    let bad = fetch("/api/games/player/ann?since=-3");
    assert_eq!(bad.status, 400);
    assert!(bad.body.starts_with("since must be"), "{}", bad.body);

    // The pages.
    let page = fetch(&format!("/game/{id}"));
    assert_eq!(page.status, 200);
    for part in [
        "<meta property=\"og:title\" content=\"Game",
        "<meta property=\"og:description\"",
        "<svg class=\"board brique\"",
        "class=\"stone black\"",
        "class=\"stone white\"",
        "ann",
        "bob",
        "watching",
        "/game/",
    ] {
        assert!(page.body.contains(part), "{part} not in {}", page.body);
    }
    let at_move = fetch(&format!("/game/{id}?ply=1"));
    assert!(at_move.body.contains("The board after move 1 of 4."));
    for path in ["/", "/player/ann", "/style.css"] {
        assert_eq!(fetch(path).status, 200, "{path}");
    }

    // Unknown ids and names.
    for path in [
        "/game/999",
        "/game/x",
        "/player/nobody",
        "/tournament/t9",
        "/api/game/999",
        "/api/game/999.txt",
        "/api/games/player/nobody",
        "/api/tournament/t9",
        "/api/stream/game/999",
        "/no/such/page",
    ] {
        assert_eq!(fetch(path).status, 404, "{path}");
    }

    // The same page again, asked with its tag: not sent again.
    let tag = page.header("etag").unwrap().to_string();
    let again = get_with(
        web,
        &format!("/game/{id}"),
        &[&format!("If-None-Match: {tag}")],
    );
    assert_eq!(again.status, 304);

    // Nothing secret anywhere: no key, no fingerprint, no address.
    let secrets = [
        server.fingerprint.clone(),
        fingerprint(&dir.join("ann")),
        fingerprint(&dir.join("bob")),
        public_key(&dir.join("ann")),
        public_key(&dir.join("bob")),
        "127.0.0.1".to_string(),
    ];
    for (path, answer) in &answers {
        let whole = format!("{:?}\n{}", answer.headers, answer.body);
        for secret in &secrets {
            assert!(!whole.contains(secret.as_str()), "{path} shows {secret}");
        }
    }
}

#[test]
fn a_move_made_over_ssh_comes_on_the_live_stream_and_the_end_is_kept() {
    let dir = scratch("server-web-live");
    let metrics = free_port();
    let at = format!("127.0.0.1:{metrics}");
    let (server, web) = start(&dir, &["--metrics", &at]);
    let (mut bots, id) = pair(&server, &dir, ["ann", "bob"]);
    let mut play = Play::new(id.clone());
    play.moves(&mut bots, 2);

    let mut stream = Stream::open(web, &format!("/api/stream/game/{id}"), &[]);
    assert_eq!(stream.head.status, 200);
    let first: Value = serde_json::from_str(&stream.line(serve::TIMEOUT).unwrap()).unwrap();
    assert_eq!(first["type"], "game");
    assert_eq!(first["moves"].as_array().unwrap().len(), 2);
    let mut events = Stream::open(
        web,
        &format!("/game/{id}/live"),
        &["Accept: text/event-stream"],
    );
    assert_eq!(
        events.head.header("content-type"),
        Some("text/event-stream")
    );
    let started = Instant::now();
    play.moves(&mut bots, 1);
    let line = loop {
        let line = stream.line(serve::TIMEOUT).unwrap();
        if line.contains("\"move\"") {
            break line;
        }
    };
    let moved: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(moved["ply"], 3);
    assert!(started.elapsed() < Duration::from_secs(30));
    // The page's live part comes again, with the third move in its list.
    loop {
        let line = events.line(serve::TIMEOUT).unwrap();
        if line.contains("?ply=3") {
            break;
        }
    }

    bots[1].ok(&format!("resign {id}"));
    let end = loop {
        let line = stream.line(serve::TIMEOUT).unwrap();
        if line.contains("\"result\"") {
            break line;
        }
    };
    let end: Value = serde_json::from_str(&end).unwrap();
    assert!(end["result"].as_str().unwrap().contains("resign"), "{end}");
    assert_eq!(
        stream.line(serve::TIMEOUT),
        None,
        "the stream ends with the game"
    );

    // A finished game's record is kept for good, its page a while.
    let record = get(web, &format!("/api/game/{id}.txt"));
    assert!(
        record
            .header("cache-control")
            .unwrap()
            .contains("immutable")
    );
    let page = get(web, &format!("/game/{id}"));
    assert!(page.header("cache-control").unwrap().contains("max-age"));
    assert!(page.body.contains("resign"), "{}", page.body);

    // The metrics count the requests by route and status, and the streams open.
    drop(events);
    let scraped = get(metrics, "/metrics").body;
    assert!(
        scraped.contains("quentin_web_requests_total{route=\"/api/game/ID\",status=\"200\"} 1"),
        "{scraped}"
    );
    assert!(scraped.contains("quentin_web_streams"), "{scraped}");
}

#[test]
fn a_private_server_serves_the_web_only_with_web_public() {
    let dir = scratch("server-web-private");
    let allow = dir.join("allow");
    std::fs::write(&allow, "ann\n").unwrap();
    let web = format!("127.0.0.1:{}", free_port());
    let data = dir.join("data");
    let refused = crate::isolated::quentin()
        .args(["serve", "--listen", "127.0.0.1:0", "--web", &web, "--allow"])
        .arg(&allow)
        .arg("--data")
        .arg(&data)
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("add --web-public"), "{said}");
    let allow_arg = allow.display().to_string();
    let (_server, port) = start(&dir, &["--allow", &allow_arg, "--web-public"]);
    assert_eq!(get(port, "/").status, 200);
}

/// Asks `GET path` until it is answered `200` (the process has heard of what it names).
fn wait_found(port: u16, path: &str) -> Answer {
    let started = Instant::now();
    loop {
        let answer = get(port, path);
        if answer.status == 200 {
            return answer;
        }
        assert!(started.elapsed() < serve::TIMEOUT, "{path}: {answer:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_game_played_through_one_process_is_served_live_by_another_on_postgresql() {
    let Some(db) = serve::pg::Database::new("web_two_processes") else {
        return;
    };
    let dir = scratch("server-web-cluster");
    let playing = Server::start(&dir, &["--database", &db.url]);
    let (_showing, web) = start(&dir, &["--database", &db.url]);
    let (mut bots, id) = pair(&playing, &dir, ["ann", "bob"]);
    let mut play = Play::new(id.clone());
    play.moves(&mut bots, 2);
    let game = wait_found(web, &format!("/api/game/{id}"));
    assert_eq!(json(&game)["players"][0]["name"], "ann");

    let mut stream = Stream::open(web, &format!("/api/stream/game/{id}"), &[]);
    let first: Value = serde_json::from_str(&stream.line(serve::TIMEOUT).unwrap()).unwrap();
    let seen = first["moves"].as_array().unwrap().len();
    play.moves(&mut bots, 1);
    let started = Instant::now();
    loop {
        let line: Value = serde_json::from_str(&stream.line(serve::TIMEOUT).unwrap()).unwrap();
        if line["type"] == "move" && line["ply"] == seen + 1 {
            break;
        }
    }
    assert!(started.elapsed() < serve::TIMEOUT);

    for path in [
        "/".to_string(),
        format!("/game/{id}"),
        format!("/api/game/{id}.txt"),
        "/player/ann".to_string(),
        "/api/games/player/ann".to_string(),
    ] {
        assert_eq!(get(web, &path).status, 200, "{path}");
    }
    let page = get(web, &format!("/game/{id}"));
    assert!(page.body.contains("class=\"stone black\""), "{}", page.body);
    let live = Stream::open(web, &format!("/game/{id}/live"), &[]);
    assert_eq!(live.head.status, 200, "{:?}", live.head);
    drop(live);
    for path in ["/style.css", "/puzzles"] {
        assert_eq!(get(web, path).status, 200, "{path}");
    }

    // A tournament made and started through the playing process: its page, its JSON and its
    // live part served by the other.
    let (mut entrants, _, t) = crate::server_tournaments::entrants(
        &playing,
        &dir,
        3,
        "swiss quentin size 5 pie off clock 5+0 casual rounds 2 start-in 600",
    );
    assert_eq!(entrants[0].ask(&format!("tournament start {t}")), "=");
    let started = Instant::now();
    let value = loop {
        let value = json(&wait_found(web, &format!("/api/tournament/{t}")));
        if value["status"] == "running" {
            break value;
        }
        assert!(started.elapsed() < serve::TIMEOUT, "{value}");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(value["standings"].as_array().unwrap().len(), 3, "{value}");
    let page = wait_found(web, &format!("/tournament/{t}"));
    assert!(page.body.contains("Buchholz"), "{}", page.body);
    let live = Stream::open(web, &format!("/tournament/{t}/live"), &[]);
    assert_eq!(live.head.status, 200, "{:?}", live.head);
}

#[test]
fn a_tournament_s_page_names_its_tie_breaks_and_a_banned_player_s_says_only_that_it_is_closed() {
    let dir = scratch("server-web-tournament");
    let list = dir.join("operators");
    std::fs::write(&list, "root\n").unwrap();
    let list = list.display().to_string();
    let (server, web) = start(&dir, &["--operators", &list]);
    let mut root = server.registered(&dir, "root");
    let (mut bots, names, id) = crate::server_tournaments::entrants(
        &server,
        &dir,
        3,
        "swiss quentin size 5 pie off clock 5+0 casual rounds 2 start-in 600",
    );
    assert_eq!(bots[0].ask(&format!("tournament start {id}")), "=");
    let page = wait_found(web, &format!("/tournament/{id}"));
    for part in [
        "<meta property=\"og:title\" content=\"Tournament",
        "Buchholz",
        "Sonneborn-Berger",
        "Crosstable",
        "href=\"/game/",
        names[0].as_str(),
    ] {
        assert!(page.body.contains(part), "{part} not in {}", page.body);
    }
    let value = json(&get(web, &format!("/api/tournament/{id}")));
    assert_eq!(value["tiebreaks"][0], "Buchholz");
    assert_eq!(value["standings"].as_array().unwrap().len(), 3);
    assert_eq!(value["status"], "running");
    let home = get(web, "/");
    assert!(home.body.contains(&format!("/tournament/{id}")));

    // An operator bans bot2: their page says only that the account is closed.
    assert!(get(web, "/player/bot2").body.contains("Recent games"));
    assert!(root.ask("ban bot2 spam").starts_with('='));
    let started = Instant::now();
    loop {
        let page = get(web, "/player/bot2");
        if page.body.contains("This account is closed.") {
            assert!(!page.body.contains("Recent games"), "{}", page.body);
            assert!(!page.body.contains("spam"), "{}", page.body);
            break;
        }
        assert!(started.elapsed() < serve::TIMEOUT, "{}", page.body);
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(get(web, "/api/games/player/bot2").status, 404);
}

#[test]
fn a_new_player_s_page_shows_their_provisional_ratings() {
    let dir = scratch("server-web-provisional");
    let (server, web) = start(&dir, &[]);
    let keys = ["ann", "bob"].map(|n| serve::key(&dir, n));
    let mut bots = [server.bot(&keys[0]), server.bot(&keys[1])];
    bots[0].ok("register ann");
    bots[1].ok("register bob");
    // A rated game long enough to rate (four actions), which bob resigns.
    let id = bots[0].ok("challenge brique size 15 pie off first me rated");
    bots[1].ok(&format!("accept {id}"));
    let mut play = Play::new(id.clone());
    play.moves(&mut bots, 4);
    bots[1].ok(&format!("resign {id}"));
    let ratings = |page: &str| {
        let table = page.split("<h2>Ratings</h2>").nth(1).unwrap_or_default();
        table
            .split("</table>")
            .next()
            .unwrap_or_default()
            .to_string()
    };
    // The leaderboard leaves provisional ratings out; the player's own page does not.
    let page = get(web, "/player/ann").body;
    let table = ratings(&page);
    assert!(table.contains("brique"), "{page}");
    assert!(
        table.contains("?</td>"),
        "a provisional rating is marked: {page}"
    );
    assert!(table.contains("1 game</td>"), "{page}");
    assert!(ratings(&get(web, "/player/bob").body).contains("brique"));
}
