//! What the hub shows: a game as its players and watchers see it, the open challenges, a
//! player's games, the games being played, recent results, the leaderboard and a player's
//! own ratings, the players online, and records. The data only: what people read of it is written in
//! `crate::present`.
//!
//! The `Hub` methods here: `game`, `missing`, `record`, `challenges`, `games_of`, `live_games`,
//! `recent_results`, `online`, `online_players`, `online_ids`, `ratings_of`, `leaderboard`.

use quentin_rules::{Action, Color, Game, Position, Setup};

use super::agree::Rematch;
use super::{Hub, Inner, Live, color_of};
use crate::ids::{ChallengeId, GameId, Millis, Moment, PlayerId, Seat};
use crate::size_class::{RatingKey, SizeClass, rating_key};
use crate::spec::TimeControl;
use crate::store::RatingRow;
use quentin_app::app::Finish;
use quentin_record::game_end::GameEnd;
use quentin_record::game_line::takeback_len;
use quentin_record::spec::First;

/// A game as its players and watchers see it.
#[derive(Clone, Debug)]
pub struct GameView {
    /// Its number.
    pub id: GameId,
    /// Its setup.
    pub setup: Setup,
    /// Player 1 (who moved first) and player 2.
    pub players: [PlayerId; 2],
    /// Their names.
    pub names: [String; 2],
    /// Their ratings at this game, rounded.
    pub ratings: [i64; 2],
    /// Whether each rating is provisional (its deviation still high).
    pub provisional: [bool; 2],
    /// What the game changed each rating by, once a rated game is over (kept while the
    /// server runs).
    pub changes: Option<[i64; 2]>,
    /// Whether each player has a session open on the server.
    pub connected: [bool; 2],
    /// How many game screens watch it, its players' not counted.
    pub watchers: usize,
    /// The actions played.
    pub actions: Vec<Action>,
    /// The position they reach.
    pub position: Position,
    /// The time control.
    pub clock: TimeControl,
    /// Milliseconds left to each player now.
    pub left: [Millis; 2],
    /// The seat to move; `None` once over.
    pub to_move: Option<Seat>,
    /// How it ended, once over.
    pub result: Option<GameEnd>,
    /// When it ended, once over.
    pub ended: Option<Moment>,
    /// Rated or casual.
    pub rated: bool,
    /// The seat that asks to take back.
    pub takeback: Option<Seat>,
    /// Milliseconds left for the first move of the seat to move, while it has made none.
    pub first_move: Option<Millis>,
    /// Once over: who offers a rematch.
    pub rematch: Option<Seat>,
    /// Once over: what the offer of a rematch has given.
    pub rematch_state: Option<Rematch>,
    /// The tournament (and round) it is a game of, if any.
    pub tournament: Option<super::InTournament>,
}

impl GameView {
    /// The seat of `player`, if they play in it.
    #[must_use]
    pub fn seat(&self, player: PlayerId) -> Option<Seat> {
        Seat::BOTH.into_iter().find(|s| self.players[*s] == player)
    }

    /// The colour of seat `seat` now.
    #[must_use]
    pub fn color(&self, seat: Seat) -> Color {
        color_of(&self.position, seat)
    }

    /// The result in the bot protocol's words: `B+ connection`, `W+ time`, `0 repetition`,
    /// `aborted no-first-move`.
    #[must_use]
    pub fn result_words(&self) -> Option<String> {
        self.result.map(GameEnd::bot_words)
    }

    /// How it ended, as the screens tell it.
    #[must_use]
    pub fn finish(&self) -> Option<Finish> {
        Some(Finish {
            end: self.result?,
            black: self.seat_of_color(Color::Black),
            actions: self.actions.len(),
        })
    }

    /// The seat that plays `color` at the end of the game.
    fn seat_of_color(&self, color: Color) -> Seat {
        if self.color(Seat::Second) == color {
            Seat::Second
        } else {
            Seat::First
        }
    }

    /// The seat that made no first move, in an aborted game: the first seat with no action.
    #[must_use]
    pub fn no_first_move(&self) -> Seat {
        Seat::first_idle(self.actions.len())
    }

    /// The seat that asks for a takeback and how many actions it would take back.
    #[must_use]
    pub fn takeback_asked(&self) -> Option<(Seat, usize)> {
        let asker = self.takeback?;
        let start = self.setup.start().ok()?;
        Some((asker, takeback_len(&start, &self.actions, asker.index())))
    }
}

/// The provisional rule (a deviation above 110, lichess's threshold: `1500?`) and the ways a
/// rating and its change are written: one rule for the game ratings here and the puzzle
/// ratings of the app crate.
pub use quentin_app::puzzle_rating::{PROVISIONAL, shown_rating, signed};

