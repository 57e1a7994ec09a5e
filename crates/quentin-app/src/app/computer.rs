//! The computer in the app: who it plays, the search that runs for its move, a hint or the
//! live analysis, and taking moves back against it.
//!
//! The computer is a *player*, not a colour: it plays player 1 (who moved first) or player 2,
//! and after a swap it keeps playing the same player, now with the other colour. The app never
//! holds the search: it puts [`SearchOrder`]s in its outbox ([`Effect::Search`]), and its front
//! end runs the search and tells the app its news ([`Input::Search`](super::Input::Search))
//! before every frame; nothing here waits for it.

use crate::record::Players;
use crate::rules::{Action, Color, Position};
use crate::search::resist::HOPELESS;
use crate::search::{Budget, Level, Proven, Report};
use crate::search_handle::{SearchNews, SearchOrder};

use super::review::GameReview;
use super::text::join;
use super::{App, Effect, Mode, player_of};

/// Who plays what: the computer's players, how strongly it plays and how long it thinks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Versus {
    /// Whether the computer plays player 1 (who moves first) and player 2.
    pub computer: [bool; 2],
    /// Seconds of thought for a move or a hint.
    pub think: f64,
    /// The level of its moves; hints and the analysis are always at full strength.
    pub level: Level,
}

impl Versus {
    /// Two people at one keyboard; the computer only gives hints and analyses.
    pub const PEOPLE: Versus = Versus {
        computer: [false, false],
        think: 2.0,
        level: Level::DEFAULT,
    };

    /// Whether the computer plays player `n` (1 or 2).
    #[must_use]
    pub fn plays(&self, n: u8) -> bool {
        n.checked_sub(1)
            .and_then(|i| self.computer.get(usize::from(i)))
            .copied()
            .unwrap_or(false)
    }

    /// Whether exactly one player is a person: then "you" means them.
    #[must_use]
    pub fn against_one_person(&self) -> bool {
        self.computer[0] != self.computer[1]
    }

    /// The `player1`/`player2` headers of the record: the computer's, with its level and time
    /// (`computer, level 4, 2 s a move`).
    #[must_use]
    pub fn players(&self) -> Players {
        self.computer
            .map(|c| c.then(|| format!("computer, {}, {} s a move", self.level, self.think)))
    }
}

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    /// The computer's move.
    Move,
    /// A hint for the person to move.
    Hint,
    /// The live analysis of the shown position.
    Analysis,
    /// One position of the review of the game, whichever position is shown.
    Review,
}

/// The search under way (or just ended) for the position after `line`.
#[derive(Clone, Debug)]
pub(super) struct Search {
    job: Job,
    line: Vec<Action>,
    done: bool,
    report: Option<Report>,
}

/// A hint found for the position after `line`.
#[derive(Clone, Debug, PartialEq)]
pub struct Hint {
    line: Vec<Action>,
    /// The best action for the side to move.
    pub action: Action,
    /// Its win chance for that side, when the search played enough playouts to give one.
    pub win: Option<f64>,
    /// The side it is for.
    pub color: Color,
}

/// `61%`, or `a proven win` / `a proven loss`, of a win chance for the side it is given for;
/// `…` when the search has not played enough playouts to give one: the search's own words,
/// as `quentin analyze` and GTP say them.
#[must_use]
pub fn chance(win: Option<f64>, proven: Option<Proven>) -> String {
    crate::search::chance_words(win, proven)
}

/// `, 39% for you`: what the action the report plays is worth, said from the side of
/// `person` (the colour of the one person at the keyboard, or of the side the hint is for) when
/// there is one, else for the colour that played it (`, 61% for Black`). Nothing when the search
/// played too few playouts through it to give a figure, and nothing for a level below full
/// strength unless it is a proof: such a level plays a move drawn among the plausible ones
/// after a few hundred playouts, and its figure would read as a judgement the review may call a
/// blunder (issue 46). A proof is exact at every level.
fn worth(report: &Report, mover: Color, person: Option<Color>, full: bool) -> String {
    let (win, proven) = (report.chance(), report.proven);
    if win.is_none() || (!full && proven.is_none()) {
        return String::new();
    }
    match person {
        Some(person) if person != mover => {
            let proven = proven.map(|p| match p {
                Proven::Win => Proven::Loss,
                Proven::Loss => Proven::Win,
            });
            format!(", {} for you", chance(win.map(|w| 1.0 - w), proven))
        }
        Some(_) => format!(", {} for you", chance(win, proven)),
        None => format!(", {} for {}", chance(win, proven), mover.capitalised()),
    }
}

