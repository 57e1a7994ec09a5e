//! Quint's drop phase, seen a few drops ahead: the drops that make five at once, and the
//! open threats (an open three, a broken four) that win in three drops whatever the defender
//! drops in between, which the root's expansion proves so that the search plays only the drops
//! that hold.
//!
//! (The rules crate's `quint::threats`, when it lands, tells the immediate wins and the points
//! to block; this module is then to use it.)

use quentin_rules::{Action, Board, Color, Point, Position};

/// The empty cells where a drop of `color` on `board` makes exactly five in a row (a run of
/// six or more does not count). In the drop phase nothing is captured, so such a five runs
/// through the dropped piece.
pub(crate) fn winning_drops(board: &Board, color: Color) -> Vec<Point> {
    board
        .points()
        .filter(|&p| board.is_empty_at(p) && makes_five(board, p, color))
        .collect()
}

/// Whether a piece of `color` on the empty cell `p` would stand in a run of exactly five.
fn makes_five(board: &Board, p: Point, color: Color) -> bool {
    [(1, 0), (0, 1)].into_iter().any(|(dc, dr)| {
        let run = |sign: isize| {
            let mut n = 0;
            let mut q = p;
            while let Some(next) = board.step(q, (sign * dc, sign * dr))
                && board.get(next) == Some(color)
            {
                n += 1;
                q = next;
            }
            n
        };
        1 + run(1) + run(-1) == 5
    })
}

/// Whether, at `pos` in the drop phase with `attacker` to move, one drop of the attacker wins
/// in three drops whatever the defender drops in between: a drop after which the defender,
/// who cannot make five at once, has no reply leaving the attacker without a five to drop.
/// Returns such a drop. Only drops that leave the attacker two winning cells or more are tried
/// (a lone winning cell is blocked).
pub(crate) fn winning_threat(pos: &Position) -> Option<Point> {
    let attacker = pos.to_move()?;
    let defender = attacker.opponent();
    let hand = pos.in_hand()?;
    // The attacker drops twice and the defender once, all before the move phase.
    if hand[attacker.index()] < 2 || hand[defender.index()] < 1 {
        return None;
    }
    if !winning_drops(pos.board(), defender).is_empty() {
        return None;
    }
    let mut board = pos.board().clone();
    let mut after = pos.clone();
    let mut reply = pos.clone();
    pos.board()
        .points()
        .filter(|&q| pos.board().is_empty_at(q))
        .find(|&q| {
            board.clone_from(pos.board());
            board.set(q, Some(attacker));
            if winning_drops(&board, attacker).len() < 2 {
                return false;
            }
            after.clone_from(pos);
            if after.play(Action::Place(q)).is_err() || after.is_over() {
                return false;
            }
            // Every reply of the defender leaves the attacker a five to drop.
            after.legal_actions().into_iter().all(|r| {
                reply.clone_from(&after);
                reply.play(r).is_ok()
                    && !reply.is_over()
                    && reply.in_hand().is_some_and(|h| h[attacker.index()] > 0)
                    && !winning_drops(reply.board(), attacker).is_empty()
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use quentin_rules::{Game, Setup};

    fn at(p: &str) -> Point {
        Point::parse(p).unwrap()
    }

    /// The position: White e5, Black d5, White e4, Black d4, White e6, 15 pieces each;
    /// Black to drop.
    fn open_three() -> Position {
        let mut pos = Setup {
            pieces: 15,
            ..Setup::new(Game::Quint)
        }
        .start()
        .unwrap();
        for p in ["e5", "d5", "e4", "d4", "e6"] {
            pos.play(Action::Place(at(p))).unwrap();
        }
        pos
    }

    #[test]
    fn winning_drops_are_the_drops_that_end_the_game_with_five() {
        // Random drop-phase positions: the cells found are those where a trial drop wins.
        let mut rng = crate::rng::Rng::new(11);
        for _ in 0..40 {
            let mut pos = Setup::new(Game::Quint).start().unwrap();
            while !pos.is_over() && pos.in_hand().is_some_and(|h| h != [0, 0]) {
                let mover = pos.to_move().unwrap();
                let by_trial: Vec<Point> = pos
                    .board()
                    .points()
                    .filter(|&p| {
                        let mut t = pos.clone();
                        t.play(Action::Place(p)).is_ok()
                            && t.outcome().and_then(|o| o.winner()) == Some(mover)
                    })
                    .collect();
                assert_eq!(winning_drops(pos.board(), mover), by_trial);
                let legal = pos.legal_actions();
                pos.play(legal[rng.below(legal.len())]).unwrap();
            }
        }
    }

    #[test]
    fn an_open_three_is_a_winning_threat_unless_blocked_at_its_ends() {
        let pos = open_three();
        // White to drop e3 or e7 would win: after Black's d6, White's threat is found.
        let mut white = pos.clone();
        white.play(Action::Place(at("d6"))).unwrap();
        let q = winning_threat(&white).unwrap();
        assert!([at("e3"), at("e7")].contains(&q), "{q}");
        // Blocked at either end, the three holds no threat.
        for block in ["e3", "e7"] {
            let mut after = pos.clone();
            after.play(Action::Place(at(block))).unwrap();
            assert_eq!(winning_threat(&after), None, "{block}");
        }
    }

    /// The full search's report on `pos`: `playouts` on one thread, seeded.
    fn searched(pos: &Position, playouts: u64, seed: u64) -> crate::Report {
        use crate::{Budget, Level, Limits, Searcher};
        use std::sync::atomic::AtomicBool;
        let limits = Limits {
            budget: Budget::Playouts(playouts),
            threads: 1,
            seed: Some(seed),
            nodes: 0,
            level: Level::FULL,
        };
        Searcher::new(limits).search(pos, &AtomicBool::new(false), |_| {})
    }

    #[test]
    fn the_search_blocks_the_open_three_at_its_ends_every_time() {
        let pos = open_three();
        for playouts in [1_000, 3_000] {
            for seed in 0..5 {
                let report = searched(&pos, playouts, seed);
                let best = report.best.unwrap();
                assert!(
                    [Action::Place(at("e3")), Action::Place(at("e7"))].contains(&best),
                    "{playouts} playouts, seed {seed}: {best}"
                );
            }
        }
    }

    #[test]
    fn the_search_makes_its_own_open_three_a_proved_win() {
        // Black answers White's open three with d6: White to drop wins at e3 or e7.
        let mut pos = open_three();
        pos.play(Action::Place(at("d6"))).unwrap();
        let report = searched(&pos, 200, 1);
        let best = report.best.unwrap();
        assert!(
            [Action::Place(at("e3")), Action::Place(at("e7"))].contains(&best),
            "{best}"
        );
        assert_eq!(report.proven, Some(crate::Proven::Win));
    }
}
