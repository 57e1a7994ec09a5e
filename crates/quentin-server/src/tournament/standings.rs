//! Standings: each player's points, the tie-breaks that order equal points (Buchholz, then
//! Sonneborn-Berger for Swiss tournaments and round robins; performance for arenas), and the
//! crosstable of who did what against whom.

use std::collections::HashMap;
use std::fmt;

use super::{GameResult, Kind, Pairing, Played, Player, arena_score};

/// What a player has done so far, from the finished games and the byes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Half points scored (a win 2, a draw 1, a bye 2).
    pub halves: u32,
    /// The opponents of the finished games, in order, with the half points scored against
    /// each.
    pub games: Vec<(Player, u32)>,
    /// Every game's colour, in order, true when the player moved first (running ones too).
    pub firsts: Vec<bool>,
    /// Byes had.
    pub byes: u32,
}

impl Tally {
    /// How many more times the player moved first than second.
    #[must_use]
    pub fn balance(&self) -> i32 {
        self.firsts
            .iter()
            .map(|first| if *first { 1 } else { -1 })
            .sum()
    }
}

/// Every player's tally: the players named, and anyone else met in `played`.
#[must_use]
pub fn tallies(players: &[Player], played: &[Played]) -> HashMap<Player, Tally> {
    let mut all: HashMap<Player, Tally> = players.iter().map(|p| (*p, Tally::default())).collect();
    for game in played {
        match game.pairing {
            Pairing::Bye(p) => {
                let tally = all.entry(p).or_default();
                tally.byes += 1;
                tally.halves += 2;
            }
            Pairing::Game { first, second } => {
                for (me, them, moved_first) in [(first, second, true), (second, first, false)] {
                    let tally = all.entry(me).or_default();
                    tally.firsts.push(moved_first);
                    if let Some(result) = game.result {
                        let halves = result.halves_for(moved_first);
                        tally.halves += halves;
                        tally.games.push((them, halves));
                    }
                }
            }
        }
    }
    all
}

/// A tie-break's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tiebreak {
    /// A sum of points, in quarters (Sonneborn-Berger multiplies halves by halves).
    Quarters(u64),
    /// A rating (an arena's performance).
    Rating(i64),
}

impl fmt::Display for Tiebreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Tiebreak::Quarters(q) => {
                let fraction = match q % 4 {
                    0 => "",
                    1 => ".25",
                    2 => ".5",
                    _ => ".75",
                };
                write!(f, "{}{fraction}", q / 4)
            }
            Tiebreak::Rating(r) => write!(f, "{r}"),
        }
    }
}

/// A player's line in the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// 1 for the leader; no two players share one (the entry order breaks what the
    /// tie-breaks leave equal).
    pub rank: usize,
    /// Who.
    pub player: Player,
    /// Half points: a Swiss or round robin's points, or an arena's (a win 2 points, 4 on a
    /// streak).
    pub halves: u32,
    /// The tie-breaks, in the order they count.
    pub tiebreaks: Vec<Tiebreak>,
}

/// The standings of `players` (in the order they entered, which breaks the last ties) after
/// `played`. `ratings` are the players' ratings, for an arena's performance.
#[must_use]
pub fn standings(
    kind: Kind,
    players: &[Player],
    played: &[Played],
    ratings: &HashMap<Player, i64>,
) -> Vec<Standing> {
    let tallies = tallies(players, played);
    let mut lines: Vec<Standing> = players
        .iter()
        .map(|p| {
            let tally = tallies.get(p).cloned().unwrap_or_default();
            match kind {
                Kind::Arena => Standing {
                    rank: 0,
                    player: *p,
                    halves: arena_score::score(*p, played).halves,
                    tiebreaks: vec![Tiebreak::Rating(performance(&tally, ratings))],
                },
                Kind::Swiss | Kind::RoundRobin => {
                    let of = |q: &Player| tallies.get(q).map_or(0, |t| u64::from(t.halves));
                    let buchholz: u64 = tally.games.iter().map(|(q, _)| of(q) * 2).sum();
                    let sonneborn: u64 = tally
                        .games
                        .iter()
                        .map(|(q, mine)| u64::from(*mine) * of(q))
                        .sum();
                    Standing {
                        rank: 0,
                        player: *p,
                        halves: tally.halves,
                        tiebreaks: vec![
                            Tiebreak::Quarters(buchholz),
                            Tiebreak::Quarters(sonneborn),
                        ],
                    }
                }
            }
        })
        .collect();
    // A stable sort: equal lines keep the entry order.
    lines.sort_by(|a, b| (b.halves, &b.tiebreaks).cmp(&(a.halves, &a.tiebreaks)));
    for (i, line) in lines.iter_mut().enumerate() {
        line.rank = i + 1;
    }
    lines
}

/// A performance rating: the opponents' average rating, plus 400 times the wins less the
/// losses over the games (the rating itself before any game).
fn performance(tally: &Tally, ratings: &HashMap<Player, i64>) -> i64 {
    let rating = |p: &Player| ratings.get(p).copied().unwrap_or(1500);
    if tally.games.is_empty() {
        return 0;
    }
    let n = tally.games.len() as i64;
    let opponents: i64 = tally.games.iter().map(|(q, _)| rating(q)).sum();
    let margin: i64 = tally
        .games
        .iter()
        .map(|(_, halves)| i64::from(*halves) - 1)
        .sum();
    (opponents + 400 * margin) / n
}

