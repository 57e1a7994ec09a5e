//! The bitboard rules against the reference (the rules as they were before them, in
//! `reference.rs`), on seeded random games: the same legal actions in the same order, the same
//! steps and captures, the same answer to any action, legal or not, and the same position after.

use super::reference::Reference;
use super::*;

/// A small xorshift generator: the games are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A cell name's point, sometimes off the 8×8 board.
    fn point(&mut self) -> Point {
        let n = if self.below(20) == 0 { 10 } else { SIZE };
        Point::new(self.below(n), self.below(n))
    }
}

/// Everything both say of their position.
fn assert_same(fast: &Quint, slow: &Reference, at: &str) {
    assert_eq!(fast.board(), slow.board(), "{at}: board");
    assert_eq!(fast.in_hand(), slow.in_hand(), "{at}: in hand");
    assert_eq!(fast.to_move(), slow.to_move(), "{at}: to move");
    assert_eq!(fast.ply(), slow.ply(), "{at}: ply");
    assert_eq!(fast.outcome(), slow.outcome(), "{at}: outcome");
    assert_eq!(fast.on_board(), fast.board().count(), "{at}: counts");
    assert_eq!(fast.legal_actions(), slow.legal_actions(), "{at}: actions");
    let mut reused = vec![Action::Pass];
    fast.legal_actions_into(&mut reused);
    assert_eq!(reused[1..], fast.legal_actions(), "{at}: actions into");
    let (mut steps, mut slow_steps) = (Vec::new(), Vec::new());
    fast.steps_into(&mut steps);
    slow.steps_into(&mut slow_steps);
    assert_eq!(steps, slow_steps, "{at}: steps");
    // Each step picked by its index, as listed; none picked when none is listed.
    let picked: Vec<(Point, Point)> = (0..steps.len())
        .filter_map(|k| {
            fast.pick_step(|n| {
                assert_eq!(n, steps.len(), "{at}: steps to pick from");
                k
            })
        })
        .collect();
    assert_eq!(picked, steps, "{at}: picked steps");
    if steps.is_empty() {
        assert_eq!(fast.pick_step(|_| panic!("{at}: nothing to pick")), None);
    }
    for &(_, to) in &steps {
        assert_eq!(
            fast.capturable_from(to),
            slow.capturable_from(to),
            "{at}: captures"
        );
    }
}

/// An action of any shape, mostly near the legal ones: drops, steps of one or two cells, with
/// captures next to the destination or anywhere.
fn any_action(rng: &mut Rng) -> Action {
    match rng.below(10) {
        0 => Action::Pass,
        1 => Action::Swap,
        2 | 3 => Action::Place(rng.point()),
        _ => {
            let from = rng.point();
            let (dc, dr) = ORTHOGONAL[rng.below(4)];
            let far = if rng.below(8) == 0 { 2 } else { 1 };
            let to = from
                .offset((dc * far, dr * far), SIZE)
                .unwrap_or_else(|| rng.point());
            let mut captures = Vec::new();
            for _ in 0..rng.below(3) {
                let near = to.offset(ORTHOGONAL[rng.below(4)], SIZE);
                let p = if rng.below(6) == 0 {
                    Some(rng.point())
                } else {
                    near
                };
                captures.extend(p.filter(|p| !captures.contains(p)));
            }
            Action::Step {
                from,
                to,
                captures: Captures::from_points(captures).unwrap_or_default(),
            }
        }
    }
}

/// What the games went through: captures played, and the games ended by each [`Ending`] (in
/// the order quint, no piece left, no legal action, draw).
#[derive(Default)]
struct Seen {
    captures: usize,
    endings: [usize; 4],
}

impl Seen {
    fn end(&mut self, outcome: Option<&Outcome>) {
        let i = match outcome {
            Some(Outcome::Win { ending, .. }) => match ending {
                Ending::Quint => 0,
                Ending::NoPieceLeft => 1,
                _ => 2,
            },
            Some(Outcome::Draw) => 3,
            None => return,
        };
        self.endings[i] += 1;
    }
}

