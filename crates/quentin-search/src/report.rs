//! What a search found: the root's statistics of each thread, merged into one [`Report`].

use std::time::Duration;

use quentin_rules::{Action, Color, Position};

use super::Proven;
use super::tree::{Proof, ROOT, Tree, centrality, swap_margin};
use crate::Calibration;

/// The longest principal variation reported.
const PV_LENGTH: usize = 12;

/// The fewest playouts through an action for its win chance to mean something: below, the
/// chance of an action not proved is not given ([`MoveReport::chance`]). After 50 playouts a
/// share has a standard error of at most 7 points; after one it is 0 or 100 %.
pub const MIN_VISITS: u64 = 50;

/// `61%`, or `a proven win` / `a proven loss`: a win chance for the side it is given for, in
/// the words the interface, `quentin analyze` and GTP's messages all use; `…` when the search
/// has not played enough playouts to give one.
#[must_use]
pub fn chance_words(win: Option<f64>, proven: Option<Proven>) -> String {
    match (proven, win) {
        (Some(Proven::Win), _) => "a proven win".to_string(),
        (Some(Proven::Loss), _) => "a proven loss".to_string(),
        (None, Some(win)) => format!("{:.0}%", (win * 100.0).clamp(0.0, 100.0)),
        (None, None) => "…".to_string(),
    }
}

/// One root action as the search sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReport {
    /// The action.
    pub action: Action,
    /// Playouts through it.
    pub visits: u64,
    /// The playouts' raw share of wins for the side to move after it, from 0 to 1 (1 or 0
    /// when proved): what the search decides on. People are shown [`MoveReport::chance`].
    pub win: f64,
    /// Whether its value is proved, for the side to move at the root.
    pub proven: Option<Proven>,
    /// The mapping from `win` to the chance shown, the game's.
    pub calibration: Calibration,
    /// When proved: the actions until the game ends by the proof, this one included (the winner
    /// hurrying, the loser holding out); 1 for an action that wins at once.
    pub ends_in: Option<u32>,
    /// The principal variation: this action, then the expected replies.
    pub pv: Vec<Action>,
}

impl MoveReport {
    /// The win chance to show people when it means something: 1 or 0 when proved, else the
    /// calibrated estimate ([`Calibration`]) from at least [`MIN_VISITS`] playouts; `None`
    /// before.
    #[must_use]
    pub fn chance(&self) -> Option<f64> {
        match self.proven {
            Some(_) => Some(self.win),
            None => self.raw_chance().map(|raw| self.calibration.chance(raw)),
        }
    }

    /// The playouts' raw share ([`MoveReport::win`]) when [`MoveReport::chance`] gives a
    /// chance; `None` when it does not.
    #[must_use]
    pub fn raw_chance(&self) -> Option<f64> {
        (self.proven.is_some() || self.visits >= MIN_VISITS).then_some(self.win)
    }
}

/// The search's answer for the root.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The colour to move at the root, `None` for a finished game.
    pub to_move: Option<Color>,
    /// The action to play; `None` only for a finished game. Below full strength, the level's
    /// choice (see [`crate::Level`]).
    pub best: Option<Action>,
    /// The playouts' raw share of wins for the side to move playing `best`, from 0 to 1 (1 or
    /// 0 when proved): what the search decides on. People are shown [`Report::chance`].
    pub win: f64,
    /// The value of `best` when proved: at full strength the position's; below it, the level's
    /// choice's own (a drawn action may throw away a win the search proved).
    pub proven: Option<Proven>,
    /// The mapping from `win` to the chance shown, the game's ([`Calibration::of`]).
    pub calibration: Calibration,
    /// Playouts of this search (not counting those kept from earlier moves).
    pub playouts: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// Every root action: proved wins first, the quickest first; then the most visited (ties
    /// from the centre out); proved losses last, the one that holds out longest first.
    pub moves: Vec<MoveReport>,
}

/// One root child of one tree.
#[derive(Clone, Debug)]
struct ChildStats {
    action: Action,
    visits: u64,
    wins: f64,
    proof: Proof,
    /// The length of its proof, when proved.
    length: u16,
    pv: Vec<Action>,
}

/// A copy of one tree's root statistics, cheap to share between threads.
#[derive(Clone, Debug, Default)]
pub(crate) struct RootStats {
    proof: Option<Proven>,
    children: Vec<ChildStats>,
}

