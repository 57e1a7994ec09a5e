//! The bot protocol's answers, written at the edge: what a command came to ([`Outcome`]) or
//! why it was refused ([`Refused`]), as the text after `= ` or `? `, then an empty line.

use std::fmt::Write as _;

use quentin_rules::{Action, Color, Game};

use super::command::ParseError;
use super::{puzzle, tournament};
use crate::context::session;
use crate::hub::{ChallengeView, GameView, Refusal, TournamentView, Vacation};
use crate::ids::{ChallengeId, GameId, PlayerId, Seat};
use crate::moderation::OrderRefusal;
use crate::present::tournament_summary;
use crate::puzzles::{self, PuzzleRefusal, Served};
use crate::store::RatingRow;
use crate::tournament::{TournamentId, TournamentRefusal};

#[cfg(test)]
mod tests;

/// What a command came to.
#[derive(Debug)]
pub enum Outcome {
    /// Done, with nothing to say: `=`.
    Done,
    /// `whoami`: the player's name.
    Name(String),
    /// `motd`: its lines (none: `=` alone).
    Motd(Vec<String>),
    /// An operator's order: its answer, in the moderation's words.
    Ordered(String),
    /// `challenge`: the new challenge's number.
    Challenged(ChallengeId),
    /// `challenges`: a page of the open challenges.
    Challenges {
        /// The page.
        page: Vec<ChallengeView>,
        /// How many more there are.
        more: usize,
        /// The game asked for, if any.
        game: Option<Game>,
    },
    /// `accept`: the game's number and the player's colour.
    Accepted {
        /// The game (it keeps the challenge's number).
        game: GameId,
        /// The player's colour.
        color: Color,
    },
    /// `games`: a page of the player's games.
    Games {
        /// The page.
        page: Vec<GameView>,
        /// How many more there are.
        more: usize,
        /// As one JSON array.
        json: bool,
        /// How many were left out before the page.
        skip: usize,
        /// The player.
        me: PlayerId,
    },
    /// `record`: the game's record.
    Record(String),
    /// `next`: the game where it is the player's move whose clock runs out soonest, if any.
    Next(Option<GameId>),
    /// `vacation [N]`: the days left and taken (and the games given more time).
    Vacation(Vacation),
    /// `takeback ID`: asked, for this many actions.
    TakebackAsked(usize),
    /// `takeback ID yes`: this many actions taken back.
    TakenBack(usize),
    /// `rematch`: the new game's number.
    Rematched(GameId),
    /// `rematch`: the opponent declined.
    RematchDeclined,
    /// `wait`: the player's turn, after the opponent's last action (none: the first move).
    Turn(Option<Action>),
    /// `wait`: the game is over, with this result.
    Over(String),
    /// `wait`: the opponent asks to take back this many actions.
    TakebackWanted(usize),
    /// `wait`: the challenge waited on was withdrawn.
    Withdrawn,
    /// `tournaments`: every one not cancelled, the newest first.
    Tournaments(Vec<TournamentView>),
    /// `tournament ID`.
    Tournament(TournamentView),
    /// `tournament create`: the new tournament's number.
    TournamentMade(TournamentId),
    /// `tournament cancel`: cancelled.
    Cancelled,
    /// `messages`: a line each, oldest first.
    Messages(Vec<String>),
    /// `puzzle`: a puzzle to solve.
    Puzzle(Served),
    /// `puzzle rating`: the player's puzzle rating.
    PuzzleRating(RatingRow),
    /// `puzzle leaders`: the best puzzle ratings, with their players' names.
    PuzzleLeaders(Vec<(String, RatingRow)>),
    /// `solve`: what the moves came to.
    Solved(puzzles::Outcome),
    /// `solve` in a Streak or a Storm: what the moves came to, counted in the run.
    Counted(puzzles::run::Counted),
    /// The session ended while the command waited: nothing is answered, the session ends.
    Gone,
}

/// Why a command was refused.
#[derive(Debug)]
pub enum Refused {
    /// The line does not parse.
    Parse(ParseError),
    /// A command that needs a name, from one with none.
    RegisterFirst,
    /// A command other than a new name, from a player an operator renamed.
    Renamed,
    /// An order, from one who is not an operator.
    NotAnOperator,
    /// `register`, from a player with a name.
    AlreadyRegistered(String),
    /// The hub refused.
    Hub(Refusal),
    /// A puzzle refused.
    Puzzle(PuzzleRefusal),
    /// A tournament request refused.
    Tournament(TournamentRefusal),
    /// `takeback ID` while the opponent's asking waits on the player.
    OpponentAskedTakeback(GameId),
    /// `takeback ID yes|no` with none asked.
    NoTakebackAsked,
    /// `takeback ID` with other words after it.
    TakebackUsage,
    /// An operator's order refused (or a renamed player's new name).
    Order(OrderRefusal),
    /// Refused in words written elsewhere (the sign-ups', a test hook's).
    Said(String),
}

