//! The bot protocol's commands, parsed from a line before anything runs: one variant per
//! command with its arguments typed ([`BotCommand::parse`]), and who may give it ([`Gate`]).
//! A line that does not parse is a [`ParseError`], whose words are the protocol's answers
//! after `? ` (programs depend on them: they stay byte for byte).

use quentin_app::puzzle_modes::Difficulty;
use quentin_rules::{Action, Game};

use crate::ids::{ChallengeId, GameId};
use crate::moderation::{ORDER_WORDS, Order};
use crate::puzzles::PuzzleRefusal;
use crate::spec::{Spec, shown};
use crate::tournament::{Settings, TournamentId};

#[cfg(test)]
mod tests;

/// One line of the bot protocol, parsed: the command and its arguments.
#[derive(Clone, Debug, PartialEq)]
pub enum BotCommand {
    /// `quit`: `=`, then the session ends.
    Quit,
    /// `register NAME`: a name for the key, or the new name a renamed player picks.
    Register(String),
    /// `whoami`: the player's name.
    Whoami,
    /// `motd`: the host's message of the day.
    Motd,
    /// An operator's order: `ban`, `unban`, `rename`, `close`, `reset`, `mark`, `unmark`,
    /// `players`, `log` (and `abort ID` of a game not the operator's: see [`Gate::Abort`]).
    Order(Order),
    /// `challenge GAME [OPTIONS]`.
    Challenge(Spec),
    /// `challenges [GAME] [after ID]`: a page of the open challenges.
    Challenges {
        /// Only those of this game.
        game: Option<Game>,
        /// Only those numbered after this one.
        after: ChallengeId,
    },
    /// `accept ID`: a challenge.
    Accept(ChallengeId),
    /// `withdraw ID`: one's own challenge.
    Withdraw(ChallengeId),
    /// `play ID ACTION`.
    Play {
        /// The game.
        game: GameId,
        /// The action.
        action: Action,
    },
    /// `resign ID`.
    Resign(GameId),
    /// `abort ID`: one's own game before both players have moved.
    Abort(GameId),
    /// `takeback ID [yes|no]`.
    Takeback {
        /// The game.
        game: GameId,
        /// Which of the three.
        reply: TakebackReply,
    },
    /// `rematch ID [no]`.
    Rematch {
        /// The finished game.
        game: GameId,
        /// `no`: the opponent's offer declined.
        decline: bool,
    },
    /// `wait ID`: until it is the player's turn or the game is over (or the challenge ID of
    /// theirs is accepted).
    Wait(GameId),
    /// `record ID`: the game's record.
    Record(GameId),
    /// `games [--json] [skip N]`: a page of the player's games.
    Games {
        /// As one JSON array.
        json: bool,
        /// How many to leave out.
        skip: usize,
    },
    /// `next`: the game where it is the player's move whose clock runs out soonest.
    Next,
    /// `vacation`: the days left and taken this year; `vacation N`: N days taken ahead.
    Vacation(Option<u32>),
    /// `tournaments`.
    Tournaments,
    /// `tournament ID`: its standings and games.
    Tournament(TournamentId),
    /// `tournament create KIND GAME ...`.
    CreateTournament(Settings),
    /// `tournament start ID`.
    StartTournament(TournamentId),
    /// `tournament pause ID` (`paused`) or `tournament resume ID`.
    PauseTournament {
        /// The arena.
        id: TournamentId,
        /// Paused, or back.
        paused: bool,
    },
    /// `join ID`: a tournament.
    Join(TournamentId),
    /// `withdraw tID [now]`: out of a tournament (`now`: its games under way forfeited at
    /// once).
    WithdrawTournament {
        /// The tournament.
        id: TournamentId,
        /// `now`.
        at_once: bool,
    },
    /// `tournament cancel ID`: by its creator before its start, or an operator's.
    CancelTournament(TournamentId),
    /// `messages`: those left to the player (a tournament of theirs cancelled).
    Messages,
    /// `puzzle [GAME]`: the next puzzle.
    NextPuzzle(Option<Game>),
    /// `puzzle ID`: that puzzle.
    Puzzle(String),
    /// `puzzle difficulty easier|normal|harder`: the next puzzle aimed 300 below the
    /// player's puzzle rating, at it, or 300 above (rated as any).
    PuzzleAt(Difficulty),
    /// `puzzle streak`, `puzzle storm`, `puzzle again`, `puzzle theme T`: the next puzzle
    /// of the connection's run taken that way ([`crate::puzzles::run::Run`]).
    PuzzleWay(PuzzleWay),
    /// `puzzle rating`.
    PuzzleRating,
    /// `puzzle leaders`.
    PuzzleLeaders,
    /// `solve ID MOVE...`.
    Solve {
        /// The puzzle.
        puzzle: String,
        /// The player's moves.
        moves: Vec<Action>,
    },
}

