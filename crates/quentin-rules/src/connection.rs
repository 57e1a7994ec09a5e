//! What the connection games (Quentin, Konobi, Brique) share: turns, the pie rule, the forced
//! pass, chains between a colour's two edges and the win. Each game adds only its placement rule
//! through [`PlacementRules`].

use std::marker::PhantomData;
use std::sync::OnceLock;

use super::action::Action;
use super::board::{Board, EMPTY, OFF, PointSet, is_stone};
use super::chains::Chains;
use super::color::Color;
use super::point::{INDICES, Point};

use super::{Change, Ending, Illegal, Outcome};

#[cfg(test)]
mod reference;

/// The part of a connection game that is its own: what a placement does, and how stones link
/// into chains.
pub(crate) trait PlacementRules: Sized + 'static {
    /// Writes onto `changes` what a stone of `color` on the empty point `p` of `board` would
    /// change, the placement first, then the game's own consequences (fills, removals), without
    /// changing the board: `preview`, `is_legal` and the listing of legal actions read the
    /// position as it is, with no copy of the board to try the placement on.
    ///
    /// # Errors
    /// The reason the placement is illegal; `changes` may then hold part of the changes.
    fn preview(
        board: &Board,
        p: Point,
        color: Color,
        changes: &mut Vec<Change>,
    ) -> Result<(), Illegal>;

    /// Plays what [`PlacementRules::preview`] tells, pushing every change onto `changes`, and
    /// answers whether the placement is legal, with no reason: [`PlacementRules::preview`]
    /// tells that, and the playouts, which place by the million, never read it. When illegal,
    /// `changes` holds exactly the changes made on the board (often none), which the caller
    /// undoes.
    fn place(board: &mut Board, p: Point, color: Color, changes: &mut Vec<Change>) -> bool {
        if Self::preview(board, p, color, changes).is_err() {
            // Previewed only: nothing was made.
            changes.clear();
            return false;
        }
        apply(board, changes);
        true
    }

    /// [`PlacementRules::place`], then the chains brought to the changes
    /// ([`Chains::update`]) when it placed. A game may do both at once, while it holds its
    /// changes in registers.
    fn place_and_follow(
        board: &mut Board,
        chains: &mut Chains,
        p: Point,
        color: Color,
        changes: &mut Vec<Change>,
    ) -> bool {
        if !Self::place(board, p, color, changes) {
            return false;
        }
        chains.update::<Self>(board, changes);
        true
    }

    /// The index steps ([`Point::index`]) from a stone to the like-coloured stones linked to it
    /// directly, so that chains are the connected groups of this relation.
    const LINKS: &'static [isize];

    /// Whether the rules read the board's bitboards ([`Board::keep_bitboards`]).
    const BITBOARDS: bool;

    /// Whether a placement may replace a stone by one of the other colour (Brique's fills);
    /// the chains then check what each change took away.
    const REPLACES: bool = false;
}

/// A position of a connection game: board, side to move, pie rule and outcome.
pub(crate) struct Connection<R> {
    board: Board,
    to_move: Color,
    ply: usize,
    pie: bool,
    swapped: bool,
    /// The outcome with its winning line, walked only when first asked for (a playout asks only
    /// [`Connection::winner`]: walking the chain at every win was 4 to 8 % of a Konobi or Brique
    /// playout).
    outcome: OnceLock<Outcome>,
    chains: Chains,
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
            chains: self.chains.clone(),
            rules: PhantomData,
        }
    }

    /// Copies `source` in place, field by field (see `State`'s `clone_from`).
    fn clone_from(&mut self, source: &Self) {
        self.board.clone_from(&source.board);
        self.to_move = source.to_move;
        self.ply = source.ply;
        self.pie = source.pie;
        self.swapped = source.swapped;
        self.outcome.clone_from(&source.outcome);
        self.chains.clone_from(&source.chains);
    }
}

impl<R: PlacementRules> Connection<R> {
    /// The empty board of side `size`, Black to move.
    pub(crate) fn new(size: usize, pie: bool) -> Self {
        let mut board = Board::new(size);
        board.keep_bitboards(R::BITBOARDS);
        Connection {
            chains: Chains::build::<R>(&board),
            board,
            to_move: Color::Black,
            ply: 0,
            pie,
            swapped: false,
            outcome: OnceLock::new(),
            rules: PhantomData,
        }
    }