impl From<OrderRefusal> for Refused {
    fn from(refusal: OrderRefusal) -> Refused {
        Refused::Order(refusal)
    }
}

impl From<Refusal> for Refused {
    fn from(refusal: Refusal) -> Refused {
        Refused::Hub(refusal)
    }
}

impl From<TournamentRefusal> for Refused {
    fn from(refusal: TournamentRefusal) -> Refused {
        Refused::Tournament(refusal)
    }
}

impl From<PuzzleRefusal> for Refused {
    fn from(refusal: PuzzleRefusal) -> Refused {
        Refused::Puzzle(refusal)
    }
}

/// The whole answer to a command: `= TEXT` (or `=` alone) or `? REASON`, then an empty line;
/// none when the session ended while the command waited.
#[must_use]
pub fn framed(answer: &Result<Outcome, Refused>) -> Option<String> {
    Some(match answer {
        Ok(Outcome::Gone) => return None,
        Ok(outcome) => match said(outcome) {
            text if text.is_empty() => "=\n\n".to_string(),
            text => format!("= {text}\n\n"),
        },
        Err(refused) => format!("? {}\n\n", why(refused)),
    })
}

/// An outcome's text, after `= `.
fn said(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Done | Outcome::Gone => String::new(),
        Outcome::Name(name) | Outcome::Ordered(name) => name.clone(),
        Outcome::Motd(lines) | Outcome::Messages(lines) => lines.join("\n"),
        Outcome::Cancelled => "cancelled".to_string(),
        Outcome::Challenged(id) => id.to_string(),
        Outcome::Rematched(id) => id.to_string(),
        Outcome::Challenges { page, more, game } => challenges(page, *more, *game),
        Outcome::Accepted { game, color } => format!("{game} {color}"),
        Outcome::Games {
            page,
            more,
            json,
            skip,
            me,
        } => games(page, *more, *json, *skip, *me),
        Outcome::Record(record) => record.trim_end().to_string(),
        Outcome::Next(game) => game.map_or_else(|| "none".to_string(), |g| g.to_string()),
        Outcome::Vacation(vacation) => vacation.words(),
        Outcome::TakebackAsked(n) => format!("asked {n}"),
        Outcome::TakenBack(n) => format!("taken {n}"),
        Outcome::RematchDeclined => "declined".to_string(),
        Outcome::Turn(last) => format!("turn {}", last.map_or("-".to_string(), |a| a.to_string())),
        Outcome::Over(result) => format!("over {result}"),
        Outcome::TakebackWanted(n) => format!("takeback {n}"),
        Outcome::Withdrawn => "withdrawn".to_string(),
        Outcome::Tournaments(views) => views
            .iter()
            .map(tournament_summary)
            .collect::<Vec<_>>()
            .join("\n"),
        Outcome::Tournament(view) => tournament::lines(view).join("\n"),
        Outcome::TournamentMade(id) => id.to_string(),
        Outcome::Puzzle(served) => puzzle::offer(served),
        Outcome::PuzzleRating(rating) => puzzle::rating(rating),
        Outcome::PuzzleLeaders(rows) => puzzle::leaders(rows),
        Outcome::Solved(outcome) => puzzle::solved(outcome),
        Outcome::Counted(counted) => puzzle::counted(counted),
    }
}

/// A refusal's text, after `? `.
fn why(refused: &Refused) -> String {
    match refused {
        Refused::Parse(error) => error.why.clone(),
        Refused::RegisterFirst => "register first: register NAME".to_string(),
        Refused::Renamed => session::RENAMED.to_string(),
        Refused::NotAnOperator => OrderRefusal::NotAnOperator.to_string(),
        Refused::AlreadyRegistered(name) => format!("already registered as {name}"),
        Refused::Hub(refusal) => refusal.to_string(),
        Refused::Puzzle(refusal) => refusal.to_string(),
        Refused::Tournament(refusal) => refusal.to_string(),
        Refused::OpponentAskedTakeback(id) => {
            format!("your opponent asked for a takeback: takeback {id} yes, or takeback {id} no")
        }
        Refused::NoTakebackAsked => "no takeback asked".to_string(),
        Refused::TakebackUsage => "takeback ID [yes|no]".to_string(),
        Refused::Order(refusal) => refusal.to_string(),
        Refused::Said(words) => words.clone(),
    }
}

