//! `/puzzles` through the binary (issue 62): the puzzle of the day of each game shown with its
//! task and its points as links; one solved move by move by following the page's own links
//! (the server judging each move against the shipped puzzle's proved solution), a wrong move
//! refuted, a point the rules refuse answered with their reason, a word that is no move `400`
//! and an unknown puzzle `404`; the same puzzles of the day on two processes of one
//! PostgreSQL database.

use quentin::search::puzzles::{Goal, Puzzle};

use crate::serve::http::{Answer, get};
use crate::serve::scratch;
use crate::server_web::start;

/// The shipped puzzle of `id`.
fn shipped(id: &str) -> Puzzle {
    quentin::puzzles::shipped()
        .unwrap()
        .into_iter()
        .flat_map(|set| set.puzzles)
        .find(|p| p.id == id)
        .unwrap_or_else(|| panic!("{id} is not a shipped puzzle"))
}

/// The puzzles a page shows, in its order (`data-puzzle="ID"`).
fn shown_ids(page: &Answer) -> Vec<String> {
    page.body
        .split("data-puzzle=\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap().to_string())
        .collect()
}

/// The verdict a puzzle's page gives.
fn verdict(page: &Answer) -> String {
    let at = page.body.find("class=\"verdict\">").expect("a verdict") + "class=\"verdict\">".len();
    page.body[at..].split('<').next().unwrap().to_string()
}

/// The address of the link on `page` that plays `action` (as the page writes it, `&amp;`
/// read back).
fn link_playing(page: &Answer, action: &str) -> String {
    page.body
        .split("href=\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap().replace("&amp;", "&"))
        .find(|href| href.ends_with(&format!("move={action}")))
        .unwrap_or_else(|| panic!("no link plays {action}: {}", page.body))
}

#[test]
fn a_puzzle_of_the_day_is_solved_by_following_the_page_s_links_and_a_wrong_move_is_refuted() {
    let dir = scratch("web-puzzles");
    let (_server, web) = start(&dir, &[]);
    let daily = get(web, "/puzzles");
    assert_eq!(daily.status, 200, "{daily:?}");
    let ids = shown_ids(&daily);
    let games: Vec<&str> = ids.iter().map(|id| id.split('-').next().unwrap()).collect();
    assert_eq!(games, ["quentin", "konobi", "brique", "quint"], "{ids:?}");
    assert!(
        daily
            .body
            .contains("property=\"og:description\" content=\"Today&#39;s puzzles: ")
    );
    for id in &ids {
        let task = if shipped(id).goal == Goal::Defend {
            "unless you stop it"
        } else {
            " to move: "
        };
        let section = daily
            .body
            .split(&format!("data-puzzle=\"{id}\""))
            .nth(1)
            .unwrap();
        assert!(section.contains(task), "{id}: {section}");
    }

    // A puzzle of several moves, from the first connection game's of the day or the set,
    // played by its links: each right move answered with the solution's reply.
    let puzzle = ids
        .iter()
        .map(|id| shipped(id))
        .find(|p| p.solution.len() >= 3 && p.setup.game.name() != "quint")
        .unwrap_or_else(|| {
            quentin::puzzles::shipped()
                .unwrap()
                .into_iter()
                .flat_map(|set| set.puzzles)
                .find(|p| p.solution.len() >= 3 && p.setup.game.name() == "konobi")
                .unwrap()
        });
    let mut page = get(web, &format!("/puzzles/{}", puzzle.id));
    assert_eq!(verdict(&page), "Your move.");
    let side_moves: Vec<String> = puzzle
        .solution
        .iter()
        .step_by(2)
        .map(ToString::to_string)
        .collect();
    for (j, m) in side_moves.iter().enumerate() {
        page = get(web, &link_playing(&page, m));
        assert_eq!(page.status, 200, "{page:?}");
        if j + 1 < side_moves.len() {
            let reply = puzzle.solution[2 * j + 1];
            assert!(verdict(&page).starts_with("Right. "), "{}", verdict(&page));
            assert!(verdict(&page).contains(&format!("replied {reply}. Your move.")));
        }
    }
    assert!(verdict(&page).starts_with("Solved: "), "{}", verdict(&page));

    // A wrong move: refuted, the solution not given unless asked.
    let position = puzzle.position().unwrap();
    let wrong = position
        .legal_actions()
        .into_iter()
        .find(|&a| a != puzzle.solution[0] && a.point().is_some())
        .unwrap();
    let page = get(web, &format!("/puzzles/{}?move={wrong}", puzzle.id));
    let said = verdict(&page);
    assert!(
        said.starts_with(&format!("Not the move: {wrong} does not ")),
        "{said}"
    );
    let solution: Vec<String> = puzzle.solution.iter().map(ToString::to_string).collect();
    assert!(!said.contains(&solution.join(", ")), "{said}");
    let shown = get(web, &format!("/puzzles/{}?solution", puzzle.id));
    assert_eq!(
        verdict(&shown),
        format!("The solution: {}.", solution.join(", "))
    );

    // A point the rules refuse: their reason, and the move awaited again.
    let taken = puzzle.line[0];
    let page = get(web, &format!("/puzzles/{}?move={taken}", puzzle.id));
    assert_eq!(page.status, 200);
    assert!(
        verdict(&page).starts_with(&format!("{taken} is not legal: ")),
        "{}",
        verdict(&page)
    );
    assert!(page.body.contains("name=\"move\""), "{}", page.body);

    // What is no move, too many moves, no such puzzle.
    let bad = get(web, &format!("/puzzles/{}?move=zz99%1b%5b2J", puzzle.id));
    assert_eq!(bad.status, 400, "{bad:?}");
    assert!(bad.body.contains("is not a move"), "{}", bad.body);
    assert!(!bad.body.contains('\u{1b}'), "{:?}", bad.body);
    let long = format!("/puzzles/{}?done={}", puzzle.id, vec!["a1"; 41].join("+"));
    assert_eq!(get(web, &long).status, 400);
    let missing = get(web, "/puzzles/nope-0001");
    assert_eq!(missing.status, 404);
    assert!(missing.body.contains("no puzzle"), "{}", missing.body);
}

#[test]
fn two_processes_on_one_postgresql_database_show_the_same_puzzles_of_the_day() {
    let Some(db) = crate::serve::pg::Database::new("web_puzzles") else {
        return;
    };
    let dir = scratch("web-puzzles-pg");
    let (_one, first) = start(&dir, &["--database", &db.url]);
    let (_two, second) = start(&dir, &["--database", &db.url]);
    let (a, b) = (get(first, "/puzzles"), get(second, "/puzzles"));
    assert_eq!((a.status, b.status), (200, 200), "{a:?} {b:?}");
    assert_eq!(shown_ids(&a).len(), 4, "{}", a.body);
    assert_eq!(shown_ids(&a), shown_ids(&b));
    let id = &shown_ids(&a)[0];
    let solved = get(second, &format!("/puzzles/{id}?solution"));
    assert!(verdict(&solved).starts_with("The solution: "), "{solved:?}");
}