    /// A position with `board` already set up and `to_move` to move; the pie rule is not
    /// offered, and the action count starts at 0.
    pub(crate) fn from_board(mut board: Board, to_move: Color) -> Self {
        board.keep_bitboards(R::BITBOARDS);
        let chains = Chains::build::<R>(&board);
        Connection {
            board,
            to_move,
            ply: 0,
            pie: false,
            swapped: false,
            outcome: OnceLock::new(),
            chains,
            rules: PhantomData,
        }
    }

    pub(crate) fn board(&self) -> &Board {
        &self.board
    }

    pub(crate) fn to_move(&self) -> Option<Color> {
        self.winner().is_none().then_some(self.to_move)
    }

    pub(crate) fn ply(&self) -> usize {
        self.ply
    }

    pub(crate) fn swapped(&self) -> bool {
        self.swapped
    }

    /// The outcome once the game is over, its winning line walked the first time it is asked.
    pub(crate) fn outcome(&self) -> Option<&Outcome> {
        let (winner, stone) = joined(&self.chains)?;
        Some(self.outcome.get_or_init(|| Outcome::Win {
            winner,
            line: chain::<R>(&self.board, stone),
            ending: Ending::Connection,
        }))
    }

    /// The winner, if a chain joins its two edges; the game is then over. Two flags read.
    pub(crate) fn winner(&self) -> Option<Color> {
        joined(&self.chains).map(|(winner, _)| winner)
    }

    /// Whether the game is over: a chain joins its colour's two edges.
    pub(crate) fn is_over(&self) -> bool {
        self.winner().is_some()
    }

    /// Whether the side to move may swap now: White's first turn with the pie rule on.
    pub(crate) fn swap_available(&self) -> bool {
        self.pie && self.ply == 1 && self.winner().is_none()
    }

    /// What a placement of `color` on `p` would change, into `changes` (cleared first), without
    /// changing the board.
    fn preview_into(
        board: &Board,
        p: Point,
        color: Color,
        changes: &mut Vec<Change>,
    ) -> Result<(), Illegal> {
        check_empty(board, p)?;
        changes.clear();
        R::preview(board, p, color, changes)
    }

    /// Whether the side to move may place on the empty point `p`.
    fn placement_is_legal(&self, p: Point, changes: &mut Vec<Change>) -> bool {
        Self::preview_into(&self.board, p, self.to_move, changes).is_ok()
    }

    /// Whether the side to move has at least one legal placement.
    fn can_place(&self) -> bool {
        let mut changes = Vec::new();
        self.board
            .points()
            .filter(|&p| self.board.is_empty_at(p))
            .any(|p| self.placement_is_legal(p, &mut changes))
    }

