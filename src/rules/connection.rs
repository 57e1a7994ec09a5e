//! What the connection games (Quentin, Konobi, Brique) share: turns, the pie rule, the forced
//! pass, chains between a colour's two edges and the win. Each game adds only its placement rule
//! through [`PlacementRules`].

use std::marker::PhantomData;

use super::action::Action;
use super::board::{Board, PointSet};
use super::color::Color;
use super::point::Point;
use super::{Change, Illegal, Outcome};

/// The part of a connection game that is its own: what a placement does, and how stones link
/// into chains.
pub(crate) trait PlacementRules: 'static {
    /// Puts a stone of `color` on the empty point `p` of `board` and applies the game's own
    /// consequences (fills, removals), pushing every change onto `changes`, the placement first.
    ///
    /// # Errors
    /// The reason the placement is illegal. The board may then hold partial changes, all of them
    /// in `changes`, which the caller undoes.
    fn place(
        board: &mut Board,
        p: Point,
        color: Color,
        changes: &mut Vec<Change>,
    ) -> Result<(), Illegal>;

    /// The stones of the same colour as the stone on `p` that are linked to it directly, so that
    /// chains are the connected groups of this relation.
    fn linked(board: &Board, p: Point) -> impl Iterator<Item = Point>;
}

/// A position of a connection game: board, side to move, pie rule and outcome.
pub(crate) struct Connection<R> {
    board: Board,
    to_move: Color,
    ply: usize,
    pie: bool,
    swapped: bool,
    outcome: Option<Outcome>,
    rules: PhantomData<fn() -> R>,
}

// Written by hand: a derive would ask `R: Clone` of the rule marker.
impl<R> Clone for Connection<R> {
    fn clone(&self) -> Self {
        Connection {
            board: self.board.clone(),
            to_move: self.to_move,
            ply: self.ply,
            pie: self.pie,
            swapped: self.swapped,
            outcome: self.outcome.clone(),
            rules: PhantomData,
        }
    }
}

impl<R: PlacementRules> Connection<R> {
    /// The empty board of side `size`, Black to move.
    pub(crate) fn new(size: usize, pie: bool) -> Self {
        Connection {
            board: Board::new(size),
            to_move: Color::Black,
            ply: 0,
            pie,
            swapped: false,
            outcome: None,
            rules: PhantomData,
        }
    }

    pub(crate) fn board(&self) -> &Board {
        &self.board
    }

    pub(crate) fn to_move(&self) -> Option<Color> {
        self.outcome.is_none().then_some(self.to_move)
    }

    pub(crate) fn ply(&self) -> usize {
        self.ply
    }

    pub(crate) fn swapped(&self) -> bool {
        self.swapped
    }

    pub(crate) fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Whether the side to move may swap now: White's first turn with the pie rule on.
    pub(crate) fn swap_available(&self) -> bool {
        self.pie && self.ply == 1 && self.outcome.is_none()
    }

    /// Tries a placement in place: on success the board holds it and its changes are returned;
    /// on failure the board is as it was.
    fn try_place(board: &mut Board, p: Point, color: Color) -> Result<Vec<Change>, Illegal> {
        if !board.contains(p) {
            return Err(Illegal::OffBoard(p));
        }
        if let Some(owner) = board.get(p) {
            return Err(Illegal::Occupied(p, owner));
        }
        let mut changes = Vec::new();
        match R::place(board, p, color, &mut changes) {
            Ok(()) => Ok(changes),
            Err(reason) => {
                undo(board, &changes);
                Err(reason)
            }
        }
    }

    /// Whether the side to move has at least one legal placement.
    fn can_place(&self) -> bool {
        let mut board = self.board.clone();
        let color = self.to_move;
        self.board
            .points()
            .filter(|&p| self.board.is_empty_at(p))
            .any(|p| match Self::try_place(&mut board, p, color) {
                Ok(changes) => {
                    undo(&mut board, &changes);
                    true
                }
                Err(_) => false,
            })
    }

