//! The puzzle screen, from the lobby (`p`): the board as in a game (the game's own app and
//! renderer, the puzzle as an online game against "puzzle"), what to achieve, the player's
//! move entered as in a game; each move is judged by the server as a bot's `solve` is
//! ([`puzzles::solve`]): right, the reply played; solved or wrong, the refutation played on
//! the board, the solution and both ratings said. `n` then gives the next puzzle, `q` goes
//! back to the lobby.

use std::convert::Infallible;

use quentin_app::app::{App, Effect, Input as AppInput, Look, Online, Request};
use quentin_app::game_line::GameLine;
use quentin_app::input::{Event, KeyCode, KeyEventKind};
use quentin_rules::Action;

use super::driver::{Glue, drive};
use super::{Next, Screen, notice};
use crate::Context;
use crate::channel::Inbox;
use crate::ids::{self, PlayerId};
use crate::puzzles::{self, Outcome, Served, change, goal_words, shown_puzzle_rating};
use crate::store::puzzles::Rated;

/// What the player did with one puzzle.
enum Done {
    /// The next puzzle, please.
    Next,
    /// Back to the lobby.
    Lobby,
    /// The client has gone.
    Quit,
}

/// Puzzles one after another, each the nearest to the player's puzzle rating among those not
/// tried, until the player goes back to the lobby.
pub(super) async fn puzzle_screen(
    ctx: &Context,
    me: &(PlayerId, String),
    from: Option<std::net::IpAddr>,
    screen: &mut Screen,
    input: &mut Inbox,
) -> Next {
    loop {
        let served = match puzzles::next(&ctx.hub, me.0, None).await {
            Ok(served) => served,
            Err(refusal) => {
                notice(screen, input, &format!("{refusal}. Press any key.")).await;
                return Next::Lobby;
            }
        };
        match one(ctx, me, from, served, screen, input).await {
            Done::Next => {}
            Done::Lobby => return Next::Lobby,
            Done::Quit => return Next::Quit,
        }
    }
}

/// The puzzle's state beside the board.
struct Seat {
    online: Online,
    /// The actions on the board: the setup, then the moves and replies.
    actions: Vec<Action>,
    /// The player's moves so far.
    moves: Vec<Action>,
    /// Whether it is solved or failed.
    over: bool,
}

/// One puzzle, until the player asks for the next or leaves.
async fn one(
    ctx: &Context,
    me: &(PlayerId, String),
    from: Option<std::net::IpAddr>,
    served: Served,
    screen: &mut Screen,
    input: &mut Inbox,
) -> Done {
    let puzzle = &served.puzzle;
    let (Ok(start), Ok(position)) = (puzzle.setup.start(), puzzle.position()) else {
        return Done::Lobby;
    };
    let Some(side) = position.to_move() else {
        return Done::Lobby;
    };
    let seat = ids::Seat::of(&position, side);
    let mine = puzzles::rating(&ctx.hub, me.0).await.unwrap_or_default();
    let mut names = [String::new(), String::new()];
    names[seat] = me.1.clone();
    names[seat.other()] = "puzzle".to_string();
    let mut ratings = [String::new(), String::new()];
    ratings[seat] = shown_puzzle_rating(&mine);
    ratings[seat.other()] = format!("{}", served.rating.rating.round() as i64);
    let goal = goal_words(puzzle);
    let online = Online {
        seat: Some(seat.index()),
        names,
        ratings,
        changes: None,
        clock: format!("puzzle: {goal}"),
        left: [0, 0],
        low: 0,
        running: Some(seat.index()),
        rated: true,
        result: None,
        takeback: None,
        first_move: None,
        rematch: None,
        connected: [true, true],
        watchers: 0,
        tournament: None,
    };
    let Ok(line) = GameLine::replay(start, &puzzle.line) else {
        return Done::Lobby;
    };
    let look = Look {
        ascii: false,
        color: screen.color,
    };
    let mut app = App::online(line, online.clone(), look);
    app.info(format!(
        "Puzzle {}: {} to move, {goal}. q goes back to the lobby.",
        puzzle.id,
        side.capitalised()
    ));
    let state = Seat {
        online,
        actions: puzzle.line.clone(),
        moves: Vec::new(),
        over: false,
    };
    let mut glue = Solving {
        ctx,
        me: me.0,
        from,
        served: &served,
        app,
        state,
    };
    drive(&mut glue, screen, input).await
}

