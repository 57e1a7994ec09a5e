use super::*;

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
