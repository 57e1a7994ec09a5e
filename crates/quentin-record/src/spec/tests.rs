use super::*;

#[test]
fn the_bot_protocols_words_make_a_spec() {
    let spec = Spec::parse(&[
        "quentin", "size", "5", "pie", "off", "first", "me", "clock", "3+2", "casual", "to", "bob",
    ])
    .unwrap();
    assert_eq!(spec.setup.size, 5);
    assert!(!spec.setup.pie);
    assert_eq!(spec.first, First::Me);
    assert_eq!(
        spec.clock,
        TimeControl::Live {
            minutes: 3,
            increment: 2
        }
    );
    assert!(!spec.rated);
    assert_eq!(spec.to.as_deref(), Some("bob"));
    assert_eq!(spec.summary(), "quentin 5x5 pie off, 3+2, casual");
    let quint = Spec::parse(&["quint", "pieces", "15", "days", "3"]).unwrap();
    assert_eq!(quint.summary(), "quint 15 pieces, 3 days a move, rated");
}

#[test]
fn bad_words_say_why() {
    for (words, why) in [
        (&["chess"][..], "unknown game chess"),
        (&["quentin", "size", "99"], "size"),
        (&["quentin", "clock", "10"], "MINUTES+INCREMENT"),
        (&["quentin", "days", "0"], "from 1 to 30"),
        (&["quentin", "size"], "size needs a value"),
        (&["quentin", "\x1b[2J"], "unknown word \\u{1b}[2J"),
    ] {
        let error = Spec::parse(words).unwrap_err();
        assert!(error.contains(why), "{words:?}: {error}");
    }
}

#[test]
fn clocks_round_trip_through_the_store() {
    for clock in [TimeControl::Days(3), DEFAULT_CLOCK] {
        assert_eq!(TimeControl::from_stored(&clock.stored()), Some(clock));
    }
    let live = DEFAULT_CLOCK;
    assert_eq!(live.after_move_ms(1000), 6000);
    assert_eq!(TimeControl::Days(2).after_move_ms(5), 2 * 86_400_000);
}
