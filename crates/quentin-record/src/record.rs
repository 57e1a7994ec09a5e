//! Game records: the plain-text move lists of `docs/records.md`, read strictly and written
//! so that reading gives the same game back.
//!
//! ```
//! use quentin_record::record::Record;
//! let record = Record::parse("game quentin\nsize 5\nc3 swap\n2. b2\n")?;
//! assert_eq!(record.actions().len(), 3);
//! assert_eq!(Record::parse(&record.to_text())?, record);
//! let err = Record::parse("size 5\nc3 c3\n").unwrap_err();
//! assert_eq!(err.to_string(), "2:4: action 2 (white c3) is illegal: c3 is occupied by a black stone");
//! # Ok::<(), quentin_record::record::RecordError>(())
//! ```

use std::fmt;

use crate::game_line::GameLine;
use quentin_rules::{Action, Game, ParseActionError, Position, Setup};

/// The longest piece of a record's own text quoted in a message.
const QUOTE_LIMIT: usize = 40;

/// A record that has been read and replayed without a fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    setup: Setup,
    players: Players,
    actions: Vec<Action>,
}

/// Who played: the texts of the `player1` and `player2` headers (the player who made the first
/// and the second move of the game), each absent when the record does not say.
pub type Players = [Option<String>; 2];

/// The longest text of a `player1` or `player2` header, in characters.
pub const PLAYER_LIMIT: usize = 100;

/// Where a record goes wrong and why: shown as `LINE:COLUMN: message`, to be prefixed with the
/// file name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for RecordError {}

/// Quotes text copied from a record into a message: control characters (and every other
/// character a terminal could take for a command) escaped, long text cut short.
#[must_use]
pub fn quote(text: &str) -> String {
    let mut out = String::from("\"");
    for (i, ch) in text.chars().enumerate() {
        if i == QUOTE_LIMIT {
            out.push('…');
            break;
        }
        out.extend(ch.escape_debug());
    }
    out.push('"');
    out
}

/// A token with its place in the text.
struct Token<'a> {
    text: &'a str,
    line: usize,
    column: usize,
}

impl Token<'_> {
    fn error(&self, message: impl Into<String>) -> RecordError {
        RecordError {
            line: self.line,
            column: self.column,
            message: message.into(),
        }
    }
}

/// The tokens of one line, comments removed, with their columns counted in characters.
fn tokens(line: &str, line_number: usize) -> Vec<Token<'_>> {
    let line = line.split('#').next().unwrap_or_default();
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    let mut column = 0;
    for (byte, ch) in line.char_indices() {
        column += 1;
        match (ch.is_whitespace(), start) {
            (false, None) => start = Some((byte, column)),
            (true, Some((from, col))) => {
                out.push(Token {
                    text: &line[from..byte],
                    line: line_number,
                    column: col,
                });
                start = None;
            }
            _ => {}
        }
    }
    if let Some((from, col)) = start {
        out.push(Token {
            text: &line[from..],
            line: line_number,
            column: col,
        });
    }
    out
}

/// The header names docs/records.md knows.
const HEADERS: [&str; 6] = ["game", "size", "pie", "pieces", "player1", "player2"];

/// Whether a line starting with `word` is meant as a header: a word that is no action.
fn looks_like_header(word: &str) -> bool {
    player_header(word).is_some()
        || (word.len() >= 2
            && word.chars().all(|c| c.is_ascii_alphabetic())
            && Action::parse(word).is_err())
}

/// The player a `player1` or `player2` header names: 0 for the first, 1 for the second.
fn player_header(word: &str) -> Option<usize> {
    match word.to_ascii_lowercase().as_str() {
        "player1" => Some(0),
        "player2" => Some(1),
        _ => None,
    }
}

