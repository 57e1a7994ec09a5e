//! Tournaments in the hub: making one, joining, withdrawing, starting it by hand, and what
//! the bot protocol and the screens show of them. The director (director.rs) starts them on
//! time, pairs the rounds and ends them; the pure model (`server/tournament`) decides whom to
//! pair and the standings. A tournament's games are ordinary games: they end by the game-end
//! path, and their results are read from their rows.
//!
//! The `Hub` methods here: `create_tournament`, `join_tournament`, `withdraw_tournament`,
//! `cancel_tournament`, `cancelled`, `cancelled_games`, `pause_tournament`, `mirror_tournaments`,
//! `tournament`, `cancelled_for`, `tournaments`.

use std::collections::HashMap;

use super::{Hub, Inner, Live, Refusal, color_of};
use crate::ids::{GameId, Millis, Moment, PlayerId, Seat};
use crate::size_class::rating_key;
use crate::store::{Applied, Change, EntrantRow, TournamentChange, TournamentRow};
use crate::tournament::Cancelled;
use crate::tournament::standings::{self, Standing};
use crate::tournament::{
    GameResult, Kind, Pairing, Played, Settings, Status, TournamentId, TournamentRefusal,
};
use quentin_record::game_end::{Aborted, GameEnd};

/// A tournament as the protocol and the screens show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentView {
    /// Its number.
    pub id: TournamentId,
    /// Its settings.
    pub settings: Settings,
    /// Who made it.
    pub creator: String,
    /// Where it stands.
    pub status: Status,
    /// The round under way (0 before the start; an arena's: its minutes gone).
    pub round: u32,
    /// The rounds in all (an arena's: its minutes).
    pub rounds: u32,
    /// The entrants, in the order they joined.
    pub entrants: Vec<String>,
    /// The standings, each with the player's name.
    pub standings: Vec<(Standing, String)>,
    /// Every game and bye.
    pub games: Vec<TournamentGame>,
    /// The crosstable, in the standings' order: what each row's player scored against each
    /// column's, game by game (`1`, `0`, `=`, `*` while playing; empty when they have not met;
    /// `X` on the diagonal).
    pub crosstable: Vec<Vec<String>>,
    /// When it starts (ms since the epoch), while open.
    pub starts: Moment,
}

/// A game or bye of a tournament, with its players' names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentGame {
    /// Its round (an arena's: the game's number in the tournament).
    pub round: u32,
    /// Who moves first, or has the bye.
    pub first: String,
    /// Who moves second; none for a bye.
    pub second: Option<String>,
    /// The game's number; none for a bye.
    pub game: Option<GameId>,
    /// Its result, once over.
    pub result: Option<GameResult>,
}

/// A finished game's result, for a tournament: a game aborted because a player made no first
/// move is lost by that player; one aborted otherwise counts as a draw.
pub(crate) fn result_of(live: &Live) -> Option<GameResult> {
    Some(match live.row.result? {
        GameEnd::Aborted(Aborted::NoFirstMove) if live.row.actions.is_empty() => {
            GameResult::SecondWon
        }
        GameEnd::Aborted(Aborted::NoFirstMove) => GameResult::FirstWon,
        GameEnd::Aborted(_) | GameEnd::Drawn(_) => GameResult::Draw,
        GameEnd::Won { by, .. } if color_of(&live.position, Seat::First) == by => {
            GameResult::FirstWon
        }
        GameEnd::Won { .. } => GameResult::SecondWon,
    })
}

/// Whether `player` lost game `live` by making no first move.
pub(crate) fn struck(live: &Live, player: PlayerId) -> bool {
    let idle = Seat::first_idle(live.row.actions.len());
    live.row
        .result
        .is_some_and(|end| end == GameEnd::Aborted(Aborted::NoFirstMove))
        && live.row.players[idle] == player
}

/// The results of a tournament's games, by game: each one's, none while it goes on.
pub(crate) type Results = HashMap<GameId, Option<GameResult>>;