    /// Every legal action: the legal placements, `swap` when offered, or `pass` alone when no
    /// placement is legal. Empty once the game is over.
    pub(crate) fn legal_actions(&self) -> Vec<Action> {
        if self.winner().is_some() {
            return Vec::new();
        }
        let mut changes = Vec::new();
        let mut actions: Vec<Action> = self
            .board
            .points()
            .filter(|&p| self.board.is_empty_at(p))
            .filter(|&p| self.placement_is_legal(p, &mut changes))
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
            Action::Place(p) => {
                let mut changes = Vec::new();
                Self::preview_into(&self.board, p, self.to_move, &mut changes).map(|()| changes)
            }
            Action::Swap | Action::Pass => Ok(Vec::new()),
            Action::Step { .. } => Err(Illegal::StepNotOffered),
        }
    }

    /// Refuses what no position in this state allows, before the game's own rule is asked.
    fn check_turn_action(&self, action: Action) -> Result<(), Illegal> {
        if self.winner().is_some() {
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
                if !self.place_if_legal(p, &mut Vec::new()) {
                    return Err(self.refusal(p));
                }
            }
            Action::Swap => self.swap(),
            Action::Pass => self.end_turn(),
            Action::Step { .. } => return Err(Illegal::StepNotOffered),
        }
        Ok(())
    }

    /// The players exchange colours: the board stays and White is to move again.
    fn swap(&mut self) {
        self.swapped = true;
        self.ply += 1;
    }

    /// Ends a turn, the chains already brought to its placement if it had one.
    fn end_turn(&mut self) {
        self.to_move = self.to_move.opponent();
        self.ply += 1;
    }

    /// Plays a placement of the side to move on `p` if it is legal, the changes it made (the
    /// placement first) in `changes`, which is cleared first; refuses it otherwise, the position
    /// unchanged. The primitive of fast playouts: no action list, no allocation.
    ///
    /// # Errors
    /// The reason the placement is illegal.
    pub(crate) fn place(&mut self, p: Point, changes: &mut Vec<Change>) -> Result<(), Illegal> {
        if self.place_if_legal(p, changes) {
            return Ok(());
        }
        Err(self.refusal(p))
    }

    /// [`Connection::place`] answering only whether it placed. The reason of a refusal is not
    /// carried back through the calls: a `Result` of [`Illegal`] (sixteen bytes) went through
    /// memory at each return, its tag written as one byte and the whole read back as one wide
    /// load, which waited for the write (no store-to-load forwarding).
    #[inline]
    pub(crate) fn place_if_legal(&mut self, p: Point, changes: &mut Vec<Change>) -> bool {
        if self.winner().is_some() || self.board.cell(p.index()) != EMPTY {
            return false;
        }
        changes.clear();
        if !R::place_and_follow(&mut self.board, &mut self.chains, p, self.to_move, changes) {
            undo(&mut self.board, changes);
            return false;
        }
        self.end_turn();
        true
    }

    /// Why a placement of the side to move on `p` is refused, told again by the rules on the
    /// position left unchanged.
    #[cold]
    fn refusal(&self, p: Point) -> Illegal {
        if self.winner().is_some() {
            return Illegal::GameOver;
        }
        let mut changes = Vec::new();
        match Self::preview_into(&self.board, p, self.to_move, &mut changes) {
            Err(illegal) => illegal,
            Ok(()) => unreachable!("a placement refused by place is refused by preview"),
        }
    }
}

/// Refuses a placement on `p` when `p` is off the board or occupied: one cell read, since the
/// cells off the board are marked so.
#[inline]
fn check_empty(board: &Board, p: Point) -> Result<(), Illegal> {
    if board.cell(p.index()) == EMPTY {
        return Ok(());
    }
    refuse_occupied(board, p)
}

/// Why a placement on `p`, not empty, is refused.
#[cold]
fn refuse_occupied(board: &Board, p: Point) -> Result<(), Illegal> {
    if !board.contains(p) {
        return Err(Illegal::OffBoard(p));
    }
    match board.get(p) {
        Some(owner) => Err(Illegal::Occupied(p, owner)),
        None => Ok(()),
    }
}

/// Makes the `changes` told by [`PlacementRules::preview`].
pub(crate) fn apply(board: &mut Board, changes: &[Change]) {
    for change in changes {
        board.set(change.point, change.after);
    }
}

/// Puts back what `changes` changed, last change first.
pub(crate) fn undo(board: &mut Board, changes: &[Change]) {
    for change in changes.iter().rev() {
        board.set(change.point, change.before);
    }
}

