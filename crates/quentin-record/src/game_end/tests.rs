use super::*;

/// Every ending there is.
fn every() -> Vec<GameEnd> {
    let mut all = Vec::new();
    for by in [Color::Black, Color::White] {
        for how in HOWS {
            all.push(GameEnd::Won { by, how });
        }
    }
    all.extend(DRAWS.map(GameEnd::Drawn));
    all.extend(ABORTS.map(GameEnd::Aborted));
    all
}

#[test]
fn every_ending_reads_back_from_its_words_and_no_two_share_them() {
    let all = every();
    for end in &all {
        let (result, reason) = end.words();
        assert_eq!(GameEnd::from_words(result, reason), Ok(*end), "{end:?}");
    }
    let mut words: Vec<_> = all.iter().map(|e| e.words()).collect();
    words.sort_unstable();
    words.dedup();
    assert_eq!(words.len(), all.len());
}

#[test]
fn the_stored_words_are_those_the_store_has_always_held() {
    // Rows written by earlier versions must still read: these words are on disk.
    let kept = [
        ("black", "connection"),
        ("white", "time"),
        ("black", "resignation"),
        ("white", "forfeit"),
        ("white", "quint"),
        ("black", "no-piece-left"),
        ("white", "no-legal-action"),
        ("draw", "repetition"),
        ("aborted", "by-player"),
        ("aborted", "by-first"),
        ("aborted", "by-second"),
        ("aborted", "no-first-move"),
        ("aborted", "too-short"),
        ("aborted", "by-operator"),
    ];
    for (result, reason) in kept {
        let end = GameEnd::from_words(result, reason).unwrap();
        assert_eq!(end.words(), (result, reason));
    }
}

#[test]
fn unknown_words_are_refused_saying_which() {
    for (result, reason) in [
        ("black", "checkmate"),
        ("purple", "connection"),
        ("aborted", "time"),
        ("draw", "agreement"),
        ("", ""),
    ] {
        let err = GameEnd::from_words(result, reason).unwrap_err();
        assert!(
            err.to_string().contains(&format!("({result}, {reason})")),
            "{err}"
        );
    }
}

#[test]
fn the_bot_protocol_writes_the_score_then_the_reason() {
    let won = GameEnd::Won {
        by: Color::White,
        how: How::Time,
    };
    assert_eq!(won.bot_words(), "W+ time");
    assert_eq!(
        GameEnd::by_rules(Some(Color::Black), Ending::Connection)
            .unwrap()
            .bot_words(),
        "B+ connection"
    );
    assert_eq!(
        GameEnd::by_rules(None, Ending::ThirdRepetition)
            .unwrap()
            .bot_words(),
        "0 repetition"
    );
    assert_eq!(
        GameEnd::Aborted(Aborted::NoFirstMove).bot_words(),
        "aborted no-first-move"
    );
}

#[test]
fn the_rules_endings_that_no_result_holds_are_refused() {
    assert_eq!(
        GameEnd::by_rules(Some(Color::White), Ending::ThirdRepetition),
        Err(ImpossibleEnd {
            winner: Some(Color::White),
            ending: Ending::ThirdRepetition
        })
    );
    for ending in [
        Ending::Connection,
        Ending::Quint,
        Ending::NoPieceLeft,
        Ending::NoLegalAction,
    ] {
        let err = GameEnd::by_rules(None, ending).unwrap_err();
        assert!(err.to_string().starts_with("a draw by "), "{err}");
        assert!(GameEnd::by_rules(Some(Color::Black), ending).is_ok());
    }
}

#[test]
fn a_seat_indexes_a_pair_and_the_other_is_the_other() {
    let pair = ["white", "black"];
    assert_eq!(pair[Seat::First], "white");
    assert_eq!(pair[Seat::Second], "black");
    for seat in Seat::BOTH {
        assert_ne!(seat.other(), seat);
        assert_eq!(seat.other().other(), seat);
        assert_eq!(Seat::from_index(seat.index()), Some(seat));
    }
    assert_eq!(Seat::from_index(2), None);
}
