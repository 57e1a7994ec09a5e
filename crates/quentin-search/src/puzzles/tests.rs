//! The generator's puzzles proved again, the symmetries checked against the rules, the themes
//! of the rules' own examples, and the file format's round trip and refusals.

use super::*;
use crate::rng::Rng;
use crate::solver::{SolveLimits, solve};
use quentin_rules::{Board, Color, Game};

/// The position after the actions of `record` (a record's moves, space-separated) in `setup`.
fn replay(setup: Setup, record: &str) -> Position {
    let mut pos = setup.start().unwrap();
    for word in record.split_whitespace() {
        pos.play(Action::parse(word).unwrap()).unwrap();
    }
    pos
}

fn small(game: Game, size: usize, pie: bool) -> Setup {
    Setup {
        size,
        pie,
        ..Setup::new(game)
    }
}

fn spec(setup: Setup, goal: Goal, count: usize, depths: RangeInclusive<usize>) -> PuzzleSpec {
    PuzzleSpec {
        setup,
        goal,
        count,
        seed: 7,
        depths,
        nodes: 200_000,
        max_games: 40,
    }
}

#[test]
fn win_puzzles_have_one_winning_move_at_each_step_and_prove_again() {
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        let spec = spec(small(game, 5, false), Goal::Win, 4, 1..=2);
        let puzzles = generate(&spec, &[], |_| {});
        assert!(!puzzles.is_empty(), "{game}");
        for p in &puzzles {
            let mut pos = p.position().unwrap();
            let side = pos.to_move().unwrap();
            // The puzzle side's moves, each the only one that wins within what is left.
            let mut left = p.depth;
            for (i, &a) in p.solution.iter().enumerate() {
                if i % 2 == 0 {
                    let at = |depth| SolveLimits {
                        depth: Some(depth),
                        ..SolveLimits::default()
                    };
                    let quickest = solve(&pos, &at(left)).depth;
                    assert_eq!(solve(&pos, &at(quickest)).winning, vec![a], "{game} {p:?}");
                    left = quickest - 1;
                }
                pos.play(a).unwrap();
            }
            assert_eq!(pos.winner(), Some(side), "{game} {p:?}");
            assert_eq!(p.themes[0], format!("win{}", p.depth));
            assert!((rating::LOWEST..=rating::HIGHEST).contains(&p.rating));
            check(p).unwrap();
        }
    }
}

#[test]
fn defence_and_swap_puzzles_prove_again_and_a_tampered_one_does_not() {
    let mut tried = 0;
    for game in [Game::Quentin, Game::Konobi, Game::Brique] {
        let defences = generate(
            &spec(small(game, 5, false), Goal::Defend, 3, 1..=2),
            &[],
            |_| {},
        );
        assert!(!defences.is_empty(), "{game}");
        let swaps = generate(
            &spec(small(game, 3, true), Goal::Swap, 9, 1..=4),
            &[],
            |_| {},
        );
        assert!(!swaps.is_empty(), "{game}");
        for p in defences.iter().chain(&swaps) {
            check(p).unwrap();
            assert!(p.themes.contains(&p.goal.name()), "{p:?}");
            // Another legal first move is refused.
            let pos = p.position().unwrap();
            if let Some(other) = pos
                .legal_actions()
                .into_iter()
                .find(|&a| a != p.solution[0])
            {
                let mut wrong = p.clone();
                wrong.solution = vec![other];
                assert!(check(&wrong).is_err(), "{wrong:?}");
                tried += 1;
            }
        }
        for p in &swaps {
            assert_eq!(p.line.len(), 1);
            assert_eq!(p.depth, 0);
        }
    }
    assert!(tried > 6);
}

#[test]
fn a_tampered_win_puzzle_is_refused() {
    let spec = spec(small(Game::Brique, 5, false), Goal::Win, 2, 2..=2);
    let puzzles = generate(&spec, &[], |_| {});
    let p = &puzzles[0];
    let mut theme = p.clone();
    theme.themes = vec!["win3"];
    assert!(check(&theme).unwrap_err().contains("themes"));
    let mut deeper = p.clone();
    deeper.depth = 3;
    assert!(check(&deeper).is_err());
    let mut reply = p.clone();
    // Another reply than the most stubborn one.
    let mut at = p.position().unwrap();
    at.play(p.solution[0]).unwrap();
    if let Some(other) = at.legal_actions().into_iter().find(|&a| a != p.solution[1]) {
        reply.solution[1] = other;
        assert!(check(&reply).is_err());
    }
}

#[test]
fn no_two_puzzles_are_equal_under_symmetry() {
    let spec = spec(small(Game::Quentin, 5, false), Goal::Win, 6, 1..=2);
    let puzzles = generate(&spec, &[], |_| {});
    let keys: std::collections::HashSet<Vec<u8>> = puzzles
        .iter()
        .map(|p| symmetry::key(&p.position().unwrap()))
        .collect();
    assert_eq!(keys.len(), puzzles.len());
    // Knowing them, the same run keeps none of them again.
    let again = generate(&spec, &puzzles, |_| {});
    for p in &again {
        let key = symmetry::key(&p.position().unwrap());
        assert!(!keys.contains(&key), "{p:?}");
    }
}

