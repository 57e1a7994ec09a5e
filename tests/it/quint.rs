//! Quint end to end: random games checked against a second, deliberately naive implementation
//! of docs/rules.md written here from the text alone (full history, no shortcuts), record and JSON
//! round trips, and `quentin replay` on Quint records.

use proptest::prelude::*;
use quentin::position_view;
use quentin::record::Record;
use quentin::rules::{Action, Color, Game, Position, Setup};
use serde_json::Value;

use crate::scratch;

use scratch::{ScratchFile, scratch_file};

/// A plain reading of docs/rules.md's Quint: cells `[row][col]` hold 0 (empty), 1 (white) or
/// 2 (black); sides are 0 (white) and 1 (black).
// Written as plainly as the rules read: index loops, and one branch per check of docs/rules.md even
// where two branches give the same result.
#[allow(clippy::needless_range_loop, clippy::if_same_then_else)]
mod naive {
    type Cells = [[u8; 8]; 8];

    #[derive(Clone, Debug, PartialEq)]
    enum Move {
        Drop(usize, usize),
        Step((usize, usize), (usize, usize), Vec<(usize, usize)>),
    }

    /// The game: `result` is `Some(None)` for a draw, `Some(Some(side))` for a win.
    #[derive(Clone, Debug)]
    pub struct Game {
        cells: Cells,
        pub hand: [usize; 2],
        pub turn: usize,
        history: Vec<(Cells, [usize; 2], usize)>,
        pub result: Option<Option<usize>>,
    }

    fn name((c, r): (usize, usize)) -> String {
        format!("{}{}", (b'a' + c as u8) as char, r + 1)
    }

    fn at(cells: &Cells, c: isize, r: isize) -> Option<u8> {
        ((0..8).contains(&c) && (0..8).contains(&r)).then(|| cells[r as usize][c as usize])
    }

    fn has_five(cells: &Cells, piece: u8) -> bool {
        let mut lines: Vec<Vec<u8>> = Vec::new();
        for i in 0..8 {
            lines.push((0..8).map(|j| cells[i][j]).collect());
            lines.push((0..8).map(|j| cells[j][i]).collect());
        }
        lines.iter().any(|line| {
            let mut run = 0;
            let mut found = false;
            for k in 0..=8 {
                if k < 8 && line[k] == piece {
                    run += 1;
                } else {
                    found |= run == 5;
                    run = 0;
                }
            }
            found
        })
    }

    impl Game {
        pub fn new(pieces: usize) -> Game {
            let cells = [[0; 8]; 8];
            Game {
                cells,
                hand: [pieces; 2],
                turn: 0,
                history: vec![(cells, [pieces; 2], 0)],
                result: None,
            }
        }

        fn moves(&self, side: usize) -> Vec<Move> {
            let mut out = Vec::new();
            let me = side as u8 + 1;
            let enemy = 2 - side as u8;
            for r in 0..8 {
                for c in 0..8 {
                    if self.hand[side] > 0 {
                        if self.cells[r][c] == 0 {
                            out.push(Move::Drop(c, r));
                        }
                        continue;
                    }
                    if self.cells[r][c] != me {
                        continue;
                    }
                    for (dc, dr) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                        let (tc, tr) = (c as isize + dc, r as isize + dr);
                        if at(&self.cells, tc, tr) != Some(0) {
                            continue;
                        }
                        let mut after = self.cells;
                        after[r][c] = 0;
                        after[tr as usize][tc as usize] = me;
                        let mut can: Vec<(usize, usize)> = Vec::new();
                        for (ec, er) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                            if at(&after, tc + ec, tr + er) == Some(enemy)
                                && at(&after, tc + 2 * ec, tr + 2 * er) == Some(me)
                            {
                                can.push(((tc + ec) as usize, (tr + er) as usize));
                            }
                        }
                        for mask in 0..1 << can.len() {
                            let mut taken: Vec<(usize, usize)> = (0..can.len())
                                .filter(|i| mask & (1 << i) != 0)
                                .map(|i| can[i])
                                .collect();
                            taken.sort();
                            out.push(Move::Step((c, r), (tc as usize, tr as usize), taken));
                        }
                    }
                }
            }
            out
        }

        fn token(m: &Move) -> String {
            match m {
                Move::Drop(c, r) => name((*c, *r)),
                Move::Step(from, to, taken) => {
                    let mut s = format!("{}-{}", name(*from), name(*to));
                    for &t in taken {
                        s.push('x');
                        s.push_str(&name(t));
                    }
                    s
                }
            }
        }

        /// Every legal action in record notation, sorted.
        pub fn legal(&self) -> Vec<String> {
            if self.result.is_some() {
                return Vec::new();
            }
            let mut all: Vec<String> = self.moves(self.turn).iter().map(Game::token).collect();
            all.sort();
            all
        }

        /// Plays the legal action written `token`.
        pub fn play(&mut self, token: &str) {
            let m = self
                .moves(self.turn)
                .into_iter()
                .find(|m| Game::token(m) == token)
                .unwrap_or_else(|| panic!("the naive game finds {token} illegal"));
            let me = self.turn as u8 + 1;
            match m {
                Move::Drop(c, r) => {
                    self.cells[r][c] = me;
                    self.hand[self.turn] -= 1;
                }
                Move::Step((fc, fr), (tc, tr), taken) => {
                    self.cells[fr][fc] = 0;
                    self.cells[tr][tc] = me;
                    for (c, r) in taken {
                        self.cells[r][c] = 0;
                    }
                }
            }
            let mover = self.turn;
            let other = 1 - mover;
            self.turn = other;
            self.history.push((self.cells, self.hand, self.turn));
            let pieces_of = |side: usize| {
                self.cells
                    .iter()
                    .flatten()
                    .filter(|&&x| x == side as u8 + 1)
                    .count()
            };
            self.result = if has_five(&self.cells, mover as u8 + 1) {
                Some(Some(mover))
            } else if has_five(&self.cells, other as u8 + 1) {
                Some(Some(other))
            } else if self.hand == [0, 0] && pieces_of(other) == 0 {
                Some(Some(mover))
            } else if self.moves(other).is_empty() {
                Some(Some(mover))
            } else if self
                .history
                .iter()
                .filter(|h| **h == (self.cells, self.hand, self.turn))
                .count()
                >= 3
            {
                Some(None)
            } else {
                None
            };
        }

        /// The board as the JSON shows it: top row first.
        pub fn rows(&self) -> Vec<String> {
            (0..8)
                .rev()
                .map(|r| {
                    self.cells[r]
                        .iter()
                        .map(|&x| ['.', 'W', 'B'][x as usize])
                        .collect()
                })
                .collect()
        }
    }
}

