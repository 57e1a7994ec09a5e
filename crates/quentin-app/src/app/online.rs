//! A game played over the network, as the app sees it: one seat is this session's (or none, for
//! a watcher), the other player's actions arrive from the server, and nothing is played on the
//! board until the server has committed it. The app does not know where its events come from or
//! where its requests go: its front end (the server's session) carries out the [`Request`]s of its
//! outbox ([`Effect::Send`](super::Effect::Send)) and brings back what the server holds
//! ([`Input::Server`](super::Input::Server)).

use crate::game_end::{Aborted, GameEnd, How, Seat};
use crate::game_line::{GameLine, seat_of, takeback_len};
use crate::rules::{Action, Color, Position};

use super::{App, Effect, Mode, Pick, player_of};

/// What the player asks of the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// Play this action.
    Play(Action),
    /// Resign the game.
    Resign,
    /// Ask to take one's last action back (with the opponent's reply after it, if any), or
    /// agree to the opponent's asking.
    Takeback,
    /// Decline the opponent's asking to take back.
    Decline,
    /// Abort the game, before both players have made a first move.
    Abort,
    /// Offer a rematch once the game is over, or accept the opponent's offer.
    Rematch,
}

/// How an online game ended, as its screens say it: the ending (the record crate's
/// [`GameEnd`], the type the server keeps) with what names its seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finish {
    /// How it ended: who won (by colour) and how, a draw, or why it was aborted.
    pub end: GameEnd,
    /// The seat that plays Black at the end (the second after a swap): the winner's seat.
    pub black: Seat,
    /// How many actions were played: in a game aborted for no first move, the seat that made
    /// none ([`Seat::first_idle`]).
    pub actions: usize,
}

/// The edges a colour joins in the connection games.
#[must_use]
pub fn edges(color: Color) -> &'static str {
    match color {
        Color::Black => "top and bottom",
        Color::White => "left and right",
    }
}

impl Finish {
    /// The winner's seat, if one won.
    #[must_use]
    pub fn winner(&self) -> Option<usize> {
        self.end.winner().map(|by| self.seat_of(by))
    }

    /// The seat that plays `color` at the end.
    #[must_use]
    pub fn seat_of(&self, color: Color) -> usize {
        match color {
            Color::Black => self.black.index(),
            Color::White => self.black.other().index(),
        }
    }

    /// [`Finish::text`], a game of `tournament` (in words) said as what it is there: a first
    /// move not made is a forfeit, `You made no first move: you lose by forfeit (tournament
    /// t7, round 2)`.
    #[must_use]
    pub fn text_in(
        &self,
        names: &[String; 2],
        viewer: Option<usize>,
        tournament: Option<&str>,
    ) -> String {
        match (self.end, tournament) {
            (GameEnd::Aborted(Aborted::NoFirstMove), Some(tournament)) => {
                let idle = Seat::first_idle(self.actions).index();
                let who = if viewer == Some(idle) {
                    "You".to_string()
                } else {
                    names[idle].clone()
                };
                let outcome = match viewer {
                    Some(me) if me == idle => "you lose".to_string(),
                    Some(_) => "you win".to_string(),
                    None => format!("{} wins", names[1 - idle]),
                };
                format!("{who} made no first move: {outcome} by forfeit ({tournament})")
            }
            _ => self.text(names, viewer),
        }
    }

    /// The result in words, `viewer` (a seat, or none for a watcher) addressed as `you`:
    /// `bob joined top and bottom: you lose`, `You win on time`, `alice resigned: bob wins`,
    /// `Draw by repetition`, `Game aborted: bob made no first move`.
    #[must_use]
    pub fn text(&self, names: &[String; 2], viewer: Option<usize>) -> String {
        let who = |seat: usize| {
            if viewer == Some(seat) {
                "you".to_string()
            } else {
                names[seat].clone()
            }
        };
        match self.end {
            GameEnd::Won { by, how } => won_text(names, viewer, self.seat_of(by), by, how),
            GameEnd::Drawn(_) => "Draw by repetition".to_string(),
            GameEnd::Aborted(Aborted::NoFirstMove) => format!(
                "Game aborted: {} made no first move",
                who(Seat::first_idle(self.actions).index())
            ),
            GameEnd::Aborted(Aborted::Asked(None)) => {
                "Game aborted before both had moved".to_string()
            }
            GameEnd::Aborted(Aborted::Asked(Some(seat))) => {
                format!(
                    "Game aborted by {} before both had moved",
                    who(seat.index())
                )
            }
            GameEnd::Aborted(Aborted::TooShort) => {
                "Game aborted: too short to be rated".to_string()
            }
            GameEnd::Aborted(Aborted::ByOperator) => {
                "Game aborted by the server's operators".to_string()
            }
        }
    }
}

