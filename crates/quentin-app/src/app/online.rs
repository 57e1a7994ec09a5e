//! A game played over the network, as the app sees it: one seat is this session's (or none, for
//! a watcher), the other player's actions arrive from the server, and nothing is played on the
//! board until the server has committed it. The app does not know where its events come from or
//! where its requests go: its front end (the server's session) carries out the [`Request`]s of its
//! outbox ([`Effect::Send`](super::Effect::Send)) and brings back what the server holds
//! ([`Input::Server`](super::Input::Server)).

use crate::game_line::GameLine;
use crate::rules::{Action, Color, Position};

use super::{App, Effect, Mode, Pick, player_of};

/// What the player asks of the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// Play this action.
    Play(Action),
    /// Resign the game.
    Resign,
    /// Ask to take the last action back, or agree to the opponent's asking.
    Takeback,
    /// Decline the opponent's asking to take the last action back.
    Decline,
}

/// How an online game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finish {
    /// The seat won, as said (`by connection`, `on time`, `by resignation`).
    Won(usize, String),
    /// A draw, as said (`by repetition`).
    Drawn(String),
    /// The seat made no first move in time (or resigned before it): the game is aborted, no
    /// one wins and it is not rated.
    Aborted(usize),
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
    /// The seat that asks to take the last action back.
    pub takeback: Option<usize>,
    /// Whether each player has a session open on the server.
    pub connected: [bool; 2],
    /// How many others watch the game.
    pub watchers: usize,
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

    /// The result from this viewer's side: `You win on time`, `You lose by connection`,
    /// `alice wins by resignation`, `Draw by repetition`, `Game aborted: bob made no first
    /// move`.
    #[must_use]
    pub fn result_text(&self) -> Option<String> {
        Some(match self.result.as_ref()? {
            Finish::Won(seat, how) => match self.seat {
                Some(me) if me == *seat => format!("You win {how}"),
                Some(_) => format!("You lose {how}"),
                None => format!("{} wins {how}", self.names[*seat]),
            },
            Finish::Drawn(how) => format!("Draw {how}"),
            Finish::Aborted(seat) => {
                format!("Game aborted: {} made no first move", self.who(*seat))
            }
        })
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
            (Ok(Some(_)), _) => {
                self.info("The last action was taken back, as both players agreed.");
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
        } else if asked && online.takeback != seat && seat.is_some() {
            self.info("Your opponent asks to take the last action back: u agrees, d declines.");
        } else if let Some(text) = presence.filter(|_| online.result.is_none()) {
            self.info(text);
        }
        self.online.game = Some(online);
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
    pub(super) fn online_key(
        &mut self,
        command: super::super::commands::Command,
    ) -> Option<Effect> {
        use super::super::commands::Command as C;
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
                self.emit(Effect::Send(Request::Takeback));
                self.info(if agreeing {
                    "Agreed: the last action is taken back."
                } else {
                    "Takeback asked: your opponent may agree."
                });
            }
            C::Decline if playing && online.takeback.is_some_and(|s| Some(s) != online.seat) => {
                self.emit(Effect::Send(Request::Decline));
                self.info("Takeback declined.");
            }
            C::Decline if playing => self.warn("d declines a takeback: none is asked."),
            // A watcher's, or after the game: what the game's state allows is said instead.
            C::Resign | C::Undo | C::Decline => {
                self.online_busy();
            }
            C::Redo | C::NewGame | C::Hint | C::Analysis | C::PlayOn => {
                self.warn("Not in an online game.");
            }
            // Looking back at a finished game stays on the live board.
            C::Left | C::First if self.finished() => {}
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