    /// Every legal action: the legal placements, `swap` when offered, or `pass` alone when no
    /// placement is legal. Empty once the game is over.
    pub(crate) fn legal_actions(&self) -> Vec<Action> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        let mut board = self.board.clone();
        let color = self.to_move;
        let mut actions: Vec<Action> = self
            .board
            .points()
            .filter(|&p| self.board.is_empty_at(p))
            .filter(|&p| match Self::try_place(&mut board, p, color) {
                Ok(changes) => {
                    undo(&mut board, &changes);
                    true
                }
                Err(_) => false,
            })
            .map(Action::Place)
            .collect();
        if actions.is_empty() {
            actions.push(Action::Pass);
        }
        if self.swap_available() {
            actions.push(Action::Swap);
        }
        actions
    }

    /// What `action` would change on the board, without playing it.
    pub(crate) fn preview(&self, action: Action) -> Result<Vec<Change>, Illegal> {
        self.check_turn_action(action)?;
        match action {
            Action::Place(p) => Self::try_place(&mut self.board.clone(), p, self.to_move),
            Action::Swap | Action::Pass => Ok(Vec::new()),
            Action::Step { .. } => Err(Illegal::StepNotOffered),
        }
    }

    /// Refuses what no position in this state allows, before the game's own rule is asked.
    fn check_turn_action(&self, action: Action) -> Result<(), Illegal> {
        if self.outcome.is_some() {
            return Err(Illegal::GameOver);
        }
        match action {
            Action::Swap if !self.swap_available() => Err(Illegal::SwapNotOffered),
            Action::Pass if self.can_place() => Err(Illegal::PassWithLegalPlacement),
            _ => Ok(()),
        }
    }

    /// Plays `action` for the side to move.
    ///
    /// # Errors
    /// The reason it is illegal; the position is then unchanged.
    pub(crate) fn play(&mut self, action: Action) -> Result<(), Illegal> {
        self.check_turn_action(action)?;
        match action {
            Action::Place(p) => {
                Self::try_place(&mut self.board, p, self.to_move)?;
                self.to_move = self.to_move.opponent();
                self.outcome = winner::<R>(&self.board);
            }
            // The players exchange colours: the board stays and White is to move again.
            Action::Swap => self.swapped = true,
            Action::Pass => self.to_move = self.to_move.opponent(),
            Action::Step { .. } => return Err(Illegal::StepNotOffered),
        }
        self.ply += 1;
        Ok(())
    }
}

/// Puts back what `changes` changed, last change first.
pub(crate) fn undo(board: &mut Board, changes: &[Change]) {
    for change in changes.iter().rev() {
        board.set(change.point, change.before);
    }
}

/// The chain of the stone on `start`: every stone reached through `R::linked`.
pub(crate) fn chain<R: PlacementRules>(board: &Board, start: Point) -> PointSet {
    let mut chain = PointSet::new();
    chain.insert(start);
    let mut stack = vec![start];
    while let Some(p) = stack.pop() {
        for q in R::linked(board, p) {
            if chain.insert(q) {
                stack.push(q);
            }
        }
    }
    chain
}

/// The win, if a chain of either colour touches both of its edges, with that chain.
pub(crate) fn winner<R: PlacementRules>(board: &Board) -> Option<Outcome> {
    for color in Color::ALL {
        let mut seen = PointSet::new();
        for p in board.points() {
            if board.get(p) != Some(color) || !board.on_first_edge(p, color) || seen.contains(p) {
                continue;
            }
            let chain = chain::<R>(board, p);
            if chain.iter().any(|q| board.on_second_edge(q, color)) {
                return Some(Outcome::Win {
                    winner: color,
                    line: chain,
                });
            }
            for q in chain.iter() {
                seen.insert(q);
            }
        }
    }
    None
}

/// The like-coloured orthogonal neighbours of the stone on `p`: the chain link of Quentin and
/// Brique.
pub(crate) fn orthogonal_links(board: &Board, p: Point) -> impl Iterator<Item = Point> + '_ {
    let color = board.get(p);
    board.neighbours(p).filter(move |&q| board.get(q) == color)
}
