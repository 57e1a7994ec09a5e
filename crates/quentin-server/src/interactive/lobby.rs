//! The lobby's glue: its board filled from the hub before each frame, the hub's work it asks
//! for carried out (accepting, withdrawing, challenging, the tournaments), and a challenge of
//! the player's that is accepted meanwhile opened at once. The lobby itself, its state and
//! its drawing, is the app crate's (`crates/quentin-app/src/screen/lobby.rs`).

use std::time::Duration;

use tokio::sync::watch;
use tokio::time::Interval;

use quentin_app::render::clock_text;
use quentin_app::screen::lobby::{Ask, Board, Challenge, Exit, GameLine, Lobby};

use super::Next;
use super::driver::{Glue, Refresh, Wake};
use crate::context::Context;
use crate::hub::{GameView, Refusal, Standing, shown_rating};
use crate::ids::{ChallengeId, GameId, PlayerId, Seat};
use crate::present;
use crate::spec::Spec;
use crate::store::RatingRow;
use crate::tournament::{Settings, TournamentId};

/// The most open challenges a lobby lists.
const LOBBY_CHALLENGES: usize = 100;

/// The lobby on a player's terminal, between two other screens.
pub(super) struct LobbyGlue<'a> {
    ctx: &'a Context,
    lobby: &'a mut Lobby,
    news: watch::Receiver<u64>,
    tick: Interval,
    /// The player's open challenges: when one is accepted, its game opens at once.
    waiting: Vec<i64>,
    /// How many of the player's tournaments were cancelled when the messages left to them
    /// were read last (none yet: read at the lobby's opening).
    cancelled: Option<usize>,
    /// The tournament games the session took the player to: a new one opens at once.
    seen: &'a mut super::Seen,
}

impl<'a> LobbyGlue<'a> {
    /// The lobby `lobby` opened again, with the hub's news of it.
    pub(super) async fn open(
        ctx: &'a Context,
        lobby: &'a mut Lobby,
        seen: &'a mut super::Seen,
    ) -> LobbyGlue<'a> {
        let news = ctx.hub.watch_lobby();
        // The puzzle leaderboard as the store has it now, other processes' attempts too.
        ctx.hub.refresh_puzzle_leaders().await;
        LobbyGlue {
            ctx,
            lobby,
            news,
            tick: tokio::time::interval(Duration::from_secs(1)),
            waiting: Vec::new(),
            cancelled: None,
            seen,
        }
    }

    fn me(&self) -> PlayerId {
        PlayerId(self.lobby.me.0)
    }
}

