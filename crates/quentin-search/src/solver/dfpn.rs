//! Depth-first proof-number search for Quentin, Konobi and Brique (see the parent module).
//!
//! A node is a position, whether the attacker (the person the question is about) is to move
//! (an OR node) or the defender (an AND node), and the attacker's moves left. The table keeps
//! for each position and kind of node its proof and disproof numbers at the depth they were
//! last worked out for, the fewest attacker moves a proof found needs (a proof serves every
//! depth at or above it) and the depth below which the attacker was shown not to win (a
//! refutation serves every depth below it). The numbers only steer the search; the proofs and
//! refutations are exact, built from settled children only.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use quentin_rules::{Action, Color, Game, Point, Position};

use super::key::{Key, Keyer, Mix};
use super::store::{Known, Store};
use super::{Counter, Engine, OutOfBudget, Settled, Techniques, landing, ordered_actions};

mod work;

use work::Work;

/// A proof or disproof number that cannot be reached: a settled node's other number.
const INF: u32 = u32::MAX;
/// The largest number a sum of children's numbers is held to, below [`INF`].
const CAP: u32 = INF - 1;
/// No proof known ([`Entry::win_in`]).
const NO_PROOF: u16 = u16::MAX;
/// The entries a table holds by default before it forgets the cheapest ones (about 70 bytes
/// each; [`super::SolveOptions::table`]).
pub const TABLE_CAP: usize = 1 << 23;

/// The smallest room a table is given (`quentin solve --table` asks for 1,024 at least; the
/// tests make it tiny, so that the table forgets all the time).
const MIN_ROOM: usize = 16;

/// What the table knows of a node.
#[derive(Clone, Copy)]
struct Entry {
    pn: u32,
    dn: u32,
    /// The depth `pn` and `dn` were worked out for.
    depth: u16,
    /// The fewest attacker moves a proof found needs, [`NO_PROOF`] when none.
    win_in: u16,
    /// The attacker does not win within any depth below this (0: nothing known).
    no_win_below: u16,
    /// The positions the searches of the node created, as a [`Work`] (what forgetting the
    /// entry would cost to redo).
    work: Work,
}

impl Entry {
    /// Whether it holds a proof or a refutation.
    fn settled(&self) -> bool {
        self.win_in != NO_PROOF || self.no_win_below > 0
    }
}

/// A node of the search. Its position is not kept (a position is kilobytes, a node a few dozen
/// bytes): its parent's position and `action` make it again when the search goes into it.
struct Node {
    /// The action that made it.
    action: Action,
    /// Whether the attacker is to move.
    or: bool,
    /// The attacker's moves left.
    depth: u16,
    key: Key,
    /// Where the stone placed last went.
    last: Option<Point>,
    /// Its value, once known here (settled when it was made, or by its own search).
    settled: Option<Settled>,
}

/// The proof and disproof numbers of a settled value at `depth`.
fn numbers(settled: Settled, depth: u16) -> Option<(u32, u32)> {
    match settled {
        Settled::Win(need) if need <= depth => Some((0, INF)),
        Settled::NoWinBelow(below) if depth < below => Some((INF, 0)),
        _ => None,
    }
}

/// Whether `color` has a placement that wins at once (the rules' threats: exact when found).
fn threatens(pos: &Position, color: Color, points: &mut Vec<Point>) -> bool {
    pos.connecting_points(color, points);
    !points.is_empty()
}

/// Quentin: whether the defender to move has a reply after which the attacker has not won (a
/// tie fill can complete the attacker's chain).
fn safe_reply(pos: &Position, attacker: Color) -> bool {
    if pos.swap_available() {
        return true;
    }
    let mut trial = pos.clone();
    let mut changes = Vec::new();
    let mut placed = false;
    for p in pos.board().points() {
        if !pos.board().is_empty_at(p) {
            continue;
        }
        trial.clone_from(pos);
        if trial.place_if_legal(p, &mut changes) {
            placed = true;
            if trial.winner() != Some(attacker) {
                return true;
            }
        }
    }
    // No placement: the defender passes, and nothing changes.
    !placed
}