/// What `takeback ID` says after the number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TakebackReply {
    /// Nothing: a takeback asked.
    Ask,
    /// `yes`: the opponent's asking agreed to.
    Yes,
    /// `no`: the opponent's asking declined.
    No,
    /// Other words: refused with the usage, once the game is known to be the player's (the
    /// protocol has always looked at the game first).
    Other,
}

/// Who may give a command: the session's one login check reads it before the command runs
/// (and before a line that did not parse is refused with its own words).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gate {
    /// Anyone, registered or not, renamed or not.
    Anyone,
    /// One with no name yet, or a player an operator renamed (to pick a new one).
    Newcomer,
    /// An operator, by key or by player.
    Operator,
    /// `abort ID`: an operator's order when an operator who does not play game ID gives it,
    /// a player's command otherwise.
    Abort(GameId),
    /// A registered player, renamed or not.
    Registered,
    /// A registered player an operator has not renamed.
    Player,
}

/// A line that does not parse: the answer's words, and who may hear them (one not admitted
/// to the command hears why not instead).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The answer, after `? `.
    pub why: String,
    /// Who may give the command.
    pub gate: Gate,
}

/// The usage a bad `tournament` line is answered with.
const TOURNAMENT_USAGE: &str = "tournament create KIND GAME ..., tournament ID, tournament start \
                                ID, tournament pause ID or tournament resume ID";

impl BotCommand {
    /// The command of `line`, split at ASCII whitespace only (a line of other spaces is a
    /// word, answered as unknown).
    ///
    /// # Errors
    /// Unknown words, a wrong number of them, a bad number, move or option: the answer.
    pub fn parse(line: &str) -> Result<BotCommand, ParseError> {
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        let word = words.first().copied().unwrap_or_default();
        let gate = Gate::of_word(word, &words);
        parse_words(word, &words).map_err(|why| ParseError { why, gate })
    }

    /// Who may give this command: the one table's word ([`GATES`]), but for an abort, whose
    /// gate names its game.
    #[must_use]
    pub fn gate(&self) -> Gate {
        match self {
            BotCommand::Abort(id) => Gate::Abort(*id),
            // An order, however given (an operator's `abort` of another's game too).
            BotCommand::Order(_) => Gate::Operator,
            command => Gate::of_word(command.word(), &[]),
        }
    }

    /// The command's first word, as the table of gates lists it: every command has one.
    #[must_use]
    pub fn word(&self) -> &'static str {
        match self {
            BotCommand::Quit => "quit",
            BotCommand::Register(_) => "register",
            BotCommand::Whoami => "whoami",
            BotCommand::Motd => "motd",
            BotCommand::Order(order) => order.word(),
            BotCommand::Challenge(_) => "challenge",
            BotCommand::Challenges { .. } => "challenges",
            BotCommand::Accept(_) => "accept",
            BotCommand::Withdraw(_) | BotCommand::WithdrawTournament { .. } => "withdraw",
            BotCommand::Play { .. } => "play",
            BotCommand::Resign(_) => "resign",
            BotCommand::Abort(_) => "abort",
            BotCommand::Takeback { .. } => "takeback",
            BotCommand::Rematch { .. } => "rematch",
            BotCommand::Wait(_) => "wait",
            BotCommand::Record(_) => "record",
            BotCommand::Games { .. } => "games",
            BotCommand::Next => "next",
            BotCommand::Vacation(_) => "vacation",
            BotCommand::Tournaments => "tournaments",
            BotCommand::Tournament(_)
            | BotCommand::CreateTournament(_)
            | BotCommand::StartTournament(_)
            | BotCommand::PauseTournament { .. }
            | BotCommand::CancelTournament(_) => "tournament",
            BotCommand::Join(_) => "join",
            BotCommand::Messages => "messages",
            BotCommand::NextPuzzle(_)
            | BotCommand::Puzzle(_)
            | BotCommand::PuzzleAt(_)
            | BotCommand::PuzzleWay(_)
            | BotCommand::PuzzleRating
            | BotCommand::PuzzleLeaders => "puzzle",
            BotCommand::Solve { .. } => "solve",
        }
    }

    /// The game (`true`) or challenge (`false`) the command names, which this process may not
    /// have heard of yet: made on another process a moment ago, it is looked up first.
    #[must_use]
    pub fn names(&self) -> Option<(GameId, bool)> {
        match self {
            BotCommand::Accept(id) | BotCommand::Withdraw(id) => Some((id.game(), false)),
            BotCommand::Wait(id)
            | BotCommand::Play { game: id, .. }
            | BotCommand::Resign(id)
            | BotCommand::Abort(id)
            | BotCommand::Takeback { game: id, .. }
            | BotCommand::Rematch { game: id, .. }
            | BotCommand::Record(id) => Some((*id, true)),
            _ => None,
        }
    }
}