/// Reads the text of a player header: everything after its name to the end of `line` (a `#`
/// included: the text is free), trimmed; at most [`PLAYER_LIMIT`] characters, no control
/// characters.
fn player_text(line: &str, name: &Token<'_>) -> Result<String, RecordError> {
    let key = name.text.to_ascii_lowercase();
    let start = line
        .char_indices()
        .nth(name.column - 1)
        .map_or(line.len(), |(byte, _)| byte + name.text.len());
    let raw = &line[start..];
    let text = raw.trim();
    // The column of the text's first character, counted from the start of the line.
    let first = name.column + name.text.chars().count() + raw.chars().count()
        - raw.trim_start().chars().count();
    if text.is_empty() {
        return Err(name.error(format!("header {key} needs a text: who played")));
    }
    if let Some((i, c)) = text.chars().enumerate().find(|(_, c)| c.is_control()) {
        return Err(RecordError {
            line: name.line,
            column: first + i,
            message: format!(
                "header {key} holds a control character ({})",
                c.escape_debug()
            ),
        });
    }
    let count = text.chars().count();
    if count > PLAYER_LIMIT {
        return Err(name.error(format!(
            "header {key} is {count} characters long; at most {PLAYER_LIMIT} are allowed"
        )));
    }
    Ok(text.to_string())
}