/// What can be told of a position that goes on without searching it: the rules' threats, the
/// depth running out.
fn settle_at_once(
    pos: &Position,
    or: bool,
    depth: u16,
    points: &mut Vec<Point>,
) -> Option<Settled> {
    let to_move = pos.to_move()?;
    let attacker = if or { to_move } else { to_move.opponent() };
    if or {
        if depth == 0 {
            return Some(Settled::NoWinBelow(1));
        }
        if threatens(pos, attacker, points) {
            return Some(Settled::Win(1));
        }
        // Only Quentin's tie fills let the defender's reply win for the attacker; elsewhere a
        // last move that does not win at once does not win.
        if depth == 1 && pos.game() != Game::Quentin {
            return Some(Settled::NoWinBelow(2));
        }
        None
    } else {
        if threatens(pos, to_move, points) {
            // The defender wins at once.
            return Some(Settled::NoWinBelow(u16::MAX));
        }
        if depth == 0 {
            let lost = pos.game() == Game::Quentin && !safe_reply(pos, attacker);
            return Some(if lost {
                Settled::Win(0)
            } else {
                Settled::NoWinBelow(1)
            });
        }
        None
    }
}

/// The df-pn search and its table.
pub(super) struct DfPn {
    table: HashMap<Key, Entry, BuildHasherDefault<Mix>>,
    /// The entries the table holds before it forgets the cheapest ones ([`DfPn::forget`]):
    /// `room` beyond what a store brought (so that a large store is not forgotten at once).
    cap: usize,
    /// The entries the search may add beyond a store's ([`TABLE_CAP`] unless asked).
    room: usize,
    points: Vec<Point>,
    keyer: Keyer,
    techniques: Techniques,
    /// A position to make children in, kept from one expansion to the next (copied into in
    /// place, never allocated again).
    scratch: Option<Position>,
}

impl DfPn {
    /// The search of positions of `game` on boards of side `size`, its table holding `room`
    /// entries beyond a store's (0: [`TABLE_CAP`]).
    pub(super) fn new(game: Game, size: usize, techniques: Techniques, room: usize) -> DfPn {
        let room = if room == 0 {
            TABLE_CAP
        } else {
            room.max(MIN_ROOM)
        };
        DfPn {
            table: HashMap::default(),
            cap: room,
            room,
            points: Vec::new(),
            keyer: Keyer::new(game, size, techniques.symmetry),
            techniques,
            scratch: None,
        }
    }

    /// The fewest attacker moves of the proof the table holds for `pos` with the defender to
    /// move, if it holds one.
    pub(super) fn proved(&self, pos: &Position) -> Option<u16> {
        let e = self.table.get(&self.keyer.key(pos, false))?;
        (e.win_in != NO_PROOF).then_some(e.win_in)
    }

    /// The numbers of `node` from what it knows or the table.
    fn lookup(&self, node: &Node) -> (u32, u32) {
        if let Some(n) = node.settled.and_then(|s| numbers(s, node.depth)) {
            return n;
        }
        match self.table.get(&node.key) {
            None => (1, 1),
            Some(e) if e.win_in <= node.depth => (0, INF),
            Some(e) if node.depth < e.no_win_below => (INF, 0),
            Some(e) if e.depth == node.depth => (e.pn, e.dn),
            Some(_) => (1, 1),
        }
    }

    /// The settled value of a node whose numbers say it is settled.
    fn settled(&self, node: &Node) -> Option<Settled> {
        if let Some(s) = node.settled {
            return Some(s);
        }
        let e = self.table.get(&node.key)?;
        if e.win_in <= node.depth {
            Some(Settled::Win(e.win_in))
        } else if node.depth < e.no_win_below {
            Some(Settled::NoWinBelow(e.no_win_below))
        } else {
            None
        }
    }