/// The games and byes of tournament `t` with their results in `results`.
pub(crate) fn played(t: &TournamentRow, results: &Results) -> Vec<Played> {
    t.pairings
        .iter()
        .map(|p| Played {
            round: u32::try_from(p.round).unwrap_or(0),
            pairing: match p.second {
                Some(second) => Pairing::Game {
                    first: p.first,
                    second,
                },
                None => Pairing::Bye(p.first),
            },
            result: p.game.and_then(|g| results.get(&g).copied().flatten()),
        })
        .collect()
}

impl Inner {
    /// Replaces this process's copy of a tournament with `row` as the store holds it, unless
    /// the copy is newer: a read begun before a change this process made, and finished after
    /// it, never undoes that change.
    pub(crate) fn keep_tournament(&mut self, row: TournamentRow) {
        let newer = self
            .tournaments
            .get(&row.id)
            .is_some_and(|copy| copy.version > row.version);
        if !newer {
            self.tournaments.insert(row.id, row);
        }
    }

    /// The results of tournament `t`'s games that this process holds: each game's, none while
    /// it goes on.
    pub(crate) fn results(&self, t: &TournamentRow) -> Results {
        t.pairings
            .iter()
            .filter_map(|p| p.game)
            .filter_map(|g| Some((g, result_of(self.games.get(&g)?))))
            .collect()
    }

    /// The games and byes of tournament `t` with their results so far.
    pub(crate) fn played(&self, t: &TournamentRow) -> Vec<Played> {
        played(t, &self.results(t))
    }

    /// Tournament `id`'s view.
    pub(crate) fn tournament_view(&self, id: TournamentId, now: Moment) -> Option<TournamentView> {
        let t = self.tournaments.get(&id)?;
        let settings = t.settings.clone();
        let players: Vec<PlayerId> = t.entrants.iter().map(|e| e.player).collect();
        let played = self.played(t);
        let key = rating_key(settings.spec.setup);
        let ratings: HashMap<PlayerId, i64> = players
            .iter()
            .map(|p| {
                let rating = self
                    .players
                    .get(p)
                    .and_then(|q| q.ratings.get(&key))
                    .map_or(1500, |r| r.rating.round() as i64);
                (*p, rating)
            })
            .collect();
        let lines = standings::standings(settings.kind, &players, &played, &ratings);
        let (round, rounds) = match settings.kind {
            Kind::Arena => {
                let gone = t
                    .started
                    .map_or(0, |s| (now - s).max(Millis::ZERO).whole_minutes() as u32);
                (gone.min(settings.minutes), settings.minutes)
            }
            _ => (
                played.iter().map(|p| p.round).max().unwrap_or(0),
                settings.rounds_for(players.len() as u32),
            ),
        };
        let crosstable = standings::crosstable(&lines, &played);
        Some(TournamentView {
            id,
            crosstable,
            creator: self.name_of(t.by),
            status: t.status,
            round,
            rounds,
            entrants: players.iter().map(|p| self.name_of(*p)).collect(),
            standings: lines
                .into_iter()
                .map(|l| {
                    let name = self.name_of(l.player);
                    (l, name)
                })
                .collect(),
            games: t
                .pairings
                .iter()
                .zip(&played)
                .map(|(p, g)| TournamentGame {
                    round: g.round,
                    first: self.name_of(p.first),
                    second: p.second.map(|s| self.name_of(s)),
                    game: p.game,
                    result: g.result,
                })
                .collect(),
            starts: t.starts,
            settings,
        })
    }
}

