//! Records: strict reading with `LINE:COLUMN: message` errors, writing, and the round trip.

use crate::common;

use common::{quentin, random_game};
use proptest::prelude::*;
use quentin::record::{Record, quote};
use quentin::rules::{Action, Game, Setup};

fn error(text: &str) -> String {
    Record::parse(text).unwrap_err().to_string()
}

#[test]
fn the_format_example_reads() {
    let text = "# Quentin, hot-seat, 2026-11-21\ngame quentin\nsize 13\npie on\nc4\nswap\nd5\ne6 f7   g8\n12. h9\n";
    let record = Record::parse(text).unwrap();
    assert_eq!(record.setup(), Setup::new(Game::Quentin));
    let moves: Vec<String> = record.actions().iter().map(ToString::to_string).collect();
    assert_eq!(moves, ["c4", "swap", "d5", "e6", "f7", "g8", "h9"]);
}

#[test]
fn headers_are_optional_and_tokens_case_insensitive() {
    let record = Record::parse("C3 SWAP B2").unwrap();
    assert_eq!(record.setup().size, 13);
    assert!(record.setup().pie);
    assert_eq!(record.actions()[1], Action::Swap);
    assert_eq!(Record::parse("game quentin").unwrap().actions(), []);
    for empty in ["", "\n  \n", "# only a comment\n"] {
        assert_eq!(
            error(empty),
            "1:1: the record is empty: it has no header and no action"
        );
    }
    assert_eq!(Record::parse("\u{feff}size 5\n").unwrap().setup().size, 5);
    assert!(!Record::parse("pie off").unwrap().setup().pie);
}

#[test]
fn writing_puts_headers_first_and_one_action_per_line() {
    let record = Record::parse("size 5 # small\n c3 swap\n b2").unwrap();
    assert_eq!(
        record.to_text(),
        "game quentin\nsize 5\npie on\nc3\nswap\nb2\n"
    );
}

#[test]
fn each_problem_has_its_message() {
    let cases = [
        (
            "colour blue\n",
            "1:1: unknown header \"colour\" (known: game, size, pie, pieces, player1, player2)",
        ),
        ("size 5\nsize 6\n", "2:1: header size is given twice"),
        ("size 5 6\n", "1:8: header size takes exactly one value"),
        ("size\n", "1:1: header size takes exactly one value"),
        (
            "size 2\n",
            "1:6: size 2 is out of range: Quentin is played on sizes 3 to 26",
        ),
        (
            "size 27\nc3\n",
            "1:6: size 27 is out of range: Quentin is played on sizes 3 to 26",
        ),
        (
            "size 1000000000000\n",
            "1:6: size 1000000000000 is out of range: Quentin is played on sizes 3 to 26",
        ),
        (
            "size 99999999999999999999999\n",
            "1:6: size 18446744073709551615 is out of range: Quentin is played on sizes 3 to 26",
        ),
        ("size -3\n", "1:6: size \"-3\" is not a whole number"),
        (
            "game chess\n",
            "1:6: unknown game \"chess\" (known: quentin, konobi, brique, quint)",
        ),
        ("pie maybe\n", "1:5: pie takes on or off, not \"maybe\""),
        (
            "c3\nsize 5\n",
            "2:1: header size comes after the first action",
        ),
        (
            "size 5\nc3 d4 hello\n",
            "2:7: action 3: \"hello\" is not an action (a point such as c4, swap or pass)",
        ),
        (
            "size 5\nc3\n  f1\n",
            "3:3: action 2 (white f1): f1 is off the 5×5 board",
        ),
        ("size 5\nc0\n", "2:1: action 1: \"c0\" is off the 5×5 board"),
        (
            "size 5\nc3 c3\n",
            "2:4: action 2 (white c3) is illegal: c3 is occupied by a black stone",
        ),
        (
            "size 5\nswap\n",
            "2:1: action 1 (black swap) is illegal: swap is allowed only on White's first turn, with the pie rule on",
        ),
        (
            "size 5\npass\n",
            "2:1: action 1 (black pass) is illegal: pass is allowed only when no placement is legal",
        ),
        (
            "size 3\npie off\nb1 a1 b2 a2 b3\nc1\n",
            "4:1: action 6 (c1) comes after the game ended (black won at action 5)",
        ),
    ];
    for (text, message) in cases {
        assert_eq!(error(text), message, "for {text:?}");
    }
}

#[test]
fn the_diagonal_reason_names_both_points() {
    // docs/rules.md: White's b3 is diagonal to c4 with b4 and c3 empty.
    let text = "size 5\npie off\na1 c4 e3\nb3\n";
    assert_eq!(
        error(text),
        "4:1: action 4 (white b3) is illegal: b3 and c4 are diagonal with no shared white neighbour"
    );
}

#[test]
fn control_characters_in_messages_are_escaped() {
    let message = error("size 5\nc3 \u{1b}[2J\u{7}\n");
    assert_eq!(
        message,
        "2:4: action 2: \"\\u{1b}[2J\\u{7}\" is not an action (a point such as c4, swap or pass)"
    );
    assert!(!message.chars().any(char::is_control));
    assert!(
        !error("\u{1b}]0;evil\u{7} x\n")
            .chars()
            .any(char::is_control)
    );
    let long = "x".repeat(10_000);
    assert!(error(&long).len() < 200, "long tokens are cut short");
    assert_eq!(quote("a\tb\r\n"), "\"a\\tb\\r\\n\"");
}

