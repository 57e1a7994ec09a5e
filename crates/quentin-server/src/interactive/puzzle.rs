//! The puzzle screen, from the lobby (`p`): a screen of its own (issue 60), the terminal's
//! puzzle app ([`App::puzzle`]): the setup shown as the position it is (not as anybody's
//! moves), what to achieve, no clocks and no resignation; the hint's area and the move (`t`),
//! the solution (`v`) and a defence's threat played out (`w`) on the board as in the
//! terminal. The app judges each move against the proved solution as the terminal's does;
//! once the attempt is over the server records it ([`puzzles::solve`] with the player's
//! moves, as a bot's `solve`; a puzzle given up or hinted as a failure) and the panel says
//! both ratings. `n` then gives the next puzzle, `q` goes back to the lobby.

use std::convert::Infallible;

use quentin_app::app::{App, Effect, Look, PuzzleNews, PuzzleStanding};
use quentin_app::puzzle_modes::Difficulty;
use quentin_app::search::puzzles::answer::{self, Judged};
use quentin_rules::Action;

use super::driver::{Glue, drive};
use super::{Next, Screen, notice};
use crate::channel::Inbox;
use crate::context::Context;
use crate::ids::PlayerId;
use crate::puzzles::{self, Outcome, Served, change, shown_puzzle_rating};
use crate::store::RatingRow;
use crate::store::puzzles::{Attempt, Rated};

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
    // Puzzles solved in a row on this visit.
    let mut streak = 0;
    loop {
        let served = match puzzles::next(&ctx.hub, me.0, None, Difficulty::Normal).await {
            Ok(served) => served,
            Err(refusal) => {
                notice(screen, input, &format!("{refusal}. Press any key.")).await;
                return Next::Lobby;
            }
        };
        match one(ctx, me.0, from, served, screen, input, &mut streak).await {
            Done::Next => {}
            Done::Lobby => return Next::Lobby,
            Done::Quit => return Next::Quit,
        }
    }
}

/// What the panel shows of the player's rating.
fn standing(rating: &RatingRow, change: Option<String>, streak: u32) -> PuzzleStanding {
    PuzzleStanding {
        rating: shown_puzzle_rating(rating),
        change,
        streak,
        way: None,
    }
}

/// One puzzle, until the player asks for the next or leaves.
async fn one(
    ctx: &Context,
    me: PlayerId,
    from: Option<std::net::IpAddr>,
    served: Served,
    screen: &mut Screen,
    input: &mut Inbox,
    streak: &mut u32,
) -> Done {
    let look = Look {
        ascii: false,
        color: screen.color,
    };
    let Ok(mut app) = App::puzzle(served.puzzle.clone(), look) else {
        return Done::Lobby;
    };
    let mine = puzzles::rating(&ctx.hub, me).await.unwrap_or_default();
    app.set_standing(standing(&mine, None, *streak));
    app.info(format!(
        "Find the move. t gives a hint, v the solution, q goes back to the lobby. (The puzzle \
         is rated {}.)",
        served.rating.rating.round() as i64
    ));
    let mut glue = Solving {
        ctx,
        me,
        from,
        served: &served,
        app,
        streak,
    };
    drive(&mut glue, screen, input).await
}

/// A puzzle's screen on the server: the puzzle app, its attempt recorded by the server.
struct Solving<'a> {
    ctx: &'a Context,
    me: PlayerId,
    /// The address the player answers from: a solution shown near it leaves a puzzle unrated.
    from: Option<std::net::IpAddr>,
    served: &'a Served,
    app: App,
    streak: &'a mut u32,
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

    async fn act(&mut self, effects: Vec<Effect>) -> Option<Done> {
        for effect in effects {
            match effect {
                Effect::Quit => return Some(Done::Lobby),
                Effect::Puzzle(PuzzleNews::Next) => return Some(Done::Next),
                Effect::Puzzle(PuzzleNews::Attempted { solved, .. }) => self.record(solved).await,
                // A game's effects (saving, searching, sending) are none of a puzzle's here.
                _ => {}
            }
        }
        None
    }

    fn left(&mut self, never: Infallible) -> Done {
        match never {}
    }
}

impl Solving<'_> {
    /// The player's moves on the board: every other action after the setup, the first the
    /// player's.
    fn moves(&self) -> Vec<Action> {
        let given = self.served.puzzle.line.len();
        self.app.actions()[given.min(self.app.current())..self.app.current()]
            .iter()
            .step_by(2)
            .copied()
            .collect()
    }

    /// Records the attempt the app ended, `solved` without a hint or not, and says what it
    /// did to the ratings: the player's moves judged by the server as a bot's `solve` is;
    /// a puzzle whose moves the server would judge right but the app counts failed (a hint
    /// taken, the solution asked for) recorded as a failure.
    async fn record(&mut self, solved: bool) {
        let puzzle = &self.served.puzzle;
        let moves = self.moves();
        let judged = answer::judge(puzzle, &moves);
        let wrong = matches!(judged, Ok(Judged::Wrong { .. }));
        let rated = if solved || wrong {
            let now = self.ctx.clock.now();
            match puzzles::solve(&self.ctx.hub, self.me, self.from, &puzzle.id, &moves, now).await {
                Ok(Outcome::Solved { rated, .. } | Outcome::Wrong { rated, .. }) => Ok(rated),
                Ok(Outcome::Right { .. }) => return,
                Err(refusal) => Err(refusal.to_string()),
            }
        } else {
            self.give_up().await
        };
        let rated = match rated {
            Ok(rated) => rated,
            Err(why) => {
                self.app
                    .warn(format!("The server could not record the attempt: {why}."));
                return;
            }
        };
        *self.streak = if solved { *self.streak + 1 } else { 0 };
        let changed = (rated.first && rated.unrated.is_none())
            .then(|| change(&rated.player[0], &rated.player[1]));
        self.app
            .set_standing(standing(&rated.player[1], changed, *self.streak));
        let shown = self
            .app
            .message()
            .map(|m| m.text.clone())
            .unwrap_or_default();
        let text = format!("{shown} {}", said(&rated));
        if solved {
            self.app.info(text);
        } else {
            self.app.warn(text);
        }
    }

    /// Records a failed attempt without moves to judge: the solution asked for, or a hint
    /// taken.
    async fn give_up(&self) -> Result<Rated, String> {
        let block = self
            .from
            .map_or_else(|| "-".to_string(), |a| crate::gate::block_of(a).to_string());
        let attempt = Attempt {
            player: self.me,
            block,
            puzzle: self.served.puzzle.id.clone(),
            solved: false,
            at: self.ctx.clock.now(),
        };
        self.ctx
            .hub
            .puzzle_attempt(attempt)
            .await
            .map_err(|refusal| refusal.to_string())
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