/// An open challenge as the lobby lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct ChallengeView {
    /// Its number.
    pub id: ChallengeId,
    /// Who made it.
    pub by: PlayerId,
    /// Their name.
    pub by_name: String,
    /// The game.
    pub setup: Setup,
    /// Who moves first, from the challenger's side.
    pub first: First,
    /// The time control.
    pub clock: TimeControl,
    /// Rated or casual.
    pub rated: bool,
    /// The only player who may accept it.
    pub to: Option<String>,
    /// The challenger's rating at its game and board-size class, as shown (`1500?`).
    pub by_rating: String,
}

impl ChallengeView {
    /// Who moves first, for anyone who reads the list: the challenger's name, `acceptor`
    /// (whoever accepts it) or `random`.
    #[must_use]
    pub fn first_mover(&self) -> &str {
        match self.first {
            First::Me => &self.by_name,
            First::You => "acceptor",
            First::Random => "random",
        }
    }
}

/// A player online, as the lobby's list shows them (its line: `crate::present::online_line`).
#[derive(Clone, Debug, PartialEq)]
pub struct OnlinePlayer {
    /// Their name.
    pub name: String,
    /// The game whose rating they have played most rated games for (at its board-size class),
    /// and that rating; `None` before any rated game.
    pub most_played: Option<(Game, RatingRow)>,
}

/// A line of the leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// The player's name.
    pub name: String,
    /// The game.
    pub game: Game,
    /// The class of board sizes the rating is for.
    pub class: SizeClass,
    /// The rating, rounded.
    pub rating: i64,
    /// Its deviation, rounded.
    pub deviation: i64,
    /// Whether it is provisional (its deviation above [`PROVISIONAL`]).
    pub provisional: bool,
    /// Rated games played.
    pub games: i64,
}

impl Inner {
    pub(super) fn challenge_view(&self, c: &super::ChallengeRow) -> ChallengeView {
        ChallengeView {
            id: c.id,
            by: c.by,
            by_name: self.name_of(c.by),
            setup: c.setup,
            first: c.first,
            clock: c.clock,
            rated: c.rated,
            to: c.to.map(|t| self.name_of(t)),
            by_rating: self.rating_text(c.by, rating_key(c.setup)),
        }
    }

    pub(super) fn name_of(&self, id: PlayerId) -> String {
        self.players
            .get(&id)
            .map_or_else(|| format!("#{id}"), |p| p.name.clone())
    }

    /// `player`'s rating at `key` as shown: `1500?` while provisional (or never rated).
    fn rating_text(&self, player: PlayerId, key: RatingKey) -> String {
        let r = self
            .players
            .get(&player)
            .and_then(|p| p.ratings.get(&key))
            .copied()
            .unwrap_or_default();
        shown_rating(r.rating.round() as i64, r.deviation > PROVISIONAL)
    }

    /// What the list of players online shows of `player`: their name and the game and
    /// board-size class they played most rated games of, with its rating.
    fn online_player(&self, player: PlayerId) -> OnlinePlayer {
        let most = self.players.get(&player).and_then(|p| {
            p.ratings.iter().max_by_key(|(key, r)| {
                // The most games; among equals the first game and class, every time.
                let (game, class) = **key;
                let at = Game::ALL.iter().position(|g| *g == game);
                let size = SizeClass::ALL.iter().position(|c| *c == class);
                (r.games, std::cmp::Reverse((at, size)))
            })
        });
        OnlinePlayer {
            name: self.name_of(player),
            most_played: most
                .filter(|(_, r)| r.games > 0)
                .map(|((game, _), r)| (*game, *r)),
        }
    }

    pub(super) fn view(&self, game: &Live, now: Moment) -> GameView {
        let row = &game.row;
        let rating = |id: PlayerId| {
            self.players
                .get(&id)
                .and_then(|p| p.ratings.get(&rating_key(row.setup)))
                .copied()
                .unwrap_or_default()
        };
        let ratings = row.players.map(rating);
        GameView {
            id: row.id,
            setup: row.setup,
            players: row.players,
            names: row.players.map(|p| self.name_of(p)),
            ratings: ratings.map(|r| r.rating.round() as i64),
            provisional: ratings.map(|r| r.deviation > PROVISIONAL),
            changes: game.changes,
            connected: row
                .players
                .map(|p| self.online.contains_key(&p) || self.online_elsewhere.contains_key(&p)),
            watchers: game.watchers,
            actions: row.actions.clone(),
            position: game.position.clone(),
            clock: row.clock,
            left: game.left_at(now).map(|l| l.max(Millis(0))),
            to_move: game.to_move(),
            result: row.result,
            ended: row.ended,
            rated: row.rated,
            takeback: game.takeback,
            first_move: game.first_move_left(now).map(|l| l.max(Millis(0))),
            rematch: game.rematch,
            rematch_state: game.rematch_state(),
            tournament: self.in_tournament(row.id),
        }
    }
}

impl Hub {
    /// Game `id` as it stands at `now`.
    #[must_use]
    pub fn game(&self, id: GameId, now: Moment) -> Option<GameView> {
        let inner = self.lock();
        inner.games.get(&id).map(|g| inner.view(g, now))
    }

