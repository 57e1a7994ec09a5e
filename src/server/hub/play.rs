//! The moves of a game: playing, resigning, time running out, taking back by agreement, and
//! what a finished rated game does to the ratings. Each is committed to the store before memory
//! changes and anyone is told.

use std::collections::HashMap;

use anyhow::Result;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

use crate::rules::{Action, Color, Game};

use super::super::report::report;
use super::super::store::{GameRow, RatingRow, Store};
use super::{Hub, Live, Player, Refusal, color_of, ending_word, refuse, seat_of};

impl Hub {
    /// `player` plays `action` in game `id`: answered once it is on disk.
    ///
    /// # Errors
    /// Not in the game, not its turn, an illegal action, a game over (perhaps just now, on
    /// time), or a store that cannot save.
    pub fn play(&self, player: i64, id: i64, action: Action, now: i64) -> Result<(), Refusal> {
        let mut inner = self.lock();
        let inner = &mut *inner;
        let Some(game) = inner.games.get_mut(&id) else {
            return refuse("no such game");
        };
        let Some(seat) = game.row.players.iter().position(|p| *p == player) else {
            return refuse("not your game");
        };
        if game.row.result.is_some() {
            return refuse("the game is over");
        }
        let flagged = Self::flag(&mut inner.store, &mut inner.players, game, now)
            .map_err(|e| Refusal(format!("the server cannot save: {e}")))?;
        if flagged {
            self.lobby_changed();
            return refuse("the game is over: time ran out");
        }
        if game.to_move() != Some(seat) {
            return refuse("not your turn");
        }
        let mut position = game.position.clone();
        if let Err(why) = position.play(action) {
            return refuse(format!("illegal move: {why}"));
        }
        let mut left = game.left_at(now);
        left[seat] = game.row.clock.after_move_ms(left[seat]);
        let end = position.outcome().map(|o| {
            (
                o.winner().map_or("draw", Color::name).to_string(),
                ending_word(o.ending()).to_string(),
            )
        });
        let winner_seat = position
            .outcome()
            .and_then(|o| o.winner())
            .map(|c| seat_of(&position, c));
        let ratings = if end.is_some() && game.row.rated {
            rate(&inner.players, &game.row, winner_seat)
        } else {
            Vec::new()
        };
        inner
            .store
            .add_action(
                id,
                game.row.actions.len(),
                Some(action),
                (left, now),
                end.as_ref().map(|(r, w)| (r.as_str(), w.as_str())),
                &ratings,
            )
            .map_err(|e| Refusal(format!("the server cannot save: {e}")))?;
        game.position = position;
        game.row.actions.push(action);
        game.row.left = left;
        game.row.turn_since = now;
        game.takeback = None;
        if end.is_some() {
            game.row.ended = Some(now);
        }
        game.row.result = end;
        keep_ratings(&mut inner.players, &ratings);
        game.news.send_modify(|v| *v += 1);
        let over = game.row.result.is_some();
        if over {
            self.lobby_changed();
        }
        Ok(())
    }

    /// `player` resigns game `id`.
    ///
    /// # Errors
    /// Not in the game, a game over, a store that cannot save.
    pub fn resign(&self, player: i64, id: i64, now: i64) -> Result<(), Refusal> {
        let mut inner = self.lock();
        let inner = &mut *inner;
        let Some(game) = inner.games.get_mut(&id) else {
            return refuse("no such game");
        };
        let Some(seat) = game.row.players.iter().position(|p| *p == player) else {
            return refuse("not your game");
        };
        if game.row.result.is_some() {
            return refuse("the game is over");
        }
        Self::end(
            &mut inner.store,
            &mut inner.players,
            game,
            1 - seat,
            "resignation",
            now,
        )
        .map_err(|e| Refusal(format!("the server cannot save: {e}")))?;
        self.lobby_changed();
        Ok(())
    }

    /// Ends every game whose player to move has run out of time at `now`; whether any did.
    pub fn tick(&self, now: i64) -> bool {
        let mut inner = self.lock();
        let inner = &mut *inner;
        let mut any = false;
        for game in inner.games.values_mut() {
            // A game that cannot be ended now is still running out: the next tick tries again.
            match Self::flag(&mut inner.store, &mut inner.players, game, now) {
                Ok(flagged) => any |= flagged,
                Err(e) => report(format_args!(
                    "cannot end game {} on time (tried again at the next tick): {e:#}",
                    game.row.id
                )),
            }
        }
        if let Err(e) = inner.store.beat(now) {
            report(format_args!(
                "cannot write the heartbeat (tried again at the next tick): {e:#}"
            ));
        }
        if any {
            self.lobby_changed();
        }
        any
    }