/// A won game's result in words: `seat`, playing `color`, won `how`.
fn won_text(
    names: &[String; 2],
    viewer: Option<usize>,
    seat: usize,
    color: Color,
    how: How,
) -> String {
    let upper = |seat: usize| {
        if viewer == Some(seat) {
            "You".to_string()
        } else {
            names[seat].clone()
        }
    };
    let loser = 1 - seat;
    // What happened, and who it was done by.
    let (done, by) = match how {
        How::Connection => (format!("joined {}", edges(color)), seat),
        How::Quint => ("made a quint".to_string(), seat),
        How::NoPieceLeft => ("had no piece left".to_string(), loser),
        How::NoLegalAction => ("had no legal action".to_string(), loser),
        How::Time => ("ran out of time".to_string(), loser),
        How::Resignation => ("resigned".to_string(), loser),
        How::Forfeit => ("forfeits".to_string(), loser),
    };
    match viewer {
        Some(me) if me == seat => format!("{} {done}: you win", upper(by)),
        Some(_) => format!("{} {done}: you lose", upper(by)),
        None if by == seat => format!("{} {done} and wins", names[seat]),
        None => format!("{} {done}: {} wins", names[by], names[seat]),
    }
}

/// An online game's state beside the board: who plays, their clocks, the result.
#[derive(Clone, Debug, PartialEq)]
pub struct Online {
    /// This session's seat (0: player 1, who moved first); `None` for a watcher.
    pub seat: Option<usize>,
    /// The players' names, player 1 first.
    pub names: [String; 2],
    /// Their ratings at this game, as shown (`1500?` while provisional).
    pub ratings: [String; 2],
    /// What the game changed each rating by, once a rated game is over.
    pub changes: Option<[i64; 2]>,
    /// The time control, in words.
    pub clock: String,
    /// Milliseconds left on each clock when the server last said.
    pub left: [i64; 2],
    /// Below this many milliseconds a running clock is low on time (0: never).
    pub low: i64,
    /// The seat whose clock runs.
    pub running: Option<usize>,
    /// Rated or casual.
    pub rated: bool,
    /// How it ended, once over.
    pub result: Option<Finish>,
    /// The seat that asks to take back (its last action, and the reply after it if any).
    pub takeback: Option<usize>,
    /// Milliseconds left for the running seat's first move, while it has made none: past it
    /// the game is aborted.
    pub first_move: Option<i64>,
    /// The seat that offers a rematch, once the game is over.
    pub rematch: Option<usize>,
    /// Whether each player has a session open on the server.
    pub connected: [bool; 2],
    /// How many others watch the game.
    pub watchers: usize,
    /// The tournament it is a game of, in words (`tournament t7, round 2`), if any.
    pub tournament: Option<String>,
}

impl Online {
    /// Who seat `seat` is to this viewer: `you`, or their name.
    #[must_use]
    pub fn who(&self, seat: usize) -> &str {
        if self.seat == Some(seat) {
            "you"
        } else {
            &self.names[seat]
        }
    }

    /// The result from this viewer's side ([`Finish::text`]).
    #[must_use]
    pub fn result_text(&self) -> Option<String> {
        Some(
            self.result
                .as_ref()?
                .text_in(&self.names, self.seat, self.tournament.as_deref()),
        )
    }

    /// Whether the viewer lost the game (a banner without stars).
    #[must_use]
    pub fn viewer_lost(&self) -> bool {
        match (self.result, self.seat) {
            (Some(finish), Some(me)) => finish.winner().is_some_and(|w| w != me),
            _ => false,
        }
    }

    /// The viewer's rating change after a rated game, in words: `Your rating: 1512? (+12)`;
    /// a watcher's: both players'.
    #[must_use]
    pub fn change_text(&self) -> Option<String> {
        let changes = self.changes?;
        let signed = |n: i64| {
            if n < 0 {
                n.to_string()
            } else {
                format!("+{n}")
            }
        };
        Some(match self.seat {
            Some(me) => format!(
                "Your rating: {} ({})",
                self.ratings[me],
                signed(changes[me])
            ),
            None => format!(
                "{} {} ({}), {} {} ({})",
                self.names[0],
                self.ratings[0],
                signed(changes[0]),
                self.names[1],
                self.ratings[1],
                signed(changes[1])
            ),
        })
    }