/// The crosstable: for each line of `standings`, a cell for each line's player in the same
/// order, with what the row's player scored against them game by game (`1`, `0`, `=` for a
/// draw, `*` while playing), empty when they have not met, `X` on the diagonal.
#[must_use]
pub fn crosstable(standings: &[Standing], played: &[Played]) -> Vec<Vec<String>> {
    standings
        .iter()
        .map(|row| {
            standings
                .iter()
                .map(|column| {
                    if row.player == column.player {
                        return "X".to_string();
                    }
                    played
                        .iter()
                        .filter(|g| g.met(row.player, column.player))
                        .map(|g| {
                            let first = matches!(
                                g.pairing,
                                Pairing::Game { first, .. } if first == row.player
                            );
                            match g.result.map(|r| r.halves_for(first)) {
                                None => '*',
                                Some(2) => '1',
                                Some(1) => '=',
                                Some(_) => '0',
                            }
                        })
                        .collect()
                })
                .collect()
        })
        .collect()
}

/// A finished game's result as the bot protocol writes it, `*` while it goes on.
#[must_use]
pub fn result_word(result: Option<GameResult>) -> &'static str {
    result.map_or("*", GameResult::word)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::PlayerId;

    /// The players numbered `numbers`.
    fn players(numbers: &[i64]) -> Vec<PlayerId> {
        numbers.iter().copied().map(PlayerId).collect()
    }

    fn game(round: u32, first: i64, second: i64, result: Option<GameResult>) -> Played {
        Played {
            round,
            pairing: Pairing::Game {
                first: PlayerId(first),
                second: PlayerId(second),
            },
            result,
        }
    }

    #[test]
    fn buchholz_and_sonneborn_berger_order_equal_points() {
        use GameResult::{Draw, FirstWon, SecondWon};
        // 1 beats 2, 3 beats 4, 5 has the bye; then 1 beats 3, 5 beats 2, 4 has the bye;
        // then 3 draws with 5, 2 beats 4, 1 has the bye.
        let played = [
            game(1, 1, 2, Some(FirstWon)),
            game(1, 4, 3, Some(SecondWon)),
            Played {
                round: 1,
                pairing: Pairing::Bye(PlayerId(5)),
                result: None,
            },
            game(2, 1, 3, Some(FirstWon)),
            game(2, 2, 5, Some(SecondWon)),
            Played {
                round: 2,
                pairing: Pairing::Bye(PlayerId(4)),
                result: None,
            },
            game(3, 3, 5, Some(Draw)),
            game(3, 4, 2, Some(SecondWon)),
            Played {
                round: 3,
                pairing: Pairing::Bye(PlayerId(1)),
                result: None,
            },
        ];
        let lines = standings(
            Kind::Swiss,
            &players(&[1, 2, 3, 4, 5]),
            &played,
            &HashMap::new(),
        );
        let shown: Vec<String> = lines
            .iter()
            .map(|l| {
                let t: Vec<String> = l.tiebreaks.iter().map(ToString::to_string).collect();
                format!(
                    "{} {} {} {}",
                    l.rank,
                    l.player,
                    crate::tournament::points(l.halves),
                    t.join(" ")
                )
            })
            .collect();
        // Points: 1: 3, 5: 2.5, 3: 1.5, 2: 1, 4: 1.
        // Buchholz: 1 = 2's 1 + 3's 1.5 = 2.5; 5 = 2's 1 + 3's 1.5 = 2.5;
        // 3 = 4's 1 + 1's 3 + 5's 2.5 = 6.5; 2 = 1's 3 + 5's 2.5 + 4's 1 = 6.5; 4 = 3 + 2 = 2.5.
        // Sonneborn-Berger: 1 = 1 + 1.5 = 2.5; 5 = 1 + 1.5 / 2 = 1.75; 3 = 1 + 2.5 / 2 = 2.25;
        // 2 = 4's 1 = 1; 4 = 0.
        assert_eq!(
            shown,
            [
                "1 1 3 2.5 2.5",
                "2 5 2.5 2.5 1.75",
                "3 3 1.5 6.5 2.25",
                "4 2 1 6.5 1",
                "5 4 1 2.5 0"
            ]
        );
        let table = crosstable(&lines, &played);
        assert_eq!(table[0], ["X", "", "1", "1", ""]);
        assert_eq!(table[2], ["0", "=", "X", "", "1"]);
    }

    #[test]
    fn a_running_game_counts_for_colours_and_not_for_points() {
        let played = [game(1, 7, 8, None)];
        let all = tallies(&players(&[7, 8]), &played);
        assert_eq!(all[&PlayerId(7)].halves, 0);
        assert_eq!(all[&PlayerId(7)].balance(), 1);
        assert_eq!(all[&PlayerId(8)].balance(), -1);
        let table = crosstable(
            &standings(
                Kind::RoundRobin,
                &players(&[7, 8]),
                &played,
                &HashMap::new(),
            ),
            &played,
        );
        assert_eq!(table[0][1], "*");
        assert_eq!(result_word(None), "*");
    }
}