/// Who may give each command, by its first word: the one table both a parsed command
/// ([`BotCommand::gate`]) and a line that does not parse are admitted by. Every word of the
/// protocol is here (the operators' orders too, [`ORDER_WORDS`]); a word it does not know is
/// answered as unknown to a registered player, and `register first` to anyone else
/// ([`UNKNOWN_WORD`]).
pub const GATES: [(&str, Gate); 24] = [
    ("quit", Gate::Anyone),
    ("motd", Gate::Anyone),
    ("register", Gate::Newcomer),
    ("whoami", Gate::Registered),
    ("wait", Gate::Registered),
    ("rematch", Gate::Registered),
    ("challenge", Gate::Player),
    ("challenges", Gate::Player),
    ("accept", Gate::Player),
    ("withdraw", Gate::Player),
    ("play", Gate::Player),
    ("resign", Gate::Player),
    // A player's own game's abort, or an operator's order (`Gate::Abort`, by its number).
    ("abort", Gate::Player),
    ("takeback", Gate::Player),
    ("record", Gate::Player),
    ("games", Gate::Player),
    ("next", Gate::Player),
    ("vacation", Gate::Player),
    ("tournaments", Gate::Player),
    ("tournament", Gate::Player),
    ("join", Gate::Player),
    ("messages", Gate::Player),
    ("puzzle", Gate::Player),
    ("solve", Gate::Player),
];

/// The gate of a word the protocol does not know: a registered player hears that it is
/// unknown, anyone else to register first (as for any player's command).
pub const UNKNOWN_WORD: Gate = Gate::Player;

impl Gate {
    /// Who may give the command of `words`, whose first is `word`, read from the words alone
    /// (a line that does not parse has a gate too): [`GATES`], an order's [`Gate::Operator`],
    /// an abort's number, and `whoami` with extra words refused to anyone.
    fn of_word(word: &str, words: &[&str]) -> Gate {
        if ORDER_WORDS.contains(&word) {
            return Gate::Operator;
        }
        match word {
            "whoami" if words.len() > 1 => Gate::Anyone,
            "abort" => game_id(words).map_or(Gate::Player, Gate::Abort),
            word => GATES
                .iter()
                .find(|(w, _)| *w == word)
                .map_or(UNKNOWN_WORD, |(_, gate)| *gate),
        }
    }
}