/// `pos` rebuilt from its board and side to move alone, under `sym` (`None` when the pieces in
/// hand do not fit the side to move after an exchange of colours).
fn image(pos: &Position, sym: symmetry::Symmetry) -> Option<Position> {
    let size = pos.size();
    let mut board = Board::new(size);
    for p in pos.board().points() {
        board.set(sym.point(p, size), pos.get(p).map(|c| sym.color(c)));
    }
    let to_move = sym.color(pos.to_move()?);
    match pos.game() {
        Game::Quint => {
            let [b, w] = pos.in_hand()?;
            let hand = if sym.swaps_colors() { [w, b] } else { [b, w] };
            pos.setup().start_quint_from(&board, hand, to_move).ok()
        }
        _ => pos.setup().start_from(board, to_move).ok(),
    }
}

#[test]
fn the_symmetries_keep_the_rules_and_the_goals() {
    let mut rng = Rng::new(0x5e_44);
    for game in [Game::Quentin, Game::Konobi, Game::Brique, Game::Quint] {
        let sizes: &[usize] = if game == Game::Quint {
            &[8]
        } else {
            &[4, 5, 6]
        };
        let mut compared = 0;
        for &size in sizes {
            for _ in 0..6 {
                let setup = Setup {
                    size,
                    pie: false,
                    pieces: if game == Game::Quint { 15 } else { 0 },
                    ..Setup::new(game)
                };
                let mut pos = setup.start().unwrap();
                while !pos.is_over() && pos.ply() < 60 {
                    let Some(base) = image(&pos, symmetry::Symmetry::IDENTITY) else {
                        break;
                    };
                    for sym in symmetry::symmetries(game) {
                        let Some(img) = image(&pos, sym) else {
                            continue;
                        };
                        assert_eq!(symmetry::key(&base), symmetry::key(&img));
                        let mut mapped: Vec<Action> = base
                            .legal_actions()
                            .into_iter()
                            .map(|a| sym.action(a, size))
                            .collect();
                        let mut theirs = img.legal_actions();
                        mapped.sort();
                        theirs.sort();
                        assert_eq!(mapped, theirs, "{game} {sym:?}\n{pos:?}");
                        for a in base.legal_actions() {
                            let (mut x, mut y) = (base.clone(), img.clone());
                            x.play(a).unwrap();
                            y.play(sym.action(a, size)).unwrap();
                            assert_eq!(x.winner().map(|c| sym.color(c)), y.winner());
                            for p in x.board().points() {
                                let there = y.get(sym.point(p, size));
                                assert_eq!(x.get(p).map(|c| sym.color(c)), there);
                            }
                        }
                        compared += 1;
                    }
                    let legal = pos.legal_actions();
                    pos.play(legal[rng.below(legal.len())]).unwrap();
                }
            }
        }
        assert!(compared > 100, "{game}: {compared}");
    }
    // A transposition of a Quentin position with the colours exchanged is the same puzzle;
    // without the exchange it is not.
    let a = Setup::new(Game::Quentin)
        .start_from(
            Board::from_rows("B....|.....|.....|.....|W....").unwrap(),
            Color::Black,
        )
        .unwrap();
    let b = Setup::new(Game::Quentin)
        .start_from(
            Board::from_rows(".....|.....|.....|.....|B...W").unwrap(),
            Color::White,
        )
        .unwrap();
    let c = Setup::new(Game::Quentin)
        .start_from(
            Board::from_rows(".....|.....|.....|.....|W...B").unwrap(),
            Color::Black,
        )
        .unwrap();
    assert_eq!(symmetry::key(&a), symmetry::key(&b));
    assert_ne!(symmetry::key(&a), symmetry::key(&c));
}

#[test]
fn themes_tell_what_the_key_move_does() {
    let key = |p: &str| Action::parse(p).unwrap();
    // docs/rules.md: Black's e3 fills a territory with black.
    let q = replay(
        small(Game::Quentin, 5, false),
        "e5 c5 a4 c4 b4 e4 b2 a2 c2 d2",
    );
    assert_eq!(
        themes::themes(&q, Goal::Win, 2, key("e3")),
        ["win2", "fill"]
    );
    assert_eq!(themes::themes(&q, Goal::Win, 2, key("a1")), ["win2"]);
    // Brique: c4 completes the escorts of d4 and of c3, removing White's c3.
    let b = replay(small(Game::Brique, 5, false), "d5 c3 e5 d3 a3 d2 b3 a1");
    assert_eq!(
        themes::themes(&b, Goal::Defend, 1, key("c4")),
        ["defend", "threat1", "escort", "removal"]
    );
    // Konobi: b2 joins a1 corner to corner (b1 empty, a2 white).
    let k = replay(small(Game::Konobi, 5, false), "c2 c3 a1 a2");
    assert_eq!(
        themes::themes(&k, Goal::Win, 3, key("b2")),
        ["win3", "weak-link"]
    );
    assert_eq!(themes::themes(&k, Goal::Win, 3, key("d2")), ["win3"]);
    // Quint: a drop, and a step that captures.
    let setup = Setup {
        pieces: 15,
        ..Setup::new(Game::Quint)
    };
    let drops = "d4 e5 f5 d6 d7 c5 a1 a8 c1 c8 e1 e8 g1 g8 b2 b7 d2 f7 f2 h7 h2 a6 a3 g6 c3 b4 \
                 g3 h4 h5 f3";
    let early = replay(setup, "d4");
    assert_eq!(
        themes::themes(&early, Goal::Win, 1, key("e5")),
        ["win1", "drop"]
    );
    let steps = replay(setup, drops);
    assert_eq!(
        themes::themes(&steps, Goal::Win, 1, key("d4-d5xe5")),
        ["win1", "step", "capture"]
    );
    assert_eq!(
        themes::themes(&steps, Goal::Swap, 0, key("g1-g2")),
        ["swap", "step"]
    );
    assert!(THEMES.iter().all(|(t, _)| theme(t) == Some(*t)));
    assert_eq!(theme("fork"), None);
}