impl Hub {
    /// A new tournament by `by`: its number once on disk.
    ///
    /// # Errors
    /// The creator has an open or running tournament already; a store that cannot save.
    pub async fn create_tournament(
        &self,
        by: PlayerId,
        settings: &Settings,
        now: Moment,
    ) -> Result<TournamentId, TournamentRefusal> {
        let turn = self.lobby_turn.clone().lock_owned().await;
        if let Some(t) = self
            .lock()
            .tournaments
            .values()
            .find(|t| t.by == by && t.status.under_way())
        {
            return Err(TournamentRefusal::OneAtATime(t.id));
        }
        let row = TournamentRow {
            id: TournamentId(0),
            by,
            settings: settings.clone(),
            created: now,
            starts: now + Millis::minutes(i64::from(settings.start_in)),
            status: Status::Open,
            started: None,
            version: 0,
            entrants: Vec::new(),
            pairings: Vec::new(),
        };
        let change = Change::Tournament(TournamentChange::Create(row.clone()));
        self.commit(change, vec![turn], move |inner, applied| {
            let Applied::Id(id) = applied else {
                return Err(super::Refusal::NotSaved);
            };
            let id = TournamentId(id);
            inner.tournaments.insert(id, TournamentRow { id, ..row });
            inner.lobby_changed();
            Ok(id)
        })
        .await
        .map_err(TournamentRefusal::Store)
    }

    /// `player` joins tournament `id` before its start.
    ///
    /// # Errors
    /// No such tournament, started already, full, joined already; a store that cannot save.
    pub async fn join_tournament(
        &self,
        player: PlayerId,
        id: TournamentId,
    ) -> Result<(), TournamentRefusal> {
        let turn = self.lobby_turn.clone().lock_owned().await;
        let most = {
            let inner = self.lock();
            let t = inner
                .tournaments
                .get(&id)
                .ok_or(TournamentRefusal::NoSuch(id))?;
            if t.status != Status::Open {
                return Err(TournamentRefusal::TooLateToJoin(id, t.status));
            }
            if t.entrants.iter().any(|e| e.player == player) {
                return Err(TournamentRefusal::AlreadyIn(id));
            }
            let most = t.settings.max as usize;
            if t.entrants.len() >= most {
                return Err(TournamentRefusal::Full(id, most));
            }
            // A live tournament holds one of the player's places of live play (fair.rs).
            if !t.settings.correspondence() {
                let places = inner.limits.fair.live_games;
                if inner.live_places(player) >= places {
                    return Err(TournamentRefusal::TooManyLive(id, places));
                }
            }
            most
        };
        let change = Change::Tournament(TournamentChange::Join {
            tournament: id,
            player,
            max: i64::try_from(most).unwrap_or(i64::MAX),
        });
        self.commit(change, vec![turn], move |inner, applied| {
            // Started (or cancelled) on another process, whose news has not come yet: the
            // store holds the join to an open tournament.
            if let Applied::Status(status) = applied {
                return Ok(Err(TournamentRefusal::TooLateToJoin(id, status)));
            }
            // Full in the store: joins answered on another process, whose news has not come.
            if matches!(applied, Applied::Taken) {
                return Ok(Err(TournamentRefusal::Full(id, most)));
            }
            if let Some(t) = inner.tournaments.get_mut(&id) {
                t.entrants.push(EntrantRow {
                    player,
                    withdrawn: false,
                    strikes: 0,
                    paused: false,
                });
            }
            inner.lobby_changed();
            Ok(Ok(()))
        })
        .await
        .map_err(TournamentRefusal::Store)?
    }