/// The command of `words`, whose first is `word`, or the answer to a line that does not parse.
fn parse_words(word: &str, words: &[&str]) -> Result<BotCommand, String> {
    let args = words.get(1..).unwrap_or_default();
    Ok(match word {
        "quit" => BotCommand::Quit,
        "register" => match args {
            [name] => BotCommand::Register((*name).to_string()),
            _ => return Err("register NAME".to_string()),
        },
        "whoami" if args.is_empty() => BotCommand::Whoami,
        "whoami" => return Err("whoami takes no words after it".to_string()),
        "motd" if args.is_empty() => BotCommand::Motd,
        "motd" => return Err("motd takes no words after it".to_string()),
        word if ORDER_WORDS.contains(&word) => {
            BotCommand::Order(Order::parse(words).map_err(|usage| usage.to_string())?)
        }
        "abort" => match (id_of(words)?, args) {
            (id, [_]) => BotCommand::Abort(GameId(id)),
            _ => return Err("abort ID".to_string()),
        },
        "challenge" => BotCommand::Challenge(Spec::parse(args)?),
        "tournaments" if args.is_empty() => BotCommand::Tournaments,
        "tournaments" => return Err("tournaments takes no words after it".to_string()),
        "tournament" => tournament(args)?,
        "join" => match args {
            [id] => BotCommand::Join(tournament_id(id)?),
            _ => return Err("join ID".to_string()),
        },
        // `withdraw t7` leaves a tournament; `withdraw 7` takes back a challenge.
        "withdraw" if args.first().is_some_and(|w| w.starts_with(['t', 'T'])) => match args {
            [id] | [id, "now"] => BotCommand::WithdrawTournament {
                id: tournament_id(id)?,
                at_once: args.len() == 2,
            },
            _ => {
                let word = args.get(1).copied().unwrap_or_default();
                return Err(format!("withdraw ID [now]: {} is not now", shown(word)));
            }
        },
        "withdraw" => BotCommand::Withdraw(ChallengeId(id_of(words)?)),
        "messages" if args.is_empty() => BotCommand::Messages,
        "messages" => return Err("messages takes no words after it".to_string()),
        "challenges" => challenges(args)?,
        "accept" => BotCommand::Accept(ChallengeId(id_of(words)?)),
        "play" => {
            let game = GameId(id_of(words)?);
            let token = args.get(1).ok_or("play ID ACTION")?;
            let action = Action::parse(token)
                .map_err(|e| format!("illegal move: {} is not an action ({e})", shown(token)))?;
            BotCommand::Play { game, action }
        }
        "resign" => BotCommand::Resign(GameId(id_of(words)?)),
        "takeback" => BotCommand::Takeback {
            game: GameId(id_of(words)?),
            reply: match args.get(1..).unwrap_or_default() {
                [] => TakebackReply::Ask,
                ["yes"] => TakebackReply::Yes,
                ["no"] => TakebackReply::No,
                _ => TakebackReply::Other,
            },
        },
        "rematch" => {
            let game = GameId(id_of(words)?);
            match args.get(1..).unwrap_or_default() {
                [] => BotCommand::Rematch {
                    game,
                    decline: false,
                },
                ["no"] => BotCommand::Rematch {
                    game,
                    decline: true,
                },
                _ => return Err("rematch ID [no]".to_string()),
            }
        }
        "wait" => BotCommand::Wait(GameId(id_of(words)?)),
        "record" => BotCommand::Record(GameId(id_of(words)?)),
        "games" => games(args)?,
        "next" if args.is_empty() => BotCommand::Next,
        "next" => return Err("next takes no words after it".to_string()),
        "vacation" => {
            match args {
                [] => BotCommand::Vacation(None),
                [days] => BotCommand::Vacation(Some(days.parse().map_err(|_| {
                    format!("bad days {}: vacation N, a number of days", shown(days))
                })?)),
                _ => return Err("vacation [N]".to_string()),
            }
        }
        "puzzle" => puzzle(args)?,
        "solve" => solve(args)?,
        word => return Err(format!("unknown command {}", shown(word))),
    })
}

/// The number after the command's word: a game's or a challenge's.
fn id_of(words: &[&str]) -> Result<i64, String> {
    let word = words.first().copied().unwrap_or_default();
    words
        .get(1)
        .ok_or_else(|| format!("{word} needs a game number"))?
        .parse()
        .map_err(|_| "bad game number".to_string())
}

/// The number after the command's word, if it is one.
fn game_id(words: &[&str]) -> Option<GameId> {
    id_of(words).ok().map(GameId)
}

/// A tournament's number, `t7`.
fn tournament_id(word: &str) -> Result<TournamentId, String> {
    TournamentId::parse(word)
        .ok_or_else(|| format!("bad tournament number {}: say t1, t2...", shown(word)))
}

/// `tournament ...`: its words after `tournament`.
fn tournament(args: &[&str]) -> Result<BotCommand, String> {
    Ok(match args {
        ["cancel", id] => BotCommand::CancelTournament(tournament_id(id)?),
        ["cancel", ..] => return Err("tournament cancel ID".to_string()),
        ["create", settings @ ..] => BotCommand::CreateTournament(Settings::parse(settings)?),
        ["start", id] => BotCommand::StartTournament(tournament_id(id)?),
        [word @ ("pause" | "resume"), id] => BotCommand::PauseTournament {
            id: tournament_id(id)?,
            paused: *word == "pause",
        },
        [id] => BotCommand::Tournament(tournament_id(id)?),
        _ => return Err(TOURNAMENT_USAGE.to_string()),
    })
}