    /// Whether the clock of `seat` runs low.
    #[must_use]
    pub fn low_on_time(&self, seat: usize) -> bool {
        self.result.is_none() && self.running == Some(seat) && self.left[seat] < self.low
    }
}

impl App {
    /// An online game, from what the server holds.
    #[must_use]
    pub fn online(line: GameLine, online: Online, look: super::Look) -> App {
        let mut app = App::from_line(line, Mode::Play, look);
        app.seats.players = [Some(online.names[0].clone()), Some(online.names[1].clone())];
        app.online.game = Some(online);
        app
    }

    /// Lets the player review the game once it is over (`v`): the front end (a server that
    /// runs reviews) runs the review's searches, and no other.
    pub fn allow_reviews(&mut self) {
        self.computer.behind = true;
    }

    /// The online game's state, when this is one.
    #[must_use]
    pub fn online_state(&self) -> Option<&Online> {
        self.online.game.as_ref()
    }

    /// Brings the game to what the server holds: its actions (new ones played here, taken
    /// back ones removed) and the state beside the board. Said in the message when the
    /// opponent played.
    pub(crate) fn sync_online(&mut self, actions: &[Action], online: Online) {
        let old_len = self.line.actions().len();
        let caught = self.line.catch_up(actions);
        if !matches!(caught, Ok(None)) {
            self.screen.follow_line();
        }
        match (caught, self.line.last_played()) {
            (Ok(None), _) => {}
            (Ok(Some(caught)), Some(last)) if caught.added > 0 => {
                let n = self.current();
                let text = played_text(
                    &online,
                    self.line.position_at(n - 1),
                    self.line.position(),
                    last,
                );
                self.info(text);
            }
            (Ok(Some(caught)), _) => {
                self.info(match caught.dropped {
                    1 => "1 action was taken back, as both players agreed.".to_string(),
                    n => format!("{n} actions were taken back, as both players agreed."),
                });
            }
            // The hub commits only what the rules accept: this would be the server's fault.
            (Err(reason), _) => self.warn(format!(
                "The server's game holds an action the rules refuse ({reason}): the board \
                 shows the game before it."
            )),
        }
        let asked = online.takeback.is_some()
            && online.takeback != self.online.game.as_ref().and_then(|o| o.takeback);
        let ended = online.result.is_some()
            && self
                .online
                .game
                .as_ref()
                .is_some_and(|o| o.result.is_none());
        let rematch_offered = online.rematch.is_some()
            && online.rematch != self.online.game.as_ref().and_then(|o| o.rematch);
        let seat = online.seat;
        // One's own asking gone with no action taken back: the opponent said no.
        let declined = seat.is_some()
            && online.takeback.is_none()
            && self
                .online
                .game
                .as_ref()
                .is_some_and(|o| o.takeback == seat)
            && self.line.actions().len() == old_len
            && online.result.is_none();
        let presence = match (seat, &self.online.game) {
            (Some(me), Some(before)) if before.connected[1 - me] != online.connected[1 - me] => {
                Some(if online.connected[1 - me] {
                    format!("{} is back.", online.names[1 - me])
                } else {
                    format!(
                        "{} left the game; it waits for them, their clock running.",
                        online.names[1 - me]
                    )
                })
            }
            _ => None,
        };
        if let Some(result) = online.result_text().filter(|_| ended) {
            // After the move that ended it, when one did.
            let played = match (old_len != self.line.actions().len(), self.message()) {
                (true, Some(message)) => format!("{} ", message.text),
                _ => String::new(),
            };
            self.info(format!("{played}{result}."));
        } else if declined {
            self.info("Your opponent declined the takeback.");
        } else if let Some(asker) = online.takeback.filter(|&a| asked && Some(a) != seat) {
            let what = self.takeback_words(&online, asker);
            let text = if seat.is_some() {
                format!(
                    "{} asks to take back {what}: u agrees, d declines.",
                    online.names[asker]
                )
            } else {
                format!("{} asks to take back {what}.", online.names[asker])
            };
            self.info(text);
        } else if rematch_offered && online.rematch != seat && seat.is_some() {
            self.info(format!(
                "{} offers a rematch: n accepts.",
                online.names[1 - seat.unwrap_or(0)]
            ));
        } else if let Some(text) = presence.filter(|_| online.result.is_none()) {
            self.info(text);
        }
        self.online.game = Some(online);
    }

