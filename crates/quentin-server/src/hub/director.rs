//! The tournaments' director: at each tick it starts a tournament whose time has come (or
//! cancels it when too few have joined), withdraws a player who lost two games without a first
//! move, pairs the next round once the last game of the one before has ended (a round robin
//! by correspondence: every round at once), pairs an arena's waiting players as soon as they
//! are free, and ends the tournament. Everything it does is committed to the store first, so a
//! director started afresh goes on from the rows.
//!
//! The `Hub` methods here: `direct`, `directs`, `start_tournament`, `take`, `paired`.

use std::sync::Arc;

use super::tournaments::{Results, played, struck};
use super::{Hub, Inner, Live, Refusal};
use crate::clock::Timing;
use crate::ids::{GameId, Millis, Moment, PlayerId};
use crate::report::report;
use crate::store::{
    Applied, Change, EntrantRow, GameRow, Paired, PairingRow, Plan, Round, TournamentChange,
    TournamentRow,
};
use crate::tournament::Cancelled;
use crate::tournament::arena::{self, Waiting};
use crate::tournament::{
    Kind, Pairing, Settings, Status, TournamentId, TournamentRefusal, roundrobin, swiss,
};

/// One thing the director does next to a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    /// It starts (or, too few having joined by the start, it is cancelled, each entrant told
    /// why), with its first round.
    Start,
    /// A player lost two games without moving: withdrawn.
    Withdraw(EntrantRow),
    /// These games and byes begin, each in its round.
    Pair(Vec<(u32, Pairing)>),
    /// Its last game has ended.
    Over,
}

/// What became of a round paired from the entrants the store holds.
enum Pairs {
    /// Written (and the tournament started, if it was to).
    Written,
    /// Nothing to pair from the entrants the store holds (this many): too few to start, or
    /// the entrants this process knew were not those (a withdrawal on another process).
    Declined(usize),
    /// The tournament's status in the store is not the one this process knows (started,
    /// cancelled on another process): its news has not come yet.
    Moved(Status),
    /// The store holds pairings this process has not read yet.
    Unread,
}

impl Inner {
    /// What the director does next to tournament `id` at `now`, if anything.
    fn next_step(&self, id: TournamentId, now: Moment) -> Option<Step> {
        let t = self.tournaments.get(&id)?;
        if t.status == Status::Open {
            // Whether enough joined, the entrants the store holds say, as it starts.
            return (now >= t.starts).then_some(Step::Start);
        }
        if t.status != Status::Running {
            return None;
        }
        // Two games lost without a first move: withdrawn.
        for e in t.entrants.iter().filter(|e| !e.withdrawn) {
            let strikes = t
                .pairings
                .iter()
                .filter_map(|p| p.game.and_then(|g| self.games.get(&g)))
                .filter(|g| struck(g, e.player))
                .count() as i64;
            if strikes >= 2 {
                return Some(Step::Withdraw(EntrantRow {
                    withdrawn: true,
                    strikes,
                    ..*e
                }));
            }
        }
        step(t, &t.settings, &self.results(t), now)
    }
}

/// What follows in running tournament `t` at `now`, its games' results being `results`: a
/// round to pair, its end, or nothing yet. The director asks it of the entrants it knows, and
/// again, as the store writes the round, of those the store holds.
fn step(t: &TournamentRow, settings: &Settings, results: &Results, now: Moment) -> Option<Step> {
    let active: Vec<PlayerId> = t
        .entrants
        .iter()
        .filter(|e| !e.withdrawn)
        .map(|e| e.player)
        .collect();
    let played = played(t, results);
    let round = played.iter().map(|p| p.round).max().unwrap_or(0);
    let under_way =
        |g: Option<GameId>| g.and_then(|g| results.get(&g)).is_some_and(Option::is_none);
    let running = t.pairings.iter().any(|p| under_way(p.game));
    match settings.kind {
        Kind::Arena => {
            let end = t.started.unwrap_or(now) + Millis::minutes(i64::from(settings.minutes));
            if now >= end {
                return (!running).then_some(Step::Over);
            }
            let busy = |p: PlayerId| {
                t.pairings
                    .iter()
                    .any(|q| (q.first == p || q.second == Some(p)) && under_way(q.game))
            };
            let waiting: Vec<Waiting> = t
                .entrants
                .iter()
                .filter(|e| !e.withdrawn && !e.paused && !busy(e.player))
                .map(|e| Waiting::from_played(e.player, &played))
                .collect();
            let games = arena::pair(&waiting, active.len() == 2);
            (!games.is_empty()).then(|| {
                Step::Pair(
                    games
                        .into_iter()
                        .zip(round + 1..)
                        .map(|(g, r)| (r, g))
                        .collect(),
                )
            })
        }
        Kind::Swiss | Kind::RoundRobin => {
            let all: Vec<PlayerId> = t.entrants.iter().map(|e| e.player).collect();
            let total = settings.rounds_for(all.len() as u32);
            // By correspondence a round robin's rounds all run at once.
            let at_once = settings.kind == Kind::RoundRobin && settings.correspondence();
            if round >= total || active.len() < 2 {
                return (!running).then_some(Step::Over);
            }
            // A Swiss by correspondence with `round-days`: the next round at its set time
            // at the latest, the games still under way going on beside it.
            let due = t
                .started
                .and_then(|s| settings.round_due(s, round + 1))
                .is_some_and(|at| now >= at);
            if running && !at_once && !due {
                return None;
            }
            let next = round + 1;
            let pairings = if settings.kind == Kind::Swiss {
                swiss::pair(&active, &played)
            } else {
                // A withdrawn player's games are begun all the same, and lost on time.
                roundrobin::schedule(&all, settings.rounds)
                    .get(next as usize - 1)
                    .cloned()
                    .unwrap_or_default()
            };
            Some(Step::Pair(
                pairings.into_iter().map(|p| (next, p)).collect(),
            ))
        }
    }
}