    /// `player` leaves tournament `id`: before the start, as if never joined; during it,
    /// withdrawn from the next pairings, their games under way going on until they end (lost
    /// on time if the player plays no more), or, with `at_once`, forfeited at once.
    ///
    /// # Errors
    /// Not in it, over; a store that cannot save.
    pub async fn withdraw_tournament(
        &self,
        player: PlayerId,
        id: TournamentId,
        at_once: bool,
        now: Moment,
    ) -> Result<(), TournamentRefusal> {
        let turn = self.lobby_turn.clone().lock_owned().await;
        let (change, running) = {
            let inner = self.lock();
            let t = inner
                .tournaments
                .get(&id)
                .ok_or(TournamentRefusal::NoSuch(id))?;
            let entrant = t
                .entrants
                .iter()
                .find(|e| e.player == player)
                .ok_or(TournamentRefusal::NotIn(id))?;
            match t.status {
                Status::Open => (
                    TournamentChange::Leave {
                        tournament: id,
                        player,
                    },
                    Vec::new(),
                ),
                Status::Running if !entrant.withdrawn || at_once => (
                    TournamentChange::Entrant {
                        tournament: id,
                        entrant: EntrantRow {
                            withdrawn: true,
                            ..*entrant
                        },
                    },
                    t.pairings
                        .iter()
                        .filter(|p| p.first == player || p.second == Some(player))
                        .filter_map(|p| p.game)
                        .filter(|g| inner.games.get(g).is_some_and(|l| l.row.result.is_none()))
                        .filter(|_| at_once)
                        .collect(),
                ),
                Status::Running => return Err(TournamentRefusal::AlreadyWithdrawn(id)),
                status => return Err(TournamentRefusal::Status(id, status)),
            }
        };
        self.commit(
            Change::Tournament(change.clone()),
            vec![turn],
            move |inner, applied| {
                // Over or cancelled on another process meanwhile. (Started there meanwhile, a
                // leave is a withdrawal in the store; the news of the start brings it here.)
                if let Applied::Status(status) = applied {
                    return Ok(Err(TournamentRefusal::Status(id, status)));
                }
                if let Some(t) = inner.tournaments.get_mut(&id) {
                    match change {
                        TournamentChange::Leave { .. } => t.entrants.retain(|e| e.player != player),
                        TournamentChange::Entrant { entrant, .. } => {
                            for e in &mut t.entrants {
                                if e.player == player {
                                    *e = entrant;
                                }
                            }
                        }
                        _ => {}
                    }
                }
                inner.lobby_changed();
                Ok(Ok(()))
            },
        )
        .await
        .map_err(TournamentRefusal::Store)??;
        for game in running {
            // Forfeited at once; a game that ended meanwhile needs nothing.
            let _ = self.resign(player, game, now).await;
        }
        Ok(())
    }

    /// `by`, its creator, cancels tournament `id` before its start; each entrant is told.
    ///
    /// # Errors
    /// Not theirs, not open (an operator's `tournament cancel ID` then); a store that cannot
    /// save.
    pub async fn cancel_tournament(
        &self,
        by: PlayerId,
        id: TournamentId,
        now: Moment,
    ) -> Result<(), TournamentRefusal> {
        let why = {
            let inner = self.lock();
            let t = inner
                .tournaments
                .get(&id)
                .ok_or(TournamentRefusal::NoSuch(id))?;
            if t.by != by {
                return Err(TournamentRefusal::NotYoursToCancel(id));
            }
            match t.status {
                Status::Open => {}
                Status::Running => return Err(TournamentRefusal::RunningCancel(id)),
                status => return Err(TournamentRefusal::Status(id, status)),
            }
            Cancelled::ByCreator {
                id,
                creator: inner.name_of(by),
            }
        };
        match self.cancelled(id, &why, now, false).await {
            Ok(None) => Ok(()),
            // Started on another process meanwhile (its news not here yet): the start stands.
            Ok(Some(Status::Running)) => Err(TournamentRefusal::RunningCancel(id)),
            Ok(Some(status)) => Err(TournamentRefusal::Status(id, status)),
            Err(refusal) => Err(TournamentRefusal::Store(refusal)),
        }
    }

    /// Tournament `id`, open (or, with `running`, an operator's order, running) is cancelled,
    /// each entrant left the message of `why`; its games under way are aborted by
    /// [`Hub::end_sanctioned`] (their owners'). `Some(status)` when the store holds it
    /// otherwise (started, or cancelled, on another process): nothing is done.
    pub(crate) async fn cancelled(
        &self,
        id: TournamentId,
        why: &Cancelled,
        now: Moment,
        running: bool,
    ) -> Result<Option<Status>, Refusal> {
        let text = why.to_string();
        let turn = self.lobby_turn.clone().lock_owned().await;
        let live = self
            .lock()
            .tournaments
            .get(&id)
            .is_some_and(|t| t.status.under_way());
        if !live {
            return Ok(None);
        }
        let change = Change::Tournament(TournamentChange::Cancel {
            tournament: id,
            at: now,
            text,
            running,
        });
        self.commit(change, vec![turn], move |inner, applied| {
            if let Applied::Status(status) = applied {
                return Ok(Some(status));
            }
            if let Some(t) = inner.tournaments.get_mut(&id) {
                t.status = Status::Cancelled;
            }
            tracing::info!(tournament = %id, "the tournament is cancelled");
            inner.lobby_changed();
            Ok(None)
        })
        .await
    }