impl App {
    /// Puts a computer behind the app: who it plays. The app's front end runs the search it asks
    /// for.
    pub fn set_computer(&mut self, versus: Versus) {
        self.seats.versus = versus;
        self.computer.behind = true;
        // A game resumed between people keeps the players its record names.
        if self.mode == Mode::Play && versus.computer != [false, false] {
            self.seats.players = versus.players();
        }
    }

    /// Who plays what.
    #[must_use]
    pub fn versus(&self) -> Versus {
        self.seats.versus
    }

    /// The `player1`/`player2` texts: of the record replayed, or of this game.
    #[must_use]
    pub fn players(&self) -> &Players {
        &self.seats.players
    }

    /// Whether the computer plays `color` in `position`.
    #[must_use]
    pub fn computer_plays(&self, position: &Position, color: Color) -> bool {
        self.seats.versus.plays(player_of(position, color))
    }

    /// Whether it is the computer's turn in the game being played.
    #[must_use]
    pub fn computer_to_move(&self) -> bool {
        let position = self.position();
        self.mode == Mode::Play
            && !position.is_over()
            && position
                .to_move()
                .is_some_and(|c| self.computer_plays(position, c))
    }

    /// The search under way (not ended) and what it reports so far.
    #[must_use]
    pub fn thinking(&self) -> Option<(Job, Option<&Report>)> {
        self.computer
            .search
            .as_ref()
            .filter(|s| !s.done && s.job != Job::Review && s.line == self.line.played())
            .map(|s| (s.job, s.report.as_ref()))
    }

    /// The latest report on the shown position, of whatever search looked at it.
    #[must_use]
    pub fn report(&self) -> Option<&Report> {
        self.computer
            .search
            .as_ref()
            .filter(|s| s.job != Job::Review && s.line == self.line.played())
            .and_then(|s| s.report.as_ref())
    }

    /// Whether the live analysis is on.
    #[must_use]
    pub fn analysis_on(&self) -> bool {
        self.analysis.on
    }

    /// The hint for the shown position, once found.
    #[must_use]
    pub fn suggestion(&self) -> Option<&Hint> {
        self.analysis
            .hint
            .as_ref()
            .filter(|h| h.line == self.line.played())
    }

    /// What a search should be doing now, if anything: the computer's move first, then a
    /// hint asked for, then the analysis.
    fn wanted(&self) -> Option<Job> {
        if self.position().is_over() {
            None
        } else if self.computer_to_move() {
            Some(Job::Move)
        } else if self.analysis.hint_wanted {
            Some(Job::Hint)
        } else if self.analysis.on {
            Some(Job::Analysis)
        } else {
            None
        }
    }

    /// Tells the app the latest news of the search its front end runs, for the next
    /// [`App::tick`].
    pub(crate) fn searched(&mut self, news: SearchNews) {
        self.computer.news = Some(news);
    }

    /// Brings the app up to date with the search: reads the news it was told, plays the
    /// computer's move or shows the hint once found, and asks for searches to start or stop as
    /// the shown position and the wishes change (at once: after the computer's move, the next
    /// search is asked for in the same call). The front end calls it many times a second.
    pub(crate) fn tick(&mut self) -> Effect {
        let effect = self.read_search();
        self.schedule();
        effect
    }

    /// Reads the news of the search under way; once it has ended, acts on its final report.
    fn read_search(&mut self) -> Effect {
        let news = self.computer.news.take();
        let (Some(news), Some(search)) = (news, self.computer.search.as_mut()) else {
            return Effect::None;
        };
        let searched = match search.job {
            Job::Review => self
                .review
                .game
                .as_ref()
                .and_then(|r| r.next_line())
                .is_some_and(|line| line == search.line),
            _ => search.line == self.line.played(),
        };
        if search.done || !searched {
            return Effect::None;
        }
        if let Some(report) = news.report {
            search.report = Some(report);
        }
        if !news.done {
            return Effect::None;
        }
        search.done = true;
        if search.job == Job::Review {
            let report = search.report.take();
            self.reviewed(report);
            return Effect::None;
        }
        let job = search.job;
        self.finish(job)
    }