    /// Keeps what the search learned of a node: its numbers at `depth`, its value where
    /// settled, and `work` more positions its search created.
    fn store(
        &mut self,
        key: Key,
        depth: u16,
        (pn, dn): (u32, u32),
        settled: Option<Settled>,
        work: u64,
    ) {
        if self.table.len() >= self.cap && !self.table.contains_key(&key) {
            self.forget();
        }
        let e = self.table.entry(key).or_insert(Entry {
            pn,
            dn,
            depth,
            win_in: NO_PROOF,
            no_win_below: 0,
            work: Work::default(),
        });
        e.pn = pn;
        e.dn = dn;
        e.depth = depth;
        e.work = e.work.add(work);
        match settled {
            Some(Settled::Win(need)) => e.win_in = e.win_in.min(need),
            Some(Settled::NoWinBelow(below)) => e.no_win_below = e.no_win_below.max(below),
            None => {}
        }
    }

    /// Makes room in a full table: forgets the entries that would cost least to find again
    /// until half the room is free, as Benzene's df-pn table replaces by work. The proofs and
    /// refutations go last (a settled entry, whatever its work, saves every search that meets
    /// the node again), with the most expensive unsettled entries (an eighth of the room: the
    /// numbers of the lines the search is in) ranked with them; within each rank the entries
    /// of least work go first. Forgetting never makes a claim wrong, only work to redo: a node is settled from
    /// settled children or the rules alone.
    fn forget(&mut self) {
        let keep = self.cap - self.room / 2;
        // The work above which an unsettled entry ranks with the settled ones.
        let mut open: Vec<Work> = (self.table.values())
            .filter(|e| !e.settled())
            .map(|e| e.work)
            .collect();
        let guarded = (self.room / 8).min(open.len());
        let guard = if guarded == 0 {
            Work::MAX
        } else {
            let at = open.len() - guarded;
            *open.select_nth_unstable(at).1
        };
        drop(open);
        let rank = |e: &Entry| -> u32 {
            let tier = u32::from(e.settled() || e.work >= guard);
            (tier << 16) | u32::from(e.work.0)
        };
        let mut ranks: Vec<u32> = self.table.values().map(rank).collect();
        let n = ranks.len();
        if n <= keep {
            return;
        }
        // The least rank kept: the entries above it stay, and of those equal to it as many
        // as there is room for.
        let least = *ranks.select_nth_unstable(n - keep).1;
        let above = ranks.iter().filter(|&&r| r > least).count();
        drop(ranks);
        let mut equal_room = keep - above;
        self.table.retain(|_, e| {
            let r = rank(e);
            if r > least {
                true
            } else if r == least && equal_room > 0 {
                equal_room -= 1;
                true
            } else {
                false
            }
        });
    }

    /// The children of `node`, each settled at once where it can be, and whether the must-play
    /// pruning left some out.
    ///
    /// Must-play: a move after which the opponent of its player wins at once (the rules'
    /// threats) is lost for that player, so with [`Techniques::must_play`] only the moves that
    /// stop every threat become children. The pruned ones would have been settled at once
    /// (the attacker's proof one move deeper, the defender's win), so what is proved does not
    /// change: [`DfPn::settle`] counts them (`pruned`), and a node with every move pruned is
    /// settled by them alone.
    fn expand(
        &mut self,
        at: &Position,
        node: &Node,
        counter: &mut Counter,
    ) -> Result<(Vec<Node>, bool), OutOfBudget> {
        let Some(mover) = at.to_move() else {
            return Ok((Vec::new(), false));
        };
        let attacker = if node.or { mover } else { mover.opponent() };
        let depth = if node.or { node.depth - 1 } else { node.depth };
        let actions = ordered_actions(at, node.last, self.techniques.ordering);
        let mut kids = Vec::with_capacity(actions.len());
        let mut pruned = false;
        // Out of budget midway, the scratch position is dropped: the search ends anyway.
        let mut pos = self.scratch.take().unwrap_or_else(|| at.clone());
        for action in actions {
            pos.clone_from(at);
            if pos.play(action).is_err() {
                continue;
            }
            counter.tick()?;
            let settled = if pos.is_over() {
                // A swap never ends a game: the attacker still plays `attacker`.
                Some(if pos.winner() == Some(attacker) {
                    Settled::Win(0)
                } else {
                    Settled::NoWinBelow(u16::MAX)
                })
            } else {
                let s = settle_at_once(&pos, !node.or, depth, &mut self.points);
                // The opponent of the move's player wins at once: the attacker (a proof in
                // one more move, depth >= 1 here) or the defender.
                let lost = match s {
                    Some(Settled::Win(1)) => !node.or,
                    Some(Settled::NoWinBelow(u16::MAX)) => node.or,
                    _ => false,
                };
                if lost && self.techniques.must_play {
                    pruned = true;
                    continue;
                }
                s
            };
            // A settled child is never looked up in the table: its key is not needed.
            let key = match settled {
                None => self.keyer.key(&pos, !node.or),
                Some(_) => Key::NONE,
            };
            kids.push(Node {
                action,
                or: !node.or,
                depth,
                key,
                last: landing(action),
                settled,
            });
        }
        self.scratch = Some(pos);
        Ok((kids, pruned))
    }