    /// Why game `id` cannot be had: there is none, or it is damaged.
    #[must_use]
    pub fn missing(&self, id: GameId) -> super::Refusal {
        self.lock().missing(id)
    }

    /// The record of game `id`.
    #[must_use]
    pub fn record(&self, id: GameId, now: Moment) -> Option<String> {
        self.game(id, now).map(|g| g.record())
    }

    /// The open challenges, oldest first.
    #[must_use]
    pub fn challenges(&self) -> Vec<ChallengeView> {
        let inner = self.lock();
        inner
            .challenges
            .values()
            .map(|c| inner.challenge_view(c))
            .collect()
    }

    /// `player`'s games: the unfinished ones first, then the last finished ones, newest first;
    /// at most `most`.
    #[must_use]
    pub fn games_of(&self, player: PlayerId, now: Moment, most: usize) -> Vec<GameView> {
        self.games_page(player, now, 0, most).0
    }

    /// The games under way, newest first; at most `most`.
    #[must_use]
    pub fn live_games(&self, now: Moment, most: usize) -> Vec<GameView> {
        let inner = self.lock();
        inner
            .games
            .values()
            .rev()
            .filter(|g| g.row.result.is_none())
            .take(most)
            .map(|g| inner.view(g, now))
            .collect()
    }

    /// The games that ended last, newest first; at most `most`.
    #[must_use]
    pub fn recent_results(&self, now: Moment, most: usize) -> Vec<GameView> {
        let inner = self.lock();
        let mut done: Vec<&Live> = inner
            .games
            .values()
            .filter(|g| g.row.result.is_some())
            .collect();
        done.sort_by_key(|g| std::cmp::Reverse(g.row.ended));
        done.into_iter()
            .take(most)
            .map(|g| inner.view(g, now))
            .collect()
    }

    /// The names of the players online, sorted.
    #[must_use]
    pub fn online(&self) -> Vec<String> {
        let inner = self.lock();
        let mut names: Vec<String> = self
            .online_ids(&inner)
            .into_iter()
            .map(|id| inner.name_of(id))
            .collect();
        names.sort_by_key(|n| n.to_lowercase());
        names
    }

    /// The players online as the lobby lists them, sorted by name, each with the game they
    /// played most ([`OnlinePlayer`]).
    #[must_use]
    pub fn online_players(&self) -> Vec<OnlinePlayer> {
        let inner = self.lock();
        let mut ids: Vec<PlayerId> = self.online_ids(&inner).into_iter().collect();
        ids.sort_by_key(|&id| inner.name_of(id).to_lowercase());
        ids.into_iter().map(|id| inner.online_player(id)).collect()
    }

    fn online_ids(&self, inner: &Inner) -> std::collections::BTreeSet<PlayerId> {
        inner
            .online
            .keys()
            .chain(inner.online_elsewhere.keys())
            .copied()
            .collect()
    }

    /// Every rating of player `id`, provisional ones too (marked so), by game and board-size
    /// class: what a player's own page shows (the leaderboard leaves the provisional out).
    #[must_use]
    pub fn ratings_of(&self, id: PlayerId) -> Vec<Standing> {
        let inner = self.lock();
        let Some(p) = inner.players.get(&id) else {
            return Vec::new();
        };
        let mut rows: Vec<Standing> = p
            .ratings
            .iter()
            .map(|(&(game, class), r)| Standing {
                name: p.name.clone(),
                game,
                class,
                rating: r.rating.round() as i64,
                deviation: r.deviation.round() as i64,
                provisional: r.deviation > PROVISIONAL,
                games: r.games,
            })
            .collect();
        rows.sort_by_key(|s| (Game::ALL.iter().position(|g| *g == s.game), s.class));
        rows
    }

    /// The best rated players at each game and board-size class, best first; at most `most`
    /// a game and class.
    #[must_use]
    pub fn leaderboard(&self, most: usize) -> Vec<Standing> {
        let inner = self.lock();
        let mut out = Vec::new();
        for key in Game::ALL
            .into_iter()
            .flat_map(|g| SizeClass::ALL.map(|c| (g, c)))
        {
            let (game, class) = key;
            let mut rows: Vec<Standing> = inner
                .players
                .values()
                // Provisional ratings stay off it (as on lichess): a few games say little,
                // and a second key's farmed wins would top it.
                .filter_map(|p| {
                    p.ratings
                        .get(&key)
                        .filter(|r| r.deviation <= PROVISIONAL)
                        .map(|r| Standing {
                            name: p.name.clone(),
                            game,
                            class,
                            rating: r.rating.round() as i64,
                            deviation: r.deviation.round() as i64,
                            provisional: r.deviation > PROVISIONAL,
                            games: r.games,
                        })
                })
                .collect();
            rows.sort_by(|a, b| b.rating.cmp(&a.rating).then_with(|| a.name.cmp(&b.name)));
            out.extend(rows.into_iter().take(most));
        }
        out
    }
}