/// `challenges [GAME] [after ID]`: its words after `challenges`.
fn challenges(args: &[&str]) -> Result<BotCommand, String> {
    let usage = || "challenges [GAME] [after ID]".to_string();
    let (mut game, mut after) = (None, 0);
    let mut rest = args.iter();
    while let Some(word) = rest.next() {
        match (*word, Game::from_name(word)) {
            ("after", _) => after = rest.next().and_then(|n| n.parse().ok()).ok_or_else(usage)?,
            (_, Some(g)) if game.is_none() => game = Some(g),
            _ => return Err(usage()),
        }
    }
    Ok(BotCommand::Challenges {
        game,
        after: ChallengeId(after),
    })
}

/// `games [--json] [skip N]`: its words after `games`.
fn games(args: &[&str]) -> Result<BotCommand, String> {
    let usage = || "games [--json] [skip N]".to_string();
    let (mut json, mut skip) = (false, 0);
    let mut rest = args.iter();
    while let Some(word) = rest.next() {
        match *word {
            "--json" if !json => json = true,
            "skip" => skip = rest.next().and_then(|n| n.parse().ok()).ok_or_else(usage)?,
            _ => return Err(usage()),
        }
    }
    Ok(BotCommand::Games { json, skip })
}

/// A way of taking the puzzles a bot asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PuzzleWay {
    /// `puzzle streak`: the connection's Streak (a new one when none runs).
    Streak,
    /// `puzzle storm`: the connection's Storm (a new one when none runs).
    Storm,
    /// `puzzle again`: the player's failed puzzles again.
    Again,
    /// `puzzle theme T`: rated puzzles of theme T.
    Theme(&'static str),
}

/// `puzzle [GAME]`, `puzzle ID`, `puzzle rating`, `puzzle leaders`, `puzzle difficulty D`,
/// `puzzle streak|storm|again`, `puzzle theme T`: the words after `puzzle`.
fn puzzle(args: &[&str]) -> Result<BotCommand, String> {
    let usage = || {
        "puzzle [GAME], puzzle ID, puzzle difficulty D, puzzle streak, puzzle storm, puzzle \
         again, puzzle theme T, puzzle rating or puzzle leaders"
            .to_string()
    };
    Ok(match args {
        [] => BotCommand::NextPuzzle(None),
        ["difficulty", word] => match Difficulty::from_name(word) {
            Some(difficulty) => BotCommand::PuzzleAt(difficulty),
            None => {
                return Err(format!(
                    "no difficulty {}: easier, normal or harder",
                    shown(word)
                ));
            }
        },
        ["rating"] => BotCommand::PuzzleRating,
        ["leaders"] => BotCommand::PuzzleLeaders,
        ["streak"] => BotCommand::PuzzleWay(PuzzleWay::Streak),
        ["storm"] => BotCommand::PuzzleWay(PuzzleWay::Storm),
        ["again"] => BotCommand::PuzzleWay(PuzzleWay::Again),
        ["theme", word] => match quentin_app::search::puzzles::theme(word) {
            Some(theme) => BotCommand::PuzzleWay(PuzzleWay::Theme(theme)),
            None => return Err(PuzzleRefusal::NoTheme((*word).to_string()).to_string()),
        },
        [word] => match Game::from_name(word) {
            Some(game) => BotCommand::NextPuzzle(Some(game)),
            None if word.contains('-') => BotCommand::Puzzle((*word).to_string()),
            None => {
                return Err(format!(
                    "no game {}: quentin, konobi, brique or quint; or {}",
                    shown(word),
                    usage()
                ));
            }
        },
        _ => return Err(usage()),
    })
}

/// `solve ID MOVE...`: the words after `solve`.
fn solve(args: &[&str]) -> Result<BotCommand, String> {
    let [id, moves @ ..] = args else {
        return Err("solve ID MOVE...".to_string());
    };
    if moves.is_empty() {
        return Err("solve ID MOVE...".to_string());
    }
    let moves = moves
        .iter()
        .enumerate()
        .map(|(i, word)| {
            Action::parse(word)
                .map_err(|e| format!("illegal move: move {}, {}: {e}", i + 1, shown(word)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(BotCommand::Solve {
        puzzle: (*id).to_string(),
        moves,
    })
}