/// The rows of `pairings` begun at `now`: the byes, and the games of `settings`.
fn round_of(settings: &Settings, pairings: Vec<(u32, Pairing)>, now: Moment) -> Round {
    let spec = &settings.spec;
    let start = spec.clock.start();
    let mut round = Round::default();
    for (number, pairing) in pairings {
        let number = i64::from(number);
        match pairing {
            Pairing::Bye(player) => round.byes.push((number, player)),
            Pairing::Game { first, second } => round.games.push((
                number,
                GameRow {
                    id: GameId(0),
                    setup: spec.setup,
                    players: [first, second],
                    clock: spec.clock,
                    rated: spec.rated,
                    left: [start, start],
                    turn_since: now,
                    actions: Vec::new(),
                    result: None,
                    ended: None,
                },
            )),
        }
    }
    round
}

impl Hub {
    /// Directs every tournament one step on at `now` (the server's tick calls it). On several
    /// processes sharing a database, each tournament that has something to do is directed by
    /// the process that holds its lease, taken as it runs out.
    pub async fn direct(&self, now: Moment) {
        let ids: Vec<TournamentId> = self.lock().tournaments.keys().copied().collect();
        for id in ids {
            let due = self.lock().tournaments.get(&id).is_some_and(|t| {
                t.status == Status::Running || (t.status == Status::Open && now >= t.starts)
            });
            if !due || !self.directs(id).await {
                continue;
            }
            // A few steps at a time: a start and its first round, the rounds of a round robin
            // by correspondence; the rest at the next tick.
            for _ in 0..64 {
                let Some(step) = self.lock().next_step(id, now) else {
                    break;
                };
                match self.take(id, step, now).await {
                    Ok(true) => {}
                    // What another process did to it has not been read here yet: at the next
                    // tick, once its news has come (no step taken again and again meanwhile).
                    Ok(false) => break,
                    Err(why) => {
                        report(format_args!(
                            "tournament {id}: cannot go on (tried again at the next tick): {why}"
                        ));
                        break;
                    }
                }
            }
        }
    }

    /// Whether this process directs tournament `id`: it alone, or it holds (or has just
    /// taken) the tournament's lease.
    pub(super) async fn directs(&self, id: TournamentId) -> bool {
        if self.peers.get().is_none() {
            return true;
        }
        let change = Change::Tournament(TournamentChange::Direct(id));
        let held = self.commit(
            change,
            Vec::new(),
            |_, applied| Ok(applied == Applied::Done),
        );
        held.await.unwrap_or(false)
    }

    /// `by`, its creator, starts tournament `id` now, once the minimum has joined (as the
    /// store holds the entrants: a join answered on another process a moment ago counts).
    ///
    /// # Errors
    /// Not theirs, not open, too few players; a store that cannot save.
    pub async fn start_tournament(
        &self,
        by: PlayerId,
        id: TournamentId,
        now: Moment,
    ) -> Result<(), TournamentRefusal> {
        let min = {
            let inner = self.lock();
            let t = inner
                .tournaments
                .get(&id)
                .ok_or(TournamentRefusal::NoSuch(id))?;
            if t.by != by {
                return Err(TournamentRefusal::NotYours(id));
            }
            if t.status != Status::Open {
                return Err(TournamentRefusal::Status(id, t.status));
            }
            t.settings.min as usize
        };
        match self.paired(id, Some(now), now).await? {
            Pairs::Written => {}
            Pairs::Declined(joined) => return Err(TournamentRefusal::TooFew(id, min, joined)),
            Pairs::Moved(status) => return Err(TournamentRefusal::Status(id, status)),
            Pairs::Unread => return Err(TournamentRefusal::Store(Refusal::NotSaved)),
        }
        self.direct(now).await;
        Ok(())
    }