impl Glue for LobbyGlue<'_> {
    type Screen = Lobby;
    type Done = Next;

    fn screen(&mut self) -> &mut Lobby {
        self.lobby
    }

    fn gone(&self) -> Next {
        Next::Quit
    }

    async fn refresh(&mut self) -> Refresh<Next> {
        self.news.borrow_and_update();
        // The messages left to the player (a tournament of theirs cancelled): read at the
        // lobby's opening (those left while they were away), then whenever one of their
        // tournaments is.
        let now_cancelled = self.ctx.hub.cancelled_for(self.me());
        if self.cancelled != Some(now_cancelled) {
            self.cancelled = Some(now_cancelled);
            match self.ctx.moderation.ledger().messages(self.me()).await {
                Ok(lines) if !lines.is_empty() => self.lobby.say(lines.join(". "), false),
                Ok(_) => {}
                Err(e) => tracing::warn!("cannot read a player's messages: {e:#}"),
            }
        }
        // A tournament game of the player's has begun: taken to it, from the tournament screen
        // or the lobby's.
        if let Some((id, _)) = super::summons(self.ctx, self.me(), self.seen) {
            self.lobby.message = None;
            return Refresh::Leave(Next::Summoned(id));
        }
        self.lobby.board = board(self.ctx, self.me());
        let me = self.me();
        let board = &self.lobby.board;
        let open: Vec<i64> = board
            .challenges
            .iter()
            .filter(|c| c.by == me.0)
            .map(|c| c.id)
            .collect();
        if let Some(id) = self
            .waiting
            .iter()
            .find(|id| !open.contains(id) && board.mine.iter().any(|g| g.id == **id && g.going))
        {
            // What the lobby said is old news once the game opens.
            self.lobby.message = None;
            return Refresh::Leave(Next::Game(GameId(*id)));
        }
        self.waiting = open;
        Refresh::Draw
    }

    fn wake(&mut self) -> Wake<'_> {
        Wake {
            news: Some(&mut self.news),
            change_in: None,
            beat: Some(&mut self.tick),
        }
    }

    async fn act(&mut self, ask: Ask) -> Option<Next> {
        let (ctx, me, now) = (self.ctx, self.me(), self.ctx.clock.now());
        let lobby = &mut *self.lobby;
        match ask {
            Ask::Nothing => {}
            Ask::Quit => return Some(Next::Quit),
            Ask::Puzzles => return Some(Next::Puzzles),
            Ask::Course => return Some(Next::Course),
            Ask::Operators => return Some(Next::Operators),
            Ask::Open(id) => return Some(Next::Game(GameId(id))),
            Ask::Vacation(None) => match ctx.hub.vacation(me, now).await {
                Ok(v) => lobby.say(
                    format!("Vacation: {}. V takes a day ahead.", v.words()),
                    false,
                ),
                Err(refusal) => lobby.say(refusal.to_string(), true),
            },
            Ask::Vacation(Some(days)) => match ctx.hub.take_vacation(me, days, None, now).await {
                Ok(v) => lobby.say(format!("Vacation taken: {}.", v.words()), false),
                Err(refusal) => lobby.say(refusal.to_string(), true),
            },
            Ask::Next => match ctx.hub.next_game(me, now) {
                Some(id) => return Some(Next::Game(id)),
                None => lobby.say("No game of yours waits for your move.".to_string(), false),
            },
            Ask::Accept(id) => match ctx.hub.accept(me, ChallengeId(id), now).await {
                Ok((id, _)) => return Some(Next::Game(id)),
                Err(refusal) => lobby.say(refusal.to_string(), true),
            },
            Ask::Withdraw(id) => match ctx.hub.withdraw(me, ChallengeId(id)).await {
                Ok(()) => lobby.say(format!("Challenge #{id} withdrawn."), false),
                Err(refusal) => lobby.say(refusal.to_string(), true),
            },
            Ask::CreateTournament(words) => {
                let words: Vec<&str> = words.split_whitespace().collect();
                match Settings::parse(&words) {
                    Err(why) => lobby.tournament_words(Err(why)),
                    Ok(settings) => {
                        lobby.tournament_words(Ok(()));
                        // Its creator is entered at once: leaving is one key (w).
                        match ctx.hub.create_tournament(me, &settings, now).await {
                            Ok(id) => match ctx.hub.join_tournament(me, id).await {
                                Ok(()) => lobby.say(
                                    format!("Tournament {id} made; you are in it (w leaves)."),
                                    false,
                                ),
                                Err(why) => lobby.say(
                                    format!("Tournament {id} made; you are not in it: {why}"),
                                    true,
                                ),
                            },
                            Err(why) => lobby.say(why.to_string(), true),
                        }
                    }
                }
            }
            Ask::JoinTournament(id) => {
                let id = TournamentId(id);
                match ctx.hub.join_tournament(me, id).await {
                    Ok(()) => lobby.say(format!("You joined tournament {id}."), false),
                    Err(why) => lobby.say(why.to_string(), true),
                }
            }
            Ask::StartTournament(id) => {
                let id = TournamentId(id);
                match ctx.hub.start_tournament(me, id, now).await {
                    Ok(()) => lobby.say(format!("Tournament {id} starts."), false),
                    Err(why) => lobby.say(why.to_string(), true),
                }
            }
            Ask::WithdrawTournament(id) => {
                let id = TournamentId(id);
                match ctx.hub.withdraw_tournament(me, id, false, now).await {
                    Ok(()) => lobby.say(format!("You left tournament {id}."), false),
                    Err(why) => lobby.say(why.to_string(), true),
                }
            }
            Ask::Challenge(spec) => match ctx.hub.challenge(me, &spec, now).await {
                Ok(id) => lobby.say(
                    format!(
                        "Challenge #{id} made: {}. Its game opens when accepted.",
                        spec.summary()
                    ),
                    false,
                ),
                Err(refusal) => {
                    let name = matches!(
                        refusal,
                        Refusal::NoSuchPlayer(_) | Refusal::ChallengeYourself
                    );
                    lobby.challenge_refused(refusal.to_string(), name);
                }
            },
        }
        None
    }

    fn left(&mut self, exit: Exit) -> Next {
        match exit {
            Exit::Quit => Next::Quit,
            Exit::Puzzles => Next::Puzzles,
            Exit::Course => Next::Course,
            Exit::Operators => Next::Operators,
            Exit::Open(id) => Next::Game(GameId(id)),
        }
    }
}