#[test]
fn bytes_that_are_not_utf8_are_refused_with_their_place() {
    let err = Record::parse_bytes(b"size 5\nc3 \xff\xfe").unwrap_err();
    assert_eq!(
        err.to_string(),
        "2:4: the record is not UTF-8 text (byte 0xff)"
    );
    let junk: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
    assert!(Record::parse_bytes(&junk).is_err());
}

#[test]
fn columns_count_characters_not_bytes() {
    assert_eq!(
        error("size 5 # é\nc3 é4\n"),
        "2:4: action 2: \"é4\" is not an action (a point such as c4, swap or pass)"
    );
    assert_eq!(
        error("ééé zz\n"),
        "1:1: action 1: \"ééé\" is not an action (a point such as c4, swap or pass)"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Writing a random game and reading it back gives the same game.
    #[test]
    fn records_round_trip(
        size in 3usize..=13,
        pie in any::<bool>(),
        choices in prop::collection::vec(any::<u32>(), 0..200),
    ) {
        let setup = quentin(size, pie);
        let (positions, actions) = random_game(setup, &choices);
        let record = Record::new(setup, actions.clone()).unwrap();
        prop_assert_eq!(record.actions(), &actions[..]);
        let text = record.to_text();
        let back = Record::parse(&text).unwrap();
        prop_assert_eq!(&back, &record);
        prop_assert_eq!(back.to_text(), text);
        let last = positions.last().unwrap();
        let replayed = back.final_position();
        prop_assert_eq!(replayed.board(), last.board());
        prop_assert_eq!(replayed.to_move(), last.to_move());
    }

    /// The line of a record, built in one pass, holds the positions after each action, and
    /// `position_at` is the line's.
    #[test]
    fn positions_follow_each_action(
        size in 3usize..=9,
        choices in prop::collection::vec(any::<u32>(), 0..80),
    ) {
        let setup = quentin(size, true);
        let (positions, actions) = random_game(setup, &choices);
        let record = Record::new(setup, actions).unwrap();
        let line = record.line();
        prop_assert_eq!(line.shown(), record.actions().len());
        prop_assert_eq!(line.actions(), record.actions());
        let all: Vec<_> = (0..=line.actions().len()).map(|n| line.position_at(n)).collect();
        prop_assert_eq!(all.len(), positions.len());
        for (n, (one_pass, played)) in all.iter().zip(&positions).enumerate() {
            let at = record.position_at(n);
            prop_assert_eq!(at.board(), played.board());
            prop_assert_eq!(one_pass.board(), played.board());
            prop_assert_eq!(one_pass.to_move(), played.to_move());
            prop_assert_eq!(one_pass.ply(), n);
        }
    }

    /// No text makes the reader panic.
    #[test]
    fn any_text_reads_or_fails_cleanly(text in "(size [0-9]{1,3}\n)?([a-e][0-9] |swap |pass |#x\n|[ -~]{0,4} ){0,30}") {
        match Record::parse(&text) {
            Ok(record) => prop_assert_eq!(Record::parse(&record.to_text()).unwrap(), record),
            Err(e) => prop_assert!(e.line >= 1 && e.column >= 1),
        }
    }
}

#[test]
fn player_headers_hold_free_text_and_round_trip() {
    let text = "game quentin\nsize 5\npie on\nplayer1 Ann # the one with the tea\nPLAYER2   computer, 2 s a move  \nc3\n";
    let record = Record::parse(text).unwrap();
    assert_eq!(
        record.players(),
        &[
            Some("Ann # the one with the tea".to_string()),
            Some("computer, 2 s a move".to_string())
        ]
    );
    let written = record.to_text();
    assert_eq!(
        written,
        "game quentin\nsize 5\npie on\nplayer1 Ann # the one with the tea\nplayer2 computer, 2 s a move\nc3\n"
    );
    assert_eq!(Record::parse(&written).unwrap(), record);
    // Either may be absent; a record of only a player header is a record.
    let record = Record::parse("player2 computer, 0.5 s a move\n").unwrap();
    assert_eq!(record.players()[0], None);
    assert!(record.actions().is_empty());
    // Set from a program, checked as if read.
    let record = Record::parse("size 5\nc3\n").unwrap();
    let named = record
        .clone()
        .with_players([None, Some("computer, 2 s a move".into())])
        .unwrap();
    assert!(
        named
            .to_text()
            .contains("\nplayer2 computer, 2 s a move\nc3\n")
    );
    assert!(record.with_players([Some("a\tb".into()), None]).is_err());
}

#[test]
fn player_headers_refuse_what_they_cannot_hold() {
    let long = "x".repeat(101);
    assert!(Record::parse(&format!("player1 {}\n", "x".repeat(100))).is_ok());
    let cases = [
        (
            format!("player1 {long}\n"),
            "1:1: header player1 is 101 characters long; at most 100 are allowed".to_string(),
        ),
        (
            "player2\n".to_string(),
            "1:1: header player2 needs a text: who played".to_string(),
        ),
        (
            "player1 Ann\x1b[2Jnot\n".to_string(),
            "1:12: header player1 holds a control character (\\u{1b})".to_string(),
        ),
        (
            "player1 Ann\nplayer1 Bob\n".to_string(),
            "2:1: header player1 is given twice".to_string(),
        ),
        (
            "c3\nplayer2 Bob\n".to_string(),
            "2:1: header player2 comes after the first action".to_string(),
        ),
    ];
    for (text, message) in cases {
        assert_eq!(error(&text), message, "{text:?}");
    }
}