/// A puzzle's screen on the server: the game's app, the player's moves judged by the server.
struct Solving<'a> {
    ctx: &'a Context,
    me: PlayerId,
    /// The address the player answers from: a solution shown near it leaves a puzzle unrated.
    from: Option<std::net::IpAddr>,
    served: &'a Served,
    app: App,
    state: Seat,
}

impl Glue for Solving<'_> {
    type Screen = App;
    type Done = Done;

    fn screen(&mut self) -> &mut App {
        &mut self.app
    }

    fn gone(&self) -> Done {
        Done::Quit
    }

    /// `n` on a puzzle solved or failed: the next one.
    fn before(&mut self, event: &Event) -> Option<Done> {
        let next = matches!(event, Event::Key(k) if k.kind == KeyEventKind::Press
            && k.code == KeyCode::Char('n'));
        (next && self.state.over).then_some(Done::Next)
    }

    async fn act(&mut self, effects: Vec<Effect>) -> Option<Done> {
        for effect in effects {
            match effect {
                Effect::Quit => return Some(Done::Lobby),
                Effect::Send(Request::Play(action)) => {
                    let (app, state) = (&mut self.app, &mut self.state);
                    answer(
                        self.ctx,
                        (self.me, self.from),
                        self.served,
                        app,
                        state,
                        action,
                    )
                    .await;
                }
                // A game's other requests (resign, takeback, abort, rematch) are none of a
                // puzzle's.
                Effect::Send(_) => {
                    self.app
                        .warn("Not in a puzzle: play a move, or q for the lobby.");
                }
                _ => {}
            }
        }
        None
    }

    fn left(&mut self, never: Infallible) -> Done {
        match never {}
    }
}

/// Judges the player's `action`, the next of their moves, as `solve` does, and shows what it
/// came to.
async fn answer(
    ctx: &Context,
    (me, from): (PlayerId, Option<std::net::IpAddr>),
    served: &Served,
    app: &mut App,
    state: &mut Seat,
    action: Action,
) {
    let puzzle = &served.puzzle;
    if state.over {
        app.warn("The puzzle is over: n gives the next one, q goes back to the lobby.");
        return;
    }
    state.moves.push(action);
    let outcome = puzzles::solve(
        &ctx.hub,
        me,
        from,
        &puzzle.id,
        &state.moves,
        ctx.clock.now(),
    )
    .await;
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(refusal) => {
            state.moves.pop();
            app.warn(format!("The server refused: {refusal}."));
            return;
        }
    };
    state.actions.push(action);
    let seat = state.online.seat.unwrap_or(0);
    let (reply, text, wrong) = match &outcome {
        Outcome::Right { reply } => (
            Some(*reply),
            format!("Right: {action}. The reply is {reply}: your move."),
            false,
        ),
        Outcome::Solved { reply, rated } => (
            *reply,
            format!("Solved! {} n: the next puzzle.", said(rated)),
            false,
        ),
        Outcome::Wrong {
            refutation,
            rated,
            solution,
        } => {
            let refuted = refutation.map_or(String::new(), |r| format!(" {r} refutes it."));
            let solution: Vec<String> = solution.iter().map(ToString::to_string).collect();
            (
                *refutation,
                format!(
                    "Wrong: {action}.{refuted} The solution: {}. {} n: the next puzzle.",
                    solution.join(" "),
                    said(rated)
                ),
                true,
            )
        }
    };
    if !matches!(outcome, Outcome::Right { .. }) {
        state.over = true;
        state.online.running = None;
    }
    state.actions.extend(reply);
    if state.over {
        let mine = puzzles::rating(&ctx.hub, me).await.unwrap_or_default();
        state.online.ratings[seat] = shown_puzzle_rating(&mine);
    }
    app.step(AppInput::Server(
        state.actions.clone(),
        Box::new(state.online.clone()),
    ));
    if wrong {
        app.warn(text);
    } else {
        app.info(text);
    }
}

/// What an attempt did to the ratings, in words.
fn said(rated: &Rated) -> String {
    if !rated.first {
        return format!(
            "Tried before: nothing moves (your puzzle rating: {}).",
            shown_puzzle_rating(&rated.player[1])
        );
    }
    if let Some(why) = rated.unrated {
        return format!(
            "Not rated: {} (your puzzle rating: {}).",
            why.words(),
            shown_puzzle_rating(&rated.player[1])
        );
    }
    format!(
        "Your puzzle rating: {} ({}); the puzzle's: {} ({}).",
        shown_puzzle_rating(&rated.player[1]),
        change(&rated.player[0], &rated.player[1]),
        rated.puzzle[1].rating.round() as i64,
        change(&rated.puzzle[0], &rated.puzzle[1]),
    )
}