fn quint(pieces: usize) -> Setup {
    Setup {
        pieces,
        ..Setup::new(Game::Quint)
    }
}

fn sorted_legal(pos: &Position) -> Vec<String> {
    let mut all: Vec<String> = pos
        .legal_actions()
        .iter()
        .map(ToString::to_string)
        .collect();
    all.sort();
    all
}

/// The colour name of a naive side.
fn side_name(side: usize) -> &'static str {
    ["white", "black"][side]
}

/// Plays a random game of at most `choices.len()` actions, checking the library against the
/// naive reading at every step; returns the actions. One choice in eight undoes the mover's last
/// step when it can, so that repetitions come up, and three in eight take the most pieces, so
/// that sides run out of pieces.
fn random_game(pieces: usize, choices: &[u32]) -> (Position, Vec<Action>) {
    let setup = quint(pieces);
    let mut pos = setup.start().unwrap();
    let mut naive = naive::Game::new(pieces);
    let mut actions: Vec<Action> = Vec::new();
    for &choice in choices {
        let legal = sorted_legal(&pos);
        assert!(pos.legal_actions().into_iter().all(|a| pos.is_legal(a)));
        assert_eq!(
            legal,
            naive.legal(),
            "legal actions after {}",
            actions.len()
        );
        if legal.is_empty() {
            break;
        }
        let undo = match actions.len().checked_sub(2).map(|i| actions[i]) {
            Some(Action::Step { from, to, captures }) if captures.is_empty() => {
                Some(format!("{to}-{from}")).filter(|t| legal.contains(t))
            }
            _ => None,
        };
        let greediest = legal.iter().max_by_key(|t| t.matches('x').count());
        let token = match (undo, greediest) {
            (Some(t), _) if choice % 8 == 0 => t,
            (_, Some(t)) if choice % 8 < 4 => t.clone(),
            _ => legal[choice as usize % legal.len()].clone(),
        };
        let action = Action::parse(&token).unwrap();
        pos.play(action).unwrap();
        naive.play(&token);
        actions.push(action);
        assert_eq!(pos.board().rows(), naive.rows());
        assert_eq!(
            pos.to_move().map(Color::name),
            naive.result.is_none().then(|| side_name(naive.turn))
        );
        let winner = pos.outcome().map(|o| o.winner().map(Color::name));
        assert_eq!(
            winner,
            naive.result.map(|r| r.map(side_name)),
            "after {token}"
        );
        let hand = pos.in_hand().unwrap();
        assert_eq!(
            [hand[Color::White.index()], hand[Color::Black.index()]],
            naive.hand
        );
        let on_board = pos.board().count();
        for c in Color::ALL {
            assert!(on_board[c.index()] + hand[c.index()] <= pieces);
        }
    }
    (pos, actions)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_games_follow_the_rules_and_round_trip(
        pieces in prop::sample::select(vec![15usize, 20, 25]),
        choices in prop::collection::vec(any::<u32>(), 1..400),
    ) {
        let (pos, actions) = random_game(pieces, &choices);
        // Every listed action plays.
        for action in pos.legal_actions() {
            let mut next = pos.clone();
            prop_assert!(next.play(action).is_ok(), "{action}");
            prop_assert_eq!(Action::parse(&action.to_string()), Ok(action));
        }
        // A finished game lists nothing and names at most one winner.
        if let Some(outcome) = pos.outcome() {
            prop_assert!(pos.legal_actions().is_empty());
            prop_assert_eq!(pos.to_move(), None);
            if let Some(winner) = outcome.winner() {
                prop_assert!(outcome.line().iter().all(|p| pos.get(p) == Some(winner)));
            }
        }
        let record = Record::new(quint(pieces), actions.clone()).unwrap();
        let text = record.to_text();
        let back = Record::parse(&text).unwrap();
        prop_assert_eq!(&back, &record);
        prop_assert_eq!(back.to_text(), text);
        let json = position_view::json(&pos, &actions);
        prop_assert_eq!(position_view::json(&back.final_position(), back.actions()), json.clone());
        prop_assert_eq!(json["game"].as_str(), Some("quint"));
        prop_assert_eq!(json["size"].as_u64(), Some(8));
        prop_assert_eq!(json["pie"].as_bool(), Some(false));
    }
}