/// The headers read so far, each with the token that gave it.
#[derive(Default)]
struct Headers<'a> {
    game: Option<(Game, Token<'a>)>,
    size: Option<(u64, Token<'a>)>,
    pie: Option<(bool, Token<'a>)>,
    pieces: Option<(u64, Token<'a>)>,
}

impl<'a> Headers<'a> {
    fn read(&mut self, line: &[Token<'a>]) -> Result<(), RecordError> {
        let name = &line[0];
        let key = name.text.to_ascii_lowercase();
        if !HEADERS.contains(&key.as_str()) {
            return Err(name.error(format!(
                "unknown header {} (known: {})",
                quote(name.text),
                HEADERS.join(", ")
            )));
        }
        let [_, value] = line else {
            let at = line.get(2).unwrap_or(name);
            return Err(at.error(format!("header {key} takes exactly one value")));
        };
        let twice = || name.error(format!("header {key} is given twice"));
        match key.as_str() {
            "game" => {
                let game = Game::from_name(value.text).ok_or_else(|| {
                    value.error(format!(
                        "unknown game {} (known: {})",
                        quote(value.text),
                        Game::ALL.map(Game::name).join(", ")
                    ))
                })?;
                if self.game.is_some() {
                    return Err(twice());
                }
                self.game = Some((game, Token { ..*value }));
            }
            "size" | "pieces" => {
                if !value.text.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(
                        value.error(format!("{key} {} is not a whole number", quote(value.text)))
                    );
                }
                // Too many digits for u64 is simply out of range.
                let number = value.text.parse().unwrap_or(u64::MAX);
                let slot = if key == "size" {
                    &mut self.size
                } else {
                    &mut self.pieces
                };
                if slot.is_some() {
                    return Err(twice());
                }
                *slot = Some((number, Token { ..*value }));
            }
            "pie" => {
                let pie = match value.text.to_ascii_lowercase().as_str() {
                    "on" => true,
                    "off" => false,
                    _ => {
                        return Err(
                            value.error(format!("pie takes on or off, not {}", quote(value.text)))
                        );
                    }
                };
                if self.pie.is_some() {
                    return Err(twice());
                }
                self.pie = Some((pie, Token { ..*name }));
            }
            // Every name of HEADERS is handled above.
            _ => return Err(name.error(format!("unknown header {}", quote(name.text)))),
        }
        Ok(())
    }

    fn is_empty(&self) -> bool {
        self.game.is_none() && self.size.is_none() && self.pie.is_none()
    }

    fn setup(&self) -> Result<Setup, RecordError> {
        let game = self.game.as_ref().map_or(Game::Quentin, |(g, _)| *g);
        let mut setup = Setup::new(game);
        if let Some((size, token)) = &self.size {
            setup.size = Setup::check_size(game, *size).map_err(|e| token.error(e.to_string()))?;
        }
        if let Some((pie, token)) = &self.pie {
            if !game.has_pie() {
                return Err(
                    token.error(format!("header pie is not for {game}: it has no pie rule"))
                );
            }
            setup.pie = *pie;
        }
        if let Some((pieces, token)) = &self.pieces {
            if game.piece_options().is_empty() {
                return Err(token.error(format!("header pieces is not for {game}")));
            }
            setup.pieces =
                Setup::check_pieces(game, *pieces).map_err(|e| token.error(e.to_string()))?;
        }
        Ok(setup)
    }
}

impl Record {
    /// A record of `actions` played from `setup`.
    ///
    /// # Errors
    /// When the setup is invalid or an action is illegal, as [`Record::parse`] would say it
    /// (line and column then count one action per line after the header lines that
    /// [`write()`] puts first).
    pub fn new(setup: Setup, actions: Vec<Action>) -> Result<Record, RecordError> {
        Record::parse(
            &Record {
                setup,
                players: Players::default(),
                actions,
            }
            .to_text(),
        )
    }

    /// This record with its `player1` and `player2` headers set to `players`.
    ///
    /// # Errors
    /// When a text is empty, too long or holds a control character, as [`Record::parse`] would
    /// say it.
    pub fn with_players(self, players: Players) -> Result<Record, RecordError> {
        Record::parse(&write_players(self.setup, &players, &self.actions))
    }

    /// Reads a record from raw bytes, which must be UTF-8 text.
    ///
    /// # Errors
    /// As [`Record::parse`], and for bytes that are not UTF-8.
    pub fn parse_bytes(bytes: &[u8]) -> Result<Record, RecordError> {
        match std::str::from_utf8(bytes) {
            Ok(text) => Record::parse(text),
            Err(e) => {
                let good = &bytes[..e.valid_up_to()];
                // The prefix is valid UTF-8 by construction.
                let text = std::str::from_utf8(good).unwrap_or_default();
                let line = text.matches('\n').count() + 1;
                let column = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
                Err(RecordError {
                    line,
                    column,
                    message: format!(
                        "the record is not UTF-8 text (byte 0x{:02x})",
                        bytes[e.valid_up_to()]
                    ),
                })
            }
        }
    }

    /// Reads a record strictly: the first problem stops it.
    ///
    /// A record needs at least one header or action: an empty file (or one holding only
    /// comments) is refused, since it is far more likely a truncated or wrong file than a game.
    ///
    /// # Errors
    /// A [`RecordError`] with the line and column of the problem: an unknown or repeated header,
    /// a header after the first action, a size out of range, an empty record, a token that is no action, a point
    /// off the board, an illegal action, an action after the game ended.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut headers = Headers::default();
        let mut players = Players::default();
        let mut position: Option<Position> = None;
        let mut actions = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let line_tokens = tokens(line, index + 1);
            let Some(first) = line_tokens.first() else {
                continue;
            };
            if looks_like_header(first.text) {
                if position.is_some() && HEADERS.contains(&first.text.to_ascii_lowercase().as_str())
                {
                    return Err(first.error(format!(
                        "header {} comes after the first action",
                        first.text.to_ascii_lowercase()
                    )));
                }
                if position.is_none() {
                    if let Some(i) = player_header(first.text) {
                        if players[i].is_some() {
                            return Err(first.error(format!(
                                "header {} is given twice",
                                first.text.to_ascii_lowercase()
                            )));
                        }
                        players[i] = Some(player_text(line, first)?);
                    } else {
                        headers.read(&line_tokens)?;
                    }
                    continue;
                }
            }
            for token in &line_tokens {
                if is_move_number(token.text) {
                    continue;
                }
                let pos = match &mut position {
                    Some(pos) => pos,
                    None => {
                        let setup = headers.setup()?;
                        // A checked setup always starts.
                        let start = setup.start().map_err(|e| token.error(e.to_string()))?;
                        position.insert(start)
                    }
                };
                let action = play_token(pos, token, actions.len() + 1)?;
                actions.push(action);
            }
        }
        let setup = match &position {
            Some(pos) => pos.setup(),
            None if headers.is_empty() && players.iter().all(Option::is_none) => {
                return Err(RecordError {
                    line: 1,
                    column: 1,
                    message: "the record is empty: it has no header and no action".into(),
                });
            }
            None => headers.setup()?,
        };
        Ok(Record {
            setup,
            players,
            actions,
        })
    }

    /// Who played, as the `player1` and `player2` headers say.
    #[must_use]
    pub fn players(&self) -> &Players {
        &self.players
    }

    /// The game and its options.
    #[must_use]
    pub fn setup(&self) -> Setup {
        self.setup
    }

    /// The actions, in order.
    #[must_use]
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// The position before the first action.
    fn start(&self) -> Position {
        // A record only exists once its setup started and its actions played (see `parse`).
        match self.setup.start() {
            Ok(start) => start,
            Err(e) => unreachable!("a parsed record has a valid setup: {e}"),
        }
    }

    /// The game's line of play: every position, each action played once, all shown.
    #[must_use]
    pub fn line(&self) -> GameLine {
        match GameLine::replay(self.start(), &self.actions) {
            Ok(line) => line,
            Err(stopped) => unreachable!("a parsed record holds only legal actions: {stopped:?}"),
        }
    }

    /// The position after the first `n` actions (all of them when `n` is larger); the
    /// positions between are not kept.
    #[must_use]
    pub fn position_at(&self, n: usize) -> Position {
        let actions = &self.actions[..n.min(self.actions.len())];
        match GameLine::play_out(self.start(), actions) {
            Ok(position) => position,
            Err((_, e)) => unreachable!("a parsed record holds only legal actions: {e}"),
        }
    }

    /// The position after every action.
    #[must_use]
    pub fn final_position(&self) -> Position {
        self.position_at(self.actions.len())
    }

    /// The record as text: the headers, then one action per line.
    #[must_use]
    pub fn to_text(&self) -> String {
        write_players(self.setup, &self.players, &self.actions)
    }
}

/// Writes a record: headers first (Quint: `game` and `pieces`; the other games: `game`, `size`
/// and `pie`), then one action per line.
#[must_use]
pub fn write(setup: Setup, actions: &[Action]) -> String {
    write_players(setup, &Players::default(), actions)
}

/// Writes a record as [`write()`] does, with the `player1` and `player2` headers of `players`
/// after the others.
#[must_use]
pub fn write_players(setup: Setup, players: &Players, actions: &[Action]) -> String {
    let mut out = if setup.game.piece_options().is_empty() {
        format!(
            "game {}\nsize {}\npie {}\n",
            setup.game,
            setup.size,
            if setup.pie { "on" } else { "off" }
        )
    } else {
        format!("game {}\npieces {}\n", setup.game, setup.pieces)
    };
    for (i, player) in players.iter().enumerate() {
        if let Some(text) = player {
            out.push_str(&format!("player{} {text}\n", i + 1));
        }
    }
    for action in actions {
        out.push_str(&action.to_string());
        out.push('\n');
    }
    out
}

/// A move number such as `12.`, which records may hold and readers ignore.
fn is_move_number(token: &str) -> bool {
    token
        .strip_suffix('.')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Reads one action token and plays it as action number `number`.
fn play_token(pos: &mut Position, token: &Token<'_>, number: usize) -> Result<Action, RecordError> {
    let action = match Action::parse(token.text) {
        Ok(action) => action,
        Err(ParseActionError::NotAnAction) => {
            return Err(token.error(format!(
                "action {number}: {} is not an action ({})",
                quote(token.text),
                pos.game().action_examples()
            )));
        }
        Err(ParseActionError::OffEveryBoard) => {
            return Err(token.error(format!(
                "action {number}: {} is off the {n}×{n} board",
                quote(token.text),
                n = pos.size()
            )));
        }
        Err(e) => {
            return Err(token.error(format!(
                "action {number}: {} is not an action: {e}",
                quote(token.text)
            )));
        }
    };
    if let Some(outcome) = pos.outcome() {
        let result = match outcome.winner() {
            Some(color) => format!("{color} won"),
            None => "drawn".to_string(),
        };
        return Err(token.error(format!(
            "action {number} ({action}) comes after the game ended ({result} at action {})",
            number - 1
        )));
    }
    let color = pos.to_move().map_or("", |c| c.name());
    if let Some(p) = action.points().find(|&p| !pos.board().contains(p)) {
        return Err(token.error(format!(
            "action {number} ({color} {action}): {p} is off the {n}×{n} board",
            n = pos.size()
        )));
    }
    pos.play(action).map_err(|reason| {
        token.error(format!(
            "action {number} ({color} {action}) is illegal: {reason}"
        ))
    })?;
    Ok(action)
}
