//! The tournaments' director: at each tick it starts a tournament whose time has come (or
//! cancels it when too few have joined), withdraws a player who lost two games without a first
//! move, pairs the next round once the last game of the one before has ended (a round robin
//! by correspondence: every round at once), pairs an arena's waiting players as soon as they
//! are free, and ends the tournament. Everything it does is committed to the store first, so a
//! director started afresh goes on from the rows.

use super::super::report::report;
use super::super::store::{Applied, Change, EntrantRow, GameRow, PairingRow, TournamentChange};
use super::super::tournament::arena::{self, Waiting};
use super::super::tournament::{
    Kind, Pairing, Settings, TournamentId, TournamentRefusal, roundrobin, swiss,
};
use super::tournaments::struck;
use super::{Hub, Inner, Live, Refusal};
use crate::clock::Timing;
use crate::ids::{GameId, Millis, Moment, PlayerId};
use crate::present::Cancelled;

/// One thing the director does next to a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    /// It starts.
    Start,
    /// Too few joined by the start: it is cancelled, each entrant told why.
    Cancel(Cancelled),
    /// A player lost two games without moving: withdrawn.
    Withdraw(EntrantRow),
    /// These games and byes begin, each in its round.
    Pair(Vec<(u32, Pairing)>),
    /// Its last game has ended.
    Over,
}