    /// Searches `node` until its numbers reach the thresholds or it is settled.
    fn mid(
        &mut self,
        at: &Position,
        node: &Node,
        th_pn: u32,
        th_dn: u32,
        counter: &mut Counter,
    ) -> Result<Option<Settled>, OutOfBudget> {
        let start = counter.local;
        let (mut kids, pruned) = self.expand(at, node, counter)?;
        // The position of the child searched, made again from `at` for each descent.
        let mut child: Option<Position> = None;
        loop {
            let (mut pn, mut dn) = if node.or { (INF, 0u32) } else { (0u32, INF) };
            // The best child by the number that the node minimises, and the second best value.
            let mut best: Option<(usize, u32, u32)> = None;
            let mut second = INF;
            for (i, kid) in kids.iter().enumerate() {
                let (kpn, kdn) = self.lookup(kid);
                let (small, sum) = if node.or { (kpn, kdn) } else { (kdn, kpn) };
                let (min, total) = if node.or {
                    (&mut pn, &mut dn)
                } else {
                    (&mut dn, &mut pn)
                };
                *min = (*min).min(small);
                *total = if sum == INF || *total == INF {
                    INF
                } else {
                    (*total).saturating_add(sum).min(CAP)
                };
                match best {
                    Some((_, b, _)) if small >= b => second = second.min(small),
                    _ => {
                        if let Some((_, b, _)) = best {
                            second = second.min(b);
                        }
                        best = Some((i, small, if node.or { kdn } else { kpn }));
                    }
                }
            }
            if pn == 0 || dn == 0 {
                let settled = self.settle(node, &kids, pruned, pn == 0);
                let work = counter.local - start;
                self.store(node.key, node.depth, (pn, dn), Some(settled), work);
                return Ok(Some(settled));
            }
            if pn >= th_pn || dn >= th_dn {
                let work = counter.local - start;
                self.store(node.key, node.depth, (pn, dn), None, work);
                return Ok(None);
            }
            let Some((i, _, other)) = best else {
                unreachable!("a node with no child is settled: its numbers are 0 or INF");
            };
            // Pawlewicz and Lew's 1+ε: a little beyond the second best before switching.
            let near = second.saturating_add(second / 4).saturating_add(1);
            let (kid_pn, kid_dn) = if node.or {
                let rest = u64::from(th_dn) - u64::from(dn) + u64::from(other);
                (th_pn.min(near), rest.min(u64::from(INF)) as u32)
            } else {
                let rest = u64::from(th_pn) - u64::from(pn) + u64::from(other);
                (rest.min(u64::from(INF)) as u32, th_dn.min(near))
            };
            let pos = child.get_or_insert_with(|| at.clone());
            pos.clone_from(at);
            if pos.play(kids[i].action).is_err() {
                unreachable!("the action was legal when the node was expanded");
            }
            if let Some(s) = self.mid(pos, &kids[i], kid_pn, kid_dn, counter)? {
                kids[i].settled = Some(s);
            }
        }
    }