impl RootStats {
    /// The root of `tree` now.
    pub(crate) fn of(tree: &Tree) -> RootStats {
        let proof = match tree.root_proof() {
            Proof::Win => Some(Proven::Win),
            Proof::Loss => Some(Proven::Loss),
            Proof::Unknown | Proof::Draw => None,
        };
        let children = tree
            .children(ROOT)
            .map(|c| {
                let n = tree.node(c);
                ChildStats {
                    action: n.action,
                    visits: u64::from(tree.visits(c)),
                    wins: f64::from(tree.wins(c)),
                    proof: n.proof,
                    length: tree.proof_length(c),
                    pv: tree.pv(c, PV_LENGTH),
                }
            })
            .collect();
        RootStats { proof, children }
    }
}

/// Random playouts credit any first stone, even a corner one, with a little more than even: the
/// swap is chosen only when it looks better than even by more than that ([`swap_margin`]), else
/// the most visited placement is kept. The search itself discounts the swap by the same margin,
/// so that in the close cases the placements are searched as well as the swap.
fn prefer_placement_to_a_slim_swap(moves: &mut [MoveReport], margin: f64) {
    let Some(swap) = moves
        .first()
        .filter(|m| m.action == Action::Swap && m.proven.is_none())
    else {
        return;
    };
    if swap.win >= 0.5 + margin {
        return;
    }
    let alternative = moves
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, m)| m.proven.is_none() && m.visits > 0)
        .max_by(|(_, a), (_, b)| a.visits.cmp(&b.visits).then(a.win.total_cmp(&b.win)));
    if let Some((i, _)) = alternative {
        moves[..=i].rotate_right(1);
    }
}

/// A root action with what orders it in the report.
struct Ranked {
    /// 0 for a proved win, 1 for an action not proved (or a draw), 2 for a proved loss.
    rank: u8,
    /// The playouts' share of wins through it, proved or not.
    share: f64,
    /// Its distance from the centre ([`centrality`]).
    centrality: usize,
    report: MoveReport,
}

impl Ranked {
    /// Proved wins first, the quickest first; then the most visited, the better first, ties from
    /// the centre out (never by their place in the list); proved losses last, the one that
    /// holds out longest first, else the one the playouts found hardest to beat.
    fn order(a: &Ranked, b: &Ranked) -> std::cmp::Ordering {
        let (ma, mb) = (&a.report, &b.report);
        let by_visits = || {
            mb.visits
                .cmp(&ma.visits)
                .then(mb.win.total_cmp(&ma.win))
                .then(a.centrality.cmp(&b.centrality))
        };
        a.rank.cmp(&b.rank).then_with(|| match a.rank {
            0 => ma.ends_in.cmp(&mb.ends_in).then_with(by_visits),
            2 => mb
                .ends_in
                .cmp(&ma.ends_in)
                .then(b.share.total_cmp(&a.share))
                .then_with(by_visits),
            _ => by_visits(),
        })
    }
}

impl Report {
    /// The report of a finished game: nothing to play.
    pub(crate) fn finished(position: &Position, elapsed: Duration) -> Report {
        Report {
            to_move: position.to_move(),
            best: None,
            win: 0.5,
            proven: None,
            calibration: Calibration::of(position.setup()),
            playouts: 0,
            elapsed,
            moves: Vec::new(),
        }
    }