/// The line that ends a page of a listing with `more` left: `more N: COMMAND`, the command
/// that asks for the next page.
fn more_line(more: usize, next: &str) -> String {
    format!("more {more}: {next}")
}

/// `challenges [GAME] [after ID]`: a line a challenge, then `more N: challenges [GAME] after
/// LAST` when there are more.
fn challenges(page: &[ChallengeView], more: usize, game: Option<Game>) -> String {
    let mut lines: Vec<String> = page.iter().map(challenge_line).collect();
    if more > 0
        && let Some(last) = page.last()
    {
        let game = game.map(|g| format!("{} ", g.name())).unwrap_or_default();
        lines.push(more_line(
            more,
            &format!("challenges {game}after {}", last.id),
        ));
    }
    lines.join("\n")
}

/// One line of `challenges`: `ID GAME SIZE BY pie on [pieces N] first WHO clock 10+5 rated
/// [to NAME]`, WHO the challenger's name, `acceptor` or `random`; the pieces for the games
/// played with pieces in hand only (Quint).
fn challenge_line(view: &ChallengeView) -> String {
    let clock = view.clock.words();
    let pieces = if view.setup.game.piece_options().is_empty() {
        String::new()
    } else {
        format!(" pieces {}", view.setup.pieces)
    };
    let mut line = format!(
        "{} {} {} {} pie {}{pieces} first {} {clock} {}",
        view.id,
        view.setup.game,
        view.setup.size,
        view.by_name,
        if view.setup.pie { "on" } else { "off" },
        view.first_mover(),
        if view.rated { "rated" } else { "casual" }
    );
    if let Some(to) = &view.to {
        let _ = write!(line, " to {to}");
    }
    line
}

/// `games [--json] [skip N]`: a line a game (or one JSON array), then `more N: games [--json]
/// skip M` when there are more.
fn games(page: &[GameView], more: usize, json: bool, skip: usize, me: PlayerId) -> String {
    let mut lines = if json {
        vec![games_json(page, me)]
    } else {
        page.iter().map(|g| game_line(g, me)).collect()
    };
    if more > 0 {
        let json = if json { "--json " } else { "" };
        let next = skip + page.len();
        lines.push(more_line(more, &format!("games {json}skip {next}")));
    }
    lines.join("\n")
}

fn state(game: &GameView, seat: Seat) -> String {
    let asked = game.takeback_asked().filter(|(asker, _)| *asker != seat);
    match (game.result_words(), game.to_move) {
        (Some(result), _) => format!("over {result}"),
        (None, _) if asked.is_some() => format!("takeback {}", asked.map_or(0, |(_, n)| n)),
        (None, Some(s)) if s == seat => "turn".to_string(),
        _ => "waiting".to_string(),
    }
}

/// `ID GAME SIZE OPPONENT COLOUR STATE LEFT CLOCK`: `12 quentin 5 bob black turn 598s clock
/// 10+5` (CLOCK as a challenge asks for it: `clock M+I`, `days D`, `bank H+I`).
fn game_line(game: &GameView, me: PlayerId) -> String {
    let seat = game.seat(me).unwrap_or(Seat::First);
    let mut line = format!(
        "{} {} {} {} {} {}",
        game.id,
        game.setup.game,
        game.setup.size,
        game.names[seat.other()],
        game.color(seat),
        state(game, seat)
    );
    let _ = write!(
        line,
        " {}s {}",
        game.left[seat].whole_seconds(),
        game.clock.words()
    );
    line
}

fn games_json(games: &[GameView], me: PlayerId) -> String {
    let list: Vec<serde_json::Value> = games
        .iter()
        .map(|g| {
            let seat = g.seat(me).unwrap_or(Seat::First);
            serde_json::json!({
                "id": g.id.0,
                "game": g.setup.game.name(),
                "size": g.setup.size,
                "opponent": g.names[seat.other()],
                "colour": g.color(seat).name(),
                "state": state(g, seat),
                "actions": g.actions.len(),
                "clock": g.clock.to_string(),
                "rated": g.rated,
                "my_time_ms": g.left[seat].0,
                "their_time_ms": g.left[seat.other()].0,
            })
        })
        .collect();
    serde_json::Value::Array(list).to_string()
}