    /// The value of a node whose numbers say it is settled: proved (`won`) or refuted, with the
    /// attacker moves the proof needs or the depth the refutation holds below. `pruned`: some
    /// moves were left out by the must-play pruning (see [`DfPn::expand`]), each the attacker's
    /// proof in 1 (below the defender's node) or the defender's win (below the attacker's).
    fn settle(&self, node: &Node, kids: &[Node], pruned: bool, won: bool) -> Settled {
        let values = kids.iter().map(|k| self.settled(k));
        if won {
            // OR: the quickest proved child and this move; AND: every child is proved, the
            // slowest counts.
            let needs = values.filter_map(|s| match s {
                Some(Settled::Win(n)) => Some(n),
                _ => None,
            });
            let need = if node.or {
                needs.min().map_or(node.depth, |n| n + 1)
            } else {
                let floor = pruned.then_some(1);
                needs.chain(floor).max().unwrap_or(node.depth)
            };
            Settled::Win(need)
        } else {
            // OR: every child is refuted (one attacker move deeper), the weakest counts; AND:
            // one refuted child suffices, the strongest counts.
            let belows = values.filter_map(|s| match s {
                Some(Settled::NoWinBelow(b)) => Some(b),
                _ => None,
            });
            let below = if node.or {
                let all_pruned = if pruned { u16::MAX } else { 0 };
                belows.min().map_or(all_pruned, |b| b.saturating_add(1))
            } else {
                belows.max().unwrap_or(0)
            };
            Settled::NoWinBelow(below.max(node.depth + 1))
        }
    }
}

impl Engine for DfPn {
    /// Learns what a store holds, and for each proof the refutation it implies: where the
    /// attacker wins a position, the other person, asking the question of the same position,
    /// never wins it (these games have no draw), so the position with the other kind of node
    /// is refuted at every depth; and where the attacker is refuted beyond every game's end,
    /// the other person wins it. A store of a solve without the pie rule so serves the same
    /// board with it: after a swap the person who moved first asks of the positions the
    /// other person's proofs hold.
    fn import(&mut self, store: &Store) {
        self.table.reserve(2 * store.known.len());
        // Work::MAX: what a store brought is forgotten after what the search made.
        let blank = Entry {
            pn: 1,
            dn: 1,
            depth: 0,
            win_in: NO_PROOF,
            no_win_below: 0,
            work: Work::MAX,
        };
        let points = self.keyer.points();
        for (&key, known) in &store.known {
            let e = self.table.entry(key).or_insert(blank);
            e.win_in = e.win_in.min(known.win_in);
            e.no_win_below = e.no_win_below.max(known.no_win_below);
            if known.win_in != NO_PROOF {
                let other = self.table.entry(key.other_question()).or_insert(blank);
                other.no_win_below = u16::MAX;
            }
            // A refutation beyond every game's end (see `game_bound`): the other person wins,
            // within that bound of its moves (an upper bound of what its proof needs).
            let ([black, white], _) = key.parts();
            let stones = (black.count_ones() + white.count_ones()) as usize;
            let bound = u16::try_from(2 * points.saturating_sub(stones) + 2).unwrap_or(NO_PROOF);
            if known.no_win_below > bound {
                let other = self.table.entry(key.other_question()).or_insert(blank);
                other.win_in = other.win_in.min(bound);
            }
        }
        self.cap = self.table.len() + self.room;
    }

    fn export(&self, store: &mut Store) {
        for (&key, e) in &self.table {
            if e.settled() {
                store.add(
                    key,
                    Known {
                        win_in: e.win_in,
                        no_win_below: e.no_win_below,
                    },
                );
            }
        }
    }

    fn defender_to_move(
        &mut self,
        pos: &Position,
        last: Action,
        depth: usize,
        counter: &mut Counter,
    ) -> Result<Settled, OutOfBudget> {
        let depth = u16::try_from(depth).unwrap_or(u16::MAX - 1);
        let settled = settle_at_once(pos, false, depth, &mut self.points);
        let node = Node {
            action: last,
            or: false,
            depth,
            key: self.keyer.key(pos, false),
            last: landing(last),
            settled,
        };
        if let Some(s) = settled {
            return Ok(s);
        }
        if let Some(s) = self.settled(&node) {
            return Ok(s);
        }
        loop {
            if let Some(s) = self.mid(pos, &node, INF, INF, counter)? {
                return Ok(s);
            }
        }
    }
}
