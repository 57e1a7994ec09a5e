//! Acting on the line of play: actions and forced passes, undo and redo, new games and
//! playing on (the line itself is [`GameLine`]; this says what happened in words).

use crate::game_line::GameLine;
use crate::rules::{Action, Color, Illegal, KonobiViolation};

use super::text::{KONOBI_TIP, dimensions, fills_text, join, refusal_text, removals_text};
use super::{App, Effect, MAX_AUTO_PASSES, Mode, player, player_of, quint};
use crate::layout::BoardStyle;

impl App {
    /// Plays `action` for the side to move, then any forced passes; refuses an illegal action
    /// with the rules' reason and changes nothing.
    pub(super) fn act(&mut self, action: Action) -> Effect {
        if self.online.game.is_some() {
            return self.online_act(action);
        }
        if self.puzzle.is_some() {
            return self.puzzle_act(action);
        }
        if self.course.is_some() {
            return self.course_act(action);
        }
        self.play_action(action)
    }

    /// Plays `action` as [`App::act`] does in a game at one keyboard, saying what it did.
    pub(super) fn play_action(&mut self, action: Action) -> Effect {
        let position = self.position();
        if position.is_over() {
            self.warn("The game is over: n starts a new game, u takes back the last action.");
            return Effect::None;
        }
        let Some(mover) = position.to_move() else {
            return Effect::None;
        };
        let effect = match position.preview(action) {
            Ok(effect) => effect,
            Err(reason) => {
                let what = match action {
                    Action::Swap => "swap".to_string(),
                    other => format!("play {other}"),
                };
                let why = refusal_text(&reason);
                self.warn(format!("{} cannot {what}: {why}.", mover.capitalised()));
                if matches!(
                    reason,
                    Illegal::Konobi(KonobiViolation::AvoidableWeakConnection { .. })
                ) && !self.notes.tip_given
                {
                    self.notes.tip = Some(KONOBI_TIP);
                    self.notes.tip_given = true;
                }
                return Effect::None;
            }
        };
        let mut text = match action {
            Action::Swap => format!(
                "Swap: the players exchange colours; {} now plays White.",
                self.person(player(Color::White, true))
            ),
            Action::Pass => format!("{} passes.", mover.capitalised()),
            Action::Step { .. } => format!("{} played {action}.", mover.capitalised()),
            Action::Place(p) => {
                let mut filled = [0usize; 2];
                for (_, color) in effect.fills() {
                    filled[color.index()] += 1;
                }
                let unit = BoardStyle::of(position.game()).unit();
                let removing = removals_text(&effect)
                    .map(|r| format!(", removing {r}"))
                    .unwrap_or_default();
                format!(
                    "{} played {p}{}{removing}.",
                    mover.capitalised(),
                    fills_text(filled, unit)
                )
            }
        };
        if let Err(reason) = self.push(action) {
            // The preview said it was legal; the rules would have to contradict themselves.
            self.warn(format!(
                "{} cannot play {action}: {reason}.",
                mover.capitalised()
            ));
            return Effect::None;
        }
        self.pass_if_forced(&mut text);
        if let Some(why) = quint::ending(self.position()) {
            text.push(' ');
            text.push_str(&why);
        }
        if let Some(outcome) = self.position().outcome()
            && let Some(winner) = outcome.winner()
        {
            // Named as the screen names them: `--names`, the record's players, `you` online.
            text.push_str(&format!(
                " {} wins ({}).",
                winner.capitalised(),
                self.person(player_of(self.position(), winner))
            ));
        }
        self.info(text);
        Effect::Save
    }

    /// Plays the pass of a side that has no legal placement, announcing it in `text`.
    pub(super) fn pass_if_forced(&mut self, text: &mut String) {
        for _ in 0..MAX_AUTO_PASSES {
            let position = self.position();
            let Some(stuck) = position.to_move() else {
                return;
            };
            if position.legal_actions() != [Action::Pass] {
                return;
            }
            if self.push(Action::Pass).is_err() {
                return;
            }
            text.push_str(&format!(
                " {} has no legal placement and passes.",
                stuck.capitalised()
            ));
        }
    }

