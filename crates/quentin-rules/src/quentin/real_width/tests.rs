//! The real-width board against the rules of [`Position`], placement by placement, on random
//! games at every size.

use super::*;
use crate::xorshift::Xorshift;
use crate::{Action, Game, Position, Setup};

/// Plays random placements on `pos` and `q` alike until the game ends, trying the empty points
/// in a random order each turn: both must refuse and accept the same ones, fill the same points
/// with the same colours in the same order, and name the same winner. Returns how many
/// placements were refused and how many filled a territory.
fn play_alike<const W: usize, const N: usize>(
    mut pos: Position,
    mut q: QuentinBoard<W, N>,
    rng: &mut Xorshift,
) -> (usize, usize) {
    let (mut refused, mut filled) = (0, 0);
    let mut changes = Vec::new();
    let mut fills = Vec::new();
    let mut passes = 0;
    while !pos.is_over() && passes < 2 {
        assert_eq!(q.to_move(), pos.to_move());
        let mut empty: Vec<Point> = pos
            .board()
            .points()
            .filter(|&p| pos.board().is_empty_at(p))
            .collect();
        let mut placed = false;
        while !empty.is_empty() {
            let p = empty.swap_remove(rng.below(empty.len()));
            let legal = pos.place_if_legal(p, &mut changes);
            assert_eq!(
                q.place(q.bit(p), &mut fills),
                legal,
                "{p} on\n{:?}",
                pos.board()
            );
            if !legal {
                refused += 1;
                continue;
            }
            let want: Vec<(Point, Option<Color>)> =
                changes[1..].iter().map(|c| (c.point, c.after)).collect();
            let got: Vec<(Point, Option<Color>)> = fills
                .iter()
                .filter(|_| changes.len() > 1)
                .map(|&f| {
                    let color = if f & WHITE_FILL != 0 {
                        Color::White
                    } else {
                        Color::Black
                    };
                    (q.point(f & !WHITE_FILL), Some(color))
                })
                .collect();
            assert_eq!(got, want, "{p} on\n{:?}", pos.board());
            filled += usize::from(changes.len() > 1);
            placed = true;
            break;
        }
        if placed {
            passes = 0;
        } else {
            pos.play(Action::Pass).unwrap();
            q.pass();
            passes += 1;
        }
        let stones = q.stones();
        for p in pos.board().points() {
            for color in Color::ALL {
                assert_eq!(
                    stones.holds(p.index(), color),
                    pos.get(p) == Some(color),
                    "{p}"
                );
            }
        }
        // A row at a time, column `c` as bit `c` and nothing past the last column.
        let size = pos.board().size();
        for row in 0..size {
            for color in Color::ALL {
                let want = (0..size)
                    .filter(|&col| pos.get(Point::new(col, row)) == Some(color))
                    .fold(0u64, |bits, col| bits | 1 << col);
                assert_eq!(stones.row(row, color), want, "row {row} of {size}");
            }
        }
        assert_eq!(q.winner(), pos.winner(), "on\n{:?}", pos.board());
    }
    (refused, filled)
}

fn play_alike_any(pos: Position, rng: &mut Xorshift) -> (usize, usize) {
    match QuentinBoards::of(&pos).expect("a Quentin position with no swap offered") {
        QuentinBoards::Two(q) => play_alike(pos, q, rng),
        QuentinBoards::Three(q) => play_alike(pos, q, rng),
        QuentinBoards::Four(q) => play_alike(pos, q, rng),
        QuentinBoards::Six(q) => play_alike(pos, q, rng),
        QuentinBoards::Eleven(q) => play_alike(pos, q, rng),
    }
}

#[test]
fn placements_fills_and_wins_match_the_rules_at_every_size() {
    let mut rng = Xorshift(0x9e37_79b9_7f4a_7c15);
    for size in 3..=26 {
        let setup = Setup {
            size,
            pie: false,
            ..Setup::new(Game::Quentin)
        };
        let games = if size <= 13 { 30 } else { 6 };
        let (mut refused, mut filled) = (0, 0);
        for _ in 0..games {
            let (r, f) = play_alike_any(setup.start().unwrap(), &mut rng);
            refused += r;
            filled += f;
        }
        // The games went through both kinds of turn that differ from a lone placement.
        assert!(
            refused > 0 && filled > 0,
            "size {size}: {refused} refused, {filled} filled"
        );
    }
}

/// From a position reached by the rules (mid-game, swap taken or not), the board built from it
/// goes on as the rules do.
#[test]
fn a_board_built_mid_game_goes_on_as_the_rules_do() {
    let mut rng = Xorshift(77);
    for size in [5, 9, 13, 19] {
        for _ in 0..10 {
            let mut pos = Setup {
                size,
                ..Setup::new(Game::Quentin)
            }
            .start()
            .unwrap();
            // Swap is offered on White's first turn, which is still to come.
            assert!(QuentinBoards::of(&pos).is_none());
            let moves = rng.below(size * size / 2);
            for _ in 0..moves {
                let actions = pos.legal_actions();
                if pos.is_over() || actions.is_empty() {
                    break;
                }
                pos.play(actions[rng.below(actions.len())]).unwrap();
                if pos.ply() < 2 {
                    assert!(QuentinBoards::of(&pos).is_none(), "swap is offered");
                }
            }
            if pos.is_over() {
                assert!(QuentinBoards::of(&pos).is_none(), "the game is over");
                continue;
            }
            if pos.swap_available() {
                pos.play(Action::Swap).unwrap();
            }
            while pos.ply() < 2 && !pos.is_over() {
                let actions = pos.legal_actions();
                pos.play(actions[rng.below(actions.len())]).unwrap();
            }
            if !pos.is_over() {
                play_alike_any(pos, &mut rng);
            }
        }
    }
}

/// The table of neighbourhoods against the rules' own steps: for every content of the eight
/// points around a point, the orthogonal neighbours held, in the order of [`crate::ORTHOGONAL`],
/// and whether some diagonal neighbour held shares no held orthogonal neighbour with the point.
#[test]
fn the_neighbourhood_table_reads_the_points_around_as_the_rules_step() {
    // The index bit of the point at `(dc, dr)` from the centre: rows from below, west to east.
    let bit = |(dc, dr): (isize, isize)| ((dr + 1) * 3 + dc + 1) as usize;
    for (i, &around) in AROUND.iter().enumerate() {
        let held = |d: (isize, isize)| i >> bit(d) & 1 != 0;
        let orthogonal = crate::ORTHOGONAL
            .iter()
            .enumerate()
            .fold(0, |acc, (n, &d)| acc | u8::from(held(d)) << n);
        let alone = crate::DIAGONAL
            .iter()
            .any(|&(dc, dr)| held((dc, dr)) && !held((dc, 0)) && !held((0, dr)));
        assert_eq!(around & ORTHOGONAL, orthogonal, "neighbourhood {i:09b}");
        assert_eq!(around & ALONE != 0, alone, "neighbourhood {i:09b}");
    }
}
