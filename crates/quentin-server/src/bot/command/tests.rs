use quentin_app::puzzle_modes::Difficulty;
use quentin_rules::{Action, Game};

use super::{BotCommand, GATES, Gate, ParseError, PuzzleWay, TakebackReply};
use crate::ids::{ChallengeId, GameId};
use crate::moderation::Order;
use crate::spec::Spec;
use crate::tournament::{Settings, TournamentId};

fn parsed(line: &str) -> BotCommand {
    match BotCommand::parse(line) {
        Ok(command) => command,
        Err(e) => panic!("{line:?} does not parse: {e:?}"),
    }
}

/// The refusal of a line, and who may hear it.
fn refused(line: &str) -> (String, Gate) {
    match BotCommand::parse(line) {
        Ok(command) => panic!("{line:?} parses: {command:?}"),
        Err(ParseError { why, gate }) => (why, gate),
    }
}

fn action(word: &str) -> Action {
    Action::parse(word).unwrap()
}

#[test]
fn every_command_word_parses_to_its_variant() {
    let t = TournamentId;
    let cases: Vec<(&str, BotCommand)> = vec![
        ("quit", BotCommand::Quit),
        ("register ann", BotCommand::Register("ann".to_string())),
        ("whoami", BotCommand::Whoami),
        ("motd", BotCommand::Motd),
        (
            "ban bob until 2030-01-02 spam",
            BotCommand::Order(
                Order::parse(&["ban", "bob", "until", "2030-01-02", "spam"]).unwrap(),
            ),
        ),
        (
            "unban bob",
            BotCommand::Order(Order::Unban("bob".to_string())),
        ),
        (
            "rename bob",
            BotCommand::Order(Order::Rename("bob".to_string())),
        ),
        ("close 4", BotCommand::Order(Order::Close(ChallengeId(4)))),
        (
            "reset bob",
            BotCommand::Order(Order::Reset("bob".to_string())),
        ),
        (
            "mark bob",
            BotCommand::Order(Order::Mark("bob".to_string())),
        ),
        (
            "unmark bob",
            BotCommand::Order(Order::Unmark("bob".to_string())),
        ),
        ("players", BotCommand::Order(Order::Players(None))),
        (
            "players bob",
            BotCommand::Order(Order::Players(Some("bob".to_string()))),
        ),
        ("log", BotCommand::Order(Order::Log)),
        (
            "challenge quentin size 5",
            BotCommand::Challenge(Spec::parse(&["quentin", "size", "5"]).unwrap()),
        ),
        (
            "challenges",
            BotCommand::Challenges {
                game: None,
                after: ChallengeId(0),
            },
        ),
        (
            "challenges konobi after 12",
            BotCommand::Challenges {
                game: Some(Game::Konobi),
                after: ChallengeId(12),
            },
        ),
        ("accept 3", BotCommand::Accept(ChallengeId(3))),
        ("withdraw 3", BotCommand::Withdraw(ChallengeId(3))),
        ("withdraw 3 and more", BotCommand::Withdraw(ChallengeId(3))),
        (
            "play 7 c4",
            BotCommand::Play {
                game: GameId(7),
                action: action("c4"),
            },
        ),
        ("resign 7", BotCommand::Resign(GameId(7))),
        ("abort 7", BotCommand::Abort(GameId(7))),
        (
            "takeback 7",
            BotCommand::Takeback {
                game: GameId(7),
                reply: TakebackReply::Ask,
            },
        ),
        (
            "takeback 7 yes",
            BotCommand::Takeback {
                game: GameId(7),
                reply: TakebackReply::Yes,
            },
        ),
        (
            "takeback 7 no",
            BotCommand::Takeback {
                game: GameId(7),
                reply: TakebackReply::No,
            },
        ),
        (
            "takeback 7 maybe",
            BotCommand::Takeback {
                game: GameId(7),
                reply: TakebackReply::Other,
            },
        ),
        (
            "rematch 7",
            BotCommand::Rematch {
                game: GameId(7),
                decline: false,
            },
        ),
        (
            "rematch 7 no",
            BotCommand::Rematch {
                game: GameId(7),
                decline: true,
            },
        ),
        ("wait 7", BotCommand::Wait(GameId(7))),
        ("record 7", BotCommand::Record(GameId(7))),
        (
            "games",
            BotCommand::Games {
                json: false,
                skip: 0,
            },
        ),
        (
            "games --json skip 20",
            BotCommand::Games {
                json: true,
                skip: 20,
            },
        ),
        ("tournaments", BotCommand::Tournaments),
        ("tournament t3", BotCommand::Tournament(t(3))),
        (
            "tournament create swiss quentin clock 3+2 rounds 4",
            BotCommand::CreateTournament(
                Settings::parse(&["swiss", "quentin", "clock", "3+2", "rounds", "4"]).unwrap(),
            ),
        ),
        ("tournament start t3", BotCommand::StartTournament(t(3))),
        (
            "tournament pause t3",
            BotCommand::PauseTournament {
                id: t(3),
                paused: true,
            },
        ),
        (
            "tournament resume T3",
            BotCommand::PauseTournament {
                id: t(3),
                paused: false,
            },
        ),
        ("join t3", BotCommand::Join(t(3))),
        (
            "withdraw t3",
            BotCommand::WithdrawTournament {
                id: t(3),
                at_once: false,
            },
        ),
        (
            "withdraw t3 now",
            BotCommand::WithdrawTournament {
                id: t(3),
                at_once: true,
            },
        ),
        ("tournament cancel t3", BotCommand::CancelTournament(t(3))),
        ("messages", BotCommand::Messages),
        ("next", BotCommand::Next),
        ("vacation", BotCommand::Vacation(None)),
        ("vacation 3", BotCommand::Vacation(Some(3))),
        ("puzzle", BotCommand::NextPuzzle(None)),
        ("puzzle brique", BotCommand::NextPuzzle(Some(Game::Brique))),
        ("puzzle q5-12", BotCommand::Puzzle("q5-12".to_string())),
        ("puzzle rating", BotCommand::PuzzleRating),
        (
            "puzzle difficulty harder",
            BotCommand::PuzzleAt(Difficulty::Harder),
        ),
        (
            "puzzle difficulty easier",
            BotCommand::PuzzleAt(Difficulty::Easier),
        ),
        ("puzzle leaders", BotCommand::PuzzleLeaders),
        ("puzzle streak", BotCommand::PuzzleWay(PuzzleWay::Streak)),
        ("puzzle storm", BotCommand::PuzzleWay(PuzzleWay::Storm)),
        ("puzzle again", BotCommand::PuzzleWay(PuzzleWay::Again)),
        (
            "puzzle theme weak-link",
            BotCommand::PuzzleWay(PuzzleWay::Theme("weak-link")),
        ),
        (
            "solve q5-12 c4 d5",
            BotCommand::Solve {
                puzzle: "q5-12".to_string(),
                moves: vec![action("c4"), action("d5")],
            },
        ),
    ];
    for (line, command) in cases {
        assert_eq!(parsed(line), command, "{line}");
        // The one table of gates: every command's word is in it (or is an order's), and a
        // parsed command and its words alone are admitted alike.
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        let listed = GATES.iter().any(|(w, _)| *w == command.word());
        assert!(listed || matches!(command, BotCommand::Order(_)), "{line}");
        assert_eq!(command.gate(), Gate::of_word(words[0], &words), "{line}");
        // Any ASCII whitespace between the words, and around them.
        let spread = format!(" \t{}\r", line.replace(' ', "\t  "));
        assert_eq!(parsed(&spread), command, "{spread:?}");
    }
}