    /// Plays `action` after the current action; undone actions are dropped.
    pub(super) fn push(&mut self, action: Action) -> Result<(), Illegal> {
        self.line.play(action)?;
        self.screen.follow_line();
        self.notes.tip = None;
        Ok(())
    }

    /// Whether action number `n` (from 1) is a pass. Passes are only ever forced, so the app
    /// played it by itself right after the action that forced it.
    pub(super) fn is_pass(&self, n: usize) -> bool {
        self.line.is_pass(n)
    }

    pub(super) fn undo(&mut self) -> Effect {
        // A forced pass goes with the action that forced it.
        let undone = self.line.undo();
        if undone.is_empty() {
            self.warn("Nothing to undo.");
            return Effect::None;
        }
        self.screen.follow_line();
        self.info(format!("Undone: {}. r redoes.", join(&undone)));
        Effect::Save
    }

    pub(super) fn redo(&mut self) -> Effect {
        let redone = self.line.redo();
        if redone.is_empty() {
            self.warn("Nothing to redo.");
            return Effect::None;
        }
        self.screen.follow_line();
        self.info(format!("Redone: {}.", join(&redone)));
        Effect::Save
    }

    pub(super) fn new_game(&mut self) -> Effect {
        let finished = self.review.looking_over && self.line.last().is_over();
        if !self.position().is_over() && !finished {
            self.warn("n starts a new game once this one is won.");
            return Effect::None;
        }
        self.stop_search();
        let setup = self.setup();
        let start = self.line.start().clone();
        let mut next = App::from_line(GameLine::new(start), Mode::Play, self.screen.look);
        // The same players, and the same computer behind them.
        next.seats.versus = self.seats.versus;
        // People keep their names (`--names`); a computer is named by its level.
        next.seats.players = if self.seats.versus.computer == [false, false] {
            self.seats.players.clone()
        } else {
            self.seats.versus.players()
        };
        next.computer.behind = self.computer.behind;
        // The stop of the old game's search must still reach the search.
        next.outbox = std::mem::take(&mut self.outbox);
        next.analysis.on = self.analysis.on;
        next.notes.tip_given = self.notes.tip_given;
        *self = next;
        self.info(format!(
            "New game of {} on {}.",
            setup.game.title(),
            dimensions(setup.size, self.screen.look)
        ));
        Effect::NewRecord
    }

    /// After a game ends, steps back into it to look it over as in a replay (the analysis
    /// follows the position shown); its record, already saved, stays whole.
    pub(super) fn review(&mut self, n: usize) -> Effect {
        self.mode = Mode::Replay;
        self.review.looking_over = true;
        self.go_to(n);
        if self
            .online
            .game
            .as_ref()
            .is_some_and(|o| o.tournament.is_some())
        {
            self.info(
                "Looking the game over: Left/Right step, v reviews it, q goes back to the lobby.",
            );
        } else if self.online.game.is_some() {
            self.info(
                "Looking the game over: Left/Right step, v reviews it, n offers a rematch, q \
                 goes back to the lobby.",
            );
        } else {
            self.info(
                "Looking the game over: Left/Right step, a analyses, p plays on from the shown \
                 position, n starts a new game.",
            );
        }
        Effect::None
    }

    pub(super) fn go_to(&mut self, n: usize) {
        self.line.go_to(n);
        self.screen.list_top = None;
    }

    pub(super) fn play_on(&mut self) -> Effect {
        if self.position().is_over() {
            self.warn(
                "The game is over here: step back (Left) to play on from an earlier position.",
            );
            return Effect::None;
        }
        self.line.cut();
        self.mode = Mode::Play;
        self.review.looking_over = false;
        self.review.game = None;
        self.seats.players = self.seats.versus.players();
        self.record_path = None;
        self.screen.list_top = None;
        let mut text = format!(
            "Playing on after action {} into a new record; the replayed file is left as it was.",
            self.current()
        );
        self.pass_if_forced(&mut text);
        self.info(text);
        Effect::NewRecord
    }
}