#[test]
fn many_random_games_end_in_every_way() {
    // A fixed pseudo-random sequence: wins, losses without moves or pieces, and draws all come up.
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 32) as u32
    };
    let mut draws = 0;
    let mut empty_line_wins = 0;
    let mut fives = 0;
    for game in 0..300 {
        let choices: Vec<u32> = (0..600).map(|_| next()).collect();
        let (pos, _) = random_game([15, 20, 25][game % 3], &choices);
        match pos.outcome() {
            Some(o) if o.winner().is_none() => draws += 1,
            Some(o) if o.line().is_empty() => empty_line_wins += 1,
            Some(_) => fives += 1,
            None => {}
        }
    }
    assert!(
        draws > 0 && fives > 0 && empty_line_wins > 0,
        "draws {draws}, fives {fives}, other wins {empty_line_wins}"
    );
}

/// A record file named `quint-NAME.txt` in a temporary directory of its own.
fn record_file(name: &str, text: &str) -> ScratchFile {
    scratch_file(&format!("quint-{name}.txt"), text)
}

fn replay(args: &[&str]) -> (i32, String, String) {
    let out = crate::isolated::quentin()
        .arg("replay")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn replay_json_of_a_quint_record() {
    let path = record_file("json", "# Quint\ngame quint\npieces 15\nc4 d4\n3. C5\n");
    let (code, out, err) = replay(&[path.to_str().unwrap(), "--json"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let json: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["game"], "quint");
    assert_eq!(json["size"], 8);
    assert_eq!(json["pie"], false);
    assert_eq!(json["ply"], 3);
    assert_eq!(json["moves"], serde_json::json!(["c4", "d4", "c5"]));
    assert_eq!(json["to_move"], "black");
    assert_eq!(json["winner"], Value::Null);
    assert_eq!(
        json["in_hand"],
        serde_json::json!({"white": 13, "black": 14})
    );
    assert_eq!(json["board"][3], "..W.....");
    assert_eq!(json["board"][4], "..WB....");
    assert_eq!(json["legal"].as_array().unwrap().len(), 61);

    let (code, out, _) = replay(&[path.to_str().unwrap(), "--json", "--at", "0"]);
    assert_eq!(code, 0);
    let json: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["to_move"], "white");
    assert_eq!(
        json["in_hand"],
        serde_json::json!({"white": 15, "black": 15})
    );
    std::fs::remove_file(path).unwrap();
}

/// A game of 15 pieces each whose drops fill rows 1 to 4 in a checkered pattern (White on a1,
/// g4 and h4 left empty), so that no five forms, then `moves`.
fn after_drops(moves: &str) -> String {
    let mut text = String::from("game quint\npieces 15\n");
    let cells = (0..4).flat_map(|row| (0..8).map(move |col| (col, row)));
    let name = |(col, row): (u8, u8)| format!("{}{}", (b'a' + col) as char, row + 1);
    let (white, black): (Vec<_>, Vec<_>) = cells.take(30).partition(|(c, r)| (c + r) % 2 == 0);
    for (w, b) in white.into_iter().zip(black) {
        text.push_str(&format!("{} {}\n", name(w), name(b)));
    }
    text.push_str(moves);
    text
}

#[test]
fn replay_json_of_a_step_with_a_capture() {
    // White arrives on e5 above the black e4, with the white e3 beyond: e4 may be taken.
    let path = record_file("capture", &after_drops("f4-f5 h3-h4 f5-e5xe4\n"));
    let (code, out, err) = replay(&[path.to_str().unwrap(), "--json"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let json: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["ply"], 33);
    assert_eq!(json["moves"][32], "f5-e5xe4");
    assert_eq!(json["to_move"], "black");
    assert_eq!(json["winner"], Value::Null);
    assert_eq!(json["in_hand"], serde_json::json!({"white": 0, "black": 0}));
    assert_eq!(json["board"][3], "....W...");
    assert_eq!(json["board"][4], "BWBW...B");
    assert_eq!(json["board"][5], "WBWBWBW.");
    let legal: Vec<&str> = json["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(
        legal.iter().all(|a| a.contains('-')),
        "no drops in the move phase"
    );
    assert!(legal.contains(&"h4-g4"));
    std::fs::remove_file(path).unwrap();
}

#[test]
fn replay_json_of_a_draw_by_repetition() {
    let round = "f4-f5 e4-e5 f5-f4 e5-e4\n";
    let path = record_file("draw", &after_drops(&round.repeat(2)));
    let (code, out, err) = replay(&[path.to_str().unwrap(), "--json"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let json: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["winner"], "draw");
    assert_eq!(json["to_move"], Value::Null);
    assert_eq!(json["legal"], serde_json::json!([]));
    let (code, out, _) = replay(&[path.to_str().unwrap(), "--print"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("Quint 8×8, 15 pieces each, after 38 actions"),
        "{out}"
    );
    assert!(out.contains("In hand: White 0, Black 0\n"), "{out}");
    assert!(
        out.contains("The game is drawn by the third repetition of a position."),
        "{out}"
    );
    // One action earlier, the game goes on.
    let (_, out, _) = replay(&[path.to_str().unwrap(), "--json", "--at", "37"]);
    let json: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(json["winner"], Value::Null);
    assert_eq!(json["to_move"], "black");
    std::fs::remove_file(path).unwrap();

    let path = record_file("after-draw", &after_drops(&round.repeat(3)));
    let (code, _, err) = replay(&[path.to_str().unwrap(), "--json"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("action 39 (f4-f5) comes after the game ended (drawn at action 38)"),
        "{err}"
    );
    std::fs::remove_file(path).unwrap();
}

#[test]
fn replay_reports_quint_record_errors_with_place_and_reason() {
    let cases = [
        (
            "game quint\npie on\nc4\n",
            ":2:1: header pie is not for quint: it has no pie rule",
        ),
        (
            "game quint\nsize 9\n",
            ":2:6: size 9 is out of range: Quint is played on size 8 only",
        ),
        ("pieces 20\nc4\n", ":1:8: header pieces is not for quentin"),
        (
            "game quint\npieces 30\n",
            ":2:8: 30 pieces is not an option: Quint is played with 15, 20, 25 pieces",
        ),
        (
            "game quint\nc4 c4-c5\n",
            ":2:4: action 2 (black c4-c5) is illegal: black still has 20 pieces to drop",
        ),
        (
            "game quint\nc4 c4\n",
            ":2:4: action 2 (black c4) is illegal: c4 is not empty",
        ),
        (
            "game quint\nc4 i4\n",
            ":2:4: action 2 (black i4): i4 is off the 8×8 board",
        ),
        (
            "game quint\nc4 d4-d5xe5xe5\n",
            ":2:4: action 2: \"d4-d5xe5xe5\" is not an action: it captures e5 twice",
        ),
        (
            "game quentin\nc4 d4-d5\n",
            ":2:4: action 2 (white d4-d5) is illegal: stones never move in this game",
        ),
    ];
    for (i, (text, expected)) in cases.iter().enumerate() {
        let path = record_file(&format!("error{i}"), text);
        let (code, out, err) = replay(&[path.to_str().unwrap(), "--json"]);
        assert_eq!(code, 1, "{text}");
        assert_eq!(out, "");
        assert_eq!(
            err.trim_end(),
            format!("{}{expected}", path.display()),
            "{text}"
        );
    }
}

#[test]
fn quint_records_write_game_and_pieces_only() {
    let record = Record::new(quint(25), vec![Action::parse("c4").unwrap()]).unwrap();
    assert_eq!(record.to_text(), "game quint\npieces 25\nc4\n");
    let with_size = Record::parse("game quint\nsize 8\npieces 25\nc4\n").unwrap();
    assert_eq!(with_size, record);
    let default = Record::parse("game quint\n").unwrap();
    assert_eq!(default.setup().pieces, 20);
    assert_eq!(default.to_text(), "game quint\npieces 20\n");
}
