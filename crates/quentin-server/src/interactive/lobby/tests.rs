use super::page::crosstable_lines;
use super::*;
use crate::hub::{TournamentGame, TournamentView};
use crate::ids::{Moment, PlayerId};
use crate::tournament::standings::Standing as Line;

#[test]
fn a_puzzle_leader_s_line_says_the_rating_its_deviation_and_the_puzzles() {
    let row = RatingRow {
        rating: 1712.4,
        deviation: 80.2,
        volatility: 0.06,
        games: 40,
    };
    assert_eq!(
        puzzle_leader_line("bob", &row),
        "bob                   1712 RD 80 (40 puzzles)"
    );
    let one = RatingRow { games: 1, ..row };
    assert!(puzzle_leader_line("bob", &one).ends_with("(1 puzzle)"));
}

#[test]
fn the_crosstable_follows_the_standings_once_a_game_is_paired() {
    let standing = |rank: usize, player: PlayerId, halves: u32| Line {
        rank,
        player,
        halves,
        tiebreaks: Vec::new(),
    };
    let mut t = TournamentView {
        id: TournamentId(3),
        settings: Settings::parse(&["roundrobin", "quentin", "clock", "3", "min", "3"]).unwrap(),
        creator: "alice".to_string(),
        status: crate::tournament::Status::Running,
        round: 1,
        rounds: 3,
        entrants: vec!["alice".to_string(), "bob".to_string(), "carol".to_string()],
        standings: vec![
            (standing(1, PlayerId(1), 2), "alice".to_string()),
            (standing(2, PlayerId(3), 0), "carol".to_string()),
            (standing(3, PlayerId(2), 0), "bob".to_string()),
        ],
        games: Vec::new(),
        crosstable: vec![
            vec!["X".to_string(), "1".to_string(), String::new()],
            vec!["0".to_string(), "X".to_string(), "*".to_string()],
            vec![String::new(), "*".to_string(), "X".to_string()],
        ],
        starts: Moment(0),
    };
    // Before any game, no crosstable.
    assert!(crosstable_lines(&t).is_empty());
    t.games.push(TournamentGame {
        round: 1,
        first: "alice".to_string(),
        second: Some("carol".to_string()),
        game: Some(GameId(7)),
        result: None,
    });
    assert_eq!(
        crosstable_lines(&t),
        [
            "crosstable          1 2 3",
            "           alice  1. X 1 .",
            "           carol  2. 0 X *",
            "             bob  3. . * X",
        ]
    );
}
