//! The puzzle screen, from the lobby (`p`): a screen of its own (issue 60), the terminal's
//! puzzle app ([`App::puzzle`]): the setup shown as the position it is (not as anybody's
//! moves), what to achieve, no clocks and no resignation; the hint's area and the move (`t`),
//! the solution (`v`) and a defence's threat played out (`w`) on the board as in the
//! terminal. The app judges each move against the proved solution as the terminal's does;
//! once the attempt is over the server records it ([`puzzles::solve`] with the player's
//! moves, as a bot's `solve`; a puzzle given up or hinted as a failure) and the panel says
//! both ratings. `n` then gives the next puzzle, `q` goes back to the lobby. `o` chooses
//! the way as in the terminal ([`Run`]): a difficulty, Streak, Storm (its clock on the
//! panel, a frame each second), one's failed puzzles again, a theme; Streak and Storm are
//! unrated, their bests kept in the store.

use std::convert::Infallible;

use quentin_app::app::{App, Effect, Look, PuzzleNews, PuzzleStanding};
use quentin_app::puzzle_modes::{Choice, Difficulty, Way};
use quentin_app::search::puzzles::answer::{self, Judged};
use quentin_rules::Action;

use std::time::Duration;

use super::driver::{Glue, Refresh, Wake, drive};
use super::{Next, Screen, notice};
use crate::channel::Inbox;
use crate::context::Context;
use crate::ids::PlayerId;
use crate::puzzles::run::Run;
use crate::puzzles::{self, Outcome, Served, change, shown_puzzle_rating};
use crate::store::RatingRow;
use crate::store::puzzles::{Attempt, Rated};

/// What the player did with one puzzle.
enum Done {
    /// The next puzzle, please; the panel's first words, if any.
    Next(Option<String>),
    /// This puzzle next (a way chosen), with what to say.
    Open(Served, String),
    /// Back to the lobby.
    Lobby,
    /// The client has gone.
    Quit,
}

/// Puzzles one after another, each the next of the player's run ([`Run`]: rated near their
/// puzzle rating at first), until the player goes back to the lobby.
pub(super) async fn puzzle_screen(
    ctx: &Context,
    me: &(PlayerId, String),
    from: Option<std::net::IpAddr>,
    screen: &mut Screen,
    input: &mut Inbox,
) -> Next {
    // Puzzles solved in a row on this visit.
    let mut streak = 0;
    let best = Run::bests(&ctx.hub, me.0).await;
    let mut run = Run::new(Way::Rated(Difficulty::Normal), best, ctx.clock.now());
    let mut next: Option<(Served, Option<String>)> = None;
    loop {
        let (served, said) = match next.take() {
            Some(chosen) => chosen,
            None => match run.next(&ctx.hub, me.0).await {
                Ok(served) => (served, None),
                Err(refusal) => {
                    notice(screen, input, &format!("{refusal}. Press any key.")).await;
                    return Next::Lobby;
                }
            },
        };
        let mut at = At {
            ctx,
            me: me.0,
            from,
            run: &mut run,
            streak: &mut streak,
        };
        match one(&mut at, served, said, screen, input).await {
            Done::Next(said) => {
                run.again(ctx.clock.now());
                if let Some(said) = said {
                    match run.next(&ctx.hub, me.0).await {
                        Ok(served) => next = Some((served, Some(said))),
                        Err(refusal) => {
                            notice(screen, input, &format!("{refusal}. Press any key.")).await;
                            return Next::Lobby;
                        }
                    }
                }
            }
            Done::Open(served, said) => next = Some((served, Some(said))),
            Done::Lobby => return Next::Lobby,
            Done::Quit => return Next::Quit,
        }
    }
}

/// What the panel shows of the player's rating and run.
fn standing(rating: &RatingRow, change: Option<String>, streak: u32, run: &Run) -> PuzzleStanding {
    PuzzleStanding {
        rating: shown_puzzle_rating(rating),
        change,
        streak,
        way: run.line(),
    }
}

/// Where a puzzle is taken: the server, the player, their run.
struct At<'a> {
    ctx: &'a Context,
    me: PlayerId,
    /// The address the player answers from: a solution shown near it leaves a puzzle unrated.
    from: Option<std::net::IpAddr>,
    run: &'a mut Run,
    streak: &'a mut u32,
}

/// One puzzle, until the player asks for the next or leaves.
async fn one(
    at: &mut At<'_>,
    served: Served,
    said: Option<String>,
    screen: &mut Screen,
    input: &mut Inbox,
) -> Done {
    let look = Look {
        ascii: false,
        color: screen.color,
    };
    let Ok(mut app) = App::puzzle(served.puzzle.clone(), look) else {
        return Done::Lobby;
    };
    let mine = puzzles::rating(&at.ctx.hub, at.me)
        .await
        .unwrap_or_default();
    app.set_standing(standing(&mine, None, *at.streak, at.run));
    let rated = if at.run.way.rated() {
        format!("rated {}", served.rating.rating.round() as i64)
    } else {
        "unrated here".to_string()
    };
    app.info(format!(
        "{}Find the move. t gives a hint, v the solution, o the ways (Streak, Storm, a theme), \
         q goes back to the lobby. (The puzzle is {rated}.)",
        said.map(|s| format!("{s}. ")).unwrap_or_default(),
    ));
    let mut glue = Solving {
        at,
        served: &served,
        app,
        mine,
    };
    drive(&mut glue, screen, input).await
}