    /// Stops a search that no longer fits the shown position or the wishes, and starts the
    /// one wanted.
    fn schedule(&mut self) {
        if !self.computer.behind {
            return;
        }
        // The review, while under way, goes before what the shown position wants (it runs only
        // where the computer has no move to make: after a game, in a replay).
        let reviewing = self.review.game.as_ref().and_then(|r| r.next_line());
        let (wanted, line) = match reviewing {
            Some(line) => (Some(Job::Review), line),
            None => (self.wanted(), self.line.played()),
        };
        if let Some(search) = &self.computer.search
            && (search.line != line || Some(search.job) != wanted)
        {
            if !search.done {
                self.outbox.push(Effect::Search(SearchOrder::Stop));
            }
            self.computer.search = None;
        }
        if self.computer.search.is_none()
            && let Some(job) = wanted
        {
            let position = Box::new(self.line.position_at(line.len()).clone());
            let (budget, level) = match job {
                Job::Move => (
                    Budget::Seconds(self.seats.versus.think),
                    self.seats.versus.level,
                ),
                Job::Hint => (Budget::Seconds(self.seats.versus.think), Level::FULL),
                Job::Analysis => (Budget::Unlimited, Level::FULL),
                Job::Review => (GameReview::BUDGET, Level::FULL),
            };
            self.outbox.push(Effect::Search(match job {
                Job::Review => SearchOrder::Review(position, line.to_vec()),
                _ => SearchOrder::Start(position, line.to_vec(), budget, level),
            }));
            self.computer.search = Some(Search {
                job,
                line: line.to_vec(),
                done: false,
                report: None,
            });
        }
    }

    /// Acts on the final report of a search of `job`.
    fn finish(&mut self, job: Job) -> Effect {
        let report = self.report().cloned();
        let Some((best, report)) = report.and_then(|i| i.best.map(|b| (b, i))) else {
            if job != Job::Analysis {
                self.warn("The computer found no action to take here.");
                self.analysis.hint_wanted = false;
            }
            return Effect::None;
        };
        match job {
            Job::Move => self.computer_plays_move(best, &report),
            Job::Hint => {
                let Some(color) = self.position().to_move() else {
                    return Effect::None;
                };
                self.analysis.hint_wanted = false;
                self.analysis.hint = Some(Hint {
                    line: self.line.played().to_vec(),
                    action: best,
                    win: report.chance(),
                    color,
                });
                let for_whom = worth(&report, color, Some(color), true);
                // In a lost position the hint is the move that holds out longest (the search's
                // resistance, `quentin_search::resist`): say so, rather than offer it as a way
                // to win.
                let lost = report.proven == Some(Proven::Loss)
                    || report.raw_chance().is_some_and(|w| w < HOPELESS);
                let holds = if lost { " holds out longest" } else { "" };
                let color = color.capitalised();
                self.info(format!(
                    "Hint for {color}: {best}{holds}{for_whom}. Playing it is your choice."
                ));
                Effect::None
            }
            Job::Analysis | Job::Review => Effect::None,
        }
    }

    /// Plays the computer's `action` and says so.
    fn computer_plays_move(&mut self, action: Action, report: &Report) -> Effect {
        let Some(mover) = self.position().to_move() else {
            return Effect::None;
        };
        let effect = self.act(action);
        if effect != Effect::Save {
            // The search proposed an action the rules refuse: say so rather than hang.
            let why = self.notes.message.as_ref().map_or("", |m| m.text.as_str());
            let text = format!("The computer's choice {action} was refused: {why}");
            self.warn(text);
            self.seats.versus.computer = [false, false];
            return Effect::None;
        }
        // The one person playing the computer hears the figure from their side.
        let person = match self.seats.versus.computer {
            [true, false] | [false, true] => Some(mover.opponent()),
            _ => None,
        };
        let for_it = worth(report, mover, person, self.seats.versus.level.is_full());
        let said = self.notes.message.as_ref().map_or("", |m| m.text.as_str());
        let played = format!("{} played {action}", mover.capitalised());
        let text = match said.strip_prefix(&played) {
            Some(rest) => format!("Computer played {action}{for_it}{rest}"),
            None if action == Action::Swap => format!("Computer swapped{for_it}. {said}"),
            None => format!("Computer played {action}{for_it}. {said}"),
        };
        self.info(text);
        effect
    }

