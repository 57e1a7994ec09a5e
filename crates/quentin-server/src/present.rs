//! What people read of the hub's data: a game's result and its players' ratings as the
//! screens show them, its record's text, a line of the list of players online. The hub holds
//! and changes the data and writes no sentence; the bot protocol's words are written in `bot/answer.rs`.

use quentin_record::record::{self, Players};

use crate::hub::{GameView, OnlinePlayer, PROVISIONAL, TournamentView, shown_rating, signed};
use crate::ids::Seat;

impl GameView {
    /// The result for people, as a watcher reads it: `bob joined left and right and wins`,
    /// `alice ran out of time: bob wins`, `Game aborted: bob made no first move`.
    #[must_use]
    pub fn result_text(&self) -> Option<String> {
        Some(
            self.finish()?
                .text_in(&self.names, None, self.in_words().as_deref()),
        )
    }

    /// The result from `seat`'s side, with the rating change of a rated game: `You joined
    /// top and bottom: you win, +12`.
    #[must_use]
    pub fn result_for(&self, seat: Seat) -> Option<String> {
        let mut text =
            self.finish()?
                .text_in(&self.names, Some(seat.index()), self.in_words().as_deref());
        if let Some(changes) = self.changes {
            text.push_str(&format!(", {}", signed(changes[seat])));
        }
        Some(text)
    }

    /// The tournament it is a game of, in words: `tournament t7, round 2`.
    fn in_words(&self) -> Option<String> {
        self.tournament.map(|t| t.to_string())
    }

    /// Seat `seat`'s rating as shown: `1500?` while provisional.
    #[must_use]
    pub fn rating_text(&self, seat: Seat) -> String {
        shown_rating(self.ratings[seat], self.provisional[seat])
    }

    /// The record, as `quentin replay` reads it: the players' names as its headers, comments
    /// on the terms and the result.
    #[must_use]
    pub fn record(&self) -> String {
        let players: Players = [Some(self.names[0].clone()), Some(self.names[1].clone())];
        let mut out = format!(
            "# quentin serve, game {}: {} vs {}, {}, {}\n",
            self.id,
            self.names[0],
            self.names[1],
            self.clock,
            if self.rated { "rated" } else { "casual" }
        );
        if let Some(result) = self.result_text() {
            out.push_str(&format!("# {result}\n"));
        }
        out.push_str(&record::write_players(self.setup, &players, &self.actions));
        out
    }
}

/// What the list of players online says of a player: their name and the rating of the game
/// they played most (`alice quentin 1612`, `bob quint 1500?`), or `new` for a player who has
/// not played a rated game.
#[must_use]
pub fn online_line(player: &OnlinePlayer) -> String {
    match &player.most_played {
        Some((game, rating)) => format!(
            "{} {} {}",
            player.name,
            game,
            shown_rating(rating.rating.round() as i64, rating.deviation > PROVISIONAL)
        ),
        None => format!("{} new", player.name),
    }
}

/// A tournament in a line, as `tournaments` lists it (and the lobby's page and
/// `quentin serve admin tournaments`): `t3 swiss quentin 9 open 5/16 by ann`.
pub(crate) fn tournament_summary(view: &TournamentView) -> String {
    format!(
        "{} {} {} {} {} {}/{} by {}",
        view.id,
        view.settings.kind,
        view.settings.spec.setup.game,
        view.settings.spec.setup.size,
        view.status,
        view.entrants.len(),
        view.settings.max,
        view.creator
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::RatingRow;
    use quentin_rules::Game;

    #[test]
    fn the_online_list_says_the_most_played_game_s_rating_or_new() {
        let rated = OnlinePlayer {
            name: "alice".to_string(),
            most_played: Some((
                Game::Quentin,
                RatingRow {
                    rating: 1611.6,
                    deviation: 60.0,
                    ..RatingRow::default()
                },
            )),
        };
        assert_eq!(online_line(&rated), "alice quentin 1612");
        let provisional = OnlinePlayer {
            most_played: Some((Game::Quint, RatingRow::default())),
            ..rated.clone()
        };
        assert_eq!(online_line(&provisional), "alice quint 1500?");
        let new = OnlinePlayer {
            most_played: None,
            ..rated
        };
        assert_eq!(online_line(&new), "alice new");
    }
}