/// Plays one random game from `fast` and `slow`, checking them against each other at every turn.
fn play_out(mut fast: Quint, mut slow: Reference, rng: &mut Rng, game: usize, seen: &mut Seen) {
    let mut changes = Vec::new();
    for turn in 0..300 {
        let at = format!("game {game} turn {turn}");
        assert_same(&fast, &slow, &at);
        // Anything at all: the same answer, and a refusal changes nothing.
        for _ in 0..4 {
            let action = any_action(rng);
            let preview = fast.preview(action);
            assert_eq!(preview, slow.preview(action), "{at}: {action}");
            if preview.is_err() {
                assert_eq!(fast.clone().play(action), preview.map(|_| ()), "{at}");
            }
        }
        let legal = slow.legal_actions();
        if legal.is_empty() {
            seen.end(slow.outcome());
            return;
        }
        // Steps that capture, when there are some, half the time: they are the rare ones.
        let capturing: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|a| matches!(a, Action::Step { captures, .. } if !captures.is_empty()))
            .collect();
        let action = if !capturing.is_empty() && rng.below(2) == 0 {
            capturing[rng.below(capturing.len())]
        } else {
            legal[rng.below(legal.len())]
        };
        if matches!(action, Action::Step { captures, .. } if !captures.is_empty()) {
            seen.captures += 1;
        }
        let effect = slow.preview(action);
        // One of the reference's legal actions: it plays.
        if let Err(e) = slow.play(action) {
            panic!("{at}: the reference refuses its own legal {action}: {e:?}");
        }
        if let Action::Place(p) = action {
            changes.push(Change {
                point: p,
                before: None,
                after: None,
            });
            // Legal for the reference, and assert_same holds both to the same legal actions.
            if let Err(e) = fast.place(p, &mut changes) {
                panic!("{at}: place {p} refused: {e:?}");
            }
            assert_eq!(Ok(changes.clone()), effect, "{at}: place");
        } else {
            if let Err(e) = fast.play(action) {
                panic!("{at}: {action} refused: {e:?}");
            }
        }
    }
}

#[test]
fn random_games_from_the_start_play_as_the_reference() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut seen = Seen::default();
    for game in 0..120 {
        let pieces = PIECE_OPTIONS[game % 3];
        let (fast, slow) = (Quint::new(pieces), Reference::new(pieces));
        play_out(fast, slow, &mut rng, game, &mut seen);
    }
    assert!(seen.captures > 100, "{} captures", seen.captures);
    assert!(
        seen.endings[0] > 0 && seen.endings[1] > 0,
        "{:?}",
        seen.endings
    );
}

#[test]
fn random_games_from_crowded_boards_play_as_the_reference() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut seen = Seen::default();
    for game in 0..300 {
        // Up to 25 pieces a side anywhere, drops over: steps, captures and lines at once.
        let mut board = Board::new(SIZE);
        for color in Color::ALL {
            for _ in 0..rng.below(26) {
                let p = rng.point();
                if board.contains(p) && board.get(p).is_none() {
                    board.set(p, Some(color));
                }
            }
        }
        let to_move = if rng.below(2) == 0 {
            Color::Black
        } else {
            Color::White
        };
        let hands = if game % 4 == 0 { [1, 1] } else { [0, 0] };
        let to_move = if hands == [1, 1] {
            Color::White
        } else {
            to_move
        };
        let fast = Quint::from_position(board.clone(), hands, to_move);
        let slow = Reference::from_position(board, hands, to_move);
        play_out(fast, slow, &mut rng, game, &mut seen);
    }
    assert!(seen.captures > 100, "{} captures", seen.captures);
    assert!(seen.endings.iter().all(|&n| n > 0), "{:?}", seen.endings);
}
