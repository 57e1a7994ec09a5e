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

#[test]
fn a_bank_fills_by_its_increment_up_to_its_start() {
    let bank = Spec::parse(&["quentin", "bank", "240+36"]).unwrap().clock;
    assert_eq!(
        bank,
        TimeControl::Bank {
            hours: 240,
            increment: 36
        }
    );
    assert_eq!(TimeControl::from_stored(&bank.stored()), Some(bank));
    assert_eq!(bank.words(), "bank 240+36");
    assert_eq!(bank.to_string(), "bank 10d +1d 12h");
    assert!(bank.correspondence());
    let hour = 3_600_000;
    assert_eq!(bank.start_ms(), 240 * hour);
    // 210 hours left and 36 more: capped at 240.
    assert_eq!(bank.after_move_ms(210 * hour), 240 * hour);
    assert_eq!(bank.after_move_ms(100 * hour), 136 * hour);
    assert_eq!(bank.first_move_ms(), 24 * hour);
    assert_eq!(days_and_hours(228), "9d 12h");
    assert_eq!(days_and_hours(12), "12h");
}

#[test]
fn a_bank_out_of_range_says_the_range() {
    for (text, why) in [
        ("0+0", "from 1 to 2000 hours"),
        ("2001+1", "from 1 to 2000 hours"),
        ("24+25", "an increment from 0 to 24 hours"),
        ("240", "HOURS+INCREMENT"),
    ] {
        let error = Spec::parse(&["quentin", "bank", text]).unwrap_err();
        assert!(error.contains(why), "{text}: {error}");
    }
}