    /// How many actions a takeback asked by `asker` would take back, in words: `2 actions`.
    #[must_use]
    pub fn takeback_count(&self, asker: usize) -> String {
        match takeback_len(self.line.start(), self.line.actions(), asker) {
            1 => "1 action".to_string(),
            n => format!("{n} actions"),
        }
    }

    /// The actions a takeback asked by `asker` would take back, in words: `2 actions (e4 by
    /// you, c4 by bob)`.
    pub(crate) fn takeback_words(&self, online: &Online, asker: usize) -> String {
        let actions = self.line.actions();
        let n = takeback_len(self.line.start(), actions, asker);
        let listed: Vec<String> = (actions.len() - n..actions.len())
            .map(|i| {
                let before = self.line.position_at(i);
                let by = before.to_move().map_or(asker, |c| seat_of(before, c));
                format!("{} by {}", actions[i], online.who(by))
            })
            .collect();
        format!("{} ({})", self.takeback_count(asker), listed.join(", "))
    }

    /// Whether the online game waits for somebody else (the opponent, or always for a
    /// watcher); says so.
    pub(super) fn online_busy(&mut self) -> bool {
        let Some(online) = &self.online.game else {
            return false;
        };
        let text = match (online.seat, online.result_text()) {
            (_, Some(result)) => format!("The game is over: {result}. q goes back to the lobby."),
            (None, None) => "You are watching this game: q goes back to the lobby.".to_string(),
            (Some(seat), None) if !self.my_turn(seat) => {
                "Not your turn: wait for your opponent's move.".to_string()
            }
            _ => return false,
        };
        self.warn(text);
        true
    }

    pub(super) fn my_turn(&self, seat: usize) -> bool {
        let position = self.position();
        position
            .to_move()
            .is_some_and(|c| usize::from(player_of(position, c)) == seat + 1)
    }

    /// An action of this session's player, sent to the server once the rules allow it here;
    /// it is played on the board when the server has it.
    pub(super) fn online_act(&mut self, action: Action) -> Effect {
        if self.online_busy() {
            return Effect::None;
        }
        match self.position().preview(action) {
            Ok(_) => {
                self.emit(Effect::Send(Request::Play(action)));
                self.screen.pick = Pick::Nothing;
                self.info(format!("Sending {action}…"));
            }
            Err(reason) => {
                let mover = self.position().to_move().map_or("", Color::capitalised);
                self.warn(format!(
                    "{mover} cannot play {action}: {}.",
                    super::refusal_text(&reason)
                ));
            }
        }
        Effect::None
    }