/// A small set of Brique 5×5 puzzles of every goal, written out.
fn sample_set() -> PuzzleSet {
    let mut set = PuzzleSet::new(Game::Brique);
    set.commands
        .push("quentin puzzles generate --game brique --size 5 --seed 7".into());
    for (goal, size, pie) in [
        (Goal::Win, 5, false),
        (Goal::Defend, 5, false),
        (Goal::Swap, 3, true),
    ] {
        let spec = spec(small(Game::Brique, size, pie), goal, 2, 1..=2);
        for p in generate(&spec, &set.puzzles, |_| {}) {
            set.add(p);
        }
    }
    set
}

#[test]
fn a_set_reads_back_as_it_was_written() {
    let set = sample_set();
    assert!(set.puzzles.len() >= 4);
    let ids: Vec<&str> = set.puzzles.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids[..2], ["brique-0001", "brique-0002"]);
    let text = set.to_text();
    assert!(
        text.contains("\ncommand quentin puzzles generate --game brique"),
        "{text}"
    );
    assert_eq!(PuzzleSet::parse(&text, "b.txt").unwrap(), set);
}

/// The error of reading `text` as a set.
fn refusal(text: &str) -> String {
    PuzzleSet::parse(text, "puzzles/brique.txt")
        .unwrap_err()
        .to_string()
}

#[test]
fn a_hand_edited_file_is_refused_with_its_line() {
    let text = sample_set().to_text();
    let lines: Vec<&str> = text.lines().collect();
    let first = lines.iter().position(|l| l.contains(';')).unwrap();
    let at = first + 1;
    let edit = |from: &str, to: &str| -> String {
        let mut out = lines.clone();
        let changed = out[first].replacen(from, to, 1);
        out[first] = &changed;
        out.join("\n")
    };
    // An illegal action: a stone on a taken square.
    let p = &sample_set().puzzles[0];
    let taken = p.line[0];
    let solution = p
        .solution
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ");
    let bad = edit(
        &format!("solution {solution}"),
        &format!("solution {taken}"),
    );
    assert!(
        refusal(&bad).starts_with(&format!(
            "puzzles/brique.txt line {at}: in the solution, {taken} is not legal after the setup"
        )),
        "{}",
        refusal(&bad)
    );
    let setup_bad = edit("; setup ", &format!("; setup {taken} "));
    let message = refusal(&setup_bad);
    assert!(
        message.starts_with(&format!(
            "puzzles/brique.txt line {at}: {taken} is not legal after {taken}"
        )),
        "{message}"
    );
    let off = edit("; setup ", "; setup e9 ");
    assert!(
        refusal(&off).contains("e9 is not legal after the empty board"),
        "{}",
        refusal(&off)
    );
    assert!(refusal(&edit("themes win", "themes fork win")).contains("\"fork\" is no theme"));
    assert!(
        refusal(&edit("depth ", "depth 9")).contains("depth \"9"),
        "{}",
        refusal(&edit("depth ", "depth 9"))
    );
    assert!(refusal(&edit("goal win", "goal mate")).contains("\"mate\" is no goal"));
    assert!(refusal(&edit("size 5", "size 2")).contains("out of range"));
    assert!(refusal(&edit("; pie off", "; pieces 20")).contains("no pieces"));
    assert!(refusal(&edit("rating ", "rating 9")).contains("rating"));
    assert!(
        refusal(&edit("; rating", "; colour black; rating")).contains("\"colour\" is no field")
    );
    assert!(
        refusal(&text.replace("game brique", "game chess"))
            .contains("line 2: \"chess\" is no game")
    );
    assert!(
        refusal(&text.replace("game brique", "game quint")).contains("no id of a Quint puzzle")
    );
    assert!(refusal(&text.replace("command ", "comand ")).contains("is no header"));
    let twice = format!("{text}{}\n", lines[first]);
    assert!(
        refusal(&twice).contains("comes twice"),
        "{}",
        refusal(&twice)
    );
}
