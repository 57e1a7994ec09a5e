use super::*;
use crate::rng::Rng;
use crate::{MIN_VISITS, MoveReport, Proven, Report};

/// `n` raw figures spread over the whole range, each with an outcome drawn from the chance that
/// `truth` gives it.
fn synthetic(truth: Calibration, n: usize, seed: u64) -> Vec<(f64, f64)> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let raw = 0.02 + 0.96 * rng.unit();
            let p = sigmoid(truth.slope * logit(raw) + truth.offset);
            (raw, if rng.unit() < p { 1.0 } else { 0.0 })
        })
        .collect()
}

#[test]
fn the_fitter_recovers_known_parameters_from_synthetic_data() {
    for (truth, seed) in [
        (
            Calibration {
                slope: 2.5,
                offset: 0.3,
            },
            1,
        ),
        (
            Calibration {
                slope: 0.6,
                offset: -0.4,
            },
            2,
        ),
        (Calibration::IDENTITY, 3),
    ] {
        let fitted = Calibration::fit(&synthetic(truth, 40_000, seed));
        assert!(
            (fitted.slope - truth.slope).abs() < 0.08 * truth.slope,
            "{truth:?} → {fitted:?}"
        );
        assert!(
            (fitted.offset - truth.offset).abs() < 0.06,
            "{truth:?} → {fitted:?}"
        );
    }
}

#[test]
fn the_mapping_is_monotone_and_bounded() {
    let mappings = [
        Calibration::IDENTITY,
        Calibration {
            slope: 3.0,
            offset: -1.0,
        },
        Calibration {
            slope: 0.05,
            offset: 2.0,
        },
    ]
    .into_iter()
    .chain(Game::ALL.map(|g| Calibration::of(Setup::new(g))));
    for c in mappings {
        let mut last = 0.0;
        for i in 0..=1000 {
            let p = c.chance(f64::from(i) / 1000.0);
            assert!(p >= last, "{c:?} at {i}: {p} < {last}");
            assert!((BOUND..=1.0 - BOUND).contains(&p), "{c:?} at {i}: {p}");
            last = p;
        }
        // Strictly increasing where the figures are not at the bounds.
        assert!(c.chance(0.4) < c.chance(0.6), "{c:?}");
    }
}

#[test]
fn the_identity_changes_nothing_inside_the_bounds() {
    for raw in [0.02, 0.3, 0.5, 0.77, 0.98] {
        assert!((Calibration::IDENTITY.chance(raw) - raw).abs() < 1e-12);
    }
    assert_eq!(Calibration::IDENTITY.chance(0.0), BOUND);
    assert_eq!(Calibration::IDENTITY.chance(1.0), 1.0 - BOUND);
}

#[test]
fn a_fit_keeps_even_at_even_only_when_the_data_says_so() {
    // Outcomes that favour the side to move whatever the raw figure: the fitted mapping moves
    // 50 % up; data symmetric about 50 % keeps it there.
    let biased = synthetic(
        Calibration {
            slope: 1.5,
            offset: 0.8,
        },
        20_000,
        4,
    );
    assert!(Calibration::fit(&biased).chance(0.5) > 0.6);
    let symmetric: Vec<(f64, f64)> = synthetic(
        Calibration {
            slope: 1.5,
            offset: 0.0,
        },
        10_000,
        5,
    )
    .into_iter()
    .flat_map(|(raw, y)| [(raw, y), (1.0 - raw, 1.0 - y)])
    .collect();
    assert!((Calibration::fit(&symmetric).chance(0.5) - 0.5).abs() < 1e-6);
}

#[test]
fn data_that_says_nothing_gives_the_identity_or_an_increasing_mapping() {
    assert_eq!(Calibration::fit(&[]), Calibration::IDENTITY);
    // Outcomes that run against the raw figures cannot make the mapping decrease.
    let perverse: Vec<(f64, f64)> = (1..100)
        .map(|i| {
            let raw = f64::from(i) / 100.0;
            (raw, if raw < 0.5 { 1.0 } else { 0.0 })
        })
        .collect();
    let c = Calibration::fit(&perverse);
    assert!(c.slope >= MIN_SLOPE, "{c:?}");
    assert!(c.chance(0.3) < c.chance(0.7), "{c:?}");
    // All raw figures alike: a finite answer.
    let flat = vec![(0.6, 1.0), (0.6, 0.0), (0.6, 1.0)];
    let c = Calibration::fit(&flat);
    assert!(c.slope.is_finite() && c.offset.is_finite(), "{c:?}");
}

/// A root action of `visits` playouts that won `win` of them, proved or not.
fn move_report(
    win: f64,
    visits: u64,
    proven: Option<Proven>,
    calibration: Calibration,
) -> MoveReport {
    MoveReport {
        action: quentin_rules::Action::Swap,
        visits,
        win,
        proven,
        calibration,
        ends_in: proven.map(|_| 3),
        pv: vec![quentin_rules::Action::Swap],
    }
}

#[test]
fn reports_show_the_calibrated_chance_and_keep_the_raw_one() {
    let steep = Calibration {
        slope: 2.0,
        offset: 0.2,
    };
    let m = move_report(0.7, 500, None, steep);
    assert_eq!(m.raw_chance(), Some(0.7));
    assert_eq!(m.chance(), Some(steep.chance(0.7)));
    assert!(m.chance() > m.raw_chance());
    // Too few playouts: neither.
    let m = move_report(0.7, MIN_VISITS - 1, None, steep);
    assert_eq!((m.chance(), m.raw_chance()), (None, None));
    // Proofs are shown as they are, whatever the mapping.
    for (proven, win) in [(Proven::Win, 1.0), (Proven::Loss, 0.0)] {
        let m = move_report(win, 3, Some(proven), steep);
        assert_eq!((m.chance(), m.raw_chance()), (Some(win), Some(win)));
        let report = Report {
            to_move: Some(quentin_rules::Color::Black),
            best: Some(m.action),
            win,
            proven: Some(proven),
            calibration: steep,
            playouts: 3,
            elapsed: std::time::Duration::ZERO,
            moves: vec![m],
        };
        assert_eq!(report.chance(), Some(win));
    }
    let report = Report {
        to_move: Some(quentin_rules::Color::Black),
        best: Some(quentin_rules::Action::Swap),
        win: 0.3,
        proven: None,
        calibration: steep,
        playouts: 500,
        elapsed: std::time::Duration::ZERO,
        moves: vec![move_report(0.3, 500, None, steep)],
    };
    assert_eq!(report.raw_chance(), Some(0.3));
    assert_eq!(report.chance(), Some(steep.chance(0.3)));
}

#[test]
fn a_search_reports_with_its_games_mapping() {
    for game in Game::ALL {
        let setup = Setup {
            size: if game == Game::Quint {
                game.default_size()
            } else {
                5
            },
            ..Setup::new(game)
        };
        let mut searcher = crate::Searcher::new(crate::Limits {
            budget: crate::Budget::Playouts(200),
            threads: 1,
            seed: Some(7),
            nodes: 0,
            ..crate::Limits::default()
        });
        let start = setup.start().unwrap();
        let report = searcher.search(&start, &std::sync::atomic::AtomicBool::new(false), |_| {});
        assert_eq!(report.calibration, Calibration::of(setup), "{game}");
        assert!(
            report
                .moves
                .iter()
                .all(|m| m.calibration == report.calibration),
            "{game}"
        );
        assert_eq!(
            report.chance(),
            report
                .raw_chance()
                .map(|raw| report.calibration.chance(raw)),
            "{game}"
        );
    }
}