/// The chain of the stone on `start`: every stone reached through `R::LINKS`, by one walk, a
/// visit per stone, which marks each stone off the board on its own copy of the points as it
/// reaches it. Once a game, at the win.
///
/// Unlike [`spread`], the walk branches on the board. Without branches, each stone of a long
/// chain waited for the one before it (its place on the stack, its cells just marked), and the
/// winning move of a Brique game took 0.80 µs where the union-find before the edge-reach sets
/// took 0.74; with them, the processor runs ahead on its guesses: 0.52 µs when it knows the
/// chain (a benchmark repeating one move), and in random games about 2 % more time a Brique
/// playout than without. (Grown a step at a time on bitboards, Brique's long, thin chains took
/// one dilation of the whole board per stone.)
#[cold]
pub(crate) fn chain<R: PlacementRules>(board: &Board, start: Point) -> PointSet {
    let mut line = PointSet::new();
    let mut cells = board.cells();
    let start = start.index();
    let cell = cells[start];
    if !is_stone(cell) {
        return line;
    }
    cells[start] = OFF;
    // Each stone is pushed once; eight more for the last stone's links, written unchecked.
    let mut stack = [0u16; INDICES + 8];
    stack[0] = start as u16;
    let mut len = 1;
    while len > 0 {
        len -= 1;
        let i = usize::from(stack[len]);
        line.insert_index(i);
        for &d in R::LINKS {
            let j = i.wrapping_add_signed(d);
            if cells[j] == cell {
                cells[j] = OFF;
                stack[len] = j as u16;
                len += 1;
            }
        }
    }
    line
}

/// The stack of [`spread`] on the machine stack; deeper floods spill to the heap.
const STACK: usize = 64;

/// Adds to `reach` (bit `bit` of each index's byte) the stone of index `start` and every stone of
/// its colour linked to it through `R::LINKS` that `reach` does not hold yet, walking only
/// through stones it adds. Stops at the first stone for which `mark` holds, and returns it: the
/// set then holds only part of the stones (the chains use this at a win, when the game is over).
///
/// Written without a branch on the board: each neighbour is written onto the stack and kept
/// only if it is new, so the walk costs the same whatever the shape of the chain (a mispredicted
/// branch per stone was half the time of a random playout). A byte per point, not a bit: a
/// link is one load and one store, with no shift.
pub(crate) fn spread<R: PlacementRules>(
    board: &Board,
    reach: &mut [u8; INDICES],
    bit: u8,
    start: usize,
    mark: impl Fn(usize) -> bool,
) -> Option<usize> {
    const { assert!(R::LINKS.len() <= 8) };
    if reach[start] & bit != 0 {
        return None;
    }
    reach[start] |= bit;
    let cell = board.cell(start);
    // The stones still to visit are `stack[1..=len]`; `stack[0]` is never visited, so that the
    // top (`stack[len]`) can be read before this stone's links are known, empty stack or not.
    let mut stack = [0u16; STACK + 9];
    let mut len = 0;
    let mut spill: Vec<u16> = Vec::new();
    let mut i = start;
    loop {
        if mark(i) {
            return Some(i);
        }
        // The stone to visit next is the last link pushed, else the top of the stack, read now:
        // the next stone is then a choice between two values at hand, not a load from the
        // stack that waits for this stone's pushes (a step of latency per stone of the chain).
        let top = usize::from(stack[len]);
        // Every link is read before any is written: the links of one stone are distinct
        // points, so the answers are the same, and the reads need not wait for the writes.
        let mut new = [false; 8];
        for (new, &d) in new.iter_mut().zip(R::LINKS) {
            let j = i.wrapping_add_signed(d);
            // `&`, not `&&`: no branch on the board.
            *new = (board.cell(j) == cell) & (reach[j] & bit == 0);
        }
        let mut pushed = 0;
        let mut last = top;
        for (&new, &d) in new.iter().zip(R::LINKS) {
            let j = i.wrapping_add_signed(d);
            reach[j] |= bit & 0u8.wrapping_sub(u8::from(new));
            stack[len + 1 + pushed] = j as u16;
            pushed += usize::from(new);
            last = if new { j } else { last };
        }
        if len + pushed == 0 {
            let Some(next) = spill.pop() else { break };
            i = usize::from(next);
            continue;
        }
        // The last link pushed leaves the stack at once; with none, the top does.
        i = last;
        len = len + pushed - 1;
        // Room for the next stone's links, whose writes are not checked.
        if len > STACK {
            spill.extend_from_slice(&stack[1..=len]);
            len = 0;
        }
    }
    None
}

/// The colour whose chain joins its two edges, if either does, and a stone of that chain.
#[inline]
fn joined(chains: &Chains) -> Option<(Color, Point)> {
    Color::ALL
        .into_iter()
        .find_map(|color| Some((color, chains.joining_stone(color)?)))
}