    /// Ends `game` on time if its player to move has none left at `now`.
    fn flag(
        store: &mut Store,
        players: &mut HashMap<i64, Player>,
        game: &mut Live,
        now: i64,
    ) -> Result<bool> {
        let Some(seat) = game.to_move() else {
            return Ok(false);
        };
        if game.left_at(now)[seat] > 0 {
            return Ok(false);
        }
        Self::end(store, players, game, 1 - seat, "time", now)?;
        Ok(true)
    }

    /// Ends `game` with seat `winner` the winner, for `reason`.
    fn end(
        store: &mut Store,
        players: &mut HashMap<i64, Player>,
        game: &mut Live,
        winner: usize,
        reason: &str,
        now: i64,
    ) -> Result<()> {
        let mut left = game.left_at(now);
        for l in &mut left {
            *l = (*l).max(0);
        }
        let result = color_of(&game.position, winner).name().to_string();
        let ratings = if game.row.rated {
            rate(players, &game.row, Some(winner))
        } else {
            Vec::new()
        };
        store.add_action(
            game.row.id,
            game.row.actions.len(),
            None,
            (left, now),
            Some((&result, reason)),
            &ratings,
        )?;
        game.row.left = left;
        game.row.turn_since = now;
        game.row.result = Some((result, reason.to_string()));
        game.row.ended = Some(now);
        keep_ratings(players, &ratings);
        game.news.send_modify(|v| *v += 1);
        Ok(())
    }

    /// `player` asks to take the last action back, or agrees to the other's asking; in casual
    /// games only. Whether the action was taken back.
    ///
    /// # Errors
    /// A rated game, nothing to take back, not one's game.
    pub fn takeback(&self, player: i64, id: i64, now: i64) -> Result<bool, Refusal> {
        let mut inner = self.lock();
        let inner = &mut *inner;
        let Some(game) = inner.games.get_mut(&id) else {
            return refuse("no such game");
        };
        let Some(seat) = game.row.players.iter().position(|p| *p == player) else {
            return refuse("not your game");
        };
        if game.row.rated {
            return refuse("a rated game has no takebacks");
        }
        if game.row.result.is_some() {
            return refuse("the game is over");
        }
        if game.row.actions.is_empty() {
            return refuse("nothing to take back");
        }
        match game.takeback {
            Some(asker) if asker != seat => {
                let keep = game.row.actions.len() - 1;
                let mut position = game.row.setup.start().map_err(|e| Refusal(e.to_string()))?;
                for action in &game.row.actions[..keep] {
                    let _ = position.play(*action);
                }
                let left = game.left_at(now);
                inner
                    .store
                    .take_back(id, keep, left, now)
                    .map_err(|e| Refusal(format!("the server cannot save: {e}")))?;
                game.row.actions.truncate(keep);
                game.position = position;
                game.row.left = left;
                game.row.turn_since = now;
                game.takeback = None;
                game.news.send_modify(|v| *v += 1);
                Ok(true)
            }
            _ => {
                game.takeback = Some(seat);
                game.news.send_modify(|v| *v += 1);
                Ok(false)
            }
        }
    }

    /// `player` declines the other's takeback request.
    pub fn decline_takeback(&self, player: i64, id: i64) {
        let mut inner = self.lock();
        if let Some(game) = inner.games.get_mut(&id)
            && let Some(seat) = game.row.players.iter().position(|p| *p == player)
            && game.takeback.is_some_and(|asker| asker != seat)
        {
            game.takeback = None;
            game.news.send_modify(|v| *v += 1);
        }
    }
}

/// The two players' new ratings after `row` ended with seat `winner` winning (`None`: a draw).
fn rate(
    players: &HashMap<i64, Player>,
    row: &GameRow,
    winner: Option<usize>,
) -> Vec<(i64, Game, RatingRow)> {
    let game = row.setup.game;
    let of = |id: i64| {
        players
            .get(&id)
            .and_then(|p| p.ratings.get(&game))
            .copied()
            .unwrap_or_default()
    };
    let [a, b] = row.players.map(of);
    let glicko = |r: RatingRow| Glicko2Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    };
    let outcome = match winner {
        Some(0) => Outcomes::WIN,
        Some(_) => Outcomes::LOSS,
        None => Outcomes::DRAW,
    };
    let (na, nb) = glicko2(&glicko(a), &glicko(b), &outcome, &Glicko2Config::new());
    let back = |n: Glicko2Rating, old: RatingRow| RatingRow {
        rating: n.rating,
        deviation: n.deviation,
        volatility: n.volatility,
        games: old.games + 1,
    };
    vec![
        (row.players[0], game, back(na, a)),
        (row.players[1], game, back(nb, b)),
    ]
}

fn keep_ratings(players: &mut HashMap<i64, Player>, ratings: &[(i64, Game, RatingRow)]) {
    for (id, game, rating) in ratings {
        if let Some(p) = players.get_mut(id) {
            p.ratings.insert(*game, *rating);
        }
    }
}