    /// Asks the search under way, if any, to end.
    pub(super) fn stop_search(&mut self) {
        if let Some(search) = &mut self.computer.search
            && !search.done
        {
            self.outbox.push(Effect::Search(SearchOrder::Stop));
            search.done = true;
        }
    }

    /// Refuses what a person may not do while the computer is thinking of its move; says so.
    pub(super) fn busy(&mut self) -> bool {
        if self.online.game.is_some() {
            return self.online_busy();
        }
        if !self.computer_to_move() {
            return false;
        }
        let color = self.position().to_move().map_or("", Color::capitalised);
        self.warn(format!(
            "The computer ({color}) is thinking: wait for its move, or u takes yours back."
        ));
        true
    }

    /// `t`: looks for the best action for the side to move, for `think` seconds.
    pub(super) fn ask_hint(&mut self) -> Effect {
        if !self.computer.behind {
            self.warn("No computer player is available here.");
        } else if self.position().is_over() {
            self.warn("The game is over: there is nothing to hint.");
        } else if !self.busy() {
            self.analysis.hint = None;
            self.analysis.hint_wanted = true;
            self.info(format!(
                "Looking for a hint ({} s)...",
                self.seats.versus.think
            ));
        }
        Effect::None
    }

    /// `a`: turns the live analysis on or off.
    pub(super) fn toggle_analysis(&mut self) -> Effect {
        if !self.computer.behind {
            self.warn("No computer player is available here.");
            return Effect::None;
        }
        self.analysis.on = !self.analysis.on;
        if self.analysis.on {
            self.info(
                "Analysis on: the bar is Black's win chance, 1 2 3 on the board the best moves; \
                 a turns it off.",
            );
        } else {
            if self
                .computer
                .search
                .as_ref()
                .is_some_and(|s| s.job == Job::Analysis)
            {
                self.stop_search();
            }
            self.info("Analysis off.");
        }
        Effect::None
    }

    /// Whether a person is to move after the first `k` actions and does not merely pass.
    fn person_to_move_at(&self, k: usize) -> bool {
        let position = self.position_at(k);
        !self.is_pass(k + 1)
            && position
                .to_move()
                .is_some_and(|c| !self.computer_plays(position, c))
    }

    /// `u`: against the computer, takes back its reply and your move together, back to your
    /// turn, stopping its search first; between people, the last action.
    pub(super) fn take_back(&mut self) -> Effect {
        if self.seats.versus.computer == [false, false] {
            return self.undo();
        }
        if self.seats.versus.computer == [true, true] {
            self.warn("The computer plays both sides: there is nothing of yours to take back.");
            return Effect::None;
        }
        let Some(target) = (0..self.current())
            .rev()
            .find(|&k| self.person_to_move_at(k))
        else {
            // Its search goes on: there is nothing to go back to.
            self.warn("Nothing of yours to take back yet.");
            return Effect::None;
        };
        self.stop_search();
        let undone = join(&self.line.actions()[target..self.current()]);
        self.line.go_to(target);
        self.screen.follow_line();
        self.info(format!("Taken back: {undone}. r redoes."));
        Effect::Save
    }

    /// `r`: against the computer, redoes up to your next turn; between people, one action.
    pub(super) fn bring_back(&mut self) -> Effect {
        if self.seats.versus.computer == [false, false] {
            return self.redo();
        }
        let len = self.line.actions().len();
        if self.current() == len {
            self.warn("Nothing to redo.");
            return Effect::None;
        }
        self.stop_search();
        let target = (self.current() + 1..=len)
            .find(|&k| self.person_to_move_at(k))
            .unwrap_or(len);
        let redone = join(&self.line.actions()[self.current()..target]);
        self.line.go_to(target);
        self.screen.follow_line();
        self.info(format!("Redone: {redone}."));
        Effect::Save
    }
}

#[cfg(test)]
pub(crate) mod tests;