    /// The keys that mean something else online: `u` asks for a takeback, `R` resigns (twice),
    /// and what a local game offers beside (redo, new game, hints) is not offered. `None` for
    /// the keys that work as in a local game.
    pub(super) fn online_key(&mut self, command: crate::commands::Command) -> Option<Effect> {
        use crate::commands::Command as C;
        let online = self.online.game.as_ref()?;
        let resigning = std::mem::take(&mut self.online.resign_asked);
        let playing = online.seat.is_some() && online.result.is_none();
        match command {
            C::Resign if playing && resigning => {
                self.emit(Effect::Send(Request::Resign));
                self.info("Resigning…");
            }
            C::Resign if playing => {
                self.online.resign_asked = true;
                self.warn("Press R again to resign this game.");
            }
            C::Undo if playing && online.rated => self.warn("A rated game has no takebacks."),
            C::Undo if playing => {
                let agreeing = online.takeback.is_some() && online.takeback != online.seat;
                let online = online.clone();
                let me = online.seat.unwrap_or(0);
                let asker = if agreeing { 1 - me } else { me };
                if takeback_len(self.line.start(), self.line.actions(), asker) == 0 {
                    self.warn("Nothing to take back: you have not moved yet.");
                    return Some(Effect::None);
                }
                let what = self.takeback_words(&online, asker);
                self.emit(Effect::Send(Request::Takeback));
                self.info(if agreeing {
                    format!("Agreed: {what} taken back.")
                } else {
                    format!(
                        "Takeback asked: {what}; {} may agree.",
                        online.names[1 - me]
                    )
                });
            }
            C::Abort if playing && self.line.actions().len() < 2 => {
                self.emit(Effect::Send(Request::Abort));
                self.info("Aborting the game…");
            }
            C::Abort if playing => {
                self.warn(
                    "Both players have moved: the game can no longer be aborted (R resigns).",
                );
            }
            C::NewGame if online.seat.is_some() && online.tournament.is_some() => {
                self.warn("A tournament game has no rematch: the tournament pairs the next.");
            }
            C::NewGame if online.seat.is_some() && online.result.is_some() => {
                let accepting = online.rematch.is_some() && online.rematch != online.seat;
                self.emit(Effect::Send(Request::Rematch));
                self.info(if accepting {
                    "Rematch accepted: the new game opens…"
                } else {
                    "Rematch offered: the new game starts when your opponent accepts (n)."
                });
            }
            C::Decline if playing && online.takeback.is_some_and(|s| Some(s) != online.seat) => {
                self.emit(Effect::Send(Request::Decline));
                self.info("Takeback declined.");
            }
            C::Decline if playing => self.warn("d declines a takeback: none is asked."),
            C::Decline
                if online.seat.is_some()
                    && online.result.is_some()
                    && online.rematch.is_some_and(|s| Some(s) != online.seat) =>
            {
                self.emit(Effect::Send(Request::Decline));
                self.info("Rematch declined.");
            }
            // A watcher's, or after the game: what the game's state allows is said instead.
            C::Resign | C::Undo | C::Decline | C::Abort | C::NewGame => {
                self.online_busy();
            }
            C::Redo | C::Hint | C::Analysis | C::PlayOn => {
                self.warn("Not in an online game.");
            }
            C::Puzzles => {
                self.warn("Not in an online game: the lobby's p opens the puzzles.");
            }
            // Stepping back through a finished game, as in a replay.
            C::Left if self.finished() => {
                return Some(self.review(self.current().saturating_sub(1)));
            }
            C::First if self.finished() => return Some(self.review(0)),
            _ => return None,
        }
        Some(Effect::None)
    }

    /// The keys of a finished online game looked over as a replay that mean something else
    /// than in a local replay; `None` for those that work as there (stepping, the review).
    pub(super) fn online_replay_key(
        &mut self,
        command: crate::commands::Command,
    ) -> Option<Effect> {
        use crate::commands::Command as C;
        self.online.game.as_ref()?;
        match command {
            C::NewGame => return self.online_key(command),
            C::PlayOn | C::Hint | C::Analysis | C::Redo => {
                self.warn("Not in an online game: record ID over ssh takes the record home.");
            }
            C::Play
            | C::Select
            | C::Swap
            | C::Capture
            | C::Undo
            | C::Resign
            | C::Decline
            | C::Abort => {
                self.online_busy();
            }
            _ => return None,
        }
        Some(Effect::None)
    }

    /// When this session's player must pass (no legal placement), the pass to send.
    pub(crate) fn forced_pass(&mut self) {
        let Some(seat) = self.online.game.as_ref().and_then(|o| o.seat) else {
            return;
        };
        if self
            .online
            .game
            .as_ref()
            .is_some_and(|o| o.result.is_none())
            && self.my_turn(seat)
            && self.position().legal_actions() == [Action::Pass]
            && !self
                .outbox
                .contains(&Effect::Send(Request::Play(Action::Pass)))
        {
            self.emit(Effect::Send(Request::Play(Action::Pass)));
            self.info("You have no legal placement and pass.");
        }
    }
}

/// What the news of an action says: `You played c3.`, `bob played c3.`, `bob swapped: bob
/// now plays Black.`
fn played_text(online: &Online, before: &Position, after: &Position, action: Action) -> String {
    let Some(color) = before.to_move() else {
        return format!("{action} was played.");
    };
    let seat = usize::from(player_of(before, color)) - 1;
    let who = online.who(seat);
    let you = online.seat == Some(seat);
    // A sentence begins with `You`; a name is written as its player wrote it.
    let who_upper = if you { "You" } else { who };
    match action {
        Action::Swap => {
            let now = [Color::Black, Color::White]
                .into_iter()
                .find(|&c| usize::from(player_of(after, c)) - 1 == seat)
                .unwrap_or(color);
            let play = if you { "play" } else { "plays" };
            format!(
                "{who_upper} swapped colours: {who} now {play} {}.",
                now.capitalised()
            )
        }
        Action::Pass => format!("{who_upper} passed."),
        _ => format!("{who_upper} played {action}."),
    }
}