    /// The games under way of the cancelled tournaments, and of those `ordered` cancelled.
    pub(crate) fn cancelled_games(
        &self,
        ordered: &std::collections::BTreeSet<TournamentId>,
    ) -> Vec<GameId> {
        let inner = self.lock();
        inner
            .tournaments
            .values()
            .filter(|t| t.status == Status::Cancelled || ordered.contains(&t.id))
            .flat_map(|t| t.pairings.iter().filter_map(|p| p.game))
            .filter(|g| inner.games.get(g).is_some_and(|l| l.row.result.is_none()))
            .collect()
    }

    /// `player` pauses in arena `id` (`paused`: no game is begun for them until they come
    /// back), or comes back.
    ///
    /// # Errors
    /// Not in it, not a running arena; a store that cannot save.
    pub async fn pause_tournament(
        &self,
        player: PlayerId,
        id: TournamentId,
        paused: bool,
    ) -> Result<(), TournamentRefusal> {
        let turn = self.lobby_turn.clone().lock_owned().await;
        let entrant = {
            let inner = self.lock();
            let t = inner
                .tournaments
                .get(&id)
                .ok_or(TournamentRefusal::NoSuch(id))?;
            let arena = t.settings.kind == Kind::Arena;
            if !arena || t.status != Status::Running {
                return Err(TournamentRefusal::NotARunningArena(id));
            }
            let entrant = t
                .entrants
                .iter()
                .find(|e| e.player == player && !e.withdrawn)
                .ok_or(TournamentRefusal::NotPlaying(id))?;
            EntrantRow { paused, ..*entrant }
        };
        let change = Change::Tournament(TournamentChange::Entrant {
            tournament: id,
            entrant,
        });
        self.commit(change, vec![turn], move |inner, _| {
            if let Some(e) = inner
                .tournaments
                .get_mut(&id)
                .and_then(|t| t.entrants.iter_mut().find(|e| e.player == player))
            {
                *e = entrant;
            }
            inner.lobby_changed();
            Ok(())
        })
        .await
        .map_err(TournamentRefusal::Store)
    }

    /// Copies tournaments as another process committed them (several processes on one
    /// database): each replaces this process's copy unless the copy is newer (a read begun
    /// before this process's own change, finished after it).
    pub fn mirror_tournaments(&self, rows: Vec<TournamentRow>) {
        let mut inner = self.lock();
        for row in rows {
            inner.keep_tournament(row);
        }
        inner.lobby_changed();
    }

    /// Tournament `id`, as it stands.
    #[must_use]
    pub fn tournament(&self, id: TournamentId, now: Moment) -> Option<TournamentView> {
        self.lock().tournament_view(id, now)
    }

    /// How many tournaments `player` joined were cancelled: when it grows, a message waits
    /// for them in the store.
    #[must_use]
    pub fn cancelled_for(&self, player: PlayerId) -> usize {
        self.lock()
            .tournaments
            .values()
            .filter(|t| {
                t.status == Status::Cancelled && t.entrants.iter().any(|e| e.player == player)
            })
            .count()
    }

    /// Every tournament not cancelled, the newest first.
    #[must_use]
    pub fn tournaments(&self, now: Moment) -> Vec<TournamentView> {
        let inner = self.lock();
        inner
            .tournaments
            .keys()
            .rev()
            .filter_map(|id| inner.tournament_view(*id, now))
            .filter(|v| v.status != Status::Cancelled)
            .collect()
    }
}