    /// Takes `step` in tournament `id`, once on disk: whether to go on with its next step now
    /// (not when the store holds what this process has not read yet).
    async fn take(&self, id: TournamentId, step: Step, now: Moment) -> Result<bool, Refusal> {
        match step {
            Step::Start => match self.paired(id, Some(now), now).await? {
                Pairs::Written => Ok(true),
                Pairs::Declined(joined) => {
                    let needed = self
                        .lock()
                        .tournaments
                        .get(&id)
                        .map_or(2, |t| t.settings.min);
                    let why = Cancelled::TooFew { id, joined, needed };
                    // Started on another process meanwhile: its news brings it here.
                    self.cancelled(id, &why, now, false)
                        .await
                        .map(|moved| moved.is_none())
                }
                Pairs::Moved(_) | Pairs::Unread => Ok(false),
            },
            Step::Pair(_) => match self.paired(id, None, now).await? {
                // Declined: this process's copy now holds the store's entrants, from which the
                // next step is decided again.
                Pairs::Written | Pairs::Declined(_) => Ok(true),
                Pairs::Moved(_) | Pairs::Unread => Ok(false),
            },
            Step::Over => {
                let turn = self.lobby_turn.clone().lock_owned().await;
                let change = Change::Tournament(TournamentChange::Status {
                    tournament: id,
                    status: Status::Over,
                    at: now,
                });
                self.commit(change, vec![turn], move |inner, _| {
                    if let Some(t) = inner.tournaments.get_mut(&id) {
                        t.status = Status::Over;
                    }
                    tracing::info!(tournament = %id, "the tournament is over");
                    inner.lobby_changed();
                    Ok(true)
                })
                .await
            }
            Step::Withdraw(entrant) => {
                let turn = self.lobby_turn.clone().lock_owned().await;
                let change = Change::Tournament(TournamentChange::Entrant {
                    tournament: id,
                    entrant,
                });
                self.commit(change, vec![turn], move |inner, _| {
                    if let Some(e) = inner
                        .tournaments
                        .get_mut(&id)
                        .and_then(|t| t.entrants.iter_mut().find(|e| e.player == entrant.player))
                    {
                        *e = entrant;
                    }
                    inner.lobby_changed();
                    Ok(true)
                })
                .await
            }
        }
    }

    /// Pairs tournament `id`'s next round (with `start`, its first, as it starts then) from
    /// the entrants the store holds, read in the transaction that writes the round: a join,
    /// a leave or a withdrawal answered on another process, whose news has not come here yet,
    /// counts. The round's byes and games are one change: a director that dies meanwhile
    /// leaves the whole round or none of it. This process's copy of the entrants becomes the
    /// store's.
    async fn paired(
        &self,
        id: TournamentId,
        start: Option<Moment>,
        now: Moment,
    ) -> Result<Pairs, Refusal> {
        let turn = self.lobby_turn.clone().lock_owned().await;
        let (t, settings, results) = {
            let inner = self.lock();
            let t = inner.tournaments.get(&id).ok_or(Refusal::NotSaved)?;
            (t.clone(), t.settings.clone(), inner.results(t))
        };
        let position = settings.spec.setup.start().map_err(Refusal::BadSetup)?;
        let known = t.pairings.len();
        // The pairing as this process would make it, of the store's entrants instead of its
        // own: pure, given the rest as this process holds it.
        let plan = Plan(Arc::new(move |entrants: &[EntrantRow]| {
            let mut t = TournamentRow {
                entrants: entrants.to_vec(),
                ..t.clone()
            };
            if let Some(at) = start {
                if entrants.len() < settings.min as usize {
                    return None;
                }
                t.status = Status::Running;
                t.started = Some(at);
            }
            match step(&t, &settings, &results, now) {
                Some(Step::Pair(pairings)) => Some(round_of(&settings, pairings, now)),
                // A start writes its status, with or without a round.
                _ => start.map(|_| Round::default()),
            }
        }));
        let change = Change::Tournament(TournamentChange::Paired {
            tournament: id,
            start,
            known,
            plan,
        });
        let peers = self.peers.get().cloned();
        self.commit(change, vec![turn], move |inner, applied| {
            let Paired { entrants, round } = match applied {
                Applied::Paired(paired) => paired,
                Applied::Status(status) => return Ok(Pairs::Moved(status)),
                Applied::Taken => return Ok(Pairs::Unread),
                _ => return Err(Refusal::NotSaved),
            };
            let joined = entrants.len();
            if let Some(t) = inner.tournaments.get_mut(&id) {
                t.entrants = entrants;
            }
            let Some(round) = round else {
                inner.lobby_changed();
                return Ok(Pairs::Declined(joined));
            };
            let mut rows = Vec::new();
            for (round, player) in round.byes {
                rows.push(PairingRow {
                    round,
                    first: player,
                    second: None,
                    game: None,
                });
            }
            for (round, row) in round.games {
                let game = row.id;
                if let Some(peers) = &peers {
                    peers.started(game);
                }
                rows.push(PairingRow {
                    round,
                    first: row.players[0],
                    second: Some(row.players[1]),
                    game: Some(game),
                });
                inner.games.insert(game, Live::new(row, position.clone()));
                tracing::info!(tournament = %id, %game, "a tournament game starts");
            }
            if let Some(t) = inner.tournaments.get_mut(&id) {
                if let Some(at) = start {
                    t.status = Status::Running;
                    t.started = Some(at);
                    tracing::info!(tournament = %id, "the tournament is running");
                }
                t.pairings.extend(rows);
            }
            inner.lobby_changed();
            Ok(Pairs::Written)
        })
        .await
    }
}