#[test]
fn wrong_numbers_of_words_are_refused_with_the_usage() {
    let tournament_usage = "tournament create KIND GAME ..., tournament ID, tournament start ID, \
                            tournament pause ID or tournament resume ID";
    for (line, why) in [
        ("register", "register NAME"),
        ("register ann bob", "register NAME"),
        ("whoami now", "whoami takes no words after it"),
        ("motd please", "motd takes no words after it"),
        ("tournaments all", "tournaments takes no words after it"),
        ("log all", "log takes no words after it"),
        ("unban", "unban NAME"),
        ("players a b", "players [NAME]"),
        ("abort 7 now", "abort ID"),
        ("play 7", "play ID ACTION"),
        ("rematch 7 yes", "rematch ID [no]"),
        ("challenges after", "challenges [GAME] [after ID]"),
        ("challenges quentin konobi", "challenges [GAME] [after ID]"),
        ("challenges after x", "challenges [GAME] [after ID]"),
        ("games skip", "games [--json] [skip N]"),
        ("games --json --json", "games [--json] [skip N]"),
        ("games skip -1", "games [--json] [skip N]"),
        ("tournament", tournament_usage),
        ("tournament start t1 t2", tournament_usage),
        ("join", "join ID"),
        ("join t1 t2", "join ID"),
        ("withdraw t1 later", "withdraw ID [now]: later is not now"),
        (
            "withdraw t1 now please",
            "withdraw ID [now]: now is not now",
        ),
        ("tournament cancel", "tournament cancel ID"),
        ("tournament cancel t1 now", "tournament cancel ID"),
        ("messages all", "messages takes no words after it"),
        ("next 3", "next takes no words after it"),
        ("vacation 3 days", "vacation [N]"),
        (
            "vacation soon",
            "bad days soon: vacation N, a number of days",
        ),
        (
            "puzzle rating now",
            "puzzle [GAME], puzzle ID, puzzle difficulty D, puzzle streak, puzzle storm, \
             puzzle again, puzzle theme T, puzzle rating or puzzle leaders",
        ),
        ("solve", "solve ID MOVE..."),
        ("solve q5-12", "solve ID MOVE..."),
        (
            "challenge",
            "say which game: quentin, konobi, brique or quint",
        ),
        (
            "tournament create",
            "say which kind: roundrobin, swiss or arena",
        ),
    ] {
        assert_eq!(refused(line).0, why, "{line}");
    }
}