/// What the lobby of player `me` shows, from the hub.
fn board(ctx: &Context, me: PlayerId) -> Board {
    let now = ctx.clock.now();
    let hub = &ctx.hub;
    let (challenges, more_challenges) = hub.lobby_challenges(me, LOBBY_CHALLENGES);
    Board {
        motd: ctx.access.lists().motd.clone(),
        online: hub
            .online_players()
            .iter()
            .map(present::online_line)
            .collect(),
        challenges: challenges
            .into_iter()
            .map(|c| Challenge {
                id: c.id.0,
                by: c.by.0,
                by_name: c.by_name,
                by_rating: c.by_rating,
                spec: Spec {
                    setup: c.setup,
                    first: c.first,
                    clock: c.clock,
                    rated: c.rated,
                    to: c.to,
                },
            })
            .collect(),
        more_challenges,
        mine: hub
            .games_of(me, now, 10)
            .iter()
            .map(|g| mine_line(g, me))
            .collect(),
        live: hub
            .live_games(now, 10)
            .iter()
            .filter(|g| g.seat(me).is_none())
            .map(watched_line)
            .collect(),
        recent: hub
            .recent_results(now, 5)
            .iter()
            .map(|g| {
                format!(
                    "#{} {}: {}",
                    g.id,
                    g.setup.game,
                    g.result_text().unwrap_or_default()
                )
            })
            .collect(),
        leaders: hub.leaderboard(5).iter().map(leader_line).collect(),
        puzzle_leaders: hub
            .puzzle_leaders()
            .iter()
            .map(|(name, r)| puzzle_leader_line(name, r))
            .collect(),
        tournaments: hub
            .tournaments(now)
            .iter()
            .map(|t| page::tournament(t, now))
            .collect(),
    }
}

/// A game of the player's, from their side.
fn mine_line(g: &GameView, me: PlayerId) -> GameLine {
    let seat = g.seat(me).unwrap_or(Seat::First);
    let state = match (&g.result, g.to_move) {
        (Some(_), _) => g.result_for(seat).unwrap_or_default(),
        (None, Some(s)) if s == seat => format!("your turn, {}", clock_text(g.left[seat].0)),
        _ => "their turn".to_string(),
    };
    GameLine {
        id: g.id.0,
        text: format!(
            "#{} {} vs {}: {state}",
            g.id,
            g.setup.game,
            g.names[seat.other()]
        ),
        going: g.result.is_none(),
    }
}

/// A game others play, to watch.
fn watched_line(g: &GameView) -> GameLine {
    GameLine {
        id: g.id.0,
        text: format!(
            "#{} {} {} vs {}, {} action{}",
            g.id,
            g.setup.game,
            g.names[0],
            g.names[1],
            g.actions.len(),
            if g.actions.len() == 1 { "" } else { "s" }
        ),
        going: g.result.is_none(),
    }
}

fn leader_line(s: &Standing) -> String {
    format!(
        "{:<8} {:<5} {:<20} {:>5} RD {} ({} game{})",
        s.game.name(),
        s.class.to_string(),
        s.name,
        shown_rating(s.rating, s.provisional),
        s.deviation,
        s.games,
        if s.games == 1 { "" } else { "s" }
    )
}

fn puzzle_leader_line(name: &str, r: &RatingRow) -> String {
    format!(
        "{name:<20} {:>5} RD {} ({} puzzle{})",
        r.rating.round() as i64,
        r.deviation.round() as i64,
        r.games,
        if r.games == 1 { "" } else { "s" }
    )
}

mod page;

#[cfg(test)]
mod tests;