    /// The threads' root statistics merged: visits and results added, proofs taken from any
    /// thread (a proof is exact), the variation from the thread that visited the action most.
    pub(crate) fn merge(
        position: &Position,
        stats: &[RootStats],
        playouts: u64,
        elapsed: Duration,
    ) -> Report {
        let Some(first) = stats.iter().max_by_key(|s| s.children.len()) else {
            return Report::finished(position, elapsed);
        };
        let size = position.size();
        let calibration = Calibration::of(position.setup());
        let mut moves: Vec<Ranked> = first
            .children
            .iter()
            .enumerate()
            .map(|(j, c)| {
                let same = stats
                    .iter()
                    .filter_map(|s| s.children.get(j).filter(|o| o.action == c.action));
                let visits: u64 = same.clone().map(|o| o.visits).sum();
                let wins: f64 = same.clone().map(|o| o.wins).sum();
                // A proof is exact, from whichever thread found it; of several, the shortest
                // bound on the game's end.
                let proved = same
                    .clone()
                    .filter(|o| o.proof == Proof::Win || o.proof == Proof::Loss)
                    .min_by_key(|o| o.length);
                let proof = proved.map_or(c.proof, |o| o.proof);
                let ends_in = proved.map(|o| u32::from(o.length) + 1);
                let pv = same
                    .max_by_key(|o| o.visits)
                    .map_or_else(|| vec![c.action], |o| o.pv.clone());
                // The playouts' verdict, kept when a proof overrides it: among proved losses
                // as long as each other, the one the playouts found hardest to beat.
                let share = if visits == 0 {
                    0.5
                } else {
                    wins / visits as f64
                };
                // A child's proof is for the opponent: their loss is the root's win.
                let (proven, win, rank) = match proof {
                    Proof::Loss => (Some(Proven::Win), 1.0, 0),
                    Proof::Win => (Some(Proven::Loss), 0.0, 2),
                    Proof::Draw => (None, 0.5, 1),
                    Proof::Unknown => (None, share, 1),
                };
                let report = MoveReport {
                    action: c.action,
                    visits,
                    win,
                    proven,
                    calibration,
                    ends_in,
                    pv,
                };
                Ranked {
                    rank,
                    share,
                    centrality: centrality(c.action, size),
                    report,
                }
            })
            .collect();
        moves.sort_by(Ranked::order);
        let mut moves: Vec<MoveReport> = moves.into_iter().map(|m| m.report).collect();
        prefer_placement_to_a_slim_swap(&mut moves, swap_margin(position.size()));
        let proven = stats.iter().find_map(|s| s.proof).or_else(|| {
            if moves.first().is_some_and(|m| m.proven == Some(Proven::Win)) {
                Some(Proven::Win)
            } else if !moves.is_empty() && moves.iter().all(|m| m.proven == Some(Proven::Loss)) {
                Some(Proven::Loss)
            } else {
                None
            }
        });
        let best = moves.first();
        let win = match proven {
            Some(Proven::Win) => 1.0,
            Some(Proven::Loss) => 0.0,
            None => best.map_or(0.5, |m| m.win),
        };
        Report {
            to_move: position.to_move(),
            best: best.map(|m| m.action),
            win,
            proven,
            calibration,
            playouts,
            elapsed,
            moves,
        }
    }

    /// The win chance of playing `best` to show people when it means something: 1 or 0 when
    /// proved, else the calibrated estimate ([`Calibration`]) from at least [`MIN_VISITS`]
    /// playouts through `best`; `None` before.
    #[must_use]
    pub fn chance(&self) -> Option<f64> {
        match self.proven {
            Some(_) => Some(self.win),
            None => self.raw_chance().map(|raw| self.calibration.chance(raw)),
        }
    }

    /// The playouts' raw share ([`Report::win`]) when [`Report::chance`] gives a chance;
    /// `None` when it does not.
    #[must_use]
    pub fn raw_chance(&self) -> Option<f64> {
        if self.proven.is_some() {
            return Some(self.win);
        }
        let best = self.moves.iter().find(|m| Some(m.action) == self.best)?;
        best.raw_chance().map(|_| self.win)
    }

    /// The playouts the root's tree holds: this search's ([`Report::playouts`]) and those kept
    /// from earlier searches (tree reuse), as many as the visits of its actions together. What
    /// to show beside the actions' visits, which count the kept ones too.
    #[must_use]
    pub fn tree_playouts(&self) -> u64 {
        let visits: u64 = self.moves.iter().map(|m| m.visits).sum();
        visits.max(self.playouts)
    }

    /// The root action to play (`best`), as the search saw it.
    #[must_use]
    pub fn played(&self) -> Option<&MoveReport> {
        self.moves.iter().find(|m| Some(m.action) == self.best)
    }

    /// What playing `best` is worth to the side to move, in the words every front end uses
    /// ([`chance_words`]) after the action: `, 61% for black` with `whom` = `for black`, or
    /// ` (no figure: 12 playouts through it, 50 needed)` when the search cannot give one. The
    /// interface's "Computer played", `quentin analyze` and GTP's `explain_last_move` say it.
    #[must_use]
    pub fn worth(&self, whom: &str) -> String {
        match (self.chance(), self.proven) {
            (None, None) => {
                let visits = self.played().map_or(0, |m| m.visits);
                let s = if visits == 1 { "" } else { "s" };
                format!(" (no figure: {visits} playout{s} through it, {MIN_VISITS} needed)")
            }
            (win, proven) => format!(", {} {whom}", chance_words(win, proven)),
        }
    }

    /// Playouts a second.
    #[must_use]
    pub fn playouts_per_s(&self) -> f64 {
        self.playouts as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}