impl Inner {
    /// What the director does next to tournament `id` at `now`, if anything.
    fn next_step(&self, id: i64, now: Moment) -> Option<Step> {
        let t = self.tournaments.get(&id)?;
        let settings = Settings::from_stored(&t.settings).ok()?;
        if t.status == "open" {
            let step = if t.entrants.len() >= settings.min as usize {
                Step::Start
            } else {
                Step::Cancel(Cancelled::TooFew {
                    id: TournamentId(id),
                    joined: t.entrants.len(),
                    needed: settings.min,
                })
            };
            return (now >= t.starts).then_some(step);
        }
        if t.status != "running" {
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
        let active: Vec<PlayerId> = t
            .entrants
            .iter()
            .filter(|e| !e.withdrawn)
            .map(|e| e.player)
            .collect();
        let played = self.played(t);
        let round = played.iter().map(|p| p.round).max().unwrap_or(0);
        let running = self.any_running(t);
        match settings.kind {
            Kind::Arena => {
                let end = t.started.unwrap_or(now) + Millis::minutes(i64::from(settings.minutes));
                if now >= end {
                    return (!running).then_some(Step::Over);
                }
                let busy = |p: PlayerId| {
                    t.pairings.iter().any(|q| {
                        (q.first == p || q.second == Some(p))
                            && q.game
                                .and_then(|g| self.games.get(&g))
                                .is_some_and(|g| g.row.result.is_none())
                    })
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
}

impl Hub {
    /// Directs every tournament one step on at `now` (the server's tick calls it). On several
    /// processes sharing a database, each tournament that has something to do is directed by
    /// the process that holds its lease, taken as it runs out.
    pub async fn direct(&self, now: Moment) {
        let ids: Vec<i64> = self.lock().tournaments.keys().copied().collect();
        for id in ids {
            let due =
                self.lock().tournaments.get(&id).is_some_and(|t| {
                    t.status == "running" || (t.status == "open" && now >= t.starts)
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
                if let Err(why) = self.take(id, step, now).await {
                    report(format_args!(
                        "tournament {}: cannot go on (tried again at the next tick): {why}",
                        TournamentId(id)
                    ));
                    break;
                }
            }
        }
    }

    /// Whether this process directs tournament `id`: it alone, or it holds (or has just
    /// taken) the tournament's lease.
    pub(super) async fn directs(&self, id: i64) -> bool {
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

    /// `by`, its creator, starts tournament `id` now, once the minimum has joined.
    ///
    /// # Errors
    /// Not theirs, not open, too few players; a store that cannot save.
    pub async fn start_tournament(
        &self,
        by: PlayerId,
        id: TournamentId,
        now: Moment,
    ) -> Result<(), TournamentRefusal> {
        {
            let inner = self.lock();
            let t = inner
                .tournaments
                .get(&id.0)
                .ok_or(TournamentRefusal::NoSuch(id))?;
            if t.by != by {
                return Err(TournamentRefusal::NotYours(id));
            }
            if t.status != "open" {
                return Err(TournamentRefusal::Status(id, t.status.clone()));
            }
            let min = Settings::from_stored(&t.settings).map_or(2, |s| s.min as usize);
            if t.entrants.len() < min {
                return Err(TournamentRefusal::TooFew(id, min, t.entrants.len()));
            }
        }
        self.take(id.0, Step::Start, now).await?;
        self.direct(now).await;
        Ok(())
    }

    /// Takes `step` in tournament `id`, once on disk.
    async fn take(&self, id: i64, step: Step, now: Moment) -> Result<(), Refusal> {
        let status = |status: &str| {
            Change::Tournament(TournamentChange::Status {
                tournament: id,
                status: status.to_string(),
                at: now,
            })
        };
        match step {
            Step::Cancel(why) => self.cancelled(id, &why, now).await,
            Step::Start | Step::Over => {
                let word = if step == Step::Start {
                    "running"
                } else {
                    "over"
                };
                let turn = self.lobby_turn.clone().lock_owned().await;
                self.commit(status(word), vec![turn], move |inner, _| {
                    if let Some(t) = inner.tournaments.get_mut(&id) {
                        t.status = word.to_string();
                        if word == "running" {
                            t.started = Some(now);
                        }
                    }
                    tracing::info!(tournament = id, "the tournament is {word}");
                    inner.lobby_changed();
                    Ok(())
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
                    Ok(())
                })
                .await
            }
            Step::Pair(pairings) => self.pair(id, pairings, now).await,
        }
    }

    /// Begins a round's games and gives its byes (or an arena's games paired at once), in one
    /// change: a director that dies meanwhile leaves the whole round or none of it.
    async fn pair(
        &self,
        id: i64,
        pairings: Vec<(u32, Pairing)>,
        now: Moment,
    ) -> Result<(), Refusal> {
        let turn = self.lobby_turn.clone().lock_owned().await;
        let settings = {
            let inner = self.lock();
            let t = inner.tournaments.get(&id).ok_or(Refusal::NotSaved)?;
            Settings::from_stored(&t.settings).map_err(|_| Refusal::NotSaved)?
        };
        let spec = &settings.spec;
        let start = spec.clock.start();
        let position = spec.setup.start().map_err(Refusal::BadSetup)?;
        let (mut byes, mut games) = (Vec::new(), Vec::new());
        for (round, pairing) in pairings {
            let round = i64::from(round);
            match pairing {
                Pairing::Bye(player) => byes.push((round, player)),
                Pairing::Game { first, second } => games.push((
                    round,
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
        let change = Change::Tournament(TournamentChange::Round {
            tournament: id,
            byes: byes.clone(),
            games: games.clone(),
        });
        let peers = self.peers.get().cloned();
        self.commit(change, vec![turn], move |inner, applied| {
            let Applied::Ids(ids) = applied else {
                return Err(Refusal::NotSaved);
            };
            let mut rows = Vec::new();
            for (round, player) in byes {
                rows.push(PairingRow {
                    round,
                    first: player,
                    second: None,
                    game: None,
                });
            }
            for ((round, row), game) in games.into_iter().zip(ids) {
                if let Some(peers) = &peers {
                    peers.started(game);
                }
                rows.push(PairingRow {
                    round,
                    first: row.players[0],
                    second: Some(row.players[1]),
                    game: Some(game),
                });
                inner.games.insert(
                    game,
                    Live::new(GameRow { id: game, ..row }, position.clone()),
                );
                tracing::info!(tournament = id, %game, "a tournament game starts");
            }
            if let Some(t) = inner.tournaments.get_mut(&id) {
                t.pairings.extend(rows);
            }
            inner.lobby_changed();
            Ok(())
        })
        .await
    }
}