/// A puzzle's screen on the server: the puzzle app, its attempt recorded by the server.
struct Solving<'a, 'b> {
    at: &'a mut At<'b>,
    served: &'a Served,
    app: App,
    /// The player's puzzle rating, as last read.
    mine: RatingRow,
}

impl Glue for Solving<'_, '_> {
    type Screen = App;
    type Done = Done;

    fn screen(&mut self) -> &mut App {
        &mut self.app
    }

    fn gone(&self) -> Done {
        Done::Quit
    }

    /// A Storm's clock advanced before each frame; its end said.
    async fn refresh(&mut self) -> Refresh<Done> {
        if self.at.run.tick(self.at.ctx.clock.now())
            && let Way::Storm(storm) = self.at.run.way
        {
            self.app.warn(format!(
                "Time is up: {} solved, {} missed. n starts a new storm, q goes back to the \
                 lobby.",
                storm.solved, storm.missed
            ));
        }
        if self.at.run.clock_changes_in().is_some() || self.at.run.way.ended() {
            self.set_standing(None);
        }
        Refresh::Draw
    }

    fn wake(&mut self) -> Wake<'_> {
        Wake {
            change_in: self.at.run.clock_changes_in().map(Duration::from_millis),
            ..Wake::default()
        }
    }

    async fn act(&mut self, effects: Vec<Effect>) -> Option<Done> {
        for effect in effects {
            match effect {
                Effect::Quit => return Some(Done::Lobby),
                Effect::Puzzle(PuzzleNews::Next) => return Some(Done::Next(None)),
                Effect::Puzzle(PuzzleNews::Choose(choice)) => {
                    if let Some(done) = self.choose(choice).await {
                        return Some(done);
                    }
                }
                Effect::Puzzle(PuzzleNews::Attempted { solved, .. }) if self.at.run.way.rated() => {
                    self.record(solved).await;
                }
                Effect::Puzzle(PuzzleNews::Attempted { solved, .. }) => {
                    if let Some(done) = self.counted(solved).await {
                        return Some(done);
                    }
                }
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

impl Solving<'_, '_> {
    /// The panel's standing: the rating as last read, the run's line.
    fn set_standing(&mut self, change: Option<String>) {
        let standing = standing(&self.mine, change, *self.at.streak, self.at.run);
        self.app.set_standing(standing);
    }

    /// A way or theme chosen (`o`): the next puzzle that way at once, the one on the board
    /// left uncounted; the way as it was when the choice gives none.
    async fn choose(&mut self, choice: Choice) -> Option<Done> {
        let now = self.at.ctx.clock.now();
        let was = self.at.run.choose(choice, now);
        match self.at.run.next(&self.at.ctx.hub, self.at.me).await {
            Ok(served) => Some(Done::Open(served, self.at.run.said())),
            Err(refusal) => {
                self.at.run.undo(was);
                self.app
                    .warn(format!("{refusal}; the puzzles go on as they were."));
                None
            }
        }
    }

    /// An attempt in a Streak or a Storm: nothing recorded but a best passed; a Storm's next
    /// puzzle at once, a Streak's end said.
    async fn counted(&mut self, solved: bool) -> Option<Done> {
        let now = self.at.ctx.clock.now();
        let block = crate::puzzles::block_words(self.at.from);
        let puzzle = self.served.puzzle.id.as_str();
        let (said, keep) = self
            .at
            .run
            .attempted(self.at.me, (puzzle, block), solved, now);
        if let Some(runs) = keep
            && let Err(refusal) = self.at.ctx.hub.keep_puzzle_runs(runs).await
        {
            self.app
                .warn(format!("Your best could not be kept: {refusal}."));
        }
        self.set_standing(None);
        match self.at.run.way {
            Way::Storm(storm) if !storm.over() => {
                let said = said.map(|s| format!("{s} ")).unwrap_or_default();
                Some(Done::Next(Some(format!(
                    "{}{said}Next puzzle",
                    if solved { "Right. " } else { "Wrong. " }
                ))))
            }
            Way::Streak { ended: true, .. } => {
                let shown = self
                    .app
                    .message()
                    .map(|m| m.text.clone())
                    .unwrap_or_default();
                let said = said.unwrap_or_default();
                self.app.warn(format!(
                    "{shown} {said} n starts a new streak, q goes back to the lobby."
                ));
                None
            }
            _ => None,
        }
    }

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
            let now = self.at.ctx.clock.now();
            match puzzles::solve(
                &self.at.ctx.hub,
                self.at.me,
                self.at.from,
                &puzzle.id,
                &moves,
                now,
            )
            .await
            {
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
        *self.at.streak = if solved { *self.at.streak + 1 } else { 0 };
        let changed = (rated.first && rated.unrated.is_none())
            .then(|| change(&rated.player[0], &rated.player[1]));
        self.mine = rated.player[1];
        self.set_standing(changed);
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
        let block = crate::puzzles::block_words(self.at.from);
        let attempt = Attempt {
            player: self.at.me,
            block,
            puzzle: self.served.puzzle.id.clone(),
            solved: false,
            at: self.at.ctx.clock.now(),
        };
        self.at
            .ctx
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
