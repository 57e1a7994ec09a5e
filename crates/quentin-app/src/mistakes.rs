//! Learn from your mistakes (lichess's name, issue 60): after a game against the computer, the
//! review's marked actions of the person become exercises. Each is the position before the
//! mistake, to find a better move; the right answers are the moves the review's own search
//! judged good there: within [`MARGIN`] of the best move's win chance, or, where the search
//! proved a win, every move that keeps it. They are kept with the failed puzzles (the
//! progress file's `mistakes`, each with a failed attempt), so that `quentin puzzle --again`
//! offers them until solved.

use crate::rules::{Action, Game, Position, Setup};
use crate::search::puzzles::{Goal, Puzzle};
use crate::search::review::{Mark, Review};
use crate::search::{Proven, Report};

/// How far below the best move's win chance a move may be and still be right: a few percent.
pub const MARGIN: f64 = 0.03;

/// The prefix of an exercise's id: `mistake-quentin-5a1f…`.
pub const ID_PREFIX: &str = "mistake-";

/// The rating an exercise is given, to be chosen among the failed puzzles.
const RATING: u16 = 1500;

/// One of the person's mistakes, as an exercise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mistake {
    /// Its id, from the game and the position: the same mistake twice is kept once.
    pub id: String,
    /// The game, size and options.
    pub setup: Setup,
    /// The actions from the start to the position before the mistake.
    pub line: Vec<Action>,
    /// The action played there: the mistake.
    pub played: Action,
    /// The search's best action there.
    pub best: Action,
    /// Every action judged right there (the best among them).
    pub answers: Vec<Action>,
}

impl Mistake {
    /// The exercise as a puzzle of the puzzle screen: its position, its best move as the
    /// solution (what `v` and the hints show); the answers judge it ([`crate::app::App::mistake`]).
    #[must_use]
    pub fn puzzle(&self) -> Puzzle {
        Puzzle {
            id: self.id.clone(),
            setup: self.setup,
            line: self.line.clone(),
            solution: vec![self.best],
            goal: Goal::Win,
            depth: 1,
            themes: Vec::new(),
            rating: RATING,
        }
    }

    /// The id of the mistake `played` after `line` of `setup`: a hash of them, stable from one
    /// version to the next (FNV-1a over their text, its upper 32 bits).
    #[must_use]
    pub fn id_of(setup: &Setup, line: &[Action], played: Action) -> String {
        let mut text = format!(
            "{} {} {} {}",
            setup.game, setup.size, setup.pie, setup.pieces
        );
        for a in line.iter().chain(std::iter::once(&played)) {
            text.push(' ');
            text.push_str(&a.to_string());
        }
        let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        format!(
            "{ID_PREFIX}{}-{hash:016x}",
            setup.game.name().to_lowercase()
        )
    }

    /// The game of the exercise.
    #[must_use]
    pub fn game(&self) -> Game {
        self.setup.game
    }
}

/// The moves `report` judges right for its side to move: those proved to win when the best is;
/// else those within [`MARGIN`] of the best's win chance (a move searched too little to have a
/// chance is not judged right). The best first.
#[must_use]
pub fn good_moves(report: &Report) -> Vec<Action> {
    let Some(best) = report.best else {
        return Vec::new();
    };
    let mut out = vec![best];
    let best_move = report.moves.iter().find(|m| m.action == best);
    let proved = best_move.is_some_and(|m| m.proven == Some(Proven::Win));
    let best_chance = best_move.and_then(crate::search::MoveReport::chance);
    for m in &report.moves {
        if m.action == best {
            continue;
        }
        let right = if proved {
            m.proven == Some(Proven::Win)
        } else {
            m.proven != Some(Proven::Loss)
                && matches!((m.chance(), best_chance), (Some(c), Some(b)) if c >= b - MARGIN)
        };
        if right {
            out.push(m.action);
        }
    }
    out
}

/// The mistakes of the players `own` (by number, 1 or 2) in the reviewed game of `line` from
/// `start`: each action the review marked a mistake or a blunder, with the reports of the
/// review's searches (`reports[i]` of the position before action `i + 1`).
#[must_use]
pub fn mistakes_of(
    start: &Position,
    line: &[Action],
    review: &Review,
    reports: &[Report],
    own: [bool; 2],
) -> Vec<Mistake> {
    let setup = start.setup();
    review
        .actions
        .iter()
        .filter(|a| matches!(a.mark, Some(Mark::Mistake | Mark::Blunder)))
        .filter(|a| own[usize::from(a.player.saturating_sub(1)).min(1)])
        .filter_map(|a| {
            let before = &line[..a.index - 1];
            let report = reports.get(a.index - 1)?;
            let answers = good_moves(report);
            let best = *answers.first()?;
            (!answers.contains(&a.action)).then(|| Mistake {
                id: Mistake::id_of(&setup, before, a.action),
                setup,
                line: before.to_vec(),
                played: a.action,
                best,
                answers,
            })
        })
        .collect()
}
