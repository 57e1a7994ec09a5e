//! The web's pages in a real browser (issue 62): the distribution's headless Chromium, driven
//! by WebDriver, opens a game's page and sees the position, then sees a move made over SSH
//! appear without reloading; and opens a tournament's page and sees its standings and its
//! next round come after a round's game ends, without reloading.

use serde_json::Value;

use crate::serve::http::get;
use crate::serve::play::{Play, pair};
use crate::serve::scratch;
use crate::serve::webdriver::Browser;
use crate::server_web::start;

#[test]
fn a_move_made_over_ssh_appears_on_the_game_s_page_in_a_browser_without_reloading() {
    let dir = scratch("web-browser-game");
    let (server, web) = start(&dir, &[]);
    let Some(browser) = Browser::start(&dir, "web_browser::game") else {
        return;
    };
    let (mut bots, id) = pair(&server, &dir, ["ann", "bob"]);
    let mut play = Play::new(id.clone());
    play.moves(&mut bots, 2);
    browser.open(&format!("http://127.0.0.1:{web}/game/{id}"));
    assert!(
        browser
            .title()
            .starts_with(&format!("Game {id}: ann vs bob")),
        "{}",
        browser.title()
    );
    assert_eq!(browser.count("#live circle.stone.black"), 1);
    assert_eq!(browser.count("#live circle.stone.white"), 1);
    assert!(
        browser.text("#live .status").contains("ann to move"),
        "{}",
        browser.text("main")
    );

    play.moves(&mut bots, 1);
    browser.wait_until("the third stone", |b| {
        (b.count("#live circle.stone.black") == 2).then_some(())
    });
    let status = browser.wait_until("bob to move", |b| {
        let status = b.text("#live .status");
        status.contains("bob to move").then_some(status)
    });
    assert!(status.ends_with('.'), "{status}");
    drop(server);
}

#[test]
fn a_tournament_s_standings_and_next_round_appear_in_a_browser_without_reloading() {
    let dir = scratch("web-browser-tournament");
    let (server, web) = start(&dir, &[]);
    let Some(browser) = Browser::start(&dir, "web_browser::tournament") else {
        return;
    };
    let (mut bots, names, id) = crate::server_tournaments::entrants(
        &server,
        &dir,
        3,
        "swiss quentin size 5 pie off clock 5+0 casual rounds 2 start-in 600",
    );
    assert_eq!(bots[0].ask(&format!("tournament start {id}")), "=");
    let api: Value =
        serde_json::from_str(&get(web, &format!("/api/tournament/{id}")).body).unwrap();
    let game = api["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["result"] == "*")
        .unwrap_or_else(|| panic!("a game under way: {api}"))
        .clone();
    browser.open(&format!("http://127.0.0.1:{web}/tournament/{id}"));
    let live = browser.text("#live");
    assert!(live.contains("round 1 of 2"), "{live}");
    assert!(!live.contains("round 2 of 2"), "{live}");

    // The round's game: its first player moves, the second resigns.
    let seat = |key: &str| names.iter().position(|n| *n == game[key]).unwrap();
    let (first, second) = (seat("first"), seat("second"));
    let game_id = game["game"].as_u64().map_or_else(
        || game["game"].as_str().unwrap().to_string(),
        |n| n.to_string(),
    );
    assert!(
        bots[first]
            .ok(&format!("wait {game_id}"))
            .starts_with("turn")
    );
    assert_eq!(bots[first].ask(&format!("play {game_id} c3")), "=");
    assert!(
        bots[second]
            .ask(&format!("resign {game_id}"))
            .starts_with('=')
    );

    let live = browser.wait_until("the second round", |b| {
        let live = b.text("#live");
        live.contains("round 2 of 2").then_some(live)
    });
    // The standings, as the browser shows them: a row a player, `# Player Points ...`.
    let standings = browser.text("#live table.standings");
    let points = |name: &str| -> String {
        standings
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .find(|cells| cells.get(1) == Some(&name))
            .and_then(|cells| cells.get(2).map(ToString::to_string))
            .unwrap_or_else(|| panic!("{name} in the standings: {standings}"))
    };
    assert_eq!(points(&names[first]), "1", "{standings}");
    // (The loser may have the second round's bye, and its point.)
    assert!(
        live.contains(&format!(
            "round 1: {} vs {} 1-0",
            names[first], names[second]
        )),
        "{live}"
    );
    drop(server);
}
