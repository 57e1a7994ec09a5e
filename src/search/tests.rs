//! Tests of the search on tiny boards, with playout budgets and seeds (never timings).

use std::sync::atomic::AtomicBool;

use super::*;
use crate::rules::{Game, Setup};

fn limits(playouts: u64) -> Limits {
    Limits {
        budget: Budget::Playouts(playouts),
        threads: 1,
        seed: Some(7),
        nodes: 0,
    }
}

#[test]
fn a_search_gives_a_legal_action() {
    for game in Game::ALL {
        let setup = Setup {
            size: if game == Game::Quint { 8 } else { 5 },
            ..Setup::new(game)
        };
        let pos = setup.start().unwrap();
        let report = Searcher::new(limits(300)).search(&pos, &AtomicBool::new(false), |_| {});
        assert!(pos.is_legal(report.best.unwrap()), "{game}");
        assert_eq!(report.playouts, 300);
    }
}