#[test]
fn bad_numbers_and_words_are_refused_as_the_protocol_always_has() {
    for (line, why) in [
        ("accept", "accept needs a game number"),
        ("wait", "wait needs a game number"),
        ("record x", "bad game number"),
        ("resign 1.5", "bad game number"),
        ("takeback", "takeback needs a game number"),
        ("withdraw", "withdraw needs a game number"),
        ("close x", "bad number: close CHALLENGE"),
        (
            "tournament start x",
            "bad tournament number x: say t1, t2...",
        ),
        (
            "tournament start",
            "bad tournament number start: say t1, t2...",
        ),
        ("join t0", "bad tournament number t0: say t1, t2..."),
        ("withdraw tx", "bad tournament number tx: say t1, t2..."),
        ("withdraw tx now", "bad tournament number tx: say t1, t2..."),
        (
            "tournament cancel x",
            "bad tournament number x: say t1, t2...",
        ),
        (
            "play 7 banana",
            "illegal move: banana is not an action (not an action (a point such as c4, swap, pass or a step such as c4-c5xc6))",
        ),
        (
            "solve q5-12 c4 banana",
            "illegal move: move 2, banana: not an action (a point such as c4, swap, pass or a step such as c4-c5xc6)",
        ),
        (
            "puzzle chess",
            "no game chess: quentin, konobi, brique or quint; or puzzle [GAME], puzzle ID, \
             puzzle difficulty D, puzzle streak, puzzle storm, puzzle again, puzzle theme T, \
             puzzle rating or puzzle leaders",
        ),
        ("challenge chess", "unknown game chess"),
        ("fly", "unknown command fly"),
        ("fly\u{7}", "unknown command fly\\u{7}"),
        ("\u{a0}", "unknown command \\u{a0}"),
        ("Quit", "unknown command Quit"),
    ] {
        assert_eq!(refused(line).0, why, "{line:?}");
    }
}

#[test]
fn who_may_give_a_command_is_known_before_it_runs() {
    for (line, gate) in [
        ("quit", Gate::Anyone),
        ("motd", Gate::Anyone),
        ("register ann", Gate::Newcomer),
        ("whoami", Gate::Registered),
        ("wait 3", Gate::Registered),
        ("rematch 3 no", Gate::Registered),
        ("log", Gate::Operator),
        ("abort 3", Gate::Abort(GameId(3))),
        ("play 3 c4", Gate::Player),
        ("tournaments", Gate::Player),
        ("puzzle", Gate::Player),
    ] {
        assert_eq!(parsed(line).gate(), gate, "{line}");
    }
    // A line that does not parse has one too: one not admitted hears why not instead.
    for (line, gate) in [
        ("whoami now", Gate::Anyone),
        ("motd now", Gate::Anyone),
        ("register", Gate::Newcomer),
        ("wait", Gate::Registered),
        ("rematch 3 yes", Gate::Registered),
        ("ban", Gate::Operator),
        ("abort 3 now", Gate::Abort(GameId(3))),
        ("abort x", Gate::Player),
        ("fly", Gate::Player),
        ("play 3 banana", Gate::Player),
    ] {
        assert_eq!(refused(line).1, gate, "{line}");
    }
}

#[test]
fn the_commands_that_name_a_game_or_a_challenge_say_which() {
    assert_eq!(parsed("accept 4").names(), Some((GameId(4), false)));
    assert_eq!(parsed("withdraw 4").names(), Some((GameId(4), false)));
    for line in [
        "wait 4",
        "play 4 c4",
        "resign 4",
        "abort 4",
        "takeback 4 yes",
        "rematch 4",
        "record 4",
    ] {
        assert_eq!(parsed(line).names(), Some((GameId(4), true)), "{line}");
    }
    for line in ["withdraw t4", "join t4", "games", "puzzle"] {
        assert_eq!(parsed(line).names(), None, "{line}");
    }
}

#[test]
fn every_word_of_the_gate_table_is_a_command_and_no_command_is_missing() {
    for (word, _) in GATES {
        // Each parses to a command, or to a refusal that is not `unknown command`.
        if let Err(e) = BotCommand::parse(word) {
            assert!(!e.why.starts_with("unknown command"), "{word}: {}", e.why);
        }
    }
    assert_eq!(refused("fly").1, super::UNKNOWN_WORD);
}
